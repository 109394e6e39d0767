/*
 * sweep.h — running a plan on devices: the measurement loop.
 *
 * For every cell of the plan and every device: prepare the workload on the
 * device (out of memory becomes an out-of-memory point), run one step from
 * the initial parameters and verify it (a failure becomes a
 * failed-verification point and is never timed), warm up, then take samples
 * until the median's 95% confidence interval is within the plan's target or
 * the point's share of the budget is spent (never fewer than
 * plan.min_samples).  Shares are recomputed before each point from the time
 * left, so fast points leave time to slow ones.
 *
 * After each point the results are saved to the checkpoint file (marked
 * partial), so an interrupted run keeps what it measured.
 */
#ifndef BE_SWEEP_H
#define BE_SWEEP_H

#include <signal.h>

#include "backend.h"
#include "plan.h"
#include "results.h"

typedef enum { SWEEP_START, SWEEP_DONE } sweep_event_kind;

typedef struct sweep_event {
    sweep_event_kind kind;
    int index, total;         /* the point (0-based) and the number of points */
    double elapsed, eta;      /* seconds */
    const device_info *dev;
    wl_mode mode;
    int hidden, batch;
    const rs_point *point;    /* SWEEP_DONE only */
} sweep_event;

typedef void (*sweep_progress_fn)(void *ctx, const sweep_event *ev);

/* Measures pts[0..npts) on devs[0..ndev) into r (whose devices and
 * provenance the caller has filled), within budget seconds; p gives the
 * layer count, seed and statistical targets.  stop, when not NULL, is polled
 * between samples; when it becomes non-zero the sweep returns BE_EINTR with
 * the points completed so far in r.  progress may be NULL. */
int sweep_run(const plan *p, const plan_point *pts, int npts, double budget,
              device *const *devs, int ndev, results *r, const char *checkpoint,
              volatile sig_atomic_t *stop, sweep_progress_fn progress, void *ctx, err *e);

#endif
