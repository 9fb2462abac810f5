-- m:offline_memory under upstream and pcp_buddy: a process fills node 1,
-- the top memory block goes offline with every page it held moved out,
-- the process keeps all its pages, and the block comes back with
-- m:online_memory.  Bad input is refused with the numbers; pinned pages
-- keep a block busy unless it is in ZONE_MOVABLE; under spb the
-- superpageblock array shrinks and grows back.
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  assert(tostring(err):find(pattern), tostring(err))
end

for _, policy in ipairs{ "upstream", "pcp_buddy" } do
  -- No boot reservations: the memmap at node 1's top would keep that block
  -- online (reserved pages never offline), as on a real machine.
  local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "512M" },
                           policy = policy, memory_block_size = "128M", boot_reserve = false }
  local managed = m:info().managed_pages
  -- Outside threads calls run on CPU 0: the policy puts the pages on node 1.
  local p = m:process()
  p:set_mempolicy{ policy = "bind", nodes = { 1 } }
  local a = p:mmap("448M")
  assert(p:touch(a, "448M") == 448 * 256)
  p:munmap(a, "64M")
  assert(m:offline_memory{ node = 1, size = "128M" } == 128 * 1048576)
  assert(p:stats().rss == 384 * 256)
  for i = 64 * 256, 448 * 256 - 1 do
    local pfn = p:follow_page(a + i * 4096)
    assert(pfn and pfn < 0x118000, "page " .. i .. " still in the offlined block")
  end
  assert(m:info().managed_pages == managed - 128 * 256)
  m:check_invariants()
  fails("offline_memory: size 67108864 is not a whole number of memory blocks %(134217728 bytes each%)",
        m.offline_memory, m, { node = 1, size = "64M" })
  fails("node 2 does not exist %(the machine has nodes 0%-1%)", m.offline_memory, m,
        { node = 2, size = "128M" })
  fails("node 1 has CPUs: its last 384 MiB cannot go offline", m.offline_memory, m,
        { node = 1, size = "384M" })
  assert(m:info().managed_pages == managed - 128 * 256)
  assert(m:online_memory{ node = 1, size = "128M" } == 128 * 1048576)
  assert(m:info().managed_pages == managed)
  m:check_invariants()
end

-- Long-term pins make offline fail; ZONE_MOVABLE (movable_per_node), where
-- the model, as the kernel, keeps no long-term pinned page, makes it
-- reliable: with every anonymous page pinned, node 1's top block stays
-- busy without it and goes offline with it.
local function offline_pinned(movable)
  local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "1G" },
                           movable_per_node = movable, pinned_share = 1.0,
                           memory_block_size = "128M", boot_reserve = false }
  local p = m:process()
  p:set_mempolicy{ policy = "bind", nodes = { 1 } }
  p:touch(p:mmap("1G"), "1G")   -- fills node 1 until bind's ENOMEM
  return m, m:offline_memory{ node = 1, size = "128M" }
end
local m1, r1, why1, info1 = offline_pinned(nil)
assert(r1 == nil and why1 == "EBUSY" and info1.reason == "timeout" and info1.offlined == 0)
assert(m1:page(info1.fail_pfn).pinned)
m1:check_invariants()
-- On a simulated thread the retries last the caller's timeout of simulated
-- time (each round tries every pinned page again and, moving nothing,
-- charges 3.3 ms of scanning: it ends past the timeout by up to a round),
-- then EBUSY, the block still online.
local spent, why_t, info_t
m1:spawn{ cpu = 2, fn = function()
  local t0 = mmsim.now()
  local r
  r, why_t, info_t = m1:offline_memory{ node = 1, size = "128M", timeout = "20ms" }
  assert(r == nil)
  spent = mmsim.now() - t0
end }
m1:run()
assert(why_t == "EBUSY" and info_t.reason == "timeout", tostring(info_t and info_t.reason))
assert(spent >= 20e6 and spent < 100e6, "offline took " .. tostring(spent) .. " ns")
fails("offline_memory: timeout", m1.offline_memory, m1, { node = 1, size = "128M",
                                                          timeout = "soon" })
m1:check_invariants()
local m2, r2 = offline_pinned("512M")
assert(r2 == 128 * 1048576)
m2:check_invariants()
-- Onlined again, the block joins the Movable zone it left (as with
-- movable_node), not the Normal zone below it.
local managed2 = m2:info().managed_pages
assert(m2:online_memory{ node = 1, size = "128M" } == 128 * 1048576)
assert(m2:page(0x140000 - 1).zone == "Movable" and m2:page(0x140000 - 32768).zone == "Movable")
assert(m2:info().managed_pages == managed2 + 32768)
m2:check_invariants()
-- Onlining where the model cannot is an error, never 0 bytes without a
-- word: a node of 2 GiB has DMA and DMA32 only; a machine without a
-- hotplug reserve has no room; a node number past int's range is named.
local small = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "2G",
                             hotplug_reserve = "1G" }
fails("online_memory: node 0 has neither a Normal nor a Movable zone to grow",
      small.online_memory, small, { node = 0, size = "128M" })
local nohp = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "8G" }
fails("online_memory: no room above node 1's memory %(the machine has no hotplug_reserve", nohp.online_memory, nohp,
      { node = 1, size = "128M" })
fails("online_memory: node 4294967296 does not exist %(the machine has nodes 0%-1%)",
      nohp.online_memory, nohp, { node = 4294967296, size = "128M" })

-- Under spb the superpageblock array shrinks with the zone: a whole 1 GiB
-- block takes its superpageblock off the array and its list, a 128 MiB
-- block takes pageblocks off the top superpageblock, and onlining the
-- memory again gives back the same debugfs view.
local function spb_machine(block)
  return mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "3G" },
                        policy = "spb", memory_block_size = block, boot_reserve = false }
