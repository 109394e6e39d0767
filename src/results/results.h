/*
 * results.h — the results model of one run, and its XML file.
 *
 * Everything after the measurement (the fit, the charts, the report, the
 * comparison of runs) reads this model, loaded from results.xml, never the
 * backends.  The file is written as a libxml2 tree (so escaping is correct
 * by construction), replaced atomically, and validated against the RELAX NG
 * schema src/results/results.rng (compiled in) whenever it is loaded.
 *
 * Three files implement it: the model (results.c), the writer
 * (results_write.c) and the validating loader (results_load.c).
 */
#ifndef BE_RESULTS_H
#define BE_RESULTS_H

#include "backend.h"
#include "list.h"
#include "machstate.h"
#include "net.h"
#include "refmark.h"
#include "stats.h"
#include "telemetry.h"

/* The newest format, the last one results_load reads: 1 (0.1.0 and
 * 0.2.0: the square stack only), 2 (0.3.0: points may name a network) and
 * 3 (a run with a framework device or a base the user chose).  A run is
 * written in the oldest of them that holds it (results_format). */
#define RESULTS_FORMAT 3

/* PT_FAILED: a framework device failed the point (its adapter's fault, a
 * FAIL reply, or a time beyond what physics allows: docs/devices.md);
 * PT_SKIPPED: breakeven's own backend could not run it (a device error). */
typedef enum {
    PT_OK = 0,
    PT_OUT_OF_MEMORY,
    PT_FAILED_VERIFICATION,
    PT_SKIPPED,
    PT_FAILED
} rs_status;
#define PT_NSTATUS 5

const char *results_status_name(rs_status s);

/* Where and how a run was measured. */
typedef struct rs_prov {
    char version[32], commit[64];
    char id[128], started[32], finished[32];
    char command[2048];
    char env[1024]; /* the environment that changes results (host_environment),
                       as shell words; "" when none was set or recorded   */
    unsigned long long seed;
    double budget;
    int layers;
    char hidden[512], batch[512], modes[32];
    char host[256], os[256], kernel[256], cpu_model[256], compiler[256];
    char label[64]; /* the machine's name as the user gave it (BREAKEVEN_MACHINE,
                       host.h's host_label), "" when none: named so, a run is
                       filed under it rather than the host name (q_machine_name) */
    int cores;
    double memory;
    char blas_version[64], blas_config[256], blas_core[64];
    int blas_threads;
    char blas_threads_from[32]; /* what decided them: "--threads",
                                   "OPENBLAS_NUM_THREADS" or "cores" ("" in files of 0.1.0) */
    /* a side of a paired comparison (`breakeven ab`, ab.h): the pair's id
     * and 'A' or 'B'; "" and 0 for a run of its own */
    char pair[128];
    char pair_side;
    /* the device the user chose to measure every other against (`--base`,
     * query.h's q_base); "" when none was chosen, and in files of 0.3.0
     * and before */
    char base[32];
} rs_prov;

/* One pass of the sweep: every point measured once more, in a shuffled
 * order (sweep.h), and what the machine did meanwhile. */
typedef struct rs_pass {
    int index;        /* 1-based, in the order run (refinement passes too) */
    char started[32]; /* UTC, ISO 8601                                */
    double seconds;   /* its wall time                                */
    int visits;       /* point × device measurements made in it       */
    machstate state;  /* see machstate.h; has_ flags say what was read */
    refmark ref;      /* the machine's reference, timed at the pass's end
                         (refmark.h); ref.has 0 in older files          */
    int hop_checks;   /* visits whose CPUs' round trip was timed
                         (cachehop.h); 0 when none was               */
    int hop_far;      /* of them, visits a cache apart               */
    double hop;       /* the median round trip of the pass, seconds  */
} rs_pass;

