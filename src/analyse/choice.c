/*
 * choice.c — the device at each batch among every device (see choice.h).
 */
#include "choice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netfit.h"
#include "query.h"

/* Whether p is a point of g's network and mode on a device of st. */
static int of_group(const results *r, const rs_point *p, const choice_group *g,
                    const choice_stack *st)
{
    int d;
    return p->mode == g->mode && strcmp(p->net, g->net) == 0 && strcmp(p->sizes, g->sizes) == 0 &&
           (d = q_device_index(r, p->device)) >= 0 && st->member[d];
}

/* Whether device d computes where the program's data already are, as the
 * tie rule (CHOICE_RULE) assumes of its host: OpenBLAS, or a framework on
 * the CPU (PyTorch's CPU holds a PyTorch program's tensors as OpenBLAS
 * holds a C program's arrays); not an OpenCL device, which copies even on
 * the CPU. */
static int holds_data(const results *r, int d)
{
    const device_info *x = &r->devices[d];
    return strcmp(x->kind, "openblas") == 0 ||
           (strcmp(x->kind, "framework") == 0 && strcmp(x->type, "CPU") == 0);
}

static int by_median(const void *a, const void *b)
{
    const choice_time *x = a, *y = b;
    if (x->median != y->median)
        return x->median < y->median ? -1 : 1;
    return x->dev - y->dev; /* a tie of medians: the devices' order */
}

/* The ties of c and the pick by CHOICE_RULE (host: the stack's). */
static void settle(const results *r, int host, choice_cell *c)
{
    int k;
    c->close = 0;
    c->pick = 0;
    c->other = -1;
    for (k = 0; k < c->n; k++)
        c->t[k].uninformative = q_ci_uninformative(c->t[k].lo, c->t[k].hi);
    c->uninformative = c->n > 0 && c->t[0].uninformative;
    /* t[k].median ≥ t[0].median, so the two intervals overlap exactly when
     * t[k]'s reaches down to t[0]'s upper end */
    for (k = 1; k < c->n; k++) {
        int near = c->t[k].median <= CHOICE_TIE_FACTOR * c->t[0].median;
        c->uninformative |= near && c->t[k].uninformative;
        c->t[k].tied =
            near && !c->t[0].uninformative && !c->t[k].uninformative && c->t[k].lo <= c->t[0].hi;
        c->close |= c->t[k].tied;
    }
    if (!c->close)
        return;
    for (k = 1; k < c->n; k++)
        if (c->t[k].tied && c->t[k].dev == host && holds_data(r, host))
            c->pick = k;
    if (c->pick != 0) {
        c->other = 0;
        return;
    }
    for (k = 1; k < c->n && c->other < 0; k++)
        if (c->t[k].tied)
            c->other = k;
}

/* The cell of g at batch b: every device's ok point in g's view, and the
 * points there that are not ok (the devices of st). */
static int fill_cell(const results *r, const choice_group *g, const choice_stack *st, int b,
                     choice_cell *c, err *e)
{
    int i;
    memset(c, 0, sizeof *c);
    c->batch = b;
    if (!(c->t = calloc((size_t)r->ndevices, sizeof *c->t)))
        return err_set(e, BE_EFAIL, "out of memory for the decision of network %s", g->net);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const stats_summary *s;
        int d;
        if (!of_group(r, p, g, st) || p->batch != b || (d = q_device_index(r, p->device)) < 0)
            continue;
        if ((s = q_summary_in(r, p, g->view)) != NULL) {
            c->t[c->n].dev = d;
            c->t[c->n].median = s->median;
            c->t[c->n].lo = s->ci_lo;
            c->t[c->n].hi = s->ci_hi;
            c->n++;
        } else if (!q_ok(p) && c->nfailed < RESULTS_MAX_DEVICES) {
            c->failed[c->nfailed++] = i;
        }
    }
    qsort(c->t, (size_t)c->n, sizeof *c->t, by_median);
    settle(r, st->host, c);
    return BE_OK;
}

static int by_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The batches of g with an ok point in its view on a device of st,
 * ascending, into b (room for r->npoints); returns their count. */
