#include "swap.h"

#include "pcp.h"

#include <glib.h>

static struct lruvec *pfn_lruvec(struct machine *m, pfn_t pfn)
{
	if (m->nr_nodes == 1)
		return &m->node_data[0].__lruvec;
	return &m->node_data[pfn_zone(m, pfn)->node].__lruvec;
}

/* folio_lruvec_relock_irq: keep the lock while the pages stay on one node. */
static struct lruvec *lruvec_relock(struct mm_ctx *ctx, struct lruvec *locked,
				    struct lruvec *want, enum lock_site site)
{
	if (locked == want)
		return locked;
	if (locked)
		spin_unlock(ctx, &locked->lru_lock);
	spin_lock(ctx, &want->lru_lock, site);
	return want;
}

/* Put n pages on their LRU or take them off, each under its node's
 * lru_lock, taken once per run of pages of one node. */
static void lru_move(struct mm_ctx *ctx, struct machine *m, const pfn_t *pages, unsigned n,
		     enum lock_site site)
{
	struct lruvec *locked = NULL;

	for (unsigned i = 0; i < n; i++) {
		locked = lruvec_relock(ctx, locked, pfn_lruvec(m, pages[i]), site);
		mm_charge(ctx, COST_LRU_MOVE, 1);
	}
	if (locked)
		spin_unlock(ctx, &locked->lru_lock);
}

/* lru_add, for each folio of the batch. */
static void folio_batch_move_lru(struct mm_ctx *ctx, struct machine *m, struct folio_batch *fb)
{
	lru_move(ctx, m, fb->folios, fb->nr, SITE_FOLIO_BATCH_MOVE_LRU);
	fb->nr = 0;
}

static struct folio_batch *cpu_lru_add(struct machine *m, unsigned cpu)
{
	if (!m->lru_add)
		m->lru_add = g_new0(struct folio_batch, m->nr_cpus);
	return &m->lru_add[cpu];
}

void folio_add_lru(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	struct folio_batch *fb = cpu_lru_add(m, ctx->cpu);

	fb->folios[fb->nr++] = pfn;
	if (fb->nr == FOLIO_BATCH_SIZE)
		folio_batch_move_lru(ctx, m, fb);
}

void lru_add_drain(struct mm_ctx *ctx, struct machine *m)
{
	struct folio_batch *fb = cpu_lru_add(m, ctx->cpu);

	if (fb->nr)
		folio_batch_move_lru(ctx, m, fb);
}

void folios_put_refs(struct mm_ctx *ctx, struct machine *m, const pfn_t *pages, unsigned n)
{
	lru_move(ctx, m, pages, n, SITE_FOLIOS_PUT);
	free_unref_folios(ctx, m, pages, n);
}

void lru_batches_destroy(struct machine *m)
{
	g_free(m->lru_add);
	m->lru_add = NULL;
}
