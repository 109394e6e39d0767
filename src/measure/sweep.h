/*
 * sweep.h — running a plan on devices: the measurement loop.
 *
 * The sweep measures in passes (plan.passes, 3 by default).  Each pass
 * visits every cell of the plan on every device once, in an order shuffled
 * afresh from the seed, so that a burst of noise (a neighbour's build, a
 * throttled minute) lands on a fraction of many points rather than on the
 * whole of a few, and the passes show how much a point's time moves.  A
 * visit prepares the workload on the device (out of memory becomes an
 * out-of-memory point), on the first visit runs one step from the initial
 * parameters and verifies it (a failure becomes a failed-verification point,
 * never timed and never visited again), warms up, takes samples, and
 * releases the device's buffers, so that only the point being measured holds
 * memory.  A visit samples until the 95% confidence interval of that pass's
 * median is within the plan's target or its share of the budget is spent,
 * never taking fewer than plan.min_samples (9) over the passes nor fewer
 * than 3 in a pass: 3 a pass by default.  Shares are recomputed before each
 * visit: the time left over the visits left in this pass and the later ones,
 * less what a visit has cost so far outside its samples (preparing,
 * verifying, warming up); so every pass gets its part, fast points leave
 * time to slow ones, and the sweep ends near its budget.
 *
 * Every sample keeps its pass; the point's interval (results_summarize)
 * then includes the variation between passes.  Each pass is recorded with
 * the machine's state during it (machstate.h).
 *
 * The results file is saved as a checkpoint (marked partial) after a visit
 * when 10 s have passed since the last save, and after every pass, so a run
 * that dies keeps most of what it measured (an interrupted one saves all).
 * It is written inside root (OUT) through no link below it (results_save),
 * under OUT's lock (lock, NULL for none) when no other writer holds it:
 * the sweep never waits for one, a checkpoint is skipped instead
 * (outlock.h).
 */
#ifndef BE_SWEEP_H
#define BE_SWEEP_H

#include <signal.h>

#include "backend.h"
#include "outlock.h"
#include "plan.h"
#include "results.h"

typedef enum {
    SWEEP_START,    /* a visit begins; the caller may hold it back (ab.h paces
                    two sweeps' visits), and the time it waits is not the
                    sweep's: the budget is of its own time            */
    SWEEP_DONE,     /* a visit ended; point is the point with every sample so far */
    SWEEP_PASS_DONE /* a pass ended; pass is its record                  */
} sweep_event_kind;

typedef struct sweep_event {
    sweep_event_kind kind;
    int index, total;       /* visits done (0-based at START) and in all  */
    int pass, passes;       /* this sweep's pass (1-based) and its number */
    double elapsed, eta;    /* seconds */
    const device_info *dev; /* START and DONE */
    wl_mode mode;
    int hidden, batch;
    const char *net;          /* the network's name, NULL in the square sweep */
    const rs_point *point;    /* SWEEP_DONE only */
    const rs_pass *pass_info; /* SWEEP_PASS_DONE only */
} sweep_event;

typedef void (*sweep_progress_fn)(void *ctx, const sweep_event *ev);

/* Measures pts[0..npts) on devs[0..ndev) into r (whose devices and
 * provenance the caller has filled), within budget seconds; p gives the
 * layer count, the seed, the passes and the statistical targets.  The points
 * are appended to r in the order of pts, devices within each, and the
 * passes to r->passes (numbered after those r already has).  When points
 * is not NULL, nothing is appended: points[c * ndev + d] is the index in r
 * of the point of cell pts[c] on device devs[d], measured before and
 * visited again, its samples added in the new passes.  stop, when not
 * NULL, is polled between samples; when it becomes non-zero the sweep
 * returns BE_EINTR with what was measured so far in r (points never
 * visited are left out).  progress may be NULL. */
/* The seconds one call of a device's backend may take (backend_ops
 * set_limit) at a visit: SWEEP_LIMIT_TIMES × the step time expected (the
 * point's slowest sample so far; HUGE_VAL before any, when nothing tells
 * how long a step takes), capped by the budget that remains, and never
 * under SWEEP_LIMIT_FLOOR seconds, which a prepare (uploading the weights)
 * or a first call of a framework may need on a loaded machine. */
#define SWEEP_LIMIT_TIMES 10.0
#define SWEEP_LIMIT_FLOOR 20.0
double sweep_call_limit(double expected, double remaining);

int sweep_run(const plan *p, const plan_point *pts, const int *points, int npts, double budget,
              device *const *devs, int ndev, results *r, const char *root, const char *checkpoint,
              outlock *lock, volatile sig_atomic_t *stop, sweep_progress_fn progress, void *ctx,
              err *e);

#endif
