/*
 * figure_map.c — the winner map (figure.h, chart 3): who wins at each
 * measured hidden width and batch size, as a heatmap of the speed ratio
 * with the per-hidden crossover batches drawn over it.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure_impl.h"
#include "fmt.h"
#include "query.h"
#include "workload.h"

#define MAX_PANELS 3 /* other devices shown side by side */

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
static double batch_pos(const q_grid *g, double batch)
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
    const rs_point *pb = q_point(r, bid, x->mode, hidden, batch);
    const rs_point *po = q_point(r, oid, x->mode, hidden, batch);
    double q = figure_ratio_at(r, bid, oid, x->mode, hidden, batch, FIT_RESIDENT);
    chart_rgb unmeasured = {0.93, 0.93, 0.93}, failed = {0.80, 0.80, 0.80};
    label[0] = '\0';
    if (q > 0) {
        fmt_num(label, size, q);
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

/* One panel of the map: base against one other device, at px, py, pw × ph,
 * cells cw × ch. */
typedef struct panel {
    const fig_ctx *x;
    const q_grid *g;
    const char *bid, *oid;
    const fit_crossover *c; /* of oid against bid, or NULL */
    double cap;             /* of ratio_color */
    double px, py, pw, ph, cw, ch;
} panel;

/* The cells, coloured by their ratio; hidden widths grow upwards, like a
 * y axis. */
static void panel_cells(cairo_t *cr, const panel *pn)
{
    const q_grid *g = pn->g;
    char buf[512];
    int hi, bi;
    for (hi = 0; hi < g->nh; hi++)
        for (bi = 0; bi < g->nb; bi++) {
            chart_rgb fill =
                cell(pn->x, pn->bid, pn->oid, g->h[hi], g->b[bi], pn->cap, buf, sizeof buf);
            cairo_rectangle(cr, pn->px + bi * pn->cw, pn->py + (g->nh - 1 - hi) * pn->ch, pn->cw,
                            pn->ch);
            cairo_set_source_rgb(cr, fill.r, fill.g, fill.b);
            cairo_fill_preserve(cr);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_set_line_width(cr, 1.0);
            cairo_stroke(cr);
        }
}

/* The hidden widths left of the rows, the batch sizes under the columns. */
static void panel_labels(cairo_t *cr, const panel *pn)
{
    const q_grid *g = pn->g;
    char buf[512];
    int hi, bi, step;
    chart_font(cr, 11, 0);
    for (hi = 0; hi < g->nh; hi++) {
        snprintf(buf, sizeof buf, "%d", g->h[hi]);
        chart_text(cr, pn->px - 6, pn->py + (g->nh - 1 - hi + 0.5) * pn->ch, CHART_RIGHT,
                   CHART_MIDDLE, figure_ink, buf);
    }
    /* Label every batch while they fit, else every other one (or fewer). */
    for (bi = 0, step = 1; bi < g->nb; bi++) {
        snprintf(buf, sizeof buf, "%d", g->b[bi]);
        if (chart_text_width(cr, buf) + 4 > pn->cw * step)
            step++;
    }
    for (bi = 0; bi < g->nb; bi += step) {
        snprintf(buf, sizeof buf, "%d", g->b[bi]);
        chart_text(cr, pn->px + (bi + 0.5) * pn->cw, pn->py + pn->ph + 15, CHART_CENTER,
                   CHART_BASELINE, figure_ink, buf);
    }
}

#define DIAMOND 8.0                  /* a crossover's ◆ with its outline (chart_marker's size) */
#define DIAMOND_HALF (1.2 * DIAMOND) /* its half-height */
#define BAND_GAP 4.0                 /* between the values' band and the ◆'s */
#define VALUE_FS 11.0

/* 1 when pn's rows are tall enough for a band of values over a band of
 * crossovers: a value's patch (1.4 of its size), a gap and a ◆. */
static int banded(const panel *pn)
{
    return pn->ch >= 1.4 * VALUE_FS + BAND_GAP + 2 * DIAMOND_HALF;
}

/* The y of the ◆ of row hi: on its centre line, or low in a banded row,
 * under the values, so that it never covers one. */
static double cross_y(const panel *pn, int hi)
{
    double top = pn->py + (pn->g->nh - 1 - hi) * pn->ch;
    return banded(pn) ? top + pn->ch - DIAMOND_HALF - 1 : top + pn->ch / 2;
}

/* The values, each on a patch of its cell's colour and only where it fits
 * its cell at a legible size (the table has every value), so that no
 * label overprints another.  In banded rows they sit above the ◆'s band;
 * in rows too short for bands, a value is left out where a ◆ of the same
 * row would cover it. */
static void panel_values(cairo_t *cr, const panel *pn)
{
    const q_grid *g = pn->g;
    const fit_crossover *c = pn->c;
    double cw = pn->cw, ch = pn->ch, fs = VALUE_FS, dx[LIST_MAX];
    char buf[512];
    int hi, bi, i, band = banded(pn);

    /* where each row's ◆ will be */
    for (hi = 0; hi < g->nh && hi < LIST_MAX; hi++)
        dx[hi] = NAN;
    for (i = 0; c && i < c->nhidden && i < LIST_MAX; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        for (hi = 0; hi < g->nh && g->h[hi] != h->hidden; hi++)
            ;
        if (hi < g->nh && hi < LIST_MAX && h->kind == CROSS_IN_RANGE && h->batch > 0)
            dx[hi] = pn->px + (batch_pos(g, h->batch) + 0.5) * cw;
    }
    chart_font(cr, fs, 0);
    for (hi = 0; hi < g->nh; hi++)
        for (bi = 0; bi < g->nb; bi++) {
            chart_rgb fill =
                cell(pn->x, pn->bid, pn->oid, g->h[hi], g->b[bi], pn->cap, buf, sizeof buf);
            chart_rgb tc = {0.1, 0.1, 0.1};
            double top = pn->py + (g->nh - 1 - hi) * ch, tx = pn->px + (bi + 0.5) * cw;
            double ty = band ? top + (ch - 2 * DIAMOND_HALF - BAND_GAP) / 2 : top + ch / 2;
            double tw;
            if (!buf[0] || fs * 1.3 > ch)
                continue;
            tw = chart_text_width(cr, buf);
            if (tw + 4 > cw || (hi < LIST_MAX && !band && fabs(tx - dx[hi]) < tw / 2 + 10))
                continue;
            cairo_rectangle(cr, tx - tw / 2 - 2, ty - fs * 0.7, tw + 4, fs * 1.4);
            cairo_set_source_rgb(cr, fill.r, fill.g, fill.b);
            cairo_fill(cr);
            if (luminance(fill) < 0.45)
                tc.r = tc.g = tc.b = 1.0;
            chart_text(cr, tx, ty, CHART_CENTER, CHART_MIDDLE, tc, buf);
        }
}

/* The crossovers: the lines joining them row to row where they follow one
 * another (markers 0, drawn before the values, whose patches cover them),
 * or each ◆ outlined in white so that it shows on any cell (markers 1,
 * last). */
static void panel_crossovers(cairo_t *cr, const panel *pn, int markers)
{
    const q_grid *g = pn->g;
    const fit_crossover *c = pn->c;
    double prevx = NAN, prevy = NAN;
    int hi, i;
    for (i = 0; c && i < c->nhidden && i < LIST_MAX; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        double mx, my;
        for (hi = 0; hi < g->nh && g->h[hi] != h->hidden; hi++)
            ;
        if (hi == g->nh || h->kind != CROSS_IN_RANGE || !(h->batch > 0)) {
            prevx = prevy = NAN;
            continue;
        }
        mx = pn->px + (batch_pos(g, h->batch) + 0.5) * pn->cw;
        my = cross_y(pn, hi);
        if (!markers && !isnan(prevx)) {
            cairo_save(cr);
            cairo_move_to(cr, prevx, prevy);
            cairo_line_to(cr, mx, my);
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, 2.0);
            cairo_stroke(cr);
            cairo_restore(cr);
        }
        if (markers) {
            chart_marker(cr, CHART_DIAMOND, mx, my, DIAMOND, (chart_rgb){1.0, 1.0, 1.0}, 0);
            chart_marker(cr, CHART_DIAMOND, mx, my, DIAMOND - 2, chart_oi_rgb(CHART_BLACK), 0);
        }
        prevx = mx;
        prevy = my;
    }
}

