/*
 * sweep.c — the measurement loop (see sweep.h).
 *
 * Within a pass the cells come in a shuffled order and, within a cell, the
 * devices too; the workload data of a cell is made once per pass and
 * measured on every device in turn, so the devices see the same numbers and
 * making the data (a fifth of a second at hidden 2048) is paid once per
 * cell and pass, not once per device.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachehop.h"
#include "devinfo.h"
#include "host.h"
#include "machstate.h"
#include "refmark.h"
#include "stats.h"
#include "telemetry.h"
#include "verify.h"
#include "workload.h"

/* Warm-up of a visit: at least this many steps and this much time (or a
 * tenth of the visit's share, whichever is less).  Every visit has fresh
 * buffers, so every visit warms up; one step touches all of them. */
#define WARMUP_STEPS 1
#define WARMUP_SECONDS 0.2
/* The fewest samples a visit takes: a median and a spread of its own. */
#define PASS_MIN_SAMPLES 3
/* The checkpoint is written after a visit only when this long has passed
 * since the last one (and always after a pass): a save of the default
 * sweep's file takes a tenth of a second or more (it is loaded back before
 * it is written, results_save), so with a big file the interval is
 * CHECKPOINT_COST times the last save's time, at the least. */
#define CHECKPOINT_SECONDS 10.0
#define CHECKPOINT_COST 20.0

typedef struct measure {
    const plan *p;
    volatile sig_atomic_t *stop;
    int min_samples; /* of a visit: the plan's minimum, over the passes */
    double share;    /* seconds this visit may spend sampling */
    double sampled;  /* set by the visit: seconds it spent sampling */
    tel_source *tel; /* the visited device's telemetry, or NULL */
    int last_pass;   /* the visit is the point's last: see energy_run */
    double energy_s; /* set by the visit: seconds its energy run took */
} measure;

static int stopped(const measure *m)
{
    return m->stop && *m->stop;
}

