/*
 * compare_gate.c — a run-level group's verdict in words, and the gate.
 *
 * Once compare_run.c (or compare_pair.c, for an `ab` pair) has a group's
 * ratio and interval: the verdict against the threshold, the nuisances
 * that can explain a change only within their reach (docs/compare.md), the
 * guards of the corrections and the medians, and the line.  Then the
 * gate's one question (compare.h): is there a slowdown of at least the
 * threshold R?  For each group: the answer, the smallest slowdown the
 * comparison could have detected, and, when it cannot answer, how much
 * more measuring would; for the set: the one line a CI job reads.
 *
 * The interval is the group's own (compare_run.c, or compare_pair.c for
 * the passes of an `ab` pair), two-sided at 1 − α, so a pass errs at most
 * α/2 of the time when B is R slower.  The smallest detectable slowdown is
 * the true change that the rule for "slower" — the ratio at least R and
 * the interval's lower end above 1 — meets with the power COMPARE_POWER.
 * The log ratio is its true value plus se·T (T Student's t on the group's
 * degrees of freedom, as the interval takes it), and the rule asks it to
 * reach max(log R, t(1 − α/2)·se); so the power is COMPARE_POWER where the
 * true log change is
 *
 *   max(log R, t(1 − α/2)·se) + t(power)·se
 *
 * (docs/compare.md, "What it could detect").  At a true ×R the power is
 * one half at most, so the answer is always above R.  An interval with no
 * measured scatter (one pair of passes; replicates with one run on a side)
 * can detect nothing, and the gate never passes on it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "cachehop.h"
#include "compare_impl.h"
#include "fit.h"
#include "fmt.h"
#include "stats.h"
#include "workload.h"

void compare_group_verdict(const compare_group *g, double threshold, compare_correct corr,
                           char *buf, size_t size)
{
    if (g->verdict == CMP_SLOWER)
        snprintf(buf, size, "%.2f\xc3\x97 slower (%.2f\xe2\x80\x93%.2f)", g->ratio, g->lo, g->hi);
    else if (g->verdict == CMP_FASTER)
        snprintf(buf, size, "%.2f\xc3\x97 faster (time \xc3\x97%.2f, %.2f\xe2\x80\x93%.2f)",
                 1.0 / g->ratio, g->ratio, g->lo, g->hi);
    else if (g->verdict == CMP_UNCHANGED)
        snprintf(buf, size,
                 "no change (time \xc3\x97%.2f, %.2f\xe2\x80\x93%.2f, within \xc2\xb1%.0f%%)",
                 g->ratio, g->lo, g->hi, 100.0 * (threshold - 1.0));
    else
        snprintf(buf, size, "inconclusive (time \xc3\x97%.2f, %.2f\xe2\x80\x93%.2f)", g->ratio,
                 g->lo, g->hi);
    fmt_append(buf, size, ", %d shared point%s%s", g->npoints, g->npoints == 1 ? "" : "s",
               !g->corrected                       ? ""
               : corr == COMPARE_CORRECT_REFERENCE ? ", corrected by the machine's reference"
                                                   : ", corrected for the others' load");
    if (g->corrected)
        fmt_append(buf, size, " (uncorrected \xc3\x97%.2f)", g->raw_ratio);
    if (g->paired)
        fmt_append(buf, size, ", %d paired pass%s", g->npairs, g->npairs == 1 ? "" : "es");
}

void compare_group_detect(const compare_group *g, char *buf, size_t size)
{
    if (isfinite(g->detectable))
        snprintf(buf, size, "could detect \xc3\x97%.2f", g->detectable);
    else
        snprintf(buf, size, "could detect nothing (%s)",
                 g->paired ? "one pair of passes cannot say how much pairs differ"
                           : "one run on a side cannot say how much its runs differ");
}

/* "cpu inference resident: 1.21× slower (1.08–1.36), …", into g->text:
 * the compare command's line, by id. */
void compare_group_text(compare_group *g, double threshold, compare_correct corr)
{
    char v[400], d[160];
    compare_group_verdict(g, threshold, corr, v, sizeof v);
    compare_group_detect(g, d, sizeof d);
    snprintf(g->text, sizeof g->text, "%s %s %s: ", g->dev_a, workload_mode_name(g->mode),
             fit_view_name(g->view));
    fmt_append(g->text, sizeof g->text, "%s; %s", v, d);
    if (g->note[0])
        fmt_append(g->text, sizeof g->text, "; %s", g->note);
}

