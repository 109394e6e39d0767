/*
 * query.h — the questions every reader of a results model asks, answered
 * once.
 *
 * The fit, the charts, the report's prose and tables, the comparison of
 * runs and the refinement all read the same model (results.h); when each
 * answered "which device is the base?", "which point is this shape?" or
 * "which shapes did every device complete?" on its own, the answers drifted
 * apart, and a chart's paragraph could total other shapes than its bars.
 * Here each question has one answer and one policy.  Read-only views over
 * a loaded model: nothing here allocates, prints or fails.
 */
#ifndef BE_QUERY_H
#define BE_QUERY_H

#include "results.h"

/* ---- devices ------------------------------------------------------------ */

/* The index in r->devices of the run's base device: the one its user
 * chose (`--base`, prov.base) when r has it, else the first device of kind
 * "openblas", else the first of type "CPU", else the first device (0 when
 * r has none).  Every device is
 * compared with it but where q_base_for says otherwise. */
int q_base(const results *r);
/* Its id, or "" when r has no device. */
const char *q_base_id(const results *r);

/* The stack device dev computes in, as a name a reader knows: its
 * framework for a framework device ("PyTorch", "ONNX Runtime": its
 * "framework" property, else its id up to the colon), "" for breakeven's
 * own (OpenBLAS on the CPU and breakeven's OpenCL kernels), and for a
 * device r does not describe. */
const char *q_stack(const results *r, const char *dev, char *buf, size_t size);

/* The index of the device that device d's ratios, crossovers and verdicts
 * are against: q_base when the user chose the base (`--base`); otherwise
 * the CPU device of d's own stack (breakeven's: q_base; a framework's: its
 * device of type "CPU"), so that PyTorch's GPU is set against PyTorch's
 * CPU as a PyTorch user would; q_base where d is that device itself or
 * its stack has none in r.  Equal to d only for q_base itself. */
int q_base_for(const results *r, int d);
/* Its id ("" when r has no device). */
const char *q_base_id_for(const results *r, const char *dev);
/* 1 when every device of r is against q_base (q_base_for), so that a
 * chart or a sentence may name one base for all; 0 where stacks have
 * bases of their own. */
int q_single_base(const results *r);

/* 1 when device d of r runs two sets of threads on the same CPUs: a
 * framework's CPU device (kind "framework", type "CPU") whose hello says
 * it calls a pthread build of OpenBLAS (blas-variant "pthread") with more
 * than one thread (blas-threads) from more than one OpenMP thread of its
 * own (omp-threads), together more threads than the machine's CPUs
 * (prov.cores).  Each set's threads wait, spinning, on CPUs the other
 * holds (docs/devices.md, "Its BLAS and threads", has what it cost
 * Debian's PyTorch on a 2-CPU VM); an OpenMP build of OpenBLAS runs on
 * the framework's own OpenMP threads instead.  The two counts go to *omp
 * and *blas when the answer is 1 (either may be NULL).  0 for a device
 * that does not say (breakeven's own, an older adapter, another BLAS), a
 * GPU device (its steps do not run on the host's BLAS), and an index
 * outside r. */
int q_blas_contends(const results *r, int d, int *omp, int *blas);

#define Q_NO_DEVICE (-1)
/* The index of device id in r->devices, or Q_NO_DEVICE. */
int q_device_index(const results *r, const char *id);

/* 1 when r has a point of mode m on device dev (NULL: on any device). */
int q_has_mode(const results *r, const char *dev, wl_mode m);
/* 1 when r has a point of the square stack (no network) in mode m: the
 * run page's charts and table of hidden widths are about those only. */
int q_has_square(const results *r, wl_mode m);

/* ---- passes ------------------------------------------------------------- */

/* The CPUs' worth of time that other processes and the hypervisor took
 * during pass p of r: (others-cpu + steal) × the machine's CPUs (one when
 * unrecorded); 0 when p has no CPU readings. */
double q_pass_taken(const results *r, const rs_pass *p);
/* 1 when that reached MACHSTATE_BUSY_CPUS: a busy machine, warned of
 * wherever the run's warnings are. */
int q_pass_busy(const results *r, const rs_pass *p);
/* The round trip of a cache line between two of the host's CPUs during
 * run r (cachehop.h): the median of its passes' medians, seconds; 0 when
 * no pass timed it. */
