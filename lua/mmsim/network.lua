-- network: a NIC's receive path, the kernel's network buffers.
--
-- On each CPU given, one thread stands for the CPU's NAPI poll: packets
-- arrive at a steady rate and each takes, GFP_ATOMIC, an skbuff_head_cache
-- object and a data buffer, which die together when the socket is read,
-- after the buffer's lifetime.  The data buffer is carved from the CPU's
-- page fragment cache (napi_alloc_skb): order-3 blocks tried with
-- __GFP_NORETRY, an order-0 page when none is free (page_frag refill); a
-- block goes back with its last buffer, so one slow socket pins 32 KiB.  A
-- share of packets (frag_share below 1) takes kmalloc'ed data instead, as
-- __alloc_skb does.  It turns the slab model on (m:kmem_cache_init()).
--
-- A buffer's size is what the kernel reserves for packet_bytes of data:
-- SKB_DATA_ALIGN(len + NET_SKB_PAD) + SKB_DATA_ALIGN(skb_shared_info), 64
-- bytes of headroom and 320 of shared info, both cache-line aligned (1920
-- bytes for 1500: 17 buffers per 32 KiB block).
--
--   local net = require("mmsim.network").start(m, {
--     cpus = {1},              -- one receive thread per CPU
--     rate = 200,              -- packets per simulated millisecond, per CPU,
--                              -- or a function(now_ns) returning the rate now
--     packet_bytes = 1500,     -- data bytes per packet
--     lifetime = "2ms",        -- mean time a buffer waits to be read
--                              -- (exponential), or a function returning ns
--     long_lived_share = 0,    -- buffers never read (a stuck socket)
--     frag_share = 1,          -- packets whose data is a page fragment
--     until_ns = nil,          -- stop receiving at this simulated time
--   })
--   m:run{...}
--   print(net.stats.packets, net.stats.freed, net.stats.failed)
local M = {}

local NET_SKB_PAD = 64
local SHINFO_BYTES = 320

local function cache_align(n) return (n + 63) // 64 * 64 end

-- The bytes a packet of n data bytes takes from the fragment cache or kmalloc.
function M.buffer_bytes(n)
  return cache_align(n + NET_SKB_PAD) + cache_align(SHINFO_BYTES)
end

-- A lifetime: a function returning ns, or the mean of an exponential.
local function lifetime_fn(v, default)
  if type(v) == "function" then return v end
  local mean = mmsim.time(v or default)
  return function() return -mean * math.log(1 - math.random()) end
end

-- The receive path of the calling thread's CPU, with its pending frees.
-- rx:receive(now) takes one packet's buffers (false if the allocator
-- refused), rx:reap(now) frees those due.  stats gets allocated and
-- freed (objects: a head and its data are two), failed, long_lived,
-- packets.
function M.receiver(m, o, stats)
  local bytes = M.buffer_bytes(o.packet_bytes or 1500)
  assert(bytes <= 4096, "network: packet_bytes must leave a buffer within a page")
  local life = lifetime_fn(o.lifetime, "2ms")
  local forever = o.long_lived_share or 0
  local frag_share = o.frag_share or 1
  local heap = require("mmsim.expiry_heap").new()   -- {expires, frag?, handle}
  local rx = {}

  m:kmem_cache_init()
  function rx.reap(_, now)
    while heap:due(now) do
      local e = heap:pop()
      if e[2] then m:page_frag_free(e[3]) else m:kmem_cache_free(e[3]) end
      stats.freed = stats.freed + 1
    end
  end
  function rx.receive(_, now)
    local skb = m:kmem_cache_alloc("skbuff_head_cache", { atomic = true })
    local frag = math.random() < frag_share
    local data = skb and (frag and m:page_frag_alloc(bytes, { atomic = true })
                          or m:kmalloc(bytes, { atomic = true }))
    if not data then
      if skb then m:kmem_cache_free(skb) end
      stats.failed = stats.failed + 1
      return false
    end
    stats.packets = stats.packets + 1
    stats.allocated = stats.allocated + 2
    if math.random() < forever then
      stats.long_lived = stats.long_lived + 2
    else
      local when = now + life()
      heap:push({ when, false, skb })
      heap:push({ when, frag, data })
    end
    return true
  end
  return rx
end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "packet_bytes", "lifetime", "long_lived_share",
                          "frag_share", "until_ns" }, "network.start")
  local cpus = o.cpus or { 0 }
  local rate = o.rate or 200
  local rate_now = type(rate) == "function" and rate or function() return rate end
  local stop = o.until_ns
  local stats = { allocated = 0, freed = 0, failed = 0, long_lived = 0, packets = 0 }

  for _, cpu in ipairs(cpus) do
    local rx = M.receiver(m, o, stats)
    m:spawn{ cpu = cpu, name = "napi" .. cpu, fn = function()
      while not stop or mmsim.now() < stop do
        local now = mmsim.now()
        rx:reap(now)
        rx:receive(now)
        mmsim.sleep(1e6 / rate_now(now) * (0.5 + math.random()))
      end
    end }
  end
  return { stats = stats }
end

return M
