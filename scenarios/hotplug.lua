-- Memory hotplug: a node grows while a workload runs (superpageblock resize,
-- commit 03139c56), is used, then gives memory blocks back under load.
--
-- The machine boots with 6 GiB on each node and room to grow; every 10 ms
-- another memory block is onlined at the top of node 0 while a process
-- keeps faulting memory in and kernel noise allocates. The zone's span
-- grows and, under policy spb, its superpageblock array is resized:
-- existing superpageblocks keep their state, new ones start reserved and
-- become empty as their pageblocks are initialised and freed, and then take
-- allocations. The debugfs view is printed before and after.
--
-- Then, with the process still faulting and freeing memory and the kernel
-- noise still allocating, offline_blocks memory blocks are offlined from
-- node 0's top one at a time (offline_pages: isolate, drain, migrate the
-- movable pages to node 1, EBUSY on a kernel page), each timed. With
-- movable set, each node's top is a ZONE_MOVABLE of that size (the kernel's
-- movable_node/movablecore=): the onlined blocks join it, the process's
-- pages go there first and the kernel's never do. The memory map is
-- written before (memory_map-before_offline.png) and after
-- (memory_map-after_offline.png); results.hotplug.offline.* hold the
-- blocks offlined and busy and the time per block.
--
--   ./run scenarios/hotplug.lua -D policy=spb -D steps=6
--   ./run --sweep policy=upstream,spb --sweep movable=0,2G scenarios/hotplug.lua
--
-- plots: gb_yield, memory_map, spb_map
-- sweep-plot: y=results.hotplug.offline.ok
-- sweep-label: results.hotplug.offline.ok memory blocks offlined (count)
-- sweep-label: results.hotplug.offline.busy memory blocks left busy (count)
-- sweep-label: results.hotplug.offline.ms_per_block time to offline a block (ms)
-- sweep-label: results.hotplug.onlined_mib memory onlined (MiB)
local p = mmsim.params{
  policy = "spb",
  steps = 4,              -- memory blocks to online
  block = "2G",           -- memory block size
  touch_mib = 1024,       -- memory the process faults in per step
  offline_blocks = 3,     -- memory blocks to offline at the end, under load (0: none)
  movable = "0",          -- movable_per_node (0: no ZONE_MOVABLE)
}
local m = mmsim.machine{ mem_per_node = "6G", sockets = 2, cpus_per_socket = 4,
  policy = p.policy, hotplug_reserve = "16G", memory_block_size = p.block,
  movable_per_node = p.movable }
print("before:")
io.write(m:superpageblocks())
local before = m:info().managed_pages

local onlined = 0
local online_done = false
m:spawn{ cpu = 0, name = "hotplug", fn = function()
  for _ = 1, p.steps do
    mmsim.sleep("10ms")
    onlined = onlined + m:online_memory{ node = 0, size = p.block }
  end
  online_done = true
end }
local proc, app_done
m:spawn{ cpu = 1, name = "app", fn = function()
  proc = m:process()
  for _ = 1, p.steps + 1 do
    local a = proc:mmap(p.touch_mib * 1048576)
    proc:touch(a, p.touch_mib * 1048576)
    mmsim.sleep("10ms")
  end
  app_done = true
end }
local noise = require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = { 2 }, rate = 100,
  until_ns = p.offline_blocks == 0 and mmsim.time("50ms") or nil })

-- Offline under load: the process keeps a 256 MiB buffer cycling (faulted
-- in, unmapped) and the noise goes on until the last block is done.
local blocks = {}
if p.offline_blocks > 0 then
  local offline_done = false
  m:spawn{ cpu = 3, name = "offline", fn = function()
    while not (online_done and app_done) do mmsim.sleep("10ms") end
    m:phase("offline")
    m:snapshot_memory_map("before_offline")
    for i = 1, p.offline_blocks do
      local t0 = mmsim.now()
      local r, _, info = m:offline_memory{ node = 0, size = p.block }
      blocks[i] = { ok = r ~= nil, ms = (mmsim.now() - t0) / 1e6 }
      if not r then
        local pg = m:page(info.fail_pfn)
        blocks[i].reason = string.format("%s: pfn 0x%x, %s %s page, owner 0x%x", info.reason,
          info.fail_pfn, pg.kind, pg.type or "", pg.owner or 0)
      end
      mmsim.sleep("1ms")
    end
    m:snapshot_memory_map("after_offline")
    offline_done = true
    noise.stop()
  end }
  m:spawn{ cpu = 1, name = "app_churn", fn = function()
    while not (online_done and app_done) do mmsim.sleep("10ms") end
    while not offline_done do
      local a = proc:mmap("256M")
      proc:touch(a, "256M")
      mmsim.sleep("2ms")
      proc:munmap(a, "256M")
    end
  end }
end
m:run()
print()
print("after:")
io.write(m:superpageblocks())
local after = m:info()
print(string.format("onlined %d MiB on node 0: managed pages %d -> %d", onlined >> 20, before,
  after.managed_pages))
mmsim.result("hotplug.onlined_mib", onlined >> 20)
if p.offline_blocks > 0 then
  local ok, ms, ms_max = 0, 0, 0
  for i, b in ipairs(blocks) do
    print(string.format("offline block %d: %s in %.2f ms%s", i, b.ok and "offline" or "EBUSY",
      b.ms, b.ok and "" or " (" .. b.reason .. ")"))
    if b.ok then ok = ok + 1 end
    ms = ms + b.ms
    ms_max = math.max(ms_max, b.ms)
  end
  local zone = mmsim.size(p.movable) > 0 and "Movable" or "Normal"
  print(string.format("offlined %d of %d %s-zone blocks, %.2f ms per block (max %.2f ms)", ok,
    #blocks, zone, ms / #blocks, ms_max))
  mmsim.result("hotplug.offline.zone", zone)
  mmsim.result("hotplug.offline.blocks", #blocks)
  mmsim.result("hotplug.offline.ok", ok)
  mmsim.result("hotplug.offline.busy", #blocks - ok)
  mmsim.result("hotplug.offline.ms_per_block", ms / #blocks)
  mmsim.result("hotplug.offline.ms_max", ms_max)
end
