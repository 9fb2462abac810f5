/* Workload threads and references (workload.h). */
#include "sim/workload.h"

#include "models/mm_space.h"

#include <glib.h>
#include <stdio.h>

void workload_init(struct workload *w, enum engine_sharing sharing,
		   void (*destroy)(struct workload *w), void (*release)(void *arg),
		   void *release_arg)
{
	*w = (struct workload){ .refs = 1, .destroy = destroy, .release = release,
				.release_arg = release_arg, .sharing = sharing };
}

static void thread_exit(void *arg)
{
	struct workload *w = ((struct workload_thread *)arg)->w;

	if (w->mm)
		mmput(w->mm);
	workload_put(w);
}

static void thread_main(struct mm_ctx *ctx, void *arg)
{
	struct workload_thread *t = arg;

	engine_set_sharing(ctx, t->w->sharing);
	t->fn(ctx, arg);
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
		t->fn = fn;
		w->refs++;
		if (w->mm)
			mmget(w->mm);
		engine_spawn(e, cpus[i], full, thread_main, t, thread_exit);
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
