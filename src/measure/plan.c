/*
 * plan.c — the grid of a run and its memory check (see plan.h).
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "workload.h"

static void set_list(size_list *l, const int *v, int n)
{
    int i;
    l->n = n;
    for (i = 0; i < n; i++)
        l->v[i] = v[i];
}

void plan_default(plan *p)
{
    static const int hidden[] = {128, 256, 512, 1024, 2048};
    static const int batch[] = {16, 32, 64, 128, 256, 512, 1024};
    memset(p, 0, sizeof *p);
    set_list(&p->hidden, hidden, 5);
    set_list(&p->batch, batch, 7);
    p->layers = 4;
    p->modes = 1 << WL_INFERENCE;
    p->budget = 120.0;
    p->seed = 1;
    p->passes = 3;
    p->min_samples = 9;
    p->max_samples = 2000;
    p->target_rel = 0.02;
}

void plan_quick(plan *p)
{
    static const int hidden[] = {32, 128};
    static const int batch[] = {16, 64};
    set_list(&p->hidden, hidden, 2);
    set_list(&p->batch, batch, 2);
    p->layers = 2;
    p->budget = 2.0;
}

static int nmodes(const plan *p)
{
    return ((p->modes >> WL_INFERENCE) & 1) + ((p->modes >> WL_TRAINING) & 1);
}

/* The square sweep's widths, or the networks. */
static int nshapes(const plan *p)
{
    return p->nnets > 0 ? p->nnets : p->hidden.n;
}

int plan_cells(const plan *p)
{
    return nmodes(p) * nshapes(p) * p->batch.n;
}

void plan_cell(const plan *p, int i, wl_mode *mode, int *hidden, int *batch, int *net)
{
    int per_mode = nshapes(p) * p->batch.n;
    int m = i / per_mode, r = i % per_mode, k = r / p->batch.n;
    if (nmodes(p) == 2)
        *mode = m == 0 ? WL_INFERENCE : WL_TRAINING;
    else
        *mode = (p->modes >> WL_TRAINING) & 1 ? WL_TRAINING : WL_INFERENCE;
    *net = p->nnets > 0 ? k : -1;
    *hidden = p->nnets > 0 ? net_widest(&p->nets[k]) : p->hidden.v[k];
    *batch = p->batch.v[r % p->batch.n];
}

plan_point *plan_grid(const plan *p, int *n)
{
    plan_point *pts = calloc((size_t)plan_cells(p) + 1, sizeof *pts);
    int i;
    *n = 0;
    if (!pts)
        return NULL;
    for (i = 0; i < plan_cells(p); i++)
        plan_cell(p, i, &pts[i].mode, &pts[i].hidden, &pts[i].batch, &pts[i].net);
    *n = plan_cells(p);
    return pts;
}

int plan_check(const plan *p, double available, err *e)
{
    int i;
    for (i = 0; i < plan_cells(p); i++) {
        wl_mode mode;
        int h, b, k;
        double need;
        plan_cell(p, i, &mode, &h, &b, &k);
        /* the host holds the inputs and the CPU's buffers, and an OpenCL
         * device on the CPU (PoCL) takes its buffers from the same memory */
        if (k >= 0) {
            need = workload_net_host_bytes(mode, &p->nets[k], b) +
                   workload_net_device_bytes(mode, &p->nets[k], b);
            if (need > available)
                return err_set(e, BE_EUSAGE,
                               "--net %s: batch=%d %s needs %.1f GiB of memory; %.1f GiB are "
                               "available",
                               p->nets[k].name, b, workload_mode_name(mode), need / 1073741824.0,
                               available / 1073741824.0);
            continue;
        }
        need = workload_host_bytes(mode, p->layers, h, b) +
               workload_device_bytes(mode, p->layers, h, b);
        if (need > available)
            return err_set(e, BE_EUSAGE,
                           "hidden=%d batch=%d layers=%d %s needs %.1f GiB of memory; "
                           "%.1f GiB are available",
                           h, b, p->layers, workload_mode_name(mode), need / 1073741824.0,
                           available / 1073741824.0);
    }
    return BE_OK;
}
