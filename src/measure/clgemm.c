/*
 * clgemm.c — the OpenCL backend of breakeven.
 *
 * The sweep measures the same stack of dense layers on the CPU (cpu.c) and
 * on every OpenCL device; this file is the OpenCL side.  clgemm_discover
 * takes the devices clgemm_probe.c found and gives each a handle (context,
 * profiling in-order queue, a built program per mode) and the backend_ops
 * of backend.h.  prepare copies a workload's parameters to device buffers,
 * step runs the layers with the kernels of kernels/dense.cl (embedded in the
 * binary by the Makefile as embed_dense_cl) and times it through OpenCL
 * event profiling, state copies the network back for verify.c.  The kernel
 * source is compiled with -D options from a clgemm_config (a default per
 * device type/vendor, or a tuner's choice, which may differ between
 * inference and training: a run takes the kernels of its mode's program, and
 * two modes of one configuration share one program) and the resulting
 * program binary is cached on disk (clgemm_cache.c), so a second run skips
 * the compiler; compilation, and on PoCL the per-launch work-group code
 * generation, happen in prepare, never inside a timed step.
 */
#define _POSIX_C_SOURCE 200809L
#include "clgemm.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clerr.h"
#include "clgemm_cache.h"
#include "clgemm_probe.h"
#include "host.h"
#include "workload.h"

/* The column-sum kernel's work-group size: a multiple of every vendor's
 * SIMD width and within every device's limit. */
#define DB_GROUP 64

/* A program built with one configuration, and its kernels. */
typedef struct cl_prog {
    cl_program prog; /* NULL: nothing built here */
    cl_kernel kfwd, kdx, kdw, kdb;
    cl_kernel kfwd_kb; /* the K-blocked forward kernel, NULL unless cfg.kb > 0 */
    clgemm_config cfg; /* what prog was built with */
    double build_s;
    int cache_hit;
} cl_prog;

/* One OpenCL device.  Owned by the device array of clgemm_discover; the
 * context, queue, programs and kernels are created on first use and
 * released by clgemm_free. */
typedef struct cl_dev {
    cl_platform_id platform;
    cl_device_id id;
    cl_context ctx;
    cl_command_queue queue;
    clgemm_config cfg[2]; /* per mode, by mode_index: inference, training */
    /* The programs of cfg, each built on the first prepare of a mode that
     * needs it: one per distinct configuration (so two modes of the same
     * configuration share one), of no other (dev_prune), in either slot. */
    cl_prog progs[2];
    int busy; /* a run is prepared: the programs must not change under it */
    cl_ulong max_alloc, global_mem;
    size_t max_group;
    char name[256], driver[256], platver[256];
} cl_dev;

/* One prepared workload on a device.  Owned by the caller of prepare,
 * freed by release.  Buffers: act[0..L] (act[0] = the input), W[l], b[l],
 * and in training dx[l]. */
typedef struct cl_run {
    cl_dev *d;
    const cl_prog *p; /* its mode's program: every launch's kernel and geometry */
    workload w;       /* the caller's arrays stay valid while the run lives */
    cl_mem *act, *wt, *bs, *dx;
    float *out;    /* host copy of y_L that step reads back into */
    cl_event *evs; /* one per kernel of a step */
    int nev;
    workload_layer_clock clock; /* the kernels' event times, per layer */
} cl_run;

