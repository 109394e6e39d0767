/*
 * results_read.c — the loader's readers, one per element of a results
 * file, each taking only that element's attributes into the model, within
 * the bounds a results file may hold.
 *
 * Part of the results loader (results_load_int.h): results_check.c reads
 * the document through them, and results_schema.c asks them which
 * attribute is wrong where the schema only says that one is.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_int.h"
#include "results_load_int.h"

#define TIME_MIN 1e-12    /* a step timed below a picosecond is no measurement */
#define TIME_MAX 1e6      /* seconds: --budget's own limit                      */
#define FLOPS_MAX 1e30    /* FLOPs per layer, and their range in a fit          */
#define DERIVED_MAX 1e150 /* fitted quantities: a product of two stays finite   */
#define HUGE_MAX 1e300    /* crossovers, which may lie far outside the data     */
#define MAX_CORES (1 << 20)
#define MAX_MEMORY 1e18 /* bytes of host memory                               */
#define PRICE_MIN 1e-9  /* USD per hour                                       */
#define PRICE_MAX 1e9
#define TEL_MHZ_MAX 1e6       /* a clock                                            */
#define TEL_WATTS_MAX 1e6     /* a device's power, and its mean power over a span   */
#define TEL_JOULES_MAX 1e12   /* energy over a point's timed samples                */
#define FIT_MAX_ANALYSIS 1000 /* versions of the fit's method                    */

static const char *const root_status[] = {"complete", "partial"};
static const char *const device_kinds[] = {"openblas", "opencl", "framework"};
static const char *const threads_from[] = {"--threads", "OPENBLAS_NUM_THREADS", "cores"};
static const char *const pair_sides[] = {"A", "B"};
const char *const rs_mode_names[2] = {"inference", "training"};
static const char *const yes_no[] = {"no", "yes"};
const char *const rs_measures[2] = {"time", "cost"};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---- one element's attributes ----
 * Each reader takes only what its element holds, so that it can also tell
 * which attribute the schema found wrong (see rs_diagnose). */

void rs_read_root(rs_loader *ld, xmlNodePtr n, int *partial)
{
    *partial = rs_get_enum(ld, n, "status", root_status, COUNT(root_status));
}

void rs_read_breakeven(rs_loader *ld, xmlNodePtr n, rs_prov *p)
{
    rs_get_text(ld, n, "version", p->version, sizeof p->version, 0);
    rs_get_text(ld, n, "commit", p->commit, sizeof p->commit, 0);
}

void rs_read_run(rs_loader *ld, xmlNodePtr n, rs_prov *p)
{
    rs_get_exact(ld, n, "id", p->id, sizeof p->id);
    rs_get_time(ld, n, "started", p->started, sizeof p->started);
    rs_get_time(ld, n, "finished", p->finished, sizeof p->finished);
    rs_get_text(ld, n, "command", p->command, sizeof p->command, 0);
    if (rs_has(n, "environment"))
        rs_get_text(ld, n, "environment", p->env, sizeof p->env, 0);
    if (rs_has(n, "pair")) {
        rs_get_text(ld, n, "pair", p->pair, sizeof p->pair, 0);
        p->pair_side = (char)("AB"[rs_get_enum(ld, n, "pair-side", pair_sides, COUNT(pair_sides))]);
    }
    /* a device's id, kept exactly: a cut one could name another device */
    if (rs_has(n, "base"))
        rs_get_exact(ld, n, "base", p->base, sizeof p->base);
    p->seed = rs_get_seed(ld, n, "seed");
    p->budget = rs_get_real(ld, n, "budget", DBL_MIN, TIME_MAX);
    p->layers = (int)rs_get_int(ld, n, "layers", 1, RESULTS_MAX_LAYERS);
    rs_get_text(ld, n, "hidden", p->hidden, sizeof p->hidden, 0);
    rs_get_text(ld, n, "batch", p->batch, sizeof p->batch, 0);
    rs_get_text(ld, n, "modes", p->modes, sizeof p->modes, 0);
}

