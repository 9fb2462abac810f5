#!/bin/sh
# Bad input gets a clear message and a non-zero exit, never a crash.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect NAME PATTERN: run $dir/NAME.lua, want exit status 1 and PATTERN on stderr.
expect() {
	"$MMSIM" "$dir/$1.lua" > "$dir/out" 2> "$dir/err"
	status=$?
	[ $status -eq 1 ] || fail "$1: exit status $status, wanted 1"
	grep -q -- "$2" "$dir/err" || { cat "$dir/err"; fail "$1: no '$2' in the message"; }
}

printf 'local x = 1\nlocal y = nil + x\n' > "$dir/script.lua"
expect script "script.lua:2: attempt to perform arithmetic"
grep -q "traceback" "$dir/err" || fail "script: no traceback"

printf 'local m = mmsim.machine{mem_per_node = "1088M"}\n' > "$dir/unaligned.lua"
expect unaligned "unaligned.lua:1: cannot build machine: node 0 memory is 1140850688 bytes (1088 MiB): it must be a non-zero multiple of the 128 MiB section size"

printf 'mmsim.machine{sockets = 4, mem_per_node = "4T"}\n' > "$dir/huge.lua"
expect huge "huge.lua:1: cannot build machine: 16384 GiB of memory is 4294967296 frames"

printf 'mmsim.machine{preset = "8s-64t"}\n' > "$dir/preset.lua"
expect preset "unknown machine preset '8s-64t' (known: test, test-numa, 2s-1t, 4s-4t, host)"

printf 'mmsim.machine{preset = "test", policy = "spb", spb_walk = "fast"}\n' > "$dir/walk.lua"
expect walk 'walk.lua:1: machine field '"'spb_walk'"': fast is not a valid value (valid: "patch", "indexed")'
printf 'mmsim.machine{preset = "test", spb_walk = "indexed"}\n' > "$dir/walkpolicy.lua"
expect walkpolicy "walkpolicy.lua:1: cannot build machine: the indexed superpageblock walk needs policy spb, not upstream"

printf 'local m = mmsim.machine{preset = "test"}\nrequire("mmsim.jemalloc_churn").start(m, {until_ns = 1e6, coast_ratio = -1})\n' > "$dir/coast.lua"
expect coast "coast.lua:2: jemalloc_churn.start: .*coast_ratio' is -1: valid range 0 to 1000"

printf 'mmsim.machine{preset = "test", policy = "buddy"}\n' > "$dir/policy.lua"
expect policy "policy.lua:1: machine field 'policy': buddy is not a valid value (valid: \"upstream\", \"pcp_buddy\", \"spb\")"

printf 'mmsim.machine{mem_per_nod = "1G"}\n' > "$dir/field.lua"
expect field "field.lua:1: mmsim.machine: unknown field 'mem_per_nod' (known: preset,"

printf 'local m = mmsim.machine{preset = "test"}\nm:alloc{order = 11}\n' > "$dir/order.lua"
expect order "order.lua:2: field 'order' is 11: valid range 0 to 10"

printf 'local m = mmsim.machine{preset = "test"}\nm:free(12345)\n' > "$dir/free.lua"
expect free "free.lua:2: free: pfn 12345 is not the first page of an allocated block"

printf 'os.execute("true")\n' > "$dir/exec.lua"
expect exec "attempt to call a nil value (field 'execute')"

printf 'io.popen("true")\n' > "$dir/popen.lua"
expect popen "attempt to call a nil value (field 'popen')"

printf 'loadfile("x")\n' > "$dir/loadfile.lua"
expect loadfile "attempt to call a nil value (global 'loadfile')"

# Precompiled chunks are refused, both as the scenario and through load()
# (string.dump is gone).
printf '\033Lua' > "$dir/binary.lua"
expect binary "attempt to load a binary chunk"
printf 'assert(load("\\27Lua"))\n' > "$dir/dump.lua"
expect dump "attempt to load a binary chunk"

# expect_d NAME PATTERN ARGS...: like expect, with mmsim options.
expect_d() {
	name=$1 pattern=$2
	shift 2
	"$MMSIM" --out "$dir/res" "$dir/$name.lua" "$@" > "$dir/out" 2> "$dir/err"
	status=$?
	[ $status -eq 1 ] || fail "$name $*: exit status $status, wanted 1"
	grep -q -- "$pattern" "$dir/err" || { cat "$dir/err"; fail "$name $*: no '$pattern'"; }
}
printf 'local p = mmsim.params{ cpus = 16, policy = "upstream", fast = true }\n' > "$dir/params.lua"
expect_d params "-D cpu: unknown parameter (known: cpus, fast, policy)" -D cpu=8
expect_d params "-D cpus=lots: expected an integer" -D cpus=lots
expect_d params "-D fast=maybe: expected true or false" -D fast=maybe
expect_d params "-D policy: expected KEY=VALUE" -D policy
expect_d params "-D plot_format=gif: expected png, pdf or svg" -D plot_format=gif
printf 'local x = 1\n' > "$dir/noparams.lua"
expect_d noparams "-D cpus: .*noparams.lua declares no parameters" -D cpus=8

