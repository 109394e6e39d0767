/*
 * figure_curves.c — the charts along the work per layer (figure.h, charts 1
 * and 2): the throughput curves the models were fitted from, and the speed
 * ratio with its crossing of 1.  Both log–log, both marking the crossovers
 * of the fit with their CIs.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_impl.h"
#include "fmt.h"
#include "query.h"
#include "workload.h"

#define CURVE_N 96         /* samples along a fitted curve */
#define FIG_MAX_LABELS 256 /* direct labels on one chart */

/* ---- 1. throughput ----------------------------------------------------- */

/* The range of the measured throughputs, FLOPs per layer (x) and FLOP/s
 * (y); *xhi stays 0 when no point of the mode is ok. */
static void throughput_range(const fig_ctx *x, double *xlo, double *xhi, double *ylo, double *yhi)
{
    const results *r = x->r;
    int i;
    *xlo = *ylo = INFINITY;
    *xhi = *yhi = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        double v;
        /* a network's points are no shapes of the square stack */
        if (p->mode != x->mode || p->net[0] || !q_ok(p) || q_beyond_peak(r, p))
            continue;
        v = results_gflops(p, p->resident.median) * 1e9;
        *xlo = fmin(*xlo, p->flops_per_layer);
        *xhi = fmax(*xhi, p->flops_per_layer);
        *ylo = fmin(*ylo, v);
        *yhi = fmax(*yhi, v);
    }
}

/* The legend: devices (shapes), hidden widths (colours), the fits and the
 * crossovers, whose CIs widen the x range. */
static void throughput_keys(const fig_ctx *x, const int *use, const q_grid *g, chart_key *keys,
                            int *nkeys, double *xlo, double *xhi)
{
    const results *r = x->r;
    char buf[512];
    int d, hi, i, shape;

    figure_key(keys, nkeys, CHART_KEY_HEADER, "Device", figure_neutral, -1, 0, CHART_SOLID);
    for (d = 0, shape = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (use[d]) {
            figure_device_label(r, d, buf, sizeof buf);
            figure_key(keys, nkeys, CHART_KEY_MARKER, buf, figure_neutral, shape++ % CHART_NSHAPES,
                       0, CHART_SOLID);
        }
    figure_key(keys, nkeys, CHART_KEY_HEADER, "Hidden width", figure_neutral, -1, 0, CHART_SOLID);
    for (hi = 0; hi < g->nh; hi++) {
        snprintf(buf, sizeof buf, "%d", g->h[hi]);
        /* told apart by dash as well as colour */
        figure_key(keys, nkeys, CHART_KEY_LINE, buf, chart_series(hi), -1, 0, (chart_dash)(hi % 4));
    }
    for (d = 0, shape = 0, i = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        const fit_model *m;
        if (!use[d])
            continue;
        m = figure_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
        if (m) {
            if (i++ == 0)
                figure_key(keys, nkeys, CHART_KEY_HEADER, "Fit f / (t0 + f/P)", figure_neutral, -1,
                           0, CHART_SOLID);
            /* its parameters are not quoted: P is a throughput at an
             * infinite size, beyond anything measured (and any peak) */
            figure_device_label(r, d, buf, sizeof buf);
            fmt_append(buf, sizeof buf, ", over the sizes measured");
            figure_key(keys, nkeys, CHART_KEY_LINE, buf, figure_ink, -1, 0,
                       (chart_dash)(shape % 4));
        }
        shape++;
    }
    for (d = 0, i = 0; d < r->ndevices && d < FIG_MAX_DEVICES && x->fs; d++) {
        const fit_crossover *c = q_cross(x->fs, q_base_id_for(r, r->devices[d].id),
                                         r->devices[d].id, x->mode, FIT_RESIDENT, 0);
        if (!use[d] || !figure_cross_has_point(c))
            continue;
        if (i++ == 0)
            figure_key(keys, nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)", figure_neutral,
                       -1, 0, CHART_SOLID);
        figure_cross_text(r, c, buf, sizeof buf);
        figure_key(keys, nkeys, CHART_KEY_BAND, buf, figure_ink, -1, 0, CHART_DOTTED);
        *xlo = fmin(*xlo, figure_cross_has_ci(c) ? c->ci_lo : c->flops);
        *xhi = fmax(*xhi, figure_cross_has_ci(c) ? c->ci_hi : c->flops);
    }
}

