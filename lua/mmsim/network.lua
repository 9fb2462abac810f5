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
--
-- The threads ("napi<cpu>") run in C (m:start_network,
-- sim/workload_network.c, whose receive path is kernel_slab's packet
-- source too); this module reads the options.  They draw from
-- math.random's own stream in the order the Lua version of the loop did,
-- and call a rate or lifetime function where the Lua loop called it, so
-- a seed gives the figures it gave.  Option errors name the line that
-- called start.
local M = {}

local NET_SKB_PAD = 64
local SHINFO_BYTES = 320

local function cache_align(n) return (n + 63) // 64 * 64 end

-- The bytes a packet of n data bytes takes from the fragment cache or kmalloc.
function M.buffer_bytes(n)
  return cache_align(n + NET_SKB_PAD) + cache_align(SHINFO_BYTES)
end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "packet_bytes", "lifetime", "long_lived_share",
                          "frag_share", "until_ns" }, "network.start")
  local n = o.packet_bytes or 1500
  if not math.tointeger(n) or n < 0 or M.buffer_bytes(n) > 4096 then
    error("network.start: packet_bytes must be a whole number leaving a buffer within a page",
      2)
  end
  local life = o.lifetime or "2ms"
  if type(life) ~= "function" then
    local ok, ns = pcall(mmsim.time, life)
    if not ok then error("network.start: lifetime: " .. ns, 2) end
    life = ns
  end
  if o.until_ns ~= nil and not math.tointeger(o.until_ns) then
    error("network.start: until_ns must be an integer of ns", 2)
  end
  m:kmem_cache_init()
  local ok, w = pcall(m.start_network, m, { cpus = o.cpus or { 0 }, rate = o.rate or 200,
    lifetime_ns = life, buffer_bytes = M.buffer_bytes(n), frag_share = o.frag_share or 1,
    long_lived_share = o.long_lived_share or 0, until_ns = o.until_ns })
  if not ok then error("network.start: " .. w, 2) end
  return { stats = w }
end

return M
