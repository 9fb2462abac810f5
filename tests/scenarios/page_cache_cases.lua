-- page_cache cases whose figures tests/scenarios/page_cache_c.sh pins
-- (-D case=): "fill" reads more than the test machine's memory on four
-- CPUs (kswapd and direct reclaim), "numa" two slower readers on two nodes
-- moving through small files.
local p = mmsim.params{ case = "fill" }
local cases = {
  fill = { { preset = "test" },
    { cpus = { 0, 1, 2, 3 }, rate_mib_s = 40000, file_mib = 512, until_ns = 250e6 } },
  numa = { { preset = "test-numa" },
    { cpus = { 1, 6 }, rate_mib_s = 700, file_mib = 3, until_ns = 30e6 } },
}
local c = assert(cases[p.case], "no such case")
local m = mmsim.machine(c[1])
local pc = require("mmsim.page_cache").start(m, c[2])
m:run()
local s, i, l = pc.stats, m:info(), m:lock_stats()
print(string.format("%s pages_read=%d files=%d failed=%d file_pages=%d free_pages=%d "
  .. "zone_acq=%d zone_con=%d lru_acq=%d time=%d", p.case, s.pages_read, s.files, s.failed,
  i.file_pages, i.free_pages, l.zone.acquisitions, l.zone.contentions, l.lru.acquisitions,
  l.time_ns))
