#include "mm_env.h"

#include <glib.h>
#include <signal.h>

static volatile sig_atomic_t fatal_signal;

void mm_signal_fatal(void)
{
	fatal_signal = 1;
}

bool fatal_signal_pending(void)
{
	return fatal_signal;
}

void mm_signal_clear(void)
{
	fatal_signal = 0;
}

static void (*lock_release)(struct spinlock *l);

void mm_set_lock_release(void (*release)(struct spinlock *l))
{
	lock_release = release;
}

void spin_lock_destroy(struct spinlock *l)
{
	if (l->impl && lock_release)
		lock_release(l);
	l->impl = NULL;
}

void spin_lock_init(struct spinlock *l, enum lock_class_id cls)
{
	l->owner = -1;
	l->class_id = (uint8_t)cls;
	l->cl.last_cpu = -1;
	l->impl = NULL;
}

static void null_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long count)
{
	(void)ctx, (void)kind, (void)count;
}

void mm_null_touch(struct mm_ctx *ctx, struct cacheline *cl)
{
	cl->last_cpu = (int32_t)ctx->cpu;
}

static void null_lock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	(void)site;
	if (l->owner != -1)
		g_error("spinlock taken twice (held by CPU %d, wanted by CPU %u) with no "
			"other CPU to release it", l->owner, ctx->cpu);
	l->owner = (int32_t)ctx->cpu;
	l->cl.last_cpu = (int32_t)ctx->cpu;
}

static bool null_trylock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	if (l->owner != -1)
		return false;
	null_lock(ctx, l, site);
	return true;
}

static void null_unlock(struct mm_ctx *ctx, struct spinlock *l)
{
	if (l->owner != (int32_t)ctx->cpu)
		g_error("CPU %u released a spinlock held by %d", ctx->cpu, l->owner);
	l->owner = -1;
}

uint64_t mm_null_now(struct mm_ctx *ctx)
{
	(void)ctx;
	return 0;
}

const struct mm_env mm_env_null = {
	.charge = null_charge,
	.touch = mm_null_touch,
	.lock = null_lock,
	.trylock = null_trylock,
	.unlock = null_unlock,
	.now = mm_null_now,
};

struct mm_ctx mm_ctx_null(unsigned cpu)
{
	return (struct mm_ctx){ .env = &mm_env_null, .cpu = cpu, .engine = NULL };
}