/* Device d's curves, drawn with marker `shape`: its fitted model over the
 * sizes measured, and a line joining the batch sizes at each hidden width. */
static void throughput_device(cairo_t *cr, const chart_frame *f, const fig_ctx *x, const q_grid *g,
                              int d, int shape)
{
    const results *r = x->r;
    const fit_model *m = figure_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
    double xs[Q_MAX_GRID], ys[Q_MAX_GRID];
    int hi, bi, i;

    if (m && m->fmax > m->fmin && m->fmin > 0) {
        double cx[CURVE_N], cy[CURVE_N];
        for (i = 0; i < CURVE_N; i++) {
            cx[i] = m->fmin * pow(m->fmax / m->fmin, i / (CURVE_N - 1.0));
            cy[i] = cx[i] / figure_model_time(m, cx[i]);
        }
        chart_polyline(cr, f, cx, cy, CURVE_N, figure_ink, 1.6, (chart_dash)(shape % 4));
    }
    for (hi = 0; hi < g->nh; hi++) {
        /* A shape the device did not measure at all is skipped rather
         * than a break in the line; one it failed at, or measured above
         * its peak (the page's warning names it), is a gap (NaN). */
        for (bi = 0, i = 0; bi < g->nb; bi++) {
            const rs_point *p = q_point(r, r->devices[d].id, x->mode, g->h[hi], g->b[bi]);
            int shown;
            if (!p)
                continue;
            shown = q_ok(p) && !q_beyond_peak(r, p);
            xs[i] = shown ? p->flops_per_layer : NAN;
            ys[i++] = shown ? results_gflops(p, p->resident.median) * 1e9 : NAN;
        }
        chart_polyline(cr, f, xs, ys, i, chart_series(hi), 1.6, (chart_dash)(hi % 4));
        for (bi = 0; bi < i; bi++)
            if (!isnan(xs[bi]))
                chart_marker(cr, (chart_shape)(shape % CHART_NSHAPES), chart_px(f, xs[bi]),
                             chart_py(f, ys[bi]), 4.6, chart_series(hi), 0);
    }
}

static int draw_throughput(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    fig_ctx *x = vctx;
    const results *r = x->r;
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    char title[256], sub[1024], note[256], buf[512];
    double xlo, xhi, ylo, yhi, need, label_end = -INFINITY;
    fig_loglog ax;
    fig_legend lg;
    int use[FIG_MAX_DEVICES] = {0}, nkeys = 0, d, shape;
    q_grid g;

    (void)e;
    q_grid_make(r, x->mode, &g);
    snprintf(title, sizeof title, "Throughput against work per layer (%s)",
             workload_mode_name(x->mode));
    throughput_range(x, &xlo, &xhi, &ylo, &yhi);
    if (!(xhi > 0)) {
        snprintf(buf, sizeof buf, "No %s point was measured successfully: nothing to plot.",
                 workload_mode_name(x->mode));
        figure_empty(cr, x, W, H, title, buf);
        return BE_OK;
    }
    /* the devices of the mode, and their models' range */
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        const fit_model *m = figure_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
        use[d] = q_has_mode(r, r->devices[d].id, x->mode);
        if (use[d] && m) {
            ylo = fmin(ylo, m->fmin / figure_model_time(m, m->fmin));
            yhi = fmax(yhi, m->fmax / figure_model_time(m, m->fmax));
        }
    }
    figure_status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub,
             "FLOP/s of the %d-layer stack, data resident on the device; "
             "marker = device, colour = hidden width, lines join batch sizes%s",
             figure_layers(r), note);
    throughput_keys(x, use, &g, keys, &nkeys, &xlo, &xhi);

    ax = (fig_loglog){"FLOPs per layer", "FLOP/s (whole stack)", 1, 1, xlo, xhi, ylo, yhi};
    need = figure_loglog(cr, W, H, title, sub, &ax, keys, nkeys, &f, &lg);
    if (H <= 0) {
        x->need_h = need;
        return BE_OK;
    }

    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES && x->fs; d++) {
        const fit_crossover *c = q_cross(x->fs, q_base_id_for(r, r->devices[d].id),
                                         r->devices[d].id, x->mode, FIT_RESIDENT, 0);
        if (use[d])
            figure_draw_cross(cr, &f, c, figure_ink, CHART_DOTTED, &label_end);
    }
    chart_clip(cr, &f);
    for (d = 0, shape = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (use[d])
            throughput_device(cr, &f, x, &g, d, shape++);
    cairo_restore(cr);
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    figure_footer(cr, r, W, H);
    return BE_OK;
}

