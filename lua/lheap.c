/* require("mmsim.expiry_heap"): sim/expiry_heap.h for Lua scripts, entries
 * {expires, ...} ordered by their first field (a Lua workload's frees).  The
 * entries stay in a table, the userdata's user value, at slots that
 * never move; the heap orders the slots, so that sifting
 * compares numbers in C instead of reading each entry's time through Lua
 * (those reads were most of an aging run's Lua time). */
#include "laux.h"
#include "lmmsim.h"

#include "sim/expiry_heap.h"

#include <lauxlib.h>

#define EXPIRY_HEAP_MT "mmsim.expiry_heap"

struct lheap {
	struct expiry_heap h;           /* value: the entry's slot */
	GArray *free_slots;             /* lua_Integer: slots to reuse */
	lua_Integer nr_slots;
};

static struct lheap *check_heap(lua_State *L)
{
	return luaL_checkudata(L, 1, EXPIRY_HEAP_MT);
}

/* Push the entry at slot (from the slots table at index 1's user value). */
static void push_entry(lua_State *L, lua_Integer slot)
{
	lua_getiuservalue(L, 1, 1);
	lua_rawgeti(L, -1, slot);
	lua_remove(L, -2);
}

static int l_new(lua_State *L)
{
	struct lheap *lh = lua_newuserdatauv(L, sizeof(*lh), 1);

	*lh = (struct lheap){ .free_slots = g_array_new(FALSE, FALSE, sizeof(lua_Integer)) };
	luaL_setmetatable(L, EXPIRY_HEAP_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	return 1;
}

/* h:push(e): e[1] is its expiry time. */
static int l_push(lua_State *L)
{
	struct lheap *lh = check_heap(L);
	lua_Integer slot;
	double expires;

	luaL_checktype(L, 2, LUA_TTABLE);
	lua_geti(L, 2, 1);
	if (!lua_isnumber(L, -1))
		return luaL_error(L, "expiry_heap: an entry's first field is its expiry time, "
				  "not %s", luaL_typename(L, -1));
	expires = lua_tonumber(L, -1);
	lua_pop(L, 1);
	if (lh->free_slots->len)
		slot = g_array_index(lh->free_slots, lua_Integer, --lh->free_slots->len);
	else
		slot = ++lh->nr_slots;
	lua_getiuservalue(L, 1, 1);
	lua_pushvalue(L, 2);
	lua_rawseti(L, -2, slot);
	expiry_heap_push(&lh->h, (struct expiry){ expires, (uint64_t)slot });
	return 0;
}

/* h:top(): the earliest entry, nil if none. */
static int l_top(lua_State *L)
{
	struct lheap *lh = check_heap(L);

	if (!lh->h.n)
		lua_pushnil(L);
	else
		push_entry(L, (lua_Integer)lh->h.e[1].value);
	return 1;
}

/* h:due(now): whether the earliest entry expires by now. */
static int l_due(lua_State *L)
{
	struct lheap *lh = check_heap(L);

	lua_pushboolean(L, expiry_heap_due(&lh->h, luaL_checknumber(L, 2)));
	return 1;
}

/* h:pop(): the earliest entry, taken out; nil if none. */
static int l_pop(lua_State *L)
{
	struct lheap *lh = check_heap(L);
	lua_Integer slot;

	if (!lh->h.n) {
		lua_pushnil(L);
		return 1;
	}
	slot = (lua_Integer)expiry_heap_pop(&lh->h).value;
	push_entry(L, slot);
	lua_getiuservalue(L, 1, 1);
	lua_pushnil(L);
	lua_rawseti(L, -2, slot);
	lua_pop(L, 1);
	g_array_append_val(lh->free_slots, slot);
	return 1;
}

static int l_gc(lua_State *L)
{
	struct lheap *lh = check_heap(L);

	expiry_heap_free(&lh->h);
	if (lh->free_slots)
		g_array_free(lh->free_slots, TRUE);
	lh->free_slots = NULL;
	return 0;
}

int luaopen_expiry_heap(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "push", l_push },
		{ "top", l_top },
		{ "due", l_due },
		{ "pop", l_pop },
		{ NULL, NULL },
	};
	static const luaL_Reg module[] = {
		{ "new", l_new },
		{ NULL, NULL },
	};

	new_class(L, EXPIRY_HEAP_MT, methods, l_gc);
	luaL_newlib(L, module);
	return 1;
}
