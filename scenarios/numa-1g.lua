-- 1 GiB THPs migrated between nodes (issue 10's numa-1g; the LSFMM
-- session's third question, seed 000): block them, split them, or move
-- them whole (`gb_thp_migration`).
--
-- A process on node 0's first CPU maps `gib` GiB at a 1 GiB boundary with
-- 1 GiB THPs on (`thp = "always"`, or `"madvise"` with MADV_HUGEPAGE) and
-- touches it: every gigabyte is a 1 GiB THP on node 0.  Then its memory
-- is sent to node 1 (`how`): by p:move_pages, by p:migrate_pages({0},
-- {1}), or by NUMA balancing after its thread moves to a CPU of node 1 at
-- `move_at`, touching its memory every `touch_every` until `duration`.
-- Measured: the 1 GiB mappings kept, the MiB copied (pgmigrate_success),
-- the simulated time the migration took (the call, or from the move until
-- every page is on node 1), the share of the pages on node 1, and node
-- 1's 1 GiB yield after (m:gb_yield: gigabytes wholly free, and those
-- migration could empty).  Under spb (the default here) the contiguous
-- allocator takes wholly free gigabytes first; upstream's first fit would
-- make the second gigabyte's fault move (or split) the first THP.
--
--   ./run --sweep 'gb_thp_migration=block,split,whole' \
--     --sweep 'how=move_pages,numa_balancing' scenarios/numa-1g.lua
--
-- sweep-plot: y=results.migrate_ms,x=gb_thp_migration,series=how
-- sweep-label: results.migrate_ms time to migrate the 1 GiB THPs (ms)
-- sweep-label: results.copied_mib memory copied (MiB)
-- sweep-label: results.gb_mappings_after 1 GiB mappings kept (count)
-- sweep-label: results.on_target_pct pages on node 1 (%)
local p = mmsim.params{
  gb_thp_migration = "whole",
  policy = "spb",          -- spb takes wholly free gigabytes first for 1 GiB folios
  how = "move_pages",      -- move_pages, migrate_pages or numa_balancing
  thp = "always",          -- hugepages-1048576kB/enabled: always or madvise
  gib = 2,                 -- GiB the process maps
  node_mem = "6G",         -- memory of each of the two nodes
  move_at = "1.5s",        -- numa_balancing: when the thread moves to node 1
  duration = "12s",        -- numa_balancing: simulated time
  touch_every = "200ms",   -- numa_balancing: the thread's access period
}
local hows = { move_pages = true, migrate_pages = true, numa_balancing = true }
assert(hows[p.how], "how: move_pages, migrate_pages or numa_balancing, not " .. tostring(p.how))
assert(p.thp == "always" or p.thp == "madvise", "thp: always or madvise, not " .. tostring(p.thp))
local numab = p.how == "numa_balancing"
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { p.node_mem, p.node_mem },
  policy = p.policy, thp = { ["2048kB"] = p.thp, ["1048576kB"] = p.thp },
  gb_thp_migration = p.gb_thp_migration, numa_balancing = numab }
local G = 1 << 30
local size = p.gib * G
local proc = m:process()
local a = assert(proc:mmap(size + G))
a = (a + G - 1) & ~(G - 1)
if p.thp == "madvise" then assert(proc:madvise(a, size, "hugepage")) end

local function vmstat(name)
  return tonumber(m:vmstat():match("\n" .. name .. " (%d+)\n"))
end
-- Pages of the mapping on node 1, one looked at per 64 KiB.
local function on_target()
  local n, k = 0, 0
  for off = 0, size - 1, 65536 do
    k = k + 1
    if m:page(proc:follow_page(a + off)).node == 1 then n = n + 1 end
  end
  return n / k
end

local r = {}
m:spawn{ cpu = 0, name = "app", fn = function()
  assert(proc:touch(a, size))
  r.gb_before = proc:stats().thp_pud
  r.copied0 = vmstat("pgmigrate_success")
  local t0 = mmsim.now()
  if p.how == "move_pages" then
    r.status = proc:move_pages(a, size, 1)
  elseif p.how == "migrate_pages" then
    r.status = proc:migrate_pages({ 0 }, { 1 })
  else
    local move_at, stop = mmsim.time(p.move_at), mmsim.time(p.duration)
    while mmsim.now() < stop do
      if mmsim.now() >= move_at and mmsim.cpu() == 0 then
        mmsim.migrate_thread(2)
        t0 = mmsim.now()
      end
      proc:touch(a, size)
      if mmsim.cpu() == 2 and not r.done_ns and on_target() == 1 then r.done_ns = mmsim.now() end
      mmsim.sleep(p.touch_every)
    end
  end
  r.migrate_ns = (r.done_ns or mmsim.now()) - t0
  r.gb_after, r.pmd_after = proc:stats().thp_pud, proc:stats().thp_pmd
  r.on_target = on_target()
  r.copied = vmstat("pgmigrate_success") - r.copied0
  r.yield = m:gb_yield{ node = 1 }
end }
m:run()
assert(m:check_invariants())

mmsim.result("gb_mappings_before", r.gb_before)
mmsim.result("gb_mappings_after", r.gb_after)
mmsim.result("pmd_mappings_after", r.pmd_after)
mmsim.result("copied_mib", r.copied * 4096 / 1048576)
mmsim.result("migrate_ms", r.migrate_ns / 1e6)
mmsim.result("migrated_all", r.on_target == 1 and 1 or 0)
mmsim.result("on_target_pct", r.on_target * 100)
mmsim.result("target_gb_free_after", r.yield.free_now)
mmsim.result("thp_migration_success", vmstat("thp_migration_success"))
mmsim.result("thp_migration_fail", vmstat("thp_migration_fail"))
mmsim.result("thp_migration_split", vmstat("thp_migration_split"))
-- The syscalls' page statuses (0 under NUMA balancing, which has none).
mmsim.result("pages_moved", r.status and r.status.moved or 0)
mmsim.result("pages_busy", r.status and r.status.busy or 0)
-- Node 1's gigabytes alloc_contig gets now (given back), after every
-- other figure is taken: its migrations move no counter above.
local obtained = m:gb_yield{ node = 1, attempt = true }.obtained
mmsim.result("target_gb_obtained_after", obtained)
print(string.format("numa-1g, %s, gb_thp_migration %s: %d of %d 1 GiB mappings kept, "
  .. "%.0f MiB copied in %.1f ms, %.0f%% of the pages on node 1; node 1 has %d free "
  .. "gigabytes after (%d obtained by alloc_contig)", p.how, p.gb_thp_migration, r.gb_after,
  r.gb_before, r.copied * 4096 / 1048576, r.migrate_ns / 1e6, r.on_target * 100,
  r.yield.free_now, obtained))
