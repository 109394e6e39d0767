/*
 * clgemm.c — the OpenCL backend of breakeven.
 *
 * The sweep measures the same stack of dense layers on the CPU (cpu.c) and
 * on every OpenCL device; this file is the OpenCL side.  clgemm_discover
 * lists the devices through the ICD loader and gives each a handle (context,
 * profiling in-order queue, built program) and the backend_ops of backend.h.
 * prepare copies a workload's parameters to device buffers, step runs the
 * layers with the kernels of kernels/dense.cl (embedded in the binary by the
 * Makefile as embed_dense_cl) and times it through OpenCL event profiling,
 * state copies the network back for verify.c.  The kernel source is compiled
 * with -D options from a clgemm_config (a default per device type/vendor, or
 * a tuner's choice) and the resulting program binary is cached on disk, so a
 * second run skips the compiler; compilation, and on PoCL the per-launch
 * work-group code generation, happen in prepare, never inside a timed step.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include "clgemm.h"

#include "fsx.h"

#include <CL/cl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* kernels/dense.cl as a NUL-terminated string (build/embed_kernels.c). */
extern const char embed_dense_cl[];

/* ICD loader's answer when no platform is installed (cl_khr_icd). */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* Room for a cache file's path (POSIX does not promise a path limit). */
#define CACHE_PATH 4096

/* The column-sum kernel's work-group size: a multiple of every vendor's
 * SIMD width and within every device's limit. */
#define DB_GROUP 64

/* One OpenCL device.  Owned by the device array of clgemm_discover; the
 * context, queue, program and kernels are created on first use and released
 * by clgemm_free. */
typedef struct cl_dev {
    cl_platform_id platform;
    cl_device_id id;
    cl_context ctx;
    cl_command_queue queue;
    cl_program prog; /* NULL until built for cfg */
    cl_kernel kfwd, kdx, kdw, kdb;
    cl_kernel kfwd_kb; /* the K-blocked forward kernel, NULL unless cfg.kb > 0 */
    clgemm_config cfg;
    double build_s;
    int cache_hit;
    int busy; /* a run is prepared: the program must not change under it */
    cl_ulong max_alloc, global_mem;
    size_t max_group;
    char name[256], driver[256], platver[256];
} cl_dev;

/* One prepared workload on a device.  Owned by the caller of prepare,
 * freed by release.  Buffers: act[0..L] (act[0] = the input), W[l], b[l],
 * and in training dx[l]. */
typedef struct cl_run {
    cl_dev *d;
    workload w; /* the caller's arrays stay valid while the run lives */
    cl_mem *act, *wt, *bs, *dx;
    float *out;     /* host copy of y_L that step reads back into */
    cl_event *evs;  /* one per kernel of a step */
    int nev;
} cl_run;

/* ---------------------------------------------------------------------- */
/* Errors and small helpers                                                */
/* ---------------------------------------------------------------------- */

static const char *cl_code(cl_int rc)
{
    switch (rc) {
#define C(x) case x: return #x;
    C(CL_SUCCESS) C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE)
    C(CL_COMPILER_NOT_AVAILABLE) C(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
    C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_MEM_COPY_OVERLAP)
    C(CL_BUILD_PROGRAM_FAILURE) C(CL_MAP_FAILURE)
    C(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    C(CL_COMPILE_PROGRAM_FAILURE) C(CL_LINKER_NOT_AVAILABLE)
    C(CL_LINK_PROGRAM_FAILURE) C(CL_INVALID_VALUE)
    C(CL_INVALID_DEVICE_TYPE) C(CL_INVALID_PLATFORM) C(CL_INVALID_DEVICE)
    C(CL_INVALID_CONTEXT) C(CL_INVALID_QUEUE_PROPERTIES)
    C(CL_INVALID_COMMAND_QUEUE) C(CL_INVALID_HOST_PTR)
    C(CL_INVALID_MEM_OBJECT) C(CL_INVALID_BINARY)
    C(CL_INVALID_BUILD_OPTIONS) C(CL_INVALID_PROGRAM)
    C(CL_INVALID_PROGRAM_EXECUTABLE) C(CL_INVALID_KERNEL_NAME)
    C(CL_INVALID_KERNEL_DEFINITION) C(CL_INVALID_KERNEL)
    C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_VALUE) C(CL_INVALID_ARG_SIZE)
    C(CL_INVALID_KERNEL_ARGS) C(CL_INVALID_WORK_DIMENSION)
    C(CL_INVALID_WORK_GROUP_SIZE) C(CL_INVALID_WORK_ITEM_SIZE)
    C(CL_INVALID_GLOBAL_OFFSET) C(CL_INVALID_EVENT_WAIT_LIST)
    C(CL_INVALID_EVENT) C(CL_INVALID_OPERATION) C(CL_INVALID_BUFFER_SIZE)
    C(CL_INVALID_GLOBAL_WORK_SIZE) C(CL_INVALID_PROPERTY)
    C(CL_PLATFORM_NOT_FOUND_KHR)
#undef C
    default: return "unknown OpenCL error";
    }
}

/* The device ran out of some memory: the sweep records such a point as
 * out-of-memory rather than as a failure. */
static int cl_is_oom(cl_int rc)
{
    return rc == CL_MEM_OBJECT_ALLOCATION_FAILURE || rc == CL_OUT_OF_RESOURCES ||
           rc == CL_OUT_OF_HOST_MEMORY;
}

