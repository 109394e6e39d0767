/*
 * figure.c — breakeven's charts (figure.h), drawn with chart.c.
 *
 * The report answers "from what size on does the other device win?" in
 * words; these charts let a reader check that answer against the
 * measurements: the throughput curves it was fitted from (the Apple
 * Silicon post's chart), the speed ratio with its crossing of 1, a map of
 * who wins at every measured shape, and the cloud posts' relative time and
 * cost bars.  Every chart reads the results model and, for fitted curves,
 * the fit_set as given (possibly empty): it never fits anything itself, so
 * what is drawn is what the report states.  Each chart is a drawing
 * function over a small context, run by chart_render once for the PNG and
 * once for the SVG; the layout is computed inside the drawing function
 * because it depends on measured text widths.
 */
#define _POSIX_C_SOURCE 200809L
#include "figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "workload.h"

#define MAXGRID 256      /* distinct hidden widths or batch sizes drawn   */
#define MAXKEYS 96
#define LEGEND_MAX_W 330.0
#define CURVE_N 96       /* samples along a fitted curve                  */
#define MAX_PANELS 3

static const chart_rgb ink = {0.13, 0.13, 0.13};
static const chart_rgb muted = {0.38, 0.38, 0.38};
static const chart_rgb neutral = {0.45, 0.45, 0.45};

/* ---- reading the model ----------------------------------------------- */

int figure_base_device(const results *r)
{
    int i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].kind, "openblas") == 0)
            return i;
    return 0;
}

void figure_device_label(const device_info *d, char *buf, size_t size)
{
    const char *type = d->type[0] ? d->type : "unknown type";
    if (strcmp(d->kind, "openblas") == 0 && d->driver[0])
        snprintf(buf, size, "%s (%s, %s, %s)", d->id, type, d->driver, d->name);
    else
        snprintf(buf, size, "%s (%s, %s)", d->id, type, d->name[0] ? d->name : "unnamed");
}

static int speed_ok(const rs_point *p)
{
    return p->status == PT_OK && p->resident.n > 0 && p->resident.median > 0 &&
           isfinite(p->resident.median);
}

static int transfer_ok(const rs_point *p)
{
    return speed_ok(p) && p->has_transfer && p->transfer.n > 0 && p->transfer.median > 0 &&
           isfinite(p->transfer.median);
}

/* The point of a device at one shape: the first ok one, else the first
 * one (so that its status can be reported), else NULL. */
static const rs_point *find_point(const results *r, const char *dev, wl_mode mode, int hidden,
                                  int batch)
{
    const rs_point *any = NULL;
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != mode || p->hidden != hidden || p->batch != batch ||
            strcmp(p->device, dev) != 0)
            continue;
        if (speed_ok(p))
            return p;
        if (!any)
            any = p;
    }
    return any;
}

static int device_has_mode(const results *r, const char *dev, wl_mode mode)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == mode && strcmp(r->points[i].device, dev) == 0)
            return 1;
    return 0;
}

/* The distinct hidden widths and batch sizes of a mode's points, sorted. */
typedef struct grid {
    int nh, nb;
    int h[MAXGRID], b[MAXGRID];
} grid;

static void add_sorted(int *v, int *n, int x)
{
    int i, j;
    for (i = 0; i < *n && v[i] < x; i++)
        ;
    if ((i < *n && v[i] == x) || *n >= MAXGRID)
        return;
    for (j = *n; j > i; j--)
        v[j] = v[j - 1];
    v[i] = x;
    (*n)++;
}

static void grid_make(const results *r, wl_mode mode, grid *g)
{
    int i;
    g->nh = g->nb = 0;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == mode) {
            add_sorted(g->h, &g->nh, r->points[i].hidden);
            add_sorted(g->b, &g->nb, r->points[i].batch);
        }
}

static const fit_model *find_model(const fit_set *fs, const char *dev, wl_mode mode, fit_view v)
{
    int i;
    if (!fs)
        return NULL;
    for (i = 0; i < fs->nmodels; i++) {
        const fit_model *m = &fs->models[i];
        if (m->ok && m->mode == mode && m->view == v && strcmp(m->device, dev) == 0 && m->P > 0 &&
            isfinite(m->P) && isfinite(m->t0))
            return m;
    }
    return NULL;
}

/* The time crossover between base and other in a mode and view, when it
 * has a crossing point (in range or extrapolated). */
static const fit_crossover *find_cross(const fit_set *fs, const char *base, const char *other,
                                       wl_mode mode, fit_view v)
{
    int i;
    if (!fs)
        return NULL;
    for (i = 0; i < fs->ncross; i++) {
        const fit_crossover *c = &fs->cross[i];
        if (!c->cost && c->mode == mode && c->view == v && strcmp(c->base, base) == 0 &&
            strcmp(c->other, other) == 0)
            return c;
    }
    return NULL;
}

static int cross_has_point(const fit_crossover *c)
{
    return c && (c->kind == CROSS_IN_RANGE || c->kind == CROSS_EXTRAPOLATED) && c->flops > 0 &&
           isfinite(c->flops);
}

static int cross_has_ci(const fit_crossover *c)
{
    return c->ci_lo > 0 && c->ci_hi > c->ci_lo && isfinite(c->ci_hi);
}

static double model_time(const fit_model *m, double f)
{
    return m->t0 + f / m->P;
}

static int layers_of(const results *r)
{
    int i;
    if (r->prov.layers > 0)
        return r->prov.layers;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].layers > 0)
            return r->points[i].layers;
    return 0;
}

/* "; 2 out-of-memory points left as gaps; 1 point failed verification
 * (not plotted)" for the points of mode on the devices in use[] (NULL: all),
 * or "". */
static void status_note(const results *r, wl_mode mode, const int *use, char *buf, size_t size)
{
    int i, oom = 0, bad = 0;
    size_t len;
    buf[0] = '\0';
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int d;
        if (p->mode != mode)
            continue;
        for (d = 0; d < r->ndevices && strcmp(r->devices[d].id, p->device) != 0; d++)
            ;
        if (use && (d == r->ndevices || !use[d]))
            continue;
        oom += p->status == PT_OUT_OF_MEMORY;
        bad += p->status == PT_FAILED_VERIFICATION;
    }
    if (oom)
        snprintf(buf, size, "; %d out-of-memory point%s left as gaps", oom, oom > 1 ? "s" : "");
    len = strlen(buf);
    if (bad && len < size)
        snprintf(buf + len, size - len, "; %d point%s failed verification (not plotted)", bad,
                 bad > 1 ? "s" : "");
}

/* ---- shared layout --------------------------------------------------- */

