/* Kernel-side calls in Lua: kvmalloc as an allocation source, memory
 * hotplug, page migration, and the superpageblock view. */
#include "laux.h"
#include "lmmsimlib.h"

#include "models/compaction.h"
#include "models/hugetlb.h"
#include "models/kvmalloc.h"
#include "models/machine.h"
#include "models/memory_hotplug.h"
#include "models/migrate.h"
#include "models/mm_space.h"
#include "models/page_cache.h"
#include "models/pcp.h"
#include "models/procfs.h"
#include "models/superpageblock.h"
#include "models/watermark.h"

#include <glib.h>
#include <lauxlib.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#define KVMALLOC_MT "mmsim.kvmalloc"

/* A kvmalloc area; its uservalue is its machine's userdata (see lproc.c's
 * struct lprocess). */
struct larea {
	struct lmachine *lm;
	struct kvmalloc_area a;
};

/* m:kvmalloc{size =, node =, noretry =} -> area: kvmalloc_node(); nil,
 * "ENOMEM" if even vmalloc failed. */
static int l_kvmalloc(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct machine *m = lm->m;
	struct mm_ctx buf, *ctx;
	bool noretry;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, (const char *const[]){ "size", "node", "noretry", "cpu", NULL },
			 "kvmalloc");
	ctx = call_ctx(L, m, 2, &buf);
	lua_getfield(L, 2, "size");
	uint64_t size = check_size(L, -1, "kvmalloc");
	noretry = opt_bool_field(L, 2, "noretry", false);
	int node = opt_node_field(L, m, 2, ctx);
	uint64_t mem = topology_total_mem(&m->topo);
	if (size == 0 || size > mem)
		return luaL_error(L, "kvmalloc: size %I: valid range 1 to the machine's %I bytes",
				  (lua_Integer)size, (lua_Integer)mem);

	struct larea *la = lua_newuserdatauv(L, sizeof(*la), 1);
	la->lm = lm;
	la->a = (struct kvmalloc_area){ .block = PFN_NONE };
	luaL_setmetatable(L, KVMALLOC_MT);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, -2, 1);
	if (kvmalloc_node(ctx, m, size, node, noretry, &la->a)) {
		lua_pushnil(L);
		lua_pushliteral(L, "ENOMEM");
		return 2;
	}
	return 1;
}

/* m:kvfree(area): only an area of this machine, once. */
static int l_kvfree(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct larea *la = luaL_checkudata(L, 2, KVMALLOC_MT);
	struct mm_ctx buf, *ctx = call_ctx(L, lm->m, 0, &buf);

	if (la->lm != lm)
		return luaL_error(L, "kvfree: the area belongs to another machine");
	if (la->a.block == PFN_NONE && !la->a.pages)
		return luaL_error(L, "kvfree: area already freed");
	kvfree(ctx, lm->m, &la->a);
	return 0;
}

/* area:contiguous() -> true if the kmalloc attempt succeeded */
static int l_kv_contiguous(lua_State *L)
{
	struct larea *la = luaL_checkudata(L, 1, KVMALLOC_MT);

	lua_pushboolean(L, la->a.block != PFN_NONE);
	return 1;
}

/* An area never kvfree'd is a kernel leak: its pages stay allocated. */
static int l_kv_gc(lua_State *L)
{
	struct larea *la = luaL_checkudata(L, 1, KVMALLOC_MT);

	g_free(la->a.pages);
	la->a.pages = NULL;
	return 0;
}

/* m:online_memory{node =, size =} -> bytes onlined: memory blocks of
 * memory_block_size added at the top of the node's Movable or Normal zone,
 * one by one, until size or the end of the node's hotplug_reserve is
 * reached.  A node with no such zone, or no room for one block, is an
 * error. */
