/*
 * refine.h — the refinement policy: after the grid, measure more where the
 * answer is uncertain.
 *
 * The grid spends four fifths of the budget; then the run is fitted (fit.h),
 * and while a hidden width's crossover batch has a 95% interval wider than
 * ±REFINE_REL (or open) and time is left, the batch sizes between the
 * measured batches that bracket it are measured too (sweep.h), each stored
 * with the reason, for at most REFINE_ROUNDS rounds.  The final fit becomes part of the results.  The command
 * only decides that a run refines (--no-refine); when and where is decided
 * here.
 */
#ifndef BE_REFINE_H
#define BE_REFINE_H

#include <signal.h>

#include "fit.h"
#include "sweep.h"

#define REFINE_ROUNDS 3 /* rounds of extra points at most                 */
#define REFINE_MAX 8    /* shapes per round at most                      */
#define REFINE_REL 0.10 /* a CI of ±10% or narrower needs nothing more   */

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

/* Fits r and refines it as described above, then stores the final fit and
 * the prices in r (results_set_fit).  BE_EINTR when stopped, with the
 * points measured so far in r; the sweep's and the fit's errors otherwise. */
int refine_run(const refine_opts *o, results *r, err *e);

/* The batch sizes worth measuring next: at each hidden width where a
 * crossover in s crosses in range with an interval wider than ±rel of its
 * batch (or open, or none stored), the geometric midpoint of the measured
 * batches that bracket the crossing, unless measured already.  Fills hidden[i], batch[i] (at most max), returns the
 * count. */
int refine_suggest(const fit_set *s, const results *r, double rel, int *hidden, int *batch,
                   int max);

#endif
