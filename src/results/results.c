/*
 * results.c — the results model of one run: building it (devices, points,
 * samples, passes, the fit), summarizing its points, freeing it.
 *
 * The model is what every layer after the measurement reads (results.h).
 * Its XML form lives beside it: results_write.c turns a model into a file,
 * results_load.c a file from anywhere into a model; the names both use for
 * the file's enumerations are defined here (results_int.h).
 */
#include "results.h"

#include <stdlib.h>
#include <string.h>

#include "results_int.h"

const char *const rs_status_names[5] = {"ok", "out-of-memory", "failed-verification", "skipped",
                                        "failed"};
const char *const rs_view_names[3] = {"resident", "transfer", "weights-on-host"};
const char *const rs_cross_names[5] = {"in-range", "extrapolated", "never", "always", "unknown"};
const char *const rs_tel_when[2] = {"before", "after"};
const char *const rs_tel_sources[2] = {"nvml", "rapl"};

const char *results_status_name(rs_status s)
{
    return (unsigned)s < sizeof rs_status_names / sizeof *rs_status_names ? rs_status_names[s]
                                                                          : "?";
}

results *results_new(void)
{
    results *r = calloc(1, sizeof *r);
    if (r)
        r->partial = 1;
    return r;
}

void results_free(results *r)
{
    int i;
    if (!r)
        return;
    for (i = 0; i < r->npoints; i++) {
        free(r->points[i].samples);
        free(r->points[i].pass);
    }
    free(r->points);
    free(r->passes);
    free(r->devices);
    free(r->fit.models);
    free(r->fit.cross);
    free(r);
}

void results_set_fit(results *r, fit_set *fs, unsigned long long seed, const fit_prices *prices)
{
    free(r->fit.models);
    free(r->fit.cross);
    r->fit = *fs;
    memset(fs, 0, sizeof *fs);
    r->fit_seed = seed;
    if (prices)
        r->prices = *prices;
    else
        memset(&r->prices, 0, sizeof r->prices);
    r->has_fit = 1;
}

/* The array v of n items of size bytes, grown by one, with item copied
 * whole at its end (padding too: the render cache writes these bytes,
 * cache.h); NULL when out of memory, v then as it was. */
static void *append(void *v, int n, const void *item, size_t size)
{
    char *nv = realloc(v, (size_t)(n + 1) * size);
    if (nv)
        memcpy(nv + (size_t)n * size, item, size);
    return nv;
}

int results_add_device(results *r, const device_info *d, err *e)
{
    device_info *v = append(r->devices, r->ndevices, d, sizeof *d);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory adding a device");
    r->devices = v;
    r->ndevices++;
    return BE_OK;
}

int results_add_point(results *r, const rs_point *p, err *e)
{
    rs_point *np;
    if (r->npoints == r->cap) {
        int cap = r->cap ? r->cap * 2 : 32;
        np = realloc(r->points, (size_t)cap * sizeof *np);
        if (!np)
            return err_set(e, BE_EFAIL, "out of memory adding a point");
        r->points = np;
        r->cap = cap;
    }
    np = &r->points[r->npoints];
    memcpy(np, p, sizeof *np);
    np->samples = NULL;
    np->pass = NULL;
    if (p->nsamples > 0) {
        np->samples = malloc((size_t)p->nsamples * sizeof *np->samples);
        if (!np->samples)
            return err_set(e, BE_EFAIL, "out of memory adding %d samples", p->nsamples);
        memcpy(np->samples, p->samples, (size_t)p->nsamples * sizeof *np->samples);
        if (p->pass) {
            np->pass = malloc((size_t)p->nsamples * sizeof *np->pass);
            if (!np->pass) {
                free(np->samples);
                return err_set(e, BE_EFAIL, "out of memory adding %d samples", p->nsamples);
            }
            memcpy(np->pass, p->pass, (size_t)p->nsamples * sizeof *np->pass);
        }
    }
    r->npoints++;
    return BE_OK;
}

