-- Memory hot-remove racing 2 MiB faults under spb (issue 34 item 4): two
-- threads mix 2 MiB touches of a 3 GiB mapping (1 GiB of it madvised for
-- THPs) with m:offline_memory of node 0's top 128 MiB.  Splitting a free
-- block of two pageblocks or more marks each of them used, also the half
-- that expand gives back whole; offlining such a pageblock once aborted on
-- the assertion in remove_pfn_range_from_zone.  Now the blocks go offline
-- with the superpageblock counts right.
local M, G = 2 << 20, 1 << 30
local offlined, busy = 0, 0
do
  local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G",
    policy = "spb", memory_block_size = "128M", boot_reserve = false,
    thp = { ["2048kB"] = "madvise", ["1048576kB"] = "madvise" } }
  local managed = m:info().managed_pages
  local p = m:process()
  local a = p:mmap("3G")
  p:madvise((a + G - 1) & ~(G - 1), G, "hugepage")
  local gone = 0
  for cpu = 0, 1 do
    m:spawn{ cpu = cpu, fn = function()
      for _ = 1, 40 do
        if math.random() < 0.5 then
          p:touch(a + math.floor(math.random() * 1535) * M, M)
        else
          local r = m:offline_memory{ node = 0, size = "128M", timeout = "2ms" }
          if r then
            gone = gone + r
            offlined = offlined + 1
          else
            busy = busy + 1
          end
        end
      end
    end }
  end
  m:run()
  assert(m:info().managed_pages == managed - gone // 4096)
  m:check_invariants()
end
assert(offlined > 0 and busy > 0, offlined .. " blocks offlined, " .. busy .. " busy")
