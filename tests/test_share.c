/*
 * test_share.c — the page people share: SHA-256 and base64 against their
 * standards' vectors, and `report --single-file RUN` run as a user would
 * ($BREAKEVEN): the one file it writes holds its charts and its
 * stylesheet, allowed by a policy that names the stylesheet's hash; bad
 * input is one line and exit 2, a file that cannot be written one line
 * and exit 1, with nothing of the report written.  tests/check_pages opens
 * the file in Chromium and the Nu HTML Checker.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base64.h"
#include "fsx.h"
#include "sha256.h"

/* the committed run of 0.1.0, imported by each report */
#define FIXTURE "tests/data/results-0.1.0.xml"

static const char *bin;
static char tmpdir[256];

/* ---- SHA-256 and base64 ---------------------------------------------- */

static void hex(const unsigned char *d, char *out)
{
    int i;
    for (i = 0; i < SHA256_BYTES; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_sha256_vectors(void **state)
{
    /* FIPS 180-2, appendix B, and the empty message */
    static const char *const in[] = {"", "abc",
                                     "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
    static const char *const want[] = {
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"};
    unsigned char d[SHA256_BYTES];
    char h[2 * SHA256_BYTES + 1], *a;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof in / sizeof *in; i++) {
        sha256(in[i], strlen(in[i]), d);
        hex(d, h);
        assert_string_equal(h, want[i]);
    }
    /* a million "a": many blocks */
    a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    sha256(a, 1000000, d);
    free(a);
    hex(d, h);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_base64_vectors(void **state)
{
    /* RFC 4648, section 10 */
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const want[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                                       "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    char out[16];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof in / sizeof *in; i++) {
        assert_int_equal(base64_len(strlen(in[i])), strlen(want[i]));
        base64_encode(in[i], strlen(in[i]), out);
        assert_string_equal(out, want[i]);
    }
}

/* ---- report --single-file -------------------------------------------- */

typedef struct outcome {
    int status;
    char *out, *err; /* owned */
} outcome;

static void run(outcome *o, ...)
{
    const char *argv[16];
    char so[300], se[300];
    va_list ap;
    int n = 0, ws;
    pid_t pid;
    err e;
    argv[n++] = bin;
    va_start(ap, o);
    while (n < 15 && (argv[n] = va_arg(ap, const char *)))
        n++;
    va_end(ap);
    argv[n] = NULL;
    snprintf(so, sizeof so, "%s/stdout", tmpdir);
    snprintf(se, sizeof se, "%s/stderr", tmpdir);
    pid = fork();
    if (pid == 0) {
        int fo = open(so, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(se, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    assert_true(waitpid(pid, &ws, 0) == pid);
    o->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    assert_int_equal(fsx_read_all(so, &o->out, NULL, &e), BE_OK);
    assert_int_equal(fsx_read_all(se, &o->err, NULL, &e), BE_OK);
}

static void outcome_free(outcome *o)
{
    free(o->out);
    free(o->err);
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (; (text = strstr(text, what)); text += strlen(what))
        n++;
    return n;
}

/* The one run of OUT (its id into id). */
static void only_run(const char *out, char *id, size_t size)
{
    char p[400];
    struct dirent *d;
    DIR *dir;
    int n = 0;
    snprintf(p, sizeof p, "%s/runs", out);
    assert_non_null(dir = opendir(p));
    while ((d = readdir(dir)))
        if (d->d_name[0] != '.') {
            snprintf(id, size, "%s", d->d_name);
            n++;
        }
    closedir(dir);
    assert_int_equal(n, 1);
}

/* The page's <style> hashed as the policy names it. */
static void assert_style_allowed(const char *page)
{
    const char *css = strstr(page, "<style>"), *end;
    unsigned char d[SHA256_BYTES];
    char want[128], b64[64];
    assert_non_null(css);
    css += strlen("<style>");
    assert_non_null(end = strstr(css, "</style>"));
    sha256(css, (size_t)(end - css), d);
    base64_encode(d, sizeof d, b64);
    snprintf(want, sizeof want,
             "content=\"default-src 'none'; img-src data:; style-src 'sha256-%s'; base-uri "
             "'none'; form-action 'none'\"",
             b64);
    assert_int_equal(count_of(page, "Content-Security-Policy"), 1);
    assert_non_null(strstr(page, want));
}

static void test_single_file(void **state)
{
    char out[300], want[700], id[200], *page;
    outcome o;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/a", tmpdir);
    run(&o, "report", "--quiet", "--out", out, "--single-file", FIXTURE, NULL);
    assert_int_equal(o.status, 0);
    only_run(out, id, sizeof id);
    /* its path printed last, after the site's */
    snprintf(want, sizeof want, "%s/index.html\n%s/share/%s.html\n", out, out, id);
    assert_string_equal(o.out, want);
    outcome_free(&o);
    snprintf(want, sizeof want, "%s/share/%s.html", out, id);
    assert_int_equal(fsx_read_all(want, &page, NULL, &e), BE_OK);
    /* every chart inside it, wide and narrow (the 0.1.0 run: five charts),
     * nothing loaded from elsewhere, no link to a site it has not got */
    assert_int_equal(count_of(page, "<img "), 5);
    assert_int_equal(count_of(page, " src=\"data:image/png;base64,iVBORw0KGgo"), 5);
    assert_int_equal(count_of(page, " srcset=\"data:image/png;base64,iVBORw0KGgo"), 5);
    assert_int_equal(count_of(page, "src=\""), 5);
    assert_int_equal(count_of(page, "<a "), 0);
    assert_int_equal(count_of(page, "<link "), 0);
    assert_null(strstr(page, "og:image"));
    assert_null(strstr(page, "og:url"));
    assert_style_allowed(page);
    free(page);

    /* with a base URL: links and previews lead to the published site */
    run(&o, "report", "--quiet", "--out", out, "--base-url", "https://example.org/b",
        "--single-file", id, NULL);
    assert_int_equal(o.status, 0);
    outcome_free(&o);
    assert_int_equal(fsx_read_all(want, &page, NULL, &e), BE_OK);
    snprintf(want, sizeof want,
             "<meta property=\"og:url\" content=\"https://example.org/b/runs/%s/index.html\">", id);
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof want,
             "<meta property=\"og:image\" content=\"https://example.org/b/runs/%s/"
             "speed-ratio-inference.png\">",
             id);
    assert_non_null(strstr(page, want));
    assert_int_equal(count_of(page, "href=\""), count_of(page, "href=\"https://example.org/b/"));
    assert_true(count_of(page, "<a ") > 0);
    assert_style_allowed(page);
    free(page);
}

static void test_single_file_bad_input(void **state)
{
    char out[300], share[400], index[400];
    struct stat st;
    outcome o;
    int fd;
    (void)state;
    snprintf(out, sizeof out, "%s/b", tmpdir);
    /* a run that is not there: one line, exit 2, nothing written (OUT
     * itself holds the lock taken before the run is looked for) */
    run(&o, "report", "--out", out, "--single-file", "no-such-run", NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_of(o.err, "\n"), 1);
    assert_non_null(strstr(o.err, "no-such-run"));
    assert_string_equal(o.out, "");
    outcome_free(&o);
    snprintf(index, sizeof index, "%s/index.html", out);
    snprintf(share, sizeof share, "%s/share", out);
    assert_int_not_equal(stat(index, &st), 0);
    assert_int_not_equal(stat(share, &st), 0);
    /* none, or two */
    run(&o, "report", "--out", out, "--single-file", NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_of(o.err, "\n"), 1);
    outcome_free(&o);
    run(&o, "report", "--out", out, "--single-file", FIXTURE, FIXTURE, NULL);
    assert_int_equal(o.status, 2);
    assert_int_equal(count_of(o.err, "\n"), 1);
    outcome_free(&o);
    assert_int_not_equal(stat(index, &st), 0);

    /* OUT/share cannot be made (a file is there): one line, exit 1, and
     * the report, published as one set with it, is not written either */
    (void)mkdir(out, 0755);
    assert_true((fd = open(share, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0);
    close(fd);
    run(&o, "report", "--quiet", "--out", out, "--single-file", FIXTURE, NULL);
    assert_int_equal(o.status, 1);
    assert_int_equal(count_of(o.err, "\n"), 1);
    assert_non_null(strstr(o.err, share));
    assert_string_equal(o.out, "");
    outcome_free(&o);
    assert_int_not_equal(stat(index, &st), 0);
    assert_true(stat(share, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);

    /* OUT/share a link planted to a directory outside OUT: refused, one
     * line, exit 1, nothing written there */
    {
        char outside[400], cmd[1000];
        snprintf(outside, sizeof outside, "%s/outside", tmpdir);
        assert_int_equal(mkdir(outside, 0755), 0);
        assert_int_equal(unlink(share), 0);
        assert_int_equal(symlink(outside, share), 0);
        run(&o, "report", "--quiet", "--out", out, "--single-file", FIXTURE, NULL);
        assert_int_equal(o.status, 1);
        assert_int_equal(count_of(o.err, "\n"), 1);
        assert_non_null(strstr(o.err, "symbolic link"));
        outcome_free(&o);
        assert_int_not_equal(stat(index, &st), 0);
        snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", outside);
        assert_int_equal(system(cmd), 0);
    }
}

static int setup(void **state)
{
    (void)state;
    bin = getenv("BREAKEVEN");
    if (!bin || access(bin, X_OK) != 0) {
        fprintf(stderr, "test_share: set BREAKEVEN to the binary under test\n");
        return -1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-share-XXXXXX");
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
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_base64_vectors),
        cmocka_unit_test(test_single_file),
        cmocka_unit_test(test_single_file_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
