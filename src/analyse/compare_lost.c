/*
 * compare_lost.c — what A measured and B lost (compare.h's compare_lost).
 *
 * A point that is not usable on both sides forms no run-level group, so
 * the intervals cannot see it; yet a device whose driver broke (every
 * point failing verification, or the device gone) is the regression a gate
 * exists for.  Per device, mode and view of A: the points A measured
 * (usable in every run of A, at a shape B's grid has; any shape where B
 * lacks the device) that B did not give, by why, and the points of an
 * `ab` group not measured in every complete pair of passes; the set's gate
 * (compare_gate.c) fails on those beyond COMPARE_LOST_SHARE.
 */
#include <string.h>

#include "compare.h"
#include "compare_impl.h"
#include "fit.h"
#include "fmt.h"
#include "query.h"
#include "workload.h"

/* Why B lost a point of A. */
enum {
    LOST_OOM,
    LOST_VERIFY,
    LOST_SKIPPED,
    LOST_FAILED,
    LOST_TIMES,
    LOST_PASSES,
    LOST_DEVICE,
    LOST_WHY
};

static const char *const lost_words[LOST_WHY] = {"out of memory",
                                                 "failed verification",
                                                 "skipped",
                                                 "failed",
                                                 "without times of this view",
                                                 "not in every complete pair of passes",
                                                 "the device is not in B"};

/* The point of run r at pa's shape on r's device that matches device da
 * of a0, when it is usable in view v; NULL otherwise. */
static const rs_point *ok_in(const results *a0, int da, const rs_point *pa, const results *r,
                             fit_view v)
{
    const device_info *d = a0 == r ? &a0->devices[da] : compare_match_device(a0, da, r);
    const rs_point *p =
        d ? q_point_net(r, d->id, pa->mode, pa->layers, pa->hidden, pa->batch, pa->sizes) : NULL;
    return p && q_ok_view(p, v) ? p : NULL;
}

/* Why B's runs lost A's point pa (device da of a[0], usable in view v):
 * LOST_WHY when they did not; NOT_COUNTED when some run of A lacks it
 * too, or when B's grid has no such shape (a different grid, counted in
 * left_a: not lost). */
#define NOT_COUNTED (-1)
static int lost_why(const results *const *a, int na, const results *const *b, int nb, int da,
                    const rs_point *pa, fit_view v)
{
    const device_info *db = compare_match_device(a[0], da, b[0]);
    int j;
    for (j = 0; j < na; j++)
        if (!ok_in(a[0], da, pa, a[j], v))
            return NOT_COUNTED;
    if (!db)
        return LOST_DEVICE;
    if (!q_point_net(b[0], db->id, pa->mode, pa->layers, pa->hidden, pa->batch, pa->sizes))
        return NOT_COUNTED;
    for (j = 0; j < nb; j++) {
        const device_info *d = compare_match_device(a[0], da, b[j]);
        const rs_point *p =
            d ? q_point_net(b[j], d->id, pa->mode, pa->layers, pa->hidden, pa->batch, pa->sizes)
              : NULL;
        if (q_ok_view(p, v))
            continue;
        return !p                                    ? LOST_TIMES
               : p->status == PT_OUT_OF_MEMORY       ? LOST_OOM
               : p->status == PT_FAILED_VERIFICATION ? LOST_VERIFY
               : p->status == PT_SKIPPED             ? LOST_SKIPPED
               : p->status == PT_FAILED              ? LOST_FAILED
                                                     : LOST_TIMES;
    }
    return LOST_WHY;
}

void compare_count_lost(compare_set *s, const results *const *a, int na, const results *const *b,
                        int nb)
{
    const results *a0 = a[0];
    int d, m, v, i, w;
    for (d = 0; d < a0->ndevices; d++)
        for (m = WL_INFERENCE; m <= WL_TRAINING; m++)
            for (v = FIT_RESIDENT; v <= FIT_TRANSFER; v++) {
                compare_lost *l = &s->lost[s->nlost];
                int n[LOST_WHY + 1] = {0}, measured = 0, lost = 0;
                if (s->nlost == COMPARE_MAX_GROUPS)
                    return;
                for (i = 0; i < a0->npoints; i++) {
                    const rs_point *pa = &a0->points[i];
                    if (strcmp(pa->device, a0->devices[d].id) != 0 || (int)pa->mode != m ||
                        !q_ok_view(pa, (fit_view)v))
                        continue;
                    if ((w = lost_why(a, na, b, nb, d, pa, (fit_view)v)) == NOT_COUNTED)
                        continue;
                    measured++;
                    n[w]++;
                }
                for (i = 0; i < s->ngroups; i++)
                    if (strcmp(s->groups[i].dev_a, a0->devices[d].id) == 0 &&
                        (int)s->groups[i].mode == m && (int)s->groups[i].view == v)
                        n[LOST_PASSES] += s->groups[i].dropped;
                for (w = 0; w < LOST_WHY; w++)
                    lost += n[w];
                if (!lost)
                    continue;
                memset(l, 0, sizeof *l);
                snprintf(l->dev_a, sizeof l->dev_a, "%s", a0->devices[d].id);
                l->mode = (wl_mode)m;
                l->view = (fit_view)v;
                l->measured = measured;
                l->lost = lost;
                l->device = n[LOST_DEVICE] > 0;
                l->blocks = lost >= measured || lost > COMPARE_LOST_SHARE * measured;
                snprintf(l->text, sizeof l->text, "%s %s %s: %d of %d point%s (", a0->devices[d].id,
                         workload_mode_name(l->mode), fit_view_name(l->view), lost, measured,
                         measured == 1 ? "" : "s");
                for (w = 0, i = 0; w < LOST_WHY; w++)
                    if (n[w] && w == LOST_DEVICE)
                        fmt_append(l->text, sizeof l->text, "%s%s", i++ ? ", " : "", lost_words[w]);
                    else if (n[w])
                        fmt_append(l->text, sizeof l->text, "%s%d %s", i++ ? ", " : "", n[w],
                                   lost_words[w]);
                fmt_append(l->text, sizeof l->text, ")%s",
                           l->blocks ? "" : ", within the share the gate allows");
                s->nlost++;
            }
}