void rs_read_host(rs_loader *ld, xmlNodePtr n, rs_prov *p)
{
    rs_get_text(ld, n, "name", p->host, sizeof p->host, 0);
    rs_get_text(ld, n, "os", p->os, sizeof p->os, 0);
    rs_get_text(ld, n, "kernel", p->kernel, sizeof p->kernel, 0);
    rs_get_text(ld, n, "cpu-model", p->cpu_model, sizeof p->cpu_model, 0);
    p->cores = (int)rs_get_int(ld, n, "cores", 1, MAX_CORES);
    p->memory = rs_get_real(ld, n, "memory-bytes", 0.0, MAX_MEMORY);
    rs_get_text(ld, n, "compiler", p->compiler, sizeof p->compiler, 0);
    if (rs_has(n, "label"))
        rs_get_text(ld, n, "label", p->label, sizeof p->label, 0);
}

void rs_read_openblas(rs_loader *ld, xmlNodePtr n, rs_prov *p)
{
    rs_get_text(ld, n, "version", p->blas_version, sizeof p->blas_version, 0);
    rs_get_text(ld, n, "config", p->blas_config, sizeof p->blas_config, 0);
    rs_get_text(ld, n, "core", p->blas_core, sizeof p->blas_core, 0);
    p->blas_threads = (int)rs_get_int(ld, n, "threads", 1, MAX_CORES);
    if (rs_has(n, "threads-from"))
        snprintf(
            p->blas_threads_from, sizeof p->blas_threads_from, "%s",
            threads_from[rs_get_enum(ld, n, "threads-from", threads_from, COUNT(threads_from))]);
    else
        p->blas_threads_from[0] = '\0';
}

/* One <pass> of <passes>: shares are of all CPUs' time. */
void rs_read_pass(rs_loader *ld, xmlNodePtr n, rs_pass *p)
{
    machstate *m = &p->state;
    memset(p, 0, sizeof *p);
    p->index = (int)rs_get_int(ld, n, "index", 1, RESULTS_MAX_PASSES);
    rs_get_time(ld, n, "started", p->started, sizeof p->started);
    p->seconds = rs_get_real(ld, n, "seconds", 0.0, TIME_MAX);
    p->visits = (int)rs_get_int(ld, n, "visits", 0, RESULTS_MAX_POINTS);
    if ((m->has_loadavg = rs_has(n, "loadavg")))
        m->loadavg = rs_get_real(ld, n, "loadavg", 0.0, MAX_CORES);
    if ((m->has_cpu = rs_has(n, "others-cpu") || rs_has(n, "self-cpu") || rs_has(n, "steal"))) {
        m->self_cpu = rs_get_real(ld, n, "self-cpu", 0.0, 1.0);
        m->others_cpu = rs_get_real(ld, n, "others-cpu", 0.0, 1.0);
        m->steal = rs_get_real(ld, n, "steal", 0.0, 1.0);
    }
    if ((m->has_freq = rs_has(n, "freq-mhz")))
        m->freq_mhz = rs_get_real(ld, n, "freq-mhz", 0.0, 1e6);
    if ((m->has_temp = rs_has(n, "temp-c")))
        m->temp_c = rs_get_real(ld, n, "temp-c", -273.15, 1000.0);
    if ((p->ref.has = rs_has(n, "ref-loop") || rs_has(n, "ref-stream"))) {
        p->ref.loop = rs_get_real(ld, n, "ref-loop", 1e-9, TIME_MAX);
        p->ref.stream = rs_get_real(ld, n, "ref-stream", 1e-9, TIME_MAX);
    }
    if (rs_has(n, "hop-checks") || rs_has(n, "hop-far") || rs_has(n, "hop")) {
        p->hop_checks = (int)rs_get_int(ld, n, "hop-checks", 1, p->visits);
        p->hop_far = (int)rs_get_int(ld, n, "hop-far", 0, p->hop_checks);
        p->hop = rs_get_real(ld, n, "hop", 1e-12, 1.0);
    }
}