end
local function node1_spbs(m)
  return tonumber(m:superpageblocks():match("Node 1, zone +Normal: (%d+) superpageblocks"))
end
do
  local s = spb_machine("1G")
  local view, managed = s:superpageblocks(), s:info().managed_pages
  local total = s:spb_stats().total
  assert(node1_spbs(s) == 3)
  assert(s:offline_memory{ node = 1, size = "1G" } == 1073741824)
  assert(node1_spbs(s) == 2, s:superpageblocks())
  assert(not s:superpageblocks():find("pfn=0x180000"), "the offlined superpageblock is still listed")
  assert(s:superpageblocks():find("empty: 2\n"), s:superpageblocks())
  assert(s:spb_stats().total == total - 1)
  assert(s:info().managed_pages == managed - 262144)
  s:check_invariants()
  assert(s:online_memory{ node = 1, size = "1G" } == 1073741824)
  assert(s:superpageblocks() == view, "after offline and online:\n" .. s:superpageblocks() ..
         "before:\n" .. view)
  assert(s:info().managed_pages == managed)
  s:check_invariants()
end
do
  local s = spb_machine("128M")
  local view = s:superpageblocks()
  assert(s:offline_memory{ node = 1, size = "256M" } == 268435456)
  local after = s:superpageblocks()
  assert(node1_spbs(s) == 3)
  assert(after:find("pfn=0x180000: unmov=0 recl=0 mov=0 rsv=0 free=384 total=384", 1, true), after)
  s:check_invariants()
  assert(s:online_memory{ node = 1, size = "256M" } == 268435456)
  assert(s:superpageblocks() == view, s:superpageblocks())
  s:check_invariants()
end

-- Under spb too: a process's pages leave the block; one unmovable page
-- keeps it online (EBUSY) with every page where it was.
do
  local s = spb_machine("1G")
  local p = s:process()
  p:set_mempolicy{ policy = "bind", nodes = { 1 } }
  local a = p:mmap("2G")
  assert(p:touch(a, "2G") == 512 * 1024)
  assert(s:offline_memory{ node = 1, size = "1G" } == 1073741824)
  assert(p:stats().rss == 512 * 1024)
  for i = 0, 512 * 1024 - 1, 97 do
    local pfn = p:follow_page(a + i * 4096)
    assert(pfn and pfn < 0x180000, "page " .. i .. " still in the offlined block")
  end
  s:check_invariants()
end
do
  local s = spb_machine("1G")
  local top, kept, others = 0x180000, nil, {}
  while not kept do
    local pfn = assert(s:alloc{ order = 9, node = 1 })
    assert(s:page(pfn).node == 1, "node 1 filled without reaching its top block")
    if pfn >= top then kept = pfn else others[#others + 1] = pfn end
  end
  for _, pfn in ipairs(others) do s:free(pfn) end
  local p = s:process()
  p:set_mempolicy{ policy = "bind", nodes = { 1 } }
  local a = p:mmap("512M")
  p:touch(a, "512M")
  local where = {}
  for i = 0, 512 * 256 - 1, 61 do where[i] = p:follow_page(a + i * 4096) end
  local view, managed = s:superpageblocks(), s:info().managed_pages
  local r, why, info = s:offline_memory{ node = 1, size = "1G" }
  assert(r == nil and why == "EBUSY" and info.offlined == 0, tostring(r))
  assert(info.fail_pfn >= top and info.fail_pfn < top + 262144, info.fail_pfn)
  assert(s:page(kept).kind == "alloc" and s:page(kept).type == "unmovable")
  for i, pfn in pairs(where) do assert(p:follow_page(a + i * 4096) == pfn) end
  assert(s:info().managed_pages == managed and node1_spbs(s) == 3)
  assert(s:superpageblocks() == view, s:superpageblocks())
  s:check_invariants()
end
-- Bad input under every policy: refused with the numbers, and nothing of
-- the machine changes (its zones, free lists, superpageblocks, pagesets).
local function state(m)
  local i = m:info()
  return m:zoneinfo() .. m:buddyinfo() .. m:superpageblocks() ..
         table.concat({ i.managed_pages, i.free_pages, i.pcp_pages }, " ")
end
for _, policy in ipairs{ "upstream", "pcp_buddy", "spb" } do
  local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "2G" },
                           movable_per_node = "1G", policy = policy,
                           memory_block_size = "256M", boot_reserve = false }
  local p = m:process()
  p:set_mempolicy{ policy = "bind", nodes = { 1 } }
  p:touch(p:mmap("256M"), "256M")
  local before = state(m)
  local cases = {
    { { node = 1, size = "128M" }, "size 134217728 is not a whole number of memory blocks %(268435456 bytes each%)" },
    { { node = 1, size = "384M" }, "size 402653184 is not a whole number of memory blocks %(268435456 bytes each%)" },
    { { node = 1, size = 0 }, "size 0 is not a whole number of memory blocks" },
    { { node = 2, size = "256M" }, "node 2 does not exist %(the machine has nodes 0%-1%)" },
    { { node = -1, size = "256M" }, "node %-1 does not exist" },
    { { node = 1, size = "2G" }, "node 1 has CPUs: its last 2048 MiB cannot go offline" },
    { { node = 1, size = "1G" }, "1024 MiB is not below the size of node 1's top zone %(Movable, 1024 MiB%)" },
  }
  for _, c in ipairs(cases) do
    fails(c[2], m.offline_memory, m, c[1])
    assert(state(m) == before, policy .. ": a refused offline changed the machine")
  end
  m:check_invariants()
end
print("ok: hotremove")
