/*
 * netfit.c — crossovers per network, and the placement of layers (see
 * netfit.h).
 */
#include "netfit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "workload.h"

#define NETFIT_MAX_CELLS 256

static const rs_point *find(const results *r, const char *dev, const rs_point *like, int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == like->mode && p->batch == batch && strcmp(p->device, dev) == 0 &&
            strcmp(p->net, like->net) == 0 && strcmp(p->sizes, like->sizes) == 0)
            return p;
    }
    return NULL;
}

static double log_sd(const rs_point *p, fit_view v)
{
    const stats_summary *s = v == FIT_WHOST      ? &p->whost
                             : v == FIT_TRANSFER ? &p->transfer
                                                 : &p->resident;
    return xover_log_sd(s->ci_lo, s->ci_hi, s->ci_level);
}

/* The crossover of one network (the points like `like`), other device and
 * view. */
static int one(const results *r, const rs_point *like, const char *base, const char *other,
               fit_view v, uint64_t seed, int boot, netfit_cross *c, err *e)
{
    xover_cell cells[NETFIT_MAX_CELLS];
    stats_prior prior;
    double lo, hi;
    int i, m = 0, rc, paired;
    memset(c, 0, sizeof *c);
    q_ratio_prior(r, base, FIT_RESIDENT, other, v, &prior);
    snprintf(c->net, sizeof c->net, "%s", like->net);
    snprintf(c->sizes, sizeof c->sizes, "%s", like->sizes);
    snprintf(c->base, sizeof c->base, "%s", base);
    snprintf(c->other, sizeof c->other, "%s", other);
    c->mode = like->mode;
    c->view = v;
    c->x.kind = CROSS_UNKNOWN;
    for (i = 0; i < r->npoints && m < NETFIT_MAX_CELLS; i++) {
        const rs_point *pb = &r->points[i], *po;
        if (pb->mode != like->mode || strcmp(pb->device, base) != 0 ||
            strcmp(pb->net, like->net) != 0 || strcmp(pb->sizes, like->sizes) != 0 || !q_ok(pb) ||
            !(po = find(r, other, pb, pb->batch)) || !q_ok_view(po, v))
            continue;
        cells[m].batch = pb->batch;
        cells[m].base = q_median(pb, FIT_RESIDENT);
        cells[m].other = q_median(po, v);
        cells[m].base_sd = log_sd(pb, FIT_RESIDENT);
        cells[m].other_sd = log_sd(po, v);
        paired = q_ratio_ci(pb, FIT_RESIDENT, po, v, &prior, &lo, &hi);
        xover_pair(&cells[m], paired, lo, hi);
        if (c->bmin == 0 || pb->batch < c->bmin)
            c->bmin = pb->batch;
        if (pb->batch > c->bmax)
            c->bmax = pb->batch;
        c->nfaster += cells[m].other < cells[m].base;
        c->nuninformative += q_summary_uninformative(&pb->resident) ||
                             q_summary_uninformative(v == FIT_WHOST      ? &po->whost
                                                     : v == FIT_TRANSFER ? &po->transfer
                                                                         : &po->resident);
        m++;
    }
    c->ncells = m;
    if (m == 0)
        return BE_OK;
    if ((rc = xover_estimate(cells, m, seed, boot > 0 ? boot : 1000, &c->x, e)) < 0)
        return err_prefix(e, rc, "network %s", like->net);
    return BE_OK;
}

/* View v in the answers' words. */
static const char *view_words(fit_view v)
{
    return v == FIT_WHOST      ? "weights on the host"
           : v == FIT_TRANSFER ? "transfers counted"
                               : "data resident";
}

