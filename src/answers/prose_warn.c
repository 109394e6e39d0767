/*
 * prose_warn.c — a run's warnings in words (see prose.h): the paragraphs
 * that lead its page (a partial run, a busy machine, impossible
 * measurements, throttling, drift, points not measured), and the same in a
 * few words for the archive's entries; and the caveats a reader must know
 * before any figure (synthetic devices, no GPU, old kernels), in the words
 * every output uses.
 */
#include "prose.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "devinfo.h"
#include "fmt.h"
#include "list.h"
#include "query.h"
#include "workload.h"

void prose_busy_pass(const results *r, const rs_pass *p, char *buf, size_t size)
{
    int cores = r->prov.cores > 0 ? r->prov.cores : 1;
    buf[0] = '\0';
    if (p->state.others_cpu >= 0.005)
        fmt_append(buf, size, "others %.0f%%, ", 100.0 * p->state.others_cpu);
    if (p->state.steal >= 0.0005)
        fmt_append(buf, size, "steal %.1f%%, ", 100.0 * p->state.steal);
    fmt_append(buf, size, "%.1f of %d CPU%s", q_pass_taken(r, p), cores, cores == 1 ? "" : "s");
}

/* The passes during which others (or the hypervisor) took a noticeable
 * share of the CPU (q_pass_busy), in few words: "pass 2: others 31%, 0.6
 * of 2 CPUs" for one, "the most in pass 5: others 80%, 1.6 of 2 CPUs" for
 * several (the pass where they took the most); returns how many. */
static int busy_passes(const results *r, char *buf, size_t size)
{
    int i, k = 0, most = -1;
    char one[128];
    buf[0] = '\0';
    for (i = 0; i < r->npasses; i++) {
        if (!q_pass_busy(r, &r->passes[i]))
            continue;
        k++;
        if (most < 0 || q_pass_taken(r, &r->passes[i]) > q_pass_taken(r, &r->passes[most]))
            most = i;
    }
    if (k == 0)
        return 0;
    prose_busy_pass(r, &r->passes[most], one, sizeof one);
    snprintf(buf, size, "%spass %d: %s", k > 1 ? "the most in " : "", r->passes[most].index, one);
    return k;
}

/* The points above their device's peak (q_beyond_peak), by device:
 * "NVIDIA H100 80GB HBM3 (peak 51.2 TFLOP/s) at inference hidden 128 batch
 * 16, …",
 * their measured figures withheld; returns how many. */
static int beyond_peak_points(const results *r, char *buf, size_t size)
{
    int d, i, k = 0;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        int kd = 0;
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            char g[32];
            if (strcmp(p->device, id) != 0 || !q_beyond_peak(r, p))
                continue;
            if (!kd++) {
                char name[256];
                q_device_name(r, id, name, sizeof name);
                fmt_si(g, sizeof g, q_peak(r, id), 3, "FLOP/s");
                fmt_append(buf, size, "%s%s (peak %s) at", k ? "; " : "", name, g);
            }
            fmt_append(buf, size, "%s %s hidden %d batch %d", kd > 1 ? "," : "",
                       workload_mode_name(p->mode), p->hidden, p->batch);
            k++;
        }
    }
    return k;
}

void prose_partial_text(const results *r, char *buf, size_t size)
{
    size_list h, b;
    err e;
    int i, done = 0, modes;
    buf[0] = '\0';
    if (!r->partial)
        return;
    /* a partial file keeps the points it reached: the plan is the grid of
     * its command, every mode on every device (refinement points apart) */
    for (i = 0; i < r->npoints; i++)
        done += r->points[i].why[0] == '\0';
    modes = strchr(r->prov.modes, ',') ? 2 : 1;
    if (list_parse(r->prov.hidden, "hidden", 1 << 20, &h, &e) == BE_OK &&
        list_parse(r->prov.batch, "batch", 1 << 20, &b, &e) == BE_OK &&
        h.n * b.n * modes * r->ndevices >= done)
        snprintf(buf, size, "partial: %d of %d points", done, h.n * b.n * modes * r->ndevices);
    else
        snprintf(buf, size, "partial: %d points", done);
}

/* Whether every device of r measured (not synthetic) is of type CPU. */
static int all_cpu(const results *r)
{
    int d;
    for (d = 0; d < r->ndevices; d++)
        if (!q_synthetic(r, d) && strcmp(r->devices[d].type, "CPU") != 0)
            return 0;
    return 1;
}

/* The first device of r held to older kernels (q_handicap), or -1. */
static int handicapped(const results *r)
{
    int d;
    for (d = 0; d < r->ndevices; d++)
        if (q_handicap(r, d))
            return d;
    return -1;
}

/* A caveat in a few words: "partly synthetic", "no GPU", "OpenBLAS on
 * old kernels" (partial is prose_partial_text's). */
