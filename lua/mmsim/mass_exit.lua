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
local M = {}

-- Waiting processes look for the exit time this often.
local POLL_NS = 10000

local function median(t)
  local s = table.move(t, 1, #t, 1, {})
  table.sort(s)
  local n = #s
  if n == 0 then return 0 end
  if n % 2 == 1 then return s[(n + 1) // 2] end
  return (s[n // 2] + s[n // 2 + 1]) // 2
end

-- What the exit phase is measured against: zone->lock's class figures and
-- where freed pages are.
local function snapshot(m)
  local info = m:info()
  return { zone = m:lock_stats().zone, pcp_pages = info.pcp_pages,
           freed_to_buddy = info.freed_to_buddy }
end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "mib", "live" }, "mass_exit.start")
  local cpus = o.cpus or { 0 }
  local bytes = (o.mib or 64) * 1024 * 1024
  local live = mmsim.time(o.live or "30s")
  local stats = { processes = #cpus, pages_touched = 0, pgtable_pages = 0, live_ns = live,
                  touch_end_ns = nil, exit_start_ns = nil, exit_end_ns = 0, exit_ns = {},
                  pagesets_touched = {}, pagesets_before_exit = {} }
  local ready, done = 0, 0
  local before

  -- Phases fault_in, live and exit: summary.json's phases.* keep each
  -- one's lock figures apart.
  m:phase("fault_in")

  for i, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "exit" .. cpu, fn = function()
      local p = assert(m:process(), "mass_exit: no memory for a process")
      local a = assert(p:mmap(bytes))
      local n, err = p:touch(a, bytes)
      assert(n, "mass_exit: " .. tostring(err) .. " while touching")
      stats.pages_touched = stats.pages_touched + n
      stats.pgtable_pages = stats.pgtable_pages + p:stats().pgtable_pages
      stats.pagesets_touched[i] = m:pagesets(cpu)
      ready = ready + 1
      -- The last process to finish touching picks the common exit time,
      -- late enough for the others to notice it.
      if ready == #cpus then
        stats.touch_end_ns = mmsim.now()
        stats.exit_start_ns = stats.touch_end_ns + math.max(live, POLL_NS)
        m:phase("live")
      end
      while not stats.exit_start_ns do mmsim.sleep(POLL_NS) end
      mmsim.sleep(stats.exit_start_ns - mmsim.now())
      stats.pagesets_before_exit[i] = m:pagesets(cpu)
      -- The first process to wake opens the exit phase, before any of
      -- them frees a page.
      if not before then
        before = snapshot(m)
        m:phase("exit")
      end
      p:exit()
      stats.exit_ns[i] = mmsim.now() - stats.exit_start_ns
      stats.exit_end_ns = math.max(stats.exit_end_ns, mmsim.now())
      done = done + 1
      if done == #cpus then
        m:phase()
        local after = snapshot(m)
        local freed = stats.pages_touched + stats.pgtable_pages
        local exit_time = 0
        for _, ns in ipairs(stats.exit_ns) do exit_time = exit_time + ns end
        local wait = after.zone.wait_ns_total - before.zone.wait_ns_total
        stats.exit = {
          slowest_ns = math.max(table.unpack(stats.exit_ns)),
          median_ns = median(stats.exit_ns),
          zone_lock = {
            acquisitions = after.zone.acquisitions - before.zone.acquisitions,
            contentions = after.zone.contentions - before.zone.contentions,
            wait_ns_total = wait,
            hold_ns_total = after.zone.hold_ns_total - before.zone.hold_ns_total,
            wait_ms_per_process = wait / #cpus / 1e6,
            wait_share = exit_time > 0 and wait / exit_time or 0,
          },
          pages_freed = freed,
          pages_to_buddy = after.freed_to_buddy - before.freed_to_buddy,
          pages_kept_on_pcp = after.pcp_pages - before.pcp_pages,
        }
      end
    end }
  end
  return { stats = stats }
end

return M
