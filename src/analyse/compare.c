/*
 * compare.c — two runs side by side (see compare.h).
 *
 * The points of both runs are matched by device (its id, else its model
 * name), mode, hidden width and batch size, and a device whose model
 * differs between the runs is said to; the verdicts, run-level and per
 * point, are compare_run.c's (compare_pair.c's for an `ab` pair), their
 * words and the gate compare_gate.c's.  The crossovers are matched by their
 * two devices; the provenance fields that explain a change (driver,
 * OpenBLAS, breakeven, hardware, the environment) are compare_prov.c's.
 * report.c turns the result into a page; the command (cmd_compare.c) prints the table.
 */
#include "compare.h"
#include "compare_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "fit.h"
#include "fmt.h"
#include "json.h"
#include "query.h"
#include "workload.h"

const char *compare_verdict_name(compare_verdict v)
{
    /* in the enum's order (compare.h) */
    static const char *const names[] = {"no change", "faster", "slower", "not comparable",
                                        "inconclusive"};
    return (unsigned)v < sizeof names / sizeof *names ? names[v] : "no change";
}

/* The device of b that corresponds to device index da of a: the device
 * with the same id ("cpu" is the CPU of any machine; an OpenCL id names
 * the same device while the platforms keep their order); failing that,
 * among b's devices whose ids a lacks, the k-th with the same model name,
 * where da is the k-th of a's devices with that name whose ids b lacks (a
 * driver that renumbered its platforms). */
const device_info *compare_match_device(const results *a, int da, const results *b)
{
    const device_info *same = results_device(b, a->devices[da].id);
    int i, k = 0;
    if (same)
        return same;
    for (i = 0; i < da; i++)
        k += strcmp(a->devices[i].name, a->devices[da].name) == 0 &&
             !results_device(b, a->devices[i].id);
    for (i = 0; i < b->ndevices; i++)
        if (strcmp(b->devices[i].name, a->devices[da].name) == 0 &&
            !results_device(a, b->devices[i].id) && k-- == 0)
            return &b->devices[i];
    return NULL;
}

/* The id under which a device of side k (0: a, 1: b) is compared: its id
 * in a (a device of b that no device of a matches keeps its own). */
static const char *key_of(const results *a, const results *b, int k, const char *id)
{
    int i;
    if (k == 0)
        return id;
    for (i = 0; i < a->ndevices; i++) {
        const device_info *m = compare_match_device(a, i, b);
        if (m && strcmp(m->id, id) == 0)
            return a->devices[i].id;
    }
    return id;
}

/* The crossover of side r (k: 0 for a, 1 for b) that c stands for, or NULL. */
static const fit_crossover *side_cross(const results *a, const results *b, int k,
                                       const compare_cross *c)
{
    const results *r = k ? b : a;
    int i;
    for (i = 0; r->has_fit && i < r->fit.ncross; i++) {
        const fit_crossover *x = &r->fit.cross[i];
        if (x->mode == c->mode && x->view == c->view && x->cost == c->cost &&
            strcmp(key_of(a, b, k, x->base), c->base) == 0 &&
            strcmp(key_of(a, b, k, x->other), c->other) == 0)
            return x;
    }
    return NULL;
}

/* One width's crossover in words: "always", "crosses at batch 38 (95% CI
 * 32–44)". */
static void width_text(const fit_hidden_cross *h, char *buf, size_t size)
{
    char ci[96];
    if (h->kind != CROSS_IN_RANGE) {
        snprintf(buf, size, "%s", fit_cross_kind_name(h->kind));
        return;
    }
    findings_batch_ci(h, ci, sizeof ci);
    snprintf(buf, size, "crosses at batch %.0f %s", h->batch, ci);
}

/* The items of a comma-separated list ("128,256,512": 3). */
static int count_items(const char *list)
{
    int n = *list != '\0';
    for (; *list; list++)
        n += *list == ',';
    return n;
}

/* When the runs measured different grids, their summaries across widths
 * answer over different shapes, so "the crossover went from in-range to
 * always" could be the grid's doing.  Then the move is told width by width,
 * at the widths both runs crossed: each run's crossover there, side by
 * side.  Replaces c->text's comparison of the summaries. */