int figure_throughput(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, err *e)
{
    return figure_render_fit(r, fs, mode, root, base, draw_throughput, e);
}

/* ---- 2. speed ratio ---------------------------------------------------- */

/* The base's model to set against other's view v, when it can be drawn. */
static const fit_model *base_model(const fit_set *fs, const char *bdev, wl_mode mode, fit_view v)
{
    const fit_model *m = q_base_model(fs, bdev, mode, v);
    return q_model_ok(m) ? m : NULL;
}

/* What the speed-ratio chart draws: the devices set against their base
 * (use[d]; bof[d], its base's id: q_base_for, the run's base bd or a
 * stack's own CPU), how many, and the extent of their measured ratios. */
typedef struct ratio_plan {
    const char *bid;
    const char *bof[FIG_MAX_DEVICES];
    int bd, nother, any_transfer, single;
    int use[FIG_MAX_DEVICES];
    double xlo, xhi, ylo, yhi;
    q_grid g;
} ratio_plan;

/* The devices with points of x's mode other than the base, and the
 * extent of every ratio measured in either view. */
static void ratio_plan_make(const fig_ctx *x, ratio_plan *rp)
{
    const results *r = x->r;
    int d, v, hi, bi;
    memset(rp, 0, sizeof *rp);
    rp->bd = q_base(r);
    rp->bid = r->devices[rp->bd].id;
    rp->single = q_single_base(r);
    rp->xlo = rp->ylo = INFINITY;
    q_grid_make(r, x->mode, &rp->g);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        rp->bof[d] = r->devices[q_base_for(r, d)].id;
        if (d == rp->bd || !q_has_mode(r, r->devices[d].id, x->mode))
            continue;
        rp->use[d] = 1;
        rp->nother++;
        for (v = 0; v < 2; v++)
            for (hi = 0; hi < rp->g.nh; hi++)
                for (bi = 0; bi < rp->g.nb; bi++) {
                    double q = figure_ratio_at(r, rp->bof[d], r->devices[d].id, x->mode,
                                               rp->g.h[hi], rp->g.b[bi], (fit_view)v);
                    const rs_point *p = q_point(r, rp->bof[d], x->mode, rp->g.h[hi], rp->g.b[bi]);
                    if (!(q > 0) || !p)
                        continue;
                    rp->any_transfer |= v == FIT_TRANSFER;
                    rp->xlo = fmin(rp->xlo, p->flops_per_layer);
                    rp->xhi = fmax(rp->xhi, p->flops_per_layer);
                    rp->ylo = fmin(rp->ylo, q);
                    rp->yhi = fmax(rp->yhi, q);
                }
    }
}

/* 1 when device b is the base of another device the chart draws. */
static int is_base_of_other(const ratio_plan *rp, const results *r, int b)
{
    int d;
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (rp->use[d] && d != b && d != rp->bd && strcmp(rp->bof[d], r->devices[b].id) == 0)
            return 1;
    return 0;
}

