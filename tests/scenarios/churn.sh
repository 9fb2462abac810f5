#!/bin/sh
# Cross-CPU churn on 16 CPUs with a fixed seed: zone->lock acquisitions per
# 1,000 page operations are lower with the per-cpu pageblock buddy than
# upstream, the invariants hold after both runs, and a rerun is identical.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for policy in upstream pcp_buddy; do
	"$MMSIM" --seed 7 --check-invariants "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" \
		-D policy=$policy -D cpus=16 > "$dir/$policy" 2> "$dir/$policy.err"
	grep -q '^invariants hold on 1 machine$' "$dir/$policy.err"
	grep -q '^lock_stat version 0.4$' "$dir/$policy"
done
up=$(awk '$1 == "zone_lock.acquisitions_per_1000_ops" { print $2 }' "$dir/upstream")
pb=$(awk '$1 == "zone_lock.acquisitions_per_1000_ops" { print $2 }' "$dir/pcp_buddy")
echo "zone->lock acquisitions per 1000 page ops: upstream $up, pcp_buddy $pb"
awk -v up="$up" -v pb="$pb" 'BEGIN { exit !(up > 0 && pb > 0 && pb < up) }'
"$MMSIM" --seed 7 "$MMSIM_SRCDIR/scenarios/cross-cpu-churn.lua" -D policy=pcp_buddy \
	-D cpus=16 > "$dir/again"
cmp "$dir/pcp_buddy" "$dir/again"