static int batches(const results *r, const choice_group *g, const choice_stack *st, int *b)
{
    int i, j, n = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (!of_group(r, p, g, st) || !q_summary_in(r, p, g->view))
            continue;
        for (j = 0; j < n && b[j] != p->batch; j++)
            ;
        if (j == n)
            b[n++] = p->batch;
    }
    qsort(b, (size_t)n, sizeof *b, by_int);
    return n;
}

/* The devices of st with points of g's network and mode, none of them ok. */
static void failed_devices(const results *r, choice_group *g, const choice_stack *st)
{
    int d, i;
    for (d = 0; d < r->ndevices; d++) {
        int any = 0, ok = 0;
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (of_group(r, p, g, st) && strcmp(p->device, r->devices[d].id) == 0) {
                any = 1;
                ok |= q_ok(p);
            }
        }
        if (any && !ok)
            g->failed[g->nfailed++] = d;
    }
}

/* Whether some point of the network like, in its mode, on a device of st
 * (besides its host: others), measured view v. */
static int has_view(const results *r, const rs_point *like, const choice_stack *st, int others,
                    fit_view v)
{
    int i, d;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == like->mode && strcmp(p->net, like->net) == 0 &&
            (d = q_device_index(r, p->device)) >= 0 && st->member[d] &&
            (!others || d != st->host) &&
            (v == FIT_RESIDENT || (v == FIT_TRANSFER ? p->has_transfer : p->has_whost)))
            return 1;
    }
    return 0;
}

static int make_group(const results *r, const rs_point *like, const choice_set *s, int st,
                      fit_view v, int *b, choice_group *g, err *e)
{
    int k, n, rc;
    memset(g, 0, sizeof *g);
    snprintf(g->net, sizeof g->net, "%s", like->net);
    snprintf(g->sizes, sizeof g->sizes, "%s", like->sizes);
    g->mode = like->mode;
    g->view = v;
    g->stack = st;
    failed_devices(r, g, &s->stacks[st]);
    n = batches(r, g, &s->stacks[st], b);
    if (n > 0 && !(g->cells = calloc((size_t)n, sizeof *g->cells)))
        return err_set(e, BE_EFAIL, "out of memory for the decision of network %s", g->net);
    for (k = 0; k < n; k++, g->ncells++)
        if ((rc = fill_cell(r, g, &s->stacks[st], b[k], &g->cells[k], e)) < 0)
            return rc;
    return BE_OK;
}

/* The stack entry of name in s, added when new. */
static choice_stack *stack_of(choice_set *s, const char *name)
{
    int k;
    for (k = 0; k < s->nstacks; k++)
        if (strcmp(s->stacks[k].name, name) == 0)
            return &s->stacks[k];
    snprintf(s->stacks[k].name, sizeof s->stacks[k].name, "%s", name);
    s->stacks[k].host = -1;
    s->nstacks++;
    return &s->stacks[k];
}

const char *choice_stack_key(const choice_stack *st)
{
    return st->name[0] ? st->name : "breakeven";
}

void choice_stack_name(const results *r, const choice_stack *st, char *buf, size_t size)
{
    if (!st->name[0])
        snprintf(buf, size, "breakeven's OpenCL kernels and OpenBLAS");
    else if (st->own_host)
        snprintf(buf, size, "%s", st->name);
    else
        snprintf(buf, size, "%s, against %s: the run has no CPU device of %s", st->name,
                 r->devices[st->host].id, st->name);
}

/* s's stacks (choice_set): per stack when r's devices belong to several
 * and r did not choose its base, else one of every device. */
void choice_stacks(const results *r, choice_set *s)
{
    const int base = q_base(r);
    char name[64];
    int i, k;
    memset(s, 0, sizeof *s);
    if (r->ndevices == 0)
        return;
    for (i = -1; i < r->ndevices; i++) { /* the base's stack first */
        const int d = i < 0 ? base : i;
        choice_stack *st;
        if (i == base)
            continue;
        st = stack_of(s, q_stack(r, r->devices[d].id, name, sizeof name));
        st->member[d] = 1;
        st->ndevices++;
        /* the host as q_base_for finds it: the base in its stack, else the
         * stack's first CPU device */
        if (st->host < 0 && (d == base || strcmp(r->devices[d].type, "CPU") == 0))
            st->host = d;
    }
    s->per_stack = s->nstacks > 1 && !r->prov.base[0];
    s->across = s->nstacks > 1 && r->prov.base[0];
    if (!s->per_stack) {
        choice_stack *st = &s->stacks[0];
        s->nstacks = 1;
        st->host = base;
        st->own_host = 1;
        st->ndevices = r->ndevices;
        for (i = 0; i < r->ndevices; i++)
            st->member[i] = 1;
        return;
    }
    for (k = 0; k < s->nstacks; k++) {
        choice_stack *st = &s->stacks[k];
        st->own_host = st->host >= 0;
        if (st->host < 0) { /* no CPU device of its own: set against the base */
            st->host = base;
            st->member[base] = 1;
            st->ndevices++;
        }
    }
}

