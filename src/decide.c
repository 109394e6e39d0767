/*
 * decide.c — decision.json, breakeven_decision.h, the environment lines
 * and `which` (see decide.h).
 *
 * Everything written here is read by programs: the header is compiled into
 * a user's program, so every string from the results file (which is
 * untrusted input) is escaped as a C literal and every comment is cut to
 * printable ASCII without "*" "/" in a row.
 */
#define _POSIX_C_SOURCE 200809L
#include "decide.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "fsx.h"
#include "json.h"
#include "query.h"
#include "version.h"
#include "workload.h"

/* The batch from which `other` is the answer: the crossover (in range), the
 * smallest measured batch (always faster), 0 (never, or unknown). */
static double from_batch(const netfit_cross *c)
{
    if (c->x.kind == CROSS_IN_RANGE)
        return c->x.batch;
    if (c->x.kind == CROSS_ALWAYS)
        return c->bmin;
    return 0.0;
}

/* The crossover of net × mode × view with the lowest from_batch among
 * those with an answer, else the first, else NULL. */
static const netfit_cross *best_pair(const netfit_set *s, const char *net, wl_mode mode,
                                     fit_view view)
{
    const netfit_cross *best = NULL;
    int i;
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i];
        double f = from_batch(c);
        if (c->mode != mode || c->view != view ||
            (strcmp(c->net, net) != 0 && strcmp(c->sizes, net) != 0))
            continue;
        if (!best || (f > 0.0 && (from_batch(best) <= 0.0 || f < from_batch(best))))
            best = c;
    }
    return best;
}

/* "mnist-mlp (784-512-256-10), …" of every network in r, into buf. */
static void list_networks(const results *r, char *buf, size_t size)
{
    const char *names[64];
    int n = netfit_networks(r, names, 64), i, j;
    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        const char *sizes = "";
        for (j = 0; j < r->npoints; j++)
            if (strcmp(r->points[j].net, names[i]) == 0) {
                sizes = r->points[j].sizes;
                break;
            }
        if (strcmp(names[i], sizes) == 0)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? ", " : "", names[i]);
        else
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (%s)", i ? ", " : "", names[i],
                     sizes);
    }
}

