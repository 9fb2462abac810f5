#!/bin/sh
# sim/sweep.sh beyond one machine and its checks, with a fake mmsim: the
# swept keys and values are checked before any run (an unknown key names
# the known ones and nothing runs), a failed run is named with its exit
# status and the end of its stderr, --hosts runs the combinations through
# GNU parallel's --sshloginfile with a stand-in ssh (a script that runs the
# command in another directory, so the scenario and mmsim really travel
# there and the results folders really come back, absolute paths too), and
# --slurm writes an array job script and submits it (a stand-in sbatch)
# whose tasks, run by hand here, leave the joblog lines --collect gathers,
# both with seeds swept too (--seeds: mmsim's --seed in each run); mmsim
# --params lists a scenario's parameters.  tests/scenarios/sweep_ssh.sh
# and sweep_slurm.sh run the real sshd and Slurm.
set -eu
command -v parallel > /dev/null || { echo "GNU parallel not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The fake: knows the parameters cpus and policy; --params lists them;
# a run logs its call and fails (exit 3) for cpus=13.
cat > "$dir/fake-mmsim" <<FAKE
#!/bin/sh
set -eu
log=$dir/calls
out=""
defs=""
params=false
seed=1
while [ \$# -gt 0 ]; do
	case \$1 in
	--out) out=\$2; shift 2 ;;
	--seed) seed=\$2; shift 2 ;;
	-D) defs="\$defs \$2"; shift 2 ;;
	--params) params=true; shift ;;
	*.lua) scenario=\$1; shift ;;
	*) echo "fake mmsim: unexpected argument \$1" >&2; exit 2 ;;
	esac
done
[ -r "\$scenario" ] || { echo "fake mmsim: no \$scenario in \$(pwd)" >&2; exit 2; }
cpus=4
policy=upstream
for kv in \$defs; do
	case \${kv%%=*} in
	cpus|policy) ;;
	*) echo "-D \${kv%%=*}: unknown parameter (known: cpus, policy)" >&2; exit 1 ;;
	esac
	eval "\${kv%%=*}=\\\${kv#*=}"
done
if \$params; then
	printf 'cpus=%s\\npolicy=%s\\n' "\$cpus" "\$policy"
	exit 0
fi
echo "\$defs seed=\$seed" >> "\$log"
if [ "\$cpus" = 13 ]; then
	echo "line 1 of the trouble" >&2
	echo "mmsim: error: 13 is unlucky" >&2
	exit 3
fi
mkdir -p "\$out"
printf 'params.cpus,params.policy,zone_lock.wait_share\\n%s,%s,%s\\n' "\$cpus" "\$policy" \\
	"\$(awk -v c="\$cpus" -v s="\$seed" 'BEGIN { print c / 100 * s }')" > "\$out/summary.csv"
FAKE
chmod +x "$dir/fake-mmsim"
export MMSIM_BIN="$dir/fake-mmsim"
sweep() { sh "$MMSIM_SRCDIR/sim/sweep.sh" "$@"; }
printf -- '-- a scenario\n' > "$dir/s.lua"

# A mistyped key: refused before any run, naming it and the known ones.
if sweep --sweep cpus=2,4 --sweep polcy=upstream --out "$dir/typo" "$dir/s.lua" \
		> /dev/null 2> "$dir/err"; then
	fail "a mistyped key ran"
fi
grep -q 'no run started: -D polcy: unknown parameter (known: cpus, policy)' "$dir/err" ||
	{ cat "$dir/err"; fail "message"; }
test ! -e "$dir/calls" || fail "runs started"

# A failing run: its exit status and the last lines of its stderr.
if sweep --sweep cpus=2,13 --out "$dir/fails" "$dir/s.lua" > /dev/null 2> "$dir/err"; then
	fail "a failed run went unnoticed"
fi
grep -q 'run cpus=13 failed (exit status 3); the end of .*/cpus=13/stderr:' "$dir/err" ||
	{ cat "$dir/err"; fail "no failure line"; }
grep -q '  | mmsim: error: 13 is unlucky' "$dir/err" || { cat "$dir/err"; fail "no stderr"; }

# --hosts: two "hosts" served by the stand-in ssh, which runs every
# command in $dir/remote; the scenario goes there, the folders come back.
mkdir "$dir/remote" "$dir/local"
cat > "$dir/ssh" <<SSH
#!/bin/sh
echo "\$*" >> "$dir/ssh.log"
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
shift
[ "\${1:-}" = -- ] && shift
cd "$dir/remote"
exec sh -c "\$*"
SSH
chmod +x "$dir/ssh"
printf '1/hostA\n1/hostB\n' > "$dir/hosts"
cp "$dir/s.lua" "$dir/local/s.lua"
# SHELL unset, as under CI's env: parallel's remote command needs one.
(cd "$dir/local" && env -u SHELL sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep cpus=2,4,8 \
	--sweep policy=upstream,spb --out out \
	--hosts "$dir/hosts" --ssh "$dir/ssh" s.lua > /dev/null 2> "$dir/err") ||
	{ cat "$dir/err"; fail "--hosts"; }
