/*
 * fit.c — from measured points to "the GPU wins from batch B at hidden H"
 * (see fit.h).
 *
 * The sweep and the results model stop at medians with confidence
 * intervals; this module turns them into the answer breakeven exists for.
 * Each device × mode × view gets the two-parameter model t(f) = t0 + f/P,
 * fitted by weighted least squares over all its points and again at each
 * hidden width with 3 batches or more.  Times span about five decades (a
 * few microseconds at hidden 128, batch 16, to seconds at hidden 2048,
 * batch 1024), so an unweighted fit would only listen to the largest
 * points; the weights make every residual count relative to the point's
 * own time and its measured spread (see point_weight).  A negative latency
 * has no meaning, so the fit keeps t0 ≥ 0.  The models describe the
 * devices (the throughput chart, the paragraphs) and extrapolate where no
 * width crosses in range; the crossovers themselves come from the measured
 * speed ratios (fit_cross.c, xover.h).  Cost is time scaled by a price, so
 * cost crossovers reuse the same machinery with a scale factor per
 * device.  Nothing here prints, allocates beyond the fit_set it fills, or
 * guesses: a crossover that cannot be computed says so in words.
 *
 * The module spans three files (fit_impl.h): this one fits the models and
 * runs the whole fit; fit_cross.c finds the crossovers; fit_words.c writes
 * the sentence.
 */
#define _POSIX_C_SOURCE 200809L
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_impl.h"
#include "query.h"
#include "workload.h"

/* z of a two-sided 95% normal interval: turns a median's CI half-width
 * into a standard error. */
#define Z95 1.959964
/* The smallest relative uncertainty a point is credited with.  The model
 * itself is an idealisation (caches, clocks, allocation patterns), so a
 * point whose samples happen to agree to 0.1% must not dominate the fit. */
#define REL_FLOOR 0.01
/* Outliers: |relative residual| above OUTLIER_K times the RMS of the other
 * points and above OUTLIER_MIN in absolute terms. */
#define OUTLIER_K 3.0
#define OUTLIER_MIN 0.10

const char *fit_view_name(fit_view v)
{
    return v == FIT_WHOST ? "weights-on-host" : v == FIT_TRANSFER ? "transfer" : "resident";
}

