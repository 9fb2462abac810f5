#!/bin/sh
# Run the quickstart and check that its dumps parse and add up to the
# machine's 1 TiB.
set -eu
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$MMSIM" --check-invariants "$MMSIM_SRCDIR/scenarios/quickstart.lua" > "$out" 2> "$err"
grep -q '^invariants hold on 1 machine$' "$err"
grep -q '^\$ cat /proc/buddyinfo$' "$out"
grep -q '^Page block order: 9$' "$out"
"$MMSIM" "$MMSIM_SRCDIR/tests/scenarios/check_dumps.lua" "$out" 1024
