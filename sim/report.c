/* The report of a run: see report.h. */
#include "sim/report.h"

#include "models/gbyield.h"
#include "models/machine.h"
#include "models/mmzone.h"
#include "models/page_owner.h"
#include "models/procfs.h"
#include "models/slub.h"
#include "models/superpageblock.h"
#include "sim/lockstat.h"
#include "sim/plots.h"
#include "sim/tee.h"
#include "mmsim-version.h"
#include "sim/spb_walk.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* One lock class at a sample: lock_stat's figures (each wait and hold
 * whole when it ended), and for the share the workload threads' waits
 * up to the sample (engine_thread_time: each wait's part in a span
 * counts in that span). */
struct lock_sample {
	struct lock_stats st;
	double waited;
	double wait_share;          /* waited over the threads' time */
};

/* One node's figures at a sample: its zones' zone->lock figures summed,
 * its NUMA events. */
struct node_sample {
	struct lock_time wait, hold;
	double waited;              /* as lock_sample's */
	double interval_share;      /* its wait share since the last row */
	unsigned long numa[NR_VM_NUMA_EVENT_ITEMS];
	unsigned long used;         /* managed pages not free */
};

/* What the figures read, gathered once per sample. */
struct run_sample {
	uint64_t now;               /* simulated ns; 0 without an engine */
	double wall_s;
	double thread_time;         /* engine_thread_time */
	double interval_share;      /* zone->lock wait share since the last row */
	struct lock_sample lock[NR_LOCK_CLASSES];
	/* NUMA balancing's moves so far. */
	unsigned long numa_pages_migrated;
	unsigned long managed_pages, free_pages, pcp_pages, gigantic;
	struct gb_yield y;
	struct spb_counts spb;
	struct gb_attempt attempt;  /* the end-of-run 1 GiB attempt, if made */
	/* Under policy spb (policy_spb set), the superpageblocks read per
	 * zone->lock section. */
	bool policy_spb;
	struct spb_walk_totals spb_walk;
	unsigned nr_nodes;          /* 0 without a machine */
	struct node_sample node[MAX_NUMNODES];
	/* Throughput: page faults, the workload's objects (report_count_objects),
	 * and the simulated time of __alloc_pages calls. */
	uint64_t faults, objects;
	struct log_hist alloc_latency;
};

/* What a figure needs to exist: a summary without a machine or without
 * an engine leaves out the figures they would give. */
enum figure_needs { NEEDS_RUN, NEEDS_MACHINE, NEEDS_ENGINE, NEEDS_ATTEMPT };

/* What a figure covers in a measurement window (a phase): a counter's
 * delta or a share over the window (SPAN_WINDOW), the state at the
 * window's end (SPAN_NOW), or only the whole run (SPAN_RUN: times since
 * the start, and maxima, which cannot be taken apart). */
enum figure_span { SPAN_RUN, SPAN_WINDOW, SPAN_NOW };

/* One figure of a run: its timeseries.csv column and its summary key
 * (NULL where it is not in that file), read by get from the sample, for
 * a lock figure by lock from the sample of class cls, or for a figure of
 * each node by node from each node's sample (column and key then hold a
 * %u for the node). */
struct figure {
	const char *column;
	const char *key;
	enum figure_needs needs;
	enum figure_span span;
	bool count;                 /* an integer in the summary */
	double (*get)(const struct run_sample *s);
	double (*lock)(const struct lock_sample *l);
	double (*node)(const struct run_sample *s, const struct node_sample *n);
	enum lock_class_id cls;
};

static double time_ms(const struct run_sample *s) { return (double)s->now / 1e6; }
static double sim_time_s(const struct run_sample *s) { return (double)s->now / 1e9; }
static double wall_time_s(const struct run_sample *s) { return s->wall_s; }
static double interval_share(const struct run_sample *s) { return s->interval_share; }
static double managed_pages(const struct run_sample *s) { return (double)s->managed_pages; }
static double free_pages(const struct run_sample *s) { return (double)s->free_pages; }
static double pcp_pages(const struct run_sample *s) { return (double)s->pcp_pages; }
static double numa_migrated(const struct run_sample *s) { return (double)s->numa_pages_migrated; }
static double gb_free_now(const struct run_sample *s) { return (double)s->y.free_now; }
static double gb_movable_only(const struct run_sample *s) { return (double)s->y.movable_only; }
static double gb_total_regions(const struct run_sample *s) { return (double)s->y.total_regions; }
static double gb_possible(const struct run_sample *s) { return (double)s->y.possible; }
static double spb_empty(const struct run_sample *s) { return (double)s->spb.empty; }
static double spb_clean(const struct run_sample *s) { return (double)s->spb.clean; }
static double spb_tainted(const struct run_sample *s) { return (double)s->spb.tainted; }
static double gigantic_pages(const struct run_sample *s) { return (double)s->gigantic; }
static double gb_obtained(const struct run_sample *s) { return (double)s->attempt.obtained; }
static double gb_obtain_migrated(const struct run_sample *s)
{
	return (double)s->attempt.pages_migrated;
}
static double gb_obtain_time_s(const struct run_sample *s) { return (double)s->attempt.time_ns / 1e9; }
static double acquisitions(const struct lock_sample *l) { return (double)l->st.hold.nr; }
static double contentions(const struct lock_sample *l) { return (double)l->st.wait.nr; }
static double con_bounces(const struct lock_sample *l) { return (double)l->st.con_bounces; }
static double acq_bounces(const struct lock_sample *l) { return (double)l->st.acq_bounces; }
static double wait_total(const struct lock_sample *l) { return (double)l->st.wait.total; }
static double wait_max(const struct lock_sample *l) { return (double)l->st.wait.max; }
static double hold_total(const struct lock_sample *l) { return (double)l->st.hold.total; }
static double hold_max(const struct lock_sample *l) { return (double)l->st.hold.max; }
static double wait_share(const struct lock_sample *l) { return l->wait_share; }
static double node_acquisitions(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, (double)n->hold.nr;
}
static double node_contentions(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, (double)n->wait.nr;
}
static double node_wait_total(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, (double)n->wait.total;
}
static double node_hold_total(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, (double)n->hold.total;
}
#define NUMA_EVENT(fn, item) \
	static double fn(const struct run_sample *s, const struct node_sample *n) \
	{ \
		return (void)s, (double)n->numa[item]; \
	}
