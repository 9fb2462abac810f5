/* The random generator of the workloads written in C: xoshiro256**, the
 * algorithm of Lua 5.4's math.random, with math.random's ways of turning
 * a draw into a float or an integer in a range.  Run on the state of the
 * scenario's math.random (lua/ finds it), a C workload draws from the
 * same stream as the Lua code around it, in the order the simulated
 * threads ask: a seed gives the run it gave when the workload was Lua. */
#ifndef MMSIM_RNG_H
#define MMSIM_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

static inline uint64_t rng_rotl(uint64_t x, int n)
{
	return (x << n) | (x >> (64 - n));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/* math.random(): [0, 1) from the draw's top 53 bits. */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* math.random(n), n >= 1: 1 to n.  The draw is masked to the smallest
 * all-ones number covering n - 1 and drawn again while it is out of
 * range (no bias). */
static inline uint64_t rng_range(struct rng *r, uint64_t n)
{
	uint64_t x = rng_next(r), max = n - 1, mask = max;

	if (max & (max + 1)) {
		for (int shift = 1; shift < 64; shift <<= 1)
			mask |= mask >> shift;
		while ((x &= mask) > max)
			x = rng_next(r);
	} else {
		x &= max;
	}
	return x + 1;
}

/* The first of n items whose running weight reaches r times the total,
 * from a draw r in [0, 1) (the last if rounding leaves none). */
static inline unsigned weighted_pick(const double *w, unsigned n, double r)
{
	double total = 0, x;

	for (unsigned i = 0; i < n; i++)
		total += w[i];
	x = r * total;
	for (unsigned i = 0; i < n; i++) {
		x -= w[i];
		if (x <= 0)
			return i;
	}
	return n - 1;
}

#endif
