/* The slab model in Lua: caches, objects, kmalloc, file lookups that make
 * dentries and inodes, and /proc/slabinfo. */
#include "laux.h"
#include "lmmsimlib.h"

#include "models/dcache.h"
#include "models/fork.h"
#include "models/gbyield.h"
#include "models/page_frag.h"
#include "models/slub.h"

#include <glib.h>
#include <lauxlib.h>

const char *kernel_object_owner(struct machine *m, uint32_t owner)
{
	if (slab_owner(m, owner))
		return "a slab page (kmem_cache_free of its last object frees it)";
	if (owner == task_stack_owner())
		return "a thread's kernel stack (p:exit or p:exit_thread frees it)";
	if (owner == page_frag_owner())
		return "a network buffer block (m:page_frag_free of its last fragment frees it)";
	if (owner == kmem_replay_owner())
		return "a page of a kmem trace replay (the replay frees it)";
	return NULL;
}

static const char *const alloc_keys[] = { "cpu", "atomic", NULL };

/* The optional {cpu =, atomic =} table at idx: the call's CPU and gfp. */
static struct mm_ctx *alloc_opts(lua_State *L, struct machine *m, int idx, const char *what,
				 struct mm_ctx *buf, gfp_t *gfp)
{
	int opts = lua_isnoneornil(L, idx) ? 0 : idx;

	*gfp = GFP_KERNEL;
	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, alloc_keys, what);
		if (opt_bool_field(L, opts, "atomic", false))
			*gfp = GFP_ATOMIC;
	}
	return call_ctx(L, m, opts, buf);
}

/* An object or a pfn, nil when the allocator refused. */
static int push_handle(lua_State *L, bool ok, lua_Integer handle)
{
	if (ok)
		lua_pushinteger(L, handle);
	else
		lua_pushnil(L);
	return 1;
}

static int push_obj(lua_State *L, slab_obj_t obj)
{
	return push_handle(L, obj != SLAB_OBJ_NONE, (lua_Integer)obj);
}

static struct kmem_cache *check_cache(lua_State *L, struct machine *m, int idx, const char *what)
{
	const char *name = luaL_checkstring(L, idx);
	struct kmem_cache *s = kmem_cache_find(m, name);

	if (!s)
		luaL_error(L, "%s: no cache named '%s' (m:kmem_cache_init() makes the standard ones)",
			   what, name);
	return s;
}

/* m:kmem_cache_init(): the standard caches; the slab model is on from now. */
static int l_kmem_cache_init(lua_State *L)
{
	kmem_cache_init(check_machine(L, 1));
	return 0;
}

/* m:kmem_cache_create{name =, size =, align =, reclaimable =} -> name */
static int l_kmem_cache_create(lua_State *L)
{
	static const char *const keys[] = { "name", "size", "align", "reclaimable", NULL };
	struct machine *m = check_machine(L, 1);

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "kmem_cache_create");
	lua_getfield(L, 2, "name");
	const char *name = luaL_checkstring(L, -1);
	lua_Integer size = opt_range_field(L, 2, "size", 0, 1, PAGE_SIZE << MAX_PAGE_ORDER);
	lua_Integer align = opt_range_field(L, 2, "align", 8, 1, PAGE_SIZE);
	unsigned flags = opt_bool_field(L, 2, "reclaimable", false) ? SLAB_RECLAIM_ACCOUNT : 0;
	if (!kmem_cache_create(m, name, (unsigned)size, (unsigned)align, flags))
		return luaL_error(L, "kmem_cache_create: cannot make cache '%s'", name);
	lua_pushstring(L, name);
	return 1;
}

/* m:kmem_cache_alloc(name [, {cpu =, atomic =}]) -> object, or nil */
static int l_kmem_cache_alloc(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	struct kmem_cache *s = check_cache(L, m, 2, "kmem_cache_alloc");
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	ctx = alloc_opts(L, m, 3, "kmem_cache_alloc", &buf, &gfp);
	return push_obj(L, kmem_cache_alloc(ctx, m, s, gfp));
}

/* m:kmalloc(size [, {cpu =, atomic =}]) -> object, or nil */
static int l_kmalloc(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	uint64_t size = check_size(L, 2, "kmalloc");
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	if (size == 0 || size > 8192)
		return luaL_error(L, "kmalloc: size %I: the kmalloc caches serve 1 to 8192 bytes "
				  "(m:kvmalloc takes larger ones)", (lua_Integer)size);
	if (!kmem_cache_find(m, "kmalloc-8"))
		return luaL_error(L, "kmalloc: no kmalloc caches (call m:kmem_cache_init() first)");
	ctx = alloc_opts(L, m, 3, "kmalloc", &buf, &gfp);
	return push_obj(L, kmalloc(ctx, m, size, gfp));
}

