/*
 * findings.c — the verdict of a run and its words (see findings.h).
 */
#include "findings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "query.h"
#include "workload.h"

/* A sentence names at most this many hidden widths. */
#define SENTENCE_WIDTHS 6

const char *findings_verdict_name(find_verdict v)
{
    static const char *const names[] = {"unknown", "never", "some", "always"};
    return (unsigned)v < sizeof names / sizeof *names ? names[v] : "?";
}

/* The view of the base device's point that base_time reads. */
static fit_view base_view(const rs_point *pb, fit_view v)
{
    return q_ok_view(pb, v) ? v : FIT_RESIDENT;
}

/* The time of the base device's point to set against the other device's
 * view v: its own time in v where it has one, else its resident time (a
 * CPU computes where its data already are). */
static double base_time(const rs_point *pb, fit_view v)
{
    return q_median(pb, base_view(pb, v));
}

/* Counts a device's points of mode m by status into "12 of 15 points ok
 * (3 out of memory)". */
static void status_text(const results *r, const char *id, wl_mode m, char *buf, size_t size)
{
    static const char *what[PT_NSTATUS] = {"ok", "out of memory", "failed verification", "skipped",
                                           "failed"};
    int c[PT_NSTATUS] = {0}, i, k = 0, total;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == m && strcmp(p->device, id) == 0 && (unsigned)p->status < PT_NSTATUS)
            c[p->status]++;
    }
    total = c[0] + c[1] + c[2] + c[3] + c[4];
    snprintf(buf, size, "%s has %d of %d %s point%s ok", id, c[0], total, workload_mode_name(m),
             total == 1 ? "" : "s");
    for (i = PT_OUT_OF_MEMORY; i <= PT_FAILED; i++)
        if (c[i])
            fmt_append(buf, size, "%s%d %s", k++ ? ", " : " (", c[i], what[i]);
    if (k)
        fmt_append(buf, size, ")");
}

int findings_ratios(const results *r, const fit_prices *prices, const fit_crossover *c,
                    find_ratio *out, int max)
{
    q_shape shapes[Q_MAX_SHAPES];
    stats_prior prior[2]; /* the base in the other's view, and resident */
    double kb = 1.0, ko = 1.0;
    int n, i, k = 0;
    q_ratio_prior(r, c->base, c->view, c->other, c->view, &prior[0]);
    q_ratio_prior(r, c->base, FIT_RESIDENT, c->other, c->view, &prior[1]);
    if (c->cost) {
        kb = q_price(prices, c->base);
        ko = q_price(prices, c->other);
    }
    n = q_shapes(r, c->mode, shapes, Q_MAX_SHAPES);
    for (i = 0; i < n && k < max && kb > 0.0 && ko > 0.0; i++) {
        const rs_point *pb = q_point(r, c->base, c->mode, shapes[i].hidden, shapes[i].batch);
        const rs_point *po = q_point(r, c->other, c->mode, shapes[i].hidden, shapes[i].batch);
        find_ratio *x = &out[k];
        if (!q_ok(pb) || !q_ok_view(po, c->view))
            continue;
        x->hidden = shapes[i].hidden;
        x->batch = shapes[i].batch;
        x->adv = kb * base_time(pb, c->view) / (ko * q_median(po, c->view));
        q_ratio_ci(pb, base_view(pb, c->view), po, c->view,
                   &prior[base_view(pb, c->view) != c->view], &x->lo, &x->hi);
        x->lo *= kb / ko;
        x->hi *= kb / ko;
        k++;
    }
    return k;
}

void findings_of(const results *r, const fit_set *fs, const fit_prices *prices,
                 const fit_crossover *c, finding *f)
{
    find_ratio x[Q_MAX_SHAPES];
    int n, i, k;

    memset(f, 0, sizeof *f);
    f->c = c;
    f->nwidths = c->nhidden;
    for (k = 0; k < c->nhidden; k++) {
        const fit_hidden_cross *h = &c->per_hidden[k];
        const fit_model *bm = q_base_model_at(fs, c->base, c->mode, c->view, h->hidden);
        const fit_model *om = q_model_at(fs, c->other, c->mode, c->view, h->hidden);
        f->width[k].hidden = h->hidden;
        if (q_model_sound(bm) && q_model_sound(om))
            f->nsound++;
        else if ((bm && bm->ok) || (om && om->ok))
            f->npoor++;
    }
    n = findings_ratios(r, prices, c, x, Q_MAX_SHAPES);
    for (i = 0; i < n; i++) {
        const double adv = x[i].adv, lo = x[i].lo, hi = x[i].hi;
        f->nshapes++;
        f->nwins += adv > 1.0;
        f->nsure += lo > 1.0;
        f->nsure_behind += hi < 1.0;
        /* the extremes a reader may quote: the table's, the medians' */
        if (f->nshapes == 1 || adv > f->best) {
            f->best = adv;
            f->best_lo = lo;
            f->best_hi = hi;
            f->best_hidden = x[i].hidden;
            f->best_batch = x[i].batch;
        }
        if (f->nshapes == 1 || adv < f->worst) {
            f->worst = adv;
            f->worst_lo = lo;
            f->worst_hi = hi;
            f->worst_hidden = x[i].hidden;
            f->worst_batch = x[i].batch;
        }
        for (k = 0; k < f->nwidths && f->width[k].hidden != x[i].hidden; k++)
            ;
        if (k < f->nwidths) {
            const fit_hidden_cross *h = &c->per_hidden[k];
            find_width *w = &f->width[k];
            w->adv_min = w->nshapes == 0 ? adv : fmin(w->adv_min, adv);
            w->adv_max = w->nshapes == 0 ? adv : fmax(w->adv_max, adv);
            w->nshapes++;
            w->nwins += adv > 1.0;
            w->nsure += lo > 1.0;
            w->nsure_behind += hi < 1.0;
            if (h->kind == CROSS_IN_RANGE && x[i].batch == (int)ceil(h->batch - 1e-9) &&
                !(adv > 1.0))
                w->behind_at_cross = 1;
        }
    }
    if (f->nshapes == 0) {
        char a[200], b[200];
        f->worst = 0.0;
        f->verdict = FIND_UNKNOWN;
        status_text(r, c->base, c->mode, a, sizeof a);
        status_text(r, c->other, c->mode, b, sizeof b);
        if (c->cost && !(q_price(prices, c->base) > 0.0 && q_price(prices, c->other) > 0.0))
            snprintf(f->why, sizeof f->why, "a price is missing");
        else
            snprintf(f->why, sizeof f->why, "no shape was measured on both (%s; %s)", a, b);
        return;
    }
    f->verdict = f->nwins == 0 ? FIND_NEVER : f->nwins == f->nshapes ? FIND_ALWAYS : FIND_SOME;
}