typedef struct rs_point {
    char device[32];
    wl_mode mode;
    int layers, hidden, batch; /* a network's: its layers, its widest size */
    char net[NET_NAME_MAX];    /* the network's name, "" for the square stack */
    char sizes[NET_SIZES_MAX]; /* its sizes "784-512-256-10", "" likewise */
    double flops_per_layer;    /* a network's: its FLOPs over its layers */
    rs_status status;
    char message[512];
    char why[160]; /* why the point was added ("" for grid points) */
    int verified;  /* 1 when the verification fields are set   */
    long checked;
    double max_error, tolerance; /* max_error NaN when it was not finite */
    char worst[128];
    int nsamples;                  /* 0 unless the point was measured          */
    step_times *samples;           /* owned by the point                       */
    int *pass;                     /* owned; the pass (rs_pass.index) of each sample,
                                 or NULL: all from one pass, numbered 0 (files
                                 of 0.1.0, test fixtures)                  */
    int has_transfer;              /* samples carry h2d/d2h/total (OpenCL)     */
    int has_whost;                 /* samples carry whost (OpenCL, networks)   */
    stats_summary resident;        /* of samples[].wall                        */
    stats_summary transfer;        /* of samples[].total, when has_transfer    */
    stats_summary whost;           /* of samples[].whost, when has_whost       */
    int nlayer;                    /* networks: layers with a time in layer_s (0: none) */
    long layer_n;                  /* the timed steps layer_s averages over     */
    double layer_s[WL_MAX_LAYERS]; /* mean seconds of each layer in a step
                                 (backend_ops.layer_times), resident      */
    tel_point tel;                 /* what the device reported while it was timed
                                 (telemetry.h); tel.kind TEL_NONE: nothing */
} rs_point;

/* ---- what the fit (fit.h) found: part of the model, so that the report
 * and the comparison of runs read it rather than recompute it ---- */

/* FIT_WHOST: weights on the host, copied to the device every call with
 * the inputs (networks only; no model or crossover of the square stack). */
typedef enum { FIT_RESIDENT = 0, FIT_TRANSFER = 1, FIT_WHOST = 2 } fit_view;

#define FIT_MAX_OUTLIERS 64

/* A model whose RMS relative error exceeds this is poor: stored, drawn as
 * what it is, and never the basis of a sentence. */
#define FIT_POOR_RMS 0.20

/* The model of one device × mode × view, over every hidden width (hidden
 * 0) or at one hidden width. */
typedef struct fit_model {
    char device[32];
    wl_mode mode;
    fit_view view;
    int hidden; /* 0: all widths; else the width it covers     */
    int ok;     /* 0 when it could not be fitted (see why)     */
    int poor;   /* ok, but rms_rel > FIT_POOR_RMS              */
    char why[160];
    int npoints;                    /* ok points used                              */
    double t0, t0_err;              /* seconds per layer-step (≥ 0), its std. error */
    double P, P_err;                /* FLOP/s, and its standard error              */
    double half_size;               /* t0·P, FLOPs per layer                       */
    double rms_rel;                 /* RMS of (measured − model) / model           */
    double fmin, fmax;              /* the measured range of f                     */
    int noutliers;                  /* points far off the model (|rel. res.| > 3 RMS and > 10%) */
    int outliers[FIT_MAX_OUTLIERS]; /* their indexes in results.points      */
} fit_model;

typedef enum {
    CROSS_IN_RANGE,     /* the other device becomes faster inside the measured range */
    CROSS_EXTRAPOLATED, /* never faster in range, but the fit predicts a crossing    */
    CROSS_NEVER,        /* never: the other device's P is not higher                 */
    CROSS_ALWAYS,       /* faster everywhere measured                                */
    CROSS_UNKNOWN       /* a model is missing (too few points, OOM, …)               */
} cross_kind;

/* The crossover batch at one hidden width, from the measured ratio and
 * its uncertainty (xover.h). */
typedef struct fit_hidden_cross {
    int hidden;
    cross_kind kind;           /* in-range, never, always or unknown              */
    double batch;              /* interpolated batch (in-range only)              */
    double flops;              /* FLOPs per layer at that batch                   */
    double batch_lo, batch_hi; /* its 95% interval within the measured
                                  batches (never, always: where a crossing
                                  could still be); both 0 when not computed
                                  (fits of analysis 1)                      */
    int lo_open, hi_open;      /* the interval reaches below the smallest,
                                  or beyond the largest, measured batch     */
} fit_hidden_cross;

