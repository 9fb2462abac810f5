local G = 1 << 30
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "4G",
  boot_reserve = false, memory_block_size = "128M", gb_thp_migration = "whole",
  movable_per_node = "3G", thp = { ["1048576kB"] = "always" } }
local p = m:process()
p:set_mempolicy{ policy = "bind", nodes = { 1 } }
local a = (p:mmap(4 * G) + G - 1) & ~(G - 1)
p:touch(a, 3 * G)
p:fork()
m:offline_memory{ node = 1, size = "2G" }
m:check_invariants()
