/*
 * prose.c — the report's sentences (see prose.h).
 */
#include "prose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "list.h"
#include "netfit.h"
#include "query.h"
#include "telemetry.h"
#include "workload.h"

/* A paragraph compares at most this many devices (the charts' limit). */
#define PROSE_MAX_DEVICES 64

/* The point of dev (NULL: any) in mode m (-1: any) whose throughput's
 * interval reaches highest (the largest lower end), or NULL: a peak a
 * reader may quote, so never one above its device's peak (q_beyond_peak). */
static const rs_point *peak_point(const results *r, const char *dev, int m)
{
    const rs_point *best = NULL;
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if ((dev && strcmp(p->device, dev) != 0) || (m >= 0 && (int)p->mode != m) || !q_ok(p) ||
            q_beyond_peak(r, p))
            continue;
        if (!best ||
            results_gflops(p, p->resident.ci_hi) > results_gflops(best, best->resident.ci_hi))
            best = p;
    }
    return best;
}

/* "28.6 TFLOP/s (95% CI 28.5–28.7 TFLOP/s)": a point's measured
 * throughput with the interval of its median. */
static void throughput_text(const rs_point *p, char *buf, size_t size)
{
    char g[32], range[64];
    fmt_si(g, sizeof g, results_gflops(p, p->resident.median) * 1e9, 3, "FLOP/s");
    fmt_si_range(range, sizeof range, results_gflops(p, p->resident.ci_hi) * 1e9,
                 results_gflops(p, p->resident.ci_lo) * 1e9);
    snprintf(buf, size, "%s (95%% CI %sFLOP/s)", g, range);
}

/* ", 43% of its 66.9 TFLOP/s fp32 peak (132 compute units × …)" after a
 * quoted best point, where its device's peak is known (devinfo_peak). */
static void peak_share(const results *r, const rs_point *best, char *buf, size_t size)
{
    const device_info *d = results_device(r, best->device);
    double peak;
    char g[32], how[160];
    if (!d || !devinfo_peak(d, &peak, how, sizeof how))
        return;
    fmt_si(g, sizeof g, peak, 3, "FLOP/s");
    fmt_append(buf, size, ", %.0f%% of its %s fp32 peak (%s)",
               100.0 * results_gflops(best, best->resident.median) * 1e9 / peak, g, how);
}

void prose_throughput(const results *r, wl_mode m, char *buf, size_t size)
{
    int d;
    buf[0] = '\0';
    fmt_append(buf, size,
               "Throughput of the whole stack against the work per layer, log–log; "
               "higher is faster. Every throughput quoted here was measured.");
    for (d = 0; d < r->ndevices; d++) {
        const rs_point *best = peak_point(r, r->devices[d].id, (int)m);
        char g[96];
        if (!best)
            continue;
        throughput_text(best, g, sizeof g);
        fmt_append(buf, size, " %s peaks at %s at hidden %d, batch %d", r->devices[d].id, g,
                   best->hidden, best->batch);
        peak_share(r, best, buf, size);
        fmt_append(buf, size, ".");
    }
    prose_models(r, m, buf + strlen(buf), size - strlen(buf));
}

void prose_models(const results *r, wl_mode m, char *buf, size_t size)
{
    const fit_set *fs = q_fit(r);
    int d, i, k, any = 0;
    buf[0] = '\0';
    if (!fs || !size)
        return;
    for (d = 0; d < r->ndevices; d++) {
        const char *dev = r->devices[d].id;
        const fit_model *g = q_model(fs, dev, m, FIT_RESIDENT);
        for (i = 0, k = 0; i < fs->nmodels; i++) {
            const fit_model *x = &fs->models[i];
            if (x->hidden == 0 || x->mode != m || x->view != FIT_RESIDENT || !x->ok ||
                strcmp(x->device, dev) != 0)
                continue;
            if (!any++)
                fmt_append(buf, size,
                           " How well t = t0 + f/P fits, as the RMS of its relative "
                           "error: per hidden width,");
            fmt_append(buf, size, "%s%s%s%.1f%% at %d%s",
                       k         ? ", "
                       : any > 1 ? "; "
                                 : " ",
                       k ? "" : dev, k ? "" : " ", 100.0 * x->rms_rel, x->hidden,
                       x->poor ? " (poor)" : "");
            k++;
        }
        if (g && g->ok && k)
            fmt_append(buf, size, ", over all widths at once %.0f%%%s", 100.0 * g->rms_rel,
                       g->poor ? " (poor)" : "");
    }
    if (any)
        fmt_append(buf, size,
                   ". A poor model (over %.0f%%) is neither drawn nor the basis "
                   "of any statement.",
                   100.0 * FIT_POOR_RMS);
}

