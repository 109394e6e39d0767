/*
 * results_write.c — a results model (results.h) written as its XML file,
 * results.xml or results.xml.gz (see the schema src/results/results.rng, which is
 * the reference for every element and attribute written here).
 *
 * The file is built as a libxml2 tree, so escaping is correct by
 * construction, then checked by the loader (results_load.c) before it is
 * written atomically: breakeven never writes a file it would refuse.
 *
 * Numbers are written with 17 significant digits so that loading a file
 * gives back the very doubles that were measured (the round-trip test in
 * tests/ depends on it).
 */
#include "results.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "fsx.h"
#include "gz.h"
#include "results_int.h"

/* What went wrong while one tree was built.  It rides on the document's
 * _private pointer, so that the helpers below need no extra argument. */
typedef struct writer {
    int oom;             /* a tree allocation failed                 */
    char nonfinite[128]; /* the first number that was not finite     */
} writer;

static writer *writer_of(xmlNodePtr n)
{
    return n->doc->_private;
}

static void put(xmlNodePtr n, const char *name, const char *value)
{
    if (!xmlNewProp(n, BAD_CAST name, BAD_CAST value))
        writer_of(n)->oom = 1;
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

/* Every double of the file goes through here.  One that is not finite is
 * refused: the schema has no room for it, so the file would not load. */
static void putd(xmlNodePtr n, const char *name, double v)
{
    writer *w = writer_of(n);
    if (!isfinite(v)) {
        if (!w->nonfinite[0])
            snprintf(w->nonfinite, sizeof w->nonfinite, "<%s> attribute \"%s\" would be %g",
                     (const char *)n->name, name, v);
        return;
    }
    putf(n, name, "%.17g", v);
}

static xmlNodePtr child(xmlNodePtr parent, const char *name)
{
    xmlNodePtr c = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
    if (!c)
        writer_of(parent)->oom = 1;
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
        if (p->env[0])
            put(n, "environment", p->env);
        if (p->pair[0]) {
            char side[2] = {p->pair_side, '\0'};
            put(n, "pair", p->pair);
            put(n, "pair-side", side);
        }
        if (p->base[0])
            put(n, "base", p->base);
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
        putd(n, "memory-bytes", p->memory);
        put(n, "compiler", p->compiler);
        if (p->label[0])
            put(n, "label", p->label);
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
        if (p->ref.has) {
            putd(n, "ref-loop", p->ref.loop);
            putd(n, "ref-stream", p->ref.stream);
        }
        if (p->hop_checks > 0) {
            putf(n, "hop-checks", "%d", p->hop_checks);
            putf(n, "hop-far", "%d", p->hop_far);
            putd(n, "hop", p->hop);
        }
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

/* stem-before and stem-after, each when it was read. */
static void put_pair(xmlNodePtr n, const char *stem, const int has[2], const double v[2])
{
    char name[32];
    int k;
    for (k = 0; k < 2; k++)
        if (has[k]) {
            snprintf(name, sizeof name, "%s-%s", stem, rs_tel_when[k]);
            putd(n, name, v[k]);
        }
}

/* <telemetry>: what the device reported while the point was timed; each
 * value only when it was read, the energy only once it covers enough time
 * (telemetry.h). */
static void write_telemetry(xmlNodePtr pt, const tel_point *t)
{
    xmlNodePtr n;
    char name[32];
    int k;
    if (t->kind == TEL_NONE || !(n = child(pt, "telemetry")))
        return;
    put(n, "source", rs_tel_sources[t->kind == TEL_RAPL]);
    put_pair(n, "sm-mhz", t->has_sm, t->sm_mhz);
    put_pair(n, "mem-mhz", t->has_mem, t->mem_mhz);
    put_pair(n, "power-w", t->has_power, t->power_w);
    put_pair(n, "temp-c", t->has_temp, t->temp_c);
    for (k = 0; k < 2; k++)
        if (t->has_throttle[k]) {
            snprintf(name, sizeof name, "throttle-%s", rs_tel_when[k]);
            putf(n, name, "0x%llx", t->throttle[k]);
        }
    if (t->has_throttle[0] || t->has_throttle[1])
        put(n, "throttled", t->throttled ? "yes" : "no");
    if (t->has_energy) {
        putd(n, "energy-j", t->energy_j);
        putd(n, "energy-span-s", t->energy_span_s);
        putf(n, "energy-samples", "%d", t->energy_samples);
        putf(n, "energy-visits", "%d", t->energy_visits);
    }
}

/* <devices>: each device as its backend described it (devinfo.h). */
static void write_devices(xmlNodePtr root, const results *r)
{
    xmlNodePtr devs = child(root, "devices");
    int i, j;
    for (i = 0; devs && i < r->ndevices; i++) {
        const device_info *d = &r->devices[i];
        xmlNodePtr n = child(devs, "device");
        if (!n)
            return;
        put(n, "id", d->id);
        put(n, "kind", d->kind);
        put(n, "type", d->type);
        put(n, "name", d->name);
        put(n, "vendor", d->vendor);
        put(n, "driver", d->driver);
        put(n, "library", d->library);
        if (d->run_sd_runs > 0) {
            static const char *const names[3] = {"run-sd", "run-sd-transfer", "run-sd-whost"};
            putf(n, "run-sd-runs", "%d", d->run_sd_runs);
            for (j = 0; j < 3; j++)
                if (d->run_sd[j] >= 0.0)
                    putf(n, names[j], "%.4f", d->run_sd[j]);
        }
        for (j = 0; j < d->nprops; j++) {
            xmlNodePtr pr = child(n, "prop");
            if (!pr)
                break;
            put(pr, "name", d->props[j].name);
            put(pr, "value", d->props[j].value);
        }
    }
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
    if (p->net[0]) {
        put(pt, "net", p->net);
        put(pt, "sizes", p->sizes);
    }
    putd(pt, "flops-per-layer", p->flops_per_layer);
    if (p->nlayer > 0) {
        char list[WL_MAX_LAYERS * 26];
        size_t k = 0;
        for (i = 0; i < p->nlayer && k < sizeof list; i++)
            k +=
                (size_t)snprintf(list + k, sizeof list - k, "%s%.17g", i ? " " : "", p->layer_s[i]);
        put(pt, "layer-seconds", list);
        putf(pt, "layer-steps", "%ld", p->layer_n);
    }
    put(pt, "status", results_status_name(p->status));
    if (p->message[0])
        put(pt, "message", p->message);
    if (p->why[0])
        put(pt, "added", p->why);
    if (p->verified && (n = child(pt, "verification"))) {
        putf(n, "checked", "%ld", p->checked);
        if (isfinite(p->max_error)) /* NaN or inf: the point's message names it */
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
        if (t->far != 0.0)
            put(s, "far", "1");
        if (p->has_transfer) {
            putd(s, "kernel", t->kernel);
            putd(s, "h2d", t->h2d);
            putd(s, "d2h", t->d2h);
            putd(s, "total", t->total);
        }
        if (p->has_whost)
            putd(s, "whost", t->whost);
    }
    write_summary(pt, p, "resident", &p->resident);
    if (p->has_transfer)
        write_summary(pt, p, "transfer", &p->transfer);
    if (p->has_whost)
        write_summary(pt, p, "weights-on-host", &p->whost);
    write_telemetry(pt, &p->tel);
}

static void write_model(xmlNodePtr fit, const fit_model *m)
{
    xmlNodePtr n = child(fit, "model");
    int i;
    if (!n)
        return;
    put(n, "device", m->device);
    put(n, "mode", m->mode == WL_TRAINING ? "training" : "inference");
    put(n, "view", rs_view_names[m->view]);
    if (m->hidden > 0)
        putf(n, "hidden", "%d", m->hidden);
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
    if (m->poor)
        put(n, "poor", "yes");
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
    put(n, "view", rs_view_names[c->view]);
    put(n, "measure", c->cost ? "cost" : "time");
    put(n, "kind", rs_cross_names[c->kind]);
    putd(n, "flops", c->flops);
    putd(n, "ci-lo", c->ci_lo);
    putd(n, "ci-hi", c->ci_hi);
    if (c->flops_max > 0.0) {
        putd(n, "flops-min", c->flops_min);
        putd(n, "flops-max", c->flops_max);
    }
    if ((s = child(n, "sentence")))
        xmlNodeAddContent(s, BAD_CAST c->sentence);
    for (i = 0; i < c->nhidden; i++) {
        xmlNodePtr h = child(n, "hidden");
        if (!h)
            return;
        putf(h, "value", "%d", c->per_hidden[i].hidden);
        put(h, "kind", rs_cross_names[c->per_hidden[i].kind]);
        putd(h, "batch", c->per_hidden[i].batch);
        putd(h, "flops", c->per_hidden[i].flops);
        if (c->per_hidden[i].batch_hi > 0.0) {
            putd(h, "batch-lo", c->per_hidden[i].batch_lo);
            putd(h, "batch-hi", c->per_hidden[i].batch_hi);
            if (c->per_hidden[i].lo_open)
                put(h, "lo-open", "yes");
            if (c->per_hidden[i].hi_open)
                put(h, "hi-open", "yes");
        }
    }
}

static void write_fit(xmlNodePtr root, const results *r)
{
    xmlNodePtr fit = child(root, "fit"), n;
    int i;
    if (!fit)
        return;
    putf(fit, "seed", "%llu", r->fit_seed);
    if (r->fit.analysis > 1)
        putf(fit, "analysis", "%d", r->fit.analysis);
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

/* Writes text to path inside root (fsx_write_in), gzip-compressed when
 * path ends in ".gz". */
static int write_maybe_gz(const char *root, const char *path, const void *text, size_t len, err *e)
{
    size_t n = strlen(path), zlen;
    char *z;
    int rc;
    if (n < 3 || strcmp(path + n - 3, ".gz") != 0)
        return fsx_write_in(root, path, text, len, e);
    if ((rc = gz_compress(text, len, &z, &zlen, e)) < 0)
        return err_prefix(e, rc, "%s", path);
    rc = fsx_write_in(root, path, z, zlen, e);
    free(z);
    return rc;
}

int results_format(const results *r)
{
    int i;
    if (r->prov.base[0])
        return 3;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].kind, "framework") == 0)
            return 3;
    return 2;
}

