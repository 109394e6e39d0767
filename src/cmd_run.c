/*
 * cmd_run.c — `run` and `all` (see cmd.h): parse → discover and select
 * devices → check the plan fits in memory → make OUT/runs/<id>/ → collect
 * provenance → sweep (saving a partial results.xml after every point) →
 * save the complete file → print the summary table and, last, the path of
 * results.xml.  `all` then writes the report (cmd_report); --repeat N runs
 * it N times.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "archive.h"
#include "cpu.h"
#include "csv.h"
#include "dash.h"
#include "device.h"
#include "devinfo.h"
#include "export.h"
#include "fit.h"
#include "fmt.h"
#include "fsx.h"
#include "host.h"
#include "list.h"
#include "plan.h"
#include "progress.h"
#include "prose.h"
#include "query.h"
#include "refine.h"
#include "runcharts.h"
#include "stop.h"
#include "sweep.h"
#include "table.h"
#include "version.h"
#include "workload.h"

/* An adapter's CPU time outside its requests from which on `run` names it:
 * a share of the sweep's time (torch:cpu's own was 1.0-1.1% of a default run
 * on the 2-core VM; docs/devices.md, "Load between requests"). */
#define IDLE_CPU_WARN_SHARE 0.05

/* Creates OUT/runs/<UTC time>-<host>[-N]/ (the machine's label instead of
 * the host name when it has one; relative to OUT/runs/, opened through no
 * link: fsx.h) and writes its path into dir; first removes what a killed
 * run left in OUT/runs/ (fsx_sweep_in). */
static int make_run_dir(const char *out, const char *label, char *dir, size_t size, char *id,
                        size_t idsize, err *e)
{
    char stamp[32], host[HOST_LABEL_MAX], runs[2200];
    int k, rc, fd;
    size_t i;

    host_utc_now(stamp, sizeof stamp, 1);
    if (label[0])
        snprintf(host, sizeof host, "%s", label);
    else
        host_name(host, sizeof host, 1);
    for (i = 0; host[i]; i++)
        if (!((host[i] >= 'a' && host[i] <= 'z') || (host[i] >= 'A' && host[i] <= 'Z') ||
              (host[i] >= '0' && host[i] <= '9') || host[i] == '-'))
            host[i] = '-';
    snprintf(runs, sizeof runs, "%s/runs", out);
    if ((rc = fsx_dir_open(out, runs, 1, &fd, e)) < 0)
        return err_prefix(e, rc, "--out %s", out);
    if ((rc = fsx_sweep_at(fd, runs, e)) < 0) {
        close(fd);
        return rc;
    }
    for (k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(id, idsize, "%s-%s", stamp, host);
        else
            snprintf(id, idsize, "%s-%s-%d", stamp, host, k);
        snprintf(dir, size, "%s/%s", runs, id);
        if (mkdirat(fd, id, 0777) == 0) {
            close(fd);
            return BE_OK;
        }
        if (errno != EEXIST) {
            rc = err_set(e, fsx_errno_code(errno), "%s: cannot create directory: %s", dir,
                         strerror(errno));
            close(fd);
            return rc;
        }
    }
    close(fd);
    return err_set(e, BE_EFAIL, "%s: too many runs in the same second", runs);
}

static void modes_name(int modes, char *buf, size_t size)
{
    int inf = (modes >> WL_INFERENCE) & 1, tr = (modes >> WL_TRAINING) & 1;
    snprintf(buf, size, "%s", inf && tr ? "inference,training" : tr ? "training" : "inference");
}

static void fill_prov(const cli *c, const char *id, rs_prov *p)
{
    snprintf(p->version, sizeof p->version, "%s", BE_VERSION);
    snprintf(p->commit, sizeof p->commit, "%s", BE_COMMIT);
    snprintf(p->id, sizeof p->id, "%s", id);
    host_utc_now(p->started, sizeof p->started, 0);
    snprintf(p->finished, sizeof p->finished, "%s", p->started);
    snprintf(p->command, sizeof p->command, "%s", c->command_line);
    host_environment(p->env, sizeof p->env);
    p->seed = c->plan.seed;
    p->budget = c->plan.budget;
    p->layers = c->plan.layers;
    list_format(&c->plan.hidden, p->hidden, sizeof p->hidden);
    list_format(&c->plan.batch, p->batch, sizeof p->batch);
    modes_name(c->plan.modes, p->modes, sizeof p->modes);
    host_name(p->host, sizeof p->host, 0);
    host_os(p->os, sizeof p->os);
    host_kernel(p->kernel, sizeof p->kernel);
    host_cpu_model(p->cpu_model, sizeof p->cpu_model);
    host_compiler(p->compiler, sizeof p->compiler);
    p->cores = host_cores();
    p->memory = host_mem_total();
    cpu_blas_info(p->blas_version, sizeof p->blas_version, p->blas_config, sizeof p->blas_config,
                  p->blas_core, sizeof p->blas_core, &p->blas_threads);
    snprintf(p->blas_threads_from, sizeof p->blas_threads_from, "%s", c->threads_from);
    snprintf(p->base, sizeof p->base, "%s", c->base);
}

