#include "lockstat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define LS_POINTS 4   /* LOCKSTAT_POINTS: call sites shown per class and list */
#define LS_NAME_W 40
#define LS_COL_W 14
#define LS_COLS 12
#define LS_WIDTH (LS_NAME_W + 1 + LS_COLS * (LS_COL_W + 1))

/* The kernel function each site stands for, as %pS prints it.  mmsim has
 * no kernel image: the offsets and sizes are fake (fixed per site so the
 * output is deterministic), as is the hashed pointer derived from them. */
static const struct {
	const char *fn;
	unsigned off, size;
} sites[NR_LOCK_SITES] = {
	[SITE_RMQUEUE_BULK] = { "rmqueue_bulk", 0x4c, 0x7a0 },
	[SITE_FREE_PCPPAGES_BULK] = { "free_pcppages_bulk", 0x5e, 0x3b0 },
	[SITE_FREE_ONE_PAGE] = { "free_one_page", 0x3a, 0x120 },
	[SITE_RMQUEUE_BUDDY] = { "rmqueue_buddy", 0x6b, 0x3a0 },
	[SITE_RMQUEUE_PCPLIST] = { "rmqueue_pcplist", 0x2d, 0x2c0 },
	[SITE_FREE_FROZEN_PAGES] = { "free_frozen_pages", 0x1c4, 0x540 },
	[SITE_DRAIN_PAGES_ZONE] = { "drain_pages_zone", 0x2b, 0x90 },
	[SITE_DECAY_PCP_HIGH] = { "decay_pcp_high", 0x3f, 0xb0 },
	[SITE_ISOLATE_FREEPAGES] = { "isolate_freepages_block", 0x9d, 0x4f0 },
	[SITE_SET_MIGRATETYPE_ISOLATE] = { "set_migratetype_isolate", 0x7e, 0x2a0 },
	[SITE_FOLIO_BATCH_MOVE_LRU] = { "folio_batch_move_lru", 0x8a, 0x1f0 },
	[SITE_FOLIOS_PUT] = { "folios_put_refs", 0xc3, 0x260 },
	[SITE_DO_ANONYMOUS_PAGE] = { "do_anonymous_page", 0x1e9, 0x6a0 },
	[SITE_ZAP_PTE_RANGE] = { "zap_pte_range", 0x10f, 0x9c0 },
	[SITE_LOCK_MM_AND_FIND_VMA] = { "lock_mm_and_find_vma", 0x2c, 0x1a0 },
	[SITE_VM_MMAP_PGOFF] = { "vm_mmap_pgoff", 0x8f, 0x1b0 },
	[SITE_VM_MUNMAP] = { "__vm_munmap", 0x7b, 0x150 },
	[SITE_EXIT_MMAP] = { "exit_mmap", 0xf2, 0x4d0 },
	[SITE_DUP_MMAP] = { "dup_mmap", 0x1b6, 0x7e0 },
	[SITE_WP_PAGE_COPY] = { "wp_page_copy", 0x21d, 0x830 },
	[SITE_OTHER] = { "mmsim_other_site", 0x0, 0x10 },
};

const char *lock_site_name(enum lock_site site)
{
	return sites[site].fn;
}

static void put_line(GString *out, char c, unsigned off, unsigned len)
{
	g_string_append_printf(out, "%*s", (int)off, "");
	for (unsigned i = 0; i < len; i++)
		g_string_append_c(out, c);
	g_string_append_c(out, '\n');
}

/* Microseconds with two decimals, rounded half up at 5 ns. */
static void put_time(GString *out, uint64_t ns)
{
	char buf[32];

	ns += 5;
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%02u", ns / 1000, (unsigned)(ns % 1000) / 10);
	g_string_append_printf(out, " %*s", LS_COL_W, buf);
}

static void put_lock_time(GString *out, const struct lock_time *lt)
{
	g_string_append_printf(out, "%*" PRIu64, LS_COL_W, lt->nr);
	put_time(out, lt->min);
	put_time(out, lt->max);
	put_time(out, lt->total);
	put_time(out, lt->nr ? lt->total / lt->nr : 0);
}

