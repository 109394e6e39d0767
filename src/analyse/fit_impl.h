/*
 * fit_impl.h — what the three files of the fit module share, and nothing
 * outside it includes: fit.c (the models, fit_run), fit_cross.c (the
 * per-width crossovers and their summary) and fit_words.c (the crossover's
 * sentence).  The public interface is fit.h.
 */
#ifndef BE_FIT_IMPL_H
#define BE_FIT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "fit.h"

/* The usable points of one device × mode × view (× hidden width), with
 * what the fit needs.  Owned by whoever called fit_series_collect. */
typedef struct fit_series {
    int n;
    int *idx;          /* indexes into r->points                          */
    double *f, *t, *w; /* FLOPs per layer, median time per layer, weight  */
} fit_series;

/* 1 when p (of device id, mode) can be fitted in view v: measured ok in
 * that view, with samples, layers and FLOPs. */
int fit_usable(const rs_point *p, const char *id, wl_mode mode, fit_view v);

/* Collects the usable points of id × mode × v at hidden width hidden (0:
 * every width); BE_EFAIL when out of memory. */
int fit_series_collect(const results *r, const char *id, wl_mode mode, fit_view v, int hidden,
                       fit_series *s, err *e);
void fit_series_free(fit_series *s);

/* "3 of 12 inference points usable for the resident view (9 out of
 * memory)": why a model has too few points. */
void fit_describe_unusable(const results *r, const char *id, wl_mode mode, fit_view v, int nusable,
                           char *buf, size_t size);

/* Fills c (its devices, mode, view and cost set by the caller): the
 * per-width crossovers from the series sb (the base device in view bview)
 * and so (the other device in c->view), scaled by kb and ko (the prices
 * per second for cost; 1 for time) with boot replicates from seed, the
 * summary across widths (extrapolated by the per-width models of fs where
 * no width crosses in range) and the sentence (prices: those of the cost
 * crossovers, or NULL). */
int fit_crossover_fill(const results *r, const fit_set *fs, fit_view bview, const fit_series *sb,
                       const fit_series *so, double kb, double ko, const fit_prices *prices,
                       uint64_t seed, int boot, fit_crossover *c, err *e);

#endif
