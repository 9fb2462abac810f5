#!/bin/sh
# kcompactd (tests/scenarios/kcompactd_run.lua), one simulation per case: woken
# by kswapd for an order-9 request, proactive at its 500 ms timeout (5 ms
# with time_scale 100), and idle at vm.compaction_proactiveness 0.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for case in kswapd proactive scaled off; do
	"$MMSIM" --out "$dir/$case" "$MMSIM_SRCDIR/tests/scenarios/kcompactd_run.lua" -D case=$case
done
