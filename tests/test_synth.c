/*
 * test_synth.c — the fit against a known truth: a generator of results
 * files for two devices that follow known laws, measured in passes with
 * log-normal noise, and the per-width crossovers the fit finds in them.
 *
 * The base device is a CPU whose throughput depends on the hidden width
 * (t = t0c + f / Pc(h): small widths run out of cache reuse, large ones
 * are efficient), the other a GPU with a latency and one throughput (t =
 * t0g + f / Pg), so the true crossover batch differs by width: at one
 * width the GPU never wins in the measured batches, at another it always
 * does, at the others it crosses in range.  Each sample is the law times
 * exp(σs·z), each pass of a point times one more exp(σp·z) (a machine
 * that is a little faster or slower for a while), 3 passes of 5 samples,
 * as a default run measures.  Over SEEDS seeds the test checks what the
 * README promises: the crossover batch within 10% of the truth, its 95%
 * interval covering the truth in at least 80% of the seeds, the widths
 * that never or always cross named so; and that the same answers come
 * back through a saved and reloaded file (what `refit` reads).  It prints
 * the truth against what was found, for the README.
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

#include "fit.h"
#include "query.h"
#include "workload.h"

#define SEEDS 60
#define PASSES 3
#define PER_PASS 5
#define LAYERS 4
#define SIGMA_SAMPLE 0.05
#define SIGMA_PASS 0.03
/* A shared machine (issue 19): each point a few percent off its law in
 * this run, the same in every pass, and some samples 2–4× slow.  (Between
 * two identical real runs of a 2-core machine single points differed by up
 * to 1.44×.) */
#define SIGMA_POINT 0.08
#define SLOW_SHARE 0.10

/* How the generated run is noisy. */
typedef struct noise {
    double point; /* log SD of a point's offset, the same in all its passes */
    double slow;  /* the share of samples 2–4× slow                         */
} noise;

static const noise QUIET = {0.0, 0.0}, SHARED = {SIGMA_POINT, SLOW_SHARE};

static const int widths[] = {128, 256, 384, 512, 768, 1024};
static const double cpu_P[] = {280e9, 150e9, 135e9, 120e9, 160e9, 100e9}; /* Pc(h) */
static const int batches[] = {16, 32, 64, 128, 256, 512, 1024};
#define NW (int)(sizeof widths / sizeof *widths)
#define NB (int)(sizeof batches / sizeof *batches)
static const double T0C = 4e-6, T0G = 80e-6, PG = 300e9; /* seconds per layer, FLOP/s */

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double normal(uint64_t *s)
{
    double u = ((double)(next_u64(s) >> 11) + 0.5) * 0x1.0p-53;
    double v = ((double)(next_u64(s) >> 11) + 0.5) * 0x1.0p-53;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* The true crossover at width index w: the batch where the laws meet,
 * +inf when the GPU's throughput is not higher. */
static double truth_batch(int w)
{
    double dinv = 1.0 / cpu_P[w] - 1.0 / PG;
    if (!(dinv > 0.0))
        return INFINITY;
    return (T0G - T0C) / dinv / workload_flops_per_layer(WL_INFERENCE, widths[w], 1);
}

/* The kind the measured batches should show at width index w. */
static cross_kind truth_kind(int w)
{
    double b = truth_batch(w);
    return b <= batches[0] ? CROSS_ALWAYS : b > batches[NB - 1] ? CROSS_NEVER : CROSS_IN_RANGE;
}

static void add_device(results *r, const char *id, const char *kind, const char *type)
{
    device_info d;
    err e;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.type, sizeof d.type, "%s", type);
    snprintf(d.name, sizeof d.name, "Synthetic %s", type);
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
}

static double uniform(uint64_t *s)
{
    return ((double)(next_u64(s) >> 11) + 0.5) * 0x1.0p-53;
}

