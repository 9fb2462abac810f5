/* The slab model in Lua: caches, objects, kmalloc, file lookups that make
 * dentries and inodes, and /proc/slabinfo. */
#include "lmachine.h"

#include "models/dcache.h"
#include "models/slub.h"

#include <glib.h>
#include <lauxlib.h>

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
		lua_getfield(L, opts, "atomic");
		if (lua_toboolean(L, -1))
			*gfp = GFP_ATOMIC;
		lua_pop(L, 1);
	}
	return call_ctx(L, m, opts, buf);
}

static int push_obj(lua_State *L, slab_obj_t obj)
{
	if (obj == SLAB_OBJ_NONE)
		lua_pushnil(L);
	else
		lua_pushinteger(L, (lua_Integer)obj);
	return 1;
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
	lua_getfield(L, 2, "reclaimable");
	unsigned flags = lua_toboolean(L, -1) ? SLAB_RECLAIM_ACCOUNT : 0;
	lua_pop(L, 1);
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

/* m:slab_stats() -> {slabs =, sparse_slabs =, dentries =, inodes =}: slabs
 * of every cache, those with under 10% of their objects in use, and the
 * dentries and inodes cached. */
static int l_slab_stats(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	unsigned long sparse, total, dentries = 0, inodes = 0;

	slab_sparse_count(m, 100, &sparse, &total);
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		dentries += dcache_dentries(m, (int)n);
		inodes += dcache_inodes(m, (int)n);
	}
	lua_createtable(L, 0, 4);
	set_int(L, "slabs", (lua_Integer)total);
	set_int(L, "sparse_slabs", (lua_Integer)sparse);
	set_int(L, "dentries", (lua_Integer)dentries);
	set_int(L, "inodes", (lua_Integer)inodes);
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
		{ "open_file", l_open_file },
		{ "slabinfo", l_slabinfo },
		{ "slab_caches", l_slab_caches },
		{ "slab_stats", l_slab_stats },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushvalue(L, methods);
	luaL_setfuncs(L, machine_methods, 0);
	lua_pop(L, 1);
}
