/*
 * figure_impl.h — what the files of the figure module share, and nothing
 * outside it includes.  figure.c holds the conventions every chart
 * follows (labels, the footer, the layout of plot and legend, empty
 * charts, crossover marks); each chart family has its file:
 * figure_curves.c (throughput, speed ratio), figure_map.c (winner map),
 * figure_bars.c (relative time, cost), figure_history.c (a history
 * series' crossovers and peaks, over runs).  The public interface is
 * figure.h; the model is read through query.h.
 */
#ifndef BE_FIGURE_IMPL_H
#define BE_FIGURE_IMPL_H

#include <stddef.h>

#include "chart.h"
#include "figure.h"

#define FIG_MAX_KEYS 96
#define FIG_LEGEND_W 330.0
#define FIG_MAX_DEVICES 64 /* devices a chart tells apart; the rest are left out */

extern const chart_rgb figure_ink;     /* text and lines                      */
extern const chart_rgb figure_muted;   /* subtitles, notes                    */
extern const chart_rgb figure_neutral; /* legend symbols of no one series     */

/* What a drawing function is asked to draw (chart_render's ctx), and
 * where it reports the height it needs when asked (see figure_render). */
typedef struct fig_ctx {
    const results *r;
    const fit_set *fs;
    const fit_prices *prices;
    wl_mode mode;
    const figure_shape *shapes;
    int nshapes;
    int cost;
    double need_h; /* set by a drawing called with a height of 0       */
} fig_ctx;

/* 1 on a canvas laid out for phones (legend under the plot). */
#define FIG_NARROW(W) ((W) < CHART_NARROW)
/* Room for the footer at the bottom of a canvas of width W. */
#define FIG_FOOTER_H(W) (FIG_NARROW(W) ? 40.0 : 24.0)

/* Draws a chart twice: "<base>.png/.svg" FIGURE_WIDTH wide, FIGURE_HEIGHT
 * high unless fit_wide (then as high as draw asks, as for a narrow
 * drawing), and "<base>" FIGURE_NARROW_SUFFIX ".png/.svg" FIGURE_NARROW_WIDTH
 * wide and as high as draw asks.  draw, called with a height of 0, lays
 * itself out, sets x->need_h and returns without drawing. */
int figure_render(fig_ctx *x, const char *root, const char *base, chart_draw_fn draw, int fit_wide,
                  err *e);

/* figure_render of a chart of r's points and fit fs in one mode (the
 * usual wide height). */
int figure_render_fit(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, chart_draw_fn draw, err *e);

/* Where the legend goes: its top left corner and the width it may take. */
typedef struct fig_legend {
    double x, y, w;
} fig_legend;

/* Layers of the stack the run measured. */
int figure_layers(const results *r);

/* "; 2 out-of-memory points left as gaps; 1 point failed verification
 * (not plotted)" for the points of mode on the devices in use[] (NULL:
 * all), or "". */
void figure_status_note(const results *r, wl_mode mode, const int *use, char *buf, size_t size);

/* The model of a device to draw: fitted, evaluable and fitting its points
 * (q_model_sound: a poor model is not drawn as if it described them),
 * else NULL. */
const fit_model *figure_model(const fit_set *fs, const char *dev, wl_mode mode, fit_view v);
double figure_model_time(const fit_model *m, double f);

/* The ratio base time / other time at one shape in view v (the base's
 * resident time against the other's time in v), or NaN (a gap) when
 * either point is missing or not usable. */
double figure_ratio_at(const results *r, const char *bdev, const char *odev, wl_mode mode,
                       int hidden, int batch, fit_view v);

/* 1 when the crossover has a point to mark (in range or extrapolated), and
 * when it has a bounded CI. */
int figure_cross_has_point(const fit_crossover *c);
int figure_cross_has_ci(const fit_crossover *c);
/* "NVIDIA H100 80GB HBM3 crosses OpenBLAS (16 threads) at 3.1M FLOP/layer,
 * median of widths (95% CI 2.5M–3.9M)": the crossover's summary across
 * hidden widths (fit.h), its devices named as the prose names them */
void figure_cross_text(const results *r, const fit_crossover *c, char *buf, size_t size);
/* Marks a crossover in f: its CI as a band, a vertical line, its value
 * above the plot area unless it would overprint the label that ends at
 * *label_end (-INFINITY: none yet), which it then moves on. */
void figure_draw_cross(cairo_t *cr, const chart_frame *f, const fit_crossover *c, chart_rgb col,
                       chart_dash dash, double *label_end);

/* A small grey line at the bottom (two on a narrow canvas): what was
 * measured, where. */
void figure_footer(cairo_t *cr, const results *r, double W, double H);
/* The same line ending in what (a network's "network 784-512-10"). */
void figure_footer_of(cairo_t *cr, const results *r, const char *what, double W, double H);
/* Places the plot area under the title (top) with the legend at its right
 * (under it, on a narrow canvas), leaving room for the y tick labels and
 * axis title at its left.  Returns the height the whole chart needs: H on
 * a wide canvas, what the plot and the legend take on a narrow one. */
double figure_layout(cairo_t *cr, double W, double H, double top, const chart_key *keys, int nkeys,
                     chart_frame *f, fig_legend *lg);
/* A log–log plot's axes: their titles, whether their ticks take SI
 * prefixes, and the extent of the data they show. */
typedef struct fig_loglog {
    const char *xlabel, *ylabel;
    int xsi, ysi;
    double xlo, xhi, ylo, yhi;
} fig_loglog;

/* The title, then a log–log plot's frame under it: the axes of a fitted
 * to the data, the plot and the legend laid out (figure_layout) and, on a
 * canvas of height H > 0, the axes drawn.  Returns the height the chart
 * needs. */
double figure_loglog(cairo_t *cr, double W, double H, const char *title, const char *sub,
                     const fig_loglog *a, const chart_key *keys, int nkeys, chart_frame *f,
                     fig_legend *lg);

/* A chart with nothing to show says why, in place of the data (with a
 * height of 0, sets x->need_h only). */
void figure_empty(cairo_t *cr, fig_ctx *x, double W, double H, const char *title, const char *why);
/* Appends a zeroed row of size bytes to rows[0..*n), an array of max:
 * the new row, or NULL when the array is full. */
void *figure_add(void *rows, int *n, int max, size_t size);

/* The frame of a chart of horizontal bars, one row each, under the title
 * (top): a bare y axis from 0 to 1 (the rows place themselves), the plot
 * right of the rows' labels (labw wide), or on a narrow canvas over the
 * whole width, the labels above the bars. */
void figure_bar_frame(chart_frame *f, double W, double labw, double top);

/* Appends a legend entry (ignored past FIG_MAX_KEYS). */
void figure_key(chart_key *keys, int *n, chart_key_kind kind, const char *label, chart_rgb c,
                int shape, int hollow, chart_dash dash);

#endif
