/*
 * main.c — breakeven's entry point: turns the command line into calls of
 * the modules below it and their error codes into exit statuses (0 ok,
 * 1 failure at run time, 2 usage error).  The only file that prints errors
 * or exits.
 *
 * Flow of `run`: parse → discover and select devices → check the plan fits
 * in memory → make OUT/runs/<id>/ → collect provenance → sweep (saving a
 * partial results.xml after every point) → save the complete file → print
 * the summary table and, last, the path of results.xml.  `all` (the
 * default) then writes the report (report.h) and prints OUT/index.html.
 * `refit` loads stored runs, analyses them again and rewrites them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "archive.h"
#include "cli.h"
#include "cpu.h"
#include "csv.h"
#include "dash.h"
#include "decide.h"
#include "device.h"
#include "export.h"
#include "findings.h"
#include "fit.h"
#include "fmt.h"
#include "fsx.h"
#include "host.h"
#include "outlock.h"
#include "pick.h"
#include "progress.h"
#include "prose.h"
#include "query.h"
#include "refine.h"
#include "report.h"
#include "results.h"
#include "runcharts.h"
#include "site.h"
#include "stop.h"
#include "sweep.h"
#include "table.h"
#include "tune.h"
#include "undo.h"
#include "utf8.h"
#include "version.h"
#include "workload.h"

/* A message on one printable line: input it quotes is escaped already
 * where it is read; what still holds a control character or invalid UTF-8
 * is escaped here. */
static void print_line(const char *prefix, const char *msg)
{
    char safe[4 * sizeof(err)];
    /* after what stdout holds, when both go to one file */
    fflush(stdout);
    if (utf8_clean(msg) && !strpbrk(msg, "\t\r\n"))
        fprintf(stderr, "%s%s\n", prefix, msg);
    else {
        utf8_escape(safe, sizeof safe, msg);
        fprintf(stderr, "%s%s\n", prefix, safe);
    }
}

/* A path on a line of its own (f: stdout or stderr) as print_line writes
 * a message: a file name from a directory listing can hold escape
 * sequences, and the terminal is no place for them. */
static void print_path(FILE *f, const char *fmt, const char *path)
{
    char safe[4 * 4200];
    if (!utf8_clean(path) || strpbrk(path, "\t\r\n"))
        utf8_escape(safe, sizeof safe, path);
    else
        snprintf(safe, sizeof safe, "%s", path);
    fprintf(f, fmt, safe);
}

static void print_warning(void *ctx, const char *line)
{
    (void)ctx;
    print_line("breakeven: warning: ", line);
}

/* The note of a command that waits for another writing OUT (outlock.h):
 * printed with --quiet too, so that a command that seems to hang says
 * why. */
static void print_note(void *ctx, const char *line)
{
    (void)ctx;
    print_line("breakeven: ", line);
}

/* The lock of c's OUT, not held (outlock.h). */
static void lock_of(const cli *c, outlock *l)
{
    outlock_init(l, c->out, c->no_wait, print_note, NULL);
}

static int fail(int status, const err *e)
{
    char msg[sizeof e->msg + 32];
    snprintf(msg, sizeof msg, "%s%s", e->msg, status == 2 ? " (see breakeven --help)" : "");
    print_line("breakeven: ", msg);
    return status;
}

static int status_of(int rc)
{
    return rc == BE_EUSAGE ? 2 : 1;
}

static int cmd_devices(const cli *c)
{
    device_set set;
    err e;
    int i, rc = device_discover(&set, c->threads, &e);
    if (rc < 0)
        return fail(status_of(rc), &e);
    for (i = 0; i < set.n; i++) {
        table_device(stdout, &set.devs[i].info);
        if (i + 1 < set.n)
            putchar('\n');
    }
    if (set.note[0])
        printf("\nnote: %s\n", set.note);
    device_set_free(&set);
    return 0;
}

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
}

/* A warning for every pass during which other processes or the hypervisor
 * took a noticeable share of the CPU (q_pass_busy); a note when visits ran
 * with the host's CPUs a cache apart (cachehop.h), and a warning when a
 * point had to keep such samples. */
