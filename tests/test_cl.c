/*
 * test_cl.c — tests of the OpenCL backend (clgemm*.c) on whatever OpenCL
 * device the machine has (PoCL on a machine without a GPU).
 *
 * Numerical checks compare one step against a double-precision host
 * reference computed layer by layer from the device's own inputs to that
 * layer, so that each layer's error is measured on its own and a ReLU that
 * flips at zero in one layer cannot cascade.  The tolerance scales with
 * Σ|a·b| of each dot product, the bound of fp32 summation error.
 *
 * Every test uses a fresh program cache in a temporary BREAKEVEN_CACHE
 * directory, removed at the end.  The tuner (tune.c) is tested here too, on
 * small shapes: it needs a real device and writes into the same cache.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend.h"
#include "clgemm.h"
#include "clgemm_cache.h"
#include "tune.h"

static char cache_dir[64];

/* ---------------------------------------------------------------------- */
/* Workloads and the host reference                                        */
/* ---------------------------------------------------------------------- */

/* A workload with its arrays (owned here, freed by wl_free). */
typedef struct {
    workload w;
    float *x, **ws, **bs;
} test_wl;

static float rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((*s >> 40) & 0xffffff) / (float)0x1000000 * 2.0f - 1.0f; /* [-1, 1) */
}

static void wl_make(test_wl *t, wl_mode mode, int layers, int hidden, int batch)
{
    uint64_t s = 42u + (uint64_t)hidden * 1000003u + (uint64_t)batch;
    const size_t H = (size_t)hidden, B = (size_t)batch;
    memset(t, 0, sizeof *t);
    t->x = malloc(B * H * sizeof(float));
    t->ws = calloc((size_t)layers, sizeof *t->ws);
    t->bs = calloc((size_t)layers, sizeof *t->bs);
    assert_non_null(t->x);
    assert_non_null(t->ws);
    assert_non_null(t->bs);
    for (size_t i = 0; i < B * H; i++)
        t->x[i] = rnd(&s);
    for (int l = 0; l < layers; l++) {
        t->ws[l] = malloc(H * H * sizeof(float));
        t->bs[l] = malloc(H * sizeof(float));
        assert_non_null(t->ws[l]);
        assert_non_null(t->bs[l]);
        /* 1.5/√H keeps activations O(1) through the layers. */
        for (size_t i = 0; i < H * H; i++)
            t->ws[l][i] = rnd(&s) * 1.5f / sqrtf((float)H);
        for (size_t i = 0; i < H; i++)
            t->bs[l][i] = 0.1f * rnd(&s);
    }
    t->w = (workload){.mode = mode,
                      .layers = layers,
                      .hidden = hidden,
                      .batch = batch,
                      .lr = 0.05f,
                      .x0 = t->x,
                      .w0 = (const float *const *)t->ws,
                      .b0 = (const float *const *)t->bs};
}

static void wl_free(test_wl *t)
{
    for (int l = 0; l < t->w.layers; l++) {
        free(t->ws[l]);
        free(t->bs[l]);
    }
    free(t->ws);
    free(t->bs);
    free(t->x);
}

/* A net_state with the workload's shapes (freed by st_free). */
static void st_make(net_state *s, const workload *w)
{
    const size_t H = (size_t)w->hidden, B = (size_t)w->batch, L = (size_t)w->layers;
    s->act = calloc(L + 1, sizeof *s->act);
    s->dx = calloc(L, sizeof *s->dx);
    s->w = calloc(L, sizeof *s->w);
    s->b = calloc(L, sizeof *s->b);
    assert_true(s->act && s->dx && s->w && s->b);
    for (size_t l = 0; l <= L; l++)
        assert_non_null(s->act[l] = malloc(B * H * sizeof(float)));
    for (size_t l = 0; l < L; l++) {
        assert_non_null(s->dx[l] = malloc(B * H * sizeof(float)));
        assert_non_null(s->w[l] = malloc(H * H * sizeof(float)));
        assert_non_null(s->b[l] = malloc(H * sizeof(float)));
    }
}

static void st_free(net_state *s, const workload *w)
{
    for (int l = 0; l <= w->layers; l++)
        free(s->act[l]);
    for (int l = 0; l < w->layers; l++) {
        free(s->dx[l]);
        free(s->w[l]);
        free(s->b[l]);
    }
    free(s->act);
    free(s->dx);
    free(s->w);
    free(s->b);
}

/* fp32 summation error bound for a sum whose |terms| add up to scale. */
static double tol(double scale, int n)
{
    return 4e-7 * (n + 8) * scale + 1e-6;
}

#define CHECK_NEAR(got, want, t, what, l, i)                                                    \
    do {                                                                                        \
        if (fabs((double)(got) - (want)) > (t)) {                                               \
            fail_msg("%s layer %d index %zu: got %.9g want %.9g (tol %.3g) H=%d B=%d", what, l, \
                     (size_t)(i), (double)(got), (double)(want), (double)(t), H, B);            \
        }                                                                                       \
    } while (0)

