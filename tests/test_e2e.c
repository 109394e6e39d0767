/*
 * test_e2e.c — end-to-end tests: run the built binary ($BREAKEVEN) as a user
 * would, on tiny sweeps, and check its exit status, what it printed, and the
 * results file it wrote (loaded back through the library, schema and all).
 */
#define _DEFAULT_SOURCE /* flock(2), to hold OUT's lock as breakeven does */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsx.h"
#include "gz.h"
#include "host.h"
#include "refine.h"
#include "results.h"
#include "version.h"

static const char *bin;
static char tmpdir[256];

typedef struct outcome {
    int status;      /* exit status, or 128 + signal */
    char *out, *err; /* what it printed (owned) */
} outcome;

static void outcome_free(outcome *o)
{
    free(o->out);
    free(o->err);
}

/* 1 when s begins with prefix. */
static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Starts bin with args (NULL-terminated), stdout and stderr to files. */
static pid_t start(const char *const *args, const char *out, const char *errf)
{
    const char *argv[40];
    int n = 0;
    pid_t pid;
    argv[n++] = bin;
    while (*args && n < 39)
        argv[n++] = *args++;
    argv[n] = NULL;
    pid = fork();
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0)
            _exit(127);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static void finish(pid_t pid, const char *out, const char *errf, outcome *o)
{
    int ws;
    err e;
    assert_true(waitpid(pid, &ws, 0) == pid);
    o->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    assert_int_equal(fsx_read_all(out, &o->out, NULL, &e), BE_OK);
    assert_int_equal(fsx_read_all(errf, &o->err, NULL, &e), BE_OK);
}

static void run(outcome *o, ...)
{
    const char *args[40];
    char out[300], errf[300];
    va_list ap;
    int n = 0;
    va_start(ap, o);
    while (n < 39 && (args[n] = va_arg(ap, const char *)))
        n++;
    va_end(ap);
    args[n] = NULL;
    snprintf(out, sizeof out, "%s/stdout", tmpdir);
    snprintf(errf, sizeof errf, "%s/stderr", tmpdir);
    finish(start(args, out, errf), out, errf, o);
}

/* The last non-empty line of text, copied into buf. */
static void last_line(const char *text, char *buf, size_t size)
{
    size_t n = strlen(text);
    const char *end, *begin;
    while (n > 0 && text[n - 1] == '\n')
        n--;
    end = text + n;
    begin = end;
    while (begin > text && begin[-1] != '\n')
        begin--;
    snprintf(buf, size, "%.*s", (int)(end - begin), begin);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Fails when dir (recursively) holds a leftover temporary file. */
static void assert_no_temp_files(const char *dir)
{
    char cmd[512];
    FILE *p;
    char line[512];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.tmp.*'", dir);
    p = popen(cmd, "r");
    assert_non_null(p);
    if (fgets(line, sizeof line, p))
        fail_msg("temporary file left: %s", line);
    pclose(p);
}

/* The passes that p's summaries stand on: those of the samples they take
 * (results_summary_samples; p->pass set, passes below 64). */
static int summary_passes(const rs_point *p)
{
    int *idx = malloc((size_t)p->nsamples * sizeof *idx + 1), in[64] = {0}, n, k, passes = 0;
    assert_non_null(idx);
    n = results_summary_samples(p, idx);
    for (k = 0; k < n; k++) {
        assert_true(p->pass[idx[k]] >= 0 && p->pass[idx[k]] < 64);
        passes += !in[p->pass[idx[k]]]++;
    }
    free(idx);
    return passes;
}

static void test_quick_run(void **state)
{
    char out[300], path[512];
    outcome o;
    results *r = NULL;
    err e;
    int i, grid;
    (void)state;
    snprintf(out, sizeof out, "%s/q", tmpdir);
    run(&o, "run", "--quick", "--mode", "both", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    last_line(o.out, path, sizeof path);
    assert_non_null(strstr(path, "/runs/"));
    assert_non_null(strstr(path, "/results.xml"));
    assert_non_null(strstr(o.out, "GFLOP/s"));
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(r->partial, 0);
    /* the CPU and an OpenCL device (PoCL where there is no GPU), each
     * labelled with its real type */
    assert_true(r->ndevices >= 2);
    assert_string_equal(r->devices[0].id, "cpu");
    assert_string_equal(r->devices[1].kind, "opencl");
    assert_true(strcmp(r->devices[1].type, "GPU") == 0 || strcmp(r->devices[1].type, "CPU") == 0 ||
                strcmp(r->devices[1].type, "ACCELERATOR") == 0);
    /* --quick: 2 modes × 2 hidden × 2 batch on every device, plus any
     * point the refinement added, which must say why and lie strictly
     * between the grid's batches */
    for (i = 0, grid = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (!p->why[0]) {
            grid++;
            continue;
        }
        assert_non_null(strstr(p->why, "refinement"));
        assert_true(p->batch > 16 && p->batch < 64);
        assert_true(p->hidden == 32 || p->hidden == 128);
    }
    assert_int_equal(grid, 8 * r->ndevices);
    /* three passes over the grid, three more per refinement round, and
     * up to PRECISION_PASSES over uninformative points, numbered in order,
     * each with the machine's state */
    assert_true(r->npasses >= 3 && r->npasses <= 3 * (1 + REFINE_ROUNDS) + PRECISION_PASSES);
    for (i = 0; i < r->npasses; i++) {
        assert_int_equal(r->passes[i].index, i + 1);
        assert_true(r->passes[i].visits > 0 && r->passes[i].seconds > 0.0);
        assert_true(strlen(r->passes[i].started) == 20);
        assert_true(r->passes[i].state.has_loadavg); /* Linux */
    }
    assert_string_equal(r->prov.blas_threads_from,
                        getenv("OPENBLAS_NUM_THREADS") ? "OPENBLAS_NUM_THREADS" : "cores");
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int q, seen[64] = {0}, distinct = 0, taken;
        if (p->status != PT_OK)
            fail_msg("%s h=%d b=%d: %s %s", p->device, p->hidden, p->batch,
                     results_status_name(p->status), p->message);
        assert_true(p->verified && p->checked > 0 && p->max_error <= p->tolerance);
        /* every pass measured the point, at least 3 samples each */
        assert_non_null(p->pass);
        for (q = 0; q < p->nsamples; q++) {
            assert_true(p->pass[q] >= 1 && p->pass[q] <= r->npasses && p->pass[q] < 64);
            distinct += !seen[p->pass[q]]++;
        }
        /* the grid's 3 passes, and the precision passes that visited it */
        assert_true(distinct >= 3 && distinct <= 3 + PRECISION_PASSES);
        for (q = 0; q < 64; q++)
            assert_true(seen[q] == 0 || seen[q] >= 3);
        assert_true(p->nsamples >= 9);
        /* the summaries take every sample, or the near ones where they
         * are at least half (results.h), and stand on the passes those
         * come from */
        taken = results_summary_samples(p, NULL);
        assert_true(taken == p->nsamples || 2 * taken >= p->nsamples);
        assert_int_equal(p->resident.n, taken);
        assert_int_equal(p->resident.passes, summary_passes(p));
        assert_true(p->resident.min <= p->resident.median && p->resident.median <= p->resident.max);
        assert_true(p->resident.ci_lo <= p->resident.median &&
                    p->resident.median <= p->resident.ci_hi);
        /* OpenCL points carry both views (the CPU's and a framework
         * device's, such as torch:cpu, one); with transfers is never
         * faster */
        assert_int_equal(p->has_transfer, strncmp(p->device, "cl:", 3) == 0);
        if (p->has_transfer) {
            int k;
            assert_int_equal(p->transfer.n, taken);
            for (k = 0; k < p->nsamples; k++) {
                const step_times *t = &p->samples[k];
                assert_true(t->kernel > 0.0 && t->h2d >= 0.0 && t->d2h >= 0.0);
                assert_true(t->total >= t->wall);
            }
        }
    }
    assert_int_equal(r->prov.layers, 2);
    assert_true(r->prov.cores >= 1);
    assert_true(strlen(r->prov.blas_version) > 0);
    assert_non_null(strstr(r->prov.command, "--quick"));
    assert_no_temp_files(out);
    results_free(r);
    outcome_free(&o);
}

static void test_usage_errors(void **state)
{
    static const char *const cases[][4] = {
        {"run", "--hidden", "12a", "--hidden"},
        {"run", "--batch", "", "--batch"},
        {"run", "--frobnicate", NULL, "--frobnicate"},
        {"run", "--layers", "-1", "--layers"},
        {"launch", NULL, NULL, "launch"},
        {"run", "--devices", "cl:9.9", "cl:9.9"},
        {"run", "--mode", "fast", "--mode"},
        {"run", "--passes", "21", "--passes"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        outcome o;
        run(&o, cases[i][0], cases[i][1], cases[i][2], NULL);
        if (o.status != 2 || !strstr(o.err, cases[i][3]))
            fail_msg("%s %s: exit %d, stderr: %s", cases[i][0], cases[i][1] ? cases[i][1] : "",
                     o.status, o.err);
        assert_true(strncmp(o.err, "breakeven: ", 11) == 0);
        assert_string_equal(o.out, "");
        outcome_free(&o);
    }
}

static void test_too_big_for_memory(void **state)
{
    char out[300];
    struct stat st;
    outcome o;
    (void)state;
    snprintf(out, sizeof out, "%s/big", tmpdir);
    run(&o, "run", "--hidden", "65536", "--batch", "1048576", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "GiB"));
    assert_int_equal(count_lines(o.err), 1); /* one line, the --help hint in it */
    assert_true(stat(out, &st) != 0);        /* nothing written */
    outcome_free(&o);
}

static void test_unwritable_out(void **state)
{
    char file[300], out[400];
    outcome o;
    err e;
    (void)state;
    snprintf(file, sizeof file, "%s/a-file", tmpdir);
    assert_int_equal(fsx_write_atomic(file, "x", 1, &e), BE_OK);
    snprintf(out, sizeof out, "%s/sub", file);
    run(&o, "run", "--quick", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "a-file"));
    assert_int_equal(count_lines(o.err), 1);
    outcome_free(&o);
}