static void print_machine_warnings(FILE *out, const results *r)
{
    char buf[128];
    int i, far, checked, kept;
    for (i = 0; i < r->npasses; i++)
        if (q_pass_busy(r, &r->passes[i])) {
            prose_busy_pass(r, &r->passes[i], buf, sizeof buf);
            fprintf(out, "warning: the machine was busy during pass %d (%s); intervals are wider\n",
                    r->passes[i].index, buf);
        }
    kept = q_run_far(r, &far, &checked);
    if (far)
        fprintf(out,
                "note: the host's CPUs were a cache apart around %d of %d visits; their samples "
                "are left out wherever a point has 3 others%s (docs/statistics.md)\n",
                far, checked, kept ? "" : ", which every point had");
    if (kept)
        fprintf(out,
                "warning: %d point%s kept samples taken with the CPUs a cache apart (too few "
                "others); their times may be slow\n",
                kept, kept == 1 ? "" : "s");
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

/* The answers in words: every finding's sentence (findings.h, the same
 * the report leads with), and how well the models fit. */
static int print_crossovers(FILE *out, const results *r, err *e)
{
    findings F;
    char buf[4096];
    int i, m, rc;
    if (!r->has_fit)
        return BE_OK;
    if ((rc = findings_make(r, &F, e)) < 0)
        return rc;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        prose_models(r, (wl_mode)m, buf, sizeof buf);
        if (buf[0])
            fprintf(out, "\n%s:%s\n", workload_mode_name((wl_mode)m), buf);
    }
    for (i = 0; i < F.n; i++) {
        findings_sentence(&F.f[i], r, buf, sizeof buf);
        fprintf(out, "%s%s\n", i ? "" : "\n", buf);
    }
    if (F.n > 0 && r->prices.n == 0)
        fprintf(out, "No prices given, so no cost figures: add --price DEVICE=USD_PER_HOUR "
                     "for each device (or --prices FILE) to get the cost crossover.\n");
    if (F.n > 0)
        fputc('\n', out);
    findings_free(&F);
    return BE_OK;
}

/* The site's settings: those kept in OUT (site.h), each replaced by its
 * option when given; *changed when one was (they are saved once the pages
 * are written). */
static int settings_of(const cli *c, site_settings *st, int *changed, err *e)
{
    site_settings old;
    int rc = site_settings_load(c->out, st, e);
    if (rc < 0)
        return rc;
    old = *st;
    if (c->base_url[0])
        snprintf(st->base_url, sizeof st->base_url, "%s", c->base_url);
    if (c->title[0])
        snprintf(st->title, sizeof st->title, "%s", c->title);
    if (c->author[0])
        snprintf(st->author, sizeof st->author, "%s", c->author);
    *changed = strcmp(old.base_url, st->base_url) != 0 || strcmp(old.title, st->title) != 0 ||
               strcmp(old.author, st->author) != 0;
    return BE_OK;
}

static void report_options(const cli *c, const site_settings *st, report_opts *o)
{
    memset(o, 0, sizeof *o);
    o->out = c->out;
    o->runs = c->args;
    o->nruns = c->cmd == CLI_REPORT ? c->nargs : 0;
    o->base_url = st->base_url;
    o->title = st->title;
    o->author = st->author;
    o->data_dir = c->data_dir;
    o->feed_items = st->feed_items;
    o->full = c->full;
    o->jobs = c->jobs;
    o->stop = stop_flag();
    o->warn = print_warning;
}

/* `report`: the pages, the feed and the CSV files; the path of
 * OUT/index.html last (then, with --single-file, the file's).  All of it
 * under OUT's lock (lk, which `all`'s run may hold already), from reading
 * site.conf to saving it: the recovery of an abandoned publish
 * (site_recover) then never meets a live report's staged files. */
