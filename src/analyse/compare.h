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
 * samples and the text table of a comparison.  The HTML page of a
 * comparison is report.c's business, its change chart figure.h's; this
 * module reads loaded models and writes no file.
 */
#ifndef BE_COMPARE_H
#define BE_COMPARE_H

#include <stdio.h>

#include "findings.h"
#include "results.h"

/* The gate's defaults: the smallest slowdown that counts, and the error
 * rate of the intervals (two-sided, so a false "slower" at most alpha/2). */
#define COMPARE_THRESHOLD 1.05
#define COMPARE_ALPHA 0.05
/* With one run per side and no repeated runs in the archive, the
 * run-to-run standard deviation of a run's log geometric mean over its
 * points, as measured on the shared 2-core machine for each correction
 * (docs/compare.md, "25 November 2026, a heavily loaded machine"), on the
 * medians: uncorrected 0.566, by the reference 0.454, for the load 0.366
 * (the larger of OpenBLAS and the OpenCL device, rounded up).  They rest
 * on the larger half of that study, its 24 evaluation runs: its 20
 * calibration runs, under the same load, gave 0.399, 0.192 and 0.188,
 * which the band used to be, and which one busy run a side exceeded by up
 * to three times.  So on a machine that busy a 2x slowdown of one run a
 * side is inconclusive, as it is: replicates or `ab` settle it.  The
 * study's runs are not committed: `make bench-compare` makes such runs
 * again and `tests/study/bands --cal 20 build/bench-compare` gives the
 * figures of each half. */
#define COMPARE_RUN_SD_NONE 0.57
#define COMPARE_RUN_SD_REFERENCE 0.46
#define COMPARE_RUN_SD_LOAD 0.37
#define COMPARE_RUN_SD_RUNS 24
/* The same on a quiet machine: others took at most COMPARE_QUIET_SHARE
 * of the CPU, on average over each side's passes.  The largest SD of a
 * run's quick tenth (q_level) of five studies of 44 real runs on the
 * quiet 2-core machine, either device on its CPUs, any correction
 * (docs/compare.md, "Which step time": 0.084), rounded up; the interval
 * takes it on COMPARE_RUN_SD_QUIET_RUNS - 1 degrees of freedom (the
 * smallest of those studies' evaluation sets). */
#define COMPARE_QUIET_SHARE 0.10
#define COMPARE_RUN_SD_QUIET 0.09
#define COMPARE_RUN_SD_QUIET_RUNS 24
/* A device off the host's CPUs (a GPU): its run varies far less than the
 * CPUs'.  Measured on all 24 committed runs of one H200 machine, made in
 * 15 minutes with nothing running beside them
 * (tests/data/gpu/h200-compare; `tests/study/bands --cal 8
 * tests/data/gpu/h200-compare`): the SD of a run's quick tenth (q_level,
 * what compare compares) 0.008 resident and 0.025 with the transfers
 * (0.013 and 0.039 in the first 8 runs, 0.005 and 0.015 in the other 16).
 * The band is kept three times wider, at what the first 8 runs' medians
 * gave (0.020 and 0.054, rounded up), because it is applied beyond what
 * that study had (one device of one model, a host otherwise idle, minutes
 * apart): to any device off the host's CPUs whatever the host's load and
 * however far apart the runs.  A comparison of another GPU, or of one on
 * a busy host, should rest on repeated runs (the archive) or on `ab`. */
#define COMPARE_RUN_SD_GPU 0.03
#define COMPARE_RUN_SD_GPU_TRANSFER 0.06
#define COMPARE_RUN_SD_GPU_RUNS 24
/* How much the host's CPUs a cache apart (cachehop.h) were measured to
 * slow a device on them: OpenBLAS's GEMMs by 17-35% in windows of a
 * second, its slow passes by +0.25 to +0.31 in log time, and one whole
 * run of this VM ×1.38 at every point, 95% interval 1.13-1.68 (docs/compare.md,
 * "What slows OpenBLAS down", and the false alarm of the second quiet
 * study).  The reach is the upper end of that one event's interval, the
 * most the measurements allow, not a slowdown ever seen: ×1.7.  A change
 * whose interval lies beyond it is not put down to it. */
#define COMPARE_APART_REACH 1.7
/* The power that the smallest detectable slowdown is given at. */
#define COMPARE_POWER 0.80
/* The share of a device's, mode's and view's points that A measured and
 * B may lose (not ok in B, or, in an `ab` pair, not in every complete pair
 * of passes) before the gate cannot pass: one point of a quick grid's 12
 * (8%) is a flake, two (17%) are a pattern.  Losing all of them, or the
 * device, always keeps the gate from passing. */
