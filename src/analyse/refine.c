/*
 * refine.c — measuring more around an uncertain crossover (see refine.h).
 *
 * The target at each hidden width is the measured per-hidden crossover
 * batch, where the ratio crossed and its interval is wide; batch sizes are
 * swept in powers of two, so the geometric midpoint of the bracketing
 * batches halves the gap in log terms each round.  Widths that never or
 * always cross have nothing to bracket.
 */
#include "refine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "netfit.h"
#include "query.h"

/* 1 when either device of c has a point at the shape (of any status). */
static int measured(const results *r, const fit_crossover *c, int hidden, int batch)
{
    return q_point(r, c->base, c->mode, hidden, batch) ||
           q_point(r, c->other, c->mode, hidden, batch);
}

/* The batches both devices measured successfully at this width, bracketing
 * target: *lo the largest below, *hi the smallest above (0 when none). */
static void bracket(const results *r, const fit_crossover *c, int hidden, double target, int *lo,
                    int *hi)
{
    int i;
    *lo = *hi = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != c->mode || p->hidden != hidden || !q_ok(p) ||
            strcmp(p->device, c->base) != 0 ||
            !q_ok(q_point(r, c->other, c->mode, hidden, p->batch)))
            continue;
        if (p->batch < target && p->batch > *lo)
            *lo = p->batch;
        if (p->batch > target && (*hi == 0 || p->batch < *hi))
            *hi = p->batch;
    }
}

/* The candidate between lo and hi, or 0 when there is no room. */
static int midpoint(int lo, int hi)
{
    int cand;
    if (lo <= 0 || hi <= 0 || hi - lo < 2)
        return 0;
    cand = (int)lround(sqrt((double)lo * hi));
    if (cand <= lo)
        cand = lo + 1;
    if (cand >= hi)
        cand = hi - 1;
    return cand;
}

/* 1 when the interval of h's crossing batch is wider than ±rel of it. */
static int wide(const fit_hidden_cross *h, double rel)
{
    return !(h->batch_hi > 0.0) || h->lo_open || h->hi_open ||
           (h->batch_hi - h->batch_lo) / 2.0 > rel * h->batch;
}

int refine_suggest(const fit_set *s, const results *r, double rel, int *hidden, int *batch, int max)
{
    int i, j, k, n = 0;

    for (i = 0; i < s->ncross && n < max; i++) {
        const fit_crossover *c = &s->cross[i];
        for (j = 0; j < c->nhidden && n < max; j++) {
            const fit_hidden_cross *h = &c->per_hidden[j];
            int lo, hi, cand;
            if (h->kind != CROSS_IN_RANGE || !wide(h, rel))
                continue;
            bracket(r, c, h->hidden, h->batch, &lo, &hi);
            cand = midpoint(lo, hi);
            if (cand == 0 || measured(r, c, h->hidden, cand))
                continue;
            for (k = 0; k < n && !(hidden[k] == h->hidden && batch[k] == cand); k++)
                ;
            if (k < n)
                continue;
            hidden[n] = h->hidden;
            batch[n] = cand;
            n++;
        }
    }
    return n;
}

/* The extra points of one round: each suggested shape in every mode of
 * the plan, with the reason stored beside it.  Returns their count. */
static int round_points(const refine_opts *o, int round, const int *hidden, const int *batch, int n,
                        plan_point *extra)
{
    int k, m, nextra = 0;
    for (k = 0; k < n; k++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
            plan_point *pp;
            if (!((o->plan->modes >> m) & 1))
                continue;
            pp = &extra[nextra++];
            pp->mode = (wl_mode)m;
            pp->hidden = hidden[k];
            pp->batch = batch[k];
            pp->net = -1;
            snprintf(pp->why, sizeof pp->why,
                     "refinement round %d: the crossover batch's 95%% CI was wider than "
                     "±%.0f%%; batch %d lies between the measured batches that bracket "
                     "it at hidden %d",
                     round + 1, 100 * REFINE_REL, batch[k], hidden[k]);
        }
    return nextra;
}

/* A network's crossovers whose interval is wide: the batch between the
 * measured batches that bracket the crossover (both devices ok there), in
 * the crossover's mode, once each, into extra (at most max).  Returns the
 * count. */
