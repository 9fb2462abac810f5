/* The machine userdata: what mmsim.machine{} returns, as the libraries
 * of the mmsim module see it. */
#ifndef MMSIM_LMACHINE_H
#define MMSIM_LMACHINE_H

#include "models/machine.h"
#include "sim/engine.h"

#include <stdbool.h>
#include <stdint.h>

#define MACHINE_MT "mmsim.machine"
/* Registry field holding the run's seed (an integer), for machines to use. */
#define SEED_KEY "mmsim.seed"

struct lmachine {
	struct machine *m;
	struct engine *e;            /* created by the first spawn or run */
	struct engine_opts eo;
	uint64_t sample_interval;    /* ns between timeseries.csv rows, 0: none */
	uint64_t memory_block_size;  /* hotplug unit (/sys/devices/system/memory/block_size_bytes) */
	bool gb_yield_attempt;       /* measure the 1 GiB yield at the end of the run */
	uint64_t warmup_ns;          /* the warm-up of the last m:run that had one */
	bool warmup_pending;         /* its phase "measure" has not begun yet */
	char *thread_error;          /* first error a simulated thread raised */
};

#endif