static int cmd_report(const cli *c, outlock *lk)
{
    report_opts o;
    site_settings st;
    char index[4200], share[4200] = "";
    err e;
    int rc, changed;
    if ((rc = outlock_take(lk, stop_flag(), &e)) < 0)
        return fail(status_of(rc), &e);
    if ((rc = settings_of(c, &st, &changed, &e)) == BE_OK) {
        report_options(c, &st, &o);
        o.single_file = c->single_file;
        o.share_path = share;
        o.share_size = sizeof share;
        if ((rc = report_write(&o, index, sizeof index, &e)) == BE_OK && changed)
            rc = site_settings_save(c->out, &st, &e);
        /* --format bmf: the dashboard's JSON of the runs reported */
        if (rc == BE_OK && c->format >= CLI_BMF)
            rc = dash_write_archive(stdout, c->out, c->args, c->nargs,
                                    (dash_format)(c->format - CLI_BMF), &e);
    }
    outlock_give(lk);
    if (rc < 0)
        return fail(status_of(rc), &e);
    fflush(stdout);
    if (!st.base_url[0] && !c->quiet)
        fprintf(stderr, "note: no --base-url, so the feed's links are relative; give the URL "
                        "OUT/ is published at to make them absolute (it is kept for OUT)\n");
    if (c->format < CLI_BMF || !c->quiet) {
        FILE *to = c->format < CLI_BMF ? stdout : stderr;
        print_path(to, "%s\n", index);
        if (share[0])
            print_path(to, "%s\n", share);
    }
    return 0;
}

static void tune_row(void *ctx, const tune_report *r, int i)
{
    const tune_candidate *t = &r->c[i];
    char secs[32];
    (void)ctx;
    fmt_duration(secs, sizeof secs, t->seconds);
    printf("%2d %-8s %9.1f %9.1f %9.1f %8s  %s%s%s\n", i, tune_status_name(t->status),
           t->fwd_gflops, t->train_gflops, t->score, secs, t->options, t->note[0] ? "  # " : "",
           t->note);
    fflush(stdout);
}

/* `tune`: the candidates of each selected OpenCL device, one row each, and
 * the winner, which later runs use. */