/* Checks the state after one step against the double reference. */
static void verify(const workload *w, const net_state *s)
{
    const int L = w->layers, H = w->hidden, B = w->batch;
    for (int i = 0; i < B * H; i++)
        assert_true(s->act[0][i] == w->x0[i]);
    for (int l = 0; l < L; l++) {
        const float *x = s->act[l], *W = w->w0[l], *b = w->b0[l], *y = s->act[l + 1];
        for (int m = 0; m < B; m++)
            for (int n = 0; n < H; n++) {
                double acc = b[n], sc = fabs(b[n]);
                for (int k = 0; k < H; k++) {
                    acc += (double)x[m * H + k] * W[k * H + n];
                    sc += fabs((double)x[m * H + k] * W[k * H + n]);
                }
                CHECK_NEAR(y[m * H + n], acc > 0 ? acc : 0.0, tol(sc, H), "y", l, m * H + n);
            }
    }
    if (w->mode != WL_TRAINING)
        return;
    for (int l = L - 1; l >= 0; l--) {
        const float *dy = l == L - 1 ? s->act[L] : s->dx[l + 1], *y = s->act[l + 1];
        const float *x = s->act[l], *W = w->w0[l];
        double *dz = malloc((size_t)B * (size_t)H * sizeof *dz);
        assert_non_null(dz);
        for (int i = 0; i < B * H; i++)
            dz[i] = y[i] > 0 ? dy[i] : 0.0;
        for (int m = 0; m < B; m++) /* dx = dz·Wᵀ with the old W */
            for (int k = 0; k < H; k++) {
                double acc = 0, sc = 0;
                for (int n = 0; n < H; n++) {
                    acc += dz[m * H + n] * W[k * H + n];
                    sc += fabs(dz[m * H + n] * W[k * H + n]);
                }
                CHECK_NEAR(s->dx[l][m * H + k], acc, tol(sc, H), "dx", l, m * H + k);
            }
        for (int k = 0; k < H; k++) /* W - lr·xᵀ·dz */
            for (int n = 0; n < H; n++) {
                double acc = 0, sc = 0;
                for (int m = 0; m < B; m++) {
                    acc += (double)x[m * H + k] * dz[m * H + n];
                    sc += fabs((double)x[m * H + k] * dz[m * H + n]);
                }
                const double want = W[k * H + n] - (double)w->lr * acc;
                CHECK_NEAR(s->w[l][k * H + n], want,
                           w->lr * tol(sc, B) + 2.4e-7 * fabs((double)W[k * H + n]), "W", l,
                           k * H + n);
            }
        for (int n = 0; n < H; n++) { /* b - lr·Σ_rows dz */
            double acc = 0, sc = 0;
            for (int m = 0; m < B; m++) {
                acc += dz[m * H + n];
                sc += fabs(dz[m * H + n]);
            }
            const double want = w->b0[l][n] - (double)w->lr * acc;
            CHECK_NEAR(s->b[l][n], want, w->lr * tol(sc, B) + 2.4e-7 * fabs((double)w->b0[l][n]),
                       "b", l, n);
        }
        free(dz);
    }
}

/* Prepares, steps twice with a reset between (the second step must start
 * from the initial parameters again), reads the state and verifies it. */
static void run_point(device *dv, wl_mode mode, int layers, int hidden, int batch)
{
    test_wl t;
    net_state s;
    void *run = NULL;
    step_times tm;
    err e = {{0}};
    wl_make(&t, mode, layers, hidden, batch);
    st_make(&s, &t.w);
    int rc = dv->ops->prepare(dv->handle, &t.w, &run, &e);
    if (rc)
        fail_msg("prepare(L=%d H=%d B=%d): %d %s", layers, hidden, batch, rc, e.msg);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(dv->ops->reset(run, &e), 0);
        rc = dv->ops->step(run, &tm, &e);
        if (rc)
            fail_msg("step: %s", e.msg);
    }
    assert_true(tm.kernel > 0 && tm.wall > 0 && tm.h2d >= 0 && tm.d2h >= 0);
    assert_true(tm.total >= tm.wall);
    assert_int_equal(dv->ops->state(run, &s, &e), 0);
    verify(&t.w, &s);
    dv->ops->release(run);
    st_free(&s, &t.w);
    wl_free(&t);
}

/* ---------------------------------------------------------------------- */
/* Fixtures                                                                */
/* ---------------------------------------------------------------------- */

static void rm_cache(void)
{
    DIR *d = opendir(cache_dir);
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d));) {
        char p[512];
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", cache_dir, de->d_name);
            unlink(p);
        }
    }
    closedir(d);
}

/* The devices of one test, from a fresh discovery. */
typedef struct {
    device *devs;
    int n;
} fixture;