/* Where `other` starts to beat `base` (in time, or in cost). */
typedef struct fit_crossover {
    char base[32], other[32];
    wl_mode mode;
    fit_view view;
    int cost;                    /* 1: cost per step (needs both prices)       */
    cross_kind kind;             /* the summary over the hidden widths (fit.h)  */
    double flops;                /* a representative FLOPs per layer: the median
                                of the per-width crossovers (in-range) or of
                                the models' predictions (extrapolated)      */
    double flops_min, flops_max; /* their range (0 and 0 for the other kinds,
                                and in fits of analysis 1)                  */
    double ci_lo, ci_hi;         /* a 95% interval holding every per-width
                                interval (0 and 0 when unbounded)           */
    int nhidden;
    fit_hidden_cross per_hidden[LIST_MAX];
    char sentence[1024]; /* the answer in words (see fit_sentence)      */
} fit_crossover;

/* Prices in USD per hour, by device id. */
#define FIT_MAX_PRICES 16
typedef struct fit_prices {
    int n;
    char device[FIT_MAX_PRICES][32];
    double usd_per_hour[FIT_MAX_PRICES];
} fit_prices;

/* Everything fitted for one run. */
typedef struct fit_set {
    int nmodels;
    fit_model *models; /* owned */
    int ncross;
    fit_crossover *cross; /* owned */
    int analysis;         /* the method's version (FIT_ANALYSIS in fit.h);
                                1 for fits stored without one (0.1.0)       */
} fit_set;

typedef struct results {
    int partial; /* 1 until the run finished every point     */
    rs_prov prov;
    int ndevices;
    device_info *devices; /* owned */
    int npoints, cap;
    rs_point *points; /* owned, each owning its samples */
    int npasses;
    rs_pass *passes; /* owned; the passes run, in order         */
    int has_fit;     /* fit and fit_seed are set               */
    fit_set fit;     /* owned (its arrays)                     */
    unsigned long long fit_seed;
    fit_prices prices; /* the prices the cost crossovers used     */
} results;

/* Allocates an empty model; NULL when out of memory.  Free with results_free. */
results *results_new(void);
void results_free(results *r);

int results_add_device(results *r, const device_info *d, err *e);
/* Appends a copy of p (its samples copied too). */
int results_add_point(results *r, const rs_point *p, err *e);
/* Removes point i (and frees its samples); later points move down one. */
void results_remove_point(results *r, int i);
/* Appends t[0..n), all measured in pass, to p's samples (p->pass is
 * created when p had none: its earlier samples become pass 0). */
int results_add_samples(rs_point *p, const step_times *t, int n, int pass, err *e);
/* Appends a copy of ps. */
int results_add_pass(results *r, const rs_pass *ps, err *e);
/* The device description of a point, or NULL. */
const device_info *results_device(const results *r, const char *id);
/* The format r is written in (results_save): 3 when it has a framework
 * device or a base the user chose (prov.base), a run whose crossovers are
 * not all against the OpenBLAS CPU as a reader of format 2 takes them, so
 * that every older breakeven refuses it in its one line about a newer
 * format; else 2, and such a run is written exactly as 0.3.0 wrote it. */
int results_format(const results *r);

/* A point's summaries take every sample, unless the host's CPUs were a
 * cache apart (step_times.far; cachehop.h) around some of them and the
 * data show that this changes the device's time at this point: the near
 * samples, at least half of all and from at least RESULTS_NEAR_PASSES
 * passes, have an interval (stats_summarize_passes) that the far samples'
 * median lies outside.  Then the summaries take the near samples.  Never
 * fewer than half, nor one pass: a rule that left far samples out whenever
 * 3 near ones remained summarized points from 3 samples of one pass that
 * the other 100 contradicted (docs/statistics.md). */
#define RESULTS_NEAR_PASSES 2

/* Computes p's summaries from its samples (resident, and transfer when the
 * samples have it), by stats_summarize_passes when p->pass is set: with
 * several passes the interval of the median includes how they differ.
 * The samples taken are results_summary_samples's. */
int results_summarize(rs_point *p, err *e);
/* The samples p's summaries take (the rule above): their indices into idx
 * (NULL: none written; else room for p->nsamples); returns how many, or
 * BE_EFAIL when out of memory. */