static void describe_by_width(const results *a, const results *b, compare_cross *c)
{
    const fit_crossover *xa = side_cross(a, b, 0, c), *xb = side_cross(a, b, 1, c);
    char ta[160], tb[160];
    int i, j, n = 0;
    fmt_append(c->text, sizeof c->text,
               "; the grids differ (%d widths \xc3\x97 %d batches in A, %d \xc3\x97 %d in B)",
               count_items(a->prov.hidden), count_items(a->prov.batch), count_items(b->prov.hidden),
               count_items(b->prov.batch));
    for (i = 0; xa && xb && i < xa->nhidden; i++)
        for (j = 0; j < xb->nhidden; j++) {
            if (xa->per_hidden[i].hidden != xb->per_hidden[j].hidden)
                continue;
            width_text(&xa->per_hidden[i], ta, sizeof ta);
            width_text(&xb->per_hidden[j], tb, sizeof tb);
            if (strcmp(ta, tb) == 0)
                fmt_append(
                    c->text, sizeof c->text, "%s hidden %d %s in both",
                    n++ ? ";" : ", so by the widths both measured:", xa->per_hidden[i].hidden, ta);
            else
                fmt_append(c->text, sizeof c->text, "%s hidden %d %s in A, %s in B",
                           n++ ? ";" : ", so by the widths both measured:",
                           xa->per_hidden[i].hidden, ta, tb);
        }
    if (!n)
        fmt_append(c->text, sizeof c->text, ", and no width was measured in both");
}

/* The move in words: each run's verdict (the phrase every output of that
 * run uses), then how the crossover across widths moved when both cross
 * (width by width when the grids differ). */
static void describe_move(compare_cross *c, const results *a, const results *b)
{
    char fa[32], fb[32], what[400];
    const char *ahead = c->cost ? "cheaper per step" : "faster";
    fmt_si(fa, sizeof fa, c->flops_a, 3, "FLOP");
    fmt_si(fb, sizeof fb, c->flops_b, 3, "FLOP");
    snprintf(what, sizeof what, "%s vs %s, %s, %s%s", c->other, c->base,
             workload_mode_name(c->mode), fit_view_name(c->view), c->cost ? ", cost" : "");
    if (!c->in_a || !c->in_b) {
        snprintf(c->text, sizeof c->text, "%s: only in run %s", what, c->in_a ? "A" : "B");
        return;
    }
    if (c->verdict_a == c->verdict_b && strcmp(c->shapes_a, c->shapes_b) == 0)
        snprintf(c->text, sizeof c->text, "%s: %s %s in both runs", what, ahead, c->shapes_a);
    else
        snprintf(c->text, sizeof c->text, "%s: %s %s in A, %s in B", what, ahead, c->shapes_a,
                 c->shapes_b);
    if (strcmp(a->prov.hidden, b->prov.hidden) != 0 || strcmp(a->prov.batch, b->prov.batch) != 0)
        describe_by_width(a, b, c);
    else if (c->kind_a == c->kind_b &&
             (c->kind_a == CROSS_IN_RANGE || c->kind_a == CROSS_EXTRAPOLATED) && c->flops_a > 0.0 &&
             c->flops_b > 0.0)
        fmt_append(c->text, sizeof c->text,
                   "; the crossover (median across widths) moved from "
                   "%s to %s per layer (%+.0f%%)",
                   fa, fb, 100.0 * (c->flops_b / c->flops_a - 1.0));
    else if (c->kind_a != c->kind_b)
        fmt_append(c->text, sizeof c->text, "; the crossover went from %s to %s",
                   fit_cross_kind_name(c->kind_a), fit_cross_kind_name(c->kind_b));
}

void compare_crossovers(const results *a, const results *b, compare_set *s)
{
    int i, j;
    const results *side[2] = {a, b};
    int k;
    for (k = 0; k < 2; k++) {
        const results *r = side[k];
        if (!r->has_fit)
            continue;
        for (i = 0; i < r->fit.ncross; i++) {
            const fit_crossover *x = &r->fit.cross[i];
            const char *base = key_of(a, b, k, x->base), *other = key_of(a, b, k, x->other);
            compare_cross *c = NULL;
            finding f;
            for (j = 0; j < s->ncross; j++)
                if (strcmp(s->cross[j].base, base) == 0 && strcmp(s->cross[j].other, other) == 0 &&
                    s->cross[j].mode == x->mode && s->cross[j].view == x->view &&
                    s->cross[j].cost == x->cost)
                    c = &s->cross[j];
            if (!c) {
                if (s->ncross == COMPARE_MAX_CROSS)
                    continue;
                c = &s->cross[s->ncross++];
                snprintf(c->base, sizeof c->base, "%s", base);
                snprintf(c->other, sizeof c->other, "%s", other);
                c->mode = x->mode;
                c->view = x->view;
                c->cost = x->cost;
            }
            findings_of(r, &r->fit, &r->prices, x, &f);
            if (k == 0) {
                c->in_a = 1;
                c->kind_a = x->kind;
                c->flops_a = x->flops;
                c->verdict_a = f.verdict;
                findings_shapes_text(&f, c->shapes_a, sizeof c->shapes_a);
            } else {
                c->in_b = 1;
                c->kind_b = x->kind;
                c->flops_b = x->flops;
                c->verdict_b = f.verdict;
                findings_shapes_text(&f, c->shapes_b, sizeof c->shapes_b);
            }
        }
    }
    for (j = 0; j < s->ncross; j++)
        describe_move(&s->cross[j], a, b);
}

