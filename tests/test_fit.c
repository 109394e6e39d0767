/*
 * test_fit.c — the fit module (src/fit*.c): the weighted line, crossovers
 * and their bootstrap CI, the answer in words, prices (price.h) and cost,
 * and the refinement suggestions (refine.h).
 *
 * Every results model here is synthetic, built in memory from a known
 * latency + throughput law with seeded noise, so each test knows the
 * answer it expects.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "findings.h"
#include "fit.h"
#include "price.h"
#include "query.h"
#include "refine.h"
#include "workload.h"

#define NSAMP 15
#define LAYERS 2

static const int grid_hidden[] = {128, 256, 512, 1024, 2048};
static const int grid_batch[] = {16, 32, 64, 128, 256, 512, 1024};
#define NH (int)(sizeof grid_hidden / sizeof *grid_hidden)
#define NB (int)(sizeof grid_batch / sizeof *grid_batch)

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double rng_sym(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void add_device(results *r, const char *id, const char *kind, const char *type,
                       const char *name)
{
    device_info d;
    err e;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.type, sizeof d.type, "%s", type);
    snprintf(d.name, sizeof d.name, "%s", name);
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
}

/* Adds one point whose per-layer time is t (seconds) times NSAMP samples
 * of symmetric multiplicative noise ±noise (the median stays unbiased);
 * xfer > 0 adds transfer samples (total = wall + xfer per step). */
static int add_point(results *r, const char *id, wl_mode mode, int hidden, int batch, double t,
                     double noise, double xfer, rs_status status, uint64_t *rng)
{
    step_times s[NSAMP] = {{0}};
    rs_point p;
    err e;
    int i;

    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "%s", id);
    p.mode = mode;
    p.layers = LAYERS;
    p.hidden = hidden;
    p.batch = batch;
    p.flops_per_layer = workload_flops_per_layer(mode, hidden, batch);
    p.status = status;
    if (status == PT_OK) {
        for (i = 0; i < NSAMP; i++) {
            s[i].wall = LAYERS * t * (1.0 + noise * rng_sym(rng));
            s[i].kernel = -1.0;
            s[i].h2d = s[i].d2h = xfer > 0.0 ? xfer / 2.0 : -1.0;
            s[i].total = xfer > 0.0 ? s[i].wall + xfer : -1.0;
        }
        p.nsamples = NSAMP;
        p.samples = s;
        p.has_transfer = xfer > 0.0;
        assert_int_equal(results_summarize(&p, &e), BE_OK);
    }
    assert_int_equal(results_add_point(r, &p, &e), BE_OK);
    return r->npoints - 1;
}

/* The whole grid of one device following t(f) = t0 + f/P. */
static void add_law(results *r, const char *id, wl_mode mode, double t0, double P, double noise,
                    double xfer, uint64_t *rng)
{
    int h, b;
    for (h = 0; h < NH; h++)
        for (b = 0; b < NB; b++) {
            double f = workload_flops_per_layer(mode, grid_hidden[h], grid_batch[b]);
            add_point(r, id, mode, grid_hidden[h], grid_batch[b], t0 + f / P, noise, xfer, PT_OK,
                      rng);
        }
}

/* The crossover of other against base in one mode, view and cost, or NULL. */
static const fit_crossover *find_cross(const fit_set *s, const char *other, wl_mode mode,
                                       fit_view v, int cost)
{
    int i;
    for (i = 0; i < s->ncross; i++)
        if (strcmp(s->cross[i].other, other) == 0 && s->cross[i].mode == mode &&
            s->cross[i].view == v && s->cross[i].cost == cost)
            return &s->cross[i];
    return NULL;
}

static double rel_diff(double a, double b)
{
    return fabs(a - b) / fabs(b);
}

/* Two devices following known laws; the caller frees r. */
static results *two_devices(double t0b, double Pb, double t0o, double Po, const char *otype,
                            double noise, uint64_t seed)
{
    results *r = results_new();
    uint64_t rng = seed;
    assert_non_null(r);
    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", otype, "Test Device X");
    add_law(r, "cpu", WL_INFERENCE, t0b, Pb, noise, 0.0, &rng);
    add_law(r, "cl:0.0", WL_INFERENCE, t0o, Po, noise, 0.0, &rng);
    return r;
}

/* ---- names and the line ------------------------------------------------------ */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(fit_view_name(FIT_RESIDENT), "resident");
    assert_string_equal(fit_view_name(FIT_TRANSFER), "transfer");
    assert_string_equal(fit_cross_kind_name(CROSS_IN_RANGE), "in-range");
    assert_string_equal(fit_cross_kind_name(CROSS_EXTRAPOLATED), "extrapolated");
    assert_string_equal(fit_cross_kind_name(CROSS_NEVER), "never");
    assert_string_equal(fit_cross_kind_name(CROSS_ALWAYS), "always");
    assert_string_equal(fit_cross_kind_name(CROSS_UNKNOWN), "unknown");
}

