-- Mass exit: P processes with M MiB each exit at the same simulated instant
-- (see lua/mmsim/mass_exit.lua).
--
--   ./run scenarios/mass-exit.lua -D cpus=64 -D mib=512 -D policy=pcp_buddy
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  cpus = 16,      -- processes, one per CPU
  mib = 256,      -- MiB touched by each process
}
local m = mmsim.machine{ preset = p.preset, policy = p.policy }
local info = m:info()
assert(p.cpus >= 1 and p.cpus <= info.cpus, "cpus must be between 1 and " .. info.cpus)
local cpus = {}
for i = 0, p.cpus - 1 do cpus[#cpus + 1] = i end

local free_before = info.free_pages + info.pcp_pages
local ex = require("mmsim.mass_exit").start(m, { cpus = cpus, mib = p.mib })
m:run()

local slowest = 0
for _, ns in ipairs(ex.stats.exit_ns) do slowest = math.max(slowest, ns) end
local s = m:lock_stats()
local after = m:info()
print(string.format("mass exit, %s: %d processes x %d MiB (%d pages, %d page-table pages)",
  p.policy, p.cpus, p.mib, ex.stats.pages_touched, ex.stats.pgtable_pages))
print(string.format("exit took %.3f ms (slowest process); zone->lock: %d acquisitions, "
  .. "%d contentions, %.2f%% of CPU time waiting", slowest / 1e6, s.zone.acquisitions,
  s.zone.contentions, 100 * s.zone.wait_share))
print(string.format("free pages: %d before, %d after (+%d on per-CPU lists)", free_before,
  after.free_pages, after.pcp_pages))
