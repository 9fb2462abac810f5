-- m:nodes(): each node's pages by holder, pageblocks, 1 GiB yield and
-- zone->lock figures, hand-worked on test-numa (node 0: DMA + DMA32,
-- node 1: Normal, 4 GiB each).
local m = mmsim.machine{ preset = "test-numa" }
local p = m:process()
-- CPU 0 is on node 0: 64 MiB of anonymous memory there, 16384 pages, and
-- page tables for them: 32 PTE tables, a PMD table, a PUD table, the PGD.
local a = p:mmap("64M")
assert(p:touch(a, "64M") == 16384)
assert(m:read_file{ file = 1, pages = 1000, node = 1 } == 1000)

local nodes = m:nodes()
assert(#nodes == 2, "test-numa has two nodes, m:nodes() gave " .. #nodes)
local zones = m:zones()
for nid, n in ipairs(nodes) do
  assert(n.node == nid - 1)
  local managed, free, blocks = 0, 0, 0
  for _, z in ipairs(zones) do
    if z.node == n.node then
      managed = managed + z.managed
      free = free + z.free
      blocks = blocks + (z.spanned + 511) // 512
    end
  end
  assert(n.managed == managed, string.format("node %d managed %d, zones say %d", n.node,
    n.managed, managed))
  -- NR_FREE_PAGES counts the buddy's pages; per-CPU lists are apart.
  assert(n.free == free, string.format("node %d free %d, zones say %d", n.node, n.free, free))
  -- Every managed page is free, on a per-CPU list or held by someone.
  local held = n.anon + n.file + n.pgtable + n.slab + n.kernel + n.hugetlb
  assert(n.free + n.pcp + held == n.managed, string.format(
    "node %d: free %d + pcp %d + held %d ~= managed %d", n.node, n.free, n.pcp, held, n.managed))
  local pb = 0
  for _, count in pairs(n.pageblocks) do pb = pb + count end
  assert(pb == blocks, string.format("node %d: %d pageblocks, spans hold %d", n.node, pb, blocks))
  local y = m:gb_yield{ node = n.node }
  for k, v in pairs(y) do
    assert(n.gb_yield[k] == v, string.format("node %d gb_yield.%s %s ~= %s", n.node, k,
      tostring(n.gb_yield[k]), tostring(v)))
  end
  assert(n.zone_lock.acquisitions == 0, "no m:run yet, no simulated lock taken")
end
assert(nodes[1].anon == 16384, "node 0 anon " .. nodes[1].anon)
assert(nodes[1].pgtable == 35, "node 0 page tables " .. nodes[1].pgtable)
assert(nodes[1].file == 0 and nodes[2].file == 1000)
assert(nodes[2].anon == 0 and nodes[2].pgtable == 0)
-- The memmap of each node is reserved at boot on the node itself.
assert(nodes[1].reserved > 0 and nodes[2].reserved > 0)

-- A thread on node 1 taking its zone->lock shows on node 1 only.
m:spawn{ cpu = m:cpus()[#m:cpus()].cpu, fn = function()
  for _ = 1, 8 do m:free(m:alloc{ order = 10, type = "movable" }) end
end }
m:run()
local after = m:nodes()
assert(after[2].zone_lock.acquisitions > 0, "node 1's zone->lock was never taken")
assert(after[1].zone_lock.acquisitions == 0, "node 0's zone->lock taken by a node-1 thread")
print("ok: m:nodes()")
