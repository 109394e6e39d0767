/*
 * figure_bars.c — the cloud posts' charts (figure.h, charts 4 and 5): step
 * time and cost per step relative to the base device, as horizontal bars,
 * over the shapes every device completed (q_completed) or at chosen shapes.
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

#define MAXROWS 64

typedef struct bar_row {
    char label[256];
    char detail[256]; /* a second, grey line: the device's type and name */
    int group;        /* 1: a group heading (a shape), no bar            */
    int device;       /* index in r->devices                             */
    int transfer;
    double value;   /* relative time or cost; NaN: no bar (see why)    */
    char money[96]; /* the cost chart's USD per million samples        */
    char why[64];
} bar_row;

typedef struct bar_set {
    int n;
    bar_row rows[MAXROWS];
    char sub[1024];
    char empty[512]; /* non-empty: nothing to draw, and why             */
} bar_set;

static bar_row *row_add(bar_set *s)
{
    bar_row *w = figure_add(s->rows, &s->n, MAXROWS, sizeof *w);
    if (w)
        w->value = NAN;
    return w;
}

/* A bar's label: the device's name, its id on a second line (after which
 * its price per hour on the cost chart), tying it to the tables. */
static void row_device(bar_row *w, const fig_ctx *x, int d, int transfer)
{
    const results *r = x->r;
    char name[256], price[48] = "";
    figure_device_label(r, d, name, sizeof name);
    if (x->cost) {
        snprintf(price, sizeof price, " \xc2\xb7 ");
        fmt_usd(price + strlen(price), sizeof price - strlen(price),
                q_price(x->prices, r->devices[d].id), 3);
        fmt_append(price, sizeof price, "/h");
    }
    snprintf(w->label, sizeof w->label, "%s%s", name, transfer ? " with transfers" : "");
    if (transfer)
        w->detail[0] = '\0';
    else
        snprintf(w->detail, sizeof w->detail, "%s%s", r->devices[d].id, price);
    w->device = d;
    w->transfer = transfer;
}

/* On the cost chart, the money of a bar: t seconds of device d's steps
 * over `samples` samples, in USD per million samples. */
static void row_money(bar_row *w, const fig_ctx *x, int d, double t, double samples)
{
    char usd[48];
    if (!x->cost || !(samples > 0))
        return;
    fmt_usd(usd, sizeof usd, t * q_price(x->prices, x->r->devices[d].id) / 3600.0 / samples * 1e6,
            2);
    snprintf(w->money, sizeof w->money, "%s/M samples", usd);
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
    if (p->status == PT_FAILED)
        return "failed";
    return "no time";
}

/* The devices of the chart (in[]), each one's price relative to the
 * base's (1 for time), and the ids of those left out for want of a price.
 * 0 when the chart has nothing to draw, with s->empty saying why. */
static int bars_devices(const fig_ctx *x, bar_set *s, int *in, double *scale, char *noprice,
                        size_t size)
{
    const results *r = x->r;
    int bd = q_base(r), d;
    double pb = x->cost ? q_price(x->prices, q_base_id(r)) : 1.0;

    if (r->ndevices < 1 || r->ndevices > FIG_MAX_DEVICES) {
        snprintf(s->empty, sizeof s->empty,
                 r->ndevices < 1 ? "No device in the results: "
                                   "nothing to compare."
                                 : "More devices than one chart can tell apart.");
        return 0;
    }
    q_compared(r, x->mode, x->cost ? x->prices : NULL, in);
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        if (in[d])
            scale[d] = x->cost ? q_price(x->prices, id) / pb : 1.0;
        else if (q_has_mode(r, id, x->mode))
            fmt_append(noprice, size, "%s%s", noprice[0] ? ", " : "", id);
    }
    if (!in[bd]) {
        snprintf(s->empty, sizeof s->empty, "The base device %s has no %s point.", q_base_id(r),
                 workload_mode_name(x->mode));
        return 0;
    }
    return 1;
}