const char *fit_cross_kind_name(cross_kind k)
{
    static const char *names[] = {"in-range", "extrapolated", "never", "always", "unknown"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* ---- the weighted line --------------------------------------------------- */

/* Returns 0 when m was fitted (m->ok = 1), BE_EFAIL with m->why otherwise.
 * Standard errors treat the weights as relative: the covariance is scaled
 * by the reduced χ² (more points than parameters), because the scatter
 * about the model (memory effects, clock changes) is usually larger than
 * the samples' own spread.  With no point to spare the line has no scatter
 * to learn from; then the weights are taken as absolute (1/σ²), and with
 * no weights the errors are left at 0.  A free line with t0 < 0 is
 * replaced by the best line through the origin (the least-squares optimum
 * under t0 ≥ 0 lies on that boundary); its t0 is exactly 0, without error. */
int fit_line(const double *f, const double *t, const double *w, int n, fit_model *m)
{
    double sw = 0.0, sf = 0.0, st = 0.0, fbar, tbar, sff = 0.0, sft = 0.0, s0ff = 0.0;
    double s0ft = 0.0, a, b, chi2 = 0.0, rel2 = 0.0, scale;
    int i, npar = 2;

    m->ok = 0;
    m->poor = 0;
    m->why[0] = '\0';
    m->npoints = n;
    m->t0 = m->t0_err = m->P = m->P_err = m->half_size = m->rms_rel = 0.0;
    m->fmin = m->fmax = 0.0;
    m->noutliers = 0;
    if (n < 2) {
        snprintf(m->why, sizeof m->why, "%d usable point%s, a line needs 2", n, n == 1 ? "" : "s");
        return BE_EFAIL;
    }
    m->fmin = m->fmax = f[0];
    for (i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (!(wi > 0.0) || !isfinite(wi) || !isfinite(f[i]) || !isfinite(t[i])) {
            snprintf(m->why, sizeof m->why, "point %d has a non-finite value or weight", i);
            return BE_EFAIL;
        }
        if (f[i] < m->fmin)
            m->fmin = f[i];
        if (f[i] > m->fmax)
            m->fmax = f[i];
        sw += wi;
        sf += wi * f[i];
        st += wi * t[i];
        s0ff += wi * f[i] * f[i];
        s0ft += wi * f[i] * t[i];
    }
    fbar = sf / sw;
    tbar = st / sw;
    for (i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        sff += wi * (f[i] - fbar) * (f[i] - fbar);
        sft += wi * (f[i] - fbar) * (t[i] - tbar);
    }
    if (!(m->fmax > m->fmin) || !(sff > 0.0)) {
        snprintf(m->why, sizeof m->why, "every point has the same FLOPs per layer (%g)", m->fmin);
        return BE_EFAIL;
    }
    b = sft / sff;
    a = tbar - b * fbar;
    if (a < 0.0) {
        npar = 1;
        a = 0.0;
        b = s0ft / s0ff;
    }
    if (!(b > 0.0) || !isfinite(b)) {
        snprintf(m->why, sizeof m->why,
                 "the time does not grow with the FLOPs per layer (slope %.3g s/FLOP)", b);
        return BE_EFAIL;
    }
    for (i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0, model = a + b * f[i], r = t[i] - model;
        double den = model > 0.0 ? model : t[i];
        chi2 += wi * r * r;
        if (den > 0.0)
            rel2 += (r / den) * (r / den);
    }
    scale = n > npar ? chi2 / (n - npar) : w ? 1.0 : 0.0;
    m->ok = 1;
    m->t0 = a;
    m->P = 1.0 / b;
    if (npar == 2) {
        m->t0_err = sqrt(scale * (1.0 / sw + fbar * fbar / sff));
        m->P_err = sqrt(scale / sff) / (b * b);
    } else {
        m->P_err = sqrt(scale / s0ff) / (b * b);
    }
    m->half_size = m->t0 * m->P;
    m->rms_rel = sqrt(rel2 / n);
    return BE_OK;
}

/* ---- the points of one model ------------------------------------------------ */

void fit_series_free(fit_series *s)
{
    free(s->idx);
    free(s->f);
    free(s->t);
    free(s->w);
    memset(s, 0, sizeof *s);
}

static const stats_summary *view_summary(const rs_point *p, fit_view v)
{
    return v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

int fit_usable(const rs_point *p, const char *id, wl_mode mode, fit_view v)
{
    /* a network's points are analysed per network (netfit.h), not here */
    return strcmp(p->device, id) == 0 && p->mode == mode && q_ok_view(p, v) && p->nsamples > 0 &&
           p->samples && p->layers > 0 && p->flops_per_layer > 0.0 && !p->net[0];
}

/* The weight of a point in the fit of per-layer times: 1/σ², with σ the
 * standard error of its median.  The 95% CI of the median (order
 * statistics, stats.c) divided by 2·1.96 gives that error relative to the
 * median; REL_FLOOR is added in quadrature; σ = that relative error times
 * the point's time, so a 1 µs point and a 1 s point with the same relative
 * spread count the same.  With few samples the CI is the whole range at a
 * coverage below 95%, which errs on the side of a smaller weight. */
static double point_weight(const rs_point *p, fit_view v)
{
    const stats_summary *s = view_summary(p, v);
    double rel = (s->ci_hi - s->ci_lo) / (2.0 * Z95 * s->median);
    double t = s->median / p->layers;
    if (!(rel >= 0.0) || !isfinite(rel))
        rel = 0.0;
    return 1.0 / ((rel * rel + REL_FLOOR * REL_FLOOR) * t * t);
}

int fit_series_collect(const results *r, const char *id, wl_mode mode, fit_view v, int hidden,
                       fit_series *s, err *e)
{
    int i, n = 0;

    memset(s, 0, sizeof *s);
    for (i = 0; i < r->npoints; i++)
        n += fit_usable(&r->points[i], id, mode, v) &&
             (hidden == 0 || r->points[i].hidden == hidden);
    if (n == 0)
        return BE_OK;
    s->idx = malloc((size_t)n * sizeof *s->idx);
    s->f = malloc((size_t)n * sizeof *s->f);
    s->t = malloc((size_t)n * sizeof *s->t);
    s->w = malloc((size_t)n * sizeof *s->w);
    if (!s->idx || !s->f || !s->t || !s->w) {
        fit_series_free(s);
        return err_set(e, BE_EFAIL, "out of memory collecting the points of %s", id);
    }
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int k = s->n;
        if (!fit_usable(p, id, mode, v) || (hidden != 0 && p->hidden != hidden))
            continue;
        s->idx[k] = i;
        s->f[k] = p->flops_per_layer;
        s->t[k] = view_summary(p, v)->median / p->layers;
        s->w[k] = point_weight(p, v);
        s->n++;
    }
    return BE_OK;
}

/* Counts a device's points in one mode by status, for the "why" texts. */
static void status_counts(const results *r, const char *id, wl_mode mode, int count[PT_NSTATUS])
{
    int i;
    memset(count, 0, PT_NSTATUS * sizeof *count);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (strcmp(p->device, id) == 0 && p->mode == mode && (unsigned)p->status < PT_NSTATUS)
            count[p->status]++;
    }
}

void fit_describe_unusable(const results *r, const char *id, wl_mode mode, fit_view v, int nusable,
                           char *buf, size_t size)
{
    static const char *what[PT_NSTATUS] = {"ok", "out of memory", "failed verification", "skipped",
                                           "failed"};
    int c[PT_NSTATUS], total, i, k = 0;
    status_counts(r, id, mode, c);
    total = c[0] + c[1] + c[2] + c[3] + c[4];
    snprintf(buf, size, "%d of %d %s point%s usable for the %s view", nusable, total,
             workload_mode_name(mode), total == 1 ? "" : "s", fit_view_name(v));
    for (i = PT_OUT_OF_MEMORY; i <= PT_FAILED; i++)
        if (c[i]) {
            size_t len = strlen(buf);
            snprintf(buf + len, size - len, "%s%d %s", k++ ? ", " : " (", c[i], what[i]);
        }
    if (k) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, ")");
    }
}