/* A small grey line at the bottom: what was measured, where. */
static void footer(cairo_t *cr, const results *r, double W, double H)
{
    char buf[768], cut[768];
    size_t n;
    int layers = layers_of(r);
    snprintf(buf, sizeof buf, "breakeven%s%s", r->prov.version[0] ? " " : "", r->prov.version);
    n = strlen(buf);
    if (r->prov.host[0])
        snprintf(buf + n, sizeof buf - n, " \xc2\xb7 %s", r->prov.host);
    n = strlen(buf);
    if (r->prov.started[0])
        snprintf(buf + n, sizeof buf - n, " \xc2\xb7 %s", r->prov.started);
    n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, " \xc2\xb7 %d layer%s%s", layers, layers == 1 ? "" : "s",
             r->partial ? " \xc2\xb7 PARTIAL RUN (not every point was measured)" : "");
    chart_font(cr, 10, 0);
    chart_fit_text(cr, buf, W - 40, cut, sizeof cut);
    chart_text(cr, 20, H - 10, CHART_LEFT, CHART_BASELINE, muted, cut);
}

/* Places the plot area under the title (top) with the legend at its right,
 * leaving room for the y tick labels and axis title at its left. */
static void layout(cairo_t *cr, double W, double H, double top, const chart_key *keys, int nkeys,
                   chart_frame *f, double *legend_x)
{
    double lw = 0, lh = 0;
    if (nkeys > 0)
        chart_legend_size(cr, keys, nkeys, LEGEND_MAX_W, &lw, &lh);
    f->x = 20 + 16 + 12 + chart_ytick_width(cr, &f->ya) + 8;
    f->y = top + 12;
    f->h = H - f->y - 72;
    f->w = W - f->x - (nkeys > 0 ? lw + 44 : 24);
    *legend_x = f->x + f->w + 24;
}

/* A chart that has no data to show says why, in place of the data. */
static void empty_chart(cairo_t *cr, const results *r, double W, double H, const char *title,
                        const char *why)
{
    char lines[3][CHART_LINE];
    double top = chart_title(cr, W, title, "");
    int i, n;
    chart_font(cr, 15, 0);
    n = chart_wrap(cr, why, W - 160, lines, 3);
    for (i = 0; i < n; i++)
        chart_text(cr, W / 2, (top + H) / 2 + (i - (n - 1) / 2.0) * 22, CHART_CENTER,
                   CHART_MIDDLE, muted, lines[i]);
    footer(cr, r, W, H);
}

