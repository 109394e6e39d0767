/*
 * changes.h — real changes in a series of measurements over runs.
 *
 * The history (history.h) holds, per host, series of numbers over runs in
 * time order, each number with the 95% interval its run gave it.  This
 * module says where such a series stepped to a new level, and by how much,
 * in a way that a single noisy run cannot trigger:
 *
 *   1. Candidates come from E-divisive means (Matteson and James 2014, as
 *      Hunter uses it): on the logarithms of the values, the split that
 *      maximises the energy statistic between the runs before and after
 *      it, each side holding at least CHG_MIN_SIDE runs — so one run alone
 *      can never be a level of its own — found again within each side
 *      (binary segmentation) while splits are accepted.
 *   2. A split is accepted when the step between the two sides' levels
 *      (their median logarithms, so that an outlier beside a step leaves
 *      its size alone) is significant and large: its 95% interval — the
 *      step ± Student's t with n − 2 degrees of freedom times the standard
 *      error of the difference of the sides' means — excludes no change,
 *      and the ratio of the two levels is beyond CHG_NOISE either way.  Each side's standard
 *      error is the largest of what its values' spread gives, what the
 *      whole series' run-to-run noise gives (a robust SD from the
 *      differences of consecutive runs, which a step moves only once) and
 *      what its runs' own intervals give (their RMS half-width in
 *      logarithms over 1.96), over √runs: so a step that a few tight,
 *      lucky values suggest but neither the series' noise nor the runs'
 *      own precision supports is not called a change.  And since the
 *      split tested is the best of the segment's candidates, it must pass
 *      at 5% over all of them (Bonferroni); the interval reported is the
 *      95% one.  On 20 real identical runs of the 2-core machine
 *      (test_changes_real_runs) the test without these two guards found
 *      three steps where there were none; on 13 windows of such runs with
 *      a ×1.2 step put in, one to three steps beside it in 8 of them
 *      (docs/compare.md).
 *   3. Where a split lies is itself uncertain: the splits whose two-level
 *      fit leaves a sum of squares within χ²₁(95%) = 3.84 noise variances
 *      of the best one's (the likelihood set of a change point, Hinkley
 *      1970) are where the data alone may put it.  A run whose recorded
 *      setup changed (known[], the caller's: provenance and environment)
 *      inside that set is a split named before the data were seen, not
 *      one picked among all: it is tested there, guarded only over the
 *      recorded changes the segment holds, as `compare` tests the split a
 *      user names — so a slower BLAS interposed at run 13 is found at run
 *      13, where the blind search, guarded over every split, missed it or
 *      put it at run 12 when that run happened to be slow
 *      (tests/bench_history, docs/compare.md).
 *
 * Pure computation on arrays: no model, no file, no output.
 */
#ifndef BE_CHANGES_H
#define BE_CHANGES_H

#include "err.h"

/* Each side of a step holds at least this many runs. */
#define CHG_MIN_SIDE 2
/* A step smaller than this, relative, is noise even when significant: the
 * 5% of compare.h's COMPARE_THRESHOLD (1.05), the smallest slowdown a
 * comparison counts (a step down is held to 0.95 here, where compare's
 * "faster" is below 1/1.05). */
#define CHG_NOISE 0.05
/* At most this many steps are reported per series. */
#define CHG_MAX 16

/* One run's value and its 95% interval: 0 < lo ≤ v ≤ hi, finite. */
typedef struct chg_value {
    double v, lo, hi;
} chg_value;

/* A step: the level moves from before to after at value `at`. */
typedef struct chg_step {
    int at;                           /* index of the first value of the new level */
    int at_lo, at_hi;                 /* where the data alone may put it (step 3 above):
                                         at_lo ≤ at ≤ at_hi                        */
    int known;                        /* 1: at is a recorded change (known[at])    */
    int nbefore, nafter;              /* values in the two segments compared       */
    double before, after;             /* their levels (medians)                    */
    double ratio, ratio_lo, ratio_hi; /* after / before, and its 95% interval      */
} chg_step;

/* The steps in x[0..n) (values outside the contract above are refused:
 * BE_EUSAGE), at most max of them, in the order of `at`, into out;
 * *nout receives how many.  known: NULL, or n flags, known[i] nonzero when
 * something recorded changed between values i − 1 and i.  BE_EFAIL only
 * when out of memory. */
int changes_find(const chg_value *x, const int *known, int n, chg_step *out, int max, int *nout,
                 err *e);

#endif