/* Discovers the devices, keeping whatever the program cache holds. */
static int setup_keep_cache(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    err e = {{0}};
    if (!f)
        return -1;
    if (clgemm_discover(&f->devs, &f->n, &e) != 0 || f->n < 1) {
        fprintf(stderr, "clgemm_discover: %s (n=%d)\n", e.msg, f->n);
        clgemm_free(f->devs, f->n);
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int setup(void **state)
{
    rm_cache(); /* each test starts from an empty program cache */
    return setup_keep_cache(state);
}

static int teardown(void **state)
{
    fixture *f = *state;
    clgemm_free(f->devs, f->n);
    free(f);
    return 0;
}

/* Switches device 0 to another kernel configuration. */
static void use_config(fixture *f, const clgemm_config *c)
{
    err e = {{0}};
    if (clgemm_set_config(f->devs[0].handle, c, &e) != 0)
        fail_msg("clgemm_set_config: %s", e.msg);
}

/* The default register-blocked layout, and small variants of both kernel
 * styles whose tiles do not divide the test sizes. */
static const clgemm_config reg_small = {
    .variant = CLGEMM_REG, .vw = 4, .tm = 3, .tn = 8, .dtm = 2, .dtn = 3, .lx = 4, .ly = 2};
/* K-blocked forward with a block depth (7) and group (3×2) that divide
 * nothing, so partial blocks and padding items are exercised. */
static const clgemm_config reg_kb = {.variant = CLGEMM_REG,
                                     .vw = 4,
                                     .tm = 3,
                                     .tn = 8,
                                     .dtm = 2,
                                     .dtn = 3,
                                     .lx = 3,
                                     .ly = 2,
                                     .kb = 7};
static const clgemm_config local_small = {
    .variant = CLGEMM_LOCAL, .tsm = 16, .tsn = 32, .tsk = 8, .wptm = 2, .wptn = 4};
/* The vector path (lvw): float4 with one slice; float2 double-buffered
 * with a slice of A (24×6 in 48 items) that the items do not share evenly;
 * and the largest GPU candidate's shape, double-buffered. */
static const clgemm_config local_vec4 = {
    .variant = CLGEMM_LOCAL, .tsm = 16, .tsn = 32, .tsk = 8, .wptm = 4, .wptn = 4, .lvw = 4};
static const clgemm_config local_vec2 = {.variant = CLGEMM_LOCAL,
                                         .tsm = 24,
                                         .tsn = 16,
                                         .tsk = 6,
                                         .wptm = 4,
                                         .wptn = 2,
                                         .lvw = 2,
                                         .dbuf = 1};
static const clgemm_config local_vec4_big = {.variant = CLGEMM_LOCAL,
                                             .tsm = 128,
                                             .tsn = 128,
                                             .tsk = 16,
                                             .wptm = 8,
                                             .wptn = 8,
                                             .lvw = 4,
                                             .dbuf = 1};

/* ---------------------------------------------------------------------- */
/* Tests                                                                   */
/* ---------------------------------------------------------------------- */

static void test_discover(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < f->n; i++) {
        const device_info *in = &f->devs[i].info;
        assert_true(strncmp(in->id, "cl:", 3) == 0);
        assert_string_equal(in->kind, "opencl");
        assert_true(in->name[0] != '\0');
        assert_true(strcmp(in->type, "CPU") == 0 || strcmp(in->type, "GPU") == 0 ||
                    strcmp(in->type, "ACCELERATOR") == 0 || strcmp(in->type, "CUSTOM") == 0);
        assert_true(in->driver[0] != '\0' && in->library[0] != '\0');
        assert_non_null(f->devs[i].ops);
        assert_non_null(f->devs[i].handle);
        int found = 0;
        for (int p = 0; p < in->nprops; p++)
            found |= strcmp(in->props[p].name, "max_alloc_bytes") == 0;
        assert_true(found);
    }
}

/* Sizes 1 and 17 hit every edge (tiles never divide them) with two layers;
 * 1000 runs one layer so the double reference stays quick. */
static void check_sizes(fixture *f, wl_mode mode)
{
    static const int hb[][2] = {{1, 1}, {1, 17}, {17, 1}, {17, 17}, {17, 1000}, {1000, 17}};
    device *dv = &f->devs[0];
    for (size_t i = 0; i < sizeof hb / sizeof hb[0]; i++) {
        const int H = hb[i][0], B = hb[i][1];
        run_point(dv, mode, H >= 1000 ? 1 : 2, H, B);
    }
    run_point(dv, mode, 1, 1000, 1000 / (mode == WL_TRAINING ? 8 : 1));
}

/* check_sizes, and for the vector path sizes whose rows are multiples of 2
 * but not 4 (70), of 4 but not of any tile (68, 132: vectors inside, tiles
 * partial), with odd batches (37, 45) and a batch that is a multiple of 4
 * (36: dw's reduction in whole vectors, partial slices). */
static void check_sizes_vec(fixture *f, wl_mode mode)
{
    static const int hb[][2] = {{70, 37}, {68, 36}, {132, 45}, {37, 70}};
    device *dv = &f->devs[0];
    check_sizes(f, mode);
    for (size_t i = 0; i < sizeof hb / sizeof hb[0]; i++)
        run_point(dv, mode, 2, hb[i][0], hb[i][1]);
}

static void test_forward_default(void **state)
{
    check_sizes(*state, WL_INFERENCE);
}
static void test_training_default(void **state)
{
    check_sizes(*state, WL_TRAINING);
}

static void test_forward_variants(void **state)
{
    use_config(*state, &reg_small);
    check_sizes(*state, WL_INFERENCE);
    use_config(*state, &reg_kb);
    check_sizes(*state, WL_INFERENCE);
    use_config(*state, &local_small);
    check_sizes(*state, WL_INFERENCE);
    use_config(*state, &local_vec4);
    check_sizes_vec(*state, WL_INFERENCE);
    use_config(*state, &local_vec2);
    check_sizes_vec(*state, WL_INFERENCE);
    use_config(*state, &local_vec4_big);
    check_sizes_vec(*state, WL_INFERENCE);
}

static void test_training_variants(void **state)
{
    use_config(*state, &reg_small);
    check_sizes(*state, WL_TRAINING);
    use_config(*state, &reg_kb);
    check_sizes(*state, WL_TRAINING);
    use_config(*state, &local_small);
    check_sizes(*state, WL_TRAINING);
    use_config(*state, &local_vec4);
    check_sizes_vec(*state, WL_TRAINING);
    use_config(*state, &local_vec2);
    check_sizes_vec(*state, WL_TRAINING);
    use_config(*state, &local_vec4_big);
    check_sizes_vec(*state, WL_TRAINING);
}

/* Numeric device property by name. */
static unsigned long long prop_ull(const device_info *in, const char *name)
{
    for (int p = 0; p < in->nprops; p++)
        if (strcmp(in->props[p].name, name) == 0)
            return strtoull(in->props[p].value, NULL, 10);
    fail_msg("no property %s", name);
    return 0;
}

/* prepare refuses before reading the parameters, so the arrays here are
 * one-element stand-ins for matrices that could never be allocated. */
static void test_oom(void **state)
{
    fixture *f = *state;
    device *dv = &f->devs[0];
    const unsigned long long max_alloc = prop_ull(&dv->info, "max_alloc_bytes");
    const unsigned long long gmem = prop_ull(&dv->info, "global_mem_bytes");
    static float dummy[1];
    enum { MAXL = 4096 };
    static const float *ptrs[MAXL];
    void *run = NULL;
    err e = {{0}};
    for (int i = 0; i < MAXL; i++)
        ptrs[i] = dummy;

    /* One weight matrix larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE. */
    int H = (int)sqrt((double)max_alloc / sizeof(float)) + 1;
    workload w = {.mode = WL_INFERENCE,
                  .layers = 1,
                  .hidden = H,
                  .batch = 1,
                  .lr = 0.01f,
                  .x0 = dummy,
                  .w0 = ptrs,
                  .b0 = ptrs};
    assert_int_equal(dv->ops->prepare(dv->handle, &w, &run, &e), BE_EOOM);
    assert_null(run);
    assert_true(strlen(e.msg) > 0);

    /* Each buffer fits, their sum does not fit the global memory. */
    H = 1024;
    while ((unsigned long long)H * 2 * (unsigned long long)H * sizeof(float) <= max_alloc &&
           H < 16384)
        H *= 2;
    const unsigned long long per_layer =
        (unsigned long long)H * (unsigned long long)H * sizeof(float);
    w.hidden = H;
    w.layers = (int)(gmem / per_layer) + 2;
    if (w.layers > MAXL)
        skip();
    e.msg[0] = '\0';
    assert_int_equal(dv->ops->prepare(dv->handle, &w, &run, &e), BE_EOOM);
    assert_null(run);
    assert_true(strlen(e.msg) > 0);

    /* The device is still usable afterwards. */
    run_point(dv, WL_TRAINING, 1, 17, 5);
}

/* The first prepare compiles and stores the binary; a new discovery (a new
 * process, as far as the backend knows) loads it instead. */
static void test_build_cache(void **state)
{
    fixture *f = *state;
    double s1, s2;
    int hit1, hit2;
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);
    f->devs[0].ops->build_info(f->devs[0].handle, &s1, &hit1);
    assert_int_equal(hit1, 0);
    assert_true(s1 > 0);

    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);
    f->devs[0].ops->build_info(f->devs[0].handle, &s2, &hit2);
    print_message("build: %.3f s compiled, %.3f s from the cache\n", s1, s2);
    assert_int_equal(hit2, 1);
    assert_true(s2 <= 0.2);
}

