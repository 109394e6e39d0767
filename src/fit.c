/*
 * fit.c — from measured points to "the GPU wins above N FLOP per layer"
 * (see fit.h).
 *
 * The sweep and the results model stop at medians with confidence
 * intervals; this module turns them into the answer breakeven exists for.
 * Each device × mode × view gets the two-parameter model t(f) = t0 + f/P,
 * fitted by weighted least squares.  Times span about five decades (a few
 * microseconds at hidden 128, batch 16, to seconds at hidden 2048, batch
 * 1024), so an unweighted fit would only listen to the largest points; the
 * weights make every residual count relative to the point's own time and
 * its measured spread (see point_weight).  Two fitted lines meet at most
 * once, which gives the crossover; its uncertainty comes from a bootstrap
 * over the stored samples (resample, take medians, refit, meet again), so
 * it needs no assumption about the shape of the timing distributions.  The
 * per-hidden crossover batches come straight from the measured speed ratio
 * and serve as the model-free cross-check of the fit, and as the place
 * where fit_suggest asks the next run to measure.  Cost is time scaled by
 * a price, so cost crossovers reuse the same machinery with a scale factor
 * per device.  Nothing here prints, allocates beyond the fit_set it fills,
 * or guesses: a crossover that cannot be computed says so in words.
 */
#define _POSIX_C_SOURCE 200809L
#include "fit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* The sentence lists at most this many hidden widths. */
#define SENTENCE_WIDTHS 3

const char *fit_view_name(fit_view v)
{
    return v == FIT_TRANSFER ? "transfer" : "resident";
}

