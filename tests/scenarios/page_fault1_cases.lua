-- page_fault1 on the test machine, 4 tasks mapping 2 MiB 6 times, as
-- processes or threads (-D mode=; -D loops= for another count); prints the figures
-- tests/scenarios/page_fault1_c.sh works out by hand.
local p = mmsim.params{ mode = "processes", loops = 6 }
local m = mmsim.machine{ preset = "test" }
local CPUS, SIZE, LOOPS = { 0, 1, 2, 3 }, 2 * 1024 * 1024, p.loops

local ok, err = pcall(m.start_page_fault1, m, { cpus = { 0 }, size = SIZE })
assert(not ok and err:find("give 'loops' or 'until_ns'"), err)

local boot = m:info()
local stats = require("mmsim.page_fault1").start(m, { cpus = CPUS, size = SIZE, mode = p.mode,
  loops = LOOPS }).stats
m:run()
local l, info = m:lock_stats(), m:info()
local line = string.format("%s loops=%d faults=%d failed=%d tasks_done=%d returned=%d",
  p.mode, stats.loops, stats.faults, stats.failed, stats.tasks_done,
  info.free_pages + info.pcp_pages - boot.free_pages - boot.pcp_pages)
for _, cls in ipairs({ "pcp", "lru", "ptl", "zone", "mmap" }) do
  line = line .. string.format(" %s=%d", cls, l[cls].acquisitions)
end
print(line)
