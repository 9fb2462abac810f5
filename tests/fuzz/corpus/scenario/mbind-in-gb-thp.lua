local G = 1 << 30
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "4G",
  thp = { ["2048kB"] = "always", ["1048576kB"] = "always" } }
local p = m:process()
local a = (p:mmap(2 * G) + G - 1) & ~(G - 1)
p:touch(a, G)
p:mbind(a + 8192, 4096, { policy = "bind", nodes = { 1 } })
p:mprotect(a + 8192, 4096, "r")
m:check_invariants()