/* One <prop> of a <device>. */
void rs_read_prop(rs_loader *ld, xmlNodePtr n, device_prop *pr)
{
    rs_get_text(ld, n, "name", pr->name, sizeof pr->name, 0);
    rs_get_text(ld, n, "value", pr->value, sizeof pr->value, 0);
}

void rs_read_device(rs_loader *ld, xmlNodePtr n, device_info *d)
{
    memset(d, 0, sizeof *d);
    rs_get_exact(ld, n, "id", d->id, sizeof d->id);
    snprintf(d->kind, sizeof d->kind, "%s",
             device_kinds[rs_get_enum(ld, n, "kind", device_kinds, COUNT(device_kinds))]);
    rs_get_text(ld, n, "type", d->type, sizeof d->type, 0);
    rs_get_text(ld, n, "name", d->name, sizeof d->name, 0);
    rs_get_text(ld, n, "vendor", d->vendor, sizeof d->vendor, 0);
    rs_get_text(ld, n, "driver", d->driver, sizeof d->driver, 0);
    rs_get_text(ld, n, "library", d->library, sizeof d->library, 0);
    d->run_sd[0] = d->run_sd[1] = d->run_sd[2] = -1.0;
    if (rs_has(n, "run-sd-runs")) {
        static const char *const names[3] = {"run-sd", "run-sd-transfer", "run-sd-whost"};
        int v;
        d->run_sd_runs = (int)rs_get_int(ld, n, "run-sd-runs", 2, 1000);
        for (v = 0; v < 3; v++)
            if (rs_has(n, names[v]))
                d->run_sd[v] = rs_get_real(ld, n, names[v], 0.0, 10.0);
    }
}

/* A network's name and sizes (format 2): both, a valid name, sizes that
 * parse and agree with the point's layers and hidden (its widest size). */
static void read_point_net(rs_loader *ld, xmlNodePtr n, rs_point *p)
{
    net_spec spec;
    err e;
    size_t i;
    rs_get_text(ld, n, "net", p->net, sizeof p->net, 0);
    rs_get_text(ld, n, "sizes", p->sizes, sizeof p->sizes, 0);
    if (ld->failed)
        return;
    for (i = 0; p->net[i]; i++)
        if (!isalnum((unsigned char)p->net[i]) && !strchr("._-", p->net[i])) {
            rs_bad(ld, n,
                   "<point> has a network name with characters other than letters, "
                   "digits, '.', '_' and '-'");
            return;
        }
    if (!p->net[0] || net_parse_sizes(p->sizes, "sizes", &spec, &e) < 0) {
        rs_bad(ld, n, "<point> has %s", p->net[0] ? e.msg : "an empty network name");
        return;
    }
    if (spec.layers != p->layers || net_widest(&spec) != p->hidden)
        rs_bad(ld, n,
               "<point> has sizes \"%s\" but layers=%d hidden=%d (its layers and widest "
               "size)",
               p->sizes, p->layers, p->hidden);
}

/* A network point's mean time per layer: one number of seconds a layer,
 * and the steps they average over. */
static void read_layer_times(rs_loader *ld, xmlNodePtr n, rs_point *p)
{
    xmlChar *v = rs_attr(ld, n, "layer-seconds", 0);
    const char *s = (const char *)v;
    int k = 0;
    while (v && s && *s && !ld->failed) {
        char word[64];
        size_t len = strcspn(s, " ");
        double d;
        if (len == 0 || len >= sizeof word || k == p->layers) {
            rs_bad(ld, n, "<point> attribute \"layer-seconds\" is not %d times", p->layers);
            break;
        }
        memcpy(word, s, len);
        word[len] = '\0';
        if (!rs_parse_real((const xmlChar *)word, &d) || d < 0.0 || d > TIME_MAX) {
            rs_bad(ld, n, "<point> attribute \"layer-seconds\" holds \"%s\", not a time", word);
            break;
        }
        p->layer_s[k++] = d;
        s += len;
        s += *s == ' ';
    }
    xmlFree(v);
    if (ld->failed)
        return;
    if (k != p->layers)
        rs_bad(ld, n, "<point> attribute \"layer-seconds\" has %d times for %d layers", k,
               p->layers);
    p->nlayer = k;
    p->layer_n = (long)rs_get_int(ld, n, "layer-steps", 1, 1LL << 40);
}

