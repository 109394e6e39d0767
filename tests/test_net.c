/*
 * test_net.c — the user's network (cmocka): the parser of --net and
 * --net-file with its exact messages, the FLOP count, the command line,
 * rectangular layers on the CPU and on every OpenCL device checked by the
 * verifier (inference and training, ×10 and ×1 output layers, and a wrong
 * entry caught), results format 2 (round trip, hostile network attributes,
 * format-1 files still loading), the placement estimate (exact), and end
 * to end: a small --net run, its page per network parsed (answers, charts,
 * per-layer table, the run page's link), the exports naming its network,
 * `compare` of runs whose networks differ, `decide` whose header compiles
 * with -std=c99 -Wall -Werror and answers as `which` does, and `which`'s
 * refusals.  The batches the page shows by layer are checked exactly.
 * The end-to-end part runs $BREAKEVEN (tests/run sets it).
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "decide.h"
#include "device.h"
#include "fsx.h"
#include "net.h"
#include "netfit.h"
#include "results.h"
#include "verify.h"
#include "version.h"
#include "workload.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-net-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- the parser ---- */

static void expect_net(const char *text, const char *name, int layers, const int *dims)
{
    net_spec n;
    err e;
    int i;
    if (net_parse(text, "--net", &n, &e) != BE_OK)
        fail_msg("%s: %s", text, e.msg);
    assert_string_equal(n.name, name);
    assert_int_equal(n.layers, layers);
    for (i = 0; i <= layers; i++)
        assert_int_equal(n.dims[i], dims[i]);
}

static void expect_bad(const char *text, const char *msg)
{
    net_spec n;
    err e;
    assert_int_equal(net_parse(text, "--net", &n, &e), BE_EUSAGE);
    assert_string_equal(e.msg, msg);
}

static void test_parse(void **state)
{
    static const int mlp[] = {784, 512, 256, 10}, two[] = {1, 65536}, ffn[] = {4096, 16384, 4096};
    (void)state;
    expect_net("784-512-256-10", "784-512-256-10", 3, mlp);
    expect_net("mnist-mlp", "mnist-mlp", 3, mlp);
    expect_net("1-65536", "1-65536", 1, two);
    expect_net("gpt3-6.7b-ffn", "gpt3-6.7b-ffn", 2, ffn);
    expect_bad("784", "--net: \"784\" has one size; a network needs an input and an output size, "
                      "such as 784-10");
    expect_bad("784-0-10", "--net: \"784-0-10\": size 2 is 0; sizes are 1..65536");
    expect_bad("784--10", "--net: \"784--10\": size 2 is empty");
    expect_bad("784-", "--net: \"784-\": size 2 is empty");
    expect_bad("784-65537", "--net: \"784-65537\": size 2 is too large; sizes are 1..65536");
    expect_bad("784-99999999999999999999",
               "--net: \"784-99999999999999999999\": size 2 is too large; sizes are 1..65536");
    expect_bad("784-5x", "--net: \"784-5x\" is not layer sizes such as 784-512-10 (positive "
                         "integers joined by '-')");
    expect_bad("784 512", "--net: \"784 512\" is not layer sizes such as 784-512-10 (positive "
                          "integers joined by '-')");
    expect_bad("a-b", "--net: \"a-b\" is neither layer sizes such as 784-512-10 nor a preset "
                      "(mnist-mlp, keras-mnist-mlp, dlrm-kaggle-bottom, bert-base-ffn, "
                      "gpt3-6.7b-ffn)");
    expect_bad("", "--net: \"\" is neither layer sizes such as 784-512-10 nor a preset "
                   "(mnist-mlp, keras-mnist-mlp, dlrm-kaggle-bottom, bert-base-ffn, "
                   "gpt3-6.7b-ffn)");
    expect_bad("-784-10", "--net: \"-784-10\" is neither layer sizes such as 784-512-10 nor a "
                          "preset (mnist-mlp, keras-mnist-mlp, dlrm-kaggle-bottom, "
                          "bert-base-ffn, gpt3-6.7b-ffn)");
}

static void test_parse_limits(void **state)
{
    char text[1024];
    net_spec n;
    err e;
    int i, k = 0;
    (void)state;
    for (i = 0; i <= 64; i++) /* 65 sizes: 64 layers, the most */
        k += snprintf(text + k, sizeof text - (size_t)k, "%s%d", i ? "-" : "", 2 + i);
    assert_int_equal(net_parse(text, "--net", &n, &e), BE_OK);
    assert_int_equal(n.layers, 64);
    assert_int_equal(n.dims[64], 66);
    /* its sizes do not fit a name: it is named by its shape */
    assert_string_equal(n.name, "net-64-layers-2-to-66");
    snprintf(text + k, sizeof text - (size_t)k, "-7");
    assert_int_equal(net_parse(text, "--net", &n, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "has more than 64 layers"));
}

static void test_parse_line_and_file(void **state)
{
    static const char file[] = "# my networks\n"
                               "\n"
                               "tiny 8-4-2   # a comment\n"
                               "  16-8\n"
                               "bert-base-ffn\n";
    char path[300];
    net_spec nets[NET_MAX_NETS], n;
    err e;
    int count = 0;
    (void)state;
    assert_int_equal(net_parse_line("mnist 784-512-10", "f:1", &n, &e), BE_OK);
    assert_string_equal(n.name, "mnist");
    assert_int_equal(n.layers, 2);
    assert_int_equal(net_parse_line("9net 784-10", "f:1", &n, &e), BE_EUSAGE);
    assert_string_equal(e.msg, "f:1: \"9net\" is not a network name (a letter, then letters, "
                               "digits, '.', '_' or '-')");
    assert_int_equal(net_parse_line("a 784-10 x", "f:1", &n, &e), BE_EUSAGE);
    assert_string_equal(e.msg, "f:1: expected \"NAME SIZES\", got \"a 784-10 x\"");

    snprintf(path, sizeof path, "%s/nets.txt", tmpdir);
    assert_int_equal(fsx_write_atomic(path, file, sizeof file - 1, &e), BE_OK);
    assert_int_equal(net_load_file(path, nets, &count, &e), BE_OK);
    assert_int_equal(count, 3);
    assert_string_equal(nets[0].name, "tiny");
    assert_int_equal(nets[0].dims[2], 2);
    assert_string_equal(nets[1].name, "16-8");
    assert_string_equal(nets[2].name, "bert-base-ffn");
    assert_int_equal(nets[2].dims[1], 3072);

    assert_int_equal(fsx_write_atomic(path, "ok 4-4\nbad 4--4\n", 16, &e), BE_OK);
    count = 0;
    assert_int_equal(net_load_file(path, nets, &count, &e), BE_EUSAGE);
    assert_int_equal(count, 0);
    assert_non_null(strstr(e.msg, "nets.txt:2: \"4--4\": size 2 is empty"));
    assert_int_equal(fsx_write_atomic(path, "# nothing\n", 10, &e), BE_OK);
    assert_int_equal(net_load_file(path, nets, &count, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "no network in it"));
    assert_int_equal(net_load_file(tmpdir, nets, &count, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "not a regular file"));
}