const char *fit_cross_kind_name(cross_kind k)
{
    static const char *names[] = {"in-range", "extrapolated", "never", "always", "unknown"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* ---- prices ------------------------------------------------------------ */

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

int fit_price_parse(fit_prices *p, const char *text, err *e)
{
    const char *eq = strchr(text, '='), *start, *end, *num;
    char *stop;
    double v;
    size_t len;
    int i;

    if (!eq)
        return err_set(e, BE_EUSAGE, "price \"%s\" is not DEVICE=USD_PER_HOUR", text);
    start = skip_space(text);
    end = eq;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    len = (size_t)(end - start);
    if (len == 0)
        return err_set(e, BE_EUSAGE, "price \"%s\" names no device", text);
    if (len >= sizeof p->device[0])
        return err_set(e, BE_EUSAGE, "price \"%s\": the device id is longer than %zu characters",
                       text, sizeof p->device[0] - 1);
    num = skip_space(eq + 1);
    if (!*num)
        return err_set(e, BE_EUSAGE, "price \"%s\" gives no USD per hour", text);
    errno = 0;
    v = strtod(num, &stop);
    if (stop == num || *skip_space(stop) || errno == ERANGE)
        return err_set(e, BE_EUSAGE, "price \"%s\": \"%s\" is not a number of USD per hour", text, num);
    if (!isfinite(v) || v <= 0.0)
        return err_set(e, BE_EUSAGE, "price \"%s\": USD per hour must be a positive number", text);
    for (i = 0; i < p->n; i++)
        if (strlen(p->device[i]) == len && strncmp(p->device[i], start, len) == 0)
            break;
    if (i == p->n) {
        if (p->n == FIT_MAX_PRICES)
            return err_set(e, BE_EUSAGE, "price \"%s\": more than %d devices priced", text,
                           FIT_MAX_PRICES);
        memcpy(p->device[i], start, len);
        p->device[i][len] = '\0';
        p->n++;
    }
    p->usd_per_hour[i] = v;
    return BE_OK;
}

/* Reads into a copy so that a file with a bad line leaves p untouched. */
int fit_prices_load(fit_prices *p, const char *path, err *e)
{
    fit_prices tmp = *p;
    char line[512], item[512];
    FILE *fp = fopen(path, "r");
    int lineno = 0, rc = BE_OK;

    if (!fp)
        return err_set(e, BE_EFAIL, "%s: %s", path, strerror(errno));
    while (fgets(line, sizeof line, fp)) {
        char *hash, *s, *last;
        lineno++;
        if (!strchr(line, '\n') && !feof(fp)) {
            rc = err_set(e, BE_EUSAGE, "%s:%d: line longer than %zu characters", path, lineno,
                         sizeof line - 2);
            goto fail;
        }
        if ((hash = strchr(line, '#')))
            *hash = '\0';
        s = (char *)skip_space(line);
        last = s + strlen(s);
        while (last > s && isspace((unsigned char)last[-1]))
            *--last = '\0';
        if (!*s)
            continue;
        if (strchr(s, '=')) {
            snprintf(item, sizeof item, "%s", s);
        } else {
            /* "DEVICE USD": exactly two words */
            char *dev = s, *val = s;
            while (*val && !isspace((unsigned char)*val))
                val++;
            if (*val)
                *val++ = '\0';
            val = (char *)skip_space(val);
            if (!*val || strpbrk(val, " \t")) {
                rc = err_set(e, BE_EUSAGE, "%s:%d: expected \"DEVICE USD_PER_HOUR\" or "
                             "\"DEVICE=USD_PER_HOUR\"", path, lineno);
                goto fail;
            }
            snprintf(item, sizeof item, "%s=%s", dev, val);
        }
        if ((rc = fit_price_parse(&tmp, item, e)) < 0) {
            err_prefix(e, rc, "%s:%d", path, lineno);
            goto fail;
        }
    }
    if (ferror(fp)) {
        rc = err_set(e, BE_EFAIL, "%s: read error", path);
        goto fail;
    }
    *p = tmp;
fail:
    fclose(fp);
    return rc;
}

double fit_price(const fit_prices *p, const char *id)
{
    int i;
    if (!p)
        return -1.0;
    for (i = 0; i < p->n; i++)
        if (strcmp(p->device[i], id) == 0)
            return p->usd_per_hour[i];
    return -1.0;
}

/* ---- the weighted line --------------------------------------------------- */

/* Returns 0 when m was fitted (m->ok = 1), BE_EFAIL with m->why otherwise.
 * Standard errors treat the weights as relative: the covariance is scaled
 * by the reduced χ² (n > 2), because the scatter about the model (memory
 * effects, clock changes) is usually larger than the samples' own spread.
 * With exactly two points the line has no scatter to learn from; then the
 * weights are taken as absolute (1/σ²), and with no weights the errors are
 * left at 0. */
int fit_line(const double *f, const double *t, const double *w, int n, fit_model *m)
{
    double sw = 0.0, sf = 0.0, st = 0.0, fbar, tbar, sff = 0.0, sft = 0.0;
    double a, b, chi2 = 0.0, rel2 = 0.0, scale;
    int i;

    m->ok = 0;
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
    scale = n > 2 ? chi2 / (n - 2) : w ? 1.0 : 0.0;
    m->ok = 1;
    m->t0 = a;
    m->P = 1.0 / b;
    m->t0_err = sqrt(scale * (1.0 / sw + fbar * fbar / sff));
    m->P_err = sqrt(scale / sff) / (b * b);
    m->half_size = m->t0 * m->P;
    m->rms_rel = sqrt(rel2 / n);
    return BE_OK;
}

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

/* ---- the points of one model ------------------------------------------------ */

/* The usable points of one device × mode × view, with what the fit and
 * the bootstrap need.  Owned by whoever called series_collect. */
typedef struct series {
    int n;
    int *idx;          /* indexes into r->points                          */
    double *f, *t, *w; /* FLOPs per layer, median time per layer, weight  */
    int *off, *cnt;    /* each point's samples in vals (with samples only) */
    double *vals;      /* per-layer sample times, sorted within each point */
    int maxcnt;
} series;

static void series_free(series *s)
{
    free(s->idx);
    free(s->f);
    free(s->t);
    free(s->w);
    free(s->off);
    free(s->cnt);
    free(s->vals);
    memset(s, 0, sizeof *s);
}

static const stats_summary *view_summary(const rs_point *p, fit_view v)
{
    return v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

static double sample_of(const step_times *st, fit_view v)
{
    return v == FIT_TRANSFER ? st->total : st->wall;
}

static int usable(const rs_point *p, const char *id, wl_mode mode, fit_view v)
{
    const stats_summary *s = view_summary(p, v);
    return strcmp(p->device, id) == 0 && p->mode == mode && p->status == PT_OK &&
           (v == FIT_RESIDENT || p->has_transfer) && p->nsamples > 0 && p->samples &&
           s->n > 0 && s->median > 0.0 && p->layers > 0 && p->flops_per_layer > 0.0;
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int series_collect(const results *r, const char *id, wl_mode mode, fit_view v,
                          int with_samples, series *s, err *e)
{
    int i, n = 0, total = 0;

    memset(s, 0, sizeof *s);
    for (i = 0; i < r->npoints; i++)
        if (usable(&r->points[i], id, mode, v)) {
            n++;
            total += r->points[i].nsamples;
        }
    if (n == 0)
        return BE_OK;
    s->idx = malloc((size_t)n * sizeof *s->idx);
    s->f = malloc((size_t)n * sizeof *s->f);
    s->t = malloc((size_t)n * sizeof *s->t);
    s->w = malloc((size_t)n * sizeof *s->w);
    if (!s->idx || !s->f || !s->t || !s->w)
        goto oom;
    if (with_samples) {
        s->off = malloc((size_t)n * sizeof *s->off);
        s->cnt = malloc((size_t)n * sizeof *s->cnt);
        s->vals = malloc((size_t)total * sizeof *s->vals);
        if (!s->off || !s->cnt || !s->vals)
            goto oom;
    }
    total = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int k = s->n, j;
        if (!usable(p, id, mode, v))
            continue;
        s->idx[k] = i;
        s->f[k] = p->flops_per_layer;
        s->t[k] = view_summary(p, v)->median / p->layers;
        s->w[k] = point_weight(p, v);
        if (with_samples) {
            s->off[k] = total;
            s->cnt[k] = p->nsamples;
            for (j = 0; j < p->nsamples; j++)
                s->vals[total + j] = sample_of(&p->samples[j], v) / p->layers;
            qsort(s->vals + total, (size_t)p->nsamples, sizeof *s->vals, cmp_double);
            total += p->nsamples;
            if (p->nsamples > s->maxcnt)
                s->maxcnt = p->nsamples;
        }
        s->n++;
    }
    return BE_OK;
oom:
    series_free(s);
    return err_set(e, BE_EFAIL, "out of memory collecting the points of %s", id);
}

/* Counts a device's points in one mode by status, for the "why" texts. */
static void status_counts(const results *r, const char *id, wl_mode mode, int count[4])
{
    int i;
    memset(count, 0, 4 * sizeof *count);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (strcmp(p->device, id) == 0 && p->mode == mode && (unsigned)p->status < 4)
            count[p->status]++;
    }
}

static void describe_unusable(const results *r, const char *id, wl_mode mode, fit_view v,
                              int nusable, char *buf, size_t size)
{
    static const char *what[4] = {"ok", "out of memory", "failed verification", "skipped"};
    int c[4], total, i, k = 0;
    status_counts(r, id, mode, c);
    total = c[0] + c[1] + c[2] + c[3];
    snprintf(buf, size, "%d of %d %s point%s usable for the %s view", nusable, total,
             workload_mode_name(mode), total == 1 ? "" : "s", fit_view_name(v));
    for (i = PT_OUT_OF_MEMORY; i <= PT_SKIPPED; i++)
        if (c[i]) {
            size_t len = strlen(buf);
            snprintf(buf + len, size - len, "%s%d %s", k++ ? ", " : " (", c[i], what[i]);
        }
    if (k) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, ")");
    }
}

