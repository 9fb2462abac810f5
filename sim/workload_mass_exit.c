/* Mass exit in C (workload_mass_exit.h). */
#include "sim/workload_mass_exit.h"

#include "models/machine.h"
#include "models/mm_space.h"
#include "sim/workload.h"

#include <glib.h>
#include <stdlib.h>

/* Waiting processes look for the exit time this often. */
#define POLL_NS 10000

struct exit_task {
	struct workload_thread t;       /* first */
	unsigned i;                     /* the process's index in the options' cpus */
};

/* What the exit phase is measured against. */
struct exit_snapshot {
	struct lock_stats zone;
	unsigned long pcp_pages;
	unsigned long freed_to_buddy;
};

struct mass_exit {
	struct workload base;           /* first: the threads' workload is mass_exit */
	struct mass_exit_opts o;
	struct engine *e;
	struct exit_task *tasks;
	unsigned ready, exited;
	bool exit_phase;                /* the first process to wake opened it */
	struct exit_snapshot before;
	double exit_waited;             /* the processes' own zone->lock waits in their exits */
	struct mass_exit_stats stats;
};

static void snapshot(struct mass_exit *me, struct exit_snapshot *s)
{
	engine_class_stats(me->e, LOCK_CLASS_ZONE, &s->zone);
	s->pcp_pages = machine_pcp_pages(me->o.m);
	s->freed_to_buddy = me->o.m->vm_events[PGFREE_TO_BUDDY];
}

static void phase(struct mass_exit *me, const char *name, uint64_t at_ns)
{
	if (me->o.phase)
		me->o.phase(me->o.phase_arg, name, at_ns);
}

/* cpu's pagesets now. */
static struct mass_exit_pageset *pagesets(struct mass_exit *me, unsigned cpu)
{
	struct mass_exit_pageset *ps = g_new(struct mass_exit_pageset, me->stats.nr_pagesets);
	unsigned n = 0;

