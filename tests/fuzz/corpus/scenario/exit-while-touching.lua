local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G" }
local p = m:process()
local a = p:mmap("1G")
m:spawn{ cpu = 0, fn = function() p:touch(a, "1G") end }
m:spawn{ cpu = 1, fn = function() mmsim.sleep(50000); pcall(p.exit, p) end }
m:run()
