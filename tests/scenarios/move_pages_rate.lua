-- move_pages(2)'s throughput between the two sockets against its source
-- (docs/COSTS.md, "The migration fit"): Shivank Garg's Zen 3 EPYC baseline
-- moved 1 GB at 3.31 GB/s in 4 KiB pages and 11.02 GB/s in 2 MiB folios.
-- Here 64 MiB of each, bound to node 0, moved to node 1; each within 15%.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, mem_per_node = "1G" }
local MiB = 1024 * 1024
local len = 64 * MiB
local function rate(thp)
  local gbs
  m:spawn{ cpu = 0, fn = function()
    local p = m:process()
    local a = p:mmap(len + 2 * MiB)
    a = (a + 2 * MiB - 1) // (2 * MiB) * (2 * MiB)
    if thp then p:madvise(a, len, "hugepage") end
    p:set_mempolicy{ policy = "bind", nodes = { 0 } }
    assert(p:touch(a, len))
    assert(p:stats().AnonHugePages == (thp and len // 1024 or 0))
    local t0 = mmsim.now()
    local r = p:move_pages(a, len, 1)
    gbs = len / (mmsim.now() - t0)
    assert(r.moved == len // 4096, r.moved)
    p:exit()
  end }
  m:run()
  return gbs
end
for _, c in ipairs{ { false, 3.31 }, { true, 11.02 } } do
  local got = rate(c[1])
  assert(math.abs(got / c[2] - 1) <= 0.15,
    string.format("%s: %.2f GB/s, published %.2f", c[1] and "2 MiB" or "4 KiB", got, c[2]))
  print(string.format("ok: move_pages in %s: %.2f GB/s (published %.2f)",
    c[1] and "2 MiB folios" or "4 KiB pages", got, c[2]))
end
