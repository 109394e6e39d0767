/*
 * prose.c — the report's sentences (see prose.h).
 */
#include "prose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "query.h"
#include "telemetry.h"
#include "workload.h"

/* A paragraph compares at most this many devices (the charts' limit). */
#define PROSE_MAX_DEVICES 64

void prose_throughput(const results *r, wl_mode m, char *buf, size_t size)
{
    int d, i;
    buf[0] = '\0';
    fmt_append(buf, size,
               "Throughput of the whole stack against the work per layer, log–log; "
               "higher is faster.");
    for (d = 0; d < r->ndevices; d++) {
        const rs_point *best = NULL;
        const fit_model *fm;
        char g[32], f[32];
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (p->mode != m || strcmp(p->device, r->devices[d].id) != 0 || !q_ok(p))
                continue;
            if (!best || results_gflops(p, p->resident.median) >
                             results_gflops(best, best->resident.median))
                best = p;
        }
        if (!best)
            continue;
        fmt_si(g, sizeof g, results_gflops(best, best->resident.median) * 1e9, 3, "FLOP/s");
        fmt_append(buf, size, " %s peaks at %s (hidden %d, batch %d)", r->devices[d].id, g,
                   best->hidden, best->batch);
        fm = q_model(q_fit(r), r->devices[d].id, m, FIT_RESIDENT);
        if (fm && fm->ok) {
            fmt_si(g, sizeof g, fm->P, 3, "FLOP/s");
            fmt_si(f, sizeof f, fm->half_size, 3, "FLOP");
            fmt_append(buf, size,
                       "; the fit puts its throughput at %s per layer-step and reaches "
                       "half of it at %s per layer",
                       g, f);
        }
        fmt_append(buf, size, ".");
    }
}

/* The measured speed ratio of other against base at every shared shape. */
typedef struct ratio_scan {
    int n, nwin;
    double lo, hi;
    const rs_point *at_hi;
} ratio_scan;

static void scan_ratio(const results *r, const char *base, const char *other, wl_mode m,
                       ratio_scan *s)
{
    int i;
    memset(s, 0, sizeof *s);
    s->lo = INFINITY;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *po = &r->points[i], *pb;
        double q;
        if (po->mode != m || strcmp(po->device, other) != 0 || !q_ok(po))
            continue;
        pb = q_point(r, base, m, po->hidden, po->batch);
        if (!q_ok(pb))
            continue;
        q = pb->resident.median / po->resident.median;
        s->n++;
        s->nwin += q > 1.0;
        s->lo = fmin(s->lo, q);
        if (q > s->hi) {
            s->hi = q;
            s->at_hi = po;
        }
    }
}

void prose_ratio(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r);
    buf[0] = '\0';
    fmt_append(buf, size, "Speed of each device relative to %s (its time divided by theirs); "
               "above 1 the other device is faster.", base);
    for (d = 0; d < r->ndevices; d++) {
        const char *other = r->devices[d].id;
        const fit_crossover *cr = q_cross(q_fit(r), base, other, m, FIT_RESIDENT, 0),
                            *ct = q_cross(q_fit(r), base, other, m, FIT_TRANSFER, 0);
        ratio_scan s;
        char a[32], b[32];
        if (d == bd)
            continue;
        scan_ratio(r, base, other, m, &s);
        if (s.n == 0) {
            fmt_append(buf, size, " %s has no shape measured on both it and %s.", other, base);
            continue;
        }
        if (s.nwin == 0)
            fmt_append(buf, size,
                       " %s never beat %s in the measured range (at best %.2f× its speed, "
                       "at hidden %d, batch %d).",
                       other, base, s.hi, s.at_hi->hidden, s.at_hi->batch);
        else if (s.nwin == s.n)
            fmt_append(buf, size, " %s beat %s at every measured shape (%.2f× to %.2f×).", other,
                       base, s.lo, s.hi);
        else
            fmt_append(buf, size,
                       " %s beat %s at %d of %d shapes, by up to %.2f× (hidden %d, batch %d).",
                       other, base, s.nwin, s.n, s.hi, s.at_hi->hidden, s.at_hi->batch);
        if (cr && ct && cr->kind <= CROSS_EXTRAPOLATED && ct->kind <= CROSS_EXTRAPOLATED) {
            fmt_si(a, sizeof a, cr->flops, 3, "FLOP");
            fmt_si(b, sizeof b, ct->flops, 3, "FLOP");
            fmt_append(buf, size, " With transfers counted the crossover moves from %s to %s "
                       "per layer.", a, b);
        } else if (cr && ct && cr->kind <= CROSS_EXTRAPOLATED && ct->kind == CROSS_NEVER) {
            fmt_si(a, sizeof a, cr->flops, 3, "FLOP");
            fmt_append(buf, size,
                       " Data resident it wins from about %s per layer; with transfers "
                       "counted it never does.",
                       a);
        }
    }
}

