-- Gigantic pages: how many 1 GiB pages a machine still gives after aging.
--
-- The machine ages as scenarios/aging.lua's does, with the same workloads
-- (a reader streaming files into the page cache, slab-like kernel noise
-- with some objects kept for good, a jemalloc application churning on the
-- other CPUs); then the workloads stop and a thread asks for 1 GiB hugetlb
-- pages one after the other (m:alloc_gigantic: alloc_contig_pages, with
-- the superpageblock shortcuts under spb), node by node, until none is
-- left, holding them. timeseries.csv's gigantic_pages column counts them
-- over time; results.* give the count, the pages migrated and the time it
-- took; they are all given back at the end. The run is phase aging, then
-- allocation (phases.csv; summary.json's phases.*).
--
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' scenarios/gigantic.lua
--
-- draws one line per policy of the 1 GiB pages obtained over time
-- (sweep-gigantic_pages.png). With -D gb_yield_attempt=true the run also
-- measures gb_yield.obtained after giving them back.
-- sweep-timeseries: gigantic_pages 1 GiB pages obtained (count)
-- sweep-plot: y=results.obtained
-- sweep-label: results.obtained 1 GiB pages obtained (count)
-- sweep-label: results.migrated pages migrated to obtain them (count)
-- sweep-label: results.alloc_ms time to obtain them (ms)
-- plots: gb_yield, memory_map, spb_map
local p = mmsim.params{
  policy = "upstream",
  sockets = 1,
  cpus_per_socket = 8,
  mem_per_node = "8G",
  duration = "40ms",    -- aging
  read_mib_s = 50000,   -- page cache read rate
  noise_rate = 400,     -- kernel allocations per ms
  churn_mib = 64,       -- jemalloc live set per thread
  gb_yield_attempt = false,
  time_scale = 1000,    -- aging_roles' rates are about 1000 times a real machine's
}
local m = mmsim.machine{
  sockets = p.sockets, cpus_per_socket = p.cpus_per_socket, mem_per_node = p.mem_per_node,
  policy = p.policy, sample_interval = "1ms", gb_yield_attempt = p.gb_yield_attempt,
  time_scale = p.time_scale,
}
local info = m:info()
local stop = mmsim.time(p.duration)
-- The aging's rates (aging_roles) are far above a real machine's.
mmsim.time_compressed(true)
require("mmsim.aging_roles").start(m, p, stop)
m:phase("aging")

local got = { pages = {}, migrated = 0, start = 0, done = 0 }
m:spawn{ cpu = 0, name = "hugetlb", fn = function()
  mmsim.sleep(stop - mmsim.now())
  -- What the policies hold when they are asked (results.end_memory.*).
  require("mmsim.kernel_report").memory(m)
  m:phase("allocation")
  got.start = mmsim.now()
  for node = 0, info.nodes - 1 do
    while true do
      local pfn, st = m:alloc_gigantic{ node = node }
      if not pfn then break end
      got.pages[#got.pages + 1] = pfn
      got.migrated = got.migrated + st.migrated
    end
  end
  got.done = mmsim.now()
  -- Held for a moment, so that the last sample shows them all.
  mmsim.sleep("2ms")
  for _, pfn in ipairs(got.pages) do m:free_gigantic(pfn) end
end }
m:run{ expected_end = stop }

local y = m:gb_yield()
mmsim.result("possible", y.possible)
mmsim.result("obtained", #got.pages)
mmsim.result("migrated", got.migrated)
mmsim.result("alloc_ms", (got.done - got.start) / 1e6)
print(string.format("gigantic, %s, aged %s: %d 1 GiB pages obtained of %d possible, "
  .. "%d pages migrated, %.1f ms", p.policy, p.duration, #got.pages, y.possible,
  got.migrated, (got.done - got.start) / 1e6))
