-- m:sysctl: each write takes effect at once through the handler the kernel
-- runs for it, and bad writes are refused naming the known sysctls.
-- The 1 GiB node is all DMA32 (and DMA).
local function wmarks(m)
  local z = m:zoneinfo():match("Node 0, zone%s+DMA32(.-)\nNode") or
            m:zoneinfo():match("Node 0, zone%s+DMA32(.*)")
  return { min = tonumber(z:match("\n%s+min%s+(%d+)")), low = tonumber(z:match("\n%s+low%s+(%d+)")) }
end
local function dma32(m, cpu)
  for _, ps in ipairs(m:pagesets(cpu)) do
    if ps.zone == "DMA32" then return ps end
  end
end

-- No boot reservations: the watermark arithmetic below is worked on whole zones.
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "1G", thp = false,
                         compaction_proactiveness = 0, boot_reserve = false }
local v = m:sysctl()
assert(v["vm.percpu_pagelist_high_fraction"] == 0 and v["vm.watermark_scale_factor"] == 10)
assert(v["vm.compaction_proactiveness"] == 0 and v["vm.extfrag_threshold"] == 500)

-- percpu_pagelist_high_fraction: every zone's pagesets get high and batch
-- again (zone_pcp_update); 8 pins high at what auto-tuning allowed at most.
local auto = dma32(m, 3)
assert(auto.high_min < auto.high_max)
assert(m:sysctl{ ["vm.percpu_pagelist_high_fraction"] = 8 }["vm.percpu_pagelist_high_fraction"] == 8)
local fixed = dma32(m, 3)
assert(fixed.high_min == fixed.high_max and fixed.high_max == auto.high_max)
m:sysctl{ ["vm.percpu_pagelist_high_fraction"] = 64 }
assert(dma32(m, 3).high_max < fixed.high_max // 4)
m:sysctl{ ["vm.percpu_pagelist_high_fraction"] = 0 }
assert(dma32(m, 3).high_min == auto.high_min and dma32(m, 3).high_max == auto.high_max)

-- min_free_kbytes: the min watermarks scale with it (setup_per_zone_wmarks).
local w0 = wmarks(m)
m:sysctl{ ["vm.min_free_kbytes"] = 2 * v["vm.min_free_kbytes"] }
local w1 = wmarks(m)
assert(math.abs(w1.min - 2 * w0.min) <= 1, w0.min .. " -> " .. w1.min)
-- watermark_scale_factor: the gap from min to low is managed * factor / 10000.
m:sysctl{ ["vm.watermark_scale_factor"] = 1000 }
local w2 = wmarks(m)
assert(w2.min == w1.min and w2.low - w2.min > 5 * (w1.low - w1.min), (w1.low - w1.min) .. " -> "
  .. (w2.low - w2.min))
m:sysctl{ ["vm.watermark_boost_factor"] = 0, ["vm.extfrag_threshold"] = 100 }
v = m:sysctl()
assert(v["vm.watermark_boost_factor"] == 0 and v["vm.extfrag_threshold"] == 100)

-- Bad writes: nothing is written.
local ok, err = pcall(m.sysctl, m, { ["vm.swappiness"] = 60 })
assert(not ok and err:find("unknown sysctl 'vm.swappiness' %(known: vm.compaction_proactiveness,"), err)
ok, err = pcall(m.sysctl, m, { ["vm.percpu_pagelist_high_fraction"] = 4, ["vm.extfrag_threshold"] = 7 })
assert(not ok and err:find("vm.percpu_pagelist_high_fraction = 4: valid values 0 and 8 to"), err)
assert(m:sysctl()["vm.extfrag_threshold"] == 100)
ok, err = pcall(m.sysctl, m, { ["vm.watermark_scale_factor"] = "x" })
assert(not ok and err:find("must be an integer"), err)

-- compaction_proactiveness: at 0 kcompactd never compacts on its own;
-- writing 100 mid-run wakes it for a proactive pass at once, not at its
-- next 500 ms timeout.
local p = m:process()
local addr = p:mmap("900M")
assert(p:touch(addr, "900M") == 900 * 256)
for off = 0, 900 * 2^20 - 1, 2^21 do p:madvise(addr + off, "1M", "dontneed") end
m:drain()
local function scanned()
  return tonumber(m:vmstat():match("compact_daemon_migrate_scanned (%d+)"))
end
local before, after
m:spawn{ cpu = 1, fn = function()
  mmsim.sleep("20ms")
  before = scanned()
  m:sysctl{ ["vm.compaction_proactiveness"] = 100 }
  mmsim.sleep("20ms")
  after = scanned()
end }
m:run()
assert(before == 0, "kcompactd compacted at proactiveness 0")
assert(after > 0, "the write did not wake kcompactd")
m:check_invariants()
print(string.format("ok: sysctl handlers (%d pages scanned after the proactiveness write)", after))
