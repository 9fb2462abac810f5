/* Trace replay in Lua: the readers of trace.c, and the kmem replay's inner
 * loop (allocations and frees paired by pfn), for lua/mmsim/replay.lua. */
#include "laux.h"
#include "lmmsimlib.h"
#include "sim/ptrmap.h"
#include "sim/trace.h"

#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/topology.h"

#include <lauxlib.h>

#define KMEM_TRACE_MT "mmsim.kmem_trace"
#define KMEM_REPLAY_MT "mmsim.kmem_replay"
/* The kernel source id of replayed pages, in the model's own range. */
#define KMEM_REPLAY_SOURCE 0x0fe00002u

uint32_t kmem_replay_owner(void)
{
	return make_owner(OWNER_KIND_KERNEL, KMEM_REPLAY_SOURCE);
}

/* The `{skip_bad = }` table at idx. */
static bool opt_skip_bad(lua_State *L, int idx, const char *what)
{
	static const char *const keys[] = { "skip_bad", NULL };

	if (lua_isnoneornil(L, idx))
		return false;
	luaL_checktype(L, idx, LUA_TTABLE);
	check_known_keys(L, idx, keys, what);
	return opt_bool_field(L, idx, "skip_bad", false);
}

static void push_counts(lua_State *L, const struct trace_counts *c)
{
	static const struct lfield f[] = {
		LFIELD(struct trace_counts, lines),
		LFIELD(struct trace_counts, bad_lines),
		LFIELD(struct trace_counts, ignored),
		LFIELD(struct trace_counts, duration_ns),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, c, f, G_N_ELEMENTS(f));
	if (c->first_bad)
		set_str(L, "first_bad", c->first_bad);
}

