-- kernel_slab: kernel allocations as a real kernel makes them, through the
-- SLUB model instead of page by page (compare mmsim.kernel_noise).
--
-- It turns the slab model on (m:kmem_cache_init()): from then on every
-- process made with m:process() allocates its task_struct, mm_struct, VMAs
-- and the rest from slab caches and its 16 KiB stack as four vmalloc'ed
-- pages, and a page-cache file read for the first time gets a dentry and an
-- inode.  Then, on each CPU given, one thread draws events at a steady rate:
--   kmalloc  an object of a kmalloc-<n> cache, sizes weighted as the live
--            objects of a real /proc/slabinfo (docs/slabinfo-reference.txt),
--            freed after its lifetime (a share never is);
--   file     a lookup (a file server's stat and open): of a file not seen
--            before, making a dentry and an inode which only the shrinker
--            frees, or (hot_share) of one of the hot files (every tenth
--            new file), whose dentry the shrinker then passes over once;
--   packet   a received packet: an skbuff_head_cache object and its data,
--            from the CPU's page fragment cache (order-3 blocks) or from
--            kmalloc, both freed when the socket is read.
-- Objects of very different lifetimes share slab pages, and a slab page
-- returns to the page allocator only with its last object: a few
-- long-lived objects pin pages all over memory.
--
--   local ks = require("mmsim.kernel_slab").start(m, {
--     cpus = {1},                 -- one thread per CPU
--     rate = 400,                 -- events per simulated millisecond, per CPU
--     mix = { kmalloc = 0.6, file = 0.15, packet = 0.25 },   -- event weights
--     lifetime = { kmalloc = "20ms", packet = "2ms" },  -- mean (exponential),
--                                 -- or a function returning nanoseconds
--     long_lived_share = { kmalloc = 0.05, packet = 0.01 },  -- never freed
--     hot_share = 0.3,            -- file lookups of an already seen hot file
--     frag_share = 0.5,           -- packets whose data is a page fragment
--     packet_bytes = 1500,        -- data bytes per packet (at most a page)
--     until_ns = nil,             -- stop drawing at this simulated time
--   })
--   m:run{...}
--   print(ks.stats.allocated, ks.stats.freed, ks.stats.failed, ks.stats.files)
local M = {}

-- Live objects per kmalloc cache in docs/slabinfo-reference.txt.
local KMALLOC = {
  { 8, 1536 }, { 16, 3584 }, { 32, 2545 }, { 64, 2479 }, { 96, 3401 }, { 128, 7054 },
  { 192, 6331 }, { 256, 784 }, { 512, 2183 }, { 1024, 788 }, { 2048, 288 },
  { 4096, 357 }, { 8192, 32 },
}
local FILE_BASE = 1 << 24      -- file ids apart from mmsim.page_cache's

local function weighted(items, weight_of)
  local total = 0
  for _, it in ipairs(items) do total = total + weight_of(it) end
  return function(r)
    local x = r * total
    for _, it in ipairs(items) do
      x = x - weight_of(it)
      if x <= 0 then return it end
    end
    return items[#items]
  end
end

-- A lifetime: a function returning ns, or the mean of an exponential.
local function lifetime_fn(v, default)
  if type(v) == "function" then return v end
  local mean = mmsim.time(v or default)
  return function() return -mean * math.log(1 - math.random()) end
end

function M.start(m, o)
  o = o or {}
  local cpus = o.cpus or { 0 }
  local rate = o.rate or 400
  local mix = o.mix or { kmalloc = 0.6, file = 0.15, packet = 0.25 }
  local lt = o.lifetime or {}
  local ll = o.long_lived_share or {}
  local life = { kmalloc = lifetime_fn(lt.kmalloc, "20ms"), packet = lifetime_fn(lt.packet, "2ms") }
  local forever = { kmalloc = ll.kmalloc or 0.05, packet = ll.packet or 0.01 }
  local hot_share = o.hot_share or 0.3
  local frag_share = o.frag_share or 0.5
  local packet_bytes = o.packet_bytes or 1500
  local stop = o.until_ns
  local stats = { allocated = 0, freed = 0, failed = 0, long_lived = 0, files = 0, packets = 0 }
  local gap = 1e6 / rate
  local next_file = FILE_BASE
  local hot = {}
  local pick_source = weighted({ "kmalloc", "file", "packet" }, function(k) return mix[k] or 0 end)
  local pick_size = weighted(KMALLOC, function(e) return e[2] end)

  m:kmem_cache_init()
  for _, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "kernel_slab" .. cpu, fn = function()
      local heap = require("mmsim.expiry_heap").new()   -- {expires, ...}
      local function release(e)
        if e[2] == "frag" then m:page_frag_free(e[3]) else m:kmem_cache_free(e[3]) end
        stats.freed = stats.freed + 1
      end
      -- Objects that live and die together: their frees are scheduled,
      -- or never happen.  Each is {kind of handle, handle}.
      local function keep(source, objs, now)
        stats.allocated = stats.allocated + #objs
        if math.random() < forever[source] then
          stats.long_lived = stats.long_lived + #objs
          return
        end
        local when = now + life[source]()
        for _, o in ipairs(objs) do heap:push({ when, o[1], o[2] }) end
      end
      while not stop or mmsim.now() < stop do
        local now = mmsim.now()
        while heap:top() and heap:top()[1] <= now do release(heap:pop()) end
        local source = pick_source(math.random())
        if source == "kmalloc" then
          local obj = m:kmalloc(pick_size(math.random())[1])
          if obj then keep("kmalloc", { { "obj", obj } }, now) else stats.failed = stats.failed + 1 end
        elseif source == "file" then
          if #hot > 0 and math.random() < hot_share then
            m:open_file(hot[math.random(#hot)])
          else
            if m:open_file(next_file) then stats.files = stats.files + 1 end
            if (next_file - FILE_BASE) % 10 == 0 then hot[#hot + 1] = next_file end
            next_file = next_file + 1
          end
        else
          -- netif_receive: GFP_ATOMIC, the head and the data die together.
          local skb = m:kmem_cache_alloc("skbuff_head_cache", { atomic = true })
          local frag = math.random() < frag_share
          local data = skb and (frag and m:page_frag_alloc(packet_bytes, { atomic = true })
                                or m:kmalloc(packet_bytes, { atomic = true }))
          if data then
            stats.packets = stats.packets + 1
            keep("packet", { { "obj", skb }, { frag and "frag" or "obj", data } }, now)
          else
            if skb then m:kmem_cache_free(skb) end
            stats.failed = stats.failed + 1
          end
        end
        mmsim.sleep(gap * (0.5 + math.random()))
      end
    end }
  end
  return { stats = stats }
end

return M
