/*
 * changes.c — steps in a series over runs (see changes.h).
 *
 * Binary segmentation proposes splits, each the E-divisive best of its
 * segment and accepted by the step test; then, as Hunter prunes, every
 * split is tested again between its neighbouring splits (the segments
 * that remain), the weakest failing one is dropped, and this repeats until
 * every split passes.  What is reported is each split's test against its
 * final neighbours, so the sizes describe the levels the reader sees.
 * A split at a recorded change keeps, through the pruning, the guard it
 * was accepted with: over the recorded changes of its segment.
 */
#include "changes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The series on the log scale: timing noise is multiplicative. */
typedef struct chg_log {
    const double *y;  /* log v                                 */
    const double *w;  /* log half-width of the run's interval  */
    const int *known; /* NULL, or the recorded changes (changes.h) */
    double *tmp;      /* scratch, as long as the series        */
    double noise;     /* the series' run-to-run SD, robustly   */
} chg_log;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of y[s..e). */
static double median(const chg_log *L, int s, int e)
{
    int k = e - s;
    memcpy(L->tmp, L->y + s, (size_t)k * sizeof *L->tmp);
    qsort(L->tmp, (size_t)k, sizeof *L->tmp, cmp_double);
    return stats_quantile(L->tmp, k, 0.5);
}

/* The split of y[s..e) (each side at least CHG_MIN_SIDE long) with the
 * largest E-divisive statistic (α = 1), or −1.  The sums of distances
 * within each side and across them are carried along as the split moves
 * right one value at a time, so a segment costs O(n²), not O(n³). */
static int best_split(const double *y, int s, int e)
{
    double left = 0.0, right = 0.0, across = 0.0, best = -INFINITY;
    int t, i, bt = -1;
    for (i = s; i < e; i++)
        for (t = i + 1; t < e; t++)
            right += fabs(y[i] - y[t]);
    for (t = s + 1; t <= e - CHG_MIN_SIDE; t++) {
        /* y[t − 1] moves from the right side to the left */
        double to_left = 0.0, to_right = 0.0, m = t - s, n = e - t, q;
        for (i = s; i < t - 1; i++)
            to_left += fabs(y[i] - y[t - 1]);
        for (i = t; i < e; i++)
            to_right += fabs(y[t - 1] - y[i]);
        left += to_left;
        right -= to_right;
        across += to_right - to_left;
        if (t - s < CHG_MIN_SIDE)
            continue;
        q = m * n / (m + n) *
            (2.0 * across / (m * n) - left / (m * (m - 1) / 2.0) - right / (n * (n - 1) / 2.0));
        if (q > best) {
            best = q;
            bt = t;
        }
    }
    return bt;
}

/* Mean and standard error of y[s..e) on the log scale, the error floored
 * by the runs' own intervals. */
static void level(const chg_log *L, int s, int e, double *mean, double *se)
{
    double k = e - s, sum = 0.0, ss = 0.0, ww = 0.0, sd;
    int i;
    for (i = s; i < e; i++)
        sum += L->y[i];
    *mean = sum / k;
    for (i = s; i < e; i++) {
        ss += (L->y[i] - *mean) * (L->y[i] - *mean);
        ww += L->w[i] * L->w[i];
    }
    sd = k > 1 ? sqrt(ss / (k - 1)) : 0.0;
    *se = fmax(fmax(sd, L->noise), sqrt(ww / k) / 1.959964) / sqrt(k);
}

/* The run-to-run SD of the whole series, robust to its steps: from the
 * differences of consecutive runs, of which a step moves only one (the
 * MAD, scaled to an SD, over √2 since a difference holds two runs'
 * noise). */
static double series_noise(const chg_log *L, int n)
{
    double med;
    int i;
    if (n < 3)
        return 0.0;
    for (i = 0; i + 1 < n; i++)
        L->tmp[i] = L->y[i + 1] - L->y[i];
    qsort(L->tmp, (size_t)(n - 1), sizeof *L->tmp, cmp_double);
    med = stats_quantile(L->tmp, n - 1, 0.5);
    for (i = 0; i + 1 < n; i++)
        L->tmp[i] = fabs(L->tmp[i] - med);
    qsort(L->tmp, (size_t)(n - 1), sizeof *L->tmp, cmp_double);
    return 1.482602 * stats_quantile(L->tmp, n - 1, 0.5) / sqrt(2.0);
}

