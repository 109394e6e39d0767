/*
 * figure_compare.c — the change chart of a comparison (figure.h, chart 8):
 * the ratio B/A of every point that two runs share, against FLOPs per
 * layer, with the comparison's noise band.
 *
 * What the points and their verdicts are is compare.h's business (the
 * analysis); this file only draws a compare_set, as report_compare.c lays
 * out its page.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "compare.h"
#include "figure.h"
#include "workload.h"

#define MAX_SERIES 16

typedef struct series {
    char model[256];
    wl_mode mode;
} series;

static int series_of(series *sv, int *n, const compare_point *c)
{
    int i;
    for (i = 0; i < *n; i++)
        if (sv[i].mode == c->mode && strcmp(sv[i].model, c->model) == 0)
            return i;
    if (*n == MAX_SERIES)
        return MAX_SERIES - 1;
    snprintf(sv[*n].model, sizeof sv[*n].model, "%s", c->model);
    sv[*n].mode = c->mode;
    return (*n)++;
}

/* The change chart's ctx: the comparison, and the height a narrow
 * drawing needs (reported when it is called with a height of 0). */
typedef struct change_ctx {
    const compare_set *s;
    double need_h;
} change_ctx;

/* The legend: one marker per series, and what a hollow one means;
 * returns how many keys. */
static int change_keys(const series *sv, int ns, chart_key *keys)
{
    static const chart_rgb grey = {0.45, 0.45, 0.45};
    int i, nkeys = 0;
    for (i = 0; i < ns; i++) {
        chart_key *k = &keys[nkeys++];
        memset(k, 0, sizeof *k);
        k->kind = CHART_KEY_MARKER;
        snprintf(k->label, sizeof k->label, "%.100s, %s", sv[i].model,
                 workload_mode_name(sv[i].mode));
        k->color = chart_series(i);
        k->shape = i % CHART_NSHAPES;
    }
    memset(&keys[nkeys], 0, sizeof keys[nkeys]);
    keys[nkeys].kind = CHART_KEY_MARKER;
    snprintf(keys[nkeys].label, sizeof keys[nkeys].label, "hollow: not a change on its own");
    keys[nkeys].color = grey;
    keys[nkeys].hollow = 1;
    keys[nkeys].shape = CHART_CIRCLE;
    return nkeys + 1;
}

/* Every point measured in both runs at its FLOPs and ratio, filled when
 * it is a change on its own. */
static void change_points(cairo_t *cr, const chart_frame *f, const compare_set *s, series *sv,
                          int *ns)
{
    int i;
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        int k;
        if (c->verdict == CMP_MISSING)
            continue;
        k = series_of(sv, ns, c);
        chart_marker(cr, (chart_shape)(k % CHART_NSHAPES), chart_px(f, c->flops),
                     chart_py(f, c->ratio), 6.0, chart_series(k),
                     c->verdict != CMP_SLOWER && c->verdict != CMP_FASTER);
    }
}

static int draw_change(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    change_ctx *x = vctx;
    const compare_set *s = x->s;
    static const chart_rgb ink = {0.13, 0.13, 0.13}, grey = {0.45, 0.45, 0.45};
    series sv[MAX_SERIES];
    chart_key keys[MAX_SERIES + 4];
    chart_frame f;
    char sub[600], sum[300];
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, top, lw, lh, xs[2], lo[2], hi[2];
    double m = chart_margin(W), legw = W < CHART_NARROW ? W - 2 * m : 300.0;
    int i, ns = 0, nkeys = 0;

    (void)e;
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        if (c->verdict == CMP_MISSING)
            continue;
        series_of(sv, &ns, c);
        xlo = fmin(xlo, c->flops);
        xhi = fmax(xhi, c->flops);
        ylo = fmin(ylo, c->ratio);
        yhi = fmax(yhi, c->ratio);
    }
    compare_summary(s, sum, sizeof sum);
    snprintf(sub, sizeof sub,
             "Step time of B / A at the same shape (10th percentiles): below 1 B is faster. "
             "A = %s, B = %s. %s.",
             s->id_a, s->id_b, sum);
    top = chart_title(cr, W, "What changed between the two runs", sub);
    if (H <= 0 && ns == 0)
        x->need_h = top + 80;
    if (ns == 0) {
        chart_font(cr, 16, 0);
        chart_fit_text(cr, "No point was measured successfully in both runs.", W - 2 * m, sum,
                       sizeof sum);
        chart_text(cr, W / 2, H / 2, CHART_CENTER, CHART_MIDDLE, ink, sum);
        return BE_OK;
    }
    ylo = fmin(ylo, 1.0 / (s->opts.threshold * s->opts.threshold));
    yhi = fmax(yhi, s->opts.threshold * s->opts.threshold);
    nkeys = change_keys(sv, ns, keys);
    chart_legend_size(cr, keys, nkeys, legw, &lw, &lh);

    memset(&f, 0, sizeof f);
    f.xa.scale = CHART_LOG;
    f.xa.si = 1;
    f.xa.label = "FLOPs per layer";
    f.ya.scale = CHART_LOG;
    f.ya.label = "time B / time A";
    chart_axis_fit(&f.xa, xlo, xhi);
    chart_axis_fit(&f.ya, ylo, yhi);
    f.x = 30 + chart_ytick_width(cr, &f.ya) + 20;
    f.y = top + 10;
    f.w = W - f.x - lw - 50;
    f.h = H - f.y - 70;
    if (W < CHART_NARROW) {
        /* on a phone: the plot over the whole width, the legend under it */
        f.x = m + 32 + chart_ytick_width(cr, &f.ya);
        f.w = W - f.x - m - 6;
        f.h = 0.8 * W;
        if (H <= 0) {
            x->need_h = f.y + f.h + 58 + lh + 16;
            return BE_OK;
        }
    }
    xs[0] = f.xa.lo;
    xs[1] = f.xa.hi;
    lo[0] = lo[1] = 1.0 / s->opts.threshold;
    hi[0] = hi[1] = s->opts.threshold;
    chart_band(cr, &f, xs, lo, hi, 2, grey, 0.15);
    chart_axes(cr, &f);
    chart_hline(cr, &f, 1.0, ink, 1.5, CHART_DOTTED);
    chart_clip(cr, &f);
    change_points(cr, &f, s, sv, &ns);
    cairo_restore(cr);
    if (W < CHART_NARROW)
        chart_legend(cr, m, f.y + f.h + 58, keys, nkeys, legw);
    else
        chart_legend(cr, f.x + f.w + 30, f.y, keys, nkeys, legw);
    return BE_OK;
}

int figure_compare(const compare_set *s, const char *root, const char *base, err *e)
{
    change_ctx x = {s, 0};
    char nb[4096];
    int rc;
    if ((rc = chart_render(root, base, FIGURE_WIDTH, FIGURE_HEIGHT, FIGURE_SCALE, draw_change, &x,
                           e)) < 0)
        return rc;
    if (snprintf(nb, sizeof nb, "%s" FIGURE_NARROW_SUFFIX, base) >= (int)sizeof nb)
        return err_set(e, BE_EUSAGE, "%s: path too long", base);
    if ((rc = chart_measure(FIGURE_NARROW_WIDTH, draw_change, &x, e)) < 0)
        return rc;
    return chart_render(root, nb, FIGURE_NARROW_WIDTH,
                        x.need_h > 0 ? ceil(x.need_h) : FIGURE_NARROW_WIDTH, FIGURE_NARROW_SCALE,
                        draw_change, &x, e);
}
