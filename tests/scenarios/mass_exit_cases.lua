-- mass_exit on the test machine: 6 processes of 8 MiB on 3 CPUs (two a
-- CPU), living 1 ms, run by the C module or by the same steps in Lua
-- (-D impl=c|lua, -D live=); prints the figures both must give
-- (tests/scenarios/mass_exit_c.sh compares them).
local p = mmsim.params{ impl = "c", live = "1ms" }
local m = mmsim.machine{ preset = "test" }
local CPUS, BYTES, LIVE = { 0, 1, 2, 0, 1, 2 }, 8 * 1024 * 1024, mmsim.time(p.live)
local POLL_NS = 10000

local function snapshot()
  local info = m:info()
  return { zone = m:lock_stats().zone, pcp_pages = info.pcp_pages,
           freed_to_buddy = info.freed_to_buddy }
end

-- The processes of sim/workload_mass_exit.c, step for step.
local function lua_mass_exit()
  local stats = { processes = #CPUS, pages_touched = 0, pgtable_pages = 0, failed = 0,
                  live_ns = LIVE, exit_end_ns = 0, exit_ns = {}, pagesets_touched = {},
                  pagesets_before_exit = {} }
  local ready, done, before = 0, 0, nil
  m:phase("fault_in")
  for i, cpu in ipairs(CPUS) do
    m:spawn{ cpu = cpu, name = "exit" .. cpu, fn = function()
      local proc = assert(m:process())
      local a = assert(proc:mmap(BYTES))
      -- Read the count after the touch: other processes add theirs meanwhile.
      local n = assert(proc:touch(a, BYTES))
      stats.pages_touched = stats.pages_touched + n
      stats.pgtable_pages = stats.pgtable_pages + proc:stats().pgtable_pages
      stats.pagesets_touched[i] = m:pagesets(cpu)
      ready = ready + 1
      if ready == #CPUS then
        stats.touch_end_ns = mmsim.now()
        stats.exit_start_ns = stats.touch_end_ns + math.max(LIVE, POLL_NS)
        m:phase("live")
      end
      while not stats.exit_start_ns do mmsim.sleep(POLL_NS) end
      mmsim.sleep(stats.exit_start_ns - mmsim.now())
      stats.pagesets_before_exit[i] = m:pagesets(cpu)
      if not before then
        before = snapshot()
        m:phase("exit")
      end
      proc:exit()
      stats.exit_ns[i] = mmsim.now() - stats.exit_start_ns
      stats.exit_end_ns = math.max(stats.exit_end_ns, mmsim.now())
      done = done + 1
      if done == #CPUS then
        m:phase()
        local after, sorted, time = snapshot(), table.move(stats.exit_ns, 1, #CPUS, 1, {}), 0
        table.sort(sorted)
        for _, ns in ipairs(sorted) do time = time + ns end
        local wait = after.zone.wait_ns_total - before.zone.wait_ns_total
        -- The processes are the only threads that are not the kernel's.
        local waiting = after.zone.waiting_ns - before.zone.waiting_ns
        stats.exit = {
          slowest_ns = sorted[#CPUS], median_ns = (sorted[#CPUS // 2] + sorted[#CPUS // 2 + 1]) // 2,
          zone_lock = { acquisitions = after.zone.acquisitions - before.zone.acquisitions,
                        contentions = after.zone.contentions - before.zone.contentions,
                        wait_ns_total = wait,
                        hold_ns_total = after.zone.hold_ns_total - before.zone.hold_ns_total,
                        wait_ms_per_process = wait / #CPUS / 1e6,
                        wait_share = time > 0 and waiting / time or 0 },
          pages_freed = stats.pages_touched + stats.pgtable_pages,
          pages_to_buddy = after.freed_to_buddy - before.freed_to_buddy,
          pages_kept_on_pcp = after.pcp_pages - before.pcp_pages,
        }
      end
    end }
  end
  return stats
end

local s
if p.impl == "c" then
  s = require("mmsim.mass_exit").start(m, { cpus = CPUS, mib = BYTES >> 20, live = LIVE }).stats
else
  s = lua_mass_exit()
end
m:run()
local e, l, info = s.exit, m:lock_stats(), m:info()
local line = string.format("processes=%d touched=%d pgtables=%d failed=%d live=%d touch_end=%d "
  .. "exit_start=%d exit_end=%d", s.processes, s.pages_touched, s.pgtable_pages, s.failed,
  s.live_ns, s.touch_end_ns, s.exit_start_ns, s.exit_end_ns)
for i = 1, #CPUS do
  local t, b = s.pagesets_touched[i], s.pagesets_before_exit[i]
  line = line .. string.format(" exit%d=%d", i, s.exit_ns[i])
  for k = 1, #t do
    line = line .. string.format(" %d%s:%d/%d/%d/%d/%d->%d/%d", t[k].node, t[k].zone, t[k].count,
      t[k].high, t[k].high_min, t[k].high_max, t[k].batch, b[k].count, b[k].high)
  end
end
line = line .. string.format(" slowest=%d median=%d freed=%d to_buddy=%d kept=%d", e.slowest_ns,
  e.median_ns, e.pages_freed, e.pages_to_buddy, e.pages_kept_on_pcp)
for _, k in ipairs({ "acquisitions", "contentions", "wait_ns_total", "hold_ns_total",
                     "wait_ms_per_process", "wait_share" }) do
  line = line .. " " .. k .. "=" .. tostring(e.zone_lock[k])
end
line = line .. string.format(" free_pages=%d time=%d", info.free_pages, l.time_ns)
for _, cls in ipairs({ "zone", "pcp", "lru", "ptl", "mmap" }) do
  line = line .. string.format(" %s=%d/%d/%d", cls, l[cls].acquisitions, l[cls].contentions,
    l[cls].wait_ns_total)
end
print(line)
