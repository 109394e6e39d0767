/*
 * figure_history.c — the charts of one history series (figure.h, charts 6
 * and 7): the crossover batch at each hidden width, and each device's peak
 * throughput, over the runs of one host, oldest first, with the changes
 * the history found in them.
 *
 * These charts are not driven by one run's results model but by a
 * hist_series (history.h), read through its fields only: the series is
 * built and its changes found by history.c, so what is drawn is what the
 * history page states.  The x axis is the run's ordinal, so that a point
 * can be looked up in the page's table of runs; the footer names the host
 * and the span of the runs instead of one run's provenance.
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

/* figure_render's context with the series: figure_render hands draw a
 * pointer to fig, its first member, so draw gets the whole of it back. */
typedef struct hist_ctx {
    fig_ctx fig; /* fig.r is NULL: no chart here reads one run's model */
    const hist_series *s;
    const char *title;
} hist_ctx;

#define MARK_R 4.6 /* the radius of a value's marker */

/* ---- shared by both charts ------------------------------------------- */

/* 1 when v is a value a log axis can show. */
static int drawn(const hist_value *v)
{
    return v->has && v->v > 0 && isfinite(v->v);
}

/* The ends of v's interval, v itself where an end is unusable (a band
 * cannot pass through NaN or a non-positive number on a log axis). */
static double lo_of(const hist_value *v)
{
    return v->lo > 0 && v->lo <= v->v ? v->lo : v->v;
}

static double hi_of(const hist_value *v)
{
    return isfinite(v->hi) && v->hi >= v->v ? v->hi : v->v;
}

/* "breakeven · host · 6 runs, 3 May 2026, 10:00 UTC to 9 June 2026,
 * 11:30 UTC": where and over what span, one line (two on a phone). */
static void hist_footer(cairo_t *cr, const hist_series *s, double W, double H)
{
    char buf[768], a[96], b[96], lines[2][CHART_LINE];
    double m = chart_margin(W);
    int i, n;
    snprintf(buf, sizeof buf, "breakeven");
    if (s->host[0])
        fmt_append(buf, sizeof buf, " \xc2\xb7 %s", s->host);
    fmt_append(buf, sizeof buf, " \xc2\xb7 %d run%s", s->nruns, s->nruns == 1 ? "" : "s");
    if (s->nruns > 0 && s->runs[0]->prov.started[0]) {
        fmt_date(a, sizeof a, s->runs[0]->prov.started);
        fmt_date(b, sizeof b, s->runs[s->nruns - 1]->prov.started);
        if (s->nruns > 1 && b[0] && strcmp(a, b) != 0)
            fmt_append(buf, sizeof buf, ", %s to %s", a, b);
        else
            fmt_append(buf, sizeof buf, ", %s", a);
    }
    chart_font(cr, 11, 0);
    n = chart_wrap(cr, buf, W - 2 * m, lines, FIG_NARROW(W) ? 2 : 1);
    for (i = 0; i < n; i++)
        chart_text(cr, m, H - 10 - 14 * (n - 1 - i), CHART_LEFT, CHART_BASELINE, figure_muted,
                   lines[i]);
}

/* figure_empty's layout with the series' footer (figure_empty's reads a
 * run's model, which a series with no run does not have). */
static void hist_empty(cairo_t *cr, hist_ctx *x, double W, double H, const char *why)
{
    char lines[6][CHART_LINE];
    double top = chart_title(cr, W, x->title, "");
    int i, n;
    chart_font(cr, 15, 0);
    n = chart_wrap(cr, why, W - (FIG_NARROW(W) ? 2 * chart_margin(W) : 160), lines, 6);
    if (H <= 0) {
        x->fig.need_h = FIG_NARROW(W) ? top + 40 + 22 * n + FIG_FOOTER_H(W) : FIGURE_HEIGHT;
        return;
    }
    for (i = 0; i < n; i++)
        chart_text(cr, W / 2, (top + H) / 2 + (i - (n - 1) / 2.0) * 22, CHART_CENTER, CHART_MIDDLE,
                   figure_muted, lines[i]);
    hist_footer(cr, x->s, W, H);
}