/* Fits one model from its series and flags outliers: a point is an outlier
 * when its relative residual exceeds OUTLIER_K times the RMS relative
 * residual of the other points (leaving it out, so that one bad point
 * cannot hide behind the RMS it inflates) and OUTLIER_MIN.  The outliers
 * stay in the fit: they are reported, not silently dropped. */
static void model_fit(const results *r, const char *id, wl_mode mode, fit_view v,
                      const series *s, fit_model *m)
{
    double sum2 = 0.0, *rel = NULL;
    int i;

    if (fit_line(s->f, s->t, s->w, s->n, m) < 0 && s->n < 2)
        describe_unusable(r, id, mode, v, s->n, m->why, sizeof m->why);
    snprintf(m->device, sizeof m->device, "%s", id);
    m->mode = mode;
    m->view = v;
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

/* ---- the crossover ------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n < 2³², by multiply-shift of the top 32 bits. */
static int rand_below(uint64_t *state, int n)
{
    return (int)(((splitmix64(state) >> 32) * (uint64_t)n) >> 32);
}

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
        count[rand_below(state, n)]++;
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

static void resample_series(const series *s, double *t, int *count, uint64_t *state)
{
    int i;
    for (i = 0; i < s->n; i++)
        t[i] = resample_median(s->vals + s->off[i], s->cnt[i], count, state);
}

/* The percentile 95% CI of the meeting point over boot resamples; both
 * ends 0 when the upper end is unbounded (2.5% or more of the replicates
 * never meet). */
static int bootstrap(const series *sb, const series *so, double kb, double ko, uint64_t seed,
                     int boot, double *lo, double *hi, err *e)
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
    qsort(val, (size_t)boot, sizeof *val, cmp_double);
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

/* The FLOPs per layer are linear in the batch at a fixed hidden width. */
static double flops_at(wl_mode mode, int hidden, double batch)
{
    double f0 = workload_flops_per_layer(mode, hidden, 0);
    return f0 + batch * (workload_flops_per_layer(mode, hidden, 1) - f0);
}

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
static void hidden_cross(const results *r, const series *sb, const series *so, double k,
                         wl_mode mode, int hidden, fit_hidden_cross *h)
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
    h->flops = flops_at(mode, hidden, h->batch);
}

