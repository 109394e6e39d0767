/*
 * chart.h — the drawing primitives under breakeven's figures (Cairo).
 *
 * Owns what every chart shares: the Okabe–Ito palette (safe for the common
 * forms of colour blindness), tick generation (log axes: decades, with 1-2-5
 * minor ticks; linear axes: 1-2-5 steps; labels such as "100M" or "2.5G"
 * written by fmt.h), axes with grid and titles, markers, polylines with
 * gaps, legends, and the output: one drawing function is run on a PNG image surface (at a HiDPI
 * scale factor), checked for Cairo errors and written atomically through
 * fsx, inside OUT through no link (fsx_write_in).  Text uses Cairo's toy font API with the
 * family "DejaVu Sans" (fontconfig substitutes a similar face when it is not
 * installed).  What a chart shows is figure.c's business.
 */
#ifndef BE_CHART_H
#define BE_CHART_H

#include <stddef.h>

#include <cairo.h>

#include "err.h"

/* ---- colours ----------------------------------------------------------- */

typedef struct chart_rgb {
    double r, g, b; /* 0..1 */
} chart_rgb;

/* The eight Okabe–Ito colours. */
typedef enum {
    CHART_BLACK,      /* #000000 */
    CHART_ORANGE,     /* #E69F00 */
    CHART_SKY,        /* #56B4E9 */
    CHART_GREEN,      /* #009E73 */
    CHART_YELLOW,     /* #F0E442 */
    CHART_BLUE,       /* #0072B2 */
    CHART_VERMILLION, /* #D55E00 */
    CHART_PURPLE      /* #CC79A7 */
} chart_oi;

chart_rgb chart_oi_rgb(chart_oi c);

/* The colour of data series i: the seven Okabe–Ito colours other than
 * black, darkest first (blue, vermillion, green, purple, orange, sky,
 * yellow), cycling past seven. */
#define CHART_NSERIES 7
chart_rgb chart_series(int i);

/* a + (b − a)·t, per channel (t in 0..1). */
chart_rgb chart_mix(chart_rgb a, chart_rgb b, double t);

/* ---- ticks and labels -------------------------------------------------- */

/* The decades 10^k with lo ≤ 10^k ≤ hi (a relative tolerance of 1e-9 keeps
 * the ends), ascending.  0 on success; BE_EUSAGE when lo or hi is not
 * positive and finite, lo > hi, or more than max ticks would be needed. */
int chart_ticks_log(double lo, double hi, double *ticks, int max, int *n);

/* The minor ticks of a log axis: 2·10^k and 5·10^k within [lo, hi]. */
int chart_ticks_log_minor(double lo, double hi, double *ticks, int max, int *n);

/* Multiples of a 1-2-5 step (1, 2, 5 × 10^k) within [lo, hi], the step
 * chosen so that there are about `target` (≥ 2) intervals; *step receives
 * it when not NULL.  BE_EUSAGE on a bad range or too many ticks. */
int chart_ticks_linear(double lo, double hi, int target, double *ticks, int max, int *n,
                       double *step);

/* The step chart_ticks_linear would use. */
double chart_step_125(double lo, double hi, int target);

/* ---- text ---------------------------------------------------------------- */

typedef enum { CHART_LEFT, CHART_CENTER, CHART_RIGHT } chart_halign;
typedef enum { CHART_BASELINE, CHART_MIDDLE, CHART_TOP } chart_valign;

/* Selects "DejaVu Sans" at size (user units), bold or not. */
void chart_font(cairo_t *cr, double size, int bold);
/* Width of s in the current font. */
double chart_text_width(cairo_t *cr, const char *s);
/* Draws s at (x, y) aligned as asked, in colour c. */
void chart_text(cairo_t *cr, double x, double y, chart_halign h, chart_valign v, chart_rgb c,
                const char *s);
/* Copies s into buf, cut with "…" so that it is at most width wide in the
 * current font. */
void chart_fit_text(cairo_t *cr, const char *s, double width, char *buf, size_t size);

/* Breaks s at spaces into at most max lines of at most width each (a word
 * wider than a line broken where it stops fitting, no letter lost; the
 * last line cut with "…" when text remains); returns the number of lines. */
#define CHART_LINE 256
int chart_wrap(cairo_t *cr, const char *s, double width, char lines[][CHART_LINE], int max);

/* A canvas narrower than this is laid out for a phone: smaller margins,
 * legends under the plot instead of beside it, titles wrapped. */
#define CHART_NARROW 600.0

/* The margin left and right of a canvas of this width. */
double chart_margin(double width);

/* The chart's title (bold) and subtitle (grey, may be NULL or "") at the
 * top left of a canvas of the given width, each wrapped: the title onto two
 * lines at most, the subtitle onto two (six on a narrow canvas).  Returns
 * the y below them. */
double chart_title(cairo_t *cr, double width, const char *title, const char *subtitle);

/* ---- axes ---------------------------------------------------------------- */

typedef enum { CHART_LINEAR, CHART_LOG } chart_scale;

typedef struct chart_axis {
    chart_scale scale;
    double lo, hi;     /* the range shown (positive on a log axis)        */
    int si;            /* tick labels with SI prefixes, else fmt_num      */
    const char *label; /* the axis title, or NULL (not owned)             */
    int bare;          /* 1: no grid, ticks or tick labels on this axis   */
} chart_axis;

