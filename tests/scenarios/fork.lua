-- fork with copy-on-write (models/mm_space_fork.c): p:fork() shares the
-- parent's pages and THPs with the child, write-protected in both; a write
-- to a shared page copies it, a write to a page one process maps reuses it.
local K, M = 4096, 2 << 20

local function vmstat(m, name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end

-- Pages allocated and freed so far, all zones.
local function pgalloc(m)
  local n = 0
  for v in m:vmstat():gmatch("\npgalloc_%w+ (%d+)") do n = n + tonumber(v) end
  return n
end

local function check(m)
  assert(m:check_invariants())
end

local function machine(opts)
  local t = { sockets = 1, cpus_per_socket = 2, mem_per_node = "1G" }
  for k, v in pairs(opts or {}) do t[k] = v end
  return mmsim.machine(t)
end

-- Argument checks.
do
  local m = machine()
  local p = m:process()
  local ok, err = pcall(p.fork, p, 1)
  assert(not ok and err:find("fork: takes no arguments", 1, true), err)
  p:exit()
  ok, err = pcall(p.fork, p)
  assert(not ok and err:find("process has exited", 1, true), err)
end

-- fork, then the child writes one page: one page allocated, the parent's
-- page unchanged and still mapped; the rest stays shared.
do
  local m = machine()
  local p = m:process()
  local a = p:mmap(16 * K)
  assert(p:touch(a, 16 * K) == 16)
  local before = {}
  for i = 0, 15 do before[i] = p:follow_page(a + i * K) end
  local c = p:fork()
  local cs, ps = c:stats(), p:stats()
  assert(cs.pid ~= ps.pid and cs.threads == 1)
  assert(cs.rss == 16 and cs.Shared_Dirty == 64 and cs.Private_Dirty == 0, cs.Shared_Dirty)
  assert(ps.Shared_Dirty == 64 and ps.Anonymous == 64)
  for i = 0, 15 do assert(c:follow_page(a + i * K) == before[i]) end
  check(m)
  local alloc, faults = pgalloc(m), vmstat(m, "pgfault")
  assert(c:touch(a + 5 * K, K))
  assert(pgalloc(m) == alloc + 1, "COW allocated " .. pgalloc(m) - alloc)
  assert(vmstat(m, "pgfault") == faults + 1)
  local new = c:follow_page(a + 5 * K)
  assert(new ~= before[5] and p:follow_page(a + 5 * K) == before[5])
  assert(m:page(new).owner == m:page(before[0]).owner + 1)  -- the child's pid in the owner word
  cs, ps = c:stats(), p:stats()
  assert(cs.Shared_Dirty == 60 and cs.Private_Dirty == 4, cs.Shared_Dirty)
  assert(ps.Shared_Dirty == 60 and ps.Private_Dirty == 4)
  -- a second write to the copy needs no fault
  faults = vmstat(m, "pgfault")
  c:touch(a + 5 * K, K)
  assert(vmstat(m, "pgfault") == faults)
  -- the parent's page 5 is now its own: a write reuses it, nothing allocated
  alloc = pgalloc(m)
  p:touch(a + 5 * K, K)
  assert(pgalloc(m) == alloc and p:follow_page(a + 5 * K) == before[5])
  assert(vmstat(m, "pgfault") == faults + 1)
  check(m)
  -- the parent writes everything: 15 copies, the child keeps the originals
  p:touch(a, 16 * K)
  assert(pgalloc(m) == alloc + 15)
  for i = 0, 15 do
    if i ~= 5 then assert(c:follow_page(a + i * K) == before[i]) end
  end
  assert(p:stats().Shared_Dirty == 0 and c:stats().Shared_Dirty == 0)
  check(m)
  p:exit()
  c:exit()
  check(m)
end

-- The parent exits first: the child keeps the pages, nothing of them is
-- freed until the child exits; munmap and MADV_DONTNEED of shared pages
-- drop the mapping only.
do
  local m = machine()
  local p = m:process()
  local a = p:mmap(1 << 20)
  assert(p:touch(a, 1 << 20) == 256)
  local c = p:fork()
  local free0 = vmstat(m, "pgfree")
  assert(c:munmap(a, 16 * K))
  assert(c:madvise(a + 16 * K, 16 * K, "dontneed"))
  assert(p:follow_page(a) ~= nil and p:follow_page(a + 16 * K) ~= nil)
  check(m)
  local tables = p:stats().pgtable_pages
  p:exit()
  check(m)
  local freed = vmstat(m, "pgfree") - free0
  -- the 32 pages the child unmapped go with the parent, and its tables
  assert(freed == tables + 32, "freed " .. freed .. ", parent's tables " .. tables)
  assert(c:stats().rss == 256 - 32 and c:stats().Shared_Dirty == 0)
  -- exclusive now: writes reuse the pages
  local alloc = pgalloc(m)
  c:touch(a + 32 * K, (1 << 20) - 32 * K)
  assert(pgalloc(m) == alloc)
  check(m)
  free0 = vmstat(m, "pgfree")
  c:exit()
  assert(vmstat(m, "pgfree") - free0 >= 224)
  check(m)
end

-- A grandchild: three processes share a page; it is freed with the last.
do
  local m = machine()
  local p = m:process()
  local a = p:mmap(4 * K)
  p:touch(a, 4 * K)
  local c = p:fork()
  local g = c:fork()
  local pfn = p:follow_page(a)
  assert(c:follow_page(a) == pfn and g:follow_page(a) == pfn)
  check(m)
  c:exit()
  p:exit()
  check(m)
  assert(g:follow_page(a) == pfn and m:page(pfn).kind == "alloc")
  g:exit()
  assert(m:page(pfn).kind ~= "alloc")
  check(m)
end

-- Long-term pinned pages are copied at fork (page_needs_cow_for_dma).
do
  local m = machine({ pinned_share = 1 })
  local p = m:process()
  local a = p:mmap(16 * K)
  p:touch(a, 16 * K)
  assert(m:page(p:follow_page(a)).pinned)
  local alloc = pgalloc(m)
  local c = p:fork()
  for i = 0, 3 do
    assert(c:follow_page(a + i * K) ~= p:follow_page(a + i * K))
  end
  assert(c:stats().Shared_Dirty == 0)
  -- 4 copies, besides the child's page tables and kernel objects
  assert(pgalloc(m) - alloc >= 4)
  check(m)
  p:exit()
  c:exit()
  check(m)
end

-- 2 MiB THP: shared at PMD level by fork (the child's PMD mapping gets its
-- own deposit); a write to it splits the writer's PMD mapping and copies
-- 4 KiB, as do_huge_pmd_wp_page does; an exclusive THP is reused whole.
-- A process with one 2 MiB THP at a, and its child.
local function thp_fork()
  local m = machine({ thp = "always" })
  local p = m:process()
  local a = p:mmap(4 * M)
  a = (a + M - 1) & ~(M - 1)
  assert(p:touch(a, K) == 512)
  return m, p, a, p:fork()
end

do
  local m, p, a, c = thp_fork()
  local head = p:follow_page(a)
  assert(c:stats().AnonHugePages == 2048 and p:stats().AnonHugePages == 2048)
  assert(c:stats().Shared_Dirty == 2048)
  assert(c:follow_page(a + 7 * K) == head + 7)
  check(m)
  local split, alloc = vmstat(m, "thp_split_pmd"), pgalloc(m)
  assert(c:touch(a + 7 * K, K))
  assert(vmstat(m, "thp_split_pmd") == split + 1)
  assert(pgalloc(m) == alloc + 1, "allocated " .. pgalloc(m) - alloc)
  assert(c:stats().AnonHugePages == 0 and p:stats().AnonHugePages == 2048)
  assert(c:follow_page(a + 7 * K) ~= head + 7 and c:follow_page(a + 8 * K) == head + 8)
  assert(p:follow_page(a + 7 * K) == head + 7)
  assert(c:stats().rss == 512)
  check(m)
  -- the parent's write splits its mapping too
  p:touch(a, K)
  assert(vmstat(m, "thp_split_pmd") == split + 2)
  assert(p:stats().AnonHugePages == 0)
  check(m)
  -- the child exits: the folio is the parent's alone, now partly mapped
  local deferred = vmstat(m, "thp_deferred_split_page")
  c:exit()
  assert(vmstat(m, "thp_deferred_split_page") == deferred + 1)
  check(m)
  p:exit()
  check(m)
end
do
  local m, p, a, c = thp_fork()
  c:exit()
  local split, alloc = vmstat(m, "thp_split_pmd"), pgalloc(m)
  p:touch(a + 9 * K, K)
  assert(vmstat(m, "thp_split_pmd") == split and pgalloc(m) == alloc)
  assert(p:stats().AnonHugePages == 2048)
  check(m)
  p:exit()
  check(m)
end

-- Migration of a shared page (move_pages from the child, which the owner
-- records do not name) moves every mapping: both processes map the new
-- page, and the old one is freed.
do
  local m = machine({ sockets = 2, mem_per_node = "512M" })
  local p = m:process()
  local a = p:mmap(16 * K)
  p:touch(a, 16 * K)
  local c = p:fork()
  local old = p:follow_page(a)
  local node = m:page(old).node
  local r = c:move_pages(a, 16 * K, 1 - node)
  assert(r.moved == 16, r.moved)
  local new = c:follow_page(a)
  assert(new ~= old and p:follow_page(a) == new and m:page(new).node == 1 - node)
  assert(c:stats().Shared_Dirty == 64)
  check(m)
  -- still copy-on-write after the move
  c:touch(a, K)
  assert(c:follow_page(a) ~= new and p:follow_page(a) == new)
  check(m)
  p:exit()
  c:exit()
  check(m)
end

-- A server forks workers that share its memory; each writes an eighth of
-- it; all exit, the server last.  Pages: the server's 4096, one copy per
-- page written, all freed in the end.
do
  local m = machine()
  local s = m:process()
  local a = s:mmap(16 << 20)
  s:touch(a, 16 << 20)
  local alloc = pgalloc(m)
  local workers = {}
  for w = 1, 8 do
    workers[w] = s:fork()
    workers[w]:touch(a + (w - 1) * (2 << 20), 2 << 20)
    assert(workers[w]:stats().Private_Dirty == 2048)
  end
  -- 8 x 512 copies, besides the workers' page tables
  local tables = 0
  for w = 1, 8 do tables = tables + workers[w]:stats().pgtable_pages end
  assert(pgalloc(m) - alloc - tables == 8 * 512, pgalloc(m) - alloc - tables)
  check(m)
  local free0 = vmstat(m, "pgfree")
  for w = 1, 8 do workers[w]:exit() end
  -- only the copies and the workers' tables went
  assert(vmstat(m, "pgfree") - free0 == 8 * 512 + tables, vmstat(m, "pgfree") - free0)
  assert(s:stats().Shared_Dirty == 0 and s:stats().rss == 4096)
  check(m)
  s:exit()
  check(m)
end

-- khugepaged leaves a block with more than max_ptes_shared (256) pages
-- shared with another process; once the child is gone it collapses it.
-- MADV_COLLAPSE has no such limit: it copies the shared pages, and the
-- child keeps its own.
do
  local m = machine({ thp = "madvise" })
  local p = m:process()
  local a = p:mmap(4 * M)
  a = (a + M - 1) & ~(M - 1)
  assert(p:touch(a, M) == 512)
  assert(p:madvise(a, M, "hugepage"))
  local c = p:fork()
  local pfn = c:follow_page(a)
  local r = m:khugepaged_scan()
  assert(r.collapsed == 0 and p:stats().AnonHugePages == 0 and c:stats().AnonHugePages == 0)
  assert(p:madvise(a, M, "collapse"))
  assert(p:stats().AnonHugePages == 2048 and p:follow_page(a) ~= pfn)
  assert(c:follow_page(a) == pfn and c:stats().Shared_Dirty == 0 and c:stats().rss == 512)
  check(m)
  p:exit()
  check(m)
  -- the child's block is its own now; its VMA kept the parent's advice
  r = m:khugepaged_scan()
  assert(r.collapsed == 1 and c:stats().AnonHugePages == 2048, r.collapsed)
  check(m)
  c:exit()
  check(m)
end

-- Under the engine: three threads of a process touch, MADV_DONTNEED and
-- MADV_FREE its THP-backed regions (some pages pinned) while a fourth
-- forks it 20 times, each child writing into the shared memory and the
-- oldest exiting; every page comes back at the end.
do
  local m = machine({ sockets = 2, mem_per_node = "256M", thp = "always", pinned_share = 0.05 })
  local function used()
    local i = m:info()
    return -(i.free_pages + i.pcp_pages)
  end
  local used0 = used()
  local p = m:process()
  local regions = {}
  for i = 1, 8 do regions[i] = p:mmap(2 * M) end
  math.randomseed(3)
  for cpu = 0, 2 do
    m:spawn{ cpu = cpu, fn = function()
      for _ = 1, 200 do
        local r, off = regions[math.random(8)], math.random(0, 511) * K
        local op, len = math.random(4), math.random(1, 64) * K
        if op <= 2 then
          pcall(p.touch, p, r + off, math.min(len * 8, 2 * M - off))
        else
          p:madvise(r + off, len, op == 3 and "dontneed" or "free")
        end
        mmsim.work("20us")
      end
    end }
  end
  local children, forks, copies = {}, 0, 0
  m:spawn{ cpu = 3, fn = function()
    for _ = 1, 20 do
      local c = assert(p:fork())
      forks = forks + 1
      for _ = 1, 5 do
        local at = regions[math.random(8)] + math.random(0, 411) * K
        local before = c:follow_page(at)
        c:touch(at, 100 * K)
        if before and c:follow_page(at) ~= before then copies = copies + 1 end
      end
      children[#children + 1] = c
      if #children > 3 then table.remove(children, 1):exit() end
      mmsim.work("100us")
    end
  end }
  m:run()
  assert(forks == 20 and copies > 0, copies)
  assert(vmstat(m, "thp_split_pmd") > 0)
  check(m)
  for _, c in ipairs(children) do c:exit() end
  check(m)
  p:exit()
  check(m)
  m:drain()
  assert(used() == used0, used() - used0)
end