/* The points that stayed uninformative, per device, and why (q_run_vague):
 * what a longer budget or a quieter machine would change. */
static void print_vague(FILE *out, const results *r)
{
    static const char *const why[Q_VAGUE_N] = {"on others' load", "in under 3 passes",
                                               "whose passes disagree",
                                               "scattered within their passes"};
    q_vague v[8];
    char name[128], lo[32], hi[32], line[512];
    int n = q_run_vague(r, v, 8), i, k, total = 0, load = 0;
    for (i = 0; i < n; i++) {
        total += v[i].n;
        load += v[i].why[Q_VAGUE_LOAD];
    }
    if (n <= 0)
        return;
    fprintf(out,
            "note: %d of %d points stayed uninformative (an interval over %.0f times wide)%s%s "
            "(docs/statistics.md):\n",
            total, r->npoints, Q_UNINFORMATIVE,
            load < total ? "; a longer --budget gives them more passes" : "",
            load ? "; a quieter machine narrows those on others' load" : "");
    for (i = 0; i < n; i++) {
        q_device_name(r, v[i].device, name, sizeof name);
        snprintf(line, sizeof line, "  %s: %d point%s, in up to %d passes:", name, v[i].n,
                 v[i].n == 1 ? "" : "s", v[i].passes);
        for (k = 0; k < Q_VAGUE_N; k++)
            if (v[i].why[k])
                fmt_append(line, sizeof line, "%s %d %s", line[strlen(line) - 1] == ':' ? "" : ",",
                           v[i].why[k], why[k]);
        if (v[i].apart) {
            const rs_point *p = v[i].apart;
            fmt_time(lo, sizeof lo, v[i].apart_lo);
            fmt_time(hi, sizeof hi, v[i].apart_hi);
            fmt_append(line, sizeof line,
                       "; pass medians from %s to %s at hidden %d, batch %d (%s)", lo, hi,
                       p->hidden, p->batch, workload_mode_name(p->mode));
        }
        fprintf(out, "%s\n", line);
    }
}

/* A warning for every pass during which other processes or the hypervisor
 * took a noticeable share of the CPU (q_pass_busy); a note when visits ran
 * with the host's CPUs a cache apart (cachehop.h), with the points
 * summarized from their near samples alone. */
static void print_machine_warnings(FILE *out, const results *r)
{
    char buf[128];
    char num[16];
    int i, far, checked, near;
    for (i = 0; i < r->npasses; i++)
        if (q_pass_busy(r, &r->passes[i])) {
            prose_busy_pass(r, &r->passes[i], buf, sizeof buf);
            fprintf(out, "warning: the machine was busy during pass %d (%s); intervals are wider\n",
                    r->passes[i].index, buf);
        }
    near = q_run_far(r, &far, &checked);
    snprintf(num, sizeof num, "%d", near);
    if (far)
        fprintf(out,
                "note: the host's CPUs were a cache apart around %d of %d visits; %s point%s "
                "summarized from the near samples alone, where at least half were near and the "
                "far ones' median lay outside their interval (docs/statistics.md)\n",
                far, checked, near ? num : "no", near > 1 ? "s are" : " is");
    print_vague(out, r);
}

/* BE_EUSAGE when --base names no device this run measures. */
static int check_base(const char *base, const device_set *set, const int *idx, int n, err *e)
{
    char ids[512] = "";
    int j;
    if (!base[0])
        return BE_OK;
    for (j = 0; j < n; j++) {
        if (strcmp(set->devs[idx[j]].info.id, base) == 0)
            return BE_OK;
        fmt_append(ids, sizeof ids, "%s%s", j ? ", " : "", set->devs[idx[j]].info.id);
    }
    return err_set(e, BE_EUSAGE,
                   "--base: this run does not measure a device \"%s\" (it measures %s)", base,
                   ids[0] ? ids : "none");
}

