-- Memory hotplug: a node grows while a workload runs (superpageblock resize, commit 03139c56).
--
-- The machine boots with 6 GiB on each node and room to grow; every 10 ms
-- another memory block is onlined at the top of node 0's Normal zone while
-- a process keeps faulting memory in and kernel noise allocates. The zone's
-- span grows and, under policy spb, its superpageblock array is resized:
-- existing superpageblocks keep their state, new ones start reserved and
-- become empty as their pageblocks are initialised and freed, and then take
-- allocations. The debugfs view is printed before and after.
--
--   ./run scenarios/hotplug.lua -D policy=spb -D steps=6
--
-- plots: gb_yield, memory_map, spb_map
local p = mmsim.params{
  policy = "spb",
  steps = 4,              -- memory blocks to online
  block = "2G",           -- memory block size
  touch_mib = 1024,       -- memory the process faults in per step
}
local m = mmsim.machine{ mem_per_node = "6G", sockets = 2, cpus_per_socket = 4,
  policy = p.policy, hotplug_reserve = "16G", memory_block_size = p.block }
print("before:")
io.write(m:superpageblocks())
local before = m:info().managed_pages

local onlined = 0
m:spawn{ cpu = 0, name = "hotplug", fn = function()
  for _ = 1, p.steps do
    mmsim.sleep("10ms")
    onlined = onlined + m:online_memory{ node = 0, size = p.block }
  end
end }
m:spawn{ cpu = 1, name = "app", fn = function()
  local proc = m:process()
  for _ = 1, p.steps + 1 do
    local a = proc:mmap(p.touch_mib * 1048576)
    proc:touch(a, p.touch_mib * 1048576)
    mmsim.sleep("10ms")
  end
end }
require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = { 2 }, rate = 100,
  until_ns = mmsim.time("50ms") })
m:run()
print()
print("after:")
io.write(m:superpageblocks())
local after = m:info()
print(string.format("onlined %d MiB on node 0: managed pages %d -> %d", onlined >> 20, before,
  after.managed_pages))
mmsim.result("hotplug.onlined_mib", onlined >> 20)
