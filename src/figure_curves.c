/*
 * figure_curves.c — the charts along the work per layer (figure.h, charts 1
 * and 2): the throughput curves the models were fitted from, and the speed
 * ratio with its crossing of 1.  Both log–log, both marking the crossovers
 * of the fit with their CIs.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
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
        if (p->mode != x->mode || !q_ok(p))
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
            figure_device_label(&r->devices[d], buf, sizeof buf);
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
            snprintf(buf, sizeof buf, "%s, over the sizes measured", r->devices[d].id);
            figure_key(keys, nkeys, CHART_KEY_LINE, buf, figure_ink, -1, 0,
                       (chart_dash)(shape % 4));
        }
        shape++;
    }
    for (d = 0, i = 0; d < r->ndevices && d < FIG_MAX_DEVICES && x->fs; d++) {
        const fit_crossover *c =
            q_cross(x->fs, q_base_id(r), r->devices[d].id, x->mode, FIT_RESIDENT, 0);
        if (!use[d] || !figure_cross_has_point(c))
            continue;
        if (i++ == 0)
            figure_key(keys, nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)", figure_neutral,
                       -1, 0, CHART_SOLID);
        figure_cross_text(c, buf, sizeof buf);
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
         * than a break in the line; one it failed at is a gap (NaN). */
        for (bi = 0, i = 0; bi < g->nb; bi++) {
            const rs_point *p = q_point(r, r->devices[d].id, x->mode, g->h[hi], g->b[bi]);
            if (!p)
                continue;
            xs[i] = q_ok(p) ? p->flops_per_layer : NAN;
            ys[i++] = q_ok(p) ? results_gflops(p, p->resident.median) * 1e9 : NAN;
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
    double xlo, xhi, ylo, yhi, need, top, label_end = -INFINITY;
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

    top = chart_title(cr, W, title, sub);
    memset(&f, 0, sizeof f);
    f.xa.scale = f.ya.scale = CHART_LOG;
    f.xa.si = f.ya.si = 1;
    f.xa.label = "FLOPs per layer";
    f.ya.label = "FLOP/s (whole stack)";
    chart_axis_fit(&f.xa, xlo, xhi);
    chart_axis_fit(&f.ya, ylo, yhi);
    need = figure_layout(cr, W, H, top + 8, keys, nkeys, &f, &lg);
    if (H <= 0) {
        x->need_h = need;
        return BE_OK;
    }
    chart_axes(cr, &f);

    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES && x->fs; d++) {
        const fit_crossover *c =
            q_cross(x->fs, q_base_id(r), r->devices[d].id, x->mode, FIT_RESIDENT, 0);
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

int figure_throughput(const results *r, const fit_set *fs, wl_mode mode, const char *base, err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0, 0};
    return figure_render(&x, base, draw_throughput, 0, e);
}

/* ---- 2. speed ratio ---------------------------------------------------- */

/* The base's model to set against other's view v, when it can be drawn. */
static const fit_model *base_model(const fit_set *fs, const char *bdev, wl_mode mode, fit_view v)
{
    const fit_model *m = q_base_model(fs, bdev, mode, v);
    return q_model_ok(m) ? m : NULL;
}

/* A placed label's box, in device units. */
typedef struct label_box {
    double x0, y0, x1, y1;
} label_box;

/* "h128" beside the last point of a hidden width's line, so that widths
 * are told apart by more than position: left out where it would overprint
 * a label already placed (placed[0..*n)) or leave the plot, and on a
 * narrow chart. */
static void width_label(cairo_t *cr, const chart_frame *f, const double *xs, const double *ys,
                        int n, int hidden, chart_rgb col, label_box *placed, int *nplaced)
{
    char buf[24];
    label_box b;
    double w;
    int k = n - 1, j;
    while (k >= 0 && (isnan(xs[k]) || isnan(ys[k])))
        k--;
    /* a narrow chart has no room for them among its markers */
    if (k < 0 || *nplaced >= FIG_MAX_LABELS || f->w < 500)
        return;
    snprintf(buf, sizeof buf, "h%d", hidden);
    chart_font(cr, 11, 0);
    w = chart_text_width(cr, buf);
    b.x0 = chart_px(f, xs[k]) + 7;
    b.x1 = b.x0 + w;
    b.y0 = chart_py(f, ys[k]) - 7;
    b.y1 = b.y0 + 14;
    if (b.x1 > f->x + f->w) { /* no room on the right: above, to the left */
        b.x1 = chart_px(f, xs[k]) - 4;
        b.x0 = b.x1 - w;
        b.y0 -= 12;
        b.y1 -= 12;
    }
    if (b.x0 < f->x || b.y0 < f->y || b.y1 > f->y + f->h)
        return;
    for (j = 0; j < *nplaced; j++)
        if (b.x0 < placed[j].x1 && placed[j].x0 < b.x1 && b.y0 < placed[j].y1 &&
            placed[j].y0 < b.y1)
            return;
    placed[(*nplaced)++] = b;
    chart_text(cr, b.x0, (b.y0 + b.y1) / 2, CHART_LEFT, CHART_MIDDLE,
               chart_mix(col, figure_ink, 0.4), buf);
}

