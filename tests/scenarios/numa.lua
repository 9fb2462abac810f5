-- The NUMA calls on a process: p:set_mempolicy and p:mbind place the
-- pages of later faults; bad input raises an error naming the valid values.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "256M",
                         weighted_interleave = { 2, 1 } }
local p = m:process()
local function node_of(addr) return m:page(p:follow_page(addr)).node end

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  assert(tostring(err):find(pattern), tostring(err))
end

-- Interleave: virtual page v on node v % 2.
p:set_mempolicy{ policy = "interleave", nodes = { 0, 1 } }
local a = p:mmap("32K")
assert(p:touch(a, "32K") == 8)
for i = 0, 7 do assert(node_of(a + i * 4096) == (a // 4096 + i) % 2) end

-- Weighted interleave with weights 2 and 1: v % 3 < 2 on node 0.
p:set_mempolicy{ policy = "weighted_interleave", nodes = { 0, 1 } }
local w = p:mmap("24K")
assert(p:touch(w, "24K") == 6)
for i = 0, 5 do assert(node_of(w + i * 4096) == ((w // 4096 + i) % 3 < 2 and 0 or 1)) end

-- A VMA's policy beats the address space's.
p:set_mempolicy{ policy = "local" }
local b = p:mmap("16K")
p:mbind(b + 4096, "8K", { policy = "bind", nodes = { 1 } })
assert(p:touch(b, "16K") == 4)
assert(node_of(b) == 0 and node_of(b + 4096) == 1 and node_of(b + 8192) == 1
       and node_of(b + 12288) == 0)
p:set_mempolicy{ policy = "preferred", nodes = { 1 } }
local c = p:mmap("8K")
assert(p:touch(c, "8K") == 2 and node_of(c) == 1)

-- move_pages: b's local pages move to node 1; the bound ones are there already.
local r = p:move_pages(b, "16K", 1)
assert(r.moved == 2 and r.already == 2 and r.busy == 0 and r.enomem == 0 and r.absent == 0,
       string.format("moved %d already %d", r.moved, r.already))
assert(node_of(b) == 1 and node_of(b + 12288) == 1)
-- migrate_pages: everything on node 1 goes to node 0.
assert(node_of(c) == 1)
local r2 = p:migrate_pages({ 1 }, { 0 })
assert(r2.moved > 4 and r2.busy == 0 and node_of(c) == 0 and node_of(b) == 0)
fails("node 5 does not exist", p.move_pages, p, b, "4K", 5)
fails("migrate_pages: empty node list", p.migrate_pages, p, {}, { 0 })
fails("only inside a simulated thread", mmsim.migrate_thread, 1)
m:spawn{ cpu = 0, fn = function() mmsim.migrate_thread(4) end }
fails("mmsim.migrate_thread: cpu 4 does not exist %(the machine has CPUs 0%-3%)", m.run, m)

fails("unknown policy 'often' %(valid: default, local, preferred, bind, interleave, " ..
      "weighted_interleave%)", p.set_mempolicy, p, { policy = "often", nodes = { 0 } })
fails("node 2 does not exist %(the machine has nodes 0%-1%)", p.set_mempolicy, p,
      { policy = "bind", nodes = { 0, 2 } })
fails("policy 'bind' needs a non%-empty list of nodes %(the machine has nodes 0%-1%)",
      p.set_mempolicy, p, { policy = "bind", nodes = {} })
fails("policy 'interleave' needs a non%-empty list", p.mbind, p, b, "4K",
      { policy = "interleave" })
fails("policy 'local' takes no nodes", p.set_mempolicy, p, { policy = "local", nodes = { 0 } })
fails("unknown field 'node'", p.mbind, p, b, "4K", { policy = "bind", node = 1 })
fails("is not mapped %(EFAULT%)", p.mbind, p, 0x10000, "4K", { policy = "bind", nodes = { 1 } })
fails("weighted_interleave: node 1's weight must be an integer from 1 to 255",
      mmsim.machine, { sockets = 2, weighted_interleave = { 1, 0 } })
fails("weighted_interleave lists 1 weights, the machine has 2 nodes",
      mmsim.machine, { sockets = 2, weighted_interleave = { 1 } })
m:check_invariants()
print("numa ok")
