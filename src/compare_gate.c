/*
 * compare_gate.c — the gate's one question (compare.h): is there a
 * slowdown of at least the threshold R?  For each run-level group: the
 * answer, the smallest slowdown the comparison could have detected, and,
 * when it cannot answer, how much more measuring would; for the set: the
 * one line a CI job reads.
 *
 * The interval is the group's own (compare_run.c, or compare_pair.c for
 * the passes of an `ab` pair), two-sided at 1 − α, so a pass errs at most
 * α/2 of the time when B is R slower.  The smallest detectable slowdown is
 * where the interval's lower end clears 1 with the power COMPARE_POWER:
 * exp((t(1 − α/2) + t(power))·se), on the group's degrees of freedom, and
 * never below R (a slower verdict also needs the ratio to reach R).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_impl.h"
#include "fit.h"
#include "fmt.h"
#include "stats.h"
#include "workload.h"

/* No advice beyond this many runs a side or pairs of passes. */
#define MORE_MAX 30

const char *compare_gate_name(compare_gate g)
{
    return g == COMPARE_GATE_PASS ? "pass" : g == COMPARE_GATE_FAIL ? "fail" : "open";
}

/* The smallest number of runs a side (pairs of passes when paired) whose
 * interval would be narrower than margin, for a run-to-run (pair-to-pair)
 * SD sd; 0 when none up to MORE_MAX. */
static int needed(double sd, double margin, double alpha, int paired)
{
    int n;
    for (n = 2; n <= MORE_MAX; n++) {
        const int df = paired ? n - 1 : 2 * n - 2;
        const double se = paired ? sd / sqrt(n) : sd * sqrt(2.0 / n);
        if (stats_t_quantile(1.0 - alpha / 2.0, df) * se < margin)
            return n;
    }
    return 0;
}

/* What would settle g's open gate, into g->settle. */
static void settle(compare_group *g, double alpha, double R, compare_more how)
{
    const double D = log(g->ratio), lR = log(R);
    /* the interval must end below R, or clear 1 with the ratio at R */
    const double margin = D < lR ? lR - D : D;
    const int paired = how == COMPARE_MORE_PASSES;
    const double sd = paired ? g->se * sqrt(g->df + 1.0) : g->run_sd;
    int n = margin > 0.002 ? needed(sd, margin, alpha, paired) : 0;
    if (paired && n) {
        snprintf(g->settle, sizeof g->settle,
                 "about %d pairs of passes, if the change stays at \xc3\x97%.2f (ab --passes "
                 "%d)",
                 n, g->ratio, n);
        return;
    }
    if (paired) {
        snprintf(g->settle, sizeof g->settle,
                 "no number of passes up to %d settles a change of \xc3\x97%.2f against the "
                 "%.0f%% threshold with passes this scattered: a quieter machine, or a grid of "
                 "more points, would",
                 MORE_MAX, g->ratio, 100.0 * (R - 1.0));
        return;
    }
    if (n)
        snprintf(g->settle, sizeof g->settle,
                 "about %d runs a side, if the change stays at \xc3\x97%.2f (run --repeat %d "
                 "on each side, then compare A1 .. A%d -- B1 .. B%d); or breakeven ab, which "
                 "pairs the sides' passes in one time window",
                 n, g->ratio, n, n, n);
    else
        snprintf(g->settle, sizeof g->settle,
                 "breakeven ab, which pairs the sides' passes in one time window: more than "
                 "%d runs a side would be needed against a run-to-run band of %.0f%%",
                 MORE_MAX, 100.0 * g->run_sd);
}

void compare_group_gate(compare_group *g, double alpha, double R, compare_more how)
{
    const int df = g->df > 0 ? g->df : 1;
    const double z = stats_t_quantile(1.0 - alpha / 2.0, df) + stats_t_quantile(COMPARE_POWER, df);
    g->detectable = fmax(R, exp(z * g->se));
    g->settle[0] = '\0';
    if (g->verdict == CMP_SLOWER)
        g->gate = COMPARE_GATE_FAIL;
    else if (g->npoints >= COMPARE_MIN_POINTS && g->hi < R && g->median_ratio < R &&
             (!g->corrected || g->raw_ratio < R))
        g->gate = COMPARE_GATE_PASS;
    else {
        g->gate = COMPARE_GATE_OPEN;
        if (g->npoints >= COMPARE_MIN_POINTS && g->hi >= R)
            settle(g, alpha, R, how);
    }
}

/* The groups' bands as one line: one text, or each device's. */
static void bands(compare_set *s)
{
    int i, j, one = 1;
    s->band_from[0] = '\0';
    for (i = 1; i < s->ngroups; i++)
        one = one && strcmp(s->groups[i].band_from, s->groups[0].band_from) == 0;
    if (one && s->ngroups) {
        snprintf(s->band_from, sizeof s->band_from, "%s", s->groups[0].band_from);
        return;
    }
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        for (j = 0; j < i; j++)
            if (strcmp(s->groups[j].dev_a, g->dev_a) == 0 &&
                strcmp(s->groups[j].band_from, g->band_from) == 0)
                break;
        if (j == i)
            fmt_append(s->band_from, sizeof s->band_from, "%s%s %s: %s",
                       s->band_from[0] ? "; " : "", g->dev_a, fit_view_name(g->view), g->band_from);
    }
}

void compare_set_gate(compare_set *s)
{
    const double R = s->opts.threshold;
    const compare_group *open = NULL, *fail = NULL;
    int i;
    bands(s);
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        if (g->gate == COMPARE_GATE_FAIL && !fail)
            fail = g;
        if (g->gate == COMPARE_GATE_OPEN && !open)
            open = g;
    }
    s->gate = fail                  ? COMPARE_GATE_FAIL
              : open || !s->ngroups ? COMPARE_GATE_OPEN
                                    : COMPARE_GATE_PASS;
    if (fail)
        snprintf(s->gate_why, sizeof s->gate_why, "a slowdown of %.0f%% or more: %s",
                 100.0 * (R - 1.0), fail->text);
    else if (open)
        snprintf(s->gate_why, sizeof s->gate_why,
                 "cannot exclude a slowdown of %.0f%%: %s %s %s, time \xc3\x97%.2f "
                 "(%.2f\xe2\x80\x93%.2f)%s%s; it could detect \xc3\x97%.2f (%.0f%% power)%s%s",
                 100.0 * (R - 1.0), open->dev_a, workload_mode_name(open->mode),
                 fit_view_name(open->view), open->ratio, open->lo, open->hi,
                 open->why[0] ? ": " : "", open->why, open->detectable, 100.0 * COMPARE_POWER,
                 open->settle[0] ? "; to settle it: " : "", open->settle);
    else
        snprintf(s->gate_why, sizeof s->gate_why,
                 "no slowdown of %.0f%% or more: every interval ends below \xc3\x97%.2f",
                 100.0 * (R - 1.0), R);
}

int compare_gate_status(const compare_set *s)
{
    return s->gate == COMPARE_GATE_PASS ? 0 : s->gate == COMPARE_GATE_FAIL ? 3 : 4;
}
