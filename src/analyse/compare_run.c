/*
 * compare_run.c — the run is the unit (see compare.h, docs/compare.md).
 *
 * The samples of one run are not independent of its state: on a shared
 * machine every point of a run moves together by a few percent (the
 * neighbours' load, the frequency, where the buffers landed), so a test on
 * one point's samples calls identical runs different, and a test per point
 * at a per-point error rate throws the run's evidence away.  So, after
 * Kalibera and Jones, the level that varies most — the run — carries the
 * interval.  Per device, mode and view that the runs share:
 *
 *   y[r][i]  the log step time of point i in run r: its 10th percentile
 *            (q_level: the quick tenth, which a neighbour disturbs least);
 *   g[r]     run r's log geometric mean relative to the points' centres
 *            (the mean of y over the runs of A), one number per run;
 *   D        mean g of B − mean g of A: the log of the geometric mean of
 *            the points' ratios B/A, the run-level change.
 *
 * With replicates (two or more runs on a side) the variance of D is the
 * pooled variance of g within the sides times 1/na + 1/nb, on na + nb − 2
 * degrees of freedom: the runs themselves say how much runs differ.  With
 * one run per side it is 2·σ² + s²/K, σ the run-to-run standard deviation
 * of g measured from repeated runs of the same host and software in the
 * archive (at least 3), or else the default COMPARE_RUN_SD measured on the
 * 2-core machine, and s²/K the points' own scatter around D.  The interval
 * is D ± t(1 − α/2, df)·√var, on the ratio scale.
 *
 * A group is slower when its interval lies above 1 and its ratio reaches
 * the threshold, faster likewise below, no change when the interval lies
 * within (1/threshold, threshold), and inconclusive otherwise, or when the
 * side that got slower ran on a machine busier by COMPARE_BUSY of the CPU
 * (machstate.h): then the load explains it.  A point's own interval adds
 * the points' robust scatter around the run to the run's variance (or, with
 * replicates, takes its own spread over the runs, floored by the median of
 * the points'), so a point is never called changed on evidence that its
 * run does not give; a point is "apart" when its ratio differs from its
 * run's median ratio by more than the points' scatter allows (Bonferroni
 * over the points) and by more than the threshold.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "cachehop.h"
#include "compare_impl.h"
#include "devinfo.h"
#include "fit.h"
#include "fmt.h"
#include "prose.h" /* up: a comparison flags its runs as their pages do (prose_flags), by one rule */
#include "query.h"
#include "stats.h"
#include "workload.h"

const char *compare_correct_name(compare_correct c)
{
    return c == COMPARE_CORRECT_REFERENCE ? "reference"
           : c == COMPARE_CORRECT_LOAD    ? "load"
                                          : "none";
}

void compare_opts_default(compare_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threshold = COMPARE_THRESHOLD;
    o->alpha = COMPARE_ALPHA;
    o->correct = COMPARE_CORRECT_LOAD;
}

/* Replicates of one side must be the same measurement: the grid, the
 * devices and the breakeven version. */
static int same_settings(const results *x, const results *y, char side, err *e)
{
    const char *what = NULL, *vx = "", *vy = "";
    int i;
    if (strcmp(x->prov.version, y->prov.version) != 0)
        what = "breakeven version", vx = x->prov.version, vy = y->prov.version;
    else if (strcmp(x->prov.hidden, y->prov.hidden) != 0)
        what = "hidden widths", vx = x->prov.hidden, vy = y->prov.hidden;
    else if (strcmp(x->prov.batch, y->prov.batch) != 0)
        what = "batch sizes", vx = x->prov.batch, vy = y->prov.batch;
    else if (strcmp(x->prov.modes, y->prov.modes) != 0)
        what = "modes", vx = x->prov.modes, vy = y->prov.modes;
    else if (x->prov.layers != y->prov.layers)
        what = "layers", vx = "", vy = "";
    else if (x->ndevices != y->ndevices)
        what = "devices", vx = "", vy = "";
    for (i = 0; !what && i < x->ndevices; i++)
        if (strcmp(x->devices[i].id, y->devices[i].id) != 0 ||
            strcmp(x->devices[i].name, y->devices[i].name) != 0)
            what = "devices", vx = x->devices[i].name, vy = y->devices[i].name;
    if (!what)
        return BE_OK;
    return err_set(e, BE_EUSAGE,
                   "side %c: runs %s and %s differ in their %s%s%s%s%s; replicates must share the "
                   "grid, the devices and the breakeven version",
                   side, x->prov.id, y->prov.id, what, vx[0] ? " (" : "", vx, vx[0] ? " vs " : "",
                   vx[0] ? vy : "");
}

/* ---- the points ------------------------------------------------------ */

/* The point of run r at a's point pa's shape, on r's device that matches
 * a's device da; NULL when r lacks it or it is not ok. */
static const rs_point *point_in(const results *a, int da, const rs_point *pa, const results *r)
{
    const device_info *d = a == r ? &a->devices[da] : compare_match_device(a, da, r);
    const rs_point *p;
    if (!d)
        return NULL;
    p = q_point_net(r, d->id, pa->mode, pa->layers, pa->hidden, pa->batch, pa->sizes);
    return p && q_ok(p) ? p : NULL;
}

