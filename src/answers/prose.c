/*
 * prose.c — the report's sentences (see prose.h): the paragraph under
 * each chart of a run.  The run as a whole in words (its conclusion,
 * method, answer and headline) is prose_run.c; its warnings prose_warn.c;
 * what they share prose_impl.h.
 */
#include "prose_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "query.h"
#include "telemetry.h"
#include "workload.h"

/* A paragraph compares at most this many devices (the charts' limit). */
#define PROSE_MAX_DEVICES 64

/* A sentence of the winner map's paragraph counts at most this many
 * widths: a longer one is hard to read at once (tests/prose_lint). */
#define WINNER_WIDTHS 3

/* The point of dev (NULL: any) in mode m (-1: any) whose throughput's
 * interval reaches highest (the largest lower end), or NULL: a peak a
 * reader may quote, so never one above its device's peak (q_beyond_peak). */
const rs_point *prose_peak_point(const results *r, const char *dev, int m)
{
    const rs_point *best = NULL;
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if ((dev && strcmp(p->device, dev) != 0) || (m >= 0 && (int)p->mode != m) || !q_ok(p) ||
            q_beyond_peak(r, p))
            continue;
        /* the table's best: its median, as history.html plots it */
        if (!best ||
            results_gflops(p, p->resident.median) > results_gflops(best, best->resident.median))
            best = p;
    }
    return best;
}

/* "28.6 TFLOP/s (95% CI 28.5–28.7 TFLOP/s)": a point's measured
 * throughput with the interval of its median. */
void prose_throughput_text(const rs_point *p, char *buf, size_t size)
{
    char g[32], range[64];
    fmt_si(g, sizeof g, results_gflops(p, p->resident.median) * 1e9, 3, "FLOP/s");
    fmt_si_range(range, sizeof range, results_gflops(p, p->resident.ci_hi) * 1e9,
                 results_gflops(p, p->resident.ci_lo) * 1e9);
    snprintf(buf, size, "%s (95%% CI %sFLOP/s)", g, range);
}

/* " In inference that is 43% of the 66.9 TFLOP/s fp32 peak of NVIDIA H100
 * 80GB HBM3 (132 compute units × …)." after a quoted best point of mode
 * m, where its device (name) has a known peak (devinfo_peak): a sentence
 * of its own, naming mode and device so that it comes back nowhere. */
static void peak_share(const results *r, const rs_point *best, wl_mode m, const char *name,
                       char *buf, size_t size)
{
    const device_info *d = results_device(r, best->device);
    double peak;
    char g[32], how[160];
    if (!d || !devinfo_peak(d, &peak, how, sizeof how))
        return;
    fmt_si(g, sizeof g, peak, 3, "FLOP/s");
    fmt_append(buf, size, " In %s that is %.0f%% of the %s fp32 peak of %s (%s).",
               workload_mode_name(m),
               100.0 * results_gflops(best, best->resident.median) * 1e9 / peak, g, name, how);
}

void prose_throughput(const results *r, wl_mode m, char *buf, size_t size)
{
    int d;
    buf[0] = '\0';
    /* never "measured" beside a made-up figure (q_synthetic) */
    fmt_append(buf, size,
               "Throughput of the whole stack in %s against the work per layer, log–log; "
               "higher is faster, and %s.",
               workload_mode_name(m),
               q_caveats(r) & Q_CAVEAT_SYNTHETIC
                   ? "every throughput quoted here was measured but the synthetic ones"
                   : "every throughput quoted here was measured");
    for (d = 0; d < r->ndevices; d++) {
        const rs_point *best = prose_peak_point(r, r->devices[d].id, (int)m);
        char g[96], name[256];
        if (!best)
            continue;
        prose_throughput_text(best, g, sizeof g);
        q_device_name(r, r->devices[d].id, name, sizeof name);
        fmt_append(buf, size, " %s reaches %s at hidden %d, batch %d.", name, g, best->hidden,
                   best->batch);
        peak_share(r, best, m, name, buf, size);
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
        char name[256];
        q_device_name(r, dev, name, sizeof name);
        for (i = 0, k = 0; i < fs->nmodels; i++) {
            const fit_model *x = &fs->models[i];
            if (x->hidden == 0 || x->mode != m || x->view != FIT_RESIDENT || !x->ok ||
                strcmp(x->device, dev) != 0)
                continue;
            /* the method once, then a sentence per device: each reads
             * in one breath */
            if (!any++)
                fmt_append(buf, size,
                           " How well t = t0 + f/P fits in %s is the RMS of its relative error, "
                           "per hidden width and over all widths at once.",
                           workload_mode_name(m));
            fmt_append(buf, size, "%s%s%s%.1f%% at %d%s", k ? ", " : " For ", k ? "" : name,
                       k ? "" : ": ", 100.0 * x->rms_rel, x->hidden, x->poor ? " (poor)" : "");
            k++;
        }
        if (g && g->ok && k)
            fmt_append(buf, size, "; %.0f%%%s over all widths", 100.0 * g->rms_rel,
                       g->poor ? " (poor)" : "");
        if (k)
            fmt_append(buf, size, ".");
    }
    if (any)
        fmt_append(buf, size,
                   " A poor model of %s (over %.0f%%) is neither drawn nor the basis "
                   "of any statement.",
                   workload_mode_name(m), 100.0 * FIT_POOR_RMS);
}

