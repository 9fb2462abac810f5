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
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate_mib_s", "file_mib", "until_ns" }, "page_cache.start")
  local cpus = o.cpus or { 0 }
  local rate = (o.rate_mib_s or 2000) * 256 / 1e9     -- pages per ns
  local file_pages = (o.file_mib or 256) * 256
  local stop = assert(o.until_ns, "page_cache: until_ns is required")
  local chunk = 64                                   -- pages per read() call
  local stats = { pages_read = 0, files = 0, failed = 0 }
  local next_file = 1

  for _, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "reader" .. cpu, fn = function()
      local file, index = next_file, 0
      next_file = next_file + 1
      stats.files = stats.files + 1
      while mmsim.now() < stop do
        local got = m:read_file{ file = file, pages = chunk, index = index }
        stats.pages_read = stats.pages_read + got
        if got < chunk then stats.failed = stats.failed + 1 end
        index = index + chunk
        if index >= file_pages then
          file, index = next_file, 0
          next_file = next_file + 1
          stats.files = stats.files + 1
        end
        mmsim.sleep(chunk / rate)
      end
    end }
  end
  return { stats = stats }
end

return M
