/*
 * test_decide.c — `decide` and `which` with two and three OpenCL devices:
 * the device named at every batch, in the header (compiled with -std=c99
 * -Wall -Wextra -Werror and run), in decision.json and by `which`.
 *
 * The fixtures tests/data/decide/two.xml and three.xml are results files
 * of the network 784-512-10 measured at batches 2, 4, 16, 64 and 256 on
 * the CPU and two OpenCL devices: cl:0.0 (an integrated GPU, fast at small
 * batches) and cl:1.0 (a discrete one, fast at large batches); three.xml
 * adds cl:2.0, which failed verification at every point, and two batches
 * too close to call: at 4 the CPU and cl:0.0, at 16 cl:0.0 and cl:1.0.
 * They were written by this program (`build/test_decide --write-fixtures
 * tests/data/decide`, the step times below as samples in three passes)
 * and are read here through the normal loader.  Every expectation is
 * checked twice: against the table below, and against the argmin of the
 * loaded medians and the overlap of their intervals.
 */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "decide.h"
#include "export.h"
#include "fsx.h"
#include "netfit.h"
#include "query.h"
#include "results.h"

static char tmpdir[256];
static char bin[4096]; /* absolute: the tests run it from other directories */

#define NB 5
static const int batches[NB] = {2, 4, 16, 64, 256};

/* ---- the fixtures ---- */

/* Resident step time of device d (0 cpu, 1 cl:0.0, 2 cl:1.0) at batch b,
 * seconds; three: the fixture with the ties. */
static double resident_s(int d, int b, int three)
{
    if (d == 0)
        return 0.05e-3 * b;
    if (d == 1)
        return three && b == 4 ? 0.1995e-3 : 0.1e-3 + 0.02e-3 * b;
    return three && b == 16 ? 0.421e-3 : 0.5e-3 + 0.004e-3 * b;
}

static void set_prov(results *r, const char *id)
{
    snprintf(r->prov.version, sizeof r->prov.version, "0.2.0");
    snprintf(r->prov.commit, sizeof r->prov.commit, "fixture");
    snprintf(r->prov.id, sizeof r->prov.id, "%s", id);
    snprintf(r->prov.started, sizeof r->prov.started, "2026-11-27T00:00:00Z");
    snprintf(r->prov.finished, sizeof r->prov.finished, "2026-11-27T00:01:00Z");
    snprintf(r->prov.command, sizeof r->prov.command,
             "breakeven run --net 784-512-10 --batch 2,4,16,64,256 --devices all");
    r->prov.seed = 1;
    r->prov.budget = 10;
    r->prov.layers = 2;
    snprintf(r->prov.hidden, sizeof r->prov.hidden, "512");
    snprintf(r->prov.batch, sizeof r->prov.batch, "2,4,16,64,256");
    snprintf(r->prov.modes, sizeof r->prov.modes, "inference");
    snprintf(r->prov.host, sizeof r->prov.host, "fixture");
    snprintf(r->prov.os, sizeof r->prov.os, "Debian GNU/Linux 12 (bookworm)");
    snprintf(r->prov.kernel, sizeof r->prov.kernel, "Linux 6.1");
    snprintf(r->prov.cpu_model, sizeof r->prov.cpu_model, "Example CPU");
    snprintf(r->prov.compiler, sizeof r->prov.compiler, "gcc 12.2.0");
    r->prov.cores = 8;
    r->prov.memory = 32e9;
    snprintf(r->prov.blas_version, sizeof r->prov.blas_version, "0.3.21");
    snprintf(r->prov.blas_config, sizeof r->prov.blas_config, "OpenBLAS 0.3.21");
    snprintf(r->prov.blas_core, sizeof r->prov.blas_core, "Haswell");
    r->prov.blas_threads = 8;
    snprintf(r->prov.blas_threads_from, sizeof r->prov.blas_threads_from, "cores");
}

static int add_device(results *r, const char *id, const char *kind, const char *type,
                      const char *name, err *e)
{
    device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.type, sizeof d.type, "%s", type);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.driver, sizeof d.driver, "%s",
             kind[0] == 'o' && kind[1] == 'p' ? "1.0" : "OpenBLAS");
    return results_add_device(r, &d, e);
}

/* One point: 30 samples in 3 passes within ±0.4% of m (resident); an
 * OpenCL device's also with copies (inputs and outputs, then the
 * weights: up s). */
static int add_point(results *r, const char *dev, int b, double m, double up, int failed, err *e)
{
    rs_point p;
    step_times t[30];
    int i, rc, cl = strcmp(dev, "cpu") != 0;
    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "%s", dev);
    p.mode = WL_INFERENCE;
    p.layers = 2;
    p.hidden = 784;
    p.batch = b;
    snprintf(p.net, sizeof p.net, "784-512-10");
    snprintf(p.sizes, sizeof p.sizes, "784-512-10");
    p.flops_per_layer = 2.0 * b * (784.0 * 512 + 512.0 * 10) / 2;
    p.verified = 1;
    p.checked = 100;
    p.tolerance = 1e-5;
    p.max_error = failed ? 1.0 : 1e-7;
    snprintf(p.worst, sizeof p.worst, "layer 0 y[0][0]");
    if (failed) {
        p.status = PT_FAILED_VERIFICATION;
        snprintf(p.message, sizeof p.message, "result differs from the host reference");
        return results_add_point(r, &p, e);
    }
    p.has_transfer = p.has_whost = cl;
    if ((rc = results_add_point(r, &p, e)) < 0)
        return rc;
    for (i = 0; i < 30; i++) {
        double f = 1.0 + 0.004 * ((i * 7) % 11 - 5) / 5.0, copies = 0.01e-3 + 0.001e-3 * b;
        memset(&t[i], 0, sizeof t[i]);
        t[i].wall = m * f;
        t[i].kernel = cl ? 0.9 * m * f : 0.0;
        t[i].h2d = cl ? 0.6 * copies : -1.0;
        t[i].d2h = cl ? 0.4 * copies : -1.0;
        t[i].total = cl ? (m + copies) * f : t[i].wall;
        t[i].whost = cl ? (m + copies + up) * f : -1.0;
    }
    for (i = 0; i < 3; i++)
        if ((rc = results_add_samples(&r->points[r->npoints - 1], t + 10 * i, 10, i + 1, e)) < 0)
            return rc;
    return results_summarize(&r->points[r->npoints - 1], e);
}

static int make_fixture(const char *path, int three, err *e)
{
    static const char *const dev[] = {"cpu", "cl:0.0", "cl:1.0"};
    /* the weights' upload: shared memory is quick, the discrete GPU's bus not */
    static const double up[] = {0.0, 0.3e-3, 1.0e-3};
    results *r = results_new();
    int d, k, rc;
    if (!r)
        return err_set(e, BE_EFAIL, "out of memory");
    set_prov(r, three ? "20261127T000000Z-three" : "20261127T000000Z-two");
    r->partial = 0;
    if ((rc = add_device(r, "cpu", "openblas", "CPU", "Example CPU", e)) < 0 ||
        (rc = add_device(r, "cl:0.0", "opencl", "GPU", "Example integrated GPU", e)) < 0 ||
        (rc = add_device(r, "cl:1.0", "opencl", "GPU", "Example discrete GPU", e)) < 0 ||
        (three && (rc = add_device(r, "cl:2.0", "opencl", "GPU", "Example failing GPU", e)) < 0))
        goto done;
    for (k = 0; k < 3; k++) {
        rs_pass ps;
        memset(&ps, 0, sizeof ps);
        ps.index = k + 1;
        snprintf(ps.started, sizeof ps.started, "2026-11-27T00:00:%02dZ", 10 * k);
        ps.seconds = 10;
        ps.visits = 5 * (three ? 4 : 3);
        if ((rc = results_add_pass(r, &ps, e)) < 0)
            goto done;
    }
    for (k = 0; k < NB; k++) {
        for (d = 0; d < 3; d++)
            if ((rc = add_point(r, dev[d], batches[k], resident_s(d, batches[k], three), up[d], 0,
                                e)) < 0)
                goto done;
        if (three && (rc = add_point(r, "cl:2.0", batches[k], 0.0, 0.0, 1, e)) < 0)
            goto done;
    }
    rc = results_save(r, NULL, path, e);
done:
    results_free(r);
    return rc;
}