static void key_add(chart_key *keys, int *n, chart_key_kind kind, const char *label, chart_rgb c,
                    int shape, int hollow, chart_dash dash)
{
    chart_key *k;
    if (*n >= MAXKEYS)
        return;
    k = &keys[(*n)++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    snprintf(k->label, sizeof k->label, "%s", label);
    k->color = c;
    k->shape = shape;
    k->hollow = hollow;
    k->dash = dash;
}

static const char *mode_title(wl_mode mode)
{
    return mode == WL_TRAINING ? "training" : "inference";
}

/* The colour of a device in the charts that colour by device. */
static chart_rgb device_color(int d)
{
    return chart_series(d);
}

/* v with its SI prefix glued to the unit: "50 GFLOP/s", "5 \xc2\xb5s". */
static void with_unit(double v, const char *unit, char *buf, size_t size)
{
    char t[32];
    size_t i = 0;
    chart_si(v, t, sizeof t);
    while (t[i] && (t[i] == '-' || t[i] == '.' || (t[i] >= '0' && t[i] <= '9')))
        i++;
    snprintf(buf, size, "%.*s %s%s", (int)i, t, t + i, unit);
}

static void cross_text(const fit_crossover *c, char *buf, size_t size)
{
    char f[32], lo[32], hi[32];
    chart_si(c->flops, f, sizeof f);
    if (cross_has_ci(c)) {
        chart_si(c->ci_lo, lo, sizeof lo);
        chart_si(c->ci_hi, hi, sizeof hi);
        snprintf(buf, size, "%s beats %s from %s FLOP/layer (95%% CI %s\xe2\x80\x93%s)%s",
                 c->other, c->base, f, lo, hi,
                 c->kind == CROSS_EXTRAPOLATED ? ", extrapolated" : "");
    } else {
        snprintf(buf, size, "%s beats %s from %s FLOP/layer%s", c->other, c->base, f,
                 c->kind == CROSS_EXTRAPOLATED ? " (extrapolated)" : "");
    }
}

/* Marks a crossover: its CI as a band and a vertical line, with its value
 * written just above the plot area. */
static void draw_cross(cairo_t *cr, const chart_frame *f, const fit_crossover *c, chart_rgb col,
                       chart_dash dash)
{
    char buf[32];
    double x;
    if (!cross_has_point(c))
        return;
    chart_clip(cr, f);
    if (cross_has_ci(c))
        chart_vband(cr, f, c->ci_lo, c->ci_hi, col, 0.13);
    chart_vline(cr, f, c->flops, col, 1.8, dash);
    cairo_restore(cr);
    x = chart_px(f, c->flops);
    if (x >= f->x && x <= f->x + f->w) {
        chart_si(c->flops, buf, sizeof buf);
        chart_font(cr, 10.5, 1);
        chart_text(cr, x, f->y - 4, CHART_CENTER, CHART_BASELINE, col, buf);
    }
}

/* ---- 1. throughput ----------------------------------------------------- */

typedef struct fig_ctx {
    const results *r;
    const fit_set *fs;
    const fit_prices *prices;
    wl_mode mode;
    const figure_shape *shapes;
    int nshapes;
    int cost;
} fig_ctx;

static int draw_throughput(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    const fig_ctx *x = vctx;
    const results *r = x->r;
    chart_key keys[MAXKEYS];
    chart_frame f;
    char title[256], sub[1024], note[256], buf[512], a[48], b[48];
    double xs[MAXGRID], ys[MAXGRID], xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, lx, top;
    int use[64] = {0}, nkeys = 0, d, hi, bi, i, shape;
    grid g;

    (void)e;
    grid_make(r, x->mode, &g);
    snprintf(title, sizeof title, "Throughput against work per layer (%s)", mode_title(x->mode));
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        double v;
        if (p->mode != x->mode || !speed_ok(p))
            continue;
        v = results_gflops(p, p->resident.median) * 1e9;
        xlo = fmin(xlo, p->flops_per_layer);
        xhi = fmax(xhi, p->flops_per_layer);
        ylo = fmin(ylo, v);
        yhi = fmax(yhi, v);
    }
    if (!(xhi > 0)) {
        snprintf(buf, sizeof buf, "No %s point was measured successfully: nothing to plot.",
                 mode_title(x->mode));
        empty_chart(cr, r, W, H, title, buf);
        return BE_OK;
    }
    for (d = 0; d < r->ndevices && d < 64; d++) {
        const fit_model *m = find_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
        use[d] = device_has_mode(r, r->devices[d].id, x->mode);
        if (use[d] && m) {
            ylo = fmin(ylo, m->fmin / model_time(m, m->fmin));
            yhi = fmax(yhi, m->fmax / model_time(m, m->fmax));
        }
    }
    status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub, "FLOP/s of the %d-layer stack, data resident on the device; "
             "marker = device, colour = hidden width, lines join batch sizes%s",
             layers_of(r), note);

    /* Legend: devices (shapes), hidden widths (colours), fits, crossovers. */
    key_add(keys, &nkeys, CHART_KEY_HEADER, "Device", neutral, -1, 0, CHART_SOLID);
    for (d = 0, shape = 0; d < r->ndevices && d < 64; d++)
        if (use[d]) {
            figure_device_label(&r->devices[d], buf, sizeof buf);
            key_add(keys, &nkeys, CHART_KEY_MARKER, buf, neutral, shape++ % CHART_NSHAPES, 0,
                    CHART_SOLID);
        }
    key_add(keys, &nkeys, CHART_KEY_HEADER, "Hidden width", neutral, -1, 0, CHART_SOLID);
    for (hi = 0; hi < g.nh; hi++) {
        snprintf(buf, sizeof buf, "%d", g.h[hi]);
        key_add(keys, &nkeys, CHART_KEY_SWATCH, buf, chart_series(hi), -1, 0, CHART_SOLID);
    }
    for (d = 0, shape = 0, i = 0; d < r->ndevices && d < 64; d++) {
        const fit_model *m;
        if (!use[d])
            continue;
        m = find_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
        if (m) {
            if (i++ == 0)
                key_add(keys, &nkeys, CHART_KEY_HEADER, "Fit f / (t0 + f/P)", neutral, -1, 0,
                        CHART_SOLID);
            with_unit(m->t0, "s", a, sizeof a);
            with_unit(m->P, "FLOP/s", b, sizeof b);
            snprintf(buf, sizeof buf, "%s: t0 = %s, P = %s", r->devices[d].id, a, b);
            key_add(keys, &nkeys, CHART_KEY_LINE, buf, ink, -1, 0,
                    (chart_dash)(shape % 4));
        }
        shape++;
    }
    for (d = 0, i = 0; d < r->ndevices && d < 64 && x->fs; d++) {
        const fit_crossover *c = find_cross(x->fs, r->devices[figure_base_device(r)].id,
                                            r->devices[d].id, x->mode, FIT_RESIDENT);
        if (!use[d] || !cross_has_point(c))
            continue;
        if (i++ == 0)
            key_add(keys, &nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)", neutral, -1, 0,
                    CHART_SOLID);
        cross_text(c, buf, sizeof buf);
        key_add(keys, &nkeys, CHART_KEY_BAND, buf, ink, -1, 0, CHART_DOTTED);
        xlo = fmin(xlo, cross_has_ci(c) ? c->ci_lo : c->flops);
        xhi = fmax(xhi, cross_has_ci(c) ? c->ci_hi : c->flops);
    }

    top = chart_title(cr, W, title, sub);
    memset(&f, 0, sizeof f);
    f.xa.scale = f.ya.scale = CHART_LOG;
    f.xa.si = f.ya.si = 1;
    f.xa.label = "FLOPs per layer";
    f.ya.label = "FLOP/s (whole stack)";
    chart_axis_fit(&f.xa, xlo, xhi);
    chart_axis_fit(&f.ya, ylo, yhi);
    layout(cr, W, H, top + 8, keys, nkeys, &f, &lx);
    chart_axes(cr, &f);

    for (d = 0; d < r->ndevices && d < 64 && x->fs; d++) {
        const fit_crossover *c = find_cross(x->fs, r->devices[figure_base_device(r)].id,
                                            r->devices[d].id, x->mode, FIT_RESIDENT);
        if (use[d])
            draw_cross(cr, &f, c, ink, CHART_DOTTED);
    }
    chart_clip(cr, &f);
    for (d = 0, shape = 0; d < r->ndevices && d < 64; d++) {
        const fit_model *m;
        if (!use[d])
            continue;
        m = find_model(x->fs, r->devices[d].id, x->mode, FIT_RESIDENT);
        if (m && m->fmax > m->fmin && m->fmin > 0) {
            double cx[CURVE_N], cy[CURVE_N];
            for (i = 0; i < CURVE_N; i++) {
                cx[i] = m->fmin * pow(m->fmax / m->fmin, i / (CURVE_N - 1.0));
                cy[i] = cx[i] / model_time(m, cx[i]);
            }
            chart_polyline(cr, &f, cx, cy, CURVE_N, ink, 1.6, (chart_dash)(shape % 4));
        }
        for (hi = 0; hi < g.nh; hi++) {
            for (bi = 0; bi < g.nb; bi++) {
                const rs_point *p = find_point(r, r->devices[d].id, x->mode, g.h[hi], g.b[bi]);
                xs[bi] = ys[bi] = NAN;
                if (p && speed_ok(p)) {
                    xs[bi] = p->flops_per_layer;
                    ys[bi] = results_gflops(p, p->resident.median) * 1e9;
                } else if (!p) {
                    /* Not measured at all: skip it rather than break the line. */
                    xs[bi] = ys[bi] = -1;
                }
            }
            /* Drop the unmeasured (−1) entries, keep NaN gaps. */
            for (bi = 0, i = 0; bi < g.nb; bi++)
                if (!(xs[bi] == -1)) {
                    xs[i] = xs[bi];
                    ys[i++] = ys[bi];
                }
            chart_polyline(cr, &f, xs, ys, i, chart_series(hi), 1.2, CHART_SOLID);
            for (bi = 0; bi < i; bi++)
                if (!isnan(xs[bi]))
                    chart_marker(cr, (chart_shape)(shape % CHART_NSHAPES), chart_px(&f, xs[bi]),
                                 chart_py(&f, ys[bi]), 4.6, chart_series(hi), 0);
        }
        shape++;
    }
    cairo_restore(cr);
    chart_legend(cr, lx, f.y, keys, nkeys, LEGEND_MAX_W);
    footer(cr, r, W, H);
    return BE_OK;
}

int figure_throughput(const results *r, const fit_set *fs, wl_mode mode, const char *base, err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0};
    return chart_render(base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_throughput, &x, e);
}

/* ---- 2. speed ratio ---------------------------------------------------- */

/* The ratio base/other at one shape in one view, or NaN (a gap) when either
 * point is missing or not ok; -1 when neither device measured the shape. */
static double ratio_at(const results *r, const char *bdev, const char *odev, wl_mode mode,
                       int hidden, int batch, fit_view v)
{
    const rs_point *pb = find_point(r, bdev, mode, hidden, batch);
    const rs_point *po = find_point(r, odev, mode, hidden, batch);
    if (!pb && !po)
        return -1;
    if (!pb || !po || !speed_ok(pb))
        return NAN;
    if (v == FIT_TRANSFER)
        return transfer_ok(po) ? pb->resident.median / po->transfer.median : NAN;
    return speed_ok(po) ? pb->resident.median / po->resident.median : NAN;
}