/* The verdict of an interval against the threshold R. */
compare_verdict compare_verdict_of(double ratio, double lo, double hi, double R)
{
    if (lo > 1.0 && ratio >= R)
        return CMP_SLOWER;
    if (hi < 1.0 && ratio <= 1.0 / R)
        return CMP_FASTER;
    if (lo > 1.0 / R && hi < R)
        return CMP_UNCHANGED;
    return CMP_INCONCLUSIVE;
}

/* A nuisance that can explain a change up to ×reach: the verdict turns
 * inconclusive (why) when the change's interval reaches within it, and
 * stands with the nuisance as its note when it lies beyond. */
static int nuisance(compare_group *g, double reach, const char *what)
{
    const int beyond = g->verdict == CMP_SLOWER ? g->lo > reach : g->hi < 1.0 / reach;
    if (beyond) {
        snprintf(g->note, sizeof g->note, "%s; the change is beyond that", what);
        return 0;
    }
    snprintf(g->why, sizeof g->why, "%s", what);
    g->verdict = CMP_INCONCLUSIVE;
    return 1;
}

void compare_group_why(const compare_set *s, compare_group *g, double R, double busy_a,
                       double busy_b, int load_corrected)
{
    char what[300];
    if (g->npoints < COMPARE_MIN_POINTS) {
        g->verdict = CMP_INCONCLUSIVE;
        snprintf(g->why, sizeof g->why, "only %d shared point%s (a verdict needs %d)", g->npoints,
                 g->npoints == 1 ? "" : "s", COMPARE_MIN_POINTS);
        return;
    }
    /* a correction for the load has taken the difference in load into
     * account already */
    if (load_corrected)
        busy_a = busy_b = -1.0;
    /* a device on the host's CPUs slows down while they are a cache apart
     * (cachehop.h); round trips compare only on one host: another's
     * layout is not a state of this one */
    if (g->kind_cpu && s->same_host &&
        ((g->verdict == CMP_SLOWER && cachehop_apart(s->hop_b, s->hop_a)) ||
         (g->verdict == CMP_FASTER && cachehop_apart(s->hop_a, s->hop_b)))) {
        const int b_far = g->verdict == CMP_SLOWER;
        snprintf(what, sizeof what,
                 "%s ran with the host's CPUs a cache apart (a round trip of %.0f ns between "
                 "them, against %.0f ns in %s's runs), which was measured to make a device on "
                 "them up to \xc3\x97%.1f slower",
                 b_far ? "B" : "A", 1e9 * (b_far ? s->hop_b : s->hop_a),
                 1e9 * (b_far ? s->hop_a : s->hop_b), b_far ? "A" : "B", COMPARE_APART_REACH);
        if (nuisance(g, COMPARE_APART_REACH, what))
            return;
    }
    if ((g->verdict == CMP_SLOWER && busy_b - busy_a > COMPARE_BUSY && busy_a >= 0.0) ||
        (g->verdict == CMP_FASTER && busy_a - busy_b > COMPARE_BUSY && busy_b >= 0.0)) {
        /* what others' share takes from a device that wants every CPU */
        const double reach = g->verdict == CMP_SLOWER ? (1.0 - busy_a) / (1.0 - fmin(busy_b, 0.9))
                                                      : (1.0 - busy_b) / (1.0 - fmin(busy_a, 0.9));
        snprintf(what, sizeof what,
                 "%s ran on a busier machine: other processes took %.0f%% of the CPU in B's "
                 "runs, %.0f%% in A's, which can slow a device by up to \xc3\x97%.2f",
                 g->verdict == CMP_SLOWER ? "B" : "A", 100.0 * busy_b, 100.0 * busy_a, reach);
        if (nuisance(g, reach, what))
            return;
    }
    if (g->verdict != CMP_INCONCLUSIVE)
        return;
    if (g->lo > 1.0 && g->ratio < R)
        snprintf(g->why, sizeof g->why,
                 "slower by %.0f%%, under the %.0f%% threshold, but its interval reaches %.0f%%",
                 100.0 * (g->ratio - 1.0), 100.0 * (R - 1.0), 100.0 * (g->hi - 1.0));
    else if (g->hi < 1.0 && g->ratio > 1.0 / R)
        snprintf(g->why, sizeof g->why,
                 "faster by %.0f%%, under the %.0f%% threshold, but its interval reaches %.0f%%",
                 100.0 * (1.0 - g->ratio), 100.0 * (R - 1.0), 100.0 * (1.0 - g->lo));
    else if (g->hi < R && g->lo <= 1.0 / R)
        snprintf(g->why, sizeof g->why,
                 "no slowdown of %.0f%% or more; a speed-up of %.0f%% or more is not excluded "
                 "(its interval reaches \xc3\x97%.2f)",
                 100.0 * (R - 1.0), 100.0 * (R - 1.0), g->lo);
    else if (g->lo > 1.0 / R && g->hi >= R)
        snprintf(g->why, sizeof g->why,
                 "no speed-up of %.0f%% or more; a slowdown of %.0f%% or more is not excluded "
                 "(its interval reaches \xc3\x97%.2f)",
                 100.0 * (R - 1.0), 100.0 * (R - 1.0), g->hi);
    else if (g->paired)
        snprintf(g->why, sizeof g->why,
                 "the change (\xc3\x97%.2f) is inside what its pairs of passes scatter "
                 "(%.2f\xe2\x80\x93%.2f): neither a slowdown nor a speed-up of %.0f%% is "
                 "excluded",
                 g->ratio, g->lo, g->hi, 100.0 * (R - 1.0));
    else
        snprintf(g->why, sizeof g->why,
                 "the change (\xc3\x97%.2f) is inside the run-to-run band (%.2f\xe2\x80\x93%.2f)",
                 g->ratio, g->lo, g->hi);
}