/* The splits of [s, e) one may test: each side at least CHG_MIN_SIDE. */
static int first_split(int s)
{
    return s + CHG_MIN_SIDE;
}

static int last_split(int e)
{
    return e - CHG_MIN_SIDE;
}

/* How many recorded changes [s, e) offers as splits. */
static int known_in(const chg_log *L, int s, int e)
{
    int i, k = 0;
    for (i = first_split(s); L->known && i <= last_split(e); i++)
        k += L->known[i] != 0;
    return k;
}

/* The sum of squares of y[s..e) about the means of its two sides split
 * at t. */
static double split_sse(const chg_log *L, int s, int t, int e)
{
    double ss = 0.0, m;
    int i, side;
    for (side = 0; side < 2; side++) {
        int a = side ? t : s, b = side ? e : t;
        m = 0.0;
        for (i = a; i < b; i++)
            m += L->y[i] / (b - a);
        for (i = a; i < b; i++)
            ss += (L->y[i] - m) * (L->y[i] - m);
    }
    return ss;
}

/* Where the data alone may put the step of [s, e) that is tested at t:
 * the splits whose sum of squares is within χ²₁(95%) noise variances of
 * the least (Hinkley's likelihood set), the noise the larger of the
 * series' and what the best two-level fit leaves; [*lo, *hi] spans them
 * and t. */
static void place(const chg_log *L, int s, int t, int e, int *lo, int *hi)
{
    double least = INFINITY, sd, lim;
    int u;
    for (u = first_split(s); u <= last_split(e); u++)
        least = fmin(least, split_sse(L, s, u, e));
    sd = fmax(L->noise, sqrt(least / (e - s - 2)));
    lim = least + 3.841459 * sd * sd;
    *lo = *hi = t;
    for (u = first_split(s); u <= last_split(e); u++)
        if (split_sse(L, s, u, e) <= lim) {
            *lo = u < *lo ? u : *lo;
            *hi = u > *hi ? u : *hi;
        }
}

/* The step test of y[s..t) against y[t..e): fills st and returns |t| of
 * the step when it is significant and beyond CHG_NOISE, else 0.  The
 * levels are the sides' medians, so that a lone outlier beside a step
 * does not change its size; the width is Student's, from the means'
 * standard errors (which the outlier widens).  The split was one of
 * ntests the segment was searched for (all its splits, or its recorded
 * changes), so it must pass at 5% over all of them (Bonferroni): the
 * interval reported stays the 95% one. */
static double step_test(const chg_log *L, int s, int t, int e, int ntests, chg_step *st)
{
    double ma, sa, mb, sb, d, se, q, qs;
    level(L, s, t, &ma, &sa);
    level(L, t, e, &mb, &sb);
    ma = median(L, s, t);
    mb = median(L, t, e);
    d = mb - ma;
    se = sqrt(sa * sa + sb * sb);
    q = stats_t975(e - s - 2);
    st->at = st->at_lo = st->at_hi = t;
    st->known = L->known && L->known[t];
    st->nbefore = t - s;
    st->nafter = e - t;
    st->before = exp(ma);
    st->after = exp(mb);
    st->ratio = exp(d);
    st->ratio_lo = exp(d - q * se);
    st->ratio_hi = exp(d + q * se);
    if (fabs(st->ratio - 1.0) <= CHG_NOISE)
        return 0.0;
    /* the quantile by bisection only for a step that could count */
    qs = ntests > 1 ? stats_t_quantile(1.0 - 0.025 / ntests, e - s - 2) : q;
    if (fabs(d) <= qs * se)
        return 0.0;
    return se > 0.0 ? fabs(d) / se : INFINITY;
}

/* The guard of a split of [s, e) at t: over the segment's recorded
 * changes when t is one, else over all its splits. */
static int tests_for(const chg_log *L, int s, int t, int e)
{
    return L->known && L->known[t] ? known_in(L, s, e) : last_split(e) - first_split(s) + 1;
}