/* The finding of other against the base in mode m, view v, time. */
static const finding *time_finding(const findings *F, const char *other, wl_mode m, fit_view v)
{
    return findings_get(F, other, m, v, 0);
}

void prose_ratio(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r);
    buf[0] = '\0';
    fmt_append(buf, size,
               "Speed of each device relative to %s (its time divided by theirs); "
               "above 1 the other device is faster.",
               base);
    for (d = 0; d < r->ndevices; d++) {
        const char *other = r->devices[d].id;
        const finding *f = time_finding(F, other, m, FIT_RESIDENT);
        const finding *t = time_finding(F, other, m, FIT_TRANSFER);
        char shapes[96], widths[640], lo[96], hi[96];
        if (d == bd || !q_has_mode(r, other, m))
            continue;
        if (!f || f->verdict == FIND_UNKNOWN) {
            fmt_append(buf, size, " %s has no shape measured on both it and %s.", other, base);
            continue;
        }
        findings_shapes_text(f, shapes, sizeof shapes);
        findings_widths_text(f, widths, sizeof widths);
        fmt_append(buf, size, " %s is faster than %s %s", other, base, shapes);
        findings_extreme_text(f, 1, hi, sizeof hi);
        if (f->verdict == FIND_ALWAYS) {
            findings_extreme_text(f, 0, lo, sizeof lo);
            fmt_append(buf, size, " (from %s to %s)", lo, hi);
        } else {
            fmt_append(buf, size, " (at best %s)", hi);
        }
        if (f->verdict == FIND_SOME && widths[0])
            fmt_append(buf, size, ": %s", widths);
        fmt_append(buf, size, ".");
        if (t && t->verdict != FIND_UNKNOWN) {
            findings_shapes_text(t, shapes, sizeof shapes);
            findings_widths_text(t, widths, sizeof widths);
            fmt_append(buf, size, " With transfers counted it is faster %s", shapes);
            if (t->verdict == FIND_SOME && widths[0])
                fmt_append(buf, size, ": %s", widths);
            fmt_append(buf, size, ".");
        }
    }
}

void prose_winner(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r);
    buf[0] = '\0';
    fmt_append(buf, size,
               "Which device wins at each hidden width and batch size: blue cells "
               "are faster than %s, vermillion ones slower, the number is the speed ratio.",
               base);
    for (d = 0; d < r->ndevices; d++) {
        const finding *f = time_finding(F, r->devices[d].id, m, FIT_RESIDENT);
        char shapes[96], widths[640];
        if (d == bd || !f || f->verdict == FIND_UNKNOWN)
            continue;
        findings_shapes_text(f, shapes, sizeof shapes);
        findings_widths_text(f, widths, sizeof widths);
        fmt_append(buf, size, " %s is faster %s", r->devices[d].id, shapes);
        if (f->verdict == FIND_SOME && widths[0])
            fmt_append(buf, size, ": %s", widths);
        fmt_append(buf, size, ".");
    }
}

/* The money of the cost chart's paragraph: each priced device's one
 * figure, its cost per million samples in USD, at the largest of the
 * shapes done[0..n) (by FLOPs). */
static void cost_in_usd(const results *r, wl_mode m, const int *use, const q_shape *done, int n,
                        char *buf, size_t size)
{
    int i, d, k = 0, said = 0;
    char per[48], price[48];
    for (i = 1; i < n; i++)
        if (workload_flops_per_layer(m, done[i].hidden, done[i].batch) >
            workload_flops_per_layer(m, done[k].hidden, done[k].batch))
            k = i;
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        const rs_point *p = q_point(r, id, m, done[k].hidden, done[k].batch);
        double usd_h = q_price(&r->prices, id), c;
        if (!use[d] || !q_ok(p) || !(usd_h > 0))
            continue;
        c = p->resident.median * usd_h / 3600.0;
        fmt_usd(per, sizeof per, c / done[k].batch * 1e6, 2);
        fmt_usd(price, sizeof price, usd_h, 3);
        if (!said++)
            fmt_append(buf, size,
                       " In dollars, at hidden %d \xc3\x97 batch %d (the largest "
                       "of %s): ",
                       done[k].hidden, done[k].batch, n == 1 ? "it" : "these shapes");
        else
            fmt_append(buf, size, "; ");
        fmt_append(buf, size, "%s at %s per hour costs %s per million samples", id, price, per);
    }
    if (said)
        fmt_append(buf, size, ".");
}