static void test_line_exact_and_refusals(void **state)
{
    double f[5] = {1e5, 1e6, 1e7, 1e8, 1e9}, t[5], w[5];
    fit_model m;
    int i;
    (void)state;

    for (i = 0; i < 5; i++) {
        t[i] = 2e-5 + f[i] / 4e11;
        w[i] = 1.0 / (t[i] * t[i]);
    }
    assert_int_equal(fit_line(f, t, w, 5, &m), BE_OK);
    assert_true(m.ok);
    assert_true(rel_diff(m.t0, 2e-5) < 1e-9);
    assert_true(rel_diff(m.P, 4e11) < 1e-9);
    assert_true(rel_diff(m.half_size, 2e-5 * 4e11) < 1e-9);
    assert_true(m.rms_rel < 1e-9);
    assert_true(m.fmin == 1e5 && m.fmax == 1e9);
    assert_int_equal(m.npoints, 5);

    /* one point off by 10%: the errors and the RMS see it */
    t[2] *= 1.1;
    assert_int_equal(fit_line(f, t, NULL, 5, &m), BE_OK);
    assert_true(m.rms_rel > 0.01);
    assert_true(m.t0_err > 0.0 && m.P_err > 0.0);

    assert_true(fit_line(f, t, w, 1, &m) < 0);
    assert_false(m.ok);
    assert_true(strlen(m.why) > 0);
    for (i = 0; i < 5; i++)
        f[i] = 1e6;
    assert_true(fit_line(f, t, w, 5, &m) < 0);
    assert_false(m.ok);
    assert_non_null(strstr(m.why, "same FLOPs"));
    for (i = 0; i < 5; i++) {
        f[i] = 1e6 * (i + 1);
        t[i] = 1e-3 - 1e-5 * i;
    }
    assert_true(fit_line(f, t, NULL, 5, &m) < 0);
    assert_false(m.ok);
    assert_non_null(strstr(m.why, "does not grow"));

    /* a free line would cross below zero: the fit goes through the origin
     * instead, t0 exactly 0, never negative */
    for (i = 0; i < 5; i++) {
        f[i] = 1e6 * (i + 1);
        t[i] = -1e-6 + f[i] / 1e11;
    }
    assert_int_equal(fit_line(f, t, NULL, 5, &m), BE_OK);
    assert_true(m.ok);
    assert_true(m.t0 == 0.0 && m.t0_err == 0.0 && m.half_size == 0.0);
    assert_true(m.P > 1e11 && m.P < 1.2e11);
    assert_true(m.P_err > 0.0);
}

static void test_fit_recovers_t0_and_P(void **state)
{
    results *r = results_new();
    uint64_t rng = 42;
    fit_set s;
    err e;
    const fit_model *m;
    int i;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_law(r, "cpu", WL_INFERENCE, 2e-5, 5e11, 0.03, 0.0, &rng);
    add_law(r, "cpu", WL_TRAINING, 3e-5, 4e11, 0.03, 0.0, &rng);
    assert_int_equal(fit_run(r, NULL, 1, 100, &s, &e), BE_OK);
    /* no transfer view for the CPU; per mode one model over all widths and
     * one at each width */
    assert_int_equal(s.nmodels, 2 * (1 + NH));
    assert_int_equal(s.ncross, 0);
    assert_int_equal(s.analysis, FIT_ANALYSIS);
    for (i = 0; i < NH; i++) {
        m = q_model_at(&s, "cpu", WL_INFERENCE, FIT_RESIDENT, grid_hidden[i]);
        assert_non_null(m);
        assert_int_equal(m->hidden, grid_hidden[i]);
        assert_int_equal(m->npoints, NB);
        assert_true(m->rms_rel < 0.03);
        assert_false(m->poor);
        assert_true(q_model_sound(m));
    }
    assert_null(q_model_at(&s, "cpu", WL_INFERENCE, FIT_RESIDENT, 4096));

    m = q_model(&s, "cpu", WL_INFERENCE, FIT_RESIDENT);
    assert_non_null(m);
    assert_true(m->ok);
    assert_int_equal(m->npoints, NH * NB);
    assert_true(rel_diff(m->t0, 2e-5) < 0.02);
    assert_true(rel_diff(m->P, 5e11) < 0.02);
    assert_true(rel_diff(m->half_size, 2e-5 * 5e11) < 0.04);
    assert_true(m->rms_rel < 0.03);
    assert_true(m->t0_err > 0.0 && m->t0_err < 0.1 * m->t0);
    assert_true(m->P_err > 0.0 && m->P_err < 0.1 * m->P);
    assert_int_equal(m->noutliers, 0);

    m = q_model(&s, "cpu", WL_TRAINING, FIT_RESIDENT);
    assert_non_null(m);
    assert_true(rel_diff(m->t0, 3e-5) < 0.02);
    assert_true(rel_diff(m->P, 4e11) < 0.02);
    assert_null(q_model(&s, "cpu", WL_TRAINING, FIT_TRANSFER));
    assert_null(q_model(&s, "cl:0.0", WL_TRAINING, FIT_RESIDENT));

    fit_set_free(&s);
    results_free(r);
}

static void test_outlier_flagged(void **state)
{
    results *r = results_new();
    uint64_t rng = 7;
    fit_set s;
    err e;
    const fit_model *m;
    int h, b, bad = -1;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    for (h = 0; h < NH; h++)
        for (b = 0; b < NB; b++) {
            double f = workload_flops_per_layer(WL_INFERENCE, grid_hidden[h], grid_batch[b]);
            double t = 1e-5 + f / 5e11;
            int slow = grid_hidden[h] == 1024 && grid_batch[b] == 256;
            int i = add_point(r, "cpu", WL_INFERENCE, grid_hidden[h], grid_batch[b],
                              slow ? 1.6 * t : t, 0.01, 0.0, PT_OK, &rng);
            if (slow)
                bad = i;
        }
    assert_int_equal(fit_run(r, NULL, 1, 100, &s, &e), BE_OK);
    m = q_model(&s, "cpu", WL_INFERENCE, FIT_RESIDENT);
    assert_non_null(m);
    assert_int_equal(m->noutliers, 1);
    assert_int_equal(m->outliers[0], bad);
    fit_set_free(&s);
    results_free(r);

    /* seven points, one 40% slow: it inflates the plain RMS enough to hide
     * behind three of it, but not the RMS of the other six */
    r = results_new();
    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    for (b = 0; b < NB; b++) {
        double f = workload_flops_per_layer(WL_INFERENCE, 512, grid_batch[b]);
        double t = 1e-5 + f / 5e11;
        int i = add_point(r, "cpu", WL_INFERENCE, 512, grid_batch[b], b == 3 ? 1.4 * t : t, 0.01,
                          0.0, PT_OK, &rng);
        if (b == 3)
            bad = i;
    }
    assert_int_equal(fit_run(r, NULL, 1, 100, &s, &e), BE_OK);
    m = q_model(&s, "cpu", WL_INFERENCE, FIT_RESIDENT);
    assert_non_null(m);
    assert_true(m->rms_rel * 3.0 > 0.9 * fabs(0.4 / 1.4)); /* the plain RMS would hide it */
    assert_int_equal(m->noutliers, 1);
    assert_int_equal(m->outliers[0], bad);
    fit_set_free(&s);
    results_free(r);
}