	for_each_populated_zone(me->o.m, z)
		ps[n++] = (struct mass_exit_pageset){ .zone = z, .pcp = *zone_pcp(z, cpu) };
	return ps;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exit's figures, when the last process has exited. */
static void exit_done(struct mass_exit *me)
{
	struct mass_exit_stats *s = &me->stats;
	unsigned n = me->o.nr_cpus;
	uint64_t *sorted = g_memdup2(s->exit_ns, n * sizeof(*sorted));
	struct exit_snapshot after;

	snapshot(me, &after);
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	s->slowest_ns = sorted[n - 1];
	s->median_ns = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	g_free(sorted);
	for (unsigned i = 0; i < n; i++)
		s->exit_time_ns += s->exit_ns[i];
	s->zone_lock = (struct mass_exit_zone_lock){
		.acquisitions = after.zone.hold.nr - me->before.zone.hold.nr,
		.contentions = after.zone.wait.nr - me->before.zone.wait.nr,
		.wait_ns_total = after.zone.wait.total - me->before.zone.wait.total,
		.hold_ns_total = after.zone.hold.total - me->before.zone.hold.total,
		.waited_ns = me->exit_waited,
	};
	s->pages_freed = s->pages_touched + s->pgtable_pages;
	s->pages_to_buddy = after.freed_to_buddy - me->before.freed_to_buddy;
	s->pages_kept_on_pcp = (int64_t)after.pcp_pages - (int64_t)me->before.pcp_pages;
	s->done = true;
}

static void process(struct mm_ctx *ctx, void *arg)
{
	struct exit_task *t = arg;
	struct mass_exit *me = (struct mass_exit *)t->t.w;
	struct mass_exit_stats *s = &me->stats;
	const struct mass_exit_opts *o = &me->o;
	struct mm_struct *mm;
	uint64_t addr, faulted = 0;
	double waited;
	int err = 0;

	engine_safepoint(ctx);
	mm = mm_alloc(ctx, o->m);
	if (mm) {
		engine_safepoint(ctx);
		addr = vm_mmap(ctx, mm, o->bytes, PROT_READ | PROT_WRITE, &err);
		if (!err) {
			engine_safepoint(ctx);
			err = touch_range(ctx, mm, addr, o->bytes, &faulted);
		}
		s->pgtable_pages += mm_pgtable_pages(mm);
	}
	if (!mm || err)
		s->failed++;
	s->pages_touched += faulted;
	s->pagesets_touched[t->i] = pagesets(me, ctx->cpu);
	/* The last process to finish touching picks the common exit time,
	 * late enough for the others to notice it. */
	if (++me->ready == o->nr_cpus) {
		s->touch_end_ns = mm_now(ctx);
		s->exit_start_ns = s->touch_end_ns + MAX(o->live_ns, POLL_NS);
		s->touched = true;
		phase(me, "live", s->touch_end_ns);
	}
	while (!s->touched)
		engine_sleep(ctx, POLL_NS);
	engine_sleep(ctx, s->exit_start_ns > mm_now(ctx) ? s->exit_start_ns - mm_now(ctx) : 0);
	s->pagesets_before_exit[t->i] = pagesets(me, ctx->cpu);
	/* The first process to wake opens the exit phase, before any of them
	 * frees a page. */
	if (!me->exit_phase) {
		me->exit_phase = true;
		snapshot(me, &me->before);
		phase(me, "exit", mm_now(ctx));
	}
	waited = engine_thread_waited_ns(ctx, LOCK_CLASS_ZONE);
	if (mm) {
		engine_safepoint(ctx);
		exit_mmap(ctx, mm);
	}
	me->exit_waited += engine_thread_waited_ns(ctx, LOCK_CLASS_ZONE) - waited;
	s->exit_ns[t->i] = mm_now(ctx) - s->exit_start_ns;
	s->exited[t->i] = true;
	s->exit_end_ns = MAX(s->exit_end_ns, mm_now(ctx));
	if (++me->exited == o->nr_cpus) {
		phase(me, NULL, mm_now(ctx));
		exit_done(me);
	}
}

static void me_destroy(struct workload *w)
{
	struct mass_exit *me = (struct mass_exit *)w;

	for (unsigned i = 0; i < me->o.nr_cpus; i++) {
		g_free(me->stats.pagesets_touched[i]);
		g_free(me->stats.pagesets_before_exit[i]);
	}
	g_free(me->stats.pagesets_touched);
	g_free(me->stats.pagesets_before_exit);
	g_free(me->stats.exit_ns);
	g_free(me->stats.exited);
	g_free(me->tasks);
	g_free(me);
}

struct mass_exit *mass_exit_start(struct engine *e, const struct mass_exit_opts *o, char **err)
{
	struct mass_exit *me = g_new0(struct mass_exit, 1);
	unsigned n = o->nr_cpus;

	g_assert(n >= 1 && o->bytes > 0);
	workload_init(&me->base, ENGINE_SHARES_STATE, me_destroy, o->release, o->release_arg);
	me->o = *o;
	me->o.cpus = NULL;
	me->e = e;
	me->stats.live_ns = o->live_ns;
	for_each_populated_zone(o->m, z)
		me->stats.nr_pagesets++;
	me->stats.exit_ns = g_new0(uint64_t, n);
	me->stats.exited = g_new0(bool, n);
	me->stats.pagesets_touched = g_new0(struct mass_exit_pageset *, n);
	me->stats.pagesets_before_exit = g_new0(struct mass_exit_pageset *, n);
	me->tasks = g_new0(struct exit_task, n);
	for (unsigned i = 0; i < n; i++)
		me->tasks[i].i = i;
	return workload_spawn(e, &me->base, o->cpus, n, "exit", process, me->tasks,
			      sizeof(*me->tasks), err) ? me : NULL;
}

const struct mass_exit_stats *mass_exit_stats(const struct mass_exit *me)
{
	return &me->stats;
}

unsigned mass_exit_processes(const struct mass_exit *me)
{
	return me->o.nr_cpus;
}

void mass_exit_put(struct mass_exit *me)
{
	workload_put(&me->base);
}