static void set_bool(lua_State *L, const char *k, bool v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

/* mmsim.read_strace(path [, {skip_bad =}]) -> events, counts */
static int l_read_strace(lua_State *L)
{
	static const char *const calls[] = { "mmap", "munmap", "mremap", "madvise", "brk",
					     "mprotect" };
	static const char *const prots[] = { "none", "r", "", "rw" };
	const char *path = luaL_checkstring(L, 1);
	struct trace_counts counts;
	char *err = NULL;
	GArray *ev = strace_read(path, opt_skip_bad(L, 2, "read_strace"), &counts, &err);

	if (!ev) {
		lua_pushstring(L, err);
		g_free(err);
		return lua_error(L);
	}
	lua_createtable(L, (int)ev->len, 0);
	for (guint i = 0; i < ev->len; i++) {
		const struct strace_event *e = &g_array_index(ev, struct strace_event, i);

		lua_createtable(L, 0, 12);
		set_int(L, "t", (lua_Integer)e->ts_ns);
		set_int(L, "tid", e->tid);
		set_int(L, "line", e->line);
		set_str(L, "call", calls[e->call]);
		set_int(L, "addr", (lua_Integer)e->addr);
		set_int(L, "len", (lua_Integer)e->len);
		set_int(L, "ret", (lua_Integer)e->ret);
		switch (e->call) {
		case SC_MMAP:
			set_str(L, "prot", prots[e->prot]);
			set_int(L, "fd", e->fd);
			set_bool(L, "anon", e->flags & TRACE_MAP_ANONYMOUS);
			set_bool(L, "fixed", e->flags & TRACE_MAP_FIXED);
			set_bool(L, "shared", e->flags & TRACE_MAP_SHARED);
			set_bool(L, "stack", e->flags & TRACE_MAP_STACK);
			set_bool(L, "populate", e->flags & TRACE_MAP_POPULATE);
			break;
		case SC_MPROTECT:
			set_str(L, "prot", prots[e->prot]);
			break;
		case SC_MADVISE:
			set_str(L, "advice", e->advice);
			break;
		case SC_MREMAP:
			set_int(L, "new_len", (lua_Integer)e->new_len);
			set_bool(L, "maymove", e->flags & TRACE_MREMAP_MAYMOVE);
			break;
		default:
			break;
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	g_array_free(ev, TRUE);
	push_counts(L, &counts);
	trace_counts_clear(&counts);
	return 2;
}

/* What the replay reads of an event, in one place: each traced CPU's
 * events walked in order without reaching back into the file's (a free's
 * allocation lies far behind it).  An allocation's rank among the
 * allocations stands for it; a free carries its allocation's rank, order
 * and flags. */
struct kmem_step {
	uint64_t ts_ns;
	uint32_t rank;              /* KMEM_UNPAIRED: a free with no allocation */
	gfp_t gfp;
	uint8_t kind;
	uint8_t order;
};

#define KMEM_UNPAIRED UINT32_MAX

/* A kmem trace: its events, and each traced CPU's in file order. */
struct lkmem_trace {
	GArray *ev;                 /* struct kmem_event; NULL once collected */
	GArray **by_cpu;            /* struct kmem_step */
	uint32_t nr_allocs;
	unsigned nr_cpus;
	struct trace_counts counts;
};

static struct lkmem_trace *check_kmem_trace(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, KMEM_TRACE_MT);
}

static int l_kmem_trace_gc(lua_State *L)
{
	struct lkmem_trace *t = check_kmem_trace(L, 1);

	if (t->ev) {
		for (unsigned c = 0; c < t->nr_cpus; c++)
			g_array_free(t->by_cpu[c], TRUE);
		g_free(t->by_cpu);
		g_array_free(t->ev, TRUE);
		trace_counts_clear(&t->counts);
		t->ev = NULL;
	}
	return 0;
}

/* mmsim.read_kmem(path [, {skip_bad =}]) -> trace */
static int l_read_kmem(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	bool skip = opt_skip_bad(L, 2, "read_kmem");
	struct lkmem_trace *t = lua_newuserdatauv(L, sizeof(*t), 0);
	char *err = NULL;

	memset(t, 0, sizeof(*t));
	luaL_setmetatable(L, KMEM_TRACE_MT);
	t->ev = kmem_read(path, skip, &t->counts, &err);
	if (!t->ev) {
		lua_pushstring(L, err);
		g_free(err);
		return lua_error(L);
	}
	for (guint i = 0; i < t->ev->len; i++)
		t->nr_cpus = MAX(t->nr_cpus, g_array_index(t->ev, struct kmem_event, i).cpu + 1u);
	t->by_cpu = g_new(GArray *, MAX(t->nr_cpus, 1));
	for (unsigned c = 0; c < t->nr_cpus; c++)
		t->by_cpu[c] = g_array_new(FALSE, FALSE, sizeof(struct kmem_step));
	uint32_t *rank = g_new(uint32_t, t->ev->len);
	for (guint i = 0; i < t->ev->len; i++) {
		const struct kmem_event *e = &g_array_index(t->ev, struct kmem_event, i);
		struct kmem_step st = { .ts_ns = e->ts_ns, .kind = e->kind, .rank = KMEM_UNPAIRED };

		if (e->kind == KMEM_ALLOC)
			rank[i] = t->nr_allocs++;
		if (e->kind == KMEM_ALLOC || e->pair >= 0) {
			guint ai = e->kind == KMEM_ALLOC ? i : (guint)e->pair;
			const struct kmem_event *a = &g_array_index(t->ev, struct kmem_event, ai);

			st.rank = rank[ai];
			st.gfp = a->gfp;
			st.order = a->order;
		}
		g_array_append_val(t->by_cpu[e->cpu], st);
	}
	g_free(rank);
	return 1;
}

static const struct kmem_step *kmem_at(const struct lkmem_trace *t, unsigned cpu, guint pos)
{
	return &g_array_index(t->by_cpu[cpu], struct kmem_step, pos);
}

/* Per-order counts as {[0] = n, ..., [10] = n}. */
static void set_orders(lua_State *L, const char *k, const unsigned long *n)
{
	lua_createtable(L, NR_PAGE_ORDERS, 1);
	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		lua_pushinteger(L, (lua_Integer)n[o]);
		lua_rawseti(L, -2, o);
	}
	lua_setfield(L, -2, k);
}

/* trace:info() -> {cpus, events, duration_ns, lines, bad_lines, ignored,
 * first_bad, allocs = {[order] = n}, frees = {[order] = n}, unpaired_frees} */
static int l_kmem_info(lua_State *L)
{
	struct lkmem_trace *t = check_kmem_trace(L, 1);
	unsigned long allocs[NR_PAGE_ORDERS] = { 0 }, frees[NR_PAGE_ORDERS] = { 0 }, unpaired = 0;
	for (unsigned c = 0; c < t->nr_cpus; c++)
		for (guint i = 0; i < t->by_cpu[c]->len; i++) {
			const struct kmem_step *e = kmem_at(t, c, i);

			if (e->kind == KMEM_ALLOC)
				allocs[e->order]++;
			else if (e->rank != KMEM_UNPAIRED)
				frees[e->order]++;
			else
				unpaired++;
		}
	push_counts(L, &t->counts);
	set_int(L, "cpus", t->nr_cpus);
	set_int(L, "events", t->ev->len);
	set_orders(L, "allocs", allocs);
	set_orders(L, "frees", frees);
	set_int(L, "unpaired_frees", (lua_Integer)unpaired);
	return 1;
}

/* trace:first(cpu) -> the trace time (ns) of the traced CPU's first event,
 * or nil if it has none */
static int l_kmem_first(lua_State *L)
{
	struct lkmem_trace *t = check_kmem_trace(L, 1);
	lua_Integer cpu = luaL_checkinteger(L, 2);

	if (cpu < 0 || cpu >= t->nr_cpus || !t->by_cpu[cpu]->len)
		lua_pushnil(L);
	else
		lua_pushinteger(L, (lua_Integer)kmem_at(t, (unsigned)cpu, 0)->ts_ns);
	return 1;
}

/* A replay of a trace on a machine: `copies` independent copies of the
 * trace's load, each pairing its own frees with its own allocations. */
struct lkmem_replay {
	struct lmachine *lm;
	struct lkmem_trace *t;
	unsigned copies;
	/* Per copy, by allocation rank: 0 not live, 1 live but failed, else the
	 * block's pfn + 2.  An array, not a map: the replay walks the ranks
	 * nearly in order, and a map's probes missed the cache. */
	uint32_t **live;
	unsigned long nr_live;
	struct ptrmap *early;       /* per copy: allocations (index + 1) whose free ran first */
	bool movable;               /* false: movable allocations (user pages) left out */
	unsigned long allocated[NR_PAGE_ORDERS], freed[NR_PAGE_ORDERS], failed[NR_PAGE_ORDERS];
	unsigned long unpaired, early_frees, skipped, recycled;
};

static struct lkmem_replay *check_replay(lua_State *L, int idx)
{
	struct lkmem_replay *r = luaL_checkudata(L, idx, KMEM_REPLAY_MT);

	if (!r->lm->m || !r->t->ev)
		luaL_error(L, "the replay's machine has been destroyed");
	return r;
}

static int l_replay_gc(lua_State *L)
{
	struct lkmem_replay *r = luaL_checkudata(L, 1, KMEM_REPLAY_MT);

	for (unsigned k = 0; r->live && k < r->copies; k++) {
		g_free(r->live[k]);
		ptrmap_free(&r->early[k]);
	}
	g_free(r->live);
	g_free(r->early);
	r->live = NULL;
	r->early = NULL;
	return 0;
}

/* trace:replay(m, copies [, movable]) -> replay */
static int l_kmem_replay(lua_State *L)
{
	struct lkmem_trace *t = check_kmem_trace(L, 1);
	struct lmachine *lm = check_lmachine(L, 2);
	lua_Integer copies = luaL_checkinteger(L, 3);
	bool movable = lua_isnoneornil(L, 4) || lua_toboolean(L, 4);
	struct lkmem_replay *r;

	luaL_argcheck(L, copies >= 1 && copies <= 65536, 3, "copies must be 1 to 65536");
	r = lua_newuserdatauv(L, sizeof(*r), 2);
	memset(r, 0, sizeof(*r));
	luaL_setmetatable(L, KMEM_REPLAY_MT);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, -2, 1);
	lua_pushvalue(L, 2);
	lua_setiuservalue(L, -2, 2);
	r->lm = lm;
	r->t = t;
	r->copies = (unsigned)copies;
	r->movable = movable;
	r->live = g_new(uint32_t *, r->copies);
	for (unsigned k = 0; k < r->copies; k++)
		r->live[k] = g_new0(uint32_t, t->nr_allocs);
	r->early = g_new0(struct ptrmap, r->copies);
	return 1;
}

