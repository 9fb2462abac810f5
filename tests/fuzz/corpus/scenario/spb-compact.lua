local M, G = 2 << 20, 1 << 30
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G", policy = "spb",
  thp = { ["2048kB"] = "always" } }
local p = m:process()
local a = (p:mmap(2 * G) + G - 1) & ~(G - 1)
for off = 0, G - 1, 2 * M do p:touch(a + off, M) end
m:compact()
m:check_invariants()