double q_run_hop(const results *r);
/* The quickest of runs r[0..n)'s round trips (q_run_hop); 0 when none
 * recorded one. */
double q_runs_hop_quickest(const results *const *r, int n);
/* The visits of r whose CPUs were a cache apart, and those timed, into
 * *far and *checked; and the points whose summaries take their near
 * samples only (results_summary_samples: the far ones were shown to change
 * the time), returned. */
int q_run_far(const results *r, int *far, int *checked);

/* ---- points ------------------------------------------------------------- */

/* 1 when p was measured successfully and has a positive, finite median
 * step time in the resident view (the only speeds anything draws or sums). */
int q_ok(const rs_point *p);
/* The fp32 peak of device dev of r in FLOP/s (devinfo_peak), 0 when it
 * cannot be known. */
double q_peak(const results *r, const char *dev);
/* 1 when p (q_ok) measured a throughput (its median, resident) above its
 * device's known peak: a measurement that cannot be true, never quoted as
 * a device's best and warned of wherever the run's warnings are. */
int q_beyond_peak(const results *r, const rs_point *p);
/* p's throughput at step time t in GFLOP/s as it may be published: NAN
 * when it lies above device d's known peak (d may be NULL: no peak known),
 * so that no export or live line prints a figure that cannot be true. */
double q_gflops_shown(const device_info *d, const rs_point *p, double t);
/* The same for view v: FIT_TRANSFER also needs the point's transfer times. */
int q_ok_view(const rs_point *p, fit_view v);
/* The median step time of an ok point in view v (q_ok_view). */
double q_median(const rs_point *p, fit_view v);
/* The summary that stands for point p's step time in view v when devices
 * are set against one another: a host device's (kind "openblas") resident
 * one in every view, as it computes where the program's data already are
 * (the rule of q_base_model), another device's own in v; its median and
 * 95% interval (ci_lo, ci_hi) are those the report's tables show.  NULL
 * when p is not ok in that view (q_ok, q_ok_view). */
const stats_summary *q_summary_in(const results *r, const rs_point *p, fit_view v);
/* The step time that comparisons of runs compare (compare.h, history.h):
 * the 10th percentile of an ok point's samples in view v.  On a shared
 * machine the neighbours only ever add time, so a point's quick tenth
 * moves less between runs than its median does (docs/compare.md,
 * "Which step time"). */
double q_level(const rs_point *p, fit_view v);

/* The point of device dev at one shape: the first usable one (q_ok), else
 * the first one (so that its status can be reported), else NULL.  layers
 * ≤ 0 matches any depth (one run measures one depth; a comparison of runs
 * keys on it). */
const rs_point *q_point(const results *r, const char *dev, wl_mode m, int hidden, int batch);
const rs_point *q_point_layers(const results *r, const char *dev, wl_mode m, int layers, int hidden,
                               int batch);
/* The same for one network: sizes "784-512-256-10" matches only that
 * network's points, "" only the square stack's, NULL either.  Two runs'
 * points are the same workload only with the same sizes (a network's
 * layers and hidden width, its widest size, do not tell networks apart);
 * the names may differ. */
const rs_point *q_point_net(const results *r, const char *dev, wl_mode m, int layers, int hidden,
                            int batch, const char *sizes);
/* The point taken for p's device, mode, depth, width, batch and network,
 * its name as well as its sizes (two networks of the same sizes named
 * apart are two workloads of one run): the first usable one, else the
 * first.  A run's points are each published once so (the dashboards). */
const rs_point *q_point_of(const results *r, const rs_point *p);

/* A median's interval reaching further than this from it, on either side,
 * is flagged wherever the median is shown: the report's tables, stdout. */
#define Q_WIDE 0.10

/* The 95% interval of s's median relative to it: *below and *above (≥ 0,
 * fractions of the median; the two differ, as passes and contention make
 * intervals asymmetric).  Returns 1 when either exceeds Q_WIDE. */
int q_ci_rel(const stats_summary *s, double *below, double *above);

/* An interval too wide to inform: its upper end more than Q_UNINFORMATIVE
 * times its lower, a lower end at or below 0, or an end not finite.  Such an
 * interval says only that the value is somewhere in orders of magnitude (a
 * busy host's --quick run gave a CPU step "0.0332 µs to 513 s"): wherever it
 * is shown it is flagged "uninformative" (the run table, pages, prose,
 * decision.json, `which`, the dashboard formats), and no rule that compares
 * intervals (a tie, a verdict) takes it as evidence.  The one rule, asked
 * here only. */
