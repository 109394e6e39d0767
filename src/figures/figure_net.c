/*
 * figure_net.c — the charts of one network (figure_net.h): step time
 * against batch per device and view, and the layers' times at a few
 * batches.  They share figure.c's conventions (title, legend, layout,
 * empty charts, device labels) through figure_impl.h; the footer is their
 * own, naming the network where the square stack's names its depth.
 */
#define _POSIX_C_SOURCE 200809L
#include "figure_net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figure_impl.h"
#include "fmt.h"
#include "query.h"
#include "workload.h"

#define NET_MAX_BATCHES 256
#define NET_MAX_SERIES 24
#define NET_MAX_ROWS 200

/* What the network charts draw: figure_render's context first, so that a
 * pointer to it is a pointer to this. */
typedef struct net_ctx {
    fig_ctx f;
    const netfit_set *s;
    const char *net;
    char sizes[NET_SIZES_MAX];
} net_ctx;

static const char *view_words(fit_view v)
{
    return v == FIT_WHOST      ? "weights on the host"
           : v == FIT_TRANSFER ? "with transfers"
                               : "resident";
}

/* The network's sizes from its first point of mode, "" when none. */
static void net_sizes(const results *r, const char *net, wl_mode m, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m && strcmp(r->points[i].net, net) == 0) {
            snprintf(buf, size, "%s", r->points[i].sizes);
            return;
        }
}

/* "mnist-mlp (784-512-256-10)", or the sizes alone for an unnamed one. */
static void net_label(const net_ctx *x, char *buf, size_t size)
{
    if (strcmp(x->net, x->sizes) == 0)
        snprintf(buf, size, "%s", x->net);
    else
        snprintf(buf, size, "%s (%s)", x->net, x->sizes);
}

/* The grey line at the bottom: the run and the network. */
static void net_footer(cairo_t *cr, const net_ctx *x, double W, double H)
{
    char label[512], what[600];
    net_label(x, label, sizeof label);
    snprintf(what, sizeof what, "network %s", label);
    figure_footer_of(cr, x->f.r, what, W, H);
}

/* ---- step time against batch ------------------------------------------ */

/* One line of the chart: a device in a view. */
typedef struct net_series {
    int device; /* index in r->devices */
    fit_view view;
    int shape;
    chart_rgb color;
} net_series;

static const stats_summary *view_summary(const rs_point *p, fit_view v)
{
    return v == FIT_WHOST ? &p->whost : v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

/* The series of the chart: the base resident, then each other device's
 * views that any of its points of the network measured. */
static int time_series(const net_ctx *x, net_series *out, int max)
{
    const results *r = x->f.r;
    int bd = q_base(r), d, v, i, n = 0, shape = 0;
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        int used = 0, dd = d == 0 ? bd : (d <= bd ? d - 1 : d);
        /* the base first: its line is what every other is set against */
        for (v = FIT_RESIDENT; v <= FIT_WHOST; v++) {
            int has = 0;
            if (dd == bd && v != FIT_RESIDENT)
                break;
            for (i = 0; i < r->npoints && !has; i++) {
                const rs_point *p = &r->points[i];
                has = p->mode == x->f.mode && strcmp(p->net, x->net) == 0 &&
                      strcmp(p->device, r->devices[dd].id) == 0 && q_ok_view(p, (fit_view)v);
            }
            if (!has || n >= max)
                continue;
            out[n].device = dd;
            out[n].view = (fit_view)v;
            out[n].shape = shape % CHART_NSHAPES;
            out[n].color = chart_series(n);
            n++;
            used = 1;
        }
        shape += used;
    }
    return n;
}

/* The crossover's 95% interval as batches, within the batches measured
 * (an open end stops at the smallest or largest of them: nothing is drawn
 * where nothing was measured; the legend says it is open). */
static void cross_span(const netfit_cross *c, double *lo, double *hi)
{
    *lo = fmax(c->x.lo_open ? c->bmin : c->x.lo, c->bmin);
    *hi = fmin(c->x.hi_open ? c->bmax : c->x.hi, c->bmax);
}

/* Series sr's measured medians joined by a line (a failed point a gap),
 * each with its 95% interval as a bar. */
