/* jemalloc churn in C (workload_jemalloc.h). */
#include "sim/workload_jemalloc.h"

#include "models/mm_space.h"
#include "models/mmtypes.h"
#include "sim/mailbox.h"
#include "sim/ptrmap.h"
#include "sim/workload.h"

#include <glib.h>
#include <stddef.h>
#include <string.h>

#define MiB (1024ULL * 1024)
/* How long a thread keeps an object handed to it before freeing it, and
 * how long a purge handed to a thread, or its result handed back, takes
 * to arrive: the mailboxes' latency, the engine's default horizon, so
 * that the threads run to the horizon and still see each other's frees
 * and purges at their exact simulated time (sim/mailbox.h). */
#define HANDOVER_NS 10000

/* A free run of an arena: dirty (still resident) since `since`, or clean
 * (purged).  32 bytes, two to a cache line: the records are loads that
 * miss at nearly every visit of the arena. */
struct run {
	uint64_t addr, end;
	union {
		int64_t since;
		struct run *next_spare; /* while in the arena's spares */
	};
	uint32_t pos;                   /* in the arena's run_order */
	bool dirty;
};

/* Runs come from chunks of an arena's own, so that its records sit
 * together instead of among the heap's other blocks. */
#define RUN_CHUNK 64

/* Each arena is its owner's alone: what other threads do to it comes
 * through the owner's mailbox, at its simulated time.  An object handed to
 * another thread is freed by it HANDOVER_NS later (a message the owner
 * posts to itself); when that free makes a purge due, the owner takes the
 * runs to purge out of the arena and hands them to the freeing thread,
 * which purges them on its CPU and hands them back clean. */
/* What a subtree of run_order holds: its largest dirty and clean run in
 * pages (0: none) and its oldest dirty time (INT64_MAX: none). */
struct run_summary {
	uint32_t dirty_max, clean_max;
	int64_t dirty_since;
};

/* The free runs in the order they were made, first fit's and the decay
 * scan's order: new runs go at the end, removed ones leave a hole until
 * the slots are full.  A tree over the slots summarises each subtree, so
 * that a search skips the subtrees without a match instead of scanning
 * every run.  Four children a node, in one cache line: node 0 the root,
 * node i's children 4i + 1 to 4i + 4, slot i's leaf (cap - 1) / 3 + i.
 * A slot holds its run's start address, the run index's key to the
 * record, and the leaf its size: first fit takes a run's front without
 * reading its record, one miss less on every allocation. */
#define ORDER_FANOUT 4
#define ORDER_NONE SIZE_MAX
struct run_order {
	uint64_t *slot;                 /* 0: a hole */
	struct run_summary *node;       /* node[1] starts a cache line */
	void *node_mem;
	size_t cap, end, live;          /* slots (a power of 4), slots used (holes included), runs */
};

static size_t order_leaf(const struct run_order *o, size_t pos)
{
	return (o->cap - 1) / (ORDER_FANOUT - 1) + pos;
}

struct arena {
	struct run_order runs;
	struct ptrmap index;            /* the runs by their ends */
	struct run *spare;              /* freed runs for reuse */
	GPtrArray *chunks;              /* of RUN_CHUNK runs each */
	unsigned grow;                  /* the next extent's size class */
	uint64_t cur_addr, cur_len, cur_used;   /* the extent being carved; cur_len 0: none */
	uint64_t extents;
	int64_t last_purge;
};

struct object {
	uint64_t addr, len;
	unsigned arena;
};

/* Objects in a ring: a thread's own, oldest first. */
struct object_fifo {
	struct object *buf;
	size_t head, len, cap;
};

enum churn_msg_kind {
	MSG_FREE,       /* to the owner: the object was freed by thread `by` */
	MSG_PURGE,      /* to a thread: purge [addr, addr + len) of `arena` */
	MSG_PURGED,     /* to the owner: that run is clean */
	/* Page level, from leader `arena` to its followers: */
	MSG_MIRROR_MAP,         /* it mapped extent number `by`, [addr, addr + len) */
	MSG_MIRROR_TOUCH,       /* it touched [addr, addr + len) */
	MSG_MIRROR_PURGE,       /* [addr, addr + len) was purged */
};

struct churn_msg {
	enum churn_msg_kind kind;
	unsigned by;
	struct object obj;
};

/* Page level: an extent a leader mapped while followers replay it. */
struct mirror_extent {
	uint64_t addr, len;
	unsigned nr;                    /* in mapping order: its followers' own[nr] */
};

struct churn_thread {
	struct workload_thread base;
	unsigned index;
	struct arena arena;
	struct object_fifo mine;
	uint64_t held;                  /* bytes in mine */
	struct engine_mailbox *mailbox;
	/* Page level (engine_page_level): a leader steps its objects and
	 * posts the page events in extents it maps meanwhile to its
	 * followers, which replay them in extents of their own. */
	GArray *mirror;                 /* leader: struct mirror_extent, by address */
	GArray *own;                    /* follower: uint64_t, its copy of extent nr (0: none) */
	bool following;                 /* follower: replaying, its own arena set aside */
	bool leading;                   /* leader: posting its page events */
	/* Leader, steady state (coast_ratio): times on its stepped clock
	 * (the simulated time less `coasted`, its coasts' total) of its last
	 * page event and of the end of its last coast (or of its start as a
	 * leader); coasting from coast_from until coast_until (0: not
	 * coasting), objects_per_ns meanwhile. */
	int64_t coasted, quiet_at, stepped_at;
	int64_t dirty_age;              /* the oldest dirty run's age, largest since quiet_at */
	uint64_t quiet_objects;         /* stepped since quiet_at or stepped_at, the later */
	int64_t coast_from, coast_until;
	double objects_per_ns, coast_objects;
};

