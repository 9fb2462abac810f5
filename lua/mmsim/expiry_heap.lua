-- expiry_heap: entries ordered by their first field (an expiry time), the
-- earliest on top: a binary heap.
--
--   local h = require("mmsim.expiry_heap").new()
--   h:push({ 5e6, pfn })
--   while h:due(mmsim.now()) do m:free(h:pop()[2]) end
--
-- The expiry times are kept apart, in an array of numbers, so that sifting
-- compares them in place: reading them from the entries chased a pointer
-- per comparison, and with tens of thousands of entries those cache misses
-- were most of an aging run's Lua time.
local Heap = {}
Heap.__index = Heap

function Heap:push(e)
  local keys, vals = self.keys, self.vals
  local i = self.n + 1
  local key = e[1]
  self.n = i
  keys[i], vals[i] = key, e
  while i > 1 and keys[i // 2] > key do
    local p = i // 2
    keys[i], keys[p] = keys[p], key
    vals[i], vals[p] = vals[p], e
    i = p
  end
end

function Heap:top()
  return self.vals[1]
end

-- Whether the top entry has expired by now.
function Heap:due(now)
  return self.n > 0 and self.keys[1] <= now
end

function Heap:pop()
  local keys, vals = self.keys, self.vals
  local n = self.n
  if n == 0 then return nil end
  local top = vals[1]
  keys[1], vals[1] = keys[n], vals[n]
  keys[n], vals[n] = nil, nil
  n = n - 1
  self.n = n
  local i = 1
  while true do
    local l, r, s = 2 * i, 2 * i + 1, i
    if l <= n and keys[l] < keys[s] then s = l end
    if r <= n and keys[r] < keys[s] then s = r end
    if s == i then break end
    keys[i], keys[s] = keys[s], keys[i]
    vals[i], vals[s] = vals[s], vals[i]
    i = s
  end
  return top
end

return { new = function() return setmetatable({ keys = {}, vals = {}, n = 0 }, Heap) end }
