/* The options of mmsim.machine{} in one table: each one's name, kind,
 * range, default and the line docs/API.md gives it ("Options valid with
 * either form", which `mmsim --machine-options` prints and
 * tests/machine_options.sh holds against the file).  The plain kinds are
 * read by one loop; OPT_OWN ones by their own code in lmmsim.c. */
#include "laux.h"
#include "lmmsimlib.h"

#include "models/huge_memory.h"
#include "models/machine.h"

#include <limits.h>
#include <stddef.h>

#define ARG(field) .offset = offsetof(struct machine_args, field), \
		   .size = sizeof(((struct machine_args *)0)->field)
#define NO_ARG .offset = 0, .size = 0

static const char *const spb_walk_names[] = { "patch", "indexed" };

static const struct machine_option options[] = {
	/* The topology (documented with the machine's forms, not in the table). */
	{ "preset", OPT_OWN, NO_ARG },
	{ "sockets", OPT_OWN, NO_ARG },
	{ "nodes_per_socket", OPT_OWN, NO_ARG },
	{ "cpus_per_socket", OPT_OWN, NO_ARG },
	{ "mem_per_node", OPT_OWN, NO_ARG },
	{ "node_mem", OPT_OWN, NO_ARG },
	{ "movable_per_node", OPT_OWN, NO_ARG },
	{ "min_free_kbytes", OPT_SYSCTL, ARG(p.min_free_kbytes),
	  .def = "computed",
	  .doc = "set `vm.min_free_kbytes` after boot, as a sysctl write does (0 to 2^31-1, the "
		  "kernel's range)" },
	{ "watermark_scale_factor", OPT_SYSCTL, ARG(p.watermark_scale_factor),
	  .def = "10",
	  .doc = "`vm.watermark_scale_factor` (1 to 3000)" },
	{ "watermark_boost_factor", OPT_SYSCTL, ARG(p.watermark_boost_factor),
	  .def = "15000",
	  .doc = "`vm.watermark_boost_factor` (0 to 2^31-1)" },
	{ "thp", OPT_OWN, NO_ARG,
	  .def = "`\"madvise\"`",
	  .doc = "transparent huge pages per size, as "
		  "`/sys/kernel/mm/transparent_hugepage/hugepages-<size>kB/enabled`: "
		  "`\"always\"`, `\"madvise\"` or `\"never\"`. A string sets 2 MiB THPs; a table "
		  "sets either size: `{ [\"2048kB\"] = \"always\", [\"1048576kB\"] = \"madvise\" "
		  "}`. 1 GiB THPs default to `\"never\"` (the RFC's default). Under `\"madvise\"` "
		  "only `p:madvise(.., \"hugepage\")` ranges get THPs, so the default changes no "
		  "4 KiB figure; 2 MiB not `\"never\"` also raises `min_free_kbytes` at boot as "
		  "khugepaged does. `true` and `false`, the old boolean option, still mean "
		  "`\"madvise\"` and `\"never\"`. See \"Transparent huge pages\" under "
		  "`m:process()`" },
	{ "thp_defrag", OPT_CHOICE, ARG(p.thp_opts.defrag),
	  .choices = thp_defrag_names, .nr_choices = NR_THP_DEFRAG,
	  .def = "`\"madvise\"`",
	  .doc = "`transparent_hugepage/defrag`: `\"always\"`, `\"defer\"`, `\"defer+madvise\"`, "
		  "`\"madvise\"` or `\"never\"`: the GFP flags of a THP fault's allocation, both "
		  "sizes: whether it may reclaim and compact (2 MiB), or migrate pages out of a "
		  "range (1 GiB: without direct reclaim only an already free gigabyte is taken), "
		  "and whether a THP may come from another node than the one the policy starts "
		  "from (only with direct reclaim)" },
	{ "thp_deposit", OPT_CHOICE, ARG(p.thp_opts.deposit),
	  .choices = thp_deposit_names, .nr_choices = NR_THP_DEPOSIT,
	  .def = "`\"full\"`",
	  .doc = "page table a THP deposits for a later split (a knob of the 1 GiB THP RFC's "
		  "open question, not the kernel's): `\"full\"` (a 2 MiB THP one PTE table, a 1 "
		  "GiB THP one PMD table and 512 PTE tables, about 2 MiB), `\"pmd_only\"` (a 1 "
		  "GiB THP only its PMD table; 2 MiB as full) or `\"none\"` (a split allocates "
		  "its tables, and fails when it cannot)" },
	{ "pud_split", OPT_CHOICE, ARG(p.thp_opts.pud_split),
	  .choices = pud_split_names, .nr_choices = NR_PUD_SPLIT,
	  .def = "`\"pte\"`",
	  .doc = "how a 1 GiB THP mapping splits (the RFC's other question): `\"pte\"` to "
		  "262,144 PTEs, or `\"pmd\"` to 512 PMD mappings, of which only those an edge "
		  "cuts split further" },
	{ "gb_thp_migration", OPT_CHOICE, ARG(p.thp_opts.gb_migration),
	  .choices = gb_thp_migration_names, .nr_choices = NR_GB_THP_MIGRATION,
	  .def = "`\"block\"`",
	  .doc = "what a migration does with a 1 GiB THP (the session's third question), for "
		  "every caller alike (a contiguous allocation: `m:alloc_gigantic`, a 1 GiB THP "
		  "fault, spb's contiguous paths; memory offline; `p:move_pages`, "
		  "`p:migrate_pages`; NUMA balancing): `\"block\"`, it never moves (the range is "
		  "busy, its pages count busy and in `pgmigrate_fail`, `thp_migration_fail` +1, "
		  "no hinting fault marks it); `\"split\"`, it is split to 4 KiB pages (mappings "
		  "to PTEs, then the folio), which migrate; `\"whole\"`, it moves as one folio to "
		  "a gigabyte the contiguous allocator finds on the target node (copying 262,144 "
		  "pages; the PUD mapping is kept), and stays whole where it is when there is "
		  "none (`thp_migration_fail`). A 2 MiB THP always migrates whole to an order-9 "
		  "page, and is split and migrated in 4 KiB pages when none can be had (except by "
		  "NUMA balancing, which leaves it), as the kernel does" },
	{ "policy", OPT_CHOICE, ARG(p.policy),
	  .choices = mm_policy_names, .nr_choices = NR_MM_POLICIES,
	  .def = "`\"upstream\"`",
	  .doc = "allocator variant: `\"upstream\"` (the kernel before the per-cpu pageblock "
		  "buddy), `\"pcp_buddy\"` (commit 0352d5f0, the per-cpu pageblock buddy) or "
		  "`\"spb\"` (the superpageblock series tip 832e6bcd, on top of pcp_buddy); see "
		  "docs/MODEL.md" },
	{ "spb_walk", OPT_CHOICE, ARG(p.spb_walk_indexed),
	  .choices = spb_walk_names, .nr_choices = 2,
	  .def = "`\"patch\"`",
	  .doc = "under policy `spb`, how the superpageblock list walks read: `\"patch\"`, as "
		  "the series does (every superpageblock of a bucket, those without a free page "
		  "too); `\"indexed\"`, a what-if in which each bucket keeps a second list of its "
		  "superpageblocks with a free page, so that `__rmqueue_smallest`'s passes, "
		  "`sb_preferred_for_movable` and the fallback search read only those, priced as "
		  "a list move whenever a superpageblock joins or leaves that list or is relinked "
		  "with a free page. It changes what the walks read (`spb_walk` file, "
		  "`spb_walk.*`) and nothing they find: the same pages are handed out. Any other "
		  "policy with `\"indexed\"` is an error (docs/MODEL.md, section 7)" },
	{ "percpu_pagelist_high_fraction", OPT_SYSCTL, ARG(p.percpu_pagelist_high_fraction),
	  .def = "0",
	  .doc = "`vm.percpu_pagelist_high_fraction` (0: automatic high tuning; else 8 to "
		  "2^31-1)" },
	{ "pcp_high", OPT_INT, ARG(p.pcp_high),
	  .min = 0, .max = INT_MAX,
	  .def = "0",
	  .doc = "a kernel before PCP high auto-tuning (6.7): every CPU's pageset in every zone "
		  "gets this fixed `high` (pages) and `pcp_batch`'s `batch`, and nothing tunes "
		  "`high` (`high_min = high_max`; `vm.percpu_pagelist_high_fraction` written later "
		  "is then ignored). Both or neither; from `pcp_batch` to 2^31-1; excludes "
		  "`percpu_pagelist_high_fraction`. E.g. `pcp_high = 186, pcp_batch = 31`, the "
		  "`high: 186 batch: 31` of /proc/zoneinfo on kernels before 5.14 (high was 6 × "
		  "batch). Today's refill scaling (`alloc_factor`, within `high - count - batch`) "
		  "still runs" },
	/* Its bound keeps the free side's scaling (batch << CONFIG_PCP_BATCH_SCALE_MAX) in an int. */
	{ "pcp_batch", OPT_INT, ARG(p.pcp_batch),
	  .min = 0, .max = 1 << 20,
	  .def = "0",
	  .doc = "the fixed pagesets' `batch` (with `pcp_high`): 1 to 1,048,576" },
	{ "compaction_proactiveness", OPT_SYSCTL, ARG(p.compaction_proactiveness),
	  .def = "20",
	  .doc = "`vm.compaction_proactiveness` (0 to 100): each node's kcompactd compacts the "
		  "node every 500 ms while its fragmentation score is above 100 minus this (plus "
		  "a leeway of up to 10); 0 turns proactive compaction off" },
	{ "time_scale", OPT_NUMBER, ARG(p.time_scale),
	  .min = 1, .max = 1e9,
	  .def = "1",
	  .doc = "a time-compressed scenario's compression (1 to 1e9): the kernel's own periods "
		  "and timeouts are divided by it, so its daemons run as often against the "
		  "scenario's compressed rates as the kernel's do against real ones. Divided: "
		  "kcompactd's proactive timeout (500 ms) and its 64-fold back-off, the vmstat "
		  "worker's interval (`vmstat_interval`, whatever its value), the superpageblock "
		  "defrag worker's 5 s no-progress back-off, NUMA balancing's scan delay and scan "
		  "periods, `mmsim.khugepaged`'s scan sleep. Not divided: `kswapd_interval` and "
		  "kevacuate's polls (the model's stand-in for wait queues, not kernel periods), "
		  "compaction's deferral (counted in attempts, not time), costs and every rate a "
		  "scenario sets. `m:info().time_scale` gives it; the summary has "
		  "`machine.time_scale`, and titles say \"time-compressed Nx\" (or \"kernel "
		  "periods / N\" in a scenario that does not call `mmsim.time_compressed`). "
		  "`aging.lua` and `gigantic.lua` set 1000 (their rates are about 1000 times a "
		  "real machine's; aging at `-D pace=real` keeps 1), `server-day.lua` 500" },
	{ "quantum_ns", OPT_TIME, ARG(quantum_ns),
	  .def = "1000",
	  .doc = "how far a simulated thread may run ahead of the clock before it settles; 0 is "
		  "exact and slow" },
	{ "horizon_ns", OPT_TIME, ARG(horizon_ns),
	  .def = "10000",
	  .doc = "how far a thread's own work may run ahead when nothing observes it "
		  "(sim/engine.h): outside shared locks, in a C workload whose threads share "
		  "nothing else (the jemalloc churn), and in any thread's calls of many page "
		  "operations (a range of faults, an munmap, an madvise, a fork, an exit: "
		  "`p:touch`, `p:munmap`, `p:madvise`, `p:fork`, `p:exit`); at least the quantum; "
		  "fast-forward (`m:run{timing = false}`) runs every thread 100 µs ahead, or this "
		  "if more" },
	{ "engine_hints", OPT_BOOL, ARG(engine_hints),
	  .def = "`true`",
	  .doc = "`false`: the engine ignores what it is told of the threads (what each "
		  "workload kind's threads share, which model calls are bulk page work), so "
		  "every thread settles at the quantum, and the jemalloc churn touches again the "
		  "pages it knows present: the reference run for the hints, byte-identical where "
		  "no two threads wait for one lock, zone->lock's wait within 3% where they do "
		  "(docs/FIDELITY.md)" },
	{ "costs", OPT_OWN, NO_ARG,
	  .def = "see below",
	  .doc = "`{name = ns, ...}` overrides of the cost model" },
	{ "vmstat_interval", OPT_TIME, ARG(p.vmstat_interval),
	  .def = "`\"1s\"`",
	  .doc = "period of each CPU's vmstat worker (`decay_pcp_high`); 0 turns it off" },
	{ "kswapd_interval", OPT_TIME, ARG(p.kswapd_interval),
	  .def = "`\"1ms\"`",
	  .doc = "how often each node's kswapd checks whether the allocator woke it "
		  "(`wakeup_kswapd`), and its kcompactd whether kswapd woke it: the most a "
		  "wake-up waits; 0 turns kswapd off (kcompactd then runs only every 500 ms)" },
	{ "hotplug_reserve", OPT_SIZE, ARG(p.hotplug_reserve),
	  .def = "0",
	  .doc = "address space left above each node for `m:online_memory`" },
	{ "vmap_stack", OPT_BOOL, ARG(p.vmap_stack),
	  .def = "`true`",
	  .doc = "`CONFIG_VMAP_STACK`, as Debian's kernels have it: a thread's 16 KiB kernel "
		  "stack is four order-0 pages through vmalloc (and a `vmap_area` object); "
		  "`false`: one order-2 block (with the slab model on, see \"The slab model\")" },
	{ "boot_reserve", OPT_BOOL, ARG(p.boot_reserve),
	  .def = "`true`",
	  .doc = "the boot-time reservations a real machine never frees: the first MiB and the "
		  "kernel image on node 0, each node's memmap (1/64 of it) at its top and its "
		  "CPUs' per-CPU areas below (docs/MODEL.md, section 6); they are present but not "
		  "managed pages. `false` gives a wholly free machine, for figures worked out by "
		  "hand. A node too small for them is an error" },
	{ "page_owner", OPT_BOOL, ARG(p.page_owner),
	  .def = "`false`",
	  .doc = "the kernel's `page_owner=on`: each block's allocation time is recorded (8 "
		  "bytes per frame allocated), for `m:page_owner_ages` and the results folder's "
		  "`page_owner_ages`; migration and splits keep a block's time, as the kernel's "
		  "records do" },
	{ "snapshot", OPT_OWN, NO_ARG,
	  .def = "none",
	  .doc = "the path of a capture made by `./run capture` (a real machine's "
		  "/proc/kpageflags and zone files): the machine gets its nodes, zones, CPUs and "
		  "sizes, every frame in the captured state (buddyinfo and pagetypeinfo's block "
		  "counts exactly the captured ones), and its THP and vm settings unless the "
		  "script gives them (docs/GUIDE.md, \"Starting from a real machine\"). With it, "
		  "`preset`, the shape fields, `node_mem`, `movable_per_node` and "
		  "`hotplug_reserve` are errors; `boot_reserve` is off (the captured reservations "
		  "stand in). A capture that cannot be read is an error naming the file and what "
		  "is wrong; what the import made up is noted on stderr" },
	{ "settings", OPT_OWN, NO_ARG,
	  .def = "none",
	  .doc = "the path of a capture (`./run capture --settings`, which needs no root, or a "
		  "whole one): the machine takes the captured host's THP settings (2 MiB "
		  "`enabled` and `defrag`) and the vm sysctls the model has (`min_free_kbytes`, "
		  "`watermark_scale_factor`, `watermark_boost_factor`, "
		  "`percpu_pagelist_high_fraction`, `compaction_proactiveness`), not its memory; "
		  "the script's own fields override them. For a replay of a trace taken on that "
		  "host. An error with `snapshot`" },
	{ "memory_block_size", OPT_SIZE, ARG(memory_block_size),
	  .def = "128 MiB, 2 GiB from 64 GiB of memory",
	  .doc = "the hotplug unit" },
	{ "sample_interval", OPT_TIME, ARG(sample_interval),
	  .def = "`\"1ms\"`",
	  .doc = "period of the rows of the results folder's `timeseries.csv`; 0 turns it off" },
	{ "numa_balancing", OPT_BOOL, ARG(p.numab.enabled),
	  .def = "`false`",
	  .doc = "automatic NUMA balancing (`kernel.numa_balancing`): see \"NUMA balancing\" "
		  "under `m:process()`" },
	{ "numa_balancing_scan_delay_ms", OPT_INT, ARG(p.numab.scan_delay_ms),
	  .min = 0, .max = INT_MAX,
	  .def = "1000",
	  .doc = "time from a process's first access to its first scan" },
	{ "numa_balancing_scan_period_min_ms", OPT_INT, ARG(p.numab.scan_period_min_ms),
	  .min = 0, .max = INT_MAX,
	  .def = "1000",
	  .doc = "the least time to scan the whole address space" },
	{ "numa_balancing_scan_period_max_ms", OPT_INT, ARG(p.numab.scan_period_max_ms),
	  .min = 0, .max = INT_MAX, .min_of = "numa_balancing_scan_period_min_ms",
	  .def = "60000",
	  .doc = "the most time to scan the whole address space (at least "
		  "`numa_balancing_scan_period_min_ms`)" },
	{ "numa_balancing_scan_size_mb", OPT_INT, ARG(p.numab.scan_size_mb),
	  .min = 1, .max = INT_MAX,
	  .def = "256",
	  .doc = "the address space marked per scan" },
	{ "numa_balancing_rate_limit_mbps", OPT_INT, ARG(p.numab.rate_limit_mbps),
	  .min = 0, .max = INT_MAX,
	  .def = "65536",
	  .doc = "at most this many MB moved to one node per second (the kernel's "
		  "`numa_balancing_promote_rate_limit_MBps`, which there limits memory-tiering "
		  "promotions only)" },
	{ "weighted_interleave", OPT_OWN, NO_ARG,
	  .def = "1 per node",
	  .doc = "the weights of the `weighted_interleave` memory policy, one per node (1 to "
		  "255), as `/sys/kernel/mm/mempolicy/weighted_interleave/nodeN`" },
	{ "gb_yield_attempt", OPT_BOOL, ARG(gb_yield_attempt),
	  .def = "`false`",
	  .doc = "at the end of the run (after every other figure and file is taken), take as "
		  "many 1 GiB pages as `m:gb_yield{attempt = true}` does on a thread of CPU 0, "
		  "give them back, and add `gb_yield.obtained`, `gb_yield.obtain_migrated` (pages "
		  "migrated for every range tried) and `gb_yield.obtain_time_s` (that thread's "
		  "simulated time) to the summary; not for a run that never ran the engine or was "
		  "interrupted" },
	{ "pinned_share", OPT_NUMBER, ARG(p.pinned_share),
	  .min = 0, .max = 1,
	  .def = "0",
	  .doc = "share (0 to 1) of anonymous pages given a long-term pin (RDMA, vfio) when "
		  "faulted; a pinned page cannot migrate. Which pages follows from the run's "
		  "`--seed` (a hash of seed, pid and virtual page), so the same seed pins the "
		  "same pages whatever the order faults run in. Pages in ZONE_MOVABLE are not "
		  "pinned (the kernel moves them out before a long-term pin). The pin lasts until "
		  "the page is unmapped" },
	{ NULL, OPT_OWN, NO_ARG },
};