void compare_free(compare_set *s)
{
    free(s->points);
    s->points = NULL;
    s->npoints = 0;
}

/* ". A ran on a busier machine: …. The change is beyond that" of a note
 * "A ran on a busier machine: …; the change is beyond that": each of its
 * clauses a sentence, which alone is short enough to read at once. */
static void clauses_as_sentences(const char *note, char *buf, size_t size)
{
    const char *p = note;
    while (*p) {
        const char *end = strstr(p, "; ");
        int n = end ? (int)(end - p) : (int)strlen(p);
        if (n > 0)
            fmt_append(buf, size, ". %c%.*s", toupper((unsigned char)*p), n - 1, p + 1);
        p += n + (end ? 2 : 0);
    }
}

void compare_summary(const compare_set *s, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    /* a sentence or two a group, by the device's name: short enough to
     * read at once (tests/prose_lint) */
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        char v[400], d[160];
        compare_group_verdict(g, s->opts.threshold,
                              g->corrected ? s->opts.correct : COMPARE_CORRECT_NONE, v, sizeof v);
        compare_group_detect(g, d, sizeof d);
        fmt_append(buf, size, "%s%s in %s, %s: %s. It %s", i ? ". " : "", g->name,
                   workload_mode_name(g->mode),
                   g->view == FIT_TRANSFER ? "transfers counted" : "data resident", v, d);
        if (g->note[0])
            clauses_as_sentences(g->note, buf, size);
    }
    if (s->napart)
        fmt_append(buf, size, "%s%d point%s moved apart from %s run", s->ngroups ? ". " : "",
                   s->napart, s->napart == 1 ? "" : "s", s->napart == 1 ? "its" : "their");
}

/* The device of a point as the tables name it: "cpu (AMD EPYC)", or the
 * ids of both runs when they differ. */
static void device_name(const compare_point *c, char *buf, size_t size)
{
    /* a network's point leads with its sizes: its hidden is only its widest */
    const char *sep = c->sizes[0] ? " " : "";
    if (strcmp(c->dev_a, c->dev_b) == 0)
        snprintf(buf, size, "%s%s%s (%s)", c->sizes, sep, c->dev_a, c->model);
    else
        snprintf(buf, size, "%s%s%s → %s (%s)", c->sizes, sep, c->dev_a, c->dev_b, c->model);
}

/* A point's verdict with its move apart from the run: "slower, apart". */
static void point_verdict(const compare_point *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", compare_verdict_name(c->verdict),
             c->apart > 0   ? ", up from its run"
             : c->apart < 0 ? ", down from its run"
                            : "");
}

/* The machine's reference between the runs in words. */
static void reference_text(const compare_set *s, char *buf, size_t size)
{
    double pct = 100.0 * (s->ref_ratio - 1.0);
    if (s->ref_ratio <= 0.0) {
        snprintf(buf, size,
                 "the machine's reference: not timed in every run (runs made before "
                 "breakeven timed it)");
        return;
    }
    snprintf(buf, size,
             "the machine's reference (a fixed C loop and a memory stream, timed with every "
             "pass) took \xc3\x97%.2f in B (loop \xc3\x97%.2f, stream \xc3\x97%.2f): ",
             s->ref_ratio, s->ref_loop, s->ref_stream);
    if (fabs(pct) < 3.0)
        fmt_append(buf, size, "the machine itself ran at the same speed (within 3%%)");
    else if (s->ref_ratio > 1.5)
        fmt_append(buf, size, "the machine itself took %.2f\xc3\x97 as long in B", s->ref_ratio);
    else
        fmt_append(buf, size, "the machine itself ran %.0f%% %s in B", fabs(pct),
                   pct > 0 ? "slower" : "faster");
}

