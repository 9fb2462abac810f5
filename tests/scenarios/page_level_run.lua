-- tests/scenarios/page_level.sh's aged machine: scenarios/aging.lua's
-- machine and workloads, small, aged in fast-forward at a level, then its
-- figures on one line.
local p = mmsim.params{ level = "page", age = "200ms", mem = "4G", cpus = 8, read_mib_s = 2000 }
local m = mmsim.machine{ sockets = 2, cpus_per_socket = p.cpus, mem_per_node = p.mem,
  sample_interval = "5ms", time_scale = 1000, page_owner = true }
local age = mmsim.time(p.age)
local churn, readers, kernel, procs = require("mmsim.aging_roles").split(m, 2, { procs = true })
require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s, until_ns = age })
local noise = require("mmsim.kernel_noise").start(m, { cpus = kernel, rate = 1000, until_ns = age })
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = 64, decay = "10ms",
  until_ns = age })
require("mmsim.short_lived").start(m, { cpus = procs, size = "16M", life = "200us", gap = "500us",
  until_ns = age })
m:run{ ["until"] = age, timing = false, level = p.level }
m:check_invariants()
local y, sp, s, slab = m:gb_yield(), m:pageblock_spread(), jc.stats, m:slab_stats()
local ages = m:page_owner_ages("unmovable")
local blocks = {}
for line in m:pagetypeinfo():gmatch("[^\n]+") do
  local node, zone, counts = line:match("^Node%s+(%d+), zone%s+(%S+)%s+([%d%s]+)$")
  if node then blocks[#blocks + 1] = node .. ":" .. zone .. ":" .. counts:gsub("%s+", ",") end
end
print(string.format("level=%s faulted=%d purged=%d rss=%d free_now=%d movable_only=%d "
  .. "unmovable_pageblocks=%d unmovable_pages=%d nonmovable_pageblocks=%d slab_pages=%d "
  .. "kernel_freed=%d slab_freed=%d age_mean_us=%.0f age_p10_us=%.0f age_p50_us=%.0f "
  .. "age_p90_us=%.0f", p.level,
  s.faulted_pages, s.purged_pages, jc.process:stats().rss, y.free_now, y.movable_only,
  sp.unmovable_pageblocks, sp.unmovable_pages, sp.nonmovable_pageblocks, slab.slab_pages,
  noise.stats.freed, slab.slab_pages_freed, ages.mean_ns / 1e3, ages.p10_ns / 1e3,
  ages.p50_ns / 1e3, ages.p90_ns / 1e3))
print("blocks " .. table.concat(blocks, " "))
