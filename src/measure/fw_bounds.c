/*
 * fw_bounds.c — a framework device's times held to physics (fw_bounds.h).
 */
#include "fw_bounds.h"

#include <math.h>

#include "host.h"

int fw_bounded(const char *id, double (*t)[6], int k, double rt, double peak, double flops, err *e)
{
    static const char *const name[6] = {"wall", "kernel", "h2d", "d2h", "total", "whost"};
    const double most = rt * (1.0 + FW_CLOCK_SLACK) + FW_CLOCK_SLACK_S;
    double sum = 0.0;
    int j, i;
    for (j = 0; j < k; j++) {
        double *v = t[j];
        for (i = 0; i < 6; i++) {
            if (!isfinite(v[i]))
                return err_set(e, BE_EFAIL,
                               "%s: step %d of %d: its %s is %g, not a number of seconds", id,
                               j + 1, k, name[i], v[i]);
            if (v[i] < 0.0 && i > 0)
                v[i] = -1.0;
            else if ((v[i] != 0.0 || i == 0) && !isnormal(v[i]))
                return err_set(e, BE_EFAIL,
                               "%s: step %d of %d: its %s is %g s, not a positive normal number",
                               id, j + 1, k, name[i], v[i]);
            else if (v[i] > most)
                return err_set(e, BE_EFAIL,
                               "%s: step %d of %d: its %s of %.3g s is longer than the call's "
                               "round trip, %.3g s",
                               id, j + 1, k, name[i], v[i], rt);
        }
        if (v[1] > v[0] * (1.0 + FW_CLOCK_SLACK) || (v[4] >= 0.0 && v[4] < v[0]) ||
            (v[4] >= 0.0 && ((v[2] > v[4]) || v[3] > v[4] || v[2] + v[3] > v[4])) ||
            (v[5] >= 0.0 && v[4] >= 0.0 && v[5] < v[4]))
            return err_set(e, BE_EFAIL,
                           "%s: step %d of %d: its times do not fit together (wall %.3g s, "
                           "kernel %.3g, h2d %.3g, d2h %.3g, total %.3g, whost %.3g): kernel "
                           "within the wall, total at least the wall, the transfers within "
                           "total, whost at least total",
                           id, j + 1, k, v[0], v[1], v[2], v[3], v[4], v[5]);
        if (peak > 0.0 && flops / v[0] > peak)
            return err_set(e, BE_EFAIL,
                           "%s: step %d of %d: %.3g FLOP in %.3g s is %.3g GFLOP/s, beyond what "
                           "this host can do (%.0f GFLOP/s: %d CPUs at %.0f MHz, 64 FLOP per "
                           "cycle each)",
                           id, j + 1, k, flops, v[0], flops / v[0] * 1e-9, peak * 1e-9,
                           host_cores(), peak / host_cores() / FW_CPU_PER_CYCLE * 1e-6);
        sum += v[0];
    }
    if (sum > most)
        return err_set(e, BE_EFAIL,
                       "%s: the %d steps' walls add up to %.3g s, longer than the call's round "
                       "trip, %.3g s",
                       id, k, sum, rt);
    return BE_OK;
}
