/* NUMA calls on a process: memory policies (mbind, set_mempolicy) and
 * page moves (move_pages, migrate_pages). */
#include "laux.h"
#include "lmmsimlib.h"

#include "models/mempolicy.h"
#include "models/migrate.h"
#include "models/mm_space.h"

#include <lauxlib.h>

static const char *const policy_keys[] = { "policy", "nodes", NULL };

/* The {policy =, nodes =} table at idx as a policy of m; bad input raises
 * an error naming the valid values. */
static struct mempolicy check_mempolicy(lua_State *L, struct machine *m, int idx,
					const char *what)
{
	struct mempolicy pol;
	nodemask_t nodes = NODE_MASK_NONE;
	const char *name;
	int mode;

	luaL_checktype(L, idx, LUA_TTABLE);
	check_known_keys(L, idx, policy_keys, what);
	lua_getfield(L, idx, "policy");
	name = lua_tostring(L, -1);
	mode = name ? mpol_parse_mode(name) : -1;
	if (mode < 0)
		luaL_error(L, "%s: unknown policy '%s' (valid: default, local, preferred, bind, "
			   "interleave, weighted_interleave)", what, name ? name : "nil");
	lua_pop(L, 1);
	if (lua_getfield(L, idx, "nodes") != LUA_TNIL)
		nodes = check_node_list(L, m, lua_gettop(L), what);
	lua_pop(L, 1);
	if ((mode == MPOL_DEFAULT || mode == MPOL_LOCAL) && nodes)
		luaL_error(L, "%s: policy '%s' takes no nodes", what, name);
	if (mode != MPOL_DEFAULT && mode != MPOL_LOCAL && !nodes)
		luaL_error(L, "%s: policy '%s' needs a non-empty list of nodes (the machine has "
			   "nodes 0-%d)", what, name, (int)m->nr_nodes - 1);
	if (mpol_new(m, mode, nodes, &pol))
		luaL_error(L, "%s: invalid policy", what);
	return pol;
}

/* p:set_mempolicy{policy =, nodes =} */
static int l_set_mempolicy(lua_State *L)
{
	struct machine *m;
	struct mm_struct *mm = lproc_check(L, 1, &m);
	struct mempolicy pol = check_mempolicy(L, m, 2, "set_mempolicy");

	do_set_mempolicy(mm, &pol);
	return 0;
}

/* p:mbind(addr, size, {policy =, nodes =}) */
static int l_mbind(lua_State *L)
{
	struct machine *m;
	struct mm_struct *mm = lproc_check(L, 1, &m);
	lua_Integer addr = luaL_checkinteger(L, 2);
	uint64_t len = check_size(L, 3, "mbind");
	struct mempolicy pol = check_mempolicy(L, m, 4, "mbind");
	struct mm_ctx buf, *ctx = call_ctx(L, m, 0, &buf);

	if (addr < 0)
		return luaL_error(L, "mbind: address %I is negative", addr);
	switch (do_mbind(ctx, mm, (uint64_t)addr, len, &pol)) {
	case 0:
		return 0;
	case -MM_ENOMEM:
		return luaL_error(L, "mbind: no page table to split the huge page at an edge of "
				  "[%I, %I) (ENOMEM)", addr, addr + (lua_Integer)len);
	case -MM_EFAULT:
		return luaL_error(L, "mbind: part of [%I, %I) is not mapped (EFAULT)", addr,
				  addr + (lua_Integer)len);
	default:
		return luaL_error(L, "mbind: [%I, +%I) is not a page-aligned range below 16 TiB "
				  "(EINVAL)", addr, (lua_Integer)len);
	}
}

static int push_move_counts(lua_State *L, const struct page_move_counts *c, int err)
{
	static const struct lfield f[] = {
		LFIELD(struct page_move_counts, moved),
		LFIELD(struct page_move_counts, already),
		LFIELD(struct page_move_counts, busy),
		LFIELD(struct page_move_counts, pinned),
		LFIELD(struct page_move_counts, enomem),
		LFIELD(struct page_move_counts, absent),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f) + 1);
	set_fields(L, c, f, G_N_ELEMENTS(f));
	lua_pushboolean(L, err == -MM_ENOMEM);
	lua_setfield(L, -2, "out_of_memory");
	return 1;
}

/* p:move_pages(addr, size, node) -> {moved, already, busy, pinned, enomem,
 * absent, out_of_memory} */
static int l_move_pages(lua_State *L)
{
	struct machine *m;
	struct mm_struct *mm = lproc_check(L, 1, &m);
	lua_Integer addr = luaL_checkinteger(L, 2);
	uint64_t len = check_size(L, 3, "move_pages");
	int nid = check_node(L, m, luaL_checkinteger(L, 4));
	struct mm_ctx buf, *ctx = call_ctx(L, m, 0, &buf);
	struct page_move_counts c = { 0 };
	int err;

	if (addr < 0 || addr % PAGE_SIZE)
		return luaL_error(L, "move_pages: address %I is not page aligned (EINVAL)", addr);
	mmget(mm);
	err = do_pages_move(ctx, m, mm, (uint64_t)addr, len, (unsigned)nid, &c);
	mmput(mm);
	if (err == -MM_EINVAL)
		return luaL_error(L, "move_pages: range [%I, +%I) beyond the address space (EINVAL)",
				  addr, (lua_Integer)len);
	return push_move_counts(L, &c, err);
}

/* p:migrate_pages(from_nodes, to_nodes) -> {moved, busy, pinned, enomem, ...} */
static int l_migrate_pages(lua_State *L)
{
	struct machine *m;
	struct mm_struct *mm = lproc_check(L, 1, &m);
	nodemask_t from = check_node_list(L, m, 2, "migrate_pages"),
		   to = check_node_list(L, m, 3, "migrate_pages");
	struct mm_ctx buf, *ctx = call_ctx(L, m, 0, &buf);
	struct page_move_counts c = { 0 };

	if (!from || !to)
		return luaL_error(L, "migrate_pages: empty node list (the machine has nodes 0-%d)",
				  (int)m->nr_nodes - 1);
	mmget(mm);
	int err = do_migrate_pages(ctx, mm, from, to, &c);
	mmput(mm);
	return push_move_counts(L, &c, err);
}

void lnuma_open(lua_State *L)
{
	static const luaL_Reg numa_methods[] = {
		{ "set_mempolicy", l_set_mempolicy },
		{ "mbind", l_mbind },
		{ "move_pages", l_move_pages },
		{ "migrate_pages", l_migrate_pages },
		{ NULL, NULL },
	};

	luaL_getmetatable(L, PROCESS_MT);
	lua_getfield(L, -1, "__index");
	luaL_setfuncs(L, numa_methods, 0);
	lua_pop(L, 2);
}
