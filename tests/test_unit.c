/*
 * test_unit.c — unit tests of the library under breakeven (cmocka):
 * size lists, FLOP counts, statistics, the results file (round trip and
 * rejection of bad files), atomic writes, the memory check, the command
 * line, the CPU backend checked by the verifier (which must also catch
 * a wrong result), the formatting of numbers and dates, and the queries
 * over the results model.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachehop.h"
#include "changes.h"
#include "cli.h"
#include "compare.h"
#include "cpu.h"
#include "devinfo.h"
#include "host.h"
#include "fmt.h"
#include "fsx.h"
#include "list.h"
#include "machstate.h"
#include "pick.h"
#include "plan.h"
#include "query.h"
#include "reproduce.h"
#include "results.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"
#include "workload.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-unit-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- lists ---- */

static void test_list_forms(void **state)
{
    size_list l;
    err e;
    (void)state;
    assert_int_equal(list_parse("128,256,512", "--hidden", 65536, &l, &e), BE_OK);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.v[2], 512);
    assert_int_equal(list_parse("16..1024", "--batch", 1 << 20, &l, &e), BE_OK);
    assert_int_equal(l.n, 7);
    assert_int_equal(l.v[0], 16);
    assert_int_equal(l.v[6], 1024);
    assert_int_equal(list_parse("64,16..32,48,32", "--batch", 1 << 20, &l, &e), BE_OK);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.v[0], 16);
    assert_int_equal(l.v[1], 32);
    assert_int_equal(l.v[2], 48);
    assert_int_equal(l.v[3], 64);
    assert_int_equal(list_parse("7", "--batch", 1 << 20, &l, &e), BE_OK);
    assert_int_equal(l.v[0], 7);
}

static void test_list_errors(void **state)
{
    static const char *bad[] = {"",       ",",    "1,,2", "12a",      "0",   "-5",  "3..8",
                                "64..16", "16..", "..16", "99999999", "1.5", " 16", "16 "};
    size_list l;
    err e;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        e.msg[0] = '\0';
        assert_int_equal(list_parse(bad[i], "--hidden", 65536, &l, &e), BE_EUSAGE);
        assert_non_null(strstr(e.msg, "--hidden"));
    }
    assert_int_equal(list_parse("131072", "--hidden", 65536, &l, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "limit"));
}

/* ---- FLOP counts ---- */

/* A device's fp32 peak: a GPU of the table by a whole word of its name
 * (an A10 is not an A100) times what it reported; a CPU by its isa, cores
 * and clock; nothing for an unknown device or one that reported no clock. */
static void test_device_peak(void **state)
{
    device_info d;
    double f;
    char how[160];
    (void)state;
    memset(&d, 0, sizeof d);
    snprintf(d.kind, sizeof d.kind, "opencl");
    snprintf(d.name, sizeof d.name, "NVIDIA A100-SXM4-40GB");
    devinfo_prop_add(&d, "compute_units", "108");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 0);
    devinfo_prop_add(&d, "max_clock_mhz", "1410");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 1);
    assert_true(fabs(f - 19.49184e12) < 1.0);
    assert_string_equal(how, "NVIDIA Ampere GA100: 108 compute units \xc3\x97 128 FLOP per cycle "
                             "\xc3\x97 1410 MHz");
    snprintf(d.name, sizeof d.name, "NVIDIA A10");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 1);
    assert_true(fabs(f - 108.0 * 256.0 * 1410e6) < 1.0);
    snprintf(d.name, sizeof d.name, "NVIDIA A1000");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 0);
    assert_true(f == 0.0);
    snprintf(d.name, sizeof d.name, "pthread-Intel(R) Xeon(R)");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 0);
    memset(&d, 0, sizeof d);
    snprintf(d.kind, sizeof d.kind, "openblas");
    devinfo_prop_add(&d, "cores", "16");
    devinfo_prop_add(&d, "isa", "avx512");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 0);
    devinfo_prop_add(&d, "max_clock_mhz", "3500");
    assert_int_equal(devinfo_peak(&d, &f, how, sizeof how), 1);
    assert_true(fabs(f - 16.0 * 64.0 * 3500e6) < 1.0);
    assert_string_equal(how,
                        "avx512: 16 CPUs \xc3\x97 64 FLOP per cycle \xc3\x97 3500 MHz, a bound");
}

static void test_flops(void **state)
{
    (void)state;
    /* the M1 post: (2·H² + H)·B */
    assert_true(workload_flops_per_layer(WL_INFERENCE, 128, 16) == (2.0 * 128 * 128 + 128) * 16);
    assert_true(workload_flops_per_layer(WL_INFERENCE, 2048, 1024) == 8592031744.0);
    /* training, H = 2, B = 3: (6·4 + 3·2)·3 + 2·4 + 2·2 = 102 */
    assert_true(workload_flops_per_layer(WL_TRAINING, 2, 3) == 102.0);
    /* training costs about three times the forward pass */
    assert_true(fabs(workload_flops_per_layer(WL_TRAINING, 1024, 256) /
                         workload_flops_per_layer(WL_INFERENCE, 1024, 256) -
                     3.0) < 0.01);
}

/* ---- statistics ---- */

static void test_stats_basic(void **state)
{
    double x[9] = {5, 1, 9, 3, 7, 2, 8, 4, 6};
    stats_summary s;
    (void)state;
    assert_int_equal(stats_summarize(x, 9, &s, NULL), BE_OK);
    assert_int_equal(s.n, 9);
    assert_true(s.median == 5.0);
    assert_true(s.min == 1.0 && s.max == 9.0);
    assert_true(fabs(s.p10 - 1.8) < 1e-12);
    assert_true(fabs(s.p90 - 8.2) < 1e-12);
    assert_true(s.mean == 5.0);
    assert_true(fabs(s.stdev - sqrt(7.5)) < 1e-12);
    assert_true(fabs(s.cv - sqrt(7.5) / 5.0) < 1e-12);
    /* n = 9: [x(2), x(8)] covers 1 − 2·10/512 = 96.1% */
    assert_true(s.ci_lo == 2.0 && s.ci_hi == 8.0);
    assert_true(fabs(s.ci_level - (1.0 - 20.0 / 512.0)) < 1e-12);
    assert_int_equal(stats_summarize(x, 0, &s, NULL), BE_EFAIL);
}

static uint64_t rng_state = 42;
static double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* The median's CI must cover the true median about 95% of the time. */
static void test_stats_ci_coverage(void **state)
{
    double x[40];
    int trial, covered = 0, trials = 2000, i;
    (void)state;
    for (trial = 0; trial < trials; trial++) {
        stats_summary s;
        for (i = 0; i < 40; i++)
            x[i] = -log(uniform()); /* exponential: skewed like timings; median ln 2 */
        assert_int_equal(stats_summarize(x, 40, &s, NULL), BE_OK);
        covered += s.ci_lo <= log(2.0) && log(2.0) <= s.ci_hi;
        assert_true(s.ci_level >= 0.95);
    }
    assert_true(covered >= trials * 0.93);
    assert_true(covered <= trials * 0.99);
}

static void test_stats_drift_and_convergence(void **state)
{
    double rising[30], flat[30];
    stats_summary s;
    int i;
    (void)state;
    for (i = 0; i < 30; i++) {
        rising[i] = 1.0 + 0.01 * i + 0.001 * uniform();
        flat[i] = 1.0 + 0.001 * uniform();
    }
    assert_int_equal(stats_summarize(rising, 30, &s, NULL), BE_OK);
    assert_int_equal(s.drift, 1);
    assert_true(s.drift_ratio > 1.1);
    assert_int_equal(stats_summarize(flat, 30, &s, NULL), BE_OK);
    assert_int_equal(s.drift, 0);
    assert_true(stats_converged(&s, 0.02));
    for (i = 0; i < 30; i++)
        flat[i] = 1.0 + uniform();
    assert_int_equal(stats_summarize(flat, 30, &s, NULL), BE_OK);
    assert_false(stats_converged(&s, 0.02));
}

/* A series of values with intervals of ±rel around each. */
static void chg_series(chg_value *x, const double *v, int n, double rel)
{
    int i;
    for (i = 0; i < n; i++) {
        x[i].v = v[i];
        x[i].lo = v[i] / (1.0 + rel);
        x[i].hi = v[i] * (1.0 + rel);
    }
}

/* One real step (100 → 80 from the 7th run on) and one lone outlier (140
 * at the 5th): the step is found where it happened, with its size; the
 * outlier, a level of one run, is not a change. */
