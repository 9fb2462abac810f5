-- A server's day, compressed: how much memory stays obtainable as 1 GiB
-- pages after a day of file serving and network traffic.
--
-- The day is 24 "hours" of duration/24 each.  All day, readers serve
-- small files (file_kib each: a dentry and an inode per file, the page
-- cache filling memory until kswapd and the shrinker reclaim it), the NIC
-- receives packets into page fragment blocks and skbuff heads (a rate
-- that peaks in the working hours, 8 to 20, and buffers that wait
-- net_lifetime to be read), the kernel makes its other objects (kmalloc,
-- threads' stacks, page tables: kernel_noise's mix), and a jemalloc
-- application churns on the remaining CPUs.  Every hour, a batch of
-- short-lived jobs (cron, log rotation, backups) starts: a process with a
-- few threads, its memory touched, gone after a while.  At the end: the 1
-- GiB yield and the memory map, per policy.
--
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' scenarios/server-day.lua
--
-- Every hour runs timed by default.  -D night_timing=false runs the night
-- hours (0 to 8), where only the allocations' placement matters, in
-- fast-forward (m:run{timing = false}: no lock waits, README), so a longer
-- day costs less wall time; the day's lock figures then come from the
-- hours 8 to 24 alone.
--
-- sweep-label: results.spread.unmovable_pageblock_share pageblocks holding run-time unmovable pages (%)
-- sweep-label: results.spread.unmovable_memory_share memory in run-time unmovable pages (%)
-- sweep-label: results.spread.nonmovable_pageblock_share pageblocks holding run-time unmovable or reclaimable pages (%)
-- sweep-label: results.spread.nonmovable_memory_share memory in run-time unmovable or reclaimable pages (%)
-- sweep-label: results.spread.unmovable_regions 1 GiB regions holding an unmovable page (count)
-- sweep-label: results.jobs jobs started (count)
-- sweep-label: results.packets network packets received (count)
-- plots: gb_yield, memory_map, spb_map
local p = mmsim.params{
  policy = "upstream",
  sockets = 2,
  mem_per_node = "4G",
  cpus_per_socket = 8,
  duration = "160ms",   -- the whole day
  read_mib_s = 50000,   -- file serving rate per reader
  file_kib = 1024,       -- size of a served file
  net_rate = 300,       -- packets per ms per kernel CPU at the peak (a third at night)
  net_lifetime = "3ms", -- mean time a receive buffer waits to be read
  kernel_rate = 400,    -- kernel_noise events per ms per kernel CPU
  jobs = 8,             -- short-lived processes started every hour
  churn_mib = 32,       -- jemalloc live set per thread
  night_timing = true,  -- false: hours 0 to 8 in fast-forward
  gb_yield_attempt = true, -- at the end, take every 1 GiB page alloc_contig gets (gb_yield.obtained)
  -- The kernel's periods divided by this: the readers' 50,000 MiB/s are
  -- about 500 times a real server's (the day's clock, 540,000 times, is
  -- not a rate the kernel's daemons keep pace with).
  time_scale = 500,
}
local m = mmsim.machine{
  sockets = p.sockets, cpus_per_socket = p.cpus_per_socket, mem_per_node = p.mem_per_node,
  policy = p.policy, sample_interval = "5ms", gb_yield_attempt = p.gb_yield_attempt,
  time_scale = p.time_scale,
}
local stop = mmsim.time(p.duration)
-- A day in milliseconds.
mmsim.time_compressed(true)
local hour = stop // 24
local churn, readers, kernel, procs = require("mmsim.aging_roles").split(m, p.sockets,
  { procs = true })

require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s,
  file_mib = p.file_kib / 1024, until_ns = stop })
local net = require("mmsim.network").start(m, { cpus = kernel, lifetime = p.net_lifetime,
  rate = function(now)
    local h = now // hour % 24
    return (h >= 8 and h < 20) and p.net_rate or p.net_rate / 3
  end, until_ns = stop })
require("mmsim.kernel_noise").start(m, { cpus = kernel, rate = p.kernel_rate,
  mix = { kmalloc = 0.5, file = 0.2, thread = 0.1, pgtable = 0.2 }, until_ns = stop })
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
  decay = "10ms", work = "20us", until_ns = stop })

-- The hourly jobs, started together: each a process with 4 threads and
-- 2 MiB touched, living up to half an hour.
local jobs = 0
local function job()
  local proc = m:process()
  if not proc then return end
  jobs = jobs + 1
  for _ = 1, 3 do proc:clone() end
  local a = proc:mmap("2M")
  proc:touch(a, "2M")
  mmsim.sleep(hour * math.random() / 2)
  proc:exit()
end
for i, cpu in ipairs(procs) do
  m:spawn{ cpu = cpu, name = "cron" .. cpu, fn = function()
    for h = 0, 23 do
      mmsim.sleep(math.max(h * hour - mmsim.now(), 0))
      for j = i, p.jobs, #procs do
        m:spawn{ cpu = cpu, name = "job" .. h .. "." .. j, fn = job }
      end
    end
  end }
end

for h = 1, 23 do
  m:run{ ["until"] = h * hour, timing = p.night_timing or h > 8 }
  if h == 12 then m:snapshot_memory_map("noon") end
end
m:run{ expected_end = stop }

local y = m:gb_yield()
print(string.format("server-day, %s, %s: of %d possible 1 GiB regions, %d free, %d movable-only "
  .. "(gb_yield.obtained, in the summary, is what alloc_contig gets)", p.policy, p.duration,
  y.possible, y.free_now, y.movable_only))
print(string.format("page cache %d pages, jemalloc %d objects, %d packets, %d jobs",
  m:info().file_pages, jc.stats.objects, net.stats.packets, jobs))
require("mmsim.kernel_report").report(m)
require("mmsim.kernel_report").memory(m)
mmsim.result("jobs", jobs)
mmsim.result("packets", net.stats.packets)
