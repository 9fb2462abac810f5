-- A resume of a coroutine asleep inside another thread fails and leaves it
-- that thread's: mmsim.cpu() in it still says the CPU of the thread
-- that runs it (the failed resume once handed it the caller's context).
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "256M" }
local co = coroutine.create(function()
  mmsim.sleep(100000)
  return mmsim.cpu()
end)
local cpu_in_a
m:spawn{ cpu = 0, name = "a", fn = function()
  local ok, cpu = coroutine.resume(co)
  assert(ok, cpu)
  cpu_in_a = cpu
end }
local err
m:spawn{ cpu = 3, name = "b", fn = function()
  mmsim.sleep(10000)
  local ok, e = coroutine.resume(co)
  assert(not ok)
  err = e
end }
m:run{ duration = "1ms" }
assert(err == "cannot resume non-suspended coroutine", tostring(err))
assert(cpu_in_a == 0, "the coroutine of thread a (CPU 0) ran on CPU " .. tostring(cpu_in_a))
