-- The CPU roles of an aging machine (scenarios/aging.lua, gigantic.lua):
-- on each socket the first CPU reads files, the second runs the kernel's
-- allocations (noise or slab, and short-lived processes), the rest run the
-- jemalloc application.
local M = {}

function M.split(m, sockets)
  local per_socket = m:info().cpus // sockets
  local churn, readers, noise = {}, {}, {}
  for s = 0, sockets - 1 do
    local base = s * per_socket
    readers[#readers + 1] = base
    noise[#noise + 1] = base + 1
    for c = base + 2, base + per_socket - 1 do churn[#churn + 1] = c end
  end
  return churn, readers, noise
end

-- The aging workloads on those roles, until stop (ns): p.read_mib_s of
-- page cache reads, p.noise_rate kernel allocations per ms (5% kept), and
-- jemalloc with p.churn_mib live per thread.
function M.start(m, p, stop)
  local churn, readers, noise = M.split(m, p.sockets)
  require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s,
    until_ns = stop })
  require("mmsim.kernel_noise").start(m, { cpus = noise, rate = p.noise_rate,
    long_lived_share = 0.05, lifetime = "20ms", until_ns = stop })
  require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
    decay = "10ms", work = "20us", until_ns = stop })
end

return M
