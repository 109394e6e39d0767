/*
 * runcharts.c — the charts of a run (see runcharts.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "runcharts.h"

#include <stdio.h>
#include <unistd.h>

#include "figure.h"
#include "figure_net.h"
#include "query.h"
#include "workload.h"

#define PATHMAX 4096

const char *runcharts_name(runcharts_kind k)
{
    static const char *const names[RUNCHARTS_KINDS] = {"throughput", "speed-ratio", "winner-map",
                                                       "relative-time", "cost"};
    return (unsigned)k < RUNCHARTS_KINDS ? names[k] : "?";
}

/* Draws one chart of mode m of r as base; *drawn is 0 when r lacks what
 * the chart needs (the cost chart without the base's price). */
static int draw_one(const results *r, runcharts_kind k, wl_mode m, const char *root,
                    const char *base, int *drawn, err *e)
{
    *drawn = 1;
    switch (k) {
    case RUNCHARTS_THROUGHPUT:
        return figure_throughput(r, &r->fit, m, root, base, e);
    case RUNCHARTS_SPEED_RATIO:
        return figure_speed_ratio(r, &r->fit, m, root, base, e);
    case RUNCHARTS_WINNER_MAP:
        return figure_winner_map(r, &r->fit, m, root, base, e);
    case RUNCHARTS_RELATIVE_TIME:
        return figure_relative_time(r, m, NULL, 0, root, base, e);
    default:
        if (!(q_price(&r->prices, q_base_id(r)) > 0)) {
            *drawn = 0;
            return BE_OK;
        }
        return figure_cost(r, &r->prices, m, NULL, 0, root, base, e);
    }
}

int runcharts_draw(const results *r, const char *root, const char *dir, int *count, err *e)
{
    int m, k, rc, drawn;
    *count = 0;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        /* the charts of hidden widths only of the square stacks measured:
         * a network's points drawn there would read as hidden widths */
        if (!q_has_square(r, (wl_mode)m))
            continue;
        for (k = 0; k < RUNCHARTS_KINDS; k++) {
            char base[PATHMAX];
            snprintf(base, sizeof base, "%s/%s-%s", dir, runcharts_name((runcharts_kind)k),
                     workload_mode_name((wl_mode)m));
            if ((rc = draw_one(r, (runcharts_kind)k, (wl_mode)m, root, base, &drawn, e)) < 0)
                return rc;
            *count += drawn;
        }
    }
    /* a run of networks: the charts of each network's page */
    if ((rc = figure_net_all(r, root, dir, &drawn, e)) < 0)
        return rc;
    *count += drawn;
    return BE_OK;
}

int runcharts_ensure(const results *r, const char *root, const char *dir, err *e)
{
    int m, n;
    char p[PATHMAX];
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        if (!q_has_square(r, (wl_mode)m))
            continue;
        /* the narrow rendering is the newest: runs drawn before it get both */
        snprintf(p, sizeof p, "%s/%s-%s" FIGURE_NARROW_SUFFIX ".png", dir,
                 runcharts_name(RUNCHARTS_RELATIVE_TIME), workload_mode_name((wl_mode)m));
        if (access(p, F_OK) != 0)
            return runcharts_draw(r, root, dir, &n, e);
    }
    /* runs drawn before the page per network get its charts */
    if (!figure_net_present(r, dir))
        return figure_net_all(r, root, dir, &n, e);
    return BE_OK;
}

int runcharts_hosts(const results *merged, const char *root, const char *dir, err *e)
{
    int m, rc;
    char base[PATHMAX];
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        const char *mode = workload_mode_name((wl_mode)m);
        if (!q_has_mode(merged, NULL, (wl_mode)m))
            continue;
        snprintf(base, sizeof base, "%s/" RUNCHARTS_HOSTS "%s-%s", dir,
                 runcharts_name(RUNCHARTS_THROUGHPUT), mode);
        if ((rc = figure_throughput(merged, NULL, (wl_mode)m, root, base, e)) < 0)
            return rc;
        snprintf(base, sizeof base, "%s/" RUNCHARTS_HOSTS "%s-%s", dir,
                 runcharts_name(RUNCHARTS_RELATIVE_TIME), mode);
        if ((rc = figure_relative_time(merged, (wl_mode)m, NULL, 0, root, base, e)) < 0)
            return rc;
    }
    return BE_OK;
}
