-- mmsim.replay end to end, one case a run (SimGrid runs one engine per
-- process), for tests/scenarios/replay.sh:
--   -D case=redis     the redis capture: the calls counted here apart from
--                     the replay's reader, the first-write figures; and the
--                     fixed-address mmap the replay rests on
--   -D case=speed2    the same twice as fast
--   -D case=python    the python capture, which execs
--   -D case=nofill    redis without the fill of large mappings
--   -D case=strace -D file=F [-D skip_bad=true]   replay F, print its counts
--   -D case=kmem -D file=F -D cpus=N [-D skip_bad=true]   replay F, print
--                     the blocks allocated and freed by order
--   -D case=kmem_repeat -D file=F   F's unmovable and reclaimable load
--                     (movable = false) repeated for two passes and 1 ns:
--                     blocks allocated by order, the blocks still live, and
--                     those the second pass freed for the first (recycled),
--                     and the pages it holds at the end
--   -D case=kmem_small -D file=F   F repeated for two passes on a 256 MiB
--                     machine, where allocations fail: the failed ones, and
--                     whether the replay's live blocks are all the memory it
--                     holds at the end
local p = mmsim.params{ case = "redis", file = "", cpus = 2, skip_bad = false }
local root = arg[0]:gsub("tests/scenarios/[^/]*$", "")
local replay = require("mmsim.replay")
local redis = root .. "data/real/redis-jemalloc-default.strace"

local function calls_line(r)
  local c = r.stats.calls
  return string.format("calls mmap %d munmap %d madvise %d mprotect %d brk %d mremap %d",
    c.mmap, c.munmap, c.madvise, c.mprotect, c.brk, c.mremap)
end

-- The calls of a capture counted here, apart from the replay's reader:
-- every `name(... = ret` line whose ret is not an error.
local function count_calls(path)
  local n = { mmap = 0, munmap = 0, madvise = 0, mprotect = 0, brk = 0, mremap = 0 }
  for line in io.lines(path) do
    local name, ret = line:match("^%d+%s+[%d:.]+%s+(%l+)%(.*%)%s+= (%S+)")
    if name and n[name] and ret:sub(1, 1) ~= "-" then n[name] = n[name] + 1 end
  end
  return n
end

local function check_counts(r, path)
  local want = count_calls(path)
  for call, n in pairs(want) do
    assert(r.stats.calls[call] == n, string.format("%s: replayed %d, the trace has %d",
      call, r.stats.calls[call], n))
  end
  return want
end

local function run(path, o)
  local m = mmsim.machine{ preset = o.preset or "test-numa" }
  local r = replay.start(m, { strace = path, cpus = o.cpus or { 0, 1 }, speed = o.speed,
                              fill = o.fill, skip_bad = o.skip_bad })
  local t = m:run()
  m:check_invariants()
  return m, r, t
end

if p.case == "redis" then
  -- p:mmap(size, prot, addr) maps at addr, unmapping what was there.
  local m = mmsim.machine{ preset = "test" }
  local pr = m:process()
  local a = 0x100000000
  assert(pr:mmap("64K", "rw", a) == a)
  assert(pr:touch(a, "64K") == 16)
  assert(pr:mmap("16K", "r", a + 8192) == a + 8192)
  assert(pr:stats().rss == 12, "MAP_FIXED over 4 resident pages frees them")
  assert(pr:follow_page(a + 8192) == nil and pr:follow_page(a) ~= nil)
  local ok, err = pcall(pr.mmap, pr, "4K", "rw", 1 << 44)
  assert(not ok and err:find("outside the address space"), err)
  assert(not pcall(pr.mmap, pr, "4K", "rw", a + 1), "an unaligned address is refused")
  m:check_invariants()
  ok, err = pcall(replay.start, m, { strace = redis, cpu = { 0 } })
  assert(not ok and err:find("unknown field 'cpu'"), err)

  -- The redis capture: every call replayed, over the capture's 9.3 s.
  local r, t
  m, r, t = run(redis, {})
  local want = check_counts(r, redis)
  assert(want.mmap == 108 and want.madvise == 356 and want.munmap == 3, "the capture's own counts")
  assert(r.stats.calls.mremap == 0 and r.stats.bad_lines == 0)
  assert(r.stats.threads == 2, "two threads made memory calls")
  assert(t >= 9.3e9 and t < 9.4e9, "the replay lasts the capture's 9.3 s: " .. t)
  -- First writes: jemalloc's extents (2.5 to 48 MiB, 285 MiB in all) are
  -- written as they fill; the purges (253 MB) free most of it again.
  local rss = r.process:stats().rss
  assert(r.stats.pages_touched > 60000, "pages written " .. r.stats.pages_touched)
  assert(rss > 5000 and rss < r.stats.pages_touched - 50000, "resident " .. rss)
  -- Two mprotects of execve's mappings (the binary's and ld.so's RELRO) meet nothing.
  assert(r.stats.unmatched == 2, "unmatched " .. r.stats.unmatched)
  print(calls_line(r))
  print("pages_touched " .. r.stats.pages_touched)