/* ---- crossovers ------------------------------------------------------------------ */

static void test_meet_cases(void **state)
{
    fit_model b, o;
    cross_kind k;
    double f;
    (void)state;

    memset(&b, 0, sizeof b);
    memset(&o, 0, sizeof o);
    b.ok = o.ok = 1;
    b.t0 = 1e-5;
    b.P = 2e11;
    o.t0 = 2e-4;
    o.P = 2e12; /* meet at 1.9e-4 / 4.5e-12 */
    fit_meet(&b, &o, 1e6, 1e9, &k, &f);
    assert_int_equal(k, CROSS_IN_RANGE);
    assert_true(rel_diff(f, 1.9e-4 / 4.5e-12) < 1e-9);
    fit_meet(&b, &o, 1e6, 1e7, &k, &f);
    assert_int_equal(k, CROSS_EXTRAPOLATED);
    fit_meet(&b, &o, 1e8, 1e9, &k, &f);
    assert_int_equal(k, CROSS_ALWAYS);
    o.t0 = 1e-6;
    fit_meet(&b, &o, 1e6, 1e9, &k, &f);
    assert_int_equal(k, CROSS_ALWAYS);
    o.t0 = 2e-4;
    o.P = 1e11;
    fit_meet(&b, &o, 1e6, 1e9, &k, &f);
    assert_int_equal(k, CROSS_NEVER);
    o.ok = 0;
    fit_meet(&b, &o, 1e6, 1e9, &k, &f);
    assert_int_equal(k, CROSS_UNKNOWN);
    assert_true(f == 0.0);
}

/* The crossover batch at hidden H where two global laws meet at truth
 * FLOPs per layer. */
static double truth_batch(double truth, int hidden)
{
    return truth / workload_flops_per_layer(WL_INFERENCE, hidden, 1);
}

static void test_crossover_synthetic(void **state)
{
    const double t0b = 1e-5, Pb = 2e11, t0o = 2e-4, Po = 2e12;
    const double truth = (t0o - t0b) / (1.0 / Pb - 1.0 / Po);
    results *r = two_devices(t0b, Pb, t0o, Po, "GPU", 0.05, 11);
    fit_set s, s2, s3;
    err e;
    const fit_crossover *c, *c2, *c3;
    int i, same = 1, covered = 0;
    (void)state;

    assert_int_equal(fit_run(r, NULL, 123, 1000, &s, &e), BE_OK);
    c = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_string_equal(c->base, "cpu");
    assert_int_equal(c->nhidden, NH);
    /* the truth: batch 1284 at hidden 128 (beyond 1024), 321 at 256, 80 at
     * 512, 20 at 1024, 5 at 2048 (below 16) */
    assert_int_equal(c->per_hidden[0].kind, CROSS_NEVER);
    assert_int_equal(c->per_hidden[4].kind, CROSS_ALWAYS);
    /* each 95% interval holds its point; here (5% noise, 15 samples, no
     * passes) they are about ±3%, so one of three may miss the truth */
    for (i = 1; i <= 3; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        double want = truth_batch(truth, h->hidden);
        assert_int_equal(h->kind, CROSS_IN_RANGE);
        assert_true(rel_diff(h->batch, want) < 0.10);
        covered += h->batch_lo <= want && want <= h->batch_hi;
        assert_true(h->batch_lo <= h->batch && h->batch <= h->batch_hi);
        assert_true(h->batch_hi < 1.2 * h->batch_lo);
        assert_true(rel_diff(h->flops, truth) < 0.10);
    }
    assert_true(covered >= 2);
    /* the summary spans the widths and its interval holds each of theirs */
    assert_int_equal(c->kind, CROSS_IN_RANGE);
    assert_true(c->flops_min <= c->flops && c->flops <= c->flops_max);
    assert_true(c->ci_lo <= c->flops_min && c->flops_max <= c->ci_hi);
    assert_true(c->ci_lo <= truth && truth <= c->ci_hi);
    for (i = 1; i <= 3; i++) {
        assert_true(c->ci_lo <=
                    q_flops_at(WL_INFERENCE, c->per_hidden[i].hidden, c->per_hidden[i].batch_lo) *
                        (1 + 1e-12));
        assert_true(c->ci_hi >=
                    q_flops_at(WL_INFERENCE, c->per_hidden[i].hidden, c->per_hidden[i].batch_hi) *
                        (1 - 1e-12));
    }
    /* informative, not the whole axis */
    assert_true(c->ci_hi < 2.0 * truth && c->ci_lo > 0.5 * truth);

    /* the same seed gives the same intervals; another seed other ones */
    assert_int_equal(fit_run(r, NULL, 123, 1000, &s2, &e), BE_OK);
    assert_int_equal(fit_run(r, NULL, 124, 1000, &s3, &e), BE_OK);
    c2 = find_cross(&s2, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    c3 = find_cross(&s3, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_true(c2->ci_lo == c->ci_lo && c2->ci_hi == c->ci_hi);
    for (i = 0; i < NH; i++)
        same &= c3->per_hidden[i].batch_lo == c->per_hidden[i].batch_lo &&
                c3->per_hidden[i].batch_hi == c->per_hidden[i].batch_hi;
    assert_false(same);
    assert_true(c3->flops == c->flops);

    /* without prices there is no cost crossover */
    assert_null(find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 1));
    fit_set_free(&s);
    fit_set_free(&s2);
    fit_set_free(&s3);
    results_free(r);
}

static void test_transfer_view(void **state)
{
    results *r = results_new();
    uint64_t rng = 5;
    fit_set s;
    err e;
    const fit_crossover *res, *xfer;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", "GPU", "Test GPU");
    add_law(r, "cpu", WL_INFERENCE, 1e-5, 2e11, 0.02, 0.0, &rng);
    add_law(r, "cl:0.0", WL_INFERENCE, 2e-4, 2e12, 0.02, 4e-4, &rng);
    assert_int_equal(fit_run(r, NULL, 3, 200, &s, &e), BE_OK);
    assert_non_null(q_model(&s, "cl:0.0", WL_INFERENCE, FIT_TRANSFER));
    res = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    xfer = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_TRANSFER, 0);
    assert_non_null(res);
    assert_non_null(xfer);
    /* 4e-4 s per step over LAYERS layers adds latency: a later crossover */
    assert_int_equal(xfer->kind, CROSS_IN_RANGE);
    {
        const double want = (2e-4 + 4e-4 / LAYERS - 1e-5) / (1 / 2e11 - 1 / 2e12);
        int i, n = 0, covered = 0;
        assert_true(rel_diff(xfer->flops, want) < 0.10);
        assert_true(xfer->ci_lo <= want && want <= xfer->ci_hi);
        for (i = 0; i < NH; i++) {
            const fit_hidden_cross *x = &xfer->per_hidden[i], *h = &res->per_hidden[i];
            if (x->kind != CROSS_IN_RANGE)
                continue;
            n++;
            /* the transfer intervals come from the transfer samples: each
             * a 95% interval, so one of the widths may miss */
            covered += x->batch_lo <= truth_batch(want, x->hidden) &&
                       truth_batch(want, x->hidden) <= x->batch_hi;
            assert_true(rel_diff(x->batch, truth_batch(want, x->hidden)) < 0.10);
            if (h->kind == CROSS_IN_RANGE)
                assert_true(x->batch_lo > h->batch_hi);
        }
        assert_true(n >= 2);
        assert_true(covered >= n - 1);
    }
    assert_true(xfer->flops > res->flops);
    assert_non_null(strstr(xfer->sentence, "transfers counted"));
    fit_set_free(&s);
    results_free(r);
}