/* A correction models the machine; it may explain a difference, never
 * decide one: a verdict stands only where the uncorrected times point the
 * same way (slower or faster by the threshold, or within it).  Equal
 * medians with more load on A's side would otherwise read as "2.6×
 * slower, corrected for the others' load". */
void compare_correction_alone(compare_group *g, double R, compare_correct corr)
{
    double raw = g->raw_ratio;
    int agrees = g->verdict == CMP_SLOWER      ? raw >= R
                 : g->verdict == CMP_FASTER    ? raw <= 1.0 / R
                 : g->verdict == CMP_UNCHANGED ? raw > 1.0 / R && raw < R
                                               : 1;
    if (agrees)
        return;
    snprintf(g->why, sizeof g->why,
             "the correction %s alone makes this %s: the uncorrected times differ by "
             "\xc3\x97%.2f",
             corr == COMPARE_CORRECT_REFERENCE ? "by the machine's reference"
                                               : "for the others' load",
             g->verdict == CMP_SLOWER   ? "a slowdown"
             : g->verdict == CMP_FASTER ? "a speed-up"
                                        : "no change",
             raw);
    g->verdict = CMP_INCONCLUSIVE;
}

/* The verdict is on the quick tenth of each point's samples (q_level);
 * the run pages show medians.  "No change" stands only where the medians
 * did not move by the threshold either: a device that stalls more often
 * keeps its quickest samples and loses its typical ones, and a reader who
 * puts the two run pages side by side must not catch "no change" out. */
void compare_medians_moved(compare_group *g, double R)
{
    const double m = g->median_ratio;
    if (g->verdict != CMP_UNCHANGED || (m > 1.0 / R && m < R))
        return;
    snprintf(g->why, sizeof g->why,
             "the quickest tenth of the step times did not move, but the medians %s "
             "\xc3\x97%.2f: the slower samples changed (a busier machine, or a device that "
             "stalls more often)",
             m > 1.0 ? "rose" : "fell", m);
    g->verdict = CMP_INCONCLUSIVE;
}

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

/* 1 when g's interval rests on no measured scatter: one pair of passes,
 * or replicates with one run on a side (that side's spread is unknown). */
static int unmeasured(const compare_group *g)
{
    return g->paired ? g->npairs < 2 : g->na + g->nb > 2 && (g->na < 2 || g->nb < 2);
}

double compare_detectable(double se, int df, double alpha, double R)
{
    const double t1 = stats_t_quantile(1.0 - alpha / 2.0, df > 0 ? df : 1);
    const double tp = stats_t_quantile(COMPARE_POWER, df > 0 ? df : 1);
    return exp(fmax(log(R), t1 * se) + tp * se);
}

