-- Cross-CPU churn: pages allocated on one set of CPUs are freed on another.
--
-- Half the CPUs produce: each allocates movable pages one at a time (a page
-- fault plus `work_ns` of application work per page) and hands every
-- `batch` pages to a consumer CPU, round robin.  The other half consume:
-- each frees the batches it receives through free_unref_folios (as
-- munmap/MADV_DONTNEED do), spending `free_work_ns` per page.  This is the
-- affinity violation the per-cpu pageblock buddy (commit 0352d5f0)
-- targets: upstream drains the consumers' pagesets into the zone and
-- refills the producers' from it, both under zone->lock; the per-cpu
-- pageblock buddy routes the frees back to the producing CPU.
--
--   ./run scenarios/cross-cpu-churn.lua -D policy=pcp_buddy -D cpus=32
--
-- plots: lock_timeseries, cpu_wait
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  cpus = 16,           -- CPUs used, half producers and half consumers
  work_ns = 2000,      -- producer work per page
  free_work_ns = 250,  -- consumer work per page freed
  batch = 64,          -- pages per hand-over
  duration = "20ms",   -- simulated time
}
assert(p.cpus >= 2 and p.cpus % 2 == 0, "cpus must be an even number of at least 2")
local m = mmsim.machine{ preset = p.preset, policy = p.policy }
assert(p.cpus <= m:info().cpus, "the machine has only " .. m:info().cpus .. " CPUs")

local half = p.cpus // 2
local queues, allocs, frees = {}, 0, 0
for c = 0, half - 1 do queues[c] = {} end

for cpu = 0, half - 1 do
  m:spawn{ cpu = cpu, name = "producer" .. cpu, fn = function()
    local n = 0
    while true do
      local batch = {}
      for i = 1, p.batch do
        batch[i] = assert(m:alloc{ type = "movable" }, "out of memory")
        mmsim.work(math.random(p.work_ns // 2, p.work_ns * 3 // 2))
      end
      allocs = allocs + p.batch
      local q = queues[(cpu + n) % half]
      q[#q + 1] = batch
      n = n + 1
    end
  end }
end

for c = 0, half - 1 do
  m:spawn{ cpu = half + c, name = "consumer" .. c, fn = function()
    local q = queues[c]
    while true do
      local batch = table.remove(q, 1)
      if batch then
        m:free_batch(batch)
        mmsim.work(#batch * p.free_work_ns)
        frees = frees + #batch
      else
        mmsim.sleep(5000)
      end
    end
  end }
end

m:run{ duration = p.duration }
local s = m:lock_stats()
local ops = allocs + frees
print(string.format("policy %s, %d CPUs, %s simulated: %d allocations, %d frees",
  p.policy, p.cpus, p.duration, allocs, frees))
print(string.format("zone_lock.acquisitions %d", s.zone.acquisitions))
print(string.format("zone_lock.acquisitions_per_1000_ops %.3f", 1000 * s.zone.acquisitions / ops))
print(string.format("zone_lock.contentions %d", s.zone.contentions))
print(string.format("zone_lock.wait_share %.4f", s.zone.wait_share))
print(string.format("pcp_lock.acquisitions %d", s.pcp.acquisitions))
print(string.format("pcp_lock.contentions %d", s.pcp.contentions))
print()
io.write(m:lock_stat())
