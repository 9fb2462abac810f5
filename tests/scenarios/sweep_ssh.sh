#!/bin/sh
# ./run --sweep --hosts through a real sshd on 127.0.0.1, started and
# stopped here (tests/cluster.sh), skipped where openssh-server is not
# installed: a 3 x 2 sweep of a tiny run, into an absolute --out, with this
# mmsim sent to the host, gives the sweep.csv of the same sweep run here
# (wall-clock columns aside); the sweep says how many runs go at once and
# which mmsim the host runs; --cleanup leaves no folder on the host, and
# without it the sweep names the folder it leaves.  A relative --out with
# --remote-mmsim (the host's own mmsim) too.
set -u
command -v parallel > /dev/null && command -v rsync > /dev/null ||
	{ echo "SKIP: GNU parallel or rsync not installed"; exit 77; }
. "$MMSIM_SRCDIR/tests/cluster.sh"
. "$MMSIM_SRCDIR/sim/csv.sh"
dir=$(mktemp -d)
trap 'cluster_stop; rm -rf "$dir"' EXIT
# A test stopped by its timeout stops its daemons too.
trap 'exit 143' TERM
trap 'exit 130' INT
fail() { echo "FAIL: $*"; exit 1; }
cluster_sshd "$dir/ssh" || exit $?
printf '2/%s\n' "$cluster_host" > "$dir/hosts"
cd "$MMSIM_SRCDIR"
export MMSIM_BIN="$MMSIM"
name=ssh-sweep-$$
sweep() { sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep policy=upstream,pcp_buddy,spb --sweep cpus=2,4 \
	--sweep seed=5 "$@" scenarios/cross-cpu-churn.lua -D preset=test -D duration=1ms; }
sweep --out "$dir/$name" --hosts "$dir/hosts" --ssh "$cluster_ssh" --cleanup > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "the sweep over ssh"; }
grep -q "6 runs .* on the 1 host of $dir/hosts, 2 at a time as its N/host lines say" "$dir/err" ||
	{ cat "$dir/err"; fail "parallelism message"; }
grep -q "mmsim on the hosts: this one ($MMSIM), sent to each" "$dir/err" || fail "which mmsim"
! grep -q 'Warning' "$dir/err" || { cat "$dir/err"; fail "parallel's warnings"; }
test "$(awk -F'\t' 'NR > 1 && $7 == 0 && $2 ~ /127.0.0.1/' "$dir/$name/joblog" | wc -l)" -eq 6 ||
	fail "joblog: $(cat "$dir/$name/joblog")"
for r in "$HOME"/.mmsim-sweep/"$name"-*; do
	test ! -e "$r" || fail "--cleanup left $r"
done
sweep --out "$dir/local" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "the sweep here"; }
test "$(wc -l < "$dir/local/sweep.csv")" -eq 7 || fail "local sweep.csv"
cluster_same_sweep "$dir/local/sweep.csv" "$dir/$name/sweep.csv" "over ssh" || exit 1

# A relative --out, the host's own mmsim, no --cleanup.
mkdir "$dir/rel"
cp scenarios/cross-cpu-churn.lua "$dir/rel/s.lua"
(cd "$dir/rel" && sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=4 --out out --hosts "$dir/hosts" \
	--ssh "$cluster_ssh" --remote-mmsim "$MMSIM" s.lua -D preset=test -D duration=1ms \
	> /dev/null 2> "$dir/err") || { cat "$dir/err"; fail "relative --out"; }
grep -q "mmsim on the hosts: $MMSIM (--remote-mmsim)" "$dir/err" || fail "--remote-mmsim message"
test "$(wc -l < "$dir/rel/out/sweep.csv")" -eq 2 || fail "relative sweep.csv"
left=$(sed -n 's/.*keep their run folders in ~\/\([^ ]*\) .*/\1/p' "$dir/err")
test -n "$left" && test -s "$HOME/$left/cpus=4/summary.csv" || { cat "$dir/err"; fail "the folder left"; }
rm -rf "${HOME:?}/$left"
echo "--hosts through sshd as expected"
