/*
 * cmd_report.c — `report` (see cmd.h): the pages, the feed and the CSV
 * files of the runs, then the path of OUT/index.html.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdio.h>

#include "dash.h"
#include "stop.h"

/* `report`: the pages, the feed and the CSV files; the path of
 * OUT/index.html last (then, with --single-file, the file's).  All of it
 * under OUT's lock (lk, which `all`'s run may hold already), from reading
 * site.conf to saving it: the recovery of an abandoned publish
 * (site_recover) then never meets a live report's staged files.
 * --format without --out: the dashboard's document alone, read from the
 * runs given (or ./out's), nothing written, not even the lock (a CI step
 * asks for the JSON, not for a site in its working directory). */
int cmd_report(const cli *c, outlock *lk)
{
    report_opts o;
    site_settings st;
    char index[4200], share[4200] = "";
    err e;
    int rc, changed;
    if (c->format >= CLI_BMF && !c->out_given) {
        if ((rc = dash_write_archive(stdout, c->out, c->args, c->nargs,
                                     (dash_format)(c->format - CLI_BMF), c->summary, &e)) < 0)
            return cmd_fail(cmd_status(rc), &e);
        return 0;
    }
    if ((rc = outlock_take(lk, stop_flag(), &e)) < 0)
        return cmd_fail(cmd_status(rc), &e);
    if ((rc = cmd_settings(c, &st, &changed, &e)) == BE_OK) {
        cmd_report_options(c, &st, &o);
        o.single_file = c->single_file;
        o.share_path = share;
        o.share_size = sizeof share;
        if ((rc = report_write(&o, index, sizeof index, &e)) == BE_OK && changed)
            rc = site_settings_save(c->out, &st, &e);
        /* --format bmf: the dashboard's JSON of the runs reported */
        if (rc == BE_OK && c->format >= CLI_BMF)
            rc = dash_write_archive(stdout, c->out, c->args, c->nargs,
                                    (dash_format)(c->format - CLI_BMF), c->summary, &e);
    }
    outlock_give(lk);
    if (rc < 0)
        return cmd_fail(cmd_status(rc), &e);
    fflush(stdout);
    if (!st.base_url[0] && !c->quiet)
        fprintf(stderr, "note: no --base-url, so the feed's links are relative; give the URL "
                        "OUT/ is published at to make them absolute (it is kept for OUT)\n");
    if (c->format < CLI_BMF || !c->quiet) {
        FILE *to = c->format < CLI_BMF ? stdout : stderr;
        cmd_print_path(to, "%s\n", index);
        if (share[0])
            cmd_print_path(to, "%s\n", share);
    }
    return 0;
}