/* What device_index and group_of return for none. */
#define NO_INDEX (-1)

static int device_index(const results *r, const char *id)
{
    int i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, id) == 0)
            return i;
    return NO_INDEX;
}

/* Fills c from every run's point at its shape: ok (both log step times of
 * every run, q_level) or CMP_MISSING with the first run's statuses. */
static void fill_point(const results *const *a, int na, const results *const *b, int nb, int da,
                       const rs_point *pa, const rs_point *pb, compare_point *c)
{
    int j, ok = q_ok(pa) && q_ok(pb), tr = ok;
    c->verdict = CMP_MISSING;
    c->lmed[0] = c->lmed[1] = 0.0;
    for (j = 0; ok && j < na + nb; j++) {
        const results *r = j < na ? a[j] : b[j - na];
        const rs_point *p = point_in(a[0], da, pa, r);
        if (!p) {
            ok = 0;
            break;
        }
        tr = tr && q_ok_view(p, FIT_TRANSFER);
        c->lmed[0] += (j < na ? -1.0 / na : 1.0 / nb) * log(p->resident.median);
        c->lmed[1] += tr ? (j < na ? -1.0 / na : 1.0 / nb) * log(p->transfer.median) : 0.0;
        if (j < na) {
            c->la[j] = log(q_level(p, FIT_RESIDENT));
            c->ta[j] = tr ? log(q_level(p, FIT_TRANSFER)) : 0.0;
        } else {
            c->lb[j - na] = log(q_level(p, FIT_RESIDENT));
            c->tb[j - na] = tr ? log(q_level(p, FIT_TRANSFER)) : 0.0;
        }
    }
    if (!ok)
        return;
    c->has_transfer = tr;
    c->verdict = CMP_UNCHANGED;
}

static int match_points(const results *const *a, int na, const results *const *b, int nb,
                        compare_set *s, err *e)
{
    const results *a0 = a[0], *b0 = b[0];
    int d, i, j;
    s->points = calloc((size_t)(a0->npoints > 0 ? a0->npoints : 1), sizeof *s->points);
    if (!s->points)
        return err_set(e, BE_EFAIL, "compare: out of memory");
    for (d = 0; d < a0->ndevices; d++) {
        const device_info *db = compare_match_device(a0, d, b0);
        if (!db)
            continue;
        for (i = 0; i < a0->npoints; i++) {
            const rs_point *pa = &a0->points[i], *pb;
            compare_point *c;
            if (strcmp(pa->device, a0->devices[d].id) != 0)
                continue;
            /* step times only compare at the same depth: layers is part of the key */
            pb = q_point_net(b0, db->id, pa->mode, pa->layers, pa->hidden, pa->batch, pa->sizes);
            if (!pb)
                continue;
            c = &s->points[s->npoints++];
            if (strcmp(a0->devices[d].name, db->name) == 0)
                snprintf(c->model, sizeof c->model, "%s", a0->devices[d].name);
            else
                snprintf(c->model, sizeof c->model, "%.120s \xe2\x86\x92 %.120s",
                         a0->devices[d].name, db->name);
            snprintf(c->dev_a, sizeof c->dev_a, "%s", pa->device);
            snprintf(c->dev_b, sizeof c->dev_b, "%s", pb->device);
            c->mode = pa->mode;
            c->hidden = pa->hidden;
            c->batch = pa->batch;
            snprintf(c->sizes, sizeof c->sizes, "%s", pa->sizes);
            snprintf(c->net, sizeof c->net, "%s", pa->net);
            c->flops = pa->flops_per_layer;
            c->status_a = pa->status;
            c->status_b = pb->status;
            fill_point(a, na, b, nb, d, pa, pb, c);
            if (c->verdict == CMP_MISSING)
                continue;
            for (j = 0, c->level_a = 0.0; j < na; j++)
                c->level_a += c->la[j] / na;
            for (j = 0, c->level_b = 0.0; j < nb; j++)
                c->level_b += c->lb[j] / nb;
            c->level_a = exp(c->level_a);
            c->level_b = exp(c->level_b);
            c->ratio = c->level_b / c->level_a;
        }
    }
    return BE_OK;
}

/* ---- the machine ----------------------------------------------------- */

/* A run's reference: the geometric mean over its passes of each part, and
 * of their product's square root; 0 when no pass timed it. */
static double run_reference(const results *r, double *loop, double *stream)
{
    double sl = 0.0, ss = 0.0;
    int i, k = 0;
    for (i = 0; i < r->npasses; i++)
        if (r->passes[i].ref.has) {
            sl += log(r->passes[i].ref.loop);
            ss += log(r->passes[i].ref.stream);
            k++;
        }
    *loop = k ? exp(sl / k) : 0.0;
    *stream = k ? exp(ss / k) : 0.0;
    return k ? exp(0.5 * (sl + ss) / k) : 0.0;
}

/* The mean share of the CPU that others took over the passes of r that
 * recorded it; −1 when none did. */
static double run_others(const results *r)
{
    double sum = 0.0;
    int i, k = 0;
    for (i = 0; i < r->npasses; i++)
        if (r->passes[i].state.has_cpu) {
            sum += r->passes[i].state.others_cpu;
            k++;
        }
    return k ? sum / k : -1.0;
}

