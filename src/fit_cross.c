/*
 * fit_cross.c — where two fitted devices meet (see fit.h, fit_impl.h).
 *
 * Two lines t = t0 + f/P meet at most once, which gives the crossover;
 * its uncertainty comes from a bootstrap over the stored samples
 * (resample each point, take medians, refit, meet again), so it needs no
 * assumption about the shape of the timing distributions.  The per-hidden
 * crossover batches come straight from the measured speed ratio and need
 * no model at all.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit_impl.h"
#include "query.h"
#include "rng.h"
#include "stats.h"

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

/* ---- the bootstrap ------------------------------------------------------------ */

/* The median of a resample with replacement of one point's sorted samples
 * (same definition as stats_quantile(0.5)).  Drawing indexes and counting
 * them replaces a sort per resample: the samples are sorted already, so
 * index order is value order. */
static double resample_median(const double *sorted, int n, int *count, uint64_t *state)
{
    int i, k1 = (n - 1) / 2, k2 = n / 2, cum = 0;
    double v1 = sorted[0], v2 = sorted[0];
    int have1 = 0;

    memset(count, 0, (size_t)n * sizeof *count);
    for (i = 0; i < n; i++)
        count[rng_below(state, n)]++;
    for (i = 0; i < n; i++) {
        cum += count[i];
        if (!have1 && cum > k1) {
            v1 = sorted[i];
            have1 = 1;
        }
        if (cum > k2) {
            v2 = sorted[i];
            break;
        }
    }
    return 0.5 * (v1 + v2);
}

static void scale_model(fit_model *m, double k)
{
    m->t0 *= k;
    m->t0_err *= k;
    m->P /= k;
    m->P_err /= k;
}

/* Where two lines meet, for one bootstrap replicate: lines that never meet
 * at positive f count as +∞ (the crossover ran away), lines already met at
 * f ≤ 0 as 0, so that the percentiles keep their meaning. */
static double meet_value(const fit_model *b, const fit_model *o)
{
    double dt0, dinv;
    if (!b->ok || !o->ok)
        return INFINITY;
    dt0 = o->t0 - b->t0;
    dinv = 1.0 / b->P - 1.0 / o->P;
    if (dinv <= 0.0)
        return INFINITY;
    return dt0 <= 0.0 ? 0.0 : dt0 / dinv;
}

static void resample_series(const fit_series *s, double *t, int *count, uint64_t *state)
{
    int i;
    for (i = 0; i < s->n; i++)
        t[i] = resample_median(s->vals + s->off[i], s->cnt[i], count, state);
}

/* The percentile 95% CI of the meeting point over boot resamples; both
 * ends 0 when the upper end is unbounded (2.5% or more of the replicates
 * never meet). */
static int bootstrap(const fit_series *sb, const fit_series *so, double kb, double ko,
                     uint64_t seed, int boot, double *lo, double *hi, err *e)
{
    double *tb = malloc((size_t)sb->n * sizeof *tb), *to = malloc((size_t)so->n * sizeof *to);
    double *val = malloc((size_t)boot * sizeof *val);
    int maxcnt = sb->maxcnt > so->maxcnt ? sb->maxcnt : so->maxcnt;
    int *count = malloc((size_t)maxcnt * sizeof *count), i, rc = BE_OK;
    uint64_t state = seed;

    *lo = *hi = 0.0;
    if (!tb || !to || !val || !count) {
        rc = err_set(e, BE_EFAIL, "out of memory for %d bootstrap resamples", boot);
        goto fail;
    }
    for (i = 0; i < boot; i++) {
        fit_model mb, mo;
        resample_series(sb, tb, count, &state);
        resample_series(so, to, count, &state);
        fit_line(sb->f, tb, sb->w, sb->n, &mb);
        fit_line(so->f, to, so->w, so->n, &mo);
        if (mb.ok)
            scale_model(&mb, kb);
        if (mo.ok)
            scale_model(&mo, ko);
        val[i] = meet_value(&mb, &mo);
    }
    qsort(val, (size_t)boot, sizeof *val, fit_cmp_double);
    *hi = stats_quantile(val, boot, 0.975);
    *lo = stats_quantile(val, boot, 0.025);
    if (!isfinite(*hi))
        *lo = *hi = 0.0;
fail:
    free(tb);
    free(to);
    free(val);
    free(count);
    return rc;
}

