/*
 * results.c — the results model and its XML form (see results.h and the
 * schema src/results.rng, which is the reference for every element and
 * attribute written here).
 *
 * Numbers are written with 17 significant digits so that loading a file
 * gives back the very doubles that were measured (the round-trip test in
 * tests/ depends on it).
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>

#include "fsx.h"

extern const char embed_results_rng[];

static const char *status_names[] = {"ok", "out-of-memory", "failed-verification", "skipped"};

const char *results_status_name(rs_status s)
{
    return (unsigned)s < sizeof status_names / sizeof *status_names ? status_names[s] : "?";
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

static const char *view_names[] = {"resident", "transfer"};
static const char *cross_names[] = {"in-range", "extrapolated", "never", "always", "unknown"};

int results_add_device(results *r, const device_info *d, err *e)
{
    device_info *nd = realloc(r->devices, (size_t)(r->ndevices + 1) * sizeof *nd);
    if (!nd)
        return err_set(e, BE_EFAIL, "out of memory adding a device");
    r->devices = nd;
    r->devices[r->ndevices++] = *d;
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
    *np = *p;
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
    rs_pass *np = realloc(r->passes, (size_t)(r->npasses + 1) * sizeof *np);
    if (!np)
        return err_set(e, BE_EFAIL, "out of memory adding a pass");
    r->passes = np;
    r->passes[r->npasses++] = *ps;
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

int results_summarize(rs_point *p, err *e)
{
    double *v;
    int i, rc;

    if (p->nsamples < 1)
        return err_set(e, BE_EFAIL, "point hidden=%d batch=%d has no samples", p->hidden, p->batch);
    v = malloc((size_t)p->nsamples * sizeof *v);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory summarizing a point");
    for (i = 0; i < p->nsamples; i++)
        v[i] = p->samples[i].wall;
    rc = p->pass ? stats_summarize_passes(v, p->pass, p->nsamples, &p->resident, e)
                 : stats_summarize(v, p->nsamples, &p->resident, e);
    if (rc == BE_OK && p->has_transfer) {
        for (i = 0; i < p->nsamples; i++)
            v[i] = p->samples[i].total;
        rc = p->pass ? stats_summarize_passes(v, p->pass, p->nsamples, &p->transfer, e)
                     : stats_summarize(v, p->nsamples, &p->transfer, e);
    }
    free(v);
    return rc;
}

int results_summarize_in(const results *r, rs_point *p, err *e)
{
    double lost = 0.0;
    int i, k, rc;
    if ((rc = results_summarize(p, e)) < 0 || !p->pass)
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
    return BE_OK;
}

/* ---- writing ----------------------------------------------------------- */

static int oom;  /* set when a tree allocation failed during one save */

static void put(xmlNodePtr n, const char *name, const char *value)
{
    if (!xmlNewProp(n, BAD_CAST name, BAD_CAST value))
        oom = 1;
}