static int net_points(const refine_opts *o, const results *r, int round, plan_point *extra, int max,
                      err *e)
{
    netfit_set s;
    int i, k, n = 0, rc;
    if ((rc = netfit_run(r, o->plan->seed, 0, &s, e)) < 0)
        return rc;
    for (i = 0; i < s.n && n < max; i++) {
        const netfit_cross *c = &s.c[i];
        fit_hidden_cross h;
        int lo = 0, hi = 0, cand, j, net;
        if (c->x.kind != CROSS_IN_RANGE)
            continue;
        memset(&h, 0, sizeof h);
        h.batch = c->x.batch;
        h.batch_lo = c->x.lo;
        h.batch_hi = c->x.hi;
        h.lo_open = c->x.lo_open;
        h.hi_open = c->x.hi_open;
        if (!wide(&h, REFINE_REL))
            continue;
        for (j = 0; j < r->npoints; j++) {
            const rs_point *p = &r->points[j];
            if (p->mode != c->mode || strcmp(p->device, c->base) != 0 ||
                strcmp(p->net, c->net) != 0 || !q_ok(p))
                continue;
            if (p->batch < c->x.batch && p->batch > lo)
                lo = p->batch;
            if (p->batch > c->x.batch && (hi == 0 || p->batch < hi))
                hi = p->batch;
        }
        for (net = 0; net < o->plan->nnets && strcmp(o->plan->nets[net].name, c->net) != 0; net++)
            ;
        if ((cand = midpoint(lo, hi)) == 0 || net == o->plan->nnets)
            continue;
        for (k = 0;
             k < n && !(extra[k].net == net && extra[k].batch == cand && extra[k].mode == c->mode);
             k++)
            ;
        for (j = 0; j < r->npoints && k == n; j++)
            if (r->points[j].batch == cand && r->points[j].mode == c->mode &&
                strcmp(r->points[j].net, c->net) == 0)
                k = -1;
        if (k != n)
            continue;
        memset(&extra[n], 0, sizeof extra[n]);
        extra[n].mode = c->mode;
        extra[n].net = net;
        extra[n].hidden = net_widest(&o->plan->nets[net]);
        extra[n].batch = cand;
        snprintf(extra[n].why, sizeof extra[n].why,
                 "refinement round %d: the crossover batch's 95%% CI was wider than ±%.0f%%; "
                 "batch %d lies between the measured batches that bracket it for network %s",
                 round + 1, 100 * REFINE_REL, cand, c->net);
        n++;
    }
    netfit_free(&s);
    return n;
}

/* 1 when p is measured and one of its intervals says nothing. */
static int vague(const rs_point *p)
{
    return q_ok(p) && p->nsamples > 0 &&
           (q_summary_uninformative(&p->resident) ||
            (p->has_transfer && q_summary_uninformative(&p->transfer)));
}

/* The point of device id at p's cell (mode, depth, width, batch, network),
 * as an index into r; -1 when there is none. */
static int cell_point(const results *r, const rs_point *p, const char *id)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *q = &r->points[i];
        if (q->mode == p->mode && q->layers == p->layers && q->hidden == p->hidden &&
            q->batch == p->batch && strcmp(q->net, p->net) == 0 && strcmp(q->device, id) == 0)
            return i;
    }
    return -1;
}

/* How close the devices at a cell are (the smallest |log| of the ratio of
 * two ok points' medians: 0 for a tie, where a crossover lies) and what
 * visiting it costs at least (each point's warm-up and samples of a
 * visit at its median, PRECISION_STEPS steps). */
static void cell_weigh(const results *r, const int *pts, int ndev, double *close, double *cost)
{
    int a, b;
    *close = HUGE_VAL;
    *cost = 0.0;
    for (a = 0; a < ndev; a++) {
        const rs_point *pa = &r->points[pts[a]];
        if (!q_ok(pa) || pa->nsamples == 0)
            continue;
        *cost += PRECISION_STEPS * pa->resident.median;
        for (b = 0; b < a; b++) {
            const rs_point *pb = &r->points[pts[b]];
            if (q_ok(pb) && pb->nsamples > 0 && pb->resident.median > 0.0 &&
                fabs(log(pa->resident.median / pb->resident.median)) < *close)
                *close = fabs(log(pa->resident.median / pb->resident.median));
        }
    }
}

/* The plan's cell of point p: its mode, shape and network (by name). */
static plan_point cell_of(const plan *pl, const rs_point *p)
{
    plan_point c;
    memset(&c, 0, sizeof c);
    c.mode = p->mode;
    c.hidden = p->hidden;
    c.batch = p->batch;
    for (c.net = 0; c.net < pl->nnets && strcmp(pl->nets[c.net].name, p->net) != 0; c.net++)
        ;
    if (!p->net[0] || c.net == pl->nnets)
        c.net = -1;
    snprintf(c.why, sizeof c.why, "%s", p->why);
    return c;
}

/* A cell to visit again: its points on the sweep's devices, and its
 * weight. */
typedef struct again_cell {
    int first; /* into the points array: ndev of them */
    double close, cost;
} again_cell;

static int by_closeness(const void *x, const void *y)
{
    const again_cell *a = x, *b = y;
    return (a->close > b->close) - (a->close < b->close);
}

/* The cells with an uninformative point, closest calls first, as many as
 * cost at most `afford` seconds a visit each: their plan cells into cells
 * and their points into points (ndev per cell).  Returns the count, or
 * BE_EFAIL. */