/* One bar per device (and one with transfers where every shape has them)
 * for the total over the shapes every device of the chart completed. */
static void bars_total(const fig_ctx *x, bar_set *s, const int *in, const double *scale)
{
    const results *r = x->r;
    int bd = q_base(r), d, k, n;
    double tb, samples = 0;
    q_shape done[Q_MAX_SHAPES];
    char bname[256];

    n = q_completed(r, x->mode, in, done, Q_MAX_SHAPES);
    if (n == 0) {
        snprintf(s->empty, sizeof s->empty, "No %s shape was completed by every device.",
                 workload_mode_name(x->mode));
        return;
    }
    tb = q_total(r, q_base_id(r), x->mode, done, n, FIT_RESIDENT, NULL);
    for (k = 0; k < n; k++)
        samples += done[k].batch;
    for (k = 0; k < 2; k++)
        for (d = 0; d < r->ndevices; d++) {
            const char *id = r->devices[d].id;
            double tt;
            int partial = 0;
            bar_row *w;
            /* The base first, then the others in their order. */
            if (!in[d] || (k == 0) != (d == bd))
                continue;
            if ((w = row_add(s))) {
                double t = q_total(r, id, x->mode, done, n, FIT_RESIDENT, NULL);
                row_device(w, x, d, 0);
                w->value = t / tb * scale[d];
                row_money(w, x, d, t, samples);
            }
            tt = q_total(r, id, x->mode, done, n, FIT_TRANSFER, &partial);
            if (!partial && d != bd && (w = row_add(s))) {
                row_device(w, x, d, 1);
                w->value = tt / tb * scale[d];
                row_money(w, x, d, tt, samples);
            }
        }
    figure_device_label(r, bd, bname, sizeof bname);
    snprintf(s->sub, sizeof s->sub,
             "Total %s of a step over the %d %s shape%s every device "
             "completed, relative to %s \xe2\x80\x94 lower is better%s",
             x->cost ? "cost" : "time", n, workload_mode_name(x->mode), n > 1 ? "s" : "", bname,
             x->cost ? "; in USD per million samples over one step of each" : "");
}

/* Bars grouped by the shapes asked for; a device without a usable point
 * at a shape gets the reason instead of a bar. */
static void bars_shapes(const fig_ctx *x, bar_set *s, const int *in, const double *scale)
{
    const results *r = x->r;
    const char *bid = q_base_id(r);
    int bd = q_base(r), d, k;
    char bname[256];

    figure_device_label(r, bd, bname, sizeof bname);
    for (k = 0; k < x->nshapes && k < FIGURE_MAX_SHAPES; k++) {
        const figure_shape *sh = &x->shapes[k];
        const rs_point *base = q_point(r, bid, x->mode, sh->hidden, sh->batch);
        bar_row *w = row_add(s);
        char fl[32];
        if (!w)
            break;
        w->group = 1;
        fmt_si(fl, sizeof fl, workload_flops_per_layer(x->mode, sh->hidden, sh->batch), 3, NULL);
        snprintf(w->label, sizeof w->label, "hidden %d \xc3\x97 batch %d (%s FLOP/layer)",
                 sh->hidden, sh->batch, fl);
        for (d = 0; d < r->ndevices; d++) {
            const rs_point *p;
            if (!in[d])
                continue;
            p = q_point(r, r->devices[d].id, x->mode, sh->hidden, sh->batch);
            if (!(w = row_add(s)))
                break;
            row_device(w, x, d, 0);
            if (!q_ok(base))
                snprintf(w->why, sizeof w->why, "base %s: %s", bname, status_why(base));
            else if (!q_ok(p))
                snprintf(w->why, sizeof w->why, "%s", status_why(p));
            else {
                w->value = p->resident.median / base->resident.median * scale[d];
                row_money(w, x, d, p->resident.median, sh->batch);
            }
            if (d != bd && q_ok_view(p, FIT_TRANSFER) && q_ok(base) && (w = row_add(s))) {
                row_device(w, x, d, 1);
                w->value = p->transfer.median / base->resident.median * scale[d];
                row_money(w, x, d, p->transfer.median, sh->batch);
            }
        }
    }
    snprintf(s->sub, sizeof s->sub,
             "%s of a step at each shape relative to %s "
             "\xe2\x80\x94 lower is better",
             x->cost ? "Cost" : "Time", bname);
}