int choice_run(const results *r, choice_set *out, err *e)
{
    const char *names[RESULTS_MAX_DEVICES * 4];
    int nn = netfit_networks(r, names, (int)(sizeof names / sizeof *names)), k, m, v, st,
        rc = BE_OK;
    int *b = NULL;
    choice_stacks(r, out);
    if (nn == 0)
        return BE_OK;
    b = malloc((size_t)r->npoints * sizeof *b);
    out->g = calloc((size_t)nn * 2 * (size_t)(out->nstacks + 1) * 3, sizeof *out->g);
    if (!b || !out->g) {
        rc = err_set(e, BE_EFAIL, "out of memory for the decisions");
        goto fail;
    }
    for (k = 0; k < nn; k++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
            const rs_point *like = netfit_first_point(r, names[k], (wl_mode)m);
            for (st = 0; like && st < out->nstacks; st++) {
                const choice_stack *cs = &out->stacks[st];
                /* per stack: only where there is something to choose */
                if (out->per_stack && !has_view(r, like, cs, 1, FIT_RESIDENT))
                    continue;
                for (v = FIT_RESIDENT; v <= FIT_WHOST; v++) {
                    if (!has_view(r, like, cs, out->per_stack, (fit_view)v))
                        continue;
                    rc = make_group(r, like, out, st, (fit_view)v, b, &out->g[out->n], e);
                    out->n++; /* freed with the set, also when half made */
                    if (rc < 0)
                        goto fail;
                }
            }
        }
    free(b);
    return BE_OK;
fail:
    free(b);
    choice_free(out);
    return rc;
}

void choice_free(choice_set *s)
{
    int i, k;
    for (i = 0; i < s->n; i++) {
        for (k = 0; k < s->g[i].ncells; k++)
            free(s->g[i].cells[k].t);
        free(s->g[i].cells);
    }
    free(s->g);
    memset(s, 0, sizeof *s);
}

const choice_group *choice_find(const choice_set *s, const char *net, wl_mode mode, fit_view view,
                                int st)
{
    int i;
    for (i = 0; i < s->n; i++) {
        const choice_group *g = &s->g[i];
        if (g->mode == mode && g->view == view && (st < 0 || g->stack == st) &&
            (strcmp(g->net, net) == 0 || strcmp(g->sizes, net) == 0))
            return g;
    }
    return NULL;
}

void choice_at(const choice_group *g, int batch, choice_answer *a)
{
    const choice_cell *lo = NULL, *hi = NULL;
    int k;
    memset(a, 0, sizeof *a);
    a->other = -1;
    for (k = 0; k < g->ncells; k++) {
        if (g->cells[k].batch <= batch)
            lo = &g->cells[k];
        else if (!hi)
            hi = &g->cells[k];
    }
    if (!lo && !hi)
        return;
    if (!lo || !hi) {
        a->cell = lo ? lo : hi;
        a->extrapolated = a->cell->batch != batch;
    } else if (lo->batch == batch) {
        a->cell = lo;
    } else {
        /* nearer in log(batch): batch² against the product of the two */
        a->cell = (double)batch * batch <= (double)lo->batch * hi->batch ? lo : hi;
        a->lo_batch = lo->batch;
        a->hi_batch = hi->batch;
        a->lo_dev = lo->t[lo->pick].dev;
        a->hi_dev = hi->t[hi->pick].dev;
        a->between = a->lo_dev != a->hi_dev;
    }
    a->dev = a->cell->t[a->cell->pick].dev;
    a->close = a->cell->close;
    a->uninformative = a->cell->uninformative;
    a->other = a->cell->other >= 0 ? a->cell->t[a->cell->other].dev : -1;
}