static int l_online_memory(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct mm_ctx buf, *ctx;
	uint64_t size, done = 0;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, (const char *const[]){ "node", "size", "cpu", NULL },
			 "online_memory");
	ctx = call_ctx(L, lm->m, 2, &buf);
	lua_getfield(L, 2, "size");
	size = check_size(L, -1, "online_memory");
	lua_Integer node = opt_int_field(L, 2, "node", 0);
	if (node < 0 || node >= (lua_Integer)lm->m->nr_nodes)
		return luaL_error(L, "online_memory: node %I does not exist (the machine has nodes "
				  "0-%d)", node, (int)lm->m->nr_nodes - 1);
	if (size % lm->memory_block_size)
		return luaL_error(L, "online_memory: size must be a multiple of the memory block "
				  "size (%d MiB)", (int)(lm->memory_block_size >> 20));
	while (done < size) {
		int err = online_memory_block(ctx, lm->m, (unsigned)node, lm->memory_block_size);

		if (err == ONLINE_NO_ZONE)
			return luaL_error(L, "online_memory: node %I has neither a Normal nor a Movable "
					  "zone to grow", node);
		if (err == ONLINE_NO_ROOM && !lm->m->hotplug_reserve_pages)
			return luaL_error(L, "online_memory: no room above node %I's memory (the "
					  "machine has no hotplug_reserve, and no offlined block is left "
					  "to online again)", node);
		if (err)
			break;
		done += lm->memory_block_size;
	}
	lua_pushinteger(L, (lua_Integer)done);
	return 1;
}

/* m:offline_memory{node =, size = [, timeout =]} -> bytes offlined, or
 * nil, "EBUSY", {offlined =, fail_pfn =, reason =, migrated =}: memory
 * blocks taken off the top of the node one at a time (offline_pages), each
 * given timeout, until size or the first that stays busy.  Bad input
 * raises, nothing changed. */
static int l_offline_memory(lua_State *L)
{
	static const char *const keys[] = { "node", "size", "cpu", "timeout", NULL };
	uint64_t timeout = OFFLINE_TIMEOUT_NS;
	struct lmachine *lm = check_lmachine(L, 1);
	struct mm_ctx buf, *ctx;
	struct offline_stats st;
	uint64_t size, done = 0;
	unsigned long migrated = 0;
	char *err;
	int ret = 0;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "offline_memory");
	ctx = call_ctx(L, lm->m, 2, &buf);
	lua_getfield(L, 2, "size");
	size = check_size(L, -1, "offline_memory");
	unsigned node = (unsigned)check_node(L, lm->m, opt_int_field(L, 2, "node", 0));
	if (lua_getfield(L, 2, "timeout") != LUA_TNIL)
		timeout = check_time(L, -1, "offline_memory: timeout");
	lua_pop(L, 1);
	if (!size || size % lm->memory_block_size)
		return luaL_error(L, "offline_memory: size %I is not a whole number of memory blocks "
				  "(%I bytes each)", (lua_Integer)size,
				  (lua_Integer)lm->memory_block_size);
	err = offline_pages_check(lm->m, node, size);
	if (err) {
		lua_pushfstring(L, "offline_memory: %s", err);
		g_free(err);
		return lua_error(L);
	}
	while (done < size) {
		ret = offline_pages(ctx, lm->m, node, lm->memory_block_size, timeout, &st, &err);
		g_assert(ret != -MM_EINVAL);
		migrated += st.migrated;
		if (ret)
			break;
		done += lm->memory_block_size;
	}
	if (!ret) {
		lua_pushinteger(L, (lua_Integer)done);
		return 1;
	}
	lua_pushnil(L);
	lua_pushstring(L, ret == -MM_EINTR ? "EINTR" : "EBUSY");
	lua_createtable(L, 0, 4);
	set_int(L, "offlined", (lua_Integer)done);
	set_int(L, "fail_pfn", (lua_Integer)st.fail_pfn);
	set_str(L, "reason", st.reason);
	set_int(L, "migrated", (lua_Integer)migrated);
	return 3;
}

/* m:superpageblocks() -> the debugfs superpageblocks file */
static int l_superpageblocks(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	GString *s = g_string_new(NULL);

	proc_superpageblocks(m, s);
	return push_gstring(L, s);
}

/* m:spb_stats() -> {total =, empty =, clean =, tainted =, isolated =,
 * tainted_by_kmalloc =, tainted_by_vmalloc =}: superpageblocks by state
 * over every zone (all 0 without policy spb), and how many kvmalloc's
 * contiguous attempts and vmalloc fallbacks tainted */
static int l_spb_stats(lua_State *L)
{
	static const struct lfield f[] = {
		LFIELD(struct spb_counts, total),
		LFIELD(struct spb_counts, empty),
		LFIELD(struct spb_counts, clean),
		LFIELD(struct spb_counts, tainted),
		LFIELD(struct spb_counts, isolated),
	};
	struct spb_counts c;

	spb_count_states(check_machine(L, 1), &c);
	lua_createtable(L, 0, 5);
	set_fields(L, &c, f, G_N_ELEMENTS(f));
	struct machine *m = check_machine(L, 1);
	set_int(L, "tainted_by_kmalloc", (lua_Integer)kvmalloc_tainted_by_kmalloc(m));
	set_int(L, "tainted_by_vmalloc", (lua_Integer)kvmalloc_tainted_by_vmalloc(m));
	return 1;
}