static size_t ceil_to(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* Whether the program has dense_fwd_kb. */
static int has_fwd_kb(const clgemm_config *c)
{
    return c->variant == CLGEMM_REG && c->kb > 0;
}

/* Whether a forward pass over K inputs uses dense_fwd_kb: only past one
 * block, where the local-memory staging pays for its barriers (dense.cl). */
static int use_fwd_kb(const clgemm_config *c, int K)
{
    return has_fwd_kb(c) && K > c->kb;
}

/* ---------------------------------------------------------------------- */
/* Device setup and program build                                          */
/* ---------------------------------------------------------------------- */

/* The program's kernels, in the order of dev_kernels. */
static const char *const kernel_names[] = {"dense_fwd", "dense_bwd_dx", "dense_bwd_dw",
                                           "dense_bwd_db", "dense_fwd_kb"};
#define NKERNELS (sizeof kernel_names / sizeof kernel_names[0])

/* The addresses of p's kernel fields, in the order of kernel_names. */
static void prog_kernels(cl_prog *p, cl_kernel *ks[NKERNELS])
{
    ks[0] = &p->kfwd;
    ks[1] = &p->kdx;
    ks[2] = &p->kdw;
    ks[3] = &p->kdb;
    ks[4] = &p->kfwd_kb;
}

static void prog_release(cl_prog *p)
{
    cl_kernel *ks[NKERNELS];
    size_t i;
    prog_kernels(p, ks);
    for (i = 0; i < NKERNELS; i++)
        if (*ks[i]) {
            clReleaseKernel(*ks[i]);
            *ks[i] = NULL;
        }
    if (p->prog) {
        clReleaseProgram(p->prog);
        p->prog = NULL;
    }
}

/* The index of mode's configuration in cl_dev.cfg. */
static int mode_index(wl_mode mode)
{
    return mode == WL_TRAINING;
}

/* Creates the context and the profiling in-order queue on first use. */
static int dev_open(cl_dev *d, err *e)
{
    cl_context_properties props[3];
    cl_int rc;
    if (d->queue)
        return BE_OK;
    props[0] = CL_CONTEXT_PLATFORM;
    props[1] = (cl_context_properties)d->platform;
    props[2] = 0;
    d->ctx = clCreateContext(props, 1, &d->id, NULL, NULL, &rc);
    if (!d->ctx)
        return clerr_set(e, rc, "clCreateContext");
    d->queue = clCreateCommandQueue(d->ctx, d->id, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (!d->queue) {
        clReleaseContext(d->ctx);
        d->ctx = NULL;
        return clerr_set(e, rc, "clCreateCommandQueue");
    }
    return BE_OK;
}

/* Puts the head of prog's build log into e and returns BE_EFAIL. */
static int build_log_fail(cl_dev *d, cl_program prog, cl_int rc, const char *opts, err *e)
{
    char log[801], *all, *s;
    size_t n = 0;
    log[0] = '\0';
    if (clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &n) !=
        CL_SUCCESS) {
        /* The log is longer than we show: fetch it whole, keep the head. */
        all = n > 0 ? malloc(n) : NULL;
        if (all &&
            clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, n, all, NULL) == CL_SUCCESS)
            snprintf(log, sizeof log, "%s", all);
        free(all);
    }
    log[sizeof log - 1] = '\0';
    for (s = log; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
    return err_set(e, BE_EFAIL, "clBuildProgram(dense.cl, %s): %s: %s", opts, clerr_name(rc), log);
}

/* The device's program from the cache entry at path, or NULL. */
static cl_program program_from_cache(cl_dev *d, const char *path, uint64_t key, const char *opts)
{
    unsigned char *bin;
    const unsigned char *bins[1];
    size_t len = 0;
    cl_int rc, st;
    cl_program p;
    err ignored;
    if (clgemm_cache_load_program(path, key, &bin, &len, &ignored) != BE_OK)
        return NULL;
    bins[0] = bin;
    p = clCreateProgramWithBinary(d->ctx, 1, &d->id, &len, bins, &st, &rc);
    free(bin);
    if (!p)
        return NULL;
    if (rc != CL_SUCCESS || st != CL_SUCCESS ||
        clBuildProgram(p, 1, &d->id, opts, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* Saves the built program's binary under path.  Failure only costs the
 * next run a compile, so it is not reported. */
static void program_to_cache(cl_program p, const char *path, uint64_t key)
{
    unsigned char *bin, *bins[1];
    size_t len = 0;
    err ignored;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    bin = malloc(len);
    bins[0] = bin;
    if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        (void)clgemm_cache_store_program(path, key, bin, len, &ignored);
    free(bin);
}

/* Builds (or loads from the cache) d's program for cfg into p, a slot with
 * nothing built, and creates its kernels.  On failure p is left empty. */
static int prog_build(cl_dev *d, cl_prog *p, const clgemm_config *cfg, err *e)
{
    char opts[512], path[CLGEMM_CACHE_PATH + 32];
    cl_kernel *ks[NKERNELS];
    const char *src = embed_dense_cl;
    uint64_t key = 0;
    size_t group, nk, i;
    double t0;
    int rc, have_cache;
    cl_int crc;
    err ignored;

    if ((rc = dev_open(d, e)) || (rc = clgemm_config_options(cfg, opts, sizeof opts - 4, e)))
        return rc;
    /* No warnings: PoCL's compiler prints their count on stderr (float16
     * on AVX2 draws "changes the ABI" for inlined helpers). */
    strcat(opts, " -w");
    group = cfg->variant == CLGEMM_REG
                ? (size_t)cfg->lx * (size_t)cfg->ly
                : (size_t)(cfg->tsm / cfg->wptm) * (size_t)(cfg->tsn / cfg->wptn);
    if (group > d->max_group)
        return err_set(e, BE_EUSAGE, "%s: kernel config wants %zu-item groups, device allows %zu",
                       d->name, group, d->max_group);
    p->cfg = *cfg;

    /* No cache directory is no error: the program is compiled every time. */
    have_cache = clgemm_cache_program(d->name, d->driver, d->platver, opts, &key, path, sizeof path,
                                      &ignored) == BE_OK;
    t0 = host_seconds();
    p->cache_hit = 0;
    p->prog = have_cache ? program_from_cache(d, path, key, opts) : NULL;
    if (p->prog) {
        p->cache_hit = 1;
    } else {
        p->prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &crc);
        if (!p->prog)
            return clerr_set(e, crc, "clCreateProgramWithSource(dense.cl)");
        crc = clBuildProgram(p->prog, 1, &d->id, opts, NULL, NULL);
        if (crc != CL_SUCCESS) {
            rc = crc == CL_BUILD_PROGRAM_FAILURE ? build_log_fail(d, p->prog, crc, opts, e)
                                                 : clerr_set(e, crc, "clBuildProgram(dense.cl)");
            goto fail;
        }
        if (have_cache)
            program_to_cache(p->prog, path, key);
    }
    prog_kernels(p, ks);
    nk = NKERNELS - (has_fwd_kb(cfg) ? 0 : 1);
    for (i = 0; i < nk; i++) {
        *ks[i] = clCreateKernel(p->prog, kernel_names[i], &crc);
        if (!*ks[i]) {
            rc = clerr_set(e, crc, "clCreateKernel(%s)", kernel_names[i]);
            goto fail;
        }
    }
    p->build_s = host_seconds() - t0;
    return BE_OK;
fail:
    prog_release(p);
    return rc;
}

/* Mode m's program (m a cl_dev.cfg index) into *out: the one built with its
 * configuration, else built (or loaded from the cache) now.  The programs
 * are of cfg[0] and cfg[1] only, one each (dev_prune), so when m's is
 * missing, a slot holds the other mode's at most and the other is free. */
static int dev_program(cl_dev *d, int m, cl_prog **out, err *e)
{
    cl_prog *p = NULL;
    int rc, i;
    for (i = 0; i < 2 && !p; i++)
        if (d->progs[i].prog && clgemm_config_same(&d->progs[i].cfg, &d->cfg[m]))
            p = &d->progs[i];
    if (!p) {
        p = d->progs[0].prog ? &d->progs[1] : &d->progs[0];
        if ((rc = prog_build(d, p, &d->cfg[m], e)))
            return rc;
    }
    *out = p;
    return BE_OK;
}

/* Releases the programs that neither mode's configuration builds any more. */
static void dev_prune(cl_dev *d)
{
    int i;
    for (i = 0; i < 2; i++)
        if (d->progs[i].prog && !clgemm_config_same(&d->progs[i].cfg, &d->cfg[0]) &&
            !clgemm_config_same(&d->progs[i].cfg, &d->cfg[1]))
            prog_release(&d->progs[i]);
}

/* Makes cfg the configuration of the modes from..to (cl_dev.cfg indexes),
 * releases the programs no mode uses any more and builds cfg's now, unless
 * the device holds it already. */
static int set_modes(cl_dev *d, int from, int to, const clgemm_config *cfg, err *e)
{
    cl_prog *p;
    int rc, m;
    if ((rc = clgemm_config_check(cfg, e)))
        return rc;
    if (d->busy)
        return err_set(e, BE_EUSAGE, "%s: kernel config changed while a run is prepared", d->name);
    for (m = from; m <= to; m++)
        d->cfg[m] = *cfg;
    dev_prune(d);
    return dev_program(d, from, &p, e);
}

int clgemm_set_config(void *handle, const clgemm_config *cfg, err *e)
{
    return set_modes(handle, 0, 1, cfg, e);
}

int clgemm_set_config_mode(void *handle, wl_mode mode, const clgemm_config *cfg, err *e)
{
    const cl_dev *d = handle;
    if (mode != WL_INFERENCE && mode != WL_TRAINING)
        return err_set(e, BE_EUSAGE, "%s: no kernel configuration for mode %d", d->name, (int)mode);
    return set_modes(handle, mode_index(mode), mode_index(mode), cfg, e);
}

void clgemm_get_config_mode(void *handle, wl_mode mode, clgemm_config *cfg)
{
    *cfg = ((cl_dev *)handle)->cfg[mode_index(mode)];
}

/* backend_ops.build_info: how the programs the device holds were obtained,
 * together: their seconds added up, and a hit when the cache served every
 * one (one program when both modes have one configuration). */
static void cl_build_info(const void *handle, double *seconds, int *cache_hit)
{
    const cl_dev *d = handle;
    double s = 0.0;
    int hit = 1, n = 0, i;
    for (i = 0; i < 2; i++)
        if (d->progs[i].prog) {
            s += d->progs[i].build_s;
            hit &= d->progs[i].cache_hit;
            n++;
        }
    if (seconds)
        *seconds = s;
    if (cache_hit)
        *cache_hit = n > 0 && hit;
}

/* ---------------------------------------------------------------------- */
/* Kernel launches                                                         */
/* ---------------------------------------------------------------------- */

typedef struct {
    size_t g[2], l[2];
} ndrange;

/* The launch geometry of a P×Q GEMM with the program's configuration:
 * `dot` selects dx's block shape in the register-blocked variant. */
static ndrange gemm_range(const clgemm_config *c, int P, int Q, int dot)
{
    ndrange r;
    int bm, bn;
    if (c->variant == CLGEMM_REG) {
        bm = dot ? c->dtm : c->tm;
        bn = dot ? c->dtn : c->tn;
        r.l[0] = (size_t)c->lx;
        r.l[1] = (size_t)c->ly;
        r.g[0] = ceil_to(((size_t)Q + (size_t)bn - 1) / (size_t)bn, r.l[0]);
        r.g[1] = ceil_to(((size_t)P + (size_t)bm - 1) / (size_t)bm, r.l[1]);
    } else {
        r.l[0] = (size_t)(c->tsn / c->wptn);
        r.l[1] = (size_t)(c->tsm / c->wptm);
        r.g[0] = ((size_t)Q + (size_t)c->tsn - 1) / (size_t)c->tsn * r.l[0];
        r.g[1] = ((size_t)P + (size_t)c->tsm - 1) / (size_t)c->tsm * r.l[1];
    }
    return r;
}

/* Kernel argument: its size and address. */
typedef struct {
    size_t n;
    const void *p;
} karg;
#define ARG(v)          \
    {                   \
        sizeof(v), &(v) \
    }

static int launch(cl_dev *d, cl_kernel k, const char *name, const karg *args, int nargs, ndrange r,
                  cl_event *ev, err *e)
{
    cl_int rc;
    int i;
    for (i = 0; i < nargs; i++) {
        rc = clSetKernelArg(k, (cl_uint)i, args[i].n, args[i].p);
        if (rc != CL_SUCCESS)
            return clerr_set(e, rc, "clSetKernelArg(%s, %d)", name, i);
    }
    rc = clEnqueueNDRangeKernel(d->queue, k, 2, NULL, r.g, r.l, 0, NULL, ev);
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "clEnqueueNDRangeKernel(%s, %zu×%zu / %zu×%zu)", name, r.g[0],
                         r.g[1], r.l[0], r.l[1]);
    return BE_OK;
}

/* y = ReLU(x·W + b) (x·W + b without relu) for an M×K input and K×N
 * weights, with dense_fwd_kb when use_fwd_kb says so. */
static int enq_fwd(const cl_run *r, int M, int N, int K, cl_mem x, cl_mem w, cl_mem b, cl_mem y,
                   int relu, cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(x), ARG(w), ARG(b), ARG(y), ARG(relu)};
    const int kb = use_fwd_kb(&r->p->cfg, K);
    return launch(r->d, kb ? r->p->kfwd_kb : r->p->kfwd, kb ? "dense_fwd_kb" : "dense_fwd", a, 8,
                  gemm_range(&r->p->cfg, M, N, 0), ev, e);
}

/* dx = dz·Wᵀ, dz = dy ⊙ [y > 0] (dz = dy without relu). */
static int enq_dx(const cl_run *r, int M, int N, int K, cl_mem dy, cl_mem y, cl_mem w, cl_mem dx,
                  int relu, cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(dy), ARG(y), ARG(w), ARG(dx), ARG(relu)};
    return launch(r->d, r->p->kdx, "dense_bwd_dx", a, 8, gemm_range(&r->p->cfg, M, K, 1), ev, e);
}

