-- mass_exit: many processes with large address spaces tear down at once.
--
-- P processes, one per CPU, each mmap()s M MiB, touches every page (first-
-- touch faults on its CPU), waits for the others, and then all call exit at
-- the same simulated instant: exit_mmap frees every page through the per-CPU
-- lists in batches, as the kernel's mmu_gather does, and the page tables
-- after them.
--
--   local ex = require("mmsim.mass_exit").start(m, {
--     cpus = {0, 1, 2, 3},   -- one process per CPU
--     mib = 256,             -- MiB touched per process
--   })
--   m:run()
--   print(ex.stats.exit_start_ns, ex.stats.exit_end_ns, ex.stats.pages_touched)
local M = {}

function M.start(m, o)
  o = o or {}
  local cpus = o.cpus or { 0 }
  local bytes = (o.mib or 64) * 1024 * 1024
  local stats = { processes = #cpus, pages_touched = 0, pgtable_pages = 0,
                  exit_start_ns = nil, exit_end_ns = 0, exit_ns = {} }
  local ready = 0

  for i, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "exit" .. cpu, fn = function()
      local p = assert(m:process(), "mass_exit: no memory for a process")
      local a = assert(p:mmap(bytes))
      local n, err = p:touch(a, bytes)
      assert(n, "mass_exit: " .. tostring(err) .. " while touching")
      stats.pages_touched = stats.pages_touched + n
      stats.pgtable_pages = stats.pgtable_pages + p:stats().pgtable_pages
      ready = ready + 1
      -- The last process to finish touching picks the common exit time.
      if ready == #cpus then stats.exit_start_ns = mmsim.now() + 10000 end
      while not stats.exit_start_ns do mmsim.sleep(10000) end
      mmsim.sleep(math.max(0, stats.exit_start_ns - mmsim.now()))
      p:exit()
      stats.exit_ns[i] = mmsim.now() - stats.exit_start_ns
      stats.exit_end_ns = math.max(stats.exit_end_ns, mmsim.now())
    end }
  end
  return { stats = stats }
end

return M
