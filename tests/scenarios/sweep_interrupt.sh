#!/bin/sh
# Ctrl-C (SIGINT) or SIGTERM during a sweep: the runs it stopped are named
# "interrupted", the ones that never started "not run", none "failed"; no
# sweep.csv nor plot is drawn and the sweep exits 130 (143); the resume
# reruns exactly the stopped and unstarted runs, not the finished one.
# With a fake mmsim (MMSIM_BIN) that blocks while $dir/block exists.
set -u
command -v parallel > /dev/null || { echo "SKIP: GNU parallel not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$dir/fake-mmsim" <<FAKE
#!/bin/sh
out=""
n=""
while [ \$# -gt 0 ]; do
	case \$1 in
	--out) out=\$2; shift 2 ;;
	-D) n=\${2#n=}; shift 2 ;;
	--params) exit 0 ;;
	*) shift ;;
	esac
done
echo "n=\$n" >> "$dir/calls"
# n=1 ends at once; the others wait for the block to go.
while [ "\$n" != 1 ] && [ -e "$dir/block" ]; do sleep 0.1; done
printf 'n,zone_lock.wait_share\n%s,0.%s\n' "\$n" "\$n" > "\$out/summary.csv"
FAKE
chmod +x "$dir/fake-mmsim"
printf -- '-- a scenario\n' > "$dir/s.lua"
export MMSIM_BIN="$dir/fake-mmsim"

for sig in INT TERM; do
	out=$dir/out-$sig
	: > "$dir/block"
	: > "$dir/calls"
	# Started by python: a shell's background job would ignore SIGINT.
	python3 - "$sig" "$out" "$dir" "$MMSIM_SRCDIR/sim/sweep.sh" <<'PY' || fail "$sig: the sweep"
import signal, subprocess, sys, time
sig, out, d, sweep = sys.argv[1:]
p = subprocess.Popen(["sh", sweep, "--sweep", "n=1,2,3,4", "-j", "2", "--out", out, d + "/s.lua"],
                     stdout=subprocess.DEVNULL, stderr=open(d + "/err", "w"))
# n=1 done, n=2 and n=3 running, n=4 waiting: then the signal.
for i in range(300):
    if sorted(open(d + "/calls").read().split()) == ["n=1", "n=2", "n=3"]:
        break
    time.sleep(0.1)
time.sleep(0.5)
p.send_signal(getattr(signal, "SIG" + sig))
code = p.wait(timeout=60)
want = 130 if sig == "INT" else 143
sys.exit(0 if code == want else "exit status %d, not %d" % (code, want))
PY
	err=$(cat "$dir/err")
	for n in 2 3; do
		echo "$err" | grep -q "^sweep: run n=$n interrupted (exit status 1[34][03])$" ||
			{ echo "$err"; fail "$sig: n=$n not named interrupted"; }
	done
	echo "$err" | grep -q '^sweep: run n=4 not run$' || { echo "$err"; fail "$sig: n=4"; }
	! echo "$err" | grep -q 'failed' || { echo "$err"; fail "$sig: runs called failed"; }
	! echo "$err" | grep -q 'n=1' || { echo "$err"; fail "$sig: the finished run named"; }
	echo "$err" | grep -q 'interrupted: no sweep.csv nor plots' || fail "$sig: no word of the plots"
	test ! -e "$out/sweep.csv" && test ! -e "$out/sweep.png" || fail "$sig: drew"
	# The resume: n=2, n=3 and n=4 again, not n=1.
	rm "$dir/block"
	: > "$dir/calls"
	sh "$MMSIM_SRCDIR/sim/sweep.sh" --sweep n=1,2,3,4 -j 2 --out "$out" "$dir/s.lua" > /dev/null 2> "$dir/err" ||
		{ cat "$dir/err"; fail "$sig: the resume"; }
	test "$(sort "$dir/calls" | tr '\n' ' ')" = "n=2 n=3 n=4 " || fail "$sig: the resume ran $(cat "$dir/calls")"
	test "$(wc -l < "$out/sweep.csv")" -eq 5 || fail "$sig: sweep.csv"
done
echo "interrupted sweeps as expected"
