/*
 * tune.c — `breakeven tune`: the bounded search for an OpenCL device's
 * kernel build options (tune.h).
 *
 * The kernels of dense.cl take their tile sizes, work per item and vector
 * width as -D options; clgemm_config.c has a table default per device type
 * and vendor, which cannot be right for every device.  This file tries a fixed,
 * small list of variations around that default on the device itself, with
 * the backend's own prepare/step/state operations (the same code path as a
 * sweep), on a forward pass at two shapes and a training step.  Each candidate's first
 * step is checked by verify.c before any timing: a configuration whose
 * results are wrong is reported and never chosen.  Each mode gets its own
 * winner, from median kernel times (tune_rate): inference the fastest
 * forward over both shapes, training the fastest training step (in each
 * the default unless the
 * winner leads it there by TUNE_MARGIN), so that neither pays for the
 * other (on an H100 the fastest forward tiles trained at half the speed).
 * Both are stored through clgemm_cache_store_tuned, whence clgemm_discover
 * applies them to the device in later runs.
 */
#define _POSIX_C_SOURCE 200809L
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm_cache.h"
#include "host.h"
#include "verify.h"
#include "workload.h"

const char *tune_status_name(tune_status s)
{
    switch (s) {
    case TUNE_OK:
        return "ok";
    case TUNE_WRONG:
        return "wrong";
    case TUNE_FAILED:
        return "failed";
    case TUNE_SKIPPED:
        return "skipped";
    }
    return "?";
}

void tune_options_default(tune_options *o)
{
    memset(o, 0, sizeof *o);
    o->budget = 120.0;
    o->fwd_hidden = 2048;
    o->fwd_batch = 1024;
    o->train_hidden = 512;
    o->train_batch = 256;
    o->reps = 5;
    o->seed = 1;
    o->keep = 1;
}

/* ---------------------------------------------------------------------- */
/* Candidates                                                              */
/* ---------------------------------------------------------------------- */

/* Appends c unless it is invalid or already listed. */
static void add(clgemm_config *list, int *n, const clgemm_config *c)
{
    char opts[256];
    int i;
    if (*n >= TUNE_MAX || clgemm_config_options(c, opts, sizeof opts, NULL) != BE_OK)
        return;
    for (i = 0; i < *n; i++)
        if (memcmp(&list[i], c, sizeof *c) == 0)
            return;
    list[(*n)++] = *c;
}

/* The candidates for def's variant, def first.  Register-blocked (CPUs):
 * the K-blocking depth and group shape (what decides the forward pass at
 * large K), other block shapes and vector widths (8×8 as float8, the
 * earlier default, for machines where 16-wide vectors do not pay; float4
 * for SSE-only CPUs), dx block shapes, and two local-memory tilings in case
 * a CPU driver favours them.  Local-memory tiles (GPUs): tile depth,
 * tile size and work per item around CLBlast-style defaults, with scalar
 * and with vector loads. */