/* Widens [lo, hi] (the data's extent) to the axis range: on a log axis out
 * to the next 1-2-5 values (×1.0001 margin), on a linear one out to a
 * multiple of its tick step (lo stays 0 when data start at 0).  A range of
 * zero width is opened up around its value. */
void chart_axis_fit(chart_axis *a, double lo, double hi);

/* The plot area (user units) and its two axes. */
typedef struct chart_frame {
    double x, y, w, h;
    chart_axis xa, ya;
} chart_frame;

/* Data → user coordinates (values outside the range map outside the area;
 * a non-positive value on a log axis maps far outside). */
double chart_px(const chart_frame *f, double v);
double chart_py(const chart_frame *f, double v);

/* Width the y tick labels of f need (to place the frame). */
double chart_ytick_width(cairo_t *cr, const chart_axis *ya);

/* Grid, frame, ticks, tick labels and axis titles.  On a log axis with at
 * most three decade ticks the 2 and 5 ticks are labelled too; past ten
 * decades only every other decade is. */
void chart_axes(cairo_t *cr, const chart_frame *f);

/* cairo_save and clip to the plot area; undo with cairo_restore. */
void chart_clip(cairo_t *cr, const chart_frame *f);

/* ---- marks --------------------------------------------------------------- */

typedef enum {
    CHART_CIRCLE,
    CHART_SQUARE,
    CHART_TRIANGLE,
    CHART_DIAMOND,
    CHART_DOWN,
    CHART_CROSS,
    CHART_NSHAPES
} chart_shape;

/* A marker of radius r at (x, y) in user units, filled with c (or an
 * outline only when hollow), edged in a darker shade of c. */
void chart_marker(cairo_t *cr, chart_shape s, double x, double y, double r, chart_rgb c,
                  int hollow);

typedef enum { CHART_SOLID, CHART_DASHED, CHART_DOTTED, CHART_DASHDOT } chart_dash;
void chart_set_dash(cairo_t *cr, chart_dash d, double width);

/* A line through data points (xs[i], ys[i]); a NaN in either breaks it, so
 * that missing points show as gaps.  Not clipped (see chart_clip). */
void chart_polyline(cairo_t *cr, const chart_frame *f, const double *xs, const double *ys, int n,
                    chart_rgb c, double width, chart_dash d);

/* A filled band between ylo[i] and yhi[i] over xs[i] (no NaN), alpha a. */
void chart_band(cairo_t *cr, const chart_frame *f, const double *xs, const double *ylo,
                const double *yhi, int n, chart_rgb c, double a);

/* Vertical band [x0, x1] and vertical/horizontal lines across the frame, in
 * data coordinates. */
void chart_vband(cairo_t *cr, const chart_frame *f, double x0, double x1, chart_rgb c, double a);
void chart_vline(cairo_t *cr, const chart_frame *f, double x, chart_rgb c, double width,
                 chart_dash d);
void chart_hline(cairo_t *cr, const chart_frame *f, double y, chart_rgb c, double width,
                 chart_dash d);

/* ---- legends ------------------------------------------------------------- */

typedef enum {
    CHART_KEY_HEADER, /* a bold section heading, no symbol                */
    CHART_KEY_MARKER, /* a marker (shape, hollow)                          */
    CHART_KEY_LINE,   /* a line (dash), with a marker when shape ≥ 0       */
    CHART_KEY_SWATCH, /* a filled square                                   */
    CHART_KEY_BAND    /* a translucent band with its centre line           */
} chart_key_kind;

typedef struct chart_key {
    chart_key_kind kind;
    char label[160];
    chart_rgb color;
    int shape; /* chart_shape, or −1                               */
    int hollow;
    chart_dash dash;
} chart_key;

/* Size of the legend of keys[0..n) (labels wider than max_width wrap onto
 * as many lines as they take, never cut short). */
void chart_legend_size(cairo_t *cr, const chart_key *keys, int n, double max_width, double *w,
                       double *h);
/* Draws it with its top left corner at (x, y). */
void chart_legend(cairo_t *cr, double x, double y, const chart_key *keys, int n, double max_width);

/* ---- output -------------------------------------------------------------- */

/* Draws a whole chart of width × height user units on cr.  Returns 0 or a
 * BE_* code with e filled. */
typedef int (*chart_draw_fn)(cairo_t *cr, double width, double height, void *ctx, err *e);

/* Runs draw on a white PNG image surface of (width·scale) × (height·scale)
 * pixels and writes "<base>.png" atomically inside root, through no link
 * below it (fsx_write_in; root NULL: by path, for a file outside OUT).
 * The file is written after draw returns, its directories opened again
 * then.  Every Cairo status is checked; errors read "out/x.png: cairo: out
 * of memory" or fsx's "out/x: is a symbolic link (…)". */
int chart_render(const char *root, const char *base, double width, double height, double scale,
                 chart_draw_fn draw, void *ctx, err *e);

/* Runs draw with a height of 0 on a scratch surface of the given width
 * (the same font settings as chart_render's), so that a drawing whose
 * height follows from its content can lay itself out and report, through
 * its ctx, the height it needs; then chart_render draws it at that height.
 * Returns 0 or draw's error. */
int chart_measure(double width, chart_draw_fn draw, void *ctx, err *e);

/* The size in pixels of the PNG file at path, read from its header.
 * BE_EFAIL when it cannot be read or is no PNG. */
int chart_png_size(const char *path, int *width, int *height, err *e);

#endif