double compare_load_log(const results *r)
{
    double f = run_others(r);
    return f >= 0.0 ? -log(1.0 - fmin(f, 0.9)) : 0.0;
}

static double side_others(const results *const *r, int n)
{
    double sum = 0.0, v;
    int i, k = 0;
    for (i = 0; i < n; i++)
        if ((v = run_others(r[i])) >= 0.0) {
            sum += v;
            k++;
        }
    return k ? sum / k : -1.0;
}

/* ---- the run-level groups -------------------------------------------- */

static int group_of(compare_set *s, const compare_point *c, fit_view v, const results *a0)
{
    compare_group *g;
    int i, d;
    for (i = 0; i < s->ngroups; i++)
        if (s->groups[i].mode == c->mode && s->groups[i].view == v &&
            strcmp(s->groups[i].dev_a, c->dev_a) == 0)
            return i;
    if (s->ngroups == COMPARE_MAX_GROUPS)
        return NO_INDEX;
    g = &s->groups[s->ngroups];
    memset(g, 0, sizeof *g);
    snprintf(g->dev_a, sizeof g->dev_a, "%s", c->dev_a);
    snprintf(g->dev_b, sizeof g->dev_b, "%s", c->dev_b);
    snprintf(g->model, sizeof g->model, "%s", c->model);
    q_device_name(a0, c->dev_a, g->name, sizeof g->name);
    d = device_index(a0, c->dev_a);
    g->kind_cpu = d >= 0 && devinfo_on_host(&a0->devices[d]);
    g->mode = c->mode;
    g->view = v;
    return s->ngroups++;
}

/* A group's data: y[r·K + i] for run r (A's first, then B's) and its
 * points i; the log reference of every run (0 when not corrected). */
typedef struct gdata {
    int K, na, nb;
    double *y;
    int *pt;      /* the points' indexes in s->points */
    double shift; /* what the correction took off B's log ratio (0 uncorrected) */
} gdata;

static double gy(const gdata *G, int r, int i)
{
    return G->y[(size_t)r * (size_t)G->K + (size_t)i];
}

/* g[r] of every run into g (run-level log geomean relative to A's mean
 * at each point). */