void netfit_answer(const results *r, const netfit_cross *x, char *buf, size_t size)
{
    const int named = strcmp(x->net, x->sizes) != 0;
    char other[256], base[256];
    int n =
        snprintf(buf, size, "%s%s%s%s, %s, %s: ", x->net, named ? " (" : "", named ? x->sizes : "",
                 named ? ")" : "", workload_mode_name(x->mode), view_words(x->view));
    size_t k = n > 0 && (size_t)n < size ? (size_t)n : size - 1;
    /* the devices as people name them, and batches as whole numbers: the
     * first whole batch at or past each crossing */
    q_device_name(r, x->other, other, sizeof other);
    q_device_name(r, x->base, base, sizeof base);
    if (x->x.kind == CROSS_IN_RANGE)
        n = snprintf(buf + k, size - k,
                     "%s is faster than %s from batch %.0f on (95%% CI %s%.0f to %.0f%s)", other,
                     base, ceil(x->x.batch - 1e-9), x->x.lo_open ? "below " : "",
                     ceil(x->x.lo - 1e-9), ceil(x->x.hi - 1e-9), x->x.hi_open ? " or beyond" : "");
    else if (x->x.kind == CROSS_ALWAYS)
        n = snprintf(buf + k, size - k, "%s is faster than %s at every batch measured", other,
                     base);
    else if (x->x.kind == CROSS_NEVER && x->nfaster == 0)
        n = snprintf(buf + k, size - k, "%s is slower than %s at every batch measured", other,
                     base);
    else if (x->x.kind == CROSS_NEVER)
        n = snprintf(buf + k, size - k,
                     "%s never stays ahead of %s (faster at %d of %d batches, not at the "
                     "largest)",
                     other, base, x->nfaster, x->ncells);
    else
        n = snprintf(buf + k, size - k, "no answer (no batch where both %s and %s measured ok)",
                     base, other);
    k += n > 0 && (size_t)n < size - k ? (size_t)n : size - 1 - k;
    snprintf(buf + k, size - k, "; batches %d..%d.", x->bmin, x->bmax);
}

void netfit_sentence(const results *r, const netfit_cross *x, char *buf, size_t size)
{
    char other[256];
    size_t k;
    netfit_answer(r, x, buf, size);
    if (x->nuninformative == 0)
        return;
    /* a sentence of its own, naming device and view: the answer reads in
     * one breath, and a page of several answers never repeats it */
    q_device_name(r, x->other, other, sizeof other);
    k = strlen(buf);
    snprintf(buf + k, size - k,
             " At %d of these batches a 95%% interval is uninformative (over 2\xc3\x97 wide), "
             "so the medians alone say whether %s is faster there (%s).",
             x->nuninformative, other, view_words(x->view));
}

void netfit_summary(const results *r, wl_mode m, char *buf, size_t size)
{
    netfit_set s;
    err e;
    int i, v;
    buf[0] = '\0';
    /* never silent: a reader must not take a missing answer for none */
    if (netfit_run(r, r->prov.seed, 0, &s, &e) < 0) {
        snprintf(buf, size, "The networks' answers could not be computed: %s.", e.msg);
        return;
    }
    for (i = 0; i < s.n; i++) {
        const netfit_cross *c = &s.c[i];
        char line[1024];
        size_t k = strlen(buf);
        /* the view shown: the first of weights-on-host, transfer, resident
         * that this network and device measured */
        for (v = FIT_WHOST; v > (int)c->view; v--)
            if (netfit_find(&s, c->net, m, (fit_view)v, c->other))
                break;
        if (c->mode != m || v != (int)c->view)
            continue;
        netfit_sentence(r, c, line, sizeof line);
        snprintf(buf + k, size - k, "%s%s", k ? " " : "", line);
    }
    netfit_free(&s);
}

int netfit_networks(const results *r, const char **names, int max)
{
    int i, j, n = 0;
    for (i = 0; i < r->npoints && n < max; i++) {
        const char *name = r->points[i].net;
        if (!name[0])
            continue;
        for (j = 0; j < n && strcmp(names[j], name) != 0; j++)
            ;
        if (j == n)
            names[n++] = name;
    }
    return n;
}

const rs_point *netfit_first_point(const results *r, const char *name, wl_mode mode)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == mode && strcmp(r->points[i].net, name) == 0)
            return &r->points[i];
    return NULL;
}

/* Whether dev measured view v on any point of the network like. */
static int has_view(const results *r, const char *dev, const rs_point *like, fit_view v)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if ((v == FIT_RESIDENT || (v == FIT_TRANSFER ? p->has_transfer : p->has_whost)) &&
            strcmp(p->device, dev) == 0 && strcmp(p->net, like->net) == 0)
            return 1;
    }
    return 0;
}

