-- khugepaged: a thread that collapses 2 MiB blocks into THPs, as the
-- kernel's khugepaged does (models/khugepaged.h), with its defaults:
-- a pass of pages_to_scan 4096 every scan_sleep 10 s, max_ptes_none 511;
-- the sleep is divided by the machine's time_scale, as the kernel's
-- periods are on a time-compressed machine.
--
--   local kh = require("mmsim.khugepaged").start(m, {
--     cpu = 0,                 -- where the thread runs
--     until_ns = 60e9,         -- stop at this simulated time (required)
--     pages_to_scan = 4096, scan_sleep = "10s", max_ptes_none = 511,
--   })
--   m:run()
--   print(kh.stats.passes, kh.stats.scanned, kh.stats.collapsed)
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpu", "until_ns", "pages_to_scan", "scan_sleep", "max_ptes_none" },
    "khugepaged.start")
  assert(o.until_ns, "khugepaged: until_ns is required")
  local sleep = mmsim.time(o.scan_sleep or "10s") / m:info().time_scale
  local stats = { passes = 0, scanned = 0, collapsed = 0, failed = 0 }
  m:spawn{ cpu = o.cpu or 0, name = "khugepaged", fn = function()
    while true do
      mmsim.sleep(sleep)
      if mmsim.now() >= o.until_ns then break end
      local r = m:khugepaged_scan{ pages = o.pages_to_scan, max_ptes_none = o.max_ptes_none }
      stats.passes = stats.passes + 1
      stats.scanned = stats.scanned + r.scanned
      stats.collapsed = stats.collapsed + r.collapsed
      stats.failed = stats.failed + r.failed
    end
  end }
  return { stats = stats }
end

return M