struct jemalloc_churn {
	struct workload base;           /* first: the threads' workload is the churn */
	struct jemalloc_churn_opts o;
	struct jemalloc_size *sizes;
	double total_weight;
	struct churn_thread *threads;
	struct jemalloc_churn_stats stats;
	/* The dirty runs' pages were touched and only the churn's own purges
	 * changed the process's entries since (they make runs clean): a
	 * dirty run's pages are present, and allocating from one needs no
	 * touch.  Told by the mmu_notifier of every other change, and of a
	 * touch that failed part-way, after which it touches everything. */
	struct mmu_notifier notifier;   /* registered while threads run */
	unsigned running;
	bool pages_unknown;
	unsigned leaders;               /* page level: threads 0 to leaders - 1 */
	struct purge_slot {
		uint64_t addr, end;
	} *purging;                     /* purges under way, one a thread (end 0: free slot) */
};

/* Page level: a leader whose arena is steady coasts, coast_ratio
 * (jemalloc_churn_opts) times as long as it stepped since its last coast:
 * it steps no object, its arena stays as it is and its times move on by
 * the coast at its end.  A steady churn reuses its dirty runs before they
 * decay and faults, maps and purges nothing (aging.lua at real pace: none
 * of those after its first 40 s, through 200 s).  Steady: no page event
 * (a fault, an extent mapped, a purge, a failure) for a decay time,
 * through which the oldest dirty run was never half the decay time old
 * nor a quarter of the time without an event (a run left unused since
 * then: a churn still heading for its first purges, as page_level.sh's at
 * 40-80 ms).  Events rarer than a decay time come 1 + coast_ratio times
 * slower. */

/* jemalloc's extent size classes from 2 MiB: four per doubling. */
static uint64_t extent_size(unsigned i)
{
	uint64_t base = 2 * MiB << (i / 4);

	return base + (i % 4) * (base / 4);
}

static void fifo_push(struct object_fifo *q, struct object obj)
{
	if (q->len == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct object *buf = g_new(struct object, cap);

		for (size_t i = 0; i < q->len; i++)
			buf[i] = q->buf[(q->head + i) % q->cap];
		g_free(q->buf);
		q->buf = buf;
		q->head = 0;
		q->cap = cap;
	}
	q->buf[(q->head + q->len++) % q->cap] = obj;
}

static struct object fifo_pop(struct object_fifo *q)
{
	struct object obj = q->buf[q->head];

	q->head = (q->head + 1) % q->cap;
	q->len--;
	return obj;
}

/* The arena's runs by their start and by their end address (end | 1:
 * addresses are page aligned). */
static struct run *index_find(const struct ptrmap *x, uint64_t key)
{
	return ptrmap_find(x, key);
}

static struct run *index_remove(struct ptrmap *x, uint64_t key)
{
	void *r;

	/* A run missing from the index: the arena is corrupt. */
	if (!ptrmap_take(x, key, &r))
		g_error("jemalloc arena: no run at %#" G_GINT64_MODIFIER "x", key);
	return r;
}

static const struct run_summary no_run = { 0, 0, INT64_MAX };

static struct run_summary summary_of(const struct run *r)
{
	uint32_t pages = (uint32_t)((r->end - r->addr) / PAGE_SIZE);

	if (r->dirty)
		return (struct run_summary){ pages, 0, r->since };
	return (struct run_summary){ 0, pages, INT64_MAX };
}

static struct run_summary summary_join(struct run_summary a, struct run_summary b)
{
	return (struct run_summary){ MAX(a.dirty_max, b.dirty_max), MAX(a.clean_max, b.clean_max),
				     MIN(a.dirty_since, b.dirty_since) };
}

static struct run_summary children_join(const struct run_order *o, size_t i)
{
	const struct run_summary *c = &o->node[ORDER_FANOUT * i + 1];
	struct run_summary s = c[0];

	for (unsigned k = 1; k < ORDER_FANOUT; k++)
		s = summary_join(s, c[k]);
	return s;
}

/* Slot pos's leaf becomes leaf, and the summaries above it change up to
 * the first that stays the same. */
static void order_set(struct run_order *o, size_t pos, struct run_summary leaf)
{
	size_t i = order_leaf(o, pos);

	o->node[i] = leaf;
	while (i) {
		struct run_summary s;

		i = (i - 1) / ORDER_FANOUT;
		s = children_join(o, i);
		if (!memcmp(&s, &o->node[i], sizeof(s)))
			break;
		o->node[i] = s;
	}
}

/* cap slots (a power of 4) holding the runs in their order, without the
 * holes, each leaf moved with its slot: in place if cap stays (new arrays
 * each time made a 64-thread run a quarter bigger through the heap's
 * fragments).  The records learn their new slots through the index. */
