-- "Possible" 1 GiB regions and the yield measured (gb_yield{attempt}):
-- on a fresh 8 GiB machine the regions are GiB 1-7 and GiB 7 holds the
-- node's memmap and per-CPU areas (boot reservations), so 6 are possible,
-- and alloc_contig gets every one of them.  Then two machines brought to
-- the same state (same calls, same seed): the attempt's count on one is
-- the count of m:alloc_gigantic successes on the other.
local function machine()
  return mmsim.machine{ sockets = 1, cpus_per_socket = 4, mem_per_node = "8G" }
end
local m = machine()
local y = m:gb_yield()
assert(y.total_regions == 7 and y.possible == 6, y.total_regions .. " " .. y.possible)
local a = m:gb_yield{ attempt = true }
assert(a.obtained == y.possible, "fresh machine: " .. a.obtained .. " of " .. y.possible)
assert(m:gb_yield().free_now == 6, "the attempt gives its pages back")

-- The same state twice: movable pages in every GiB, unmovable ones in a few.
local function age(mm)
  local held = {}
  for i = 1, 2800 do
    held[#held + 1] = assert(mm:alloc{ type = "movable", order = 9 })
    if i % 700 == 0 then assert(mm:alloc{ type = "unmovable", order = 0 }) end
  end
  for i = 1, #held, 3 do mm:free(held[i]) end
  mm:drain()
end
local m1, m2 = machine(), machine()
age(m1)
age(m2)
local attempt = m1:gb_yield{ attempt = true }
local n = 0
while m2:alloc_gigantic{ node = 0 } do n = n + 1 end
assert(attempt.obtained == n, string.format("attempt %d, alloc_gigantic %d", attempt.obtained, n))
assert(n > 0 and n < 6, "the aging should leave some regions, not all: " .. n)
print(string.format("ok: %d of %d possible on a fresh machine; %d after aging, both ways",
  a.obtained, y.possible, n))
