/* page_owner (mm/page_owner.c, boot parameter page_owner=on): when the
 * allocation of each block happened, and from it the age distribution of
 * the pages allocated now.  The kernel keeps ts_nsec in page_ext for every
 * page; here one 64-bit word per frame, used at block heads only, and only
 * when the machine is made with page_owner on (8 bytes per frame, touched
 * where blocks are allocated), so the hot paths pay one NULL test when it
 * is off.  A record is the allocation time + 1; 0 is no record (boot
 * reservations and a capture's frames, which the page allocator never
 * handed out in this run). */
#ifndef MMSIM_PAGE_OWNER_H
#define MMSIM_PAGE_OWNER_H

#include "mm_env.h"
#include "mmzone.h"

#include <glib.h>
#include <stdint.h>

/* __set_page_owner() from post_alloc_hook(): the block at pfn was
 * allocated now. */
static inline void set_page_owner(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	if (m->page_owner_ts)
		m->page_owner_ts[pfn] = mm_now(ctx) + 1;
}

/* folio_copy_owner(): migration's new block keeps the old one's record. */
static inline void folio_copy_owner(struct machine *m, pfn_t dst, pfn_t src)
{
	if (m->page_owner_ts)
		m->page_owner_ts[dst] = m->page_owner_ts[src];
}

/* split_page_owner(): every new head of the split block at pfn keeps its
 * record. */
static inline void split_page_owner(struct machine *m, pfn_t pfn, unsigned order,
				    unsigned new_order)
{
	if (!m->page_owner_ts)
		return;
	for (pfn_t p = pfn + (1u << new_order); p < pfn + (1u << order); p += 1u << new_order)
		m->page_owner_ts[p] = m->page_owner_ts[pfn];
}

/* Pages allocated as one migratetype, by age: weighted by pages, ages in
 * ns at now.  buckets[b] holds the pages of age in [2^b, 2^(b+1)) us
 * (bucket 0 also those younger than 1 us). */
#define PAGE_AGE_BUCKETS 48
struct page_ages {
	uint64_t pages;                     /* allocated pages with a record */
	uint64_t unrecorded;                /* allocated pages without one */
	double mean_ns;
	uint64_t p10_ns, p50_ns, p90_ns;    /* the pages' age quantiles */
	uint64_t max_ns;
	uint64_t buckets[PAGE_AGE_BUCKETS];
};

/* The allocated pages of migratetype mt, by age at now.  The machine must
 * have been made with page_owner on. */
void page_owner_ages(const struct machine *m, uint64_t now, int mt, struct page_ages *out);
/* The results folder's page_owner_ages: each mergeable type's figures,
 * then its pages by age bucket. */
void page_owner_ages_show(const struct machine *m, uint64_t now, GString *out);

#endif