static void order_rebuild(struct run_order *o, const struct ptrmap *x, size_t cap)
{
	uint64_t *slot = cap == o->cap ? o->slot : g_new0(uint64_t, cap);
	struct run_summary *node = o->node;
	void *node_mem = o->node_mem;
	size_t n = 0, first_leaf = (cap - 1) / (ORDER_FANOUT - 1);

	if (cap != o->cap) {
		/* Three entries before node 0, so that node 1 and every group
		 * of children after it start a 64-byte line. */
		node_mem = g_aligned_alloc(first_leaf + cap + 3, sizeof(struct run_summary), 64);
		node = (struct run_summary *)node_mem + 3;
	}
	/* In place, slot n is written after slot i >= n is read. */
	for (size_t i = 0; i < o->end; i++)
		if (o->slot[i]) {
			node[first_leaf + n] = o->node[order_leaf(o, i)];
			slot[n] = o->slot[i];
			index_find(x, slot[n])->pos = (uint32_t)n;
			n++;
		}
	memset(slot + n, 0, (cap - n) * sizeof(*slot));
	for (size_t i = n; i < cap; i++)
		node[first_leaf + i] = no_run;
	if (cap != o->cap) {
		g_free(o->slot);
		g_aligned_free(o->node_mem);
		o->slot = slot;
		o->node = node;
		o->node_mem = node_mem;
		o->cap = cap;
	}
	o->end = n;
	for (size_t i = first_leaf; i--;)
		o->node[i] = children_join(o, i);
}

/* r, starting at addr and summarised by leaf, at the end of the order. */
static void order_add(struct run_order *o, const struct ptrmap *x, struct run *r, uint64_t addr,
		      struct run_summary leaf)
{
	/* Compacting leaves a quarter free at least. */
	if (o->end == o->cap)
		order_rebuild(o, x, 4 * o->live > 3 * o->cap ? ORDER_FANOUT * o->cap : o->cap);
	r->pos = (uint32_t)o->end++;
	o->slot[r->pos] = addr;
	o->live++;
	order_set(o, r->pos, leaf);
}

static void order_remove(struct run_order *o, size_t pos)
{
	o->slot[pos] = 0;
	o->live--;
	order_set(o, pos, no_run);
}

typedef bool (*summary_pred)(const struct run_summary *s, uint64_t arg);

static bool has_dirty_fit(const struct run_summary *s, uint64_t pages)
{
	return s->dirty_max >= pages;
}

static bool has_clean_fit(const struct run_summary *s, uint64_t pages)
{
	return s->clean_max >= pages;
}

static bool has_dirty_since(const struct run_summary *s, uint64_t cutoff)
{
	return s->dirty_since <= (int64_t)cutoff;
}

/* The slot of the first run at from or after that matches, or ORDER_NONE:
 * up from from's leaf until a subtree to its right matches, then down to
 * that subtree's first match. */
static inline size_t order_next(const struct run_order *o, size_t from, summary_pred match,
				     uint64_t arg)
{
	size_t i = order_leaf(o, from), first_leaf = order_leaf(o, 0);

	if (from >= o->end)
		return ORDER_NONE;
	while (!match(&o->node[i], arg)) {
		/* The last child of its parent: go up. */
		while (i && i % ORDER_FANOUT == 0)
			i = (i - 1) / ORDER_FANOUT;
		if (!i)
			return ORDER_NONE;
		i++;
	}
	while (i < first_leaf) {
		i = ORDER_FANOUT * i + 1;
		while (!match(&o->node[i], arg))
			i++;
	}
	return i - first_leaf;
}

static void arena_init(struct arena *a)
{
	order_rebuild(&a->runs, &a->index, 64);
	a->chunks = g_ptr_array_new_with_free_func(g_aligned_free);
}

static void arena_destroy(struct arena *a)
{
	g_ptr_array_free(a->chunks, TRUE);
	g_free(a->runs.slot);
	g_aligned_free(a->runs.node_mem);
	ptrmap_free(&a->index);
}

static void add_run(struct arena *a, uint64_t addr, uint64_t end, bool dirty, int64_t since)
{
	struct run *r;

	if (!a->spare) {
		struct run *chunk = g_aligned_alloc(RUN_CHUNK, sizeof(*chunk), 64);

		g_ptr_array_add(a->chunks, chunk);
		for (size_t i = RUN_CHUNK; i--;) {
			chunk[i].next_spare = a->spare;
			a->spare = &chunk[i];
		}
	}
	r = a->spare;
	a->spare = r->next_spare;
	*r = (struct run){ .addr = addr, .end = end, .since = since, .dirty = dirty };
	order_add(&a->runs, &a->index, r, addr, summary_of(r));
	ptrmap_put(&a->index, addr, r);
	ptrmap_put(&a->index, end | 1, r);
}

static void remove_run(struct arena *a, struct run *r)
{
	index_remove(&a->index, r->addr);
	index_remove(&a->index, r->end | 1);
	order_remove(&a->runs, r->pos);
	r->next_spare = a->spare;
	a->spare = r;
}

/* r becomes [addr, end), dirty since since, a new run in first fit's
 * order: the index changes only for the ends that move. */
static void move_run(struct arena *a, struct run *r, uint64_t addr, uint64_t end, int64_t since)
{
	if (addr != r->addr) {
		index_remove(&a->index, r->addr);
		ptrmap_put(&a->index, addr, r);
	}
	if (end != r->end) {
		index_remove(&a->index, r->end | 1);
		ptrmap_put(&a->index, end | 1, r);
	}
	order_remove(&a->runs, r->pos);
	r->addr = addr;
	r->end = end;
	r->since = since;
	order_add(&a->runs, &a->index, r, addr, summary_of(r));
}

