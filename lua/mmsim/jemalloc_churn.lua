-- jemalloc_churn: a multi-threaded process allocating through jemalloc 5.3.
--
-- One process, one thread per CPU, each with its own arena. An arena maps
-- extents that grow through jemalloc's page size classes (2, 2.5, 3, 3.5,
-- 4, 5, 6, 7, 8, 10 ... MiB), carves objects out of them page-aligned
-- (small objects live in slabs, so the kernel sees runs of pages), and
-- touches the pages of an object on first use. Freed runs stay dirty (still
-- resident) for reuse; runs dirty for longer than the decay time are purged
-- with madvise(MADV_DONTNEED), as jemalloc's dirty decay does with muzzy
-- decay off, by whichever thread is working on the arena when the purge is
-- due. A share of each thread's objects is handed to another thread, which
-- frees them back into the owning arena: the kernel then sees pages faulted
-- on one CPU and purged from another.
--
--   local jc = require("mmsim.jemalloc_churn").start(m, {
--     cpus = {0, 1, 2, 3},     -- one thread per CPU
--     sizes = {                -- object size mix (rounded up to pages)
--       { size = "16K", weight = 50 }, { size = "64K", weight = 30 },
--       { size = "256K", weight = 15 }, { size = "1M", weight = 5 },
--     },
--     live_mib = 64,           -- live objects per thread
--     remote_share = 0.3,      -- objects freed by another thread
--     decay = "100ms",         -- dirty_decay_ms
--     work = "20us",           -- the application's work per object
--     until_ns = 50e6,         -- stop at this simulated time (required)
--   })
--   m:run()
--   print(jc.stats.objects, jc.stats.remote_frees, jc.stats.purged_pages)
local M = {}

local PAGE = 4096
local MiB = 1024 * 1024

