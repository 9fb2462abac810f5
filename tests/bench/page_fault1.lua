-- `make bench`: mmsim.page_fault1 through the full simulated path (SimGrid,
-- locks, the fault and free paths), one task mapping 128 MiB `loops` times
-- on the test machine as processes or threads (-D mode=); faults per
-- second of CPU time (os.clock) of the run alone, not the machine's set-up.
local P = mmsim.params{ loops = 64, mode = "processes" }
local m = mmsim.machine{ preset = "test" }
local pf = require("mmsim.page_fault1").start(m, { cpus = { 0 }, size = "128M",
  mode = P.mode, loops = P.loops })
local t0 = os.clock()
m:run()
local cpu = os.clock() - t0
print(string.format("simulated page_fault1 (%s): %d faults in %.2f s of CPU: %.3f M faults/s",
  P.mode, pf.stats.faults, cpu, pf.stats.faults / cpu / 1e6))
