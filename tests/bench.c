/*
 * bench.c — `make bench`: speed ratios measured side by side in one run.
 *
 * Every comparison alternates its contenders sample by sample on the same
 * shape, so that the machine's noise hits them alike, and prints medians as
 * GFLOP/s and the ratios of times.  Absolute numbers vary from run to run on
 * a shared machine; compare the ratios.
 *
 * 1. CPU: breakeven's forward layer (cblas_sgemm plus the bias+ReLU pass)
 *    against a bare cblas_sgemm loop of the same shape: what our epilogue
 *    costs (target ≥ 0.97; ≥ 0.95 for the rectangular layers of networks,
 *    K inputs × N outputs: 784×512, 512×256, 256×10, 4096×16384).
 * 2. Each OpenCL device that `--devices all` measures: our fused forward
 *    kernel against CLBlast's sgemm followed by a separate bias+ReLU kernel
 *    on the same device, alternated, and both against OpenBLAS on the CPU,
 *    timed after them (its spinning threads would slow the others' waits).  Both OpenCL
 *    sides are timed on the host from the first enqueue to clFinish, data
 *    resident: CLBlast runs several kernels for a large sgemm (padding,
 *    transposition) and its event covers only the last, so event times
 *    would flatter it.  CLBlast's output is checked against the host
 *    before its time counts (ours is checked by the verifier as in a sweep).
 *
 * 3. The host's CPUs a cache apart (cachehop.h): for BENCH_HOP_SECONDS
 *    (default 60), three OpenBLAS GEMMs of batch 128 at hidden 1024, then
 *    one round trip between the CPUs, again and again.  It prints how
 *    often the round trip was far, the GEMMs' median time near and far,
 *    and how much a window of about 4 s (a pass of the bench-compare grid)
 *    varies from window to window: with every row, and with far rows left
 *    out (as the summaries leave far samples out) over the windows that
 *    have 3 near rows.
 *
 * CLBlast is a benchmark-only dependency: breakeven itself never links it.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cblas.h>
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachehop.h"
#include "cpu.h"
#include "device.h"
#include "host.h"
#include "stats.h"
#include "verify.h"
#include "net.h"
#include "workload.h"

#define ROUNDS 15
#define CL_ROUNDS 7

static double median(double *v, int n)
{
    stats_summary s;
    return stats_summarize(v, n, &s, NULL) == BE_OK ? s.median : 0.0;
}

/* ---- 1. the CPU forward layer against raw sgemm ------------------------ */

/* A one-layer K×N workload at batch, with ReLU (as CLBlast's side has)
 * and its weights kept on the device. */
static int layer_make(workload_data *d, int K, int N, int batch, err *e)
{
    net_spec n;
    char text[32];
    int rc;
    snprintf(text, sizeof text, "%d-%d", K, N);
    if ((rc = net_parse_sizes(text, "bench", &n, e)) < 0 ||
        (rc = workload_make_net(d, WL_INFERENCE, &n, batch, 1, e)) < 0)
        return rc;
    d->w.linear_last = 0;
    d->w.weights_on_host = 0;
    return BE_OK;
}

static int forward_vs_sgemm(const device *cpu, int K, int N, int batch)
{
    double t_raw[ROUNDS], t_fwd[ROUNDS], raw, fwd;
    workload_data d;
    step_times t;
    float *y = NULL;
    void *run = NULL;
    err e;
    int i, rc = 1;

    if (layer_make(&d, K, N, batch, &e) < 0)
        goto out;
    if (cpu->ops->prepare(cpu->handle, &d.w, &run, &e) < 0 ||
        !(y = malloc((size_t)N * (size_t)batch * sizeof *y)))
        goto out;
    for (i = -2; i < ROUNDS; i++) { /* two warm-up rounds */
        double t0 = host_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, N, K, 1.0f, d.x0, K, d.w0[0],
                    N, 0.0f, y, N);
        t0 = host_seconds() - t0;
        if (cpu->ops->step(run, &t, &e) < 0)
            goto out;
        if (i >= 0) {
            t_raw[i] = t0;
            t_fwd[i] = t.wall;
        }
    }
    raw = median(t_raw, ROUNDS);
    fwd = median(t_fwd, ROUNDS);
    printf("%6d %6d %6d %12.1f %12.1f %8.3f\n", K, N, batch,
           net_layer_flops(WL_INFERENCE, K, N, batch) / fwd / 1e9,
           2.0 * K * (double)N * batch / raw / 1e9, raw / fwd);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench: %s\n", e.msg);
    free(y);
    if (run)
        cpu->ops->release(run);
    workload_free(&d);
    return rc;
}