/* A damaged cache entry is ignored: the program is compiled again. */
static void test_build_cache_corrupt(void **state)
{
    fixture *f = *state;
    int hit;
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);

    DIR *d = opendir(cache_dir);
    assert_non_null(d);
    int damaged = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!strstr(de->d_name, ".clbin"))
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", cache_dir, de->d_name);
        FILE *fp = fopen(p, "r+b");
        assert_non_null(fp);
        fseek(fp, 64, SEEK_SET); /* past the header: garbage for the driver */
        for (int i = 0; i < 4096; i++)
            fputc(0x5a, fp);
        fclose(fp);
        damaged++;
    }
    closedir(d);
    assert_true(damaged > 0);

    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);
    f->devs[0].ops->build_info(f->devs[0].handle, NULL, &hit);
    assert_int_equal(hit, 0);
}

static void test_bad_config(void **state)
{
    fixture *f = *state;
    clgemm_config c = reg_small;
    err e = {{0}};
    c.tn = 6; /* not a multiple of vw */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_small;
    c.wptm = 3; /* does not divide tsm */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_small;
    c.dbuf = 1; /* double buffering belongs to the vector path */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_small;
    c.lvw = 4; /* wptm = 2 is no multiple of 4 */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_vec4;
    c.lvw = 3;
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_vec4;
    c.tsk = 6; /* no multiple of lvw */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c = local_vec4_big;
    c.tsk = 32; /* two 128×128×32 slices: 64 KiB of local memory */
    assert_int_equal(clgemm_set_config(f->devs[0].handle, &c, &e), BE_EUSAGE);
    c.dbuf = 0; /* one: 32 KiB, within bounds (the scalar tiles' padding would not be) */
    assert_int_equal(clgemm_config_check(&c, &e), BE_OK);
}

/* ---------------------------------------------------------------------- */
/* Kernel options and tuning                                               */
/* ---------------------------------------------------------------------- */

static void assert_config_equal(const clgemm_config *a, const clgemm_config *b)
{
    char sa[256], sb[256];
    assert_int_equal(clgemm_config_options(a, sa, sizeof sa, NULL), 0);
    assert_int_equal(clgemm_config_options(b, sb, sizeof sb, NULL), 0);
    assert_string_equal(sa, sb);
    assert_int_equal(a->variant, b->variant);
}

/* Options written by clgemm_config_options read back to the same config;
 * malformed or incomplete options are refused. */
static void test_config_parse(void **state)
{
    fixture *f = *state;
    clgemm_config def, got;
    char opts[256];
    err e = {{0}};
    const clgemm_config *cs[] = {&reg_small,  &reg_kb,         &local_small, &local_vec4,
                                 &local_vec2, &local_vec4_big, &def};
    clgemm_config_default(&f->devs[0].info, &def);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        assert_int_equal(clgemm_config_options(cs[i], opts, sizeof opts, &e), 0);
        assert_int_equal(clgemm_config_parse(opts, &got, &e), 0);
        assert_config_equal(cs[i], &got);
        assert_int_equal(got.lvw, cs[i]->variant == CLGEMM_LOCAL ? cs[i]->lvw : 0);
        assert_int_equal(got.dbuf, cs[i]->variant == CLGEMM_LOCAL ? cs[i]->dbuf : 0);
    }
    /* The scalar tiles' options are what they were before lvw and dbuf. */
    assert_int_equal(clgemm_config_options(&local_small, opts, sizeof opts, &e), 0);
    assert_string_equal(opts, "-DGEMM_LOCAL=1 -DTSM=16 -DTSN=32 -DTSK=8 -DWPTM=2 -DWPTN=4");
    assert_int_equal(clgemm_config_options(&local_vec2, opts, sizeof opts, &e), 0);
    assert_string_equal(opts, "-DGEMM_LOCAL=1 -DTSM=24 -DTSN=16 -DTSK=6 -DWPTM=4 -DWPTN=2 -DLVW=2 "
                              "-DDBUF=1");
    /* LVW=0 and DBUF=0 spelled out mean what their absence does. */
    assert_int_equal(clgemm_config_parse("-DGEMM_LOCAL=1 -DTSM=16 -DTSN=32 -DTSK=8 -DWPTM=2 "
                                         "-DWPTN=4 -DLVW=0 -DDBUF=0",
                                         &got, &e),
                     0);
    assert_config_equal(&got, &local_small);
    static const char *bad[] = {
        "",
        "-DGEMM_LOCAL=0",
        "-DGEMM_LOCAL=0 -DVW=8 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16",
        "-DGEMM_LOCAL=0 -DVW=8 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256 -DKB=1",
        "-DGEMM_LOCAL=0 -DVW=3 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256",
        "-DGEMM_LOCAL=0 -DVW=8 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256 -DTSK=8",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=4 -DWPTN=x",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=4 -DWPTN=4 -DEVIL=1",
        "-DGEMM_LOCAL=0 -DVW=8 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=99999",
        "-DGEMM_LOCAL=0 -DVW=8 -DTM=8 -DTN=8 -DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256 -DLVW=4",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=4 -DWPTN=4 -DLVW=4 -DLVW=4",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=4 -DWPTN=4 -DLVW=3",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=4 -DWPTN=4 -DDBUF=1",
        "-DGEMM_LOCAL=1 -DTSM=64 -DTSN=64 -DTSK=16 -DWPTM=2 -DWPTN=4 -DLVW=4",
        "-DGEMM_LOCAL=1 -DLVW=4 -DDBUF=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e.msg[0] = '\0';
        got = reg_small;
        if (clgemm_config_parse(bad[i], &got, &e) != BE_EUSAGE)
            fail_msg("accepted \"%s\"", bad[i]);
        assert_true(strlen(e.msg) > 0);
        assert_config_equal(&got, &reg_small); /* untouched */
    }
}

static const char *prop(const device_info *in, const char *name)
{
    for (int p = 0; p < in->nprops; p++)
        if (strcmp(in->props[p].name, name) == 0)
            return in->props[p].value;
    fail_msg("no property %s", name);
    return "";
}

