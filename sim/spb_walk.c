#include "spb_walk.h"

#include "models/superpageblock.h"
#include "sim/lockstat.h"

#include <inttypes.h>

static unsigned bucket_of(uint64_t v)
{
	unsigned b = v < 2 ? (unsigned)v : 64u - (unsigned)__builtin_clzll(v);

	return b < SPB_WALK_BUCKETS ? b : SPB_WALK_BUCKETS - 1;
}

static void hist_add_value(struct spb_walk_hist *h, uint64_t v)
{
	h->nr++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	h->bucket[bucket_of(v)]++;
}

void spb_walk_record(struct spb_walk_stats *st, enum lock_site site, const struct mm_work *w)
{
	struct spb_walk_site *s = &st->site[site];

	hist_add_value(&s->visits, mm_work_spb_visits(w));
	hist_add_value(&s->moves, w->spb_moves);
	for (int i = 0; i < NR_SPB_WALKS; i++)
		if (w->spb_visits[i])
			hist_add_value(&s->walk[i], w->spb_visits[i]);
}

static double mean(uint64_t sum, uint64_t nr)
{
	return nr ? (double)sum / (double)nr : 0;
}

/* 2^e as bpftrace writes a bucket bound: 512, 1K, 2M... */
static void put_pow2(GString *out, unsigned e)
{
	static const char suffix[] = " KMGT";

	g_string_append_printf(out, "%" PRIu64 "%.*s", (uint64_t)1 << (e % 10), e >= 10 ? 1 : 0,
			       &suffix[e / 10]);
}

/* bpftrace's print of a hist() map: its non-empty range of buckets, each
 * with its count and a bar scaled to the largest. */
static void put_hist(GString *out, const char *name, const struct spb_walk_hist *h)
{
	int lo = -1, hi = -1;
	uint64_t top = 0;
	GString *label = g_string_new(NULL);

	for (int b = 0; b < SPB_WALK_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		if (lo < 0)
			lo = b;
		hi = b;
		if (h->bucket[b] > top)
			top = h->bucket[b];
	}
	g_string_append_printf(out, "%s:\n", name);
	for (int b = lo; b >= 0 && b <= hi; b++) {
		unsigned bar = (unsigned)(h->bucket[b] * 52 / top);

		g_string_truncate(label, 0);
		if (b < 2) {
			g_string_append_printf(label, "[%d]", b);
		} else {
			g_string_append_c(label, '[');
			put_pow2(label, (unsigned)b - 1);
			g_string_append(label, ", ");
			if (b == SPB_WALK_BUCKETS - 1)
				g_string_append(label, "...");
			else
				put_pow2(label, (unsigned)b);
			g_string_append_c(label, ')');
		}
		g_string_append_printf(out, "%-16s%8" PRIu64 " |%.*s%*s|\n", label->str, h->bucket[b],
				       (int)bar, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
				       (int)(52 - bar), "");
	}
	g_string_append_c(out, '\n');
	g_string_free(label, TRUE);
}

