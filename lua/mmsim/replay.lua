-- replay: real programs' traces replayed on a machine.
--
-- start() replays the memory system calls of an strace capture
-- (`strace -f -tt -T -e trace=memory`): mmap, munmap, mremap, madvise, brk
-- and mprotect, each traced thread (the PID column) a simulated thread, the
-- time between a thread's calls as its think time (asleep, off the CPU).
-- The capture shows no page faults, so the program's first writes follow a
-- rule (docs/API.md, "mmsim.replay"):
--   * a private anonymous writable mapping (or brk growth) of at most
--     eager_max bytes, or one made with MAP_POPULATE, is written whole when
--     made: small mappings (TLS, allocator metadata, .bss) are used at once;
--   * a larger one (a jemalloc extent, a malloc arena) is written from its
--     start at an even pace until the next such large mapping of the
--     process, or the end of the capture: an allocator maps a new extent
--     when the ones it has are used up;
--   * pages purged by madvise(MADV_DONTNEED or MADV_FREE) were written
--     before: those of the range not resident yet are written just before
--     the purge (MADV_HUGEPAGE, MADV_NOHUGEPAGE and MADV_COLLAPSE are
--     applied as made, so later first writes fault THPs where the
--     machine's thp setting allows);
--   * file mappings, MAP_SHARED, MAP_STACK and PROT_NONE mappings are never
--     written (the model has no page cache mappings, a stack grows by
--     faults the capture does not show).
-- Trace addresses keep their offset within their 512 GiB region (a PGD
-- entry's span) and each region the trace uses gets one of the simulated
-- address space's 31 upper regions, so page-table sharing and alignment are
-- the trace's.
--
-- kmem() replays a kmem tracepoint CSV (mm_page_alloc, mm_page_free,
-- mm_page_free_batched) as a kernel allocation source: each traced CPU's
-- events run on a simulated CPU at their times, frees paired with their
-- allocations by pfn; N CPUs replay ceil(N / traced CPUs) copies of the
-- trace's load (see start's comment for the rule).
local M = {}

local PAGE = 4096
local SLOT_SHIFT = 39
local SLOT_MASK = (1 << SLOT_SHIFT) - 1
local TOP_SLOT = 31       -- TASK_SIZE (2^44) / 2^39 - 1; region 0 holds mmap_min_addr

-- speed scales the capture's time: beyond a million, a second of trace
-- would pass in a microsecond and every gap round to nothing.
local MAX_SPEED = 1e6
local function check_speed(speed, who)
  if speed == nil then return 1.0 end
  if type(speed) ~= "number" or speed ~= speed or speed <= 0 or speed > MAX_SPEED then
    error(string.format("%s: speed must be a number above 0 and at most %g, got %s", who,
      MAX_SPEED, tostring(speed)), 3)
  end
  return speed
end

-- The advice the model applies, by strace's name (lower case, without
-- MADV_) or by the number strace prints for advice it cannot name.
local ADVICE = { dontneed = "dontneed", free = "free", hugepage = "hugepage",
  nohugepage = "nohugepage", collapse = "collapse", ["4"] = "dontneed", ["8"] = "free",
  ["14"] = "hugepage", ["15"] = "nohugepage", ["25"] = "collapse" }

local function page_up(x) return (x + PAGE - 1) // PAGE * PAGE end

-- The simulated address space of one traced process (one per execve).
local Space = {}
Space.__index = Space

local function new_space(m)
  local proc = assert(m:process(), "replay: no memory for the process")
  return setmetatable({ proc = proc, slots = {}, next_slot = TOP_SLOT, brk = nil }, Space)
end

-- The pieces of trace range [a, a + len) as simulated ranges, one per
-- 512 GiB region it meets: fn(sim_addr, len).
function Space:each(a, len, fn)
  local e = a + len
  while a < e do
    local s = a >> SLOT_SHIFT
    local t = self.slots[s]
    if not t then
      assert(self.next_slot >= 1, "replay: the trace uses more than 31 regions of 512 GiB")
      t = self.next_slot
      self.slots[s], self.next_slot = t, t - 1
    end
    local piece = math.min(e, (s + 1) << SLOT_SHIFT) - a
    fn((t << SLOT_SHIFT) | (a & SLOT_MASK), piece)
    a = a + piece
  end
