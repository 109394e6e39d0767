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

/* n arrays, array i of rows × wl_dim(w, i + first) floats, times
 * wl_dim(w, i + first + 1) with_next (weights). */
static float **alloc_arrays(const workload *w, int n, int first, long rows, int with_next)
{
    float **a = calloc((size_t)n, sizeof *a);
    int i;
    if (!a)
        return NULL;
    for (i = 0; i < n; i++) {
        size_t len = (size_t)rows * (size_t)wl_dim(w, i + first);
        if (with_next)
            len *= (size_t)wl_dim(w, i + first + 1);
        if (!(a[i] = calloc(len, sizeof(float))))
            return a; /* the caller frees the partial array */
    }
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
    memset(s, 0, sizeof *s);
    s->act = alloc_arrays(w, w->layers + 1, 0, w->batch, 0);
    if (!complete(s->act, w->layers + 1))
        goto fail;
    if (w->mode == WL_TRAINING) {
        s->dx = alloc_arrays(w, w->layers, 0, w->batch, 0);
        s->w = alloc_arrays(w, w->layers, 0, 1, 1);
        s->b = alloc_arrays(w, w->layers, 1, 1, 0);
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

/* dz = dy ⊙ [y > 0] of one entry (dy where the layer has no ReLU), with
 * dy = act[L] at the top. */
static double dz_at(const workload *w, const net_state *s, int l, long m, long j)
{
    long N = wl_dim(w, l + 1);
    const float *dy = l == w->layers - 1 ? s->act[w->layers] : s->dx[l + 1];
    if (!wl_relu(w, l))
        return (double)dy[m * N + j];
    return s->act[l + 1][m * N + j] > 0.0f ? (double)dy[m * N + j] : 0.0;
}

/* check_y on the entries (m[t], j[t]), t < n, all at once: the sums run
 * over k outside, so that W is read along its rows (a column walk per
 * entry costs ten times as much at hidden 2048).  acc and scale: n doubles
 * each. */
static void check_y_many(const workload *w, const net_state *s, verify_result *r, int l, long n,
                         const long *m, const long *j, double *acc, double *scale)
{
    long K = wl_dim(w, l), N = wl_dim(w, l + 1), k, t;
    const int relu = wl_relu(w, l);
    const float *x = s->act[l], *W = w->w0[l], *b = w->b0[l];
    for (t = 0; t < n; t++) {
        acc[t] = b[j[t]];
        scale[t] = fabs(b[j[t]]);
    }
    for (k = 0; k < K; k++) {
        const float *row = W + k * N;
        for (t = 0; t < n; t++) {
            double p = (double)x[m[t] * K + k] * row[j[t]];
            acc[t] += p;
            scale[t] += fabs(p);
        }
    }
    for (t = 0; t < n; t++)
        judge(r, s->act[l + 1][m[t] * N + j[t]], acc[t] > 0.0 || !relu ? acc[t] : 0.0, scale[t], K,
              "y", l, m[t], j[t]);
}

static void check_dx(const workload *w, const net_state *s, verify_result *r, int l, long m, long i)
{
    long K = wl_dim(w, l), N = wl_dim(w, l + 1), k;
    const float *W = w->w0[l];
    double acc = 0.0, scale = 0.0;
    for (k = 0; k < N; k++) {
        double p = dz_at(w, s, l, m, k) * W[i * N + k];
        acc += p;
        scale += fabs(p);
    }
    judge(r, s->dx[l][m * K + i], acc, scale, N, "dx", l, m, i);
}

static void check_w(const workload *w, const net_state *s, verify_result *r, int l, long i, long j)
{
    long K = wl_dim(w, l), N = wl_dim(w, l + 1), B = w->batch, k;
    const float *x = s->act[l], *W = w->w0[l];
    double acc = 0.0, scale = fabs(W[i * N + j]);
    for (k = 0; k < B; k++) {
        double p = (double)x[k * K + i] * dz_at(w, s, l, k, j);
        acc += p;
        scale += w->lr * fabs(p);
    }
    judge(r, s->w[l][i * N + j], W[i * N + j] - w->lr * acc, scale, B, "W", l, i, j);
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

/* Layer l's checks: y on a diagonal through the output (shifted by a
 * random offset) that meets every row and every column once, so a fault
 * confined to one row or one column cannot pass, for max(B, N) entries,
 * then SAMPLES entries at random; in training dx, W and b the same way. */
static void check_layer(const workload *w, const net_state *s, verify_result *r, int l,
                        uint64_t *rng, long *ym, long *yj, double *acc)
{
    long K = wl_dim(w, l), N = wl_dim(w, l + 1), B = w->batch, t;
    long n = B > N ? B : N, ny = n + SAMPLES, nx = B > K ? B : K, nw = K > N ? K : N;
    long shift = (long)(next(rng) % (uint64_t)N);
    for (t = 0; t < n; t++) {
        ym[t] = t % B;
        yj[t] = (t + shift) % N;
    }
    for (t = n; t < ny; t++) {
        ym[t] = (long)(next(rng) % (uint64_t)B);
        yj[t] = (long)(next(rng) % (uint64_t)N);
    }
    check_y_many(w, s, r, l, ny, ym, yj, acc, acc + ny);
    if (w->mode != WL_TRAINING)
        return;
    if (K != N) /* the square stack keeps its one diagonal */
        shift = (long)(next(rng) % (uint64_t)K);
    for (t = 0; t < nx; t++)
        check_dx(w, s, r, l, t % B, (t + shift) % K);
    for (t = 0; t < nw; t++)
        check_w(w, s, r, l, t % K, (t + shift) % N);
    for (t = 0; t < N; t++)
        check_b(w, s, r, l, t);
    for (t = 0; t < SAMPLES; t++) {
        long m = (long)(next(rng) % (uint64_t)B), i = (long)(next(rng) % (uint64_t)K);
        check_dx(w, s, r, l, m, i);
    }
    for (t = 0; t < SAMPLES; t++) {
        long i = (long)(next(rng) % (uint64_t)K), j = (long)(next(rng) % (uint64_t)N);
        check_w(w, s, r, l, i, j);
    }
}

int verify_check(const workload *w, const net_state *s, verify_result *r, err *e)
{
    long H = w->hidden, B = w->batch, n = B > H ? B : H, ny = n + SAMPLES;
    uint64_t rng = 0x5eed;
    double *acc = malloc(2 * (size_t)ny * sizeof *acc);
    long *idx = malloc(2 * (size_t)ny * sizeof *idx);
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
    r->ok = 1;
    r->tolerance = 1.0;
    /* hidden is the widest size, so the buffers hold every layer's entries */
    for (l = 0; l < w->layers; l++)
        check_layer(w, s, r, l, &rng, idx, idx + ny, acc);
    free(acc);
    free(idx);
    return BE_OK;
}
