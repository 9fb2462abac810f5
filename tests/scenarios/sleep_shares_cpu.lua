-- Two threads on one CPU that mostly sleep share it without waiting: in
-- fast-forward at a 4 ms horizon, a thread sleeping 3 ms between bits of
-- work and one sleeping 2.5 ms each complete their rounds over 1 s (331
-- and 396; a round lost where one found the other holding the CPU through
-- its sleep).  The page cache readers lost 17% of their reads that way
-- behind the kmem replay (engine_sleep settled only at the horizon, so a
-- short sleep kept its CPU).
local m = mmsim.machine{ preset = "test", sample_interval = "1s" }
local rounds = {}
for i, gap in ipairs({ "3ms", "2500us" }) do
  rounds[i] = 0
  m:spawn{ cpu = 0, name = "sleeper" .. i, fn = function()
    while true do
      mmsim.work("20us")
      rounds[i] = rounds[i] + 1
      mmsim.sleep(gap)
    end
  end }
end
m:run{ duration = "1s", timing = false, horizon = "4ms" }
print(string.format("rounds in 1 s: %d (3 ms sleeps), %d (2.5 ms sleeps)", rounds[1], rounds[2]))
-- Each round takes its sleep and 20 us of work, nothing more.
assert(math.abs(rounds[1] - 1e9 // 3020000) <= 2, "the 3 ms sleeper waited for the CPU")
assert(math.abs(rounds[2] - 1e9 // 2520000) <= 2, "the 2.5 ms sleeper waited for the CPU")
