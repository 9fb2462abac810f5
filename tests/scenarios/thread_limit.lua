-- Spawning more threads than the host can hold is a clear error up front,
-- not an abort inside SimGrid: 100,000 threads on a default host
-- (vm.max_map_count 65530) is past the limit.  This runs on the real host,
-- which may allow them all (then it checks only that they run); the
-- refusal itself is checked on a made-up host whose cgroup allows 256
-- threads by tests/scenarios/cgroup_memory.sh.
local m = mmsim.machine{ preset = "test" }
local n = 0
local ok, err = pcall(function()
  for i = 1, 100000 do
    m:spawn{ cpu = i % 4, fn = function() mmsim.sleep("1us") end }
    n = n + 1
  end
end)
if ok then
  print("this host allows " .. n .. " threads: nothing to check")
else
  assert(err:find("spawn: %d+ threads alive at once is this host's limit %(.+%); end some threads first"), err)
  print("refused after " .. n .. " threads: " .. err)
end
-- The threads spawned run, and the machine stays usable.
m:run()
m:check_invariants()