const struct machine_option *machine_options(void)
{
	return options;
}

static const struct machine_option *machine_option_find(const char *name)
{
	for (const struct machine_option *o = options; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

void machine_options_check_known(lua_State *L, int t)
{
	const char *keys[G_N_ELEMENTS(options)];

	for (size_t i = 0; i < G_N_ELEMENTS(options); i++)
		keys[i] = options[i].name;
	check_known_keys(L, t, keys, "mmsim.machine");
}

static void store(struct machine_args *a, const struct machine_option *o, const void *v)
{
	memcpy((char *)a + o->offset, v, o->size);
}

int check_option_choice(lua_State *L, int idx, const char *what, const char *const *names,
			int n)
{
	const char *v = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	int i = v ? thp_option_parse(names, n, v) : -1;
	luaL_Buffer b;

	if (i >= 0)
		return i;
	luaL_buffinit(L, &b);
	for (int k = 0; k < n; k++) {
		luaL_addstring(&b, k ? ", \"" : "\"");
		luaL_addstring(&b, names[k]);
		luaL_addchar(&b, '"');
	}
	luaL_pushresult(&b);
	return luaL_error(L, "machine field '%s': %s is not a valid value (valid: %s)", what,
			  v ? v : luaL_typename(L, idx), lua_tostring(L, -1));
}

static void read_option(lua_State *L, int t, const struct machine_option *o,
			struct machine_args *a)
{
	int32_t i32;
	uint64_t u64;
	double d;
	bool b;

	switch (o->kind) {
	case OPT_SYSCTL:
		i32 = sysctl_field(L, t, o->name, 0);
		store(a, o, &i32);
		return;
	case OPT_INT: {
		lua_Integer min = o->min;

		if (o->min_of) {
			memcpy(&i32, (char *)a + machine_option_find(o->min_of)->offset, sizeof(i32));
			min = i32;
		}
		i32 = (int32_t)opt_range_field(L, t, o->name, 0, min, (lua_Integer)o->max);
		store(a, o, &i32);
		return;
	}
	case OPT_NUMBER:
		d = lua_tonumber(L, -1);
		if (lua_type(L, -1) != LUA_TNUMBER || !(d >= o->min && d <= o->max)) {
			char range[64];

			g_snprintf(range, sizeof(range), "%g to %g", o->min, o->max);
			luaL_error(L, "mmsim.machine: %s must be a number from %s, not %s", o->name,
				   range, luaL_tolstring(L, -1, NULL));
		}
		store(a, o, &d);
		return;
	case OPT_BOOL: {
		char what[96];

		g_snprintf(what, sizeof(what), "mmsim.machine: %s", o->name);
		b = check_bool(L, -1, what);
		store(a, o, &b);
		return;
	}
	case OPT_SIZE:
		u64 = check_size(L, -1, o->name);
		store(a, o, &u64);
		return;
	case OPT_TIME:
		u64 = check_time(L, -1, o->name);
		store(a, o, &u64);
		return;
	case OPT_CHOICE:
		i32 = check_option_choice(L, -1, o->name, o->choices, o->nr_choices);
		if (o->size == sizeof(bool)) {
			b = i32;
			store(a, o, &b);
		} else {
			store(a, o, &i32);
		}
		return;
	case OPT_OWN:
		return;
	}
}

void machine_options_read(lua_State *L, int t, struct machine_args *a)
{
	for (const struct machine_option *o = options; o->name; o++) {
		if (o->kind != OPT_OWN && lua_getfield(L, t, o->name) != LUA_TNIL)
			read_option(L, t, o, a);
		if (o->kind != OPT_OWN)
			lua_pop(L, 1);
	}
}

void machine_options_doc(GString *out)
{
	g_string_append(out, "| field | default | meaning |\n|---|---|---|\n");
	for (const struct machine_option *o = options; o->name; o++)
		if (o->doc)
			g_string_append_printf(out, "| `%s` | %s | %s |\n", o->name, o->def, o->doc);
}
