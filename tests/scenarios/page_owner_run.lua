-- page_owner = true (models/page_owner.h), worked by hand on a wholly free
-- machine, each allocation's time taken from the thread that made it:
-- - an order-3 unmovable block at t0 and an order-0 one at t1 = t0 + 1 ms,
--   read at t = t1 + 2 ms: 9 pages; 8 of them are 3 ms old, so the median
--   and the 90th percentile are the order-3 block's age, the 10th (the
--   youngest ninth of the pages) the order-0 one's, the mean (8 x 3 + 2) / 9
--   ms; buckets 12 (2048-4096 us) and 11 (1024-2048 us) hold them;
-- - m:page's allocated_ns is each block's time;
-- - move_pages keeps the time (folio_copy_owner): the page on node 1 has
--   its node-0 original's;
-- - the results folder's page_owner_ages has the same figures
--   (page_owner.sh);
-- - a THP split keeps the time in the pages it leaves (split_page_owner);
-- - without page_owner the method is an error that says so.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 1, mem_per_node = "256M",
  boot_reserve = false, page_owner = true }
local a, b, t0, t1, ages, moved, before, after, t_before, thp_ns, split_ns, split_order
m:spawn{ cpu = 0, name = "owner", fn = function()
  a = m:alloc{ order = 3, type = "unmovable" }
  t0 = mmsim.now()
  mmsim.sleep("1ms")
  b = m:alloc{ order = 0, type = "unmovable" }
  t1 = mmsim.now()
  mmsim.sleep("2ms")
  ages = m:page_owner_ages()
  local p = m:process{ node = 0 }
  local addr = p:mmap("4K")
  p:touch(addr, "4K")
  before = p:follow_page(addr)
  t_before = m:page(before).allocated_ns
  mmsim.sleep("100us")
  moved = p:move_pages(addr, "4K", 1)
  after = p:follow_page(addr)
  -- A THP cut by madvise and split by drop_slab (split_page_owner).
  local q = m:process{ node = 0 }
  local base = q:mmap("4M")
  base = (base + (2 << 20) - 1) & ~((2 << 20) - 1)
  q:madvise(base, "2M", "hugepage")
  q:touch(base, "2M")
  local head = q:follow_page(base)
  assert(m:page(head).order == 9, "no THP")
  thp_ns = m:page(head).allocated_ns
  mmsim.sleep("100us")
  q:madvise(base + 4096, 4096, "dontneed")
  assert(m:drop_slab() >= 1)
  local page = q:follow_page(base + 8192)
  split_order, split_ns = m:page(page).order, m:page(page).allocated_ns
  q:exit()
end }
m:run{ duration = "4ms" }
local ta, tb = m:page(a).allocated_ns, m:page(b).allocated_ns
assert(ta <= t0 and t0 - ta < 10000, "order-3 block allocated at " .. ta .. ", t0 " .. t0)
assert(tb <= t1 and t1 - tb < 10000, "order-0 block allocated at " .. tb .. ", t1 " .. t1)
local now = t1 + 2000000
local function near(x, want, what)
  assert(math.abs(x - want) <= 20000, string.format("%s: %.0f ns, want %.0f", what, x, want))
end
assert(ages.pages == 9 and ages.unrecorded == 0, "pages " .. ages.pages)
near(ages.p50_ns, now - ta, "p50")
near(ages.p90_ns, now - ta, "p90")
near(ages.p10_ns, now - tb, "p10")
near(ages.max_ns, now - ta, "max")
near(ages.mean_ns, (8 * (now - ta) + (now - tb)) / 9, "mean")
assert(ages.buckets[12] == 8 and ages.buckets[11] == 1, "buckets " .. ages.buckets[12] .. " "
  .. ages.buckets[11])
assert(moved.moved == 1 and after ~= before and m:page(after).node == 1, "move_pages moved nothing")
assert(m:page(after).allocated_ns == t_before, "the moved page's time " ..
  tostring(m:page(after).allocated_ns) .. ", its original's " .. t_before)
assert(split_order == 0 and split_ns == thp_ns, string.format("after the split: order %s, "
  .. "time %s (the THP's %s)", tostring(split_order), tostring(split_ns), tostring(thp_ns)))
local off = mmsim.machine{ sockets = 1, cpus_per_socket = 1, mem_per_node = "256M" }
local ok, err = pcall(off.page_owner_ages, off)
assert(not ok and err:find("made without page_owner = true"), tostring(err))
print(string.format("page_owner: unmovable 9 pages, p10 %.3f ms, p50 %.3f ms, mean %.3f ms",
  ages.p10_ns / 1e6, ages.p50_ns / 1e6, ages.mean_ns / 1e6))

