/*
 * cmd.h — the commands, one entry point each, that main.c dispatches to,
 * and what they share.  Not for other modules: the commands sit on top of
 * everything else.
 *
 * Each cmd_NAME runs one command of the parsed command line and returns
 * the exit status (0 done, 1 a failure while running, 2 a command line
 * error; compare and ab also 3 and 4, their gate's), having printed any
 * error on stderr (cmd_fail); main.c alone exits.  cmd.c: messages,
 * statuses, OUT's lock, the site's settings; cmd_run.c: run and all;
 * cmd_report.c: report; cmd_compare.c: compare and ab; cmd_refit.c: refit;
 * cmd_decide.c: decide and which; cmd_tune.c: devices and tune;
 * cmd_answers.c: a run's answers in words, for run and refit.
 */
#ifndef BE_CMD_H
#define BE_CMD_H

#include <stdio.h>

#include "cli.h"
#include "device.h"
#include "err.h"
#include "outlock.h"
#include "report.h"
#include "results.h"
#include "site.h"

/* ---- the commands ---- */

int cmd_devices(const cli *c);
int cmd_tune(const cli *c);
/* `run` and `all`, --repeat times */
int cmd_run(const cli *c);
/* `report` under lk, OUT's lock (which `all`'s run may hold already) */
int cmd_report(const cli *c, outlock *lk);
int cmd_compare(const cli *c);
int cmd_ab(const cli *c);
int cmd_refit(const cli *c);
int cmd_decide(const cli *c);
int cmd_which(const cli *c);

/* ---- what they share (cmd.c) ---- */

/* msg after prefix on one printable line of stderr (after what stdout
 * holds): a control character or invalid UTF-8 in it is escaped. */
void cmd_print_line(const char *prefix, const char *msg);
/* A path through fmt (one %s) on f, escaped as cmd_print_line escapes. */
void cmd_print_path(FILE *f, const char *fmt, const char *path);
/* e's message on stderr ("see breakeven --help" after a usage error);
 * returns status. */
int cmd_fail(int status, const err *e);
/* The exit status of error code rc: 2 for BE_EUSAGE, else 1. */
int cmd_status(int rc);
/* Discovers the devices (device_discover) and starts the framework
 * devices spec names (docs/devices.md, device_add_frameworks), with their
 * adapters from the data directory's devices/ (an adapter not found is a
 * device that cannot start, which says so) and c's threads.  Free set with
 * device_set_free. */
int cmd_discover(const cli *c, const char *spec, device_set *set, err *e);
/* The lock of c's OUT, not held, whose waits print a note (outlock.h). */
void cmd_lock(const cli *c, outlock *l);
/* The site's settings of c's OUT with c's options over them; *changed
 * when one was given (saved once the pages are written). */
int cmd_settings(const cli *c, site_settings *st, int *changed, err *e);
/* The report's options from c and the settings st. */
void cmd_report_options(const cli *c, const site_settings *st, report_opts *o);

/* The answers of r in words on out, as `run` and `refit` print them
 * (cmd_answers.c). */
int cmd_answers(FILE *out, const results *r, err *e);

/* Each device of r's run-to-run band learned from the newest runs of OUT
 * that began before r (ids that sort before r's) on the same host with the
 * same software (compare.h's compare_provenance finds nothing that
 * differs: host, devices, drivers, libraries, breakeven, the grid, the
 * environment), as results_band.c says, for `run` and `refit`; a run that
 * cannot be loaded is no evidence and is passed over (the report names
 * it).  Says what was learned on stderr unless quiet.  BE_EFAIL when out
 * of memory. */
int cmd_learn_bands(const cli *c, results *r, err *e);

#endif