static const char *caveat_words(const results *r, int c)
{
    int d;
    if (c == Q_CAVEAT_SYNTHETIC) {
        for (d = 0; d < r->ndevices; d++)
            if (!q_synthetic(r, d))
                return "partly synthetic";
        return "synthetic";
    }
    if (c == Q_CAVEAT_NO_GPU)
        return "no GPU";
    d = handicapped(r);
    return d >= 0 && strcmp(r->devices[d].kind, "openblas") == 0 ? "OpenBLAS on old kernels"
                                                                 : "old BLAS kernels";
}

/* The caveats after a partial run's, weightiest first: made-up figures
 * before what was not measured, before a held-back base. */
static const int caveat_order[] = {Q_CAVEAT_SYNTHETIC, Q_CAVEAT_NO_GPU, Q_CAVEAT_HANDICAPPED};

void prose_caveat_title(const results *r, char *buf, size_t size)
{
    const int c = q_caveats(r);
    size_t i;
    buf[0] = '\0';
    if (c & Q_CAVEAT_PARTIAL) {
        prose_partial_text(r, buf, size);
        return;
    }
    for (i = 0; i < sizeof caveat_order / sizeof *caveat_order; i++)
        if (c & caveat_order[i]) {
            snprintf(buf, size, "%s", caveat_words(r, caveat_order[i]));
            return;
        }
}

void prose_caveat_short(const results *r, int partial, char *buf, size_t size)
{
    const int c = q_caveats(r);
    char part[64];
    size_t i;
    buf[0] = '\0';
    if (partial && (c & Q_CAVEAT_PARTIAL)) {
        prose_partial_text(r, part, sizeof part);
        fmt_append(buf, size, "%s", part);
    }
    for (i = 0; i < sizeof caveat_order / sizeof *caveat_order; i++)
        if (c & caveat_order[i])
            fmt_append(buf, size, "%s%s", buf[0] ? "; " : "", caveat_words(r, caveat_order[i]));
    if (buf[0]) {
        buf[0] = (char)toupper((unsigned char)buf[0]);
        fmt_append(buf, size, ".");
    }
}

int prose_caveats(const results *r, char (*w)[PROSE_CAVEAT], int max)
{
    const int c = q_caveats(r);
    char names[PROSE_CAVEAT / 2], name[256];
    int d, n = 0, k = 0, fake = 0;
    if ((c & Q_CAVEAT_SYNTHETIC) && n < max) {
        names[0] = '\0';
        for (d = 0; d < r->ndevices; d++)
            fake += q_synthetic(r, d);
        for (d = 0; d < r->ndevices; d++)
            if (q_synthetic(r, d)) {
                q_device_name(r, r->devices[d].id, name, sizeof name);
                fmt_append(names, sizeof names, "%s%s",
                           k == 0          ? ""
                           : k == fake - 1 ? " and "
                                           : ", ",
                           name);
                k++;
            }
        snprintf(w[n++], PROSE_CAVEAT,
                 "Not measured: the times of %s were made up for a test, so none of %s figures "
                 "describes a real device.",
                 names, fake == 1 ? "its" : "their");
    }
    if ((c & Q_CAVEAT_NO_GPU) && n < max) {
        if (all_cpu(r) && (c & Q_CAVEAT_SYNTHETIC))
            snprintf(w[n++], PROSE_CAVEAT,
                     "No GPU was measured: every device measured ran on this machine's CPU, "
                     "and the GPU here is synthetic.");
        else if (all_cpu(r))
            snprintf(w[n++], PROSE_CAVEAT,
                     "No GPU was measured: every device here ran on this machine's CPU, so "
                     "this run compares ways of computing on one CPU, not a CPU with a GPU.");
        else
            snprintf(w[n++], PROSE_CAVEAT,
                     "No GPU was measured, so this run does not compare a CPU with a GPU.");
    }
    for (d = 0; d < r->ndevices && n < max; d++) {
        const char *why = q_handicap(r, d);
        if (!why)
            continue;
        q_device_name(r, r->devices[d].id, name, sizeof name);
        snprintf(w[n++], PROSE_CAVEAT,
                 "%s was held to older kernels (%s): it is slower here than this CPU allows, "
                 "and every speed-up over it is larger.",
                 name, why);
    }
    return n;
}

/* The drift tests of r: one per measured point and view that had enough
 * samples to test (a drift ratio of 0 says none was made). */
static int drift_tests(const results *r)
{
    int i, m = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->status != PT_OK)
            continue;
        m += p->resident.drift_ratio > 0.0;
        m += p->has_transfer && p->transfer.drift_ratio > 0.0;
    }
    return m;
}

/* Whether the run's warning names summary s of a run of m drift tests
 * (PROSE_DRIFT_*).  The one-sided p from the z that stats_drift gave the
 * flag (the summaries keep it where drift is flagged), so that only what
 * a digest keeps counts (prose_flags). */