#define Q_UNINFORMATIVE 2.0
int q_ci_uninformative(double lo, double hi);
/* q_ci_uninformative of a summary's 95% interval of the median. */
int q_summary_uninformative(const stats_summary *s);
/* Why an ok point's resident interval stayed uninformative, the first
 * that holds: others' load (the interval was extended down for it,
 * stats_contention, and would be informative without); too few passes
 * (under Q_PAIRED_PASSES: Student's t of one degree of freedom is 12.7);
 * its passes disagree (their medians more than Q_UNINFORMATIVE apart: the
 * device's own time changed from visit to visit, as a framework's threads
 * stalling on one another do); else its samples scatter within passes. */
typedef enum { Q_VAGUE_LOAD, Q_VAGUE_FEW, Q_VAGUE_PASSES, Q_VAGUE_SCATTER, Q_VAGUE_N } q_vague_why;

/* One device's uninformative points. */
typedef struct q_vague {
    char device[32];
    int n;              /* its ok points whose interval is uninformative */
    int why[Q_VAGUE_N]; /* how many of them for each reason              */
    int passes;         /* the most passes one of them stands on          */
    /* the one whose passes' medians lie furthest apart (NULL: none has
     * two passes), and its quickest and slowest pass medians */
    const rs_point *apart;
    double apart_lo, apart_hi;
} q_vague;

/* The uninformative points of r, per device in r's order of devices (those
 * with none left out), into out (room for max); returns how many devices,
 * or BE_EFAIL when out of memory. */
int q_run_vague(const results *r, q_vague *out, int max);

/* The 95% interval of the ratio of base point pb's time (view vb) to
 * other point po's (view vo), the advantage of the other device, into
 * [*lo, *hi].  Paired where the two were measured in at least
 * Q_PAIRED_PASSES common passes (stats_paired_log_ratio: in each pass the
 * two devices were visited seconds apart, so what the machine did then
 * falls on both), around the ratio of the medians, its lower end extended
 * for contention on the base alone, its upper end for contention on the
 * other alone (stats_contention), its variance pooled with prior
 * (q_ratio_prior; NULL: none); returns 1.  Else the two intervals at
 * their opposite ends (ci_lo/ci_hi, ci_hi/ci_lo); returns 0.  The one rule
 * for a ratio's interval: the findings' extremes, the crossovers. */
#define Q_PAIRED_PASSES 3
int q_ratio_ci(const rs_point *pb, fit_view vb, const rs_point *po, fit_view vo,
               const stats_prior *prior, double *lo, double *hi);
/* The prior (stats_prior) of q_ratio_ci's paired variance for device base
 * in view vb against other in view vo: fitted from the variances of the
 * log ratios over the passes at every cell of r both measured (mode,
 * depth, width, batch, network), as a point's own variance is pooled over
 * its device's points (results_summarize_in); none from fewer than
 * STATS_PRIOR_POINTS cells, or when out of memory. */
void q_ratio_prior(const results *r, const char *base, fit_view vb, const char *other, fit_view vo,
                   stats_prior *out);

/* One batch of a network both base (resident) and other (view v)
 * completed: base's median time over other's and its 95% interval
 * (q_ratio_ci). */
typedef struct q_net_ratio {
    int batch;
    double adv, lo, hi;
} q_net_ratio;
#define Q_NET_BATCHES 256

/* The batches of network sizes in mode m both completed, the largest
 * first, at most max, into out.  Returns how many. */
int q_net_ratios(const results *r, const char *base, const char *other, wl_mode m, fit_view v,
                 const char *sizes, q_net_ratio *out, int max);

/* Of those: how many (n), where other's median is ahead (ahead), where
 * other is ahead beyond its interval (sure) and behind beyond it
 * (behind), and the smallest batch from which other's median is ahead at
 * every batch measured (from; 0: at none, the largest batch included). */
typedef struct q_net_side {
    int n, ahead, sure, behind, from;
} q_net_side;
void q_net_sides(const results *r, const char *base, const char *other, wl_mode m, fit_view v,
                 const char *sizes, q_net_side *out);

/* FLOPs per layer at a possibly fractional batch (they are linear in it). */
double q_flops_at(wl_mode m, int hidden, double batch);

