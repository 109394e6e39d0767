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

/* Where each device's run-to-run term came from: learned from earlier
 * runs of this host and software (results_learn_bands), or the defaults. */
static void band_sentence(const results *r, char *buf, size_t size)
{
    char name[160];
    int i, k = 0, runs = 0;
    for (i = 0; i < r->ndevices; i++)
        if (r->devices[i].run_sd_runs > runs && r->devices[i].run_sd[FIT_RESIDENT] >= 0.0)
            runs = r->devices[i].run_sd_runs;
    if (runs == 0)
        return;
    fmt_append(buf, size,
               "How far one run lies from another was learned from the %d earlier runs of "
               "this host and software in the archive. Its standard deviation: ",
               runs);
    for (i = 0; i < r->ndevices; i++) {
        const device_info *d = &r->devices[i];
        if (d->run_sd_runs < 1 || d->run_sd[FIT_RESIDENT] < 0.0)
            continue;
        q_device_name(r, d->id, name, sizeof name);
        fmt_append(buf, size, "%s%s %.1f%%", k++ ? ", " : "", name,
                   100.0 * d->run_sd[FIT_RESIDENT]);
    }
    fmt_append(buf, size, k < r->ndevices ? "; the others' the default. " : ". ");
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
               "with a 95%% interval %s. ",
               p->budget, total, total == 1 ? "" : "s",
               r->npasses > 1 ? "that includes how the passes differ and how far one whole run "
                                "lies from another (docs/statistics.md)"
                              : "from its one pass's samples alone: another run may differ "
                                "by more");
    if (r->npasses > 1)
        band_sentence(r, buf, size);
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

/* The crossover the headline and lead of a run of networks alone speak
 * of: the first network's resident answer in the first mode measured, or
 * NULL; out holds it (netfit_free). */
static const netfit_cross *net_pick(const results *r, netfit_set *out)
{
    const char *names[2];
    int i, m;
    if (netfit_networks(r, names, 2) == 0 || netfit_run(r, r->prov.seed, 0, out, NULL) < 0)
        return NULL;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++)
        for (i = 0; i < out->n; i++)
            if ((int)out->c[i].mode == m && out->c[i].view == FIT_RESIDENT &&
                strcmp(out->c[i].net, names[0]) == 0 && out->c[i].x.kind != CROSS_UNKNOWN)
                return &out->c[i];
    return NULL;
}

/* The headline of a run of networks alone, as candidates from the most
 * said to the least (fit_title chooses), naming a winner only where the
 * intervals settle it (q_net_sides): "NVIDIA H100 beats OpenBLAS (16
 * threads) on 784-512-10 from batch 32 (inference, vm)" where every batch
 * is settled and the medians cross at a batch measured, else the batches
 * it wins beyond their intervals, else "too close to call".  Returns how
 * many, 0 when there is none. */
#define TITLE_CANDIDATES 6
static int net_headline(const results *r, char (*t)[PROSE_TITLE_MAX * 4])
{
    const size_t size = sizeof t[0];
    char x[300], y[300], how[160];
    netfit_set s = {0, NULL};
    const netfit_cross *c = net_pick(r, &s);
    q_net_side d;
    int n = 0, base_wins;
    if (c) {
        const char *mode = workload_mode_name(c->mode);
        q_net_sides(r, c->base, c->other, c->mode, c->view, c->sizes, &d);
        /* the winner: where every batch is settled and the medians cross,
         * the other device from there on; else the device ahead at the
         * more settled batches */
        base_wins = d.behind > d.sure;
        if (d.sure + d.behind == d.n && (d.sure == d.n || d.behind == d.n)) {
            snprintf(how, sizeof how, "at every batch measured");
        } else if (d.sure + d.behind == d.n && d.from > 0) {
            snprintf(how, sizeof how, "from batch %d", d.from);
            base_wins = 0;
        } else {
            snprintf(how, sizeof how, "at %d of %d batches", base_wins ? d.behind : d.sure, d.n);
        }
        q_device_name(r, base_wins ? c->base : c->other, x, sizeof x);
        q_device_name(r, base_wins ? c->other : c->base, y, sizeof y);
        if (d.sure + d.behind == 0) {
            snprintf(t[n++], size, "%s or %s on %s: too close to call (%s, %s)", x, y, c->net, mode,
                     q_machine_name(r));
            snprintf(t[n++], size, "%s or %s on %s: too close to call (%s)", x, y, c->net, mode);
            snprintf(t[n++], size, "%s or %s on %s: too close to call", x, y, c->net);
            /* where a caveat's prefix leaves no room for the network's name */
            snprintf(t[n++], size, "%s or %s: too close to call", x, y);
        } else {
            snprintf(t[n++], size, "%s beats %s on %s %s (%s, %s)", x, y, c->net, how, mode,
                     q_machine_name(r));
            snprintf(t[n++], size, "%s beats %s on %s %s (%s)", x, y, c->net, how, mode);
            snprintf(t[n++], size, "%s beats %s on %s %s", x, y, c->net, how);
            snprintf(t[n++], size, "%s wins on %s %s (%s)", x, c->net, how, mode);
            snprintf(t[n++], size, "%s wins on %s %s", x, c->net, how);
            snprintf(t[n++], size, "%s wins %s", x, how);
        }
    }
    netfit_free(&s);
    return n;
}

