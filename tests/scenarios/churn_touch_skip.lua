-- The jemalloc churn allocates from its dirty runs without touching them
-- while nothing but its own purges changed its process's pages (an
-- mmu_notifier, sim/workload_jemalloc.c).  A change from outside between
-- two runs must make it touch them again: after a zap its next objects
-- fault their pages back, after MADV_FREE make them dirty again, after a
-- fork copy them.  Objects are about 120 KiB, a few us apart: each run
-- below replaces the threads' live objects many times over.
local m = mmsim.machine{ preset = "test" }
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1 }, live_mib = 8,
  decay = "1s", work = "2us", until_ns = 40e6 })
local p = jc.process
local live = 2 * 8 * 1024 * 1024 // 4096
-- Every mapping of the process (the unmapped rest fails, untouched).
local function everything(advice) p:madvise(0x10000, (1 << 47) - 0x20000, advice) end

m:run{ ["until"] = 10e6 }
everything("dontneed")
assert(p:stats().rss == 0)
m:run{ ["until"] = 20e6 }
local s = p:stats()
assert(s.rss >= live, "after a zap: " .. s.rss .. " pages resident, live objects " .. live)

everything("free")
local lazy = p:stats().lazyfree_pages
assert(lazy >= live)
m:run{ ["until"] = 30e6 }
s = p:stats()
assert(lazy - s.lazyfree_pages >= live,
  "after MADV_FREE: " .. lazy .. " lazy-free pages, " .. s.lazyfree_pages .. " still")

local child = assert(p:fork())
local shared = p:stats().Shared_Dirty // 4
assert(shared >= live)
m:run()
s = p:stats()
assert(shared - s.Shared_Dirty // 4 >= live,
  "after a fork: " .. shared .. " pages shared, " .. s.Shared_Dirty // 4 .. " still")
child:exit()
m:check_invariants()
