-- m:drop_slab(), 2 written to drop_caches: the THP deferred split queue is
-- split whole (a THP cut by 4 KiB and one cut by 1 MiB: their unmapped
-- pages freed, 1 + 256), and the unused dentries and inodes pruned; a
-- second call finds nothing; an argument is an error.  Emptied slabs are
-- freed: m:slab_stats().slab_pages_freed.
local m = mmsim.machine{ preset = "test", thp = "always" }
local function stat(name) return tonumber(m:vmstat():match("\n" .. name .. " (%d+)")) end
local p = m:process()
local a = p:mmap("10M")
a = (a + (2 << 20) - 1) & ~((2 << 20) - 1)
p:touch(a, "8M")
assert(p:stats().AnonHugePages == 8192)
p:madvise(a + 4096, 4096, "dontneed")
p:munmap(a + (2 << 20) + 4096, "1M")
assert(stat("thp_deferred_split_page") == 2 and stat("thp_split_page") == 0)
local function free() return m:info().free_pages + m:info().pcp_pages end
local before = free()
assert(m:drop_slab() == 1 + 256)
assert(stat("thp_split_page") == 2, "the two queued THPs split")
assert(p:stats().AnonHugePages == 4096, "the two uncut THPs stay")
assert(free() == before + 257)
assert(m:drop_slab() == 0)
assert(not pcall(m.drop_slab, m, 1))

-- Dentries and inodes: a file looked up once is unused, and pruned.
m:kmem_cache_init()
for f = 1, 100 do m:open_file(f) end
assert(m:slab_stats().dentries == 100)
assert(m:drop_slab() >= 100)
assert(m:slab_stats().dentries == 0 and m:slab_stats().inodes == 0)

-- Slabs emptied beyond the node's min_partial go back to the page
-- allocator: slab_pages_freed counts the pages slab_pages loses.
m:kmem_cache_create{ name = "drop_test", size = 1024 }
local objs = {}
for i = 1, 4000 do objs[i] = m:kmem_cache_alloc("drop_test") end
local held = m:slab_stats()
for i = 1, 4000 do m:kmem_cache_free(objs[i]) end
local emptied = m:slab_stats()
assert(emptied.slab_pages < held.slab_pages and emptied.slab_pages_freed - held.slab_pages_freed ==
  held.slab_pages - emptied.slab_pages, string.format("slab pages %d -> %d, freed %d -> %d",
  held.slab_pages, emptied.slab_pages, held.slab_pages_freed, emptied.slab_pages_freed))
print("drop_slab splits the deferred THPs and prunes the dentries")