int results_summary_samples(const rs_point *p, int *idx);
/* The times in view v of the samples p's summaries take, into x, and
 * their passes into pass (0 where p records none); both with room for
 * p->nsamples.  Returns how many, or BE_EFAIL when out of memory. */
int results_view_samples(const rs_point *p, fit_view v, double *x, int *pass);
/* The drift test behind the view's summary, again from p's samples (the
 * ones its summary takes, in the order measured): the combined z and the
 * ratio (stats_drift), which the results file does not store but for the
 * ratio; 0 and 0 when nothing was tested.  BE_EFAIL when out of memory. */
int results_drift(const rs_point *p, fit_view view, double *z, double *ratio, err *e);
/* results_summarize, with the prior of p's device (stats_prior) fitted
 * from the spreads of its points' summaries in r as they stand (p's
 * own, just computed, among them; none from fewer than
 * STATS_PRIOR_POINTS points of 2 passes or more); then, for a device
 * that computes on the host's CPUs (devinfo_on_host: the CPU, an OpenCL
 * device of type CPU; or one r does not describe), each interval
 * extended down for the CPU share that others took during the passes of
 * p's samples (the largest share of those passes in r->passes that
 * recorded it; see stats_contention).  A GPU's intervals are not: its
 * kernels do not share the host's CPUs. */
int results_summarize_in(const results *r, rs_point *p, err *e);
/* Every point of r with samples summarized again (results_summarize_in),
 * each with its device's prior from all of them. */
int results_summarize_all(results *r, err *e);

/* How far one whole run of a device lies from another beyond what its
 * passes show: the standard deviation of its log time from run to run,
 * which every interval of more than one pass takes on top of the passes'
 * own (stats_prior's run_var).  A run cannot see it: its passes share the
 * process, the buffers, the clocks' state and the minute.  Measured
 * (docs/statistics.md, "What a run cannot see"): on the 24 runs of one
 * H200 machine, from each run's earlier ones, 0.015 for the GPU and 0.073
 * for its host's OpenBLAS; fixed here at what met the 83% that exact
 * intervals would give on both that study and 8 runs of a 2-vCPU AMD
 * EPYC VM: 0.06 for what computes on the host's CPUs, 0.03 for a device
 * off them with its data resident, 0.06 with the transfers (the H200's
 * transfer times varied three times more from run to run than its
 * kernels, docs/compare.md). */
#define RESULTS_RUN_SD_HOST 0.06
#define RESULTS_RUN_SD_DEVICE 0.03
#define RESULTS_RUN_SD_DEVICE_TRANSFER 0.06
/* The run-to-run variance of device dev in view v: the square of what
 * was learned for it (device_info's run_sd, results_learn_bands), else
 * of its default; the host's for a device r does not describe. */
double results_run_var(const results *r, const char *dev, fit_view v);
/* The default above of device d (NULL: the host's) in view v. */
double results_run_sd_default(const device_info *d, fit_view v);

/* Learning σ_R (results_band.c): from at least RESULTS_BAND_RUNS_MIN
 * earlier runs, the newest RESULTS_BAND_RUNS_MAX of them, a view of a
 * device with at least RESULTS_BAND_POINTS points measured in two of them;
 * the default counts as RESULTS_BAND_PRIOR_DF runs beyond one. */
#define RESULTS_BAND_RUNS_MIN 2
#define RESULTS_BAND_RUNS_MAX 8
#define RESULTS_BAND_POINTS 5
#define RESULTS_BAND_PRIOR_DF 2
/* Sets each device of cur's run_sd (device_info) from runs[0..n), earlier
 * runs of the same host and software as cur (the caller chooses them:
 * compare.h's compare_provenance), as results_band.c says; a device or
 * view they cannot say is left to the defaults (run_sd_runs 0, run_sd
 * −1).  BE_EFAIL when out of memory, every device then left to them. */
int results_learn_bands(results *cur, const results *const *runs, int n, err *e);

/* GFLOP/s of a point from a step time (all layers). */
double results_gflops(const rs_point *p, double seconds);

/* Makes fs (fitted with seed) and prices part of r: r takes over fs's
 * arrays (fs is emptied) and frees any fit it had. */
