/*
 * stats.c — median-centred summaries of timing samples (see stats.h).
 *
 * The confidence interval of the median uses the exact binomial order
 * statistics: with n samples, [x(j), x(n−j+1)] covers the true median with
 * probability 1 − 2·P(Bin(n, ½) < j).  We take the largest j whose coverage
 * is still ≥ 95% (j = 1, the whole range, when n is too small for 95%, and
 * record the coverage actually reached).
 *
 * Across passes, that interval is too narrow: on a shared 2-core machine
 * the medians of one point moved by a few percent between passes (and by
 * 2× when another process took a core), while the order statistics of one
 * pass claimed ±2%.  So with K ≥ 2 passes the estimator is the textbook one
 * for clustered data, on the log scale (timing noise is multiplicative):
 * each pass's median is one observation m_p; the variance of their mean is
 * estimated by s²/K with s² their sample variance, which holds both the
 * between-pass variation and each pass median's own sampling noise; and the
 * half-width is t(0.975, K−1)·√(max(s², w)/K), Student's t because s² rests
 * on K−1 degrees of freedom only (4.30 for 3 passes).  w, the mean over the
 * passes of the sampling variance of their log-median (π/2·(1.4826·MAD)²/n),
 * is a floor for when the K medians agree by chance more closely than their
 * own noise allows.  The interval is placed around the median of all
 * samples (what is published) and never narrower than the within-run one.
 * A hierarchical bootstrap was tried on the same data and rejected: with 3
 * passes it can only resample 10 distinct sets of passes, and another run's
 * median fell in its interval for 56% of the points, against 84% here.
 * stats_contention then lowers the lower end by the share of the CPU that
 * others took (results_summarize_in finds it in the passes' records, and
 * applies it only to a device computing on the host's CPUs): no spread
 * between passes shows a load that lasted the whole run.
 */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_quantile(const double *sorted, int n, double p)
{
    double pos, frac;
    int i;
    if (n <= 0)
        return NAN;
    pos = p * (n - 1);
    i = (int)floor(pos);
    if (i >= n - 1)
        return sorted[n - 1];
    frac = pos - i;
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

static void median_ci(const double *sorted, int n, stats_summary *s)
{
    int j = 1;
    double coverage;

    if (n > 1000) {
        /* the normal approximation is exact enough here and keeps
         * (½)^n from underflowing */
        j = (int)floor((n - 1.959964 * sqrt((double)n)) / 2.0);
        if (j < 1)
            j = 1;
        coverage = 0.95;
    } else {
        /* cdf = P(Bin(n, ½) ≤ j − 1), pmf = P(Bin(n, ½) = j), stepped up
         * together while the next interval still covers 95% */
        double pmf = pow(0.5, n), cdf = pmf;
        coverage = 1.0 - 2.0 * cdf;
        while (j + 1 <= (n + 1) / 2) {
            double next;
            pmf = pmf * (n - (j - 1)) / j;
            next = 1.0 - 2.0 * (cdf + pmf);
            if (next < 0.95)
                break;
            cdf += pmf;
            coverage = next;
            j++;
        }
    }
    s->ci_lo = sorted[j - 1];
    s->ci_hi = sorted[n - j];
    s->ci_level = coverage;
}

double stats_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return stats_quantile(v, n, 0.5);
}

double stats_robust_sd(const double *v, int n, double *tmp)
{
    double med;
    int i;
    if (n < 2)
        return 0.0;
    memcpy(tmp, v, (size_t)n * sizeof *tmp);
    med = stats_median(tmp, n);
    for (i = 0; i < n; i++)
        tmp[i] = fabs(v[i] - med);
    return 1.4826 * stats_median(tmp, n);
}

/* One value of the two samples pooled, and which sample it came from. */
typedef struct mw_value {
    double v;
    int from_b;
} mw_value;

