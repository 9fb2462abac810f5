-- page_cache: file reads filling the page cache.
--
-- Reader threads stream through files at a steady rate; every page read is
-- a new page-cache page (movable, on the reader's node) at the tail of the
-- node's LRU. When a zone of the node falls below its low watermark, the
-- node's kswapd reclaims the oldest file pages until the zone is back above
-- its high watermark; an allocation that still fails reclaims directly.
-- Modelled: clean file pages only (no dirty pages, writeback, re-reads,
-- readahead windows or active/inactive lists).
--
--   local pc = require("mmsim.page_cache").start(m, {
--     cpus = {3},          -- one reader thread per CPU
--     rate_mib_s = 2000,   -- read rate per reader, MiB per simulated second
--     file_mib = 256,      -- then the reader moves on to a new file
--     until_ns = 50e6,     -- stop reading at this simulated time
--   })
--   m:run()
--   print(pc.stats.pages_read, m:info().file_pages)
--
-- The readers run in C (m:start_page_cache_readers, sim/workload_page_cache.c);
-- this module reads the options.
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate_mib_s", "file_mib", "until_ns" }, "page_cache.start")
  local stop = assert(o.until_ns, "page_cache: until_ns is required")
  local readers = m:start_page_cache_readers{
    cpus = o.cpus or { 0 }, pages_per_ns = (o.rate_mib_s or 2000) * 256 / 1e9,
    file_pages = (o.file_mib or 256) * 256,
    until_ns = math.tointeger(stop) or error("page_cache: until_ns must be an integer"),
  }
  return { stats = readers }
end

return M
