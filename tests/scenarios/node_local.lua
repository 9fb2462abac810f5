-- The default memory policy: an allocation without `node` comes from the
-- node of the CPU it runs on (numa_node_id()), whichever call makes it.
-- Two sockets of two CPUs: CPUs 0-1 are node 0, CPUs 2-3 node 1.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "512M" }

local p = assert(m:alloc{ type = "unmovable", cpu = 2 })
assert(m:page(p).node == 1, "CPU 2 allocated on node " .. m:page(p).node)
p = assert(m:alloc{ type = "movable", cpu = 1 })
assert(m:page(p).node == 0, "CPU 1 allocated on node " .. m:page(p).node)
-- An explicit node still wins.
p = assert(m:alloc{ type = "unmovable", cpu = 3, node = 0 })
assert(m:page(p).node == 0)
assert(not pcall(m.alloc, m, { cpu = 3, node = 2 }), "node 2 does not exist")
assert(not pcall(m.kvmalloc, m, { size = "64K", node = 2 }), "node 2 does not exist")

-- A simulated thread on node 1 (as kernel_noise's allocations are), and
-- the page cache it reads.
local thread_nodes = {}
m:spawn{ cpu = 3, fn = function()
  for i = 1, 64 do thread_nodes[i] = m:page(assert(m:alloc{ type = "reclaimable" })).node end
  m:read_file{ file = 9, pages = 1 }
end }
m:run()
for i = 1, 64 do assert(thread_nodes[i] == 1, "allocation " .. i .. " on node " .. thread_nodes[i]) end
local file_node
for pfn = 0, 2 * 131072 - 1 do
  local pg = m:page(pfn)
  if pg.kind == "alloc" and pg.owner == (4 << 28 | 9) then file_node = pg.node break end
end
assert(file_node == 1, "the file page is on node " .. tostring(file_node))
m:check_invariants()
