-- mmsim.migrate_thread takes the thread off its old CPU's run queue: a
-- thread started later on that CPU runs (it waited for good when the mover
-- stayed the old CPU's current thread), and on the new CPU the mover
-- queues behind the thread running there.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "256M" }
local late_at, mover_back_at
m:spawn{ cpu = 2, name = "busy", fn = function() mmsim.work(50000) end }
m:spawn{ cpu = 0, name = "mover", fn = function()
  mmsim.migrate_thread(2)
  -- CPU 2 is busy for 50 us: the mover's turn starts after it.
  mover_back_at = mmsim.now()
  m:spawn{ cpu = 0, name = "late", fn = function() late_at = mmsim.now() end }
  mmsim.sleep(10000)
end }
m:run{ duration = "1ms" }
assert(late_at, "a thread started on the CPU the mover left never ran")
assert(late_at < 100000, "late ran at " .. late_at .. " ns")
assert(mover_back_at >= 50000, "the mover ran on CPU 2 at " .. mover_back_at ..
       " ns, while busy held it until 50000 ns")
