-- `make bench`: pages migrated per wall-clock second by compaction.  Two
-- processes fault 2 GiB each in alternating 1 MiB chunks on node 0, one
-- exits, leaving every other MiB free, and /proc/sys/vm/compact_memory
-- (m:compact) compacts the node: its migrate scanner moves the survivor's
-- pages up to the free scanner's.
local P = mmsim.params{ preset = "2s-1t", policy = "upstream" }
local m = mmsim.machine{ preset = P.preset, policy = P.policy }
local a, b = m:process(), m:process()
local x, y = a:mmap("2G"), b:mmap("2G")
for off = 0, 2047 do
  a:touch(x + off * 1048576, "1M")
  b:touch(y + off * 1048576, "1M")
end
a:exit()
local t0 = os.clock()
local r = m:compact{ node = 0 }
local wall = os.clock() - t0
print(string.format("%-9s %d pages migrated (%d scanned, %d failed) in %.3f s: %.2f M pages/s",
  P.policy, r.migrated, r.migrate_scanned, r.failed, wall, r.migrated / wall / 1e6))