int findings_make(const results *r, findings *out, err *e)
{
    int i;
    memset(out, 0, sizeof *out);
    if (!r->has_fit || r->fit.ncross == 0)
        return BE_OK;
    if (!(out->f = calloc((size_t)r->fit.ncross, sizeof *out->f)))
        return err_set(e, BE_EFAIL, "out of memory for %d findings", r->fit.ncross);
    for (i = 0; i < r->fit.ncross; i++)
        if (r->fit.cross[i].nhidden > 0) /* a run of networks only: netfit.h answers */
            findings_of(r, &r->fit, &r->prices, &r->fit.cross[i], &out->f[out->n++]);
    return BE_OK;
}

void findings_free(findings *fs)
{
    free(fs->f);
    memset(fs, 0, sizeof *fs);
}

const finding *findings_get(const findings *fs, const char *other, wl_mode m, fit_view v, int cost)
{
    int i;
    for (i = 0; fs && i < fs->n; i++) {
        const fit_crossover *c = fs->f[i].c;
        if (c->mode == m && c->view == v && c->cost == cost && strcmp(c->other, other) == 0)
            return &fs->f[i];
    }
    return NULL;
}

int findings_settled(const finding *f)
{
    return f->nshapes > 0 && f->nsure == f->nwins && f->nsure_behind == f->nshapes - f->nwins;
}

void findings_shapes_text(const finding *f, char *buf, size_t size)
{
    /* the shapes the count says something of: those ahead, or (never)
     * those behind; how many of them the intervals settle */
    const int said = f->verdict == FIND_NEVER ? f->nshapes - f->nwins : f->nwins,
              sure = f->verdict == FIND_NEVER ? f->nsure_behind : f->nsure;
    switch (f->verdict) {
    case FIND_NEVER:
        snprintf(buf, size, "at none of the %d shapes measured", f->nshapes);
        break;
    case FIND_ALWAYS:
        snprintf(buf, size, "at every one of the %d shapes measured", f->nshapes);
        break;
    case FIND_SOME:
        snprintf(buf, size, "at %d of %d shapes measured", f->nwins, f->nshapes);
        break;
    default:
        snprintf(buf, size, "at no shape measured on both");
        return;
    }
    if (sure < said) {
        char n[16];
        snprintf(n, sizeof n, "%d", sure);
        fmt_append(buf, size, " by the medians (settled at %s)", sure ? n : "none");
    }
}

void findings_batch_ci(const fit_hidden_cross *h, char *buf, size_t size)
{
    char lo[32], hi[32];
    if (!(h->batch_hi > 0.0)) {
        snprintf(buf, size, "(no interval: an older analysis, see breakeven refit)");
        return;
    }
    if (h->lo_open)
        snprintf(lo, sizeof lo, "under %.0f", h->batch_lo);
    else
        snprintf(lo, sizeof lo, "%.0f", floor(h->batch_lo + 1e-9));
    if (h->hi_open)
        snprintf(hi, sizeof hi, "over %.0f", h->batch_hi);
    else
        snprintf(hi, sizeof hi, "%.0f", ceil(h->batch_hi - 1e-9));
    snprintf(buf, size, "(95%% CI %s%s%s)", lo, h->lo_open || h->hi_open ? " to " : "\xe2\x80\x93",
             hi);
}

void findings_from_text(const finding *f, int k, char *buf, size_t size)
{
    snprintf(buf, size, "%s batch %.0f", f->width[k].behind_at_cross ? "above" : "from",
             ceil(f->c->per_hidden[k].batch - 1e-9));
}