/* Every priced device must be one the run measures. */
static int check_prices(const fit_prices *p, const device_set *set, const int *idx, int n, err *e)
{
    int i, j, found;
    for (i = 0; i < p->n; i++) {
        for (found = 0, j = 0; j < n; j++)
            found |= strcmp(set->devs[idx[j]].info.id, p->device[i]) == 0;
        if (!found)
            return err_set(e, BE_EUSAGE,
                           "--price: this run does not measure a device \"%s\" "
                           "(see `breakeven devices` and --devices)",
                           p->device[i]);
    }
    return BE_OK;
}

/* BE_EUSAGE when --price or --base names a device this run does not
 * measure. */
static int check_named(const cli *c, const device_set *set, const int *idx, int n, err *e)
{
    int rc = check_prices(&c->prices, set, idx, n, e);
    return rc < 0 ? rc : check_base(c->base, set, idx, n, e);
}

/* The run's results.csv, results.json and summary.md beside its
 * results.xml, as `report` writes them. */
static int write_exports(const results *r, const char *out, const char *dir, err *e)
{
    static const char *const names[] = {"results.csv", "results.json", "summary.md"};
    char path[4200], *text = NULL;
    size_t len = 0;
    int i, rc = BE_OK;
    for (i = 0; i < 3 && rc == BE_OK; i++) {
        rc = i == 0   ? csv_results(r, &text, &len, e)
             : i == 1 ? export_json(r, &text, &len, e)
                      : export_summary(r, &text, &len, e);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (rc == BE_OK)
            rc = fsx_write_in(out, path, text, len, e);
        free(text);
        text = NULL;
    }
    return rc;
}

/* What `run` is about to measure, on stderr. */
static void run_announce(const cli *c, const device_set *set, device *const *sel, int nsel)
{
    int i;
    if (c->quiet)
        return;
    fprintf(stderr, "breakeven %s: measuring", BE_VERSION);
    for (i = 0; i < nsel; i++)
        fprintf(stderr, "%s %s (%s %s)", i ? "," : "", sel[i]->info.id, sel[i]->info.type,
                sel[i]->info.name);
    fprintf(stderr, "; %d points in %d passes, budget %.0f s\n", plan_cells(&c->plan) * nsel,
            c->plan.passes, c->plan.budget);
    if (strcmp(c->threads_from, "OPENBLAS_NUM_THREADS") == 0)
        fprintf(stderr, "note: %d OpenBLAS threads, as OPENBLAS_NUM_THREADS says\n", c->threads);
    if (set->note[0])
        fprintf(stderr, "note: %s\n", set->note);
}

/* The sweep and its refinement into r, saved at path as they go; on an
 * interruption r is saved (marked partial) and BE_EINTR says where. */
static int run_measure(const cli *c, device **sel, int nsel, results *r, const char *path,
                       ab_pace *pace, outlock *lk, err *e)
{
    int ngrid = 0, rc;
    double start;
    plan_point *grid;
    plan p = c->plan;
    progress pg;
    err save;

    progress_init(&pg, stderr, c->quiet);
    if (pace) {
        pace->pg = &pg;
        p.sibling_pid = pace->sibling;
    }
    grid = plan_grid(&c->plan, &ngrid);
    if (!grid)
        return err_set(e, BE_EFAIL, "out of memory");
    start = host_seconds();
    /* three tenths of the budget are kept for refinement around the
     * crossover and for the points whose intervals say nothing (refine.h) */
    rc = sweep_run(&p, grid, NULL, ngrid, c->no_refine ? c->plan.budget : 0.7 * c->plan.budget, sel,
                   nsel, r, c->out, path, lk, stop_flag(), pace ? ab_pace_event : progress_event,
                   pace ? (void *)pace : (void *)&pg, e);
    /* a side of a pair writes nothing more until the other has measured */
    if (rc == BE_OK && pace)
        rc = ab_pace_end(pace, e);
    if (rc == BE_OK) {
        refine_opts ro = {&c->plan, &c->prices, c->no_refine, start,          sel, nsel,
                          c->out,   path,       stop_flag(),  progress_event, &pg, lk};
        int again;
        rc = refine_run(&ro, r, &again, e);
    }
    progress_finish(&pg);
    free(grid);
    host_utc_now(r->prov.finished, sizeof r->prov.finished, 0);
    if (rc != BE_EINTR)
        return rc;
    /* what was measured is saved whatever another writer does: the wait
     * for OUT's lock is not cut short by the signal that stopped the run */
    if ((rc = outlock_take(lk, NULL, &save)) == BE_OK) {
        rc = results_save(r, c->out, path, &save);
        outlock_give(lk);
    }
    if (rc < 0) {
        *e = save;
        return rc;
    }
    return err_set(e, BE_EINTR, "interrupted: %d points saved in %s (marked partial)", r->npoints,
                   path);
}

