-- Quickstart: age a dual-socket 1 TiB machine's memory in a few seconds.
--
-- Builds the "2s-1t" preset (2 sockets, 512 GiB per node), allocates a
-- mix of orders and migratetypes on both nodes until the allocator starts
-- refusing requests, frees a random half of what it holds, and prints
-- /proc/buddyinfo and /proc/pagetypeinfo as the kernel would show them.
local m = mmsim.machine{ preset = "2s-1t" }
local info = m:info()
print(string.format("machine %s: %d nodes, %d CPUs, %d GiB, min_free_kbytes %d",
  info.name, info.nodes, info.cpus, info.frames // 262144, info.min_free_kbytes))

-- What a busy server asks the page allocator for: THP-sized and small
-- movable pages (anonymous memory), small unmovable pages (slab, page
-- tables, network buffers) and reclaimable ones (dentries, inodes).
local mix = {
  { weight = 30, order = 9, type = "movable" },
  { weight = 35, order = 0, type = "movable" },
  { weight = 10, order = 2, type = "movable" },
  { weight = 10, order = 0, type = "unmovable" },
  { weight = 6, order = 3, type = "unmovable" },
  { weight = 5, order = 0, type = "reclaimable" },
  { weight = 4, order = 1, type = "reclaimable" },
}
local total = 0
for _, k in ipairs(mix) do total = total + k.weight end
local function pick()
  local r = math.random(total)
  for _, k in ipairs(mix) do
    r = r - k.weight
    if r <= 0 then return k end
  end
end

-- Fill: interleave the two nodes until both refuse 1,000 requests in a row.
local held, failures = {}, 0
while failures < 1000 do
  local k = pick()
  local pfn = m:alloc{ order = k.order, type = k.type, node = math.random(0, 1) }
  if pfn then
    held[#held + 1] = pfn
    failures = 0
  else
    failures = failures + 1
  end
end
local full = m:info().free_pages

-- Free a random half: the holes left behind are the fragmentation.
local freed = 0
for i = #held, 2, -1 do
  local j = math.random(i)
  held[i], held[j] = held[j], held[i]
end
for i = 1, #held // 2 do
  m:free(held[i])
  freed = freed + 1
end
m:check_invariants()

info = m:info()
print(string.format("allocated %d blocks until %d pages were left free; freed %d blocks",
  #held, full, freed))
print(string.format("free: %d pages of %d", info.free_pages, info.managed_pages))
print()
print("$ cat /proc/buddyinfo")
io.write(m:buddyinfo())
print()
print("$ cat /proc/pagetypeinfo")
io.write(m:pagetypeinfo())