/* ---- the answer in words ------------------------------------------------------------ */

static const fit_crossover *run_one(results *r, fit_set *s, uint64_t seed)
{
    err e;
    const fit_crossover *c;
    assert_int_equal(fit_run(r, NULL, seed, 200, s, &e), BE_OK);
    c = find_cross(s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    return c;
}

static void test_words_in_range(void **state)
{
    results *r = two_devices(1e-5, 2e11, 2e-4, 2e12, "GPU", 0.02, 21);
    fit_set s;
    const fit_crossover *c = run_one(r, &s, 1);
    (void)state;
    assert_int_equal(c->kind, CROSS_IN_RANGE);
    /* the devices by name (q_device_name), never id and driver string */
    assert_non_null(strstr(c->sentence, "Test Device X is faster than OpenBLAS at "));
    assert_non_null(strstr(c->sentence, " of 35 shapes measured: at every batch at hidden 2048, "
                                        "from batch "));
    assert_non_null(strstr(c->sentence, " at hidden 1024 (95% CI "));
    assert_non_null(strstr(c->sentence, "at every batch at hidden 2048"));
    assert_non_null(strstr(c->sentence, "at no batch at hidden 128"));
    /* one law for every width: one FLOP count where they cross */
    assert_non_null(strstr(c->sentence, "; the crossover lies at about 42 MFLOP per layer at "
                                        "each width that crosses (95% CI "));
    assert_non_null(strstr(c->sentence, "In inference with data resident"));
    assert_null(strstr(c->sentence, "extrapolation"));
    fit_set_free(&s);
    results_free(r);
}

static void test_words_extrapolated(void **state)
{
    /* meets at 0.1 / 4.5e-12 ≈ 22 GFLOP, beyond the 8.6 GFLOP measured */
    results *r = two_devices(1e-5, 2e11, 0.1, 2e12, "GPU", 0.02, 22);
    fit_set s;
    const fit_crossover *c = run_one(r, &s, 1);
    (void)state;
    assert_int_equal(c->kind, CROSS_EXTRAPOLATED);
    assert_true(rel_diff(c->flops, (0.1 - 1e-5) / (1 / 2e11 - 1 / 2e12)) < 0.05);
    assert_true(c->flops_min <= c->flops && c->flops <= c->flops_max);
    assert_non_null(strstr(c->sentence, "at none of the 35 shapes measured"));
    /* the crossing nobody measured is named, never quoted as a size */
    assert_non_null(strstr(c->sentence, "would have it cross beyond the largest size measured"));
    assert_non_null(strstr(c->sentence, "an extrapolation, not a measurement"));
    assert_null(strstr(c->sentence, "GFLOP per layer"));
    fit_set_free(&s);
    results_free(r);
}

static void test_words_never(void **state)
{
    results *r = two_devices(1e-5, 2e11, 2e-4, 1e11, "GPU", 0.02, 23);
    fit_set s;
    const fit_crossover *c = run_one(r, &s, 1);
    (void)state;
    assert_int_equal(c->kind, CROSS_NEVER);
    assert_true(c->ci_lo == 0.0 && c->ci_hi == 0.0 && c->flops == 0.0);
    assert_non_null(strstr(c->sentence, "at none of the 35 shapes measured (at best "));
    /* the best is quoted with its interval, as the factor slower (issue
     * 41: never "0.00×") */
    assert_non_null(strstr(c->sentence, "\xc3\x97 slower (95% CI "));
    assert_null(strstr(c->sentence, "0.00\xc3\x97"));
    assert_non_null(strstr(c->sentence, "the per-width models predict no crossing beyond it"));
    fit_set_free(&s);
    results_free(r);
}

static void test_words_always(void **state)
{
    results *r = two_devices(1e-4, 2e11, 1e-5, 2e12, "GPU", 0.02, 24);
    fit_set s;
    const fit_crossover *c = run_one(r, &s, 1);
    int i;
    (void)state;
    assert_int_equal(c->kind, CROSS_ALWAYS);
    assert_non_null(strstr(c->sentence, "Test Device X is faster than OpenBLAS at"));
    assert_non_null(strstr(c->sentence, "at every one of the 35 shapes measured"));
    for (i = 0; i < c->nhidden; i++)
        assert_int_equal(c->per_hidden[i].kind, CROSS_ALWAYS);
    fit_set_free(&s);
    results_free(r);
}

static void test_words_unknown_oom(void **state)
{
    results *r = results_new();
    uint64_t rng = 25;
    fit_set s;
    const fit_crossover *c;
    const fit_model *m;
    int h, b;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", "GPU", "Tiny GPU");
    add_law(r, "cpu", WL_INFERENCE, 1e-5, 2e11, 0.02, 0.0, &rng);
    for (h = 0; h < NH; h++)
        for (b = 0; b < NB; b++)
            add_point(r, "cl:0.0", WL_INFERENCE, grid_hidden[h], grid_batch[b], 0.0, 0.0, 0.0,
                      PT_OUT_OF_MEMORY, &rng);
    c = run_one(r, &s, 1);
    assert_int_equal(c->kind, CROSS_UNKNOWN);
    assert_true(c->flops == 0.0 && c->ci_hi == 0.0);
    assert_non_null(strstr(c->sentence, "cannot be told"));
    assert_non_null(strstr(c->sentence, "35 out of memory"));
    m = q_model(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT);
    assert_non_null(m);
    assert_false(m->ok);
    assert_non_null(strstr(m->why, "out of memory"));
    for (h = 0; h < c->nhidden; h++)
        assert_int_equal(c->per_hidden[h].kind, CROSS_UNKNOWN);
    fit_set_free(&s);
    results_free(r);
}

/* A CPU-type OpenCL device (pocl) is named as what it is. */
static void test_words_cpu_opencl_device(void **state)
{
    results *r = results_new();
    uint64_t rng = 26;
    fit_set s;
    const fit_crossover *c;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "AMD EPYC 7B13");
    add_device(r, "cl:0.0", "opencl", "CPU", "pthread-haswell-AMD EPYC");
    add_law(r, "cpu", WL_INFERENCE, 1e-5, 2e11, 0.02, 0.0, &rng);
    add_law(r, "cl:0.0", WL_INFERENCE, 5e-5, 5e10, 0.02, 0.0, &rng);
    c = run_one(r, &s, 1);
    assert_non_null(strstr(c->sentence, "PoCL (CPU) is "));
    assert_null(strstr(c->sentence, "pthread-"));
    assert_null(strstr(c->sentence, "GPU"));
    fit_set_free(&s);
    results_free(r);
}

