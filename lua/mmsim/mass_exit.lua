-- mass_exit: many processes with large address spaces tear down at once.
--
-- P processes, one per CPU, each mmap()s M MiB, touches every page (first-
-- touch faults on its CPU), waits for the others, lives `live` more of
-- simulated time, and then all call exit at the same simulated instant:
-- exit_mmap frees every page through the per-CPU lists in batches, as the
-- kernel's mmu_gather does, and the page tables after them.
--
--   local ex = require("mmsim.mass_exit").start(m, {
--     cpus = {0, 1, 2, 3},   -- one process per CPU
--     mib = 256,             -- MiB touched per process
--     live = "30s",          -- from the last touch to the exit
--   })
--   m:run()
--   print(ex.stats.exit.slowest_ns, ex.stats.exit.zone_lock.contentions)
--
-- The processes run in C (m:start_mass_exit, sim/workload_mass_exit.c);
-- phases fault_in, live and exit keep each one's lock figures apart in
-- summary.json's phases.*.
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "mib", "live" }, "mass_exit.start")
  -- The exit is what a mass exit measures: the summary's headline figures
  -- are its window's, not diluted by the processes' idle life.
  mmsim.headline_phase("exit")
  m:phase("fault_in")
  local w = m:start_mass_exit{ cpus = o.cpus or { 0 }, size = (o.mib or 64) * 1024 * 1024,
                               live = mmsim.time(o.live or "30s") }
  return { stats = w }
end

return M