/* The finding of other against the base in mode m, view v, time. */
const finding *prose_time_finding(const findings *F, const char *other, wl_mode m, fit_view v)
{
    return findings_get(F, other, m, v, 0);
}

/* The sentences of device other in the speed-ratio chart's paragraph:
 * what the chart adds to the lead, the size of the advantage (its extremes,
 * with their intervals, a sentence each) and where it is with transfers
 * counted (its count, then each width in a sentence of its own). */
static void ratio_of(const results *r, const findings *F, wl_mode m, const char *other, char *buf,
                     size_t size)
{
    const finding *f = prose_time_finding(F, other, m, FIT_RESIDENT);
    const finding *t = prose_time_finding(F, other, m, FIT_TRANSFER);
    char name[256], base[256], lo[160], hi[160], shapes[96], widths[2048], lead[64];
    if (!q_has_mode(r, other, m))
        return;
    q_device_name(r, other, name, sizeof name);
    /* against its own base, which the chart draws it against */
    q_device_name(r, q_base_id_for(r, other), base, sizeof base);
    if (!f || f->verdict == FIND_UNKNOWN) {
        fmt_append(buf, size, " %s has no shape measured on both it and %s.", name, base);
        return;
    }
    findings_extreme_text(f, 1, hi, sizeof hi);
    findings_extreme_text(f, 0, lo, sizeof lo);
    if (f->best_hidden == f->worst_hidden && f->best_batch == f->worst_batch)
        /* one shape, or every median alike: no range to speak of */
        fmt_append(buf, size, " The speed of %s is %s.", name, lo);
    else if (q_single_base(r))
        fmt_append(buf, size, " The speed of %s is at worst %s. It is at best %s.", name, lo, hi);
    else
        fmt_append(buf, size, " The speed of %s against %s is at worst %s. It is at best %s.", name,
                   base, lo, hi);
    if (t && t->verdict != FIND_UNKNOWN) {
        findings_shapes_text(t, shapes, sizeof shapes);
        fmt_append(buf, size, " With transfers counted, %s is faster in %s %s.", name,
                   workload_mode_name(m), shapes);
        snprintf(lead, sizeof lead, "With transfers counted in %s", workload_mode_name(m));
        findings_widths_sentences(t, lead, name, widths, sizeof widths);
        if (t->verdict == FIND_SOME && widths[0])
            fmt_append(buf, size, " %s", widths);
    }
}

/* The sentences of device other in the winner map's paragraph: the count
 * of batches it wins at each width by the medians, which the map shows
 * cell by cell (whether each is settled is the lead's to say), at most
 * WINNER_WIDTHS widths a sentence. */
static void winner_of(const results *r, const findings *F, wl_mode m, const char *other, char *buf,
                      size_t size)
{
    const finding *f = prose_time_finding(F, other, m, FIT_RESIDENT);
    char name[256];
    int k, said = 0;
    if (!f || f->verdict == FIND_UNKNOWN)
        return;
    q_device_name(r, other, name, sizeof name);
    for (k = f->nwidths - 1; k >= 0; k--) {
        if (f->width[k].nshapes == 0)
            continue;
        if (said % WINNER_WIDTHS == 0)
            fmt_append(buf, size, "%s %s, %s wins in %s at %d of %d batches at hidden %d",
                       said ? "." : "", said ? "By the medians" : "Per width, by the medians", name,
                       workload_mode_name(m), f->width[k].nwins, f->width[k].nshapes,
                       f->width[k].hidden);
        else
            fmt_append(buf, size, ", %d of %d at hidden %d", f->width[k].nwins, f->width[k].nshapes,
                       f->width[k].hidden);
        said++;
    }
    if (said)
        fmt_append(buf, size, ".");
}