static int drift_named(const stats_summary *s, int m)
{
    return s->drift && s->drift_ratio >= PROSE_DRIFT_RATIO && m > 0 &&
           0.5 * erfc(s->drift_z / sqrt(2.0)) <= PROSE_DRIFT_ALPHA / m;
}

/* The view of p that the drift warning names (resident first: its ratio
 * is the one quoted), or -1. */
static int drift_view(const rs_point *p, int m)
{
    if (p->status != PT_OK)
        return -1;
    if (drift_named(&p->resident, m))
        return FIT_RESIDENT;
    if (p->has_transfer && drift_named(&p->transfer, m))
        return FIT_TRANSFER;
    return -1;
}

/* One more warning in w[0..max) (*n of them so far), when there is room. */
static void warn(char (*w)[PROSE_WARNING], int *n, int max, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void warn(char (*w)[PROSE_WARNING], int *n, int max, const char *fmt, ...)
{
    va_list ap;
    if (*n >= max)
        return;
    va_start(ap, fmt);
    vsnprintf(w[(*n)++], PROSE_WARNING, fmt, ap);
    va_end(ap);
}

/* Point p of r named in a warning's list, after the *k named before it:
 * its device as people name it (q_device_name). */
static void name_point(const results *r, char *buf, size_t size, const rs_point *p, int *k)
{
    char name[256];
    q_device_name(r, p->device, name, sizeof name);
    fmt_append(buf, size, "%s%s %s hidden %d batch %d", (*k)++ ? ", " : "", name,
               workload_mode_name(p->mode), p->hidden, p->batch);
}

/* Why the points of status st failed, in buf: the first one's message, and
 * how many others differ (the table of times gives each, in its cells'
 * titles); so that a reader of the page or summary.md learns why without
 * opening the results file. */
static const char *reasons(const results *r, rs_status st, char *buf, size_t size)
{
    const char *first = NULL;
    int i, j, other = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->status != st)
            continue;
        if (!first) {
            first = p->message;
            continue;
        }
        /* a message counted once however many points give it */
        for (j = 0; j < i; j++)
            if (r->points[j].status == st && strcmp(r->points[j].message, p->message) == 0)
                break;
        other += j == i && strcmp(p->message, first) != 0;
    }
    snprintf(buf, size, "%s", first && first[0] ? first : "no reason was recorded");
    if (other)
        fmt_append(buf, size, " (and %d other reason%s)", other, other == 1 ? "" : "s");
    return buf;
}