/* One line on stderr for each device out of service that has not said so
 * yet (a framework's adapter that could not start, or that failed during
 * the sweep: its points are recorded as failed). */
static void warn_faults(device **sel, int nsel, const results *r)
{
    double swept = 0.0;
    int i;
    for (i = 0; i < r->npasses; i++)
        swept += r->passes[i].seconds;
    for (i = 0; i < nsel; i++) {
        const double idle = device_idle_cpu(sel[i]);
        if (device_fault_news(sel[i]))
            fprintf(stderr, "warning: %s: %s; its points are recorded as failed from then on\n",
                    sel[i]->info.id, device_fault(sel[i]));
        /* counted as others' load in the passes (machstate.h); this says whose */
        if (swept > 0.0 && idle > 0.0 && idle >= IDLE_CPU_WARN_SHARE * swept)
            fprintf(stderr,
                    "warning: %s: its adapter used %.1f s of CPU outside its own requests, "
                    "counted as other processes' load: it slowed the devices measured "
                    "meanwhile\n",
                    sel[i]->info.id, idle);
    }
}

/* The devices that went out of service during the sweep (stderr), the
 * kernels' build time (stderr) and the run's caveats (prose_caveats: txt,
 * stdout, or stderr when stdout holds a dashboard's JSON), noted in r's
 * devices. */
static void run_notes(const cli *c, device **sel, int nsel, results *r, FILE *txt)
{
    int i;
    warn_faults(sel, nsel, r);
    for (i = 0; i < nsel; i++) {
        const device_info *d = &r->devices[i];
        const char *secs, *cache;
        device_note_build(sel[i], &r->devices[i]);
        secs = devinfo_prop(d, "kernel-build-seconds");
        cache = devinfo_prop(d, "kernel-binary-cache");
        if (secs && cache && !c->quiet)
            fprintf(stderr, "%s: kernels built in %s s (binary cache %s), not part of any sample\n",
                    d->id, secs, cache);
    }
    /* the caveats in the words of the pages (prose_caveats): a library
     * held to older kernels, no GPU measured */
    {
        char caveat[8][PROSE_CAVEAT];
        int n = prose_caveats(r, caveat, 8);
        for (i = 0; i < n; i++)
            fprintf(txt, "note: %s\n", caveat[i]);
    }
}

/* A finished run's charts and exports, and its tables on txt; with
 * --format bmf, stdout holds the dashboard's JSON and nothing else. */
static int run_publish(const cli *c, const results *r, const char *dir, const char *path, FILE *txt,
                       err *e)
{
    int rc, ncharts = 0;
    if ((rc = runcharts_draw(r, c->out, dir, &ncharts, e)) < 0 ||
        (rc = write_exports(r, c->out, dir, e)) < 0)
        return rc;
    table_points(txt, r);
    print_machine_warnings(txt, r);
    if ((rc = cmd_answers(txt, r, e)) < 0)
        return rc;
    fprintf(txt, "charts: %d PNG in %s/\n%s\n", ncharts, dir, path);
    if (c->format >= CLI_BMF)
        return dash_write_run(stdout, r, (dash_format)(c->format - CLI_BMF), c->summary, e);
    return BE_OK;
}

/* One run; then the report, under the same lock, when then_report (the
 * last run of `all`). */
