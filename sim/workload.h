/* What the workload engines in C (sim/workload_*.c) share: a thread per
 * CPU, and the references that keep a workload alive while any of its
 * threads runs, whatever its creator does with its own. */
#ifndef MMSIM_WORKLOAD_H
#define MMSIM_WORKLOAD_H

#include "sim/engine.h"

#include <stdbool.h>
#include <stddef.h>

struct workload {
	unsigned refs;
	void (*destroy)(struct workload *w);    /* frees the workload */
	void (*release)(void *arg);             /* the creator's, before destroy; or NULL */
	void *release_arg;
	/* The process the threads work in, or NULL: each thread holds an
	 * mm_users reference (mmget) while it runs. */
	struct mm_struct *mm;
	/* What its threads' own code shares (engine_set_sharing): declared
	 * once, by the workload kind, at workload_init. */
	enum engine_sharing sharing;
};

/* The first member of each thread's argument. */
struct workload_thread {
	struct workload *w;
	engine_thread_fn fn;        /* workload_spawn's */
};

/* One reference, the creator's; its threads share what sharing says. */
void workload_init(struct workload *w, enum engine_sharing sharing,
		   void (*destroy)(struct workload *w), void (*release)(void *arg),
		   void *release_arg);
/* Start a thread "<name><cpu>" on each of the n cpus, running fn with the
 * i-th of the n arguments at args, size bytes each (its workload_thread
 * filled in here); each holds a reference until it ends or is killed.
 * false and a g_malloc'ed *err if a thread could not start
 * (engine_spawn_check): the creator's reference is dropped then, and the
 * threads started before it run on.  Each thread starts with the
 * workload's sharing (engine_set_sharing). */
bool workload_spawn(struct engine *e, struct workload *w, const unsigned *cpus, unsigned n,
		    const char *name, engine_thread_fn fn, void *args, size_t size, char **err);
/* Drop a reference: the last one releases and destroys the workload. */
void workload_put(struct workload *w);

#endif