static void time_curve(cairo_t *cr, const chart_frame *f, const net_ctx *x, const net_series *sr)
{
    const results *r = x->f.r;
    double xs[NET_MAX_BATCHES], ys[NET_MAX_BATCHES];
    int i, n;
    const char *dev = r->devices[sr->device].id;
    int b[NET_MAX_BATCHES];
    /* the measured batches of this series, ascending */
    for (i = 0, n = 0; i < r->npoints && n < NET_MAX_BATCHES; i++) {
        const rs_point *p = &r->points[i];
        int j;
        if (p->mode != x->f.mode || strcmp(p->net, x->net) != 0 || strcmp(p->device, dev) != 0)
            continue;
        for (j = n; j > 0 && b[j - 1] > p->batch; j--) {
            b[j] = b[j - 1];
            xs[j] = xs[j - 1];
            ys[j] = ys[j - 1];
        }
        b[j] = p->batch;
        xs[j] = p->batch;
        /* a failed point is a gap in the line, never a zero */
        ys[j] = q_ok_view(p, sr->view) ? q_median(p, sr->view) : NAN;
        n++;
    }
    chart_polyline(cr, f, xs, ys, n, sr->color, 1.6, (chart_dash)sr->view);
    for (i = 0; i < n; i++) {
        const rs_point *p = NULL;
        const stats_summary *s;
        int j;
        if (isnan(ys[i]))
            continue;
        for (j = 0; j < r->npoints && !p; j++)
            if (r->points[j].mode == x->f.mode && r->points[j].batch == b[i] &&
                strcmp(r->points[j].net, x->net) == 0 && strcmp(r->points[j].device, dev) == 0)
                p = &r->points[j];
        s = view_summary(p, sr->view);
        if (s->ci_lo > 0 && s->ci_hi > s->ci_lo) {
            double px = chart_px(f, xs[i]);
            cairo_set_source_rgb(cr, sr->color.r, sr->color.g, sr->color.b);
            cairo_set_line_width(cr, 1.3);
            cairo_set_dash(cr, NULL, 0, 0);
            cairo_move_to(cr, px, chart_py(f, s->ci_lo));
            cairo_line_to(cr, px, chart_py(f, s->ci_hi));
            cairo_move_to(cr, px - 3.5, chart_py(f, s->ci_lo));
            cairo_line_to(cr, px + 3.5, chart_py(f, s->ci_lo));
            cairo_move_to(cr, px - 3.5, chart_py(f, s->ci_hi));
            cairo_line_to(cr, px + 3.5, chart_py(f, s->ci_hi));
            cairo_stroke(cr);
        }
        chart_marker(cr, (chart_shape)sr->shape, chart_px(f, xs[i]), chart_py(f, ys[i]), 4.4,
                     sr->color, sr->view != FIT_RESIDENT);
    }
}

