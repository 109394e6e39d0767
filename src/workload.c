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

double workload_host_bytes(wl_mode mode, int layers, int hidden, int batch)
{
    double act = (double)hidden * batch * sizeof(float);
    double par = ((double)hidden * hidden + hidden) * sizeof(float);
    /* inputs (x0, W, b), the CPU buffers (activations, a working copy of the
     * parameters) and the verification state (activations, and in training
     * dx and the updated parameters) */
    double bytes = act + layers * par + (layers + 1) * act + layers * par + (layers + 1) * act;
    if (mode == WL_TRAINING)
        bytes += 2 * act + layers * act + layers * par;
    return bytes;
}

double workload_device_bytes(wl_mode mode, int layers, int hidden, int batch)
{
    double act = (double)hidden * batch * sizeof(float);
    double par = ((double)hidden * hidden + hidden) * sizeof(float);
    double bytes = (layers + 1) * act + layers * par;
    if (mode == WL_TRAINING)
        bytes += 2 * act + layers * par;
    return bytes;
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

int workload_make(workload_data *d, wl_mode mode, int layers, int hidden, int batch, uint64_t seed,
                  err *e)
{
    size_t hh = (size_t)hidden * (size_t)hidden;
    uint64_t s = seed;
    int l;

    memset(d, 0, sizeof *d);
    d->w.mode = mode;
    d->w.layers = layers;
    d->w.hidden = hidden;
    d->w.batch = batch;
    d->w.lr = 1e-4f;
    d->x0 = malloc((size_t)batch * (size_t)hidden * sizeof(float));
    d->w0 = calloc((size_t)layers, sizeof *d->w0);
    d->b0 = calloc((size_t)layers, sizeof *d->b0);
    if (!d->x0 || !d->w0 || !d->b0)
        goto fail;
    fill(d->x0, (size_t)batch * (size_t)hidden, 1.0f, &s);
    for (l = 0; l < layers; l++) {
        d->w0[l] = malloc(hh * sizeof(float));
        d->b0[l] = malloc((size_t)hidden * sizeof(float));
        if (!d->w0[l] || !d->b0[l])
            goto fail;
        fill(d->w0[l], hh, sqrtf(6.0f / (float)hidden), &s);
        fill(d->b0[l], (size_t)hidden, 0.1f, &s);
    }
    d->w.x0 = d->x0;
    d->w.w0 = (const float *const *)d->w0;
    d->w.b0 = (const float *const *)d->b0;
    return BE_OK;
fail:
    workload_free(d);
    return err_set(e, BE_EFAIL, "out of host memory for the inputs of hidden=%d batch=%d", hidden,
                   batch);
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