/* Fills e with "<what>: CL_..." and returns BE_EOOM or BE_EFAIL. */
static int cl_fail(err *e, cl_int rc, const char *what)
{
    return err_set(e, cl_is_oom(rc) ? BE_EOOM : BE_EFAIL, "%s: %s (%d)", what,
                   cl_code(rc), (int)rc);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

static size_t ceil_to(size_t n, size_t m) { return (n + m - 1) / m * m; }

/* Whether the program has dense_fwd_kb. */
static int has_fwd_kb(const clgemm_config *c) { return c->variant == CLGEMM_REG && c->kb > 0; }

/* Whether a forward pass over K inputs uses dense_fwd_kb: only past one
 * block, where the local-memory staging pays for its barriers (dense.cl). */
static int use_fwd_kb(const clgemm_config *c, int K) { return has_fwd_kb(c) && K > c->kb; }

/* ---------------------------------------------------------------------- */
/* Configuration                                                           */
/* ---------------------------------------------------------------------- */

int clgemm_config_default(const device_info *d, clgemm_config *cfg)
{
    /* The register-blocked defaults were measured on PoCL 3.1 (AVX2, 16 ymm
     * registers), with kernel event times alternated side by side.  Groups
     * of 2×16 items: PoCL runs a group's items one after another on one
     * core, so the items down the rows reuse the strip of W the group staged
     * in local memory (kb rows, see dense.cl); staging beat reading W from
     * global memory in 1×16 groups 1.3–1.5× at K=N=2048 and equalled it at
     * 512.  kb = 128 keeps the 2×16-column tile at 16 KiB, within L1 beside
     * x (256 was as fast with 8-wide blocks, 1.6× slower with 16-wide).
     * Blocks of 6×16 as float16 (12 ymm accumulators) beat 8×8 as float8
     * 1.3–1.6× forward (batch 1024, K=N=512 and 2048) and 1.35× in training
     * (1024×256); 6×16 as float8 and 4×16 were slower, and a 4×4 dx block
     * beat 2×4 and 2×2.  `breakeven tune` tries the alternatives per device. */
    const clgemm_config cpu = {.variant = CLGEMM_REG, .vw = 16, .tm = 6, .tn = 16,
                               .dtm = 4, .dtn = 4, .lx = 2, .ly = 16, .kb = 128};
    /* Local-memory tiles in the style of CLBlast's Xgemm defaults: 64×64
     * tiles of 4×4 outputs (256 items) where groups of 256 are the norm
     * (NVIDIA, AMD), 32×64 tiles of 4×4 (128 items) on Intel GPUs, whose
     * smaller register files favour fewer outputs per group. */
    const clgemm_config gpu = {.variant = CLGEMM_LOCAL, .vw = 1, .tsm = 64, .tsn = 64,
                               .tsk = 16, .wptm = 4, .wptn = 4};
    const clgemm_config intel = {.variant = CLGEMM_LOCAL, .vw = 1, .tsm = 32, .tsn = 64,
                                 .tsk = 16, .wptm = 4, .wptn = 4};
    if (strcmp(d->type, "GPU") != 0 && strcmp(d->type, "ACCELERATOR") != 0)
        *cfg = cpu;
    else if (strstr(d->vendor, "Intel") || strstr(d->vendor, "intel"))
        *cfg = intel;
    else
        *cfg = gpu;
    return 0;
}

static int pow2_upto16(int v) { return v == 1 || v == 2 || v == 4 || v == 8 || v == 16; }

static int config_check(const clgemm_config *c, err *e)
{
    if (c->variant == CLGEMM_REG) {
        if (!pow2_upto16(c->vw))
            return err_set(e, BE_EUSAGE, "kernel config: vw=%d is not 1, 2, 4, 8 or 16", c->vw);
        if (c->tm < 1 || c->tm > 16 || c->tn < c->vw || c->tn > 64 || c->tn % c->vw)
            return err_set(e, BE_EUSAGE,
                           "kernel config: tm=%d tn=%d (want 1..16, tn a multiple of vw=%d up to 64)",
                           c->tm, c->tn, c->vw);
        if (c->dtm < 1 || c->dtm > 8 || c->dtn < 1 || c->dtn > 8)
            return err_set(e, BE_EUSAGE, "kernel config: dtm=%d dtn=%d (want 1..8)", c->dtm,
                           c->dtn);
        if (c->lx < 1 || c->ly < 1 || c->lx * c->ly > 1024)
            return err_set(e, BE_EUSAGE, "kernel config: group %d×%d (want 1..1024 items)",
                           c->lx, c->ly);
        if (c->kb < 0 || c->kb > 1024 || c->kb * c->lx * c->tn * 4 > 32768)
            return err_set(e, BE_EUSAGE,
                           "kernel config: kb=%d (want 0..1024 and a local tile kb×%d×%d "
                           "of at most 32 KiB)", c->kb, c->lx, c->tn);
        return 0;
    }
    if (c->variant == CLGEMM_LOCAL) {
        if (c->tsm < 1 || c->tsn < 1 || c->tsk < 1 || c->tsk > 64 || c->wptm < 1 ||
            c->wptn < 1 || c->tsm % c->wptm || c->tsn % c->wptn ||
            (c->tsm / c->wptm) * (c->tsn / c->wptn) > 1024 ||
            (c->tsm + c->tsn + 2) * c->tsk * 4 > 32768)
            return err_set(e, BE_EUSAGE,
                           "kernel config: tiles %d×%d×%d of %d×%d per item are inconsistent "
                           "(tile multiple of work per item, ≤1024 items, ≤32 KiB local)",
                           c->tsm, c->tsn, c->tsk, c->wptm, c->wptn);
        return 0;
    }
    return err_set(e, BE_EUSAGE, "kernel config: unknown variant %d", (int)c->variant);
}

int clgemm_config_options(const clgemm_config *c, char *buf, size_t len, err *e)
{
    int rc = config_check(c, e), n;
    if (rc)
        return rc;
    if (c->variant == CLGEMM_REG)
        n = snprintf(buf, len,
                     "-DGEMM_LOCAL=0 -DVW=%d -DTM=%d -DTN=%d -DDTM=%d -DDTN=%d -DLX=%d -DLY=%d "
                     "-DKB=%d",
                     c->vw, c->tm, c->tn, c->dtm, c->dtn, c->lx, c->ly, c->kb);
    else
        n = snprintf(buf, len, "-DGEMM_LOCAL=1 -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d",
                     c->tsm, c->tsn, c->tsk, c->wptm, c->wptn);
    if (n < 0 || (size_t)n >= len)
        return err_set(e, BE_EUSAGE, "kernel config: options longer than %zu bytes", len);
    return 0;
}

/* The -D names of each variant, in clgemm_config_options's order. */
static const char *const reg_names[] = {"VW", "TM", "TN", "DTM", "DTN", "LX", "LY", "KB"};
static const char *const loc_names[] = {"TSM", "TSN", "TSK", "WPTM", "WPTN"};
#define NREG 8
#define NLOC 5

int clgemm_config_parse(const char *opts, clgemm_config *cfg, err *e)
{
    clgemm_config c = {.variant = CLGEMM_REG, .vw = 1};
    int *const reg_f[NREG] = {&c.vw, &c.tm, &c.tn, &c.dtm, &c.dtn, &c.lx, &c.ly, &c.kb};
    int *const loc_f[NLOC] = {&c.tsm, &c.tsn, &c.tsk, &c.wptm, &c.wptn};
    int reg_seen[NREG] = {0}, loc_seen[NLOC] = {0}, variant = -1, nreg = 0, nloc = 0;
    const char *s = opts;
    while (*s) {
        char name[16];
        int v, used = 0, hit = 0;
        if (*s == ' ') {
            s++;
            continue;
        }
        if (sscanf(s, "-D%15[A-Z_]=%d%n", name, &v, &used) != 2 || used == 0 ||
            (s[used] && s[used] != ' '))
            return err_set(e, BE_EUSAGE, "kernel options: cannot read \"%.40s\"", s);
        s += used;
        if (strcmp(name, "GEMM_LOCAL") == 0) {
            if (variant >= 0 || (v != 0 && v != 1))
                return err_set(e, BE_EUSAGE, "kernel options: bad or repeated -DGEMM_LOCAL");
            variant = v;
            continue;
        }
        for (int i = 0; i < NREG; i++)
            if (strcmp(name, reg_names[i]) == 0) {
                hit = reg_seen[i]++ ? -1 : 1;
                *reg_f[i] = v;
                nreg++;
            }
        for (int i = 0; i < NLOC; i++)
            if (strcmp(name, loc_names[i]) == 0) {
                hit = loc_seen[i]++ ? -1 : 1;
                *loc_f[i] = v;
                nloc++;
            }
        if (hit <= 0)
            return err_set(e, BE_EUSAGE, "kernel options: -D%s is %s", name,
                           hit ? "given twice" : "unknown");
    }
    if (variant < 0 || (variant == 0 && (nreg != NREG || nloc)) ||
        (variant == 1 && (nloc != NLOC || nreg)))
        return err_set(e, BE_EUSAGE,
                       "kernel options: \"%.60s\" does not give exactly its variant's options",
                       opts);
    c.variant = variant ? CLGEMM_LOCAL : CLGEMM_REG;
    const int rc = config_check(&c, e);
    if (rc)
        return rc;
    *cfg = c;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Program binary cache                                                    */
/* ---------------------------------------------------------------------- */

/* File layout: magic, the 64-bit key, the binary's length, its FNV-1a
 * checksum, the binary.  Key and checksum are checked on load so that a
 * foreign, truncated or damaged file is never handed to the driver (PoCL
 * crashes on a damaged binary rather than rejecting it); anything the driver
 * still rejects is rebuilt from source. */
static const char cache_magic[8] = {'B', 'E', 'C', 'L', 'B', 'I', 'N', '1'};

/* The cache directory into buf, created if missing when create is set; 0
 * on success, -1 when there is no usable place (no cache then, which is not
 * an error). */
static int cache_dir(char *buf, size_t len, int create)
{
    const char *env = getenv("BREAKEVEN_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int n;
    if (env && *env)
        n = snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        n = snprintf(buf, len, "%s/breakeven", xdg);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.cache/breakeven", home);
    else
        return -1;
    if (n < 0 || (size_t)n >= len)
        return -1;
    if (!create)
        return 0;
    /* mkdir -p: create each missing component in turn. */
    for (char *s = buf + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            const char c = *s;
            *s = '\0';
            const int bad = mkdir(buf, 0755) != 0 && errno != EEXIST;
            *s = c;
            if (bad)
                return -1;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

/* Reads the entry at path if it carries key; returns a malloc'ed binary
 * (the caller frees it) and its length, or NULL. */
static unsigned char *cache_load(const char *path, uint64_t key, size_t *len)
{
    unsigned char *bin = NULL;
    char magic[8];
    uint64_t k, n, sum;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, cache_magic, 8) != 0 ||
        fread(&k, sizeof k, 1, f) != 1 || k != key || fread(&n, sizeof n, 1, f) != 1 ||
        fread(&sum, sizeof sum, 1, f) != 1 || n == 0 || n > ((uint64_t)1 << 30))
        goto fail;
    bin = malloc((size_t)n);
    if (!bin || fread(bin, 1, (size_t)n, f) != (size_t)n || fgetc(f) != EOF ||
        fnv1a(FNV_INIT, bin, (size_t)n) != sum)
        goto fail;
    fclose(f);
    *len = (size_t)n;
    return bin;
fail:
    free(bin);
    fclose(f);
    return NULL;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        const ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Stores the entry atomically: a temporary file written in full and synced,
 * then renamed over path, so a reader sees the old entry or the new one,
 * never half of one.  Failure only costs the next run a compile, so it is
 * not reported. */
static void cache_store(const char *path, uint64_t key, const unsigned char *bin, size_t len)
{
    char tmp[CACHE_PATH + 64];
    const uint64_t n = len, sum = fnv1a(FNV_INIT, bin, len);
    int n1 = snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    if (n1 < 0 || (size_t)n1 >= sizeof tmp)
        return;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    int bad = write_all(fd, cache_magic, 8) || write_all(fd, &key, sizeof key) ||
              write_all(fd, &n, sizeof n) || write_all(fd, &sum, sizeof sum) ||
              write_all(fd, bin, len) || fsync(fd) != 0;
    bad |= close(fd) != 0;
    if (bad || rename(tmp, path) != 0)
        unlink(tmp);
}

/* ---------------------------------------------------------------------- */
/* Tuning files                                                            */
/* ---------------------------------------------------------------------- */

static const char tune_magic[] = "# breakeven kernel tuning (breakeven tune); delete to use the defaults";

/* The key of d's tuning file: what must match for its winner to apply. */
static uint64_t tuned_key(const device_info *d)
{
    uint64_t key = FNV_INIT;
    const char *parts[] = {d->name, d->driver, d->library, embed_dense_cl};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        key = fnv1a(key, parts[i], strlen(parts[i]) + 1);
    return key;
}

/* d's tuning file path into path; -1 when there is no cache directory. */
static int tuned_path(const device_info *d, char *path, size_t len, int create)
{
    char dir[CACHE_PATH];
    if (cache_dir(dir, sizeof dir, create) != 0)
        return -1;
    const int n = snprintf(path, len, "%s/tune-%016llx.txt", dir,
                           (unsigned long long)tuned_key(d));
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The value of the line "name value" in text, copied into buf; -1 when
 * absent or too long. */
static int tuned_field(const char *text, const char *name, char *buf, size_t len)
{
    const size_t n = strlen(name);
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, name, n) != 0 || l[n] != ' ')
            continue;
        const char *v = l + n + 1, *end = strchr(v, '\n');
        const size_t vn = end ? (size_t)(end - v) : strlen(v);
        if (vn >= len)
            return -1;
        memcpy(buf, v, vn);
        buf[vn] = '\0';
        return 0;
    }
    return -1;
}

int clgemm_tuned_load(const device_info *d, clgemm_config *cfg, char *path, size_t len)
{
    char p[CACHE_PATH + 64], key[32], opts[512];
    char *text = NULL;
    size_t n = 0;
    clgemm_config c;
    err e;
    int ok = tuned_path(d, p, sizeof p, 0) == 0;
    if (path)
        snprintf(path, len, "%s", ok ? p : "");
    ok = ok && fsx_read_all(p, &text, &n, &e) == 0;
    snprintf(key, sizeof key, "%016llx", (unsigned long long)tuned_key(d));
    char got[32];
    ok = ok && strlen(text) == n && strncmp(text, tune_magic, strlen(tune_magic)) == 0 &&
         tuned_field(text, "key", got, sizeof got) == 0 && strcmp(got, key) == 0 &&
         tuned_field(text, "options", opts, sizeof opts) == 0 &&
         clgemm_config_parse(opts, &c, &e) == 0;
    free(text);
    if (!ok)
        return -1;
    *cfg = c;
    return 0;
}

int clgemm_tuned_store(const device_info *d, const clgemm_config *cfg, char *path, size_t len,
                       err *e)
{
    char p[CACHE_PATH + 64], opts[512], text[2048];
    int rc = clgemm_config_options(cfg, opts, sizeof opts, e);
    if (rc)
        return rc;
    if (tuned_path(d, p, sizeof p, 1) != 0)
        return err_set(e, BE_EFAIL,
                       "%s: no cache directory for the tuning file (set BREAKEVEN_CACHE)",
                       d->name);
    if (path)
        snprintf(path, len, "%s", p);
    const int n = snprintf(text, sizeof text, "%s\nkey %016llx\ndevice %s\ndriver %s\noptions %s\n",
                           tune_magic, (unsigned long long)tuned_key(d), d->name, d->driver,
                           opts);
    if (n < 0 || (size_t)n >= sizeof text)
        return err_set(e, BE_EFAIL, "%s: tuning file too long", p);
    return fsx_write_atomic(p, text, (size_t)n, e);
}

/* ---------------------------------------------------------------------- */
/* Device setup and program build                                          */
/* ---------------------------------------------------------------------- */

static void dev_release_program(cl_dev *d)
{
    cl_kernel *ks[] = {&d->kfwd, &d->kdx, &d->kdw, &d->kdb, &d->kfwd_kb};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        if (*ks[i]) {
            clReleaseKernel(*ks[i]);
            *ks[i] = NULL;
        }
    if (d->prog) {
        clReleaseProgram(d->prog);
        d->prog = NULL;
    }
}

/* Creates the context and the profiling in-order queue on first use. */
static int dev_open(cl_dev *d, err *e)
{
    cl_int rc;
    if (d->queue)
        return 0;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           (cl_context_properties)d->platform, 0};
    d->ctx = clCreateContext(props, 1, &d->id, NULL, NULL, &rc);
    if (!d->ctx)
        return cl_fail(e, rc, "clCreateContext");
    d->queue = clCreateCommandQueue(d->ctx, d->id, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (!d->queue) {
        clReleaseContext(d->ctx);
        d->ctx = NULL;
        return cl_fail(e, rc, "clCreateCommandQueue");
    }
    return 0;
}

/* Builds prog for the device; on failure puts the head of the build log
 * into e and returns BE_EFAIL. */
static int build_log_fail(cl_dev *d, cl_program prog, cl_int rc, const char *opts, err *e)
{
    char log[801];
    size_t n = 0;
    log[0] = '\0';
    if (clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &n) !=
        CL_SUCCESS) {
        /* The log is longer than we show: fetch it whole, keep the head. */
        char *all = n > 0 ? malloc(n) : NULL;
        if (all && clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, n, all, NULL) ==
                       CL_SUCCESS)
            snprintf(log, sizeof log, "%s", all);
        free(all);
    }
    log[sizeof log - 1] = '\0';
    for (char *s = log; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
    return err_set(e, BE_EFAIL, "clBuildProgram(dense.cl, %s): %s: %s", opts, cl_code(rc), log);
}

/* The device's program from the cache entry at path, or NULL. */
static cl_program program_from_cache(cl_dev *d, const char *path, uint64_t key,
                                     const char *opts)
{
    size_t len = 0;
    cl_int rc, st;
    unsigned char *bin = cache_load(path, key, &len);
    if (!bin)
        return NULL;
    const unsigned char *bins[] = {bin};
    cl_program p = clCreateProgramWithBinary(d->ctx, 1, &d->id, &len, bins, &st, &rc);
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

/* Saves the built program's binary under path (best effort). */
static void program_to_cache(cl_program p, const char *path, uint64_t key)
{
    size_t len = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *bin = malloc(len);
    unsigned char *bins[] = {bin};
    if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        cache_store(path, key, bin, len);
    free(bin);
}

/* Builds (or loads from the cache) the program for d->cfg and creates its
 * kernels.  Replaces any previous program. */
static int dev_build(cl_dev *d, err *e)
{
    char opts[512], dir[CACHE_PATH], path[CACHE_PATH + 32];
    int rc = dev_open(d, e), have_cache;
    cl_int crc;
    if (rc)
        return rc;
    rc = clgemm_config_options(&d->cfg, opts, sizeof opts - 4, e);
    if (rc)
        return rc;
    /* No warnings: PoCL's compiler prints their count on stderr (float16
     * on AVX2 draws "changes the ABI" for inlined helpers). */
    strcat(opts, " -w");
    const size_t group = d->cfg.variant == CLGEMM_REG
                             ? (size_t)d->cfg.lx * (size_t)d->cfg.ly
                             : (size_t)(d->cfg.tsm / d->cfg.wptm) * (size_t)(d->cfg.tsn / d->cfg.wptn);
    if (group > d->max_group)
        return err_set(e, BE_EUSAGE, "%s: kernel config wants %zu-item groups, device allows %zu",
                       d->name, group, d->max_group);
    dev_release_program(d);

    uint64_t key = FNV_INIT;
    const char *parts[] = {d->name, d->driver, d->platver, embed_dense_cl, opts};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        key = fnv1a(key, parts[i], strlen(parts[i]) + 1); /* NUL separates parts */
    have_cache = cache_dir(dir, sizeof dir, 1) == 0;
    if (have_cache)
        snprintf(path, sizeof path, "%s/%016llx.clbin", dir, (unsigned long long)key);

    const double t0 = now_s();
    d->cache_hit = 0;
    d->prog = have_cache ? program_from_cache(d, path, key, opts) : NULL;
    if (d->prog) {
        d->cache_hit = 1;
    } else {
        const char *src = embed_dense_cl;
        d->prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &crc);
        if (!d->prog)
            return cl_fail(e, crc, "clCreateProgramWithSource(dense.cl)");
        crc = clBuildProgram(d->prog, 1, &d->id, opts, NULL, NULL);
        if (crc != CL_SUCCESS) {
            rc = crc == CL_BUILD_PROGRAM_FAILURE ? build_log_fail(d, d->prog, crc, opts, e)
                                                 : cl_fail(e, crc, "clBuildProgram(dense.cl)");
            goto fail;
        }
        if (have_cache)
            program_to_cache(d->prog, path, key);
    }
    struct { cl_kernel *k; const char *name; } ks[] = {
        {&d->kfwd, "dense_fwd"}, {&d->kdx, "dense_bwd_dx"},
        {&d->kdw, "dense_bwd_dw"}, {&d->kdb, "dense_bwd_db"},
        {&d->kfwd_kb, "dense_fwd_kb"}};
    const size_t nk = sizeof ks / sizeof ks[0] - (has_fwd_kb(&d->cfg) ? 0 : 1);
    for (size_t i = 0; i < nk; i++) {
        *ks[i].k = clCreateKernel(d->prog, ks[i].name, &crc);
        if (!*ks[i].k) {
            char what[64];
            snprintf(what, sizeof what, "clCreateKernel(%s)", ks[i].name);
            rc = cl_fail(e, crc, what);
            goto fail;
        }
    }
    d->build_s = now_s() - t0;
    return 0;
fail:
    dev_release_program(d);
    return rc;
}

int clgemm_set_config(void *handle, const clgemm_config *cfg, err *e)
{
    cl_dev *d = handle;
    int rc = config_check(cfg, e);
    if (rc)
        return rc;
    if (d->busy)
        return err_set(e, BE_EUSAGE, "%s: kernel config changed while a run is prepared",
                       d->name);
    d->cfg = *cfg;
    return dev_build(d, e);
}

void clgemm_get_config(void *handle, clgemm_config *cfg)
{
    *cfg = ((cl_dev *)handle)->cfg;
}

void clgemm_build_info(void *handle, double *seconds, int *cache_hit)
{
    const cl_dev *d = handle;
    if (seconds)
        *seconds = d->prog ? d->build_s : 0.0;
    if (cache_hit)
        *cache_hit = d->prog ? d->cache_hit : 0;
}

/* ---------------------------------------------------------------------- */
/* Kernel launches                                                         */
/* ---------------------------------------------------------------------- */

typedef struct { size_t g[2], l[2]; } ndrange;

/* The launch geometry of a P×Q GEMM with the device's configuration:
 * `dot` selects dx's block shape in the register-blocked variant. */
static ndrange gemm_range(const clgemm_config *c, int P, int Q, int dot)
{
    ndrange r;
    if (c->variant == CLGEMM_REG) {
        const int bm = dot ? c->dtm : c->tm, bn = dot ? c->dtn : c->tn;
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
typedef struct { size_t n; const void *p; } karg;
#define ARG(v) {sizeof(v), &(v)}

static int launch(cl_dev *d, cl_kernel k, const char *name, const karg *args, int nargs,
                  ndrange r, cl_event *ev, err *e)
{
    char what[96];
    cl_int rc;
    for (int i = 0; i < nargs; i++) {
        rc = clSetKernelArg(k, (cl_uint)i, args[i].n, args[i].p);
        if (rc != CL_SUCCESS) {
            snprintf(what, sizeof what, "clSetKernelArg(%s, %d)", name, i);
            return cl_fail(e, rc, what);
        }
    }
    rc = clEnqueueNDRangeKernel(d->queue, k, 2, NULL, r.g, r.l, 0, NULL, ev);
    if (rc != CL_SUCCESS) {
        snprintf(what, sizeof what, "clEnqueueNDRangeKernel(%s, %zu×%zu / %zu×%zu)", name,
                 r.g[0], r.g[1], r.l[0], r.l[1]);
        return cl_fail(e, rc, what);
    }
    return 0;
}

/* y = ReLU(x·W + b) for an M×K input and K×N weights, with dense_fwd_kb
 * when use_fwd_kb says so. */
static int enq_fwd(cl_dev *d, int M, int N, int K, cl_mem x, cl_mem w, cl_mem b, cl_mem y,
                   cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(x), ARG(w), ARG(b), ARG(y)};
    const int kb = use_fwd_kb(&d->cfg, K);
    return launch(d, kb ? d->kfwd_kb : d->kfwd, kb ? "dense_fwd_kb" : "dense_fwd", a, 7,
                  gemm_range(&d->cfg, M, N, 0), ev, e);
}

/* dx = dz·Wᵀ, dz = dy ⊙ [y > 0]. */
static int enq_dx(cl_dev *d, int M, int N, int K, cl_mem dy, cl_mem y, cl_mem w, cl_mem dx,
                  cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(dy), ARG(y), ARG(w), ARG(dx)};
    return launch(d, d->kdx, "dense_bwd_dx", a, 7, gemm_range(&d->cfg, M, K, 1), ev, e);
}

/* W -= lr·xᵀ·dz. */
static int enq_dw(cl_dev *d, int M, int N, int K, cl_mem x, cl_mem dy, cl_mem y, cl_mem w,
                  float lr, cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(K), ARG(x), ARG(dy), ARG(y), ARG(w), ARG(lr)};
    return launch(d, d->kdw, "dense_bwd_dw", a, 8, gemm_range(&d->cfg, K, N, 0), ev, e);
}