void prose_relative(const results *r, const findings *F, wl_mode m, int cost, char *buf,
                    size_t size)
{
    int bd = q_base(r), d, n, use[PROSE_MAX_DEVICES];
    const char *base = q_base_id(r);
    double pb = cost ? q_price(&r->prices, base) : 1.0, tb;
    q_shape done[Q_MAX_SHAPES];

    buf[0] = '\0';
    if (r->ndevices > PROSE_MAX_DEVICES || r->ndevices == 0)
        return;
    fmt_append(buf, size,
               cost ? "Cost of a step relative to %s (time \xc3\x97 price per hour); "
                      "lower is cheaper."
                    : "Time of a step relative to %s; lower is better.",
               base);
    /* the devices and shapes of the chart this paragraph goes with */
    q_compared(r, m, cost ? &r->prices : NULL, use);
    n = use[bd] ? q_completed(r, m, use, done, Q_MAX_SHAPES) : 0;
    if (n == 0) {
        fmt_append(buf, size, " No shape was completed by every device.");
        return;
    }
    tb = q_total(r, base, m, done, n, FIT_RESIDENT, NULL);
    if (r->ndevices == 1) {
        fmt_append(buf, size,
                   " Only %s was measured, so its bar is the reference (1\xc3\x97) "
                   "over the %d shape%s it completed.",
                   base, n, n == 1 ? "" : "s");
        return;
    }
    if (n == 1)
        fmt_append(buf, size, " At the one shape every device completed,");
    else
        fmt_append(buf, size, " Over the %d shapes every device completed,", n);
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        const finding *f = findings_get(F, id, m, FIT_RESIDENT, cost);
        if (d == bd || !q_has_mode(r, id, m))
            continue;
        if (!use[d]) {
            fmt_append(buf, size, " %s has no price;", id);
            continue;
        }
        /* one direction only: each device relative to the base */
        fmt_append(buf, size, " %s %s %.2f\xc3\x97 %s of %s (%s relative to %s)", id,
                   cost ? "costs" : "takes",
                   q_total(r, id, m, done, n, FIT_RESIDENT, NULL) / tb *
                       (cost ? q_price(&r->prices, id) / pb : 1.0),
                   cost ? "the cost" : "the time", base, id, base);
        if (f && f->verdict != FIND_UNKNOWN) {
            char shapes[96];
            findings_shapes_text(f, shapes, sizeof shapes);
            fmt_append(buf, size, " (%s %s)", cost ? "cheaper per step" : "faster", shapes);
        }
        fmt_append(buf, size, ";");
    }
    buf[strlen(buf) - 1] = '.';
    if (cost)
        cost_in_usd(r, m, use, done, n, buf, size);
}

/* "P" of "partial": the first letter of an ASCII phrase in capitals. */
static char toupper_first(const char *s)
{
    return *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
}

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
 * share of the CPU (q_pass_busy): "pass 2: others 31%, 0.6 of 2 CPUs";
 * returns how many. */
static int busy_passes(const results *r, char *buf, size_t size)
{
    int i, k = 0;
    char one[128];
    buf[0] = '\0';
    for (i = 0; i < r->npasses; i++) {
        if (!q_pass_busy(r, &r->passes[i]))
            continue;
        prose_busy_pass(r, &r->passes[i], one, sizeof one);
        fmt_append(buf, size, "%spass %d: %s", k++ ? "; " : "", r->passes[i].index, one);
    }
    return k;
}

