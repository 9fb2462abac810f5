-- Quickstart: age a dual-socket 1 TiB machine's memory in a few seconds.
--
-- Builds the "2s-1t" preset (2 sockets, 512 GiB per node), allocates a
-- mix of orders and migratetypes on both nodes until the allocator starts
-- refusing requests, and frees a random half of what it holds. Then 16
-- threads run a short jemalloc churn on the fragmented machine for 5 ms of
-- simulated time, and the run prints its zone->lock figures and
-- /proc/buddyinfo and /proc/pagetypeinfo as the kernel would show them.
--
-- plots: lock_timeseries, cpu_wait, memory_map_gib
local p = mmsim.params{ policy = "upstream", cpus = 16, duration = "5ms" }
local m = mmsim.machine{ preset = "2s-1t", policy = p.policy }
local info = m:info()
print(string.format("machine %s: %d nodes, %d CPUs, %d GiB, min_free_kbytes %d",
  info.name, info.nodes, info.cpus, info.frames // 262144, info.min_free_kbytes))

-- What a busy server asks the page allocator for: THP-sized and small
-- movable pages (anonymous memory), small unmovable pages (slab, page
-- tables, network buffers) and reclaimable ones (dentries, inodes).
local mix = {
  { weight = 30, order = 9, type = "movable" },
  { weight = 35, order = 0, type = "movable" },
  { weight = 10, order = 2, type = "movable" },
  { weight = 10, order = 0, type = "unmovable" },
  { weight = 6, order = 3, type = "unmovable" },
  { weight = 5, order = 0, type = "reclaimable" },
  { weight = 4, order = 1, type = "reclaimable" },
}
local total = 0
for _, k in ipairs(mix) do total = total + k.weight end
local function pick()
  local r = math.random(total)
  for _, k in ipairs(mix) do
    r = r - k.weight
    if r <= 0 then return k end
  end
end

-- Fill: interleave the two nodes until both refuse 1,000 requests in a row.
local held, failures = {}, 0
while failures < 1000 do
  local k = pick()
  local pfn = m:alloc{ order = k.order, type = k.type, node = math.random(0, 1) }
  if pfn then
    held[#held + 1] = pfn
    failures = 0
  else
    failures = failures + 1
  end
end
local full = m:info().free_pages

-- Free a random half: the holes left behind are the fragmentation.
local freed = 0
for i = #held, 2, -1 do
  local j = math.random(i)
  held[i], held[j] = held[j], held[i]
end
for i = 1, #held // 2 do
  m:free(held[i])
  freed = freed + 1
end
m:check_invariants()
print(string.format("allocated %d blocks until %d pages were left free; freed %d blocks",
  #held, full, freed))

-- A short timed run on the aged machine: jemalloc threads on 16 CPUs.
local cpus = {}
for i = 0, p.cpus - 1 do cpus[#cpus + 1] = (i % 2) * 64 + i // 2 end
local jc = require("mmsim.jemalloc_churn").start(m, {
  cpus = cpus, live_mib = 16, until_ns = mmsim.time(p.duration) })
m:run()
m:check_invariants()
local s = m:lock_stats()
print(string.format("%s of jemalloc churn on %d CPUs (%s): %d objects, zone->lock %d "
  .. "acquisitions, %d contentions, %.2f%% of CPU time waiting", p.duration, p.cpus,
  p.policy, jc.stats.objects, s.zone.acquisitions, s.zone.contentions,
  100 * s.zone.wait_share))

info = m:info()
print(string.format("free: %d pages of %d", info.free_pages, info.managed_pages))
print()
print("$ cat /proc/buddyinfo")
io.write(m:buddyinfo())
print()
print("$ cat /proc/pagetypeinfo")
io.write(m:pagetypeinfo())
