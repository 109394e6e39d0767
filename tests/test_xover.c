/*
 * test_xover.c — the per-hidden crossover estimator (xover.h): the rule on
 * exact inputs, the interval's ends, its coverage of a known truth, and the
 * refusal of bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xover.h"

static xover_cell cell(double batch, double base, double other, double sd)
{
    xover_cell c;
    memset(&c, 0, sizeof c);
    c.batch = batch;
    c.base = base;
    c.other = other;
    c.base_sd = sd;
    c.other_sd = sd;
    return c;
}

/* Times 1 and 2 at batch 16, 2 and 1 at batch 64: the difference other −
 * base goes from +1 to −1, linearly in the batch, so they meet at 40; with
 * no uncertainty the interval is that point. */
static void test_interpolates_the_difference(void **state)
{
    xover_cell c[2];
    xover_est x;
    err e;
    (void)state;
    c[0] = cell(64, 2.0, 1.0, 0.0); /* given out of order on purpose */
    c[1] = cell(16, 1.0, 2.0, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_IN_RANGE);
    assert_true(fabs(x.batch - 40.0) < 1e-9);
    assert_true(fabs(x.lo - 40.0) < 1e-9 && fabs(x.hi - 40.0) < 1e-9);
    assert_int_equal(x.lo_open, 0);
    assert_int_equal(x.hi_open, 0);
    assert_true(x.p_never == 0.0 && x.p_always == 0.0);
}

/* Two latency + throughput laws, t = a + b·batch, exactly: the line through
 * the bracketing batches and their neighbours meets zero where the laws
 * meet, whatever the batches. */
