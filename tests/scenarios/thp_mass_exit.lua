-- Mass exit with THP always: 64 processes of 64 MiB each, one per CPU, map
-- their memory with 2 MiB THPs and exit at once.  The data comes back as
-- 64 x 32 = 2,048 order-9 frees and no 4 KiB free; only page tables are
-- freed as single pages.  With -D thp=never (thp_mass_exit_never.sh) the
-- same exit frees 1,048,576 single pages and no THP.
local p = mmsim.params{ thp = "always" }
assert(p.thp == "always" or p.thp == "never", "thp: always or never")
local cpus = {}
for c = 0, 63 do cpus[#cpus + 1] = c end
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 64, mem_per_node = "8G",
  thp = p.thp, boot_reserve = false }

local function thp_stat(name)
  return tonumber(m:transparent_hugepage():match("hugepages%-2048kB/stats/" .. name .. " (%d+)"))
end
local function vmstat(name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end

local before = m:info()
local ex = require("mmsim.mass_exit").start(m, { cpus = cpus, mib = 64, live = "10ms" })
m:run()
assert(ex.stats.pages_touched == 64 * 64 * 256, "pages touched " .. ex.stats.pages_touched)
local e = ex.stats.exit
local after = m:info()
assert(after.free_pages + after.pcp_pages == before.free_pages)
assert(m:check_invariants())
if p.thp == "never" then
  -- Each process: PGD, PUD, PMD and the 32 PTE tables its faults made.
  assert(vmstat("thp_fault_alloc") == 0 and vmstat("thp_fault_fallback") == 0)
  assert(ex.stats.pgtable_pages == 64 * 35, "page tables " .. ex.stats.pgtable_pages)
  assert(e.pages_freed == 64 * 64 * 256 + 64 * 35, "pages freed " .. e.pages_freed)
  assert(vmstat("nr_anon_transparent_hugepages") == 0)
  print(string.format("4 KiB mass exit: 1,048,576 single pages freed, slowest exit %d ns", e.slowest_ns))
  return
end
assert(vmstat("thp_fault_alloc") == 2048 and vmstat("thp_fault_fallback") == 0)
-- Each process: PGD, PUD, PMD and 32 deposited PTE tables.
assert(ex.stats.pgtable_pages == 64 * 35, "page tables " .. ex.stats.pgtable_pages)
assert(thp_stat("anon_free_whole") == 2048, "whole THP frees " .. thp_stat("anon_free_whole"))
assert(thp_stat("nr_anon") == 0 and vmstat("nr_anon_transparent_hugepages") == 0)
assert(thp_stat("split") == 0 and vmstat("thp_split_pmd") == 0)
-- Every page came back: the 2,048 order-9 blocks (2,048 x 512 = every data
-- page) and the 2,240 page tables, nothing else.
assert(e.pages_freed == 2048 * 512 + 64 * 35)
print(string.format("thp mass exit: 2048 THPs freed whole, slowest exit %d ns", e.slowest_ns))
