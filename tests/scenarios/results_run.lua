-- A small run for tests/scenarios/results.sh: two CPUs allocate and free
-- on the test machine for `duration`, sampled every millisecond, and one
-- figure is recorded, and the 1 GiB attempt made at the end, so that every
-- key summary.json documents is there.
local p = mmsim.params{ policy = "upstream", duration = "5ms" }
local m = mmsim.machine{ preset = "test", policy = p.policy, gb_yield_attempt = true }
local pages = 0
for cpu = 0, 1 do
  m:spawn{ cpu = cpu, name = "churn" .. cpu, fn = function()
    local held = {}
    while true do
      for i = 1, 64 do held[i] = assert(m:alloc{ type = "movable" }) end
      m:free_batch(held)
      pages = pages + 64
      mmsim.sleep(20000)
    end
  end }
end
m:run{ duration = p.duration }
mmsim.result("churn.pages", pages)