static int candidates(const clgemm_config *def, clgemm_config *list)
{
    static const struct {
        int vw, tm, tn, lx, ly, kb, dtm, dtn;
    } v[] = {
        {16, 6, 16, 2, 16, 0, 4, 4},   {16, 6, 16, 2, 16, 256, 4, 4}, {16, 6, 16, 2, 16, 64, 4, 4},
        {16, 6, 16, 1, 32, 128, 4, 4}, {16, 6, 16, 4, 8, 64, 4, 4},   {16, 4, 16, 2, 16, 128, 4, 4},
        {16, 5, 16, 2, 16, 128, 4, 4}, {8, 6, 16, 2, 16, 128, 4, 4},  {8, 8, 8, 2, 16, 256, 4, 4},
        {8, 8, 8, 1, 16, 0, 4, 4},     {4, 8, 8, 2, 16, 256, 4, 4},   {16, 6, 16, 2, 16, 128, 2, 4},
        {16, 6, 16, 2, 16, 128, 4, 2}, {16, 6, 16, 2, 16, 128, 4, 8}};
    /* local-memory tilings a CPU driver might favour */
    static const int cpu_loc[][5] = {{64, 64, 16, 4, 4}, {32, 32, 16, 4, 4}};
    /* local-memory tiles around the GPU defaults: tsm, tsn, tsk, wptm,
     * wptn, lvw, dbuf.  First scalar loads, then float4 loads and local
     * fragments (single or double-buffered tiles) on the larger tiles and
     * blocks per item that the scalar kernel favoured on an H100 (128×64
     * of 8×4 and 64×128 of 4×8). */
    static const int gpu_loc[][7] = {
        {64, 64, 16, 4, 4, 0, 0},   {64, 64, 8, 4, 4, 0, 0},   {64, 64, 32, 4, 4, 0, 0},
        {32, 64, 16, 4, 4, 0, 0},   {64, 32, 16, 4, 4, 0, 0},  {32, 32, 16, 4, 4, 0, 0},
        {32, 32, 16, 2, 2, 0, 0},   {64, 64, 16, 8, 8, 0, 0},  {128, 128, 16, 8, 8, 0, 0},
        {128, 128, 8, 8, 8, 0, 0},  {128, 64, 16, 8, 4, 0, 0}, {64, 128, 16, 4, 8, 0, 0},
        {64, 64, 16, 2, 4, 0, 0},   {64, 64, 16, 4, 2, 0, 0},  {32, 64, 8, 2, 4, 0, 0},
        {16, 16, 16, 2, 2, 0, 0},   {128, 64, 16, 8, 4, 4, 0}, {128, 64, 16, 8, 4, 4, 1},
        {64, 128, 16, 4, 8, 4, 0},  {64, 128, 16, 4, 8, 4, 1}, {128, 128, 16, 8, 8, 4, 0},
        {128, 128, 16, 8, 8, 4, 1}, {128, 128, 8, 8, 8, 4, 1}, {128, 128, 32, 8, 8, 4, 0},
        {128, 64, 32, 8, 4, 4, 0},  {128, 64, 8, 8, 4, 4, 1},  {64, 64, 16, 4, 4, 4, 1},
        {64, 64, 32, 4, 4, 4, 1}};
    int n = 0;
    size_t i;
    clgemm_config c;
    add(list, &n, def);
    if (def->variant == CLGEMM_REG) {
        for (i = 0; i < sizeof v / sizeof v[0]; i++) {
            c = *def;
            c.vw = v[i].vw;
            c.tm = v[i].tm;
            c.tn = v[i].tn;
            c.lx = v[i].lx;
            c.ly = v[i].ly;
            c.kb = v[i].kb;
            c.dtm = v[i].dtm;
            c.dtn = v[i].dtn;
            add(list, &n, &c);
        }
        for (i = 0; i < sizeof cpu_loc / sizeof cpu_loc[0]; i++) {
            c = (clgemm_config){.variant = CLGEMM_LOCAL,
                                .vw = 1,
                                .tsm = cpu_loc[i][0],
                                .tsn = cpu_loc[i][1],
                                .tsk = cpu_loc[i][2],
                                .wptm = cpu_loc[i][3],
                                .wptn = cpu_loc[i][4]};
            add(list, &n, &c);
        }
    } else {
        for (i = 0; i < sizeof gpu_loc / sizeof gpu_loc[0]; i++) {
            c = *def;
            c.tsm = gpu_loc[i][0];
            c.tsn = gpu_loc[i][1];
            c.tsk = gpu_loc[i][2];
            c.wptm = gpu_loc[i][3];
            c.wptn = gpu_loc[i][4];
            c.lvw = gpu_loc[i][5];
            c.dbuf = gpu_loc[i][6];
            add(list, &n, &c);
        }
    }
    return n;
}

/* ---------------------------------------------------------------------- */
/* Measurement                                                             */
/* ---------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs w on d with its current configuration: one verified step, then reps
 * timed steps.  Returns BE_OK with *gflops (from the median kernel time) and
 * *status TUNE_OK, or BE_OK with *status WRONG/FAILED and note filled, or
 * BE_EINTR.  The run is always released. */
