/* Messages between threads of the engine, delivered at a simulated time.
 *
 * A thread runs ahead of the SimGrid clock (engine.h), so shared memory
 * that one thread writes and another reads would be seen at the wrong
 * simulated time: early when the writer ran ahead, late when the reader
 * did.  A mailbox keeps that timing exact.  A message posted at the
 * poster's simulated time t is due at t + latency; a thread taking from
 * the mailbox at its time T gets exactly the messages due at T or before,
 * in the order they are due (posting order among equal times).
 *
 * Never early: a message posted by a thread that ran ahead stays until
 * its time.  Never late: every other thread's future posts come at or
 * after the SimGrid clock, which is the taker's clock while it runs, so
 * they are due after the taker's time as long as its debt is below the
 * latency; a taker further ahead settles first.  With a latency of at
 * least the engine's horizon a taker rarely has to.  In fast-forward
 * (engine_set_timing false) a taker never settles for a mailbox: a
 * message may then be taken up to fast-forward's horizon late, as lock
 * waits there delay nobody.
 *
 * The latency stands for something physical on the reader's side: the
 * time between a hand-over and the receiver acting on it. */
#ifndef MMSIM_MAILBOX_H
#define MMSIM_MAILBOX_H

#include "models/mm_env.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct engine_mailbox;

/* Messages of item_size bytes, due latency_ns after their posting. */
struct engine_mailbox *engine_mailbox_new(size_t item_size, uint64_t latency_ns);
void engine_mailbox_free(struct engine_mailbox *mb);

/* Post a copy of item, due at the poster's simulated time + the latency. */
void engine_mailbox_post(struct mm_ctx *ctx, struct engine_mailbox *mb, const void *item);
/* The earliest message due at the taker's time or before, copied to item
 * with its due time in *due; false if none is due. */
bool engine_mailbox_take(struct mm_ctx *ctx, struct engine_mailbox *mb, void *item,
			 uint64_t *due);
/* Messages posted and not taken yet. */
size_t engine_mailbox_len(const struct engine_mailbox *mb);

#endif
