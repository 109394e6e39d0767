/*
 * test_signals.c — SIGINT and SIGTERM at a few moments of `report`, `run`
 * and `refit`, on the built binary ($BREAKEVEN), as a user's Ctrl-C or a batch
 * system's kill would come.
 *
 * Each time: the exit status is 1 with one line saying it was interrupted
 * (or 0 when the work was done before the signal came; 128 + the signal
 * when it came before the handler was there, which must be before the
 * first write), no temporary file or staging directory is left, and every
 * file is the previous one or the new one, whole: the archived results
 * files byte for byte, the index, the feed and the pages either as they
 * were or complete with the new title, a run's results file loadable.
 * Most of the signals must find the work under way (exit 1), or the test
 * proves nothing.  Run from the repository root (tests/hostile/base.xml).
 */
#define _POSIX_C_SOURCE 200809L
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsx.h"
#include "results.h"

#define BASE_ID "20261122T000000Z-host"
#define NRUNS 8

static const char *bin;
static char tmpdir[256];

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

static char *slurp(const char *path)
{
    char *s = NULL;
    err e;
    return fsx_read_all(path, &s, NULL, &e) == BE_OK ? s : NULL;
}

static int same_file(const char *a, const char *b)
{
    char *x = slurp(a), *y = slurp(b);
    int same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* Whether a run directory under out/runs holds its results.xml: the run
 * has made its first write, so its handler is in place. */
static int first_save(const char *out)
{
    char p[900];
    struct dirent *de;
    int found = 0;
    DIR *d;
    snprintf(p, sizeof p, "%s/runs", out);
    if (!(d = opendir(p)))
        return 0;
    while (!found && (de = readdir(d))) {
        snprintf(p, sizeof p, "%s/runs/%s/results.xml.gz", out, de->d_name);
        found = de->d_name[0] != '.' && access(p, F_OK) == 0;
    }
    closedir(d);
    return found;
}

/* Starts bin with args, stderr into errf; sends sig after delay seconds
 * (counted from the run's first save when after_save names its OUT);
 * returns the exit status (128 + signal when killed). */
static int interrupt(const char *const *args, double delay, int sig, const char *errf,
                     const char *after_save)
{
    const char *argv[24];
    struct timespec ts;
    int n = 0, ws;
    pid_t pid;
    argv[n++] = bin;
    while (*args && n < 23)
        argv[n++] = *args++;
    argv[n] = NULL;
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fe = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fo = open("/dev/null", O_WRONLY);
        if (fe < 0 || fo < 0 || dup2(fe, 2) < 0 || dup2(fo, 1) < 0)
            _exit(127);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    if (after_save) {
        struct timespec tick = {0, 10000000};
        int i;
        /* at most a minute: a run that never saves fails below anyway */
        for (i = 0; i < 6000 && !first_save(after_save) && waitpid(pid, &ws, WNOHANG) == 0; i++)
            nanosleep(&tick, NULL);
    }
    ts.tv_sec = (time_t)delay;
    ts.tv_nsec = (long)((delay - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
    kill(pid, sig);
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The outcome of one signal: exit 1 with one line saying so, 0, or killed
 * by the signal itself.  Returns 1 when the work was interrupted. */
static int check_status(int status, int sig, const char *errf, const char *what)
{
    char *text = slurp(errf);
    int lines = 0, interrupted = 0;
    const char *p;
    assert_non_null(text);
    for (p = text; *p; p++)
        lines += *p == '\n';
    if (status == 1) {
        if (!strstr(text, "interrupted") || lines != 1)
            fail_msg("%s: exit 1 without one line saying it was interrupted: %s", what, text);
        interrupted = 1;
    } else if (status != 0 && status != 128 + sig) {
        fail_msg("%s: exit status %d: %s", what, status, text);
    }
    free(text);
    return interrupted;
}

/* No temporary file, no staging directory anywhere under dir. */
static void assert_no_leftovers(const char *dir)
{
    char cmd[700];
    FILE *f;
    int c;
    snprintf(cmd, sizeof cmd,
             "find '%s' -name '.import-*' -o -name '*.tmp.*' -o -name '.undo-*' -o -name "
             "'*.stage' -o -name '.publish*'",
             dir);
    f = popen(cmd, "r");
    assert_non_null(f);
    c = fgetc(f);
    pclose(f);
    if (c != EOF)
        fail_msg("a temporary file or a staging directory is left in %s", dir);
}

/* A page or the feed: as it was, or whole with the new title. */
static void assert_page(const char *out, const char *before, const char *rel)
{
    char a[700], b[700], *text;
    snprintf(a, sizeof a, "%s/%s", out, rel);
    snprintf(b, sizeof b, "%s/%s", before, rel);
    if (same_file(a, b))
        return;
    text = slurp(a);
    if (!text || !strstr(text, "Interrupted?") ||
        !(strstr(text, "</html>") || strstr(text, "</rss>")))
        fail_msg("%s is neither the previous file nor a whole new one", a);
    free(text);
}

/* `report` of an archive of NRUNS runs whose charts are to be drawn
 * again: at each delay, alternately SIGINT and SIGTERM. */
static void test_report_signals(void **state)
{
    static const double delays[] = {0.02, 0.3, 0.7, 1.2, 1.8, 2.6};
    char before[400], out[400], errf[400], p[700];
    const char *args[] = {"report", "--quiet", "--out", out, "--title", "Interrupted?", NULL};
    size_t k;
    int i, hits = 0;
    char *base = NULL;
    err e;
    (void)state;
    snprintf(before, sizeof before, "%s/before", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(errf, sizeof errf, "%s/report.err", tmpdir);
    assert_int_equal(fsx_read_all("tests/hostile/base.xml", &base, NULL, &e), BE_OK);
    for (i = 0; i < NRUNS; i++) {
        char id[64], *t, *hit;
        snprintf(id, sizeof id, "2026112%dT000000Z-host", i);
        snprintf(p, sizeof p, "%s/runs/%s", before, id);
        assert_int_equal(fsx_mkdirs(p, &e), BE_OK);
        strcat(p, "/results.xml");
        t = strdup(base);
        assert_non_null(t);
        hit = strstr(t, BASE_ID);
        assert_non_null(hit);
        memcpy(hit, id, strlen(id));
        hit = strstr(t, "started=\"2026-11-22");
        assert_non_null(hit);
        hit[strlen("started=\"2026-11-2")] = (char)('0' + i);
        assert_int_equal(fsx_write_atomic(p, t, strlen(t), &e), BE_OK);
        free(t);
    }
    free(base);
    sh("'%s' report --quiet --out '%s' >/dev/null", bin, before);
    for (k = 0; k < sizeof delays / sizeof *delays; k++) {
        int sig = k % 2 ? SIGTERM : SIGINT, status;
        DIR *d;
        struct dirent *de;
        sh("rm -rf '%s' && cp -a '%s' '%s' && rm -f '%s'/runs/*/*.png '%s'/runs/*/*.svg", out,
           before, out, out, out);
        status = interrupt(args, delays[k], sig, errf, NULL);
        hits += check_status(status, sig, errf, "report");
        assert_no_leftovers(out);
        assert_page(out, before, "index.html");
        assert_page(out, before, "feed.xml");
        snprintf(p, sizeof p, "%s/runs", out);
        d = opendir(p);
        assert_non_null(d);
        while ((de = readdir(d))) {
            char a[900], b[900];
            if (de->d_name[0] == '.')
                continue;
            snprintf(a, sizeof a, "%s/runs/%s/results.xml", out, de->d_name);
            snprintf(b, sizeof b, "%s/runs/%s/results.xml", before, de->d_name);
            assert_true(same_file(a, b));
            snprintf(a, sizeof a, "runs/%s/index.html", de->d_name);
            assert_page(out, before, a);
        }
        closedir(d);
    }
    print_message("report: %d of %zu signals found the work under way (exit 1)\n", hits,
                  sizeof delays / sizeof *delays);
    assert_true(hits >= 4);
}

/* `run` on the CPU: a signal at once (before or after the handler: no
 * run directory without its results file), then at some delays after the
 * first save; a run directory always holds a results file that loads
 * (partial or complete). */
static void test_run_signals(void **state)
{
    static const double delays[] = {0.05, 0.0, 0.5, 2.0};
    char out[400], errf[400], p[700];
    const char *args[] = {"run",     "--quiet", "--devices", "cpu",      "--hidden",
                          "64..256", "--batch", "16..256",   "--budget", "8",
                          "--out",   out,       NULL};
    size_t k;
    int hits = 0;
    (void)state;
    snprintf(out, sizeof out, "%s/run", tmpdir);
    snprintf(errf, sizeof errf, "%s/run.err", tmpdir);
    for (k = 0; k < sizeof delays / sizeof *delays; k++) {
        int sig = k % 2 ? SIGINT : SIGTERM, status;
        DIR *d;
        struct dirent *de;
        sh("rm -rf '%s'", out);
        status = interrupt(args, delays[k], sig, errf, k ? out : NULL);
        hits += check_status(status, sig, errf, "run");
        snprintf(p, sizeof p, "%s/runs", out);
        if (!(d = opendir(p)))
            continue; /* stopped before the first write */
        assert_no_leftovers(out);
        while ((de = readdir(d))) {
            results *r = NULL;
            err e;
            if (de->d_name[0] == '.')
                continue;
            snprintf(p, sizeof p, "%s/runs/%s/results.xml.gz", out, de->d_name);
            if (results_load(p, &r, &e) != BE_OK)
                fail_msg("run, signal after %.2f s: %s", delays[k], e.msg);
            results_free(r);
        }
        closedir(d);
    }
    print_message("run: %d of %zu signals found the work under way (exit 1)\n", hits,
                  sizeof delays / sizeof *delays);
    assert_true(hits >= 2); /* a loaded machine may finish a short run first */
}

/* `refit` of the NRUNS runs that test_report_signals archived, at some
 * delays: each signal is caught (exit 1 with one line, or 0 when refit was
 * done first; never killed, which left results.xml.tmp.* behind), no
 * temporary file is left, and every results file loads. */
static void test_refit_signals(void **state)
{
    static const double delays[] = {0.3, 0.6, 1.0, 1.6, 2.4};
    char before[400], out[400], errf[400], p[700], ids[NRUNS][64];
    const char *args[8 + NRUNS];
    size_t k;
    int i, n = 0, hits = 0;
    (void)state;
    snprintf(before, sizeof before, "%s/before", tmpdir);
    snprintf(out, sizeof out, "%s/refit", tmpdir);
    snprintf(errf, sizeof errf, "%s/refit.err", tmpdir);
    args[n++] = "refit";
    args[n++] = "--quiet";
    args[n++] = "--out";
    args[n++] = out;
    for (i = 0; i < NRUNS; i++) {
        snprintf(ids[i], sizeof ids[i], "2026112%dT000000Z-host", i);
        args[n++] = ids[i];
    }
    args[n] = NULL;
    for (k = 0; k < sizeof delays / sizeof *delays; k++) {
        int sig = k % 2 ? SIGTERM : SIGINT, status;
        sh("rm -rf '%s' && cp -a '%s' '%s'", out, before, out);
        status = interrupt(args, delays[k], sig, errf, NULL);
        if (status == 128 + sig)
            fail_msg("refit: killed by signal %d after %.1f s, not stopped", sig, delays[k]);
        hits += check_status(status, sig, errf, "refit");
        assert_no_leftovers(out);
        for (i = 0; i < NRUNS; i++) {
            results *r = NULL;
            err e;
            snprintf(p, sizeof p, "%s/runs/%s/results.xml", out, ids[i]);
            if (results_load(p, &r, &e) != BE_OK)
                fail_msg("refit, signal after %.1f s: %s", delays[k], e.msg);
            results_free(r);
        }
    }
    print_message("refit: %d of %zu signals found the work under way (exit 1)\n", hits,
                  sizeof delays / sizeof *delays);
    assert_true(hits >= 2);
}

/* SIGHUP (the terminal closed) takes the same path as SIGINT and SIGTERM
 * (it killed `report` half-way), and SIGKILL, which no handler sees,
 * leaves temporaries that the next report removes: no *.tmp.* and no
 * staging directory stays, and the site is whole again. */
static void test_report_hangup_and_kill(void **state)
{
    static const double delays[] = {0.3, 0.8, 1.4, 2.0};
    char before[400], out[400], errf[400], cmd[1200];
    const char *args[] = {"report", "--quiet", "--out", out, "--title", "Interrupted?", NULL};
    size_t k;
    int hits = 0, left = 0;
    (void)state;
    snprintf(before, sizeof before, "%s/before", tmpdir);
    snprintf(out, sizeof out, "%s/hup", tmpdir);
    snprintf(errf, sizeof errf, "%s/hup.err", tmpdir);
    for (k = 0; k < sizeof delays / sizeof *delays; k++) {
        int status;
        FILE *f;
        sh("rm -rf '%s' && cp -a '%s' '%s' && rm -rf '%s'/runs/*/*.png '%s/.cache'", out, before,
           out, out, out);
        status = interrupt(args, delays[k], SIGHUP, errf, NULL);
        if (status == 128 + SIGHUP)
            fail_msg("report: killed by SIGHUP after %.1f s, not stopped", delays[k]);
        hits += check_status(status, SIGHUP, errf, "report");
        assert_no_leftovers(out);
        sh("rm -rf '%s' && cp -a '%s' '%s' && rm -rf '%s'/runs/*/*.png '%s/.cache'", out, before,
           out, out, out);
        status = interrupt(args, delays[k], SIGKILL, errf, NULL);
        snprintf(cmd, sizeof cmd, "find '%s' -name '.import-*' -o -name '*.tmp.*' | grep -c .",
                 out);
        f = popen(cmd, "r");
        assert_non_null(f);
        if (status == 128 + SIGKILL && fgetc(f) != '0')
            left++;
        pclose(f);
        sh("'%s' report --quiet --out '%s' >/dev/null", bin, out);
        assert_no_leftovers(out);
    }
    print_message("report: %d of %zu SIGHUPs found the work under way (exit 1); %d SIGKILLs "
                  "left temporaries, removed by the next report\n",
                  hits, sizeof delays / sizeof *delays, left);
    assert_true(hits >= 2);
}

static int setup(void **state)
{
    (void)state;
    bin = getenv("BREAKEVEN");
    if (!bin) {
        fprintf(stderr, "BREAKEVEN is not set (tests/run sets it)\n");
        return -1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-signals-XXXXXX");
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
        cmocka_unit_test(test_report_signals),
        cmocka_unit_test(test_run_signals),
        cmocka_unit_test(test_refit_signals),
        cmocka_unit_test(test_report_hangup_and_kill),
    };
    return cmocka_run_group_tests_name("signals", tests, setup, teardown);
}
