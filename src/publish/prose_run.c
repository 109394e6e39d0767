/*
 * prose_run.c — a run as a whole in words (see prose.h): the conclusions
 * (one fact each, from the findings), the method, the answer of the
 * archive and the feed and the summary of link previews, the lead of a run
 * of one device, and the headline and title of its page and feed item (at
 * most PROSE_TITLE_MAX characters).
 */
#include "prose_impl.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "netfit.h"
#include "query.h"
#include "workload.h"

static const finding *headline_finding(const findings *F);
static size_t chars(const char *s);

/* "P" of "partial": the first letter of an ASCII phrase in capitals. */
static char toupper_first(const char *s)
{
    return *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
}

int prose_conclusions(const results *r, const findings *F, wl_mode m, char (*b)[PROSE_BULLET],
                      int max)
{
    int bd = q_base(r), d, n = 0;
    const char *mode = workload_mode_name(m);
    char name[256], tp[96];
    for (d = 0; d < r->ndevices && n < max; d++) {
        const char *id = r->devices[d].id;
        const finding *f = prose_time_finding(F, id, m, FIT_RESIDENT);
        const finding *t = prose_time_finding(F, id, m, FIT_TRANSFER);
        const finding *c = findings_get(F, id, m, FIT_RESIDENT, 1);
        if (d == bd || !f)
            continue;
        /* a framework's CPU against the bare library's: what it costs */
        n += findings_overhead(f, r, b[n], PROSE_BULLET) ||
             findings_bullet(f, NULL, r, &r->prices, b[n], PROSE_BULLET);
        if (t && n < max)
            n += findings_bullet(t, f, r, &r->prices, b[n], PROSE_BULLET);
        if (c && n < max)
            n += findings_bullet(c, NULL, r, &r->prices, b[n], PROSE_BULLET);
    }
    if (n == 0 && n < max) { /* a run of networks: their answers */
        netfit_summary(r, m, b[n], PROSE_BULLET);
        n += b[n][0] != '\0';
    }
    /* each device's best, as the posts quote it */
    for (d = 0; d < r->ndevices && n < max; d++) {
        const rs_point *best = prose_peak_point(r, r->devices[d].id, (int)m);
        if (!best)
            continue;
        q_device_name(r, r->devices[d].id, name, sizeof name);
        prose_throughput_text(best, tp, sizeof tp);
        snprintf(b[n++], PROSE_BULLET, "In %s, %s peaks at %s at hidden %d, batch %d.", mode, name,
                 tp, best->hidden, best->batch);
    }
    return n;
}