static int draw_ratio(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    fig_ctx *x = vctx;
    const results *r = x->r;
    int bd = q_base(r), d, hi, bi, i, v, nkeys = 0, nother = 0, any_transfer = 0, nfit = 0,
        use[FIG_MAX_DEVICES] = {0};
    const char *bid;
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    char title[256], sub[1024], note[256], buf[512];
    double xs[Q_MAX_GRID], ys[Q_MAX_GRID], xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    double need, top, label_end = -INFINITY;
    fig_legend lg;
    q_grid g;
    label_box placed[FIG_MAX_LABELS];
    int nplaced = 0;

    (void)e;
    snprintf(title, sizeof title, "Speed of each device relative to the base (%s)",
             workload_mode_name(x->mode));
    if (r->ndevices < 1) {
        figure_empty(cr, x, W, H, title, "No device in the results: nothing to compare.");
        return BE_OK;
    }
    bid = r->devices[bd].id;
    q_grid_make(r, x->mode, &g);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        if (d == bd || !q_has_mode(r, r->devices[d].id, x->mode))
            continue;
        use[d] = 1;
        nother++;
        for (v = 0; v < 2; v++)
            for (hi = 0; hi < g.nh; hi++)
                for (bi = 0; bi < g.nb; bi++) {
                    double q = figure_ratio_at(r, bid, r->devices[d].id, x->mode, g.h[hi], g.b[bi],
                                               (fit_view)v);
                    const rs_point *p = q_point(r, bid, x->mode, g.h[hi], g.b[bi]);
                    if (!(q > 0) || !p)
                        continue;
                    any_transfer |= v == FIT_TRANSFER;
                    xlo = fmin(xlo, p->flops_per_layer);
                    xhi = fmax(xhi, p->flops_per_layer);
                    ylo = fmin(ylo, q);
                    yhi = fmax(yhi, q);
                }
    }
    figure_device_label(&r->devices[bd], buf, sizeof buf);
    if (nother == 0 || !(xhi > 0)) {
        char why[768];
        if (nother == 0)
            snprintf(why, sizeof why,
                     "Only one device was measured: %s. "
                     "There is nothing to compare it with.",
                     buf);
        else
            snprintf(why, sizeof why,
                     "No shape was measured successfully on both %s and "
                     "another device.",
                     bid);
        figure_empty(cr, x, W, H, title, why);
        return BE_OK;
    }
    use[bd] = 1;
    figure_status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub,
             "Base time / other time at the same shape: above 1 the other "
             "device is faster than %s%s",
             bid, note);

    figure_key(keys, &nkeys, CHART_KEY_HEADER, "Device", figure_neutral, -1, 0, CHART_SOLID);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        if (use[d] && d != bd) {
            figure_device_label(&r->devices[d], buf, sizeof buf);
            figure_key(keys, &nkeys, CHART_KEY_MARKER, buf, chart_series(d), 0, 0, CHART_SOLID);
        }
    figure_device_label(&r->devices[bd], buf, sizeof buf);
    figure_key(keys, &nkeys, CHART_KEY_HEADER, "Base", figure_neutral, -1, 0, CHART_SOLID);
    figure_key(keys, &nkeys, CHART_KEY_LINE, buf, figure_ink, -1, 0, CHART_DOTTED);
    figure_key(keys, &nkeys, CHART_KEY_HEADER, "View", figure_neutral, -1, 0, CHART_SOLID);
    figure_key(keys, &nkeys, CHART_KEY_MARKER, "resident (data on the device)", figure_neutral, 0,
               0, CHART_SOLID);
    if (any_transfer)
        figure_key(keys, &nkeys, CHART_KEY_MARKER, "with transfer (upload + read-back)",
                   figure_neutral, 0, 1, CHART_SOLID);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_model *mo = figure_model(x->fs, r->devices[d].id, x->mode, (fit_view)v);
            if (mo && base_model(x->fs, bid, x->mode, (fit_view)v)) {
                if (nfit++ == 0)
                    figure_key(keys, &nkeys, CHART_KEY_HEADER, "Fitted ratio (band: ~95%)",
                               figure_neutral, -1, 0, CHART_SOLID);
                snprintf(buf, sizeof buf, "%s, %s", r->devices[d].id,
                         v == FIT_TRANSFER ? "with transfer" : "resident");
                figure_key(keys, &nkeys, CHART_KEY_BAND, buf, chart_series(d), -1, 0,
                           v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
            }
        }
    for (d = 0, nfit = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_crossover *c = q_cross(x->fs, bid, r->devices[d].id, x->mode, (fit_view)v, 0);
            if (figure_cross_has_point(c)) {
                if (nfit++ == 0)
                    figure_key(keys, &nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)",
                               figure_neutral, -1, 0, CHART_SOLID);
                figure_cross_text(c, buf, sizeof buf);
                if (v == FIT_TRANSFER) {
                    size_t n = strlen(buf);
                    snprintf(buf + n, sizeof buf - n, ", with transfer");
                }
                figure_key(keys, &nkeys, CHART_KEY_BAND, buf, chart_series(d), -1, 0, CHART_DOTTED);
                xlo = fmin(xlo, figure_cross_has_ci(c) ? c->ci_lo : c->flops);
                xhi = fmax(xhi, figure_cross_has_ci(c) ? c->ci_hi : c->flops);
            }
        }

    top = chart_title(cr, W, title, sub);
    memset(&f, 0, sizeof f);
    f.xa.scale = f.ya.scale = CHART_LOG;
    f.xa.si = 1;
    f.xa.label = "FLOPs per layer";
    snprintf(buf, sizeof buf, "Speed relative to %s (\xc3\x97)", bid);
    f.ya.label = buf;
    chart_axis_fit(&f.xa, xlo, xhi);
    chart_axis_fit(&f.ya, fmin(ylo, 1.0), fmax(yhi, 1.0));
    need = figure_layout(cr, W, H, top + 8, keys, nkeys, &f, &lg);
    if (H <= 0) {
        x->need_h = need;
        return BE_OK;
    }
    chart_axes(cr, &f);

    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++)
            figure_draw_cross(cr, &f,
                              q_cross(x->fs, bid, r->devices[d].id, x->mode, (fit_view)v, 0),
                              chart_series(d), CHART_DOTTED, &label_end);
    chart_clip(cr, &f);
    chart_hline(cr, &f, 1.0, figure_ink, 1.5, CHART_DOTTED);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_model *mo = figure_model(x->fs, r->devices[d].id, x->mode, (fit_view)v);
            const fit_model *mb = base_model(x->fs, bid, x->mode, (fit_view)v);
            if (mo && mb) {
                double cx[CURVE_N], cy[CURVE_N], clo[CURVE_N], chi[CURVE_N];
                double f0 = fmax(f.xa.lo, fmin(mo->fmin, mb->fmin));
                double f1 = fmin(f.xa.hi, fmax(mo->fmax, mb->fmax));
                int band = mo->t0_err > 0 || mo->P_err > 0 || mb->t0_err > 0 || mb->P_err > 0;
                if (!(f1 > f0 && f0 > 0))
                    continue;
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
                    chart_band(cr, &f, cx, clo, chi, CURVE_N, chart_series(d), 0.16);
                chart_polyline(cr, &f, cx, cy, CURVE_N, chart_series(d), 1.8,
                               v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
            }
        }
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++)
            for (hi = 0; hi < g.nh; hi++) {
                for (bi = 0, i = 0; bi < g.nb; bi++) {
                    const char *oid = r->devices[d].id;
                    const rs_point *p = q_point(r, bid, x->mode, g.h[hi], g.b[bi]);
                    double q;
                    if (!p && !q_point(r, oid, x->mode, g.h[hi], g.b[bi]))
                        continue;
                    q = figure_ratio_at(r, bid, oid, x->mode, g.h[hi], g.b[bi], (fit_view)v);
                    xs[i] = isnan(q) ? NAN : p->flops_per_layer;
                    ys[i++] = q;
                }
                chart_polyline(cr, &f, xs, ys, i, chart_mix(chart_series(d), figure_ink, 0.1), 0.9,
                               v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
                for (bi = 0; bi < i; bi++)
                    if (!isnan(xs[bi]) && !isnan(ys[bi]))
                        chart_marker(cr, CHART_CIRCLE, chart_px(&f, xs[bi]), chart_py(&f, ys[bi]),
                                     4.2, chart_series(d), v == FIT_TRANSFER);
                if (v == FIT_RESIDENT)
                    width_label(cr, &f, xs, ys, i, g.h[hi], chart_series(d), placed, &nplaced);
            }
    cairo_restore(cr);
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    figure_footer(cr, r, W, H);
    return BE_OK;
}

int figure_speed_ratio(const results *r, const fit_set *fs, wl_mode mode, const char *base, err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0, 0};
    return figure_render(&x, base, draw_ratio, 0, e);
}
