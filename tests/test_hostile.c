/*
 * test_hostile.c — results files as an attacker would write them (cmocka).
 *
 * Every case hands results_load one crafted input and checks the exact
 * outcome: the error message after the path (":LINE: what is wrong", or
 * ": what is wrong" about the file itself), or a clean load and what it
 * holds.  Most inputs are edits of tests/hostile/base.xml, a small valid
 * file, made here; the rest are built here too (FIFOs, huge and deep
 * files) or read from tests/hostile/.  The families: the file itself,
 * repeated and missing elements, numbers out of range or not finite,
 * entities and DTDs, XInclude, UTF-8, dangling references, duplicates,
 * limits on size and counts; and the save side, which must refuse to write
 * a number that is not finite, or anything the loader would refuse.
 *
 * Then what a hostile results file meets after the loader: the archive
 * (an import with an archived id, symbolic links out of OUT, a directory
 * holding another run, a run that does not render), and the published
 * files (the feed's titles and descriptions, CSV cells that a spreadsheet
 * would run, text for cairo, and the command line's --title and error
 * messages, through $BREAKEVEN).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <sys/wait.h>
#include <time.h>

#include <cairo.h>
#include <libxml/parser.h>

#include "archive.h"
#include "archive_place.h"
#include "chart.h"
#include "compare.h"
#include "csv.h"
#include "decide.h"
#include "export.h"
#include "fmt.h"
#include "fsx.h"
#include "infile.h"
#include "outlock.h"
#include "report.h"
#include "query.h"
#include "results.h"
#include "runcharts.h"
#include "utf8.h"

#define HOSTILE "tests/hostile"

static char tmpdir[256];
static char *base; /* tests/hostile/base.xml */

/* One case: an edit of base.xml (from -> to, first occurrence), or make
 * writes the input at path; expect is what follows the path in the error
 * message (a prefix of it), NULL for a clean load, which check examines. */
typedef struct hcase {
    const char *name;
    const char *from, *to;
    void (*make)(const char *path);
    const char *expect;
    void (*check)(const results *r);
} hcase;

/* ---- helpers ---- */

static void write_text(const char *path, const char *text, size_t len)
{
    err e;
    if (fsx_write_atomic(path, text, len, &e) != BE_OK)
        fail_msg("%s", e.msg);
}

/* text with the first occurrence of from replaced by to (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *hit = strstr(text, from);
    size_t a, b, c;
    char *out;
    if (!hit)
        fail_msg("base.xml lacks \"%s\"", from);
    a = (size_t)(hit - text);
    b = strlen(to);
    c = strlen(hit + strlen(from));
    out = malloc(a + b + c + 1);
    assert_non_null(out);
    memcpy(out, text, a);
    memcpy(out + a, to, b);
    memcpy(out + a + b, hit + strlen(from), c + 1);
    return out;
}

static void write_edit(const char *path, const char *from, const char *to)
{
    char *t = replace(base, from, to);
    write_text(path, t, strlen(t));
    free(t);
}

/* n copies of unit, concatenated (malloc'd). */
static char *repeat(const char *unit, long n)
{
    size_t len = strlen(unit);
    char *out = malloc(len * (size_t)n + 1), *p = out;
    long i;
    assert_non_null(out);
    for (i = 0; i < n; i++, p += len)
        memcpy(p, unit, len);
    *p = '\0';
    return out;
}

/* The edit from -> prefix + n × unit + suffix. */
static void write_repeat(const char *path, const char *from, const char *prefix, const char *unit,
                         long n, const char *suffix)
{
    char *r = repeat(unit, n), *to = malloc(strlen(prefix) + strlen(r) + strlen(suffix) + 1);
    assert_non_null(to);
    sprintf(to, "%s%s%s", prefix, r, suffix);
    write_edit(path, from, to);
    free(r);
    free(to);
}

/* The message must be one printable line: nothing from the file may put a
 * control character (CR, LF, ESC, C1) in it. */
static void assert_one_line(const char *msg)
{
    const char *p;
    for (p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            fail_msg("control character 0x%02X in the message: %s", (unsigned)*p, msg);
    if (!utf8_clean(msg))
        fail_msg("message is not clean UTF-8: %s", msg);
}

static void run_case(void **state)
{
    const hcase *c = *state;
    results *r = (results *)1;
    char path[512];
    err e;
    int rc;

    snprintf(path, sizeof path, "%s/%s.xml", tmpdir, c->name);
    alarm(120); /* a FIFO must be refused, not waited on: a hang is a failure */
    if (c->make)
        c->make(path);
    else
        write_edit(path, c->from, c->to);
    memset(&e, 0, sizeof e);
    rc = results_load(path, &r, &e);
    alarm(0);
    if (!c->expect) {
        if (rc != BE_OK)
            fail_msg("%s: expected a clean load, got: %s", c->name, e.msg);
        assert_non_null(r);
        if (c->check)
            c->check(r);
        results_free(r);
        return;
    }
    if (rc != BE_EFAIL)
        fail_msg("%s: expected BE_EFAIL, got %d", c->name, rc);
    assert_null(r);
    assert_one_line(e.msg);
    if (strncmp(e.msg, path, strlen(path)) != 0 ||
        strncmp(e.msg + strlen(path), c->expect, strlen(c->expect)) != 0)
        fail_msg("%s:\n  expected: %s%s...\n  got:      %s", c->name, path, c->expect, e.msg);
}

/* ---- the file itself ---- */

static void make_missing(const char *path)
{
    unlink(path);
}

static void make_dir(const char *path)
{
    unlink(path);
    assert_int_equal(mkdir(path, 0755), 0);
}

static void make_fifo(const char *path)
{
    unlink(path);
    assert_int_equal(mkfifo(path, 0644), 0);
}

static void make_fifo_link(const char *path)
{
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s.fifo", path);
    make_fifo(fifo);
    unlink(path);
    assert_int_equal(symlink(fifo, path), 0);
}

static void make_devnull_link(const char *path)
{
    unlink(path);
    assert_int_equal(symlink("/dev/null", path), 0);
}

static void make_socket(const char *path)
{
    struct sockaddr_un a;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    unlink(path);
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    assert_true(strlen(path) < sizeof a.sun_path);
    memcpy(a.sun_path, path, strlen(path) + 1);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    close(fd);
}

static void make_empty(const char *path)
{
    write_text(path, "", 0);
}

static void make_blank(const char *path)
{
    write_text(path, "  \n\n", 4);
}

static void make_not_xml(const char *path)
{
    write_text(path, "hello\n", 6);
}

/* A sparse file one byte over the limit: refused on its size, unread. */
static void make_huge(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, RESULTS_MAX_BYTES + 1), 0);
    close(fd);
}

static void make_rss(const char *path)
{
    write_text(path, "<rss version=\"2.0\"/>\n", 21);
}

static void make_truncated(const char *path)
{
    write_text(path, base, 4000);
}

static void make_utf16(const char *path)
{
    size_t n = strlen(base), i;
    char *w = malloc(2 * n + 2);
    assert_non_null(w);
    w[0] = (char)0xFF;
    w[1] = (char)0xFE;
    for (i = 0; i < n; i++) {
        w[2 + 2 * i] = base[i];
        w[3 + 2 * i] = 0;
    }
    write_text(path, w, 2 * n + 2);
    free(w);
}

static void make_crlf(const char *path)
{
    size_t n = strlen(base), i, k = 0;
    char *w = malloc(2 * n + 1);
    assert_non_null(w);
    for (i = 0; i < n; i++) {
        if (base[i] == '\n')
            w[k++] = '\r';
        w[k++] = base[i];
    }
    write_text(path, w, k);
    free(w);
}

static void copy_file(const char *name, const char *path)
{
    char src[512], *text;
    size_t len;
    err e;
    snprintf(src, sizeof src, "%s/%s", HOSTILE, name);
    if (fsx_read_all(src, &text, &len, &e) != BE_OK)
        fail_msg("%s", e.msg);
    write_text(path, text, len);
    free(text);
}

/* ---- entities, DTDs, XInclude ---- */

static void make_billion_laughs(const char *path)
{
    copy_file("billion-laughs.xml", path);
}
static void make_xxe(const char *path)
{
    copy_file("xxe.xml", path);
}
static void make_xinclude(const char *path)
{
    copy_file("xinclude.xml", path);
}

/* The 176 kB file of the report: one internal entity used thousands of
 * times, each use expanded on its own. */
