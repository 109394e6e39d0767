/*
 * cmd_compare.c — the commands that compare runs (see cmd.h): `compare`
 * of archived runs or sides of replicates, and `ab`, the paired
 * comparison it measures itself (ab.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>

#include "ab.h"
#include "compare.h"
#include "dash.h"
#include "pick.h"
#include "stop.h"

/* `compare A B` (or A1 A2 -- B1 B2): the run-level verdicts, the table,
 * then the path of the comparison page.  With --fail-on-regression: 3 when
 * B regressed, 4 when the comparison cannot decide (one line says why). */
int cmd_compare(const cli *c)
{
    report_opts o;
    compare_opts co;
    compare_set cmp;
    pick_side pa, pb;
    char page[4200];
    err e;
    site_settings st;
    outlock lk;
    int rc, changed, status = 0;
    /* under OUT's lock from the archive read to site.conf saved */
    cmd_lock(c, &lk);
    if ((rc = outlock_take(&lk, stop_flag(), &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    if ((rc = cmd_settings(c, &st, &changed, &e)) < 0) {
        outlock_drop(&lk);
        return cmd_fail(cmd_status(rc), &e);
    }
    cmd_report_options(c, &st, &o);
    compare_opts_default(&co);
    if (c->threshold > 0.0)
        co.threshold = c->threshold;
    if (c->alpha > 0.0)
        co.alpha = c->alpha;
    if (c->correct > 0)
        co.correct = (compare_correct)(c->correct - 1);
    /* a side may be @KEY=VALUE: the archived runs that match */
    if ((rc = pick_side_expand(c->out, "A", c->args, c->nside_a, &pa, &e)) < 0 ||
        (rc = pick_side_expand(c->out, "B", c->args + c->nside_a, c->nargs - c->nside_a, &pb, &e)) <
            0 ||
        (rc = report_compare(&o, pa.arg, pa.n, pb.arg, pb.n, &co, &cmp, page, sizeof page, &e)) <
            0) {
        outlock_drop(&lk);
        return cmd_fail(cmd_status(rc), &e);
    }
    if (changed && (rc = site_settings_save(c->out, &st, &e)) < 0) {
        outlock_drop(&lk);
        compare_free(&cmp);
        return cmd_fail(cmd_status(rc), &e);
    }
    outlock_drop(&lk);
    if (c->format >= CLI_BMF &&
        (rc = dash_write_compare(stdout, &cmp, (dash_format)(c->format - CLI_BMF), &e)) < 0) {
        compare_free(&cmp);
        return cmd_fail(cmd_status(rc), &e);
    }
    if (c->format < CLI_BMF)
        compare_write(stdout, &cmp, (compare_format)c->format);
    if (c->fail_on_regression && (status = compare_gate_status(&cmp)) == 4) {
        fflush(stdout);
        cmd_print_line("breakeven: gate open: ", cmp.gate_why);
    }
    compare_free(&cmp);
    /* the page's path on stdout would break a table or JSON meant for a
     * program or a paste */
    if (c->format == CLI_TEXT)
        cmd_print_path(stdout, "%s\n", page);
    else if (!c->quiet)
        cmd_print_path(stderr, "%s\n", page);
    return status;
}

/* `ab`: the grid's options as given, then the passes and no refinement,
 * for both sides; the gate's status, or a failure's. */
int cmd_ab(const cli *c)
{
    ab_opts o;
    site_settings st;
    outlock lk;
    int gate = 4, rc, changed;
    err e;
    if ((rc = cmd_settings(c, &st, &changed, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    ab_opts_from(&o, c);
    cmd_report_options(c, &st, &o.pages);
    /* OUT's lock for the comparison page and site.conf only: the sides
     * take it for their own writes */
    cmd_lock(c, &lk);
    o.lock = &lk;
    if ((rc = ab_run(&o, (compare_format)c->format, &gate, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    if (changed && ((rc = outlock_take(&lk, stop_flag(), &e)) < 0 ||
                    (rc = site_settings_save(c->out, &st, &e)) < 0)) {
        outlock_drop(&lk);
        return cmd_fail(cmd_status(rc), &e);
    }
    outlock_drop(&lk);
    return gate;
}
