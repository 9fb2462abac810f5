#!/bin/sh
# The CI job files of docs/ci (GitHub Actions, GitLab CI) run the same
# sweep and gate commands, and they work: the sweep's folder gated against
# itself as the baseline passes; with one combination's zone_lock.wait_share
# (mean, min and max) doubled, the gate fails naming it.
set -u
command -v parallel > /dev/null || { echo "SKIP: GNU parallel not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmds() { grep -o '\./run \(--sweep\|compare\) .*' "$1"; }
cmds "$MMSIM_SRCDIR/docs/ci/github-actions.yml" > "$dir/gh"
cmds "$MMSIM_SRCDIR/docs/ci/gitlab-ci.yml" > "$dir/gl"
test "$(wc -l < "$dir/gh")" -eq 2 || fail "github-actions.yml: $(cat "$dir/gh")"
diff "$dir/gh" "$dir/gl" || fail "the two job files run other commands"
# The commands as written, ./run's paths made this test's.
sed -e "s|^\./run --sweep|sh $MMSIM_SRCDIR/sim/sweep.sh --sweep|" -e "s|^\./run compare|sh $MMSIM_SRCDIR/sim/compare.sh|" \
	-e "s| results/ci-sweep| $dir/run|" -e "s| ci/baseline| $dir/base|" "$dir/gh" > "$dir/cmds"
cd "$MMSIM_SRCDIR"
export MMSIM_BIN="$MMSIM"
sh -c "$(sed -n 1p "$dir/cmds")" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "the sweep"; }
cp -r "$dir/run" "$dir/base"
sh -c "$(sed -n 2p "$dir/cmds")" > "$dir/out" 2>&1 || { cat "$dir/out"; fail "the gate against itself"; }
grep -q '0 past the threshold' "$dir/out" || fail "gate output: $(cat "$dir/out")"
. "$MMSIM_SRCDIR/sim/csv.sh"
awk "$csv_awk"'{ n = csv_split($0, f) }
	NR == 1 { for (i = 1; i <= n; i++) if (f[i] ~ /^zone_lock\.wait_share(\.min|\.max)?$/) c[i] = 1 }
	NR > 1 && f[1] == "upstream" && f[2] == 4 { for (i in c) f[i] *= 2 }
	{ s = csv_field(f[1]); for (i = 2; i <= n; i++) s = s "," csv_field(f[i]); print s }' \
	"$dir/base/sweep.csv" > "$dir/run/sweep.csv"
if sh -c "$(sed -n 2p "$dir/cmds")" > "$dir/out" 2>&1; then
	fail "a doubled wait share passed the gate"
fi
grep -q '^FAIL policy=upstream,cpus=4: zone_lock.wait_share' "$dir/out" || fail "gate output: $(cat "$dir/out")"
echo "the CI job files' commands as expected"