/* The base's model to compare a view of other with: the base's own model of
 * that view when it has one, else its resident one (a CPU has no transfers:
 * its data are where it computes). */
static const fit_model *base_model(const fit_set *fs, const char *bdev, wl_mode mode, fit_view v)
{
    const fit_model *m = find_model(fs, bdev, mode, v);
    return m ? m : find_model(fs, bdev, mode, FIT_RESIDENT);
}

static int draw_ratio(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    const fig_ctx *x = vctx;
    const results *r = x->r;
    int bd = figure_base_device(r), d, hi, bi, i, v, nkeys = 0, nother = 0, any_transfer = 0,
        nfit = 0, use[64] = {0};
    const char *bid;
    chart_key keys[MAXKEYS];
    chart_frame f;
    char title[256], sub[1024], note[256], buf[512];
    double xs[MAXGRID], ys[MAXGRID], xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, lx, top;
    grid g;

    (void)e;
    snprintf(title, sizeof title, "Speed of each device relative to the base (%s)",
             mode_title(x->mode));
    if (r->ndevices < 1) {
        empty_chart(cr, r, W, H, title, "No device in the results: nothing to compare.");
        return BE_OK;
    }
    bid = r->devices[bd].id;
    grid_make(r, x->mode, &g);
    for (d = 0; d < r->ndevices && d < 64; d++) {
        if (d == bd || !device_has_mode(r, r->devices[d].id, x->mode))
            continue;
        use[d] = 1;
        nother++;
        for (v = 0; v < 2; v++)
            for (hi = 0; hi < g.nh; hi++)
                for (bi = 0; bi < g.nb; bi++) {
                    double q = ratio_at(r, bid, r->devices[d].id, x->mode, g.h[hi], g.b[bi],
                                        (fit_view)v);
                    const rs_point *p = find_point(r, bid, x->mode, g.h[hi], g.b[bi]);
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
            snprintf(why, sizeof why, "Only one device was measured: %s. "
                     "There is nothing to compare it with.", buf);
        else
            snprintf(why, sizeof why, "No shape was measured successfully on both %s and "
                     "another device.", bid);
        empty_chart(cr, r, W, H, title, why);
        return BE_OK;
    }
    use[bd] = 1;
    status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub, "Base time / other time at the same shape: above 1 the other "
             "device is faster than %s%s", bid, note);

    key_add(keys, &nkeys, CHART_KEY_HEADER, "Device", neutral, -1, 0, CHART_SOLID);
    for (d = 0; d < r->ndevices && d < 64; d++)
        if (use[d] && d != bd) {
            figure_device_label(&r->devices[d], buf, sizeof buf);
            key_add(keys, &nkeys, CHART_KEY_MARKER, buf, device_color(d), 0, 0, CHART_SOLID);
        }
    figure_device_label(&r->devices[bd], buf, sizeof buf);
    key_add(keys, &nkeys, CHART_KEY_HEADER, "Base", neutral, -1, 0, CHART_SOLID);
    key_add(keys, &nkeys, CHART_KEY_LINE, buf, ink, -1, 0, CHART_DOTTED);
    key_add(keys, &nkeys, CHART_KEY_HEADER, "View", neutral, -1, 0, CHART_SOLID);
    key_add(keys, &nkeys, CHART_KEY_MARKER, "resident (data on the device)", neutral, 0, 0,
            CHART_SOLID);
    if (any_transfer)
        key_add(keys, &nkeys, CHART_KEY_MARKER, "with transfer (upload + read-back)", neutral, 0,
                1, CHART_SOLID);
    for (d = 0; d < r->ndevices && d < 64; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_model *mo = find_model(x->fs, r->devices[d].id, x->mode, (fit_view)v);
            if (mo && base_model(x->fs, bid, x->mode, (fit_view)v)) {
                if (nfit++ == 0)
                    key_add(keys, &nkeys, CHART_KEY_HEADER, "Fitted ratio (band: ~95%)",
                            neutral, -1, 0, CHART_SOLID);
                snprintf(buf, sizeof buf, "%s, %s", r->devices[d].id,
                         v == FIT_TRANSFER ? "with transfer" : "resident");
                key_add(keys, &nkeys, CHART_KEY_BAND, buf, device_color(d), -1, 0,
                        v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
            }
        }
    for (d = 0, nfit = 0; d < r->ndevices && d < 64; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_crossover *c = find_cross(x->fs, bid, r->devices[d].id, x->mode,
                                                (fit_view)v);
            if (cross_has_point(c)) {
                if (nfit++ == 0)
                    key_add(keys, &nkeys, CHART_KEY_HEADER, "Crossover (band: 95% CI)", neutral,
                            -1, 0, CHART_SOLID);
                cross_text(c, buf, sizeof buf);
                if (v == FIT_TRANSFER) {
                    size_t n = strlen(buf);
                    snprintf(buf + n, sizeof buf - n, ", with transfer");
                }
                key_add(keys, &nkeys, CHART_KEY_BAND, buf, device_color(d), -1, 0,
                        CHART_DOTTED);
                xlo = fmin(xlo, cross_has_ci(c) ? c->ci_lo : c->flops);
                xhi = fmax(xhi, cross_has_ci(c) ? c->ci_hi : c->flops);
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
    layout(cr, W, H, top + 8, keys, nkeys, &f, &lx);
    chart_axes(cr, &f);

    for (d = 0; d < r->ndevices && d < 64; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++)
            draw_cross(cr, &f, find_cross(x->fs, bid, r->devices[d].id, x->mode, (fit_view)v),
                       device_color(d), CHART_DOTTED);
    chart_clip(cr, &f);
    chart_hline(cr, &f, 1.0, ink, 1.5, CHART_DOTTED);
    for (d = 0; d < r->ndevices && d < 64; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++) {
            const fit_model *mo = find_model(x->fs, r->devices[d].id, x->mode, (fit_view)v);
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
                    double tb = model_time(mb, fv), to = model_time(mo, fv);
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
                    chart_band(cr, &f, cx, clo, chi, CURVE_N, device_color(d), 0.16);
                chart_polyline(cr, &f, cx, cy, CURVE_N, device_color(d), 1.8,
                               v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
            }
        }
    for (d = 0; d < r->ndevices && d < 64; d++)
        for (v = 0; v < 2 && use[d] && d != bd; v++)
            for (hi = 0; hi < g.nh; hi++) {
                for (bi = 0, i = 0; bi < g.nb; bi++) {
                    double q = ratio_at(r, bid, r->devices[d].id, x->mode, g.h[hi], g.b[bi],
                                        (fit_view)v);
                    const rs_point *p = find_point(r, bid, x->mode, g.h[hi], g.b[bi]);
                    if (q == -1)
                        continue;
                    xs[i] = p && !isnan(q) ? p->flops_per_layer : NAN;
                    ys[i++] = q;
                }
                chart_polyline(cr, &f, xs, ys, i, chart_mix(device_color(d), ink, 0.1), 0.9,
                               v == FIT_TRANSFER ? CHART_DASHED : CHART_SOLID);
                for (bi = 0; bi < i; bi++)
                    if (!isnan(xs[bi]) && !isnan(ys[bi]))
                        chart_marker(cr, CHART_CIRCLE, chart_px(&f, xs[bi]), chart_py(&f, ys[bi]),
                                     4.2, device_color(d), v == FIT_TRANSFER);
            }
    cairo_restore(cr);
    chart_legend(cr, lx, f.y, keys, nkeys, LEGEND_MAX_W);
    footer(cr, r, W, H);
    return BE_OK;
}

int figure_speed_ratio(const results *r, const fit_set *fs, wl_mode mode, const char *base,
                       err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0};
    return chart_render(base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_ratio, &x, e);
}

/* ---- 3. winner map ----------------------------------------------------- */

/* Diverging colour of a ratio: white at 1, blue where the other device is
 * faster, vermillion where the base is, full at |log10 q| ≥ cap. */
static chart_rgb ratio_color(double q, double cap)
{
    static const chart_rgb white = {1, 1, 1};
    double t = fmin(fabs(log10(q)) / cap, 1.0);
    return chart_mix(white, chart_oi_rgb(q >= 1 ? CHART_BLUE : CHART_VERMILLION), t);
}

static double luminance(chart_rgb c)
{
    return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

/* The column position (0 = first batch's centre) of a batch between the
 * measured ones, interpolated in log(batch). */
static double batch_pos(const grid *g, double batch)
{
    int j;
    if (g->nb < 2 || batch <= g->b[0])
        return 0;
    for (j = 0; j + 1 < g->nb; j++)
        if (batch <= g->b[j + 1])
            return j + log(batch / g->b[j]) / log((double)g->b[j + 1] / g->b[j]);
    return g->nb - 1;
}

/* What a winner-map cell shows: its colour, and its label ("" for none). */
static chart_rgb cell(const fig_ctx *x, const char *bid, const char *oid, int hidden, int batch,
                      double cap, char *label, size_t size)
{
    const results *r = x->r;
    const rs_point *pb = find_point(r, bid, x->mode, hidden, batch);
    const rs_point *po = find_point(r, oid, x->mode, hidden, batch);
    double q = ratio_at(r, bid, oid, x->mode, hidden, batch, FIT_RESIDENT);
    chart_rgb unmeasured = {0.93, 0.93, 0.93}, failed = {0.80, 0.80, 0.80};
    label[0] = '\0';
    if (q > 0) {
        chart_num(q, label, size);
        return ratio_color(q, cap);
    }
    if ((pb && pb->status == PT_OUT_OF_MEMORY) || (po && po->status == PT_OUT_OF_MEMORY)) {
        snprintf(label, size, "OOM");
        return failed;
    }
    if ((pb && pb->status == PT_FAILED_VERIFICATION) ||
        (po && po->status == PT_FAILED_VERIFICATION)) {
        snprintf(label, size, "fail");
        return failed;
    }
    return unmeasured;
}

static void draw_panel(cairo_t *cr, const fig_ctx *x, const grid *g, int bd, int od, double cap,
                       double px, double py, double pw, double ph)
{
    const results *r = x->r;
    const char *bid = r->devices[bd].id, *oid = r->devices[od].id;
    const fit_crossover *c = find_cross(x->fs, bid, oid, x->mode, FIT_RESIDENT);
    double cw = pw / g->nb, ch = ph / g->nh, fs = fmin(11.0, fmin(cw / 3.4, ch * 0.5));
    double prevx = NAN, prevy = NAN;
    char buf[512], cut[512];
    int hi, bi, i;

    figure_device_label(&r->devices[od], buf, sizeof buf);
    chart_font(cr, 12.5, 1);
    chart_fit_text(cr, buf, pw, cut, sizeof cut);
    chart_text(cr, px, py - 8, CHART_LEFT, CHART_BASELINE, ink, cut);
    for (hi = 0; hi < g->nh; hi++)
        for (bi = 0; bi < g->nb; bi++) {
            /* Hidden widths grow upwards, like a y axis. */
            chart_rgb fill = cell(x, bid, oid, g->h[hi], g->b[bi], cap, buf, sizeof buf);
            cairo_rectangle(cr, px + bi * cw, py + (g->nh - 1 - hi) * ch, cw, ch);
            cairo_set_source_rgb(cr, fill.r, fill.g, fill.b);
            cairo_fill_preserve(cr);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_set_line_width(cr, 1.0);
            cairo_stroke(cr);
        }
    chart_font(cr, 10.5, 0);
    for (hi = 0; hi < g->nh; hi++) {
        snprintf(buf, sizeof buf, "%d", g->h[hi]);
        chart_text(cr, px - 6, py + (g->nh - 1 - hi + 0.5) * ch, CHART_RIGHT, CHART_MIDDLE, ink,
                   buf);
    }
    /* Label every batch while they fit, else every other one (or fewer). */
    for (bi = 0, i = 1; bi < g->nb; bi++) {
        snprintf(buf, sizeof buf, "%d", g->b[bi]);
        if (chart_text_width(cr, buf) + 4 > cw * i)
            i++;
    }
    for (bi = 0; bi < g->nb; bi += i) {
        snprintf(buf, sizeof buf, "%d", g->b[bi]);
        chart_text(cr, px + (bi + 0.5) * cw, py + ph + 15, CHART_CENTER, CHART_BASELINE, ink,
                   buf);
    }
    for (i = 0; c && i < c->nhidden && i < LIST_MAX; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        double mx, my;
        for (hi = 0; hi < g->nh && g->h[hi] != h->hidden; hi++)
            ;
        if (hi == g->nh || h->kind != CROSS_IN_RANGE || !(h->batch > 0)) {
            prevx = prevy = NAN;
            continue;
        }
        mx = px + (batch_pos(g, h->batch) + 0.5) * cw;
        my = py + (g->nh - 1 - hi + 0.5) * ch;
        if (!isnan(prevx)) {
            cairo_save(cr);
            cairo_move_to(cr, prevx, prevy);
            cairo_line_to(cr, mx, my);
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, 2.0);
            cairo_stroke(cr);
            cairo_restore(cr);
        }
        chart_marker(cr, CHART_DIAMOND, mx, my, 5.5, chart_oi_rgb(CHART_BLACK), 0);
        prevx = mx;
        prevy = my;
    }
    /* The values last, each on a patch of its cell's colour, so that the
     * crossover line passes behind them instead of through them.  In tall
     * cells they sit below the centre line, where the markers are. */
    if (fs < 6.5)
        return;
    chart_font(cr, fs, 0);
    for (hi = 0; hi < g->nh; hi++)
        for (bi = 0; bi < g->nb; bi++) {
            chart_rgb fill = cell(x, bid, oid, g->h[hi], g->b[bi], cap, buf, sizeof buf);
            chart_rgb tc = {0.1, 0.1, 0.1};
            double tx = px + (bi + 0.5) * cw;
            double ty = py + (g->nh - 1 - hi + 0.5) * ch + (ch > 4 * fs ? 1.3 * fs : 0);
            double tw;
            if (!buf[0])
                continue;
            tw = chart_text_width(cr, buf);
            cairo_rectangle(cr, tx - tw / 2 - 3, ty - fs * 0.7, tw + 6, fs * 1.4);
            cairo_set_source_rgb(cr, fill.r, fill.g, fill.b);
            cairo_fill(cr);
            if (luminance(fill) < 0.45)
                tc.r = tc.g = tc.b = 1.0;
            chart_text(cr, tx, ty, CHART_CENTER, CHART_MIDDLE, tc, buf);
        }
}

static void color_bar(cairo_t *cr, double x, double y, double h, double cap)
{
    double ticks[64], q;
    char buf[32];
    int n = 0, i, steps = 64;
    chart_font(cr, 11.5, 1);
    chart_text(cr, x, y - 8, CHART_LEFT, CHART_BASELINE, ink, "Speed ratio");
    /* The first and last steps are the full colours (q = 10^±cap). */
    for (i = 0; i < steps; i++) {
        chart_rgb c;
        q = pow(10.0, cap * (1 - 2.0 * i / (steps - 1)));
        c = ratio_color(q, cap);
        cairo_rectangle(cr, x, y + h * i / steps, 16, h / steps + 0.5);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_fill(cr);
    }
    cairo_rectangle(cr, x, y, 16, h);
    cairo_set_source_rgb(cr, muted.r, muted.g, muted.b);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    chart_font(cr, 10.5, 0);
    if (chart_ticks_log(pow(10, -cap), pow(10, cap), ticks, 64, &n) != BE_OK)
        n = 0;
    if (n < 5) {
        int m = 0, j;
        double minor[64];
        if (chart_ticks_log_minor(pow(10, -cap), pow(10, cap), minor, 64, &m) == BE_OK)
            for (j = 0; j < m && n < 64; j++)
                ticks[n++] = minor[j];
    }
    for (i = 0; i < n; i++) {
        double ty = y + h * (cap - log10(ticks[i])) / (2 * cap);
        chart_num(ticks[i], buf, sizeof buf);
        cairo_move_to(cr, x + 16, ty);
        cairo_line_to(cr, x + 20, ty);
        cairo_set_source_rgb(cr, muted.r, muted.g, muted.b);
        cairo_stroke(cr);
        chart_text(cr, x + 23, ty, CHART_LEFT, CHART_MIDDLE, ink, buf);
    }
    chart_font(cr, 10.5, 0);
    chart_text(cr, x, y + h + 16, CHART_LEFT, CHART_BASELINE, muted, "> 1: other faster");
    chart_text(cr, x, y + h + 30, CHART_LEFT, CHART_BASELINE, muted, "< 1: base faster");
}

static int draw_winner(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    const fig_ctx *x = vctx;
    const results *r = x->r;
    int bd = figure_base_device(r), d, hi, bi, np = 0, others[MAX_PANELS], nother = 0, i;
    int any_cross = 0, use[64] = {0};
    char title[256], sub[1024], note[256], buf[512];
    double cap = 0, top, px, pw, ph, gap = 28, left;
    grid g;

    (void)e;
    snprintf(title, sizeof title, "Who wins at each shape (%s)", mode_title(x->mode));
    if (r->ndevices < 1) {
        empty_chart(cr, r, W, H, title, "No device in the results: nothing to compare.");
        return BE_OK;
    }
    grid_make(r, x->mode, &g);
    for (d = 0; d < r->ndevices && d < 64; d++) {
        if (d == bd || !device_has_mode(r, r->devices[d].id, x->mode))
            continue;
        nother++;
        if (np < MAX_PANELS) {
            others[np++] = d;
            use[d] = 1;
        }
    }
    for (i = 0; i < np; i++)
        for (hi = 0; hi < g.nh; hi++)
            for (bi = 0; bi < g.nb; bi++) {
                double q = ratio_at(r, r->devices[bd].id, r->devices[others[i]].id, x->mode,
                                    g.h[hi], g.b[bi], FIT_RESIDENT);
                if (q > 0)
                    cap = fmax(cap, fabs(log10(q)));
            }
    if (np == 0 || g.nh == 0 || g.nb == 0) {
        figure_device_label(&r->devices[bd], buf, sizeof buf);
        snprintf(sub, sizeof sub, "Only one device was measured: %s. "
                 "There is nothing to compare it with.", buf);
        empty_chart(cr, r, W, H, title, sub);
        return BE_OK;
    }
    /* The colour scale spans the data, but at least 2× (so that noise
     * around 1 stays pale) and at most 100× (so that moderate wins still
     * show). */
    cap = fmin(fmax(cap, log10(2.0)), 2.0);
    for (i = 0; i < np; i++)
        any_cross |= find_cross(x->fs, r->devices[bd].id, r->devices[others[i]].id, x->mode,
                                FIT_RESIDENT) != NULL;
    use[bd] = 1;
    status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub, "Base time / other time (resident) against %s; rows: hidden width, "
             "columns: batch%s%s%s", r->devices[bd].id,
             any_cross ? "; \xe2\x97\x86 = crossover batch per hidden width" : "",
             nother > np ? "; more devices than panels: the first 3 shown" : "", note);
    top = chart_title(cr, W, title, sub);

    left = 20 + 16 + 12 + 44;
    pw = (W - left - 140 - (np - 1) * (gap + 50)) / np;
    ph = H - top - 30 - 70;
    for (i = 0; i < np; i++) {
        px = left + i * (pw + gap + 50);
        draw_panel(cr, x, &g, bd, others[i], cap, px, top + 30, pw, ph);
        chart_font(cr, 13, 0);
        chart_text(cr, px + pw / 2, top + 30 + ph + 36, CHART_CENTER, CHART_BASELINE, ink,
                   "Batch size");
        cairo_save(cr);
        cairo_translate(cr, px - 48, top + 30 + ph / 2);
        cairo_rotate(cr, -3.14159265358979323846 / 2);
        chart_text(cr, 0, 0, CHART_CENTER, CHART_BASELINE, ink, "Hidden width");
        cairo_restore(cr);
    }
    color_bar(cr, W - 118, top + 30, fmin(ph, 260), cap);
    footer(cr, r, W, H);
    return BE_OK;
}

int figure_winner_map(const results *r, const fit_set *fs, wl_mode mode, const char *base, err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0};
    return chart_render(base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_winner, &x, e);
}