/* b -= lr·Σ_rows dz. */
static int enq_db(cl_dev *d, int M, int N, cl_mem dy, cl_mem y, cl_mem b, float lr,
                  cl_event *ev, err *e)
{
    const karg a[] = {ARG(M), ARG(N), ARG(dy), ARG(y), ARG(b), ARG(lr)};
    const ndrange r = {{ceil_to((size_t)N, DB_GROUP), 1}, {DB_GROUP, 1}};
    return launch(d, d->kdb, "dense_bwd_db", a, 6, r, ev, e);
}

/* Enqueues one step's kernels: the forward pass, and in training the
 * backward pass from the top (dy = y_L) with each layer's dx before its dw
 * (dx reads W before the update).  ev receives one event per kernel
 * (r->nev of them) when not NULL. */
static int enq_step(cl_run *r, cl_event *ev, err *e)
{
    cl_dev *d = r->d;
    const int L = r->w.layers, H = r->w.hidden, B = r->w.batch;
    int rc, k = 0;
#define EV (ev ? &ev[k++] : NULL)
    for (int l = 0; l < L; l++)
        if ((rc = enq_fwd(d, B, H, H, r->act[l], r->wt[l], r->bs[l], r->act[l + 1], EV, e)))
            return rc;
    if (r->w.mode != WL_TRAINING)
        return 0;
    for (int l = L - 1; l >= 0; l--) {
        cl_mem dy = l == L - 1 ? r->act[L] : r->dx[l + 1], y = r->act[l + 1];
        if ((rc = enq_dx(d, B, H, H, dy, y, r->wt[l], r->dx[l], EV, e)) ||
            (rc = enq_dw(d, B, H, H, r->act[l], dy, y, r->wt[l], r->w.lr, EV, e)) ||
            (rc = enq_db(d, B, H, dy, y, r->bs[l], r->w.lr, EV, e)))
            return rc;
    }
#undef EV
    return 0;
}

