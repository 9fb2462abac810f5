-- kswapd runs when the allocator wakes it, not because a zone is below
-- its low watermark: on a 1 GiB node (ZONE_DMA32, then ZONE_DMA on the
-- zonelist) reading files until DMA32 is below low leaves kswapd asleep
-- while ZONE_DMA still serves the reads at the low watermark; once DMA
-- fails too, the slow path wakes it and it reclaims until DMA32 is back
-- at its high watermark.  One thread does it all: the kernel threads live
-- as long as the run's first workload thread.
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "1G", thp = false }
local function vmstat()
  local vm = {}
  for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
  return vm
end
local function zone(name)
  for _, z in ipairs(m:zones()) do if z.name == name then return z end end
end

m:spawn{ cpu = 1, fn = function()
  local z = zone("DMA32")
  assert(m:read_file{ file = 1, pages = z.free - z.low + 1024 } > 0)
  z = zone("DMA32")
  assert(z.free < z.low, string.format("DMA32 free %d, low %d", z.free, z.low))
  assert(zone("DMA").free < zone("DMA").managed, "DMA served no read")
  assert(vmstat().pgscan_direct == 0, "a read had to reclaim")
  mmsim.sleep("5ms")
  assert(vmstat().pgscan_kswapd == 0, "kswapd ran without a wake-up")
  assert(zone("DMA32").free < zone("DMA32").low)

  -- Reading on until DMA fails its low watermark too: the slow path
  -- wakes kswapd, which brings DMA32 back to its high watermark.
  local file = 1
  while vmstat().pgscan_kswapd == 0 and file < 64 do
    file = file + 1
    m:read_file{ file = file, pages = 256 }
    mmsim.sleep("1ms")
  end
  assert(vmstat().pgscan_kswapd > 0, "kswapd was never woken")
  mmsim.sleep("5ms")
  z = zone("DMA32")
  assert(z.free >= z.high, string.format("DMA32 free %d, high %d", z.free, z.high))
end }
m:run()
m:check_invariants()