/* Fits one model from its series, judges it and flags outliers: a point
 * is an outlier when its relative residual exceeds OUTLIER_K times the RMS
 * relative residual of the other points (leaving it out, so that one bad
 * point cannot hide behind the RMS it inflates) and OUTLIER_MIN.  The
 * outliers stay in the fit: they are reported, not silently dropped. */
static void model_fit(const results *r, const char *id, wl_mode mode, fit_view v, int hidden,
                      const fit_series *s, fit_model *m)
{
    double sum2 = 0.0, *rel = NULL;
    int i;

    if (fit_line(s->f, s->t, s->w, s->n, m) < 0 && s->n < 2)
        fit_describe_unusable(r, id, mode, v, s->n, m->why, sizeof m->why);
    snprintf(m->device, sizeof m->device, "%s", id);
    m->mode = mode;
    m->view = v;
    m->hidden = hidden;
    m->poor = m->ok && m->rms_rel > FIT_POOR_RMS;
    if (!m->ok || s->n < 3 || !(rel = malloc((size_t)s->n * sizeof *rel)))
        goto done;
    for (i = 0; i < s->n; i++) {
        double model = m->t0 + s->f[i] / m->P;
        rel[i] = model > 0.0 ? (s->t[i] - model) / model : 0.0;
        sum2 += rel[i] * rel[i];
    }
    for (i = 0; i < s->n && m->noutliers < FIT_MAX_OUTLIERS; i++) {
        double others = sqrt(fmax(sum2 - rel[i] * rel[i], 0.0) / (s->n - 1));
        if (fabs(rel[i]) > OUTLIER_K * others && fabs(rel[i]) > OUTLIER_MIN)
            m->outliers[m->noutliers++] = s->idx[i];
    }
done:
    free(rel);
}

/* ---- the run ------------------------------------------------------------------ */

/* A device has a transfer view when any of its points carries transfer
 * times (OpenCL devices do; the CPU never transfers, and a device whose
 * every point ran out of memory has its resident model say so). */
static int has_transfer_view(const results *r, const char *id)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].has_transfer && strcmp(r->points[i].device, id) == 0)
            return 1;
    return 0;
}

void fit_set_free(fit_set *s)
{
    if (!s)
        return;
    free(s->models);
    free(s->cross);
    memset(s, 0, sizeof *s);
}

/* A stream per crossover: the same seed gives the same intervals whatever
 * else the run contains. */
static uint64_t stream_seed(uint64_t seed, int d, int mode, int v, int cost)
{
    uint64_t k = (uint64_t)(d * 8 + mode * 4 + v * 2 + cost + 1);
    return seed ^ (UINT64_C(0xD1B54A32D192ED03) * k);
}

/* The model over all widths of one device × mode × view, then one per
 * width with at least 3 usable batches, appended to out->models. */