/* The sentence's numbers: the widths with their intervals, open ends, the
 * range across widths with SI prefixes. */
static void test_sentence_format(void **state)
{
    results *r = results_new();
    fit_crossover c;
    finding f;
    char buf[1024];
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", "GPU", "NVIDIA H100");
    memset(&c, 0, sizeof c);
    snprintf(c.base, sizeof c.base, "cpu");
    snprintf(c.other, sizeof c.other, "cl:0.0");
    c.kind = CROSS_IN_RANGE;
    c.flops = 9.6e7;
    c.flops_min = 9.6e7;
    c.flops_max = 1.9e8;
    c.ci_lo = 8e7;
    c.ci_hi = 2.5e8;
    c.nhidden = 3;
    c.per_hidden[0].hidden = 512;
    c.per_hidden[0].kind = CROSS_NEVER;
    c.per_hidden[1].hidden = 1024;
    c.per_hidden[1].kind = CROSS_IN_RANGE;
    c.per_hidden[1].batch = 90.2;
    c.per_hidden[1].flops = 1.9e8;
    c.per_hidden[1].batch_lo = 70.5;
    c.per_hidden[1].batch_hi = 110.2;
    c.per_hidden[2].hidden = 2048;
    c.per_hidden[2].kind = CROSS_IN_RANGE;
    c.per_hidden[2].batch = 5.7;
    c.per_hidden[2].flops = 9.6e7;
    c.per_hidden[2].batch_lo = 4;
    c.per_hidden[2].batch_hi = 8.3;
    c.per_hidden[2].lo_open = 1;
    findings_of(r, NULL, NULL, &c, &f);
    assert_int_equal(f.verdict, FIND_UNKNOWN); /* no points */
    f.verdict = FIND_SOME;
    f.nshapes = 9;
    f.nwins = 4;
    f.width[0].nshapes = f.width[1].nshapes = f.width[2].nshapes = 3;
    /* every shape's side settled by its interval: the plain count */
    f.nsure = 4;
    f.nsure_behind = 5;
    findings_shapes_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "at 4 of 9 shapes measured");
    /* some not: the count is the medians', and says how many are settled */
    f.nsure = 1;
    findings_shapes_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "at 4 of 9 shapes measured by the medians (settled at 1)");
    f.nsure = 0;
    findings_shapes_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "at 4 of 9 shapes measured by the medians (settled at none)");
    f.nsure = 4;
    findings_widths_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "from batch 6 at hidden 2048 (95% CI under 4 to 9), "
                             "from batch 91 at hidden 1024 (95% CI 70\u2013111) "
                             "and at no batch at hidden 512");
    /* a never that its interval does not support says what it leaves open */
    c.per_hidden[0].batch_lo = 700.2;
    c.per_hidden[0].batch_hi = 1024;
    c.per_hidden[0].hi_open = 1;
    findings_widths_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "from batch 6 at hidden 2048 (95% CI under 4 to 9), "
                             "from batch 91 at hidden 1024 (95% CI 70\u2013111) "
                             "and at no batch at hidden 512 (though a crossing from batch 700 on "
                             "is within its 95% CI)");
    /* neighbouring nevers alike share a clause, and the lowest open batch */
    c.per_hidden[1].kind = CROSS_NEVER;
    c.per_hidden[1].batch_lo = 650.5;
    c.per_hidden[1].batch_hi = 1024;
    findings_widths_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "from batch 6 at hidden 2048 (95% CI under 4 to 9) and at no batch at "
                             "hidden 512 to 1024 (though a crossing from batch 650 on is within "
                             "their 95% CIs)");
    f.verdict = FIND_NEVER;
    findings_sentence(&f, r, buf, sizeof buf);
    assert_non_null(strstr(buf, "; at hidden 512 and 1024, though, a crossing from batch "
                                "650 on is within their 95% CIs."));
    f.verdict = FIND_SOME;
    c.per_hidden[1].kind = CROSS_IN_RANGE;
    c.per_hidden[1].batch_lo = 70.5;
    c.per_hidden[1].batch_hi = 110.2;
    c.per_hidden[0].batch_lo = c.per_hidden[0].batch_hi = 1024; /* every replicate: never */
    findings_widths_text(&f, buf, sizeof buf);
    assert_null(strstr(buf, "though"));
    c.per_hidden[0].batch_lo = c.per_hidden[0].batch_hi = 0.0;
    c.per_hidden[0].hi_open = 0;
    findings_range_text(&f, buf, sizeof buf);
    assert_string_equal(buf, "from about 96 MFLOP per layer at hidden 2048 to 190 MFLOP at "
                             "hidden 1024 (95% CI 80\u2013250 MFLOP)");
    c.ci_lo = c.ci_hi = 0.0;
    findings_range_text(&f, buf, sizeof buf);
    assert_non_null(strstr(buf, "(no bounded 95% CI)"));
    /* an older analysis has no interval, and says so */
    c.per_hidden[1].batch_lo = c.per_hidden[1].batch_hi = 0.0;
    findings_widths_text(&f, buf, sizeof buf);
    assert_non_null(strstr(buf, "from batch 91 at hidden 1024 (no interval: an older analysis"));

    c.cost = 1;
    findings_sentence(&f, r, buf, sizeof buf);
    assert_non_null(strstr(buf, "is cheaper per step than OpenBLAS at 4 of 9 shapes measured: "
                                "from batch 6 at hidden 2048"));

    /* a run that never wins names the widths where its interval leaves a
     * crossing open */
    f.verdict = FIND_NEVER;
    f.nwins = 0;
    c.per_hidden[0].batch_lo = 700.2;
    c.per_hidden[0].batch_hi = 1024;
    c.per_hidden[0].hi_open = 1;
    findings_sentence(&f, r, buf, sizeof buf);
    assert_non_null(
        strstr(buf, "; at hidden 512, though, a crossing from batch 700 on is within its 95% CI."));
    f.verdict = FIND_SOME;
    f.nwins = 4;

    /* a short buffer is cut, never overrun */
    findings_sentence(&f, r, buf, 16);
    assert_int_equal(strlen(buf), 15);
    results_free(r);
}

