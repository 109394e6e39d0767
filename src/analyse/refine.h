/*
 * refine.h — the refinement policy: after the grid, measure more where the
 * answer is uncertain.
 *
 * The grid spends seven tenths of the budget; then the run is fitted (fit.h),
 * and while a hidden width's crossover batch has a 95% interval wider than
 * ±REFINE_REL (or open) and time is left before REFINE_SHARE of the budget,
 * the batch sizes between the measured batches that bracket it are
 * measured too (sweep.h), each stored with the reason, for at most
 * REFINE_ROUNDS rounds.  What is left goes to further passes over the
 * points whose intervals say nothing (refine_precision).  The final fit becomes part of the results.  The command
 * only decides that a run refines (--no-refine); when and where is decided
 * here.
 */
#ifndef BE_REFINE_H
#define BE_REFINE_H

#include <signal.h>

#include "fit.h"
#include "sweep.h"

#define REFINE_ROUNDS 3    /* rounds of extra points at most                 */
#define REFINE_MAX 8       /* shapes per round at most                      */
#define REFINE_REL 0.10    /* a CI of ±10% or narrower needs nothing more   */
#define REFINE_SHARE 0.85  /* of the budget, at most, by the end of refinement */
#define PRECISION_PASSES 4 /* passes over uninformative points at most     */
#define PRECISION_STEPS 4  /* a visit's warm-up step and 3 samples          */

/* What refine_run needs of the run in progress. */
typedef struct refine_opts {
    const plan *plan;         /* the run's plan: modes, seed, budget     */
    const fit_prices *prices; /* for the cost crossovers                 */
    int no_refine;            /* 1: fit only (--no-refine)               */
    double start;             /* host_seconds() when the sweep began     */
    device *const *devs;      /* the devices measured                    */
    int ndev;
    const char *root;            /* OUT, where the checkpoint is written    */
    const char *checkpoint;      /* results.xml, saved after each point     */
    volatile sig_atomic_t *stop; /* polled between samples (NULL: never)    */
    sweep_progress_fn progress;  /* may be NULL                             */
    void *progress_ctx;
    outlock *lock; /* OUT's, for the checkpoints (sweep_run); NULL: none */
} refine_opts;

/* Fits r and refines it as described above, then measures its
 * uninformative points again (refine_precision), then stores the final fit
 * and the prices in r (results_set_fit); *again: the passes that took.
 * BE_EINTR when stopped, with the points measured so far in r; the sweep's
 * and the fit's errors otherwise. */
int refine_run(const refine_opts *o, results *r, int *again, err *e);

/* Precision where it is missing: while the budget lasts, up to
 * PRECISION_PASSES further passes, each over the cells where some device's
 * point has an uninformative interval (q_summary_uninformative, resident
 * or with transfers), every device of the cell visited again (so that a
 * ratio compares the devices in the same stretch of the machine's life),
 * closest calls first (the smallest ratio between two devices' medians: a
 * crossover lies there), as many as the pass's share of what is left
 * affords.  Each pass is judged again after it.  *passes: how many ran.
 * Nothing with no_refine (an `ab` side measures exactly its grid). */
int refine_precision(const refine_opts *o, results *r, int *passes, err *e);

/* The batch sizes worth measuring next: at each hidden width where a
 * crossover in s crosses in range with an interval wider than ±rel of its
 * batch (or open, or none stored), the geometric midpoint of the measured
 * batches that bracket the crossing, unless measured already.  Fills hidden[i], batch[i] (at most max), returns the
 * count. */
int refine_suggest(const fit_set *s, const results *r, double rel, int *hidden, int *batch,
                   int max);

#endif
