#!/bin/sh
# Regenerates the committed layout of Debian trixie's arm64 cloud kernel:
# fetches linux-image-*-cloud-arm64-dbg (arm64, trixie) with
# fetch-debian-kernel.sh into a cache outside the tree, captures its
# vmlinux with `ftv capture` and writes
#   corpus/layouts/debian-trixie-arm64-<version>-cloud.layout.xz
# The kernel itself is never committed (346 MB).
#
#   capture-debian-layout.sh [CACHE_DIR]
#     CACHE_DIR  default ~/.cache/ftv/kernel-dbg; FTV=path/to/ftv overrides
#                the binary (default build/ftv, built with make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-${HOME:-/tmp}/.cache/ftv/kernel-dbg}
ftv=${FTV:-$top/build/ftv}
[ -x "$ftv" ] || make -C "$top" build/ftv >/dev/null

sh "$top/tools/fetch-debian-kernel.sh" '^linux-image-.*-cloud-arm64-dbg$' "$cache" "$cache/unpacked"
vmlinux=$(ls "$cache"/unpacked/usr/lib/debug/boot/vmlinux-*-cloud-arm64 | sort -V | tail -n 1)
release=${vmlinux##*/vmlinux-}  # 6.12.107+deb13-cloud-arm64
version=${release%%+*}          # 6.12.107
out=$top/corpus/layouts/debian-trixie-arm64-$version-cloud.layout.xz
"$ftv" capture "$vmlinux" -o "$out"
"$ftv" layout "$out"
