-- `./run validate`'s model side (validate/validate.sh): one case's workload,
-- as validate/CASE.c runs it on the host, on the host preset with the host's
-- sysctls and THP knobs (-D, read by the harness; min_free_kbytes -1: the
-- model computes it).  The kernel's files are
-- written at the native program's checkpoints, "before" and "after"
-- (before.vmstat, after.buddyinfo, ...), and the workload's own figures,
-- as the native program prints them, in after.proc.
local P = mmsim.params{ case = "", tasks = 2, mib = 128, loops = 1, children = 64, files = 1000,
  gigantic = 1, min_free_kbytes = -1, watermark_scale_factor = 10,
  watermark_boost_factor = 15000, percpu_pagelist_high_fraction = 0,
  compaction_proactiveness = 20, extfrag_threshold = 500, thp = "madvise",
  thp_defrag = "madvise" }
local m = mmsim.machine{ preset = "host", thp = P.thp, thp_defrag = P.thp_defrag,
  min_free_kbytes = P.min_free_kbytes >= 0 and P.min_free_kbytes or nil,
  watermark_scale_factor = P.watermark_scale_factor,
  watermark_boost_factor = P.watermark_boost_factor,
  percpu_pagelist_high_fraction = P.percpu_pagelist_high_fraction,
  compaction_proactiveness = P.compaction_proactiveness }
m:sysctl{ ["vm.extfrag_threshold"] = P.extfrag_threshold }
local MiB = 1 << 20
local slab_on = false
local ncpus = m:info().cpus

local function snap(name, own)
  mmsim.write_result_file(name .. ".vmstat", m:vmstat())
  mmsim.write_result_file(name .. ".buddyinfo", m:buddyinfo())
  mmsim.write_result_file(name .. ".pagetypeinfo", m:pagetypeinfo())
  mmsim.write_result_file(name .. ".zoneinfo", m:zoneinfo())
  mmsim.write_result_file(name .. ".transparent_hugepage", m:transparent_hugepage())
  if slab_on then mmsim.write_result_file(name .. ".slabinfo", m:slabinfo()) end
  -- The pagesets zoneinfo leaves out, in its layout ("count:" lines).
  local ps = {}
  for cpu = 0, ncpus - 1 do
    for _, s in ipairs(m:pagesets(cpu)) do
      ps[#ps + 1] = string.format("    cpu: %d\n              count: %d\n", cpu, s.count)
    end
  end
  mmsim.write_result_file(name .. ".pagesets", table.concat(ps))
  if own then
    local keys, lines = {}, {}
    for k in pairs(own) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, k in ipairs(keys) do lines[#lines + 1] = k .. " " .. math.tointeger(own[k]) .. "\n" end
    mmsim.write_result_file(name .. ".proc", table.concat(lines))
  end
end

-- The CPUs of n tasks spread over the machine's, in turn.
local function spread(n)
  local cpus = {}
  for i = 1, n do cpus[i] = (i - 1) % ncpus end
  return cpus
end

local case = {}

-- validate/files.c: a lookup and a creation per file, a dentry and an inode
-- each, on the CPUs in turn as the harness's one process runs anywhere.
function case.files()
  m:kmem_cache_init()
  slab_on = true
  snap("before")
  for i = 1, P.files do assert(m:open_file(i)) end
  snap("after", { files = P.files })
end

function case.page_fault1()
  snap("before")
  local pf = m:start_page_fault1{ cpus = spread(P.tasks), size = P.mib * MiB, loops = P.loops }
  m:run()
  assert(pf.failed == 0, "page_fault1: a task found no memory")
  snap("after", { minflt = pf.faults })
end

function case.mass_exit()
  -- Exit 10 ms after the last touch: the snapshot falls between the two.
  local w = m:start_mass_exit{ cpus = spread(P.children), size = P.mib * MiB,
    live = mmsim.time("10ms") }
  while (w.touch_end_ns or 0) == 0 do m:run{ duration = "1ms" } end
  snap("before")
  m:run()
  assert(w.failed == 0, "mass_exit: a process got less memory than asked")
  snap("after", { minflt = w.pages_touched })
end

function case.thp_madvise()
  local size, cut_4k, cut_1m = P.mib * MiB, 0, 0
  local p = m:process()
  snap("before")
  local a = p:mmap(size + 2 * MiB)
  a = (a + 2 * MiB - 1) & ~(2 * MiB - 1)
  p:madvise(a, size, "hugepage")
  p:touch(a, size)
  local own = { anon_huge_kb_touched = p:stats().AnonHugePages }
  for i = 0, size // (2 * MiB) // 2 - 1 do
    local mid, len = a + i * 2 * MiB + MiB // 2, i % 2 == 1 and MiB or 4096
    local kind = i % 6 // 2
    if kind == 0 then assert(p:madvise(mid, len, "dontneed"))
    elseif kind == 1 then assert(p:munmap(mid, len))
    else assert(p:mprotect(mid, len, "r")) end
    if len == MiB then cut_1m = cut_1m + 1 else cut_4k = cut_4k + 1 end
  end
  own.anon_huge_kb_cut = p:stats().AnonHugePages
  m:drop_slab()
  own.anon_huge_kb_shrunk = p:stats().AnonHugePages
  own.cut_4k, own.cut_1m = cut_4k, cut_1m
  p:exit()
  snap("after", own)
end

-- validate/fragment.c: page cache and 4 KiB anonymous memory 2 MiB at a
-- time, every other anonymous 2 MiB freed.
local function fragment()
  local chunks = P.mib * MiB // (2 * MiB) // 2
  local p = m:process()
  local a = p:mmap(chunks * 2 * MiB)
  p:madvise(a, chunks * 2 * MiB, "nohugepage")
  for i = 0, chunks - 1 do
    assert(m:read_file{ file = 1, pages = 512, index = i * 512 } == 512)
    p:touch(a + i * 2 * MiB, 2 * MiB)
  end
  for i = 0, chunks - 1, 2 do p:madvise(a + i * 2 * MiB, 2 * MiB, "dontneed") end
  return p, { file_pages = chunks * 512, anon_pages = chunks * 512 - (chunks + 1) // 2 * 512 }
end

function case.compact()
  local p, own = fragment()
  snap("before")
  m:compact()
  snap("after", own)
  p:exit()
end

function case.gigantic()
  local p, own = fragment()
  snap("before")
  local got = {}
  for _ = 1, P.gigantic do
    local pfn = m:alloc_gigantic()
    if not pfn then break end
    got[#got + 1] = pfn
  end
  own.gigantic_obtained = #got
  for _, pfn in ipairs(got) do m:free_gigantic(pfn) end
  snap("after", own)
  p:exit()
end

assert(case[P.case], "validate: unknown case '" .. P.case .. "'")
case[P.case]()