/* Builds the bars of the relative time (x->cost = 0) or cost chart. */
static void bars_make(const fig_ctx *x, bar_set *s)
{
    int in[FIG_MAX_DEVICES];
    double scale[FIG_MAX_DEVICES];
    char noprice[256] = "";

    memset(s, 0, sizeof *s);
    if (!bars_devices(x, s, in, scale, noprice, sizeof noprice))
        return;
    if (x->nshapes == 0)
        bars_total(x, s, in, scale);
    else
        bars_shapes(x, s, in, scale);
    if (x->cost)
        fmt_append(s->sub, sizeof s->sub, "; cost = time \xc3\x97 USD per hour%s%s",
                   noprice[0] ? "; no price, not shown: " : "", noprice);
}

/* The vertical layout of the bars: each row's top and height, in order
 * under the frame's top edge.  Wide: the label left of its bar, 40 units
 * a row (30 without a second line); narrow: the label over its bar. */
static double bars_rows(const bar_set *s, int narrow, double *ry, double *rh, double y)
{
    int i, detail = 0;
    for (i = 0; i < s->n; i++)
        detail |= s->rows[i].detail[0] != '\0';
    for (i = 0; i < s->n; i++) {
        const bar_row *w = &s->rows[i];
        ry[i] = y;
        if (w->group)
            rh[i] = narrow ? 26 : 30;
        else if (narrow)
            rh[i] = (w->detail[0] ? 60 : 46) + (w->money[0] ? 16 : 0);
        else
            rh[i] = detail ? 40 : 30;
        y += rh[i];
    }
    return y;
}

/* A bar's value: "12.1×", and its money on the cost chart (on a wide
 * canvas; a narrow one shows it under the bar). */
static void bar_value(const bar_row *w, int narrow, char *buf, size_t size)
{
    if (w->value < 0.1 && w->value > 0)
        snprintf(buf, size, "%.3f\xc3\x97", w->value);
    else
        snprintf(buf, size, "%.2f\xc3\x97", w->value);
    if (w->money[0] && !narrow)
        fmt_append(buf, size, " \xc2\xb7 %s", w->money);
}

/* Text over the grid lines of a narrow bar chart, on a patch of white. */
static void text_on_white(cairo_t *cr, double x, double y, chart_rgb c, const char *s)
{
    double w = chart_text_width(cr, s);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_rectangle(cr, x - 2, y - fe.ascent, w + 4, fe.ascent + fe.descent);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);
    chart_text(cr, x, y, CHART_LEFT, CHART_BASELINE, c, s);
}

/* The widest label of a wide chart (a narrow one puts its labels over
 * their bars), and the longest bar. */
static void bars_extent(cairo_t *cr, const bar_set *s, int narrow, double labmax, double *labw,
                        double *hmax)
{
    char buf[512];
    int i;
    *labw = *hmax = 0;
    for (i = 0; i < s->n; i++) {
        if (!s->rows[i].group && !narrow) {
            chart_font(cr, 11.5, 0);
            chart_fit_text(cr, s->rows[i].label, labmax, buf, sizeof buf);
            *labw = fmax(*labw, chart_text_width(cr, buf));
            chart_font(cr, 11, 0);
            chart_fit_text(cr, s->rows[i].detail, labmax, buf, sizeof buf);
            *labw = fmax(*labw, chart_text_width(cr, buf));
        }
        if (isfinite(s->rows[i].value))
            *hmax = fmax(*hmax, s->rows[i].value);
    }
}

/* A group heading in its row (top ry, height rh): the shape of the bars
 * under it. */