/* Small shapes and few candidates, so a tuning run takes seconds. */
static void small_tune(tune_options *o, double budget, int max_candidates)
{
    tune_options_default(o);
    o->budget = budget;
    o->fwd_hidden = 40;
    o->fwd_batch = 24;
    o->train_hidden = 24;
    o->train_batch = 10;
    o->reps = 2;
    o->max_candidates = max_candidates;
}

static int progress_calls;
static void count_progress(void *ctx, const tune_report *r, int i)
{
    (void)ctx;
    assert_true(i >= 0 && i < r->n);
    assert_true(r->c[i].status != TUNE_SKIPPED);
    progress_calls++;
}

/* Whether candidate i of r is its mode's winner as tune.h defines it:
 * verified, and no verified candidate faster in that mode (train picks the
 * training rate) but where the default was kept against a lead within
 * TUNE_MARGIN. */
static void assert_mode_winner(const tune_report *r, int best, int train)
{
    assert_true(best >= 0 && best < r->n);
    assert_int_equal(r->c[best].status, TUNE_OK);
    const wl_mode m = train ? WL_TRAINING : WL_INFERENCE;
    const double won = tune_rate(&r->c[best], m);
    const double def = tune_rate(&r->c[0], m);
    for (int i = 0; i < r->n; i++) {
        const double rate = tune_rate(&r->c[i], m);
        if (r->c[i].status == TUNE_OK)
            assert_true(rate <= won || (best == 0 && rate < TUNE_MARGIN * def));
    }
}

/* Tuning measures the candidates, picks a verified winner per mode, writes
 * the tuning file, and a new discovery (a later run) starts the device
 * with them. */
static void test_tune(void **state)
{
    fixture *f = *state;
    tune_options o;
    tune_report *r = calloc(1, sizeof *r);
    clgemm_config got;
    char opts[256];
    err e = {{0}};
    assert_non_null(r);
    assert_string_equal(prop(&f->devs[0].info, "kernel_config"), "default");
    small_tune(&o, 60.0, 3);
    progress_calls = 0;
    o.progress = count_progress;
    if (tune_device(&f->devs[0], &o, r, &e) != 0)
        fail_msg("tune_device: %s", e.msg);
    assert_int_equal(r->n, 3);
    assert_int_equal(progress_calls, 3);
    for (int i = 0; i < r->n; i++) {
        const tune_candidate *c = &r->c[i];
        assert_true(c->options[0] == '-');
        if (c->status == TUNE_OK)
            assert_true(c->fwd_gflops > 0 && c->mid_gflops > 0 && c->train_gflops > 0);
    }
    assert_mode_winner(r, r->best_inf, 0);
    assert_mode_winner(r, r->best_train, 1);
    assert_int_equal(r->c[0].status, TUNE_OK);
    clgemm_config_default(&f->devs[0].info, &got);
    assert_config_equal(&r->c[0].cfg, &got); /* the table default comes first */
    assert_true(access(r->path, R_OK) == 0);
    clgemm_get_config_mode(f->devs[0].handle, WL_INFERENCE, &got);
    assert_config_equal(&got, &r->c[r->best_inf].cfg);
    clgemm_get_config_mode(f->devs[0].handle, WL_TRAINING, &got);
    assert_config_equal(&got, &r->c[r->best_train].cfg);
    const clgemm_config inf = r->c[r->best_inf].cfg, train = r->c[r->best_train].cfg;
    print_message("tune: inference #%d, training #%d\n", r->best_inf, r->best_train);

    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    clgemm_get_config_mode(f->devs[0].handle, WL_INFERENCE, &got);
    assert_config_equal(&got, &inf);
    clgemm_get_config_mode(f->devs[0].handle, WL_TRAINING, &got);
    assert_config_equal(&got, &train);
    assert_string_equal(prop(&f->devs[0].info, "kernel_config"), "tuned");
    assert_int_equal(clgemm_config_options(&inf, opts, sizeof opts, &e), 0);
    assert_string_equal(prop(&f->devs[0].info, "kernel_options"), opts);
    /* the training options are recorded where they differ, only */
    assert_int_equal(clgemm_config_options(&train, opts, sizeof opts, &e), 0);
    if (r->best_inf == r->best_train)
        assert_null(devinfo_prop(&f->devs[0].info, "kernel_options_training"));
    else
        assert_string_equal(prop(&f->devs[0].info, "kernel_options_training"), opts);
    run_point(&f->devs[0], WL_TRAINING, 1, 17, 5);

    /* A stored configuration that is not the default is the one used. */
    assert_int_equal(clgemm_cache_store_tuned(&f->devs[0].info, &reg_kb, &reg_kb, NULL, 0, &e), 0);
    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    clgemm_get_config_mode(f->devs[0].handle, WL_INFERENCE, &got);
    assert_config_equal(&got, &reg_kb);
    clgemm_get_config_mode(f->devs[0].handle, WL_TRAINING, &got);
    assert_config_equal(&got, &reg_kb);
    free(r);
}

/* The choice of the winners, on rates made up so that each mode has
 * another: the forward winner trains slowly, the training winner (also
 * the best geometric mean of the two, which a single configuration would
 * take) is slower forward; a lead within TUNE_MARGIN keeps the default, a
 * wrong result never wins, and without a verified default the fastest
 * wins by any lead.  Inference goes by both forward shapes: the fastest at
 * the large one alone loses when it is slow at the middling one. */