static void test_exact_for_two_laws(void **state)
{
    static const double batches[] = {16, 32, 64, 128, 256, 512, 1024};
    xover_cell c[7];
    xover_est x;
    err e;
    int i;
    (void)state;
    /* base 1 + 0.02·b, other 4 + 0.005·b: equal at b = 200 */
    for (i = 0; i < 7; i++)
        c[i] = cell(batches[i], 1.0 + 0.02 * batches[i], 4.0 + 0.005 * batches[i], 0.0);
    assert_int_equal(xover_estimate(c, 7, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_IN_RANGE);
    assert_true(fabs(x.batch - 200.0) < 1e-9);
}

/* The other device is ahead at 16, behind at 32, ahead at 64: it stays
 * ahead only after 32, so the crossing lies between 32 and 64; the cell at
 * 16 breaks the pattern and is left out of the line, so the crossing is
 * where the difference meets zero between 32 and 64 (+1 to −1: at 48). */
static void test_last_loss_decides(void **state)
{
    xover_cell c[3];
    xover_est x;
    err e;
    (void)state;
    c[0] = cell(16, 2.0, 1.0, 0.0);
    c[1] = cell(32, 1.0, 2.0, 0.0);
    c[2] = cell(64, 2.0, 1.0, 0.0);
    assert_int_equal(xover_estimate(c, 3, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_IN_RANGE);
    assert_true(fabs(x.batch - 48.0) < 1e-9);
}

static void test_always_and_never(void **state)
{
    xover_cell c[2];
    xover_est x;
    err e;
    (void)state;
    c[0] = cell(16, 2.0, 1.0, 0.0);
    c[1] = cell(64, 3.0, 1.0, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_ALWAYS);
    assert_true(x.lo == 16.0 && x.hi == 16.0);
    assert_int_equal(x.lo_open, 1);
    assert_int_equal(x.hi_open, 0);
    assert_true(x.p_always == 1.0);

    c[0] = cell(16, 1.0, 2.0, 0.0);
    c[1] = cell(64, 1.0, 1.0, 0.0); /* a tie is not a win */
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_NEVER);
    assert_true(x.lo == 64.0 && x.hi == 64.0);
    assert_int_equal(x.lo_open, 0);
    assert_int_equal(x.hi_open, 1);
    assert_true(x.p_never == 1.0);
}

/* A ratio near 1 at the largest batch, with noise (the medians' own errors
 * only: no scatter around the curves): the interval must reach beyond the
 * measured range, and some replicates must say never. */
static void test_open_upper_end(void **state)
{
    static xover_scatter none; /* zero: no scatter beyond the errors */
    xover_cell c[3];
    xover_est x;
    err e;
    (void)state;
    c[0] = cell(16, 1.0, 3.0, 0.05);
    c[1] = cell(32, 1.0, 1.5, 0.05);
    c[2] = cell(64, 1.0, 0.98, 0.05);
    assert_int_equal(xover_estimate_with(c, 3, &none, 7, 1000, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_IN_RANGE);
    assert_true(x.batch > 32.0 && x.batch < 64.0);
    assert_int_equal(x.hi_open, 1);
    assert_true(x.p_never > 0.2 && x.p_never < 0.5);
    assert_true(x.lo > 32.0 && x.lo < x.batch);
}

/* Two devices following t = a + b·batch with known coefficients; measured
 * medians off the truth by log-normal errors of the stated size.  The 95%
 * interval must cover the true crossing in at least 90% of 200 seeds, and
 * the estimate must lie within 10% of it in most. */
static void test_covers_known_truth(void **state)
{
    static const double batches[] = {16, 32, 64, 128, 256, 512, 1024};
    const int nb = 7, seeds = 200;
    /* base: 1 + 0.02·b, other: 4 + 0.005·b: equal at b = 3 / 0.015 = 200 */
    const double truth = 200.0, sd = 0.04;
    int s, i, covered = 0, close = 0;
    uint64_t noise = 12345;
    (void)state;
    for (s = 0; s < seeds; s++) {
        xover_cell c[7];
        xover_est x;
        err e;
        for (i = 0; i < nb; i++) {
            double b = batches[i];
            double u1, u2, z1, z2;
            noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
            u1 = ((double)(noise >> 11) + 0.5) * 0x1.0p-53;
            noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
            u2 = ((double)(noise >> 11) + 0.5) * 0x1.0p-53;
            z1 = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
            z2 = sqrt(-2.0 * log(u1)) * sin(6.283185307179586 * u2);
            c[i] = cell(b, (1.0 + 0.02 * b) * exp(sd * z1), (4.0 + 0.005 * b) * exp(sd * z2), sd);
        }
        assert_int_equal(xover_estimate(c, nb, (uint64_t)s + 1, 1000, &x, &e), BE_OK);
        covered += x.lo <= truth && truth <= x.hi;
        close += x.kind == CROSS_IN_RANGE && fabs(x.batch / truth - 1.0) <= 0.10;
    }
    assert_true(covered >= 180);
    assert_true(close >= 140);
}

/* One median off a straight line: with no errors of their own, the scatter
 * is that deviation, divided by how much a common scatter would move it:
 * τ = r / √(1 + a² + b²).  On the exact line there is none, and medians
 * whose own errors explain the deviation leave none either. */
static void test_scatter_of_one_deviation(void **state)
{
    static xover_scatter sc;
    xover_cell c[3];
    /* other: 4 + 0.005·b at 16, 32, 64 (4.08, 4.16, 4.32), 32 off by e^0.1 */
    const double w = 2.0 / 3.0, a = w * 4.08 / 4.16, b = (1.0 - w) * 4.32 / 4.16;
    (void)state;
    c[0] = cell(16, 1.0 + 0.02 * 16, 4.08, 0.0);
    c[1] = cell(32, 1.0 + 0.02 * 32, 4.16 * exp(0.1), 0.0);
    c[2] = cell(64, 1.0 + 0.02 * 64, 4.32, 0.0);
    xover_scatter_add(&sc, c, 3);
    assert_int_equal(sc.k[0], 1);
    assert_int_equal(sc.k[1], 1);
    assert_true(xover_scatter_sd(&sc, 0) == 0.0); /* the base lies on its line */
    assert_true(fabs(xover_scatter_sd(&sc, 1) - 0.1 / sqrt(1.0 + a * a + b * b)) < 1e-9);
    /* own errors of 0.1 at every median explain a deviation of 0.1 */
    memset(&sc, 0, sizeof sc);
    c[0].other_sd = c[1].other_sd = c[2].other_sd = 0.1;
    xover_scatter_add(&sc, c, 3);
    assert_true(xover_scatter_sd(&sc, 1) == 0.0);
    /* two cells: nothing to judge a curve by */
    memset(&sc, 0, sizeof sc);
    xover_scatter_add(&sc, c, 2);
    assert_int_equal(sc.k[1], 0);
    assert_true(xover_scatter_sd(&sc, 1) == 0.0);
}

/* Medians whose own intervals say 1% while each is off its law by 6% (the
 * same in every pass of a run, so the intervals cannot know): from their
 * own errors alone the interval covers the true crossing in few of 200
 * seeds; with the scatter around the curves measured from the medians, in
 * at least 90%. */
static void test_scatter_restores_coverage(void **state)
{
    static const double batches[] = {16, 32, 64, 128, 256, 512, 1024};
    static xover_scatter none;
    const int nb = 7, seeds = 200;
    const double truth = 200.0, off = 0.06, stated = 0.01;
    int s, i, with = 0, without = 0;
    uint64_t noise = 4242;
    (void)state;
    for (s = 0; s < seeds; s++) {
        xover_cell c[7];
        xover_est x;
        err e;
        for (i = 0; i < nb; i++) {
            double b = batches[i], u1, u2, z1, z2;
            noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
            u1 = ((double)(noise >> 11) + 0.5) * 0x1.0p-53;
            noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
            u2 = ((double)(noise >> 11) + 0.5) * 0x1.0p-53;
            z1 = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
            z2 = sqrt(-2.0 * log(u1)) * sin(6.283185307179586 * u2);
            c[i] = cell(b, (1.0 + 0.02 * b) * exp(off * z1), (4.0 + 0.005 * b) * exp(off * z2),
                        stated);
        }
        assert_int_equal(xover_estimate_with(c, nb, &none, (uint64_t)s + 1, 1000, &x, &e), BE_OK);
        without += x.lo <= truth && truth <= x.hi;
        assert_int_equal(xover_estimate(c, nb, (uint64_t)s + 1, 1000, &x, &e), BE_OK);
        with += x.lo <= truth && truth <= x.hi;
    }
    printf("scatter 6%%, stated 1%%: covered %d of %d from the errors alone, %d with the scatter\n",
           without, seeds, with);
    assert_true(without < 140);
    assert_true(with >= 180);
}

static void test_log_sd(void **state)
{
    (void)state;
    /* a 95% interval of ±1.96 standard errors in log space */
    assert_true(fabs(xover_log_sd(1.0, exp(2.0 * 1.959963984540054), 0.95) - 1.0) < 1e-9);
    assert_true(fabs(xover_log_sd(1.0, exp(2.0), 0.6826894921370859) - 1.0) < 1e-9);
    assert_true(xover_log_sd(2.0, 1.0, 0.95) == 0.0);
    assert_true(xover_log_sd(0.0, 1.0, 0.95) == 0.0);
    assert_true(xover_log_sd(1.0, 2.0, 1.0) == 0.0);
}

static void test_bad_input(void **state)
{
    xover_cell c[2];
    xover_est x;
    err e;
    (void)state;
    memset(c, 0, sizeof c);
    assert_int_equal(xover_estimate(c, 0, 1, 200, &x, &e), BE_OK);
    assert_int_equal(x.kind, CROSS_UNKNOWN);
    c[0] = cell(16, 1.0, 2.0, 0.0);
    c[1] = cell(16, 1.0, 0.5, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "batch 16 appears twice"));
    c[1] = cell(32, -1.0, 0.5, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "batch 32 has an invalid time"));
    c[1] = cell(32, 1.0, NAN, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 200, &x, &e), BE_EFAIL);
    c[1] = cell(32, 1.0, 0.5, 0.0);
    assert_int_equal(xover_estimate(c, 2, 1, 50, &x, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "at least 100"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interpolates_the_difference),
        cmocka_unit_test(test_exact_for_two_laws),
        cmocka_unit_test(test_last_loss_decides),
        cmocka_unit_test(test_always_and_never),
        cmocka_unit_test(test_open_upper_end),
        cmocka_unit_test(test_covers_known_truth),
        cmocka_unit_test(test_scatter_of_one_deviation),
        cmocka_unit_test(test_scatter_restores_coverage),
        cmocka_unit_test(test_log_sd),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
