-- kernel_slab: kernel allocations as a real kernel makes them, through the
-- SLUB model instead of page by page (mmsim.kernel_noise's default mix is
-- this module with every source on).
--
-- It turns the slab model on (m:kmem_cache_init()): from then on every
-- process made with m:process() allocates its task_struct, mm_struct, VMAs
-- and the rest from slab caches and each thread's 16 KiB kernel stack, and
-- a page-cache file read for the first time gets a dentry and an inode.
-- Then, on each CPU given, one thread draws events at a steady rate:
--   kmalloc  an object of a kmalloc-<n> cache, sizes weighted as the live
--            objects of a real /proc/slabinfo (docs/slabinfo-reference.txt),
--            freed after its lifetime (a share never is);
--   file     a lookup (a file server's stat and open): of a file not seen
--            before, making a dentry and an inode which only the shrinker
--            frees, or (hot_share) of one of the hot files (every tenth
--            new file), whose dentry the shrinker then passes over once;
--   packet   a received packet (mmsim.network's receive path): an
--            skbuff_head_cache object and its data, from the CPU's page
--            fragment cache (order-3 blocks) or from kmalloc, both freed
--            when the socket is read;
--   thread   a kernel-side daemon (one process per CPU of the module)
--            starts a thread: a task_struct, a pid and a kernel stack,
--            freed when the thread exits after its lifetime;
--   pgtable  the same daemon maps 2 MiB and touches a page of it (a PTE
--            table and the page), unmapped after its lifetime: page
--            tables of sparse mappings.
-- Objects of very different lifetimes share slab pages, and a slab page
-- returns to the page allocator only with its last object: a few
-- long-lived objects pin pages all over memory.
--
--   local ks = require("mmsim.kernel_slab").start(m, {
--     cpus = {1},                 -- one thread per CPU
--     rate = 400,                 -- events per simulated millisecond, per CPU
--     mix = { kmalloc = 0.6, file = 0.15, packet = 0.25, thread = 0, pgtable = 0 },
--     lifetime = { kmalloc = "20ms", packet = "2ms", thread = "5ms", pgtable = "5ms" },
--                                 -- mean (exponential), or a function returning ns
--     long_lived_share = { kmalloc = 0.05, packet = 0.01, thread = 0.02, pgtable = 0.02 },
--                                 -- never freed
--     hot_share = 0.3,            -- file lookups of an already seen hot file
--     frag_share = 0.5,           -- packets whose data is a page fragment
--     packet_bytes = 1500,        -- data bytes per packet (a buffer within a page)
--     until_ns = nil,             -- stop drawing at this simulated time
--   })
--   m:run{...}          (ks.stop() from a thread stops it too)
--   print(ks.stats.allocated, ks.stats.freed, ks.stats.failed, ks.stats.files)
local network = require("mmsim.network")
local M = {}

-- Live objects per kmalloc cache in docs/slabinfo-reference.txt.
local KMALLOC = {
  { 8, 1536 }, { 16, 3584 }, { 32, 2545 }, { 64, 2479 }, { 96, 3401 }, { 128, 7054 },
  { 192, 6331 }, { 256, 784 }, { 512, 2183 }, { 1024, 788 }, { 2048, 288 },
  { 4096, 357 }, { 8192, 32 },
}
local SOURCES = { "kmalloc", "file", "packet", "thread", "pgtable" }
M.DEFAULT_MIX = { kmalloc = 0.6, file = 0.15, packet = 0.25 }
local LIFETIME = { kmalloc = "20ms", packet = "2ms", thread = "5ms", pgtable = "5ms" }
local LONG_LIVED = { kmalloc = 0.05, packet = 0.01, thread = 0.02, pgtable = 0.02 }
local FILE_BASE = 1 << 24      -- file ids apart from mmsim.page_cache's
local PMD = 2 << 20

-- A draw of items by weight: r in [0, 1) picks the first item whose
-- running weight reaches r times the total (the weights taken once).
local function weighted(items, weight_of)
  local w, total, n = {}, 0, #items
  for i, it in ipairs(items) do
    w[i] = weight_of(it)
    total = total + w[i]
  end
  return function(r)
    local x = r * total
    for i = 1, n do
      x = x - w[i]
      if x <= 0 then return items[i] end
    end
    return items[n]
  end
end

-- What an expired entry {expires, release, a, b} runs: release(a, b).
local function kfree(m, obj) m:kmem_cache_free(obj) end
local function exit_thread(p, tid) p:exit_thread(tid) end
local function unmap(p, a) p:munmap(a, PMD) end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "mix", "lifetime", "long_lived_share", "hot_share",
                          "frag_share", "packet_bytes", "until_ns" }, "kernel_slab.start")
  local cpus = o.cpus or { 0 }
  local rate = o.rate or 400
  local mix = o.mix or M.DEFAULT_MIX
  local lt = o.lifetime or {}
  local ll = o.long_lived_share or {}
  local life, forever = {}, {}
  for k, default in pairs(LIFETIME) do
    life[k] = network.lifetime_fn(lt[k], default)
    forever[k] = ll[k] or LONG_LIVED[k]
  end
  local hot_share = o.hot_share or 0.3
  local stop = o.until_ns
  local stopped = false
  local stats = { allocated = 0, freed = 0, failed = 0, long_lived = 0, files = 0, packets = 0,
                  threads = 0, pgtables = 0 }
  local gap = 1e6 / rate
  local next_file = FILE_BASE
  local hot = {}
  local pick_source = weighted(SOURCES, function(k) return mix[k] or 0 end)
  local pick_size = weighted(KMALLOC, function(e) return e[2] end)

  m:kmem_cache_init()
  for _, cpu in ipairs(cpus) do
    local rx = network.receiver(m, { packet_bytes = o.packet_bytes, lifetime = life.packet,
      long_lived_share = forever.packet, frag_share = o.frag_share or 0.5 }, stats)
    m:spawn{ cpu = cpu, name = "kernel_slab" .. cpu, fn = function()
      local heap = require("mmsim.expiry_heap").new()   -- {expires, release, a, b}
      local daemon
      -- Entries carry a shared release function and its arguments rather
      -- than a closure each: fewer objects for the collector to sweep.
      local function keep(source, now, release, a, b)
        if math.random() < forever[source] then
          stats.long_lived = stats.long_lived + 1
        else
          heap:push({ now + life[source](), release, a, b })
        end
      end
      local function count(ok)
        if ok then stats.allocated = stats.allocated + 1 else stats.failed = stats.failed + 1 end
        return ok
      end
      local function the_daemon()
        daemon = daemon or m:process()
        return daemon
      end
      while not stopped and (not stop or mmsim.now() < stop) do
        local now = mmsim.now()
        while heap:due(now) do
          local e = heap:pop()
          e[2](e[3], e[4])
          stats.freed = stats.freed + 1
        end
        rx:reap(now)
        local source = pick_source(math.random())
        if source == "kmalloc" then
          local obj = m:kmalloc(pick_size(math.random())[1])
          if count(obj) then keep("kmalloc", now, kfree, m, obj) end
        elseif source == "file" then
          if #hot > 0 and math.random() < hot_share then
            m:open_file(hot[math.random(#hot)])
          else
            if m:open_file(next_file) then stats.files = stats.files + 1 end
            if (next_file - FILE_BASE) % 10 == 0 then hot[#hot + 1] = next_file end
            next_file = next_file + 1
          end
        elseif source == "packet" then
          rx:receive(now)
        elseif source == "thread" then
          local p = the_daemon()
          local tid = p and p:clone()
          if count(tid) then
            stats.threads = stats.threads + 1
            keep("thread", now, exit_thread, p, tid)
          end
        else
          local p = the_daemon()
          local a = p and p:mmap(PMD)
          if count(a and p:touch(a, 4096) == 1) then
            stats.pgtables = stats.pgtables + 1
            keep("pgtable", now, unmap, p, a)
          elseif a then
            p:munmap(a, PMD)
          end
        end
        mmsim.sleep(gap * (0.5 + math.random()))
      end
    end }
  end
  return { stats = stats, stop = function() stopped = true end }
end

return M
