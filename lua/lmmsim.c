/* The `mmsim` Lua module: machines, page allocation, dumps, the checker.
 * Documented in docs/API.md. */
#include "lmmsim.h"
#include "laux.h"
#include "lmmsimlib.h"
#include "lparams.h"
#include "lresults.h"
#include "mmsim-version.h"

#include "models/buddy.h"
#include "models/huge_memory.h"
#include "models/invariants.h"
#include "models/kvmalloc.h"
#include "models/machine.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/page_owner.h"
#include "models/slub.h"
#include "models/page_cache.h"
#include "models/pcp.h"
#include "models/procfs.h"
#include "models/swap.h"
#include "sim/host.h"
#include "sim/snapshot_read.h"

#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <string.h>

/* Registry array of every machine built, weak so it keeps none alive. */
#define MACHINES_KEY "mmsim.machines"

/* thp = false | true | "always" | "madvise" | "never" (2 MiB, the
 * top-level enabled) | { ["2048kB"] = ..., ["1048576kB"] = ... }.  A
 * boolean keeps the old option's meaning: false is "never", true the
 * default ("madvise"). */
static void check_thp_field(lua_State *L, int idx, struct machine_params *p)
{
	static const char *const sizes[NR_THP_SIZES] = { "2048kB", "1048576kB" };

	switch (lua_type(L, idx)) {
	case LUA_TBOOLEAN:
		p->thp = lua_toboolean(L, idx) ? THP_MADVISE : THP_NEVER;
		return;
	case LUA_TTABLE:
		lua_pushnil(L);
		while (lua_next(L, idx)) {
			const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
			int size = k ? thp_option_parse(sizes, NR_THP_SIZES, k) : -1;

			if (size < 0)
				luaL_error(L, "machine field 'thp': sizes are \"2048kB\" and "
					   "\"1048576kB\", got %s", k ? k : luaL_typename(L, -2));
			enum thp_enabled e = (enum thp_enabled)check_option_choice(
				L, lua_absindex(L, -1), "thp", thp_enabled_names, NR_THP_ENABLED);
			if (size == THP_PMD)
				p->thp = e;
			else
				p->thp_opts.pud_enabled = e;
			lua_pop(L, 1);
		}
		return;
	default:
		p->thp = (enum thp_enabled)check_option_choice(L, idx, "thp", thp_enabled_names,
							    NR_THP_ENABLED);
	}
}

/* mmsim.check_options(t, {"a", "b"}, what): the workload modules' check
 * of their option tables, the one the API's calls make; the message
 * names the line that called the module. */
static int l_check_options(lua_State *L)
{
	const char **keys;
	lua_Integer n;

	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checktype(L, 2, LUA_TTABLE);
	const char *what = luaL_checkstring(L, 3);
	n = luaL_len(L, 2);
	keys = lua_newuserdatauv(L, sizeof(*keys) * (size_t)(n + 1), 0);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_geti(L, 2, i);
		keys[i - 1] = luaL_checkstring(L, -1);
		/* The key list at index 2 keeps the strings alive. */
		lua_pop(L, 1);
	}
	keys[n] = NULL;
	check_known_keys_at(L, 1, keys, what, 2);
	return 0;
}

/* mmsim.machine{preset = "2s-1t"} or an explicit topology. */
/* A capture being imported: freed by the collector if the import stops
 * at an error. */
#define SNAPSHOT_MT "mmsim.snapshot"

static int l_snapshot_gc(lua_State *L)
{
	snapshot_destroy(luaL_checkudata(L, 1, SNAPSHOT_MT));
	return 0;
}

/* mmsim.machine{snapshot = PATH}: the capture's topology and settings
 * (a field of the script's own, read after, overrides a setting). */
static struct snapshot *machine_snapshot(lua_State *L, struct topology *t,
					 struct machine_params *p)
{
	static const char *const shape[] = { "preset", "sockets", "nodes_per_socket",
					     "cpus_per_socket", "mem_per_node", "node_mem",
					     "movable_per_node", "hotplug_reserve", NULL };
	const char *path;
	struct snapshot *s;
	char *err = NULL;