static void test_tune_choose(void **state)
{
    static const struct {
        tune_status st;
        double fwd, mid, train;
    } c[] = {{TUNE_OK, 100, 100, 100}, {TUNE_OK, 150, 150, 50},        {TUNE_OK, 60, 60, 102},
             {TUNE_OK, 90, 90, 120},   {TUNE_WRONG, 1000, 1000, 1000}, {TUNE_FAILED, 0, 0, 0},
             {TUNE_SKIPPED, 0, 0, 0}};
    tune_report *r = calloc(1, sizeof *r);
    (void)state;
    assert_non_null(r);
    r->n = (int)(sizeof c / sizeof c[0]);
    for (int i = 0; i < r->n; i++) {
        r->c[i].status = c[i].st;
        r->c[i].fwd_gflops = c[i].fwd;
        r->c[i].mid_gflops = c[i].mid;
        r->c[i].train_gflops = c[i].train;
    }
    tune_choose(r);
    assert_int_equal(r->best_inf, 1);
    assert_int_equal(r->best_train, 3);
    /* #1 twice as fast at the large shape, half as fast at the middling
     * one: no lead (√(200 · 50) = 100); #3 leads by √(120 · 110) = 114.9 */
    r->c[1].fwd_gflops = 200;
    r->c[1].mid_gflops = 50;
    r->c[3].fwd_gflops = 120;
    r->c[3].mid_gflops = 110;
    tune_choose(r);
    assert_int_equal(r->best_inf, 3);
    assert_true(fabs(tune_rate(&r->c[3], WL_INFERENCE) - sqrt(120.0 * 110.0)) < 1e-9);
    r->c[1].fwd_gflops = r->c[1].mid_gflops = 150;
    r->c[3].fwd_gflops = r->c[3].mid_gflops = 90;
    /* without #3, #2's training lead (2%) is within the margin */
    r->c[3].status = TUNE_FAILED;
    tune_choose(r);
    assert_int_equal(r->best_inf, 1);
    assert_int_equal(r->best_train, 0);
    /* #1 just under and just over the margin forward */
    r->c[1].fwd_gflops = r->c[1].mid_gflops = 102.9;
    tune_choose(r);
    assert_int_equal(r->best_inf, 0);
    r->c[1].fwd_gflops = r->c[1].mid_gflops = 103.5;
    tune_choose(r);
    assert_int_equal(r->best_inf, 1);
    /* a default that failed sets no margin */
    r->c[0].status = TUNE_FAILED;
    tune_choose(r);
    assert_int_equal(r->best_inf, 1);
    assert_int_equal(r->best_train, 2);
    /* nothing verified: no winner */
    r->c[1].status = r->c[2].status = TUNE_WRONG;
    tune_choose(r);
    assert_int_equal(r->best_inf, -1);
    assert_int_equal(r->best_train, -1);
    free(r);
}

/* With no budget only the default is measured; the rest are skipped. */
static void test_tune_budget(void **state)
{
    fixture *f = *state;
    tune_options o;
    tune_report *r = calloc(1, sizeof *r);
    err e = {{0}};
    assert_non_null(r);
    small_tune(&o, 0.0, 0);
    if (tune_device(&f->devs[0], &o, r, &e) != 0)
        fail_msg("tune_device: %s", e.msg);
    assert_true(r->n > 3 && r->n <= TUNE_MAX);
    assert_int_equal(r->best_inf, 0);
    assert_int_equal(r->best_train, 0);
    assert_int_equal(r->c[0].status, TUNE_OK);
    for (int i = 1; i < r->n; i++)
        assert_int_equal(r->c[i].status, TUNE_SKIPPED);
    free(r);
}

/* The text of a file (at most len - 1 bytes) into buf. */
static void read_text(const char *path, char *buf, size_t len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    const size_t n = fread(buf, 1, len - 1, fp);
    fclose(fp);
    buf[n] = '\0';
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* A tuning file holds a configuration per mode and reads back to them;
 * a file of before there were two (one options line) gives its
 * configuration to both modes, and a device then records no training
 * options. */
static void test_tune_file_modes(void **state)
{
    fixture *f = *state;
    char path[4352], text[1024], opts[256], want[600];
    clgemm_config inf = reg_kb, train = reg_kb;
    err e = {{0}};
    assert_int_equal(
        clgemm_cache_store_tuned(&f->devs[0].info, &reg_small, &local_vec2, path, sizeof path, &e),
        0);
    read_text(path, text, sizeof text);
    assert_int_equal(clgemm_config_options(&reg_small, opts, sizeof opts, &e), 0);
    snprintf(want, sizeof want, "\noptions %s\n", opts);
    assert_non_null(strstr(text, want));
    assert_int_equal(clgemm_config_options(&local_vec2, opts, sizeof opts, &e), 0);
    snprintf(want, sizeof want, "\noptions-training %s\n", opts);
    assert_non_null(strstr(text, want));
    assert_int_equal(clgemm_cache_load_tuned(&f->devs[0].info, &inf, &train, NULL, 0), 0);
    assert_config_equal(&inf, &reg_small);
    assert_config_equal(&train, &local_vec2);

    /* the old format: the same file without its options-training line */
    char *t = strstr(text, "\noptions-training ");
    assert_non_null(t);
    t[1] = '\0';
    write_text(path, text);
    inf = train = reg_kb;
    assert_int_equal(clgemm_cache_load_tuned(&f->devs[0].info, &inf, &train, NULL, 0), 0);
    assert_config_equal(&inf, &reg_small);
    assert_config_equal(&train, &reg_small);
    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    clgemm_get_config_mode(f->devs[0].handle, WL_TRAINING, &train);
    assert_config_equal(&train, &reg_small);
    assert_string_equal(prop(&f->devs[0].info, "kernel_config"), "tuned");
    assert_null(devinfo_prop(&f->devs[0].info, "kernel_options_training"));
    /* equal configurations written by tune: no training options either */
    assert_int_equal(
        clgemm_cache_store_tuned(&f->devs[0].info, &local_vec2, &local_vec2, NULL, 0, &e), 0);
    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    assert_int_equal(clgemm_config_options(&local_vec2, opts, sizeof opts, &e), 0);
    assert_string_equal(prop(&f->devs[0].info, "kernel_options"), opts);
    assert_null(devinfo_prop(&f->devs[0].info, "kernel_options_training"));
}

/* Damaged, foreign or inconsistent tuning files are ignored as a whole, a
 * broken training line too: the device starts with the table default in
 * both modes. */
static void test_tune_corrupt(void **state)
{
    fixture *f = *state;
    char path[4352], text[1024], longer[700];
    clgemm_config def, got, got2;
    err e = {{0}};
    clgemm_config_default(&f->devs[0].info, &def);
    assert_int_equal(
        clgemm_cache_store_tuned(&f->devs[0].info, &reg_small, &reg_kb, path, sizeof path, &e), 0);
    read_text(path, text, sizeof text);
    char *opts = strstr(text, "\noptions ");
    char *topts = strstr(text, "\noptions-training ");
    char *key = strstr(text, "\nkey ");
    assert_non_null(opts);
    assert_non_null(topts);
    assert_non_null(key);

    /* The intact file is used (so the damaged ones below are what fails). */
    assert_int_equal(clgemm_cache_load_tuned(&f->devs[0].info, &got, &got2, NULL, 0), 0);
    assert_config_equal(&got, &reg_small);
    assert_config_equal(&got2, &reg_kb);

    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    char bad[7][1600];
    snprintf(bad[0], sizeof bad[0], "%.*s", (int)(opts - text + 12), text); /* truncated */
    snprintf(bad[1], sizeof bad[1],
             "%.*s\noptions -DGEMM_LOCAL=0 -DVW=3 -DTM=8 -DTN=8 "
             "-DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256\n",
             (int)(opts - text), text);
    snprintf(bad[2], sizeof bad[2], "%s", text);
    bad[2][key - text + 5] ^= 1; /* another device's key */
    snprintf(bad[3], sizeof bad[3], "\x01\xff garbage");
    /* the inference line intact, the training line inconsistent, empty,
     * too long */
    snprintf(bad[4], sizeof bad[4],
             "%.*s\noptions-training -DGEMM_LOCAL=0 -DVW=3 -DTM=8 -DTN=8 "
             "-DDTM=4 -DDTN=4 -DLX=2 -DLY=16 -DKB=256\n",
             (int)(topts - text), text);
    snprintf(bad[5], sizeof bad[5], "%.*s\noptions-training \n", (int)(topts - text), text);
    snprintf(bad[6], sizeof bad[6], "%.*s\noptions-training %s\n", (int)(topts - text), text,
             longer);
    for (int i = 0; i < 7; i++) {
        write_text(path, bad[i]);
        got = got2 = reg_kb;
        assert_int_equal(clgemm_cache_load_tuned(&f->devs[0].info, &got, &got2, NULL, 0), BE_EFAIL);
        assert_config_equal(&got, &reg_kb); /* untouched */
        assert_config_equal(&got2, &reg_kb);
        teardown(state);
        assert_int_equal(setup_keep_cache(state), 0);
        f = *state;
        clgemm_get_config_mode(f->devs[0].handle, WL_INFERENCE, &got);
        assert_config_equal(&got, &def);
        clgemm_get_config_mode(f->devs[0].handle, WL_TRAINING, &got);
        assert_config_equal(&got, &def);
        assert_string_equal(prop(&f->devs[0].info, "kernel_config"), "default");
    }
    run_point(&f->devs[0], WL_INFERENCE, 1, 17, 3);
}

/* The program binaries in the cache directory: one per program built. */
static int count_clbin(void)
{
    DIR *d = opendir(cache_dir);
    int n = 0;
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));)
        n += strstr(de->d_name, ".clbin") && !strstr(de->d_name, ".tmp");
    closedir(d);
    return n;
}

