/*
 * figure.h — breakeven's charts, one function per chart.
 *
 * Each function reads a results model (results.h) and, where it draws
 * fitted curves or crossovers, a fit_set (fit.h) — the history charts
 * (6 and 7) read a history series (history.h) instead, the change chart
 * (8) a comparison (compare.h) — and writes "<base>.png"
 * inside root, through no link below it (chart_render; root NULL: by path)
 * (FIGURE_WIDTH × FIGURE_HEIGHT user units at FIGURE_SCALE, i.e. 1925 × 1120
 * pixels; the bar charts as high as their bars need), atomically; and the
 * same chart laid out for phones, "<base>-narrow.png": FIGURE_NARROW_WIDTH user
 * units wide at FIGURE_NARROW_SCALE, as high as it needs, the legend under the plot, so that its
 * text is as large on a phone's screen as the wide one's is on a desktop's
 * (about 11 CSS px).  chart_png_size (chart.h) gives a chart's height.
 * The fit_set may be NULL or empty (no models, no crossovers): the charts
 * then show the measurements alone.  None of them calls the fitting code.
 *
 * Conventions shared by every chart:
 *   - the base device is q_base's (query.h), as in the fit; ratios are
 *     base time / other time, so above 1 the other device is faster;
 *   - only points with status ok are plotted as speeds; out-of-memory and
 *     failed-verification points leave gaps (never zeros) and are counted
 *     in the subtitle;
 *   - devices are labelled with their real type and name ("cl:0.0 (CPU,
 *     pthread-haswell-AMD EPYC 7B13)"), never with an assumed "GPU";
 *   - when there is nothing to draw (one device only for a comparison, no
 *     ok point) the chart is still written, saying so in place of the data,
 *     and the function returns 0.
 * Errors: BE_EFAIL with a line such as "out/x.png: cairo: out of memory"
 * or "out/runs/x: is a symbolic link (…)" (below root, missing directories
 * are made; with root NULL the directory must exist); BE_EUSAGE for a cost
 * chart without the base device's price.
 */
#ifndef BE_FIGURE_H
#define BE_FIGURE_H

#include <stddef.h>

#include "compare.h"
#include "fit.h"
#include "history.h"
#include "results.h"

#define FIGURE_WIDTH 1100.0
#define FIGURE_HEIGHT 640.0
/* 1.75 pixels per unit (1925 pixels wide), sharp on a high-density screen,
 * a sixth fewer bytes and less to deflate than 2: a default-sized run
 * stays within 1 MB on disk (docs/archive.md) */
#define FIGURE_SCALE 1.75
#define FIGURE_NARROW_WIDTH 330.0
/* the narrow chart at 1.5 pixels per unit (495 pixels wide): sharp enough
 * on a phone, a fifth fewer bytes than at FIGURE_SCALE (docs/archive.md);
 * below it the thinnest marks start to lose their colour */
#define FIGURE_NARROW_SCALE 1.5
#define FIGURE_NARROW_SUFFIX "-narrow"

/* One network shape, for the relative time and cost charts. */
typedef struct figure_shape {
    int hidden, batch;
} figure_shape;

#define FIGURE_MAX_SHAPES 8

/* A legend's name of device d of r: the name people use for it
 * (q_device_name: "OpenBLAS (16 threads)", "NVIDIA H100 80GB HBM3"), as
 * the prose names it, with " on old kernels" after where it ran older
 * kernels than its CPU has (q_handicap), so that no legend shows a held-
 * back library as the CPU's best; the raw strings are the devices
 * table's. */
void figure_device_label(const results *r, int d, char *buf, size_t size);

/* 1. Throughput (FLOP/s of the whole stack) against FLOPs per layer,
 * log–log: one marker shape per device, one colour per hidden width, lines
 * along the batch sizes; each device's fitted f / (t0 + f/P) over its
 * measured range; every time crossover of this mode (resident view) as a
 * vertical line with its 95% CI as a band. */
