-- A run stops with every thread at a safepoint: between run slices the
-- machine is consistent (no critical section half done, no lock held), so
-- scenario code may allocate, drain and check it; a thread's error ends
-- the run even while another thread sleeps in a loop, and is raised once.
local m = mmsim.machine{ preset = "test" }
for cpu = 0, 3 do
  m:spawn{ cpu = cpu, fn = function()
    local held = {}
    while true do
      for i = 1, 64 do held[#held + 1] = m:alloc{ type = "movable", order = i % 4 } end
      while #held > 8 do m:free(table.remove(held, 1)) end
      mmsim.sleep("300ns")
    end
  end }
end
local last = 0
for i = 1, 30 do
  local t = m:run{ duration = "37us" }
  assert(t >= last + 37000, "run reached " .. t)
  last = t
  m:check_invariants()
  local p = assert(m:alloc{})
  m:drain()
  m:free(p)
  m:check_invariants()
end

-- On the first machine: a looping sleeper and a thread that fails.
m:spawn{ cpu = 0, fn = function() while true do mmsim.sleep("1us") end end }
m:spawn{ cpu = 1, fn = function() mmsim.sleep("10us"); error("thread failed") end }
local t0 = last
local ok, err = pcall(m.run, m)
assert(not ok and err:find("thread on CPU 1: .*run_slices.lua:%d+: thread failed"), err)
-- The run stopped near the error, not at a sleeper's far wake-up.
local now = m:run{ duration = "1us" }
assert(now < t0 + 100000, "stopped at " .. now .. " after " .. t0)
-- Raised once: later runs go on.
ok, err = pcall(m.run, m, { duration = "5us" })
assert(ok, err)
m:check_invariants()
print("run slices ok")
