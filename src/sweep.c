/*
 * sweep.c — the measurement loop (see sweep.h).
 *
 * The workload data of a cell is made once and measured on every device in
 * turn, so devices see the same numbers and a slow drift of the machine
 * affects them alike.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "verify.h"
#include "workload.h"

/* Warm-up: at least this many steps and this much time (or a tenth of the
 * point's share, whichever is less). */
#define WARMUP_STEPS 2
#define WARMUP_SECONDS 0.2

typedef struct measure {
    const plan *p;
    volatile sig_atomic_t *stop;
    double share;       /* seconds this point may spend sampling */
} measure;

static int stopped(const measure *m) { return m->stop && *m->stop; }

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
                 "%s is off by %.3g of its scale; the tolerance is %.3g", vr.where,
                 vr.max_error, vr.tolerance);
    }
    rc = dev->ops->reset(run, e);
done:
    verify_state_free(w, &s);
    return rc;
}

/* Takes samples into pt until converged, out of share, or stopped. */
static int sample(const measure *m, const device *dev, void *run, rs_point *pt, err *e)
{
    int cap = m->p->max_samples, next_check = m->p->min_samples, rc, warm;
    double t0, warm_until;
    step_times t;
    stats_summary s;
    double *wall = NULL;

    pt->samples = malloc((size_t)cap * sizeof *pt->samples);
    wall = malloc((size_t)cap * sizeof *wall);
    if (!pt->samples || !wall) {
        free(wall);
        return err_set(e, BE_EFAIL, "out of memory for %d samples", cap);
    }
    t0 = host_seconds();
    warm_until = t0 + (m->share / 10 < WARMUP_SECONDS ? m->share / 10 : WARMUP_SECONDS);
    for (warm = 0; warm < WARMUP_STEPS || host_seconds() < warm_until; warm++) {
        if (stopped(m)) {
            free(wall);
            return BE_EINTR;
        }
        if ((rc = dev->ops->step(run, &t, e)) < 0) {
            free(wall);
            return rc;
        }
    }
    t0 = host_seconds();
    while (pt->nsamples < cap) {
        if (stopped(m)) {
            free(wall);
            return BE_EINTR;
        }
        if ((rc = dev->ops->step(run, &t, e)) < 0) {
            free(wall);
            return rc;
        }
        wall[pt->nsamples] = t.wall;
        pt->samples[pt->nsamples++] = t;
        if (pt->nsamples < m->p->min_samples)
            continue;
        if (host_seconds() - t0 >= m->share)
            break;
        if (pt->nsamples >= next_check) {
            /* re-check at geometric intervals: the summary sorts */
            if ((rc = stats_summarize(wall, pt->nsamples, &s, e)) < 0) {
                free(wall);
                return rc;
            }
            if (pt->nsamples >= 9 && stats_converged(&s, m->p->target_rel))
                break;
            next_check = pt->nsamples + 1 + pt->nsamples / 8;
        }
    }
    free(wall);
    pt->has_transfer = t.total >= 0.0 && t.h2d >= 0.0;
    return results_summarize(pt, e);
}

/* Measures one cell on one device into pt (status and samples). */
static int measure_point(const measure *m, const device *dev, const workload *w,
                         rs_point *pt, err *e)
{
    void *run = NULL;
    err pe;
    int rc;

    rc = dev->ops->prepare(dev->handle, w, &run, &pe);
    if (rc == BE_EOOM) {
        pt->status = PT_OUT_OF_MEMORY;
        snprintf(pt->message, sizeof pt->message, "%s", pe.msg);
        return BE_OK;
    }
    if (rc < 0) {
        pt->status = PT_SKIPPED;
        snprintf(pt->message, sizeof pt->message, "%s", pe.msg);
        return BE_OK;
    }
    rc = verify_point(dev, run, w, pt, &pe);
    if (rc == BE_OK && pt->status == PT_OK)
        rc = sample(m, dev, run, pt, &pe);
    dev->ops->release(run);
    if (rc == BE_EINTR)
        return rc;
    if (rc == BE_EOOM) {
        pt->status = PT_OUT_OF_MEMORY;
        snprintf(pt->message, sizeof pt->message, "%s", pe.msg);
    } else if (rc < 0) {
        pt->status = PT_SKIPPED;
        snprintf(pt->message, sizeof pt->message, "%s", pe.msg);
    }
    (void)e;
    return BE_OK;
}

int sweep_run(const plan *p, const plan_point *pts, int npts, double budget,
              device *const *devs, int ndev, results *r, const char *checkpoint,
              volatile sig_atomic_t *stop, sweep_progress_fn progress, void *ctx, err *e)
{
    int cells = npts, total = cells * ndev, done = 0, c, d, rc = BE_OK;
    double start = host_seconds();
    measure m = {p, stop, 0.0};

    for (c = 0; c < cells; c++) {
        workload_data data;
        wl_mode mode;
        int hidden, batch;

        mode = pts[c].mode;
        hidden = pts[c].hidden;
        batch = pts[c].batch;
        if ((rc = workload_make(&data, mode, p->layers, hidden, batch, p->seed, e)) < 0)
            return rc;
        for (d = 0; d < ndev; d++) {
            sweep_event ev;
            rs_point pt;
            double elapsed = host_seconds() - start;

            if (stop && *stop) {
                workload_free(&data);
                return BE_EINTR;
            }
            m.share = (budget - elapsed) / (total - done);
            if (m.share < 0.0)
                m.share = 0.0;
            memset(&ev, 0, sizeof ev);
            ev.kind = SWEEP_START;
            ev.index = done;
            ev.total = total;
            ev.elapsed = elapsed;
            ev.eta = done > 0 ? elapsed / done * (total - done) : budget;
            ev.dev = &devs[d]->info;
            ev.mode = mode;
            ev.hidden = hidden;
            ev.batch = batch;
            if (progress)
                progress(ctx, &ev);

            memset(&pt, 0, sizeof pt);
            snprintf(pt.device, sizeof pt.device, "%s", devs[d]->info.id);
            pt.mode = mode;
            pt.layers = p->layers;
            pt.hidden = hidden;
            pt.batch = batch;
            pt.flops_per_layer = workload_flops_per_layer(mode, hidden, batch);
            snprintf(pt.why, sizeof pt.why, "%s", pts[c].why);
            rc = measure_point(&m, devs[d], &data.w, &pt, e);
            if (rc == BE_OK)
                rc = results_add_point(r, &pt, e);
            free(pt.samples);
            if (rc < 0) {
                workload_free(&data);
                return rc;
            }
            done++;
            ev.kind = SWEEP_DONE;
            ev.index = done;
            ev.elapsed = host_seconds() - start;
            ev.point = &r->points[r->npoints - 1];
            if (progress)
                progress(ctx, &ev);
            if (checkpoint && (rc = results_save(r, checkpoint, e)) < 0) {
                workload_free(&data);
                return rc;
            }
        }
        workload_free(&data);
    }
    return BE_OK;
}
