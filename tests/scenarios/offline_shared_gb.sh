#!/bin/sh
# Hot-remove of blocks holding 1 GiB THPs shared with a fork child, with
# gb_thp_migration = "whole", outside m:run (issue 34 item 6).  The model
# cannot move a shared THP: the migration must count as a failure, so the
# offline ends after its idle rounds with EBUSY and the THPs in place.
# Counted as moved, each round looked like progress and, no simulated time
# passing outside a run, the loop never ended (and ignored SIGINT and
# SIGTERM): the run is killed after 120 s.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$dir/shared.lua" <<'LUA'
local G = 1 << 30
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "4G" },
  boot_reserve = false, memory_block_size = "128M", gb_thp_migration = "whole",
  movable_per_node = "3G", thp = { ["1048576kB"] = "always" } }
local p = m:process()
p:set_mempolicy{ policy = "bind", nodes = { 1 } }
local a = (p:mmap(4 * G) + G - 1) & ~(G - 1)
p:touch(a, 3 * G)
assert(p:stats().thp_pud == 3)
local before = {}
for i = 0, 2 do before[i] = p:follow_page(a + i * G) end
local c = p:fork()
local r, why, info = m:offline_memory{ node = 1, size = "2G" }
assert(r == nil and why == "EBUSY" and info.reason == "timeout", tostring(info and info.reason))
assert(info.migrated == 0, "shared THPs counted migrated: " .. info.migrated)
for i = 0, 2 do
  assert(p:follow_page(a + i * G) == before[i] and c:follow_page(a + i * G) == before[i])
end
assert(p:stats().thp_pud == 3 and c:stats().thp_pud == 3)
m:check_invariants()
print("ok")
LUA
out=$(timeout -s KILL 120 "$MMSIM" --out "$dir/res" "$dir/shared.lua" 2> "$dir/err")
rc=$?
[ $rc -eq 137 ] && fail "the offline did not end within 120 s"
[ $rc -eq 0 ] && [ "$out" = ok ] || { cat "$dir/err"; fail "exit $rc, output '$out'"; }
