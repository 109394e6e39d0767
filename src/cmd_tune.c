/*
 * cmd_tune.c — the commands about the machine's devices (see cmd.h):
 * `devices` lists them, `tune` tries the kernels' configurations on the
 * OpenCL ones and keeps the fastest per mode.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "fmt.h"
#include "stop.h"
#include "table.h"
#include "tune.h"

int cmd_devices(const cli *c)
{
    device_set set;
    err e;
    const char *ref = getenv("BREAKEVEN_REF_ADAPTER");
    int i, rc;
    /* each framework device is started once to be described, or to say
     * why it cannot be (the test device ref:cpu only when it is set) */
    if ((rc = cmd_discover(c,
                           ref && *ref ? "torch:cpu,torch:cuda:0,torch:mps,ort:cpu,ref:cpu"
                                       : "torch:cpu,torch:cuda:0,torch:mps,ort:cpu",
                           &set, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    for (i = 0; i < set.n; i++) {
        if (device_fault(&set.devs[i])[0])
            printf("%s  %s\n", set.devs[i].info.id, device_fault(&set.devs[i]));
        else
            table_device(stdout, &set.devs[i].info);
        if (i + 1 < set.n)
            putchar('\n');
    }
    if (set.note[0])
        printf("\nnote: %s\n", set.note);
    device_set_free(&set);
    return 0;
}

static void tune_row(void *ctx, const tune_report *r, int i)
{
    const tune_candidate *t = &r->c[i];
    char secs[32];
    (void)ctx;
    fmt_duration(secs, sizeof secs, t->seconds);
    printf("%2d %-8s %9.1f %9.1f %9.1f %8s  %s%s%s\n", i, tune_status_name(t->status),
           t->fwd_gflops, t->mid_gflops, t->train_gflops, secs, t->options,
           t->note[0] ? "  # " : "", t->note);
    fflush(stdout);
}

/* A mode's winner in words: "inference #3 OPTIONS (1.21× the default's
 * forward rate)"; train picks the training rate. */
static void tune_winner(const tune_report *r, int train)
{
    const int best = train ? r->best_train : r->best_inf;
    const wl_mode m = train ? WL_TRAINING : WL_INFERENCE;
    const double def = tune_rate(&r->c[0], m), got = tune_rate(&r->c[best], m);
    printf("%-9s #%d %s (", train ? "training" : "inference", best, r->c[best].options);
    if (best == 0)
        printf("the default)\n");
    else
        printf("%.2f× the default's %s rate)\n", def > 0.0 ? got / def : 1.0,
               train ? "training" : "forward");
}

/* `tune`: the candidates of each selected OpenCL device, one row each as
 * it is measured, then the winner of each mode, which later runs use. */
int cmd_tune(const cli *c)
{
    device_set set;
    tune_options o;
    tune_report rep;
    int *idx = NULL, n = 0, i, rc, tuned = 0, status = 1;
    err e;

    if ((rc = device_discover(&set, c->threads, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    if (!(idx = malloc((size_t)set.n * sizeof *idx))) {
        err_set(&e, BE_EFAIL, "out of memory");
        goto fail;
    }
    if ((rc = device_select(&set, c->devices, idx, &n, &e)) < 0) {
        status = cmd_status(rc);
        goto fail;
    }
    tune_options_default(&o);
    o.budget = c->plan.budget;
    o.seed = c->plan.seed;
    o.stop = stop_flag();
    o.progress = tune_row;
    if (c->quick) {
        o.fwd_hidden = 256;
        o.fwd_batch = 64;
        o.train_hidden = 128;
        o.train_batch = 32;
        o.reps = 3;
        /* tiny shapes say little about real ones: kept only when asked */
        o.keep = c->save;
    }
    for (i = 0; i < n; i++) {
        device *d = &set.devs[idx[i]];
        if (d->ops->kind != BACKEND_OPENCL) {
            if (strcmp(c->devices, "all") != 0) {
                err_set(&e, BE_EUSAGE,
                        "tune: %s is not an OpenCL device; only OpenCL kernels "
                        "are tuned",
                        d->info.id);
                status = 2;
                goto fail;
            }
            continue;
        }
        printf("%s (%s, %s): forward hidden %d × batch %d (fwd) and %d × %d (mid), training "
               "hidden %d × batch %d\n",
               d->info.id, d->info.type, d->info.name, o.fwd_hidden, o.fwd_batch, o.train_hidden,
               o.train_batch, o.train_hidden, o.train_batch);
        printf("%2s %-8s %9s %9s %9s %8s  %s\n", "#", "status", "fwd GF/s", "mid GF/s", "trainGF/s",
               "time", "options");
        if ((rc = tune_device(d, &o, &rep, &e)) < 0) {
            status = cmd_status(rc);
            goto fail;
        }
        tune_winner(&rep, 0);
        tune_winner(&rep, 1);
        printf("-> %s in %.0f s\n\n",
               rep.path[0] ? rep.path
                           : "not kept (--quick tunes on tiny shapes; add --save to keep it)",
               rep.seconds);
        tuned++;
    }
    if (tuned == 0) {
        err_set(&e, BE_EFAIL, "tune: no OpenCL device to tune%s%s", set.note[0] ? " (" : "",
                set.note[0] ? "see `breakeven devices`)" : "");
        goto fail;
    }
    status = 0;
    goto done;
fail:
    cmd_fail(status, &e);
done:
    free(idx);
    device_set_free(&set);
    return status;
}