/* W -= lr·xᵀ·dz. */
static int enq_dw(const cl_run *r, int M, int N, int K, cl_mem x, cl_mem dy, cl_mem y, cl_mem w,
                  float lr, int relu, cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(x), ARG(dy), ARG(y), ARG(w), ARG(lr), ARG(relu)};
    return launch(r->d, r->p->kdw, "dense_bwd_dw", a, 9, gemm_range(&r->p->cfg, K, N, 0), ev, e);
}

/* b -= lr·Σ_rows dz. */
static int enq_db(const cl_run *r, int M, int N, cl_mem dy, cl_mem y, cl_mem b, float lr, int relu,
                  cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(dy), ARG(y), ARG(b), ARG(lr), ARG(relu)};
    const ndrange g = {{ceil_to((size_t)N, DB_GROUP), 1}, {DB_GROUP, 1}};
    return launch(r->d, r->p->kdb, "dense_bwd_db", a, 7, g, ev, e);
}

/* Enqueues one step's kernels: the forward pass, and in training the
 * backward pass from the top (dy = y_L) with each layer's dx before its dw
 * (dx reads W before the update).  ev receives one event per kernel
 * (r->nev of them) when not NULL. */
static int enq_step(cl_run *r, cl_event *ev, err *e)
{
    const workload *w = &r->w;
    const int L = w->layers, B = w->batch;
    cl_mem dy, y;
    int rc, k = 0, l;
#define EV (ev ? &ev[k++] : NULL)
    for (l = 0; l < L; l++)
        if ((rc = enq_fwd(r, B, wl_dim(w, l + 1), wl_dim(w, l), r->act[l], r->wt[l], r->bs[l],
                          r->act[l + 1], wl_relu(w, l), EV, e)))
            return rc;
    if (w->mode != WL_TRAINING)
        return BE_OK;
    for (l = L - 1; l >= 0; l--) {
        const int K = wl_dim(w, l), N = wl_dim(w, l + 1), relu = wl_relu(w, l);
        dy = l == L - 1 ? r->act[L] : r->dx[l + 1];
        y = r->act[l + 1];
        if ((rc = enq_dx(r, B, N, K, dy, y, r->wt[l], r->dx[l], relu, EV, e)) ||
            (rc = enq_dw(r, B, N, K, r->act[l], dy, y, r->wt[l], w->lr, relu, EV, e)) ||
            (rc = enq_db(r, B, N, dy, y, r->bs[l], w->lr, relu, EV, e)))
            return rc;
    }
#undef EV
    return BE_OK;
}