/* The paragraph of a chart of the devices against their base: lead (a
 * format naming the base, or several where devices have bases of their
 * own), then the sentence of each other device. */
static void against_base(const results *r, const findings *F, wl_mode m, const char *lead,
                         const char *several,
                         void (*sentence)(const results *, const findings *, wl_mode, const char *,
                                          char *, size_t),
                         char *buf, size_t size)
{
    int bd = q_base(r), d;
    char base[256];
    buf[0] = '\0';
    if (q_single_base(r))
        q_device_name(r, q_base_id(r), base, sizeof base);
    else
        snprintf(base, sizeof base, "%s", several);
    fmt_append(buf, size, lead, workload_mode_name(m), base);
    for (d = 0; d < r->ndevices; d++)
        if (d != bd)
            sentence(r, F, m, r->devices[d].id, buf, size);
}

void prose_ratio(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    against_base(r, F, m,
                 "Speed of each device in %s relative to %s (its time divided by theirs); "
                 "above 1 the other device is faster.",
                 "its own stack's CPU", ratio_of, buf, size);
}

void prose_winner(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    against_base(r, F, m,
                 "Which device wins at each hidden width and batch size in %s: blue cells "
                 "are faster than %s, vermillion ones slower, the number is the speed ratio.",
                 "the base named over its panel", winner_of, buf, size);
}

/* The money of the cost chart's paragraph: each priced device's one
 * figure, its cost per million samples in USD, at the largest of the
 * shapes done[0..n) (by FLOPs), a sentence each. */
static void cost_in_usd(const results *r, wl_mode m, const int *use, const q_shape *done, int n,
                        char *buf, size_t size)
{
    int i, d, k = 0, said = 0;
    char per[48], price[48], name[256];
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
                       "of %s), ",
                       done[k].hidden, done[k].batch, n == 1 ? "it" : "these shapes");
        else
            fmt_append(buf, size, " At that shape, ");
        q_device_name(r, id, name, sizeof name);
        fmt_append(buf, size, "%s at %s per hour costs %s per million samples.", name, price, per);
    }
}

void prose_relative(const results *r, const findings *F, wl_mode m, int cost, char *buf,
                    size_t size)
{
    int bd = q_base(r), d, n, use[PROSE_MAX_DEVICES];
    const char *base = q_base_id(r);
    double pb = cost ? q_price(&r->prices, base) : 1.0, tb;
    char bname[256], name[256], x[64];
    q_shape done[Q_MAX_SHAPES];

    buf[0] = '\0';
    if (r->ndevices > PROSE_MAX_DEVICES || r->ndevices == 0)
        return;
    q_device_name(r, base, bname, sizeof bname);
    fmt_append(buf, size,
               cost ? "Cost of a step in %s relative to %s (time \xc3\x97 price per hour); "
                      "lower is cheaper."
                    : "Time of a step in %s relative to %s; lower is better.",
               workload_mode_name(m), bname);
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
                   bname, n, n == 1 ? "" : "s");
        return;
    }
    if (n == 1)
        fmt_append(buf, size,
                   " Each bar is a device's %s at the one shape every device completed in %s.",
                   cost ? "cost" : "time", workload_mode_name(m));
    else
        fmt_append(buf, size,
                   " Each bar sums a device's %s over the %d shapes every device "
                   "completed in %s.",
                   cost ? "costs" : "times", n, workload_mode_name(m));
    /* a device's sentences name its mode: the other mode's paragraph may
     * have the same figures, and no sentence comes back on a page */
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        const finding *f = findings_get(F, id, m, FIT_RESIDENT, cost);
        if (d == bd || !q_has_mode(r, id, m))
            continue;
        q_device_name(r, id, name, sizeof name);
        if (!use[d]) {
            fmt_append(buf, size, " In %s, %s has no price.", workload_mode_name(m), name);
            continue;
        }
        /* one direction only: each device relative to the base */
        fmt_times(x, sizeof x,
                  q_total(r, id, m, done, n, FIT_RESIDENT, NULL) / tb *
                      (cost ? q_price(&r->prices, id) / pb : 1.0));
        fmt_append(buf, size, " In %s, %s %s %s %s of %s.", workload_mode_name(m), name,
                   cost ? "costs" : "takes", x, cost ? "the cost" : "the time", bname);
        if (f && f->verdict != FIND_UNKNOWN) {
            char shapes[96], fb[256], than[270] = "";
            findings_shapes_text(f, shapes, sizeof shapes);
            /* the count is of its finding, which may be against another base */
            if (strcmp(f->c->base, base) != 0) {
                q_device_name(r, f->c->base, fb, sizeof fb);
                snprintf(than, sizeof than, " than %s", fb);
            }
            fmt_append(buf, size, " In %s, %s is %s%s %s.", workload_mode_name(m), name,
                       cost ? "cheaper per step" : "faster", than, shapes);
        }
    }
    if (!q_single_base(r))
        fmt_append(buf, size, " Here every device is set against %s, not its own stack's CPU.",
                   bname);
    if (cost)
        cost_in_usd(r, m, use, done, n, buf, size);
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

