/*
 * stats.c — median-centred summaries of timing samples (see stats.h).
 *
 * The confidence interval of the median uses the exact binomial order
 * statistics: with n samples, [x(j), x(n−j+1)] covers the true median with
 * probability 1 − 2·P(Bin(n, ½) < j).  We take the largest j whose coverage
 * is still ≥ 95% (j = 1, the whole range, when n is too small for 95%, and
 * record the coverage actually reached).
 */
#include "stats.h"

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

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return stats_quantile(v, n, 0.5);
}

double stats_mann_whitney_z(const double *a, int na, const double *b, int nb)
{
    double u = 0.0, mean, var;
    int i, j;
    if (na < 1 || nb < 1)
        return 0.0;
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++)
            u += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
    mean = na * (double)nb / 2.0;
    var = na * (double)nb * (na + nb + 1) / 12.0;
    if (var <= 0.0)
        return 0.0;
    return (u - mean) / sqrt(var);
}

int stats_summarize(const double *x, int n, stats_summary *s, err *e)
{
    double *v, sum = 0.0, ss = 0.0;
    int i;

    memset(s, 0, sizeof *s);
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
        int third = n / 3;
        double z, first, last;
        z = stats_mann_whitney_z(x, third, x + n - third, third);
        memcpy(v, x, (size_t)third * sizeof *v);
        first = median_of(v, third);
        memcpy(v, x + n - third, (size_t)third * sizeof *v);
        last = median_of(v, third);
        s->drift_ratio = first > 0.0 ? last / first : 0.0;
        /* significant (one-sided p < 0.01) and large enough to matter */
        s->drift = z > 2.326 && s->drift_ratio > 1.02;
    }
    free(v);
    return BE_OK;
}

int stats_converged(const stats_summary *s, double rel)
{
    return s->n >= 1 && s->ci_lo >= s->median * (1.0 - rel) &&
           s->ci_hi <= s->median * (1.0 + rel);
}
