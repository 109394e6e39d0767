/*
 * export.c — results.json and summary.md (export.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "fit.h"
#include "fmt.h"
#include "json.h"
#include "netfit.h"
#include "prose.h"
#include "query.h"
#include "workload.h"

/* summary.md gives at most this many warnings (prose_warnings). */
#define EXPORT_WARNINGS 8

/* "key": string */
static void kv_str(FILE *f, const char *sep, const char *key, const char *v)
{
    fprintf(f, "%s\"%s\": ", sep, key);
    json_string(f, v);
}

/* "key": number (null when not finite) */
static void kv_num(FILE *f, const char *sep, const char *key, double v)
{
    fprintf(f, "%s\"%s\": ", sep, key);
    json_number(f, v);
}

static void provenance(FILE *f, const results *r)
{
    const rs_prov *p = &r->prov;
    fputs("  \"run\": {", f);
    kv_str(f, "", "id", p->id);
    kv_str(f, ", ", "started", p->started);
    kv_str(f, ", ", "finished", p->finished);
    kv_str(f, ", ", "command", p->command);
    fprintf(f, ", \"seed\": %llu", p->seed);
    kv_num(f, ", ", "budget_s", p->budget);
    fprintf(f, ", \"layers\": %d, \"passes\": %d, \"partial\": %s", p->layers, r->npasses,
            r->partial ? "true" : "false");
    kv_str(f, ", ", "breakeven", p->version);
    kv_str(f, ", ", "commit", p->commit);
    fputs("},\n  \"host\": {", f);
    kv_str(f, "", "name", p->host);
    kv_str(f, ", ", "os", p->os);
    kv_str(f, ", ", "kernel", p->kernel);
    kv_str(f, ", ", "cpu", p->cpu_model);
    fprintf(f, ", \"cores\": %d", p->cores);
    kv_num(f, ", ", "memory_bytes", p->memory);
    kv_str(f, ", ", "compiler", p->compiler);
    if (p->label[0])
        kv_str(f, ", ", "label", p->label); /* BREAKEVEN_MACHINE (host.h) */
    fputs("},\n  \"openblas\": {", f);
    kv_str(f, "", "version", p->blas_version);
    kv_str(f, ", ", "core", p->blas_core);
    fprintf(f, ", \"threads\": %d", p->blas_threads);
    kv_str(f, ", ", "threads_from", p->blas_threads_from);
    fputs("},\n", f);
}

static void devices(FILE *f, const results *r)
{
    int i, k;
    fputs("  \"devices\": [", f);
    for (i = 0; i < r->ndevices; i++) {
        const device_info *d = &r->devices[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "", "id", d->id);
        kv_str(f, ", ", "kind", d->kind);
        kv_str(f, ", ", "type", d->type);
        kv_str(f, ", ", "name", d->name);
        kv_str(f, ", ", "vendor", d->vendor);
        kv_str(f, ", ", "driver", d->driver);
        kv_str(f, ", ", "library", d->library);
        kv_num(f, ", ", "usd_per_hour",
               q_price(&r->prices, d->id) > 0 ? q_price(&r->prices, d->id) : NAN);
        fputs(", \"properties\": {", f);
        for (k = 0; k < d->nprops; k++)
            kv_str(f, k ? ", " : "", d->props[k].name, d->props[k].value);
        fputs("}}", f);
    }
    fputs("\n  ],\n", f);
}

/* One summary's statistics, as "<prefix>median_s" and the rest. */
static void summary(FILE *f, const char *prefix, const stats_summary *s, const results *r,
                    const rs_point *p)
{
    fprintf(f, ", \"%smedian_s\": ", prefix);
    json_number(f, s->median);
    fprintf(f, ", \"%sci_lo_s\": ", prefix);
    json_number(f, s->ci_lo);
    fprintf(f, ", \"%sci_hi_s\": ", prefix);
    json_number(f, s->ci_hi);
    fprintf(f, ", \"%suninformative\": %s", prefix, q_summary_uninformative(s) ? "true" : "false");
    fprintf(f, ", \"%sgflops\": ", prefix);
    json_number(f, q_gflops_shown(results_device(r, p->device), p, s->median));
}