void results_remove_point(results *r, int i)
{
    if (i < 0 || i >= r->npoints)
        return;
    free(r->points[i].samples);
    free(r->points[i].pass);
    memmove(&r->points[i], &r->points[i + 1], (size_t)(r->npoints - i - 1) * sizeof *r->points);
    r->npoints--;
}

int results_add_samples(rs_point *p, const step_times *t, int n, int pass, err *e)
{
    step_times *ns;
    int *np, i;
    if (n <= 0)
        return BE_OK;
    ns = realloc(p->samples, (size_t)(p->nsamples + n) * sizeof *ns);
    if (!ns)
        return err_set(e, BE_EFAIL, "out of memory adding %d samples", n);
    p->samples = ns;
    np = realloc(p->pass, (size_t)(p->nsamples + n) * sizeof *np);
    if (!np)
        return err_set(e, BE_EFAIL, "out of memory adding %d samples", n);
    if (!p->pass)
        for (i = 0; i < p->nsamples; i++)
            np[i] = 0;
    p->pass = np;
    for (i = 0; i < n; i++) {
        p->samples[p->nsamples + i] = t[i];
        p->pass[p->nsamples + i] = pass;
    }
    p->nsamples += n;
    return BE_OK;
}

int results_add_pass(results *r, const rs_pass *ps, err *e)
{
    rs_pass *v = append(r->passes, r->npasses, ps, sizeof *ps);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory adding a pass");
    r->passes = v;
    r->npasses++;
    return BE_OK;
}

const device_info *results_device(const results *r, const char *id)
{
    int i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, id) == 0)
            return &r->devices[i];
    return NULL;
}

double results_gflops(const rs_point *p, double seconds)
{
    return seconds > 0.0 ? p->flops_per_layer * p->layers / seconds / 1e9 : 0.0;
}

/* Whether p's near samples (near[0..n), n of them) are the summary's:
 * they come from at least RESULTS_NEAR_PASSES passes, are at least half of
 * the point's samples, and the far ones' median lies outside the near ones'
 * own interval (stats_summarize_passes), so that the state is shown to
 * change this device's time here, beyond the variation between the near
 * visits.  1, 0, or BE_EFAIL when out of memory. */
static int near_kept(const rs_point *p, const int *near, int n)
{
    double *v = malloc((size_t)p->nsamples * sizeof *v + 1), far_med;
    int *pass = malloc((size_t)p->nsamples * sizeof *pass + 1), i, nf = 0, rc;
    stats_summary s;
    err e;
    if (!v || !pass) {
        rc = BE_EFAIL;
        goto done;
    }
    for (i = 0; i < n; i++) {
        v[i] = p->samples[near[i]].wall;
        pass[i] = p->pass ? p->pass[near[i]] : 0;
    }
    if ((rc = stats_summarize_passes(v, pass, n, &s, &e)) < 0)
        goto done;
    if (s.passes < RESULTS_NEAR_PASSES) {
        rc = 0;
        goto done;
    }
    for (i = 0; i < p->nsamples; i++)
        if (p->samples[i].far != 0.0)
            v[nf++] = p->samples[i].wall;
    far_med = stats_median(v, nf);
    rc = far_med < s.ci_lo || far_med > s.ci_hi;
done:
    free(v);
    free(pass);
    return rc;
}

int results_summary_samples(const rs_point *p, int *idx)
{
    int *near = malloc((size_t)p->nsamples * sizeof *near + 1), i, n = 0, rc;
    if (!near)
        return BE_EFAIL;
    for (i = 0; i < p->nsamples; i++)
        if (p->samples[i].far == 0.0)
            near[n++] = i;
    rc = n < p->nsamples && 2 * n >= p->nsamples ? near_kept(p, near, n) : 0;
    if (rc < 0) {
        free(near);
        return rc;
    }
    if (rc == 0)
        for (n = 0; n < p->nsamples; n++)
            near[n] = n;
    if (idx)
        memcpy(idx, near, (size_t)n * sizeof *idx);
    free(near);
    return n;
}

/* One view's summary of the samples idx[0..n-1], with its device's prior
 * (NULL: none): `part` picks the time. */
