-- jemalloc churn: one multi-threaded process allocating through jemalloc,
-- with a share of objects freed by other threads (see lua/mmsim/jemalloc_churn.lua).
--
--   ./run scenarios/jemalloc-churn.lua -D cpus=128 -D policy=pcp_buddy
--   ./run --sweep 'cpus=8,16,32,64,128' --sweep 'policy=upstream,pcp_buddy' \
--         scenarios/jemalloc-churn.lua
--   ./run --sweep 'cpus=16,32,64,128' --sweep 'spb_walk=patch,indexed' \
--         scenarios/jemalloc-churn.lua -D policy=spb   # the superpageblock walk's what-if
--
-- plots: lock_timeseries, cpu_wait
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  cpus = 16,             -- threads, one per CPU, spread over the sockets
  live_mib = 32,         -- live objects per thread
  remote_share = 0.3,    -- share of objects freed by another thread
  decay = "5ms",         -- jemalloc dirty_decay_ms
  work = "5us",          -- application work per object
  duration = "20ms",
  warmup = "10ms",       -- not measured: the summary's headline is the rest (phase "measure")
  noise = true,          -- kernel_noise on the first CPU of each socket
  spb_walk = "patch",    -- policy spb's list walks: the series' or the indexed what-if
  spb_visit_ns = -1,     -- cost of one superpageblock read (-1: the cost model's)
}
local costs = {}
if p.spb_visit_ns >= 0 then costs.spb_visit = p.spb_visit_ns end
local m = mmsim.machine{ preset = p.preset, policy = p.policy, spb_walk = p.spb_walk,
  costs = costs }
local info = m:info()
assert(p.cpus >= 1 and p.cpus <= info.cpus,
  "cpus must be between 1 and " .. info.cpus)

-- Spread the threads over the sockets like a scheduler would: CPU i of the
-- run goes to socket i % sockets.
local sockets = info.nodes
local per_socket = info.cpus // sockets
local cpus = {}
for i = 0, p.cpus - 1 do
  cpus[#cpus + 1] = (i % sockets) * per_socket + i // sockets
end

local stop = mmsim.time(p.duration)
assert(mmsim.time(p.warmup) < stop, string.format("warmup (%s) must be shorter than duration (%s)",
  p.warmup, p.duration))
local jc = require("mmsim.jemalloc_churn").start(m, {
  cpus = cpus, live_mib = p.live_mib, remote_share = p.remote_share,
  decay = p.decay, work = p.work, until_ns = stop,
})
if p.noise then
  local noise_cpus = {}
  for s = 0, sockets - 1 do noise_cpus[#noise_cpus + 1] = s * per_socket + per_socket - 1 end
  require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = noise_cpus, rate = 50,
    until_ns = stop })
end
m:run{ expected_end = stop, warmup = p.warmup }

local s = m:lock_stats{ since = "measure" }
print(string.format("jemalloc churn, %s, %d threads, %s, whole run (warm-up included; "
  .. "summary.json's objects are the measured window's): %d objects, %d remote frees, "
  .. "%d pages purged", p.policy, p.cpus, p.duration, jc.stats.objects,
  jc.stats.remote_frees, jc.stats.purged_pages))
print(string.format("measured window (after the %s warm-up): zone->lock %d acquisitions, "
  .. "%d contentions, %.2f%% of CPU time waiting", p.warmup, s.zone.acquisitions, s.zone.contentions,
  100 * s.zone.wait_share))