/* ---------------------------------------------------------------------- */
/* backend_ops                                                             */
/* ---------------------------------------------------------------------- */

static int upload(cl_dev *d, cl_mem m, const void *src, size_t n, const char *what, cl_event *ev,
                  err *e)
{
    const cl_int rc = clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0, n, src, 0, NULL, ev);
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "clEnqueueWriteBuffer(%s, %zu bytes)", what, n);
    return BE_OK;
}

static int download(cl_dev *d, cl_mem m, void *dst, size_t n, const char *what, cl_event *ev,
                    err *e)
{
    const cl_int rc = clEnqueueReadBuffer(d->queue, m, CL_TRUE, 0, n, dst, 0, NULL, ev);
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "clEnqueueReadBuffer(%s, %zu bytes)", what, n);
    return BE_OK;
}

static int cl_reset(void *run, err *e)
{
    cl_run *r = run;
    int rc, l;
    for (l = 0; l < r->w.layers; l++) {
        const size_t K = (size_t)wl_dim(&r->w, l), N = (size_t)wl_dim(&r->w, l + 1);
        if ((rc = upload(r->d, r->wt[l], r->w.w0[l], K * N * sizeof(float), "W", NULL, e)) ||
            (rc = upload(r->d, r->bs[l], r->w.b0[l], N * sizeof(float), "b", NULL, e)))
            return rc;
    }
    return BE_OK;
}

