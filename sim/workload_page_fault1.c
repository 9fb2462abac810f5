/* page_fault1 in C (workload_page_fault1.h). */
#include "sim/workload_page_fault1.h"

#include "models/mm_space.h"
#include "sim/workload.h"

#include <glib.h>

struct page_fault1 {
	struct workload base;           /* first: the tasks' workload is page_fault1 */
	struct page_fault1_opts o;
	struct mm_struct *shared;       /* threads: the tasks' process */
	unsigned shared_users;          /* tasks that have not ended */
	struct workload_thread *tasks;
	struct page_fault1_stats stats;
};

/* An error the workload's own calls exclude: the model is wrong. */
static void check(int err, const char *what)
{
	if (err && err != -MM_ENOMEM)
		g_error("page_fault1: %s: error %d", what, err);
}

static void task(struct mm_ctx *ctx, void *arg)
{
	struct page_fault1 *pf = (struct page_fault1 *)((struct workload_thread *)arg)->w;
	const struct page_fault1_opts *o = &pf->o;
	struct mm_struct *mm = pf->shared;

	if (!mm) {
		engine_safepoint(ctx);
		mm = mm_alloc(ctx, o->m);
		if (!mm) {
			pf->stats.failed++;
			return;
		}
	}
	for (uint64_t n = 0; (!o->loops || n < o->loops) &&
	     (!o->until_ns || mm_now(ctx) < o->until_ns); n++) {
		uint64_t addr, faulted = 0;
		int err = 0;

		engine_safepoint(ctx);
		addr = vm_mmap(ctx, mm, o->size, PROT_READ | PROT_WRITE, &err);
		check(err, "mmap");
		if (err) {
			pf->stats.failed++;
			break;
		}
		engine_safepoint(ctx);
		err = touch_range(ctx, mm, addr, o->size, &faulted);
		check(err, "touch");
		pf->stats.faults += faulted;
		engine_safepoint(ctx);
		int unmapped = do_munmap(ctx, mm, addr, o->size);
		check(unmapped, "munmap");
		if (err) {
			pf->stats.failed++;
			break;
		}
		pf->stats.loops++;
	}
	if (!pf->shared || !--pf->shared_users) {
		engine_safepoint(ctx);
		exit_mmap(ctx, mm);
	}
	pf->stats.tasks_done++;
	pf->stats.end_ns = mm_now(ctx);
}

static void pf_destroy(struct workload *w)
{
	struct page_fault1 *pf = (struct page_fault1 *)w;

	g_free(pf->tasks);
	g_free(pf);
}

struct page_fault1 *page_fault1_start(struct engine *e, const struct page_fault1_opts *o,
				      char **err)
{
	struct page_fault1 *pf = g_new0(struct page_fault1, 1);

	g_assert(o->nr_cpus >= 1 && o->size > 0);
	workload_init(&pf->base, ENGINE_SHARES_STATE, pf_destroy, o->release, o->release_arg);
	pf->o = *o;
	pf->o.cpus = NULL;
	pf->tasks = g_new0(struct workload_thread, o->nr_cpus);
	if (o->threads) {
		struct mm_ctx ctx = mm_ctx_null(0);

		pf->shared = mm_alloc(&ctx, o->m);
		if (!pf->shared) {
			*err = g_strdup("no memory for the process");
			workload_put(&pf->base);
			return NULL;
		}
		/* Counted down by the tasks as they end: the last exits it. */
		pf->shared_users = o->nr_cpus;
	}
	return workload_spawn(e, &pf->base, o->cpus, o->nr_cpus, "page_fault1-", task, pf->tasks,
			    sizeof(*pf->tasks), err) ? pf : NULL;
}

const struct page_fault1_stats *page_fault1_stats(const struct page_fault1 *pf)
{
	return &pf->stats;
}

void page_fault1_put(struct page_fault1 *pf)
{
	workload_put(&pf->base);
}
