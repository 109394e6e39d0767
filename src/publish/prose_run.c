/*
 * prose_run.c — a run as a whole in words (see prose.h): the conclusion
 * (which device to use, and from what size on), the method, the answer
 * of the archive and the feed, the lead of a run of one device, and the
 * headline and title of its page and feed item.
 */
#include "prose_impl.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "netfit.h"
#include "query.h"
#include "workload.h"

/* "P" of "partial": the first letter of an ASCII phrase in capitals. */
static char toupper_first(const char *s)
{
    return *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
}

void prose_conclusion(const results *r, const findings *F, wl_mode m, char *buf, size_t size)
{
    int bd = q_base(r), d;
    const char *base = q_base_id(r), *mode = workload_mode_name(m);
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        const finding *f = prose_time_finding(F, id, m, FIT_RESIDENT);
        const finding *t = prose_time_finding(F, id, m, FIT_TRANSFER);
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
    best = prose_peak_point(r, NULL, -1);
    fmt_append(buf, size,
               "Only %s (%s, %s) was measured, so there is no other device to "
               "compare it with and no crossover.",
               r->devices[0].id, r->devices[0].type[0] ? r->devices[0].type : "unknown type",
               r->devices[0].name[0] ? r->devices[0].name : "unnamed");
    if (best) {
        prose_throughput_text(best, peak, sizeof peak);
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
        const rs_point *best = prose_peak_point(r, NULL, -1);
        if (r->ndevices == 1 && best) {
            device_short(r, r->devices[0].id, other, sizeof other);
            prose_throughput_text(best, ci, sizeof ci);
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