static void putf(xmlNodePtr n, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void putf(xmlNodePtr n, const char *name, const char *fmt, ...)
{
    char buf[2560];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(n, name, buf);
}

static void putd(xmlNodePtr n, const char *name, double v)
{
    putf(n, name, "%.17g", v);
}

static xmlNodePtr child(xmlNodePtr parent, const char *name)
{
    xmlNodePtr c = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
    if (!c)
        oom = 1;
    return c;
}

static xmlNodePtr write_prov(xmlNodePtr root, const rs_prov *p)
{
    xmlNodePtr pv = child(root, "provenance"), n;
    if (!pv)
        return NULL;
    if ((n = child(pv, "breakeven"))) {
        put(n, "version", p->version);
        put(n, "commit", p->commit);
    }
    if ((n = child(pv, "run"))) {
        put(n, "id", p->id);
        put(n, "started", p->started);
        put(n, "finished", p->finished);
        put(n, "command", p->command);
        putf(n, "seed", "%llu", p->seed);
        putd(n, "budget", p->budget);
        putf(n, "layers", "%d", p->layers);
        put(n, "hidden", p->hidden);
        put(n, "batch", p->batch);
        put(n, "modes", p->modes);
    }
    if ((n = child(pv, "host"))) {
        put(n, "name", p->host);
        put(n, "os", p->os);
        put(n, "kernel", p->kernel);
        put(n, "cpu-model", p->cpu_model);
        putf(n, "cores", "%d", p->cores);
        putf(n, "memory-bytes", "%.0f", p->memory);
        put(n, "compiler", p->compiler);
    }
    if ((n = child(pv, "openblas"))) {
        put(n, "version", p->blas_version);
        put(n, "config", p->blas_config);
        put(n, "core", p->blas_core);
        putf(n, "threads", "%d", p->blas_threads);
        if (p->blas_threads_from[0])
            put(n, "threads-from", p->blas_threads_from);
    }
    return pv;
}

/* <passes>: each pass of the sweep and the machine's state during it. */
static void write_passes(xmlNodePtr pv, const results *r)
{
    xmlNodePtr ps, n;
    int i;
    if (!pv || r->npasses == 0 || !(ps = child(pv, "passes")))
        return;
    for (i = 0; i < r->npasses; i++) {
        const rs_pass *p = &r->passes[i];
        const machstate *m = &p->state;
        if (!(n = child(ps, "pass")))
            return;
        putf(n, "index", "%d", p->index);
        put(n, "started", p->started);
        putd(n, "seconds", p->seconds);
        putf(n, "visits", "%d", p->visits);
        if (m->has_loadavg)
            putd(n, "loadavg", m->loadavg);
        if (m->has_cpu) {
            putd(n, "self-cpu", m->self_cpu);
            putd(n, "others-cpu", m->others_cpu);
            putd(n, "steal", m->steal);
        }
        if (m->has_freq)
            putd(n, "freq-mhz", m->freq_mhz);
        if (m->has_temp)
            putd(n, "temp-c", m->temp_c);
    }
}

static void write_summary(xmlNodePtr pt, const rs_point *p, const char *view,
                          const stats_summary *s)
{
    xmlNodePtr n = child(pt, "summary");
    if (!n)
        return;
    put(n, "view", view);
    putf(n, "n", "%d", s->n);
    putd(n, "median", s->median);
    putd(n, "min", s->min);
    putd(n, "max", s->max);
    putd(n, "p10", s->p10);
    putd(n, "p90", s->p90);
    putd(n, "mean", s->mean);
    putd(n, "stdev", s->stdev);
    putd(n, "cv", s->cv);
    putd(n, "ci-lo", s->ci_lo);
    putd(n, "ci-hi", s->ci_hi);
    putd(n, "ci-level", s->ci_level);
    put(n, "drift", s->drift ? "yes" : "no");
    putd(n, "drift-ratio", s->drift_ratio);
    putd(n, "gflops", results_gflops(p, s->median));
    if (s->passes > 0)
        putf(n, "passes", "%d", s->passes);
    if (s->contention > 0.0)
        putd(n, "contention", s->contention);
}

static void write_point(xmlNodePtr points, const rs_point *p)
{
    xmlNodePtr pt = child(points, "point"), n;
    int i;
    if (!pt)
        return;
    put(pt, "device", p->device);
    put(pt, "mode", p->mode == WL_TRAINING ? "training" : "inference");
    putf(pt, "layers", "%d", p->layers);
    putf(pt, "hidden", "%d", p->hidden);
    putf(pt, "batch", "%d", p->batch);
    putd(pt, "flops-per-layer", p->flops_per_layer);
    put(pt, "status", results_status_name(p->status));
    if (p->message[0])
        put(pt, "message", p->message);
    if (p->why[0])
        put(pt, "added", p->why);
    if (p->verified && (n = child(pt, "verification"))) {
        putf(n, "checked", "%ld", p->checked);
        putd(n, "max-error", p->max_error);
        putd(n, "tolerance", p->tolerance);
        put(n, "worst", p->worst);
    }
    if (p->nsamples < 1 || !(n = child(pt, "samples")))
        return;
    put(n, "unit", "s");
    for (i = 0; i < p->nsamples; i++) {
        const step_times *t = &p->samples[i];
        xmlNodePtr s = child(n, "s");
        if (!s)
            return;
        putd(s, "wall", t->wall);
        if (p->pass && p->pass[i] > 0)
            putf(s, "pass", "%d", p->pass[i]);
        if (p->has_transfer) {
            putd(s, "kernel", t->kernel);
            putd(s, "h2d", t->h2d);
            putd(s, "d2h", t->d2h);
            putd(s, "total", t->total);
        }
    }
    write_summary(pt, p, "resident", &p->resident);
    if (p->has_transfer)
        write_summary(pt, p, "transfer", &p->transfer);
}

static void write_model(xmlNodePtr fit, const fit_model *m)
{
    xmlNodePtr n = child(fit, "model");
    int i;
    if (!n)
        return;
    put(n, "device", m->device);
    put(n, "mode", m->mode == WL_TRAINING ? "training" : "inference");
    put(n, "view", view_names[m->view]);
    put(n, "ok", m->ok ? "yes" : "no");
    if (!m->ok) {
        put(n, "why", m->why);
        return;
    }
    putf(n, "points", "%d", m->npoints);
    putd(n, "t0", m->t0);
    putd(n, "t0-err", m->t0_err);
    putd(n, "P", m->P);
    putd(n, "P-err", m->P_err);
    putd(n, "half-size", m->half_size);
    putd(n, "rms-rel", m->rms_rel);
    putd(n, "fmin", m->fmin);
    putd(n, "fmax", m->fmax);
    for (i = 0; i < m->noutliers; i++) {
        xmlNodePtr o = child(n, "outlier");
        if (o)
            putf(o, "point", "%d", m->outliers[i]);
    }
}

static void write_cross(xmlNodePtr fit, const fit_crossover *c)
{
    xmlNodePtr n = child(fit, "crossover"), s;
    int i;
    if (!n)
        return;
    put(n, "base", c->base);
    put(n, "other", c->other);
    put(n, "mode", c->mode == WL_TRAINING ? "training" : "inference");
    put(n, "view", view_names[c->view]);
    put(n, "measure", c->cost ? "cost" : "time");
    put(n, "kind", cross_names[c->kind]);
    putd(n, "flops", c->flops);
    putd(n, "ci-lo", c->ci_lo);
    putd(n, "ci-hi", c->ci_hi);
    if ((s = child(n, "sentence")))
        xmlNodeAddContent(s, BAD_CAST c->sentence);
    for (i = 0; i < c->nhidden; i++) {
        xmlNodePtr h = child(n, "hidden");
        if (!h)
            return;
        putf(h, "value", "%d", c->per_hidden[i].hidden);
        put(h, "kind", cross_names[c->per_hidden[i].kind]);
        putd(h, "batch", c->per_hidden[i].batch);
        putd(h, "flops", c->per_hidden[i].flops);
    }
}

static void write_fit(xmlNodePtr root, const results *r)
{
    xmlNodePtr fit = child(root, "fit"), n;
    int i;
    if (!fit)
        return;
    putf(fit, "seed", "%llu", r->fit_seed);
    for (i = 0; i < r->prices.n; i++)
        if ((n = child(fit, "price"))) {
            put(n, "device", r->prices.device[i]);
            putd(n, "usd-per-hour", r->prices.usd_per_hour[i]);
        }
    for (i = 0; i < r->fit.nmodels; i++)
        write_model(fit, &r->fit.models[i]);
    for (i = 0; i < r->fit.ncross; i++)
        write_cross(fit, &r->fit.cross[i]);
}

int results_save(const results *r, const char *path, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root, devs, pts;
    xmlChar *mem = NULL;
    int len = 0, i, j, rc;

    oom = 0;
    if (!doc || !(root = xmlNewNode(NULL, BAD_CAST "breakeven-results"))) {
        xmlFreeDoc(doc);
        return err_set(e, BE_EFAIL, "%s: out of memory building the XML tree", path);
    }
    xmlDocSetRootElement(doc, root);
    putf(root, "format", "%d", RESULTS_FORMAT);
    put(root, "status", r->partial ? "partial" : "complete");
    write_passes(write_prov(root, &r->prov), r);
    if ((devs = child(root, "devices")))
        for (i = 0; i < r->ndevices; i++) {
            const device_info *d = &r->devices[i];
            xmlNodePtr n = child(devs, "device");
            if (!n)
                break;
            put(n, "id", d->id);
            put(n, "kind", d->kind);
            put(n, "type", d->type);
            put(n, "name", d->name);
            put(n, "vendor", d->vendor);
            put(n, "driver", d->driver);
            put(n, "library", d->library);
            for (j = 0; j < d->nprops; j++) {
                xmlNodePtr pr = child(n, "prop");
                if (!pr)
                    break;
                put(pr, "name", d->props[j].name);
                put(pr, "value", d->props[j].value);
            }
        }
    if ((pts = child(root, "points")))
        for (i = 0; i < r->npoints; i++)
            write_point(pts, &r->points[i]);
    if (r->has_fit)
        write_fit(root, r);
    if (oom) {
        xmlFreeDoc(doc);
        return err_set(e, BE_EFAIL, "%s: out of memory building the XML tree", path);
    }
    xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 1);
    xmlFreeDoc(doc);
    if (!mem)
        return err_set(e, BE_EFAIL, "%s: cannot serialize the XML tree", path);
    rc = fsx_write_atomic(path, mem, (size_t)len, e);
    xmlFree(mem);
    return rc;
}