/* ---- the M1 post's shape ------------------------------------------------------------ */

static void test_m1_fixture(void **state)
{
    /* CPU: ~0.7 TFLOP/s plateau, 5 µs latency; GPU: ~1.3 TFLOP/s with the
     * latency that puts the meeting point at 1e8 FLOP per layer; memory
     * effects at hidden 1024 and 2048 as in the post. */
    const double Pc = 0.7e12, Pg = 1.3e12, t0c = 5e-6;
    const double t0g = t0c + 1e8 * (1.0 / Pc - 1.0 / Pg);
    results *r = results_new();
    uint64_t rng = 2023;
    fit_set s;
    err e;
    const fit_crossover *c;
    const fit_model *mc, *mg;
    int h, b;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Apple M1 Max");
    add_device(r, "cl:0.0", "opencl", "GPU", "Apple M1 Max");
    for (h = 0; h < NH; h++)
        for (b = 0; b < NB; b++) {
            int H = grid_hidden[h], B = grid_batch[b];
            double f = workload_flops_per_layer(WL_INFERENCE, H, B);
            double tc = t0c + f / Pc, tg = t0g + f / Pg;
            if (H == 2048 && B == 1024)
                tc *= 1.35;
            if (H == 1024 && B == 16)
                tg *= 1.4;
            add_point(r, "cpu", WL_INFERENCE, H, B, tc, 0.05, 0.0, PT_OK, &rng);
            add_point(r, "cl:0.0", WL_INFERENCE, H, B, tg, 0.05, 0.0, PT_OK, &rng);
        }
    assert_int_equal(fit_run(r, NULL, 9, 300, &s, &e), BE_OK);
    c = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_int_equal(c->kind, CROSS_IN_RANGE);
    assert_true(c->flops > 1e8 / 1.5 && c->flops < 1e8 * 1.5);
    assert_true(c->ci_lo <= 1e8 && 1e8 <= c->ci_hi);
    mc = q_model(&s, "cpu", WL_INFERENCE, FIT_RESIDENT);
    mg = q_model(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT);
    assert_true(rel_diff(mc->P, Pc) < 0.1);
    assert_true(rel_diff(mg->P, Pg) < 0.1);
    /* the memory effects are flagged */
    assert_true(mc->noutliers >= 1);
    assert_true(mg->noutliers >= 1);
    assert_int_equal(r->points[mc->outliers[0]].hidden, 2048);
    assert_int_equal(r->points[mg->outliers[0]].hidden, 1024);
    /* 1e8 FLOP is batch ~12 at hidden 2048 (below the grid) and ~48 at 1024 */
    assert_int_equal(c->nhidden, NH);
    assert_int_equal(c->per_hidden[4].hidden, 2048);
    assert_int_equal(c->per_hidden[4].kind, CROSS_ALWAYS);
    assert_int_equal(c->per_hidden[0].kind, CROSS_NEVER);
    assert_int_equal(c->per_hidden[2].kind, CROSS_IN_RANGE);
    assert_non_null(strstr(c->sentence, "at hidden 512"));
    fit_set_free(&s);
    results_free(r);
}

/* ---- per-hidden interpolation ------------------------------------------------------- */