/* Fills c (devices, mode, view and cost set by the caller). */
static int crossover(const results *r, const fit_model *bm, const fit_model *om,
                     const series *sb, const series *so, double kb, double ko, uint64_t seed,
                     int boot, fit_crossover *c, err *e)
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

/* ---- the run ------------------------------------------------------------------ */

static int has_mode(const results *r, const char *id, wl_mode mode)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == mode && strcmp(r->points[i].device, id) == 0)
            return 1;
    return 0;
}

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

const fit_model *fit_find_model(const fit_set *s, const char *id, wl_mode mode, fit_view v)
{
    int i;
    for (i = 0; i < s->nmodels; i++)
        if (s->models[i].mode == mode && s->models[i].view == v &&
            strcmp(s->models[i].device, id) == 0)
            return &s->models[i];
    return NULL;
}

void fit_set_free(fit_set *s)
{
    if (!s)
        return;
    free(s->models);
    free(s->cross);
    memset(s, 0, sizeof *s);
}

static int base_index(const results *r)
{
    int i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].kind, "openblas") == 0)
            return i;
    return 0;
}

/* The base model compared with another device's view: the base's own
 * view when it has one, else its resident times (a CPU computes where its
 * data already lives, so its resident time is what a transfer-inclusive
 * GPU time competes with). */
static const fit_model *base_model(const fit_set *s, const char *id, wl_mode mode, fit_view v)
{
    const fit_model *m = fit_find_model(s, id, mode, v);
    return m ? m : fit_find_model(s, id, mode, FIT_RESIDENT);
}