/* 1 when a width's "always" or "never" is what its interval says too:
 * every replicate of the bootstrap (xover.h) agreed, so the interval is
 * the one end of the measured batches; 0 when a crossing inside them
 * stays within its 95% interval.  An older analysis without intervals
 * counts as agreeing: there is nothing to tell it by. */
static int kind_supported(const fit_hidden_cross *h)
{
    return !(h->batch_hi > h->batch_lo);
}

/* The batch a width's unsupported always or never leaves open: for never,
 * the lowest batch of its interval; for always, the highest. */
static double open_bound(const fit_hidden_cross *h)
{
    return h->kind == CROSS_ALWAYS ? ceil(h->batch_hi - 1e-9) : floor(h->batch_lo + 1e-9);
}

/* What the data do not rule out at widths whose always or never (kind)
 * they do not support, bound the open_bound over them (the lowest for
 * never, the highest for always), one width or several: "a crossing from
 * batch 700 on is within its 95% CI". */
static void unsupported_text(cross_kind kind, double bound, int several, char *buf, size_t size)
{
    if (kind == CROSS_ALWAYS)
        snprintf(buf, size, "being behind up to batch %.0f is within %s", bound,
                 several ? "their 95% CIs" : "its 95% CI");
    else
        snprintf(buf, size, "a crossing from batch %.0f on is within %s", bound,
                 several ? "their 95% CIs" : "its 95% CI");
}

/* "; at hidden 1024, though, a crossing …", or "; at hidden 128, 512
 * and 2048, though, …": the widths of kind k whose intervals do not
 * support it, each named (a range would claim the widths between). */
static void unsupported_widths(const finding *f, cross_kind k, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    double bound = 0.0;
    int i, m = 0, w[LIST_MAX];
    char t[160];
    for (i = 0; i < c->nhidden && m < LIST_MAX; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        if (h->kind != k || kind_supported(h))
            continue;
        w[m] = h->hidden;
        bound = m == 0              ? open_bound(h)
                : k == CROSS_ALWAYS ? fmax(bound, open_bound(h))
                                    : fmin(bound, open_bound(h));
        m++;
    }
    if (m == 0)
        return;
    unsupported_text(k, bound, m > 1, t, sizeof t);
    fmt_append(buf, size, "; at hidden");
    for (i = 0; i < m; i++)
        fmt_append(buf, size, "%s %d", i == 0 ? "" : i == m - 1 ? " and" : ",", w[i]);
    fmt_append(buf, size, ", though, %s", t);
}

/* The per-width answers of f, widest first: every width with shapes both
 * devices completed, or (wins_only) those where the other device is ahead
 * from some batch on.  Neighbouring widths with the same answer and no
 * batch of their own (always, or never), whose intervals support it or
 * not alike, share one clause ("at every batch at hidden 256 to 2048").
 * lead NULL: the clauses as one list; else a sentence per clause, each
 * short enough to read at once (tests/prose_lint) and naming its mode and
 * device so that none comes back on the page: "<lead> at hidden 256, <name>
 * is <word> from batch 600 (95% CI 81 to over 1024)." */
static void widths_text(const finding *f, int wins_only, const char *lead, const char *name,
                        const char *word, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    int pick[LIST_MAX], first[LIST_MAX], last[LIST_MAX], i, k = 0, n = 0, shown;
    buf[0] = '\0';
    for (i = c->nhidden - 1; i >= 0; i--) {
        cross_kind kind = c->per_hidden[i].kind;
        if (kind == CROSS_UNKNOWN || f->width[i].nshapes == 0 ||
            (wins_only && kind != CROSS_IN_RANGE && kind != CROSS_ALWAYS))
            continue;
        pick[k++] = i;
    }
    /* clauses: runs of picks [first, last] */
    for (i = 0; i < k; i++) {
        const fit_hidden_cross *h = &c->per_hidden[pick[i]];
        if (n > 0 && h->kind != CROSS_IN_RANGE &&
            h->kind == c->per_hidden[pick[last[n - 1]]].kind &&
            kind_supported(h) == kind_supported(&c->per_hidden[pick[last[n - 1]]]) &&
            (f->width[pick[i]].nwins > 0) == (f->width[pick[last[n - 1]]].nwins > 0)) {
            last[n - 1] = i;
            continue;
        }
        first[n] = last[n] = i;
        n++;
    }
    shown = n > SENTENCE_WIDTHS ? SENTENCE_WIDTHS : n;
    for (i = 0; i < shown; i++) {
        const fit_hidden_cross *h = &c->per_hidden[pick[first[i]]];
        const char *sep = i == 0 ? "" : i == shown - 1 && shown == n ? " and " : ", ";
        char ci[220] = "", at[48], head[64], t[200];
        int wins = f->width[pick[first[i]]].nwins;
        if (first[i] == last[i])
            snprintf(at, sizeof at, "hidden %d", h->hidden);
        else
            snprintf(at, sizeof at, "hidden %d to %d", c->per_hidden[pick[last[i]]].hidden,
                     h->hidden);
        switch (h->kind) {
        case CROSS_IN_RANGE:
            findings_from_text(f, pick[first[i]], head, sizeof head);
            findings_batch_ci(h, t, sizeof t);
            snprintf(ci, sizeof ci, " %s", t);
            break;
        case CROSS_ALWAYS:
            snprintf(head, sizeof head, "at every batch");
            break;
        default:
            snprintf(head, sizeof head,
                     wins ? "at some batches but not the largest" : "at no batch");
            break;
        }
        if ((h->kind == CROSS_ALWAYS || h->kind == CROSS_NEVER) && !kind_supported(h)) {
            double bound = open_bound(h);
            int j;
            for (j = first[i] + 1; j <= last[i]; j++)
                bound = h->kind == CROSS_ALWAYS ? fmax(bound, open_bound(&c->per_hidden[pick[j]]))
                                                : fmin(bound, open_bound(&c->per_hidden[pick[j]]));
            unsupported_text(h->kind, bound, first[i] != last[i], t, sizeof t);
            snprintf(ci, sizeof ci, " (though %s)", t);
        }
        if (lead)
            fmt_append(buf, size, "%s%s at %s, %s is %s %s%s.", i ? " " : "", lead, at, name, word,
                       head, ci);
        else
            fmt_append(buf, size, "%s%s at %s%s", sep, head, at, ci);
    }
    if (shown < n && lead)
        fmt_append(buf, size, " %s, the table gives %s at %d more widths.", lead, name,
                   k - last[shown - 1] - 1);
    else if (shown < n)
        fmt_append(buf, size, " and at %d more widths (see the table)", k - last[shown - 1] - 1);
}

