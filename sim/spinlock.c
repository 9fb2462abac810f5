/* The model's spinlocks in simulated time.
 *
 * A lock's state lives here in C, not in a SimGrid mutex: every SimGrid
 * call lets the other ready actors run before it returns, so a lock taken
 * without SimGrid and then registered with SimGrid would be seen free by
 * them in between.  Taking a free lock therefore needs no SimGrid call; a
 * thread that finds the lock held settles its debt, queues FIFO (as
 * qspinlock does) and blocks on its own semaphore; the holder's unlock
 * settles its debt (so the section lasts its simulated time), then hands
 * the lock to the first waiter and wakes it.  Private locks and
 * fast-forward: engine.h. */
#include "engine_impl.h"

#include <simgrid/actor.h>

static struct lock_impl *lock_impl_get(struct engine *e, struct spinlock *l)
{
	struct lock_impl *li = l->impl;

	if (G_LIKELY(li))
		return li;
	li = g_new0(struct lock_impl, 1);
	li->e = e;
	li->slot = e->locks->len;
	li->cls = (enum lock_class_id)l->class_id;
	li->index = e->nr_locks[li->cls]++;
	li->last_cpu = -1;
	g_ptr_array_add(e->locks, li);
	l->impl = li;
	return li;
}

/* spin_lock_destroy's: its figures are in its class's already.  A run of
 * a day made 72,000 processes an hour, nine locks each. */
void engine_lock_release(struct spinlock *l)
{
	struct lock_impl *li = l->impl, *last;
	GPtrArray *locks = li->e->locks;

	g_assert(!li->holder && !li->first_waiter);
	last = g_ptr_array_index(locks, locks->len - 1);
	last->slot = li->slot;
	g_ptr_array_index(locks, li->slot) = last;
	g_ptr_array_set_size(locks, locks->len - 1);
	g_free(li);
}

char *lock_impl_describe(const struct lock_impl *li)
{
	return g_strdup_printf("%s[%u]", lock_class_name(li->cls), li->index);
}

/* A lock's figure and its class's sum, rounded once.  The class's
 * figures cover its locks', so only a new minimum or maximum of the lock
 * can be one of the class. */
static inline void lock_times_add(struct lock_time *lt, struct lock_time *cls, double ns)
{
	uint64_t v = (uint64_t)(ns + 0.5);

	if (G_UNLIKELY(!lt->nr || v < lt->min)) {
		lt->min = v;
		if (!cls->nr || v < cls->min)
			cls->min = v;
	}
	if (G_UNLIKELY(v > lt->max)) {
		lt->max = v;
		if (v > cls->max)
			cls->max = v;
	}
	lt->total += v;
	lt->nr++;
	cls->total += v;
	cls->nr++;
}

/* A free lock that t took last and no other thread ever took (a
 * single-threaded process's mmap and PTE locks), or a CPU's pageset lock
 * that t took last: t takes it again without settling.  Pagesets even
 * when shared: other CPUs take them rarely (drains, frees to a remote
 * pageset), while zone, PTE and mmap locks once shared pass between
 * threads often even when one thread took them last. */
static inline bool lock_private(const struct sim_thread *t, const struct spinlock *l,
			 const struct lock_impl *li)
{
	return li->last_thread == t && l->owner == -1 &&
	       (li->cls == LOCK_CLASS_PCP || !li->shared);
}

/* The lock becomes t's once its lock word's cache line has arrived. */
static inline void take(struct sim_thread *t, struct spinlock *l, struct lock_impl *li)
{
	const struct engine *e = t->e;
	unsigned cpu = t->ctx.cpu;
	bool priv = lock_private(t, l, li);
	bool sleeps = lock_class_sleeps(li->cls);
	double debt = t->debt + cacheline_ns(e, l->cl.last_cpu, cpu);

	t->debt = debt;
	l->cl.last_cpu = (int32_t)cpu;
	l->owner = (int32_t)cpu;
	li->holder = t;
	li->acquired_at = t->clock + debt;
	li->private_take = priv;
	li->ahead = priv && debt >= e->quantum && e->quantum;
	if (li->last_thread != t) {
		li->shared |= li->last_thread != NULL;
		li->last_thread = t;
	}
	t->nr_private_held += priv;
	if (sleeps)
		t->nr_sleeping_held++;
	else
		t->nr_held++;
	/* thread_limit_update's answer when all t holds is private and this
	 * is a spinlock: no settle, no preemption while it is held (but at
	 * quantum 0, which settles everything at once). */
	if (priv && !sleeps && e->timing && e->quantum && t->local &&
	    t->nr_held + t->nr_sleeping_held == t->nr_private_held)
		t->limit = INFINITY;
	else
		thread_limit_update(t);
}