int prose_warnings(const results *r, char (*w)[PROSE_WARNING], int max)
{
    char buf[2048];
    int i, k, m, n = 0;
    rs_status st;
    if (r->partial && n < max) {
        prose_partial_text(r, buf, sizeof buf);
        warn(w, &n, max,
             "This run did not finish (it was interrupted or failed) and is %s: "
             "the points it did not reach are missing from every chart and table.",
             buf);
    }
    if ((k = busy_passes(r, buf, sizeof buf)) > 0)
        warn(w, &n, max,
             "Busy machine: other processes (others) or the hypervisor (steal) took a "
             "share of the CPU in %d of %d pass%s (%s). Its times may be slower and its "
             "intervals wider than on a quiet machine.",
             k, r->npasses, r->npasses == 1 ? "" : "es", buf);
    for (i = 0; i < r->ndevices; i++) {
        const char *lib = devinfo_prop(&r->devices[i], "blas-library");
        int omp, blas;
        char name[128], stack[64];
        if (!q_blas_contends(r, i, &omp, &blas))
            continue;
        q_device_name(r, r->devices[i].id, name, sizeof name);
        q_stack(r, r->devices[i].id, stack, sizeof stack);
        warn(w, &n, max,
             "Threads contend in %s: its %d OpenMP threads call the pthread build of OpenBLAS "
             "(%s), which runs %d threads of its own: %d threads on %d CPUs. A step can stall "
             "while one set of threads waits for the other, in this run as in any %s program "
             "on this machine. A %s user would install Debian's OpenMP build of OpenBLAS "
             "(libopenblas0-openmp) and select it with update-alternatives, or set "
             "OPENBLAS_NUM_THREADS=1; docs/devices.md shows what each changed on a 2-CPU VM.",
             name, omp, lib ? lib : "its file unnamed", blas, omp + blas,
             r->prov.cores > 0 ? r->prov.cores : 1, stack, stack);
    }
    if ((k = beyond_peak_points(r, buf, sizeof buf)) > 0)
        warn(w, &n, max,
             "Impossible measurements: %d point%s measured faster than %s device's fp32 "
             "peak allows: %s. The timer or the device's report is wrong there; %s "
             "never quoted as a device's best.",
             k, k == 1 ? "" : "s", k == 1 ? "its" : "their", buf, k == 1 ? "it is" : "they are");
    buf[0] = '\0';
    for (i = 0, k = 0; i < r->npoints; i++)
        if (r->points[i].tel.throttled)
            name_point(r, buf, sizeof buf, &r->points[i], &k);
    if (k)
        warn(w, &n, max,
             "Throttling: %d point%s %s measured while the device reported throttling "
             "(marked \xe2\x80\xa0 in the tables): %s.",
             k, k == 1 ? "" : "s", k == 1 ? "was" : "were", buf);
    buf[0] = '\0';
    for (i = 0, k = 0, m = drift_tests(r); i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        /* the ratio of the view that drifted: the resident one's own
         * beside a transfer's drift read "+0%" */
        const int v = drift_view(p, m), tr = v == FIT_TRANSFER;
        if (v < 0)
            continue;
        /* a sentence a reader takes in: the first few named, the rest
         * counted (each is marked in its table) */
        if (k >= PROSE_NAMED_POINTS) {
            k++;
            continue;
        }
        name_point(r, buf, sizeof buf, p, &k);
        fmt_append(buf, sizeof buf, " (%+.0f%%%s)",
                   100.0 * ((tr ? p->transfer.drift_ratio : p->resident.drift_ratio) - 1.0),
                   tr ? " with transfers" : "");
    }
    if (k > PROSE_NAMED_POINTS)
        fmt_append(buf, sizeof buf, " and %d more, marked \xe2\x86\x97 in the tables",
                   k - PROSE_NAMED_POINTS);
    if (k)
        warn(w, &n, max,
             "Drift: %d point%s got slower while being measured, as under thermal throttling "
             "or a busy neighbour. Last third against first: %s.",
             k, k == 1 ? "" : "s", buf);
    for (st = PT_OUT_OF_MEMORY; st <= PT_FAILED; st++) {
        char why[512];
        buf[0] = '\0';
        /* the first few named, the rest counted (their cells say why) */
        for (i = 0, k = 0; i < r->npoints; i++)
            if (r->points[i].status == st && k < PROSE_NAMED_POINTS)
                name_point(r, buf, sizeof buf, &r->points[i], &k);
            else if (r->points[i].status == st)
                k++;
        if (k > PROSE_NAMED_POINTS)
            fmt_append(buf, sizeof buf, " and %d more", k - PROSE_NAMED_POINTS);
        if (k && st == PT_OUT_OF_MEMORY)
            warn(w, &n, max, "Out of memory: %d point%s (%s).", k, k == 1 ? "" : "s", buf);
        else if (k)
            warn(w, &n, max, "%s: %d point%s (%s). Why: %s",
                 st == PT_FAILED_VERIFICATION ? "Failed verification"
                 : st == PT_FAILED            ? "Failed"
                                              : "Skipped after a device error",
                 k, k == 1 ? "" : "s", buf, reasons(r, st, why, sizeof why));
    }
    return n;
}

void prose_flags(const results *r, char *buf, size_t size)
{
    int i, drift = 0, throttled = 0, failed = 0, busy, impossible, m = drift_tests(r);
    char part[64], passes[1024], points[2048];
    buf[0] = '\0';
    prose_partial_text(r, part, sizeof part);
    if (part[0])
        fmt_append(buf, size, "%s", part);
    busy = busy_passes(r, passes, sizeof passes);
    impossible = beyond_peak_points(r, points, sizeof points);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        drift += drift_view(p, m) >= 0;
        throttled += p->tel.throttled != 0;
        failed += p->status != PT_OK;
    }
    if (busy)
        fmt_append(buf, size, "%sbusy machine (%d pass%s)", buf[0] ? "; " : "", busy,
                   busy == 1 ? "" : "es");
    if (impossible)
        fmt_append(buf, size, "%sabove the device's peak at %d point%s", buf[0] ? "; " : "",
                   impossible, impossible == 1 ? "" : "s");
    if (throttled)
        fmt_append(buf, size, "%sthrottled at %d point%s", buf[0] ? "; " : "", throttled,
                   throttled == 1 ? "" : "s");
    if (drift)
        fmt_append(buf, size, "%sdrift at %d point%s", buf[0] ? "; " : "", drift,
                   drift == 1 ? "" : "s");
    if (failed)
        fmt_append(buf, size, "%s%d point%s not measured (out of memory, failed or skipped)",
                   buf[0] ? "; " : "", failed, failed == 1 ? "" : "s");
    for (i = 0; i < r->ndevices; i++)
        if (q_blas_contends(r, i, NULL, NULL)) {
            char name[256];
            q_device_name(r, r->devices[i].id, name, sizeof name);
            fmt_append(buf, size, "%sthreads contend in %s", buf[0] ? "; " : "", name);
        }
}