static int summarize_view(const rs_point *p, const int *idx, int n, double *v, int *pass,
                          double (*part)(const step_times *), const stats_prior *prior,
                          stats_summary *out, err *e)
{
    int i;
    for (i = 0; i < n; i++) {
        v[i] = part(&p->samples[idx[i]]);
        if (p->pass)
            pass[i] = p->pass[idx[i]];
    }
    return p->pass ? stats_summarize_prior(v, pass, n, prior, out, e)
                   : stats_summarize(v, n, out, e);
}

static double part_wall(const step_times *t)
{
    return t->wall;
}

static double part_total(const step_times *t)
{
    return t->total;
}

static double part_whost(const step_times *t)
{
    return t->whost;
}

int results_view_samples(const rs_point *p, fit_view v, double *x, int *pass)
{
    double (*part)(const step_times *) = v == FIT_TRANSFER ? part_total
                                         : v == FIT_WHOST  ? part_whost
                                                           : part_wall;
    int *idx = malloc((size_t)p->nsamples * sizeof *idx + 1), n, i;
    if (!idx || (n = results_summary_samples(p, idx)) < 0) {
        free(idx);
        return BE_EFAIL;
    }
    for (i = 0; i < n; i++) {
        x[i] = part(&p->samples[idx[i]]);
        pass[i] = p->pass ? p->pass[idx[i]] : 0;
    }
    free(idx);
    return n;
}

/* p's summaries, view v's with prior[v] (prior NULL: none). */
static int summarize_with(rs_point *p, const stats_prior *prior, err *e)
{
    double *v;
    int *idx, *pass, n, rc;

    if (p->nsamples < 1)
        return err_set(e, BE_EFAIL, "point hidden=%d batch=%d has no samples", p->hidden, p->batch);
    v = malloc((size_t)p->nsamples * sizeof *v);
    idx = malloc((size_t)p->nsamples * sizeof *idx);
    pass = malloc((size_t)p->nsamples * sizeof *pass);
    if (!v || !idx || !pass) {
        rc = err_set(e, BE_EFAIL, "out of memory summarizing a point");
        goto done;
    }
    if ((n = results_summary_samples(p, idx)) < 0) {
        rc = err_set(e, BE_EFAIL, "out of memory summarizing a point");
        goto done;
    }
    rc = summarize_view(p, idx, n, v, pass, part_wall, prior ? &prior[FIT_RESIDENT] : NULL,
                        &p->resident, e);
    if (rc == BE_OK && p->has_transfer)
        rc = summarize_view(p, idx, n, v, pass, part_total, prior ? &prior[FIT_TRANSFER] : NULL,
                            &p->transfer, e);
    if (rc == BE_OK && p->has_whost)
        rc = summarize_view(p, idx, n, v, pass, part_whost, prior ? &prior[FIT_WHOST] : NULL,
                            &p->whost, e);
done:
    free(v);
    free(idx);
    free(pass);
    return rc;
}

int results_summarize(rs_point *p, err *e)
{
    return summarize_with(p, NULL, e);
}

/* The priors of p's device, one per view (stats_prior), from the spreads
 * of its points' summaries as they stand, p's among them. */
static int device_priors(const results *r, const rs_point *p, stats_prior *prior, err *e)
{
    double *var = malloc((size_t)r->npoints * sizeof *var + 1);
    int *df = malloc((size_t)r->npoints * sizeof *df + 1), i, v, n;
    if (!var || !df) {
        free(var);
        free(df);
        return err_set(e, BE_EFAIL, "out of memory summarizing a point");
    }
    for (v = 0; v < 3; v++) {
        for (i = n = 0; i < r->npoints; i++) {
            const rs_point *q = &r->points[i];
            const stats_summary *s = v == FIT_WHOST      ? (q->has_whost ? &q->whost : NULL)
                                     : v == FIT_TRANSFER ? (q->has_transfer ? &q->transfer : NULL)
                                                         : &q->resident;
            if (q->nsamples > 0 && strcmp(q->device, p->device) == 0 && s && s->spread >= 0.0 &&
                s->passes >= 2) {
                var[n] = s->spread;
                df[n++] = s->passes - 1;
            }
        }
        stats_prior_fit(var, df, n, &prior[v]);
        prior[v].run_var = results_run_var(r, p->device, (fit_view)v);
    }
    free(var);
    free(df);
    return BE_OK;
}