/* ---- loading ----------------------------------------------------------- */

typedef struct loader {
    const char *path;
    err *e;
    int failed;
} loader;

/* Records the first libxml2 error as "path:line: message". */
static void on_xml_error(void *data, xmlErrorPtr xe)
{
    loader *ld = data;
    char msg[512];
    size_t n;
    if (ld->failed || !xe)
        return;
    snprintf(msg, sizeof msg, "%s", xe->message ? xe->message : "invalid XML");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    err_set(ld->e, BE_EFAIL, "%s:%d: %s", ld->path, xe->line, msg);
    ld->failed = 1;
}

static int bad(loader *ld, xmlNodePtr n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(loader *ld, xmlNodePtr n, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ld->failed = 1;
    return err_set(ld->e, BE_EFAIL, "%s:%ld: %s", ld->path, n ? xmlGetLineNo(n) : 0L, msg);
}

static int has(xmlNodePtr n, const char *name)
{
    return xmlHasProp(n, BAD_CAST name) != NULL;
}

/* Copies attribute name of n into buf; missing attributes (the schema
 * allows only optional ones to be) read as "". */
static void get(xmlNodePtr n, const char *name, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST name);
    snprintf(buf, size, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

static double getd(loader *ld, xmlNodePtr n, const char *name)
{
    char buf[64], *end;
    double v;
    if (!has(n, name))
        return bad(ld, n, "<%s> lacks attribute \"%s\"", n->name, name), 0.0;
    get(n, name, buf, sizeof buf);
    errno = 0;
    v = strtod(buf, &end);
    if (end == buf || *end != '\0' || !isfinite(v))
        bad(ld, n, "<%s> attribute \"%s\" is not a finite number: \"%s\"", n->name, name, buf);
    return v;
}

/* A time in seconds: finite and not negative. */
static double gets(loader *ld, xmlNodePtr n, const char *name)
{
    double v = getd(ld, n, name);
    if (!ld->failed && v < 0.0)
        bad(ld, n, "<%s> attribute \"%s\" is negative", n->name, name);
    return v;
}

static long getl(loader *ld, xmlNodePtr n, const char *name)
{
    double v = getd(ld, n, name);
    if (v != floor(v) || v > 2147483647.0 || v < -2147483647.0)
        bad(ld, n, "<%s> attribute \"%s\" is not an integer in range", n->name, name);
    return (long)v;
}

static xmlNodePtr first_elem(xmlNodePtr n)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE)
            return n;
    return NULL;
}

