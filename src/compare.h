/*
 * compare.h — what changed between two runs: the per-point verdicts, the
 * moves of the crossovers and the differences in provenance.
 *
 * Owns the matching of two results models (a point of A and one of B are
 * the same when their devices match — the same id, else, for a device whose
 * id the other run lacks, the same model name — and they share mode,
 * number of layers, hidden width and batch size; a device whose model
 * differs is named in the points and the differences), the significance
 * test of each pair on the stored
 * samples, the text table of a comparison and its change chart.  The HTML
 * page of a comparison is report.c's business; this module reads loaded
 * models and never a file but the chart it writes.
 */
#ifndef BE_COMPARE_H
#define BE_COMPARE_H

#include <stdio.h>

#include "findings.h"
#include "results.h"

/* A change smaller than this (relative, on the median) is noise even when
 * the test calls it significant. */
#define COMPARE_NOISE 0.05
/* |z| of the two-sided Mann–Whitney test at p < 0.01. */
#define COMPARE_Z 2.576
/* Below this many samples on either side the test is the overlap of the
 * medians' confidence intervals instead. */
#define COMPARE_MIN_SAMPLES 5

typedef enum { CMP_UNCHANGED = 0, CMP_FASTER, CMP_SLOWER, CMP_MISSING } compare_verdict;

const char *compare_verdict_name(compare_verdict v); /* "faster", ... */

/* One matched point (A → B).  ratio = median B / median A of the resident
 * step time, so below 1 B is faster. */
typedef struct compare_point {
    char model[256];           /* the device model name ("X → Y" when it
                                  differs between the runs)              */
    char dev_a[32], dev_b[32]; /* its ids in A and in B                  */
    wl_mode mode;
    int hidden, batch;
    double flops; /* per layer                              */
    rs_status status_a, status_b;
    double median_a, median_b; /* seconds per step (0 unless ok)         */
    double ratio;              /* 0 unless both ok                       */
    int by_overlap;            /* 1: CI overlap decided, else Mann–Whitney */
    double z;                  /* the Mann–Whitney z (B larger: slower)  */
    double p;                  /* its two-sided p (NaN with CI overlap)   */
    int significant;
    compare_verdict verdict; /* CMP_MISSING unless both are ok         */
} compare_point;

/* A crossover of A and its match in B (same models, mode, view, measure). */
typedef struct compare_cross {
    char base[256], other[256]; /* device ids (as in A)                   */
    wl_mode mode;
    fit_view view;
    int cost;
    int in_a, in_b; /* present in A, in B                    */
    cross_kind kind_a, kind_b;
    double flops_a, flops_b;
    find_verdict verdict_a, verdict_b; /* the runs' findings (findings.h) */
    char shapes_a[96], shapes_b[96];   /* "at 5 of 15 shapes measured"    */
    char text[640];                    /* the move in words                     */
} compare_cross;

/* One provenance field that differs. */
typedef struct compare_diff {
    char what[96];
    char a[300], b[300];
} compare_diff;

#define COMPARE_MAX_CROSS 64
#define COMPARE_MAX_DIFFS 48

typedef struct compare_set {
    char id_a[128], id_b[128];
    int npoints;
    compare_point *points; /* owned */
    int nfaster, nslower, nunchanged, nmissing;
    double geomean; /* geometric mean of the ok ratios (0: none) */
    int ncross;
    compare_cross cross[COMPARE_MAX_CROSS];
    int ndiffs;
    compare_diff diffs[COMPARE_MAX_DIFFS];
} compare_set;

/* The provenance fields in which b differs from a (host, hardware, OS,
 * OpenBLAS version, core and threads, breakeven version, the grid, and per
 * device its model, driver, library and kernel configuration), in that
 * order, at most max of them, into out; returns how many. */
int compare_provenance(const results *a, const results *b, compare_diff *out, int max);

/* Compares a (the older run) with b.  BE_EFAIL ("runs X and Y have no
 * point in common ...") when no point matches.  Free with compare_free. */
int compare_runs(const results *a, const results *b, compare_set *out, err *e);
void compare_free(compare_set *s);

/* "3 faster, 1 slower, 20 unchanged (beyond 5% and p < 0.01)". */
void compare_summary(const compare_set *s, char *buf, size_t size);

typedef enum { COMPARE_TEXT = 0, COMPARE_MARKDOWN, COMPARE_JSON } compare_format;

/* The comparison as a text table (times in adaptive units, devices by id
 * and model, the test's p), then the crossover moves and the provenance
 * differences; as a Markdown table and lists (for an issue or a pull
 * request); or as one JSON object (numbers as numbers, null where there is
 * none). */
void compare_write(FILE *out, const compare_set *s, compare_format f);

/* Whether B regressed: a point slower beyond COMPARE_NOISE at p < 0.01
 * (or, with too few samples, with disjoint intervals). */
int compare_regressed(const compare_set *s);

/* The change chart: the ratio B/A of every matched point against FLOPs per
 * layer (log–log), one colour per device model and mode, filled markers
 * for significant changes, a line at 1 and the noise band; "<base>.png" and
 * "<base>.svg" (FIGURE_WIDTH × FIGURE_HEIGHT at FIGURE_SCALE), and for
 * phones "<base>-narrow.png" and ".svg" (FIGURE_NARROW_WIDTH wide, the
 * legend under the plot, as high as that takes). */
int compare_chart(const compare_set *s, const char *base, err *e);

#endif