static void test_per_hidden_interpolation(void **state)
{
    /* At hidden 512 the time difference other − base is 1.9e-3 − 0.9e-3 ·
     * B/32 per layer: linear in the batch, with the other device behind
     * at 16 and 32 and ahead at 128 and 256, so the crossing is exactly
     * where it meets zero, B = 32 · 1.9 / 0.9. */
    static const int batches[] = {16, 32, 128, 256};
    results *r = results_new();
    uint64_t rng = 1;
    fit_set s;
    err e;
    const fit_crossover *c;
    double want = 32.0 * 1.9 / 0.9;
    int i;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", "GPU", "Test GPU");
    for (i = 0; i < 4; i++) {
        int B = batches[i];
        add_point(r, "cpu", WL_INFERENCE, 512, B, 1e-3 * B / 32.0, 0.0, 0.0, PT_OK, &rng);
        add_point(r, "cl:0.0", WL_INFERENCE, 512, B, 1.9e-3 + 0.1e-3 * B / 32.0, 0.0, 0.0, PT_OK,
                  &rng);
    }
    assert_int_equal(fit_run(r, NULL, 1, 100, &s, &e), BE_OK);
    c = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_int_equal(c->nhidden, 1);
    assert_int_equal(c->per_hidden[0].hidden, 512);
    assert_int_equal(c->per_hidden[0].kind, CROSS_IN_RANGE);
    assert_true(fabs(c->per_hidden[0].batch - want) < 1e-9 * want);
    assert_true(fabs(c->per_hidden[0].batch_lo - want) < 1e-9 * want);
    assert_true(fabs(c->per_hidden[0].batch_hi - want) < 1e-9 * want);
    assert_true(rel_diff(c->per_hidden[0].flops, (2.0 * 512 * 512 + 512) * want) < 1e-12);
    assert_non_null(strstr(c->sentence, "from batch 68 at hidden 512 (95% CI 67\u201368)"));
    fit_set_free(&s);
    results_free(r);
}

/* ---- prices and cost -------------------------------------------------------------- */

static void test_price_parse(void **state)
{
    fit_prices p;
    err e;
    (void)state;

    memset(&p, 0, sizeof p);
    assert_int_equal(price_parse(&p, "cpu=0.12", &e), BE_OK);
    assert_int_equal(p.n, 1);
    assert_true(q_price(&p, "cpu") == 0.12);
    assert_int_equal(price_parse(&p, " cl:0.0 = 2.5 ", &e), BE_OK);
    assert_true(q_price(&p, "cl:0.0") == 2.5);
    assert_int_equal(price_parse(&p, "cpu=0.2", &e), BE_OK); /* replaces */
    assert_int_equal(p.n, 2);
    assert_true(q_price(&p, "cpu") == 0.2);
    assert_true(q_price(&p, "cl:9.9") < 0.0);
    assert_true(q_price(NULL, "cpu") < 0.0);

    assert_int_equal(price_parse(&p, "cpu=", &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "\"cpu=\""));
    assert_int_equal(price_parse(&p, "=1", &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "names no device"));
    assert_int_equal(price_parse(&p, "cpu=abc", &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "\"abc\" is not a number"));
    assert_int_equal(price_parse(&p, "cpu=-1", &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "positive"));
    assert_int_equal(price_parse(&p, "cpu", &e), BE_EUSAGE);
    assert_int_equal(price_parse(&p, "cpu=1.5x", &e), BE_EUSAGE);
    assert_int_equal(price_parse(&p, "cpu=inf", &e), BE_EUSAGE);
    assert_int_equal(price_parse(&p, "cpu=0", &e), BE_EUSAGE);
    assert_int_equal(p.n, 2);
    assert_true(q_price(&p, "cpu") == 0.2);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_prices_load(void **state)
{
    char path[] = "/tmp/test_fit_prices_XXXXXX";
    fit_prices p;
    err e;
    int fd = mkstemp(path);
    (void)state;

    assert_true(fd >= 0);
    close(fd);
    memset(&p, 0, sizeof p);
    write_file(path, "# prices in USD per hour\n"
                     "\n"
                     "cpu 0.12   # on-demand\n"
                     "cl:0.0=2.49\n"
                     "   cl:0.1   =  1.10  \n");
    assert_int_equal(price_load(&p, path, &e), BE_OK);
    assert_int_equal(p.n, 3);
    assert_true(q_price(&p, "cpu") == 0.12);
    assert_true(q_price(&p, "cl:0.0") == 2.49);
    assert_true(q_price(&p, "cl:0.1") == 1.10);

    write_file(path, "# comment\n"
                     "cl:0.2 3\n"
                     "cl:0.3 abc\n");
    assert_int_equal(price_load(&p, path, &e), BE_EUSAGE);
    {
        char want[64];
        snprintf(want, sizeof want, "%s:3: ", path);
        assert_non_null(strstr(e.msg, want));
    }
    assert_int_equal(p.n, 3); /* a bad file leaves the prices alone */
    assert_true(q_price(&p, "cl:0.2") < 0.0);

    write_file(path, "cpu 1 2\n");
    assert_int_equal(price_load(&p, path, &e), BE_EUSAGE);
    {
        char want[64];
        snprintf(want, sizeof want, "%s:1: ", path);
        assert_non_null(strstr(e.msg, want));
    }
    unlink(path);
    assert_int_equal(price_load(&p, path, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, path));
}

static void test_cost_crossover(void **state)
{
    const double t0b = 1e-5, Pb = 2e11, t0o = 2e-4, Po = 2e12, ub = 0.5, uo = 2.0;
    /* cost per step = t · USD/h / 3600: the lines scale by the prices */
    const double truth = (t0o * uo - t0b * ub) / (ub / Pb - uo / Po);
    results *r = two_devices(t0b, Pb, t0o, Po, "GPU", 0.03, 31);
    fit_prices p;
    fit_set s;
    err e;
    const fit_crossover *c, *t;
    (void)state;

    memset(&p, 0, sizeof p);
    assert_int_equal(price_parse(&p, "cpu=0.5", &e), BE_OK);
    assert_int_equal(fit_run(r, &p, 1, 300, &s, &e), BE_OK);
    assert_null(find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 1));
    assert_int_equal(s.ncross, 1);
    fit_set_free(&s);

    assert_int_equal(price_parse(&p, "cl:0.0=2", &e), BE_OK);
    assert_int_equal(fit_run(r, &p, 1, 300, &s, &e), BE_OK);
    assert_int_equal(s.ncross, 2);
    c = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 1);
    t = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_non_null(t);
    assert_int_equal(c->kind, CROSS_IN_RANGE);
    assert_true(rel_diff(c->flops, truth) < 0.10);
    assert_true(c->ci_lo <= truth && truth <= c->ci_hi);
    assert_true(c->flops > t->flops); /* the dearer device needs more work to pay off */
    assert_non_null(strstr(c->sentence, "is cheaper per step than"));
    fit_set_free(&s);
    results_free(r);
}