/* ---- 4 and 5. relative time and cost ----------------------------------- */

static double price_of(const fit_prices *p, const char *dev)
{
    int i;
    if (!p)
        return -1;
    for (i = 0; i < p->n && i < FIT_MAX_PRICES; i++)
        if (strcmp(p->device[i], dev) == 0)
            return p->usd_per_hour[i];
    return -1;
}

#define MAXROWS 64

typedef struct bar_row {
    char label[256];
    char detail[256];   /* a second, grey line: the device's type and name */
    int group;          /* 1: a group heading (a shape), no bar            */
    int device;         /* index in r->devices                             */
    int transfer;
    double value;       /* relative time or cost; NaN: no bar (see why)    */
    char why[64];
} bar_row;

typedef struct bar_set {
    int n;
    bar_row rows[MAXROWS];
    char sub[1024];
    char empty[512];    /* non-empty: nothing to draw, and why             */
} bar_set;

static bar_row *row_add(bar_set *s)
{
    bar_row *w;
    if (s->n >= MAXROWS)
        return NULL;
    w = &s->rows[s->n++];
    memset(w, 0, sizeof *w);
    w->value = NAN;
    return w;
}

/* A bar's label: the device id, its type and name on a second line. */
static void row_device(bar_row *w, const results *r, int d, int transfer)
{
    char full[512];
    size_t n = strlen(r->devices[d].id);
    figure_device_label(&r->devices[d], full, sizeof full);
    snprintf(w->label, sizeof w->label, "%s%s", r->devices[d].id,
             transfer ? " with transfer" : "");
    snprintf(w->detail, sizeof w->detail, "%s", transfer ? "" : full + n + (full[n] == ' '));
    w->device = d;
    w->transfer = transfer;
}