static void release_mems(cl_mem *m, int n)
{
    int i;
    if (!m)
        return;
    for (i = 0; i < n; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(m);
}

static void cl_release(void *run)
{
    cl_run *r = run;
    int L;
    if (!r)
        return;
    L = r->w.layers;
    release_mems(r->act, L + 1);
    release_mems(r->wt, L);
    release_mems(r->bs, L);
    release_mems(r->dx, L);
    free(r->evs);
    free(r->out);
    r->d->busy = 0;
    free(r);
}

/* Creates one buffer into *m.  Sizes were checked against the device's
 * limits, so a failure here is the driver running out of memory. */
static int new_buffer(cl_dev *d, cl_mem *m, size_t n, const char *what, int i, err *e)
{
    cl_int rc;
    *m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, n, NULL, &rc);
    if (!*m)
        return clerr_set(e, rc, "clCreateBuffer(%s[%d], %zu bytes)", what, i, n);
    return BE_OK;
}

/* Refuses, with BE_EOOM, a workload whose buffers cannot fit d, before the
 * driver is asked: some drivers accept oversized buffers and fail later,
 * or page forever. */
static int check_fits(const cl_dev *d, const workload *w, err *e)
{
    const size_t B = (size_t)w->batch;
    size_t big = 0;
    double total = 0.0;
    int l;
    for (l = 0; l <= w->layers; l++) {
        const size_t K = (size_t)wl_dim(w, l), act = B * K * sizeof(float);
        /* act[l], and in training dx[l] (not of the output) */
        total += (double)act * (w->mode == WL_TRAINING && l < w->layers ? 2.0 : 1.0);
        if (B * K > INT_MAX)
            return err_set(e, BE_EOOM,
                           "%s: %zu×%zu matrices exceed the kernels' 2^31-element indexing",
                           d->name, B, K);
        if (act > big)
            big = act;
        if (l == w->layers)
            break;
        {
            const size_t N = (size_t)wl_dim(w, l + 1), wsz = K * N * sizeof(float);
            if (K * N > INT_MAX)
                return err_set(e, BE_EOOM,
                               "%s: %zu×%zu matrices exceed the kernels' 2^31-element indexing",
                               d->name, K, N);
            total += (double)wsz + (double)N * sizeof(float);
            if (wsz > big)
                big = wsz;
        }
    }
    if (big > d->max_alloc)
        return err_set(e, BE_EOOM,
                       "%s: a %zu-byte buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes)",
                       d->name, big, (unsigned long long)d->max_alloc);
    if (total > (double)d->global_mem)
        return err_set(e, BE_EOOM,
                       "%s: %.0f bytes of buffers exceed CL_DEVICE_GLOBAL_MEM_SIZE (%llu bytes)",
                       d->name, total, (unsigned long long)d->global_mem);
    return BE_OK;
}

