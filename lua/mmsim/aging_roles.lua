-- The CPU roles of an aging machine (scenarios/aging.lua, gigantic.lua,
-- server-day.lua): on each socket the first CPU reads files, the second
-- runs the kernel's allocations, the rest run the application.  With
-- { procs = true }, the third CPU of each socket runs the short-lived
-- processes (else they share the kernel's CPU), so the kernel's allocations
-- keep a CPU of their own; the socket needs 4 CPUs then.
--
--   local churn, readers, kernel, procs = require("mmsim.aging_roles").split(m, sockets,
--     { procs = true })
local M = {}

function M.split(m, sockets, o)
  local per_socket = m:info().cpus // sockets
  local own_procs = o and o.procs
  assert(not own_procs or per_socket >= 4, "aging_roles: procs needs 4 CPUs per socket")
  local churn, readers, kernel, procs = {}, {}, {}, {}
  for s = 0, sockets - 1 do
    local base = s * per_socket
    readers[#readers + 1] = base
    kernel[#kernel + 1] = base + 1
    procs[#procs + 1] = own_procs and base + 2 or base + 1
    for c = base + (own_procs and 3 or 2), base + per_socket - 1 do churn[#churn + 1] = c end
  end
  return churn, readers, kernel, procs
end

-- The aging workloads on those roles, until stop (ns): p.read_mib_s of
-- page cache reads, p.noise_rate kernel allocations per ms (5% kept), and
-- jemalloc with p.churn_mib live per thread.
function M.start(m, p, stop)
  local churn, readers, noise = M.split(m, p.sockets)
  require("mmsim.page_cache").start(m, { cpus = readers, rate_mib_s = p.read_mib_s,
    until_ns = stop })
  require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = noise, rate = p.noise_rate,
    long_lived_share = 0.05, lifetime = "20ms", until_ns = stop })
  require("mmsim.jemalloc_churn").start(m, { cpus = churn, live_mib = p.churn_mib,
    decay = "10ms", work = "20us", until_ns = stop })
end

return M
