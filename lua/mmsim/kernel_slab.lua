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
--                                 -- mean (exponential)
--     long_lived_share = { kmalloc = 0.05, packet = 0.01, thread = 0.02, pgtable = 0.02 },
--                                 -- never freed
--     hot_share = 0.3,            -- file lookups of an already seen hot file
--     frag_share = 0.5,           -- packets whose data is a page fragment
--     packet_bytes = 1500,        -- data bytes per packet (a buffer within a page)
--     until_ns = nil,             -- stop drawing at this simulated time
--   })
--   m:run{...}          (ks.stop() from a thread stops it too)
--   print(ks.stats.allocated, ks.stats.freed, ks.stats.failed, ks.stats.files)
--
-- The threads run in C (m:start_kernel_slab, sim/workload_kernel_slab.c);
-- this module reads the options.  They draw from math.random's own stream
-- in the order the Lua version of the loop did, so a seed gives the
-- figures it gave.
local network = require("mmsim.network")
local M = {}

local SOURCES = { "kmalloc", "file", "packet", "thread", "pgtable" }
M.DEFAULT_MIX = { kmalloc = 0.6, file = 0.15, packet = 0.25 }
local LIFETIME = { kmalloc = "20ms", packet = "2ms", thread = "5ms", pgtable = "5ms" }
local LONG_LIVED = { kmalloc = 0.05, packet = 0.01, thread = 0.02, pgtable = 0.02 }
local FILE_BASE = 1 << 24      -- file ids apart from mmsim.page_cache's

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "rate", "mix", "lifetime", "long_lived_share", "hot_share",
                          "frag_share", "packet_bytes", "until_ns" }, "kernel_slab.start")
  local mix, lt, ll = o.mix or M.DEFAULT_MIX, o.lifetime or {}, o.long_lived_share or {}
  local weights, life, forever = {}, {}, {}
  for _, k in ipairs(SOURCES) do weights[k] = mix[k] end
  for k, default in pairs(LIFETIME) do
    life[k] = mmsim.time(lt[k] or default)
    forever[k] = ll[k] or LONG_LIVED[k]
  end
  local bytes = network.buffer_bytes(o.packet_bytes or 1500)
  assert(bytes <= 4096, "kernel_slab: packet_bytes must leave a buffer within a page")
  m:kmem_cache_init()
  local ks = m:start_kernel_slab{
    cpus = o.cpus or { 0 }, rate = o.rate or 400, mix = weights, lifetime_ns = life,
    long_lived_share = forever, hot_share = o.hot_share or 0.3, frag_share = o.frag_share or 0.5,
    buffer_bytes = bytes, first_file = FILE_BASE,
    until_ns = o.until_ns
      and (math.tointeger(o.until_ns) or error("kernel_slab: until_ns must be an integer")),
  }
  return { stats = ks, stop = function() ks:stop() end }
end

return M