void findings_widths_text(const finding *f, char *buf, size_t size)
{
    widths_text(f, 0, NULL, NULL, NULL, buf, size);
}

void findings_widths_sentences(const finding *f, const char *lead, const char *name, char *buf,
                               size_t size)
{
    widths_text(f, 0, lead, name, f->c->cost ? "cheaper per step" : "faster", buf, size);
}

void findings_wins_text(const finding *f, char *buf, size_t size)
{
    widths_text(f, 1, NULL, NULL, NULL, buf, size);
}

void findings_range_text(const finding *f, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    int i, hmin = 0, hmax = 0, n = 0;
    char a[48], b[48], ci[64];
    buf[0] = '\0';
    if (c->kind != CROSS_IN_RANGE || !(c->flops_max > 0.0))
        return;
    for (i = 0; i < c->nhidden; i++) {
        const fit_hidden_cross *h = &c->per_hidden[i];
        if (h->kind != CROSS_IN_RANGE)
            continue;
        n++;
        if (h->flops == c->flops_min && !hmin)
            hmin = h->hidden;
        if (h->flops == c->flops_max && !hmax)
            hmax = h->hidden;
    }
    if (c->ci_hi > 0.0) {
        char range[48];
        if (c->ci_lo > 0.0) {
            fmt_si_range(range, sizeof range, c->ci_lo, c->ci_hi);
            snprintf(ci, sizeof ci, "95%% CI %sFLOP", range);
        } else {
            fmt_si(range, sizeof range, c->ci_hi, 2, "FLOP");
            snprintf(ci, sizeof ci, "95%% CI up to %s", range);
        }
    } else {
        snprintf(ci, sizeof ci, "no bounded 95%% CI");
    }
    fmt_si(a, sizeof a, c->flops_min, 2, "FLOP");
    fmt_si(b, sizeof b, c->flops_max, 2, "FLOP");
    if (n == 1 || hmin == hmax)
        snprintf(buf, size, "at about %s per layer (%s)", a, ci);
    else if (strcmp(a, b) == 0)
        snprintf(buf, size, "at about %s per layer at each width that crosses (%s)", a, ci);
    else
        snprintf(buf, size, "from about %s per layer at hidden %d to %s at hidden %d (%s)", a, hmin,
                 b, hmax, ci);
}

/* A device as people name it (q_device_name: "PoCL (CPU)", "NVIDIA H100
 * 80GB HBM3"), never its id or the driver's raw strings, which stay in
 * the devices table; the id alone without a run to name it from. */
static void device_text(const results *r, const char *id, char *buf, size_t size)
{
    if (r)
        q_device_name(r, id, buf, size);
    else
        snprintf(buf, size, "%s", id);
}

void findings_extreme_text(const finding *f, int best, char *buf, size_t size)
{
    const double lo = best ? f->best_lo : f->worst_lo, hi = best ? f->best_hi : f->worst_hi;
    fmt_ratio_ci(buf, size, best ? f->best : f->worst, lo, hi, q_ci_uninformative(lo, hi));
    fmt_append(buf, size, " at hidden %d, batch %d", best ? f->best_hidden : f->worst_hidden,
               best ? f->best_batch : f->worst_batch);
}