/* ---- the fixture of two stacks ---- */

/* tests/data/decide/stacks.xml.gz: a real run of the 2-core development
 * machine, others taking 55-80% of its CPUs (`breakeven run --devices
 * cpu,cl:0.0,torch:cpu --net mnist-mlp --batch 4,16,64,256 --budget 40`:
 * OpenBLAS, PoCL and PyTorch 1.13 on the CPU, batches 32 and 45 added by
 * the refinement), with one device added by `build/test_decide
 * --write-stack-fixture RUN tests/data/decide/stacks.xml.gz`: torch:cuda:0,
 * PyTorch on an "NVIDIA H100 80GB HBM3".  That device is SYNTHETIC: no GPU
 * was measured, its step times are stack_cuda_s's below, not
 * measurements (a floor of 1.1 ms, then 0.5 us a sample; the resident step
 * only, as the PyTorch adapter times it).  They are set so that PyTorch's
 * CPU wins at the small batches and its GPU from batch 32, where the run's
 * own PyTorch CPU took 1.35 ms. */
static double stack_cuda_s(int b)
{
    return 1.1e-3 + 0.5e-6 * b;
}

/* The run in, with torch:cuda:0 and its points (one per batch that
 * torch:cpu measured) added, saved to out. */
static int make_stack_fixture(const char *in, const char *out, err *e)
{
    results *r = NULL;
    device_info d;
    int i, n, k, rc;
    if ((rc = results_load(in, &r, e)) < 0)
        return rc;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "torch:cuda:0");
    snprintf(d.kind, sizeof d.kind, "framework");
    snprintf(d.type, sizeof d.type, "GPU");
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    snprintf(d.vendor, sizeof d.vendor, "PyTorch");
    snprintf(d.driver, sizeof d.driver, "PyTorch 1.13.0a0");
    devinfo_prop_add(&d, "framework", "PyTorch");
    devinfo_prop_add(&d, "torch-device", "cuda:0");
    devinfo_prop_add(&d, "synthetic", "a test fixture: these step times are not measurements");
    if ((rc = results_add_device(r, &d, e)) < 0)
        goto done;
    for (i = 0, n = r->npoints; i < n; i++) {
        rs_point p;
        step_times t[30];
        if (strcmp(r->points[i].device, "torch:cpu") != 0)
            continue;
        p = r->points[i];
        snprintf(p.device, sizeof p.device, "torch:cuda:0");
        p.nsamples = 0;
        p.samples = NULL;
        p.pass = NULL;
        p.has_transfer = p.has_whost = 0;
        p.nlayer = 0;
        p.layer_n = 0;
        memset(&p.tel, 0, sizeof p.tel);
        if ((rc = results_add_point(r, &p, e)) < 0)
            goto done;
        for (k = 0; k < 30; k++) {
            memset(&t[k], 0, sizeof t[k]);
            t[k].wall = stack_cuda_s(p.batch) * (1.0 + 0.004 * ((k * 7) % 11 - 5) / 5.0);
            t[k].kernel = t[k].h2d = t[k].d2h = t[k].total = t[k].whost = -1.0;
        }
        for (k = 0; k < 3; k++)
            if ((rc = results_add_samples(&r->points[r->npoints - 1], t + 10 * k, 10, k + 1, e)) <
                0)
                goto done;
        if ((rc = results_summarize(&r->points[r->npoints - 1], e)) < 0)
            goto done;
    }
    rc = results_save(r, NULL, out, e);
done:
    results_free(r);
    return rc;
}

/* ---- what every output must say ---- */

typedef struct expect {
    const char *file, *view;
    int batch;
    const char *device; /* the answer                                  */
    int close;          /* too close to call                           */
    int extrapolated, between;
} expect;

static const expect expected[] = {
    /* the measured batches, resident: the CPU, the integrated GPU, then
     * the discrete one */
    {"two", "resident", 2, "cpu", 0, 0, 0},
    {"two", "resident", 4, "cl:0.0", 0, 0, 0},
    {"two", "resident", 16, "cl:0.0", 0, 0, 0},
    {"two", "resident", 64, "cl:1.0", 0, 0, 0},
    {"two", "resident", 256, "cl:1.0", 0, 0, 0},
    /* weights on the host: the discrete GPU pays for its bus */
    {"two", "weights-on-host", 2, "cpu", 0, 0, 0},
    {"two", "weights-on-host", 4, "cpu", 0, 0, 0},
    {"two", "weights-on-host", 16, "cl:0.0", 0, 0, 0},
    {"two", "weights-on-host", 64, "cl:0.0", 0, 0, 0},
    {"two", "weights-on-host", 256, "cl:1.0", 0, 0, 0},
    /* between and outside the measured batches */
    {"two", "resident", 3, "cl:0.0", 0, 0, 1},   /* 3² > 2·4: nearer 4 */
    {"two", "resident", 8, "cl:0.0", 0, 0, 0},   /* 4 and 16 agree */
    {"two", "resident", 100, "cl:1.0", 0, 0, 0}, /* 64 and 256 agree */
    {"two", "resident", 1, "cpu", 0, 1, 0},
    {"two", "resident", 1000, "cl:1.0", 0, 1, 0},
    /* three: cl:2.0 failed everywhere and is never named; ties at 4 (the
     * CPU among them: the rule takes it) and 16 (two GPUs: the faster) */
    {"three", "resident", 2, "cpu", 0, 0, 0},
    {"three", "resident", 4, "cpu", 1, 0, 0},
    {"three", "resident", 16, "cl:0.0", 1, 0, 0},
    {"three", "resident", 64, "cl:1.0", 0, 0, 0},
    {"three", "resident", 256, "cl:1.0", 0, 0, 0},
    {"three", "resident", 8, "cpu", 1, 0, 1}, /* 8² = 4·16: the smaller */
    {"three", "resident", 1, "cpu", 0, 1, 0},
    {"three", "resident", 100000, "cl:1.0", 0, 1, 0},
};
#define NEXPECT (sizeof expected / sizeof *expected)

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *fixture(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "tests/data/decide/%s.xml", name);
    return buf;
}

static fit_view view_of(const char *name)
{
    return strcmp(name, "resident") == 0   ? FIT_RESIDENT
           : strcmp(name, "transfer") == 0 ? FIT_TRANSFER
                                           : FIT_WHOST;
}

/* The answer from the loaded points themselves: the argmin of the medians
 * (the CPU's resident, the others' in the view) and whether any other
 * device is tied with the fastest one (choice.h's rule, written out). */