void compare_lead(const compare_set *s, char *buf, size_t size)
{
    char ref[600];
    int i, k;
    snprintf(buf, size, "Verdict: %s%s%s. ",
             s->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(s->verdict),
             s->verdict == CMP_INCONCLUSIVE ? " \xe2\x80\x94 " : "",
             s->verdict == CMP_INCONCLUSIVE ? s->why : "");
    for (i = 0; i < s->nlost; i++)
        fmt_append(buf, size, "Lost in B: %s. ", s->lost[i].text);
    /* the gate's question, answered as --fail-on-regression and ab do */
    fmt_append(buf, size, "Gate (--fail-on-regression, exit %d): %s. ", compare_gate_status(s),
               s->gate_why);
    for (i = 0; i < s->nwarnings; i++)
        fmt_append(buf, size, "Warning: %c %s recorded %s: its times may owe to the machine. ",
                   s->warnings[i].side, s->warnings[i].id, s->warnings[i].text);
    if (s->warnings_more)
        fmt_append(buf, size, "Warning: %d more run%s recorded such things. ", s->warnings_more,
                   s->warnings_more == 1 ? "" : "s");
    fmt_append(buf, size,
               "A change counts from %.0f%%; the intervals are at %.0f%% and hold the "
               "run-to-run variation, measured from %s. ",
               100.0 * (s->opts.threshold - 1.0), 100.0 * (1.0 - s->opts.alpha), s->band_from);
    reference_text(s, ref, sizeof ref);
    ref[0] = (char)(ref[0] == 't' ? 'T' : ref[0]);
    fmt_append(buf, size, "%s.", ref);
    if (s->left_a || s->left_b)
        fmt_append(buf, size, " Left out: %d ok point%s of A and %d of B that the other lacks.",
                   s->left_a, s->left_a == 1 ? "" : "s", s->left_b);
    if (s->hop_left[0])
        fmt_append(buf, size,
                   " Left out, as the host's CPUs were a cache apart while they ran (their "
                   "round trip against the quickest run's %.0f ns): %s.",
                   1e9 * s->hop_min, s->hop_left);
    if (s->only_nets[0][0] || s->only_nets[1][0])
        fmt_append(buf, size, " Networks not shared, not compared: A only %s; B only %s.",
                   s->only_nets[0][0] ? s->only_nets[0] : "none",
                   s->only_nets[1][0] ? s->only_nets[1] : "none");
    if (s->napart)
        fmt_append(buf, size, " Moved apart from their run:");
    for (i = 0, k = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        if (c->apart)
            fmt_append(buf, size, "%s %s %s %d\xc3\x97%d (\xc3\x97%.2f, %s)", k++ ? ";" : "",
                       c->dev_a, workload_mode_name(c->mode), c->hidden, c->batch, c->ratio,
                       c->apart > 0 ? "up" : "down");
    }
    if (s->napart)
        fmt_append(buf, size, ".");
}

/* s as Markdown text, for a table cell or a list item (fmt_markdown): no
 * raw HTML, no live link or image, no table broken by a pipe. */
static void md_cell(FILE *out, const char *s)
{
    char buf[5 * 2048];
    fmt_markdown(buf, sizeof buf, s);
    fputs(buf, out);
}

/* A Markdown list item: "- what", or with a change "- what: a → b". */
static void md_item(FILE *out, const char *what, const char *a, const char *b)
{
    fputs("- ", out);
    md_cell(out, what);
    if (a) {
        fputs(": ", out);
        md_cell(out, a);
        fputs(" → ", out);
        md_cell(out, b);
    }
    fputc('\n', out);
}

/* One lead line: as it is, or (md) as Markdown text behind "> ". */
static void lead_line(FILE *out, int md, const char *line)
{
    if (md) {
        fputs("> ", out);
        md_cell(out, line);
        fputc('\n', out);
    } else
        fprintf(out, "%s\n", line);
}

/* "warning: B 2099…-x recorded busy machine (3 passes); …": what a run
 * recorded that its times may owe to the machine. */
static void warning_text(const compare_warning *w, char *buf, size_t size)
{
    snprintf(buf, size, "warning: %c %s recorded %s: its times may owe to the machine", w->side,
             w->id, w->text);
}

/* "provenance: nothing differs", unless a run recorded a warning: then the
 * machine's state did differ from a quiet one's. */
static const char *nothing_differs(const compare_set *s)
{
    return s->nwarnings || s->warnings_more
               ? "provenance: nothing differs, but the machine's state may have (see the "
                 "warnings above)"
               : "provenance: nothing differs";
}

/* "lost in B: cl:0.0 inference resident: 12 of 12 points (…)": what A
 * measured and B did not give, first of all: the groups cannot show it. */
static void lost_lines(FILE *out, const compare_set *s, int md)
{
    char buf[400];
    int i;
    for (i = 0; i < s->nlost; i++) {
        snprintf(buf, sizeof buf, "lost in B: %s", s->lost[i].text);
        lead_line(out, md, buf);
    }
}

