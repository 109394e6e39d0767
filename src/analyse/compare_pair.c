/*
 * compare_pair.c — the two runs of an `ab` pair (ab.h) judged on their
 * paired passes.
 *
 * ab runs pass k of side A and pass k of side B next to each other, in the
 * order A B B A A B …, so that the machine's drift over the minutes falls
 * on both alike.  Per run-level group and pass k, over the group's points
 * i (those measured in every complete pair of passes):
 *
 *   d[k] = median over i of  log B(k,i) − log A(k,i)
 *
 * where X(k,i) is the quick tenth (10th percentile) of point i's samples
 * in pass k of side X, as q_level is over the whole run.  The median, not
 * the mean: on the 2-core machine one visit in ten or so ran ×1.5–2 slower
 * on one side alone for its whole length (the CPUs a cache apart, a CPU
 * taken), and a mean over 12 points moved with it.  Only complete pairs
 * count: a trailing pass that either side did not finish (an interrupted
 * `ab`) is dropped, not the points it did not reach.  D, the mean of d over
 * the n pairs, is the log of the typical point's ratio B/A; its
 * interval is D ± t(1 − α/2, n − 1)·s/√n, s the SD of the d[k]: the pairs
 * themselves say how much a pair varies, with what the machine did to both
 * sides of it taken out.  A point's own interval is the same on its own
 * differences.  No correction for the load: the pairing is the
 * correction, and it needs no model of the machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_impl.h"
#include "query.h"
#include "stats.h"

int compare_pair_of(const results *a, const results *b)
{
    return a->prov.pair[0] && strcmp(a->prov.pair, b->prov.pair) == 0 &&
           a->prov.pair_side != b->prov.pair_side;
}

/* The pairs of passes of a and b: the passes both ran, by index. */
static int pairs_of(const results *a, const results *b)
{
    int n = a->npasses < b->npasses ? a->npasses : b->npasses, k;
    for (k = 0; k < n; k++)
        if (a->passes[k].index != k + 1 || b->passes[k].index != k + 1)
            return k;
    return n;
}

