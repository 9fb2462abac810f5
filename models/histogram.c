#include "histogram.h"

/* The last value of bucket b. */
static uint64_t bucket_last(unsigned b)
{
	unsigned e, sub;

	if (b < HIST_SUB)
		return b;
	e = (b - HIST_SUB) / HIST_SUB + HIST_SUB_BITS;
	sub = (b - HIST_SUB) % HIST_SUB;
	return ((uint64_t)(HIST_SUB + sub + 1) << (e - HIST_SUB_BITS)) - 1;
}

void hist_sub(struct log_hist *h, const struct log_hist *a)
{
	h->count -= a->count;
	h->sum -= a->sum;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		h->bucket[b] -= a->bucket[b];
}

void hist_add(struct log_hist *h, const struct log_hist *a)
{
	h->count += a->count;
	h->sum += a->sum;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		h->bucket[b] += a->bucket[b];
}

uint64_t hist_percentile(const struct log_hist *h, double q)
{
	/* The rank of the value wanted, 1-based: ceil(q * count). */
	uint64_t rank = (uint64_t)(q * (double)h->count), seen = 0;

	if (!h->count)
		return 0;
	if ((double)rank < q * (double)h->count)
		rank++;
	if (!rank)
		rank = 1;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank)
			return bucket_last(b);
	}
	return bucket_last(HIST_BUCKETS - 1);
}
