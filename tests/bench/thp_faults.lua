-- `make bench`: THP faults per wall-clock second through the full simulated
-- path (threads, the engine, the allocator, the page tables).  On the test
-- machine (8 GiB, 4 CPUs) each CPU's process maps and touches `gib` GiB
-- at a 1 GiB boundary, then unmaps it, `rounds` times: with size=2M every
-- fault maps a 2 MiB THP (1 GiB THPs off), with size=1G a 1 GiB THP.
local P = mmsim.params{ size = "2M", rounds = 16, gib = 1 }
assert(P.size == "2M" or P.size == "1G", "size is 2M or 1G")
local m = mmsim.machine{ preset = "test", boot_reserve = false,
  thp = { ["2048kB"] = "always", ["1048576kB"] = P.size == "1G" and "always" or "never" } }
local G = 1 << 30
local faults = 0
for cpu = 0, m:info().cpus - 1 do
  m:spawn{ cpu = cpu, name = "fault" .. cpu, fn = function()
    local p = m:process()
    for _ = 1, P.rounds do
      local a = p:mmap((P.gib + 1) * G)
      local h = (a + G - 1) & ~(G - 1)
      for off = 0, P.gib * G - 1, P.size == "1G" and G or 2 << 20 do
        p:touch(h + off, 4096)
        faults = faults + 1
      end
      p:munmap(a, (P.gib + 1) * G)
    end
    p:exit()
  end }
end
local t0 = os.clock()
m:run()
local wall = os.clock() - t0
local thp = tonumber(m:vmstat():match("thp_fault_alloc (%d+)"))
assert(thp == faults, string.format("%d THP faults of %d", thp, faults))
print(string.format("%s THP faults: %d in %.3f s: %.0f faults/s (%.1f GiB/s mapped)", P.size,
  faults, wall, faults / wall, faults * (P.size == "1G" and 1 or 1 / 512) / wall))
