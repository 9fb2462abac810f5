/* Workload threads and references (workload.h). */
#include "sim/workload.h"

#include <glib.h>
#include <stdio.h>

void workload_init(struct workload *w, void (*destroy)(struct workload *w),
		   void (*release)(void *arg), void *release_arg)
{
	*w = (struct workload){ .refs = 1, .destroy = destroy, .release = release,
				.release_arg = release_arg };
}

static void thread_exit(void *arg)
{
	workload_put(((struct workload_thread *)arg)->w);
}

bool workload_spawn(struct engine *e, struct workload *w, const unsigned *cpus, unsigned n,
		    const char *name, engine_thread_fn fn, void *args, size_t size, char **err)
{
	for (unsigned i = 0; i < n; i++) {
		struct workload_thread *t = (void *)((char *)args + i * size);
		char full[64];

		*err = engine_spawn_check(e);
		if (*err) {
			workload_put(w);
			return false;
		}
		snprintf(full, sizeof(full), "%s%u", name, cpus[i]);
		t->w = w;
		w->refs++;
		engine_spawn(e, cpus[i], full, fn, t, thread_exit);
	}
	return true;
}

void workload_put(struct workload *w)
{
	if (--w->refs)
		return;
	if (w->release)
		w->release(w->release_arg);
	w->destroy(w);
}