int results_point_saveable(const rs_point *p, char *what, size_t size)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root;
    writer w = {0, ""};
    int rc;
    what[0] = '\0';
    if (!doc || !(root = xmlNewNode(NULL, BAD_CAST "points"))) {
        xmlFreeDoc(doc);
        return BE_EFAIL;
    }
    doc->_private = &w;
    xmlDocSetRootElement(doc, root);
    write_point(root, p);
    rc = w.oom ? BE_EFAIL : !w.nonfinite[0];
    snprintf(what, size, "%s", w.nonfinite);
    xmlFreeDoc(doc);
    return rc;
}

int results_save(const results *r, const char *out, const char *path, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root, pts;
    xmlChar *mem = NULL;
    writer w = {0, ""};
    int len = 0, i, rc;

    if (!doc || !(root = xmlNewNode(NULL, BAD_CAST "breakeven-results"))) {
        xmlFreeDoc(doc);
        return err_set(e, BE_EFAIL, "%s: out of memory building the XML tree", path);
    }
    doc->_private = &w;
    xmlDocSetRootElement(doc, root);
    putf(root, "format", "%d", results_format(r));
    put(root, "status", r->partial ? "partial" : "complete");
    write_passes(write_prov(root, &r->prov), r);
    write_devices(root, r);
    if ((pts = child(root, "points")))
        for (i = 0; i < r->npoints; i++)
            write_point(pts, &r->points[i]);
    if (r->has_fit)
        write_fit(root, r);
    if (w.oom || w.nonfinite[0]) {
        xmlFreeDoc(doc);
        if (w.oom)
            return err_set(e, BE_EFAIL, "%s: out of memory building the XML tree", path);
        return err_set(e, BE_EFAIL, "%s: not saved: %s, which is not a finite number", path,
                       w.nonfinite);
    }
    xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 1);
    xmlFreeDoc(doc);
    if (!mem)
        return err_set(e, BE_EFAIL, "%s: cannot serialize the XML tree", path);
    /* breakeven never writes a file it would refuse: what is written has
     * passed every check of results_load */
    if ((rc = results_loads_back(path, (const char *)mem, (size_t)len, e)) == BE_OK)
        rc = write_maybe_gz(out, path, mem, (size_t)len, e);
    xmlFree(mem);
    return rc;
}