/* splitmix64: the shuffles' generator; the state is the caller's. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* v = a uniformly random permutation of 0..n-1 (Fisher–Yates). */
static void shuffle(int *v, int n, uint64_t *rng)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = i;
    for (i = n - 1; i > 0; i--) {
        int j = (int)(next_random(rng) % (uint64_t)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Verifies one step from the initial parameters; sets pt's verification. */
static int verify_point(const device *dev, void *run, const workload *w, rs_point *pt, err *e)
{
    net_state s;
    verify_result vr;
    step_times t;
    int rc;

    if ((rc = verify_state_alloc(w, &s, e)) < 0)
        return rc;
    if ((rc = dev->ops->reset(run, e)) < 0 || (rc = dev->ops->step(run, &t, e)) < 0 ||
        (rc = dev->ops->state(run, &s, e)) < 0 || (rc = verify_check(w, &s, &vr, e)) < 0)
        goto done;
    pt->verified = 1;
    pt->checked = vr.checked;
    pt->max_error = vr.max_error;
    pt->tolerance = vr.tolerance;
    snprintf(pt->worst, sizeof pt->worst, "%s", vr.where);
    if (!vr.ok) {
        pt->status = PT_FAILED_VERIFICATION;
        snprintf(pt->message, sizeof pt->message,
                 "%s is off by %.3g of its scale; the tolerance is %.3g", vr.where, vr.max_error,
                 vr.tolerance);
    }
    rc = dev->ops->reset(run, e);
done:
    verify_state_free(w, &s);
    return rc;
}

/* The most steps an energy run takes, whatever their time. */
#define ENERGY_MAX_STEPS 1000000

/* A point's timed samples on a GPU rarely span enough of the energy
 * counter's steps (telemetry.h) to keep an energy figure.  Then its last
 * visit measures the energy apart: one run of untimed steps of the same
 * work (they are no samples) twice as long as TEL_ENERGY_SPAN_MIN for one
 * visit, which alone makes the figure, so that the counter's steps are at
 * most a twentieth of it.  Nothing happens where the source has no energy
 * counter (PoCL, a CPU without readable RAPL).  *spent is its wall time,
 * which the budget does not cover. */
static int energy_run(measure *m, const device *dev, void *run, rs_point *pt, double *spent, err *e)
{
    tel_reading before, after;
    step_times t;
    double need, t0;
    int n = 0, rc;

    *spent = 0.0;
    if (!m->tel || !m->last_pass || pt->tel.has_energy)
        return BE_OK;
    tel_read(m->tel, &before);
    if (!before.has_energy)
        return BE_OK;
    need = 2.0 * TEL_ENERGY_SPAN_MIN(before.kind, 1);
    t0 = host_seconds();
    do {
        if (stopped(m))
            return BE_EINTR;
        if ((rc = dev->ops->step(run, &t, e)) < 0)
            return rc;
        n++;
    } while (host_seconds() - t0 < need && n < ENERGY_MAX_STEPS);
    tel_read(m->tel, &after);
    *spent = host_seconds() - t0;
    pt->tel.energy_j = pt->tel.energy_span_s = 0.0;
    pt->tel.energy_samples = pt->tel.energy_visits = 0;
    tel_visit(&pt->tel, &before, &after, n);
    return BE_OK;
}

/* Folds the mean layer times of this visit's timed steps into pt's (a
 * network's point), weighted by the steps. */
static void add_layer_times(const device *dev, void *run, rs_point *pt)
{
    double mean[WL_MAX_LAYERS];
    long n = dev->ops->layer_times(run, mean);
    int l;
    if (n <= 0)
        return;
    for (l = 0; l < pt->layers && l < WL_MAX_LAYERS; l++)
        pt->layer_s[l] = (pt->layer_s[l] * (double)pt->layer_n + mean[l] * (double)n) /
                         (double)(pt->layer_n + n);
    pt->nlayer = pt->layers;
    pt->layer_n += n;
}

/* Warms up, then takes samples of pass into pt until this pass's median is
 * pinned down, the share is spent, or the run is stopped.  The samples
 * taken are kept in every case (an interrupted visit's too); the caller
 * summarizes them. */
static int sample(measure *m, const device *dev, void *run, rs_point *pt, int pass, err *e)
{
    int cap = m->p->max_samples, next_check = m->min_samples, n = 0, rc = BE_OK, warm;
    double t0, warm_until;
    step_times t, *got = NULL;
    stats_summary s;
    double *wall = NULL;
    tel_reading before, after;

    got = malloc((size_t)cap * sizeof *got);
    wall = malloc((size_t)cap * sizeof *wall);
    if (!got || !wall) {
        rc = err_set(e, BE_EFAIL, "out of memory for %d samples", cap);
        goto done;
    }
    t0 = host_seconds();
    warm_until = t0 + (m->share / 10 < WARMUP_SECONDS ? m->share / 10 : WARMUP_SECONDS);
    for (warm = 0; warm < WARMUP_STEPS || host_seconds() < warm_until; warm++) {
        if (stopped(m)) {
            rc = BE_EINTR;
            goto done;
        }
        if ((rc = dev->ops->step(run, &t, e)) < 0)
            goto done;
    }
    if (dev->ops->layer_times)
        dev->ops->layer_times(run, NULL); /* the warm-up's steps do not count */
    /* telemetry is read around the timed samples, outside every one of them */
    tel_read(m->tel, &before);
    t0 = host_seconds();
    while (n < cap) {
        if (stopped(m)) {
            rc = BE_EINTR;
            break;
        }
        if ((rc = dev->ops->step(run, &t, e)) < 0)
            break;
        wall[n] = t.wall;
        t.far = 0.0;
        got[n++] = t;
        pt->has_transfer = t.total >= 0.0 && t.h2d >= 0.0;
        pt->has_whost = t.whost >= 0.0;
        if (n < m->min_samples)
            continue;
        if (host_seconds() - t0 >= m->share)
            break;
        if (n >= next_check) {
            /* re-check at geometric intervals: the summary sorts.  The
             * target is on this pass's median alone: once it is pinned
             * down, more samples here hardly narrow the point's interval,
             * which the differences between passes dominate, and the time
             * saved goes to the visits after this one. */
            if ((rc = stats_summarize(wall, n, &s, e)) < 0)
                break;
            if (n >= 9 && stats_converged(&s, m->p->target_rel))
                break;
            next_check = n + 1 + n / 8;
        }
    }
    m->sampled = host_seconds() - t0;
    tel_read(m->tel, &after);
    if (pt->net[0] && dev->ops->layer_times)
        add_layer_times(dev, run, pt);
    if (n > 0) {
        int kept;
        tel_visit(&pt->tel, &before, &after, n);
        kept = results_add_samples(pt, got, n, pass, e);
        if (kept < 0 && rc >= 0)
            rc = kept;
    }
done:
    free(got);
    free(wall);
    return rc;
}

/* One visit of a point: prepare, verify (first visit only), warm up,
 * sample, release.  A device failure ends the point (its status and
 * message say why; samples of earlier passes stay); only an interruption
 * or a failure of the host is returned. */
static int visit(measure *m, const device *dev, const workload *w, rs_point *pt, int pass, err *e)
{
    void *run = NULL;
    err pe;
    int rc;

    (void)e;
    m->sampled = m->energy_s = 0.0;
    rc = dev->ops->prepare(dev->handle, w, &run, &pe);
    if (rc == BE_OK) {
        if (!pt->verified)
            rc = verify_point(dev, run, w, pt, &pe);
        if (rc == BE_OK && pt->status == PT_OK)
            rc = sample(m, dev, run, pt, pass, &pe);
        if (rc == BE_OK && pt->status == PT_OK && pt->nsamples > 0)
            rc = energy_run(m, dev, run, pt, &m->energy_s, &pe);
        dev->ops->release(run);
    }
    if (rc == BE_OK || rc == BE_EINTR)
        return rc;
    /* a framework device's failure is its own (docs/devices.md): failed;
     * its unannounced check of a step (BE_EVERIFY) as the first visit's */
    pt->status = rc == BE_EOOM                         ? PT_OUT_OF_MEMORY
                 : rc == BE_EVERIFY                    ? PT_FAILED_VERIFICATION
                 : dev->ops->kind == BACKEND_FRAMEWORK ? PT_FAILED
                                                       : PT_SKIPPED;
    if (pt->nsamples > 0)
        snprintf(pt->message, sizeof pt->message, "in pass %d: %s", pass, pe.msg);
    else
        snprintf(pt->message, sizeof pt->message, "%s", pe.msg);
    return BE_OK;
}

/* A point is written once it has samples or a status other than ok. */
static int measured(const rs_point *p)
{
    return p->status != PT_OK || p->nsamples > 0;
}

/* Saves r without the points from base on that have not been measured yet
 * (an ok point without samples is not a valid point of a file), under
 * OUT's lock (lock NULL: none).  The measuring never waits for another
 * writer of OUT (outlock.h): while one holds the lock the checkpoint is
 * skipped, and the next saves the same points and more. */
static int checkpoint_save(const results *r, int base, const char *root, const char *path,
                           outlock *lock, err *e)
{
    results view = *r;
    int i, rc, held = 1;
    if (lock && ((rc = outlock_try(lock, &held, e)) < 0 || !held))
        return rc;
    view.points = malloc((size_t)(r->npoints + 1) * sizeof *view.points);
    if (!view.points) {
        if (lock)
            outlock_give(lock);
        return err_set(e, BE_EFAIL, "out of memory saving %s", path);
    }
    view.npoints = 0;
    for (i = 0; i < r->npoints; i++)
        if (i < base || measured(&r->points[i]))
            view.points[view.npoints++] = r->points[i];
    view.cap = view.npoints;
    rc = results_save(&view, root, path, e);
    free(view.points);
    if (lock)
        outlock_give(lock);
    return rc;
}

/* Visits (ok points) left in this pass from position q of order on, and in
 * the passes after it; slot[c * ndev + d] is the point of cell c on device
 * d. */
static int visits_left(const results *r, const int *slot, const int *order, int ncells, int ndev,
                       int q, int passes_after)
{
    int i, d, here = 0, ok = 0;
    for (i = 0; i < ncells * ndev; i++)
        ok += r->points[slot[i]].status == PT_OK;
    for (i = q; i < ncells; i++)
        for (d = 0; d < ndev; d++)
            here += r->points[slot[order[i] * ndev + d]].status == PT_OK;
    return here + passes_after * ok;
}

/* A visit whose CPUs' round trip was timed (cachehop.h): its point, its
 * samples, its pass, and the slower of the round trips before and after
 * it. */
typedef struct hop_visit {
    int point, first, count, slot;
    double hop;
} hop_visit;

/* The state of one sweep_run, across its passes. */
typedef struct sweep {
    const plan *p;
    const plan_point *pts;
    int npts;
    double budget;
    device *const *devs;
    int ndev;
    results *r;
    const char *root, *checkpoint; /* the checkpoint inside root (results_save) */
    outlock *lock;                 /* OUT's lock, taken to write it; NULL: none */
    sweep_progress_fn progress;
    void *ctx;
    int passes, total;           /* passes to run; visits in all of them        */
    int base;                    /* r->points[base..]: the points it added      */
    int *slot;                   /* the point of cell c on device d: slot[c * ndev + d] */
    int done;                    /* visits made or passed over so far           */
    int *order, *dorder;         /* this pass's cells, this cell's devices, shuffled */
    uint64_t rng;                /* their generator                             */
    double start;                /* host_seconds() when the sweep began         */
    double last_save, save_took; /* the last checkpoint: when, how long */
    /* what the visits so far spent outside their samples (preparing,
     * verifying, warming up) and in energy runs, which the budget does
     * not cover; timed: how many of them there were */
    double overhead, energy;
    int timed;
    measure m;
    tel_source **tel; /* each device's telemetry, or NULL */
    cachehop hop;     /* how far apart the CPUs are                   */
    hop_visit *hv;    /* the visits it timed, nhv of them (sw->total at most) */
    int nhv;
} sweep;

/* 1 when some device computes on the host's CPUs. */
static int any_on_host(device *const *devs, int ndev)
{
    int d;
    for (d = 0; d < ndev; d++)
        if (devinfo_on_host(&devs[d]->info))
            return 1;
    return 0;
}

/* Adds one unmeasured point per cell and device, in that order, into the
 * slots. */
static int add_points(sweep *sw, err *e)
{
    int c, d, rc = BE_OK;
    for (c = 0; c < sw->npts && rc == BE_OK; c++)
        for (d = 0; d < sw->ndev && rc == BE_OK; d++) {
            const plan_point *cell = &sw->pts[c];
            rs_point pt;
            memset(&pt, 0, sizeof pt);
            snprintf(pt.device, sizeof pt.device, "%s", sw->devs[d]->info.id);
            pt.mode = cell->mode;
            pt.layers = sw->p->layers;
            pt.hidden = cell->hidden;
            pt.batch = cell->batch;
            pt.flops_per_layer = workload_flops_per_layer(pt.mode, pt.hidden, pt.batch);
            if (cell->net >= 0) {
                const net_spec *n = &sw->p->nets[cell->net];
                pt.layers = n->layers;
                snprintf(pt.net, sizeof pt.net, "%s", n->name);
                net_format(n, pt.sizes, sizeof pt.sizes);
                pt.flops_per_layer = net_flops(n, pt.mode, pt.batch) / n->layers;
            }
            snprintf(pt.why, sizeof pt.why, "%s", cell->why);
            sw->slot[c * sw->ndev + d] = sw->r->npoints;
            rc = results_add_point(sw->r, &pt, e);
        }
    return rc;
}

/* The seconds a visit may spend sampling: what is left of the budget,
 * less what the visits left will spend outside their samples (the mean so
 * far), shared among them. */
static double visit_share(const sweep *sw, double elapsed, int left)
{
    double share = (sw->budget - elapsed) / left - (sw->timed > 0 ? sw->overhead / sw->timed : 0.0);
    return share < 0.0 ? 0.0 : share;
}

double sweep_call_limit(double expected, double remaining)
{
    double limit = SWEEP_LIMIT_TIMES * expected;
    if (!(limit < remaining))
        limit = remaining;
    return limit > SWEEP_LIMIT_FLOOR ? limit : SWEEP_LIMIT_FLOOR;
}

/* The slowest step pt has taken so far (0 before any). */
static double slowest(const rs_point *pt)
{
    double m = 0.0;
    int i;
    for (i = 0; i < pt->nsamples; i++)
        if (pt->samples[i].wall > m)
            m = pt->samples[i].wall;
    return m;
}

/* The workload data of a cell, made once for all its devices. */
static int make_data(const sweep *sw, const plan_point *cell, workload_data *data, err *e)
{
    if (cell->net >= 0)
        return workload_make_net(data, cell->mode, &sw->p->nets[cell->net], cell->batch,
                                 sw->p->seed, e);
    return workload_make(data, cell->mode, sw->p->layers, cell->hidden, cell->batch, sw->p->seed,
                         e);
}

/* Fails pt when a number of it could not be saved (results_point_saveable:
 * one the device's checks let through), dropping its samples, so that the
 * run's file keeps every other point.  BE_EFAIL when out of memory. */
static int unsaveable(rs_point *pt, int pass, err *e)
{
    char what[128];
    int rc = results_point_saveable(pt, what, sizeof what);
    if (rc < 0)
        return err_set(e, BE_EFAIL, "out of memory checking a point's numbers");
    if (rc == 1)
        return BE_OK;
    pt->status = PT_FAILED;
    snprintf(pt->message, sizeof pt->message,
             "in pass %d: %s, which is not a finite number: the point's samples are not kept", pass,
             what);
    free(pt->samples);
    free(pt->pass);
    pt->samples = NULL;
    pt->pass = NULL;
    pt->nsamples = 0;
    memset(&pt->resident, 0, sizeof pt->resident);
    memset(&pt->transfer, 0, sizeof pt->transfer);
    memset(&pt->whost, 0, sizeof pt->whost);
    pt->nlayer = 0;
    return BE_OK;
}

/* Visits pt on device dev in pass k (r->passes[slot]) and summarizes what
 * it has; since, the time the visit began, for its overhead. */
static int timed_visit(sweep *sw, int k, int slot, int dev, const workload *w, rs_point *pt,
                       double since, err *e)
{
    int rc, sum;
    sw->m.tel = sw->tel[dev];
    sw->m.last_pass = k == sw->passes - 1;
    rc = visit(&sw->m, sw->devs[dev], w, pt, sw->r->passes[slot].index, e);
    if (pt->nsamples > 0 && (sum = results_summarize_in(sw->r, pt, e)) < 0)
        rc = sum;
    if (rc == BE_OK && (sum = unsaveable(pt, sw->r->passes[slot].index, e)) < 0)
        rc = sum;
    sw->r->passes[slot].visits++;
    sw->overhead += host_seconds() - since - sw->m.sampled - sw->m.energy_s;
    sw->energy += sw->m.energy_s;
    sw->timed++;
    return rc;
}

/* Saves the checkpoint when one is due after a visit (see
 * CHECKPOINT_SECONDS). */
static int checkpoint_due(sweep *sw, err *e)
{
    double t0;
    int rc;
    if (!sw->checkpoint || host_seconds() - sw->last_save < CHECKPOINT_SECONDS ||
        host_seconds() - sw->last_save < CHECKPOINT_COST * sw->save_took)
        return BE_OK;
    t0 = host_seconds();
    rc = checkpoint_save(sw->r, sw->base, sw->root, sw->checkpoint, sw->lock, e);
    sw->last_save = host_seconds();
    sw->save_took = sw->last_save - t0;
    return rc;
}

/* Records a visit of point `point` in r->passes[slot] whose samples from
 * `first` on it took, and the round trip before it. */
static void hop_record(sweep *sw, int slot, int point, int first, double before)
{
    double after = cachehop_probe(&sw->hop);
    hop_visit *v;
    if (!sw->hv || sw->nhv == sw->total)
        return;
    v = &sw->hv[sw->nhv++];
    v->point = point;
    v->first = first;
    v->count = sw->r->points[point].nsamples - first;
    v->slot = slot;
    v->hop = after > before ? after : before;
}

/* Marks the samples of every visit timed so far far or near by the run's
 * quickest round trip now (it only falls, so a visit made before the CPUs
 * first came close is judged again), and sets each pass's counts and
 * median round trip. */
static void hop_mark(sweep *sw)
{
    double *v = malloc((size_t)(sw->nhv > 0 ? sw->nhv : 1) * sizeof *v);
    int i, j, s, n;
    for (i = 0; i < sw->nhv; i++) {
        const hop_visit *h = &sw->hv[i];
        double far = cachehop_far(&sw->hop, h->hop) ? 1.0 : 0.0;
        for (j = h->first; j < h->first + h->count; j++)
            sw->r->points[h->point].samples[j].far = far;
    }
    for (s = 0; s < sw->r->npasses && v; s++) {
        rs_pass *ps = &sw->r->passes[s];
        int far = 0;
        for (n = 0, i = 0; i < sw->nhv; i++)
            if (sw->hv[i].slot == s) {
                far += cachehop_far(&sw->hop, sw->hv[i].hop);
                v[n++] = sw->hv[i].hop;
            }
        if (n == 0)
            continue;
        ps->hop_checks = n;
        ps->hop_far = far;
        ps->hop = stats_median(v, n);
    }
    free(v);
}

/* An event of pass k (0-based), after the visits done so far. */
static sweep_event event_of(const sweep *sw, sweep_event_kind kind, int k)
{
    sweep_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.index = sw->done;
    ev.total = sw->total;
    ev.pass = k + 1;
    ev.passes = sw->passes;
    return ev;
}

/* The d-th device (in this cell's order) on the q-th cell of pass k
 * (r->passes[slot]): told to progress before and after, visited while its
 * point is ok, with the cell's data made by the first visit that needs it
 * (*made), then a checkpoint if one is due. */
static int visit_device(sweep *sw, int k, int slot, int q, int d, workload_data *data, int *made,
                        err *e)
{
    const plan_point *cell = &sw->pts[sw->order[q]];
    int dev = sw->dorder[d], rc = BE_OK;
    rs_point *pt = &sw->r->points[sw->slot[sw->order[q] * sw->ndev + dev]];
    double elapsed = host_seconds() - sw->start - sw->energy;
    int left = visits_left(sw->r, sw->slot, sw->order, sw->npts, sw->ndev, q, sw->passes - 1 - k);
    sweep_event ev;

    if (stopped(&sw->m))
        return BE_EINTR;
    ev = event_of(sw, SWEEP_START, k);
    ev.elapsed = elapsed;
    ev.eta = sw->done > 0 ? elapsed / sw->done * (sw->total - sw->done) : sw->budget;
    ev.dev = &sw->devs[dev]->info;
    ev.mode = cell->mode;
    ev.hidden = cell->hidden;
    ev.batch = cell->batch;
    ev.net = cell->net >= 0 ? sw->p->nets[cell->net].name : NULL;
    if (sw->progress) {
        /* the caller may hold the visit back (ab paces two sweeps): the
         * time it waits is not the sweep's, nor the visit's */
        const double held = host_seconds();
        sw->progress(sw->ctx, &ev);
        sw->start += host_seconds() - held;
        if (stopped(&sw->m))
            return BE_EINTR;
    }
    if (pt->status == PT_OK) {
        /* the visit's overhead counts from here: making the data too */
        double since = host_seconds(), before;
        int first = pt->nsamples;
        sw->m.share = visit_share(sw, elapsed, left);
        if (sw->devs[dev]->ops->set_limit)
            sw->devs[dev]->ops->set_limit(
                sw->devs[dev]->handle,
                sweep_call_limit(pt->nsamples > 0 ? slowest(pt) : HUGE_VAL, sw->budget - elapsed));
        if (!*made && (rc = make_data(sw, cell, data, e)) < 0)
            return rc;
        *made = 1;
        before = devinfo_on_host(&sw->devs[dev]->info) ? cachehop_probe(&sw->hop) : 0.0;
        rc = timed_visit(sw, k, slot, dev, &data->w, pt, since, e);
        if (before > 0.0)
            hop_record(sw, slot, (int)(pt - sw->r->points), first, before);
    }
    sw->done++;
    ev.kind = SWEEP_DONE;
    ev.index = sw->done;
    ev.elapsed = host_seconds() - sw->start;
    ev.point = pt;
    if (rc == BE_OK && sw->progress)
        sw->progress(sw->ctx, &ev);
    if (rc == BE_OK)
        rc = checkpoint_due(sw, e);
    return rc;
}

/* The q-th cell of pass k (r->passes[slot]), on every device in a
 * shuffled order. */
static int visit_cell(sweep *sw, int k, int slot, int q, err *e)
{
    workload_data data;
    int made = 0, d, rc = BE_OK;
    shuffle(sw->dorder, sw->ndev, &sw->rng);
    for (d = 0; d < sw->ndev && rc == BE_OK; d++)
        rc = visit_device(sw, k, slot, q, d, &data, &made, e);
    if (made)
        workload_free(&data);
    return rc;
}

/* Every point summarized again once a pass is done: its share of
 * contention is known now, and each device's prior (stats_prior) has
 * its points' latest spreads, the precision passes' and the
 * refinement's, which visit a few cells only, included; rc is the
 * pass's outcome so far, returned unless a summary fails. */
static int resummarize(sweep *sw, int rc, err *e)
{
    int sum;
    if ((rc == BE_OK || rc == BE_EINTR) && (sum = results_summarize_all(sw->r, e)) < 0)
        return sum;
    return rc;
}

/* Tells progress that pass k (r->passes[slot]) is done. */
static void pass_done(const sweep *sw, int k, int slot)
{
    sweep_event ev = event_of(sw, SWEEP_PASS_DONE, k);
    ev.elapsed = host_seconds() - sw->start;
    ev.pass_info = &sw->r->passes[slot];
    sw->progress(sw->ctx, &ev);
}

/* The CPU ticks the devices' adapters spent on their visits so far
 * (backend_ops.own_ticks): breakeven's own time; the rest of theirs is
 * another process's load. */
static unsigned long long own_ticks(const sweep *sw)
{
    unsigned long long n = 0;
    int d;
    for (d = 0; d < sw->ndev; d++)
        if (sw->devs[d]->ops->own_ticks)
            n += sw->devs[d]->ops->own_ticks(sw->devs[d]->handle);
    return n;
}

/* Pass k: every cell once, in a shuffled order, and what the machine did
 * meanwhile; then its reference mark, and a checkpoint. */
static int run_pass(sweep *sw, int k, err *e)
{
    results *r = sw->r;
    rs_pass ps;
    machstate_mark mark;
    double pass_start = host_seconds();
    int slot, q, rc, pids[MACHSTATE_MAX_PIDS], npids = 0;
    unsigned long long own;

    memset(&ps, 0, sizeof ps);
    ps.index = r->npasses + 1;
    host_utc_now(ps.started, sizeof ps.started, 0);
    if ((rc = results_add_pass(r, &ps, e)) < 0)
        return rc;
    slot = r->npasses - 1;
    /* our CPU time: this process's, the other side's of an `ab` pair and
     * the framework adapters' within their visits (else a run of
     * torch:cpu reads as busy) */
    pids[npids++] = sw->p->sibling_pid;
    own = own_ticks(sw);
    machstate_begin(&mark, pids, npids);
    shuffle(sw->order, sw->npts, &sw->rng);
    for (q = 0; q < sw->npts && rc == BE_OK; q++)
        rc = visit_cell(sw, k, slot, q, e);
    r->passes[slot].seconds = host_seconds() - pass_start;
    machstate_end_with(&mark, own_ticks(sw) - own, &r->passes[slot].state);
    /* the machine's own speed, beside the pass (outside its seconds
     * and every sample), for the comparison of runs */
    if (rc == BE_OK)
        refmark_measure(&r->passes[slot].ref);
    hop_mark(sw);
    rc = resummarize(sw, rc, e);
    if (rc == BE_OK && sw->progress)
        pass_done(sw, k, slot);
    if (rc == BE_OK && sw->checkpoint) {
        rc = checkpoint_save(r, sw->base, sw->root, sw->checkpoint, sw->lock, e);
        sw->last_save = host_seconds();
    }
    return rc;
}

/* Why a CPU has no energy figures, kept with its device in r (the "rapl"
 * property, telemetry.h) so that the page can say what would give them. */
static void note_no_rapl(results *r, const device_info *info)
{
    int i;
    if (strcmp(info->kind, "openblas") != 0)
        return;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, info->id) == 0 && !devinfo_prop(&r->devices[i], "rapl"))
            devinfo_prop_add(&r->devices[i], "rapl", "%s", tel_rapl_why("/sys/class/powercap"));
}