/* lock_acquired() in lockdep: only lock() acquisitions move the lock's
 * "previous acquirer", as in the kernel (trylock does not call it). */
static void note_acquirer(struct sim_thread *t, struct lock_impl *li, enum lock_site site)
{
	unsigned cpu = t->ctx.cpu;

	if (li->last_cpu >= 0 && li->last_cpu != (int32_t)cpu) {
		li->st.acq_bounces++;
		t->e->class_st[li->cls].acq_bounces++;
	}
	li->last_cpu = (int32_t)cpu;
	li->last_site = site;
}

/* Contention statistics, when a lock() finds the lock taken. */
static void note_contention(struct sim_thread *t, struct lock_impl *li, enum lock_site site)
{
	struct lock_stats *cls = &t->e->class_st[li->cls];

	if (li->last_cpu >= 0) {
		if (li->last_cpu != (int32_t)t->ctx.cpu) {
			li->st.con_bounces++;
			cls->con_bounces++;
		}
		li->st.contending_point[li->last_site]++;
		cls->contending_point[li->last_site]++;
	}
	li->st.contention_point[site]++;
	cls->contention_point[site]++;
}

/* lock_stat's figures take the wait whole now that it has ended; the
 * shares' take it unrounded, each part in the span it lies in
 * (engine_thread_time), and only a workload thread's. */
static void note_wait(struct sim_thread *t, struct lock_impl *li, double requested)
{
	struct engine *e = t->e;
	double wait = li->acquired_at - requested;

	lock_times_add(&li->st.wait, &e->class_st[li->cls].wait, wait);
	e->cpu_wait[li->cls * e->nr_cpus + t->ctx.cpu] += (uint64_t)(wait + 0.5);
	t->waiting_for = NULL;
	t->wait_end = li->acquired_at;
	t->waited[li->cls] += wait;
	if (!t->daemon) {
		li->waited += wait;
		e->waited[li->cls] += wait;
	}
}

/* The lock is held at t's settled time: wait for it in FIFO order. */
static G_GNUC_NO_INLINE void lock_wait(struct sim_thread *t, struct spinlock *l, struct lock_impl *li,
		      enum lock_site site)
{
	double requested = t->clock;

	note_contention(t, li, site);
	t->blocked_on = li;
	t->waiting_for = li;
	t->blocked_since = requested;
	t->next_waiter = NULL;
	if (li->last_waiter)
		li->last_waiter->next_waiter = t;
	else
		li->first_waiter = t;
	li->last_waiter = t;
	/* A sleeping lock's waiter leaves its CPU to others; a spinlock's
	 * spins on it. */
	if (lock_class_sleeps(li->cls))
		cpu_release(t);
	thread_yield_begin(t);
	t->wake_at = INFINITY;
	sg_sem_acquire(t->wake);
	thread_yield_end(t);

	/* engine_unlock made t the holder and dequeued it. */
	take(t, l, li);
	if (lock_class_sleeps(li->cls))
		cpu_acquire(t);
	note_acquirer(t, li, site);
	note_wait(t, li, requested);
}

/* A lock free at the SimGrid clock is free at time now too: its last
 * holder may have run ahead of the clock and released it later in its own
 * time, unless it took it as private a quantum or more ahead and now is
 * before that (the asker would have come first), or in fast-forward. */
static inline bool free_at_time(const struct engine *e, const struct lock_impl *li, double now)
{
	return !e->timing || now >= li->free_at || (li->ahead && now < li->acquired_at);
}


/* t settles before asking for l: in timed mode, a quantum or more ahead,
 * for a lock not private (quantum 0 is exact: always). */
