#!/bin/sh
# Fetches one of Debian trixie's arm64 kernel packages with apt-get download,
# leaving the host's apt state untouched: a private sources list built from
# the machine's own Debian mirror with suite trixie, and private lists/cache
# directories. The .deb is cached; a second run only re-extracts if needed.
#
#   fetch-debian-kernel.sh PATTERN CACHE_DIR OUT_DIR
#     PATTERN   package name regex, e.g. '^linux-image-.*-cloud-arm64-unsigned$'
#     CACHE_DIR where the .deb and the private apt state are kept
#     OUT_DIR   where the package is unpacked (dpkg-deb -x)
set -eu
pattern=$1 cache=$2 out=$3
suite=${FTV_DEBIAN_SUITE:-trixie}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

deb=$(ls "$cache"/*.deb 2>/dev/null | grep -E "/$(echo "$pattern" | sed 's/^\^//; s/\$$//')_" | tail -n 1 || true)
if [ -z "$deb" ]; then
	# The machine's own Debian mirror (deb822 or one-line format).
	mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$mirror" ] || mirror=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	[ -n "$mirror" ] || { echo "fetch-debian-kernel: no Debian mirror in /etc/apt sources" >&2; exit 2; }
	st="$cache/apt"
	mkdir -p "$st/lists/partial" "$st/archives/partial" "$st/etc/preferences.d"
	echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		> "$st/etc/sources.list"
	: > "$st/status"
	set -- -o Dir::Etc::SourceList="$st/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::PreferencesParts="$st/etc/preferences.d" \
		-o Dir::State="$st" -o Dir::State::Lists="$st/lists" -o Dir::State::status="$st/status" \
		-o Dir::Cache="$st" -o Dir::Cache::archives="$st/archives" \
		-o APT::Sandbox::User=root -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1
	echo "fetch-debian-kernel: apt-get update ($mirror $suite, arm64, private state in $st)"
	apt-get -qq "$@" update
	pkg=$(apt-cache "$@" search --names-only "$pattern" | awk '{print $1}' | sort -V | tail -n 1)
	[ -n "$pkg" ] || { echo "fetch-debian-kernel: no package matches $pattern in $suite" >&2; exit 2; }
	echo "fetch-debian-kernel: downloading $pkg"
	(cd "$cache" && apt-get -qq "$@" download "$pkg:arm64")
	deb=$(ls "$cache"/"$pkg"_*.deb | tail -n 1)
fi
stamp="$out/.from-$(basename "$deb")"
if [ ! -e "$stamp" ]; then
	rm -rf "$out"
	mkdir -p "$out"
	dpkg-deb -x "$deb" "$out"
	touch "$stamp"
fi
echo "fetch-debian-kernel: $(basename "$deb") unpacked in $out"
