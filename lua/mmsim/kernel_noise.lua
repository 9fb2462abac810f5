-- kernel_noise: a background source of kernel allocations.
--
-- Slab-like unmovable and reclaimable allocations of orders 0-3 arrive at a
-- steady rate on a set of CPUs and live for a random, exponentially
-- distributed time; a share of them live for the rest of the run (long-lived
-- kernel objects: inodes kept in cache, page tables of daemons, ...). This
-- is what scatters non-movable pages over memory as a machine ages.
--
--   local noise = require("mmsim.kernel_noise").start(m, {
--     cpus = {0, 1},            -- CPUs running the noise (one thread each)
--     rate = 200,               -- allocations per simulated millisecond, per CPU
--     reclaimable_share = 0.4,  -- the rest is unmovable
--     orders = {0.70, 0.10, 0.10, 0.10},  -- weights of orders 0, 1, 2, 3
--     lifetime = "5ms",         -- mean lifetime
--     long_lived_share = 0.02,  -- never freed
--     until_ns = nil,           -- stop allocating at this simulated time
--   })
--   ... m:run{...} ...  (noise.stop() from a thread stops it too)
--   print(noise.stats.allocated, noise.stats.freed, noise.stats.failed)
--
-- The threads run in C (m:start_kernel_noise, sim/workload_kernel_noise.c);
-- this module reads the options. They draw from math.random's own stream,
-- so a seed gives the figures the Lua version of this loop gave.
local M = {}

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "reclaimable_share", "orders", "lifetime",
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

return M
