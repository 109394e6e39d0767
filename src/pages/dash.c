/*
 * dash.c — runs and comparisons as dashboards' JSON (dash.h).
 *
 * The formats' rules, read in their own sources: Bencher's BMF schema
 * (bencherdev/bencher, services/console/public/v0/bmf.json: an object of
 * benchmarks, each an object of measures, each {"value"} with optional
 * "lower_value" and "upper_value", all numbers) and github-action-benchmark's
 * parser (benchmark-action/github-action-benchmark, src/extract.ts: an
 * array of {"name", "value", "unit"} with optional "range" and "extra",
 * "value" a number, the others strings; an empty array is refused).
 * tests/test_dash checks every output against both.
 */
#define _POSIX_C_SOURCE 200809L
#include "dash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "fit.h"
#include "json.h"
#include "query.h"
#include "workload.h"

#define DASH_NAME 512

/* One measure of a benchmark: lo and hi NAN when it has no interval;
 * slug NULL for a value only github-action-benchmark writes (BMF's own
 * measure of it follows). */
typedef struct dash_measure {
    const char *slug; /* BMF's measure: "latency", "throughput", "ratio", "batch" */
    double value, lo, hi;
} dash_measure;

/* Where the entries go: f, in format fmt; n entries written so far, their
 * names names[0..n) (a name made twice is refused, never written twice
 * nor dropped: dup is the first, oom set when a name could not be kept). */
typedef struct dash_sink {
    FILE *f;
    dash_format fmt;
    int n, cap;
    char **names;
    char dup[DASH_NAME];
    int oom;
} dash_sink;

/* BMF's measure that flags an interval too wide to inform (q_ci_uninformative):
 * value 1, beside the value whose bounds are then left out.  Bencher makes a
 * measure it does not know from its slug; a slug is at most 64 characters. */
#define DASH_FLAG "uninformative-interval"

const char *dash_format_name(dash_format f)
{
    return f == DASH_GAB ? "github-action-benchmark" : "bmf";
}

/* An interval is published only when it is one: finite, positive and
 * around the value (else the value goes alone, never with made-up ends). */
static int has_bounds(const dash_measure *m)
{
    return isfinite(m->lo) && isfinite(m->hi) && m->lo > 0 && m->lo <= m->value &&
           m->value <= m->hi;
}

/* Whether name is new to s (then kept): 0 for a name made before (the
 * first such in s->dup) or one that could not be kept (s->oom). */
static int name_take(dash_sink *s, const char *name)
{
    int i;
    if (s->dup[0] || s->oom)
        return 0;
    for (i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) {
            snprintf(s->dup, sizeof s->dup, "%s", name);
            return 0;
        }
    if (s->n == s->cap) {
        int nc = s->cap ? 2 * s->cap : 64;
        char **v = realloc(s->names, (size_t)nc * sizeof *v);
        if (!v) {
            s->oom = 1;
            return 0;
        }
        s->names = v;
        s->cap = nc;
    }
    if (!(s->names[s->n] = strdup(name))) {
        s->oom = 1;
        return 0;
    }
    return 1;
}

/* One benchmark: in BMF its measures m[0..nm) with a slug and a finite,
 * positive value; for github-action-benchmark m[0] only, the one where
 * smaller is better, with its unit, its interval at level (a fraction) as
 * range, and extra (the tooltip's lines).  An interval too wide to inform
 * (m[0]'s, which the others' turn over) is never shown as one: BMF gets
 * the measure DASH_FLAG and no bounds, github-action-benchmark no range
 * and a line in extra. */