static void make_entity_flood(const char *path)
{
    char *ent = repeat("x", 1000), *uses = repeat("&e;", 50000), *head, *t, *u;
    head = malloc(strlen(ent) + 200);
    assert_non_null(head);
    sprintf(head,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE breakeven-results [\n"
            "<!ENTITY e \"%s\">\n]>\n",
            ent);
    t = replace(base, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", head);
    free(head);
    head = malloc(strlen(uses) + 16);
    assert_non_null(head);
    sprintf(head, "name=\"%s\"", uses);
    u = replace(t, "name=\"CPU\"", head);
    write_text(path, u, strlen(u));
    free(ent);
    free(uses);
    free(head);
    free(t);
    free(u);
}

static void make_deep(const char *path)
{
    char *open = repeat("<a>", 10000), *close = repeat("</a>", 10000), *to;
    to = malloc(strlen(open) + strlen(close) + 16);
    assert_non_null(to);
    sprintf(to, "<points>%s%s", open, close);
    write_edit(path, "<points>", to);
    free(open);
    free(close);
    free(to);
}

/* ---- limits ---- */

static void make_many_attrs(const char *path)
{
    char unit[32], *all = malloc(200 * 32), *p = all;
    int i;
    assert_non_null(all);
    for (i = 0; i < 200; i++) {
        snprintf(unit, sizeof unit, " a%d=\"\"", i);
        p += sprintf(p, "%s", unit);
    }
    *p = '\0';
    p = malloc(strlen(all) + 64);
    assert_non_null(p);
    sprintf(p, "<point%s device=\"cpu\"", all);
    write_edit(path, "<point device=\"cpu\"", p);
    free(all);
    free(p);
}

static void make_many_nodes(const char *path)
{
    write_repeat(path, "<points>", "<points>", "<a/>", RESULTS_MAX_NODES, "");
}

static void make_many_samples(const char *path)
{
    write_repeat(path, "<samples unit=\"s\">\n        <s wall=\"0.0001\"/>", "<samples unit=\"s\">",
                 "<s wall=\"0.0001\"/>", RESULTS_MAX_SAMPLES + 1, "");
}

static void make_many_props(const char *path)
{
    write_repeat(path, "<prop name=\"cores\" value=\"2\"/>", "", "<prop name=\"p\" value=\"v\"/>",
                 DEVICE_MAX_PROPS + 1, "");
}

static void make_many_devices(const char *path)
{
    char *all = malloc((RESULTS_MAX_DEVICES + 1) * 160), *p = all;
    int i;
    assert_non_null(all);
    for (i = 0; i < RESULTS_MAX_DEVICES + 1; i++)
        p += sprintf(p,
                     "<device id=\"d%d\" kind=\"opencl\" type=\"GPU\" name=\"\" vendor=\"\" "
                     "driver=\"\" library=\"\"/>",
                     i);
    p = malloc(strlen(all) + 16);
    assert_non_null(p);
    sprintf(p, "<devices>%s", all);
    write_edit(path, "<devices>", p);
    free(all);
    free(p);
}

static void make_many_outliers(const char *path)
{
    write_repeat(path, "<outlier point=\"2\"/>", "", "<outlier point=\"2\"/>", FIT_MAX_OUTLIERS + 1,
                 "");
}

static void make_many_hidden(const char *path)
{
    write_repeat(path, "<hidden value=\"64\" kind=\"never\" batch=\"0\" flops=\"0\"/>", "",
                 "<hidden value=\"64\" kind=\"never\" batch=\"0\" flops=\"0\"/>", LIST_MAX + 1, "");
}

static void make_many_prices(const char *path)
{
    write_repeat(path, "<price device=\"cpu\" usd-per-hour=\"0.12\"/>", "",
                 "<price device=\"cpu\" usd-per-hour=\"0.12\"/>", FIT_MAX_PRICES + 1, "");
}

/* ---- repeated elements ---- */

/* base with the line that starts with needle written twice. */
static void write_dup_line(const char *path, const char *needle)
{
    const char *hit = strstr(base, needle), *start, *end;
    char *t;
    size_t n;
    if (!hit)
        fail_msg("base.xml lacks \"%s\"", needle);
    for (start = hit; start > base && start[-1] != '\n'; start--)
        ;
    end = strchr(hit, '\n') + 1;
    n = strlen(base);
    t = malloc(n + (size_t)(end - start) + 1);
    assert_non_null(t);
    memcpy(t, base, (size_t)(end - base));
    memcpy(t + (end - base), start, (size_t)(end - start));
    memcpy(t + (end - base) + (end - start), end, n - (size_t)(end - base) + 1);
    write_text(path, t, strlen(t));
    free(t);
}

static void make_two_resident(const char *path)
{
    write_dup_line(path, "<summary view=\"resident\" n=\"5\" median=\"0.000125\"");
}

/* The whole first point, twice. */
static void make_dup_point(const char *path)
{
    const char *a = strstr(base, "    <point device=\"cpu\""), *b = strstr(a, "</point>\n") + 9;
    char *block = malloc((size_t)(b - a) + 1);
    assert_non_null(block);
    memcpy(block, a, (size_t)(b - a));
    block[b - a] = '\0';
    block = realloc(block, strlen(block) + 16);
    assert_non_null(block);
    strcat(block, "  </points>");
    write_edit(path, "  </points>", block);
    free(block);
}

/* A transfer summary on a point whose samples have no transfer times. */
static void make_stray_transfer(const char *path)
{
    const char *a = strstr(base, "<summary view=\"transfer\""), *b = strchr(a, '\n') + 1;
    char *line = malloc((size_t)(b - a) + 16), *to;
    assert_non_null(line);
    memcpy(line, a, (size_t)(b - a));
    line[b - a] = '\0';
    to = malloc(strlen(line) + 32);
    assert_non_null(to);
    sprintf(to, "%s    </point>", line);
    write_edit(path, "    </point>", to);
    free(line);
    free(to);
}

static void make_failed_no_max_error(const char *path)
{
    char *t = replace(base, "status=\"ok\"", "status=\"failed-verification\""), *u;
    u = replace(t, " max-error=\"0.125\"", "");
    write_text(path, u, strlen(u));
    free(t);
    free(u);
}

/* ---- text ---- */

static void make_long_name(const char *path)
{
    char *name = repeat("\xC3\xA9", 300), *to = malloc(strlen(name) + 16); /* é */
    assert_non_null(to);
    sprintf(to, "name=\"%s\"", name);
    write_edit(path, "name=\"GPU\"", to);
    free(name);
    free(to);
}

static void make_long_cpu(const char *path)
{
    char *name = repeat("\xF0\x9D\x84\x9E", 100), *to = malloc(strlen(name) + 16); /* U+1D11E */
    assert_non_null(to);
    sprintf(to, "cpu-model=\"%s\"", name);
    write_edit(path, "cpu-model=\"CPU\"", to);
    free(name);
    free(to);
}

static void make_huge_command(const char *path)
{
    char *cmd = repeat("ab\xC3\xA9", 250000), *to = malloc(strlen(cmd) + 16);
    assert_non_null(to);
    sprintf(to, "command=\"%s\"", cmd);
    write_edit(path, "command=\"breakeven run --quick\"", to);
    free(cmd);
    free(to);
}

/* ---- checks of clean loads ---- */

static void check_base(const results *r)
{
    assert_int_equal(r->ndevices, 2);
    assert_int_equal(r->npoints, 5);
    assert_int_equal(r->points[1].nsamples, 5);
    assert_int_equal(r->points[1].has_transfer, 1);
    assert_true(r->points[1].samples[0].total == 0.000203);
    assert_int_equal(r->fit.nmodels, 3);
    assert_int_equal(r->fit.ncross, 2);
    assert_int_equal(r->prices.n, 2);
    assert_string_equal(r->fit.cross[1].sentence,
                        "Per dollar, cl:0.0 beats cpu from 200 kFLOP per layer.");
}

static void check_telemetry_rapl(const results *r)
{
    const tel_point *t = &r->points[0].tel;
    assert_int_equal(t->kind, TEL_RAPL);
    assert_true(t->has_energy);
    assert_true(t->energy_j == 12.5 && t->energy_span_s == 1.25);
    assert_int_equal(t->energy_samples, 5);
    assert_int_equal(t->energy_visits, 1);
    assert_false(t->has_sm[0] || t->has_power[1] || t->has_throttle[0] || t->throttled);
    assert_int_equal(r->points[1].tel.kind, TEL_NONE);
}

static void check_telemetry_nvml(const results *r)
{
    const tel_point *t = &r->points[1].tel;
    assert_int_equal(t->kind, TEL_NVML);
    assert_false(t->has_energy);
    assert_true(t->has_sm[0] && t->has_sm[1] && t->has_temp[1]);
    assert_true(t->sm_mhz[0] == 1980 && t->sm_mhz[1] == 1755);
    assert_true(t->power_w[0] == 310.5 && t->temp_c[1] == 63);
    assert_true(t->throttle[0] == 0x1 && t->throttle[1] == 0x44);
    assert_true(t->throttled);
}

static void check_seed_max(const results *r)
{
    assert_true(r->prov.seed == ULLONG_MAX);
}

/* A pass's round trips between the CPUs (cachehop.h), as written. */
static void check_hop(const results *r)
{
    assert_int_equal(r->npasses, 1);
    assert_int_equal(r->passes[0].hop_checks, 4);
    assert_int_equal(r->passes[0].hop_far, 1);
    assert_true(r->passes[0].hop == 5e-08);
}

/* Three of five samples far: too few near ones to leave them out, so the
 * summary of all five stands. */
static void check_far_few(const results *r)
{
    assert_true(r->points[0].samples[0].far == 0.0 && r->points[0].samples[4].far == 1.0);
    assert_int_equal(r->points[0].resident.n, 5);
}

static void check_noncharacters(const results *r)
{
    assert_string_equal(r->devices[1].name, "G" UTF8_REPLACEMENT "P" UTF8_REPLACEMENT "U");
}

static void check_plane1_noncharacter(const results *r)
{
    assert_string_equal(r->devices[1].props[0].value, "8" UTF8_REPLACEMENT);
}

static void check_controls(const results *r)
{
    assert_string_equal(r->prov.host, "h" UTF8_REPLACEMENT "o" UTF8_REPLACEMENT "st\n");
}

static void check_long_name(const results *r)
{
    const char *n = r->devices[1].name;
    assert_int_equal(strlen(n), 254); /* 127 whole "é" in 256 bytes */
    assert_true(utf8_clean(n));
}

static void check_long_cpu(const results *r)
{
    assert_int_equal(strlen(r->prov.cpu_model), 252); /* 63 whole 4-byte characters */
    assert_true(utf8_clean(r->prov.cpu_model));
}

static void check_huge_command(const results *r)
{
    /* 511 "abé" of 4 bytes and "ab": the next "é" would need byte 2048 */
    assert_int_equal(strlen(r->prov.command), 2046);
    assert_true(utf8_clean(r->prov.command));
}

static void check_nan_max_error(const results *r)
{
    assert_int_equal(r->points[0].status, PT_FAILED_VERIFICATION);
    assert_true(isnan(r->points[0].max_error));
    assert_true(r->points[1].max_error == 0.125);
}

/* the base the user chose, loaded; every other device is measured against it */
static void check_run_base(const results *r)
{
    assert_string_equal(r->prov.base, "cl:0.0");
    assert_int_equal(q_base(r), 1);
}

static const hcase cases[] = {
    /* the file itself */
    {"base", "", "", NULL, NULL, check_base},
    {"missing", NULL, NULL, make_missing, ": cannot open: No such file or directory", NULL},
    {"directory", NULL, NULL, make_dir, ": is a directory, not a regular file", NULL},
    {"fifo", NULL, NULL, make_fifo, ": is a FIFO, not a regular file", NULL},
    {"symlink-to-fifo", NULL, NULL, make_fifo_link, ": is a FIFO, not a regular file", NULL},
    {"device", NULL, NULL, make_devnull_link, ": is a character device, not a regular file", NULL},
    {"socket", NULL, NULL, make_socket, ": cannot open: No such device or address", NULL},
    {"empty", NULL, NULL, make_empty, ": is empty", NULL},
    {"blank", NULL, NULL, make_blank, ":3: Start tag expected, '<' not found", NULL},
    {"not-xml", NULL, NULL, make_not_xml, ":1: Start tag expected, '<' not found", NULL},
    {"huge", NULL, NULL, make_huge, ": is 67108865 bytes; at most 67108864 are read", NULL},
    {"truncated", NULL, NULL, make_truncated, ":48: AttValue: ' expected", NULL},
    {"utf16", NULL, NULL, make_utf16, ":1: Start tag expected, '<' not found", NULL},
    {"crlf", NULL, NULL, make_crlf, NULL, check_base},
    {"xml-1.1", "<?xml version=\"1.0\"", "<?xml version=\"1.1\"", NULL, NULL, check_base},
    {"latin-1-declared", "encoding=\"UTF-8\"", "encoding=\"ISO-8859-1\"", NULL, NULL, check_base},
    {"rss", NULL, NULL, make_rss, ":1: not a breakeven results file (the root element is <rss>)",
     NULL},
    {"namespace", "<breakeven-results ", "<breakeven-results xmlns=\"urn:x\" ", NULL,
     ":2: not a breakeven results file (the root element is <breakeven-results>, in a namespace)",
     NULL},
    /* time stamps: a year a page can show (1970 to 9999), UTC, every field in range */
    {"year-int-min", "started=\"2026-11-22T00:00:00Z\"", "started=\"-2147483648-01-01T00:00:00Z\"",
     NULL, ":5: <run> attribute \"started\" is \"-2147483648-01-01T00:00:00Z\", not a UTC time",
     NULL},
    {"year-11-digits", "started=\"2026-11-22T00:00:00Z\"",
     "started=\"99999999999-01-01T00:00:00Z\"", NULL,
     ":5: <run> attribute \"started\" is \"99999999999-01-01T00:00:00Z\", not a UTC time", NULL},
    {"year-10000", "started=\"2026-11-22T00:00:00Z\"", "started=\"10000-01-01T00:00:00Z\"", NULL,
     ":5: <run> attribute \"started\" is \"10000-01-01T00:00:00Z\", not a UTC time", NULL},
    {"year-1969", "started=\"2026-11-22T00:00:00Z\"", "started=\"1969-12-31T23:59:59Z\"", NULL,
     ":5: <run> attribute \"started\" is \"1969-12-31T23:59:59Z\", not a UTC time", NULL},
    {"february-30", "started=\"2026-11-22T00:00:00Z\"", "started=\"2026-02-30T00:00:00Z\"", NULL,
     ":5: <run> attribute \"started\" is \"2026-02-30T00:00:00Z\", not a UTC time", NULL},
    {"time-offset", "started=\"2026-11-22T00:00:00Z\"", "started=\"2026-11-22T00:00:00+05:00\"",
     NULL, ":5: <run> attribute \"started\" is \"2026-11-22T00:00:00+05:00\", not a UTC time",
     NULL},
    {"time-no-zone", "started=\"2026-11-22T00:00:00Z\"", "started=\"2026-11-22T00:00:00\"", NULL,
     ":5: <run> attribute \"started\" is \"2026-11-22T00:00:00\", not a UTC time", NULL},
    {"year-9999", "started=\"2026-11-22T00:00:00Z\"", "started=\"9999-12-31T23:59:59.5Z\"", NULL,
     NULL, NULL},
    {"format-4", "format=\"1\"", "format=\"4\"", NULL,
     ":2: results format \"4\" is not supported (this breakeven reads formats 1 to 3)", NULL},
    {"format-missing", " format=\"1\"", "", NULL,
     ":2: <breakeven-results> lacks attribute \"format\"", NULL},

    /* repeated and missing elements */
    {"two-samples", "</samples>", "</samples><samples unit=\"s\"><s wall=\"0.0001\"/></samples>",
     NULL, ":26: does not match the results schema: Did not expect element samples there", NULL},
    {"two-verifications", "<samples unit=\"s\">",
     "<verification checked=\"1\" max-error=\"0\" tolerance=\"1e-6\" worst=\"\"/>"
     "<samples unit=\"s\">",
     NULL, ":20: does not match the results schema: Did not expect element verification there",
     NULL},
    {"two-provenances", "<devices>", "<provenance/><devices>", NULL,
     ":9: does not match the results schema: Did not expect element provenance there", NULL},
    {"two-fits", "</breakeven-results>", "<fit seed=\"1\"/></breakeven-results>", NULL,
     ":83: does not match the results schema: Did not expect element fit there", NULL},
    {"two-resident-summaries", NULL, NULL, make_two_resident,
     ":28: <point> has two \"resident\" summaries", NULL},
    {"two-points", NULL, NULL, make_dup_point,
     ":65: <point> repeats the point of line 18 (device \"cpu\", inference, layers=2 hidden=64 "
     "batch=16)",
     NULL},
    {"stray-transfer-summary", NULL, NULL, make_stray_transfer,
     ":18: <point> summaries do not match its samples (need \"resident\" only)", NULL},
    {"no-summary", "<summary view=\"resident\" n=\"5\" median=\"0.000125\"",
     "<other view=\"resident\" n=\"5\" median=\"0.000125\"", NULL,
     ":27: does not match the results schema: Did not expect element other there", NULL},
    {"missing-attribute", " batch=\"16\" flops", " flops", NULL,
     ":18: <point> lacks attribute \"batch\"", NULL},
    {"unknown-attribute", "<point device=\"cpu\"", "<point color=\"red\" device=\"cpu\"", NULL,
     ":18: does not match the results schema: Invalid attribute color for element point", NULL},
    {"namespaced-attribute", "<point device=\"cpu\"",
     "<point xmlns:x=\"urn:x\" x:device=\"gpu9\" device=\"cpu\"", NULL,
     ":18: does not match the results schema: Invalid attribute device for element point", NULL},
    {"sentence-with-element", "<sentence>In inference,", "<sentence><b/>In inference,", NULL,
     ":75: does not match the results schema: Datatype element sentence has child elements", NULL},
    {"kernel-without-total", "<s wall=\"0.0001\"/>", "<s wall=\"0.0001\" kernel=\"0.0001\"/>", NULL,
     ":21: <s> has \"kernel\" but no \"total\"", NULL},
    {"transfer-sample-without-total", " total=\"0.00022800000000000001\"", "", NULL,
     ":33: <s> lacks attribute \"total\"", NULL},
    {"ok-without-max-error", " max-error=\"0.125\"", "", NULL,
     ":19: <verification> lacks \"max-error\", which only a failed verification may", NULL},
    {"failed-without-max-error", NULL, NULL, make_failed_no_max_error, NULL, check_nan_max_error},

    /* numbers */
    {"inf", "wall=\"0.0001\"", "wall=\"INF\"", NULL,
     ":21: <s> attribute \"wall\" is \"INF\", not a number from 1e-12 to 1e+06", NULL},
    {"minus-inf", "wall=\"0.0001\"", "wall=\"-INF\"", NULL,
     ":21: <s> attribute \"wall\" is \"-INF\", not a number from 1e-12 to 1e+06", NULL},
    {"nan", "wall=\"0.0001\"", "wall=\"NaN\"", NULL,
     ":21: <s> attribute \"wall\" is \"NaN\", not a number from 1e-12 to 1e+06", NULL},
    {"1e308", "wall=\"0.0001\"", "wall=\"1e308\"", NULL,
     ":21: <s> attribute \"wall\" is \"1e308\", not a number from 1e-12 to 1e+06", NULL},
    {"1e400", "wall=\"0.0001\"", "wall=\"1e400\"", NULL,
     ":21: <s> attribute \"wall\" is \"1e400\", not a number from 1e-12 to 1e+06", NULL},
    {"denormal", "wall=\"0.0001\"", "wall=\"4.9e-324\"", NULL,
     ":21: <s> attribute \"wall\" is \"4.9e-324\", not a number from 1e-12 to 1e+06", NULL},
    {"negative-time", "wall=\"0.0001\"", "wall=\"-0.0001\"", NULL,
     ":21: <s> attribute \"wall\" is \"-0.0001\", not a number from 1e-12 to 1e+06", NULL},
    {"hex-float", "wall=\"0.0001\"", "wall=\"0x1p-13\"", NULL,
     ":21: <s> attribute \"wall\" is \"0x1p-13\", not a number from 1e-12 to 1e+06", NULL},
    {"spaced-number", "wall=\"0.0001\"", "wall=\" 0.0001\t\"", NULL, NULL, check_base},
    /* what a sweep wrote under heavy contention over two passes: an
     * interval from about 0 to far beyond any step, honest and loadable */
    {"wide-interval", "ci-lo=\"0.0001\" ci-hi=\"0.00015000000000000001\"",
     "ci-lo=\"1.3546178942061406e-17\" ci-hi=\"57053135.80766546\"", NULL, NULL, NULL},
    {"negative-interval", "ci-lo=\"0.0001\"", "ci-lo=\"-1e-9\"", NULL,
     ":27: <summary> attribute \"ci-lo\" is \"-1e-9\", not a number from 0 to 1e+300", NULL},
    /* an interval inverted, not a number, or below zero: refused, one line
     * (issue 41) */
    {"inverted-interval", "ci-lo=\"0.0001\" ci-hi=\"0.00015000000000000001\"",
     "ci-lo=\"0.00015000000000000001\" ci-hi=\"0.0001\"", NULL,
     ":27: <summary> statistics are not in order (min <= p10, ci-lo <= median <= ci-hi, p90 <= "
     "max, mean within min..max)",
     NULL},
    {"nan-interval", "ci-hi=\"0.00015000000000000001\"", "ci-hi=\"NaN\"", NULL,
     ":27: <summary> attribute \"ci-hi\" is \"NaN\", not a number from 0 to 1e+300", NULL},
    {"crossover-inverted-interval", "ci-lo=\"150000\" ci-hi=\"250000\"",
     "ci-lo=\"250000\" ci-hi=\"150000\"", NULL, ":78: <crossover> ci-lo is above ci-hi", NULL},
    {"crossover-nan-interval", "ci-lo=\"150000\"", "ci-lo=\"nan\"", NULL,
     ":78: <crossover> attribute \"ci-lo\" is \"nan\", not a number from 0 to 1e+300", NULL},
    {"crossover-negative-interval", "ci-lo=\"150000\"", "ci-lo=\"-150000\"", NULL,
     ":78: <crossover> attribute \"ci-lo\" is \"-150000\", not a number from 0 to 1e+300", NULL},
    {"huge-integer", "cores=\"2\"", "cores=\"99999999999999999999999\"", NULL,
     ":6: <host> attribute \"cores\" is \"99999999999999999999999\", not an integer from 1 to "
     "1048576",
     NULL},
    {"float-integer", "cores=\"2\"", "cores=\"1e400\"", NULL,
     ":6: <host> attribute \"cores\" is \"1e400\", not an integer from 1 to 1048576", NULL},
    {"hidden-beyond-int", "hidden=\"64\" batch=\"16\"", "hidden=\"2147483648\" batch=\"16\"", NULL,
     ":18: <point> attribute \"hidden\" is \"2147483648\", not an integer from 1 to 65536", NULL},
    {"layers-zero", "mode=\"inference\" layers=\"2\"", "mode=\"inference\" layers=\"0\"", NULL,
     ":18: <point> attribute \"layers\" is \"0\", not an integer from 1 to 64", NULL},
    {"seed-2^64", "seed=\"1\"", "seed=\"18446744073709551616\"", NULL,
     ":5: <run> attribute \"seed\" is \"18446744073709551616\", not an integer from 0 to 2^64-1",
     NULL},
    {"seed-negative", "seed=\"1\"", "seed=\"-1\"", NULL,
     ":5: <run> attribute \"seed\" is \"-1\", not an integer from 0 to 2^64-1", NULL},
    {"seed-max", "seed=\"1\"", "seed=\"18446744073709551615\"", NULL, NULL, check_seed_max},
    /* the base device the user chose (--base): one of the run's devices, an id */
    {"run-base", "seed=\"1\"", "base=\"cl:0.0\" seed=\"1\"", NULL, NULL, check_run_base},
    {"run-base-empty", "seed=\"1\"", "base=\"\" seed=\"1\"", NULL,
     ":5: <run> attribute \"base\" is \"\", not 1 to 31 bytes", NULL},
    {"run-base-unlisted", "seed=\"1\"", "base=\"cl:9.9\" seed=\"1\"", NULL,
     ":9: <run> has base=\"cl:9.9\", which <devices> does not list", NULL},
    /* 32 bytes: an id one longer than any device's, refused, not cut to one */
    {"run-base-long", "seed=\"1\"", "base=\"cl:0.000000000000000000000000000\" seed=\"1\"", NULL,
     ":5: <run> attribute \"base\" is \"cl:0.000000000000000000000000000\", not 1 to 31 bytes",
     NULL},
    /* the CPUs' round trips of a pass, and samples taken a cache apart */
    {"hop", "threads=\"2\"/>",
     "threads=\"2\"/><passes><pass index=\"1\" started=\"2026-11-22T00:00:00Z\" seconds=\"1\" "
     "visits=\"4\" hop-checks=\"4\" hop-far=\"1\" hop=\"5e-08\"/></passes>",
     NULL, NULL, check_hop},
    {"hop-far-beyond-checks", "threads=\"2\"/>",
     "threads=\"2\"/><passes><pass index=\"1\" started=\"2026-11-22T00:00:00Z\" seconds=\"1\" "
     "visits=\"4\" hop-checks=\"4\" hop-far=\"5\" hop=\"5e-08\"/></passes>",
     NULL, ":7: <pass> attribute \"hop-far\" is \"5\", not an integer from 0 to 4", NULL},
    {"hop-checks-beyond-visits", "threads=\"2\"/>",
     "threads=\"2\"/><passes><pass index=\"1\" started=\"2026-11-22T00:00:00Z\" seconds=\"1\" "
     "visits=\"4\" hop-checks=\"9\" hop-far=\"1\" hop=\"5e-08\"/></passes>",
     NULL, ":7: <pass> attribute \"hop-checks\" is \"9\", not an integer from 1 to 4", NULL},
    {"far-2", "wall=\"0.0001\"/>", "wall=\"0.0001\" far=\"2\"/>", NULL,
     ":21: <s> attribute \"far\" is \"2\", not an integer from 1 to 1", NULL},
    /* one far sample of five: a summary of all five, as this version
     * writes it (near ones alone only where at least half of them come from
     * two passes: results.h); a summary of the four near ones, as earlier
     * versions wrote it, is read too (results_check.c) */
    {"far-summary-of-all", "wall=\"0.00015000000000000001\"/>",
     "wall=\"0.00015000000000000001\" far=\"1\"/>", NULL, NULL, check_far_few},
    {"far-few",
     "<s wall=\"0.000125\"/>\n        <s wall=\"0.00013750000000000001\"/>\n        <s "
     "wall=\"0.00015000000000000001\"/>",
     "<s wall=\"0.000125\" far=\"1\"/>\n        <s wall=\"0.00013750000000000001\" far=\"1\"/>\n"
     "        <s wall=\"0.00015000000000000001\" far=\"1\"/>",
     NULL, NULL, check_far_few},
    {"memory-1e19", "memory-bytes=\"4000000000\"", "memory-bytes=\"1e19\"", NULL,
     ":6: <host> attribute \"memory-bytes\" is \"1e19\", not a number from 0 to 1e+18", NULL},
    {"price-zero", "usd-per-hour=\"0.12\"", "usd-per-hour=\"0\"", NULL,
     ":67: <price> attribute \"usd-per-hour\" is \"0\", not a number from 1e-09 to 1e+09", NULL},
    {"P-1e300", "P=\"5000000000\"", "P=\"1e300\"", NULL,
     ":69: <model> attribute \"P\" is \"1e300\", not a number from 2.22507e-308 to 1e+150", NULL},
    {"flops-1e31", "flops-per-layer=\"132096\"", "flops-per-layer=\"1e31\"", NULL,
     ":18: <point> attribute \"flops-per-layer\" is \"1e31\", not a number from 1 to 1e+30", NULL},
    {"ci-level-2", "ci-level=\"0.9375\"", "ci-level=\"2\"", NULL,
     ":27: <summary> attribute \"ci-level\" is \"2\", not a number from 0 to 1", NULL},
    {"unknown-status", "status=\"ok\"", "status=\"fast\"", NULL,
     ":18: <point> attribute \"status\" is \"fast\", which is not known", NULL},
    {"summary-n", "n=\"5\" median=\"0.000125\"", "n=\"4\" median=\"0.000125\"", NULL,
     ":27: <summary> n=4 but the point has 5 samples", NULL},
    {"summary-min", "min=\"0.0001\"", "min=\"0.00009\"", NULL,
     ":27: <summary> min and max are not those of the samples", NULL},
    {"summary-order", "p10=\"0.000105\"", "p10=\"0.00014\"", NULL,
     ":27: <summary> statistics are not in order", NULL},

/* telemetry (src/machine/telemetry.h), on the CPU point of line 27 and the OpenCL
     * point of line 39 */
#define CPU_SUMMARY_END "gflops=\"2.1135359999999999\"/>"
#define TEL_CPU(attrs) CPU_SUMMARY_END "<telemetry " attrs "/>"
    {"telemetry-rapl", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"12.5\" energy-span-s=\"1.25\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL, NULL, check_telemetry_rapl},
    {"telemetry-nvml", "gflops=\"1.0442371541501976\"/>",
     "gflops=\"1.0442371541501976\"/><telemetry source=\"nvml\" sm-mhz-before=\"1980\" "
     "sm-mhz-after=\"1755\" mem-mhz-before=\"2619\" mem-mhz-after=\"2619\" "
     "power-w-before=\"310.5\" power-w-after=\"699\" temp-c-before=\"41\" temp-c-after=\"63\" "
     "throttle-before=\"0x1\" throttle-after=\"0x44\" throttled=\"yes\"/>",
     NULL, NULL, check_telemetry_nvml},
    {"telemetry-energy-nan", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"NaN\" energy-span-s=\"1.25\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL, ":27: <telemetry> attribute \"energy-j\" is \"NaN\", not a number from 0 to 1e+12",
     NULL},
    {"telemetry-energy-inf", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"INF\" energy-span-s=\"1.25\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL, ":27: <telemetry> attribute \"energy-j\" is \"INF\", not a number from 0 to 1e+12",
     NULL},
    {"telemetry-energy-negative", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"-1\" energy-span-s=\"1.25\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL, ":27: <telemetry> attribute \"energy-j\" is \"-1\", not a number from 0 to 1e+12", NULL},
    {"telemetry-span-short", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"1\" energy-span-s=\"0.5\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL,
     ":27: <telemetry> attribute \"energy-span-s\" is \"0.5\", not a number from 1 to "
     "1e+06",
     NULL},
    {"telemetry-energy-partial", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\" energy-j=\"1\""), NULL,
     ":27: <telemetry> lacks attribute \"energy-span-s\"", NULL},
    {"telemetry-megawatts", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"5e6\" energy-span-s=\"2\" energy-samples=\"5\" "
             "energy-visits=\"1\""),
     NULL, ":27: <telemetry> energy-j is more than 1e+06 W over energy-span-s", NULL},
    {"telemetry-energy-samples", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"1\" energy-span-s=\"1\" energy-samples=\"10000001\" "
             "energy-visits=\"1\""),
     NULL,
     ":27: <telemetry> attribute \"energy-samples\" is \"10000001\", not an integer from 1 to "
     "10000000",
     NULL},
    {"telemetry-span-for-visits", "gflops=\"1.0442371541501976\"/>",
     "gflops=\"1.0442371541501976\"/><telemetry source=\"nvml\" energy-j=\"900\" "
     "energy-span-s=\"2.5\" energy-samples=\"5\" energy-visits=\"3\"/>",
     NULL, ":39: <telemetry> energy-span-s=2.5 is too short for 3 visits of nvml (at least 3 s)",
     NULL},
    {"telemetry-visits-over-samples", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"1\" energy-span-s=\"2\" energy-samples=\"2\" "
             "energy-visits=\"3\""),
     NULL, ":27: <telemetry> energy-visits=3 is more than its energy-samples=2", NULL},
    {"telemetry-visits-zero", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" energy-j=\"1\" energy-span-s=\"2\" energy-samples=\"2\" "
             "energy-visits=\"0\""),
     NULL, ":27: <telemetry> attribute \"energy-visits\" is \"0\", not an integer from 1 to 1000",
     NULL},
    {"telemetry-unknown-source", CPU_SUMMARY_END, TEL_CPU("source=\"cuda\""), NULL,
     ":27: <telemetry> attribute \"source\" is \"cuda\", which is not known", NULL},
    {"telemetry-source-of-other-device", CPU_SUMMARY_END, TEL_CPU("source=\"nvml\""), NULL,
     ":27: <telemetry> source \"nvml\" cannot read device \"cpu\" (openblas)", NULL},
    {"telemetry-power", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\" power-w-before=\"1e7\""), NULL,
     ":27: <telemetry> attribute \"power-w-before\" is \"1e7\", not a number from 0 to "
     "1e+06",
     NULL},
    {"telemetry-temperature", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\" temp-c-after=\"-300\""),
     NULL,
     ":27: <telemetry> attribute \"temp-c-after\" is \"-300\", not a number from -273.15 "
     "to 1000",
     NULL},
    {"telemetry-clock-nan", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\" sm-mhz-before=\"NaN\""), NULL,
     ":27: <telemetry> attribute \"sm-mhz-before\" is \"NaN\", not a number from 0 to "
     "1e+06",
     NULL},
    {"telemetry-reasons-decimal", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" throttle-before=\"4\" throttled=\"yes\""), NULL,
     ":27: <telemetry> attribute \"throttle-before\" is \"4\", not 0x and 1 to 16 hex digits",
     NULL},
    {"telemetry-reasons-long", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" throttle-after=\"0x11111111111111111\" throttled=\"yes\""), NULL,
     ":27: <telemetry> attribute \"throttle-after\" is \"0x11111111111111111\", not 0x and 1 "
     "to 16 hex digits",
     NULL},
    {"telemetry-throttled-mismatch", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" throttle-after=\"0x4\" throttled=\"no\""), NULL,
     ":27: <telemetry> throttled=\"no\" does not match its throttle reasons", NULL},
    {"telemetry-throttled-alone", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\" throttled=\"yes\""),
     NULL, ":27: <telemetry> has \"throttled\" without throttle reasons", NULL},
    {"telemetry-throttled-maybe", CPU_SUMMARY_END,
     TEL_CPU("source=\"rapl\" throttle-after=\"0x4\" throttled=\"maybe\""), NULL,
     ":27: <telemetry> attribute \"throttled\" is \"maybe\", which is not known", NULL},
    {"telemetry-twice", CPU_SUMMARY_END, TEL_CPU("source=\"rapl\"") "<telemetry source=\"rapl\"/>",
     NULL, ":27: does not match the results schema: Did not expect element telemetry there", NULL},
    {"telemetry-without-samples", "ALLOCATION_FAILURE\"/>",
     "ALLOCATION_FAILURE\"><telemetry source=\"nvml\"/></point>", NULL,
     ":64: <telemetry> of a point without samples", NULL},
