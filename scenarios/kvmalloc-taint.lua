-- kvmalloc and clean superpageblocks (kvmalloc __GFP_NORETRY, commit d307be85).
--
-- Kernel code asks kvmalloc for buffers of 16 KiB to 1 MiB: a physically
-- contiguous kmalloc attempt first, vmalloc's order-0 pages if it fails.
-- The machine already holds unmovable memory: a few superpageblocks full of
-- long-lived slab pages with small holes, so the kmalloc attempt finds no
-- contiguous room in a tainted superpageblock. Without __GFP_NORETRY (as at
-- the series tip) the attempt falls back into a clean or empty
-- superpageblock and taints it for good; with it (kvmalloc_noretry = true),
-- the later series' "caller has a fallback" rule makes the attempt fail and
-- kvmalloc uses vmalloc pages instead. Those are ordinary unmovable
-- allocations: when a run of them makes the CPU's pageset refill a whole
-- pageblock (pcp_buddy's refill Phase 1, docs/MODEL.md) and no tainted
-- superpageblock has a free one, they taint a clean one too; the run reports both causes.
--
--   ./run scenarios/kvmalloc-taint.lua -D kvmalloc_noretry=true
--
-- sweep-label: results.kvmalloc.contiguous kvmalloc requests served contiguous (count)
-- sweep-label: results.kvmalloc.tainted_by_kmalloc clean superpageblocks tainted by kmalloc attempts (count)
-- sweep-label: results.kvmalloc.tainted_by_vmalloc clean superpageblocks tainted by vmalloc pages (count)
-- plots: memory_map, spb_map
local p = mmsim.params{
  policy = "spb",
  mem = "16G",
  kvmalloc_noretry = false,
  requests = 2000,
}
local m = mmsim.machine{ mem_per_node = p.mem, policy = p.policy }

-- Long-lived slab memory: fill one superpageblock's worth with order-0
-- unmovable pages, then free every other one, leaving only order-0 holes.
local slab = {}
for i = 1, 262144 do slab[i] = assert(m:alloc{ type = "unmovable" }) end
for i = 1, #slab, 2 do m:free(slab[i]) end
m:drain()
local before = m:spb_stats()

local sizes = { "16K", "32K", "64K", "128K", "256K", "1M" }
local contiguous, held = 0, {}
m:spawn{ cpu = 1, fn = function()
  for i = 1, p.requests do
    local a = assert(m:kvmalloc{ size = sizes[math.random(#sizes)], noretry = p.kvmalloc_noretry })
    if a:contiguous() then contiguous = contiguous + 1 end
    held[#held + 1] = a
    if #held > 64 then m:kvfree(table.remove(held, 1)) end
    mmsim.sleep("10us")
  end
  for _, a in ipairs(held) do m:kvfree(a) end
end }
m:run()
local after = m:spb_stats()
print(string.format("kvmalloc, noretry %s: %d requests, %d contiguous, %d vmalloc'ed",
  tostring(p.kvmalloc_noretry), p.requests, contiguous, p.requests - contiguous))
print(string.format("clean superpageblocks tainted: %d by the kmalloc attempts, %d by vmalloc "
  .. "pages (tainted %d -> %d)", after.tainted_by_kmalloc, after.tainted_by_vmalloc,
  before.tainted, after.tainted))
mmsim.result("kvmalloc.contiguous", contiguous)
mmsim.result("kvmalloc.tainted_by_kmalloc", after.tainted_by_kmalloc)
mmsim.result("kvmalloc.tainted_by_vmalloc", after.tainted_by_vmalloc)