/* The chart's legend: the devices, the base, the views, the fitted
 * ratios and the crossovers (whose intervals widen rp's x extent). */
static void ratio_keys(const fig_ctx *x, ratio_plan *rp, chart_key *keys, int *nkeys)
{
    const results *r = x->r;
    char buf[512];
    int d, v, n;
    figure_key(keys, nkeys, CHART_KEY_HEADER, "Device", figure_neutral, -1, 0, CHART_SOLID);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (rp->use[d] && d != rp->bd) {
            figure_device_label(r, d, buf, sizeof buf);
            /* where stacks have bases of their own, each says its own */
            if (!rp->single)
                fmt_append(buf, sizeof buf, ", against %s", rp->bof[d]);
            figure_key(keys, nkeys, CHART_KEY_MARKER, buf, chart_series(d), 0, 0, CHART_SOLID);
        }
    figure_key(keys, nkeys, CHART_KEY_HEADER, rp->single ? "Base" : "Bases", figure_neutral, -1, 0,
               CHART_SOLID);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (d == rp->bd || (!rp->single && is_base_of_other(rp, r, d))) {
            figure_device_label(r, d, buf, sizeof buf);
            figure_key(keys, nkeys, CHART_KEY_LINE, buf, figure_ink, -1, 0, CHART_DOTTED);
        }
    figure_key(keys, nkeys, CHART_KEY_HEADER, "View", figure_neutral, -1, 0, CHART_SOLID);
    figure_key(keys, nkeys, CHART_KEY_MARKER, "resident (data on the device)", figure_neutral, 0, 0,
               CHART_SOLID);
    if (rp->any_transfer)
        figure_key(keys, nkeys, CHART_KEY_MARKER, "with transfer (upload + read-back)",
                   figure_neutral, 0, 1, CHART_SOLID);
    for (d = 0, n = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && rp->use[d] && d != rp->bd; v++) {
            if (!figure_model(x->fs, r->devices[d].id, x->mode, (fit_view)v) ||
                !base_model(x->fs, rp->bof[d], x->mode, (fit_view)v))
                continue;
            if (n++ == 0)
                figure_key(keys, nkeys, CHART_KEY_HEADER, "Fitted ratio (band: ~95%)",
                           figure_neutral, -1, 0, CHART_SOLID);
            figure_device_label(r, d, buf, sizeof buf);
            fmt_append(buf, sizeof buf, ", %s", v == FIT_TRANSFER ? "with transfer" : "resident");
            figure_key(keys, nkeys, CHART_KEY_BAND, buf, chart_series(d), -1, 0,
                       v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
        }
    for (d = 0, n = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && rp->use[d] && d != rp->bd; v++) {
            const fit_crossover *c =
                q_cross(x->fs, rp->bof[d], r->devices[d].id, x->mode, (fit_view)v, 0);
            if (!figure_cross_has_point(c))
                continue;
            if (n++ == 0)
                figure_key(keys, nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)",
                           figure_neutral, -1, 0, CHART_SOLID);
            figure_cross_text(r, c, buf, sizeof buf);
            if (v == FIT_TRANSFER)
                fmt_append(buf, sizeof buf, ", with transfer");
            figure_key(keys, nkeys, CHART_KEY_BAND, buf, chart_series(d), -1, 0, CHART_DOTTED);
            rp->xlo = fmin(rp->xlo, figure_cross_has_ci(c) ? c->ci_lo : c->flops);
            rp->xhi = fmax(rp->xhi, figure_cross_has_ci(c) ? c->ci_hi : c->flops);
        }
}

/* The ratio of other's model mo to the base's mb over the frame's part
 * of their ranges, with its ~95% band where both models have errors. */