static int cmp_mw(const void *a, const void *b)
{
    double x = ((const mw_value *)a)->v, y = ((const mw_value *)b)->v;
    return (x > y) - (x < y);
}

/* U by ranks: the rank sum of b over the pooled, sorted values, ties given
 * their mid-rank (so a tie counts one half), and the ties' Σ(t³ − t) for
 * the variance.  Without memory for the pooled values, U is counted pair by
 * pair and the variance left uncorrected: ties only ever lower it, so z is
 * then smaller, never a false alarm. */
double stats_mann_whitney_z(const double *a, int na, const double *b, int nb)
{
    double u = 0.0, mean, var, ties = 0.0, n = (double)na + nb;
    mw_value *all;
    int i, j;
    if (na < 1 || nb < 1)
        return 0.0;
    if ((all = malloc((size_t)(na + nb) * sizeof *all)) != NULL) {
        double rank_b = 0.0;
        for (i = 0; i < na; i++)
            all[i] = (mw_value){a[i], 0};
        for (i = 0; i < nb; i++)
            all[na + i] = (mw_value){b[i], 1};
        qsort(all, (size_t)(na + nb), sizeof *all, cmp_mw);
        for (i = 0; i < na + nb; i = j) {
            double mid, t;
            for (j = i + 1; j < na + nb && all[j].v == all[i].v; j++)
                ;
            mid = (i + 1 + j) / 2.0; /* ranks i+1 … j */
            t = j - i;
            ties += t * t * t - t;
            for (; i < j; i++)
                rank_b += all[i].from_b ? mid : 0.0;
        }
        free(all);
        u = rank_b - nb * (nb + 1.0) / 2.0;
    } else {
        for (i = 0; i < na; i++)
            for (j = 0; j < nb; j++)
                u += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
    }
    mean = na * (double)nb / 2.0;
    var = na * (double)nb / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if (var <= 0.0)
        return 0.0;
    return (u - mean) / sqrt(var);
}

/* Compares the first and last thirds of x[0..n) (n ≥ 9, in the order
 * measured): returns the Mann–Whitney z and sets *ratio to the ratio of
 * their medians (0 when the first is not positive).  v: n doubles of
 * scratch. */
static double drift_of(const double *x, int n, double *v, double *ratio)
{
    int third = n / 3;
    double z, first, last;
    z = stats_mann_whitney_z(x, third, x + n - third, third);
    memcpy(v, x, (size_t)third * sizeof *v);
    first = stats_median(v, third);
    memcpy(v, x + n - third, (size_t)third * sizeof *v);
    last = stats_median(v, third);
    *ratio = first > 0.0 ? last / first : 0.0;
    return z;
}

/* Significant (one-sided p < 0.01) and large enough to matter. */
static int drifted(double z, double ratio)
{
    return z > 2.326 && ratio > 1.02;
}

int stats_summarize(const double *x, int n, stats_summary *s, err *e)
{
    double *v, sum = 0.0, ss = 0.0;
    int i;

    memset(s, 0, sizeof *s);
    s->spread = -1.0;
    if (n < 1)
        return err_set(e, BE_EFAIL, "no samples to summarize");
    v = malloc((size_t)n * sizeof *v);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory summarizing %d samples", n);
    memcpy(v, x, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, cmp_double);

    s->n = n;
    s->min = v[0];
    s->max = v[n - 1];
    s->median = stats_quantile(v, n, 0.5);
    s->p10 = stats_quantile(v, n, 0.10);
    s->p90 = stats_quantile(v, n, 0.90);
    for (i = 0; i < n; i++)
        sum += x[i];
    s->mean = sum / n;
    for (i = 0; i < n; i++)
        ss += (x[i] - s->mean) * (x[i] - s->mean);
    s->stdev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
    s->cv = s->mean > 0.0 ? s->stdev / s->mean : 0.0;
    median_ci(v, n, s);

    if (n >= 9) {
        double z = drift_of(x, n, v, &s->drift_ratio);
        s->drift = drifted(z, s->drift_ratio);
        s->drift_z = s->drift ? z : 0.0;
    }
    free(v);
    return BE_OK;
}

