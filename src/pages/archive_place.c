/*
 * archive_place.c — a run's files in the archive (see archive_place.h).
 */
#include "archive_place.h"

#include <stdio.h>
#include <string.h>

#include "fsx.h"
#include "runcharts.h"

int archive_place(archive_run *u, err *e)
{
    char p[ARCHIVE_PATH], runs[ARCHIVE_PATH], root[ARCHIVE_PATH], *slash;
    int rc, n;
    archive_run_root(u, root, sizeof root);
    if (!u->imported) {
        if ((rc = fsx_real_dir(u->dir, e)) < 0)
            return rc;
        return runcharts_ensure(u->r, root, u->dir, e);
    }
    if (u->stage[0])
        return BE_OK;
    snprintf(runs, sizeof runs, "%s", u->dir);
    if ((slash = strrchr(runs, '/')))
        *slash = '\0';
    /* made, filled and moved relative to OUT/runs/ opened through no link:
     * a link planted or swapped in on the way is refused (fsx.h) */
    if ((rc = fsx_stage_in(root, runs, "import", u->stage, sizeof u->stage, e)) < 0)
        return rc;
    if (snprintf(p, sizeof p, "%s/" ARCHIVE_RESULTS, u->stage) >= (int)sizeof p)
        return err_set(e, BE_EFAIL, "%s: path too long", u->stage);
    if ((rc = results_save(u->r, root, p, e)) < 0 ||
        (rc = runcharts_draw(u->r, root, u->stage, &n, e)) < 0)
        return err_prefix(e, rc, "%s: not imported", u->src);
    return BE_OK;
}
