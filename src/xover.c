/*
 * xover.c — the crossover batch at one hidden width (see xover.h).
 *
 * The rule: sort the batches; the other device "stays ahead" from the
 * batch after the last one at which it is not faster (time ratio
 * other/base ≥ 1).  When it is faster everywhere, it always wins; when it
 * is not faster at the largest batch, it never does in the measured range.
 * Between the last batch where it is not ahead and the next, log(ratio) is
 * interpolated linearly in log(batch) to ratio 1: speed ratios of two
 * latency + throughput devices are smooth in log–log space over a factor
 * of two in batch.
 *
 * The interval: each replicate draws every cell's log ratio from a normal
 * centred on the measured one, with the two medians' log standard errors
 * added in quadrature, applies the rule, and records the batch (−∞ for
 * "always", +∞ for "never").  The 2.5% and 97.5% order statistics of the
 * replicates give the interval; an infinite end becomes an open end at the
 * smallest or largest measured batch.  A parametric bootstrap rather than a
 * resampling of raw samples, because the medians' intervals are where the
 * variation between passes is accounted for (stats.c), and because it
 * works the same for runs whose samples carry no passes.
 */
#include "xover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell_order {
    double batch, lr, sd; /* batch, log(other/base), its standard error */
} cell_order;

static int cmp_batch(const void *a, const void *b)
{
    double x = ((const cell_order *)a)->batch, y = ((const cell_order *)b)->batch;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in (0, 1), never 0 so that its logarithm is finite. */
static double uniform01(uint64_t *state)
{
    return ((double)(next_u64(state) >> 11) + 0.5) * 0x1.0p-53;
}

/* A standard normal deviate (Box–Muller, one of the pair). */
static double normal01(uint64_t *state)
{
    double u = uniform01(state), v = uniform01(state);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* z with P(|Z| ≤ z) = level, by bisection on erfc: exact to 1e-12. */
static double z_two_sided(double level)
{
    double lo = 0.0, hi = 40.0;
    int i;
    for (i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (1.0 - erfc(mid / sqrt(2.0)) < level)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double xover_log_sd(double lo, double hi, double level)
{
    if (!(lo > 0.0) || !(hi > lo) || !isfinite(hi) || !(level > 0.0) || !(level < 1.0))
        return 0.0;
    return log(hi / lo) / (2.0 * z_two_sided(level));
}

/* The rule of the file's comment over log ratios lr[0..n) at ascending
 * batches: returns the batch, −∞ (always) or +∞ (never). */
static double crossing(const cell_order *c, const double *lr, int n)
{
    int i, last = -1;
    double x;
    for (i = 0; i < n; i++)
        if (lr[i] >= 0.0)
            last = i;
    if (last < 0)
        return -INFINITY;
    if (last == n - 1)
        return INFINITY;
    x = lr[last] / (lr[last] - lr[last + 1]);
    return exp(log(c[last].batch) + x * (log(c[last + 1].batch) - log(c[last].batch)));
}

int xover_estimate(const xover_cell *cells, int n, uint64_t seed, int reps, xover_est *out,
                   err *e)
{
    cell_order *c = NULL;
    double *lr = NULL, *val = NULL, point, vlo, vhi;
    uint64_t state = seed;
    int i, k, never = 0, always = 0, rc = BE_OK;

    memset(out, 0, sizeof *out);
    out->kind = CROSS_UNKNOWN;
    if (n <= 0)
        return BE_OK;
    if (reps < 100)
        return err_set(e, BE_EFAIL, "crossover: %d bootstrap replicates, need at least 100",
                       reps);
    c = malloc((size_t)n * sizeof *c);
    lr = malloc((size_t)n * sizeof *lr);
    val = malloc((size_t)reps * sizeof *val);
    if (!c || !lr || !val) {
        rc = err_set(e, BE_EFAIL, "crossover: out of memory for %d replicates", reps);
        goto fail;
    }
    for (i = 0; i < n; i++) {
        const xover_cell *x = &cells[i];
        if (!(x->batch > 0.0) || !isfinite(x->batch) || !(x->base > 0.0) ||
            !isfinite(x->base) || !(x->other > 0.0) || !isfinite(x->other) ||
            !(x->base_sd >= 0.0) || !isfinite(x->base_sd) || !(x->other_sd >= 0.0) ||
            !isfinite(x->other_sd)) {
            rc = err_set(e, BE_EFAIL, "crossover: batch %g has an invalid time or error",
                         x->batch);
            goto fail;
        }
        c[i].batch = x->batch;
        c[i].lr = log(x->other / x->base);
        c[i].sd = sqrt(x->base_sd * x->base_sd + x->other_sd * x->other_sd);
    }
    qsort(c, (size_t)n, sizeof *c, cmp_batch);
    for (i = 1; i < n; i++)
        if (c[i].batch == c[i - 1].batch) {
            rc = err_set(e, BE_EFAIL, "crossover: batch %g appears twice", c[i].batch);
            goto fail;
        }
    for (i = 0; i < n; i++)
        lr[i] = c[i].lr;
    point = crossing(c, lr, n);
    out->kind = point == INFINITY ? CROSS_NEVER : point == -INFINITY ? CROSS_ALWAYS
                                                                     : CROSS_IN_RANGE;
    out->batch = isfinite(point) ? point : 0.0;
    for (k = 0; k < reps; k++) {
        for (i = 0; i < n; i++)
            lr[i] = c[i].lr + c[i].sd * normal01(&state);
        val[k] = crossing(c, lr, n);
        never += val[k] == INFINITY;
        always += val[k] == -INFINITY;
    }
    qsort(val, (size_t)reps, sizeof *val, cmp_double);
    /* order statistics, no interpolation: the ends may be infinite */
    vlo = val[(int)floor(0.025 * (reps - 1))];
    vhi = val[(int)ceil(0.975 * (reps - 1))];
    /* finite ends lie between the first and last batch by construction */
    out->lo_open = vlo == -INFINITY;
    out->hi_open = vhi == INFINITY;
    out->lo = vlo == -INFINITY ? c[0].batch : vlo == INFINITY ? c[n - 1].batch : vlo;
    out->hi = vhi == INFINITY ? c[n - 1].batch : vhi == -INFINITY ? c[0].batch : vhi;
    out->p_never = (double)never / reps;
    out->p_always = (double)always / reps;
fail:
    free(c);
    free(lr);
    free(val);
    return rc;
}
