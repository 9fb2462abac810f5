-- p:exit() while others still work in the process is an error, not a use
-- of freed memory: a workload's threads between two m:run calls, and a
-- thread inside p:touch (a 1 GiB range, exit tried 50 us in).  Once they
-- are done, the exit goes through.
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G" }
local jc = require("mmsim.jemalloc_churn").start(m, {
  cpus = { 0, 1 }, sizes = { { size = "64K", weight = 1 } }, live_mib = 4,
  remote_share = 0.3, decay = "1ms", work = "20us", until_ns = 2e6 })
m:run{ duration = "1ms" }
local ok, e = pcall(jc.process.exit, jc.process)
assert(not ok and e:find("exit: 2 thread%(s%) still work in the process"), tostring(e))
m:run()
jc.process:exit()

local p = m:process()
local a = p:mmap("1G")
local err
m:spawn{ cpu = 0, fn = function() p:touch(a, "1G") end }
m:spawn{ cpu = 1, fn = function()
  mmsim.sleep(50000)
  local ok2, e2 = pcall(p.exit, p)
  assert(not ok2)
  err = e2
end }
m:run()
assert(err and err:find("exit: 1 thread%(s%) still work in the process"), tostring(err))
assert(p:stats().rss == 262144, "the touch was cut short: " .. p:stats().rss)
p:exit()
m:check_invariants()