NUMA_EVENT(numa_hit, NUMA_HIT)
NUMA_EVENT(numa_miss, NUMA_MISS)
NUMA_EVENT(numa_foreign, NUMA_FOREIGN)
NUMA_EVENT(numa_interleave, NUMA_INTERLEAVE_HIT)
NUMA_EVENT(numa_local, NUMA_LOCAL)
NUMA_EVENT(numa_other, NUMA_OTHER)
static double faults(const struct run_sample *s) { return (double)s->faults; }
static double objects(const struct run_sample *s) { return (double)s->objects; }
/* Per second of the window: a sample's now is its length. */
static double per_s(const struct run_sample *s, uint64_t n)
{
	return s->now ? (double)n * 1e9 / (double)s->now : 0;
}
static double faults_per_s(const struct run_sample *s) { return per_s(s, s->faults); }
static double objects_per_s(const struct run_sample *s) { return per_s(s, s->objects); }
static double alloc_count(const struct run_sample *s) { return (double)s->alloc_latency.count; }
static double alloc_mean(const struct run_sample *s)
{
	const struct log_hist *h = &s->alloc_latency;

	return h->count ? (double)h->sum / (double)h->count : 0;
}
static double alloc_p50(const struct run_sample *s)
{
	return (double)hist_percentile(&s->alloc_latency, 0.5);
}
static double alloc_p99(const struct run_sample *s)
{
	return (double)hist_percentile(&s->alloc_latency, 0.99);
}
static double alloc_p999(const struct run_sample *s)
{
	return (double)hist_percentile(&s->alloc_latency, 0.999);
}
/* Of every thread's time: the nodes' shares add up to the machine's. */
static double node_wait_share(const struct run_sample *s, const struct node_sample *n)
{
	return time_share(n->waited, s->thread_time);
}
static double node_used(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, (double)n->used;
}
static double node_interval_share(const struct run_sample *s, const struct node_sample *n)
{
	return (void)s, n->interval_share;
}

#define RUN(column, key, fn) { column, key, NEEDS_RUN, SPAN_RUN, false, .get = fn }
#define MACHINE(column, key, fn) { column, key, NEEDS_MACHINE, SPAN_NOW, true, .get = fn }
#define LOCK(cls_, column, key, span_, count_, fn) \
	{ column, key, NEEDS_ENGINE, span_, count_, .lock = fn, .cls = cls_ }
#define ZONE_SPAN(span, column, key, fn) \
	LOCK(LOCK_CLASS_ZONE, column, "zone_lock." key, span, true, fn)
#define PCP_SPAN(span, column, key, fn) \
	LOCK(LOCK_CLASS_PCP, column, "pcp_lock." key, span, true, fn)
#define NODE_LOCK(column, key, count_, fn) \
	{ column, "zone_lock.node%u." key, NEEDS_ENGINE, SPAN_WINDOW, count_, .node = fn }
#define NODE_INTERVAL(column, fn) { column, NULL, NEEDS_ENGINE, SPAN_NOW, false, .node = fn }
#define NODE_MACHINE(column, fn) { column, NULL, NEEDS_MACHINE, SPAN_NOW, true, .node = fn }
#define NUMA(key, fn) { NULL, "numa.node%u." key, NEEDS_MACHINE, SPAN_WINDOW, true, .node = fn }
#define RATE(key, count_, fn) { NULL, key, NEEDS_ENGINE, SPAN_WINDOW, count_, .get = fn }
#define ZONE(column, key, fn) ZONE_SPAN(SPAN_WINDOW, column, key, fn)
#define ZONE_MAX(column, key, fn) ZONE_SPAN(SPAN_RUN, column, key, fn)
#define PCP(column, key, fn) PCP_SPAN(SPAN_WINDOW, column, key, fn)
#define PCP_MAX(column, key, fn) PCP_SPAN(SPAN_RUN, column, key, fn)

/* In the order of both files: timeseries.csv's columns, and the summary's
 * keys after machine.* (docs/GUIDE.md: "What a run produces"). */
static const struct figure figures[] = {
	RUN("time_ms", NULL, time_ms),
	RUN(NULL, "sim_time_s", sim_time_s),
	RUN(NULL, "wall_time_s", wall_time_s),
	ZONE("zone_lock_acquisitions", "acquisitions", acquisitions),
	ZONE("zone_lock_contentions", "contentions", contentions),
	ZONE(NULL, "con_bounces", con_bounces),
	ZONE(NULL, "acq_bounces", acq_bounces),
	ZONE("zone_lock_wait_ns", "wait_ns_total", wait_total),
	ZONE_MAX(NULL, "wait_ns_max", wait_max),
	ZONE("zone_lock_hold_ns", "hold_ns_total", hold_total),
	ZONE_MAX(NULL, "hold_ns_max", hold_max),
	LOCK(LOCK_CLASS_ZONE, NULL, "zone_lock.wait_share", SPAN_WINDOW, false, wait_share),
	{ "zone_lock_wait_share", NULL, NEEDS_ENGINE, SPAN_NOW, false, .get = interval_share },
	PCP("pcp_lock_acquisitions", "acquisitions", acquisitions),
	PCP("pcp_lock_contentions", "contentions", contentions),
	PCP(NULL, "con_bounces", con_bounces),
	PCP(NULL, "acq_bounces", acq_bounces),
	PCP(NULL, "wait_ns_total", wait_total),
	PCP_MAX(NULL, "wait_ns_max", wait_max),
	PCP(NULL, "hold_ns_total", hold_total),
	PCP_MAX(NULL, "hold_ns_max", hold_max),
	LOCK(LOCK_CLASS_PCP, NULL, "pcp_lock.wait_share", SPAN_WINDOW, false, wait_share),
	MACHINE(NULL, "memory.managed_pages", managed_pages),
	MACHINE("free_pages", "memory.free_pages", free_pages),
	MACHINE("pcp_pages", "memory.pcp_pages", pcp_pages),
	NODE_MACHINE("node%u_used_pages", node_used),
	MACHINE("numa_pages_migrated", NULL, numa_migrated),
	MACHINE("gb_free_now", "gb_yield.free_now", gb_free_now),
	MACHINE("gb_movable_only", "gb_yield.movable_only", gb_movable_only),
	MACHINE("gb_total_regions", "gb_yield.total_regions", gb_total_regions),
	MACHINE("gb_possible", "gb_yield.possible", gb_possible),
	MACHINE("spb_empty", "gb_yield.spb_empty", spb_empty),
	MACHINE("spb_clean", "gb_yield.spb_clean", spb_clean),
	MACHINE("spb_tainted", "gb_yield.spb_tainted", spb_tainted),
	MACHINE("gigantic_pages", NULL, gigantic_pages),
	/* After the run: the state at its end, in no phase. */
	{ NULL, "gb_yield.obtained", NEEDS_ATTEMPT, SPAN_NOW, true, .get = gb_obtained },
	{ NULL, "gb_yield.obtain_migrated", NEEDS_ATTEMPT, SPAN_NOW, true,
	  .get = gb_obtain_migrated },
	{ NULL, "gb_yield.obtain_time_s", NEEDS_ATTEMPT, SPAN_NOW, false, .get = gb_obtain_time_s },
	RATE("throughput.faults", true, faults),
	RATE("throughput.faults_per_s", false, faults_per_s),
	RATE("throughput.objects", true, objects),
	RATE("throughput.objects_per_s", false, objects_per_s),
	RATE("alloc_latency.count", true, alloc_count),
	RATE("alloc_latency.mean_ns", false, alloc_mean),
	RATE("alloc_latency.p50_ns", true, alloc_p50),
	RATE("alloc_latency.p99_ns", true, alloc_p99),
	RATE("alloc_latency.p999_ns", true, alloc_p999),
	NODE_LOCK("zone_lock_node%u_acquisitions", "acquisitions", true, node_acquisitions),
	NODE_LOCK("zone_lock_node%u_contentions", "contentions", true, node_contentions),
	NODE_LOCK("zone_lock_node%u_wait_ns", "wait_ns_total", true, node_wait_total),
	NODE_LOCK(NULL, "hold_ns_total", true, node_hold_total),
	NODE_LOCK(NULL, "wait_share", false, node_wait_share),
	NODE_INTERVAL("zone_lock_node%u_wait_share", node_interval_share),
	NUMA("numa_hit", numa_hit),
	NUMA("numa_miss", numa_miss),
	NUMA("numa_foreign", numa_foreign),
	NUMA("numa_interleave", numa_interleave),
	NUMA("numa_local", numa_local),
	NUMA("numa_other", numa_other),
};