/* other against base in energy at one example shape, then per hidden
 * width, a sentence each; the devices by name (q_device_name). */
static void energy_pair(const results *r, const char *base, const char *other, wl_mode m, char *buf,
                        size_t size)
{
    q_shape at;
    q_grid g;
    fit_hidden_cross h;
    int n, i;
    char eo[32], eb[32], xo[32], xb[32], on[256], bn[256];
    const rs_point *po, *pb;

    if (!energy_example(r, base, other, m, &at, &n))
        return;
    q_device_name(r, other, on, sizeof on);
    q_device_name(r, base, bn, sizeof bn);
    po = q_point(r, other, m, at.hidden, at.batch);
    pb = q_point(r, base, m, at.hidden, at.batch);
    fmt_si(eo, sizeof eo, q_energy(po), 3, "J");
    fmt_si(eb, sizeof eb, q_energy(pb), 3, "J");
    fmt_si(xo, sizeof xo, q_energy(po) / at.batch, 3, "J");
    fmt_si(xb, sizeof xb, q_energy(pb) / at.batch, 3, "J");
    fmt_append(buf, size,
               "%sAt hidden %d batch %d, %s uses %s per step (%s per sample of the batch), "
               "%s %s (%s per sample); %d shape%s ha%s energy figures for both.",
               buf[0] ? " " : "", at.hidden, at.batch, on, eo, xo, bn, eb, xb, n, n == 1 ? "" : "s",
               n == 1 ? "s" : "ve");
    q_grid_make(r, m, &g);
    for (i = g.nh - 1; i >= 0; i--) {
        if (q_energy_cross(r, base, other, m, g.h[i], &h) == 0)
            continue;
        switch (h.kind) {
        case CROSS_IN_RANGE:
            fmt_append(buf, size,
                       " By energy per step at hidden %d, %s uses less than %s from batch %.0f.",
                       g.h[i], on, bn, ceil(h.batch - 1e-9));
            break;
        case CROSS_ALWAYS:
            fmt_append(buf, size,
                       " By energy per step at hidden %d, %s uses less than %s at every batch "
                       "measured.",
                       g.h[i], on, bn);
            break;
        default:
            fmt_append(buf, size,
                       " By energy per step at hidden %d, %s never uses less than %s in the "
                       "batches measured.",
                       g.h[i], on, bn);
            break;
        }
    }
}

/* How dev's energy figures of mode m were measured, as the method was, and
 * what one of them covers: " NVIDIA H100 80GB HBM3 was read by NVML (the
 * whole board, idle power included): over its timed samples at 3 points,
 * and at 32 over a run of untimed steps of the same work, as the samples
 * spanned too little.  At hidden 2048, batch 1024 its counter read 640 J
 * over 2 s, 319 W on average: 842 mJ a step of 2.64 ms, transfers
 * included."  The last from its point of the most work, so that a reader
 * can check the figure against the telemetry's power. */
static void energy_method(const results *r, const char *dev, wl_mode m, int again, char *buf,
                          size_t size)
{
    int i, timed = 0, apart = 0;
    tel_kind kind = TEL_NONE;
    const rs_point *big = NULL;
    char name[256], who[300], j[32], span[32], step[32], e[32];
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
        if (p->tel.energy_span_s > 0.0 &&
            (!big || workload_flops_per_layer(m, p->hidden, p->batch) >
                         workload_flops_per_layer(m, big->hidden, big->batch)))
            big = p;
    }
    q_device_name(r, dev, name, sizeof name);
    /* how, once a page: training's paragraph refers to inference's */
    if (!again) {
        fmt_append(buf, size, " %s was read by %s: ", name,
                   kind == TEL_NVML
                       ? "NVML (the whole board, idle power included)"
                       : "RAPL (the CPU packages, idle power and other processes included)");
        if (timed)
            fmt_append(buf, size, "over its timed samples at %d point%s%s", timed,
                       timed == 1 ? "" : "s", apart ? ", and " : "");
        if (apart)
            fmt_append(buf, size,
                       "at %d%s over a run of untimed steps of the same work, as the timed samples "
                       "spanned too little",
                       apart,
                       timed        ? ""
                       : apart == 1 ? " point"
                                    : " points");
        fmt_append(buf, size, ".");
    }
    if (!big)
        return;
    fmt_si(j, sizeof j, big->tel.energy_j, 3, "J");
    fmt_time(span, sizeof span, big->tel.energy_span_s);
    fmt_time(step, sizeof step, big->tel.energy_span_s / big->tel.energy_samples);
    fmt_si(e, sizeof e, q_energy(big), 3, "J");
    if (again)
        snprintf(who, sizeof who, "the counter of %s", name);
    else
        snprintf(who, sizeof who, "its counter");
    fmt_append(buf, size,
               " At hidden %d, batch %d %s read %s over %s, %.0f W on average: %s a step of "
               "%s%s.",
               big->hidden, big->batch, who, j, span, big->tel.energy_j / big->tel.energy_span_s, e,
               step, big->has_transfer ? ", transfers included" : "");
}