static void test_changes_step_not_outlier(void **state)
{
    static const double v[] = {100, 101, 99, 100, 140, 100, 80, 81, 79, 80, 81};
    chg_value x[11];
    chg_step st[CHG_MAX];
    int n;
    err e;
    (void)state;
    chg_series(x, v, 11, 0.03);
    assert_int_equal(changes_find(x, NULL, 11, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 6);
    assert_int_equal(st[0].nbefore, 6);
    assert_int_equal(st[0].nafter, 5);
    /* the levels are medians: the outlier does not move the size */
    assert_true(fabs(st[0].before - 100.0) < 1e-9);
    assert_true(fabs(st[0].after - 80.0) < 1e-9);
    assert_true(fabs(st[0].ratio - 0.8) < 1e-12);
    assert_true(st[0].ratio_lo < st[0].ratio && st[0].ratio < st[0].ratio_hi);
    assert_true(st[0].ratio_hi < 1.0 - CHG_NOISE);
    /* the outlier alone, at the end or in the middle: nothing */
    {
        static const double tail[] = {100, 101, 99, 100, 100, 140};
        static const double mid[] = {100, 101, 99, 60, 100, 100, 99};
        chg_series(x, tail, 6, 0.03);
        assert_int_equal(changes_find(x, NULL, 6, st, CHG_MAX, &n, &e), BE_OK);
        assert_int_equal(n, 0);
        chg_series(x, mid, 7, 0.03);
        assert_int_equal(changes_find(x, NULL, 7, st, CHG_MAX, &n, &e), BE_OK);
        assert_int_equal(n, 0);
    }
}

/* Two steps, each found against its own neighbours. */
static void test_changes_two_steps(void **state)
{
    static const double v[] = {10, 10.1, 9.9, 20, 20.2, 19.8, 20.1, 10, 10.1, 9.9};
    chg_value x[10];
    chg_step st[CHG_MAX];
    int n;
    err e;
    (void)state;
    chg_series(x, v, 10, 0.02);
    assert_int_equal(changes_find(x, NULL, 10, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(st[0].at, 3);
    assert_int_equal(st[1].at, 7);
    assert_true(st[0].ratio > 1.9 && st[0].ratio < 2.1);
    assert_true(st[1].ratio > 0.45 && st[1].ratio < 0.55);
    assert_int_equal(st[1].nbefore, 4);
}

/* The floors: a step within the noise floor is no change however steady;
 * one that tight values show but the runs' own ±40% intervals do not
 * support is none either; too short a series has none. */
static void test_changes_floors(void **state)
{
    static const double small[] = {100, 100, 100, 100, 104, 104, 104, 104};
    static const double big[] = {100, 100, 100, 100, 130, 130, 130, 130};
    chg_value x[8];
    chg_step st[CHG_MAX];
    int n;
    err e;
    (void)state;
    chg_series(x, small, 8, 0.001);
    assert_int_equal(changes_find(x, NULL, 8, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    chg_series(x, big, 8, 0.001);
    assert_int_equal(changes_find(x, NULL, 8, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    chg_series(x, big, 8, 0.40);
    assert_int_equal(changes_find(x, NULL, 8, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    chg_series(x, big + 2, 3, 0.001);
    assert_int_equal(changes_find(x, NULL, 3, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    x[1].lo = 0.0;
    assert_int_equal(changes_find(x, NULL, 3, st, CHG_MAX, &n, &e), BE_EUSAGE);
}

/* Real runs: the OpenCL device's run-level log geometric mean over 20
 * consecutive identical real runs of the 2-core machine (make
 * bench-compare, 2026-11-25, runs 1 to 20), each run's own interval ±1%.
 * Alone: no change, although a level of 2 to 6 runs wanders by 10–20%
 * (without the series' noise floor and the Bonferroni bound, three steps).
 * Every time ×1.2 from the 12th run on (as bench-compare does): one step,
 * found at run 10, because runs 10 and 11 already sat 11% above the nine
 * before them; its interval holds the ×1.2. */
static void test_changes_real_runs(void **state)
{
    static const double g[20] = {-0.068, -0.123, 0.002, -0.014, 0.103,  0.097, 0.007,
                                 0.075,  -0.005, 0.113, 0.107,  0.048,  0.108, 0.038,
                                 0.092,  -0.016, 0.035, -0.007, -0.066, -0.095};
    double v[20];
    chg_value x[20];
    chg_step st[CHG_MAX];
    int n, i;
    err e;
    (void)state;
    for (i = 0; i < 20; i++)
        v[i] = exp(g[i]);
    chg_series(x, v, 20, 0.01);
    assert_int_equal(changes_find(x, NULL, 20, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    for (i = 11; i < 20; i++)
        v[i] *= 1.2;
    chg_series(x, v, 20, 0.01);
    assert_int_equal(changes_find(x, NULL, 20, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 9);
    assert_true(st[0].ratio_lo < 1.2 && 1.2 < st[0].ratio_hi);
}

/* The same real runs with ×1.2 from the 12th run, and something recorded
 * as changed at the 12th run (an interposed BLAS, say): the blind search
 * puts the step at run 10, since runs 10 and 11 sat high already; the
 * data allow runs 10 to 12 (its place's likelihood set), the recorded
 * change lies among them and passes the step test there, so the step is
 * placed at the 12th run, where it was made.  A change recorded far from
 * where the data put the step moves nothing; one where there is no step
 * makes none. */
static void test_changes_known(void **state)
{
    static const double g[20] = {-0.068, -0.123, 0.002, -0.014, 0.103,  0.097, 0.007,
                                 0.075,  -0.005, 0.113, 0.107,  0.048,  0.108, 0.038,
                                 0.092,  -0.016, 0.035, -0.007, -0.066, -0.095};
    double v[20];
    int known[20] = {0};
    chg_value x[20];
    chg_step st[CHG_MAX];
    int n, i;
    err e;
    (void)state;
    for (i = 0; i < 20; i++)
        v[i] = exp(g[i]) * (i >= 11 ? 1.2 : 1.0);
    chg_series(x, v, 20, 0.01);
    known[11] = 1;
    assert_int_equal(changes_find(x, known, 20, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 11);
    assert_int_equal(st[0].known, 1);
    assert_true(st[0].at_lo <= 9 && st[0].at_hi >= 11);
    assert_true(st[0].ratio_lo < 1.2 && 1.2 < st[0].ratio_hi);
    /* recorded at the 4th run instead: the blind step, at run 10 */
    known[11] = 0;
    known[3] = 1;
    assert_int_equal(changes_find(x, known, 20, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 9);
    assert_int_equal(st[0].known, 0);
    /* no step, a change recorded at the 12th run: nothing */
    for (i = 0; i < 20; i++)
        v[i] = exp(g[i]);
    chg_series(x, v, 20, 0.01);
    known[3] = 0;
    known[11] = 1;
    assert_int_equal(changes_find(x, known, 20, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The manual's noise floor of v[0..n), n ≤ 16, by its words: the median
 * absolute deviation of the differences of consecutive logarithms,
 * × 1.4826 / √2. */
static double manual_noise(const double *v, int n)
{
    double dy[16], m;
    int i;
    for (i = 0; i + 1 < n; i++)
        dy[i] = log(v[i + 1]) - log(v[i]);
    qsort(dy, (size_t)(n - 1), sizeof *dy, cmp_dbl);
    m = stats_quantile(dy, n - 1, 0.5);
    for (i = 0; i + 1 < n; i++)
        dy[i] = fabs(dy[i] - m);
    qsort(dy, (size_t)(n - 1), sizeof *dy, cmp_dbl);
    return 1.482602 * stats_quantile(dy, n - 1, 0.5) / sqrt(2.0);
}

/* The SD of the logarithms of v[0..n). */
static double log_sd(const double *v, int n)
{
    double m = 0.0, ss = 0.0;
    int i;
    for (i = 0; i < n; i++)
        m += log(v[i]) / n;
    for (i = 0; i < n; i++)
        ss += (log(v[i]) - m) * (log(v[i]) - m);
    return sqrt(ss / (n - 1));
}

/* The worked example of docs/manual.md ("The history"), number by number,
 * so that the manual and changes.c cannot part unnoticed.  A peak over
 * nine runs, each ×/÷ 1.02, stepping ×1.25 at the seventh: found, its
 * errors set by the series' noise floor.  The same with the fifth a lone
 * bad run: past the 95% quantile but not the Bonferroni one, so no change;
 * nor with three more runs after the step; found with five more before. */
static void test_changes_manual(void **state)
{
    static const double clean[] = {28.6, 27.5, 29.5, 28.6, 28.2, 28.6, 35.8, 35.3, 36.2};
    static const double after[] = {28.6, 27.5, 29.5, 28.6, 19.1, 28.6,
                                   35.8, 35.3, 36.2, 35.6, 35.9, 36.0};
    static const double before[] = {28.6, 27.5, 29.5, 28.6, 19.1, 28.6, 28.3,
                                    28.9, 29.0, 28.4, 28.7, 35.8, 35.3, 36.2};
    const double prec = log(1.02) / 1.959964; /* the runs' own precision */
    double v[9], se1, se2, se, d, noise, q, qb;
    chg_value x[14];
    chg_step st[CHG_MAX];
    int n;
    err e;
    (void)state;
    chg_series(x, clean, 9, 0.02);
    assert_int_equal(changes_find(x, NULL, 9, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 6);
    assert_int_equal(st[0].nbefore, 6);
    assert_int_equal(st[0].nafter, 3);
    assert_true(fabs(st[0].before - 28.6) < 1e-9 && fabs(st[0].after - 35.8) < 1e-9);
    /* "rose 25% (95% interval +19% to +31%)" */
    assert_true(fabs(st[0].ratio - 1.252) < 0.0005);
    assert_true(fabs(st[0].ratio_lo - 1.19) < 0.005 && fabs(st[0].ratio_hi - 1.31) < 0.005);
    /* its arithmetic: noise 0.0294 above the sides' SDs (0.0229, 0.0126)
     * and the precision (0.0101), so SE 0.0120 and 0.0170, 0.0208
     * together; t 2.365 (95%) and 3.636 (over 6 splits) on 7 df */
    noise = manual_noise(clean, 9);
    assert_true(fabs(noise - 0.0294) < 0.00005 && fabs(prec - 0.0101) < 0.00005);
    assert_true(fabs(log_sd(clean, 6) - 0.0229) < 0.00005);
    assert_true(fabs(log_sd(clean + 6, 3) - 0.0126) < 0.00005);
    se1 = noise / sqrt(6.0);
    se2 = noise / sqrt(3.0);
    se = sqrt(se1 * se1 + se2 * se2);
    assert_true(fabs(se1 - 0.0120) < 0.00005 && fabs(se2 - 0.0170) < 0.00005);
    assert_true(fabs(se - 0.0208) < 0.00005);
    q = stats_t975(7);
    qb = stats_t_quantile(1.0 - 0.025 / 6.0, 7);
    assert_true(fabs(q - 2.365) < 0.0005 && fabs(qb - 3.636) < 0.0005);
    d = log(35.8 / 28.6);
    assert_true(fabs(d - 0.2245) < 0.00005 && fabs(d / se - 10.8) < 0.05);
    assert_true(fabs(st[0].ratio_lo - exp(d - q * se)) < 1e-9);
    assert_true(fabs(st[0].ratio_hi - exp(d + q * se)) < 1e-9);

    /* the lone bad run: SD of the first six logarithms 0.166, SE 0.068 and
     * 0.075 together, d / SE 2.98 between the two quantiles; the 95%
     * interval would be +5% to +50% */
    memcpy(v, clean, sizeof clean);
    v[4] = 19.1;
    chg_series(x, v, 9, 0.02);
    assert_int_equal(changes_find(x, NULL, 9, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    se1 = log_sd(v, 6) / sqrt(6.0);
    se2 = fmax(fmax(log_sd(v + 6, 3), manual_noise(v, 9)), prec) / sqrt(3.0);
    se = sqrt(se1 * se1 + se2 * se2);
    assert_true(fabs(log_sd(v, 6) - 0.166) < 0.0005);
    assert_true(fabs(se1 - 0.068) < 0.0005 && fabs(se - 0.075) < 0.0005);
    assert_true(fabs(d / se - 2.98) < 0.005 && q < d / se && d / se < qb);
    assert_true(fabs(exp(d - q * se) - 1.05) < 0.005 && fabs(exp(d + q * se) - 1.50) < 0.005);

    /* three more runs after the step: still none, d / SE 3.27 against
     * 3.52 (t at 1 − 0.025 / 9 on 10 df) */
    chg_series(x, after, 12, 0.02);
    assert_int_equal(changes_find(x, NULL, 12, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 0);
    se2 = fmax(fmax(log_sd(after + 6, 6), manual_noise(after, 12)), prec) / sqrt(6.0);
    se = sqrt(se1 * se1 + se2 * se2);
    d = log((35.8 + 35.9) / 2.0 / 28.6);
    assert_true(fabs(d / se - 3.27) < 0.005);
    assert_true(fabs(stats_t_quantile(1.0 - 0.025 / 9.0, 10) - 3.52) < 0.005);

    /* five more before it: found, +25% (95% interval +15% to +37%) */
    chg_series(x, before, 14, 0.02);
    assert_int_equal(changes_find(x, NULL, 14, st, CHG_MAX, &n, &e), BE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(st[0].at, 11);
    assert_int_equal(st[0].nbefore, 11);
    assert_int_equal(st[0].nafter, 3);
    assert_true(fabs(st[0].ratio - 1.252) < 0.0005);
    assert_true(fabs(st[0].ratio_lo - 1.15) < 0.005 && fabs(st[0].ratio_hi - 1.37) < 0.005);
}

/* z against values computed by hand: U counts the pairs where b is larger
 * (a tie counts one half), z = (U − na·nb/2) / √(na·nb·(na + nb + 1)/12). */
static void test_mann_whitney(void **state)
{
    double a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 10};
    double c[3] = {1, 3, 5}, d[4] = {2, 4, 6, 8}, f[4] = {1, 3, 5, 7}, g[3] = {2, 4, 6};
    double t1[3] = {1, 2, 3}, t2[3] = {3, 4, 5}, lo[3] = {2.9, 4, 5}, hi[3] = {3.1, 4, 5};
    double same[3] = {2, 2, 2}, z;
    (void)state;
    /* no overlap: U = 25, mean 12.5, variance 25·11/12 */
    assert_true(fabs(stats_mann_whitney_z(a, 5, b, 5) - 2.6111648393354674) < 1e-12);
    /* the sign says which side is larger: swapping the samples negates z */
    assert_true(fabs(stats_mann_whitney_z(b, 5, a, 5) + 2.6111648393354674) < 1e-12);
    /* unequal sizes, interleaved: U = 4 + 3 + 2 = 9, mean 6, variance 8 */
    assert_true(fabs(stats_mann_whitney_z(c, 3, d, 4) - 1.0606601717798212) < 1e-12);
    assert_true(fabs(stats_mann_whitney_z(d, 4, c, 3) + 1.0606601717798212) < 1e-12);
    /* U exactly at its mean (3 + 2 + 1 + 0 = 6 of 12): z = 0 */
    assert_true(fabs(stats_mann_whitney_z(f, 4, g, 3)) < 1e-12);
    /* identical samples: every pair a tie, U = its mean */
    assert_true(fabs(stats_mann_whitney_z(a, 5, a, 5)) < 1e-12);
    assert_true(fabs(stats_mann_whitney_z(same, 3, same, 3)) < 1e-12);
    /* one tie (3 in both) counts one half: U = 3 + 3 + 2.5 = 8.5, between the
     * U = 8 of the tie broken downwards and the U = 9 of it broken upwards */
    z = stats_mann_whitney_z(t1, 3, t2, 3);
    assert_true(fabs(stats_mann_whitney_z(t1, 3, lo, 3) - 1.5275252316519468) < 1e-12);
    assert_true(fabs(stats_mann_whitney_z(t1, 3, hi, 3) - 1.9639610121239315) < 1e-12);
    assert_true(z > 1.5275252316519468 && z < 1.9639610121239315);
    /* its exact value: 4 / √5.1 with the tie correction stats.h documents
     * (Σ(t³ − t) = 6 over N = 6), not the plain variance's 4 / √5.25 */
    assert_true(fabs(z - 1.7712297710801908) < 1e-12);
    /* ties within and across the samples: a = {1, 2, 2}, b = {2, 2, 3}; the
     * pooled ranks are 1, 3.5 four times and 6, so b's rank sum is 13 and
     * U = 13 − 6 = 7 (mean 4.5); one tie of 4 gives the variance
     * 0.75·(7 − 60/30) = 3.75, so z = 2.5 / √3.75 */
    {
        double ta[3] = {1, 2, 2}, tb[3] = {2, 2, 3};
        assert_true(fabs(stats_mann_whitney_z(ta, 3, tb, 3) - 1.2909944487358056) < 1e-12);
    }
    /* nothing to compare */
    assert_true(stats_mann_whitney_z(a, 0, b, 5) == 0.0);
}

/* ---- results file ---- */

static void fill_fixture(results *r)
{
    device_info d;
    rs_point p;
    step_times t[6] = {{0}};
    int i;

    snprintf(r->prov.version, sizeof r->prov.version, "0.1.0");
    snprintf(r->prov.commit, sizeof r->prov.commit, "abc123");
    snprintf(r->prov.id, sizeof r->prov.id, "20261122T000000Z-host");
    snprintf(r->prov.started, sizeof r->prov.started, "2026-11-22T00:00:00Z");
    snprintf(r->prov.finished, sizeof r->prov.finished, "2026-11-22T00:01:00Z");
    snprintf(r->prov.command, sizeof r->prov.command, "breakeven run --title \"<script>&]]>\"");
    r->prov.seed = 18446744073709551615ull;
    r->prov.budget = 12.5;
    r->prov.layers = 4;
    snprintf(r->prov.hidden, sizeof r->prov.hidden, "128,256");
    snprintf(r->prov.batch, sizeof r->prov.batch, "16");
    snprintf(r->prov.modes, sizeof r->prov.modes, "inference");
    snprintf(r->prov.host, sizeof r->prov.host, "host");
    snprintf(r->prov.os, sizeof r->prov.os, "Debian");
    snprintf(r->prov.kernel, sizeof r->prov.kernel, "Linux");
    snprintf(r->prov.cpu_model, sizeof r->prov.cpu_model, "CPU ™ 3000");
    snprintf(r->prov.compiler, sizeof r->prov.compiler, "gcc");
    r->prov.cores = 2;
    r->prov.memory = 1e9;
    snprintf(r->prov.blas_version, sizeof r->prov.blas_version, "0.3.21");
    snprintf(r->prov.blas_config, sizeof r->prov.blas_config, "OpenBLAS 0.3.21");
    snprintf(r->prov.blas_core, sizeof r->prov.blas_core, "Zen");
    r->prov.blas_threads = 2;

    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    snprintf(d.type, sizeof d.type, "CPU");
    snprintf(d.name, sizeof d.name, "A <CPU> & \"friends\"");
    devinfo_prop_add(&d, "cores", "%d", 2);
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    snprintf(d.id, sizeof d.id, "cl:0.0");
    snprintf(d.kind, sizeof d.kind, "opencl");
    snprintf(d.type, sizeof d.type, "GPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);

    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "cpu");
    p.layers = 4;
    p.hidden = 128;
    p.batch = 16;
    p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, 128, 16);
    p.verified = 1;
    p.checked = 384;
    p.max_error = 1.0 / 3.0;
    p.tolerance = 2e-5;
    snprintf(p.worst, sizeof p.worst, "layer 0 y[1][2]");
    for (i = 0; i < 6; i++) {
        t[i].wall = 1e-3 * (1.0 + i / 7.0);
        t[i].kernel = t[i].h2d = t[i].d2h = -1.0;
        t[i].total = t[i].wall;
    }
    p.samples = t;
    p.nsamples = 6;
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(results_add_point(r, &p, NULL), BE_OK);

    snprintf(p.device, sizeof p.device, "cl:0.0");
    snprintf(p.why, sizeof p.why, "refine: between batch 16 and 32 at hidden 128");
    p.mode = WL_TRAINING;
    p.has_transfer = 1;
    for (i = 0; i < 6; i++) {
        t[i].kernel = 0.5e-3 / (i + 1);
        t[i].h2d = 1e-5 * i;
        t[i].d2h = 2e-5;
        t[i].total = t[i].wall + 3e-5 * i;
    }
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(results_add_point(r, &p, NULL), BE_OK);

    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "cl:0.0");
    p.layers = 4;
    p.hidden = 65536;
    p.batch = 1024;
    p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, 65536, 1024);
    p.status = PT_OUT_OF_MEMORY;
    snprintf(p.message, sizeof p.message, "clCreateBuffer: CL_MEM_OBJECT_ALLOCATION_FAILURE");
    assert_int_equal(results_add_point(r, &p, NULL), BE_OK);
    r->partial = 0;

    {
        fit_set fs;
        fit_prices prices;
        fit_model *m;
        fit_crossover *c;
        memset(&fs, 0, sizeof fs);
        memset(&prices, 0, sizeof prices);
        fs.models = calloc(3, sizeof *fs.models);
        fs.cross = calloc(1, sizeof *fs.cross);
        assert_non_null(fs.models);
        assert_non_null(fs.cross);
        fs.nmodels = 3;
        fs.ncross = 1;
        fs.analysis = 2;
        m = &fs.models[0];
        snprintf(m->device, sizeof m->device, "cpu");
        m->ok = 1;
        m->npoints = 1;
        m->t0 = 1.0 / 3.0;
        m->t0_err = 1e-7;
        m->P = 7e11;
        m->P_err = 1e9;
        m->half_size = m->t0 * m->P;
        m->rms_rel = 0.01;
        m->fmin = 1e6;
        m->fmax = 1e9;
        m->noutliers = 1;
        m->outliers[0] = 0;
        m = &fs.models[1];
        snprintf(m->device, sizeof m->device, "cl:0.0");
        m->mode = WL_TRAINING;
        m->view = FIT_TRANSFER;
        snprintf(m->why, sizeof m->why, "fewer than 2 points");
        m = &fs.models[2]; /* at one width, and poor */
        snprintf(m->device, sizeof m->device, "cpu");
        m->hidden = 128;
        m->ok = 1;
        m->poor = 1;
        m->npoints = 3;
        m->t0 = 0.0;
        m->P = 5e11;
        m->P_err = 2e10;
        m->rms_rel = 0.31;
        m->fmin = 1e6;
        m->fmax = 4e6;
        c = &fs.cross[0];
        snprintf(c->base, sizeof c->base, "cpu");
        snprintf(c->other, sizeof c->other, "cl:0.0");
        c->cost = 1;
        c->kind = CROSS_EXTRAPOLATED;
        c->flops = 1.5e8;
        c->ci_lo = 1e8;
        c->ci_hi = 2e8;
        c->flops_min = 1.2e8;
        c->flops_max = 1.7e8;
        c->nhidden = 2;
        c->per_hidden[0].hidden = 128;
        c->per_hidden[0].kind = CROSS_IN_RANGE;
        c->per_hidden[0].batch = 69.17;
        c->per_hidden[0].flops = 2.3e6;
        c->per_hidden[0].batch_lo = 55.5;
        c->per_hidden[0].batch_hi = 64;
        c->per_hidden[0].hi_open = 1;
        c->per_hidden[1].hidden = 256;
        c->per_hidden[1].kind = CROSS_ALWAYS;
        c->per_hidden[1].batch_lo = 16;
        c->per_hidden[1].batch_hi = 16;
        c->per_hidden[1].lo_open = 1;
        snprintf(c->sentence, sizeof c->sentence, "A <sentence> & \"quotes\" ]]>");
        snprintf(prices.device[0], sizeof prices.device[0], "cpu");
        prices.usd_per_hour[0] = 0.24;
        prices.n = 1;
        results_set_fit(r, &fs, 99, &prices);
        assert_null(fs.models);
    }
}

static void assert_summary_equal(const stats_summary *a, const stats_summary *b)
{
    assert_int_equal(a->n, b->n);
    assert_true(a->median == b->median && a->min == b->min && a->max == b->max);
    assert_true(a->p10 == b->p10 && a->p90 == b->p90 && a->mean == b->mean);
    assert_true(a->stdev == b->stdev && a->cv == b->cv);
    assert_true(a->ci_lo == b->ci_lo && a->ci_hi == b->ci_hi && a->ci_level == b->ci_level);
    assert_int_equal(a->drift, b->drift);
    assert_true(a->drift_ratio == b->drift_ratio);
    /* not in the file: the loader tests the samples again */
    assert_true(a->drift_z == b->drift_z);
}

/* Saves r to tmpdir/name and returns the file's text (malloc'd). */
static char *saved_text(const results *r, const char *name)
{
    char path[512], *text = NULL;
    err e;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (results_save(r, NULL, path, &e) != BE_OK || fsx_read_all(path, &text, NULL, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return text;
}

/* The format a run is written in: 2 for a run of OpenBLAS and OpenCL
 * against the CPU, as 0.3.0 wrote it; 3 once it has a base the user chose
 * or a framework device, which an older breakeven then refuses by its
 * number; and each loads back as written. */
static void test_results_format(void **state)
{
    results *a = results_new(), *b = NULL;
    device_info d;
    char path[512], *text;
    err e;
    (void)state;
    assert_non_null(a);
    fill_fixture(a);
    assert_int_equal(results_format(a), 2);
    text = saved_text(a, "f2.xml");
    assert_non_null(strstr(text, "<breakeven-results format=\"2\" status=\"complete\">"));
    {
        char *run = strstr(text, "<run ");
        assert_non_null(run);
        *strchr(run, '>') = '\0';
        assert_null(strstr(run, " base="));
    }
    free(text);
    /* a base chosen */
    snprintf(a->prov.base, sizeof a->prov.base, "%s", "cl:0.0");
    assert_int_equal(results_format(a), 3);
    text = saved_text(a, "f3-base.xml");
    assert_non_null(strstr(text, "<breakeven-results format=\"3\" status=\"complete\">"));
    free(text);
    snprintf(path, sizeof path, "%s/f3-base.xml", tmpdir);
    if (results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.base, "cl:0.0");
    results_free(b);
    /* a framework device, the base not chosen */
    a->prov.base[0] = '\0';
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "ref:cpu");
    snprintf(d.kind, sizeof d.kind, "framework");
    snprintf(d.type, sizeof d.type, "CPU");
    devinfo_prop_add(&d, "framework", "%s", "reference");
    assert_int_equal(results_add_device(a, &d, NULL), BE_OK);
    assert_int_equal(results_format(a), 3);
    text = saved_text(a, "f3-framework.xml");
    assert_non_null(strstr(text, "<breakeven-results format=\"3\" status=\"complete\">"));
    free(text);
    snprintf(path, sizeof path, "%s/f3-framework.xml", tmpdir);
    if (results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.base, "");
    assert_int_equal(b->ndevices, 3);
    assert_string_equal(b->devices[2].kind, "framework");
    results_free(b);
    results_free(a);
}

static void test_results_round_trip(void **state)
{
    results *a = results_new(), *b = NULL;
    char path[512];
    err e;
    int i, j;
    (void)state;
    assert_non_null(a);
    fill_fixture(a);
    snprintf(path, sizeof path, "%s/rt.xml", tmpdir);
    assert_int_equal(results_save(a, NULL, path, &e), BE_OK);
    if (results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(b->partial, 0);
    assert_memory_equal(&a->prov, &b->prov, sizeof a->prov);
    assert_int_equal(a->ndevices, b->ndevices);
    for (i = 0; i < a->ndevices; i++) {
        const device_info *x = &a->devices[i], *y = &b->devices[i];
        assert_string_equal(x->id, y->id);
        assert_string_equal(x->kind, y->kind);
        assert_string_equal(x->type, y->type);
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->vendor, y->vendor);
        assert_string_equal(x->driver, y->driver);
        assert_string_equal(x->library, y->library);
        assert_int_equal(x->nprops, y->nprops);
        for (j = 0; j < x->nprops; j++) {
            assert_string_equal(x->props[j].name, y->props[j].name);
            assert_string_equal(x->props[j].value, y->props[j].value);
        }
    }
    assert_int_equal(a->npoints, b->npoints);
    for (i = 0; i < a->npoints; i++) {
        const rs_point *p = &a->points[i], *q = &b->points[i];
        assert_string_equal(p->device, q->device);
        assert_int_equal(p->mode, q->mode);
        assert_int_equal(p->layers, q->layers);
        assert_int_equal(p->hidden, q->hidden);
        assert_int_equal(p->batch, q->batch);
        assert_true(p->flops_per_layer == q->flops_per_layer);
        assert_int_equal(p->status, q->status);
        assert_string_equal(p->message, q->message);
        assert_string_equal(p->why, q->why);
        assert_int_equal(p->verified, q->verified);
        assert_int_equal(p->checked, q->checked);
        assert_true(p->max_error == q->max_error && p->tolerance == q->tolerance);
        assert_string_equal(p->worst, q->worst);
        assert_int_equal(p->nsamples, q->nsamples);
        assert_int_equal(p->has_transfer, q->has_transfer);
        for (j = 0; j < p->nsamples; j++) {
            assert_true(p->samples[j].wall == q->samples[j].wall);
            assert_true(p->samples[j].total == q->samples[j].total);
            assert_true(p->samples[j].kernel == q->samples[j].kernel);
            assert_true(p->samples[j].h2d == q->samples[j].h2d);
            assert_true(p->samples[j].d2h == q->samples[j].d2h);
        }
        if (p->nsamples)
            assert_summary_equal(&p->resident, &q->resident);
        if (p->has_transfer)
            assert_summary_equal(&p->transfer, &q->transfer);
    }
    assert_int_equal(b->has_fit, 1);
    assert_true(b->fit_seed == 99);
    assert_int_equal(b->prices.n, 1);
    assert_string_equal(b->prices.device[0], "cpu");
    assert_true(b->prices.usd_per_hour[0] == 0.24);
    assert_int_equal(b->fit.nmodels, 3);
    assert_int_equal(b->fit.ncross, 1);
    assert_int_equal(b->fit.analysis, 2);
    for (i = 0; i < 3; i++) {
        const fit_model *x = &a->fit.models[i], *y = &b->fit.models[i];
        assert_string_equal(x->device, y->device);
        assert_int_equal(x->mode, y->mode);
        assert_int_equal(x->view, y->view);
        assert_int_equal(x->hidden, y->hidden);
        assert_int_equal(x->poor, y->poor);
        assert_int_equal(x->ok, y->ok);
        assert_string_equal(x->why, y->why);
        assert_int_equal(x->npoints, y->npoints);
        assert_true(x->t0 == y->t0 && x->t0_err == y->t0_err && x->P == y->P &&
                    x->P_err == y->P_err && x->half_size == y->half_size &&
                    x->rms_rel == y->rms_rel && x->fmin == y->fmin && x->fmax == y->fmax);
        assert_int_equal(x->noutliers, y->noutliers);
        for (j = 0; j < x->noutliers; j++)
            assert_int_equal(x->outliers[j], y->outliers[j]);
    }
    {
        const fit_crossover *x = &a->fit.cross[0], *y = &b->fit.cross[0];
        assert_string_equal(x->base, y->base);
        assert_string_equal(x->other, y->other);
        assert_int_equal(x->cost, y->cost);
        assert_int_equal(x->kind, y->kind);
        assert_true(x->flops == y->flops && x->ci_lo == y->ci_lo && x->ci_hi == y->ci_hi);
        assert_true(x->flops_min == y->flops_min && x->flops_max == y->flops_max);
        assert_int_equal(x->nhidden, y->nhidden);
        for (i = 0; i < x->nhidden; i++) {
            const fit_hidden_cross *hx = &x->per_hidden[i], *hy = &y->per_hidden[i];
            assert_int_equal(hx->hidden, hy->hidden);
            assert_int_equal(hx->kind, hy->kind);
            assert_true(hx->batch == hy->batch && hx->flops == hy->flops);
            assert_true(hx->batch_lo == hy->batch_lo && hx->batch_hi == hy->batch_hi);
            assert_int_equal(hx->lo_open, hy->lo_open);
            assert_int_equal(hx->hi_open, hy->hi_open);
        }
        assert_string_equal(x->sentence, y->sentence);
    }
    results_free(a);
    results_free(b);
}

/* Saves the fixture, applies a textual edit, loads: must fail with "file:line:". */
static void expect_rejected(const char *from, const char *to, const char *needle)
{
    results *a = results_new(), *b = NULL;
    char path[512], *text, *hit, *edited;
    size_t len;
    err e;

    fill_fixture(a);
    snprintf(path, sizeof path, "%s/bad.xml", tmpdir);
    assert_int_equal(results_save(a, NULL, path, &e), BE_OK);
    results_free(a);
    assert_int_equal(fsx_read_all(path, &text, &len, &e), BE_OK);
    hit = strstr(text, from);
    if (!hit)
        fail_msg("fixture lacks \"%s\"", from);
    edited = malloc(len + strlen(to) + 1);
    assert_non_null(edited);
    memcpy(edited, text, (size_t)(hit - text));
    strcpy(edited + (hit - text), to);
    strcat(edited, hit + strlen(from));
    assert_int_equal(fsx_write_atomic(path, edited, strlen(edited), &e), BE_OK);
    free(text);
    free(edited);
    e.msg[0] = '\0';
    assert_int_equal(results_load(path, &b, &e), BE_EFAIL);
    assert_null(b);
    if (!strstr(e.msg, path) || !strstr(e.msg, needle))
        fail_msg("unexpected message (%s): %s", to, e.msg);
    /* "path:LINE: ..." with a line number */
    assert_true(e.msg[strlen(path)] == ':' && e.msg[strlen(path) + 1] >= '0' &&
                e.msg[strlen(path) + 1] <= '9');
}

static void test_results_rejects(void **state)
{
    (void)state;
    expect_rejected(" batch=\"16\" flops", " flops", "batch");
    expect_rejected("status=\"ok\"", "status=\"fast\"", "status");
    expect_rejected("<point device=\"cpu\"", "<point device=\"gpu9\"", "gpu9");
    expect_rejected("wall=\"", "wall=\"-", "wall");
    expect_rejected("format=\"2\"", "format=\"4\"", "format");
    expect_rejected("<breakeven-results", "<html><breakeven-results", "");
    expect_rejected("</points>", "</points><extra/>", "extra");
    expect_rejected("<summary view=\"resident\" n=\"6\"", "<summary view=\"resident\" n=\"7\"",
                    "samples");
    expect_rejected("<outlier point=\"0\"", "<outlier point=\"9\"", "outlier");
    expect_rejected("kind=\"extrapolated\"", "kind=\"sometimes\"", "sometimes");
    /* the analysis version and the per-width parts are bounded */
    expect_rejected("analysis=\"2\"", "analysis=\"0\"", "analysis");
    expect_rejected("batch-lo=\"55.5\"", "batch-lo=\"-1\"", "batch-lo");
    expect_rejected("batch-hi=\"64\"", "batch-hi=\"1e300\"", "batch-hi");
    expect_rejected("hi-open=\"yes\"", "hi-open=\"maybe\"", "hi-open");
    expect_rejected("flops-max=\"", "flops-max=\"-", "flops-max");
    expect_rejected("hidden=\"128\" ok=\"yes\"", "hidden=\"0\" ok=\"yes\"", "hidden");
    expect_rejected("poor=\"yes\"", "poor=\"very\"", "poor");
    /* two models of one device, mode, view and width */
    expect_rejected("<model device=\"cpu\" mode=\"inference\" view=\"resident\" hidden=\"128\"",
                    "<model device=\"cpu\" mode=\"inference\" view=\"resident\"",
                    "a second <model> of device");
}

static void test_results_not_ours(void **state)
{
    results *r = NULL;
    char path[512];
    err e;
    (void)state;
    snprintf(path, sizeof path, "%s/other.xml", tmpdir);
    assert_int_equal(fsx_write_atomic(path, "<rss version=\"2.0\"/>\n", 21, &e), BE_OK);
    assert_int_equal(results_load(path, &r, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "not a breakeven results file"));
    assert_int_equal(fsx_write_atomic(path, "hello", 5, &e), BE_OK);
    assert_int_equal(results_load(path, &r, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, path));
    snprintf(path, sizeof path, "%s/missing.xml", tmpdir);
    assert_int_equal(results_load(path, &r, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "cannot open"));
}

/* ---- atomic writes ---- */

static void test_atomic_write(void **state)
{
    char path[512], *text;
    DIR *d;
    struct dirent *de;
    err e;
    int temps = 0;
    (void)state;
    snprintf(path, sizeof path, "%s/a.txt", tmpdir);
    assert_int_equal(fsx_write_atomic(path, "one", 3, &e), BE_OK);
    assert_int_equal(fsx_write_atomic(path, "two!", 4, &e), BE_OK);
    assert_int_equal(fsx_read_all(path, &text, NULL, &e), BE_OK);
    assert_string_equal(text, "two!");
    free(text);
    d = opendir(tmpdir);
    assert_non_null(d);
    while ((de = readdir(d)))
        temps += strstr(de->d_name, ".tmp.") != NULL;
    closedir(d);
    assert_int_equal(temps, 0);
    snprintf(path, sizeof path, "%s/no/such/dir/a.txt", tmpdir);
    assert_int_equal(fsx_write_atomic(path, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, path));
    snprintf(path, sizeof path, "%s/a.txt/sub", tmpdir);
    assert_int_equal(fsx_mkdirs(path, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "a.txt"));
}

/* ---- plan and command line ---- */

static void test_plan_memory(void **state)
{
    plan p;
    err e;
    (void)state;
    plan_default(&p);
    assert_int_equal(plan_cells(&p), 35);
    assert_int_equal(plan_check(&p, 8e9, &e), BE_OK);
    p.hidden.v[p.hidden.n - 1] = 65536;
    assert_int_equal(plan_check(&p, 8e9, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "hidden=65536"));
    assert_non_null(strstr(e.msg, "GiB"));
}

static int parse(const char *line, cli *c, err *e)
{
    static char buf[512], *argv[32]; /* c->args point into them */
    char *tok, *save = NULL;
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (tok = strtok_r(buf, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    return cli_parse(argc, argv, c, e);
}

/* Every command line error names the token the user typed; short options,
 * groups of them, abbreviations, --name=value and `--`. */
static void test_cli_tokens(void **state)
{
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"breakeven run --quick -xy", "unknown option \"-x\" (in \"-xy\")"},
        {"breakeven --quick=yes", "--quick takes no value (in \"--quick=yes\")"},
        {"breakeven --qui", "option \"--qui\" is ambiguous: --quick, --quiet"},
        {"breakeven --frob", "unknown option \"--frob\""},
        {"breakeven devices --devices cl:7.0",
         "\"--devices\" does not apply to devices (only to all, run, tune, ab)"},
        {"breakeven report --hidden 128", "\"--hidden\" does not apply to report (only to all, "
                                          "run, ab)"},
        {"breakeven run -o", "-o (--out) needs a value"},
        {"breakeven run --out", "--out needs a value"},
        {"breakeven fly", "unknown command \"fly\" (commands: all, run, report, compare, refit, "
                          "devices, tune, decide, which, ab)"},
        {"breakeven run extra", "unexpected argument \"extra\" (run takes none)"},
        {"breakeven run --paired C,5,x", "--paired: \"C,5,x\" is not SIDE,FD,PAIR (ab starts its "
                                         "runs so)"},
        {"breakeven run --paired A,2,x", "--paired: \"A,2,x\" is not SIDE,FD,PAIR (ab starts its "
                                         "runs so)"},
        {"breakeven run --paired A,5,a/b", "--paired: \"A,5,a/b\" is not SIDE,FD,PAIR (ab starts "
                                           "its runs so)"},
        {"breakeven ab --env-b 1X=2", "--env-b: \"1X=2\" is not NAME=value"},
        {"breakeven ab --passes 1", "--passes: ab needs at least 2 (pairs of passes)"},
        {"breakeven compare a b --env-a X=1", "\"--env-a\" does not apply to compare (only to ab)"},
    };
    cli c;
    err e;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        e.msg[0] = '\0';
        if (parse(bad[i].line, &c, &e) != BE_EUSAGE)
            fail_msg("accepted: %s", bad[i].line);
        if (strcmp(e.msg, bad[i].msg) != 0)
            fail_msg("%s: \"%s\", not \"%s\"", bad[i].line, e.msg, bad[i].msg);
    }
    assert_int_equal(parse("breakeven run -qh", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_HELP);
    assert_int_equal(parse("breakeven -V", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_VERSION);
    assert_int_equal(parse("breakeven run -q -o/tmp/x --hid=128 --bat 16", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_RUN);
    assert_true(c.quiet);
    assert_string_equal(c.out, "/tmp/x");
    assert_int_equal(c.plan.hidden.n, 1);
    assert_int_equal(c.plan.batch.n, 1);
    assert_int_equal(parse("breakeven -qo /tmp/y report -- -odd", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_REPORT);
    assert_string_equal(c.out, "/tmp/y");
    assert_int_equal(c.nargs, 1);
    assert_string_equal(c.args[0], "-odd");
}

/* `report` takes any number of runs, in order, options between them. */
static void test_cli_many_runs(void **state)
{
    enum { N = 300 };
    static char words[N][16];
    char *argv[N + 8];
    cli c;
    err e;
    int argc = 0, i, k = 0;
    (void)state;
    argv[argc++] = "breakeven";
    argv[argc++] = "report";
    for (i = 0; i < N; i++) {
        snprintf(words[i], sizeof words[i], "run%d", i);
        argv[argc++] = words[i];
        if (i == 7) {
            argv[argc++] = "--out";
            argv[argc++] = "/tmp/o";
        }
        if (i == 100)
            argv[argc++] = "-q";
    }
    argv[argc] = NULL;
    assert_int_equal(cli_parse(argc, argv, &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_REPORT);
    assert_int_equal(c.nargs, N);
    assert_string_equal(c.out, "/tmp/o");
    assert_true(c.quiet);
    for (i = 0; i < N; i++)
        if (strcmp(c.args[i], words[i]) != 0)
            k++;
    assert_int_equal(k, 0);
}

static void test_cli(void **state)
{
    static const char *bad[] = {
        "breakeven --frobnicate",        "breakeven fly",
        "breakeven run --layers 0",      "breakeven run --layers 65",
        "breakeven run --budget -1",     "breakeven run --budget x",
        "breakeven run --mode sideways", "breakeven run --hidden",
        "breakeven run extra",           "breakeven run --threads 0",
        "breakeven run --seed -3",       "breakeven run --batch 0",
    };
    cli c;
    err e;
    size_t i;
    (void)state;
    assert_int_equal(parse("breakeven", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_ALL);
    assert_int_equal(plan_cells(&c.plan), 35);
    assert_string_equal(c.out, "out");
    assert_int_equal(parse("breakeven run --quick --hidden 64 --mode both --seed 7", &c, &e),
                     BE_OK);
    assert_int_equal(c.cmd, CLI_RUN);
    assert_int_equal(c.plan.hidden.n, 1);
    assert_int_equal(c.plan.batch.n, 2);
    assert_int_equal(plan_cells(&c.plan), 4);
    assert_true(c.plan.seed == 7);
    assert_int_equal(parse("breakeven devices --threads 1", &c, &e), BE_OK);
    assert_int_equal(c.cmd, CLI_DEVICES);
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        e.msg[0] = '\0';
        if (parse(bad[i], &c, &e) != BE_EUSAGE)
            fail_msg("accepted: %s", bad[i]);
        assert_true(strlen(e.msg) > 0);
    }
}

/* ---- the CPU backend, checked by the verifier ---- */

static void run_and_verify(wl_mode mode, int layers, int hidden, int batch,
                           void (*corrupt)(const workload *, net_state *), int expect_ok)
{
    device dev;
    workload_data d;
    net_state s;
    verify_result vr;
    step_times t;
    void *run;
    err e;

    assert_int_equal(cpu_discover(&dev, 1, &e), BE_OK);
    assert_int_equal(workload_make(&d, mode, layers, hidden, batch, 3, &e), BE_OK);
    assert_int_equal(dev.ops->prepare(dev.handle, &d.w, &run, &e), BE_OK);
    assert_int_equal(dev.ops->step(run, &t, &e), BE_OK);
    assert_true(t.wall > 0.0);
    assert_true(t.kernel < 0.0);
    assert_int_equal(verify_state_alloc(&d.w, &s, &e), BE_OK);
    assert_int_equal(dev.ops->state(run, &s, &e), BE_OK);
    if (corrupt)
        corrupt(&d.w, &s);
    assert_int_equal(verify_check(&d.w, &s, &vr, &e), BE_OK);
    if (vr.ok != expect_ok)
        fail_msg("mode %d %dx%d: ok=%d worst %s error %g tolerance %g", mode, hidden, batch, vr.ok,
                 vr.where, vr.max_error, vr.tolerance);
    assert_true(vr.checked > 0);
    verify_state_free(&d.w, &s);
    dev.ops->release(run);
    workload_free(&d);
}

static void test_cpu_correct(void **state)
{
    static const int sizes[] = {1, 17, 100};
    int i, j;
    (void)state;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            run_and_verify(WL_INFERENCE, 3, sizes[i], sizes[j], NULL, 1);
            run_and_verify(WL_TRAINING, 3, sizes[i], sizes[j], NULL, 1);
        }
}

static void scale_layer(const workload *w, net_state *s)
{
    size_t i, n = (size_t)w->batch * (size_t)w->hidden;
    for (i = 0; i < n; i++)
        s->act[2][i] *= 1.01f;
}

static void skip_update(const workload *w, net_state *s)
{
    int l;
    for (l = 0; l < w->layers; l++)
        memcpy(s->w[l], w->w0[l], (size_t)w->hidden * (size_t)w->hidden * sizeof(float));
}

static void flip_dx(const workload *w, net_state *s)
{
    size_t i, n = (size_t)w->batch * (size_t)w->hidden;
    for (i = 0; i < n; i++)
        s->dx[1][i] = -s->dx[1][i];
}

static void test_verify_catches(void **state)
{
    (void)state;
    run_and_verify(WL_INFERENCE, 3, 64, 32, scale_layer, 0);
    run_and_verify(WL_TRAINING, 3, 64, 32, skip_update, 0);
    run_and_verify(WL_TRAINING, 3, 64, 32, flip_dx, 0);
}

static void test_seeded_inputs(void **state)
{
    workload_data a, b, c;
    (void)state;
    assert_int_equal(workload_make(&a, WL_INFERENCE, 2, 33, 5, 1, NULL), BE_OK);
    assert_int_equal(workload_make(&b, WL_INFERENCE, 2, 33, 5, 1, NULL), BE_OK);
    assert_int_equal(workload_make(&c, WL_INFERENCE, 2, 33, 5, 2, NULL), BE_OK);
    assert_memory_equal(a.x0, b.x0, 33 * 5 * sizeof(float));
    assert_memory_equal(a.w0[1], b.w0[1], 33 * 33 * sizeof(float));
    assert_memory_not_equal(a.x0, c.x0, 33 * 5 * sizeof(float));
    workload_free(&a);
    workload_free(&b);
    workload_free(&c);
}

/* ---- the machine's fingerprint ---- */

/* A run of "Test CPU", 8 cores, 16 GiB, its CPU device and the GPUs
 * gpus[0..n). */
static results *print_run(const char *const *gpus, int n)
{
    results *r = results_new();
    device_info d;
    int i;
    assert_non_null(r);
    snprintf(r->prov.cpu_model, sizeof r->prov.cpu_model, "Test CPU");
    r->prov.cores = 8;
    r->prov.memory = 16.0 * 1073741824.0;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.type, sizeof d.type, "CPU");
    snprintf(d.name, sizeof d.name, "Test CPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    for (i = 0; i < n; i++) {
        snprintf(d.id, sizeof d.id, "cl:0.%d", i);
        snprintf(d.type, sizeof d.type, "GPU");
        snprintf(d.name, sizeof d.name, "%s", gpus[i]);
        assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    }
    return r;
}

/* The fingerprint: FNV-1a of "Test CPU|8|16" for the CPU alone (as before
 * devices counted), then "|Model A|Model B", each model once and in order
 * of name, whatever the devices' order; another GPU, another machine.  The
 * expected values are the hash worked out apart (Python). */
static void test_machine_print(void **state)
{
    static const char *const ab[] = {"Model B", "Model A", "Model B"},
                             *const ba[] = {"Model A", "Model B"},
                             *const ac[] = {"Model A", "Model C"};
    results *cpu = print_run(NULL, 0), *x = print_run(ab, 3), *y = print_run(ba, 2),
            *z = print_run(ac, 2);
    char fp[16];
    (void)state;
    q_machine_print(cpu, fp, sizeof fp);
    assert_string_equal(fp, "5c8b4eb2");
    q_machine_print(x, fp, sizeof fp);
    assert_string_equal(fp, "6260bdff");
    q_machine_print(y, fp, sizeof fp);
    assert_string_equal(fp, "6260bdff");
    assert_true(q_same_machine(x, y));
    assert_false(q_same_machine(x, z));
    assert_false(q_same_machine(cpu, x));
    results_free(cpu);
    results_free(x);
    results_free(y);
    results_free(z);
}

/* ---- comparison of two runs ---- */

/* A run with one CPU device and points (hidden, batch) whose n samples
 * are scale × (1 + a little deterministic noise). */
static results *cmp_run(const char *blas, const int (*shape)[2], const double *scale, const int *n,
                        int npts)
{
    results *r = results_new();
    device_info d;
    int i, k;
    assert_non_null(r);
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    snprintf(d.type, sizeof d.type, "CPU");
    snprintf(d.name, sizeof d.name, "Test CPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    snprintf(r->prov.blas_version, sizeof r->prov.blas_version, "%s", blas);
    snprintf(r->prov.id, sizeof r->prov.id, "run-%s", blas);
    for (i = 0; i < npts; i++) {
        rs_point p;
        step_times t[40] = {{0}};
        memset(&p, 0, sizeof p);
        snprintf(p.device, sizeof p.device, "cpu");
        p.layers = 2;
        p.hidden = shape[i][0];
        p.batch = shape[i][1];
        p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, p.hidden, p.batch);
        for (k = 0; k < n[i]; k++) {
            t[k].wall = t[k].total = scale[i] * (1.0 + 0.002 * (k % 7));
            t[k].kernel = t[k].h2d = t[k].d2h = -1.0;
        }
        p.samples = t;
        p.nsamples = n[i];
        assert_int_equal(results_summarize(&p, NULL), BE_OK);
        assert_int_equal(results_add_point(r, &p, NULL), BE_OK);
    }
    return r;
}

/* n points of 30 samples, point i at (1 + i) ms × f: a run scaled by f,
 * made in one pass while others took `others` of the CPU. */
static results *cmp_scaled_at(const char *blas, double f, int npts, double others)
{
    static const int shape[8][2] = {{128, 16}, {128, 64}, {256, 16},  {256, 64},
                                    {512, 16}, {512, 64}, {1024, 16}, {1024, 64}};
    static const int n[8] = {30, 30, 30, 30, 30, 30, 30, 30};
    double t[8];
    results *r;
    rs_pass ps;
    int i;
    for (i = 0; i < npts; i++)
        t[i] = (1 + i) * 1e-3 * f;
    r = cmp_run(blas, shape, t, n, npts);
    memset(&ps, 0, sizeof ps);
    ps.index = 1;
    ps.state.has_cpu = 1;
    ps.state.others_cpu = others;
    assert_int_equal(results_add_pass(r, &ps, NULL), BE_OK);
    return r;
}

/* The same on a busy machine (others took 30% of the CPU on both sides):
 * the load correction applies, and with it the default band of a busy
 * machine for the load (compare.h). */
static results *cmp_scaled(const char *blas, double f, int npts)
{
    return cmp_scaled_at(blas, f, npts, 0.30);
}

/* One run per side: the band is the documented default, so the interval
 * is the ratio × exp(±t(0.975, 23)·√2·0.37) whatever the points say:
 * ×4 is slower, ×1.2 is inside it. */
static void test_compare(void **state)
{
    static const int other[1][2] = {{512, 512}};
    static const double one[1] = {1e-3};
    static const int n1[1] = {10};
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b2 = cmp_scaled("0.3.26", 4.0, 4);
    results *b12 = cmp_scaled("0.3.26", 1.2, 4), *same = cmp_scaled("0.3.21", 1.0, 4);
    results *c = cmp_run("0.3.21", other, one, n1, 1);
    compare_set cs;
    err e;
    int i, found = 0;
    (void)state;
    assert_int_equal(compare_runs(a, b2, &cs, &e), BE_OK);
    assert_int_equal(cs.npoints, 4);
    assert_int_equal(cs.ngroups, 1);
    assert_int_equal(cs.groups[0].npoints, 4);
    assert_true(fabs(cs.groups[0].ratio - 4.0) < 1e-9);
    assert_true(fabs(cs.groups[0].lo - 1.355067) < 1e-5);
    assert_true(fabs(cs.groups[0].hi - 11.807538) < 1e-5);
    assert_int_equal(cs.groups[0].verdict, CMP_SLOWER);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    assert_true(compare_regressed(&cs));
    assert_non_null(strstr(cs.groups[0].text, "cpu inference resident: 4.00\xc3\x97 slower"));
    /* every point moved with the run: slower, none apart */
    for (i = 0; i < 4; i++) {
        assert_int_equal(cs.points[i].verdict, CMP_SLOWER);
        assert_int_equal(cs.points[i].apart, 0);
    }
    for (i = 0; i < cs.ndiffs; i++)
        found |= strstr(cs.diffs[i].a, "0.3.21") && strstr(cs.diffs[i].b, "0.3.26");
    assert_true(found);
    compare_free(&cs);
    /* 1.2× is inside the default band: inconclusive, and says so */
    assert_int_equal(compare_runs(a, b12, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].lo - 0.406520) < 1e-5);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_false(compare_regressed(&cs));
    assert_non_null(strstr(cs.why, "inside the run-to-run band"));
    /* the gate stays open, and says what would settle it: runs a side
     * would take 33 (t(0.975, 64)·0.37·√(2/33) = 0.1820 < log 1.2), more
     * than the 30 it suggests, so the paired command */
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_int_equal(compare_gate_status(&cs), 4);
    assert_non_null(strstr(cs.groups[0].settle, "breakeven ab, which pairs the sides' passes in "
                                                "one time window: more than 30 runs a side would "
                                                "be needed against a run-to-run band of 37%"));
    for (i = 0; i < 4; i++)
        assert_int_equal(cs.points[i].verdict, CMP_INCONCLUSIVE);
    compare_free(&cs);
    /* identical: still not "no change" with one run a side */
    assert_int_equal(compare_runs(a, same, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].lo - 0.338767) < 1e-5);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    compare_free(&cs);
    /* a larger grid in B: what is shared is compared, the rest counted */
    results_free(same);
    same = cmp_scaled("0.3.21", 1.0, 8);
    assert_int_equal(compare_runs(a, same, &cs, &e), BE_OK);
    assert_int_equal(cs.groups[0].npoints, 4);
    assert_int_equal(cs.left_a, 0);
    assert_int_equal(cs.left_b, 4);
    compare_free(&cs);
    e.msg[0] = '\0';
    assert_int_equal(compare_runs(a, c, &cs, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "no point in common"));
    assert_non_null(strstr(e.msg, "A has cpu (Test CPU) 4 points"));
    assert_non_null(strstr(e.msg, "B has cpu (Test CPU) 1 points"));
    results_free(a);
    results_free(b2);
    results_free(b12);
    results_free(same);
    results_free(c);
}

/* Replicates: the runs' own spread is the band (pooled over both sides,
 * t with 4 degrees of freedom). */
static void test_compare_replicates(void **state)
{
    static const double fa[3] = {1.00, 1.02, 0.98}, fb[3] = {1.005, 0.995, 1.0},
                        fs[3] = {1.01, 0.99, 1.00};
    results *a[3], *b[3], *s[3], *odd, *keep;
    compare_opts o;
    compare_set cs;
    err e;
    int i;
    (void)state;
    for (i = 0; i < 3; i++) {
        a[i] = cmp_scaled("0.3.21", fa[i], 8);
        b[i] = cmp_scaled("0.3.21", fb[i], 8);
        s[i] = cmp_scaled("0.3.26", 1.5 * fs[i], 8);
    }
    compare_opts_default(&o);
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)b, 3, &o, &cs, &e),
        BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.000125) < 1e-6);
    assert_true(fabs(cs.groups[0].lo - 0.967610) < 1e-5);
    assert_true(fabs(cs.groups[0].hi - 1.033732) < 1e-5);
    assert_int_equal(cs.groups[0].df, 4);
    assert_int_equal(cs.verdict, CMP_UNCHANGED);
    compare_free(&cs);
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)s, 3, &o, &cs, &e),
        BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.500150) < 1e-5);
    assert_true(fabs(cs.groups[0].lo - 1.447325) < 1e-5);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    compare_free(&cs);
    /* a threshold above the change that its interval reaches: not a
     * regression, and not "no change" (1.6 would be: all of 1.45–1.55 is
     * within it) */
    o.threshold = 1.55;
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)s, 3, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_non_null(strstr(cs.why, "under the 55% threshold"));
    compare_free(&cs);
    /* replicates with another grid on one side: refused */
    odd = cmp_scaled("0.3.21", 1.0, 8);
    snprintf(odd->prov.batch, sizeof odd->prov.batch, "16..1024");
    keep = b[1];
    b[1] = odd;
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)b, 3, &o, &cs, &e),
        BE_EUSAGE);
    assert_non_null(strstr(e.msg, "side B"));
    assert_non_null(strstr(e.msg, "batch sizes"));
    b[1] = keep;
    results_free(odd);
    for (i = 0; i < 3; i++) {
        results_free(a[i]);
        results_free(b[i]);
        results_free(s[i]);
    }
}

/* One run a side, and repeated runs of the same host and software in the
 * archive: their spread is the band (σ² of the runs' log geometric means,
 * n − 1 degrees of freedom); a run of another host is left out.  Without
 * a correction, a slowdown on the side that ran on a busier machine is
 * inconclusive: the load explains it. */
/* compare's selectors: @KEY=VALUE[,KEY=VALUE], each key once, known keys
 * only; a run matches when every condition holds (a driver: any device's). */
static void test_pick_selectors(void **state)
{
    static const char *const bad[][2] = {
        {"@", "is not a selector"},
        {"version=1", "is not a selector"},
        {"@version", "\"version\" is not KEY=VALUE"},
        {"@version=", "version needs a value"},
        {"@version=1,", "ends with \",\""},
        {"@colour=red", "unknown key \"colour\""},
        {"@host=a,host=b", "host given twice"},
    };
    results *r = results_new();
    device_info d;
    pick_sel s;
    err e;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(pick_parse(bad[i][0], &s, &e), BE_EUSAGE);
        if (!strstr(e.msg, bad[i][1]))
            fail_msg("%s: %s", bad[i][0], e.msg);
    }
    assert_true(pick_is_selector("@version=1") && !pick_is_selector("./@version=1"));
    assert_int_equal(pick_parse("@version=0.3.0,driver=pocl 5.0,host=vm", &s, &e), BE_OK);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.key[1], PICK_DRIVER);
    assert_string_equal(s.value[1], "pocl 5.0");
    assert_non_null(r);
    snprintf(r->prov.version, sizeof r->prov.version, "0.3.0");
    snprintf(r->prov.host, sizeof r->prov.host, "vm");
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.driver, sizeof d.driver, "0.3.26");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    assert_int_equal(pick_match(&s, r), 0); /* no device has that driver */
    snprintf(d.id, sizeof d.id, "cl:0.0");
    snprintf(d.driver, sizeof d.driver, "pocl 5.0");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    assert_int_equal(pick_match(&s, r), 1);
    snprintf(r->prov.host, sizeof r->prov.host, "vm2");
    assert_int_equal(pick_match(&s, r), 0);
    results_free(r);
}

static void test_compare_band_and_busy(void **state)
{
    static const double fr[4] = {1.0, 1.1, 0.9, 1.0};
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b = cmp_scaled("0.3.21", 2.0, 4), *r[5];
    results *a0 = cmp_scaled_at("0.3.21", 1.0, 4, 0.0), *b4 = cmp_scaled_at("0.3.21", 8.0, 4, 0.0);
    results *b8 = cmp_scaled_at("0.3.21", 16.0, 4, 0.5);
    compare_opts o;
    compare_set cs;
    err e;
    double m = 0.0, v = 0.0, half;
    int i;
    (void)state;
    snprintf(a->prov.id, sizeof a->prov.id, "A");
    snprintf(b->prov.id, sizeof b->prov.id, "B");
    for (i = 0; i < 4; i++) {
        r[i] = cmp_scaled("0.3.21", fr[i], 4);
        snprintf(r[i]->prov.id, sizeof r[i]->prov.id, "r%d", i);
        m += log(fr[i]) / 4;
    }
    for (i = 0; i < 4; i++)
        v += (log(fr[i]) - m) * (log(fr[i]) - m) / 3;
    r[4] = cmp_scaled("0.3.21", 5.0, 4);
    snprintf(r[4]->prov.host, sizeof r[4]->prov.host, "elsewhere");
    compare_opts_default(&o);
    o.band = (const results *const *)r;
    o.nband = 5;
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&b, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.groups[0].df, 3);
    assert_true(fabs(cs.groups[0].run_sd - sqrt(v)) < 1e-9);
    half = stats_t_quantile(0.975, 3) * sqrt(2.0 * v);
    assert_true(fabs(cs.groups[0].lo - 2.0 * exp(-half)) < 1e-9);
    assert_non_null(strstr(cs.band_from, "4 earlier runs of the same host"));
    compare_free(&cs);
    o.band = NULL;
    o.nband = 0;
    o.correct = COMPARE_CORRECT_NONE;
    assert_int_equal(
        compare_sets((const results *const *)&a0, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_SLOWER); /* 8×: beyond the quiet machine's band */
    assert_non_null(strstr(cs.band_from, "the default for a quiet machine"));
    assert_true(fabs(cs.groups[0].run_sd - COMPARE_RUN_SD_QUIET) < 1e-12);
    compare_free(&cs);
    /* B busier by half the CPU: ×2 is what that can do, and 8× (0.57, the
     * busy machine's band uncorrected: 1.51–42.4) reaches within it */
    b4->passes[0].state.others_cpu = 0.5;
    assert_int_equal(
        compare_sets((const results *const *)&a0, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_true(fabs(cs.groups[0].run_sd - COMPARE_RUN_SD_NONE) < 1e-12);
    assert_non_null(strstr(cs.why, "B ran on a busier machine: other processes took 50% of the "
                                   "CPU in B's runs, 0% in A's, which can slow a device by up to "
                                   "\xc3\x97"
                                   "2.00"));
    compare_free(&cs);
    /* 16× lies beyond it: slower, with the load as its note */
    assert_int_equal(
        compare_sets((const results *const *)&a0, 1, (const results *const *)&b8, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    assert_non_null(strstr(cs.groups[0].note, "B ran on a busier machine"));
    compare_free(&cs);
    for (i = 0; i < 5; i++)
        results_free(r[i]);
    results_free(a);
    results_free(b);
    results_free(a0);
    results_free(b4);
    results_free(b8);
}

/* Side `side` of the pair "P1" (an `ab` pair, ab.h): 4 points at (1 + i)
 * ms × f, `passes` passes (4 at most) of 5 samples (× 1.00 .. 1.04 within
 * a pass), pass k slowed by drift[k] (what the machine did to both sides
 * of the pair) and, on side B, by exp(e[k]) more (what it did to B
 * alone); the last pass reaches only the first `reach` points (an
 * interrupted pass; 4: all).  With gpu, the same 4 points on an OpenCL GPU
 * "cl:0.0", with transfer times, their status `gpu_status` (a status other
 * than ok: no samples, as a failed point has none). */
static results *pair_run_ex(char side, double f, const double *e, int passes, int reach, int gpu,
                            rs_status gpu_status)
{
    static const double drift[4] = {1.0, 1.3, 0.8, 1.5};
    static const int shape[4][2] = {{128, 16}, {128, 64}, {256, 16}, {256, 64}};
    results *r = results_new();
    device_info d;
    int i, k, j, dv;
    assert_non_null(r);
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    snprintf(d.type, sizeof d.type, "CPU");
    snprintf(d.name, sizeof d.name, "Test CPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    if (gpu) {
        snprintf(d.id, sizeof d.id, "cl:0.0");
        snprintf(d.kind, sizeof d.kind, "opencl");
        snprintf(d.type, sizeof d.type, "GPU");
        snprintf(d.name, sizeof d.name, "Test GPU");
        assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    }
    snprintf(r->prov.id, sizeof r->prov.id, "P1-%c", side);
    snprintf(r->prov.pair, sizeof r->prov.pair, "P1");
    r->prov.pair_side = side;
    for (k = 0; k < passes; k++) {
        rs_pass ps;
        memset(&ps, 0, sizeof ps);
        ps.index = k + 1;
        ps.state.has_cpu = 1;
        assert_int_equal(results_add_pass(r, &ps, NULL), BE_OK);
    }
    for (dv = 0; dv < 1 + (gpu != 0); dv++)
        for (i = 0; i < 4; i++) {
            rs_point p;
            step_times t[20];
            int pass[20], m = 0;
            memset(&p, 0, sizeof p);
            memset(t, 0, sizeof t);
            snprintf(p.device, sizeof p.device, "%s", dv ? "cl:0.0" : "cpu");
            p.layers = 2;
            p.hidden = shape[i][0];
            p.batch = shape[i][1];
            p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, p.hidden, p.batch);
            p.status = dv ? gpu_status : PT_OK;
            p.has_transfer = dv;
            for (k = 0; p.status == PT_OK && k < passes; k++)
                for (j = 0; j < 5 && (k < passes - 1 || i < reach); j++, m++) {
                    t[m].wall = (1 + i) * 1e-3 * f * drift[k] * (side == 'B' ? exp(e[k]) : 1.0) *
                                (1.0 + 0.01 * j) * (dv ? 0.5 : 1.0);
                    t[m].total = dv ? 2.0 * t[m].wall : t[m].wall;
                    t[m].kernel = dv ? t[m].wall : -1.0;
                    t[m].h2d = t[m].d2h = dv ? 0.5 * t[m].wall : -1.0;
                    pass[m] = k + 1;
                }
            p.samples = t;
            p.pass = pass;
            p.nsamples = m;
            if (m)
                assert_int_equal(results_summarize(&p, NULL), BE_OK);
            assert_int_equal(results_add_point(r, &p, NULL), BE_OK);
        }
    return r;
}

/* Side `side` of the pair "P1": 4 complete passes on the CPU alone. */
static results *pair_run(char side, double f, const double *e)
{
    return pair_run_ex(side, f, e, 4, 4, 0, PT_OK);
}

/* An `ab` pair is judged on its pairs of passes: the drift that both
 * sides of a pair shared (×0.8 to ×1.5 between the pairs) cancels; what
 * is left is B's own ±1–2% a pair, so the interval is D ± t(0.975, 3)·s/2,
 * s the SD of the pairs' log ratios; the gate passes, fails, or stays
 * open saying how many pairs would settle it. */
static void test_compare_pair(void **state)
{
    static const double e4[4] = {0.01, -0.01, 0.02, -0.02};
    const double s = sqrt((1e-4 + 1e-4 + 4e-4 + 4e-4) / 3.0);
    const double half = stats_t_quantile(0.975, 3) * s / 2.0;
    results *a = pair_run('A', 1.0, e4), *same = pair_run('B', 1.0, e4);
    results *slow = pair_run('B', 1.10, e4), *near = pair_run('B', 1.03, e4);
    compare_opts o;
    compare_set cs;
    err e;
    int i;
    (void)state;
    compare_opts_default(&o);
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&same, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.paired, 1);
    assert_int_equal(cs.groups[0].paired, 1);
    assert_int_equal(cs.groups[0].df, 3);
    assert_int_equal(cs.groups[0].corrected, 0);
    assert_true(fabs(cs.groups[0].ratio - 1.0) < 1e-9);
    assert_true(fabs(cs.groups[0].lo - exp(-half)) < 1e-9);
    assert_true(fabs(cs.groups[0].hi - exp(half)) < 1e-9);
    assert_int_equal(cs.groups[0].verdict, CMP_UNCHANGED);
    assert_int_equal(cs.gate, COMPARE_GATE_PASS);
    assert_int_equal(compare_gate_status(&cs), 0);
    assert_non_null(strstr(cs.band_from, "the pairs of passes themselves (4, A and B alternating"));
    assert_non_null(strstr(cs.groups[0].text, ", 4 paired passes; could detect \xc3\x97"));
    /* every point's own pairs: the same ±1–2% */
    assert_true(fabs(cs.points[2].hi - exp(half)) < 1e-9);
    compare_free(&cs);
    /* one visit of B met another state for its whole length (a point's
     * pass ×2): the pass's median over the points does not move, the
     * point's own interval does */
    for (i = 0; i < same->points[1].nsamples; i++)
        if (same->points[1].pass[i] == 2)
            same->points[1].samples[i].wall *= 2.0;
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&same, 1, &o, &cs, &e),
        BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.0) < 1e-9);
    assert_true(fabs(cs.groups[0].hi - exp(half)) < 1e-9);
    assert_true(cs.points[1].hi > exp(half) + 0.1);
    compare_free(&cs);
    /* ×1.10: slower, the gate fails */
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&slow, 1, &o, &cs, &e),
        BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.10) < 1e-9);
    assert_true(fabs(cs.groups[0].lo - 1.10 * exp(-half)) < 1e-9);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    assert_int_equal(compare_gate_status(&cs), 3);
    compare_free(&cs);
    /* ×1.03: slower than 1, under the threshold, and its interval reaches
     * beyond ×1.05: open, and 6 pairs would settle it (t(0.975, 5)·s/√6
     * = 0.0192 < log(1.05/1.03) = 0.0192, where 5 pairs give 0.0227) */
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&near, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_int_equal(compare_gate_status(&cs), 4);
    assert_non_null(strstr(cs.groups[0].why, "slower by 3%, under the 5% threshold"));
    assert_string_equal(cs.groups[0].settle,
                        "about 6 pairs of passes, if the change stays at \xc3\x97"
                        "1.03 (ab "
                        "--passes 6)");
    assert_non_null(strstr(cs.gate_why, "to settle it: about 6 pairs of passes"));
    compare_free(&cs);
    /* two runs that are not one pair: compared as runs */
    near->prov.pair[0] = '\0';
    assert_int_equal(
        compare_sets((const results *const *)&a, 1, (const results *const *)&near, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.paired, 0);
    compare_free(&cs);
    results_free(a);
    results_free(same);
    results_free(slow);
    results_free(near);
}

/* compare_sets of the single runs a (A) and b (B), default options. */
static void compare_two(const results *a, const results *b, compare_set *cs)
{
    compare_opts o;
    err e;
    compare_opts_default(&o);
    assert_int_equal(compare_sets(&a, 1, &b, 1, &o, cs, &e), BE_OK);
}

/* What B lost keeps the gate from passing (issue 41, finding 1): B's
 * OpenCL device failing verification at every point, or gone from B
 * altogether, or B without its transfer times, is named first and fails
 * the gate, while the CPU's group, the same on both sides, passes; and so
 * does a quarter of a group's points lost (beyond COMPARE_LOST_SHARE). */
static void test_compare_lost(void **state)
{
    static const double e4[4] = {0.01, -0.01, 0.02, -0.02};
    results *a = pair_run_ex('A', 1.0, e4, 4, 4, 1, PT_OK);
    results *b = pair_run_ex('B', 1.0, e4, 4, 4, 1, PT_FAILED_VERIFICATION);
    results *gone = pair_run_ex('B', 1.0, e4, 4, 4, 0, PT_OK);
    results *same = pair_run_ex('B', 1.0, e4, 4, 4, 1, PT_OK);
    compare_set cs;
    char *text = NULL;
    size_t size = 0;
    FILE *f;
    int i;
    (void)state;
    compare_two(a, b, &cs);
    assert_int_equal(cs.ngroups, 1); /* the CPU's, which passes */
    assert_int_equal(cs.groups[0].gate, COMPARE_GATE_PASS);
    assert_int_equal(cs.nlost, 2);
    assert_string_equal(cs.lost[0].text,
                        "cl:0.0 inference resident: 4 of 4 points (4 failed verification)");
    assert_string_equal(cs.lost[1].text,
                        "cl:0.0 inference transfer: 4 of 4 points (4 failed verification)");
    assert_true(cs.lost[0].blocks && !cs.lost[0].device);
    assert_int_equal(cs.gate, COMPARE_GATE_FAIL);
    assert_int_equal(compare_gate_status(&cs), 3);
    assert_true(compare_regressed(&cs));
    assert_non_null(strstr(cs.gate_why, "B lost what A measured: cl:0.0 inference resident"));
    f = open_memstream(&text, &size);
    assert_non_null(f);
    compare_write(f, &cs, COMPARE_TEXT);
    fclose(f);
    assert_true(strncmp(text,
                        "lost in B: cl:0.0 inference resident: 4 of 4 points (4 failed "
                        "verification)\n",
                        strlen("lost in B: cl:0.0 inference resident: 4 of 4 points (4 failed "
                               "verification)\n")) == 0);
    free(text);
    compare_free(&cs);
    /* the device gone from B */
    compare_two(a, gone, &cs);
    assert_int_equal(cs.nlost, 2);
    assert_string_equal(cs.lost[0].text,
                        "cl:0.0 inference resident: 4 of 4 points (the device is not in B)");
    assert_true(cs.lost[0].device);
    assert_int_equal(compare_gate_status(&cs), 3);
    compare_free(&cs);
    /* B without the transfer times of its OpenCL device: the view lost */
    for (i = 0; i < same->npoints; i++)
        if (strcmp(same->points[i].device, "cl:0.0") == 0)
            same->points[i].has_transfer = 0;
    compare_two(a, same, &cs);
    assert_int_equal(cs.nlost, 1);
    assert_string_equal(cs.lost[0].text,
                        "cl:0.0 inference transfer: 4 of 4 points (4 without times of this view)");
    assert_int_equal(compare_gate_status(&cs), 3);
    compare_free(&cs);
    /* one point of four out of memory in B: a quarter, beyond the share */
    for (i = 0; i < same->npoints; i++)
        if (strcmp(same->points[i].device, "cl:0.0") == 0)
            same->points[i].has_transfer = 1;
    same->points[7].status = PT_OUT_OF_MEMORY;
    compare_two(a, same, &cs);
    assert_int_equal(cs.nlost, 2);
    assert_string_equal(cs.lost[0].text,
                        "cl:0.0 inference resident: 1 of 4 points (1 out of memory)");
    assert_true(cs.lost[0].blocks);
    assert_int_equal(compare_gate_status(&cs), 3);
    compare_free(&cs);
    /* nothing lost: the gate is the groups' */
    same->points[7].status = PT_OK;
    compare_two(a, same, &cs);
    assert_int_equal(cs.nlost, 0);
    compare_free(&cs);
    /* A lost what B has: no regression of B's */
    results_free(a);
    a = pair_run_ex('A', 1.0, e4, 4, 4, 1, PT_FAILED_VERIFICATION);
    compare_two(a, same, &cs);
    assert_int_equal(cs.nlost, 0);
    assert_int_equal(cs.gate, COMPARE_GATE_PASS);
    compare_free(&cs);
    results_free(a);
    results_free(b);
    results_free(gone);
    results_free(same);
}

/* An interval on no measured scatter never passes the gate (finding 2):
 * one pass a side of an `ab` pair (an interrupted ab) gives a zero-width
 * interval, and the text counts the one pair it used; replicates with one
 * run on a side likewise. */
static void test_compare_one_pass(void **state)
{
    static const double e4[4] = {0.01, -0.01, 0.02, -0.02};
    static const double fb[2] = {1.0, 1.001};
    results *a = pair_run_ex('A', 1.0, e4, 1, 4, 0, PT_OK);
    results *b = pair_run_ex('B', 1.0, e4, 1, 4, 0, PT_OK);
    results *ra = cmp_scaled("0.3.21", 1.0, 8), *rb[2];
    const results *ra1 = ra;
    compare_opts o;
    compare_set cs;
    err e;
    int i;
    (void)state;
    compare_two(a, b, &cs);
    assert_int_equal(cs.paired, 1);
    assert_int_equal(cs.groups[0].npairs, 1);
    assert_non_null(strstr(cs.groups[0].text, ", 1 paired pass; could detect nothing"));
    assert_null(strstr(cs.groups[0].text, "2 paired passes"));
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_int_equal(compare_gate_status(&cs), 4);
    assert_non_null(strstr(cs.gate_why, "2 pairs of passes at least"));
    compare_free(&cs);
    /* one run of A against two of B, all but the same */
    for (i = 0; i < 2; i++)
        rb[i] = cmp_scaled("0.3.21", fb[i], 8);
    compare_opts_default(&o);
    assert_int_equal(compare_sets(&ra1, 1, (const results *const *)rb, 2, &o, &cs, &e), BE_OK);
    assert_true(cs.groups[0].hi < COMPARE_THRESHOLD);
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_non_null(strstr(cs.groups[0].settle, "side A's one run"));
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_non_null(strstr(cs.why, "side A has one run, whose spread is not measured"));
    compare_free(&cs);
    results_free(a);
    results_free(b);
    results_free(ra);
    results_free(rb[0]);
    results_free(rb[1]);
}

/* A trailing pass that B did not finish is dropped, not the points it
 * did not reach (finding 3): 3 complete pairs over all 4 points. */
static void test_compare_partial_pass(void **state)
{
    static const double e4[4] = {0.01, -0.01, 0.02, -0.02};
    results *a = pair_run_ex('A', 1.0, e4, 4, 4, 0, PT_OK);
    results *b = pair_run_ex('B', 1.0, e4, 4, 2, 0, PT_OK);
    compare_set cs;
    (void)state;
    compare_two(a, b, &cs);
    assert_int_equal(cs.groups[0].npoints, 4);
    assert_int_equal(cs.groups[0].npairs, 3);
    assert_int_equal(cs.groups[0].df, 2);
    assert_int_equal(cs.nlost, 0);
    assert_non_null(strstr(cs.groups[0].text, "4 shared points, 3 paired passes"));
    compare_free(&cs);
    results_free(a);
    results_free(b);
}

/* A standard normal draw (Box–Muller) from the splitmix64 state. */
static double normal_draw(uint64_t *st)
{
    const double u = ((double)(rng_next(st) >> 11) + 0.5) / 9007199254740992.0;
    const double v = (double)(rng_next(st) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u)) * cos(2.0 * 3.14159265358979323846 * v);
}

/* The share of n draws of a log ratio log(true) + se·T (T Student's t on
 * df degrees of freedom, as the intervals take it) that compare's rule
 * calls slower: the ratio at least R, the interval's lower end above 1
 * (compare_gate.c's compare_verdict_of). */
static double power_of(double truth, double se, int df, double R, int n, uint64_t seed)
{
    const double t1 = stats_t_quantile(0.975, df);
    int i, j, hits = 0;
    for (i = 0; i < n; i++) {
        double chi = 0.0, z = normal_draw(&seed), d, x;
        for (j = 0; j < df; j++) {
            x = normal_draw(&seed);
            chi += x * x;
        }
        d = log(truth) + se * z / sqrt(chi / df);
        hits += d >= log(R) && d - t1 * se > 0.0;
    }
    return (double)hits / n;
}

/* The smallest detectable slowdown is for the rule applied (finding 4):
 * exp(max(log R, t(0.975)·se) + t(0.80)·se), and the simulated rule meets
 * it 80% of the time, where a true ×R is called slower half of the time
 * at most (so ×1.05, what a tight pair printed, is not its power). */
static void test_compare_detectable(void **state)
{
    static const double ses[3] = {0.005, 0.02, 0.05};
    static const int dfs[3] = {3, 23, 9};
    static const double e4[4] = {0.01, -0.01, 0.02, -0.02};
    results *a = pair_run('A', 1.0, e4), *b = pair_run('B', 1.0, e4);
    compare_set cs;
    int i;
    (void)state;
    for (i = 0; i < 3; i++) {
        const double se = ses[i], t1 = stats_t_quantile(0.975, dfs[i]);
        const double tp = stats_t_quantile(0.80, dfs[i]);
        const double det = compare_detectable(se, dfs[i], 0.05, 1.05);
        assert_true(fabs(det - exp(fmax(log(1.05), t1 * se) + tp * se)) < 1e-12);
        assert_true(det > 1.05);
        assert_true(fabs(power_of(det, se, dfs[i], 1.05, 200000, 41u + (uint64_t)i) - 0.80) <
                    0.005);
    }
    /* a tight group: at a true ×1.05 the rule says slower half the time */
    assert_true(fabs(power_of(1.05, 0.005, 3, 1.05, 200000, 7u) - 0.50) < 0.005);
    /* a pair's group: what it prints is what it rests on */
    compare_two(a, b, &cs);
    assert_true(fabs(cs.groups[0].detectable -
                     compare_detectable(cs.groups[0].se, cs.groups[0].df, 0.05, 1.05)) < 1e-12);
    assert_true(cs.groups[0].detectable > 1.05);
    compare_free(&cs);
    results_free(a);
    results_free(b);
}

/* A gate that passes with a verdict that cannot say "no change" says why
 * in words, and a pair's reason never speaks of a run-to-run band
 * (finding 5): B ×0.99 of A, its pairs of passes ±2.5–3.3%, an interval
 * of about 0.94–1.05.  And a gate held open by the medians, with the
 * interval below the threshold, says that is what holds it. */
static void test_compare_pass_words(void **state)
{
    static const double e4[4] = {0.025, -0.025, 0.0334, -0.0334};
    static const double tight[4] = {0.01, -0.01, 0.02, -0.02};
    results *a = pair_run('A', 1.0, e4), *b = pair_run('B', 0.99, e4);
    compare_set cs;
    int i, k;
    (void)state;
    compare_two(a, b, &cs);
    assert_true(cs.groups[0].lo < 1.0 / 1.05 && cs.groups[0].hi < 1.05);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_int_equal(cs.gate, COMPARE_GATE_PASS);
    assert_non_null(
        strstr(cs.why, "no slowdown of 5% or more; a speed-up of 5% or more is not excluded"));
    assert_null(strstr(cs.why, "run-to-run band"));
    assert_non_null(strstr(cs.gate_why, "; a speed-up is not excluded (cpu inference resident "
                                        "reaches \xc3\x97"));
    compare_free(&cs);
    results_free(b);
    /* the quick tenth the same, the slower samples of B ×1.3: the interval
     * ends below ×1.05 but the medians rose, and the gate's line says that
     * is what holds it open */
    b = pair_run('B', 1.0, tight);
    for (i = 0; i < b->npoints; i++) {
        for (k = 0; k < b->points[i].nsamples; k++)
            b->points[i].samples[k].wall *= k % 5 >= 2 ? 1.3 : 1.0;
        assert_int_equal(results_summarize(&b->points[i], NULL), BE_OK);
    }
    compare_two(a, b, &cs);
    assert_true(cs.groups[0].hi < 1.05);
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_non_null(strstr(cs.gate_why, "(0.9"));
    assert_non_null(strstr(cs.gate_why, ": its interval ends below \xc3\x97"
                                        "1.05, but the medians rose \xc3\x97"));
    compare_free(&cs);
    results_free(a);
    results_free(b);
}

/* The recorded environment differs variable by variable: an interposed
 * BLAS is a change of software that no version shows (a history step
 * caused by one used to read "nothing in its provenance changed"); a
 * quoted value is compared unquoted. */
static void test_provenance_env(void **state)
{
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b = cmp_scaled("0.3.21", 1.0, 4);
    compare_diff d[COMPARE_MAX_DIFFS];
    int n;
    (void)state;
    snprintf(a->prov.env, sizeof a->prov.env, "OMP_PLACES='{0}:2' OPENBLAS_NUM_THREADS=2");
    snprintf(b->prov.env, sizeof b->prov.env,
             "LD_PRELOAD=/opt/slow/libslowblas.so OMP_PLACES='{0}:2' OPENBLAS_NUM_THREADS=1");
    n = compare_provenance(a, b, d, COMPARE_MAX_DIFFS);
    assert_int_equal(n, 2);
    assert_string_equal(d[0].what, "environment OPENBLAS_NUM_THREADS");
    assert_string_equal(d[0].a, "2");
    assert_string_equal(d[0].b, "1");
    assert_string_equal(d[1].what, "environment LD_PRELOAD");
    assert_string_equal(d[1].a, "(not set)");
    assert_string_equal(d[1].b, "/opt/slow/libslowblas.so");
    /* the same words: nothing differs, quoting and all */
    snprintf(b->prov.env, sizeof b->prov.env, "OMP_PLACES='{0}:2' OPENBLAS_NUM_THREADS=2");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 0);
    /* a quote inside a value ('\'') */
    snprintf(a->prov.env, sizeof a->prov.env, "POCL_DEBUG='it'\\''s'");
    snprintf(b->prov.env, sizeof b->prov.env, "POCL_DEBUG=its");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 1);
    assert_string_equal(d[0].a, "it's");
    assert_string_equal(d[0].b, "its");
    results_free(a);
    results_free(b);
}

