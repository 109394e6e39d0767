/*
 * cmd_decide.c — the commands that answer for programs (see cmd.h):
 * `decide` writes the decision files beside a run, `which` names the
 * device for one network and batch.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "decide.h"
#include "fit.h"
#include "fsx.h"
#include "netfit.h"
#include "stop.h"
#include "undo.h"
#include "workload.h"

/* `decide RUN`: decision.json and breakeven_decision.h beside the run's
 * results file, the environment lines, then the two paths. */
int cmd_decide(const cli *c)
{
    archive_run u;
    netfit_set s;
    char dir[ARCHIVE_PATH], *slash;
    outlock lk;
    undo un = {0};
    err e;
    int rc, locked = 0;
    memset(&s, 0, sizeof s);
    cmd_lock(c, &lk);
    if ((rc = archive_load_run(c->out, c->args[0], &u, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    snprintf(dir, sizeof dir, "%s", u.src);
    if ((slash = strrchr(dir, '/')))
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    /* beside a run of OUT: under OUT's lock (outlock.h) */
    if (fsx_inside(c->out, dir) && (rc = outlock_take(&lk, stop_flag(), &e)) < 0) {
        archive_run_free(&u);
        return cmd_fail(cmd_status(rc), &e);
    }
    locked = fsx_inside(c->out, dir);
    if ((rc = netfit_run(u.r, u.r->prov.seed, 0, &s, &e)) == BE_OK && s.n == 0) {
        const char *names[1];
        if (netfit_networks(u.r, names, 1) > 0)
            rc = err_set(&e, BE_EUSAGE,
                         "%s measured its networks on one device only: nothing to decide "
                         "between (measure with --devices all)",
                         u.src);
        else
            rc = err_set(&e, BE_EUSAGE,
                         "%s measured no network (measure one with breakeven run --net SIZES)",
                         u.src);
    }
    /* beside a run of OUT: through no link planted there */
    if (rc == BE_OK && fsx_inside(c->out, dir)) {
        char p[ARCHIVE_PATH + 32];
        snprintf(p, sizeof p, "%s/decision.json", dir);
        if ((rc = fsx_check_in(c->out, p, &e)) == BE_OK) {
            snprintf(p, sizeof p, "%s/breakeven_decision.h", dir);
            rc = fsx_check_in(c->out, p, &e);
        }
    }
    if (rc == BE_OK && locked)
        rc = undo_begin(&un, c->out, dir, &e);
    if (rc == BE_OK && (rc = decide_write(u.r, &s, fsx_inside(c->out, dir) ? c->out : NULL, dir,
                                          stdout, &e)) == BE_OK) {
        cmd_print_path(stdout, "%s/decision.json\n", dir);
        cmd_print_path(stdout, "%s/breakeven_decision.h\n", dir);
    }
    if (rc < 0)
        undo_rollback(&un);
    else
        undo_forget(&un);
    if (locked)
        outlock_give(&lk);
    netfit_free(&s);
    archive_run_free(&u);
    return rc < 0 ? cmd_fail(cmd_status(rc), &e) : 0;
}

/* `which --net NET --batch N RUN`: the device on stdout, why on stderr;
 * in a run of several stacks one line per stack with an answer, "With
 * PyTorch: torch:cuda:0", and why per stack (also where it has none). */
int cmd_which(const cli *c)
{
    archive_run u;
    decide_answer *a = NULL;
    err e;
    int rc, n = 0, k;
    wl_mode mode = (c->plan.modes >> WL_TRAINING) & 1 ? WL_TRAINING : WL_INFERENCE;
    if ((rc = archive_load_run(c->out, c->args[0], &u, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    if (!(a = malloc(DECIDE_MAX_STACKS * sizeof *a)))
        rc = err_set(&e, BE_EFAIL, "out of memory for the answers of %s", c->args[0]);
    else if ((rc = decide_which(u.r, c->which_net, mode, (fit_view)c->which_view, c->which_batch, a,
                                DECIDE_MAX_STACKS, &n, &e)) == BE_OK) {
        for (k = 0; k < n; k++)
            if (!a[k].stack[0])
                printf("%s\n", a[k].device);
            else if (a[k].device)
                printf("%s: %s\n", a[k].stack, a[k].device);
        for (k = 0; !c->quiet && k < n; k++)
            if (!a[k].stack[0])
                fprintf(stderr, "%s\n", a[k].why);
            else
                fprintf(stderr, "%s (host %s): %s\n", a[k].stack, a[k].host, a[k].why);
    }
    free(a);
    archive_run_free(&u);
    return rc < 0 ? cmd_fail(cmd_status(rc), &e) : 0;
}
