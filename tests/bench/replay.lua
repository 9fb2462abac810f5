-- `make bench` (tests/bench/bench_replay.sh): the redis capture replayed by
-- `instances` redis processes (two CPUs each, as scenarios/replay-redis.lua
-- places them) and, with kmem_cpus > 0, the kmem capture on that many CPUs,
-- on the 2s-1t machine; prints the CPU time of m:run per simulated second.
local p = mmsim.params{ policy = "upstream", instances = 1, kmem_cpus = 0 }
local root = arg[0]:gsub("tests/bench/[^/]*$", "")
local m = mmsim.machine{ preset = "2s-1t", policy = p.policy, sample_interval = 0 }
local info = m:info()
local per_socket = info.cpus // info.nodes
local replay = require("mmsim.replay")
local c0 = os.clock()
local touched = 0
local redis = {}
for i = 0, p.instances - 1 do
  local first = (i % info.nodes) * per_socket + 2 * (i // info.nodes)
  redis[#redis + 1] = replay.start(m, { strace = root .. "data/real/redis-jemalloc-default.strace",
                                        cpus = { first, first + 1 } })
end
local k
if p.kmem_cpus > 0 then
  local cpus = {}
  for j = 1, p.kmem_cpus do cpus[j] = info.cpus - j end
  k = replay.kmem(m, { csv = root .. "data/real/kmem-events-redis.csv.gz", cpus = cpus })
end
local c1 = os.clock()
local t = m:run()
local c2 = os.clock()
for _, r in ipairs(redis) do touched = touched + r.stats.pages_touched end
print(string.format("%-9s %2d redis, kmem on %2d CPUs: read %.2f s, run %.2f s CPU for %.2f s "
  .. "simulated: %.2f s per simulated second (%d faults, %d kmem pages)", p.policy, p.instances,
  p.kmem_cpus, c1 - c0, c2 - c1, t / 1e9, (c2 - c1) / (t / 1e9), touched,
  k and k.stats.pages_allocated or 0))