test "$(wc -l < "$dir/local/out/sweep.csv")" -eq 7 || fail "sweep.csv: $(cat "$dir/local/out/sweep.csv")"
grep -q '^8,spb,8,spb,0.08$' "$dir/local/out/sweep.csv" || fail "a run's figures"
ls "$dir"/remote/.mmsim-sweep/out-*/cpus=8,policy=spb/summary.csv > /dev/null 2>&1 ||
	fail "the run did not run remotely"
grep -q 'mmsim on the hosts: this one .*fake-mmsim), sent to each' "$dir/err" || fail "which mmsim"
grep -q '^hostA' "$dir/ssh.log" && grep -q '^hostB' "$dir/ssh.log" || fail "not both hosts"
test "$(awk -F'\t' 'NR > 1' "$dir/local/out/joblog" | wc -l)" -eq 6 || fail "joblog"
# Resumable: nothing runs again.
calls=$(wc -l < "$dir/calls")
(cd "$dir/local" && sweep --sweep cpus=2,4,8 --sweep policy=upstream,spb --out out \
	--hosts "$dir/hosts" --ssh "$dir/ssh" s.lua > /dev/null 2>&1)
test "$(wc -l < "$dir/calls")" -eq "$calls" || fail "--hosts reran finished runs"
# With seeds: each host runs its combinations with mmsim's --seed.
(cd "$dir/local" && sweep --sweep cpus=2,4 --seeds 2 --out seeded --hosts "$dir/hosts" \
	--ssh "$dir/ssh" s.lua > /dev/null 2> "$dir/err") || { cat "$dir/err"; fail "--hosts --seeds"; }
ls "$dir"/remote/.mmsim-sweep/seeded-*/cpus=4,seed=2/summary.csv > /dev/null 2>&1 ||
	fail "seed 2 did not run remotely"
grep -q '^ cpus=4 seed=2$' "$dir/calls" || fail "no --seed 2"
grep -qx '4,2,4,upstream,0.08' "$dir/local/seeded/runs.csv" || fail "runs.csv: $(cat "$dir/local/seeded/runs.csv")"
grep -q '^4,2,4,4,4,0,upstream,0.06,0.04,0.08,' "$dir/local/seeded/sweep.csv" ||
	fail "seeded sweep.csv: $(cat "$dir/local/seeded/sweep.csv")"
# Absolute paths: the scenario travels by its name, the runs come back into
# the absolute --out; --cleanup empties the hosts.
(cd "$dir/local" && sweep --sweep cpus=2 --out "$dir/abs" --hosts "$dir/hosts" --ssh "$dir/ssh" \
	--cleanup "$dir/s.lua" > /dev/null 2> "$dir/err") || { cat "$dir/err"; fail "absolute paths"; }
test -s "$dir/abs/cpus=2/summary.csv" || fail "absolute --out"
! ls -d "$dir"/remote/.mmsim-sweep/abs-* > /dev/null 2>&1 || fail "--cleanup"

# --slurm: the script, one array task per combination, submitted through
# a stand-in sbatch (job 42); run its tasks here (task 2 twice: the second
# finds it done), then --collect gathers.
mkdir "$dir/bin"
printf '#!/bin/sh\necho "$*" >> %s/sbatch.log\necho 42\n' "$dir" > "$dir/bin/sbatch"
printf '#!/bin/sh\n' > "$dir/bin/squeue"
chmod +x "$dir/bin/sbatch" "$dir/bin/squeue"
PATH=$dir/bin:$PATH
sweep --sweep cpus=2,4,8 --out "$dir/slurm" -j 2 --slurm "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "--slurm"; }
grep -q '^#SBATCH --array=1-3%2$' "$dir/slurm/sweep.slurm" || fail "array line"
grep -q "^--parsable --array=1-3%2 $dir/slurm/sweep.slurm\$" "$dir/sbatch.log" || fail "sbatch: $(cat "$dir/sbatch.log")"
test "$(cut -f 1,2 "$dir/slurm/slurm-jobs")" = "$(printf '42\t1-3')" || fail "slurm-jobs"
test ! -e "$dir/slurm/sweep.csv" || fail "--slurm ran the sweep"
calls=$(wc -l < "$dir/calls")
for t in 1 2 2 3; do
	SLURM_ARRAY_TASK_ID=$t sh "$dir/slurm/sweep.slurm" || fail "task $t"
