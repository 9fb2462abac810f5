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
local M = {}

local KERNEL_OWNER = 3 << 28   -- owner kind KERNEL (models/mm_space.h)
local NOISE_SOURCE = 1 << 16   -- + the CPU: below the model's own ids (0x0f000000 up)
M.MIX = { kmalloc = 0.45, file = 0.15, packet = 0.25, thread = 0.05, pgtable = 0.1 }

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

function M.start(m, o)
  o = o or {}
  local mode = o.mode or "mix"
  if mode == "pages" then return start_pages(m, o) end
  assert(mode == "mix", "kernel_noise.start: mode must be \"mix\" or \"pages\"")
  return start_mix(m, o)
end

return M