void prose_setup(const results *r, char *buf, size_t size)
{
    const rs_prov *p = &r->prov;
    const char *net = NULL;
    int total = 0, i, square, nets, far, checked, near;
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
    near = q_run_far(r, &far, &checked);
    if (far > 0)
        fmt_append(buf, size,
                   "The host's CPUs were a cache apart around %d of the %d visits of devices "
                   "on them (a cache line's round trip between two of them over 2.5 times "
                   "the run's quickest); a point's medians leave those visits' samples out "
                   "only where at least half of its samples were near and the far ones' "
                   "median lay outside their interval (%d point%s). ",
                   far, checked, near, near == 1 ? "" : "s");
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

const finding *prose_lead_finding(const findings *F)
{
    const finding *f = headline_finding(F);
    int i;
    for (i = 0; !f && F && i < F->n; i++)
        if (F->f[i].c->view == FIT_RESIDENT && !F->f[i].c->cost)
            f = &F->f[i];
    return f;
}

void prose_answer(const results *r, const findings *F, char *buf, size_t size)
{
    const finding *f = prose_lead_finding(F);
    buf[0] = '\0';
    if (f) {
        if (!findings_lead_stacks(F, r, 2, buf, size))
            findings_lead(f, r, 1, buf, size);
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

void prose_summary(const results *r, const findings *F, char *buf, size_t size)
{
    prose_answer(r, F, buf, size);
    if (!buf[0] || chars(buf) > PROSE_SUMMARY_MAX)
        prose_headline(r, F, buf, size);
}

void prose_alone(const results *r, char *buf, size_t size)
{
    const rs_point *best;
    char peak[96], name[256];
    int i, n = 0;
    buf[0] = '\0';
    if (r->ndevices != 1)
        return;
    q_device_name(r, r->devices[0].id, name, sizeof name);
    for (i = 0; i < r->npoints; i++)
        n += q_ok(&r->points[i]);
    best = prose_peak_point(r, NULL, -1);
    fmt_append(buf, size,
               "Only %s was measured, so there is no other device to compare it with and no "
               "crossover.",
               name);
    if (best) {
        prose_throughput_text(best, peak, sizeof peak);
        fmt_append(buf, size,
                   " It peaks at %s (%s, hidden %d, batch %d) over the %d point%s "
                   "it measured.",
                   peak, workload_mode_name(best->mode), best->hidden, best->batch, n,
                   n == 1 ? "" : "s");
    }
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

/* The headline of a run of networks alone, as candidates from the most
 * said to the least (fit_title chooses): the first network's resident
 * answer in the first mode measured, "NVIDIA H100 beats OpenBLAS (16
 * threads) on 784-512-10 from batch 38 (95% CI 32–44) (inference, vm)"
 * down to "NVIDIA H100 wins on 784-512-10 from batch 38".  Returns how
 * many, 0 when there is none. */
#define TITLE_CANDIDATES 6
static int net_headline(const results *r, char (*t)[PROSE_TITLE_MAX * 4])
{
    const size_t size = sizeof t[0];
    const char *names[2];
    char other[300], base[300], how[160], ci[96];
    netfit_set s;
    const netfit_cross *c = NULL;
    int i, m, n = 0, nn = netfit_networks(r, names, 2);
    if (nn == 0 || netfit_run(r, r->prov.seed, 0, &s, NULL) < 0)
        return 0;
    for (m = WL_INFERENCE; m <= WL_TRAINING && !c; m++)
        for (i = 0; i < s.n && !c; i++)
            if ((int)s.c[i].mode == m && s.c[i].view == FIT_RESIDENT &&
                strcmp(s.c[i].net, names[0]) == 0 && s.c[i].x.kind != CROSS_UNKNOWN)
                c = &s.c[i];
    if (c) {
        const char *mode = workload_mode_name(c->mode), *more = nn > 1 ? " and others" : "";
        /* never ahead: the base wins, and the title says so */
        int never = c->x.kind == CROSS_NEVER;
        q_device_name(r, never ? c->base : c->other, other, sizeof other);
        q_device_name(r, never ? c->other : c->base, base, sizeof base);
        ci[0] = '\0';
        if (c->x.kind == CROSS_IN_RANGE) {
            snprintf(how, sizeof how, "from batch %.0f", c->x.batch);
            snprintf(ci, sizeof ci, " (95%% CI %s%.0f\xe2\x80\x93%.0f%s)",
                     c->x.lo_open ? "below " : "", c->x.lo, c->x.hi,
                     c->x.hi_open ? " or beyond" : "");
        } else {
            snprintf(how, sizeof how, "everywhere measured");
        }
        snprintf(t[n++], size, "%s beats %s on %s%s %s%s (%s, %s)", other, base, c->net, more, how,
                 ci, mode, q_machine_name(r));
        snprintf(t[n++], size, "%s beats %s on %s%s %s%s (%s)", other, base, c->net, more, how, ci,
                 mode);
        snprintf(t[n++], size, "%s beats %s on %s%s %s (%s)", other, base, c->net, more, how, mode);
        snprintf(t[n++], size, "%s beats %s on %s %s", other, base, c->net, how);
        snprintf(t[n++], size, "%s wins on %s %s (%s)", other, c->net, how, mode);
        snprintf(t[n++], size, "%s wins on %s %s", other, c->net, how);
    }
    netfit_free(&s);
    return n;
}

/* The characters of s[0..n), UTF-8 (its continuation bytes not counted). */
static size_t chars_n(const char *s, size_t n)
{
    size_t i, k = 0;
    for (i = 0; i < n && s[i]; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

static size_t chars(const char *s)
{
    return chars_n(s, strlen(s));
}

/* The first of the n candidates c[] (the most said first) that fits in
 * PROSE_TITLE_MAX characters after prefix, into buf; the last one cut to
 * fit, at a character's boundary, when none does. */
static void fit_title(const char *prefix, char (*c)[PROSE_TITLE_MAX * 4], int n, char *buf,
                      size_t size)
{
    size_t max;
    int i;
    for (i = 0; i < n; i++)
        if (chars(prefix) + chars(c[i]) <= PROSE_TITLE_MAX)
            break;
    snprintf(buf, size, "%s%s", prefix, c[i < n ? i : n - 1]);
    if (i < n)
        return;
    /* no candidate fits: cut, leaving room for the ellipsis */
    for (max = strlen(buf); max > 0 && chars_n(buf, max) > PROSE_TITLE_MAX - 1; max--)
        ;
    while (max > 0 && ((unsigned char)buf[max] & 0xC0) == 0x80)
        max--;
    snprintf(buf + max, size - max, "\xe2\x80\xa6");
}

void prose_headline(const results *r, const findings *F, char *buf, size_t size)
{
    const finding *f = headline_finding(F);
    char other[300], base[300], ci[96], part[64], prefix[80];
    char c[TITLE_CANDIDATES][PROSE_TITLE_MAX * 4];
    const char *mode, *host = q_machine_name(r);
    int i, n = 0;
    buf[0] = '\0';
    prefix[0] = '\0';
    prose_caveat_title(r, part, sizeof part);
    if (part[0])
        snprintf(prefix, sizeof prefix, "%c%s: ", toupper_first(part), part + 1);
    if (!f) {
        const rs_point *best = prose_peak_point(r, NULL, -1);
        if (r->ndevices == 1 && best) {
            q_device_name(r, r->devices[0].id, other, sizeof other);
            prose_throughput_text(best, ci, sizeof ci);
            snprintf(c[n++], sizeof c[0], "%s alone peaks at %s on %s", other, ci, host);
            fmt_si(ci, sizeof ci, results_gflops(best, best->resident.median) * 1e9, 3, "FLOP/s");
            snprintf(c[n++], sizeof c[0], "%s alone peaks at %s on %s", other, ci, host);
            snprintf(c[n++], sizeof c[0], "%s alone peaks at %s", other, ci);
        } else if (!(n = net_headline(r, c))) {
            char machine[300];
            q_machine_words(r, machine, sizeof machine);
            snprintf(c[n++], sizeof c[0], "Dense layers on %s: %d point%s, no verdict", machine,
                     r->npoints, r->npoints == 1 ? "" : "s");
        }
        fit_title(prefix, c, n, buf, size);
        return;
    }
    /* the answer in a line a link preview shows whole: the most it can
     * say in PROSE_TITLE_MAX characters, the rest is the lead's */
    mode = workload_mode_name(f->c->mode);
    q_device_name(r, f->c->other, other, sizeof other);
    q_device_name(r, f->c->base, base, sizeof base);
    switch (f->verdict) {
    case FIND_ALWAYS:
        snprintf(c[n++], sizeof c[0], "%s beats %s at every shape measured (%s, %s)", other, base,
                 mode, host);
        snprintf(c[n++], sizeof c[0], "%s beats %s everywhere measured (%s)", other, base, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured (%s)", other, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured", other);
        break;
    case FIND_NEVER:
        snprintf(c[n++], sizeof c[0], "%s beats %s at every shape measured (%s, %s)", base, other,
                 mode, host);
        snprintf(c[n++], sizeof c[0], "%s beats %s everywhere measured (%s)", base, other, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured (%s)", base, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured", base);
        break;
    default:
        /* the narrowest width that crosses in range: where the answer turns */
        ci[0] = '\0';
        for (i = 0; i < f->c->nhidden && !ci[0]; i++)
            if (f->c->per_hidden[i].kind == CROSS_IN_RANGE) {
                findings_from_text(f, i, part, sizeof part);
                snprintf(ci, sizeof ci, "%s at hidden %d", part, f->c->per_hidden[i].hidden);
            }
        if (ci[0]) {
            snprintf(c[n++], sizeof c[0], "%s beats %s %s (%s, %s)", other, base, ci, mode, host);
            snprintf(c[n++], sizeof c[0], "%s beats %s %s (%s)", other, base, ci, mode);
            snprintf(c[n++], sizeof c[0], "%s beats %s %s", other, base, ci);
            snprintf(c[n++], sizeof c[0], "%s wins %s (%s)", other, ci, mode);
            snprintf(c[n++], sizeof c[0], "%s wins %s", other, ci);
        } else {
            snprintf(c[n++], sizeof c[0], "%s beats %s at %d of %d shapes (%s, %s)", other, base,
                     f->nwins, f->nshapes, mode, host);
            snprintf(c[n++], sizeof c[0], "%s beats %s at %d of %d shapes (%s)", other, base,
                     f->nwins, f->nshapes, mode);
            snprintf(c[n++], sizeof c[0], "%s wins at %d of %d shapes (%s)", other, f->nwins,
                     f->nshapes, mode);
            snprintf(c[n++], sizeof c[0], "%s wins at %d of %d shapes", other, f->nwins,
                     f->nshapes);
        }
        break;
    }
    fit_title(prefix, c, n, buf, size);
}

void prose_title(const char *title, const results *r, const findings *F, char *buf, size_t size)
{
    char head[PROSE_TITLE_MAX * 4];
    prose_headline(r, F, head, sizeof head);
    /* the site's name before it where both fit a link preview; the site
     * is named beside every page anyway (og:site_name, the header) */
    if (title && *title && chars(title) + 2 + chars(head) <= PROSE_TITLE_MAX)
        snprintf(buf, size, "%s: %s", title, head);
    else
        snprintf(buf, size, "%s", head);
}