static void argmin(const results *r, fit_view v, int b, const char **dev, int *close)
{
    const stats_summary *best = NULL;
    int i;
    *dev = NULL;
    *close = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const stats_summary *s;
        if (p->batch != b || !q_ok(p))
            continue;
        s = strcmp(p->device, "cpu") == 0 ? &p->resident
            : v == FIT_WHOST              ? &p->whost
            : v == FIT_TRANSFER           ? &p->transfer
                                          : &p->resident;
        if (!best || s->median < best->median) {
            best = s;
            *dev = p->device;
        }
    }
    for (i = 0; best && i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const stats_summary *s;
        if (p->batch != b || !q_ok(p) || strcmp(p->device, *dev) == 0)
            continue;
        s = strcmp(p->device, "cpu") == 0 ? &p->resident
            : v == FIT_WHOST              ? &p->whost
            : v == FIT_TRANSFER           ? &p->transfer
                                          : &p->resident;
        /* a tie: overlapping intervals that inform (upper end at most 2× the
         * lower) and medians within 1.10× */
        *close |= s->ci_lo <= best->ci_hi && best->ci_lo <= s->ci_hi &&
                  s->median <= 1.10 * best->median && s->ci_hi <= 2.0 * s->ci_lo &&
                  best->ci_hi <= 2.0 * best->ci_lo && s->ci_lo > 0.0 && best->ci_lo > 0.0;
    }
}

/* The table agrees with the measured medians and intervals wherever it
 * speaks of a measured batch: the argmin where the intervals separate,
 * too close exactly where they do not. */
static void test_table_is_the_data(void **state)
{
    results *r[2] = {NULL, NULL};
    char path[256];
    err e;
    size_t i;
    int k, f, seen_close = 0;
    (void)state;
    for (f = 0; f < 2; f++)
        if (results_load(fixture(f ? "three" : "two", path, sizeof path), &r[f], &e) != BE_OK)
            fail_msg("%s", e.msg);
    for (i = 0; i < NEXPECT; i++) {
        const expect *x = &expected[i];
        const char *dev;
        int close;
        for (k = 0; k < NB && batches[k] != x->batch; k++)
            ;
        if (k == NB)
            continue;
        argmin(r[strcmp(x->file, "three") == 0], view_of(x->view), x->batch, &dev, &close);
        if (close != x->close || (!close && strcmp(dev, x->device) != 0))
            fail_msg("%s %s batch %d: the data say %s%s, the table %s%s", x->file, x->view,
                     x->batch, dev, close ? " (too close)" : "", x->device,
                     x->close ? " (too close)" : "");
        seen_close += close;
    }
    assert_int_equal(seen_close, 2);
    results_free(r[0]);
    results_free(r[1]);
}

/* decide_which, the C function behind `which`. */
static void test_which_api(void **state)
{
    results *r[2] = {NULL, NULL};
    decide_answer a;
    int n;
    char path[256];
    err e;
    size_t i;
    int f;
    (void)state;
    for (f = 0; f < 2; f++)
        if (results_load(fixture(f ? "three" : "two", path, sizeof path), &r[f], &e) != BE_OK)
            fail_msg("%s", e.msg);
    for (i = 0; i < NEXPECT; i++) {
        const expect *x = &expected[i];
        if (decide_which(r[strcmp(x->file, "three") == 0], "784-512-10", WL_INFERENCE,
                         view_of(x->view), x->batch, &a, 1, &n, &e) != BE_OK)
            fail_msg("%s", e.msg);
        if (strcmp(a.device, x->device) != 0 || a.close != x->close ||
            a.extrapolated != x->extrapolated || a.between != x->between)
            fail_msg("%s %s batch %d: %s close %d extrapolated %d between %d: %s", x->file, x->view,
                     x->batch, a.device, a.close, a.extrapolated, a.between, a.why);
    }
    /* the failed device is said to have failed, and never named */
    assert_int_equal(
        decide_which(r[1], "784-512-10", WL_INFERENCE, FIT_RESIDENT, 16, &a, 1, &n, &e), BE_OK);
    assert_non_null(strstr(a.why, "never named, as no point of it was ok: cl:2.0"));
    assert_non_null(strstr(a.why, "too close to call: the medians of cl:0.0 and cl:1.0 lie "
                                  "within 1.10x and their 95% intervals overlap"));
    results_free(r[0]);
    results_free(r[1]);
}

/* Sets the resident summary of dev's point at batch b of r: its samples
 * scaled to median m, then the 95% interval [lo, hi]. */
static void set_time(results *r, const char *dev, int b, double m, double lo, double hi)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        rs_point *p = &r->points[i];
        if (strcmp(p->device, dev) == 0 && p->batch == b) {
            const double f = m / p->resident.median;
            int k;
            for (k = 0; k < p->nsamples; k++) {
                p->samples[k].wall *= f;
                p->samples[k].total *= f;
                p->samples[k].kernel *= f;
                p->samples[k].whost *= f;
            }
            assert_int_equal(results_summarize(p, NULL), BE_OK);
            p->resident.median = m;
            p->resident.ci_lo = lo;
            p->resident.ci_hi = hi;
            return;
        }
    }
    fail_msg("no point of %s at batch %d", dev, b);
}

/* Issue 41: a busy host's --quick run gave the CPU "5.25 ms (95% CI 0.0332
 * µs to 513 s)", an interval that overlaps every device's, and every batch
 * became "too close to call ... by the rule: cpu", against a device 10×
 * faster.  An interval too wide to inform never makes a tie, and medians
 * further apart than 1.10× are no tie whatever the intervals. */