void compare_group_gate(compare_group *g, double alpha, double R, compare_more how)
{
    const int few = unmeasured(g);
    g->detectable = few ? INFINITY : compare_detectable(g->se, g->df, alpha, R);
    g->settle[0] = g->held[0] = '\0';
    if (g->verdict == CMP_SLOWER)
        g->gate = COMPARE_GATE_FAIL;
    else if (!few && g->npoints >= COMPARE_MIN_POINTS && g->hi < R && g->median_ratio < R &&
             (!g->corrected || g->raw_ratio < R))
        g->gate = COMPARE_GATE_PASS;
    else {
        g->gate = COMPARE_GATE_OPEN;
        if (few && g->paired)
            snprintf(g->settle, sizeof g->settle,
                     "2 pairs of passes at least (ab --passes 2 or more): one pair cannot say "
                     "how much pairs differ");
        else if (few)
            snprintf(g->settle, sizeof g->settle,
                     "2 runs on each side at least (run --repeat 2): side %c's one run cannot "
                     "say how much its runs differ",
                     g->na < 2 ? 'A' : 'B');
        else if (g->npoints >= COMPARE_MIN_POINTS && g->hi >= R)
            settle(g, alpha, R, how);
        else if (g->npoints >= COMPARE_MIN_POINTS && g->median_ratio >= R)
            snprintf(g->held, sizeof g->held,
                     "its interval ends below \xc3\x97%.2f, but the medians rose \xc3\x97%.2f: "
                     "the slower samples changed (a busier machine, or a device that stalls "
                     "more often)",
                     R, g->median_ratio);
        else if (g->npoints >= COMPARE_MIN_POINTS)
            snprintf(g->held, sizeof g->held,
                     "its interval ends below \xc3\x97%.2f, but the uncorrected times rose "
                     "\xc3\x97%.2f: the correction alone keeps it below",
                     R, g->raw_ratio);
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
    const compare_group *open = NULL, *fail = NULL, *wide = NULL;
    const compare_lost *lost = NULL;
    int i, nlost = 0;
    bands(s);
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        if (g->gate == COMPARE_GATE_FAIL && !fail)
            fail = g;
        if (g->gate == COMPARE_GATE_OPEN && !open)
            open = g;
        /* the gate passes, but the two-sided verdict cannot say "no change" */
        if (g->gate == COMPARE_GATE_PASS && g->verdict == CMP_INCONCLUSIVE && g->lo <= 1.0 / R &&
            !wide)
            wide = g;
    }
    for (i = 0; i < s->nlost; i++)
        if (s->lost[i].blocks) {
            lost = lost ? lost : &s->lost[i];
            nlost++;
        }
    /* what B lost is a regression the intervals cannot see */
    s->gate = fail || lost          ? COMPARE_GATE_FAIL
              : open || !s->ngroups ? COMPARE_GATE_OPEN
                                    : COMPARE_GATE_PASS;
    if (lost)
        snprintf(s->gate_why, sizeof s->gate_why, "B lost what A measured: %s%s", lost->text,
                 nlost > 1 ? " (and more: see \"lost in B\")" : "");
    else if (fail)
        snprintf(s->gate_why, sizeof s->gate_why, "a slowdown of %.0f%% or more: %s",
                 100.0 * (R - 1.0), fail->text);
    else if (open && !isfinite(open->detectable))
        snprintf(s->gate_why, sizeof s->gate_why,
                 "cannot exclude a slowdown of %.0f%%: %s %s %s, time \xc3\x97%.2f; it could "
                 "detect nothing; to settle it: %s",
                 100.0 * (R - 1.0), open->dev_a, workload_mode_name(open->mode),
                 fit_view_name(open->view), open->ratio, open->settle);
    else if (open) {
        /* what held the gate, where the interval alone would pass it;
         * else why the verdict is open */
        const char *why = open->held[0] ? open->held : open->why;
        snprintf(s->gate_why, sizeof s->gate_why,
                 "cannot exclude a slowdown of %.0f%%: %s %s %s, time \xc3\x97%.2f "
                 "(%.2f\xe2\x80\x93%.2f)%s%s; it could detect \xc3\x97%.2f (%.0f%% power)%s%s",
                 100.0 * (R - 1.0), open->dev_a, workload_mode_name(open->mode),
                 fit_view_name(open->view), open->ratio, open->lo, open->hi, why[0] ? ": " : "",
                 why, open->detectable, 100.0 * COMPARE_POWER,
                 open->settle[0] ? "; to settle it: " : "", open->settle);
    } else if (!s->ngroups)
        snprintf(s->gate_why, sizeof s->gate_why, "no point was measured on both sides");
    else if (wide)
        snprintf(s->gate_why, sizeof s->gate_why,
                 "no slowdown of %.0f%% or more: every interval ends below \xc3\x97%.2f; a "
                 "speed-up is not excluded (%s %s %s reaches \xc3\x97%.2f), so the verdict "
                 "cannot say \"no change\"",
                 100.0 * (R - 1.0), R, wide->dev_a, workload_mode_name(wide->mode),
                 fit_view_name(wide->view), wide->lo);
    else
        snprintf(s->gate_why, sizeof s->gate_why,
                 "no slowdown of %.0f%% or more: every interval ends below \xc3\x97%.2f",
                 100.0 * (R - 1.0), R);
}

int compare_gate_status(const compare_set *s)
{
    return s->gate == COMPARE_GATE_PASS ? 0 : s->gate == COMPARE_GATE_FAIL ? 3 : 4;
}