/* ---- 2. CLBlast on the same OpenCL device ----------------------------- */

static const char *bias_relu_src =
    "__kernel void bias_relu(__global float *y, __global const float *b, int n)\n"
    "{ int i = get_global_id(0), j = get_global_id(1);\n"
    "  float v = y[j * n + i] + b[i]; y[j * n + i] = v > 0.0f ? v : 0.0f; }\n";

typedef struct clblast_side {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem x, w, b, y;
} clblast_side;

static void clblast_close(clblast_side *s)
{
    if (s->x)
        clReleaseMemObject(s->x);
    if (s->w)
        clReleaseMemObject(s->w);
    if (s->b)
        clReleaseMemObject(s->b);
    if (s->y)
        clReleaseMemObject(s->y);
    if (s->k)
        clReleaseKernel(s->k);
    if (s->prog)
        clReleaseProgram(s->prog);
    if (s->q)
        clReleaseCommandQueue(s->q);
    if (s->ctx)
        clReleaseContext(s->ctx);
    memset(s, 0, sizeof *s);
}

/* The cl_device_id behind an id "cl:P.D". */
static cl_device_id find_device(const char *id)
{
    cl_platform_id plats[16];
    cl_device_id devs[32];
    cl_uint np = 0, nd = 0;
    int p, d;
    if (sscanf(id, "cl:%d.%d", &p, &d) != 2 || clGetPlatformIDs(16, plats, &np) != CL_SUCCESS ||
        p < 0 || (cl_uint)p >= np ||
        clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 32, devs, &nd) != CL_SUCCESS || d < 0 ||
        (cl_uint)d >= nd)
        return NULL;
    return devs[d];
}

static int clblast_open(clblast_side *s, cl_device_id dev, const workload *w)
{
    size_t in = (size_t)w->batch * (size_t)wl_dim(w, 0) * sizeof(float);
    size_t act = (size_t)w->batch * (size_t)wl_dim(w, 1) * sizeof(float);
    size_t par = (size_t)wl_dim(w, 0) * (size_t)wl_dim(w, 1) * sizeof(float);
    cl_int rc;

    memset(s, 0, sizeof *s);
    s->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->q = clCreateCommandQueue(s->ctx, dev, 0, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->prog = clCreateProgramWithSource(s->ctx, 1, &bias_relu_src, NULL, &rc);
    if (rc != CL_SUCCESS || (rc = clBuildProgram(s->prog, 1, &dev, "", NULL, NULL)) != CL_SUCCESS)
        return rc;
    s->k = clCreateKernel(s->prog, "bias_relu", &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->x = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in, (void *)w->x0, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->w =
        clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, par, (void *)w->w0[0], &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->b = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          (size_t)wl_dim(w, 1) * sizeof(float), (void *)w->b0[0], &rc);
    if (rc != CL_SUCCESS)
        return rc;
    s->y = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, act, NULL, &rc);
    return rc;
}

