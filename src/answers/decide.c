/*
 * decide.c — `which`, decision.json and the files of `decide` (see
 * decide.h).  Everything written here is read by programs; every string
 * from the results file (untrusted input) goes through json_string.
 */
#define _POSIX_C_SOURCE 200809L
#include "decide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "choice.h"
#include "fit.h"
#include "fmt.h"
#include "fsx.h"
#include "json.h"
#include "prose.h"
#include "query.h"
#include "version.h"
#include "workload.h"

/* The most warnings decision.json carries: as many as a run page shows. */
#define DECIDE_MAX_WARNINGS 8

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

/* The network that net names (a name, sizes or a preset's name), as its
 * name in r, or NULL. */
static const char *network_of(const results *r, const char *net)
{
    char sizes[NET_SIZES_MAX];
    net_spec spec;
    err ignored;
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].net[0] &&
            (strcmp(r->points[i].net, net) == 0 || strcmp(r->points[i].sizes, net) == 0))
            return r->points[i].net;
    if (net_parse(net, "--net", &spec, &ignored) != BE_OK)
        return NULL;
    net_format(&spec, sizes, sizeof sizes);
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].net[0] && strcmp(r->points[i].sizes, sizes) == 0)
            return r->points[i].net;
    return NULL;
}

/* How many devices measured network name, and the first of them. */
static int devices_of(const results *r, const char *name, const char **first)
{
    int d, i, n = 0;
    *first = "";
    for (d = 0; d < r->ndevices; d++)
        for (i = 0; i < r->npoints; i++)
            if (strcmp(r->points[i].net, name) == 0 &&
                strcmp(r->points[i].device, r->devices[d].id) == 0) {
                if (n++ == 0)
                    *first = r->devices[d].id;
                break;
            }
    return n;
}

/* "cl:0.1 1.2 ms (95% CI 1.1 ms to 1.3 ms), cpu 3 ms (…)": every device's
 * time at cell c, fastest first, an interval too wide to inform flagged
 * ("95% CI 0.0332 µs to 513 s, uninformative"). */
static void times_text(const results *r, const choice_cell *c, char *buf, size_t size)
{
    int k;
    for (k = 0; k < c->n; k++) {
        char m[32], lo[32], hi[32];
        fmt_time(m, sizeof m, c->t[k].median);
        fmt_time(lo, sizeof lo, c->t[k].lo);
        fmt_time(hi, sizeof hi, c->t[k].hi);
        fmt_append(buf, size, "%s%s %s (95%% CI %s to %s%s)", k ? ", " : "",
                   r->devices[c->t[k].dev].id, m, lo, hi,
                   c->t[k].uninformative ? ", uninformative" : "");
    }
}

/* The devices that failed: everywhere (g), and at the answer's batch. */
static void failed_text(const results *r, const choice_group *g, const choice_cell *c, char *buf,
                        size_t size)
{
    int k, n;
    for (k = 0; k < g->nfailed; k++)
        fmt_append(buf, size, "%s%s", k ? ", " : "; never named, as no point of it was ok: ",
                   r->devices[g->failed[k]].id);
    for (k = 0, n = 0; k < c->nfailed; k++) {
        const rs_point *p = &r->points[c->failed[k]];
        int j, everywhere = 0;
        for (j = 0; j < g->nfailed; j++) /* said above */
            everywhere |= strcmp(r->devices[g->failed[j]].id, p->device) == 0;
        if (!everywhere)
            fmt_append(buf, size, "%s%s %s", n++ ? ", " : "; not ok at this batch: ", p->device,
                       results_status_name(p->status));
    }
}

/* The index in c->t of the first uninformative interval: the fastest's,
 * else the first device's within CHOICE_TIE_FACTOR of it (c->uninformative). */
static int first_uninformative(const choice_cell *c)
{
    int k;
    for (k = 0; k < c->n; k++)
        if (c->t[k].uninformative)
            return k;
    return 0;
}

/* Whether a device slower than the fastest has an uninformative interval
 * (said when c->uninformative is not). */
static int uninformative_others(const choice_cell *c)
{
    int k, n = 0;
    for (k = 1; k < c->n; k++)
        n += c->t[k].uninformative;
    return n > 0;
}

