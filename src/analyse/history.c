/*
 * history.c — the archive read as series over runs (see history.h).
 *
 * Built in three steps: every run is filed into the series of each of its
 * (base, other device, mode) pairs; each series' values are read from its
 * runs (the stored fit's per-width crossovers, the fastest points); then
 * every sub-series goes through changes_find, and each step found is
 * written as one sentence naming the run, the size and what changed in the
 * provenance there.  The sentences are the only words about changes:
 * the history page, the run's report and the feed all print these.
 */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachehop.h"
#include "compare.h"
#include "devinfo.h"
#include "fmt.h"
#include "query.h"
#include "workload.h"

static void series_free(hist_series *s)
{
    free(s->runs);
    free(s->arch);
    free(s->label);
    free(s->cross);
    free(s->peak[0]);
    free(s->peak[1]);
    free(s->level[0]);
    free(s->level[1]);
    free(s->changes);
}

void history_free(history *h)
{
    int i;
    for (i = 0; i < h->n; i++)
        series_free(&h->s[i]);
    free(h->s);
    h->s = NULL;
    h->n = 0;
}

/* ---- filing the runs ------------------------------------------------- */

/* The series of (host, mode, base, other) in h, made when missing; NULL
 * when out of memory. */
static hist_series *series_of(history *h, int *cap, const results *r, wl_mode m,
                              const device_info *b, const device_info *o)
{
    hist_series *s;
    int i;
    for (i = 0; i < h->n; i++) {
        s = &h->s[i];
        char fp[16];
        q_machine_print(r, fp, sizeof fp);
        if (s->mode == m && strcmp(s->host, q_machine_name(r)) == 0 &&
            strcmp(s->machine, fp) == 0 && strcmp(s->base, b->id) == 0 &&
            strcmp(s->other, o->id) == 0 && strcmp(s->base_name, b->name) == 0 &&
            strcmp(s->other_name, o->name) == 0)
            return s;
    }
    if (h->n == *cap) {
        int nc = *cap ? 2 * *cap : 8;
        hist_series *v = realloc(h->s, (size_t)nc * sizeof *v);
        if (!v)
            return NULL;
        h->s = v;
        *cap = nc;
    }
    s = &h->s[h->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->host, sizeof s->host, "%s", q_machine_name(r));
    q_machine_print(r, s->machine, sizeof s->machine);
    s->mode = m;
    snprintf(s->base, sizeof s->base, "%s", b->id);
    snprintf(s->other, sizeof s->other, "%s", o->id);
    snprintf(s->base_name, sizeof s->base_name, "%s", b->name);
    snprintf(s->other_name, sizeof s->other_name, "%s", o->name);
    return s;
}

/* Appends archive run k to s (runs come oldest first). */
static int series_add(hist_series *s, const results *r, int k)
{
    const results **rv = realloc(s->runs, (size_t)(s->nruns + 1) * sizeof *rv);
    int *av;
    if (!rv)
        return BE_EFAIL;
    s->runs = rv;
    if (!(av = realloc(s->arch, (size_t)(s->nruns + 1) * sizeof *av)))
        return BE_EFAIL;
    s->arch = av;
    s->runs[s->nruns] = r;
    s->arch[s->nruns++] = k;
    return BE_OK;
}

static int file_runs(const archive *a, history *h, err *e)
{
    int k, d, m, cap = 0;
    for (k = 0; k < a->n; k++) {
        const results *r = a->v[k].r;
        if (r->ndevices < 2)
            continue;
        for (d = 0; d < r->ndevices; d++) {
            /* against its own base, as its crossovers are (q_base_for) */
            const device_info *b = &r->devices[q_base_for(r, d)], *o = &r->devices[d];
            if (o == b)
                continue;
            for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
                hist_series *s;
                /* a series follows the square stack: a run of networks
                 * alone would read as a step in its peak and crossovers */
                if (!q_has_mode(r, b->id, (wl_mode)m) || !q_has_mode(r, o->id, (wl_mode)m) ||
                    !q_has_square(r, (wl_mode)m))
                    continue;
                if (!(s = series_of(h, &cap, r, (wl_mode)m, b, o)) || series_add(s, r, k) < 0)
                    return err_set(e, BE_EFAIL, "out of memory");
            }
        }
    }
    return BE_OK;
}

