/*
 * cpu.c — the OpenBLAS backend (see cpu.h and the conventions in backend.h).
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "cpu.h"

#include <cblas.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "workload.h"

typedef struct cpu_run {
    workload w;
    float **act;                /* layers+1: act[0] holds the input */
    float **par;                /* layers weights then layers biases: the working copy */
    float **dx;                 /* training: gradient w.r.t. each layer's input */
    float *dz;                  /* training: dy ⊙ [y > 0] of the layer being processed */
    float *db;                  /* training: bias gradient of that layer */
    workload_layer_clock clock; /* the host clock around each layer's calls */
} cpu_run;

/* Elements of the activations entering layer l (l = layers: the output). */
static size_t act_len(const workload *w, int l)
{
    return (size_t)w->batch * (size_t)wl_dim(w, l);
}
static size_t w_len(const workload *w, int l)
{
    return (size_t)wl_dim(w, l) * (size_t)wl_dim(w, l + 1);
}

static void cpu_release(void *p)
{
    cpu_run *r = p;
    if (!r)
        return;
    workload_free_arrays(r->act, r->w.layers + 1);
    workload_free_arrays(r->par, 2 * r->w.layers);
    workload_free_arrays(r->dx, r->w.layers);
    free(r->dz);
    free(r->db);
    free(r);
    cpu_park();
}

void cpu_park(void)
{
    /* After a call, the threads of OpenBLAS's pthread build spin for 2^28
     * cycles (OPENBLAS_THREAD_TIMEOUT, read when the library loads): a
     * whole core for about 0.1 s, which the next device's visit on a
     * 2-core host lost (docs/statistics.md).  The library's own shutdown,
     * which it runs before a fork, ends them; its next call starts them
     * again, in the next visit's warm-up.  Looked up at run time: the
     * OpenMP and serial builds have neither the threads nor the symbol. */
    int (*shutdown)(void);
    *(void **)&shutdown = dlsym(RTLD_DEFAULT, "blas_thread_shutdown_");
    if (shutdown)
        shutdown();
}

/* n arrays, array i of len(w, i + first) floats. */
static float **alloc_arrays(const workload *w, int n, int first,
                            size_t (*len)(const workload *, int))
{
    float **a = calloc((size_t)n, sizeof *a);
    int i;
    if (!a)
        return NULL;
    for (i = 0; i < n; i++)
        if (!(a[i] = malloc(len(w, i + first) * sizeof(float)))) {
            workload_free_arrays(a, n);
            return NULL;
        }
    return a;
}

static int cpu_reset(void *p, err *e)
{
    cpu_run *r = p;
    int l;
    (void)e;
    memcpy(r->act[0], r->w.x0, act_len(&r->w, 0) * sizeof(float));
    for (l = 0; l < r->w.layers; l++) {
        memcpy(r->par[l], r->w.w0[l], w_len(&r->w, l) * sizeof(float));
        memcpy(r->par[r->w.layers + l], r->w.b0[l], (size_t)wl_dim(&r->w, l + 1) * sizeof(float));
    }
    return BE_OK;
}

static int cpu_prepare(void *dev, const workload *w, void **run, err *e)
{
    cpu_run *r = calloc(1, sizeof *r);
    int l;
    (void)dev;
    *run = NULL;
    if (!r)
        goto oom;
    r->w = *w;
    r->act = alloc_arrays(w, w->layers + 1, 0, act_len);
    r->par = calloc(2 * (size_t)w->layers, sizeof *r->par);
    if (!r->act || !r->par)
        goto oom;
    for (l = 0; l < w->layers; l++) {
        r->par[l] = malloc(w_len(w, l) * sizeof(float));
        r->par[w->layers + l] = malloc((size_t)wl_dim(w, l + 1) * sizeof(float));
        if (!r->par[l] || !r->par[w->layers + l])
            goto oom;
    }
    if (w->mode == WL_TRAINING) {
        /* hidden is the widest size: dz and db fit every layer */
        r->dx = alloc_arrays(w, w->layers, 0, act_len);
        r->dz = malloc((size_t)w->batch * (size_t)w->hidden * sizeof(float));
        r->db = malloc((size_t)w->hidden * sizeof(float));
        if (!r->dx || !r->dz || !r->db)
            goto oom;
    }
    cpu_reset(r, e);
    *run = r;
    return BE_OK;
oom:
    cpu_release(r);
    return err_set(e, BE_EOOM, "cpu: out of host memory for hidden=%d batch=%d layers=%d",
                   w->hidden, w->batch, w->layers);
}