static void dash_entry(dash_sink *s, const char *name, const dash_measure *m, int nm,
                       const char *unit, double level, const char *extra)
{
    const int flagged = !isnan(m[0].lo) && q_ci_uninformative(m[0].lo, m[0].hi);
    int k, first = 1;
    if (!(isfinite(m[0].value) && m[0].value > 0) || !name_take(s, name))
        return;
    fputs(s->n++ ? ",\n  " : "\n  ", s->f);
    if (s->fmt == DASH_GAB) {
        fputs("{\"name\": ", s->f);
        json_string(s->f, name);
        json_member_string(s->f, "unit", unit);
        json_member_number(s->f, "value", m[0].value);
        if (!flagged && has_bounds(&m[0])) {
            char range[160];
            snprintf(range, sizeof range, "%.0f%% interval %.6g to %.6g", 100.0 * level, m[0].lo,
                     m[0].hi);
            json_member_string(s->f, "range", range);
        }
        if (flagged) {
            char more[1100];
            snprintf(more, sizeof more,
                     "%s\ninterval uninformative (an end at 0, open or not finite, or the "
                     "upper over %gx the lower)",
                     extra, Q_UNINFORMATIVE);
            json_member_string(s->f, "extra", more);
        } else
            json_member_string(s->f, "extra", extra);
        fputc('}', s->f);
        return;
    }
    json_string(s->f, name);
    fputs(": {", s->f);
    for (k = 0; k < nm; k++) {
        if (!m[k].slug || !(isfinite(m[k].value) && m[k].value > 0))
            continue;
        fprintf(s->f, "%s\"%s\": {\"value\": ", first ? "" : ", ", m[k].slug);
        json_number(s->f, m[k].value);
        if (!flagged && has_bounds(&m[k])) {
            json_member_number(s->f, "lower_value", m[k].lo);
            json_member_number(s->f, "upper_value", m[k].hi);
        }
        fputc('}', s->f);
        first = 0;
    }
    if (flagged)
        fputs(", \"" DASH_FLAG "\": {\"value\": 1}", s->f);
    fputc('}', s->f);
}

/* The summary of view v of p. */
static const stats_summary *summary_of(const rs_point *p, fit_view v)
{
    return v == FIT_WHOST ? &p->whost : v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

/* p's workload: "l4/h1024" for the square stack, "mnist-mlp/784-512-256-10"
 * for a named network, "784-512-256-10" for one named by its sizes */
static void shape_name(char *buf, size_t size, const rs_point *p)
{
    if (!p->sizes[0])
        snprintf(buf, size, "l%d/h%d", p->layers, p->hidden);
    else if (strcmp(p->net, p->sizes) != 0)
        snprintf(buf, size, "%s/%s", p->net, p->sizes);
    else
        snprintf(buf, size, "%s", p->sizes);
}

/* "inference/resident/l4/h1024/b256/cpu", ".../mnist-mlp/784-512-256-10/b256/cpu",
 * machine "" or a machine's name before the device */
static void point_name(char *buf, size_t size, const rs_point *p, fit_view v, const char *machine)
{
    char shape[NET_NAME_MAX + NET_SIZES_MAX + 2];
    shape_name(shape, sizeof shape, p);
    snprintf(buf, size, "%s/%s/%s/b%d/%s%s%s", workload_mode_name(p->mode), fit_view_name(v), shape,
             p->batch, machine, machine[0] ? "/" : "", p->device);
}

/* View v of the usable point p of run r: its latency and throughput. */
static void point_entry(dash_sink *s, const results *r, const rs_point *p, fit_view v,
                        const char *machine)
{
    const stats_summary *st = summary_of(p, v);
    const double t = q_median(p, v), batch = p->batch;
    /* a throughput above the device's known peak cannot be true: not
     * published (query.h), while the time measured still is */
    const int shown = isfinite(q_gflops_shown(results_device(r, p->device), p, t));
    dash_measure m[2] = {
        {"latency", t * 1e9, st->ci_lo * 1e9, st->ci_hi * 1e9},
        {"throughput", shown ? batch / t : NAN, batch / st->ci_hi, batch / st->ci_lo}};
    char name[DASH_NAME], extra[400];
    point_name(name, sizeof name, p, v, machine);
    snprintf(extra, sizeof extra, "run %s\n%d samples", r->prov.id, st->n);
    if (shown)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "\n%.6g samples/s",
                 m[1].value);
    dash_entry(s, name, m, 2, "ns", st->ci_level > 0 ? st->ci_level : 0.95, extra);
}

static const fit_view dash_views[] = {FIT_RESIDENT, FIT_TRANSFER, FIT_WHOST};

/* Whether p is the one point of r published for its device, shape,
 * network and mode: usable, and the one query.h takes. */
static int published(const results *r, const rs_point *p)
{
    return q_ok(p) && q_point_of(r, p) == p;
}

/* Every usable point of r, each view it has; machine "" or the machine's
 * name before the device. */