/* Figure f of sample s, for node node if it is a node figure. */
static double figure_value(const struct figure *f, const struct run_sample *s, unsigned node)
{
	if (f->node)
		return f->node(s, &s->node[node]);
	return f->lock ? f->lock(&s->lock[f->cls]) : f->get(s);
}

/* How many values figure f has in sample s: one, or one per node. */
static unsigned figure_instances(const struct figure *f, const struct run_sample *s)
{
	return f->node ? s->nr_nodes : 1;
}

/* Its column or key (fmt) for node node. */
static char *figure_name(const struct figure *f, const char *fmt, unsigned node)
{
	return f->node ? g_strdup_printf(fmt, node) : g_strdup(fmt);
}

/* A named span of simulated time (report_phase), with the figures at
 * its start. */
struct phase {
	char *name;
	uint64_t start, end;
	bool open;
	struct run_sample at_start;
};

/* The spans of one phase name together: their first start, last end,
 * total length, and their figures summed (sample_delta), the state
 * figures those at the last end. */
struct phase_total {
	char *name;
	uint64_t first_start, last_end, length;
	struct run_sample sum;
};

static void lock_time_sub(struct lock_time *d, const struct lock_time *a)
{
	d->nr -= a->nr;
	d->total -= a->total;
}

static void lock_time_add(struct lock_time *d, const struct lock_time *a)
{
	d->nr += a->nr;
	d->total += a->total;
}

/* The counters of sample b minus those of a (b taken later), each
 * share over the difference; maxima (SPAN_RUN) mean nothing there. */
static void sample_delta(const struct run_sample *a, const struct run_sample *b,
			 struct run_sample *d)
{
	*d = *b;
	d->now = b->now - a->now;
	d->thread_time = b->thread_time - a->thread_time;
	for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
		struct lock_stats *st = &d->lock[c].st;
		const struct lock_stats *sa = &a->lock[c].st;

		lock_time_sub(&st->wait, &sa->wait);
		lock_time_sub(&st->hold, &sa->hold);
		st->acq_bounces -= sa->acq_bounces;
		st->con_bounces -= sa->con_bounces;
		d->lock[c].waited -= a->lock[c].waited;
		d->lock[c].wait_share = time_share(d->lock[c].waited, d->thread_time);
	}
	d->faults -= a->faults;
	d->objects -= a->objects;
	spb_walk_totals_sub(&d->spb_walk, &a->spb_walk);
	hist_sub(&d->alloc_latency, &a->alloc_latency);
	for (unsigned n = 0; n < d->nr_nodes; n++) {
		lock_time_sub(&d->node[n].wait, &a->node[n].wait);
		lock_time_sub(&d->node[n].hold, &a->node[n].hold);
		d->node[n].waited -= a->node[n].waited;
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			d->node[n].numa[i] -= a->node[n].numa[i];
	}
}

/* Add the delta d to the sum, whose state figures become d's. */
static void sample_add(struct run_sample *sum, const struct run_sample *d)
{
	struct run_sample old = *sum;

	*sum = *d;
	sum->now += old.now;
	sum->thread_time += old.thread_time;
	for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
		struct lock_stats *st = &sum->lock[c].st;
		const struct lock_stats *so = &old.lock[c].st;

		lock_time_add(&st->wait, &so->wait);
		lock_time_add(&st->hold, &so->hold);
		st->acq_bounces += so->acq_bounces;
		st->con_bounces += so->con_bounces;
		sum->lock[c].waited += old.lock[c].waited;
		sum->lock[c].wait_share = time_share(sum->lock[c].waited, sum->thread_time);
	}
	sum->faults += old.faults;
	sum->objects += old.objects;
	spb_walk_totals_add(&sum->spb_walk, &old.spb_walk);
	hist_add(&sum->alloc_latency, &old.alloc_latency);
	for (unsigned n = 0; n < old.nr_nodes; n++) {
		lock_time_add(&sum->node[n].wait, &old.node[n].wait);
		lock_time_add(&sum->node[n].hold, &old.node[n].hold);
		sum->node[n].waited += old.node[n].waited;
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			sum->node[n].numa[i] += old.node[n].numa[i];
	}
}

/* One run per process: SimGrid runs one simulation per process. */
struct report {
	struct results *r;
	struct results_ts *ts;
	char *scenario;
	char *command;
	uint64_t seed;
	bool time_compressed;        /* report_set_time_compressed */
	char *window;                /* report_set_window, NULL: MEASURE_PHASE */
	char *plot_format;
	gint64 wall_start;
	struct progress progress;
	uint64_t target_ns;          /* end of the current run, 0 if open-ended */
	/* The sampled machine, and its threads' time and zone->lock waits
	 * (engine_thread_time), all nodes' and each's, at the last row. */
	struct machine *m;
	struct engine *e;
	uint64_t interval_ns;
	uint64_t last_row_ns;
	double last_time, last_waited, last_node_waited[MAX_NUMNODES];
	GArray *phases;              /* struct phase, in the order they began */
	GArray *totals;              /* struct phase_total, in the order first begun */
	uint64_t objects;            /* report_count_objects */
	unsigned plots;              /* the scenario's, 1 << enum run_plot */
	bool plots_declared;         /* by a "-- plots:" line */
	GString *plot_notes;         /* plots.txt: each plot drawn or why not */
};

static double wall_seconds(const struct report *rep)
{
	return (double)(g_get_monotonic_time() - rep->wall_start) / 1e6;
}

/* Files of the run's folder that could not be written (one run per
 * process): any makes the run fail at its end. */
static unsigned write_failures;

static void write_failed(char *err)
{
	g_printerr("mmsim: error: %s\n", err);
	g_free(err);
	write_failures++;
}

/* Plot `name` of the run: drawn (results_plot's outcome) when why is NULL,
 * else left out for that reason (a plot results_plot could not make, it
 * said why, fails the run).  plots.txt lists each; a plot the
 * scenario's "-- plots:" line asked for and left out is also said on
 * stderr. */
static void plot_note(const struct report *rep, const char *name, const char *why, bool ok)
{
	if (!why) {
		write_failures += !ok;
		g_string_append_printf(rep->plot_notes, "%s: %s\n", name,
				       ok ? "drawn" : "failed (see stderr)");
		return;
	}
	g_string_append_printf(rep->plot_notes, "%s: not drawn: %s\n", name, why);
	if (rep->plots_declared)
		g_printerr("mmsim: plot %s (named in '-- plots:') not drawn: %s\n", name, why);
}

