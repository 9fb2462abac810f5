-- Mass exit on 8 CPUs: every page each process touched, and every page
-- table page, comes back when they all exit at once; while they live, the
-- vmstat worker decays their pagesets' high as decay_pcp_high does.
-- No boot reservations: the pageset sizes below are worked out from whole zones.
local m = mmsim.machine{ preset = "test-numa", policy = "pcp_buddy", boot_reserve = false }
local before = m:info()
local ex = require("mmsim.mass_exit").start(m, { cpus = { 0, 1, 2, 3, 4, 5, 6, 7 }, mib = 64,
  live = "5s" })
m:run()
local after = m:info()
assert(ex.stats.pages_touched == 8 * 64 * 256, "pages touched: " .. ex.stats.pages_touched)
-- Each 64 MiB process: 32 PTE tables, one PMD, one PUD and the PGD.
assert(ex.stats.pgtable_pages == 8 * 35, "page-table pages: " .. ex.stats.pgtable_pages)
assert(#ex.stats.exit_ns == 8)
-- What the kernel keeps after the exits is on the per-CPU lists.
assert(after.free_pages + after.pcp_pages == before.free_pages,
  string.format("%d free + %d on pcp lists, %d before", after.free_pages, after.pcp_pages,
    before.free_pages))
-- Every page the exit freed went to the zone buddy or stayed on a list.
local e = ex.stats.exit
assert(e.pages_freed == ex.stats.pages_touched + ex.stats.pgtable_pages)
assert(e.pages_to_buddy + e.pages_kept_on_pcp == e.pages_freed,
  string.format("%d to the buddy + %d kept, %d freed", e.pages_to_buddy, e.pages_kept_on_pcp,
    e.pages_freed))
assert(e.slowest_ns == math.max(table.unpack(ex.stats.exit_ns)) and e.median_ns <= e.slowest_ns)

-- decay_pcp_high, worked by hand for CPU 0's pageset of node 0's DMA32 zone
-- (zone 2 of m:pagesets; test-numa's node 0 is all below 4 GiB).  After the
-- touches: count 1662, high 20710, high_min 2629, batch 63.  A live of
-- 5 s runs from the last touch (at 13.5 ms) to the exit (5.0135 s), and the
-- vmstat worker passes once per second, at 1, 2, 3, 4 and 5 s: five
-- passes.  Each sets high = max(count - (batch << 5), high - (high >> 3),
-- high_min) = max(1662 - 2016, high - high / 8 rounded down, 2629):
--   20710 - 2588 = 18122
--   18122 - 2265 = 15857
--   15857 - 1982 = 13875
--   13875 - 1734 = 12141
--   12141 - 1517 = 10624
-- and frees nothing, count staying below high.
assert(ex.stats.exit_start_ns - ex.stats.touch_end_ns == 5e9)
assert(ex.stats.touch_end_ns < 1e9, "touches ended at " .. ex.stats.touch_end_ns)
local touched, lived = ex.stats.pagesets_touched[1][2], ex.stats.pagesets_before_exit[1][2]
assert(touched.zone == "DMA32" and touched.node == 0)
assert(touched.count == 1662 and touched.high == 20710 and touched.high_min == 2629
  and touched.batch == 63, string.format("after the touches: count %d, high %d, high_min %d, "
  .. "batch %d: work the passes above again", touched.count, touched.high, touched.high_min,
  touched.batch))
assert(lived.high == 10624 and lived.count == 1662,
  string.format("before the exit: high %d, count %d", lived.high, lived.count))

assert(not pcall(m.phase, m, "a,b"), "phase names go into a CSV file")
m:drain()
assert(m:info().free_pages == before.free_pages)
print(string.format("mass exit: %d pages and %d page tables freed, slowest exit %d ns, "
  .. "%d pages to the zone buddy", ex.stats.pages_touched, ex.stats.pgtable_pages, e.slowest_ns,
  e.pages_to_buddy))