/* ---- shapes ------------------------------------------------------------- */

#define Q_MAX_GRID 256

/* The distinct hidden widths and batch sizes of a mode's points, each
 * ascending (at most Q_MAX_GRID of each). */
typedef struct q_grid {
    int nh, nb;
    int h[Q_MAX_GRID], b[Q_MAX_GRID];
} q_grid;

void q_grid_make(const results *r, wl_mode m, q_grid *g);

typedef struct q_shape {
    int hidden, batch;
} q_shape;

/* Shapes a caller's buffer holds: a grid of LIST_MAX × LIST_MAX, with room
 * for the refinement's extra batches. */
#define Q_MAX_SHAPES 4096

/* The shapes measured in mode m (on any device, any status), by hidden
 * width then batch; at most max.  Returns the count. */
int q_shapes(const results *r, wl_mode m, q_shape *out, int max);

/* The devices that a comparison of mode m against the base takes, marked
 * in use[0..r->ndevices): those with a point in m and, when prices is not
 * NULL (a comparison of cost), a positive price in it.  Returns how many.
 * The relative time and cost charts and their paragraphs take these. */
int q_compared(const results *r, wl_mode m, const fit_prices *prices, int *use);

/* The shapes of mode m that every device d with use[d] set completed
 * (q_ok), in the order of q_shapes; use NULL means every device with a
 * point in mode m.  The one definition behind the relative time and cost
 * charts and their paragraphs.  Returns the count (at most max). */
int q_completed(const results *r, wl_mode m, const int *use, q_shape *out, int max);

/* The sum over shapes[0..n) of the median times of device dev in view v
 * (the resident view where a shape has no transfer times, with *partial
 * set to 1 then; partial may be NULL).  Every shape must be q_completed
 * by dev. */
double q_total(const results *r, const char *dev, wl_mode m, const q_shape *shapes, int n,
               fit_view v, int *partial);

/* ---- energy (telemetry.h) ------------------------------------------------ */

#define Q_NO_ENERGY (-1.0)
/* The energy of one step of a usable point (q_ok) in joules: the energy
 * over the timed samples its telemetry covers, per sample; Q_NO_ENERGY
 * (negative) when it has none. */
double q_energy(const rs_point *p);
/* The time of one of the steps q_energy's figure was measured over, in
 * seconds: the span of the energy counter over those steps (timed samples,
 * or an energy run's untimed steps, telemetry.h), per step; Q_NO_ENERGY
 * when p has no energy or its run did not keep the span. */
double q_energy_step(const rs_point *p);
/* 1 when a point of mode m on device dev (NULL: on any device) has energy. */
int q_has_energy(const results *r, const char *dev, wl_mode m);

/* Why dev recorded no energy, as the run stored it: "absent", "root-only"
 * or "unreadable" for a CPU without RAPL readings (telemetry.h,
 * tel_rapl_why); NULL when the run did not say (runs before 0.3.0, a GPU). */
const char *q_energy_none(const results *r, const char *dev);
/* The energy crossover of other against base at one hidden width, from the
 * batches where both have energy per step (q_energy): the batch from which
 * other uses less per step, found as the crossovers of time are (after the
 * last batch where other does not use less, log(ratio) interpolated
 * linearly in log(batch) to 1; CROSS_NEVER, CROSS_ALWAYS in range;
 * CROSS_UNKNOWN without a common batch).  Returns how many batches were
 * compared. */
int q_energy_cross(const results *r, const char *base, const char *other, wl_mode m, int hidden,
                   fit_hidden_cross *h);

/* ---- the fit ------------------------------------------------------------ */

/* The fit stored in r, or NULL when r has none. */
const fit_set *q_fit(const results *r);

/* The model of one device × mode × view over every hidden width in fs
 * (NULL-safe), or NULL. */
const fit_model *q_model(const fit_set *fs, const char *dev, wl_mode m, fit_view v);
/* The same at one hidden width (0: over every width), or NULL: a width
 * with fewer than 3 usable batches has none. */
const fit_model *q_model_at(const fit_set *fs, const char *dev, wl_mode m, fit_view v, int hidden);
/* 1 when m was fitted and can be evaluated (ok, P > 0, finite). */
int q_model_ok(const fit_model *m);
/* 1 when m can be evaluated and fits its points (not poor): the only
 * models a sentence may rest on. */