/* The x axis: run 1 to n, half a run of room at either end so that the
 * first and last markers are whole.  chart_axes would label it in 1-2-5
 * steps, halves included; run_ticks labels whole runs instead. */
static void run_axis(chart_axis *a, int nruns)
{
    a->scale = CHART_LINEAR;
    a->lo = 0.5;
    a->hi = nruns + 0.5;
    a->bare = 1;
    a->label = "run (oldest first)";
}

/* Ticks under every run with room for them, labelled at a 1-2-5 step wide
 * enough that the labels do not touch: every run, every other one, or the
 * first and every fifth, tenth… (the ordinals of the page's table). */
static void run_ticks(cairo_t *cr, const chart_frame *f, int nruns)
{
    static const chart_rgb grid = {0.85, 0.85, 0.85}, tick = {0.55, 0.55, 0.55};
    static const int m125[] = {1, 2, 5};
    char buf[16];
    double room = f->w / (f->xa.hi - f->xa.lo), need;
    int step = 1, k = 0, dec = 1, i;

    chart_font(cr, 11.5, 0);
    snprintf(buf, sizeof buf, "%d", nruns);
    need = chart_text_width(cr, buf) + 12;
    while (step * room < need && step < nruns) {
        if (++k == 3) {
            k = 0;
            dec *= 10;
        }
        step = m125[k] * dec;
    }
    cairo_save(cr);
    cairo_set_line_width(cr, 1.0);
    for (i = 1; i <= nruns; i++) {
        double x = chart_px(f, i);
        int label = step < 5 ? (i - 1) % step == 0 : i == 1 || i % step == 0;
        if (!label && room < 5)
            continue;
        if (label) {
            cairo_set_source_rgb(cr, grid.r, grid.g, grid.b);
            cairo_move_to(cr, x, f->y + 1);
            cairo_line_to(cr, x, f->y + f->h - 1);
            cairo_stroke(cr);
            snprintf(buf, sizeof buf, "%d", i);
            chart_text(cr, x, f->y + f->h + 19, CHART_CENTER, CHART_BASELINE, figure_ink, buf);
        }
        cairo_set_source_rgb(cr, tick.r, tick.g, tick.b);
        cairo_move_to(cr, x, f->y + f->h);
        cairo_line_to(cr, x, f->y + f->h + (label ? 5 : 3));
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* A run's interval with no neighbour to make a band with: a bar with caps. */
static void error_bar(cairo_t *cr, const chart_frame *f, double x, double lo, double hi,
                      chart_rgb c)
{
    double px = chart_px(f, x), y0 = chart_py(f, lo), y1 = chart_py(f, hi);
    cairo_save(cr);
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
    cairo_set_line_width(cr, 1.4);
    cairo_move_to(cr, px, y0);
    cairo_line_to(cr, px, y1);
    cairo_move_to(cr, px - 4, y0);
    cairo_line_to(cr, px + 4, y0);
    cairo_move_to(cr, px - 4, y1);
    cairo_line_to(cr, px + 4, y1);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* One sub-series, vals[i · stride] for run i, times scale: its intervals
 * (a band over each stretch of consecutive runs with values, a bar for a
 * run alone), a line broken where a run has no value, and a marker per
 * value.  buf holds 4 · nruns doubles. */
static void draw_values(cairo_t *cr, const chart_frame *f, const hist_value *vals, int stride,
                        int nruns, double scale, chart_rgb c, chart_shape shape, double *buf)
{
    double *xs = buf, *ys = buf + nruns, *lo = buf + 2 * nruns, *hi = buf + 3 * nruns;
    int i, j;
    for (i = 0; i < nruns; i++) {
        const hist_value *v = &vals[i * stride];
        xs[i] = i + 1;
        ys[i] = drawn(v) ? v->v * scale : NAN;
        lo[i] = drawn(v) ? lo_of(v) * scale : NAN;
        hi[i] = drawn(v) ? hi_of(v) * scale : NAN;
    }
    /* j stops at the gap (or the end) after each stretch i..j−1. */
    for (i = 0; i < nruns; i = j + 1) {
        for (j = i; j < nruns && !isnan(ys[j]); j++)
            ;
        if (j - i > 1)
            chart_band(cr, f, xs + i, lo + i, hi + i, j - i, c, 0.16);
        else if (j - i == 1)
            error_bar(cr, f, xs[i], lo[i], hi[i], c);
    }
    chart_polyline(cr, f, xs, ys, nruns, c, 1.6, CHART_SOLID);
    for (i = 0; i < nruns; i++)
        if (!isnan(ys[i]))
            chart_marker(cr, shape, chart_px(f, xs[i]), chart_py(f, ys[i]), MARK_R, c, 0);
}

/* Lays out a chart with its frame's axes set: title, plot, legend.
 * Returns 1 when only measuring (H ≤ 0: x->fig.need_h is set). */
static int hist_layout(cairo_t *cr, hist_ctx *x, double W, double H, const char *sub,
                       const chart_key *keys, int nkeys, chart_frame *f, fig_legend *lg)
{
    double top = chart_title(cr, W, x->title, sub);
    double need = figure_layout(cr, W, H, top + 8, keys, nkeys, f, lg);
    if (H <= 0) {
        x->fig.need_h = need;
        return 1;
    }
    chart_axes(cr, f);
    run_ticks(cr, f, x->s->nruns);
    return 0;
}

/* What width_index returns for a width the series does not have. */
#define NO_WIDTH (-1)

/* The width index of a change to the crossover at `hidden`, or NO_WIDTH. */
static int width_index(const hist_series *s, int hidden)
{
    int w;
    for (w = 0; w < s->nwidths; w++)
        if (s->hidden[w] == hidden)
            return w;
    return NO_WIDTH;
}

/* The legend's entry for the changes of kind `what`, when s has any. */
static void changes_key(const hist_series *s, hist_what what, chart_key *keys, int *nkeys)
{
    int i, n = 0;
    for (i = 0; i < s->nchanges; i++)
        n += s->changes[i].what == what;
    if (n > 0)
        figure_key(keys, nkeys, CHART_KEY_LINE, "detected change", figure_neutral, -1, 0,
                   CHART_DASHED);
}

/* A dashed line for each change of kind `what`, between the last run of
 * the old level and the first of the new one (at is 0-based, the runs'
 * positions 1-based), in the colour of its width or device. */
static void draw_changes(cairo_t *cr, const chart_frame *f, const hist_series *s, hist_what what)
{
    int i;
    for (i = 0; i < s->nchanges; i++) {
        const hist_change *c = &s->changes[i];
        int k;
        if (c->what != what)
            continue;
        k = what == HIST_CROSS ? width_index(s, c->hidden) : c->device;
        chart_vline(cr, f, c->at + 0.5,
                    k >= 0 && k < CHART_NSERIES ? chart_series(k) : figure_neutral, 1.6,
                    CHART_DASHED);
    }
}

/* Sub-series k of `what` (HIST_CROSS: the crossovers at width k;
 * HIST_PEAK: device k's peaks): its first run's value, and in *stride the
 * step between runs. */
static const hist_value *sub_series(const hist_series *s, hist_what what, int k, int *stride)
{
    *stride = what == HIST_CROSS ? s->nwidths : 1;
    return what == HIST_CROSS ? &s->cross[k] : s->peak[k];
}

/* How many values the n sub-series of `what` have to draw; their
 * intervals, times scale, widen [*lo, *hi]. */
static int extent(const hist_series *s, hist_what what, int n, double scale, double *lo, double *hi)
{
    int i, k, stride, m = 0;
    for (k = 0; k < n; k++) {
        const hist_value *vals = sub_series(s, what, k, &stride);
        for (i = 0; i < s->nruns; i++) {
            const hist_value *v = &vals[i * stride];
            if (drawn(v)) {
                m++;
                *lo = fmin(*lo, lo_of(v) * scale);
                *hi = fmax(*hi, hi_of(v) * scale);
            }
        }
    }
    return m;
}

/* Device dev of series s as people name it (q_device_name, in its newest
 * run), as the page around the chart does. */
static void hist_name(const hist_series *s, const char *dev, char *buf, size_t size)
{
    q_device_name(s->runs[s->nruns - 1], dev, buf, size);
}

/* What the chart of `what` shows (HIST_CROSS or HIST_PEAK), under its
 * title. */
static void subtitle(const hist_series *s, hist_what what, char *buf, size_t size)
{
    char base[256], other[256];
    hist_name(s, s->base, base, sizeof base);
    hist_name(s, s->other, other, sizeof other);
    if (what == HIST_CROSS)
        snprintf(buf, size,
                 "The batch size from which %s is faster than %s (%s, data resident) at each "
                 "hidden width, in each run of this host, with its 95%% interval; runs are "
                 "numbered oldest first, as in the table below.",
                 other, base, workload_mode_name(s->mode));
    else
        snprintf(buf, size,
                 "FLOP/s of each device's fastest point (%s) in each run of this host, with the "
                 "95%% interval of its median step time; runs are numbered oldest first, as in "
                 "the table below.",
                 workload_mode_name(s->mode));
}

/* Lays the chart out (hist_layout) and draws, clipped to the plot, the
 * changes found in `what` and its n sub-series, times scale, sub-series k
 * in series colour and marker k.  Returns 1 when only measuring,
 * BE_EFAIL when out of memory, else 0. */
static int plot(cairo_t *cr, hist_ctx *x, double W, double H, const char *sub,
                const chart_key *keys, int nkeys, chart_frame *f, fig_legend *lg, hist_what what,
                int n, double scale, err *e)
{
    const hist_series *s = x->s;
    double *vb;
    int k, stride;
    if (hist_layout(cr, x, W, H, sub, keys, nkeys, f, lg))
        return 1;
    if (!(vb = malloc(4 * (size_t)s->nruns * sizeof *vb)))
        return err_set(e, BE_EFAIL, "out of memory drawing a history chart");
    chart_clip(cr, f);
    draw_changes(cr, f, s, what);
    for (k = 0; k < n; k++) {
        const hist_value *vals = sub_series(s, what, k, &stride);
        draw_values(cr, f, vals, stride, s->nruns, scale, chart_series(k),
                    (chart_shape)(k % CHART_NSHAPES), vb);
    }
    cairo_restore(cr);
    free(vb);
    return 0;
}

/* Draws one of the two charts of s, wide and narrow (figure_render). */
static int render(const hist_series *s, const char *title, const char *root, const char *base,
                  chart_draw_fn draw, err *e)
{
    hist_ctx x;
    memset(&x, 0, sizeof x);
    x.s = s;
    x.title = title;
    return figure_render(&x.fig, root, base, draw, 0, e);
}

/* ---- 6. crossover ----------------------------------------------------- */

/* A run where the other device won at every batch measured, or at none,
 * has no crossover to place, but it is an answer: it is drawn on the edge
 * of the plot rather than left out. */
static int at_edge(const hist_value *v)
{
    return !drawn(v) && (v->kind == CROSS_ALWAYS || v->kind == CROSS_NEVER);
}

static int draw_cross(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    hist_ctx *x = vctx;
    const hist_series *s = x->s;
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    fig_legend lg;
    char sub[1024], buf[512];
    double ylo = INFINITY, yhi = 0;
    int i, w, rc, nkeys = 0, nvalues, nedge = 0;

    nvalues = extent(s, HIST_CROSS, s->nwidths, 1.0, &ylo, &yhi);
    for (i = 0; i < s->nruns * s->nwidths; i++)
        nedge += at_edge(&s->cross[i]);
    if (nvalues + nedge == 0) {
        hist_empty(cr, x, W, H, "No run of this pair has a crossover to draw.");
        return BE_OK;
    }

    subtitle(s, HIST_CROSS, sub, sizeof sub);
    for (w = 0; w < s->nwidths; w++) {
        snprintf(buf, sizeof buf, "hidden %d", s->hidden[w]);
        figure_key(keys, &nkeys, CHART_KEY_LINE, buf, chart_series(w), w % CHART_NSHAPES, 0,
                   CHART_SOLID);
    }
    if (nvalues > 0)
        figure_key(keys, &nkeys, CHART_KEY_BAND, "95% interval (a bar for a run alone)",
                   figure_neutral, -1, 0, CHART_SOLID);
    if (nedge > 0) {
        char other[256];
        hist_name(s, s->other, other, sizeof other);
        snprintf(buf, sizeof buf, "hollow at the bottom: %s won at every batch; at the top: never",
                 other);
        figure_key(keys, &nkeys, CHART_KEY_MARKER, buf, figure_neutral, CHART_CIRCLE, 1,
                   CHART_SOLID);
    }
    changes_key(s, HIST_CROSS, keys, &nkeys);

    memset(&f, 0, sizeof f);
    run_axis(&f.xa, s->nruns);
    f.ya.scale = CHART_LOG;
    f.ya.label = "crossover batch (resident)";
    if (nvalues > 0) {
        chart_axis_fit(&f.ya, ylo, yhi);
    } else {
        /* Edge markers only: no batch to scale, so no ticks that would
         * read as one (a "never" marker beside "1000" looks like 1000). */
        f.ya.lo = 1;
        f.ya.hi = 1000;
        f.ya.bare = 1;
        f.ya.label = "no crossover inside the batches measured";
    }
    if ((rc = plot(cr, x, W, H, sub, keys, nkeys, &f, &lg, HIST_CROSS, s->nwidths, 1.0, e)))
        return rc < 0 ? rc : BE_OK;
    /* Unclipped, so that the markers on the edges show whole. */
    for (i = 0; i < s->nruns; i++)
        for (w = 0; w < s->nwidths; w++) {
            const hist_value *v = &s->cross[i * s->nwidths + w];
            if (at_edge(v))
                chart_marker(cr, (chart_shape)(w % CHART_NSHAPES), chart_px(&f, i + 1),
                             v->kind == CROSS_ALWAYS ? f.y + f.h : f.y, MARK_R + 0.4,
                             chart_series(w), 1);
        }
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    hist_footer(cr, s, W, H);
    return BE_OK;
}

int figure_history_cross(const hist_series *s, const char *title, const char *root,
                         const char *base, err *e)
{
    return render(s, title, root, base, draw_cross, e);
}

/* ---- 7. peak throughput ----------------------------------------------- */

static int draw_peak(cairo_t *cr, double W, double H, void *vctx, err *e)
{
    hist_ctx *x = vctx;
    const hist_series *s = x->s;
    const char *ids[2] = {s->base, s->other};
    chart_key keys[FIG_MAX_KEYS];
    chart_frame f;
    fig_legend lg;
    char sub[1024], buf[512];
    double ylo = INFINITY, yhi = 0;
    int d, rc, nkeys = 0;

    if (extent(s, HIST_PEAK, 2, 1e9, &ylo, &yhi) == 0) {
        hist_empty(cr, x, W, H, "No run of this pair has a peak throughput to draw.");
        return BE_OK;
    }

    subtitle(s, HIST_PEAK, sub, sizeof sub);
    for (d = 0; d < 2; d++) {
        hist_name(s, ids[d], buf, sizeof buf);
        figure_key(keys, &nkeys, CHART_KEY_LINE, buf, chart_series(d), d, 0, CHART_SOLID);
    }
    figure_key(keys, &nkeys, CHART_KEY_BAND, "95% interval (a bar for a run alone)", figure_neutral,
               -1, 0, CHART_SOLID);
    changes_key(s, HIST_PEAK, keys, &nkeys);

    memset(&f, 0, sizeof f);
    run_axis(&f.xa, s->nruns);
    f.ya.scale = CHART_LOG;
    f.ya.si = 1;
    f.ya.label = "peak throughput (FLOP/s)";
    chart_axis_fit(&f.ya, ylo, yhi);
    if ((rc = plot(cr, x, W, H, sub, keys, nkeys, &f, &lg, HIST_PEAK, 2, 1e9, e)))
        return rc < 0 ? rc : BE_OK;
    chart_legend(cr, lg.x, lg.y, keys, nkeys, lg.w);
    hist_footer(cr, s, W, H);
    return BE_OK;
}

int figure_history_peak(const hist_series *s, const char *title, const char *root, const char *base,
                        err *e)
{
    return render(s, title, root, base, draw_peak, e);
}
