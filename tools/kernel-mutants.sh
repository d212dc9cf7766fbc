#!/bin/sh
# Builds every mutant of tools/kernel-mutate.py the way a user checks a
# change: `make kernel KERNEL_SRC=<tree> KERNEL_OUT=<dir>` on a hard-linked
# copy of the tree (cp -al) with one file replaced. One copy and one build
# directory serve every mutant in turn (after the first, a mutant costs
# the one or two objects its file changes); each mutant's objects and
# ftv-layout.txt are then copied to WORK/<mutant>/.
#
#   kernel-mutants.sh BASE_TREE WORK_DIR OBJECT...
set -eu
base=$1 work=$2
shift 2
py=${PYTHON:-/usr/bin/python3}
src=$work/src
mkdir -p "$work"
if [ ! -d "$src" ]; then
	rm -rf "$src.tmp"
	cp -al "$base" "$src.tmp"
	mv "$src.tmp" "$src"
fi
names=$($py tools/kernel-mutate.py --list | cut -d' ' -f1)
for name in $names; do
	# every file a mutant edits back to the original, as a new file (not
	# a link: writing it must not reach the base tree; a new mtime makes
	# kbuild rebuild what the previous mutant changed)
	for m in $names; do
		f=$($py tools/kernel-mutate.py --file "$m")
		cp "$base/$f" "$src/$f.ftv-tmp"
		mv "$src/$f.ftv-tmp" "$src/$f"
	done
	f=$($py tools/kernel-mutate.py --file "$name")
	$py tools/kernel-mutate.py "$name" "$base" "$src/$f.ftv-tmp"
	mv "$src/$f.ftv-tmp" "$src/$f"
	${MAKE:-make} -s kernel KERNEL_SRC="$src" KERNEL_OUT="$work/out" KERNEL_OBJS="$*"
	rm -rf "$work/$name"
	for o in "$@"; do
		mkdir -p "$work/$name/$(dirname "$o")"
		cp "$work/out/$o" "$work/$name/$o"
	done
	cp "$work/out/ftv-layout.txt" "$work/$name/"
	echo "kernel-mutants: $name: $work/$name"
done
