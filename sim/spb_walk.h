/* Superpageblocks read per zone->lock section (policy spb): the engine
 * gets each section's superpageblock work from the model (mm_env's
 * spb_section) and keeps it here by the call site that took the lock, as
 * histograms of visits (one superpageblock read on a zone-list walk) and
 * moves (one relinked on a zone list) per section; the results folder's
 * spb_walk file and the summary's spb_walk.* figures come from them. */
#ifndef MMSIM_SPB_WALK_H
#define MMSIM_SPB_WALK_H

#include "models/mmzone.h"

#include <glib.h>
#include <stdint.h>

/* Powers of two, as bpftrace's hist() has them: [0], [1], [2, 4), ...,
 * the last from 2^(SPB_WALK_BUCKETS - 2) up. */
#define SPB_WALK_BUCKETS 28

struct spb_walk_hist {
	uint64_t nr, sum, max;
	uint64_t bucket[SPB_WALK_BUCKETS];
};

struct spb_walk_site {
	struct spb_walk_hist visits;                /* each section, all walks */
	struct spb_walk_hist walk[NR_SPB_WALKS];    /* each section the walk read in */
	struct spb_walk_hist moves;                 /* each section */
};

struct spb_walk_stats {
	struct spb_walk_site site[NR_LOCK_SITES];
};

/* A section taken at site that did w. */
void spb_walk_record(struct spb_walk_stats *st, enum lock_site site, const struct mm_work *w);

/* The spb_walk file: per site, the sections and their visits and moves;
 * then per site that read or moved any, its walks and the histograms. */
void spb_walk_print(const struct spb_walk_stats *st, GString *out);

/* The summary's figures: counts, which a window takes the difference
 * of, and the whole run's maxima. */
struct spb_walk_totals {
	uint64_t sections, visits, moves, visits_max, moves_max;
	struct {
		uint64_t sections, visits, max;
	} walk[NR_SPB_WALKS];
	struct {
		uint64_t sections, visits, moves, visits_max, moves_max;
	} site[NR_LOCK_SITES];
};

void spb_walk_totals(const struct spb_walk_stats *st, struct spb_walk_totals *t);
/* The counts of t minus (plus) those of a; the maxima stay t's. */
void spb_walk_totals_sub(struct spb_walk_totals *t, const struct spb_walk_totals *a);
void spb_walk_totals_add(struct spb_walk_totals *t, const struct spb_walk_totals *a);

#endif