static void bar_group(cairo_t *cr, const bar_row *w, const chart_frame *f, double ry, double rh)
{
    char buf[512];
    chart_font(cr, 12, 1);
    chart_fit_text(cr, w->label, f->w - 12, buf, sizeof buf);
    chart_text(cr, f->x + 6, ry + rh / 2 + 2, CHART_LEFT, CHART_MIDDLE, figure_ink, buf);
}

/* A bar's label in its row (top ry, height rh): left of the bar on a wide
 * chart, over it (with its money) on a narrow one.  *cy and *bh: where the
 * bar goes, its middle and its height. */
static void bar_label(cairo_t *cr, const bar_row *w, const chart_frame *f, double ry, double rh,
                      int narrow, double labmax, double *cy, double *bh)
{
    char buf[512];
    chart_font(cr, 11.5, 0);
    chart_fit_text(cr, w->label, labmax - (narrow ? 12 : 0), buf, sizeof buf);
    if (narrow) {
        /* The label and its second line over the bar. */
        text_on_white(cr, f->x + 6, ry + 14, figure_ink, buf);
        if (w->detail[0]) {
            chart_font(cr, 11, 0);
            chart_fit_text(cr, w->detail, f->w - 12, buf, sizeof buf);
            text_on_white(cr, f->x + 6, ry + 28, figure_muted, buf);
        }
        *cy = ry + rh - 14 - (w->money[0] ? 16 : 0);
        *bh = 18;
        if (w->money[0]) {
            chart_font(cr, 11, 0);
            text_on_white(cr, f->x + 6, *cy + 24, figure_muted, w->money);
        }
    } else {
        *cy = ry + rh / 2;
        *bh = rh * 0.64;
        if (w->detail[0]) {
            chart_text(cr, f->x - 8, *cy - 6.5, CHART_RIGHT, CHART_MIDDLE, figure_ink, buf);
            chart_font(cr, 11, 0);
            chart_fit_text(cr, w->detail, labmax, buf, sizeof buf);
            chart_text(cr, f->x - 8, *cy + 7.5, CHART_RIGHT, CHART_MIDDLE, figure_muted, buf);
        } else {
            chart_text(cr, f->x - 8, *cy, CHART_RIGHT, CHART_MIDDLE, figure_ink, buf);
        }
    }
}

/* The bar of w, bh high around cy, with its value; or why it has none. */
static void bar_draw(cairo_t *cr, const bar_row *w, const chart_frame *f, double cy, double bh,
                     int narrow)
{
    chart_rgb c = chart_series(w->device);
    char buf[512];
    chart_font(cr, 11.5, 0);
    if (isfinite(w->value)) {
        double x1 = chart_px(f, w->value), tw;
        if (w->transfer)
            c = chart_mix(c, (chart_rgb){1, 1, 1}, 0.45);
        cairo_rectangle(cr, f->x, cy - bh / 2, x1 - f->x, bh);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_fill(cr);
        bar_value(w, narrow, buf, sizeof buf);
        tw = chart_text_width(cr, buf);
        /* Beside the bar's end, or inside it when that would run past
         * the frame (in white where the bar is dark enough). */
        if (x1 + 5 + tw <= f->x + f->w - 2 || x1 - 5 - tw < f->x + 2)
            chart_text(cr, x1 + 5, cy, CHART_LEFT, CHART_MIDDLE, figure_ink, buf);
        else
            chart_text(cr, x1 - 5, cy, CHART_RIGHT, CHART_MIDDLE,
                       w->transfer ? figure_ink : (chart_rgb){1, 1, 1}, buf);
    } else {
        chart_font(cr, 11, 0);
        chart_text(cr, f->x + 6, cy, CHART_LEFT, CHART_MIDDLE, figure_muted, w->why);
    }
}