/* What each device is measured against: a run with --base and one without
 * share no crossover, and say why; --base naming the device the default
 * would have chosen anyway changes nothing. */
static void test_provenance_base(void **state)
{
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b = cmp_scaled("0.3.21", 1.0, 4);
    compare_diff d[COMPARE_MAX_DIFFS];
    device_info gpu;
    (void)state;
    memset(&gpu, 0, sizeof gpu);
    snprintf(gpu.id, sizeof gpu.id, "cl:0.0");
    snprintf(gpu.kind, sizeof gpu.kind, "opencl");
    snprintf(gpu.type, sizeof gpu.type, "GPU");
    assert_int_equal(results_add_device(a, &gpu, NULL), BE_OK);
    assert_int_equal(results_add_device(b, &gpu, NULL), BE_OK);
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 0);
    snprintf(b->prov.base, sizeof b->prov.base, "%s", "cl:0.0");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 2);
    assert_string_equal(d[0].what, "cpu base");
    assert_string_equal(d[0].a, "itself");
    assert_string_equal(d[0].b, "cl:0.0");
    assert_string_equal(d[1].what, "cl:0.0 base");
    assert_string_equal(d[1].a, "cpu");
    assert_string_equal(d[1].b, "itself");
    snprintf(b->prov.base, sizeof b->prov.base, "%s", "cpu");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 0);
    results_free(a);
    results_free(b);
}

