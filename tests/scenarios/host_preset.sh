#!/bin/sh
# mmsim.machine{preset = "host"}: this machine's nodes, CPUs and memory per
# node, computed here from /sys as the README says; a made-up two-node
# /sys (MMSIM_HOST_ROOT); no /sys/devices/system/node (one node of
# /proc/meminfo's memory and the CPUs online); and nothing to read (an
# error saying so).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$dir/host.lua" <<'LUA'
local m = mmsim.machine{ preset = "host" }
local i = m:info()
local mem = {}
for _, z in ipairs(m:zones()) do mem[z.node] = (mem[z.node] or 0) + z.spanned end
io.write(i.name, " ", i.nodes, " ", i.cpus)
for n = 0, i.nodes - 1 do io.write(" ", mem[n] * 4096) end
print()
LUA
run() {
	s=0
	"$MMSIM" --out "$dir/out" "$dir/host.lua" 2> "$dir/err" || s=$?
	rm -rf "$dir/out"
	return $s
}
section=$((128 << 20))
# What the host preset should find under root $1: name nodes cpus mem...
expected() {
	nodes=0 cpus=0 mems=""
	for n in $(ls "$1/sys/devices/system/node" 2> /dev/null | sed -n 's/^node\([0-9][0-9]*\)$/\1/p' | sort -n); do
		kb=$(awk '/MemTotal:/ { print $(NF - 1) }' "$1/sys/devices/system/node/node$n/meminfo")
		c=$(tr , '\n' < "$1/sys/devices/system/node/node$n/cpulist" |
			awk -F- 'NF { n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
		cpus=$((cpus + c))
		bytes=$((kb * 1024 / section * section))
		[ "$bytes" -gt 0 ] || continue
		nodes=$((nodes + 1))
		mems="$mems $bytes"
	done
	if [ "$nodes" -eq 0 ]; then
		kb=$(awk '/MemTotal:/ { print $2 }' "$1/proc/meminfo")
		nodes=1 cpus=$(getconf _NPROCESSORS_ONLN)
		mems=" $((kb * 1024 / section * section))"
	fi
	per=$((cpus / nodes))
	[ "$per" -ge 1 ] || per=1
	echo "host $nodes $((per * nodes))$mems"
}

# This machine, against /sys read here.
want=$(expected "")
got=$(run) || { cat "$dir/err"; fail "host preset on this machine"; }
[ "$got" = "$want" ] || fail "this machine: got '$got', /sys says '$want'"

# Two nodes of 4 CPUs, 8 GiB and 4 GiB + 100 MiB (rounded down to 4 GiB),
# and a CPU-only node 3 with no memory.
root=$dir/root
for n in 0 1 3; do mkdir -p "$root/sys/devices/system/node/node$n"; done
printf '0-3\n' > "$root/sys/devices/system/node/node0/cpulist"
printf '4-5,6,7\n' > "$root/sys/devices/system/node/node1/cpulist"
printf '8-9\n' > "$root/sys/devices/system/node/node3/cpulist"
printf 'Node 0 MemTotal:        8388608 kB\nNode 0 MemFree: 1 kB\n' > "$root/sys/devices/system/node/node0/meminfo"
printf 'Node 1 MemTotal:        4296704 kB\n' > "$root/sys/devices/system/node/node1/meminfo"
printf 'Node 3 MemTotal:              0 kB\n' > "$root/sys/devices/system/node/node3/meminfo"
got=$(MMSIM_HOST_ROOT=$root run) || { cat "$dir/err"; fail "two nodes"; }
[ "$got" = "host 2 10 8589934592 4294967296" ] || fail "two nodes: got '$got'"
[ "$got" = "$(expected "$root")" ] || fail "two nodes: the test's own reading differs"

# No node directory: /proc/meminfo and the CPUs online.
rm -rf "$root/sys"
mkdir -p "$root/proc"
printf 'MemTotal:        6291456 kB\nMemFree: 5 kB\n' > "$root/proc/meminfo"
got=$(MMSIM_HOST_ROOT=$root run) || { cat "$dir/err"; fail "no node directory"; }
[ "$got" = "host 1 $(getconf _NPROCESSORS_ONLN) 6442450944" ] || fail "fallback: got '$got'"

# Nothing to read: a clear error.
rm -rf "$root/proc"
if MMSIM_HOST_ROOT=$root run > /dev/null; then fail "a machine from nothing"; fi
grep -q "preset 'host': cannot read this machine's memory: no node with memory in $root/sys/devices/system/node, no MemTotal in $root/proc/meminfo" "$dir/err" ||
	{ cat "$dir/err"; fail "message"; }
echo "host preset as /sys says"