static void test_interrupt_keeps_partial(void **state)
{
    char out[300], so[300], se[300], path[600];
    const char *args[] = {"run",      "--hidden", "64..512", "--batch", "16..1024",
                          "--budget", "60",       "--out",   out,       NULL};
    struct timespec ts = {1, 500000000};
    DIR *d;
    struct dirent *de;
    results *r = NULL;
    outcome o;
    pid_t pid;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/int", tmpdir);
    snprintf(so, sizeof so, "%s/int.out", tmpdir);
    snprintf(se, sizeof se, "%s/int.err", tmpdir);
    pid = start(args, so, se);
    /* into the sweep: starting the devices (a framework's adapter imports
     * its framework) measures nothing to keep */
    {
        int waited;
        char *text = NULL;
        for (waited = 0; waited < 600; waited++) {
            struct timespec tick = {0, 100000000};
            free(text);
            text = NULL;
            if (fsx_read_all(se, &text, NULL, &e) == BE_OK && strstr(text, ": measuring "))
                break;
            nanosleep(&tick, NULL);
        }
        free(text);
    }
    nanosleep(&ts, NULL);
    kill(pid, SIGINT);
    finish(pid, so, se, &o);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "interrupted"));
    snprintf(path, sizeof path, "%s/runs", out);
    d = opendir(path);
    assert_non_null(d);
    while ((de = readdir(d)))
        if (de->d_name[0] != '.')
            snprintf(path, sizeof path, "%s/runs/%s/results.xml.gz", out, de->d_name);
    closedir(d);
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(r->partial, 1);
    assert_true(r->npoints < 4 * 7 * r->ndevices);
    assert_no_temp_files(out);
    results_free(r);
    outcome_free(&o);
}

/* Whole-file comparison, for "the previous report stays intact". */
static int same_file(const char *a, const char *b)
{
    char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    int same;
    err e;
    if (fsx_read_all(a, &x, &nx, &e) < 0 || fsx_read_all(b, &y, &ny, &e) < 0) {
        free(x);
        return 0;
    }
    same = nx == ny && memcmp(x, y, nx) == 0;
    free(x);
    free(y);
    return same;
}

static void test_report_and_bad_input(void **state)
{
    char out[300], index[400], feed[400], keep_index[400], keep_feed[400], path[600], id[128];
    char runs[400], line[600];
    struct stat st;
    DIR *d;
    struct dirent *de;
    outcome o;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/rep", tmpdir);
    /* `all` = run, then report: the last line is OUT/index.html */
    run(&o, "all", "--quick", "--quiet", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    snprintf(index, sizeof index, "%s/index.html", out);
    snprintf(feed, sizeof feed, "%s/feed.xml", out);
    last_line(o.out, line, sizeof line);
    assert_string_equal(line, index);
    outcome_free(&o);
    assert_true(stat(feed, &st) == 0 && st.st_size > 0);
    snprintf(runs, sizeof runs, "%s/runs", out);
    d = opendir(runs);
    assert_non_null(d);
    id[0] = '\0';
    while ((de = readdir(d)))
        if (de->d_name[0] != '.')
            snprintf(id, sizeof id, "%s", de->d_name);
    closedir(d);
    snprintf(path, sizeof path, "%s/%s/index.html", runs, id);
    assert_true(stat(path, &st) == 0 && st.st_size > 0);
    snprintf(path, sizeof path, "%s/%s/results.csv", runs, id);
    assert_true(stat(path, &st) == 0 && st.st_size > 0);

    snprintf(keep_index, sizeof keep_index, "%s/index.keep", tmpdir);
    snprintf(keep_feed, sizeof keep_feed, "%s/feed.keep", tmpdir);
    {
        char *text;
        size_t len;
        assert_int_equal(fsx_read_all(index, &text, &len, &e), BE_OK);
        assert_int_equal(fsx_write_atomic(keep_index, text, len, &e), BE_OK);
        free(text);
        assert_int_equal(fsx_read_all(feed, &text, &len, &e), BE_OK);
        assert_int_equal(fsx_write_atomic(keep_feed, text, len, &e), BE_OK);
        free(text);
    }

    /* a run id that does not exist */
    run(&o, "report", "--out", out, "no-such-run", NULL);
    assert_true(o.status != 0);
    assert_non_null(strstr(o.err, "no-such-run"));
    assert_int_equal(count_lines(o.err), 1);
    outcome_free(&o);
    run(&o, "compare", "--out", out, id, "no-such-run", NULL);
    assert_true(o.status != 0);
    assert_non_null(strstr(o.err, "no-such-run"));
    outcome_free(&o);

    /* a results file that fails validation: file:line, nothing replaced */
    snprintf(path, sizeof path, "%s/%s/results.xml.gz", runs, id);
    {
        char *z, *text, *hit;
        size_t len;
        assert_int_equal(fsx_read_all(path, &z, &len, &e), BE_OK);
        assert_int_equal(gz_decompress(path, z, len, 1 << 26, &text, &len, &e), BE_OK);
        free(z);
        hit = strstr(text, " batch=\"16\"");
        assert_non_null(hit);
        memcpy(hit, " batch=\"xx\"", 11);
        assert_int_equal(gz_compress(text, len, &z, &len, &e), BE_OK);
        assert_int_equal(fsx_write_atomic(path, z, len, &e), BE_OK);
        free(text);
        free(z);
    }
    run(&o, "report", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "results.xml.gz:"));
    assert_int_equal(count_lines(o.err), 1);
    outcome_free(&o);
    assert_true(same_file(index, keep_index));
    assert_true(same_file(feed, keep_feed));
    assert_no_temp_files(out);
}

/* tune stores winners that `devices` (and every later run) then uses; the
 * cache is a directory of the test's own so other tests keep the defaults */
static void test_tune(void **state)
{
    char cache[300];
    outcome o;
    (void)state;
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    assert_int_equal(setenv("BREAKEVEN_CACHE", cache, 1), 0);
    /* --quick alone says it keeps nothing, and keeps nothing */
    run(&o, "tune", "--quick", "--budget", "3", NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    /* a winner per mode, each named with its options */
    assert_non_null(strstr(o.out, "\ninference #"));
    assert_non_null(strstr(o.out, "\ntraining  #"));
    assert_non_null(strstr(strstr(o.out, "\ntraining  #"), " -DGEMM_LOCAL="));
    assert_non_null(
        strstr(o.out, "not kept (--quick tunes on tiny shapes; add --save to keep it)"));
    assert_null(strstr(o.out, cache));
    outcome_free(&o);
    run(&o, "devices", NULL);
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.out, "kernel_config          tuned"));
    outcome_free(&o);
    run(&o, "tune", "--quick", "--save", "--budget", "3", NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    assert_non_null(strstr(o.out, "\ninference #"));
    assert_non_null(strstr(o.out, cache));
    outcome_free(&o);
    run(&o, "devices", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "kernel_config          tuned"));
    outcome_free(&o);
    run(&o, "tune", "--devices", "cpu", NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "not an OpenCL device"));
    outcome_free(&o);
    assert_int_equal(unsetenv("BREAKEVEN_CACHE"), 0);
}

static void test_devices_help_version(void **state)
{
    outcome o;
    (void)state;
    run(&o, "devices", NULL);
    assert_int_equal(o.status, 0);
    assert_true(strncmp(o.out, "cpu ", 4) == 0);
    assert_non_null(strstr(o.out, "openblas-threads"));
    outcome_free(&o);
    run(&o, "--help", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "usage: breakeven"));
    outcome_free(&o);
    /* the version this build says it is: "breakeven 0.3.0 (commit)" */
    run(&o, "--version", NULL);
    assert_int_equal(o.status, 0);
    assert_true(starts_with(o.out, "breakeven " BE_VERSION " ("));
    outcome_free(&o);
}

/* The id (directory name) of the only run under out/runs. */
static void only_run(const char *out, char *id, size_t size)
{
    char path[600];
    DIR *d;
    struct dirent *de;
    snprintf(path, sizeof path, "%s/runs", out);
    d = opendir(path);
    assert_non_null(d);
    id[0] = '\0';
    while ((de = readdir(d)))
        if (de->d_name[0] != '.')
            snprintf(id, size, "%s", de->d_name);
    closedir(d);
    assert_true(id[0] != '\0');
}

static int file_exists(const char *dir, const char *name)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* `all` = run, then report: the path of index.html last, and every file of
 * the report; then `report` again with bad input. */
