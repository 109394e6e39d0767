/*
 * backend.h — the contract between the sweep and a device that is measured.
 *
 * A backend (the CPU through OpenBLAS in cpu.c, OpenCL devices in clgemm.c)
 * is a table of operations over an opaque device handle.  The sweep gives it
 * one workload at a time (a stack of dense layers at one hidden width and
 * batch size), asks it to run timed steps, and once per point asks for the
 * network state after one step so that verify.c can check it against a host
 * reference.  Backends know nothing of statistics, budgets or files, and
 * call nothing above them: they describe their devices with devinfo.h.
 *
 * Layout conventions shared by every backend (row-major, fp32), for layer l
 * with K = wl_dim(w, l) inputs and N = wl_dim(w, l + 1) outputs (both the
 * hidden width in the square stack, a network's sizes otherwise):
 *   x      batch × K         the activations entering a layer
 *   W      K × N             W[i*N + j] connects input i to output j
 *   b      N
 *   y      batch × N         y = ReLU(x·W + b), or x·W + b for the last
 *                            layer of a network (wl_relu)
 * Training adds, per layer from the top down, with dy the gradient arriving
 * at the layer's output (dy = y_L at the top: loss = ½·Σ y_L²):
 *   dz = dy ⊙ [y > 0]      dW = xᵀ·dz      db = Σ_rows dz      dx = dz·Wᵀ
 *   (dz = dy for a layer without ReLU)
 *   W ← W − lr·dW          b ← b − lr·db   (dx uses W before the update)
 */
#ifndef BE_BACKEND_H
#define BE_BACKEND_H

#include <stddef.h>

#include "devinfo.h"
#include "err.h"

typedef enum { WL_INFERENCE = 0, WL_TRAINING = 1 } wl_mode;

#define WL_MAX_LAYERS 64

/* One point's workload.  The arrays belong to the caller (workload.c makes
 * them from the seed) and outlive every backend call that receives them. */
typedef struct workload {
    wl_mode mode;
    int layers, hidden, batch;   /* hidden: the widest size of a network   */
    float lr;                    /* SGD learning rate (training only)       */
    const float *x0;             /* batch × wl_dim(0) network input         */
    const float *const *w0;      /* layers arrays of wl_dim(l) × wl_dim(l+1) */
    const float *const *b0;      /* layers arrays of wl_dim(l+1)            */
    int dims[WL_MAX_LAYERS + 1]; /* a network's sizes; all 0: the square
                                    stack, every size `hidden`          */
    int linear_last;             /* no ReLU after the last layer (networks) */
    int weights_on_host;         /* time step_times.whost too (networks)     */
} workload;

/* Size i of w (0: its input, layers: its output). */
static inline int wl_dim(const workload *w, int i)
{
    return w->dims[0] ? w->dims[i] : w->hidden;
}

/* Whether layer l applies ReLU. */
static inline int wl_relu(const workload *w, int l)
{
    return !(w->linear_last && l == w->layers - 1);
}

/* What one timed step cost.  Times are seconds; a field a backend cannot
 * measure is negative (the CPU has no kernel events and no transfers). */
typedef struct step_times {
    double wall;   /* host wall time of the step, data already resident  */
    double kernel; /* sum of every kernel's profiled time in the step    */
    double h2d;    /* upload of the step's input batch                   */
    double d2h;    /* read-back of the step's output                     */
    double total;  /* host wall time of upload + step + read-back        */
    double whost;  /* weights on the host: the upload of every W and b,
                      then as total; negative when not measured          */
    double far;    /* 1 when the host's CPUs were a cache apart around the
                      sample's visit (cachehop.h), else 0: set by the
                      sweep, never by a backend (a double, so that the
                      struct holds doubles only: archive.c compares
                      samples with memcmp)                                */
} step_times;

/* The network after exactly one step from the initial parameters, copied to
 * host memory by the backend (`state`).  Arrays are allocated by the caller
 * with the workload's shapes; the backend fills them. */
typedef struct net_state {
    float *
        *act; /* layers+1 arrays batch × wl_dim(l): act[0] = input, act[l+1] = output of layer l */
    float **dx; /* training: layers arrays batch × wl_dim(l), gradient w.r.t. layer l's input */
    float **w;  /* training: layers arrays wl_dim(l) × wl_dim(l+1), weights after the update */
    float **b;  /* training: layers arrays wl_dim(l+1), biases after the update          */
} net_state;

/* Which library a backend measures with.  device_info.kind is its name
 * as the results file stores it ("openblas", "opencl", "framework": an
 * adapter process speaking docs/devices.md's protocol); code that must
 * tell the backends apart asks the ops table (backend_ops.kind). */
typedef enum { BACKEND_OPENBLAS = 0, BACKEND_OPENCL = 1, BACKEND_FRAMEWORK = 2 } backend_kind;

typedef struct backend_ops {
    backend_kind kind;
    /* Allocates the device-side copy of w (weights, biases, input, the
     * activations) and uploads it.  Returns BE_EOOM when the device cannot
     * hold it (the sweep records an out-of-memory point and goes on). */
    int (*prepare)(void *dev, const workload *w, void **run, err *e);
    /* Restores the initial parameters (training steps change them). */
    int (*reset)(void *run, err *e);
    /* Runs one step (forward, plus backward and update in training). */
    int (*step)(void *run, step_times *t, err *e);
    /* Copies the current network state to s (see net_state). */
    int (*state)(void *run, net_state *s, err *e);
    void (*release)(void *run);
    /* What readying the device cost outside any measurement: the seconds
     * of the kernel builds or binary loads of the programs it holds (0
     * before any; OpenCL holds one per configuration in use, one for
     * both modes or one each), added up, and whether the binary cache
     * served every one.  NULL for a backend that builds nothing (the
     * CPU). */
    void (*build_info)(const void *dev, double *seconds, int *cache_hit);
    /* The mean time of each layer over the steps since the last call (or
     * since prepare) into mean[0..layers), forward and backward together;
     * then starts counting afresh.  mean NULL: only starts afresh.  OpenCL:
     * the layer's kernels' event times; the CPU: the host clock around the
     * layer's calls.  Returns the number of steps counted. */
    long (*layer_times)(void *run, double *mean);
    /* Sets the seconds any one later call may take before the device is
     * taken out of service (the sweep derives it from the budget:
     * sweep_call_limit).  NULL for a backend that runs in breakeven's own
     * process (the CPU, OpenCL), whose calls cannot be cut short. */
    void (*set_limit)(void *dev, double seconds);
    /* The CPU time, in clock ticks, that the process computing for the
     * device (a framework's adapter) spent within its visits so far (from
     * prepare to release): breakeven's own, not the machine's other load
     * (machstate.h).  What the adapter spends between visits slows the
     * devices measured meanwhile, and counts as another process's load.
     * NULL for a backend in breakeven's own process. */
    unsigned long long (*own_ticks)(void *dev);
} backend_ops;

/* A device the sweep can measure: its description, its operations and the
 * backend's handle. */
typedef struct device {
    device_info info;
    const backend_ops *ops;
    void *handle;
} device;

#endif