static void test_flops(void **state)
{
    net_spec n;
    err e;
    (void)state;
    assert_int_equal(net_parse("784-512-256-10", "--net", &n, &e), BE_OK);
    /* (2·k·n + n)·b per layer */
    assert_true(net_flops(&n, WL_INFERENCE, 1) ==
                (2.0 * 784 * 512 + 512) + (2.0 * 512 * 256 + 256) + (2.0 * 256 * 10 + 10));
    assert_true(net_layer_flops(WL_TRAINING, 256, 10, 4) ==
                (6.0 * 256 * 10 + 3.0 * 10) * 4 + 2.0 * 256 * 10 + 2.0 * 10);
    /* the square layer counts as workload.h counts it */
    assert_true(net_layer_flops(WL_TRAINING, 300, 300, 7) ==
                workload_flops_per_layer(WL_TRAINING, 300, 7));
    assert_true(net_layer_flops(WL_INFERENCE, 300, 300, 7) ==
                workload_flops_per_layer(WL_INFERENCE, 300, 7));
}

static int parse_args(cli *c, err *e, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, e);
    argv[argc++] = (char *)"breakeven";
    while ((argv[argc] = va_arg(ap, char *)) != NULL)
        argc++;
    va_end(ap);
    return cli_parse(argc, argv, c, e);
}

static void test_cli(void **state)
{
    cli c;
    err e;
    (void)state;
    assert_int_equal(parse_args(&c, &e, "run", "--net", "784-512-10", "--net", "mnist-mlp", NULL),
                     BE_OK);
    assert_int_equal(c.plan.nnets, 2);
    assert_string_equal(c.plan.nets[1].name, "mnist-mlp");
    assert_int_equal(plan_cells(&c.plan), 2 * c.plan.batch.n);
    assert_int_equal(parse_args(&c, &e, "run", "--net", "784", NULL), BE_EUSAGE);
    assert_string_equal(e.msg, "--net: \"784\" has one size; a network needs an input and an "
                               "output size, such as 784-10");
    assert_int_equal(parse_args(&c, &e, "run", "--net", "8-4", "--hidden", "128", NULL), BE_EUSAGE);
    assert_string_equal(e.msg, "--hidden: does not apply with --net or --net-file (a network "
                               "gives its own sizes and layers)");
    assert_int_equal(parse_args(&c, &e, "run", "--net", "8-4", "--net", "8-4", NULL), BE_EUSAGE);
    assert_string_equal(e.msg, "--net: the network \"8-4\" is given twice");
    assert_int_equal(parse_args(&c, &e, "which", "--net", "mine", "--batch", "64", "R", NULL),
                     BE_OK);
    assert_string_equal(c.which_net, "mine");
    assert_int_equal(c.which_batch, 64);
    assert_int_equal(c.which_view, 1);
    assert_int_equal(parse_args(&c, &e, "which", "--net", "x", "--batch", "16,32", "R", NULL),
                     BE_EUSAGE);
    assert_int_equal(parse_args(&c, &e, "which", "--batch", "16", "R", NULL), BE_EUSAGE);
    assert_int_equal(parse_args(&c, &e, "decide", NULL), BE_EUSAGE);
    assert_int_equal(parse_args(&c, &e, "decide", "--net", "8-4", "R", NULL), BE_EUSAGE);
}

/* ---- rectangular layers on every device ---- */

/* One step of net on dev from the initial parameters, verified; with
 * poison, one entry of the last layer's output is made wrong first. */
static void run_verified(const device *dev, const char *sizes, wl_mode mode, int batch, int poison)
{
    workload_data d;
    net_spec n;
    net_state s;
    verify_result vr;
    step_times t;
    void *run = NULL;
    err e;
    assert_int_equal(net_parse(sizes, "--net", &n, &e), BE_OK);
    assert_int_equal(workload_make_net(&d, mode, &n, batch, 7, &e), BE_OK);
    if (dev->ops->prepare(dev->handle, &d.w, &run, &e) != BE_OK)
        fail_msg("%s %s: %s", dev->info.id, sizes, e.msg);
    assert_int_equal(verify_state_alloc(&d.w, &s, &e), BE_OK);
    assert_int_equal(dev->ops->step(run, &t, &e), BE_OK);
    assert_int_equal(dev->ops->state(run, &s, &e), BE_OK);
    if (poison) /* a wrong row: the verifier meets every row */
        for (int j = 0; j < n.dims[n.layers]; j++)
            s.act[n.layers][(size_t)(batch - 1) * (size_t)n.dims[n.layers] + (size_t)j] += 0.5f;
    assert_int_equal(verify_check(&d.w, &s, &vr, &e), BE_OK);
    if (vr.ok == poison)
        fail_msg("%s %s %s batch %d%s: verification %s (%s, %g of %g)", dev->info.id, sizes,
                 workload_mode_name(mode), batch, poison ? " poisoned" : "",
                 vr.ok ? "passed" : "failed", vr.where, vr.max_error, vr.tolerance);
    /* no ReLU after the last layer: some outputs are negative */
    if (!poison) {
        size_t i, len = (size_t)batch * (size_t)n.dims[n.layers];
        int neg = 0;
        for (i = 0; i < len; i++)
            neg |= s.act[n.layers][i] < 0.0f;
        assert_true(neg || len < 4);
    }
    verify_state_free(&d.w, &s);
    dev->ops->release(run);
    workload_free(&d);
}