/* The lines that lead every format: what B lost, the groups, the overall
 * verdict and why, what the runs recorded of the machine, the band, the
 * machine's reference, what was left out, the points apart. */
static void lead_lines(FILE *out, const compare_set *s, int md)
{
    char buf[1600], dev[320];
    int i;
    if (!md)
        lost_lines(out, s, md);
    for (i = 0; i < s->ngroups; i++)
        lead_line(out, md, s->groups[i].text);
    snprintf(buf, sizeof buf, "verdict: %s%s%s",
             s->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(s->verdict),
             s->verdict == CMP_INCONCLUSIVE ? " \xe2\x80\x94 " : "",
             s->verdict == CMP_INCONCLUSIVE ? s->why : "");
    lead_line(out, md, buf);
    snprintf(buf, sizeof buf, "gate (a slowdown of %.0f%% or more): %s \xe2\x80\x94 %s",
             100.0 * (s->opts.threshold - 1.0), compare_gate_name(s->gate), s->gate_why);
    lead_line(out, md, buf);
    for (i = 0; i < s->nwarnings; i++) {
        warning_text(&s->warnings[i], buf, sizeof buf);
        lead_line(out, md, buf);
    }
    if (s->warnings_more) {
        snprintf(buf, sizeof buf, "warning: %d more run%s recorded such things", s->warnings_more,
                 s->warnings_more == 1 ? "" : "s");
        lead_line(out, md, buf);
    }
    snprintf(buf, sizeof buf, "threshold %.0f%%, intervals at %.0f%%; run-to-run band from %s",
             100.0 * (s->opts.threshold - 1.0), 100.0 * (1.0 - s->opts.alpha), s->band_from);
    lead_line(out, md, buf);
    reference_text(s, buf, sizeof buf);
    lead_line(out, md, buf);
    if (s->left_a || s->left_b) {
        snprintf(buf, sizeof buf,
                 "left out: %d ok point%s of A and %d of B that the other side lacks", s->left_a,
                 s->left_a == 1 ? "" : "s", s->left_b);
        lead_line(out, md, buf);
    }
    if (s->hop_left[0]) {
        snprintf(buf, sizeof buf,
                 "left out: runs with the host's CPUs a cache apart (their round trip; the "
                 "quickest run's %.0f ns): %s",
                 1e9 * s->hop_min, s->hop_left);
        lead_line(out, md, buf);
    }
    if (s->only_nets[0][0] || s->only_nets[1][0]) {
        snprintf(buf, sizeof buf, "networks not shared, not compared: A only %s; B only %s",
                 s->only_nets[0][0] ? s->only_nets[0] : "none",
                 s->only_nets[1][0] ? s->only_nets[1] : "none");
        lead_line(out, md, buf);
    }
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        if (!c->apart)
            continue;
        device_name(c, dev, sizeof dev);
        snprintf(buf, sizeof buf, "moved %s from its run: %s %s hidden %d batch %d, \xc3\x97%.2f",
                 c->apart > 0 ? "up" : "down", dev, workload_mode_name(c->mode), c->hidden,
                 c->batch, c->ratio);
        lead_line(out, md, buf);
    }
}

static void write_text(FILE *out, const compare_set *s)
{
    int i;
    char dev[320], ta[32], tb[32], v[64];
    lead_lines(out, s, 0);
    fprintf(out, "\nA = %s\nB = %s\n\n", s->ids_a, s->ids_b);
    fprintf(out, "%-40s %-9s %6s %6s %10s %10s %7s %13s  %s\n", "device", "mode", "hidden", "batch",
            "A p10", "B p10", "B/A", "interval", "verdict");
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        device_name(c, dev, sizeof dev);
        fmt_clip(dev, 40);
        fprintf(out, "%-*s %-9s %6d %6d ", fmt_width(dev, 40), dev, workload_mode_name(c->mode),
                c->hidden, c->batch);
        if (c->verdict == CMP_MISSING) {
            fprintf(out, "%*s %*s %7s %13s  %s (A %s, B %s)\n", fmt_width("—", 10), "—",
                    fmt_width("—", 10), "—", "", "", compare_verdict_name(c->verdict),
                    results_status_name(c->status_a), results_status_name(c->status_b));
            continue;
        }
        fmt_time(ta, sizeof ta, c->level_a);
        fmt_time(tb, sizeof tb, c->level_b);
        point_verdict(c, v, sizeof v);
        fprintf(out, "%*s %*s %7.3f %6.3f–%6.3f  %s\n", fmt_width(ta, 10), ta, fmt_width(tb, 10),
                tb, c->ratio, c->lo, c->hi, v);
    }
    if (s->ncross)
        fprintf(out, "\ncrossovers:\n");
    for (i = 0; i < s->ncross; i++)
        fprintf(out, "  %s\n", s->cross[i].text);
    fprintf(out, "\n%s\n", s->ndiffs ? "what differs:" : nothing_differs(s));
    for (i = 0; i < s->ndiffs; i++)
        fprintf(out, "  %s: %s → %s\n", s->diffs[i].what, s->diffs[i].a, s->diffs[i].b);
}

