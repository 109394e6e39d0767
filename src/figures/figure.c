/*
 * figure.c — breakeven's charts (figure.h), drawn with chart.c: the
 * conventions they all share (figure_impl.h).
 *
 * The report answers "from what size on does the other device win?" in
 * words; these charts let a reader check that answer against the
 * measurements: the throughput curves it was fitted from (the Apple
 * Silicon post's chart), the speed ratio with its crossing of 1, a map of
 * who wins at every measured shape, and the cloud posts' relative time and
 * cost bars.  Every chart reads the results model through query.h and, for
 * fitted curves, the fit_set as given (possibly empty): it never fits
 * anything itself, so what is drawn is what the report states.  Each chart
 * is a drawing function over a small context, run by chart_render once for
 * the PNG and once for the SVG; the layout is computed inside the drawing
 * function because it depends on measured text widths.
 */
#define _POSIX_C_SOURCE 200809L
#include "figure_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "query.h"

const chart_rgb figure_ink = {0.13, 0.13, 0.13};
const chart_rgb figure_muted = {0.38, 0.38, 0.38};
const chart_rgb figure_neutral = {0.45, 0.45, 0.45};

/* ---- reading the model ----------------------------------------------- */

void figure_device_label(const results *r, int d, char *buf, size_t size)
{
    q_device_name(r, r->devices[d].id, buf, size);
    if (q_handicap(r, d)) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, " on old kernels");
    }
}

int figure_layers(const results *r)
{
    int i;
    if (r->prov.layers > 0)
        return r->prov.layers;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].layers > 0)
            return r->points[i].layers;
    return 0;
}

void figure_status_note(const results *r, wl_mode mode, const int *use, char *buf, size_t size)
{
    int i, oom = 0, bad = 0;
    buf[0] = '\0';
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int d = q_device_index(r, p->device);
        if (p->mode != mode || p->net[0] || (use && (d < 0 || d >= FIG_MAX_DEVICES || !use[d])))
            continue;
        oom += p->status == PT_OUT_OF_MEMORY;
        bad += p->status == PT_FAILED_VERIFICATION;
    }
    if (oom)
        fmt_append(buf, size, "; %d out-of-memory point%s left as gaps", oom, oom > 1 ? "s" : "");
    if (bad)
        fmt_append(buf, size, "; %d point%s failed verification (not plotted)", bad,
                   bad > 1 ? "s" : "");
}

const fit_model *figure_model(const fit_set *fs, const char *dev, wl_mode mode, fit_view v)
{
    const fit_model *m = q_model(fs, dev, mode, v);
    return q_model_sound(m) ? m : NULL;
}

double figure_model_time(const fit_model *m, double f)
{
    return m->t0 + f / m->P;
}

double figure_ratio_at(const results *r, const char *bdev, const char *odev, wl_mode mode,
                       int hidden, int batch, fit_view v)
{
    const rs_point *pb = q_point(r, bdev, mode, hidden, batch);
    const rs_point *po = q_point(r, odev, mode, hidden, batch);
    if (!q_ok(pb) || !q_ok_view(po, v))
        return NAN;
    return pb->resident.median / q_median(po, v);
}

int figure_cross_has_point(const fit_crossover *c)
{
    /* an extrapolated crossover lies where nothing was measured: not drawn */
    return c && c->kind == CROSS_IN_RANGE && c->flops > 0 && isfinite(c->flops);
}

int figure_cross_has_ci(const fit_crossover *c)
{
    return c->ci_lo > 0 && c->ci_hi > c->ci_lo && isfinite(c->ci_hi);
}

void figure_cross_text(const results *r, const fit_crossover *c, char *buf, size_t size)
{
    char f[32], lo[32], hi[32], other[256], base[256];
    fmt_si(f, sizeof f, c->flops, 3, NULL);
    q_device_name(r, c->other, other, sizeof other);
    q_device_name(r, c->base, base, sizeof base);
    if (figure_cross_has_ci(c)) {
        fmt_si(lo, sizeof lo, c->ci_lo, 3, NULL);
        fmt_si(hi, sizeof hi, c->ci_hi, 3, NULL);
        snprintf(buf, size,
                 "%s crosses %s at %s FLOP/layer, median of widths (95%% CI "
                 "%s\xe2\x80\x93%s)%s",
                 other, base, f, lo, hi, c->kind == CROSS_EXTRAPOLATED ? ", extrapolated" : "");
    } else {
        snprintf(buf, size, "%s crosses %s at %s FLOP/layer, median of widths%s", other, base, f,
                 c->kind == CROSS_EXTRAPOLATED ? " (extrapolated)" : "");
    }
}

