-- kernel_noise cases (mode "pages", in C) whose figures kernel_noise_c.sh pins
-- (-D case=): "small" runs three noise threads on two nodes for 30 ms;
-- "tight" runs a fast one on a 128 MiB machine until it runs out of memory
-- and on past until_ns's absence, to m:run's end.
local p = mmsim.params{ case = "small" }
local cases = {
  small = { { preset = "test-numa" },
    { mode = "pages", cpus = { 0, 3, 5 }, rate = 300, lifetime = "2ms", until_ns = 30e6 } },
  tight = { { sockets = 1, cpus_per_socket = 2, mem_per_node = "128M" },
    { mode = "pages", cpus = { 1 }, rate = 5000, reclaimable_share = 0.7,
      orders = { 1, 0, 2, 3 },
      lifetime = "20ms", long_lived_share = 0.3 }, 25e6 },
}
local c = assert(cases[p.case], "no such case")
local m = mmsim.machine(c[1])
local noise = require("mmsim.kernel_noise").start(m, c[2])
m:run(c[3] and { ["until"] = c[3] } or nil)
local s, i, l = noise.stats, m:info(), m:lock_stats()
print(string.format("%s allocated=%d freed=%d failed=%d long_lived=%d free_pages=%d "
  .. "pcp_pages=%d zone_acq=%d zone_con=%d time=%d", p.case, s.allocated, s.freed, s.failed,
  s.long_lived, i.free_pages, i.pcp_pages, l.zone.acquisitions, l.zone.contentions, l.time_ns))