static void write_markdown(FILE *out, const compare_set *s)
{
    int i;
    char dev[320], ta[32], tb[32], v[64];
    lost_lines(out, s, 1);
    if (s->nlost)
        fputc('\n', out);
    for (i = 0; i < s->ngroups; i++) {
        fputs(i ? "- " : "- **", out);
        md_cell(out, s->groups[i].text);
        fputs(i ? "\n" : "**\n", out);
    }
    /* the ids as escaped text: in a code span no escape works */
    fputs("\n**A** ", out);
    md_cell(out, s->ids_a);
    fputs(" → **B** ", out);
    md_cell(out, s->ids_b);
    fputs("\n\n", out);
    lead_lines(out, s, 1);
    fprintf(out, "\n| device | mode | hidden | batch | A p10 | B p10 | B/A | interval | verdict |\n"
                 "|---|---|---:|---:|---:|---:|---:|---|---|\n");
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        device_name(c, dev, sizeof dev);
        fputs("| ", out);
        md_cell(out, dev);
        fprintf(out, " | %s | %d | %d | ", workload_mode_name(c->mode), c->hidden, c->batch);
        if (c->verdict == CMP_MISSING) {
            fprintf(out, "— | — | | | %s (A %s, B %s) |\n", compare_verdict_name(c->verdict),
                    results_status_name(c->status_a), results_status_name(c->status_b));
            continue;
        }
        fmt_time(ta, sizeof ta, c->level_a);
        fmt_time(tb, sizeof tb, c->level_b);
        point_verdict(c, v, sizeof v);
        fprintf(out, "%s | %s | %.3f | %.3f–%.3f | %s%s%s |\n", ta, tb, c->ratio, c->lo, c->hi,
                c->verdict == CMP_SLOWER || c->verdict == CMP_FASTER ? "**" : "", v,
                c->verdict == CMP_SLOWER || c->verdict == CMP_FASTER ? "**" : "");
    }
    if (s->ncross)
        fprintf(out, "\n**Crossovers**\n\n");
    for (i = 0; i < s->ncross; i++)
        md_item(out, s->cross[i].text, NULL, NULL);
    if (s->ndiffs)
        fputs("\n**What differs**\n\n", out);
    else if (s->nwarnings || s->warnings_more)
        fputs("\n**Provenance: nothing differs**, but the machine's state may have (see the "
              "warnings above)\n\n",
              out);
    else
        fputs("\n**Provenance: nothing differs**\n\n", out);
    for (i = 0; i < s->ndiffs; i++)
        md_item(out, s->diffs[i].what, s->diffs[i].a, s->diffs[i].b);
}

static void json_group(FILE *out, const compare_group *g)
{
    fputs("{\"device_a\": ", out);
    json_string(out, g->dev_a);
    json_member_string(out, "device_b", g->dev_b);
    json_member_string(out, "model", g->model);
    fprintf(out, ", \"mode\": \"%s\", \"view\": \"%s\", \"points\": %d, \"ratio\": ",
            workload_mode_name(g->mode), fit_view_name(g->view), g->npoints);
    json_number(out, g->ratio);
    json_member_number(out, "lo", g->lo);
    json_member_number(out, "hi", g->hi);
    json_member_number(out, "median_ratio", g->median_ratio);
    json_member_number(out, "run_sd", g->run_sd);
    fprintf(out, ", \"df\": %d, \"point_sd\": ", g->df);
    json_number(out, g->point_sd);
    fprintf(out,
            ", \"corrected\": %s, \"verdict\": \"%s\", \"why\": ", g->corrected ? "true" : "false",
            g->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(g->verdict));
    json_string(out, g->why);
    fprintf(out, ", \"gate\": \"%s\", \"paired\": %s", compare_gate_name(g->gate),
            g->paired ? "true" : "false");
    json_member_number(out, "se", g->se);
    json_member_number(out, "detectable", g->detectable);
    json_member_string(out, "settle", g->settle);
    json_member_string(out, "held", g->held);
    json_member_string(out, "note", g->note);
    json_member_string(out, "band_from", g->band_from);
    json_member_string(out, "text", g->text);
    fputc('}', out);
}

