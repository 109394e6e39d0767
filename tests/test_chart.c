/*
 * test_chart.c — tests of the chart primitives and the figures (cmocka):
 * log and linear ticks, SI labels, and every figure rendered from results
 * built in memory (two devices with a hand-made fit, one device only, no
 * crossover, out-of-memory gaps, a single point, failed verification),
 * each PNG read back for its size and its series colours (and no SVG
 * beside it), and the error of a chart written to a missing
 * directory.  Some charts are read back pixel by pixel against numbers
 * computed here from the points: the winner map's cell colours, the
 * lengths of the relative time and cost bars, and the cost paragraph
 * (prose.h) against its bars.  The history charts are drawn from a
 * series built by hand, and from series with nothing to draw.
 * Set CHART_KEEP_DIR to a directory to keep the charts for a look.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <libxml/parser.h>

#include "chart.h"
#include "figure.h"
#include "fit.h"
#include "fmt.h"
#include "history.h"
#include "png.h"
#include "prose.h"
#include "query.h"
#include "results.h"
#include "version.h"
#include "workload.h"

/* This cmocka has no assert_double_equal. */
#define assert_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

static char outdir[512];
static int keep;

static int setup_dir(void **state)
{
    const char *k = getenv("CHART_KEEP_DIR");
    (void)state;
    if (k && *k) {
        snprintf(outdir, sizeof outdir, "%s", k);
        keep = 1;
        return 0;
    }
    snprintf(outdir, sizeof outdir, "/tmp/breakeven-chart-XXXXXX");
    return mkdtemp(outdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    char cmd[640];
    (void)state;
    xmlCleanupParser();
    cairo_debug_reset_static_data();
    if (keep)
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", outdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- ticks and labels ---------------------------------------------------- */

static void test_ticks_log(void **state)
{
    double t[32];
    int n;
    (void)state;
    assert_int_equal(chart_ticks_log(3e4, 2e11, t, 32, &n), BE_OK);
    assert_int_equal(n, 7);
    assert_near(t[0], 1e5, 1e-6);
    assert_near(t[6], 1e11, 1e-1);
    /* The ends count when they are decades themselves. */
    assert_int_equal(chart_ticks_log(1e3, 1e6, t, 32, &n), BE_OK);
    assert_int_equal(n, 4);
    assert_near(t[3], 1e6, 1e-6);
    /* Below one too (ratios). */
    assert_int_equal(chart_ticks_log(0.05, 20, t, 32, &n), BE_OK);
    assert_int_equal(n, 3);
    assert_near(t[0], 0.1, 1e-12);
    assert_int_equal(chart_ticks_log_minor(1e3, 1e5, t, 32, &n), BE_OK);
    assert_int_equal(n, 4); /* 2k 5k 20k 50k */
    assert_near(t[0], 2e3, 1e-9);
    assert_near(t[3], 5e4, 1e-9);
    assert_int_equal(chart_ticks_log_minor(0.3, 3, t, 32, &n), BE_OK);
    assert_int_equal(n, 2); /* 0.5 2 */
    assert_near(t[0], 0.5, 1e-12);
    assert_int_equal(chart_ticks_log(0, 10, t, 32, &n), BE_EUSAGE);
    assert_int_equal(chart_ticks_log(10, 1, t, 32, &n), BE_EUSAGE);
    assert_int_equal(chart_ticks_log(1, 1e9, t, 3, &n), BE_EUSAGE);
}

static void test_ticks_linear(void **state)
{
    double t[64], step;
    int n;
    (void)state;
    assert_int_equal(chart_ticks_linear(0, 1, 5, t, 64, &n, &step), BE_OK);
    assert_int_equal(n, 6);
    assert_near(step, 0.2, 1e-12);
    assert_near(t[3], 0.6, 1e-12);
    assert_int_equal(chart_ticks_linear(0, 100, 5, t, 64, &n, &step), BE_OK);
    assert_near(step, 20, 1e-12);
    assert_int_equal(n, 6);
    assert_int_equal(chart_ticks_linear(-3, 7, 5, t, 64, &n, &step), BE_OK);
    assert_near(step, 2, 1e-12);
    assert_near(t[0], -2, 1e-12);
    assert_int_equal(n, 5); /* -2 0 2 4 6 */
    /* 3.7 intervals of 1 are nearer 5 (in ratio) than 7.4 intervals of 0.5. */
    assert_int_equal(chart_ticks_linear(0, 3.7, 5, t, 64, &n, &step), BE_OK);
    assert_near(step, 1, 1e-12);
    assert_int_equal(n, 4);
    assert_int_equal(chart_ticks_linear(1, 1, 5, t, 64, &n, NULL), BE_EUSAGE);
    assert_int_equal(chart_ticks_linear(0, 1e6, 5, t, 2, &n, NULL), BE_EUSAGE);
}

static void test_si(void **state)
{
    static const struct {
        double v;
        const char *s;
    } cases[] = {
        {1e8, "100M"},    {2.5e9, "2.5G"}, {1500, "1.5k"},     {1e4, "10k"},
        {1e9, "1G"},      {999999, "1M"},  {0, "0"},           {0.002, "2m"},
        {-3e6, "-3M"},    {12, "12"},      {1.234e6, "1.23M"}, {3e-6, "3\xc2\xb5"},
        {1.2e12, "1.2T"}, {999.4, "999"},
    };
    char buf[32];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        fmt_si(buf, sizeof buf, cases[i].v, 3, NULL);
        assert_string_equal(buf, cases[i].s);
    }
    fmt_num(buf, sizeof buf, 0.25);
    assert_string_equal(buf, "0.25");
    fmt_num(buf, sizeof buf, 40);
    assert_string_equal(buf, "40");
    fmt_num(buf, sizeof buf, 1.0);
    assert_string_equal(buf, "1");
}

static void test_axis_fit(void **state)
{
    chart_axis a;
    (void)state;
    memset(&a, 0, sizeof a);
    a.scale = CHART_LOG;
    chart_axis_fit(&a, 3.3e4, 1.4e11);
    assert_near(a.lo, 2e4, 1e-6);
    assert_near(a.hi, 2e11, 1);
    a.scale = CHART_LINEAR;
    chart_axis_fit(&a, 0, 3.7);
    assert_near(a.lo, 0, 1e-12);
    assert_near(a.hi, 4, 1e-12);
}

/* ---- fixtures ------------------------------------------------------------ */

static const int hid[] = {128, 512, 2048};
static const int bat[] = {1, 8, 64, 512};

enum { F_OOM = 1, F_FAILED = 2 };

static void add_device(results *r, const char *id, const char *kind, const char *type,
                       const char *name)
{
    device_info d;
    err e;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "%s", id);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.type, sizeof d.type, "%s", type);
    snprintf(d.name, sizeof d.name, "%s", name);
    if (strcmp(kind, "openblas") == 0)
        snprintf(d.driver, sizeof d.driver, "OpenBLAS 0.3.21");
    assert_int_equal(results_add_device(r, &d, &e), BE_OK);
}