/* A device's kernel configurations: the inference options as "kernel
 * config"; the training options, which a device records only where they
 * differ, as "kernel config (training)", listed when either run recorded
 * them and what the device trained with differs (a run without them
 * trained with its inference options). */
static void test_provenance_kernels(void **state)
{
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b = cmp_scaled("0.3.21", 1.0, 4);
    compare_diff d[COMPARE_MAX_DIFFS];
    (void)state;
    devinfo_prop_add(&a->devices[0], "kernel_options", "-DGEMM_LOCAL=1 -DTSM=64");
    devinfo_prop_add(&b->devices[0], "kernel_options", "-DGEMM_LOCAL=1 -DTSM=64");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 0);
    /* B trains with a configuration of its own */
    devinfo_prop_add(&b->devices[0], "kernel_options_training", "-DGEMM_LOCAL=1 -DTSM=128");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 1);
    assert_string_equal(d[0].what, "cpu kernel config (training)");
    assert_string_equal(d[0].a, "-DGEMM_LOCAL=1 -DTSM=64");
    assert_string_equal(d[0].b, "-DGEMM_LOCAL=1 -DTSM=128");
    /* and back: A's training options against B's inference ones */
    assert_int_equal(compare_provenance(b, a, d, COMPARE_MAX_DIFFS), 1);
    assert_string_equal(d[0].a, "-DGEMM_LOCAL=1 -DTSM=128");
    assert_string_equal(d[0].b, "-DGEMM_LOCAL=1 -DTSM=64");
    /* A the same: nothing differs */
    devinfo_prop_add(&a->devices[0], "kernel_options_training", "-DGEMM_LOCAL=1 -DTSM=128");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 0);
    /* the inference options change, the training ones do not */
    assert_string_equal(a->devices[0].props[0].name, "kernel_options");
    snprintf(a->devices[0].props[0].value, sizeof a->devices[0].props[0].value,
             "-DGEMM_LOCAL=1 -DTSM=32");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 1);
    assert_string_equal(d[0].what, "cpu kernel config");
    assert_string_equal(d[0].a, "-DGEMM_LOCAL=1 -DTSM=32");
    results_free(a);
    results_free(b);
    /* neither recorded training options: a change of the one configuration
     * is one line, as it was before there were two */
    a = cmp_scaled("0.3.21", 1.0, 4);
    b = cmp_scaled("0.3.21", 1.0, 4);
    devinfo_prop_add(&a->devices[0], "kernel_options", "-DGEMM_LOCAL=1 -DTSM=64");
    devinfo_prop_add(&b->devices[0], "kernel_options", "-DGEMM_LOCAL=1 -DTSM=32");
    assert_int_equal(compare_provenance(a, b, d, COMPARE_MAX_DIFFS), 1);
    assert_string_equal(d[0].what, "cpu kernel config");
    results_free(a);
    results_free(b);
}

/* A device off the host's CPUs gets the GPU's default band (compare.h):
 * 0.03 resident; the smallest slowdown one run a side could detect then
 * follows from it: exp((t(0.975, 23) + t(0.80, 23))·√(2·0.03²)). */
static void test_compare_gpu_band(void **state)
{
    results *a = cmp_scaled_at("0.3.21", 1.0, 4, 0.0), *b = cmp_scaled_at("0.3.21", 1.2, 4, 0.0);
    const double se = sqrt(2.0) * COMPARE_RUN_SD_GPU;
    compare_set cs;
    err e;
    (void)state;
    snprintf(a->devices[0].kind, sizeof a->devices[0].kind, "opencl");
    snprintf(a->devices[0].type, sizeof a->devices[0].type, "GPU");
    b->devices[0] = a->devices[0];
    assert_int_equal(compare_runs(a, b, &cs, &e), BE_OK);
    assert_int_equal(cs.groups[0].kind_cpu, 0);
    assert_true(fabs(cs.groups[0].run_sd - COMPARE_RUN_SD_GPU) < 1e-12);
    assert_int_equal(cs.groups[0].df, COMPARE_RUN_SD_GPU_RUNS - 1);
    assert_true(fabs(cs.groups[0].lo - 1.2 * exp(-stats_t_quantile(0.975, 23) * se)) < 1e-9);
    assert_true(fabs(cs.groups[0].detectable -
                     exp((stats_t_quantile(0.975, 23) + stats_t_quantile(0.80, 23)) * se)) < 1e-9);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    assert_non_null(strstr(cs.band_from, "the default for a device off the host's CPUs"));
    compare_free(&cs);
    results_free(a);
    results_free(b);
}