static void run_means(const gdata *G, double *g)
{
    int r, i, j, n = G->na + G->nb;
    for (r = 0; r < n; r++)
        g[r] = 0.0;
    for (i = 0; i < G->K; i++) {
        double c = 0.0;
        for (j = 0; j < G->na; j++)
            c += gy(G, j, i) / G->na;
        for (r = 0; r < n; r++)
            g[r] += (gy(G, r, i) - c) / G->K;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

/* What the group's correction subtracts from run r's log times: 0 when
 * the group is not corrected, NaN when r lacks what it needs. */
static double run_correction(const compare_set *s, const compare_group *g, const results *r)
{
    double l, m, v;
    if (!g->corrected)
        return 0.0;
    if (s->opts.correct == COMPARE_CORRECT_LOAD)
        return run_others(r) >= 0.0 ? compare_load_log(r) : NAN;
    v = run_reference(r, &l, &m);
    return v > 0.0 ? log(v) : NAN;
}

/* The run-to-run band of one run per side from band runs of the same host
 * and software as a0: σ² of g over those runs at the group's points, and
 * how many runs; 0 runs when fewer than 3 qualify. */
static int archive_band(const compare_set *s, const compare_group *gr, const gdata *G,
                        const results *a0, const results *const *band, int nband, double *var)
{
    compare_diff dd[COMPARE_MAX_DIFFS];
    double *y = malloc((size_t)(nband > 0 ? nband : 1) * (size_t)G->K * sizeof *y), mean = 0.0;
    int k, i, n = 0, da = device_index(a0, gr->dev_a);
    *var = 0.0;
    if (!y || da < 0) {
        free(y);
        return 0;
    }
    for (k = 0; k < nband; k++) {
        const results *r = band[k];
        const double corr = run_correction(s, gr, r);
        int ok = strcmp(r->prov.host, a0->prov.host) == 0 &&
                 !(gr->kind_cpu && cachehop_apart(q_run_hop(r), s->hop_min)) &&
                 compare_provenance(a0, r, dd, COMPARE_MAX_DIFFS) == 0 &&
                 strcmp(r->prov.id, s->id_a) != 0 && strcmp(r->prov.id, s->id_b) != 0;
        for (i = 0; ok && i < G->K; i++) {
            const compare_point *c = &s->points[G->pt[i]];
            const rs_point *p =
                q_point_net(r, gr->dev_a, c->mode, c->sizes[0] ? 0 : a0->prov.layers, c->hidden,
                            c->batch, c->sizes);
            ok = p && q_ok_view(p, gr->view) && isfinite(corr);
            if (ok)
                y[(size_t)n * (size_t)G->K + (size_t)i] = log(q_level(p, gr->view)) - corr;
        }
        n += ok;
    }
    if (n >= 3) {
        double *g = calloc((size_t)n, sizeof *g);
        if (g) {
            for (i = 0; i < G->K; i++) {
                double c = 0.0;
                for (k = 0; k < n; k++)
                    c += y[(size_t)k * (size_t)G->K + (size_t)i] / n;
                for (k = 0; k < n; k++)
                    g[k] += (y[(size_t)k * (size_t)G->K + (size_t)i] - c) / G->K;
            }
            for (k = 0; k < n; k++)
                mean += g[k] / n;
            for (k = 0; k < n; k++)
                *var += (g[k] - mean) * (g[k] - mean) / (n - 1);
        }
        free(g);
        n = g ? n : 0;
    } else
        n = 0;
    free(y);
    return n;
}

/* The per-point intervals and verdicts of a group, and which points moved
 * apart from it. */
static void judge_points(compare_set *s, const compare_group *g, const gdata *G, double run_var,
                         double centre, double *d, double *tmp)
{
    const double R = s->opts.threshold, alpha = s->opts.alpha, D = centre;
    const int na = G->na, nb = G->nb, rep = na + nb > 2;
    double floor_var = 0.0, tapart;
    int i, j;
    if (rep) {
        /* each point's spread over the runs of its sides, pooled */
        for (i = 0; i < G->K; i++) {
            double ma = 0.0, mb = 0.0, ss = 0.0;
            for (j = 0; j < na; j++)
                ma += gy(G, j, i) / na;
            for (j = 0; j < nb; j++)
                mb += gy(G, na + j, i) / nb;
            for (j = 0; j < na; j++)
                ss += (gy(G, j, i) - ma) * (gy(G, j, i) - ma);
            for (j = 0; j < nb; j++)
                ss += (gy(G, na + j, i) - mb) * (gy(G, na + j, i) - mb);
            d[i] = ss / (na + nb - 2);
        }
        memcpy(tmp, d, (size_t)G->K * sizeof *tmp);
        qsort(tmp, (size_t)G->K, sizeof *tmp, cmp_double);
        floor_var = stats_quantile(tmp, G->K, 0.5);
    }
    tapart = stats_t_quantile(1.0 - alpha / (2.0 * G->K), G->K > 1 ? G->K - 1 : 1);
    for (i = 0; i < G->K; i++) {
        compare_point *c = &s->points[G->pt[i]];
        double di = 0.0, var, t, r;
        for (j = 0; j < na; j++)
            di -= gy(G, j, i) / na;
        for (j = 0; j < nb; j++)
            di += gy(G, na + j, i) / nb;
        if (rep) {
            var = fmax(d[i], floor_var) * (1.0 / na + 1.0 / nb);
            t = stats_t_quantile(1.0 - alpha / 2.0, na + nb - 2);
        } else {
            var = run_var + g->point_sd * g->point_sd;
            t = stats_t_quantile(1.0 - alpha / 2.0, g->df);
        }
        c->ratio = exp(di);
        c->lo = exp(di - t * sqrt(var));
        c->hi = exp(di + t * sqrt(var));
        c->significant = c->lo > 1.0 || c->hi < 1.0;
        c->verdict = compare_verdict_of(c->ratio, c->lo, c->hi, R);
        r = di - D;
        c->apart = fabs(r) > tapart * g->point_sd * sqrt(1.0 + 1.0 / G->K) && fabs(r) > log(R)
                       ? (r > 0 ? 1 : -1)
                       : 0;
    }
}

/* The run-to-run band of group g when neither replicates nor the archive
 * give one, by its device's class and the machine's state (compare.h):
 * a device off the host's CPUs, a quiet machine (busy: the larger of the
 * sides' mean others' share, −1 unknown), else the busy 2-core machine's
 * default of the correction made.  The runs it rests on into *runs. */
static double default_band(const compare_set *s, const compare_group *g, double busy, int *runs,
                           char *from, size_t size)
{
    compare_correct used;
    double sd;
    if (!g->kind_cpu) {
        sd = g->view == FIT_RESIDENT ? COMPARE_RUN_SD_GPU : COMPARE_RUN_SD_GPU_TRANSFER;
        *runs = COMPARE_RUN_SD_GPU_RUNS;
        snprintf(from, size,
                 "the default for a device off the host's CPUs (%s: a GPU's run varied by up to "
                 "%.0f%% from run to run on the H200 machine: docs/compare.md)",
                 fit_view_name(g->view), 100.0 * sd);
        return sd;
    }
    if (busy >= 0.0 && busy <= COMPARE_QUIET_SHARE) {
        *runs = COMPARE_RUN_SD_QUIET_RUNS;
        snprintf(from, size,
                 "the default for a quiet machine (others took at most %.0f%% of the CPU: a "
                 "run varied by up to %.0f%% from run to run on the quiet 2-core machine: "
                 "docs/compare.md)",
                 100.0 * COMPARE_QUIET_SHARE, 100.0 * COMPARE_RUN_SD_QUIET);
        return COMPARE_RUN_SD_QUIET;
    }
    /* a device on the CPU whose runs lack what the correction needs gets
     * the uncorrected one */
    used = !g->corrected ? COMPARE_CORRECT_NONE : s->opts.correct;
    sd = used == COMPARE_CORRECT_NONE        ? COMPARE_RUN_SD_NONE
         : used == COMPARE_CORRECT_REFERENCE ? COMPARE_RUN_SD_REFERENCE
                                             : COMPARE_RUN_SD_LOAD;
    *runs = COMPARE_RUN_SD_RUNS;
    snprintf(from, size,
             "the default for a busy machine (with --correct %s, a run's geometric mean varies "
             "by %.0f%% from run to run on the shared 2-core machine it was measured on: "
             "docs/compare.md)",
             compare_correct_name(used), 100.0 * sd);
    return sd;
}

/* The run-level verdict of group g (its points collected in G). */
static void judge_group(compare_set *s, compare_group *g, const gdata *G, const results *a0,
                        double busy_a, double busy_b, double *work)
{
    const int na = G->na, nb = G->nb, K = G->K;
    const double R = s->opts.threshold;
    double *gr = work, *d = work + na + nb, *tmp = d + K, D = 0.0, var, sd2 = 0.0, mean = 0.0, t;
    double centre;
    int i, j;
    run_means(G, gr);
    for (j = 0; j < nb; j++)
        D += gr[na + j] / nb;
    for (j = 0; j < na; j++)
        D -= gr[j] / na;
    /* the points' log ratios: their scatter around D */
    for (i = 0; i < K; i++) {
        d[i] = 0.0;
        for (j = 0; j < na; j++)
            d[i] -= gy(G, j, i) / na;
        for (j = 0; j < nb; j++)
            d[i] += gy(G, na + j, i) / nb;
        mean += d[i] / K;
    }
    for (i = 0; i < K; i++)
        sd2 += K > 1 ? (d[i] - mean) * (d[i] - mean) / (K - 1) : 0.0;
    g->point_sd = stats_robust_sd(d, K, tmp);
    /* a point is apart from its run's median ratio: one point far off
     * moves the geometric mean, not the median */
    memcpy(tmp, d, (size_t)K * sizeof *tmp);
    qsort(tmp, (size_t)K, sizeof *tmp, cmp_double);
    centre = stats_quantile(tmp, K, 0.5);
    g->npoints = K;
    g->na = na;
    g->nb = nb;
    if (na + nb > 2) {
        double ss = 0.0, m;
        for (m = 0.0, j = 0; j < na; j++)
            m += gr[j] / na;
        for (j = 0; j < na; j++)
            ss += (gr[j] - m) * (gr[j] - m);
        for (m = 0.0, j = 0; j < nb; j++)
            m += gr[na + j] / nb;
        for (j = 0; j < nb; j++)
            ss += (gr[na + j] - m) * (gr[na + j] - m);
        g->df = na + nb - 2;
        g->run_sd = sqrt(ss / g->df);
        var = g->run_sd * g->run_sd * (1.0 / na + 1.0 / nb);
        snprintf(g->band_from, sizeof g->band_from, "the replicates themselves (%d and %d runs)",
                 na, nb);
    } else {
        double v;
        int n = archive_band(s, g, G, a0, s->opts.band, s->opts.nband, &v);
        if (n >= 3) {
            g->run_sd = sqrt(v);
            g->df = n - 1;
            snprintf(g->band_from, sizeof g->band_from,
                     "%d earlier runs of the same host and software in the archive", n);
        } else {
            int runs;
            g->run_sd = default_band(s, g, busy_a > busy_b ? busy_a : busy_b, &runs, g->band_from,
                                     sizeof g->band_from);
            g->df = runs - 1;
        }
        var = 2.0 * g->run_sd * g->run_sd + (K > 0 ? sd2 / K : 0.0);
    }
    t = stats_t_quantile(1.0 - s->opts.alpha / 2.0, g->df);
    g->ratio = exp(D);
    g->se = sqrt(var);
    g->lo = exp(D - t * g->se);
    g->hi = exp(D + t * g->se);
    g->raw_ratio = exp(D + G->shift);
    for (i = 0, g->median_ratio = 0.0; i < K; i++)
        g->median_ratio += s->points[G->pt[i]].lmed[g->view == FIT_RESIDENT ? 0 : 1] / K;
    g->median_ratio = exp(g->median_ratio - G->shift);
    g->verdict = compare_verdict_of(g->ratio, g->lo, g->hi, R);
    compare_group_why(s, g, R, busy_a, busy_b,
                      g->corrected && s->opts.correct == COMPARE_CORRECT_LOAD);
    if (g->corrected)
        compare_correction_alone(g, R, s->opts.correct);
    compare_medians_moved(g, R);
    /* the gate cannot pass on one side's spread alone (compare_gate.c),
     * and "no change" says no more than it */
    if (na + nb > 2 && (na < 2 || nb < 2) && g->verdict == CMP_UNCHANGED) {
        g->verdict = CMP_INCONCLUSIVE;
        snprintf(g->why, sizeof g->why,
                 "side %c has one run, whose spread is not measured: \"no change\" needs 2 "
                 "runs on each side",
                 na < 2 ? 'A' : 'B');
    }
    compare_group_gate(g, s->opts.alpha, R, na + nb > 2 ? COMPARE_MORE_RUNS : COMPARE_MORE_SINGLE);
    compare_group_text(g, R, g->corrected ? s->opts.correct : COMPARE_CORRECT_NONE);
    if (g->view == FIT_RESIDENT)
        judge_points(s, g, G, na + nb > 2 ? 0.0 : 2.0 * g->run_sd * g->run_sd, centre, d, tmp);
}

/* Collects group g's data and judges it; refa/refb the runs' log
 * references (subtracted when the group is corrected). */
static int do_group(compare_set *s, int gi, const results *a0, const results *b0,
                    const double *lref, double busy_a, double busy_b, err *e)
{
    compare_group *g = &s->groups[gi];
    const int na = s->na, nb = s->nb;
    gdata G = {0, na, nb, NULL, NULL, 0.0};
    double *work = NULL;
    int i, j, rc = BE_OK;
    G.y = malloc((size_t)(na + nb) * (size_t)(s->npoints + 1) * sizeof *G.y);
    G.pt = malloc((size_t)(s->npoints + 1) * sizeof *G.pt);
    work = malloc((size_t)(na + nb + 2 * s->npoints + 2) * sizeof *work);
    if (!G.y || !G.pt || !work) {
        rc = err_set(e, BE_EFAIL, "compare: out of memory");
        goto done;
    }
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        if (c->verdict != CMP_MISSING && c->mode == g->mode && strcmp(c->dev_a, g->dev_a) == 0 &&
            (g->view == FIT_RESIDENT || c->has_transfer))
            G.pt[G.K++] = i;
    }
    /* a pair is corrected by its pairing */
    g->corrected = g->kind_cpu && lref != NULL && !s->paired;
    if (g->corrected) {
        for (j = 0; j < nb; j++)
            G.shift += lref[na + j] / nb;
        for (j = 0; j < na; j++)
            G.shift -= lref[j] / na;
    }
    for (i = 0; i < G.K; i++) {
        const compare_point *c = &s->points[G.pt[i]];
        for (j = 0; j < na + nb; j++) {
            double v = g->view == FIT_RESIDENT ? (j < na ? c->la[j] : c->lb[j - na])
                                               : (j < na ? c->ta[j] : c->tb[j - na]);
            G.y[(size_t)j * (size_t)G.K + (size_t)i] = v - (g->corrected ? lref[j] : 0.0);
        }
    }
    if (s->paired)
        rc = compare_pair_judge(s, g, G.pt, G.K, a0, b0, busy_a, busy_b, work, e);
    else
        judge_group(s, g, &G, a0, busy_a, busy_b, work);
done:
    free(G.y);
    free(G.pt);
    free(work);
    return rc;
}

/* The runs' references into s, and each run's log correction into lcorr
 * (what opts.correct subtracts from its log times); *all 0 when some run
 * lacks what the correction needs. */
static void references(compare_set *s, const results *const *a, const results *const *b,
                       double *lcorr, int *all)
{
    double lref[2 * COMPARE_MAX_RUNS];
    int load_ok = 1;
    double la = 0.0, lb = 0.0, loop[2] = {0, 0}, stream[2] = {0, 0}, l, m;
    int j;
    *all = 1;
    for (j = 0; j < s->na + s->nb; j++) {
        const results *r = j < s->na ? a[j] : b[j - s->na];
        double v = run_reference(r, &l, &m);
        if (v <= 0.0) {
            *all = 0;
            continue;
        }
        lref[j] = log(v);
        if (j < s->na) {
            la += lref[j] / s->na;
            loop[0] += log(l) / s->na;
            stream[0] += log(m) / s->na;
        } else {
            lb += lref[j] / s->nb;
            loop[1] += log(l) / s->nb;
            stream[1] += log(m) / s->nb;
        }
    }
    if (*all) {
        s->ref_ratio = exp(lb - la);
        s->ref_loop = exp(loop[1] - loop[0]);
        s->ref_stream = exp(stream[1] - stream[0]);
    }
    for (j = 0; j < s->na + s->nb; j++) {
        const results *r = j < s->na ? a[j] : b[j - s->na];
        double f = run_others(r);
        if (s->opts.correct == COMPARE_CORRECT_LOAD) {
            load_ok = load_ok && f >= 0.0;
            lcorr[j] = compare_load_log(r);
        } else
            lcorr[j] = *all ? lref[j] : 0.0;
    }
    if (s->opts.correct == COMPARE_CORRECT_LOAD)
        *all = load_ok;
    else if (s->opts.correct == COMPARE_CORRECT_NONE)
        *all = 0;
}

/* The set's verdict and its one line. */
static void overall(compare_set *s)
{
    int i, inc = -1, slow = 0, fast = 0;
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        slow |= g->verdict == CMP_SLOWER;
        fast |= g->verdict == CMP_FASTER;
        if (g->verdict == CMP_INCONCLUSIVE && inc < 0)
            inc = i;
    }
    s->verdict = !s->ngroups ? CMP_MISSING
                 : slow      ? CMP_SLOWER
                 : inc >= 0  ? CMP_INCONCLUSIVE
                 : fast      ? CMP_FASTER
                             : CMP_UNCHANGED;
    compare_set_gate(s);
    if (inc >= 0)
        snprintf(s->why, sizeof s->why, "%s %s %s: %s", s->groups[inc].dev_a,
                 workload_mode_name(s->groups[inc].mode), fit_view_name(s->groups[inc].view),
                 s->groups[inc].why);
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        s->nfaster += c->verdict == CMP_FASTER;
        s->nslower += c->verdict == CMP_SLOWER;
        s->nunchanged += c->verdict == CMP_UNCHANGED;
        s->ninconclusive += c->verdict == CMP_INCONCLUSIVE;
        s->nmissing += c->verdict == CMP_MISSING;
        s->napart += c->apart != 0;
    }
}

