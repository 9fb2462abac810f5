#!/bin/sh
# Sizes, times, counts and sysctls out of range are errors naming the valid
# range (file:line, exit 1), never silently wrapped, negative or infinite.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect LUA PATTERN: a one-line script that must fail with PATTERN.
n=0
expect() {
	n=$((n + 1))
	printf '%s\n' "$1" > "$dir/s$n.lua"
	"$MMSIM" --out "$dir/res" "$dir/s$n.lua" > "$dir/out" 2> "$dir/err"
	status=$?
	[ $status -eq 1 ] || fail "$1: exit status $status, wanted 1"
	grep -q -- "s$n.lua:1: $2" "$dir/err" || { cat "$dir/err"; fail "$1: no 's$n.lua:1: $2'"; }
}
size="valid range 0 to 9223372036854775807 bytes"
expect 'mmsim.size("17179869192G")' "mmsim.size: size \"17179869192G\" is too large: $size"
expect 'mmsim.size("99999999999999999999")' "mmsim.size: size \"99999999999999999999\" is too large"
expect 'mmsim.size("-8G")' "mmsim.size: cannot read size \"-8G\""
expect 'mmsim.size(-1)' "mmsim.size: size -1 is not a whole number of bytes in the $size"
expect 'mmsim.size(" 8G")' "mmsim.size: cannot read size"
time="valid range 0 to 9223372036854775807 ns"
expect 'mmsim.time("1e19ns")' "mmsim.time: time 1e19ns is out of range: $time"
expect 'mmsim.time("1e30ns")' "mmsim.time: time 1e30ns is out of range"
expect 'mmsim.time("inf s")' "mmsim.time: cannot read time"
expect 'mmsim.time("-5ns")' "mmsim.time: cannot read time"
expect 'mmsim.time(1/0)' "mmsim.time: time inf is out of range"
expect 'mmsim.time("2hours")' "mmsim.time: cannot read time \"2hours\" (a number and ns, us, ms, s, min or h"
# Minutes and hours: aging.lua -D age=24h (it said "cannot read time").
printf '%s\n' 'assert(mmsim.time("24h") == 86400000000000 and mmsim.time("1.5min") == 90000000000)' \
	> "$dir/hours.lua"