static void json_ids(FILE *out, const char *ids)
{
    char one[200];
    const char *p = ids;
    int first = 1;
    fputc('[', out);
    while (*p) {
        size_t n = strcspn(p, ",");
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
        fputs(first ? "" : ", ", out);
        json_string(out, one);
        first = 0;
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    fputc(']', out);
}

static void write_json(FILE *out, const compare_set *s)
{
    int i;
    fprintf(out, "{\"verdict\": \"%s\", \"why\": ",
            s->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(s->verdict));
    json_string(out, s->verdict == CMP_INCONCLUSIVE ? s->why : "");
    fprintf(out, ", \"gate\": \"%s\"", compare_gate_name(s->gate));
    json_member_string(out, "gate_why", s->gate_why);
    fprintf(out, ", \"paired\": %s", s->paired ? "true" : "false");
    fputs(",\n \"lost\": [", out);
    for (i = 0; i < s->nlost; i++) {
        const compare_lost *l = &s->lost[i];
        fputs(i ? ", {\"device_a\": " : "{\"device_a\": ", out);
        json_string(out, l->dev_a);
        fprintf(out,
                ", \"mode\": \"%s\", \"view\": \"%s\", \"measured\": %d, \"lost\": %d, "
                "\"device\": %s, \"blocks\": %s",
                workload_mode_name(l->mode), fit_view_name(l->view), l->measured, l->lost,
                l->device ? "true" : "false", l->blocks ? "true" : "false");
        json_member_string(out, "text", l->text);
        fputc('}', out);
    }
    fputs("],\n \"warnings\": [", out);
    for (i = 0; i < s->nwarnings; i++) {
        fprintf(out, "%s{\"side\": \"%c\", \"run\": ", i ? ", " : "", s->warnings[i].side);
        json_string(out, s->warnings[i].id);
        json_member_string(out, "text", s->warnings[i].text);
        fputc('}', out);
    }
    fprintf(out, "], \"warnings_more\": %d,\n \"groups\": [", s->warnings_more);
    for (i = 0; i < s->ngroups; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_group(out, &s->groups[i]);
    }
    fputs("],\n \"a\": ", out);
    json_string(out, s->id_a);
    json_member_string(out, "b", s->id_b);
    fputs(", \"runs_a\": ", out);
    json_ids(out, s->ids_a);
    fputs(", \"runs_b\": ", out);
    json_ids(out, s->ids_b);
    fputs(",\n \"threshold\": ", out);
    json_number(out, s->opts.threshold);
    json_member_number(out, "alpha", s->opts.alpha);
    json_member_string(out, "band_from", s->band_from);
    json_member_number(out, "reference_ratio", s->ref_ratio > 0 ? s->ref_ratio : NAN);
    json_member_number(out, "reference_loop", s->ref_ratio > 0 ? s->ref_loop : NAN);
    json_member_number(out, "reference_stream", s->ref_ratio > 0 ? s->ref_stream : NAN);
    /* the CPUs' round trips, seconds (cachehop.h), and the runs left out
     * for them */
    fputs(",\n \"round_trip_a\": ", out);
    json_number(out, s->hop_a > 0 ? s->hop_a : NAN);
    json_member_number(out, "round_trip_b", s->hop_b > 0 ? s->hop_b : NAN);
    json_member_string(out, "left_out_apart", s->hop_left);
    fprintf(out,
            ",\n \"faster\": %d, \"slower\": %d, \"unchanged\": %d, \"inconclusive\": %d, "
            "\"missing\": %d, \"apart\": %d, \"left_out_a\": %d, \"left_out_b\": %d, "
            "\"geomean_ratio\": ",
            s->nfaster, s->nslower, s->nunchanged, s->ninconclusive, s->nmissing, s->napart,
            s->left_a, s->left_b);
    json_number(out, s->geomean > 0 ? s->geomean : NAN);
    fputs(",\n \"points\": [", out);
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        const int ok = c->verdict != CMP_MISSING;
        fputs(i ? ",\n  {\"device_a\": " : "\n  {\"device_a\": ", out);
        json_string(out, c->dev_a);
        json_member_string(out, "device_b", c->dev_b);
        json_member_string(out, "model", c->model);
        fprintf(out, ", \"mode\": \"%s\", \"hidden\": %d, \"batch\": %d, \"sizes\": ",
                workload_mode_name(c->mode), c->hidden, c->batch);
        if (c->sizes[0])
            json_string(out, c->sizes);
        else
            fputs("null", out);
        json_member_number(out, "flops_per_layer", c->flops);
        fprintf(out, ", \"status_a\": \"%s\", \"status_b\": \"%s\", \"p10_a_s\": ",
                results_status_name(c->status_a), results_status_name(c->status_b));
        json_number(out, ok ? c->level_a : NAN);
        json_member_number(out, "p10_b_s", ok ? c->level_b : NAN);
        json_member_number(out, "ratio", ok ? c->ratio : NAN);
        json_member_number(out, "lo", ok ? c->lo : NAN);
        json_member_number(out, "hi", ok ? c->hi : NAN);
        fprintf(out, ", \"apart\": %d, \"verdict\": \"%s\"}", c->apart,
                c->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(c->verdict));
    }
    fputs("\n ],\n \"crossovers\": [", out);
    for (i = 0; i < s->ncross; i++) {
        fputs(i ? ", " : "", out);
        json_string(out, s->cross[i].text);
    }
    fputs("],\n \"differences\": [", out);
    for (i = 0; i < s->ndiffs; i++) {
        fputs(i ? ",\n  {\"what\": " : "\n  {\"what\": ", out);
        json_string(out, s->diffs[i].what);
        json_member_string(out, "a", s->diffs[i].a);
        json_member_string(out, "b", s->diffs[i].b);
        fputc('}', out);
    }
    fputs("]\n}\n", out);
}

