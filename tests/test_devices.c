/*
 * test_devices.c — framework devices (docs/devices.md) on the built binary
 * ($BREAKEVEN): the protocol with the reference adapter (build/ref_adapter,
 * tests/ref_adapter.c) and with PyTorch on --quick, every point verified;
 * each fault of an adapter (it crashes mid-sweep, hangs, answers a wrong
 * result, a wrong size, a NaN, garbage, an unknown protocol version, cannot
 * be started) with the exact outcome: that device's points failed with the
 * reason, one warning line, the run and the CPU's points whole; and no
 * adapter outliving a breakeven killed with SIGKILL.  PyTorch's test is
 * skipped (said so, never passed) where /usr/bin/python3 has no torch.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsx.h"
#include "query.h"
#include "results.h"
#include "sweep.h"

static const char *bin;
static char tmpdir[256], ref[1024];

/* Runs `BIN run --quick --quiet --budget 3 --no-refine ARGS --out DIR`
 * (the grid alone, so that the counts of points are exact) with the
 * environment env (words "NAME=VALUE" separated by spaces, "" for none),
 * stderr into tmpdir/err; returns the exit status and loads the run into *r (NULL
 * when none was written). */
/* `run --quick --quiet` of args, with env, into tmpdir/out (stdout and
 * stderr beside it), *r the run loaded (NULL when none was written);
 * refine: 0 adds --budget 3 --no-refine. */