int sweep_run(const plan *p, const plan_point *pts, const int *points, int npts, double budget,
              device *const *devs, int ndev, results *r, const char *root, const char *checkpoint,
              outlock *lock, volatile sig_atomic_t *stop, sweep_progress_fn progress, void *ctx,
              err *e)
{
    sweep sw;
    int rc = BE_OK, d, k, q;
    err te;

    memset(&sw, 0, sizeof sw);
    sw.p = p;
    sw.pts = pts;
    sw.npts = npts;
    sw.budget = budget;
    sw.devs = devs;
    sw.ndev = ndev;
    sw.r = r;
    sw.root = root;
    sw.checkpoint = checkpoint;
    sw.lock = lock;
    sw.progress = progress;
    sw.ctx = ctx;
    sw.passes = p->passes > 0 ? p->passes : 1;
    sw.total = npts * ndev * sw.passes;
    sw.base = r->npoints;
    sw.order = malloc((size_t)npts * sizeof *sw.order + 1);
    sw.dorder = malloc((size_t)ndev * sizeof *sw.dorder + 1);
    sw.slot = malloc((size_t)npts * (size_t)ndev * sizeof *sw.slot + 1);
    sw.start = sw.last_save = host_seconds();
    /* a fresh order for every sweep of a run (the refinement's too) */
    sw.rng = p->seed ^ ((uint64_t)0x70617373u * (uint64_t)(r->npasses + 1));
    sw.m = (measure){p, stop, PASS_MIN_SAMPLES, 0.0, 0.0, NULL, 0, 0.0};
    sw.tel = calloc((size_t)ndev + 1, sizeof *sw.tel);
    /* out of memory for the records leaves every sample near: the check
     * is an aid, not a condition of the measurement */
    sw.hv = malloc((size_t)sw.total * sizeof *sw.hv + 1);

    if ((p->min_samples + sw.passes - 1) / sw.passes > sw.m.min_samples)
        sw.m.min_samples = (p->min_samples + sw.passes - 1) / sw.passes;
    if (!sw.order || !sw.dorder || !sw.tel || !sw.slot) {
        rc = err_set(e, BE_EFAIL, "out of memory planning the sweep");
        goto out;
    }
    /* telemetry is optional: a device without it, or a failure to open it,
     * is measured all the same, with nothing recorded */
    for (d = 0; d < ndev; d++) {
        if (tel_open_for(&devs[d]->info, &sw.tel[d], &te) < 0)
            sw.tel[d] = NULL;
        if (!sw.tel[d])
            note_no_rapl(r, &devs[d]->info);
    }
    if (points)
        memcpy(sw.slot, points, (size_t)npts * (size_t)ndev * sizeof *sw.slot);
    else
        rc = add_points(&sw, e);
    if (any_on_host(devs, ndev))
        cachehop_init(&sw.hop);
    else
        sw.hop.cpu_a = sw.hop.cpu_b = -1;
    for (k = 0; k < sw.passes && rc == BE_OK; k++)
        rc = run_pass(&sw, k, e);
out:
    /* points never measured (an interrupted sweep) are left out */
    for (q = r->npoints - 1; q >= sw.base; q--)
        if (!measured(&r->points[q]))
            results_remove_point(r, q);
    for (d = 0; sw.tel && d < ndev; d++)
        tel_close(sw.tel[d]);
    free(sw.tel);
    free(sw.hv);
    free(sw.order);
    free(sw.dorder);
    free(sw.slot);
    return rc;
}