void rs_read_point(rs_loader *ld, xmlNodePtr n, rs_point *p)
{
    memset(p, 0, sizeof *p);
    rs_get_exact(ld, n, "device", p->device, sizeof p->device);
    p->mode = (wl_mode)rs_get_enum(ld, n, "mode", rs_mode_names, COUNT(rs_mode_names));
    p->layers = (int)rs_get_int(ld, n, "layers", 1, RESULTS_MAX_LAYERS);
    p->hidden = (int)rs_get_int(ld, n, "hidden", 1, RESULTS_MAX_HIDDEN);
    p->batch = (int)rs_get_int(ld, n, "batch", 1, RESULTS_MAX_BATCH);
    if (rs_has(n, "net") || rs_has(n, "sizes"))
        read_point_net(ld, n, p);
    p->flops_per_layer = rs_get_real(ld, n, "flops-per-layer", 1.0, FLOPS_MAX);
    if (rs_has(n, "layer-seconds"))
        read_layer_times(ld, n, p);
    p->status = (rs_status)rs_get_enum(ld, n, "status", rs_status_names, COUNT(rs_status_names));
    rs_get_text(ld, n, "message", p->message, sizeof p->message, 1);
    rs_get_text(ld, n, "added", p->why, sizeof p->why, 1);
}

void rs_read_verification(rs_loader *ld, xmlNodePtr n, rs_point *p)
{
    p->verified = 1;
    p->checked = (long)rs_get_int(ld, n, "checked", 0, 1LL << 53);
    p->max_error = rs_has(n, "max-error") ? rs_get_real(ld, n, "max-error", 0.0, DBL_MAX) : NAN;
    p->tolerance = rs_get_real(ld, n, "tolerance", DBL_MIN, 1.0);
    rs_get_text(ld, n, "worst", p->worst, sizeof p->worst, 0);
}

/* One sample: the wall time, and with "total" the transfer times too. */
/* A sample's times, and *pass, the pass it was measured in (0: not said,
 * as in files of 0.1.0). */
void rs_read_sample(rs_loader *ld, xmlNodePtr n, step_times *t, int *pass, int transfer, int whost)
{
    static const char *const parts[] = {"kernel", "h2d", "d2h"};
    int i;
    *pass = rs_has(n, "pass") ? (int)rs_get_int(ld, n, "pass", 1, RESULTS_MAX_PASSES) : 0;
    t->wall = rs_get_real(ld, n, "wall", TIME_MIN, TIME_MAX);
    t->far = rs_has(n, "far") ? (double)rs_get_int(ld, n, "far", 1, 1) : 0.0;
    t->kernel = t->h2d = t->d2h = t->whost = -1.0;
    t->total = t->wall;
    if (whost)
        t->whost = rs_get_real(ld, n, "whost", TIME_MIN, TIME_MAX);
    else if (rs_has(n, "whost"))
        rs_bad(ld, n, "<s> has \"whost\" unlike the first sample of its point");
    if (!transfer) {
        for (i = 0; i < COUNT(parts); i++)
            if (rs_has(n, parts[i]))
                rs_bad(ld, n, "<s> has \"%s\" but no \"total\"", parts[i]);
        if (rs_has(n, "total"))
            rs_bad(ld, n, "<s> has \"total\" unlike the first sample of its point");
        return;
    }
    t->kernel = rs_get_real(ld, n, "kernel", 0.0, TIME_MAX);
    t->h2d = rs_get_real(ld, n, "h2d", 0.0, TIME_MAX);
    t->d2h = rs_get_real(ld, n, "d2h", 0.0, TIME_MAX);
    t->total = rs_get_real(ld, n, "total", TIME_MIN, TIME_MAX);
}