/* The points above their device's peak (q_beyond_peak), by device:
 * "cl:0.0 (peak 51.2 TFLOP/s) at inference hidden 128 batch 16, …",
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
                fmt_si(g, sizeof g, q_peak(r, id), 3, "FLOP/s");
                fmt_append(buf, size, "%s%s (peak %s) at", k ? "; " : "", id, g);
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

int prose_warnings(const results *r, char (*w)[PROSE_WARNING], int max)
{
    char buf[2048];
    int i, k, m, n = 0;
    rs_status st;
    if (r->partial && n < max) {
        prose_partial_text(r, buf, sizeof buf);
        snprintf(w[n++], PROSE_WARNING,
                 "This run did not finish (it was interrupted or failed) and is %s: "
                 "the points it did not reach are missing from every chart and table.",
                 buf);
    }
    if ((k = busy_passes(r, buf, sizeof buf)) > 0 && n < max)
        snprintf(w[n++], PROSE_WARNING,
                 "Busy machine: other processes (others) or the hypervisor (steal) took a "
                 "share of the CPU while this run measured (%s); its times may be slower "
                 "and its intervals are wider than on a quiet machine.",
                 buf);
    if ((k = beyond_peak_points(r, buf, sizeof buf)) > 0 && n < max)
        snprintf(w[n++], PROSE_WARNING,
                 "Impossible measurements: %d point%s measured faster than %s device's fp32 "
                 "peak allows: %s. The timer or the device's report is wrong there; %s "
                 "never quoted as a device's best.",
                 k, k == 1 ? "" : "s", k == 1 ? "its" : "their", buf,
                 k == 1 ? "it is" : "they are");
    buf[0] = '\0';
    for (i = 0, k = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->tel.throttled)
            fmt_append(buf, sizeof buf, "%s%s %s hidden %d batch %d", k++ ? ", " : "", p->device,
                       workload_mode_name(p->mode), p->hidden, p->batch);
    }
    if (k && n < max)
        snprintf(w[n++], PROSE_WARNING,
                 "Throttling: %d point%s %s measured while the device reported throttling "
                 "(marked \xe2\x80\xa0 in the tables): %s.",
                 k, k == 1 ? "" : "s", k == 1 ? "was" : "were", buf);
    buf[0] = '\0';
    for (i = 0, k = 0, m = drift_tests(r); i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        /* the ratio of the view that drifted: the resident one's own
         * beside a transfer's drift read "+0%" */
        const int v = drift_view(p, m), tr = v == FIT_TRANSFER;
        if (v >= 0)
            fmt_append(buf, sizeof buf, "%s%s %s hidden %d batch %d (%+.0f%%%s)", k++ ? ", " : "",
                       p->device, workload_mode_name(p->mode), p->hidden, p->batch,
                       100.0 * ((tr ? p->transfer.drift_ratio : p->resident.drift_ratio) - 1.0),
                       tr ? " with transfers" : "");
    }
    if (k && n < max)
        snprintf(w[n++], PROSE_WARNING,
                 "Drift: %d point%s got slower while being measured "
                 "(thermal throttling or a busy neighbour), last third against first: %s.",
                 k, k == 1 ? "" : "s", buf);
    for (st = PT_OUT_OF_MEMORY; st <= PT_SKIPPED; st++) {
        buf[0] = '\0';
        for (i = 0, k = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (p->status == st)
                fmt_append(buf, sizeof buf, "%s%s %s hidden %d batch %d", k++ ? ", " : "",
                           p->device, workload_mode_name(p->mode), p->hidden, p->batch);
        }
        if (k && n < max)
            snprintf(w[n++], PROSE_WARNING, "%s: %d point%s (%s).",
                     st == PT_OUT_OF_MEMORY         ? "Out of memory"
                     : st == PT_FAILED_VERIFICATION ? "Failed verification (never timed)"
                                                    : "Skipped after a device error",
                     k, k == 1 ? "" : "s", buf);
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
}

void prose_conclusion(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r), *mode = workload_mode_name(m);
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        const finding *f = time_finding(F, id, m, FIT_RESIDENT);
        const finding *t = time_finding(F, id, m, FIT_TRANSFER);
        char shapes[96], widths[640], ts[96];
        if (d == bd || !f)
            continue;
        findings_shapes_text(f, shapes, sizeof shapes);
        findings_wins_text(f, widths, sizeof widths);
        ts[0] = '\0';
        if (t && t->verdict != FIND_UNKNOWN && t->verdict != f->verdict)
            findings_shapes_text(t, ts, sizeof ts);
        switch (f->verdict) {
        case FIND_SOME:
            if (widths[0])
                fmt_append(buf, size,
                           "For %s on this machine, %s is faster than %s %s: use "
                           "%s %s, and %s elsewhere",
                           mode, id, base, shapes, id, widths, base);
            else
                fmt_append(buf, size,
                           "For %s on this machine, %s is faster than %s %s, but "
                           "at no width from some batch on: stay with %s unless the shape is "
                           "one of those",
                           mode, id, base, shapes, base);
            if (ts[0])
                fmt_append(buf, size, "; with transfers counted it is faster %s", ts);
            fmt_append(buf, size, ". ");
            break;
        case FIND_NEVER:
            fmt_append(buf, size, "For %s, stay on %s: %s is faster %s", mode, base, id, shapes);
            if (f->c->kind == CROSS_EXTRAPOLATED && f->c->flops > 0.0)
                fmt_append(buf, size,
                           " (the per-width models would have it win only beyond the "
                           "largest size measured: measure larger sizes before moving)");
            fmt_append(buf, size, ". ");
            break;
        case FIND_ALWAYS:
            fmt_append(buf, size, "For %s, %s is faster than %s %s", mode, id, base, shapes);
            if (ts[0])
                fmt_append(buf, size,
                           " with the data resident; with transfers counted it is "
                           "faster %s, so count the transfers before moving small batches",
                           ts);
            fmt_append(buf, size, ". ");
            break;
        default:
            fmt_append(buf, size, "For %s there is no verdict on %s against %s: %s. ", mode, id,
                       base, f->why);
            break;
        }
    }
    if (!buf[0]) /* a run of networks: their answers */
        netfit_summary(r, m, buf, size);
    if (!buf[0])
        fmt_append(buf, size, "Only %s was measured for %s, so there is nothing to choose between.",
                   base, mode);
}