/* ---- refinement ------------------------------------------------------------------- */

static int was_measured(const results *r, int hidden, int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].hidden == hidden && r->points[i].batch == batch)
            return 1;
    return 0;
}

static void test_suggest(void **state)
{
    static const int batches[] = {16, 64, 256, 1024};
    results *r = results_new();
    uint64_t rng = 77;
    fit_set s;
    err e;
    const fit_crossover *c;
    int hidden[32], batch[32], n, i, j, h;
    (void)state;

    add_device(r, "cpu", "openblas", "CPU", "Test CPU 9000");
    add_device(r, "cl:0.0", "opencl", "GPU", "Test GPU");
    for (h = 0; h < NH; h++)
        for (i = 0; i < 4; i++) {
            int H = grid_hidden[h], B = batches[i];
            double f = workload_flops_per_layer(WL_INFERENCE, H, B);
            add_point(r, "cpu", WL_INFERENCE, H, B, 1e-5 + f / 2e11, 0.2, 0.0, PT_OK, &rng);
            add_point(r, "cl:0.0", WL_INFERENCE, H, B, 2e-4 + f / 2e12, 0.2, 0.0, PT_OK, &rng);
        }
    /* at hidden 1024 the midpoints were tried and ran out of memory: they
     * count as measured and must not come back */
    for (i = 32; i <= 512; i *= 4)
        add_point(r, "cl:0.0", WL_INFERENCE, 1024, i, 0.0, 0.0, 0.0, PT_OUT_OF_MEMORY, &rng);
    assert_int_equal(fit_run(r, NULL, 1, 200, &s, &e), BE_OK);
    c = find_cross(&s, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_int_equal(c->kind, CROSS_IN_RANGE);

    /* any CI is wider than ±0: every width that crosses in range gets a
     * batch between the measured batches that bracket its crossing */
    n = refine_suggest(&s, r, 0.0, hidden, batch, 32);
    assert_true(n >= 1);
    for (i = 0; i < n; i++) {
        int lo = 0, hi = 0, found = 0;
        for (j = 0; j < c->nhidden; j++)
            if (c->per_hidden[j].hidden == hidden[i] && c->per_hidden[j].kind == CROSS_IN_RANGE) {
                double b = c->per_hidden[j].batch;
                int k;
                found = 1;
                for (k = 0; k < 4; k++) {
                    if (batches[k] < b)
                        lo = batches[k];
                    if (batches[k] > b && !hi)
                        hi = batches[k];
                }
            }
        assert_true(found);
        assert_true(lo > 0 && hi > 0);
        assert_true(batch[i] > lo && batch[i] < hi);
        assert_false(was_measured(r, hidden[i], batch[i]));
        for (j = 0; j < i; j++)
            assert_false(hidden[j] == hidden[i] && batch[j] == batch[i]);
    }
    /* at most max */
    assert_int_equal(refine_suggest(&s, r, 0.0, hidden, batch, 1), 1);
    /* intervals within ±10%: nothing to refine */
    for (i = 0; i < s.ncross; i++)
        for (j = 0; j < s.cross[i].nhidden; j++) {
            fit_hidden_cross *x = &s.cross[i].per_hidden[j];
            x->lo_open = x->hi_open = 0;
            x->batch_lo = 0.95 * x->batch;
            x->batch_hi = 1.05 * x->batch;
        }
    assert_int_equal(refine_suggest(&s, r, 0.10, hidden, batch, 32), 0);
    /* an open interval is wide at any tolerance */
    for (i = 0; i < s.ncross; i++)
        for (j = 0; j < s.cross[i].nhidden; j++)
            s.cross[i].per_hidden[j].hi_open = 1;
    assert_int_equal(refine_suggest(&s, r, 10.0, hidden, batch, 32), n);
    fit_set_free(&s);
    results_free(r);
}

static void test_empty_results(void **state)
{
    results *r = results_new();
    fit_set s;
    err e;
    int hidden[4], batch[4];
    (void)state;
    assert_int_equal(fit_run(r, NULL, 1, 0, &s, &e), BE_OK);
    assert_int_equal(s.nmodels, 0);
    assert_int_equal(s.ncross, 0);
    assert_int_equal(refine_suggest(&s, r, 0.0, hidden, batch, 4), 0);
    fit_set_free(&s);
    results_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_line_exact_and_refusals),
        cmocka_unit_test(test_fit_recovers_t0_and_P),
        cmocka_unit_test(test_outlier_flagged),
        cmocka_unit_test(test_meet_cases),
        cmocka_unit_test(test_crossover_synthetic),
        cmocka_unit_test(test_transfer_view),
        cmocka_unit_test(test_words_in_range),
        cmocka_unit_test(test_words_extrapolated),
        cmocka_unit_test(test_words_never),
        cmocka_unit_test(test_words_always),
        cmocka_unit_test(test_words_unknown_oom),
        cmocka_unit_test(test_words_cpu_opencl_device),
        cmocka_unit_test(test_sentence_format),
        cmocka_unit_test(test_m1_fixture),
        cmocka_unit_test(test_per_hidden_interpolation),
        cmocka_unit_test(test_price_parse),
        cmocka_unit_test(test_prices_load),
        cmocka_unit_test(test_cost_crossover),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_empty_results),
    };
    return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
