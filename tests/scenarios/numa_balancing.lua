-- Automatic NUMA balancing with the kernel's defaults (scan delay 1 s,
-- scan_period_min 1 s, 256 MB per scan): two threads fill 64 MiB on
-- node 0, move to node 1's CPUs at 2.5 s and keep touching their halves
-- every 20 ms.
--
-- The prediction.  64 MiB is one 256 MB scan window, so task_scan_min is
-- 1000 ms and each scan covers the whole address space:
--   1.0 s  first scan (the scan delay); no hinting fault came before it,
--          so the period doubles to 2000 ms;
--   2.0 s  the pages' hinting faults since 1.0 s were all local: the
--          period grows by 3 tenths (7 in 10 local is the threshold) to 2600 ms;
--   2.5 s  the threads move;
--   4.0 s  every page faults from node 1 once: its last node was 0, so
--          the two-fault filter keeps it (and records node 1);
--   6.6 s  after the 2600 ms period every page faults from node 1 again
--          and moves (the 4.0 s pass had grown the period to 3380 ms; the
--          remote faults now cut it by 7 tenths).
-- So at 6.5 s no page has moved, and by 7 s every page has (the 20 ms
-- touch loop reaches every page within one pass; the test allows 5% less).
local MB = 1048576
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "512M",
                         numa_balancing = true }
local p = m:process()
local size = 64 * MB
local a = p:mmap(size)
local function on_node(node)
  local n = 0
  for i = 0, size // 4096 - 1 do
    if m:page(p:follow_page(a + i * 4096)).node == node then n = n + 1 end
  end
  return n
end
local pages = size // 4096
local at_6500, moved_cpu = nil, {}

for t = 0, 1 do
  m:spawn{ cpu = t, fn = function()
    local half = a + t * size // 2
    assert(p:touch(half, size // 2) == pages // 2)
    while mmsim.now() < 7e9 do
      if mmsim.now() >= 2.5e9 and mmsim.cpu() == t then
        mmsim.migrate_thread(2 + t)
        moved_cpu[t] = mmsim.cpu()
      end
      p:touch(half, size // 2)
      mmsim.sleep("20ms")
    end
  end }
end
m:spawn{ cpu = 3, fn = function()
  mmsim.sleep("6.5s")
  at_6500 = on_node(1)
end }
m:run()
local vm = {}
for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
assert(moved_cpu[0] == 2 and moved_cpu[1] == 3)
assert(at_6500 == 0, at_6500 .. " pages on node 1 at 6.5 s, none expected")
local on1 = on_node(1)
assert(on1 >= pages * 0.95, on1 .. " of " .. pages .. " pages on node 1 at the end")
assert(vm.numa_pages_migrated == on1 and vm.pgmigrate_success == on1,
  "numa_pages_migrated " .. vm.numa_pages_migrated .. ", on node 1 " .. on1)
-- Four passes marked every page (1.0, 2.0, 4.0 and 6.6 s) and each mark
-- was faulted on within 20 ms: two local faults per page (1.0 and 2.0 s,
-- on node 0) and two remote ones.
assert(vm.numa_pte_updates == 4 * pages, vm.numa_pte_updates)
assert(vm.numa_hint_faults == 4 * pages, vm.numa_hint_faults)
assert(vm.numa_hint_faults_local == 2 * pages, vm.numa_hint_faults_local)
m:check_invariants()
print("ok: numa balancing")