void prose_setup(const results *r, char *buf, size_t size)
{
    const rs_prov *p = &r->prov;
    const char *net = NULL;
    int total = 0, i, square, nets, far, checked;
    buf[0] = '\0';
    for (i = 0; i < r->npoints; i++)
        total += r->points[i].nsamples;
    if (r->npoints > 0 && r->points[0].net[0])
        fmt_append(buf, size,
                   "Each point is a network of dense layers (its sizes from input to output, "
                   "such as %s) in fp32, y = ReLU(x·W + b) between layers and x·W + b for the "
                   "last, verified against a double-precision host reference before it is "
                   "timed, warmed up, then timed step by step",
                   r->points[0].sizes);
    else
        fmt_append(buf, size,
                   "Each point is a stack of %d dense layer%s y = ReLU(x·W + b) in fp32, "
                   "verified against a double-precision host reference before it is timed, "
                   "warmed up, then timed step by step",
                   p->layers, p->layers == 1 ? "" : "s");
    if (r->npasses > 1)
        fmt_append(buf, size,
                   " in %d passes over the whole grid, each in a freshly shuffled "
                   "order,",
                   r->npasses);
    fmt_append(buf, size,
               " within the %.0f s budget (%d sample%s in all). Times are medians, "
               "with a 95%% interval that includes how the passes differ. ",
               p->budget, total, total == 1 ? "" : "s");
    q_run_far(r, &far, &checked);
    if (far > 0)
        fmt_append(buf, size,
                   "The host's CPUs were a cache apart around %d of the %d visits of devices "
                   "on them (a cache line's round trip between two of them over 2.5 times "
                   "the run's quickest); those visits' samples are left out of the medians "
                   "wherever a point has 3 others. ",
                   far, checked);
    /* a run of networks alone has no hidden widths to speak of */
    square = q_has_square(r, WL_INFERENCE) || q_has_square(r, WL_TRAINING);
    if (square)
        fmt_append(buf, size,
                   "At each hidden width the crossover batch is where the difference of the "
                   "two devices' measured times meets zero between the batches that bracket "
                   "it, its 95%% interval drawn from the medians' intervals; t = t0 + f/P is "
                   "fitted per device and hidden width to describe the devices, and only where "
                   "it fits; ");
    nets = netfit_networks(r, &net, 1) > 0;
    if (nets)
        fmt_append(buf, size,
                   "%cor each network the crossover batch is where the difference of the two "
                   "devices' measured step times meets zero between the batches that bracket "
                   "it, its 95%% interval drawn from the medians' intervals; ",
                   square ? 'f' : 'F');
    fmt_append(buf, size,
               "%crift is a one-sided Mann–Whitney test of the last third of the samples "
               "against the first.",
               square || nets ? 'd' : 'D');
}

void prose_answer(const results *r, const findings *F, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    for (i = 0; F && i < F->n; i++)
        if (F->f[i].c->view == FIT_RESIDENT && !F->f[i].c->cost) {
            findings_sentence(&F->f[i], r, buf, size);
            return;
        }
    if (r->ndevices == 1) {
        prose_alone(r, buf, size);
        return;
    }
    netfit_summary(r, WL_INFERENCE, buf, size);
    if (!buf[0])
        netfit_summary(r, WL_TRAINING, buf, size);
    if (buf[0])
        return;
    snprintf(buf, size, "%d point%s measured on %d device%s.", r->npoints,
             r->npoints == 1 ? "" : "s", r->ndevices, r->ndevices == 1 ? "" : "s");
}

void prose_alone(const results *r, char *buf, size_t size)
{
    const rs_point *best;
    char peak[96];
    int i, n = 0;
    buf[0] = '\0';
    if (r->ndevices != 1)
        return;
    for (i = 0; i < r->npoints; i++)
        n += q_ok(&r->points[i]);
    best = peak_point(r, NULL, -1);
    fmt_append(buf, size,
               "Only %s (%s, %s) was measured, so there is no other device to "
               "compare it with and no crossover.",
               r->devices[0].id, r->devices[0].type[0] ? r->devices[0].type : "unknown type",
               r->devices[0].name[0] ? r->devices[0].name : "unnamed");
    if (best) {
        throughput_text(best, peak, sizeof peak);
        fmt_append(buf, size,
                   " It peaks at %s (%s, hidden %d, batch %d) over the %d point%s "
                   "it measured.",
                   peak, workload_mode_name(best->mode), best->hidden, best->batch, n,
                   n == 1 ? "" : "s");
    }
}

/* "NVIDIA H100 80GB HBM3" of a device; "Intel Xeon (16 threads)" of the
 * CPU measured through OpenBLAS, whose threads are part of what it is. */