int decide_which(const results *r, const netfit_set *s, const char *net, wl_mode mode,
                 fit_view view, int batch, decide_answer *a, err *e)
{
    char nets[700];
    const netfit_cross *best = NULL, *any = NULL;
    const char *base = q_base_id(r);
    int i;

    memset(a, 0, sizeof *a);
    list_networks(r, nets, sizeof nets);
    for (i = 0; i < s->n && !any; i++)
        if (strcmp(s->c[i].net, net) == 0 || strcmp(s->c[i].sizes, net) == 0)
            any = &s->c[i];
    if (!any) { /* a preset's name finds a network of its sizes */
        net_spec spec;
        char sizes[NET_SIZES_MAX];
        err ignored;
        if (net_parse(net, "--net", &spec, &ignored) == BE_OK) {
            net_format(&spec, sizes, sizeof sizes);
            for (i = 0; i < s->n && !any; i++)
                if (strcmp(s->c[i].sizes, sizes) == 0)
                    any = &s->c[i];
        }
    }
    for (i = 0; i < r->npoints && !any; i++)
        if (r->points[i].net[0] &&
            (strcmp(r->points[i].net, net) == 0 || strcmp(r->points[i].sizes, net) == 0))
            return err_set(e, BE_EUSAGE,
                           "run %s measured network %s on one device only (%s): there is no "
                           "other device to choose",
                           r->prov.id, r->points[i].net, r->points[i].device);
    if (!any)
        return err_set(e, BE_EUSAGE, "run %s measured no network \"%s\"; %s%s", r->prov.id, net,
                       nets[0] ? "its networks: "
                               : "it measured the square stack only (measure "
                                 "a network with breakeven run --net SIZES)",
                       nets);
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i];
        double f = from_batch(c);
        if (c->mode != mode || c->view != view || strcmp(c->net, any->net) != 0)
            continue;
        if (!best)
            best = c;
        if (batch < c->bmin || batch > c->bmax || c->ncells == 0)
            continue;
        if (c->x.kind != CROSS_UNKNOWN && c->x.hi > 0.0 && batch >= c->x.lo && batch <= c->x.hi &&
            (c->x.kind == CROSS_IN_RANGE || c->x.lo_open || c->x.hi_open))
            a->uncertain = 1;
        if (f > 0.0 && batch >= f && (!a->device || f < from_batch(best))) {
            a->device = c->other;
            best = c;
        }
    }
    if (!best)
        return err_set(e, BE_EUSAGE, "run %s has no %s %s measurements of network %s", r->prov.id,
                       workload_mode_name(mode), fit_view_name(view), any->net);
    if (best->ncells == 0)
        return err_set(e, BE_EFAIL,
                       "run %s has no batch of network %s where both %s and %s measured %s "
                       "(%s) successfully",
                       r->prov.id, any->net, best->base, best->other, workload_mode_name(mode),
                       fit_view_name(view));
    if (batch < best->bmin || batch > best->bmax)
        return err_set(e, BE_EUSAGE,
                       "batch %d lies outside the batches measured for network %s (%d..%d, %s, "
                       "%s); measure it: breakeven run --net %s --batch %d",
                       batch, any->net, best->bmin, best->bmax, workload_mode_name(mode),
                       fit_view_name(view), any->sizes, batch);
    if (!a->device)
        a->device = base ? base : best->base;
    snprintf(a->why, sizeof a->why, "%s at batch %d of %s (%s, %s): ", a->device, batch, any->net,
             workload_mode_name(mode), fit_view_name(view));
    if (best->x.kind == CROSS_ALWAYS)
        snprintf(a->why + strlen(a->why), sizeof a->why - strlen(a->why),
                 "%s was faster than %s at every batch measured (%d..%d)", best->other, best->base,
                 best->bmin, best->bmax);
    else if (best->x.kind == CROSS_NEVER)
        snprintf(a->why + strlen(a->why), sizeof a->why - strlen(a->why),
                 "%s never stays ahead of %s in the batches measured (%d..%d; faster at %d of "
                 "%d, not at the largest)",
                 best->other, best->base, best->bmin, best->bmax, best->nfaster, best->ncells);
    else if (best->x.kind == CROSS_IN_RANGE)
        snprintf(a->why + strlen(a->why), sizeof a->why - strlen(a->why),
                 "the crossover is at batch %.1f (95%% CI %.1f to %.1f)%s", best->x.batch,
                 best->x.lo, best->x.hi,
                 a->uncertain ? "; the batch lies inside that interval: either device is about "
                                "as fast"
                              : "");
    return BE_OK;
}

/* s as a C string literal: quotes, backslashes, '?' (trigraphs) and every
 * byte outside printable ASCII escaped in octal. */