static void test_uninformative_no_tie(void **state)
{
    results *r = NULL;
    decide_answer a;
    int n;
    char path[256];
    err e;
    (void)state;
    if (results_load(fixture("two", path, sizeof path), &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    /* batch 64: the CPU's interval says nothing; cl:0.0 is 10× faster */
    set_time(r, "cpu", 64, 5.25e-3, 3.32e-8, 513.0);
    set_time(r, "cl:0.0", 64, 0.525e-3, 0.5e-3, 0.55e-3);
    set_time(r, "cl:1.0", 64, 2.0e-3, 1.9e-3, 2.1e-3);
    assert_int_equal(decide_which(r, "784-512-10", WL_INFERENCE, FIT_RESIDENT, 64, &a, 1, &n, &e),
                     BE_OK);
    assert_string_equal(a.device, "cl:0.0");
    assert_int_equal(a.close, 0);
    assert_int_equal(a.uninformative, 0);
    assert_non_null(strstr(a.why, "cl:0.0 525 \xc2\xb5s (95% CI 500 \xc2\xb5s to 550 \xc2\xb5s), "
                                  "cl:1.0 2 ms (95% CI 1.9 ms to 2.1 ms), cpu 5.25 ms (95% CI "
                                  "33.2 ns to 513 s, uninformative); the uninformative "
                                  "intervals of devices more than 1.10x slower than cl:0.0 are "
                                  "not taken as ties"));
    assert_null(strstr(a.why, "too close"));
    /* batch 16: informative intervals that overlap, medians 1.45× apart */
    set_time(r, "cpu", 16, 0.8e-3, 0.75e-3, 1.2e-3);
    set_time(r, "cl:0.0", 16, 0.55e-3, 0.5e-3, 0.8e-3);
    set_time(r, "cl:1.0", 16, 3.0e-3, 2.9e-3, 3.1e-3);
    assert_int_equal(decide_which(r, "784-512-10", WL_INFERENCE, FIT_RESIDENT, 16, &a, 1, &n, &e),
                     BE_OK);
    assert_string_equal(a.device, "cl:0.0");
    assert_int_equal(a.close, 0);
    /* batch 4: the fastest's own interval says nothing: its median stands,
     * flagged, with no tie */
    set_time(r, "cpu", 4, 0.3e-3, 1e-8, 100.0);
    set_time(r, "cl:0.0", 4, 0.32e-3, 0.31e-3, 0.33e-3);
    assert_int_equal(decide_which(r, "784-512-10", WL_INFERENCE, FIT_RESIDENT, 4, &a, 1, &n, &e),
                     BE_OK);
    assert_string_equal(a.device, "cpu");
    assert_int_equal(a.close, 0);
    assert_int_equal(a.uninformative, 1);
    assert_non_null(
        strstr(a.why, "; uninformative: the 95% interval of cpu (the fastest) spans more than a "
                      "factor of 2, so this answer rests on the medians alone"));
    /* decision.json: the flags, and the rules in words */
    assert_int_equal(sh("mkdir -p %s/busy", tmpdir), 0);
    snprintf(path, sizeof path, "%s/busy/results.xml", tmpdir);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    results_free(r);
    assert_int_equal(sh("%s decide %s/busy > /dev/null", bin, tmpdir), 0);
    assert_int_equal(
        sh("/usr/bin/python3 -c 'import json; d = json.load(open(\"%s/busy/decision.json\"));"
           " g = [g for g in d[\"answers\"] if g[\"view\"] == \"resident\"][0];"
           " c = {c[\"batch\"]: c for c in g[\"batches\"]};"
           " assert c[64][\"device\"] == \"cl:0.0\" and not c[64][\"too_close\"]"
           " and not c[64][\"uninformative\"], c[64];"
           " assert [t[\"uninformative\"] for t in c[64][\"times\"]] == [False, False, True];"
           " assert c[16][\"device\"] == \"cl:0.0\" and not c[16][\"too_close\"], c[16];"
           " assert c[4][\"device\"] == \"cpu\" and c[4][\"uninformative\"]"
           " and not c[4][\"too_close\"], c[4];"
           " assert not c[2][\"uninformative\"] and not c[256][\"uninformative\"];"
           " u = d[\"rule\"];"
           " assert u[\"too_close\"] == \"too close to call: another device\\x27s median step"
           " time within 1.10x the fastest one\\x27s and its 95%% interval overlapping the fastest"
           " one\\x27s, both intervals informative\", u;"
           " assert u[\"uninformative\"].startswith(\"an interval is uninformative when its"
           " upper end is more than 2x its lower\"), u;"
           " assert u[\"contention\"].endswith(\"a device with its own silicon (a GPU) is"
           " not\"), u'",
           tmpdir),
        0);
}

/* The rusticl run (tests/data/decide/rusticl.xml.gz: `all --quick` on the
 * 2-core development machine while others took 86–90% of its CPUs, the
 * CPU, PoCL and Mesa's rusticl on llvmpipe, a thousand times slower):
 * every interval is flagged exactly where q_ci_uninformative says, no tie
 * is called on one, and the words read as sentences. */
static void test_rusticl(void **state)
{
    results *r = NULL;
    netfit_set s;
    char text[1024];
    err e;
    int i, n = 0;
    (void)state;
    if (results_load("tests/data/decide/rusticl.xml.gz", &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(netfit_run(r, r->prov.seed, 0, &s, &e), BE_OK);
    for (i = 0; i < s.n; i++)
        if (strcmp(s.c[i].other, "cl:1.0") == 0 && s.c[i].view == FIT_RESIDENT) {
            netfit_sentence(r, &s.c[i], text, sizeof text);
            assert_string_equal(text, "mnist-mlp (784-512-256-10), inference, data resident: "
                                      "rusticl llvmpipe is slower than OpenBLAS (2 threads) at "
                                      "every batch measured; batches 16..64. At "
                                      "2 of these batches a 95% interval is uninformative (over "
                                      "2\xc3\x97 wide), so the medians alone say whether "
                                      "rusticl llvmpipe is faster there (data resident).");
            n++;
        }
    assert_int_equal(n, 1);
    netfit_free(&s);
    /* the exports: each of the 6 points' resident interval is uninformative,
     * and summary.md's table says so on each of its 6 rows */
    {
        char *out = NULL;
        size_t len = 0;
        int k;
        for (k = 0; k < r->npoints; k++)
            assert_true(q_summary_uninformative(&r->points[k].resident));
        assert_int_equal(export_summary(r, &out, &len, &e), BE_OK);
        for (n = 0, i = 0; out[i]; i++)
            n += strncmp(out + i, " (uninformative) |", 18) == 0;
        assert_int_equal(n, r->npoints);
        free(out);
        assert_int_equal(export_json(r, &out, &len, &e), BE_OK);
        assert_non_null(strstr(out, "\"uninformative\": true"));
        free(out);
    }
    results_free(r);
    assert_int_equal(sh("mkdir -p %s/rq && cp tests/data/decide/rusticl.xml.gz %s/rq/ && "
                        "%s decide %s/rq/rusticl.xml.gz > %s/rq/env.txt",
                        tmpdir, tmpdir, bin, tmpdir, tmpdir),
                     0);
    assert_int_equal(
        sh("grep -qx '#   offloading to cl:1.0 instead: 65 (not ahead of cpu at the largest batch "
           "measured)' %s/rq/env.txt && ! grep -q 'ahead of than' %s/rq/env.txt",
           tmpdir, tmpdir),
        0);
    assert_int_equal(
        sh("/usr/bin/python3 -c 'import json, math; d = json.load(open(\"%s/rq/decision.json\"));"
           " u = lambda t: not (t[\"ci_lo_s\"] > 0 and math.isfinite(t[\"ci_hi_s\"]))"
           " or t[\"ci_hi_s\"] > 2 * t[\"ci_lo_s\"];"
           " cs = [c for g in d[\"answers\"] for c in g[\"batches\"]];"
           " assert len(cs) == 6;"
           " assert all(t[\"uninformative\"] == u(t) for c in cs for t in c[\"times\"]);"
           " assert all(c[\"device\"] == \"cl:0.0\" and not c[\"too_close\"]"
           " and c[\"uninformative\"] for c in cs);"
           " assert not any(t[\"tied\"] for c in cs for t in c[\"times\"])'",
           tmpdir),
        0);
    assert_int_equal(
        sh("cd %s/rq && [ \"$(%s which --net mnist-mlp --view resident --batch 16 rusticl.xml.gz "
           "2> why.txt)\" "
           "= cl:0.0 ] && grep -qF 'measured at batch 16: cl:0.0 1.55 ms (95%% CI 78.9 \xc2\xb5s "
           "to "
           "3.03 ms, uninformative), cpu 3.51 ms (95%% CI 0.00063 ns to 1,959,183 s, "
           "uninformative), cl:1.0 4.89 s (95%% CI 261 ms to 9.13 s, uninformative); "
           "uninformative: the 95%% interval of cl:0.0 (the fastest) spans more than a factor of "
           "2' why.txt && ! grep -q 'e+0\\|e-0\\|too close' why.txt",
           tmpdir, bin),
        0);
}

/* A program that prints the header's answer at every batch of the table
 * for fixture name. */
static void write_program(const char *name, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t i;
    assert_non_null(f);
    fputs("#include <stdio.h>\n#include \"breakeven_decision.h\"\n"
          "static void ask(const char *view, int batch)\n{\n"
          "    struct breakeven_answer a;\n"
          "    const char *d = breakeven_device(\"784-512-10\", \"inference\", view, batch, &a);\n"
          "    printf(\"%s %d %s %d %d %d\\n\", view, batch, d ? d : \"NULL\", a.too_close,\n"
          "           a.extrapolated, a.between);\n}\n"
          "int main(void)\n{\n",
          f);
    for (i = 0; i < NEXPECT; i++)
        if (strcmp(expected[i].file, name) == 0)
            fprintf(f, "    ask(\"%s\", %d);\n", expected[i].view, expected[i].batch);
    fputs("    printf(\"%d %d\\n\", breakeven_device_strict(\"784-512-10\", \"inference\", "
          "\"resident\", 1000, NULL) == NULL, breakeven_device(\"mnist\", \"inference\", "
          "\"resident\", 4, NULL) == NULL);\n    return 0;\n}\n",
          f);
    assert_int_equal(fclose(f), 0);
}

/* The lines the program must print for fixture name: the table's, then
 * that the strict variant and an unknown network give NULL. */
static void expected_lines(const char *name, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t i;
    assert_non_null(f);
    for (i = 0; i < NEXPECT; i++)
        if (strcmp(expected[i].file, name) == 0)
            fprintf(f, "%s %d %s %d %d %d\n", expected[i].view, expected[i].batch,
                    expected[i].device, expected[i].close, expected[i].extrapolated,
                    expected[i].between);
    fputs("1 1\n", f);
    assert_int_equal(fclose(f), 0);
}

/* `decide` on a copy of each fixture: the header compiled and run, the
 * JSON parsed, and `which`, all give the table's answers. */
static void test_decide_outputs(void **state)
{
    static const char *const names[] = {"two", "three"};
    char path[512];
    size_t i, f;
    (void)state;
    for (f = 0; f < 2; f++) {
        const char *n = names[f];
        char fx[256];
        assert_int_equal(sh("mkdir -p %s/%s && cp %s %s/%s/results.xml", tmpdir, n,
                            fixture(n, fx, sizeof fx), tmpdir, n),
                         0);
        assert_int_equal(sh("%s decide %s/%s > %s/%s/env.txt", bin, tmpdir, n, tmpdir, n), 0);
        snprintf(path, sizeof path, "%s/%s/use.c", tmpdir, n);
        write_program(n, path);
        snprintf(path, sizeof path, "%s/%s/expect.txt", tmpdir, n);
        expected_lines(n, path);
        /* (a) the header */
        assert_int_equal(sh("cd %s/%s && cc -std=c99 -Wall -Wextra -Werror -o use use.c && "
                            "./use > use.txt && cmp -s use.txt expect.txt",
                            tmpdir, n),
                         0);
        /* (b) `which`: the device on stdout; the same flags in its words */
        for (i = 0; i < NEXPECT; i++) {
            const expect *x = &expected[i];
            if (strcmp(x->file, n) != 0)
                continue;
            if (sh("cd %s/%s && [ \"$(%s which --quiet --net 784-512-10 --view %s --batch %d "
                   ".)\" = %s ]",
                   tmpdir, n, bin, x->view, x->batch, x->device) != 0)
                fail_msg("which %s %s %d is not %s", n, x->view, x->batch, x->device);
            assert_int_equal(sh("cd %s/%s && %s which --net 784-512-10 --view %s --batch %d . "
                                "2>&1 >/dev/null | grep -q '%s'",
                                tmpdir, n, bin, x->view, x->batch,
                                x->extrapolated ? "extrapolated: batch"
                                : x->between    ? "between them the answer changes"
                                : x->close      ? "too close to call"
                                                : "measured at batch"),
                             0);
        }
    }
    /* (c) decision.json: each measured batch's device and tie, the rule,
     * the failed device, the warnings, the version and the fingerprint */
    for (i = 0; i < NEXPECT; i++) {
        const expect *x = &expected[i];
        int k;
        for (k = 0; k < NB && batches[k] != x->batch; k++)
            ;
        if (k == NB)
            continue;
        if (sh("/usr/bin/python3 -c 'import json, sys; d = "
               "json.load(open(\"%s/%s/decision.json\"));"
               " g = [g for g in d[\"answers\"] if g[\"view\"] == \"%s\"][0];"
               " c = [c for c in g[\"batches\"] if c[\"batch\"] == %d][0];"
               " sys.exit(0 if c[\"device\"] == \"%s\" and c[\"too_close\"] == %s and"
               " all(t[\"ci_lo_s\"] <= t[\"median_s\"] <= t[\"ci_hi_s\"] for t in c[\"times\"])"
               " else 1)'",
               tmpdir, x->file, x->view, x->batch, x->device, x->close ? "True" : "False") != 0)
            fail_msg("decision.json of %s: %s batch %d is not %s", x->file, x->view, x->batch,
                     x->device);
    }
    assert_int_equal(
        sh("/usr/bin/python3 -c 'import json; d = json.load(open(\"%s/three/decision.json\"));"
           " assert d[\"breakeven\"] and d[\"commit\"] and len(d[\"machine\"][\"fingerprint\"]) == "
           "8;"
           " assert \"CPU\" in d[\"rule\"][\"too_close_pick\"], d[\"rule\"];"
           " assert all(g[\"failed\"] == [\"cl:2.0\"] for g in d[\"answers\"]);"
           " assert any(w.startswith(\"Failed verification\") for w in d[\"warnings\"]);"
           " assert all(t[\"device\"] != \"cl:2.0\" for g in d[\"answers\"] for c in g[\"batches\"]"
           " for t in c[\"times\"])'",
           tmpdir),
        0);
}

/* llama.cpp's line: the discrete GPU's weights-on-host crossover, rounded
 * up, with the comment naming network, device and interval. */
static void test_llama(void **state)
{
    (void)state;
    assert_int_equal(
        sh("cd %s/two && grep -q '^# 784-512-10: cl:1.0 is faster than cpu from batch .* on (95%% "
           "CI .*), batches 2..256 measured: offload from batch ' env.txt && "
           "v=$(sed -n 's/^GGML_OP_OFFLOAD_MIN_BATCH=//p' env.txt) && [ \"$v\" -gt 16 ] && "
           "[ \"$v\" -le 64 ] && [ $(grep -c '^GGML' env.txt) = 1 ] && "
           "/usr/bin/python3 -c 'import json, math; d = json.load(open(\"decision.json\")); "
           "l = d[\"llama_cpp\"]; assert l[\"value\"] == '$v' == "
           "math.ceil(l[\"networks\"][0][\"crossover\"][\"crossover_batch\"]), l; "
           "assert l[\"networks\"][0][\"crossover\"][\"other\"] == \"cl:1.0\", l'",
           tmpdir),
        0);
}

/* Every point failed: no answer anywhere, said as such; the header still
 * compiles (no empty initializer) and answers NULL; the JSON parses. */
static void test_all_failed(void **state)
{
    static const char use[] = "#include <stdio.h>\n#include \"breakeven_decision.h\"\n"
                              "int main(void)\n{\n    struct breakeven_answer a;\n"
                              "    const char *d = breakeven_device(\"784-512-10\", \"inference\", "
                              "\"resident\", 4, &a);\n"
                              "    printf(\"%d %d\\n\", d == NULL, a.device == NULL);\n"
                              "    return 0;\n}\n";
    results *r = NULL;
    netfit_set s;
    decide_answer a;
    int n;
    char path[512], *h = NULL;
    size_t len;
    FILE *env;
    err e;
    int i;
    (void)state;
    if (results_load(fixture("two", path, sizeof path), &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    for (i = 0; i < r->npoints; i++)
        r->points[i].status = PT_OUT_OF_MEMORY;
    assert_int_equal(decide_which(r, "784-512-10", WL_INFERENCE, FIT_RESIDENT, 4, &a, 1, &n, &e),
                     BE_EFAIL);
    assert_string_equal(e.msg, "run 20261127T000000Z-two has no point of network 784-512-10 "
                               "that any device measured inference (resident) successfully");
    assert_int_equal(decide_header(r, &h, &len, &e), BE_OK);
    snprintf(path, sizeof path, "%s/failed", tmpdir);
    assert_int_equal(fsx_mkdirs(path, &e), BE_OK);
    snprintf(path, sizeof path, "%s/failed/use.c", tmpdir);
    assert_int_equal(fsx_write_atomic(path, use, sizeof use - 1, &e), BE_OK);
    assert_int_equal(netfit_run(r, 1, 100, &s, &e), BE_OK);
    snprintf(path, sizeof path, "%s/failed", tmpdir);
    env = fopen("/dev/null", "w");
    assert_non_null(env);
    assert_int_equal(decide_write(r, &s, NULL, path, env, &e), BE_OK);
    fclose(env);
    assert_int_equal(
        sh("cd %s/failed && cc -std=c99 -Wall -Wextra -Werror -o use use.c && "
           "[ \"$(./use)\" = \"1 1\" ] && /usr/bin/python3 -c 'import json; d = json.load(open("
           "\"decision.json\")); assert all(g[\"batches\"] == [] for g in d[\"answers\"]), d; "
           "assert sorted(d[\"answers\"][0][\"failed\"]) == [\"cl:0.0\", \"cl:1.0\", \"cpu\"], d; "
           "assert d[\"llama_cpp\"][\"value\"] is None, d'",
           tmpdir),
        0);
    free(h);
    netfit_free(&s);
    results_free(r);
}

/* Bad input: no network, one device only; one line each, exit 2. */
static void test_bad_input(void **state)
{
    (void)state;
    assert_int_equal(sh("cp tests/data/results-0.1.0.xml %s/square.xml && %s decide %s/square.xml "
                        "> /dev/null 2> %s/err.txt",
                        tmpdir, bin, tmpdir, tmpdir),
                     2);
    assert_int_equal(sh("[ $(wc -l < %s/err.txt) = 1 ] && grep -q 'measured no network' %s/err.txt",
                        tmpdir, tmpdir),
                     0);
    assert_int_equal(sh("%s run --quiet --quick --devices cpu --net 8-4-2 --out %s/one "
                        "> /dev/null 2>&1 && %s decide %s/one/runs/*/results.xml.gz "
                        "> /dev/null 2> %s/err.txt",
                        bin, tmpdir, bin, tmpdir, tmpdir),
                     2);
    assert_int_equal(sh("[ $(wc -l < %s/err.txt) = 1 ] && grep -q 'on one device only' %s/err.txt",
                        tmpdir, tmpdir),
                     0);
}

/* ---- a run of two stacks (stacks.xml.gz, above) ---- */

#define NSB 6
static const int stack_batches[NSB] = {4, 16, 32, 45, 64, 256};
/* The answer per stack at each measured batch, resident: breakeven's own
 * (cpu against cl:0.0, PoCL), then PyTorch's (torch:cpu against the
 * synthetic torch:cuda:0).  One choice among every device (the answer
 * before stacks) takes torch:cuda:0 from batch 32 on, for both. */
static const char *const stack_own[NSB] = {"cpu", "cpu", "cpu", "cl:0.0", "cl:0.0", "cl:0.0"};
static const char *const stack_torch[NSB] = {"torch:cpu",    "torch:cpu",    "torch:cuda:0",
                                             "torch:cuda:0", "torch:cuda:0", "torch:cuda:0"};
#define OWN "With breakeven's OpenCL kernels and OpenBLAS"
#define OWN_RE "With breakeven.s OpenCL kernels and OpenBLAS" /* in '' in sh */

/* The text of fmt into tmpdir/name/file. */
static void write_text(const char *name, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void write_text(const char *name, const char *file, const char *fmt, ...)
{
    char path[512];
    va_list ap;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s/%s", tmpdir, name, file);
    assert_non_null(f = fopen(path, "w"));
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
}

/* The device among a and b with the lower resident median at batch b of r. */
static const char *faster_of(const results *r, const char *x, const char *y, int b)
{
    const rs_point *px = NULL, *py = NULL;
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].batch == b && q_ok(&r->points[i])) {
            if (strcmp(r->points[i].device, x) == 0)
                px = &r->points[i];
            if (strcmp(r->points[i].device, y) == 0)
                py = &r->points[i];
        }
    assert_non_null(px);
    assert_non_null(py);
    return px->resident.median <= py->resident.median ? x : y;
}

/* r saved as tmpdir/name/results.xml. */
static void save_as(const results *r, const char *name)
{
    char path[512];
    err e;
    assert_int_equal(sh("mkdir -p %s/%s", tmpdir, name), 0);
    snprintf(path, sizeof path, "%s/%s/results.xml", tmpdir, name);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
}

/* decide_which: an answer per stack, each labelled, with its host; the
 * table is the data's (the faster of the stack's two devices). */
static void test_stacks_which_api(void **state)
{
    results *r = NULL;
    decide_answer a[DECIDE_MAX_STACKS];
    err e;
    int k, n;
    (void)state;
    if (results_load("tests/data/decide/stacks.xml.gz", &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    for (k = 0; k < NSB; k++) {
        const int b = stack_batches[k];
        assert_string_equal(faster_of(r, "cpu", "cl:0.0", b), stack_own[k]);
        assert_string_equal(faster_of(r, "torch:cpu", "torch:cuda:0", b), stack_torch[k]);
        assert_int_equal(decide_which(r, "mnist-mlp", WL_INFERENCE, FIT_RESIDENT, b, a,
                                      DECIDE_MAX_STACKS, &n, &e),
                         BE_OK);
        assert_int_equal(n, 2);
        assert_string_equal(a[0].stack, OWN);
        assert_string_equal(a[0].host, "cpu");
        assert_string_equal(a[0].device, stack_own[k]);
        assert_string_equal(a[1].stack, "With PyTorch");
        assert_string_equal(a[1].host, "torch:cpu");
        assert_string_equal(a[1].device, stack_torch[k]);
        /* neither names a device of the other stack */
        assert_null(strstr(a[0].why, "torch:"));
        assert_null(strstr(a[1].why, "cl:0.0"));
        assert_null(strstr(a[1].why, ": cpu "));
        assert_null(strstr(a[1].why, ", cpu "));
    }
    /* the transfer view: PyTorch's adapter times the resident step only */
    assert_int_equal(
        decide_which(r, "mnist-mlp", WL_INFERENCE, FIT_TRANSFER, 64, a, DECIDE_MAX_STACKS, &n, &e),
        BE_OK);
    assert_int_equal(n, 2);
    assert_string_equal(a[0].device, "cl:0.0");
    assert_null(a[1].device);
    assert_string_equal(a[1].why, "no answer: torch:cuda:0 measured no inference transfer point of "
                                  "network mnist-mlp (a framework's adapter times the step on "
                                  "data already on its device: --view resident)");
    /* max 1: the first stack's only */
    assert_int_equal(decide_which(r, "mnist-mlp", WL_INFERENCE, FIT_RESIDENT, 64, a, 1, &n, &e),
                     BE_OK);
    assert_int_equal(n, 1);
    assert_string_equal(a[0].device, "cl:0.0");
    results_free(r);
}

/* `which`, `decide`'s header, decision.json and llama.cpp's lines on the
 * run of two stacks: each answer says its stack. */
static void test_stacks_outputs(void **state)
{
    char path[512];
    FILE *f;
    int k;
    (void)state;
    assert_int_equal(sh("mkdir -p %s/stacks && cp tests/data/decide/stacks.xml.gz %s/stacks/ && "
                        "%s decide %s/stacks/stacks.xml.gz > %s/stacks/env.txt",
                        tmpdir, tmpdir, bin, tmpdir, tmpdir),
                     0);
    /* `which`: one line per stack, exactly */
    for (k = 0; k < NSB; k++) {
        write_text("stacks", "expect.txt", OWN ": %s\nWith PyTorch: %s\n", stack_own[k],
                   stack_torch[k]);
        if (sh("cd %s/stacks && %s which --net mnist-mlp --view resident --batch %d "
               "stacks.xml.gz > which.txt 2> why.txt && cmp -s expect.txt which.txt && "
               "grep -q '^" OWN_RE " (host cpu): %s at batch %d of mnist-mlp (inference, "
               "resident): measured at batch %d: ' why.txt && grep -q '^With PyTorch (host "
               "torch:cpu): %s at batch %d of mnist-mlp (inference, resident): measured at "
               "batch %d: ' why.txt && [ $(wc -l < why.txt) = 2 ]",
               tmpdir, bin, stack_batches[k], stack_own[k], stack_batches[k], stack_batches[k],
               stack_torch[k], stack_batches[k], stack_batches[k]) != 0)
            fail_msg("which at batch %d does not answer per stack", stack_batches[k]);
    }
    /* the default view, transfer: PyTorch has no answer, and says why */
    write_text("stacks", "expect.txt", OWN ": cl:0.0\n");
    assert_int_equal(
        sh("cd %s/stacks && %s which --net mnist-mlp --batch 64 stacks.xml.gz > which.txt 2> "
           "why.txt && cmp -s expect.txt which.txt && grep -qx 'With PyTorch (host torch:cpu): no "
           "answer: "
           "torch:cuda:0 measured no inference transfer point of network mnist-mlp (a "
           "framework.s adapter times the step on data already on its device: --view resident)' "
           "why.txt",
           tmpdir, bin),
        0);
    /* llama.cpp: each stack's value under its name, the line's said */
    assert_int_equal(
        sh("cd %s/stacks && grep -qx '# " OWN_RE " (not ggml.s kernels):' env.txt && "
           "grep -qx '# With PyTorch:' env.txt && "
           "grep -A1 -x '# With PyTorch:' env.txt | grep -qx '# mnist-mlp: no device of PyTorch "
           "timed it successfully with the weights on the host (inference): no value' && "
           "grep -qx '# the value below is the one with breakeven.s OpenCL kernels and OpenBLAS, "
           "the first stack above with a value; ggml.s own kernels were not measured' env.txt && "
           "v=$(sed -n 's/^GGML_OP_OFFLOAD_MIN_BATCH=//p' env.txt) && "
           "[ $(grep -c '^GGML' env.txt) = 1 ] && "
           "/usr/bin/python3 -c 'import json, math; d = json.load(open(\"decision.json\")); "
           "l = d[\"llama_cpp\"]; assert l[\"stack\"] == \"breakeven\", l; "
           "c = l[\"networks\"][0][\"crossover\"]; "
           "assert c[\"other\"] == \"cl:0.0\" and c[\"base\"] == \"cpu\", c; "
           "assert l[\"value\"] == '$v' == math.ceil(c[\"crossover_batch\"]), l; "
           "s = {x[\"stack\"]: x for x in l[\"stacks\"]}; "
           "assert sorted(s) == [\"PyTorch\", \"breakeven\"], s; "
           "assert s[\"PyTorch\"][\"value\"] is None, s; "
           "assert s[\"breakeven\"][\"value\"] == l[\"value\"], s'",
           tmpdir),
        0);
    /* decision.json: every group of one stack, with its host; the answers
     * of the table; each device against its own stack's CPU */
    assert_int_equal(
        sh("cd %s/stacks && /usr/bin/python3 -c 'import json; d = json.load(open("
           "\"decision.json\")); "
           "own = {\"cpu\", \"cl:0.0\"}; torch = {\"torch:cpu\", \"torch:cuda:0\"}; "
           "hosts = {\"breakeven\": \"cpu\", \"PyTorch\": \"torch:cpu\"}; "
           "devs = {\"breakeven\": own, \"PyTorch\": torch}; "
           "assert d[\"rule\"][\"stacks\"].startswith(\"a run of several stacks\"), d[\"rule\"]; "
           "assert sorted((g[\"stack\"], g[\"view\"]) for g in d[\"answers\"]) == "
           "[(\"PyTorch\", \"resident\"), (\"breakeven\", \"resident\"), (\"breakeven\", "
           "\"transfer\"), (\"breakeven\", \"weights-on-host\")], d[\"answers\"]; "
           "assert all(g[\"host\"] == hosts[g[\"stack\"]] for g in d[\"answers\"]); "
           "assert all(t[\"device\"] in devs[g[\"stack\"]] for g in d[\"answers\"] "
           "for c in g[\"batches\"] for t in c[\"times\"]); "
           "a = {(g[\"stack\"], c[\"batch\"]): c[\"device\"] for g in d[\"answers\"] "
           "if g[\"view\"] == \"resident\" for c in g[\"batches\"]}; "
           "assert [a[(\"breakeven\", b)] for b in (4, 16, 32, 45, 64, 256)] == [\"%s\", "
           "\"%s\", \"%s\", \"%s\", \"%s\", \"%s\"], a; "
           "assert [a[(\"PyTorch\", b)] for b in (4, 16, 32, 45, 64, 256)] == [\"%s\", "
           "\"%s\", \"%s\", \"%s\", \"%s\", \"%s\"], a; "
           "x = {(c[\"other\"], c[\"view\"]): c[\"base\"] for c in d[\"crossovers\"]}; "
           "assert x[(\"torch:cuda:0\", \"resident\")] == \"torch:cpu\", x; "
           "assert x[(\"torch:cpu\", \"resident\")] == \"cpu\", x; "
           "assert x[(\"cl:0.0\", \"resident\")] == \"cpu\", x'",
           tmpdir, stack_own[0], stack_own[1], stack_own[2], stack_own[3], stack_own[4],
           stack_own[5], stack_torch[0], stack_torch[1], stack_torch[2], stack_torch[3],
           stack_torch[4], stack_torch[5]),
        0);
    /* the header: breakeven_device_in(stack, ...) and no answer without a
     * stack; compiled and run, the table's answers */
    snprintf(path, sizeof path, "%s/stacks/use.c", tmpdir);
    assert_non_null(f = fopen(path, "w"));
    fputs("#include <stdio.h>\n#include \"breakeven_decision.h\"\nint main(void)\n{\n"
          "    static const int b[] = {4, 16, 32, 45, 64, 256};\n    size_t i;\n"
          "    for (i = 0; i < 6; i++) {\n"
          "        const char *x = breakeven_device_in(\"breakeven\", \"mnist-mlp\", "
          "\"inference\", \"resident\", b[i], NULL);\n"
          "        const char *y = breakeven_device_in(\"PyTorch\", \"mnist-mlp\", "
          "\"inference\", \"resident\", b[i], NULL);\n"
          "        printf(\"%d %s %s\\n\", b[i], x ? x : \"NULL\", y ? y : \"NULL\");\n    }\n"
          "    printf(\"%d %d\\n\", breakeven_device_in(\"PyTorch\", \"mnist-mlp\", "
          "\"inference\", \"transfer\", 64, NULL) == NULL, "
          "breakeven_device_strict_in(\"PyTorch\", \"mnist-mlp\", \"inference\", "
          "\"resident\", 1000, NULL) == NULL);\n    return 0;\n}\n",
          f);
    assert_int_equal(fclose(f), 0);
    snprintf(path, sizeof path, "%s/stacks/expect.txt", tmpdir);
    assert_non_null(f = fopen(path, "w"));
    for (k = 0; k < NSB; k++)
        fprintf(f, "%d %s %s\n", stack_batches[k], stack_own[k], stack_torch[k]);
    fputs("1 1\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(sh("cd %s/stacks && cc -std=c99 -Wall -Wextra -Werror -o use use.c && "
                        "./use > use.txt && cmp -s use.txt expect.txt && "
                        "! grep -q 'breakeven_device(' breakeven_decision.h && "
                        "grep -qx ' \\*   \"PyTorch\" = PyTorch (host torch:cpu).' "
                        "breakeven_decision.h",
                        tmpdir),
                     0);
}

/* A stack with one device has nothing to choose, and says so; breakeven's
 * own answer no longer takes PyTorch's CPU (which one choice among every
 * device took at batch 32: 1.35 ms against OpenBLAS's 1.9 ms). */
static void test_stacks_one_device(void **state)
{
    results *r = NULL;
    err e;
    int np, nd;
    (void)state;
    if (results_load("tests/data/decide/stacks.xml.gz", &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    /* the synthetic device and its points come last: without them, the real run */
    nd = r->ndevices;
    np = r->npoints;
    assert_string_equal(r->devices[nd - 1].id, "torch:cuda:0");
    while (r->npoints > 0 && strcmp(r->points[r->npoints - 1].device, "torch:cuda:0") == 0)
        r->npoints--;
    assert_int_equal(np - r->npoints, NSB);
    r->ndevices--;
    save_as(r, "onetorch");
    r->ndevices = nd;
    r->npoints = np;
    results_free(r);
    write_text("onetorch", "expect.txt", OWN ": cpu\n");
    assert_int_equal(
        sh("cd %s/onetorch && %s which --net mnist-mlp --view resident --batch 32 . > which.txt "
           "2> why.txt && cmp -s expect.txt which.txt && grep -qx 'With PyTorch (host torch:cpu): "
           "nothing to "
           "choose: torch:cpu is its only device' why.txt && %s decide . > env.txt && "
           "grep -qx ' \\*   \"PyTorch\" = PyTorch (nothing to choose: torch:cpu is its only "
           "device).' breakeven_decision.h && /usr/bin/python3 -c 'import json; d = json.load("
           "open(\"decision.json\")); assert {g[\"stack\"] for g in d[\"answers\"]} == "
           "{\"breakeven\"}, d[\"answers\"]'",
           tmpdir, bin, bin),
        0);
}

/* --base: the user chose one comparison across stacks, so one choice among
 * every device, the base its host, said so; and the tie rule takes a
 * framework's CPU as it takes OpenBLAS, the device that holds the data. */
static void test_stacks_base_and_tie(void **state)
{
    results *r = NULL;
    err e;
    (void)state;
    if (results_load("tests/data/decide/stacks.xml.gz", &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(r->prov.base, sizeof r->prov.base, "cpu");
    save_as(r, "across");
    r->prov.base[0] = '\0';
    /* batch 16: PyTorch's CPU and GPU within 1.10x, intervals overlapping */
    set_time(r, "torch:cpu", 16, 1.0e-3, 0.98e-3, 1.02e-3);
    set_time(r, "torch:cuda:0", 16, 0.97e-3, 0.95e-3, 0.99e-3);
    save_as(r, "tie");
    results_free(r);
    assert_int_equal(
        sh("cd %s/across && [ \"$(%s which --net mnist-mlp --view resident --batch 32 . 2> "
           "why.txt)\" = torch:cuda:0 ] && grep -q '^torch:cuda:0 at batch 32 of mnist-mlp "
           "(inference, resident): among every device of every stack, against cpu, the base "
           "this run chose (--base); measured at batch 32: torch:cuda:0 ' why.txt && "
           "[ $(wc -l < why.txt) = 1 ] && %s decide . > env.txt && "
           "! grep -q '^# With' env.txt && grep -q 'Across stacks: the run chose its base' "
           "breakeven_decision.h && /usr/bin/python3 -c 'import json; d = json.load("
           "open(\"decision.json\")); assert d[\"rule\"][\"stacks\"].startswith(\"the run "
           "chose its base\"), d[\"rule\"]; assert all(\"stack\" not in g for g in "
           "d[\"answers\"])'",
           tmpdir, bin, bin),
        0);
    assert_int_equal(
        sh("cd %s/tie && %s which --net mnist-mlp --view resident --batch 16 . 2> why.txt | "
           "grep -qx 'With PyTorch: torch:cpu' && grep -q '^With PyTorch (host torch:cpu): "
           "torch:cpu at batch 16 .*too close to call: the medians of torch:cuda:0 and "
           "torch:cpu lie within 1.10x and their 95%% intervals overlap; by the rule (take "
           "the host device (the CPU), which already holds the program.s data, when it is "
           "within reach, else the one with the lowest median): torch:cpu$' why.txt",
           tmpdir, bin),
        0);
}

static int setup(void **state)
{
    const char *b = getenv("BREAKEVEN");
    (void)state;
    if (!realpath(b && *b ? b : "./breakeven", bin))
        return -1;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_decide.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return sh("rm -rf %s", tmpdir);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_the_data),
        cmocka_unit_test(test_which_api),
        cmocka_unit_test(test_decide_outputs),
        cmocka_unit_test(test_llama),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_all_failed),
        cmocka_unit_test(test_uninformative_no_tie),
        cmocka_unit_test(test_rusticl),
        cmocka_unit_test(test_stacks_which_api),
        cmocka_unit_test(test_stacks_outputs),
        cmocka_unit_test(test_stacks_one_device),
        cmocka_unit_test(test_stacks_base_and_tie),
    };
    if (argc == 4 && strcmp(argv[1], "--write-stack-fixture") == 0) {
        err e;
        if (make_stack_fixture(argv[2], argv[3], &e) == BE_OK)
            return 0;
        fprintf(stderr, "test_decide: %s\n", e.msg);
        return 1;
    }
    if (argc == 3 && strcmp(argv[1], "--write-fixtures") == 0) {
        char path[4096];
        err e;
        snprintf(path, sizeof path, "%s/two.xml", argv[2]);
        if (make_fixture(path, 0, &e) == BE_OK) {
            snprintf(path, sizeof path, "%s/three.xml", argv[2]);
            if (make_fixture(path, 1, &e) == BE_OK)
                return 0;
        }
        fprintf(stderr, "test_decide: %s\n", e.msg);
        return 1;
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