static void ratio_curve(cairo_t *cr, const chart_frame *f, const fit_model *mo, const fit_model *mb,
                        chart_rgb col, chart_dash dash)
{
    double cx[CURVE_N], cy[CURVE_N], clo[CURVE_N], chi[CURVE_N];
    double f0 = fmax(f->xa.lo, fmin(mo->fmin, mb->fmin));
    double f1 = fmin(f->xa.hi, fmax(mo->fmax, mb->fmax));
    int band = mo->t0_err > 0 || mo->P_err > 0 || mb->t0_err > 0 || mb->P_err > 0, i;
    if (!(f1 > f0 && f0 > 0))
        return;
    for (i = 0; i < CURVE_N; i++) {
        double fv = f0 * pow(f1 / f0, i / (CURVE_N - 1.0));
        double tb = figure_model_time(mb, fv), to = figure_model_time(mo, fv);
        double sb = hypot(mb->t0_err, fv * mb->P_err / (mb->P * mb->P));
        double so = hypot(mo->t0_err, fv * mo->P_err / (mo->P * mo->P));
        double rel = hypot(sb / tb, so / to);
        cx[i] = fv;
        cy[i] = tb / to;
        clo[i] = cy[i] * exp(-1.96 * rel);
        chi[i] = cy[i] * exp(1.96 * rel);
        if (!isfinite(clo[i]) || !isfinite(chi[i]))
            band = 0;
    }
    if (band)
        chart_band(cr, f, cx, clo, chi, CURVE_N, col, 0.16);
    chart_polyline(cr, f, cx, cy, CURVE_N, col, 1.8, dash);
}

/* A placed label's box, in device units. */
typedef struct label_box {
    double x0, y0, x1, y1;
} label_box;

/* Every marker of the chart as a box, and every direct label placed so
 * far: what a new label must not overprint.  A chart with more markers
 * than the room here gets no direct labels at all (full: 1). */
#define RATIO_MAX_BOXES 4096
typedef struct label_room {
    int n, full;
    label_box box[RATIO_MAX_BOXES];
} label_room;

static void room_add(label_room *lr, double x0, double y0, double x1, double y1)
{
    if (lr->n >= RATIO_MAX_BOXES) {
        lr->full = 1;
        return;
    }
    lr->box[lr->n].x0 = x0;
    lr->box[lr->n].y0 = y0;
    lr->box[lr->n].x1 = x1;
    lr->box[lr->n].y1 = y1;
    lr->n++;
}

/* 1 when b lies inside the plot and clear of everything in lr. */
static int room_free(const label_room *lr, const chart_frame *f, const label_box *b)
{
    int j;
    if (lr->full || b->x0 < f->x || b->x1 > f->x + f->w || b->y0 < f->y || b->y1 > f->y + f->h)
        return 0;
    for (j = 0; j < lr->n; j++)
        if (b->x0 < lr->box[j].x1 && lr->box[j].x0 < b->x1 && b->y0 < lr->box[j].y1 &&
            lr->box[j].y0 < b->y1)
            return 0;
    return 1;
}

/* The measured ratios of device d in view v at hidden width hi of rp's
 * grid into xs, ys (NAN where one side has no usable point); returns
 * how many. */
static int ratio_series(const fig_ctx *x, const ratio_plan *rp, int d, int v, int hi, double *xs,
                        double *ys)
{
    const char *oid = x->r->devices[d].id;
    int bi, i = 0, h = rp->g.h[hi];
    for (bi = 0; bi < rp->g.nb; bi++) {
        const rs_point *p = q_point(x->r, rp->bof[d], x->mode, h, rp->g.b[bi]);
        double q;
        if (!p && !q_point(x->r, oid, x->mode, h, rp->g.b[bi]))
            continue;
        q = figure_ratio_at(x->r, rp->bof[d], oid, x->mode, h, rp->g.b[bi], (fit_view)v);
        xs[i] = isnan(q) ? NAN : p->flops_per_layer;
        ys[i++] = q;
    }
    return i;
}

/* The radius of a measured ratio's marker, and the clearance a label
 * keeps from it. */