static const char *status_why(const rs_point *p)
{
    if (!p)
        return "not measured";
    if (p->status == PT_OUT_OF_MEMORY)
        return "out of memory";
    if (p->status == PT_FAILED_VERIFICATION)
        return "failed verification";
    if (p->status == PT_SKIPPED)
        return "skipped";
    return "no time";
}

/* Builds the bars of the relative time (x->cost = 0) or cost chart. */
static void bars_make(const fig_ctx *x, bar_set *s)
{
    const results *r = x->r;
    int bd = figure_base_device(r), d, hi, bi, k, in[64] = {0}, nshape = 0;
    const char *bid;
    double pb = 1, tb = 0, scale[64];
    char noprice[256] = "", what[32];
    grid g;

    memset(s, 0, sizeof *s);
    if (r->ndevices < 1) {
        snprintf(s->empty, sizeof s->empty, "No device in the results: nothing to compare.");
        return;
    }
    bid = r->devices[bd].id;
    if (x->cost)
        pb = price_of(x->prices, bid);
    for (d = 0; d < r->ndevices && d < 64; d++) {
        double p = x->cost ? price_of(x->prices, r->devices[d].id) : 1;
        if (!device_has_mode(r, r->devices[d].id, x->mode))
            continue;
        if (!(p >= 0)) {
            size_t n = strlen(noprice);
            snprintf(noprice + n, sizeof noprice - n, "%s%s", n ? ", " : "", r->devices[d].id);
            continue;
        }
        in[d] = 1;
        scale[d] = p / pb;
    }
    if (!in[bd]) {
        snprintf(s->empty, sizeof s->empty, "The base device %s has no %s point.", bid,
                 mode_title(x->mode));
        return;
    }
    snprintf(what, sizeof what, "%s", x->cost ? "cost" : "time");
    if (x->nshapes == 0) {
        /* The total over every shape that all devices completed. */
        double tot[64] = {0}, tott[64] = {0};
        int tr_all[64];
        for (d = 0; d < 64; d++)
            tr_all[d] = 1;
        grid_make(r, x->mode, &g);
        for (hi = 0; hi < g.nh; hi++)
            for (bi = 0; bi < g.nb; bi++) {
                int all = 1;
                for (d = 0; d < r->ndevices && d < 64 && all; d++) {
                    const rs_point *p = find_point(r, r->devices[d].id, x->mode, g.h[hi], g.b[bi]);
                    if (in[d] && !(p && speed_ok(p)))
                        all = 0;
                }
                if (!all)
                    continue;
                nshape++;
                for (d = 0; d < r->ndevices && d < 64; d++) {
                    const rs_point *p = find_point(r, r->devices[d].id, x->mode, g.h[hi], g.b[bi]);
                    if (!in[d])
                        continue;
                    tot[d] += p->resident.median;
                    if (transfer_ok(p))
                        tott[d] += p->transfer.median;
                    else
                        tr_all[d] = 0;
                }
            }
        if (nshape == 0) {
            snprintf(s->empty, sizeof s->empty, "No %s shape was completed by every device.",
                     mode_title(x->mode));
            return;
        }
        tb = tot[bd];
        for (k = 0; k < 2; k++)
            for (d = 0; d < r->ndevices && d < 64; d++) {
                bar_row *w;
                /* The base first, then the others in their order. */
                if (!in[d] || (k == 0) != (d == bd))
                    continue;
                if ((w = row_add(s))) {
                    row_device(w, r, d, 0);
                    w->value = tot[d] / tb * scale[d];
                }
                if (tr_all[d] && d != bd && (w = row_add(s))) {
                    row_device(w, r, d, 1);
                    w->value = tott[d] / tb * scale[d];
                }
            }
        snprintf(s->sub, sizeof s->sub, "Total %s of a step over the %d %s shape%s every device "
                 "completed, relative to %s \xe2\x80\x94 lower is better", what, nshape,
                 mode_title(x->mode), nshape > 1 ? "s" : "", bid);
    } else {
        for (k = 0; k < x->nshapes && k < FIGURE_MAX_SHAPES; k++) {
            const figure_shape *sh = &x->shapes[k];
            const rs_point *base = find_point(r, bid, x->mode, sh->hidden, sh->batch);
            bar_row *w = row_add(s);
            char fl[32];
            if (!w)
                break;
            w->group = 1;
            chart_si(workload_flops_per_layer(x->mode, sh->hidden, sh->batch), fl, sizeof fl);
            snprintf(w->label, sizeof w->label, "hidden %d \xc3\x97 batch %d (%s FLOP/layer)",
                     sh->hidden, sh->batch, fl);
            for (d = 0; d < r->ndevices && d < 64; d++) {
                const rs_point *p;
                if (!in[d])
                    continue;
                p = find_point(r, r->devices[d].id, x->mode, sh->hidden, sh->batch);
                if (!(w = row_add(s)))
                    break;
                row_device(w, r, d, 0);
                if (!base || !speed_ok(base))
                    snprintf(w->why, sizeof w->why, "base %s: %s", bid, status_why(base));
                else if (!p || !speed_ok(p))
                    snprintf(w->why, sizeof w->why, "%s", status_why(p));
                else
                    w->value = p->resident.median / base->resident.median * scale[d];
                if (d != bd && p && transfer_ok(p) && base && speed_ok(base) &&
                    (w = row_add(s))) {
                    row_device(w, r, d, 1);
                    w->value = p->transfer.median / base->resident.median * scale[d];
                }
            }
        }
        snprintf(s->sub, sizeof s->sub, "%s of a step at each shape relative to %s "
                 "\xe2\x80\x94 lower is better", x->cost ? "Cost" : "Time", bid);
    }
    if (x->cost) {
        size_t n = strlen(s->sub);
        snprintf(s->sub + n, sizeof s->sub - n, "; cost = time \xc3\x97 USD/hour%s%s",
                 noprice[0] ? "; no price, not shown: " : "", noprice);
    }
}