-- jemalloc's size classes above 2 MiB: four per doubling.
local function extent_size(i)
  local group, step = i // 4, i % 4
  return (2 * MiB << group) + step * ((2 * MiB << group) // 4)
end

local Arena = {}
Arena.__index = Arena

local function new_arena(proc, decay)
  return setmetatable({ proc = proc, decay = decay, grow = 0, cur = nil,
                        runs = {}, by_start = {}, by_end = {}, extents = 0,
                        last_purge = 0 }, Arena)
end

function Arena:remove_run(r)
  self.by_start[r.addr], self.by_end[r.addr + r.len] = nil, nil
  for i, x in ipairs(self.runs) do
    if x == r then table.remove(self.runs, i) return end
  end
end

-- Return [addr, addr + len) to the arena, dirty since now, merging with
-- free neighbours (the merged run keeps the older dirty time so decay is
-- not postponed by new frees).
function Arena:free(addr, len, now)
  local r = { addr = addr, len = len, dirty = true, since = now }
  local before, after = self.by_end[addr], self.by_start[addr + len]
  if before and before.dirty then
    self:remove_run(before)
    r.addr, r.len, r.since = before.addr, before.len + r.len, math.min(before.since, now)
  end
  if after and after.dirty then
    self:remove_run(after)
    r.len, r.since = r.len + after.len, math.min(r.since, after.since)
  end
  self.runs[#self.runs + 1] = r
  self.by_start[r.addr], self.by_end[r.addr + r.len] = r, r
end

-- First fit among free runs, dirty (resident) ones first; then the current
-- extent; then a new, larger extent.
function Arena:alloc(len)
  local best
  for _, r in ipairs(self.runs) do
    if r.len >= len and (not best or (r.dirty and not best.dirty)) then
      best = r
      if r.dirty then break end
    end
  end
  if best then
    self:remove_run(best)
    if best.len > len then
      local rest = { addr = best.addr + len, len = best.len - len, dirty = best.dirty,
                     since = best.since }
      self.runs[#self.runs + 1] = rest
      self.by_start[rest.addr], self.by_end[rest.addr + rest.len] = rest, rest
    end
    return best.addr
  end
  if not self.cur or self.cur.used + len > self.cur.len then
    local size = extent_size(self.grow)
    while size < len do
      self.grow = self.grow + 1
      size = extent_size(self.grow)
    end
    local addr = self.proc:mmap(size)
    if not addr then return nil end
    self.grow = self.grow + 1
    self.extents = self.extents + 1
    self.cur = { addr = addr, len = size, used = 0 }
  end
  local addr = self.cur.addr + self.cur.used
  self.cur.used = self.cur.used + len
  return addr
end

-- Purge runs dirty for longer than the decay time; returns pages purged.
function Arena:purge(now)
  local pages = 0
  for _, r in ipairs(self.runs) do
    if r.dirty and now - r.since >= self.decay then
      self.proc:madvise(r.addr, r.len, "dontneed")
      r.dirty = false
      pages = pages + r.len // PAGE
    end
  end
  self.last_purge = now
  return pages
end

function M.start(m, o)
  o = o or {}
  mmsim.check_options(o, { "cpus", "sizes", "live_mib", "remote_share", "decay", "work", "until_ns" }, "jemalloc_churn.start")
  assert(o.until_ns, "jemalloc_churn: until_ns is required")
  local cpus = o.cpus or { 0 }
  local sizes = o.sizes or {
    { size = "16K", weight = 50 }, { size = "64K", weight = 30 },
    { size = "256K", weight = 15 }, { size = "1M", weight = 5 },
  }
  local live = (o.live_mib or 64) * MiB
  local remote_share = o.remote_share or 0.3
  local decay = mmsim.time(o.decay or "100ms")
  local work = mmsim.time(o.work or "20us")
  local stop = o.until_ns
  local stats = { objects = 0, remote_frees = 0, purged_pages = 0, extents = 0,
                  failed = 0, rss_pages = 0 }

  local total = 0
  for _, s in ipairs(sizes) do
    s.bytes = (mmsim.size(s.size) + PAGE - 1) // PAGE * PAGE
    total = total + s.weight
  end
  local function pick()
    local x = math.random() * total
    for _, s in ipairs(sizes) do
      x = x - s.weight
      if x <= 0 then return s.bytes end
    end
    return sizes[#sizes].bytes
  end

  local proc = assert(m:process(), "jemalloc_churn: no memory for the process")
  -- The process's first thread runs on the first CPU; the others are
  -- cloned (a task_struct and a kernel stack each, with the slab model on).
  local tids = {}
  for i = 2, #cpus do tids[i] = assert(proc:clone(), "jemalloc_churn: no memory for a thread") end
  local arenas, inbox = {}, {}
  for i = 1, #cpus do
    arenas[i] = new_arena(proc, decay)
    inbox[i] = {}
  end

  for i, cpu in ipairs(cpus) do
    m:spawn{ cpu = cpu, name = "jemalloc" .. cpu, fn = function()
      local arena, mine, held = arenas[i], {}, 0
      local function release(obj)
        arenas[obj.arena]:free(obj.addr, obj.len, mmsim.now())
        local a = arenas[obj.arena]
        if mmsim.now() - a.last_purge >= decay / 4 then
          stats.purged_pages = stats.purged_pages + a:purge(mmsim.now())
        end
      end
      while mmsim.now() < stop do
        -- Objects other threads handed over: free them into their arena.
        local box = inbox[i]
        while #box > 0 do
          release(table.remove(box))
          stats.remote_frees = stats.remote_frees + 1
        end
        local len = pick()
        local addr = arena:alloc(len)
        local ok = addr and proc:touch(addr, len)
        if not ok then
          stats.failed = stats.failed + 1
          if addr then arena:free(addr, len, mmsim.now()) end
        else
          stats.objects = stats.objects + 1
          mmsim.count_objects(1)
          local obj = { arena = i, addr = addr, len = len }
          if #cpus > 1 and math.random() < remote_share then
            local j = math.random(#cpus - 1)
            if j >= i then j = j + 1 end
            local b = inbox[j]
            b[#b + 1] = obj
          else
            mine[#mine + 1] = obj
            held = held + len
          end
        end
        while held > live do
          local old = table.remove(mine, 1)
          held = held - old.len
          release(old)
        end
        mmsim.work(work * (0.5 + math.random()))
      end
      stats.extents = stats.extents + arena.extents
      stats.rss_pages = proc:stats().rss
      if tids[i] then proc:exit_thread(tids[i]) end
    end }
  end
  return { stats = stats, process = proc }
end

return M