/* A device with a configuration per mode computes both modes right, each
 * with its own program: the training one built by the first training
 * prepare (a second binary in the cache).  The two differ in variant and
 * in kernels (local tiles for inference; register blocks with the
 * K-blocked forward kernel, which the inference program lacks, for
 * training), so a run mixing one mode's program with the other's launch
 * geometry or kernels would fail to launch or compute wrong results.  The
 * device records both sets of options, and a later discovery loads both
 * programs from the cache. */
static void test_modes_differ(void **state)
{
    fixture *f = *state;
    clgemm_config got;
    char opts[256];
    int hit = -1;
    err e = {{0}};
    assert_int_equal(clgemm_cache_store_tuned(&f->devs[0].info, &local_small, &reg_kb, NULL, 0, &e),
                     0);
    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    device *dv = &f->devs[0];
    clgemm_get_config_mode(dv->handle, WL_INFERENCE, &got);
    assert_config_equal(&got, &local_small);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &reg_kb);
    assert_string_equal(prop(&dv->info, "kernel_config"), "tuned");
    assert_int_equal(clgemm_config_options(&local_small, opts, sizeof opts, &e), 0);
    assert_string_equal(prop(&dv->info, "kernel_options"), opts);
    assert_int_equal(clgemm_config_options(&reg_kb, opts, sizeof opts, &e), 0);
    assert_string_equal(prop(&dv->info, "kernel_options_training"), opts);

    assert_int_equal(count_clbin(), 0); /* nothing built by discovery */
    run_point(dv, WL_INFERENCE, 2, 17, 17);
    assert_int_equal(count_clbin(), 1);
    run_point(dv, WL_TRAINING, 2, 17, 17);
    assert_int_equal(count_clbin(), 2);
    run_point(dv, WL_INFERENCE, 1, 70, 37);
    run_point(dv, WL_TRAINING, 1, 70, 37);
    run_point(dv, WL_TRAINING, 2, 17, 1);
    assert_int_equal(count_clbin(), 2);
    dv->ops->build_info(dv->handle, NULL, &hit);
    assert_int_equal(hit, 0);

    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    dv = &f->devs[0];
    run_point(dv, WL_TRAINING, 1, 17, 5);
    run_point(dv, WL_INFERENCE, 1, 17, 5);
    dv->ops->build_info(dv->handle, NULL, &hit);
    assert_int_equal(hit, 1); /* both programs, each from the cache */
    assert_int_equal(count_clbin(), 2);
}

/* Set through the API: clgemm_set_config sets both modes, and
 * clgemm_set_config_mode one, which then alone computes with it; a mode
 * that is neither is refused, and so is a change while a run is
 * prepared. */
static void test_modes_set(void **state)
{
    fixture *f = *state;
    device *dv = &f->devs[0];
    clgemm_config got;
    void *run = NULL;
    test_wl t;
    err e = {{0}};
    use_config(f, &reg_small);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &reg_small);
    assert_int_equal(clgemm_set_config_mode(dv->handle, WL_TRAINING, &local_vec4, &e), 0);
    clgemm_get_config_mode(dv->handle, WL_INFERENCE, &got);
    assert_config_equal(&got, &reg_small);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &local_vec4);
    run_point(dv, WL_TRAINING, 2, 68, 36);
    run_point(dv, WL_INFERENCE, 2, 17, 17);
    assert_int_equal(clgemm_set_config_mode(dv->handle, WL_INFERENCE, &local_vec2, &e), 0);
    run_point(dv, WL_INFERENCE, 2, 70, 37);
    run_point(dv, WL_TRAINING, 2, 70, 37);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &local_vec4);

    e.msg[0] = '\0';
    assert_int_equal(clgemm_set_config_mode(dv->handle, (wl_mode)2, &reg_small, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "mode 2"));
    assert_int_equal(clgemm_set_config_mode(dv->handle, WL_TRAINING, &(clgemm_config){0}, &e),
                     BE_EUSAGE);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &local_vec4); /* untouched */

    wl_make(&t, WL_INFERENCE, 1, 8, 3);
    assert_int_equal(dv->ops->prepare(dv->handle, &t.w, &run, &e), 0);
    e.msg[0] = '\0';
    assert_int_equal(clgemm_set_config_mode(dv->handle, WL_TRAINING, &reg_kb, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "while a run is prepared"));
    dv->ops->release(run);
    wl_free(&t);
    clgemm_get_config_mode(dv->handle, WL_TRAINING, &got);
    assert_config_equal(&got, &local_vec4);
}