static void test_all_and_report(void **state)
{
    char out[300], id[200], line[600], rundir[600], path[900], *before = NULL, *after = NULL;
    outcome o;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/all", tmpdir);
    run(&o, "all", "--quick", "--quiet", "--budget", "1", "--price", "cpu=0.1", "--title",
        "<script>x</script>", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    last_line(o.out, line, sizeof line);
    snprintf(path, sizeof path, "%s/index.html", out);
    assert_string_equal(line, path);
    outcome_free(&o);
    only_run(out, id, sizeof id);
    snprintf(rundir, sizeof rundir, "%s/runs/%s", out, id);
    assert_true(file_exists(out, "feed.xml") && file_exists(out, "style.css"));
    assert_true(file_exists(rundir, "index.html") && file_exists(rundir, "results.csv") &&
                file_exists(rundir, "style.css") && file_exists(rundir, "cost-inference.png"));
    assert_int_equal(fsx_read_all(path, &before, NULL, &e), BE_OK);
    assert_null(strstr(before, "<script>x"));
    assert_non_null(strstr(before, "&lt;script&gt;x"));

    /* a missing run id: one line, non-zero, nothing changed */
    run(&o, "report", "20990101T000000Z-nowhere", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "20990101T000000Z-nowhere"));
    outcome_free(&o);

    /* an unwritable output (a directory where a page goes): one line,
     * non-zero, the previous index intact */
    snprintf(path, sizeof path, "%s/style.css", rundir);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(mkdir(strcat(path, "/x"), 0755), 0);
    run(&o, "report", "--title", "changed", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "style.css"));
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/index.html", out);
    assert_int_equal(fsx_read_all(path, &after, NULL, &e), BE_OK);
    assert_string_equal(after, before);
    assert_no_temp_files(out);
    free(before);
    free(after);

    /* compare a run with itself: the run-level verdict first, and the page */
    run(&o, "compare", id, rundir, "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    assert_true(starts_with(o.out, "cpu inference resident: "));
    last_line(o.out, line, sizeof line);
    assert_non_null(strstr(line, "/compare/"));
    assert_int_equal(access(line, R_OK), 0);
    outcome_free(&o);
    run(&o, "compare", id, NULL);
    assert_int_equal(o.status, 2);
    outcome_free(&o);
}

/* OPENBLAS_NUM_THREADS decides the threads when --threads does not, and
 * the results say so; a malformed value is refused.  --passes 2: every
 * point measured twice. */
static void test_threads_from_environment(void **state)
{
    char out[300], path[600], saved[64] = "";
    const char *was = getenv("OPENBLAS_NUM_THREADS");
    outcome o;
    results *r = NULL;
    err e;
    int i, k;
    (void)state;
    if (was)
        snprintf(saved, sizeof saved, "%s", was);
    snprintf(out, sizeof out, "%s/env", tmpdir);
    assert_int_equal(setenv("OPENBLAS_NUM_THREADS", "1", 1), 0);
    run(&o, "run", "--quick", "--devices", "cpu", "--passes", "2", "--no-refine", "--out", out,
        NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    assert_non_null(strstr(o.err, "1 OpenBLAS threads, as OPENBLAS_NUM_THREADS says"));
    last_line(o.out, path, sizeof path);
    outcome_free(&o);
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(r->prov.blas_threads, 1);
    assert_string_equal(r->prov.blas_threads_from, "OPENBLAS_NUM_THREADS");
    /* the environment is recorded, for the reproduce command */
    assert_non_null(strstr(r->prov.env, "OPENBLAS_NUM_THREADS=1"));
    assert_int_equal(r->npasses, 2);
    for (i = 0; i < r->npoints; i++) {
        int in2 = 0;
        for (k = 0; k < r->points[i].nsamples; k++)
            in2 += r->points[i].pass[k] == 2;
        /* 9 samples a point at least: 5 in each of 2 passes */
        assert_true(in2 >= 5);
        /* 2: near samples alone are taken from 2 passes at least
         * (results.h) */
        assert_int_equal(r->points[i].resident.passes, summary_passes(&r->points[i]));
        assert_int_equal(summary_passes(&r->points[i]), 2);
    }
    results_free(r);
    run(&o, "run", "--quick", "--devices", "cpu", "--threads", "2", "--out", out, NULL);
    assert_int_equal(o.status, 0);
    last_line(o.out, path, sizeof path);
    outcome_free(&o);
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(r->prov.blas_threads, 2);
    assert_string_equal(r->prov.blas_threads_from, "--threads");
    results_free(r);
    assert_int_equal(setenv("OPENBLAS_NUM_THREADS", "lots", 1), 0);
    run(&o, "run", "--quick", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "OPENBLAS_NUM_THREADS"));
    outcome_free(&o);
    assert_int_equal(
        saved[0] ? setenv("OPENBLAS_NUM_THREADS", saved, 1) : unsetenv("OPENBLAS_NUM_THREADS"), 0);
}

/* The lines of text that start (after spaces) with prefix, joined: the
 * samples of a results file, to compare two versions of it. */
static char *lines_with(const char *text, const char *prefix)
{
    size_t n = strlen(text) + 1, used = 0;
    char *out = malloc(n);
    const char *line = text;
    assert_non_null(out);
    out[0] = '\0';
    while (*line) {
        const char *end = strchr(line, '\n'), *p = line;
        size_t len = end ? (size_t)(end - line) : strlen(line);
        while (*p == ' ')
            p++;
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            memcpy(out + used, line, len);
            used += len;
            out[used++] = '\n';
            out[used] = '\0';
        }
        line += len + (end ? 1 : 0);
    }
    return out;
}

/* A results file of breakeven 0.1.0 (no passes, no per-width intervals,
 * the global model's bootstrap), kept under tests/data/: refit rewrites it
 * in place with this version's analysis and new prices, atomically, the
 * samples as they were; it still loads, and the report gives the same
 * verdict refit printed. */
/* A copy of the results file src under run id (started at `started`,
 * on host when not NULL), every sample of every point set to its median
 * times scale — on device dev only, when dev is not NULL — (times
 * 1 + 0.004·(k mod 5 − 2), over three passes) and no other load recorded,
 * so that the intervals are narrow and known. */
typedef struct copy_spec {
    const char *id, *started, *host, *dev;
    double scale;
    const char *version; /* breakeven's version recorded, when not NULL */
    double others;       /* > 0: every pass records others took this share of the CPU */
} copy_spec;

