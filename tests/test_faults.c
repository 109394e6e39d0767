/*
 * test_faults.c — fault injection, as SQLite does it: the Nth allocation
 * fails, for every N along a path, then the Nth write, fsync or rename.
 *
 * This binary is linked with -Wl,--wrap=malloc,calloc,realloc,strdup,
 * write,fsync,rename (see the Makefile), so every such call made by
 * breakeven's own code (libbreakeven.a) comes through the injectors below;
 * libxml2's and libxslt's allocations come through them too, routed by
 * xmlMemSetup.  cairo, pixman, fontconfig and libc's own internal
 * allocations (fopen, opendir) are not covered.  For each N the path runs
 * once with the Nth call failing (only that one: the calls after it
 * succeed again, the harder case), and must come back with a clean error
 * (a negative code, one printable line), or succeed when the failure did
 * not matter; whatever it wrote must be the previous file or the new one,
 * whole, with no temporary file left, and for `report` the site as a whole
 * the previous one or the new one once site_recover (the next report's
 * first step) has run.  Leaks are the leak checker's
 * business: make check runs this binary under ASan/LSan and under
 * valgrind.  N runs until a run no longer reaches the Nth call.
 *
 * The paths: loading a results file (tests/hostile/base.xml), saving it
 * (which loads it back), and `report` of an archive holding it (charts
 * already drawn, so the path is the archive, the pages, the feed and the
 * CSV); then `report` importing a run (its charts drawn in the staging
 * directory) with our own allocations failing.  Writes: each write,
 * fsync and rename of the report failing (ENOSPC, EIO), and short writes.
 * Run from the repository root (templates, tests/hostile/base.xml).
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* nftw */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <execinfo.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlmemory.h>

#include "fsx.h"
#include "report.h"
#include "site.h"
#include "results.h"
#include "utf8.h"

#define FIXTURE "tests/hostile/base.xml"
#define RUN_ID "20261122T000000Z-host"

/* ---- the injectors --------------------------------------------------- */

/* A kind of call that fails when the counter reaches at (0: never), once. */
typedef struct injector {
    int on;     /* counting                                         */
    long n, at; /* calls counted, and the one that fails            */
    int hit;    /* the failure happened                             */
    int err;    /* errno of a failing write, fsync or rename        */
} injector;

/* File-scope by necessity: the wrapped functions take no context.  allocs
 * counts breakeven's own allocations, xml_allocs libxml2's and libxslt's. */
static injector allocs, xml_allocs, writes, syncs, renames;
static size_t write_cap; /* >0: every write writes at most this much */

static int fails(injector *j)
{
    if (!j->on)
        return 0;
    if (++j->n == j->at) {
        j->hit = 1;
        return 1;
    }
    return 0;
}

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
ssize_t __real_write(int fd, const void *buf, size_t n);
int __real_fsync(int fd);
int __real_rename(const char *from, const char *to);
int __real_renameat(int fromfd, const char *from, int tofd, const char *to);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
int __wrap_fsync(int fd);
int __wrap_rename(const char *from, const char *to);
int __wrap_renameat(int fromfd, const char *from, int tofd, const char *to);

void *__wrap_malloc(size_t size)
{
    return fails(&allocs) ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size)
{
    return fails(&allocs) ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t size)
{
    return fails(&allocs) ? NULL : __real_realloc(p, size);
}
char *__wrap_strdup(const char *s)
{
    return fails(&allocs) ? NULL : __real_strdup(s);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
    if (fails(&writes)) {
        errno = writes.err;
        return -1;
    }
    if (write_cap && n > write_cap)
        n = write_cap;
    return __real_write(fd, buf, n);
}

/* Only a file's fsync: fsx_write_atomic ignores a failure of the
 * directory's, after the rename (the file is whole either way). */
int __wrap_fsync(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fails(&syncs)) {
        errno = syncs.err;
        return -1;
    }
    return __real_fsync(fd);
}

int __wrap_rename(const char *from, const char *to)
{
    if (fails(&renames)) {
        errno = renames.err;
        return -1;
    }
    return __real_rename(from, to);
}