static void run_entries(dash_sink *s, const results *r, const char *machine)
{
    int i, k;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (!published(r, p))
            continue;
        for (k = 0; k < 3; k++)
            if (q_ok_view(p, dash_views[k]))
                point_entry(s, r, p, dash_views[k], machine);
    }
}

/* The device's name in a benchmark: machine "" or the machine's before it. */
static void device_name(char *buf, size_t size, const char *machine, const char *dev)
{
    snprintf(buf, size, "%s%s%s", machine, machine[0] ? "/" : "", dev);
}

/* The summary of device d of r in mode m and view v: the geometric mean of
 * its step times over the points published, and its peak throughput. */
static void summary_device(dash_sink *s, const results *r, const device_info *d, wl_mode m,
                           fit_view v, const char *machine)
{
    const rs_point *best = NULL;
    double logsum = 0.0, peak = 0.0;
    char name[DASH_NAME], dev[300], extra[400], shape[NET_NAME_MAX + NET_SIZES_MAX + 2];
    int i, n = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        double t;
        if (strcmp(p->device, d->id) != 0 || p->mode != m || !published(r, p) || !q_ok_view(p, v))
            continue;
        t = q_median(p, v);
        logsum += log(t);
        n++;
        /* a throughput above the device's known peak is no peak (query.h) */
        if (isfinite(q_gflops_shown(d, p, t)) && p->batch / t > peak) {
            peak = p->batch / t;
            best = p;
        }
    }
    if (n == 0)
        return;
    device_name(dev, sizeof dev, machine, d->id);
    snprintf(name, sizeof name, "summary/%s/%s/step-geomean/%s", workload_mode_name(m),
             fit_view_name(v), dev);
    snprintf(extra, sizeof extra, "run %s\ngeometric mean over %d points", r->prov.id, n);
    {
        dash_measure g = {"latency", exp(logsum / n) * 1e9, NAN, NAN};
        dash_entry(s, name, &g, 1, "ns", 0.95, extra);
    }
    if (best) {
        /* github-action-benchmark's smaller is better: the time per sample
         * at the peak; BMF's the samples per second */
        const stats_summary *st = summary_of(best, v);
        const double t = q_median(best, v);
        dash_measure pk[2] = {
            {NULL, t / best->batch * 1e9, st->ci_lo / best->batch * 1e9,
             st->ci_hi / best->batch * 1e9},
            {"throughput", best->batch / t, best->batch / st->ci_hi, best->batch / st->ci_lo}};
        snprintf(name, sizeof name, "summary/%s/%s/peak/%s", workload_mode_name(m),
                 fit_view_name(v), dev);
        shape_name(shape, sizeof shape, best);
        snprintf(extra, sizeof extra, "run %s\n%.6g samples/s at %s, batch %d", r->prov.id,
                 best->batch / t, shape, best->batch);
        dash_entry(s, name, pk, 2, "ns/sample", st->ci_level > 0 ? st->ci_level : 0.95, extra);
    }
}

/* The crossovers of device d of r (against the base device, in time) in
 * mode m and view v: per hidden width, the batch from which d stays ahead,
 * with its 95% interval; an interval open at either end (reaching past the
 * batches measured) is unbounded there, so flagged.  Widths where d does
 * not cross inside the batches measured have none. */
static void summary_cross(dash_sink *s, const results *r, const device_info *d, wl_mode m,
                          fit_view v, const char *machine)
{
    const fit_crossover *c = q_cross(q_fit(r), NULL, d->id, m, v, 0);
    char name[DASH_NAME], dev[300], extra[400];
    int k;
    if (!c)
        return;
    device_name(dev, sizeof dev, machine, d->id);
    for (k = 0; k < c->nhidden; k++) {
        const fit_hidden_cross *h = &c->per_hidden[k];
        dash_measure b = {"batch", h->batch, h->lo_open ? 0.0 : h->batch_lo,
                          h->hi_open ? INFINITY : h->batch_hi};
        if (h->kind != CROSS_IN_RANGE)
            continue;
        if (!(h->batch_lo > 0 && h->batch_hi > 0)) /* a fit of analysis 1: no interval */
            b.lo = b.hi = NAN;
        snprintf(name, sizeof name, "summary/%s/%s/crossover/h%d/%s", workload_mode_name(m),
                 fit_view_name(v), h->hidden, dev);
        snprintf(extra, sizeof extra, "run %s\n%s ahead of %s from batch %.4g", r->prov.id, d->id,
                 c->base, h->batch);
        dash_entry(s, name, &b, 1, "batch", 0.95, extra);
    }
}