static inline bool settle_first(const struct sim_thread *t, const struct spinlock *l,
			 const struct lock_impl *li)
{
	const struct engine *e = t->e;

	return e->timing && t->debt >= e->quantum && (!e->quantum || !lock_private(t, l, li));
}

/* Take a lock free at the SimGrid clock.  If it is not free yet at t's
 * own time, t waits until then without yielding, as it would have spun. */
static void take_free_lock(struct sim_thread *t, struct spinlock *l, struct lock_impl *li,
		      enum lock_site site)
{
	double now = t->clock + t->debt;

	if (free_at_time(t->e, li, now)) {
		take(t, l, li);
		note_acquirer(t, li, site);
		return;
	}
	note_contention(t, li, site);
	t->debt += li->free_at - now;
	take(t, l, li);
	note_acquirer(t, li, site);
	note_wait(t, li, now);
}

void engine_lock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	struct sim_thread *t = ctx_thread(ctx);
	struct lock_impl *li = lock_impl_get(t->e, l);

	if (G_UNLIKELY(li->holder == t))
		g_error("CPU %u (thread %s) takes %s, which it already holds: deadlock",
			ctx->cpu, t->name, lock_class_name(li->cls));
	if (settle_first(t, l, li))
		thread_settle(t);
	if (l->owner != -1) {
		/* Decide at t's own simulated time: the holder may be done by then. */
		thread_settle(t);
		if (l->owner != -1) {
			lock_wait(t, l, li, site);
			return;
		}
	}
	take_free_lock(t, l, li, site);
}

bool engine_trylock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	struct sim_thread *t = ctx_thread(ctx);
	struct lock_impl *li = lock_impl_get(t->e, l);

	/* lock_stat records no call site for trylocks. */
	(void)site;
	/* As spin_trylock on a lock this context holds: it just fails. */
	if (li->holder == t)
		return false;
	if (settle_first(t, l, li))
		thread_settle(t);
	if (l->owner != -1 || !free_at_time(t->e, li, t->clock + t->debt)) {
		thread_settle(t);
		/* Still held at t's time, even if released ahead of the clock. */
		if (l->owner != -1 || !free_at_time(t->e, li, t->clock))
			return false;
	}
	take(t, l, li);
	return true;
}

static G_GNUC_NORETURN G_GNUC_NO_INLINE void unlock_misuse(const struct sim_thread *t,
							    const struct lock_impl *li)
{
	if (!li || !li->holder)
		g_error("CPU %u (thread %s) releases a %s nobody holds", t->ctx.cpu, t->name,
			li ? lock_class_name(li->cls) : "spinlock");
	g_error("CPU %u (thread %s) releases %s held by CPU %u (thread %s)", t->ctx.cpu,
		t->name, lock_class_name(li->cls), li->holder->ctx.cpu, li->holder->name);
}

void engine_unlock(struct mm_ctx *ctx, struct spinlock *l)
{
	struct sim_thread *t = ctx_thread(ctx);
	struct lock_impl *li = l->impl;
	struct sim_thread *next;

	if (G_UNLIKELY(!li || li->holder != t || l->owner != (int32_t)ctx->cpu))
		unlock_misuse(t, li);
	/* A waiter gets the lock when the section's simulated time is over. */
	if (li->first_waiter ||
	    (t->e->timing && t->debt >= t->e->quantum && (!t->e->quantum || !li->private_take)))
		thread_settle(t);
	lock_times_add(&li->st.hold, &t->e->class_st[li->cls].hold,
		       t->clock + t->debt - li->acquired_at);
	if (G_UNLIKELY(t->spb_section))
		engine_spb_section_end(t);
	t->nr_private_held -= li->private_take;
	if (lock_class_sleeps(li->cls))
		t->nr_sleeping_held--;
	else
		t->nr_held--;
	thread_limit_update(t);

	li->free_at = t->clock + t->debt;
	next = li->first_waiter;
	if (!next) {
		li->holder = NULL;
		l->owner = -1;
		return;
	}
	li->first_waiter = next->next_waiter;
	if (!li->first_waiter)
		li->last_waiter = NULL;
	next->blocked_on = NULL;
	li->holder = next;
	l->owner = LOCK_HANDOFF;
	next->wake_at = -INFINITY;
	thread_yield_begin(t);
	sg_sem_release(next->wake);
	thread_yield_end(t);
}
