/*
 * progress.c — the progress bar and progress lines (see progress.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "workload.h"

#define BAR 24

void progress_init(progress *pg, FILE *out, int quiet)
{
    pg->out = out;
    pg->quiet = quiet;
    pg->tty = isatty(fileno(out));
    pg->drawn = 0;
}

static void describe(const rs_point *p, char *buf, size_t size)
{
    char t[32];
    if (p->status != PT_OK) {
        snprintf(buf, size, "%s%s%s", results_status_name(p->status),
                 p->message[0] ? ": " : "", p->message);
        return;
    }
    fmt_duration(t, sizeof t, p->resident.median);
    snprintf(buf, size, "%s per step, %.1f GFLOP/s (n=%d, CI ±%.1f%%)%s", t,
             results_gflops(p, p->resident.median), p->resident.n,
             100.0 * (p->resident.ci_hi - p->resident.ci_lo) / 2.0 / p->resident.median,
             p->resident.drift ? ", DRIFT" : "");
}

void progress_event(void *ctx, const sweep_event *ev)
{
    progress *pg = ctx;
    char eta[32], what[1024];

    if (pg->quiet)
        return;
    if (pg->tty && ev->kind == SWEEP_START) {
        int fill = ev->total ? BAR * ev->index / ev->total : BAR, i;
        char bar[BAR + 1];
        for (i = 0; i < BAR; i++)
            bar[i] = i < fill ? '#' : '-';
        bar[BAR] = '\0';
        fmt_duration(eta, sizeof eta, ev->eta);
        fprintf(pg->out, "\r[%s] %d/%d %s %s hidden=%d batch=%d  ETA %s\033[K", bar,
                ev->index, ev->total, ev->dev->id, workload_mode_name(ev->mode), ev->hidden,
                ev->batch, eta);
        fflush(pg->out);
        pg->drawn = 1;
    } else if (!pg->tty && ev->kind == SWEEP_DONE) {
        describe(ev->point, what, sizeof what);
        fprintf(pg->out, "[%d/%d] %s %s hidden=%d batch=%d: %s\n", ev->index, ev->total,
                ev->dev->id, workload_mode_name(ev->mode), ev->hidden, ev->batch, what);
        fflush(pg->out);
    }
}

void progress_finish(progress *pg)
{
    if (pg->drawn && !pg->quiet) {
        fprintf(pg->out, "\r\033[K");
        fflush(pg->out);
    }
    pg->drawn = 0;
}