/* A point whose per-layer time follows t0 + f/P (with ±2% jitter). */
static void add_point(results *r, const char *dev, int hidden, int batch, double t0, double P,
                      int transfer, rs_status st)
{
    rs_point p;
    step_times s[5] = {{0}};
    err e;
    int i;
    memset(&p, 0, sizeof p);
    snprintf(p.device, sizeof p.device, "%s", dev);
    p.mode = WL_INFERENCE;
    p.layers = 4;
    p.hidden = hidden;
    p.batch = batch;
    p.flops_per_layer = workload_flops_per_layer(WL_INFERENCE, hidden, batch);
    p.status = st;
    if (st != PT_OUT_OF_MEMORY) {
        for (i = 0; i < 5; i++) {
            double t = 4 * (t0 + p.flops_per_layer / P) * (1 + 0.01 * (i - 2));
            s[i].wall = t;
            s[i].kernel = -1;
            s[i].h2d = transfer ? 2e-5 : -1;
            s[i].d2h = transfer ? 2e-5 : -1;
            s[i].total = transfer ? t * 1.3 + 4e-5 : -1;
        }
        p.nsamples = 5;
        p.samples = s;
        p.has_transfer = transfer;
        if (results_summarize(&p, &e) != BE_OK)
            fail_msg("%s", e.msg);
    }
    assert_int_equal(results_add_point(r, &p, &e), BE_OK);
}

#define CPU_T0 5e-6
#define CPU_P 50e9
#define CL_T0 60e-6
#define CL_P 400e9

/* cpu and cl:0.0 (a PoCL CPU device) over hid × bat; flags add an
 * out-of-memory point and a failed verification on cl:0.0. */
static results *make_two(int flags)
{
    results *r = results_new();
    size_t i, j;
    assert_non_null(r);
    r->partial = 0;
    r->prov.layers = 4;
    snprintf(r->prov.version, sizeof r->prov.version, "0.1");
    snprintf(r->prov.host, sizeof r->prov.host, "testhost");
    add_device(r, "cpu", "openblas", "CPU", "AMD EPYC 7B13 64-Core Processor");
    add_device(r, "cl:0.0", "opencl", "CPU", "pthread-haswell-AMD EPYC 7B13 64-Core Processor");
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            rs_status st = PT_OK;
            add_point(r, "cpu", hid[i], bat[j], CPU_T0, CPU_P, 0, PT_OK);
            if ((flags & F_OOM) && hid[i] == 2048 && bat[j] >= 64)
                st = PT_OUT_OF_MEMORY;
            if ((flags & F_FAILED) && hid[i] == 512 && bat[j] == 8)
                st = PT_FAILED_VERIFICATION;
            add_point(r, "cl:0.0", hid[i], bat[j], CL_T0, CL_P, 1, st);
        }
    return r;
}

static results *make_one(void)
{
    results *r = results_new();
    size_t i, j;
    assert_non_null(r);
    r->prov.layers = 4;
    add_device(r, "cpu", "openblas", "CPU", "AMD EPYC 7B13 64-Core Processor");
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            add_point(r, "cpu", hid[i], bat[j], CPU_T0, CPU_P, 0, PT_OK);
    return r;
}

static results *make_single(void)
{
    results *r = results_new();
    assert_non_null(r);
    r->prov.layers = 4;
    add_device(r, "cpu", "openblas", "CPU", "AMD EPYC 7B13");
    add_device(r, "cl:0.0", "opencl", "CPU", "pthread-haswell-AMD EPYC 7B13");
    add_point(r, "cpu", 512, 64, CPU_T0, CPU_P, 0, PT_OK);
    add_point(r, "cl:0.0", 512, 64, CL_T0, CL_P, 1, PT_OK);
    return r;
}

static void set_model(fit_model *m, const char *dev, fit_view v, double t0, double P)
{
    memset(m, 0, sizeof *m);
    snprintf(m->device, sizeof m->device, "%s", dev);
    m->mode = WL_INFERENCE;
    m->view = v;
    m->ok = 1;
    m->npoints = 12;
    m->t0 = t0;
    m->t0_err = t0 * 0.05;
    m->P = P;
    m->P_err = P * 0.04;
    m->half_size = t0 * P;
    m->fmin = workload_flops_per_layer(WL_INFERENCE, 128, 1);
    m->fmax = workload_flops_per_layer(WL_INFERENCE, 2048, 512);
}

/* The fit of make_two's data, by hand: both models and the resident
 * crossover with its per-hidden batches. */
static void make_fit(fit_set *fs, fit_model *models, fit_crossover *cross, int with_cross)
{
    fit_crossover *c = cross;
    double f = (CL_T0 - CPU_T0) / (1 / CPU_P - 1 / CL_P);
    size_t i;
    set_model(&models[0], "cpu", FIT_RESIDENT, CPU_T0, CPU_P);
    set_model(&models[1], "cl:0.0", FIT_RESIDENT, CL_T0, CL_P);
    set_model(&models[2], "cl:0.0", FIT_TRANSFER, CL_T0 * 1.3 + 1e-5, CL_P / 1.3);
    fs->nmodels = 3;
    fs->models = models;
    fs->ncross = 0;
    fs->cross = cross;
    if (!with_cross)
        return;
    memset(c, 0, sizeof *c);
    snprintf(c->base, sizeof c->base, "cpu");
    snprintf(c->other, sizeof c->other, "cl:0.0");
    c->mode = WL_INFERENCE;
    c->view = FIT_RESIDENT;
    c->kind = CROSS_IN_RANGE;
    c->flops = f;
    c->ci_lo = f * 0.8;
    c->ci_hi = f * 1.25;
    c->nhidden = 3;
    for (i = 0; i < 3; i++) {
        double b = f / workload_flops_per_layer(WL_INFERENCE, hid[i], 1);
        c->per_hidden[i].hidden = hid[i];
        c->per_hidden[i].kind = b >= 1 ? CROSS_IN_RANGE : CROSS_ALWAYS;
        c->per_hidden[i].batch = b >= 1 ? b : 0;
        c->per_hidden[i].flops = f;
    }
    fs->ncross = 1;
}

/* ---- checking a chart ---------------------------------------------------- */

