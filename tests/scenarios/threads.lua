-- Simulated threads: time, pinning, the vmstat worker's pageset decay, and
-- errors raised inside threads.
local m = mmsim.machine{ preset = "test" }
local normal = 3   -- DMA, DMA32, Normal
local peak, high_peak, seen_cpu, t_end

m:spawn{ cpu = 1, fn = function()
  seen_cpu = mmsim.cpu()
  local held = {}
  for i = 1, 3000 do held[i] = m:alloc{ type = "movable" } end
  for i = 1, 3000 do m:free(held[i]) end
  peak = m:pagesets(1)[normal].count
  high_peak = m:pagesets(1)[normal].high
  -- Idle for 12 s: the vmstat worker runs decay_pcp_high every second.
  mmsim.sleep(12e9)
  t_end = mmsim.now()
end }
local t = m:run()
assert(seen_cpu == 1)
assert(t_end >= 12e9 and t >= t_end, "run ended at " .. t)
local ps = m:pagesets(1)[normal]
assert(peak > ps.high_min, "the pageset filled above high_min: " .. peak)
-- Each pass lowers high by an eighth, never below high_min, and frees the
-- pages above it: twelve passes bring a high of 4000-8000 down to high_min.
assert(high_peak > ps.high_min and high_peak * (7 / 8) ^ 12 < ps.high_min,
  "high was " .. high_peak)
assert(ps.high == ps.high_min and ps.count == ps.high_min,
  "count " .. ps.count .. ", high " .. ps.high .. " after decay from " .. peak)
m:check_invariants()

-- A run can continue for a further duration; mmsim.now is per thread.
m:spawn{ cpu = 2, fn = function() mmsim.sleep("2ms") end }
local t2 = m:run{ duration = "5ms" }
assert(t2 == t + 5e6, "duration run ended at " .. t2 .. ", started at " .. t)

-- An error inside a thread stops the run with the thread's CPU and line.
m:spawn{ cpu = 3, fn = function() error("boom") end }
local ok, err = pcall(m.run, m)
assert(not ok and err:match("thread on CPU 3: .*threads.lua:%d+: boom"), err)
print("ok: threads")