/* Waits for everything queued on d; what names the wait in an error
 * ("clFinish(step)"). */
static int finish(cl_dev *d, const char *what, err *e)
{
    cl_int crc = clFinish(d->queue);
    return crc == CL_SUCCESS ? BE_OK : clerr_set(e, crc, "clFinish(%s)", what);
}

/* A throw-away step on 1×1 matrices with the real work-group sizes, so
 * that a driver generating code per launch shape (PoCL) does it here and
 * not in the first timed step.  It scribbles on the buffers: the caller
 * uploads the parameters after it. */
static int warm_up(cl_run *r, err *e)
{
    cl_dev *d = r->d;
    const workload w = r->w;
    const int one = 1;
    int rc;
    r->w.hidden = r->w.batch = 1;
    memset(r->w.dims, 0, sizeof r->w.dims);
    rc = enq_step(r, NULL, e);
    r->w = w;
    if (rc)
        return rc;
    if (has_fwd_kb(&r->p->cfg)) { /* the 1×1 step took dense_fwd */
        const karg a[] = {ARG(one),      ARG(one),      ARG(one),       ARG(r->act[0]),
                          ARG(r->wt[0]), ARG(r->bs[0]), ARG(r->act[1]), ARG(one)};
        if ((rc = launch(d, r->p->kfwd_kb, "dense_fwd_kb", a, 8, gemm_range(&r->p->cfg, 1, 1, 0),
                         NULL, e)))
            return rc;
    }
    return finish(d, "warm-up", e);
}

static int cl_prepare(void *dev, const workload *w, void **run, err *e)
{
    cl_dev *d = dev;
    cl_run *r = NULL;
    cl_prog *p = NULL;
    const int L = w->layers, train = w->mode == WL_TRAINING;
    const size_t B = (size_t)w->batch;
    int rc, l;
    *run = NULL;
    if (L < 1 || w->hidden < 1 || w->batch < 1)
        return err_set(e, BE_EUSAGE, "workload: layers=%d hidden=%d batch=%d", L, w->hidden,
                       w->batch);
    if (d->busy)
        return err_set(e, BE_EUSAGE, "%s: a run is already prepared", d->name);
    if ((rc = check_fits(d, w, e)) || (rc = dev_program(d, mode_index(w->mode), &p, e)))
        return rc;

    r = calloc(1, sizeof *r);
    if (!r)
        return err_set(e, BE_EOOM, "%s: out of host memory for a run", d->name);
    r->d = d;
    r->p = p;
    r->w = *w;
    d->busy = 1; /* from here cl_release undoes everything */
    r->nev = train ? 4 * L : L;
    r->act = calloc((size_t)L + 1, sizeof *r->act);
    r->wt = calloc((size_t)L, sizeof *r->wt);
    r->bs = calloc((size_t)L, sizeof *r->bs);
    r->dx = train ? calloc((size_t)L, sizeof *r->dx) : NULL;
    r->evs = calloc((size_t)r->nev, sizeof *r->evs);
    r->out = malloc(B * (size_t)wl_dim(w, L) * sizeof(float));
    if (!r->act || !r->wt || !r->bs || (train && !r->dx) || !r->evs || !r->out) {
        rc = err_set(e, BE_EOOM, "%s: out of host memory for a run", d->name);
        goto fail;
    }
    for (l = 0; l <= L; l++)
        if ((rc = new_buffer(d, &r->act[l], B * (size_t)wl_dim(w, l) * sizeof(float), "act", l, e)))
            goto fail;
    for (l = 0; l < L; l++) {
        const size_t K = (size_t)wl_dim(w, l), N = (size_t)wl_dim(w, l + 1);
        if ((rc = new_buffer(d, &r->wt[l], K * N * sizeof(float), "W", l, e)) ||
            (rc = new_buffer(d, &r->bs[l], N * sizeof(float), "b", l, e)) ||
            (train && (rc = new_buffer(d, &r->dx[l], B * K * sizeof(float), "dx", l, e))))
            goto fail;
    }
    if ((rc = warm_up(r, e)) || (rc = cl_reset(r, e)))
        goto fail;
    *run = r;
    return BE_OK;
fail:
    cl_release(r);
    return rc;
}

