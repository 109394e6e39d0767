/*
 * test_archive.c — the archive at scale (docs/archive.md): a bounded feed,
 * pages that do not grow with the archive, compressed results files that
 * still load when written uncompressed by 0.1 and 0.2.  Run from the
 * repository root (the templates are read from ./templates).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "archive.h"
#include "cache.h"
#include "fsx.h"
#include "gz.h"
#include "report.h"
#include "results.h"
#include "site.h"
#include "version.h"
#include "workload.h"

static char tmpdir[256];

/* A small run of a CPU and a GPU on the given day; the GPU's times are
 * scaled by slow. */
static results *make_run(int day, double slow)
{
    results *r = results_new();
    device_info d;
    int h, b, k, dv;
    err e;
    assert_non_null(r);
    snprintf(r->prov.version, sizeof r->prov.version, "%s", BE_VERSION);
    snprintf(r->prov.commit, sizeof r->prov.commit, "test");
    snprintf(r->prov.id, sizeof r->prov.id, "202601%02dT000000Z-t", day);
    snprintf(r->prov.started, sizeof r->prov.started, "2026-01-%02dT00:00:00Z", day);
    snprintf(r->prov.finished, sizeof r->prov.finished, "2026-01-%02dT00:10:00Z", day);
    snprintf(r->prov.command, sizeof r->prov.command, "breakeven run --quick");
    snprintf(r->prov.host, sizeof r->prov.host, "testhost");
    snprintf(r->prov.modes, sizeof r->prov.modes, "inference");
    r->prov.layers = 2;
    r->prov.cores = 2;
    r->prov.blas_threads = 2;
    r->prov.budget = 1;
    for (dv = 0; dv < 2; dv++) {
        memset(&d, 0, sizeof d);
        snprintf(d.id, sizeof d.id, "%s", dv ? "cl:0.0" : "cpu");
        snprintf(d.kind, sizeof d.kind, "%s", dv ? "opencl" : "openblas");
        snprintf(d.type, sizeof d.type, "%s", dv ? "GPU" : "CPU");
        snprintf(d.name, sizeof d.name, "%s", dv ? "Test GPU" : "Test CPU");
        assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    }
    for (dv = 0; dv < 2; dv++)
        for (h = 32; h <= 128; h *= 4)
            for (b = 16; b <= 64; b *= 4) {
                rs_point p;
                step_times s[12] = {{0}};
                memset(&p, 0, sizeof p);
                snprintf(p.device, sizeof p.device, "%s", dv ? "cl:0.0" : "cpu");
                p.mode = WL_INFERENCE;
                p.layers = 2;
                p.hidden = h;
                p.batch = b;
                p.flops_per_layer = (2.0 * h * h + h) * b;
                p.status = PT_OK;
                p.nsamples = 12;
                p.samples = s;
                p.has_transfer = dv;
                for (k = 0; k < 12; k++) {
                    double t = (1e-5 + p.flops_per_layer * 2 / (dv ? 5e10 : 2e10)) *
                               (1.0 + 0.001 * (k % 5)) * (dv ? slow : 1.0);
                    memset(&s[k], 0, sizeof s[k]);
                    s[k].wall = t;
                    s[k].total = dv ? t * 1.5 : 0.0;
                    s[k].kernel = t;
                }
                assert_int_equal(results_summarize(&p, &e), BE_OK);
                assert_int_equal(results_add_point(r, &p, &e), BE_OK);
            }
    return r;
}

static void save_run(const char *out, int day, double slow)
{
    char dir[600], path[700];
    results *r = make_run(day, slow);
    err e;
    snprintf(dir, sizeof dir, "%s/runs/%s", out, r->prov.id);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    snprintf(path, sizeof path, "%s/results.xml", dir);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    results_free(r);
}

