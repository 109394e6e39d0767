/*
 * bench_archive.c — `make bench-archive`: the archive at scale, timed.
 *
 * Builds archives of 100 and 1,000 runs (BENCH_ARCHIVE_SIZES overrides)
 * from copies of real runs: a default-sized run of this machine (made once
 * by `breakeven run` and kept in build/bench-archive/real/) and the
 * committed H100 run (tests/data/gpu/), one H100 copy every tenth night.
 * Each source is first scaled into VARIANTS versions (every time × a
 * factor from 0.9 to 1.1, the samples summarized again through the
 * library, charts drawn by runcharts, as `run` leaves a run); each night
 * of the archive is one variant's files under a new run id and start time
 * (the XML's id and dates replaced, compressed again), its charts copied.
 * So the archive is a year of nightly runs of one host whose pages, history
 * and feed have real content; the charts of a copy show its variant's id.
 *
 * Then, per size: `breakeven report` on the fresh archive (a full report:
 * every page rendered), `report` again with nothing new (the incremental
 * case at its best), one more night added and `report` (adding one run),
 * and, at the first size only (it takes as long as the first report),
 * `report --full`.  Each report runs as a child process: wall time
 * (CLOCK_MONOTONIC) and its peak RSS (wait4's ru_maxrss).  Then the disk:
 * the run directories, the whole OUT/, the feed and history.html.
 *
 * Usage: bench_archive BREAKEVEN WORKDIR REAL_RESULTS H100_RESULTS
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "fsx.h"
#include "gz.h"
#include "results.h"
#include "runcharts.h"

#define VARIANTS 8

typedef struct variant {
    char dir[600]; /* its files: results.xml.gz and charts */
    char *xml;     /* its results, uncompressed */
    size_t len;
    char id[80], started[40], finished[40];
} variant;

static void die(const char *what, const err *e)
{
    fprintf(stderr, "bench_archive: %s%s%s\n", what, e ? ": " : "", e ? e->msg : "");
    exit(1);
}

static void sh(const char *cmd)
{
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_archive: failed: %s\n", cmd);
        exit(1);
    }
}

/* Variant k of src in work/<name>-<k>: every time × (0.9 + 0.2 k / (V-1)). */
static void make_variant(const char *src, const char *work, const char *name, int k, variant *v)
{
    results *r = NULL;
    char path[700];
    double f = 0.9 + 0.2 * k / (VARIANTS - 1);
    int i, j, n;
    err e;
    if (results_load(src, &r, &e) != BE_OK)
        die(src, &e);
    for (i = 0; i < r->npoints; i++) {
        rs_point *p = &r->points[i];
        for (j = 0; j < p->nsamples; j++) {
            p->samples[j].wall *= f;
            p->samples[j].total *= f;
            p->samples[j].kernel *= f;
        }
        if (p->nsamples > 0 && results_summarize_in(r, p, &e) != BE_OK)
            die(src, &e);
    }
    snprintf(v->dir, sizeof v->dir, "%s/%s-%d", work, name, k);
    if (fsx_mkdirs(v->dir, &e) != BE_OK)
        die(v->dir, &e);
    snprintf(path, sizeof path, "%s/results.xml", v->dir);
    if (results_save(r, NULL, path, &e) != BE_OK ||
        runcharts_draw(r, NULL, v->dir, &n, &e) != BE_OK)
        die(path, &e);
    if (fsx_read_all(path, &v->xml, &v->len, &e) != BE_OK)
        die(path, &e);
    unlink(path);
    snprintf(v->id, sizeof v->id, " id=\"%s\"", r->prov.id);
    snprintf(v->started, sizeof v->started, "\"%s\"", r->prov.started);
    snprintf(v->finished, sizeof v->finished, "\"%s\"", r->prov.finished);
    results_free(r);
}