#undef TEL_CPU
#undef CPU_SUMMARY_END

    /* entities, DTDs, XInclude */
    {"billion-laughs", NULL, NULL, make_billion_laughs,
     ":2: a DOCTYPE is not allowed in a results file", NULL},
    {"entity-flood", NULL, NULL, make_entity_flood,
     ":2: a DOCTYPE is not allowed in a results file", NULL},
    {"external-entity", NULL, NULL, make_xxe, ":2: a DOCTYPE is not allowed in a results file",
     NULL},
    {"remote-dtd", "<breakeven-results ",
     "<!DOCTYPE breakeven-results SYSTEM \"http://127.0.0.1:9/results.dtd\">\n<breakeven-results ",
     NULL, ":2: a DOCTYPE is not allowed in a results file", NULL},
    {"parameter-entity", "<breakeven-results ",
     "<!DOCTYPE breakeven-results [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n"
     "<breakeven-results ",
     NULL, ":2: a DOCTYPE is not allowed in a results file", NULL},
    {"undeclared-entity", "name=\"CPU\"", "name=\"&foo;\"", NULL, ":10: Entity 'foo' not defined",
     NULL},
    {"xinclude", NULL, NULL, make_xinclude,
     ":4: does not match the results schema: Did not expect element include there", NULL},
    {"deep-nesting", NULL, NULL, make_deep,
     ":17: Excessive depth in document: 256 use XML_PARSE_HUGE option", NULL},

    /* UTF-8 */
    {"invalid-utf8", "name=\"CPU\"", "name=\"\xC3\x28\"", NULL,
     ":10: Input is not proper UTF-8, indicate encoding !\\nBytes: 0xC3 0x28", NULL},
    {"overlong-utf8", "name=\"CPU\"", "name=\"\xC0\xAF\"", NULL,
     ":10: Input is not proper UTF-8, indicate encoding !\\nBytes: 0xC0 0xAF", NULL},
    {"surrogate-utf8", "name=\"CPU\"", "name=\"\xED\xA0\x80\"", NULL,
     ":10: Char 0xD800 out of allowed range", NULL},
    {"fffe-reference", "name=\"CPU\"", "name=\"&#xFFFE;\"", NULL,
     ":10: xmlParseCharRef: invalid xmlChar value 65534", NULL},
    {"escape-reference", "name=\"CPU\"", "name=\"&#27;[31m\"", NULL,
     ":10: xmlParseCharRef: invalid xmlChar value 27", NULL},
    {"noncharacters", "name=\"GPU\"", "name=\"G&#xFDD0;P\xEF\xB7\xAFU\"", NULL, NULL,
     check_noncharacters},
    {"plane-1-noncharacter", "value=\"8\"", "value=\"8\xF0\x9F\xBF\xBE\"", NULL, NULL,
     check_plane1_noncharacter},
    {"controls", "name=\"host\"", "name=\"h&#x9B;o\x7Fst&#10;\"", NULL, NULL, check_controls},
    {"id-newline", "<device id=\"cl:0.0\"", "<device id=\"cl:0.0&#10;&#13;x\"", NULL,
     ":13: <device> attribute \"id\" is \"cl:0.0\\n\\rx\", which holds control characters, "
     "non-characters or invalid UTF-8",
     NULL},
    {"id-noncharacter", "<device id=\"cl:0.0\"", "<device id=\"cl:0.0&#x1FFFE;\"", NULL,
     ":13: <device> attribute \"id\" is \"cl:0.0\\U0001FFFE\", which holds control characters, "
     "non-characters or invalid UTF-8",
     NULL},
    {"id-32-bytes", "<device id=\"cl:0.0\"", "<device id=\"abcdefghijklmnopqrstuvwxyz012345\"",
     NULL,
     ":13: <device> attribute \"id\" is \"abcdefghijklmnopqrstuvwxyz012345\", not 1 to 31 bytes",
     NULL},
    {"id-16-wide-characters", "<device id=\"cl:0.0\"",
     "<device id=\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3"
     "\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"",
     NULL,
     ":13: <device> attribute \"id\" is \"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
     "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\", "
     "not 1 to 31 bytes",
     NULL},
    {"long-utf8-name", NULL, NULL, make_long_name, NULL, check_long_name},
    {"long-4-byte-name", NULL, NULL, make_long_cpu, NULL, check_long_cpu},
    {"huge-command", NULL, NULL, make_huge_command, NULL, check_huge_command},

    /* references and duplicates */
    {"point-unknown-device", "<point device=\"cpu\"", "<point device=\"gpu9\"", NULL,
     ":18: <point> refers to device \"gpu9\", which <devices> does not list", NULL},
    {"model-unknown-device", "<model device=\"cpu\"", "<model device=\"gpu9\"", NULL,
     ":69: <model> is of device \"gpu9\", which <devices> does not list", NULL},
    {"crossover-unknown-device",
     "other=\"cl:0.0\" mode=\"inference\" view=\"resident\" measure=\"time\"",
     "other=\"gpu9\" mode=\"inference\" view=\"resident\" measure=\"time\"", NULL,
     ":74: <crossover> of \"cpu\" and \"gpu9\": two different devices that <devices> lists", NULL},
    {"crossover-same-device", "base=\"cpu\" other=\"cl:0.0\"", "base=\"cl:0.0\" other=\"cl:0.0\"",
     NULL,
     ":74: <crossover> of \"cl:0.0\" and \"cl:0.0\": two different devices that <devices> lists",
     NULL},
    {"price-unknown-device", "<price device=\"cpu\"", "<price device=\"gpu9\"", NULL,
     ":67: <price> of device \"gpu9\", which <devices> does not list", NULL},
    {"device-twice", "<device id=\"cl:0.0\"", "<device id=\"cpu\"", NULL,
     ":13: device \"cpu\" is listed twice", NULL},
    {"point-twice-added", "batch=\"32\" flops-per-layer=\"264192\"",
     "batch=\"16\" flops-per-layer=\"264192\"", NULL,
     ":41: <point> repeats the point of line 18 (device \"cpu\", inference, layers=2 hidden=64 "
     "batch=16)",
     NULL},
    {"model-twice", "<model device=\"cl:0.0\" mode=\"inference\" view=\"resident\"",
     "<model device=\"cpu\" mode=\"inference\" view=\"resident\"", NULL,
     ":72: a second <model> of device \"cpu\", inference, resident", NULL},
    {"price-twice", "<price device=\"cl:0.0\"", "<price device=\"cpu\"", NULL,
     ":68: a second <price> of device \"cpu\"", NULL},
    {"crossover-twice", "measure=\"cost\"", "measure=\"time\"", NULL,
     ":78: a second <crossover> of \"cpu\" and \"cl:0.0\", inference, resident, time", NULL},
    {"outlier-other-device", "<outlier point=\"2\"/>", "<outlier point=\"1\"/>", NULL,
     ":70: <outlier> point 1 is not one of the 5 points of this model's device and mode", NULL},
    {"outlier-beyond", "<outlier point=\"2\"/>", "<outlier point=\"99\"/>", NULL,
     ":70: <outlier> point 99 is not one of the 5 points of this model's device and mode", NULL},
    {"model-points", "ok=\"yes\" points=\"2\"", "ok=\"yes\" points=\"99\"", NULL,
     ":69: <model> points=99 fmin=133120 fmax=266240 do not fit the 5 points", NULL},

    /* counts */
    {"many-attributes", NULL, NULL, make_many_attrs, ":18: a tag with more than 128 attributes",
     NULL},
    {"many-nodes", NULL, NULL, make_many_nodes, ":17: more than 2000000 elements and attributes",
     NULL},
    {"many-samples", NULL, NULL, make_many_samples, ":20: <samples> holds more than 10000 <s>",
     NULL},
    {"many-props", NULL, NULL, make_many_props, ":11: <device> holds more than 32 <prop>", NULL},
    {"many-devices", NULL, NULL, make_many_devices, ":9: <devices> holds more than 64 <device>",
     NULL},
    {"many-outliers", NULL, NULL, make_many_outliers, ":70: <model> holds more than 64 <outlier>",
     NULL},
    {"many-hidden", NULL, NULL, make_many_hidden, ":76: <crossover> holds more than 64 <hidden>",
     NULL},
    {"many-prices", NULL, NULL, make_many_prices, ":67: <fit> holds more than 16 <price>", NULL},
};