static int cmd_tune(const cli *c)
{
    device_set set;
    tune_options o;
    tune_report rep;
    int *idx = NULL, n = 0, i, rc, tuned = 0, status = 1;
    err e;

    if ((rc = device_discover(&set, c->threads, &e)) < 0)
        return fail(status_of(rc), &e);
    if (!(idx = malloc((size_t)set.n * sizeof *idx))) {
        err_set(&e, BE_EFAIL, "out of memory");
        goto fail;
    }
    if ((rc = device_select(&set, c->devices, idx, &n, &e)) < 0) {
        status = status_of(rc);
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
        printf("%s (%s, %s): forward hidden %d × batch %d, training hidden %d × batch %d\n",
               d->info.id, d->info.type, d->info.name, o.fwd_hidden, o.fwd_batch, o.train_hidden,
               o.train_batch);
        printf("%2s %-8s %9s %9s %9s %8s  %s\n", "#", "status", "fwd GF/s", "trainGF/s", "score",
               "time", "options");
        if ((rc = tune_device(d, &o, &rep, &e)) < 0) {
            status = status_of(rc);
            goto fail;
        }
        printf("best: #%d %s (%.2f× the default) -> %s in %.0f s\n\n", rep.best,
               rep.c[rep.best].options,
               rep.c[0].score > 0.0 ? rep.c[rep.best].score / rep.c[0].score : 1.0,
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
    fail(status, &e);
done:
    free(idx);
    device_set_free(&set);
    return status;
}

/* `compare A B` (or A1 A2 -- B1 B2): the run-level verdicts, the table,
 * then the path of the comparison page.  With --fail-on-regression: 3 when
 * B regressed, 4 when the comparison cannot decide (one line says why). */
static int cmd_compare(const cli *c)
{
    report_opts o;
    compare_opts co;
    compare_set cmp;
    pick_side pa, pb;
    char page[4200];
    err e;
    site_settings st;
    outlock lk;
    int rc, changed, status = 0;
    /* under OUT's lock from the archive read to site.conf saved */
    lock_of(c, &lk);
    if ((rc = outlock_take(&lk, stop_flag(), &e)) < 0)
        return fail(status_of(rc), &e);
    if ((rc = settings_of(c, &st, &changed, &e)) < 0) {
        outlock_drop(&lk);
        return fail(status_of(rc), &e);
    }
    report_options(c, &st, &o);
    compare_opts_default(&co);
    if (c->threshold > 0.0)
        co.threshold = c->threshold;
    if (c->alpha > 0.0)
        co.alpha = c->alpha;
    if (c->correct > 0)
        co.correct = (compare_correct)(c->correct - 1);
    /* a side may be @KEY=VALUE: the archived runs that match */
    if ((rc = pick_side_expand(c->out, "A", c->args, c->nside_a, &pa, &e)) < 0 ||
        (rc = pick_side_expand(c->out, "B", c->args + c->nside_a, c->nargs - c->nside_a, &pb, &e)) <
            0 ||
        (rc = report_compare(&o, pa.arg, pa.n, pb.arg, pb.n, &co, &cmp, page, sizeof page, &e)) <
            0) {
        outlock_drop(&lk);
        return fail(status_of(rc), &e);
    }
    if (changed && (rc = site_settings_save(c->out, &st, &e)) < 0) {
        outlock_drop(&lk);
        compare_free(&cmp);
        return fail(status_of(rc), &e);
    }
    outlock_drop(&lk);
    if (c->format >= CLI_BMF &&
        (rc = dash_write_compare(stdout, &cmp, (dash_format)(c->format - CLI_BMF), &e)) < 0) {
        compare_free(&cmp);
        return fail(status_of(rc), &e);
    }
    if (c->format < CLI_BMF)
        compare_write(stdout, &cmp, (compare_format)c->format);
    if (c->fail_on_regression && (status = compare_gate_status(&cmp)) == 4) {
        fflush(stdout);
        print_line("breakeven: gate open: ", cmp.gate_why);
    }
    compare_free(&cmp);
    /* the page's path on stdout would break a table or JSON meant for a
     * program or a paste */
    if (c->format == CLI_TEXT)
        print_path(stdout, "%s\n", page);
    else if (!c->quiet)
        print_path(stderr, "%s\n", page);
    return status;
}

/* The prices of a refit of r (stored in path): those stored, then those
 * given, each replacing a stored price of the same device.  BE_EUSAGE when
 * a given price names a device that r did not measure. */
static int refit_prices(const results *r, const fit_prices *given, const char *path,
                        fit_prices *out, err *e)
{
    int i, j;
    *out = r->prices;
    for (i = 0; i < given->n; i++) {
        if (!results_device(r, given->device[i]))
            return err_set(e, BE_EUSAGE,
                           "--price: %s measured no device \"%s\" (its devices "
                           "are in <devices>)",
                           path, given->device[i]);
        for (j = 0; j < out->n && strcmp(out->device[j], given->device[i]) != 0; j++)
            ;
        if (j == out->n) {
            if (out->n == FIT_MAX_PRICES)
                return err_set(e, BE_EUSAGE, "--price: more than %d devices priced",
                               FIT_MAX_PRICES);
            snprintf(out->device[j], sizeof out->device[j], "%s", given->device[i]);
            out->n++;
        }
        out->usd_per_hour[j] = given->usd_per_hour[i];
    }
    return BE_OK;
}

static int print_networks(FILE *out, const results *r, err *e);

/* One run of `refit`: every summary again from the samples, the fit with
 * this version's method, the file rewritten in place (atomically; the
 * samples are written back as loaded, to the last digit), its charts
 * redrawn, and the answers printed as `run` prints them. */
static int refit_one(const cli *c, const char *arg, outlock *lk, err *e)
{
    archive_run u;
    fit_prices prices;
    fit_set fs;
    undo un = {0};
    results *r;
    char dir[ARCHIVE_PATH], *slash;
    const char *root;
    int i, rc, ncharts = 0, onepass = 0, locked = 0;

    memset(&fs, 0, sizeof fs);
    if ((rc = archive_load_run(c->out, arg, &u, e)) < 0)
        return rc;
    r = u.r;
    snprintf(dir, sizeof dir, "%s", u.src);
    slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    /* a run of OUT is rewritten inside OUT, through no link planted there
     * (its charts' included: checked before the results file is
     * rewritten, and each file written relative to OUT), after what a
     * killed command left there is gone; a file the user named elsewhere
     * is rewritten where the user's path leads */
    root = fsx_inside(c->out, u.src) ? c->out : NULL;
    /* a run of OUT is refitted under OUT's lock (outlock.h), from the
     * checks to its charts */
    if (root && (rc = outlock_take(lk, stop_flag(), e)) < 0)
        goto done;
    locked = root != NULL;
    /* ... and put back as it was when it cannot be (undo.h) */
    if ((root &&
         ((rc = fsx_check_in(c->out, u.src, e)) < 0 ||
          (rc = fsx_check_links_in(c->out, dir, ".png", 0, e)) < 0 ||
          (rc = fsx_sweep_in(c->out, dir, e)) < 0 || (rc = undo_begin(&un, c->out, dir, e)) < 0)) ||
        (rc = refit_prices(r, &c->prices, u.src, &prices, e)) < 0)
        goto done;
    for (i = 0; i < r->npoints; i++) {
        rs_point *p = &r->points[i];
        if (p->nsamples == 0)
            continue;
        onepass |= !p->pass;
        if ((rc = results_summarize_in(r, p, e)) < 0) {
            err_prefix(e, rc, "%s", u.src);
            goto done;
        }
    }
    if ((rc = fit_run(r, &prices, r->prov.seed, 0, &fs, e)) < 0)
        goto done;
    results_set_fit(r, &fs, r->prov.seed, &prices);
    if (stop_requested()) {
        rc = err_set(e, BE_EINTR, "interrupted: %s is as it was", u.src);
        goto done;
    }
    if ((rc = results_save(r, root, u.src, e)) < 0)
        goto done;
    if (stop_requested()) {
        rc = err_set(e, BE_EINTR,
                     "interrupted: %s is refitted, its charts not redrawn (`breakeven refit` "
                     "again draws them)",
                     u.src);
        goto done;
    }
    if ((rc = runcharts_draw(r, root, dir, &ncharts, e)) < 0)
        goto done;
    if (onepass && !c->quiet)
        print_path(stderr,
                   "note: %s: its samples carry no passes (breakeven 0.1.0), so their "
                   "intervals cover the spread within that run only\n",
                   u.src);
    if ((rc = print_crossovers(stdout, r, e)) < 0 || (rc = print_networks(stdout, r, e)) < 0)
        goto done;
    printf("charts: %d PNG in ", ncharts);
    print_path(stdout, "%s/\n", dir);
    print_path(stdout, "%s\n", u.src);
done:
    if (rc < 0)
        undo_rollback(&un);
    else
        undo_forget(&un);
    if (locked)
        outlock_give(lk);
    fit_set_free(&fs);
    archive_run_free(&u);
    return rc;
}

/* `refit RUN...`: each run in turn; the first failure stops. */
static int cmd_refit(const cli *c)
{
    outlock lk;
    err e;
    int i, rc;
    lock_of(c, &lk);
    for (i = 0; i < c->nargs; i++)
        if ((rc = refit_one(c, c->args[i], &lk, &e)) < 0)
            return fail(status_of(rc), &e);
    return 0;
}

/* `decide RUN`: decision.json and breakeven_decision.h beside the run's
 * results file, the environment lines, then the two paths. */
static int cmd_decide(const cli *c)
{
    archive_run u;
    netfit_set s;
    char dir[ARCHIVE_PATH], *slash;
    outlock lk;
    undo un = {0};
    err e;
    int rc, locked = 0;
    memset(&s, 0, sizeof s);
    lock_of(c, &lk);
    if ((rc = archive_load_run(c->out, c->args[0], &u, &e)) < 0)
        return fail(status_of(rc), &e);
    snprintf(dir, sizeof dir, "%s", u.src);
    if ((slash = strrchr(dir, '/')))
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    /* beside a run of OUT: under OUT's lock (outlock.h) */
    if (fsx_inside(c->out, dir) && (rc = outlock_take(&lk, stop_flag(), &e)) < 0) {
        archive_run_free(&u);
        return fail(status_of(rc), &e);
    }
    locked = fsx_inside(c->out, dir);
    if ((rc = netfit_run(u.r, u.r->prov.seed, 0, &s, &e)) == BE_OK && s.n == 0) {
        const char *names[1];
        if (netfit_networks(u.r, names, 1) > 0)
            rc = err_set(&e, BE_EUSAGE,
                         "%s measured its networks on one device only: nothing to decide "
                         "between (measure with --devices all)",
                         u.src);
        else
            rc = err_set(&e, BE_EUSAGE,
                         "%s measured no network (measure one with breakeven run --net SIZES)",
                         u.src);
    }
    /* beside a run of OUT: through no link planted there */
    if (rc == BE_OK && fsx_inside(c->out, dir)) {
        char p[ARCHIVE_PATH + 32];
        snprintf(p, sizeof p, "%s/decision.json", dir);
        if ((rc = fsx_check_in(c->out, p, &e)) == BE_OK) {
            snprintf(p, sizeof p, "%s/breakeven_decision.h", dir);
            rc = fsx_check_in(c->out, p, &e);
        }
    }
    if (rc == BE_OK && locked)
        rc = undo_begin(&un, c->out, dir, &e);
    if (rc == BE_OK && (rc = decide_write(u.r, &s, fsx_inside(c->out, dir) ? c->out : NULL, dir,
                                          stdout, &e)) == BE_OK) {
        print_path(stdout, "%s/decision.json\n", dir);
        print_path(stdout, "%s/breakeven_decision.h\n", dir);
    }
    if (rc < 0)
        undo_rollback(&un);
    else
        undo_forget(&un);
    if (locked)
        outlock_give(&lk);
    netfit_free(&s);
    archive_run_free(&u);
    return rc < 0 ? fail(status_of(rc), &e) : 0;
}

/* `which --net NET --batch N RUN`: the device on stdout, why on stderr. */
static int cmd_which(const cli *c)
{
    archive_run u;
    decide_answer a;
    err e;
    int rc;
    wl_mode mode = (c->plan.modes >> WL_TRAINING) & 1 ? WL_TRAINING : WL_INFERENCE;
    if ((rc = archive_load_run(c->out, c->args[0], &u, &e)) < 0)
        return fail(status_of(rc), &e);
    if ((rc = decide_which(u.r, c->which_net, mode, (fit_view)c->which_view, c->which_batch, &a,
                           &e)) == BE_OK) {
        printf("%s\n", a.device);
        if (!c->quiet)
            fprintf(stderr, "%s\n", a.why);
    }
    archive_run_free(&u);
    return rc < 0 ? fail(status_of(rc), &e) : 0;
}

/* "1.20/0.45/0.02 ms": the times of a layer breakdown in milliseconds. */
static void layer_list(const double *t, int n, char *buf, size_t size)
{
    size_t k = 0;
    int l;
    buf[0] = '\0';
    for (l = 0; l < n && k + 1 < size; l++)
        k += (size_t)snprintf(buf + k, size - k, "%s%.3g", l ? "/" : "", 1e3 * t[l]);
    if (k + 1 < size)
        snprintf(buf + k, size - k, " ms");
}

/* Per network, mode and batch that both devices timed by layer: each
 * layer's time on each, and the best placement of the layers with the
 * copies between devices, beside all on one device or the other. */
static void print_layers(FILE *out, const results *r)
{
    const char *base = q_base_id(r);
    int i, j, l, first = 1;
    for (i = 0; base && i < r->npoints; i++) {
        const rs_point *pb = &r->points[i];
        if (!pb->net[0] || strcmp(pb->device, base) != 0)
            continue;
        for (j = 0; j < r->npoints; j++) {
            const rs_point *po = &r->points[j];
            netfit_layers b;
            char tb[400], to[400], on[600];
            size_t k = 0;
            if (strcmp(po->device, base) == 0 || po->mode != pb->mode || po->batch != pb->batch ||
                strcmp(po->net, pb->net) != 0 || strcmp(po->sizes, pb->sizes) != 0 ||
                !netfit_breakdown(pb, po, &b))
                continue;
            layer_list(b.t[0], b.layers, tb, sizeof tb);
            layer_list(b.t[1], b.layers, to, sizeof to);
            on[0] = '\0';
            for (l = 0; l < b.layers && k + 1 < sizeof on; l++)
                k += (size_t)snprintf(on + k, sizeof on - k, "%s%s", l ? "," : "",
                                      b.on[l] ? po->device : pb->device);
            fprintf(out,
                    "%s%s %s batch %d by layer: %s %s, %s %s; best placement %s, about %.3g ms "
                    "(all on %s %.3g ms, all on %s with copies %.3g ms)\n",
                    first ? "\n" : "", pb->net, workload_mode_name(pb->mode), pb->batch, pb->device,
                    tb, po->device, to, on, 1e3 * b.best, pb->device, 1e3 * b.all_base, po->device,
                    1e3 * b.all_other);
            first = 0;
        }
    }
}

/* The answer per network of a run, one line each (inference and training,
 * both views): what `decide` writes for programs, in words. */
static int print_networks(FILE *out, const results *r, err *e)
{
    netfit_set s;
    int i, rc;
    if ((rc = netfit_run(r, r->prov.seed, 0, &s, e)) < 0)
        return rc;
    for (i = 0; i < s.n; i++) {
        char line[1024];
        netfit_sentence(&s.c[i], line, sizeof line);
        fprintf(out, "%s%s\n", i ? "" : "\n", line);
    }
    netfit_free(&s);
    print_layers(out, r);
    return BE_OK;
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
    /* a fifth of the budget is kept for refinement around the crossover */
    rc = sweep_run(&p, grid, ngrid, c->no_refine ? c->plan.budget : 0.8 * c->plan.budget, sel, nsel,
                   r, c->out, path, lk, stop_flag(), pace ? ab_pace_event : progress_event,
                   pace ? (void *)pace : (void *)&pg, e);
    /* a side of a pair writes nothing more until the other has measured */
    if (rc == BE_OK && pace)
        rc = ab_pace_end(pace, e);
    if (rc == BE_OK) {
        refine_opts ro = {&c->plan, &c->prices, c->no_refine, start,          sel, nsel,
                          c->out,   path,       stop_flag(),  progress_event, &pg, lk};
        rc = refine_run(&ro, r, e);
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

/* The kernels' build time (stderr) and OpenBLAS using fewer threads than
 * asked (txt: stdout, or stderr when stdout holds a dashboard's JSON),
 * noted in r's devices. */
static void run_notes(const cli *c, device **sel, int nsel, results *r, FILE *txt)
{
    int i;
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
    for (i = 0; i < r->ndevices; i++) {
        const char *why = devinfo_prop(&r->devices[i], "openblas-underuses");
        if (why)
            fprintf(txt, "warning: %s: OpenBLAS ran its %s\n", r->devices[i].id, why);
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
    if ((rc = print_crossovers(txt, r, e)) < 0 || (rc = print_networks(txt, r, e)) < 0)
        return rc;
    fprintf(txt, "charts: %d PNG in %s/\n%s\n", ncharts, dir, path);
    if (c->format >= CLI_BMF)
        return dash_write_run(stdout, r, (dash_format)(c->format - CLI_BMF), e);
    return BE_OK;
}

static int cmd_run(const cli *c, int then_report)
{
    device_set set;
    device **sel = NULL;
    int *idx = NULL, nsel = 0, i, rc, status = 1;
    char dir[2400], id[128], path[2600], devs[512], label[HOST_LABEL_MAX];
    results *r = NULL;
    ab_pace pace = {c->paired_fd, NULL, 0, 0};
    outlock lk;
    err e;

    lock_of(c, &lk);
    if ((rc = device_discover(&set, c->threads, &e)) < 0)
        return fail(status_of(rc), &e);
    idx = malloc((size_t)set.n * sizeof *idx);
    sel = malloc((size_t)set.n * sizeof *sel);
    if (!idx || !sel) {
        err_set(&e, BE_EFAIL, "out of memory");
        goto fail;
    }
    if ((rc = device_select(&set, c->devices, idx, &nsel, &e)) < 0 ||
        (rc = check_prices(&c->prices, &set, idx, nsel, &e)) < 0 ||
        (rc = plan_check(&c->plan, host_mem_available(), &e)) < 0 ||
        (rc = host_label(getenv("BREAKEVEN_MACHINE"), label, sizeof label, &e)) < 0) {
        status = status_of(rc);
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
        status = status_of(rc);
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
    if (c->paired_side) {
        snprintf(r->prov.pair, sizeof r->prov.pair, "%s", c->paired_id);
        r->prov.pair_side = c->paired_side;
        for (i = 0, devs[0] = '\0'; i < nsel; i++)
            fmt_append(devs, sizeof devs, "%s%s", i ? "," : "", sel[i]->info.id);
    }
    if ((rc = results_save(r, c->out, path, &e)) < 0) {
        /* nothing measured yet: no empty run is left in the archive */
        err ignore;
        (void)fsx_unstage_in(c->out, dir, &ignore);
        goto fail;
    }
    outlock_give(&lk);
    if ((c->paired_side && (rc = ab_pace_hello(&pace, id, devs, &e)) < 0) ||
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
    fail(status, &e);
done:
    outlock_drop(&lk);
    results_free(r);
    free(idx);
    free(sel);
    device_set_free(&set);
    return status;
}

/* `ab`: the grid's options as given, then the passes and no refinement,
 * for both sides; the gate's status, or a failure's. */
static int cmd_ab(const cli *c)
{
    ab_opts o;
    site_settings st;
    outlock lk;
    int gate = 4, rc, changed;
    err e;
    if ((rc = settings_of(c, &st, &changed, &e)) < 0)
        return fail(status_of(rc), &e);
    ab_opts_from(&o, c);
    report_options(c, &st, &o.pages);
    /* OUT's lock for the comparison page and site.conf only: the sides
     * take it for their own writes */
    lock_of(c, &lk);
    o.lock = &lk;
    if ((rc = ab_run(&o, (compare_format)c->format, &gate, &e)) < 0)
        return fail(status_of(rc), &e);
    if (changed && ((rc = outlock_take(&lk, stop_flag(), &e)) < 0 ||
                    (rc = site_settings_save(c->out, &st, &e)) < 0)) {
        outlock_drop(&lk);
        return fail(status_of(rc), &e);
    }
    outlock_drop(&lk);
    return gate;
}

/* `run` (or `all`) --repeat N: N independent runs in a row, each its own
 * directory and id, the report (for `all`) after the last; the first
 * failure stops. */
static int cmd_repeat(const cli *c)
{
    int k, status = 0;
    for (k = 0; k < c->repeat && status == 0 && !stop_requested(); k++) {
        if (c->repeat > 1 && !c->quiet)
            fprintf(stderr, "run %d of %d\n", k + 1, c->repeat);
        status = cmd_run(c, c->cmd == CLI_ALL && k == c->repeat - 1);
    }
    return status;
}

int main(int argc, char **argv)
{
    cli c;
    err e;
    int rc = cli_parse(argc, argv, &c, &e);

    if (rc < 0)
        return fail(2, &e);
    /* every command that writes gets the one signal path (stop.h) before
     * it starts; the others keep the default (a signal ends them) */
    if (c.cmd != CLI_HELP && c.cmd != CLI_VERSION && c.cmd != CLI_DEVICES && c.cmd != CLI_WHICH)
        stop_catch();
    switch (c.cmd) {
    case CLI_HELP:
        if (c.help_cmd >= 0)
            cli_command_usage(stdout, (cli_command)c.help_cmd);
        else
            cli_usage(stdout);
        return 0;
    case CLI_VERSION:
        printf("breakeven %s (%s)\n", BE_VERSION, BE_COMMIT);
        return 0;
    case CLI_DEVICES:
        return cmd_devices(&c);
    case CLI_TUNE:
        return cmd_tune(&c);
    case CLI_RUN:
    case CLI_ALL:
        return cmd_repeat(&c);
    case CLI_REPORT: {
        outlock lk;
        lock_of(&c, &lk);
        return cmd_report(&c, &lk);
    }
    case CLI_COMPARE:
        return cmd_compare(&c);
    case CLI_REFIT:
        return cmd_refit(&c);
    case CLI_DECIDE:
        return cmd_decide(&c);
    case CLI_WHICH:
        return cmd_which(&c);
    case CLI_AB:
        return cmd_ab(&c);
    }
    return 1;
}
