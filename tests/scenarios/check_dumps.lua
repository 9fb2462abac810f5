-- Parse the buddyinfo and pagetypeinfo a scenario printed (the file named
-- by arg[1]) and check that they agree with each other and add up:
--   buddyinfo's free pages = the scenario's "free: N pages of M" line;
--   per zone and order, pagetypeinfo's per-type counts sum to buddyinfo's;
--   pageblocks of all types, all zones, cover the machine's memory
--   (arg[2], in GiB), and the managed pages are that less the boot
--   reservations.
local path, gib = arg[1], tonumber(arg[2])
local f = assert(io.open(path))
local buddy, typed, blocks = {}, {}, 0
local free_line, managed_line
for line in f:lines() do
  local free, managed = line:match("^free: (%d+) pages of (%d+)")
  if free then free_line, managed_line = tonumber(free), tonumber(managed) end
  local node, zone, rest = line:match("^Node (%d+), zone +(%S+) (.*)$")
  if node then
    local nums = {}
    for n in rest:gmatch("%d+") do nums[#nums + 1] = tonumber(n) end
    local key = node .. "/" .. zone
    if #nums == 11 then
      assert(not buddy[key], "zone listed twice in buddyinfo: " .. key)
      buddy[key] = nums
    elseif #nums == 6 then
      for _, n in ipairs(nums) do blocks = blocks + n end
    else
      error("unexpected line: " .. line)
    end
  end
  local tnode, tzone, ttype, trest = line:match("^Node +(%d+), zone +(%S+), type +(%S+) (.*)$")
  if tnode then
    local key = tnode .. "/" .. tzone
    typed[key] = typed[key] or {}
    local o = 0
    for cell in trest:gmatch("%S+") do
      local over, n = cell:match("^(>?)(%d+)$")
      assert(n, "bad cell " .. cell)
      typed[key][o] = typed[key][o] or { sum = 0, over = false }
      typed[key][o].sum = typed[key][o].sum + tonumber(n)
      typed[key][o].over = typed[key][o].over or over == ">"
      o = o + 1
    end
    assert(o == 11, "pagetypeinfo row without 11 orders: " .. line)
  end
end
f:close()

local total_free, zones = 0, 0
for key, nums in pairs(buddy) do
  zones = zones + 1
  for o = 0, 10 do
    total_free = total_free + nums[o + 1] * (1 << o)
    local t = assert(typed[key] and typed[key][o], "pagetypeinfo lacks " .. key)
    if t.over then
      assert(t.sum <= nums[o + 1], key .. " order " .. o .. ": capped counts exceed buddyinfo")
    else
      assert(t.sum == nums[o + 1], string.format("%s order %d: pagetypeinfo %d, buddyinfo %d",
        key, o, t.sum, nums[o + 1]))
    end
  end
end
assert(zones > 0, "no buddyinfo lines found")
assert(free_line, "no 'free: N pages of M' line")
assert(total_free == free_line, string.format("buddyinfo holds %d free pages, scenario says %d",
  total_free, free_line))
assert(total_free < managed_line, "nothing is allocated")
local want = gib * 1024 * 1024 * 1024 // (512 * 4096)
assert(blocks == want, string.format("%d pageblocks counted, %d GiB needs %d", blocks, gib, want))
-- Managed: the memory less its boot reservations, about 1/64 for the memmap.
assert(managed_line * 4096 < gib * (1 << 30) and managed_line * 4096 * 64 > gib * (1 << 30) * 62,
  "managed pages are not the memory less its boot reservations")
print(string.format("ok: %d zones, %d free pages, %d pageblocks", zones, total_free, blocks))