"$MMSIM" --out "$dir/hours" "$dir/hours.lua" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "24h"; }
expect 'mmsim.time(0/0)' "mmsim.time: time .*nan is out of range"
expect 'mmsim.machine{mem_per_node = "1G", sockets = 2^32 + 1}' "field 'sockets' is 4294967297: valid range 1 to 64"
expect 'mmsim.machine{mem_per_node = "1G", cpus_per_socket = -1}' "field 'cpus_per_socket' is -1: valid range 1 to 4096"
expect 'mmsim.machine{preset = "test", min_free_kbytes = -1}' "field 'min_free_kbytes' is -1: valid range 0 to 2147483647"
expect 'mmsim.machine{preset = "test", watermark_scale_factor = -5}' "field 'watermark_scale_factor' is -5: valid range 1 to 3000"
expect 'mmsim.machine{preset = "test", watermark_scale_factor = 3001}' "field 'watermark_scale_factor' is 3001: valid range 1 to 3000"
expect 'mmsim.machine{preset = "test", watermark_boost_factor = 2^31}' "field 'watermark_boost_factor' is 2147483648: valid range 0 to 2147483647"
expect 'mmsim.machine{preset = "test", percpu_pagelist_high_fraction = 4}' "field 'percpu_pagelist_high_fraction' is 4: valid values 0 and 8 to 2147483647"
expect 'mmsim.machine{preset = "test", pcp_batch = -1, pcp_high = 186}' "field 'pcp_batch' is -1: valid range 0 to 1048576"
expect 'mmsim.machine{preset = "test", pcp_batch = 31, pcp_high = 2^31}' "field 'pcp_high' is 2147483648: valid range 0 to 2147483647"
expect 'mmsim.machine{preset = "test", pcp_high = 186}' "mmsim.machine: pcp_high and pcp_batch go together (a fixed pageset), got pcp_high 186 and pcp_batch 0"
expect 'mmsim.machine{preset = "test", pcp_batch = 63, pcp_high = 62}' "mmsim.machine: pcp_high (62) must be at least pcp_batch (63)"
expect 'mmsim.machine{preset = "test", pcp_batch = 31, pcp_high = 186, percpu_pagelist_high_fraction = 8}' "mmsim.machine: pcp_high fixes the pagesets; it excludes percpu_pagelist_high_fraction"
expect 'mmsim.machine{preset = "test", sample_interval = "1e300s"}' "sample_interval: time 1e300s is out of range"
expect 'local m = mmsim.machine{preset = "test"} m:read_file{file = 1 << 28}' "field 'file' is 268435456: valid range 0 to 268435455"
# Wrong errors the checks once gave (issue 34): each value named as given.
expect 'local m = mmsim.machine{preset = "test"} m:alloc{order = 1e10}' "field 'order' is 10000000000: valid range 0 to 10"
expect 'local m = mmsim.machine{preset = "test"} m:free_batch{1.5}' "free_batch: entry 1 is not a pfn (got 1.5)"
expect 'local m = mmsim.machine{preset = "test"} m:run{timing = "false", duration = "1ms"}' "run: 'timing' must be a boolean, got string"
expect 'local m = mmsim.machine{preset = "test"} m:run{duration = 0}' "run: duration 0: give a time after now"
expect 'local m = mmsim.machine{preset = "test-numa"} m:process():migrate_pages({0, 1}, {1, 0})' "migrate_pages: nodes are a node mask: list each once, in ascending order (entry 2, node 0, follows node 1)"
expect 'local m = mmsim.machine{preset = "test-numa"} m:process():set_mempolicy{policy = "bind", nodes = {1, 1}}' "set_mempolicy: nodes are a node mask"
expect 'local m = mmsim.machine{preset = "test"} require("mmsim.replay").kmem(m, {csv = "x", speed = 1e300})' "replay.kmem: speed must be a number above 0 and at most 1e+06, got 1e+300"
expect 'local m = mmsim.machine{preset = "test"} require("mmsim.replay").start(m, {strace = "x", speed = 0/0})' "replay.start: speed must be a number above 0 and at most 1e+06, got .*nan"
expect 'local m = mmsim.machine{preset = "test"} m:alloc{offset = 1 << 32}' "field 'offset' is 4294967296: valid range 0 to 4294967295"
expect 'local m = mmsim.machine{preset = "test"} m:kvmalloc{size = "1T"}' "kvmalloc: size 1099511627776: valid range 1 to the machine's 8589934592 bytes"
expect 'local m = mmsim.machine{preset = "test"} m:run{duration = 2^62} m:run{duration = 2^62} m:run{duration = 2^62}' "run: duration 4611686018427387904 ns goes past"
expect 'mmsim.result("", 1)' "mmsim.result: name '' must be dot-separated non-empty parts"
expect 'mmsim.result("a..b", 1)' "mmsim.result: name 'a..b' must be"
expect 'mmsim.result("x", 1) mmsim.result("x.y", 2)' "mmsim.result: 'x' and 'x.y' cannot both be results"
expect 'mmsim.result("x.y", 1) mmsim.result("x", 2)' "mmsim.result: 'x.y' and 'x' cannot both be results"
expect 'mmsim.result("x", 1/0)' "mmsim.result: value of 'x' is inf: it must be finite"

# The same name twice replaces; "x" and "xy" do not collide.
printf 'mmsim.result("x", 1) mmsim.result("x", 2) mmsim.result("xy", 3) mmsim.result("a.b", 4) mmsim.result("a.c", 5)\n' > "$dir/ok.lua"
"$MMSIM" --out "$dir/ok" "$dir/ok.lua" 2> "$dir/err" || { cat "$dir/err"; fail "ok.lua failed"; }
grep -q '"x" : 2' "$dir/ok/summary.json" && grep -q '"xy" : 3' "$dir/ok/summary.json" &&
	grep -q '"c" : 5' "$dir/ok/summary.json" || { cat "$dir/ok/summary.json"; fail "results lost"; }

# -D and --seed
printf 'local p = mmsim.params{ frac = 0.5, n = 1 }\n' > "$dir/params.lua"
"$MMSIM" --out "$dir/res" "$dir/params.lua" -D frac=1e400 2> "$dir/err" && fail "-D frac=1e400 accepted"
grep -q -- "-D frac=1e400: expected a finite number" "$dir/err" || { cat "$dir/err"; fail "-D frac=1e400: message"; }
"$MMSIM" --out "$dir/res" "$dir/params.lua" -D n=99999999999999999999 2> "$dir/err" && fail "-D n=1e20 accepted"
grep -q -- "-D n=99999999999999999999: expected an integer" "$dir/err" || { cat "$dir/err"; fail "-D n: message"; }
"$MMSIM" --seed -5 --out "$dir/res" "$dir/params.lua" 2> "$dir/err"
[ $? -eq 2 ] || fail "--seed -5: wanted exit 2"
grep -q -- "--seed -5: expected 0 to 9223372036854775807" "$dir/err" || { cat "$dir/err"; fail "--seed -5: message"; }
# The largest seed is recorded as given and reads back.
"$MMSIM" --seed 9223372036854775807 --out "$dir/seed" "$dir/params.lua" 2> "$dir/err" || { cat "$dir/err"; fail "--seed max"; }
grep -q '"seed" : 9223372036854775807' "$dir/seed/summary.json" || fail "seed not recorded as given"
echo "ok: $n out-of-range values refused"
