#!/bin/sh
# make demo: what ftv is for, on the bundled corpus, with real output.
set -eu
: "${FTV:=build/ftv}"
: "${FTV_BUILD:=build}"
top=$(cd "$(dirname "$0")/.." && pwd)
hr() { printf '\n== %s\n' "$*"; }

echo "$($FTV version)"

hr "A CALL_OPS callsite as GCC emits it (-fpatchable-function-entry=4,2 -mbranch-protection=bti),"
echo "   after ftrace_init_nop and make_call (ftrace_caller at 0xffff800080000000):"
echo "   func-8: ops literal | func: bti c; mov x9, x30; nop <-> bl ftrace_caller"
bl=$($FTV encode --pc 0xffff800080001014 'bl 0xffff800080000000')
$FTV decode --pc 0xffff800080001008 d503245f aa1e03e9 d503201f "$bl"

hr "Loading compiled objects: -O2 -falign-functions=8 keeps every literal aligned,"
echo "   cold functions (.text.unlikely, sh_addralign 4) do not (the 'Misaligned patch-site' warnings)"
$FTV load --stub-undefined "$FTV_BUILD/corpus/callops/list.o" | sed -n '/^sites/p'
$FTV load --stub-undefined "$FTV_BUILD/corpus/cold/cold.o" | sed -n '/^sites/,$p' | head -12

hr "The instruction-fetch model against herd7's aarch64-ifetch verdicts"
$FTV litmus "$top"/corpus/litmus/*.litmus

hr "Conformance: two deliberately broken backends, each caught (ftv conform runs all 15)"
$FTV conform "$top/corpus/scenarios/mutant-skip-literal-on-modify.scn" \
	"$top/corpus/scenarios/mutant-misaligned-literal.scn"

hr "What a kernel developer reads when a patch sequence is wrong (--mutate bl-before-literal)"
$FTV scenario --mutate bl-before-literal "$top/corpus/scenarios/callops-basic.scn" \
	| grep -v '^note:' | head -4 || true

hr "A short fuzz campaign: one generated update sequence per scheme on 4 CPUs"
# The three schemes fuzz side by side (one host thread each); their
# reports print in order. Each iteration's line names its CPU count.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for scheme in callops tramp mcount; do
	$FTV fuzz --seed 1 --iterations 1 --cpus 4 --scheme "$scheme" \
		> "$tmp/$scheme" 2>&1 &
done
wait
for scheme in callops tramp mcount; do
	echo "-- $scheme"
	grep -E '^fuzz: (iteration 0 |seed )' "$tmp/$scheme"
done

hr "A captured kernel: Debian trixie's arm64 cloud kernel, 6.12.107, and its 1,083 modules"
$FTV layout "$top/corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz"

# ---- replay (issues #6/#7/#16) -----------------------------------------------
hr "Replaying that kernel: all 96,618 callsites counted against the kernels' tables, every"
echo "   module placed where arm64's loader puts it, the sites init_nop'ed, enabled and disabled"
echo "   in batches on 4 CPUs: the first 4 of 95 here (the whole run: half a minute of CPU)"
$FTV replay --cpus 4 --batches 4 \
	"$top/corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz"
hr "The modules as if the 128 MiB window below the kernel were full: in the 2 GiB one every"
echo "   module site calls ftrace_caller through its module's ftrace PLT (one batch of them)"
$FTV replay --cpus 4 --far-modules --first-batch 60 --batches 1 \
	"$top/corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz" |
	grep -E '^(modules|batches|module sites|replayed|violations):'
# ---- end of replay ------------------------------------------------------------
# --- rvworld: RISC-V ---
hr "RISC-V: a hart stopped between the two words of a call pair (the pre-6.16 pair scheme),"
echo "   and Linux 6.16's atomic scheme, which patches only the JALR word, clean"
$FTV scenario "$top/corpus/scenarios/riscv-pair-hazard.scn" | grep '^VIOLATION pair-hazard' | head -1 || true
$FTV conform "$top/corpus/scenarios/riscv-atomic.scn"
# --- end rvworld ---
