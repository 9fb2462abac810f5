-- The khugepaged thread of lua/mmsim/khugepaged.lua: a pass every
-- scan_sleep collapses a block that MADV_HUGEPAGE now allows.
local M = 2 << 20
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "1G", thp = "always" }
local q = m:process()
local c = q:mmap(2 * M)
assert(q:madvise(c, 2 * M, "nohugepage"))
assert(q:touch(c, 4096) == 1)
assert(q:madvise(c, 2 * M, "hugepage"))
local kh = require("mmsim.khugepaged").start(m, { until_ns = 25e6, scan_sleep = "10ms" })
m:run()
assert(kh.stats.passes == 2 and kh.stats.collapsed == 1, kh.stats.passes)
assert(q:stats().thp_pmd == 1 and q:stats().rss == 512)
assert(m:check_invariants())
print("thp_khugepaged: ok")
