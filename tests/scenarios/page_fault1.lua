-- will-it-scale page_fault1 in its two modes on one machine: 4 tasks each
-- map 2 MiB, touch every page and unmap it, 8 times over.  As separate
-- processes each task has its own mm: nobody waits for another's
-- mmap_lock.  As threads of one process they share it, and a thread's
-- munmap (mmap_lock for write) makes the others' faults wait.
local m = mmsim.machine{ preset = "test" }
local SIZE, LOOPS = 2 * 1024 * 1024, 8

local function page_fault1(p)
  for _ = 1, LOOPS do
    local a = assert(p:mmap(SIZE))
    assert(p:touch(a, SIZE) == SIZE // 4096)
    p:munmap(a, SIZE)
  end
end

local function run(threads)
  local before = m:lock_stats()
  local shared = threads and m:process()
  for cpu = 0, 3 do
    m:spawn{ cpu = cpu, fn = function()
      local p = shared or m:process()
      page_fault1(p)
      if not shared then p:exit() end
    end }
  end
  m:run()
  if shared then shared:exit() end
  local after = m:lock_stats()
  local d = {}
  for _, cls in ipairs({ "mmap", "ptl", "lru" }) do
    d[cls] = { acquisitions = after[cls].acquisitions - before[cls].acquisitions,
               contentions = after[cls].contentions - before[cls].contentions }
  end
  return d
end

local procs = run(false)
local threads = run(true)
print(string.format("mmap_lock contentions: processes %d, threads %d",
  procs.mmap.contentions, threads.mmap.contentions))
-- Every mmap and munmap takes mmap_lock for write (a fault only waits
-- for a writer there), every fault its PTE table's lock; every 31 faults
-- (FOLIO_BATCH_SIZE) and every munmap batch take lru_lock.
for _, d in ipairs({ procs, threads }) do
  assert(d.mmap.acquisitions >= 4 * LOOPS * 2, d.mmap.acquisitions)
  assert(d.ptl.acquisitions >= 4 * LOOPS * 512, d.ptl.acquisitions)
  assert(d.lru.acquisitions >= 4 * LOOPS * 512 // 31, d.lru.acquisitions)
end
assert(procs.mmap.contentions == 0, "separate processes never share an mmap_lock")
assert(threads.mmap.contentions > 0, "threads' faults wait for each other's munmap")

-- /proc/lock_stat has the new classes in the kernel's format.
local text = m:lock_stat()
for _, name in ipairs({ "&mm->mmap_lock", "ptlock_ptr(ptdesc)", "&lruvec->lru_lock" }) do
  local pat = "\n%s+" .. name:gsub("%p", "%%%0") .. ":" .. string.rep("%s+[%d.]+", 12) .. "\n"
  assert(text:find(pat), name .. " is missing from lock_stat")
end
-- mmap_lock's contention points are among its call sites.
local points = 0
for _, site in ipairs({ "lock_mm_and_find_vma", "vm_mmap_pgoff", "__vm_munmap" }) do
  if text:find("%s&mm%->mmap_lock%s+%d+%s+%[<%x+>%] " .. site:gsub("_", "%%_") .. "%+0x") then
    points = points + 1
  end
end
assert(points > 0, "mmap_lock's contention points")
