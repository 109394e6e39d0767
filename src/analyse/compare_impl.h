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

/* ---- a group's verdict and its words (compare_gate.c) ---- */

/* The verdict of an interval against the threshold R. */
compare_verdict compare_verdict_of(double ratio, double lo, double hi, double R);
/* Why g is inconclusive, or a nuisance beyond its reach as g's note (and
 * the verdict inconclusive where one reaches): too few points, the CPUs a
 * cache apart, a busier machine (busy_a, busy_b: the sides' mean others'
 * share, −1 unknown; ignored when the times were corrected for the load). */
void compare_group_why(const compare_set *s, compare_group *g, double R, double busy_a,
                       double busy_b, int load_corrected);
/* A correction may explain a difference, never decide one. */
void compare_correction_alone(compare_group *g, double R, compare_correct corr);
/* "No change" only where the medians did not move by R either. */
void compare_medians_moved(compare_group *g, double R);
/* g's verdict and what it rests on: "1.21× slower (1.08–1.36), 24 shared
 * points", the correction (corr) and the paired passes where there are. */
void compare_group_verdict(const compare_group *g, double threshold, compare_correct corr,
                           char *buf, size_t size);
/* The smallest slowdown g could detect: "could detect ×1.05", or
 * "could detect nothing (…)" and why. */
void compare_group_detect(const compare_group *g, char *buf, size_t size);
/* g's line: "cpu inference resident: 1.21× slower (1.08–1.36), …". */
void compare_group_text(compare_group *g, double threshold, compare_correct corr);

/* What more measuring means for a group's comparison: more runs of one
 * a side, more replicates, more pairs of passes (an `ab` pair). */
typedef enum { COMPARE_MORE_SINGLE, COMPARE_MORE_RUNS, COMPARE_MORE_PASSES } compare_more;

/* Group g's gate, the smallest slowdown it could detect and, when the
 * gate is open, what would settle it (compare_gate.c); g's verdict,
 * interval, se, df and run_sd are set. */
void compare_group_gate(compare_group *g, double alpha, double R, compare_more how);

/* The set's gate and its line, and its band_from, from its groups'. */
void compare_set_gate(compare_set *s);

/* ---- what B lost (compare_lost.c) ---- */

/* Whether B (b[0..nb)) lost what A (a[0..na)) measured, each device,
 * mode and view of A into s->lost; s's points and groups are set. */
void compare_count_lost(compare_set *s, const results *const *a, int na, const results *const *b,
                        int nb);

/* ---- an `ab` pair, judged on its paired passes (compare_pair.c) ---- */

/* 1 when a and b are the two sides of one `ab` pair (results.h). */
int compare_pair_of(const results *a, const results *b);

/* What the paired passes of one group say. */
typedef struct compare_pair_stats {
    int n;                      /* complete pairs of passes (complete_pairs)          */
    int used;                   /* the group's points measured in every one of them    */
    double D;                   /* mean over the pairs of the points' mean log ratio   */
    double sd, se;              /* the pairs' SD, and D's standard error (sd/√n)       */
    double *point_d, *point_se; /* per point of the group: its own mean log
                                   ratio and standard error (NaN: not
                                   in every pass); owned                */
} compare_pair_stats;

/* The group of view `view` whose points are s->points[pt[0..K)] in pair a
 * (A) and b (B).  Free with compare_pair_free. */
int compare_pair_measure(const results *a, const results *b, const compare_set *s, fit_view view,
                         const int *pt, int K, compare_pair_stats *out, err *e);
void compare_pair_free(compare_pair_stats *p);
/* Group g of pair a0 (A), b0 (B), its points s->points[pt[0..K)], judged
 * on the paired passes, and those points on their own pairs; work holds
 * 2·K doubles of scratch. */
int compare_pair_judge(compare_set *s, compare_group *g, const int *pt, int K, const results *a0,
                       const results *b0, double busy_a, double busy_b, double *work, err *e);

#endif
