#!/bin/sh
# Scripts cannot corrupt memory: objects outlive their machine safely, one
# machine refuses another's objects and the pages processes and the page
# cache own, counts are range-checked before they size an array, and deep
# recursion or m:run inside a simulated thread is an error, not a crash.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# run NAME STATUS PATTERN: run $dir/NAME.lua, want STATUS and PATTERN in its output.
run() {
	"$MMSIM" --out "$dir/res-$1" "$dir/$1.lua" > "$dir/out" 2>&1
	status=$?
	[ $status -eq "$2" ] || { cat "$dir/out"; fail "$1: exit status $status, wanted $2"; }
	grep -q -- "$3" "$dir/out" || { cat "$dir/out"; fail "$1: no '$3' in the output"; }
}

# A finalizer running after the machine's own (at the end every object is
# finalized) finds the machine destroyed instead of freed memory.
cat > "$dir/finalizer.lua" <<'LUA'
local p
setmetatable({}, { __gc = function() print(pcall(p.mmap, p, "64M")) end })
local m = mmsim.machine{ preset = "test" }
p = m:process()
LUA
run finalizer 0 "false.*the process's machine has been destroyed"

printf 'mmsim.machine{ mem_per_node = "1G", nodes_per_socket = 100000000 }\n' > "$dir/nps.lua"
run nps 1 "nps.lua:1: field 'nodes_per_socket' is 100000000: valid range 1 to 64"
printf 'mmsim.machine{ mem_per_node = "1G", sockets = 2^32 + 1 }\n' > "$dir/sockets.lua"
run sockets 1 "sockets.lua:1: field 'sockets' is 4294967297: valid range 1 to 64"
printf 'mmsim.machine{ mem_per_node = "1G", sockets = 16, nodes_per_socket = 8 }\n' > "$dir/nodes.lua"
run nodes 1 "nodes.lua:1: cannot build machine: 128 NUMA nodes requested"
cat > "$dir/node_mem.lua" <<'LUA'
local t = {}
for i = 1, 1000 do t[i] = "1G" end
mmsim.machine{ node_mem = t }
LUA
run node_mem 1 "node_mem.lua:3: node_mem lists 1000 nodes, the machine has 1"
# A size where the list goes was ignored: the machine kept the preset's 8 GiB.
printf 'mmsim.machine{ preset = "test", node_mem = "1G" }\n' > "$dir/node_mem_str.lua"
run node_mem_str 1 "node_mem_str.lua:1: node_mem must be a list of sizes, one per node (not a string)"
# A string where a boolean goes was taken as true: "no" turned NUMA
# balancing on.
printf 'mmsim.machine{ preset = "test", numa_balancing = "no" }\n' > "$dir/bool_str.lua"
run bool_str 1 "bool_str.lua:1: mmsim.machine: numa_balancing must be true or false, not no"

cat > "$dir/kvfree.lua" <<'LUA'
local m1 = mmsim.machine{ preset = "test" }
local m2 = mmsim.machine{ preset = "test" }
local a = m1:kvmalloc{ size = "8M" }
local ok, err = pcall(m2.kvfree, m2, a)
assert(not ok and err:find("kvfree: the area belongs to another machine"), err)
assert(m2:info().free_pages <= m2:info().managed_pages)
m1:kvfree(a)
m1:check_invariants()
m2:check_invariants()
print("kvfree ok")
LUA
run kvfree 0 "kvfree ok"

cat > "$dir/free_owned.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
local p = m:process()
local a = p:mmap("64K")
p:touch(a, "64K")
local ok, err = pcall(m.free, m, p:follow_page(a))
assert(not ok and err:find("is anonymous memory of a process"), err)
ok, err = pcall(m.free_batch, m, { p:follow_page(a) })
assert(not ok and err:find("is anonymous memory of a process"), err)
local before = m:info().file_pages
m:read_file{ file = 1, pages = 4 }
local file_pfn
for pfn = 0, m:info().frames - 1, 1 do
  local pg = m:page(pfn)
  if pg.kind == "alloc" and pg.owner == (4 << 28 | 1) then file_pfn = pfn break end
end
ok, err = pcall(m.free, m, file_pfn)
assert(not ok and err:find("is in the page cache"), err)
ok, err = pcall(m.alloc, m, { owner = 1 << 28 | 5 })
assert(not ok and err:find("owner word"), err)
local area = m:kvmalloc{ size = "64K" }
local kv_pfn
for pfn = 0, m:info().frames - 1, 1 do
  local pg = m:page(pfn)
  if pg.kind == "alloc" and pg.owner == (3 << 28 | 0x0f000000) then kv_pfn = pfn break end
end
ok, err = pcall(m.free, m, kv_pfn)
assert(not ok and err:find("is part of a kvmalloc area"), err)
ok, err = pcall(m.alloc, m, { owner = 3 << 28 | 0x0f000000 })
assert(not ok and err:find("model's own allocators"), err)
m:free(m:alloc{ owner = 3 << 28 | 2 })
m:kvfree(area)
local gig = assert(m:alloc_gigantic())
ok, err = pcall(m.free, m, gig)
assert(not ok and err:find("is part of a gigantic page"), err)
m:free_gigantic(gig)
assert(m:info().file_pages == before + 4)
m:check_invariants()
p:exit()
m:check_invariants()
print("owned pages ok")
LUA
run free_owned 0 "owned pages ok"

# A coroutine runs on the thread that resumes it: it takes that thread's
# time, and cannot run the engine from inside it.
cat > "$dir/coroutine.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
m:spawn{ cpu = 1, fn = function()
  local ok, err = coroutine.resume(coroutine.create(function() return m:run() end))
  assert(not ok and err:find("run: called from a simulated thread"), err)
  local t0 = mmsim.now()
  local step = coroutine.wrap(function()
    assert(mmsim.cpu() == 1)
    local pfn = m:alloc{}
    coroutine.yield(pfn)
    mmsim.sleep("1us")
    m:free(pfn)
    return "done"
  end)
  assert(step())
  assert(step() == "done" and mmsim.now() >= t0 + 1000)
  ok, err = pcall(coroutine.wrap(function() error("boom") end))
  assert(not ok and err:find("coroutine.lua:%d+: boom"), err)
end }
m:run()
m:check_invariants()
print("coroutines ok")
LUA
run coroutine 0 "coroutines ok"

# Lua's C-call limit stops the recursion before it overflows the thread's stack.
cat > "$dir/deep.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
local function gsub_rec(n)
  if n == 0 then return "x" end
  return (string.gsub("a", "a", function() return gsub_rec(n - 1) end))
end
local function sort_rec(n)
  if n == 0 then return end
  table.sort({ 3, 2, 1 }, function(a, b) sort_rec(n - 1) return a < b end)
end
m:spawn{ cpu = 0, fn = function()
  local ok, err = pcall(gsub_rec, 150)
  assert(ok or err:find("C stack overflow"), err)
  ok, err = pcall(sort_rec, 10000)
  assert(not ok and err:find("C stack overflow"), err)
  gsub_rec(10000)
end }
m:run()
LUA
run deep 1 "thread on CPU 0: .*C stack overflow"
echo "ok: memory safety"
