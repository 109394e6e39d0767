/*
 * fit.h — the crossover: where the GPU starts to win, with an error bar.
 *
 * Pure functions over a loaded results model (results.h): no OpenCL, no
 * BLAS, no files.  Per device, mode and view (resident: data already on the
 * device; transfer: input uploaded and output read back every step) the
 * per-layer step time is fitted to the latency + throughput model
 *
 *     t(f) = t0 + f / P          f = FLOPs per layer, t = step time / layers
 *
 * by weighted least squares on the points' medians, t0 ≥ 0: once over every
 * hidden width, and once per hidden width with at least 3 batches, since a
 * CPU's efficiency depends on the width (small batches at large widths are
 * memory-bound) and one line over all widths misses by tens of percent.
 * A model whose RMS relative error exceeds FIT_POOR_RMS is marked poor and
 * no sentence rests on it.
 *
 * The answer is per hidden width: the batch from which another device
 * stays ahead of the base device (the CPU), interpolated from the measured
 * speed ratio, with a 95% interval from the medians' own intervals
 * (xover.h) — no model involved.  The crossover's summary (kind, flops,
 * ci_lo, ci_hi) spans the widths: the range of their crossovers and an
 * interval holding all of theirs; only where no width crosses in the
 * measured range do the per-width models extrapolate.  With prices (USD
 * per hour per device) the same is done for cost per step.  Where to
 * measure more when a crossover is uncertain is refine.h's business.
 */
#ifndef BE_FIT_H
#define BE_FIT_H

#include <stdint.h>

#include "list.h"
#include "results.h"

/* The version of the method below, stored with every fit (<fit analysis>):
 * 1, the global model's bootstrap (0.1.0); 2, per-width crossovers with
 * intervals, per-width models, t0 ≥ 0. */
#define FIT_ANALYSIS 2

const char *fit_view_name(fit_view v);         /* "resident", "transfer" */
const char *fit_cross_kind_name(cross_kind k); /* "in-range", "extrapolated", ... */

/* Fits every device × mode × view in r (over all widths, and per width),
 * and every crossover between the base device (q_base, query.h) and each
 * other device; with prices for both (price.h), the cost crossovers too.
 * seed makes the intervals reproducible; boot is the number of replicates
 * behind each (0 = 1000; at least 100).  Free with fit_set_free. */
int fit_run(const results *r, const fit_prices *prices, uint64_t seed, int boot, fit_set *out,
            err *e);
void fit_set_free(fit_set *s);

/* Building blocks, exposed for tests.  The models and crossovers of a
 * fit_set are looked up with q_model and q_cross (query.h). */

/* Weighted least squares of t = t0 + f/P over n points (weights w, NULL =
 * equal) with t0 ≥ 0: when the free line's t0 is negative, t = f/P is
 * fitted instead.  Fills t0, P, their errors, rms_rel, fmin/fmax (not
 * poor: model_fit judges); ok = 0 with why when n < 2, f has no spread, or
 * the slope is not positive. */
int fit_line(const double *f, const double *t, const double *w, int n, fit_model *m);

/* The f where two models meet: *kind and *flops (see cross_kind); the range
 * [fmin, fmax] decides in-range versus extrapolated. */
void fit_meet(const fit_model *base, const fit_model *other, double fmin, double fmax,
              cross_kind *kind, double *flops);

/* Writes the sentence of crossover c of fit fs (findings_sentence,
 * findings.h; fs NULL: without its models), with prices those the cost
 * crossovers used (NULL: none). */
void fit_sentence(const fit_set *fs, const fit_crossover *c, const results *r,
                  const fit_prices *prices, char *buf, size_t size);

#endif
