/*
 * cmd_refit.c — `refit` (see cmd.h): stored runs analysed again with this
 * version's method, each rewritten in place with its charts, under OUT's
 * lock and put back as it was when that fails (undo.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "fit.h"
#include "fsx.h"
#include "runcharts.h"
#include "stop.h"
#include "undo.h"

/* The prices of a refit of r (stored in path): those stored, then those
 * given, each replacing a stored price of the same device.  BE_EUSAGE when
 * a given price names a device that r did not measure. */
static int refit_prices(const results *r, const fit_prices *given, const char *path,
                        fit_prices *out, err *e)
{
    int i, j;
    *out = r->prices;
    for (i = 0; i < given->n; i++) {
        if (!results_device(r, given->device[i]))
            return err_set(e, BE_EUSAGE,
                           "--price: %s measured no device \"%s\" (its devices "
                           "are in <devices>)",
                           path, given->device[i]);
        for (j = 0; j < out->n && strcmp(out->device[j], given->device[i]) != 0; j++)
            ;
        if (j == out->n) {
            if (out->n == FIT_MAX_PRICES)
                return err_set(e, BE_EUSAGE, "--price: more than %d devices priced",
                               FIT_MAX_PRICES);
            snprintf(out->device[j], sizeof out->device[j], "%s", given->device[i]);
            out->n++;
        }
        out->usd_per_hour[j] = given->usd_per_hour[i];
    }
    return BE_OK;
}

/* One run of `refit`: every summary again from the samples, the fit with
 * this version's method, the file rewritten in place (atomically; the
 * samples are written back as loaded, to the last digit), its charts
 * redrawn, and the answers printed as `run` prints them. */
static int refit_one(const cli *c, const char *arg, outlock *lk, err *e)
{
    archive_run u;
    fit_prices prices;
    fit_set fs;
    undo un = {0};
    results *r;
    char dir[ARCHIVE_PATH], *slash;
    const char *root;
    int i, rc, ncharts = 0, onepass = 0, locked = 0;

    memset(&fs, 0, sizeof fs);
    if ((rc = archive_load_run(c->out, arg, &u, e)) < 0)
        return rc;
    r = u.r;
    snprintf(dir, sizeof dir, "%s", u.src);
    slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    /* a run of OUT is rewritten inside OUT, through no link planted there
     * (its charts' included: checked before the results file is
     * rewritten, and each file written relative to OUT), after what a
     * killed command left there is gone; a file the user named elsewhere
     * is rewritten where the user's path leads */
    root = fsx_inside(c->out, u.src) ? c->out : NULL;
    /* a run of OUT is refitted under OUT's lock (outlock.h), from the
     * checks to its charts */
    if (root && (rc = outlock_take(lk, stop_flag(), e)) < 0)
        goto done;
    locked = root != NULL;
    /* ... and put back as it was when it cannot be (undo.h) */
    if ((root &&
         ((rc = fsx_check_in(c->out, u.src, e)) < 0 ||
          (rc = fsx_check_links_in(c->out, dir, ".png", 0, e)) < 0 ||
          (rc = fsx_sweep_in(c->out, dir, e)) < 0 || (rc = undo_begin(&un, c->out, dir, e)) < 0)) ||
        (rc = refit_prices(r, &c->prices, u.src, &prices, e)) < 0)
        goto done;
    if (c->base[0]) {
        if (!results_device(r, c->base)) {
            rc = err_set(e, BE_EUSAGE, "--base: %s measured no device \"%s\"", u.src, c->base);
            goto done;
        }
        snprintf(r->prov.base, sizeof r->prov.base, "%s", c->base);
    }
    for (i = 0; i < r->npoints; i++)
        onepass |= r->points[i].nsamples > 0 && !r->points[i].pass;
    /* a run of OUT learns its run-to-run band again from the runs before
     * it, as `run` does; a file from elsewhere keeps the one it has */
    if (root && (rc = cmd_learn_bands(c, r, e)) < 0)
        goto done;
    if ((rc = results_summarize_all(r, e)) < 0) {
        err_prefix(e, rc, "%s", u.src);
        goto done;
    }
    if ((rc = fit_run(r, &prices, r->prov.seed, 0, &fs, e)) < 0)
        goto done;
    results_set_fit(r, &fs, r->prov.seed, &prices);
    if (stop_requested()) {
        rc = err_set(e, BE_EINTR, "interrupted: %s is as it was", u.src);
        goto done;
    }
    if ((rc = results_save(r, root, u.src, e)) < 0)
        goto done;
    if (stop_requested()) {
        rc = err_set(e, BE_EINTR,
                     "interrupted: %s is refitted, its charts not redrawn (`breakeven refit` "
                     "again draws them)",
                     u.src);
        goto done;
    }
    if ((rc = runcharts_draw(r, root, dir, &ncharts, e)) < 0)
        goto done;
    if (onepass && !c->quiet)
        cmd_print_path(stderr,
                       "note: %s: its samples carry no passes (breakeven 0.1.0), so their "
                       "intervals cover the spread within that run only\n",
                       u.src);
    if ((rc = cmd_answers(stdout, r, e)) < 0)
        goto done;
    printf("charts: %d PNG in ", ncharts);
    cmd_print_path(stdout, "%s/\n", dir);
    cmd_print_path(stdout, "%s\n", u.src);
done:
    if (rc < 0)
        undo_rollback(&un);
    else
        undo_forget(&un);
    if (locked)
        outlock_give(lk);
    fit_set_free(&fs);
    archive_run_free(&u);
    return rc;
}

/* `refit RUN...`: each run in turn; the first failure stops. */
int cmd_refit(const cli *c)
{
    outlock lk;
    err e;
    int i, rc;
    cmd_lock(c, &lk);
    for (i = 0; i < c->nargs; i++)
        if ((rc = refit_one(c, c->args[i], &lk, &e)) < 0)
            return cmd_fail(cmd_status(rc), &e);
    return 0;
}