static xmlNodePtr next_elem(xmlNodePtr n) { return first_elem(n->next); }

static int is(xmlNodePtr n, const char *name)
{
    return n && xmlStrcmp(n->name, BAD_CAST name) == 0;
}

static void load_prov(loader *ld, xmlNodePtr pv, rs_prov *p)
{
    xmlNodePtr n;
    char buf[64];
    for (n = first_elem(pv->children); n; n = next_elem(n)) {
        if (is(n, "breakeven")) {
            get(n, "version", p->version, sizeof p->version);
            get(n, "commit", p->commit, sizeof p->commit);
        } else if (is(n, "run")) {
            get(n, "id", p->id, sizeof p->id);
            get(n, "started", p->started, sizeof p->started);
            get(n, "finished", p->finished, sizeof p->finished);
            get(n, "command", p->command, sizeof p->command);
            get(n, "seed", buf, sizeof buf);
            p->seed = strtoull(buf, NULL, 10);
            p->budget = getd(ld, n, "budget");
            p->layers = (int)getl(ld, n, "layers");
            get(n, "hidden", p->hidden, sizeof p->hidden);
            get(n, "batch", p->batch, sizeof p->batch);
            get(n, "modes", p->modes, sizeof p->modes);
        } else if (is(n, "host")) {
            get(n, "name", p->host, sizeof p->host);
            get(n, "os", p->os, sizeof p->os);
            get(n, "kernel", p->kernel, sizeof p->kernel);
            get(n, "cpu-model", p->cpu_model, sizeof p->cpu_model);
            p->cores = (int)getl(ld, n, "cores");
            p->memory = getd(ld, n, "memory-bytes");
            get(n, "compiler", p->compiler, sizeof p->compiler);
        } else if (is(n, "openblas")) {
            get(n, "version", p->blas_version, sizeof p->blas_version);
            get(n, "config", p->blas_config, sizeof p->blas_config);
            get(n, "core", p->blas_core, sizeof p->blas_core);
            p->blas_threads = (int)getl(ld, n, "threads");
            get(n, "threads-from", p->blas_threads_from, sizeof p->blas_threads_from);
        }
    }
}

