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

/* One measure of a benchmark: lo and hi NAN when it has no interval. */
typedef struct dash_measure {
    const char *slug; /* BMF's measure: "latency", "throughput", "ratio" */
    double value, lo, hi;
} dash_measure;

/* Where the entries go: f, in format fmt; n entries written so far. */
typedef struct dash_sink {
    FILE *f;
    dash_format fmt;
    int n;
} dash_sink;

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

/* One benchmark: in BMF its measures m[0..nm) (those with a finite,
 * positive value); for github-action-benchmark m[0] only, the one where
 * smaller is better, with its unit, range and extra (the tooltip's lines). */
static void dash_entry(dash_sink *s, const char *name, const dash_measure *m, int nm,
                       const char *unit, const char *range, const char *extra)
{
    int k, first = 1;
    if (!(isfinite(m[0].value) && m[0].value > 0))
        return;
    fputs(s->n++ ? ",\n  " : "\n  ", s->f);
    if (s->fmt == DASH_GAB) {
        fputs("{\"name\": ", s->f);
        json_string(s->f, name);
        json_member_string(s->f, "unit", unit);
        json_member_number(s->f, "value", m[0].value);
        if (range[0])
            json_member_string(s->f, "range", range);
        json_member_string(s->f, "extra", extra);
        fputc('}', s->f);
        return;
    }
    json_string(s->f, name);
    fputs(": {", s->f);
    for (k = 0; k < nm; k++) {
        if (!(isfinite(m[k].value) && m[k].value > 0))
            continue;
        fprintf(s->f, "%s\"%s\": {\"value\": ", first ? "" : ", ", m[k].slug);
        json_number(s->f, m[k].value);
        if (has_bounds(&m[k])) {
            json_member_number(s->f, "lower_value", m[k].lo);
            json_member_number(s->f, "upper_value", m[k].hi);
        }
        fputc('}', s->f);
        first = 0;
    }
    fputc('}', s->f);
}

/* The summary of view v of p. */
static const stats_summary *summary_of(const rs_point *p, fit_view v)
{
    return v == FIT_WHOST ? &p->whost : v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

/* "inference/resident/l4/h1024/b256/cpu", ".../mnist-mlp/784-512-256-10/b256/cpu",
 * or ".../784-512-256-10/b256/cpu" for a network named by its sizes; machine
 * "" or a machine's name before the device */
static void point_name(char *buf, size_t size, const rs_point *p, fit_view v, const char *machine)
{
    const int named = strcmp(p->net, p->sizes) != 0;
    const char *sep = machine[0] ? "/" : "";
    if (p->sizes[0])
        snprintf(buf, size, "%s/%s/%s%s%s/b%d/%s%s%s", workload_mode_name(p->mode),
                 fit_view_name(v), named ? p->net : "", named ? "/" : "", p->sizes, p->batch,
                 machine, sep, p->device);
    else
        snprintf(buf, size, "%s/%s/l%d/h%d/b%d/%s%s%s", workload_mode_name(p->mode),
                 fit_view_name(v), p->layers, p->hidden, p->batch, machine, sep, p->device);
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
    char name[DASH_NAME], range[160] = "", extra[400];
    point_name(name, sizeof name, p, v, machine);
    if (has_bounds(&m[0]))
        snprintf(range, sizeof range, "%.0f%% interval %.6g to %.6g",
                 st->ci_level > 0 ? 100.0 * st->ci_level : 95.0, m[0].lo, m[0].hi);
    snprintf(extra, sizeof extra, "run %s\n%d samples", r->prov.id, st->n);
    if (shown)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "\n%.6g samples/s",
                 m[1].value);
    dash_entry(s, name, m, 2, "ns", range, extra);
}

/* Every usable point of r, each view it has; machine "" or the machine's
 * name before the device. */