#define COMPARE_LOST_SHARE 0.10
/* A run-level verdict needs at least this many shared points. */
#define COMPARE_MIN_POINTS 3
/* Others' share of the CPU by which one side's runs must exceed the
 * other's for a change in that direction to be put down to the load. */
#define COMPARE_BUSY 0.20
/* At most this many runs per side. */
#define COMPARE_MAX_RUNS 32

typedef enum {
    CMP_UNCHANGED = 0,
    CMP_FASTER,
    CMP_SLOWER,
    CMP_MISSING,
    CMP_INCONCLUSIVE
} compare_verdict;

const char *compare_verdict_name(compare_verdict v); /* "faster", "no change", ... */

/* The one question of --fail-on-regression and of `ab`: is there a
 * slowdown of at least the threshold R?  PASS when the interval excludes
 * it (its upper end below R, and neither the medians nor the uncorrected
 * times moved by R) on a measured scatter (2 pairs of passes, or 2 runs a
 * side of replicates), FAIL when it is established (the verdict "slower")
 * or B lost what A measured (compare_lost), OPEN when neither: exit 0, 3
 * and 4. */
typedef enum { COMPARE_GATE_PASS = 0, COMPARE_GATE_FAIL, COMPARE_GATE_OPEN } compare_gate;

const char *compare_gate_name(compare_gate g); /* "pass", "fail", "open" */

/* One matched point (A → B).  ratio = level B / level A of the resident
 * step time (q_level: the 10th percentile of its samples; with several
 * runs a side, the geometric means of theirs), so below 1 B is faster;
 * lo–hi its interval, which holds the run-to-run variation as the run's
 * own does (compare_run.c). */
typedef struct compare_point {
    char model[256];           /* the device model name ("X → Y" when it
                                  differs between the runs)              */
    char dev_a[32], dev_b[32]; /* its ids in A and in B                  */
    wl_mode mode;
    int hidden, batch;
    char sizes[NET_SIZES_MAX]; /* a network's sizes, "" for the square stack: points
                                  match only with the same sizes         */
    char net[NET_NAME_MAX];    /* the network's name in A ("" likewise): two of
                                  the same sizes are told apart by it    */
    double flops;              /* per layer                              */
    rs_status status_a, status_b;
    double level_a, level_b; /* seconds per step, q_level (0 unless ok)  */
    double lmed[2];          /* mean log median B − A, resident and
                                transfer: what the run pages show      */
    double ratio;            /* 0 unless both ok                        */
    double lo, hi;           /* its interval (1 − alpha)                */
    int significant;         /* the interval excludes 1                 */
    int apart;               /* moved apart from its device's run: 1 up,
                                −1 down, 0 with it                      */
    compare_verdict verdict; /* CMP_MISSING unless both are ok          */
    int group;               /* its run-level group (resident view)     */
    double la[COMPARE_MAX_RUNS], lb[COMPARE_MAX_RUNS]; /* log levels, resident */
    int has_transfer;
    double ta[COMPARE_MAX_RUNS], tb[COMPARE_MAX_RUNS]; /* log levels, transfer */
} compare_point;

/* The run-level verdict of one device, mode and view that the runs share:
 * the geometric mean of the points' ratios with an interval that holds the
 * run-to-run variation (compare.c says how). */
typedef struct compare_group {
    char dev_a[32], dev_b[32];
    char model[256];
    char name[256]; /* the device as people name it in A (q_device_name) */
    int kind_cpu;   /* the device computes on the host's CPU (the reference
                     applies to it) */
    wl_mode mode;
    fit_view view;
    int npoints;
    double ratio, lo, hi;    /* geometric mean B/A and its interval          */
    double run_sd;           /* run-to-run SD of a run's log geomean used    */
    int df;                  /* the interval's degrees of freedom            */
    double point_sd;         /* robust scatter of the points' log ratios
                             around the geometric mean                    */
    double ref_ratio;        /* the machine's reference B/A (0: unknown)     */
    int corrected;           /* the times were corrected (opts.correct)      */
    double raw_ratio;        /* the geometric mean B/A before the correction */
    double median_ratio;     /* the same of the points' medians (corrected
                                as the ratio is)                          */
    compare_verdict verdict; /* CMP_SLOWER, CMP_FASTER, CMP_UNCHANGED or
                                CMP_INCONCLUSIVE                         */
    double se;               /* the standard error of the log ratio          */
    double detectable;       /* the smallest slowdown (ratio) this comparison
                                would call slower with COMPARE_POWER        */
    compare_gate gate;       /* the gate's one-sided answer                  */
    int paired;              /* judged on paired passes (compare_pair.c)    */
    int npairs;              /* paired: the complete pairs of passes used    */
    int na, nb;              /* unpaired: the runs of each side used         */
    int dropped;             /* paired: points of the group not measured in
                                every complete pair of passes (left out)  */
    char band_from[200];     /* where its run-to-run band came from          */
    char note[300];          /* a nuisance that did not decide (its size is
                                beyond what it was measured to do), or ""   */
    char settle[300];        /* when the gate is open: what would settle it  */
    char held[300];          /* when it is open with the interval below the
                                threshold: what held it (the medians, the
                                uncorrected times), else ""             */
    char why[300];           /* why inconclusive                             */
    char text[600];          /* the line: "cpu inference resident: 1.21×
                             slower (1.08–1.36), 24 shared points"        */
} compare_group;