static int draw_time(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    net_ctx *x = vctx;
    const results *r = x->f.r;
    net_series sr[NET_MAX_SERIES];
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    fig_legend lg;
    char title[640], sub[1024], buf[640], label[512];
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, need;
    fig_loglog ax;
    int ns, k, i, nkeys = 0, ncross = 0;

    (void)e;
    net_label(x, label, sizeof label);
    snprintf(title, sizeof title, "Step time against batch: %s (%s)", label,
             workload_mode_name(x->f.mode));
    ns = time_series(x, sr, NET_MAX_SERIES);
    for (k = 0; k < ns; k++)
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            const stats_summary *s = view_summary(p, sr[k].view);
            if (p->mode != x->f.mode || strcmp(p->net, x->net) != 0 ||
                strcmp(p->device, r->devices[sr[k].device].id) != 0 || !q_ok_view(p, sr[k].view))
                continue;
            xlo = fmin(xlo, p->batch);
            xhi = fmax(xhi, p->batch);
            ylo = fmin(ylo, s->ci_lo > 0 ? s->ci_lo : s->median);
            yhi = fmax(yhi, fmax(s->ci_hi, s->median));
        }
    if (ns == 0 || !(xhi > 0) || !(ylo > 0)) {
        snprintf(buf, sizeof buf, "No %s point of this network was measured successfully.",
                 workload_mode_name(x->f.mode));
        figure_empty(cr, &x->f, W, H, title, buf);
        return BE_OK;
    }
    snprintf(sub, sizeof sub,
             "Median time of one step of the whole network; bars: 95%% interval of each median "
             "(over the passes); %s resident (a CPU computes where its data are); lines join "
             "measured batches only",
             q_base_id(r));
    figure_key(keys, &nkeys, CHART_KEY_HEADER, "Device and view", figure_neutral, -1, 0,
               CHART_SOLID);
    for (k = 0; k < ns; k++) {
        figure_device_label(r, sr[k].device, buf, sizeof buf);
        fmt_append(buf, sizeof buf, ", %s", view_words(sr[k].view));
        figure_key(keys, &nkeys, CHART_KEY_LINE, buf, sr[k].color, sr[k].shape, 0,
                   (chart_dash)sr[k].view);
    }
    for (k = 0; x->s && k < ns; k++) {
        const netfit_cross *c =
            netfit_find(x->s, x->net, x->f.mode, sr[k].view, r->devices[sr[k].device].id);
        if (sr[k].device == q_base(r) || !c || c->x.kind != CROSS_IN_RANGE ||
            strcmp(c->sizes, x->sizes) != 0)
            continue;
        if (ncross++ == 0)
            figure_key(keys, &nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)", figure_neutral,
                       -1, 0, CHART_SOLID);
        snprintf(buf, sizeof buf, "%s, %s: faster from batch %.1f (95%% CI %s%.1f to %.1f%s)",
                 c->other, view_words(sr[k].view), c->x.batch, c->x.lo_open ? "below " : "",
                 c->x.lo, c->x.hi, c->x.hi_open ? " or beyond" : "");
        figure_key(keys, &nkeys, CHART_KEY_BAND, buf, sr[k].color, -1, 0, (chart_dash)sr[k].view);
    }

    ax = (fig_loglog){"Batch size (samples per step)", "Step time (s)", 0, 1, xlo, xhi, ylo, yhi};
    need = figure_loglog(cr, W, H, title, sub, &ax, keys, nkeys, &f, &lg);
    if (H <= 0) {
        x->f.need_h = need;
        return BE_OK;
    }
    chart_clip(cr, &f);
    for (k = 0; x->s && k < ns; k++) {
        const netfit_cross *c =
            netfit_find(x->s, x->net, x->f.mode, sr[k].view, r->devices[sr[k].device].id);
        double lo, hi;
        if (sr[k].device == q_base(r) || !c || c->x.kind != CROSS_IN_RANGE ||
            strcmp(c->sizes, x->sizes) != 0)
            continue;
        cross_span(c, &lo, &hi);
        chart_vband(cr, &f, lo, hi, sr[k].color, 0.12);
        chart_vline(cr, &f, c->x.batch, sr[k].color, 1.4, (chart_dash)sr[k].view);
    }
    for (k = 0; k < ns; k++)
        time_curve(cr, &f, x, &sr[k]);
    cairo_restore(cr);
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    net_footer(cr, x, W, H);
    return BE_OK;
}

int figure_net_time(const results *r, const netfit_set *s, const char *net, wl_mode mode,
                    const char *root, const char *base, err *e)
{
    net_ctx x;
    memset(&x, 0, sizeof x);
    x.f.r = r;
    x.f.mode = mode;
    x.s = s;
    x.net = net;
    net_sizes(r, net, mode, x.sizes, sizeof x.sizes);
    return figure_render(&x.f, root, base, draw_time, 0, e);
}

/* ---- layers ------------------------------------------------------------ */

typedef struct layer_row {
    int group;   /* 1: a heading (a batch), no bar */
    int device;  /* 0: the base, 1: the other     */
    int best;    /* the best placement puts the layer here */
    double per;  /* seconds per sample            */
    double step; /* seconds per step              */
    char label[160];
} layer_row;

typedef struct layer_set {
    int n;
    layer_row rows[NET_MAX_ROWS];
    char sub[1024];
    char empty[512];
} layer_set;

static layer_row *layer_add(layer_set *s)
{
    return figure_add(s->rows, &s->n, NET_MAX_ROWS, sizeof s->rows[0]);
}