/* The summary of r: per device, mode and view, the step times' geometric
 * mean, the peak throughput and the crossover per width. */
static void run_summary(dash_sink *s, const results *r, const char *machine)
{
    int d, m, k;
    for (d = 0; d < r->ndevices; d++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++)
            for (k = 0; k < 3; k++) {
                summary_device(s, r, &r->devices[d], (wl_mode)m, dash_views[k], machine);
                summary_cross(s, r, &r->devices[d], (wl_mode)m, dash_views[k], machine);
            }
}

/* The document: the entries that fill(ctx, sink) makes, into memory, then
 * to out.  BE_EUSAGE when there is none (what "has nothing ...", why
 * after it) or naming a benchmark that two entries would share. */
static int dash_document(FILE *out, dash_format f, void (*fill)(dash_sink *, const void *),
                         const void *ctx, const char *what, const char *why, err *e)
{
    char *text = NULL;
    size_t len = 0;
    dash_sink s;
    int rc = BE_OK, i;
    memset(&s, 0, sizeof s);
    s.fmt = f;
    if (!(s.f = open_memstream(&text, &len)))
        return err_set(e, BE_EFAIL, "out of memory");
    fputs(f == DASH_GAB ? "[" : "{", s.f);
    fill(&s, ctx);
    fputs(f == DASH_GAB ? "\n]\n" : "\n}\n", s.f);
    if (fclose(s.f) != 0 || !text || s.oom)
        rc = err_set(e, BE_EFAIL, "out of memory");
    else if (s.dup[0])
        rc = err_set(e, BE_EUSAGE,
                     "--format %s: two benchmarks of %s would be named \"%s\" (the same "
                     "workload twice, or a name cut at %d bytes): refused, not one of them dropped",
                     dash_format_name(f), what, s.dup, DASH_NAME - 1);
    else if (s.n == 0)
        rc = err_set(e, BE_EUSAGE, "--format %s: %s has nothing for a dashboard%s",
                     dash_format_name(f), what, why);
    else if (fwrite(text, 1, len, out) != len || fflush(out) != 0)
        rc = err_set(e, BE_EFAIL, "--format %s: cannot write the output", dash_format_name(f));
    for (i = 0; i < s.n; i++)
        free(s.names[i]);
    free(s.names);
    free(text);
    return rc;
}

/* The runs to write: the newest of each machine (one alone: no machine
 * in the names), all of their points or their summary. */
typedef struct dash_runs {
    const results **r;
    int n;
    int summary;
} dash_runs;

/* 1 when run i of v[0..n) is the newest of its machine (a tie: the later),
 * a partial run only where the machine has no finished one: as on the
 * front page, an interrupted run never takes the place of a whole one. */
static int newest_of_machine(const archive_run *v, int n, int i)
{
    int j;
    for (j = 0; j < n; j++) {
        const results *a = v[i].r, *b = v[j].r;
        int c = strcmp(b->prov.started, a->prov.started);
        if (j == i || !q_same_machine(a, b))
            continue;
        if (a->partial != b->partial ? a->partial : c > 0 || (c == 0 && j > i))
            return 0;
    }
    return 1;
}

static void fill_runs(dash_sink *s, const void *ctx)
{
    const dash_runs *d = ctx;
    char machine[300], fp[16];
    int i, j;
    for (i = 0; i < d->n; i++) {
        const results *r = d->r[i];
        const char *name = q_machine_name(r);
        machine[0] = '\0';
        if (d->n > 1) {
            /* a name two machines share gets each one's fingerprint */
            for (j = 0; j < d->n && (j == i || strcmp(q_machine_name(d->r[j]), name)); j++)
                ;
            q_machine_print(r, fp, sizeof fp);
            snprintf(machine, sizeof machine, "%s%s%s", name, j < d->n ? "~" : "",
                     j < d->n ? fp : "");
        }
        if (d->summary)
            run_summary(s, r, machine);
        else
            run_entries(s, r, machine);
    }
}

int dash_write_run(FILE *out, const results *r, dash_format f, int summary, err *e)
{
    char what[200];
    dash_runs d = {&r, 1, summary};
    snprintf(what, sizeof what, "run %s", r->prov.id);
    return dash_document(out, f, fill_runs, &d, what,
                         summary ? " (no point measured successfully, nor a crossover)"
                                 : " (no point measured successfully)",
                         e);
}

