#!/bin/sh
# ./run --sweep --slurm through a real single-node Slurm (slurmctld, slurmd
# and munge started and stopped here, tests/cluster.sh), skipped where its
# packages are not installed.  A 3 x 2 sweep of a tiny run is submitted on
# hold: --collect lists the 6 runs pending and runs none; released, it runs
# to completion and --collect gathers the sweep.csv of the same sweep run
# here (wall-clock columns aside).  The job script asks one CPU and carries
# --slurm-opt; the job id is in DIR/slurm-jobs.  A run lost afterwards is
# listed as not run, and --collect --rerun-failed submits it alone (its
# --slurm-opt replacing the first submission's).
set -u
command -v parallel > /dev/null || { echo "SKIP: GNU parallel not installed"; exit 77; }
. "$MMSIM_SRCDIR/tests/cluster.sh"
. "$MMSIM_SRCDIR/sim/csv.sh"
dir=$(mktemp -d)
trap 'cluster_stop; rm -rf "$dir"' EXIT
# A test stopped by its timeout stops its daemons too.
trap 'exit 143' TERM
trap 'exit 130' INT
fail() { echo "FAIL: $*"; exit 1; }
cluster_slurm "$dir/slurm" || exit $?
cd "$MMSIM_SRCDIR"
export MMSIM_BIN="$MMSIM"
sweep() { sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep policy=upstream,pcp_buddy,spb --sweep cpus=2,4 \
	--sweep seed=5 "$@" scenarios/cross-cpu-churn.lua -D preset=test -D duration=1ms; }
# Every task of the jobs of $1/slurm-jobs ended (2 minutes at most).
wait_jobs() {
	ids=$(cut -f 1 "$1/slurm-jobs" | paste -sd , -)
	i=0
	until [ -z "$(squeue -h -j "$ids" 2> /dev/null)" ]; do
		i=$((i + 1))
		[ "$i" -le 240 ] || { squeue; tail -n 20 "$dir/slurm/slurmctld.log"; fail "jobs $ids still queued"; }
		sleep 0.5
	done
}
out=$dir/sw
sweep --out "$out" --slurm --slurm-opt '--hold --time=00:05:00' > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "--slurm"; }
grep -qx '#SBATCH --cpus-per-task=1' "$out/sweep.slurm" || fail "one CPU"
grep -qx '#SBATCH --hold --time=00:05:00' "$out/sweep.slurm" || fail "--slurm-opt"
! grep -q flock "$out/sweep.slurm" || fail "flock"
id=$(cut -f 1 "$out/slurm-jobs")
grep -q "submitted Slurm job $id, tasks 1-6 of 6" "$dir/err" || { cat "$dir/err"; fail "job id"; }

# Held: all pending, nothing runs.
if sweep --out "$out" --collect > /dev/null 2> "$dir/err"; then
	fail "--collect with pending runs succeeded"
fi
test "$(grep -c "pending in Slurm (job ${id}_" "$dir/err")" -eq 6 || { cat "$dir/err"; fail "pending not listed"; }
for r in "$out"/policy=*; do
	test ! -e "$r" || fail "--collect ran $r"
done
test ! -e "$out/sweep.csv" || fail "a sweep.csv of nothing"

scontrol release "$id" > /dev/null || fail "scontrol release"
wait_jobs "$out"
sweep --out "$out" --collect > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "--collect"; }
test "$(awk -F'\t' 'NR > 1 && $7 == 0' "$out/joblog" | wc -l)" -eq 6 || fail "joblog: $(cat "$out/joblog")"
test ! -s "$out/tasks/1" || fail "task lines not merged"
sweep --out "$dir/local" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "the sweep here"; }
test "$(wc -l < "$dir/local/sweep.csv")" -eq 7 || fail "local sweep.csv"
cluster_same_sweep "$dir/local/sweep.csv" "$out/sweep.csv" "through Slurm" || exit 1

# A run lost: listed as not run, nothing run; --rerun-failed submits it alone.
rm "$out/policy=spb,cpus=2,seed=5/summary.csv"
if sweep --out "$out" --collect > /dev/null 2> "$dir/err"; then fail "a lost run went unnoticed"; fi
grep -q 'run policy=spb,cpus=2,seed=5 not run' "$dir/err" || { cat "$dir/err"; fail "not run"; }
test ! -e "$out/policy=spb,cpus=2,seed=5/summary.csv" || fail "--collect ran it"
sweep --out "$out" --collect --rerun-failed --slurm-opt --time=00:05:00 > /dev/null 2> "$dir/err" || true
grep -q 'submitted Slurm job [0-9]*, tasks 5 of 6' "$dir/err" || { cat "$dir/err"; fail "--rerun-failed"; }
test "$(wc -l < "$out/slurm-jobs")" -eq 2 || fail "slurm-jobs: $(cat "$out/slurm-jobs")"
wait_jobs "$out"
sweep --out "$out" --collect > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "--collect after the rerun"; }
cluster_same_sweep "$dir/local/sweep.csv" "$out/sweep.csv" "after the rerun" || exit 1
echo "--slurm through Slurm as expected"
