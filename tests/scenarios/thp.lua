-- Transparent huge pages (models/huge_memory.c): the cases of the 1 GiB THP
-- selftest (seed 007, tools/testing/selftests/mm/pud_thp_test.c) and the
-- 2 MiB ones, on a machine that has THP faults turned on.
local function vmstat(m, name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end

local function check(m)
  assert(m:check_invariants())
end

-- Pages in use: neither free nor on a per-CPU list.
local function used(m)
  local i = m:info()
  return -(i.free_pages + i.pcp_pages)
end

local G, M = 1 << 30, 2 << 20

-- The knobs refuse values outside their lists and name the valid ones.
local ok, err = pcall(mmsim.machine, { sockets = 1, cpus_per_socket = 2, mem_per_node = "1G",
  thp = "sometimes" })
assert(not ok and err:find('"never", "madvise", "always"', 1, true), err)
ok, err = pcall(mmsim.machine, { sockets = 1, cpus_per_socket = 2, mem_per_node = "1G",
  thp_deposit = "some" })
assert(not ok and err:find('"full", "pmd_only", "none"', 1, true), err)
ok, err = pcall(mmsim.machine, { sockets = 1, cpus_per_socket = 2, mem_per_node = "1G",
  thp = { ["4096kB"] = "always" } })
assert(not ok and err:find("2048kB", 1, true), err)

local function machine(opts)
  local t = { sockets = 1, cpus_per_socket = 2, mem_per_node = "8G",
    thp = { ["2048kB"] = "always", ["1048576kB"] = "always" } }
  for k, v in pairs(opts or {}) do t[k] = v end
  return mmsim.machine(t)
end

-- setup of the selftest: map 2 GiB, align to 1 GiB.
local function pud_region(p)
  local addr = p:mmap(2 * G)
  return (addr + G - 1) & ~(G - 1)
end

-- pud_thp.allocation: first touch of an aligned 1 GiB region maps one
-- 1 GiB THP; the whole gigabyte is then present.
do
  local m = machine()
  local p = m:process()
  local a = pud_region(p)
  local alloc = vmstat(m, "thp_fault_alloc")
  assert(p:touch(a, 4096) == 262144)
  local s = p:stats()
  assert(s.AnonHugePages == 1048576 and s.thp_pud == 1, "AnonHugePages " .. s.AnonHugePages)
  assert(vmstat(m, "thp_fault_alloc") == alloc + 1)
  assert(vmstat(m, "nr_anon_transparent_hugepages") == 512)
  -- the rest of the gigabyte needs no fault
  assert(p:touch(a, G) == 0)
  assert(p:follow_page(a + G - 4096) == p:follow_page(a) + 262143)
  -- full deposit: one PMD table and 512 PTE tables besides the upper ones
  assert(s.pgtable_pages >= 513 + 2, "page tables " .. s.pgtable_pages)
  check(m)
  p:exit()
  check(m)
end

-- pud_thp.partial_munmap: unmapping 2 MiB of it splits it; the rest stays mapped.
do
  local m = machine()
  local p = m:process()
  local a = pud_region(p)
  p:touch(a, 4096)
  local split = vmstat(m, "thp_split_pud")
  assert(p:munmap(a + M, M))
  assert(vmstat(m, "thp_split_pud") == split + 1)
  assert(p:follow_page(a + M) == nil)
  assert(p:follow_page(a) ~= nil and p:follow_page(a + 2 * M) ~= nil)
  assert(p:stats().rss == 262144 - 512)
  -- the folio waits on the deferred split queue
  assert(vmstat(m, "thp_deferred_split_page") == 1)
  check(m)
  p:exit()
  check(m)
end

-- pud_thp.mprotect_split: mprotect of 2 MiB inside it splits it, and the
-- memory stays readable.
for _, mode in ipairs({ "pte", "pmd" }) do
  local m = machine{ pud_split = mode }
  local p = m:process()
  local a = pud_region(p)
  p:touch(a, G)
  local first = p:follow_page(a)
  local split = vmstat(m, "thp_split_pud")
  assert(p:mprotect(a + M, M, "r"))
  assert(vmstat(m, "thp_split_pud") == split + 1)
  assert(p:follow_page(a) == first and p:follow_page(a + M) == first + 512)
  local s = p:stats()
  if mode == "pte" then
    assert(s.AnonHugePages == 0 and s.thp_pud == 0, "pte split leaves no huge mapping")
  else
    -- 512 PMD mappings; the two edges at 2 MiB boundaries split none further
    assert(s.thp_pmd == 512 and s.thp_pud == 0, "pmd split: " .. s.thp_pmd)
  end
  check(m)
  p:exit()
  check(m)
end

-- pud_thp.fork_cow ("fork and write COW-copies"): fork shares the 1 GiB
-- THP at PUD level (the child's mapping gets its own deposit); a write in
-- the child splits its PUD mapping (per pud_split: to PTEs, or to PMDs
-- and the written 2 MiB further) and copies the one 4 KiB page, as the
-- kernel's wp_huge_pud and do_huge_pmd_wp_page split and fall back; the
-- parent keeps the whole THP.  Once the child is gone, the parent's write
-- reuses the THP: no split, no copy.
for _, mode in ipairs({ "pte", "pmd" }) do
  local m = machine{ pud_split = mode }
  local p = m:process()
  local a = pud_region(p)
  p:touch(a, 4096)
  local first = p:follow_page(a)
  local c = p:fork()
  assert(c:stats().AnonHugePages == 1048576 and c:stats().thp_pud == 1)
  assert(c:follow_page(a + G - 4096) == first + 262143)
  -- full deposit in the child too: a PMD table and 512 PTE tables
  assert(c:stats().pgtable_pages >= 513 + 2, c:stats().pgtable_pages)
  check(m)
  local pud, pmd = vmstat(m, "thp_split_pud"), vmstat(m, "thp_split_pmd")
  local alloc = used(m)
  assert(c:touch(a + 3 * M + 4096, 4096))
  assert(vmstat(m, "thp_split_pud") == pud + 1)
  assert(c:follow_page(a + 3 * M + 4096) ~= first + 1537)
  assert(p:follow_page(a + 3 * M + 4096) == first + 1537)
  assert(c:follow_page(a) == first and c:stats().rss == 262144)
  assert(p:stats().AnonHugePages == 1048576)
  if mode == "pte" then
    assert(c:stats().AnonHugePages == 0 and vmstat(m, "thp_split_pmd") == pmd)
  else
    assert(c:stats().AnonHugePages == 1048576 - 2048 and vmstat(m, "thp_split_pmd") == pmd + 1)
  end
  -- one 4 KiB page taken for the copy (the split used the deposit)
  assert(used(m) == alloc + 1, used(m) - alloc)
  check(m)
  c:exit()
  check(m)
  pud = vmstat(m, "thp_split_pud")
  alloc = used(m)
  p:touch(a + 5 * M, 4096)
  assert(vmstat(m, "thp_split_pud") == pud and used(m) == alloc)
  assert(p:stats().AnonHugePages == 1048576)
  p:exit()
  check(m)
end

-- The same under the RFC's smaller deposits: the child's copy takes what
-- the knob says (none: its PGD and PUD table; pmd_only: and a PMD table),
-- and the write's split allocates the tables no deposit holds (513 or 512)
-- besides the page copied.
for dep, tables in pairs({ none = 0, pmd_only = 1 }) do
  local m = machine{ thp_deposit = dep }
  local p = m:process()
  local a = pud_region(p)
  p:touch(a, 4096)
  local u = used(m)
  local c = p:fork()
  assert(used(m) - u == 2 + tables and c:stats().pgtable_pages == 2 + tables, used(m) - u)
  u = used(m)
  c:touch(a + 3 * M + 4096, 4096)
  assert(used(m) - u == 1 + 513 - tables, used(m) - u)
  assert(p:stats().AnonHugePages == 1048576 and c:stats().AnonHugePages == 0)
  check(m)
  c:exit()
  p:exit()
  check(m)
end

-- 2 MiB THPs: 4 MiB at a 2 MiB boundary get two.
do
  local m = machine{ thp = "always" }
  local p = m:process()
  local a = p:mmap(8 * M)
  local h = (a + M - 1) & ~(M - 1)
  assert(p:touch(h, 2 * M) == 1024)
  assert(p:stats().thp_pmd == 2 and p:stats().AnonHugePages == 4096)
  -- MADV_DONTNEED of one half of the first splits it (the deposit is used)
  local split = vmstat(m, "thp_split_pmd")
  assert(p:madvise(h, M // 2, "dontneed"))
  assert(vmstat(m, "thp_split_pmd") == split + 1)
  assert(p:stats().rss == 1024 - 256 and p:stats().thp_pmd == 1)
  check(m)
  p:exit()
  check(m)
end

-- Under "always", a length that is a multiple of 2 MiB is placed 2 MiB
-- aligned, as thp_get_unmapped_area does.
do
  local m = machine{ thp = "always" }
  local p = m:process()
  assert(p:mmap(8192))
  local b = p:mmap(6 * M)
  assert(b % M == 0, string.format("%x", b))
  assert(p:touch(b, 6 * M) == 6 * 512 and p:stats().thp_pmd == 6)
  check(m)
end

-- jemalloc_churn under "always": its 2 MiB-multiple extents get THPs, and
-- its purges (MADV_DONTNEED of runs) split them.
do
  local m = machine{ thp = "always", sockets = 1, cpus_per_socket = 2, mem_per_node = "4G" }
  local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1 }, live_mib = 16,
    decay = "1ms", until_ns = 20e6 })
  m:run()
  assert(jc.stats.purged_pages > 0)
  assert(vmstat(m, "thp_fault_alloc") > 0 and vmstat(m, "thp_split_pmd") > 0,
    m:transparent_hugepage())
  assert(vmstat(m, "thp_deferred_split_page") > 0)
  check(m)
end

-- khugepaged (2 MiB only): a pass collapses 4 KiB pages faulted while
-- MADV_NOHUGEPAGE held, once MADV_HUGEPAGE allows it; max_ptes_none bounds
-- the empty entries a block may have; a split THP's pages are left.
do
  local m = machine{ thp = "always" }
  local p = m:process()
  local a = p:mmap(4 * M)
  assert(p:touch(a, 4096) == 512)            -- a THP at a
  assert(p:madvise(a, M // 2, "dontneed"))   -- its first half unmapped: split, 256 left
  local r = m:khugepaged_scan()
  -- a call from the head of the process list makes one pass
  -- (pass_through_head): its four blocks, 2048 pages' worth
  assert(r.collapsed == 0 and r.scanned == 2048, "scanned " .. r.scanned)
  local q = m:process()
  local c = q:mmap(4 * M)
  assert(q:madvise(c, 4 * M, "nohugepage"))
  assert(q:touch(c, 64 * 4096) == 64)
  assert(q:madvise(c, 4 * M, "hugepage"))
  r = m:khugepaged_scan{ max_ptes_none = 447 }
  assert(r.collapsed == 0, "448 empty entries are more than 447")
  local collapsed = vmstat(m, "thp_collapse_alloc")
  r = m:khugepaged_scan()
  assert(r.collapsed == 1 and vmstat(m, "thp_collapse_alloc") == collapsed + 1)
  assert(q:stats().thp_pmd == 1 and q:stats().rss == 512)
  check(m)
end

-- Memory pressure: direct reclaim runs the deferred split shrinker, which
-- splits a partly unmapped 1 GiB THP (pud_split pmd: into 2 MiB THPs, the
-- unmapped one freed) on spb, whose superpageblock was marked taken whole.
do
  local m = machine{ policy = "spb", pud_split = "pmd" }
  local p = m:process()
  local a = pud_region(p)
  assert(p:touch(a, 4096) == 262144)
  assert(p:munmap(a + 3 * M, M))
  assert(vmstat(m, "thp_deferred_split_page") == 1 and vmstat(m, "thp_split_page") == 0)
  local taken = {}
  while true do
    local pfn = m:alloc{ order = 0, type = "movable" }
    if not pfn then break end
    taken[#taken + 1] = pfn
  end
  assert(vmstat(m, "thp_split_page") == 1)
  assert(m:transparent_hugepage():find("hugepages-2048kB/stats/nr_anon 511\n", 1, true))
  assert(p:stats().thp_pmd == 511 and p:stats().rss == 262144 - 512)
  check(m)
  for _, pfn in ipairs(taken) do m:free(pfn) end
  p:exit()
  check(m)
end

-- gb_thp_migration (the session's open question): a gigantic page wanted
-- where a 1 GiB THP is, on a machine with one more free gigabyte.
-- "block": the THP stays, the range is busy and the gigantic page is the
-- free gigabyte; "split": it is split to 4 KiB pages, which migrate, and
-- its gigabyte is taken; "whole": it moves as one folio to the free
-- gigabyte (still PUD-mapped, thp_migration_success +1, 262,144 pages
-- copied) and its gigabyte is taken; the next gigantic page would need
-- it to move again, with nowhere to go: it stays whole (thp_migration_fail).
for _, mode in ipairs({ "block", "split", "whole" }) do
  local m = machine{ mem_per_node = "3G", boot_reserve = false, gb_thp_migration = mode }
  local p = m:process()
  local a = pud_region(p)
  assert(p:touch(a, 4096) == 262144)
  local first = p:follow_page(a)
  local got = {}
  while true do
    local pfn = m:alloc_gigantic()
    if not pfn then break end
    got[#got + 1] = pfn
  end
  assert(#got == 1)
  assert(p:stats().rss == 262144)
  if mode == "block" then
    assert(p:follow_page(a) == first and p:stats().thp_pud == 1 and got[1] ~= first)
    assert(vmstat(m, "thp_migration_success") == 0 and vmstat(m, "pgmigrate_success") == 0)
  elseif mode == "split" then
    assert(got[1] == first and p:follow_page(a) ~= first and p:stats().thp_pud == 0)
    assert(vmstat(m, "thp_split_pud") == 1 and vmstat(m, "thp_split_page") == 1)
    assert(vmstat(m, "thp_migration_split") == 1 and vmstat(m, "thp_migration_fail") == 1)
    assert(vmstat(m, "pgmigrate_success") >= 262144)
  else
    local now = p:follow_page(a)
    assert(got[1] == first and now ~= first and now % 262144 == 0)
    assert(p:stats().thp_pud == 1 and p:stats().AnonHugePages == 1048576)
    assert(p:follow_page(a + G - 4096) == now + 262143)
    assert(vmstat(m, "thp_split_pud") == 0 and vmstat(m, "thp_split_page") == 0)
    assert(vmstat(m, "thp_migration_success") == 1 and vmstat(m, "thp_migration_fail") == 1)
    assert(vmstat(m, "pgmigrate_success") == 262144)
    assert(vmstat(m, "thp_migration_split") == 0)
  end
  check(m)
  for _, pfn in ipairs(got) do m:free_gigantic(pfn) end
  p:exit()
  check(m)
end

-- Hot-remove: the THPs in the block offlined migrate whole to node 1
-- (do_migrate_range): every 2 MiB mapping is kept, none is split.
do
  local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "2G", "2G" },
    memory_block_size = "128M", boot_reserve = false, thp = "always" }
  local p = m:process()
  local a = p:mmap(1950 << 20)
  assert(p:touch(a, 1950 << 20) == 1950 * 256 and p:stats().thp_pmd == 975)
  assert(m:offline_memory{ node = 0, size = "128M" } == 128 << 20)
  local moved = vmstat(m, "thp_migration_success")
  assert(moved > 0 and vmstat(m, "thp_split_page") == 0, moved)
  assert(vmstat(m, "pgmigrate_success") >= moved * 512)
  assert(p:stats().thp_pmd == 975 and p:stats().rss == 1950 * 256)
  check(m)
end

-- MADV_COLLAPSE works whatever `thp` says.
do
  local m = machine{ thp = "never" }
  local p = m:process()
  local a = p:mmap(4 * M)
  local h = (a + M - 1) & ~(M - 1)
  assert(p:touch(h + 4096, 4096) == 1)
  assert(p:madvise(h, M, "collapse"))
  assert(p:stats().thp_pmd == 1 and vmstat(m, "thp_collapse_alloc") == 1)
  check(m)
end
print("thp: ok")
