-- Mass exit: P processes with M MiB each live `live` seconds after touching
-- their memory, then exit at the same simulated instant (see
-- lua/mmsim/mass_exit.lua).  The figures after "exit:" are the exit's
-- alone; results.exit.* in summary.json has them.
--
--   ./run scenarios/mass-exit.lua -D cpus=64 -D mib=512 -D policy=pcp_buddy
--   ./run scenarios/mass-exit.lua -D live=0      # exit right after the touches
--   ./run scenarios/mass-exit.lua -D cpus=64 -D on_cpus=2  # 32 processes per CPU
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' --sweep 'cpus=16,32,64,128' \
--         --seeds 5 scenarios/mass-exit.lua   # the wait per process against the CPUs
--
-- sweep-plot: y=results.exit.zone_lock.wait_ms_per_process,logy
-- sweep-label: results.exit.zone_lock.wait_ms_per_process zone->lock wait per exiting process (ms)
-- sweep-label: results.exit.zone_lock.wait_share share of the exit spent waiting for zone->lock (%)
-- sweep-label: results.exit.zone_lock.acquisitions zone->lock acquisitions during the exit (count)
-- sweep-label: results.exit.slowest_ns slowest exit (ms)
-- sweep-label: results.exit.median_ns median exit (ms)
-- sweep-label: results.exit.pages_to_buddy pages the exit gave back to the buddy (count)
-- plots: lock_timeseries, cpu_wait
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  cpus = 16,      -- processes, one per CPU
  mib = 256,      -- MiB touched by each process
  live = "30s",   -- simulated time from the last touch to the exit
  on_cpus = 0,    -- CPUs the processes share, in turn (0: one CPU each)
}
local m = mmsim.machine{ preset = p.preset, policy = p.policy }
local info = m:info()
local on_cpus = p.on_cpus > 0 and p.on_cpus or p.cpus
assert(p.cpus >= 1 and on_cpus <= info.cpus, "cpus must be between 1 and " .. info.cpus)
local cpus = {}
for i = 0, p.cpus - 1 do cpus[#cpus + 1] = i % on_cpus end

local free_before = info.free_pages + info.pcp_pages
local ex = require("mmsim.mass_exit").start(m, { cpus = cpus, mib = p.mib, live = p.live })
m:run()

local e = ex.stats.exit
local s = m:lock_stats()
local after = m:info()
print(string.format("mass exit, %s: %d processes x %d MiB (%d pages, %d page-table pages), "
  .. "exit %.3f s after the last touch", p.policy, p.cpus, p.mib, ex.stats.pages_touched,
  ex.stats.pgtable_pages, (ex.stats.exit_start_ns - ex.stats.touch_end_ns) / 1e9))
-- CPU 0's pageset in the zone its fault-in refilled from (the highest).
local touched, lived
for k, ps in ipairs(ex.stats.pagesets_touched[1]) do
  if not touched or ps.high > touched.high then
    touched, lived = ps, ex.stats.pagesets_before_exit[1][k]
  end
end
print(string.format("CPU 0's pageset (node %d %s): high %d after the touches, %d at the exit; "
  .. "high_min %d, high_max %d", touched.node, touched.zone, touched.high, lived.high,
  touched.high_min, touched.high_max))
print(string.format("exit: %.3f ms slowest process, %.3f ms median; zone->lock %d acquisitions, "
  .. "%d contentions, %.3f ms waiting (%.2f%% of the exit's time)", e.slowest_ns / 1e6,
  e.median_ns / 1e6, e.zone_lock.acquisitions, e.zone_lock.contentions,
  e.zone_lock.wait_ns_total / 1e6, 100 * e.zone_lock.wait_share))
-- The exit may drain more from the per-CPU lists than it puts there.
print(string.format("exit: %d pages freed, %d handed to the zone buddy under zone->lock, "
  .. "%d %s pages on the per-CPU lists than before it", e.pages_freed, e.pages_to_buddy,
  math.abs(e.pages_kept_on_pcp), e.pages_kept_on_pcp < 0 and "fewer" or "more"))
print(string.format("whole run (fault-in and %s of idle life included): zone->lock %d "
  .. "acquisitions, %d contentions, %.2f%% of CPU time waiting", p.live, s.zone.acquisitions,
  s.zone.contentions, 100 * s.zone.wait_share))
print(string.format("free pages: %d before, %d after (+%d on per-CPU lists)", free_before,
  after.free_pages, after.pcp_pages))

mmsim.result("exit.slowest_ns", e.slowest_ns)
mmsim.result("exit.median_ns", e.median_ns)
for k, v in pairs(e.zone_lock) do mmsim.result("exit.zone_lock." .. k, v) end
mmsim.result("exit.pages_freed", e.pages_freed)
mmsim.result("exit.pages_to_buddy", e.pages_to_buddy)
mmsim.result("exit.pages_kept_on_pcp", e.pages_kept_on_pcp)