void figure_draw_cross(cairo_t *cr, const chart_frame *f, const fit_crossover *c, chart_rgb col,
                       chart_dash dash, double *label_end)
{
    char buf[32];
    double x, w;
    if (!figure_cross_has_point(c))
        return;
    chart_clip(cr, f);
    if (figure_cross_has_ci(c))
        chart_vband(cr, f, c->ci_lo, c->ci_hi, col, 0.13);
    chart_vline(cr, f, c->flops, col, 1.8, dash);
    cairo_restore(cr);
    x = chart_px(f, c->flops);
    if (x >= f->x && x <= f->x + f->w) {
        fmt_si(buf, sizeof buf, c->flops, 3, NULL);
        chart_font(cr, 11, 1);
        w = chart_text_width(cr, buf);
        /* a label that would overprint the previous one is left to the
         * legend, which gives every value */
        if (x - w / 2 < *label_end + 4)
            return;
        chart_text(cr, x, f->y - 4, CHART_CENTER, CHART_BASELINE, col, buf);
        *label_end = x + w / 2;
    }
}

/* ---- shared layout --------------------------------------------------- */

void figure_footer(cairo_t *cr, const results *r, double W, double H)
{
    char what[32];
    int layers = figure_layers(r);
    snprintf(what, sizeof what, "%d layer%s", layers, layers == 1 ? "" : "s");
    figure_footer_of(cr, r, what, W, H);
}

void figure_footer_of(cairo_t *cr, const results *r, const char *what, double W, double H)
{
    char buf[768], lines[2][CHART_LINE];
    double m = chart_margin(W);
    int i, n;
    snprintf(buf, sizeof buf, "breakeven%s%s", r->prov.version[0] ? " " : "", r->prov.version);
    if (q_machine_name(r)[0])
        fmt_append(buf, sizeof buf, " \xc2\xb7 %s", q_machine_name(r));
    if (r->prov.started[0])
        fmt_append(buf, sizeof buf, " \xc2\xb7 %s", r->prov.started);
    fmt_append(buf, sizeof buf, " \xc2\xb7 %s%s%s", what,
               r->partial ? " \xc2\xb7 PARTIAL RUN (not every point was measured)" : "",
               q_caveats(r) & Q_CAVEAT_SYNTHETIC ? " \xc2\xb7 SYNTHETIC DEVICE (not measured)"
                                                 : "");
    chart_font(cr, 11, 0);
    n = chart_wrap(cr, buf, W - 2 * m, lines, FIG_NARROW(W) ? 2 : 1);
    for (i = 0; i < n; i++)
        chart_text(cr, m, H - 10 - 14 * (n - 1 - i), CHART_LEFT, CHART_BASELINE, figure_muted,
                   lines[i]);
}

double figure_layout(cairo_t *cr, double W, double H, double top, const chart_key *keys, int nkeys,
                     chart_frame *f, fig_legend *lg)
{
    double lw = 0, lh = 0, m = chart_margin(W);
    if (FIG_NARROW(W)) {
        /* The plot over the whole width, the legend under its axis title. */
        lg->x = m;
        lg->w = W - 2 * m;
        if (nkeys > 0)
            chart_legend_size(cr, keys, nkeys, lg->w, &lw, &lh);
        f->x = m + 32 + chart_ytick_width(cr, &f->ya);
        f->y = top + 12;
        f->w = W - f->x - m - 6;
        f->h = 0.8 * W;
        lg->y = f->y + f->h + 58;
        return lg->y + lh + FIG_FOOTER_H(W) + 4;
    }
    lg->w = FIG_LEGEND_W;
    if (nkeys > 0)
        chart_legend_size(cr, keys, nkeys, lg->w, &lw, &lh);
    f->x = 20 + 16 + 12 + chart_ytick_width(cr, &f->ya) + 8;
    f->y = top + 12;
    f->h = H - f->y - 72;
    f->w = W - f->x - (nkeys > 0 ? lw + 44 : 24);
    lg->x = f->x + f->w + 24;
    lg->y = f->y;
    return H;
}

