-- short_lived cases whose figures tests/scenarios/short_lived_c.sh pins
-- (-D case=): "plain" two CPUs of 16 MiB processes, aging.lua's; "slab"
-- three CPUs of smaller, quicker ones beside kernel_slab (the slab model
-- on: each process's kernel objects too).
local p = mmsim.params{ case = "plain" }
local m = mmsim.machine{ preset = "test" }
local plain = p.case == "plain"
assert(plain or p.case == "slab", "no such case")
local stop = mmsim.time(plain and "20ms" or "12ms")
if not plain then
  m:kmem_cache_init()
  require("mmsim.kernel_slab").start(m, { cpus = { 0 }, rate = 300, until_ns = stop })
end
local sl = require("mmsim.short_lived").start(m, { cpus = plain and { 0, 1 } or { 1, 2, 3 },
  size = plain and "16M" or "4M", life = plain and "200us" or "50us",
  gap = plain and "500us" or "100us", until_ns = stop })
m:run()
local i, l = m:info(), m:lock_stats()
print(string.format("%s processes=%d free_pages=%d zone_acq=%d zone_con=%d ptl_acq=%d time=%d",
  p.case, sl.stats.processes, i.free_pages, l.zone.acquisitions, l.zone.contentions,
  l.ptl.acquisitions, l.time_ns))