static void run_copy(const char *src, const char *out, const copy_spec *c, char *path, size_t size)
{
    results *r = NULL;
    char dir[700];
    int i, k;
    err e;
    if (results_load(src, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(r->prov.id, sizeof r->prov.id, "%s", c->id);
    if (c->started) {
        snprintf(r->prov.started, sizeof r->prov.started, "%s", c->started);
        snprintf(r->prov.finished, sizeof r->prov.finished, "%s", c->started);
    }
    if (c->host)
        snprintf(r->prov.host, sizeof r->prov.host, "%s", c->host);
    if (c->version)
        snprintf(r->prov.version, sizeof r->prov.version, "%s", c->version);
    for (i = 0; i < r->npasses; i++) { /* as on a quiet machine: no widening */
        r->passes[i].state.has_cpu = c->others > 0.0;
        r->passes[i].state.others_cpu = c->others;
        r->passes[i].state.steal = 0.0;
    }
    for (i = 0; i < r->npoints; i++) {
        rs_point *p = &r->points[i];
        double m = p->resident.median, f = !c->dev || strcmp(p->device, c->dev) == 0 ? c->scale : 1;
        if (p->nsamples == 0)
            continue;
        for (k = 0; k < p->nsamples; k++) {
            double j = 1.0 + 0.004 * (k % 5 - 2);
            if (p->has_transfer) {
                double t = p->samples[k].total / p->samples[k].wall;
                p->samples[k].total = m * f * j * t;
            }
            p->samples[k].wall = m * f * j;
            if (p->pass)
                p->pass[k] = 1 + k % 3;
        }
        assert_int_equal(results_summarize_in(r, p, &e), BE_OK);
    }
    snprintf(dir, sizeof dir, "%s/runs/%s", out, c->id);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    snprintf(path, size, "%s/results.xml", dir);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    results_free(r);
}

static void steady_copy(const char *src, const char *out, const char *id, double scale, char *path,
                        size_t size)
{
    copy_spec c = {id, NULL, NULL, NULL, scale, NULL, 0.0};
    run_copy(src, out, &c, path, size);
}

/* compare's gate and formats, on steady copies of one real run (so the
 * run-level changes are known exactly): replicates against replicates of
 * the same speed give no change (exit 0); against copies 1.5× slower, a
 * regression (exit 3); the other way, faster (exit 0); one run a side is
 * inside the default run-to-run band (exit 4, one line saying why on
 * stderr) unless the change is far beyond it (8×, the copies recording no
 * load, so the uncorrected band, 0.57: 1.51–42.4, exit 3).  Every format
 * leads with the run-level line; the JSON loads with json.load and the CSV
 * with csv.reader; bad usage exits 2. */
static void test_compare_gate(void **state)
{
    static const double fa[3] = {1.0, 1.01, 0.99}, fb[3] = {1.005, 0.995, 1.0};
    char out[300], alone[300], id[200], src[700], a[3][700], b[3][700], s[3][700], x2[700];
    char cmd[6000], name[64];
    outcome o;
    int i;
    (void)state;
    snprintf(out, sizeof out, "%s/gate", tmpdir);
    snprintf(alone, sizeof alone, "%s/gate-alone", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--no-refine", "--devices", "cpu", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    outcome_free(&o);
    only_run(out, id, sizeof id);
    snprintf(src, sizeof src, "%s/runs/%s/results.xml.gz", out, id);
    for (i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "20991230T00000%dZ-calm", i);
        steady_copy(src, out, name, fa[i], a[i], sizeof a[i]);
        snprintf(name, sizeof name, "20991230T00001%dZ-same", i);
        steady_copy(src, out, name, fb[i], b[i], sizeof b[i]);
        snprintf(name, sizeof name, "20991231T00000%dZ-slow", i);
        steady_copy(src, out, name, 1.5 * fa[i], s[i], sizeof s[i]);
    }
    steady_copy(src, alone, "20991231T000000Z-eight", 8.0, x2, sizeof x2);
    run(&o, "compare", a[0], a[1], a[2], "--", b[0], b[1], b[2], "--out", out,
        "--fail-on-regression", NULL);
    if (o.status != 0)
        fail_msg("same speed: exit %d: %s%s", o.status, o.out, o.err);
    assert_true(starts_with(o.out, "cpu inference resident: no change (time \xc3\x97"));
    outcome_free(&o);
    run(&o, "compare", a[0], a[1], a[2], "--", s[0], s[1], s[2], "--out", out,
        "--fail-on-regression", NULL);
    if (o.status != 3)
        fail_msg("1.5x slower: exit %d, not 3: %s%s", o.status, o.out, o.err);
    assert_true(starts_with(o.out, "cpu inference resident: 1.50\xc3\x97 slower ("));
    outcome_free(&o);
    run(&o, "compare", s[0], s[1], s[2], "--", a[0], a[1], a[2], "--out", out,
        "--fail-on-regression", NULL);
    assert_int_equal(o.status, 0); /* faster is no regression */
    assert_non_null(strstr(o.out, "faster"));
    outcome_free(&o);
    /* one run a side, in an OUT with no repeated runs: the default band */
    run(&o, "compare", a[0], b[0], "--out", alone, "--fail-on-regression", NULL);
    if (o.status != 4)
        fail_msg("one run a side: exit %d, not 4: %s%s", o.status, o.out, o.err);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "breakeven: gate open: cannot exclude a slowdown of 5%: cpu "
                                  "inference resident"));
    assert_non_null(strstr(o.err, "; to settle it: "));
    assert_non_null(strstr(o.out, "run-to-run band from the default"));
    outcome_free(&o);
    run(&o, "compare", a[0], x2, "--out", alone, "--fail-on-regression", NULL);
    if (o.status != 3)
        fail_msg("8x slower: exit %d, not 3: %s%s", o.status, o.out, o.err);
    outcome_free(&o);
    run(&o, "compare", a[0], a[1], "--", s[0], "--out", out, "--format", "markdown", NULL);
    assert_int_equal(o.status, 0);
    assert_true(starts_with(o.out, "- **cpu inference resident: "));
    assert_non_null(strstr(o.out,
                           "| device | mode | hidden | batch | A p10 | B p10 | B/A | interval | "
                           "verdict |\n|---|"));
    outcome_free(&o);
    snprintf(cmd, sizeof cmd,
             "%s compare '%s' '%s' '%s' -- '%s' '%s' '%s' --out '%s' --format json --quiet | "
             "python3 -c 'import json, sys; d = json.load(sys.stdin); "
             "assert d[\"verdict\"] == \"slower\", d[\"verdict\"]; "
             "assert d[\"groups\"][0][\"text\"].startswith(\"cpu inference resident\"); "
             "assert len(d[\"runs_b\"]) == 3'",
             getenv("BREAKEVEN"), a[0], a[1], a[2], s[0], s[1], s[2], out);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "%s compare '%s' '%s' '%s' -- '%s' '%s' '%s' --out '%s' --format csv --quiet | "
             "python3 -c 'import csv, sys; rows = list(csv.reader(sys.stdin)); "
             "assert rows[0][:3] == [\"level\", \"device_a\", \"device_b\"], rows[0]; "
             "assert rows[1][0] == \"run\" and rows[1][13] == \"slower\", rows[1]; "
             "assert all(len(r) == len(rows[0]) for r in rows)'",
             getenv("BREAKEVEN"), a[0], a[1], a[2], s[0], s[1], s[2], out);
    assert_int_equal(system(cmd), 0);
    run(&o, "compare", a[0], b[0], "--out", out, "--format", "yaml", NULL);
    assert_int_equal(o.status, 2);
    outcome_free(&o);
    run(&o, "compare", a[0], a[1], b[0], "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "no \"--\" between the sides"));
    outcome_free(&o);
    run(&o, "compare", a[0], "--", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    outcome_free(&o);
    run(&o, "compare", a[0], b[0], "--threshold", "0.9", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    outcome_free(&o);
}

/* Sides chosen from the archive by version (@version=V): the runs of
 * each version are its replicates; a selector that matches nothing, or
 * with an unknown key, is a usage error naming what the archive has; one
 * that picks runs of two versions for one side is refused, one line. */
static void test_compare_selectors(void **state)
{
    static const double f[3] = {1.0, 1.01, 0.99};
    char out[300], id[200], src[700], path[700], name[64], host[256];
    outcome o;
    int i;
    (void)state;
    snprintf(out, sizeof out, "%s/pick", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--no-refine", "--devices", "cpu", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    outcome_free(&o);
    only_run(out, id, sizeof id);
    snprintf(src, sizeof src, "%s/runs/%s/results.xml.gz", out, id);
    for (i = 0; i < 3; i++) {
        copy_spec a = {name, NULL, "pickhost", NULL, f[i], "9.0.0", 0.0};
        copy_spec b = {name, NULL, "pickhost", NULL, 1.5 * f[i], "9.1.0", 0.0};
        snprintf(name, sizeof name, "20991230T00000%dZ-old", i);
        run_copy(src, out, &a, path, sizeof path);
        snprintf(name, sizeof name, "20991231T00000%dZ-new", i);
        run_copy(src, out, &b, path, sizeof path);
    }
    run(&o, "compare", "@version=9.0.0", "@version=9.1.0", "--out", out, "--fail-on-regression",
        NULL);
    if (o.status != 3)
        fail_msg("9.0.0 vs 9.1.0: exit %d, not 3: %s%s", o.status, o.out, o.err);
    assert_true(starts_with(o.out, "cpu inference resident: 1.50\xc3\x97 slower ("));
    assert_non_null(strstr(o.out, "3 runs"));
    outcome_free(&o);
    /* a selector and conditions joined by "," */
    run(&o, "compare", "@version=9.1.0,host=pickhost", "--", "@version=9.0.0", "--out", out,
        "--fail-on-regression", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "faster"));
    outcome_free(&o);
    run(&o, "compare", "@version=9.0.0", "@version=7.7.7", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "side B: @version=7.7.7 matches none of the 7 runs in"));
    assert_non_null(strstr(o.err, "9.0.0, 9.1.0"));
    outcome_free(&o);
    run(&o, "compare", "@colour=red", "@version=9.0.0", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "unknown key \"colour\""));
    outcome_free(&o);
    /* the host picks both versions: one side's replicates must agree */
    snprintf(host, sizeof host, "@host=pickhost");
    run(&o, "compare", host, "@version=9.0.0", "--out", out, NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "side A: runs"));
    outcome_free(&o);
}

/* A run that recorded a busy machine is named near the top of every
 * format of compare — after the run-level lines and the verdict, before
 * the table — and "nothing differs" is never said of it alone; a quiet
 * pair has no warning. */
static void test_compare_warnings(void **state)
{
    char out[300], id[200], src[700], quiet[700], busy[700], calm[700], cmd[4000];
    copy_spec b = {"20991231T000000Z-busy", NULL, NULL, NULL, 1.0, NULL, 0.45};
    outcome o;
    const char *w;
    (void)state;
    snprintf(out, sizeof out, "%s/warn", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--no-refine", "--devices", "cpu", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    outcome_free(&o);
    only_run(out, id, sizeof id);
    snprintf(src, sizeof src, "%s/runs/%s/results.xml.gz", out, id);
    steady_copy(src, out, "20991230T000000Z-quiet", 1.0, quiet, sizeof quiet);
    steady_copy(src, out, "20991230T000001Z-calm", 1.0, calm, sizeof calm);
    run_copy(src, out, &b, busy, sizeof busy);

    run(&o, "compare", quiet, calm, "--out", out, NULL);
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.out, "warning:"));
    assert_non_null(strstr(o.out, "provenance: nothing differs\n"));
    outcome_free(&o);

    run(&o, "compare", quiet, busy, "--out", out, NULL);
    assert_int_equal(o.status, 0);
    assert_true(starts_with(o.out, "cpu inference resident: "));
    w = strstr(o.out, "\nwarning: B 20991231T000000Z-busy recorded busy machine (");
    assert_non_null(w);
    assert_true(w > strstr(o.out, "\nverdict: ")); /* after the verdict */
    assert_true(w < strstr(o.out, "A = "));        /* before the table */
    assert_null(strstr(o.out, "warning: A"));
    assert_non_null(strstr(o.out, "provenance: nothing differs, but the machine's state may have"));
    outcome_free(&o);

    run(&o, "compare", quiet, busy, "--out", out, "--format", "markdown", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "> warning: B 20991231T000000Z-busy recorded busy machine ("));
    assert_null(strstr(o.out, "**Provenance: nothing differs**\n"));
    outcome_free(&o);

    snprintf(cmd, sizeof cmd,
             "%s compare '%s' '%s' --out '%s' --format json --quiet | "
             "python3 -c 'import json, sys; d = json.load(sys.stdin); "
             "w = d[\"warnings\"]; assert len(w) == 1, w; "
             "assert w[0][\"side\"] == \"B\" and w[0][\"run\"] == "
             "\"20991231T000000Z-busy\", w; "
             "assert w[0][\"text\"].startswith(\"busy machine (\"), w; "
             "assert d[\"warnings_more\"] == 0'",
             getenv("BREAKEVEN"), quiet, busy, out);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "%s compare '%s' '%s' --out '%s' --format csv --quiet | "
             "python3 -c 'import csv, sys; rows = list(csv.reader(sys.stdin)); "
             "assert all(len(r) == len(rows[0]) for r in rows); "
             "w = [r for r in rows if r[0] == \"warning\"]; assert len(w) == 1, w; "
             "assert w[0][14].startswith(\"warning: B 20991231T000000Z-busy recorded busy "
             "machine (\"), w; "
             "assert [r[0] for r in rows].index(\"warning\") < "
             "[r[0] for r in rows].index(\"point\")'",
             getenv("BREAKEVEN"), quiet, busy, out);
    assert_int_equal(system(cmd), 0);
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (; (text = strstr(text, what)) != NULL; text++)
        n++;
    return n;
}