static void test_devices_rectangular(void **state)
{
    static const char *const nets[] = {"784-512-256-10", "13-64-32-1", "10-300-7", "64-64"};
    device_set set;
    err e;
    int i, k, m;
    (void)state;
    assert_int_equal(device_discover(&set, 1, &e), BE_OK);
    for (i = 0; i < set.n; i++) {
        for (k = 0; k < (int)(sizeof nets / sizeof *nets); k++)
            for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
                run_verified(&set.devs[i], nets[k], (wl_mode)m, 33, 0);
                run_verified(&set.devs[i], nets[k], (wl_mode)m, 1, 0);
            }
        run_verified(&set.devs[i], "784-512-256-10", WL_INFERENCE, 17, 1);
    }
    device_set_free(&set);
}

/* A square network made by workload_make_net has the bits of
 * workload_make's square stack (but no ReLU after its last layer). */
static void test_square_same_bits(void **state)
{
    workload_data a, b;
    net_spec n;
    err e;
    int l;
    (void)state;
    assert_int_equal(net_parse("96-96-96", "--net", &n, &e), BE_OK);
    assert_int_equal(workload_make(&a, WL_TRAINING, 2, 96, 5, 3, &e), BE_OK);
    assert_int_equal(workload_make_net(&b, WL_TRAINING, &n, 5, 3, &e), BE_OK);
    assert_memory_equal(a.x0, b.x0, 5 * 96 * sizeof(float));
    for (l = 0; l < 2; l++) {
        assert_memory_equal(a.w0[l], b.w0[l], 96 * 96 * sizeof(float));
        assert_memory_equal(a.b0[l], b.b0[l], 96 * sizeof(float));
    }
    assert_int_equal(a.w.linear_last, 0);
    assert_int_equal(b.w.linear_last, 1);
    assert_int_equal(wl_relu(&b.w, 1), 0);
    assert_int_equal(wl_relu(&b.w, 0), 1);
    workload_free(&a);
    workload_free(&b);
}

/* ---- results format 2 ---- */

/* A run of two devices on one network at three batches: the CPU takes
 * 1 ms·batch/16, the other 1.5 ms flat, so it wins between 16 and 32. */
static results *make_run(void)
{
    results *r = results_new();
    device_info d;
    err e;
    int k, b;
    assert_non_null(r);
    snprintf(r->prov.version, sizeof r->prov.version, "%s", BE_VERSION);
    snprintf(r->prov.commit, sizeof r->prov.commit, "abc");
    snprintf(r->prov.id, sizeof r->prov.id, "test-run");
    snprintf(r->prov.started, sizeof r->prov.started, "2026-11-25T00:00:00Z");
    snprintf(r->prov.finished, sizeof r->prov.finished, "2026-11-25T00:01:00Z");
    snprintf(r->prov.command, sizeof r->prov.command, "breakeven run --net tiny 512-256-10");
    r->prov.seed = 1;
    r->prov.budget = 10;
    r->prov.layers = 2;
    snprintf(r->prov.hidden, sizeof r->prov.hidden, "512");
    snprintf(r->prov.batch, sizeof r->prov.batch, "16,32,64");
    snprintf(r->prov.modes, sizeof r->prov.modes, "inference");
    snprintf(r->prov.host, sizeof r->prov.host, "host");
    snprintf(r->prov.os, sizeof r->prov.os, "Debian");
    snprintf(r->prov.kernel, sizeof r->prov.kernel, "Linux");
    snprintf(r->prov.cpu_model, sizeof r->prov.cpu_model, "CPU */ \"x\"");
    snprintf(r->prov.compiler, sizeof r->prov.compiler, "gcc");
    r->prov.cores = 2;
    r->prov.memory = 1e9;
    snprintf(r->prov.blas_version, sizeof r->prov.blas_version, "0.3.21");
    snprintf(r->prov.blas_config, sizeof r->prov.blas_config, "OpenBLAS 0.3.21");
    snprintf(r->prov.blas_core, sizeof r->prov.blas_core, "Zen");
    r->prov.blas_threads = 2;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    snprintf(d.type, sizeof d.type, "CPU");
    snprintf(d.name, sizeof d.name, "a CPU");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    snprintf(d.id, sizeof d.id, "cl:0.0");
    snprintf(d.kind, sizeof d.kind, "opencl");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    for (k = 0; k < 2; k++)
        for (b = 16; b <= 64; b *= 2) {
            rs_point p;
            step_times t[12] = {{0}};
            int i;
            memset(&p, 0, sizeof p);
            snprintf(p.device, sizeof p.device, "%s", k ? "cl:0.0" : "cpu");
            p.mode = WL_INFERENCE;
            p.layers = 2;
            p.hidden = 512;
            p.batch = b;
            snprintf(p.net, sizeof p.net, "tiny");
            snprintf(p.sizes, sizeof p.sizes, "512-256-10");
            p.flops_per_layer = 1e6 * b;
            for (i = 0; i < 12; i++) {
                double base = k ? 1.5e-3 : 1e-3 * b / 16.0;
                t[i].wall = base * (1.0 + 0.002 * (i % 3));
                t[i].kernel = t[i].h2d = t[i].d2h = k ? 1e-5 : -1.0;
                t[i].total = k ? t[i].wall + 1e-4 : t[i].wall;
                /* the weights' upload: 4 ms more, never worth it */
                t[i].whost = k ? t[i].total + 4e-3 : -1.0;
            }
            p.has_transfer = k;
            p.has_whost = k;
            p.nlayer = 2;
            p.layer_n = 12;
            p.layer_s[0] = 1e-4 * b;
            p.layer_s[1] = 1.0 / 3.0 * 1e-5;
            assert_int_equal(results_add_point(r, &p, &e), BE_OK);
            assert_int_equal(results_add_samples(&r->points[r->npoints - 1], t, 12, 1, &e), BE_OK);
            assert_int_equal(results_summarize(&r->points[r->npoints - 1], &e), BE_OK);
        }
    return r;
}

