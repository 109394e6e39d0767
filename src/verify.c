/*
 * verify.c — the host reference for every device (see verify.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "verify.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* entries sampled at random per layer and per checked quantity, on top of
 * the diagonal that covers every row and column */
#define SAMPLES 96

static float **alloc_arrays(int n, size_t len)
{
    float **a = calloc((size_t)n, sizeof *a);
    int i;
    if (!a)
        return NULL;
    for (i = 0; i < n; i++)
        if (!(a[i] = calloc(len, sizeof(float))))
            return a; /* the caller frees the partial array */
    return a;
}

static int complete(float **a, int n)
{
    int i;
    if (!a)
        return 0;
    for (i = 0; i < n; i++)
        if (!a[i])
            return 0;
    return 1;
}

void verify_state_free(const workload *w, net_state *s)
{
    workload_free_arrays(s->act, w->layers + 1);
    workload_free_arrays(s->dx, w->layers);
    workload_free_arrays(s->w, w->layers);
    workload_free_arrays(s->b, w->layers);
    memset(s, 0, sizeof *s);
}

int verify_state_alloc(const workload *w, net_state *s, err *e)
{
    size_t act = (size_t)w->batch * (size_t)w->hidden;
    size_t par = (size_t)w->hidden * (size_t)w->hidden;

    memset(s, 0, sizeof *s);
    s->act = alloc_arrays(w->layers + 1, act);
    if (!complete(s->act, w->layers + 1))
        goto fail;
    if (w->mode == WL_TRAINING) {
        s->dx = alloc_arrays(w->layers, act);
        s->w = alloc_arrays(w->layers, par);
        s->b = alloc_arrays(w->layers, (size_t)w->hidden);
        if (!complete(s->dx, w->layers) || !complete(s->w, w->layers) || !complete(s->b, w->layers))
            goto fail;
    }
    return BE_OK;
fail:
    verify_state_free(w, s);
    return err_set(e, BE_EOOM, "out of host memory for the verification of hidden=%d batch=%d",
                   w->hidden, w->batch);
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Records one comparison in r. */
static void judge(verify_result *r, double got, double ref, double scale, long k, const char *what,
                  int layer, long i, long j)
{
    double tol = 2.0 * (double)(k + 2) * ldexp(1.0, -24);
    double error = fabs(got - ref) / (scale > 0.0 ? scale : 1e-30);
    r->checked++;
    if (!(error <= tol)) /* also catches NaN */
        r->ok = 0;
    if (r->checked == 1 || !(error / tol <= r->max_error / r->tolerance)) {
        r->max_error = error;
        r->tolerance = tol;
        snprintf(r->where, sizeof r->where, "layer %d %s[%ld][%ld]", layer, what, i, j);
    }
}

/* dz = dy ⊙ [y > 0] of one entry, with dy = act[L] at the top. */
static double dz_at(const workload *w, const net_state *s, int l, long m, long j)
{
    long H = w->hidden;
    const float *dy = l == w->layers - 1 ? s->act[w->layers] : s->dx[l + 1];
    return s->act[l + 1][m * H + j] > 0.0f ? (double)dy[m * H + j] : 0.0;
}

/* check_y on the entries (m[t], j[t]), t < n, all at once: the sums run
 * over k outside, so that W is read along its rows (a column walk per
 * entry costs ten times as much at hidden 2048).  acc and scale: n doubles
 * each. */
static void check_y_many(const workload *w, const net_state *s, verify_result *r, int l, long n,
                         const long *m, const long *j, double *acc, double *scale)
{
    long H = w->hidden, k, t;
    const float *x = s->act[l], *W = w->w0[l], *b = w->b0[l];
    for (t = 0; t < n; t++) {
        acc[t] = b[j[t]];
        scale[t] = fabs(b[j[t]]);
    }
    for (k = 0; k < H; k++) {
        const float *row = W + k * H;
        for (t = 0; t < n; t++) {
            double p = (double)x[m[t] * H + k] * row[j[t]];
            acc[t] += p;
            scale[t] += fabs(p);
        }
    }
    for (t = 0; t < n; t++)
        judge(r, s->act[l + 1][m[t] * H + j[t]], acc[t] > 0.0 ? acc[t] : 0.0, scale[t], H, "y", l,
              m[t], j[t]);
}

static void check_dx(const workload *w, const net_state *s, verify_result *r, int l, long m, long i)
{
    long H = w->hidden, k;
    const float *W = w->w0[l];
    double acc = 0.0, scale = 0.0;
    for (k = 0; k < H; k++) {
        double p = dz_at(w, s, l, m, k) * W[i * H + k];
        acc += p;
        scale += fabs(p);
    }
    judge(r, s->dx[l][m * H + i], acc, scale, H, "dx", l, m, i);
}

static void check_w(const workload *w, const net_state *s, verify_result *r, int l, long i, long j)
{
    long H = w->hidden, B = w->batch, k;
    const float *x = s->act[l], *W = w->w0[l];
    double acc = 0.0, scale = fabs(W[i * H + j]);
    for (k = 0; k < B; k++) {
        double p = (double)x[k * H + i] * dz_at(w, s, l, k, j);
        acc += p;
        scale += w->lr * fabs(p);
    }
    judge(r, s->w[l][i * H + j], W[i * H + j] - w->lr * acc, scale, B, "W", l, i, j);
}

static void check_b(const workload *w, const net_state *s, verify_result *r, int l, long j)
{
    long B = w->batch, k;
    const float *b = w->b0[l];
    double acc = 0.0, scale = fabs(b[j]);
    for (k = 0; k < B; k++) {
        double g = dz_at(w, s, l, k, j);
        acc += g;
        scale += w->lr * fabs(g);
    }
    judge(r, s->b[l][j], b[j] - w->lr * acc, scale, B, "b", l, 0, j);
}

int verify_check(const workload *w, const net_state *s, verify_result *r, err *e)
{
    long H = w->hidden, B = w->batch, t, n = B > H ? B : H, ny = n + SAMPLES;
    uint64_t rng = 0x5eed;
    double *acc = malloc(2 * (size_t)ny * sizeof *acc);
    long *idx = malloc(2 * (size_t)ny * sizeof *idx), *ym, *yj;
    int l;

    memset(r, 0, sizeof *r);
    if (!acc || !idx) {
        free(acc);
        free(idx);
        return err_set(e, BE_EOOM,
                       "out of host memory for the verification of hidden=%d "
                       "batch=%d",
                       w->hidden, w->batch);
    }
    ym = idx;
    yj = idx + ny;
    r->ok = 1;
    r->tolerance = 1.0;
    for (l = 0; l < w->layers; l++) {
        /* a diagonal through each output (shifted by a random offset per
         * layer) meets every row and every column once: a fault confined to
         * one row or one column cannot pass, for max(B, H) entries; then
         * SAMPLES entries at random */
        long shift = (long)(next(&rng) % (uint64_t)H);
        for (t = 0; t < n; t++) {
            ym[t] = t % B;
            yj[t] = (t + shift) % H;
        }
        for (t = n; t < ny; t++) {
            ym[t] = (long)(next(&rng) % (uint64_t)B);
            yj[t] = (long)(next(&rng) % (uint64_t)H);
        }
        check_y_many(w, s, r, l, ny, ym, yj, acc, acc + ny);
        if (w->mode != WL_TRAINING)
            continue;
        for (t = 0; t < n; t++)
            check_dx(w, s, r, l, t % B, (t + shift) % H);
        for (t = 0; t < H; t++) {
            check_w(w, s, r, l, t, (t + shift) % H);
            check_b(w, s, r, l, t);
        }
        for (t = 0; t < SAMPLES; t++) {
            long m = (long)(next(&rng) % (uint64_t)B), i = (long)(next(&rng) % (uint64_t)H);
            check_dx(w, s, r, l, m, i);
        }
        for (t = 0; t < SAMPLES; t++) {
            long i = (long)(next(&rng) % (uint64_t)H), j = (long)(next(&rng) % (uint64_t)H);
            check_w(w, s, r, l, i, j);
        }
    }
    free(acc);
    free(idx);
    return BE_OK;
}