/* One point of a device whose per-layer time is t, measured in passes. */
static void add_point(results *r, const char *id, int hidden, int batch, double t, noise nz,
                      uint64_t *s)
{
    step_times st[PASSES * PER_PASS] = {{0}};
    int pass[PASSES * PER_PASS], k, i, n = 0;
    rs_point p;
    err e;

    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "%s", id);
    p.mode = WL_INFERENCE;
    p.layers = LAYERS;
    p.hidden = hidden;
    p.batch = batch;
    p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, hidden, batch);
    p.status = PT_OK;
    if (nz.point > 0.0)
        t *= exp(nz.point * normal(s));
    for (k = 1; k <= PASSES; k++) {
        double drift = exp(SIGMA_PASS * normal(s));
        for (i = 0; i < PER_PASS; i++, n++) {
            st[n].wall = LAYERS * t * drift * exp(SIGMA_SAMPLE * normal(s));
            if (nz.slow > 0.0 && uniform(s) < nz.slow)
                st[n].wall *= 2.0 + 2.0 * uniform(s);
            st[n].kernel = st[n].h2d = st[n].d2h = st[n].total = -1.0;
            pass[n] = k;
        }
    }
    p.nsamples = n;
    p.samples = st;
    p.pass = pass;
    assert_int_equal(results_summarize(&p, &e), BE_OK);
    assert_int_equal(results_add_point(r, &p, &e), BE_OK);
}

/* A results model of both devices over the whole grid, noise from seed. */
static results *generate(uint64_t seed, noise nz)
{
    results *r = results_new();
    uint64_t s = seed * 0x2545F4914F6CDD1DULL + 1;
    int w, b, k;
    assert_non_null(r);
    snprintf(r->prov.version, sizeof r->prov.version, "synthetic");
    snprintf(r->prov.id, sizeof r->prov.id, "synthetic-%llu", (unsigned long long)seed);
    snprintf(r->prov.started, sizeof r->prov.started, "2026-11-23T00:00:00Z");
    snprintf(r->prov.finished, sizeof r->prov.finished, "2026-11-23T00:02:00Z");
    snprintf(r->prov.modes, sizeof r->prov.modes, "inference");
    r->prov.seed = seed;
    r->prov.budget = 120;
    r->prov.layers = LAYERS;
    r->prov.cores = 2;
    r->prov.blas_threads = 2;
    r->prov.memory = 4e9;
    add_device(r, "cpu", "openblas", "CPU");
    add_device(r, "cl:0.0", "opencl", "GPU");
    for (k = 1; k <= PASSES; k++) {
        rs_pass ps;
        err e;
        memset(&ps, 0, sizeof ps);
        ps.index = k;
        snprintf(ps.started, sizeof ps.started, "2026-11-23T00:00:0%dZ", k);
        ps.seconds = 30;
        ps.visits = 2 * NW * NB;
        assert_int_equal(results_add_pass(r, &ps, &e), BE_OK);
    }
    for (w = 0; w < NW; w++)
        for (b = 0; b < NB; b++) {
            double f = workload_flops_per_layer(WL_INFERENCE, widths[w], batches[b]);
            add_point(r, "cpu", widths[w], batches[b], T0C + f / cpu_P[w], nz, &s);
            add_point(r, "cl:0.0", widths[w], batches[b], T0G + f / PG, nz, &s);
        }
    /* as the sweep leaves them: each with its device's prior */
    assert_int_equal(results_summarize_all(r, NULL), BE_OK);
    return r;
}