end

function M.start(m, o)
  mmsim.check_options(o, { "strace", "cpus", "speed", "skip_bad", "eager_max", "fill" },
    "replay.start")
  assert(o.strace, "replay.start: strace (the capture's file) is required")
  local cpus = o.cpus or { 0 }
  assert(#cpus >= 1, "replay.start: cpus must list at least one CPU")
  local speed = check_speed(o.speed, "replay.start")
  local eager_max = mmsim.size(o.eager_max or "64K")
  local fill = o.fill ~= false
  local events, counts = mmsim.read_strace(o.strace, { skip_bad = o.skip_bad })

  local stats = { calls = { mmap = 0, munmap = 0, mremap = 0, madvise = 0, brk = 0, mprotect = 0 },
                  advice = { dontneed = 0, free = 0, hugepage = 0, nohugepage = 0, collapse = 0 },
                  collapse_failed = 0,
                  threads = 0, pages_touched = 0, unmatched = 0, other_advice = 0, execs = 0,
                  failed = 0, lines = counts.lines, bad_lines = counts.bad_lines,
                  first_bad = counts.first_bad, ignored = counts.ignored, end_ns = 0 }

  -- A large anonymous mapping is written until the next one, or the end.
  local function large(e)
    return e.call == "mmap" and e.anon and not e.shared and not e.stack and e.prot == "rw"
      and not e.populate and page_up(e.len) > eager_max
  end
  local deadline, next_large = {}, counts.duration_ns
  for i = #events, 1, -1 do
    local e = events[i]
    deadline[e] = next_large
    if large(e) then next_large = e.t end
  end

  -- Threads in order of first appearance, each with its events.
  local order, by_tid = {}, {}
  for _, e in ipairs(events) do
    local t = by_tid[e.tid]
    if not t then
      t = {}
      by_tid[e.tid] = t
      order[#order + 1] = e.tid
    end
    t[#t + 1] = e
  end

  local space = new_space(m)
  local handle = { stats = stats }
  handle.process = space.proc

  local function touch(sp, a, len)
    local ok, n, _, part = pcall(sp.proc.touch, sp.proc, a, len)
    if ok then
      if n then
        stats.pages_touched = stats.pages_touched + n
      else
        stats.failed = stats.failed + 1
        stats.pages_touched = stats.pages_touched + part
      end
    else
      stats.unmatched = stats.unmatched + 1
    end
  end

  -- A call the trace made on a range it never mapped (the binary and
  -- ld.so, mapped by execve) fails here: counted, not an error.
  local function result(ok, err)
    if not ok then
      if err == "ENOMEM" then stats.unmatched = stats.unmatched + 1 end
    end
  end

  -- New anonymous memory [a, a + len) of the trace, mapped by this thread.
  local function written(fills, e, a, len, now)
    if len <= eager_max or e.populate then
      space:each(a, len, function(s, n) touch(space, s, n) end)
    elseif fill then
      local t1 = math.max(now + 1, math.floor(deadline[e] / speed))
      space:each(a, len, function(s, n)
        fills[#fills + 1] = { space = space, lo = s, hi = s + n, done = s, t0 = now, t1 = t1 }
      end)
    end
  end

  local function do_mmap(fills, e, now)
    local a, len = e.ret, page_up(e.len)
    space:each(a, len, function(s, n) space.proc:mmap(n, e.prot, s) end)
    if e.anon and not e.shared and not e.stack and e.prot == "rw" then
      written(fills, e, a, len, now)
    end
  end

  local function do_brk(fills, e, now)
    if e.addr == 0 then
      -- brk(NULL) answers the current break: another one means an execve.
      if space.brk and space.brk ~= e.ret then
        space.proc:exit()
        space = new_space(m)
        handle.process = space.proc
        stats.execs = stats.execs + 1
      end
      space.brk = space.brk or e.ret
      return
    end
    local old = page_up(space.brk or e.ret)
    local new = page_up(e.ret)
    if new > old then
      space:each(old, new - old, function(s, n) space.proc:mmap(n, "rw", s) end)
      written(fills, e, old, new - old, now)
    elseif new < old then
      space:each(new, old - new, function(s, n) space.proc:munmap(s, n) end)
    end
    space.brk = e.ret
  end

  local function do_mremap(fills, e, now)
    local old, olen, nlen = e.addr, page_up(e.len), page_up(e.new_len)
    if e.ret == old then
      if nlen > olen then
        space:each(old + olen, nlen - olen, function(s, n) space.proc:mmap(n, "rw", s) end)
        written(fills, e, old + olen, nlen - olen, now)
      elseif nlen < olen then
        space:each(old + nlen, olen - nlen, function(s, n) space.proc:munmap(s, n) end)
      end
      return
    end
    -- Moved: the kernel moves the page tables; here each resident page is
    -- faulted at its new address before the old range goes.
    space:each(e.ret, nlen, function(s, n) space.proc:mmap(n, "rw", s) end)
    local keep = math.min(olen, nlen)
    for off = 0, keep - PAGE, PAGE do
      space:each(old + off, PAGE, function(s)
        if space.proc:follow_page(s) then
          space:each(e.ret + off, PAGE, function(d) touch(space, d, PAGE) end)
        end
      end)
    end
    space:each(old, olen, function(s, n) space.proc:munmap(s, n) end)
    if nlen > olen then written(fills, e, e.ret + olen, nlen - olen, now) end
  end

  local function do_madvise(e)
    local advice = ADVICE[e.advice]
    if not advice then
      stats.other_advice = stats.other_advice + 1
      return
    end
    stats.advice[advice] = stats.advice[advice] + 1
    space:each(e.addr, page_up(e.len), function(s, n)
      if advice == "dontneed" or advice == "free" then
        touch(space, s, n)
      end
      local ok, err = space.proc:madvise(s, n, advice)
      if advice == "collapse" and not ok then
        stats.collapse_failed = stats.collapse_failed + 1
      else
        result(ok, err)
      end
    end)
  end

  local function replay(fills, e, now)
    if e.call == "mmap" then do_mmap(fills, e, now)
    elseif e.call == "munmap" then
      space:each(e.addr, page_up(e.len), function(s, n) space.proc:munmap(s, n) end)
    elseif e.call == "madvise" then do_madvise(e)
    elseif e.call == "mprotect" then
      space:each(e.addr, page_up(e.len), function(s, n) result(space.proc:mprotect(s, n, e.prot)) end)
    elseif e.call == "brk" then do_brk(fills, e, now)
    else do_mremap(fills, e, now)
    end
    stats.calls[e.call] = stats.calls[e.call] + 1
  end

  -- A fill is written in chunks: when the next one is due, relative to
  -- the thread's start.
  local CHUNK = 64 * PAGE
  local function chunk_due(f)
    return f.t0 + (f.t1 - f.t0) * (math.min(f.done + CHUNK, f.hi) - f.lo) // (f.hi - f.lo)
  end
  -- Write what is due of each fill at time now.
  local function service(fills, now)
    for i = #fills, 1, -1 do
      local f = fills[i]
      local target = f.hi
      if now < f.t1 then
        target = f.lo + (f.hi - f.lo) * (now - f.t0) // (f.t1 - f.t0) // PAGE * PAGE
        if now >= chunk_due(f) then target = math.max(target, math.min(f.done + CHUNK, f.hi)) end
      end
      if target > f.done and f.space == space then
        touch(f.space, f.done, target - f.done)
        f.done = target
      end
      if f.done >= f.hi or f.space ~= space then table.remove(fills, i) end
    end
  end
  local function next_fill(fills)
    local t
    for _, f in ipairs(fills) do
      local d = chunk_due(f)
      if not t or d < t then t = d end
    end
    return t
  end

  local running = #order
  for i, tid in ipairs(order) do
    local evs = by_tid[tid]
    stats.threads = stats.threads + 1
    m:spawn{ cpu = cpus[(i - 1) % #cpus + 1], name = "replay" .. tid, fn = function()
      local start, fills = mmsim.now(), {}
      local function wait_until(due)
        while true do
          local f = next_fill(fills)
          if not f or f >= due then break end
          local now = mmsim.now() - start
          if f > now then mmsim.sleep(f - now) end
          service(fills, mmsim.now() - start)
        end
        local now = mmsim.now() - start
        if due > now then mmsim.sleep(due - now) end
      end
      for _, e in ipairs(evs) do
        wait_until(math.floor(e.t / speed))
        replay(fills, e, mmsim.now() - start)
      end
      wait_until(math.floor(counts.duration_ns / speed))
      service(fills, math.huge)
      running = running - 1
      if running == 0 then stats.end_ns = mmsim.now() end
    end }
  end
  return handle
end

-- kmem(): each simulated CPU j of the list replays traced CPU (j mod C) of
-- copy j // C, C the traced CPUs; a copy whose CPUs are fewer than C
-- (the last, when N is not a multiple) folds traced CPU c onto its CPU
-- c mod n.  Copy k runs k / copies of the mean gap between a traced CPU's
-- events later, so the copies' events interleave instead of coinciding.
-- With until_ns the capture repeats until then, a pass every (duration_ns
-- + the mean gap) / speed; movable = false leaves out movable allocations (the traced
-- programs' own pages, which a scenario's workloads stand for).  batch:
-- each wake-up also runs the events due within that much more time, early
-- (fewer sleeps); in fast-forward at least the horizon's (mmsim.horizon():
-- its threads run apart by that much anyway).
function M.kmem(m, o)
  mmsim.check_options(o, { "csv", "cpus", "speed", "skip_bad", "movable", "until_ns", "batch" },
    "replay.kmem")
  assert(o.csv, "replay.kmem: csv (the kmem events file) is required")
  assert(o.movable == nil or type(o.movable) == "boolean",
    "replay.kmem: movable must be true or false, not " .. tostring(o.movable))
  local speed = check_speed(o.speed, "replay.kmem")
  local list = o.cpus or 1
  if type(list) == "number" then
    local n = list
    assert(n >= 1 and n <= m:info().cpus, "replay.kmem: cpus must be 1 to " .. m:info().cpus)
    list = {}
    for j = 0, n - 1 do list[#list + 1] = j end
  end
  local tr = mmsim.read_kmem(o.csv, { skip_bad = o.skip_bad })
  local info = tr:info()
  local C = math.max(info.cpus, 1)
  local copies = (#list + C - 1) // C
  local r = tr:replay(m, copies, o.movable ~= false)
  local batch = mmsim.time(o.batch or 0)
  local stop = o.until_ns and (math.tointeger(o.until_ns)
    or error("replay.kmem: until_ns must be an integer"))
  local gap = info.duration_ns * C // math.max(info.events, 1)
  -- A pass of a repeated capture: its duration and one mean gap, so that
  -- its last event and the next pass's first do not coincide.
  local period = math.max((info.duration_ns + gap) // speed, 1)

  local handle = { info = info, copies = copies }
  local function update()
    local s = r:stats()
    for _, k in ipairs({ "lines", "bad_lines", "first_bad", "ignored" }) do s[k] = info[k] end
    s.copies = copies
    handle.stats = s
    return s
  end
  handle.update = update
  update()

  local running = 0
  for k = 0, copies - 1 do
    local base = k * C
    local n = math.min(C, #list - base)
    local shift = k * gap // copies
    for c = 0, C - 1 do
      local first = tr:first(c)
      if first then
        running = running + 1
        m:spawn{ cpu = list[base + c % n + 1], name = string.format("kmem%d.%d", k, c), fn = function()
          local start, pos, t = mmsim.now(), 0, first
          while t do
            local due = start + shift + math.floor(t / speed)
            if stop and due >= stop then break end
            if due > mmsim.now() then mmsim.sleep(due - mmsim.now()) end
            local ahead = math.max(batch, mmsim.horizon())
            pos, t = r:run(k, c, pos, math.floor((mmsim.now() + ahead - start - shift) * speed))
            if not t and stop then
              start, pos, t = start + period, 0, first
            end
          end
          running = running - 1
          if running == 0 then update() end
        end }
      end
    end
  end
  return handle
end

return M
