-- Mass exit on 8 CPUs: every page each process touched, and every page
-- table page, comes back when they all exit at once.
local m = mmsim.machine{ preset = "test-numa", policy = "pcp_buddy" }
local before = m:info()
local ex = require("mmsim.mass_exit").start(m, { cpus = { 0, 1, 2, 3, 4, 5, 6, 7 }, mib = 64 })
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
m:drain()
assert(m:info().free_pages == before.free_pages)
print(string.format("mass exit: %d pages and %d page tables freed, slowest exit %d ns",
  ex.stats.pages_touched, ex.stats.pgtable_pages, math.max(table.unpack(ex.stats.exit_ns))))
