-- Compaction under spb keeps every pageblock counted (issue 34 item 9):
-- 2 MiB THPs in every other 2 MiB of a 1 GiB range, then m:compact().
-- A free pageblock that expand gave back whole after a larger block was
-- split still carries the usage bits of that split; compaction's scan
-- found nothing in use there and cleared PB_has_movable only, leaving it
-- with no bit at all ("types and free undercount the initialised
-- pageblocks").  It is marked wholly free instead.
local M, G = 2 << 20, 1 << 30
local m = mmsim.machine{ sockets = 1, cpus_per_socket = 2, mem_per_node = "4G", policy = "spb",
  thp = { ["2048kB"] = "always" } }
local p = m:process()
local a = (p:mmap(2 * G) + G - 1) & ~(G - 1)
for off = 0, G - 1, 2 * M do p:touch(a + off, M) end
assert(p:stats().thp_pmd == 256)
m:check_invariants()
local free0 = m:spb_stats()
m:compact()
m:check_invariants()
assert(p:stats().thp_pmd == 256 and p:stats().rss == 256 * 512)
local s = m:spb_stats()
assert(s.total == free0.total)
