-- The page cache and kswapd: reading 1.5 times the memory of the 8 GiB test
-- machine never fails; kswapd keeps every zone near its watermarks and the
-- oldest file pages go first.
local m = mmsim.machine{ preset = "test" }
local managed = m:info().managed_pages
local pc = require("mmsim.page_cache").start(m, {
  cpus = { 0, 1, 2, 3 }, rate_mib_s = 40000, file_mib = 1024, until_ns = mmsim.time("400ms") })
m:run()
local info = m:info()
assert(pc.stats.failed == 0, "reads failed: " .. pc.stats.failed)
assert(pc.stats.pages_read > managed * 1.5 // 1, "read " .. pc.stats.pages_read)
assert(info.file_pages < pc.stats.pages_read, "nothing was reclaimed")
assert(info.file_pages > managed * 0.8, "cache holds " .. info.file_pages)
-- kswapd stops at the high watermark: free memory ends between min and a
-- few times high.
local free, high = 0, 0
for _, z in ipairs(m:zones()) do
  free = free + z.free
  high = high + z.high
end
assert(free >= high // 2 and free < 8 * high, "free " .. free .. ", high " .. high)
local vm = {}
for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
assert(vm.pgsteal_kswapd > 0 and
  vm.pgsteal_kswapd + vm.pgsteal_direct + info.file_pages == pc.stats.pages_read,
  string.format("pgsteal_kswapd %s + file pages %d < read %d", tostring(vm.pgsteal_kswapd), info.file_pages, pc.stats.pages_read))
m:check_invariants()
print(string.format("ok: page cache: %d pages read, %d cached, %d reclaimed by kswapd, %d directly",
  pc.stats.pages_read, info.file_pages, vm.pgsteal_kswapd, vm.pgsteal_direct))