/* How the times of devices that compute on the host's CPU are corrected
 * for the machine before they are compared (docs/compare.md measures
 * each): not at all; divided by the run's reference (refmark.h); or
 * multiplied by 1 − the share of the CPU that other processes took during
 * the run's passes (machstate.h), the share left to breakeven. */
typedef enum {
    COMPARE_CORRECT_NONE = 0,
    COMPARE_CORRECT_REFERENCE,
    COMPARE_CORRECT_LOAD
} compare_correct;

const char *compare_correct_name(compare_correct c); /* "none", "reference", "load" */

/* What the comparison is asked. */
typedef struct compare_opts {
    double threshold; /* the smallest slowdown that counts (> 1)          */
    double alpha;     /* 1 − the intervals' level                         */
    compare_correct correct;
    /* repeated runs of the same host and software (the archive), from
     * which the run-to-run band of one run per side is measured; any runs
     * may be given, those that do not qualify are left out */
    const results *const *band;
    int nband;
} compare_opts;

void compare_opts_default(compare_opts *o);

/* What COMPARE_CORRECT_LOAD subtracts from the log times of run r's
 * devices that compute on the host's CPU: −log(1 − the mean share of the
 * CPU that others took over its passes); 0 when no pass recorded it. */
double compare_load_log(const results *r);

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

/* A device, mode and view that A measured and B lost (compare.h's
 * COMPARE_LOST_SHARE): how many of A's points there, how many B did not
 * give, and why, by B's status. */
typedef struct compare_lost {
    char dev_a[32];
    wl_mode mode;
    fit_view view;
    int measured;   /* A's points there, ok in every run of A            */
    int lost;       /* of them, those B lost                               */
    int device;     /* B has no such device at all                         */
    int blocks;     /* all of them, or beyond COMPARE_LOST_SHARE: the gate
                      cannot pass                                         */
    char text[300]; /* "cl:0.0 inference resident: 12 of 12 points (12
                       failed verification)"                            */
} compare_lost;

#define COMPARE_MAX_CROSS 64
#define COMPARE_MAX_DIFFS 48
#define COMPARE_MAX_GROUPS 32

/* The warnings a comparison keeps (each run's, A's first). */
#define COMPARE_MAX_WARNINGS 8

/* What one run of a comparison recorded that its times may owe to the
 * machine rather than to what changed (prose.h's prose_flags: partial,
 * busy, throttled, drift, points not measured). */
typedef struct compare_warning {
    char side;      /* 'A' or 'B'                                          */
    char id[128];   /* the run                                             */
    char text[400]; /* "busy machine (3 passes); drift at 2 points"        */
} compare_warning;