/* One CLBlast forward layer; its wall time (sgemm + bias+ReLU) in *t. */
static int clblast_step(clblast_side *s, const workload *w, double *t)
{
    const size_t K = (size_t)wl_dim(w, 0), N = (size_t)wl_dim(w, 1);
    size_t global[2] = {N, (size_t)w->batch};
    double t0 = host_seconds();
    int n = (int)N;
    cl_int rc;

    if (CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                     (size_t)w->batch, N, K, 1.0f, s->x, 0, K, s->w, 0, N, 0.0f, s->y, 0, N, &s->q,
                     NULL) != CLBlastSuccess)
        return -1;
    clSetKernelArg(s->k, 0, sizeof s->y, &s->y);
    clSetKernelArg(s->k, 1, sizeof s->b, &s->b);
    clSetKernelArg(s->k, 2, sizeof n, &n);
    rc = clEnqueueNDRangeKernel(s->q, s->k, 2, NULL, global, NULL, 0, NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = clFinish(s->q);
    *t = host_seconds() - t0;
    return rc == CL_SUCCESS ? 0 : -1;
}

/* Largest |CLBlast − host| relative to the row's scale, over the output. */
static double clblast_error(clblast_side *s, const workload *w)
{
    const int K = wl_dim(w, 0), N = wl_dim(w, 1);
    size_t n = (size_t)w->batch * (size_t)N, i;
    float *got = malloc(n * sizeof *got), *ref = malloc(n * sizeof *ref);
    double worst = INFINITY;
    if (got && ref &&
        clEnqueueReadBuffer(s->q, s->y, CL_TRUE, 0, n * sizeof *got, got, 0, NULL, NULL) ==
            CL_SUCCESS) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, w->batch, N, K, 1.0f, w->x0, K,
                    w->w0[0], N, 0.0f, ref, N);
        worst = 0.0;
        for (i = 0; i < n; i++) {
            double r = ref[i] + w->b0[0][i % (size_t)N];
            double d = fabs(got[i] - (r > 0.0 ? r : 0.0)) / (1.0 + fabs(r));
            if (!(d <= worst))
                worst = d;
        }
    }
    free(got);
    free(ref);
    return worst;
}

static int cl_vs_clblast(const device *cpu, const device *gpu, int K, int N, int batch)
{
    double t_ours[CL_ROUNDS], t_blast[CL_ROUNDS], t_cpu[CL_ROUNDS], t_kern[CL_ROUNDS], ours, blast,
        host, kern, f, error;
    cl_device_id id = find_device(gpu->info.id);
    workload_data d;
    clblast_side s;
    void *run = NULL, *crun = NULL;
    step_times t;
    err e;
    int i, rc = 1;

    memset(&s, 0, sizeof s);
    if (layer_make(&d, K, N, batch, &e) < 0)
        goto out;
    if (gpu->ops->prepare(gpu->handle, &d.w, &run, &e) < 0 ||
        cpu->ops->prepare(cpu->handle, &d.w, &crun, &e) < 0)
        goto out;
    if (!id || clblast_open(&s, id, &d.w) != CL_SUCCESS) {
        err_set(&e, BE_EFAIL, "%s: cannot set up CLBlast's buffers", gpu->info.id);
        goto out;
    }
    /* CLBlast has a context of its own: on a GPU, the first step after
     * the other side's costs a context switch, so each side takes an
     * untimed step before its timed one */
    for (i = -2; i < CL_ROUNDS; i++) {
        double tb;
        int k;
        for (k = 0; k < 2; k++)
            if (gpu->ops->step(run, &t, &e) < 0)
                goto out;
        if (i >= 0) {
            t_ours[i] = t.wall;
            t_kern[i] = t.kernel;
        }
        for (k = 0; k < 2; k++)
            if (clblast_step(&s, &d.w, &tb) < 0) {
                err_set(&e, BE_EFAIL, "%s: CLBlastSgemm failed", gpu->info.id);
                goto out;
            }
        if (i >= 0)
            t_blast[i] = tb;
    }
    /* OpenBLAS's threads spin for a while after each call and would take
     * the cores that the OpenCL driver's threads need, inflating the wall
     * times of the steps after a CPU step: the CPU is timed on its own */
    for (i = -2; i < CL_ROUNDS; i++) {
        if (cpu->ops->step(crun, &t, &e) < 0)
            goto out;
        if (i >= 0)
            t_cpu[i] = t.wall;
    }
    error = clblast_error(&s, &d.w);
    ours = median(t_ours, CL_ROUNDS);
    blast = median(t_blast, CL_ROUNDS);
    host = median(t_cpu, CL_ROUNDS);
    kern = median(t_kern, CL_ROUNDS);
    f = net_layer_flops(WL_INFERENCE, K, N, batch);
    printf("%-8s %6d %6d %6d %10.1f %10.1f %10.1f %12.2f %12.2f %10.1f%s\n", gpu->info.id, K, N,
           batch, f / ours / 1e9, f / blast / 1e9, f / host / 1e9, blast / ours, host / ours,
           f / kern / 1e9, error < 1e-3 ? "" : "  (CLBlast output WRONG: not comparable)");
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench: %s\n", e.msg);
    clblast_close(&s);
    if (run)
        gpu->ops->release(run);
    if (crun)
        cpu->ops->release(crun);
    workload_free(&d);
    return rc;
}