/* Loads the runs given, or every run of the archive, into *a. */
static int load_runs(const char *dir, const char *const *runs, int n, archive *a, err *e)
{
    int i, rc;
    if (n == 0)
        return archive_load(dir, NULL, 0, NULL, a, e);
    memset(a, 0, sizeof *a);
    if (!(a->v = calloc((size_t)n, sizeof *a->v)))
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < n; i++, a->n++)
        if ((rc = archive_load_run(dir, runs[i], &a->v[i], e)) < 0) {
            archive_free(a);
            return rc;
        }
    return BE_OK;
}

int dash_write_archive(FILE *out, const char *dir, const char *const *runs, int n, dash_format f,
                       int summary, err *e)
{
    archive a;
    dash_runs d = {NULL, 0, summary};
    int i, rc;
    if ((rc = load_runs(dir, runs, n, &a, e)) < 0)
        return rc;
    if (!(d.r = calloc((size_t)a.n, sizeof *d.r))) {
        archive_free(&a);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    for (i = 0; i < a.n; i++)
        if (newest_of_machine(a.v, a.n, i))
            d.r[d.n++] = a.v[i].r;
    rc = dash_document(out, f, fill_runs, &d, n ? "the runs given" : "the archive", "", e);
    free(d.r);
    archive_free(&a);
    return rc;
}

/* A ratio B/A with its interval at level (a fraction). */
static void ratio_entry(dash_sink *s, const char *name, double ratio, double lo, double hi,
                        double level, const char *extra)
{
    dash_measure m = {"ratio", ratio, lo, hi};
    dash_entry(s, name, &m, 1, "B/A", level, extra);
}

/* Whether another point of c than p has p's mode, sizes, batch and device:
 * then the networks' names tell them apart. */
static int sizes_repeat(const compare_set *c, const compare_point *p)
{
    int i;
    for (i = 0; i < c->npoints; i++) {
        const compare_point *o = &c->points[i];
        if (o != p && o->mode == p->mode && o->batch == p->batch &&
            strcmp(o->sizes, p->sizes) == 0 && strcmp(o->dev_b, p->dev_b) == 0)
            return 1;
    }
    return 0;
}

static void fill_compare(dash_sink *s, const void *ctx)
{
    const compare_set *c = ctx;
    const double level = 1.0 - c->opts.alpha;
    char name[DASH_NAME], extra[800];
    int i;
    for (i = 0; i < c->ngroups; i++) {
        const compare_group *g = &c->groups[i];
        snprintf(name, sizeof name, "compare/%s/%s/%s", workload_mode_name(g->mode),
                 fit_view_name(g->view), g->dev_b);
        snprintf(extra, sizeof extra, "A %s\nB %s\n%s, %d shared points", c->ids_a, c->ids_b,
                 compare_verdict_name(g->verdict), g->npoints);
        ratio_entry(s, name, g->ratio, g->lo, g->hi, level, extra);
    }
    for (i = 0; i < c->npoints; i++) {
        const compare_point *p = &c->points[i];
        const int named = p->sizes[0] && sizes_repeat(c, p) && strcmp(p->net, p->sizes) != 0;
        if (p->sizes[0])
            snprintf(name, sizeof name, "compare/%s/resident/%s%s%s/b%d/%s",
                     workload_mode_name(p->mode), named ? p->net : "", named ? "/" : "", p->sizes,
                     p->batch, p->dev_b);
        else
            snprintf(name, sizeof name, "compare/%s/resident/h%d/b%d/%s",
                     workload_mode_name(p->mode), p->hidden, p->batch, p->dev_b);
        snprintf(extra, sizeof extra, "A %s\nB %s\n%s", c->ids_a, c->ids_b,
                 compare_verdict_name(p->verdict));
        ratio_entry(s, name, p->ratio, p->lo, p->hi, level, extra);
    }
}

int dash_write_compare(FILE *out, const compare_set *s, dash_format f, err *e)
{
    char what[300];
    snprintf(what, sizeof what, "the comparison of %s and %s", s->id_a, s->id_b);
    return dash_document(out, f, fill_compare, s, what, " (no ratio: nothing measured on both)", e);
}
