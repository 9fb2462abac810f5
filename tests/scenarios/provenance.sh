#!/bin/sh
# What a results folder says about the run that made it: summary.json's
# version (the build's git describe in a checkout), command line (without
# --out), machine title (time-compressed when the scenario says so) and
# counts as JSON integers; the run's stdout and stderr, the same as on the
# terminal; copies of the scenario and the modules it required.  A run
# that fails before its results removes the folder it made (one that was
# there before stays, with the error in its stderr), --params makes none,
# and a stream already redirected into the folder (a sweep's run) is not
# written twice.
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$dir/sub"
cat > "$dir/sub/helper.lua" <<'LUA'
return { greeting = "hello from sub.helper" }
LUA
cat > "$dir/s.lua" <<'LUA'
local p = mmsim.params{ compressed = false, fail = false, threads = 2 }
local report = require("mmsim.kernel_report")
print(require("sub.helper").greeting, type(report.report))
mmsim.time_compressed(p.compressed)
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 4, mem_per_node = "8G" }
for cpu = 0, p.threads - 1 do
  m:spawn{ cpu = cpu, fn = function()
    for i = 1, 200 do m:free(m:alloc{ order = i % 4 }) end
  end }
end
m:run()
io.stderr:write("to stderr\n")
mmsim.write_result_file("mine.txt", "x\n")
if p.fail then error("failing on purpose") end
print("done")
LUA

"$MMSIM" --seed 3 -D threads=3 --out "$dir/r" "$dir/s.lua" > "$dir/out" 2> "$dir/err" ||
	{ cat "$dir/err"; fail "the run"; }
cmp "$dir/out" "$dir/r/stdout" || fail "stdout copy differs from what was printed"
cmp "$dir/err" "$dir/r/stderr" || fail "stderr copy differs from what was printed"
grep -qx 'hello from sub.helper	function' "$dir/r/stdout" || fail "stdout copy"
grep -qx 'to stderr' "$dir/r/stderr" || fail "stderr copy"
cmp "$dir/s.lua" "$dir/r/scenario/s.lua" || fail "scenario copy"
cmp "$dir/sub/helper.lua" "$dir/r/scenario/sub/helper.lua" || fail "module copy"
cmp "$MMSIM_SRCDIR/lua/mmsim/kernel_report.lua" "$dir/r/scenario/mmsim/kernel_report.lua" ||
	fail "library module copy"

version=$("$MMSIM" --version)
version=${version#mmsim }
python3 - "$dir/r/summary.json" "$version" "mmsim --seed 3 -D threads=3 $dir/s.lua" <<'PY' ||
import json, sys
s = json.load(open(sys.argv[1]))
assert s["version"] == sys.argv[2], (s["version"], sys.argv[2])
assert s["command"] == sys.argv[3], s["command"]
assert s["machine"]["title"] == "2 sockets, 2 nodes, 8 CPUs, 16 GiB", s["machine"]["title"]
# Counts are integers in the JSON, not 3.0.
counts = [s["zone_lock"]["acquisitions"], s["pcp_lock"]["contentions"],
          s["memory"]["free_pages"], s["alloc_latency"]["count"],
          s["throughput"]["faults"], s["numa"]["node1"]["numa_hit"]]
counts += list(s["gb_yield"].values()) + list(s["vmstat"].values())
for c in counts:
    assert type(c) is int, counts
PY
	fail "summary.json"
# In a git checkout, the version names a commit of it (git describe's
# abbreviated hash, after a tag's name and count if there is a tag).
if [ -e "$MMSIM_SRCDIR/.git" ] && command -v git > /dev/null; then
	hash=${version%-dirty}
	hash=${hash##*-g}
	git -C "$MMSIM_SRCDIR" cat-file -e "$hash^{commit}" ||
		fail "version $version names no commit of $MMSIM_SRCDIR"
fi

"$MMSIM" -D compressed=true --out "$dir/c" "$dir/s.lua" > /dev/null 2>&1 || fail "compressed run"
[ "$(csv_value "$dir/c/summary.csv" machine.title)" = \
	"2 sockets, 2 nodes, 8 CPUs, 16 GiB, time-compressed" ] || fail "time-compressed title"
# With the kernel's periods compressed too (time_scale), the title says by how much.
printf 'mmsim.time_compressed(true)\nmmsim.machine{ sockets = 2, cpus_per_socket = 4, mem_per_node = "8G", time_scale = 1000 }\n' \
	> "$dir/ts.lua"
"$MMSIM" --out "$dir/ts" "$dir/ts.lua" > /dev/null 2>&1 || fail "time_scale run"
[ "$(csv_value "$dir/ts/summary.csv" machine.title)" = \
	"2 sockets, 2 nodes, 8 CPUs, 16 GiB, time-compressed 1000x" ] || fail "time_scale title"
[ "$(csv_value "$dir/ts/summary.csv" machine.time_scale)" = 1000 ] || fail "machine.time_scale"
printf 'local m = mmsim.machine{ preset = "test" }\n' > "$dir/preset.lua"
"$MMSIM" --out "$dir/p" "$dir/preset.lua" 2> /dev/null || fail "preset run"
[ "$(csv_value "$dir/p/summary.csv" machine.title)" = "test: 1 socket, 1 node, 4 CPUs, 8 GiB" ] ||
	fail "preset title"

# A failed run leaves no folder of its own, --out or default.
if "$MMSIM" -D fail=true --out "$dir/failed" "$dir/s.lua" > /dev/null 2> "$dir/err"; then
	fail "the failing run succeeded"
fi
grep -q 'failing on purpose' "$dir/err" || fail "no error message"
[ ! -e "$dir/failed" ] || fail "a failed run left $dir/failed"
mkdir "$dir/cwd"
if (cd "$dir/cwd" && "$MMSIM" -D fail=true ../s.lua > /dev/null 2>&1); then
	fail "the failing run succeeded"
fi
[ -z "$(ls "$dir/cwd/results")" ] || fail "a failed run left $(ls "$dir/cwd/results")"
if "$MMSIM" -D nosuchkey=1 --out "$dir/failed" "$dir/s.lua" > /dev/null 2>&1; then
	fail "an unknown -D key passed"
fi
[ ! -e "$dir/failed" ] || fail "a refused -D left $dir/failed"
# A folder that was there keeps what the run wrote, its error included.
mkdir "$dir/kept"
"$MMSIM" -D fail=true --out "$dir/kept" "$dir/s.lua" > /dev/null 2>&1 && fail "kept"
grep -q 'failing on purpose' "$dir/kept/stderr" || fail "the kept folder's stderr"

# --params: the parameters, no folder.
"$MMSIM" --params --out "$dir/params" "$dir/s.lua" > "$dir/out" || fail "--params"
grep -qx 'threads=2' "$dir/out" || fail "--params output"
[ ! -e "$dir/params" ] || fail "--params made a folder"

# A sweep's run: its shell already sends stdout and stderr into the folder.
mkdir "$dir/sw"
"$MMSIM" --out "$dir/sw" "$dir/s.lua" > "$dir/sw/stdout" 2> "$dir/sw/stderr" || fail "sweep-like run"
[ "$(grep -c '^done$' "$dir/sw/stdout")" -eq 1 ] || fail "stdout written twice"
[ "$(grep -c '^to stderr$' "$dir/sw/stderr")" -eq 1 ] || fail "stderr written twice"
echo "ok: provenance ($version)"