/* A network point's layer times: the mean of each layer's seconds over
 * the timed steps (results.h keeps means, not medians: no interval). */
static void layer_times(FILE *f, const rs_point *p)
{
    int l;
    if (p->nlayer <= 0)
        return;
    fprintf(f, ", \"layer_mean_s\": [");
    for (l = 0; l < p->nlayer && l < WL_MAX_LAYERS; l++) {
        fputs(l ? ", " : "", f);
        json_number(f, p->layer_s[l]);
    }
    fprintf(f, "], \"layer_steps\": %ld", p->layer_n);
}

static void points(FILE *f, const results *r)
{
    int i;
    fputs("  \"points\": [", f);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const int ok = q_ok(p);
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "", "device", p->device);
        fprintf(f, ", \"mode\": \"%s\", \"layers\": %d, \"hidden\": %d, \"batch\": %d",
                workload_mode_name(p->mode), p->layers, p->hidden, p->batch);
        /* a network's name and sizes; null for the square stack */
        if (p->net[0]) {
            kv_str(f, ", ", "network", p->net);
            kv_str(f, ", ", "sizes", p->sizes);
        } else
            fputs(", \"network\": null, \"sizes\": null", f);
        kv_num(f, ", ", "flops_per_layer", p->flops_per_layer);
        kv_str(f, ", ", "status", results_status_name(p->status));
        kv_str(f, ", ", "why", p->why);
        fprintf(f, ", \"samples\": %d", p->nsamples);
        if (ok) {
            summary(f, "", &p->resident, r, p);
            fprintf(f, ", \"n\": %d, \"passes\": %d, \"drift\": %s", p->resident.n,
                    p->resident.passes, p->resident.drift ? "true" : "false");
        } else {
            fputs(", \"median_s\": null, \"ci_lo_s\": null, \"ci_hi_s\": null, \"gflops\": null, "
                  "\"n\": 0, \"passes\": 0, \"drift\": null",
                  f);
        }
        if (ok && p->has_transfer)
            summary(f, "transfer_", &p->transfer, r, p);
        else
            fputs(", \"transfer_median_s\": null, \"transfer_ci_lo_s\": null, "
                  "\"transfer_ci_hi_s\": null, \"transfer_gflops\": null",
                  f);
        if (ok && p->has_whost)
            summary(f, "whost_", &p->whost, r, p);
        layer_times(f, p);
        kv_num(f, ", ", "energy_j_per_step", q_energy(p) >= 0.0 ? q_energy(p) : NAN);
        fputs("}", f);
    }
    fputs("\n  ],\n", f);
}

