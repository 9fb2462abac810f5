/* An engine stand-in for unit tests that takes no time (it runs mm_env_null)
 * but tells the test's hooks what the model charged and which locks it took,
 * so a test can see where work is done without the SimGrid engine. */
#ifndef MMSIM_TEST_RECORDER_H
#define MMSIM_TEST_RECORDER_H

#include "models/mm_env.h"

struct recorder_hooks {
	void (*charged)(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n);
	/* Before a blocking lock is taken: where another thread could run. */
	void (*before_lock)(struct mm_ctx *ctx);
	/* After lock or a successful trylock. */
	void (*locked)(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site);
	void (*unlocking)(struct mm_ctx *ctx, struct spinlock *l);
};

static struct recorder_hooks recorder_hooks;

static void recorder_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	if (recorder_hooks.charged)
		recorder_hooks.charged(ctx, kind, n);
}

static void recorder_lock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	if (recorder_hooks.before_lock)
		recorder_hooks.before_lock(ctx);
	mm_env_null.lock(ctx, l, site);
	if (recorder_hooks.locked)
		recorder_hooks.locked(ctx, l, site);
}

static bool recorder_trylock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	if (!mm_env_null.trylock(ctx, l, site))
		return false;
	if (recorder_hooks.locked)
		recorder_hooks.locked(ctx, l, site);
	return true;
}

static void recorder_unlock(struct mm_ctx *ctx, struct spinlock *l)
{
	if (recorder_hooks.unlocking)
		recorder_hooks.unlocking(ctx, l);
	mm_env_null.unlock(ctx, l);
}

static const struct mm_env recorder_env = {
	.charge = recorder_charge,
	.touch = mm_null_touch,
	.lock = recorder_lock,
	.trylock = recorder_trylock,
	.unlock = recorder_unlock,
	.now = mm_null_now,
};

static inline struct mm_ctx cpu_ctx(unsigned cpu)
{
	return (struct mm_ctx){ .env = &recorder_env, .cpu = cpu };
}

#endif