/* y = ReLU(y + b) over a batch × hidden block, row by row so the bias stays
 * in cache.  ReLU is written without a branch, (v + |v|)·½, which is exact
 * (v + v and the halving are exact in floating point): half of the signs are
 * random, and a compare-and-branch mispredicted so often that this pass
 * cost a quarter of the sgemm's time at hidden 2048 × batch 1024. */
static void bias_relu(float *restrict y, const float *restrict b, int batch, int hidden)
{
    int m, j, k;
    for (m = 0; m < batch; m++) {
        float *row = y + (size_t)m * (size_t)hidden;
        /* blocks of 8 independent lanes, which the compiler turns into
         * vector instructions even at -O2 */
        for (j = 0; j + 8 <= hidden; j += 8) {
            float v[8];
            for (k = 0; k < 8; k++)
                v[k] = row[j + k] + b[j + k];
            for (k = 0; k < 8; k++)
                row[j + k] = (v[k] + fabsf(v[k])) * 0.5f;
        }
        for (; j < hidden; j++) {
            float v = row[j] + b[j];
            row[j] = (v + fabsf(v)) * 0.5f;
        }
    }
}

/* y = y + b: a network's last layer, which has no ReLU. */
static void bias_only(float *restrict y, const float *restrict b, int batch, int n)
{
    int m, j;
    for (m = 0; m < batch; m++) {
        float *row = y + (size_t)m * (size_t)n;
        for (j = 0; j < n; j++)
            row[j] += b[j];
    }
}

static void forward(cpu_run *r)
{
    int B = r->w.batch, l;
    for (l = 0; l < r->w.layers; l++) {
        int K = wl_dim(&r->w, l), N = wl_dim(&r->w, l + 1);
        double t0 = host_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, N, K, 1.0f, r->act[l], K,
                    r->par[l], N, 0.0f, r->act[l + 1], N);
        if (wl_relu(&r->w, l))
            bias_relu(r->act[l + 1], r->par[r->w.layers + l], B, N);
        else
            bias_only(r->act[l + 1], r->par[r->w.layers + l], B, N);
        r->clock.sum[l] += host_seconds() - t0;
    }
}

static void backward(cpu_run *r)
{
    int B = r->w.batch, L = r->w.layers, l, m, j;
    const float *dy = r->act[L]; /* loss ½·Σy² */
    float lr = r->w.lr;

    for (l = L - 1; l >= 0; l--) {
        const int K = wl_dim(&r->w, l), N = wl_dim(&r->w, l + 1);
        const float *y = r->act[l + 1];
        float *b = r->par[L + l];
        size_t i, n = act_len(&r->w, l + 1);
        double t0 = host_seconds();

        if (wl_relu(&r->w, l))
            for (i = 0; i < n; i++)
                r->dz[i] = y[i] > 0.0f ? dy[i] : 0.0f;
        else
            memcpy(r->dz, dy, n * sizeof(float));
        /* dx before the update: it needs the old weights */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, B, K, N, 1.0f, r->dz, N, r->par[l], N,
                    0.0f, r->dx[l], K);
        memset(r->db, 0, (size_t)N * sizeof(float));
        for (m = 0; m < B; m++) {
            const float *row = r->dz + (size_t)m * (size_t)N;
            for (j = 0; j < N; j++)
                r->db[j] += row[j];
        }
        for (j = 0; j < N; j++)
            b[j] -= lr * r->db[j];
        /* W ← W − lr·xᵀ·dz in one sgemm */
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, K, N, B, -lr, r->act[l], K, r->dz, N,
                    1.0f, r->par[l], N);
        r->clock.sum[l] += host_seconds() - t0;
        dy = r->dx[l];
    }
}

static int cpu_step(void *p, step_times *t, err *e)
{
    cpu_run *r = p;
    double t0 = host_seconds();
    (void)e;
    forward(r);
    if (r->w.mode == WL_TRAINING)
        backward(r);
    t->wall = t->total = host_seconds() - t0;
    r->clock.steps++;
    t->kernel = t->h2d = t->d2h = t->whost = -1.0;
    return BE_OK;
}

static int cpu_state(void *p, net_state *s, err *e)
{
    cpu_run *r = p;
    int l;
    (void)e;
    for (l = 0; l <= r->w.layers; l++)
        memcpy(s->act[l], r->act[l], act_len(&r->w, l) * sizeof(float));
    if (r->w.mode == WL_TRAINING)
        for (l = 0; l < r->w.layers; l++) {
            memcpy(s->dx[l], r->dx[l], act_len(&r->w, l) * sizeof(float));
            memcpy(s->w[l], r->par[l], w_len(&r->w, l) * sizeof(float));
            memcpy(s->b[l], r->par[r->w.layers + l], (size_t)wl_dim(&r->w, l + 1) * sizeof(float));
        }
    return BE_OK;
}