/* ---------------------------------------------------------------------- */
/* backend_ops                                                             */
/* ---------------------------------------------------------------------- */

static int upload(cl_dev *d, cl_mem m, const void *src, size_t n, const char *what,
                  cl_event *ev, err *e)
{
    const cl_int rc = clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0, n, src, 0, NULL, ev);
    if (rc != CL_SUCCESS) {
        char msg[96];
        snprintf(msg, sizeof msg, "clEnqueueWriteBuffer(%s, %zu bytes)", what, n);
        return cl_fail(e, rc, msg);
    }
    return 0;
}

static int download(cl_dev *d, cl_mem m, void *dst, size_t n, const char *what, cl_event *ev,
                    err *e)
{
    const cl_int rc = clEnqueueReadBuffer(d->queue, m, CL_TRUE, 0, n, dst, 0, NULL, ev);
    if (rc != CL_SUCCESS) {
        char msg[96];
        snprintf(msg, sizeof msg, "clEnqueueReadBuffer(%s, %zu bytes)", what, n);
        return cl_fail(e, rc, msg);
    }
    return 0;
}

static int cl_reset(void *run, err *e)
{
    cl_run *r = run;
    const size_t H = (size_t)r->w.hidden;
    int rc;
    for (int l = 0; l < r->w.layers; l++)
        if ((rc = upload(r->d, r->wt[l], r->w.w0[l], H * H * sizeof(float), "W", NULL, e)) ||
            (rc = upload(r->d, r->bs[l], r->w.b0[l], H * sizeof(float), "b", NULL, e)))
            return rc;
    return 0;
}