/* run --repeat 2: two runs, each its own directory, results with the
 * machine's reference and the CPUs' round trips in every pass; compare
 * takes them as A and B. */
static void test_run_repeat(void **state)
{
    char out[300], path[600], ids[2][200];
    outcome o;
    DIR *d;
    struct dirent *de;
    int n = 0;
    (void)state;
    snprintf(out, sizeof out, "%s/repeat", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--no-refine", "--devices", "cpu", "--passes", "2",
        "--repeat", "2", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/runs", out);
    assert_non_null(d = opendir(path));
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && n < 2)
            snprintf(ids[n++], sizeof ids[0], "%s", de->d_name);
    closedir(d);
    assert_int_equal(n, 2);
    snprintf(path, sizeof path, "%s/runs/%s/results.xml.gz", out, ids[0]);
    {
        char *packed = NULL, *text = NULL;
        size_t len = 0, tlen = 0;
        err e;
        assert_int_equal(fsx_read_all(path, &packed, &len, &e), BE_OK);
        assert_int_equal(gz_decompress(path, packed, len, (size_t)64 << 20, &text, &tlen, &e),
                         BE_OK);
        assert_int_equal(count_of(text, " ref-loop=\""), 2);
        /* the round trip between the host's CPUs is timed around a pass's
         * visits where the machine lets its pinned threads meet (a busy
         * one may not: a machine's property, not asserted): once a pass
         * at most */
        assert_true(count_of(text, " hop-checks=\"") <= 2);
        free(packed);
        free(text);
    }
    run(&o, "compare", ids[0], ids[1], "--out", out, NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "the machine's reference (a fixed C loop"));
    outcome_free(&o);
}

/* Issue 45: the run-to-run band learned from the archive's earlier runs
 * of the same host and software: none for the first two runs, learned
 * from 2 for the third (said on stderr, kept in its file), none for a
 * run whose grid differs (other software, as compare_provenance says). */
