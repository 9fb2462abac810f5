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
assert(m:info().free_pages == info.free_pages - 8)
m:check_invariants()

-- Freeing merges back: the machine is all free again.
m:free(p)
assert(m:page(p).kind == "buddy" and m:page(p).order == 10)
assert(m:info().free_pages == info.free_pages)
assert(not pcall(m.free, m, p), "double free must fail")

-- Exhaustion: allocations fail with nil, not an error, once the zones hit
-- their watermarks; nothing is lost.
local held = {}
while true do
  local q = m:alloc{ order = 9, type = "movable" }
  if not q then break end
  held[#held + 1] = q
end
assert(#held > 4000 and #held < 4096, "#held = " .. #held)
assert(m:info().alloc_fail == 1)
for _, q in ipairs(held) do m:free(q) end
assert(m:info().free_pages == info.free_pages)
m:check_invariants()

-- Dumps are strings in the kernel's layout.
assert(m:buddyinfo():match("^Node 0, zone      DMA "))
assert(m:pagetypeinfo():match("^Page block order: 9\nPages per block:  512\n"))
assert(m:zoneinfo():match("\n  pages free     %d+\n"))
print("ok: api")