/* The answer's reasons in words, into a->why (across: a run of several
 * stacks that chose its base). */
static void why_text(const results *r, const choice_group *g, int batch, const choice_answer *x,
                     int across, decide_answer *a)
{
    const choice_cell *c = x->cell;
    const choice_cell *first = &g->cells[0], *last = &g->cells[g->ncells - 1];
    size_t size = sizeof a->why;
    snprintf(a->why, size, "%s at batch %d of %s (%s, %s): ", a->device, batch, g->net,
             workload_mode_name(g->mode), fit_view_name(g->view));
    if (across)
        fmt_append(a->why, size,
                   "among every device of every stack, against %s, the base this run chose "
                   "(--base); ",
                   q_base_id(r));
    if (x->extrapolated)
        fmt_append(a->why, size,
                   "extrapolated: batch %d lies %s the batches measured (%d..%d), so this is "
                   "the answer at batch %d; ",
                   batch, batch < first->batch ? "below" : "above", first->batch, last->batch,
                   c->batch);
    else if (x->lo_batch > 0 && x->between)
        fmt_append(a->why, size,
                   "batch %d was not measured: this is the answer at batch %d, the nearer of %d "
                   "and %d in log(batch); between them the answer changes (%s at %d, %s at %d) "
                   "at a batch not measured; ",
                   batch, c->batch, x->lo_batch, x->hi_batch, r->devices[x->lo_dev].id, x->lo_batch,
                   r->devices[x->hi_dev].id, x->hi_batch);
    else if (x->lo_batch > 0)
        fmt_append(a->why, size,
                   "batch %d was not measured: this is the answer at batch %d, the nearer of %d "
                   "and %d in log(batch), both of which name %s; ",
                   batch, c->batch, x->lo_batch, x->hi_batch, r->devices[x->lo_dev].id);
    fmt_append(a->why, size, "measured at batch %d: ", c->batch);
    times_text(r, c, a->why, size);
    if (x->close)
        fmt_append(a->why, size,
                   "; too close to call: the medians of %s and %s lie within " CHOICE_STR(
                       CHOICE_TIE_FACTOR) "x and their 95%% intervals overlap; by the rule "
                                          "(%s): %s",
                   r->devices[c->t[0].dev].id,
                   r->devices[c->t[c->pick == 0 ? c->other : c->pick].dev].id, CHOICE_RULE,
                   a->device);
    if (c->uninformative)
        fmt_append(a->why, size,
                   "; uninformative: the 95%% interval of %s (%s) spans more than a factor "
                   "of 2, so this answer rests on the medians alone and no tie is called on "
                   "it; measure again on a quieter machine",
                   r->devices[c->t[first_uninformative(c)].dev].id,
                   c->t[0].uninformative
                       ? "the fastest"
                       : "within " CHOICE_STR(CHOICE_TIE_FACTOR) "x of the fastest");
    else if (uninformative_others(c))
        fmt_append(a->why, size,
                   "; the uninformative intervals of devices more than " CHOICE_STR(
                       CHOICE_TIE_FACTOR) "x slower than %s are not taken as ties",
                   r->devices[c->t[0].dev].id);
    failed_text(r, g, c, a->why, size);
}

/* Why there is no answer for network name in mode and view: no stack
 * measured it there (none, BE_EUSAGE), or no device measured it ok
 * (BE_EFAIL). */
static int no_answer(const results *r, const char *name, wl_mode mode, fit_view view, int none,
                     err *e)
{
    if (none)
        return err_set(e, BE_EUSAGE, "run %s has no %s %s measurements of network %s", r->prov.id,
                       workload_mode_name(mode), fit_view_name(view), name);
    return err_set(e, BE_EFAIL,
                   "run %s has no point of network %s that any device measured %s (%s) "
                   "successfully",
                   r->prov.id, name, workload_mode_name(mode), fit_view_name(view));
}

