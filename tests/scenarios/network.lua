-- The network workload: a 1500-byte packet takes a 1920-byte buffer (17 to
-- an order-3 fragment block) and an skbuff_head_cache object; buffers go
-- back after their lifetime, a block with its last buffer; a rate function
-- sets the arrival rate; every buffer is accounted.
local network = require("mmsim.network")
assert(network.buffer_bytes(1500) == 1920 and network.buffer_bytes(64) == 448)

local m = mmsim.machine{ preset = "test" }
assert(not pcall(network.start, m, { cpus = { 0 }, packet_bytes = 4000 }),
  "a buffer above a page must be refused")
-- Never read, on CPU 3: its packets fill blocks of 17.
local kept = network.start(m, { cpus = { 3 }, rate = 100, long_lived_share = 1,
  until_ns = mmsim.time("1700us") })
-- Read after 1 ms, on CPUs 0 and 1, at 50 packets per ms for 5 ms then 200.
local net = network.start(m, { cpus = { 0, 1 }, lifetime = function() return 1e6 end,
  rate = function(now) return now < 5e6 and 50 or 200 end, until_ns = mmsim.time("10ms") })
m:run{ ["until"] = mmsim.time("5ms") }
local n = kept.stats.packets
local early = net.stats.packets
local st = m:slab_stats()
assert(n > 100 and st.frags_allocated == st.frags + st.frags_freed)
m:run()
local late = net.stats.packets - early
assert(early > 300 and early < 700 and late > 1500 and late < 2500,
  string.format("%d packets in the first 5 ms, %d in the last", early, late))
st = m:slab_stats()
local heads = m:slab_caches()["skbuff_head_cache"]
local packets = n + net.stats.packets
assert(net.stats.failed == 0 and kept.stats.freed == 0 and net.stats.freed > 2 * packets * 0.7)
assert(st.frags_allocated == packets and st.frags_allocated == st.frags + st.frags_freed)
assert(heads.allocs == packets and heads.active_objs == st.frags)
assert(net.stats.allocated == net.stats.freed + 2 * (st.frags - n))
-- CPU 3's kept buffers fill ceil(n / 17) blocks; at most the last ms of
-- CPUs 0 and 1's are unread, in a few blocks each.
local unread = st.frags - n
assert(unread < 2 * 200 * 1.5 and st.frag_blocks <= (n + 16) // 17 + unread // 17 + 4,
  string.format("%d + %d fragments alive in %d blocks", n, unread, st.frag_blocks))
assert(st.frag_blocks >= (n + 16) // 17 + 2)
assert(st.frag_refills > st.frag_blocks and st.frag_order0_refills == 0)
m:check_invariants()
-- A run to a time already past returns at once.
local now = m:run{ ["until"] = mmsim.time("3ms") }
assert(now >= mmsim.time("10ms"), now)
