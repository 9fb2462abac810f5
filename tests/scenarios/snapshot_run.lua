-- tests/scenarios/snapshot.sh and snapshot_host.sh: a capture imported,
-- its kernel files printed (sections split by "----"), the checker run,
-- then 1 GiB pages taken, compaction, and a short run of work on it.
local p = mmsim.params{ capture = "", policy = "upstream" }
local m = mmsim.machine{ snapshot = p.capture, policy = p.policy }
io.write(m:buddyinfo())
print("----")
io.write(m:pagetypeinfo())
print("----")
io.write(m:zoneinfo())
print("----")
print("thp_kb " .. 2048 * tonumber(m:vmstat():match("nr_anon_transparent_hugepages (%d+)")))
-- The captured slabs, in the import's caches: slabs times pages per slab.
local slab_pages = 0
for pages, slabs in m:slabinfo():gmatch("\nsnapshot[^\n]- (%d+) : tunables[^\n]*slabdata +%d+ +(%d+)") do
  slab_pages = slab_pages + pages * slabs
end
print("slab_kb " .. 4 * slab_pages)
assert(m:check_invariants())
local y = m:gb_yield{ attempt = true }
print("gb_obtained " .. y.obtained)
m:compact()
assert(m:check_invariants())
local cpus = m:info().cpus
local free = m:info().free_pages
require("mmsim.jemalloc_churn").start(m, { cpus = { cpus - 1 }, live_mib = 16,
  decay = "1ms", work = "20us", until_ns = mmsim.time("2ms") })
m:run{ expected_end = mmsim.time("2ms") }
assert(m:check_invariants())
print("ran " .. free - m:info().free_pages)
