/*
 * decide_llama.c — llama.cpp's GGML_OP_OFFLOAD_MIN_BATCH from a run (see
 * decide.h).
 *
 * llama.cpp offloads an op whose weights sit in host memory to the GPU
 * when its batch is at least that value (32 unless set); the op then
 * copies the weights over every call, which is what breakeven's
 * weights-on-host view times.  So the value is that view's crossover
 * against the CPU, inference, rounded up.
 *
 * ggml's kernels are none of the stacks breakeven measures: its own
 * OpenCL kernels are not ggml's, and ggml-cuda hands large batches to
 * cuBLAS, as PyTorch on CUDA does.  So in a run of several stacks each
 * stack's value is given under its name, and the line says whose it is,
 * never one stack's number as another's.
 */
#include "decide.h"

#include <math.h>
#include <string.h>

#include "query.h"
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

/* Whether c is a weights-on-host crossover of network net with a value,
 * of a device of st (NULL: any device). */
static int usable(const results *r, const netfit_cross *c, const char *net, const choice_stack *st)
{
    int d = q_device_index(r, c->other);
    return c->mode == WL_INFERENCE && c->view == FIT_WHOST && strcmp(c->net, net) == 0 &&
           c->ncells > 0 && (!st || (d >= 0 && st->member[d] && d != st->host)) &&
           (c->x.kind == CROSS_IN_RANGE || c->x.kind == CROSS_ALWAYS || c->x.kind == CROSS_NEVER);
}

void decide_llama_of(const results *r, const netfit_set *s, const char *net, const choice_stack *st,
                     decide_llama *out)
{
    int i;
    memset(out, 0, sizeof *out);
    /* the accelerator a program would offload to: measured to the largest
     * batch, and the fastest there */
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i], *b = out->c;
        if (!usable(r, c, net, st))
            continue;
        if (!b || c->bmax > b->bmax ||
            (c->bmax == b->bmax &&
             whost_at(r, net, c->other, c->bmax) < whost_at(r, net, b->other, b->bmax)))
            out->c = c;
    }
    if (out->c)
        out->value = value_of(out->c);
}

/* The comment line of one network's value (stack: the name of the stack
 * it is from, NULL in a run of one). */
static void comment(FILE *env, const char *net, const char *stack, const decide_llama *l)
{
    const netfit_cross *c = l->c;
    const int named = c && strcmp(c->net, c->sizes) != 0;
    if (!c && stack) {
        fprintf(env,
                "# %s: no device of %s timed it successfully with the weights on the host "
                "(inference): no value\n",
                net, stack);
        return;
    }
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

/* The other accelerators' values (of st, NULL: any), for a llama.cpp that
 * offloads to one of them instead of to chosen. */
static void others(FILE *env, const results *r, const netfit_set *s, const char *net,
                   const choice_stack *st, const netfit_cross *chosen)
{
    int i;
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i];
        if (c == chosen || !usable(r, c, net, st))
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

/* The comments of the devices of st (NULL: every device), per network;
 * returns their value (0: none). */
static int stack_lines(FILE *env, const results *r, const netfit_set *s, const choice_stack *st,
                       const char *stack)
{
    const char *names[64];
    int n = netfit_networks(r, names, 64), i, best = 0, with = 0;
    for (i = 0; i < n; i++) {
        decide_llama l;
        decide_llama_of(r, s, names[i], st, &l);
        comment(env, names[i], stack, &l);
        if (!l.c)
            continue;
        others(env, r, s, names[i], st, l.c);
        if (n > 1)
            fprintf(env, "# GGML_OP_OFFLOAD_MIN_BATCH=%d for %s alone\n", l.value, names[i]);
        best = l.value > best ? l.value : best;
        with++;
    }
    if (with > 1)
        fprintf(env,
                "# the largest of the %d networks' values: below it, at least one of them "
                "ran faster on the CPU\n",
                with);
    return best;
}

void decide_llama_lines(FILE *env, const results *r, const netfit_set *s)
{
    choice_set cs;
    char name[160];
    int best = 0, k, pick = -1;
    choice_stacks(r, &cs);
    fprintf(env, "# llama.cpp offloads an op whose weights sit in host memory from batch "
                 "GGML_OP_OFFLOAD_MIN_BATCH on: from run ");
    fprintf(env, "%s, inference, weights on the host\n", r->prov.id);
    if (!cs.per_stack)
        best = stack_lines(env, r, s, NULL, NULL);
    for (k = 0; cs.per_stack && k < cs.nstacks; k++) {
        int v;
        choice_stack_name(r, &cs.stacks[k], name, sizeof name);
        fprintf(env, "# With %s%s:\n", name, cs.stacks[k].name[0] ? "" : " (not ggml's kernels)");
        if ((v = stack_lines(env, r, s, &cs.stacks[k], cs.stacks[k].name[0] ? name : "breakeven")) >
                0 &&
            pick < 0) {
            pick = k;
            best = v;
        }
    }
    if (best == 0)
        return;
    if (pick >= 0) {
        choice_stack_name(r, &cs.stacks[pick], name, sizeof name);
        fprintf(env,
                "# the value below is the one with %s, the first stack above with a value; "
                "ggml's own kernels were not measured\n",
                name);
    }
    fprintf(env, "GGML_OP_OFFLOAD_MIN_BATCH=%d\n", best);
}