static void layers_make(const net_ctx *x, const char *other, layer_set *s)
{
    const results *r = x->f.r;
    int b[NET_MAX_BATCHES], pick[3], nb, np, k, l, d;
    net_spec spec;
    err e;
    memset(s, 0, sizeof *s);
    if (!other) {
        snprintf(s->empty, sizeof s->empty,
                 "Only %s measured this network: there is nothing to set its layers against.",
                 q_base_id(r));
        return;
    }
    nb = netfit_layer_batches(r, x->net, x->f.mode, other, b, NET_MAX_BATCHES);
    np = netfit_layer_picks(b, nb, pick);
    if (np == 0 || net_parse_sizes(x->sizes, "sizes", &spec, &e) < 0) {
        snprintf(s->empty, sizeof s->empty,
                 "No batch where both %s and %s timed this network's layers.", q_base_id(r), other);
        return;
    }
    for (k = 0; k < np; k++) {
        netfit_layers nl;
        layer_row *w;
        if (!netfit_layers_at(r, x->net, x->f.mode, other, pick[k], &nl) || !(w = layer_add(s)))
            continue;
        w->group = 1;
        snprintf(w->label, sizeof w->label, "batch %d", pick[k]);
        for (l = 0; l < nl.layers; l++)
            for (d = 0; d < 2; d++) {
                if (!(w = layer_add(s)))
                    break;
                w->device = d;
                w->best = nl.on[l] == d;
                w->step = nl.t[d][l];
                w->per = nl.t[d][l] / pick[k];
                snprintf(w->label, sizeof w->label, "layer %d (%d\xc3\x97%d) %s", l + 1,
                         spec.dims[l], spec.dims[l + 1], d ? other : q_base_id(r));
            }
    }
    snprintf(s->sub, sizeof s->sub,
             "Each layer's time per sample (forward%s), resident: means over the timed steps, "
             "scaled to add up to the median step, without an interval; \xe2\x97\x80 the best "
             "placement's device",
             x->f.mode == WL_TRAINING ? " and backward" : "");
}

static int draw_layers(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    net_ctx *x = vctx;
    const results *r = x->f.r;
    const char *other = netfit_other(r, x->net, x->f.mode);
    layer_set *s = malloc(sizeof *s);
    chart_frame f;
    char title[640], buf[512], label[512], t1[32], t2[32];
    double labw = 0, hmax = 0, top, y, m = chart_margin(W);
    double labmax = FIG_NARROW(W) ? W - 2 * m : 300;
    int i, narrow = FIG_NARROW(W);

    if (!s)
        return err_set(e, BE_EFAIL, "out of memory laying out a layer chart");
    layers_make(x, other, s);
    net_label(x, label, sizeof label);
    snprintf(title, sizeof title, "Time per layer: %s (%s)", label, workload_mode_name(x->f.mode));
    if (s->empty[0]) {
        figure_empty(cr, &x->f, W, H, title, s->empty);
        free(s);
        return BE_OK;
    }
    top = chart_title(cr, W, title, s->sub);
    for (i = 0; i < s->n; i++) {
        if (!s->rows[i].group && !narrow) {
            chart_font(cr, 11.5, 0);
            chart_fit_text(cr, s->rows[i].label, labmax, buf, sizeof buf);
            labw = fmax(labw, chart_text_width(cr, buf));
        }
        if (!s->rows[i].group)
            hmax = fmax(hmax, s->rows[i].per);
    }
    memset(&f, 0, sizeof f);
    f.xa.scale = CHART_LINEAR;
    f.xa.si = 1;
    f.xa.label = "Seconds per sample (layer time / batch)";
    chart_axis_fit(&f.xa, 0, hmax * 1.12);
    figure_bar_frame(&f, W, labw, top);
    for (i = 0, y = f.y + 6; i < s->n; i++)
        y += s->rows[i].group ? 28 : narrow ? 40 : 24;
    f.h = y + 6 - f.y;
    if (H <= 0) {
        x->f.need_h = f.y + f.h + 50 + FIG_FOOTER_H(W);
        free(s);
        return BE_OK;
    }
    chart_axes(cr, &f);
    for (i = 0, y = f.y + 6; i < s->n; i++) {
        const layer_row *w = &s->rows[i];
        chart_rgb c = chart_series(w->device);
        double rh = w->group ? 28 : narrow ? 40 : 24, cy, bh, x1, tw;
        if (w->group) {
            chart_font(cr, 12, 1);
            chart_text(cr, f.x + 6, y + rh / 2 + 2, CHART_LEFT, CHART_MIDDLE, figure_ink, w->label);
            y += rh;
            continue;
        }
        chart_font(cr, 11.5, 0);
        chart_fit_text(cr, w->label, labmax - (narrow ? 12 : 0), buf, sizeof buf);
        if (narrow) {
            chart_text(cr, f.x + 6, y + 13, CHART_LEFT, CHART_BASELINE, figure_ink, buf);
            cy = y + 28;
            bh = 14;
        } else {
            cy = y + rh / 2;
            bh = rh * 0.66;
            chart_text(cr, f.x - 8, cy, CHART_RIGHT, CHART_MIDDLE, figure_ink, buf);
        }
        x1 = chart_px(&f, w->per);
        cairo_rectangle(cr, f.x, cy - bh / 2, x1 - f.x, bh);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_fill(cr);
        fmt_si(t1, sizeof t1, w->per, 3, "s");
        fmt_time(t2, sizeof t2, w->step);
        snprintf(buf, sizeof buf, "%s (%s a step)%s", t1, t2, w->best ? " \xe2\x97\x80" : "");
        chart_font(cr, 11, w->best);
        tw = chart_text_width(cr, buf);
        if (x1 + 5 + tw <= f.x + f.w - 2 || x1 - 5 - tw < f.x + 2)
            chart_text(cr, x1 + 5, cy, CHART_LEFT, CHART_MIDDLE, figure_ink, buf);
        else
            chart_text(cr, x1 - 5, cy, CHART_RIGHT, CHART_MIDDLE, (chart_rgb){1, 1, 1}, buf);
        y += rh;
    }
    net_footer(cr, x, W, H);
    free(s);
    return BE_OK;
}