/* Return [addr, addr + len) dirty since now, merged with dirty neighbours;
 * the merged run keeps the oldest dirty time, so that new frees do not
 * postpone a neighbour's decay. */
static void arena_free(struct arena *a, uint64_t addr, uint64_t len, int64_t now)
{
	uint64_t end = addr + len;
	int64_t since = now;
	struct run *before = index_find(&a->index, addr | 1);
	struct run *after = index_find(&a->index, end);
	struct run *merged = NULL;       /* a neighbour that becomes the merged run */

	if (before && before->dirty) {
		addr = before->addr;
		since = MIN(since, before->since);
		merged = before;
	}
	if (after && after->dirty) {
		end = after->end;
		since = MIN(since, after->since);
		if (merged)
			remove_run(a, after);
		else
			merged = after;
	}
	if (merged)
		move_run(a, merged, addr, end, since);
	else
		add_run(a, addr, end, true, since);
}

/* Map an extent of len bytes at *addr; false if memory ran out. */
static bool extent_mmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t len, uint64_t *addr)
{
	int err = 0;

	engine_safepoint(ctx);
	*addr = vm_mmap(ctx, mm, len, PROT_READ | PROT_WRITE, &err);
	if (err && err != -MM_ENOMEM)
		g_error("jemalloc churn: mmap of %" G_GUINT64_FORMAT " bytes: error %d", len, err);
	return !err;
}

/* First fit among the free runs, the first dirty (resident) one that fits
 * before any clean one; then the current extent; then a new, larger
 * extent.  false if the extent could not be mapped. */
static bool arena_alloc(struct mm_ctx *ctx, struct mm_struct *mm, struct arena *a, uint64_t len,
			uint64_t *out, bool *dirty)
{
	struct run_order *o = &a->runs;
	size_t pos = order_next(o, 0, has_dirty_fit, len / PAGE_SIZE);

	if (pos == ORDER_NONE)
		pos = order_next(o, 0, has_clean_fit, len / PAGE_SIZE);
	*dirty = false;
	if (pos != ORDER_NONE) {
		/* The run from its slot and leaf, its record only written. */
		struct run_summary leaf = o->node[order_leaf(o, pos)];
		uint32_t *pages = leaf.dirty_max ? &leaf.dirty_max : &leaf.clean_max;
		uint64_t addr = o->slot[pos], end = addr + (uint64_t)*pages * PAGE_SIZE;
		struct run *r;

		*dirty = leaf.dirty_max != 0;
		*out = addr;
		r = index_remove(&a->index, addr);
		order_remove(o, pos);
		if (end - addr > len) {
			/* The rest, a new run in first fit's order. */
			ptrmap_put(&a->index, addr + len, r);
			r->addr = addr + len;
			*pages -= (uint32_t)(len / PAGE_SIZE);
			order_add(o, &a->index, r, r->addr, leaf);
		} else {
			index_remove(&a->index, end | 1);
			r->next_spare = a->spare;
			a->spare = r;
		}
		return true;
	}
	if (!a->cur_len || a->cur_used + len > a->cur_len) {
		uint64_t size = extent_size(a->grow);
		uint64_t addr;

		while (size < len)
			size = extent_size(++a->grow);
		if (!extent_mmap(ctx, mm, size, &addr))
			return false;
		a->grow++;
		a->extents++;
		a->cur_addr = addr;
		a->cur_len = size;
		a->cur_used = 0;
	}
	*out = a->cur_addr + a->cur_used;
	a->cur_used += len;
	return true;
}

static bool purge_due(const struct jemalloc_churn *jc, const struct arena *a, int64_t now)
{
	return (double)(now - a->last_purge) >= (double)jc->o.decay_ns / 4;
}

/* A dirty run is decayed at now if dirty since this time or earlier. */
static uint64_t decay_cutoff(const struct jemalloc_churn *jc, int64_t now)
{
	return (uint64_t)(now - (int64_t)jc->o.decay_ns);
}

/* A leader's time on its stepped clock (struct churn_thread). */
static int64_t stepped_now(struct mm_ctx *ctx, const struct churn_thread *t)
{
	return (int64_t)mm_now(ctx) - t->coasted;
}

/* A page event of thread idx's arena: a leader's quiet starts again. */
static void page_event(struct mm_ctx *ctx, struct jemalloc_churn *jc, unsigned idx)
{
	if (idx < jc->leaders) {
		jc->threads[idx].quiet_at = stepped_now(ctx, &jc->threads[idx]);
		jc->threads[idx].dirty_age = 0;
		jc->threads[idx].quiet_objects = 0;
	}
}

/* Page level: post kind for [addr, addr + len) of leader's to its
 * followers; extent number nr for a map. */
static void mirror_post(struct mm_ctx *ctx, struct jemalloc_churn *jc, unsigned leader,
			enum churn_msg_kind kind, uint64_t addr, uint64_t len, unsigned nr)
{
	struct churn_msg m = { .kind = kind, .by = nr, .obj = { addr, len, leader } };

	if (leader >= jc->leaders || !engine_page_level(ctx))
		return;
	for (unsigned f = leader + jc->leaders; f < jc->o.nr_cpus; f += jc->leaders)
		engine_mailbox_post(ctx, jc->threads[f].mailbox, &m);
}