/* Into a: the answer of g (with cells) at batch. */
static void answer(const results *r, const choice_set *cs, const choice_group *g, int batch,
                   decide_answer *a)
{
    choice_answer x;
    choice_at(g, batch, &x);
    a->device = r->devices[x.dev].id;
    a->close = x.close;
    a->extrapolated = x.extrapolated;
    a->between = x.between;
    a->uninformative = x.uninformative;
    why_text(r, g, batch, &x, cs->across, a);
}

/* The devices of st but its host, "torch:cuda:0, …", into buf. */
static void others_of(const results *r, const choice_stack *st, char *buf, size_t size)
{
    int d, n = 0;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++)
        if (st->member[d] && d != st->host)
            fmt_append(buf, size, "%s%s", n++ ? ", " : "", r->devices[d].id);
}

/* Per stack of cs (choice_set.per_stack): the answer of each at batch into
 * a[0..*n), device NULL where a stack has none; BE_EUSAGE when no stack
 * measured net's mode and view, BE_EFAIL when none measured it ok. */
static int per_stack(const results *r, const choice_set *cs, const char *name, wl_mode mode,
                     fit_view view, int batch, decide_answer *a, int max, int *n, err *e)
{
    int k, found = 0, answered = 0;
    for (k = 0; k < cs->nstacks && *n < max; k++) {
        const choice_stack *st = &cs->stacks[k];
        const choice_group *g = choice_find(cs, name, mode, view, k);
        decide_answer *x = &a[(*n)++];
        char what[160], devs[400];
        choice_stack_name(r, st, what, sizeof what);
        snprintf(x->stack, sizeof x->stack, "With %s", what);
        x->host = r->devices[st->host].id;
        others_of(r, st, devs, sizeof devs);
        if (!g && st->ndevices < 2)
            snprintf(x->why, sizeof x->why, "nothing to choose: %s is its only device",
                     r->devices[st->host].id);
        else if (!g)
            snprintf(x->why, sizeof x->why, "no answer: %s measured no %s %s point of network %s%s",
                     devs, workload_mode_name(mode), fit_view_name(view), name,
                     st->name[0] && view != FIT_RESIDENT
                         ? " (a framework's adapter times the step on data already on its "
                           "device: --view resident)"
                         : "");
        else if (g->ncells == 0)
            snprintf(x->why, sizeof x->why,
                     "no answer: no device of it measured network %s %s (%s) successfully", name,
                     workload_mode_name(mode), fit_view_name(view));
        else
            answer(r, cs, g, batch, x);
        found += g != NULL;
        answered += x->device != NULL;
    }
    return answered ? BE_OK : no_answer(r, name, mode, view, !found, e);
}

