-- Boundary cases the mutation list (tests/mutations.txt) found no test
-- pinning, each worked out by hand:
-- * mbind of a range that starts at a VMA's first page changes the policy
--   of that part without leaving an empty VMA before it (the split happens
--   only strictly inside a VMA);
-- * m:alloc_gigantic{node = 0} takes gigabytes from node 0 only
--   (alloc_gigantic_folio's node test, nid >= 0): once node 0 has none
--   left it fails, and node 1 keeps all of its own.  Two 3 GiB nodes:
--   node 0's first gigabyte holds ZONE_DMA and part of DMA32 (not one
--   zone), so node 0 has 2 (DMA32); node 1 spans 3-6 GiB, [3, 4) in
--   DMA32 and [4, 6) in Normal: 3.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "3G",
                         boot_reserve = false }
local node1 = 3 * 262144    -- node 1's first pfn
local p = m:process()
local a = p:mmap("4M")
p:mbind(a, "2M", { policy = "bind", nodes = { 1 } })
assert(m:check_invariants())
assert(p:touch(a, "4M") == 1024)
assert(p:follow_page(a) >= node1, "the bound half's pages come from node 1")
assert(m:check_invariants())
p:exit()

local got0 = 0
while m:alloc_gigantic{ node = 0 } do got0 = got0 + 1 end
assert(got0 == 2, "node 0 gave " .. got0)
local got1, pfn = 0, m:alloc_gigantic{ node = 1 }
while pfn do
  assert(pfn >= node1, "node 1's gigabyte at pfn " .. pfn)
  got1 = got1 + 1
  pfn = m:alloc_gigantic{ node = 1 }
end
assert(got1 == 3, "node 1 gave " .. got1)
assert(m:check_invariants())

print(string.format("boundaries: %d gigabytes on node 0, %d on node 1, mbind at a VMA start ok",
  got0, got1))
