-- A database on 1 GiB THPs on node 0 is moved to node 1, then 1 GiB of
-- node 0 is hot-removed: what each node holds at each step (m:nodes()).
--
-- Two nodes of `node_mem`, each with `movable` of ZONE_MOVABLE at its top
-- (movable_per_node, as `movable_node` gives a hot-removable range): boot's
-- reservations (memmap, per-CPU areas) sit below it, so the top blocks can
-- go.  The database maps `gib` GiB with MADV_HUGEPAGE under 1 GiB THP
-- "madvise" and touches it from node 0's first CPU; p:migrate_pages({0},
-- {1}) moves it (gb_thp_migration: whole, split or block); then
-- m:offline_memory takes `offline` off the top of node 0.
--
--   ./run scenarios/db-move-offline.lua
--   ./run scenarios/db-move-offline.lua -D gb_thp_migration=split
local p = mmsim.params{
  node_mem = "8G",
  movable = "4G",             -- ZONE_MOVABLE at the top of each node
  gib = 2,                    -- the database's size, in 1 GiB THPs
  gb_thp_migration = "whole", -- whole, split or block
  offline = "1G",             -- hot-removed from the top of node 0
}
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { p.node_mem, p.node_mem },
  movable_per_node = p.movable, policy = "spb", gb_thp_migration = p.gb_thp_migration,
  thp = { ["1048576kB"] = "madvise" } }
local G = 1 << 30

local function show(step)
  print(step)
  print(string.format("  %-4s %9s %9s %9s %9s %10s %8s", "node", "free MiB", "anon MiB",
    "file MiB", "kern MiB", "unmov. pb", "1G free"))
  for _, n in ipairs(m:nodes()) do
    local kern = n.slab + n.kernel + n.pgtable
    print(string.format("  %-4d %9d %9d %9d %9d %10d %4d of %d", n.node,
      (n.free + n.pcp) // 256, n.anon // 256, n.file // 256, kern // 256,
      n.pageblocks.Unmovable, n.gb_yield.free_now, n.gb_yield.total_regions))
    mmsim.result(step .. ".node" .. n.node .. ".free_mib", (n.free + n.pcp) // 256)
    mmsim.result(step .. ".node" .. n.node .. ".anon_mib", n.anon // 256)
  end
end

local db = m:process()
local a = assert(db:mmap((p.gib + 1) * G))
a = (a + G - 1) & ~(G - 1)
assert(db:madvise(a, p.gib * G, "hugepage"))
local moved, offlined, reason
m:spawn{ cpu = 0, name = "db", fn = function()
  assert(db:touch(a, p.gib * G))
  show("touched")
  moved = db:migrate_pages({ 0 }, { 1 })
  show("moved")
  local ok, err, st = m:offline_memory{ node = 0, size = p.offline }
  offlined, reason = ok, st and st.reason or err
  show("offlined")
end }
m:run()
assert(m:check_invariants())
print(string.format("1 GiB mappings kept: %d of %d; migrate_pages moved %d pages, %d busy; "
  .. "offline of %s: %s", db:stats().thp_pud, p.gib, moved.moved, moved.busy, p.offline,
  offlined and string.format("%d MiB", offlined >> 20) or "EBUSY (" .. tostring(reason) .. ")"))
mmsim.result("gb_mappings_after", db:stats().thp_pud)
mmsim.result("moved_pages", moved.moved)
mmsim.result("offlined_mib", offlined and offlined >> 20 or 0)
