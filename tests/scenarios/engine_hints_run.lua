-- One workload on 4 CPUs for a few milliseconds (engine_hints.sh runs it
-- with the engine's hints on and off): prints /proc/vmstat, every lock
-- class's lock_stat figures and, last, simgrid_calls (the engine's own
-- work, which the hints are there to cut).
local p = mmsim.params{ wl = "sl", hints = true, mem = "8G", dur = "4ms",
                        quantum = 1000, horizon = 10000 }
local m = mmsim.machine{ preset = "test", policy = "upstream", node_mem = { p.mem },
                         engine_hints = p.hints, quantum_ns = p.quantum,
                         horizon_ns = p.horizon }
local cpus = { 0, 1, 2, 3 }
local U = mmsim.time(p.dur)
local log = {}   -- the Lua threads' shared table
local wl = {
  pf = function()
    require("mmsim.page_fault1").start(m, { cpus = cpus, size = 8 << 20, mode = "processes",
                                            until_ns = U })
  end,
  pft = function()
    require("mmsim.page_fault1").start(m, { cpus = cpus, size = 8 << 20, mode = "threads",
                                            until_ns = U })
  end,
  sl = function() require("mmsim.short_lived").start(m, { cpus = cpus, until_ns = U }) end,
  kn = function()
    require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = cpus, rate = 20000,
                                             until_ns = U })
  end,
  ks = function() require("mmsim.kernel_slab").start(m, { cpus = cpus, rate = 20000, until_ns = U }) end,
  net = function() require("mmsim.network").start(m, { cpus = cpus, rate = 20000, until_ns = U }) end,
  pc = function()
    require("mmsim.page_cache").start(m, { cpus = cpus, rate_mib_s = 2000, file_mib = 64,
                                           until_ns = U })
  end,
  me = function() require("mmsim.mass_exit").start(m, { cpus = cpus, mib = 16, live = "1ms" }) end,
  je = function() require("mmsim.jemalloc_churn").start(m, { cpus = cpus, until_ns = U }) end,
  -- Lua threads sharing one table: each appends its time to it after its
  -- bulk calls, and its next work depends on the table's length.
  lua = function()
    for _, c in ipairs(cpus) do
      m:spawn{ cpu = c, fn = function()
        local pr = m:process()
        while mmsim.now() < U do
          local a = pr:mmap(4 << 20)
          pr:touch(a, 4 << 20)
          pr:munmap(a, 4 << 20)
          log[#log + 1] = mmsim.now()
          mmsim.work(1000 + 1000 * (#log % 3))
        end
        pr:exit()
      end }
    end
  end,
}
assert(wl[p.wl], "engine_hints_run: no workload " .. p.wl)()
m:run()
io.write(m:vmstat())
local s = m:lock_stats()
for _, cls in ipairs({ "zone", "pcp", "lru", "ptl", "mmap" }) do
  local keys = {}
  for k in pairs(s[cls]) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do print(cls .. "." .. k, s[cls][k]) end
end
print("thread_time_ns", s.thread_time_ns, "time_ns", s.time_ns)
print("simgrid_calls", s.simgrid_calls)
