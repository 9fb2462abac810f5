-- A boolean option takes true, false or nil: Lua reads a string such as
-- "no" as true, so before these checks `atomic = "no"` made an atomic
-- allocation and `numa_balancing = "no"` turned balancing on.
local m = mmsim.machine{ preset = "test" }
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok and err:find(pattern, 1, true), tostring(err))
end
fails("field 'atomic' must be true or false, not no", m.alloc, m, { order = 0, atomic = "no" })
fails("field 'noretry' must be true or false, not 1", m.kvmalloc, m, { size = "1M", noretry = 1 })
fails("field 'attempt' must be true or false, not no", m.gb_yield, m, { attempt = "no" })
fails("field 'skip_bad' must be true or false, not yes", mmsim.read_strace, "/dev/null",
  { skip_bad = "yes" })
fails("field 'threads' must be true or false, not 0", m.start_page_fault1, m,
  { cpus = { 0 }, size = 4096, loops = 1, threads = 0 })
m:kmem_cache_init()
fails("field 'reclaimable' must be true or false, not yes", m.kmem_cache_create, m,
  { name = "bools", size = 64, reclaimable = "yes" })
fails("field 'atomic' must be true or false, not no", m.kmem_cache_alloc, m, "kmalloc-64",
  { atomic = "no" })
fails("mmsim.machine: numa_balancing must be true or false, not no", mmsim.machine,
  { preset = "test", numa_balancing = "no" })
fails("replay.kmem: movable must be true or false, not no", require("mmsim.replay").kmem, m,
  { csv = "unused.csv", movable = "no" })
-- The booleans themselves still work.
assert(m:alloc{ order = 0, atomic = true })
assert(m:gb_yield{ attempt = false })
print("bool_fields: ok")
