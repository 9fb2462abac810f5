/* /proc/lock_stat (CONFIG_LOCK_STAT) from the engine's lock statistics. */
#ifndef MMSIM_LOCKSTAT_H
#define MMSIM_LOCKSTAT_H

#include "sim/engine.h"

#include <glib.h>

/* Append the file as kernel/locking/lockdep_proc.c prints it (version
 * 0.4): one class per lock class, every zone->lock in "&zone->lock" and
 * every pcp->lock in "&pcp->lock", by descending contentions, ties in
 * enum lock_class_id order. */
void lockstat_print(const struct engine *e, GString *out);

/* The kernel function a site stands for ("rmqueue_bulk", ...). */
const char *lock_site_name(enum lock_site site);

#endif