static int run_once(const cli *c, int then_report)
{
    device_set set;
    device **sel = NULL;
    int *idx = NULL, nsel = 0, i, rc, status = 1;
    char dir[2400], id[128], path[2600], devs[512], label[HOST_LABEL_MAX];
    results *r = NULL;
    ab_pace pace = {c->paired_fd, NULL, 0, 0};
    outlock lk;
    err e;

    cmd_lock(c, &lk);
    if ((rc = cmd_discover(c, c->devices, &set, &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    idx = malloc((size_t)set.n * sizeof *idx);
    sel = malloc((size_t)set.n * sizeof *sel);
    if (!idx || !sel) {
        err_set(&e, BE_EFAIL, "out of memory");
        goto fail;
    }
    if ((rc = device_select(&set, c->devices, idx, &nsel, &e)) < 0 ||
        (rc = check_named(c, &set, idx, nsel, &e)) < 0 ||
        (rc = plan_check(&c->plan, host_mem_available(), &e)) < 0 ||
        (rc = host_label(getenv("BREAKEVEN_MACHINE"), label, sizeof label, &e)) < 0) {
        status = cmd_status(rc);
        goto fail;
    }
    /* a signal since main caught them stops the run at its next check,
     * after the file being written; one before this point stops it here */
    if (stop_requested()) {
        err_set(&e, BE_EINTR, "interrupted before the run started; nothing written");
        goto fail;
    }
    /* OUT's lock only while writing (outlock.h): the directory and the
     * first save now, each checkpoint, then the final file and charts;
     * never while measuring */
    /* a publish a killed writer left is finished or undone first, as
     * every writer of OUT does under the lock (site_recover) */
    if ((rc = outlock_take(&lk, stop_flag(), &e)) < 0 || (rc = site_recover(c->out, &e)) < 0 ||
        (rc = make_run_dir(c->out, label, dir, sizeof dir, id, sizeof id, &e)) < 0) {
        status = cmd_status(rc);
        goto fail;
    }
    snprintf(path, sizeof path, "%s/" ARCHIVE_RESULTS, dir);
    if (!(r = results_new())) {
        err_set(&e, BE_EFAIL, "out of memory");
        goto fail;
    }
    fill_prov(c, id, &r->prov);
    snprintf(r->prov.label, sizeof r->prov.label, "%s", label);
    for (i = 0; i < nsel; i++) {
        sel[i] = &set.devs[idx[i]];
        if ((rc = results_add_device(r, &sel[i]->info, &e)) < 0)
            goto fail;
    }
    run_announce(c, &set, sel, nsel);
    warn_faults(sel, nsel, r);
    if (c->paired_side) {
        snprintf(r->prov.pair, sizeof r->prov.pair, "%s", c->paired_id);
        r->prov.pair_side = c->paired_side;
        for (i = 0, devs[0] = '\0'; i < nsel; i++)
            fmt_append(devs, sizeof devs, "%s%s", i ? "," : "", sel[i]->info.id);
    }
    if ((rc = cmd_learn_bands(c, r, &e)) < 0 || (rc = results_save(r, c->out, path, &e)) < 0) {
        /* nothing measured yet: no empty run is left in the archive */
        err ignore;
        (void)fsx_unstage_in(c->out, dir, &ignore);
        goto fail;
    }
    outlock_give(&lk);
    if ((c->paired_side && (rc = ab_pace_hello(&pace, id, results_format(r), devs, &e)) < 0) ||
        (rc = run_measure(c, sel, nsel, r, path, c->paired_side ? &pace : NULL, &lk, &e)) < 0)
        goto fail;
    run_notes(c, sel, nsel, r, c->format >= CLI_BMF ? stderr : stdout);
    r->partial = 0;
    /* a sweep measured is saved: this wait is not cut short by a signal
     * (nor refused with --no-wait, which held only until the first take) */
    if ((rc = outlock_take(&lk, NULL, &e)) < 0 || (rc = results_save(r, c->out, path, &e)) < 0)
        goto fail;
    if (stop_requested()) {
        err_set(&e, BE_EINTR,
                "interrupted: the run is complete in %s, its charts not drawn "
                "(`breakeven report` draws them)",
                path);
        goto fail;
    }
    if ((rc = run_publish(c, r, dir, path, c->format >= CLI_BMF ? stderr : stdout, &e)) < 0)
        goto fail;
    status = 0;
    /* `all`: the report follows under the lock the run holds */
    if (then_report)
        status = cmd_report(c, &lk);
    goto done;
fail:
    cmd_fail(status, &e);
done:
    outlock_drop(&lk);
    results_free(r);
    free(idx);
    free(sel);
    device_set_free(&set);
    return status;
}

/* `run` (or `all`) --repeat N: N independent runs in a row, each its own
 * directory and id, the report (for `all`) after the last; the first
 * failure stops. */
int cmd_run(const cli *c)
{
    int k, status = 0;
    for (k = 0; k < c->repeat && status == 0 && !stop_requested(); k++) {
        if (c->repeat > 1 && !c->quiet)
            fprintf(stderr, "run %d of %d\n", k + 1, c->repeat);
        status = run_once(c, c->cmd == CLI_ALL && k == c->repeat - 1);
    }
    return status;
}