/* m:migrate_pages(pfns [, {node =, cpu =}]) -> {moved =, failed =, pinned =,
 * not_movable =, untried =}: isolate, migrate to node (default: the
 * calling CPU's) and put back, as move_pages(2) does. */
static int l_migrate_pages(lua_State *L)
{
	static const char *const keys[] = { "node", "cpu", NULL };
	static const struct lfield f[] = {
		LFIELD_AS("moved", struct migrate_stats, nr_succeeded),
		LFIELD_AS("failed", struct migrate_stats, nr_failed_pages),
		LFIELD_AS("pinned", struct migrate_stats, nr_pinned),
		LFIELD_AS("not_movable", struct migrate_stats, nr_not_movable),
		LFIELD_AS("untried", struct migrate_stats, nr_untried),
	};
	struct machine *m = check_machine(L, 1);
	struct migrate_stats st = { 0 };
	struct mm_ctx buf, *ctx;
	int opts = lua_isnoneornil(L, 3) ? 0 : 3;

	luaL_checktype(L, 2, LUA_TTABLE);
	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, keys, "migrate_pages");
	}
	ctx = call_ctx(L, m, opts, &buf);
	int node = opt_node_field(L, m, opts, ctx);
	lua_Integer n = luaL_len(L, 2);
	pfn_t *pfns = g_new(pfn_t, n > 0 ? n : 1);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_geti(L, 2, i);
		int isint = lua_isinteger(L, -1);
		lua_Integer pfn = lua_tointeger(L, -1);
		lua_pop(L, 1);
		if (!isint || pfn < 0 || pfn >= m->mm.nr_frames) {
			g_free(pfns);
			return luaL_error(L, "migrate_pages: entry %d is not a pfn of the machine",
					  (int)i);
		}
		pfns[i - 1] = (pfn_t)pfn;
	}
	migrate_pages_to_node(ctx, m, pfns, (unsigned)n, node, NULL, &st);
	g_free(pfns);
	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, &st, f, G_N_ELEMENTS(f));
	return 1;
}

/* m:compact{node =, cpu =} -> {migrate_scanned =, free_scanned =,
 * isolated =, migrated =, failed =}: a write of 1 to
 * /proc/sys/vm/compact_memory (every node), or to the node's
 * /sys/devices/system/node/nodeN/compact; the counts are what the vmstat
 * counters gained. */
static int l_compact(lua_State *L)
{
	static const char *const keys[] = { "node", "cpu", NULL };
	static const enum vm_event_item items[] = {
		COMPACTMIGRATE_SCANNED, COMPACTFREE_SCANNED, COMPACTISOLATED,
		PGMIGRATE_SUCCESS, PGMIGRATE_FAIL,
	};
	static const char *const names[] = {
		"migrate_scanned", "free_scanned", "isolated", "migrated", "failed",
	};
	struct machine *m = check_machine(L, 1);
	int opts = lua_isnoneornil(L, 2) ? 0 : 2;
	unsigned long before[G_N_ELEMENTS(items)];
	struct mm_ctx buf, *ctx;
	lua_Integer node = -1;

	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, keys, "compact");
		node = opt_int_field(L, opts, "node", -1);
		/* Absent is every node; a given -1 is a mistake. */
		if ((node != -1 || lua_getfield(L, opts, "node") != LUA_TNIL) &&
		    (node < 0 || node >= (lua_Integer)m->nr_nodes))
			return luaL_error(L, "compact: node %I does not exist (the machine has nodes "
					  "0-%d; leave node out for all of them)", node,
					  (int)m->nr_nodes - 1);
	}
	ctx = call_ctx(L, m, opts, &buf);
	for (size_t i = 0; i < G_N_ELEMENTS(items); i++)
		before[i] = m->vm_events[items[i]];
	if (node < 0)
		compact_nodes(ctx, m);
	else
		compact_node(ctx, m, (int)node, false);
	lua_createtable(L, 0, (int)G_N_ELEMENTS(items));
	for (size_t i = 0; i < G_N_ELEMENTS(items); i++)
		set_int(L, names[i], (lua_Integer)(m->vm_events[items[i]] - before[i]));
	return 1;
}