static void device_short(const results *r, const char *id, char *buf, size_t size)
{
    const device_info *d = results_device(r, id);
    if (!d || !d->name[0])
        snprintf(buf, size, "%s", id);
    else if (strcmp(d->kind, "openblas") == 0 && r->prov.blas_threads > 0)
        snprintf(buf, size, "%s (%d thread%s)", d->name, r->prov.blas_threads,
                 r->prov.blas_threads == 1 ? "" : "s");
    else
        snprintf(buf, size, "%s", d->name);
}

/* The first resident time finding of r, inference first. */
static const finding *headline_finding(const findings *F)
{
    int m, i;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++)
        for (i = 0; F && i < F->n; i++) {
            const fit_crossover *c = F->f[i].c;
            if (c->view == FIT_RESIDENT && !c->cost && (int)c->mode == m &&
                F->f[i].verdict != FIND_UNKNOWN)
                return &F->f[i];
        }
    return NULL;
}

/* The headline of a run of networks alone: the first network's resident
 * answer in the first mode measured, "cl:0.0 beats cpu on 784-512-10 from
 * batch 38 (95% CI 32–44)"; 0 (buf untouched) when there is none. */
static int net_headline(const results *r, char *buf, size_t size)
{
    const char *names[2];
    char other[300], base[300];
    netfit_set s;
    const netfit_cross *c = NULL;
    int i, m, nn = netfit_networks(r, names, 2), done = 0;
    if (nn == 0 || netfit_run(r, r->prov.seed, 0, &s, NULL) < 0)
        return 0;
    for (m = WL_INFERENCE; m <= WL_TRAINING && !c; m++)
        for (i = 0; i < s.n && !c; i++)
            if ((int)s.c[i].mode == m && s.c[i].view == FIT_RESIDENT &&
                strcmp(s.c[i].net, names[0]) == 0 && s.c[i].x.kind != CROSS_UNKNOWN)
                c = &s.c[i];
    if (c) {
        device_short(r, c->other, other, sizeof other);
        device_short(r, c->base, base, sizeof base);
        if (c->x.kind == CROSS_IN_RANGE)
            fmt_append(buf, size,
                       "%s beats %s on %s from batch %.0f (95%% CI %s%.0f\xe2\x80\x93%.0f%s)",
                       other, base, c->net, c->x.batch, c->x.lo_open ? "below " : "", c->x.lo,
                       c->x.hi, c->x.hi_open ? " or beyond" : "");
        else if (c->x.kind == CROSS_ALWAYS)
            fmt_append(buf, size, "%s beats %s on %s at every batch measured", other, base, c->net);
        else
            fmt_append(buf, size, "%s never stays ahead of %s on %s", other, base, c->net);
        if (nn > 1)
            fmt_append(buf, size, " and other networks");
        fmt_append(buf, size, " (%s, %s)", workload_mode_name(c->mode), q_machine_name(r));
        done = 1;
    }
    netfit_free(&s);
    return done;
}

void prose_headline(const results *r, const findings *F, char *buf, size_t size)
{
    const finding *f = headline_finding(F);
    char other[300], base[300], ci[96], part[64];
    int i;
    buf[0] = '\0';
    prose_partial_text(r, part, sizeof part);
    if (part[0])
        fmt_append(buf, size, "%c%s: ", toupper_first(part), part + 1);
    if (!f) {
        const rs_point *best = peak_point(r, NULL, -1);
        if (r->ndevices == 1 && best) {
            device_short(r, r->devices[0].id, other, sizeof other);
            throughput_text(best, ci, sizeof ci);
            fmt_append(buf, size, "%s alone peaks at %s on %s", other, ci, q_machine_name(r));
        } else if (!net_headline(r, buf + strlen(buf), size - strlen(buf))) {
            fmt_append(buf, size, "Dense layers on %s: %d point%s, no verdict", q_machine_name(r),
                       r->npoints, r->npoints == 1 ? "" : "s");
        }
        return;
    }
    device_short(r, f->c->other, other, sizeof other);
    device_short(r, f->c->base, base, sizeof base);
    switch (f->verdict) {
    case FIND_ALWAYS:
        fmt_append(buf, size, "%s beats %s at every shape measured", other, base);
        break;
    case FIND_NEVER:
        fmt_append(buf, size, "%s never beats %s at the %d shapes measured", other, base,
                   f->nshapes);
        break;
    default:
        fmt_append(buf, size, "%s beats %s at %d of %d shapes", other, base, f->nwins, f->nshapes);
        /* the narrowest width that crosses in range: where the answer turns */
        for (i = 0; i < f->c->nhidden; i++) {
            const fit_hidden_cross *h = &f->c->per_hidden[i];
            if (h->kind != CROSS_IN_RANGE)
                continue;
            findings_batch_ci(h, ci, sizeof ci);
            findings_from_text(f, i, part, sizeof part);
            fmt_append(buf, size, ", %s %s at hidden %d", part, ci, h->hidden);
            break;
        }
        break;
    }
    fmt_append(buf, size, " (%s, %s)", workload_mode_name(f->c->mode), q_machine_name(r));
}

