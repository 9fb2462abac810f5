#!/bin/sh
# scenarios/gigantic.lua, the measure: after the same aging run,
# the end-of-run attempt (gb_yield.obtained) and the scenario's own
# allocation of 1 GiB pages over time (results.obtained) both get more
# 1 GiB pages under spb than under upstream, superpageblocks having kept
# the kernel's unmovable pages together; the pages are given back, so
# none is held at the end.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
figure() {     # figure POLICY KEY: KEY of that run's summary.csv
	csv_value "$out/$1/summary.csv" "$2"
}
for policy in upstream spb; do
	(cd "$MMSIM_SRCDIR" && "$MMSIM" --out "$out/$policy" scenarios/gigantic.lua \
		-D policy=$policy -D gb_yield_attempt=true) > "$out/$policy.stdout" 2> "$out/$policy.stderr"
done
for key in gb_yield.obtained results.obtained; do
	up=$(figure upstream $key)
	spb=$(figure spb $key)
	echo "$key: upstream $up, spb $spb (migrated: upstream $(figure upstream gb_yield.obtain_migrated), spb $(figure spb gb_yield.obtain_migrated))"
	test "$spb" -gt "$up"
done
column() {     # the gigantic_pages column of spb's timeseries.csv, row by row
	csv_column "$out/spb/timeseries.csv" gigantic_pages
}
test "$(column | tail -1)" -eq 0
test "$(column | sort -n | tail -1)" -eq "$(figure spb results.obtained)"