int netfit_run(const results *r, uint64_t seed, int boot, netfit_set *out, err *e)
{
    const char *names[RESULTS_MAX_DEVICES * 4];
    int nn = netfit_networks(r, names, (int)(sizeof names / sizeof *names)), k, m, d, v, rc,
        cap = 0;
    memset(out, 0, sizeof *out);
    if (nn == 0 || r->ndevices == 0)
        return BE_OK;
    cap = nn * 2 * r->ndevices * 3;
    if (!(out->c = calloc((size_t)cap, sizeof *out->c)))
        return err_set(e, BE_EFAIL, "out of memory for the networks' crossovers");
    for (k = 0; k < nn; k++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
            const rs_point *like = netfit_first_point(r, names[k], (wl_mode)m);
            if (!like)
                continue;
            for (d = 0; d < r->ndevices; d++) {
                /* against the device's own base, as fit.c's crossovers:
                 * PyTorch's GPU against PyTorch's CPU (q_base_for) */
                const char *other = r->devices[d].id, *base = q_base_id_for(r, other);
                if (strcmp(other, base) == 0)
                    continue;
                for (v = FIT_RESIDENT; v <= FIT_WHOST; v++) {
                    uint64_t s = seed ^ (UINT64_C(0x9E3779B97F4A7C15) *
                                         (uint64_t)(1 + k + 64 * (m + 2 * (d + 64 * v))));
                    if (!has_view(r, other, like, (fit_view)v))
                        continue;
                    if ((rc = one(r, like, base, other, (fit_view)v, s, boot, &out->c[out->n], e)) <
                        0) {
                        netfit_free(out);
                        return rc;
                    }
                    out->n++;
                }
            }
        }
    return BE_OK;
}

void netfit_free(netfit_set *s)
{
    free(s->c);
    memset(s, 0, sizeof *s);
}

const netfit_cross *netfit_find(const netfit_set *s, const char *net, wl_mode mode, fit_view view,
                                const char *other)
{
    int i;
    for (i = 0; i < s->n; i++) {
        const netfit_cross *c = &s->c[i];
        if (c->mode == mode && c->view == view &&
            (strcmp(c->net, net) == 0 || strcmp(c->sizes, net) == 0) &&
            (!other || strcmp(c->other, other) == 0))
            return c;
    }
    return NULL;
}

/* The median of v[0..n) (sorted in place); 0 when n is 0. */
static double median_of(double *v, int n)
{
    int i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The other device's cost of a byte copied: its median upload of the
 * input plus read-back of the output over their bytes; 0 when unknown. */
static double per_byte(const rs_point *po, const net_spec *n)
{
    /* on the stack (80 KB at most, results_load's bound on samples): a
     * failed allocation would drop the breakdown from the pages unseen,
     * as if the point lacked its copies */
    double v[RESULTS_MAX_SAMPLES], up, down, bytes;
    int i;
    if (!po->has_transfer || po->nsamples == 0 || po->nsamples > RESULTS_MAX_SAMPLES)
        return 0.0;
    for (i = 0; i < po->nsamples; i++)
        v[i] = po->samples[i].h2d;
    up = median_of(v, po->nsamples);
    for (i = 0; i < po->nsamples; i++)
        v[i] = po->samples[i].d2h;
    down = median_of(v, po->nsamples);
    bytes = 4.0 * po->batch * ((double)n->dims[0] + n->dims[n->layers]);
    return bytes > 0.0 ? (up + down) / bytes : 0.0;
}

int netfit_breakdown(const rs_point *pb, const rs_point *po, netfit_layers *out)
{
    const rs_point *p[2] = {pb, po};
    const double *t[2];
    net_spec n;
    double c;
    int d, l;
    err e;
    memset(out, 0, sizeof *out);
    if (!q_ok(pb) || !q_ok(po) || pb->nlayer != pb->layers || po->nlayer != po->layers ||
        pb->layers != po->layers || net_parse_sizes(pb->sizes, "sizes", &n, &e) < 0 ||
        n.layers != pb->layers)
        return 0;
    out->layers = n.layers;
    for (d = 0; d < 2; d++) {
        double sum = 0.0;
        for (l = 0; l < n.layers; l++)
            sum += p[d]->layer_s[l];
        if (!(sum > 0.0))
            return 0;
        for (l = 0; l < n.layers; l++)
            out->t[d][l] = p[d]->layer_s[l] * q_median(p[d], FIT_RESIDENT) / sum;
    }
    if (!((c = per_byte(po, &n)) > 0.0))
        return 0;
    for (l = 0; l <= n.layers; l++)
        out->move[l] = c * 4.0 * po->batch * n.dims[l];
    t[0] = out->t[0];
    t[1] = out->t[1];
    out->best = netfit_place(n.layers, t, out->move, out->on);
    out->all_base = q_median(pb, FIT_RESIDENT);
    out->all_other = out->move[0] + q_median(po, FIT_RESIDENT) + out->move[n.layers];
    return 1;
}

double netfit_place(int L, const double *const t[2], const double *move, int *on)
{
    /* best[l][d]: the least time to run layers 0..l-1 with the activations
     * entering layer l on device d; from[l][d] the device of layer l-1 */
    double best[WL_MAX_LAYERS + 1][2];
    int from[WL_MAX_LAYERS + 1][2], l, d, p, end;
    if (L < 1 || L > WL_MAX_LAYERS)
        return -1.0;
    best[0][0] = 0.0;
    best[0][1] = move[0];
    from[0][0] = from[0][1] = 0;
    for (l = 0; l < L; l++)
        for (d = 0; d < 2; d++) {
            /* layer l runs on d; its input came to d from p's side */
            best[l + 1][d] = -1.0;
            for (p = 0; p < 2; p++) {
                double c = best[l][p] + (p != d ? move[l] : 0.0) + t[d][l];
                if (l == 0)
                    c = best[0][d] + t[d][l];
                if (best[l + 1][d] < 0.0 || c < best[l + 1][d]) {
                    best[l + 1][d] = c;
                    from[l + 1][d] = l == 0 ? d : p;
                }
            }
        }
    /* the output goes back to device 0 */
    end = best[L][1] + move[L] < best[L][0] ? 1 : 0;
    for (l = L, d = end; l > 0; l--) {
        on[l - 1] = d;
        d = from[l][d];
    }
    return end ? best[L][1] + move[L] : best[L][0];
}

/* The point of net in mode m at batch on dev, or NULL. */
static const rs_point *net_point(const results *r, const char *dev, const char *net, wl_mode m,
                                 int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == m && p->batch == batch && strcmp(p->device, dev) == 0 &&
            strcmp(p->net, net) == 0)
            return p;
    }
    return NULL;
}

