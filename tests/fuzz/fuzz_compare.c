/*
 * fuzz_compare.c — the libFuzzer harness of what reads loaded runs: the
 * comparison (compare_runs and its text, Markdown and JSON), the exports
 * (summary.md, results.json, results.csv), the dashboards' JSON of the
 * run and of the comparison (dash.h) and the history of an archive
 * (history_make, its series and change detection).
 *
 * An input is one or two results files, split at the first form feed
 * (a byte no XML document holds); one file is compared with itself.  Each
 * goes through results_load_bytes, so what reaches the code under test is
 * what the loader lets through, as in breakeven.  Beyond ASan and UBSan,
 * it aborts when the Markdown holds an HTML tag (raw HTML from the data:
 * the Markdown breakeven writes has none of its own), or the text table a
 * control character but the line break, or a dashboard's JSON a raw control
 * character but its own line breaks (JSON strings hold none unescaped).
 * Built and run by `make fuzz`.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "dash.h"
#include "export.h"
#include "fuzz.h"
#include "history.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 when md holds what a Markdown renderer would pass on as HTML: a "<"
 * before a letter, "/", "!" or "?" (breakeven's own text has "p < 0.01"). */
static int html_tag(const char *md)
{
    const char *p;
    for (p = md; (p = strchr(p, '<')); p++)
        if ((p[1] | 0x20) >= 'a' && (p[1] | 0x20) <= 'z')
            return 1;
        else if (p[1] == '/' || p[1] == '!' || p[1] == '?')
            return 1;
    return 0;
}

/* The dashboards' JSON of b, and of c when not NULL, in both formats. */
static void check_dash(const results *b, const compare_set *c)
{
    char *out = NULL, *p;
    size_t len = 0;
    FILE *f;
    err e;
    int k, rc;
    for (k = 0; k < 4; k++) {
        if (k >= 2 && !c)
            break;
        if (!(f = open_memstream(&out, &len)))
            abort();
        rc = k < 2 ? dash_write_run(f, b, (dash_format)(k & 1), k & 1, &e)
                   : dash_write_compare(f, c, (dash_format)(k - 2), &e);
        fclose(f);
        if (rc != BE_OK)
            fuzz_check_message(e.msg);
        for (p = out; rc == BE_OK && *p; p++)
            if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7F) {
                fprintf(stderr, "a raw control character in a dashboard's JSON:\n%s\n", out);
                abort();
            }
        free(out);
        out = NULL;
    }
}

static void check_outputs(const results *a, const results *b)
{
    compare_set c;
    history h;
    archive *arch;
    char *out = NULL, *p;
    size_t len = 0;
    FILE *f;
    err e;
    int k;

    if (compare_runs(a, b, &c, &e) == BE_OK) {
        for (k = 0; k < 3; k++) {
            if (!(f = open_memstream(&out, &len)))
                abort();
            compare_write(f, &c, k == 0 ? COMPARE_TEXT : k == 1 ? COMPARE_MARKDOWN : COMPARE_JSON);
            fclose(f);
            if (k == 1 && html_tag(out)) {
                fprintf(stderr, "raw HTML in the Markdown:\n%s\n", out);
                abort();
            }
            for (p = out; k == 0 && *p; p++)
                if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7F) {
                    fprintf(stderr, "a control character in the text:\n%s\n", out);
                    abort();
                }
            free(out);
            out = NULL;
        }
        check_dash(b, &c);
        compare_free(&c);
    } else {
        fuzz_check_message(e.msg);
        check_dash(b, NULL);
    }
    if (export_summary(b, &out, &len, &e) == BE_OK && html_tag(out)) {
        fprintf(stderr, "raw HTML in summary.md:\n%s\n", out);
        abort();
    }
    free(out);
    out = NULL;
    if (export_json(b, &out, &len, &e) == BE_OK)
        free(out);
    out = NULL;
    if (csv_results(b, &out, &len, &e) == BE_OK)
        free(out);
    /* an archive of the two, oldest first, b after a on one host */
    if (!(arch = calloc(1, sizeof *arch)) || !(arch->v = calloc(2, sizeof *arch->v)))
        abort();
    arch->n = 2;
    arch->v[0].r = (results *)a;
    arch->v[0].prev = -1;
    arch->v[1].r = (results *)b;
    arch->v[1].prev = strcmp(a->prov.host, b->prov.host) == 0 ? 0 : -1;
    memset(&h, 0, sizeof h);
    if (history_make(arch, &h, &e) == BE_OK)
        history_free(&h);
    else
        fuzz_check_message(e.msg);
    free(arch->v);
    free(arch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *ff = memchr(data, '\f', size);
    size_t na = ff ? (size_t)(ff - text) : size;
    results *a = NULL, *b = NULL;
    err e;

    if (results_load_bytes("a.xml", text, na, &a, &e) != BE_OK) {
        fuzz_check_message(e.msg);
        return 0;
    }
    if (ff && results_load_bytes("b.xml", ff + 1, size - na - 1, &b, &e) != BE_OK) {
        fuzz_check_message(e.msg);
        results_free(a);
        return 0;
    }
    /* the archive's order: oldest first */
    if (b && strcmp(a->prov.started, b->prov.started) > 0)
        check_outputs(b, a);
    else
        check_outputs(a, b ? b : a);
    results_free(a);
    results_free(b);
    return 0;
}