static void ids_of(const results *const *r, int n, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    for (i = 0; i < n; i++)
        fmt_append(buf, size, "%s%s", i ? ", " : "", r[i]->prov.id);
}

/* "cpu (AMD EPYC): inference 256×16..1024×512 (12 points); ..." of a run. */
static void what_has(const results *r, char *buf, size_t size)
{
    const char *seen[16];
    int d, nn;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        int i, n = 0;
        for (i = 0; i < r->npoints; i++)
            n += strcmp(r->points[i].device, r->devices[d].id) == 0;
        fmt_append(buf, size, "%s%s (%.60s) %d points", d ? ", " : "", r->devices[d].id,
                   r->devices[d].name, n);
    }
    for (d = 0; d < r->npoints && r->points[d].sizes[0]; d++)
        ;
    /* a run of networks only: its <run> keeps the unused square defaults */
    if (d < r->npoints || r->npoints == 0)
        fmt_append(buf, size, " of %s, hidden %s, batch %s, %d layers", r->prov.modes,
                   r->prov.hidden, r->prov.batch, r->prov.layers);
    else
        fmt_append(buf, size, " of %s, batch %s", r->prov.modes, r->prov.batch);
    /* the networks, each once (a few in any run breakeven wrote) */
    for (d = 0, nn = 0; d < r->npoints && nn < 16; d++) {
        const char *sz = r->points[d].sizes;
        int j;
        for (j = 0; j < nn && strcmp(seen[j], sz) != 0; j++)
            ;
        if (!sz[0] || j < nn)
            continue;
        seen[nn++] = sz;
        fmt_append(buf, size, "%s%s", nn > 1 ? ", " : "; networks ", sz);
    }
}