/* The panel of device od against the base bd: its title, cells, labels,
 * the lines between crossovers, values, and the ◆ last, on top. */
static void draw_panel(cairo_t *cr, const fig_ctx *x, const q_grid *g, int bd, int od, double cap,
                       double px, double py, double pw, double ph)
{
    const results *r = x->r;
    panel pn;
    char buf[512], cut[512];

    pn.x = x;
    pn.g = g;
    pn.bid = r->devices[bd].id;
    pn.oid = r->devices[od].id;
    pn.c = q_cross(x->fs, pn.bid, pn.oid, x->mode, FIT_RESIDENT, 0);
    pn.cap = cap;
    pn.px = px;
    pn.py = py;
    pn.pw = pw;
    pn.ph = ph;
    pn.cw = pw / g->nb;
    pn.ch = ph / g->nh;
    /* where stacks have bases of their own, the panel names its own, by
     * the ids, which fit over a panel where the names would be cut */
    if (q_single_base(r))
        figure_device_label(r, od, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s against %s", pn.oid, pn.bid);
    chart_font(cr, 12.5, 1);
    chart_fit_text(cr, buf, pw, cut, sizeof cut);
    chart_text(cr, px, py - 8, CHART_LEFT, CHART_BASELINE, figure_ink, cut);
    panel_cells(cr, &pn);
    panel_labels(cr, &pn);
    panel_crossovers(cr, &pn, 0);
    panel_values(cr, &pn);
    panel_crossovers(cr, &pn, 1);
}

static void color_bar(cairo_t *cr, double x, double y, double h, double cap)
{
    double ticks[64], q;
    char buf[32];
    int n = 0, i, steps = 64;
    chart_font(cr, 11.5, 1);
    chart_text(cr, x, y - 8, CHART_LEFT, CHART_BASELINE, figure_ink, "Speed ratio");
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
    cairo_set_source_rgb(cr, figure_muted.r, figure_muted.g, figure_muted.b);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    chart_font(cr, 11, 0);
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
        fmt_num(buf, sizeof buf, ticks[i]);
        cairo_move_to(cr, x + 16, ty);
        cairo_line_to(cr, x + 20, ty);
        cairo_set_source_rgb(cr, figure_muted.r, figure_muted.g, figure_muted.b);
        cairo_stroke(cr);
        chart_text(cr, x + 23, ty, CHART_LEFT, CHART_MIDDLE, figure_ink, buf);
    }
    chart_font(cr, 11, 0);
    chart_text(cr, x, y + h + 16, CHART_LEFT, CHART_BASELINE, figure_muted, "> 1: other faster");
    chart_text(cr, x, y + h + 30, CHART_LEFT, CHART_BASELINE, figure_muted, "< 1: base faster");
}

