-- The engine forgets a process's locks when the process exits
-- (spin_lock_destroy): 200 short-lived processes, each with its mmap_lock
-- and the locks of the PTE tables of its 16 MiB, leave the engine's lock
-- records where one process left them.  Before, every process left its
-- nine behind and a simulated day grew by 330 MiB an hour.
local m = mmsim.machine{ preset = "test", sample_interval = "1s" }
require("mmsim.short_lived").start(m, { cpus = { 1 }, size = "16M", life = "200us",
  gap = "100us", until_ns = mmsim.time("1ms") })
m:run{ duration = "1ms", timing = false }
local one = m:lock_stats().lock_records
require("mmsim.short_lived").start(m, { cpus = { 1 }, size = "16M", life = "200us",
  gap = "100us", until_ns = mmsim.time("61ms") })
m:run{ duration = "60ms", timing = false }
local after = m:lock_stats().lock_records
print(string.format("lock records: %d after the first process, %d after about 200", one, after))
assert(one > 0 and after <= one + 2, "the exited processes' locks are still recorded")