void findings_sentence(const finding *f, const results *r, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    const char *ahead = c->cost ? "cheaper per step than" : "faster than";
    char other[320], base[320], shapes[96], widths[640], range[200], lo[96], hi[96];

    if (!size)
        return;
    buf[0] = '\0';
    device_text(r, c->other, other, sizeof other);
    device_text(r, c->base, base, sizeof base);
    findings_shapes_text(f, shapes, sizeof shapes);
    findings_widths_text(f, widths, sizeof widths);
    findings_range_text(f, range, sizeof range);
    fmt_append(buf, size, "In %s with %s, ", workload_mode_name(c->mode),
               c->view == FIT_TRANSFER ? "transfers counted" : "data resident");
    switch (f->verdict) {
    case FIND_SOME:
        fmt_append(buf, size, "%s is %s %s %s", other, ahead, base, shapes);
        if (widths[0])
            fmt_append(buf, size, ": %s", widths);
        if (range[0])
            fmt_append(buf, size, "; the crossover lies %s", range);
        fmt_append(buf, size, ".");
        break;
    case FIND_ALWAYS:
        findings_extreme_text(f, 0, lo, sizeof lo);
        findings_extreme_text(f, 1, hi, sizeof hi);
        fmt_append(buf, size, "%s is %s %s %s (from %s to %s)", other, ahead, base, shapes, lo, hi);
        unsupported_widths(f, CROSS_ALWAYS, buf, size);
        fmt_append(buf, size, ".");
        break;
    case FIND_NEVER:
        findings_extreme_text(f, 1, hi, sizeof hi);
        fmt_append(buf, size, "%s is %s %s %s (at best %s)", other, ahead, base, shapes, hi);
        unsupported_widths(f, CROSS_NEVER, buf, size);
        if (c->kind == CROSS_EXTRAPOLATED && c->flops > 0.0) {
            /* a size nobody measured is not quoted (see findings.h) */
            fmt_append(buf, size,
                       "; the per-width models would have it cross beyond the largest "
                       "size measured, which is an extrapolation, not a measurement");
        } else if (f->nsound > 0 && f->npoor == 0) {
            fmt_append(buf, size, "; the per-width models predict no crossing beyond it either");
        } else if (f->nsound > 0) {
            fmt_append(buf, size,
                       "; where the per-width models fit (%d width%s) they predict "
                       "no crossing beyond it, at %d width%s they fit too poorly to say",
                       f->nsound, f->nsound == 1 ? "" : "s", f->npoor, f->npoor == 1 ? "" : "s");
        } else if (f->npoor > 0) {
            fmt_append(buf, size,
                       "; the models of %d width%s fit too poorly to say whether it "
                       "would be beyond the measured range",
                       f->npoor, f->npoor == 1 ? "" : "s");
        }
        fmt_append(buf, size, ".");
        break;
    default:
        fmt_append(buf, size, "whether %s is %s %s cannot be told: %s.", other, ahead, base,
                   f->why);
        break;
    }
}

/* ---- the pages' words ---------------------------------------------------- */

/* "faster than" / "cheaper per step than": what being ahead means in f. */
static const char *ahead_word(const finding *f)
{
    return f->c->cost ? "cheaper per step than" : "faster than";
}

/* The interval of f's crossover summary: "95% CI 1.1–1.4 MFLOP", "95% CI
 * up to 3 MFLOP", "no bounded 95% CI". */
static void summary_ci(const fit_crossover *c, char *buf, size_t size)
{
    char range[48];
    if (c->ci_hi > 0.0 && c->ci_lo > 0.0) {
        fmt_si_range(range, sizeof range, c->ci_lo, c->ci_hi);
        snprintf(buf, size, "95%% CI %sFLOP", range);
    } else if (c->ci_hi > 0.0) {
        fmt_si(range, sizeof range, c->ci_hi, 2, "FLOP");
        snprintf(buf, size, "95%% CI up to %s", range);
    } else {
        snprintf(buf, size, "no bounded 95%% CI");
    }
}

/* Where f's devices cross, as work per layer: "about 1.2 MFLOP per layer
 * (95% CI 1.1–1.4 MFLOP)", "about 44–92 MFLOP per layer (…)" over the
 * widths; "" when no width crosses in range. */
static void cross_flops(const finding *f, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    char a[48], b[48], ci[64], range[48];
    buf[0] = '\0';
    if (c->kind != CROSS_IN_RANGE || !(c->flops_max > 0.0))
        return;
    summary_ci(c, ci, sizeof ci);
    fmt_si(a, sizeof a, c->flops_min, 2, "FLOP");
    fmt_si(b, sizeof b, c->flops_max, 2, "FLOP");
    if (strcmp(a, b) == 0) {
        snprintf(buf, size, "about %s per layer (%s)", a, ci);
    } else {
        fmt_si_range(range, sizeof range, c->flops_min, c->flops_max);
        snprintf(buf, size, "about %sFLOP per layer (%s)", range, ci);
    }
}

/* Why f has no verdict, without the counts of points in brackets. */
static void why_short(const finding *f, char *buf, size_t size)
{
    size_t n = strcspn(f->why, "(");
    while (n > 0 && f->why[n - 1] == ' ')
        n--;
    snprintf(buf, size, "%.*s", (int)n, f->why);
}