/* A CSV text field: always quoted, quotes doubled, a leading = + - @ TAB
 * or CR defused with a single quote (as csv.h). */
static void csv_text(FILE *out, const char *t)
{
    fputc('"', out);
    if (strchr("=+-@\t\r", t[0]) && t[0])
        fputc('\'', out);
    for (; *t; t++) {
        if (*t == '"')
            fputc('"', out);
        fputc(*t, out);
    }
    fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.6g", v);
    else
        fputc(',', out);
}

/* One table: the run-level rows first (level "run"), then the points. */
static void write_csv(FILE *out, const compare_set *s)
{
    int i;
    fputs("level,device_a,device_b,mode,view,hidden,batch,points,p10_a_s,p10_b_s,ratio,"
          "lo,hi,verdict,note,gate,detectable\r\n",
          out);
    for (i = 0; i < s->ngroups; i++) {
        const compare_group *g = &s->groups[i];
        fputs("run,", out);
        csv_text(out, g->dev_a);
        fputc(',', out);
        csv_text(out, g->dev_b);
        fprintf(out, ",%s,%s,,,%d,,", workload_mode_name(g->mode), fit_view_name(g->view),
                g->npoints);
        csv_num(out, g->ratio);
        csv_num(out, g->lo);
        csv_num(out, g->hi);
        fprintf(out, ",%s,",
                g->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(g->verdict));
        csv_text(out, g->why[0] ? g->why : g->note);
        fprintf(out, ",%s", compare_gate_name(g->gate));
        csv_num(out, g->detectable);
        fputs("\r\n", out);
    }
    for (i = 0; i < s->nwarnings; i++) {
        char buf[800];
        warning_text(&s->warnings[i], buf, sizeof buf);
        fputs("warning,,,,,,,,,,,,,,", out);
        csv_text(out, buf);
        fputs(",,\r\n", out);
    }
    for (i = 0; i < s->npoints; i++) {
        const compare_point *c = &s->points[i];
        const int ok = c->verdict != CMP_MISSING;
        fputs("point,", out);
        csv_text(out, c->dev_a);
        fputc(',', out);
        csv_text(out, c->dev_b);
        fprintf(out, ",%s,resident,%d,%d,", workload_mode_name(c->mode), c->hidden, c->batch);
        csv_num(out, ok ? c->level_a : NAN);
        csv_num(out, ok ? c->level_b : NAN);
        csv_num(out, ok ? c->ratio : NAN);
        csv_num(out, ok ? c->lo : NAN);
        csv_num(out, ok ? c->hi : NAN);
        fprintf(out, ",%s,%s,,\r\n",
                c->verdict == CMP_UNCHANGED ? "no change" : compare_verdict_name(c->verdict),
                c->apart > 0   ? "up from its run"
                : c->apart < 0 ? "down from its run"
                               : "");
    }
}

void compare_write(FILE *out, const compare_set *s, compare_format f)
{
    if (f == COMPARE_JSON)
        write_json(out, s);
    else if (f == COMPARE_MARKDOWN)
        write_markdown(out, s);
    else if (f == COMPARE_CSV)
        write_csv(out, s);
    else
        write_text(out, s);
}

int compare_regressed(const compare_set *s)
{
    return s->gate == COMPARE_GATE_FAIL;
}