/* One panel with its axis titles, the cells at (px, py), pw × ph. */
static void winner_panel(cairo_t *cr, const fig_ctx *x, const q_grid *g, int bd, int od, double cap,
                         double px, double py, double pw, double ph)
{
    draw_panel(cr, x, g, bd, od, cap, px, py, pw, ph);
    chart_font(cr, 13, 0);
    chart_text(cr, px + pw / 2, py + ph + 36, CHART_CENTER, CHART_BASELINE, figure_ink,
               "Batch size");
    cairo_save(cr);
    cairo_translate(cr, px - 48, py + ph / 2);
    cairo_rotate(cr, -3.14159265358979323846 / 2);
    chart_text(cr, 0, 0, CHART_CENTER, CHART_BASELINE, figure_ink, "Hidden width");
    cairo_restore(cr);
}

static int draw_winner(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    fig_ctx *x = vctx;
    const results *r = x->r;
    int bd = q_base(r), d, hi, bi, np = 0, others[MAX_PANELS], nother = 0, i;
    int any_cross = 0, use[FIG_MAX_DEVICES] = {0};
    char title[256], sub[1024], note[256], buf[512];
    double cap = 0, top, pw, ph, gap = 28, left;
    q_grid g;

    (void)e;
    snprintf(title, sizeof title, "Who wins at each shape (%s)", workload_mode_name(x->mode));
    if (r->ndevices < 1) {
        figure_empty(cr, x, W, H, title, "No device in the results: nothing to compare.");
        return BE_OK;
    }
    q_grid_make(r, x->mode, &g);
    for (d = 0; d < r->ndevices && d < FIG_MAX_DEVICES; d++) {
        if (d == bd || !q_has_mode(r, r->devices[d].id, x->mode))
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
                double q = figure_ratio_at(r, r->devices[q_base_for(r, others[i])].id,
                                           r->devices[others[i]].id, x->mode, g.h[hi], g.b[bi],
                                           FIT_RESIDENT);
                if (q > 0)
                    cap = fmax(cap, fabs(log10(q)));
            }
    if (np == 0 || g.nh == 0 || g.nb == 0) {
        figure_device_label(r, bd, buf, sizeof buf);
        snprintf(sub, sizeof sub,
                 "Only one device was measured: %s. "
                 "There is nothing to compare it with.",
                 buf);
        figure_empty(cr, x, W, H, title, sub);
        return BE_OK;
    }
    /* The colour scale spans the data, but at least 2× (so that noise
     * around 1 stays pale) and at most 100× (so that moderate wins still
     * show). */
    cap = fmin(fmax(cap, log10(2.0)), 2.0);
    for (i = 0; i < np; i++)
        any_cross |= q_cross(x->fs, r->devices[q_base_for(r, others[i])].id,
                             r->devices[others[i]].id, x->mode, FIT_RESIDENT, 0) != NULL;
    use[bd] = 1;
    figure_status_note(r, x->mode, use, note, sizeof note);
    snprintf(sub, sizeof sub,
             "Base time / other time (resident) against %s; rows: hidden width, "
             "columns: batch%s%s%s",
             q_single_base(r) ? r->devices[bd].id : "each panel's base",
             any_cross ? "; \xe2\x97\x86 = crossover batch per hidden width" : "",
             nother > np ? "; more devices than panels: the first 3 shown" : "", note);
    top = chart_title(cr, W, title, sub);
    if (FIG_NARROW(W)) {
        /* The panels one under the other, the colour scale under them. */
        double step;
        left = chart_margin(W) + 60;
        pw = W - left - chart_margin(W);
        /* rows tall enough for a band of values over one of ◆ (banded) */
        ph = fmin(fmax(g.nh * 44.0, 84.0), 440.0);
        step = ph + 80;
        if (H <= 0) {
            x->need_h = top + 30 + np * step + 140 + FIG_FOOTER_H(W);
            return BE_OK;
        }
        for (i = 0; i < np; i++)
            winner_panel(cr, x, &g, q_base_for(r, others[i]), others[i], cap, left,
                         top + 30 + i * step, pw, ph);
        color_bar(cr, left, top + 30 + np * step, 100, cap);
        figure_footer(cr, r, W, H);
        return BE_OK;
    }
    if (H <= 0)
        return BE_OK; /* a wide map fills the height it is given */
    left = 20 + 16 + 12 + 44;
    pw = (W - left - 140 - (np - 1) * (gap + 50)) / np;
    ph = H - top - 30 - 70;
    for (i = 0; i < np; i++)
        winner_panel(cr, x, &g, q_base_for(r, others[i]), others[i], cap,
                     left + i * (pw + gap + 50), top + 30, pw, ph);
    color_bar(cr, W - 118, top + 30, fmin(ph, 260), cap);
    figure_footer(cr, r, W, H);
    return BE_OK;
}

int figure_winner_map(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, err *e)
{
    return figure_render_fit(r, fs, mode, root, base, draw_winner, e);
}
