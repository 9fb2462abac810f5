-- m:run{timing = false, horizon = H}: a thread that only works settles once
-- per horizon of its own time, so over 20 ms two such threads make 400
-- SimGrid calls at the default 100 us and 40 at 1 ms (the kernel threads'
-- own calls come on top of both); the next fast-forward without one is
-- back at the default; a timed run refuses a horizon.  mmsim.horizon() in
-- a thread says each run's: 100 us, 1 ms, 100 us, 0 when timed.
local m = mmsim.machine{ preset = "test", sample_interval = "1s" }
local seen = {}
for cpu = 0, 1 do
  m:spawn{ cpu = cpu, name = "w" .. cpu, fn = function()
    while true do
      seen[#seen + 1] = mmsim.horizon()
      mmsim.work("10us")
    end
  end }
end

local function calls(o)
  local before = m:lock_stats().simgrid_calls
  m:run(o)
  return m:lock_stats().simgrid_calls - before
end

local default = calls{ duration = "20ms", timing = false }
local wide = calls{ duration = "20ms", timing = false, horizon = "1ms" }
local again = calls{ duration = "20ms", timing = false }
print(string.format("SimGrid calls in 20 ms: horizon 100 us %d, 1 ms %d, default again %d",
  default, wide, again))
assert(default >= 400, "a settle per 100 us per thread")
assert(default - wide >= 0.9 * 360, "a 1 ms horizon settles ten times less often")
assert(math.abs(again - default) * 10 < default, "the next fast-forward is back at 100 us")
local function horizons()
  local h = {}
  for _, v in ipairs(seen) do h[v] = true end
  seen = {}
  local list = {}
  for v in pairs(h) do list[#list + 1] = v end
  return table.concat(list, ",")
end
seen = {}
calls{ duration = "1ms", timing = false }
assert(horizons() == "100000")
calls{ duration = "1ms", timing = false, horizon = "1ms" }
assert(horizons() == "1000000")
calls{ duration = "1ms" }
assert(horizons() == "0")
assert(not pcall(mmsim.horizon), "mmsim.horizon outside a thread")
local ok, err = pcall(m.run, m, { duration = "1ms", horizon = "1ms" })
assert(not ok and err:match("'horizon' is fast%-forward's"), err)