static void release_mems(cl_mem *m, int n)
{
    if (!m)
        return;
    for (int i = 0; i < n; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(m);
}

static void cl_release(void *run)
{
    cl_run *r = run;
    if (!r)
        return;
    const int L = r->w.layers;
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
    if (!*m) {
        char msg[96];
        snprintf(msg, sizeof msg, "clCreateBuffer(%s[%d], %zu bytes)", what, i, n);
        return cl_fail(e, rc, msg);
    }
    return 0;
}

static int cl_prepare(void *dev, const workload *w, void **run, err *e)
{
    cl_dev *d = dev;
    cl_run *r = NULL;
    const int L = w->layers, train = w->mode == WL_TRAINING;
    int rc;
    *run = NULL;
    if (L < 1 || w->hidden < 1 || w->batch < 1)
        return err_set(e, BE_EUSAGE, "workload: layers=%d hidden=%d batch=%d", L, w->hidden,
                       w->batch);
    if (d->busy)
        return err_set(e, BE_EUSAGE, "%s: a run is already prepared", d->name);

    /* Refuse what cannot fit before asking the driver: some drivers accept
     * oversized buffers and fail later, or page forever. */
    const size_t H = (size_t)w->hidden, B = (size_t)w->batch;
    const size_t act = B * H * sizeof(float), wsz = H * H * sizeof(float);
    const double total = (double)(L + 1) * (double)act + (double)L * (double)wsz +
                         (double)L * (double)H * sizeof(float) +
                         (train ? (double)L * (double)act : 0.0);
    if (H * H > INT_MAX || B * H > INT_MAX)
        return err_set(e, BE_EOOM, "%s: %zu×%zu matrices exceed the kernels' 2^31-element indexing",
                       d->name, H, H > B ? H : B);
    if (wsz > d->max_alloc || act > d->max_alloc)
        return err_set(e, BE_EOOM,
                       "%s: a %zu-byte buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes)",
                       d->name, wsz > act ? wsz : act, (unsigned long long)d->max_alloc);
    if (total > (double)d->global_mem)
        return err_set(e, BE_EOOM,
                       "%s: %.0f bytes of buffers exceed CL_DEVICE_GLOBAL_MEM_SIZE (%llu bytes)",
                       d->name, total, (unsigned long long)d->global_mem);

    if (!d->prog && (rc = dev_build(d, e)))
        return rc;

    r = calloc(1, sizeof *r);
    if (!r)
        return err_set(e, BE_EOOM, "%s: out of host memory for a run", d->name);
    r->d = d;
    r->w = *w;
    d->busy = 1; /* from here cl_release undoes everything */
    r->nev = train ? 4 * L : L;
    r->act = calloc((size_t)L + 1, sizeof *r->act);
    r->wt = calloc((size_t)L, sizeof *r->wt);
    r->bs = calloc((size_t)L, sizeof *r->bs);
    r->dx = train ? calloc((size_t)L, sizeof *r->dx) : NULL;
    r->evs = calloc((size_t)r->nev, sizeof *r->evs);
    r->out = malloc(act);
    if (!r->act || !r->wt || !r->bs || (train && !r->dx) || !r->evs || !r->out) {
        rc = err_set(e, BE_EOOM, "%s: out of host memory for a run", d->name);
        goto fail;
    }
    for (int l = 0; l <= L; l++)
        if ((rc = new_buffer(d, &r->act[l], act, "act", l, e)))
            goto fail;
    for (int l = 0; l < L; l++)
        if ((rc = new_buffer(d, &r->wt[l], wsz, "W", l, e)) ||
            (rc = new_buffer(d, &r->bs[l], H * sizeof(float), "b", l, e)) ||
            (train && (rc = new_buffer(d, &r->dx[l], act, "dx", l, e))))
            goto fail;

    /* A throw-away step on 1×1 matrices with the real work-group sizes, so
     * that a driver generating code per launch shape (PoCL) does it here and
     * not in the first timed step.  It scribbles on the buffers, hence the
     * upload after it. */
    {
        workload tiny = *w;
        tiny.hidden = tiny.batch = 1;
        r->w = tiny;
        rc = enq_step(r, NULL, e);
        r->w = *w;
        if (rc)
            goto fail;
        if (has_fwd_kb(&d->cfg)) { /* the 1×1 step took dense_fwd */
            const int one = 1;
            const karg a[] = {ARG(one), ARG(one), ARG(one), ARG(r->act[0]), ARG(r->wt[0]),
                              ARG(r->bs[0]), ARG(r->act[1])};
            if ((rc = launch(d, d->kfwd_kb, "dense_fwd_kb", a, 7,
                             gemm_range(&d->cfg, 1, 1, 0), NULL, e)))
                goto fail;
        }
        const cl_int crc = clFinish(d->queue);
        if (crc != CL_SUCCESS) {
            rc = cl_fail(e, crc, "clFinish(warm-up)");
            goto fail;
        }
    }
    if ((rc = cl_reset(r, e)))
        goto fail;
    *run = r;
    return 0;
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
    if (rc != CL_SUCCESS) {
        char msg[96];
        snprintf(msg, sizeof msg, "clGetEventProfilingInfo(%s)", what);
        return cl_fail(e, rc, msg);
    }
    *s = 1e-9 * (double)(t1 - t0);
    return 0;
}

static int cl_step(void *run, step_times *t, err *e)
{
    cl_run *r = run;
    cl_dev *d = r->d;
    const int L = r->w.layers;
    const size_t act = (size_t)r->w.batch * (size_t)r->w.hidden * sizeof(float);
    cl_event up = NULL, down = NULL;
    int rc;
    cl_int crc;

    /* The upload blocks, so that `wall` below covers the kernels alone. */
    const double t0 = now_s();
    if ((rc = upload(d, r->act[0], r->w.x0, act, "x", &up, e)))
        goto fail;
    const double t1 = now_s();
    if ((rc = enq_step(r, r->evs, e)))
        goto fail;
    crc = clFinish(d->queue);
    if (crc != CL_SUCCESS) {
        rc = cl_fail(e, crc, "clFinish(step)");
        goto fail;
    }
    const double t2 = now_s();
    if ((rc = download(d, r->act[L], r->out, act, "y", &down, e)))
        goto fail;
    const double t3 = now_s();

    t->wall = t2 - t1;
    t->total = t3 - t0;
    t->kernel = 0.0;
    for (int i = 0; i < r->nev; i++) {
        double s = 0.0;
        if ((rc = ev_seconds(r->evs[i], &s, "kernel", e)))
            goto fail;
        t->kernel += s;
    }
    if ((rc = ev_seconds(up, &t->h2d, "upload", e)) ||
        (rc = ev_seconds(down, &t->d2h, "read-back", e)))
        goto fail;
    rc = 0;
fail:
    /* Events exist for the commands enqueued before a failure only. */
    for (int i = 0; i < r->nev; i++)
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
    const size_t H = (size_t)r->w.hidden, act = (size_t)r->w.batch * H * sizeof(float);
    int rc;
    for (int l = 0; l <= r->w.layers; l++)
        if ((rc = download(r->d, r->act[l], s->act[l], act, "act", NULL, e)))
            return rc;
    if (r->w.mode != WL_TRAINING)
        return 0;
    for (int l = 0; l < r->w.layers; l++)
        if ((rc = download(r->d, r->dx[l], s->dx[l], act, "dx", NULL, e)) ||
            (rc = download(r->d, r->wt[l], s->w[l], H * H * sizeof(float), "W", NULL, e)) ||
            (rc = download(r->d, r->bs[l], s->b[l], H * sizeof(float), "b", NULL, e)))
            return rc;
    return 0;
}

static const backend_ops cl_ops = {
    .prepare = cl_prepare,
    .reset = cl_reset,
    .step = cl_step,
    .state = cl_state,
    .release = cl_release,
};

/* ---------------------------------------------------------------------- */
/* Discovery                                                               */
/* ---------------------------------------------------------------------- */

/* A string property of a device or platform into buf (truncated). */
static int dev_str(cl_device_id id, cl_device_info what, char *buf, size_t len, const char *name,
                   err *e)
{
    size_t n = 0;
    cl_int rc = clGetDeviceInfo(id, what, 0, NULL, &n);
    char *tmp = rc == CL_SUCCESS ? malloc(n + 1) : NULL;
    if (rc == CL_SUCCESS && !tmp)
        return err_set(e, BE_EFAIL, "clGetDeviceInfo(%s): out of host memory", name);
    if (rc == CL_SUCCESS)
        rc = clGetDeviceInfo(id, what, n, tmp, NULL);
    if (rc != CL_SUCCESS) {
        free(tmp);
        char msg[96];
        snprintf(msg, sizeof msg, "clGetDeviceInfo(%s)", name);
        return cl_fail(e, rc, msg);
    }
    tmp[n] = '\0';
    snprintf(buf, len, "%s", tmp);
    free(tmp);
    return 0;
}

static int plat_str(cl_platform_id id, cl_platform_info what, char *buf, size_t len,
                    const char *name, err *e)
{
    size_t n = 0;
    cl_int rc = clGetPlatformInfo(id, what, 0, NULL, &n);
    char *tmp = rc == CL_SUCCESS ? malloc(n + 1) : NULL;
    if (rc == CL_SUCCESS && !tmp)
        return err_set(e, BE_EFAIL, "clGetPlatformInfo(%s): out of host memory", name);
    if (rc == CL_SUCCESS)
        rc = clGetPlatformInfo(id, what, n, tmp, NULL);
    if (rc != CL_SUCCESS) {
        free(tmp);
        char msg[96];
        snprintf(msg, sizeof msg, "clGetPlatformInfo(%s)", name);
        return cl_fail(e, rc, msg);
    }
    tmp[n] = '\0';
    snprintf(buf, len, "%s", tmp);
    free(tmp);
    return 0;
}

static int dev_num(cl_device_id id, cl_device_info what, void *v, size_t n, const char *name,
                   err *e)
{
    const cl_int rc = clGetDeviceInfo(id, what, n, v, NULL);
    if (rc != CL_SUCCESS) {
        char msg[96];
        snprintf(msg, sizeof msg, "clGetDeviceInfo(%s)", name);
        return cl_fail(e, rc, msg);
    }
    return 0;
}

/* Fills the description of device D of platform P. */
static int describe(cl_platform_id plat, cl_device_id id, int P, int D, device *out,
                    cl_dev *d, err *e)
{
    device_info *in = &out->info;
    char pname[256], ocl_c[128], *ext = NULL;
    cl_device_type type;
    cl_uint cus, mhz;
    cl_ulong gmem, lmem, malloc_sz;
    cl_device_fp_config fp64;
    size_t n = 0;
    int rc;

    snprintf(in->id, sizeof in->id, "cl:%d.%d", P, D);
    snprintf(in->kind, sizeof in->kind, "opencl");
    if ((rc = dev_str(id, CL_DEVICE_NAME, in->name, sizeof in->name, "CL_DEVICE_NAME", e)) ||
        (rc = dev_str(id, CL_DEVICE_VENDOR, in->vendor, sizeof in->vendor, "CL_DEVICE_VENDOR",
                      e)) ||
        (rc = dev_str(id, CL_DRIVER_VERSION, in->driver, sizeof in->driver,
                      "CL_DRIVER_VERSION", e)) ||
        (rc = dev_str(id, CL_DEVICE_OPENCL_C_VERSION, ocl_c, sizeof ocl_c,
                      "CL_DEVICE_OPENCL_C_VERSION", e)) ||
        (rc = plat_str(plat, CL_PLATFORM_NAME, pname, sizeof pname, "CL_PLATFORM_NAME", e)) ||
        (rc = plat_str(plat, CL_PLATFORM_VERSION, d->platver, sizeof d->platver,
                       "CL_PLATFORM_VERSION", e)) ||
        (rc = dev_num(id, CL_DEVICE_TYPE, &type, sizeof type, "CL_DEVICE_TYPE", e)) ||
        (rc = dev_num(id, CL_DEVICE_MAX_COMPUTE_UNITS, &cus, sizeof cus,
                      "CL_DEVICE_MAX_COMPUTE_UNITS", e)) ||
        (rc = dev_num(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, &mhz, sizeof mhz,
                      "CL_DEVICE_MAX_CLOCK_FREQUENCY", e)) ||
        (rc = dev_num(id, CL_DEVICE_GLOBAL_MEM_SIZE, &gmem, sizeof gmem,
                      "CL_DEVICE_GLOBAL_MEM_SIZE", e)) ||
        (rc = dev_num(id, CL_DEVICE_LOCAL_MEM_SIZE, &lmem, sizeof lmem,
                      "CL_DEVICE_LOCAL_MEM_SIZE", e)) ||
        (rc = dev_num(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &malloc_sz, sizeof malloc_sz,
                      "CL_DEVICE_MAX_MEM_ALLOC_SIZE", e)) ||
        (rc = dev_num(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, &d->max_group, sizeof d->max_group,
                      "CL_DEVICE_MAX_WORK_GROUP_SIZE", e)) ||
        (rc = dev_num(id, CL_DEVICE_DOUBLE_FP_CONFIG, &fp64, sizeof fp64,
                      "CL_DEVICE_DOUBLE_FP_CONFIG", e)))
        return rc;
    cl_int crc = clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &n);
    if (crc == CL_SUCCESS) {
        ext = malloc(n + 1);
        if (!ext)
            return err_set(e, BE_EFAIL, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS): out of host memory");
        crc = clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, n, ext, NULL);
        ext[n] = '\0';
    }
    if (crc != CL_SUCCESS) {
        free(ext);
        return cl_fail(e, crc, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)");
    }
    const int fp16 = strstr(ext, "cl_khr_fp16") != NULL;
    free(ext);

    snprintf(in->type, sizeof in->type, "%s",
             type & CL_DEVICE_TYPE_GPU           ? "GPU"
             : type & CL_DEVICE_TYPE_CPU         ? "CPU"
             : type & CL_DEVICE_TYPE_ACCELERATOR ? "ACCELERATOR"
                                                 : "CUSTOM");
    snprintf(in->library, sizeof in->library, "%.100s %.150s", pname, d->platver);
    device_prop_add(in, "opencl_c_version", "%s", ocl_c);
    device_prop_add(in, "compute_units", "%u", (unsigned)cus);
    device_prop_add(in, "max_clock_mhz", "%u", (unsigned)mhz);
    device_prop_add(in, "global_mem_bytes", "%llu", (unsigned long long)gmem);
    device_prop_add(in, "local_mem_bytes", "%llu", (unsigned long long)lmem);
    device_prop_add(in, "max_alloc_bytes", "%llu", (unsigned long long)malloc_sz);
    device_prop_add(in, "fp16", "%s", fp16 ? "yes" : "no");
    device_prop_add(in, "fp64", "%s", fp64 ? "yes" : "no");
    device_prop_add(in, "platform", "%s", pname);

    d->platform = plat;
    d->id = id;
    d->max_alloc = malloc_sz;
    d->global_mem = gmem;
    snprintf(d->name, sizeof d->name, "%s", in->name);
    snprintf(d->driver, sizeof d->driver, "%s", in->driver);
    clgemm_config_default(in, &d->cfg);
    const int tuned = clgemm_tuned_load(in, &d->cfg, NULL, 0) == 0;
    char opts[256];
    if (clgemm_config_options(&d->cfg, opts, sizeof opts, e) == 0)
        device_prop_add(in, "kernel_options", "%s", opts);
    device_prop_add(in, "kernel_config", "%s", tuned ? "tuned" : "default");
    out->ops = &cl_ops;
    out->handle = d;
    return 0;
}

