#!/bin/sh
# The size check reads the memory cgroup's limit, not only physical memory
# (issue 34 item 17): under a 3 GiB cgroup (cgroup v2's memory.max of an
# ancestor, or v1's memory.limit_in_bytes) a machine whose memmap needs
# more is refused before it starts, naming the limit and its folder; it
# was let through and the OOM killer ended the run without a word.
# The thread limit takes the same memory, not MemAvailable, which reads
# what others hold at that moment (a sweep once saw 10 MiB and refused a
# run that fitted): 500 threads go with 10 MiB available, and a 16 MiB
# cgroup allows 256, naming it.  MMSIM_HOST_ROOT stands for / (an 8 GiB
# host).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
host() {
	mkdir -p "$dir/$1/proc/self"
	printf 'MemTotal:        8388608 kB\nMemAvailable:      10240 kB\n' > "$dir/$1/proc/meminfo"
}
host v2
echo "0::/slurm/job1/step0" > "$dir/v2/proc/self/cgroup"
mkdir -p "$dir/v2/sys/fs/cgroup/slurm/job1/step0"
echo max > "$dir/v2/sys/fs/cgroup/memory.max"
echo 3221225472 > "$dir/v2/sys/fs/cgroup/slurm/job1/memory.max"
echo max > "$dir/v2/sys/fs/cgroup/slurm/job1/step0/memory.max"
host v1
printf '5:cpu,cpuacct:/\n4:memory:/docker/abc\n0::/\n' > "$dir/v1/proc/self/cgroup"
mkdir -p "$dir/v1/sys/fs/cgroup/memory/docker/abc"
echo 9223372036854771712 > "$dir/v1/sys/fs/cgroup/memory/memory.limit_in_bytes"
echo 3221225472 > "$dir/v1/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes"
host none
echo "0::/" > "$dir/none/proc/self/cgroup"
printf 'local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = mmsim.params{ mem = "2T" }.mem }\n' > "$dir/big.lua"
for v in v2 v1; do
	case $v in
	v2) at=$dir/v2/sys/fs/cgroup/slurm/job1 ;;
	v1) at=$dir/v1/sys/fs/cgroup/memory/docker/abc ;;
	esac
	if MMSIM_HOST_ROOT=$dir/$v "$MMSIM" --out "$dir/o$v" "$dir/big.lua" > /dev/null 2> "$dir/err"; then
		fail "$v: a 4 TiB machine passed under a 3 GiB cgroup"
	fi
	grep -q "but this host has 3072 MiB (the limit of its memory cgroup, $at)" "$dir/err" ||
		{ cat "$dir/err"; fail "$v: the message"; }
done
# Without a limit, physical memory bounds it: 4 TiB does not fit 8 GiB,
# 8 GiB fits.
MMSIM_HOST_ROOT=$dir/none "$MMSIM" --out "$dir/onone" "$dir/big.lua" > /dev/null 2> "$dir/err" &&
	fail "4 TiB passed on an 8 GiB host"
grep -q "but this host has 8192 MiB (its physical memory)" "$dir/err" || { cat "$dir/err"; fail "physical"; }
MMSIM_HOST_ROOT=$dir/v2 "$MMSIM" --out "$dir/small" "$dir/big.lua" -D mem=4G > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "8 GiB under the 3 GiB cgroup"; }
cat > "$dir/threads.lua" <<'LUA'
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "1G" }
for i = 1, mmsim.params{ threads = 500 }.threads do
  m:spawn{ cpu = i % 4, fn = function() mmsim.sleep("1us") end }
end
m:run()
LUA
MMSIM_HOST_ROOT=$dir/none "$MMSIM" --out "$dir/t1" "$dir/threads.lua" > /dev/null 2> "$dir/err" ||
	{ cat "$dir/err"; fail "500 threads refused for 10 MiB of MemAvailable"; }
echo 16777216 > "$dir/v2/sys/fs/cgroup/slurm/job1/step0/memory.max"
if MMSIM_HOST_ROOT=$dir/v2 "$MMSIM" --out "$dir/t2" "$dir/threads.lua" -D threads=300 > /dev/null 2> "$dir/err"; then
	fail "300 threads under a 16 MiB cgroup"
fi
grep -q "256 threads alive at once is this host's limit (16 MiB of memory, the limit of its memory cgroup, $dir/v2/sys/fs/cgroup/slurm/job1/step0, and each thread needs about 64 KiB)" "$dir/err" ||
	{ cat "$dir/err"; fail "the thread limit's message"; }
