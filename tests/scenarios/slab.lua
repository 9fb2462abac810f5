-- The slab model from Lua: kmalloc picks the kmalloc-<n> cache, objects
-- free once, slab pages are not m:free's; then kernel_slab, the page cache
-- and process churn on a small machine under reclaim: processes' objects
-- come and go with them, /proc/slabinfo
-- matches m:slab_caches(), and every object is accounted (the invariant
-- checker runs the slab checker).
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "1G" }
m:kmem_cache_init()
local a = assert(m:kmalloc(100))
local c = m:slab_caches()
assert(c["kmalloc-128"].active_objs == 1 and c["kmalloc-96"].active_objs == 0)
assert(c["dentry"].reclaimable and not c["kmalloc-128"].reclaimable)
m:kmem_cache_free(a)
assert(not pcall(m.kmem_cache_free, m, a), "a second free must fail")
assert(not pcall(m.kmalloc, m, 8193), "kmalloc above 8 KiB must fail")
local b = assert(m:kmem_cache_alloc("task_struct"))
local ok, err = pcall(m.free, m, m:virt_to_page(b))
assert(not ok and err:find("a slab page"), err)
m:kmem_cache_free(b)
-- Page fragments: each has its own handle, freed once; a second free of one
-- is an error and leaves the fragment that shares its block alive.
local f1, f2 = assert(m:page_frag_alloc(1500)), assert(m:page_frag_alloc(1500))
assert(f2 == f1 + 1500, "fragments " .. f1 .. ", " .. f2)
assert(m:slab_stats().frags == 2)
m:page_frag_free(f1)
local ok2, err2 = pcall(m.page_frag_free, m, f1)
assert(not ok2 and err2:find("no live fragment"), err2)
assert(m:slab_stats().frags == 1)
m:page_frag_free(f2)
assert(m:slab_stats().frags == 0 and not pcall(m.page_frag_free, m, f2))
-- A process holds 24 VMAs, a task_struct and the rest while it lives.
local p = m:process()
assert(m:slab_caches()["vm_area_struct"].active_objs == 24)
assert(m:slab_caches()["task_struct"].active_objs == 1)
-- Each thread has its task_struct and a 16 KiB stack (VMAP_STACK: a vmap_area).
local t1, t2 = p:clone(), p:clone()
assert(t1 == 1 and t2 == 2 and p:stats().threads == 3)
local st0 = m:slab_stats()
assert(st0.stacks == 3 and st0.stacks_allocated == 3, st0.stacks)
assert(m:slab_caches()["task_struct"].active_objs == 3)
assert(m:slab_caches()["vmap_area"].active_objs == 3)
p:exit_thread(t1)
assert(not pcall(p.exit_thread, p, t1), "a thread exits once")
assert(m:slab_stats().stacks == 2 and m:slab_caches()["task_struct"].active_objs == 2)
p:exit()
assert(m:slab_caches()["vm_area_struct"].active_objs == 0)
assert(m:slab_caches()["task_struct"].active_objs == 0)
assert(m:slab_stats().stacks == 0 and m:slab_stats().stacks_freed == 3)
local q = m:process()
assert(not pcall(q.exit_thread, q, 0), "a process's first thread cannot exit_thread")
q:exit()
-- Without VMAP_STACK, a stack is one order-2 block and no vmap_area.
local nv = mmsim.machine{ preset = "test", vmap_stack = false }
nv:kmem_cache_init()
local np = nv:process()
assert(nv:slab_caches()["vmap_area"].active_objs == 0 and nv:slab_stats().stacks == 1)
np:exit()
nv:check_invariants()

local stop = mmsim.time("30ms")
local ks = require("mmsim.kernel_slab").start(m, { cpus = { 1 }, rate = 2000,
  mix = { kmalloc = 0.3, file = 0.5, packet = 0.2 }, until_ns = stop })
