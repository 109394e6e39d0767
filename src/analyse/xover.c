/*
 * xover.c — the crossover batch at one hidden width (see xover.h).
 *
 * The rule: sort the batches; the other device "stays ahead" from the
 * batch after the last one at which it is not faster (time ratio
 * other/base ≥ 1).  When it is faster everywhere, it always wins; when it
 * is not faster at the largest batch, it never does in the measured range.
 * Between the last batch where it is not ahead and the next, the crossing
 * is where the difference of the times, other − base, meets zero: for two
 * latency + throughput devices (t = t0 + f/P, f linear in the batch) that
 * difference is a straight line in the batch, so a straight line through
 * it has no interpolation error, where log–log interpolation of the ratio
 * is off by a few percent over a factor of two in batch.  The line is a
 * weighted least-squares fit over the bracketing batches and up to one
 * more below and one more above (each median's noise then weighs less),
 * clamped to the bracket; with only the two, or when the line does not
 * fall, it runs through the two.  On synthetic runs with a known truth
 * (tests/test_synth.c) this takes the share of crossovers found within 10%
 * from about 85% to 95% and removes a bias of +2 to +4%.
 *
 * The interval: each replicate draws every median from a log-normal
 * centred on the measured one, with the standard error of its logarithm
 * (read off its interval) widened by its device's scatter τ, applies the
 * rule, and records the batch (−∞ for "always", +∞ for "never").  The 2.5%
 * and 97.5% order statistics of the replicates give the interval; an
 * infinite end becomes an open end at the smallest or largest measured
 * batch.  A parametric bootstrap rather than a resampling of raw samples,
 * because the medians' intervals are where the variation between passes is
 * accounted for (stats.c), and because it works the same for runs whose
 * samples carry no passes.
 *
 * Why τ: on a shared machine a point can sit a few percent off its curve in
 * one run and not the next (where its buffers landed, what ran beside it
 * when it was first visited), the same in every pass, so no interval made
 * from its own samples shows it; the crossover then moves between runs by
 * more than its interval said.  What such offsets leave in one run is
 * scatter of the medians around a smooth curve, so τ² is estimated from
 * it: each inner median's deviation from the line through its neighbours,
 * whose expected square is its errors' share (own) plus τ² times c = 1 +
 * a² + b², a and b the neighbours' weights; τ̂² is where Σ r²/(own + c·τ²)
 * equals the number of deviations (Paule–Mandel), 0 when the errors alone
 * explain them.  Weighting each deviation by its own variance keeps a few
 * medians with wide intervals (a pass with several slow samples) from
 * hiding the scatter of the rest, which a plain method of moments did.  A
 * curve that truly bends (a CPU whose efficiency grows with the batch)
 * adds to τ̂: wider, never narrower, intervals.  Each replicate draws τ² as
 * τ̂²·k/χ²ₖ so that a τ̂ resting on few deviations widens the interval
 * more.  On the synthetic runs of tests/test_synth.c (per-point offsets of
 * 8% and 10% of the samples 2–4× slow) this brings the coverage of the
 * true crossover from 83% to 94% over 1,000 seeds (docs/statistics.md).
 *
 * In the replicates the line's root may leave the bracket, within the
 * cells the line is fitted to: the bracket is decided by the sign of one
 * noisy difference, and replicates held to it piled up at a measured batch
 * when the truth lay just below it (to 95%).  The crossover itself stays
 * in the bracket, so that it never contradicts the measured medians.
 */
#include "xover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell_order {
    double batch, base, other; /* batch, the two times                      */
    double sd_b, sd_o;         /* the standard errors of their logarithms   */
    double sd_r;               /* of log(other/base) when paired, else < 0  */
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

void xover_pair(xover_cell *c, int paired, double lo, double hi)
{
    c->ratio_sd = paired && lo > 0.0 && hi >= lo ? xover_log_sd(lo, hi, 0.95) : 0.0;
    c->paired = paired && lo > 0.0 && hi >= lo && isfinite(c->ratio_sd);
}

/* Where the time difference d = other − base, over the cells i0..i1 (at
 * least 3) at times tb, to, meets zero by a weighted least-squares line in
 * the batch (weights 1/var(d), equal when a variance is 0), clamped to
 * [lo, hi]; NAN when the line does not fall. */
static double local_root(const cell_order *c, const double *tb, const double *to, int i0, int i1,
                         double lo, double hi)
{
    double sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, den, beta, alpha, x;
    int i, equal = 0;
    for (i = i0; i <= i1; i++)
        equal |= !(c[i].sd_b > 0.0 || c[i].sd_o > 0.0);
    for (i = i0; i <= i1; i++) {
        double vb = tb[i] * c[i].sd_b, vo = to[i] * c[i].sd_o;
        double w = equal ? 1.0 : 1.0 / (vb * vb + vo * vo), xi = c[i].batch, yi = to[i] - tb[i];
        sw += w;
        sx += w * xi;
        sy += w * yi;
        sxx += w * xi * xi;
        sxy += w * xi * yi;
    }
    den = sw * sxx - sx * sx;
    if (!(den > 0.0))
        return NAN;
    beta = (sw * sxy - sx * sy) / den;
    alpha = (sy - beta * sx) / sw;
    if (!(beta < 0.0))
        return NAN;
    x = -alpha / beta;
    return fmin(fmax(x, lo), hi);
}