/* FNV-1a: a stable stand-in for the kernel's hashed %p. */
static uint32_t fake_pointer(enum lock_site site)
{
	char sym[64];
	uint32_t h = 2166136261u;

	snprintf(sym, sizeof(sym), "%s+0x%x", sites[site].fn, sites[site].off);
	for (const char *p = sym; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return h;
}

/* The kernel keeps the first LOCKSTAT_POINTS sites it sees; mmsim counts
 * every site and shows the busiest ones, ties in enum lock_site order. */
static unsigned put_points(GString *out, const char *name, const uint64_t counts[NR_LOCK_SITES])
{
	bool shown[NR_LOCK_SITES] = { false };
	size_t nl = strlen(name);
	unsigned n;

	for (n = 0; n < LS_POINTS; n++) {
		int best = -1;
		char ip[32];

		for (int s = 0; s < NR_LOCK_SITES; s++)
			if (!shown[s] && counts[s] && (best < 0 || counts[s] > counts[best]))
				best = s;
		if (best < 0)
			break;
		shown[best] = true;
		if (!n)
			put_line(out, '-', (unsigned)(LS_NAME_W - nl), (unsigned)nl);
		snprintf(ip, sizeof(ip), "[<%016" PRIx64 ">]", (uint64_t)fake_pointer(best));
		g_string_append_printf(out, "%*s %*" PRIu64 " %29s %s+0x%x/0x%x\n", LS_NAME_W, name,
				       LS_COL_W, counts[best], ip, sites[best].fn,
				       sites[best].off, sites[best].size);
	}
	return n;
}

/* seq_stats() for a write-only (spinlock) class. */
static void put_class(GString *out, const char *name, const struct lock_stats *st)
{
	if (st->hold.nr) {
		g_string_append_printf(out, "%*s:", LS_NAME_W, name);
		g_string_append_printf(out, "%*" PRIu64 " ", LS_COL_W, st->con_bounces);
		put_lock_time(out, &st->wait);
		g_string_append_printf(out, " %*" PRIu64 " ", LS_COL_W, st->acq_bounces);
		put_lock_time(out, &st->hold);
		g_string_append_c(out, '\n');
	}
	if (!st->wait.nr)
		return;
	put_points(out, name, st->contention_point);
	/* As the kernel: the dotted trailer only follows contending points. */
	if (put_points(out, name, st->contending_point)) {
		g_string_append_c(out, '\n');
		put_line(out, '.', 0, LS_WIDTH);
		g_string_append_c(out, '\n');
	}
}

void lockstat_print(const struct engine *e, GString *out)
{
	static const char *const titles[LS_COLS] = {
		"con-bounces", "contentions", "waittime-min", "waittime-max",
		"waittime-total", "waittime-avg", "acq-bounces", "acquisitions",
		"holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg",
	};
	struct lock_stats st[NR_LOCK_CLASSES];
	unsigned order[NR_LOCK_CLASSES];

	g_string_append(out, "lock_stat version 0.4\n");
	put_line(out, '-', 0, LS_WIDTH);
	g_string_append_printf(out, "%*s", LS_NAME_W, "class name");
	for (unsigned i = 0; i < LS_COLS; i++)
		g_string_append_printf(out, " %*s", LS_COL_W, titles[i]);
	g_string_append_c(out, '\n');
	put_line(out, '-', 0, LS_WIDTH);
	g_string_append_c(out, '\n');

	/* Insertion sort: stable, so ties keep class id order. */
	engine_all_class_stats(e, st);
	for (unsigned c = 0; c < NR_LOCK_CLASSES; c++) {
		unsigned i = c;

		for (; i > 0 && st[order[i - 1]].wait.nr < st[c].wait.nr; i--)
			order[i] = order[i - 1];
		order[i] = c;
	}
	for (unsigned i = 0; i < NR_LOCK_CLASSES; i++)
		put_class(out, lock_class_name((enum lock_class_id)order[i]), &st[order[i]]);
}
