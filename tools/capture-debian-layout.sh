#!/bin/sh
# Regenerates the committed layout of Debian trixie's arm64 cloud kernel
# with its modules: fetches linux-image-RELEASE-cloud-arm64-dbg (the vmlinux
# with its symbols) and linux-image-RELEASE-cloud-arm64-unsigned (the
# .ko.xz modules the kernel loads, and modules.order) with
# fetch-debian-kernel.sh into a cache outside the tree, captures the vmlinux
# and every module, in modules.order (the layout's load order), with
# `ftv capture` and writes
#   corpus/layouts/debian-trixie-arm64-<version>-cloud.layout.xz
# The packages are never committed (320 MB and 28 MB).
#
#   capture-debian-layout.sh [CACHE_DIR]
#     CACHE_DIR  default ~/.cache/ftv/kernel-dbg; FTV=path/to/ftv overrides
#                the binary (default build/ftv, built with make);
#                FTV_DEBIAN_RELEASE (default 6.12.107+deb13, the committed
#                layout's) picks the kernel: the output is deterministic for
#                one release, and a newer one is another file
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-${HOME:-/tmp}/.cache/ftv/kernel-dbg}
ftv=${FTV:-$top/build/ftv}
release=${FTV_DEBIAN_RELEASE:-6.12.107+deb13}
[ -x "$ftv" ] || make -C "$top" build/ftv >/dev/null

re=$(echo "$release" | sed 's/[.+]/\\&/g')
sh "$top/tools/fetch-debian-kernel.sh" "^linux-image-$re-cloud-arm64-dbg\$" "$cache" "$cache/unpacked"
sh "$top/tools/fetch-debian-kernel.sh" "^linux-image-$re-cloud-arm64-unsigned\$" "$cache" "$cache/unpacked-unsigned"
kernel=$release-cloud-arm64              # 6.12.107+deb13-cloud-arm64
vmlinux=$cache/unpacked/usr/lib/debug/boot/vmlinux-$kernel
moddir=$cache/unpacked-unsigned/usr/lib/modules/$kernel
version=${release%%+*}                   # 6.12.107
out=$top/corpus/layouts/debian-trixie-arm64-$version-cloud.layout.xz
# modules.order names kernel/.../x.ko; the package ships x.ko.xz
"$ftv" capture "$vmlinux" $(sed "s|^|$moddir/|; s|\$|.xz|" "$moddir/modules.order") -o "$out"
"$ftv" layout "$out"