static long cpu_layer_times(void *p, double *mean)
{
    cpu_run *r = p;
    return workload_layer_times(&r->clock, r->w.layers, mean);
}

/* No kernels to build: build_info stays NULL. */
static const backend_ops cpu_ops = {
    .layer_times = cpu_layer_times,
    .kind = BACKEND_OPENBLAS,
    .prepare = cpu_prepare,
    .reset = cpu_reset,
    .step = cpu_step,
    .state = cpu_state,
    .release = cpu_release,
};

void cpu_blas_info(char *version, size_t vsize, char *config, size_t csize, char *core,
                   size_t coresize, int *threads)
{
    const char *cfg = openblas_get_config();
    char first[64] = "", second[64] = "";

    /* the config string starts "OpenBLAS 0.3.21 ..." */
    if (cfg && sscanf(cfg, "%63s %63s", first, second) == 2 && strcmp(first, "OpenBLAS") == 0)
        snprintf(version, vsize, "%s", second);
    else
        snprintf(version, vsize, "unknown");
    snprintf(config, csize, "%s", cfg ? cfg : "unknown");
    snprintf(core, coresize, "%s", openblas_get_corename());
    *threads = openblas_get_num_threads();
}

const char *cpu_blas_better_core(const char *core, const char *isa, const char *vendor)
{
    /* OpenBLAS's DYNAMIC_ARCH falls back to these when it does not know the
     * CPU, as under hypervisors that hide its model */
    static const char *const old[] = {"Prescott",  "Core2",      "Penryn",      "Dunnington",
                                      "Nehalem",   "Atom",       "Katmai",      "Coppermine",
                                      "Northwood", "Banias",     "Opteron",     "Opteron_SSE3",
                                      "Barcelona", "Bobcat",     "Nano",        "Sandybridge",
                                      "Bulldozer", "Piledriver", "Steamroller", "Excavator"};
    const int amd = strstr(vendor, "AMD") != NULL;
    size_t i;
    for (i = 0; i < sizeof old / sizeof *old; i++)
        if (strcmp(core, old[i]) == 0)
            break;
    if (i == sizeof old / sizeof *old)
        return NULL;
    if (strcmp(isa, "avx512") == 0)
        return amd ? "Zen" : "SkylakeX";
    if (strcmp(isa, "avx2") == 0)
        return amd ? "Zen" : "Haswell";
    return NULL;
}

int cpu_discover(device *dev, int threads, err *e)
{
    device_info *d = &dev->info;
    char version[64], config[256], core[64], vendor[128], isa[16];
    const char *better;
    int nthreads;

    (void)e;
    memset(dev, 0, sizeof *dev);
    openblas_set_num_threads(threads > 0 ? threads : host_cores());
    cpu_blas_info(version, sizeof version, config, sizeof config, core, sizeof core, &nthreads);
    snprintf(d->id, sizeof d->id, "cpu");
    snprintf(d->kind, sizeof d->kind, "openblas");
    snprintf(d->type, sizeof d->type, "CPU");
    host_cpu_model(d->name, sizeof d->name);
    host_cpu_vendor(vendor, sizeof vendor);
    snprintf(d->vendor, sizeof d->vendor, "%s", vendor);
    snprintf(d->driver, sizeof d->driver, "OpenBLAS %s", version);
    snprintf(d->library, sizeof d->library, "%s", config);
    devinfo_prop_add(d, "cores", "%d", host_cores());
    devinfo_prop_add(d, "openblas-version", "%s", version);
    devinfo_prop_add(d, "openblas-core", "%s", core);
    devinfo_prop_add(d, "openblas-threads", "%d", nthreads);
    host_cpu_isa(isa, sizeof isa);
    devinfo_prop_add(d, "isa", "%s", isa);
    if ((better = cpu_blas_better_core(core, isa, vendor)))
        devinfo_prop_add(d, "openblas-underuses",
                         "%s kernels on a CPU with %s: OPENBLAS_CORETYPE=%s "
                         "would use them",
                         core, isa, better);
    devinfo_prop_add(d, "memory-bytes", "%.0f", host_mem_total());
    /* with the cores and the isa, the CPU's peak (devinfo_peak) */
    if (host_cpu_max_mhz() > 0.0)
        devinfo_prop_add(d, "max_clock_mhz", "%.0f", host_cpu_max_mhz());
    dev->ops = &cpu_ops;
    dev->handle = NULL;
    return BE_OK;
}
