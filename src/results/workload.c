/*
 * workload.c — FLOP counts, seeded inputs and memory estimates (workload.h).
 *
 * The generator is splitmix64 (rng.h): tiny, well mixed, and fully
 * specified, so a seed means the same data everywhere and results from two
 * machines measure the same arithmetic.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

double workload_flops_per_layer(wl_mode mode, int hidden, int batch)
{
    double h = hidden, b = batch;
    if (mode == WL_TRAINING)
        return (6.0 * h * h + 3.0 * h) * b + 2.0 * h * h + 2.0 * h;
    return (2.0 * h * h + h) * b;
}

const char *workload_mode_name(wl_mode mode)
{
    return mode == WL_TRAINING ? "training" : "inference";
}

/* n as a square stack of hidden (for the square sweep's estimates). */
static void square(net_spec *n, int layers, int hidden)
{
    int l;
    memset(n, 0, sizeof *n);
    n->layers = layers;
    for (l = 0; l <= layers; l++)
        n->dims[l] = hidden;
}

double workload_net_host_bytes(wl_mode mode, const net_spec *n, int batch)
{
    double act = 0.0, par = 0.0, in = (double)n->dims[0] * batch * sizeof(float);
    int l;
    for (l = 0; l <= n->layers; l++)
        act += (double)n->dims[l] * batch * sizeof(float);
    for (l = 0; l < n->layers; l++)
        par += ((double)n->dims[l] * n->dims[l + 1] + n->dims[l + 1]) * sizeof(float);
    /* inputs (x0, W, b), the CPU buffers (activations, a working copy of the
     * parameters) and the verification state (activations, and in training
     * dx, the CPU's scratch and the updated parameters) */
    {
        double bytes = in + par + act + par + act;
        if (mode == WL_TRAINING)
            bytes += 2 * (double)net_widest(n) * batch * sizeof(float) + (act - in) + par;
        return bytes;
    }
}

double workload_net_device_bytes(wl_mode mode, const net_spec *n, int batch)
{
    double act = 0.0, par = 0.0;
    int l;
    for (l = 0; l <= n->layers; l++)
        act += (double)n->dims[l] * batch * sizeof(float);
    for (l = 0; l < n->layers; l++)
        par += ((double)n->dims[l] * n->dims[l + 1] + n->dims[l + 1]) * sizeof(float);
    /* in training also dx and the scratch of the widest layer */
    return mode == WL_TRAINING ? act + 2 * par + 2 * (double)net_widest(n) * batch * sizeof(float)
                               : act + par;
}

double workload_host_bytes(wl_mode mode, int layers, int hidden, int batch)
{
    net_spec n;
    square(&n, layers, hidden);
    return workload_net_host_bytes(mode, &n, batch);
}

double workload_device_bytes(wl_mode mode, int layers, int hidden, int batch)
{
    net_spec n;
    square(&n, layers, hidden);
    return workload_net_device_bytes(mode, &n, batch);
}

/* Uniform in [-a, a], from the top 24 bits so every value is exact in fp32. */
static void fill(float *v, size_t n, float a, uint64_t *s)
{
    size_t i;
    for (i = 0; i < n; i++) {
        float u = (float)(rng_next(s) >> 40) * (1.0f / 16777216.0f);
        v[i] = a * (2.0f * u - 1.0f);
    }
}

void workload_free(workload_data *d)
{
    int l;
    if (!d)
        return;
    free(d->x0);
    for (l = 0; l < d->w.layers; l++) {
        if (d->w0)
            free(d->w0[l]);
        if (d->b0)
            free(d->b0[l]);
    }
    free(d->w0);
    free(d->b0);
    memset(d, 0, sizeof *d);
}

/* Fills d for the sizes of n; square: the workload keeps dims 0 (wl_dim
 * gives hidden) and ReLU on every layer, as the square stack always had. */
static int make(workload_data *d, wl_mode mode, const net_spec *n, int sq, int batch, uint64_t seed,
                err *e)
{
    uint64_t s = seed;
    int l;

    memset(d, 0, sizeof *d);
    d->w.mode = mode;
    d->w.layers = n->layers;
    d->w.hidden = net_widest(n);
    d->w.batch = batch;
    d->w.lr = 1e-4f;
    if (!sq) {
        memcpy(d->w.dims, n->dims, (size_t)(n->layers + 1) * sizeof *n->dims);
        d->w.linear_last = 1;
        d->w.weights_on_host = 1;
    }
    d->x0 = malloc((size_t)batch * (size_t)n->dims[0] * sizeof(float));
    d->w0 = calloc((size_t)n->layers, sizeof *d->w0);
    d->b0 = calloc((size_t)n->layers, sizeof *d->b0);
    if (!d->x0 || !d->w0 || !d->b0)
        goto fail;
    fill(d->x0, (size_t)batch * (size_t)n->dims[0], 1.0f, &s);
    for (l = 0; l < n->layers; l++) {
        size_t kn = (size_t)n->dims[l] * (size_t)n->dims[l + 1];
        d->w0[l] = malloc(kn * sizeof(float));
        d->b0[l] = malloc((size_t)n->dims[l + 1] * sizeof(float));
        if (!d->w0[l] || !d->b0[l])
            goto fail;
        fill(d->w0[l], kn, sqrtf(6.0f / (float)n->dims[l]), &s);
        fill(d->b0[l], (size_t)n->dims[l + 1], 0.1f, &s);
    }
    d->w.x0 = d->x0;
    d->w.w0 = (const float *const *)d->w0;
    d->w.b0 = (const float *const *)d->b0;
    return BE_OK;
fail:
    workload_free(d);
    if (sq)
        return err_set(e, BE_EFAIL, "out of host memory for the inputs of hidden=%d batch=%d",
                       n->dims[0], batch);
    return err_set(e, BE_EFAIL, "out of host memory for the inputs of network %s batch=%d", n->name,
                   batch);
}

int workload_make(workload_data *d, wl_mode mode, int layers, int hidden, int batch, uint64_t seed,
                  err *e)
{
    net_spec n;
    square(&n, layers, hidden);
    return make(d, mode, &n, 1, batch, seed, e);
}

int workload_make_net(workload_data *d, wl_mode mode, const net_spec *n, int batch, uint64_t seed,
                      err *e)
{
    return make(d, mode, n, 0, batch, seed, e);
}

void workload_free_arrays(float **a, int n)
{
    int i;
    if (!a)
        return;
    for (i = 0; i < n; i++)
        free(a[i]);
    free(a);
}

long workload_layer_times(workload_layer_clock *c, int layers, double *mean)
{
    long n = c->steps;
    int l;
    for (l = 0; l < layers; l++) {
        if (mean)
            mean[l] = n > 0 ? c->sum[l] / (double)n : 0.0;
        c->sum[l] = 0.0;
    }
    c->steps = 0;
    return n;
}