/* Replaces every occurrence of from by to (of the same length or not). */
static char *replace(char *text, size_t *len, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0, cap = *len + 4096;
    char *out = malloc(cap), *p = text, *hit;
    if (!out)
        die("out of memory", NULL);
    while ((hit = strstr(p, from))) {
        size_t pre = (size_t)(hit - p);
        if (n + pre + nt + 1 > cap && !(out = realloc(out, cap *= 2)))
            die("out of memory", NULL);
        memcpy(out + n, p, pre);
        memcpy(out + n + pre, to, nt);
        n += pre + nt;
        p = hit + nf;
    }
    if (n + strlen(p) + 1 > cap && !(out = realloc(out, cap = n + strlen(p) + 1)))
        die("out of memory", NULL);
    memcpy(out + n, p, strlen(p) + 1);
    *len = n + strlen(p);
    free(text);
    return out;
}

/* Night i of the archive under out/runs/ (or at dest when not NULL). */
static void make_night(const variant *v, const char *out, int i, char *dir, size_t size)
{
    char id[80], ida[96], st[40], fi[40], path[800], *xml, *z;
    size_t len = v->len, zlen;
    time_t t = 1735689600 + (time_t)i * 86400; /* 2025-01-01, nightly */
    struct tm tm;
    err e;
    gmtime_r(&t, &tm);
    strftime(id, sizeof id, "%Y%m%dT020000Z-bench", &tm);
    snprintf(ida, sizeof ida, " id=\"%s\"", id);
    strftime(st, sizeof st, "\"%Y-%m-%dT02:00:00Z\"", &tm);
    strftime(fi, sizeof fi, "\"%Y-%m-%dT02:10:00Z\"", &tm);
    if (!(xml = malloc(len + 1)))
        die("out of memory", NULL);
    memcpy(xml, v->xml, len + 1);
    xml = replace(xml, &len, v->id, ida);
    xml = replace(xml, &len, v->started, st);
    xml = replace(xml, &len, v->finished, fi);
    snprintf(dir, size, "%s/runs/%s", out, id);
    snprintf(path, sizeof path, "cp -r '%s' '%s'", v->dir, dir);
    sh(path);
    snprintf(path, sizeof path, "%s/" ARCHIVE_RESULTS, dir);
    if (gz_compress(xml, len, &z, &zlen, &e) != BE_OK ||
        fsx_write_atomic(path, z, zlen, &e) != BE_OK)
        die(path, &e);
    free(z);
    free(xml);
}