/* The <passes> of a provenance element (absent from files of 0.1.0). */
static void load_passes(loader *ld, xmlNodePtr pv, results *r)
{
    xmlNodePtr ps, n;
    for (ps = first_elem(pv->children); ps && !is(ps, "passes"); ps = next_elem(ps))
        ;
    for (n = ps ? first_elem(ps->children) : NULL; n && !ld->failed; n = next_elem(n)) {
        rs_pass p;
        machstate *m = &p.state;
        memset(&p, 0, sizeof p);
        p.index = (int)getl(ld, n, "index");
        get(n, "started", p.started, sizeof p.started);
        p.seconds = gets(ld, n, "seconds");
        p.visits = (int)getl(ld, n, "visits");
        if ((m->has_loadavg = has(n, "loadavg")))
            m->loadavg = getd(ld, n, "loadavg");
        if ((m->has_cpu = has(n, "others-cpu"))) {
            m->self_cpu = getd(ld, n, "self-cpu");
            m->others_cpu = getd(ld, n, "others-cpu");
            m->steal = getd(ld, n, "steal");
        }
        if ((m->has_freq = has(n, "freq-mhz")))
            m->freq_mhz = getd(ld, n, "freq-mhz");
        if ((m->has_temp = has(n, "temp-c")))
            m->temp_c = getd(ld, n, "temp-c");
        if (!ld->failed && results_add_pass(r, &p, ld->e) < 0)
            ld->failed = 1;
    }
}

/* The optional pass="N" of each <s> of samples (absent from files of
 * 0.1.0); p->pass stays NULL when no sample has one. */
static int load_sample_passes(loader *ld, xmlNodePtr samples, rs_point *p)
{
    xmlNodePtr s;
    int i;
    for (s = first_elem(samples->children); s && !has(s, "pass"); s = next_elem(s))
        ;
    if (!s || p->nsamples == 0)
        return BE_OK;
    p->pass = calloc((size_t)p->nsamples, sizeof *p->pass);
    if (!p->pass)
        return bad(ld, samples, "out of memory loading %d samples", p->nsamples);
    for (i = 0, s = first_elem(samples->children); s && i < p->nsamples; s = next_elem(s), i++)
        if (has(s, "pass"))
            p->pass[i] = (int)getl(ld, s, "pass");
    return ld->failed ? BE_EFAIL : BE_OK;
}

static void load_device(loader *ld, xmlNodePtr n, device_info *d)
{
    xmlNodePtr pr;
    (void)ld;
    memset(d, 0, sizeof *d);
    get(n, "id", d->id, sizeof d->id);
    get(n, "kind", d->kind, sizeof d->kind);
    get(n, "type", d->type, sizeof d->type);
    get(n, "name", d->name, sizeof d->name);
    get(n, "vendor", d->vendor, sizeof d->vendor);
    get(n, "driver", d->driver, sizeof d->driver);
    get(n, "library", d->library, sizeof d->library);
    for (pr = first_elem(n->children); pr && d->nprops < DEVICE_MAX_PROPS; pr = next_elem(pr)) {
        get(pr, "name", d->props[d->nprops].name, sizeof d->props[d->nprops].name);
        get(pr, "value", d->props[d->nprops].value, sizeof d->props[d->nprops].value);
        d->nprops++;
    }
}

static void load_summary(loader *ld, xmlNodePtr n, stats_summary *s)
{
    char drift[8];
    s->n = (int)getl(ld, n, "n");
    s->median = getd(ld, n, "median");
    s->min = getd(ld, n, "min");
    s->max = getd(ld, n, "max");
    s->p10 = getd(ld, n, "p10");
    s->p90 = getd(ld, n, "p90");
    s->mean = getd(ld, n, "mean");
    s->stdev = getd(ld, n, "stdev");
    s->cv = getd(ld, n, "cv");
    s->ci_lo = getd(ld, n, "ci-lo");
    s->ci_hi = getd(ld, n, "ci-hi");
    s->ci_level = getd(ld, n, "ci-level");
    get(n, "drift", drift, sizeof drift);
    s->drift = strcmp(drift, "yes") == 0;
    s->drift_ratio = getd(ld, n, "drift-ratio");
    s->passes = has(n, "passes") ? (int)getl(ld, n, "passes") : 0;
    s->contention = has(n, "contention") ? getd(ld, n, "contention") : 0.0;
}