void netfit_each_breakdown(const results *r, netfit_breakdown_fn *fn, void *ctx)
{
    const char *base = q_base_id(r);
    int i, j;
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
            fn(ctx, pb, po, &b);
        }
    }
}

int netfit_layers_at(const results *r, const char *net, wl_mode m, const char *other, int batch,
                     netfit_layers *out)
{
    const char *base = q_base_id(r);
    const rs_point *pb = net_point(r, base, net, m, batch), *po;
    memset(out, 0, sizeof *out);
    if (!pb || !other || !(po = net_point(r, other, net, m, batch)) ||
        strcmp(pb->sizes, po->sizes) != 0)
        return 0;
    return netfit_breakdown(pb, po, out);
}

int netfit_layer_batches(const results *r, const char *net, wl_mode m, const char *other, int *b,
                         int max)
{
    const char *base = q_base_id(r);
    int i, j, n = 0;
    netfit_layers l;
    for (i = 0; i < r->npoints && n < max; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != m || strcmp(p->device, base) != 0 || strcmp(p->net, net) != 0 ||
            !netfit_layers_at(r, net, m, other, p->batch, &l))
            continue;
        for (j = 0; j < n && b[j] != p->batch; j++)
            ;
        if (j < n)
            continue;
        /* insertion, ascending */
        for (j = n; j > 0 && b[j - 1] > p->batch; j--)
            b[j] = b[j - 1];
        b[j] = p->batch;
        n++;
    }
    return n;
}

int netfit_layer_picks(const int *b, int n, int pick[3])
{
    if (n <= 0)
        return 0;
    if (n <= 3) {
        memcpy(pick, b, (size_t)n * sizeof *b);
        return n;
    }
    pick[0] = b[0];
    pick[1] = b[n / 2];
    pick[2] = b[n - 1];
    return 3;
}

const char *netfit_other(const results *r, const char *net, wl_mode m)
{
    const char *base = q_base_id(r);
    int d, i;
    for (d = 0; d < r->ndevices; d++) {
        if (strcmp(r->devices[d].id, base) == 0)
            continue;
        for (i = 0; i < r->npoints; i++)
            if (r->points[i].mode == m && strcmp(r->points[i].net, net) == 0 &&
                strcmp(r->points[i].device, r->devices[d].id) == 0)
                return r->devices[d].id;
    }
    return NULL;
}