static void c_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c == '?')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c > 0x7e)
            fprintf(f, "\\%03o", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* s in a C comment: printable ASCII, no comment end. */
static void c_comment(FILE *f, const char *s)
{
    char prev = 0;
    for (; *s; s++) {
        char c = (unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e ? '?' : *s;
        if (prev == '*' && c == '/')
            fputc(' ', f);
        fputc(c, f);
        prev = c;
    }
}

/* Each network × mode × view's best pair once, in the order of s. */
static int first_of_kind(const netfit_set *s, int i)
{
    int j;
    for (j = 0; j < i; j++)
        if (strcmp(s->c[j].net, s->c[i].net) == 0 && s->c[j].mode == s->c[i].mode &&
            s->c[j].view == s->c[i].view)
            return 0;
    return 1;
}

static void header_rows(FILE *f, const netfit_set *s)
{
    int i;
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c;
        if (!first_of_kind(s, i))
            continue;
        c = best_pair(s, s->c[i].net, s->c[i].mode, s->c[i].view);
        if (c->ncells == 0 || c->x.kind == CROSS_UNKNOWN)
            continue;
        fputs("        {", f);
        c_string(f, c->net);
        fputs(", ", f);
        c_string(f, c->sizes);
        fprintf(f, ", \"%s\", \"%s\", ", workload_mode_name(c->mode), fit_view_name(c->view));
        c_string(f, c->base);
        fputs(", ", f);
        c_string(f, c->other);
        fprintf(f, ", %.6g, %d, %d},\n", from_batch(c), c->bmin, c->bmax);
    }
}

static int rows(const netfit_set *s)
{
    int i, n = 0;
    for (i = 0; i < s->n; i++)
        if (first_of_kind(s, i)) {
            const netfit_cross *c = best_pair(s, s->c[i].net, s->c[i].mode, s->c[i].view);
            n += c->ncells > 0 && c->x.kind != CROSS_UNKNOWN;
        }
    return n;
}

static void header_text(FILE *f, const results *r, const netfit_set *s)
{
    int i;
    fputs("/*\n * breakeven_decision.h - which device to run a network on, by batch size.\n"
          " *\n * Generated by breakeven ",
          f);
    c_comment(f, BE_VERSION);
    fputs(" (`breakeven decide`) from run ", f);
    c_comment(f, r->prov.id);
    fputs(",\n * measured on ", f);
    c_comment(f, r->prov.host);
    fputs(" (", f);
    c_comment(f, r->prov.cpu_model);
    fputs(", OpenBLAS ", f);
    c_comment(f, r->prov.blas_version);
    fputs(")", f);
    for (i = 0; i < r->ndevices; i++) {
        fputs(i ? ",\n *   " : " with\n *   ", f);
        c_comment(f, r->devices[i].id);
        fputs(" = ", f);
        c_comment(f, r->devices[i].name);
        fputs(" (", f);
        c_comment(f, r->devices[i].driver);
        fputs(")", f);
    }
    fputs(".\n * Answers hold for that machine, its drivers and these networks: measure\n"
          " * again when they change.  Views: \"resident\" keeps the data on the device,\n"
          " * \"transfer\" copies inputs and outputs every call, \"weights-on-host\" the\n"
          " * weights too.  C99, no other code.\n */\n"
          "#ifndef BREAKEVEN_DECISION_H\n#define BREAKEVEN_DECISION_H\n\n#include <stddef.h>\n"
          "#include <string.h>\n\n"
          "/* The device id to run net (its name or its sizes, \"784-512-256-10\") on in\n"
          " * mode (\"inference\", \"training\") and view at batch; NULL when that was not\n"
          " * measured or batch lies outside the measured batches. */\n"
          "static inline const char *breakeven_device(const char *net, const char *mode,\n"
          "                                           const char *view, int batch)\n{\n",
          f);
    if (rows(s) == 0) {
        fputs("    (void)net;\n    (void)mode;\n    (void)view;\n    (void)batch;\n"
              "    return NULL; /* the run has no network with an answer */\n}\n",
              f);
    } else {
        fputs("    /* below: the device under the crossover; above: from batch `from` on\n"
              "     * (0: never); min and max: the measured batches */\n"
              "    static const struct {\n"
              "        const char *net, *sizes, *mode, *view, *below, *above;\n"
              "        double from;\n        int min, max;\n    } t[] = {\n",
              f);
        header_rows(f, s);
        fputs("    };\n    size_t i;\n"
              "    for (i = 0; i < sizeof t / sizeof t[0]; i++) {\n"
              "        if ((strcmp(net, t[i].net) != 0 && strcmp(net, t[i].sizes) != 0) ||\n"
              "            strcmp(mode, t[i].mode) != 0 || strcmp(view, t[i].view) != 0)\n"
              "            continue;\n"
              "        if (batch < t[i].min || batch > t[i].max)\n            return NULL;\n"
              "        return t[i].from > 0 && batch >= t[i].from ? t[i].above : t[i].below;\n"
              "    }\n    return NULL;\n}\n",
              f);
    }
    fputs("\n#endif\n", f);
}

int decide_header(const results *r, const netfit_set *s, char **text, size_t *len, err *e)
{
    FILE *f = open_memstream(text, len);
    if (!f)
        return err_set(e, BE_EFAIL, "out of memory for breakeven_decision.h");
    header_text(f, r, s);
    if (fclose(f) != 0) {
        free(*text);
        *text = NULL;
        return err_set(e, BE_EFAIL, "out of memory for breakeven_decision.h");
    }
    return BE_OK;
}

static void json_cross(FILE *f, const netfit_cross *c)
{
    fputs("    {\"net\": ", f);
    json_string(f, c->net);
    fputs(", \"sizes\": ", f);
    json_string(f, c->sizes);
    fprintf(f, ", \"mode\": \"%s\", \"view\": \"%s\", \"base\": ", workload_mode_name(c->mode),
            fit_view_name(c->view));
    json_string(f, c->base);
    fputs(", \"other\": ", f);
    json_string(f, c->other);
    fprintf(f, ", \"kind\": \"%s\"", fit_cross_kind_name(c->x.kind));
    fputs(", \"below\": ", f);
    json_string(f, c->x.kind == CROSS_ALWAYS ? c->other : c->base);
    fputs(", \"above\": ", f);
    json_string(f, c->x.kind == CROSS_NEVER ? c->base : c->other);
    fputs(", \"crossover_batch\": ", f);
    json_number(f, c->x.kind == CROSS_IN_RANGE ? c->x.batch : NAN);
    fputs(", \"ci_lo\": ", f);
    json_number(f, c->x.hi > 0.0 ? c->x.lo : NAN);
    fputs(", \"ci_hi\": ", f);
    json_number(f, c->x.hi > 0.0 ? c->x.hi : NAN);
    fprintf(f, ", \"ci_lo_open\": %s, \"ci_hi_open\": %s", c->x.lo_open ? "true" : "false",
            c->x.hi_open ? "true" : "false");
    fprintf(f, ", \"measured_batches\": [%d, %d], \"batches_compared\": %d}", c->bmin, c->bmax,
            c->ncells);
}

static void json_seconds(FILE *f, const double *t, int n)
{
    int l;
    fputc('[', f);
    for (l = 0; l < n; l++) {
        fputs(l ? ", " : "", f);
        json_number(f, t[l]);
    }
    fputc(']', f);
}

/* Per network, mode, batch and device pair with layer times: the
 * breakdown and the best placement (netfit_breakdown), estimates. */
static void json_layers(FILE *f, const results *r)
{
    const char *base = q_base_id(r);
    int i, j, l, n = 0;
    for (i = 0; base && i < r->npoints; i++) {
        const rs_point *pb = &r->points[i];
        if (!pb->net[0] || strcmp(pb->device, base) != 0)
            continue;
        for (j = 0; j < r->npoints; j++) {
            const rs_point *po = &r->points[j];
            netfit_layers b;
            if (strcmp(po->device, base) == 0 || po->mode != pb->mode || po->batch != pb->batch ||
                strcmp(po->net, pb->net) != 0 || strcmp(po->sizes, pb->sizes) != 0 ||
                !netfit_breakdown(pb, po, &b))
                continue;
            fputs(n++ ? ",\n    {\"net\": " : "\n    {\"net\": ", f);
            json_string(f, pb->net);
            fprintf(f,
                    ", \"mode\": \"%s\", \"batch\": %d, \"base\": ", workload_mode_name(pb->mode),
                    pb->batch);
            json_string(f, pb->device);
            fputs(", \"other\": ", f);
            json_string(f, po->device);
            fputs(", \"base_layer_s\": ", f);
            json_seconds(f, b.t[0], b.layers);
            fputs(", \"other_layer_s\": ", f);
            json_seconds(f, b.t[1], b.layers);
            fputs(", \"copy_s\": ", f);
            json_seconds(f, b.move, b.layers + 1);
            fputs(", \"placement\": [", f);
            for (l = 0; l < b.layers; l++) {
                fputs(l ? ", " : "", f);
                json_string(f, b.on[l] ? po->device : pb->device);
            }
            fputs("], \"placement_s\": ", f);
            json_number(f, b.best);
            fputs(", \"all_base_s\": ", f);
            json_number(f, b.all_base);
            fputs(", \"all_other_s\": ", f);
            json_number(f, b.all_other);
            fputc('}', f);
        }
    }
    if (n)
        fputs("\n  ", f);
}

static void json_text(FILE *f, const results *r, const netfit_set *s)
{
    int i;
    fputs("{\n  \"breakeven\": ", f);
    json_string(f, BE_VERSION);
    fputs(",\n  \"run\": ", f);
    json_string(f, r->prov.id);
    fputs(",\n  \"machine\": {\"host\": ", f);
    json_string(f, r->prov.host);
    fputs(", \"cpu\": ", f);
    json_string(f, r->prov.cpu_model);
    fputs(", \"os\": ", f);
    json_string(f, r->prov.os);
    fputs(", \"kernel\": ", f);
    json_string(f, r->prov.kernel);
    fputs(", \"openblas\": ", f);
    json_string(f, r->prov.blas_version);
    fprintf(f, ", \"openblas_threads\": %d, \"devices\": [", r->prov.blas_threads);
    for (i = 0; i < r->ndevices; i++) {
        fputs(i ? ", {\"id\": " : "{\"id\": ", f);
        json_string(f, r->devices[i].id);
        fputs(", \"name\": ", f);
        json_string(f, r->devices[i].name);
        fputs(", \"driver\": ", f);
        json_string(f, r->devices[i].driver);
        fputs("}", f);
    }
    fputs("]},\n  \"decisions\": [\n", f);
    for (i = 0; i < s->n; i++) {
        json_cross(f, &s->c[i]);
        fputs(i + 1 < s->n ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"layers\": [", f);
    json_layers(f, r);
    fputs("]\n}\n", f);
}

/* The environment line of one network: inference with the weights on the
 * host (what llama.cpp's GGML_OP_OFFLOAD_MIN_BATCH decides), else with
 * transfers counted, else resident. */
static void env_line(FILE *env, const netfit_set *s, const char *net)
{
    const netfit_cross *c = best_pair(s, net, WL_INFERENCE, FIT_WHOST);
    char var[80];
    size_t i, k;
    if (!c || c->ncells == 0)
        c = best_pair(s, net, WL_INFERENCE, FIT_TRANSFER);
    if (!c)
        c = best_pair(s, net, WL_INFERENCE, FIT_RESIDENT);
    if (!c || c->ncells == 0)
        return;
    k = (size_t)snprintf(var, sizeof var, "BREAKEVEN_MIN_BATCH_");
    for (i = 0; c->net[i] && k + 1 < sizeof var; i++)
        var[k++] =
            isalnum((unsigned char)c->net[i]) ? (char)toupper((unsigned char)c->net[i]) : '_';
    var[k] = '\0';
    fprintf(env, "# %s%s%s%s, inference, %s: ", c->net, strcmp(c->net, c->sizes) ? " (" : "",
            strcmp(c->net, c->sizes) ? c->sizes : "", strcmp(c->net, c->sizes) ? ")" : "",
            c->view == FIT_WHOST      ? "weights, inputs and outputs copied every call"
            : c->view == FIT_TRANSFER ? "inputs and outputs copied every call"
                                      : "data resident");
    if (c->x.kind == CROSS_IN_RANGE)
        fprintf(env, "%s from batch %.1f on (95%% CI %.1f to %.1f%s), measured %d..%d\n%s=%.0f\n",
                c->other, c->x.batch, c->x.lo, c->x.hi, c->x.hi_open ? "+" : "", c->bmin, c->bmax,
                var, ceil(c->x.batch));
    else if (c->x.kind == CROSS_ALWAYS)
        fprintf(env, "%s at every measured batch (%d..%d)\n%s=%d\n", c->other, c->bmin, c->bmax,
                var, c->bmin);
    else
        fprintf(env,
                "%s: %s never stays ahead in the measured batches (%d..%d; faster at %d of %d, "
                "not at the largest)\n",
                c->base, c->other, c->bmin, c->bmax, c->nfaster, c->ncells);
}

int decide_write(const results *r, const netfit_set *s, const char *root, const char *dir,
                 FILE *env, err *e)
{
    char path[4200], *text = NULL;
    const char *names[64];
    size_t len = 0;
    int rc, i, n;
    FILE *f;

    if (!(f = open_memstream(&text, &len)))
        return err_set(e, BE_EFAIL, "out of memory for decision.json");
    json_text(f, r, s);
    if (fclose(f) != 0) {
        free(text);
        return err_set(e, BE_EFAIL, "out of memory for decision.json");
    }
    snprintf(path, sizeof path, "%s/decision.json", dir);
    rc = fsx_write_in(root, path, text, len, e);
    free(text);
    text = NULL;
    if (rc < 0 || (rc = decide_header(r, s, &text, &len, e)) < 0)
        return rc;
    snprintf(path, sizeof path, "%s/breakeven_decision.h", dir);
    rc = fsx_write_in(root, path, text, len, e);
    free(text);
    if (rc < 0)
        return rc;
    n = netfit_networks(r, names, 64);
    for (i = 0; i < n; i++)
        env_line(env, s, names[i]);
    return BE_OK;
}
