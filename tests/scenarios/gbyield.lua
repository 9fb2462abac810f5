-- 1GB yield and the memory map on the 8 GiB test machine: GiB 0 holds the
-- DMA/DMA32 boundary, so the regions are GiB 1-3 (DMA32) and 4-7 (Normal).
-- Run by gbyield_results.sh, which then checks the results folder's plots.
-- No boot reservations: every figure below is worked out on a wholly free
-- machine.
local m = mmsim.machine{ preset = "test", boot_reserve = false }
local y = m:gb_yield()
assert(y.total_regions == 7 and y.free_now == 7 and y.movable_only == 7, y.free_now)
assert(y.possible == 7, "without boot reservations every region is possible")
assert(m:memory_map() == string.rep(".", 4096), "a new machine is all free")

-- One unmovable page spoils its region; pcp pages keep it from being free.
local p = assert(m:alloc{ type = "unmovable" })
local gib = p // 262144
y = m:gb_yield()
assert(y.free_now == 6 and y.movable_only == 6 and y.possible == 7)
assert(m:memory_map():sub(p // 512 + 1, p // 512 + 1) == "U")
m:free(p)
y = m:gb_yield()
assert(y.free_now == 6 and y.movable_only == 7)
m:drain()
assert(m:gb_yield().free_now == 7 and m:memory_map() == string.rep(".", 4096))

-- A picture with every class: 2 GiB of movable THP-sized blocks, then
-- small unmovable, reclaimable and movable pages, half of the movable
-- ones freed again.
for _ = 1, 1024 do assert(m:alloc{ type = "movable", order = 9 }) end
-- They fill GiB 4 and 5; the pageset's spare blocks from the last refill
-- sit in GiB 6.
y = m:gb_yield()
assert(y.free_now == 4 and y.movable_only == 7, y.free_now)
for _ = 1, 3000 do assert(m:alloc{ type = "unmovable", order = 0 }) end
for _ = 1, 2000 do assert(m:alloc{ type = "reclaimable", order = 1 }) end
local small = {}
for i = 1, 40000 do small[i] = assert(m:alloc{ type = "movable", order = 0 }) end
for i = 1, #small, 2 do m:free(small[i]) end
local map = m:memory_map()
for _, c in ipairs({ ".", "M", "R", "U" }) do
  assert(map:find(c, 1, true), "no pageblock of class " .. c)
end
assert(not pcall(m.snapshot_memory_map, m, "../x"), "labels are file names")
m:snapshot_memory_map("before")

-- Slab-like noise for 3 ms on two CPUs: the time series gets its columns.
require("mmsim.kernel_noise").start(m, { cpus = { 0, 1 }, until_ns = mmsim.time("3ms") })
m:run()
m:check_invariants()
y = m:gb_yield()
-- The same figures from a walk of the memory map, block by block (not
-- from the per-pageblock counters gb_yield sums): a region is free if it
-- holds only buddy blocks, movable-only if no allocated block in it is
-- unmovable or reclaimable.
local free_now, movable_only = 0, 0
for g = 1, 7 do
  local free, movable, pfn = true, true, g * 262144
  while pfn < (g + 1) * 262144 do
    local pg = m:page(pfn)
    if pg.kind ~= "buddy" then free = false end
    if pg.kind == "alloc" and pg.type ~= "movable" then movable = false end
    pfn = pfn + (1 << pg.order)
  end
  if movable then movable_only = movable_only + 1 end
  if free and movable then free_now = free_now + 1 end
end
assert(y.free_now == free_now and y.movable_only == movable_only,
  string.format("gb_yield %d %d, memory walk %d %d", y.free_now, y.movable_only, free_now,
    movable_only))
assert(free_now < movable_only, "the noise left no region to empty: the check is idle")