/* The networks (sizes) of x that y lacks into buf, ", "-separated. */
static void only_nets(const results *x, const results *y, char *buf, size_t size)
{
    const char *seen[16];
    int i, j, n = 0;
    buf[0] = '\0';
    for (i = 0; i < x->npoints && n < 16; i++) {
        const char *sz = x->points[i].sizes;
        for (j = 0; j < n && strcmp(seen[j], sz) != 0; j++)
            ;
        if (!sz[0] || j < n)
            continue;
        seen[n++] = sz;
        for (j = 0; j < y->npoints && strcmp(y->points[j].sizes, sz) != 0; j++)
            ;
        if (j == y->npoints)
            fmt_append(buf, size, "%s%s", buf[0] ? ", " : "", sz);
    }
}

/* ok points of x that no point of the comparison covers. */
static int left_out(const compare_set *s, const results *x, int side)
{
    int i, j, n = 0;
    for (i = 0; i < x->npoints; i++) {
        const rs_point *p = &x->points[i];
        int found = 0;
        if (!q_ok(p))
            continue;
        for (j = 0; j < s->npoints && !found; j++) {
            const compare_point *c = &s->points[j];
            found = c->mode == p->mode && c->hidden == p->hidden && c->batch == p->batch &&
                    strcmp(c->sizes, p->sizes) == 0 &&
                    strcmp(side ? c->dev_b : c->dev_a, p->device) == 0;
        }
        n += !found;
    }
    return n;
}

