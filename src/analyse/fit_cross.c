/*
 * fit_cross.c — where another device overtakes the base device (see fit.h,
 * fit_impl.h).
 *
 * The answer is per hidden width, from the measured speed ratios: at each
 * width, the batches both devices measured become xover.h's cells (each
 * median with the standard error of its logarithm, read off its interval,
 * which covers the variation between passes), and the estimator finds the
 * batch from which the other device stays ahead, with a 95% interval
 * widened by each device's scatter around its curves, measured over all
 * the widths (xover.h).
 * The crossover's summary spans the widths; a model enters only where no
 * width crosses in the measured range, to say whether the per-width models
 * predict a crossing beyond it, and only a model that fits (not poor).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit_impl.h"
#include "query.h"
#include "xover.h"

/* dt0 > 0: other is slower at f = 0; dinv > 0: other gains with f. */
void fit_meet(const fit_model *base, const fit_model *other, double fmin, double fmax,
              cross_kind *kind, double *flops)
{
    double dt0, dinv, fx = 0.0;

    *flops = 0.0;
    if (!base || !other || !base->ok || !other->ok) {
        *kind = CROSS_UNKNOWN;
        return;
    }
    dt0 = other->t0 - base->t0;
    dinv = 1.0 / base->P - 1.0 / other->P;
    if (dinv != 0.0)
        fx = dt0 / dinv;
    if (fx > 0.0 && isfinite(fx))
        *flops = fx;
    if (dinv > 0.0) {
        if (dt0 <= 0.0 || fx <= fmin)
            *kind = CROSS_ALWAYS;
        else if (fx <= fmax)
            *kind = CROSS_IN_RANGE;
        else
            *kind = CROSS_EXTRAPOLATED;
    } else {
        /* Throughput not higher: at best ahead at small sizes, by latency. */
        *kind = dt0 < 0.0 && (dinv == 0.0 || fx >= fmax) ? CROSS_ALWAYS : CROSS_NEVER;
    }
}

