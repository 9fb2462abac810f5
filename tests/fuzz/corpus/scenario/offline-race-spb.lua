local M, G = 2 << 20, 1 << 30
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G",
  policy = "spb", memory_block_size = "128M", boot_reserve = false,
  thp = { ["2048kB"] = "madvise", ["1048576kB"] = "madvise" } }
local p = m:process()
local a = p:mmap("3G")
p:madvise((a + G - 1) & ~(G - 1), G, "hugepage")
for cpu = 0, 1 do
  m:spawn{ cpu = cpu, fn = function()
    for _ = 1, 40 do
      if math.random() < 0.5 then p:touch(a + math.floor(math.random() * 1535) * M, M)
      else m:offline_memory{ node = 0, size = "128M", timeout = "2ms" } end
    end
  end }
end
m:run()
m:check_invariants()