/* The figures of machine m and engine e (either may be NULL) now. */
static void sample(const struct report *rep, struct machine *m, struct engine *e,
		   struct run_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->wall_s = wall_seconds(rep);
	s->objects = rep->objects;
	if (e) {
		struct lock_stats st[NR_LOCK_CLASSES];
		struct thread_time tt;

		s->now = engine_clock(e);
		engine_thread_time(e, &tt);
		s->thread_time = tt.ns;
		engine_all_class_stats(e, st);
		for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
			s->lock[c].st = st[c];
			s->lock[c].waited = tt.wait_ns[c];
			s->lock[c].wait_share = time_share(tt.wait_ns[c], tt.ns);
		}
		if (engine_spb_walk(e))
			spb_walk_totals(engine_spb_walk(e), &s->spb_walk);
	}
	if (m) {
		s->managed_pages = machine_managed_pages(m);
		s->free_pages = machine_free_pages(m);
		s->pcp_pages = machine_pcp_pages(m);
		for_each_populated_zone(m, z)
			s->node[z->node].used +=
				z->managed_pages - zone_page_state(z, NR_FREE_PAGES);
		s->numa_pages_migrated = m->vm_events[NUMA_PAGES_MIGRATED];
		s->gigantic = m->nr_gigantic;
		gb_yield(m, &s->y);
		spb_count_states(m, &s->spb);
		s->policy_spb = machine_has_superpageblocks(m);
		s->nr_nodes = m->nr_nodes;
		s->faults = m->vm_events[PGFAULT];
		s->alloc_latency = m->alloc_latency;
		for (unsigned n = 0; n < m->nr_nodes; n++)
			for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
				s->node[n].numa[i] = node_numa_event(m, (int)n,
								     (enum numa_stat_item)i);
	}
	if (m && e) {
		for_each_populated_zone(m, z) {
			struct lock_stats st;

			if (!engine_lock_stats(&z->lock, &st))
				continue;
			s->node[z->node].wait.nr += st.wait.nr;
			s->node[z->node].wait.total += st.wait.total;
			s->node[z->node].hold.nr += st.hold.nr;
			s->node[z->node].hold.total += st.hold.total;
			s->node[z->node].waited += engine_lock_waited_ns(e, &z->lock);
		}
	}
}

/* A row of timeseries.csv from sample s, with the shares of the interval
 * since the last row. */
static void write_row(struct report *rep, struct run_sample *s)
{
	double values[G_N_ELEMENTS(figures) * MAX_NUMNODES];
	double time = s->thread_time - rep->last_time;
	unsigned n = 0;
	char *err = NULL;

	s->interval_share = time_share(s->lock[LOCK_CLASS_ZONE].waited - rep->last_waited, time);
	for (unsigned k = 0; k < s->nr_nodes; k++) {
		s->node[k].interval_share = time_share(s->node[k].waited -
						       rep->last_node_waited[k], time);
		rep->last_node_waited[k] = s->node[k].waited;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++)
		for (unsigned k = 0; figures[i].column && k < figure_instances(&figures[i], s); k++)
			values[n++] = figure_value(&figures[i], s, k);
	rep->last_waited = s->lock[LOCK_CLASS_ZONE].waited;
	rep->last_time = s->thread_time;
	rep->last_row_ns = s->now;
	if (results_ts_row(rep->ts, values, &err))
		write_failed(err);
}

static void sampler(struct mm_ctx *ctx, void *arg)
{
	struct report *rep = arg;
	struct run_sample s;

	for (;;) {
		engine_sleep(ctx, rep->interval_ns);
		engine_settle(ctx);
		/* The end-of-run attempt runs after timeseries.csv is closed. */
		if (!rep->ts)
			return;
		sample(rep, rep->m, rep->e, &s);
		write_row(rep, &s);
		progress_update(&rep->progress, s.now, rep->target_ns, s.wall_s);
	}
}

struct report *report_open(const char *scenario, uint64_t seed, const char *command,
			   const char *dir, const char *plot_format, bool keep_output, char **err)
{
	char *path = dir ? g_strdup(dir) : results_default_dir(scenario, NULL);
	struct results *r;
	struct report *rep;
	unsigned plots;
	bool declared;

	if (run_plots_declared(scenario, &plots, &declared, err)) {
		g_free(path);
		return NULL;
	}
	r = dir ? results_open(path, err) : results_open_new(path, err);
	g_free(path);
	if (!r)
		return NULL;
	/* Before the progress line looks for the terminal. */
	if (keep_output && tee_start(results_dir(r), err)) {
		results_discard(r);
		return NULL;
	}
	rep = g_new0(struct report, 1);
	rep->r = r;
	rep->plots = plots;
	rep->plots_declared = declared;
	rep->plot_notes = g_string_new(NULL);
	rep->scenario = g_strdup(scenario);
	rep->command = g_strdup(command);
	rep->seed = seed;
	rep->plot_format = g_strdup(plot_format ? plot_format : "png");
	rep->wall_start = g_get_monotonic_time();
	rep->phases = g_array_new(FALSE, FALSE, sizeof(struct phase));
	rep->totals = g_array_new(FALSE, FALSE, sizeof(struct phase_total));
	progress_init(&rep->progress);
	return rep;
}

static struct phase_total *phase_total(const struct report *rep, const char *name)
{
	for (guint i = 0; i < rep->totals->len; i++) {
		struct phase_total *t = &g_array_index(rep->totals, struct phase_total, i);

		if (!strcmp(t->name, name))
			return t;
	}
	return NULL;
}

/* End the open phase at at_ns, where the figures are s. */
static void end_phase(struct report *rep, uint64_t at_ns, const struct run_sample *s)
{
	struct phase *last;
	struct phase_total *t;
	struct run_sample d;

	if (!rep->phases->len)
		return;
	last = &g_array_index(rep->phases, struct phase, rep->phases->len - 1);
	if (!last->open)
		return;
	last->end = at_ns;
	last->open = false;
	t = phase_total(rep, last->name);
	if (!t) {
		struct phase_total nt = { .name = g_strdup(last->name),
					  .first_start = last->start };

		g_array_append_val(rep->totals, nt);
		t = &g_array_index(rep->totals, struct phase_total, rep->totals->len - 1);
	}
	t->last_end = at_ns;
	t->length += at_ns - last->start;
	sample_delta(&last->at_start, s, &d);
	sample_add(&t->sum, &d);
}

void report_phase(struct report *rep, struct machine *m, struct engine *e, const char *name,
		  uint64_t at_ns)
{
	struct phase p = { .name = g_strdup(name), .start = at_ns, .end = at_ns, .open = true };

	sample(rep, m, e, &p.at_start);
	end_phase(rep, at_ns, &p.at_start);
	if (name)
		g_array_append_val(rep->phases, p);
}

bool report_since_phase(const struct report *rep, const char *name, enum lock_class_id cls,
			struct lock_stats *st, double *waited, double *thread_time)
{
	for (guint i = rep->phases->len; i-- > 0;) {
		const struct phase *p = &g_array_index(rep->phases, struct phase, i);

		if (!strcmp(p->name, name)) {
			*st = p->at_start.lock[cls].st;
			*waited = p->at_start.lock[cls].waited;
			*thread_time = p->at_start.thread_time;
			return true;
		}
	}
	return false;
}

void report_count_objects(struct report *rep, uint64_t n)
{
	rep->objects += n;
}