void prose_title(const char *title, const results *r, const findings *F, char *buf, size_t size)
{
    size_t n;
    buf[0] = '\0';
    if (title && *title)
        fmt_append(buf, size, "%s: ", title);
    n = strlen(buf);
    prose_headline(r, F, buf + n, size - n);
}

/* The largest shape (by FLOPs) of mode m where both base and other have
 * energy per step; 0 when there is none.  *n counts those shapes. */
static int energy_example(const results *r, const char *base, const char *other, wl_mode m,
                          q_shape *at, int *n)
{
    q_shape shapes[Q_MAX_SHAPES];
    int k = q_shapes(r, m, shapes, Q_MAX_SHAPES), i, found = 0;
    double best = 0.0;
    *n = 0;
    for (i = 0; i < k; i++) {
        double f = workload_flops_per_layer(m, shapes[i].hidden, shapes[i].batch);
        if (q_energy(q_point(r, base, m, shapes[i].hidden, shapes[i].batch)) < 0.0 ||
            q_energy(q_point(r, other, m, shapes[i].hidden, shapes[i].batch)) < 0.0)
            continue;
        (*n)++;
        if (!found || f > best) {
            *at = shapes[i];
            best = f;
            found = 1;
        }
    }
    return found;
}

/* other against base in energy at one example shape, then per hidden width. */
static void energy_pair(const results *r, const char *base, const char *other, wl_mode m, char *buf,
                        size_t size)
{
    q_shape at;
    q_grid g;
    fit_hidden_cross h;
    int n, i, said = 0;
    char eo[32], eb[32], xo[32], xb[32];
    const rs_point *po, *pb;

    if (!energy_example(r, base, other, m, &at, &n))
        return;
    po = q_point(r, other, m, at.hidden, at.batch);
    pb = q_point(r, base, m, at.hidden, at.batch);
    fmt_si(eo, sizeof eo, q_energy(po), 3, "J");
    fmt_si(eb, sizeof eb, q_energy(pb), 3, "J");
    fmt_si(xo, sizeof xo, q_energy(po) / at.batch, 3, "J");
    fmt_si(xb, sizeof xb, q_energy(pb) / at.batch, 3, "J");
    fmt_append(buf, size,
               "%sAt hidden %d batch %d, %s uses %s per step (%s per sample of the batch), "
               "%s %s (%s per sample); %d shape%s ha%s energy figures for both.",
               buf[0] ? " " : "", at.hidden, at.batch, other, eo, xo, base, eb, xb, n,
               n == 1 ? "" : "s", n == 1 ? "s" : "ve");
    q_grid_make(r, m, &g);
    for (i = g.nh - 1; i >= 0; i--) {
        if (q_energy_cross(r, base, other, m, g.h[i], &h) == 0)
            continue;
        fmt_append(buf, size, "%s", said ? "; " : " By energy per step, ");
        switch (h.kind) {
        case CROSS_IN_RANGE:
            fmt_append(buf, size, "%s uses less than %s from batch %.0f at hidden %d", other, base,
                       ceil(h.batch - 1e-9), g.h[i]);
            break;
        case CROSS_ALWAYS:
            fmt_append(buf, size, "%s uses less than %s at every batch measured at hidden %d",
                       other, base, g.h[i]);
            break;
        default:
            fmt_append(buf, size,
                       "%s never uses less than %s in the batches measured at "
                       "hidden %d",
                       other, base, g.h[i]);
            break;
        }
        said = 1;
    }
    if (said)
        fmt_append(buf, size, ".");
}

/* How dev's energy figures of mode m were measured, as the method was:
 * " cl:0.0 by NVML (the whole board, idle power included), over the timed
 * samples at 3 points and over a run of untimed steps of the same work,
 * apart from the timing, at 32;" */
static void energy_method(const results *r, const char *dev, wl_mode m, char *buf, size_t size)
{
    int i, timed = 0, apart = 0;
    tel_kind kind = TEL_NONE;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != m || strcmp(p->device, dev) != 0 || q_energy(p) < 0.0)
            continue;
        kind = p->tel.kind;
        /* an energy run's steps are not the timed samples */
        if (p->tel.energy_samples > p->nsamples)
            apart++;
        else
            timed++;
    }
    fmt_append(buf, size, " %s by %s, ", dev,
               kind == TEL_NVML
                   ? "NVML (the whole board, idle power included)"
                   : "RAPL (the CPU packages, idle power and other processes included)");
    if (timed)
        fmt_append(buf, size, "over its timed samples at %d point%s%s", timed,
                   timed == 1 ? "" : "s", apart ? " and " : "");
    if (apart)
        fmt_append(buf, size,
                   "over a run of untimed steps of the same work, measured apart from the "
                   "timing because the timed samples spanned too little, at %d point%s",
                   apart, apart == 1 ? "" : "s");
    fmt_append(buf, size, ";");
}

