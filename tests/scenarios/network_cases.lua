-- network cases whose figures tests/scenarios/network_c.sh pins (-D case=):
-- "steady" four receive threads at a steady rate, some buffers never read;
-- "fn" a rate and a lifetime given as Lua functions, half the data from
-- kmalloc; "slab" kernel_slab's packet source beside a network thread.
local p = mmsim.params{ case = "steady" }
local m = mmsim.machine{ preset = "test" }
local net
if p.case == "steady" then
  net = require("mmsim.network").start(m, { cpus = { 0, 1, 2, 3 }, rate = 400,
    lifetime = "1ms", long_lived_share = 0.05, until_ns = mmsim.time("20ms") })
elseif p.case == "fn" then
  net = require("mmsim.network").start(m, { cpus = { 1, 2 }, frag_share = 0.5,
    packet_bytes = 600, rate = function(now) return now < 5e6 and 100 or 300 end,
    lifetime = function() return 2e5 + 1e6 * math.random() end, until_ns = mmsim.time("15ms") })
else
  assert(p.case == "slab", "no such case")
  net = require("mmsim.network").start(m, { cpus = { 0 }, rate = 200, until_ns = 10e6 })
  require("mmsim.kernel_slab").start(m, { cpus = { 1, 2 }, rate = 300,
    mix = { packet = 1, kmalloc = 1 }, until_ns = 10e6 })
end
m:run()
local s, i, l, st = net.stats, m:info(), m:lock_stats(), m:slab_stats()
print(string.format("%s packets=%d allocated=%d freed=%d failed=%d long_lived=%d frags=%d "
  .. "frag_blocks=%d free_pages=%d zone_acq=%d zone_con=%d time=%d", p.case, s.packets,
  s.allocated, s.freed, s.failed, s.long_lived, st.frags, st.frag_blocks, i.free_pages,
  l.zone.acquisitions, l.zone.contentions, l.time_ns))
