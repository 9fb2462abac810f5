-- Aging: a server's memory over time, and how much of it stays obtainable
-- as 1 GiB pages.
--
-- A jemalloc-linked application churns on most CPUs, readers stream files
-- into the page cache until kswapd has to reclaim it, the kernel allocates
-- unmovable and reclaimable memory with lifetimes (some forever), and
-- processes come and go (their page tables are unmovable allocations too).
-- The kernel's allocations are kernel_noise's pages (kernel=noise) or
-- kernel_slab's objects in SLUB caches (kernel=slab: kmalloc, dentries and
-- inodes the shrinker frees, network buffers, and each process's
-- task_struct, VMAs and stack). Upstream's unmovable allocations land wherever a free block is and
-- spread over most 1 GiB regions; superpageblocks steer them into the
-- regions already tainted.
--
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' scenarios/aging.lua
--
-- The results folder has gb_yield.png (1 GiB regions free now / movable-only
-- / obtainable over time) and memory maps at a third, two thirds and the end
-- of the run (memory_map-*.png).
--
-- plots: gb_yield, lock_timeseries, spb_map
local p = mmsim.params{
  policy = "upstream",
  sockets = 2,
  mem_per_node = "16G",
  cpus_per_socket = 8,
  duration = "300ms",
  read_mib_s = 100000,  -- page cache read rate per reader
  kernel = "noise",     -- kernel allocations: "noise" (pages) or "slab" (SLUB objects)
  noise_rate = 400,     -- kernel_noise allocations per ms per noise CPU
  slab_rate = 1000,     -- kernel_slab events per ms per noise CPU
  churn_mib = 64,       -- jemalloc live set per thread
}
local m = mmsim.machine{
  sockets = p.sockets, cpus_per_socket = p.cpus_per_socket, mem_per_node = p.mem_per_node,
  policy = p.policy, sample_interval = "5ms",
}
local stop = mmsim.time(p.duration)
local churn, readers, noise = require("mmsim.aging_roles").split(m, p.sockets)

require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s,
  until_ns = stop })
local slab
if p.kernel == "slab" then
  slab = require("mmsim.kernel_slab").start(m, { cpus = noise, rate = p.slab_rate,
    until_ns = stop })
else
  assert(p.kernel == "noise", "aging: kernel must be noise or slab")
  require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = noise, rate = p.noise_rate,
    long_lived_share = 0.05, lifetime = "20ms", until_ns = stop })
end
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
  decay = "10ms", work = "20us", until_ns = stop })

-- Short-lived processes: map, touch, exit, over and over.
for _, cpu in ipairs(noise) do
  m:spawn{ cpu = cpu, name = "procs" .. cpu, fn = function()
    while mmsim.now() < stop do
      local proc = m:process()
      if proc then
        local a = proc:mmap("16M")
        proc:touch(a, "16M")
        mmsim.sleep("200us")
        proc:exit()
      end
      mmsim.sleep("500us")
    end
  end }
end

for i, label in ipairs({ "third", "two-thirds" }) do
  m:run{ ["until"] = stop * i // 3 }
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
local sp = m:pageblock_spread()
print(string.format("unmovable: %d pages in %d pageblocks (%.1f pages each), %d of %d 1 GiB "
  .. "regions", sp.unmovable_pages, sp.unmovable_pageblocks,
  sp.unmovable_pages / math.max(sp.unmovable_pageblocks, 1), sp.unmovable_regions, sp.regions))
if slab then
  local st = m:slab_stats()
  print(string.format("slab: %d slabs, %d under 10%% full; %d dentries, %d inodes, %d xarray "
    .. "nodes cached; %d network fragment blocks", st.slabs, st.sparse_slabs, st.dentries,
    st.inodes, st.xa_nodes, st.frag_blocks))
end