/* r's one pass with the CPUs' round trip h (cachehop.h). */
static void set_hop(results *r, double h)
{
    r->passes[0].visits = 4;
    r->passes[0].hop_checks = 4;
    r->passes[0].hop = h;
}

/* Runs whose CPUs were a cache apart (a round trip over 2.5 times the
 * quickest run's): a side of three leaves the one out; a lone B slower
 * and a cache apart is inconclusive; the archive's band leaves such runs
 * out. */
static void test_compare_cache_apart(void **state)
{
    static const double fr[3] = {1.0, 1.1, 0.9};
    results *a[3], *b[3], *band[4];
    results *a1 = cmp_scaled_at("0.3.21", 1.0, 4, 0.0), *b4 = cmp_scaled_at("0.3.21", 4.0, 4, 0.0);
    results *b15 = cmp_scaled_at("0.3.21", 1.5, 4, 0.0);
    compare_opts o;
    compare_set cs;
    err e;
    int i;
    (void)state;
    for (i = 0; i < 3; i++) {
        a[i] = cmp_scaled("0.3.21", fr[i], 4);
        b[i] = cmp_scaled("0.3.21", i == 1 ? 2.0 : fr[i], 4);
        snprintf(a[i]->prov.id, sizeof a[i]->prov.id, "a%d", i);
        snprintf(b[i]->prov.id, sizeof b[i]->prov.id, "b%d", i);
        set_hop(a[i], 5e-8);
        set_hop(b[i], i == 1 ? 3.2e-7 : 5.5e-8);
    }
    compare_opts_default(&o);
    o.correct = COMPARE_CORRECT_NONE;
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)b, 3, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.na, 3);
    assert_int_equal(cs.nb, 2);
    assert_string_equal(cs.hop_left, "B2 b1 (320 ns)");
    assert_string_equal(cs.ids_b, "b0, b2");
    assert_true(fabs(cs.hop_min - 5e-8) < 1e-20);
    /* B's 1.0 and 0.9 against A's 1.0, 1.1 and 0.9, geometric means */
    assert_true(fabs(cs.groups[0].ratio - exp(log(0.9) / 2 - (log(1.1) + log(0.9)) / 3)) < 1e-9);
    assert_int_not_equal(cs.verdict, CMP_SLOWER);
    compare_free(&cs);
    /* with only one other run on that side, all three count */
    set_hop(b[0], 3.3e-7);
    assert_int_equal(
        compare_sets((const results *const *)a, 3, (const results *const *)b, 3, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.nb, 3);
    assert_string_equal(cs.hop_left, "");
    compare_free(&cs);

    /* one run a side on a quiet machine (its default band, compare.h), B
     * four times as slow: slower; and still when B alone ran a cache apart,
     * which was measured to slow a device on the CPUs by ×1.7 at most */
    set_hop(a1, 5e-8);
    set_hop(b4, 5e-8);
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    compare_free(&cs);
    set_hop(b4, 3.2e-7);
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    assert_int_equal(cs.gate, COMPARE_GATE_FAIL);
    assert_non_null(strstr(cs.groups[0].note,
                           "B ran with the host's CPUs a cache apart (a round trip of 320 ns "
                           "between them, against 50 ns in A's runs), which was measured to make "
                           "a device on them up to \xc3\x97"
                           "1.7 slower; the change is beyond that"));
    assert_non_null(strstr(cs.groups[0].text, "; the change is beyond that"));
    compare_free(&cs);
    /* ×1.5 lies within what the CPUs a cache apart can do: inconclusive */
    set_hop(b15, 3.2e-7);
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b15, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_int_equal(cs.gate, COMPARE_GATE_OPEN);
    assert_non_null(strstr(cs.why, "B ran with the host's CPUs a cache apart (a round trip of 320 "
                                   "ns between them, against 50 ns in A's runs)"));
    compare_free(&cs);
    /* on two hosts, round trips do not compare: B's host is not "apart" */
    snprintf(b15->prov.host, sizeof b15->prov.host, "another");
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b15, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.same_host, 0);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    compare_free(&cs);
    /* both a cache apart: nothing to hold against either */
    set_hop(a1, 3.2e-7);
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_int_equal(cs.verdict, CMP_SLOWER);
    compare_free(&cs);

    /* the band: four runs of the host, one a cache apart and slow */
    set_hop(a1, 5e-8);
    set_hop(b4, 5e-8);
    for (i = 0; i < 4; i++) {
        band[i] = cmp_scaled("0.3.21", i == 3 ? 3.0 : fr[i % 3], 4);
        snprintf(band[i]->prov.id, sizeof band[i]->prov.id, "r%d", i);
        set_hop(band[i], i == 3 ? 3.2e-7 : 5e-8);
    }
    o.band = (const results *const *)band;
    o.nband = 4;
    assert_int_equal(
        compare_sets((const results *const *)&a1, 1, (const results *const *)&b4, 1, &o, &cs, &e),
        BE_OK);
    assert_non_null(strstr(cs.band_from, "3 earlier runs of the same host"));
    compare_free(&cs);
    for (i = 0; i < 4; i++)
        results_free(band[i]);
    for (i = 0; i < 3; i++) {
        results_free(a[i]);
        results_free(b[i]);
    }
    results_free(a1);
    results_free(b4);
    results_free(b15);
}

/* A busy neighbour makes two thirds of B's samples three times as long
 * and leaves its quickest alone: the medians differ by ×3, the
 * 10th percentiles (q_level) not at all, and compare compares the latter;
 * the quick tenth itself ×1.5 is ×1.5. */
static void test_compare_quick_tenth(void **state)
{
    static const double fr[3] = {1.0, 1.01, 0.99};
    results *a = cmp_scaled("0.3.21", 1.0, 4), *b = cmp_scaled("0.3.21", 1.0, 4);
    results *ra[3], *rb[3];
    compare_opts o;
    compare_set cs;
    err e;
    int i, k;
    (void)state;
    {
        /* a summary read back from a render cache without the loader's
         * checks: no usable 10th percentile, no usable point */
        rs_point z = a->points[0];
        assert_true(q_ok(&z));
        z.resident.p10 = 0.0;
        assert_false(q_ok(&z));
        z.resident.p10 = NAN;
        assert_false(q_ok(&z));
    }
    for (i = 0; i < b->npoints; i++) {
        rs_point *p = &b->points[i];
        for (k = 0; k < p->nsamples; k++)
            if (k % 7 >= 2) /* 20 of 30: the quickest 10 are left */
                p->samples[k].wall *= 3.0;
        assert_int_equal(results_summarize(p, &e), BE_OK);
        assert_true(p->resident.median > 2.9 * a->points[i].resident.median);
        assert_true(q_level(p, FIT_RESIDENT) == p->resident.p10);
        assert_true(p->resident.p10 == a->points[i].resident.p10);
    }
    assert_int_equal(compare_runs(a, b, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.0) < 1e-12);
    assert_true(fabs(cs.points[2].level_b / b->points[2].resident.p10 - 1.0) < 1e-12);
    compare_free(&cs);
    /* three runs a side that agree to 1%: the quick tenth says "no
     * change", the medians rose ×3, so the verdict is inconclusive */
    for (k = 0; k < 3; k++) {
        ra[k] = cmp_scaled("0.3.21", fr[k], 4);
        rb[k] = cmp_scaled("0.3.21", fr[k], 4);
        for (i = 0; i < rb[k]->npoints; i++) {
            rs_point *p = &rb[k]->points[i];
            int j;
            for (j = 0; j < p->nsamples; j++)
                if (j % 7 >= 2)
                    p->samples[j].wall *= 3.0;
            assert_int_equal(results_summarize(p, &e), BE_OK);
        }
    }
    compare_opts_default(&o);
    o.correct = COMPARE_CORRECT_NONE;
    assert_int_equal(
        compare_sets((const results *const *)ra, 3, (const results *const *)rb, 3, &o, &cs, &e),
        BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.0) < 1e-12);
    assert_true(cs.groups[0].lo > 1.0 / 1.05 && cs.groups[0].hi < 1.05);
    assert_true(cs.groups[0].median_ratio > 2.9 && cs.groups[0].median_ratio < 3.0);
    assert_int_equal(cs.groups[0].verdict, CMP_INCONCLUSIVE);
    assert_non_null(strstr(cs.groups[0].why, "the quickest tenth of the step times did not move, "
                                             "but the medians rose \xc3\x97"));
    compare_free(&cs);
    for (k = 0; k < 3; k++) {
        results_free(ra[k]);
        results_free(rb[k]);
    }
    for (i = 0; i < b->npoints; i++) {
        rs_point *p = &b->points[i];
        for (k = 0; k < p->nsamples; k++)
            p->samples[k].wall *= 1.5;
        assert_int_equal(results_summarize(p, &e), BE_OK);
    }
    assert_int_equal(compare_runs(a, b, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.5) < 1e-12);
    compare_free(&cs);
    results_free(a);
    results_free(b);
}

/* One point twice as slow, the rest the same: listed as apart, the run
 * not a regression; and the load correction: a run measured while others
 * took half the CPU, twice as slow, is the same run. */
static void test_compare_point_and_load(void **state)
{
    results *a = cmp_scaled_at("0.3.21", 1.0, 8, 0.0), *b = cmp_scaled_at("0.3.21", 1.0, 8, 0.0);
    results *c = cmp_scaled_at("0.3.21", 2.0, 8, 0.0), *d = cmp_scaled_at("0.3.21", 1.0, 8, 0.0);
    compare_set cs;
    err e;
    int i;
    (void)state;
    for (i = 0; i < b->points[5].nsamples; i++)
        b->points[5].samples[i].wall *= 2.0;
    assert_int_equal(results_summarize(&b->points[5], &e), BE_OK);
    assert_int_equal(compare_runs(a, b, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].ratio - pow(2.0, 1.0 / 8)) < 1e-9);
    assert_int_equal(cs.verdict, CMP_INCONCLUSIVE);
    assert_int_equal(cs.napart, 1);
    assert_int_equal(cs.points[5].apart, 1);
    assert_int_equal(cs.points[5].verdict, CMP_SLOWER);
    assert_int_equal(cs.points[4].apart, 0);
    {
        char lead[4096];
        compare_lead(&cs, lead, sizeof lead);
        assert_non_null(strstr(lead, " Moved apart from their run: cpu inference "
                                     "512\xc3\x97"
                                     "64 (\xc3\x97"
                                     "2.00, up)."));
    }
    compare_free(&cs);
    c->passes[0].state.others_cpu = 0.5;
    assert_int_equal(compare_runs(a, c, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 1.0) < 1e-9);
    assert_int_equal(cs.groups[0].corrected, 1);
    compare_free(&cs);
    /* the same times with others taking 80% of the CPU in B's run: the
     * correction alone would call B 5× faster; the uncorrected times say
     * nothing changed, so the verdict is inconclusive, saying why */
    d->passes[0].state.others_cpu = 0.8;
    assert_int_equal(compare_runs(a, d, &cs, &e), BE_OK);
    assert_true(fabs(cs.groups[0].ratio - 0.2) < 1e-9);
    assert_true(fabs(cs.groups[0].raw_ratio - 1.0) < 1e-9);
    assert_int_equal(cs.groups[0].verdict, CMP_INCONCLUSIVE);
    assert_non_null(strstr(cs.groups[0].why, "the correction for the others' load alone makes "
                                             "this a speed-up"));
    assert_non_null(strstr(cs.groups[0].text, "(uncorrected \xc3\x97"
                                              "1.00)"));
    compare_free(&cs);
    results_free(a);
    results_free(b);
    results_free(c);
    results_free(d);
}

/* ---- fsx: mkdir -p, and atomic writes into what it made ---- */

/* A nested directory is made whole (a trailing slash is fine, making it
 * twice too), and an atomic write lands in it, leaving no temporary. */
static void test_fsx_mkdirs_nested(void **state)
{
    char dir[512], path[600], *text = NULL;
    struct dirent *de;
    DIR *d;
    int entries = 0;
    err e;
    (void)state;
    snprintf(dir, sizeof dir, "%s/m/n/o/", tmpdir);
    assert_null(opendir(dir));
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    snprintf(path, sizeof path, "%sf.txt", dir);
    assert_int_equal(fsx_write_atomic(path, "nested", 6, &e), BE_OK);
    assert_int_equal(fsx_read_all(path, &text, NULL, &e), BE_OK);
    assert_string_equal(text, "nested");
    free(text);
    d = opendir(dir);
    assert_non_null(d);
    while ((de = readdir(d)))
        entries += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    /* a file in the way of a component is named in the error */
    snprintf(path, sizeof path, "%sf.txt/p/q", dir);
    e.msg[0] = '\0';
    assert_int_equal(fsx_mkdirs(path, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "f.txt"));
}

/* ---- formatting (fmt.h) ---- */

static void test_fmt_numbers(void **state)
{
    static const struct {
        double v;
        int digits;
        const char *unit, *s;
    } si[] = {
        {9.6e7, 2, "FLOP", "96 MFLOP"},
        {1.25e8, 2, "FLOP", "125 MFLOP"},
        {2.105344e6, 3, "", "2.11 M"},
        {5e-6, 3, "s", "5 \xc2\xb5s"},
        {999.6e6, 3, "FLOP", "1 GFLOP"},
        {999.4, 3, "FLOP", "999 FLOP"},
        {0, 3, "FLOP", "0 FLOP"},
        {-3.2e3, 2, "FLOP", "-3.2 kFLOP"},
        {1.5e11, 3, "FLOP/s", "150 GFLOP/s"},
        {1e8, 3, NULL, "100M"},
        {2.5e9, 3, NULL, "2.5G"},
        {0.002, 3, NULL, "2m"},
        {NAN, 3, NULL, "NaN"},
    };
    char buf[64];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof si / sizeof *si; i++) {
        fmt_si(buf, sizeof buf, si[i].v, si[i].digits, si[i].unit);
        assert_string_equal(buf, si[i].s);
    }
    fmt_sig(buf, sizeof buf, 96.4, 2);
    assert_string_equal(buf, "96");
    fmt_sig(buf, sizeof buf, 1.25, 2);
    assert_string_equal(buf, "1.2");
    fmt_sig(buf, sizeof buf, 125.2, 2);
    assert_string_equal(buf, "125");
    /* a range in the prefix of its upper end, digits until the ends differ */
    fmt_si_range(buf, sizeof buf, 8e7, 1.2e8);
    assert_string_equal(buf, "80\xe2\x80\x93"
                             "120 M");
    fmt_si_range(buf, sizeof buf, 4.2e7, 4.24e7);
    assert_string_equal(buf, "42\xe2\x80\x93"
                             "42.4 M");
    fmt_num(buf, sizeof buf, 0.25);
    assert_string_equal(buf, "0.25");
    fmt_num(buf, sizeof buf, 1234);
    assert_string_equal(buf, "1230");
    fmt_pvalue(buf, sizeof buf, 0.4178);
    assert_string_equal(buf, "p = 0.42");
    fmt_pvalue(buf, sizeof buf, 0.00031);
    assert_string_equal(buf, "p = 0.00031");
    fmt_pvalue(buf, sizeof buf, 2e-9);
    assert_string_equal(buf, "p < 0.0001");
    /* dollars: plain down to a thousandth, then as a power of ten */
    fmt_usd(buf, sizeof buf, 0.12, 3);
    assert_string_equal(buf, "$0.12");
    fmt_usd(buf, sizeof buf, 1.514, 3);
    assert_string_equal(buf, "$1.51");
    fmt_usd(buf, sizeof buf, 0.0041, 2);
    assert_string_equal(buf, "$0.0041");
    fmt_usd(buf, sizeof buf, 3.31e-5, 2);
    assert_string_equal(buf, "$3.3\xc3\x97"
                             "10\xe2\x81\xbb\xe2\x81\xb5");
    fmt_usd(buf, sizeof buf, 2.1e-12, 2);
    assert_string_equal(buf, "$2.1\xc3\x97"
                             "10\xe2\x81\xbb\xc2\xb9\xc2\xb2");
    fmt_usd(buf, sizeof buf, 9.996e-6, 3);
    assert_string_equal(buf, "$1\xc3\x97"
                             "10\xe2\x81\xbb\xe2\x81\xb5");
    /* appending stops at the end of the buffer */
    snprintf(buf, 8, "abc");
    fmt_append(buf, 8, "%s", "defghij");
    assert_string_equal(buf, "abcdefg");
}

/* The reproduce command: no local path, no --quiet, the prices as
 * --price options, odd words quoted; the commit without "-dirty". */
static void test_reproduce(void **state)
{
    static const struct {
        const char *command, *want;
    } cases[] = {
        {"./build/breakeven run --quick --quiet --out /tmp/x --budget 1 --prices /home/u/p.txt",
         "breakeven run --quick --budget 1 --price cpu=0.12"},
        {"/usr/local/bin/breakeven all -q -o out --title Mine --data=/x --ou=/y --hidden 128,256",
         "breakeven all --hidden 128,256 --price cpu=0.12"},
        {"breakeven run -oout --base-url https://example.org/ --price cl:0.0=1.5 --seed 7",
         "breakeven run --seed 7 --price cpu=0.12"},
        {"breakeven run --devices=$HOME", "breakeven run '--devices=$HOME' --price cpu=0.12"},
        {"", "breakeven run --price cpu=0.12"},
    };
    results *r = results_new();
    char buf[1024];
    size_t i;
    int dirty;
    (void)state;
    assert_non_null(r);
    r->prices.n = 1;
    snprintf(r->prices.device[0], sizeof r->prices.device[0], "cpu");
    r->prices.usd_per_hour[0] = 0.12;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(r->prov.command, sizeof r->prov.command, "%s", cases[i].command);
        reproduce_command(r, buf, sizeof buf);
        assert_string_equal(buf, cases[i].want);
    }
    snprintf(r->prov.commit, sizeof r->prov.commit, "f01a39c2d604-dirty");
    reproduce_commit(r, buf, sizeof buf, &dirty);
    assert_string_equal(buf, "f01a39c2d604");
    assert_int_equal(dirty, 1);
    snprintf(r->prov.commit, sizeof r->prov.commit, "unknown");
    reproduce_commit(r, buf, sizeof buf, &dirty);
    assert_string_equal(buf, "");
    assert_int_equal(dirty, 0);
    results_free(r);
}

/* Columns of UTF-8 text: "µs" and "→" take one column each. */
static void test_fmt_columns(void **state)
{
    char s[32] = "a \xe2\x86\x92 b \xc2\xb5s";
    (void)state;
    assert_int_equal(fmt_width("72.4 \xc2\xb5s", 10), 11);
    assert_int_equal(fmt_width("1.45 ms", 10), 10);
    fmt_clip(s, 3);
    assert_string_equal(s, "a \xe2\x86\x92");
    fmt_clip(s, 2);
    assert_string_equal(s, "a ");
    fmt_clip(s, 40);
    assert_string_equal(s, "a ");
}

static void test_fmt_times_and_dates(void **state)
{
    static const struct {
        double s;
        const char *time, *duration;
    } t[] = {
        {1.724e-6, "1.72 \xc2\xb5s", "1.7 \xc2\xb5s"},
        {0.35, "350 ms", "350 ms"},
        {4.21, "4.21 s", "4.2s"},
        {83.5, "83.5 s", "1m23s"},
        /* durations only: an hour, and a negative one read as 0 */
        {3725, NULL, "1h02m"},
        {-1, NULL, "0.0 \xc2\xb5s"},
    };
    static const struct {
        const char *iso, *human, *rfc822;
    } d[] = {
        {"2026-11-22T03:18:31Z", "22 November 2026, 03:18 UTC", "Sun, 22 Nov 2026 03:18:31 +0000"},
        /* a leap day: the weekday comes from the calendar */
        {"2024-02-29T12:00:00Z", "29 February 2024, 12:00 UTC", "Thu, 29 Feb 2024 12:00:00 +0000"},
        {"2024-03-02T23:05:00Z", "2 March 2024, 23:05 UTC", "Sat, 02 Mar 2024 23:05:00 +0000"},
        /* not a date: the text itself, or the epoch where a date is required */
        {"2026-13-01T00:00:00Z", "2026-13-01T00:00:00Z", "Thu, 01 Jan 1970 00:00:00 +0000"},
    };
    char buf[64];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        fmt_time(buf, sizeof buf, t[i].s);
        if (t[i].time)
            assert_string_equal(buf, t[i].time);
        fmt_duration(buf, sizeof buf, t[i].s);
        assert_string_equal(buf, t[i].duration);
    }
    for (i = 0; i < sizeof d / sizeof *d; i++) {
        fmt_date(buf, sizeof buf, d[i].iso);
        assert_string_equal(buf, d[i].human);
        fmt_date_rfc822(buf, sizeof buf, d[i].iso);
        assert_string_equal(buf, d[i].rfc822);
    }
}

/* ---- queries over the results model (query.h) ---- */

static void qt_device(results *r, const char *id, const char *kind)
{
    device_info d;
    err e;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
}

/* A point with a median (and a transfer median when transfer > 0). */
static void qt_point(results *r, const char *dev, int layers, int hidden, int batch, rs_status st,
                     double median, double transfer)
{
    rs_point p;
    err e;
    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "%s", dev);
    p.mode = WL_INFERENCE;
    p.layers = layers;
    p.hidden = hidden;
    p.batch = batch;
    p.status = st;
    if (st == PT_OK) {
        p.resident.n = 9;
        p.resident.median = p.resident.p10 = median;
        p.has_transfer = transfer > 0;
        p.transfer.n = transfer > 0 ? 9 : 0;
        p.transfer.median = p.transfer.p10 = transfer;
    }
    assert_int_equal(results_add_point(r, &p, &e), BE_OK);
}

static void test_query_points(void **state)
{
    results *r = results_new();
    q_shape sh[16];
    int use[3], partial = 0, n;
    (void)state;
    assert_non_null(r);
    assert_int_equal(q_base(r), 0);
    assert_string_equal(q_base_id(r), "");
    /* the base is the OpenBLAS device, wherever it is listed */
    qt_device(r, "cl:0.0", "opencl");
    qt_device(r, "cpu", "openblas");
    qt_device(r, "cl:0.1", "opencl");
    assert_int_equal(q_base(r), 1);
    assert_string_equal(q_base_id(r), "cpu");
    assert_int_equal(q_device_index(r, "cl:0.1"), 2);
    assert_int_equal(q_device_index(r, "gpu"), Q_NO_DEVICE);
    /* added out of order; cpu's first point at 64×16 failed, a second is ok */
    qt_point(r, "cpu", 2, 64, 16, PT_FAILED_VERIFICATION, 0, 0);
    qt_point(r, "cpu", 2, 64, 16, PT_OK, 2e-3, 0);
    qt_point(r, "cpu", 2, 32, 64, PT_OK, 1e-3, 0);
    qt_point(r, "cpu", 2, 32, 16, PT_OK, 3e-3, 0);
    qt_point(r, "cl:0.0", 2, 32, 16, PT_OK, 1e-3, 1.5e-3);
    qt_point(r, "cl:0.0", 2, 32, 64, PT_OK, 2e-3, 0);
    qt_point(r, "cl:0.0", 2, 64, 16, PT_OK, 4e-3, 5e-3);
    qt_point(r, "cl:0.1", 2, 64, 16, PT_OUT_OF_MEMORY, 0, 0);
    qt_point(r, "cl:0.1", 4, 32, 16, PT_OK, 1e-3, 0);
    /* one policy: the first usable point, else the first one */
    assert_int_equal(q_point(r, "cpu", WL_INFERENCE, 64, 16)->status, PT_OK);
    assert_int_equal(q_point(r, "cl:0.1", WL_INFERENCE, 64, 16)->status, PT_OUT_OF_MEMORY);
    assert_null(q_point(r, "cl:0.1", WL_INFERENCE, 32, 64));
    assert_null(q_point(r, "cpu", WL_TRAINING, 64, 16));
    assert_null(q_point_layers(r, "cl:0.1", WL_INFERENCE, 2, 32, 16));
    assert_non_null(q_point_layers(r, "cl:0.1", WL_INFERENCE, 4, 32, 16));
    assert_true(q_has_mode(r, "cl:0.1", WL_INFERENCE));
    assert_false(q_has_mode(r, NULL, WL_TRAINING));
    assert_true(q_ok_view(q_point(r, "cl:0.0", WL_INFERENCE, 32, 16), FIT_TRANSFER));
    assert_false(q_ok_view(q_point(r, "cl:0.0", WL_INFERENCE, 32, 64), FIT_TRANSFER));
    assert_false(q_ok(q_point(r, "cl:0.1", WL_INFERENCE, 64, 16)));
    /* the shapes, sorted by hidden then batch, each once */
    n = q_shapes(r, WL_INFERENCE, sh, 16);
    assert_int_equal(n, 3);
    assert_true(sh[0].hidden == 32 && sh[0].batch == 16 && sh[1].batch == 64 && sh[2].hidden == 64);
    /* every device: cl:0.1 completed 32×16 only (64×16 out of memory) */
    assert_int_equal(q_completed(r, WL_INFERENCE, NULL, sh, 16), 1);
    assert_true(sh[0].hidden == 32 && sh[0].batch == 16);
    /* without cl:0.1: all three */
    use[0] = use[1] = 1;
    use[2] = 0;
    assert_int_equal(q_completed(r, WL_INFERENCE, use, sh, 16), 3);
    assert_true(fabs(q_total(r, "cpu", WL_INFERENCE, sh, 3, FIT_RESIDENT, NULL) - 6e-3) < 1e-15);
    /* with transfers where there are any, flagged as partial */
    assert_true(fabs(q_total(r, "cl:0.0", WL_INFERENCE, sh, 3, FIT_TRANSFER, &partial) - 8.5e-3) <
                1e-15);
    assert_int_equal(partial, 1);
    results_free(r);
}