/* The warnings of the runs rs[0..n) of side `side`, appended to out. */
static void side_warnings(const results *const *rs, int n, char side, compare_set *out)
{
    int i;
    for (i = 0; i < n; i++) {
        compare_warning *w = &out->warnings[out->nwarnings];
        char text[sizeof w->text];
        prose_flags(rs[i], text, sizeof text);
        if (!text[0])
            continue;
        if (out->nwarnings == COMPARE_MAX_WARNINGS) {
            out->warnings_more++;
            continue;
        }
        memcpy(w->text, text, sizeof text);
        w->side = side;
        snprintf(w->id, sizeof w->id, "%s", rs[i]->prov.id);
        out->nwarnings++;
    }
}

/* The quickest round trip of the runs a[0..na) and b[0..nb); 0 when none
 * recorded one. */
static double hop_quickest(const results *const *a, int na, const results *const *b, int nb)
{
    double x = q_runs_hop_quickest(a, na), y = q_runs_hop_quickest(b, nb);
    return x > 0.0 && (y == 0.0 || x < y) ? x : y;
}

/* The runs of one side to compare: all, or, when at least two of them ran
 * with the CPUs close (cachehop.h) and some a cache apart, the close ones
 * (into kept; the others named in s->hop_left).  Returns how many. */
