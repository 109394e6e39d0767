/*
 * rng.h — the one pseudo-random generator breakeven uses: splitmix64.
 *
 * The seeded inputs of every point (workload.c) and the bootstrap of the
 * crossover's confidence interval (fit) draw from it, so that --seed means
 * the same bits on every machine.  Tiny, well mixed and fully specified
 * (Steele, Lea and Flood, 2014); the state is the caller's.
 */
#ifndef BE_RNG_H
#define BE_RNG_H

#include <stdint.h>

/* The next 64 random bits; advances *state. */
uint64_t rng_next(uint64_t *state);

/* Uniform in [0, n) for 0 < n < 2³², by multiply-shift of the top 32 bits. */
int rng_below(uint64_t *state, int n);

#endif
