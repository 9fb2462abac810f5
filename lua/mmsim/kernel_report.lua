-- kernel_report: where a run's unmovable pages are, printed and recorded
-- in the summary (scenarios/aging.lua, server-day.lua).
--
--   require("mmsim.kernel_report").report(m)
--
-- prints
--   unmovable: P pages in B pageblocks (P/B pages each), R of N 1 GiB regions
--     (the boot reservations included)
--   run-time unmovable: in X% of pageblocks, Y% of memory; with reclaimable: ...
--   slab: ... (with the slab model on)
-- and records results.spread.*: the share of pageblocks holding an
-- unmovable page the kernel allocated at run time (boot reservations
-- aside: they never move) against those pages' share of memory (a perfect
-- packing has the two equal), the same with reclaimable pages, and the
-- regions holding an unmovable page; and results.slab.*: slabs and their
-- pages, those whose slab has under 10% of its objects in use (pinned
-- nearly empty), dentries, stacks and fragment blocks.
--
--   require("mmsim.kernel_report").memory(m)
--
-- prints and records (results.end_memory.*) what the machine holds at the
-- end, in MiB: free (buddy and per-CPU lists), page cache, anonymous, and
-- kernel (slab, page tables, other allocations): when two policies end
-- holding different amounts, part of their yields' difference is not
-- placement.
local M = {}

function M.memory(m)
  local t = { free = 0, file = 0, anon = 0, kernel = 0 }
  for _, n in ipairs(m:nodes()) do
    t.free = t.free + n.free + n.pcp
    t.file = t.file + n.file
    t.anon = t.anon + n.anon
    t.kernel = t.kernel + n.slab + n.kernel + n.pgtable
  end
  print(string.format("memory at the end: %d MiB free, %d MiB page cache, %d MiB anonymous, "
    .. "%d MiB kernel", t.free // 256, t.file // 256, t.anon // 256, t.kernel // 256))
  for _, k in ipairs({ "free", "file", "anon", "kernel" }) do
    mmsim.result("end_memory." .. k .. "_mib", t[k] // 256)
  end
end

local PAGEBLOCK_PAGES = 512

function M.report(m)
  local sp = m:pageblock_spread()
  local pages = sp.pageblocks * PAGEBLOCK_PAGES
  local spread = {
    unmovable_pageblock_share = sp.runtime_unmovable_pageblocks / sp.pageblocks,
    unmovable_memory_share = sp.runtime_unmovable_pages / pages,
    nonmovable_pageblock_share = sp.runtime_nonmovable_pageblocks / sp.pageblocks,
    nonmovable_memory_share = (sp.runtime_unmovable_pages + sp.reclaimable_pages) / pages,
    unmovable_regions = sp.unmovable_regions,
  }
  print(string.format("unmovable: %d pages in %d pageblocks (%.1f pages each), %d of %d 1 GiB "
    .. "regions", sp.unmovable_pages, sp.unmovable_pageblocks,
    sp.unmovable_pages / math.max(sp.unmovable_pageblocks, 1), sp.unmovable_regions, sp.regions))
  print(string.format("run-time unmovable: in %.2f%% of pageblocks, %.2f%% of memory; with "
    .. "reclaimable: in %.2f%%, %.2f%%", 100 * spread.unmovable_pageblock_share,
    100 * spread.unmovable_memory_share, 100 * spread.nonmovable_pageblock_share,
    100 * spread.nonmovable_memory_share))
  for _, k in ipairs({ "unmovable_pageblock_share", "unmovable_memory_share",
                       "nonmovable_pageblock_share", "nonmovable_memory_share",
                       "unmovable_regions" }) do
    mmsim.result("spread." .. k, spread[k])
  end
  if next(m:slab_caches()) == nil then return end
  local st = m:slab_stats()
  print(string.format("slab: %d slabs (%d pages), %d under 10%% full (%d pages); %d dentries, "
    .. "%d inodes, %d xarray nodes cached; %d stacks, %d network fragment blocks", st.slabs,
    st.slab_pages, st.sparse_slabs, st.sparse_pages, st.dentries, st.inodes, st.xa_nodes,
    st.stacks, st.frag_blocks))
  for _, k in ipairs({ "slabs", "slab_pages", "sparse_slabs", "sparse_pages", "dentries",
                       "stacks", "frag_blocks" }) do
    mmsim.result("slab." .. k, st[k])
  end
end

return M