static void test_results_round_trip(void **state)
{
    results *r = make_run(), *back = NULL;
    char path[300], *text;
    size_t len;
    err e;
    (void)state;
    snprintf(path, sizeof path, "%s/net.xml", tmpdir);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(fsx_read_all(path, &text, &len, &e), BE_OK);
    assert_non_null(strstr(text, "format=\"2\""));
    assert_non_null(strstr(text, "net=\"tiny\" sizes=\"512-256-10\""));
    assert_non_null(strstr(text, "<summary view=\"weights-on-host\""));
    free(text);
    if (results_load(path, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(back->npoints, 6);
    assert_string_equal(back->points[5].net, "tiny");
    assert_string_equal(back->points[5].sizes, "512-256-10");
    assert_int_equal(back->points[5].has_whost, 1);
    assert_true(back->points[5].samples[0].whost == r->points[5].samples[0].whost);
    assert_true(back->points[5].whost.median == r->points[5].whost.median);
    assert_int_equal(back->points[0].has_whost, 0);
    assert_int_equal(back->points[5].nlayer, 2);
    assert_int_equal(back->points[5].layer_n, 12);
    assert_true(back->points[5].layer_s[1] == r->points[5].layer_s[1]);
    results_free(back);
    results_free(r);
}

/* Saves make_run(), replaces from by to, and loads: must fail naming
 * needle. */
static void expect_rejected(const char *from, const char *to, const char *needle)
{
    results *r = make_run(), *back = NULL;
    char path[300], *text, *hit, *edited;
    size_t len;
    err e;
    snprintf(path, sizeof path, "%s/bad.xml", tmpdir);
    assert_int_equal(results_save(r, NULL, path, &e), BE_OK);
    results_free(r);
    assert_int_equal(fsx_read_all(path, &text, &len, &e), BE_OK);
    assert_non_null(hit = strstr(text, from));
    edited = malloc(len + strlen(to) + 1);
    assert_non_null(edited);
    memcpy(edited, text, (size_t)(hit - text));
    strcpy(edited + (hit - text), to);
    strcat(edited, hit + strlen(from));
    assert_int_equal(fsx_write_atomic(path, edited, strlen(edited), &e), BE_OK);
    free(text);
    free(edited);
    assert_int_equal(results_load(path, &back, &e), BE_EFAIL);
    if (!strstr(e.msg, needle))
        fail_msg("expected \"%s\" in: %s", needle, e.msg);
}

static void test_results_rejects(void **state)
{
    (void)state;
    expect_rejected("sizes=\"512-256-10\"", "sizes=\"512-256\"", "layers=2 hidden=512");
    expect_rejected("sizes=\"512-256-10\"", "sizes=\"512-0-10\"", "size 2 is 0");
    expect_rejected(" sizes=\"512-256-10\"", "", "sizes");
    expect_rejected("net=\"tiny\"", "net=\"a b\"", "net");
    expect_rejected("net=\"tiny\"", "net=\"\"", "net");
    expect_rejected("format=\"2\"", "format=\"4\"", "format \"4\" is not supported");
    expect_rejected("<summary view=\"weights-on-host\"", "<summary view=\"transfer\"",
                    "two \"transfer\" summaries");
    expect_rejected(" whost=\"", " whost=\"-", "whost");
    expect_rejected(" layer-steps=\"12\"", " layer-steps=\"0\"", "layer-steps");
    expect_rejected(" layer-seconds=\"", " layer-seconds=\"1 ", "layer-seconds");
}

static void test_format1_loads(void **state)
{
    static const char *const files[] = {"tests/data/results-0.1.0.xml",
                                        "tests/data/gpu/h100-20261123T074740Z.xml"};
    results *r = NULL;
    err e;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof files / sizeof *files; i++) {
        if (results_load(files[i], &r, &e) != BE_OK)
            fail_msg("%s", e.msg);
        assert_true(r->npoints > 0);
        assert_string_equal(r->points[0].net, "");
        results_free(r);
        r = NULL;
    }
}

/* ---- end to end ---- */

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A program using breakeven_decision.h: the device at batch 8, whether an
 * unknown network and, asked strictly, a batch beyond the measured ones
 * get NULL. */
static const char use_c[] =
    "#include <stdio.h>\n"
    "#include \"breakeven_decision.h\"\n"
    "int main(void)\n{\n"
    "    const char *d = breakeven_device(\"96-256-10\", \"inference\", \"transfer\", 8, NULL);\n"
    "    const char *n = breakeven_device(\"other\", \"inference\", \"transfer\", 8, NULL);\n"
    "    const char *o = breakeven_device_strict(\"96-256-10\", \"inference\", \"transfer\", "
    "4096, NULL);\n"
    "    printf(\"%s %d %d\\n\", d ? d : \"none\", n == NULL, o == NULL);\n"
    "    return 0;\n}\n";

/* ---- the answer per network ---- */

static void test_netfit_and_which(void **state)
{
    results *r = make_run();
    netfit_set s;
    decide_answer a;
    int n;
    const netfit_cross *c;
    char *h = NULL, path[400];
    size_t len;
    err e;
    (void)state;
    assert_int_equal(netfit_run(r, 1, 200, &s, &e), BE_OK);
    assert_int_equal(s.n, 3); /* inference: resident, transfer, weights on the host */
    c = netfit_find(&s, "tiny", WL_INFERENCE, FIT_RESIDENT, NULL);
    assert_non_null(c);
    assert_int_equal(c->x.kind, CROSS_IN_RANGE);
    assert_int_equal(c->ncells, 3);
    assert_int_equal(c->bmin, 16);
    assert_int_equal(c->bmax, 64);
    assert_true(c->x.batch > 16.0 && c->x.batch <= 32.0);
    assert_ptr_equal(netfit_find(&s, "512-256-10", WL_INFERENCE, FIT_RESIDENT, "cl:0.0"), c);
    assert_null(netfit_find(&s, "tiny", WL_TRAINING, FIT_RESIDENT, NULL));
    c = netfit_find(&s, "tiny", WL_INFERENCE, FIT_WHOST, NULL);
    assert_non_null(c);
    assert_int_equal(c->x.kind, CROSS_NEVER);
    assert_int_equal(decide_which(r, "tiny", WL_INFERENCE, FIT_WHOST, 64, &a, 1, &n, &e), BE_OK);
    assert_string_equal(a.device, "cpu");

    assert_int_equal(decide_which(r, "tiny", WL_INFERENCE, FIT_RESIDENT, 64, &a, 1, &n, &e), BE_OK);
    assert_string_equal(a.device, "cl:0.0");
    assert_int_equal(decide_which(r, "tiny", WL_INFERENCE, FIT_RESIDENT, 16, &a, 1, &n, &e), BE_OK);
    assert_string_equal(a.device, "cpu");
    /* beyond the batches measured: the largest one's answer, marked */
    assert_int_equal(decide_which(r, "tiny", WL_INFERENCE, FIT_RESIDENT, 128, &a, 1, &n, &e),
                     BE_OK);
    assert_string_equal(a.device, "cl:0.0");
    assert_int_equal(a.extrapolated, 1);
    assert_non_null(strstr(a.why, "extrapolated: batch 128 lies above the batches measured "
                                  "(16..64), so this is the answer at batch 64"));
    assert_int_equal(decide_which(r, "big", WL_INFERENCE, FIT_RESIDENT, 64, &a, 1, &n, &e),
                     BE_EUSAGE);
    assert_string_equal(e.msg, "run test-run measured no network \"big\"; its networks: tiny "
                               "(512-256-10)");
    assert_int_equal(decide_which(r, "tiny", WL_TRAINING, FIT_RESIDENT, 64, &a, 1, &n, &e),
                     BE_EUSAGE);

    /* the header holds the same rows, every string a C literal */
    assert_int_equal(decide_header(r, &h, &len, &e), BE_OK);
    assert_non_null(strstr(h, "{\"tiny\", \"512-256-10\", \"inference\", \"resident\", 16, "
                              "\"cpu\", NULL, 0, "));
    assert_non_null(strstr(h, "{\"tiny\", \"512-256-10\", \"inference\", \"resident\", 64, "
                              "\"cl:0.0\", NULL, 0, "));
    /* the CPU's name holds a comment's end and quotes: the header still
     * compiles */
    assert_non_null(strstr(h, "CPU * / \"x\""));
    snprintf(path, sizeof path, "%s/hdr", tmpdir);
    assert_int_equal(fsx_mkdirs(path, &e), BE_OK);
    snprintf(path, sizeof path, "%s/hdr/breakeven_decision.h", tmpdir);
    assert_int_equal(fsx_write_atomic(path, h, len, &e), BE_OK);
    snprintf(path, sizeof path, "%s/hdr/use.c", tmpdir);
    assert_int_equal(fsx_write_atomic(path, use_c, sizeof use_c - 1, &e), BE_OK);
    assert_int_equal(sh("cd %s/hdr && cc -std=c99 -Wall -Wextra -Werror -o use use.c && "
                        "[ \"$(./use)\" = \"none 1 1\" ]",
                        tmpdir),
                     0);
    free(h);
    netfit_free(&s);
    /* the CPU's points alone: nothing to choose between */
    while (r->npoints > 3)
        results_remove_point(r, r->npoints - 1);
    assert_int_equal(netfit_run(r, 1, 200, &s, &e), BE_OK);
    assert_int_equal(s.n, 0);
    assert_int_equal(decide_which(r, "tiny", WL_INFERENCE, FIT_RESIDENT, 32, &a, 1, &n, &e),
                     BE_EUSAGE);
    assert_string_equal(e.msg, "run test-run measured network tiny on one device only (cpu): "
                               "there is no other device to choose");
    netfit_free(&s);
    results_free(r);
}

/* The per-layer breakdown of two points, by hand: the layer times scaled
 * to each point's median, the copies at the other device's cost per byte,
 * and the placement. */
static void test_breakdown(void **state)
{
    rs_point pb, po;
    step_times t[3] = {{0}};
    netfit_layers b;
    int i;
    (void)state;
    memset(&pb, 0, sizeof pb);
    snprintf(pb.device, sizeof pb.device, "cpu");
    snprintf(pb.net, sizeof pb.net, "n");
    snprintf(pb.sizes, sizeof pb.sizes, "8-4-2");
    pb.layers = 2;
    pb.batch = 10;
    pb.resident.n = 3;
    pb.resident.median = pb.resident.p10 = 3e-3;
    pb.nlayer = 2;
    pb.layer_s[0] = 1e-3;
    pb.layer_s[1] = 2e-3;
    po = pb;
    snprintf(po.device, sizeof po.device, "cl:0.0");
    po.resident.median = po.resident.p10 = 1e-3;
    po.layer_s[0] = po.layer_s[1] = 0.25e-3; /* kernels: half the wall time */
    for (i = 0; i < 3; i++) {
        t[i].wall = 1e-3;
        t[i].h2d = 4e-6; /* 320 bytes in */
        t[i].d2h = 1e-6; /* 80 bytes out */
    }
    po.has_transfer = 1;
    po.samples = t;
    po.nsamples = 3;
    assert_int_equal(netfit_breakdown(&pb, &po, &b), 1);
    assert_int_equal(b.layers, 2);
    assert_true(fabs(b.t[0][0] - 1e-3) < 1e-15 && fabs(b.t[0][1] - 2e-3) < 1e-15);
    assert_true(fabs(b.t[1][0] - 0.5e-3) < 1e-15 && fabs(b.t[1][1] - 0.5e-3) < 1e-15);
    /* 5 µs for 400 bytes: 1.25e-8 s a byte; 40 bytes a unit of width */
    assert_true(fabs(b.move[0] - 4e-6) < 1e-15 && fabs(b.move[1] - 2e-6) < 1e-15 &&
                fabs(b.move[2] - 1e-6) < 1e-15);
    assert_true(fabs(b.all_base - 3e-3) < 1e-15);
    assert_true(fabs(b.all_other - 1.005e-3) < 1e-15);
    assert_true(fabs(b.best - 1.005e-3) < 1e-15);
    assert_int_equal(b.on[0], 1);
    assert_int_equal(b.on[1], 1);
    /* without layer times, or without transfers, there is no breakdown */
    po.nlayer = 0;
    assert_int_equal(netfit_breakdown(&pb, &po, &b), 0);
    po.nlayer = 2;
    po.has_transfer = 0;
    assert_int_equal(netfit_breakdown(&pb, &po, &b), 0);
}

/* The batches the network page shows by layer: those where both devices
 * timed the layers (ascending, each once, of that network only), and the
 * three picked of them. */
static void test_layer_batches(void **state)
{
    static const int batches[] = {64, 8, 256, 16, 128};
    results *r = results_new();
    device_info d;
    rs_point p;
    step_times t = {0};
    netfit_layers nl;
    int b[8], pick[3], n, i, k;
    err e;
    (void)state;
    assert_non_null(r);
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cpu");
    snprintf(d.kind, sizeof d.kind, "openblas");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    snprintf(d.id, sizeof d.id, "cl:0.0");
    snprintf(d.kind, sizeof d.kind, "opencl");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    t.wall = 1e-3;
    t.h2d = t.d2h = 1e-6;
    for (i = 0; i < 5; i++)
        for (k = 0; k < 2; k++) {
            memset(&p, 0, sizeof p);
            snprintf(p.device, sizeof p.device, "%s", k ? "cl:0.0" : "cpu");
            snprintf(p.net, sizeof p.net, "n");
            snprintf(p.sizes, sizeof p.sizes, "8-4-2");
            p.layers = 2;
            p.hidden = 8;
            p.batch = batches[i];
            p.resident.n = 1;
            p.resident.median = p.resident.p10 = 1e-3;
            /* cl:0.0 did not time the layers at batch 16 */
            p.nlayer = k && batches[i] == 16 ? 0 : 2;
            p.layer_s[0] = p.layer_s[1] = 0.5e-3;
            p.has_transfer = k;
            p.samples = &t;
            p.nsamples = 1;
            assert_int_equal(results_add_point(r, &p, &e), BE_OK);
        }
    /* another network's point on the base: not one of n's batches */
    snprintf(p.device, sizeof p.device, "cpu");
    snprintf(p.net, sizeof p.net, "m");
    snprintf(p.sizes, sizeof p.sizes, "8-4-3");
    p.batch = 32;
    p.nlayer = 2;
    assert_int_equal(results_add_point(r, &p, &e), BE_OK);

    assert_string_equal(netfit_other(r, "n", WL_INFERENCE), "cl:0.0");
    assert_null(netfit_other(r, "m", WL_INFERENCE));
    assert_null(netfit_other(r, "n", WL_TRAINING));
    n = netfit_layer_batches(r, "n", WL_INFERENCE, "cl:0.0", b, 8);
    assert_int_equal(n, 4);
    assert_int_equal(b[0], 8);
    assert_int_equal(b[1], 64);
    assert_int_equal(b[2], 128);
    assert_int_equal(b[3], 256);
    assert_int_equal(netfit_layer_batches(r, "n", WL_INFERENCE, "cl:0.0", b, 2), 2);
    assert_int_equal(netfit_layer_picks(b, 0, pick), 0);
    n = netfit_layer_batches(r, "n", WL_INFERENCE, "cl:0.0", b, 8);
    assert_int_equal(netfit_layer_picks(b, n, pick), 3);
    assert_int_equal(pick[0], 8);
    assert_int_equal(pick[1], 128);
    assert_int_equal(pick[2], 256);
    assert_int_equal(netfit_layer_picks(b, 2, pick), 2);
    assert_int_equal(pick[0], 8);
    assert_int_equal(pick[1], 64);
    assert_int_equal(netfit_layers_at(r, "n", WL_INFERENCE, "cl:0.0", 16, &nl), 0);
    assert_int_equal(netfit_layers_at(r, "n", WL_INFERENCE, "cl:0.0", 64, &nl), 1);
    assert_int_equal(nl.layers, 2);
    assert_int_equal(netfit_layers_at(r, "m", WL_INFERENCE, "cl:0.0", 32, &nl), 0);
    results_free(r);
}

/* The placement estimate, against sums done by hand. */
static void test_place(void **state)
{
    /* layer times on device 0 (CPU) and 1 (GPU) */
    static const double cpu[] = {5.0, 1.0, 5.0}, gpu[] = {1.0, 3.0, 1.0};
    static const double cheap[] = {0.5, 0.5, 0.5, 0.5}, dear[] = {9.0, 9.0, 9.0, 9.0};
    static const double mid[] = {1.0, 0.5, 0.5, 1.0};
    const double *const t[2] = {cpu, gpu};
    int on[3];
    (void)state;
    /* cheap copies: GPU, CPU, GPU: 0.5 + 1 + 0.5 + 1 + 0.5 + 1 + 0.5 = 5 */
    assert_true(netfit_place(3, t, cheap, on) == 5.0);
    assert_int_equal(on[0], 1);
    assert_int_equal(on[1], 0);
    assert_int_equal(on[2], 1);
    /* dear copies: all on the CPU, 11 (all on the GPU would be 9+5+9 = 23) */
    assert_true(netfit_place(3, t, dear, on) == 11.0);
    assert_int_equal(on[0] + on[1] + on[2], 0);
    /* in between: all on the GPU, 1 + 1 + 3 + 1 + 1 = 7 (GPU, CPU, GPU costs
     * 1+1+0.5+1+0.5+1+1 = 6: less) */
    assert_true(netfit_place(3, t, mid, on) == 6.0);
    assert_int_equal(on[0], 1);
    assert_int_equal(on[1], 0);
    assert_int_equal(on[2], 1);
    /* a tie goes to device 0 */
    {
        static const double a[] = {2.0}, b[] = {1.0}, m[] = {0.5, 0.5};
        const double *const t1[2] = {a, b};
        assert_true(netfit_place(1, t1, m, on) == 2.0);
        assert_int_equal(on[0], 0);
    }
    assert_true(netfit_place(0, t, cheap, on) < 0.0);
}

/* Reads the network's page (argv[1]) and the run's page (argv[2]) with
 * Python's HTML parser and checks what they hold: the answer per view,
 * both charts of inference (their files beside the page), the per-layer
 * table with a row per batch both devices timed by layer (two layers,
 * every cell naming the faster device, a placement of two devices), and
 * the run page's link to the network's page. */
static const char check_page_py[] =
    "import os, sys\n"
    "from html.parser import HTMLParser\n"
    "class P(HTMLParser):\n"
    "    def __init__(self):\n"
    "        super().__init__(); self.stack = []; self.li = []; self.imgs = []; self.links = []\n"
    "        self.rows = []; self.h1 = ''; self.cell = None\n"
    "    def handle_starttag(self, tag, attrs):\n"
    "        a = dict(attrs); self.stack.append((tag, a))\n"
    "        if tag == 'br' and self.cell is not None: self.cell += ' '\n"
    "        if tag == 'img': self.imgs.append(a['src'])\n"
    "        if tag == 'a': self.links.append(a.get('href'))\n"
    "        if tag == 'tr' and any(t == 'table' and 'layers' in x.get('class', '') for t, x in "
    "self.stack): self.rows.append([])\n"
    "        if tag in ('td', 'th') and self.rows and any(t == 'tbody' for t, _ in self.stack): "
    "self.cell = ''\n"
    "        if tag == 'li' and any(t == 'ul' and x.get('class') == 'verdicts' for t, x in "
    "self.stack): self.li.append('')\n"
    "    def handle_endtag(self, tag):\n"
    "        while self.stack and self.stack.pop()[0] != tag: pass\n"
    "        if tag in ('td', 'th') and self.cell is not None: self.rows[-1].append(self.cell); "
    "self.cell = None\n"
    "    def handle_data(self, d):\n"
    "        if any(t == 'h1' for t, _ in self.stack): self.h1 += d\n"
    "        if self.cell is not None: self.cell += d\n"
    "        if self.li and any(t == 'li' for t, _ in self.stack): self.li[-1] += d\n"
    "page, run = sys.argv[1], sys.argv[2]\n"
    "p = P(); p.feed(open(page, encoding='utf-8').read())\n"
    "assert p.h1.startswith('Network 96-256-10: '), p.h1\n"
    "views = ['data resident', 'transfers counted', 'weights on the host']\n"
    "assert [v for v in views if any(l.startswith('96-256-10, inference, ' + v + ': ') and "
    "'; batches 8..64.' in l and ': cl:' not in l for l in p.li)] == views, p.li\n"
    "for c in ('net-96-256-10-time-inference.png', 'net-96-256-10-layers-inference.png'):\n"
    "    assert c in p.imgs, p.imgs\n"
    "    assert os.path.getsize(os.path.join(os.path.dirname(page), c)) > 1000, c\n"
    "rows = [r for r in p.rows if r]\n"
    /* the grid's batches, and any the refinement added between them */
    "b = [int(r[0]) for r in rows]\n"
    "assert b[0] == 8 and b[-1] == 64 and b == sorted(set(b)), rows\n"
    "for r in rows:\n"
    "    assert len(r) == 1 + 2 + 4, r\n"
    "    assert all(c.endswith(' faster') and (c.split()[-2] in ('cpu', 'cl:0.0')) for c in "
    "r[1:3]), r\n"
    "    assert len(r[3].split(', ')) == 2 and set(r[3].split(', ')) <= {'cpu', 'cl:0.0'}, r\n"
    "q = P(); q.feed(open(run, encoding='utf-8').read())\n"
    "assert 'net-96-256-10.html' in q.links, q.links\n";

static void test_e2e(void **state)
{
    const char *given = getenv("BREAKEVEN");
    char *text, path[400], bin[PATH_MAX];
    size_t len;
    err e;
    (void)state;
    /* absolute: the test runs it from other directories (tests/run gives
     * ./breakeven) */
    if (!given || !realpath(given, bin))
        fail_msg("BREAKEVEN is not set to a binary (tests/run sets it)");
    assert_int_equal(sh("%s run --quick --quiet --net tiny-ish=1 --out %s/o >/dev/null 2>%s/err",
                        bin, tmpdir, tmpdir),
                     2);
    /* --no-refine: the grid alone, so that compare's counts below are
     * exact whatever the machine measured; the CPU and the OpenCL device
     * only, whatever frameworks the machine has (--devices all would add
     * them, and their answers) */
    assert_int_equal(sh("%s run --quiet --budget 3 --passes 2 --batch 8,64 --no-refine "
                        "--devices cpu,cl:0.0 --net 96-256-10 --out %s/o > %s/run.txt",
                        bin, tmpdir, tmpdir),
                     0);
    snprintf(path, sizeof path, "%s/run.txt", tmpdir);
    assert_int_equal(fsx_read_all(path, &text, &len, &e), BE_OK);
    assert_non_null(strstr(text, "96-256-10, inference, data resident: "));
    assert_non_null(strstr(text, "96-256-10, inference, weights on the host: "));
    assert_non_null(strstr(text, "96-256-10 inference batch 64 by layer: cpu "));
    assert_non_null(strstr(text, "; best placement "));
    free(text);
    /* the report's run page, front page and feed give the network's answer */
    assert_int_equal(sh("%s report --quiet --out %s/o > /dev/null", bin, tmpdir), 0);
    assert_int_equal(sh("grep -q '96-256-10, inference, weights on the host: ' %s/o/feed.xml && "
                        "grep -q '96-256-10, inference, weights on the host: ' %s/o/runs/*/"
                        "index.html && grep -q 'Each point is a network of dense layers' "
                        "%s/o/runs/*/index.html",
                        tmpdir, tmpdir, tmpdir),
                     0);
    /* the run page has no charts of hidden widths, the history no series:
     * a network's widest size is no hidden width */
    assert_int_equal(sh("! grep -q 'throughput-inference.png' %s/o/runs/*/index.html && "
                        "! grep -q 'id=\"s1\"' %s/o/history.html && "
                        "grep -q 'Runs of networks alone are' %s/o/history.html",
                        tmpdir, tmpdir, tmpdir),
                     0);
    /* nor any such chart in its directory, where it would show the
     * network's sizes as hidden widths; and its title is the network's
     * answer (its name left out where a caveat's prefix leaves no room),
     * not "no verdict", as is its method paragraph */
    assert_int_equal(
        sh("cd %s/o/runs/* && ls net-96-256-10-time-inference.png && "
           "! ls | grep -E '^(throughput|speed-ratio|winner-map|relative-time|"
           "cost)-' && grep -Eq '<title>[^<]*( on 96-256-10)?( at every batch measured| from "
           "batch [0-9]+| at [0-9]+ of [0-9]+ batches|: too close to call)' "
           "index.html && ! grep -q 'no verdict' index.html && "
           "grep -q 'For each network the crossover batch' index.html && "
           "! grep -q 'At each hidden width' index.html",
           tmpdir),
        0);
    /* the network's page, parsed, and the run page's link to it */
    snprintf(path, sizeof path, "%s/check_page.py", tmpdir);
    assert_int_equal(fsx_write_atomic(path, check_page_py, sizeof check_page_py - 1, &e), BE_OK);
    assert_int_equal(
        sh("cd %s/o/runs/* && /usr/bin/python3 %s net-96-256-10.html index.html", tmpdir, path), 0);
    /* every export names the network of every point */
    assert_int_equal(sh("cd %s/o/runs/* && head -1 results.csv | grep -q "
                        "',hidden,batch,network,sizes,flops_per_layer,' && "
                        "[ $(tail -n +2 results.csv | grep -c ',96-256-10,96-256-10,') = "
                        "$(($(wc -l < results.csv) - 1)) ] && "
                        "grep -q '^| device | mode | network | batch |' summary.md && "
                        "grep -q '^96-256-10, inference, weights on the host: ' summary.md && "
                        "/usr/bin/python3 -c 'import json; d = json.load(open(\"results.json\")); "
                        "assert d[\"points\"] and all(p[\"network\"] == \"96-256-10\" and "
                        "p[\"sizes\"] == \"96-256-10\" for p in d[\"points\"]), d; "
                        "assert any(\"layer_mean_s\" in p for p in d[\"points\"]), d; "
                        "assert len(d[\"network_answers\"]) == 3, d'",
                        tmpdir),
                     0);
    /* compare: 256-96-10 has the layer count and widest size of 96-256-10
     * but is another network; alone it shares no point with A, beside
     * 96-256-10 only that network is compared */
    assert_int_equal(sh("%s run --quiet --budget 1 --passes 2 --batch 8,64 --no-refine "
                        "--devices cpu,cl:0.0 --net 256-96-10 --out %s/b > /dev/null && %s run "
                        "--quiet --budget 1 --passes 2 --batch 8,64 --no-refine --devices "
                        "cpu,cl:0.0 --net 256-96-10 --net 96-256-10 --out %s/c > /dev/null",
                        bin, tmpdir, bin, tmpdir),
                     0);
    assert_int_equal(sh("%s compare --out %s/cmp %s/o/runs/*/results.xml.gz "
                        "%s/b/runs/*/results.xml.gz > /dev/null 2> %s/cmp.err",
                        bin, tmpdir, tmpdir, tmpdir, tmpdir),
                     2);
    assert_int_equal(
        sh("grep -q 'have no point in common (same device, mode, network, ' %s/cmp.err "
           "&& grep -q '; networks 96-256-10; B has ' %s/cmp.err && "
           "grep -q 'of inference, batch 8,64; networks 256-96-10 (see' %s/cmp.err",
           tmpdir, tmpdir, tmpdir),
        0);
    assert_int_equal(sh("%s compare --out %s/cmp %s/o/runs/*/results.xml.gz "
                        "%s/c/runs/*/results.xml.gz > %s/cmp.txt",
                        bin, tmpdir, tmpdir, tmpdir, tmpdir),
                     0);
    assert_int_equal(
        sh("grep -q '^networks not shared, not compared: A only none; B only "
           "256-96-10$' %s/cmp.txt && grep -q '^left out: 0 ok points of A and 4 of "
           "B that the other side lacks$' %s/cmp.txt && "
           "[ $(grep -c '^96-256-10 c' %s/cmp.txt) = 4 ] && "
           "! grep -q '^256-96-10 ' %s/cmp.txt && grep -q 'Networks not shared, not compared: A "
           "only none; B only 256-96-10.' %s/cmp/compare/*.html && grep -q "
           "'network 96-256-10' %s/cmp/compare/*.html",
           tmpdir, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir),
        0);
    assert_int_equal(sh("cd %s/o/runs/* && %s decide . > %s/decide.txt", tmpdir, bin, tmpdir), 0);
    assert_int_equal(sh("grep -q '^# 96-256-10: ' %s/decide.txt", tmpdir), 0);
    /* decision.json is JSON, with the decisions and the per-layer placements */
    assert_int_equal(sh("cd %s/o/runs/* && /usr/bin/python3 -c 'import json; d = json.load(open("
                        "\"decision.json\")); assert len(d[\"crossovers\"]) == 3, d; "
                        "assert len(d[\"answers\"]) == 3, d; "
                        "assert d[\"layers\"][0][\"placement\"], d'",
                        tmpdir),
                     0);
    /* the header compiles as C99 with every warning an error, and answers
     * what `which` answers */
    snprintf(path, sizeof path, "%s/use.c", tmpdir);
    assert_int_equal(fsx_write_atomic(path, use_c, sizeof use_c - 1, &e), BE_OK);
    assert_int_equal(sh("cd %s/o/runs/* && cc -std=c99 -Wall -Wextra -Werror -I. -o %s/use "
                        "%s/use.c && %s/use > %s/use.txt",
                        tmpdir, tmpdir, tmpdir, tmpdir, tmpdir),
                     0);
    assert_int_equal(sh("cd %s/o/runs/* && [ \"$(%s which --quiet --net 96-256-10 --batch 8 .) 1 "
                        "1\" = \"$(cat %s/use.txt)\" ]",
                        tmpdir, bin, tmpdir),
                     0);
    assert_int_equal(sh("cd %s/o/runs/* && %s which --net 784-10 --batch 8 . 2> %s/which.err",
                        tmpdir, bin, tmpdir),
                     2);
    assert_int_equal(sh("grep -q 'measured no network \"784-10\"; its networks: 96-256-10' "
                        "%s/which.err",
                        tmpdir),
                     0);
    assert_int_equal(sh("cd %s/o/runs/* && %s which --net 96-256-10 --batch 512 . 2> %s/which.err",
                        tmpdir, bin, tmpdir),
                     0);
    assert_int_equal(sh("grep -q 'extrapolated: batch 512 lies above the batches measured (8..64)' "
                        "%s/which.err",
                        tmpdir),
                     0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_parse_line_and_file),
        cmocka_unit_test(test_flops),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_square_same_bits),
        cmocka_unit_test(test_devices_rectangular),
        cmocka_unit_test(test_results_round_trip),
        cmocka_unit_test(test_results_rejects),
        cmocka_unit_test(test_format1_loads),
        cmocka_unit_test(test_netfit_and_which),
        cmocka_unit_test(test_place),
        cmocka_unit_test(test_breakdown),
        cmocka_unit_test(test_layer_batches),
        cmocka_unit_test(test_e2e),
    };
    return cmocka_run_group_tests_name("net", tests, make_tmpdir, remove_tmpdir);
}
