-- Simulated threads outlive the threads that spawned them: a thread spawns
-- a child and ends; the child runs on, allocates, spawns a grandchild and
-- ends first too; the grandchild frees the child's pages.  Each waits until
-- its spawner's coroutine has been collected before it ends, so its
-- thread_exit runs with that coroutine freed (the use-after-free fixed in
-- 8a15b62 only a memory checker sees: tests/scenarios/spawn_orphan.sh).
local m = mmsim.machine{ preset = "test" }
-- Weak values: the spawners' coroutines while they live.
local alive = setmetatable({}, { __mode = "v" })
local result, parent_end

local function collected(name)
  collectgarbage()
  return alive[name] == nil
end

m:spawn{ cpu = 0, name = "parent", fn = function()
  alive.parent = coroutine.running()
  -- The parent's own table, filled by threads that run after it has ended.
  local box = {}
  result = box
  m:spawn{ cpu = 1, name = "child", fn = function()
    alive.child = coroutine.running()
    mmsim.sleep("1ms")
    box.parent_collected = collected("parent")
    box.child_start = mmsim.now()
    local held = {}
    for i = 1, 64 do held[i] = m:alloc{} end
    box.held = held
    m:spawn{ cpu = 2, name = "grandchild", fn = function()
      mmsim.sleep("2ms")
      box.child_collected = collected("child")
      for i = 1, #held do m:free(held[i]) end
      box.freed = #held
      box.grandchild_end = mmsim.now()
    end }
    box.child_end = mmsim.now()
  end }
  parent_end = mmsim.now()
end }

local t = m:run()
assert(parent_end == 0, "the parent ended at " .. tostring(parent_end))
assert(result.parent_collected and result.child_collected,
  "a spawner's coroutine was not collected before the thread it spawned ended")
assert(result.child_start == 1e6, "the child woke at " .. tostring(result.child_start))
assert(#result.held == 64 and result.child_end > 1e6 and result.child_end < 2e6,
  "the child allocated " .. #result.held .. " pages and ended at " .. tostring(result.child_end))
-- The grandchild freed the 64 pages the child allocated.
assert(result.freed == 64, "the grandchild freed " .. tostring(result.freed) .. " pages")
for _, pfn in ipairs(result.held) do
  assert(m:page(pfn).kind ~= "alloc", "page " .. pfn .. " left allocated")
end
-- The run ends when the last thread, the grandchild, does: 2 ms of sleep
-- and the frees after the child's end.
assert(result.grandchild_end > result.child_end + 2e6 and t == result.grandchild_end,
  "the run ended at " .. t .. ", the grandchild at " .. tostring(result.grandchild_end))
m:check_invariants()
print("ok: spawned threads outlive their spawners")
