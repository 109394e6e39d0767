/*
 * xover.h — the crossover batch at one hidden width, with its interval.
 *
 * The primary answer breakeven gives is "at hidden width H, the other
 * device is faster from batch B on", so this is the estimator under every
 * crossover sentence.  It works on the measured medians of the two devices
 * at the batches both measured, never on a fitted model: a model that does
 * not fit (memory-bound small batches at large widths) must not move the
 * answer.  The uncertainty comes from each median's own interval, which
 * already covers the variation between passes (stats.h), through a
 * parametric bootstrap of the log speed ratio.  Below fit.c, which calls it
 * per hidden width, device pair, mode, view and measure; above nothing but
 * results.h's cross_kind.  Pure: arrays in, numbers out.
 */
#ifndef BE_XOVER_H
#define BE_XOVER_H

#include <stdint.h>

#include "err.h"
#include "results.h"

/* One batch size at one hidden width. */
typedef struct xover_cell {
    double batch;             /* > 0                                            */
    double base, other;       /* median times (a cost factor applied by caller) */
    double base_sd, other_sd; /* standard error of the log of each median       */
} xover_cell;

typedef struct xover_est {
    cross_kind kind; /* CROSS_IN_RANGE, CROSS_NEVER, CROSS_ALWAYS, or
                        * CROSS_UNKNOWN when there is no cell                */
    double batch;    /* in range: the batch from which the other device
                        * stays ahead (where other − base meets zero)        */
    double lo, hi;   /* the 95% interval of that batch, within the measured
                        * batches; for never/always the interval of where the
                        * crossing could still be                            */
    int lo_open;     /* the interval reaches below the smallest batch      */
    int hi_open;     /* … beyond the largest batch                         */
    double p_never;  /* share of replicates in which it never wins         */
    double p_always; /* … in which it wins at every measured batch         */
} xover_est;

/* The standard error of log(median) from its interval [lo, hi] at coverage
 * level (0 < level < 1): ln(hi/lo) / (2·z(level)).  0 when the interval is
 * empty or not positive. */
double xover_log_sd(double lo, double hi, double level);

/* Estimates the crossover over cells[0..n) (any order; batches distinct)
 * with reps bootstrap replicates (≥ 100) from seed.  BE_EFAIL on bad input
 * (non-positive or non-finite times or batches, duplicate batches) or out
 * of memory. */
int xover_estimate(const xover_cell *cells, int n, uint64_t seed, int reps, xover_est *out, err *e);

#endif