void rs_read_summary(rs_loader *ld, xmlNodePtr n, stats_summary *s, fit_view *view)
{
    memset(s, 0, sizeof *s);
    s->spread = -1.0; /* not in the file: refit computes it again */
    *view = (fit_view)rs_get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    s->n = (int)rs_get_int(ld, n, "n", 1, RESULTS_MAX_SAMPLES);
    s->median = rs_get_real(ld, n, "median", TIME_MIN, TIME_MAX);
    s->min = rs_get_real(ld, n, "min", TIME_MIN, TIME_MAX);
    s->max = rs_get_real(ld, n, "max", TIME_MIN, TIME_MAX);
    s->p10 = rs_get_real(ld, n, "p10", TIME_MIN, TIME_MAX);
    s->p90 = rs_get_real(ld, n, "p90", TIME_MIN, TIME_MAX);
    s->mean = rs_get_real(ld, n, "mean", TIME_MIN, TIME_MAX);
    s->stdev = rs_get_real(ld, n, "stdev", 0.0, TIME_MAX);
    s->cv = rs_get_real(ld, n, "cv", 0.0, TIME_MAX / TIME_MIN);
    s->ci_lo = rs_get_real(ld, n, "ci-lo", 0.0, HUGE_MAX);
    s->ci_hi = rs_get_real(ld, n, "ci-hi", 0.0, HUGE_MAX);
    s->ci_level = rs_get_real(ld, n, "ci-level", 0.0, 1.0);
    s->drift = rs_get_enum(ld, n, "drift", yes_no, COUNT(yes_no));
    s->drift_ratio = rs_get_real(ld, n, "drift-ratio", 0.0, TIME_MAX / TIME_MIN);
    rs_get_real(ld, n, "gflops", 0.0, DERIVED_MAX); /* recomputed on save */
    s->passes = rs_has(n, "passes") ? (int)rs_get_int(ld, n, "passes", 1, RESULTS_MAX_PASSES) : 0;
    s->contention = rs_has(n, "contention") ? rs_get_real(ld, n, "contention", 0.0, 1.0) : 0.0;
}

/* <fit>'s attributes: the seed, and the analysis version (1 when absent:
 * the files of 0.1.0). */
void rs_read_fit(rs_loader *ld, xmlNodePtr n, unsigned long long *seed, int *analysis)
{
    *seed = rs_get_seed(ld, n, "seed");
    *analysis = rs_has(n, "analysis") ? (int)rs_get_int(ld, n, "analysis", 1, FIT_MAX_ANALYSIS) : 1;
}

void rs_read_price(rs_loader *ld, xmlNodePtr n, char id[32], double *usd)
{
    rs_get_exact(ld, n, "device", id, 32);
    *usd = rs_get_real(ld, n, "usd-per-hour", PRICE_MIN, PRICE_MAX);
}