static void run_entries(dash_sink *s, const results *r, const char *machine)
{
    static const fit_view views[] = {FIT_RESIDENT, FIT_TRANSFER, FIT_WHOST};
    int i, k;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        /* one benchmark per shape and device: the point query.h takes */
        if (!q_ok(p) ||
            q_point_net(r, p->device, p->mode, p->layers, p->hidden, p->batch, p->sizes) != p)
            continue;
        for (k = 0; k < 3; k++)
            if (q_ok_view(p, views[k]))
                point_entry(s, r, p, views[k], machine);
    }
}

/* The document: the entries that fill(ctx, sink) makes, into memory, then
 * to out.  BE_EUSAGE with what (the subject of "has nothing ...") when
 * there is none. */
static int dash_document(FILE *out, dash_format f, void (*fill)(dash_sink *, const void *),
                         const void *ctx, const char *what, err *e)
{
    char *text = NULL;
    size_t len = 0;
    dash_sink s = {NULL, f, 0};
    int rc = BE_OK;
    if (!(s.f = open_memstream(&text, &len)))
        return err_set(e, BE_EFAIL, "out of memory");
    fputs(f == DASH_GAB ? "[" : "{", s.f);
    fill(&s, ctx);
    fputs(f == DASH_GAB ? "\n]\n" : "\n}\n", s.f);
    if (fclose(s.f) != 0 || !text)
        rc = err_set(e, BE_EFAIL, "out of memory");
    else if (s.n == 0)
        rc = err_set(e, BE_EUSAGE, "--format %s: %s has nothing for a dashboard",
                     dash_format_name(f), what);
    else if (fwrite(text, 1, len, out) != len || fflush(out) != 0)
        rc = err_set(e, BE_EFAIL, "--format %s: cannot write the output", dash_format_name(f));
    free(text);
    return rc;
}

static void fill_run(dash_sink *s, const void *ctx)
{
    run_entries(s, ctx, "");
}

int dash_write_run(FILE *out, const results *r, dash_format f, err *e)
{
    char what[200];
    snprintf(what, sizeof what, "run %s (no point measured successfully)", r->prov.id);
    return dash_document(out, f, fill_run, r, what, e);
}

/* The runs of a report to write: the newest of each machine. */
typedef struct dash_runs {
    const results **r;
    int n;
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
        machine[0] = '\0';
        if (d->n > 1) {
            /* a host name two machines share gets each one's fingerprint */
            for (j = 0; j < d->n && (j == i || strcmp(d->r[j]->prov.host, r->prov.host)); j++)
                ;
            q_machine_print(r, fp, sizeof fp);
            snprintf(machine, sizeof machine, "%s%s%s", r->prov.host, j < d->n ? "~" : "",
                     j < d->n ? fp : "");
        }
        run_entries(s, r, machine);
    }
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
                       err *e)
{
    archive a;
    dash_runs d = {NULL, 0};
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
    rc = dash_document(out, f, fill_runs, &d, n ? "the runs given" : "the archive", e);
    free(d.r);
    archive_free(&a);
    return rc;
}

/* A ratio B/A with its interval at level (a fraction). */
static void ratio_entry(dash_sink *s, const char *name, double ratio, double lo, double hi,
                        double level, const char *extra)
{
    dash_measure m = {"ratio", ratio, lo, hi};
    char range[160] = "";
    if (has_bounds(&m))
        snprintf(range, sizeof range, "%.0f%% interval %.6g to %.6g", 100.0 * level, lo, hi);
    dash_entry(s, name, &m, 1, "B/A", range, extra);
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
        if (p->sizes[0])
            snprintf(name, sizeof name, "compare/%s/resident/%s/b%d/%s",
                     workload_mode_name(p->mode), p->sizes, p->batch, p->dev_b);
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
    snprintf(what, sizeof what, "the comparison of %s and %s (no ratio: nothing measured on both)",
             s->id_a, s->id_b);
    return dash_document(out, f, fill_compare, s, what, e);
}
