-- mmsim.replay and THP advice, for tests/scenarios/replay_thp.sh: the
-- hand-written capture tests/replay/thp-madvise.strace replayed under the
-- thp setting -D thp (or a capture's, -D settings=FILE), its THP figures
-- printed.  The capture: 8 MiB given MADV_HUGEPAGE and written as it
-- fills, then MADV_DONTNEED on the second half of its first 2 MiB and
-- MADV_FREE on the first half of its last; 4 MiB given MADV_NOHUGEPAGE;
-- 2 MiB never advised, collapsed with MADV_COLLAPSE when 7/8 written; one
-- MADV_WILLNEED (advice the model does not apply).
local p = mmsim.params{ thp = "madvise", settings = "" }
local root = arg[0]:gsub("tests/scenarios/[^/]*$", "")
local o = { preset = "test" }
if p.settings ~= "" then o.settings = p.settings else o.thp = p.thp end
local m = mmsim.machine(o)
local r = require("mmsim.replay").start(m, { strace = root .. "tests/replay/thp-madvise.strace" })
m:run()
assert(m:check_invariants())
local a = r.stats.advice
assert(a.hugepage == 1 and a.nohugepage == 1 and a.collapse == 1 and a.dontneed == 1
  and a.free == 1, "advice applied")
assert(r.stats.other_advice == 1 and r.stats.unmatched == 0 and r.stats.collapse_failed == 0)
local vm = m:vmstat()
local function stat(name) return tonumber(vm:match("\n" .. name .. " (%d+)")) end
local s = r.process:stats()
print(string.format("thp_fault_alloc %d thp_collapse_alloc %d thp_split_pmd %d thp_split_page %d "
  .. "thp_deferred_split_page %d thp_pmd %d AnonHugePages %d lazyfree %d rss %d",
  stat("thp_fault_alloc"), stat("thp_collapse_alloc"), stat("thp_split_pmd"),
  stat("thp_split_page"), stat("thp_deferred_split_page"), s.thp_pmd, s.AnonHugePages,
  s.lazyfree_pages, s.rss))
