-- Pages in use per node (run by node_used.sh): four nodes, 8 pageblocks
-- held on node 3 and 4 on node 2, so each node's nodeN_used_pages column
-- moves by its own count (a report that kept two nodes lost nodes 2 and 3).
local m = mmsim.machine{ sockets = 4, nodes_per_socket = 1, cpus_per_socket = 1,
                         mem_per_node = "1G" }
m:spawn{ cpu = 3, fn = function()
  for i = 1, 8 do assert(m:alloc{ order = 9, type = "movable", node = 3 }) end
  for i = 1, 4 do assert(m:alloc{ order = 9, type = "movable", node = 2 }) end
  mmsim.sleep("2ms")
end }
m:run{ duration = "3ms" }