static void purge_range(struct mm_ctx *ctx, struct jemalloc_churn *jc, unsigned owner,
			uint64_t addr, uint64_t len)
{
	unsigned slot = 0;

	for (; jc->purging[slot].end; slot++)
		g_assert(slot + 1 < jc->o.nr_cpus);
	jc->purging[slot].addr = addr;
	jc->purging[slot].end = addr + len;
	engine_safepoint(ctx);
	int err = do_madvise(ctx, jc->o.mm, addr, len, MADV_DONTNEED);
	jc->purging[slot].end = 0;
	if (err && err != -MM_ENOMEM)
		g_error("jemalloc churn: madvise: error %d", err);
	jc->stats.purged_pages += len / PAGE_SIZE;
	page_event(ctx, jc, owner);
	mirror_post(ctx, jc, owner, MSG_MIRROR_PURGE, addr, len, 0);
}

/* The owner purges the runs dirty for the decay time or longer. */
static void arena_purge(struct mm_ctx *ctx, struct jemalloc_churn *jc, unsigned owner,
			struct arena *a, int64_t now)
{
	uint64_t cutoff = decay_cutoff(jc, now);

	for (size_t pos = order_next(&a->runs, 0, has_dirty_since, cutoff); pos != ORDER_NONE;
	     pos = order_next(&a->runs, pos + 1, has_dirty_since, cutoff)) {
		struct run *r = index_find(&a->index, a->runs.slot[pos]);

		purge_range(ctx, jc, owner, r->addr, r->end - r->addr);
		r->dirty = false;
		order_set(&a->runs, pos, summary_of(r));
	}
	a->last_purge = now;
}

/* A purge due at another thread's free: the runs leave the arena until
 * that thread has purged them. */
static void arena_purge_by(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t,
			   int64_t now, unsigned by)
{
	struct arena *a = &t->arena;

	uint64_t cutoff = decay_cutoff(jc, now);

	for (size_t pos = order_next(&a->runs, 0, has_dirty_since, cutoff); pos != ORDER_NONE;
	     pos = order_next(&a->runs, pos + 1, has_dirty_since, cutoff)) {
		struct run *r = index_find(&a->index, a->runs.slot[pos]);
		struct churn_msg m = { .kind = MSG_PURGE, .by = by,
				       .obj = { r->addr, r->end - r->addr, t->index } };

		remove_run(a, r);
		engine_mailbox_post(ctx, jc->threads[by].mailbox, &m);
		page_event(ctx, jc, t->index);
	}
	a->last_purge = now;
}

/* Free an object into its owner's arena, at the owner's time now; the
 * arena purges if a quarter of the decay time passed since its last
 * purge. */
static void release(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t,
		    struct object obj, int64_t now)
{
	struct arena *a = &t->arena;

	arena_free(a, obj.addr, obj.len, now);
	if (purge_due(jc, a, now))
		arena_purge(ctx, jc, t->index, a, now);
}

/* Touch [addr, addr + len) of t's arena, taken from a free run (dirty:
 * from a dirty one), or know its pages present: 0 or -MM_ENOMEM.  A
 * leader's touch goes to its followers at page level. */
static int churn_touch(struct mm_ctx *ctx, struct jemalloc_churn *jc, const struct churn_thread *t,
		       uint64_t addr, uint64_t len, bool dirty)
{
	struct mm_struct *mm = jc->o.mm;
	uint64_t faulted = 0;
	int err;

	engine_safepoint(ctx);
	if (dirty && !jc->pages_unknown && engine_hints(ctx) && touch_range_resident(ctx, mm))
		return 0;
	mirror_post(ctx, jc, t->index, MSG_MIRROR_TOUCH, addr, len, 0);
	err = touch_range(ctx, mm, addr, len, &faulted);
	if (err && err != -MM_ENOMEM)
		g_error("jemalloc churn: touch: error %d", err);
	jc->stats.faulted_pages += faulted;
	if (faulted || err)
		page_event(ctx, jc, t->index);
	/* Freed dirty, its pages in part absent. */
	if (err)
		jc->pages_unknown = true;
	return err;
}

/* Page level: a leader maps an extent that its followers copy. */
static void mirror_add(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	struct mirror_extent x = { t->arena.cur_addr, t->arena.cur_len, 0 };
	unsigned i = 0;

	if (t->index >= jc->leaders || !engine_page_level(ctx))
		return;
	page_event(ctx, jc, t->index);
	if (!t->mirror)
		t->mirror = g_array_new(FALSE, FALSE, sizeof(struct mirror_extent));
	x.nr = t->mirror->len;
	while (i < t->mirror->len && g_array_index(t->mirror, struct mirror_extent, i).addr < x.addr)
		i++;
	g_array_insert_val(t->mirror, i, x);
	mirror_post(ctx, jc, t->index, MSG_MIRROR_MAP, x.addr, x.len, x.nr);
}

/* A follower's copy of its leader's extent nr. */
static void mirror_map(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t,
		       const struct churn_msg *m)
{
	uint64_t addr;
	bool mapped = extent_mmap(ctx, jc->o.mm, m->obj.len, &addr);

	if (!t->own)
		t->own = g_array_new(FALSE, TRUE, sizeof(uint64_t));
	if (m->by >= t->own->len)
		g_array_set_size(t->own, m->by + 1);
	g_array_index(t->own, uint64_t, m->by) = mapped ? addr : 0;
	if (mapped)
		t->arena.extents++;
}

