-- Replay of a real program: redis-server 7.0.15 with jemalloc 5.3.0 under 9 s of
-- redis-benchmark load (data/real/README.md), its memory system calls replayed
-- by mmsim.replay (lua/mmsim/replay.lua: the first-write rule, the address
-- translation) on a 2-socket machine.  `instances` runs that many copies of
-- the redis process, each on two CPUs of one socket, the sockets in turn;
-- `kmem_cpus` adds the kernel's page allocations of the same load (the kmem
-- tracepoint capture, which also holds redis's own page faults) on that many
-- CPUs from the top.
--
--   ./run scenarios/replay-redis.lua -D policy=pcp_buddy
--   ./run --sweep 'policy=upstream,pcp_buddy,spb' scenarios/replay-redis.lua
--   ./run scenarios/replay-redis.lua -D instances=32 -D kmem_cpus=8 -D speed=4
--   ./run --sweep 'instances=1,8,32' --sweep 'policy=upstream,pcp_buddy,spb' \
--         scenarios/replay-redis.lua -D speed=4   # zone->lock wait share by instances
--
-- sweep-label: results.replay.pages_touched pages written (count)
-- sweep-label: results.replay.rss_pages pages resident at the end (count)
-- sweep-label: results.replay.end_s simulated end of the replay (s)
-- sweep-label: results.kmem.pages_allocated kernel pages allocated by the kmem replay (count)
-- plots: lock_timeseries, memory_map
local root = arg[0]:gsub("scenarios/[^/]*$", "")
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  instances = 1,        -- redis processes, each replaying the whole capture
  speed = 1.0,          -- the capture's time runs this many times faster
  kmem_cpus = 0,        -- CPUs replaying the kmem capture (0: none)
  strace = root .. "data/real/redis-jemalloc-default.strace",
  kmem = root .. "data/real/kmem-events-redis.csv.gz",
}
local m = mmsim.machine{ preset = p.preset, policy = p.policy }
mmsim.time_compressed(p.speed > 1)
local info = m:info()
local sockets = info.nodes
local per_socket = info.cpus // sockets
assert(p.instances >= 1 and 2 * p.instances + p.kmem_cpus <= info.cpus,
  "instances use 2 CPUs each: 2 * instances + kmem_cpus must be at most " .. info.cpus)

local replay = require("mmsim.replay")
local redis = {}
for i = 0, p.instances - 1 do
  local first = (i % sockets) * per_socket + 2 * (i // sockets)
  redis[#redis + 1] = replay.start(m, { strace = p.strace, cpus = { first, first + 1 },
                                        speed = p.speed })
end
local kmem
if p.kmem_cpus > 0 then
  local cpus = {}
  for j = 1, p.kmem_cpus do cpus[j] = info.cpus - j end
  kmem = replay.kmem(m, { csv = p.kmem, cpus = cpus, speed = p.speed })
end
m:run()

local s = redis[1].stats
local rss, touched = 0, 0
for _, r in ipairs(redis) do
  rss = rss + r.process:stats().rss
  touched = touched + r.stats.pages_touched
end
print(string.format("redis replay, %s, %d instance(s): %d mmap, %d munmap, %d madvise, "
  .. "%d mprotect, %d brk per instance; ended at %.3f s", p.policy, p.instances,
  s.calls.mmap, s.calls.munmap, s.calls.madvise, s.calls.mprotect, s.calls.brk, s.end_ns / 1e9))
print(string.format("pages written %d, resident at the end %d (%.1f MiB)", touched, rss,
  rss * 4096 / 1048576))
local lk = m:lock_stats()
print(string.format("zone->lock: %d acquisitions, %d contentions, %.3f%% of CPU time waiting",
  lk.zone.acquisitions, lk.zone.contentions, 100 * lk.zone.wait_share))
mmsim.result("replay.mmap", s.calls.mmap)
mmsim.result("replay.munmap", s.calls.munmap)
mmsim.result("replay.madvise", s.calls.madvise)
mmsim.result("replay.pages_touched", touched)
mmsim.result("replay.rss_pages", rss)
mmsim.result("replay.end_s", s.end_ns / 1e9)
if kmem then
  print(string.format("kmem replay on %d CPUs (%d copies): %d pages allocated, %d freed, "
    .. "%d frees of pages allocated before the capture", p.kmem_cpus, kmem.copies,
    kmem.stats.pages_allocated, kmem.stats.pages_freed, kmem.stats.unpaired_frees))
  mmsim.result("kmem.pages_allocated", kmem.stats.pages_allocated)
  mmsim.result("kmem.pages_freed", kmem.stats.pages_freed)
end
