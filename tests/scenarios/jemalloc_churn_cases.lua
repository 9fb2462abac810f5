-- jemalloc churn cases whose figures tests/scenarios/jemalloc_churn_c.sh
-- pins (-D case=numa|single|tight): six threads with remote frees and
-- kernel noise on two nodes; one thread with its own size mix; two threads
-- on 128 MiB, whose objects stop fitting (failed touches, direct reclaim).
local p = mmsim.params{ case = "numa" }
local cases = {
  numa = { { preset = "test-numa" },
    { cpus = { 0, 1, 2, 4, 5, 6 }, live_mib = 16, decay = "2ms", work = "5us", until_ns = 10e6 },
    { mode = "pages", cpus = { 3, 7 }, rate = 200, until_ns = 10e6 } },
  single = { { preset = "test", policy = "pcp_buddy" },
    { cpus = { 2 }, sizes = { { size = "8K", weight = 3 }, { size = "100K", weight = 1 },
      { size = "3M", weight = 1 } },
      live_mib = 24, remote_share = 0.5, decay = "1ms", work = "3us", until_ns = 8e6 } },
  tight = { { sockets = 1, cpus_per_socket = 2, mem_per_node = "128M" },
    { cpus = { 0, 1 }, live_mib = 100, remote_share = 0.1, decay = "500us", work = "2us",
      until_ns = 20e6 } },
}
local c = assert(cases[p.case], "no such case")
local m = mmsim.machine(c[1])
local jc = require("mmsim.jemalloc_churn").start(m, c[2])
if c[3] then require("mmsim.kernel_noise").start(m, c[3]) end
m:run()
local s, i, l = jc.stats, m:info(), m:lock_stats()
local fields = 0
for k, v in pairs(s) do
  assert(s[k] == v and math.type(v) == "integer", k)
  fields = fields + 1
end
assert(fields == 8, "stats has " .. fields .. " fields")
print(string.format("%s objects=%d remote_frees=%d purged_pages=%d extents=%d failed=%d "
  .. "rss_pages=%d free_pages=%d pcp_pages=%d zone_acq=%d zone_con=%d time=%d",
  p.case, s.objects, s.remote_frees, s.purged_pages, s.extents, s.failed, s.rss_pages,
  i.free_pages, i.pcp_pages, l.zone.acquisitions, l.zone.contentions, l.time_ns))