double figure_loglog(cairo_t *cr, double W, double H, const char *title, const char *sub,
                     const fig_loglog *a, const chart_key *keys, int nkeys, chart_frame *f,
                     fig_legend *lg)
{
    double top = chart_title(cr, W, title, sub), need;
    memset(f, 0, sizeof *f);
    f->xa.scale = f->ya.scale = CHART_LOG;
    f->xa.si = a->xsi;
    f->ya.si = a->ysi;
    f->xa.label = a->xlabel;
    f->ya.label = a->ylabel;
    chart_axis_fit(&f->xa, a->xlo, a->xhi);
    chart_axis_fit(&f->ya, a->ylo, a->yhi);
    need = figure_layout(cr, W, H, top + 8, keys, nkeys, f, lg);
    if (H > 0)
        chart_axes(cr, f);
    return need;
}

void figure_empty(cairo_t *cr, fig_ctx *x, double W, double H, const char *title, const char *why)
{
    char lines[6][CHART_LINE];
    double top = chart_title(cr, W, title, "");
    int i, n;
    chart_font(cr, 15, 0);
    n = chart_wrap(cr, why, W - (FIG_NARROW(W) ? 2 * chart_margin(W) : 160), lines, 6);
    if (H <= 0) {
        x->need_h = FIG_NARROW(W) ? top + 40 + 22 * n + FIG_FOOTER_H(W) : FIGURE_HEIGHT;
        return;
    }
    for (i = 0; i < n; i++)
        chart_text(cr, W / 2, (top + H) / 2 + (i - (n - 1) / 2.0) * 22, CHART_CENTER, CHART_MIDDLE,
                   figure_muted, lines[i]);
    figure_footer(cr, x->r, W, H);
}

int figure_render(fig_ctx *x, const char *root, const char *base, chart_draw_fn draw, int fit_wide,
                  err *e)
{
    char nb[4096];
    double h = FIGURE_HEIGHT;
    int rc;
    if (snprintf(nb, sizeof nb, "%s" FIGURE_NARROW_SUFFIX, base) >= (int)sizeof nb)
        return err_set(e, BE_EUSAGE, "%s: path too long", base);
    if (fit_wide) {
        x->need_h = 0;
        if ((rc = chart_measure(FIGURE_WIDTH, draw, x, e)) < 0)
            return rc;
        h = x->need_h > 0 ? ceil(x->need_h) : FIGURE_HEIGHT;
    }
    if ((rc = chart_render(root, base, FIGURE_WIDTH, h, FIGURE_SCALE, draw, x, e)) < 0)
        return rc;
    x->need_h = 0;
    if ((rc = chart_measure(FIGURE_NARROW_WIDTH, draw, x, e)) < 0)
        return rc;
    h = x->need_h > 0 ? ceil(x->need_h) : FIGURE_NARROW_WIDTH;
    return chart_render(root, nb, FIGURE_NARROW_WIDTH, h, FIGURE_NARROW_SCALE, draw, x, e);
}

int figure_render_fit(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, chart_draw_fn draw, err *e)
{
    fig_ctx x = {r, fs, NULL, mode, NULL, 0, 0, 0};
    return figure_render(&x, root, base, draw, 0, e);
}

void *figure_add(void *rows, int *n, int max, size_t size)
{
    unsigned char *w;
    if (*n >= max)
        return NULL;
    w = (unsigned char *)rows + (size_t)(*n)++ * size;
    memset(w, 0, size);
    return w;
}

void figure_key(chart_key *keys, int *n, chart_key_kind kind, const char *label, chart_rgb c,
                int shape, int hollow, chart_dash dash)
{
    chart_key *k = figure_add(keys, n, FIG_MAX_KEYS, sizeof *keys);
    if (!k)
        return;
    k->kind = kind;
    snprintf(k->label, sizeof k->label, "%s", label);
    k->color = c;
    k->shape = shape;
    k->hollow = hollow;
    k->dash = dash;
}

void figure_bar_frame(chart_frame *f, double W, double labw, double top)
{
    double m = chart_margin(W);
    int narrow = FIG_NARROW(W);
    f->ya.scale = CHART_LINEAR;
    f->ya.lo = 0;
    f->ya.hi = 1;
    f->ya.bare = 1;
    f->x = narrow ? m : m + labw + 12;
    f->y = top + 12;
    f->w = W - f->x - (narrow ? m + 4 : 40);
}
