-- mass_exit on the test machine: 6 processes of 8 MiB on 3 CPUs (two a
-- CPU), living 1 ms (-D live=); prints the figures
-- tests/scenarios/mass_exit_c.sh works out by hand, and each process's
-- pageset (count/high) before its exit.
local p = mmsim.params{ live = "1ms" }
local m = mmsim.machine{ preset = "test" }
local CPUS, BYTES, LIVE = { 0, 1, 2, 0, 1, 2 }, 8 * 1024 * 1024, mmsim.time(p.live)

local s = require("mmsim.mass_exit").start(m, { cpus = CPUS, mib = BYTES >> 20, live = LIVE }).stats
m:run()
local e = s.exit
local line = string.format("processes=%d touched=%d pgtables=%d failed=%d waited=%d freed=%d "
  .. "to_buddy=%d kept=%d exit_zone_acq=%d", s.processes, s.pages_touched, s.pgtable_pages,
  s.failed, s.exit_start_ns - s.touch_end_ns, e.pages_freed, e.pages_to_buddy,
  e.pages_kept_on_pcp, e.zone_lock.acquisitions)
for i = 1, #CPUS do
  for _, ps in ipairs(s.pagesets_before_exit[i]) do
    if ps.zone == "Normal" then
      line = line .. string.format(" %d:%d/%d", CPUS[i], ps.count, ps.high)
    end
  end
end
print(line)