void rs_read_model(rs_loader *ld, xmlNodePtr n, fit_model *m)
{
    memset(m, 0, sizeof *m);
    rs_get_exact(ld, n, "device", m->device, sizeof m->device);
    m->mode = (wl_mode)rs_get_enum(ld, n, "mode", rs_mode_names, COUNT(rs_mode_names));
    m->view = (fit_view)rs_get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    m->hidden = rs_has(n, "hidden") ? (int)rs_get_int(ld, n, "hidden", 1, RESULTS_MAX_HIDDEN) : 0;
    m->ok = rs_get_enum(ld, n, "ok", yes_no, COUNT(yes_no));
    if (!m->ok) {
        rs_get_text(ld, n, "why", m->why, sizeof m->why, 0);
        return;
    }
    m->npoints = (int)rs_get_int(ld, n, "points", 1, RESULTS_MAX_POINTS);
    m->t0 = rs_get_real(ld, n, "t0", -DERIVED_MAX, DERIVED_MAX);
    m->t0_err = rs_get_real(ld, n, "t0-err", 0.0, DERIVED_MAX);
    m->P = rs_get_real(ld, n, "P", DBL_MIN, DERIVED_MAX);
    m->P_err = rs_get_real(ld, n, "P-err", 0.0, DERIVED_MAX);
    m->half_size = rs_get_real(ld, n, "half-size", -DERIVED_MAX, DERIVED_MAX);
    m->rms_rel = rs_get_real(ld, n, "rms-rel", 0.0, DERIVED_MAX);
    m->poor = rs_has(n, "poor") ? rs_get_enum(ld, n, "poor", yes_no, COUNT(yes_no)) : 0;
    m->fmin = rs_get_real(ld, n, "fmin", 1.0, FLOPS_MAX);
    m->fmax = rs_get_real(ld, n, "fmax", 1.0, FLOPS_MAX);
}

void rs_read_outlier(rs_loader *ld, xmlNodePtr n, int *k)
{
    *k = (int)rs_get_int(ld, n, "point", 0, RESULTS_MAX_POINTS - 1);
}

void rs_read_cross(rs_loader *ld, xmlNodePtr n, fit_crossover *c)
{
    memset(c, 0, sizeof *c);
    rs_get_exact(ld, n, "base", c->base, sizeof c->base);
    rs_get_exact(ld, n, "other", c->other, sizeof c->other);
    c->mode = (wl_mode)rs_get_enum(ld, n, "mode", rs_mode_names, COUNT(rs_mode_names));
    c->view = (fit_view)rs_get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    c->cost = rs_get_enum(ld, n, "measure", rs_measures, COUNT(rs_measures));
    c->kind = (cross_kind)rs_get_enum(ld, n, "kind", rs_cross_names, COUNT(rs_cross_names));
    c->flops = rs_get_real(ld, n, "flops", 0.0, HUGE_MAX);
    c->ci_lo = rs_get_real(ld, n, "ci-lo", 0.0, HUGE_MAX);
    c->ci_hi = rs_get_real(ld, n, "ci-hi", 0.0, HUGE_MAX);
    c->flops_min = rs_has(n, "flops-min") ? rs_get_real(ld, n, "flops-min", 0.0, HUGE_MAX) : 0.0;
    c->flops_max = rs_has(n, "flops-max") ? rs_get_real(ld, n, "flops-max", 0.0, HUGE_MAX) : 0.0;
}

void rs_read_hidden(rs_loader *ld, xmlNodePtr n, fit_hidden_cross *x)
{
    x->hidden = (int)rs_get_int(ld, n, "value", 1, RESULTS_MAX_HIDDEN);
    x->kind = (cross_kind)rs_get_enum(ld, n, "kind", rs_cross_names, COUNT(rs_cross_names));
    x->batch = rs_get_real(ld, n, "batch", 0.0, RESULTS_MAX_BATCH);
    x->flops = rs_get_real(ld, n, "flops", 0.0, HUGE_MAX);
    x->batch_lo =
        rs_has(n, "batch-lo") ? rs_get_real(ld, n, "batch-lo", 0.0, RESULTS_MAX_BATCH) : 0.0;
    x->batch_hi =
        rs_has(n, "batch-hi") ? rs_get_real(ld, n, "batch-hi", 0.0, RESULTS_MAX_BATCH) : 0.0;
    x->lo_open = rs_has(n, "lo-open") ? rs_get_enum(ld, n, "lo-open", yes_no, COUNT(yes_no)) : 0;
    x->hi_open = rs_has(n, "hi-open") ? rs_get_enum(ld, n, "hi-open", yes_no, COUNT(yes_no)) : 0;
}