/* Runs bin report [--full] on out: seconds and peak RSS in MB. */
static void report(const char *bin, const char *out, int full, double *secs, double *mb)
{
    struct timespec a, b;
    struct rusage ru;
    int status;
    pid_t pid;
    fflush(stdout); /* or the child's freopen writes the table's buffered lines again */
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        if (full)
            execl(bin, bin, "report", "--quiet", "--full", "--out", out, (char *)NULL);
        else
            execl(bin, bin, "report", "--quiet", "--out", out, (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_archive: report of %s failed\n", out);
        exit(1);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    *secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    *mb = (double)ru.ru_maxrss / 1024.0;
    /* as it goes: a long bench stopped half way still says what it saw */
    fprintf(stderr, "bench-archive:   %.1f s wall, %.1f s CPU, peak RSS %.0f MB\n", *secs,
            (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec,
            *mb);
}

/* Bytes under path (du -sb). */
static double bytes_of(const char *path)
{
    char cmd[700];
    double v = 0;
    FILE *p;
    snprintf(cmd, sizeof cmd, "du -sb '%s' 2>/dev/null | cut -f1", path);
    if (!(p = popen(cmd, "r")) || fscanf(p, "%lf", &v) != 1)
        v = 0;
    if (p)
        pclose(p);
    return v;
}

int main(int argc, char **argv)
{
    const char *bin, *work, *sizes_env = getenv("BENCH_ARCHIVE_SIZES");
    variant real[VARIANTS], h100[VARIANTS];
    char sizes[128], *tok, *save = NULL, out[700], dir[900], p[900];
    int k;
    if (argc != 5) {
        fprintf(stderr, "usage: bench_archive BREAKEVEN WORKDIR REAL_RESULTS H100_RESULTS\n");
        return 2;
    }
    bin = argv[1];
    work = argv[2];
    snprintf(sizes, sizeof sizes, "%s", sizes_env && *sizes_env ? sizes_env : "100 1000");
    snprintf(p, sizeof p, "rm -rf '%s/variants' && mkdir -p '%s/variants'", work, work);
    sh(p);
    snprintf(p, sizeof p, "%s/variants", work);
    fprintf(stderr, "bench-archive: %d scaled versions of each source run\n", VARIANTS);
    for (k = 0; k < VARIANTS; k++) {
        make_variant(argv[3], p, "real", k, &real[k]);
        make_variant(argv[4], p, "h100", k, &h100[k]);
    }
    printf("\n| runs | full report | peak RSS | nothing new | add one run | peak RSS | "
           "--full | disk per run (runs/) | OUT/ per run | default run | feed.xml | "
           "history.html |\n"
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (tok = strtok_r(sizes, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int n = atoi(tok), i;
        double t_full, m_full, t_none, m_none, t_add, m_add, t_forced, m_forced;
        if (n < 2)
            continue;
        snprintf(out, sizeof out, "%s/archive-%d", work, n);
        snprintf(p, sizeof p, "rm -rf '%s' && mkdir -p '%s/runs'", out, out);
        sh(p);
        fprintf(stderr, "bench-archive: building %d runs in %s\n", n, out);
        for (i = 0; i < n; i++)
            make_night(i % 10 == 9 ? &h100[i % VARIANTS] : &real[i % VARIANTS], out, i, dir,
                       sizeof dir);
        fprintf(stderr, "bench-archive: %d runs: full report\n", n);
        report(bin, out, 0, &t_full, &m_full);
        fprintf(stderr, "bench-archive: %d runs: report, nothing new\n", n);
        report(bin, out, 0, &t_none, &m_none);
        make_night(&real[n % VARIANTS], out, n, dir, sizeof dir);
        fprintf(stderr, "bench-archive: %d runs: one added, report\n", n);
        report(bin, out, 0, &t_add, &m_add);
        /* as long as the first report: timed once, at the smallest size */
        t_forced = m_forced = -1;
        if (tok == sizes) {
            fprintf(stderr, "bench-archive: %d runs: report --full\n", n + 1);
            report(bin, out, 1, &t_forced, &m_forced);
        }
        snprintf(p, sizeof p, "%s/runs", out);
        {
            /* the first night is a default-sized run: its directory alone */
            double runs = bytes_of(p), all = bytes_of(out), one, feed, hist;
            snprintf(p, sizeof p, "%s/runs/20250101T020000Z-bench", out);
            one = bytes_of(p);
            snprintf(p, sizeof p, "%s/feed.xml", out);
            feed = bytes_of(p);
            snprintf(p, sizeof p, "%s/history.html", out);
            hist = bytes_of(p);
            char forced[32] = "not timed";
            if (t_forced >= 0)
                snprintf(forced, sizeof forced, "%.1f s", t_forced);
            printf("| %d | %.1f s | %.0f MB | %.1f s | %.1f s | %.0f MB | %s | %.2f MB | "
                   "%.2f MB | %.3f MB | %.2f MB | %.2f MB |\n",
                   n, t_full, m_full, t_none, t_add, m_add, forced, runs / (n + 1) / 1e6,
                   all / (n + 1) / 1e6, one / 1e6, feed / 1e6, hist / 1e6);
            fflush(stdout);
        }
    }
    for (k = 0; k < VARIANTS; k++) {
        free(real[k].xml);
        free(h100[k].xml);
    }
    return 0;
}