/* m:kmem_cache_free(object [, {cpu =}]) */
static int l_kmem_cache_free(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer obj = luaL_checkinteger(L, 2);
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	ctx = alloc_opts(L, m, 3, "kmem_cache_free", &buf, &gfp);
	if (kmem_cache_free(ctx, m, (slab_obj_t)obj))
		return luaL_error(L, "kmem_cache_free: %I is not an object in use", obj);
	return 0;
}

/* m:virt_to_page(object) -> the first pfn of its slab */
static int l_virt_to_page(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer obj = luaL_checkinteger(L, 2);
	pfn_t pfn = obj_slab_pfn(m, (slab_obj_t)obj);

	if (pfn == PFN_NONE)
		return luaL_error(L, "virt_to_page: %I is not an object in use", obj);
	lua_pushinteger(L, pfn);
	return 1;
}

/* m:open_file(file [, {cpu =}]) -> true if its dentry and inode were made */
static int l_open_file(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer file = luaL_checkinteger(L, 2);
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	if (file < 0 || file > UINT32_MAX)
		return luaL_error(L, "open_file: file %I: valid range 0 to %I", file,
				  (lua_Integer)UINT32_MAX);
	ctx = alloc_opts(L, m, 3, "open_file", &buf, &gfp);
	lua_pushboolean(L, d_alloc_file(ctx, m, (uint32_t)file) > 0);
	return 1;
}

/* m:slabinfo() -> /proc/slabinfo */
static int l_slabinfo(lua_State *L)
{
	GString *s = g_string_new(NULL);

	proc_slabinfo(check_machine(L, 1), s);
	return push_gstring(L, s);
}

/* m:slab_caches() -> {[name] = {active_objs =, num_objs =, objsize =,
 * objperslab =, pagesperslab =, num_slabs =, allocs =, frees =,
 * order_fallbacks =, slabs_freed =, reclaimable =}} */
static int l_slab_caches(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	struct kmem_cache *s;

	lua_newtable(L);
	for (unsigned i = 0; (s = kmem_cache_nth(m, i)); i++) {
		struct slabinfo si;

		kmem_cache_info(s, &si);
		lua_createtable(L, 0, 11);
		set_int(L, "active_objs", (lua_Integer)si.active_objs);
		set_int(L, "num_objs", (lua_Integer)si.num_objs);
		set_int(L, "objsize", si.objsize);
		set_int(L, "objperslab", si.objperslab);
		set_int(L, "pagesperslab", si.pagesperslab);
		set_int(L, "num_slabs", (lua_Integer)si.num_slabs);
		set_int(L, "allocs", (lua_Integer)si.allocs);
		set_int(L, "frees", (lua_Integer)si.frees);
		set_int(L, "order_fallbacks", (lua_Integer)si.order_fallbacks);
		set_int(L, "slabs_freed", (lua_Integer)si.slabs_freed);
		lua_pushboolean(L, si.reclaimable);
		lua_setfield(L, -2, "reclaimable");
		lua_setfield(L, -2, si.name);
	}
	return 1;
}

/* m:slab_stats() -> {slabs =, slab_pages =, slab_pages_freed =, sparse_slabs =,
 * sparse_pages =, dentries =, inodes =, frag_blocks =, xa_nodes =, stacks =,
 * ...}: slabs of every cache and their pages (and the pages freed since
 * boot), those with under 10% of their objects in use, the dentries and
 * inodes cached, the page fragment blocks held, the page cache's xarray leaf nodes, the
 * kernel stacks and network fragments made, freed and alive. */
