-- The page cache and kswapd: reading 1.5 times the memory of the 8 GiB test
-- machine never fails; kswapd keeps every zone near its watermarks and the
-- oldest file pages go first.
local m = mmsim.machine{ preset = "test" }
local managed = m:info().managed_pages
local pc = require("mmsim.page_cache").start(m, {
  cpus = { 0, 1, 2, 3 }, rate_mib_s = 40000, file_mib = 1024, until_ns = mmsim.time("400ms") })
m:run()
local info = m:info()
assert(pc.stats.failed == 0, "reads failed: " .. pc.stats.failed)
assert(pc.stats.pages_read > managed * 1.5 // 1, "read " .. pc.stats.pages_read)
assert(info.file_pages < pc.stats.pages_read, "nothing was reclaimed")
assert(info.file_pages > managed * 0.8, "cache holds " .. info.file_pages)
-- kswapd stops at the high watermark: free memory ends between min and a
-- few times high.
local free, high = 0, 0
for _, z in ipairs(m:zones()) do
  free = free + z.free
  high = high + z.high
end
assert(free >= high // 2 and free < 8 * high, "free " .. free .. ", high " .. high)
local vm = {}
for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
assert(vm.pgsteal_kswapd > 0 and
  vm.pgsteal_kswapd + vm.pgsteal_direct + info.file_pages == pc.stats.pages_read,
  string.format("pgsteal_kswapd %s + file pages %d < read %d", tostring(vm.pgsteal_kswapd), info.file_pages, pc.stats.pages_read))
-- Oldest first: each reader reads its files in order, so what is left of a
-- file is its last pages read: its cached indices run without a gap to the
-- last index read.  A file read to the end and then partly reclaimed keeps
-- its tail; reclaiming anything but the oldest would leave holes.  Every
-- page's owner is file kind 4 << 28 | file id, its offset the index.
local cached = {}
local pfn, frames = 0, m:info().frames
while pfn < frames do
  local pg = m:page(pfn)
  if pg.kind == "alloc" and pg.owner >> 28 == 4 then
    local f = cached[pg.owner & 0xfffffff] or { n = 0, lo = math.huge, hi = -1 }
    cached[pg.owner & 0xfffffff] = f
    f.n, f.lo, f.hi = f.n + 1, math.min(f.lo, pg.offset), math.max(f.hi, pg.offset)
  end
  pfn = pfn + (1 << pg.order)
end
local total, partial, gone = 0, 0, 0
for id = 1, pc.stats.files do
  local f = cached[id]
  if not f then
    gone = gone + 1
  else
    assert(f.hi - f.lo + 1 == f.n, string.format("file %d: %d pages cached in %d-%d", id, f.n,
      f.lo, f.hi))
    if f.lo > 0 then partial = partial + 1 end
    total = total + f.n
  end
end
-- Pages a reclaimer took off the LRU stay allocated until its batch of
-- PAGEVEC_SIZE (31) is freed: a run that stops mid-batch leaves at most one
-- batch per reclaimer (kswapd and the 4 readers' direct reclaim) in flight.
assert(total >= info.file_pages and total - info.file_pages < 31 * 5,
  total .. " file pages found, " .. info.file_pages .. " on the LRU")
-- 1.5 times memory read in 1 GiB files over 4 readers: the first files
-- went entirely, some were cut.
assert(not cached[1] and gone > 0 and partial > 0, gone .. " files gone, " .. partial .. " cut")
m:check_invariants()
print(string.format("ok: page cache: %d pages read, %d cached, %d reclaimed by kswapd, %d directly",
  pc.stats.pages_read, info.file_pages, vm.pgsteal_kswapd, vm.pgsteal_direct))
