/* Booting a machine on an engine: its kernel threads started as the
 * kernel's boot starts them, so every driver of the model (the Lua
 * binding, the C benchmarks and tests) runs the same machine. */
#ifndef MMSIM_BOOT_H
#define MMSIM_BOOT_H

#include "models/machine.h"
#include "sim/engine.h"

/* The vmstat worker of every CPU (none when m->vmstat_interval is 0), the
 * defrag queues' late initcall under policy spb, then on each node's
 * first CPU kswapd<N> (none when m->kswapd_interval is 0), kcompactd<N>
 * and, under spb, kevacuate<N>.  Before any thread runs. */
void machine_boot(struct engine *e, struct machine *m);

#endif