static int draw_bars(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    const fig_ctx *x = vctx;
    const results *r = x->r;
    bar_set *s = malloc(sizeof *s);
    chart_frame f;
    char title[256], buf[512], axis[256];
    double labw = 0, hmax = 0, top, rowh, y;
    int i, bd = figure_base_device(r);

    if (!s)
        return err_set(e, BE_EFAIL, "out of memory laying out a bar chart");
    bars_make(x, s);
    snprintf(title, sizeof title, "%s relative to the base device (%s)",
             x->cost ? "Cost per step" : "Step time", mode_title(x->mode));
    if (s->empty[0]) {
        empty_chart(cr, r, W, H, title, s->empty);
        free(s);
        return BE_OK;
    }
    top = chart_title(cr, W, title, s->sub);
    for (i = 0; i < s->n; i++) {
        if (!s->rows[i].group) {
            chart_font(cr, 11.5, 0);
            chart_fit_text(cr, s->rows[i].label, 340, buf, sizeof buf);
            labw = fmax(labw, chart_text_width(cr, buf));
            chart_font(cr, 10, 0);
            chart_fit_text(cr, s->rows[i].detail, 340, buf, sizeof buf);
            labw = fmax(labw, chart_text_width(cr, buf));
        }
        if (isfinite(s->rows[i].value))
            hmax = fmax(hmax, s->rows[i].value);
    }
    memset(&f, 0, sizeof f);
    f.xa.scale = CHART_LINEAR;
    snprintf(axis, sizeof axis, "%s relative to %s (lower is better)",
             x->cost ? "Cost per step" : "Step time", r->devices[bd].id);
    f.xa.label = axis;
    chart_axis_fit(&f.xa, 0, fmax(hmax * 1.12, 1.1));
    f.ya.scale = CHART_LINEAR;
    f.ya.lo = 0;
    f.ya.hi = 1;
    f.x = 20 + labw + 12;
    f.y = top + 12;
    f.w = W - f.x - 40;
    f.h = H - f.y - 72;
    rowh = fmin(40, f.h / (s->n > 0 ? s->n : 1));
    f.ya.bare = 1;
    chart_axes(cr, &f);
    y = f.y + (f.h - rowh * s->n) / 2;
    for (i = 0; i < s->n; i++, y += rowh) {
        const bar_row *w = &s->rows[i];
        double cy = y + rowh / 2;
        chart_rgb c = device_color(w->device);
        if (w->group) {
            chart_font(cr, 12, 1);
            chart_text(cr, f.x + 6, cy + 2, CHART_LEFT, CHART_MIDDLE, ink, w->label);
            continue;
        }
        chart_font(cr, 11.5, 0);
        chart_fit_text(cr, w->label, 340, buf, sizeof buf);
        if (w->detail[0] && rowh >= 26) {
            chart_text(cr, f.x - 8, cy - 6.5, CHART_RIGHT, CHART_MIDDLE, ink, buf);
            chart_font(cr, 10, 0);
            chart_fit_text(cr, w->detail, 340, buf, sizeof buf);
            chart_text(cr, f.x - 8, cy + 7.5, CHART_RIGHT, CHART_MIDDLE, muted, buf);
            chart_font(cr, 11.5, 0);
        } else {
            chart_text(cr, f.x - 8, cy, CHART_RIGHT, CHART_MIDDLE, ink, buf);
        }
        if (isfinite(w->value)) {
            double x1 = chart_px(&f, w->value);
            if (w->transfer)
                c = chart_mix(c, (chart_rgb){1, 1, 1}, 0.45);
            cairo_rectangle(cr, f.x, cy - rowh * 0.32, x1 - f.x, rowh * 0.64);
            cairo_set_source_rgb(cr, c.r, c.g, c.b);
            cairo_fill(cr);
            snprintf(buf, sizeof buf, "%.2f\xc3\x97", w->value);
            if (w->value < 0.1 && w->value > 0)
                snprintf(buf, sizeof buf, "%.3f\xc3\x97", w->value);
            chart_text(cr, x1 + 5, cy, CHART_LEFT, CHART_MIDDLE, ink, buf);
        } else {
            chart_font(cr, 11, 0);
            chart_text(cr, f.x + 6, cy, CHART_LEFT, CHART_MIDDLE, muted, w->why);
        }
    }
    chart_vline(cr, &f, 1.0, ink, 1.5, CHART_DOTTED);
    footer(cr, r, W, H);
    free(s);
    return BE_OK;
}