static int cmp_series(const void *pa, const void *pb)
{
    const hist_series *a = pa, *b = pb;
    int c = strcmp(a->host, b->host);
    if (c)
        return c;
    if (a->mode != b->mode)
        return a->mode < b->mode ? -1 : 1;
    if ((c = strcmp(a->base, b->base)) || (c = strcmp(a->other, b->other)) ||
        (c = strcmp(a->base_name, b->base_name)))
        return c;
    return strcmp(a->other_name, b->other_name);
}

/* ---- the values ------------------------------------------------------ */

static void add_width(hist_series *s, int hidden)
{
    int i;
    for (i = 0; i < s->nwidths; i++)
        if (s->hidden[i] == hidden)
            return;
    if (s->nwidths == LIST_MAX)
        return;
    for (i = s->nwidths; i > 0 && s->hidden[i - 1] > hidden; i--)
        s->hidden[i] = s->hidden[i - 1];
    s->hidden[i] = hidden;
    s->nwidths++;
}

/* The resident time crossover of the series' pair in run i, or NULL. */
static const fit_crossover *cross_of(const hist_series *s, int i)
{
    return q_cross(q_fit(s->runs[i]), s->base, s->other, s->mode, FIT_RESIDENT, 0);
}

/* A crossover's value: only in range and with its interval (fits of
 * analysis 1 have none: `breakeven refit` gives them one). */
static void cross_value(const fit_hidden_cross *c, hist_value *v)
{
    v->kind = c->kind;
    v->has = c->kind == CROSS_IN_RANGE && c->batch > 0.0 && c->batch_lo > 0.0 &&
             c->batch_lo <= c->batch && c->batch <= c->batch_hi && isfinite(c->batch_hi);
    v->v = c->batch;
    v->lo = c->batch_lo;
    v->hi = c->batch_hi;
    v->lo_open = c->lo_open;
    v->hi_open = c->hi_open;
}

/* The fastest usable point of dev in mode m: its GFLOP/s, and the
 * interval of its median step time read as GFLOP/s (never a point above
 * the device's peak, q_beyond_peak). */
static void peak_value(const results *r, const char *dev, wl_mode m, hist_value *v)
{
    int i;
    memset(v, 0, sizeof *v);
    v->kind = CROSS_UNKNOWN;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        double g;
        if (p->mode != m || strcmp(p->device, dev) != 0 || !q_ok(p) || p->resident.ci_lo <= 0.0 ||
            q_beyond_peak(r, p) || p->net[0])
            continue;
        g = results_gflops(p, p->resident.median);
        if (!v->has || g > v->v) {
            v->has = 1;
            v->v = g;
            v->lo = results_gflops(p, p->resident.ci_hi);
            v->hi = results_gflops(p, p->resident.ci_lo);
            v->hidden = p->hidden;
            v->batch = p->batch;
        }
    }
    v->has = v->has && v->lo > 0.0 && v->lo <= v->v && v->v <= v->hi && isfinite(v->hi);
}

/* The run-level step time of dev in mode m over the series' runs into
 * v[0..nruns): over the points of the first run that every run measured
 * ok, each run's mean log time (q_level) relative to the points' mean
 * over the runs, as a ratio, corrected for the load on devices that
 * compute on the CPU (compare.h), and none for a run whose CPUs were a
 * cache apart;
 * the number of points into *npts (none below 3). */
