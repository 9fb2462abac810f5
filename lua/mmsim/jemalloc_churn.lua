-- jemalloc_churn: a multi-threaded process allocating through jemalloc 5.3.
--
-- One process, one thread per CPU, each with its own arena. An arena maps
-- extents that grow through jemalloc's page size classes (2, 2.5, 3, 3.5,
-- 4, 5, 6, 7, 8, 10 ... MiB), carves objects out of them page-aligned
-- (small objects live in slabs, so the kernel sees runs of pages), and
-- touches the pages of an object on first use. Freed runs stay dirty (still
-- resident) for reuse; runs dirty for longer than the decay time are purged
-- with madvise(MADV_DONTNEED), as jemalloc's dirty decay does with muzzy
-- decay off, by the thread whose free makes the purge due. A share of each
-- thread's objects is handed to another thread, which frees them back into
-- the owning arena 10 us later: the kernel then sees pages faulted on one
-- CPU and purged from another. The threads hand objects and purges to each
-- other through the engine's mailboxes (sim/mailbox.h), which deliver them
-- at their exact simulated time while each thread runs ahead of the others.
--
--   local jc = require("mmsim.jemalloc_churn").start(m, {
--     cpus = {0, 1, 2, 3},     -- one thread per CPU
--     sizes = {                -- object size mix (rounded up to pages)
--       { size = "16K", weight = 50 }, { size = "64K", weight = 30 },
--       { size = "256K", weight = 15 }, { size = "1M", weight = 5 },
--     },
--     live_mib = 64,           -- live objects per thread
--     remote_share = 0.3,      -- objects freed by another thread
--     decay = "100ms",         -- dirty_decay_ms
--     work = "20us",           -- the application's work per object
--     until_ns = 50e6,         -- stop at this simulated time (required)
--     page_leaders = 0,        -- page level: threads stepping objects (0: one per 16)
--     coast_ratio = 4,         -- page level: a steady leader's coast, times its stepped time (0: none)
--   })
--   m:run()
--   print(jc.stats.objects, jc.stats.remote_frees, jc.stats.purged_pages)
--
-- The threads run in C (m:start_jemalloc_churn, sim/workload_jemalloc.c);
-- this module reads the options. They draw from math.random's own stream:
-- a single thread gives the figures the Lua version of this loop gave
-- for the same seed (tests/scenarios/jemalloc_churn_c.sh).
--
-- In a fast-forward at page level (m:run{timing = false, level = "page"})
-- only the first page_leaders threads step their objects; every other
-- thread replays, on its own CPU and in extents of its own, the page
-- events of leader (its index mod page_leaders): the extents it maps, the
-- ranges it touches and the runs purged from it. Every thread's arena
-- behaves alike, so the kernel sees the same faults and purges at the
-- same rates without most objects being stepped; stats.objects counts a
-- leader's objects once for each thread it stands for. A leader whose
-- arena is steady (no page event for a decay time, no dirty run near its
-- decay) coasts, coast_ratio times as long as it stepped, without
-- stepping objects (stats.coasted_ns; docs/API.md). When the timed run
-- comes, each follower's arena becomes a copy of its leader's, in its own
-- extents.
-- tests/scenarios/page_level.sh holds the two levels to each other.
local M = {}

local PAGE = 4096

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "sizes", "live_mib", "remote_share", "decay", "work", "until_ns", "page_leaders", "coast_ratio" }, "jemalloc_churn.start")
  assert(o.until_ns, "jemalloc_churn: until_ns is required")
  local sizes = {}
  for i, s in ipairs(o.sizes or {
    { size = "16K", weight = 50 }, { size = "64K", weight = 30 },
    { size = "256K", weight = 15 }, { size = "1M", weight = 5 },
  }) do
    sizes[i] = { bytes = (mmsim.size(s.size) + PAGE - 1) // PAGE * PAGE, weight = s.weight }
  end
  local proc = assert(m:process(), "jemalloc_churn: no memory for the process")
  -- The process's first thread runs on the first CPU; the others are
  -- cloned (a task_struct and a kernel stack each, with the slab model on)
  -- and live as long as the process.
  local cpus = o.cpus or { 0 }
  for _ = 2, #cpus do assert(proc:clone(), "jemalloc_churn: no memory for a thread") end
  local ok, churn = pcall(m.start_jemalloc_churn, m, {
    process = proc, cpus = cpus, sizes = sizes,
    live_bytes = (o.live_mib or 64) * 1024 * 1024, remote_share = o.remote_share or 0.3,
    decay_ns = mmsim.time(o.decay or "100ms"), work_ns = mmsim.time(o.work or "20us"),
    until_ns = math.tointeger(o.until_ns) or error("jemalloc_churn: until_ns must be an integer"),
    page_leaders = o.page_leaders, coast_ratio = o.coast_ratio,
  })
  if not ok then error("jemalloc_churn.start: " .. churn, 2) end
  return { stats = churn, process = proc }
end

return M