#define RATIO_MARKER_R 4.2
#define RATIO_LABEL_GAP 2.0

/* "h128" beside the last point of a hidden width's line, so that widths
 * are told apart by more than position: to its right, else above or
 * below it on either side, wherever it overprints no marker and no label
 * already placed and stays inside the plot; left out where there is no
 * such place (the legend and the table still tell the widths apart). */
static void width_label(cairo_t *cr, const chart_frame *f, const double *xs, const double *ys,
                        int n, int hidden, chart_rgb col, label_room *lr)
{
    static const double dx[4] = {1, -1, 1, -1}, dy[4] = {0, -1, 1, 1};
    char buf[24];
    double w, px, py, m = RATIO_MARKER_R + RATIO_LABEL_GAP;
    int k = n - 1, c;
    while (k >= 0 && (isnan(xs[k]) || isnan(ys[k])))
        k--;
    if (k < 0)
        return;
    snprintf(buf, sizeof buf, "h%d", hidden);
    chart_font(cr, 11, 0);
    w = chart_text_width(cr, buf);
    px = chart_px(f, xs[k]);
    py = chart_py(f, ys[k]);
    for (c = 0; c < 4; c++) {
        label_box b;
        b.x0 = dx[c] > 0 ? px + m : px - m - w;
        b.x1 = b.x0 + w;
        b.y0 = dy[c] == 0 ? py - 7 : dy[c] < 0 ? py - m - 14 : py + m;
        b.y1 = b.y0 + 14;
        if (!room_free(lr, f, &b))
            continue;
        room_add(lr, b.x0, b.y0, b.x1, b.y1);
        chart_text(cr, b.x0, (b.y0 + b.y1) / 2, CHART_LEFT, CHART_MIDDLE,
                   chart_mix(col, figure_ink, 0.4), buf);
        return;
    }
}

/* The measured ratios, one line per device, view and hidden width, and
 * the resident lines' width labels, placed after every marker is known. */
