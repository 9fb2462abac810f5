#include "page_owner.h"

#include "memmap.h"
#include "pbstat.h"

#include <glib.h>
#include <string.h>

struct aged_block {
	uint64_t age_ns;
	uint32_t pages;
};

static int by_age(gconstpointer a, gconstpointer b)
{
	const struct aged_block *x = a, *y = b;

	return (x->age_ns > y->age_ns) - (x->age_ns < y->age_ns);
}

static unsigned age_bucket(uint64_t age_ns)
{
	uint64_t us = age_ns / 1000;
	unsigned b = us ? (unsigned)g_bit_storage(us) - 1 : 0;

	return MIN(b, PAGE_AGE_BUCKETS - 1);
}

/* The age below which a share q of the pages are (blocks sorted by age). */
static uint64_t quantile(const GArray *blocks, uint64_t pages, double q)
{
	uint64_t seen = 0;

	for (guint i = 0; i < blocks->len; i++) {
		const struct aged_block *b = &g_array_index(blocks, struct aged_block, i);

		seen += b->pages;
		if ((double)seen >= q * (double)pages)
			return b->age_ns;
	}
	return 0;
}

void page_owner_ages(const struct machine *m, uint64_t now, int mt, struct page_ages *out)
{
	const struct memmap *mm = &m->mm;
	GArray *blocks = g_array_new(FALSE, FALSE, sizeof(struct aged_block));
	double sum = 0;

	g_assert(m->page_owner_ts);
	memset(out, 0, sizeof(*out));
	/* pbstat counts each pageblock's pages of the type: only those with
	 * some are walked, and a walk steps over whole blocks. */
	for (uint32_t pb = 0; pb < m->pbstat->nr_pageblocks; pb++) {
		pfn_t pfn = (pfn_t)pb << pageblock_order, end = pfn + pageblock_nr_pages;

		if (!m->pbstat->pb[pb][mt])
			continue;
		while (pfn < end && pfn < mm->nr_frames) {
			enum page_kind k = page_kind(mm, pfn);
			unsigned order = page_order(mm, pfn);
			uint64_t ts = m->page_owner_ts[pfn];

			if (k == PG_KIND_NONE) {
				pfn++;
				continue;
			}
			if (k == PG_KIND_ALLOC && (int)page_extra(mm, pfn) == mt) {
				uint32_t pages = 1u << order;

				if (!ts) {
					out->unrecorded += pages;
				} else {
					struct aged_block b = { now + 1 - MIN(ts, now + 1), pages };

					g_array_append_val(blocks, b);
					out->pages += pages;
					out->buckets[age_bucket(b.age_ns)] += pages;
					out->max_ns = MAX(out->max_ns, b.age_ns);
					sum += (double)b.age_ns * pages;
				}
			}
			pfn += 1u << order;
		}
		/* A block of more than a pageblock covers the next ones. */
		if (pfn > end)
			pb = (uint32_t)((pfn - 1) >> pageblock_order);
	}
	if (out->pages) {
		out->mean_ns = sum / (double)out->pages;
		g_array_sort(blocks, by_age);
		out->p10_ns = quantile(blocks, out->pages, 0.1);
		out->p50_ns = quantile(blocks, out->pages, 0.5);
		out->p90_ns = quantile(blocks, out->pages, 0.9);
	}
	g_array_free(blocks, TRUE);
}

void page_owner_ages_show(const struct machine *m, uint64_t now, GString *out)
{
	struct page_ages a[MIGRATE_PCPTYPES];
	unsigned last = 0;

	g_string_append_printf(out, "# page_owner: the pages allocated at %.3f ms by the type "
			       "they were allocated as, and their ages (ms)\n"
			       "# type pages unrecorded mean p10 p50 p90 max\n", (double)now / 1e6);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		page_owner_ages(m, now, mt, &a[mt]);
		g_string_append_printf(out, "%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				       " %.3f %.3f %.3f %.3f %.3f\n", migratetype_names[mt],
				       a[mt].pages, a[mt].unrecorded, a[mt].mean_ns / 1e6,
				       (double)a[mt].p10_ns / 1e6, (double)a[mt].p50_ns / 1e6,
				       (double)a[mt].p90_ns / 1e6, (double)a[mt].max_ns / 1e6);
		for (unsigned b = 0; b < PAGE_AGE_BUCKETS; b++)
			if (a[mt].buckets[b])
				last = MAX(last, b);
	}
	g_string_append(out, "# pages by age: from_us to_us");
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		g_string_append_printf(out, " %s", migratetype_names[mt]);
	g_string_append_c(out, '\n');
	for (unsigned b = 0; b <= last; b++) {
		g_string_append_printf(out, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
				       b ? (uint64_t)1 << b : 0, (uint64_t)2 << b);
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			g_string_append_printf(out, " %" G_GUINT64_FORMAT, a[mt].buckets[b]);
		g_string_append_c(out, '\n');
	}
}