void clgemm_free(device *devs, int n)
{
    if (!devs)
        return;
    for (int i = 0; i < n; i++) {
        cl_dev *d = devs[i].handle;
        if (!d)
            continue;
        dev_release_program(d);
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
    cl_platform_id *plats = NULL;
    cl_device_id *ids = NULL;
    device *devs = NULL;
    cl_uint np = 0;
    int count = 0, rc;

    *out = NULL;
    *n = 0;
    cl_int crc = clGetPlatformIDs(0, NULL, &np);
    if (crc == CL_PLATFORM_NOT_FOUND_KHR || (crc == CL_SUCCESS && np == 0))
        return 0; /* no OpenCL here: nothing to measure, not a failure */
    if (crc != CL_SUCCESS)
        return cl_fail(e, crc, "clGetPlatformIDs");
    plats = calloc(np, sizeof *plats);
    if (!plats) {
        rc = err_set(e, BE_EFAIL, "clGetPlatformIDs: out of host memory");
        goto fail;
    }
    if ((crc = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        rc = cl_fail(e, crc, "clGetPlatformIDs");
        goto fail;
    }
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        crc = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (crc == CL_DEVICE_NOT_FOUND || (crc == CL_SUCCESS && nd == 0))
            continue; /* a platform without devices (e.g. no GPU plugged in) */
        if (crc != CL_SUCCESS) {
            rc = cl_fail(e, crc, "clGetDeviceIDs");
            goto fail;
        }
        free(ids);
        ids = calloc(nd, sizeof *ids);
        device *grown = realloc(devs, ((size_t)count + nd) * sizeof *devs);
        if (!ids || !grown) {
            rc = err_set(e, BE_EFAIL, "clGetDeviceIDs: out of host memory");
            goto fail;
        }
        devs = grown;
        if ((crc = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL)) != CL_SUCCESS) {
            rc = cl_fail(e, crc, "clGetDeviceIDs");
            goto fail;
        }
        for (cl_uint i = 0; i < nd; i++) {
            device *dv = &devs[count];
            memset(dv, 0, sizeof *dv);
            cl_dev *d = calloc(1, sizeof *d);
            if (!d) {
                rc = err_set(e, BE_EFAIL, "cl:%u.%u: out of host memory", p, i);
                goto fail;
            }
            dv->handle = d;
            count++; /* counted now, so that clgemm_free below frees d */
            if ((rc = describe(plats[p], ids[i], (int)p, (int)i, dv, d, e))) {
                err_prefix(e, rc, "cl:%u.%u", p, i);
                goto fail;
            }
        }
    }
    free(plats);
    free(ids);
    *out = devs;
    *n = count;
    return 0;
fail:
    free(plats);
    free(ids);
    clgemm_free(devs, count);
    return rc;
}