/* NVML's reason bits as written: "0x" and 1 to 16 lower-case hex digits. */
static unsigned long long get_reasons(rs_loader *ld, xmlNodePtr n, const char *name)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    const char *s = v ? (const char *)v : "";
    size_t digits = strspn(s + (strncmp(s, "0x", 2) == 0 ? 2 : 0), "0123456789abcdef");
    unsigned long long k = 0;
    char q[64];
    if (v && (strncmp(s, "0x", 2) != 0 || digits < 1 || digits > 16 || s[2 + digits] != '\0'))
        rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not 0x and 1 to 16 hex digits",
               (const char *)n->name, name, rs_clip(q, v));
    else if (v)
        k = strtoull(s + 2, NULL, 16);
    xmlFree(v);
    return k;
}

/* stem-before and stem-after, each when present, within [lo, hi]. */
static void get_pair(rs_loader *ld, xmlNodePtr n, const char *stem, int has_[2], double v[2],
                     double lo, double hi)
{
    char name[32];
    int k;
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "%s-%s", stem, rs_tel_when[k]);
        if ((has_[k] = rs_has(n, name)))
            v[k] = rs_get_real(ld, n, name, lo, hi);
    }
}

/* <telemetry> of a point (telemetry.h: tel_point).  Its place among the
 * point's samples and device is checked by results_check.c. */
void rs_read_telemetry(rs_loader *ld, xmlNodePtr n, tel_point *t)
{
    char name[32];
    int k;
    memset(t, 0, sizeof *t);
    t->kind = (tel_kind)(rs_get_enum(ld, n, "source", rs_tel_sources, COUNT(rs_tel_sources)) + 1);
    get_pair(ld, n, "sm-mhz", t->has_sm, t->sm_mhz, 0.0, TEL_MHZ_MAX);
    get_pair(ld, n, "mem-mhz", t->has_mem, t->mem_mhz, 0.0, TEL_MHZ_MAX);
    get_pair(ld, n, "power-w", t->has_power, t->power_w, 0.0, TEL_WATTS_MAX);
    get_pair(ld, n, "temp-c", t->has_temp, t->temp_c, -273.15, 1000.0);
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "throttle-%s", rs_tel_when[k]);
        if ((t->has_throttle[k] = rs_has(n, name)))
            t->throttle[k] = get_reasons(ld, n, name);
    }
    if (rs_has(n, "throttled"))
        t->throttled = rs_get_enum(ld, n, "throttled", yes_no, COUNT(yes_no));
    if (!ld->failed && rs_has(n, "throttled") != (t->has_throttle[0] || t->has_throttle[1]))
        rs_bad(ld, n, "<telemetry> has \"throttled\" %s throttle reasons",
               rs_has(n, "throttled") ? "without" : "but not with its");
    else if (!ld->failed &&
             t->throttled != (((t->throttle[0] | t->throttle[1]) & TEL_THROTTLING_MASK) != 0))
        rs_bad(ld, n, "<telemetry> throttled=\"%s\" does not match its throttle reasons",
               yes_no[t->throttled]);
    if ((t->has_energy = rs_has(n, "energy-j") || rs_has(n, "energy-span-s") ||
                         rs_has(n, "energy-samples") || rs_has(n, "energy-visits"))) {
        t->energy_j = rs_get_real(ld, n, "energy-j", 0.0, TEL_JOULES_MAX);
        t->energy_span_s = rs_get_real(ld, n, "energy-span-s", TEL_MIN_ENERGY_SPAN, TIME_MAX);
        t->energy_samples = (int)rs_get_int(ld, n, "energy-samples", 1, TEL_MAX_ENERGY_STEPS);
        t->energy_visits = (int)rs_get_int(ld, n, "energy-visits", 1, RESULTS_MAX_PASSES);
        if (!ld->failed && t->energy_j > TEL_WATTS_MAX * t->energy_span_s)
            rs_bad(ld, n, "<telemetry> energy-j is more than %g W over energy-span-s",
                   TEL_WATTS_MAX);
        else if (!ld->failed && t->energy_span_s < TEL_ENERGY_SPAN_MIN(t->kind, t->energy_visits))
            rs_bad(ld, n,
                   "<telemetry> energy-span-s=%g is too short for %d visits of %s (at "
                   "least %g s)",
                   t->energy_span_s, t->energy_visits, rs_tel_sources[t->kind == TEL_RAPL],
                   TEL_ENERGY_SPAN_MIN(t->kind, t->energy_visits));
        else if (!ld->failed && t->energy_visits > t->energy_samples)
            rs_bad(ld, n, "<telemetry> energy-visits=%d is more than its energy-samples=%d",
                   t->energy_visits, t->energy_samples);
    }
}