void prose_winner(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d, k;
    const char *base = q_base_id(r);
    buf[0] = '\0';
    fmt_append(buf, size, "Which device wins at each hidden width and batch size: blue cells "
               "are faster than %s, vermillion ones slower, the number is the speed ratio.", base);
    for (d = 0; d < r->ndevices; d++) {
        const fit_crossover *c = q_cross(q_fit(r), base, r->devices[d].id, m, FIT_RESIDENT, 0);
        ratio_scan s;
        if (d == bd)
            continue;
        scan_ratio(r, base, r->devices[d].id, m, &s);
        if (s.n)
            fmt_append(buf, size, " %s is faster in %d of %d cells.", r->devices[d].id, s.nwin,
                       s.n);
        if (!c)
            continue;
        for (k = 0; k < c->nhidden; k++)
            if (c->per_hidden[k].kind == CROSS_IN_RANGE)
                fmt_append(buf, size, " At hidden %d it takes over from batch %.0f.",
                           c->per_hidden[k].hidden, c->per_hidden[k].batch);
    }
}

/* The money of the cost chart's paragraph: each priced device's cost per
 * step and per million samples, in USD, at the largest of the shapes
 * done[0..n) (by FLOPs). */
static void cost_in_usd(const results *r, wl_mode m, const int *use, const q_shape *done, int n,
                        char *buf, size_t size)
{
    int i, d, k = 0, said = 0;
    char step[48], per[48], price[48];
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
        fmt_usd(step, sizeof step, c, 2);
        fmt_usd(per, sizeof per, c / done[k].batch * 1e6, 2);
        fmt_usd(price, sizeof price, usd_h, 3);
        if (!said++)
            fmt_append(buf, size, " In dollars, at hidden %d \xc3\x97 batch %d (the largest "
                       "of %s): ", done[k].hidden, done[k].batch,
                       n == 1 ? "it" : "these shapes");
        else
            fmt_append(buf, size, "; ");
        fmt_append(buf, size, "%s at %s per hour costs %s per step, %s per million samples",
                   id, price, step, per);
    }
    if (said)
        fmt_append(buf, size, ".");
}

void prose_relative(const results *r, wl_mode m, int cost, char *buf, size_t size)
{
    int bd = q_base(r), d, n, use[PROSE_MAX_DEVICES];
    const char *base = q_base_id(r);
    double pb = cost ? q_price(&r->prices, base) : 1.0, tb;
    q_shape done[Q_MAX_SHAPES];

    buf[0] = '\0';
    if (r->ndevices > PROSE_MAX_DEVICES || r->ndevices == 0)
        return;
    fmt_append(buf, size, cost ? "Cost of a step relative to %s (time \xc3\x97 price per hour); "
               "lower is cheaper." : "Time of a step relative to %s; lower is better.", base);
    /* the devices and shapes of the chart this paragraph goes with */
    q_compared(r, m, cost ? &r->prices : NULL, use);
    n = use[bd] ? q_completed(r, m, use, done, Q_MAX_SHAPES) : 0;
    if (n == 0) {
        fmt_append(buf, size, " No shape was completed by every device.");
        return;
    }
    tb = q_total(r, base, m, done, n, FIT_RESIDENT, NULL);
    if (r->ndevices == 1) {
        fmt_append(buf, size, " Only %s was measured, so its bar is the reference (1\xc3\x97) "
                   "over the %d shape%s it completed.", base, n, n == 1 ? "" : "s");
        return;
    }
    if (n == 1)
        fmt_append(buf, size, " At the one shape every device completed,");
    else
        fmt_append(buf, size, " Over the %d shapes every device completed,", n);
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        if (d == bd || !q_has_mode(r, id, m))
            continue;
        if (!use[d]) {
            fmt_append(buf, size, " %s has no price;", id);
            continue;
        }
        fmt_append(buf, size, " %s %s %.2f\xc3\x97 %s of %s;", id, cost ? "costs" : "takes",
                   q_total(r, id, m, done, n, FIT_RESIDENT, NULL) / tb *
                       (cost ? q_price(&r->prices, id) / pb : 1.0),
                   cost ? "the cost" : "the time", base);
    }
    buf[strlen(buf) - 1] = '.';
    if (cost)
        cost_in_usd(r, m, use, done, n, buf, size);
}