/* The pieces of leader l's [addr, end) that follower f has copies of, in
 * address order. */
struct mirror_iter {
	const struct churn_thread *l, *f;
	uint64_t addr, end;
};

/* The next piece, in f's address space: false when none is left. */
static bool mirror_next(struct mirror_iter *it, uint64_t *addr, uint64_t *len)
{
	const GArray *x = it->l->mirror;

	while (x && it->addr < it->end) {
		/* The first extent ending after it->addr (they do not overlap). */
		size_t lo = 0, hi = x->len;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			const struct mirror_extent *e = &g_array_index(x, struct mirror_extent, mid);

			if (e->addr + e->len <= it->addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == x->len)
			return false;
		const struct mirror_extent *e = &g_array_index(x, struct mirror_extent, lo);
		uint64_t start = MAX(it->addr, e->addr), stop = MIN(it->end, e->addr + e->len);
		uint64_t own = it->f->own && e->nr < it->f->own->len ?
			g_array_index(it->f->own, uint64_t, e->nr) : 0;

		if (start >= it->end)
			return false;
		it->addr = stop;
		if (own) {
			*addr = own + (start - e->addr);
			*len = stop - start;
			return true;
		}
	}
	return false;
}

static struct mirror_iter mirror_iter(const struct jemalloc_churn *jc, const struct churn_thread *f,
				      uint64_t addr, uint64_t len)
{
	return (struct mirror_iter){ &jc->threads[f->index % jc->leaders], f, addr, addr + len };
}

/* A follower replays its leader's touch or purge in its copies. */
static void mirror_replay(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t,
			  const struct churn_msg *m)
{
	struct mirror_iter it = mirror_iter(jc, t, m->obj.addr, m->obj.len);
	uint64_t addr, len;

	while (mirror_next(&it, &addr, &len)) {
		if (m->kind == MSG_MIRROR_PURGE)
			purge_range(ctx, jc, t->index, addr, len);
		else if (churn_touch(ctx, jc, t, addr, len, false))
			jc->stats.failed++;
	}
}

/* Act on the messages due at the thread's time. */
static void take_messages(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	struct churn_msg m;
	uint64_t due;

	while (engine_mailbox_take(ctx, t->mailbox, &m, &due)) {
		switch (m.kind) {
		case MSG_FREE:
			arena_free(&t->arena, m.obj.addr, m.obj.len, (int64_t)due);
			jc->stats.remote_frees++;
			if (purge_due(jc, &t->arena, (int64_t)due))
				arena_purge_by(ctx, jc, t, (int64_t)due, m.by);
			break;
		case MSG_PURGE:
			purge_range(ctx, jc, m.obj.arena, m.obj.addr, m.obj.len);
			m.kind = MSG_PURGED;
			engine_mailbox_post(ctx, jc->threads[m.obj.arena].mailbox, &m);
			break;
		case MSG_PURGED:
			add_run(&t->arena, m.obj.addr, m.obj.addr + m.obj.len, false, 0);
			break;
		case MSG_MIRROR_MAP:
			mirror_map(ctx, jc, t, &m);
			break;
		case MSG_MIRROR_TOUCH:
		case MSG_MIRROR_PURGE:
			mirror_replay(ctx, jc, t, &m);
			break;
		}
	}
}

static uint64_t pick_size(struct jemalloc_churn *jc)
{
	double x = rng_double(jc->o.rng) * jc->total_weight;

	for (unsigned i = 0; i < jc->o.nr_sizes; i++) {
		x -= jc->sizes[i].weight;
		if (x <= 0)
			return jc->sizes[i].bytes;
	}
	return jc->sizes[jc->o.nr_sizes - 1].bytes;
}

/* The churn's own purges leave the dirty runs as they were; anything
 * else may not. */
static void churn_invalidate(struct mmu_notifier *sub, uint64_t start, uint64_t end)
{
	struct jemalloc_churn *jc = (void *)((char *)sub - offsetof(struct jemalloc_churn, notifier));

	for (unsigned i = 0; i < jc->o.nr_cpus; i++)
		if (jc->purging[i].end && start >= jc->purging[i].addr && end <= jc->purging[i].end)
			return;
	jc->pages_unknown = true;
}

/* Page level ends for follower t: its arena takes on a copy of its
 * leader's, in the copies of the extents it replayed (after what was its
 * own; the objects and runs in the leader's mailboxes at that time are
 * not copied).  Its pages were touched and purged as the leader's, late
 * by up to the mailboxes' latency: the churn touches every page from then
 * on. */