double results_run_sd_default(const device_info *d, fit_view v)
{
    return !d || devinfo_on_host(d) ? RESULTS_RUN_SD_HOST
           : v == FIT_RESIDENT      ? RESULTS_RUN_SD_DEVICE
                                    : RESULTS_RUN_SD_DEVICE_TRANSFER;
}

double results_run_var(const results *r, const char *dev, fit_view v)
{
    const device_info *d = results_device(r, dev);
    const double sd = d && d->run_sd_runs > 0 && d->run_sd[v] >= 0.0 ? d->run_sd[v]
                                                                     : results_run_sd_default(d, v);
    return sd * sd;
}

int results_drift(const rs_point *p, fit_view view, double *z, double *ratio, err *e)
{
    double *v = NULL;
    int *idx = NULL, *pass = NULL, n, i, rc;
    double (*part)(const step_times *) = view == FIT_TRANSFER ? part_total
                                         : view == FIT_WHOST  ? part_whost
                                                              : part_wall;
    *z = 0.0;
    *ratio = 0.0;
    if (p->nsamples < 1)
        return BE_OK;
    v = malloc((size_t)p->nsamples * sizeof *v);
    idx = malloc((size_t)p->nsamples * sizeof *idx);
    pass = malloc((size_t)p->nsamples * sizeof *pass);
    if (!v || !idx || !pass) {
        rc = err_set(e, BE_EFAIL, "out of memory testing a point for drift");
        goto done;
    }
    /* the samples and their order as summarize_view takes them */
    if ((n = results_summary_samples(p, idx)) < 0) {
        rc = err_set(e, BE_EFAIL, "out of memory testing a point for drift");
        goto done;
    }
    for (i = 0; i < n; i++) {
        v[i] = part(&p->samples[idx[i]]);
        if (p->pass)
            pass[i] = p->pass[idx[i]];
    }
    rc = stats_drift(v, p->pass ? pass : NULL, n, z, ratio, e);
done:
    free(v);
    free(idx);
    free(pass);
    return rc;
}

int results_summarize_in(const results *r, rs_point *p, err *e)
{
    const device_info *d = results_device(r, p->device);
    double lost = 0.0;
    int i, k, rc;
    /* only what computes on the busy host's CPUs could run faster on a
     * quiet one: a GPU's kernels run on its own silicon, and lowering its
     * interval by the host's busy share (up to 90%) tied devices up to 10×
     * apart in `decide` (a device not described: as the host's, the
     * cautious side) */
    stats_prior prior[3];
    if ((rc = results_summarize(p, e)) < 0 || !p->pass ||
        (rc = device_priors(r, p, prior, e)) < 0 || (rc = summarize_with(p, prior, e)) < 0 ||
        (d && !devinfo_on_host(d)))
        return rc;
    for (k = 0; k < r->npasses; k++) {
        const machstate *m = &r->passes[k].state;
        if (!m->has_cpu || m->others_cpu + m->steal <= lost)
            continue;
        for (i = 0; i < p->nsamples && p->pass[i] != r->passes[k].index; i++)
            ;
        if (i < p->nsamples)
            lost = m->others_cpu + m->steal;
    }
    stats_contention(&p->resident, lost);
    if (p->has_transfer)
        stats_contention(&p->transfer, lost);
    if (p->has_whost)
        stats_contention(&p->whost, lost);
    return BE_OK;
}

int results_summarize_all(results *r, err *e)
{
    int i, rc;
    /* every point's own spreads first, then each with its device's prior
     * from them all: the result does not depend on the order */
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].nsamples > 0 && (rc = results_summarize(&r->points[i], e)) < 0)
            return rc;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].nsamples > 0 && (rc = results_summarize_in(r, &r->points[i], e)) < 0)
            return rc;
    return BE_OK;
}