/* Which attribute of n is wrong, when the schema said only that n's
 * attributes are: n's reader, on scratch storage, says it in e (BE_EFAIL),
 * or finds nothing (BE_OK).  It reads nothing but n's own attributes. */
int rs_diagnose(const char *path, xmlNodePtr n, err *e)
{
    rs_loader ld;
    union {
        int i;
        struct {
            unsigned long long seed;
            int analysis;
        } fit;
        rs_prov prov;
        device_info dev;
        device_prop prop;
        rs_point pt;
        struct {
            step_times t;
            int pass;
        } s;
        rs_pass pass;
        struct {
            stats_summary s;
            fit_view v;
        } sum;
        struct {
            char device[32];
            double usd;
        } price;
        fit_model m;
        fit_crossover c;
        fit_hidden_cross h;
        tel_point tel;
    } u;
    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = e;
    if (rs_is(n, "breakeven-results"))
        rs_read_root(&ld, n, &u.i);
    else if (rs_is(n, "breakeven"))
        rs_read_breakeven(&ld, n, &u.prov);
    else if (rs_is(n, "run"))
        rs_read_run(&ld, n, &u.prov);
    else if (rs_is(n, "host"))
        rs_read_host(&ld, n, &u.prov);
    else if (rs_is(n, "openblas"))
        rs_read_openblas(&ld, n, &u.prov);
    else if (rs_is(n, "device"))
        rs_read_device(&ld, n, &u.dev);
    else if (rs_is(n, "prop"))
        rs_read_prop(&ld, n, &u.prop);
    else if (rs_is(n, "point"))
        rs_read_point(&ld, n, &u.pt);
    else if (rs_is(n, "verification"))
        rs_read_verification(&ld, n, &u.pt);
    else if (rs_is(n, "s"))
        rs_read_sample(&ld, n, &u.s.t, &u.s.pass, rs_has(n, "total"), rs_has(n, "whost"));
    else if (rs_is(n, "pass"))
        rs_read_pass(&ld, n, &u.pass);
    else if (rs_is(n, "summary"))
        rs_read_summary(&ld, n, &u.sum.s, &u.sum.v);
    else if (rs_is(n, "fit"))
        rs_read_fit(&ld, n, &u.fit.seed, &u.fit.analysis);
    else if (rs_is(n, "price"))
        rs_read_price(&ld, n, u.price.device, &u.price.usd);
    else if (rs_is(n, "model"))
        rs_read_model(&ld, n, &u.m);
    else if (rs_is(n, "outlier"))
        rs_read_outlier(&ld, n, &u.i);
    else if (rs_is(n, "crossover"))
        rs_read_cross(&ld, n, &u.c);
    else if (rs_is(n, "hidden"))
        rs_read_hidden(&ld, n, &u.h);
    else if (rs_is(n, "telemetry"))
        rs_read_telemetry(&ld, n, &u.tel);
    return ld.failed ? BE_EFAIL : BE_OK;
}
