-- mmsim.expiry_heap: entries come out earliest first, due() says whether
-- the top one has expired, an empty heap pops nil, an entry without a time
-- is refused, and entries of equal expiry come out in the order of a plain
-- binary heap of the entries, the heap's first version in Lua (kernel_slab's
-- and network's frees, and so the goldens, depend on it).
local Heap = require("mmsim.expiry_heap")

-- The reference: a binary heap comparing the entries' first fields.
local function ref_push(h, e)
  h[#h + 1] = e
  local i = #h
  while i > 1 and h[i // 2][1] > h[i][1] do
    h[i], h[i // 2] = h[i // 2], h[i]
    i = i // 2
  end
end
local function ref_pop(h)
  local top = h[1]
  h[1] = h[#h]
  h[#h] = nil
  local i = 1
  while true do
    local l, r, s = 2 * i, 2 * i + 1, i
    if l <= #h and h[l][1] < h[s][1] then s = l end
    if r <= #h and h[r][1] < h[s][1] then s = r end
    if s == i then break end
    h[i], h[s] = h[s], h[i]
    i = s
  end
  return top
end

local h, ref = Heap.new(), {}
assert(h:pop() == nil and h:top() == nil and not h:due(math.huge))
local n, last = 0, -1
for step = 1, 20000 do
  -- Few distinct times, so that many entries tie; pushes and pops mixed.
  if math.random() < 0.6 then
    local e = { math.random(0, 50) * 1000, step }
    h:push(e)
    ref_push(ref, e)
    n = n + 1
  elseif n > 0 then
    local top = h:top()
    assert(h:due(top[1]) and not h:due(top[1] - 1))
    local e = h:pop()
    assert(e == top and e == ref_pop(ref), "step " .. step .. ": another entry than the reference's")
    n = n - 1
  end
end
while h:due(math.huge) do
  local e = h:pop()
  assert(e[1] >= last and e == ref_pop(ref))
  last = e[1]
  n = n - 1
end
assert(n == 0 and #ref == 0 and h:top() == nil)
local ok, err = pcall(h.push, h, { "soon" })
assert(not ok and err:find("first field is its expiry time"), err)
print("ok: expiry_heap")
