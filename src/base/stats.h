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
 *
 * Samples measured in several passes (sweep.h) get an interval that also
 * includes the variation between passes (stats_summarize_passes): the
 * samples of one pass are not independent of each other (the same buffers,
 * the same minute of the machine's life), so their spread alone says little
 * about another run.
 */
#ifndef BE_STATS_H
#define BE_STATS_H

#include "err.h"

typedef struct stats_summary {
    int n;
    double median, min, max, p10, p90, mean, stdev, cv;
    double ci_lo, ci_hi; /* 95% confidence interval of the median            */
    double ci_level;     /* its exact coverage (below 0.95 when n is small)  */
    int drift;           /* 1 when the last third is significantly slower    */
    double drift_ratio;  /* median(last third) / median(first third); 0 if n < 9 */
    double drift_z;      /* the drift test's one-sided z (stats_drift) when drift
                             is 1, else 0: not in the results file (the loader
                             computes it again from the samples), for the run's
                             warning, which tests its points together (prose.h) */
    int passes;          /* the passes ci_lo/ci_hi stand on: ≥ 2 when they include
                             the variation between passes (stats_summarize_passes),
                             1 when from one pass only, 0 unknown (older files) */
    double contention;   /* the share of the CPU others took while the samples
                             were measured, by which ci_lo was extended down
                             (stats_contention); 0 when none was recorded */
    double spread;       /* the variance of the passes' log-medians (on passes − 1
                             degrees of freedom), what stats_prior_fit pools;
                             -1 when unknown (one pass, or read from a file) */
    double df;           /* the degrees of freedom of the t of the interval:
                             passes − 1, more where a prior lent its own
                             (stats_prior); 0 from one pass or unknown */
} stats_summary;

/* What a device's points say together about how far a point's passes lie
 * apart: the variance of a point's log pass-medians, `var`, typical of
 * the device in this run, worth `df` degrees of freedom (0: no prior).
 * With 3 passes a point's own variance rests on 2 degrees of freedom
 * (Student's t 4.30); pooling it with its device's others (empirical
 * Bayes: Smyth 2004, the moderated t of limma) narrows the interval where
 * the points' variances agree, and hardly at all where they differ, since
 * the prior's weight is estimated from how much they differ. */
typedef struct stats_prior {
    double df, var;
    /* What no run's passes show: how far a whole run of the device lies
     * from another, the variance of its log level from run to run, added
     * to the interval as z²·run_var (0: none).  Set by the caller after
     * stats_prior_fit, which leaves it 0. */
    double run_var;
} stats_prior;

/* The fewest points a prior is fitted from: fewer say too little of how
 * much their variances differ. */
#define STATS_PRIOR_POINTS 10

/* Fits p from n points' variances var[i] of their log pass-medians, each
 * on df[i] degrees of freedom (points with df[i] < 1 or var[i] not above
 * 0 are left out): limma's fitFDist by moments of log var, its weight
 * capped at Σ df[i] (a prior cannot know more than the data it comes
 * from).  No prior (p->df = 0) from fewer than STATS_PRIOR_POINTS.
 * p->run_var is set to 0. */
void stats_prior_fit(const double *var, const int *df, int n, stats_prior *p);

/* Summarizes x[0..n) (in the order measured; n ≥ 1).  BE_EFAIL on n < 1 or
 * out of memory. */
int stats_summarize(const double *x, int n, stats_summary *s, err *e);

/* stats_summarize for samples measured in passes: x[i] (in the order
 * measured) belongs to pass pass[i] (any integers; a pass's samples need
 * not be adjacent).  The median and the descriptions are of all samples.
 * With 2 or more passes, the 95% interval of the median also covers how
 * the passes differ, so that it says where another run on the same machine
 * would find the median (stats.c gives the estimator), and drift is tested
 * within each pass.  With one pass, it is stats_summarize's.  Sets
 * s->passes. */
int stats_summarize_passes(const double *x, const int *pass, int n, stats_summary *s, err *e);
/* stats_summarize_passes with a device's prior (NULL or prior->df 0:
 * none): the passes' variance s² on K − 1 degrees of freedom becomes
 * (d0·s0² + (K − 1)·s²)/(d0 + K − 1) on d0 + K − 1, and the half-width
 * t(0.975, d0 + K − 1)·√(max(that, w)/K), then widened by the run's
 * own variance to √(half² + 1.96²·prior->run_var) (any prior, d0 or
 * not). */
int stats_summarize_prior(const double *x, const int *pass, int n, const stats_prior *prior,
                          stats_summary *s, err *e);

/* The drift test of x[0..n) (in the order measured; pass as for
 * stats_summarize_passes, NULL when not recorded), the one that sets a
 * summary's drift and drift_ratio: with 2 or more passes, within each pass
 * of at least 9 samples, the last third against the first (one-sided
 * Mann–Whitney: z > 0 when the last third is slower), the passes' z scores
 * combined (Stouffer, Σz / √passes) and their medians' ratios' median into
 * *ratio; with one pass, over all the samples when n ≥ 9.  *z and *ratio
 * are 0 when nothing was tested.  Kept for a run-level rule that needs the
 * z the summary does not store (prose.c).  BE_EFAIL when out of memory. */
int stats_drift(const double *x, const int *pass, int n, double *z, double *ratio, err *e);

/* The paired 95% interval of the log of the ratio of two devices' times
 * at one point, measured in passes (xa[0..na) in passes pa, xb[0..nb) in
 * passes pb, as for stats_summarize_passes): in each pass both measured
 * (the two were visited seconds apart, so the machine's state of the
 * moment is in both), the difference of their log-medians; *half is
 * t(K−1)·√(max(s², w)/K) over those K passes, s² the differences' variance
 * and w the mean of their sampling variances (log_median's), the floor for
 * passes that agree more closely than their noise allows.  *passes = K;
 * *half is 0 when K < 2 (no interval: the caller falls back on the two
 * devices' own intervals).  s² is pooled with prior as in
 * stats_summarize_prior (NULL: none); *spread is s² before (-1 when K <
 * 2), what q_ratio_prior pools.  BE_EFAIL when out of memory. */
int stats_paired_log_ratio(const double *xa, const int *pa, int na, const double *xb, const int *pb,
                           int nb, const stats_prior *prior, double *half, int *passes,
                           double *spread, err *e);

/* Extends s's interval down for contention: while the samples were
 * measured, other processes (and the hypervisor) took the share `lost`
 * (0..1) of the CPU, so a run on the quiet machine could be faster by up to
 * that share; ci_lo becomes ci_lo·(1 − lost) (lost is capped at 0.9) and
 * s->contention = lost.  Nothing when lost ≤ 0. */
void stats_contention(stats_summary *s, double lost);

/* The 0.975 quantile of Student's t with df ≥ 1 degrees of freedom (exact
 * to 3 decimals up to 30, then a Cornish–Fisher expansion). */
double stats_t975(int df);

/* The p-quantile (0 < p < 1) of Student's t with df > 0 degrees of
 * freedom, not necessarily whole (df ≤ 0: the standard normal's), to
 * about 1e-9: the regularized incomplete beta function inverted by
 * bisection. */
double stats_t_quantile(double p, double df);

/* 1 when the 95% CI of the median lies within ±rel of the median. */
int stats_converged(const stats_summary *s, double rel);

/* The p-quantile (0 ≤ p ≤ 1) of sorted[0..n), linear interpolation. */
double stats_quantile(const double *sorted, int n, double p);
/* The median of v[0..n), which it sorts in place; NAN when n is 0. */
double stats_median(double *v, int n);
/* A standard deviation robust to outliers, 1.4826·MAD of v[0..n) (0 when
 * n < 2); tmp: n doubles of scratch. */
double stats_robust_sd(const double *v, int n, double *tmp);

/* Mann–Whitney U test of whether b tends to be larger than a: returns the
 * normal-approximation z score (ties count one half, tie-corrected
 * variance); positive when b is larger. */
double stats_mann_whitney_z(const double *a, int na, const double *b, int nb);

#endif
