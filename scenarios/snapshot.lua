-- Start from a real machine: a capture of ./run capture imported (its
-- topology, zones, free lists, pageblock types, and every frame in the
-- state the flags gave it), the 1 GiB pages alloc_contig gets from it
-- then and there, and the same after it aged under the policy.
--
--   sudo ./run capture host.tar.gz
--   ./run --sweep policy=upstream,spb scenarios/snapshot.lua -D capture=$PWD/host.tar.gz
--
-- The import's notes (what it had to make up) go to stderr; buddyinfo and
-- pagetypeinfo of the imported machine to stdout, for a diff against the
-- capture's own (tar -xzOf host.tar.gz ./proc/buddyinfo).
-- sweep-plot: y=gb_yield.obtained
-- sweep-label: results.imported.gb_obtained 1 GiB pages on the imported machine (count)
-- plots: gb_yield, memory_map
local p = mmsim.params{
  capture = "",         -- the capture (an absolute path, or one from the source tree)
  policy = "upstream",
  age = "20ms",         -- aged this long, at the aging scenario's compressed rates
  read_mib_s = 100000,  -- page cache read rate per reader (scenarios/aging.lua's)
  noise_rate = 400,     -- kernel allocations per ms per kernel CPU
  churn_mib = 64,       -- jemalloc live set per thread
}
if p.capture == "" then
  error("snapshot: give the capture: -D capture=FILE (made by ./run capture FILE)")
end
mmsim.time_compressed(true)
local m = mmsim.machine{ snapshot = p.capture, policy = p.policy, sample_interval = "1ms",
  gb_yield_attempt = true, time_scale = 1000 }
io.write(m:buddyinfo())
io.write(m:pagetypeinfo())
m:snapshot_memory_map("imported")
local imported = m:gb_yield{ attempt = true }
mmsim.result("imported.gb_possible", imported.possible)
mmsim.result("imported.gb_free", imported.free_now)
mmsim.result("imported.gb_obtained", imported.obtained)
print(string.format("imported, %s: of %d possible 1 GiB regions, %d free, %d movable-only, "
  .. "%d obtained", p.policy, imported.possible, imported.free_now, imported.movable_only,
  imported.obtained))

-- Aging: the aging scenario's roles where each node has 3 CPUs, else
-- kernel allocations on the first CPU and the application on the others.
local info = m:info()
local stop = mmsim.time(p.age)
if info.cpus // info.nodes >= 3 then
  require("mmsim.aging_roles").start(m, { sockets = info.nodes, read_mib_s = p.read_mib_s,
    noise_rate = p.noise_rate, churn_mib = p.churn_mib }, stop)
else
  require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = { 0 }, rate = p.noise_rate,
    long_lived_share = 0.05, lifetime = "20ms", until_ns = stop })
  local churn = {}
  for cpu = 1, info.cpus - 1 do churn[#churn + 1] = cpu end
  if #churn > 0 then
    require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
      decay = "10ms", work = "20us", until_ns = stop })
  end
end
m:run{ expected_end = stop }
m:snapshot_memory_map("aged")
local y = m:gb_yield()
print(string.format("aged %s, %s: of %d possible 1 GiB regions, %d free, %d movable-only "
  .. "(gb_yield.obtained, in the summary, is what alloc_contig gets)", p.age, p.policy,
  y.possible, y.free_now, y.movable_only))