int prose_warnings(const results *r, char (*w)[PROSE_WARNING], int max)
{
    char buf[2048];
    int i, k, n = 0;
    rs_status st;
    if (r->partial && n < max)
        snprintf(w[n++], PROSE_WARNING, "This run did not finish (it was interrupted or "
                 "failed): the results are partial.");
    buf[0] = '\0';
    for (i = 0, k = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->status == PT_OK && (p->resident.drift || (p->has_transfer && p->transfer.drift)))
            fmt_append(buf, sizeof buf, "%s%s %s hidden %d batch %d (%+.0f%%)", k++ ? ", " : "",
                       p->device, workload_mode_name(p->mode), p->hidden, p->batch,
                       100.0 * (p->resident.drift_ratio - 1.0));
    }
    if (k && n < max)
        snprintf(w[n++], PROSE_WARNING, "Drift: %d point%s got slower while being measured "
                 "(thermal throttling or a busy neighbour), last third against first: %s.", k,
                 k == 1 ? "" : "s", buf);
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
                     st == PT_OUT_OF_MEMORY ? "Out of memory"
                     : st == PT_FAILED_VERIFICATION ? "Failed verification (never timed)"
                                                    : "Skipped after a device error",
                     k, k == 1 ? "" : "s", buf);
    }
    return n;
}

void prose_conclusion(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r);
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const fit_crossover *c = q_cross(q_fit(r), base, r->devices[d].id, m, FIT_RESIDENT, 0),
                            *t = q_cross(q_fit(r), base, r->devices[d].id, m, FIT_TRANSFER, 0);
        char f[32];
        if (d == bd || !c)
            continue;
        fmt_si(f, sizeof f, c->flops, 3, "FLOP");
        switch (c->kind) {
        case CROSS_IN_RANGE:
            fmt_append(buf, size,
                       "For %s on this machine, use %s below about %s per layer and %s "
                       "above it%s. ",
                       workload_mode_name(m), base, f, r->devices[d].id,
                       t && t->kind != CROSS_IN_RANGE ? ", as long as the data stay on the device"
                                                      : "");
            break;
        case CROSS_EXTRAPOLATED:
            fmt_append(buf, size, "For %s, %s is the better choice throughout the measured "
                       "range; the fit predicts %s would win from about %s per layer, beyond what "
                       "was measured. ", workload_mode_name(m), base, r->devices[d].id, f);
            break;
        case CROSS_NEVER:
            fmt_append(buf, size,
                       "For %s, stay on %s: %s did not beat it and its fitted throughput "
                       "is not higher. ",
                       workload_mode_name(m), base, r->devices[d].id);
            break;
        case CROSS_ALWAYS:
            fmt_append(buf, size, "For %s, %s is faster than %s at every size measured%s. ",
                       workload_mode_name(m), r->devices[d].id, base,
                       t && t->kind != CROSS_ALWAYS
                           ? " with the data resident; count the transfers "
                             "before moving small batches"
                           : "");
            break;
        default:
            fmt_append(buf, size, "For %s there is no verdict on %s against %s (see the charts). ",
                       workload_mode_name(m), r->devices[d].id, base);
            break;
        }
    }
    if (!buf[0])
        fmt_append(buf, size, "Only %s was measured for %s, so there is nothing to choose between.",
                   base, workload_mode_name(m));
}