/* A file's replacement (fsx_write_at), counted with the renames. */
int __wrap_renameat(int fromfd, const char *from, int tofd, const char *to)
{
    if (fails(&renames)) {
        errno = renames.err;
        return -1;
    }
    return __real_renameat(fromfd, from, tofd, to);
}

/* libxml2's and libxslt's allocator, routed through xml_allocs. */
static void *xml_malloc(size_t size)
{
    return fails(&xml_allocs) ? NULL : __real_malloc(size);
}
static void *xml_realloc(void *p, size_t size)
{
    return fails(&xml_allocs) ? NULL : __real_realloc(p, size);
}
static char *xml_strdup(const char *s)
{
    return fails(&xml_allocs) ? NULL : __real_strdup(s);
}
static void xml_free(void *p)
{
    free(p);
}

/* libxml2's complaints about memory, which it prints by default. */
static void quiet(void *ctx, const char *fmt, ...)
{
    (void)ctx;
    (void)fmt;
}

static void arm(injector *j, long at, int code)
{
    memset(j, 0, sizeof *j);
    j->at = at;
    j->err = code;
    j->on = 1;
}

/* ---- trees of files ---------------------------------------------------- */

static char tmpdir[256];
static char base_out[400]; /* the archive before: one run, a report of it */
static char ref_out[400];  /* the same after a report without faults      */

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

static int same_bytes(const char *a, const char *b)
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

/* What every file under the checked tree must be: the file of the same
 * name in one of these trees (the tree before, the tree after). */
typedef struct tree_check {
    const char *root, *before, *after;
    int bad;
    char why[700];
} tree_check;

static tree_check *walk_state; /* nftw takes no context */

static int check_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    tree_check *c = walk_state;
    const char *rel = path + strlen(c->root);
    char a[1200], b[1200];
    (void)f;
    if (c->bad)
        return 0;
    if (strstr(path, ".tmp.") || strstr(path, "/.import-")) {
        c->bad = 1;
        snprintf(c->why, sizeof c->why, "left behind: %s", path);
        return 0;
    }
    /* the render cache: an entry is checked when read, and any entry,
     * old, new or none, gives the same site (test_archive.c) */
    if (flag != FTW_F || !S_ISREG(st->st_mode) || strstr(rel, "/.cache/"))
        return 0;
    snprintf(a, sizeof a, "%s%s", c->before ? c->before : "", rel);
    snprintf(b, sizeof b, "%s%s", c->after, rel);
    if ((c->before && same_bytes(path, a)) || same_bytes(path, b))
        return 0;
    /* cairo numbers the glyphs of an SVG from a counter of the process:
     * an SVG drawn again differs, and is whole when it parses */
    if (strlen(path) > 4 && strcmp(path + strlen(path) - 4, ".svg") == 0) {
        xmlDocPtr doc = xmlReadFile(
            path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_HUGE);
        xmlFreeDoc(doc);
        if (doc)
            return 0;
    }
    c->bad = 1;
    snprintf(c->why, sizeof c->why, "%s is neither the previous file nor the new one", path);
    return 0;
}

/* Fails the test when a file under root is not whole (see tree_check). */
static void assert_tree(const char *root, const char *before, const char *after, long n,
                        const char *what)
{
    tree_check c = {root, before, after, 0, ""};
    walk_state = &c;
    assert_int_equal(nftw(root, check_entry, 16, FTW_PHYS), 0);
    walk_state = NULL;
    if (c.bad)
        fail_msg("%s, failure %ld: %s", what, n, c.why);
}

/* Fails unless the site at root is the previous one or the new one as a
 * whole (the render cache aside), not a mix of their files. */
static void assert_one_site(const char *root, long n, const char *what)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "diff -r -q -x .cache '%s' '%s' >/dev/null 2>&1", root, base_out);
    if (system(cmd) == 0)
        return;
    snprintf(cmd, sizeof cmd, "diff -r -q -x .cache '%s' '%s' >/dev/null 2>&1", root, ref_out);
    if (system(cmd) != 0)
        fail_msg("%s, failure %ld: %s is a mix of the previous site and the new one", what, n,
                 root);
}