static int run_with(const char *env, const char *args, int refine, results **r)
{
    char cmd[4096], path[1024];
    int st;
    err e;
    snprintf(cmd, sizeof cmd,
             "rm -rf %s/out && env BREAKEVEN_REF_ADAPTER=%s %s %s run --quick --quiet %s %s "
             "--out %s/out >%s/stdout 2>%s/err",
             tmpdir, ref, env, bin, refine ? "" : "--budget 3 --no-refine", args, tmpdir, tmpdir,
             tmpdir);
    st = system(cmd);
    *r = NULL;
    snprintf(cmd, sizeof cmd, "ls %s/out/runs/*/results.xml.gz > %s/path 2>/dev/null", tmpdir,
             tmpdir);
    if (system(cmd) == 0) {
        FILE *f;
        snprintf(path, sizeof path, "%s/path", tmpdir);
        f = fopen(path, "r");
        if (f && fgets(path, sizeof path, f)) {
            path[strcspn(path, "\n")] = '\0';
            if (results_load(path, r, &e) != BE_OK)
                fail_msg("%s: %s", path, e.msg);
        }
        if (f)
            fclose(f);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int run(const char *env, const char *args, results **r)
{
    return run_with(env, args, 0, r);
}

static char *slurp(const char *name)
{
    char p[512], *s = NULL;
    err e;
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return fsx_read_all(p, &s, NULL, &e) == BE_OK ? s : NULL;
}

/* The number of lines of stderr that start with "warning: ID:". */
static int warnings_of(const char *id)
{
    char *s = slurp("err"), *p, pre[64];
    int n = 0;
    snprintf(pre, sizeof pre, "warning: %s:", id);
    for (p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        n += strncmp(p, pre, strlen(pre)) == 0;
    free(s);
    return n;
}

/* Every point of dev has status st and a message holding why (NULL: no
 * check), and is verified when ok; returns how many there are. */
static int points_are(const results *r, const char *dev, rs_status st, const char *why)
{
    int i, n = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (strcmp(p->device, dev) != 0)
            continue;
        n++;
        if (p->status != st)
            fail_msg("%s hidden %d batch %d: status %s, not %s (%s)", dev, p->hidden, p->batch,
                     results_status_name(p->status), results_status_name(st), p->message);
        if (st == PT_OK)
            assert_true(p->verified);
        if (why && !strstr(p->message, why))
            fail_msg("%s hidden %d batch %d: \"%s\" does not say \"%s\"", dev, p->hidden, p->batch,
                     p->message, why);
    }
    return n;
}

static void test_ref_quick(void **state)
{
    results *r;
    const device_info *d = NULL;
    int i;
    (void)state;
    assert_int_equal(run("", "--mode both --devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 8);
    assert_int_equal(points_are(r, "cpu", PT_OK, NULL), 8);
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, "ref:cpu") == 0)
            d = &r->devices[i];
    assert_non_null(d);
    assert_string_equal(d->kind, "framework");
    assert_string_equal(d->name, "breakeven's reference adapter");
    assert_string_equal(devinfo_prop(d, "protocol"), "1");
    assert_string_equal(devinfo_prop(d, "framework"), "reference");
    assert_int_equal(warnings_of("ref:cpu"), 0);
    results_free(r);
}

/* One fault of the reference adapter: the run succeeds, the CPU's points
 * are whole, every point of ref:cpu has status st and says why, and
 * stderr has warns warnings about ref:cpu. */
static void fault(const char *env, rs_status st, const char *why, int warns)
{
    results *r;
    assert_int_equal(run(env, "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "ref:cpu", st, why), 4);
    assert_int_equal(points_are(r, "cpu", PT_OK, NULL), 4);
    assert_int_equal(warnings_of("ref:cpu"), warns);
    results_free(r);
}

static void test_fault_crash(void **state)
{
    (void)state;
    /* mid-sweep: the 40th step falls in the first points' samples */
    fault("BREAKEVEN_REF_FAULT=crash:40", PT_FAILED,
          "the adapter went away during STEP (the adapter was killed by signal 11)", 1);
}

static void test_fault_hang(void **state)
{
    time_t t0 = time(NULL);
    (void)state;
    fault("BREAKEVEN_REF_FAULT=hang:40 BREAKEVEN_DEVICE_TIMEOUT=1", PT_FAILED,
          "no answer to STEP within 1 s; the adapter was killed", 1);
    assert_true(time(NULL) - t0 < 60);
}

/* Without BREAKEVEN_DEVICE_TIMEOUT the limit comes from the budget: on
 * --quick --budget 3 under 3 s remain, so a hang costs the floor, not the
 * fixed minute it cost before. */
static void test_fault_hang_budget(void **state)
{
    time_t t0 = time(NULL);
    char why[96];
    (void)state;
    snprintf(why, sizeof why, "no answer to STEP within %.0f s; the adapter was killed",
             SWEEP_LIMIT_FLOOR);
    fault("BREAKEVEN_REF_FAULT=hang:40", PT_FAILED, why, 1);
    assert_true(time(NULL) - t0 < 55);
}

/* The rule: SWEEP_LIMIT_TIMES × the step expected, capped by the budget
 * left, floored; a step not known yet (HUGE_VAL, or NaN) is capped by the
 * budget left; a budget already spent still leaves the floor. */
static void test_call_limit(void **state)
{
    (void)state;
    assert_true(sweep_call_limit(0.001, 170.0) == SWEEP_LIMIT_FLOOR);
    assert_true(sweep_call_limit(4.0, 170.0) == 4.0 * SWEEP_LIMIT_TIMES);
    assert_true(sweep_call_limit(30.0, 170.0) == 170.0);
    assert_true(sweep_call_limit(30.0, -5.0) == SWEEP_LIMIT_FLOOR);
    assert_true(sweep_call_limit(NAN, 170.0) == 170.0);
    assert_true(sweep_call_limit(HUGE_VAL, 170.0) == 170.0);
    assert_true(sweep_call_limit(HUGE_VAL, 3.0) == SWEEP_LIMIT_FLOOR);
}

/* An adapter that offers several steps at once (its hello's `steps`) is
 * asked for them once a point's steps follow one another: every point
 * still verifies (the state is of the one step after a reset), the run
 * records the offer, and the STPN the adapter answered are counted. */
static void test_steps_at_once(void **state)
{
    results *r;
    char env[1200], *n;
    const device_info *d;
    (void)state;
    snprintf(env, sizeof env, "BREAKEVEN_REF_STEPS=8 BREAKEVEN_REF_STPN=%s/stpn", tmpdir);
    assert_int_equal(run(env, "--mode both --devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 8);
    assert_non_null(d = results_device(r, "ref:cpu"));
    assert_string_equal(devinfo_prop(d, "steps-at-once"), "8");
    assert_non_null(n = slurp("stpn"));
    assert_true(atoi(n) > 0);
    free(n);
    results_free(r);
    /* without the offer: no STPN, no property */
    assert_int_equal(run("BREAKEVEN_REF_STEPS=0", "--devices cpu,ref:cpu", &r), 0);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 4);
    assert_null(devinfo_prop(results_device(r, "ref:cpu"), "steps-at-once"));
    results_free(r);
}

/* The passes a point's samples come from. */
static int passes_of(const rs_point *p)
{
    int seen[64] = {0}, i, n = 0;
    for (i = 0; i < p->nsamples; i++)
        if (p->pass[i] >= 0 && p->pass[i] < 64)
            n += !seen[p->pass[i]]++;
    return n;
}

/* Whether p, summarized from its samples of passes 1 to last alone (as
 * the precision passes found it after the grid), was uninformative. */
static int uninformative_until(const results *r, const rs_point *p, int last)
{
    rs_point c = *p;
    int i, vague;
    err e;
    c.samples = calloc((size_t)p->nsamples, sizeof *c.samples);
    c.pass = calloc((size_t)p->nsamples, sizeof *c.pass);
    assert_true(c.samples && c.pass && p->pass);
    c.nsamples = 0;
    for (i = 0; i < p->nsamples; i++)
        if (p->pass[i] <= last) {
            c.samples[c.nsamples] = p->samples[i];
            c.pass[c.nsamples++] = p->pass[i];
        }
    assert_int_equal(results_summarize_in(r, &c, &e), BE_OK);
    vague = q_summary_uninformative(&c.resident);
    free(c.samples);
    free(c.pass);
    return vague;
}

/* Points whose passes disagree are measured again (refine_precision): a
 * device whose every second visit of a shape takes 20 ms longer a step
 * leaves the grid's points uninformative after its 3 passes (fast, slow,
 * fast), unless the host's CPUs were a cache apart in the slow one alone
 * (its samples are then left out: docs/statistics.md); the rest of the
 * budget visits the uninformative ones again in passes of their own, and
 * `run` says how many stayed uninformative.  Without refinement (as each
 * side of `ab`), the grid's 3 passes only. */
static void test_precision_passes(void **state)
{
    results *r;
    char *out, line[96];
    int i, k, vague = 0, again = 0;
    (void)state;
    assert_int_equal(
        run_with("BREAKEVEN_REF_FAULT=moody:20000", "--budget 8 --devices ref:cpu", 1, &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 4);
    assert_true(r->npasses > 3);
    for (k = 3; k < r->npasses; k++)
        assert_true(r->passes[k].visits >= 1 && r->passes[k].visits <= 4);
    for (i = 0; i < r->npoints; i++) {
        if (uninformative_until(r, &r->points[i], r->passes[2].index)) {
            assert_true(passes_of(&r->points[i]) >= 4);
            again++;
        } else {
            assert_int_equal(passes_of(&r->points[i]), 3);
        }
        vague += q_summary_uninformative(&r->points[i].resident);
    }
    assert_true(again >= 1);
    assert_non_null(out = slurp("stdout"));
    snprintf(line, sizeof line, "note: %d of 4 points stayed uninformative", vague);
    if (vague)
        assert_non_null(strstr(out, line));
    else
        assert_null(strstr(out, "stayed uninformative"));
    free(out);
    results_free(r);
    assert_int_equal(run("BREAKEVEN_REF_FAULT=moody:20000", "--devices ref:cpu", &r), 0);
    assert_int_equal(r->npasses, 3);
    results_free(r);
}

static void test_fault_steps_short(void **state)
{
    (void)state;
    fault("BREAKEVEN_REF_STEPS=8 BREAKEVEN_REF_FAULT=short", PT_FAILED, "the reply to STPN holds ",
          1);
}

static void test_fault_crash_in_steps(void **state)
{
    (void)state;
    /* the 40th step falls among the first points' samples, asked for in
     * STPN but for the steps an unannounced check takes alone */
    fault("BREAKEVEN_REF_STEPS=8 BREAKEVEN_REF_FAULT=crash:40", PT_FAILED,
          "(the adapter was killed by signal 11)", 1);
}

static void test_fault_wrong(void **state)
{
    (void)state;
    fault("BREAKEVEN_REF_FAULT=wrong", PT_FAILED_VERIFICATION, "layer 1 y[", 0);
}

static void test_fault_size(void **state)
{
    results *r;
    unsigned long got = 0, want = 0;
    int i, n = 0;
    (void)state;
    fault("BREAKEVEN_REF_FAULT=size", PT_FAILED, "the reply to STAT holds ", 1);
    /* one value short, whichever point the shuffled order visited first */
    assert_int_equal(run("BREAKEVEN_REF_FAULT=size", "--devices cpu,ref:cpu", &r), 0);
    for (i = 0; i < r->npoints; i++) {
        const char *m = strstr(r->points[i].message, "the reply to STAT holds ");
        if (m && strcmp(r->points[i].device, "ref:cpu") == 0 &&
            sscanf(m, "the reply to STAT holds %lu bytes, not %lu", &got, &want) == 2) {
            assert_int_equal(got + 4, want);
            n++;
        }
    }
    assert_int_equal(n, 4);
    results_free(r);
}

static void test_fault_nan(void **state)
{
    (void)state;
    /* a NaN is the point's fault, not the adapter's: each point says so */
    fault("BREAKEVEN_REF_FAULT=nan", PT_FAILED, "ref:cpu: the state's act[2] holds nan at 0", 0);
}

static void test_fault_garbage(void **state)
{
    (void)state;
    fault("BREAKEVEN_REF_FAULT=garbage", PT_FAILED,
          "the reply to STEP is not the protocol (no BEDP header)", 1);
}

static void test_fault_version(void **state)
{
    char *text;
    (void)state;
    fault("BREAKEVEN_REF_FAULT=version", PT_FAILED,
          "cannot start: the adapter speaks protocol 2; this breakeven speaks 1", 1);
    /* refused before any measurement: the warning precedes the sweep's */
    text = slurp("err");
    assert_non_null(strstr(text,
                           "warning: ref:cpu: cannot start: the adapter speaks protocol 2; this "
                           "breakeven speaks 1 (docs/devices.md); its points are recorded "
                           "as failed"));
    free(text);
}

static void test_fault_no_start(void **state)
{
    results *r;
    (void)state;
    assert_int_equal(run("BREAKEVEN_REF_ADAPTER=/nonexistent/adapter", "--devices cpu,ref:cpu", &r),
                     0);
    assert_non_null(r);
    assert_int_equal(
        points_are(r, "ref:cpu", PT_FAILED, "cannot start: /nonexistent/adapter: No such file"), 4);
    assert_int_equal(warnings_of("ref:cpu"), 1);
    results_free(r);
}

/* ---- a hostile adapter (issue 46): every lie fails its point with the
 * reason, and costs no other point ---------------------------------- */

/* Every point of ref:cpu failed (st) saying one of why[0..n). */
static void lies(const char *env, rs_status st, const char *const *why, int n)
{
    results *r;
    int i, j, k = 0;
    assert_int_equal(run(env, "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "cpu", PT_OK, NULL), 4);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (strcmp(p->device, "ref:cpu") != 0)
            continue;
        k++;
        if (p->status != st)
            fail_msg("%s: status %s (%s)", env, results_status_name(p->status), p->message);
        for (j = 0; j < n && !strstr(p->message, why[j]); j++)
            ;
        if (j == n)
            fail_msg("%s: \"%s\" gives none of the reasons expected", env, p->message);
    }
    assert_int_equal(k, 4);
    assert_int_equal(warnings_of("ref:cpu"), 0);
    results_free(r);
}

static const char *const beyond_host = "beyond what this host can do (";

static void test_lie_fast(void **state)
{
    (void)state;
    lies("BREAKEVEN_REF_FAULT=fast", PT_FAILED, &beyond_host, 1);
}

/* 50 ms a step reported as 1 µs: beyond the host where the work is big
 * enough, else beyond what the round trips hold */
static void test_lie_slow(void **state)
{
    static const char *const why[] = {"beyond what this host can do (",
                                      "calls took over twice the steps they report and 10 ms "
                                      "more"};
    (void)state;
    lies("BREAKEVEN_REF_FAULT=slow", PT_FAILED, why, 2);
}

static void test_lie_long(void **state)
{
    static const char *const why = "its wall of 1e+03 s is longer than the call's round trip";
    (void)state;
    lies("BREAKEVEN_REF_FAULT=long", PT_FAILED, &why, 1);
}

static void test_lie_total(void **state)
{
    static const char *const why = "its times do not fit together (wall ";
    (void)state;
    lies("BREAKEVEN_REF_FAULT=total", PT_FAILED, &why, 1);
}

/* the values that made the saver refuse the whole run: each fails its
 * point where it enters, and the CPU's points are saved */
static void test_lie_values(void **state)
{
    static const char *const sub = "ref:cpu: step 1 of 1: its wall is 4.94066e-324 s, not a "
                                   "positive normal number",
                             *huge = "its wall of 1.7e+308 s is longer than the call's round trip",
                             *field = "its kernel of 1e+300 s is longer than the call's round trip";
    (void)state;
    lies("BREAKEVEN_REF_FAULT=subnormal", PT_FAILED, &sub, 1);
    lies("BREAKEVEN_REF_FAULT=huge", PT_FAILED, &huge, 1);
    lies("BREAKEVEN_REF_FAULT=field", PT_FAILED, &field, 1);
}

/* work skipped but on the step after a RSET: caught by the host's bound
 * (its skipped steps take no time); STPN's steps skipped likewise */
static void test_lie_skip(void **state)
{
    (void)state;
    lies("BREAKEVEN_REF_FAULT=skip", PT_FAILED, &beyond_host, 1);
    lies("BREAKEVEN_REF_STEPS=8 BREAKEVEN_REF_FAULT=stale", PT_FAILED, &beyond_host, 1);
}

/* right only on the step the first visit verifies: the unannounced
 * checks find the others, as a failed verification */
static void test_lie_wrongstep(void **state)
{
    static const char *const why = "after PREP, checked unannounced: layer 1 y[";
    (void)state;
    lies("BREAKEVEN_REF_FAULT=wrongstep", PT_FAILED_VERIFICATION, &why, 1);
    lies("BREAKEVEN_REF_STEPS=8 BREAKEVEN_REF_FAULT=wrongstep", PT_FAILED_VERIFICATION, &why, 1);
}

/* the page's warnings and summary.md say why the points failed */
static void test_lie_shown(void **state)
{
    char cmd[1024], *s;
    results *r;
    (void)state;
    assert_int_equal(run("BREAKEVEN_REF_FAULT=long", "--devices cpu,ref:cpu", &r), 0);
    results_free(r);
    snprintf(cmd, sizeof cmd, "cat %s/out/runs/*/summary.md >%s/summary", tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    assert_non_null(s = slurp("summary"));
    /* the device by name, two points named and the rest counted */
    assert_non_null(strstr(s, "> **Warning:** Failed: 4 points (reference (CPU) inference hidden "
                              "32 batch 16, reference (CPU) inference hidden 32 batch 64 and 2 "
                              "more). Why: ref:cpu: step 1 of 1: its wall of 1e+03 s is longer "
                              "than the call's round trip, "));
    free(s);
    snprintf(cmd, sizeof cmd,
             "%s report --out %s/out >/dev/null 2>&1 && grep -c 'Failed: 4 points' "
             "%s/out/runs/*/index.html >/dev/null",
             bin, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
}

/* a duplicated TIME is a fault at once, not a shift of every reply */
static void test_lie_dup(void **state)
{
    results *r;
    int i;
    (void)state;
    assert_int_equal(run("BREAKEVEN_REF_FAULT=dup", "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "ref:cpu", PT_FAILED, NULL), 4);
    assert_int_equal(points_are(r, "cpu", PT_OK, NULL), 4);
    /* the extra frame is caught waiting before the next request, or, when
     * it arrives just after that look, taken for the next step's reply,
     * whose wall is then longer than the call's round trip, or, when the
     * 10th TIME was a visit's last, for the reply to its RELS: a race of
     * microseconds and of how many steps a visit took, the point failed
     * either way */
    for (i = 0; i < r->npoints; i++)
        if (strcmp(r->points[i].device, "ref:cpu") == 0 &&
            !strstr(r->points[i].message,
                    "the adapter sent what no request asked for before STEP") &&
            !strstr(r->points[i].message, "is longer than the call's round trip") &&
            !strstr(r->points[i].message, "the reply to RELS is TIME, not OKAY"))
            fail_msg("ref:cpu: \"%s\" names neither the stray frame nor the bound",
                     r->points[i].message);
    assert_int_equal(warnings_of("ref:cpu"), 1);
    results_free(r);
}

/* FAIL's reason reaches the user; a dripped hello has one deadline */
static void test_hello_fail(void **state)
{
    time_t t0;
    (void)state;
    fault("BREAKEVEN_REF_FAULT=failhello", PT_FAILED,
          "cannot start: HELO failed: no such device here", 1);
    t0 = time(NULL);
    fault("BREAKEVEN_REF_FAULT=drip BREAKEVEN_DEVICE_TIMEOUT=2", PT_FAILED,
          "cannot start: no answer to HELO within 2 s; the adapter was killed", 1);
    assert_true(time(NULL) - t0 < 40);
}

/* a hello's prop lines cannot shadow breakeven's own, nor say one twice */
static void test_hello_props(void **state)
{
    results *r;
    const device_info *d;
    (void)state;
    assert_int_equal(run("BREAKEVEN_REF_FAULT=props", "--devices cpu,ref:cpu", &r), 0);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 4);
    assert_non_null(d = results_device(r, "ref:cpu"));
    assert_string_equal(devinfo_prop(d, "adapter"), ref);
    assert_string_equal(devinfo_prop(d, "protocol"), "1");
    assert_null(devinfo_prop(d, "steps-at-once"));
    assert_string_equal(devinfo_prop(d, "colour"), "red");
    results_free(r);
}

/* an adapter busy between its requests is named, and its time there is
 * others' load */
static void test_spin(void **state)
{
    results *r;
    char *s;
    (void)state;
    assert_int_equal(run("BREAKEVEN_REF_FAULT=spin", "--devices cpu,ref:cpu", &r), 0);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 4);
    assert_int_equal(warnings_of("ref:cpu"), 1);
    assert_non_null(s = slurp("err"));
    assert_non_null(strstr(s, "warning: ref:cpu: its adapter used "));
    assert_non_null(strstr(s, " s of CPU outside its own requests, counted as other processes' "
                              "load"));
    free(s);
    results_free(r);
}

/* Whether process pid is gone (or a zombie its new parent has yet to
 * reap) within 5 s. */
static int gone(long pid)
{
    struct timespec tick = {0, 20000000};
    int i;
    for (i = 0; i < 250; i++) {
        char stat[64], *s = NULL;
        err e;
        int z;
        if (kill((pid_t)pid, 0) != 0)
            return 1;
        snprintf(stat, sizeof stat, "/proc/%ld/stat", pid);
        z = fsx_read_all(stat, &s, NULL, &e) == BE_OK && strstr(s, ") Z ");
        free(s);
        if (z)
            return 1;
        nanosleep(&tick, NULL);
    }
    return 0;
}

static long pid_in(const char *name)
{
    char *s = slurp(name);
    long pid = s ? atol(s) : 0;
    free(s);
    return pid;
}

/* After a clean run (BYE!) nothing the adapter started is left: not a
 * grandchild in its group that ignores SIGTERM, nor one that left it */
static void test_escape_bye(void **state)
{
    results *r;
    char env[600];
    (void)state;
    snprintf(env, sizeof env, "BREAKEVEN_REF_FAULT=escape BREAKEVEN_REF_PIDFILE=%s/esc.pid",
             tmpdir);
    assert_int_equal(run(env, "--devices cpu,ref:cpu", &r), 0);
    assert_int_equal(points_are(r, "ref:cpu", PT_OK, NULL), 4);
    results_free(r);
    assert_true(pid_in("esc.pid.g1") > 0 && pid_in("esc.pid.g2") > 0);
    if (!gone(pid_in("esc.pid")) || !gone(pid_in("esc.pid.g1")) || !gone(pid_in("esc.pid.g2")))
        fail_msg("a process of the adapter outlived breakeven's clean exit");
}

/* breakeven stopped by sig mid-sweep: its adapter goes with it, and so do
 * the grandchildren it started, in its group and out of it (escape);
 * SIGKILL too, which breakeven cannot catch: the adapter's keeper sees
 * breakeven's end of its pipe close and ends them (docs/devices.md,
 * "Containment"). */
static void no_orphan(int sig)
{
    char pidf[512], env[600], out[512], buf[64];
    const char *argv[] = {bin,         "run",     "--quick", "--quiet", "--budget", "30",
                          "--devices", "ref:cpu", "--out",   out,       NULL};
    struct timespec tick = {0, 20000000};
    long child = 0, g1, g2;
    pid_t pid;
    int i, ws;
    snprintf(pidf, sizeof pidf, "%s/ref.pid", tmpdir);
    snprintf(out, sizeof out, "%s/orphan", tmpdir);
    unlink(pidf);
    snprintf(buf, sizeof buf, "%s.g2", pidf);
    unlink(buf);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        snprintf(env, sizeof env, "%s", pidf);
        setenv("BREAKEVEN_REF_PIDFILE", env, 1);
        setenv("BREAKEVEN_REF_ADAPTER", ref, 1);
        setenv("BREAKEVEN_REF_FAULT", "escape", 1);
        dup2(nul, 1);
        dup2(nul, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    /* the adapter's pid file is written first, the grandchildren's after */
    for (i = 0; i < 1000 && !pid_in("ref.pid.g2"); i++)
        nanosleep(&tick, NULL);
    child = pid_in("ref.pid");
    g1 = pid_in("ref.pid.g1");
    g2 = pid_in("ref.pid.g2");
    assert_true(child > 0 && g1 > 0 && g2 > 0);
    nanosleep(&tick, NULL);
    kill(pid, sig);
    waitpid(pid, &ws, 0);
    /* SIGKILL cannot be caught; SIGINT and SIGTERM stop the run, which says so */
    if (sig == SIGKILL)
        assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
    else
        assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 1);
    if (!gone(child))
        fail_msg("the adapter %ld outlived breakeven by 5 s (signal %d)", child, sig);
    if (!gone(g1) || !gone(g2))
        fail_msg("a grandchild of the adapter (%ld, %ld) outlived breakeven (signal %d)", g1, g2,
                 sig);
}

static void test_no_orphan_kill(void **state)
{
    (void)state;
    no_orphan(SIGKILL);
}

static void test_no_orphan_term(void **state)
{
    (void)state;
    no_orphan(SIGTERM);
}

static void test_no_orphan_int(void **state)
{
    (void)state;
    no_orphan(SIGINT);
}

static void test_devices_lists(void **state)
{
    char cmd[2048], *s;
    (void)state;
    snprintf(cmd, sizeof cmd,
             "env BREAKEVEN_REF_ADAPTER=%s %s devices >%s/stdout 2>%s/err && "
             "env BREAKEVEN_REF_ADAPTER=/nonexistent/adapter BREAKEVEN_PYTHON=/nonexistent/python "
             "%s devices >%s/stdout2 2>>%s/err",
             ref, bin, tmpdir, tmpdir, bin, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    s = slurp("stdout");
    assert_non_null(strstr(s, "\nref:cpu  breakeven's reference adapter (CPU, framework)\n"));
    /* every PyTorch device is listed, started or with why it cannot be */
    assert_non_null(strstr(s, "\ntorch:cpu  "));
    assert_non_null(strstr(s, "\ntorch:cuda:0  "));
    assert_non_null(strstr(s, "\ntorch:mps  "));
    assert_non_null(strstr(s, "\nort:cpu  "));
    free(s);
    s = slurp("stdout2");
    assert_non_null(
        strstr(s, "\nref:cpu  cannot start: /nonexistent/adapter: No such file or directory\n"));
    /* BREAKEVEN_PYTHON is the interpreter PyTorch's adapter runs in */
    assert_non_null(strstr(s, "\ntorch:cpu  cannot start: /nonexistent/python: No such file or "
                              "directory\n"));
    free(s);
}

static void test_unknown_device(void **state)
{
    results *r;
    (void)state;
    assert_int_equal(run("", "--devices cpu,torch:gpu", &r), 2);
    assert_null(r);
}

/* The run that run() wrote, as text (zcat of its results.xml.gz); NULL
 * when there is none. */
static char *run_xml(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "zcat \"$(cat %s/path)\" >%s/xml", tmpdir, tmpdir);
    return system(cmd) == 0 ? slurp("xml") : NULL;
}

/* Every crossover of r is against base, and r has at least one. */
static void crossovers_against(const results *r, const char *base)
{
    int i;
    assert_true(r->has_fit);
    assert_true(r->fit.ncross > 0);
    for (i = 0; i < r->fit.ncross; i++)
        if (strcmp(r->fit.cross[i].base, base) != 0)
            fail_msg("crossover %d (%s): base \"%s\", not \"%s\"", i, r->fit.cross[i].other,
                     r->fit.cross[i].base, base);
}

/* --base DEV: the run records it as <run base>, every crossover is against
 * it; a device the run does not measure is refused in one line, exit 2,
 * before anything is measured or written; without --base the run has no
 * base attribute and its crossovers are against the OpenBLAS CPU. */
static void test_base_run(void **state)
{
    results *r;
    char *s;
    (void)state;
    assert_int_equal(run("", "--devices cpu,ref:cpu --base ref:cpu", &r), 0);
    assert_non_null(r);
    assert_string_equal(r->prov.base, "ref:cpu");
    crossovers_against(r, "ref:cpu");
    results_free(r);
    assert_non_null(s = run_xml());
    assert_non_null(strstr(s, "\" base=\"ref:cpu\" seed=\"1\" "));
    assert_non_null(strstr(s, "<breakeven-results format=\"3\" "));
    free(s);
    assert_int_equal(run("", "--devices cpu,ref:cpu --base cl:9.9", &r), 2);
    assert_null(r);
    s = slurp("err");
    assert_string_equal(s, "breakeven: --base: this run does not measure a device \"cl:9.9\" (it "
                           "measures cpu, ref:cpu) (see breakeven --help)\n");
    free(s);
    assert_int_equal(run("", "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    assert_string_equal(r->prov.base, "");
    crossovers_against(r, "cpu");
    results_free(r);
    assert_non_null(s = run_xml());
    assert_null(strstr(s, " base=\"ref:cpu\""));
    assert_non_null(strstr(s, "\" seed=\"1\" "));
    /* <run …/> of the file, without a base attribute */
    {
        char *at = strstr(s, "<run ");
        assert_non_null(at);
        *strchr(at, '>') = '\0';
        assert_null(strstr(at, " base="));
    }
    free(s);
}

/* `refit --base DEV` sets the base of a stored run and its crossovers
 * follow; a device the run did not measure is refused in one line, exit 2,
 * and the file is left as it was, to the byte. */
static void test_base_refit(void **state)
{
    char cmd[4096], *msg, id[128];
    results *r;
    err e;
    (void)state;
    assert_int_equal(run("", "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    snprintf(id, sizeof id, "%s", r->prov.id);
    results_free(r);
    snprintf(cmd, sizeof cmd,
             "cp \"$(cat %s/path)\" %s/before.gz && %s refit %s --base nosuch --out %s/out "
             ">%s/stdout 2>%s/err",
             tmpdir, tmpdir, bin, id, tmpdir, tmpdir, tmpdir);
    {
        int st = system(cmd);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 2);
    }
    msg = slurp("err");
    snprintf(cmd, sizeof cmd,
             "breakeven: --base: %s/out/runs/%s/results.xml.gz measured no device "
             "\"nosuch\" (see breakeven --help)\n",
             tmpdir, id);
    assert_string_equal(msg, cmd);
    free(msg);
    snprintf(cmd, sizeof cmd, "cmp -s %s/before.gz \"$(cat %s/path)\"", tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "%s refit %s --base ref:cpu --out %s/out >%s/stdout 2>%s/err && "
             "zcat \"$(cat %s/path)\" >%s/xml",
             bin, id, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/xml", tmpdir);
    if (results_load(cmd, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(r->prov.base, "ref:cpu");
    crossovers_against(r, "ref:cpu");
    results_free(r);
    /* a refit without --base keeps the base it has */
    snprintf(cmd, sizeof cmd,
             "%s refit %s --out %s/out >%s/stdout 2>%s/err && zcat \"$(cat %s/path)\" >%s/xml", bin,
             id, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/xml", tmpdir);
    if (results_load(cmd, &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_string_equal(r->prov.base, "ref:cpu");
    crossovers_against(r, "ref:cpu");
    results_free(r);
}

/* The format of a run's file: 2 for OpenBLAS (and OpenCL) against the CPU,
 * as 0.3.0 wrote it; 3 with a framework device, the base not chosen. */
static void test_format_by_devices(void **state)
{
    results *r;
    char *s;
    (void)state;
    assert_int_equal(run("", "--devices cpu", &r), 0);
    assert_non_null(r);
    results_free(r);
    assert_non_null(s = run_xml());
    assert_non_null(strstr(s, "<breakeven-results format=\"2\" "));
    free(s);
    assert_int_equal(run("", "--devices cpu,ref:cpu", &r), 0);
    assert_non_null(r);
    results_free(r);
    assert_non_null(s = run_xml());
    assert_non_null(strstr(s, "<breakeven-results format=\"3\" "));
    free(s);
}

/* `ab --base DEV` hands the base to both sides (each side's run records
 * it), and takes their runs of format 3: it ends with its gate's answer
 * (0, 3 or 4: the times are this machine's), not a refusal. */
static void test_base_ab(void **state)
{
    char cmd[4096];
    results *r;
    err e;
    int st, side;
    (void)state;
    snprintf(cmd, sizeof cmd,
             "rm -rf %s/out && env BREAKEVEN_REF_ADAPTER=%s %s ab --quick --quiet --budget 3 "
             "--passes 2 --devices cpu,ref:cpu --base ref:cpu --out %s/out >%s/stdout 2>%s/err",
             tmpdir, ref, bin, tmpdir, tmpdir, tmpdir);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 3 && WEXITSTATUS(st) != 4) {
        char *why = slurp("err");
        fail_msg("ab exited %d: %s", WEXITSTATUS(st), why ? why : "");
    }
    for (side = 0; side < 2; side++) {
        FILE *f;
        char path[1024];
        snprintf(cmd, sizeof cmd, "ls %s/out/runs/*/results.xml.gz | sed -n %dp >%s/path", tmpdir,
                 side + 1, tmpdir);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/path", tmpdir);
        assert_non_null(f = fopen(path, "r"));
        assert_non_null(fgets(path, sizeof path, f));
        fclose(f);
        path[strcspn(path, "\n")] = '\0';
        if (results_load(path, &r, &e) != BE_OK)
            fail_msg("%s", e.msg);
        assert_string_equal(r->prov.base, "ref:cpu");
        assert_true(r->prov.pair_side == 'A' || r->prov.pair_side == 'B');
        crossovers_against(r, "ref:cpu");
        results_free(r);
    }
}

static int have_torch(void)
{
    return system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") == 0;
}

/* `--devices all` (the default): the CPU, the OpenCL device, then every
 * framework device that starts; with a data directory that has no
 * adapters, torch:cpu is silently absent and the run is what it was. */
static void test_all_frameworks(void **state)
{
    char cmd[2048], env[1400], here[512];
    const char *data = getenv("BREAKEVEN_DATA");
    results *r;
    int i, torch = -1;
    (void)state;
    /* the source tree's data (the tests run from it), less devices/ */
    if (!data)
        data = getcwd(here, sizeof here);
    assert_non_null(data);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/data && ln -sfn %s/templates %s/data/templates && "
             "ln -sfn %s/assets %s/data/assets",
             tmpdir, data, tmpdir, data, tmpdir);
    assert_int_equal(system(cmd), 0);
    snprintf(env, sizeof env, "BREAKEVEN_DATA=%s/data", tmpdir);
    assert_int_equal(run(env, "", &r), 0);
    assert_non_null(r);
    for (i = 0; i < r->ndevices; i++)
        assert_string_not_equal(r->devices[i].kind, "framework");
    assert_int_equal(warnings_of("torch:cpu"), 0);
    results_free(r);
    if (!have_torch()) {
        print_message("skipped: /usr/bin/python3 has no torch (apt-get install python3-torch)\n");
        skip();
    }
    assert_int_equal(run("", "", &r), 0);
    assert_non_null(r);
    assert_string_equal(r->devices[0].id, "cpu");
    assert_string_equal(r->devices[1].kind, "opencl");
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, "torch:cpu") == 0)
            torch = i;
    assert_true(torch >= 2);
    assert_int_equal(points_are(r, "torch:cpu", PT_OK, NULL), 4);
    results_free(r);
}

/* ONNX Runtime, inference: every point verified; a training point is
 * refused by the adapter and recorded as failed with its reason, and the
 * device goes on.  Skipped where node cannot load onnxruntime-node
 * (NODE_PATH, or devices/node_modules). */
static void test_ort_quick(void **state)
{
    results *r;
    (void)state;
    if (system("cd devices && /usr/bin/node -e \"require('onnxruntime-node')\" >/dev/null 2>&1") !=
        0) {
        print_message("skipped: node cannot load onnxruntime-node (npm install "
                      "--ignore-scripts onnxruntime-node, NODE_PATH)\n");
        skip();
    }
    assert_int_equal(run("", "--mode both --devices cpu,ort:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "cpu", PT_OK, NULL), 8);
    {
        int i, ok = 0, refused = 0;
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (strcmp(p->device, "ort:cpu") != 0)
                continue;
            if (p->mode == WL_INFERENCE) {
                assert_int_equal(p->status, PT_OK);
                assert_true(p->verified);
                ok++;
            } else {
                assert_int_equal(p->status, PT_FAILED);
                assert_non_null(strstr(p->message, "measures inference only"));
                refused++;
            }
        }
        assert_int_equal(ok, 4);
        assert_int_equal(refused, 4);
    }
    results_free(r);
}

static void test_torch_quick(void **state)
{
    char *text;
    results *r;
    const device_info *d = NULL;
    int i;
    (void)state;
    if (!have_torch()) {
        print_message("skipped: /usr/bin/python3 has no torch (apt-get install python3-torch)\n");
        skip();
    }
    assert_int_equal(run("", "--mode both --devices cpu,torch:cpu", &r), 0);
    assert_non_null(r);
    assert_int_equal(points_are(r, "torch:cpu", PT_OK, NULL), 8);
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, "torch:cpu") == 0)
            d = &r->devices[i];
    assert_non_null(d);
    assert_string_equal(devinfo_prop(d, "framework"), "PyTorch");
    assert_non_null(devinfo_prop(d, "torch-threads"));
    results_free(r);
    /* the table's device column as wide as its longest id */
    text = slurp("stdout");
    assert_non_null(strstr(text, "device    mode      hidden"));
    assert_non_null(strstr(text, "\ncpu       inference "));
    assert_non_null(strstr(text, "\ntorch:cpu inference "));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_quick),         cmocka_unit_test(test_fault_crash),
        cmocka_unit_test(test_fault_hang),        cmocka_unit_test(test_fault_wrong),
        cmocka_unit_test(test_fault_size),        cmocka_unit_test(test_fault_nan),
        cmocka_unit_test(test_fault_garbage),     cmocka_unit_test(test_fault_version),
        cmocka_unit_test(test_fault_no_start),    cmocka_unit_test(test_no_orphan_kill),
        cmocka_unit_test(test_no_orphan_term),    cmocka_unit_test(test_no_orphan_int),
        cmocka_unit_test(test_devices_lists),     cmocka_unit_test(test_unknown_device),
        cmocka_unit_test(test_torch_quick),       cmocka_unit_test(test_fault_hang_budget),
        cmocka_unit_test(test_call_limit),        cmocka_unit_test(test_all_frameworks),
        cmocka_unit_test(test_ort_quick),         cmocka_unit_test(test_base_run),
        cmocka_unit_test(test_base_refit),        cmocka_unit_test(test_format_by_devices),
        cmocka_unit_test(test_base_ab),           cmocka_unit_test(test_steps_at_once),
        cmocka_unit_test(test_fault_steps_short), cmocka_unit_test(test_fault_crash_in_steps),
        cmocka_unit_test(test_lie_fast),          cmocka_unit_test(test_lie_slow),
        cmocka_unit_test(test_lie_long),          cmocka_unit_test(test_lie_total),
        cmocka_unit_test(test_lie_values),        cmocka_unit_test(test_lie_skip),
        cmocka_unit_test(test_lie_wrongstep),     cmocka_unit_test(test_lie_shown),
        cmocka_unit_test(test_lie_dup),           cmocka_unit_test(test_hello_fail),
        cmocka_unit_test(test_hello_props),       cmocka_unit_test(test_spin),
        cmocka_unit_test(test_escape_bye),        cmocka_unit_test(test_precision_passes),
    };
    char here[512];
    ssize_t n;
    int rc;
    bin = getenv("BREAKEVEN");
    if (!bin)
        bin = "./breakeven";
    snprintf(tmpdir, sizeof tmpdir, "/tmp/be-devices-XXXXXX");
    n = readlink("/proc/self/exe", here, sizeof here - 1);
    if (!mkdtemp(tmpdir) || n <= 0)
        return 1;
    here[n] = '\0';
    *strrchr(here, '/') = '\0';
    /* built beside this program (build/ or build-san/) */
    snprintf(ref, sizeof ref, "%s/ref_adapter", here);
    if (access(ref, X_OK) != 0) {
        fprintf(stderr, "test_devices: no %s (make build/ref_adapter)\n", ref);
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        (void)system(cmd);
    }
    return rc;
}