static int draw_bars(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    fig_ctx *x = vctx;
    const results *r = x->r;
    bar_set *s = malloc(sizeof *s);
    chart_frame f;
    char title[256], axis[512], bname[256];
    double labw, hmax, top, ry[MAXROWS], rh[MAXROWS], bottom, m = chart_margin(W);
    double labmax = FIG_NARROW(W) ? W - 2 * m : 340;
    int i, bd = q_base(r), narrow = FIG_NARROW(W);

    if (!s)
        return err_set(e, BE_EFAIL, "out of memory laying out a bar chart");
    bars_make(x, s);
    /* one device for every bar, even where stacks have bases of their own */
    figure_device_label(r, bd, bname, sizeof bname);
    snprintf(title, sizeof title, "%s relative to %s (%s)", x->cost ? "Cost per step" : "Step time",
             q_single_base(r) ? "the base device" : bname, workload_mode_name(x->mode));
    if (s->empty[0]) {
        figure_empty(cr, x, W, H, title, s->empty);
        free(s);
        return BE_OK;
    }
    top = chart_title(cr, W, title, s->sub);
    bars_extent(cr, s, narrow, labmax, &labw, &hmax);
    memset(&f, 0, sizeof f);
    f.xa.scale = CHART_LINEAR;
    snprintf(axis, sizeof axis, "%s relative to %s (lower is better)",
             x->cost ? "Cost per step" : "Step time", bname);
    f.xa.label = axis;
    chart_axis_fit(&f.xa, 0, fmax(hmax * 1.12, 1.1));
    figure_bar_frame(&f, W, labw, top);
    bottom = bars_rows(s, narrow, ry, rh, f.y + 6);
    f.h = bottom + 6 - f.y;
    if (H <= 0) {
        x->need_h = f.y + f.h + 50 + FIG_FOOTER_H(W);
        free(s);
        return BE_OK;
    }
    chart_axes(cr, &f);
    /* The line at 1 behind the labels of a narrow chart, over the bars of
     * a wide one. */
    if (narrow)
        chart_vline(cr, &f, 1.0, figure_ink, 1.5, CHART_DOTTED);
    for (i = 0; i < s->n; i++) {
        double cy, bh;
        if (s->rows[i].group) {
            bar_group(cr, &s->rows[i], &f, ry[i], rh[i]);
            continue;
        }
        bar_label(cr, &s->rows[i], &f, ry[i], rh[i], narrow, labmax, &cy, &bh);
        bar_draw(cr, &s->rows[i], &f, cy, bh, narrow);
    }
    if (!narrow)
        chart_vline(cr, &f, 1.0, figure_ink, 1.5, CHART_DOTTED);
    figure_footer(cr, r, W, H);
    free(s);
    return BE_OK;
}

/* Checks the shapes asked for and renders the bars. */
static int render_bars(fig_ctx *x, const char *what, const char *root, const char *base, err *e)
{
    if (x->nshapes < 0 || x->nshapes > FIGURE_MAX_SHAPES || (x->nshapes > 0 && !x->shapes))
        return err_set(e, BE_EUSAGE, "%s: %d shapes (at most %d)", what, x->nshapes,
                       FIGURE_MAX_SHAPES);
    return figure_render(x, root, base, draw_bars, 1, e);
}

int figure_relative_time(const results *r, wl_mode mode, const figure_shape *shapes, int nshapes,
                         const char *root, const char *base, err *e)
{
    fig_ctx x = {r, NULL, NULL, mode, shapes, nshapes, 0, 0};
    return render_bars(&x, "figure_relative_time", root, base, e);
}

int figure_cost(const results *r, const fit_prices *prices, wl_mode mode,
                const figure_shape *shapes, int nshapes, const char *root, const char *base, err *e)
{
    fig_ctx x = {r, NULL, prices, mode, shapes, nshapes, 1, 0};
    const char *bid = r->ndevices > 0 ? q_base_id(r) : "(none)";
    if (!(q_price(prices, bid) > 0))
        return err_set(e, BE_EUSAGE,
                       "figure_cost: no price for the base device %s "
                       "(give its USD per hour, e.g. %s=0.12)",
                       bid, bid);
    return render_bars(&x, "figure_cost", root, base, e);
}
