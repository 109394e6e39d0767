/*
 * xover.h — the crossover batch at one hidden width, with its interval.
 *
 * The primary answer breakeven gives is "at hidden width H, the other
 * device is faster from batch B on", so this is the estimator under every
 * crossover sentence.  It works on the measured medians of the two devices
 * at the batches both measured, never on a fitted model: a model that does
 * not fit (memory-bound small batches at large widths) must not move the
 * answer.  The uncertainty comes from each median's own interval, which
 * already covers the variation between passes (stats.h), widened by how far
 * the medians scatter around their curves beyond what those intervals
 * explain (a point a few percent off in this run and not the next: the
 * passes of one run share it, so its own interval cannot show it), through
 * a parametric bootstrap of the log speed ratio.  Below fit.c, which calls it
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
    int paired;               /* 1: ratio_sd, from the passes in which the two
                                 were visited seconds apart (q_ratio_ci), is the
                                 error of log(other/base); 0: the two medians'
                                 errors are drawn apart                        */
    double ratio_sd;
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

/* Sets c's pairing: paired (1 when [lo, hi], the 95% interval of the
 * ratio base/other, comes from the passes in which the two were visited
 * seconds apart, q_ratio_ci's), ratio_sd its error on the log scale
 * (xover_log_sd); unpaired when the interval is empty. */
void xover_pair(xover_cell *c, int paired, double lo, double hi);

/* The deviations of one device's medians a scatter keeps. */
#define XOVER_DEVIATIONS 512

/* The scatter of the medians around their curves, per device (0: base,
 * 1: other), beyond what their own intervals explain: each inner median's
 * deviation (in logs) from the straight line in the batch through its two
 * neighbours — exact for a latency + throughput law, t = t0 + f/P — set
 * against the variance its own and its neighbours' errors give it.
 * Accumulated over the curves of several widths, so that a device's
 * scatter rests on all its points (beyond XOVER_DEVIATIONS, deviations are
 * left out).  Zero it before use. */
typedef struct xover_scatter {
    int k[2];                        /* the deviations kept                  */
    double r2[2][XOVER_DEVIATIONS];  /* each one squared                     */
    double own[2][XOVER_DEVIATIONS]; /* the variance the errors explain      */
    double c[2][XOVER_DEVIATIONS];   /* the factor by which a common τ² enters */
} xover_scatter;

/* The cells of one width xover_scatter_add reads (the rest are left out). */
#define XOVER_SCATTER_MAX 256

/* Adds the deviations of cells[0..n) (one width; any order; n < 3 adds
 * nothing; invalid cells are left out, and nothing is added when two
 * share a batch). */
void xover_scatter_add(xover_scatter *s, const xover_cell *cells, int n);

/* The standard deviation τ of device d's (0: base, 1: other) log medians
 * around its curves beyond their own errors: the τ² at which the
 * deviations' squares, each divided by its expected value own + c·τ², sum
 * to their number (Paule–Mandel), or 0 when they scatter no more than
 * their errors explain or nothing was added. */
double xover_scatter_sd(const xover_scatter *s, int d);

/* Estimates the crossover over cells[0..n) (any order; batches distinct)
 * with reps bootstrap replicates (≥ 100) from seed.  Each replicate draws a
 * median with the standard error of its logarithm widened by its device's
 * τ from sc, τ drawn itself from its uncertainty (τ̂²·k/χ²ₖ, k the
 * deviations it rests on); sc NULL: the scatter of these cells alone.
 * BE_EFAIL on bad input (non-positive or non-finite times or batches,
 * duplicate batches) or out of memory. */
int xover_estimate_with(const xover_cell *cells, int n, const xover_scatter *sc, uint64_t seed,
                        int reps, xover_est *out, err *e);

/* xover_estimate_with, the scatter from these cells alone. */
int xover_estimate(const xover_cell *cells, int n, uint64_t seed, int reps, xover_est *out, err *e);

#endif
