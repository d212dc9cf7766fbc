#!/bin/sh
# Builds the few Linux objects ftv runs as the arm64 ftrace backend
# (docs/kernel.md), out of tree: the source tree is never written (O=).
#
#   build-kernel.sh SRC OUT FRAGMENT OBJECT...
#     SRC       a kernel source tree (unpacked linux-source-X or the user's)
#     OUT       the build directory (KERNEL_OUT)
#     FRAGMENT  ftv's config fragment (kernel/ftv.config)
#     OBJECT    objects relative to the tree, e.g. arch/arm64/kernel/ftrace.o
# The kernel's own make is incremental: a second run with nothing changed
# rebuilds nothing; the .config is regenerated only when the fragment is
# newer than it.
set -eu
src=$1 out=$2 frag=$3
shift 3
[ -f "$src/Makefile" ] || { echo "build-kernel: $src: not a kernel tree (no Makefile)" >&2; exit 2; }
[ -f "$frag" ] || { echo "build-kernel: $frag: no config fragment" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
frag=$(cd "$(dirname "$frag")" && pwd)/$(basename "$frag")
cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
jobs=${KERNEL_JOBS:-2}
kmake() { make -s -C "$src" ARCH=arm64 CROSS_COMPILE="$cross" O="$out" "$@"; }
if [ ! -f "$out/.config" ] || [ "$frag" -nt "$out/.config" ]; then
	kmake defconfig >/dev/null
	# merge: every CONFIG_X=v of the fragment set with scripts/config
	grep '^CONFIG_' "$frag" | while IFS== read -r key val; do
		name=${key#CONFIG_}
		case $val in
		y) "$src/scripts/config" --file "$out/.config" -e "$name" ;;
		n) "$src/scripts/config" --file "$out/.config" -d "$name" ;;
		*) "$src/scripts/config" --file "$out/.config" --set-val "$name" "$val" ;;
		esac
	done
	kmake olddefconfig >/dev/null
	# an =y line of the fragment that olddefconfig dropped: an option
	# this kernel does not have (6.1 has no DYNAMIC_FTRACE_WITH_CALL_OPS)
	# or whose dependencies fail; said once, the build goes on
	grep '^CONFIG_.*=y$' "$frag" | while read -r line; do
		grep -qx "$line" "$out/.config" ||
			echo "build-kernel: note: $line dropped by olddefconfig (not in this kernel, or a dependency is missing)" >&2
	done
fi
kmake -j"$jobs" prepare
kmake -j"$jobs" "$@"