static int level_values(const hist_series *s, const char *dev, wl_mode m, hist_value *v, int *npts)
{
    const results *r0 = s->runs[0];
    const device_info *d = results_device(r0, dev);
    const int cpu = d && devinfo_on_host(d);
    double *g = calloc((size_t)s->nruns, sizeof *g), *y = malloc((size_t)s->nruns * sizeof *y);
    double quickest = 0.0;
    int i, k, n = 0;
    *npts = 0;
    if (!g || !y) {
        free(g);
        free(y);
        return BE_EFAIL;
    }
    for (i = 0; i < r0->npoints; i++) {
        const rs_point *p = &r0->points[i];
        double c = 0.0;
        int ok = p->mode == m && strcmp(p->device, dev) == 0 && q_ok(p);
        for (k = 0; ok && k < s->nruns; k++) {
            /* the same workload: a network only as itself (its sizes) */
            const rs_point *q =
                q_point_net(s->runs[k], dev, m, p->layers, p->hidden, p->batch, p->sizes);
            ok = q && q_ok(q);
            /* the step time compare compares, corrected for the load as
             * compare corrects by default */
            if (ok)
                c += (y[k] = log(q_level(q, FIT_RESIDENT)) -
                             (cpu ? compare_load_log(s->runs[k]) : 0.0)) /
                     s->nruns;
        }
        if (!ok)
            continue;
        for (k = 0; k < s->nruns; k++)
            g[k] += y[k] - c;
        n++;
    }
    if (cpu)
        quickest = q_runs_hop_quickest(s->runs, s->nruns);
    for (k = 0; k < s->nruns; k++) {
        memset(&v[k], 0, sizeof v[k]);
        v[k].kind = CROSS_UNKNOWN;
        /* a run whose CPUs were a cache apart (cachehop.h) is no level
         * of a device on them: it can be slower for that alone, by up to
         * COMPARE_APART_REACH as far as it was measured */
        v[k].has = n >= 3 && !cachehop_apart(q_run_hop(s->runs[k]), quickest);
        v[k].v = v[k].lo = v[k].hi = n ? exp(g[k] / n) : 1.0;
    }
    *npts = n;
    free(g);
    free(y);
    return BE_OK;
}

/* "breakeven version 0.1.0 → 0.2.0; cl:0.0 driver 535 → 550" */
static void label_of(const results *a, const results *b, char *buf, size_t size)
{
    compare_diff d[COMPARE_MAX_DIFFS];
    int n = compare_provenance(a, b, d, COMPARE_MAX_DIFFS), i;
    buf[0] = '\0';
    for (i = 0; i < n; i++)
        fmt_append(buf, size, "%s%s %s \xe2\x86\x92 %s", i ? "; " : "", d[i].what,
                   d[i].a[0] ? d[i].a : "(none)", d[i].b[0] ? d[i].b : "(none)");
    if (!n)
        snprintf(buf, size, "nothing");
}

static int fill_values(hist_series *s, err *e)
{
    int i, w;
    size_t n = (size_t)s->nruns;
    for (i = 0; i < s->nruns; i++) {
        const fit_crossover *c = cross_of(s, i);
        for (w = 0; c && w < c->nhidden; w++)
            add_width(s, c->per_hidden[w].hidden);
    }
    s->label = calloc(n, sizeof *s->label);
    s->peak[0] = calloc(n, sizeof *s->peak[0]);
    s->peak[1] = calloc(n, sizeof *s->peak[1]);
    s->level[0] = calloc(n, sizeof *s->level[0]);
    s->level[1] = calloc(n, sizeof *s->level[1]);
    s->cross = calloc(n * (size_t)(s->nwidths ? s->nwidths : 1), sizeof *s->cross);
    if (!s->label || !s->peak[0] || !s->peak[1] || !s->cross || !s->level[0] || !s->level[1] ||
        level_values(s, s->base, s->mode, s->level[0], &s->nlevel[0]) < 0 ||
        level_values(s, s->other, s->mode, s->level[1], &s->nlevel[1]) < 0)
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < s->nruns; i++) {
        const fit_crossover *c = cross_of(s, i);
        hist_value *row = &s->cross[(size_t)i * (size_t)s->nwidths];
        for (w = 0; w < s->nwidths; w++)
            row[w].kind = CROSS_UNKNOWN;
        for (w = 0; c && w < c->nhidden; w++) {
            int k;
            for (k = 0; k < s->nwidths && s->hidden[k] != c->per_hidden[w].hidden; k++)
                ;
            if (k < s->nwidths)
                cross_value(&c->per_hidden[w], &row[k]);
        }
        peak_value(s->runs[i], s->base, s->mode, &s->peak[0][i]);
        peak_value(s->runs[i], s->other, s->mode, &s->peak[1][i]);
        if (i > 0)
            label_of(s->runs[i - 1], s->runs[i], s->label[i], HIST_LABEL);
    }
    return BE_OK;
}