static int precision_cells(const refine_opts *o, const results *r, double afford, plan_point *cells,
                           int *points, err *e)
{
    again_cell *a = malloc((size_t)r->npoints * sizeof *a + 1);
    int *pts = malloc((size_t)r->npoints * (size_t)o->ndev * sizeof *pts + 1);
    int i, d, n = 0, kept = 0;
    double spent = 0.0;
    if (!a || !pts) {
        free(a);
        free(pts);
        return err_set(e, BE_EFAIL, "out of memory choosing points to measure again");
    }
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int any = 0;
        /* each cell once: from its point on the first device */
        if (strcmp(p->device, o->devs[0]->info.id) != 0)
            continue;
        for (d = 0; d < o->ndev; d++) {
            int k = cell_point(r, p, o->devs[d]->info.id);
            if (k < 0)
                break;
            pts[n * o->ndev + d] = k;
            any |= vague(&r->points[k]);
        }
        if (d < o->ndev || !any)
            continue;
        a[n].first = n * o->ndev;
        cell_weigh(r, &pts[n * o->ndev], o->ndev, &a[n].close, &a[n].cost);
        n++;
    }
    qsort(a, (size_t)n, sizeof *a, by_closeness);
    for (i = 0; i < n; i++) {
        if (spent + a[i].cost > afford)
            continue;
        spent += a[i].cost;
        memcpy(&points[kept * o->ndev], &pts[a[i].first], (size_t)o->ndev * sizeof *pts);
        cells[kept++] = cell_of(o->plan, &r->points[pts[a[i].first]]);
    }
    free(a);
    free(pts);
    return kept;
}

int refine_precision(const refine_opts *o, results *r, int *passes, err *e)
{
    plan_point *cells = malloc((size_t)r->npoints * sizeof *cells + 1);
    int *points = malloc((size_t)r->npoints * (size_t)o->ndev * sizeof *points + 1);
    plan once = *o->plan;
    int k, n, rc = BE_OK;

    *passes = 0;
    if (!cells || !points) {
        rc = err_set(e, BE_EFAIL, "out of memory choosing points to measure again");
        goto done;
    }
    /* one pass at a time, each of 3 samples a visit at least (sweep.c),
     * judged again after it */
    once.passes = 1;
    once.min_samples = 0;
    for (k = 0; k < PRECISION_PASSES && !o->no_refine; k++) {
        double left = o->plan->budget - (host_seconds() - o->start);
        double share = left / (PRECISION_PASSES - k);
        if (share <= 0.0)
            break;
        /* a visit takes about twice its steps' time, with its preparing,
         * verifying and release: half the pass's share for them */
        if ((n = precision_cells(o, r, share / 2, cells, points, e)) <= 0) {
            rc = n;
            break;
        }
        rc = sweep_run(&once, cells, points, n, share, o->devs, o->ndev, r, o->root, o->checkpoint,
                       o->lock, o->stop, o->progress, o->progress_ctx, e);
        if (rc < 0)
            break;
        ++*passes;
    }
done:
    free(cells);
    free(points);
    return rc;
}

int refine_run(const refine_opts *o, results *r, int *again, err *e)
{
    fit_set fs;
    int round, rc;

    *again = 0;
    for (round = 0;; round++) {
        plan_point extra[REFINE_MAX * 2];
        int hidden[REFINE_MAX], batch[REFINE_MAX], n, nextra;
        double left = REFINE_SHARE * o->plan->budget - (host_seconds() - o->start);

        if ((rc = fit_run(r, o->prices, o->plan->seed, 0, &fs, e)) < 0)
            return rc;
        if (o->no_refine || round == REFINE_ROUNDS || left <= 0.0)
            break;
        if (o->plan->nnets > 0) {
            if ((nextra = net_points(o, r, round, extra, REFINE_MAX * 2, e)) < 0) {
                fit_set_free(&fs);
                return nextra;
            }
        } else {
            n = refine_suggest(&fs, r, REFINE_REL, hidden, batch, REFINE_MAX);
            nextra = n > 0 ? round_points(o, round, hidden, batch, n, extra) : 0;
        }
        if (nextra == 0)
            break;
        fit_set_free(&fs);
        rc = sweep_run(o->plan, extra, NULL, nextra, left, o->devs, o->ndev, r, o->root,
                       o->checkpoint, o->lock, o->stop, o->progress, o->progress_ctx, e);
        if (rc < 0)
            return rc;
    }
    /* then the uninformative points, measured again, and the fit again */
    if ((rc = refine_precision(o, r, again, e)) < 0) {
        fit_set_free(&fs);
        return rc;
    }
    if (*again > 0) {
        fit_set_free(&fs);
        if ((rc = fit_run(r, o->prices, o->plan->seed, 0, &fs, e)) < 0)
            return rc;
    }
    results_set_fit(r, &fs, o->plan->seed, o->prices);
    return BE_OK;
}
