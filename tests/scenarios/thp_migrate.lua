-- Migration of THPs (models/migrate.c), hand-worked on two-node machines:
-- a 2 MiB THP moves whole with move_pages(2) and NUMA balancing, or is
-- split and moved in 4 KiB pages when the target node has no order-9
-- block; a 1 GiB THP does what gb_thp_migration says.  The invariant and
-- reverse-map checkers run after each case.
local G, M = 1 << 30, 2 << 20

local function vmstat(m, name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end

local function check(m)
  assert(m:check_invariants())
end

-- The knob names its three choices when given another.
local ok, err = pcall(mmsim.machine, { sockets = 1, cpus_per_socket = 2, mem_per_node = "1G",
  gb_thp_migration = "move" })
assert(not ok and err:find('"block", "split", "whole"', 1, true), err)

local function machine(opts)
  local t = { sockets = 2, cpus_per_socket = 2, node_mem = { "512M", "512M" },
    boot_reserve = false, thp = { ["2048kB"] = "always", ["1048576kB"] = "always" } }
  for k, v in pairs(opts or {}) do t[k] = v end
  return mmsim.machine(t)
end

-- A 2 MiB-aligned 2 MiB region of p, touched from CPU 0 (node 0).
local function pmd_thp(p)
  local a = (p:mmap(2 * M) + M - 1) & ~(M - 1)
  assert(p:touch(a, M) == 512 and p:stats().thp_pmd == 1)
  return a
end

-- The pages of [a, a + len) on node n.
local function on_node(m, p, a, len, n)
  local k = 0
  for off = 0, len - 4096, 4096 do
    if m:page(p:follow_page(a + off)).node == n then k = k + 1 end
  end
  return k
end

-- move_pages of a 2 MiB THP to node 1: one order-9 destination, the PMD
-- mapping kept (AnonHugePages unchanged), 512 pages counted moved and in
-- pgmigrate_success, thp_migration_success +1, and the source freed as
-- one order-9 block (no split: its head is no order-0 page).
do
  local m = machine()
  local p = m:process()
  local a = pmd_thp(p)
  local src = p:follow_page(a)
  assert(m:page(src).node == 0)
  local r = p:move_pages(a, M, 1)
  assert(r.moved == 512 and r.busy == 0 and r.enomem == 0, r.moved)
  local dst = p:follow_page(a)
  assert(dst ~= src and dst % 512 == 0 and m:page(dst).node == 1 and m:page(dst).order == 9)
  assert(p:follow_page(a + M - 4096) == dst + 511)
  assert(p:stats().AnonHugePages == 2048 and p:stats().thp_pmd == 1)
  assert(vmstat(m, "thp_migration_success") == 1 and vmstat(m, "thp_migration_fail") == 0)
  assert(vmstat(m, "thp_migration_split") == 0 and vmstat(m, "thp_split_page") == 0)
  assert(vmstat(m, "pgmigrate_success") == 512)
  local s = m:page(src)
  assert(s.kind ~= "alloc" and s.kind ~= "none" and s.order >= 9, s.kind .. " " .. s.order)
  -- already there: nothing moves
  r = p:move_pages(a, M, 1)
  assert(r.already == 512 and r.moved == 0)
  check(m)
  p:exit()
  check(m)
end

-- A THP a fork shares stays (busy: the model remaps one process's
-- tables); once the child has exited it moves whole.
do
  local m = machine()
  local p = m:process()
  local a = pmd_thp(p)
  local child = p:fork()
  local r = p:move_pages(a, M, 1)
  assert(r.busy == 512 and r.moved == 0, r.busy)
  assert(m:page(p:follow_page(a)).node == 0)
  check(m)
  child:exit()
  r = p:move_pages(a, M, 1)
  assert(r.moved == 512 and m:page(p:follow_page(a)).node == 1)
  assert(vmstat(m, "thp_migration_success") == 1 and p:stats().thp_pmd == 1)
  check(m)
end

-- No order-9 block on node 1 (one unmovable page kept in every 2 MiB of
-- it, and watermarks too low to leave 512 pages untaken): the THP is
-- split (thp_migration_fail and _split +1, thp_split_page +1) and its 512
-- pages move one by one; the mapping is 4 KiB pages now.
do
  local m = machine{ min_free_kbytes = 128 }
  local p = m:process()
  local a = pmd_thp(p)
  local taken = {}
  while true do
    local pfn = m:alloc{ order = 0, type = "movable", node = 1 }
    if not pfn or m:page(pfn).node ~= 1 then
      if pfn then m:free(pfn) end
      break
    end
    taken[#taken + 1] = pfn
  end
  for _, pfn in ipairs(taken) do
    if pfn % 512 ~= 0 then m:free(pfn) end
  end
  local r = p:move_pages(a, M, 1)
  assert(r.moved == 512 and r.busy == 0 and r.enomem == 0, r.moved .. " " .. r.enomem)
  assert(on_node(m, p, a, M, 1) == 512)
  assert(p:stats().thp_pmd == 0 and p:stats().AnonHugePages == 0 and p:stats().rss == 512)
  assert(vmstat(m, "thp_migration_success") == 0 and vmstat(m, "thp_migration_fail") == 1)
  assert(vmstat(m, "thp_migration_split") == 1 and vmstat(m, "thp_split_page") == 1)
  assert(vmstat(m, "pgmigrate_success") == 512)
  check(m)
end

-- NUMA balancing: a thread faults two 2 MiB THPs on node 0, moves to
-- node 1 at 2.5 s and keeps touching them.  The scan marks each PMD
-- mapping whole; the hinting faults (one per THP per pass) move each THP
-- whole at its second fault from node 1, as for 4 KiB pages: both by 8 s,
-- numa_pages_migrated 1024, the mappings kept.
do
  local m = machine{ numa_balancing = true }
  local p = m:process()
  local a = (p:mmap(6 * M) + M - 1) & ~(M - 1)
  m:spawn{ cpu = 0, fn = function()
    assert(p:touch(a, 2 * M) == 1024)
    while mmsim.now() < 8e9 do
      if mmsim.now() >= 2.5e9 and mmsim.cpu() == 0 then mmsim.migrate_thread(2) end
      p:touch(a, 2 * M)
      mmsim.sleep("20ms")
    end
  end }
  m:run()
  assert(on_node(m, p, a, 2 * M, 1) == 1024)
  assert(p:stats().thp_pmd == 2)
  assert(vmstat(m, "thp_migration_success") == 2, vmstat(m, "thp_migration_success"))
  assert(vmstat(m, "numa_pages_migrated") == 1024 and vmstat(m, "thp_split_page") == 0)
  check(m)
end

-- A 1 GiB THP moved to node 1 with move_pages, per gb_thp_migration:
-- "block" it stays (262,144 pages busy, thp_migration_fail +1); "split"
-- it is split and its pages move (the PUD mapping is lost); "whole" it
-- moves as one folio to a gigabyte of node 1, still PUD-mapped.
for _, mode in ipairs({ "block", "split", "whole" }) do
  local m = machine{ node_mem = { "3G", "3G" }, gb_thp_migration = mode }
  local p = m:process()
  local a = (p:mmap(2 * G) + G - 1) & ~(G - 1)
  assert(p:touch(a, 4096) == 262144 and p:stats().thp_pud == 1)
  local src = p:follow_page(a)
  local r = p:move_pages(a, G, 1)
  local s = p:stats()
  if mode == "block" then
    assert(r.busy == 262144 and r.moved == 0)
    assert(p:follow_page(a) == src and s.thp_pud == 1)
    assert(vmstat(m, "thp_migration_fail") == 1 and vmstat(m, "pgmigrate_fail") == 262144)
  elseif mode == "split" then
    assert(r.moved == 262144, r.moved)
    assert(s.thp_pud == 0 and s.AnonHugePages == 0 and on_node(m, p, a, G, 1) == 262144)
    assert(vmstat(m, "thp_split_pud") == 1 and vmstat(m, "thp_migration_split") == 1)
  else
    local dst = p:follow_page(a)
    assert(r.moved == 262144 and dst % 262144 == 0 and m:page(dst).node == 1)
    assert(s.thp_pud == 1 and s.AnonHugePages == 1048576)
    assert(p:follow_page(a + G - 4096) == dst + 262143)
    assert(vmstat(m, "thp_migration_success") == 1 and vmstat(m, "pgmigrate_success") == 262144)
    assert(m:page(src).kind ~= "alloc")
  end
  check(m)
  p:exit()
  check(m)
end
print("thp_migrate: ok")
