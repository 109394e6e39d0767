/*
 * progress.c — the progress bar and progress lines (see progress.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <math.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fmt.h"
#include "query.h"
#include "workload.h"

#define BAR 24

void progress_init(progress *pg, FILE *out, int quiet)
{
    pg->out = out;
    pg->quiet = quiet;
    pg->tty = isatty(fileno(out));
    pg->drawn = 0;
}

/* The terminal's width in columns, read at each redraw (it may be
 * resized); 80 when it cannot be read. */
static int columns(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* "hidden=512" or, for a network, "net=mnist-mlp". */
static const char *shape(const sweep_event *ev, char *buf, size_t size)
{
    if (ev->net)
        snprintf(buf, size, "net=%s", ev->net);
    else
        snprintf(buf, size, "hidden=%d", ev->hidden);
    return buf;
}

/* The bar's line, fitted to width columns (the line is ASCII but for the
 * device id, which is cut last): the full form, a shorter one, then cut,
 * so that a redraw never wraps and leaves a line behind. */
static void bar_line(const sweep_event *ev, int width, char *buf, size_t size)
{
    int fill = ev->total ? BAR * ev->index / ev->total : BAR, i, bar = BAR;
    char b[BAR + 1], eta[32], sh[80];
    fmt_duration(eta, sizeof eta, ev->eta);
    for (i = 0; i < 3; i++) {
        int k;
        if (i == 2)
            bar = width > 60 ? BAR : 10;
        for (k = 0; k < bar; k++)
            b[k] = k < fill * bar / BAR ? '#' : '-';
        b[bar] = '\0';
        if (i == 0)
            snprintf(buf, size, "[%s] %d/%d pass %d/%d %s %s %s batch=%d  ETA %s", b, ev->index,
                     ev->total, ev->pass, ev->passes, ev->dev->id, workload_mode_name(ev->mode),
                     shape(ev, sh, sizeof sh), ev->batch, eta);
        else
            snprintf(buf, size, "[%s] %d/%d p%d %s %.5s %dx%d ETA %s", b, ev->index, ev->total,
                     ev->pass, ev->dev->id, workload_mode_name(ev->mode), ev->hidden, ev->batch,
                     eta);
        if ((int)strlen(buf) < width)
            return;
    }
    if (width > 1 && (size_t)width <= size)
        buf[width - 1] = '\0';
}

static void describe(const device_info *d, const rs_point *p, char *buf, size_t size)
{
    char t[32], g[48];
    double lo, hi, gf;
    int wide;
    if (p->status != PT_OK) {
        snprintf(buf, size, "%s%s%s", results_status_name(p->status), p->message[0] ? ": " : "",
                 p->message);
        return;
    }
    fmt_duration(t, sizeof t, p->resident.median);
    wide = q_ci_rel(&p->resident, &lo, &hi);
    gf = q_gflops_shown(d, p, p->resident.median);
    if (isnan(gf))
        snprintf(g, sizeof g, "above the device's peak: impossible");
    else
        snprintf(g, sizeof g, "%.1f GFLOP/s", gf);
    snprintf(buf, size, "%s per step, %s (n=%d, 95%% CI -%.1f%%/+%.1f%%%s)%s", t, g, p->resident.n,
             100.0 * lo, 100.0 * hi,
             q_summary_uninformative(&p->resident) ? ", uninformative"
             : wide                                ? ", wide"
                                                   : "",
             p->resident.drift ? ", DRIFT" : "");
}

/* "pass 1/3: 31.2 s, 70 visits, others used 3% of the CPU, load 2.10"; a
 * later sweep's pass (a refinement's, a precision pass) by the run's
 * numbering: "pass 12 of the run: ..." */
static void describe_pass(const sweep_event *ev, char *buf, size_t size)
{
    const rs_pass *ps = ev->pass_info;
    const machstate *m = &ps->state;
    char t[32];
    int n;
    fmt_duration(t, sizeof t, ps->seconds);
    if (ps->index == ev->pass)
        n = snprintf(buf, size, "pass %d/%d: %s, %d visits", ev->pass, ev->passes, t, ps->visits);
    else
        n = snprintf(buf, size, "pass %d of the run: %s, %d visits", ps->index, t, ps->visits);
    if (n > 0 && (size_t)n < size && m->has_cpu)
        n += snprintf(buf + n, size - (size_t)n, ", others used %.0f%% of the CPU%s",
                      100.0 * m->others_cpu, m->steal > 0.001 ? " (and steal)" : "");
    if (n > 0 && (size_t)n < size && m->has_loadavg)
        snprintf(buf + n, size - (size_t)n, ", load %.2f", m->loadavg);
}

void progress_event(void *ctx, const sweep_event *ev)
{
    progress *pg = ctx;
    char what[1024];

    if (pg->quiet)
        return;
    if (ev->kind == SWEEP_PASS_DONE) {
        if (!pg->tty) {
            describe_pass(ev, what, sizeof what);
            fprintf(pg->out, "%s\n", what);
            fflush(pg->out);
        }
    } else if (pg->tty && ev->kind == SWEEP_START) {
        bar_line(ev, columns(pg->out), what, sizeof what);
        fprintf(pg->out, "\r%s\033[K", what);
        fflush(pg->out);
        pg->drawn = 1;
    } else if (!pg->tty && ev->kind == SWEEP_DONE && ev->pass == ev->passes) {
        /* one line per point, once its last pass has measured it */
        int per_pass = ev->passes > 0 ? ev->total / ev->passes : ev->total;
        char sh[80];
        describe(ev->dev, ev->point, what, sizeof what);
        fprintf(pg->out, "[%d/%d] %s %s %s batch=%d: %s\n", ev->index - (ev->passes - 1) * per_pass,
                per_pass, ev->dev->id, workload_mode_name(ev->mode), shape(ev, sh, sizeof sh),
                ev->batch, what);
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