static void follow_end(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	const struct churn_thread *l = &jc->threads[t->index % jc->leaders];
	const struct arena *la = &l->arena;
	/* A leader still coasting: its times as they will be when it stops. */
	int64_t d = l->coast_until ? (int64_t)mm_now(ctx) - l->coast_from : 0;
	struct mirror_iter it;
	uint64_t addr, len;

	t->following = false;
	jc->pages_unknown = true;
	for (size_t pos = 0; pos < la->runs.end; pos++) {
		const struct run *r = la->runs.slot[pos] ? index_find(&la->index, la->runs.slot[pos]) :
			NULL;

		for (it = mirror_iter(jc, t, r ? r->addr : 0, r ? r->end - r->addr : 0);
		     mirror_next(&it, &addr, &len);)
			add_run(&t->arena, addr, addr + len, r->dirty, r->dirty ? r->since + d : 0);
	}
	for (size_t i = 0; i < l->mine.len; i++) {
		const struct object *obj = &l->mine.buf[(l->mine.head + i) % l->mine.cap];

		for (it = mirror_iter(jc, t, obj->addr, obj->len); mirror_next(&it, &addr, &len);) {
			fifo_push(&t->mine, (struct object){ addr, len, t->index });
			t->held += len;
		}
	}
	t->arena.cur_len = 0;
	it = mirror_iter(jc, t, la->cur_addr, la->cur_len);
	if (la->cur_len && mirror_next(&it, &addr, &len) && len == la->cur_len) {
		t->arena.cur_addr = addr;
		t->arena.cur_len = len;
		t->arena.cur_used = la->cur_used;
	}
	t->arena.grow = MAX(t->arena.grow, la->grow);
	t->arena.last_purge = la->last_purge + d;
}

/* The threads a leader's objects stand for at page level, itself included. */
static unsigned stands_for(struct mm_ctx *ctx, const struct jemalloc_churn *jc,
			   const struct churn_thread *t)
{
	if (!engine_page_level(ctx))
		return 1;
	return 1 + (jc->o.nr_cpus - 1 - t->index) / jc->leaders;
}

/* The arena's times move on by d: as if it had not aged meanwhile. */
static void arena_shift(struct arena *a, int64_t d)
{
	struct run_order *o = &a->runs;

	for (size_t pos = 0; pos < o->end; pos++) {
		struct run *r = o->slot[pos] ? index_find(&a->index, o->slot[pos]) : NULL;

		if (r && r->dirty) {
			r->since += d;
			o->node[order_leaf(o, pos)] = summary_of(r);
		}
	}
	for (size_t i = order_leaf(o, 0); i--;)
		o->node[i] = children_join(o, i);
	a->last_purge += d;
}

/* A leader whose arena is steady (coast_ratio) and has no message coming
 * (which would be taken late) coasts: its objects are counted at the rate
 * it stepped them. */
static void coast_start(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	int64_t now = stepped_now(ctx, t), decay = (int64_t)MAX(jc->o.decay_ns, engine_ff_horizon(ctx));
	int64_t oldest = t->arena.runs.node[0].dirty_since, stepped = now - t->stepped_at;
	int64_t quiet = now - t->quiet_at;

	if (oldest != INT64_MAX)
		t->dirty_age = MAX(t->dirty_age, (int64_t)mm_now(ctx) - oldest);
	if (!jc->o.coast_ratio || stepped < decay || quiet < decay || 2 * t->dirty_age >= decay ||
	    4 * t->dirty_age > quiet || engine_mailbox_len(t->mailbox))
		return;
	t->coast_from = (int64_t)mm_now(ctx);
	t->coast_until = t->coast_from + (int64_t)jc->o.coast_ratio * stepped;
	t->objects_per_ns = (double)t->quiet_objects / (double)MIN(quiet, stepped);
}

/* The coast is over: the arena's times move on by its length. */
static void coast_end(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	int64_t d = (int64_t)mm_now(ctx) - t->coast_from;

	arena_shift(&t->arena, d);
	jc->stats.coasted_ns += (uint64_t)d;
	t->coasted += d;
	t->coast_until = 0;
	t->stepped_at = stepped_now(ctx, t);
	t->quiet_objects = 0;
}

/* Coast for up to fast-forward's horizon; false once the coast is over. */
static bool coast(struct mm_ctx *ctx, struct jemalloc_churn *jc, struct churn_thread *t)
{
	int64_t now = (int64_t)mm_now(ctx), until = MIN(t->coast_until, (int64_t)jc->o.until_ns);

	if (engine_page_level(ctx) && now < until) {
		uint64_t step = MIN(engine_ff_horizon(ctx), (uint64_t)(until - now));
		uint64_t n;

		engine_work(ctx, step);
		t->coast_objects += t->objects_per_ns * (double)step;
		n = (uint64_t)t->coast_objects;
		t->coast_objects -= (double)n;
		n *= stands_for(ctx, jc, t);
		jc->stats.objects += n;
		if (jc->o.report)
			report_count_objects(jc->o.report, n);
		return true;
	}
	coast_end(ctx, jc, t);
	return false;
}

