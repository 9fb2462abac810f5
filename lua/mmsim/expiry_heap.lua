-- expiry_heap: entries ordered by their first field (an expiry time), the
-- earliest on top: a binary heap.
--
--   local h = require("mmsim.expiry_heap").new()
--   h:push({ 5e6, pfn })
--   while h:top() and h:top()[1] <= mmsim.now() do m:free(h:pop()[2]) end
local Heap = {}
Heap.__index = Heap

function Heap:push(e)
  local heap = self
  heap[#heap + 1] = e
  local i = #heap
  while i > 1 and heap[i // 2][1] > heap[i][1] do
    heap[i], heap[i // 2] = heap[i // 2], heap[i]
    i = i // 2
  end
end

function Heap:top()
  return self[1]
end

function Heap:pop()
  local heap = self
  local top = heap[1]
  heap[1] = heap[#heap]
  heap[#heap] = nil
  local i = 1
  while true do
    local l, r, s = 2 * i, 2 * i + 1, i
    if l <= #heap and heap[l][1] < heap[s][1] then s = l end
    if r <= #heap and heap[r][1] < heap[s][1] then s = r end
    if s == i then break end
    heap[i], heap[s] = heap[s], heap[i]
    i = s
  end
  return top
end

return { new = function() return setmetatable({}, Heap) end }
