-- NUMA migration: a multi-threaded process fills memory on node 0, its
-- threads move to node 1's CPUs, and automatic NUMA balancing pulls the
-- memory after them (task_numa_work's scan windows, hinting faults, the
-- two-fault filter, migrate_misplaced_folio).
--
-- The threads start on node 0's first CPUs, fault in their share of the
-- mapping, then touch it every `touch_every`; at `move_at` each moves to
-- the matching CPU of node 1 (mmsim.migrate_thread).  The kernel's
-- numa_balancing_* defaults apply unless overridden.  Printed: per-node
-- memory of the process before the move and at the end, and when the
-- first page, half and 90% of the pages had moved; timeseries.csv has
-- node0_used_pages, node1_used_pages and numa_pages_migrated per sample,
-- drawn in numa_migration.png (pages migrated per ms, each node's share of
-- zone->lock wait, each node's memory in use; the time after the move is
-- phase after_move).
--
--   ./run scenarios/numa-migration.lua -D size=2G -D threads=4
-- sweep-label: results.numa.node1_pages pages of the process on node 1 at the end (count)
-- sweep-label: results.numa.pages_migrated pages migrated by NUMA balancing (count)
-- sweep-label: results.numa.half_moved_ms time from the move until half the pages moved (ms)
-- sweep-label: results.numa.most_moved_ms time from the move until 90% of the pages moved (ms)
-- plots: numa_migration, lock_timeseries, cpu_wait
local p = mmsim.params{
  size = "512M",          -- the process's memory
  threads = 2,            -- threads, each touching size / threads
  move_at = "2.5s",       -- when the threads move to node 1
  duration = "8s",        -- simulated time
  touch_every = "20ms",   -- each thread's access period
  scan_size_mb = 256,     -- numa_balancing_scan_size_mb
}
local cpus = 4
local m = mmsim.machine{ sockets = 2, cpus_per_socket = cpus, mem_per_node = "2G",
  numa_balancing = true, numa_balancing_scan_size_mb = p.scan_size_mb,
  sample_interval = "50ms" }
assert(p.threads >= 1 and p.threads <= cpus, "threads must be 1 to " .. cpus)
local size = mmsim.size(p.size)
local pages = size // 4096
local share = size // p.threads // 4096 * 4096
local move_at, duration = mmsim.time(p.move_at), mmsim.time(p.duration)
local proc = m:process()
local a = proc:mmap(size)

local function process_pages()
  local per = { [0] = 0, [1] = 0 }
  for i = 0, pages - 1 do
    local pfn = proc:follow_page(a + i * 4096)
    if pfn then
      local n = m:page(pfn).node
      per[n] = per[n] + 1
    end
  end
  return per
end

local function migrated()
  return tonumber(m:vmstat():match("numa_pages_migrated (%d+)"))
end

local before
for t = 0, p.threads - 1 do
  m:spawn{ cpu = t, name = "worker" .. t, fn = function()
    local base = a + t * share
    proc:touch(base, share)
    while mmsim.now() < duration do
      if mmsim.now() >= move_at and mmsim.cpu() == t then
        mmsim.migrate_thread(cpus + t)
      end
      proc:touch(base, share)
      mmsim.sleep(p.touch_every)
    end
  end }
end
local first, half, most
m:spawn{ cpu = cpus - 1, name = "monitor", fn = function()
  mmsim.sleep(move_at - 1)
  before = process_pages()
  mmsim.sleep(1)
  m:phase("after_move")
  while mmsim.now() < duration do
    mmsim.sleep("10ms")
    local n = migrated()
    local t = (mmsim.now() - move_at) / 1e6
    if n > 0 and not first then first = t end
    if n >= pages / 2 and not half then half = t end
    if n >= pages * 0.9 and not most then most = t end
  end
end }
m:run()
local after = process_pages()
local function ms(t) return t and string.format("%.0f ms", t) or "never" end
print(string.format("before the move: node 0 %d pages, node 1 %d pages", before[0], before[1]))
print(string.format("at the end:      node 0 %d pages, node 1 %d pages", after[0], after[1]))
print(string.format("after the move: first page moved at %s, half at %s, 90%% at %s",
  ms(first), ms(half), ms(most)))
local vm = {}
for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
print(string.format("numa_pte_updates %d, numa_hint_faults %d (local %d), numa_pages_migrated %d",
  vm.numa_pte_updates, vm.numa_hint_faults, vm.numa_hint_faults_local, vm.numa_pages_migrated))
mmsim.result("numa.node1_pages", after[1])
mmsim.result("numa.pages_migrated", vm.numa_pages_migrated)
mmsim.result("numa.first_moved_ms", first or -1)
mmsim.result("numa.half_moved_ms", half or -1)
mmsim.result("numa.most_moved_ms", most or -1)
