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

return M
