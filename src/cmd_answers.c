/*
 * cmd_answers.c — a run's answers in words on a stream (see cmd.h), as
 * `run` prints them after its table and `refit` after its rewrite: the
 * findings' sentences, how well the models fit, and per network the
 * crossovers and the layers' best placement.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "fmt.h"
#include "netfit.h"
#include "prose.h"
#include "query.h"
#include "workload.h"

/* The answers in words: every finding's sentence (findings.h, the same
 * the report leads with), and how well the models fit. */
static int print_crossovers(FILE *out, const results *r, err *e)
{
    findings F;
    char buf[4096];
    int i, m, rc;
    if (!r->has_fit)
        return BE_OK;
    if ((rc = findings_make(r, &F, e)) < 0)
        return rc;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        prose_models(r, (wl_mode)m, buf, sizeof buf);
        if (buf[0])
            fprintf(out, "\n%s:%s\n", workload_mode_name((wl_mode)m), buf);
    }
    for (i = 0; i < F.n; i++) {
        findings_sentence(&F.f[i], r, buf, sizeof buf);
        fprintf(out, "%s%s\n", i ? "" : "\n", buf);
    }
    if (F.n > 0 && r->prices.n == 0)
        fprintf(out, "No prices given, so no cost figures: add --price DEVICE=USD_PER_HOUR "
                     "for each device (or --prices FILE) to get the cost crossover.\n");
    if (F.n > 0)
        fputc('\n', out);
    findings_free(&F);
    return BE_OK;
}

/* "1.2 ms/450 µs/20 µs": the times of a layer breakdown (fmt_time: a
 * device a thousand times slower reads "1.63 s", not "1.63e+03 ms"). */
static void layer_list(const double *t, int n, char *buf, size_t size)
{
    char one[32];
    int l;
    buf[0] = '\0';
    for (l = 0; l < n; l++) {
        fmt_time(one, sizeof one, t[l]);
        fmt_append(buf, size, "%s%s", l ? "/" : "", one);
    }
}

/* A time of the line below: fmt_time's. */
static const char *time_of(double s, char *buf, size_t size)
{
    fmt_time(buf, size, s);
    return buf;
}

/* Where print_layers is: the stream, and whether a line came yet. */
typedef struct layers_out {
    FILE *out;
    int first;
} layers_out;

/* One breakdown's line (netfit_each_breakdown's fn). */
static void layers_line(void *ctx, const rs_point *pb, const rs_point *po, const netfit_layers *b)
{
    layers_out *lo = ctx;
    char tb[400], to[400], on[600], t1[32], t2[32], t3[32];
    size_t k = 0;
    int l;
    layer_list(b->t[0], b->layers, tb, sizeof tb);
    layer_list(b->t[1], b->layers, to, sizeof to);
    on[0] = '\0';
    for (l = 0; l < b->layers && k + 1 < sizeof on; l++)
        k += (size_t)snprintf(on + k, sizeof on - k, "%s%s", l ? "," : "",
                              b->on[l] ? po->device : pb->device);
    fprintf(lo->out,
            "%s%s %s batch %d by layer: %s %s, %s %s; best placement %s, about %s "
            "(all on %s %s, all on %s with copies %s)\n",
            lo->first ? "\n" : "", pb->net, workload_mode_name(pb->mode), pb->batch, pb->device, tb,
            po->device, to, on, time_of(b->best, t1, sizeof t1), pb->device,
            time_of(b->all_base, t2, sizeof t2), po->device, time_of(b->all_other, t3, sizeof t3));
    lo->first = 0;
}

/* Per network, mode and batch that both devices timed by layer: each
 * layer's time on each, and the best placement of the layers with the
 * copies between devices, beside all on one device or the other. */
static void print_layers(FILE *out, const results *r)
{
    layers_out lo = {out, 1};
    netfit_each_breakdown(r, layers_line, &lo);
}

/* The answer per network of a run, one line each (inference and training,
 * both views): what `decide` writes for programs, in words. */
static int print_networks(FILE *out, const results *r, err *e)
{
    netfit_set s;
    int i, rc;
    if ((rc = netfit_run(r, r->prov.seed, 0, &s, e)) < 0)
        return rc;
    for (i = 0; i < s.n; i++) {
        char line[1024];
        netfit_sentence(r, &s.c[i], line, sizeof line);
        fprintf(out, "%s%s\n", i ? "" : "\n", line);
    }
    netfit_free(&s);
    print_layers(out, r);
    return BE_OK;
}

int cmd_answers(FILE *out, const results *r, err *e)
{
    int rc;
    if ((rc = print_crossovers(out, r, e)) < 0)
        return rc;
    return print_networks(out, r, e);
}
