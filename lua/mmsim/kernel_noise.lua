-- kernel_noise: a background source of kernel allocations.
--
-- By default (mode = "mix") a mix of the sources a real kernel's unmovable
-- and reclaimable memory comes from, through mmsim.kernel_slab with all of
-- its sources on: slab objects (kmalloc of mixed lifetimes, dentries and
-- inodes the shrinker frees), network buffers (page fragments and
-- skbuff heads), threads' kernel stacks and page tables.  Options are
-- kernel_slab's; rate, lifetime and long_lived_share may be given as one
-- number or time for every source, as mode "pages" takes them.
--
--   local noise = require("mmsim.kernel_noise").start(m, {
--     cpus = {0, 1},            -- CPUs running the noise (one thread each)
--     rate = 200,               -- events per simulated millisecond, per CPU
--     mix = { kmalloc = 0.45, file = 0.15, packet = 0.25, thread = 0.05, pgtable = 0.1 },
--     lifetime = "5ms",         -- mean lifetime (every source), or kernel_slab's table
--     long_lived_share = 0.02,  -- never freed (every source), or kernel_slab's table
--     until_ns = nil,           -- stop allocating at this simulated time
--   })
--
-- mode = "pages" is the statistical source it was before: blocks of orders
-- 0-3 allocated page by page, each freed on its own after an exponential
-- lifetime, a share never; the scenarios whose figures predate the mix
-- (jemalloc-churn, hotplug, gigantic) keep it.
--
--   require("mmsim.kernel_noise").start(m, { mode = "pages",
--     cpus = {0, 1}, rate = 200,
--     reclaimable_share = 0.4,  -- the rest is unmovable
--     orders = {0.70, 0.10, 0.10, 0.10},  -- weights of orders 0, 1, 2, 3
--     lifetime = "5ms", long_lived_share = 0.02, until_ns = nil })
--   ... m:run{...} ...  (noise.stop() from a thread stops it too)
--   print(noise.stats.allocated, noise.stats.freed, noise.stats.failed)
--
-- Mode "pages"'s threads run in C (m:start_kernel_noise,
-- sim/workload_kernel_noise.c); this module reads the options. They draw
-- from math.random's own stream, so a seed gives the figures the Lua
-- version of this loop gave.
local M = {}

M.MIX = { kmalloc = 0.45, file = 0.15, packet = 0.25, thread = 0.05, pgtable = 0.1 }

-- One value for every source of the mix, or kernel_slab's table as is.
local function per_source(v)
  if v == nil or type(v) == "table" then return v end
  local t = {}
  for k in pairs(M.MIX) do t[k] = v end
  return t
end

local function start_mix(m, o)
  local ks = {}
  for k, v in pairs(o) do ks[k] = v end
  ks.mode = nil
  ks.mix = o.mix or M.MIX
  ks.lifetime = per_source(o.lifetime)
  ks.long_lived_share = per_source(o.long_lived_share)
  return require("mmsim.kernel_slab").start(m, ks)
end

local function start_pages(m, o)
  mmsim.check_options(o, { "mode", "cpus", "rate", "reclaimable_share", "orders", "lifetime",
                          "long_lived_share", "until_ns" }, "kernel_noise.start")
  local noise = m:start_kernel_noise{
    cpus = o.cpus or { 0 }, rate = o.rate or 200, reclaimable_share = o.reclaimable_share or 0.4,
    orders = o.orders or { 0.70, 0.10, 0.10, 0.10 }, lifetime_ns = mmsim.time(o.lifetime or "5ms"),
    long_lived_share = o.long_lived_share or 0.02,
    until_ns = o.until_ns
      and (math.tointeger(o.until_ns) or error("kernel_noise: until_ns must be an integer")),
  }
  return { stats = noise, stop = function() noise:stop() end }
end

function M.start(m, o)
  o = o or {}
  local mode = o.mode or "mix"
  if mode == "pages" then return start_pages(m, o) end
  assert(mode == "mix", "kernel_noise.start: mode must be \"mix\" or \"pages\"")
  return start_mix(m, o)
end

return M
