/*
 * prose_impl.h — what the files of prose.h share, and nothing outside them
 * includes: prose.c writes the paragraph of each chart, prose_run.c the
 * run as a whole (conclusion, method, answer, headline), prose_warn.c its
 * warnings.  A run's best point and its throughput read the same in the
 * throughput chart's paragraph, the lead of a single device and the
 * headline, so they are written once, here.
 */
#ifndef BE_PROSE_IMPL_H
#define BE_PROSE_IMPL_H

#include <stddef.h>

#include "findings.h"
#include "prose.h"
#include "results.h"

/* The point of dev (NULL: any) in mode m (-1: any) whose median
 * throughput is the highest (the table's best), or NULL: a peak a reader
 * may quote, so never one above its device's peak (q_beyond_peak). */
const rs_point *prose_peak_point(const results *r, const char *dev, int m);

/* "28.6 TFLOP/s (95% CI 28.5–28.7 TFLOP/s)": a point's measured
 * throughput with the interval of its median. */
void prose_throughput_text(const rs_point *p, char *buf, size_t size);

/* The finding of other against the base in mode m, view v, time. */
const finding *prose_time_finding(const findings *F, const char *other, wl_mode m, fit_view v);

#endif