static int fit_models(const results *r, const char *id, wl_mode mode, fit_view v, fit_set *out,
                      err *e)
{
    fit_series s;
    q_grid g;
    int i, rc;

    if ((rc = fit_series_collect(r, id, mode, v, 0, &s, e)) < 0)
        return rc;
    model_fit(r, id, mode, v, 0, &s, &out->models[out->nmodels++]);
    fit_series_free(&s);
    q_grid_make(r, mode, &g);
    for (i = 0; i < g.nh; i++) {
        if ((rc = fit_series_collect(r, id, mode, v, g.h[i], &s, e)) < 0)
            return rc;
        if (s.n >= 3)
            model_fit(r, id, mode, v, g.h[i], &s, &out->models[out->nmodels++]);
        fit_series_free(&s);
    }
    return BE_OK;
}

int fit_run(const results *r, const fit_prices *prices, uint64_t seed, int boot, fit_set *out,
            err *e)
{
    int d, mode, v, b, rc = BE_OK, maxcross, maxmodels = 0;
    fit_series sb, so;

    memset(out, 0, sizeof *out);
    memset(&sb, 0, sizeof sb);
    memset(&so, 0, sizeof so);
    out->analysis = FIT_ANALYSIS;
    if (boot <= 0)
        boot = 1000;
    if (r->ndevices == 0)
        return BE_OK;
    for (mode = WL_INFERENCE; mode <= WL_TRAINING; mode++) {
        q_grid g;
        q_grid_make(r, (wl_mode)mode, &g);
        maxmodels += r->ndevices * 2 * (1 + g.nh);
    }
    out->models = calloc((size_t)maxmodels, sizeof *out->models);
    maxcross = r->ndevices * 8;
    out->cross = calloc((size_t)maxcross, sizeof *out->cross);
    if (!out->models || !out->cross) {
        rc = err_set(e, BE_EFAIL, "out of memory for the fits of %d devices", r->ndevices);
        goto fail;
    }
    for (d = 0; d < r->ndevices; d++)
        for (mode = WL_INFERENCE; mode <= WL_TRAINING; mode++)
            for (v = FIT_RESIDENT; v <= FIT_TRANSFER; v++) {
                const char *id = r->devices[d].id;
                if (!q_has_mode(r, id, (wl_mode)mode) ||
                    (v == FIT_TRANSFER && !has_transfer_view(r, id)))
                    continue;
                if ((rc = fit_models(r, id, (wl_mode)mode, (fit_view)v, out, e)) < 0)
                    goto fail;
            }

    for (d = 0; d < r->ndevices; d++) {
        const char *bid = r->devices[b = q_base_for(r, d)].id, *oid = r->devices[d].id;
        double pb = q_price(prices, bid), po = q_price(prices, oid);
        if (d == b)
            continue;
        for (mode = WL_INFERENCE; mode <= WL_TRAINING; mode++)
            for (v = FIT_RESIDENT; v <= FIT_TRANSFER; v++) {
                const fit_model *om = q_model(out, oid, (wl_mode)mode, (fit_view)v);
                const fit_model *bm = q_base_model(out, bid, (wl_mode)mode, (fit_view)v);
                int cost;
                if (!om || !bm)
                    continue;
                if ((rc = fit_series_collect(r, bid, (wl_mode)mode, bm->view, 0, &sb, e)) < 0 ||
                    (rc = fit_series_collect(r, oid, (wl_mode)mode, (fit_view)v, 0, &so, e)) < 0)
                    goto fail;
                for (cost = 0; cost <= (pb > 0.0 && po > 0.0); cost++) {
                    fit_crossover *c = &out->cross[out->ncross];
                    uint64_t s = stream_seed(seed, d, mode, v, cost);
                    snprintf(c->base, sizeof c->base, "%s", bid);
                    snprintf(c->other, sizeof c->other, "%s", oid);
                    c->mode = (wl_mode)mode;
                    c->view = (fit_view)v;
                    c->cost = cost;
                    if ((rc = fit_crossover_fill(r, out, bm->view, &sb, &so,
                                                 cost ? pb / 3600.0 : 1.0, cost ? po / 3600.0 : 1.0,
                                                 prices, s, boot, c, e)) < 0)
                        goto fail;
                    out->ncross++;
                }
                fit_series_free(&sb);
                fit_series_free(&so);
            }
    }
    return BE_OK;
fail:
    fit_series_free(&sb);
    fit_series_free(&so);
    fit_set_free(out);
    return rc;
}