static void replay_free(struct mm_ctx *ctx, struct lkmem_replay *r, pfn_t pfn, unsigned order)
{
	if (__free_pages(ctx, r->lm->m, pfn))
		g_error("kmem replay: pfn %lu is no longer the replay's block",
			(unsigned long)pfn);
	r->freed[order]++;
}

/* A live block of copy k leaves the live set: freed unless its
 * allocation failed. */
static void replay_drop(struct mm_ctx *ctx, struct lkmem_replay *r, uint32_t *slot,
			unsigned order)
{
	if (*slot > 1)
		replay_free(ctx, r, (pfn_t)(*slot - 2), order);
	*slot = 0;
	r->nr_live--;
}

/* One event of copy k. */
static void replay_event(struct mm_ctx *ctx, struct lkmem_replay *r, unsigned k,
			 const struct kmem_step *e)
{
	struct machine *m = r->lm->m;
	uint32_t *slot;
	void *val;

	if (e->rank == KMEM_UNPAIRED) {
		r->unpaired++;
		return;
	}
	if (!r->movable && gfp_migratetype(e->gfp) == MIGRATE_MOVABLE) {
		r->skipped += e->kind == KMEM_ALLOC;
		return;
	}
	slot = &r->live[k][e->rank];
	if (e->kind == KMEM_ALLOC) {
		pfn_t pfn;

		/* A block the capture never frees is freed when its
		 * allocation comes round again, a pass of the capture later:
		 * a repeated capture keeps one pass's long-lived blocks. */
		if (*slot) {
			r->recycled++;
			replay_drop(ctx, r, slot, e->order);
		}
		pfn = __alloc_pages(ctx, m, e->gfp, e->order,
					  topology_cpu_to_node(&m->topo, ctx->cpu),
					  kmem_replay_owner(), k);

		if (pfn == PFN_NONE)
			r->failed[e->order]++;
		else
			r->allocated[e->order]++;
		if (ptrmap_take(&r->early[k], (uint64_t)e->rank + 1, &val)) {
			r->early_frees++;
			if (pfn != PFN_NONE)
				replay_free(ctx, r, pfn, e->order);
		} else {
			*slot = pfn == PFN_NONE ? 1 : (uint32_t)pfn + 2;
			r->nr_live++;
		}
		return;
	}
	if (*slot) {
		replay_drop(ctx, r, slot, e->order);
	} else if (!ptrmap_find(&r->early[k], (uint64_t)e->rank + 1)) {
		/* Its allocation's thread runs late: it frees the block at once. */
		ptrmap_put(&r->early[k], (uint64_t)e->rank + 1, GINT_TO_POINTER(1));
	}
}

