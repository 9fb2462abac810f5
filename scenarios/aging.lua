-- Aging: a server's memory over time, and how much of it stays obtainable
-- as 1 GiB pages.
--
-- A jemalloc-linked application churns on most CPUs, readers stream files
-- into the page cache until kswapd has to reclaim it, the kernel allocates
-- unmovable and reclaimable memory with lifetimes (some forever), and
-- processes come and go (their page tables, kernel objects and stacks are
-- unmovable allocations too).  The kernel's allocations are by default
-- (kernel=slab) kernel_noise's mix of the sources a real kernel's come
-- from: objects in SLUB caches (kmalloc, dentries and inodes the shrinker
-- frees), network buffers in page fragment blocks, threads' kernel stacks
-- and page tables; kernel=noise is the statistical source (pages of orders
-- 0-3, each freed on its own).  The kernel's allocations have a CPU of
-- their own on each socket, the short-lived processes another.  Upstream's
-- unmovable allocations land wherever a free block is and spread over most
-- 1 GiB regions; superpageblocks steer them into the regions already
-- tainted.
--
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' scenarios/aging.lua
--
-- The results folder has gb_yield.png (1 GiB regions free now / movable-only
-- / obtainable over time) and memory maps at a third, two thirds and the end
-- of the run (memory_map-*.png); the summary has results.spread.* (the share
-- of pageblocks holding unmovable pages against the unmovable share of
-- memory) and results.slab.* (slab pages pinned by under 10% live objects).
--
-- To age the machine for longer, -D age=2h runs that long first in
-- fast-forward (m:run{timing = false}: no lock waits, README), then the
-- timed duration; the 1 GiB yield at the switch is printed and the
-- invariant checker runs there.
--
--   ./run scenarios/aging.lua -D age=10s -D duration=20ms
--
-- plots: gb_yield, lock_timeseries, spb_map
local p = mmsim.params{
  policy = "upstream",
  sockets = 2,
  mem_per_node = "16G",
  cpus_per_socket = 8,
  duration = "300ms",
  read_mib_s = 100000,  -- page cache read rate per reader
  kernel = "slab",      -- kernel allocations: "slab" (kernel_noise's mix) or "noise" (pages)
  noise_rate = 400,     -- kernel=noise: allocations per ms per kernel CPU
  slab_rate = 1000,     -- kernel=slab: events per ms per kernel CPU
  churn_mib = 64,       -- jemalloc live set per thread
  age = "0",            -- aged this long before the timed duration...
  age_timing = false,   -- ...in fast-forward; true: timed (fast-forward's reference)
}
local m = mmsim.machine{
  sockets = p.sockets, cpus_per_socket = p.cpus_per_socket, mem_per_node = p.mem_per_node,
  policy = p.policy, sample_interval = "5ms",
}
local age = mmsim.time(p.age)
local stop = age + mmsim.time(p.duration)
local churn, readers, kernel, procs = require("mmsim.aging_roles").split(m, p.sockets,
  { procs = true })

require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s,
  until_ns = stop })
local noise
if p.kernel == "slab" then
  noise = require("mmsim.kernel_noise").start(m, { cpus = kernel, rate = p.slab_rate,
    until_ns = stop })
else
  assert(p.kernel == "noise", "aging: kernel must be slab or noise")
  noise = require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = kernel,
    rate = p.noise_rate, long_lived_share = 0.05, lifetime = "20ms", until_ns = stop })
end
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
  decay = "10ms", work = "20us", until_ns = stop })

-- Short-lived processes: map, touch, exit, over and over.
require("mmsim.short_lived").start(m, { cpus = procs, size = "16M", life = "200us",
  gap = "500us", until_ns = stop })

if age > 0 then
  m:run{ ["until"] = age, timing = p.age_timing }
  m:check_invariants()
  local y = m:gb_yield()
  print(string.format("aged %s (%s): %d of %d 1 GiB regions free, %d movable-only, "
    .. "%d obtainable", p.age, p.age_timing and "timed" or "fast-forward", y.free_now,
    y.total_regions, y.movable_only, y.movable_obtainable))
end
for i, label in ipairs({ "third", "two-thirds" }) do
  m:run{ ["until"] = age + (stop - age) * i // 3 }
  m:snapshot_memory_map(label)
end
m:run{ expected_end = stop }
m:snapshot_memory_map("end")

local y = m:gb_yield()
local s = m:spb_stats()
print(string.format("aging, %s, %s: %d of %d 1 GiB regions free, %d movable-only, "
  .. "%d obtainable", p.policy, p.duration, y.free_now, y.total_regions, y.movable_only,
  y.movable_obtainable))
if p.policy == "spb" then
  print(string.format("superpageblocks: %d empty, %d clean, %d tainted", s.empty, s.clean,
    s.tainted))
end
print(string.format("page cache %d pages, jemalloc %d objects", m:info().file_pages,
  jc.stats.objects))
require("mmsim.kernel_report").report(m, noise.stats)