static int l_slab_stats(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	unsigned long dentries = 0, inodes = 0;
	struct slab_sparse sp;

	slab_sparse_count(m, 100, &sp);
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		dentries += dcache_dentries(m, (int)n);
		inodes += dcache_inodes(m, (int)n);
	}
	struct page_frag_stats fs;

	page_frag_stats(m, &fs);
	lua_createtable(L, 0, 17);
	set_int(L, "slabs", (lua_Integer)sp.slabs);
	set_int(L, "slab_pages", (lua_Integer)sp.pages);
	set_int(L, "slab_pages_freed", (lua_Integer)sp.pages_freed);
	set_int(L, "sparse_slabs", (lua_Integer)sp.sparse_slabs);
	set_int(L, "sparse_pages", (lua_Integer)sp.sparse_pages);
	set_int(L, "dentries", (lua_Integer)dentries);
	set_int(L, "inodes", (lua_Integer)inodes);
	set_int(L, "frag_blocks", (lua_Integer)page_frag_blocks(m));
	set_int(L, "xa_nodes", (lua_Integer)xa_nodes(m));
	set_int(L, "stacks", (lua_Integer)(m->kstacks.allocated - m->kstacks.freed));
	set_int(L, "stacks_allocated", (lua_Integer)m->kstacks.allocated);
	set_int(L, "stacks_freed", (lua_Integer)m->kstacks.freed);
	set_int(L, "frags", (lua_Integer)fs.alive);
	set_int(L, "frags_allocated", (lua_Integer)fs.allocated);
	set_int(L, "frags_freed", (lua_Integer)fs.freed);
	set_int(L, "frag_refills", (lua_Integer)fs.refills);
	set_int(L, "frag_order0_refills", (lua_Integer)fs.order0_refills);
	return 1;
}

/* m:page_frag_alloc(size [, {cpu =, atomic =}]) -> the fragment's
 * address, or nil */
static int l_page_frag_alloc(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	uint64_t size = check_size(L, 2, "page_frag_alloc");
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	if (size == 0 || size > PAGE_SIZE)
		return luaL_error(L, "page_frag_alloc: size %I: valid range 1 to %I", (lua_Integer)size,
				  (lua_Integer)PAGE_SIZE);
	ctx = alloc_opts(L, m, 3, "page_frag_alloc", &buf, &gfp);
	frag_addr_t addr = page_frag_alloc(ctx, m, (unsigned)size, gfp);

	return push_handle(L, addr != FRAG_NONE, addr);
}

/* m:page_frag_free(addr [, {cpu =}]) */
static int l_page_frag_free(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer addr = luaL_checkinteger(L, 2);
	struct mm_ctx buf, *ctx;
	gfp_t gfp;

	ctx = alloc_opts(L, m, 3, "page_frag_free", &buf, &gfp);
	if (addr < 0 || page_frag_free(ctx, m, (frag_addr_t)addr))
		return luaL_error(L, "page_frag_free: %I is no live fragment (never allocated, or "
				  "freed already)", addr);
	return 0;
}

/* m:pageblock_spread() -> struct pageblock_spread's fields (models/gbyield.h). */
static int l_pageblock_spread(lua_State *L)
{
	static const struct lfield f[] = {
		LFIELD(struct pageblock_spread, unmovable_pages),
		LFIELD(struct pageblock_spread, reclaimable_pages),
		LFIELD(struct pageblock_spread, unmovable_pageblocks),
		LFIELD(struct pageblock_spread, nonmovable_pageblocks),
		LFIELD(struct pageblock_spread, unmovable_regions),
		LFIELD(struct pageblock_spread, pageblocks),
		LFIELD(struct pageblock_spread, regions),
		LFIELD(struct pageblock_spread, reserved_pages),
		LFIELD(struct pageblock_spread, runtime_unmovable_pages),
		LFIELD(struct pageblock_spread, runtime_unmovable_pageblocks),
		LFIELD(struct pageblock_spread, runtime_nonmovable_pageblocks),
	};
	struct pageblock_spread sp;

	pageblock_spread(check_machine(L, 1), &sp);
	lua_createtable(L, 0, 12);
	set_fields(L, &sp, f, G_N_ELEMENTS(f));
	return 1;
}

void lslab_open(lua_State *L, int methods)
{
	static const luaL_Reg machine_methods[] = {
		{ "kmem_cache_init", l_kmem_cache_init },
		{ "kmem_cache_create", l_kmem_cache_create },
		{ "kmem_cache_alloc", l_kmem_cache_alloc },
		{ "kmem_cache_free", l_kmem_cache_free },
		{ "kmalloc", l_kmalloc },
		{ "virt_to_page", l_virt_to_page },
		{ "open_file", l_open_file },
		{ "slabinfo", l_slabinfo },
		{ "slab_caches", l_slab_caches },
		{ "slab_stats", l_slab_stats },
		{ "page_frag_alloc", l_page_frag_alloc },
		{ "page_frag_free", l_page_frag_free },
		{ "pageblock_spread", l_pageblock_spread },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushvalue(L, methods);
	luaL_setfuncs(L, machine_methods, 0);
	lua_pop(L, 1);
}