/* The rule of the file's comment over the times tb (base) and to (other)
 * at ascending batches: returns the batch, −∞ (always) or +∞ (never).
 * wide: the line's root is held to the cells it is fitted to rather than
 * to the bracket (the bootstrap's replicates, see the file's comment). */
static double crossing(const cell_order *c, const double *tb, const double *to, int n, int wide)
{
    int i, last = -1;
    double dl, dr;
    for (i = 0; i < n; i++)
        if (to[i] >= tb[i])
            last = i;
    if (last < 0)
        return -INFINITY;
    if (last == n - 1)
        return INFINITY;
    {
        /* a cell before the bracket where the other device is ahead breaks
         * the pattern the line assumes: leave it out */
        int i0 = last > 0 && to[last - 1] >= tb[last - 1] ? last - 1 : last;
        int i1 = last + 2 < n ? last + 2 : n - 1;
        double b = i1 - i0 >= 2 ? local_root(c, tb, to, i0, i1, wide ? c[i0].batch : c[last].batch,
                                             wide ? c[i1].batch : c[last + 1].batch)
                                : NAN;
        if (!isnan(b))
            return b;
    }
    dl = to[last] - tb[last];
    dr = to[last + 1] - tb[last + 1];
    return c[last].batch + dl / (dl - dr) * (c[last + 1].batch - c[last].batch);
}

/* The deviations of one device's times t (sds sd) at ascending batches x. */
static void scatter_curve(xover_scatter *s, int d, const double *x, const double *t,
                          const double *sd, int n)
{
    int i;
    for (i = 1; i + 1 < n && s->k[d] < XOVER_DEVIATIONS; i++) {
        double w = (x[i + 1] - x[i]) / (x[i + 1] - x[i - 1]);
        double pred = w * t[i - 1] + (1.0 - w) * t[i + 1];
        double a = w * t[i - 1] / pred, b = (1.0 - w) * t[i + 1] / pred, r = log(t[i] / pred);
        int j = s->k[d]++;
        s->r2[d][j] = r * r;
        s->own[d][j] =
            sd[i] * sd[i] + a * a * sd[i - 1] * sd[i - 1] + b * b * sd[i + 1] * sd[i + 1];
        s->c[d][j] = 1.0 + a * a + b * b;
    }
}

static int cell_valid(const xover_cell *x)
{
    return x->batch > 0.0 && isfinite(x->batch) && x->base > 0.0 && isfinite(x->base) &&
           x->other > 0.0 && isfinite(x->other) && x->base_sd >= 0.0 && isfinite(x->base_sd) &&
           x->other_sd >= 0.0 && isfinite(x->other_sd) &&
           (!x->paired || (x->ratio_sd >= 0.0 && isfinite(x->ratio_sd)));
}

static int cmp_cell(const void *a, const void *b)
{
    double x = ((const xover_cell *)a)->batch, y = ((const xover_cell *)b)->batch;
    return (x > y) - (x < y);
}

void xover_scatter_add(xover_scatter *s, const xover_cell *cells, int n)
{
    xover_cell c[XOVER_SCATTER_MAX];
    double x[XOVER_SCATTER_MAX], t[2][XOVER_SCATTER_MAX], sd[2][XOVER_SCATTER_MAX];
    int i, m = 0;
    for (i = 0; i < n && m < XOVER_SCATTER_MAX; i++)
        if (cell_valid(&cells[i]))
            c[m++] = cells[i];
    qsort(c, (size_t)m, sizeof *c, cmp_cell);
    for (i = 0; i < m; i++) {
        x[i] = c[i].batch;
        t[0][i] = c[i].base;
        t[1][i] = c[i].other;
        sd[0][i] = c[i].base_sd;
        sd[1][i] = c[i].other_sd;
    }
    for (i = 1; i < m; i++)
        if (x[i] == x[i - 1])
            return; /* xover_estimate refuses these */
    scatter_curve(s, 0, x, t[0], sd[0], m);
    scatter_curve(s, 1, x, t[1], sd[1], m);
}

/* Σ r²/(own + c·τ²) over device d's deviations, less their number: falls
 * as τ² grows. */
static double pm_excess(const xover_scatter *s, int d, double tau2)
{
    double sum = 0.0;
    int j;
    for (j = 0; j < s->k[d]; j++) {
        double v = s->own[d][j] + s->c[d][j] * tau2;
        if (s->r2[d][j] > 0.0)
            sum += v > 0.0 ? s->r2[d][j] / v : INFINITY;
    }
    return sum - s->k[d];
}

