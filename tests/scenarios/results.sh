#!/bin/sh
# A run's results folder agrees with the README and with itself
# (check_results.lua says how), for a 5 ms run and a 4.5 ms one (whose
# last row comes at the end, half an interval after the one before).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for duration in 5ms 4500us; do
	"$MMSIM" --out "$dir/$duration" "$MMSIM_SRCDIR/tests/scenarios/results_run.lua" \
		-D duration=$duration 2> "$dir/err"
	"$MMSIM" --out "$dir/check-$duration" "$MMSIM_SRCDIR/tests/scenarios/check_results.lua" \
		"$dir/$duration" "$MMSIM_SRCDIR/README.md"
done
