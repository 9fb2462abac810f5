-- 1 GiB THPs on an aged machine: how many a fault still gets, what the
-- page-table deposit costs, and what splitting them costs (seed 000, the
-- LSFMM session on Usama Arif's RFC; seed 007, its selftest).
--
-- The machine ages as scenarios/gigantic.lua's does (page cache reader,
-- kernel noise, a jemalloc application); then the workloads stop and one
-- process per CPU of the first socket maps `gib` GiB at a 1 GiB boundary and
-- touches it: each fault tries 1 GiB (alloc_contig_pages), then 2 MiB, then
-- 4 KiB. Then each process unmaps 2 MiB in the middle of every gigabyte, as
-- the selftest's partial munmap does: a 1 GiB mapping splits per `pud_split`
-- using its deposit (`thp_deposit`) or allocating the tables. Last, a thread
-- takes as many 1 GiB hugetlb pages as it can (m:alloc_gigantic), which
-- must get past the THPs per `gb_thp_migration` (block or split), and gives
-- them back.
--
--   ./run --sweep 'thp_deposit=full,pmd_only,none' --sweep 'pud_split=pte,pmd' \
--     scenarios/thp-1g.lua
--
-- draws, per deposit choice and split mode, the simulated time the munmaps
-- took (the slide's "split cost"); results.* also give the 1 GiB THPs
-- obtained, the fallbacks, the page tables (deposits included) and the 2 MiB
-- mappings left after the splits, and the gigantic pages had at the end.
-- sweep-plot: y=results.split_ms,x=thp_deposit,series=pud_split
-- sweep-label: results.split_ms time of the partial munmaps (ms)
-- sweep-label: results.fault_ms time of the faults (ms)
-- sweep-label: results.thp_1g 1 GiB THPs obtained by faults (count)
-- sweep-label: results.pgtable_kib page tables, deposits included (KiB)
-- plots: memory_map_gib
local p = mmsim.params{
  policy = "upstream",
  sockets = 1,
  cpus_per_socket = 8,
  mem_per_node = "16G",
  duration = "20ms",    -- aging
  read_mib_s = 50000,   -- page cache read rate
  noise_rate = 400,     -- kernel allocations per ms
  churn_mib = 64,       -- jemalloc live set per thread
  gib = 1,              -- GiB each process maps
  processes = 4,
  thp_deposit = "full",
  pud_split = "pte",
  thp_defrag = "madvise",
  gb_thp_migration = "block",
}
local m = mmsim.machine{
  sockets = p.sockets, cpus_per_socket = p.cpus_per_socket, mem_per_node = p.mem_per_node,
  policy = p.policy, sample_interval = "1ms",
  thp = { ["2048kB"] = "always", ["1048576kB"] = "always" },
  thp_deposit = p.thp_deposit, pud_split = p.pud_split, thp_defrag = p.thp_defrag,
  gb_thp_migration = p.gb_thp_migration,
}
local G, M2 = 1 << 30, 2 << 20
local stop = mmsim.time(p.duration)
-- The aging's rates (aging_roles) are far above a real machine's.
mmsim.time_compressed(true)
require("mmsim.aging_roles").start(m, p, stop)

local function vmstat(name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end
local function thp_stat(size, name)
  return tonumber(m:transparent_hugepage():match("hugepages%-" .. size .. "kB/stats/" .. name
    .. " (%d+)"))
end

local r = { thp_1g = 0, thp_2m = 0, pgtable_pages = 0, fault_ns = 0, split_ns = 0,
  split_enomem = 0, after_pmd = 0, after_pud = 0, done = 0 }
local splits_before
for i = 1, p.processes do
  m:spawn{ cpu = i - 1, name = "thp" .. i, fn = function()
    mmsim.sleep(stop - mmsim.now())
    if not splits_before then splits_before = vmstat("thp_split_pud") end
    local proc = assert(m:process())
    local a = assert(proc:mmap((p.gib + 1) * G))
    a = (a + G - 1) & ~(G - 1)
    local t0 = mmsim.now()
    assert(proc:touch(a, p.gib * G))
    r.fault_ns = r.fault_ns + (mmsim.now() - t0)
    local s = proc:stats()
    r.thp_1g, r.thp_2m = r.thp_1g + s.thp_pud, r.thp_2m + s.thp_pmd
    r.pgtable_pages = r.pgtable_pages + s.pgtable_pages
    t0 = mmsim.now()
    for g = 0, p.gib - 1 do
      if not proc:munmap(a + g * G + G // 2, M2) then r.split_enomem = r.split_enomem + 1 end
    end
    r.split_ns = r.split_ns + (mmsim.now() - t0)
    s = proc:stats()
    r.after_pmd, r.after_pud = r.after_pmd + s.thp_pmd, r.after_pud + s.thp_pud
    r.done = r.done + 1
  end }
end
local gigantic = 0
m:spawn{ cpu = p.processes % m:info().cpus, name = "hugetlb", fn = function()
  while r.done < p.processes do mmsim.sleep("1ms") end
  local pages = {}
  while true do
    local pfn = m:alloc_gigantic()
    if not pfn then break end
    pages[#pages + 1] = pfn
  end
  gigantic = #pages
  for _, pfn in ipairs(pages) do m:free_gigantic(pfn) end
end }
m:run{ expected_end = stop }
assert(r.done == p.processes)
assert(m:check_invariants())

mmsim.result("thp_1g", r.thp_1g)
mmsim.result("thp_1g_fallback", thp_stat(1048576, "anon_fault_fallback"))
mmsim.result("thp_2m", r.thp_2m)
mmsim.result("pgtable_kib", r.pgtable_pages * 4)
mmsim.result("fault_ms", r.fault_ns / 1e6)
mmsim.result("split_ms", r.split_ns / 1e6)
mmsim.result("thp_split_pud", vmstat("thp_split_pud") - splits_before)
mmsim.result("split_enomem", r.split_enomem)
mmsim.result("pmd_mappings_after", r.after_pmd)
mmsim.result("gigantic_after", gigantic)
print(string.format("thp-1g, %s, deposit %s, split to %s: %d of %d GiB as 1 GiB THPs "
  .. "(%d 2 MiB), page tables %d KiB, faults %.1f ms, splits %.2f ms, %d 2 MiB mappings "
  .. "left; %d gigantic pages after (%s)", p.policy, p.thp_deposit, p.pud_split, r.thp_1g,
  p.processes * p.gib, r.thp_2m, r.pgtable_pages * 4, r.fault_ns / 1e6, r.split_ns / 1e6,
  r.after_pmd, gigantic, p.gb_thp_migration))