void report_set_target(struct report *rep, uint64_t until_ns)
{
	rep->target_ns = until_ns;
}

void report_start_sampling(struct report *rep, struct machine *m, struct engine *e,
			   uint64_t interval_ns)
{
	GPtrArray *columns = g_ptr_array_new_with_free_func(g_free);
	char *err = NULL;
	struct run_sample s;

	if (rep->ts || !interval_ns)
		return;
	sample(rep, m, e, &s);
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++)
		for (unsigned k = 0; figures[i].column && k < figure_instances(&figures[i], &s);
		     k++)
			g_ptr_array_add(columns, figure_name(&figures[i], figures[i].column, k));
	g_ptr_array_add(columns, NULL);
	rep->ts = results_ts_open(rep->r, "timeseries.csv", (const char *const *)columns->pdata,
				  &err);
	g_ptr_array_free(columns, TRUE);
	if (!rep->ts) {
		write_failed(err);
		return;
	}
	rep->m = m;
	rep->e = e;
	rep->interval_ns = interval_ns;
	write_row(rep, &s);
	engine_spawn_observer(e, "sampler", sampler, rep);
}

static void write_file(const struct report *rep, const char *name, GString *s)
{
	char *err = NULL;

	if (results_write(rep->r, name, s->str, s->len, &err))
		write_failed(err);
	g_string_truncate(s, 0);
}

int report_write_file(struct report *rep, const char *name, const char *data, size_t len,
		      char **err)
{
	return results_write_user(rep->r, name, data, len, err);
}

void report_keep_source(struct report *rep, const char *name, const char *path)
{
	char *text = NULL, *file = g_build_filename("scenario", name, NULL), *err = NULL;
	gsize len;
	GError *error = NULL;

	if (!g_file_get_contents(path, &text, &len, &error)) {
		write_failed(g_strdup_printf("cannot copy %s into the results folder: %s", path,
					     error->message));
		g_error_free(error);
	} else if (results_write(rep->r, file, text, len, &err)) {
		write_failed(err);
	}
	g_free(text);
	g_free(file);
}

void report_set_time_compressed(struct report *rep, bool on)
{
	rep->time_compressed = on;
}

void report_set_window(struct report *rep, const char *phase)
{
	g_free(rep->window);
	rep->window = g_strdup(phase);
}

/* "2s-1t: 2 sockets, 2 nodes, 128 CPUs, 1 TiB" (the preset's name first if
 * the machine is one), ", time-compressed" after when the scenario says its
 * rates are, with the machine's time_scale when the kernel's periods are
 * compressed too ("time-compressed 1000x"). */
static char *machine_title(const struct report *rep, const struct machine *m)
{
	static const char *const units[] = { "MiB", "GiB", "TiB", "PiB" };
	double mem = (double)topology_total_mem(&m->topo) / (1 << 20);
	size_t u = 0;
	GString *t = g_string_new(NULL);

	while (mem >= 1024 && u + 1 < G_N_ELEMENTS(units)) {
		mem /= 1024;
		u++;
	}
	if (strcmp(m->topo.name, "custom"))
		g_string_append_printf(t, "%s: ", m->topo.name);
	g_string_append_printf(t, "%u socket%s, %u node%s, %u CPU%s, %.4g %s", m->topo.sockets,
			       m->topo.sockets == 1 ? "" : "s", m->nr_nodes,
			       m->nr_nodes == 1 ? "" : "s", m->nr_cpus, m->nr_cpus == 1 ? "" : "s",
			       mem, units[u]);
	if (rep->time_compressed && m->time_scale != 1)
		g_string_append_printf(t, ", time-compressed %gx", m->time_scale);
	else if (rep->time_compressed)
		g_string_append(t, ", time-compressed");
	else if (m->time_scale != 1)
		g_string_append_printf(t, ", kernel periods / %g", m->time_scale);
	return g_string_free(t, FALSE);
}

/* phases.csv, the phases' times in ms to the ns; false if there is none. */
static bool write_phases(const struct report *rep)
{
	GString *s;

	if (!rep->phases->len)
		return false;
	s = g_string_new("phase,start_ms,end_ms\n");
	for (guint i = 0; i < rep->phases->len; i++) {
		const struct phase *p = &g_array_index(rep->phases, struct phase, i);

		g_string_append_printf(s, "%s,%.6f,%.6f\n", p->name, (double)p->start / 1e6,
				       (double)p->end / 1e6);
	}
	write_file(rep, "phases.csv", s);
	g_string_free(s, TRUE);
	return true;
}

/* The run's plot title: the scenario, its policy, the workload threads of
 * engine e (NULL: none) that ran (not the machine's CPUs), and the
 * simulated time now, of a snapshot label (NULL: the whole run); then on a
 * line of its own the machine's title. */
static char *plot_title(const struct report *rep, const struct machine *m,
			const struct engine *e, uint64_t now, const char *label)
{
	char *base = g_path_get_basename(rep->scenario);
	char *dot = strrchr(base, '.');
	GString *t = g_string_new(NULL);
	char *machine = machine_title(rep, m);

	if (dot && !strcmp(dot, ".lua"))
		*dot = '\0';
	g_string_printf(t, "%s: %s", base, mm_policy_names[m->policy]);
	if (e && engine_nr_workload_threads(e))
		g_string_append_printf(t, ", %u thread%s", engine_nr_workload_threads(e),
				       engine_nr_workload_threads(e) > 1 ? "s" : "");
	if (label)
		g_string_append_printf(t, ", %s at %.4g ms", label, (double)now / 1e6);
	else if (now)
		g_string_append_printf(t, ", %.4g ms", (double)now / 1e6);
	g_string_append_printf(t, "\n%s", machine);
	g_free(machine);
	g_free(base);
	return g_string_free(t, FALSE);
}

/* memmap[-label].dat and its memory_map[-label] plot (plots/memory_map.gp)
 * at simulated time now, whose 1GB yield is y; the end's (label NULL) is
 * plotted if the scenario asked for it. */
static void write_memory_map(const struct report *rep, struct machine *m,
			     const struct engine *e, uint64_t now, const struct gb_yield *y,
			     const char *label)
{
	unsigned long n[NR_PB_CLASSES] = { 0 };
	GString *s = g_string_new(NULL), *tics = g_string_new(NULL);
	char *dat = label ? g_strdup_printf("memmap-%s.dat", label) : g_strdup("memmap.dat");
	char *png = label ? g_strdup_printf("memory_map-%s", label) : g_strdup("memory_map");
	char *title = plot_title(rep, m, e, now, label ? label : "end");

	gb_memory_map_matrix(m, s, n);
	write_file(rep, dat, s);
	g_string_printf(s, "1 GiB regions: %lu free now, %lu movable-only, of %lu possible",
			y->free_now, y->movable_only, y->possible);
	char *counts = g_strdup_printf("%lu %lu %lu %lu %lu", n[PB_CLASS_FREE], n[PB_CLASS_MOVABLE],
				       n[PB_CLASS_RECLAIMABLE], n[PB_CLASS_UNMOVABLE],
				       n[PB_CLASS_MIXED]);
	gb_memory_map_tics(m, tics);
	if (label || rep->plots & 1u << PLOT_MEMORY_MAP)
		plot_note(rep, png, NULL,
			  results_plot_as(rep->r, "memory_map", dat, png, rep->plot_format, title,
					  (const char *const[]){ "ytics_zones", tics->str,
								 "subtitle", s->str,
								 "class_counts", counts, NULL }));
	g_free(counts);
	g_free(title);
	g_free(png);
	g_free(dat);
	g_string_free(tics, TRUE);
	g_string_free(s, TRUE);
}

