/* Building and tearing down a simulated machine: node and zone layout as
 * x86-64 lays it out, the memmap, boot-time freeing into the buddy, and
 * watermarks. */
#ifndef MMSIM_MACHINE_H
#define MMSIM_MACHINE_H

#include "mmzone.h"

struct machine_params {
	int min_free_kbytes;            /* -1: computed as the kernel does */
	int watermark_scale_factor;     /* vm.watermark_scale_factor, default 10 */
	int watermark_boost_factor;     /* vm.watermark_boost_factor, default 15000 */
	enum thp_enabled thp;           /* 2 MiB THP; not never: khugepaged raises min_free_kbytes */
	struct thp_params thp_opts;     /* 1 GiB THP, defrag, deposit, PUD split */
	enum mm_policy policy;          /* allocator variant */
	bool spb_walk_indexed;          /* policy spb's what-if walk (struct machine) */
	int percpu_pagelist_high_fraction;  /* vm.percpu_pagelist_high_fraction, 0 = auto */
	/* A kernel before PCP high auto-tuning (6.7): every pageset's high
	 * and batch fixed at these (both or neither; 0: sized and tuned as
	 * today's kernel does). */
	int pcp_high, pcp_batch;
	unsigned cpu_data_slice_kib;    /* data cache per CPU (LLC / sharing CPUs) */
	/* Bytes of physical address space left above each node's memory for
	 * online_memory_block(); the memmap covers it.  0: no hotplug. */
	uint64_t hotplug_reserve;
	/* Share (0..1) of anonymous pages long-term pinned when faulted, as
	 * RDMA or vfio pin them; which ones follows from pin_seed. */
	double pinned_share;
	uint64_t pin_seed;
	int compaction_proactiveness;   /* vm.compaction_proactiveness, default 20 */
	/* ns between the vmstat worker's passes (sysctl_stat_interval, HZ;
	 * 0: no worker), and between kswapd's, kcompactd's and kevacuate's
	 * checks for work, the engine having no wait queues (0: no kswapd). */
	uint64_t vmstat_interval, kswapd_interval;
	/* Weighted interleave's node weights (1 to 255; 0: the default, 1). */
	uint8_t iw_table[MAX_NUMNODES];
	struct numab_params numab;
	/* The boot-time reservations of models/memblock.h (default on); off
	 * for tests that work figures out by hand on a wholly free machine. */
	bool boot_reserve;
	/* Free the memory to the buddy at boot (default on); off, every frame
	 * is left for models/snapshot.c to place, managed counts 0. */
	bool populate;
	bool vmap_stack;                /* CONFIG_VMAP_STACK (default on) */
	bool page_owner;                /* page_owner=on (models/page_owner.h; default off) */
	/* A time-compressed scenario's compression: the kernel's own periods
	 * and timeouts (machine_period_ns) are divided by it.  1: as the
	 * kernel has them. */
	double time_scale;
	/* The memory the size check allows and what bounds it (sim/host.c's
	 * host_memory: the cgroup limit if lower); 0: host_memory_bytes. */
	uint64_t host_bytes;
	const char *host_what;
};

void machine_params_default(struct machine_params *p);
/* Physical memory of this host, for the size check. */
uint64_t host_memory_bytes(void);
/* NULL on error, with *err set to a g_malloc'ed message. */
struct machine *machine_create(const struct topology *t, const struct machine_params *p,
			       char **err);
void machine_destroy(struct machine *m);
unsigned long machine_free_pages(const struct machine *m);
unsigned long machine_managed_pages(const struct machine *m);
/* Pages cached on every per-CPU pageset of the machine. */
unsigned long machine_pcp_pages(struct machine *m);
/* online_pages(): add bytes (a multiple of the 128 MiB section) of memory
 * at the top of node nid's Movable zone if it has one, else of its Normal
 * zone (which must be populated), inside the node's hotplug reserve.  0,
 * or why it was refused. */
enum online_refusal {
	ONLINE_EINVAL = -1,     /* no such node, or not a multiple of a section */
	ONLINE_NO_ZONE = -2,    /* neither a Movable nor a Normal zone to grow */
	ONLINE_NO_ROOM = -3,    /* the node's hotplug reserve is used up */
};
struct mm_ctx;
int online_memory_block(struct mm_ctx *ctx, struct machine *m, unsigned nid, uint64_t bytes);
/* Parse a policy name; -1 if unknown. */
int mm_policy_parse(const char *name);

#endif