static char *run_text(const char *out, const char *id)
{
    char path[600], *packed = NULL, *text = NULL;
    size_t len = 0, tlen = 0;
    err e;
    snprintf(path, sizeof path, "%s/runs/%s/results.xml.gz", out, id);
    assert_int_equal(fsx_read_all(path, &packed, &len, &e), BE_OK);
    assert_int_equal(gz_decompress(path, packed, len, (size_t)64 << 20, &text, &tlen, &e), BE_OK);
    free(packed);
    return text;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_run_band(void **state)
{
    char out[300], path[400], ids[4][200], *text;
    outcome o;
    DIR *d;
    struct dirent *de;
    int n = 0, k;
    (void)state;
    snprintf(out, sizeof out, "%s/band", tmpdir);
    run(&o, "run", "--quick", "--hidden", "16,32,64", "--no-refine", "--devices", "cpu", "--passes",
        "2", "--repeat", "3", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    assert_int_equal(count_of(o.err, "note: how far one run lies from another"), 1);
    assert_non_null(strstr(o.err, "learned from 2 earlier runs of this host and software: cpu "));
    outcome_free(&o);
    run(&o, "run", "--quick", "--hidden", "16,32", "--no-refine", "--devices", "cpu", "--passes",
        "2", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    assert_null(strstr(o.err, "note: how far one run lies from another"));
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/runs", out);
    assert_non_null(d = opendir(path));
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && n < 4)
            snprintf(ids[n++], sizeof ids[0], "%s", de->d_name);
    closedir(d);
    assert_int_equal(n, 4);
    qsort(ids, 4, sizeof ids[0], by_name);
    for (k = 0; k < 4; k++) {
        text = run_text(out, ids[k]);
        assert_int_equal(count_of(text, " run-sd-runs=\"2\" run-sd=\"0."), k == 2);
        assert_int_equal(count_of(text, " run-sd-runs=\""), k == 2);
        free(text);
    }
    /* refit learns again from the runs before the one refitted, as run
     * did: the third from the two before it, the second from one (none) */
    for (k = 1; k <= 2; k++) {
        run(&o, "refit", ids[k], "--out", out, NULL);
        if (o.status != 0)
            fail_msg("exit %d: %s", o.status, o.err);
        assert_int_equal(count_of(o.err, "learned from 2 earlier runs of this host"), k == 2);
        outcome_free(&o);
        text = run_text(out, ids[k]);
        assert_int_equal(count_of(text, " run-sd-runs=\"2\" run-sd=\"0."), k == 2);
        assert_int_equal(count_of(text, " run-sd-runs=\""), k == 2);
        free(text);
    }
}

static int count_items(const char *feed)
{
    return count_of(feed, "<item>");
}

/* The site's settings persist in OUT: two runs, `report --base-url URL
 * --author A`, then `report` alone: the feed's links stay absolute, every
 * guid is unchanged and names the run alone, the author stays; `report
 * RUN` keeps every run in the feed. */
static void test_site_settings(void **state)
{
    char out[300], path[400], *first = NULL, *second = NULL, *third = NULL, *a, *b, id[200];
    outcome o;
    err e;
    int k;
    (void)state;
    snprintf(out, sizeof out, "%s/site", tmpdir);
    for (k = 0; k < 2; k++) {
        run(&o, "run", "--quick", "--quiet", "--no-refine", "--devices", "cpu", "--out", out, NULL);
        if (o.status != 0)
            fail_msg("exit %d: %s", o.status, o.err);
        outcome_free(&o);
        sleep(1); /* run ids are by the second */
    }
    run(&o, "report", "--quiet", "--out", out, "--base-url", "https://example.org/b", "--author",
        "Ann Author", NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/feed.xml", out);
    assert_int_equal(fsx_read_all(path, &first, NULL, &e), BE_OK);
    run(&o, "report", "--quiet", "--out", out, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    assert_int_equal(fsx_read_all(path, &second, NULL, &e), BE_OK);
    assert_non_null(strstr(second, "<link>https://example.org/b/runs/"));
    assert_non_null(strstr(second, "<dc:creator>Ann Author</dc:creator>"));
    /* the guids, in order, are the same in both */
    for (a = first, b = second; (a = strstr(a, "<guid")) != NULL; a++, b++) {
        b = strstr(b, "<guid");
        assert_non_null(b);
        assert_int_equal(strncmp(a, b, 70), 0);
        assert_int_equal(strncmp(strchr(a, '>'), ">breakeven:run:", 15), 0);
    }
    only_run(out, id, sizeof id);
    run(&o, "report", "--quiet", "--out", out, id, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    assert_int_equal(fsx_read_all(path, &third, NULL, &e), BE_OK);
    assert_int_equal(count_items(third), 2);
    /* the exports: one tidy table of every run, the fits, each run's JSON */
    {
        char cmd[1200], *csv = NULL;
        int rows = 0;
        const char *q;
        snprintf(path, sizeof path, "%s/results.csv", out);
        assert_int_equal(fsx_read_all(path, &csv, NULL, &e), BE_OK);
        for (q = csv; (q = strchr(q, '\n')) != NULL; q++)
            rows++;
        assert_int_equal(rows, 1 + 2 * 4); /* the header, 4 points of each run */
        assert_non_null(strstr(csv, ",usd_per_step\r\n"));
        free(csv);
        assert_true(file_exists(out, "fits.csv"));
        snprintf(cmd, sizeof cmd,
                 "for f in '%s'/runs/*/results.json; do python3 -m json.tool "
                 "\"$f\" > /dev/null || exit 1; done; ls '%s'/runs/*/summary.md > /dev/null",
                 out, out);
        assert_int_equal(system(cmd), 0);
    }
    /* the settings file is input like any other */
    snprintf(path, sizeof path, "%s/site.conf", out);
    assert_int_equal(fsx_write_atomic(path, "# x\ntitle ok\ncolour red\n", 22, &e), BE_OK);
    run(&o, "report", "--quiet", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "site.conf:3: \"colour\" is not a setting"));
    assert_int_equal(count_lines(o.err), 1);
    outcome_free(&o);
    free(first);
    free(second);
    free(third);
}

static void test_refit_0_1_0(void **state)
{
    char src[512], dir[300], runs[400], path[600], line[2048], *before, *after, *a, *b;
    const char *here = __FILE__, *slash = strrchr(here, '/');
    struct stat st0, st1;
    results *r = NULL;
    outcome o;
    err e;
    size_t len;
    int i, intervals = 0;
    (void)state;

    snprintf(src, sizeof src, "%.*s/data/results-0.1.0.xml", slash ? (int)(slash - here) : 1,
             slash ? here : ".");
    assert_int_equal(fsx_read_all(src, &before, &len, &e), BE_OK);
    assert_non_null(strstr(before, "<breakeven version=\"0.1.0\""));
    assert_null(strstr(before, "analysis="));
    assert_null(strstr(before, " pass=\""));
    snprintf(dir, sizeof dir, "%s/refit", tmpdir);
    /* a run's directory is named by its id (archive.c refuses others) */
    snprintf(runs, sizeof runs, "%s/runs/20261123T073413Z-vm", dir);
    assert_int_equal(fsx_mkdirs(runs, &e), BE_OK);
    snprintf(path, sizeof path, "%s/results.xml", runs);
    assert_int_equal(fsx_write_atomic(path, before, len, &e), BE_OK);
    assert_int_equal(stat(path, &st0), 0);

    /* a price for a device the run does not have: refused, nothing written */
    run(&o, "refit", "--out", dir, "20261123T073413Z-vm", "--price", "cl:7.7=1", NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "cl:7.7"));
    outcome_free(&o);
    assert_int_equal(stat(path, &st1), 0);
    assert_true(st1.st_ino == st0.st_ino);

    run(&o, "refit", "--out", dir, "20261123T073413Z-vm", "--price", "cl:0.0=0.07", NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    last_line(o.out, line, sizeof line);
    assert_string_equal(line, path);
    assert_non_null(strstr(o.out, "In inference with data resident, PoCL (CPU) "));
    assert_non_null(strstr(o.out, " shapes measured"));
    assert_non_null(strstr(o.out, "per hidden width"));
    assert_non_null(strstr(o.err, "no passes"));
    /* in place, atomically: a new file renamed over the old one */
    assert_int_equal(stat(path, &st1), 0);
    assert_true(st1.st_ino != st0.st_ino);
    assert_no_temp_files(dir);
    assert_int_equal(fsx_read_all(path, &after, &len, &e), BE_OK);
    assert_non_null(strstr(after, "<fit seed=\"1\" analysis=\"2\""));
    assert_non_null(strstr(after, "<price device=\"cpu\" usd-per-hour=\"0.10000000000000001\""));
    assert_non_null(
        strstr(after, "<price device=\"cl:0.0\" usd-per-hour=\"0.070000000000000007\""));
    assert_non_null(strstr(after, "<breakeven version=\"0.1.0\""));
    /* the samples untouched, to the last digit */
    a = lines_with(before, "<s ");
    b = lines_with(after, "<s ");
    assert_true(strlen(a) > 1000);
    assert_string_equal(a, b);
    free(a);
    free(b);

    /* it loads, with the new analysis */
    assert_int_equal(results_load(path, &r, &e), BE_OK);
    assert_int_equal(r->fit.analysis, 2);
    assert_true(r->fit.ncross >= 4); /* time and cost, resident and with transfers */
    for (i = 0; i < r->fit.ncross; i++)
        intervals += r->fit.cross[i].nhidden > 0 && r->fit.cross[i].per_hidden[0].batch_hi > 0.0;
    assert_true(intervals > 0);
    for (i = 0; i < r->fit.nmodels; i++)
        assert_true(r->fit.models[i].t0 >= 0.0);
    results_free(r);

    /* the report renders, and says what refit printed */
    {
        char index[500], *html, first[2048];
        const char *s = strstr(o.out, "In inference with data resident");
        const char *end = strchr(s, '\n');
        snprintf(first, sizeof first, "%.*s", (int)(end - s), s);
        outcome_free(&o);
        run(&o, "report", "--out", dir, NULL);
        if (o.status != 0)
            fail_msg("exit %d: %s", o.status, o.err);
        outcome_free(&o);
        snprintf(index, sizeof index, "%s/index.html", dir);
        assert_int_equal(fsx_read_all(index, &html, &len, &e), BE_OK);
        /* the same verdict: the count of shapes it gives, "at none of
         * the 12 shapes measured" (the page names the devices its own
         * way, issue 40) */
        {
            char *m = strstr(first, " shapes measured"), *at = m;
            assert_non_null(m);
            while (at > first && strncmp(at, " at ", 4) != 0)
                at--;
            m[strlen(" shapes measured")] = '\0';
            assert_non_null(strstr(html, at + 1));
        }
        free(html);
    }
    free(before);
    free(after);
}

/* The history of two hosts.  From one results file with two devices:
 * host alpha, eight runs in which cl:0.0's times are 1, 1, 1.6 (a lone
 * outlier), 1, 1, then 0.7 three times (a real step); host beta, two
 * steady runs.  Each copy is refitted.  The report's history page has a
 * section per host; the step is found at the sixth run of alpha, and
 * named on that run's page and as its own feed item; the outlier's run is
 * named by no change; the index shows both hosts side by side. */
static void test_history_hosts(void **state)
{
    static const double scale[8] = {1, 1, 1.6, 1, 1, 0.7, 0.7, 0.7};
    char src[512], out[300], ids[10][64], when[10][32], path[800], *html = NULL, *feed = NULL;
    const char *here = __FILE__, *slash = strrchr(here, '/');
    outcome o;
    err e;
    int i;
    (void)state;
    snprintf(src, sizeof src, "%.*s/data/results-0.1.0.xml", slash ? (int)(slash - here) : 1,
             slash ? here : ".");
    snprintf(out, sizeof out, "%s/history", tmpdir);
    for (i = 0; i < 10; i++) {
        copy_spec c;
        snprintf(ids[i], sizeof ids[i], "2099010%dT0%d0000Z-%s", i < 8 ? 1 : 2, i,
                 i < 8 ? "alpha" : "beta");
        snprintf(when[i], sizeof when[i], "2099-01-0%dT0%d:00:00Z", i < 8 ? 1 : 2, i);
        c.id = ids[i];
        c.started = when[i];
        c.host = i < 8 ? "alpha" : "beta";
        c.dev = "cl:0.0";
        c.scale = i < 8 ? scale[i] : 1.0;
        c.version = NULL;
        c.others = 0.0;
        run_copy(src, out, &c, path, sizeof path);
        run(&o, "refit", "--quiet", path, NULL);
        if (o.status != 0)
            fail_msg("refit %s: exit %d: %s", ids[i], o.status, o.err);
        outcome_free(&o);
    }
    run(&o, "report", "--quiet", "--out", out, NULL);
    if (o.status != 0)
        fail_msg("report: exit %d: %s", o.status, o.err);
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/history.html", out);
    assert_int_equal(fsx_read_all(path, &html, NULL, &e), BE_OK);
    assert_non_null(strstr(html, "<h2>Host alpha</h2>"));
    assert_non_null(strstr(html, "<h2>Host beta</h2>"));
    assert_non_null(strstr(html, "history/s1-crossover.png"));
    /* devices by name, never the driver's raw string */
    assert_non_null(strstr(html, "PoCL (CPU) against OpenBLAS"));
    assert_null(strstr(html, "cl:0.0 (pthread"));
    {
        /* the step: cl:0.0's peak rose by 1/0.7 − 1 ≈ 43% from run 6 */
        char want[300];
        snprintf(want, sizeof want, "peak throughput rose 43%%");
        assert_non_null(strstr(html, want));
        snprintf(want, sizeof want, "from run %s", ids[5]);
        assert_non_null(strstr(html, want));
        /* no change at the outlier, nor at beta's runs, nor on cpu */
        snprintf(want, sizeof want, "from run %s", ids[2]);
        assert_null(strstr(html, want));
        snprintf(want, sizeof want, "from run %s", ids[3]);
        assert_null(strstr(html, want));
        assert_null(strstr(html, "from run 20990102"));
        /* the whole run moved with it: cl:0.0's run-level step time (the
         * statistic of compare) fell by 30%, cpu's did not move (counted in
         * the page's body: its link-preview tags repeat the first change) */
        const char *body = strstr(html, "<body");
        assert_non_null(body);
        assert_non_null(strstr(html, "step times are their 10th percentiles' geometric mean "
                                     "over the"));
        assert_int_equal(count_of(body, "step times fell 30%"), 1);
        assert_int_equal(count_of(body, "step times rose"), 0);
        /* one peak moved: cl:0.0's, not cpu's */
        assert_int_equal(
            count_of(body, ": peak throughput rose") + count_of(body, ": peak throughput fell"), 1);
    }
    free(html);
    snprintf(path, sizeof path, "%s/runs/%s/index.html", out, ids[5]);
    assert_int_equal(fsx_read_all(path, &html, NULL, &e), BE_OK);
    assert_non_null(strstr(html, "Changes that start at this run"));
    assert_non_null(strstr(html, "../../history.html#s1"));
    free(html);
    snprintf(path, sizeof path, "%s/runs/%s/index.html", out, ids[2]);
    assert_int_equal(fsx_read_all(path, &html, NULL, &e), BE_OK);
    assert_null(strstr(html, "Changes that start at this run"));
    assert_non_null(strstr(html, "href=\"../../history.html\">History</a>"));
    free(html);
    snprintf(path, sizeof path, "%s/feed.xml", out);
    assert_int_equal(fsx_read_all(path, &feed, NULL, &e), BE_OK);
    {
        char want[300];
        snprintf(want, sizeof want, ">breakeven:change:%s:inference:cpu:cl:0.0:peak-cl:0.0</guid>",
                 ids[5]);
        assert_non_null(strstr(feed, want));
    }
    assert_int_equal(count_items(feed) > 10, 1);
    free(feed);
    /* both hosts side by side on the index */
    assert_true(file_exists(out, "hosts-throughput-inference.png"));
    snprintf(path, sizeof path, "%s/index.html", out);
    assert_int_equal(fsx_read_all(path, &html, NULL, &e), BE_OK);
    assert_non_null(strstr(html, "All machines"));
    assert_non_null(strstr(html, "beta/cl:0.0"));
    free(html);
}

/* The run `id` under out, loaded. */
static results *load_run(const char *out, const char *id)
{
    char path[900];
    results *r = NULL;
    err e;
    snprintf(path, sizeof path, "%s/runs/%s/results.xml.gz", out, id);
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return r;
}

/* The two runs under out, oldest first (ids sort by time). */
static void two_runs(const char *out, char *a, char *b, size_t size)
{
    char path[600];
    struct dirent **names;
    int n, i, k = 0;
    snprintf(path, sizeof path, "%s/runs", out);
    n = scandir(path, &names, NULL, alphasort);
    assert_true(n >= 0);
    for (i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && k < 2)
            snprintf(k++ ? b : a, size, "%s", names[i]->d_name);
        free(names[i]);
    }
    free(names);
    assert_int_equal(k, 2);
}

/* `ab`: side B made slower by a real slower BLAS in front of OpenBLAS
 * (tests/slowblas.c, 3× every GEMM): exit 3, what differs first (the
 * interposed library), both runs archived and marked as one pair, and
 * the comparison page; the pair's A run against a copy of itself as B
 * (known pairs: every one the same) passes the gate, exit 0; a side that
 * crashes leaves the other's passes as a partial run, exit 1, one line;
 * a binary that is no breakeven, or sides that measure other devices,
 * exit 2, one line. */
static void test_ab(void **state)
{
    char lib[700], pre[800], out[300], out2[300], ida[200], idb[200], page[900];
    char self[600];
    ssize_t n;
    results *ra, *rb;
    outcome o;
    err e;
    (void)state;
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(lib, sizeof lib, "%s/libslowblas.so", self);
    assert_int_equal(access(lib, R_OK), 0);
    snprintf(pre, sizeof pre, "LD_PRELOAD=%s", lib);
    snprintf(out, sizeof out, "%s/ab", tmpdir);
    /* a sanitized breakeven must not refuse a library loaded before its
     * runtime */
    run(&o, "ab", "--quick", "--devices", "cpu", "--passes", "4", "--quiet", "--out", out,
        "--env-b", pre, "--env-b", "BREAKEVEN_SLOWBLAS=3", "--env-b",
        "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0", NULL);
    if (o.status != 3)
        fail_msg("B 3x slower: exit %d, not 3: %s%s", o.status, o.out, o.err);
    assert_true(
        starts_with(o.out, "what differs: environment LD_PRELOAD: (not set) \xe2\x86\x92 "));
    assert_non_null(strstr(o.out, "\ncpu inference resident: "));
    assert_non_null(strstr(o.out, "\xc3\x97 slower ("));
    assert_non_null(strstr(o.out, ", 4 paired passes; could detect \xc3\x97"));
    assert_non_null(strstr(o.out, "gate (a slowdown of 5% or more): fail"));
    outcome_free(&o);
    two_runs(out, ida, idb, sizeof ida);
    ra = load_run(out, ida);
    rb = load_run(out, idb);
    assert_string_equal(ra->prov.pair, rb->prov.pair);
    assert_true(ra->prov.pair[0] != '\0');
    assert_int_equal(ra->prov.pair_side + rb->prov.pair_side, 'A' + 'B');
    assert_int_equal(ra->npasses, 4);
    assert_int_equal(ra->partial, 0);
    assert_non_null(strstr(ra->prov.pair_side == 'B' ? ra->prov.env : rb->prov.env, "LD_PRELOAD="));
    snprintf(page, sizeof page, "%s/compare/%s..%s.html", out,
             ra->prov.pair_side == 'A' ? ida : idb, ra->prov.pair_side == 'A' ? idb : ida);
    assert_int_equal(access(page, R_OK), 0);
    /* known pairs: side A against itself as side B */
    snprintf(out2, sizeof out2, "%s/ab-same", tmpdir);
    {
        results *x = ra->prov.pair_side == 'A' ? ra : rb;
        char dir[700], path[800], id[200];
        snprintf(id, sizeof id, "%s-copy", x->prov.id);
        snprintf(dir, sizeof dir, "%s/runs/%s", out2, x->prov.id);
        assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
        snprintf(path, sizeof path, "%s/results.xml", dir);
        assert_int_equal(results_save(x, NULL, path, &e), BE_OK);
        snprintf(x->prov.id, sizeof x->prov.id, "%s", id);
        x->prov.pair_side = 'B';
        snprintf(dir, sizeof dir, "%s/runs/%s", out2, id);
        assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
        snprintf(path, sizeof path, "%s/results.xml", dir);
        assert_int_equal(results_save(x, NULL, path, &e), BE_OK);
    }
    results_free(ra);
    results_free(rb);
    two_runs(out2, ida, idb, sizeof ida);
    run(&o, "compare", ida, idb, "--out", out2, "--fail-on-regression", NULL);
    if (o.status != 0)
        fail_msg("known pairs: exit %d, not 0: %s%s", o.status, o.out, o.err);
    assert_true(starts_with(o.out, "cpu inference resident: no change (time \xc3\x97"
                                   "1.00, "
                                   "1.00\xe2\x80\x93"
                                   "1.00, within \xc2\xb1"
                                   "5%), "));
    assert_non_null(strstr(o.out, "run-to-run band from the pairs of passes themselves (4,"));
    outcome_free(&o);
    /* side B crashes in its first pass: A's pass is kept, partial */
    snprintf(out, sizeof out, "%s/ab-crash", tmpdir);
    run(&o, "ab", "--quick", "--devices", "cpu", "--passes", "3", "--quiet", "--out", out,
        "--env-b", pre, "--env-b", "BREAKEVEN_SLOWBLAS=crash", "--env-b",
        "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0", NULL);
    if (o.status != 1)
        fail_msg("B crashes: exit %d, not 1: %s%s", o.status, o.out, o.err);
    assert_int_equal(count_lines(o.err), 1);
    assert_true(starts_with(o.err, "breakeven: ab: side B was killed by signal 6; side A's passes "
                                   "are kept as a partial run "));
    assert_non_null(strstr(o.err, "; the pair is partial\n"));
    outcome_free(&o);
    two_runs(out, ida, idb, sizeof ida);
    ra = load_run(out, ida);
    rb = load_run(out, idb);
    if (ra->prov.pair_side != 'A') {
        results *t = ra;
        ra = rb;
        rb = t;
    }
    assert_int_equal(ra->prov.pair_side, 'A');
    assert_int_equal(ra->partial, 1);
    assert_int_equal(ra->npasses, 1);
    assert_int_equal(rb->npasses, 0); /* B died in its first pass */
    results_free(ra);
    results_free(rb);
    /* not a breakeven; other devices */
    run(&o, "ab", "--quick", "--quiet", "--out", out, "--binary-b", "/bin/true", NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_lines(o.err), 1);
    assert_non_null(strstr(o.err, "ab: side B: /bin/true is not a breakeven"));
    outcome_free(&o);
    run(&o, "ab", "--quick", "--quiet", "--out", out, "--env-a", "OCL_ICD_VENDORS=/nonexistent",
        NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_lines(o.err), 1);
    /* A without OpenCL, B with it (each with the framework devices that
     * start, torch:cpu where PyTorch is) */
    assert_non_null(strstr(o.err, "ab: the sides measure different devices: A cpu"));
    assert_null(strstr(o.err, "A cpu,cl:0.0"));
    assert_non_null(strstr(o.err, ", B cpu,cl:0.0"));
    outcome_free(&o);
    run(&o, "ab", "--quick", "--quiet", "--out", out, "--env-a", "=x", NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "--env-a: \"=x\" is not NAME=value"));
    outcome_free(&o);
}

/* ---- one writer at a time per OUT (outlock.h) ---- */

/* The runs archived under out: directories of runs/ not named with a dot;
 * each with its results file and its page, and its item in the feed
 * exactly once. */
static int published_runs(const char *out)
{
    char path[900], *feed = NULL, want[400];
    struct dirent *de;
    DIR *d;
    int n = 0;
    err e;
    snprintf(path, sizeof path, "%s/feed.xml", out);
    if (fsx_read_all(path, &feed, NULL, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(path, sizeof path, "%s/runs", out);
    assert_non_null(d = opendir(path));
    while ((de = readdir(d))) {
        const char *hit;
        struct stat st;
        snprintf(path, sizeof path, "%s/runs/%s", out, de->d_name);
        if (de->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        n++;
        snprintf(path, sizeof path, "%s/runs/%s", out, de->d_name);
        if (!file_exists(path, "results.xml.gz") || !file_exists(path, "index.html"))
            fail_msg("run %s: not archived and published whole", de->d_name);
        snprintf(want, sizeof want, ">breakeven:run:%s</guid>", de->d_name);
        if (!(hit = strstr(feed, want)) || strstr(hit + 1, want))
            fail_msg("run %s: not once in the feed", de->d_name);
    }
    closedir(d);
    free(feed);
    return n;
}

/* Fails when out holds anything a writer stages or leaves while it
 * writes: a stage file, a publish list, a temporary, an import's
 * staging directory. */
static void assert_nothing_staged(const char *out)
{
    char cmd[700], line[600];
    FILE *p;
    snprintf(cmd, sizeof cmd,
             "find '%s' -name '*.stage' -o -name '.publish*' -o -name '*.tmp.*' -o -name "
             "'.import-*'",
             out);
    assert_non_null(p = popen(cmd, "r"));
    if (fgets(line, sizeof line, p))
        fail_msg("left behind: %s", line);
    pclose(p);
}

/* 1 when every line of text is the note of a command that waited for
 * another writing out. */
static int only_waiting_notes(const char *text, const char *out)
{
    char want[600];
    const char *line = text;
    snprintf(want, sizeof want, "breakeven: waiting for another breakeven writing %s (pid ", out);
    for (; *line; line = strchr(line, '\n') + 1) {
        if (!starts_with(line, want) || !strchr(line, '\n'))
            return 0;
    }
    return 1;
}

/* Two and three commands writing one OUT at once, `all --quick` and
 * `report`, in three rounds: every command exits 0 (a note on stderr at
 * most, when it waited), every run is archived and published once, and
 * nothing staged is left.  Without OUT's lock a report took the other's
 * pending publish list for an abandoned one and rolled it back ("D/.publish:
 * cannot publish: No such file or directory", exit 1, a stage file left). */
static void test_concurrent_writers(void **state)
{
    char out[300], so[3][300], se[3][300];
    const char *all[] = {"all", "--quick", "--quiet", "--devices", "cpu", "--budget",
                         "1",   "--jobs",  "2",       "--out",     out,   NULL};
    const char *rep[] = {"report", "--quiet", "--full", "--out", out, NULL};
    pid_t pid[3];
    outcome o;
    int round, k, alls = 0;
    (void)state;
    snprintf(out, sizeof out, "%s/together", tmpdir);
    for (round = 0; round < 3; round++) {
        /* two at once, then three (the third a report of what is there) */
        int n = round == 0 ? 2 : 3;
        for (k = 0; k < n; k++) {
            snprintf(so[k], sizeof so[k], "%s/together%d.out", tmpdir, k);
            snprintf(se[k], sizeof se[k], "%s/together%d.err", tmpdir, k);
            pid[k] = start(k == 2 ? rep : all, so[k], se[k]);
            assert_true(pid[k] > 0);
        }
        for (k = 0; k < n; k++) {
            finish(pid[k], so[k], se[k], &o);
            if (o.status != 0 || !only_waiting_notes(o.err, out))
                fail_msg("round %d, %s: exit %d: %s", round + 1, k == 2 ? "report" : "all",
                         o.status, o.err);
            outcome_free(&o);
        }
        alls += 2;
        assert_int_equal(published_runs(out), alls);
        assert_nothing_staged(out);
    }
}

/* A report killed with SIGKILL while it holds OUT's lock with files
 * staged: the kernel released the lock, and the next report recovers the
 * killed one's publish (its stage files removed) and publishes whole. */
static void test_killed_writer(void **state)
{
    char out[300], so[300], se[300], path[600];
    char title[32];
    /* a title of its own each try: every page changes, so every page is
     * staged (a page that holds its bytes already is left as it is) */
    const char *rep[] = {"report", "--quiet", "--jobs", "1", "--title", title, "--out", out, NULL};
    struct timespec tick = {0, 200000};
    int tries, staged = 0;
    outcome o;
    (void)state;
    snprintf(out, sizeof out, "%s/killed", tmpdir);
    snprintf(so, sizeof so, "%s/killed.out", tmpdir);
    snprintf(se, sizeof se, "%s/killed.err", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--devices", "cpu", "--budget", "1", "--out", out, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    run(&o, "run", "--quick", "--quiet", "--devices", "cpu", "--budget", "1", "--out", out, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/.publish.pending", out);
    /* kill it once its pending list holds a staged file (it holds the
     * lock from before its list is made until after it is gone) */
    for (tries = 0; tries < 20 && !staged; tries++) {
        pid_t pid;
        int i, ws;
        struct stat st;
        snprintf(title, sizeof title, "try %d", tries);
        pid = start(rep, so, se);
        for (i = 0; i < 50000 && !staged; i++) {
            staged = stat(path, &st) == 0 && st.st_size > 0;
            if (!staged && waitpid(pid, &ws, WNOHANG) == pid)
                break;
            if (!staged)
                nanosleep(&tick, NULL);
        }
        if (staged) {
            char *text = NULL, lock[400], holder[32];
            err e;
            kill(pid, SIGKILL);
            assert_true(waitpid(pid, &ws, 0) == pid);
            assert_true(WIFSIGNALED(ws));
            /* it held the lock: its pid is the holder's */
            snprintf(lock, sizeof lock, "%s/.lock", out);
            assert_int_equal(fsx_read_all(lock, &text, NULL, &e), BE_OK);
            snprintf(holder, sizeof holder, "%-10ld\n", (long)pid);
            assert_string_equal(text, holder);
            free(text);
        } else if (i == 50000) {
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
        }
    }
    if (!staged)
        fail_msg("no report was caught with a file staged in %d tries", tries);
    /* the kernel released the killed one's lock: no wait, no note */
    run(&o, "report", "--quiet", "--no-wait", "--out", out, NULL);
    if (o.status != 0 || o.err[0])
        fail_msg("after the killed report: exit %d: %s", o.status, o.err);
    outcome_free(&o);
    assert_int_equal(published_runs(out), 2);
    assert_nothing_staged(out);
}

/* A command finds OUT's lock held: with --no-wait it exits 1 with one line
 * naming the holder's pid, writing nothing; without, it waits with one
 * note naming it and goes on when the lock is given back.  Every holder
 * records its pid in OUT/.lock. */
static void test_no_wait(void **state)
{
    char out[300], so[300], se[300], path[600], want[700], *text = NULL, mine[32];
    const char *rep[] = {"report", "--quiet", "--out", out, NULL};
    struct timespec tick = {0, 20000000};
    outcome o;
    pid_t pid;
    int fd, i, ws;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/nowait", tmpdir);
    snprintf(so, sizeof so, "%s/nowait.out", tmpdir);
    snprintf(se, sizeof se, "%s/nowait.err", tmpdir);
    run(&o, "run", "--quick", "--quiet", "--devices", "cpu", "--budget", "1", "--out", out, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    /* the pid of the last holder, padded to one width */
    pid = start(rep, so, se);
    finish(pid, so, se, &o);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    snprintf(path, sizeof path, "%s/.lock", out);
    assert_int_equal(fsx_read_all(path, &text, NULL, &e), BE_OK);
    snprintf(want, sizeof want, "%-10ld\n", (long)pid);
    assert_string_equal(text, want);
    free(text);
    /* this process holds the lock as breakeven holds it */
    assert_true((fd = open(path, O_RDWR | O_CLOEXEC)) >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    snprintf(mine, sizeof mine, "%-10ld\n", (long)getpid());
    assert_int_equal(pwrite(fd, mine, strlen(mine), 0), (ssize_t)strlen(mine));
    snprintf(want, sizeof want,
             "breakeven: another breakeven is writing %s (pid %ld); not waiting (--no-wait)\n", out,
             (long)getpid());
    run(&o, "report", "--quiet", "--no-wait", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.err, want);
    assert_string_equal(o.out, "");
    outcome_free(&o);
    /* run: before it measures, nothing made */
    run(&o, "run", "--quick", "--quiet", "--devices", "cpu", "--no-wait", "--out", out, NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.err, want);
    outcome_free(&o);
    assert_int_equal(published_runs(out), 1);
    /* without --no-wait: one note, then on when the lock is given back */
    pid = start(rep, so, se);
    snprintf(want, sizeof want, "breakeven: waiting for another breakeven writing %s (pid %ld)\n",
             out, (long)getpid());
    for (i = 0; i < 500; i++) {
        assert_int_equal(fsx_read_all(se, &text, NULL, &e), BE_OK);
        if (strcmp(text, want) == 0) {
            free(text);
            break;
        }
        free(text);
        assert_int_equal(waitpid(pid, &ws, WNOHANG), 0); /* still waiting */
        nanosleep(&tick, NULL);
    }
    assert_true(i < 500);
    close(fd);
    finish(pid, so, se, &o);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.err, want);
    outcome_free(&o);
    assert_nothing_staged(out);
}

static int setup(void **state)
{
    (void)state;
    bin = getenv("BREAKEVEN");
    if (!bin || access(bin, X_OK) != 0) {
        fprintf(stderr, "test_e2e: set BREAKEVEN to the binary under test\n");
        return -1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-e2e-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_run),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_too_big_for_memory),
        cmocka_unit_test(test_unwritable_out),
        cmocka_unit_test(test_interrupt_keeps_partial),
        cmocka_unit_test(test_report_and_bad_input),
        cmocka_unit_test(test_tune),
        cmocka_unit_test(test_devices_help_version),
        cmocka_unit_test(test_all_and_report),
        cmocka_unit_test(test_threads_from_environment),
        cmocka_unit_test(test_refit_0_1_0),
        cmocka_unit_test(test_compare_gate),
        cmocka_unit_test(test_ab),
        cmocka_unit_test(test_compare_selectors),
        cmocka_unit_test(test_compare_warnings),
        cmocka_unit_test(test_run_repeat),
        cmocka_unit_test(test_run_band),
        cmocka_unit_test(test_site_settings),
        cmocka_unit_test(test_history_hosts),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_killed_writer),
        cmocka_unit_test(test_no_wait),
    };
    return cmocka_run_group_tests_name("end-to-end", tests, setup, teardown);
}