elseif p.case == "speed2" then
  local _, r, t = run(redis, { speed = 2, cpus = { 0 } })
  assert(t >= 4.65e9 and t < 4.7e9, "speed 2: " .. t)
  check_counts(r, redis)
elseif p.case == "python" then
  -- brk(NULL) answers a new break: an execve, a new address space.
  local py = root .. "data/real/python-churn-jemalloc.strace"
  local _, r = run(py, { preset = "test" })
  check_counts(r, py)
  assert(r.stats.execs == 1, "execs " .. r.stats.execs)
elseif p.case == "nofill" then
  local _, r = run(redis, { fill = false })
  print("pages_touched " .. r.stats.pages_touched)
elseif p.case == "strace" then
  local _, r = run(p.file, { skip_bad = p.skip_bad })
  print(calls_line(r))
  print("bad_lines " .. r.stats.bad_lines)
  print("first_bad " .. tostring(r.stats.first_bad))
elseif p.case == "kmem" then
  local m = mmsim.machine{ preset = "test-numa" }
  local k = replay.kmem(m, { csv = p.file, cpus = p.cpus, skip_bad = p.skip_bad })
  m:run()
  m:check_invariants()
  local s = k.stats
  for o = 0, 10 do
    if s.allocated[o] > 0 or s.freed[o] > 0 then
      print(string.format("order %d allocated %d freed %d", o, s.allocated[o], s.freed[o]))
    end
  end
  print("failed " .. (function() local n = 0 for o = 0, 10 do n = n + s.failed[o] end return n end)())
  print("copies " .. k.copies)
  print("bad_lines " .. s.bad_lines)
elseif p.case == "kmem_repeat" then
  local m = mmsim.machine{ preset = "test-numa" }
  local info = mmsim.read_kmem(p.file):info()
  local k = replay.kmem(m, { csv = p.file, cpus = 2, movable = false,
    until_ns = 2 * info.duration_ns + 1 })
  m:run()
  m:check_invariants()
  local s = k.stats
  for o = 0, 10 do
    if s.allocated[o] > 0 then print(string.format("order %d allocated %d", o, s.allocated[o])) end
  end
  print("live " .. s.live)
  print("recycled " .. s.recycled)
  print("skipped " .. s.skipped)
  print("held " .. s.pages_allocated - s.pages_freed)
elseif p.case == "kmem_small" then
  local m = mmsim.machine{ sockets = 1, nodes_per_socket = 1, cpus_per_socket = 2,
    mem_per_node = "256M" }
  local info = mmsim.read_kmem(p.file):info()
  local function used() local i = m:info() return i.managed_pages - i.free_pages - i.pcp_pages end
  local before = used()
  local k = replay.kmem(m, { csv = p.file, cpus = 2, until_ns = 2 * info.duration_ns + 1 })
  m:run()
  m:check_invariants()
  local s = k.stats
  local failed = 0
  for o = 0, 10 do failed = failed + s.failed[o] end
  print("failed " .. failed)
  print("recycled " .. s.recycled)
  print("held " .. (s.pages_allocated - s.pages_freed == used() - before and "matches" or
    string.format("%d pages, the machine %d", s.pages_allocated - s.pages_freed, used() - before)))
else
  error("unknown case " .. p.case)
end
