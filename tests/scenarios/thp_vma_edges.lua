-- A huge mapping lies inside one VMA (issue 34 item 11): p:mbind of 4 KiB
-- inside a 1 GiB THP split the VMA but kept the PUD mapping across the new
-- edges, and an mprotect of that VMA then left it whole.  The invariant
-- checker now names a huge mapping a VMA edge cuts; mbind splits the THP
-- mapping at its edges first, as __split_vma does, and so does mprotect
-- when the range covers a huge mapping in part.
local G, M = 1 << 30, 2 << 20
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "4G" },
  thp = { ["2048kB"] = "always", ["1048576kB"] = "always" } }
local p = m:process()
local a = (p:mmap(2 * G) + G - 1) & ~(G - 1)
assert(p:touch(a, G) == 262144 and p:stats().thp_pud == 1)
local pfn = p:follow_page(a + 8192)
p:mbind(a + 8192, 4096, { policy = "bind", nodes = { 1 } })
m:check_invariants()
local s = p:stats()
assert(s.thp_pud == 0 and s.rss == 262144, "PUD mappings " .. s.thp_pud)
assert(p:follow_page(a + 8192) == pfn, "the page moved")
p:mprotect(a + 8192, 4096, "r")
m:check_invariants()
-- A 2 MiB THP likewise: mbind of its second 4 KiB, then mprotect of it.
local b = (p:mmap(4 * M) + M - 1) & ~(M - 1)
assert(p:touch(b, M) == 512 and p:stats().thp_pmd >= 1)
local pmd = p:stats().thp_pmd
p:mbind(b + 4096, 4096, { policy = "bind", nodes = { 1 } })
m:check_invariants()
assert(p:stats().thp_pmd == pmd - 1)
p:mprotect(b + 4096, 4096, "r")
m:check_invariants()
-- An edge on the mapping's own boundary splits nothing.
local c = (p:mmap(4 * M) + M - 1) & ~(M - 1)
assert(p:touch(c, M) == 512)
pmd = p:stats().thp_pmd
p:mbind(c, M, { policy = "bind", nodes = { 1 } })
p:mprotect(c, M, "r")
assert(p:stats().thp_pmd == pmd)
m:check_invariants()