/* The per-GiB views at the end (plots/gib_map.gp): the memory map by
 * GiB (memmap-gib.dat) for a big machine or if the scenario asked, the
 * superpageblocks' states (spbmap.dat) under policy spb. */
static void write_gib_maps(const struct report *rep, struct machine *m,
			   const struct engine *e, uint64_t now, const struct gb_yield *y)
{
	GString *s = g_string_new(NULL);
	char *title = plot_title(rep, m, e, now, "end");
	bool gib = rep->plots & 1u << PLOT_MEMORY_MAP_GIB &&
		   (rep->plots_declared || topology_total_mem(&m->topo) > (64ULL << 30));

	if (gib) {
		gb_memory_map_gib(m, s);
		write_file(rep, "memmap-gib.dat", s);
		char *sub = g_strdup_printf("each GiB by its worst pageblock; 1 GiB regions: "
					    "%lu movable-only of %lu possible", y->movable_only,
					    y->possible);

		plot_note(rep, "memory_map_gib", NULL,
			  results_plot_as(rep->r, "gib_map", "memmap-gib.dat", "memory_map_gib",
					  rep->plot_format, title,
				       (const char *const[]){
					       "subtitle", sub,
					       "names", "free movable reclaimable unmovable mixed "
							"no-memory",
					       "colours", "E4E4E4 56B4E9 009E73 D55E00 CC79A7 FFFFFF",
					       "labelcols", "5 6 7",
					       "labelname", "pageblocks not free or movable", NULL }));
		g_free(sub);
	} else if (rep->plots & 1u << PLOT_MEMORY_MAP_GIB) {
		plot_note(rep, "memory_map_gib", "a machine of 64 GiB or less (name it in "
			  "'-- plots:' to draw it)", false);
	}
	if (rep->plots & 1u << PLOT_SPB_MAP && !machine_has_superpageblocks(m))
		plot_note(rep, "spb_map", "the policy is not spb", false);
	if (rep->plots & 1u << PLOT_SPB_MAP && machine_has_superpageblocks(m)) {
		spb_state_map(m, s);
		write_file(rep, "spbmap.dat", s);
		plot_note(rep, "spb_map", NULL, results_plot_as(rep->r, "gib_map", "spbmap.dat", "spb_map",
					  rep->plot_format, title,
				       (const char *const[]){
					       "subtitle", "superpageblocks (1 GiB each) by state",
					       "names", "empty clean tainted isolated",
					       "colours", "E4E4E4 56B4E9 D55E00 0072B2",
					       "labelcols", "3",
					       "labelname", "free pageblocks", NULL }));
	}
	g_free(title);
	g_string_free(s, TRUE);
}

void report_memory_map(struct report *rep, struct machine *m, struct engine *e,
		       const char *label)
{
	struct gb_yield y;

	gb_yield(m, &y);
	write_memory_map(rep, m, e, e ? engine_clock(e) : 0, &y, label);
}

/* vmstat.* from /proc/vmstat's text. */
static void set_vmstat(struct results_json *j, const char *text)
{
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l && **l; l++) {
		char *sp = strchr(*l, ' ');
		char *key;

		if (!sp)
			continue;
		*sp = '\0';
		key = g_strdup_printf("vmstat.%s", *l);
		results_json_set_uint(j, key, g_ascii_strtoull(sp + 1, NULL, 10));
		g_free(key);
	}
	g_strfreev(lines);
}

/* Figure f of sample s (each node's for a node figure) at prefix + its
 * key. */
static void set_figure(struct results_json *j, const char *prefix, const struct figure *f,
		       const struct run_sample *s)
{
	for (unsigned k = 0; k < figure_instances(f, s); k++) {
		char *name = figure_name(f, f->key, k);
		char *key = g_strconcat(prefix ? prefix : "", name, NULL);
		double v = figure_value(f, s, k);

		if (f->count)
			results_json_set_uint(j, key, (uint64_t)v);
		else
			results_json_set_double(j, key, v);
		g_free(key);
		g_free(name);
	}
}

static void set_prefixed_uint(struct results_json *j, const char *prefix, const char *key,
			      uint64_t v)
{
	char *k = g_strconcat(prefix ? prefix : "", key, NULL);

	results_json_set_uint(j, k, v);
	g_free(k);
}

static void set_prefixed_mean(struct results_json *j, const char *prefix, const char *key,
			      uint64_t sum, uint64_t nr)
{
	char *k = g_strconcat(prefix ? prefix : "", key, NULL);

	results_json_set_double(j, k, nr ? (double)sum / (double)nr : 0);
	g_free(k);
}

/* spb_walk.* of sample s at prefix, under policy spb: sections, visits
 * and moves per section, then per walk that read a superpageblock and
 * per call site that took the lock; a window's (run false) leave out the
 * maxima, which only the whole run has. */
static void set_spb_walk(struct results_json *j, const char *prefix, const struct run_sample *s,
			 bool run)
{
	const struct spb_walk_totals *t = &s->spb_walk;
	char key[96];

	if (!s->policy_spb)
		return;
	set_prefixed_uint(j, prefix, "spb_walk.sections", t->sections);
	set_prefixed_mean(j, prefix, "spb_walk.visits_mean", t->visits, t->sections);
	if (run)
		set_prefixed_uint(j, prefix, "spb_walk.visits_max", t->visits_max);
	set_prefixed_mean(j, prefix, "spb_walk.moves_mean", t->moves, t->sections);
	if (run)
		set_prefixed_uint(j, prefix, "spb_walk.moves_max", t->moves_max);
	for (int i = 0; i < NR_SPB_WALKS; i++) {
		if (!t->walk[i].sections)
			continue;
		snprintf(key, sizeof(key), "spb_walk.%s.sections", spb_walk_names[i]);
		set_prefixed_uint(j, prefix, key, t->walk[i].sections);
		snprintf(key, sizeof(key), "spb_walk.%s.visits_mean", spb_walk_names[i]);
		set_prefixed_mean(j, prefix, key, t->walk[i].visits, t->walk[i].sections);
		snprintf(key, sizeof(key), "spb_walk.%s.visits_max", spb_walk_names[i]);
		if (run)
			set_prefixed_uint(j, prefix, key, t->walk[i].max);
	}
	for (int site = 0; site < NR_LOCK_SITES; site++) {
		const char *name = lock_site_name((enum lock_site)site);

		if (!t->site[site].sections)
			continue;
		snprintf(key, sizeof(key), "spb_walk.%s.sections", name);
		set_prefixed_uint(j, prefix, key, t->site[site].sections);
		snprintf(key, sizeof(key), "spb_walk.%s.visits_mean", name);
		set_prefixed_mean(j, prefix, key, t->site[site].visits, t->site[site].sections);
		snprintf(key, sizeof(key), "spb_walk.%s.moves_mean", name);
		set_prefixed_mean(j, prefix, key, t->site[site].moves, t->site[site].sections);
		if (!run)
			continue;
		snprintf(key, sizeof(key), "spb_walk.%s.visits_max", name);
		set_prefixed_uint(j, prefix, key, t->site[site].visits_max);
		snprintf(key, sizeof(key), "spb_walk.%s.moves_max", name);
		set_prefixed_uint(j, prefix, key, t->site[site].moves_max);
	}
}