require("mmsim.page_cache").start(m, { cpus = { 0 }, rate_mib_s = 100000, file_mib = 16,
  until_ns = stop })
-- kernel_noise's mix on CPU 3: slab objects, packets, threads' stacks and
-- page tables of its daemon.
local noise = require("mmsim.kernel_noise").start(m, { cpus = { 3 }, rate = 500,
  lifetime = "1ms", until_ns = stop })
local exits = 0
m:spawn{ cpu = 2, name = "procs", fn = function()
  while mmsim.now() < stop do
    local q = m:process()
    if q then
      mmsim.sleep("200us")
      q:exit()
      exits = exits + 1
    end
  end
end }
m:run()
local st = m:slab_stats()
local info = m:info()
assert(info.file_pages > 0 and exits > 10, "the load did not run")
-- No dentry check: this run's reclaim balances its nodes at high priorities,
-- where do_shrink_slab asks a cache of some 20,000 dentries for fewer than a
-- batch (SHRINK_BATCH) a pass, so it may keep them all (tests/unit/test_slub.c
-- works the rule; drop_slab.lua empties the cache).
-- Every process exited but the noise's daemon: its threads are the tasks left.
assert(m:slab_caches()["task_struct"].active_objs == st.stacks
  and m:slab_caches()["mm_struct"].active_objs == 1, "every process exited")
assert(ks.stats.allocated > 1000 and ks.stats.packets > 100
  and ks.stats.failed < ks.stats.allocated // 100,
  string.format("%d allocated, %d packets, %d failed", ks.stats.allocated, ks.stats.packets,
    ks.stats.failed))
-- /proc/slabinfo and m:slab_caches() agree, line by line.
local caches, lines = m:slab_caches(), 0
for name, active, num, size in m:slabinfo():gmatch("\n(%S+)%s+(%d+)%s+(%d+)%s+(%d+)") do
  local e = assert(caches[name], name)
  assert(e.active_objs == tonumber(active) and e.num_objs == tonumber(num)
    and e.objsize == tonumber(size), name)
  assert(e.allocs - e.frees == e.active_objs, name)
  lines = lines + 1
end
assert(lines == 29, lines)
local ns = noise.stats
assert(ns.threads > 100 and ns.pgtables > 100 and ns.packets > 100 and ns.failed == 0,
  string.format("noise: %d threads, %d mappings, %d packets, %d failed", ns.threads,
    ns.pgtables, ns.packets, ns.failed))
-- The daemon's threads still alive: all but the first are the noise's.
assert(st.stacks >= 1 and st.stacks < ns.threads // 2)
-- Stacks and network fragments add up too.
assert(st.stacks_allocated == st.stacks + st.stacks_freed and st.stacks_freed > 10)
assert(st.frags_allocated == st.frags + st.frags_freed and st.frags_freed > 100)
m:check_invariants()

-- kernel_slab's threads (in C) stop at stop(): the events drawn then are all
-- there are, and its frees due before the stop are made.
local later = require("mmsim.kernel_slab").start(m, { cpus = { 1 }, rate = 1000,
  lifetime = { kmalloc = "100us", packet = "100us" },
  until_ns = stop + mmsim.time("50ms") })
local at_stop
m:spawn{ cpu = 2, name = "stopper", fn = function()
  mmsim.sleep("2ms")
  later.stop()
  at_stop = later.stats.allocated + later.stats.failed
end }
m:run()
assert(at_stop and at_stop > 500, "kernel_slab drew too few events: " .. tostring(at_stop))
assert(later.stats.allocated + later.stats.failed <= at_stop + 2 and later.stats.freed > 0,
  string.format("%d events, %d at the stop, %d freed", later.stats.allocated
    + later.stats.failed, at_stop, later.stats.freed))
-- Lifetimes are means: a function (the Lua loop's form) is refused.
assert(not pcall(require("mmsim.kernel_slab").start, m,
  { lifetime = { kmalloc = function() return 1 end } }))
m:check_invariants()