int figure_relative_time(const results *r, wl_mode mode, const figure_shape *shapes, int nshapes,
                         const char *base, err *e)
{
    fig_ctx x = {r, NULL, NULL, mode, shapes, nshapes, 0};
    if (nshapes < 0 || nshapes > FIGURE_MAX_SHAPES || (nshapes > 0 && !shapes))
        return err_set(e, BE_EUSAGE, "figure_relative_time: %d shapes (at most %d)", nshapes,
                       FIGURE_MAX_SHAPES);
    return chart_render(base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_bars, &x, e);
}

int figure_cost(const results *r, const fit_prices *prices, wl_mode mode,
                const figure_shape *shapes, int nshapes, const char *base, err *e)
{
    fig_ctx x = {r, NULL, prices, mode, shapes, nshapes, 1};
    const char *bid = r->ndevices > 0 ? r->devices[figure_base_device(r)].id : "(none)";
    if (nshapes < 0 || nshapes > FIGURE_MAX_SHAPES || (nshapes > 0 && !shapes))
        return err_set(e, BE_EUSAGE, "figure_cost: %d shapes (at most %d)", nshapes,
                       FIGURE_MAX_SHAPES);
    if (!(price_of(prices, bid) > 0))
        return err_set(e, BE_EUSAGE, "figure_cost: no price for the base device %s "
                       "(give its USD per hour, e.g. %s=0.12)", bid, bid);
    return chart_render(base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_bars, &x, e);
}