/* ---- the crossover ------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The hidden widths either device has points at in this mode (any status:
 * a width that is all out of memory shows up as unknown), ascending. */
static int hidden_widths(const results *r, const char *b, const char *o, wl_mode mode,
                         int *out)
{
    int i, j, n = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != mode || (strcmp(p->device, b) != 0 && strcmp(p->device, o) != 0))
            continue;
        for (j = 0; j < n && out[j] != p->hidden; j++)
            ;
        if (j == n && n < LIST_MAX)
            out[n++] = p->hidden;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

/* The crossover batch at one hidden width from the measured ratio
 * other/base (times the price ratio for cost) at the batches both devices
 * measured.  The batch from which the other device stays ahead is found
 * after the last batch where it is not ahead, by interpolating log(ratio)
 * linearly in log(batch) to ratio 1.  Not ahead at the largest batch:
 * never (in the measured range); ahead at every batch: always. */
static void hidden_cross(const results *r, const fit_series *sb, const fit_series *so,
                         double k, wl_mode mode, int hidden, fit_hidden_cross *h)
{
    int batch[LIST_MAX], m = 0, i, j, last = -1;
    double ratio[LIST_MAX], x;

    memset(h, 0, sizeof *h);
    h->hidden = hidden;
    h->kind = CROSS_UNKNOWN;
    for (i = 0; i < sb->n; i++) {
        const rs_point *pb = &r->points[sb->idx[i]];
        if (pb->hidden != hidden)
            continue;
        for (j = 0; j < so->n; j++) {
            const rs_point *po = &r->points[so->idx[j]];
            if (po->hidden == hidden && po->batch == pb->batch)
                break;
        }
        if (j == so->n || m == LIST_MAX)
            continue;
        batch[m] = pb->batch;
        ratio[m] = k * so->t[j] / sb->t[i];
        m++;
    }
    /* insertion sort by batch: at most LIST_MAX entries */
    for (i = 1; i < m; i++)
        for (j = i; j > 0 && batch[j - 1] > batch[j]; j--) {
            int bt = batch[j];
            double rt = ratio[j];
            batch[j] = batch[j - 1];
            ratio[j] = ratio[j - 1];
            batch[j - 1] = bt;
            ratio[j - 1] = rt;
        }
    if (m == 0)
        return;
    for (i = 0; i < m; i++)
        if (ratio[i] >= 1.0)
            last = i;
    if (last < 0) {
        h->kind = CROSS_ALWAYS;
        return;
    }
    if (last == m - 1) {
        h->kind = CROSS_NEVER;
        return;
    }
    x = log(ratio[last]) / (log(ratio[last]) - log(ratio[last + 1]));
    h->kind = CROSS_IN_RANGE;
    h->batch = exp(log((double)batch[last]) +
                   x * (log((double)batch[last + 1]) - log((double)batch[last])));
    h->flops = q_flops_at(mode, hidden, h->batch);
}

int fit_crossover_fill(const results *r, const fit_model *bm, const fit_model *om,
                       const fit_series *sb, const fit_series *so, double kb, double ko,
                       uint64_t seed, int boot, fit_crossover *c, err *e)
{
    fit_model b = *bm, o = *om;
    double lo = fmax(bm->fmin, om->fmin), hi = fmin(bm->fmax, om->fmax);
    int widths[LIST_MAX], nw, i, rc;

    if (lo > hi) {
        lo = fmin(bm->fmin, om->fmin);
        hi = fmax(bm->fmax, om->fmax);
    }
    if (b.ok)
        scale_model(&b, kb);
    if (o.ok)
        scale_model(&o, ko);
    fit_meet(&b, &o, lo, hi, &c->kind, &c->flops);
    c->ci_lo = c->ci_hi = 0.0;
    if (c->kind == CROSS_IN_RANGE || c->kind == CROSS_EXTRAPOLATED)
        if ((rc = bootstrap(sb, so, kb, ko, seed, boot, &c->ci_lo, &c->ci_hi, e)) < 0)
            return rc;
    nw = hidden_widths(r, c->base, c->other, c->mode, widths);
    c->nhidden = nw;
    for (i = 0; i < nw; i++)
        hidden_cross(r, sb, so, ko / kb, c->mode, widths[i], &c->per_hidden[i]);
    fit_sentence(c, r, c->sentence, sizeof c->sentence);
    return BE_OK;
}