/* Profiled duration of a finished command, in seconds. */
static int ev_seconds(cl_event ev, double *s, const char *what, err *e)
{
    cl_ulong t0, t1;
    cl_int rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "clGetEventProfilingInfo(%s)", what);
    *s = 1e-9 * (double)(t1 - t0);
    return BE_OK;
}

static int cl_step(void *run, step_times *t, err *e)
{
    cl_run *r = run;
    cl_dev *d = r->d;
    const int L = r->w.layers;
    const size_t in = (size_t)r->w.batch * (size_t)wl_dim(&r->w, 0) * sizeof(float);
    const size_t out = (size_t)r->w.batch * (size_t)wl_dim(&r->w, L) * sizeof(float);
    cl_event up = NULL, down = NULL;
    double t0, t1, t2, t3, s, tw = -1.0;
    int rc, i;

    /* Weights on the host (networks): every W and b goes up first, as an
     * offloading library copies them for each call; whost adds that to
     * total.  In training this restarts from the initial parameters, which
     * changes no time. */
    if (r->w.weights_on_host) {
        tw = host_seconds();
        if ((rc = cl_reset(r, e)))
            return rc;
        if ((rc = finish(d, "weights", e)))
            return rc;
        tw = host_seconds() - tw;
    }
    /* A blocking write returns once the host buffer may be reused, which
     * need not be when the copy is done (NVIDIA's driver stages pageable
     * memory and returns early): wait for it, so that `wall` below covers
     * the kernels alone. */
    t0 = host_seconds();
    if ((rc = upload(d, r->act[0], r->w.x0, in, "x", &up, e)))
        goto fail;
    if ((rc = finish(d, "upload", e)))
        goto fail;
    t1 = host_seconds();
    if ((rc = enq_step(r, r->evs, e)))
        goto fail;
    if ((rc = finish(d, "step", e)))
        goto fail;
    t2 = host_seconds();
    if ((rc = download(d, r->act[L], r->out, out, "y", &down, e)))
        goto fail;
    t3 = host_seconds();

    t->wall = t2 - t1;
    t->total = t3 - t0;
    t->whost = tw >= 0.0 ? tw + t->total : -1.0;
    t->kernel = 0.0;
    for (i = 0; i < r->nev; i++) {
        s = 0.0;
        if ((rc = ev_seconds(r->evs[i], &s, "kernel", e)))
            goto fail;
        t->kernel += s;
        /* enq_step's order: the forward kernels by layer, then three
         * kernels a layer from the top */
        r->clock.sum[i < L ? i : L - 1 - (i - L) / 3] += s;
    }
    r->clock.steps++;
    if ((rc = ev_seconds(up, &t->h2d, "upload", e)) ||
        (rc = ev_seconds(down, &t->d2h, "read-back", e)))
        goto fail;
    rc = BE_OK;
fail:
    /* Events exist for the commands enqueued before a failure only. */
    for (i = 0; i < r->nev; i++)
        if (r->evs[i]) {
            clReleaseEvent(r->evs[i]);
            r->evs[i] = NULL;
        }
    if (up)
        clReleaseEvent(up);
    if (down)
        clReleaseEvent(down);
    if (rc)
        clFinish(d->queue); /* leave nothing running on the run's buffers */
    return rc;
}

