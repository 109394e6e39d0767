/*
 * table.c — text tables (see table.h).  Columns are fixed-width so the
 * output lines up in a terminal and diffs well between runs.
 */
#include "table.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "query.h"
#include "workload.h"

/* The interval of a median relative to it, as printed: "-3.1/+8.0" (in %,
 * below and above: intervals are not symmetric, see q_ci_rel).  Its flag:
 * "uninformative interval" (q_summary_uninformative), "wide interval"
 * (Q_WIDE) or "". */
static const char *ci_text(const stats_summary *s, char *buf, size_t size)
{
    double lo, hi;
    int wide = q_ci_rel(s, &lo, &hi);
    snprintf(buf, size, "-%.1f/+%.1f", 100.0 * lo, 100.0 * hi);
    return q_summary_uninformative(s) ? "uninformative interval" : wide ? "wide interval" : "";
}

void table_points(FILE *out, const results *r)
{
    int i, d, w = 8;
    /* as wide as the longest id ("torch:cuda:0"), 8 at least as ever */
    for (d = 0; d < r->ndevices; d++)
        if ((int)strlen(r->devices[d].id) > w)
            w = (int)strlen(r->devices[d].id);
    fprintf(out, "%-*s %-9s %6s %6s %12s %11s %13s %9s %11s %6s  %s\n", w, "device", "mode",
            "hidden", "batch", "MFLOP/layer", "median", "95% CI %", "GFLOP/s", "+transfers", "n",
            "note");
    for (d = 0; d < r->ndevices; d++)
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (strcmp(p->device, r->devices[d].id) != 0)
                continue;
            char shape[16];
            /* a network's name stands in its widest size's place */
            snprintf(shape, sizeof shape, "%d", p->hidden);
            fprintf(out, "%-*s %-9s %6s %6d %12.2f ", w, p->device, workload_mode_name(p->mode),
                    p->net[0] ? p->net : shape, p->batch, p->flops_per_layer / 1e6);
            if (p->status == PT_OK) {
                const stats_summary *s = &p->resident;
                char t[32], ci[48];
                const char *flag = ci_text(s, ci, sizeof ci);
                int wide = flag[0] != '\0', impossible = q_beyond_peak(r, p);
                fmt_duration(t, sizeof t, s->median);
                /* a throughput above the device's peak is not printed */
                if (impossible)
                    fprintf(out, "%*s %13s %9s ", fmt_width(t, 11), t, ci, "—");
                else
                    fprintf(out, "%*s %13s %9.1f ", fmt_width(t, 11), t, ci,
                            results_gflops(p, s->median));
                fmt_duration(t, sizeof t, p->transfer.median);
                if (p->has_transfer)
                    fprintf(out, "%*s", fmt_width(t, 11), t);
                else
                    fprintf(out, "%13s", "—");
                fprintf(out, " %6d  %s%s%s%s%s\n", s->n,
                        impossible ? "faster than the device's fp32 peak: impossible" : "",
                        impossible && (wide || s->drift) ? "; " : "", flag,
                        wide && s->drift ? "; " : "",
                        s->drift ? "drift: slowed while measured" : "");
            } else {
                fprintf(out, "%13s %13s %9s %11s %6s  %s: %s\n", "—", "", "", "", "",
                        results_status_name(p->status), p->message);
            }
        }
}

void table_device(FILE *out, const device_info *d)
{
    int i;
    fprintf(out, "%s  %s (%s, %s)\n", d->id, d->name, d->type, d->kind);
    fprintf(out, "    %-22s %s\n", "vendor", d->vendor);
    fprintf(out, "    %-22s %s\n", "driver", d->driver);
    fprintf(out, "    %-22s %s\n", "library", d->library);
    for (i = 0; i < d->nprops; i++)
        fprintf(out, "    %-22s %s\n", d->props[i].name, d->props[i].value);
}
