-- The mmsim module's machine API on the small test machine.
local m = mmsim.machine{ preset = "test" }
local info = m:info()
assert(info.nodes == 1 and info.cpus == 4)
assert(info.frames == 8 * 262144, "8 GiB is 2097152 frames")
assert(info.free_pages == info.managed_pages, "a new machine is all free")
assert(info.min_free_kbytes == 67584, "THP raises min_free_kbytes to 67584 on 8 GiB")

local zones = m:zones()
assert(#zones == 3, "DMA, DMA32 and Normal")
assert(zones[1].name == "DMA" and zones[2].name == "DMA32" and zones[3].name == "Normal")
assert(zones[3].min < zones[3].low and zones[3].low < zones[3].high)

-- Allocations go to the highest allowed zone first: Normal.
local p = assert(m:alloc{ order = 3, type = "unmovable", owner = 42, offset = 7 })
local pg = m:page(p)
assert(pg.kind == "alloc" and pg.order == 3 and pg.type == "unmovable", pg.kind)
assert(pg.zone == "Normal" and pg.node == 0)
assert(pg.owner == 42 and pg.offset == 7)
-- The first unmovable request claimed a whole MOVABLE pageblock range.
assert(pg.pageblock_type == "Unmovable")
-- The refill cached a batch on CPU 0's pageset: those pages are neither
-- free in the buddy nor allocated.
local now = m:info()
assert(now.pcp_pages > 0 and now.free_pages + now.pcp_pages == info.free_pages - 8)
assert(now.policy == "upstream")
m:check_invariants()

-- Freeing puts the block on the pageset; draining merges everything back.
m:free(p)
assert(m:page(p).kind == "pcp")
m:drain()
assert(m:page(p).kind == "buddy" and m:page(p).order == 10)
assert(m:info().free_pages == info.free_pages and m:info().pcp_pages == 0)
assert(not pcall(m.free, m, p), "double free must fail")

-- Exhaustion: allocations fail with nil, not an error, once the zones hit
-- their watermarks; nothing is lost.
local held = {}
while true do
  local q = m:alloc{ order = 9, type = "movable" }
  if not q then break end
  held[#held + 1] = q
end
-- 8 GiB less the boot reservations, in 2 MiB blocks, less the watermarks.
assert(#held > info.managed_pages // 512 - 96 and #held < info.managed_pages // 512,
  "#held = " .. #held)
assert(m:info().alloc_fail == 1)
for _, q in ipairs(held) do m:free(q) end
m:drain()
assert(m:info().free_pages == info.free_pages)
m:check_invariants()

-- Dumps are strings in the kernel's layout.
assert(m:buddyinfo():match("^Node 0, zone      DMA "))
assert(m:pagetypeinfo():match("^Page block order: 9\nPages per block:  512\n"))
assert(m:zoneinfo():match("\n  pages free     %d+\n"))
-- /proc/vmstat counts every page handed out and given back.
local vm = {}
for name, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[name] = tonumber(v) end
-- nr_free_pages is the counter; buddyinfo counts the free lists themselves.
local listed = 0
for rest in m:buddyinfo():gmatch("Node %d+, zone +%S+([^\n]*)") do
  local order = 0
  for n in rest:gmatch("%d+") do
    listed = listed + tonumber(n) * (1 << order)
    order = order + 1
  end
end
assert(vm.nr_free_pages == listed, vm.nr_free_pages .. " free, " .. listed .. " on the lists")
local allocated = 8 + #held * 512
assert(vm.pgalloc_normal + vm.pgalloc_dma32 + vm.pgalloc_dma == allocated,
  "pgalloc " .. vm.pgalloc_normal + vm.pgalloc_dma32 .. " vs " .. allocated)
assert(vm.pgfree == allocated)
assert(vm.numa_hit == #held + 1 and vm.numa_miss == 0)

-- Seed 001: a whole-pageblock refill is owned by the refilling CPU, and a
-- page of it freed on another CPU goes back to the owner's pageset.
local b = mmsim.machine{ preset = "test", policy = "pcp_buddy" }
-- Refills double while a CPU only allocates (alloc_factor); the fifth, of
-- 1008 pages, is the first large enough to take a whole block.
local owned
for _ = 1, 3000 do
  local q = assert(b:alloc{ cpu = 1, type = "movable" })
  if not owned and b:page(q).pageblock_owner == 1 then owned = q end
end
assert(owned, "no page came from a CPU-owned pageblock")
b:free(owned, { cpu = 2 })
local back = b:page(owned)
assert(back.kind == "pcp" and back.pcp_buddy, "freed page went to the owner's pageset")
b:check_invariants()
print("ok: api")