static int near_side(compare_set *s, const results *const *in, int n, char side,
                     const results **kept)
{
    /* on two hosts, each side's runs are judged against its own quickest */
    const double quickest = s->same_host ? s->hop_min : q_runs_hop_quickest(in, n);
    int i, k = 0, near = 0;
    for (i = 0; i < n; i++)
        near += !cachehop_apart(q_run_hop(in[i]), quickest);
    for (i = 0; i < n; i++) {
        double h = q_run_hop(in[i]);
        if (near < 2 || near == n || !cachehop_apart(h, quickest))
            kept[k++] = in[i];
        else
            fmt_append(s->hop_left, sizeof s->hop_left, "%s%c%d %s (%.0f ns)",
                       s->hop_left[0] ? ", " : "", side, i + 1, in[i]->prov.id, h * 1e9);
    }
    return k;
}

/* The median round trip of runs r[0..n) (0: none recorded). */
static double side_hop(const results *const *r, int n)
{
    double v[COMPARE_MAX_RUNS];
    int i, k = 0;
    for (i = 0; i < n; i++)
        if ((v[k] = q_run_hop(r[i])) > 0.0)
            k++;
    return k ? stats_median(v, k) : 0.0;
}

int compare_sets(const results *const *a, int na, const results *const *b, int nb,
                 const compare_opts *o, compare_set *out, err *e)
{
    double lref[2 * COMPARE_MAX_RUNS], busy_a, busy_b;
    const results *kept_a[COMPARE_MAX_RUNS], *kept_b[COMPARE_MAX_RUNS];
    int i, rc, all, nok = 0;
    double logsum = 0.0;

    memset(out, 0, sizeof *out);
    if (na < 1 || nb < 1 || na > COMPARE_MAX_RUNS || nb > COMPARE_MAX_RUNS)
        return err_set(e, BE_EUSAGE, "compare: 1 to %d runs per side", COMPARE_MAX_RUNS);
    for (i = 1; i < na; i++)
        if ((rc = same_settings(a[0], a[i], 'A', e)) < 0)
            return rc;
    for (i = 1; i < nb; i++)
        if ((rc = same_settings(b[0], b[i], 'B', e)) < 0)
            return rc;
    out->opts = *o;
    out->paired = na == 1 && nb == 1 && compare_pair_of(a[0], b[0]);
    out->same_host = 1;
    for (i = 1; i < na + nb; i++)
        out->same_host =
            out->same_host && strcmp((i < na ? a[i] : b[i - na])->prov.host, a[0]->prov.host) == 0;
    /* runs whose CPUs were a cache apart, where a side has two others */
    out->hop_min = hop_quickest(a, na, b, nb);
    na = near_side(out, a, na, 'A', kept_a);
    nb = near_side(out, b, nb, 'B', kept_b);
    a = kept_a;
    b = kept_b;
    out->hop_a = side_hop(a, na);
    out->hop_b = side_hop(b, nb);
    out->na = na;
    out->nb = nb;
    snprintf(out->id_a, sizeof out->id_a, "%s", a[0]->prov.id);
    snprintf(out->id_b, sizeof out->id_b, "%s", b[0]->prov.id);
    ids_of(a, na, out->ids_a, sizeof out->ids_a);
    ids_of(b, nb, out->ids_b, sizeof out->ids_b);
    if ((rc = match_points(a, na, b, nb, out, e)) < 0) {
        compare_free(out);
        return rc;
    }
    if (out->npoints == 0) {
        char wa[700], wb[700];
        what_has(a[0], wa, sizeof wa);
        what_has(b[0], wb, sizeof wb);
        compare_free(out);
        return err_set(
            e, BE_EUSAGE,
            "runs %s and %s have no point in common (same device, mode, network, layers, "
            "hidden and batch): A has %s; B has %s",
            a[0]->prov.id, b[0]->prov.id, wa, wb);
    }
    out->left_a = left_out(out, a[0], 0);
    out->left_b = left_out(out, b[0], 1);
    only_nets(a[0], b[0], out->only_nets[0], sizeof out->only_nets[0]);
    only_nets(b[0], a[0], out->only_nets[1], sizeof out->only_nets[1]);
    references(out, a, b, lref, &all);
    busy_a = side_others(a, na);
    busy_b = side_others(b, nb);
    for (i = 0; i < out->npoints; i++) {
        const compare_point *c = &out->points[i];
        if (c->verdict == CMP_MISSING)
            continue;
        logsum += log(c->ratio);
        nok++;
        group_of(out, c, FIT_RESIDENT, a[0]);
        if (c->has_transfer)
            group_of(out, c, FIT_TRANSFER, a[0]);
    }
    out->geomean = nok ? exp(logsum / nok) : 0.0;
    for (i = 0; i < out->ngroups; i++)
        if ((rc = do_group(out, i, a[0], b[0], all ? lref : NULL, busy_a, busy_b, e)) < 0) {
            compare_free(out);
            return rc;
        }
    compare_count_lost(out, a, na, b, nb);
    overall(out);
    compare_crossovers(a[0], b[0], out);
    out->ndiffs = compare_provenance(a[0], b[0], out->diffs, COMPARE_MAX_DIFFS);
    side_warnings(a, na, 'A', out);
    side_warnings(b, nb, 'B', out);
    return BE_OK;
}

int compare_runs(const results *a, const results *b, compare_set *out, err *e)
{
    compare_opts o;
    compare_opts_default(&o);
    return compare_sets(&a, 1, &b, 1, &o, out, e);
}