/* ---- the save side: no number that is not finite reaches the file ---- */

static results *load_base(void)
{
    results *r = NULL;
    char path[512];
    err e;
    snprintf(path, sizeof path, "%s/base-copy.xml", tmpdir);
    write_text(path, base, strlen(base));
    if (results_load(path, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return r;
}

static void expect_refused(results *r, const char *what)
{
    char path[512], expect[700];
    err e;
    snprintf(path, sizeof path, "%s/nonfinite.xml", tmpdir);
    unlink(path);
    assert_int_equal(results_save(r, NULL, path, &e), BE_EFAIL);
    snprintf(expect, sizeof expect, "%s: not saved: %s, which is not a finite number", path, what);
    assert_string_equal(e.msg, expect);
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
}

static void test_save_refuses_nonfinite(void **state)
{
    results *r = load_base();
    (void)state;
    r->fit.models[0].P = INFINITY;
    expect_refused(r, "<model> attribute \"P\" would be inf");
    r->fit.models[0].P = 5e9;
    r->points[0].resident.median = NAN;
    expect_refused(r, "<summary> attribute \"median\" would be nan");
    r->points[0].resident.median = 1e-310; /* gflops = FLOPs / median overflows */
    expect_refused(r, "<summary> attribute \"gflops\" would be inf");
    r->points[0].resident.median = 0.000125;
    r->prov.memory = -INFINITY;
    expect_refused(r, "<host> attribute \"memory-bytes\" would be -inf");
    results_free(r);
}

/* Each point asked alone (results_point_saveable, after each visit of the
 * sweep): a number no file can hold names itself, and fails that point
 * only. */
static void test_point_saveable(void **state)
{
    results *r = load_base();
    char what[128];
    (void)state;
    assert_int_equal(results_point_saveable(&r->points[0], what, sizeof what), 1);
    assert_string_equal(what, "");
    r->points[0].samples[1].wall = INFINITY;
    assert_int_equal(results_point_saveable(&r->points[0], what, sizeof what), 0);
    assert_string_equal(what, "<s> attribute \"wall\" would be inf");
    assert_int_equal(results_point_saveable(&r->points[1], what, sizeof what), 1);
    r->points[1].resident.median = 1e-310;
    assert_int_equal(results_point_saveable(&r->points[1], what, sizeof what), 0);
    assert_string_equal(what, "<summary> attribute \"gflops\" would be inf");
    results_free(r);
}

/* A verification that found NaN: the file omits max-error, and loads back. */
static void test_save_nan_max_error(void **state)
{
    results *r = load_base(), *back = NULL;
    char path[512], *text;
    const char *p;
    err e;
    int n = 0;
    (void)state;
    r->points[0].status = PT_FAILED_VERIFICATION;
    r->points[0].max_error = NAN;
    snprintf(path, sizeof path, "%s/nan-error.xml", tmpdir);
    if (results_save(r, NULL, path, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(fsx_read_all(path, &text, NULL, &e), BE_OK);
    for (p = text; (p = strstr(p, "max-error=")); p++)
        n++;
    assert_int_equal(n, 3); /* of the 4 verifications, not the one with NaN */
    assert_null(strstr(text, "\"nan\""));
    free(text);
    if (results_load(path, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_true(isnan(back->points[0].max_error));
    assert_true(back->points[1].max_error == 0.125);
    results_free(r);
    results_free(back);
}

/* What the loader accepts, the saver writes back, and it loads again. */
static void test_round_trip(void **state)
{
    results *r = load_base(), *back = NULL;
    char path[512];
    err e;
    (void)state;
    snprintf(path, sizeof path, "%s/again.xml", tmpdir);
    assert_int_equal(results_save(r, NULL, path, &e), BE_OK);
    if (results_load(path, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    check_base(back);
    results_free(r);
    results_free(back);
}

/* ---- utf8 ---- */

static void test_utf8(void **state)
{
    char buf[16];
    size_t len;
    (void)state;
    assert_int_equal(utf8_decode("\xF4\x8F\xBF\xBF", 4, &len), 0x10FFFF);
    assert_int_equal(len, 4);
    assert_int_equal(utf8_decode("\xF4\x90\x80\x80", 4, &len), -1); /* beyond U+10FFFF */
    assert_int_equal(utf8_decode("\xE0\x80\xAF", 3, &len), -1);     /* overlong */
    assert_int_equal(utf8_decode("\xE2\x82", 2, &len), -1);         /* truncated */
    assert_int_equal(len, 1);
    assert_true(utf8_noncharacter(0xFDD0) && utf8_noncharacter(0xFDEF));
    assert_true(utf8_noncharacter(0xFFFE) && utf8_noncharacter(0x10FFFF));
    assert_false(utf8_noncharacter(0xFDCF) || utf8_noncharacter(0xFFFD));
    /* a cut never splits a character: "aé" does not fit in 3 bytes */
    assert_int_equal(utf8_copy(buf, 3, "a\xC3\xA9"), 1);
    assert_string_equal(buf, "a");
    assert_int_equal(utf8_copy(buf, sizeof buf,
                               "a\xFF"
                               "b"),
                     1);
    assert_string_equal(buf, "a" UTF8_REPLACEMENT "b");
    assert_int_equal(utf8_copy(buf, sizeof buf, "tab\there"), 0);
    assert_int_equal(utf8_escape(buf, sizeof buf, "a\nb\x1B\\"), 0);
    assert_string_equal(buf, "a\\nb\\x1B\\\\");
    assert_int_equal(utf8_escape(buf, 8, "abcdefghij"), 1);
    assert_string_equal(buf, "abcd...");
    assert_int_equal(utf8_escape(buf, 8, "abcdefg"), 0);
    assert_string_equal(buf, "abcdefg");
}

/* ---- the archive ---- */

#define BASE_ID "20261122T000000Z-host"

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

/* The warnings of a report, one line each. */
typedef struct warnings {
    int n;
    char text[8192];
} warnings;

static void collect(void *ctx, const char *line)
{
    warnings *w = ctx;
    w->n++;
    assert_one_line(line);
    snprintf(w->text + strlen(w->text), sizeof w->text - strlen(w->text), "%s\n", line);
}

/* report_write of out (runs: NULL for every run of the archive). */
static int report(const char *out, const char *run, const char *data, warnings *w, err *e)
{
    const char *runs[1];
    char index[600];
    report_opts o;
    memset(&o, 0, sizeof o);
    memset(w, 0, sizeof *w);
    runs[0] = run;
    o.out = out;
    o.runs = runs;
    o.nruns = run ? 1 : 0;
    o.data_dir = data ? data : ".";
    o.warn = collect;
    o.warn_ctx = w;
    return report_write(&o, index, sizeof index, e);
}

static int exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int exists(const char *fmt, ...)
{
    char p[1024];
    struct stat st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    return lstat(p, &st) == 0;
}

/* Fails when a staging directory or a temporary file is left in out. */
static void assert_no_leftovers(const char *out)
{
    char cmd[700];
    FILE *f;
    int c;
    snprintf(cmd, sizeof cmd, "find '%s' -name '.import-*' -o -name '*.tmp.*'", out);
    f = popen(cmd, "r");
    assert_non_null(f);
    c = fgetc(f);
    pclose(f);
    if (c != EOF)
        fail_msg("a staging directory or a temporary file is left in %s", out);
}

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

/* An import whose id is archived: the same samples are that run; other
 * samples get a new id, with a warning, and the archived run stays as it
 * was. */
static void test_archive_import_same_id(void **state)
{
    char out[400], a[400], b[400], keep[400], arch[600], arch2[600];
    results *r = NULL;
    warnings w;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/import", tmpdir);
    snprintf(a, sizeof a, "%s/import-a.xml", tmpdir);
    snprintf(b, sizeof b, "%s/import-b.xml", tmpdir);
    snprintf(keep, sizeof keep, "%s/import-keep.xml", tmpdir);
    snprintf(arch, sizeof arch, "%s/runs/" BASE_ID "/results.xml.gz", out);
    snprintf(arch2, sizeof arch2, "%s/runs/" BASE_ID "-2/results.xml.gz", out);
    write_text(a, base, strlen(base));
    /* another second sample: the same run id, other samples */
    write_edit(b, "wall=\"0.00011250000000000001\"", "wall=\"0.0001126\"");
    if (report(out, a, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 0);
    assert_true(exists("%s", arch));
    sh("cp '%s' '%s'", arch, keep);
    /* the same file again: nothing changes */
    if (report(out, a, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 0);
    assert_true(same_file(arch, keep));
    assert_false(exists("%s", arch2));
    /* other samples: a new id, said so; the archived run as it was */
    if (report(out, b, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 1);
    assert_non_null(strstr(w.text, "imported as run " BASE_ID "-2"));
    assert_true(same_file(arch, keep));
    if (results_load(arch2, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(r->prov.id, BASE_ID "-2");
    results_free(r);
    /* and that file once more: it is run -2 now */
    if (report(out, b, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 0);
    assert_false(exists("%s/runs/" BASE_ID "-3", out));
    /* the whole archive: both runs */
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 0);
    assert_true(exists("%s/runs/" BASE_ID "-2/index.html", out));
    assert_no_leftovers(out);
}

/* Writes base.xml with the run id and start time changed. */
static void write_run(const char *path, const char *id, const char *started)
{
    char run[300], *t, *u;
    snprintf(run, sizeof run, "<run id=\"%s\" started=\"%s\"", id, started);
    t = replace(base, "<run id=\"" BASE_ID "\" started=\"2026-11-22T00:00:00Z\"", run);
    u = strstr(t, "<run ") ? t : NULL;
    assert_non_null(u);
    write_text(path, t, strlen(t));
    free(t);
}

/* Run directories of the archive: a symbolic link out of OUT, a link as
 * results.xml, a directory holding another run: each skipped with a
 * warning naming it, nothing written through them, the rest reported. */
static void test_archive_links(void **state)
{
    char out[400], outside[400], p[700];
    warnings w;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/links", tmpdir);
    snprintf(outside, sizeof outside, "%s/outside", tmpdir);
    sh("mkdir -p '%s/runs/" BASE_ID "' '%s/r1' '%s/runs/20261123T000000Z-other' "
       "'%s/runs/20261124T000000Z-linkfile'",
       out, outside, out, out);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    snprintf(p, sizeof p, "%s/r1/results.xml", outside);
    write_run(p, "20261125T000000Z-evil", "2026-11-25T00:00:00Z");
    sh("ln -s '%s/r1' '%s/runs/20261125T000000Z-evil'", outside, out);
    snprintf(p, sizeof p, "%s/runs/20261123T000000Z-other/results.xml", out);
    write_run(p, "20261126T000000Z-victim", "2026-11-26T00:00:00Z");
    sh("ln -s '%s/r1/results.xml' '%s/runs/20261124T000000Z-linkfile/results.xml'", outside, out);
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 3);
    assert_non_null(strstr(w.text, "20261125T000000Z-evil: is a symbolic link"));
    assert_non_null(strstr(w.text, "linkfile/results.xml: is a symbolic link"));
    assert_non_null(strstr(w.text, "holds run 20261126T000000Z-victim, not run "
                                   "20261123T000000Z-other"));
    assert_false(exists("%s/r1/index.html", outside));
    assert_false(exists("%s/runs/20261126T000000Z-victim", out));
    assert_true(exists("%s/runs/" BASE_ID "/index.html", out));
    assert_true(exists("%s/index.html", out));
    /* OUT/runs itself a link out of OUT: refused */
    snprintf(p, sizeof p, "%s/links2", tmpdir);
    sh("mkdir -p '%s' && ln -s '%s/runs' '%s/runs'", p, out, p);
    assert_int_equal(report(p, NULL, NULL, &w, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "links2/runs: is a symbolic link"));
    assert_false(exists("%s/index.html", p));
    /* an import can no more write through a link with its id */
    snprintf(p, sizeof p, "%s/evil.xml", tmpdir);
    write_run(p, "20261125T000000Z-evil", "2026-11-25T00:00:00Z");
    if (report(out, p, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_non_null(strstr(w.text, "imported as run 20261125T000000Z-evil-2"));
    assert_false(exists("%s/r1/index.html", outside));
    assert_no_leftovers(out);
}

/* Templates whose run page fails for a run id holding "poison". */
static void make_poisoned_templates(const char *dir)
{
    char p[600], *t, *u;
    err e;
    sh("mkdir -p '%s' && cp -r templates assets '%s/'", dir, dir);
    snprintf(p, sizeof p, "%s/templates/run.xsl", dir);
    assert_int_equal(fsx_read_all(p, &t, NULL, &e), BE_OK);
    u = replace(t, "<xsl:template match=\"/\">",
                "<xsl:template match=\"/\"><xsl:if test=\"contains($a/@run, 'poison')\">"
                "<xsl:message terminate=\"yes\">poisoned</xsl:message></xsl:if>");
    write_text(p, u, strlen(u));
    free(t);
    free(u);
}

/* A run that loads but does not render: skipped from the archive with a
 * warning; refused as an import, which then leaves no trace in OUT. */
static void test_archive_unrenderable(void **state)
{
    char out[400], data[400], p[700];
    warnings w;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/poison", tmpdir);
    snprintf(data, sizeof data, "%s/poison-data", tmpdir);
    make_poisoned_templates(data);
    sh("mkdir -p '%s/runs/" BASE_ID "' '%s/runs/20261127T000000Z-poison'", out, out);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    snprintf(p, sizeof p, "%s/runs/20261127T000000Z-poison/results.xml", out);
    write_run(p, "20261127T000000Z-poison", "2026-11-27T00:00:00Z");
    if (report(out, NULL, data, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 1);
    assert_non_null(strstr(w.text, "skipped run 20261127T000000Z-poison"));
    assert_true(exists("%s/index.html", out));
    assert_false(exists("%s/runs/20261127T000000Z-poison/index.html", out));
    /* imported: refused, and nothing of it enters runs/ */
    snprintf(p, sizeof p, "%s/poison-import.xml", tmpdir);
    write_run(p, "20261128T000000Z-poison", "2026-11-28T00:00:00Z");
    assert_int_equal(report(out, p, data, &w, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "poisoned"));
    assert_false(exists("%s/runs/20261128T000000Z-poison", out));
    assert_no_leftovers(out);
}

/* Host names cut for the side-by-side charts stay valid UTF-8. */
static void test_merge_hosts_utf8(void **state)
{
    archive a;
    archive_run v[2];
    results *m = NULL;
    char why[512];
    int nhosts, i;
    err e;
    (void)state;
    memset(&a, 0, sizeof a);
    memset(v, 0, sizeof v);
    v[0].r = load_base();
    v[1].r = load_base();
    /* 2-byte characters from the first byte: a cut at 14 bytes of
     * "a" + "é"... would split one */
    snprintf(v[0].r->prov.host, sizeof v[0].r->prov.host, "a%s",
             "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
             "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");
    snprintf(v[1].r->prov.host, sizeof v[1].r->prov.host,
             "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
             "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC");
    a.n = 2;
    a.v = v;
    assert_int_equal(archive_merge_hosts(&a, &m, &nhosts, why, sizeof why, &e), BE_OK);
    assert_int_equal(nhosts, 2);
    assert_non_null(m);
    for (i = 0; i < m->ndevices; i++) {
        assert_true(utf8_clean(m->devices[i].id));
        assert_true(strlen(m->devices[i].id) < sizeof m->devices[i].id);
    }
    /* two machines under the same long name: "name~print/id", cut on a
     * character boundary too, and told apart */
    results_free(m);
    m = NULL;
    snprintf(v[1].r->prov.host, sizeof v[1].r->prov.host, "%s", v[0].r->prov.host);
    snprintf(v[1].r->prov.cpu_model, sizeof v[1].r->prov.cpu_model, "another CPU");
    assert_int_equal(archive_merge_hosts(&a, &m, &nhosts, why, sizeof why, &e), BE_OK);
    assert_int_equal(nhosts, 2);
    assert_non_null(m);
    assert_int_equal(m->ndevices, 2 * v[0].r->ndevices);
    for (i = 0; i < m->ndevices; i++) {
        assert_true(utf8_clean(m->devices[i].id));
        assert_non_null(strchr(m->devices[i].id, '~'));
    }
    /* and it is a model breakeven would save */
    {
        char path[512];
        snprintf(path, sizeof path, "%s/merged.xml", tmpdir);
        if (results_save(m, NULL, path, &e) != BE_OK)
            fail_msg("%s", e.msg);
    }
    results_free(m);
    results_free(v[0].r);
    results_free(v[1].r);
}

/* results_save writes nothing its own loader would refuse. */
static void test_save_refuses_unloadable(void **state)
{
    results *r = load_base();
    char path[512];
    err e;
    (void)state;
    snprintf(path, sizeof path, "%s/unloadable.xml", tmpdir);
    unlink(path);
    /* a point twice */
    assert_int_equal(results_add_point(r, &r->points[0], &e), BE_OK);
    assert_int_equal(results_save(r, NULL, path, &e), BE_EFAIL);
    assert_true(strncmp(e.msg, "not saved, as breakeven would refuse to load it: ", 49) == 0);
    assert_non_null(strstr(e.msg, path));
    assert_int_equal(access(path, F_OK), -1);
    results_remove_point(r, r->npoints - 1);
    /* a device id with a line break */
    snprintf(r->devices[0].id, sizeof r->devices[0].id, "cp\nu");
    assert_int_equal(results_save(r, NULL, path, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_int_equal(access(path, F_OK), -1);
    results_free(r);
}

/* ---- the published files ---- */

/* The text of every element named name in the feed, each on a line. */
static void feed_texts(const char *path, const char *name, char *buf, size_t size)
{
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    xmlNodePtr n;
    assert_non_null(doc);
    buf[0] = '\0';
    for (n = xmlDocGetRootElement(doc); n;) {
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0) {
            xmlChar *t = xmlNodeGetContent(n);
            snprintf(buf + strlen(buf), size - strlen(buf), "%s\n", (const char *)t);
            xmlFree(t);
        }
        if (n->children) {
            n = n->children;
            continue;
        }
        while (n && !n->next)
            n = n->parent;
        if (n)
            n = n->next;
    }
    xmlFreeDoc(doc);
}

/* Feed readers render a title and a description as HTML: decoded once, as
 * a reader does, neither may hold markup from a results file or --title;
 * control characters in a title do not reach the feed. */
static void test_feed_escaping(void **state)
{
    char out[400], in[500], index[600], feed[600];
    static char text[65536];
    const char *runs[] = {in};
    report_opts o;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/feed", tmpdir);
    snprintf(in, sizeof in, "%s/feed-in.xml", tmpdir);
    write_edit(in, "<host name=\"host\"", "<host name=\"&lt;img src=x onerror=alert(1)&gt;\"");
    memset(&o, 0, sizeof o);
    o.out = out;
    o.data_dir = ".";
    o.runs = runs;
    o.nruns = 1;
    o.title = "<script>alert(1)</script>\x01\x1B[31m &amp;";
    if (report_write(&o, index, sizeof index, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(feed, sizeof feed, "%s/feed.xml", out);
    feed_texts(feed, "title", text, sizeof text);
    assert_null(strstr(text, "<script"));
    assert_non_null(strstr(text, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(text, "&amp;amp;"));
    assert_null(strchr(text, '\x01'));
    assert_null(strchr(text, '\x1B'));
    feed_texts(feed, "description", text, sizeof text);
    assert_null(strstr(text, "<img"));
    assert_non_null(strstr(text, "<p>"));
    /* the host, in the item's article (a title too long for it leaves
     * it out, prose_headline): as text */
    o.title = NULL;
    if (report_write(&o, index, sizeof index, &e) != BE_OK)
        fail_msg("%s", e.msg);
    feed_texts(feed, "title", text, sizeof text);
    assert_null(strstr(text, "<img"));
    feed_texts(feed, "encoded", text, sizeof text);
    assert_null(strstr(text, "<img src=x"));
    assert_non_null(strstr(text, "&lt;img src=x onerror=alert(1)&gt;"));
}

/* Text cells a spreadsheet would run as formulas start with a quote;
 * numbers stay numbers. */
static void test_csv_formulas(void **state)
{
    static const char *const names[] = {
        "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "\ry", "plain", "-"};
    results *r = load_base();
    char *csv = NULL, cell[64];
    size_t len, i;
    err e;
    (void)state;
    snprintf(r->prov.host, sizeof r->prov.host, "=cmd|' /C calc'!A0");
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(r->devices[0].name, sizeof r->devices[0].name, "%s", names[i]);
        assert_int_equal(csv_results(r, &csv, &len, &e), BE_OK);
        if (strcmp(names[i], "plain") == 0) {
            assert_non_null(strstr(csv, ",plain,"));
        } else {
            snprintf(cell, sizeof cell, ",\"'%c", names[i][0]);
            if (!strstr(csv, cell))
                fail_msg("%s: not neutralized in %s", names[i], csv);
        }
        assert_non_null(strstr(csv, ",\"'=cmd|' /C calc'!A0\","));
        /* the numbers of the first point, as numbers */
        assert_non_null(strstr(csv, ",inference,2,64,16,,,132096,ok,5,"));
        free(csv);
    }
    results_free(r);
}

static int draw_hostile_text(cairo_t *cr, double width, double height, void *ctx, err *e)
{
    (void)width;
    (void)height;
    (void)ctx;
    (void)e;
    chart_font(cr, 12, 0);
    chart_text(cr, 10, 20, CHART_LEFT, CHART_BASELINE, chart_oi_rgb(CHART_BLACK),
               "cut \xE2\x82 \xFF\xFE \xEF\xBF\xBE \xED\xA0\x80 \xF4\x90\x80\x80 end");
    chart_title(cr, width, "t\xC3", "\xE2\x82\xAC\xE2\x82");
    return BE_OK;
}

/* Invalid UTF-8 and non-characters never reach cairo, which would put the
 * whole drawing in an error state. */
static void test_chart_text(void **state)
{
    char path[512];
    err e;
    (void)state;
    snprintf(path, sizeof path, "%s/hostile-text", tmpdir);
    if (chart_render(NULL, path, 300, 100, 1, draw_hostile_text, NULL, &e) != BE_OK)
        fail_msg("%s", e.msg);
}

/* A device name cut to a label (the comparison's "%.40s driver") loses
 * half a character: the pages stay valid UTF-8, with U+FFFD where the
 * bytes were. */
static void test_page_text(void **state)
{
    char out[400], p[700], name[200];
    char *html;
    results *r;
    warnings w;
    size_t i;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/pagetext", tmpdir);
    memset(name, 0, sizeof name);
    name[0] = 'a';
    for (i = 0; i < 80; i++)
        memcpy(name + 1 + 2 * i, "\xC3\xA9", 2);
    for (i = 0; i < 2; i++) {
        r = load_base();
        snprintf(r->devices[0].name, sizeof r->devices[0].name, "%s", name);
        snprintf(r->devices[0].driver, sizeof r->devices[0].driver, "driver %zu", i);
        snprintf(r->prov.id, sizeof r->prov.id, "2026112%zuT000000Z-host", 2 + i);
        snprintf(r->prov.started, sizeof r->prov.started, "2026-11-2%zuT00:00:00Z", 2 + i);
        snprintf(p, sizeof p, "%s/runs/%s", out, r->prov.id);
        assert_int_equal(fsx_mkdirs(p, &e), BE_OK);
        strcat(p, "/results.xml");
        if (results_save(r, NULL, p, &e) != BE_OK)
            fail_msg("%s", e.msg);
        results_free(r);
    }
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, 0);
    snprintf(p, sizeof p, "%s/compare/20261122T000000Z-host..20261123T000000Z-host.html", out);
    assert_int_equal(fsx_read_all(p, &html, NULL, &e), BE_OK);
    assert_true(utf8_clean(html));
    assert_non_null(strstr(html, "a\xC3\xA9\xC3\xA9\xC3\xA9"));
    free(html);
    snprintf(p, sizeof p, "%s/index.html", out);
    assert_int_equal(fsx_read_all(p, &html, NULL, &e), BE_OK);
    assert_true(utf8_clean(html));
    free(html);
}

/* Runs $BREAKEVEN with args; its exit status, its stderr in err, its
 * stdout in tmpdir/cli.out (cli_stdout). */
static int run_cli(char *errbuf, size_t size, const char *const *args)
{
    const char *bin = getenv("BREAKEVEN");
    const char *argv[16];
    char errf[400];
    char *text = NULL;
    int n = 0, ws, fd;
    pid_t pid;
    err e;
    if (!bin)
        fail_msg("BREAKEVEN is not set (tests/run sets it)");
    snprintf(errf, sizeof errf, "%s/cli.err", tmpdir);
    argv[n++] = bin;
    while (*args && n < 15)
        argv[n++] = *args++;
    argv[n] = NULL;
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        snprintf(errf, sizeof errf, "%s/cli.out", tmpdir);
        if (fd < 0 || dup2(fd, 2) < 0 || !freopen(errf, "w", stdout))
            _exit(127);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_int_equal(fsx_read_all(errf, &text, NULL, &e), BE_OK);
    snprintf(errbuf, size, "%s", text);
    free(text);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The stdout of the last run_cli (malloc'd). */
static char *cli_stdout(void)
{
    char p[400], *text = NULL;
    err e;
    snprintf(p, sizeof p, "%s/cli.out", tmpdir);
    assert_int_equal(fsx_read_all(p, &text, NULL, &e), BE_OK);
    return text;
}

/* No byte of a terminal escape (ESC, BEL, C1's CSI) in what breakeven
 * prints, whatever a file name or a results file holds: a path it prints
 * is escaped as its messages are (a file name went to stdout raw). */
static void test_terminal_text(void **state)
{
    char errbuf[4096], out[400], evil[500], *t, *o;
    const char *refit[] = {"refit", "--quiet", "--out", out, evil, NULL};
    const char *cmp[] = {"compare", "--quiet", "--out", out, evil, evil, NULL};
    (void)state;
    snprintf(out, sizeof out, "%s/term", tmpdir);
    snprintf(evil, sizeof evil, "%s/evil\x1B]0;pwned\x07\x1B[2J.xml", tmpdir);
    t = replace(base, "name=\"GPU\"", "name=\"GPU&#x9B;2J\"");
    write_text(evil, t, strlen(t));
    free(t);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, refit), 0);
    o = cli_stdout();
    assert_null(strchr(o, '\x1B'));
    assert_null(strchr(o, '\x07'));
    assert_non_null(strstr(o, "evil\\x1B]0;pwned\\x07\\x1B[2J.xml"));
    free(o);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, cmp), 0);
    o = cli_stdout();
    assert_null(strchr(o, '\x1B'));
    assert_null(strstr(o, "\xC2\x9B"));
    free(o);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* --title and --author with control characters: exit 2, the value shown
 * escaped on one line; input in an error message: escaped, one line. */
static void test_cli_text(void **state)
{
    char errbuf[4096], out[400], bad[500];
    const char *t1[] = {"report", "--out", out, "--title", "a\x1B]0;pwned\x07", NULL};
    const char *t2[] = {"report", "--out", out, "--author", "me\r\nX-Injected: 1", NULL};
    const char *t3[] = {"report", "--out", out, "--title", "\xFF", NULL};
    const char *t4[] = {"report", "--out", out, bad, NULL};
    (void)state;
    snprintf(out, sizeof out, "%s/cli", tmpdir);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, t1), 2);
    assert_non_null(strstr(errbuf, "breakeven: --title: \"a\\x1B]0;pwned\\x07\" holds control"));
    assert_int_equal(count_lines(errbuf), 1); /* the --help hint on the same line */
    assert_int_equal(run_cli(errbuf, sizeof errbuf, t2), 2);
    assert_non_null(strstr(errbuf, "--author: \"me\\r\\nX-Injected: 1\" holds control"));
    assert_int_equal(count_lines(errbuf), 1);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, t3), 2);
    assert_non_null(strstr(errbuf, "--title: \"\\xFF\" holds control"));
    snprintf(bad, sizeof bad, "%s/no\r\nsuch\x1B[2J.xml", tmpdir);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, t4), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "no\\r\\nsuch\\x1B[2J.xml"));
}

/* ---- infile: the one way to read an input file ---- */

/* infile_read of path with flags and a cap: BE_OK (then *text holds it),
 * or the message, checked to be one printable line. */
static int read_in(const char *path, size_t max, unsigned flags, char **text, err *e)
{
    size_t len = 0;
    int rc = infile_read(path, max, flags, text, &len, e);
    if (rc == BE_OK && *text && (flags & INFILE_TEXT))
        assert_int_equal(strlen(*text), len);
    else if (rc != BE_OK)
        assert_true(utf8_clean(e->msg) && !strpbrk(e->msg, "\t\r\n"));
    return rc;
}

/* What is not a regular file is refused at once, without a read that
 * could block (a FIFO with no writer) or never end (/dev/zero). */
static void test_infile_kinds(void **state)
{
    char p[400], *t = NULL;
    err e;
    (void)state;
    snprintf(p, sizeof p, "%s/in-fifo", tmpdir);
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(read_in(p, 1024, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-fifo: is a FIFO, not a regular file"));
    snprintf(p, sizeof p, "%s/in-zero", tmpdir);
    sh("ln -s /dev/zero '%s'", p);
    assert_int_equal(read_in(p, 1024, 0, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-zero: is a character device, not a regular file"));
    assert_int_equal(read_in(p, 1024, INFILE_NOFOLLOW, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-zero: is a symbolic link (not followed here)"));
    assert_int_equal(read_in(tmpdir, 1024, 0, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, ": is a directory, not a regular file"));
    snprintf(p, sizeof p, "%s/in-missing", tmpdir);
    assert_int_equal(read_in(p, 1024, INFILE_OPTIONAL, &t, &e), BE_OK);
    assert_null(t);
    assert_int_equal(read_in(p, 1024, 0, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-missing: cannot open: No such file or directory"));
}

/* The cap is checked before anything is read (a sparse 200 MB file takes
 * no memory); an empty file is refused when asked. */
static void test_infile_size(void **state)
{
    char p[400], *t = NULL;
    int fd;
    err e;
    (void)state;
    snprintf(p, sizeof p, "%s/in-huge", tmpdir);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 200L * 1024 * 1024), 0);
    close(fd);
    assert_int_equal(read_in(p, 65536, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-huge: is 209715200 bytes; at most 65536 are read"));
    snprintf(p, sizeof p, "%s/in-empty", tmpdir);
    write_text(p, "", 0);
    assert_int_equal(read_in(p, 10, INFILE_NONEMPTY, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-empty: is empty"));
    assert_int_equal(read_in(p, 10, 0, &t, &e), BE_OK);
    assert_string_equal(t, "");
    free(t);
    snprintf(p, sizeof p, "%s/in-exact", tmpdir);
    write_text(p, "0123456789", 10);
    assert_int_equal(read_in(p, 10, INFILE_TEXT, &t, &e), BE_OK);
    assert_string_equal(t, "0123456789");
    free(t);
    assert_int_equal(read_in(p, 9, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-exact: is 10 bytes; at most 9 are read"));
    /* /proc's files say 0 bytes: read to the cap, and refused past it */
    assert_int_equal(read_in("/proc/self/maps", 8, 0, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "/proc/self/maps: more than 8 bytes; at most 8 are read"));
}

/* Text: a NUL or invalid UTF-8 is refused with its line, and the message
 * quotes at most a short escaped fragment of the line before it. */
static void test_infile_text(void **state)
{
    static const char nul[] = "title a\nauthor b\x00 then more\n";
    char p[400], *t = NULL, longline[600];
    err e;
    (void)state;
    snprintf(p, sizeof p, "%s/in-nul", tmpdir);
    write_text(p, nul, sizeof nul - 1);
    assert_int_equal(read_in(p, 1024, 0, &t, &e), BE_OK); /* bytes: fine */
    free(t);
    assert_int_equal(read_in(p, 1024, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "in-nul:2: a NUL byte (a text file holds none)"));
    snprintf(p, sizeof p, "%s/in-utf8", tmpdir);
    write_text(p, "ok\n\x1B[2Jsecret \xC0\x80 after", 22);
    assert_int_equal(read_in(p, 1024, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_non_null(
        strstr(e.msg, "in-utf8:2: invalid UTF-8 (byte 0xC0) after \"\\x1B[2Jsecret \""));
    /* a long line: no more than INFILE_FRAGMENT bytes of it are quoted */
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "root:", 5);
    longline[500] = '\xFF';
    snprintf(p, sizeof p, "%s/in-long", tmpdir);
    write_text(p, longline, 501);
    assert_int_equal(read_in(p, 1024, INFILE_TEXT, &t, &e), BE_EFAIL);
    assert_null(strstr(e.msg, "root:"));
    assert_true(strlen(e.msg) < strlen(p) + 100);
    /* valid text with every kind of character passes as it is */
    snprintf(p, sizeof p, "%s/in-good", tmpdir);
    write_text(p, "caf\xC3\xA9 \xF0\x9F\x98\x80\n", 11);
    assert_int_equal(read_in(p, 1024, INFILE_TEXT, &t, &e), BE_OK);
    assert_string_equal(t, "caf\xC3\xA9 \xF0\x9F\x98\x80\n");
    free(t);
}

/* Dates: parsed digit by digit (an 11-digit or negative year overflowed
 * the year's arithmetic, which UBSan reported), shown as written when
 * they are not a time a page can show. */
static void test_dates(void **state)
{
    char buf[128];
    struct tm tm;
    (void)state;
    fmt_date(buf, sizeof buf, "-2147483648-01-01T00:00:00Z");
    assert_string_equal(buf, "-2147483648-01-01T00:00:00Z");
    fmt_date(buf, sizeof buf, "99999999999-12-31T00:00:00Z");
    assert_string_equal(buf, "99999999999-12-31T00:00:00Z");
    fmt_date(buf, sizeof buf, "9999-12-31T23:59:59Z");
    assert_string_equal(buf, "31 December 9999, 23:59 UTC");
    fmt_date(buf, sizeof buf, "1970-01-01T00:00:00.5Z");
    assert_string_equal(buf, "1 January 1970, 00:00 UTC");
    fmt_date_rfc822(buf, sizeof buf, "9999-12-31T23:59:59Z");
    assert_string_equal(buf, "Fri, 31 Dec 9999 23:59:59 +0000");
    fmt_date_rfc822(buf, sizeof buf, "2147483647-01-01T00:00:00Z");
    assert_string_equal(buf, "Thu, 01 Jan 1970 00:00:00 +0000");
    assert_int_equal(fmt_parse_time("2024-02-29T00:00:00Z", &tm), 1);
    assert_int_equal(tm.tm_wday, 4);
    assert_int_equal(fmt_parse_time("2100-02-29T00:00:00Z", &tm), 0);
    assert_int_equal(fmt_parse_time("2026-11-22T24:00:00Z", &tm), 0);
    assert_int_equal(fmt_parse_time("2026-11-22T00:00:00.Z", &tm), 0);
    assert_int_equal(fmt_parse_time("2026-11-22T00:00:00Zjunk", &tm), 0);
    assert_int_equal(fmt_parse_time("+026-11-22T00:00:00Z", &tm), 0);
    assert_int_equal(fmt_parse_time("", &tm), 0);
}

/* infile_fragment: one line, at most INFILE_FRAGMENT bytes, escaped. */
static void test_infile_fragment(void **state)
{
    char buf[256];
    (void)state;
    infile_fragment(buf, sizeof buf, "abc", 3);
    assert_string_equal(buf, "abc");
    infile_fragment(buf, sizeof buf, "a\x1B[31mb\nsecond line", 19);
    assert_string_equal(buf, "a\\x1B[31mb...");
    infile_fragment(buf, sizeof buf, "0123456789012345678901234567890123456789XYZ", 43);
    assert_string_equal(buf, "0123456789012345678901234567890123456789...");
    infile_fragment(buf, sizeof buf, "\xE2\x82\xAC", 2); /* cut mid-character */
    assert_string_equal(buf, "\\xE2\\x82");
}

/* ---- Markdown: summary.md and compare --format markdown ---- */

/* text with every occurrence of from replaced by to (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    char *t = strdup(text), *u;
    assert_non_null(t);
    while (strstr(t, from)) {
        u = replace(t, from, to);
        free(t);
        t = u;
    }
    return t;
}

/* md rendered by a real renderer (cmark-gfm with GitHub's extensions, raw
 * HTML let through so that any would show): no element that data made. */
static void assert_inert_markdown(const char *md, int rows)
{
    char p[400], cmd[900], *html = NULL;
    const char *q;
    int tr = 0;
    err e;
    snprintf(p, sizeof p, "%s/md.md", tmpdir);
    write_text(p, md, strlen(md));
    snprintf(cmd, sizeof cmd,
             "cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter '%s' > "
             "'%s.html'",
             p, p);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s.html", p);
    assert_int_equal(fsx_read_all(cmd, &html, NULL, &e), BE_OK);
    if (strstr(html, "<img") || strstr(html, "<a ") || strstr(html, "<b>") ||
        strstr(html, "<script") || strstr(html, "<del>") || strstr(html, "<em>"))
        fail_msg("data became markup:\n%s\n%s", md, html);
    for (q = html; (q = strstr(q, "<tr>")); q++)
        tr++;
    if (rows >= 0 && tr != rows)
        fail_msg("%d table rows, not %d:\n%s", tr, rows, html);
    assert_non_null(strstr(html, "&lt;img src=x onerror=alert(1)&gt;"));
    free(html);
}

static void test_markdown_inert(void **state)
{
    char p[400], *t, *u, *md = NULL;
    results *r = NULL;
    compare_set c;
    size_t len;
    FILE *f;
    err e;
    (void)state;
    t = replace_all(base, "\"cl:0.0\"", "\"&lt;b&gt;|~~x~~|*e*\"");
    u = replace(t, "id=\"" BASE_ID "\"",
                "id=\"[a](javascript:alert(1))&lt;img src=x onerror=alert(1)&gt;`x\"");
    free(t);
    t = replace(u, "name=\"GPU\"",
                "name=\"![i](http://evil.example/i.png) https://evil.example www.evil.example "
                "me@evil.example &lt;img src=x onerror=alert(1)&gt;\"");
    free(u);
    snprintf(p, sizeof p, "%s/md.xml", tmpdir);
    write_text(p, t, strlen(t));
    free(t);
    if (results_load(p, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(export_summary(r, &md, &len, &e), BE_OK);
    assert_inert_markdown(md, r->npoints + 1);
    free(md);
    assert_int_equal(compare_runs(r, r, &c, &e), BE_OK);
    f = open_memstream(&md, &len);
    assert_non_null(f);
    compare_write(f, &c, COMPARE_MARKDOWN);
    fclose(f);
    assert_inert_markdown(md, c.npoints + 1);
    free(md);
    compare_free(&c);
    results_free(r);
}

static void test_markdown_escape(void **state)
{
    char buf[512];
    (void)state;
    fmt_markdown(buf, sizeof buf, "a|b <i> & [x](y) `c` *d* _e_ ~f~ !g \\h");
    assert_string_equal(buf,
                        "a\\|b &lt;i&gt; &amp; \\[x\\](y) \\`c\\` \\*d\\* \\_e\\_ \\~f\\~ \\!g "
                        "\\\\h");
    fmt_markdown(buf, sizeof buf, "# title");
    assert_string_equal(buf, "\\# title");
    fmt_markdown(buf, sizeof buf, "12. item");
    assert_string_equal(buf, "12\\. item");
    fmt_markdown(buf, sizeof buf, "line\nbreak\x1B[31m");
    assert_string_equal(buf, "line break\\[31m");
    fmt_markdown(buf, sizeof buf, "x@y.z http://h www.w");
    assert_string_equal(buf, "x\xE2\x80\x8B@y.z http:\xE2\x80\x8B//h www\xE2\x80\x8B.w");
    fmt_markdown(buf, 6, "caf\xC3\xA9!"); /* cut on a character boundary */
    assert_string_equal(buf, "caf\xC3\xA9");
}

/* ---- writing under OUT: no link planted there is followed ---- */

/* A listing of dir (type, size, time, link target of everything under
 * it), to see that a refused command left it as it was.  But for the
 * lock file OUT/.lock, which every command that writes takes first and
 * records its pid in (outlock.h): the lock, not a file of the site; and
 * so not dir's own time, which its making changes. */
static char *listing(const char *dir)
{
    char cmd[600], *buf = calloc(1, 65536);
    size_t n;
    FILE *f;
    assert_non_null(buf);
    snprintf(
        cmd, sizeof cmd,
        "cd '%s' && find . -mindepth 1 ! -path ./.lock -printf '%%p %%y %%s %%T@ %%l\\n' | sort",
        dir);
    f = popen(cmd, "r");
    assert_non_null(f);
    n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    pclose(f);
    return buf;
}

static void test_fsx_write_in(void **state)
{
    char out[400], outside[400], p[800], *t = NULL;
    int fd;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/wout", tmpdir);
    snprintf(outside, sizeof outside, "%s/woutside", tmpdir);
    sh("mkdir -p '%s' '%s'", out, outside);
    /* directories made on the way, each a directory of its own */
    snprintf(p, sizeof p, "%s/a/b/c.txt", out);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_OK);
    assert_int_equal(fsx_read_all(p, &t, NULL, &e), BE_OK);
    assert_string_equal(t, "x");
    free(t);
    /* a link anywhere on the way, or as the file: refused, named */
    sh("ln -s '%s' '%s/a/link'", outside, out);
    snprintf(p, sizeof p, "%s/a/link/d/e.txt", out);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "wout/a/link: is a symbolic link (breakeven follows no link"));
    assert_int_equal(fsx_check_in(out, p, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "wout/a/link: is a symbolic link"));
    assert_int_equal(fsx_mkdirs_in(out, p, &e), BE_EFAIL);
    assert_int_equal(fsx_dir_open(out, p, 0, &fd, &e), BE_EFAIL);
    sh("ln -s '%s/secret' '%s/a/f.txt'", outside, out);
    snprintf(p, sizeof p, "%s/a/f.txt", out);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "wout/a/f.txt: is a symbolic link (breakeven replaces no link"));
    assert_false(exists("%s/secret", outside));
    assert_false(exists("%s/d", outside));
    /* ".." and paths elsewhere */
    snprintf(p, sizeof p, "%s/a/../../woutside/x", out);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "\"..\" leads out of"));
    snprintf(p, sizeof p, "%s/x", outside);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "not inside"));
    /* a file in the place of a directory, a FIFO in the place of a file */
    snprintf(p, sizeof p, "%s/a/b/c.txt/x", out);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "c.txt: is not a directory"));
    snprintf(p, sizeof p, "%s/a/fifo", out);
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(fsx_write_in(out, p, "x", 1, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "a/fifo: is not a regular file"));
    /* OUT itself a link: the user named it, it is followed */
    snprintf(p, sizeof p, "%s/wlink", tmpdir);
    sh("ln -s '%s' '%s'", out, p);
    snprintf(p, sizeof p, "%s/wlink/a/g.txt", tmpdir);
    snprintf(outside, sizeof outside, "%s/wlink", tmpdir);
    assert_int_equal(fsx_write_in(outside, p, "y", 1, &e), BE_OK);
    assert_true(exists("%s/a/g.txt", out));
    assert_no_leftovers(out);
}

/* OUT's lock (outlock.h): OUT/.lock planted as a link, as a hard link to
 * another file (whose bytes the holder's pid would replace) or as a FIFO
 * is refused with one line naming it, the target untouched; a second
 * holder waits (here: --no-wait, one line naming the first's pid); and a
 * process forked while the lock is held holds it with its parent: its
 * take does not wait, its give releases nothing (report --jobs). */
static void test_outlock(void **state)
{
    char out[400], victim[500], p[700], want[900], *t = NULL;
    outlock a, b;
    int held, ws;
    pid_t pid;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/lockout", tmpdir);
    snprintf(victim, sizeof victim, "%s/lock-victim", tmpdir);
    sh("mkdir -p '%s'", out);
    write_text(victim, "victim", 6);
    snprintf(p, sizeof p, "%s/.lock", out);
    outlock_init(&a, out, 0, NULL, NULL);
    sh("ln -s '%s' '%s'", victim, p);
    assert_int_equal(outlock_take(&a, NULL, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "lockout/.lock: is a symbolic link"));
    sh("rm '%s' && ln '%s' '%s'", p, victim, p);
    assert_int_equal(outlock_take(&a, NULL, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "lockout/.lock: has other names (a hard link)"));
    sh("rm '%s' && mkfifo '%s'", p, p);
    assert_int_equal(outlock_take(&a, NULL, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "lockout/.lock: is not a regular file"));
    assert_int_equal(fsx_read_all(victim, &t, NULL, &e), BE_OK);
    assert_string_equal(t, "victim");
    free(t);
    sh("rm '%s'", p);
    /* held (twice: takes are counted); another description cannot have it */
    assert_int_equal(outlock_take(&a, NULL, &e), BE_OK);
    assert_int_equal(outlock_take(&a, NULL, &e), BE_OK);
    outlock_init(&b, out, 1, NULL, NULL);
    assert_int_equal(outlock_try(&b, &held, &e), BE_OK);
    assert_int_equal(held, 0);
    assert_int_equal(outlock_take(&b, NULL, &e), BE_EFAIL);
    snprintf(want, sizeof want,
             "another breakeven is writing %s (pid %ld); not waiting (--no-wait)", out,
             (long)getpid());
    assert_string_equal(e.msg, want);
    outlock_give(&a);
    assert_int_equal(outlock_try(&b, &held, &e), BE_OK);
    assert_int_equal(held, 0);
    /* a process forked while it is held: it has the lock at once, and
     * giving it back there leaves it held here */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int ok = outlock_try(&a, &held, &e) == BE_OK && held;
        outlock_drop(&a);
        _exit(ok ? 0 : 1);
    }
    assert_true(waitpid(pid, &ws, 0) == pid);
    assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    assert_int_equal(outlock_try(&b, &held, &e), BE_OK);
    assert_int_equal(held, 0);
    outlock_give(&a);
    assert_int_equal(a.fd, -1);
    assert_int_equal(outlock_try(&b, &held, &e), BE_OK);
    assert_int_equal(held, 1);
    outlock_give(&b);
}

/* report with a link planted at a place it writes: refused with one line
 * naming the link, nothing written through it, OUT as it was. */
static void test_report_planted_links(void **state)
{
    static const char *const plant[] = {
        "history",          "compare", "style.css", "index.html", "runs/" BASE_ID "/index.html",
        "history/style.css"};
    char out[400], outside[400], p[700], *before, *after, *gone;
    warnings w;
    size_t i;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/plant", tmpdir);
    snprintf(outside, sizeof outside, "%s/plant-outside", tmpdir);
    sh("mkdir -p '%s/runs/" BASE_ID "' '%s'", out, outside);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    for (i = 0; i < sizeof plant / sizeof *plant; i++) {
        sh("mkdir -p '%s/history' '%s/compare'", out, out);
        snprintf(p, sizeof p, "%s/%s", out, plant[i]);
        gone = listing(out);
        sh("rm -rf '%s' && ln -s '%s' '%s'", p, outside, p);
        before = listing(out);
        assert_int_equal(report(out, NULL, NULL, &w, &e), BE_EFAIL);
        assert_one_line(e.msg);
        assert_non_null(strstr(e.msg, plant[i]));
        assert_non_null(strstr(e.msg, ": is a symbolic link"));
        after = listing(out);
        assert_string_equal(before, after);
        sh("rm '%s'", p);
        free(before);
        free(after);
        free(gone);
        /* nothing at all written outside */
        snprintf(p, sizeof p, "test -z \"$(ls -A '%s')\"", outside);
        assert_int_equal(system(p), 0);
    }
    assert_no_leftovers(out);
}

/* A chart link planted where the report draws, found only after other
 * charts were drawn (the charts of a run whose directory lacks them came
 * first, then the hosts' charts in OUT, the history's in OUT/history):
 * refused before anything is drawn, OUT as it was, nothing written
 * through the link. */
static void test_report_chart_links(void **state)
{
    static const char *const plant[] = {
        "hosts-throughput-inference.png", "hosts-relative-time-inference-narrow.png",
        "runs/" BASE_ID "/winner-map-inference.png", "history/s1-peak.png"};
    char out[400], outside[400], victim[500], p[900], *t, *u, *before, *after;
    warnings w;
    size_t i;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/chartlink", tmpdir);
    snprintf(outside, sizeof outside, "%s/chartlink-outside", tmpdir);
    snprintf(victim, sizeof victim, "%s/victim.png", outside);
    sh("mkdir -p '%s/runs/" BASE_ID "' '%s/runs/20261123T000000Z-other' '%s'", out, out, outside);
    write_text(victim, "victim", 6);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    /* a second host, so that the hosts' charts are drawn */
    t = replace(base, "<host name=\"host\"", "<host name=\"other\"");
    u = replace(t, "id=\"" BASE_ID "\" started=\"2026-11-22T",
                "id=\"20261123T000000Z-other\" "
                "started=\"2026-11-23T");
    snprintf(p, sizeof p, "%s/runs/20261123T000000Z-other/results.xml", out);
    write_text(p, u, strlen(u));
    free(t);
    free(u);
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    for (i = 0; i < sizeof plant / sizeof *plant; i++) {
        snprintf(p, sizeof p, "%s/%s", out, plant[i]);
        if (!exists("%s", p))
            fail_msg("the report drew no %s: the test plants nothing", plant[i]);
        /* the run's charts to be drawn again (its page too: no cache),
         * then the link */
        sh("rm -rf '%s'/runs/" BASE_ID "/*.png '%s/.cache' && rm -f '%s' && ln -s '%s' '%s'", out,
           out, p, victim, p);
        before = listing(out);
        assert_int_equal(report(out, NULL, NULL, &w, &e), BE_EFAIL);
        assert_one_line(e.msg);
        assert_non_null(strstr(e.msg, plant[i]));
        assert_non_null(strstr(e.msg, ": is a symbolic link"));
        after = listing(out);
        assert_string_equal(before, after);
        free(before);
        free(after);
        snprintf(p, sizeof p, "%s/%s", out, plant[i]);
        sh("rm '%s'", p);
        snprintf(p, sizeof p,
                 "test \"$(ls -A '%s')\" = victim.png && test \"$(cat '%s')\" = victim", outside,
                 victim);
        assert_int_equal(system(p), 0);
        if (report(out, NULL, NULL, &w, &e) != BE_OK)
            fail_msg("%s", e.msg);
    }
    assert_no_leftovers(out);
}

/* `refit` of a run whose directory holds a chart link: refused before
 * the results file is rewritten (it was rewritten, and charts drawn, before
 * the link was met), OUT as it was, the link's target untouched. */
static void test_refit_chart_link(void **state)
{
    char errbuf[4096], out[400], victim[500], p[900], *before, *after;
    const char *args[] = {"refit", "--quiet", "--out", out, BASE_ID, NULL};
    warnings w;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/refitlink", tmpdir);
    snprintf(victim, sizeof victim, "%s/refitlink-victim.png", tmpdir);
    sh("mkdir -p '%s/runs/" BASE_ID "'", out);
    write_text(victim, "victim", 6);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/winner-map-inference.png", out);
    assert_true(exists("%s", p));
    sh("rm '%s' && ln -s '%s' '%s'", p, victim, p);
    before = listing(out);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, BASE_ID "/winner-map-inference.png: is a symbolic link"));
    after = listing(out);
    assert_string_equal(before, after);
    free(before);
    free(after);
    snprintf(p, sizeof p, "test \"$(cat '%s')\" = victim", victim);
    assert_int_equal(system(p), 0);
}

/* A manifest of an unfinished publish planted in OUT (OUT/.publish, which
 * the next report replays): its lines lead through a link out of OUT, or
 * it is a link itself.  The staged file outside is neither moved nor
 * removed (it was: rename(2) by path followed the link), and the report is
 * refused with one line naming the link. */
static void test_report_planted_manifest(void **state)
{
    char errbuf[4096], out[400], outside[400], p[900], line[900];
    const char *args[] = {"report", "--quiet", "--out", out, NULL};
    (void)state;
    snprintf(out, sizeof out, "%s/manifest", tmpdir);
    snprintf(outside, sizeof outside, "%s/manifest-outside", tmpdir);
    sh("mkdir -p '%s' '%s' && ln -s '%s' '%s/evil'", out, outside, outside, out);
    snprintf(p, sizeof p, "%s/x.stage", outside);
    write_text(p, "mine", 4);
    snprintf(line, sizeof line, "%s/evil/x\n", out);
    snprintf(p, sizeof p, "%s/.publish", out);
    write_text(p, line, strlen(line));
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "manifest/evil: is a symbolic link"));
    snprintf(p, sizeof p, "test \"$(ls -A '%s')\" = x.stage && test \"$(cat '%s/x.stage')\" = mine",
             outside, outside);
    assert_int_equal(system(p), 0);
    /* the manifest a link: not read */
    snprintf(p, sizeof p, "%s/list", outside);
    write_text(p, line, strlen(line));
    sh("rm -f '%s/.publish' && ln -s '%s' '%s/.publish'", out, p, out);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, ".publish: is a symbolic link"));
    snprintf(p, sizeof p, "test \"$(cat '%s/x.stage')\" = mine", outside);
    assert_int_equal(system(p), 0);
}

/* The pid of a process that ran and is gone. */
static long dead_pid(void)
{
    int ws;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(0);
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    return (long)pid;
}

/* What SIGKILL leaves (a temporary file beside each kind of file a report
 * writes, an import's staging directory): removed by the next report when
 * its process is gone, and nothing else: not a live process's, not a name
 * that only looks like one. */
static void test_report_sweeps_killed(void **state)
{
    static const char *const dead[] = {"index.html.tmp.%ld.aB3xYz",
                                       "runs/" BASE_ID "/results.xml.gz.tmp.%ld.q1W2e3",
                                       "history/style.css.tmp.%ld.zzzzzz",
                                       ".publish.pending.tmp.%ld.AbCdEf",
                                       "runs/.import-%ld-Qw3rTy",
                                       "compare/a..b.png.tmp.%ld.000000",
                                       ".cache/" BASE_ID ".page.tmp.%ld.x9x9x9"};
    static const char *const kept[] = {"index.html.tmp.1.aB3xYz",   /* pid 1 runs */
                                       "feed.xml.tmp.%ld",          /* no suffix */
                                       "notes.tmp.%ld.abc",         /* a short suffix */
                                       "style.css.tmp.aB3xYz",      /* no pid: not ours to judge */
                                       "my.tmp.%ld.ab-cde",         /* not letters and digits */
                                       "runs/.import-1-Qw3rTy",     /* pid 1 */
                                       "runs/.import-%ld-Qw3rTy.d", /* not the name */
                                       "history/link.tmp.%ld.abcdef"};
    char out[400], p[900], name[200];
    long pid = dead_pid();
    warnings w;
    size_t i;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/swept", tmpdir);
    sh("mkdir -p '%s/runs/" BASE_ID "' '%s/history' '%s/compare' '%s/.cache'", out, out, out, out);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    for (i = 0; i < sizeof dead / sizeof *dead; i++) {
        snprintf(name, sizeof name, dead[i], pid);
        snprintf(p, sizeof p, "%s/%s", out, name);
        if (strstr(name, ".import-")) {
            sh("mkdir '%s' && echo x > '%s/results.xml.gz' && ln -s /etc/passwd '%s/link'", p, p,
               p);
        } else
            write_text(p, "stale", 5);
    }
    for (i = 0; i < sizeof kept / sizeof *kept; i++) {
        snprintf(name, sizeof name, kept[i], pid);
        snprintf(p, sizeof p, "%s/%s", out, name);
        if (strstr(name, "link.tmp"))
            sh("ln -s '%s/index.html' '%s'", out, p); /* a link of that name: not removed */
        else if (strstr(name, ".import-"))
            sh("mkdir '%s'", p);
        else
            write_text(p, "keep", 4);
    }
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    for (i = 0; i < sizeof dead / sizeof *dead; i++) {
        snprintf(name, sizeof name, dead[i], pid);
        if (exists("%s/%s", out, name))
            fail_msg("%s/%s: left by a killed process, not removed", out, name);
    }
    for (i = 0; i < sizeof kept / sizeof *kept; i++) {
        snprintf(name, sizeof name, kept[i], pid);
        if (!exists("%s/%s", out, name))
            fail_msg("%s/%s: removed, and it was not a killed process's", out, name);
    }
    assert_true(exists("/etc/passwd"));
    sh("rm -rf '%s'", out);
}

/* `compare` with OUT/compare a link out of OUT (it wrote its page, chart
 * and style.css there): refused with one line, nothing written outside. */
static void test_compare_planted_link(void **state)
{
    char errbuf[4096], out[400], outside[400], a[500], p[900];
    const char *args[] = {"compare", "--quiet", "--out", out, a, a, NULL};
    (void)state;
    snprintf(out, sizeof out, "%s/cmplink", tmpdir);
    snprintf(outside, sizeof outside, "%s/cmplink-outside", tmpdir);
    snprintf(a, sizeof a, "%s/cmplink-a.xml", tmpdir);
    write_text(a, base, strlen(base));
    sh("mkdir -p '%s' '%s' && ln -s '%s' '%s/compare'", out, outside, outside, out);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "cmplink/compare: is a symbolic link"));
    snprintf(p, sizeof p, "test -z \"$(ls -A '%s')\"", outside);
    assert_int_equal(system(p), 0);
    /* OUT as it was, but for the lock compare took first (outlock.h) */
    snprintf(p, sizeof p, "test \"$(ls -A -I .lock '%s')\" = compare", out);
    assert_int_equal(system(p), 0);
}

/* `refit` of a run whose directory OUT/runs/<id> is a link to a directory
 * outside holding a run, named by its path and by its id: refused with one
 * line naming the link, the directory outside and OUT as they were. */
static void test_refit_planted_dir(void **state)
{
    char errbuf[4096], out[400], outside[400], arg[900], *before, *after, *obefore, *oafter;
    const char *args[] = {"refit", "--quiet", "--out", out, arg, NULL};
    int k;
    (void)state;
    snprintf(out, sizeof out, "%s/refitdir", tmpdir);
    snprintf(outside, sizeof outside, "%s/refitdir-outside", tmpdir);
    sh("mkdir -p '%s/runs' '%s'", out, outside);
    snprintf(arg, sizeof arg, "%s/results.xml", outside);
    write_text(arg, base, strlen(base));
    sh("ln -s '%s' '%s/runs/" BASE_ID "'", outside, out);
    for (k = 0; k < 2; k++) {
        if (k == 0)
            snprintf(arg, sizeof arg, "%s/runs/" BASE_ID "/results.xml", out);
        else
            snprintf(arg, sizeof arg, "%s", BASE_ID);
        before = listing(out);
        obefore = listing(outside);
        assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
        assert_int_equal(count_lines(errbuf), 1);
        assert_non_null(strstr(errbuf, "refitdir/runs/" BASE_ID ": is a symbolic link"));
        after = listing(out);
        oafter = listing(outside);
        assert_string_equal(before, after);
        assert_string_equal(obefore, oafter);
        free(before);
        free(after);
        free(obefore);
        free(oafter);
    }
}

/* ---- a link swapped in while a command writes ---- */

/* Fails unless dir holds exactly what expect lists ("" for nothing), names
 * sorted and separated by a space: nothing else was written there. */
static void assert_holds(const char *dir, const char *expect)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "test \"$(echo $(ls -A '%s'))\" = '%s'", dir, expect);
    if (system(cmd) != 0)
        fail_msg("%s holds other than \"%s\": something was written through a link", dir, expect);
}

/* dir (inside out) moved aside to dir.real and a link to outside put in
 * its place: what an attacker who owns OUT does while a command writes. */
static void swap_for_link(const char *dir, const char *outside)
{
    sh("mv '%s' '%s.real' && ln -s '%s' '%s'", dir, dir, outside, dir);
}

static void unswap(const char *dir)
{
    sh("rm '%s' && mv '%s.real' '%s'", dir, dir, dir);
}

typedef struct swap_ctx {
    const char *dir, *outside;
} swap_ctx;

static int draw_nothing(cairo_t *cr, double width, double height, void *ctx, err *e)
{
    (void)cr, (void)width, (void)height, (void)ctx, (void)e;
    return BE_OK;
}

/* A drawing during which the directory its chart goes to becomes a link. */
static int draw_and_swap(cairo_t *cr, double width, double height, void *ctx, err *e)
{
    const swap_ctx *s = ctx;
    (void)cr, (void)width, (void)height, (void)e;
    swap_for_link(s->dir, s->outside);
    return BE_OK;
}

/* Every writer of OUT with its directory swapped for a link between two of
 * its writes: a chart drawn while the swap happens, a results file saved
 * again (as `run` saves its checkpoints, `refit` and an import theirs), a
 * run's charts (`refit`, an import), decide's files.  Each is refused with
 * one line naming the link, and nothing lands outside (each was written by
 * path, through the link). */
static void test_write_swapped(void **state)
{
    char out[400], dir[500], outside[400], p[800];
    swap_ctx sw = {dir, outside};
    results *r = load_base();
    netfit_set ns;
    FILE *env;
    int n;
    err e;
    (void)state;
    memset(&ns, 0, sizeof ns);
    snprintf(out, sizeof out, "%s/swap", tmpdir);
    snprintf(dir, sizeof dir, "%s/runs/" BASE_ID, out);
    snprintf(outside, sizeof outside, "%s/swap-outside", tmpdir);
    sh("mkdir -p '%s' '%s'", dir, outside);
    /* a chart, then one whose drawing swaps the directory */
    snprintf(p, sizeof p, "%s/a", dir);
    assert_int_equal(chart_render(out, p, 100, 50, 1, draw_nothing, NULL, &e), BE_OK);
    snprintf(p, sizeof p, "%s/b", dir);
    assert_int_equal(chart_render(out, p, 100, 50, 1, draw_and_swap, &sw, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "swap/runs/" BASE_ID ": is a symbolic link"));
    assert_holds(outside, "");
    unswap(dir);
    assert_true(exists("%s/a.png", dir));
    assert_false(exists("%s/b.png", dir));
    /* a results file saved, the directory swapped, saved again */
    snprintf(p, sizeof p, "%s/results.xml", dir);
    assert_int_equal(results_save(r, out, p, &e), BE_OK);
    swap_for_link(dir, outside);
    assert_int_equal(results_save(r, out, p, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "swap/runs/" BASE_ID ": is a symbolic link"));
    assert_holds(outside, "");
    /* the run's charts, and decide's files, into the swapped directory */
    assert_int_equal(runcharts_draw(r, out, dir, &n, &e), BE_EFAIL);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "swap/runs/" BASE_ID ": is a symbolic link"));
    assert_holds(outside, "");
    env = fopen("/dev/null", "w");
    assert_non_null(env);
    assert_int_equal(decide_write(r, &ns, out, dir, env, &e), BE_EFAIL);
    fclose(env);
    assert_one_line(e.msg);
    assert_non_null(strstr(e.msg, "swap/runs/" BASE_ID ": is a symbolic link"));
    assert_holds(outside, "");
    /* OUT/runs itself swapped: the same */
    unswap(dir);
    snprintf(p, sizeof p, "%s/runs", out);
    swap_for_link(p, outside);
    assert_int_equal(runcharts_draw(r, out, dir, &n, &e), BE_EFAIL);
    assert_non_null(strstr(e.msg, "swap/runs: is a symbolic link"));
    assert_holds(outside, "");
    unswap(p);
    assert_no_leftovers(out);
    results_free(r);
}

/* An imported run's staging directory, made in OUT/runs/, when OUT/runs
 * becomes a link to the attacker's directory holding, under the staging
 * directory's name, a link to a victim's directory: moving the staging
 * directory into place is refused (rename(2) by path moved the attacker's
 * link into place), and removing it deletes nothing of the victim's
 * (removal by path followed both links and emptied the victim's
 * directory). */
static void test_import_swapped(void **state)
{
    char out[400], runs[500], src[400], att[400], victim[400], *name;
    archive_run u;
    int k;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/impswap", tmpdir);
    snprintf(runs, sizeof runs, "%s/runs", out);
    snprintf(src, sizeof src, "%s/impswap-run.xml", tmpdir);
    snprintf(att, sizeof att, "%s/impswap-attacker", tmpdir);
    snprintf(victim, sizeof victim, "%s/impswap-victim", tmpdir);
    sh("mkdir -p '%s' '%s' '%s'", runs, att, victim);
    write_text(src, base, strlen(base));
    for (k = 0; k < 2; k++) {
        sh("echo precious > '%s/keep'", victim);
        if (archive_load_run(out, src, &u, &e) != BE_OK)
            fail_msg("%s", e.msg);
        assert_true(u.imported);
        if (archive_place(&u, &e) != BE_OK)
            fail_msg("%s", e.msg);
        assert_true(exists("%s/" ARCHIVE_RESULTS, u.stage));
        name = strrchr(u.stage, '/') + 1;
        sh("ln -s '%s' '%s/%s'", victim, att, name);
        swap_for_link(runs, att);
        /* first the move into place, then (and after it) the removal */
        if (k == 0) {
            assert_int_equal(archive_commit(&u, &e), BE_EFAIL);
            assert_one_line(e.msg);
            assert_non_null(strstr(e.msg, "impswap/runs: is a symbolic link"));
        }
        archive_run_free(&u);
        assert_true(exists("%s/keep", victim));
        sh("test \"$(cat '%s/keep')\" = precious && test -L '%s/%s'", victim, att, name);
        assert_holds(att, name);
        sh("rm '%s/%s'", att, name);
        unswap(runs);
        /* the staging directory is left for the next command's sweep */
        sh("rm -r '%s'/.import-*", runs);
    }
    assert_no_leftovers(out);
}

/* A chart of OUT that is a FIFO (its PNG header is read for the page's
 * image size): the report goes on (it blocked forever on the FIFO), the
 * page falls back to the chart's nominal size. */
static void test_report_fifo_chart(void **state)
{
    char out[400], p[700];
    warnings w;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/fifochart", tmpdir);
    sh("mkdir -p '%s/runs/" BASE_ID "'", out);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/results.xml", out);
    write_text(p, base, strlen(base));
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(p, sizeof p, "%s/runs/" BASE_ID "/throughput-inference.png", out);
    sh("rm -f '%s' && mkfifo '%s'", p, p);
    alarm(120); /* a hang is a failure, not a stuck suite */
    if (report(out, NULL, NULL, &w, &e) != BE_OK)
        fail_msg("%s", e.msg);
    alarm(0);
    assert_no_leftovers(out);
}

/* OUT/site.conf as an attacker would make it: each refused at once with
 * one line that quotes nothing of the file but a short escaped fragment
 * (a FIFO or /dev/zero hung `report`, a NUL dropped what followed it, a
 * link to /etc/passwd was quoted, 200 MB were read whole). */
static void test_site_conf_hostile(void **state)
{
    char errbuf[4096], out[400], p[600];
    const char *args[] = {"report", "--out", out, NULL};
    int fd;
    (void)state;
    snprintf(out, sizeof out, "%s/siteconf", tmpdir);
    sh("mkdir -p '%s'", out);
    snprintf(p, sizeof p, "%s/site.conf", out);
    write_text(p, "title a\n\x00title b\n", 17);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "site.conf:2: a NUL byte"));
    sh("rm -f '%s' && mkfifo '%s'", p, p);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "site.conf: is a FIFO, not a regular file"));
    sh("rm -f '%s' && ln -s /dev/zero '%s'", p, p);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "site.conf: is a symbolic link"));
    sh("rm -f '%s' && ln -s /etc/passwd '%s'", p, p);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_null(strstr(errbuf, "root"));
    sh("rm -f '%s'", p);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 200L * 1024 * 1024), 0);
    close(fd);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_non_null(strstr(errbuf, "site.conf: is 209715200 bytes; at most 65536 are read"));
    /* a line of another file's secrets: a fragment of it at most */
    write_text(p, "root:x:0:0:root:/root:/bin/bash-and-a-long-secret-tail-here\n", 60);
    assert_int_equal(run_cli(errbuf, sizeof errbuf, args), 1);
    assert_int_equal(count_lines(errbuf), 1);
    assert_null(strstr(errbuf, "secret-tail"));
    assert_non_null(
        strstr(errbuf, "site.conf:1: \"root:x:0:0:root:/root:/bin/bash-and-a-lo...\" is not"));
}

