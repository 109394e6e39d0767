/*
 * stats.h — the statistics of one point's samples.
 *
 * Timing distributions are skewed (a step is never faster than the machine
 * allows, often slower), so breakeven centres on the median and its
 * distribution-free confidence interval from order statistics, and keeps the
 * mean and standard deviation only as descriptions.  Drift compares the
 * first and last thirds of the samples in time order with a one-sided
 * Mann–Whitney test: a point that got slower while it was measured (thermal
 * throttling, a neighbour waking up) is flagged rather than averaged away.
 */
#ifndef BE_STATS_H
#define BE_STATS_H

#include "err.h"

typedef struct stats_summary {
    int n;
    double median, min, max, p10, p90, mean, stdev, cv;
    double ci_lo, ci_hi;  /* 95% confidence interval of the median            */
    double ci_level;      /* its exact coverage (below 0.95 when n is small)  */
    int drift;            /* 1 when the last third is significantly slower    */
    double drift_ratio;   /* median(last third) / median(first third); 0 if n < 9 */
} stats_summary;

/* Summarizes x[0..n) (in the order measured; n ≥ 1).  BE_EFAIL on n < 1 or
 * out of memory. */
int stats_summarize(const double *x, int n, stats_summary *s, err *e);

/* 1 when the 95% CI of the median lies within ±rel of the median. */
int stats_converged(const stats_summary *s, double rel);

/* The p-quantile (0 ≤ p ≤ 1) of sorted[0..n), linear interpolation. */
double stats_quantile(const double *sorted, int n, double p);

/* Mann–Whitney U test of whether b tends to be larger than a: returns the
 * normal-approximation z score (ties count one half, tie-corrected
 * variance); positive when b is larger. */
double stats_mann_whitney_z(const double *a, int na, const double *b, int nb);

#endif