static const fit_crossover *the_cross(const fit_set *fs)
{
    const fit_crossover *c = q_cross(fs, "cpu", "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0);
    assert_non_null(c);
    assert_int_equal(c->nhidden, NW);
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What the fit found over a number of seeds, per width. */
typedef struct tally {
    int seeds;
    int kind_ok[NW], close[NW], covered[NW];
    int nin, tot_close, tot_cov; /* over the widths that cross in range */
} tally;

/* Over seeds runs with noise nz: per width, how often the kind is right,
 * the batch within 10%, the interval covering the truth; prints the table
 * for the docs. */
static void recover(noise nz, int seeds, tally *out)
{
    double *found = calloc((size_t)(NW * seeds), sizeof *found);
    double *lo = calloc((size_t)(NW * seeds), sizeof *lo);
    double *hi = calloc((size_t)(NW * seeds), sizeof *hi);
    double *f = calloc((size_t)seeds, sizeof *f), *l = calloc((size_t)seeds, sizeof *l);
    double *u = calloc((size_t)seeds, sizeof *u);
    int seed, w;

    assert_true(found && lo && hi && f && l && u);
    memset(out, 0, sizeof *out);
    out->seeds = seeds;
    for (seed = 0; seed < seeds; seed++) {
        results *r = generate((uint64_t)seed + 1, nz);
        fit_set fs;
        const fit_crossover *c;
        err e;
        assert_int_equal(fit_run(r, NULL, (uint64_t)seed + 1, 1000, &fs, &e), BE_OK);
        c = the_cross(&fs);
        for (w = 0; w < NW; w++) {
            const fit_hidden_cross *h = &c->per_hidden[w];
            double t = truth_batch(w);
            int k = w * seeds + seed;
            assert_int_equal(h->hidden, widths[w]);
            out->kind_ok[w] += h->kind == truth_kind(w);
            found[k] = h->kind == CROSS_IN_RANGE ? h->batch : NAN;
            lo[k] = h->lo_open ? 0.0 : h->batch_lo;
            hi[k] = h->hi_open ? INFINITY : h->batch_hi;
            if (truth_kind(w) != CROSS_IN_RANGE)
                continue;
            out->close[w] += h->kind == CROSS_IN_RANGE && fabs(h->batch / t - 1.0) <= 0.10;
            out->covered[w] += lo[k] <= t && t <= hi[k];
        }
        fit_set_free(&fs);
        results_free(r);
    }

    printf("synthetic runs: %d seeds, %d passes of %d samples, noise %.0f%% per sample and "
           "%.0f%% per pass (log-normal)",
           seeds, PASSES, PER_PASS, 100 * SIGMA_SAMPLE, 100 * SIGMA_PASS);
    if (nz.point > 0.0 || nz.slow > 0.0)
        printf(", %.0f%% per point (the same in every pass), %.0f%% of samples 2-4x slow",
               100 * nz.point, 100 * nz.slow);
    printf("\n%6s %9s %9s %11s %14s %9s %9s %8s\n", "hidden", "truth", "kind", "median",
           "median 95% CI", "kind ok", "in 10%", "covered");
    for (w = 0; w < NW; w++) {
        int n = 0, i;
        char t[32], med[32], ci[48];
        for (i = 0; i < seeds; i++)
            if (!isnan(found[w * seeds + i])) {
                f[n] = found[w * seeds + i];
                l[n] = lo[w * seeds + i];
                u[n++] = hi[w * seeds + i];
            }
        if (isinf(truth_batch(w)) || truth_kind(w) != CROSS_IN_RANGE)
            snprintf(t, sizeof t, "(%.0f)", truth_batch(w));
        else
            snprintf(t, sizeof t, "%.1f", truth_batch(w));
        med[0] = ci[0] = '\0';
        if (n > 0) {
            qsort(f, (size_t)n, sizeof *f, cmp_double);
            qsort(l, (size_t)n, sizeof *l, cmp_double);
            qsort(u, (size_t)n, sizeof *u, cmp_double);
            snprintf(med, sizeof med, "%.1f", f[n / 2]);
            snprintf(ci, sizeof ci, "%.1f\xe2\x80\x93%.1f", l[n / 2], u[n / 2]);
        }
        printf("%6d %9s %9s %11s %14s %6d/%d", widths[w], t, fit_cross_kind_name(truth_kind(w)),
               n ? med : "-", n ? ci : "-", out->kind_ok[w], seeds);
        if (truth_kind(w) == CROSS_IN_RANGE)
            printf(" %6d/%d %5d/%d\n", out->close[w], seeds, out->covered[w], seeds);
        else
            printf("\n");
        if (truth_kind(w) == CROSS_IN_RANGE) {
            out->nin++;
            out->tot_close += out->close[w];
            out->tot_cov += out->covered[w];
        }
    }
    printf("in range: within 10%% in %d of %d, covered in %d of %d\n", out->tot_close,
           out->nin * seeds, out->tot_cov, out->nin * seeds);
    free(found);
    free(lo);
    free(hi);
    free(f);
    free(l);
    free(u);
}

/* The seeds of the coverage study: SEEDS, or BREAKEVEN_SYNTH_SEEDS to
 * measure on more (a study, not a test: the assertions stay those below). */
static int seeds_wanted(void)
{
    const char *v = getenv("BREAKEVEN_SYNTH_SEEDS");
    int n = v ? atoi(v) : 0;
    return n >= SEEDS && n <= 100000 ? n : SEEDS;
}

/* A quiet machine: noise per sample and per pass only. */
static void test_truth_recovered(void **state)
{
    tally t;
    int w;
    (void)state;
    recover(QUIET, seeds_wanted(), &t);
    for (w = 0; w < NW; w++) {
        /* never and always are named so, every time */
        if (truth_kind(w) != CROSS_IN_RANGE) {
            assert_int_equal(t.kind_ok[w], t.seeds);
            continue;
        }
        assert_true(t.kind_ok[w] >= t.seeds * 95 / 100);
        assert_true(t.close[w] >= t.seeds * 90 / 100);
        assert_true(t.covered[w] >= t.seeds * 80 / 100);
    }
    assert_true(t.nin >= 3);
}

/* A shared machine: points off their laws by a few percent in this run
 * (the same in every pass, so their own intervals cannot show it) and some
 * samples 2–4× slow.  The intervals must still cover the truth in at least
 * 90% of the cases, each width in at least 85% (0.2.0's intervals, from
 * the medians' own errors alone: 83% of 4,000, 1,000 seeds; these: 95%);
 * never and always are named so in at least 98%. */
static void test_truth_on_a_shared_machine(void **state)
{
    tally t;
    int w;
    (void)state;
    recover(SHARED, seeds_wanted(), &t);
    for (w = 0; w < NW; w++) {
        if (truth_kind(w) != CROSS_IN_RANGE) {
            assert_true(t.kind_ok[w] >= t.seeds * 98 / 100);
            continue;
        }
        assert_true(t.covered[w] >= t.seeds * 85 / 100);
    }
    assert_true(t.tot_cov >= t.nin * t.seeds * 90 / 100);
}

/* The same answers after a save and a load: what `breakeven refit` reads
 * (its summaries recomputed from the stored samples). */
static void test_through_a_file(void **state)
{
    char dir[] = "/tmp/test_synth_XXXXXX", path[64];
    results *r = generate(7, QUIET), *back = NULL;
    fit_set a, b;
    err e;
    int w;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/results.xml", dir);
    assert_int_equal(results_save(r, NULL, path, &e), BE_OK);
    if (results_load(path, &back, &e) < 0)
        fail_msg("%s", e.msg);
    assert_int_equal(results_summarize_all(back, &e), BE_OK);
    assert_int_equal(fit_run(r, NULL, 7, 1000, &a, &e), BE_OK);
    assert_int_equal(fit_run(back, NULL, 7, 1000, &b, &e), BE_OK);
    for (w = 0; w < NW; w++) {
        const fit_hidden_cross *x = &the_cross(&a)->per_hidden[w],
                               *y = &the_cross(&b)->per_hidden[w];
        assert_int_equal(x->kind, y->kind);
        assert_true(x->batch == y->batch && x->batch_lo == y->batch_lo &&
                    x->batch_hi == y->batch_hi);
    }
    fit_set_free(&a);
    fit_set_free(&b);
    results_free(r);
    results_free(back);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truth_recovered),
        cmocka_unit_test(test_truth_on_a_shared_machine),
        cmocka_unit_test(test_through_a_file),
    };
    return cmocka_run_group_tests_name("synthetic", tests, NULL, NULL);
}
