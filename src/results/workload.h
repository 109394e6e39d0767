/*
 * workload.h — what one point of the sweep computes, and how much.
 *
 * Owns the FLOP counts (the numbers every rate in breakeven is derived
 * from), the deterministic pseudo-random inputs made from --seed, and the
 * memory a point needs, so that the planner can refuse a sweep before it
 * allocates anything.
 *
 * FLOPs per layer, H = hidden width, B = batch:
 *   inference  (2·H² + H)·B                 matmul 2·H²·B, bias H·B (the M1
 *                                            post's count; ReLU is not counted)
 *   training   (6·H² + 3·H)·B + 2·H² + 2·H  forward, dReLU H·B, dW 2·H²·B,
 *                                            dx 2·H²·B, db H·B, SGD 2·H² + 2·H
 * Training computes dx for every layer, the first included, so the count is
 * the same for each layer.
 */
#ifndef BE_WORKLOAD_H
#define BE_WORKLOAD_H

#include <stdint.h>

#include "backend.h"
#include "net.h"

double workload_flops_per_layer(wl_mode mode, int hidden, int batch);

const char *workload_mode_name(wl_mode mode);

/* Bytes of host memory one point needs: the inputs made here, the CPU
 * backend's buffers and the verification copy. */
double workload_host_bytes(wl_mode mode, int layers, int hidden, int batch);
/* Bytes a device needs to hold the point (inputs, parameters, scratch). */
double workload_device_bytes(wl_mode mode, int layers, int hidden, int batch);
/* The same for a network (net.h). */
double workload_net_host_bytes(wl_mode mode, const net_spec *n, int batch);
double workload_net_device_bytes(wl_mode mode, const net_spec *n, int batch);

/* A workload together with the storage behind its arrays. */
typedef struct workload_data {
    workload w;
    float *x0;
    float **w0, **b0;
} workload_data;

/* Fills d with seeded data: x uniform in [-1, 1], W uniform with He scaling
 * (±√(6/H), so activations keep their size through ReLU layers), b uniform
 * in [-0.1, 0.1].  The same seed and shape give the same bits on every
 * machine.  Free with workload_free.  BE_EFAIL on allocation failure. */
int workload_make(workload_data *d, wl_mode mode, int layers, int hidden, int batch, uint64_t seed,
                  err *e);
/* The same for a network: W of layer l uniform in ±√(6/K) for its K
 * inputs, no ReLU after the last layer.  A square network made here gives
 * the same bits as workload_make. */
int workload_make_net(workload_data *d, wl_mode mode, const net_spec *n, int batch, uint64_t seed,
                      err *e);
void workload_free(workload_data *d);

/* Frees a[0..n) and a itself (a may be NULL, and so may each a[i]); for the
 * backends' per-layer arrays. */
void workload_free_arrays(float **a, int n);

/* What a backend counts for backend_ops.layer_times: each layer's
 * seconds, summed over the steps since the last call, and those steps. */
typedef struct workload_layer_clock {
    double sum[WL_MAX_LAYERS];
    long steps;
} workload_layer_clock;

/* backend_ops.layer_times over c, for a point of `layers` layers: the
 * means into mean[0..layers) (unless mean is NULL), then c starts afresh.
 * Returns the steps counted. */
long workload_layer_times(workload_layer_clock *c, int layers, double *mean);

#endif
