/* page_fault1 in C (workload_page_fault1.h). */
#include "sim/workload_page_fault1.h"

#include "models/mm_space.h"

#include <glib.h>
#include <stdio.h>

struct pf_task {
	struct page_fault1 *pf;
};

struct page_fault1 {
	struct page_fault1_opts o;
	struct mm_struct *shared;       /* threads: the tasks' process */
	unsigned shared_users;          /* tasks that have not ended */
	struct pf_task *tasks;
	struct page_fault1_stats stats;
	unsigned refs;
};

/* An error the workload's own calls exclude: the model is wrong. */
static void check(int err, const char *what)
{
	if (err && err != -MM_ENOMEM)
		g_error("page_fault1: %s: error %d", what, err);
}

static void task(struct mm_ctx *ctx, void *arg)
{
	struct page_fault1 *pf = ((struct pf_task *)arg)->pf;
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
		check(do_munmap(ctx, mm, addr, o->size), "munmap");
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

static void task_exit(void *arg)
{
	page_fault1_put(((struct pf_task *)arg)->pf);
}

struct page_fault1 *page_fault1_start(struct engine *e, const struct page_fault1_opts *o,
				      char **err)
{
	struct page_fault1 *pf = g_new0(struct page_fault1, 1);

	g_assert(o->nr_cpus >= 1 && o->size > 0);
	pf->o = *o;
	pf->o.cpus = NULL;
	pf->tasks = g_new0(struct pf_task, o->nr_cpus);
	pf->refs = 1;
	if (o->threads) {
		struct mm_ctx ctx = mm_ctx_null(0);

		pf->shared = mm_alloc(&ctx, o->m);
		if (!pf->shared) {
			*err = g_strdup("no memory for the process");
			page_fault1_put(pf);
			return NULL;
		}
	}
	for (unsigned i = 0; i < o->nr_cpus; i++) {
		char name[32];

		*err = engine_spawn_check(e);
		if (*err) {
			page_fault1_put(pf);
			return NULL;
		}
		snprintf(name, sizeof(name), "page_fault1-%u", o->cpus[i]);
		pf->tasks[i].pf = pf;
		pf->refs++;
		pf->shared_users += o->threads;
		engine_spawn(e, o->cpus[i], name, task, &pf->tasks[i], task_exit);
	}
	return pf;
}

const struct page_fault1_stats *page_fault1_stats(const struct page_fault1 *pf)
{
	return &pf->stats;
}

void page_fault1_put(struct page_fault1 *pf)
{
	if (--pf->refs)
		return;
	if (pf->o.release)
		pf->o.release(pf->o.release_arg);
	g_free(pf->tasks);
	g_free(pf);
}