void prose_energy(const results *r, wl_mode m, char *buf, size_t size)
{
    const char *base = q_base_id(r);
    int d, with = 0;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++)
        with += q_has_energy(r, r->devices[d].id, m);
    if (with == 0)
        return;
    fmt_append(buf, size,
               "Energy per step is a device's energy counter's advance over a run of steps "
               "divided by their number, kept only where the run spanned at least %.0f s:",
               TEL_MIN_ENERGY_SPAN);
    for (d = 0; d < r->ndevices; d++)
        if (q_has_energy(r, r->devices[d].id, m))
            energy_method(r, r->devices[d].id, m, buf, size);
    buf[strlen(buf) - 1] = '.';
    if (!q_has_energy(r, base, m)) {
        fmt_append(buf, size,
                   " %s has no energy figures (its counters were not readable), "
                   "so energy is not compared with it.",
                   base);
        return;
    }
    for (d = 0; d < r->ndevices; d++)
        if (strcmp(r->devices[d].id, base) != 0 && q_has_energy(r, r->devices[d].id, m))
            energy_pair(r, base, r->devices[d].id, m, buf, size);
}

/* Ranges of one telemetry value over the points of a device. */
typedef struct tel_range {
    int n;
    double lo, hi;
} tel_range;

static void widen(tel_range *g, const int has[2], const double v[2])
{
    int k;
    for (k = 0; k < 2; k++)
        if (has[k]) {
            if (g->n == 0 || v[k] < g->lo)
                g->lo = v[k];
            if (g->n == 0 || v[k] > g->hi)
                g->hi = v[k];
            g->n++;
        }
}

static void put_range(char *buf, size_t size, const char *what, const tel_range *g,
                      const char *unit, int *first)
{
    char lo[32], hi[32];
    if (g->n == 0)
        return;
    fmt_sig(lo, sizeof lo, g->lo, 3);
    fmt_sig(hi, sizeof hi, g->hi, 3);
    if (strcmp(lo, hi) == 0)
        fmt_append(buf, size, "%s%s %s %s", *first ? "" : ", ", what, lo, unit);
    else
        fmt_append(buf, size, "%s%s %s–%s %s", *first ? "" : ", ", what, lo, hi, unit);
    *first = 0;
}

void prose_telemetry(const results *r, char *buf, size_t size)
{
    int d, i;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        tel_range sm = {0, 0, 0}, mem = {0, 0, 0}, pw = {0, 0, 0}, tc = {0, 0, 0};
        int n = 0, energy = 0, throttled = 0, first = 1;
        unsigned long long reasons = 0;
        tel_kind kind = TEL_NONE;
        char words[256];
        for (i = 0; i < r->npoints; i++) {
            const tel_point *t = &r->points[i].tel;
            if (strcmp(r->points[i].device, id) != 0 || t->kind == TEL_NONE)
                continue;
            kind = t->kind;
            n++;
            energy += q_energy(&r->points[i]) >= 0.0;
            if (t->throttled) {
                throttled++;
                reasons |= (t->throttle[0] | t->throttle[1]) & TEL_THROTTLING_MASK;
            }
            widen(&sm, t->has_sm, t->sm_mhz);
            widen(&mem, t->has_mem, t->mem_mhz);
            widen(&pw, t->has_power, t->power_w);
            widen(&tc, t->has_temp, t->temp_c);
        }
        if (n == 0)
            continue;
        fmt_append(buf, size,
                   "%s%s (%s, read before and after the timed samples of %d "
                   "point%s)",
                   buf[0] ? " " : "Telemetry: ", id, kind == TEL_NVML ? "NVML" : "RAPL", n,
                   n == 1 ? "" : "s");
        if (sm.n + mem.n + pw.n + tc.n > 0)
            fmt_append(buf, size, ": ");
        put_range(buf, size, "SM clock", &sm, "MHz", &first);
        put_range(buf, size, "memory clock", &mem, "MHz", &first);
        put_range(buf, size, "power", &pw, "W", &first);
        put_range(buf, size, "temperature", &tc, "°C", &first);
        fmt_append(buf, size, "; energy at %d of them", energy);
        if (throttled) {
            tel_throttle_words(reasons, words, sizeof words);
            fmt_append(buf, size, "; %d measured while throttled (%s), marked † in the tables",
                       throttled, words);
        } else if (kind == TEL_NVML) {
            fmt_append(buf, size, "; none measured while throttled");
        }
        fmt_append(buf, size, ".");
    }
}