int figure_net_layers(const results *r, const char *net, wl_mode mode, const char *root,
                      const char *base, err *e)
{
    net_ctx x;
    memset(&x, 0, sizeof x);
    x.f.r = r;
    x.f.mode = mode;
    x.net = net;
    net_sizes(r, net, mode, x.sizes, sizeof x.sizes);
    return figure_render(&x.f, root, base, draw_layers, 1, e);
}

void figure_net_name(const char *net, const char *kind, wl_mode mode, char *buf, size_t size)
{
    snprintf(buf, size, "net-%s-%s-%s", net, kind, workload_mode_name(mode));
}

int figure_net_all(const results *r, const char *root, const char *dir, int *count, err *e)
{
    const char *names[NET_MAX_NETS * 4];
    char name[NET_NAME_MAX + 64], base[4096];
    const char *other;
    netfit_set s;
    int n = netfit_networks(r, names, NET_MAX_NETS * 4), i, m, rc = BE_OK, b[1];
    *count = 0;
    if (n == 0)
        return BE_OK;
    if ((rc = netfit_run(r, r->prov.seed, 0, &s, e)) < 0)
        return rc;
    for (i = 0; i < n && rc == BE_OK; i++)
        for (m = WL_INFERENCE; m <= WL_TRAINING && rc == BE_OK; m++) {
            char sizes[NET_SIZES_MAX];
            net_sizes(r, names[i], (wl_mode)m, sizes, sizeof sizes);
            if (!sizes[0])
                continue;
            figure_net_name(names[i], "time", (wl_mode)m, name, sizeof name);
            snprintf(base, sizeof base, "%s/%s", dir, name);
            if ((rc = figure_net_time(r, &s, names[i], (wl_mode)m, root, base, e)) < 0)
                break;
            *count += 1;
            /* the layer chart only where two devices timed the layers: the
             * page says why there is none */
            other = netfit_other(r, names[i], (wl_mode)m);
            if (!other || netfit_layer_batches(r, names[i], (wl_mode)m, other, b, 1) == 0)
                continue;
            figure_net_name(names[i], "layers", (wl_mode)m, name, sizeof name);
            snprintf(base, sizeof base, "%s/%s", dir, name);
            if ((rc = figure_net_layers(r, names[i], (wl_mode)m, root, base, e)) < 0)
                break;
            *count += 1;
        }
    netfit_free(&s);
    return rc;
}

int figure_net_present(const results *r, const char *dir)
{
    const char *names[NET_MAX_NETS * 4];
    char name[NET_NAME_MAX + 64], path[4096], sizes[NET_SIZES_MAX];
    int n = netfit_networks(r, names, NET_MAX_NETS * 4), i, m;
    for (i = 0; i < n; i++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
            net_sizes(r, names[i], (wl_mode)m, sizes, sizeof sizes);
            if (!sizes[0])
                continue;
            figure_net_name(names[i], "time", (wl_mode)m, name, sizeof name);
            snprintf(path, sizeof path, "%s/%s" FIGURE_NARROW_SUFFIX ".png", dir, name);
            if (access(path, F_OK) != 0)
                return 0;
        }
    return 1;
}
