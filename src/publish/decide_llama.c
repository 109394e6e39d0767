/*
 * decide_llama.c — llama.cpp's GGML_OP_OFFLOAD_MIN_BATCH from a run (see
 * decide.h).
 *
 * llama.cpp offloads an op whose weights sit in host memory to the GPU
 * when its batch is at least that value (32 unless set); the op then
 * copies the weights over every call, which is what breakeven's
 * weights-on-host view times.  So the value is that view's crossover
 * against the CPU, inference, rounded up.
 */
#include "decide.h"

#include <math.h>
#include <string.h>

#include "workload.h"

/* The weights-on-host median of device dev at batch b of net, or INFINITY. */
static double whost_at(const results *r, const char *net, const char *dev, int b)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == WL_INFERENCE && p->batch == b && strcmp(p->net, net) == 0 &&
            strcmp(p->device, dev) == 0 && p->status == PT_OK && p->has_whost && p->whost.n > 0)
            return p->whost.median;
    }
    return INFINITY;
}

/* The value c gives (decide_llama.value). */
static int value_of(const netfit_cross *c)
{
    return c->x.kind == CROSS_IN_RANGE ? (int)ceil(c->x.batch)
           : c->x.kind == CROSS_ALWAYS ? c->bmin
                                       : c->bmax + 1;
}

/* Whether c is a weights-on-host crossover of network net with a value. */
static int usable(const netfit_cross *c, const char *net)
{
    return c->mode == WL_INFERENCE && c->view == FIT_WHOST && strcmp(c->net, net) == 0 &&
           c->ncells > 0 &&
           (c->x.kind == CROSS_IN_RANGE || c->x.kind == CROSS_ALWAYS || c->x.kind == CROSS_NEVER);
}

void decide_llama_of(const results *r, const netfit_set *s, const char *net, decide_llama *out)
{
    int i;
    memset(out, 0, sizeof *out);
    /* the accelerator a program would offload to: measured to the largest
     * batch, and the fastest there */
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i], *b = out->c;
        if (!usable(c, net))
            continue;
        if (!b || c->bmax > b->bmax ||
            (c->bmax == b->bmax &&
             whost_at(r, net, c->other, c->bmax) < whost_at(r, net, b->other, b->bmax)))
            out->c = c;
    }
    if (out->c)
        out->value = value_of(out->c);
}

/* The comment line of one network's value. */
static void comment(FILE *env, const char *net, const decide_llama *l)
{
    const netfit_cross *c = l->c;
    const int named = c && strcmp(c->net, c->sizes) != 0;
    if (!c) {
        fprintf(env,
                "# %s: no accelerator measured it successfully with the weights on the host "
                "(inference): no value\n",
                net);
        return;
    }
    fprintf(env, "# %s%s%s%s: ", c->net, named ? " (" : "", named ? c->sizes : "",
            named ? ")" : "");
    if (c->x.kind == CROSS_IN_RANGE)
        fprintf(env,
                "%s is faster than %s from batch %.1f on (95%% CI %s%.1f to %.1f%s), batches "
                "%d..%d measured: offload from batch %d\n",
                c->other, c->base, c->x.batch, c->x.lo_open ? "below " : "", c->x.lo, c->x.hi,
                c->x.hi_open ? " or beyond" : "", c->bmin, c->bmax, l->value);
    else if (c->x.kind == CROSS_ALWAYS)
        fprintf(env,
                "%s was faster than %s at every batch measured (%d..%d): offload at batch %d, "
                "the smallest measured, and at or below it (smaller batches were not "
                "measured)\n",
                c->other, c->base, c->bmin, c->bmax, l->value);
    else
        fprintf(env,
                "%s never stayed ahead of %s in the batches measured (%d..%d; faster at %d of "
                "%d, not at the largest): %d keeps every measured batch on the CPU; larger "
                "batches were not measured; to keep such ops on the CPU at every batch, run "
                "llama.cpp with --no-op-offload\n",
                c->other, c->base, c->bmin, c->bmax, c->nfaster, c->ncells, l->value);
}

/* The other accelerators' values, for a llama.cpp that offloads to one of
 * them instead of to chosen. */
static void others(FILE *env, const netfit_set *s, const char *net, const netfit_cross *chosen)
{
    int i;
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i];
        if (c == chosen || !usable(c, net))
            continue;
        fprintf(env, "#   offloading to %s instead: %d (", c->other, value_of(c));
        if (c->x.kind == CROSS_IN_RANGE)
            fprintf(env, "faster than %s from batch %.1f on, 95%% CI %s%.1f to %.1f%s)\n", c->base,
                    c->x.batch, c->x.lo_open ? "below " : "", c->x.lo, c->x.hi,
                    c->x.hi_open ? " or beyond" : "");
        else
            fprintf(env, "%s %s %s)\n", c->x.kind == CROSS_ALWAYS ? "faster than" : "not ahead of",
                    c->base,
                    c->x.kind == CROSS_ALWAYS ? "at every batch measured"
                                              : "at the largest batch measured");
    }
}

void decide_llama_lines(FILE *env, const results *r, const netfit_set *s)
{
    const char *names[64];
    int n = netfit_networks(r, names, 64), i, best = 0, with = 0;
    fprintf(env, "# llama.cpp offloads an op whose weights sit in host memory from batch "
                 "GGML_OP_OFFLOAD_MIN_BATCH on: from run ");
    fprintf(env, "%s, inference, weights on the host\n", r->prov.id);
    for (i = 0; i < n; i++) {
        decide_llama l;
        decide_llama_of(r, s, names[i], &l);
        comment(env, names[i], &l);
        if (!l.c)
            continue;
        others(env, s, names[i], l.c);
        if (n > 1)
            fprintf(env, "# GGML_OP_OFFLOAD_MIN_BATCH=%d for %s alone\n", l.value, names[i]);
        best = l.value > best ? l.value : best;
        with++;
    }
    if (best == 0)
        return;
    if (with > 1)
        fprintf(env,
                "# the largest of the %d networks' values: below it, at least one of them "
                "ran faster on the CPU\n",
                with);
    fprintf(env, "GGML_OP_OFFLOAD_MIN_BATCH=%d\n", best);
}