/* ---- 3. what waiting costs: the floor under every OpenCL step ------------ */

static const char *nop_src = "__kernel void nop(__global float *a)\n"
                             "{ if (get_global_id(0) == 0) a[0] += 1.0f; }\n";

/* Median seconds of `reps` launches of a one-item kernel on q, each waited
 * for by clFinish (how = 0), clWaitForEvents (1) or by polling the event's
 * status after clFlush (2). */
static double wait_cost(cl_command_queue q, cl_kernel k, int how, int reps)
{
    double t[64];
    size_t one = 1;
    int i;
    for (i = -4; i < reps; i++) {
        cl_event ev = NULL;
        cl_int st = CL_QUEUED;
        double t0 = host_seconds();
        if (clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, &ev) != CL_SUCCESS)
            return NAN;
        if (how == 0)
            clFinish(q);
        else if (how == 1)
            clWaitForEvents(1, &ev);
        else {
            clFlush(q);
            while (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
                       CL_SUCCESS &&
                   st > CL_COMPLETE)
                ;
        }
        if (i >= 0)
            t[i] = host_seconds() - t0;
        clReleaseEvent(ev);
    }
    return median(t, reps);
}

static int sync_floor(const device *g)
{
    static const char *const how[] = {"clFinish", "clWaitForEvents", "poll"};
    cl_device_id id = find_device(g->info.id);
    cl_context ctx = NULL;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem a = NULL;
    cl_command_queue q[2] = {NULL, NULL};
    cl_int rc = CL_INVALID_DEVICE;
    int i, j;

    if (id && (ctx = clCreateContext(NULL, 1, &id, NULL, NULL, &rc)) &&
        (prog = clCreateProgramWithSource(ctx, 1, &nop_src, NULL, &rc)) &&
        (rc = clBuildProgram(prog, 1, &id, "", NULL, NULL)) == CL_SUCCESS &&
        (k = clCreateKernel(prog, "nop", &rc)) &&
        (a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float), NULL, &rc)) &&
        (rc = clSetKernelArg(k, 0, sizeof a, &a)) == CL_SUCCESS &&
        (q[0] = clCreateCommandQueue(ctx, id, 0, &rc)) &&
        (q[1] = clCreateCommandQueue(ctx, id, CL_QUEUE_PROFILING_ENABLE, &rc))) {
        printf("3. %s: one launch of a one-item kernel and the wait for it, medians of 64 "
               "(microseconds)\n%-16s %12s %12s\n",
               g->info.id, "wait", "queue", "profiling");
        for (i = 0; i < 3; i++) {
            printf("%-16s", how[i]);
            for (j = 0; j < 2; j++)
                printf(" %12.1f", wait_cost(q[j], k, i, 64) * 1e6);
            printf("\n");
        }
        printf("\n");
    }
    for (i = 0; i < 2; i++)
        if (q[i])
            clReleaseCommandQueue(q[i]);
    if (a)
        clReleaseMemObject(a);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (ctx)
        clReleaseContext(ctx);
    if (rc != CL_SUCCESS)
        fprintf(stderr, "bench: %s: the wait measurement failed (OpenCL error %d)\n", g->info.id,
                (int)rc);
    return rc != CL_SUCCESS;
}

/* ---- 3. the CPUs a cache apart ----------------------------------------- */

