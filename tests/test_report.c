/*
 * test_report.c — unit tests of the report (report.h) and the comparison
 * of runs (compare.h) on synthetic results: CSV quoting, the verdicts of
 * the comparison, escaping of hostile names and titles in the pages and the
 * feed, and that a failed report leaves the previous index and feed intact.
 * Run from the repository root (the templates are read from ./templates).
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
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "compare.h"
#include "csv.h"
#include "fsx.h"
#include "report.h"
#include "results.h"
#include "site.h"

static char tmpdir[256];

static const char *hostile = "<script>alert(1)</script> ]]> & \"q\", co";

/* A run with a CPU and a second device; every time of dev "gpu" is scaled
 * by slow, and the samples jitter deterministically. */
static results *make_run(const char *id, const char *started, const char *cpu_name,
                         double slow, int hidden0)
{
    results *r = results_new();
    device_info d;
    int h, b, k, dv;
    err e;
    assert_non_null(r);
    snprintf(r->prov.version, sizeof r->prov.version, "0.1.0");
    snprintf(r->prov.commit, sizeof r->prov.commit, "test");
    snprintf(r->prov.id, sizeof r->prov.id, "%s", id);
    snprintf(r->prov.started, sizeof r->prov.started, "%s", started);
    snprintf(r->prov.finished, sizeof r->prov.finished, "%s", started);
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
        snprintf(d.name, sizeof d.name, "%s", dv ? "Test GPU" : cpu_name);
        assert_int_equal(results_add_device(r, &d, &e), BE_OK);
    }
    for (dv = 0; dv < 2; dv++)
        for (h = hidden0; h <= hidden0 * 4; h *= 4)
            for (b = 16; b <= 64; b *= 4) {
                rs_point p;
                step_times s[12];
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

static void save_run(const char *out, results *r)
{
    char dir[600], path[700];
    err e;
    snprintf(dir, sizeof dir, "%s/runs/%s", out, r->prov.id);
    assert_int_equal(fsx_mkdirs(dir, &e), BE_OK);
    snprintf(path, sizeof path, "%s/results.xml", dir);
    if (results_save(r, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
}

static char *slurp(const char *path)
{
    char *s = NULL;
    err e;
    if (fsx_read_all(path, &s, NULL, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return s;
}

static void test_csv_quotes(void **state)
{
    results *r = make_run("20260101T000000Z-t", "2026-01-01T00:00:00Z", hostile, 1.0, 32);
    char *csv = NULL;
    size_t len = 0;
    err e;
    (void)state;
    assert_int_equal(csv_results(r, &csv, &len, &e), BE_OK);
    assert_int_equal(strlen(csv), len);
    assert_true(strncmp(csv, "run,host,device,", 16) == 0);
    /* the name holds a comma and quotes: one quoted field, quotes doubled */
    assert_non_null(strstr(csv, ",\"<script>alert(1)</script> ]]> & \"\"q\"\", co\","));
    /* a header and one line per point */
    {
        int lines = 0;
        const char *p;
        for (p = csv; *p; p++)
            lines += *p == '\n';
        assert_int_equal(lines, 1 + r->npoints);
    }
    free(csv);
    results_free(r);
}

static void test_compare_verdicts(void **state)
{
    results *a = make_run("20260101T000000Z-a", "2026-01-01T00:00:00Z", "CPU X", 1.0, 32);
    results *b = make_run("20260102T000000Z-b", "2026-01-02T00:00:00Z", "CPU X", 2.0, 32);
    results *c = make_run("20260103T000000Z-c", "2026-01-03T00:00:00Z", "CPU X", 1.0, 32);
    results *far = make_run("20260104T000000Z-d", "2026-01-04T00:00:00Z", "CPU Y", 1.0, 1000);
    compare_set s;
    err e;
    int i;
    (void)state;
    assert_int_equal(compare_runs(a, b, &s, &e), BE_OK);
    assert_int_equal(s.npoints, a->npoints);
    for (i = 0; i < s.npoints; i++) {
        const compare_point *p = &s.points[i];
        if (strcmp(p->model, "Test GPU") == 0) {
            assert_int_equal(p->verdict, CMP_SLOWER);
            assert_true(p->ratio > 1.9 && p->ratio < 2.1);
        } else {
            assert_int_equal(p->verdict, CMP_UNCHANGED);
        }
    }
    assert_int_equal(s.nslower, a->npoints / 2);
    assert_int_equal(s.nfaster, 0);
    compare_free(&s);
    /* B → C: the GPU got faster again */
    assert_int_equal(compare_runs(b, c, &s, &e), BE_OK);
    assert_int_equal(s.nfaster, a->npoints / 2);
    compare_free(&s);
    /* nothing in common: a one-line error naming both runs */
    assert_int_equal(compare_runs(a, far, &s, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "no point in common"));
    assert_non_null(strstr(e.msg, "20260104T000000Z-d"));
    results_free(a);
    results_free(b);
    results_free(c);
    results_free(far);
}

/* The text of every <content:encoded> of a feed, concatenated. */
static void feed_contents(const char *path, char *buf, size_t size, int *items)
{
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    xmlNodePtr ch, n;
    assert_non_null(doc);
    buf[0] = '\0';
    *items = 0;
    ch = xmlDocGetRootElement(doc)->children;
    while (ch && (ch->type != XML_ELEMENT_NODE || strcmp((const char *)ch->name, "channel")))
        ch = ch->next;
    assert_non_null(ch);
    for (n = ch->children; n; n = n->next) {
        xmlNodePtr c;
        if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, "item") != 0)
            continue;
        ++*items;
        for (c = n->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "encoded") == 0) {
                xmlChar *t = xmlNodeGetContent(c);
                strncat(buf, (const char *)t, size - strlen(buf) - 1);
                xmlFree(t);
            }
    }
    xmlFreeDoc(doc);
}

/* The warnings of a report, one line each, concatenated. */
static void collect(void *ctx, const char *line)
{
    char *buf = ctx;
    strncat(buf, line, 4000 - strlen(buf));
    strncat(buf, "\n", 4000 - strlen(buf));
}

static void test_report_escapes_and_keeps_old(void **state)
{
    char out[400], path[600], feed[600], *html, *before_index, *before_feed, *after;
    static char content[1 << 20];
    report_opts o;
    results *a, *b;
    int items;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/out", tmpdir);
    a = make_run("20260101T000000Z-t", "2026-01-01T00:00:00Z", "CPU X", 1.0, 32);
    b = make_run("20260102T000000Z-t", "2026-01-02T00:00:00Z", hostile, 1.0, 32);
    save_run(out, a);
    save_run(out, b);
    memset(&o, 0, sizeof o);
    o.out = out;
    o.title = hostile;
    o.author = "<b>me</b>";
    o.base_url = "https://example.org/b";
    o.data_dir = ".";
    if (report_write(&o, path, sizeof path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_non_null(strstr(path, "/index.html"));
    html = slurp(path);
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<b>me"));
    assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp;"));
    assert_non_null(strstr(html, "runs/20260102T000000Z-t/relative-time-inference.png"));
    assert_non_null(strstr(html, "compare/20260101T000000Z-t..20260102T000000Z-t.html"));
    free(html);
    snprintf(feed, sizeof feed, "%s/feed.xml", out);
    feed_contents(feed, content, sizeof content, &items);
    assert_int_equal(items, 2);
    /* decoded once, the feed's HTML still shows the name as text */
    assert_non_null(strstr(content, "&lt;script&gt;alert(1)"));
    assert_null(strstr(content, "<script"));
    assert_non_null(strstr(content, "src=\"https://example.org/b/runs/20260102T000000Z-t/"));
    snprintf(path, sizeof path, "%s/runs/20260102T000000Z-t/results.csv", out);
    assert_int_equal(access(path, R_OK), 0);

    /* a results file in the archive that fails the schema: skipped with
     * one warning naming it, and the rest written as before */
    before_index = slurp(strcat(strcpy(path, out), "/index.html"));
    before_feed = slurp(feed);
    snprintf(path, sizeof path, "%s/runs/20260103T000000Z-bad", out);
    assert_int_equal(fsx_mkdirs(path, &e), BE_OK);
    strcat(path, "/results.xml");
    assert_int_equal(fsx_write_atomic(path, "<breakeven-results format=\"1\"/>", 31, &e), BE_OK);
    {
        static char warnings[4096];
        report_opts w = o;
        w.warn = collect;
        w.warn_ctx = warnings;
        if (report_write(&w, path, sizeof path, &e) != BE_OK)
            fail_msg("%s", e.msg);
        assert_non_null(strstr(warnings, "20260103T000000Z-bad/results.xml"));
        assert_non_null(strchr(warnings, '\n'));
        assert_null(strchr(strchr(warnings, '\n') + 1, '\n'));  /* one line */
    }
    after = slurp(strcat(strcpy(path, out), "/index.html"));
    assert_string_equal(after, before_index);
    free(after);
    after = slurp(feed);
    assert_string_equal(after, before_feed);
    free(after);
    free(before_index);
    free(before_feed);

    /* a missing run id */
    {
        const char *runs[] = {"20990101T000000Z-none"};
        report_opts m = o;
        m.runs = runs;
        m.nruns = 1;
        assert_int_not_equal(report_write(&m, path, sizeof path, &e), BE_OK);
        assert_non_null(strstr(e.msg, "20990101T000000Z-none"));
    }
    results_free(a);
    results_free(b);
}

static void test_data_dir(void **state)
{
    char buf[4096];
    err e;
    (void)state;
    assert_int_equal(site_data_dir(".", buf, sizeof buf, &e), BE_OK);
    assert_string_equal(buf, ".");
    assert_int_equal(site_data_dir(tmpdir, buf, sizeof buf, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "templates/run.xsl"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-report-XXXXXX");
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
        cmocka_unit_test(test_csv_quotes),
        cmocka_unit_test(test_compare_verdicts),
        cmocka_unit_test(test_report_escapes_and_keeps_old),
        cmocka_unit_test(test_data_dir),
    };
    return cmocka_run_group_tests_name("report", tests, setup, teardown);
}