/* phases.NAME.*: when, then the figures a window has. */
static void set_phase(struct results_json *j, enum figure_needs have,
		      const struct phase_total *t)
{
	char *prefix = g_strdup_printf("phases.%s.", t->name);
	char *key;

	key = g_strconcat(prefix, "start_s", NULL);
	results_json_set_double(j, key, (double)t->first_start / 1e9);
	g_free(key);
	key = g_strconcat(prefix, "end_s", NULL);
	results_json_set_double(j, key, (double)t->last_end / 1e9);
	g_free(key);
	key = g_strconcat(prefix, "length_s", NULL);
	results_json_set_double(j, key, (double)t->length / 1e9);
	g_free(key);
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++)
		if (figures[i].key && figures[i].needs <= have && figures[i].span != SPAN_RUN)
			set_figure(j, prefix, &figures[i], &t->sum);
	if (have >= NEEDS_ENGINE)
		set_spb_walk(j, prefix, &t->sum, false);
	g_free(prefix);
}

static void write_summary(const struct report *rep, struct machine *m,
			  enum figure_needs have, const struct run_sample *s, const char *vmstat,
			  const struct results_json *params, const struct results_json *results,
			  bool interrupted)
{
	struct results_json *j = results_json_new();
	const char *window = rep->window ? rep->window : MEASURE_PHASE;
	const struct phase_total *measure = phase_total(rep, window);
	char *err = NULL;

	results_json_set_string(j, "version", MMSIM_VERSION);
	if (rep->command)
		results_json_set_string(j, "command", rep->command);
	results_json_set_string(j, "scenario", rep->scenario);
	results_json_set_uint(j, "seed", rep->seed);
	/* Only then: sim_time_s says where the run stopped. */
	if (interrupted)
		results_json_set_bool(j, "interrupted", true);
	results_json_set_tree(j, "params", params);
	if (m) {
		char *title = machine_title(rep, m);

		results_json_set_string(j, "machine.name", m->topo.name);
		results_json_set_string(j, "machine.title", title);
		g_free(title);
		results_json_set_string(j, "machine.policy", mm_policy_names[m->policy]);
		results_json_set_uint(j, "machine.nodes", m->nr_nodes);
		results_json_set_uint(j, "machine.cpus", m->nr_cpus);
		results_json_set_uint(j, "machine.memory_mib", topology_total_mem(&m->topo) >> 20);
		results_json_set_double(j, "machine.time_scale", m->time_scale);
	}
	/* The headline is the measurement window's where there is one. */
	results_json_set_string(j, "window", measure ? window : "whole_run");
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++) {
		const struct figure *f = &figures[i];

		if (!f->key || f->needs > have)
			continue;
		if (!measure || f->span == SPAN_NOW || f->needs == NEEDS_RUN) {
			set_figure(j, NULL, f, s);
			continue;
		}
		if (f->span == SPAN_WINDOW)
			set_figure(j, NULL, f, &measure->sum);
		set_figure(j, "whole_run.", f, s);
	}
	if (have >= NEEDS_ENGINE && measure) {
		set_spb_walk(j, NULL, &measure->sum, false);
		set_spb_walk(j, "whole_run.", s, true);
	} else if (have >= NEEDS_ENGINE) {
		set_spb_walk(j, NULL, s, true);
	}
	/* The 1 GiB attempt comes after every phase. */
	for (guint i = 0; i < rep->totals->len; i++)
		set_phase(j, MIN(have, NEEDS_ENGINE),
			  &g_array_index(rep->totals, struct phase_total, i));
	results_json_set_tree(j, "results", results);
	if (vmstat)
		set_vmstat(j, vmstat);
	if (results_write_summary(rep->r, j, &err))
		write_failed(err);
	results_json_free(j);
}

/* The kernel's files and the memory map of machine m (run by engine e,
 * may be NULL) at the end. */
static void write_machine_files(const struct report *rep, struct machine *m,
				const struct engine *e, const struct run_sample *s, const char *vmstat)
{
	GString *out = g_string_new(vmstat);

	write_file(rep, "vmstat", out);
	proc_buddyinfo(m, out);
	write_file(rep, "buddyinfo", out);
	proc_pagetypeinfo(m, out);
	write_file(rep, "pagetypeinfo", out);
	proc_zoneinfo(m, out);
	write_file(rep, "zoneinfo", out);
	if (slub_enabled(m)) {
		proc_slabinfo(m, out);
		write_file(rep, "slabinfo", out);
	}
	proc_numastat(m, out);
	write_file(rep, "numastat", out);
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		char *name = g_strdup_printf("node%u_vmstat", n);

		proc_node_vmstat(m, n, out);
		write_file(rep, name, out);
		g_free(name);
	}
	if (machine_has_superpageblocks(m)) {
		proc_superpageblocks(m, out);
		write_file(rep, "superpageblocks", out);
	}
	if (m->page_owner_ts) {
		page_owner_ages_show(m, s->now, out);
		write_file(rep, "page_owner_ages", out);
	}
	/* Written once THP faults have been tried (the run used THPs). */
	if (m->thp_state) {
		proc_transparent_hugepage(m, out);
		write_file(rep, "transparent_hugepage", out);
	}
	g_string_free(out, TRUE);
	write_memory_map(rep, m, e, s->now, &s->y, NULL);
	write_gib_maps(rep, m, e, s->now, &s->y);
}

/* The scheduler's figures, per CPU then per thread that ran, each as
 * "run_ns run_delay_ns pcount" (the CPU lines: /proc/schedstat's last
 * three fields; the thread lines: /proc/<pid>/schedstat after the
 * thread's name and CPU). */
static void write_schedstat(const struct engine *e, GString *out)
{
	struct engine_schedstat st;
	unsigned cpu;

	g_string_append(out, "# cpu<N> run_ns run_delay_ns pcount\n");
	for (cpu = 0; cpu < engine_nr_cpus(e); cpu++) {
		engine_cpu_schedstat(e, cpu, &st);
		if (st.pcount)
			g_string_append_printf(out, "cpu%u %.0f %.0f %" G_GUINT64_FORMAT "\n", cpu,
					       st.run_ns, st.run_delay_ns, st.pcount);
	}
	g_string_append(out, "# thread cpu run_ns run_delay_ns pcount\n");
	for (unsigned i = 0; i < engine_nr_threads(e); i++) {
		const char *name = engine_thread_schedstat(e, i, &cpu, &st);

		if (st.pcount)
			g_string_append_printf(out, "%s %u %.0f %.0f %" G_GUINT64_FORMAT "\n", name,
					       cpu, st.run_ns, st.run_delay_ns, st.pcount);
	}
}