/* Why base has no energy figures and what that leaves: never a guessed
 * figure for it, the other devices' own (with of them). */
static void no_base_energy(const results *r, const char *base, int with, char *buf, size_t size)
{
    const char *why = q_energy_none(r, base);
    const char *alone = with == 1 ? "the other device's alone" : "the other devices' alone";
    char name[256];
    q_device_name(r, base, name, sizeof name);
    if (why && strcmp(why, "absent") == 0)
        fmt_append(buf, size,
                   " %s has no energy figures: this host exposes no RAPL counter (no package "
                   "domain in /sys/class/powercap, as in most virtual machines). So no energy "
                   "crossover can be stated; the energy figures are %s.",
                   name, alone);
    else if (why && strcmp(why, "root-only") == 0)
        fmt_append(buf, size,
                   " %s has no energy figures: its RAPL counters are readable by root only (run "
                   "as root, or make /sys/class/powercap/intel-rapl:*/energy_uj readable). So "
                   "no energy crossover can be stated; the energy figures are %s.",
                   name, alone);
    else
        fmt_append(buf, size,
                   " %s has no energy figures (its counters were not readable), "
                   "so energy is not compared with it.",
                   name);
}

void prose_energy(const results *r, wl_mode m, char *buf, size_t size)
{
    const char *base = q_base_id(r);
    /* training after inference on the same page: the method is said once */
    const int again = m == WL_TRAINING && q_has_energy(r, NULL, WL_INFERENCE);
    int d, with = 0;
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++)
        with += q_has_energy(r, r->devices[d].id, m);
    if (with == 0)
        return;
    if (again)
        fmt_append(buf, size, "Energy per step in %s was read as in inference.",
                   workload_mode_name(m));
    else
        fmt_append(buf, size,
                   "Energy per step in %s is an energy counter's advance over a run of whole "
                   "steps, divided by their number; only runs of at least %.0f s count. A step's "
                   "transfers are part of it where a device has them.",
                   workload_mode_name(m), TEL_MIN_ENERGY_SPAN);
    for (d = 0; d < r->ndevices; d++)
        if (q_has_energy(r, r->devices[d].id, m))
            energy_method(r, r->devices[d].id, m, again, buf, size);
    if (!q_has_energy(r, base, m)) {
        if (!again)
            no_base_energy(r, base, with, buf, size);
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
        char words[256], name[256];
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
        q_device_name(r, id, name, sizeof name);
        fmt_append(buf, size,
                   "%s%s (%s, read before and after the timed samples of %d "
                   "point%s)",
                   buf[0] ? " " : "Telemetry: ", name, kind == TEL_NVML ? "NVML" : "RAPL", n,
                   n == 1 ? "" : "s");
        if (sm.n + mem.n + pw.n + tc.n > 0)
            fmt_append(buf, size, ": ");
        put_range(buf, size, "SM clock", &sm, "MHz", &first);
        put_range(buf, size, "memory clock", &mem, "MHz", &first);
        put_range(buf, size, "power", &pw, "W", &first);
        put_range(buf, size, "temperature", &tc, "°C", &first);
        /* the readings, then what they found, apart: a sentence a reader
         * takes in at once */
        fmt_append(buf, size, ". Energy was read at %d of them", energy);
        if (throttled) {
            tel_throttle_words(reasons, words, sizeof words);
            fmt_append(buf, size, "; %d %s measured while throttled (%s), marked † in the tables",
                       throttled, throttled == 1 ? "was" : "were", words);
        } else if (kind == TEL_NVML) {
            fmt_append(buf, size, "; none was measured while throttled");
        }
        fmt_append(buf, size, ".");
    }
}