# Unknown option names are errors everywhere, naming the known ones.
for call in 'm:gb_yield{nodes = 1}|gb_yield: unknown field .nodes. (known: attempt, cpu, node)' \
	'm:kvmalloc{size = 4096, nod = 0}|kvmalloc: unknown field .nod.' \
	'm:free(m:alloc{}, {cpus = 1})|free: unknown field .cpus. (known: cpu)' \
	'm:spawn{cpu = 0, fn = print, nam = "x"}|spawn: unknown field .nam. (known: cpu, name, fn)' \
	'm:online_memory{size = 0, nodes = 0}|online_memory: unknown field .nodes.' \
	'require("mmsim.mass_exit").start(m, {cpu = {0}})|mass_exit.start: unknown field .cpu. (known: cpus, mib, live)'; do
	printf 'local m = mmsim.machine{preset = "test"}\n%s\n' "${call%%|*}" > "$dir/opt.lua"
	expect opt "opt.lua:2: .*${call#*|}"
done

# Measurement windows.
printf 'local m = mmsim.machine{preset = "test"}\nm:run{["until"] = "1ms", warmup = "1ms"}\n' \
	> "$dir/warmup.lua"
expect warmup "warmup.lua:2: run: the warmup (1000000 ns) leaves nothing of the run to measure"
printf 'local m = mmsim.machine{preset = "test"}\nm:run{untill = "1ms"}\n' > "$dir/runkey.lua"
expect runkey "runkey.lua:2: run: unknown field 'untill' (known: until, duration, expected_end, warmup, timing, horizon, level)"
printf 'local m = mmsim.machine{preset = "test"}\nm:run{duration = "2ms", warmup = "1ms", timing = false}\n' \
	> "$dir/ffwarm.lua"
expect ffwarm "ffwarm.lua:2: run: a fast-forward (timing = false) has no warmup"
printf 'local m = mmsim.machine{preset = "test"}\nm:run{expected_end = "1ms", timing = false}\n' \
	> "$dir/ffend.lua"
expect ffend "ffend.lua:2: run: a fast-forward (timing = false) needs 'until' or 'duration'"
printf 'local m = mmsim.machine{preset = "test"}\nm:run{duration = "1ms", timing = 0}\n' \
	> "$dir/fftype.lua"
expect fftype "fftype.lua:2: run: 'timing' must be a boolean, got number"
printf 'local m = mmsim.machine{preset = "test"}\nm:phase("a.b")\n' > "$dir/phasedot.lua"
expect phasedot "phase: name 'a.b' must not hold a '.'"
printf 'local m = mmsim.machine{preset = "test"}\nm:lock_stats{since = "measure"}\n' \
	> "$dir/since.lua"
expect since "lock_stats: no phase 'measure' has begun"
printf 'local m = mmsim.machine{preset = "test"}\nm:lock_stats{since = {zone = {}}}\n' \
	> "$dir/since2.lua"
expect since2 "lock_stats: 'since' is an earlier m:lock_stats() result or a phase name"

printf 'local m = mmsim.machine{preset = "test"}\nm:nodes_info()\n' > "$dir/method.lua"
expect method "method.lua:2: mmsim.machine has no method 'nodes_info' (methods: alloc, "
grep -q "nodes, offline_memory" "$dir/err" || fail "method: the list lacks nodes"
printf 'local m = mmsim.machine{preset = "test"}\nlocal p = m:process()\np:numa_move()\n' \
	> "$dir/pmethod.lua"
expect pmethod "pmethod.lua:3: mmsim.process has no method 'numa_move' (methods: clone, exit,"
printf 'local m = mmsim.machine{preset = "test"}\nlocal a = m:kvmalloc{size = "8K"}\na:size()\n' \
	> "$dir/amethod.lua"
expect amethod "amethod.lua:3: mmsim.kvmalloc has no method 'size' (methods: contiguous)"
printf 'mmsim.machine{preset = "test-numa", sockets = 4, mem_per_node = "64G"}\n' \
	> "$dir/conflict.lua"
expect conflict "conflict.lua:1: mmsim.machine: preset 'test-numa' fixes the topology; give 'sockets' without a preset"
printf 'local m = mmsim.machine{preset = "test"}\nm:spawn{cpu = 0, fn = function() mmsim.sleep(1e6) end}\nm:run{expected_end = "5ms", warmup = "10ms"}\n' \
	> "$dir/warmup.lua"
expect warmup "warmup.lua:3: run: the warmup (10000000 ns) is at least as long as the run (expected to end at 5000000 ns)"

"$MMSIM" "$dir/missing.lua" 2> "$dir/err" && fail "missing file accepted"
grep -q "cannot open" "$dir/err" || fail "missing: no 'cannot open'"
"$MMSIM" 2> "$dir/err" && fail "no scenario accepted"
grep -q "no scenario given" "$dir/err" || fail "usage: no message"
echo "ok: errors are reported"