/* The colour of pixel (x, y) of an image surface (RGB24 or ARGB32). */
static chart_rgb pixel_at(cairo_surface_t *s, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(s);
    size_t off = (size_t)y * (size_t)cairo_image_surface_get_stride(s) + (size_t)x * 4;
    uint32_t px = *(const uint32_t *)(d + off);
    chart_rgb c = {((px >> 16) & 255) / 255.0, ((px >> 8) & 255) / 255.0, (px & 255) / 255.0};
    return c;
}

/* 1 when a and b differ by at most tol/255 in each channel. */
static int same_color(chart_rgb a, chart_rgb b, int tol)
{
    return fabs(a.r - b.r) * 255 <= tol + 0.5 && fabs(a.g - b.g) * 255 <= tol + 0.5 &&
           fabs(a.b - b.b) * 255 <= tol + 0.5;
}

/* The pixels of colour c (±1 per channel): how many, and their x range. */
typedef struct extent {
    int n, x0, x1;
} extent;

static extent color_extent(cairo_surface_t *s, chart_rgb c)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), x, y;
    extent ex = {0, w, -1};
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (same_color(pixel_at(s, x, y), c, 1)) {
                ex.n++;
                ex.x0 = x < ex.x0 ? x : ex.x0;
                ex.x1 = x > ex.x1 ? x : ex.x1;
            }
    return ex;
}

static int count_color(cairo_surface_t *s, chart_rgb c)
{
    return color_extent(s, c).n;
}

/* The bar charts (relative time, cost) are as high as their bars need;
 * the others FIGURE_HEIGHT. */
static int is_bars(const char *name)
{
    return strstr(name, "relative") != NULL || strstr(name, "cost") != NULL;
}

/* Reads one rendering <file>.png back (its width; its height: `height`
 * pixels when positive, else between 100 and 4000 pixels; width × scale
 * pixels wide; how many pixels
 * have each colour in want[0..nwant): at least 20 each); no <file>.svg
 * beside it.  Returns the PNG's height. */
static int check_render(const char *file, double width, double scale, int height,
                        const chart_oi *want, int nwant, const chart_oi *absent, int nabsent)
{
    char path[768];
    cairo_surface_t *s;
    int i, h;

    snprintf(path, sizeof path, "%s/%s.png", outdir, file);
    assert_int_equal(access(path, R_OK), 0);
    s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(s), (int)(width * scale));
    h = cairo_image_surface_get_height(s);
    if (height > 0)
        assert_int_equal(h, height);
    else
        assert_true(h >= 100 && h <= 4000);
    /* Cairo writes an opaque image as RGB, and reads it back as RGB24. */
    assert_true(cairo_image_surface_get_format(s) == CAIRO_FORMAT_RGB24 ||
                cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32);
    for (i = 0; i < nwant; i++) {
        int n = count_color(s, chart_oi_rgb(want[i]));
        if (n < 20)
            fail_msg("%s: colour %d has %d pixels", path, (int)want[i], n);
    }
    for (i = 0; i < nabsent; i++) {
        int n = count_color(s, chart_oi_rgb(absent[i]));
        if (n > 0)
            fail_msg("%s: colour %d should be absent, has %d pixels", path, (int)absent[i], n);
    }
    cairo_surface_destroy(s);

    /* PNGs only: what the pages show */
    snprintf(path, sizeof path, "%s/%s.svg", outdir, file);
    assert_int_not_equal(access(path, F_OK), 0);
    return h;
}

/* Checks both renderings of chart <name>: the wide one, and the narrow one
 * for phones ("<name>-narrow"), which shows the same colours.  Returns
 * the wide one's height in pixels. */
static int check_chart(const char *name, const chart_oi *want, int nwant, const chart_oi *absent,
                       int nabsent)
{
    char narrow[256];
    int h = check_render(name, FIGURE_WIDTH, FIGURE_SCALE,
                         is_bars(name) ? 0 : (int)(FIGURE_HEIGHT * FIGURE_SCALE), want, nwant,
                         absent, nabsent);
    snprintf(narrow, sizeof narrow, "%s" FIGURE_NARROW_SUFFIX, name);
    check_render(narrow, FIGURE_NARROW_WIDTH, FIGURE_NARROW_SCALE, 0, want, nwant, absent, nabsent);
    return h;
}

static void base_of(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", outdir, name);
}

/* ---- figures ------------------------------------------------------------- */

static const chart_oi hidden_colours[] = {CHART_BLUE, CHART_VERMILLION, CHART_GREEN};