static void fit(FILE *f, const results *r, const findings *F)
{
    int i, k;
    char buf[1024];
    if (!r->has_fit) {
        fputs("  \"fit\": null,\n  \"answers\": []\n", f);
        return;
    }
    fprintf(f, "  \"fit\": {\"analysis\": %d, \"models\": [", r->fit.analysis);
    for (i = 0; i < r->fit.nmodels; i++) {
        const fit_model *m = &r->fit.models[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "", "device", m->device);
        fprintf(f,
                ", \"mode\": \"%s\", \"view\": \"%s\", \"hidden\": ", workload_mode_name(m->mode),
                fit_view_name(m->view));
        if (m->hidden > 0)
            fprintf(f, "%d", m->hidden);
        else
            fputs("null", f);
        fprintf(f, ", \"ok\": %s, \"poor\": %s", m->ok ? "true" : "false",
                m->poor ? "true" : "false");
        kv_num(f, ", ", "t0_s", m->ok ? m->t0 : NAN);
        kv_num(f, ", ", "flops_per_s", m->ok ? m->P : NAN);
        kv_num(f, ", ", "rms_rel", m->ok ? m->rms_rel : NAN);
        fputs("}", f);
    }
    fputs("\n  ], \"crossovers\": [", f);
    for (i = 0; i < r->fit.ncross; i++) {
        const fit_crossover *c = &r->fit.cross[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "", "base", c->base);
        kv_str(f, ", ", "other", c->other);
        fprintf(f, ", \"mode\": \"%s\", \"view\": \"%s\", \"measure\": \"%s\", \"kind\": \"%s\"",
                workload_mode_name(c->mode), fit_view_name(c->view), c->cost ? "cost" : "time",
                fit_cross_kind_name(c->kind));
        kv_num(f, ", ", "flops", c->kind == CROSS_IN_RANGE ? c->flops : NAN);
        kv_num(f, ", ", "flops_min", c->flops_min > 0 ? c->flops_min : NAN);
        kv_num(f, ", ", "flops_max", c->flops_max > 0 ? c->flops_max : NAN);
        fputs(", \"per_hidden\": [", f);
        for (k = 0; k < c->nhidden; k++) {
            const fit_hidden_cross *h = &c->per_hidden[k];
            const int known = h->batch_lo > 0 || h->batch_hi > 0;
            fprintf(f, "%s{\"hidden\": %d, \"kind\": \"%s\"", k ? ", " : "", h->hidden,
                    fit_cross_kind_name(h->kind));
            kv_num(f, ", ", "batch", h->kind == CROSS_IN_RANGE ? h->batch : NAN);
            kv_num(f, ", ", "batch_lo", known ? h->batch_lo : NAN);
            kv_num(f, ", ", "batch_hi", known ? h->batch_hi : NAN);
            fprintf(f, ", \"lo_open\": %s, \"hi_open\": %s", h->lo_open ? "true" : "false",
                    h->hi_open ? "true" : "false");
            kv_num(f, ", ", "flops", h->kind == CROSS_IN_RANGE ? h->flops : NAN);
            fputs("}", f);
        }
        fputs("]}", f);
    }
    fputs("\n  ]},\n  \"answers\": [", f);
    for (i = 0; i < F->n; i++) {
        findings_sentence(&F->f[i], r, buf, sizeof buf);
        fputs(i ? ",\n    " : "\n    ", f);
        json_string(f, buf);
    }
    fputs("\n  ]\n", f);
}

/* s as Markdown text, for a paragraph or a table cell (fmt_markdown): a
 * results file is untrusted, and Markdown renderers pass raw HTML on. */
static void md(FILE *f, const char *s)
{
    char buf[5 * 2048];
    fmt_markdown(buf, sizeof buf, s);
    fputs(buf, f);
}

/* The answer of every network of r, every mode, view and device
 * (netfit_sentence): as a JSON array of strings (json 1) or Markdown
 * paragraphs.  Returns how many, or an error of netfit_run. */
static int net_answers(FILE *f, const results *r, int json, err *e)
{
    netfit_set s;
    char buf[1024];
    int i, rc;
    if ((rc = netfit_run(r, r->prov.seed, 0, &s, e)) < 0)
        return rc;
    for (i = 0; i < s.n; i++) {
        netfit_sentence(r, &s.c[i], buf, sizeof buf);
        if (json) {
            fputs(i ? ",\n    " : "\n    ", f);
            json_string(f, buf);
        } else {
            md(f, buf);
            fputs("\n\n", f);
        }
    }
    rc = s.n;
    netfit_free(&s);
    return rc;
}

/* A memory stream, and its end: BE_EFAIL when anything failed (*out and
 * *len are set by fclose). */
static int close_stream(FILE *f, char **out, const char *what, err *e)
{
    if (ferror(f)) {
        fclose(f);
        free(*out);
        *out = NULL;
        return err_set(e, BE_EFAIL, "%s: out of memory", what);
    }
    if (fclose(f) != 0) {
        free(*out);
        *out = NULL;
        return err_set(e, BE_EFAIL, "%s: out of memory", what);
    }
    return BE_OK;
}

/* The two devices of a comparison, by id and by the names the pages
 * give them: members of the object being written. */
