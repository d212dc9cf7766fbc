#!/bin/sh
# One ftv fuzz campaign in FTV_SHARDS shards run by GNU parallel on this
# machine's cores, merged into one summary and one JUnit file.
#
#   FTV_SEED=12345 FTV_SHARDS=16 FTV_BUDGET='--time 600' sh parallel.sh
#
# Over several machines, give parallel the hosts and have it bring the
# outputs back (ftv installed on each):
#   ... | parallel --sshloginfile hosts --return "$out"/shard-{}.json \
#         --return "$out"/replay-{}.scn --cleanup ...
set -u
seed=${FTV_SEED:-$(date +%s)}        # one seed for every shard: one campaign
shards=${FTV_SHARDS:-$(nproc)}
budget=${FTV_BUDGET:---time 600}     # per shard
out=${FTV_RESULTS:-ftv-fuzz-$seed}
mkdir -p "$out"
# a finding exits 1 (kept in the shard's JSON), an error 2: only errors fail
seq 0 $((shards - 1)) | parallel --will-cite --halt never -j "${FTV_JOBS:-$(nproc)}" \
	"ftv fuzz --seed $seed $budget --shard {}/$shards --json --out $out/replay-{}.scn \
	 > $out/shard-{}.json; test \$? -le 1"
ftv fuzz-merge --junit "$out/fuzz.xml" "$out"/shard-*.json