static int setup(void **state)
{
    err e;
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-hostile-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    if (fsx_read_all(HOSTILE "/base.xml", &base, NULL, &e) != BE_OK) {
        fprintf(stderr, "%s (run from the source tree)\n", e.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    free(base);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    static const struct CMUnitTest more[] = {
        cmocka_unit_test(test_save_refuses_nonfinite),
        cmocka_unit_test(test_point_saveable),
        cmocka_unit_test(test_save_nan_max_error),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_save_refuses_unloadable),
        cmocka_unit_test(test_archive_import_same_id),
        cmocka_unit_test(test_archive_links),
        cmocka_unit_test(test_archive_unrenderable),
        cmocka_unit_test(test_merge_hosts_utf8),
        cmocka_unit_test(test_feed_escaping),
        cmocka_unit_test(test_page_text),
        cmocka_unit_test(test_csv_formulas),
        cmocka_unit_test(test_chart_text),
        cmocka_unit_test(test_cli_text),
        cmocka_unit_test(test_infile_kinds),
        cmocka_unit_test(test_infile_size),
        cmocka_unit_test(test_infile_text),
        cmocka_unit_test(test_infile_fragment),
        cmocka_unit_test(test_fsx_write_in),
        cmocka_unit_test(test_outlock),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_terminal_text),
        cmocka_unit_test(test_markdown_escape),
        cmocka_unit_test(test_markdown_inert),
        cmocka_unit_test(test_report_planted_links),
        cmocka_unit_test(test_report_fifo_chart),
        cmocka_unit_test(test_report_chart_links),
        cmocka_unit_test(test_report_sweeps_killed),
        cmocka_unit_test(test_refit_chart_link),
        cmocka_unit_test(test_report_planted_manifest),
        cmocka_unit_test(test_compare_planted_link),
        cmocka_unit_test(test_refit_planted_dir),
        cmocka_unit_test(test_write_swapped),
        cmocka_unit_test(test_import_swapped),
        cmocka_unit_test(test_site_conf_hostile),
    };
    enum { N = sizeof cases / sizeof *cases, M = sizeof more / sizeof *more };
    struct CMUnitTest tests[N + M];
    size_t i;
    for (i = 0; i < N; i++) {
        memset(&tests[i], 0, sizeof tests[i]);
        tests[i].name = cases[i].name;
        tests[i].test_func = run_case;
        tests[i].initial_state = (void *)&cases[i];
    }
    for (i = 0; i < M; i++)
        tests[N + i] = more[i];
    return _cmocka_run_group_tests("hostile", tests, N + M, setup, teardown);
}