static void json_pair(FILE *f, const results *r, const char *base, const char *other)
{
    char name[256];
    json_member_string(f, "base", base);
    q_device_name(r, base, name, sizeof name);
    json_member_string(f, "base_name", name);
    json_member_string(f, "other", other);
    q_device_name(r, other, name, sizeof name);
    json_member_string(f, "other_name", name);
}

/* ", advantage, low, high]": the end of one shape's or batch's array. */
static void json_ratio(FILE *f, double adv, double lo, double hi)
{
    json_number(f, adv);
    fputs(", ", f);
    json_number(f, lo);
    fputs(", ", f);
    json_number(f, hi);
    fputs("]", f);
}

/* "net_ratios": per network answer (netfit_run), each batch both devices
 * completed with its ratio and interval (q_net_ratios), the devices named
 * as the pages name them. */
static int net_ratios(FILE *f, const results *r, err *e)
{
    q_net_ratio x[Q_NET_BATCHES];
    netfit_set s;
    int i, k, n, rc;
    if ((rc = netfit_run(r, r->prov.seed, 0, &s, e)) < 0)
        return rc;
    fputs("  ,\"net_ratios\": [", f);
    for (i = 0; i < s.n; i++) {
        const netfit_cross *c = &s.c[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"net\": ", f);
        json_string(f, c->net);
        json_member_string(f, "sizes", c->sizes);
        json_pair(f, r, c->base, c->other);
        fprintf(f, ", \"mode\": \"%s\", \"view\": \"%s\", \"batches\": [",
                workload_mode_name(c->mode), fit_view_name(c->view));
        n = q_net_ratios(r, c->base, c->other, c->mode, c->view, c->sizes, x, Q_NET_BATCHES);
        for (k = 0; k < n; k++) {
            fprintf(f, "%s[%d, ", k ? ", " : "", x[k].batch);
            json_ratio(f, x[k].adv, x[k].lo, x[k].hi);
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n", f);
    netfit_free(&s);
    return BE_OK;
}

/* "ratios": per finding, each shape both devices completed with the
 * advantage and interval its words rest on (findings_ratios), the names
 * the pages give the devices: what tests/claims_audit checks the pages'
 * sentences against.  BE_EFAIL when out of memory. */
static int ratios(FILE *f, const results *r, const findings *F, err *e)
{
    find_ratio *x = malloc(Q_MAX_SHAPES * sizeof *x);
    int i, k, n;
    if (!x)
        return err_set(e, BE_EFAIL, "results.json of %s: out of memory", r->prov.id);
    fputs("  ,\"ratios\": [", f);
    for (i = 0; i < F->n; i++) {
        const fit_crossover *c = F->f[i].c;
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"cost\": ", f);
        fputs(c->cost ? "true" : "false", f);
        json_pair(f, r, c->base, c->other);
        fprintf(f, ", \"mode\": \"%s\", \"view\": \"%s\", \"shapes\": [",
                workload_mode_name(c->mode), fit_view_name(c->view));
        n = findings_ratios(r, &r->prices, c, x, Q_MAX_SHAPES);
        for (k = 0; k < n; k++) {
            fprintf(f, "%s[%d, %d, ", k ? ", " : "", x[k].hidden, x[k].batch);
            json_ratio(f, x[k].adv, x[k].lo, x[k].hi);
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n", f);
    free(x);
    return net_ratios(f, r, e);
}

int export_json(const results *r, char **out, size_t *len, err *e)
{
    findings F;
    FILE *f;
    int rc;
    *out = NULL;
    if ((rc = findings_make(r, &F, e)) < 0)
        return rc;
    if (!(f = open_memstream(out, len))) {
        findings_free(&F);
        return err_set(e, BE_EFAIL, "results.json of %s: out of memory", r->prov.id);
    }
    fputs("{\n  \"format\": \"breakeven-results\", \"format_version\": 1,\n", f);
    provenance(f, r);
    devices(f, r);
    points(f, r);
    fit(f, r, &F);
    fputs("  ,\"network_answers\": [", f);
    if ((rc = net_answers(f, r, 1, e)) >= 0) {
        fputs("\n  ]\n", f);
        rc = ratios(f, r, &F, e);
    }
    if (rc < 0) {
        fclose(f);
        free(*out);
        *out = NULL;
        findings_free(&F);
        return rc;
    }
    fputs("}\n", f);
    findings_free(&F);
    return close_stream(f, out, "results.json", e);
}

int export_summary(const results *r, char **out, size_t *len, err *e)
{
    findings F;
    char buf[4096], t[32], lo[32], hi[32], warn[EXPORT_WARNINGS][PROSE_WARNING];
    char caveat[EXPORT_WARNINGS][PROSE_CAVEAT];
    FILE *f;
    int i, rc, nw, nets = 0;
    *out = NULL;
    if ((rc = findings_make(r, &F, e)) < 0)
        return rc;
    if (!(f = open_memstream(out, len))) {
        findings_free(&F);
        return err_set(e, BE_EFAIL, "summary.md of %s: out of memory", r->prov.id);
    }
    /* the id as escaped text: in a code span no escape works, and a
     * backtick in the id would end it */
    fputs("## breakeven run ", f);
    md(f, r->prov.id);
    fputs("\n\n", f);
    /* what changes the meaning of every figure below, first */
    nw = prose_caveats(r, caveat, EXPORT_WARNINGS);
    for (i = 0; i < nw; i++) {
        fputs("> **Read first:** ", f);
        md(f, caveat[i]);
        fputs("\n\n", f);
    }
    for (i = 0; i < F.n; i++) {
        findings_sentence(&F.f[i], r, buf, sizeof buf);
        md(f, buf);
        fputs("\n\n", f);
        /* a framework's CPU against the bare library's: what it costs */
        if (findings_overhead(&F.f[i], r, buf, sizeof buf)) {
            md(f, buf);
            fputs("\n\n", f);
        }
    }
    if ((rc = net_answers(f, r, 0, e)) < 0) {
        fclose(f);
        free(*out);
        *out = NULL;
        findings_free(&F);
        return rc;
    }
    if (F.n == 0 && rc == 0)
        fputs("No crossover was fitted for this run.\n\n", f);
    nw = prose_warnings(r, warn, EXPORT_WARNINGS);
    for (i = 0; i < nw; i++) {
        fputs("> **Warning:** ", f);
        md(f, warn[i]);
        fputs("\n\n", f);
    }
    for (i = 0; i < r->npoints && !nets; i++)
        nets = r->points[i].net[0] != '\0';
    /* a run of networks names each point's network where the square
     * stack's tables give its hidden width */
    fputs(nets ? "| device | mode | network | batch | median | 95% interval | n |\n"
               : "| device | mode | hidden | batch | median | 95% interval | n |\n",
          f);
    fputs("|---|---|---:|---:|---:|---|---:|\n", f);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        fputs("| ", f);
        md(f, p->device);
        fprintf(f, " | %s | ", workload_mode_name(p->mode));
        if (nets) {
            char label[NET_NAME_MAX + NET_SIZES_MAX + 4];
            if (!p->net[0])
                snprintf(label, sizeof label, "hidden %d", p->hidden);
            else if (strcmp(p->net, p->sizes) == 0)
                snprintf(label, sizeof label, "%s", p->net);
            else
                snprintf(label, sizeof label, "%s (%s)", p->net, p->sizes);
            md(f, label);
            fprintf(f, " | %d | ", p->batch);
        } else
            fprintf(f, "%d | %d | ", p->hidden, p->batch);
        if (!q_ok(p)) {
            fprintf(f, "%s | | |\n", results_status_name(p->status));
            continue;
        }
        fmt_time(t, sizeof t, p->resident.median);
        fmt_time(lo, sizeof lo, p->resident.ci_lo);
        fmt_time(hi, sizeof hi, p->resident.ci_hi);
        fprintf(f, "%s | %s – %s%s | %d |\n", t, lo, hi,
                q_summary_uninformative(&p->resident) ? " (uninformative)" : "", p->resident.n);
    }
    findings_free(&F);
    return close_stream(f, out, "summary.md", e);
}