/* The recorded change of [lo, hi] nearest t (the earlier of two as near),
 * or −1. */
static int known_near(const chg_log *L, int t, int lo, int hi)
{
    int d;
    for (d = 0; L->known && (t - d >= lo || t + d <= hi); d++) {
        if (t - d >= lo && L->known[t - d])
            return t - d;
        if (t + d <= hi && L->known[t + d])
            return t + d;
    }
    return -1;
}

/* Binary segmentation of [s, e): the accepted splits into at[], sorted
 * later.  The E-divisive best split proposes; a recorded change where the
 * data may put it is tested first (changes.h, step 3). */
static void segment(const chg_log *L, int s, int e, int *at, int *n, int max)
{
    int bt, lo, hi, h;
    chg_step st;
    if (e - s < 2 * CHG_MIN_SIDE || *n >= max)
        return;
    if ((bt = best_split(L->y, s, e)) < 0)
        return;
    place(L, s, bt, e, &lo, &hi);
    h = known_near(L, bt, lo, hi);
    if (h >= 0 && step_test(L, s, h, e, tests_for(L, s, h, e), &st) > 0.0)
        bt = h;
    else if (step_test(L, s, bt, e, tests_for(L, s, bt, e), &st) <= 0.0)
        return;
    at[(*n)++] = bt;
    segment(L, s, bt, at, n, max);
    segment(L, bt, e, at, n, max);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int changes_find(const chg_value *x, const int *known, int n, chg_step *out, int max, int *nout,
                 err *e)
{
    double *y = NULL, *w = NULL, *tmp = NULL;
    int *at = NULL, na = 0, i, rc = BE_OK;
    chg_log L;

    *nout = 0;
    for (i = 0; i < n; i++)
        if (!(x[i].lo > 0.0 && x[i].lo <= x[i].v && x[i].v <= x[i].hi && isfinite(x[i].hi)))
            return err_set(e, BE_EUSAGE, "changes: value %d is not 0 < lo <= v <= hi", i);
    if (n < 2 * CHG_MIN_SIDE || max <= 0)
        return BE_OK;
    y = malloc((size_t)n * sizeof *y);
    w = malloc((size_t)n * sizeof *w);
    at = malloc((size_t)n * sizeof *at);
    tmp = malloc((size_t)n * sizeof *tmp);
    if (!y || !w || !at || !tmp) {
        rc = err_set(e, BE_EFAIL, "out of memory");
        goto fail;
    }
    for (i = 0; i < n; i++) {
        y[i] = log(x[i].v);
        w[i] = (log(x[i].hi) - log(x[i].lo)) / 2.0;
    }
    L.y = y;
    L.w = w;
    L.tmp = tmp;
    L.known = known;
    L.noise = series_noise(&L, n);
    segment(&L, 0, n, at, &na, n);
    qsort(at, (size_t)na, sizeof *at, cmp_int);
    /* prune: each split against its neighbours, the weakest failing one
     * dropped, until all pass */
    for (;;) {
        double weakest = INFINITY;
        int drop = -1;
        for (i = 0; i < na; i++) {
            chg_step st;
            int s = i ? at[i - 1] : 0, t = i + 1 < na ? at[i + 1] : n;
            double q = step_test(&L, s, at[i], t, tests_for(&L, s, at[i], t), &st);
            if (q <= 0.0 && (drop < 0 || fabs(log(st.ratio)) < weakest)) {
                weakest = fabs(log(st.ratio));
                drop = i;
            }
        }
        if (drop < 0)
            break;
        memmove(at + drop, at + drop + 1, (size_t)(na - drop - 1) * sizeof *at);
        na--;
    }
    for (i = 0; i < na && *nout < max; i++) {
        chg_step *st = &out[(*nout)++];
        int s = i ? at[i - 1] : 0, t = i + 1 < na ? at[i + 1] : n;
        step_test(&L, s, at[i], t, 0, st);
        place(&L, s, at[i], t, &st->at_lo, &st->at_hi);
    }
fail:
    free(y);
    free(w);
    free(at);
    free(tmp);
    return rc;
}