done
test "$(wc -l < "$dir/calls")" -eq $((calls + 3)) || fail "tasks ran $(($(wc -l < "$dir/calls") - calls)) runs"
test "$(ls "$dir/slurm/tasks" | wc -l)" -eq 3 || fail "task files: $(ls -a "$dir/slurm/tasks")"
# A task Slurm stopped with SIGTERM and requeued: its run's summary says
# interrupted; the requeued task runs it again and writes its joblog line
# (it took the summary for a finished run, exited 0 and wrote none).
printf '{\n  "interrupted" : true\n}\n' > "$dir/slurm/$(sed -n 3p "$dir/slurm/jobs")/summary.json"
rm "$dir/slurm/tasks/3"
SLURM_ARRAY_TASK_ID=3 sh "$dir/slurm/sweep.slurm" || fail "requeued task 3"
test "$(wc -l < "$dir/calls")" -eq $((calls + 4)) || fail "the requeued task did not rerun the interrupted run"
test -s "$dir/slurm/tasks/3" || fail "no joblog line of the requeued task"
rm "$dir/slurm/$(sed -n 3p "$dir/slurm/jobs")/summary.json"
# Without --collect, a Slurm sweep's folder is not run here.
if sweep --sweep cpus=2,4,8 --out "$dir/slurm" -j 2 "$dir/s.lua" > /dev/null 2> "$dir/err"; then
	fail "ran a Slurm sweep here"
fi
grep -q 'is a Slurm sweep: --collect gathers it' "$dir/err" || fail "Slurm folder message"
sweep --sweep cpus=2,4,8 --out "$dir/slurm" -j 2 --collect "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "collecting"; }
test "$(wc -l < "$dir/calls")" -eq $((calls + 4)) || fail "the sweep reran slurm's runs"
test "$(awk -F'\t' 'NR > 1 && $7 == 0' "$dir/slurm/joblog" | wc -l)" -eq 3 || fail "joblog: $(cat "$dir/slurm/joblog")"
test "$(wc -l < "$dir/slurm/sweep.csv")" -eq 4 || fail "slurm sweep.csv"
# Everything done: --slurm submits nothing more.
sweep --sweep cpus=2,4,8 --out "$dir/slurm" -j 2 --slurm "$dir/s.lua" > /dev/null 2> "$dir/err"
grep -q 'nothing to submit' "$dir/err" || fail "resubmitted done runs"
# --slurm with seeds: a task per run, each with its --seed.
sweep --sweep cpus=2,4 --seeds 2 --out "$dir/slurms" --slurm "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "--slurm --seeds"; }
grep -q '^#SBATCH --array=1-4%' "$dir/slurms/sweep.slurm" || fail "seeded array line"
for t in 1 2 3 4; do
	SLURM_ARRAY_TASK_ID=$t sh "$dir/slurms/sweep.slurm" || fail "seeded task $t"
done
calls=$(wc -l < "$dir/calls")
sweep --sweep cpus=2,4 --seeds 2 --out "$dir/slurms" --collect "$dir/s.lua" > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "collecting seeds"; }
test "$(wc -l < "$dir/calls")" -eq "$calls" || fail "the sweep reran slurm's seeded runs"
grep -q '^2,2,2,2,2,0,upstream,0.03,0.02,0.04,' "$dir/slurms/sweep.csv" ||
	fail "slurm seeded sweep.csv: $(cat "$dir/slurms/sweep.csv")"
# The real mmsim --params: the resolved parameters, and the script stops
# there (its error() after mmsim.params never runs).
printf 'local p = mmsim.params{ cpus = 4, policy = "upstream" }\nerror("ran on")\n' > "$dir/p.lua"
"$MMSIM" --params -D cpus=8 --out "$dir/p" "$dir/p.lua" > "$dir/params" 2> "$dir/err" ||
	{ cat "$dir/err"; fail "mmsim --params"; }
printf 'cpus=8\npolicy=upstream\n' | diff - "$dir/params" || fail "--params output"
export MMSIM_BIN="$MMSIM"
if sweep --sweep cpu=2,4 --out "$dir/real" "$dir/p.lua" > /dev/null 2> "$dir/err"; then
	fail "real mistyped key"
fi
grep -q 'no run started: -D cpu: unknown parameter (known: cpus, policy)' "$dir/err" ||
	{ cat "$dir/err"; fail "real message"; }
echo "checks, --hosts and --slurm as expected"