int figure_throughput(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, err *e);

/* 2. Speed ratio (base time / other time) against FLOPs per layer, log–log,
 * with a line at 1: filled markers for the resident view, hollow ones with
 * transfers (OpenCL points that have them); the fitted ratio
 * (t0b + f/Pb) / (t0o + f/Po) with an approximate 95% band (delta method
 * from the parameters' standard errors, their covariance ignored); the
 * crossovers with their CIs. */
int figure_speed_ratio(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                       const char *base, err *e);

/* 3. Winner map: a hidden × batch heatmap of the measured speed ratio per
 * other device (at most 3 panels), diverging colours centred on 1 (blue:
 * the other device is faster, vermillion: the base is), each cell
 * annotated with its ratio, and the per-hidden crossover batches of the
 * resident time crossover drawn as a line of markers. */
int figure_winner_map(const results *r, const fit_set *fs, wl_mode mode, const char *root,
                      const char *base, err *e);

/* 4. Relative time (the cloud posts' chart): horizontal bars of step time
 * relative to the base device, a dotted line at 1, lower is better.  With
 * nshapes = 0, one bar per device (and one "with transfer" where the device
 * has transfer times) for the total over every shape that all devices
 * completed (q_compared and q_completed, query.h); with
 * shapes[0..nshapes) (at most FIGURE_MAX_SHAPES), one bar per device and
 * shape, grouped by shape, where a device without an ok point at a shape
 * gets a label saying why instead of a bar. */
int figure_relative_time(const results *r, wl_mode mode, const figure_shape *shapes, int nshapes,
                         const char *root, const char *base, err *e);

/* 5. Normalized cost: the same chart for the cost of a step (time × price
 * per hour).  The base device must have a positive price in prices, else
 * BE_EUSAGE ("figure_cost: no price for the base device cpu"); other
 * devices without a price are left out (of the shapes every device
 * completed too) and named in the subtitle. */
int figure_cost(const results *r, const fit_prices *prices, wl_mode mode,
                const figure_shape *shapes, int nshapes, const char *root, const char *base,
                err *e);

/* 6. History of the crossover: over the runs of one history series
 * (history.h), oldest first and numbered from 1 as the history page's
 * table numbers them, the batch size of the resident time crossover at
 * each hidden width, log scale, one colour (and marker shape) per width,
 * its 95% interval as a band (a bar for a run without a neighbour with a
 * value); a run where the other device won at every batch measured is a
 * hollow marker on the bottom edge, one where it never won on the top
 * edge; each change the history found in a width's crossover is a dashed
 * vertical line, in the width's colour, between the last run before it
 * and the first run of the new level.  title is the caller's; the footer
 * names the host and the span of the runs.  A series with nothing to draw
 * still gets its chart, saying so. */
int figure_history_cross(const hist_series *s, const char *title, const char *root,
                         const char *base, err *e);

/* 7. History of peak throughput: over the same runs, each device's peak
 * throughput (its fastest point's FLOP/s, log scale) with the 95%
 * interval of its median step time, a run without a value left as a gap,
 * and each change found in a device's peak as a dashed vertical line in
 * that device's colour. */
int figure_history_peak(const hist_series *s, const char *title, const char *root, const char *base,
                        err *e);

/* 8. The change chart of a comparison (compare.h): the ratio B/A of
 * every matched point against FLOPs per layer (log–log), one colour per device model and mode, filled markers
 * for significant changes, a line at 1 and the noise band; "<base>.png" and
 * "<base>.svg" (FIGURE_WIDTH × FIGURE_HEIGHT at FIGURE_SCALE), and for
 * phones "<base>-narrow.png" and ".svg" (FIGURE_NARROW_WIDTH wide, the
 * legend under the plot, as high as that takes); written inside root
 * through no link below it (chart_render). */
int figure_compare(const compare_set *s, const char *root, const char *base, err *e);

#endif
