/*
 * plan.h — what a run will measure, decided before anything is allocated.
 *
 * The command line becomes a plan: the grid of modes × hidden widths ×
 * batch sizes, the layer count, the time budget and the statistical targets.
 * plan_check refuses a plan that cannot fit in this machine's memory, so a
 * sweep never dies half-way on malloc.
 */
#ifndef BE_PLAN_H
#define BE_PLAN_H

#include <stdint.h>

#include "backend.h"
#include "list.h"
#include "net.h"
#include "results.h"

/* what a results file may hold, so that every run loads again */
#define PLAN_MAX_HIDDEN RESULTS_MAX_HIDDEN
#define PLAN_MAX_BATCH RESULTS_MAX_BATCH
#define PLAN_MAX_LAYERS RESULTS_MAX_LAYERS
#define PLAN_MAX_PASSES 20

typedef struct plan {
    size_list hidden, batch;
    int layers;
    int modes;     /* bit (1 << WL_INFERENCE) | bit (1 << WL_TRAINING) */
    double budget; /* seconds for the whole sweep                  */
    uint64_t seed;
    int passes;        /* every point is measured once in each pass    */
    int min_samples;   /* per point over its passes, whatever the budget
                               (and at least 3 in each pass; see sweep.h)   */
    int max_samples;   /* per point and pass                           */
    double target_rel; /* a pass stops sampling a point once the 95% CI
                               of that pass's median is within ±this        */
    int nnets;         /* > 0: the networks of --net and --net-file are
                               measured instead of the square stack (hidden
                               and layers then unused)                     */
    net_spec nets[NET_MAX_NETS];
    int sibling_pid; /* the other side of an `ab` pair (ab.h), whose visits
                        alternate with this sweep's: its CPU time is not
                        others' (machstate.h); 0: none               */
} plan;

/* The defaults: the M1 post's grid, 4 layers, inference, 120 s, 3 passes. */
void plan_default(plan *p);
/* The tiny sweep of --quick (a few seconds). */
void plan_quick(plan *p);

/* One point to measure on every device.  Grid points have an empty why;
 * points added later (adaptive refinement) say why they were added. */
typedef struct plan_point {
    wl_mode mode;
    int hidden, batch;
    int net; /* index in plan.nets, or -1: the square stack of hidden */
    char why[160];
} plan_point;

/* Number of (mode, hidden or network, batch) cells. */
int plan_cells(const plan *p);
/* The i-th cell, in the order measured: mode, then hidden (or network),
 * then batch.  *net is the network's index (hidden its widest size), or
 * -1 in the square sweep. */
void plan_cell(const plan *p, int i, wl_mode *mode, int *hidden, int *batch, int *net);
/* The grid as an array of points (the caller frees it); NULL when out of
 * memory. */
plan_point *plan_grid(const plan *p, int *n);

/* BE_EUSAGE when the largest point needs more memory than is available:
 * "hidden=65536 batch=1024 training needs 96.0 GiB of memory; 20.1 GiB are
 * available". */
int plan_check(const plan *p, double available_bytes, err *e);

#endif