	if (lua_type(L, -1) != LUA_TSTRING)
		luaL_error(L, "mmsim.machine: 'snapshot' must be the path of a capture "
			   "(./run capture), got %s", luaL_typename(L, -1));
	path = lua_tostring(L, -1);
	for (const char *const *k = shape; *k; k++) {
		bool set = lua_getfield(L, 1, *k) != LUA_TNIL;

		lua_pop(L, 1);
		if (set)
			luaL_error(L, "mmsim.machine: a snapshot fixes the machine's layout; "
				   "'%s' cannot be given with it", *k);
	}
	s = lua_newuserdatauv(L, sizeof(*s), 0);
	memset(s, 0, sizeof(*s));
	if (luaL_newmetatable(L, SNAPSHOT_MT)) {
		lua_pushcfunction(L, l_snapshot_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	if (snapshot_read(path, s, t, p, &err)) {
		lua_pushstring(L, err);
		g_free(err);
		luaL_error(L, "mmsim.machine: %s", lua_tostring(L, -1));
	}
	return s;
}

static int l_machine(lua_State *L)
{
	struct topology t;
	struct engine_opts eo;
	struct machine_args a = { .sample_interval = 1000000 };
	struct snapshot *snap = NULL;
	char *err = NULL;

	luaL_checktype(L, 1, LUA_TTABLE);
	machine_options_check_known(L, 1);
	machine_params_default(&a.p);
	engine_opts_default(&eo);
	a.quantum_ns = (uint64_t)eo.quantum_ns;
	a.horizon_ns = (uint64_t)eo.horizon_ns;
	a.engine_hints = eo.hints;
	if (lua_getfield(L, 1, "snapshot") != LUA_TNIL) {
		if (lua_getfield(L, 1, "settings") != LUA_TNIL)
			return luaL_error(L, "mmsim.machine: 'settings' cannot be given with 'snapshot' "
					  "(the snapshot's settings are the machine's already)");
		lua_pop(L, 1);
		snap = machine_snapshot(L, &t, &a.p);
		/* The snapshot's userdata stays below the table's field. */
		lua_insert(L, 2);
	} else if (lua_getfield(L, 1, "preset") != LUA_TNIL) {
		static const char *const shape[] = { "sockets", "nodes_per_socket",
						     "cpus_per_socket", "mem_per_node", NULL };
		const char *name = luaL_checkstring(L, -1);

		/* A preset is a whole topology: a shape field beside it would be
		 * silently dropped. */
		for (const char *const *k = shape; *k; k++) {
			bool set = lua_getfield(L, 1, *k) != LUA_TNIL;

			lua_pop(L, 1);
			if (set)
				return luaL_error(L, "mmsim.machine: preset '%s' fixes the topology; "
						  "give '%s' without a preset (or node_mem to resize "
						  "the preset's nodes)", name, *k);
		}

		/* MMSIM_HOST_ROOT: another root for the files (tests). */
		if (!strcmp(name, "host")) {
			if (host_topology(&t, g_getenv("MMSIM_HOST_ROOT") ? g_getenv("MMSIM_HOST_ROOT") :
					  "", &err)) {
				lua_pushstring(L, err);
				g_free(err);
				return luaL_error(L, "%s", lua_tostring(L, -1));
			}
		} else if (topology_preset(&t, name)) {
			return luaL_error(L, "unknown machine preset '%s' (known: %s, host)", name,
					  topology_preset_names());
		}
	} else {
		lua_getfield(L, 1, "mem_per_node");
		uint64_t mem = lua_isnil(L, -1) ? 0 : check_size(L, -1, "mem_per_node");
		lua_pop(L, 1);
		unsigned sockets = (unsigned)opt_range_field(L, 1, "sockets", 1, 1, MAX_NUMNODES);
		unsigned nps = (unsigned)opt_range_field(L, 1, "nodes_per_socket", 1, 1, MAX_NUMNODES);
		unsigned cps = (unsigned)opt_range_field(L, 1, "cpus_per_socket", 4, 1, MAX_CPUS);

		err = topology_check_shape(sockets, nps, cps);
		if (err) {
			lua_pushstring(L, err);
			g_free(err);
			return luaL_error(L, "cannot build machine: %s", lua_tostring(L, -1));
		}
		topology_uniform(&t, sockets, nps, cps, mem);
	}
	lua_pop(L, 1);
	switch (lua_getfield(L, 1, "node_mem")) {
	case LUA_TNIL:
		break;
	case LUA_TTABLE: {
		lua_Integer n = luaL_len(L, -1);

		if ((unsigned)n != t.nr_nodes)
			return luaL_error(L, "node_mem lists %d nodes, the machine has %d",
					  (int)n, (int)t.nr_nodes);
		for (lua_Integer i = 1; i <= n; i++) {
			lua_geti(L, -1, i);
			t.node_mem[i - 1] = check_size(L, -1, "node_mem");
			lua_pop(L, 1);
		}
		break;
	}
	default:
		return luaL_error(L, "node_mem must be a list of sizes, one per node (not a %s)",
				  luaL_typename(L, -1));
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "movable_per_node") != LUA_TNIL) {
		uint64_t mov = check_size(L, -1, "movable_per_node");

		for (unsigned n = 0; n < t.nr_nodes && n < MAX_NUMNODES; n++)
			t.movable_mem[n] = mov;
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "settings") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TSTRING)
			return luaL_error(L, "mmsim.machine: 'settings' must be the path of a capture "
					  "(./run capture --settings), got %s", luaL_typename(L, -1));
		if (snapshot_read_settings(lua_tostring(L, -1), &a.p, &err)) {
			lua_pushstring(L, err);
			g_free(err);
			return luaL_error(L, "mmsim.machine: %s", lua_tostring(L, -1));
		}
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "thp") != LUA_TNIL)
		check_thp_field(L, lua_absindex(L, -1), &a.p);
	lua_pop(L, 1);
	/* x86 uses 2 GiB memory blocks on machines of 64 GiB and more. */
	a.memory_block_size = topology_total_mem(&t) >= (64ULL << 30) ? 2ULL << 30 :
			      SECTION_SIZE_BYTES;
	machine_options_read(L, 1, &a);
	/* Fixed pagesets (a kernel before 6.7). */
	if (!a.p.pcp_high != !a.p.pcp_batch)
		return luaL_error(L, "mmsim.machine: pcp_high and pcp_batch go together (a fixed "
				  "pageset), got pcp_high %d and pcp_batch %d", a.p.pcp_high,
				  a.p.pcp_batch);
	if (a.p.pcp_high && a.p.pcp_high < a.p.pcp_batch)
		return luaL_error(L, "mmsim.machine: pcp_high (%d) must be at least pcp_batch (%d)",
				  a.p.pcp_high, a.p.pcp_batch);
	if (a.p.pcp_high && a.p.percpu_pagelist_high_fraction)
		return luaL_error(L, "mmsim.machine: pcp_high fixes the pagesets; it excludes "
				  "percpu_pagelist_high_fraction");
	/* /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, one per node. */
	if (lua_getfield(L, 1, "weighted_interleave") != LUA_TNIL) {
		luaL_checktype(L, -1, LUA_TTABLE);
		if (luaL_len(L, -1) != (lua_Integer)t.nr_nodes)
			return luaL_error(L, "weighted_interleave lists %d weights, the machine has "
					  "%d nodes", (int)luaL_len(L, -1), (int)t.nr_nodes);
		for (lua_Integer i = 1; i <= (lua_Integer)t.nr_nodes; i++) {
			lua_geti(L, -1, i);
			lua_Integer w = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;

			if (w < 1 || w > 255)
				return luaL_error(L, "weighted_interleave: node %d's weight must be an "
						  "integer from 1 to 255", (int)i - 1);
			a.p.iw_table[i - 1] = (uint8_t)w;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
	/* Pins follow from the run's seed (--seed), set by the scenario runner. */
	lua_getfield(L, LUA_REGISTRYINDEX, SEED_KEY);
	a.p.pin_seed = (uint64_t)luaL_optinteger(L, -1, 1);
	lua_pop(L, 1);
	if (!a.memory_block_size || a.memory_block_size % SECTION_SIZE_BYTES)
		return luaL_error(L, "memory_block_size must be a multiple of the 128 MiB section");
	eo.quantum_ns = (double)a.quantum_ns;
	eo.horizon_ns = (double)a.horizon_ns;
	eo.hints = a.engine_hints;
	lsim_machine_costs(L, 1, &eo);

	struct machine_params p = a.p;
	struct lmachine *lm = lua_newuserdatauv(L, sizeof(*lm), 0);
	*lm = (struct lmachine){ .eo = eo, .sample_interval = a.sample_interval,
				 .gb_yield_attempt = a.gb_yield_attempt,
				 .memory_block_size = a.memory_block_size };
	luaL_setmetatable(L, MACHINE_MT);
	/* The cgroup's limit, not only physical memory: a machine past it
	 * would be killed by the OOM killer with nothing said. */
	char *host_what = NULL;
	p.host_bytes = host_memory(g_getenv("MMSIM_HOST_ROOT") ? g_getenv("MMSIM_HOST_ROOT") : "",
				   &host_what);
	p.host_what = host_what;
	if (snap) {
		p.boot_reserve = false;
		p.populate = false;
	}
	lm->m = machine_create(&t, &p, &err);
	g_free(host_what);
	if (lm->m && snap) {
		g_autoptr(GString) notes = g_string_new(NULL);

		err = snapshot_import(lm->m, snap, notes);
		snapshot_destroy(snap);
		if (err) {
			machine_destroy(lm->m);
			lm->m = NULL;
		}
		/* What the import made up, for the run's stderr. */
		for (char *line = notes->str, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			fprintf(stderr, "mmsim.machine: snapshot: %.*s\n", (int)(nl - line), line);
		}
	}
	if (!lm->m) {
		luaL_where(L, 1);
		lua_pushfstring(L, "cannot build machine: %s", err);
		g_free(err);
		lua_concat(L, 2);
		return lua_error(L);
	}
	lua_getfield(L, LUA_REGISTRYINDEX, MACHINES_KEY);
	lua_pushvalue(L, -2);
	lua_seti(L, -2, luaL_len(L, -2) + 1);
	lua_pop(L, 1);
	return 1;
}

struct lmachine *lmmsim_subject(lua_State *L)
{
	struct lmachine *last = NULL, *ran = NULL;

	lua_getfield(L, LUA_REGISTRYINDEX, MACHINES_KEY);
	for (lua_Integer i = 1, n = luaL_len(L, -1); i <= n; i++) {
		if (lua_geti(L, -1, i) == LUA_TUSERDATA) {
			struct lmachine *lm = lua_touserdata(L, -1);

			if (lm->m)
				last = lm;
			if (lm->m && lm->e)
				ran = lm;
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return ran ? ran : last;
}

int lmmsim_check_all(lua_State *L, GString *report)
{
	int checked = 0;

	lua_getfield(L, LUA_REGISTRYINDEX, MACHINES_KEY);
	for (lua_Integer i = 1, n = luaL_len(L, -1); i <= n; i++) {
		if (lua_geti(L, -1, i) == LUA_TUSERDATA) {
			struct lmachine *lm = lua_touserdata(L, -1);
			char *r = lm->m ? check_invariants(lm->m) : NULL;

			checked += lm->m != NULL;
			if (r)
				g_string_append_printf(report, "machine %d:\n%s", (int)i, r);
			g_free(r);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return checked;
}

static int l_gc(lua_State *L)
{
	struct lmachine *lm = luaL_checkudata(L, 1, MACHINE_MT);

	lsim_machine_gc(lm);
	machine_destroy(lm->m);
	lm->m = NULL;
	return 0;
}

static const char *const type_names[] = { "unmovable", "movable", "reclaimable", NULL };

/* m:alloc{order=, type=, node=, cpu=, atomic=, owner=, offset=} -> pfn or nil */
static int l_alloc(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	static const char *const keys[] = { "order", "type", "node", "cpu", "atomic", "owner",
					    "offset", NULL };
	gfp_t gfp;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "alloc");
	lua_Integer order = opt_range_field(L, 2, "order", 0, 0, MAX_PAGE_ORDER);
	lua_getfield(L, 2, "type");
	int mt = luaL_checkoption(L, -1, "unmovable", type_names);
	bool atomic = opt_bool_field(L, 2, "atomic", false);
	lua_pop(L, 1);
	gfp = atomic ? GFP_ATOMIC : GFP_KERNEL;
	if (mt == MIGRATE_MOVABLE)
		gfp = (gfp & ~__GFP_RECLAIM) | GFP_HIGHUSER_MOVABLE;
	else if (mt == MIGRATE_RECLAIMABLE)
		gfp |= __GFP_RECLAIMABLE;
	struct mm_ctx buf, *ctx = call_ctx(L, m, 2, &buf);
	lua_Integer owner = opt_range_field(L, 2, "owner", OWNER_NONE, 0, UINT32_MAX);
	lua_Integer offset = opt_range_field(L, 2, "offset", 0, 0, UINT32_MAX);
	/* Only the model's own calls make process, page-cache and kvmalloc
	 * pages: m:free refuses them, so a script's page must not look like one. */
	if (owner_kind((uint32_t)owner) != OWNER_KIND_NONE &&
	    owner_kind((uint32_t)owner) != OWNER_KIND_KERNEL)
		return luaL_error(L, "alloc: owner %I is a process's or the page cache's owner word "
				  "(kinds %d and %d are the scenario's: owner < %d << 28)", owner,
				  OWNER_KIND_NONE, OWNER_KIND_KERNEL, OWNER_KIND_KERNEL + 1);
	if (owner_kind((uint32_t)owner) == OWNER_KIND_KERNEL &&
	    ((uint32_t)owner & OWNER_ID_MASK) >= OWNER_KERNEL_MODEL_ID)
		return luaL_error(L, "alloc: owner %I is a kernel source id of the model's own "
				  "allocators (kernel source ids from %d up)", owner,
				  (int)OWNER_KERNEL_MODEL_ID);
	pfn_t pfn = __alloc_pages(ctx, m, gfp, (unsigned)order, opt_node_field(L, m, 2, ctx),
				  (uint32_t)owner, (uint32_t)offset);
	if (pfn == PFN_NONE)
		lua_pushnil(L);
	else
		lua_pushinteger(L, pfn);
	return 1;
}

/* Pages a process or the page cache holds are theirs to free: freeing one
 * here would leave a page table or the LRU pointing at a free page. */
static const char *owned_elsewhere(struct machine *m, pfn_t pfn)
{
	uint32_t owner = page_owner(m, pfn);

	if (owner == kvmalloc_owner())
		return "part of a kvmalloc area (m:kvfree frees it)";
	switch (owner_kind(owner)) {
	case OWNER_KIND_ANON: return "anonymous memory of a process (p:munmap or p:exit frees it)";
	case OWNER_KIND_PGTABLE: return "a page table of a process (p:exit frees it)";
	case OWNER_KIND_FILE: return "in the page cache (reclaim frees it)";
	case OWNER_KIND_HUGETLB: return "part of a gigantic page (m:free_gigantic frees it)";
	case OWNER_KIND_RESERVED: return "reserved at boot (never freed)";
	default: return kernel_object_owner(m, owner);
	}
}

/* The pfn at idx as a block m:free may free, or an error from what. */
static pfn_t check_freeable(lua_State *L, struct machine *m, lua_Integer pfn, const char *what)
{
	const char *owner;

	if (pfn < 0 || pfn >= m->mm.nr_frames || page_kind(&m->mm, (pfn_t)pfn) != PG_KIND_ALLOC)
		luaL_error(L, "%s: pfn %I is not the first page of an allocated block", what, pfn);
	owner = owned_elsewhere(m, (pfn_t)pfn);
	if (owner)
		luaL_error(L, "%s: pfn %I is %s", what, pfn, owner);
	return (pfn_t)pfn;
}

static const char *const cpu_keys[] = { "cpu", NULL };

/* m:free(pfn [, {cpu=}]) */
static int l_free(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer pfn = luaL_checkinteger(L, 2);
	struct mm_ctx buf, *ctx;

	if (!lua_isnoneornil(L, 3)) {
		luaL_checktype(L, 3, LUA_TTABLE);
		check_known_keys(L, 3, cpu_keys, "free");
	}
	ctx = call_ctx(L, m, lua_isnoneornil(L, 3) ? 0 : 3, &buf);
	if (__free_pages(ctx, m, check_freeable(L, m, pfn, "free")))
		return luaL_error(L, "free: pfn %I is not the first page of an allocated block", pfn);
	return 0;
}

/* m:free_batch(pfns [, {cpu=}]): free_unref_folios() over folio batches
 * of FOLIO_BATCH_SIZE, as munmap, exit and MADV_DONTNEED free pages. */
static int l_free_batch(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	struct mm_ctx buf, *ctx;
	pfn_t batch[FOLIO_BATCH_SIZE];
	unsigned nr = 0;

	luaL_checktype(L, 2, LUA_TTABLE);
	if (!lua_isnoneornil(L, 3)) {
		luaL_checktype(L, 3, LUA_TTABLE);
		check_known_keys(L, 3, cpu_keys, "free_batch");
	}
	ctx = call_ctx(L, m, lua_isnoneornil(L, 3) ? 0 : 3, &buf);
	lua_Integer n = luaL_len(L, 2);
	for (lua_Integer i = 1; i <= n; i++) {
		int isint;
		lua_Integer pfn = (lua_geti(L, 2, i), lua_tointegerx(L, -1, &isint));

		if (!isint)
			return luaL_error(L, "free_batch: entry %I is not a pfn (got %s)", i,
					  not_integer_text(L, -1));
		lua_pop(L, 1);
		check_freeable(L, m, pfn, "free_batch");
		/* A page listed twice would be freed twice. */
		for (unsigned j = 0; j < nr; j++)
			if (batch[j] == (pfn_t)pfn)
				return luaL_error(L, "free_batch: pfn %I listed twice", pfn);
		batch[nr++] = (pfn_t)pfn;
		if (nr == FOLIO_BATCH_SIZE || i == n) {
			free_unref_folios(ctx, m, batch, nr);
			nr = 0;
		}
	}
	return 0;
}

/* m:page(pfn) -> {kind=, order=, type=, owner=, offset=} for a block head */
static int l_page(lua_State *L)
{
	static const char *const kinds[] = { "none", "buddy", "alloc", "pcp" };
	struct machine *m = check_machine(L, 1);
	lua_Integer pfn = luaL_checkinteger(L, 2);

	if (pfn < 0 || pfn >= m->mm.nr_frames)
		return luaL_error(L, "pfn %I is outside the machine (0-%I)", pfn,
				  (lua_Integer)m->mm.nr_frames - 1);
	enum page_kind kind = page_kind(&m->mm, (pfn_t)pfn);
	lua_createtable(L, 0, 5);
	set_str(L, "kind", kinds[kind]);
	set_int(L, "order", page_order(&m->mm, (pfn_t)pfn));
	set_str(L, "pageblock_type", migratetype_names[get_pfnblock_migratetype(&m->mm, (pfn_t)pfn)]);
	set_int(L, "node", pfn_zone(m, (pfn_t)pfn)->node);
	set_str(L, "zone", pfn_zone(m, (pfn_t)pfn)->name);
	set_int(L, "pageblock_owner", get_pcpblock_owner(m, (pfn_t)pfn));
	if (kind == PG_KIND_PCP) {
		lua_pushboolean(L, PagePCPBuddy(m, (pfn_t)pfn));
		lua_setfield(L, -2, "pcp_buddy");
		set_str(L, "list_type", type_names[page_extra(&m->mm, (pfn_t)pfn)]);
	}
	if (kind == PG_KIND_ALLOC) {
		lua_pushboolean(L, m->mm.flags[pfn].aux & PG_pinned);
		lua_setfield(L, -2, "pinned");
		set_str(L, "type", type_names[page_extra(&m->mm, (pfn_t)pfn)]);
		set_int(L, "owner", page_owner(m, (pfn_t)pfn));
		set_int(L, "offset", page_owner_offset(m, (pfn_t)pfn));
		if (m->page_owner_ts && m->page_owner_ts[pfn])
			set_int(L, "allocated_ns", (lua_Integer)(m->page_owner_ts[pfn] - 1));
	}
	return 1;
}

/* m:page_owner_ages([type]) -> {pages=, unrecorded=, mean_ns=, p10_ns=,
 * p50_ns=, p90_ns=, max_ns=, buckets = {...}}: the pages allocated as type
 * (default unmovable) now, by age; buckets[b] has those of age 2^(b-1) to
 * 2^b us (buckets[1] those under 2 us) */
static int l_page_owner_ages(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	int mt = luaL_checkoption(L, 2, "unmovable", type_names);
	struct mm_ctx *ctx = lua_thread_ctx(L);
	struct page_ages a;

	if (!lm->m->page_owner_ts)
		return luaL_error(L, "page_owner_ages: the machine was made without page_owner = true");
	page_owner_ages(lm->m, ctx ? mm_now(ctx) : lm->e ? engine_clock(lm->e) : 0, mt, &a);
	lua_createtable(L, 0, 8);
	set_int(L, "pages", (lua_Integer)a.pages);
	set_int(L, "unrecorded", (lua_Integer)a.unrecorded);
	lua_pushnumber(L, a.mean_ns);
	lua_setfield(L, -2, "mean_ns");
	set_int(L, "p10_ns", (lua_Integer)a.p10_ns);
	set_int(L, "p50_ns", (lua_Integer)a.p50_ns);
	set_int(L, "p90_ns", (lua_Integer)a.p90_ns);
	set_int(L, "max_ns", (lua_Integer)a.max_ns);
	lua_createtable(L, PAGE_AGE_BUCKETS, 0);
	for (int b = 0; b < PAGE_AGE_BUCKETS; b++) {
		lua_pushinteger(L, (lua_Integer)a.buckets[b]);
		lua_rawseti(L, -2, b + 1);
	}
	lua_setfield(L, -2, "buckets");
	return 1;
}

static int push_dump(lua_State *L, void (*dump)(struct machine *, GString *))
{
	struct machine *m = check_machine(L, 1);
	GString *s = g_string_new(NULL);

	dump(m, s);
	return push_gstring(L, s);
}

static int l_buddyinfo(lua_State *L) { return push_dump(L, proc_buddyinfo); }
static int l_pagetypeinfo(lua_State *L) { return push_dump(L, proc_pagetypeinfo); }
static int l_zoneinfo(lua_State *L) { return push_dump(L, proc_zoneinfo); }
static int l_vmstat(lua_State *L) { return push_dump(L, proc_vmstat); }
static int l_transparent_hugepage(lua_State *L)
{
	return push_dump(L, proc_transparent_hugepage);
}

/* m:read_file{file =, pages = [, index =, node =]} -> pages cached: the
 * page cache grows as a file is read (pages from index on); stops early
 * when the allocator refuses. */
static int l_read_file(lua_State *L)
{
	static const char *const keys[] = { "file", "pages", "index", "node", "cpu", NULL };
	struct machine *m = check_machine(L, 1);
	struct mm_ctx buf, *ctx;
	lua_Integer n, file, index, node, done = 0;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "read_file");
	ctx = call_ctx(L, m, 2, &buf);
	/* The file id shares the owner word with its kind; the index is 32-bit. */
	file = opt_range_field(L, 2, "file", 1, 0, OWNER_ID_MASK);
	index = opt_range_field(L, 2, "index", 0, 0, UINT32_MAX);
	n = opt_range_field(L, 2, "pages", 1, 0, UINT32_MAX - index + 1);
	node = opt_node_field(L, m, 2, ctx);
	while (done < n && page_cache_add(ctx, m, (int)node, (uint32_t)file,
					  (uint32_t)(index + done)) != PFN_NONE)
		done++;
	lua_pushinteger(L, done);
	return 1;
}

/* m:drain() -> drain_all_pages() */
static int l_drain(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, m, 0, &buf);

	drain_all_pages(ctx, m, NULL);
	return 0;
}

static int l_check(lua_State *L)
{
	char *report = check_invariants(check_machine(L, 1));

	if (report) {
		luaL_where(L, 1);
		lua_pushfstring(L, "invariant check failed:\n%s", report);
		g_free(report);
		lua_concat(L, 2);
		return lua_error(L);
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* m:zones() -> array of {node=, name=, start_pfn=, spanned=, managed=, free=, min=, low=,
 * high=, boost=}: the watermarks include the boost, as /proc/zoneinfo shows them */
static int l_zones(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	int i = 0;

	lua_newtable(L);
	for_each_populated_zone(m, z) {
		lua_createtable(L, 0, 10);
		set_int(L, "node", z->node);
		set_str(L, "name", z->name);
		set_int(L, "start_pfn", z->zone_start_pfn);
		set_int(L, "spanned", z->spanned_pages);
		set_int(L, "managed", (lua_Integer)z->managed_pages);
		set_int(L, "free", (lua_Integer)zone_page_state(z, NR_FREE_PAGES));
		set_int(L, "min", (lua_Integer)wmark_pages(z, WMARK_MIN));
		set_int(L, "low", (lua_Integer)wmark_pages(z, WMARK_LOW));
		set_int(L, "high", (lua_Integer)wmark_pages(z, WMARK_HIGH));
		set_int(L, "boost", (lua_Integer)z->watermark_boost);
		lua_seti(L, -2, ++i);
	}
	return 1;
}

/* m:pagesets(cpu) -> array of {node=, zone=, count=, high=, high_min=,
 * high_max=, batch=} for the CPU's pageset of every populated zone */
static int l_pagesets(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer cpu = luaL_checkinteger(L, 2);
	int i = 0;

	if (cpu < 0 || cpu >= (lua_Integer)m->nr_cpus)
		return luaL_error(L, "cpu %I does not exist (the machine has CPUs 0-%d)", cpu,
				  (int)m->nr_cpus - 1);
	lua_newtable(L);
	for_each_populated_zone(m, z) {
		push_pageset(L, z, zone_pcp(z, (unsigned)cpu));
		lua_seti(L, -2, ++i);
	}
	return 1;
}

/* m:cpus() -> array of {cpu =, socket =, node =}, in CPU order */
static int l_cpus(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	unsigned n = topology_nr_cpus(&m->topo);

	lua_createtable(L, (int)n, 0);
	for (unsigned cpu = 0; cpu < n; cpu++) {
		unsigned nid = topology_cpu_to_node(&m->topo, cpu);

		lua_createtable(L, 0, 3);
		set_int(L, "cpu", cpu);
		set_int(L, "socket", topology_node_to_socket(&m->topo, nid));
		set_int(L, "node", nid);
		lua_seti(L, -2, cpu + 1);
	}
	return 1;
}

/* m:info() -> machine-wide figures */
static int l_info(lua_State *L)
{
	struct machine *m = check_machine(L, 1);

	lua_createtable(L, 0, 12);
	set_str(L, "name", m->topo.name);
	set_int(L, "nodes", m->nr_nodes);
	set_int(L, "cpus", topology_nr_cpus(&m->topo));
	set_int(L, "frames", m->mm.nr_frames);
	set_int(L, "managed_pages", (lua_Integer)machine_managed_pages(m));
	set_int(L, "free_pages", (lua_Integer)machine_free_pages(m));
	set_int(L, "pcp_pages", (lua_Integer)machine_pcp_pages(m));
	lua_Integer file_pages = 0;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		file_pages += (lua_Integer)page_cache_pages(m, (int)n);
	set_int(L, "file_pages", file_pages);
	set_str(L, "policy", mm_policy_names[m->policy]);
	set_int(L, "min_free_kbytes", m->min_free_kbytes);
	set_num(L, "time_scale", m->time_scale);
	set_int(L, "alloc_fail", (lua_Integer)m->vm_events[ALLOC_FAIL]);
	set_int(L, "freed_to_buddy", (lua_Integer)m->vm_events[PGFREE_TO_BUDDY]);
	return 1;
}

static const luaL_Reg machine_methods[] = {
	{ "alloc", l_alloc },
	{ "free", l_free },
	{ "free_batch", l_free_batch },
	{ "page", l_page },
	{ "page_owner_ages", l_page_owner_ages },
	{ "buddyinfo", l_buddyinfo },
	{ "pagetypeinfo", l_pagetypeinfo },
	{ "zoneinfo", l_zoneinfo },
	{ "vmstat", l_vmstat },
	{ "transparent_hugepage", l_transparent_hugepage },
	{ "check_invariants", l_check },
	{ "drain", l_drain },
	{ "read_file", l_read_file },
	{ "zones", l_zones },
	{ "info", l_info },
	{ "pagesets", l_pagesets },
	{ "cpus", l_cpus },
	{ NULL, NULL },
};

/* mmsim.size(s) -> bytes: "16K" and the like, as every size argument takes */
static int l_size(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)check_size(L, 1, "mmsim.size"));
	return 1;
}

static int l_version(lua_State *L)
{
	lua_pushstring(L, MMSIM_VERSION);
	return 1;
}

void lmachine_open(lua_State *L, int module)
{
	static const luaL_Reg funcs[] = {
		{ "machine", l_machine },
		{ "check_options", l_check_options },
		{ "version", l_version },
		{ "size", l_size },
		{ NULL, NULL },
	};

	lua_pushvalue(L, module);
	luaL_setfuncs(L, funcs, 0);
	lua_pop(L, 1);
	new_class(L, MACHINE_MT, machine_methods, l_gc);
	lua_newtable(L);
	lua_createtable(L, 0, 1);
	lua_pushliteral(L, "v");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_setfield(L, LUA_REGISTRYINDEX, MACHINES_KEY);
}