typedef struct compare_set {
    char id_a[128], id_b[128];   /* the first run of each side           */
    int na, nb;                  /* runs per side                        */
    char ids_a[512], ids_b[512]; /* "X, Y, Z"                          */
    compare_opts opts;
    char band_from[1024]; /* where the run-to-run band came from, per device and
                             view when they differ                        */
    int npoints;
    compare_point *points; /* owned */
    int nfaster, nslower, nunchanged, nmissing, ninconclusive;
    int napart;     /* points that moved apart from their device's run */
    double geomean; /* geometric mean of the ok ratios (0: none) */
    int ngroups;
    compare_group groups[COMPARE_MAX_GROUPS];
    int nlost; /* what A measured and B lost, each device, mode and view */
    compare_lost lost[COMPARE_MAX_GROUPS];
    compare_verdict verdict;     /* over the groups: slower when any is, else
                                inconclusive when any is, else faster when
                                any is, else no change; not comparable
                                (CMP_MISSING) when no group is      */
    char why[400];               /* the gate's one line when inconclusive          */
    compare_gate gate;           /* FAIL when any group fails or B lost what A
                                    measured (a compare_lost that blocks),
                                    PASS when every group passes, else OPEN */
    char gate_why[800];          /* the gate's one line: the group that decided
                                    or held it open, what it could detect, and
                                    what would settle it                   */
    int paired;                  /* the sides are the two runs of one `ab`
                                    pair, judged on their paired passes     */
    double ref_ratio;            /* the machine's reference B/A (0: unknown)   */
    double ref_loop, ref_stream; /* its parts                         */
    /* the round trip between two of the host's CPUs (cachehop.h), seconds:
     * the median over each side's runs, and the quickest run of all (0:
     * unknown); and the runs a side left out because their CPUs were a
     * cache apart ("B2 20991…-x (317 ns)"), "" when none */
    double hop_a, hop_b, hop_min;
    int same_host; /* every run of both sides ran on one host: only then
                      do round trips compare between the sides           */
    char hop_left[400];
    int left_a, left_b;     /* ok points of A and of B that the other side lacks */
    char only_nets[2][256]; /* the networks (sizes) of A only and of B only,
                               ", "-separated; "" when none: not compared */
    int ncross;
    compare_cross cross[COMPARE_MAX_CROSS];
    int ndiffs;
    compare_diff diffs[COMPARE_MAX_DIFFS];
    int nwarnings;     /* the runs with something to warn of, A's first */
    int warnings_more; /* … beyond the COMPARE_MAX_WARNINGS kept         */
    compare_warning warnings[COMPARE_MAX_WARNINGS];
} compare_set;

/* The provenance fields in which b differs from a (host, hardware, OS,
 * OpenBLAS version, core and threads, breakeven version, the grid, and per
 * device its model, driver, library and kernel configurations), in that
 * order, at most max of them, into out; returns how many. */
int compare_provenance(const results *a, const results *b, compare_diff *out, int max);

/* Compares a (the older run) with b, with the default options.  BE_EFAIL
 * ("runs X and Y have no point in common ...") when no point matches.  Free
 * with compare_free. */
int compare_runs(const results *a, const results *b, compare_set *out, err *e);

/* Compares the runs a[0..na) (replicates of the older side) with
 * b[0..nb).  BE_EUSAGE when the replicates of one side differ in their
 * grid, devices or breakeven version, or when the sides have no point in
 * common (the message says what each has). */
int compare_sets(const results *const *a, int na, const results *const *b, int nb,
                 const compare_opts *o, compare_set *out, err *e);
void compare_free(compare_set *s);

/* "OpenBLAS (2 threads) in inference, data resident: 1.21× slower
 * (1.08–1.36), 24 shared points. It could detect ×1.05": the run-level
 * groups by the devices' names, a sentence or two each, then the points
 * that moved apart; without the last full stop, which the caller puts. */
void compare_summary(const compare_set *s, char *buf, size_t size);

/* The verdict and why, the threshold, the band's origin, the machine's
 * reference, what was left out and the points apart, as sentences (for
 * the page). */
void compare_lead(const compare_set *s, char *buf, size_t size);

typedef enum { COMPARE_TEXT = 0, COMPARE_MARKDOWN, COMPARE_JSON, COMPARE_CSV } compare_format;

/* The comparison as a text table (times in adaptive units, devices by id
 * and model, the test's p), then the crossover moves and the provenance
 * differences; as a Markdown table and lists (for an issue or a pull
 * request); or as one JSON object (numbers as numbers, null where there is
 * none). */
void compare_write(FILE *out, const compare_set *s, compare_format f);

/* The smallest true slowdown (a ratio) that the rule for "slower" (the
 * ratio at least R, the interval's lower end above 1) meets with power
 * COMPARE_POWER, for a log ratio with standard error se on df degrees of
 * freedom and intervals at 1 − alpha: exp(max(log R, t(1 − alpha/2)·se) +
 * t(power)·se), always above R (compare_gate.c, docs/compare.md). */
double compare_detectable(double se, int df, double alpha, double R);

/* Whether B regressed: a run-level group is slower (the gate fails). */
int compare_regressed(const compare_set *s);

/* The exit status of the gate: 0 pass, 3 fail, 4 open. */
int compare_gate_status(const compare_set *s);

#endif