int decide_which(const results *r, const char *net, wl_mode mode, fit_view view, int batch,
                 decide_answer *a, int max, int *n, err *e)
{
    char nets[700];
    choice_set cs;
    const choice_group *g;
    const char *name = network_of(r, net), *dev;
    int rc = BE_OK;

    memset(a, 0, (size_t)max * sizeof *a);
    *n = 0;
    list_networks(r, nets, sizeof nets);
    if (!name)
        return err_set(e, BE_EUSAGE, "run %s measured no network \"%s\"; %s%s", r->prov.id, net,
                       nets[0] ? "its networks: "
                               : "it measured the square stack only (measure "
                                 "a network with breakeven run --net SIZES)",
                       nets);
    if (devices_of(r, name, &dev) < 2)
        return err_set(e, BE_EUSAGE,
                       "run %s measured network %s on one device only (%s): there is no "
                       "other device to choose",
                       r->prov.id, name, dev);
    if ((rc = choice_run(r, &cs, e)) < 0)
        return rc;
    if (cs.per_stack) {
        rc = per_stack(r, &cs, name, mode, view, batch, a, max, n, e);
        choice_free(&cs);
        return rc;
    }
    if (!(g = choice_find(&cs, name, mode, view, -1)) || g->ncells == 0)
        rc = no_answer(r, name, mode, view, !g, e);
    if (rc == BE_OK && max > 0) {
        answer(r, &cs, g, batch, a);
        *n = 1;
    }
    choice_free(&cs);
    return rc;
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

/* ", \"key\": [...]": the n times t in seconds as a member. */
static void json_seconds(FILE *f, const char *key, const double *t, int n)
{
    int l;
    fprintf(f, ", \"%s\": [", key);
    for (l = 0; l < n; l++) {
        fputs(l ? ", " : "", f);
        json_number(f, t[l]);
    }
    fputc(']', f);
}

/* Where json_layers is: the stream, and how many breakdowns came. */
typedef struct layers_json {
    FILE *f;
    int n;
} layers_json;

/* One breakdown's object (netfit_each_breakdown's fn). */
static void json_breakdown(void *ctx, const rs_point *pb, const rs_point *po,
                           const netfit_layers *b)
{
    layers_json *lj = ctx;
    FILE *f = lj->f;
    int l;
    fputs(lj->n++ ? ",\n    {\"net\": " : "\n    {\"net\": ", f);
    json_string(f, pb->net);
    fprintf(f, ", \"mode\": \"%s\", \"batch\": %d", workload_mode_name(pb->mode), pb->batch);
    json_member_string(f, "base", pb->device);
    json_member_string(f, "other", po->device);
    json_seconds(f, "base_layer_s", b->t[0], b->layers);
    json_seconds(f, "other_layer_s", b->t[1], b->layers);
    json_seconds(f, "copy_s", b->move, b->layers + 1);
    fputs(", \"placement\": [", f);
    for (l = 0; l < b->layers; l++) {
        fputs(l ? ", " : "", f);
        json_string(f, b->on[l] ? po->device : pb->device);
    }
    fputc(']', f);
    json_member_number(f, "placement_s", b->best);
    json_member_number(f, "all_base_s", b->all_base);
    json_member_number(f, "all_other_s", b->all_other);
    fputc('}', f);
}

/* Per network, mode, batch and device pair with layer times: the
 * breakdown and the best placement (netfit_breakdown), estimates. */
static void json_layers(FILE *f, const results *r)
{
    layers_json lj = {f, 0};
    netfit_each_breakdown(r, json_breakdown, &lj);
    if (lj.n)
        fputs("\n  ", f);
}

/* One device's time at a cell. */
static void json_time(FILE *f, const results *r, const choice_time *t)
{
    fputs("{\"device\": ", f);
    json_string(f, r->devices[t->dev].id);
    json_member_number(f, "median_s", t->median);
    json_member_number(f, "ci_lo_s", t->lo);
    json_member_number(f, "ci_hi_s", t->hi);
    fprintf(f, ", \"tied\": %s, \"uninformative\": %s}", t->tied ? "true" : "false",
            t->uninformative ? "true" : "false");
}

/* The answer at one measured batch. */
static void json_cell(FILE *f, const results *r, const choice_cell *c)
{
    int k;
    fprintf(f, "        {\"batch\": %d, \"device\": ", c->batch);
    json_string(f, r->devices[c->t[c->pick].dev].id);
    fprintf(f,
            ", \"too_close\": %s, \"uninformative\": %s, \"other\": ", c->close ? "true" : "false",
            c->uninformative ? "true" : "false");
    if (c->other >= 0)
        json_string(f, r->devices[c->t[c->other].dev].id);
    else
        fputs("null", f);
    fputs(", \"times\": [", f);
    for (k = 0; k < c->n; k++) {
        fputs(k ? ", " : "", f);
        json_time(f, r, &c->t[k]);
    }
    fputs("], \"not_ok\": [", f);
    for (k = 0; k < c->nfailed; k++) {
        const rs_point *p = &r->points[c->failed[k]];
        fputs(k ? ", {\"device\": " : "{\"device\": ", f);
        json_string(f, p->device);
        json_member_string(f, "status", results_status_name(p->status));
        fputc('}', f);
    }
    fputs("]}", f);
}

/* Every network × mode × view's answers (choice.h). */
static void json_answers(FILE *f, const results *r, const choice_set *cs)
{
    int i, k;
    for (i = 0; i < cs->n; i++) {
        const choice_group *g = &cs->g[i];
        fputs(i ? ",\n    {\"net\": " : "\n    {\"net\": ", f);
        json_string(f, g->net);
        json_member_string(f, "sizes", g->sizes);
        json_member_string(f, "mode", workload_mode_name(g->mode));
        json_member_string(f, "view", fit_view_name(g->view));
        if (cs->per_stack) { /* which program the answers are for */
            json_member_string(f, "stack", choice_stack_key(&cs->stacks[g->stack]));
            json_member_string(f, "host", r->devices[cs->stacks[g->stack].host].id);
        }
        fputs(", \"measured_batches\": [", f);
        for (k = 0; k < g->ncells; k++)
            fprintf(f, "%s%d", k ? ", " : "", g->cells[k].batch);
        fputs("], \"failed\": [", f);
        for (k = 0; k < g->nfailed; k++) {
            fputs(k ? ", " : "", f);
            json_string(f, r->devices[g->failed[k]].id);
        }
        fputs("], \"batches\": [", f);
        for (k = 0; k < g->ncells; k++) {
            fputs(k ? ",\n" : "\n", f);
            json_cell(f, r, &g->cells[k]);
        }
        fputs(g->ncells ? "\n    ]}" : "]}", f);
    }
    if (cs->n)
        fputs("\n  ", f);
}

/* llama.cpp's threshold per network from the devices of st (NULL: every
 * device): the list of networks, then returns the value recommended (0:
 * none). */
static int json_llama_networks(FILE *f, const results *r, const netfit_set *s,
                               const choice_stack *st)
{
    const char *names[64];
    int n = netfit_networks(r, names, 64), i, best = 0;
    fputs("\"networks\": [", f);
    for (i = 0; i < n; i++) {
        decide_llama l;
        decide_llama_of(r, s, names[i], st, &l);
        fputs(i ? ", {\"net\": " : "{\"net\": ", f);
        json_string(f, names[i]);
        fputs(", \"value\": ", f);
        if (l.c) {
            fprintf(f, "%d, \"crossover\": ", l.value);
            json_cross(f, l.c);
            best = l.value > best ? l.value : best;
        } else {
            fputs("null, \"crossover\": null", f);
        }
        fputc('}', f);
    }
    fputs("], \"value\": ", f);
    if (best > 0)
        fprintf(f, "%d", best);
    else
        fputs("null", f);
    return best;
}

/* llama.cpp's threshold per network and the one recommended; in a run of
 * several stacks (cs) also per stack, the value that of the first stack
 * with one (decide_llama_lines). */
static void json_llama(FILE *f, const results *r, const netfit_set *s, const choice_set *cs)
{
    int k, pick = -1;
    fputs("{\"variable\": \"GGML_OP_OFFLOAD_MIN_BATCH\", ", f);
    if (!cs->per_stack) {
        json_llama_networks(f, r, s, NULL);
        fputc('}', f);
        return;
    }
    fputs("\"stacks\": [", f);
    for (k = 0; k < cs->nstacks; k++) {
        fputs(k ? ", {\"stack\": " : "{\"stack\": ", f);
        json_string(f, choice_stack_key(&cs->stacks[k]));
        fputs(", ", f);
        if (json_llama_networks(f, r, s, &cs->stacks[k]) > 0 && pick < 0)
            pick = k;
        fputc('}', f);
    }
    fputs("], \"stack\": ", f);
    if (pick >= 0)
        json_string(f, choice_stack_key(&cs->stacks[pick]));
    else
        fputs("null", f);
    fputs(", ", f);
    json_llama_networks(f, r, s, pick >= 0 ? &cs->stacks[pick] : &cs->stacks[0]);
    fputc('}', f);
}

/* The devices as decision.json lists them: objects of id, name, driver. */
static const decide_list json_devices = {
    "{\"id\": ", ", {\"id\": ", ", \"name\": ", ", \"driver\": ", "}", json_string};

static void json_text(FILE *f, const results *r, const netfit_set *s, const choice_set *cs)
{
    char print[32], (*warn)[PROSE_WARNING] = malloc(DECIDE_MAX_WARNINGS * sizeof *warn);
    int i, nw = warn ? prose_warnings(r, warn, DECIDE_MAX_WARNINGS) : 0;
    fputs("{\n  \"breakeven\": ", f);
    json_string(f, BE_VERSION);
    json_member_string(f, "commit", BE_COMMIT);
    fputs(",\n  \"run\": ", f);
    json_string(f, r->prov.id);
    fprintf(f, ", \"partial\": %s", r->partial ? "true" : "false");
    fputs(",\n  \"warnings\": [", f);
    for (i = 0; i < nw; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        json_string(f, warn[i]);
    }
    fputs(nw ? "\n  ],\n  \"machine\": {\"host\": " : "],\n  \"machine\": {\"host\": ", f);
    free(warn);
    json_string(f, r->prov.host);
    q_machine_print(r, print, sizeof print);
    json_member_string(f, "fingerprint", print);
    fputs(", \"cpu\": ", f);
    json_string(f, r->prov.cpu_model);
    fputs(", \"os\": ", f);
    json_string(f, r->prov.os);
    fputs(", \"kernel\": ", f);
    json_string(f, r->prov.kernel);
    fputs(", \"openblas\": ", f);
    json_string(f, r->prov.blas_version);
    fprintf(f, ", \"openblas_threads\": %d, \"devices\": [", r->prov.blas_threads);
    decide_devices(f, r, &json_devices);
    fputs("]},\n  \"rule\": {\"answer\": \"the device with the lowest median step time among the "
          "devices with an ok point at the batch\"",
          f);
    json_member_string(f, "too_close", CHOICE_CLOSE);
    json_member_string(f, "too_close_pick", CHOICE_RULE);
    json_member_string(f, "uninformative", CHOICE_UNINFORMATIVE);
    json_member_string(f, "contention", CHOICE_CONTENTION);
    json_member_string(f, "between", CHOICE_RULE_BETWEEN);
    json_member_string(f, "outside", CHOICE_RULE_OUTSIDE);
    if (cs->per_stack || cs->across)
        json_member_string(f, "stacks", cs->per_stack ? CHOICE_RULE_STACKS : CHOICE_RULE_ACROSS);
    fputs("},\n  \"answers\": [", f);
    json_answers(f, r, cs);
    fputs("],\n  \"llama_cpp\": ", f);
    json_llama(f, r, s, cs);
    fputs(",\n  \"crossovers\": [\n", f);
    for (i = 0; i < s->n; i++) {
        json_cross(f, &s->c[i]);
        fputs(i + 1 < s->n ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"layers\": [", f);
    json_layers(f, r);
    fputs("]\n}\n", f);
}

/* decision.json (s: r's crossovers) or, with s NULL, the header into a
 * malloc'ed text: one rendering of r's choices for both files. */
static int render(const results *r, const netfit_set *s, char **text, size_t *len, err *e)
{
    const char *name = s ? "decision.json" : "breakeven_decision.h";
    choice_set cs;
    FILE *f;
    int rc = choice_run(r, &cs, e);
    if (rc < 0)
        return rc;
    if (!(f = open_memstream(text, len))) {
        choice_free(&cs);
        return err_set(e, BE_EFAIL, "out of memory for %s", name);
    }
    if (s)
        json_text(f, r, s, &cs);
    else
        decide_header_text(f, r, &cs);
    choice_free(&cs);
    if (fclose(f) != 0) {
        free(*text);
        *text = NULL;
        return err_set(e, BE_EFAIL, "out of memory for %s", name);
    }
    return BE_OK;
}

int decide_header(const results *r, char **text, size_t *len, err *e)
{
    return render(r, NULL, text, len, e);
}

int decide_write(const results *r, const netfit_set *s, const char *root, const char *dir,
                 FILE *env, err *e)
{
    char path[4200], *text = NULL;
    size_t len = 0;
    int rc;

    if ((rc = render(r, s, &text, &len, e)) < 0)
        return rc;
    snprintf(path, sizeof path, "%s/decision.json", dir);
    rc = fsx_write_in(root, path, text, len, e);
    free(text);
    text = NULL;
    if (rc < 0 || (rc = decide_header(r, &text, &len, e)) < 0)
        return rc;
    snprintf(path, sizeof path, "%s/breakeven_decision.h", dir);
    rc = fsx_write_in(root, path, text, len, e);
    free(text);
    if (rc < 0)
        return rc;
    decide_llama_lines(env, r, s);
    return BE_OK;
}