/* replay:run(copy, cpu, pos, limit_ns) -> pos, next_ns or nil: replays the
 * traced CPU's events from pos (0-based) on the calling thread's CPU, the
 * first one and then those up to trace time limit_ns */
static int l_replay_run(lua_State *L)
{
	struct lkmem_replay *r = check_replay(L, 1);
	lua_Integer k = luaL_checkinteger(L, 2), cpu = luaL_checkinteger(L, 3);
	lua_Integer pos = luaL_checkinteger(L, 4), limit = luaL_checkinteger(L, 5);
	struct mm_ctx buf, *ctx = call_ctx(L, r->lm->m, 0, &buf);
	const GArray *s;

	luaL_argcheck(L, k >= 0 && k < r->copies, 2, "no such copy");
	luaL_argcheck(L, cpu >= 0 && cpu < r->t->nr_cpus, 3, "no such traced CPU");
	s = r->t->by_cpu[cpu];
	luaL_argcheck(L, pos >= 0 && pos <= s->len, 4, "position outside the CPU's events");
	for (guint i = (guint)pos; i < s->len; i++) {
		const struct kmem_step *e = kmem_at(r->t, (unsigned)cpu, i);

		if (i > pos && e->ts_ns > (uint64_t)MAX(limit, 0)) {
			lua_pushinteger(L, i);
			lua_pushinteger(L, (lua_Integer)e->ts_ns);
			return 2;
		}
		replay_event(ctx, r, (unsigned)k, e);
	}
	lua_pushinteger(L, s->len);
	lua_pushnil(L);
	return 2;
}

/* replay:stats() -> {allocated, freed, failed = {[order] = blocks},
 * pages_allocated, pages_freed, unpaired_frees, early_frees, skipped,
 * recycled, live} */
static int l_replay_stats(lua_State *L)
{
	struct lkmem_replay *r = check_replay(L, 1);
	lua_Integer pa = 0, pf = 0;

	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		pa += (lua_Integer)r->allocated[o] << o;
		pf += (lua_Integer)r->freed[o] << o;
	}
	lua_createtable(L, 0, 8);
	set_orders(L, "allocated", r->allocated);
	set_orders(L, "freed", r->freed);
	set_orders(L, "failed", r->failed);
	set_int(L, "pages_allocated", pa);
	set_int(L, "pages_freed", pf);
	set_int(L, "unpaired_frees", (lua_Integer)r->unpaired);
	set_int(L, "early_frees", (lua_Integer)r->early_frees);
	set_int(L, "skipped", (lua_Integer)r->skipped);
	set_int(L, "recycled", (lua_Integer)r->recycled);
	set_int(L, "live", (lua_Integer)r->nr_live);
	return 1;
}

void lreplay_open(lua_State *L, int module)
{
	static const luaL_Reg trace_methods[] = {
		{ "info", l_kmem_info },
		{ "first", l_kmem_first },
		{ "replay", l_kmem_replay },
		{ NULL, NULL },
	};
	static const luaL_Reg replay_methods[] = {
		{ "run", l_replay_run },
		{ "stats", l_replay_stats },
		{ NULL, NULL },
	};

	module = lua_absindex(L, module);
	lua_pushcfunction(L, l_read_strace);
	lua_setfield(L, module, "read_strace");
	lua_pushcfunction(L, l_read_kmem);
	lua_setfield(L, module, "read_kmem");
	new_class(L, KMEM_TRACE_MT, trace_methods, l_kmem_trace_gc);
	new_class(L, KMEM_REPLAY_MT, replay_methods, l_replay_gc);
}
