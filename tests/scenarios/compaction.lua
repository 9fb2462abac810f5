-- Compaction and gigantic pages through the Lua API on a 4 GiB node (its
-- DMA32 zone holds three whole 1 GiB ranges): m:compact merges the holes
-- a process left into order-10 blocks and says what it did; 1 GiB pages
-- come by migrating the process's pages out, until a page table or a
-- pinned page is in every range left; freed, they are free memory again.
local function vmstat(m)
  local vm = {}
  for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
  return vm
end

local function order10(m)
  local n = 0
  for line in m:buddyinfo():gmatch("[^\n]+") do
    local last = line:match("(%d+)%s*$")
    n = n + tonumber(last)
  end
  return n
end

local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G", thp = false,
  boot_reserve = false }
local p = m:process()
local addr = p:mmap("3G")
assert(p:touch(addr, "3G") == 3 * 262144)
-- Free the first half of every 2 MiB: no order-10 block can form.
for off = 0, 3 * 2^30 - 1, 2^21 do p:madvise(addr + off, "1M", "dontneed") end
m:drain()
local before = order10(m)
local r = m:compact()
local vm = vmstat(m)
assert(r.migrated > 100000 and r.failed == 0, "migrated " .. r.migrated)
assert(r.migrate_scanned == vm.compact_migrate_scanned and r.free_scanned == vm.compact_free_scanned)
assert(r.isolated == vm.compact_isolated and r.isolated >= 2 * r.migrated)
assert(vm.pgmigrate_success == r.migrated)
m:drain()
assert(order10(m) > before + 300, "order-10 blocks " .. before .. " -> " .. order10(m))
m:check_invariants()
-- A node that does not exist is an error, named as given (2^32 was read as
-- node 0, -1 as every node); node 0 alone is fine.
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok and tostring(err):find(pattern), tostring(err))
end
fails("compact: node 3 does not exist", m.compact, m, { node = 3 })
fails("compact: node %-1 does not exist %(the machine has nodes 0%-", m.compact, m, { node = -1 })
fails("compact: node 4294967296 does not exist", m.compact, m, { node = 4294967296 })
fails("alloc_gigantic: node %-1 does not exist", m.alloc_gigantic, m, { node = -1 })
fails("cpu 4294967296 does not exist", m.compact, m, { cpu = 4294967296 })
assert(m:compact{ node = 0 }.migrated >= 0)

-- Gigantic pages: the process is spread over the three ranges; each
-- range holding none of its page tables can be emptied.
local got = {}
while true do
  local pfn, st = m:alloc_gigantic{ node = 0 }
  if not pfn then assert(st == "ENOMEM") break end
  assert(pfn % 262144 == 0 and m:page(pfn).kind == "alloc")
  got[#got + 1] = pfn
end
assert(#got >= 1 and #got <= 3, "gigantic pages: " .. #got)
m:check_invariants()
for _, pfn in ipairs(got) do m:free_gigantic(pfn) end
assert(not pcall(m.free_gigantic, m, got[1]), "freed twice")
m:check_invariants()
p:exit()
m:drain()
m:check_invariants()

-- Every anonymous page pinned: no range can be taken from under them.
local pm = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G", thp = false,
  pinned_share = 1 }
local pp = pm:process()
local pa = pp:mmap("3600M")
assert(pp:touch(pa, "3500M") == 3500 * 256)
assert(pm:alloc_gigantic() == nil)
pm:check_invariants()

-- The 1GB yield measured: what m:alloc_gigantic gets, given back; the
-- pinned machine gets none.
local q = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "4G", thp = false }
local qp = q:process()
local qa = qp:mmap("2G")
qp:touch(qa, "2G")
local y = q:gb_yield{ attempt = true }
assert(y.obtained >= 1 and y.obtained <= 3 and y.pages_migrated > 0, "obtained " .. tostring(y.obtained))
assert(y.total_regions == 3 and y.time_ns == 0)
assert(q:alloc_gigantic() ~= nil, "the pages were not given back")
q:check_invariants()
assert(pm:gb_yield{ attempt = true }.obtained == 0)
assert(pm:gb_yield().obtained == nil)
