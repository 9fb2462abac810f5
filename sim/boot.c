#include "sim/boot.h"

#include "models/compaction.h"
#include "models/page_cache.h"
#include "models/pcp.h"
#include "models/superpageblock.h"

#include <stdio.h>

void machine_boot(struct engine *e, struct machine *m)
{
	for (unsigned cpu = 0; m->vmstat_interval && cpu < m->nr_cpus; cpu++) {
		char name[32];

		snprintf(name, sizeof(name), "vmstat/%u", cpu);
		engine_spawn_daemon(e, cpu, name, vmstat_worker, m);
	}
	if (machine_has_superpageblocks(m))
		pageblock_evacuate_init(m);
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
		unsigned nid = topology_cpu_to_node(&m->topo, cpu);
		char name[32];

		if (cpu && topology_cpu_to_node(&m->topo, cpu - 1) == nid)
			continue;
		if (m->kswapd_interval) {
			snprintf(name, sizeof(name), "kswapd%u", nid);
			engine_spawn_daemon(e, cpu, name, kswapd_thread, m);
		}
		snprintf(name, sizeof(name), "kcompactd%u", nid);
		engine_spawn_daemon(e, cpu, name, kcompactd, m);
		if (machine_has_superpageblocks(m)) {
			snprintf(name, sizeof(name), "kevacuate%u", nid);
			engine_spawn_daemon(e, cpu, name, kevacuate_thread, m);
		}
	}
}