static int load_point(loader *ld, results *r, xmlNodePtr n)
{
    rs_point p;
    char buf[64];
    xmlNodePtr c;
    int have_res = 0, have_xfer = 0, rc;

    memset(&p, 0, sizeof p);
    get(n, "device", p.device, sizeof p.device);
    if (!results_device(r, p.device))
        return bad(ld, n, "<point> refers to device \"%s\", which <devices> does not list", p.device);
    get(n, "mode", buf, sizeof buf);
    if (strcmp(buf, "training") != 0 && strcmp(buf, "inference") != 0)
        return bad(ld, n, "<point> mode \"%s\" is neither inference nor training", buf);
    p.mode = strcmp(buf, "training") == 0 ? WL_TRAINING : WL_INFERENCE;
    p.layers = (int)getl(ld, n, "layers");
    p.hidden = (int)getl(ld, n, "hidden");
    p.batch = (int)getl(ld, n, "batch");
    p.flops_per_layer = getd(ld, n, "flops-per-layer");
    get(n, "status", buf, sizeof buf);
    for (p.status = PT_OK; p.status <= PT_SKIPPED; p.status++)
        if (strcmp(buf, status_names[p.status]) == 0)
            break;
    if (p.status > PT_SKIPPED)
        return bad(ld, n, "<point> status \"%s\" is not ok, out-of-memory, "
                   "failed-verification or skipped", buf);
    get(n, "message", p.message, sizeof p.message);
    get(n, "added", p.why, sizeof p.why);
    for (c = first_elem(n->children); c; c = next_elem(c)) {
        if (is(c, "verification")) {
            p.verified = 1;
            p.checked = getl(ld, c, "checked");
            p.max_error = getd(ld, c, "max-error");
            p.tolerance = getd(ld, c, "tolerance");
            get(c, "worst", p.worst, sizeof p.worst);
        } else if (is(c, "samples")) {
            xmlNodePtr s;
            int cap = 0;
            for (s = first_elem(c->children); s; s = next_elem(s))
                cap++;
            p.samples = calloc((size_t)cap, sizeof *p.samples);
            if (!p.samples)
                return bad(ld, c, "out of memory loading %d samples", cap);
            p.has_transfer = has(first_elem(c->children), "total");
            for (s = first_elem(c->children); s; s = next_elem(s)) {
                step_times *t = &p.samples[p.nsamples++];
                t->wall = gets(ld, s, "wall");
                t->kernel = t->h2d = t->d2h = -1.0;
                t->total = t->wall;
                if (has(s, "total") != p.has_transfer) {
                    free(p.samples);
                    return bad(ld, s, "<s> must have the same attributes as the first sample");
                }
                if (p.has_transfer) {
                    if (!has(s, "kernel") || !has(s, "h2d") || !has(s, "d2h")) {
                        free(p.samples);
                        return bad(ld, s, "<s> with \"total\" needs \"kernel\", \"h2d\" and \"d2h\"");
                    }
                    t->kernel = gets(ld, s, "kernel");
                    t->h2d = gets(ld, s, "h2d");
                    t->d2h = gets(ld, s, "d2h");
                    t->total = gets(ld, s, "total");
                }
            }
            if (!ld->failed && load_sample_passes(ld, c, &p) < 0) {
                free(p.samples);
                return BE_EFAIL;
            }
        } else if (is(c, "summary")) {
            get(c, "view", buf, sizeof buf);
            if (strcmp(buf, "transfer") == 0) {
                load_summary(ld, c, &p.transfer);
                have_xfer = 1;
            } else {
                load_summary(ld, c, &p.resident);
                have_res = 1;
            }
        }
    }
    if (!ld->failed && p.nsamples > 0 && (!have_res || have_xfer != p.has_transfer))
        bad(ld, n, "<point> summaries do not match its samples (need \"resident\"%s)",
            p.has_transfer ? " and \"transfer\"" : " only");
    if (!ld->failed && p.nsamples > 0 && p.resident.n != p.nsamples)
        bad(ld, n, "<summary> n=%d but the point has %d samples", p.resident.n, p.nsamples);
    if (!ld->failed && p.status == PT_OK && p.nsamples == 0)
        bad(ld, n, "<point> with status \"ok\" has no samples");
    if (ld->failed) {
        free(p.samples);
        free(p.pass);
        return BE_EFAIL;
    }
    rc = results_add_point(r, &p, ld->e);
    free(p.samples);
    free(p.pass);
    return rc;
}

