/* Messages between threads at a simulated time (mailbox.h). */
#include "sim/mailbox.h"

#include "sim/engine_impl.h"

#include <string.h>

/* A message: its due time and posting number (the heap's key), then the
 * item. */
struct msg_head {
	double due;
	uint64_t seq;
};

struct engine_mailbox {
	double latency;
	size_t item_size, stride;
	char *heap;                 /* a binary min-heap of messages by (due, seq) */
	size_t len, cap;
	uint64_t next_seq;
	char *tmp;                  /* one message, for swaps */
};

static struct msg_head *msg_at(const struct engine_mailbox *mb, size_t i)
{
	return (struct msg_head *)(mb->heap + i * mb->stride);
}

static bool msg_before(const struct msg_head *a, const struct msg_head *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void msg_swap(struct engine_mailbox *mb, size_t i, size_t j)
{
	memcpy(mb->tmp, msg_at(mb, i), mb->stride);
	memcpy(msg_at(mb, i), msg_at(mb, j), mb->stride);
	memcpy(msg_at(mb, j), mb->tmp, mb->stride);
}

struct engine_mailbox *engine_mailbox_new(size_t item_size, uint64_t latency_ns)
{
	struct engine_mailbox *mb = g_new0(struct engine_mailbox, 1);

	mb->latency = (double)latency_ns;
	mb->item_size = item_size;
	mb->stride = (sizeof(struct msg_head) + item_size + 7) & ~(size_t)7;
	mb->tmp = g_malloc(mb->stride);
	return mb;
}

void engine_mailbox_free(struct engine_mailbox *mb)
{
	if (!mb)
		return;
	g_free(mb->heap);
	g_free(mb->tmp);
	g_free(mb);
}

size_t engine_mailbox_len(const struct engine_mailbox *mb)
{
	return mb->len;
}

void engine_mailbox_post(struct mm_ctx *ctx, struct engine_mailbox *mb, const void *item)
{
	const struct sim_thread *t = ctx_thread(ctx);
	struct msg_head *m;
	size_t i;

	if (mb->len == mb->cap) {
		mb->cap = mb->cap ? 2 * mb->cap : 16;
		mb->heap = g_realloc(mb->heap, mb->cap * mb->stride);
	}
	i = mb->len++;
	m = msg_at(mb, i);
	m->due = t->clock + t->debt + mb->latency;
	m->seq = mb->next_seq++;
	memcpy(m + 1, item, mb->item_size);
	while (i && msg_before(msg_at(mb, i), msg_at(mb, (i - 1) / 2))) {
		msg_swap(mb, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

bool engine_mailbox_take(struct mm_ctx *ctx, struct engine_mailbox *mb, void *item,
			 uint64_t *due)
{
	struct sim_thread *t = ctx_thread(ctx);
	const struct msg_head *first;
	size_t i = 0;

	/* Posts still to come are due after clock + latency (mailbox.h). */
	if (t->e->timing && t->debt >= mb->latency)
		thread_settle(t);
	if (!mb->len)
		return false;
	first = msg_at(mb, 0);
	if (first->due > t->clock + t->debt)
		return false;
	memcpy(item, first + 1, mb->item_size);
	*due = (uint64_t)first->due;
	if (--mb->len)
		memcpy(msg_at(mb, 0), msg_at(mb, mb->len), mb->stride);
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < mb->len && msg_before(msg_at(mb, l), msg_at(mb, min)))
			min = l;
		if (r < mb->len && msg_before(msg_at(mb, r), msg_at(mb, min)))
			min = r;
		if (min == i)
			break;
		msg_swap(mb, i, min);
		i = min;
	}
	return true;
}
