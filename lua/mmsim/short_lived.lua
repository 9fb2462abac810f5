-- short_lived: processes that come and go, as a server's cron jobs,
-- shells and short commands do: their page tables, kernel objects and
-- stacks are unmovable allocations among the rest.
--
-- On each CPU given, one thread makes a process (m:process()), maps and
-- touches `size` of anonymous memory, lets it live `life`, exits it and
-- waits `gap` before the next, until `until_ns`.  A process that could
-- not be made, or a mapping or touch short of memory, counts as failed
-- and the thread goes on (the process exits all the same).
--
--   local sl = require("mmsim.short_lived").start(m, {
--     cpus = {3},            -- one thread per CPU
--     size = "16M",          -- mapped and touched by each process
--     life = "200us",        -- from the touch to the exit
--     gap = "500us",         -- from the exit to the next process
--     until_ns = stop,       -- required: no new process from then on
--   })
--   m:run{...}
--   print(sl.stats.processes, sl.stats.faults, sl.stats.failed)
--
-- The threads ("procs<cpu>") run in C (m:start_short_lived,
-- sim/workload_short_lived.c), making the calls aging.lua's loop in Lua
-- made, in its order: a seed gives the run it gave.
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "size", "life", "gap", "until_ns" }, "short_lived.start")
  if not math.tointeger(o.until_ns) then
    error("short_lived.start: until_ns (an integer of ns) is required", 2)
  end
  local ok, w = pcall(m.start_short_lived, m, { cpus = o.cpus or { 0 },
    size = o.size or "16M", life = o.life or "200us", gap = o.gap or "500us",
    until_ns = o.until_ns })
  if not ok then error("short_lived.start: " .. w, 2) end
  return { stats = w }
end

return M