static int measure(device *d, const workload *w, const tune_options *o, double *gflops,
                   tune_status *status, char *note, size_t note_len)
{
    double t[64], med;
    const int reps = o->reps < 64 ? o->reps : 64;
    void *run = NULL;
    net_state s;
    verify_result v;
    step_times st;
    err e = {{0}};
    int rc, i, have_state = 0;
    const char *mode = workload_mode_name(w->mode);

    *status = TUNE_FAILED;
    if ((rc = d->ops->prepare(d->handle, w, &run, &e)) || (rc = verify_state_alloc(w, &s, &e)))
        goto fail;
    have_state = 1;
    if ((rc = d->ops->reset(run, &e)) || (rc = d->ops->step(run, &st, &e)) ||
        (rc = d->ops->state(run, &s, &e)) || (rc = verify_check(w, &s, &v, &e)))
        goto fail;
    if (!v.ok) {
        *status = TUNE_WRONG;
        snprintf(note, note_len, "%s %d×%d: %s off by %.3g (tolerance %.3g)", mode, w->hidden,
                 w->batch, v.where, v.max_error, v.tolerance);
        rc = BE_OK;
        goto done;
    }
    for (i = 0; i < reps; i++) {
        if (o->stop && *o->stop) {
            rc = BE_EINTR;
            goto done;
        }
        /* Training changes the parameters: restart from the initial ones so
         * every timed step computes on the same values. */
        if ((w->mode == WL_TRAINING && (rc = d->ops->reset(run, &e))) ||
            (rc = d->ops->step(run, &st, &e)))
            goto fail;
        t[i] = st.kernel;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    *gflops = med > 0
                  ? workload_flops_per_layer(w->mode, w->hidden, w->batch) * w->layers / med / 1e9
                  : 0.0;
    *status = TUNE_OK;
    rc = BE_OK;
    goto done;
fail:
    /* the device refused the candidate: a result of the search, no error */
    snprintf(note, note_len, "%s %d×%d: %s", mode, w->hidden, w->batch, e.msg);
    rc = BE_OK;
done:
    if (have_state)
        verify_state_free(w, &s);
    if (run)
        d->ops->release(run);
    return rc;
}

/* Builds and measures candidate c on the shapes w (forward, forward at the
 * middling size, training), as the configuration of both modes. */
static int try_candidate(device *d, const workload *const w[3], const tune_options *o,
                         tune_candidate *c)
{
    double *rate[3];
    int i;
    err e = {{0}};
    const double t0 = host_seconds();
    int rc = BE_OK;
    c->status = TUNE_FAILED;
    if (clgemm_set_config(d->handle, &c->cfg, &e) != BE_OK) {
        snprintf(c->note, sizeof c->note, "%s", e.msg);
        goto done;
    }
    rate[0] = &c->fwd_gflops;
    rate[1] = &c->mid_gflops;
    rate[2] = &c->train_gflops;
    for (i = 0; i < 3; i++)
        if ((rc = measure(d, w[i], o, rate[i], &c->status, c->note, sizeof c->note)) ||
            c->status != TUNE_OK)
            break;
done:
    c->seconds = host_seconds() - t0;
    return rc;
}

double tune_rate(const tune_candidate *c, wl_mode m)
{
    if (c->status != TUNE_OK)
        return 0.0;
    return m == WL_TRAINING ? c->train_gflops : sqrt(c->fwd_gflops * c->mid_gflops);
}

static double rate_of(const tune_candidate *c, int train)
{
    return tune_rate(c, train ? WL_TRAINING : WL_INFERENCE);
}

/* The verified candidate of r with the highest rate in one mode (rate_of);
 * the default (c[0]) unless the winner leads it by TUNE_MARGIN; -1 when
 * none passed. */
static int best_of(const tune_report *r, int train)
{
    int best = -1, i;
    for (i = 0; i < r->n; i++)
        if (r->c[i].status == TUNE_OK &&
            (best < 0 || rate_of(&r->c[i], train) > rate_of(&r->c[best], train)))
            best = i;
    /* A lead within the noise of a shared machine is no reason to leave
     * the default. */
    if (best > 0 && r->c[0].status == TUNE_OK &&
        rate_of(&r->c[best], train) < TUNE_MARGIN * rate_of(&r->c[0], train))
        best = 0;
    return best;
}

void tune_choose(tune_report *r)
{
    r->best_inf = best_of(r, 0);
    r->best_train = best_of(r, 1);
}

/* Configures d with r's winners, and with o->keep stores them. */
static int keep_winners(device *d, const tune_options *o, tune_report *r, err *e)
{
    const clgemm_config *inf = &r->c[r->best_inf].cfg, *train = &r->c[r->best_train].cfg;
    int rc;
    r->path[0] = '\0';
    if ((rc = clgemm_set_config_mode(d->handle, WL_INFERENCE, inf, e)) ||
        (rc = clgemm_set_config_mode(d->handle, WL_TRAINING, train, e)))
        return rc;
    return o->keep ? clgemm_cache_store_tuned(&d->info, inf, train, r->path, sizeof r->path, e)
                   : BE_OK;
}

/* The candidates of d into r, each SKIPPED until tried. */
static void list_candidates(const device *d, const tune_options *o, tune_report *r)
{
    clgemm_config list[TUNE_MAX], def;
    int i;
    clgemm_config_default(&d->info, &def);
    r->n = candidates(&def, list);
    if (o->max_candidates > 0 && o->max_candidates < r->n)
        r->n = o->max_candidates;
    for (i = 0; i < r->n; i++) {
        r->c[i].cfg = list[i];
        r->c[i].status = TUNE_SKIPPED;
        clgemm_config_options(&list[i], r->c[i].options, sizeof r->c[i].options, NULL);
    }
}

int tune_device(device *d, const tune_options *o, tune_report *r, err *e)
{
    workload_data fwd, mid, train;
    const workload *w[3] = {&fwd.w, &mid.w, &train.w};
    clgemm_config before_inf, before_train;
    int rc, i, have_fwd = 0, have_mid = 0, have_train = 0;
    const double t0 = host_seconds();
    err ignored;

    memset(r, 0, sizeof *r);
    r->best_inf = r->best_train = -1;
    if (d->ops->kind != BACKEND_OPENCL)
        return err_set(e, BE_EUSAGE, "tune: %s is not an OpenCL device", d->info.id);
    if (o->budget < 0 || o->reps < 1 || o->reps > 64 || o->fwd_hidden < 1 || o->fwd_batch < 1 ||
        o->train_hidden < 1 || o->train_batch < 1 || o->max_candidates < 0)
        return err_set(
            e, BE_EUSAGE, "tune: bad options (budget %g s, %d reps, shapes %d×%d and %d×%d)",
            o->budget, o->reps, o->fwd_hidden, o->fwd_batch, o->train_hidden, o->train_batch);
    clgemm_get_config_mode(d->handle, WL_INFERENCE, &before_inf);
    clgemm_get_config_mode(d->handle, WL_TRAINING, &before_train);
    list_candidates(d, o, r);

    if ((rc = workload_make(&fwd, WL_INFERENCE, 1, o->fwd_hidden, o->fwd_batch, o->seed, e)))
        goto fail;
    have_fwd = 1;
    if ((rc = workload_make(&mid, WL_INFERENCE, 1, o->train_hidden, o->train_batch, o->seed, e)))
        goto fail;
    have_mid = 1;
    if ((rc = workload_make(&train, WL_TRAINING, 1, o->train_hidden, o->train_batch, o->seed, e)))
        goto fail;
    have_train = 1;

    for (i = 0; i < r->n; i++) {
        if (o->stop && *o->stop) {
            rc = err_set(e, BE_EINTR, "tune: %s: interrupted", d->info.id);
            goto fail;
        }
        /* The default is always measured, so there is a baseline. */
        if (i > 0 && host_seconds() - t0 >= o->budget)
            break;
        if (try_candidate(d, w, o, &r->c[i]) == BE_EINTR) {
            rc = err_set(e, BE_EINTR, "tune: %s: interrupted", d->info.id);
            goto fail;
        }
        if (o->progress)
            o->progress(o->ctx, r, i);
    }
    tune_choose(r);
    if (r->best_inf < 0) {
        rc = err_set(e, BE_EFAIL, "tune: %s: no configuration passed (default: %s)", d->info.id,
                     r->c[0].note);
        goto fail;
    }
    if ((rc = keep_winners(d, o, r, e)))
        goto fail;
    r->seconds = host_seconds() - t0;
    workload_free(&train);
    workload_free(&mid);
    workload_free(&fwd);
    return BE_OK;
fail:
    r->seconds = host_seconds() - t0;
    if (have_train)
        workload_free(&train);
    if (have_mid)
        workload_free(&mid);
    if (have_fwd)
        workload_free(&fwd);
    /* back as it was */
    clgemm_set_config_mode(d->handle, WL_INFERENCE, &before_inf, &ignored);
    clgemm_set_config_mode(d->handle, WL_TRAINING, &before_train, &ignored);
    return rc;
}