void prose_net_lead(const results *r, char *buf, size_t size)
{
    char x[300], y[300], n[16];
    netfit_set s = {0, NULL};
    const netfit_cross *c = net_pick(r, &s);
    q_net_side d;
    buf[0] = '\0';
    if (!c) {
        netfit_free(&s);
        return;
    }
    q_net_sides(r, c->base, c->other, c->mode, c->view, c->sizes, &d);
    q_device_name(r, c->other, x, sizeof x);
    q_device_name(r, c->base, y, sizeof y);
    snprintf(n, sizeof n, "%d", d.sure);
    fmt_append(buf, size, "In %s on %s, %s is faster than %s at %d of %d batches measured",
               workload_mode_name(c->mode), c->net, x, y, d.ahead, d.n);
    if (d.sure < d.ahead)
        fmt_append(buf, size, " by the medians (settled at %s)", d.sure ? n : "none");
    fmt_append(buf, size, ".");
    if (d.sure + d.behind < d.n)
        fmt_append(buf, size,
                   " At %d of the %d batches the measurements cannot tell which is faster: a "
                   "longer --budget gives them more passes.",
                   d.n - d.sure - d.behind, d.n);
    else if (d.from > 0 && d.sure < d.n)
        fmt_append(buf, size, " It is ahead from batch %d on, and behind below it.", d.from);
    netfit_free(&s);
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

/* The headline of f where no crossing can be named: the shapes at which
 * the intervals settle which device is ahead (the other's count first,
 * else the base's) where they settle half of them or more, else how many
 * they leave too close to call.  Returns how many candidates, into c. */
static int settled_titles(const finding *f, const char *other, const char *base, const char *mode,
                          const char *host, char (*c)[PROSE_TITLE_MAX * 4])
{
    const int ahead = f->nsure > 0 || f->nsure_behind == 0;
    const char *w = ahead ? other : base, *l = ahead ? base : other;
    const int k = ahead ? f->nsure : f->nsure_behind;
    const int open = f->nshapes - f->nsure - f->nsure_behind;
    int n = 0;
    if (2 * k < f->nshapes) {
        snprintf(c[n++], sizeof c[0], "%s or %s: too close to call at %d of %d shapes (%s, %s)",
                 other, base, open, f->nshapes, mode, host);
        snprintf(c[n++], sizeof c[0], "%s or %s: too close to call at %d of %d shapes (%s)", other,
                 base, open, f->nshapes, mode);
        snprintf(c[n++], sizeof c[0], "%s or %s: too close to call (%s)", other, base, mode);
        snprintf(c[n++], sizeof c[0], "%s or %s: too close to call", other, base);
        return n;
    }
    snprintf(c[n++], sizeof c[0], "%s beats %s at %d of %d shapes (%s, %s)", w, l, k, f->nshapes,
             mode, host);
    snprintf(c[n++], sizeof c[0], "%s beats %s at %d of %d shapes (%s)", w, l, k, f->nshapes, mode);
    snprintf(c[n++], sizeof c[0], "%s wins at %d of %d shapes (%s)", w, k, f->nshapes, mode);
    snprintf(c[n++], sizeof c[0], "%s wins at %d of %d shapes", w, k, f->nshapes);
    return n;
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
    /* a winner is named only where the intervals settle it: else the
     * shapes they settle, or that they settle none */
    if (f->verdict != FIND_SOME && !findings_settled(f)) {
        n = settled_titles(f, other, base, mode, host, c);
        fit_title(prefix, c, n, buf, size);
        return;
    }
    switch (f->verdict) {
    case FIND_ALWAYS:
    case FIND_NEVER: {
        /* one device ahead at every shape: the other, or the base */
        const char *win = f->verdict == FIND_ALWAYS ? other : base;
        const char *lose = f->verdict == FIND_ALWAYS ? base : other;
        snprintf(c[n++], sizeof c[0], "%s beats %s at every shape measured (%s, %s)", win, lose,
                 mode, host);
        snprintf(c[n++], sizeof c[0], "%s beats %s everywhere measured (%s)", win, lose, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured (%s)", win, mode);
        snprintf(c[n++], sizeof c[0], "%s wins everywhere measured", win);
        break;
    }
    default:
        /* the narrowest width that crosses in range: where the answer turns */
        ci[0] = '\0';
        for (i = 0; i < f->c->nhidden && !ci[0]; i++)
            if (f->c->per_hidden[i].kind == CROSS_IN_RANGE &&
                f->width[i].nsure + f->width[i].nsure_behind == f->width[i].nshapes) {
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
            n = settled_titles(f, other, base, mode, host, c);
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