/* lock_stat, cpu_wait.csv, schedstat and the plots of a run that had an engine,
 * those the scenario asked for that have something to show (sampled:
 * timeseries.csv has rows to draw); the time-series plots (zone->lock,
 * NUMA migration) shade the phases if phases.csv was written. */
static void write_engine_files(const struct report *rep, const struct machine *m,
			       const struct engine *e, const struct run_sample *s, bool phases,
			       bool sampled)
{
	GString *out = g_string_new(NULL);
	char *title = plot_title(rep, m, e, s->now, NULL);
	char *phasefile = g_build_filename(results_dir(rep->r), "phases.csv", NULL);
	const char *const phase_list[] = { "phasefile", phasefile, NULL };
	const char *const *phase_args = phases ? phase_list : NULL;
	const struct lock_sample *zone = &s->lock[LOCK_CLASS_ZONE], *pcp = &s->lock[LOCK_CLASS_PCP];
	lockstat_print(e, out);
	write_file(rep, "lock_stat", out);
	if (machine_has_superpageblocks(m)) {
		static const struct spb_walk_stats none;

		spb_walk_print(engine_spb_walk(e) ? engine_spb_walk(e) : &none, out);
		write_file(rep, "spb_walk", out);
	}
	/* The CPUs the workload ran on, and any other that waited (a
	 * daemon's): not the idle ones of a big machine. */
	g_string_append(out, "cpu,zone_wait_ns,pcp_wait_ns\n");
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
		uint64_t zw = engine_cpu_wait_ns(e, cpu, LOCK_CLASS_ZONE);
		uint64_t pw = engine_cpu_wait_ns(e, cpu, LOCK_CLASS_PCP);

		if (zw || pw || engine_cpu_ran_workload(e, cpu))
			g_string_append_printf(out, "%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
					       cpu, zw, pw);
	}
	write_file(rep, "cpu_wait.csv", out);
	write_schedstat(e, out);
	write_file(rep, "schedstat", out);
	const char *once = "the run sampled once: no line to draw";

	if (rep->plots & 1u << PLOT_LOCK_TIMESERIES)
		plot_note(rep, "lock_timeseries", !sampled ? once :
			  !zone->st.wait.nr ? "zone->lock was never contended" : NULL,
			  sampled && zone->st.wait.nr &&
			  results_plot(rep->r, "lock_timeseries", "timeseries.csv", rep->plot_format,
				       title, phase_args));
	if (rep->plots & 1u << PLOT_CPU_WAIT)
		plot_note(rep, "cpu_wait",
			  zone->st.wait.total || pcp->st.wait.total ? NULL :
			  "no CPU waited for zone->lock or pcp->lock",
			  (zone->st.wait.total || pcp->st.wait.total) &&
			  results_plot(rep->r, "cpu_wait", "cpu_wait.csv", rep->plot_format, title,
				       NULL));
	if (rep->plots & 1u << PLOT_GB_YIELD)
		plot_note(rep, "gb_yield", !sampled ? once :
			  !s->y.possible ? "no possible 1 GiB region to count" : NULL,
			  sampled && s->y.possible &&
			  results_plot(rep->r, "gb_yield", "timeseries.csv", rep->plot_format, title,
				       phase_args));
	if (rep->plots & 1u << PLOT_NUMA_MIGRATION)
		plot_note(rep, "numa_migration", !sampled ? once :
			  !s->numa_pages_migrated ? "NUMA balancing migrated no page (it draws "
			  "NUMA balancing's moves, not move_pages' or migrate_pages')" : NULL,
			  sampled && s->numa_pages_migrated &&
			  results_plot(rep->r, "numa_migration", "timeseries.csv", rep->plot_format,
				       title, phase_args));
	g_free(phasefile);
	g_free(title);
	g_string_free(out, TRUE);
}

/* rep without its folder. */
static void report_free(struct report *rep)
{
	for (guint i = 0; i < rep->phases->len; i++)
		g_free(g_array_index(rep->phases, struct phase, i).name);
	g_array_free(rep->phases, TRUE);
	for (guint i = 0; i < rep->totals->len; i++)
		g_free(g_array_index(rep->totals, struct phase_total, i).name);
	g_array_free(rep->totals, TRUE);
	g_string_free(rep->plot_notes, TRUE);
	g_free(rep->plot_format);
	g_free(rep->scenario);
	g_free(rep->window);
	g_free(rep->command);
	g_free(rep);
}

struct gb_attempt_run {
	struct engine *e;
	struct machine *m;
	struct gb_attempt *a;
};

static void gb_attempt_thread(struct mm_ctx *ctx, void *arg)
{
	struct gb_attempt_run *r = arg;

	gb_yield_attempt(ctx, r->m, -1, r->a);
	/* Threads the last run left parked stay so. */
	engine_request_stop(r->e);
}

/* gb_yield_attempt on CPU 0 as a thread of e, after the run: false (and
 * why on stderr) if the engine could not run it. */
static bool run_gb_attempt(struct engine *e, struct machine *m, struct gb_attempt *a)
{
	struct gb_attempt_run r = { e, m, a };
	char *err = NULL;

	engine_spawn(e, 0, "gb_yield", gb_attempt_thread, &r, NULL);
	if (engine_run(e, 0, &err) < 0) {
		g_printerr("mmsim: the end-of-run 1 GiB attempt did not finish: %s\n", err);
		g_free(err);
		return false;
	}
	return true;
}

int report_close(struct report *rep, struct machine *m, struct engine *e,
		 const struct results_json *params, const struct results_json *results,
		 bool interrupted, bool gb_attempt)
{
	enum figure_needs have = e ? NEEDS_ENGINE : m ? NEEDS_MACHINE : NEEDS_RUN;
	GString *vmstat = m ? g_string_new(NULL) : NULL;
	struct run_sample s;
	bool phases, sampled;

	progress_done(&rep->progress);
	sample(rep, m, e, &s);
	end_phase(rep, s.now, &s);
	phases = write_phases(rep);
	if (e && rep->ts && s.now > rep->last_row_ns)
		write_row(rep, &s);
	if (m) {
		proc_vmstat(m, vmstat);
		write_machine_files(rep, m, e, &s, vmstat->str);
	}
	/* A run that sampled once has no line to draw. */
	sampled = rep->ts && s.now > 0;
	results_ts_close(rep->ts);
	rep->ts = NULL;
	if (e)
		write_engine_files(rep, m, e, &s, phases, sampled);
	if (rep->plot_notes->len)
		write_file(rep, "plots.txt", rep->plot_notes);
	/* Last: every other figure and file describes the run itself. */
	if (gb_attempt && e && !interrupted && run_gb_attempt(e, m, &s.attempt))
		have = NEEDS_ATTEMPT;
	write_summary(rep, m, have, &s, vmstat ? vmstat->str : NULL, params, results,
		      interrupted);
	if (vmstat)
		g_string_free(vmstat, TRUE);
	g_printerr("mmsim: results in %s\n", results_dir(rep->r));
	results_close(rep->r);
	report_free(rep);
	return write_failures ? -1 : 0;
}

void report_discard(struct report *rep)
{
	results_ts_close(rep->ts);
	results_discard(rep->r);
	report_free(rep);
}
