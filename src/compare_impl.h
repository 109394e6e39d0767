/*
 * compare_impl.h — what the two halves of the comparison share: compare.c
 * (matching devices, the crossovers, the provenance, the outputs and the
 * chart) and compare_run.c (the points of every run, the run-level
 * verdicts and the per-point ones).  Not for other modules.
 */
#ifndef BE_COMPARE_IMPL_H
#define BE_COMPARE_IMPL_H

#include "compare.h"

/* The device of b that corresponds to device index da of a, or NULL. */
const device_info *compare_match_device(const results *a, int da, const results *b);

/* The crossover moves of a and b (the first run of each side) into s. */
void compare_crossovers(const results *a, const results *b, compare_set *s);

#endif
