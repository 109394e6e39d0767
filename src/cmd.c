/*
 * cmd.c — what the commands share (see cmd.h): their messages on stderr,
 * one printable line each, the exit status of an error code, OUT's lock,
 * the site's settings and the report's options of the commands that
 * write pages, and the run-to-run band that `run` and `refit` learn from
 * OUT's earlier runs.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "compare.h"
#include "fmt.h"
#include "site.h"
#include "stop.h"
#include "utf8.h"

/* A message on one printable line: input it quotes is escaped already
 * where it is read; what still holds a control character or invalid UTF-8
 * is escaped here. */
void cmd_print_line(const char *prefix, const char *msg)
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
void cmd_print_path(FILE *f, const char *fmt, const char *path)
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
    cmd_print_line("breakeven: warning: ", line);
}

/* The note of a command that waits for another writing OUT (outlock.h):
 * printed with --quiet too, so that a command that seems to hang says
 * why. */
static void print_note(void *ctx, const char *line)
{
    (void)ctx;
    cmd_print_line("breakeven: ", line);
}

/* The lock of c's OUT, not held (outlock.h). */
int cmd_discover(const cli *c, const char *spec, device_set *set, err *e)
{
    char data[SITE_PATH + 16];
    err ignore;
    int rc;
    if ((rc = device_discover(set, c->threads, e)) < 0)
        return rc;
    if (site_data_dir(c->data_dir, data, SITE_PATH, &ignore) < 0)
        data[0] = '\0';
    fmt_append(data, sizeof data, "%sdevices", data[0] ? "/" : "");
    if ((rc = device_add_frameworks(set, spec, data, c->threads, c->plan.seed, e)) < 0)
        device_set_free(set);
    return rc;
}

void cmd_lock(const cli *c, outlock *l)
{
    outlock_init(l, c->out, c->no_wait, print_note, NULL);
}

int cmd_fail(int status, const err *e)
{
    char msg[sizeof e->msg + 32];
    snprintf(msg, sizeof msg, "%s%s", e->msg, status == 2 ? " (see breakeven --help)" : "");
    cmd_print_line("breakeven: ", msg);
    return status;
}

int cmd_status(int rc)
{
    return rc == BE_EUSAGE ? 2 : 1;
}

/* The site's settings: those kept in OUT (site.h), each replaced by its
 * option when given; *changed when one was (they are saved once the pages
 * are written). */
int cmd_settings(const cli *c, site_settings *st, int *changed, err *e)
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

void cmd_report_options(const cli *c, const site_settings *st, report_opts *o)
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

/* The newest runs of the archive looked at for the run-to-run band: the
 * newest RESULTS_BAND_RUNS_MAX of them that qualify are used. */
#define BAND_LOOK 16

int cmd_learn_bands(const cli *c, results *r, err *e)
{
    char(*ids)[ARCHIVE_ID] = malloc(BAND_LOOK * sizeof *ids);
    archive_run u[RESULTS_BAND_RUNS_MAX];
    const results *runs[RESULTS_BAND_RUNS_MAX];
    compare_diff dd[1];
    int n = 0, k, nids, i, rc, learned = 0;
    if (!ids)
        return err_set(e, BE_EFAIL, "out of memory");
    nids = archive_newest(c->out, r->prov.id, ids, BAND_LOOK);
    for (k = 0; k < nids && n < RESULTS_BAND_RUNS_MAX; k++) {
        err ignore;
        memset(&u[n], 0, sizeof u[n]);
        if (archive_load_archived(c->out, ids[k], NULL, &u[n], &ignore) < 0)
            continue;
        if (!u[n].r->partial && compare_provenance(r, u[n].r, dd, 1) == 0) {
            runs[n] = u[n].r;
            n++;
        } else
            archive_run_free(&u[n]);
    }
    rc = results_learn_bands(r, runs, n, e);
    for (k = 0; k < n; k++)
        archive_run_free(&u[k]);
    free(ids);
    for (i = 0; i < r->ndevices; i++)
        learned |= r->devices[i].run_sd_runs > 0 && r->devices[i].run_sd[FIT_RESIDENT] >= 0.0;
    if (rc < 0 || c->quiet || !learned)
        return rc;
    fprintf(stderr,
            "note: how far one run lies from another, learned from %d earlier runs of "
            "this host and software:",
            n);
    for (i = 0, k = 0; i < r->ndevices; i++)
        if (r->devices[i].run_sd_runs > 0 && r->devices[i].run_sd[FIT_RESIDENT] >= 0.0)
            fprintf(stderr, "%s %s %.1f%%", k++ ? "," : "", r->devices[i].id,
                    100.0 * r->devices[i].run_sd[FIT_RESIDENT]);
    fprintf(stderr, "\n");
    return BE_OK;
}