int fit_run(const results *r, const fit_prices *prices, uint64_t seed, int boot,
            fit_set *out, err *e)
{
    int d, mode, v, b, rc = BE_OK, maxcross;
    series sb, so;

    memset(out, 0, sizeof *out);
    memset(&sb, 0, sizeof sb);
    memset(&so, 0, sizeof so);
    if (boot <= 0)
        boot = 1000;
    if (r->ndevices == 0)
        return BE_OK;
    out->models = calloc((size_t)r->ndevices * 4, sizeof *out->models);
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
                if (!has_mode(r, id, (wl_mode)mode) ||
                    (v == FIT_TRANSFER && !has_transfer_view(r, id)))
                    continue;
                if ((rc = series_collect(r, id, (wl_mode)mode, (fit_view)v, 0, &sb, e)) < 0)
                    goto fail;
                model_fit(r, id, (wl_mode)mode, (fit_view)v, &sb, &out->models[out->nmodels++]);
                series_free(&sb);
            }

    b = base_index(r);
    for (d = 0; d < r->ndevices; d++) {
        const char *bid = r->devices[b].id, *oid = r->devices[d].id;
        double pb = fit_price(prices, bid), po = fit_price(prices, oid);
        if (d == b)
            continue;
        for (mode = WL_INFERENCE; mode <= WL_TRAINING; mode++)
            for (v = FIT_RESIDENT; v <= FIT_TRANSFER; v++) {
                const fit_model *om = fit_find_model(out, oid, (wl_mode)mode, (fit_view)v);
                const fit_model *bm = base_model(out, bid, (wl_mode)mode, (fit_view)v);
                int cost;
                if (!om || !bm)
                    continue;
                if ((rc = series_collect(r, bid, (wl_mode)mode, bm->view, 1, &sb, e)) < 0 ||
                    (rc = series_collect(r, oid, (wl_mode)mode, (fit_view)v, 1, &so, e)) < 0)
                    goto fail;
                for (cost = 0; cost <= (pb > 0.0 && po > 0.0); cost++) {
                    fit_crossover *c = &out->cross[out->ncross];
                    /* a stream per crossover: the same seed gives the same CI
                     * whatever else the run contains */
                    uint64_t s = seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(d * 8 + mode * 4 + v * 2 + cost + 1));
                    snprintf(c->base, sizeof c->base, "%s", bid);
                    snprintf(c->other, sizeof c->other, "%s", oid);
                    c->mode = (wl_mode)mode;
                    c->view = (fit_view)v;
                    c->cost = cost;
                    if ((rc = crossover(r, bm, om, &sb, &so, cost ? pb / 3600.0 : 1.0,
                                        cost ? po / 3600.0 : 1.0, s, boot, c, e)) < 0)
                        goto fail;
                    out->ncross++;
                }
                series_free(&sb);
                series_free(&so);
            }
    }
    return BE_OK;
fail:
    series_free(&sb);
    series_free(&so);
    fit_set_free(out);
    return rc;
}

/* ---- words ------------------------------------------------------------------ */