void spb_walk_print(const struct spb_walk_stats *st, GString *out)
{
	g_string_append(out,
			"# spb_walk: superpageblocks read per zone->lock section, whole run\n"
			"# (policy spb; the section's call site as in lock_stat).  A visit is one\n"
			"# superpageblock read on a zone-list walk, a move one relinked on a\n"
			"# zone list (spb_update_list).  A walk's line counts the sections in\n"
			"# which it read a superpageblock; its histogram is of those sections.\n\n");
	g_string_append_printf(out, "%-24s %10s %14s %10s %14s %10s\n", "site", "sections",
			       "visits/sect", "max", "moves/sect", "max");
	for (int s = 0; s < NR_LOCK_SITES; s++) {
		const struct spb_walk_site *ws = &st->site[s];

		if (!ws->visits.nr)
			continue;
		g_string_append_printf(out, "%-24s %10" PRIu64 " %14.2f %10" PRIu64
				       " %14.2f %10" PRIu64 "\n",
				       lock_site_name((enum lock_site)s), ws->visits.nr,
				       mean(ws->visits.sum, ws->visits.nr), ws->visits.max,
				       mean(ws->moves.sum, ws->moves.nr), ws->moves.max);
	}
	for (int s = 0; s < NR_LOCK_SITES; s++) {
		const struct spb_walk_site *ws = &st->site[s];
		const char *site = lock_site_name((enum lock_site)s);
		char *name;

		if (!ws->visits.sum && !ws->moves.sum)
			continue;
		g_string_append_printf(out, "\n%s:\n%-24s %10s %14s %14s %10s\n", site, "  walk",
				       "sections", "visits", "visits/sect", "max");
		for (int i = 0; i < NR_SPB_WALKS; i++) {
			const struct spb_walk_hist *h = &ws->walk[i];

			if (h->nr)
				g_string_append_printf(out, "  %-22s %10" PRIu64 " %14" PRIu64
						       " %14.2f %10" PRIu64 "\n", spb_walk_names[i],
						       h->nr, h->sum, mean(h->sum, h->nr), h->max);
		}
		g_string_append_c(out, '\n');
		name = g_strdup_printf("@visits[%s]", site);
		put_hist(out, name, &ws->visits);
		g_free(name);
		for (int i = 0; i < NR_SPB_WALKS; i++) {
			if (!ws->walk[i].nr)
				continue;
			name = g_strdup_printf("@visits[%s, %s]", site, spb_walk_names[i]);
			put_hist(out, name, &ws->walk[i]);
			g_free(name);
		}
		name = g_strdup_printf("@moves[%s]", site);
		put_hist(out, name, &ws->moves);
		g_free(name);
	}
}

void spb_walk_totals(const struct spb_walk_stats *st, struct spb_walk_totals *t)
{
	*t = (struct spb_walk_totals){ 0 };
	for (int s = 0; s < NR_LOCK_SITES; s++) {
		const struct spb_walk_site *ws = &st->site[s];

		t->site[s].sections = ws->visits.nr;
		t->site[s].visits = ws->visits.sum;
		t->site[s].moves = ws->moves.sum;
		t->site[s].visits_max = ws->visits.max;
		t->site[s].moves_max = ws->moves.max;
		t->sections += ws->visits.nr;
		t->visits += ws->visits.sum;
		t->moves += ws->moves.sum;
		t->visits_max = MAX(t->visits_max, ws->visits.max);
		t->moves_max = MAX(t->moves_max, ws->moves.max);
		for (int i = 0; i < NR_SPB_WALKS; i++) {
			t->walk[i].sections += ws->walk[i].nr;
			t->walk[i].visits += ws->walk[i].sum;
			t->walk[i].max = MAX(t->walk[i].max, ws->walk[i].max);
		}
	}
}

/* The counts of t plus sign times those of a. */
static void totals_combine(struct spb_walk_totals *t, const struct spb_walk_totals *a, int sign)
{
	uint64_t k = (uint64_t)(int64_t)sign;

	t->sections += k * a->sections;
	t->visits += k * a->visits;
	t->moves += k * a->moves;
	for (int i = 0; i < NR_SPB_WALKS; i++) {
		t->walk[i].sections += k * a->walk[i].sections;
		t->walk[i].visits += k * a->walk[i].visits;
	}
	for (int s = 0; s < NR_LOCK_SITES; s++) {
		t->site[s].sections += k * a->site[s].sections;
		t->site[s].visits += k * a->site[s].visits;
		t->site[s].moves += k * a->site[s].moves;
	}
}

void spb_walk_totals_sub(struct spb_walk_totals *t, const struct spb_walk_totals *a)
{
	totals_combine(t, a, -1);
}

void spb_walk_totals_add(struct spb_walk_totals *t, const struct spb_walk_totals *a)
{
	totals_combine(t, a, 1);
}
