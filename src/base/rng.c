/*
 * rng.c — splitmix64 (see rng.h).
 */
#include "rng.h"

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int rng_below(uint64_t *state, int n)
{
    return (int)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}