void findings_lead(const finding *f, const results *r, int sentences, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    const char *mode = workload_mode_name(c->mode), *ahead = ahead_word(f);
    char other[256], base[256], shapes[96], flops[160], x[160];

    if (!size)
        return;
    buf[0] = '\0';
    q_device_name(r, c->other, other, sizeof other);
    q_device_name(r, c->base, base, sizeof base);
    findings_shapes_text(f, shapes, sizeof shapes);
    /* the answer: the medians' count, said as such where the intervals
     * leave some of it open (findings_shapes_text) */
    switch (f->verdict) {
    case FIND_SOME:
        /* a crossing is quoted only where every shape's side is settled */
        flops[0] = '\0';
        if (findings_settled(f))
            cross_flops(f, flops, sizeof flops);
        fmt_append(buf, size, "In %s, %s is %s %s %s%s%s.", mode, other, ahead, base, shapes,
                   flops[0] ? ", crossing at " : "", flops);
        break;
    case FIND_ALWAYS:
        fmt_append(buf, size, "In %s, %s is %s %s %s.", mode, other, ahead, base, shapes);
        break;
    case FIND_NEVER:
        fmt_append(buf, size, "In %s, %s is %s %s %s.", mode, other, ahead, base, shapes);
        break;
    default:
        why_short(f, x, sizeof x);
        fmt_append(buf, size, "In %s, whether %s is %s %s cannot be told: %s.", mode, other, ahead,
                   base, x);
        break;
    }
    if (sentences < 2)
        return;
    /* where it is behind, or by how little it is ahead: the table's
     * extremes (the medians'), each with its interval */
    switch (f->verdict) {
    case FIND_SOME:
        findings_extreme_text(f, 0, x, sizeof x);
        if (f->nsure_behind == f->nshapes - f->nwins)
            fmt_append(buf, size, " %s stays ahead at the other %d; %s is at worst %s.", base,
                       f->nshapes - f->nwins, other, x);
        else
            fmt_append(buf, size, " At worst, by the medians, %s is %s.", other, x);
        break;
    case FIND_ALWAYS:
        findings_extreme_text(f, 0, x, sizeof x);
        fmt_append(buf, size, " Its narrowest lead is %s.", x);
        break;
    case FIND_NEVER:
        findings_extreme_text(f, 1, x, sizeof x);
        fmt_append(buf, size, " It comes closest at %s.", x);
        break;
    default:
        break;
    }
    /* what to do, or what would settle it */
    if (f->verdict != FIND_UNKNOWN && !findings_settled(f)) {
        fmt_append(buf, size,
                   " At %d of the %d shapes the measurements cannot tell which is %s: a longer "
                   "--budget gives them more passes.",
                   f->nshapes - f->nsure - f->nsure_behind, f->nshapes,
                   c->cost ? "cheaper" : "faster");
        return;
    }
    switch (f->verdict) {
    case FIND_SOME:
        if (c->kind == CROSS_IN_RANGE)
            fmt_append(buf, size,
                       " Use %s above that size and %s below it; the list below "
                       "gives each width.",
                       other, base);
        else
            fmt_append(buf, size, " Use %s only where the list below says it is ahead.", other);
        break;
    case FIND_ALWAYS:
        fmt_append(buf, size, " Use %s at every size measured.", other);
        break;
    case FIND_NEVER:
        if (c->kind == CROSS_EXTRAPOLATED && c->flops > 0.0)
            fmt_append(buf, size,
                       " Stay on %s; only larger sizes, measured, would tell whether %s wins "
                       "beyond them.",
                       base, other);
        else
            fmt_append(buf, size, " Stay on %s for %s.", base, mode);
        break;
    default:
        fmt_append(buf, size, " Measuring both at the same shapes would settle it.");
        break;
    }
}

void findings_item(const finding *f, const results *r, int named, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    char other[256], base[256], shapes[96], widths[2048], x[160], lead[32];
    if (!size)
        return;
    buf[0] = '\0';
    fmt_append(buf, size, "%c%s%s", workload_mode_name(c->mode)[0] - 'a' + 'A',
               workload_mode_name(c->mode) + 1, c->cost ? ", by cost" : "");
    q_device_name(r, c->other, other, sizeof other);
    q_device_name(r, c->base, base, sizeof base);
    if (f->verdict == FIND_UNKNOWN) {
        why_short(f, x, sizeof x);
        fmt_append(buf, size, ": no verdict on %s against %s, %s.", other, base, x);
        return;
    }
    findings_shapes_text(f, shapes, sizeof shapes);
    fmt_append(buf, size, ": %s is %s%s%s %s.", other, c->cost ? "cheaper" : "faster",
               named ? " than " : "", named ? base : "", shapes);
    /* then each width in a sentence of its own */
    snprintf(lead, sizeof lead, "In %s", workload_mode_name(c->mode));
    findings_widths_sentences(f, lead, other, widths, sizeof widths);
    if (widths[0])
        fmt_append(buf, size, " %s", widths);
}

