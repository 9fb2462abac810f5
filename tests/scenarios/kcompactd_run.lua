-- kcompactd, woken by kswapd and proactive.  A 4 GiB node is filled by a
-- process (and unmovable order-9 and 10 blocks for the rest), which then
-- frees the first half of every 2 MiB: 1.8 GiB are free, and the few
-- order-9 blocks that form are taken too.  An order-9 atomic request
-- (no direct reclaim, so no direct compaction) fails and wakes kswapd for
-- order 9; the node is above its watermarks, so kswapd reclaims nothing,
-- goes back to sleep and wakes kcompactd, which compacts the node until
-- an order-9 block is free: the same request then succeeds.  Without
-- kswapd nothing wakes kcompactd, until its proactive pass at 500 ms (the
-- fragmentation score is far above the 90 that proactiveness 20 allows),
-- and with proactiveness 0 not even then.
local function vmstat(m)
  local vm = {}
  for k, v in m:vmstat():gmatch("(%S+) (%d+)\n") do vm[k] = tonumber(v) end
  return vm
end

-- Every free block of order 9 or more goes to the kernel for good, atomic
-- requests taking what the reserves held back from the others.
local function take_large(m, atomic_only)
  for _, atomic in ipairs(atomic_only and { true } or { false, true }) do
    for order = 10, 9, -1 do
      while m:alloc{ order = order, atomic = atomic } do end
    end
  end
end

local function fragmented(opts)
  local m = mmsim.machine(opts)
  local p = m:process()
  local addr = p:mmap("3600M")
  assert(p:touch(addr, "3600M") == 3600 * 256)
  take_large(m)
  for off = 0, 3600 * 2^20 - 1, 2^21 do p:madvise(addr + off, "1M", "dontneed") end
  m:drain()
  -- The halves freed that happen to be neighbours in physical memory
  -- (atomic requests: the others would compact the rest).
  take_large(m, true)
  return m
end

-- Run a thread making one order-9 atomic request, then one after dt.
local function two_requests(m, dt)
  local first, second
  m:spawn{ cpu = 1, fn = function()
    first = m:alloc{ order = 9, atomic = true }
    mmsim.sleep(dt)
    second = m:alloc{ order = 9, atomic = true }
  end }
  m:run()
  return first, second
end

local p = mmsim.params{ case = "kswapd" }
local base = { sockets = 1, cpus_per_socket = 4, mem_per_node = "4G", thp = false }

if p.case == "kswapd" then
  local m = fragmented(base)
  local first, second = two_requests(m, "5ms")
  local vm = vmstat(m)
  assert(first == nil, "an order-9 block was free before compaction")
  assert(vm.compact_daemon_wake == 1, "kcompactd woken " .. vm.compact_daemon_wake .. " times")
  assert(vm.compact_daemon_migrate_scanned > 0 and vm.pgmigrate_success > 0)
  assert(vm.compact_stall == 0, "direct compaction ran for an atomic request")
  assert(vm.pgsteal_kswapd == 0, "kswapd reclaimed above the watermarks")
  assert(second ~= nil and second % 512 == 0, "kcompactd left no order-9 block")
  m:check_invariants()
  print(string.format("ok: kcompactd woken by kswapd, %d pages migrated", vm.pgmigrate_success))
elseif p.case == "proactive" then
  -- No kswapd: no wake-up; the proactive pass at 500 ms compacts the node.
  local m = fragmented(setmetatable({ kswapd_interval = 0 }, { __index = base }))
  local done_early
  m:spawn{ cpu = 1, fn = function()
    local first = m:alloc{ order = 9, atomic = true }
    mmsim.sleep("400ms")
    local vm = vmstat(m)
    done_early = vm.compact_daemon_migrate_scanned
    assert(first == nil and vm.compact_daemon_wake == 0)
    mmsim.sleep("200ms")
  end }
  m:run()
  local vm = vmstat(m)
  assert(done_early == 0, "kcompactd ran before its first timeout")
  assert(vm.compact_daemon_wake == 0 and vm.compact_daemon_migrate_scanned > 0,
    "proactive compaction did not run")
  m:check_invariants()
  print(string.format("ok: proactive compaction at 500 ms, %d pages migrated",
    vm.pgmigrate_success))
elseif p.case == "scaled" then
  -- time_scale = 100: the kernel's 500 ms timeout is 5 ms on this clock;
  -- nothing before it, the proactive pass after it.
  local m = fragmented(setmetatable({ kswapd_interval = 0, time_scale = 100 },
    { __index = base }))
  assert(m:info().time_scale == 100)
  local at
  m:spawn{ cpu = 1, fn = function()
    mmsim.sleep("4900us")
    at = vmstat(m).compact_daemon_migrate_scanned
    -- A pass over the node takes about 100 ms; unscaled, it would start
    -- at 500 ms.
    mmsim.sleep("300ms")
  end }
  m:run()
  local vm = vmstat(m)
  assert(at == 0, "kcompactd ran before 5 ms")
  assert(vm.compact_daemon_wake == 0 and vm.compact_daemon_migrate_scanned > 0,
    "no proactive pass by 305 ms at time_scale 100")
  for _, bad in ipairs({ 0.5, "fast", 2e9 }) do
    local ok, err = pcall(mmsim.machine, setmetatable({ time_scale = bad }, { __index = base }))
    assert(not ok and err:find("time_scale must be a number from 1 to 1e+09", 1, true), err)
  end
  print(string.format("ok: proactive compaction at 5 ms with time_scale 100, %d pages migrated",
    vm.pgmigrate_success))
elseif p.case == "off" then
  -- compaction_proactiveness = 0: no proactive pass either.
  local m = fragmented(setmetatable({ kswapd_interval = 0, compaction_proactiveness = 0 },
    { __index = base }))
  m:spawn{ cpu = 1, fn = function() mmsim.sleep("600ms") end }
  m:run()
  assert(vmstat(m).compact_daemon_migrate_scanned == 0)
  assert(not pcall(mmsim.machine,
    setmetatable({ compaction_proactiveness = 101 }, { __index = base })))
  print("ok: no proactive compaction at proactiveness 0")
else
  error("case: kswapd, proactive or off")
end
