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
 * by weighted least squares on the points' medians (weights from each
 * point's spread), giving the latency t0, the throughput P and the
 * half-performance size t0·P (the f at which half of P is reached).
 *
 * Between a base device (the CPU) and another (an OpenCL device), the
 * crossover is the f where their fitted times meet, with a 95% bootstrap CI
 * obtained by resampling each point's stored samples and refitting.  Per
 * hidden width the crossover batch is found by interpolating the measured
 * speed ratio in log–log space between the bracketing batches, which needs
 * no model at all.  With prices (USD per hour per device) the same is done
 * for cost per step: the cost crossover.  Where to measure more when a
 * crossover is uncertain is refine.h's business.
 */
#ifndef BE_FIT_H
#define BE_FIT_H

#include <stdint.h>

#include "list.h"
#include "results.h"

const char *fit_view_name(fit_view v);        /* "resident", "transfer" */
const char *fit_cross_kind_name(cross_kind k); /* "in-range", "extrapolated", ... */

/* Fits every device × mode × view in r, and every crossover between the
 * base device (q_base, query.h) and each other device; with prices for
 * both (price.h), the cost crossovers too.
 * seed makes the bootstrap reproducible; boot is its number of resamples
 * (0 = 1000).  Free with fit_set_free. */
int fit_run(const results *r, const fit_prices *prices, uint64_t seed, int boot,
            fit_set *out, err *e);
void fit_set_free(fit_set *s);

/* Building blocks, exposed for tests.  The models and crossovers of a
 * fit_set are looked up with q_model and q_cross (query.h). */

/* Weighted least squares of t = t0 + f/P over n points (weights w, NULL =
 * equal).  Fills t0, P, their errors, rms_rel, fmin/fmax; ok = 0 with why
 * when n < 2, f has no spread, or the slope is not positive. */
int fit_line(const double *f, const double *t, const double *w, int n, fit_model *m);

/* The f where two models meet: *kind and *flops (see cross_kind); the range
 * [fmin, fmax] decides in-range versus extrapolated. */
void fit_meet(const fit_model *base, const fit_model *other, double fmin, double fmax,
              cross_kind *kind, double *flops);

/* Writes the crossover's sentence, e.g. "The GPU (cl:0.0, NVIDIA H100)
 * starts winning at about 96 MFLOP per layer (95% CI 80–120 M), i.e. from
 * batch 24 at hidden 2048." */
void fit_sentence(const fit_crossover *c, const results *r, char *buf, size_t size);

#endif