/* A device of kind and type; fw, when not NULL, its "framework" property. */
static void qt_device_of(results *r, const char *id, const char *kind, const char *type,
                         const char *fw)
{
    device_info d;
    err e;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.type, sizeof d.type, "%s", type);
    if (fw)
        devinfo_prop_add(&d, "framework", "%s", fw);
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
}

/* What each device is measured against (q_stack, q_base_for,
 * q_base_id_for): by default its own stack's CPU device (PyTorch's GPU
 * against PyTorch's CPU, a framework's CPU and breakeven's OpenCL against
 * OpenBLAS); the run's base (--base) for every device once the user chose
 * it; OpenBLAS where a framework's stack has no CPU device in the run, and
 * for a device the run does not hold. */
static void test_query_base_for(void **state)
{
    results *r = results_new();
    char buf[64];
    (void)state;
    assert_non_null(r);
    assert_string_equal(q_base_id_for(r, "cpu"), "");
    qt_device_of(r, "torch:cuda:0", "framework", "GPU", "PyTorch");
    qt_device_of(r, "cl:0.0", "opencl", "GPU", NULL);
    qt_device_of(r, "cpu", "openblas", "CPU", NULL);
    qt_device_of(r, "torch:cpu", "framework", "CPU", "PyTorch");
    qt_device_of(r, "ort:cpu", "framework", "CPU", NULL);
    /* the stack: the framework property, else the id up to its colon */
    assert_string_equal(q_stack(r, "torch:cuda:0", buf, sizeof buf), "PyTorch");
    assert_string_equal(q_stack(r, "torch:cpu", buf, sizeof buf), "PyTorch");
    assert_string_equal(q_stack(r, "ort:cpu", buf, sizeof buf), "ort");
    assert_string_equal(q_stack(r, "cpu", buf, sizeof buf), "");
    assert_string_equal(q_stack(r, "cl:0.0", buf, sizeof buf), "");
    assert_string_equal(q_stack(r, "torch:mps", buf, sizeof buf), "");
    assert_string_equal(q_stack(r, "torch:cpu", buf, 4), "PyT");
    /* no --base: each stack's own CPU device */
    assert_int_equal(q_base(r), 2);
    assert_int_equal(q_base_for(r, 0), 3);
    assert_int_equal(q_base_for(r, 1), 2);
    assert_int_equal(q_base_for(r, 2), 2);
    assert_int_equal(q_base_for(r, 3), 2);
    assert_int_equal(q_base_for(r, 4), 2);
    assert_string_equal(q_base_id_for(r, "torch:cuda:0"), "torch:cpu");
    assert_string_equal(q_base_id_for(r, "torch:cpu"), "cpu");
    assert_string_equal(q_base_id_for(r, "ort:cpu"), "cpu");
    assert_string_equal(q_base_id_for(r, "cl:0.0"), "cpu");
    assert_string_equal(q_base_id_for(r, "cpu"), "cpu");
    /* a device the run does not hold: the run's base */
    assert_int_equal(q_base_for(r, -1), 2);
    assert_int_equal(q_base_for(r, 5), 2);
    assert_string_equal(q_base_id_for(r, "torch:cuda:1"), "cpu");
    /* --base torch:cpu (the post's experiment): every device against it,
     * the OpenBLAS CPU too, and it against itself */
    snprintf(r->prov.base, sizeof r->prov.base, "%s", "torch:cpu");
    assert_int_equal(q_base(r), 3);
    assert_string_equal(q_base_id(r), "torch:cpu");
    assert_int_equal(q_base_for(r, 0), 3);
    assert_int_equal(q_base_for(r, 1), 3);
    assert_int_equal(q_base_for(r, 2), 3);
    assert_int_equal(q_base_for(r, 3), 3);
    assert_int_equal(q_base_for(r, 4), 3);
    assert_string_equal(q_base_id_for(r, "cpu"), "torch:cpu");
    assert_string_equal(q_base_id_for(r, "nosuch"), "torch:cpu");
    /* --base cl:0.0: PyTorch's GPU against it, not against PyTorch's CPU */
    snprintf(r->prov.base, sizeof r->prov.base, "%s", "cl:0.0");
    assert_int_equal(q_base(r), 1);
    assert_string_equal(q_base_id_for(r, "torch:cuda:0"), "cl:0.0");
    assert_string_equal(q_base_id_for(r, "torch:cpu"), "cl:0.0");
    results_free(r);
    /* PyTorch's GPU in a run without PyTorch's CPU: against OpenBLAS */
    assert_non_null(r = results_new());
    qt_device_of(r, "cpu", "openblas", "CPU", NULL);
    qt_device_of(r, "cl:0.0", "opencl", "GPU", NULL);
    qt_device_of(r, "torch:cuda:0", "framework", "GPU", "PyTorch");
    qt_device_of(r, "ort:cpu", "framework", "CPU", "ONNX Runtime");
    assert_int_equal(q_base_for(r, 2), 0);
    assert_string_equal(q_base_id_for(r, "torch:cuda:0"), "cpu");
    assert_string_equal(q_base_id_for(r, "ort:cpu"), "cpu");
    results_free(r);
    /* no OpenBLAS device: PyTorch's GPU against PyTorch's CPU, the base,
     * in whichever order they were listed */
    assert_non_null(r = results_new());
    qt_device_of(r, "torch:cuda:0", "framework", "GPU", "PyTorch");
    qt_device_of(r, "torch:cpu", "framework", "CPU", "PyTorch");
    assert_int_equal(q_base(r), 1);
    assert_int_equal(q_base_for(r, 0), 1);
    assert_int_equal(q_base_for(r, 1), 1);
    assert_string_equal(q_base_id_for(r, "torch:cuda:0"), "torch:cpu");
    results_free(r);
    /* no CPU at all: the first device */
    assert_non_null(r = results_new());
    qt_device_of(r, "cl:0.1", "opencl", "GPU", NULL);
    qt_device_of(r, "torch:cuda:0", "framework", "GPU", "PyTorch");
    assert_int_equal(q_base(r), 0);
    assert_string_equal(q_base_id_for(r, "torch:cuda:0"), "cl:0.1");
    results_free(r);
}

/* The one rule for an interval too wide to inform: the upper end over twice
 * the lower, a lower end at or below 0, an end not finite. */
static void test_query_uninformative(void **state)
{
    (void)state;
    assert_int_equal(q_ci_uninformative(1.0, 2.0), 0);
    assert_int_equal(q_ci_uninformative(1.0, 2.0001), 1);
    assert_int_equal(q_ci_uninformative(0.9, 1.1), 0);
    assert_int_equal(q_ci_uninformative(3.32e-8, 513.0), 1);
    assert_int_equal(q_ci_uninformative(0.0, 1.0), 1);
    assert_int_equal(q_ci_uninformative(-1.0, 1.0), 1);
    assert_int_equal(q_ci_uninformative(1.0, INFINITY), 1);
    assert_int_equal(q_ci_uninformative(NAN, 1.0), 1);
    stats_summary s = {.median = 5.25e-3, .ci_lo = 3.32e-8, .ci_hi = 513.0};
    assert_int_equal(q_summary_uninformative(&s), 1);
    s.ci_lo = 5.0e-3;
    s.ci_hi = 5.6e-3;
    assert_int_equal(q_summary_uninformative(&s), 0);
}