static void scale_model(fit_model *m, double k)
{
    m->t0 *= k;
    m->t0_err *= k;
    m->P /= k;
    m->P_err /= k;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The hidden widths either device has points at in this mode (any status:
 * a width that is all out of memory shows up as unknown), ascending. */
static int hidden_widths(const results *r, const char *b, const char *o, wl_mode mode, int *out)
{
    int i, j, n = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != mode || p->net[0] ||
            (strcmp(p->device, b) != 0 && strcmp(p->device, o) != 0))
            continue;
        for (j = 0; j < n && out[j] != p->hidden; j++)
            ;
        if (j == n && n < LIST_MAX)
            out[n++] = p->hidden;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

/* The standard error of the log of a point's median in view v. */
static double log_sd(const rs_point *p, fit_view v)
{
    const stats_summary *s = v == FIT_TRANSFER ? &p->transfer : &p->resident;
    return xover_log_sd(s->ci_lo, s->ci_hi, s->ci_level);
}

/* The cells of one hidden width: the batches both series have there (base
 * in view bv, other in view ov; times scaled by kb and ko); returns how
 * many, at most max. */
static int hidden_cells(const results *r, const fit_series *sb, const fit_series *so, fit_view bv,
                        fit_view ov, const stats_prior *prior, double kb, double ko, int hidden,
                        xover_cell *cells, int max)
{
    int i, j, m = 0, paired;
    double lo, hi;
    for (i = 0; i < sb->n && m < max; i++) {
        const rs_point *pb = &r->points[sb->idx[i]];
        if (pb->hidden != hidden)
            continue;
        for (j = 0; j < so->n; j++) {
            const rs_point *po = &r->points[so->idx[j]];
            if (po->hidden == hidden && po->batch == pb->batch)
                break;
        }
        if (j == so->n)
            continue;
        cells[m].batch = pb->batch;
        cells[m].base = kb * sb->t[i];
        cells[m].other = ko * so->t[j];
        cells[m].base_sd = log_sd(pb, bv);
        cells[m].other_sd = log_sd(&r->points[so->idx[j]], ov);
        paired = q_ratio_ci(pb, bv, &r->points[so->idx[j]], ov, prior, &lo, &hi);
        xover_pair(&cells[m], paired, lo, hi);
        m++;
    }
    return m;
}

/* The crossover at one hidden width from its cells, with the devices'
 * scatter around their curves over every width (sc). */
static int hidden_cross(const xover_cell *cells, int m, const xover_scatter *sc, wl_mode mode,
                        int hidden, uint64_t seed, int boot, fit_hidden_cross *h, err *e)
{
    xover_est x;
    int rc;

    memset(h, 0, sizeof *h);
    h->hidden = hidden;
    h->kind = CROSS_UNKNOWN;
    if (m == 0)
        return BE_OK;
    if ((rc = xover_estimate_with(cells, m, sc, seed, boot, &x, e)) < 0)
        return err_prefix(e, rc, "hidden %d", hidden);
    h->kind = x.kind;
    h->batch = x.batch;
    h->flops = x.kind == CROSS_IN_RANGE ? q_flops_at(mode, hidden, x.batch) : 0.0;
    h->batch_lo = x.lo;
    h->batch_hi = x.hi;
    h->lo_open = x.lo_open;
    h->hi_open = x.hi_open;
    return BE_OK;
}

/* Where the per-width models of a width that never crosses in range
 * predict a crossing beyond it: the FLOPs per layer, or 0 when they do
 * not (a model missing or poor, or its throughput not higher). */
static double extrapolate(const fit_set *fs, const fit_crossover *c, fit_view bv, double kb,
                          double ko, int hidden)
{
    const fit_model *bm = q_model_at(fs, c->base, c->mode, bv, hidden);
    const fit_model *om = q_model_at(fs, c->other, c->mode, c->view, hidden);
    fit_model b, o;
    cross_kind k;
    double f;
    if (!q_model_sound(bm) || !q_model_sound(om))
        return 0.0;
    b = *bm;
    o = *om;
    scale_model(&b, kb);
    scale_model(&o, ko);
    fit_meet(&b, &o, fmax(bm->fmin, om->fmin), fmin(bm->fmax, om->fmax), &k, &f);
    return k == CROSS_EXTRAPOLATED ? f : 0.0;
}

/* The crossover across widths from the per-width values f[0..n), n > 0
 * (sorted here): flops their median (of an even count, the geometric mean
 * of the middle two), flops_min and flops_max their range. */
static void across_widths(fit_crossover *c, double *f, int n)
{
    qsort(f, (size_t)n, sizeof *f, cmp_double);
    c->flops_min = f[0];
    c->flops_max = f[n - 1];
    c->flops = n % 2 ? f[n / 2] : sqrt(f[n / 2 - 1] * f[n / 2]);
}

/* The summary across widths (fit.h): in range when some width crosses in
 * range or the other device wins at every batch of some widths and at
 * none of others; always or never when every width says so; never turns
 * extrapolated when a width's sound models predict a crossing beyond.
 * flops is the median of the per-width crossovers (or predictions), and
 * flops_min, flops_max their range. */
static void summarize(const fit_set *fs, fit_view bv, double kb, double ko, fit_crossover *c)
{
    double f[LIST_MAX], lo = INFINITY, hi = 0.0;
    int i, n = 0, nal = 0, nnev = 0, open = 0;

    c->kind = CROSS_UNKNOWN;
    c->flops = c->flops_min = c->flops_max = c->ci_lo = c->ci_hi = 0.0;
    for (i = 0; i < c->nhidden; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        nal += h->kind == CROSS_ALWAYS;
        nnev += h->kind == CROSS_NEVER;
        if (h->kind != CROSS_IN_RANGE)
            continue;
        f[n++] = h->flops;
        lo = fmin(lo, h->lo_open ? 0.0 : q_flops_at(c->mode, h->hidden, h->batch_lo));
        hi = fmax(hi, q_flops_at(c->mode, h->hidden, h->batch_hi));
        open |= h->hi_open;
    }
    if (n > 0) {
        c->kind = CROSS_IN_RANGE;
        across_widths(c, f, n);
        if (!open) {
            c->ci_lo = fmin(lo, c->flops_min);
            c->ci_hi = fmax(hi, c->flops_max);
        }
    } else if (nal > 0 && nnev > 0) {
        c->kind = CROSS_IN_RANGE;
    } else if (nal > 0) {
        c->kind = CROSS_ALWAYS;
    } else if (nnev > 0) {
        c->kind = CROSS_NEVER;
        for (i = 0; i < c->nhidden; i++) {
            double x = extrapolate(fs, c, bv, kb, ko, c->per_hidden[i].hidden);
            if (x > 0.0)
                f[n++] = x;
        }
        if (n > 0) {
            c->kind = CROSS_EXTRAPOLATED;
            across_widths(c, f, n);
        }
    }
}

int fit_crossover_fill(const results *r, const fit_set *fs, fit_view bview, const fit_series *sb,
                       const fit_series *so, double kb, double ko, const fit_prices *prices,
                       uint64_t seed, int boot, fit_crossover *c, err *e)
{
    enum { MAX_CELLS = LIST_MAX * 4 };
    xover_cell cells[MAX_CELLS];
    xover_scatter *sc;
    stats_prior prior;
    int widths[LIST_MAX], nw, i, m, rc = BE_OK;

    q_ratio_prior(r, c->base, bview, c->other, c->view, &prior);
    nw = hidden_widths(r, c->base, c->other, c->mode, widths);
    c->nhidden = nw;
    /* the scatter around the curves rests on every width's points: one
     * width has too few to say much on its own */
    if (!(sc = calloc(1, sizeof *sc)))
        return err_set(e, BE_EFAIL, "crossover %s/%s: out of memory", c->base, c->other);
    for (i = 0; i < nw; i++) {
        m = hidden_cells(r, sb, so, bview, c->view, &prior, kb, ko, widths[i], cells, MAX_CELLS);
        xover_scatter_add(sc, cells, m);
    }
    for (i = 0; i < nw; i++) {
        uint64_t s = seed ^ (UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)widths[i]);
        m = hidden_cells(r, sb, so, bview, c->view, &prior, kb, ko, widths[i], cells, MAX_CELLS);
        if ((rc = hidden_cross(cells, m, sc, c->mode, widths[i], s, boot, &c->per_hidden[i], e)) <
            0)
            goto fail;
    }
    summarize(fs, bview, kb, ko, c);
    fit_sentence(fs, c, r, prices, c->sentence, sizeof c->sentence);
fail:
    free(sc);
    return rc;
}