static void ratio_measured(cairo_t *cr, const chart_frame *f, const fig_ctx *x,
                           const ratio_plan *rp, label_room *lr)
{
    double xs[Q_MAX_GRID], ys[Q_MAX_GRID];
    int d, v, hi, i, n;
    lr->n = lr->full = 0;
    for (d = 0; d < x->r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && rp->use[d] && d != rp->bd; v++)
            for (hi = 0; hi < rp->g.nh; hi++) {
                n = ratio_series(x, rp, d, v, hi, xs, ys);
                chart_polyline(cr, f, xs, ys, n, chart_mix(chart_series(d), figure_ink, 0.1), 0.9,
                               v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
                for (i = 0; i < n; i++) {
                    double px, py, m = RATIO_MARKER_R + 1.0;
                    if (isnan(xs[i]) || isnan(ys[i]))
                        continue;
                    px = chart_px(f, xs[i]);
                    py = chart_py(f, ys[i]);
                    chart_marker(cr, CHART_CIRCLE, px, py, RATIO_MARKER_R, chart_series(d),
                                 v == FIT_TRANSFER);
                    room_add(lr, px - m, py - m, px + m, py + m);
                }
            }
    for (d = 0; d < x->r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (hi = 0; rp->use[d] && d != rp->bd && hi < rp->g.nh; hi++) {
            n = ratio_series(x, rp, d, FIT_RESIDENT, hi, xs, ys);
            width_label(cr, f, xs, ys, n, rp->g.h[hi], chart_series(d), lr);
        }
}

/* Why the chart has nothing to draw: one device, or no shape both the
 * base and another device measured. */
static void ratio_empty(cairo_t *cr, fig_ctx *x, const ratio_plan *rp, double W, double H,
                        const char *title)
{
    char buf[512], why[768];
    figure_device_label(x->r, rp->bd, buf, sizeof buf);
    if (rp->nother == 0)
        snprintf(why, sizeof why,
                 "Only one device was measured: %s. There is nothing to compare it with.", buf);
    else
        snprintf(why, sizeof why,
                 "No shape was measured successfully on both %s and another device.", buf);
    figure_empty(cr, x, W, H, title, why);
}

static int draw_ratio(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    fig_ctx *x = vctx;
    const results *r = x->r;
    int d, v, nkeys = 0;
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    char title[256], sub[1024], note[256], ylabel[300], bname[256];
    double need, label_end;
    fig_loglog ax;
    fig_legend lg;
    ratio_plan *rp = NULL;
    label_room *lr = NULL;
    int rc = BE_OK;

    snprintf(title, sizeof title, "Speed of each device relative to %s (%s)",
             q_single_base(r) ? "the base" : "its stack's CPU", workload_mode_name(x->mode));
    if (r->ndevices < 1) {
        figure_empty(cr, x, W, H, title, "No device in the results: nothing to compare.");
        return BE_OK;
    }
    if (!(rp = malloc(sizeof *rp)) || !(lr = malloc(sizeof *lr))) {
        rc = err_set(e, BE_EFAIL, "out of memory drawing the speed-ratio chart");
        goto done;
    }
    ratio_plan_make(x, rp);
    if (rp->nother == 0 || !(rp->xhi > 0)) {
        ratio_empty(cr, x, rp, W, H, title);
        goto done;
    }
    rp->use[rp->bd] = 1;
    figure_status_note(r, x->mode, rp->use, note, sizeof note);
    /* the base by its name, as the legend and the prose give it */
    figure_device_label(r, rp->bd, bname, sizeof bname);
    if (rp->single)
        snprintf(sub, sizeof sub,
                 "Base time / other time at the same shape: above 1 the other "
                 "device is faster than %s%s",
                 bname, note);
    else
        snprintf(sub, sizeof sub,
                 "Base time / other time at the same shape, each device against its own "
                 "stack's CPU (the legend names it): above 1 the device is faster%s",
                 note);
    ratio_keys(x, rp, keys, &nkeys);

    if (rp->single)
        snprintf(ylabel, sizeof ylabel, "Speed relative to %s (\xc3\x97)", bname);
    else
        snprintf(ylabel, sizeof ylabel, "Speed relative to its base (\xc3\x97)");
    ax = (fig_loglog){"FLOPs per layer", ylabel, 1, 0, rp->xlo, rp->xhi, fmin(rp->ylo, 1.0),
                      fmax(rp->yhi, 1.0)};
    need = figure_loglog(cr, W, H, title, sub, &ax, keys, nkeys, &f, &lg);
    if (H <= 0) {
        x->need_h = need;
        goto done;
    }

    /* a crossover's value above the plot, never reaching left of it into
     * the y axis's labels nor over another's (the legend gives them all) */
    label_end = f.x;
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && rp->use[d] && d != rp->bd; v++)
            figure_draw_cross(cr, &f,
                              q_cross(x->fs, rp->bof[d], r->devices[d].id, x->mode, (fit_view)v, 0),
                              chart_series(d), CHART_DOTTED, &label_end);
    chart_clip(cr, &f);
    chart_hline(cr, &f, 1.0, figure_ink, 1.5, CHART_DOTTED);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && rp->use[d] && d != rp->bd; v++) {
            const fit_model *mo = figure_model(x->fs, r->devices[d].id, x->mode, (fit_view)v);
            const fit_model *mb = base_model(x->fs, rp->bof[d], x->mode, (fit_view)v);
            if (mo && mb)
                ratio_curve(cr, &f, mo, mb, chart_series(d),
                            v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
        }
    ratio_measured(cr, &f, x, rp, lr);
    cairo_restore(cr);
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    figure_footer(cr, r, W, H);
done:
    free(rp);
    free(lr);
    return rc;
}

int figure_speed_ratio(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                       const char *base, err *e)
{
    return figure_render_fit(r, fs, mode, root, base, draw_ratio, e);
}