static int cl_state(void *run, net_state *s, err *e)
{
    cl_run *r = run;
    const size_t B = (size_t)r->w.batch;
    int rc, l;
    for (l = 0; l <= r->w.layers; l++)
        if ((rc = download(r->d, r->act[l], s->act[l], B * (size_t)wl_dim(&r->w, l) * sizeof(float),
                           "act", NULL, e)))
            return rc;
    if (r->w.mode != WL_TRAINING)
        return BE_OK;
    for (l = 0; l < r->w.layers; l++) {
        const size_t K = (size_t)wl_dim(&r->w, l), N = (size_t)wl_dim(&r->w, l + 1);
        if ((rc = download(r->d, r->dx[l], s->dx[l], B * K * sizeof(float), "dx", NULL, e)) ||
            (rc = download(r->d, r->wt[l], s->w[l], K * N * sizeof(float), "W", NULL, e)) ||
            (rc = download(r->d, r->bs[l], s->b[l], N * sizeof(float), "b", NULL, e)))
            return rc;
    }
    return BE_OK;
}

static long cl_layer_times(void *run, double *mean)
{
    cl_run *r = run;
    return workload_layer_times(&r->clock, r->w.layers, mean);
}

static const backend_ops cl_ops = {
    .layer_times = cl_layer_times,
    .kind = BACKEND_OPENCL,
    .prepare = cl_prepare,
    .reset = cl_reset,
    .step = cl_step,
    .state = cl_state,
    .release = cl_release,
    .build_info = cl_build_info,
};

/* ---------------------------------------------------------------------- */
/* Discovery                                                               */
/* ---------------------------------------------------------------------- */

/* Makes the device of probe p: its handle, starting kernel configurations
 * (the tuning file's, else the table default) and the properties saying
 * which.  The training configuration's options are a property only where
 * they differ, so that a device of one configuration is described as it
 * was before there were two. */
static int open_device(const clgemm_probe *p, device *out, err *e)
{
    device_info *in = &out->info;
    cl_dev *d = calloc(1, sizeof *d);
    char opts[256];
    int tuned;
    err ignored;
    if (!d)
        return err_set(e, BE_EFAIL, "%s: out of host memory", p->info.id);
    *in = p->info;
    d->platform = p->platform;
    d->id = p->id;
    d->max_alloc = p->max_alloc;
    d->global_mem = p->global_mem;
    d->max_group = p->max_group;
    snprintf(d->platver, sizeof d->platver, "%s", p->platver);
    snprintf(d->name, sizeof d->name, "%s", in->name);
    snprintf(d->driver, sizeof d->driver, "%s", in->driver);
    clgemm_config_default(in, &d->cfg[0]);
    d->cfg[1] = d->cfg[0];
    tuned = clgemm_cache_load_tuned(in, &d->cfg[0], &d->cfg[1], NULL, 0) == BE_OK;
    if (clgemm_config_options(&d->cfg[0], opts, sizeof opts, &ignored) == BE_OK)
        devinfo_prop_add(in, "kernel_options", "%s", opts);
    if (!clgemm_config_same(&d->cfg[0], &d->cfg[1]) &&
        clgemm_config_options(&d->cfg[1], opts, sizeof opts, &ignored) == BE_OK)
        devinfo_prop_add(in, "kernel_options_training", "%s", opts);
    devinfo_prop_add(in, "kernel_config", "%s", tuned ? "tuned" : "default");
    out->ops = &cl_ops;
    out->handle = d;
    return BE_OK;
}

void clgemm_free(device *devs, int n)
{
    cl_dev *d;
    int i;
    if (!devs)
        return;
    for (i = 0; i < n; i++) {
        d = devs[i].handle;
        if (!d)
            continue;
        prog_release(&d->progs[0]);
        prog_release(&d->progs[1]);
        if (d->queue)
            clReleaseCommandQueue(d->queue);
        if (d->ctx)
            clReleaseContext(d->ctx);
        free(d);
    }
    free(devs);
}

int clgemm_discover(device **out, int *n, err *e)
{
    clgemm_probe *probes = NULL;
    device *devs = NULL;
    int np = 0, i, rc;

    *out = NULL;
    *n = 0;
    if ((rc = clgemm_probe_all(&probes, &np, e)) || np == 0)
        return rc; /* no OpenCL device is no failure: nothing to measure */
    if (!(devs = calloc((size_t)np, sizeof *devs))) {
        free(probes);
        return err_set(e, BE_EFAIL, "OpenCL devices: out of host memory");
    }
    for (i = 0; i < np; i++)
        if ((rc = open_device(&probes[i], &devs[i], e))) {
            free(probes);
            clgemm_free(devs, np); /* calloc'ed: the handles not made yet are NULL */
            return rc;
        }
    free(probes);
    *out = devs;
    *n = np;
    return BE_OK;
}
