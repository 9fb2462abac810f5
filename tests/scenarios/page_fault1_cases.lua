-- page_fault1 on the test machine, 4 tasks mapping 2 MiB 6 times, as
-- processes or threads (-D mode=), run by the C module or by the same
-- loop in Lua (-D impl=c|lua); prints the figures both must give
-- (tests/scenarios/page_fault1_c.sh compares them).
local p = mmsim.params{ impl = "c", mode = "processes" }
local m = mmsim.machine{ preset = "test" }
local CPUS, SIZE, LOOPS = { 0, 1, 2, 3 }, 2 * 1024 * 1024, 6

-- The loop of sim/workload_page_fault1.c, step for step.
local function lua_page_fault1(threads)
  local shared = threads and assert(m:process())
  local users = #CPUS
  local stats = { loops = 0, faults = 0, failed = 0, tasks_done = 0, end_ns = 0 }
  for _, cpu in ipairs(CPUS) do
    m:spawn{ cpu = cpu, name = "page_fault1-" .. cpu, fn = function()
      local proc = shared or assert(m:process())
      for _ = 1, LOOPS do
        local a = assert(proc:mmap(SIZE))
        -- Read the count after the touch: other tasks add theirs meanwhile.
        local faulted = assert(proc:touch(a, SIZE))
        stats.faults = stats.faults + faulted
        proc:munmap(a, SIZE)
        stats.loops = stats.loops + 1
      end
      users = users - 1
      if not shared or users == 0 then proc:exit() end
      stats.tasks_done = stats.tasks_done + 1
      stats.end_ns = mmsim.now()
    end }
  end
  return stats
end

local ok, err = pcall(m.start_page_fault1, m, { cpus = { 0 }, size = SIZE })
assert(not ok and err:find("give 'loops' or 'until_ns'"), err)

local stats
if p.impl == "c" then
  stats = require("mmsim.page_fault1").start(m, { cpus = CPUS, size = SIZE, mode = p.mode,
    loops = LOOPS }).stats
else
  stats = lua_page_fault1(p.mode == "threads")
end
m:run()
local l, info = m:lock_stats(), m:info()
local line = string.format("%s loops=%d faults=%d failed=%d tasks_done=%d end_ns=%d "
  .. "free_pages=%d time=%d", p.mode, stats.loops, stats.faults, stats.failed,
  stats.tasks_done, stats.end_ns, info.free_pages, l.time_ns)
for _, cls in ipairs({ "zone", "pcp", "lru", "ptl", "mmap" }) do
  line = line .. string.format(" %s=%d/%d/%d", cls, l[cls].acquisitions, l[cls].contentions,
    l[cls].wait_ns_total)
end
print(line)