/* Index of name in names[0..n), or -1. */
static int lookup(const char *const *names, int n, const char *name)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static int get_enum(loader *ld, xmlNodePtr n, const char *attr, const char *const *names, int count)
{
    char buf[64];
    int v;
    get(n, attr, buf, sizeof buf);
    v = lookup(names, count, buf);
    if (v < 0)
        bad(ld, n, "<%s> %s \"%s\" is not known", n->name, attr, buf);
    return v < 0 ? 0 : v;
}

static void load_model(loader *ld, const results *r, xmlNodePtr n, fit_model *m)
{
    static const char *modes[] = {"inference", "training"}, *yesno[] = {"no", "yes"};
    xmlNodePtr o;
    memset(m, 0, sizeof *m);
    get(n, "device", m->device, sizeof m->device);
    m->mode = (wl_mode)get_enum(ld, n, "mode", modes, 2);
    m->view = (fit_view)get_enum(ld, n, "view", view_names, 2);
    m->ok = get_enum(ld, n, "ok", yesno, 2);
    if (!m->ok) {
        get(n, "why", m->why, sizeof m->why);
        return;
    }
    m->npoints = (int)getl(ld, n, "points");
    m->t0 = getd(ld, n, "t0");
    m->t0_err = getd(ld, n, "t0-err");
    m->P = getd(ld, n, "P");
    m->P_err = getd(ld, n, "P-err");
    m->half_size = getd(ld, n, "half-size");
    m->rms_rel = getd(ld, n, "rms-rel");
    m->fmin = getd(ld, n, "fmin");
    m->fmax = getd(ld, n, "fmax");
    for (o = first_elem(n->children); o && !ld->failed; o = next_elem(o)) {
        long k = getl(ld, o, "point");
        if (k < 0 || k >= r->npoints)
            bad(ld, o, "<outlier> point %ld is not one of the %d points", k, r->npoints);
        else if (m->noutliers < FIT_MAX_OUTLIERS)
            m->outliers[m->noutliers++] = (int)k;
    }
}

static void load_cross(loader *ld, xmlNodePtr n, fit_crossover *c)
{
    static const char *modes[] = {"inference", "training"}, *measures[] = {"time", "cost"};
    xmlNodePtr h;
    memset(c, 0, sizeof *c);
    get(n, "base", c->base, sizeof c->base);
    get(n, "other", c->other, sizeof c->other);
    c->mode = (wl_mode)get_enum(ld, n, "mode", modes, 2);
    c->view = (fit_view)get_enum(ld, n, "view", view_names, 2);
    c->cost = get_enum(ld, n, "measure", measures, 2);
    c->kind = (cross_kind)get_enum(ld, n, "kind", cross_names, 5);
    c->flops = getd(ld, n, "flops");
    c->ci_lo = getd(ld, n, "ci-lo");
    c->ci_hi = getd(ld, n, "ci-hi");
    for (h = first_elem(n->children); h && !ld->failed; h = next_elem(h)) {
        if (is(h, "sentence")) {
            xmlChar *t = xmlNodeGetContent(h);
            snprintf(c->sentence, sizeof c->sentence, "%s", t ? (const char *)t : "");
            xmlFree(t);
        } else if (is(h, "hidden") && c->nhidden < LIST_MAX) {
            fit_hidden_cross *x = &c->per_hidden[c->nhidden++];
            x->hidden = (int)getl(ld, h, "value");
            x->kind = (cross_kind)get_enum(ld, h, "kind", cross_names, 5);
            x->batch = getd(ld, h, "batch");
            x->flops = getd(ld, h, "flops");
        }
    }
}

static void load_fit(loader *ld, results *r, xmlNodePtr fit)
{
    xmlNodePtr n;
    char buf[32];
    int nm = 0, nc = 0;
    get(fit, "seed", buf, sizeof buf);
    r->fit_seed = strtoull(buf, NULL, 10);
    for (n = first_elem(fit->children); n; n = next_elem(n)) {
        nm += is(n, "model");
        nc += is(n, "crossover");
    }
    r->fit.models = calloc((size_t)nm + 1, sizeof *r->fit.models);
    r->fit.cross = calloc((size_t)nc + 1, sizeof *r->fit.cross);
    if (!r->fit.models || !r->fit.cross) {
        bad(ld, fit, "out of memory loading the fit");
        return;
    }
    r->has_fit = 1;
    for (n = first_elem(fit->children); n && !ld->failed; n = next_elem(n)) {
        if (is(n, "price")) {
            if (r->prices.n < FIT_MAX_PRICES) {
                get(n, "device", r->prices.device[r->prices.n], sizeof r->prices.device[0]);
                r->prices.usd_per_hour[r->prices.n++] = getd(ld, n, "usd-per-hour");
            }
        } else if (is(n, "model")) {
            load_model(ld, r, n, &r->fit.models[r->fit.nmodels++]);
        } else if (is(n, "crossover")) {
            load_cross(ld, n, &r->fit.cross[r->fit.ncross++]);
        }
    }
}

