/* A log-linear histogram of nanosecond latencies: exact below 16 ns, then
 * 16 buckets per power of two, so a percentile read from it is within
 * 1/16 of the true value; cheap to record (a count per bucket) and
 * deterministic.  Values of 2^47 ns and more share the last bucket. */
#ifndef MMSIM_HISTOGRAM_H
#define MMSIM_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 4
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_SHIFT 47
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_SHIFT - HIST_SUB_BITS) * HIST_SUB)

struct log_hist {
	uint64_t count, sum;
	uint64_t bucket[HIST_BUCKETS];
};

static inline unsigned hist_bucket_of(uint64_t v)
{
	unsigned e;

	if (v < HIST_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	if (e >= HIST_MAX_SHIFT)
		return HIST_BUCKETS - 1;
	return HIST_SUB + (e - HIST_SUB_BITS) * HIST_SUB +
	       (unsigned)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* Inline: every allocation records one. */
static inline void hist_record(struct log_hist *h, uint64_t ns)
{
	h->count++;
	h->sum += ns;
	h->bucket[hist_bucket_of(ns)]++;
}
/* h minus a (recorded earlier into the same histogram): what was recorded
 * in between. */
void hist_sub(struct log_hist *h, const struct log_hist *a);
void hist_add(struct log_hist *h, const struct log_hist *a);
/* The smallest value v such that a share q (0 to 1) of the recorded
 * values are at most v, rounded up to its bucket's last value; 0 if
 * nothing was recorded. */
uint64_t hist_percentile(const struct log_hist *h, double q);

#endif