void prose_setup(const results *r, char *buf, size_t size)
{
    const rs_prov *p = &r->prov;
    int total = 0, i;
    buf[0] = '\0';
    for (i = 0; i < r->npoints; i++)
        total += r->points[i].nsamples;
    fmt_append(buf, size, "Each point is a stack of %d dense layer%s y = ReLU(x·W + b) in fp32, "
               "verified against a double-precision host reference before it is timed, warmed "
               "up, then timed step by step", p->layers, p->layers == 1 ? "" : "s");
    if (r->npasses > 1)
        fmt_append(buf, size, " in %d passes, each in a freshly shuffled order,", r->npasses);
    fmt_append(buf, size, " until the 95%% confidence interval of the median was within ±2%% or "
               "its share of the %.0f s budget was spent (%d sample%s in all). Times are "
               "medians; the crossovers come from a weighted fit of t = t0 + f/P per device with "
               "a 95%% bootstrap interval; drift is a one-sided Mann–Whitney test of the last "
               "third of the samples against the first.",
               p->budget, total, total == 1 ? "" : "s");
}

void prose_answer(const results *r, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    for (i = 0; r->has_fit && i < r->fit.ncross; i++)
        if (r->fit.cross[i].view == FIT_RESIDENT && !r->fit.cross[i].cost) {
            snprintf(buf, size, "%s", r->fit.cross[i].sentence);
            return;
        }
    if (r->ndevices == 1) {
        prose_alone(r, buf, size);
        return;
    }
    snprintf(buf, size, "%d point%s measured on %d device%s.", r->npoints,
             r->npoints == 1 ? "" : "s", r->ndevices, r->ndevices == 1 ? "" : "s");
}

void prose_alone(const results *r, char *buf, size_t size)
{
    const rs_point *best = NULL;
    char peak[48];
    int i, n = 0;
    buf[0] = '\0';
    if (r->ndevices != 1)
        return;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (!q_ok(p))
            continue;
        n++;
        if (!best || results_gflops(p, p->resident.median) >
                         results_gflops(best, best->resident.median))
            best = p;
    }
    fmt_append(buf, size, "Only %s (%s, %s) was measured, so there is no other device to "
               "compare it with and no crossover.", r->devices[0].id,
               r->devices[0].type[0] ? r->devices[0].type : "unknown type",
               r->devices[0].name[0] ? r->devices[0].name : "unnamed");
    if (best) {
        fmt_si(peak, sizeof peak, results_gflops(best, best->resident.median) * 1e9, 3, "FLOP/s");
        fmt_append(buf, size, " It peaks at %s (%s, hidden %d, batch %d) over the %d point%s "
                   "it measured.", peak, workload_mode_name(best->mode), best->hidden,
                   best->batch, n, n == 1 ? "" : "s");
    }
}

void prose_title(const char *title, const results *r, char *buf, size_t size)
{
    if (title && *title)
        snprintf(buf, size, "%s", title);
    else
        snprintf(buf, size, "CPU or GPU? Dense layers on %s", r->prov.host);
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
static void energy_pair(const results *r, const char *base, const char *other, wl_mode m,
                        char *buf, size_t size)
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
            fmt_append(buf, size, "%s uses less than %s from batch %.0f at hidden %d", other,
                       base, ceil(h.batch - 1e-9), g.h[i]);
            break;
        case CROSS_ALWAYS:
            fmt_append(buf, size, "%s uses less than %s at every batch measured at hidden %d",
                       other, base, g.h[i]);
            break;
        default:
            fmt_append(buf, size, "%s never uses less than %s in the batches measured at "
                       "hidden %d", other, base, g.h[i]);
            break;
        }
        said = 1;
    }
    if (said)
        fmt_append(buf, size, ".");
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
    fmt_append(buf, size, "Energy per step is the energy counter's advance over the timed "
               "samples of a point divided by their number (NVML for NVIDIA GPUs, RAPL for "
               "the CPU's packages: the whole device, idle power included).");
    if (!q_has_energy(r, base, m)) {
        fmt_append(buf, size, " %s has no energy figures (its counters were not readable), "
                   "so energy is not compared with it.", base);
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
        fmt_append(buf, size, "%s%s (%s, read before and after the timed samples of %d "
                   "point%s)", buf[0] ? " " : "Telemetry: ", id,
                   kind == TEL_NVML ? "NVML" : "RAPL", n, n == 1 ? "" : "s");
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