static char *slurp(const char *dir, const char *name)
{
    char path[700], *s = NULL;
    err e;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (fsx_read_all(path, &s, NULL, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return s;
}

static int occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (; (text = strstr(text, needle)) != NULL; text++)
        n++;
    return n;
}

static void report_jobs(const char *out, int feed_items, int per_page, int full, int jobs)
{
    char index[700];
    report_opts o;
    err e;
    memset(&o, 0, sizeof o);
    o.out = out;
    o.data_dir = ".";
    o.feed_items = feed_items;
    o.archive_page = per_page;
    o.full = full;
    o.jobs = jobs;
    if (report_write(&o, index, sizeof index, &e) != BE_OK)
        fail_msg("%s", e.msg);
}

static void report_full(const char *out, int feed_items, int per_page, int full)
{
    report_jobs(out, feed_items, per_page, full, 0);
}

static void report(const char *out, int feed_items, int per_page)
{
    report_full(out, feed_items, per_page, 0);
}

/* Seven runs, two in the feed, three per archive page: the feed holds the
 * newest two; a run's page lists its neighbours and links to its archive
 * page; the archive pages hold every run once, oldest on page 1. */
static void test_bounded_pages(void **state)
{
    char out[400], *s, name[100];
    int day, k, total = 0;
    (void)state;
    snprintf(out, sizeof out, "%s/pages", tmpdir);
    for (day = 1; day <= 7; day++)
        save_run(out, day, 1.0 + 0.01 * day);
    report(out, 2, 3);
    s = slurp(out, "feed.xml");
    assert_int_equal(occurrences(s, ">breakeven:run:"), 2);
    assert_non_null(strstr(s, ">breakeven:run:20260107T000000Z-t<"));
    assert_non_null(strstr(s, ">breakeven:run:20260106T000000Z-t<"));
    free(s);
    s = slurp(out, "runs/20260104T000000Z-t/index.html");
    assert_non_null(strstr(s, "href=\"../../runs/20260103T000000Z-t/index.html\""));
    assert_non_null(strstr(s, "href=\"../../runs/20260105T000000Z-t/index.html\""));
    assert_null(strstr(s, "runs/20260101T000000Z-t/index.html"));
    assert_null(strstr(s, "runs/20260107T000000Z-t/index.html"));
    assert_non_null(strstr(s, "href=\"../../archive/page-2.html\""));
    assert_non_null(strstr(s, "The runs around this one</a> in the archive"));
    free(s);
    for (k = 1; k <= 3; k++) {
        snprintf(name, sizeof name, "archive/page-%d.html", k);
        s = slurp(out, name);
        total += occurrences(s, "<li><a href=\"../runs/");
        if (k == 1) {
            assert_non_null(strstr(s, "../runs/20260101T000000Z-t/index.html"));
            assert_non_null(strstr(s, "../runs/20260103T000000Z-t/index.html"));
            assert_null(strstr(s, "older runs"));
        }
        if (k == 2) {
            assert_non_null(strstr(s, "href=\"page-1.html\" rel=\"next\""));
            assert_non_null(strstr(s, "href=\"page-3.html\" rel=\"prev\""));
        }
        free(s);
    }
    assert_int_equal(total, 7);
    {
        char *a = slurp(out, "archive/index.html"), *b = slurp(out, "archive/page-3.html");
        assert_string_equal(a, b);
        assert_null(strstr(a, "newer runs"));
        free(a);
        free(b);
    }
    /* the front page lists the newest runs and links to the archive */
    s = slurp(out, "index.html");
    assert_non_null(strstr(s, "href=\"archive/page-3.html\""));
    assert_non_null(strstr(s, "archive of 7 runs"));
    free(s);
}

/* feed-items in site.conf: a number of runs, read back; else one line
 * naming the file and the line. */
static void test_feed_items_setting(void **state)
{
    char out[400], path[500];
    site_settings st;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/conf", tmpdir);
    assert_int_equal(fsx_mkdirs(out, &e), BE_OK);
    snprintf(path, sizeof path, "%s/site.conf", out);
    assert_int_equal(fsx_write_atomic(path, "title T\nfeed-items 5\n", 21, &e), BE_OK);
    assert_int_equal(site_settings_load(out, &st, &e), BE_OK);
    assert_int_equal(st.feed_items, 5);
    assert_int_equal(site_settings_save(out, &st, &e), BE_OK);
    memset(&st, 0, sizeof st);
    assert_int_equal(site_settings_load(out, &st, &e), BE_OK);
    assert_int_equal(st.feed_items, 5);
    assert_string_equal(st.title, "T");
    assert_int_equal(fsx_write_atomic(path, "feed-items 0\n", 13, &e), BE_OK);
    assert_int_equal(site_settings_load(out, &st, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "site.conf:1: feed-items is a number of runs from 1 to"));
    assert_int_equal(fsx_write_atomic(path, "feed-items 3x\n", 14, &e), BE_OK);
    assert_int_equal(site_settings_load(out, &st, &e), BE_EFAIL);
}

/* results.xml.gz: gzip on disk, the same bytes for the same results, the
 * same model back; a results.xml of 0.1 beside gzip runs still loads and
 * its page links it; a damaged or oversized stream is refused. */
static void test_compressed_results(void **state)
{
    char out[400], dir[500], p[600], q[600], *a, *b, *z, *x;
    size_t alen, blen, zlen, xlen;
    results *r = make_run(9, 1.0), *back = NULL;
    archive_run u;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/gz", tmpdir);
    snprintf(dir, sizeof dir, "%s/runs/%s", out, r->prov.id);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    snprintf(p, sizeof p, "%s/" ARCHIVE_RESULTS, dir);
    snprintf(q, sizeof q, "%s/again.xml.gz", tmpdir);
    assert_int_equal(results_save(r, NULL, p, &e), BE_OK);
    assert_int_equal(results_save(r, NULL, q, &e), BE_OK);
    assert_int_equal(fsx_read_all(p, &a, &alen, &e), BE_OK);
    assert_int_equal(fsx_read_all(q, &b, &blen, &e), BE_OK);
    assert_true(gz_is(a, alen));
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    if (results_load(p, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(back->npoints, r->npoints);
    assert_true(back->points[3].resident.median == r->points[3].resident.median);
    results_free(back);
    /* the archive finds it by its run id */
    assert_int_equal(archive_load_run(out, r->prov.id, &u, &e), BE_OK);
    assert_non_null(strstr(u.src, "/" ARCHIVE_RESULTS));
    archive_run_free(&u);

    /* damaged: cut short, or with bytes after the stream */
    assert_int_equal(fsx_write_atomic(q, a, alen / 2, &e), BE_OK);
    assert_int_equal(results_load(q, &back, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "again.xml.gz: not a whole gzip stream"));
    z = malloc(alen + 3);
    assert_non_null(z);
    memcpy(z, a, alen);
    memcpy(z + alen, "xyz", 3);
    assert_int_equal(fsx_write_atomic(q, z, alen + 3, &e), BE_OK);
    assert_int_equal(results_load(q, &back, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "data after the end of the gzip stream"));
    free(z);
    /* a stream that inflates past its cap stops there */
    memset(p, 'x', 500);
    assert_int_equal(gz_compress(p, 500, &z, &zlen, &e), BE_OK);
    assert_int_equal(gz_decompress("bomb", z, zlen, 100, &x, &xlen, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "bomb: inflates to more than 100 bytes"));
    assert_int_equal(gz_decompress("ok", z, zlen, 500, &x, &xlen, &e), BE_OK);
    assert_int_equal(xlen, 500);
    free(x);
    free(z);
    free(a);
    free(b);
    results_free(r);

    /* a run written by 0.1: results.xml, uncompressed, beside the new one */
    snprintf(dir, sizeof dir, "%s/runs/20261123T073413Z-vm", out);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    assert_int_equal(fsx_read_all("tests/data/results-0.1.0.xml", &a, &alen, &e), BE_OK);
    snprintf(p, sizeof p, "%s/" ARCHIVE_RESULTS_OLD, dir);
    assert_int_equal(fsx_write_atomic(p, a, alen, &e), BE_OK);
    free(a);
    report(out, 0, 0);
    a = slurp(out, "runs/20261123T073413Z-vm/index.html");
    assert_non_null(strstr(a, "href=\"results.xml\""));
    free(a);
    a = slurp(out, "runs/20260109T000000Z-t/index.html");
    assert_non_null(strstr(a, "href=\"results.xml.gz\""));
    free(a);
}

/* Fails unless a and b hold the same files with the same bytes (the
 * cache aside). */
static void assert_same_site(const char *a, const char *b)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "diff -r -q -x .cache '%s' '%s'", a, b);
    if (system(cmd) != 0)
        fail_msg("%s and %s differ", a, b);
}

static struct timespec mtime_of(const char *dir, const char *name)
{
    char p[800];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(stat(p, &st), 0);
    return st.st_mtim;
}

static int same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* The incremental report writes what a full one writes, byte for byte:
 * after a run is added (and only the pages it changes are written again),
 * after cache entries are damaged or swapped (ignored and made again),
 * after a run's results change under the same id (its pages change),
 * after a chart drawn in place is lost or its mark garbled. */
/* A digest whose strings fill their buffers to the end (a forged entry
 * can hold anything under a valid checksum): each is cut at its buffer
 * when loaded, so that what prints it stops there.  The run's network
 * fields and its environment were once left uncut. */
static void test_digest_strings_cut(void **state)
{
    results *r = make_run(1, 1.0);
    cache_digest d, back;
    cache_key k;
    cache_hasher h;
    char out[400];
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/cut", tmpdir);
    assert_int_equal(fsx_mkdirs(out, &e), BE_OK);
    assert_int_equal(cache_digest_make(r, "answer", "", 0, &d, &e), BE_OK);
    memset(d.r->prov.env, 'e', sizeof d.r->prov.env);
    memset(d.r->prov.host, 'h', sizeof d.r->prov.host);
    memset(d.r->points[0].net, 'n', sizeof d.r->points[0].net);
    memset(d.r->points[0].sizes, 's', sizeof d.r->points[0].sizes);
    memset(d.r->points[0].message, 'm', sizeof d.r->points[0].message);
    memset(d.answer, 'a', sizeof d.answer);
    cache_hash_init(&h);
    cache_hash_str(&h, "cut");
    cache_hash_end(&h, &k);
    assert_int_equal(cache_digest_save(out, r->prov.id, &k, &d, &e), BE_OK);
    assert_int_equal(cache_digest_load(out, r->prov.id, &k, &back, &e), BE_OK);
    assert_int_equal(strlen(back.r->prov.env), sizeof back.r->prov.env - 1);
    assert_int_equal(strlen(back.r->prov.host), sizeof back.r->prov.host - 1);
    assert_int_equal(strlen(back.r->points[0].net), sizeof back.r->points[0].net - 1);
    assert_int_equal(strlen(back.r->points[0].sizes), sizeof back.r->points[0].sizes - 1);
    assert_int_equal(strlen(back.r->points[0].message), sizeof back.r->points[0].message - 1);
    assert_int_equal(strlen(back.answer), sizeof back.answer - 1);
    /* and no address of the writing process in it */
    assert_null(back.r->points[0].samples);
    cache_digest_free(&back);
    cache_digest_free(&d);
    results_free(r);
}

/* A forged digest: its first record of zero runs says it holds more
 * bytes than the file has, under a checksum made again for the forgery
 * (the checksum is no defence: the records are checked for themselves). */
static void forge_digest(const char *path)
{
    char *data = NULL;
    size_t n = 0;
    uint32_t huge = 0xfffffff0u;
    cache_hasher h;
    cache_key sum;
    err e;
    assert_int_equal(fsx_read_all(path, &data, &n, &e), BE_OK);
    /* magic (8), the length (4), the first record's zeros (4), its bytes (4) */
    assert_true(n > 20 + sizeof sum.hex);
    memcpy(data + 16, &huge, sizeof huge);
    cache_hash_init(&h);
    cache_hash(&h, data, n - sizeof sum.hex);
    cache_hash_end(&h, &sum);
    memcpy(data + n - sizeof sum.hex, sum.hex, sizeof sum.hex);
    assert_int_equal(fsx_write_atomic(path, data, n, &e), BE_OK);
    free(data);
}

static void test_incremental_same_bytes(void **state)
{
    char inc[400], full[400], p[800], cmd[1200], *before, *after, *forged;
    struct timespec t1, t5, t6, th, tc;
    int day;
    (void)state;
    snprintf(inc, sizeof inc, "%s/inc", tmpdir);
    snprintf(full, sizeof full, "%s/full", tmpdir);
    for (day = 1; day <= 6; day++)
        save_run(inc, day, 1.0 + 0.02 * day);
    report(inc, 3, 2);
    t1 = mtime_of(inc, "runs/20260101T000000Z-t/index.html");
    t5 = mtime_of(inc, "runs/20260105T000000Z-t/index.html");
    t6 = mtime_of(inc, "runs/20260106T000000Z-t/index.html");
    th = mtime_of(inc, "history/s1-peak.png");
    tc = mtime_of(inc, "compare/20260105T000000Z-t..20260106T000000Z-t.png");
    /* nothing new: nothing of the runs' pages written again, no chart drawn again */
    report(inc, 3, 2);
    assert_true(same_time(t6, mtime_of(inc, "runs/20260106T000000Z-t/index.html")));
    assert_true(same_time(th, mtime_of(inc, "history/s1-peak.png")));
    /* one run more: its page and its previous neighbour's, no other */
    save_run(inc, 7, 1.5);
    report(inc, 3, 2);
    assert_true(same_time(t1, mtime_of(inc, "runs/20260101T000000Z-t/index.html")));
    assert_true(same_time(t5, mtime_of(inc, "runs/20260105T000000Z-t/index.html")));
    assert_false(same_time(t6, mtime_of(inc, "runs/20260106T000000Z-t/index.html")));
    /* run 6's pages rendered again for their link to run 7, its comparison
     * chart not drawn again */
    assert_true(same_time(tc, mtime_of(inc, "compare/20260105T000000Z-t..20260106T000000Z-t.png")));
    for (day = 1; day <= 7; day++)
        save_run(full, day, day == 7 ? 1.5 : 1.0 + 0.02 * day);
    report_full(full, 3, 2, 1);
    assert_same_site(inc, full);

    /* damaged entries: one torn, one of another run's results */
    snprintf(p, sizeof p, "%s/.cache/20260102T000000Z-t.digest", inc);
    assert_int_equal(truncate(p, 100), 0);
    snprintf(cmd, sizeof cmd,
             "cp '%s/.cache/20260103T000000Z-t.digest' '%s/.cache/20260104T000000Z-t.digest' && "
             "printf x >> '%s/.cache/20260105T000000Z-t.page'",
             inc, inc, inc);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/.cache/20260106T000000Z-t.digest", inc);
    forge_digest(p);
    forged = slurp(inc, ".cache/20260106T000000Z-t.digest");
    /* and run 3's results changed under its id */
    before = slurp(inc, "runs/20260103T000000Z-t/index.html");
    save_run(inc, 3, 2.0);
    save_run(full, 3, 2.0);
    report(inc, 3, 2);
    report_full(full, 3, 2, 1);
    assert_same_site(inc, full);
    /* the forged digest ignored, and made again */
    after = slurp(inc, ".cache/20260106T000000Z-t.digest");
    assert_memory_not_equal(after, forged, 20);
    free(after);
    free(forged);
    after = slurp(inc, "runs/20260103T000000Z-t/index.html");
    assert_string_not_equal(before, after);
    free(before);
    free(after);
    /* a damaged run: skipped with a warning, no entry made for it */
    snprintf(p, sizeof p, "%s/runs/20260104T000000Z-t/results.xml", inc);
    assert_int_equal(truncate(p, 200), 0);
    report(inc, 3, 2);
    snprintf(p, sizeof p, "%s/.cache/20260104T000000Z-t.digest", inc);
    snprintf(cmd, sizeof cmd,
             "rm -f '%s' && cp '%s/runs/20260104T000000Z-t/results.xml' "
             "'%s/runs/20260104T000000Z-t/results.xml'",
             p, inc, full);
    assert_int_equal(system(cmd), 0);
    report(inc, 3, 2);
    assert_int_not_equal(access(p, F_OK), 0);
    report_full(full, 3, 2, 1);
    assert_same_site(inc, full);
    /* charts drawn in place: one gone under its mark, another mark
     * garbled, the front page's entry torn: each made again */
    snprintf(cmd, sizeof cmd,
             "rm '%s/history/s1-peak-narrow.png' && printf %%032d 0 > '%s/.cache/history-s1.mark' "
             "&& printf x >> '%s/.cache/.front.page'",
             inc, inc, inc);
    assert_int_equal(system(cmd), 0);
    report(inc, 3, 2);
    assert_same_site(inc, full);
}

/* Ten runs rendered by one process and by three (report_jobs.c): the
 * same files, byte for byte; then one run more, rendered by three, and
 * the same again. */
static void test_jobs_same_bytes(void **state)
{
    char one[400], three[400];
    int day;
    (void)state;
    snprintf(one, sizeof one, "%s/jobs1", tmpdir);
    snprintf(three, sizeof three, "%s/jobs3", tmpdir);
    for (day = 1; day <= 10; day++) {
        save_run(one, day, 1.0 + 0.03 * day);
        save_run(three, day, 1.0 + 0.03 * day);
    }
    report_jobs(one, 2, 3, 0, 1);
    report_jobs(three, 2, 3, 0, 3);
    assert_same_site(one, three);
    save_run(one, 11, 1.4);
    save_run(three, 11, 1.4);
    report_jobs(one, 2, 3, 1, 1);
    report_jobs(three, 2, 3, 0, 3);
    assert_same_site(one, three);
}

/* What diff -r says of a and b, every line "Only in <b>/compare: *.png"
 * (a comparison chart drawn in place that no page shows): 1, else 0. */
static int same_but_charts(const char *a, const char *b)
{
    char cmd[1200], line[1200], only[600];
    int ok = 1;
    FILE *p;
    snprintf(cmd, sizeof cmd, "diff -r -q -x .cache '%s' '%s'", a, b);
    snprintf(only, sizeof only, "Only in %s/compare: ", b);
    assert_non_null(p = popen(cmd, "r"));
    while (fgets(line, sizeof line, p))
        if (strncmp(line, only, strlen(only)) != 0 || !strstr(line, ".png\n")) {
            fprintf(stderr, "%s", line);
            ok = 0;
        }
    pclose(p);
    return ok;
}

/* A run whose pages cannot be staged (its comparison page's path is a
 * directory), rendered by a helper: dropped as one process drops it, the
 * pages made again without it, the same site but for the chart of its
 * next neighbour's comparison with it, which the helper that rendered that
 * neighbour meanwhile drew in place (docs/archive.md). */
static void test_jobs_drop_run(void **state)
{
    char dirs[2][400], p[900];
    int d, day;
    (void)state;
    snprintf(dirs[0], sizeof dirs[0], "%s/drop1", tmpdir);
    snprintf(dirs[1], sizeof dirs[1], "%s/drop3", tmpdir);
    for (d = 0; d < 2; d++) {
        for (day = 1; day <= 8; day++)
            save_run(dirs[d], day, 1.0 + 0.03 * day);
        /* the fifth run is the second of the helper dealt runs 2 and 5 */
        snprintf(p, sizeof p, "%s/compare/20260104T000000Z-t..20260105T000000Z-t.html", dirs[d]);
        assert_int_equal(fsx_mkdirs(p, NULL), BE_OK);
        report_jobs(dirs[d], 2, 3, 0, d ? 3 : 1);
        snprintf(p, sizeof p, "%s/runs/20260105T000000Z-t/index.html", dirs[d]);
        assert_int_not_equal(access(p, F_OK), 0);
        snprintf(p, sizeof p, "%s/compare/20260104T000000Z-t..20260106T000000Z-t.html", dirs[d]);
        assert_int_equal(access(p, F_OK), 0);
    }
    assert_true(same_but_charts(dirs[0], dirs[1]));
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-archive-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    xmlCleanupParser();
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feed_items_setting),     cmocka_unit_test(test_bounded_pages),
        cmocka_unit_test(test_compressed_results),     cmocka_unit_test(test_digest_strings_cut),
        cmocka_unit_test(test_incremental_same_bytes), cmocka_unit_test(test_jobs_same_bytes),
        cmocka_unit_test(test_jobs_drop_run),
    };
    return cmocka_run_group_tests_name("archive", tests, setup, teardown);
}
