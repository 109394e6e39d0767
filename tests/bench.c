/*
 * bench.c — `make bench`: speed ratios measured side by side in one run.
 *
 * Each line times two things on the same shape, alternating sample by
 * sample so that the machine's noise hits both alike, and prints their
 * medians as GFLOP/s and the ratio of times.  Absolute numbers vary from
 * run to run on a shared machine; the ratios are what to compare.
 *
 *   forward layer vs raw sgemm: breakeven's CPU forward layer (sgemm plus
 *   the bias+ReLU pass) against a bare cblas_sgemm loop of the same shape.
 *   The ratio says what our epilogue costs (target ≥ 0.97).
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "host.h"
#include "stats.h"
#include "workload.h"

#define ROUNDS 15

static double median(double *v, int n)
{
    stats_summary s;
    return stats_summarize(v, n, &s, NULL) == BE_OK ? s.median : 0.0;
}

static int forward_vs_sgemm(int hidden, int batch)
{
    double t_raw[ROUNDS], t_fwd[ROUNDS], raw, fwd, gemm_flops;
    workload_data d;
    device dev;
    step_times t;
    float *y;
    void *run;
    err e;
    int i;

    if (cpu_discover(&dev, 0, &e) < 0 ||
        workload_make(&d, WL_INFERENCE, 1, hidden, batch, 1, &e) < 0)
        goto fail;
    if (dev.ops->prepare(dev.handle, &d.w, &run, &e) < 0) {
        workload_free(&d);
        goto fail;
    }
    y = malloc((size_t)hidden * (size_t)batch * sizeof *y);
    if (!y) {
        dev.ops->release(run);
        workload_free(&d);
        return 1;
    }
    for (i = -2; i < ROUNDS; i++) { /* two warm-up rounds */
        double t0;
        if (dev.ops->step(run, &t, &e) < 0)
            break;
        t0 = host_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, hidden, hidden, 1.0f,
                    d.x0, hidden, d.w0[0], hidden, 0.0f, y, hidden);
        t0 = host_seconds() - t0;
        if (i >= 0) {
            t_raw[i] = t0;
            t_fwd[i] = t.wall;
        }
    }
    raw = median(t_raw, ROUNDS);
    fwd = median(t_fwd, ROUNDS);
    gemm_flops = 2.0 * hidden * (double)hidden * batch;
    printf("%-28s %6d %6d %14.1f %14.1f %8.3f\n", "forward layer vs raw sgemm", hidden, batch,
           workload_flops_per_layer(WL_INFERENCE, hidden, batch) / fwd / 1e9,
           gemm_flops / raw / 1e9, raw / fwd);
    free(y);
    dev.ops->release(run);
    workload_free(&d);
    return 0;
fail:
    fprintf(stderr, "bench: %s\n", e.msg);
    return 1;
}

int main(void)
{
    static const int shapes[][2] = {{128, 16}, {512, 128}, {2048, 256}, {2048, 1024}};
    int i, rc = 0;
    printf("%-28s %6s %6s %14s %14s %8s\n", "comparison (medians of 15)", "hidden", "batch",
           "ours GFLOP/s", "theirs GFLOP/s", "ratio");
    for (i = 0; i < (int)(sizeof shapes / sizeof *shapes); i++)
        rc |= forward_vs_sgemm(shapes[i][0], shapes[i][1]);
    printf("ratio = their time / our time (1.0 = as fast; above 1.0 = we are faster)\n");
    return rc;
}