int stats_converged(const stats_summary *s, double rel)
{
    return s->n >= 1 && s->ci_lo >= s->median * (1.0 - rel) && s->ci_hi <= s->median * (1.0 + rel);
}

/* ---- samples measured in passes --------------------------------------- */

void stats_contention(stats_summary *s, double lost)
{
    if (!(lost > 0.0))
        return;
    if (lost > 0.9)
        lost = 0.9;
    s->ci_lo *= 1.0 - lost;
    s->contention = lost;
}

double stats_t975(int df)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    double z = 1.959964, d = (double)df;
    if (df < 1)
        return INFINITY;
    if (df <= 30)
        return t[df - 1];
    return z + (z * z * z + z) / (4.0 * d) +
           (5.0 * z * z * z * z * z + 16.0 * z * z * z + 3.0 * z) / (96.0 * d * d);
}

/* The continued fraction of the regularized incomplete beta I_x(a, b)
 * (modified Lentz), for x < (a + 1)/(a + b + 2) where it converges fast. */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
    int m;
    d = 1.0 / (fabs(d) < tiny ? tiny : d);
    h = d;
    for (m = 1; m <= 300; m++) {
        double aa = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)), del;
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-14)
            break;
    }
    return h;
}

static double incomplete_beta(double a, double b, double x)
{
    double front;
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_cf(a, b, x) / a;
    return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* P(T ≤ t) for Student's t with df degrees of freedom (df ≤ 0: normal). */
static double t_cdf(double t, double df)
{
    double tail;
    if (df <= 0)
        return 0.5 * erfc(-t / sqrt(2.0));
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    return t >= 0.0 ? 1.0 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
    double lo = -1e4, hi = 1e4;
    int i;
    if (!(p > 0.0 && p < 1.0))
        return p >= 1.0 ? INFINITY : -INFINITY;
    for (i = 0; i < 200 && hi - lo > 1e-10; i++) {
        double mid = 0.5 * (lo + hi);
        if (t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Sample i of pass pass[i], for grouping by pass in the order measured. */
typedef struct tagged {
    int pass, i;
} tagged;

static int cmp_tagged(const void *a, const void *b)
{
    const tagged *x = a, *y = b;
    if (x->pass != y->pass)
        return (x->pass > y->pass) - (x->pass < y->pass);
    return (x->i > y->i) - (x->i < y->i);
}

/* The samples' indexes ordered by pass, in the order measured within
 * each (malloc'd, n of them; NULL when out of memory). */
static tagged *by_pass(const int *pass, int n)
{
    tagged *tag = malloc((size_t)n * sizeof *tag + 1);
    int i;
    if (!tag)
        return NULL;
    for (i = 0; i < n; i++) {
        tag[i].pass = pass[i];
        tag[i].i = i;
    }
    qsort(tag, (size_t)n, sizeof *tag, cmp_tagged);
    return tag;
}

/* The log of the median of y[0..n) (logs of times) and the variance of that
 * log-median, π/2·σ²/n with σ = 1.4826·MAD: the large-sample variance of
 * the median of normal data, with a scale that one slow sample cannot
 * inflate.  v: n doubles of scratch. */
static double log_median(const double *y, int n, double *var, double *v)
{
    double med, mad;
    int i;
    memcpy(v, y, (size_t)n * sizeof *v);
    med = stats_median(v, n);
    for (i = 0; i < n; i++)
        v[i] = fabs(y[i] - med);
    mad = stats_median(v, n);
    *var = 1.5707963267948966 * (1.4826 * mad) * (1.4826 * mad) / n;
    return med;
}

int stats_drift(const double *x, const int *pass, int n, double *z, double *ratio, err *e)
{
    tagged *tag = NULL;
    double *y = NULL, *v = NULL, *r = NULL, zsum = 0.0;
    int i, several = 0, nz = 0, start, rc = BE_OK;

    *z = 0.0;
    *ratio = 0.0;
    for (i = 1; pass && i < n && !several; i++)
        several = pass[i] != pass[0];
    v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory testing %d samples for drift", n);
    /* one pass (or none recorded): the samples in the order measured */
    if (!several) {
        if (n >= 9)
            *z = drift_of(x, n, v, ratio);
        free(v);
        return BE_OK;
    }
    tag = by_pass(pass, n);
    y = malloc((size_t)n * sizeof *y);
    r = malloc((size_t)n * sizeof *r);
    if (!tag || !y || !r) {
        rc = err_set(e, BE_EFAIL, "out of memory testing %d samples for drift", n);
        goto done;
    }
    /* drift is a slowdown while a point is measured, within a visit; the
     * passes' z scores are combined (Stouffer) and their ratios' median
     * kept */
    for (start = 0; start < n; start = i) {
        for (i = start; i < n && tag[i].pass == tag[start].pass; i++)
            y[i - start] = x[tag[i].i];
        if (i - start >= 9)
            zsum += drift_of(y, i - start, v, &r[nz++]);
    }
    if (nz > 0) {
        *z = zsum / sqrt((double)nz);
        *ratio = stats_median(r, nz);
    }
done:
    free(tag);
    free(y);
    free(v);
    free(r);
    return rc;
}

int stats_summarize_passes(const double *x, const int *pass, int n, stats_summary *s, err *e)
{
    return stats_summarize_prior(x, pass, n, NULL, s, e);
}

/* A half-width from one run's passes widened by what runs add to it:
 * the passes' part is Student's, the run's a normal 1.96·σ, as the two
 * add in variance. */
static double run_level(double half, const stats_prior *prior)
{
    return prior->run_var > 0.0 ? sqrt(half * half + 1.96 * 1.96 * prior->run_var) : half;
}

int stats_summarize_prior(const double *x, const int *pass, int n, const stats_prior *prior,
                          stats_summary *s, err *e)
{
    tagged *tag = NULL;
    double *y = NULL, *v = NULL, *lmed = NULL, *lvar = NULL;
    double mean = 0.0, between = 0.0, within = 0.0, z, half;
    int i, j, k = 0, start, rc;

    if ((rc = stats_summarize(x, n, s, e)) < 0)
        return rc;
    tag = by_pass(pass, n);
    y = malloc((size_t)n * sizeof *y);
    v = malloc((size_t)n * sizeof *v);
    lmed = malloc((size_t)n * sizeof *lmed);
    lvar = malloc((size_t)n * sizeof *lvar);
    if (!tag || !y || !v || !lmed || !lvar) {
        rc = err_set(e, BE_EFAIL, "out of memory summarizing %d samples", n);
        goto done;
    }
    /* per pass, its samples in the order measured: the log-median and its
     * variance */
    for (start = 0; start < n; start = i) {
        int m;
        for (i = start; i < n && tag[i].pass == tag[start].pass; i++)
            y[i - start] = x[tag[i].i];
        m = i - start;
        for (j = 0; j < m; j++)
            y[j] = log(y[j] > 0.0 ? y[j] : DBL_MIN);
        lmed[k] = log_median(y, m, &lvar[k], v);
        k++;
    }
    s->passes = k;
    if (k < 2)
        goto done;
    /* drift within each pass (stats_drift), in place of stats_summarize's
     * over the passes' concatenation */
    if ((rc = stats_drift(x, pass, n, &z, &s->drift_ratio, e)) < 0)
        goto done;
    s->drift = drifted(z, s->drift_ratio);
    s->drift_z = s->drift ? z : 0.0;
    for (i = 0; i < k; i++)
        mean += lmed[i] / k;
    for (i = 0; i < k; i++) {
        between += (lmed[i] - mean) * (lmed[i] - mean) / (k - 1);
        within += lvar[i] / k;
    }
    s->spread = between;
    s->df = k - 1;
    if (prior && prior->df > 0.0) {
        between = (prior->df * prior->var + (k - 1) * between) / (prior->df + k - 1);
        s->df += prior->df;
    }
    half = (prior && prior->df > 0.0 ? stats_t_quantile(0.975, s->df) : stats_t975(k - 1)) *
           sqrt((between > within ? between : within) / k);
    if (prior)
        half = run_level(half, prior);
    if (s->median * exp(-half) < s->ci_lo)
        s->ci_lo = s->median * exp(-half);
    if (s->median * exp(half) > s->ci_hi)
        s->ci_hi = s->median * exp(half);
    s->ci_level = 0.95;
done:
    free(tag);
    free(y);
    free(v);
    free(lmed);
    free(lvar);
    return rc;
}

/* ψ, ψ′ and ψ″ (digamma, trigamma, tetragamma) for x > 0: the recurrence
 * up to x ≥ 8, then their asymptotic series (error below 1e-12 there). */
static double digamma(double x)
{
    double r = 0.0, f;
    for (; x < 8.0; x += 1.0)
        r -= 1.0 / x;
    f = 1.0 / (x * x);
    return r + log(x) - 0.5 / x -
           f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

static double trigamma(double x)
{
    double r = 0.0, f;
    for (; x < 8.0; x += 1.0)
        r += 1.0 / (x * x);
    f = 1.0 / (x * x);
    return r + 1.0 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
}

static double tetragamma(double x)
{
    double r = 0.0, f;
    for (; x < 8.0; x += 1.0)
        r -= 2.0 / (x * x * x);
    f = 1.0 / (x * x);
    return r - f - f / x - f * f * (0.5 - f * (1.0 / 6 - f * (1.0 / 6 - f * (0.3 - f * 5.0 / 6))));
}

/* The x with ψ′(x) = y (y > 0): limma's Newton iteration, from a start
 * below the root so that every step stays on its side. */
static double trigamma_inverse(double y)
{
    double x, dif;
    int i;
    if (y > 1e7)
        return 1.0 / sqrt(y);
    if (y < 1e-6)
        return 1.0 / y;
    x = 0.5 + 1.0 / y;
    for (i = 0; i < 50; i++) {
        double tri = trigamma(x);
        dif = tri * (1.0 - tri / y) / tetragamma(x);
        x += dif;
        if (-dif / x < 1e-8)
            break;
    }
    return x;
}

void stats_prior_fit(const double *var, const int *df, int n, stats_prior *p)
{
    double mean = 0.0, spread = 0.0, tri = 0.0, sumdf = 0.0, d0;
    int i, m = 0;
    p->df = 0.0;
    p->var = 0.0;
    p->run_var = 0.0;
    /* log var on d degrees of freedom has mean log σ² + ψ(d/2) − log(d/2)
     * and variance ψ′(d/2), plus ψ′(d0/2) when σ² varies between points
     * as a scaled inverse χ² on d0 */
    for (i = 0; i < n; i++)
        if (df[i] >= 1 && var[i] > 0.0 && isfinite(var[i])) {
            mean += log(var[i]) - digamma(df[i] / 2.0) + log(df[i] / 2.0);
            m++;
        }
    if (m < STATS_PRIOR_POINTS)
        return;
    mean /= m;
    for (i = 0; i < n; i++)
        if (df[i] >= 1 && var[i] > 0.0 && isfinite(var[i])) {
            double e = log(var[i]) - digamma(df[i] / 2.0) + log(df[i] / 2.0) - mean;
            spread += e * e / (m - 1);
            tri += trigamma(df[i] / 2.0) / m;
            sumdf += df[i];
        }
    d0 = spread - tri > 0.0 ? 2.0 * trigamma_inverse(spread - tri) : sumdf;
    p->df = d0 < sumdf ? d0 : sumdf;
    p->var = exp(mean + digamma(p->df / 2.0) - log(p->df / 2.0));
}

/* The passes of x[0..n) (pass as for stats_summarize_passes) in order,
 * each pass's log-median and its variance (log_median) into lmed, lvar
 * and its number into id (room for n each); returns how many. */
static int pass_log_medians(const double *x, const int *pass, int n, const tagged *tag, double *y,
                            double *v, int *id, double *lmed, double *lvar)
{
    int i, start, k = 0;
    for (start = 0; start < n; start = i) {
        for (i = start; i < n && tag[i].pass == tag[start].pass; i++)
            y[i - start] = log(x[tag[i].i] > 0.0 ? x[tag[i].i] : DBL_MIN);
        id[k] = pass[tag[start].i];
        lmed[k] = log_median(y, i - start, &lvar[k], v);
        k++;
    }
    return k;
}

int stats_paired_log_ratio(const double *xa, const int *pa, int na, const double *xb, const int *pb,
                           int nb, const stats_prior *prior, double *half, int *passes,
                           double *spread, err *e)
{
    int n = na > nb ? na : nb, ka, kb, i, j, k = 0, rc = BE_OK;
    tagged *ta = by_pass(pa, na), *tb = by_pass(pb, nb);
    double *y = malloc((size_t)n * sizeof *y + 1), *v = malloc((size_t)n * sizeof *v + 1);
    double *ma = malloc((size_t)na * sizeof *ma + 1), *va = malloc((size_t)na * sizeof *va + 1);
    double *mb = malloc((size_t)nb * sizeof *mb + 1), *vb = malloc((size_t)nb * sizeof *vb + 1);
    double *d = malloc((size_t)n * sizeof *d + 1), mean = 0.0, between = 0.0, within = 0.0;
    int *ia = malloc((size_t)na * sizeof *ia + 1), *ib = malloc((size_t)nb * sizeof *ib + 1);

    *half = 0.0;
    *passes = 0;
    *spread = -1.0;
    if (!ta || !tb || !y || !v || !ma || !va || !mb || !vb || !d || !ia || !ib) {
        rc = err_set(e, BE_EFAIL, "out of memory pairing %d and %d samples", na, nb);
        goto done;
    }
    ka = pass_log_medians(xa, pa, na, ta, y, v, ia, ma, va);
    kb = pass_log_medians(xb, pb, nb, tb, y, v, ib, mb, vb);
    /* the passes both measured, in which the two were visited seconds
     * apart: what the machine did then, it did to both */
    for (i = 0, j = 0; i < ka && j < kb;) {
        if (ia[i] < ib[j]) {
            i++;
        } else if (ia[i] > ib[j]) {
            j++;
        } else {
            d[k] = ma[i] - mb[j];
            within += va[i] + vb[j];
            k++;
            i++;
            j++;
        }
    }
    *passes = k;
    if (k < 2)
        goto done;
    for (i = 0; i < k; i++)
        mean += d[i] / k;
    for (i = 0; i < k; i++)
        between += (d[i] - mean) * (d[i] - mean) / (k - 1);
    within /= k;
    *spread = between;
    if (prior && prior->df > 0.0) {
        between = (prior->df * prior->var + (k - 1) * between) / (prior->df + k - 1);
        *half = stats_t_quantile(0.975, prior->df + k - 1);
    } else {
        *half = stats_t975(k - 1);
    }
    *half *= sqrt((between > within ? between : within) / k);
    if (prior)
        *half = run_level(*half, prior);
done:
    free(ta);
    free(tb);
    free(y);
    free(v);
    free(ma);
    free(va);
    free(mb);
    free(vb);
    free(d);
    free(ia);
    free(ib);
    return rc;
}