void results_set_fit(results *r, fit_set *fs, unsigned long long seed, const fit_prices *prices);

/* Writes r to path atomically, inside out through no link below it
 * (fsx_write_in: out is OUT for a run's file there; NULL, by path, for a
 * file the user named outside OUT).  BE_EFAIL, and nothing written, when a
 * number to be written is not finite (except a point's max_error, which the
 * file then omits), or when the bytes about to be written fail any check of
 * results_load ("not saved, as breakeven would refuse to load it: ..."):
 * breakeven never writes a results file it would refuse. */
int results_save(const results *r, const char *out, const char *path, err *e);

/* Whether every number results_save would write of p is finite: 1 when it
 * is; 0 when not, with what (of size bytes) naming the first ("<s>
 * attribute \"wall\" would be inf"); BE_EFAIL when out of memory.  The
 * sweep asks after each visit, so that a number no file can hold fails its
 * point alone, never the run's save. */
int results_point_saveable(const rs_point *p, char *what, size_t size);

/* The most a results file may hold: results_load refuses more (see the
 * README, "Trust model").  Memory stays within a few hundred MB. */
#define RESULTS_MAX_BYTES (64L * 1024 * 1024)
#define RESULTS_MAX_NODES 2000000L /* elements and attributes, together     */
#define RESULTS_MAX_ATTRS 128      /* attributes in one tag                  */
#define RESULTS_MAX_DEVICES 64
#define RESULTS_MAX_POINTS 100000
#define RESULTS_MAX_SAMPLES 10000 /* per point (a run takes at most 2000)   */
#define RESULTS_MAX_PASSES 1000   /* passes of a sweep, refinement included */
/* a point's layers, hidden width and batch size: a run measures no more
 * (plan.h's limits are these) */
#define RESULTS_MAX_LAYERS 64
#define RESULTS_MAX_HIDDEN 65536
#define RESULTS_MAX_BATCH 1048576

/* Loads path, a results file from anywhere: only a regular file, validated
 * against the schema, then checked for sense (unique points, known devices,
 * numbers in range, summaries that fit their samples).  Every number of the
 * model is finite, except max_error, NaN when the file omits it (a
 * verification that found a non-finite value).  Text is valid UTF-8 (see
 * utf8_copy).  *out is the caller's to free.  Errors read "path:line: what
 * is wrong" ("path: what is wrong" about the file itself), on one line. */
int results_load(const char *path, results **out, err *e);

/* results_load's checks on bytes[0..len) already in memory (read by
 * infile.h, or decompressed): path names them in errors. */
int results_load_bytes(const char *path, const char *bytes, size_t len, results **out, err *e);

/* What one process has checked already, so that a report that reads a run
 * twice (for its digest, then for its pages) compiles the schema once and
 * checks each run against it once: the schema, compiled at the first
 * load, and the bytes of each results file that passed every check (their
 * length and a hash).  The same bytes read again skip the schema, never
 * the other checks of sense, which the loader makes on every model
 * whatever the schema said; other bytes under the same name are checked
 * in full.  The hash is a checksum, not a defence against forgery: who
 * can rewrite a file of OUT between the two reads can rewrite the pages.
 * The caller owns a memo (results_memo_new, NULL when out of memory;
 * results_memo_free) and passes it where a load may take one; NULL there:
 * a load as results_load. */
typedef struct results_memo results_memo;
results_memo *results_memo_new(void);
void results_memo_free(results_memo *m);
/* What m remembers of the documents that passed the schema, from its
 * from-th on, as *len bytes that m keeps (valid until its next load): so
 * that a process forked from the one holding m hands back what it
 * checked, and results_memo_merge adds it to the parent's memo (the same
 * program on both sides).  results_memo_count: how many it remembers.
 * The merge returns BE_EFAIL when out of memory (then m stays as it was:
 * it only costs the schema again). */
size_t results_memo_count(const results_memo *m);
const void *results_memo_record(const results_memo *m, size_t from, size_t *len);
int results_memo_merge(results_memo *m, const void *record, size_t len);
int results_load_file(const char *path, results_memo *m, results **out, err *e);
int results_load_memo(const char *path, const char *bytes, size_t len, results_memo *m,
                      results **out, err *e);

#endif