int results_load(const char *path, results **out, err *e)
{
    loader ld = {path, e, 0};
    xmlParserCtxtPtr pctx = NULL;
    xmlRelaxNGParserCtxtPtr sctx = NULL;
    xmlRelaxNGPtr schema = NULL;
    xmlRelaxNGValidCtxtPtr vctx = NULL;
    xmlDocPtr doc = NULL;
    xmlNodePtr root, n;
    results *r = NULL;
    char buf[32];
    FILE *probe;

    *out = NULL;
    /* a clear message for the common case, before libxml2's own */
    probe = fopen(path, "rb");
    if (!probe)
        return err_set(e, BE_EFAIL, "%s: cannot open: %s", path, strerror(errno));
    fclose(probe);

    pctx = xmlNewParserCtxt();
    if (!pctx)
        goto oom;
    xmlSetStructuredErrorFunc(&ld, on_xml_error);
    doc = xmlCtxtReadFile(pctx, path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        if (!ld.failed)
            err_set(e, BE_EFAIL, "%s: not an XML file", path);
        goto fail;
    }
    ld.failed = 0;
    root = xmlDocGetRootElement(doc);
    if (!root || !is(root, "breakeven-results")) {
        bad(&ld, root, "not a breakeven results file (the root element is <%s>)",
            root ? (const char *)root->name : "nothing");
        goto fail;
    }
    get(root, "format", buf, sizeof buf);
    if (strcmp(buf, "1") != 0) {
        bad(&ld, root, "results format \"%s\" is not supported (this breakeven reads format %d)",
            buf, RESULTS_FORMAT);
        goto fail;
    }
    if (!(r = results_new()))
        goto oom;
    get(root, "status", buf, sizeof buf);
    r->partial = strcmp(buf, "partial") == 0;
    for (n = first_elem(root->children); n && !ld.failed; n = next_elem(n)) {
        if (is(n, "provenance")) {
            load_prov(&ld, n, &r->prov);
            load_passes(&ld, n, r);
        } else if (is(n, "devices")) {
            xmlNodePtr d;
            for (d = first_elem(n->children); d && !ld.failed; d = next_elem(d)) {
                device_info di;
                load_device(&ld, d, &di);
                if (results_device(r, di.id))
                    bad(&ld, d, "device \"%s\" is listed twice", di.id);
                else if (results_add_device(r, &di, e) < 0)
                    ld.failed = 1;
            }
        } else if (is(n, "points")) {
            xmlNodePtr p;
            for (p = first_elem(n->children); p && !ld.failed; p = next_elem(p))
                if (load_point(&ld, r, p) < 0)
                    ld.failed = 1;
        } else if (is(n, "fit")) {
            load_fit(&ld, r, n);
        }
    }
    if (ld.failed)
        goto fail;
    sctx = xmlRelaxNGNewMemParserCtxt(embed_results_rng, (int)strlen(embed_results_rng));
    if (!sctx || !(schema = xmlRelaxNGParse(sctx)) || !(vctx = xmlRelaxNGNewValidCtxt(schema))) {
        err_set(e, BE_EFAIL, "%s: the built-in results schema does not compile", path);
        goto fail;
    }
    xmlRelaxNGSetValidStructuredErrors(vctx, on_xml_error, &ld);
    if (xmlRelaxNGValidateDoc(vctx, doc) != 0) {
        if (!ld.failed)
            bad(&ld, root, "does not match the results schema");
        goto fail;
    }

    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlRelaxNGFreeValidCtxt(vctx);
    xmlRelaxNGFree(schema);
    xmlRelaxNGFreeParserCtxt(sctx);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    *out = r;
    return BE_OK;
oom:
    err_set(e, BE_EFAIL, "%s: out of memory", path);
fail:
    xmlSetStructuredErrorFunc(NULL, NULL);
    results_free(r);
    xmlRelaxNGFreeValidCtxt(vctx);
    xmlRelaxNGFree(schema);
    xmlRelaxNGFreeParserCtxt(sctx);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    return BE_EFAIL;
}
