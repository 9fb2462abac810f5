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
local M = {}

local KERNEL_OWNER = 3 << 28   -- owner kind KERNEL (models/mm_space.h)
local NOISE_SOURCE = 1 << 16   -- + the CPU: below the model's own ids (0x0f000000 up)

local function pick(weights, r)
  local total = 0
  for _, w in ipairs(weights) do total = total + w end
  local x = r * total
  for i, w in ipairs(weights) do
    x = x - w
    if x <= 0 then return i - 1 end
  end
  return #weights - 1
end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "reclaimable_share", "orders", "lifetime",
                          "long_lived_share", "until_ns" }, "kernel_noise.start")
  local cpus = o.cpus or { 0 }
  local rate = o.rate or 200
  local recl = o.reclaimable_share or 0.4
  local orders = o.orders or { 0.70, 0.10, 0.10, 0.10 }
  local lifetime = mmsim.time(o.lifetime or "5ms")
  local long_lived = o.long_lived_share or 0.02
  local stop = o.until_ns
  local stats = { allocated = 0, freed = 0, failed = 0, long_lived = 0 }
  local gap = 1e6 / rate
  local stopped = false

  for _, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "kernel_noise" .. cpu, fn = function()
      local heap = require("mmsim.expiry_heap").new()   -- {expires, ...}
      while not stopped and (not stop or mmsim.now() < stop) do
        local now = mmsim.now()
        while heap:top() and heap:top()[1] <= now do
          m:free(heap:pop()[2])
          stats.freed = stats.freed + 1
        end
        local pfn = m:alloc{
          order = pick(orders, math.random()),
          type = math.random() < recl and "reclaimable" or "unmovable",
          owner = KERNEL_OWNER | NOISE_SOURCE | cpu,
        }
        if pfn then
          stats.allocated = stats.allocated + 1
          if math.random() < long_lived then
            stats.long_lived = stats.long_lived + 1
          else
            heap:push({ now - lifetime * math.log(1 - math.random()), pfn })
          end
        else
          stats.failed = stats.failed + 1
        end
        mmsim.sleep(gap * (0.5 + math.random()))
      end
    end }
  end
  return { stats = stats, stop = function() stopped = true end }
end

return M