int findings_bullet(const finding *f, const finding *base, const results *r,
                    const fit_prices *prices, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    const char *ahead = ahead_word(f);
    char other[256], bn[256], shapes[96], flops[160], x[160], po[48], pb[48], where[160];
    buf[0] = '\0';
    if (base && (f->verdict == FIND_UNKNOWN || f->verdict == base->verdict))
        return 0;
    q_device_name(r, c->other, other, sizeof other);
    q_device_name(r, c->base, bn, sizeof bn);
    findings_shapes_text(f, shapes, sizeof shapes);
    /* "inference with transfers counted at $2.99 and $0.50 per hour" */
    snprintf(where, sizeof where, "%s", workload_mode_name(c->mode));
    if (c->view == FIT_TRANSFER)
        fmt_append(where, sizeof where, " with transfers counted");
    if (c->cost) {
        fmt_usd(po, sizeof po, q_price(prices, c->other), 3);
        fmt_usd(pb, sizeof pb, q_price(prices, c->base), 3);
        fmt_append(where, sizeof where, " at %s and %s per hour", po, pb);
    }
    /* unsettled, or settled with no crossing to quote: the count (the
     * medians' where unsettled), then its extreme, each a sentence; the
     * count says its mode last, so that it is never the lead's sentence
     * again ("In inference, X is faster than …") */
    cross_flops(f, flops, sizeof flops);
    if (f->verdict != FIND_UNKNOWN &&
        (!findings_settled(f) || (f->verdict == FIND_SOME && !flops[0]))) {
        findings_extreme_text(f, f->verdict != FIND_ALWAYS, x, sizeof x);
        fmt_append(buf, size, "%s is %s %s %s in %s. At %s it is %s.", other, ahead, bn, shapes,
                   where, f->verdict == FIND_ALWAYS ? "worst" : "best", x);
        return 1;
    }
    fmt_append(buf, size, "In %s, ", where);
    switch (f->verdict) {
    case FIND_SOME:
        fmt_append(buf, size, "%s overtakes %s at %s.", other, bn, flops);
        break;
    case FIND_ALWAYS:
        findings_extreme_text(f, 0, x, sizeof x);
        fmt_append(buf, size, "%s leads %s at all %d shapes measured, by at least %s.", other, bn,
                   f->nshapes, x);
        break;
    case FIND_NEVER:
        findings_extreme_text(f, 1, x, sizeof x);
        fmt_append(buf, size, "%s leads %s at all %d shapes measured; %s reaches at best %s.", bn,
                   other, f->nshapes, other, x);
        break;
    default:
        why_short(f, x, sizeof x);
        fmt_append(buf, size, "there is no verdict on %s against %s: %s.", other, bn, x);
        break;
    }
    return 1;
}

/* ---- stacks -------------------------------------------------------------- */

/* The stack device id computes in as the lead names it: its framework
 * (q_stack), else breakeven's own, told apart by the device's kind. */
static void stack_name(const results *r, const char *id, char *buf, size_t size)
{
    const device_info *d = results_device(r, id);
    q_stack(r, id, buf, size);
    if (!buf[0])
        snprintf(buf, size, "%s",
                 d && strcmp(d->kind, "opencl") == 0 ? "breakeven's OpenCL kernels" : "OpenBLAS");
}

/* 1 when f's two devices compute in the same stack. */
static int same_stack(const results *r, const finding *f)
{
    char a[64], b[64];
    return strcmp(q_stack(r, f->c->base, a, sizeof a), q_stack(r, f->c->other, b, sizeof b)) == 0;
}

/* The first resident time finding with a verdict of each stack in mode
 * m whose two devices share the stack, in the fit's order, at most max:
 * into pick.  Returns how many. */
static int stack_picks(const findings *F, const results *r, wl_mode m, const finding **pick,
                       int max)
{
    char name[64], seen[3][64];
    int n = 0, i, j;
    for (i = 0; i < F->n && n < max && n < 3; i++) {
        const finding *f = &F->f[i];
        if (f->c->view != FIT_RESIDENT || f->c->cost || f->c->mode != m ||
            f->verdict == FIND_UNKNOWN || !same_stack(r, f))
            continue;
        stack_name(r, f->c->other, name, sizeof name);
        for (j = 0; j < n && strcmp(seen[j], name) != 0; j++)
            ;
        if (j < n)
            continue;
        snprintf(seen[n], sizeof seen[n], "%s", name);
        pick[n++] = f;
    }
    return n;
}

/* One stack's answer after "With PyTorch, ": "X is faster than Y from
 * about 1.2 MFLOP per layer (95% CI 1.1–1.4 MFLOP)." */
static void stack_answer(const finding *f, const results *r, char *buf, size_t size)
{
    char other[256], base[256], flops[160], shapes[96];
    q_device_name(r, f->c->other, other, sizeof other);
    q_device_name(r, f->c->base, base, sizeof base);
    findings_shapes_text(f, shapes, sizeof shapes);
    cross_flops(f, flops, sizeof flops);
    if (f->verdict == FIND_SOME && flops[0] && findings_settled(f))
        fmt_append(buf, size, "%s is %s %s from %s.", other, ahead_word(f), base, flops);
    else
        fmt_append(buf, size, "%s is %s %s %s.", other, ahead_word(f), base, shapes);
}

