#!/bin/sh
# The mass-exit scenario's exit-phase figures on 8 processes x 64 MiB
# (test-numa: the smallest machine that shows what 64 x 256 MiB on 2s-1t
# does, the README's figures):
# - exiting right after the touches (live=0), upstream takes zone->lock
#   zero times: the raised pagesets absorb every page;
# - after the default lifetime, upstream takes it during the exit, and
#   pcp_buddy, giving whole pageblocks back, far less often (an eighth or
#   less);
# - every freed page is counted once, to the zone buddy or on a list;
# - phases.csv holds the fault_in, live and exit phases, the exit as long
#   as the slowest exit, and the lock plot shades them without a gnuplot
#   warning;
# - the summary's phases.* attribute zone->lock to them: the exit phase's
#   figures are the scenario's own exit figures, and the three phases'
#   add up to the whole run's.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# summary RUN KEY: a column of a run's summary.csv
summary() {
	csv_value "$dir/$1/summary.csv" "$2"
}

run() {
	name=$1
	shift
	"$MMSIM" --out "$dir/$name" "$MMSIM_SRCDIR/scenarios/mass-exit.lua" -D preset=test-numa \
		-D cpus=8 -D mib=64 "$@" > "$dir/$name.out" 2> "$dir/$name.err"
	if grep -q warning "$dir/$name.err"; then
		cat "$dir/$name.err"
		exit 1
	fi
	echo "$name: exit took zone->lock $(summary "$name" results.exit.zone_lock.acquisitions)" \
		"times, waited $(summary "$name" results.exit.zone_lock.wait_ns_total) ns;" \
		"$(summary "$name" results.exit.pages_to_buddy) pages to the zone buddy"
}

run upstream-0 -D live=0
run upstream -D policy=upstream
run pcp_buddy -D policy=pcp_buddy

[ "$(summary upstream-0 results.exit.zone_lock.acquisitions)" -eq 0 ]
[ "$(summary upstream-0 results.exit.pages_to_buddy)" -eq 0 ]
up=$(summary upstream results.exit.zone_lock.acquisitions)
pb=$(summary pcp_buddy results.exit.zone_lock.acquisitions)
[ "$up" -gt 0 ] && [ "$pb" -gt 0 ] && [ $((pb * 8)) -le "$up" ]
for r in upstream-0 upstream pcp_buddy; do
	[ "$(summary $r results.exit.pages_freed)" -eq \
		$(($(summary $r results.exit.pages_to_buddy) + $(summary $r results.exit.pages_kept_on_pcp))) ]
	awk -F, -v slowest="$(summary $r results.exit.slowest_ns)" '
		NR == 1 && $0 != "phase,start_ms,end_ms" { exit 1 }
		NR == 2 { ok = $1 == "fault_in" && $2 == 0 }
		NR == 3 { ok = ok && $1 == "live" }
		NR == 4 { ok = ok && $1 == "exit" && sprintf("%.0f", ($3 - $2) * 1e6) == slowest }
		END { exit !(ok && NR == 4) }' "$dir/$r/phases.csv"
	for f in acquisitions contentions wait_ns_total hold_ns_total; do
		[ "$(summary $r phases.exit.zone_lock.$f)" -eq "$(summary $r results.exit.zone_lock.$f)" ]
		# The headline is the exit's window; the whole run is the phases' sum.
		[ "$(summary $r zone_lock.$f)" -eq "$(summary $r phases.exit.zone_lock.$f)" ]
		[ "$(summary $r whole_run.zone_lock.$f)" -eq $(($(summary $r phases.fault_in.zone_lock.$f) + \
			$(summary $r phases.live.zone_lock.$f) + $(summary $r phases.exit.zone_lock.$f))) ]
	done
	[ "$(summary $r window)" = exit ]
	test -s "$dir/$r/lock_timeseries.png"
done
echo "ok: mass exit"
