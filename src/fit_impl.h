/*
 * fit_impl.h — what the three files of the fit module share, and nothing
 * outside it includes: fit.c (the models, fit_run), fit_cross.c (where two
 * models meet, the bootstrap, the per-hidden crossovers) and fit_words.c
 * (the crossover's sentence).  The public interface is fit.h.
 */
#ifndef BE_FIT_IMPL_H
#define BE_FIT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "fit.h"

/* The usable points of one device × mode × view, with what the fit and
 * the bootstrap need.  Owned by whoever called fit_series_collect. */
typedef struct fit_series {
    int n;
    int *idx;          /* indexes into r->points                          */
    double *f, *t, *w; /* FLOPs per layer, median time per layer, weight  */
    int *off, *cnt;    /* each point's samples in vals (with samples only) */
    double *vals;      /* per-layer sample times, sorted within each point */
    int maxcnt;
} fit_series;

/* 1 when p (of device id, mode) can be fitted in view v: measured ok in
 * that view, with samples, layers and FLOPs. */
int fit_usable(const rs_point *p, const char *id, wl_mode mode, fit_view v);

/* Collects the usable points of id × mode × v (with their sorted per-layer
 * samples when with_samples); BE_EFAIL when out of memory. */
int fit_series_collect(const results *r, const char *id, wl_mode mode, fit_view v,
                       int with_samples, fit_series *s, err *e);
void fit_series_free(fit_series *s);

/* "3 of 12 inference points usable for the resident view (9 out of
 * memory)": why a model has too few points. */
void fit_describe_unusable(const results *r, const char *id, wl_mode mode, fit_view v,
                           int nusable, char *buf, size_t size);

/* qsort's comparison of doubles, ascending. */
int fit_cmp_double(const void *a, const void *b);

/* Fills c (its devices, mode, view and cost set by the caller): where the
 * models bm and om (scaled by kb and ko, the prices per second for cost)
 * meet, the bootstrap CI over the series sb and so (boot resamples from
 * seed), the per-hidden crossovers and the sentence. */
int fit_crossover_fill(const results *r, const fit_model *bm, const fit_model *om,
                       const fit_series *sb, const fit_series *so, double kb, double ko,
                       uint64_t seed, int boot, fit_crossover *c, err *e);

#endif