double xover_scatter_sd(const xover_scatter *s, int d)
{
    double lo = 0.0, hi = 0.0;
    int j;
    if (d < 0 || d > 1 || s->k[d] == 0 || !(pm_excess(s, d, 0.0) > 0.0))
        return 0.0;
    /* at τ² = max r²/c every term is at most 1: the root lies below */
    for (j = 0; j < s->k[d]; j++)
        hi = fmax(hi, s->r2[d][j] / s->c[d][j]);
    for (j = 0; j < 100 && hi - lo > 1e-12 * hi; j++) {
        double mid = 0.5 * (lo + hi);
        if (pm_excess(s, d, mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return sqrt(0.5 * (lo + hi));
}

/* One replicate's τ² from τ̂ (tau) resting on k deviations: τ̂²·k/χ²ₖ (k
 * capped where the draw no longer matters, to bound the work). */
static double draw_tau2(double tau, int k, uint64_t *state)
{
    double chi = 0.0;
    int j;
    if (!(tau > 0.0))
        return 0.0;
    k = k < 200 ? k : 200;
    for (j = 0; j < k; j++) {
        double z = normal01(state);
        chi += z * z;
    }
    return tau * tau * k / chi;
}

int xover_estimate(const xover_cell *cells, int n, uint64_t seed, int reps, xover_est *out, err *e)
{
    xover_scatter *sc = calloc(1, sizeof *sc);
    int rc;
    if (!sc)
        return err_set(e, BE_EFAIL, "crossover: out of memory");
    xover_scatter_add(sc, cells, n);
    rc = xover_estimate_with(cells, n, sc, seed, reps, out, e);
    free(sc);
    return rc;
}

int xover_estimate_with(const xover_cell *cells, int n, const xover_scatter *sc, uint64_t seed,
                        int reps, xover_est *out, err *e)
{
    cell_order *c = NULL;
    double *tb = NULL, *to = NULL, *val = NULL, point, vlo, vhi;
    double tau[2] = {sc ? xover_scatter_sd(sc, 0) : 0.0, sc ? xover_scatter_sd(sc, 1) : 0.0};
    uint64_t state = seed;
    int i, k, never = 0, always = 0, rc = BE_OK;

    memset(out, 0, sizeof *out);
    out->kind = CROSS_UNKNOWN;
    if (n <= 0)
        return BE_OK;
    if (reps < 100)
        return err_set(e, BE_EFAIL, "crossover: %d bootstrap replicates, need at least 100", reps);
    c = malloc((size_t)n * sizeof *c);
    tb = malloc((size_t)n * sizeof *tb);
    to = malloc((size_t)n * sizeof *to);
    val = malloc((size_t)reps * sizeof *val);
    if (!c || !tb || !to || !val) {
        rc = err_set(e, BE_EFAIL, "crossover: out of memory for %d replicates", reps);
        goto fail;
    }
    for (i = 0; i < n; i++) {
        const xover_cell *x = &cells[i];
        if (!cell_valid(x)) {
            rc = err_set(e, BE_EFAIL, "crossover: batch %g has an invalid time or error", x->batch);
            goto fail;
        }
        c[i].batch = x->batch;
        c[i].base = x->base;
        c[i].other = x->other;
        c[i].sd_b = x->base_sd;
        c[i].sd_o = x->other_sd;
        c[i].sd_r = x->paired ? x->ratio_sd : -1.0;
    }
    qsort(c, (size_t)n, sizeof *c, cmp_batch);
    for (i = 1; i < n; i++)
        if (c[i].batch == c[i - 1].batch) {
            rc = err_set(e, BE_EFAIL, "crossover: batch %g appears twice", c[i].batch);
            goto fail;
        }
    for (i = 0; i < n; i++) {
        tb[i] = c[i].base;
        to[i] = c[i].other;
    }
    point = crossing(c, tb, to, n, 0);
    out->kind = point == INFINITY    ? CROSS_NEVER
                : point == -INFINITY ? CROSS_ALWAYS
                                     : CROSS_IN_RANGE;
    out->batch = isfinite(point) ? point : 0.0;
    for (k = 0; k < reps; k++) {
        double tau2b = draw_tau2(tau[0], sc ? sc->k[0] : 0, &state);
        double tau2o = draw_tau2(tau[1], sc ? sc->k[1] : 0, &state);
        for (i = 0; i < n; i++) {
            tb[i] = c[i].base * exp(sqrt(c[i].sd_b * c[i].sd_b + tau2b) * normal01(&state));
            /* paired: what the machine did in a pass fell on both, so the
             * ratio varies by its own error (and both curves' scatter) */
            to[i] = c[i].sd_r >= 0.0
                        ? tb[i] * (c[i].other / c[i].base) *
                              exp(sqrt(c[i].sd_r * c[i].sd_r + tau2b + tau2o) * normal01(&state))
                        : c[i].other * exp(sqrt(c[i].sd_o * c[i].sd_o + tau2o) * normal01(&state));
        }
        val[k] = crossing(c, tb, to, n, 1);
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
    free(tb);
    free(to);
    free(val);
    return rc;
}