static void cat(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    if (len + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* The SI prefix for v (v ≥ 0): "" k M G T P E, and the divisor. */
static const char *si_prefix(double v, double *div)
{
    static const char *pre[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    *div = 1.0;
    while (i < 6 && v >= 999.5 * *div) {
        *div *= 1000.0;
        i++;
    }
    return pre[i];
}

/* digits significant digits, but whole numbers from 10^digits on: with 2,
 * "96", "1.2", "120". */
static void num(char *buf, size_t size, double v, int digits)
{
    if (fabs(v) >= pow(10.0, digits) - 0.5)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.*g", digits, v);
}

/* "96 MFLOP" */
static void flop_text(char *buf, size_t size, double v)
{
    double div;
    const char *p = si_prefix(v, &div);
    char n[32];
    num(n, sizeof n, v / div, 2);
    snprintf(buf, size, "%s %sFLOP", n, p);
}

/* "80–120 M": both ends with the prefix of the upper one, and as many
 * digits (up to 4) as it takes for a narrow interval not to read "42–42". */
static void range_text(char *buf, size_t size, double lo, double hi)
{
    double div;
    const char *p = si_prefix(hi, &div);
    char a[32], b[32];
    int digits = 2;
    do {
        num(a, sizeof a, lo / div, digits);
        num(b, sizeof b, hi / div, digits);
    } while (strcmp(a, b) == 0 && ++digits <= 4);
    snprintf(buf, size, "%s\u2013%s %s", a, b, p);
}

/* "the OpenCL device cl:0.0 (CPU: pthread-haswell-AMD EPYC)": the kind of
 * backend, the id, and the type and name the device reports — never a
 * guess at what it is. */
static void device_text(const results *r, const char *id, char *buf, size_t size)
{
    const device_info *d = r ? results_device(r, id) : NULL;
    const char *kind;
    if (!d) {
        snprintf(buf, size, "the device %s", id);
        return;
    }
    kind = strcmp(d->kind, "opencl") == 0 ? "OpenCL" : strcmp(d->kind, "openblas") == 0 ? "OpenBLAS" : d->kind;
    if (d->type[0])
        snprintf(buf, size, "the %s device %s (%s: %s)", kind, id, d->type, d->name);
    else
        snprintf(buf, size, "the %s device %s (%s)", kind, id, d->name);
}

/* "from batch 24 at hidden 2048, batch 96 at hidden 1024 and batch 380 at
 * hidden 512": the in-range per-hidden crossovers, widest first.  The
 * batch is rounded up: the first whole batch at which the other device is
 * ahead.  Returns how many widths it names. */
static int hidden_text(const fit_crossover *c, char *buf, size_t size)
{
    int pick[SENTENCE_WIDTHS], i, k = 0;
    buf[0] = '\0';
    for (i = c->nhidden - 1; i >= 0 && k < SENTENCE_WIDTHS; i--)
        if (c->per_hidden[i].kind == CROSS_IN_RANGE)
            pick[k++] = i;
    for (i = 0; i < k; i++) {
        const fit_hidden_cross *h = &c->per_hidden[pick[i]];
        cat(buf, size, "%sbatch %.0f at hidden %d", i == 0 ? "from " : i == k - 1 ? " and " : ", ",
            ceil(h->batch - 1e-9), h->hidden);
    }
    return k;
}

/* How many usable points a device has, for the unknown case. */
static void unknown_text(const fit_crossover *c, const results *r, char *buf, size_t size)
{
    const char *ids[2] = {c->base, c->other};
    int i, k = 0;
    buf[0] = '\0';
    if (!r)
        return;
    for (i = 0; i < 2; i++) {
        fit_view v = c->view;
        int j, n = 0;
        char what[256];
        if (i == 0 && v == FIT_TRANSFER) {
            for (j = 0; j < r->npoints; j++)
                if (usable(&r->points[j], ids[i], c->mode, FIT_TRANSFER))
                    break;
            if (j == r->npoints)
                v = FIT_RESIDENT;
        }
        for (j = 0; j < r->npoints; j++)
            n += usable(&r->points[j], ids[i], c->mode, v);
        if (n >= 2)
            continue;
        describe_unusable(r, ids[i], c->mode, v, n, what, sizeof what);
        cat(buf, size, "%s%s has %s", k ? "; " : "", ids[i], what);
        k++;
    }
    if (!k)
        snprintf(buf, size, "the times do not follow t0 + f/P for %s or %s", c->base, c->other);
}

void fit_sentence(const fit_crossover *c, const results *r, char *buf, size_t size)
{
    char other[320], base[320], at[64], ci[64], widths[160], why[400];
    const char *verb = c->cost ? "starts costing less per step than" : "starts winning over";
    const char *ahead = c->cost ? "cheaper per step than" : "faster than";
    int nw;

    if (!size)
        return;
    buf[0] = '\0';
    device_text(r, c->other, other, sizeof other);
    device_text(r, c->base, base, sizeof base);
    flop_text(at, sizeof at, c->flops);
    if (c->ci_hi > 0.0) {
        char range[48];
        range_text(range, sizeof range, c->ci_lo, c->ci_hi);
        snprintf(ci, sizeof ci, "95%% CI %s", range);
    } else {
        snprintf(ci, sizeof ci, "no bounded 95%% CI");
    }
    nw = hidden_text(c, widths, sizeof widths);
    cat(buf, size, "In %s with %s, ", workload_mode_name(c->mode),
        c->view == FIT_TRANSFER ? "transfers counted" : "data resident");
    switch (c->kind) {
    case CROSS_IN_RANGE:
        cat(buf, size, "%s %s %s at about %s per layer (%s)", other, verb, base, at, ci);
        if (nw)
            cat(buf, size, ", i.e. %s", widths);
        cat(buf, size, ".");
        break;
    case CROSS_EXTRAPOLATED:
        cat(buf, size, "%s is not %s %s anywhere in the measured range, but the fit predicts "
            "it would be from about %s per layer (%s), an extrapolation", other, ahead, base, at, ci);
        if (nw)
            cat(buf, size, "; measured directly, it is ahead %s", widths);
        cat(buf, size, ".");
        break;
    case CROSS_NEVER:
        cat(buf, size, "%s never %s %s: its fitted %s is not higher", other,
            c->cost ? "becomes cheaper per step than" : "overtakes", base,
            c->cost ? "throughput per dollar" : "throughput");
        if (c->flops > 0.0)
            cat(buf, size, " (by the fit it is ahead only below about %s per layer)", at);
        if (nw)
            cat(buf, size, "; measured directly, it is ahead %s", widths);
        cat(buf, size, ".");
        break;
    case CROSS_ALWAYS:
        cat(buf, size, "%s is %s %s at every size measured.", other, ahead, base);
        break;
    default:
        unknown_text(c, r, why, sizeof why);
        cat(buf, size, "whether %s is %s %s cannot be told: %s.", other, ahead, base, why);
        break;
    }
}

/* ---- refinement ---------------------------------------------------------------- */

static int measured(const results *r, const fit_crossover *c, int hidden, int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == c->mode && p->hidden == hidden && p->batch == batch &&
            (strcmp(p->device, c->base) == 0 || strcmp(p->device, c->other) == 0))
            return 1;
    }
    return 0;
}

/* The batches both devices measured at this width (status ok), bracketing
 * target: *lo the largest below, *hi the smallest above (0 when none). */
static void bracket(const results *r, const fit_crossover *c, int hidden, double target,
                    int *lo, int *hi)
{
    int i, j;
    *lo = *hi = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != c->mode || p->hidden != hidden || p->status != PT_OK ||
            strcmp(p->device, c->base) != 0)
            continue;
        for (j = 0; j < r->npoints; j++) {
            const rs_point *q = &r->points[j];
            if (q->mode == c->mode && q->hidden == hidden && q->batch == p->batch &&
                q->status == PT_OK && strcmp(q->device, c->other) == 0)
                break;
        }
        if (j == r->npoints)
            continue;
        if (p->batch < target && p->batch > *lo)
            *lo = p->batch;
        if (p->batch > target && (*hi == 0 || p->batch < *hi))
            *hi = p->batch;
    }
}

