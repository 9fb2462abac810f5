/* A real machine's physical memory, as `./run capture` read it from
 * /proc/kpageflags and the zone files, put into a simulated machine:
 * every frame in the captured state (free blocks matching buddyinfo,
 * pageblock types matching pagetypeinfo, anonymous and file pages owned
 * by synthetic processes and files, the rest kernel memory).  No kernel
 * twin: tools/mm/page-types reads the same flags.  sim/snapshot_read.c
 * reads the capture's files; this file only takes their contents. */
#ifndef MMSIM_SNAPSHOT_H
#define MMSIM_SNAPSHOT_H

#include "mmzone.h"
#include "topology.h"

#include <glib.h>

/* What a frame of the capture is, from its flags (stable_page_flags). */
enum snap_class {
	SNAP_NONE,      /* no flag: a tail of a free block, or a kernel page */
	SNAP_BUDDY,     /* KPF_BUDDY: the head of a free block */
	SNAP_FREE,      /* part of a free block the import chose (head or tail) */
	SNAP_HOLE,      /* KPF_NOPAGE, outside every zone, or never initialised */
	SNAP_RESERVED,  /* KPF_RESERVED */
	SNAP_SLAB,      /* KPF_SLAB: a slab's first page */
	SNAP_SLAB_TAIL, /* KPF_SLAB with KPF_COMPOUND_TAIL: the rest of a slab */
	SNAP_PGTABLE,   /* KPF_PGTABLE */
	SNAP_ANON,      /* anonymous (KPF_ANON) */
	SNAP_ANON_THP,  /* a page of an anonymous THP (KPF_ANON with KPF_THP) */
	SNAP_FILE,      /* page cache on the LRU (KPF_LRU without KPF_ANON) */
	SNAP_HUGETLB,   /* KPF_HUGE */
	SNAP_KERNEL,    /* other flags without KPF_LRU: a kernel page */
	NR_SNAP_CLASSES
};

/* The kernel's KPF_* bit numbers (include/uapi/linux/kernel-page-flags.h). */
enum {
	KPF_SLAB = 7, KPF_BUDDY = 10, KPF_ANON = 12, KPF_COMPOUND_HEAD = 15,
	KPF_COMPOUND_TAIL = 16, KPF_HUGE = 17, KPF_NOPAGE = 20, KPF_THP = 22,
	KPF_OFFLINE = 23, KPF_PGTABLE = 26, KPF_LRU = 5, KPF_RESERVED = 32,
};

/* The synthetic files holding the captured page cache: one per node. */
#define SNAPSHOT_FILE_ID 0x0f000000u

/* The KPF_* bits of Linux 6.18 (0 to 26, 32 to 41): a capture from a
 * later kernel may set others, which the import names in a note. */
#define SNAP_KNOWN_FLAGS (((UINT64_C(1) << 27) - 1) | (((UINT64_C(1) << 10) - 1) << 32))

struct snap_zone {
	unsigned nid;
	enum zone_type idx;
	pfn_t start, spanned, present, managed;
	unsigned long free_pages;                   /* zoneinfo's nr_free_pages */
	unsigned long buddy[NR_PAGE_ORDERS];        /* buddyinfo */
	unsigned long blocks[MIGRATE_TYPES];        /* pagetypeinfo's "Number of blocks type" */
};

struct snapshot {
	unsigned nr_zones;
	struct snap_zone zones[MAX_NUMNODES * MAX_NR_ZONES];
	pfn_t nr_frames;            /* frames the flags cover (max_pfn) */
	uint8_t *cls;               /* enum snap_class per frame; a free head's order << 4 */
	pfn_t fed;                  /* frames classified so far */
	enum snap_class last_head;  /* a compound tail's class is its head's */
	/* What the import had to make up: counts by kind, for the notes. */
	unsigned long flags_unknown;        /* frames with a flag not in SNAP_KNOWN_FLAGS */
	uint64_t unknown_bits;
};

/* The frames' classes start unknown; frames are fed in pfn order.
 * snapshot_init: NULL, or why not (g_malloc'ed). */
char *snapshot_init(struct snapshot *s, pfn_t nr_frames);
void snapshot_destroy(struct snapshot *s);
/* The next n frames' kpageflags words. */
void snapshot_feed_flags(struct snapshot *s, const uint64_t *flags, size_t n);

/* The text files.  Each returns NULL, or why the file cannot be used
 * (g_malloc'ed, naming its line). */
char *snapshot_parse_zoneinfo(struct snapshot *s, const char *text);
char *snapshot_parse_buddyinfo(struct snapshot *s, const char *text);
char *snapshot_parse_pagetypeinfo(struct snapshot *s, const char *text);

/* The topology the capture needs: its nodes' spans from zoneinfo, laid
 * out as the model lays nodes out (node n's memory right after node
 * n-1's, the zones at the x86-64 limits).  t's CPUs are kept.  NULL, or
 * why the capture's layout cannot be modelled. */
char *snapshot_topology(const struct snapshot *s, struct topology *t);

/* Put machine m (made with machine_params.populate off, from
 * snapshot_topology's topology) in the captured state.  Notes on what was
 * made up or did not match go to notes, one line each.  NULL, or why not. */
char *snapshot_import(struct machine *m, struct snapshot *s, GString *notes);

/* During the import only: an allocation served from the captured frames
 * of its kind (an anonymous page, a page table, a file page), prepared as
 * prep_new_page prepares one; PFN_NONE to let the allocator serve it. */
pfn_t snapshot_pool_alloc(struct machine *m, unsigned order, int nid, uint32_t owner,
			  uint32_t offset);

#endif
