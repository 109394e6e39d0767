/*
 * fit_words.c — the crossover in words (see fit.h).
 *
 * The sentence is the answer breakeven exists for, printed after a run,
 * stored in results.xml and leading every report, so it names devices by
 * what they report themselves (never an assumed "GPU"), gives the CI or
 * says there is none, and says "extrapolation" when the fit speaks beyond
 * the measured range.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fit_impl.h"
#include "fmt.h"
#include "workload.h"

/* The sentence lists at most this many hidden widths. */
#define SENTENCE_WIDTHS 3

/* "the OpenCL device cl:0.0 (CPU: pthread-haswell-AMD EPYC)": the kind of
 * backend, the id, and the type and name the device reports — never a
 * guess at what it is. */
static void device_text(const results *r, const char *id, char *buf, size_t size)
{
    const device_info *d = r ? results_device(r, id) : NULL;
    const char *kind;
    if (!d) {
        snprintf(buf, size, "the device %s", id);
        return;
    }
    kind = strcmp(d->kind, "opencl") == 0     ? "OpenCL"
           : strcmp(d->kind, "openblas") == 0 ? "OpenBLAS"
                                              : d->kind;
    if (d->type[0])
        snprintf(buf, size, "the %s device %s (%s: %s)", kind, id, d->type, d->name);
    else
        snprintf(buf, size, "the %s device %s (%s)", kind, id, d->name);
}

/* "from batch 24 at hidden 2048, batch 96 at hidden 1024 and batch 380 at
 * hidden 512": the in-range per-hidden crossovers, widest first.  The
 * batch is rounded up: the first whole batch at which the other device is
 * ahead.  Returns how many widths it names. */
static int hidden_text(const fit_crossover *c, char *buf, size_t size)
{
    int pick[SENTENCE_WIDTHS], i, k = 0;
    buf[0] = '\0';
    for (i = c->nhidden - 1; i >= 0 && k < SENTENCE_WIDTHS; i--)
        if (c->per_hidden[i].kind == CROSS_IN_RANGE)
            pick[k++] = i;
    for (i = 0; i < k; i++) {
        const fit_hidden_cross *h = &c->per_hidden[pick[i]];
        const char *sep = i == 0 ? "from " : i == k - 1 ? " and " : ", ";
        fmt_append(buf, size, "%sbatch %.0f at hidden %d", sep, ceil(h->batch - 1e-9), h->hidden);
    }
    return k;
}

/* How many usable points a device has, for the unknown case. */
static void unknown_text(const fit_crossover *c, const results *r, char *buf, size_t size)
{
    const char *ids[2] = {c->base, c->other};
    int i, k = 0;
    buf[0] = '\0';
    if (!r)
        return;
    for (i = 0; i < 2; i++) {
        fit_view v = c->view;
        int j, n = 0;
        char what[256];
        if (i == 0 && v == FIT_TRANSFER) {
            for (j = 0; j < r->npoints; j++)
                if (fit_usable(&r->points[j], ids[i], c->mode, FIT_TRANSFER))
                    break;
            if (j == r->npoints)
                v = FIT_RESIDENT;
        }
        for (j = 0; j < r->npoints; j++)
            n += fit_usable(&r->points[j], ids[i], c->mode, v);
        if (n >= 2)
            continue;
        fit_describe_unusable(r, ids[i], c->mode, v, n, what, sizeof what);
        fmt_append(buf, size, "%s%s has %s", k ? "; " : "", ids[i], what);
        k++;
    }
    if (!k)
        snprintf(buf, size, "the times do not follow t0 + f/P for %s or %s", c->base, c->other);
}

void fit_sentence(const fit_crossover *c, const results *r, char *buf, size_t size)
{
    char other[320], base[320], at[64], ci[64], widths[160], why[400];
    const char *verb = c->cost ? "starts costing less per step than" : "starts winning over";
    const char *ahead = c->cost ? "cheaper per step than" : "faster than";
    int nw;

    if (!size)
        return;
    buf[0] = '\0';
    device_text(r, c->other, other, sizeof other);
    device_text(r, c->base, base, sizeof base);
    fmt_si(at, sizeof at, c->flops, 2, "FLOP");
    if (c->ci_hi > 0.0) {
        char range[48];
        fmt_si_range(range, sizeof range, c->ci_lo, c->ci_hi);
        snprintf(ci, sizeof ci, "95%% CI %s", range);
    } else {
        snprintf(ci, sizeof ci, "no bounded 95%% CI");
    }
    nw = hidden_text(c, widths, sizeof widths);
    fmt_append(buf, size, "In %s with %s, ", workload_mode_name(c->mode),
               c->view == FIT_TRANSFER ? "transfers counted" : "data resident");
    switch (c->kind) {
    case CROSS_IN_RANGE:
        fmt_append(buf, size, "%s %s %s at about %s per layer (%s)", other, verb, base, at, ci);
        if (nw)
            fmt_append(buf, size, ", i.e. %s", widths);
        fmt_append(buf, size, ".");
        break;
    case CROSS_EXTRAPOLATED:
        fmt_append(buf, size,
                   "%s is not %s %s anywhere in the measured range, but the fit predicts "
                   "it would be from about %s per layer (%s), an extrapolation",
                   other, ahead, base, at, ci);
        if (nw)
            fmt_append(buf, size, "; measured directly, it is ahead %s", widths);
        fmt_append(buf, size, ".");
        break;
    case CROSS_NEVER:
        fmt_append(buf, size, "%s never %s %s: its fitted %s is not higher", other,
                   c->cost ? "becomes cheaper per step than" : "overtakes", base,
                   c->cost ? "throughput per dollar" : "throughput");
        if (c->flops > 0.0)
            fmt_append(buf, size, " (by the fit it is ahead only below about %s per layer)", at);
        if (nw)
            fmt_append(buf, size, "; measured directly, it is ahead %s", widths);
        fmt_append(buf, size, ".");
        break;
    case CROSS_ALWAYS:
        fmt_append(buf, size, "%s is %s %s at every size measured.", other, ahead, base);
        break;
    default:
        unknown_text(c, r, why, sizeof why);
        fmt_append(buf, size, "whether %s is %s %s cannot be told: %s.", other, ahead, base, why);
        break;
    }
}