static void assert_clean_error(int rc, const err *e, long n, const char *what)
{
    const char *p;
    if (rc >= 0)
        return;
    if (!e->msg[0])
        fail_msg("%s, failure %ld: an error without a message", what, n);
    for (p = e->msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            fail_msg("%s, failure %ld: a control character in \"%s\"", what, n, e->msg);
    if (!utf8_clean(e->msg))
        fail_msg("%s, failure %ld: invalid UTF-8 in \"%s\"", what, n, e->msg);
}

static void report_opts_for(report_opts *o, const char *out, const char *const *runs, int nruns,
                            const char *title)
{
    memset(o, 0, sizeof *o);
    o->out = out;
    o->runs = runs;
    o->nruns = nruns;
    o->title = title;
    o->data_dir = ".";
}

/* ---- allocation failures ------------------------------------------------ */

static void test_load(void **state)
{
    results *r;
    long n;
    err e;
    int rc;
    (void)state;
    for (n = 1;; n++) {
        arm(&allocs, n, 0);
        rc = results_load(FIXTURE, &r, &e);
        allocs.on = 0;
        assert_clean_error(rc, &e, n, "load");
        if (rc == BE_OK)
            results_free(r);
        else
            assert_null(r);
        if (!allocs.hit) {
            assert_int_equal(rc, BE_OK);
            break;
        }
    }
    print_message("load: each of %ld allocations failed, one at a time\n", n - 1);
}

static void test_save(void **state)
{
    char path[400], old[400], news[400];
    results *r;
    long n;
    err e;
    int rc;
    (void)state;
    assert_int_equal(results_load(FIXTURE, &r, &e), BE_OK);
    snprintf(r->prov.command, sizeof r->prov.command, "the new file");
    snprintf(path, sizeof path, "%s/save", tmpdir);
    snprintf(old, sizeof old, "%s/save-old", tmpdir);
    snprintf(news, sizeof news, "%s/save-new", tmpdir);
    sh("mkdir -p %s %s %s && cp " FIXTURE " %s/results.xml && cp " FIXTURE " %s/results.xml", path,
       old, news, path, old);
    strcat(news, "/results.xml");
    assert_int_equal(results_save(r, NULL, news, &e), BE_OK);
    news[strlen(news) - strlen("/results.xml")] = '\0';
    for (n = 1;; n++) {
        char file[500];
        snprintf(file, sizeof file, "%s/results.xml", path);
        sh("cp " FIXTURE " %s", file);
        arm(&allocs, n, 0);
        rc = results_save(r, NULL, file, &e);
        allocs.on = 0;
        assert_clean_error(rc, &e, n, "save");
        assert_tree(path, old, news, n, "save");
        if (!allocs.hit) {
            assert_int_equal(rc, BE_OK);
            break;
        }
    }
    results_free(r);
    print_message("save: each of %ld allocations failed, one at a time\n", n - 1);
}

/* Learning the run-to-run band from earlier runs (results_learn_bands),
 * the fixture three times over: each allocation failing is a clean error
 * and leaves the devices' bands as they were (the defaults). */
static void test_learn_allocs(void **state)
{
    results *cur, *run[3];
    const results *runs[3];
    long n;
    err e;
    int rc, k;
    (void)state;
    assert_int_equal(results_load(FIXTURE, &cur, &e), BE_OK);
    for (k = 0; k < 3; k++) {
        int i, j;
        assert_int_equal(results_load(FIXTURE, &run[k], &e), BE_OK);
        runs[k] = run[k];
        /* the fixture's samples in two passes, as a sweep's are */
        for (i = 0; i < run[k]->npoints; i++) {
            rs_point *p = &run[k]->points[i];
            if (p->nsamples < 1)
                continue;
            free(p->pass);
            assert_non_null(p->pass = malloc((size_t)p->nsamples * sizeof *p->pass));
            for (j = 0; j < p->nsamples; j++)
                p->pass[j] = 1 + j % 2;
        }
    }
    for (n = 1;; n++) {
        arm(&allocs, n, 0);
        rc = results_learn_bands(cur, runs, 3, &e);
        allocs.on = 0;
        assert_clean_error(rc, &e, n, "learn");
        if (rc < 0)
            for (k = 0; k < cur->ndevices; k++)
                assert_int_equal(cur->devices[k].run_sd_runs, 0);
        if (!allocs.hit) {
            assert_int_equal(rc, BE_OK);
            break;
        }
    }
    for (k = 0; k < 3; k++)
        results_free(run[k]);
    results_free(cur);
    print_message("learn: each of %ld allocations failed, one at a time\n", n - 1);
}

/* `report` of the archive in base_out with a new title: for each N (every
 * stride-th), OUT starts as base_out and must end as base_out, ref_out or
 * a mix of whole files; xml: libxml2's allocations fail too. */
/* Every stride-th N on the slow paths (report, import): 1 unless
 * BREAKEVEN_FAULTS_STRIDE says (tests/run, under valgrind). */
static long stride_of(void)
{
    const char *s = getenv("BREAKEVEN_FAULTS_STRIDE");
    return s && atol(s) > 0 ? atol(s) : 1;
}

static long report_faults(injector *j, int err_code, long stride, const char *what)
{
    char out[400], index[600];
    report_opts o;
    long n;
    err e;
    int rc;
    snprintf(out, sizeof out, "%s/out", tmpdir);
    report_opts_for(&o, out, NULL, 0, "After");
    for (n = 1;; n += stride) {
        sh("rm -rf %s && cp -a %s %s", out, base_out, out);
        arm(j, n, err_code);
        rc = report_write(&o, index, sizeof index, &e);
        j->on = 0;
        assert_clean_error(rc, &e, n, what);
        if (j->hit && rc == BE_OK && j != &allocs)
            fail_msg("%s, failure %ld: the report succeeded", what, n);
        /* a set committed but not all in place is finished by the next
         * report, which starts with site_recover */
        if (site_recover(out, &e) != BE_OK)
            fail_msg("%s, failure %ld: recovery: %s", what, n, e.msg);
        assert_tree(out, base_out, ref_out, n, what);
        assert_one_site(out, n, what);
        if (!j->hit) {
            if (rc != BE_OK)
                fail_msg("%s: %s", what, e.msg);
            break;
        }
    }
    return n - 1;
}

static void test_report_allocs(void **state)
{
    long n, stride = stride_of();
    (void)state;
    n = report_faults(&allocs, 0, stride, "report");
    print_message("report: allocations 1, 1+%ld, ... of %ld failed, one at a time\n", stride, n);
}

/* Importing a run: for each N, OUT holds no trace of it afterwards, or
 * all of it (results.xml that loads, its page). */
static void test_import_allocs(void **state)
{
    char out[400], ref[400], index[600], dir[600], p[700];
    const char *runs[] = {FIXTURE};
    report_opts o;
    long n, stride = stride_of();
    err e;
    int rc;
    (void)state;
    snprintf(ref, sizeof ref, "%s/imp-ref", tmpdir);
    sh("mkdir -p %s/runs", ref);
    report_opts_for(&o, ref, runs, 1, NULL);
    if (report_write(&o, index, sizeof index, &e) != BE_OK)
        fail_msg("%s", e.msg);
    snprintf(out, sizeof out, "%s/imp", tmpdir);
    snprintf(dir, sizeof dir, "%s/runs/" RUN_ID, out);
    report_opts_for(&o, out, runs, 1, NULL);
    for (n = 1;; n += stride) {
        struct stat st;
        sh("rm -rf %s && mkdir -p %s/runs", out, out);
        arm(&allocs, n, 0);
        rc = report_write(&o, index, sizeof index, &e);
        allocs.on = 0;
        assert_clean_error(rc, &e, n, "import");
        if (rc != BE_OK && lstat(dir, &st) == 0)
            fail_msg("import, failure %ld: refused (%s), but %s exists", n, e.msg, dir);
        assert_tree(out, NULL, ref, n, "import");
        if (!allocs.hit) {
            assert_int_equal(rc, BE_OK);
            break;
        }
    }
    snprintf(p, sizeof p, "%s/index.html", dir);
    assert_int_equal(access(p, F_OK), 0);
    print_message("import: allocations 1, 1+%ld, ... of %ld failed, one at a time\n", stride,
                  n - 1);
}

/* ---- write failures ------------------------------------------------------ */

static void test_write_failures(void **state)
{
    long n;
    (void)state;
    n = report_faults(&writes, ENOSPC, 1, "write ENOSPC");
    print_message("report: %ld writes failed one by one (ENOSPC)\n", n);
    n = report_faults(&syncs, EIO, 1, "fsync EIO");
    print_message("report: %ld fsyncs failed one by one (EIO)\n", n);
    n = report_faults(&renames, EXDEV, 1, "rename");
    print_message("report: %ld renames failed one by one\n", n);
}

static void test_short_writes(void **state)
{
    char out[400], index[600];
    report_opts o;
    err e;
    (void)state;
    snprintf(out, sizeof out, "%s/short", tmpdir);
    sh("rm -rf %s && cp -a %s %s", out, base_out, out);
    report_opts_for(&o, out, NULL, 0, "After");
    write_cap = 1000;
    if (report_write(&o, index, sizeof index, &e) != BE_OK)
        fail_msg("%s", e.msg);
    write_cap = 0;
    assert_tree(out, NULL, ref_out, 0, "short writes");
}

/* ---- libxml2's and libxslt's allocations (opt-in) --------------------- */

/* What one child did: the path ran to its end (no Nth allocation), came
 * back clean, gave an error that is not one clean line (ours to fix), or
 * wrote a file that is neither the old nor the new one; a crash is a
 * signal. */
enum { XML_END = 10, XML_CLEAN = 11, XML_BROKEN = 12, XML_WRONG = 13 };

static int xml_child(int report, long n)
{
    char out[400], index[600];
    report_opts o;
    results *r = NULL;
    err e;
    int rc;
    /* no cmocka here: a failed assertion would go on with the parent's tests */
    snprintf(out, sizeof out, "%s/xml-%ld", tmpdir, n);
    if (report) {
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "rm -rf %s && cp -a %s %s", out, base_out, out);
        if (system(cmd) != 0)
            return XML_BROKEN;
        report_opts_for(&o, out, NULL, 0, "After");
    }
    arm(&xml_allocs, n, 0);
    rc = report ? report_write(&o, index, sizeof index, &e) : results_load(FIXTURE, &r, &e);
    xml_allocs.on = 0;
    results_free(r);
    if (rc < 0 && (!e.msg[0] || !utf8_clean(e.msg) || strpbrk(e.msg, "\r\n")))
        return XML_BROKEN;
    if (report) {
        tree_check c = {out, base_out, ref_out, 0, ""};
        walk_state = &c;
        nftw(out, check_entry, 16, FTW_PHYS);
        if (c.bad) {
            snprintf(index, sizeof index, "cp -a %s /tmp/breakeven-fault-%ld", out, n);
            fprintf(stderr, "libxml2 allocation %ld: %s (kept in /tmp/breakeven-fault-%ld)\n", n,
                    c.why, system(index) == 0 ? n : 0L);
            return XML_WRONG;
        }
        snprintf(index, sizeof index, "rm -rf %s", out);
        if (system(index) != 0)
            return XML_BROKEN;
    }
    return xml_allocs.hit ? XML_CLEAN : XML_END;
}