/* m:drop_slab() -> freed: 2 to /proc/sys/vm/drop_caches. */
static int l_drop_slab(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	struct mm_ctx buf, *ctx;

	luaL_checktype(L, 2, LUA_TNONE);
	ctx = call_ctx(L, m, 0, &buf);
	lua_pushinteger(L, (lua_Integer)drop_slab(ctx, m));
	return 1;
}

/* m:alloc_gigantic{node =, cpu =} -> pfn, {migrated =}: a 1 GiB hugetlb
 * page by alloc_contig_pages on node (default: each node in turn); nil,
 * "ENOMEM" if no range could be taken. */
static int l_alloc_gigantic(lua_State *L)
{
	static const char *const keys[] = { "node", "cpu", NULL };
	struct machine *m = check_machine(L, 1);
	int opts = lua_isnoneornil(L, 2) ? 0 : 2;
	struct migrate_stats st = { 0 };
	struct mm_ctx buf, *ctx;
	lua_Integer node = -1;
	pfn_t pfn;

	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, keys, "alloc_gigantic");
		node = opt_int_field(L, opts, "node", -1);
		if ((node != -1 || lua_getfield(L, opts, "node") != LUA_TNIL) &&
		    (node < 0 || node >= (lua_Integer)m->nr_nodes))
			return luaL_error(L, "alloc_gigantic: node %I does not exist (the machine has "
					  "nodes 0-%d; leave node out for any)", node,
					  (int)m->nr_nodes - 1);
	}
	ctx = call_ctx(L, m, opts, &buf);
	pfn = alloc_gigantic_folio(ctx, m, (int)node, &st);
	if (pfn == PFN_NONE) {
		lua_pushnil(L);
		lua_pushliteral(L, "ENOMEM");
		return 2;
	}
	lua_pushinteger(L, pfn);
	lua_createtable(L, 0, 1);
	set_int(L, "migrated", (lua_Integer)st.nr_succeeded);
	return 2;
}

/* m:free_gigantic(pfn [, {cpu =}]) */
static int l_free_gigantic(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	lua_Integer pfn = luaL_checkinteger(L, 2);
	int opts = lua_isnoneornil(L, 3) ? 0 : 3;
	struct mm_ctx buf, *ctx = call_ctx(L, m, opts, &buf);

	if (pfn < 0 || pfn >= m->mm.nr_frames || free_gigantic_folio(ctx, m, (pfn_t)pfn))
		return luaL_error(L, "free_gigantic: pfn %d is not a gigantic page", (int)pfn);
	return 0;
}

static void set_watermark_boost_factor(struct machine *m, int v)
{
	m->watermark_boost_factor = v;
}

static void set_extfrag_threshold(struct machine *m, int v)
{
	m->extfrag_threshold = v;
}

/* The vm sysctls the model has: their ranges, as the kernel's vm tables
 * set them, where struct machine keeps them, and their handlers. */
static const struct sysctl_knob {
	const char *name;
	int min, max;
	int min_nonzero;            /* values 1 to this - 1 are refused too */
	size_t off;
	void (*write)(struct machine *m, int v);
} sysctls[] = {
	{ "vm.compaction_proactiveness", 0, 100, 0,
	  offsetof(struct machine, compaction_proactiveness),
	  compaction_proactiveness_sysctl_handler },
	{ "vm.extfrag_threshold", 0, 1000, 0, offsetof(struct machine, extfrag_threshold),
	  set_extfrag_threshold },
	{ "vm.min_free_kbytes", 0, INT_MAX, 0, offsetof(struct machine, min_free_kbytes),
	  min_free_kbytes_sysctl_handler },
	{ "vm.percpu_pagelist_high_fraction", 0, INT_MAX, MIN_PERCPU_PAGELIST_HIGH_FRACTION,
	  offsetof(struct machine, percpu_pagelist_high_fraction),
	  percpu_pagelist_high_fraction_sysctl_handler },
	{ "vm.watermark_boost_factor", 0, INT_MAX, 0,
	  offsetof(struct machine, watermark_boost_factor), set_watermark_boost_factor },
	{ "vm.watermark_scale_factor", 1, 3000, 0, offsetof(struct machine, watermark_scale_factor),
	  watermark_scale_factor_sysctl_handler },
};

