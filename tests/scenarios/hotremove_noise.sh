#!/bin/sh
# movable_per_node makes memory offline reliable.  Node 1 (2 GiB) is 1700
# MiB full of a process's pages; kernel noise (slab-like unmovable and
# reclaimable pages, 5% never freed) runs on node 1's CPUs; from 10 ms on,
# four 128 MiB blocks are offlined from node 1's top.  In the Normal zone
# the kernel pages soon sit in the top blocks: at least one block fails
# (EBUSY) on a kernel page.  With a 1 GiB ZONE_MOVABLE, which no kernel
# allocation uses, all four go offline, their process pages migrated to
# node 0.  Under upstream and spb.  (One SimGrid engine per process: one
# run per case.)
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/s.lua" <<'LUA'
local p = mmsim.params{ policy = "upstream", movable = "" }
local movable = p.movable ~= "" and p.movable or nil
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 2, node_mem = { "4G", "2G" },
                         policy = p.policy, movable_per_node = movable,
                         memory_block_size = "128M", boot_reserve = false }
local proc = m:process()
proc:set_mempolicy{ policy = "bind", nodes = { 1 } }
proc:touch(proc:mmap("1700M"), "1700M")
local managed = m:info().managed_pages
require("mmsim.kernel_noise").start(m, { mode = "pages", cpus = { 2, 3 }, rate = 200,
                                         lifetime = "20ms",
                                         long_lived_share = 0.05, until_ns = mmsim.time("30ms") })
local ok, failed, migrated = 0, 0, 0
m:spawn{ cpu = 2, name = "offline", fn = function()
  mmsim.sleep("10ms")
  for _ = 1, 4 do
    local r, why, info = m:offline_memory{ node = 1, size = "128M" }
    if r then
      ok = ok + 1
    else
      local pg = m:page(info.fail_pfn)
      assert(why == "EBUSY" and pg.kind == "alloc" and pg.owner >> 28 == 3 and
             pg.type ~= "movable", "a block failed without a kernel page in it")
      failed = failed + 1
    end
    mmsim.sleep("2ms")
  end
end }
m:run()
m:check_invariants()
assert(m:info().managed_pages == managed - ok * 32768)
assert(proc:stats().rss == 1700 * 256)
print(string.format("%s movable=%s: %d offline, %d busy", p.policy, p.movable, ok, failed))
if movable then
  assert(ok == 4, "a Movable block stayed busy")
else
  assert(failed > 0, "every Normal block went offline under kernel noise")
end
LUA
for policy in upstream spb; do
	"$MMSIM" --out "$out/r" -D policy=$policy "$out/s.lua" 2> "$out/stderr" || { cat "$out/stderr"; exit 1; }
	"$MMSIM" --out "$out/r" -D policy=$policy -D movable=1G "$out/s.lua" 2> "$out/stderr" || { cat "$out/stderr"; exit 1; }
done
