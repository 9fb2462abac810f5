-- Page migration through m:migrate_pages on the 2-socket "2s-1t"-like
-- machine built here: anonymous pages move to the node asked for and the
-- process keeps them mapped; a page-cache page moves; kernel pages refuse;
-- with pinned_share = 1 every anonymous page stays and counts in
-- pgmigrate_fail.
local function vmstat(m)
  local vm = {}
  for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
  return vm
end

local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "512M" }
local p = m:process()
local addr = p:mmap("64K")
assert(p:touch(addr, "64K") == 16)
local pfns = {}
for i = 0, 15 do pfns[#pfns + 1] = p:follow_page(addr + i * 4096) end
assert(m:page(pfns[1]).node == 0 and m:page(pfns[1]).pinned == false)
local kernel = m:alloc{ type = "unmovable", owner = 3 << 28 }
pfns[#pfns + 1] = kernel
local r = m:migrate_pages(pfns, { node = 1 })
assert(r.moved == 16 and r.failed == 0 and r.pinned == 0 and r.not_movable == 1 and r.untried == 0,
  string.format("moved %d failed %d not_movable %d", r.moved, r.failed, r.not_movable))
for i = 0, 15 do
  local pfn = p:follow_page(addr + i * 4096)
  assert(pfn ~= pfns[i + 1] and m:page(pfn).node == 1, "page " .. i .. " not on node 1")
  assert(m:page(pfns[i + 1]).kind ~= "alloc", "old frame still allocated")
end
assert(m:page(kernel).kind == "alloc")
m:read_file{ file = 5, pages = 1, index = 9 }
local file_pfn
for pfn = 0, 2 * 131072 - 1 do
  local pg = m:page(pfn)
  if pg.kind == "alloc" and pg.owner == (4 << 28 | 5) then file_pfn = pfn break end
end
assert(file_pfn, "file page not found")
r = m:migrate_pages({ file_pfn }, { node = 1 })
assert(r.moved == 1, "file page did not move")
local vm = vmstat(m)
assert(vm.pgmigrate_success == 17 and vm.pgmigrate_fail == 0,
  "pgmigrate_success " .. tostring(vm.pgmigrate_success))
m:check_invariants()

-- Every anonymous page pinned: nothing moves, all counted as failures.
local pm = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "512M",
  pinned_share = 1 }
local pp = pm:process()
local pa = pp:mmap("16K")
pp:touch(pa, "16K")
local pinned = {}
for i = 0, 3 do pinned[#pinned + 1] = pp:follow_page(pa + i * 4096) end
assert(pm:page(pinned[1]).pinned == true)
r = pm:migrate_pages(pinned, { node = 1 })
assert(r.moved == 0 and r.pinned == 4 and r.failed == 4, "pinned pages moved")
assert(pp:follow_page(pa) == pinned[1])
assert(vmstat(pm).pgmigrate_fail == 4)
pm:check_invariants()

local ok, err = pcall(mmsim.machine, { preset = "test", pinned_share = 2 })
assert(not ok and err:find("pinned_share"), err)
print(string.format("ok: migrate: 17 pages moved to node 1, 4 pinned pages stayed"))
