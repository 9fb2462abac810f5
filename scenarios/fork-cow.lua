-- A pre-forking server (models/mm_space_fork.c): the server touches `mib`
-- MiB, then forks `workers` workers, one per CPU, which share its memory
-- copy-on-write; each writes `write_pct` percent of it, spread over the
-- whole (every page of a stride), and exits; the server exits last.
-- With thp = "always" the memory is 2 MiB THPs shared at PMD level, and
-- each worker's first write in a THP splits its mapping (thp_split_pmd)
-- before copying 4 KiB, as current kernels do.
--
--   ./run scenarios/fork-cow.lua -D thp=always
--   ./run --sweep 'thp=never,always' --sweep 'write_pct=1,10,50' scenarios/fork-cow.lua
--
-- results.*: fork_us (one fork, mean), cow_ms (a worker's writes, mean),
-- copies (4 KiB pages copied), thp_split_pmd, pgtable_pages (the workers'
-- page tables, all of them), zone_lock_acquisitions (of the write phase).
-- sweep-plot: y=results.cow_ms,x=write_pct,series=thp
-- sweep-label: results.cow_ms copy-on-write faults per worker (ms)
-- sweep-label: results.fork_us fork per worker (µs)
-- sweep-label: results.copies pages copied on write (count)
-- sweep-label: results.thp_split_pmd THP mappings split (count)
local p = mmsim.params{
  preset = "2s-1t",
  policy = "upstream",
  workers = 8,
  mib = 256,
  write_pct = 10,
  thp = "never",
}
assert(p.write_pct >= 1 and p.write_pct <= 100, "write_pct must be between 1 and 100")
local m = mmsim.machine{ preset = p.preset, policy = p.policy, thp = p.thp }
local ncpu = m:info().cpus
assert(p.workers >= 1 and p.workers < ncpu, "workers must be between 1 and " .. ncpu - 1)
local K, size = 4096, p.mib << 20
local stride = math.floor(100 / p.write_pct)
local r = { fork_ns = 0, cow_ns = 0, copies = 0, pgtable_pages = 0 }
local lock0

m:spawn{ cpu = 0, name = "server", fn = function()
  local server = m:process()
  local base = server:mmap(size)
  server:touch(base, size)
  local done = 0
  lock0 = m:lock_stats()
  for w = 1, p.workers do
    local t0 = mmsim.now()
    local worker = assert(server:fork())
    r.fork_ns = r.fork_ns + mmsim.now() - t0
    m:spawn{ cpu = w, name = "worker" .. w, fn = function()
      local t = mmsim.now()
      for page = (w - 1) % stride, size // K - 1, stride do
        worker:touch(base + page * K, K)
      end
      r.cow_ns = r.cow_ns + mmsim.now() - t
      local s = worker:stats()
      r.copies = r.copies + s.Private_Dirty // 4
      r.pgtable_pages = r.pgtable_pages + s.pgtable_pages
      worker:exit()
      done = done + 1
    end }
  end
  while done < p.workers do mmsim.sleep("100us") end
  server:exit()
end }
m:run()

local lock = m:lock_stats{ since = lock0 }
local split = tonumber(m:vmstat():match("\nthp_split_pmd (%d+)\n"))
print(string.format("fork-cow, thp %s: %d workers of a %d MiB server writing %d%%: fork %.1f us, "
  .. "writes %.3f ms a worker, %d pages copied, %d THP mappings split, %d zone->lock "
  .. "acquisitions", p.thp, p.workers, p.mib, p.write_pct, r.fork_ns / p.workers / 1e3,
  r.cow_ns / p.workers / 1e6, r.copies, split, lock.zone.acquisitions))
mmsim.result("fork_us", r.fork_ns / p.workers / 1e3)
mmsim.result("cow_ms", r.cow_ns / p.workers / 1e6)
mmsim.result("copies", r.copies)
mmsim.result("thp_split_pmd", split)
mmsim.result("pgtable_pages", r.pgtable_pages)
mmsim.result("zone_lock_acquisitions", lock.zone.acquisitions)