int q_model_sound(const fit_model *m);
/* The base device's model to set against another device's view v: its own
 * model of v when it has one, else its resident one (a CPU computes where
 * its data already are, so its resident time is what a transfer-inclusive
 * time competes with). */
const fit_model *q_base_model(const fit_set *fs, const char *dev, wl_mode m, fit_view v);
const fit_model *q_base_model_at(const fit_set *fs, const char *dev, wl_mode m, fit_view v,
                                 int hidden);

/* The crossover of other against base (NULL: any base) in fs (NULL-safe),
 * in time (cost 0) or cost (1), or NULL. */
const fit_crossover *q_cross(const fit_set *fs, const char *base, const char *other, wl_mode m,
                             fit_view v, int cost);

#define Q_NO_PRICE (-1.0)
/* The name a person uses for device dev of r, short and recognisable,
 * made from what the run recorded: the library or driver family and the
 * device ("OpenBLAS (2 threads)", "PoCL (CPU)", "NVIDIA H100 80GB HBM3",
 * "rusticl llvmpipe", "PyTorch (CPU)", "PyTorch on NVIDIA H100 80GB HBM3"), without the trademarks and build strings of the raw
 * ones ("(R)", "pthread-", "Portable Computing Language").  Unique within
 * r: when two devices would read the same, each gets its id in brackets.
 * The titles, prose, legends and the feed name devices by it; the raw
 * strings stay in the devices table and the results file.  A synthetic
 * device (q_synthetic) is named with " (synthetic)" after, so that none
 * of its figures is ever read as a measurement.  An id that r does not
 * hold is written as it is. */
void q_device_name(const results *r, const char *dev, char *buf, size_t size);

/* The price of a device in USD per hour, or Q_NO_PRICE (negative) when p
 * is NULL or does not price it. */
double q_price(const fit_prices *p, const char *dev);

/* The fingerprint of the hardware a run was measured on, 8 hex digits of
 * a hash of its CPU model, cores and memory (to the GiB) and the models of
 * its devices beside the CPU (each distinct one, in order of name; a run
 * of CPUs alone hashes as before devices counted): what tells apart two
 * machines that share a host name, and a machine from itself with another
 * GPU. */
void q_machine_print(const results *r, char *buf, size_t size);

/* The name a run's machine goes by on the pages: its label
 * (BREAKEVEN_MACHINE, host.h) when it has one, else its host name. */
const char *q_machine_name(const results *r);

/* Whether a and b were measured on the same machine: the same name
 * (q_machine_name) and the same fingerprint.  A label tells apart runs of
 * one host (a fleet's tasks on one node) but never merges two hardwares. */
int q_same_machine(const results *a, const results *b);

/* ---- what a reader must know before any figure (issue 47) --------------- */

/* The caveats of a run, as bits of q_caveats: each changes what its
 * figures mean, so every output says it where the reader looks first
 * (prose_caveats writes the words once). */
#define Q_CAVEAT_PARTIAL 1     /* the run did not finish (r->partial)          */
#define Q_CAVEAT_SYNTHETIC 2   /* a device's times were made up (q_synthetic)  */
#define Q_CAVEAT_NO_GPU 4      /* no measured device of type GPU               */
#define Q_CAVEAT_HANDICAPPED 8 /* OpenBLAS ran older kernels than its CPU's    */

/* Whether device d of r holds made-up times rather than measurements: its
 * "synthetic" property, which the fixtures' makers set
 * (tests/data/stack/make_synthetic.py, test_decide's --write-stack-fixture)
 * and no measurement does. */
int q_synthetic(const results *r, int d);

/* Why device d of r ran slower kernels than its CPU has (its
 * "openblas-underuses" property, cpu.h: "Prescott kernels on a CPU with
 * avx512: OPENBLAS_CORETYPE=SkylakeX would use them"), or NULL. */
const char *q_handicap(const results *r, int d);

/* The machine of r as a person names it, by its CPU rather than its
 * host name (an id): "Intel Xeon Processor (2 cores)", without the
 * trademarks; its host name where the run recorded no CPU model. */
void q_machine_words(const results *r, char *buf, size_t size);

/* The run's caveats, Q_CAVEAT_* or-ed; 0 when there are none.  No GPU
 * counts only devices measured: a synthetic GPU is none. */
int q_caveats(const results *r);

#endif