static void test_figures_full(void **state)
{
    results *r = make_two(0);
    fit_model models[3];
    fit_crossover *cross = calloc(1, sizeof *cross);
    fit_set fs;
    fit_prices pr;
    figure_shape shapes[2] = {{512, 8}, {2048, 512}};
    chart_oi cl = CHART_VERMILLION, both[] = {CHART_BLUE, CHART_VERMILLION};
    char b[640];
    err e;
    int h;
    (void)state;
    assert_non_null(cross);
    make_fit(&fs, models, cross, 1);
    base_of(b, sizeof b, "throughput");
    assert_int_equal(figure_throughput(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("throughput", hidden_colours, 3, NULL, 0);
    base_of(b, sizeof b, "ratio");
    assert_int_equal(figure_speed_ratio(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("ratio", &cl, 1, NULL, 0);
    base_of(b, sizeof b, "winner");
    assert_int_equal(figure_winner_map(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("winner", both, 2, NULL, 0);
    base_of(b, sizeof b, "relative");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_OK);
    h = check_chart("relative", both, 2, NULL, 0);
    base_of(b, sizeof b, "relative-shapes");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, shapes, 2, NULL, b, &e), BE_OK);
    /* sized to the bars: two shapes of two devices take more room than two
     * bars (no 60% empty frame), and less than the old fixed height */
    assert_true(check_chart("relative-shapes", both, 2, NULL, 0) > h);
    assert_true(h < (int)(FIGURE_HEIGHT * FIGURE_SCALE) / 2);
    memset(&pr, 0, sizeof pr);
    pr.n = 2;
    snprintf(pr.device[0], sizeof pr.device[0], "cpu");
    pr.usd_per_hour[0] = 0.24;
    snprintf(pr.device[1], sizeof pr.device[1], "cl:0.0");
    pr.usd_per_hour[1] = 1.5;
    base_of(b, sizeof b, "cost");
    assert_int_equal(figure_cost(r, &pr, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_OK);
    check_chart("cost", both, 2, NULL, 0);
    free(cross);
    results_free(r);
}

static void test_figures_one_device(void **state)
{
    results *r = make_one();
    fit_model m;
    fit_set fs = {1, &m, 0, NULL, FIT_ANALYSIS};
    chart_oi blue = CHART_BLUE;
    char b[640], text[2048];
    err e;
    (void)state;
    set_model(&m, "cpu", FIT_RESIDENT, CPU_T0, CPU_P);
    base_of(b, sizeof b, "one-throughput");
    assert_int_equal(figure_throughput(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("one-throughput", hidden_colours, 3, NULL, 0);
    base_of(b, sizeof b, "one-ratio");
    assert_int_equal(figure_speed_ratio(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("one-ratio", NULL, 0, NULL, 0);
    base_of(b, sizeof b, "one-winner");
    assert_int_equal(figure_winner_map(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("one-winner", NULL, 0, NULL, 0);
    base_of(b, sizeof b, "one-relative");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_OK);
    check_chart("one-relative", &blue, 1, NULL, 0);
    /* Training was not measured: a chart that says so, not an error. */
    base_of(b, sizeof b, "one-training");
    assert_int_equal(figure_throughput(r, &fs, WL_TRAINING, NULL, b, &e), BE_OK);
    check_chart("one-training", NULL, 0, hidden_colours, 3);
    /* the words say what was measured, and count right */
    prose_alone(r, text, sizeof text);
    assert_non_null(strstr(text, "Only OpenBLAS was measured"));
    assert_non_null(strstr(text, "over the 12 points it measured"));
    prose_relative(r, NULL, WL_INFERENCE, 0, text, sizeof text);
    assert_non_null(strstr(text, "Only OpenBLAS was measured, so its bar is the reference"));
    r->prov.layers = 1;
    prose_setup(r, text, sizeof text);
    assert_non_null(strstr(text, "a stack of 1 dense layer y"));
    results_free(r);
}

static void test_figures_no_crossover_oom(void **state)
{
    results *r = make_two(F_OOM | F_FAILED);
    fit_set empty = {0, NULL, 0, NULL, FIT_ANALYSIS};
    fit_model models[3];
    fit_crossover cross;
    fit_set fs;
    figure_shape shapes[2] = {{2048, 512}, {512, 8}};
    chart_oi both[] = {CHART_BLUE, CHART_VERMILLION};
    chart_oi cl = CHART_VERMILLION;
    char b[640];
    err e;
    (void)state;
    make_fit(&fs, models, &cross, 0);
    base_of(b, sizeof b, "oom-throughput");
    assert_int_equal(figure_throughput(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("oom-throughput", hidden_colours, 3, NULL, 0);
    base_of(b, sizeof b, "oom-ratio");
    assert_int_equal(figure_speed_ratio(r, &empty, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("oom-ratio", &cl, 1, NULL, 0);
    base_of(b, sizeof b, "oom-winner");
    assert_int_equal(figure_winner_map(r, NULL, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("oom-winner", both, 2, NULL, 0);
    /* cl:0.0 is out of memory at one shape and wrong at the other: it gets
     * no bar (not a zero-length one), only the base's colour shows. */
    base_of(b, sizeof b, "oom-relative");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, shapes, 2, NULL, b, &e), BE_OK);
    check_chart("oom-relative", both, 1, &cl, 1);
    results_free(r);
}

/* A device whose only point failed verification is never drawn as a
 * speed: the ratio chart has nothing to show, so its colour is absent. */
static void test_figures_failed_not_plotted(void **state)
{
    results *r = results_new();
    chart_oi cl = CHART_VERMILLION;
    char b[640];
    err e;
    (void)state;
    assert_non_null(r);
    r->prov.layers = 4;
    add_device(r, "cpu", "openblas", "CPU", "AMD EPYC 7B13");
    add_device(r, "cl:0.0", "opencl", "GPU", "Fast but wrong");
    add_point(r, "cpu", 512, 64, CPU_T0, CPU_P, 0, PT_OK);
    add_point(r, "cl:0.0", 512, 64, 1e-9, 1e15, 1, PT_FAILED_VERIFICATION);
    base_of(b, sizeof b, "failed-ratio");
    assert_int_equal(figure_speed_ratio(r, NULL, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("failed-ratio", NULL, 0, &cl, 1);
    results_free(r);
}

static void test_figures_single_point(void **state)
{
    results *r = make_single();
    fit_set empty = {0, NULL, 0, NULL, FIT_ANALYSIS};
    figure_shape sh = {512, 64};
    chart_oi blue = CHART_BLUE, both[] = {CHART_BLUE, CHART_VERMILLION};
    char b[640];
    err e;
    (void)state;
    base_of(b, sizeof b, "single-throughput");
    assert_int_equal(figure_throughput(r, &empty, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("single-throughput", &blue, 1, NULL, 0);
    base_of(b, sizeof b, "single-ratio");
    assert_int_equal(figure_speed_ratio(r, &empty, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("single-ratio", both + 1, 1, NULL, 0);
    base_of(b, sizeof b, "single-winner");
    assert_int_equal(figure_winner_map(r, &empty, WL_INFERENCE, NULL, b, &e), BE_OK);
    check_chart("single-winner", NULL, 0, NULL, 0);
    base_of(b, sizeof b, "single-relative");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, &sh, 1, NULL, b, &e), BE_OK);
    check_chart("single-relative", both, 2, NULL, 0);
    results_free(r);
}

static void test_figure_errors(void **state)
{
    results *r = make_two(0);
    fit_prices pr;
    char b[640];
    err e;
    (void)state;
    e.msg[0] = '\0';
    assert_int_equal(figure_throughput(r, NULL, WL_INFERENCE, NULL, "/nonexistent-dir/x", &e),
                     BE_EFAIL);
    assert_non_null(strstr(e.msg, "/nonexistent-dir/x.png"));
    assert_int_equal(access("/nonexistent-dir", F_OK), -1);
    /* The cost chart needs the base device's price. */
    memset(&pr, 0, sizeof pr);
    pr.n = 1;
    snprintf(pr.device[0], sizeof pr.device[0], "cl:0.0");
    pr.usd_per_hour[0] = 1.5;
    base_of(b, sizeof b, "nocost");
    assert_int_equal(figure_cost(r, &pr, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_EUSAGE);
    assert_non_null(strstr(e.msg, "cpu"));
    snprintf(b, sizeof b, "%s/nocost.png", outdir);
    assert_int_equal(access(b, F_OK), -1);
    results_free(r);
}

/* A legend names a device as the prose does (q_device_name), never by
 * the driver's raw strings, on every committed fixture's devices too. */
static void test_device_label(void **state)
{
    static const char *const fixtures[] = {
        "tests/data/results-0.1.0.xml",
        "tests/data/gpu/h100-20261123T074740Z.xml",
        "tests/data/gpu/h200-compare/runs/20261126T023800Z-vm/results.xml.gz",
        "tests/data/gpu/h200-hop/runs/20261126T085108Z-vm/results.xml.gz",
        "tests/data/decide/two.xml",
        "tests/data/decide/three.xml",
        "tests/telemetry/results.xml",
    };
    static const char *const raw[] = {"pthread-", "(R)", "Portable Computing Language"};
    results *r = make_two(0);
    char buf[512];
    size_t i, k;
    int d;
    err e;
    (void)state;
    assert_int_equal(q_base(r), 0);
    figure_device_label(r, 1, buf, sizeof buf);
    assert_string_equal(buf, "PoCL (CPU)");
    figure_device_label(r, 0, buf, sizeof buf);
    assert_string_equal(buf, "OpenBLAS");
    results_free(r);
    for (i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        if (results_load(fixtures[i], &r, &e) != BE_OK)
            fail_msg("%s", e.msg);
        for (d = 0; d < r->ndevices; d++) {
            figure_device_label(r, d, buf, sizeof buf);
            for (k = 0; k < sizeof raw / sizeof *raw; k++)
                if (strstr(buf, raw[k]))
                    fail_msg("%s %s: the legend \"%s\" holds \"%s\"", fixtures[i], r->devices[d].id,
                             buf, raw[k]);
        }
        results_free(r);
    }
}

/* ---- what the charts show, read back from their pixels ------------------- */

/* The median step time of dev at a shape when that point is ok, else NaN:
 * read straight from the points, not through query.h, so that the charts'
 * choice of points is checked against an independent one. */
static double median_at(const results *r, const char *dev, int hidden, int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (strcmp(p->device, dev) == 0 && p->hidden == hidden && p->batch == batch)
            return p->status == PT_OK ? p->resident.median : NAN;
    }
    return NAN;
}

/* Σ median(dev) / Σ median(base) over the shapes where every device of
 * devs[0..n) is ok (devs[0] is the base). */
static double total_ratio(const results *r, const char *const *devs, int n, int *nshapes)
{
    double num = 0, den = 0;
    size_t i, j;
    int k;
    *nshapes = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            int all = 1;
            for (k = 0; k < n; k++)
                all &= !isnan(median_at(r, devs[k], hid[i], bat[j]));
            if (!all)
                continue;
            ++*nshapes;
            den += median_at(r, devs[0], hid[i], bat[j]);
            num += median_at(r, devs[1], hid[i], bat[j]);
        }
    return num / den;
}

static cairo_surface_t *load_png(const char *name)
{
    char path[768];
    cairo_surface_t *s;
    snprintf(path, sizeof path, "%s/%s.png", outdir, name);
    s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    return s;
}

/* The length in pixels of the bar of colour c (its pixels' x range). */
static int bar_length(cairo_surface_t *s, chart_rgb c)
{
    extent ex = color_extent(s, c);
    if (ex.n < 100)
        fail_msg("a bar of colour %.2f,%.2f,%.2f has %d pixels", c.r, c.g, c.b, ex.n);
    return ex.x1 - ex.x0 + 1;
}

/* The winner map's cells have the colour of their measured ratio: each
 * cell, sampled away from its label, against the diverging scale computed
 * here from the medians (white at 1, blue where cl:0.0 is faster,
 * vermillion where the CPU is, full at the largest |log10 ratio|). */
static void test_winner_cells(void **state)
{
    results *r = make_two(0);
    fit_model models[3];
    fit_crossover cross;
    fit_set fs;
    cairo_surface_t *s;
    double q[3][4], cap = 0, px = 92 * FIGURE_SCALE, cw = 868.0 / 4 * FIGURE_SCALE, ch;
    int i, j, y, ytop = -1, ybot = -1, x0;
    char b[640];
    err e;
    (void)state;
    make_fit(&fs, models, &cross, 0); /* no crossover: nothing drawn over the cells */
    base_of(b, sizeof b, "cells");
    assert_int_equal(figure_winner_map(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            q[i][j] = median_at(r, "cpu", hid[i], bat[j]) / median_at(r, "cl:0.0", hid[i], bat[j]);
            cap = fmax(cap, fabs(log10(q[i][j])));
        }
    cap = fmin(fmax(cap, log10(2.0)), 2.0);
    s = load_png("cells");
    /* the panel spans x from 92 (one panel: 868 wide, 4 columns); its rows,
     * hidden 2048 at the top, are found down the first column: every cell
     * of this fixture is tinted, the text above it is grey */
    x0 = (int)(px + 0.1 * cw);
    for (y = 0; y < cairo_image_surface_get_height(s); y++) {
        chart_rgb c = pixel_at(s, x0, y);
        if (fmax(c.r, fmax(c.g, c.b)) - fmin(c.r, fmin(c.g, c.b)) > 0.12) {
            if (ytop < 0)
                ytop = y;
            ybot = y;
        }
    }
    assert_true(ytop > 0 && ybot > ytop + 60);
    ch = (ybot - ytop + 1) / 3.0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            double t = fmin(fabs(log10(q[i][j])) / cap, 1.0);
            chart_rgb want =
                chart_mix((chart_rgb){1, 1, 1},
                          chart_oi_rgb(q[i][j] >= 1 ? CHART_BLUE : CHART_VERMILLION), t);
            chart_rgb got =
                pixel_at(s, (int)(px + (j + 0.2) * cw), (int)(ytop + (2 - i + 0.2) * ch));
            if (!same_color(got, want, 3))
                fail_msg("cell hidden %d batch %d (ratio %.3f): %.3f,%.3f,%.3f, want "
                         "%.3f,%.3f,%.3f",
                         hid[i], bat[j], q[i][j], got.r, got.g, got.b, want.r, want.g, want.b);
        }
    cairo_surface_destroy(s);
    results_free(r);
}

/* The relative time bars total the shapes both devices completed: with
 * cl:0.0 out of memory at two shapes and failed at a third, its bar is
 * Σ its medians / Σ the CPU's over the 9 others, to the pixel. */
static void test_relative_bars(void **state)
{
    results *r = make_two(F_OOM | F_FAILED);
    const char *devs[] = {"cpu", "cl:0.0"};
    cairo_surface_t *s;
    double want, got;
    int n;
    char b[640];
    err e;
    (void)state;
    want = total_ratio(r, devs, 2, &n);
    assert_int_equal(n, 9);
    base_of(b, sizeof b, "bars");
    assert_int_equal(figure_relative_time(r, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_OK);
    s = load_png("bars");
    got = (double)bar_length(s, chart_oi_rgb(CHART_VERMILLION)) /
          bar_length(s, chart_oi_rgb(CHART_BLUE));
    if (fabs(got / want - 1) > 0.02)
        fail_msg("cl:0.0's bar is %.4f of the CPU's, its time %.4f", got, want);
    cairo_surface_destroy(s);
    results_free(r);
}

/* A cost chart and its paragraph total the same shapes.  cl:0.1 has no
 * price and ran out of memory at the largest shape: the cost comparison
 * leaves it out, so all 12 shapes count, in the bars and in the words
 * alike; the time comparison takes it in, and the 11 shapes it completed. */
static void test_cost_paragraph_matches_bars(void **state)
{
    results *r = make_two(0);
    const char *devs[] = {"cpu", "cl:0.0"}, *all[] = {"cpu", "cl:0.0", "cl:0.1"};
    int use[3], n, nall;
    size_t i, j;
    q_shape shapes[Q_MAX_SHAPES];
    cairo_surface_t *s;
    double want, got;
    char b[640], text[2048], expect[128];
    err e;
    (void)state;
    add_device(r, "cl:0.1", "opencl", "GPU", "Small GPU");
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            add_point(r, "cl:0.1", hid[i], bat[j], 20e-6, 100e9, 1,
                      hid[i] == 2048 && bat[j] == 512 ? PT_OUT_OF_MEMORY : PT_OK);
    r->prices.n = 2;
    snprintf(r->prices.device[0], sizeof r->prices.device[0], "cpu");
    r->prices.usd_per_hour[0] = 0.24;
    snprintf(r->prices.device[1], sizeof r->prices.device[1], "cl:0.0");
    r->prices.usd_per_hour[1] = 1.5;

    /* the query behind both */
    assert_int_equal(q_compared(r, WL_INFERENCE, &r->prices, use), 2);
    assert_true(use[0] && use[1] && !use[2]);
    assert_int_equal(q_completed(r, WL_INFERENCE, use, shapes, Q_MAX_SHAPES), 12);
    assert_int_equal(q_completed(r, WL_INFERENCE, NULL, shapes, Q_MAX_SHAPES), 11);
    want = total_ratio(r, devs, 2, &n) * 1.5 / 0.24;
    assert_int_equal(n, 12);
    total_ratio(r, all, 3, &nall);
    assert_int_equal(nall, 11);

    /* the words */
    prose_relative(r, NULL, WL_INFERENCE, 1, text, sizeof text);
    assert_non_null(
        strstr(text, "Each bar sums a device's costs over the 12 shapes every device completed in "
                     "inference."));
    snprintf(expect, sizeof expect,
             "In inference, PoCL (CPU) costs %.2f\xc3\x97 the cost of OpenBLAS.", want);
    if (!strstr(text, expect))
        fail_msg("\"%s\" lacks \"%s\"", text, expect);
    assert_non_null(strstr(text, "Small GPU has no price"));
    /* and the money, at the largest shape: the median times the price */
    {
        const rs_point *p = q_point(r, "cl:0.0", WL_INFERENCE, 2048, 512);
        char per[48];
        assert_non_null(p);
        fmt_usd(per, sizeof per, p->resident.median * 1.5 / 3600 / 512 * 1e6, 2);
        /* one money figure: per million samples (no cost per step beside it) */
        snprintf(expect, sizeof expect, "PoCL (CPU) at $1.5 per hour costs %s per million samples",
                 per);
        assert_null(strstr(text, "per step,"));
        if (!strstr(text, expect) || !strstr(text, "at hidden 2048 \xc3\x97 batch 512"))
            fail_msg("\"%s\" lacks \"%s\"", text, expect);
    }
    prose_relative(r, NULL, WL_INFERENCE, 0, text, sizeof text);
    assert_non_null(
        strstr(text, "Each bar sums a device's times over the 11 shapes every device completed in "
                     "inference."));

    /* the bars */
    base_of(b, sizeof b, "cost3");
    assert_int_equal(figure_cost(r, &r->prices, WL_INFERENCE, NULL, 0, NULL, b, &e), BE_OK);
    s = load_png("cost3");
    got = (double)bar_length(s, chart_oi_rgb(CHART_VERMILLION)) /
          bar_length(s, chart_oi_rgb(CHART_BLUE));
    if (fabs(got / want - 1) > 0.02)
        fail_msg("cl:0.0's cost bar is %.4f of the CPU's, its cost %.4f", got, want);
    /* cl:0.1 (green) has no bar */
    assert_int_equal(count_color(s, chart_oi_rgb(CHART_GREEN)), 0);
    cairo_surface_destroy(s);
    results_free(r);
}

/* ---- history charts ------------------------------------------------------ */

#define H_RUNS 6

/* One interval around v, ±10% below and +20% above (a skewed one, as a
 * crossover's is). */
static void set_value(hist_value *h, double v)
{
    h->has = 1;
    h->kind = CROSS_IN_RANGE;
    h->v = v;
    h->lo = v * 0.9;
    h->hi = v * 1.2;
}

/* A series of H_RUNS runs as history.c would build it, by hand.  With
 * values: widths 512 and 2048, the crossover at 512 halving from run 3
 * (0-based, a change), at 2048 CROSS_ALWAYS in run 1 and no value in run 4
 * (so that run 5 stands alone); peaks of cpu steady, of cl:0.0 up by half
 * from run 2 (a change), no value for it in run 0.  Without: every value
 * unknown, no change. */
static void make_series(hist_series *s, int with_values)
{
    int i;
    memset(s, 0, sizeof *s);
    snprintf(s->host, sizeof s->host, "testhost");
    s->mode = WL_INFERENCE;
    snprintf(s->base, sizeof s->base, "cpu");
    snprintf(s->other, sizeof s->other, "cl:0.0");
    snprintf(s->base_name, sizeof s->base_name, "AMD EPYC 7B13 64-Core Processor");
    snprintf(s->other_name, sizeof s->other_name, "NVIDIA H100 80GB HBM3");
    snprintf(s->anchor, sizeof s->anchor, "s1");
    s->nruns = H_RUNS;
    s->nwidths = 2;
    s->hidden[0] = 512;
    s->hidden[1] = 2048;
    s->runs = calloc(H_RUNS, sizeof *s->runs);
    s->cross = calloc(H_RUNS * 2, sizeof *s->cross);
    s->peak[0] = calloc(H_RUNS, sizeof *s->peak[0]);
    s->peak[1] = calloc(H_RUNS, sizeof *s->peak[1]);
    assert_true(s->runs && s->cross && s->peak[0] && s->peak[1]);
    for (i = 0; i < H_RUNS; i++) {
        results *r = results_new();
        assert_non_null(r);
        snprintf(r->prov.id, sizeof r->prov.id, "2026-05-%02d-run", i + 1);
        snprintf(r->prov.started, sizeof r->prov.started, "2026-05-%02dT10:00:00Z", i + 1);
        snprintf(r->prov.host, sizeof r->prov.host, "testhost");
        snprintf(r->prov.version, sizeof r->prov.version, "%s", BE_VERSION);
        s->runs[i] = r;
        s->cross[i * 2].kind = s->cross[i * 2 + 1].kind = CROSS_UNKNOWN;
        if (!with_values)
            continue;
        set_value(&s->cross[i * 2], i < 3 ? 64 * (1 + 0.03 * i) : 32 * (1 - 0.02 * i));
        if (i != 1 && i != 4)
            set_value(&s->cross[i * 2 + 1], 300 * (1 + 0.02 * i));
        set_value(&s->peak[0][i], 50 * (1 + 0.01 * i));
        if (i > 0)
            set_value(&s->peak[1][i], i < 2 ? 400 : 600);
    }
    if (!with_values)
        return;
    s->cross[1 * 2 + 1].kind = CROSS_ALWAYS;
    s->nchanges = 2;
    s->changes = calloc(2, sizeof *s->changes);
    assert_non_null(s->changes);
    s->changes[0].what = HIST_CROSS;
    s->changes[0].hidden = 512;
    s->changes[0].at = 3;
    snprintf(s->changes[0].key, sizeof s->changes[0].key, "crossover-512");
    s->changes[1].what = HIST_PEAK;
    s->changes[1].device = 1;
    s->changes[1].at = 2;
    snprintf(s->changes[1].key, sizeof s->changes[1].key, "peak-cl:0.0");
}

static void free_series(hist_series *s)
{
    int i;
    for (i = 0; i < s->nruns; i++)
        results_free((results *)s->runs[i]);
    free(s->runs);
    free(s->cross);
    free(s->peak[0]);
    free(s->peak[1]);
    free(s->changes);
}

/* The sizes of <name>.png and <name>-narrow.png, in pixels. */
static void check_sizes(const char *name, int want_h)
{
    char path[768];
    int w, h;
    err e;
    snprintf(path, sizeof path, "%s/%s.png", outdir, name);
    if (chart_png_size(path, &w, &h, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w, (int)(FIGURE_WIDTH * FIGURE_SCALE));
    assert_int_equal(h, want_h);
    snprintf(path, sizeof path, "%s/%s" FIGURE_NARROW_SUFFIX ".png", outdir, name);
    if (chart_png_size(path, &w, &h, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w, 495);
    assert_true(h >= 200 && h <= 4000);
}

static void test_history_charts(void **state)
{
    hist_series s;
    chart_oi both[] = {CHART_BLUE, CHART_VERMILLION};
    char b[640];
    err e;
    (void)state;
    make_series(&s, 1);
    base_of(b, sizeof b, "hist-cross");
    assert_int_equal(figure_history_cross(&s, "Crossover over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-cross", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
    check_chart("hist-cross", both, 2, NULL, 0);
    base_of(b, sizeof b, "hist-peak");
    assert_int_equal(figure_history_peak(&s, "Peak throughput over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-peak", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
    check_chart("hist-peak", both, 2, NULL, 0);
    free_series(&s);
}

static void test_history_empty(void **state)
{
    hist_series s;
    chart_oi both[] = {CHART_BLUE, CHART_VERMILLION};
    char b[640];
    err e;
    (void)state;
    /* runs, but no value in any of them */
    make_series(&s, 0);
    base_of(b, sizeof b, "hist-cross-empty");
    assert_int_equal(figure_history_cross(&s, "Crossover over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-cross-empty", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
    check_chart("hist-cross-empty", NULL, 0, both, 2);
    base_of(b, sizeof b, "hist-peak-empty");
    assert_int_equal(figure_history_peak(&s, "Peak throughput over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-peak-empty", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
    check_chart("hist-peak-empty", NULL, 0, both, 2);
    free_series(&s);
    /* no run at all: nothing of a run is read */
    memset(&s, 0, sizeof s);
    base_of(b, sizeof b, "hist-none");
    assert_int_equal(figure_history_cross(&s, "Crossover over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-none", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
    assert_int_equal(figure_history_peak(&s, "Peak throughput over the runs", NULL, b, &e), BE_OK);
    check_sizes("hist-none", (int)(FIGURE_HEIGHT * FIGURE_SCALE));
}

/* The pixels png_write was given, read back by Cairo: an opaque image
 * (RGB) and one with partly transparent pixels (RGBA, unpremultiplied as
 * Cairo's own writer does), each through a file. */
static void test_png_lossless(void **state)
{
    static const int alpha[] = {255, 0};
    char path[768], *png;
    size_t len;
    int k, y;
    err e;
    (void)state;
    for (k = 0; k < 2; k++) {
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 37, 23), *t, *u;
        cairo_t *cr = cairo_create(s);
        FILE *f;
        cairo_set_source_rgba(cr, 1, 1, 1, alpha[k] / 255.0);
        cairo_paint(cr);
        cairo_set_source_rgba(cr, 0.2, 0.45, 0.7, 0.6);
        cairo_arc(cr, 18, 11, 9.3, 0, 6.3);
        cairo_fill(cr);
        cairo_destroy(cr);
        cairo_surface_flush(s);
        assert_int_equal(png_write(cairo_image_surface_get_data(s), 37, 23,
                                   cairo_image_surface_get_stride(s), &png, &len, &e),
                         BE_OK);
        snprintf(path, sizeof path, "%s/png-%d.png", outdir, k);
        assert_non_null(f = fopen(path, "wb"));
        assert_int_equal(fwrite(png, 1, len, f), len);
        fclose(f);
        free(png);
        t = cairo_image_surface_create_from_png(path);
        assert_int_equal(cairo_surface_status(t), CAIRO_STATUS_SUCCESS);
        assert_int_equal(cairo_image_surface_get_format(t),
                         k == 0 ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32);
        /* RGB24 leaves the alpha byte undefined: both as ARGB32 */
        u = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 37, 23);
        cr = cairo_create(u);
        cairo_set_source_surface(cr, t, 0, 0);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_paint(cr);
        cairo_destroy(cr);
        cairo_surface_flush(u);
        /* the opaque one exactly; a partly transparent pixel as a round
         * trip through Cairo's own writer leaves it */
        if (k == 0)
            for (y = 0; y < 23; y++)
                assert_memory_equal(
                    cairo_image_surface_get_data(s) + y * cairo_image_surface_get_stride(s),
                    cairo_image_surface_get_data(u) + y * cairo_image_surface_get_stride(u),
                    37 * 4);
        else {
            cairo_surface_t *c;
            snprintf(path, sizeof path, "%s/png-cairo.png", outdir);
            assert_int_equal(cairo_surface_write_to_png(s, path), CAIRO_STATUS_SUCCESS);
            c = cairo_image_surface_create_from_png(path);
            for (y = 0; y < 23; y++)
                assert_memory_equal(
                    cairo_image_surface_get_data(c) + y * cairo_image_surface_get_stride(c),
                    cairo_image_surface_get_data(u) + y * cairo_image_surface_get_stride(u),
                    37 * 4);
            cairo_surface_destroy(c);
        }
        cairo_surface_destroy(u);
        cairo_surface_destroy(t);
        cairo_surface_destroy(s);
    }
}

/* 1 when a and b differ by more than tol in a channel. */
static int differs(chart_rgb a, chart_rgb b, double tol)
{
    return fabs(a.r - b.r) > tol || fabs(a.g - b.g) > tol || fabs(a.b - b.b) > tol;
}

/* The winner map's ◆ never covers a value (issue 47): with the crossover
 * at hidden 512 on the centre of the column of batch 8, the phone's
 * rendering still writes that cell's value, above the ◆ (where it sat on
 * the value's line, the value was left out).  The ◆ is found as the pure
 * black of its fill; the cell's top as the first pixel up its left edge
 * that is not its fill (the white grid line); the value as pixels unlike
 * the fill, around the ◆'s column, between the two. */
static void test_winner_values(void **state)
{
    results *r = make_two(0);
    fit_model models[3];
    fit_crossover cross;
    fit_set fs;
    cairo_surface_t *s;
    int w, h, x, y, xmin = -1, xmax = -1, ymin = -1, ymax = -1, xl, ytop, ink = 0, i;
    chart_rgb fill;
    char b[640];
    err e;
    (void)state;
    make_fit(&fs, models, &cross, 1);
    for (i = 0; i < cross.nhidden; i++) {
        cross.per_hidden[i].kind = hid[i] == 512 ? CROSS_IN_RANGE : CROSS_NEVER;
        cross.per_hidden[i].batch = hid[i] == 512 ? bat[1] : 0;
    }
    base_of(b, sizeof b, "values");
    assert_int_equal(figure_winner_map(r, &fs, WL_INFERENCE, NULL, b, &e), BE_OK);
    s = load_png("values" FIGURE_NARROW_SUFFIX);
    w = cairo_image_surface_get_width(s);
    h = cairo_image_surface_get_height(s);
    /* the ◆: the only pure black (no line joins it to another) */
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            chart_rgb c = pixel_at(s, x, y);
            if (c.r + c.g + c.b > 0.03)
                continue;
            if (xmin < 0 || x < xmin)
                xmin = x;
            xmax = x > xmax ? x : xmax;
            if (ymin < 0)
                ymin = y;
            ymax = y;
        }
    assert_true(xmin > 0 && xmax > xmin && ymax > ymin && ymax - ymin < 40);
    /* its cell: batch 8 is the second column, so the cell's left edge is
     * half a column left of the ◆, and its fill a little right of that */
    xl = xmin - (xmax - xmin) * 2;
    while (xl > 0 && !differs(pixel_at(s, xl, (ymin + ymax) / 2),
                              pixel_at(s, xl - 1, (ymin + ymax) / 2), 0.3))
        xl--;
    fill = pixel_at(s, xl + 3, (ymin + ymax) / 2);
    for (ytop = (ymin + ymax) / 2; ytop > 0 && !differs(pixel_at(s, xl + 3, ytop), fill, 0.1);
         ytop--)
        ;
    assert_true(ytop > 0 && ytop < ymin);
    for (y = ytop + 2; y < ymin - 4; y++)
        for (x = (xmin + xmax) / 2 - 8; x <= (xmin + xmax) / 2 + 8; x++)
            ink += differs(pixel_at(s, x, y), fill, 0.25);
    if (ink < 5)
        fail_msg("no value above the ◆ at hidden 512, batch 8: %d pixels unlike the cell "
                 "between y %d and %d",
                 ink, ytop + 2, ymin - 4);
    cairo_surface_destroy(s);
    results_free(r);
}

/* A legend's label is never cut short with "…" (issue 47): it wraps onto
 * as many lines as it takes, a word wider than the line broken across
 * lines with no letter lost, and the legend's size makes room for every
 * line (each after the first, 14 units: chart.c's KEY_LINE2). */
static void test_legend_whole(void **state)
{
    static const char word[] = "pthread-skylake-avx512-AMD-EPYC-7B13-64-Core-Processor";
    static const char label[] = "NVIDIA H100 80GB HBM3 crosses OpenBLAS (16 threads) at 1.24M "
                                "FLOP/layer, median of widths (95% CI 1.05M\xe2\x80\x93"
                                "1.44M)";
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 10, 10);
    cairo_t *cr = cairo_create(s);
    char lines[8][CHART_LINE], joined[1024] = "";
    chart_key k;
    double w, h1, h2;
    int n, i;
    (void)state;
    chart_font(cr, 11.5, 0);
    n = chart_wrap(cr, word, 120, lines, 8);
    assert_true(n > 1);
    for (i = 0; i < n; i++) {
        assert_null(strstr(lines[i], "\xe2\x80\xa6"));
        assert_true(chart_text_width(cr, lines[i]) <= 120);
        fmt_append(joined, sizeof joined, "%s", lines[i]);
    }
    assert_string_equal(joined, word);
    memset(&k, 0, sizeof k);
    k.kind = CHART_KEY_SWATCH;
    k.shape = -1;
    snprintf(k.label, sizeof k.label, "short");
    chart_legend_size(cr, &k, 1, 300, &w, &h1);
    snprintf(k.label, sizeof k.label, "%s", label);
    chart_legend_size(cr, &k, 1, 300, &w, &h2);
    /* the width a label has: the legend's, less the room of its symbol */
    chart_font(cr, 11.5, 0);
    n = chart_wrap(cr, label, 300 - 30, lines, 8);
    assert_true(n >= 3);
    assert_near(h2 - h1, (n - 1) * 14.0, 1e-9);
    for (i = 0; i < n; i++)
        assert_null(strstr(lines[i], "\xe2\x80\xa6"));
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks_log),
        cmocka_unit_test(test_ticks_linear),
        cmocka_unit_test(test_si),
        cmocka_unit_test(test_axis_fit),
        cmocka_unit_test(test_device_label),
        cmocka_unit_test(test_figures_full),
        cmocka_unit_test(test_figures_one_device),
        cmocka_unit_test(test_figures_no_crossover_oom),
        cmocka_unit_test(test_figures_failed_not_plotted),
        cmocka_unit_test(test_figures_single_point),
        cmocka_unit_test(test_figure_errors),
        cmocka_unit_test(test_winner_cells),
        cmocka_unit_test(test_relative_bars),
        cmocka_unit_test(test_cost_paragraph_matches_bars),
        cmocka_unit_test(test_history_charts),
        cmocka_unit_test(test_history_empty),
        cmocka_unit_test(test_png_lossless),
        cmocka_unit_test(test_legend_whole),
        cmocka_unit_test(test_winner_values),
    };
    return cmocka_run_group_tests_name("chart", tests, setup_dir, remove_dir);
}
