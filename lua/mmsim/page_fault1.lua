-- page_fault1: will-it-scale's page fault benchmark. Each task maps
-- `size` of anonymous memory, writes one byte to each of its pages and
-- unmaps it, over and over. As processes (the default) each task has its
-- own address space, made on its CPU when it starts and exited when it
-- ends; as threads the tasks share one process, its mmap_lock (a munmap
-- makes the others' faults wait) and its page tables, and the last task
-- to end exits it.
--
--   local pf = require("mmsim.page_fault1").start(m, {
--     cpus = {0, 1, 2, 3},   -- one task per CPU
--     size = "128M",         -- mapped, touched and unmapped each loop
--     mode = "processes",    -- or "threads"
--     loops = 10,            -- per task; or until_ns: no new loop from then on
--   })
--   m:run()
--   print(pf.stats.loops, pf.stats.faults)
--
-- The tasks run in C (m:start_page_fault1, sim/workload_page_fault1.c).
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "size", "mode", "loops", "until_ns" }, "page_fault1.start")
  local mode = o.mode or "processes"
  assert(mode == "processes" or mode == "threads",
    "page_fault1: mode must be \"processes\" or \"threads\", not " .. tostring(mode))
  assert(o.loops or o.until_ns, "page_fault1: give loops or until_ns")
  local w = m:start_page_fault1{
    cpus = o.cpus or { 0 }, threads = mode == "threads", size = o.size or "128M",
    loops = o.loops, until_ns = o.until_ns
      and (math.tointeger(o.until_ns) or error("page_fault1: until_ns must be an integer")),
  }
  return { stats = w }
end

return M