/* ---- the changes ----------------------------------------------------- */

/* The characters (not bytes) of UTF-8 text s. */
static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The change's headline (a feed item's title): the most of it that a
 * link preview shows whole (HIST_TITLE_MAX), devices by name (dev: the
 * one that moved, base: the pair's base), batches whole. */
static void change_title(const hist_series *s, hist_change *c, const char *dev, const char *base,
                         double pct)
{
    char k[3][sizeof c->title];
    const char *mode = workload_mode_name(s->mode);
    const double after = ceil(c->step.after - 1e-9), before = ceil(c->step.before - 1e-9);
    int i;
    if (c->what == HIST_CROSS) {
        snprintf(k[0], sizeof k[0],
                 "%s: %s now beats %s from batch %.0f at hidden %d (%s, was %.0f)", s->host, dev,
                 base, after, c->hidden, mode, before);
        snprintf(k[1], sizeof k[1], "%s now beats %s from batch %.0f at hidden %d (was %.0f)", dev,
                 base, after, c->hidden, before);
        snprintf(k[2], sizeof k[2], "%s now wins from batch %.0f at hidden %d (was %.0f)", dev,
                 after, c->hidden, before);
    } else {
        const char *what = c->what == HIST_LEVEL ? "step times" : "peak throughput";
        snprintf(k[0], sizeof k[0], "%s: %s %s %s %+.0f%%%s", s->host, dev, mode, what, pct,
                 c->what == HIST_LEVEL ? " over the whole run" : "");
        snprintf(k[1], sizeof k[1], "%s %s %s %+.0f%%", dev, mode, what, pct);
        snprintf(k[2], sizeof k[2], "%s %s %+.0f%%", dev, what, pct);
    }
    for (i = 0; i < 2 && text_chars(k[i]) > HIST_TITLE_MAX; i++)
        ;
    snprintf(c->title, sizeof c->title, "%s", k[i]);
}

/* The change's sentence. */
static void change_text(const hist_series *s, hist_change *c)
{
    const results *r = s->runs[c->at];
    const chg_step *st = &c->step;
    char date[64], before[48], after[48], dev[256], base[256], *t = c->text;
    size_t size = sizeof c->text;
    double pct = 100.0 * (st->ratio - 1.0), lo = 100.0 * (st->ratio_lo - 1.0),
           hi = 100.0 * (st->ratio_hi - 1.0);
    int reach = c->at - c->at_lo > c->at_hi - c->at ? c->at - c->at_lo : c->at_hi - c->at;
    fmt_date(date, sizeof date, r->prov.started);
    /* the devices by name (q_device_name, in the newest run), a sentence
     * for each thing said: what moved, how it is measured, its cause */
    q_device_name(s->runs[s->nruns - 1], c->device ? s->other : s->base, dev, sizeof dev);
    q_device_name(s->runs[s->nruns - 1], s->base, base, sizeof base);
    change_title(s, c, dev, base, pct);
    if (c->what == HIST_LEVEL) {
        snprintf(t, size,
                 "%s, %s: the run's step times %s %.0f%% (95%% interval %+.0f%% to %+.0f%%; %d "
                 "runs before, %d after)",
                 dev, workload_mode_name(s->mode), pct >= 0 ? "rose" : "fell", fabs(pct), lo, hi,
                 st->nbefore, st->nafter);
    } else if (c->what == HIST_CROSS) {
        fmt_sig(before, sizeof before, st->before, 3);
        fmt_sig(after, sizeof after, st->after, 3);
        snprintf(t, size,
                 "%s, %s, hidden %d: the crossover with %s moved from batch %s to %s (%s%.0f%%, "
                 "95%% interval %+.0f%% to %+.0f%%; %d runs before, %d after)",
                 dev, workload_mode_name(s->mode), c->hidden, base, before, after,
                 pct >= 0 ? "+" : "", pct, lo, hi, st->nbefore, st->nafter);
    } else {
        fmt_si(before, sizeof before, st->before * 1e9, 3, "FLOP/s");
        fmt_si(after, sizeof after, st->after * 1e9, 3, "FLOP/s");
        snprintf(t, size,
                 "%s, %s: peak throughput %s %.0f%% (95%% interval %+.0f%% to %+.0f%%), "
                 "%s \xe2\x86\x92 %s (%d runs before, %d after)",
                 dev, workload_mode_name(s->mode), pct >= 0 ? "rose" : "fell", fabs(pct), lo, hi,
                 before, after, st->nbefore, st->nafter);
    }
    fmt_append(t, size, ", from run %s (%s) on %s", r->prov.id, date, s->host);
    if (reach)
        fmt_append(t, size, " (\xc2\xb1%d run%s)", reach, reach == 1 ? "" : "s");
    fmt_append(t, size, ".");
    if (c->what == HIST_LEVEL)
        fmt_append(t, size,
                   " A run's step times are their 10th percentiles' geometric mean over the %d "
                   "points every run measured.",
                   s->nlevel[c->device]);
    if (c->cause == c->at)
        fmt_append(t, size, " Likely cause, recorded there: %s.", s->label[c->cause]);
    else if (c->cause >= 0)
        fmt_append(t, size, " Likely cause: run %s, %d run%s %s, set %s.",
                   s->runs[c->cause]->prov.id, abs(c->cause - c->at),
                   abs(c->cause - c->at) == 1 ? "" : "s", c->cause > c->at ? "later" : "earlier",
                   s->label[c->cause]);
    else if (reach)
        fmt_append(t, size,
                   " Nothing in its provenance changed within %d run%s of it (the machine, or "
                   "something breakeven does not record).",
                   reach, reach == 1 ? "" : "s");
    else
        fmt_append(t, size,
                   " Nothing in its provenance changed there (the machine, or something "
                   "breakeven does not record).");
}

/* The likely cause of change c: of the runs where the data may put its
 * start (c->at_lo..c->at_hi), the one whose recorded setup changed
 * nearest c->at, the earlier of two as near; −1 when none did.  The one
 * place a change is tied to what was done to the machine. */
static int change_cause(const hist_series *s, const hist_change *c)
{
    int d;
    for (d = 0; c->at - d >= c->at_lo || c->at + d <= c->at_hi; d++) {
        if (c->at - d >= c->at_lo && c->at - d > 0 && strcmp(s->label[c->at - d], "nothing") != 0)
            return c->at - d;
        if (c->at + d <= c->at_hi && strcmp(s->label[c->at + d], "nothing") != 0)
            return c->at + d;
    }
    return -1;
}

/* Finds the changes of one sub-series: values vals[0..nruns) (has set
 * where there is one); appended to s->changes. */
static int find_in(hist_series *s, const hist_value *vals, size_t stride, hist_what what,
                   int hidden, int dev, int *cap, err *e)
{
    chg_value *x = malloc((size_t)s->nruns * sizeof *x);
    int *run = malloc((size_t)s->nruns * sizeof *run),
        *known = calloc((size_t)s->nruns, sizeof *known);
    chg_step st[CHG_MAX];
    int i, n = 0, ns = 0, rc;
    if (!x || !run || !known) {
        rc = err_set(e, BE_EFAIL, "out of memory");
        goto done;
    }
    for (i = 0; i < s->nruns; i++) {
        const hist_value *v = &vals[(size_t)i * stride];
        if (!v->has)
            continue;
        x[n].v = v->v;
        x[n].lo = v->lo;
        x[n].hi = v->hi;
        run[n++] = i;
    }
    /* a recorded change between two values: at any run since the last */
    for (i = 1; i < n; i++) {
        int k;
        for (k = run[i - 1] + 1; k <= run[i] && !known[i]; k++)
            known[i] = strcmp(s->label[k], "nothing") != 0;
    }
    if ((rc = changes_find(x, known, n, st, CHG_MAX, &ns, e)) < 0)
        goto done;
    for (i = 0; i < ns; i++) {
        hist_change *c;
        if (s->nchanges == *cap) {
            int nc = *cap ? 2 * *cap : 4;
            hist_change *v = realloc(s->changes, (size_t)nc * sizeof *v);
            if (!v) {
                rc = err_set(e, BE_EFAIL, "out of memory");
                goto done;
            }
            s->changes = v;
            *cap = nc;
        }
        c = &s->changes[s->nchanges++];
        memset(c, 0, sizeof *c);
        c->what = what;
        c->hidden = hidden;
        c->device = dev;
        c->at = run[st[i].at];
        /* the runs between two values (none of them one) belong to the
         * later: the level may have started at any of them */
        c->at_lo = run[st[i].at_lo - 1] + 1;
        c->at_hi = run[st[i].at_hi];
        c->step = st[i];
        c->cause = change_cause(s, c);
        if (what == HIST_CROSS)
            snprintf(c->key, sizeof c->key, "crossover-%d", hidden);
        else if (what == HIST_LEVEL)
            snprintf(c->key, sizeof c->key, "level-%s", dev ? s->other : s->base);
        else
            snprintf(c->key, sizeof c->key, "peak-%s", dev ? s->other : s->base);
        change_text(s, c);
    }
done:
    free(x);
    free(run);
    free(known);
    return rc;
}

static int cmp_change(const void *pa, const void *pb)
{
    const hist_change *a = pa, *b = pb;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return strcmp(a->key, b->key);
}

static int find_changes(hist_series *s, err *e)
{
    int w, d, cap = 0, rc;
    for (w = 0; w < s->nwidths; w++)
        if ((rc = find_in(s, &s->cross[w], (size_t)s->nwidths, HIST_CROSS, s->hidden[w], 0, &cap,
                          e)) < 0)
            return rc;
    for (d = 0; d < 2; d++)
        if ((rc = find_in(s, s->peak[d], 1, HIST_PEAK, 0, d, &cap, e)) < 0 ||
            (rc = find_in(s, s->level[d], 1, HIST_LEVEL, 0, d, &cap, e)) < 0)
            return rc;
    if (s->nchanges > 1)
        qsort(s->changes, (size_t)s->nchanges, sizeof *s->changes, cmp_change);
    return BE_OK;
}

/* Two machines that share a host name are told apart by their fingerprint
 * in the name every page shows ("twin [3fa2c1d0]"). */
static int tell_twins_apart(history *h, err *e)
{
    char *twin = calloc((size_t)h->n + 1, 1);
    int i, j;
    if (!twin)
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < h->n; i++)
        for (j = 0; j < h->n; j++)
            twin[i] |= strcmp(h->s[j].host, h->s[i].host) == 0 &&
                       strcmp(h->s[j].machine, h->s[i].machine) != 0;
    for (i = 0; i < h->n; i++)
        if (twin[i])
            fmt_append(h->s[i].host, sizeof h->s[i].host, " [%s]", h->s[i].machine);
    free(twin);
    return BE_OK;
}

int history_make(const archive *a, history *h, err *e)
{
    int i, rc;
    memset(h, 0, sizeof *h);
    if ((rc = file_runs(a, h, e)) < 0 || (rc = tell_twins_apart(h, e)) < 0)
        return rc;
    if (h->n > 1)
        qsort(h->s, (size_t)h->n, sizeof *h->s, cmp_series);
    for (i = 0; i < h->n; i++) {
        snprintf(h->s[i].anchor, sizeof h->s[i].anchor, "s%d", i + 1);
        if ((rc = fill_values(&h->s[i], e)) < 0 || (rc = find_changes(&h->s[i], e)) < 0)
            return rc;
    }
    return BE_OK;
}