/* The target at each width is the measured per-hidden crossover batch, or,
 * where the ratio did not cross, the batch at which the fitted crossover
 * FLOPs fall at that width.  The suggestion is the geometric midpoint of
 * the bracketing batches (batch sizes are swept in powers of two). */
int fit_suggest(const fit_set *s, const results *r, double rel, int *hidden, int *batch, int max)
{
    int i, j, k, n = 0;

    for (i = 0; i < s->ncross && n < max; i++) {
        const fit_crossover *c = &s->cross[i];
        if (c->kind != CROSS_IN_RANGE && c->kind != CROSS_EXTRAPOLATED)
            continue;
        if (c->ci_hi > 0.0 && (c->ci_hi - c->ci_lo) / 2.0 <= rel * c->flops)
            continue;
        for (j = 0; j < c->nhidden && n < max; j++) {
            const fit_hidden_cross *h = &c->per_hidden[j];
            double target, f0, f1;
            int lo, hi, cand;
            if (h->kind == CROSS_IN_RANGE) {
                target = h->batch;
            } else {
                f0 = flops_at(c->mode, h->hidden, 0.0);
                f1 = flops_at(c->mode, h->hidden, 1.0);
                target = (c->flops - f0) / (f1 - f0);
            }
            bracket(r, c, h->hidden, target, &lo, &hi);
            if (lo <= 0 || hi <= 0 || hi - lo < 2)
                continue;
            cand = (int)lround(sqrt((double)lo * hi));
            if (cand <= lo)
                cand = lo + 1;
            if (cand >= hi)
                cand = hi - 1;
            if (measured(r, c, h->hidden, cand))
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