static void churn_thread(struct mm_ctx *ctx, void *arg)
{
	struct churn_thread *t = arg;
	struct jemalloc_churn *jc = (struct jemalloc_churn *)t->base.w;
	const struct jemalloc_churn_opts *o = &jc->o;
	struct mm_struct *mm = o->mm;

	if (!jc->running++)
		mmu_notifier_register(mm, &jc->notifier);
	while (mm_now(ctx) < o->until_ns) {
		/* Each page-level run mirrors the extents mapped in it only:
		 * the earlier copies are the followers' own by then. */
		if (t->index >= jc->leaders && engine_page_level(ctx)) {
			/* A follower: its leader's page events, its own objects set aside. */
			if (!t->following && t->own)
				g_array_set_size(t->own, 0);
			t->following = true;
			take_messages(ctx, jc, t);
			engine_work(ctx, MIN(engine_ff_horizon(ctx), o->until_ns - mm_now(ctx)));
			continue;
		}
		if (t->coast_until && coast(ctx, jc, t))
			continue;
		if (!t->leading && engine_page_level(ctx)) {
			if (t->mirror)
				g_array_set_size(t->mirror, 0);
			t->quiet_at = t->stepped_at = stepped_now(ctx, t);
			t->dirty_age = 0;
			t->quiet_objects = 0;
		}
		t->leading = engine_page_level(ctx);
		take_messages(ctx, jc, t);
		if (t->following)
			follow_end(ctx, jc, t);
		uint64_t len = pick_size(jc), addr = 0, extents = t->arena.extents;
		bool dirty, mapped = arena_alloc(ctx, mm, &t->arena, len, &addr, &dirty);
		int err = -MM_ENOMEM;

		if (t->arena.extents != extents)
			mirror_add(ctx, jc, t);
		if (mapped)
			err = churn_touch(ctx, jc, t, addr, len, dirty);
		take_messages(ctx, jc, t);
		if (err) {
			jc->stats.failed++;
			page_event(ctx, jc, t->index);
			if (mapped)
				arena_free(&t->arena, addr, len, (int64_t)mm_now(ctx));
		} else {
			struct object obj = { .addr = addr, .len = len, .arena = t->index };
			unsigned n = stands_for(ctx, jc, t);

			jc->stats.objects += n;
			t->quiet_objects++;
			if (o->report)
				report_count_objects(o->report, n);
			if (o->nr_cpus > 1 && rng_double(o->rng) < o->remote_share) {
				/* Another thread, uniformly: 1 to n - 1 past this one's. */
				unsigned j = (unsigned)rng_range(o->rng, o->nr_cpus - 1);
				struct churn_msg m = { .kind = MSG_FREE, .obj = obj };

				m.by = j >= t->index + 1 ? j : j - 1;
				engine_mailbox_post(ctx, t->mailbox, &m);
			} else {
				fifo_push(&t->mine, obj);
				t->held += len;
			}
		}
		while (t->held > o->live_bytes) {
			struct object old = fifo_pop(&t->mine);

			t->held -= old.len;
			release(ctx, jc, t, old, (int64_t)mm_now(ctx));
		}
		engine_work(ctx, (uint64_t)((double)o->work_ns * (0.5 + rng_double(o->rng))));
		if (t->leading)
			coast_start(ctx, jc, t);
	}
	if (t->coast_until)
		coast_end(ctx, jc, t);
	jc->stats.extents += t->arena.extents;
	jc->stats.rss_pages = mm_rss(mm);
	/* No notifier between runs of threads: nothing known after. */
	if (!--jc->running) {
		mmu_notifier_unregister(mm, &jc->notifier);
		jc->pages_unknown = true;
	}
}

static void churn_destroy(struct workload *w)
{
	struct jemalloc_churn *jc = (struct jemalloc_churn *)w;

	for (unsigned i = 0; i < jc->o.nr_cpus; i++) {
		if (jc->threads[i].mirror)
			g_array_free(jc->threads[i].mirror, TRUE);
		if (jc->threads[i].own)
			g_array_free(jc->threads[i].own, TRUE);
		arena_destroy(&jc->threads[i].arena);
		g_free(jc->threads[i].mine.buf);
		engine_mailbox_free(jc->threads[i].mailbox);
	}
	g_free(jc->threads);
	g_free(jc->purging);
	g_free(jc->sizes);
	g_free(jc);
}

struct jemalloc_churn *jemalloc_churn_start(struct engine *e, const struct jemalloc_churn_opts *o,
					    char **err)
{
	struct jemalloc_churn *jc = g_new0(struct jemalloc_churn, 1);

	g_assert(o->nr_cpus >= 1 && o->nr_sizes >= 1);
	/* Nothing its threads share goes around the mailboxes, but the random
	 * generator, whose draws are alike whatever their order. */
	workload_init(&jc->base, ENGINE_SHARES_NOTHING, churn_destroy, o->release, o->release_arg);
	jc->base.mm = o->mm;
	jc->o = *o;
	jc->sizes = g_memdup2(o->sizes, o->nr_sizes * sizeof(*o->sizes));
	jc->o.sizes = jc->sizes;
	jc->o.cpus = NULL;
	for (unsigned i = 0; i < o->nr_sizes; i++)
		jc->total_weight += o->sizes[i].weight;
	jc->leaders = o->page_leaders ? o->page_leaders :
		(o->nr_cpus + JEMALLOC_PAGE_FOLLOWERS - 1) / JEMALLOC_PAGE_FOLLOWERS;
	jc->threads = g_new0(struct churn_thread, o->nr_cpus);
	jc->purging = g_new0(struct purge_slot, o->nr_cpus);
	jc->notifier.invalidate_range_start = churn_invalidate;
	for (unsigned i = 0; i < o->nr_cpus; i++) {
		struct churn_thread *t = &jc->threads[i];

		t->index = i;
		arena_init(&t->arena);
		t->mailbox = engine_mailbox_new(sizeof(struct churn_msg), HANDOVER_NS);
	}
	return workload_spawn(e, &jc->base, o->cpus, o->nr_cpus, "jemalloc", churn_thread,
			    jc->threads, sizeof(*jc->threads), err) ? jc : NULL;
}

const struct jemalloc_churn_stats *jemalloc_churn_stats(const struct jemalloc_churn *jc)
{
	return &jc->stats;
}

void jemalloc_churn_put(struct jemalloc_churn *jc)
{
	workload_put(&jc->base);
}