/* Equal configurations share one program: a training run after an
 * inference run builds nothing (build_info adds up the programs held, so
 * a second one, even from the cache, would add its seconds and its miss),
 * and the device records no training options. */
static void test_modes_equal(void **state)
{
    fixture *f = *state;
    device *dv = &f->devs[0];
    double s1 = -1, s2 = -1;
    int hit = -1;
    err e = {{0}};
    assert_null(devinfo_prop(&dv->info, "kernel_options_training"));
    run_point(dv, WL_INFERENCE, 1, 17, 5);
    dv->ops->build_info(dv->handle, &s1, NULL);
    assert_true(s1 > 0);
    run_point(dv, WL_TRAINING, 1, 17, 5);
    dv->ops->build_info(dv->handle, &s2, &hit);
    assert_true(s2 == s1);
    assert_int_equal(hit, 0);
    assert_int_equal(count_clbin(), 1);

    /* apart and back together: one program again, the one kept */
    assert_int_equal(clgemm_set_config_mode(dv->handle, WL_TRAINING, &reg_small, &e), 0);
    run_point(dv, WL_TRAINING, 1, 17, 5);
    assert_int_equal(count_clbin(), 2);
    use_config(f, &reg_small);
    dv->ops->build_info(dv->handle, &s1, NULL);
    run_point(dv, WL_INFERENCE, 1, 17, 5);
    run_point(dv, WL_TRAINING, 1, 17, 5);
    dv->ops->build_info(dv->handle, &s2, &hit);
    assert_true(s2 == s1);
    assert_int_equal(hit, 0); /* reg_small's program as compiled above, not loaded again */
}

/* The caches go where BREAKEVEN_CACHE says, however deep: the directories
 * are made and every entry is written whole through fsx_write_atomic, which
 * leaves nothing but the entries behind.  Where the directory cannot be
 * made, the program is still built, only not cached, and storing a tuning
 * file fails saying where. */
static void test_cache_nested(void **state)
{
    fixture *f = *state;
    char nested[256], blocked[256], path[4352];
    clgemm_config cfg;
    err e = {{0}};
    int hit = -1, clbin = 0, tuned = 0, other = 0;
    DIR *d;
    FILE *fp;

    snprintf(nested, sizeof nested, "%s/x/y/z", cache_dir);
    assert_null(opendir(nested));
    setenv("BREAKEVEN_CACHE", nested, 1);
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);
    f->devs[0].ops->build_info(f->devs[0].handle, NULL, &hit);
    assert_int_equal(hit, 0);
    /* the configuration just built, so that the next run finds its binary */
    clgemm_get_config_mode(f->devs[0].handle, WL_INFERENCE, &cfg);
    assert_int_equal(clgemm_cache_store_tuned(&f->devs[0].info, &cfg, &cfg, path, sizeof path, &e),
                     BE_OK);
    assert_true(strncmp(path, nested, strlen(nested)) == 0);
    d = opendir(nested);
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        if (strstr(de->d_name, ".clbin") && !strstr(de->d_name, ".tmp"))
            clbin++;
        else if (strncmp(de->d_name, "tune-", 5) == 0 && !strstr(de->d_name, ".tmp"))
            tuned++;
        else
            other++;
    }
    closedir(d);
    assert_int_equal(clbin, 1);
    assert_int_equal(tuned, 1);
    assert_int_equal(other, 0);

    /* A later run finds both there. */
    teardown(state);
    assert_int_equal(setup_keep_cache(state), 0);
    f = *state;
    assert_string_equal(prop(&f->devs[0].info, "kernel_config"), "tuned");
    run_point(&f->devs[0], WL_INFERENCE, 1, 8, 3);
    f->devs[0].ops->build_info(f->devs[0].handle, NULL, &hit);
    assert_int_equal(hit, 1);

    /* A file where a directory of the cache should be. */
    snprintf(blocked, sizeof blocked, "%s/x/file", cache_dir);
    fp = fopen(blocked, "w");
    assert_non_null(fp);
    fclose(fp);
    snprintf(blocked, sizeof blocked, "%s/x/file/sub", cache_dir);
    setenv("BREAKEVEN_CACHE", blocked, 1);
    use_config(f, &reg_kb);
    f->devs[0].ops->build_info(f->devs[0].handle, NULL, &hit);
    assert_int_equal(hit, 0);
    run_point(&f->devs[0], WL_TRAINING, 1, 17, 5);
    e.msg[0] = '\0';
    assert_int_equal(clgemm_cache_store_tuned(&f->devs[0].info, &reg_kb, &reg_kb, NULL, 0, &e),
                     BE_EFAIL);
    assert_non_null(strstr(e.msg, "/x/file"));
}

/* test_cache_nested's teardown: the test's directories go, and the cache
 * is the common one again, even when the test failed half-way. */
static int teardown_nested(void **state)
{
    char cmd[256];
    setenv("BREAKEVEN_CACHE", cache_dir, 1);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/x'", cache_dir);
    if (system(cmd) != 0)
        return -1;
    return teardown(state);
}

int main(void)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/breakeven-test-XXXXXX");
    if (!mkdtemp(cache_dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("BREAKEVEN_CACHE", cache_dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_discover, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forward_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_training_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forward_variants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_training_variants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_cache_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_config, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_parse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tune, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tune_budget, setup, teardown),
        cmocka_unit_test(test_tune_choose),
        cmocka_unit_test_setup_teardown(test_tune_file_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tune_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modes_differ, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modes_set, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modes_equal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_nested, setup, teardown_nested),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rm_cache();
    rmdir(cache_dir);
    return failed ? 1 : 0;
}
