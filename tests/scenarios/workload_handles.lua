-- The workload engines in C (lua/lworkload.c): options are checked before
-- any thread starts, and a workload whose handle the script dropped runs on
-- to its end (its threads keep it alive).
local m = mmsim.machine{ preset = "test" }

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "no error; expected " .. pattern)
  assert(tostring(err):find(pattern), err)
end
local proc = assert(m:process())
local churn = { process = proc, cpus = { 0 }, sizes = { { bytes = 8192, weight = 1 } },
  live_bytes = 1 << 20, remote_share = 0, decay_ns = 1e6, work_ns = 1000, until_ns = 1e6 }
local function with(t, k, v)
  local c = {}
  for key, val in pairs(t) do c[key] = val end
  c[k] = v
  return c
end
fails("cpu 4 does not exist", m.start_jemalloc_churn, m, with(churn, "cpus", { 0, 4 }))
fails("not a multiple of the page size", m.start_jemalloc_churn, m,
  with(churn, "sizes", { { bytes = 5000, weight = 1 } }))
fails("'remote_share' must be a number from 0 to 1", m.start_jemalloc_churn, m,
  with(churn, "remote_share", 2))
fails("unknown", m.start_jemalloc_churn, m, with(churn, "bogus", 1))
fails("'orders' must be a list of 1 to 11 weights", m.start_kernel_noise, m,
  { cpus = { 1 }, rate = 1, reclaimable_share = 0, long_lived_share = 0, lifetime_ns = 1,
    orders = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 } })
fails("the order weights sum to 0", m.start_kernel_noise, m,
  { cpus = { 1 }, rate = 1, reclaimable_share = 0, long_lived_share = 0, lifetime_ns = 1,
    orders = { 0, 0 } })
fails("give 'loops' or 'until_ns'", m.start_page_fault1, m, { cpus = { 2 }, size = "1M" })
fails("mode must be", require("mmsim.page_fault1").start, m, { mode = "fibers", loops = 1 })

-- Dropped at once: the tasks still map, touch and unmap 3 times 1 MiB each.
m:start_page_fault1{ cpus = { 2, 3 }, size = "1M", loops = 3 }
collectgarbage("collect")
local jc = require("mmsim.jemalloc_churn").start(m, { cpus = { 0, 1 }, live_mib = 2,
  decay = "100us", work = "2us", until_ns = 2e6 })
m:run()
assert(m:lock_stats().ptl.acquisitions >= 2 * 3 * 256, "page_fault1's faults did not run")
local n = 0
for k, v in pairs(jc.stats) do
  assert(jc.stats[k] == v)
  n = n + 1
end
assert(n == 8 and jc.stats.objects > 0 and jc.stats:stats().objects == jc.stats.objects)
print(string.format("ok: %d objects, %d remote frees", jc.stats.objects, jc.stats.remote_frees))
