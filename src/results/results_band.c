/*
 * results_band.c — how far one whole run of a device lies from another,
 * learned from earlier runs of the same host and software (results.h,
 * results_learn_bands).
 *
 * A run's passes share the process, its buffers, the clocks' state and
 * the minute, so no interval made of them alone can foresee the next run
 * (docs/statistics.md, "What a run cannot see"); every interval takes a
 * run-to-run term σ_R on top.  Its defaults (results.h) were measured on
 * two machines.  Where the archive holds earlier runs of this host and
 * software, they say what σ_R is here: per point, how much more its
 * median varied between those runs than within them,
 *
 *   v_i = the variance of point i's log median over the runs that
 *         measured it (m_i − 1 degrees of freedom),
 *   u_i = the mean over those runs of its median's own variance within
 *         its run (the variance of its passes' log medians over passes);
 *
 * σ̂² = median(v_i / c(m_i − 1)) − median(u_i), at least 0, where c(k) is
 * the median of χ²_k / k (Wilson–Hilferty): a median is robust to a point
 * that stalled in one run, and c makes it a median of variances of their
 * expectation.  It rests on as many degrees of freedom as runs less one
 * (the points of one run move together), so it is pooled with the
 * default as a prior worth RESULTS_BAND_PRIOR_DF of them:
 * σ² = (d0·σ0² + (m − 1)·σ̂²)/(d0 + m − 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "stats.h"

/* The median of χ²_k / k (Wilson–Hilferty; 0.47 for k = 1 against the
 * exact 0.455, within 1% from k = 2). */
static double chi2_median_share(int k)
{
    const double a = 2.0 / (9.0 * k);
    return (1.0 - a) * (1.0 - a) * (1.0 - a);
}

static int same_point(const rs_point *p, const rs_point *q)
{
    return p->mode == q->mode && p->layers == q->layers && p->hidden == q->hidden &&
           p->batch == q->batch && strcmp(p->device, q->device) == 0 &&
           strcmp(p->sizes, q->sizes) == 0;
}

static int has_view(const rs_point *p, fit_view v)
{
    return p->status == PT_OK && p->nsamples > 0 && p->pass &&
           (v == FIT_RESIDENT || (v == FIT_TRANSFER && p->has_transfer) ||
            (v == FIT_WHOST && p->has_whost));
}

/* The point of run r that is p's, measured in view v; NULL when none. */
static const rs_point *find(const results *r, const rs_point *p, fit_view v)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (same_point(&r->points[i], p))
            return has_view(&r->points[i], v) ? &r->points[i] : NULL;
    return NULL;
}

/* p's log median in view v and its variance within its run (*w); 0 when
 * its passes cannot say (fewer than 2), 1 when set, BE_EFAIL out of
 * memory. */
static int level(const rs_point *p, fit_view v, double *y, double *w, err *e)
{
    double *x = malloc((size_t)p->nsamples * sizeof *x);
    int *pass = malloc((size_t)p->nsamples * sizeof *pass), n, rc = 0;
    stats_summary s;
    if (!x || !pass || (n = results_view_samples(p, v, x, pass)) < 0) {
        rc = err_set(e, BE_EFAIL, "out of memory learning the run-to-run band");
        goto done;
    }
    if (n > 0 && (rc = stats_summarize_passes(x, pass, n, &s, e)) == BE_OK) {
        rc = s.passes >= 2 && s.spread >= 0.0 && s.median > 0.0;
        *y = log(s.median);
        *w = s.spread / s.passes;
    }
done:
    free(x);
    free(pass);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    const double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The points' v_i / c and u_i of device dev in view v over runs[0..n),
 * into vc and u (room for every point of every run); how many points;
 * *m the most runs one of them was in. */
static int collect(const results *const *runs, int n, const char *dev, fit_view v, double *vc,
                   double *u, int *m, err *e)
{
    double y[RESULTS_BAND_RUNS_MAX], w[RESULTS_BAND_RUNS_MAX];
    int j, i, k, np = 0, rc = 0;
    *m = 0;
    for (j = 0; j < n; j++)
        for (i = 0; i < runs[j]->npoints; i++) {
            const rs_point *p = &runs[j]->points[i];
            double mean = 0.0, ss = 0.0, uw = 0.0;
            int c = 0, seen = 0;
            if (strcmp(p->device, dev) != 0 || !has_view(p, v))
                continue;
            for (k = 0; k < j && !seen; k++)
                seen = find(runs[k], p, v) != NULL;
            if (seen) /* counted with the earlier run that has it */
                continue;
            for (k = j; k < n; k++) {
                const rs_point *q = find(runs[k], p, v);
                if (q && (rc = level(q, v, &y[c], &w[c], e)) < 0)
                    return rc;
                c += q && rc == 1;
            }
            if (c < 2)
                continue;
            for (k = 0; k < c; k++)
                mean += y[k] / c;
            for (k = 0; k < c; k++) {
                ss += (y[k] - mean) * (y[k] - mean);
                uw += w[k] / c;
            }
            vc[np] = ss / (c - 1) / chi2_median_share(c - 1);
            u[np++] = uw;
            *m = c > *m ? c : *m;
        }
    return np;
}

static void unlearn(results *r)
{
    int i;
    for (i = 0; i < r->ndevices; i++) {
        r->devices[i].run_sd_runs = 0;
        r->devices[i].run_sd[0] = r->devices[i].run_sd[1] = r->devices[i].run_sd[2] = -1.0;
    }
}

int results_learn_bands(results *cur, const results *const *runs, int n, err *e)
{
    double *vc = NULL, *u = NULL;
    int total = 0, i, j, rc = BE_OK;
    if (n > RESULTS_BAND_RUNS_MAX)
        n = RESULTS_BAND_RUNS_MAX;
    for (j = 0; j < n; j++)
        total += runs[j]->npoints;
    unlearn(cur);
    if (n < RESULTS_BAND_RUNS_MIN)
        return BE_OK;
    vc = malloc((size_t)total * sizeof *vc + 1);
    u = malloc((size_t)total * sizeof *u + 1);
    if (!vc || !u) {
        rc = err_set(e, BE_EFAIL, "out of memory learning the run-to-run band");
        goto done;
    }
    for (i = 0; i < cur->ndevices; i++) {
        device_info *d = &cur->devices[i];
        int v, m, np;
        for (v = 0; v < 3; v++) {
            double s0, s2;
            if ((np = collect(runs, n, d->id, (fit_view)v, vc, u, &m, e)) < 0) {
                rc = np;
                goto done;
            }
            if (np < RESULTS_BAND_POINTS)
                continue;
            qsort(vc, (size_t)np, sizeof *vc, cmp_double);
            qsort(u, (size_t)np, sizeof *u, cmp_double);
            s2 = fmax(0.0, stats_quantile(vc, np, 0.5) - stats_quantile(u, np, 0.5));
            s0 = results_run_sd_default(d, (fit_view)v);
            d->run_sd[v] = sqrt((RESULTS_BAND_PRIOR_DF * s0 * s0 + (m - 1) * s2) /
                                (RESULTS_BAND_PRIOR_DF + m - 1));
            d->run_sd_runs = m > d->run_sd_runs ? m : d->run_sd_runs;
        }
    }
done:
    if (rc < 0) /* none learned rather than some */
        unlearn(cur);
    free(vc);
    free(u);
    return rc;
}