static const struct sysctl_knob *find_sysctl(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(sysctls); i++)
		if (!strcmp(sysctls[i].name, name))
			return &sysctls[i];
	return NULL;
}

/* Refuse value v of knob k, the message starting with label. */
static void check_sysctl_value(lua_State *L, const struct sysctl_knob *k, lua_Integer v,
			       const char *label)
{
	if (v >= k->min && v <= k->max && (v <= 0 || v >= k->min_nonzero))
		return;
	if (k->min_nonzero)
		luaL_error(L, "%s %I: valid values %d and %d to %d", label, v, k->min,
			   k->min_nonzero, k->max);
	luaL_error(L, "%s %I: valid range %d to %d", label, v, k->min, k->max);
}

int sysctl_field(lua_State *L, int t, const char *field, int def)
{
	char *name = g_strconcat("vm.", field, NULL);
	const struct sysctl_knob *k = find_sysctl(name);
	lua_Integer v;

	g_free(name);
	v = opt_int_field(L, t, field, def);
	lua_pushfstring(L, "field '%s' is", field);
	check_sysctl_value(L, k, v, lua_tostring(L, -1));
	lua_pop(L, 1);
	return (int)v;
}

/* m:sysctl([{["vm.NAME"] = value, ...}]) -> {["vm.NAME"] = value, ...}:
 * write the sysctls given, each through its handler as the kernel's
 * proc_handler does (all are checked before any is written), and return
 * every one's value. */
static int l_sysctl(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	int v[G_N_ELEMENTS(sysctls)];
	bool set[G_N_ELEMENTS(sysctls)] = { false };

	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
			bool str = lua_type(L, -2) == LUA_TSTRING;
			const char *name = str ? lua_tostring(L, -2) : NULL;
			const struct sysctl_knob *k = str ? find_sysctl(name) : NULL;
			int isnum;
			lua_Integer x = lua_tointegerx(L, -1, &isnum);

			if (!k) {
				GString *known = g_string_new(NULL);

				for (size_t i = 0; i < G_N_ELEMENTS(sysctls); i++)
					g_string_append_printf(known, "%s%s", i ? ", " : "",
							       sysctls[i].name);
				lua_pushfstring(L, "sysctl: unknown sysctl '%s' (known: %s)",
						luaL_tolstring(L, -2, NULL), known->str);
				g_string_free(known, TRUE);
				return lua_error(L);
			}
			if (!isnum)
				return luaL_error(L, "sysctl: %s must be an integer, got %s", name,
						  luaL_tolstring(L, -1, NULL));
			lua_pushfstring(L, "sysctl: %s =", name);
			check_sysctl_value(L, k, x, lua_tostring(L, -1));
			lua_pop(L, 1);
			v[k - sysctls] = (int)x;
			set[k - sysctls] = true;
		}
		/* A write from a thread happens at its safepoint, between sections. */
		struct mm_ctx buf;

		call_ctx(L, m, 0, &buf);
		for (size_t i = 0; i < G_N_ELEMENTS(sysctls); i++)
			if (set[i])
				sysctls[i].write(m, v[i]);
	}
	lua_createtable(L, 0, G_N_ELEMENTS(sysctls));
	for (size_t i = 0; i < G_N_ELEMENTS(sysctls); i++)
		set_int(L, sysctls[i].name, *(const int *)((const char *)m + sysctls[i].off));
	return 1;
}

void lkernel_open(lua_State *L, int methods)
{
	static const luaL_Reg machine_methods[] = {
		{ "kvmalloc", l_kvmalloc },
		{ "kvfree", l_kvfree },
		{ "superpageblocks", l_superpageblocks },
		{ "spb_stats", l_spb_stats },
		{ "online_memory", l_online_memory },
		{ "migrate_pages", l_migrate_pages },
		{ "offline_memory", l_offline_memory },
		{ "compact", l_compact },
		{ "drop_slab", l_drop_slab },
		{ "alloc_gigantic", l_alloc_gigantic },
		{ "free_gigantic", l_free_gigantic },
		{ "sysctl", l_sysctl },
		{ NULL, NULL },
	};
	static const luaL_Reg area_methods[] = {
		{ "contiguous", l_kv_contiguous },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushvalue(L, methods);
	luaL_setfuncs(L, machine_methods, 0);
	lua_pop(L, 1);
	new_class(L, KVMALLOC_MT, area_methods, l_kv_gc);
}