/* Where a child crashed, on stderr (then the signal kills it). */
static void on_crash(int sig)
{
    void *frames[40];
    static const char head[] = "crashed here:\n";
    if (write(2, head, sizeof head - 1) < 0)
        _exit(128 + sig);
    backtrace_symbols_fd(frames, backtrace(frames, 40), 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Every N (every stride-th on the report path), each in a child process,
 * since libxml2 2.9 itself may crash when an allocation fails, and libxslt
 * 1.1.35 may go on with a part of a page missing or wrong, without a word:
 * both are counted and reported; an error that is not one clean line
 * fails the test. */
static void xml_path(int report, long stride, long from, long to)
{
    long n, clean = 0, crashed = 0, first_crash = 0, wrong = 0, first_wrong = 0;
    for (n = from; !to || n <= to; n += stride) {
        int ws, code;
        pid_t pid;
        fflush(NULL);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            /* a crash is to kill the child, where it happened said, not
             * to be caught by cmocka */
            signal(SIGSEGV, on_crash);
            signal(SIGBUS, on_crash);
            signal(SIGILL, on_crash);
            signal(SIGFPE, on_crash);
            signal(SIGABRT, on_crash);
            _exit(xml_child(report, n));
        }
        assert_int_equal(waitpid(pid, &ws, 0), pid);
        if (WIFSIGNALED(ws)) {
            crashed++;
            if (!first_crash)
                first_crash = n;
            print_message("%s: libxml2 allocation %ld failed: crash (signal %d)\n",
                          report ? "report" : "load", n, WTERMSIG(ws));
            continue;
        }
        code = WEXITSTATUS(ws);
        if (code == XML_END)
            break;
        if (code == XML_BROKEN)
            fail_msg("%s: libxml2 allocation %ld failed: the error is not one clean line",
                     report ? "report" : "load", n);
        if (code == XML_WRONG) {
            wrong++;
            if (!first_wrong)
                first_wrong = n;
            continue;
        }
        assert_int_equal(code, XML_CLEAN);
        clean++;
    }
    print_message("%s: libxml2's and libxslt's allocations %ld to %ld%s failed (every %ld-th): "
                  "%ld clean, %ld crashes inside libxml2 (the first at %ld), %ld pages silently "
                  "wrong (the first at %ld)\n",
                  report ? "report" : "load", from, n - 1, to ? "" : " (the last)", stride, clean,
                  crashed, first_crash, wrong, first_wrong);
}

/* BREAKEVEN_FAULTS_XML=STRIDE: the load path at every N, the report path
 * at every STRIDE-th; BREAKEVEN_FAULTS_XML_PATH=load or report: only that
 * path; _FROM=N and _TO=M: only those N. */
static void test_xml_allocs(void **state)
{
    const char *opt = getenv("BREAKEVEN_FAULTS_XML"), *from = getenv("BREAKEVEN_FAULTS_XML_FROM"),
               *to = getenv("BREAKEVEN_FAULTS_XML_TO"), *path = getenv("BREAKEVEN_FAULTS_XML_PATH");
    long first = from ? atol(from) : 1, last = to ? atol(to) : 0;
    (void)state;
    if (!opt || !*opt) {
        /* cmocka's skip, so that the summary counts it as skipped, not
         * passed: a test that did not run must not read as one that did */
        print_message("skipped: set BREAKEVEN_FAULTS_XML=STRIDE to fail libxml2's allocations\n");
        skip();
        return; /* skip() jumps out of the test; not reached */
    }
    xmlSetGenericErrorFunc(NULL, quiet);
    if (!path || strcmp(path, "load") == 0)
        xml_path(0, 1, first, last);
    if (!path || strcmp(path, "report") == 0)
        xml_path(1, atol(opt) > 0 ? atol(opt) : 1, first, last);
    xmlSetGenericErrorFunc(NULL, NULL);
}

/* ---- set-up ---------------------------------------------------------- */

static int setup(void **state)
{
    const char *runs[] = {FIXTURE};
    char index[600];
    report_opts o;
    err e;
    (void)state;
    if (xmlMemSetup(xml_free, xml_malloc, xml_realloc, xml_strdup) != 0)
        return -1;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-faults-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(base_out, sizeof base_out, "%s/base", tmpdir);
    snprintf(ref_out, sizeof ref_out, "%s/ref", tmpdir);
    report_opts_for(&o, base_out, runs, 1, "Before");
    if (report_write(&o, index, sizeof index, &e) != BE_OK) {
        fprintf(stderr, "%s (run from the source tree)\n", e.msg);
        return -1;
    }
    snprintf(index, sizeof index, "cp -a %s %s", base_out, ref_out);
    if (system(index) != 0)
        return -1;
    report_opts_for(&o, ref_out, NULL, 0, "After");
    if (report_write(&o, index, sizeof index, &e) != BE_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    return 0;
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
        cmocka_unit_test(test_load),          cmocka_unit_test(test_save),
        cmocka_unit_test(test_learn_allocs),  cmocka_unit_test(test_report_allocs),
        cmocka_unit_test(test_import_allocs), cmocka_unit_test(test_write_failures),
        cmocka_unit_test(test_short_writes),  cmocka_unit_test(test_xml_allocs),
    };
    return cmocka_run_group_tests_name("faults", tests, setup, teardown);
}