#define HOP_ROWS_MAX 200000
/* The window: about a pass of the bench-compare grid. */
#define HOP_WINDOW_S 4.0

typedef struct hop_row {
    double t, gemm, hop; /* when, three GEMMs' seconds, the round trip */
} hop_row;

/* The median of rows[lo..hi) of the GEMM time, of the near rows only
 * when near_only; 0 when there are fewer than 3. */
static double window_median(const hop_row *rows, int lo, int hi, const cachehop *h, int near_only,
                            double *v)
{
    int i, n = 0;
    for (i = lo; i < hi; i++)
        if (!near_only || !cachehop_far(h, rows[i].hop))
            v[n++] = rows[i].gemm;
    return n >= 3 ? median(v, n) : 0.0;
}

static double sd_of(const double *x, int n)
{
    double m = 0.0, s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        m += x[i] / n;
    for (i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return n > 1 ? sqrt(s / (n - 1)) : 0.0;
}

static int hop_vs_gemm(double seconds)
{
    const int M = 128, N = 1024, K = 1024;
    float *a = malloc((size_t)(M * K) * sizeof *a), *b = malloc((size_t)(K * N) * sizeof *b),
          *c = malloc((size_t)(M * N) * sizeof *c);
    hop_row *rows = malloc(HOP_ROWS_MAX * sizeof *rows);
    double *v = malloc(HOP_ROWS_MAX * sizeof *v), *w[2] = {NULL, NULL}, t0, m;
    int nrows = 0, i, k, nw[2] = {0, 0}, rc = 1;
    cachehop h;
    cachehop_init(&h);
    if (!a || !b || !c || !rows || !v || h.cpu_a < 0) {
        printf("3. skipped: %s\n\n",
               h.cpu_a < 0 ? "fewer than two CPUs, or no affinity" : "out of memory");
        rc = h.cpu_a < 0 ? 0 : 1;
        goto done;
    }
    for (i = 0; i < M * K; i++)
        a[i] = (float)(i % 7) * 0.1f;
    for (i = 0; i < K * N; i++)
        b[i] = (float)(i % 5) * 0.1f;
    t0 = host_seconds();
    while (nrows < HOP_ROWS_MAX && host_seconds() - t0 < seconds) {
        hop_row *r = &rows[nrows];
        double s = host_seconds();
        for (k = 0; k < 3; k++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, K, b, N, 0.0f,
                        c, N);
        r->gemm = host_seconds() - s;
        r->t = s - t0;
        if ((r->hop = cachehop_probe(&h)) > 0.0)
            nrows++;
    }
    printf("3. The host's CPUs a cache apart: %d rows in %.0f s (3 OpenBLAS GEMMs %dx%dx%d, "
           "then a round trip between CPUs %d and %d)\n",
           nrows, seconds, M, K, N, h.cpu_a, h.cpu_b);
    for (k = 0; k < 2; k++) {
        int n = 0;
        for (i = 0; i < nrows; i++)
            if (cachehop_far(&h, rows[i].hop) == k)
                v[n++] = rows[i].hop;
        printf("   %s: %5d rows (%4.1f%%), round trip %6.0f ns", k ? "far " : "near", n,
               100.0 * n / (nrows ? nrows : 1), n ? 1e9 * median(v, n) : 0.0);
        for (n = 0, i = 0; i < nrows; i++)
            if (cachehop_far(&h, rows[i].hop) == k)
                v[n++] = rows[i].gemm;
        printf(", GEMMs %.3f ms\n", n ? 1e3 * median(v, n) : 0.0);
    }
    w[0] = malloc((size_t)(nrows + 1) * sizeof *w[0]);
    w[1] = malloc((size_t)(nrows + 1) * sizeof *w[1]);
    if (!w[0] || !w[1])
        goto done;
    for (i = 0; i < nrows;) {
        int j = i;
        while (j < nrows && rows[j].t - rows[i].t < HOP_WINDOW_S)
            j++;
        for (k = 0; k < 2 && (rows[j - 1].t - rows[i].t >= 0.9 * HOP_WINDOW_S || j < nrows); k++)
            if ((m = window_median(rows, i, j, &h, k, v)) > 0.0)
                w[k][nw[k]++] = log(m);
        i = j;
    }
    printf("   SD of a %.0f s window's log median GEMM time: %.3f over all %d windows; "
           "%.3f over the %d with 3 near rows, far rows left out\n\n",
           HOP_WINDOW_S, sd_of(w[0], nw[0]), nw[0], sd_of(w[1], nw[1]), nw[1]);
    rc = 0;
done:
    free(a);
    free(b);
    free(c);
    free(rows);
    free(v);
    free(w[0]);
    free(w[1]);
    return rc;
}

int main(void)
{
    /* K inputs, N outputs, batch: the square layers, then a network's */
    static const int cpu_shapes[][3] = {{128, 128, 16},     {512, 512, 128}, {2048, 2048, 256},
                                        {2048, 2048, 1024}, {784, 512, 256}, {512, 256, 256},
                                        {256, 10, 256},     {256, 10, 16},   {4096, 16384, 64}};
    /* hidden 1024 at batches up to 256: where one fused launch against a
     * product and a separate bias/ReLU kernel (CLBlast's, PyTorch's) tells */
    static const int cl_shapes[][3] = {{128, 128, 16},    {512, 512, 128},    {1024, 1024, 16},
                                       {1024, 1024, 64},  {1024, 1024, 256},  {1024, 1024, 1024},
                                       {2048, 2048, 256}, {2048, 2048, 1024}, {784, 512, 256},
                                       {512, 256, 256},   {256, 10, 256},     {256, 10, 16},
                                       {4096, 16384, 64}};
    device_set set;
    int idx[64], n = 0, i, j, rc = 0;
    err e;

    if (device_discover(&set, 0, &e) < 0 || device_select(&set, "all", idx, &n, &e) < 0) {
        fprintf(stderr, "bench: %s\n", e.msg);
        return 1;
    }
    printf("1. CPU: breakeven's forward layer vs raw cblas_sgemm (medians of %d)\n", ROUNDS);
    printf("%6s %6s %6s %12s %12s %8s\n", "in", "out", "batch", "ours GF/s", "sgemm GF/s", "ratio");
    for (i = 0; i < (int)(sizeof cpu_shapes / sizeof *cpu_shapes); i++)
        rc |= forward_vs_sgemm(&set.devs[0], cpu_shapes[i][0], cpu_shapes[i][1], cpu_shapes[i][2]);
    printf("ratio = sgemm time / our time (target >= 0.97 square, >= 0.95 rectangular)\n\n");

    for (j = 0; j < n; j++) {
        const device *g = &set.devs[idx[j]];
        if (strcmp(g->info.kind, "opencl") != 0)
            continue;
        printf("2. %s (%s, %s): our fused forward kernel vs CLBlast sgemm + bias/ReLU kernel,\n"
               "   and vs OpenBLAS on the CPU (wall times, data resident; medians of %d)\n",
               g->info.id, g->info.type, g->info.name, CL_ROUNDS);
        printf("%-8s %6s %6s %6s %10s %10s %10s %12s %12s %10s\n", "device", "in", "out", "batch",
               "ours", "CLBlast", "OpenBLAS", "vs CLBlast", "vs OpenBLAS", "ours kern");
        for (i = 0; i < (int)(sizeof cl_shapes / sizeof *cl_shapes); i++)
            rc |= cl_vs_clblast(&set.devs[0], g, cl_shapes[i][0], cl_shapes[i][1], cl_shapes[i][2]);
        printf("GFLOP/s per layer; ratios = their time / our time (above 1 = ours faster);\n"
               "ours kern: our kernel's event time, without the launch and clFinish\n\n");
        rc |= sync_floor(g);
    }
    device_set_free(&set);
    {
        const char *env = getenv("BENCH_HOP_SECONDS");
        rc |= hop_vs_gemm(env && atof(env) > 0.0 ? atof(env) : 60.0);
    }
    return rc;
}