static int cmp_double(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

/* The log quick tenth of point p's samples in pass k of view v into
 * out[k − 1] for k = 1..n; 0 when some pass has none. */
static int pass_levels(const rs_point *p, fit_view v, int n, double *out, double *tmp)
{
    int k, i, m;
    if (!p->pass)
        return 0;
    for (k = 1; k <= n; k++) {
        for (i = 0, m = 0; i < p->nsamples; i++)
            if (p->pass[i] == k) {
                double t = v == FIT_TRANSFER ? p->samples[i].total : p->samples[i].wall;
                if (!(t > 0.0) || !isfinite(t))
                    return 0;
                tmp[m++] = t;
            }
        if (m == 0)
            return 0;
        qsort(tmp, (size_t)m, sizeof *tmp, cmp_double);
        out[k - 1] = log(stats_quantile(tmp, m, 0.1));
    }
    return 1;
}

/* 1 when p has a usable sample (positive, finite) of pass k in view v. */
static int in_pass(const rs_point *p, fit_view v, int k)
{
    int i;
    for (i = 0; p && p->pass && i < p->nsamples; i++) {
        const double t = v == FIT_TRANSFER ? p->samples[i].total : p->samples[i].wall;
        if (p->pass[i] == k && t > 0.0 && isfinite(t))
            return 1;
    }
    return 0;
}

/* The pairs of passes to use of points pa[i], pb[i] (i < K): the first n,
 * less the trailing pairs that some point measured in the first pair on
 * both sides is missing from (a pass that a side did not finish). */
static int complete_pairs(const rs_point *const *pa, const rs_point *const *pb, int K, fit_view v,
                          int n)
{
    int i, whole = 0;
    while (n > 1 && !whole) {
        whole = 1;
        for (i = 0; i < K && whole; i++)
            if (in_pass(pa[i], v, 1) && in_pass(pb[i], v, 1))
                whole = in_pass(pa[i], v, n) && in_pass(pb[i], v, n);
        n -= !whole;
    }
    return n;
}

/* mean and SD of x[0..n) */
static void mean_sd(const double *x, int n, double *mean, double *sd)
{
    double m = 0.0, ss = 0.0;
    int i;
    for (i = 0; i < n; i++)
        m += x[i] / n;
    for (i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *sd = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
}

int compare_pair_measure(const results *a, const results *b, const compare_set *s, fit_view view,
                         const int *pt, int K, compare_pair_stats *out, err *e)
{
    double *la = NULL, *lb = NULL, *d = NULL, *tmp = NULL, *dm = NULL, *col = NULL;
    const rs_point **pa = NULL, **pb = NULL;
    int i, k, n, used = 0, cap = 1, rc = BE_OK;
    memset(out, 0, sizeof *out);
    for (i = 0; i < a->npoints || i < b->npoints; i++) {
        if (i < a->npoints && a->points[i].nsamples > cap)
            cap = a->points[i].nsamples;
        if (i < b->npoints && b->points[i].nsamples > cap)
            cap = b->points[i].nsamples;
    }
    pa = calloc((size_t)K + 1, sizeof *pa);
    pb = calloc((size_t)K + 1, sizeof *pb);
    if (!pa || !pb) {
        rc = err_set(e, BE_EFAIL, "compare: out of memory");
        goto done;
    }
    for (i = 0; i < K; i++) {
        const compare_point *c = &s->points[pt[i]];
        pa[i] = q_point_net(a, c->dev_a, c->mode, c->sizes[0] ? 0 : a->prov.layers, c->hidden,
                            c->batch, c->sizes);
        pb[i] = q_point_net(b, c->dev_b, c->mode, c->sizes[0] ? 0 : b->prov.layers, c->hidden,
                            c->batch, c->sizes);
    }
    n = complete_pairs(pa, pb, K, view, pairs_of(a, b));
    out->n = n;
    out->point_d = calloc((size_t)K + 1, sizeof *out->point_d);
    out->point_se = calloc((size_t)K + 1, sizeof *out->point_se);
    la = malloc(((size_t)n + 1) * sizeof *la);
    lb = malloc(((size_t)n + 1) * sizeof *lb);
    d = calloc((size_t)n + 1, sizeof *d);
    dm = malloc(((size_t)K * (size_t)n + 1) * sizeof *dm);
    col = malloc(((size_t)K + 1) * sizeof *col);
    tmp = malloc((size_t)cap * sizeof *tmp);
    if (!out->point_d || !out->point_se || !la || !lb || !d || !dm || !col || !tmp) {
        rc = err_set(e, BE_EFAIL, "compare: out of memory");
        goto done;
    }
    /* each point's log ratio in each pass: row `used` of dm */
    for (i = 0; n >= 1 && i < K; i++) {
        double *row = dm + (size_t)used * (size_t)n, sd;
        out->point_d[i] = NAN;
        if (!pa[i] || !pb[i] || !pass_levels(pa[i], view, n, la, tmp) ||
            !pass_levels(pb[i], view, n, lb, tmp))
            continue;
        for (k = 0; k < n; k++)
            row[k] = lb[k] - la[k];
        mean_sd(row, n, &out->point_d[i], &sd);
        out->point_se[i] = sd / sqrt((double)n);
        used++;
    }
    out->used = used;
    if (used == 0)
        goto done;
    /* a pass's log ratio is the median of its points': a visit that one
     * side met in another state (a CPU taken for its length, a spell a
     * cache apart) does not move its pair */
    for (k = 0; k < n; k++) {
        for (i = 0; i < used; i++)
            col[i] = dm[(size_t)i * (size_t)n + (size_t)k];
        qsort(col, (size_t)used, sizeof *col, cmp_double);
        d[k] = stats_quantile(col, used, 0.5);
    }
    mean_sd(d, n, &out->D, &out->sd);
    out->se = out->sd / sqrt((double)n);
done:
    free(pa);
    free(pb);
    free(la);
    free(lb);
    free(d);
    free(dm);
    free(col);
    free(tmp);
    if (rc < 0)
        compare_pair_free(out);
    return rc;
}

/* The verdict of group g of an `ab` pair (a0 side A, b0 side B) from its
 * paired passes (compare_pair.c), and its points' from their own. */
int compare_pair_judge(compare_set *s, compare_group *g, const int *pt, int K, const results *a0,
                       const results *b0, double busy_a, double busy_b, double *work, err *e)
{
    const double R = s->opts.threshold, alpha = s->opts.alpha;
    double t, *tmp = work, *pd = work + K, centre, tapart;
    compare_pair_stats ps;
    int i, k = 0, rc = compare_pair_measure(a0, b0, s, g->view, pt, K, &ps, e);
    if (rc < 0)
        return rc;
    g->paired = 1;
    g->npoints = ps.used;
    g->npairs = ps.n;
    g->dropped = K - ps.used;
    g->df = ps.n > 1 ? ps.n - 1 : 1;
    g->se = ps.se;
    g->run_sd = ps.sd;
    t = stats_t_quantile(1.0 - alpha / 2.0, g->df);
    g->ratio = g->raw_ratio = exp(ps.D);
    g->lo = exp(ps.D - t * g->se);
    g->hi = exp(ps.D + t * g->se);
    for (i = 0, g->median_ratio = 0.0; i < K; i++)
        g->median_ratio += s->points[pt[i]].lmed[g->view == FIT_RESIDENT ? 0 : 1] / K;
    g->median_ratio = exp(g->median_ratio);
    snprintf(g->band_from, sizeof g->band_from,
             "the pairs of passes themselves (%d, A and B alternating in one time window)", ps.n);
    if (ps.n < 2 || ps.used == 0) {
        g->verdict = CMP_INCONCLUSIVE;
        snprintf(g->why, sizeof g->why,
                 "%d complete pair%s of passes measured its points (a verdict needs 2)",
                 ps.used ? ps.n : 0, ps.used && ps.n == 1 ? "" : "s");
    } else {
        g->verdict = compare_verdict_of(g->ratio, g->lo, g->hi, R);
        compare_group_why(s, g, R, busy_a, busy_b, 0);
    }
    compare_medians_moved(g, R);
    compare_group_gate(g, alpha, R, COMPARE_MORE_PASSES);
    compare_group_text(g, R, COMPARE_CORRECT_NONE);
    /* the points, on their own pairs; apart from the group's median ratio
     * as compare's points are (judge_points) */
    for (i = 0; i < K; i++)
        if (isfinite(ps.point_d[i]))
            pd[k++] = ps.point_d[i];
    memcpy(tmp, pd, (size_t)k * sizeof *tmp);
    qsort(tmp, (size_t)k, sizeof *tmp, cmp_double);
    centre = k ? stats_quantile(tmp, k, 0.5) : 0.0;
    g->point_sd = stats_robust_sd(pd, k, tmp);
    tapart = stats_t_quantile(1.0 - alpha / (2.0 * (k > 0 ? k : 1)), k > 1 ? k - 1 : 1);
    for (i = 0; g->view == FIT_RESIDENT && i < K; i++) {
        compare_point *c = &s->points[pt[i]];
        const double di = ps.point_d[i], r = di - centre;
        if (!isfinite(di)) {
            c->lo = c->hi = c->ratio;
            c->verdict = CMP_INCONCLUSIVE;
            continue;
        }
        c->ratio = exp(di);
        c->lo = exp(di - t * ps.point_se[i]);
        c->hi = exp(di + t * ps.point_se[i]);
        c->significant = c->lo > 1.0 || c->hi < 1.0;
        c->verdict = compare_verdict_of(c->ratio, c->lo, c->hi, R);
        c->apart = fabs(r) > tapart * g->point_sd * sqrt(1.0 + 1.0 / k) && fabs(r) > log(R)
                       ? (r > 0 ? 1 : -1)
                       : 0;
    }
    compare_pair_free(&ps);
    return BE_OK;
}

void compare_pair_free(compare_pair_stats *p)
{
    free(p->point_d);
    free(p->point_se);
    p->point_d = p->point_se = NULL;
}
