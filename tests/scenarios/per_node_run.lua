-- Per-node figures (run by per_node.sh): allocations that hit, miss and
-- run on the other node, and threads on both nodes taking both nodes'
-- zone->lock; m:gb_yield{node =} per node against the machine's.
local m = mmsim.machine{ preset = "test-numa", costs = { zone_section = 2000 } }
local info = m:info()
-- CPU 0 (node 0) fills node 1 with pageblocks until node 1 gives out:
-- hits and then misses (node 1 foreign), all "other" to CPU 0.
local held = {}
while true do
  local pfn = m:alloc{ order = 9, type = "movable", node = 1, cpu = 0 }
  if not pfn then break end
  held[#held + 1] = pfn
  if m:page(pfn).node == 0 then break end
end
assert(m:page(held[#held]).node == 0, "node 1 never spilled over to node 0")
for _, pfn in ipairs(held) do m:free(pfn) end
m:drain()

-- gb_yield per node adds up to the machine's.
local all = m:gb_yield()
local sum = { total_regions = 0, possible = 0, free_now = 0, movable_only = 0 }
for n = 0, info.nodes - 1 do
  local y = m:gb_yield{ node = n }
  for k in pairs(sum) do sum[k] = sum[k] + y[k] end
end
assert(all.total_regions > 0)
for _, k in ipairs{ "total_regions", "possible", "free_now", "movable_only" } do
  assert(sum[k] == all[k], k .. ": " .. sum[k] .. " over the nodes, " .. all[k] .. " in all")
end
local y1 = m:gb_yield{ node = 1, attempt = true }
assert(y1.obtained == y1.free_now or y1.obtained > 0)
assert(not pcall(m.gb_yield, m, { node = 2 }))

for cpu = 0, info.cpus - 1 do
  m:spawn{ cpu = cpu, fn = function()
    local mine = {}
    while true do
      for i = 1, 32 do mine[#mine + 1] = m:alloc{ type = "movable", order = 4 } end
      while #mine > 0 do m:free(table.remove(mine, 1)) end
      mmsim.sleep("300ns")
    end
  end }
end
m:run{ duration = "300us" }
