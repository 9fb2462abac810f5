-- m:lock_stats{since = ...}: the counters between two calls are the
-- differences of the whole-run figures, the share is the threads' waits
-- over their time in between, and a delta has no minima or maxima; since a phase
-- name gives the same as since the result taken when the phase began.
local m = mmsim.machine{ preset = "test", costs = { zone_section = 2000 } }
for cpu = 0, 3 do
  m:spawn{ cpu = cpu, fn = function()
    local held = {}
    while true do
      for i = 1, 64 do held[#held + 1] = m:alloc{ type = "movable", order = 4 } end
      while #held > 0 do m:free(table.remove(held, 1)) end
      mmsim.sleep("300ns")
    end
  end }
end
m:run{ duration = "200us" }
local t0 = m:lock_stats()
m:phase("second")
m:run{ duration = "200us" }
local t1 = m:lock_stats()
local d = m:lock_stats{ since = t0 }
local p = m:lock_stats{ since = "second" }
assert(t1.zone.acquisitions > t0.zone.acquisitions and t0.zone.acquisitions > 0)
assert(t1.time_ns > t0.time_ns)
for _, cls in ipairs{ "zone", "pcp" } do
  for _, k in ipairs{ "acquisitions", "contentions", "con_bounces", "acq_bounces",
                      "wait_ns_total", "hold_ns_total" } do
    assert(d[cls][k] == t1[cls][k] - t0[cls][k], cls .. "." .. k)
    assert(p[cls][k] == d[cls][k], "since the phase: " .. cls .. "." .. k)
  end
  assert(d[cls].wait_ns_max == nil and d[cls].hold_ns_min == nil)
  assert(t1[cls].wait_ns_max ~= nil)
end
assert(t1.zone.contentions > t0.zone.contentions, "the test needs contention")
local time = t1.thread_time_ns - t0.thread_time_ns
assert(d.thread_time_ns == time)
assert(d.zone.waiting_ns == t1.zone.waiting_ns - t0.zone.waiting_ns)
assert(p.zone.waiting_ns == d.zone.waiting_ns)
assert(math.abs(d.zone.wait_share - d.zone.waiting_ns / time) < 1e-12)
assert(d.zone.wait_share ~= t1.zone.wait_share)
-- Runs end with every thread at a safepoint, none waiting, and no kernel
-- thread waited: the waits in the shares are lock_stat's, unrounded.
assert(math.abs(d.zone.waiting_ns - d.zone.wait_ns_total) <= d.zone.contentions / 2)
-- A delta is no starting point: its thread time is not the run's; nor is
-- a result without the waits of its shares.
assert(not pcall(m.lock_stats, m, { since = d }))
t0.pcp.waiting_ns = nil
local ok, err = pcall(m.lock_stats, m, { since = t0 })
assert(not ok and err:find("'pcp.waiting_ns' is not a time", 1, true), err)
print("ok: lock_stats since")