int findings_lead_stacks(const findings *F, const results *r, int sentences, char *buf, size_t size)
{
    const finding *pick[3];
    char name[64];
    int n = 0, m, i;
    if (!size)
        return 0;
    buf[0] = '\0';
    for (m = WL_INFERENCE; F && m <= WL_TRAINING && n < 2; m++)
        n = stack_picks(F, r, (wl_mode)m, pick, sentences);
    if (n < 2)
        return 0;
    for (i = 0; i < n; i++) {
        stack_name(r, pick[i]->c->other, name, sizeof name);
        if (i == 0)
            fmt_append(buf, size, "In %s with %s, ", workload_mode_name(pick[0]->c->mode), name);
        else
            fmt_append(buf, size, " With %s, ", name);
        stack_answer(pick[i], r, buf, size);
    }
    if (sentences > n)
        fmt_append(buf, size,
                   " Each device is set against its own stack's CPU; the list below gives "
                   "each width.");
    return n;
}

/* At f's worst shape (best 0) or best (1): the advantage of f's other
 * device with its interval, in x (fmt_ratio_ci), and how much longer its
 * step takes than the base's (negative: shorter), its size in t. */
static double shape_gap(const results *r, const finding *f, int best, char *x, size_t xsize,
                        char *t, size_t tsize)
{
    const fit_crossover *c = f->c;
    const int h = best ? f->best_hidden : f->worst_hidden,
              b = best ? f->best_batch : f->worst_batch;
    const double v = best ? f->best : f->worst, lo = best ? f->best_lo : f->worst_lo,
                 hi = best ? f->best_hi : f->worst_hi;
    const rs_point *pb = q_point(r, c->base, c->mode, h, b),
                   *po = q_point(r, c->other, c->mode, h, b);
    const double dt = pb && po ? q_median(po, FIT_RESIDENT) - q_median(pb, FIT_RESIDENT) : 0.0;
    fmt_time(t, tsize, fabs(dt));
    fmt_ratio_ci(x, xsize, v, lo, hi, q_ci_uninformative(lo, hi));
    return dt;
}

int findings_overhead(const finding *f, const results *r, char *buf, size_t size)
{
    const fit_crossover *c = f->c;
    const device_info *b = results_device(r, c->base), *o = results_device(r, c->other);
    char other[256], base[256], x[200], t[32], shapes[96], lo[32], hi[32];
    double dt;
    int k, said = 0;
    if (!size)
        return 0;
    buf[0] = '\0';
    if (!b || !o || strcmp(b->type, "CPU") != 0 || strcmp(o->type, "CPU") != 0 || c->cost ||
        c->view != FIT_RESIDENT || f->verdict == FIND_UNKNOWN || same_stack(r, f))
        return 0;
    q_device_name(r, c->other, other, sizeof other);
    q_device_name(r, c->base, base, sizeof base);
    /* where it is furthest behind: its interval's upper end the lowest */
    dt = shape_gap(r, f, 0, x, sizeof x, t, sizeof t);
    if (f->worst_hi < 1.0)
        fmt_append(buf, size,
                   "In %s, %s costs most over %s at hidden %d, batch %d: %s, %s more per step.",
                   workload_mode_name(c->mode), other, base, f->worst_hidden, f->worst_batch, x, t);
    else if (f->worst < 1.0)
        /* its interval admits a tie: the medians' word, said as such */
        fmt_append(buf, size,
                   "In %s, %s is furthest behind %s by the medians at hidden %d, batch %d: %s, "
                   "%s more per step.",
                   workload_mode_name(c->mode), other, base, f->worst_hidden, f->worst_batch, x, t);
    else
        fmt_append(buf, size,
                   "In %s, %s is faster than %s%s even where it is furthest behind, at hidden "
                   "%d, batch %d: by %s, %s less per step.",
                   workload_mode_name(c->mode), other, base,
                   f->worst_lo > 1.0 ? "" : " by the medians", f->worst_hidden, f->worst_batch, x,
                   t);
    /* where it is ahead, if anywhere: never a direction the medians do not show */
    findings_shapes_text(f, shapes, sizeof shapes);
    /* the mode in it: the other mode's item may have the same count */
    fmt_append(buf, size, " In %s it is faster %s.", workload_mode_name(c->mode), shapes);
    if (f->nwins > 0 && f->best > 1.0) {
        dt = -shape_gap(r, f, 1, x, sizeof x, t, sizeof t);
        fmt_append(buf, size, " It gains most at hidden %d, batch %d: by %s, %s %s per step.",
                   f->best_hidden, f->best_batch, x, t, dt >= 0.0 ? "less" : "more");
    }
    /* its time over the base's at each width, as the medians give it */
    for (k = 0; k < f->nwidths && said < SENTENCE_WIDTHS; k++) {
        const find_width *w = &f->width[k];
        if (w->nshapes == 0 || !(w->adv_min > 0.0))
            continue;
        fmt_times(lo, sizeof lo, 1.0 / w->adv_max);
        fmt_times(hi, sizeof hi, 1.0 / w->adv_min);
        if (!said++)
            fmt_append(buf, size, " Per width, its median time per step is ");
        else
            fmt_append(buf, size, ", ");
        if (strcmp(lo, hi) == 0)
            fmt_append(buf, size, "%s", lo);
        else
            fmt_append(buf, size, "%.*s–%s", (int)strcspn(lo, "\xc3"), lo, hi);
        if (said == 1)
            fmt_append(buf, size, " that of %s", base);
        fmt_append(buf, size, " at hidden %d", w->hidden);
    }
    if (said)
        fmt_append(buf, size, ".");
    return 1;
}