static void test_query_fit(void **state)
{
    results *r = results_new();
    fit_model m[3];
    fit_crossover c[2];
    int use[3];
    (void)state;
    assert_non_null(r);
    qt_device(r, "cpu", "openblas");
    qt_device(r, "cl:0.0", "opencl");
    qt_device(r, "cl:0.1", "opencl");
    qt_point(r, "cpu", 2, 32, 16, PT_OK, 1e-3, 0);
    qt_point(r, "cl:0.0", 2, 32, 16, PT_OK, 1e-3, 0);
    qt_point(r, "cl:0.1", 2, 32, 16, PT_OK, 1e-3, 0);
    memset(m, 0, sizeof m);
    memset(c, 0, sizeof c);
    snprintf(m[0].device, sizeof m[0].device, "cpu");
    m[0].ok = 1;
    m[0].P = 5e10;
    snprintf(m[1].device, sizeof m[1].device, "cl:0.0");
    m[1].ok = 1;
    m[1].P = 1e11;
    m[2] = m[1];
    m[2].view = FIT_TRANSFER;
    m[2].P = -1;
    snprintf(c[0].base, sizeof c[0].base, "cpu");
    snprintf(c[0].other, sizeof c[0].other, "cl:0.0");
    c[1] = c[0];
    c[1].cost = 1;
    r->fit.nmodels = 3;
    r->fit.models = m;
    r->fit.ncross = 2;
    r->fit.cross = c;
    /* no fit stored: nothing to find */
    assert_null(q_fit(r));
    r->has_fit = 1;
    assert_ptr_equal(q_model(q_fit(r), "cl:0.0", WL_INFERENCE, FIT_TRANSFER), &m[2]);
    assert_false(q_model_ok(&m[2]));
    assert_true(q_model_ok(&m[1]));
    assert_null(q_model(NULL, "cpu", WL_INFERENCE, FIT_RESIDENT));
    /* the CPU has no transfer view: its resident model stands in */
    assert_ptr_equal(q_base_model(&r->fit, "cpu", WL_INFERENCE, FIT_TRANSFER), &m[0]);
    assert_ptr_equal(q_cross(&r->fit, NULL, "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 1), &c[1]);
    assert_ptr_equal(q_cross(&r->fit, "cpu", "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0), &c[0]);
    assert_null(q_cross(&r->fit, "cl:0.1", "cl:0.0", WL_INFERENCE, FIT_RESIDENT, 0));
    /* prices: a cost comparison takes the priced devices only */
    r->prices.n = 2;
    snprintf(r->prices.device[0], sizeof r->prices.device[0], "cpu");
    r->prices.usd_per_hour[0] = 0.5;
    snprintf(r->prices.device[1], sizeof r->prices.device[1], "cl:0.1");
    r->prices.usd_per_hour[1] = 2;
    assert_true(q_price(&r->prices, "cl:0.1") == 2.0);
    assert_true(q_price(&r->prices, "cl:0.0") == Q_NO_PRICE);
    assert_true(q_price(NULL, "cpu") < 0);
    assert_int_equal(q_compared(r, WL_INFERENCE, &r->prices, use), 2);
    assert_true(use[0] && !use[1] && use[2]);
    assert_int_equal(q_compared(r, WL_INFERENCE, NULL, use), 3);
    assert_int_equal(q_compared(r, WL_TRAINING, NULL, use), 0);
    /* the model's arrays are the test's */
    memset(&r->fit, 0, sizeof r->fit);
    results_free(r);
}

/* ==== measurement in passes, the machine's state, threads, verification
 * coverage (issue 8, "An answer you can trust") ============================ */

static double normal01(uint64_t *st)
{
    double u1, u2;
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    u1 = ((double)(*st >> 11) + 0.5) / 9007199254740992.0;
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    u2 = ((double)(*st >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Three passes of 5 equal samples, at e^0, e^0.1 and e^-0.1: the between
 * pass variance of the log-medians is 0.01 (2 degrees of freedom), so the
 * half-width is t(0.975, 2)·√(0.01/3) on the log scale around the median 1. */
/* The paired interval of a log ratio (stats_paired_log_ratio): two
 * devices whose pass medians move together (e^0, e^0.1, e^-0.1, the other
 * twice as slow in each) have a ratio that varies not at all between the
 * passes; where the other's moves by e^0, e^0.1 and e^-0.1 more, the
 * differences' variance is 0.01 over 2 degrees of freedom, the half-width
 * t(0.975, 2)·√(0.01/3); passes measured by one device only do not pair,
 * and fewer than 2 common ones give no interval. */
static void test_paired_log_ratio(void **state)
{
    static const int pass[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    static const int other_pass[9] = {3, 3, 3, 4, 4, 4, 5, 5, 5};
    static const double lm[3] = {0.0, 0.1, -0.1};
    static const stats_prior prior = {4.0, 0.04, 0.0}, runs = {4.0, 0.04, 0.0025};
    double a[9], b[9], c[9], half, spread;
    int i, k;
    err e;
    (void)state;
    for (i = 0; i < 9; i++) {
        a[i] = 1e-3 * exp(lm[i / 3]);
        b[i] = 2.0 * a[i];
        c[i] = 2.0 * a[i] * exp(lm[i / 3]);
    }
    assert_int_equal(stats_paired_log_ratio(a, pass, 9, b, pass, 9, NULL, &half, &k, &spread, &e),
                     BE_OK);
    assert_int_equal(k, 3);
    assert_true(fabs(half) < 1e-12 && fabs(spread) < 1e-24);
    assert_int_equal(stats_paired_log_ratio(a, pass, 9, c, pass, 9, NULL, &half, &k, &spread, &e),
                     BE_OK);
    assert_int_equal(k, 3);
    assert_close(half, stats_t975(2) * sqrt(0.01 / 3.0));
    assert_close(spread, 0.01);
    /* pooled with a prior of 4 degrees of freedom at 0.04: (4·0.04 +
     * 2·0.01)/6 = 0.03 on 6, t(0.975, 6) = 2.44691185114497 (mpmath) */
    assert_int_equal(stats_paired_log_ratio(a, pass, 9, c, pass, 9, &prior, &half, &k, &spread, &e),
                     BE_OK);
    assert_close(half, 2.44691185114497 * sqrt(0.03 / 3.0));
    assert_close(spread, 0.01);
    /* and a run-to-run variance of 0.0025 on top: the two half-widths in
     * quadrature, the run's at 1.96σ */
    assert_int_equal(stats_paired_log_ratio(a, pass, 9, c, pass, 9, &runs, &half, &k, &spread, &e),
                     BE_OK);
    assert_close(half,
                 sqrt(2.44691185114497 * 2.44691185114497 * 0.03 / 3.0 + 1.96 * 1.96 * 0.0025));
    /* the other measured in passes 3 to 5: one in common */
    assert_int_equal(
        stats_paired_log_ratio(a, pass, 9, b, other_pass, 9, &prior, &half, &k, &spread, &e),
        BE_OK);
    assert_int_equal(k, 1);
    assert_true(half == 0.0 && spread == -1.0);
}

/* A point of n samples in passes, pass[i] and far[i] given per sample,
 * each sample's time ms[i] milliseconds (the same in every view). */
static void two_states(rs_point *p, step_times *t, int *pass, int n, const int *passes,
                       const int *far, const double *ms)
{
    int i;
    memset(p, 0, sizeof *p);
    memset(t, 0, (size_t)n * sizeof *t);
    for (i = 0; i < n; i++) {
        pass[i] = passes[i];
        t[i].wall = t[i].total = 1e-3 * ms[i];
        t[i].kernel = t[i].h2d = t[i].d2h = t[i].whost = -1.0;
        t[i].far = far[i];
    }
    p->samples = t;
    p->pass = pass;
    p->nsamples = n;
}

/* Adds a point of dev at hidden 128, batch b of n samples (two_states's
 * arguments, every CPU near), summarized. */
static void vague_point(results *r, const char *dev, int b, int n, const int *passes,
                        const double *ms)
{
    static const int near[16] = {0};
    step_times t[16];
    int pass[16];
    rs_point p;
    two_states(&p, t, pass, n, passes, near, ms);
    snprintf(p.device, sizeof p.device, "%s", dev);
    p.layers = 2;
    p.hidden = 128;
    p.batch = b;
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(results_add_point(r, &p, NULL), BE_OK);
}

/* Why points stayed uninformative (q_run_vague), per device in the run's
 * order: passes that disagree, too few passes, samples scattered within
 * passes, an interval extended for others' load; informative points are
 * not counted. */
static void test_run_vague(void **state)
{
    static const int pass4[12] = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4};
    static const int pass2[6] = {1, 1, 1, 2, 2, 2};
    static const double steady[12] = {1.00, 1.01, 1.02, 1.01, 1.02, 1.03,
                                      1.00, 1.02, 1.01, 1.02, 1.01, 1.00};
    /* passes 1 and 3 quick, 2 and 4 twenty times slower */
    static const double moody[12] = {1.0, 1.0, 1.0, 20.0, 20.0, 20.0,
                                     1.0, 1.0, 1.0, 20.0, 20.0, 20.0};
    /* two passes 1.5 times apart: t of one degree of freedom */
    static const double two[6] = {1.0, 1.0, 1.0, 1.5, 1.5, 1.5};
    /* every pass's median 1 ms, each between samples 30 times apart */
    static const double scatter[12] = {0.1, 1.0, 30.0, 0.1, 1.0, 30.0,
                                       0.1, 1.0, 30.0, 0.1, 1.0, 30.0};
    results *r = results_new();
    device_info d;
    q_vague v[4];
    (void)state;
    assert_non_null(r);
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.type, sizeof d.type, "CPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    snprintf(d.id, sizeof d.id, "ref:cpu");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    assert_int_equal(q_run_vague(r, v, 4), 0);

    /* listed in the run's order of devices, not the points' */
    vague_point(r, "ref:cpu", 16, 12, pass4, moody);
    vague_point(r, "ref:cpu", 32, 6, pass2, two);
    vague_point(r, "ref:cpu", 64, 12, pass4, scatter);
    vague_point(r, "cpu", 16, 12, pass4, steady);
    vague_point(r, "cpu", 32, 12, pass4, steady);
    assert_int_equal(q_run_vague(r, v, 4), 1);
    /* the steady cpu point, its interval extended down for others taking
     * 60% of the CPUs: informative but for the load */
    assert_false(q_summary_uninformative(&r->points[4].resident));
    r->points[4].resident.contention = 0.6;
    r->points[4].resident.ci_lo *= 0.4;
    assert_int_equal(q_run_vague(r, v, 4), 2);
    assert_string_equal(v[0].device, "cpu");
    assert_int_equal(v[0].n, 1);
    assert_int_equal(v[0].why[Q_VAGUE_LOAD], 1);
    assert_int_equal(v[0].passes, 4);
    assert_string_equal(v[1].device, "ref:cpu");
    assert_int_equal(v[1].n, 3);
    assert_int_equal(v[1].why[Q_VAGUE_PASSES], 1);
    assert_int_equal(v[1].why[Q_VAGUE_FEW], 1);
    assert_int_equal(v[1].why[Q_VAGUE_SCATTER], 1);
    assert_int_equal(v[1].why[Q_VAGUE_LOAD], 0);
    assert_int_equal(v[1].passes, 4);
    assert_ptr_equal(v[1].apart, &r->points[0]);
    assert_close(v[1].apart_lo, 1e-3);
    assert_close(v[1].apart_hi, 20e-3);
    /* room for one device: the first met */
    assert_int_equal(q_run_vague(r, v, 1), 1);
    assert_string_equal(v[0].device, "ref:cpu");
    results_free(r);
}

/* The samples a point's summaries take (results_summary_samples): every
 * one, unless the CPUs were a cache apart around some, the near ones are at
 * least half of all from at least 2 passes, and the far ones' median lies
 * outside the near ones' interval. */
static void test_summary_two_states(void **state)
{
    /* four passes of 4, the CPUs near in passes 1 and 3 (1.00-1.03 ms and
     * 1.01-1.04 ms) and far in 2 and 4, twice as slow: half the samples,
     * two passes, and far beyond their interval: the near ones */
    static const int pass4[16] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
    static const int far4[16] = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1};
    static const double ms4[16] = {1.00, 1.01, 1.02, 1.03, 2.0, 2.0, 2.0, 2.0,
                                   1.01, 1.02, 1.03, 1.04, 2.0, 2.0, 2.0, 2.0};
    /* the same when far changes nothing: 1.00-1.04 ms throughout */
    static const double same4[16] = {1.00, 1.01, 1.02, 1.03, 1.01, 1.02, 1.03, 1.04,
                                     1.01, 1.02, 1.03, 1.04, 1.00, 1.01, 1.02, 1.03};
    /* three passes of 4: near and slow in pass 1 alone (the issue's 3 of
     * 107 samples at 15.9 ms), far and quick in passes 2 and 3 */
    static const int pass3[12] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
    static const int far3[12] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    static const double ms3[12] = {15.9, 15.9, 15.9, 15.9, 1.1, 1.2, 1.1, 1.2, 1.2, 1.1, 1.2, 1.1};
    /* near in two passes but a third of the samples: a slow near minority */
    static const int farm[12] = {0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1};
    /* near in pass 1 alone, though more than half: one pass is not enough */
    static const int pass1[12] = {1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3};
    static const int far1[12] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    static const double ms1[12] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0};
    step_times t[16];
    int pass[16], idx[16], i;
    rs_point p;
    (void)state;

    two_states(&p, t, pass, 16, pass4, far4, ms4);
    assert_int_equal(results_summary_samples(&p, idx), 8);
    assert_int_equal(idx[3], 3);
    assert_int_equal(idx[4], 8);
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(p.resident.n, 8);
    assert_int_equal(p.resident.passes, 2);
    assert_close(p.resident.max, 1.04e-3);
    assert_close(p.resident.median, 1.02e-3);

    two_states(&p, t, pass, 16, pass4, far4, same4);
    assert_int_equal(results_summary_samples(&p, idx), 16);
    assert_int_equal(idx[15], 15);
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(p.resident.n, 16);
    assert_int_equal(p.resident.passes, 4);

    two_states(&p, t, pass, 12, pass3, far3, ms3);
    assert_int_equal(results_summary_samples(&p, NULL), 12);
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(p.resident.n, 12);
    assert_int_equal(p.resident.passes, 3);
    assert_close(p.resident.median, 1.2e-3);
    assert_close(p.resident.max, 15.9e-3);

    two_states(&p, t, pass, 12, pass3, farm, ms3);
    assert_int_equal(results_summary_samples(&p, NULL), 12);

    two_states(&p, t, pass, 12, pass1, far1, ms1);
    assert_int_equal(results_summary_samples(&p, NULL), 12);
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    assert_int_equal(p.resident.passes, 3);
    assert_close(p.resident.median, 1.0e-3);

    /* the far samples outside the near interval, but a third of all: the
     * near ones, two thirds from two passes, are taken */
    two_states(&p, t, pass, 12, pass3, far3, ms3);
    t[4].far = t[5].far = t[6].far = t[7].far = 0.0;
    for (i = 0; i < 8; i++)
        t[i].wall = t[i].total = 1e-3 * (1.0 + 0.01 * (i % 4));
    assert_int_equal(results_summary_samples(&p, NULL), 8);

    /* none far: all */
    two_states(&p, t, pass, 12, pass3, far3, ms3);
    for (i = 0; i < 12; i++)
        t[i].far = 0.0;
    assert_int_equal(results_summary_samples(&p, NULL), 12);
}

/* The round trip between two CPUs: on this machine (two or more CPUs) it
 * is measured; under valgrind, which runs one thread at a time (tests/run
 * sets VALGRIND=1), the probe gives up within 50 ms and the check is off;
 * far is CACHEHOP_FAR times the quickest, exclusive. */
static void test_cachehop(void **state)
{
    const char *vg = getenv("VALGRIND");
    cachehop h;
    double t, t0;
    (void)state;
    t0 = host_seconds();
    cachehop_init(&h);
    if (vg && strcmp(vg, "1") == 0) {
        /* five probes at most, each giving up after 50 ms of waiting */
        assert_true(h.cpu_a < 0 || h.best > 0.0);
        assert_true(host_seconds() - t0 < 30.0);
    } else if (host_cores() >= 2) {
        assert_true(h.cpu_a >= 0 && h.cpu_b > h.cpu_a);
        assert_true(h.best > 0.0 && h.best < 1e-3);
        t = cachehop_probe(&h);
        assert_true(t >= h.best && t < 1e-3);
    }
    h.best = 1e-7;
    assert_int_equal(cachehop_far(&h, 2.5e-7), 0);
    assert_int_equal(cachehop_far(&h, 2.6e-7), 1);
    assert_int_equal(cachehop_far(&h, 0.0), 0);
    h.best = 0.0;
    assert_int_equal(cachehop_far(&h, 1.0), 0);
    h.cpu_a = h.cpu_b = -1;
    assert_true(cachehop_probe(&h) == 0.0);
}

static void test_passes_interval_between(void **state)
{
    static const double level[3] = {0.0, 0.1, -0.1};
    double x[15];
    int pass[15], i;
    stats_summary s, plain;
    (void)state;
    for (i = 0; i < 15; i++) {
        pass[i] = i / 5 + 1;
        x[i] = exp(level[i / 5]);
    }
    assert_int_equal(stats_summarize(x, 15, &plain, NULL), BE_OK);
    assert_int_equal(stats_summarize_passes(x, pass, 15, &s, NULL), BE_OK);
    assert_int_equal(s.passes, 3);
    assert_int_equal(s.n, 15);
    assert_true(s.median == 1.0 && s.min == plain.min && s.max == plain.max);
    assert_true(s.mean == plain.mean && s.p10 == plain.p10);
    assert_close(s.ci_lo, exp(-4.303 * sqrt(0.01 / 3.0)));
    assert_close(s.ci_hi, exp(4.303 * sqrt(0.01 / 3.0)));
    assert_true(s.ci_level == 0.95);
    /* the within-run interval claimed much less */
    assert_true(plain.ci_lo > s.ci_lo && plain.ci_hi < s.ci_hi);
}

/* A device's prior (stats_prior_fit) against limma's fitFDist computed
 * with mpmath's ψ and ψ′ at 30 digits: variances spread widely (a weak
 * prior), narrowly on mixed degrees of freedom, and so evenly that the
 * points' sampling noise explains it all (the cap: Σ df); under
 * STATS_PRIOR_POINTS points, none; points with no variance or no degree
 * of freedom left out. */
static void test_prior_fit(void **state)
{
    static const double wide[12] = {0.0004, 0.02, 0.0009, 0.25, 0.015, 0.3,
                                    0.001,  0.5,  0.0025, 0.04, 0.6,   0.002};
    static const double narrow[14] = {0.004, 0.02,   0.009, 0.05, 0.015, 0.03, 0.002,
                                      0.08,  0.0025, 0.04,  0.06, 0.012, 0.0,  0.5};
    static const int two[12] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    static const int mixed[14] = {2, 2, 3, 4, 2, 2, 6, 2, 3, 2, 2, 5, 2, 0};
    stats_prior p;
    (void)state;
    stats_prior_fit(wide, two, 12, &p);
    assert_true(fabs(p.df - 0.932029017102349) < 1e-7 &&
                fabs(p.var / 0.0075174946718335 - 1) < 1e-7);
    stats_prior_fit(narrow, mixed, 14, &p);
    assert_true(fabs(p.df - 4.76005162854042) < 1e-7 &&
                fabs(p.var / 0.0194323584540656 - 1) < 1e-7);
    stats_prior_fit(narrow, two, 12, &p);
    assert_true(p.df == 24.0 && fabs(p.var / 0.0263986739451995 - 1) < 1e-7);
    stats_prior_fit(narrow, two, STATS_PRIOR_POINTS - 1, &p);
    assert_true(p.df == 0.0 && p.var == 0.0);
}

/* A point's interval with its device's prior: 21 samples of pass 1 at 1,
 * 3 of pass 2 at e^0.5 and 3 of pass 3 at e^-0.5, so the passes'
 * log-medians vary by s² = 0.25 on 2 degrees of freedom and the
 * order-statistic interval is [1, 1].  With the prior {4, 0.01}: (4·0.01
 * + 2·0.25)/6 on 6 degrees of freedom; with {2.5, 0.02}, on 4.5 (t from
 * mpmath); without, t(2)·√(0.25/3); the first with a run-to-run variance
 * of 0.0025 as well: its half-width and 1.96·0.05 in quadrature. */
static void test_passes_prior(void **state)
{
    static const struct {
        stats_prior prior;
        double df, lo, hi;
    } want[4] = {{{4.0, 0.01, 0.0}, 6.0, 0.654543282763188, 1.52778284696231},
                 {{2.5, 0.02, 0.0}, 4.5, 0.584683973494419, 1.71032565511144},
                 {{0.0, 0.5, 0.0}, 2.0, 0.0, 0.0},
                 {{4.0, 0.01, 0.0025}, 6.0, 0.647264422889622, 1.54496364180753}};
    double x[27];
    int pass[27], i, k;
    stats_summary s;
    (void)state;
    for (i = 0; i < 27; i++) {
        pass[i] = i < 21 ? 1 : i < 24 ? 2 : 3;
        x[i] = i < 21 ? 1.0 : exp(i < 24 ? 0.5 : -0.5);
    }
    for (k = 0; k < 4; k++) {
        double lo = want[k].lo, hi = want[k].hi;
        assert_int_equal(stats_summarize_prior(x, pass, 27, &want[k].prior, &s, NULL), BE_OK);
        if (k == 2) {
            lo = exp(-4.303 * sqrt(0.25 / 3.0));
            hi = exp(4.303 * sqrt(0.25 / 3.0));
        }
        assert_true(s.median == 1.0 && s.passes == 3 && s.df == want[k].df);
        assert_close(s.spread, 0.25);
        if (fabs(s.ci_lo / lo - 1) > 1e-9 || fabs(s.ci_hi / hi - 1) > 1e-9)
            fail_msg("prior %d: got %.15g..%.15g, want %.15g..%.15g", k, s.ci_lo, s.ci_hi, lo, hi);
    }
    /* one pass: no spread, no degrees of freedom */
    assert_int_equal(stats_summarize_prior(x, pass, 21, &want[0].prior, &s, NULL), BE_OK);
    assert_true(s.passes == 1 && s.spread == -1.0 && s.df == 0.0);
}

/* Passes that agree exactly: the interval is the floor, the sampling
 * variance of a pass's log-median, π/2·(1.4826·MAD)²/n; here every pass is
 * {0.9, 0.95, 1, 1.05, 1.1}, whose log-MAD is ln(1/0.95). */
static void test_passes_interval_within_floor(void **state)
{
    static const double v[5] = {1.05, 0.9, 1.0, 1.1, 0.95};
    double x[15], half;
    int pass[15], i;
    stats_summary s;
    (void)state;
    for (i = 0; i < 15; i++) {
        pass[i] = 7 + i / 5;
        x[i] = v[i % 5];
    }
    assert_int_equal(stats_summarize_passes(x, pass, 15, &s, NULL), BE_OK);
    half = 4.303 * sqrt(1.5707963267948966 * pow(1.4826 * log(1.0 / 0.95), 2) / 5.0 / 3.0);
    assert_true(s.median == 1.0);
    assert_close(s.ci_lo, exp(-half));
    assert_close(s.ci_hi, exp(half));
}

/* Four passes of unequal size, their samples interleaved: the same as
 * grouped, with t(0.975, 3); one pass: stats_summarize's interval. */
static void test_passes_interleaved_and_single(void **state)
{
    /* pass medians 2, 2·e^0.2, 2, 2·e^-0.2 (log-variance 0.08/3) */
    static const double m[4] = {2.0, 2.4428055163203397, 2.0, 1.6374615061559636};
    static const int size[4] = {3, 5, 3, 7};
    double x[18], y[18];
    int pa[18], pb[18], n = 0, k, j, i;
    stats_summary a, b, one, plain;
    (void)state;
    /* grouped, each pass all at its median: MAD 0, so no floor */
    for (k = 0; k < 4; k++)
        for (j = 0; j < size[k]; j++) {
            x[n] = m[k];
            pa[n++] = k;
        }
    /* the same samples, interleaved */
    for (i = 0; i < n; i++) {
        y[i] = x[(i * 7) % n];
        pb[i] = pa[(i * 7) % n];
    }
    assert_int_equal(stats_summarize_passes(x, pa, n, &a, NULL), BE_OK);
    assert_int_equal(stats_summarize_passes(y, pb, n, &b, NULL), BE_OK);
    assert_int_equal(a.passes, 4);
    assert_true(a.median == b.median && a.ci_lo == b.ci_lo && a.ci_hi == b.ci_hi);
    /* the log-medians ln 2 + {0, 0.2, 0, -0.2}: variance 0.08/3 */
    assert_true(a.median == 2.0);
    assert_close(a.ci_hi, 2.0 * exp(3.182 * sqrt((0.04 + 0.04) / 3.0 / 4.0)));
    assert_close(a.ci_lo, 2.0 * exp(-3.182 * sqrt((0.04 + 0.04) / 3.0 / 4.0)));
    for (i = 0; i < n; i++)
        pa[i] = 5;
    assert_int_equal(stats_summarize(x, n, &plain, NULL), BE_OK);
    assert_int_equal(stats_summarize_passes(x, pa, n, &one, NULL), BE_OK);
    assert_int_equal(one.passes, 1);
    assert_true(one.ci_lo == plain.ci_lo && one.ci_hi == plain.ci_hi &&
                one.ci_level == plain.ci_level);
}

/* Drift is a slowdown within a visit: passes at different levels but flat
 * inside are not drift (the concatenation would look like it); passes that
 * each slow down are. */
static void test_passes_drift_within(void **state)
{
    double x[36], z, ratio;
    int pass[36], i;
    stats_summary s;
    (void)state;
    for (i = 0; i < 36; i++) {
        pass[i] = i / 12;
        x[i] = (1.0 + 0.1 * (i / 12)) * (1.0 + 0.001 * ((i * 5) % 12));
    }
    assert_int_equal(stats_summarize(x, 36, &s, NULL), BE_OK);
    assert_int_equal(s.drift, 1);
    /* over the concatenation, thirds of 12: U = 144 of 144 pairs, no
     * ties, z = (144 − 72) / √(144·25/12) */
    assert_int_equal(stats_drift(x, NULL, 36, &z, &ratio, NULL), BE_OK);
    assert_true(fabs(z - 72.0 / sqrt(144.0 * 25.0 / 12.0)) < 1e-12);
    assert_true(s.drift_z == z && s.drift_ratio == ratio);
    assert_int_equal(stats_summarize_passes(x, pass, 36, &s, NULL), BE_OK);
    assert_int_equal(s.drift, 0);
    assert_true(s.drift_z == 0.0); /* kept only where drift is flagged */
    for (i = 0; i < 36; i++)
        x[i] = 1.0 + 0.01 * (i % 12);
    assert_int_equal(stats_summarize_passes(x, pass, 36, &s, NULL), BE_OK);
    assert_int_equal(s.drift, 1);
    assert_true(s.drift_ratio > 1.05);
    /* each pass's thirds apart (z = 4·4/2 / √(4·4·9/12) = 8/√12), three
     * passes combined: √3 times one */
    assert_int_equal(stats_drift(x, pass, 36, &z, &ratio, NULL), BE_OK);
    assert_true(fabs(z - sqrt(3.0) * 8.0 / sqrt(12.0)) < 1e-12);
    assert_true(s.drift_z == z && s.drift_ratio == ratio);
    /* eight samples, all of one pass: nothing tested */
    assert_int_equal(stats_drift(x, pass, 8, &z, &ratio, NULL), BE_OK);
    assert_true(z == 0.0 && ratio == 0.0);
}

static void test_t975(void **state)
{
    (void)state;
    assert_true(stats_t975(1) == 12.706);
    assert_true(stats_t975(2) == 4.303);
    assert_true(stats_t975(30) == 2.042);
    assert_true(fabs(stats_t975(31) - 2.0395) < 5e-4);
    assert_true(fabs(stats_t975(1000) - 1.9623) < 5e-4);
    assert_true(stats_t975(0) > 1e300);
}

/* Simulated runs of 3 passes, each pass shifted by a random machine effect
 * (sd 5% on the log scale) with 1% noise within: the interval covers the
 * true centre about 95% of the time, and another run's median about 90%
 * (both have the same spread); the within-run interval does neither. */
static void test_passes_coverage_simulated(void **state)
{
    enum { K = 3, N = 20, TRIALS = 2000 };
    double x[K * N];
    int pass[K * N], trial, p, j, covered = 0, within = 0, other = 0;
    uint64_t st = 7;
    stats_summary s, w, last;
    (void)state;
    memset(&last, 0, sizeof last);
    for (trial = 0; trial < TRIALS; trial++) {
        for (p = 0; p < K; p++) {
            double effect = 0.05 * normal01(&st);
            for (j = 0; j < N; j++) {
                x[p * N + j] = exp(effect + 0.01 * normal01(&st));
                pass[p * N + j] = p;
            }
        }
        assert_int_equal(stats_summarize_passes(x, pass, K * N, &s, NULL), BE_OK);
        assert_int_equal(stats_summarize(x, K * N, &w, NULL), BE_OK);
        covered += s.ci_lo <= 1.0 && 1.0 <= s.ci_hi;
        within += w.ci_lo <= 1.0 && 1.0 <= w.ci_hi;
        if (trial > 0)
            other += last.ci_lo <= s.median && s.median <= last.ci_hi;
        last = s;
    }
    assert_true(covered >= TRIALS * 0.93 && covered <= TRIALS * 0.99);
    assert_true(other >= (TRIALS - 1) * 0.85);
    assert_true(within < TRIALS * 0.5);
}

/* The lower end lo of s's interval from its passes alone, widened by a
 * run-to-run standard deviation sd (results_run_var): the two half-widths
 * in quadrature, the run's at 1.96·sd. */
static double run_widened(const stats_summary *s, double lo, double sd)
{
    const double h = log(s->median / lo);
    return s->median * exp(-sqrt(h * h + 1.96 * 1.96 * sd * sd));
}

/* A run on the quiet machine could be faster by the share others took:
 * the lower end moves down by it, from the passes the point was measured
 * in only. */
/* Issue 45: the run-to-run band learned from earlier runs
 * (results_band.c).  Six points of "cpu" in three runs, each point's
 * passes 1.1 apart (its variance within its run: (log 1.1)²/2 over 2
 * passes), the runs' levels −0.1, 0 and +0.1 apart in log (the variance
 * over the runs 0.01 on 2 degrees of freedom), but for one point that
 * stalled in one run: the median leaves it out. */
static results *band_run(int j, int stall)
{
    static const double level[3] = {-0.1, 0.0, 0.1};
    results *r = results_new();
    device_info d;
    rs_point p;
    step_times t[6] = {{0}};
    int i, k;
    assert_non_null(r);
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    snprintf(d.type, sizeof d.type, "CPU");
    assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
    for (i = 0; i < 6; i++) {
        const double a = 1e-3 * (i + 1) * exp(level[j] + (stall && i == 5 && j == 0 ? 2.0 : 0.0));
        memset(&p, 0, sizeof p);
        snprintf(p.device, sizeof p.device, "cpu");
        p.layers = 4;
        p.hidden = 16 << i;
        p.batch = 32;
        p.flops_per_layer = 1.0;
        for (k = 0; k < 6; k++) {
            t[k].wall = t[k].total = k < 3 ? a : a * 1.1;
            t[k].kernel = t[k].h2d = t[k].d2h = -1.0;
        }
        assert_int_equal(results_add_samples(&p, t, 3, 1, NULL), BE_OK);
        assert_int_equal(results_add_samples(&p, t + 3, 3, 2, NULL), BE_OK);
        assert_int_equal(results_add_point(r, &p, NULL), BE_OK);
        free(p.samples);
        free(p.pass);
    }
    return r;
}

static void test_learn_bands(void **state)
{
    results *run[3], *cur = band_run(0, 0), *back = NULL;
    const results *runs[3];
    const double within = log(1.1) * log(1.1) / 4.0, share = pow(8.0 / 9.0, 3.0);
    const double learned = 0.01 / share - within;
    const double sd = sqrt((2.0 * RESULTS_RUN_SD_HOST * RESULTS_RUN_SD_HOST + 2.0 * learned) / 4.0);
    char path[512];
    err e;
    int j;
    (void)state;
    for (j = 0; j < 3; j++)
        runs[j] = run[j] = band_run(j, 1);
    /* one earlier run says nothing: the defaults */
    assert_int_equal(results_learn_bands(cur, runs, 1, &e), BE_OK);
    assert_int_equal(cur->devices[0].run_sd_runs, 0);
    assert_close(results_run_var(cur, "cpu", FIT_RESIDENT),
                 RESULTS_RUN_SD_HOST * RESULTS_RUN_SD_HOST);
    assert_int_equal(results_learn_bands(cur, runs, 3, &e), BE_OK);
    assert_int_equal(cur->devices[0].run_sd_runs, 3);
    assert_close(cur->devices[0].run_sd[FIT_RESIDENT], sd);
    assert_true(cur->devices[0].run_sd[FIT_TRANSFER] == -1.0);
    assert_true(cur->devices[0].run_sd[FIT_WHOST] == -1.0);
    assert_close(results_run_var(cur, "cpu", FIT_RESIDENT), sd * sd);
    /* a view not learned keeps its default */
    assert_close(results_run_var(cur, "cpu", FIT_TRANSFER),
                 RESULTS_RUN_SD_HOST * RESULTS_RUN_SD_HOST);
    /* the file keeps what was learned (to 4 decimals), and the intervals
     * a refit makes of it are the run's */
    snprintf(path, sizeof path, "%s/band.xml", tmpdir);
    back = results_new();
    assert_non_null(back);
    fill_fixture(back); /* a provenance that loads */
    cur->prov = back->prov;
    results_free(back);
    back = NULL;
    cur->partial = 0;
    if (results_summarize_all(cur, &e) != BE_OK || results_save(cur, NULL, path, &e) != BE_OK ||
        results_load(path, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(back->devices[0].run_sd_runs, 3);
    assert_true(fabs(back->devices[0].run_sd[FIT_RESIDENT] - sd) < 5e-5);
    assert_true(back->devices[0].run_sd[FIT_TRANSFER] == -1.0);
    results_free(back);
    for (j = 0; j < 3; j++)
        results_free(run[j]);
    results_free(cur);
}

static void test_contention(void **state)
{
    results *r = results_new();
    rs_pass ps;
    rs_point p;
    step_times t[12] = {{0}};
    stats_summary plain;
    double lo;
    int i;
    (void)state;
    assert_non_null(r);
    memset(&plain, 0, sizeof plain);
    plain.ci_lo = 2.0;
    plain.ci_hi = 3.0;
    stats_contention(&plain, 0.0);
    assert_true(plain.ci_lo == 2.0 && plain.contention == 0.0);
    stats_contention(&plain, 0.25);
    assert_true(plain.ci_lo == 1.5 && plain.ci_hi == 3.0 && plain.contention == 0.25);
    plain.ci_lo = 2.0;
    stats_contention(&plain, 1.0);
    assert_close(plain.ci_lo, 0.2);
    assert_true(plain.contention == 0.9);

    memset(&ps, 0, sizeof ps);
    for (i = 1; i <= 3; i++) {
        ps.index = i;
        ps.state.has_cpu = 1;
        ps.state.others_cpu = 0.1 * i; /* pass 3, with 30%, is not the point's */
        ps.state.steal = i == 2 ? 0.05 : 0.0;
        assert_int_equal(results_add_pass(r, &ps, NULL), BE_OK);
    }
    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "cpu");
    p.layers = 1;
    p.hidden = p.batch = 8;
    p.flops_per_layer = 1.0;
    for (i = 0; i < 12; i++) {
        t[i].wall = t[i].total = 1.0 + 0.01 * (i % 6);
        t[i].kernel = t[i].h2d = t[i].d2h = -1.0;
    }
    assert_int_equal(results_add_samples(&p, t, 6, 1, NULL), BE_OK);
    assert_int_equal(results_add_samples(&p, t + 6, 6, 2, NULL), BE_OK);
    assert_int_equal(results_summarize(&p, NULL), BE_OK);
    lo = p.resident.ci_lo;
    assert_true(p.resident.contention == 0.0);
    assert_int_equal(results_summarize_in(r, &p, NULL), BE_OK);
    assert_close(p.resident.contention, 0.25);
    assert_close(p.resident.ci_lo, run_widened(&p.resident, lo, RESULTS_RUN_SD_HOST) * 0.75);
    /* issue 41: only what computes on the busy host's CPUs: the CPU, an
     * OpenCL device of type CPU (PoCL); a GPU runs on its own silicon and
     * its interval stays as measured */
    {
        static const char *const type[] = {"GPU", "CPU"};
        device_info d;
        int k;
        for (k = 0; k < 2; k++) {
            memset(&d, 0, sizeof d);
            snprintf(d.id, sizeof d.id, "cl:0.%d", k);
            snprintf(d.kind, sizeof d.kind, "opencl");
            snprintf(d.type, sizeof d.type, "%s", type[k]);
            assert_int_equal(results_add_device(r, &d, NULL), BE_OK);
            snprintf(p.device, sizeof p.device, "cl:0.%d", k);
            assert_int_equal(results_summarize_in(r, &p, NULL), BE_OK);
            assert_true(p.resident.contention == (k ? 0.25 : 0.0));
            assert_close(p.resident.ci_lo,
                         k ? run_widened(&p.resident, lo, RESULTS_RUN_SD_HOST) * 0.75
                           : run_widened(&p.resident, lo, RESULTS_RUN_SD_DEVICE));
        }
    }
    free(p.samples);
    free(p.pass);
    results_free(r);
}

/* Issue 41: a ratio in prose is never "0.00×": a device a thousand times
 * slower is "1,000× slower", with its interval said the same way. */
static void test_fmt_ratio(void **state)
{
    char b[160];
    (void)state;
    fmt_times(b, sizeof b, 32.164);
    assert_string_equal(b, "32.2\xc3\x97");
    fmt_times(b, sizeof b, 16328.8);
    assert_string_equal(b, "16,300\xc3\x97");
    fmt_times(b, sizeof b, 1234567.0);
    assert_string_equal(b, "1,230,000\xc3\x97");
    fmt_times(b, sizeof b, 0.001);
    assert_string_equal(b, "0.001\xc3\x97");
    fmt_times(b, sizeof b, 0.0);
    assert_string_equal(b, "no factor");
    fmt_ratio(b, sizeof b, 0.001);
    assert_string_equal(b, "1,000\xc3\x97 slower");
    fmt_ratio(b, sizeof b, 2.5);
    assert_string_equal(b, "2.50\xc3\x97");
    fmt_ratio(b, sizeof b, 0.5);
    assert_string_equal(b, "2.00\xc3\x97 slower");
    fmt_ratio_ci(b, sizeof b, 32.16, 27.84, 37.16, 0);
    assert_string_equal(b, "32.2\xc3\x97 (95% CI 27.8\xe2\x80\x93"
                           "37.2)");
    fmt_times(b, sizeof b, 99.96);
    assert_string_equal(b, "100\xc3\x97");
    fmt_times(b, sizeof b, 9.996);
    assert_string_equal(b, "10.0\xc3\x97");
    fmt_ratio_ci(b, sizeof b, 0.001, 0.0008, 0.00125, 0);
    assert_string_equal(b, "1,000\xc3\x97 slower (95% CI 800\xe2\x80\x93"
                           "1,250\xc3\x97 slower)");
    fmt_ratio_ci(b, sizeof b, 1.0 / 1.84, 1.0 / 15.57, 4.6, 1);
    assert_string_equal(b, "1.84\xc3\x97 slower (95% CI 15.6\xc3\x97 slower to 4.60\xc3\x97 "
                           "faster, uninformative)");
    /* an interval that says nothing, its ends without exponents */
    fmt_time(b, sizeof b, 6.3e-13);
    assert_string_equal(b, "0.00063 ns");
    fmt_time(b, sizeof b, 1959183.4);
    assert_string_equal(b, "1,959,183 s");
    fmt_time(b, sizeof b, 3.32e-8);
    assert_string_equal(b, "33.2 ns");
    fmt_time(b, sizeof b, 513.0);
    assert_string_equal(b, "513 s");
    fmt_time(b, sizeof b, 999.6e-6); /* the H100 run's page had "1e+03 µs" */
    assert_string_equal(b, "1 ms");
    fmt_time(b, sizeof b, 0.9996);
    assert_string_equal(b, "1 s");
    fmt_time(b, sizeof b, 999.4e-6);
    assert_string_equal(b, "999 \xc2\xb5s");
    fmt_ratio_ci(b, sizeof b, 0.5, 0.0, 1.0, 1);
    assert_string_equal(b, "2.00\xc3\x97 slower (95% CI unbounded, uninformative)");
}

static void test_machstate_parse(void **state)
{
    machstate_ticks a, b;
    machstate m;
    unsigned long long self;
    (void)state;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    assert_int_equal(machstate_parse_stat("cpu  100 5 50 1000 20 1 2 3 0 0\n", &a), 1);
    assert_true(a.total == 1181 && a.busy == 158 && a.steal == 3);
    assert_int_equal(machstate_parse_stat("cpu0 1 2 3 4\n", &a), 0);
    assert_int_equal(machstate_parse_stat("intr 1 2\n", &a), 0);
    /* a command name with spaces and parentheses; utime 70, stime 30 */
    assert_int_equal(machstate_parse_self("42 (a) b (c) R 1 2 3 4 5 6 7 8 9 10 70 30 0 0 20 0 "
                                          "3 0 1 2 3\n",
                                          &self),
                     1);
    assert_true(self == 100);
    assert_int_equal(machstate_parse_self("42 (x) R 1 2\n", &self), 0);
    assert_int_equal(machstate_parse_self("no parenthesis", &self), 0);
    /* over 1000 ticks of the machine: 600 busy, 450 of them ours, 20 stolen */
    a.ok = b.ok = 1;
    a.total = 5000;
    a.busy = 2000;
    a.steal = 10;
    a.self = 300;
    b.total = 6000;
    b.busy = 2600;
    b.steal = 30;
    b.self = 750;
    machstate_shares(&a, &b, &m);
    assert_int_equal(m.has_cpu, 1);
    assert_true(fabs(m.self_cpu - 0.45) < 1e-12);
    assert_true(fabs(m.others_cpu - 0.15) < 1e-12);
    assert_true(fabs(m.steal - 0.02) < 1e-12);
    /* ours ahead of the machine's count by a tick: others 0, not negative */
    b.self = 2700 - 2000 + 300;
    machstate_shares(&a, &b, &m);
    assert_true(m.others_cpu == 0.0);
    b.total = a.total;
    machstate_shares(&a, &b, &m);
    assert_int_equal(m.has_cpu, 0);
    b.ok = 0;
    b.total = 6000;
    machstate_shares(&a, &b, &m);
    assert_int_equal(m.has_cpu, 0);
}

/* On this machine: whatever is exposed reads as sane values. */
static void test_machstate_live(void **state)
{
    machstate_mark mark;
    machstate m;
    volatile double sink = 0.0;
    int i;
    (void)state;
    machstate_begin(&mark, NULL, 0);
    for (i = 0; i < 20000000; i++)
        sink += (double)i;
    machstate_end(&mark, &m);
    if (m.has_cpu) {
        assert_true(m.self_cpu >= 0.0 && m.self_cpu <= 1.0);
        assert_true(m.others_cpu >= 0.0 && m.others_cpu <= 1.0);
        assert_true(m.steal >= 0.0 && m.steal <= 1.0);
    }
    if (m.has_loadavg)
        assert_true(m.loadavg >= 0.0);
    if (m.has_freq)
        assert_true(m.freq_mhz > 0.0);
    (void)sink;
}

/* A process named to machstate_begin (a framework's adapter) is counted
 * as ours, not as the others' load: over one interval, a child that
 * spends 0.3 s of CPU adds to self_cpu and leaves others_cpu, against
 * the same interval read without it. */
static void test_machstate_pids(void **state)
{
    machstate_mark with, without;
    machstate a, b;
    int go[2], done[2];
    char c = 0;
    pid_t pid;
    (void)state;
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(done), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct timespec t;
        volatile double sink = 0.0;
        if (read(go[0], &c, 1) != 1)
            _exit(1);
        do {
            int i;
            for (i = 0; i < 100000; i++)
                sink += (double)i;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        } while ((double)t.tv_sec + (double)t.tv_nsec * 1e-9 < 0.3);
        if (write(done[1], &c, 1) != 1)
            _exit(1);
        pause(); /* alive at the interval's end, as an adapter is */
        _exit(0);
    }
    machstate_begin(&with, (const int[]){(int)pid}, 1);
    machstate_begin(&without, NULL, 0);
    assert_int_equal(write(go[1], &c, 1), 1);
    assert_int_equal(read(done[0], &c, 1), 1);
    machstate_end(&with, &a);
    machstate_end(&without, &b);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(go[0]);
    close(go[1]);
    close(done[0]);
    close(done[1]);
    if (!a.has_cpu || !b.has_cpu)
        skip(); /* no /proc/stat */
    assert_true(a.self_cpu > b.self_cpu + 0.02);
    assert_true(a.others_cpu < b.others_cpu - 0.02);
}

/* Samples keep their pass, passes their machine state, the OpenBLAS
 * threads their source, through a save and a load; a file of 0.1.0 (no
 * passes) still loads, its samples all of pass 0. */
static void test_results_passes_round_trip(void **state)
{
    results *a = results_new(), *b = NULL;
    rs_pass ps;
    rs_point *p;
    step_times t[4] = {{0}};
    char path[512];
    err e;
    int i;
    (void)state;
    assert_non_null(a);
    fill_fixture(a);
    snprintf(a->prov.blas_threads_from, sizeof a->prov.blas_threads_from, "OPENBLAS_NUM_THREADS");
    memset(&ps, 0, sizeof ps);
    ps.index = 1;
    snprintf(ps.started, sizeof ps.started, "2026-11-22T00:00:01Z");
    ps.seconds = 31.25;
    ps.visits = 70;
    ps.state.has_cpu = 1;
    ps.state.self_cpu = 0.9;
    ps.state.others_cpu = 0.38;
    ps.state.steal = 0.0;
    ps.state.has_loadavg = 1;
    ps.state.loadavg = 2.5;
    assert_int_equal(results_add_pass(a, &ps, NULL), BE_OK);
    ps.index = 2;
    memset(&ps.state, 0, sizeof ps.state);
    ps.state.has_freq = 1;
    ps.state.freq_mhz = 2450.5;
    ps.state.has_temp = 1;
    ps.state.temp_c = -3.5;
    assert_int_equal(results_add_pass(a, &ps, NULL), BE_OK);
    /* the first point: its 6 samples are pass 0, then 4 more of passes 1, 2 */
    p = &a->points[0];
    for (i = 0; i < 4; i++) {
        t[i] = p->samples[i];
        t[i].wall *= 1.5;
    }
    assert_int_equal(results_add_samples(p, t, 2, 1, NULL), BE_OK);
    assert_int_equal(results_add_samples(p, t + 2, 2, 2, NULL), BE_OK);
    assert_int_equal(p->nsamples, 10);
    assert_true(p->pass[0] == 0 && p->pass[5] == 0 && p->pass[6] == 1 && p->pass[9] == 2);
    assert_int_equal(results_summarize_in(a, p, NULL), BE_OK);
    assert_int_equal(p->resident.passes, 3);
    /* pass 1 had others at 38% of the CPU */
    assert_true(p->resident.contention == 0.38);
    snprintf(path, sizeof path, "%s/passes.xml", tmpdir);
    assert_int_equal(results_save(a, NULL, path, &e), BE_OK);
    if (results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.blas_threads_from, "OPENBLAS_NUM_THREADS");
    assert_int_equal(b->npasses, 2);
    for (i = 0; i < 2; i++) {
        const rs_pass *x = &a->passes[i], *y = &b->passes[i];
        assert_int_equal(x->index, y->index);
        assert_string_equal(x->started, y->started);
        assert_true(x->seconds == y->seconds && x->visits == y->visits);
        assert_int_equal(x->state.has_cpu, y->state.has_cpu);
        assert_true(x->state.self_cpu == y->state.self_cpu &&
                    x->state.others_cpu == y->state.others_cpu && x->state.steal == y->state.steal);
        assert_int_equal(x->state.has_loadavg, y->state.has_loadavg);
        assert_true(x->state.loadavg == y->state.loadavg);
        assert_int_equal(x->state.has_freq, y->state.has_freq);
        assert_true(x->state.freq_mhz == y->state.freq_mhz);
        assert_int_equal(x->state.has_temp, y->state.has_temp);
        assert_true(x->state.temp_c == y->state.temp_c);
    }
    assert_int_equal(b->points[0].nsamples, 10);
    assert_non_null(b->points[0].pass);
    for (i = 0; i < 10; i++)
        assert_int_equal(b->points[0].pass[i], a->points[0].pass[i]);
    assert_summary_equal(&a->points[0].resident, &b->points[0].resident);
    assert_int_equal(b->points[0].resident.passes, 3);
    assert_true(b->points[0].resident.contention == 0.38);
    assert_null(b->points[1].pass);
    results_free(b);
    results_free(a);

    /* 0.1.0: the fixture without any of it */
    a = results_new();
    fill_fixture(a);
    assert_int_equal(results_save(a, NULL, path, &e), BE_OK);
    results_free(a);
    if (results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(b->npasses, 0);
    assert_null(b->points[0].pass);
    assert_int_equal(b->points[0].resident.passes, 0);
    assert_string_equal(b->prov.blas_threads_from, "");
    results_free(b);
    expect_rejected("<s wall=\"", "<s pass=\"0\" wall=\"", "pass");
}

/* `breakeven CMD -h` for every command: that command's lines and options
 * only; -h before a command gives all of it. */
static void test_command_help(void **state)
{
    static const char *const cmds[] = {"all",   "run",     "report", "compare",
                                       "refit", "devices", "tune"};
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cmds / sizeof *cmds; k++) {
        char *argv[] = {"breakeven", (char *)cmds[k], "-h", NULL}, *text = NULL, want[64];
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        cli c;
        err e;
        assert_int_equal(cli_parse(3, argv, &c, &e), BE_OK);
        assert_int_equal(c.cmd, CLI_HELP);
        assert_int_equal(c.help_cmd, (int)k);
        assert_non_null(f);
        cli_command_usage(f, (cli_command)k);
        fclose(f);
        snprintf(want, sizeof want, "usage: breakeven %s ", cmds[k]);
        assert_non_null(strstr(text, want));
        snprintf(want, sizeof want, "\n  %s ", cmds[k]);
        assert_non_null(strstr(text, want));
        /* the options of the command, and no other's */
        assert_true(!strstr(text, "--hidden") == !(k <= 1));
        assert_true(!strstr(text, "--format") == !(k >= 1 && k <= 3));
        assert_true(!strstr(text, "--save") == !(k == 6));
        assert_non_null(strstr(text, "--help"));
        free(text);
    }
    {
        char *argv[] = {"breakeven", "--help", "run", NULL};
        cli c;
        err e;
        assert_int_equal(cli_parse(3, argv, &c, &e), BE_OK);
        assert_int_equal(c.cmd, CLI_HELP);
        assert_int_equal(c.help_cmd, -1);
    }
}

/* The environment that changes results: only the libraries' variables,
 * sorted, quoted where a shell needs it; and it survives the results file. */
static void test_host_environment(void **state)
{
    char *const env[] = {"PATH=/usr/bin",
                         "POCL_DEVICES=pthread",
                         "OPENBLAS_NUM_THREADS=4",
                         "HOME=/root",
                         "OMP_PROC_BIND=close",
                         "CUDA_VISIBLE_DEVICES=0,1",
                         "OPENBLAS_CORETYPE=it's odd",
                         "OMPX=1",
                         NULL};
    char buf[512], path[300];
    results *r = results_new(), *b = NULL;
    err e;
    (void)state;
    host_env_of(env, buf, sizeof buf);
    assert_string_equal(buf, "CUDA_VISIBLE_DEVICES=0,1 OMP_PROC_BIND=close "
                             "OPENBLAS_CORETYPE='it'\\''s odd' OPENBLAS_NUM_THREADS=4 "
                             "POCL_DEVICES=pthread");
    host_env_of(env, buf, 20); /* a word that does not fit is left out, never cut */
    assert_string_equal(buf, "");
    assert_non_null(r);
    fill_fixture(r);
    snprintf(r->prov.env, sizeof r->prov.env, "%s", "OPENBLAS_CORETYPE=Haswell");
    snprintf(path, sizeof path, "/tmp/be-env-results-%d.xml", (int)getpid());
    if (results_save(r, NULL, path, &e) != BE_OK || results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.env, "OPENBLAS_CORETYPE=Haswell");
    unlink(path);
    results_free(r);
    results_free(b);
}

/* BREAKEVEN_MACHINE: a label of 1 to 63 of [A-Za-z0-9._-] or none; any
 * other value is refused in one line naming the variable; a label survives
 * the results file, a file without one loads with none, and the schema
 * refuses a label the variable would have refused. */
static void test_host_label(void **state)
{
    char buf[HOST_LABEL_MAX], path[300], long_[80], *text, *at;
    results *r = results_new(), *b = NULL;
    FILE *f;
    err e;
    (void)state;
    assert_int_equal(host_label(NULL, buf, sizeof buf, &e), BE_OK);
    assert_string_equal(buf, "");
    assert_int_equal(host_label("", buf, sizeof buf, &e), BE_OK);
    assert_string_equal(buf, "");
    assert_int_equal(host_label("gpu-h100_80GB.v2", buf, sizeof buf, &e), BE_OK);
    assert_string_equal(buf, "gpu-h100_80GB.v2");
    assert_int_equal(host_label("a b", buf, sizeof buf, &e), BE_EUSAGE);
    assert_string_equal(e.msg, "BREAKEVEN_MACHINE: \"a b\" is not a machine's label (1 to 63 of "
                               "A-Z a-z 0-9 . _ -)");
    assert_string_equal(buf, "");
    assert_int_equal(host_label("x/../y", buf, sizeof buf, &e), BE_EUSAGE);
    assert_int_equal(host_label("<b>", buf, sizeof buf, &e), BE_EUSAGE);
    memset(long_, 'm', 63);
    long_[63] = '\0';
    assert_int_equal(host_label(long_, buf, sizeof buf, &e), BE_OK);
    long_[63] = 'm';
    long_[64] = '\0';
    assert_int_equal(host_label(long_, buf, sizeof buf, &e), BE_EUSAGE);
    assert_non_null(r);
    fill_fixture(r);
    snprintf(path, sizeof path, "/tmp/be-label-results-%d.xml", (int)getpid());
    if (results_save(r, NULL, path, &e) != BE_OK || results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.label, "");
    results_free(b);
    snprintf(r->prov.label, sizeof r->prov.label, "%s", "gpu-h100");
    if (results_save(r, NULL, path, &e) != BE_OK || results_load(path, &b, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(b->prov.label, "gpu-h100");
    results_free(b);
    b = NULL;
    /* the same file, its label one the variable refuses */
    assert_non_null(f = fopen(path, "r+"));
    text = calloc(1, 1 << 20);
    assert_non_null(text);
    assert_true(fread(text, 1, (1 << 20) - 1, f) > 0);
    assert_non_null(at = strstr(text, "label=\"gpu-h100\""));
    memcpy(at, "label=\"gpu h100\"", 16);
    rewind(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
    free(text);
    assert_int_not_equal(results_load(path, &b, &e), BE_OK);
    assert_null(b);
    assert_non_null(strstr(e.msg, "label"));
    unlink(path);
    results_free(r);
}

/* The ISA from a cpuinfo flags list, and the core OpenBLAS should have
 * picked: only when it fell back to an older core's kernels. */
static void test_blas_core_advice(void **state)
{
    (void)state;
    assert_string_equal(host_isa_of(" fpu sse2 avx avx2 fma avx512f avx512bw avx512vl\n"),
                        "avx512");
    assert_string_equal(host_isa_of("fpu sse2 avx avx2 fma avx512f"), "avx2");
    assert_string_equal(host_isa_of("fpu sse2 avx avx2"), "avx");
    assert_string_equal(host_isa_of("fpu sse2 avx512fx"), "sse2");
    assert_string_equal(host_isa_of(""), "unknown");
    assert_string_equal(cpu_blas_better_core("Prescott", "avx512", "GenuineIntel"), "SkylakeX");
    assert_string_equal(cpu_blas_better_core("Nehalem", "avx2", "GenuineIntel"), "Haswell");
    assert_string_equal(cpu_blas_better_core("Prescott", "avx2", "AuthenticAMD"), "Zen");
    assert_null(cpu_blas_better_core("Haswell", "avx512", "GenuineIntel"));
    assert_null(cpu_blas_better_core("SkylakeX", "avx512", "GenuineIntel"));
    assert_null(cpu_blas_better_core("Prescott", "sse2", "GenuineIntel"));
}

static void test_cli_passes_and_threads(void **state)
{
    cli c;
    err e;
    (void)state;
    assert_int_equal(parse("breakeven run", &c, &e), BE_OK);
    assert_int_equal(c.plan.passes, 3);
    assert_int_equal(parse("breakeven run --quick", &c, &e), BE_OK);
    assert_int_equal(c.plan.passes, 3);
    assert_int_equal(parse("breakeven run --passes 5", &c, &e), BE_OK);
    assert_int_equal(c.plan.passes, 5);
    assert_int_equal(parse("breakeven run --passes 0", &c, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "--passes"));
    assert_int_equal(parse("breakeven run --passes 21", &c, &e), BE_EUSAGE);
    assert_int_equal(parse("breakeven run --passes x", &c, &e), BE_EUSAGE);

    memset(&c, 0, sizeof c);
    assert_int_equal(cli_threads(&c, NULL, 6, &e), BE_OK);
    assert_int_equal(c.threads, 6);
    assert_string_equal(c.threads_from, "cores");
    memset(&c, 0, sizeof c);
    assert_int_equal(cli_threads(&c, "", 6, &e), BE_OK);
    assert_string_equal(c.threads_from, "cores");
    memset(&c, 0, sizeof c);
    assert_int_equal(cli_threads(&c, "3", 6, &e), BE_OK);
    assert_int_equal(c.threads, 3);
    assert_string_equal(c.threads_from, "OPENBLAS_NUM_THREADS");
    memset(&c, 0, sizeof c);
    c.threads = 2;
    assert_int_equal(cli_threads(&c, "3", 6, &e), BE_OK);
    assert_int_equal(c.threads, 2);
    assert_string_equal(c.threads_from, "--threads");
    memset(&c, 0, sizeof c);
    assert_int_equal(cli_threads(&c, "two", 6, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "OPENBLAS_NUM_THREADS"));
    assert_int_equal(cli_threads(&c, "0", 6, &e), BE_EUSAGE);
}

/* The network after one CPU step from w's initial parameters. */
static void cpu_state(const workload *w, net_state *s)
{
    device dev;
    step_times t;
    void *run;
    err e;
    assert_int_equal(cpu_discover(&dev, 1, &e), BE_OK);
    assert_int_equal(dev.ops->prepare(dev.handle, w, &run, &e), BE_OK);
    assert_int_equal(dev.ops->step(run, &t, &e), BE_OK);
    assert_int_equal(verify_state_alloc(w, s, &e), BE_OK);
    assert_int_equal(dev.ops->state(run, s, &e), BE_OK);
    dev.ops->release(run);
}

static int verifies(const workload *w, const net_state *s)
{
    verify_result vr;
    assert_int_equal(verify_check(w, s, &vr, NULL), BE_OK);
    return vr.ok;
}

/* A fault in one output column, or one row, of any layer is always caught
 * (96 random entries alone would miss most of the 200 columns). */
static void test_verify_every_row_and_column(void **state)
{
    enum { H = 200, B = 24, L = 3 };
    workload_data d;
    net_state s;
    verify_result vr;
    int l, i, j;
    (void)state;
    assert_int_equal(workload_make(&d, WL_TRAINING, L, H, B, 5, NULL), BE_OK);
    cpu_state(&d.w, &s);
    assert_int_equal(verify_check(&d.w, &s, &vr, NULL), BE_OK);
    assert_int_equal(vr.ok, 1);
    /* per layer: a diagonal of y and dx (max(B, H) each), of W and all of
     * b (H each), and 96 random entries of y, dx and W */
    assert_true(vr.checked == (long)L * (2 * H + 2 * H + 3 * 96));
    for (l = 0; l < L; l++) {
        for (j = 0; j < H; j++) {
            float keep[B];
            for (i = 0; i < B; i++) {
                keep[i] = s.act[l + 1][i * H + j];
                s.act[l + 1][i * H + j] += 0.05f;
            }
            if (verifies(&d.w, &s))
                fail_msg("a fault in column %d of layer %d's output passed", j, l);
            for (i = 0; i < B; i++)
                s.act[l + 1][i * H + j] = keep[i];
            for (i = 0; i < B; i++) {
                keep[i] = s.dx[l][i * H + j];
                s.dx[l][i * H + j] += 0.05f;
            }
            if (verifies(&d.w, &s))
                fail_msg("a fault in column %d of layer %d's dx passed", j, l);
            for (i = 0; i < B; i++)
                s.dx[l][i * H + j] = keep[i];
            {
                float wcol[H], b0 = s.b[l][j];
                for (i = 0; i < H; i++) {
                    wcol[i] = s.w[l][i * H + j];
                    s.w[l][i * H + j] += 0.05f;
                }
                if (verifies(&d.w, &s))
                    fail_msg("a fault in column %d of layer %d's W passed", j, l);
                for (i = 0; i < H; i++)
                    s.w[l][i * H + j] = wcol[i];
                s.b[l][j] += 0.05f;
                if (verifies(&d.w, &s))
                    fail_msg("a fault in b[%d] of layer %d passed", j, l);
                s.b[l][j] = b0;
            }
        }
        for (i = 0; i < B; i++) {
            float keep[H];
            for (j = 0; j < H; j++) {
                keep[j] = s.act[l + 1][i * H + j];
                s.act[l + 1][i * H + j] += 0.05f;
            }
            if (verifies(&d.w, &s))
                fail_msg("a fault in row %d of layer %d's output passed", i, l);
            memcpy(&s.act[l + 1][i * H], keep, sizeof keep);
        }
        for (i = 0; i < H; i++) {
            float keep[H];
            memcpy(keep, &s.w[l][i * H], sizeof keep);
            for (j = 0; j < H; j++)
                s.w[l][i * H + j] += 0.05f;
            if (verifies(&d.w, &s))
                fail_msg("a fault in row %d of layer %d's W passed", i, l);
            memcpy(&s.w[l][i * H], keep, sizeof keep);
        }
    }
    assert_int_equal(verifies(&d.w, &s), 1);
    verify_state_free(&d.w, &s);
    workload_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_environment),
        cmocka_unit_test(test_host_label),
        cmocka_unit_test(test_command_help),
        cmocka_unit_test(test_list_forms),
        cmocka_unit_test(test_list_errors),
        cmocka_unit_test(test_flops),
        cmocka_unit_test(test_device_peak),
        cmocka_unit_test(test_stats_basic),
        cmocka_unit_test(test_stats_ci_coverage),
        cmocka_unit_test(test_stats_drift_and_convergence),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_changes_step_not_outlier),
        cmocka_unit_test(test_changes_two_steps),
        cmocka_unit_test(test_changes_floors),
        cmocka_unit_test(test_changes_real_runs),
        cmocka_unit_test(test_changes_known),
        cmocka_unit_test(test_changes_manual),
        cmocka_unit_test(test_results_round_trip),
        cmocka_unit_test(test_results_format),
        cmocka_unit_test(test_summary_two_states),
        cmocka_unit_test(test_run_vague),
        cmocka_unit_test(test_paired_log_ratio),
        cmocka_unit_test(test_compare_cache_apart),
        cmocka_unit_test(test_compare_pair),
        cmocka_unit_test(test_compare_lost),
        cmocka_unit_test(test_compare_one_pass),
        cmocka_unit_test(test_compare_partial_pass),
        cmocka_unit_test(test_compare_detectable),
        cmocka_unit_test(test_compare_pass_words),
        cmocka_unit_test(test_compare_gpu_band),
        cmocka_unit_test(test_provenance_env),
        cmocka_unit_test(test_provenance_kernels),
        cmocka_unit_test(test_provenance_base),
        cmocka_unit_test(test_compare_quick_tenth),
        cmocka_unit_test(test_cachehop),
        cmocka_unit_test(test_results_rejects),
        cmocka_unit_test(test_results_not_ours),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_plan_memory),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_machine_print),
        cmocka_unit_test(test_cli_tokens),
        cmocka_unit_test(test_cli_many_runs),
        cmocka_unit_test(test_cpu_correct),
        cmocka_unit_test(test_verify_catches),
        cmocka_unit_test(test_seeded_inputs),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_compare_replicates),
        cmocka_unit_test(test_compare_point_and_load),
        cmocka_unit_test(test_compare_band_and_busy),
        cmocka_unit_test(test_pick_selectors),
        cmocka_unit_test(test_fsx_mkdirs_nested),
        cmocka_unit_test(test_fmt_numbers),
        cmocka_unit_test(test_reproduce),
        cmocka_unit_test(test_fmt_times_and_dates),
        cmocka_unit_test(test_fmt_columns),
        cmocka_unit_test(test_query_points),
        cmocka_unit_test(test_query_base_for),
        cmocka_unit_test(test_query_fit),
        cmocka_unit_test(test_query_uninformative),
        cmocka_unit_test(test_fmt_ratio),
        cmocka_unit_test(test_passes_interval_between),
        cmocka_unit_test(test_prior_fit),
        cmocka_unit_test(test_passes_prior),
        cmocka_unit_test(test_passes_interval_within_floor),
        cmocka_unit_test(test_passes_interleaved_and_single),
        cmocka_unit_test(test_passes_drift_within),
        cmocka_unit_test(test_t975),
        cmocka_unit_test(test_passes_coverage_simulated),
        cmocka_unit_test(test_learn_bands),
        cmocka_unit_test(test_contention),
        cmocka_unit_test(test_machstate_parse),
        cmocka_unit_test(test_machstate_live),
        cmocka_unit_test(test_machstate_pids),
        cmocka_unit_test(test_results_passes_round_trip),
        cmocka_unit_test(test_cli_passes_and_threads),
        cmocka_unit_test(test_blas_core_advice),
        cmocka_unit_test(test_verify_every_row_and_column),
    };
    return cmocka_run_group_tests_name("unit", tests, make_tmpdir, remove_tmpdir);
}
