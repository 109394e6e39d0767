/*
 * query_ratio.c — the interval of the ratio of two devices' times at one
 * cell, and the questions built on it (see query.h): paired where the
 * two were measured in the same passes, its variance pooled over the
 * cells both measured (q_ratio_prior), as a point's own is over its
 * device's points (results_summarize_in).
 */
#include "query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The paired interval's half-width of the log ratio of pb's and po's
 * times with prior (stats_paired_log_ratio), the passes it rests on and
 * the variance of their log ratios; 0 passes when out of memory or either
 * records no passes. */
static double paired_half(const rs_point *pb, fit_view vb, const rs_point *po, fit_view vo,
                          const stats_prior *prior, int *passes, double *spread)
{
    double *xb = malloc((size_t)pb->nsamples * sizeof *xb + 1), half = 0.0;
    double *xo = malloc((size_t)po->nsamples * sizeof *xo + 1);
    int *sb = malloc((size_t)pb->nsamples * sizeof *sb + 1);
    int *so = malloc((size_t)po->nsamples * sizeof *so + 1), nb, no;
    err e;
    *passes = 0;
    if (xb && xo && sb && so && pb->pass && po->pass &&
        (nb = results_view_samples(pb, vb, xb, sb)) > 0 &&
        (no = results_view_samples(po, vo, xo, so)) > 0 &&
        stats_paired_log_ratio(xb, sb, nb, xo, so, no, prior, &half, passes, spread, &e) < 0)
        *passes = 0;
    free(xb);
    free(xo);
    free(sb);
    free(so);
    return half;
}

void q_ratio_prior(const results *r, const char *base, fit_view vb, const char *other, fit_view vo,
                   stats_prior *out)
{
    double *var = malloc((size_t)r->npoints * sizeof *var + 1), spread;
    int *df = malloc((size_t)r->npoints * sizeof *df + 1), i, n = 0, passes;
    out->df = 0.0;
    out->var = 0.0;
    out->run_var = 0.0;
    /* out of memory: no prior, the wider interval */
    for (i = 0; var && df && i < r->npoints; i++) {
        const rs_point *pb = &r->points[i], *po;
        rs_point like = *pb;
        snprintf(like.device, sizeof like.device, "%s", other);
        if (strcmp(pb->device, base) != 0 || !q_ok_view(pb, vb) || !pb->pass ||
            !(po = q_point_of(r, &like)) || !q_ok_view(po, vo) || !po->pass)
            continue;
        paired_half(pb, vb, po, vo, NULL, &passes, &spread);
        if (passes >= 2) {
            var[n] = spread;
            df[n++] = passes - 1;
        }
    }
    if (var && df)
        stats_prior_fit(var, df, n, out);
    /* each run's level moves both devices' times, and not together */
    out->run_var = results_run_var(r, base, vb) + results_run_var(r, other, vo);
    free(var);
    free(df);
}

int q_ratio_ci(const rs_point *pb, fit_view vb, const rs_point *po, fit_view vo,
               const stats_prior *prior, double *lo, double *hi)
{
    const stats_summary *b = vb == FIT_WHOST      ? &pb->whost
                             : vb == FIT_TRANSFER ? &pb->transfer
                                                  : &pb->resident;
    const stats_summary *o = vo == FIT_WHOST      ? &po->whost
                             : vo == FIT_TRANSFER ? &po->transfer
                                                  : &po->resident;
    double ratio = o->median > 0.0 ? b->median / o->median : 0.0, half = 0.0, spread;
    int passes = 0;
    if (q_ok_view(pb, vb) && q_ok_view(po, vo))
        half = paired_half(pb, vb, po, vo, prior, &passes, &spread);
    if (passes < Q_PAIRED_PASSES || !(ratio > 0.0)) {
        /* the two intervals at their opposite ends */
        *lo = o->ci_hi > 0.0 ? b->ci_lo / o->ci_hi : ratio;
        *hi = o->ci_lo > 0.0 ? b->ci_hi / o->ci_lo : ratio;
        return 0;
    }
    *lo = ratio * exp(-half);
    *hi = ratio * exp(half);
    /* a device on the busy host's CPUs could have been quicker on a quiet
     * one (stats_contention); when both could, the ratio stands */
    if (b->contention > 0.0 && !(o->contention > 0.0))
        *lo *= 1.0 - b->contention;
    if (o->contention > 0.0 && !(b->contention > 0.0))
        *hi /= 1.0 - o->contention;
    return 1;
}

int q_net_ratios(const results *r, const char *base, const char *other, wl_mode m, fit_view v,
                 const char *sizes, q_net_ratio *out, int max)
{
    stats_prior prior;
    int i, n = 0, top = 0;
    q_ratio_prior(r, base, FIT_RESIDENT, other, v, &prior);
    /* the batches from the largest down */
    while (n < max) {
        const rs_point *pb = NULL, *po;
        int b = 0;
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (p->mode == m && strcmp(p->device, base) == 0 && strcmp(p->sizes, sizes) == 0 &&
                q_ok(p) && (top == 0 || p->batch < top) && p->batch > b &&
                q_ok_view(q_point_net(r, other, m, p->layers, p->hidden, p->batch, sizes), v)) {
                b = p->batch;
                pb = p;
            }
        }
        if (!pb)
            break;
        top = b;
        po = q_point_net(r, other, m, pb->layers, pb->hidden, b, sizes);
        out[n].batch = b;
        out[n].adv = q_median(pb, FIT_RESIDENT) / q_median(po, v);
        q_ratio_ci(pb, FIT_RESIDENT, po, v, &prior, &out[n].lo, &out[n].hi);
        n++;
    }
    return n;
}

void q_net_sides(const results *r, const char *base, const char *other, wl_mode m, fit_view v,
                 const char *sizes, q_net_side *out)
{
    q_net_ratio x[Q_NET_BATCHES];
    int i, run = 1;
    memset(out, 0, sizeof *out);
    out->n = q_net_ratios(r, base, other, m, v, sizes, x, Q_NET_BATCHES);
    for (i = 0; i < out->n; i++) {
        out->ahead += x[i].adv > 1.0;
        out->sure += x[i].lo > 1.0;
        out->behind += x[i].hi < 1.0;
        /* from the largest batch down: from is the last one still ahead */
        run = run && x[i].adv > 1.0;
        if (run)
            out->from = x[i].batch;
    }
}
