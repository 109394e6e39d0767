/*
 * cli.h — the command line: subcommand and options, parsed and validated.
 *
 * Everything the user can get wrong on the command line is caught here,
 * with one message naming the option, before any device is touched.
 */
#ifndef BE_CLI_H
#define BE_CLI_H

#include <stdio.h>

#include "err.h"
#include "plan.h"
#include "price.h"

typedef enum {
    CLI_ALL,
    CLI_RUN,
    CLI_REPORT,
    CLI_COMPARE,
    CLI_REFIT,
    CLI_DEVICES,
    CLI_TUNE,
    CLI_DECIDE,
    CLI_WHICH,
    CLI_AB,
    CLI_HELP,
    CLI_VERSION
} cli_command;

/* --format: compare's text, markdown, json or csv; run's, report's and
 * compare's dashboards from CLI_BMF on (in dash.h's order) */
typedef enum { CLI_TEXT = 0, CLI_MARKDOWN, CLI_JSON, CLI_CSV, CLI_BMF, CLI_GAB } cli_format;

#define CLI_MAX_ENV 32
#define CLI_MAX_PASS 40

typedef struct cli {
    cli_command cmd;
    plan plan;
    char out[2048];        /* --out */
    char devices[512];     /* --devices */
    char base[32];         /* --base (run, all, ab, refit): what every device is
                              measured against; "" = each stack's CPU (query.h) */
    int threads;           /* OpenBLAS threads (run, all, devices, tune): --threads,
                               else $OPENBLAS_NUM_THREADS, else one per core */
    char threads_from[32]; /* "--threads", "OPENBLAS_NUM_THREADS" or "cores" */
    int quiet, quick;
    int save;                      /* --save: tune --quick keeps its tuning                 */
    int help_cmd;                  /* -h after a command: that command, else -1 (all of it) */
    int no_refine;                 /* --no-refine */
    fit_prices prices;             /* --price and --prices */
    char base_url[1024];           /* --base-url ("" = relative links) */
    char title[512];               /* --title */
    char author[256];              /* --author */
    char data_dir[2048];           /* --data: templates/ and assets/ ("" = search) */
    cli_format format;             /* --format (compare, run, report) */
    int fail_on_regression;        /* --fail-on-regression (compare): exit 3 */
    int full;                      /* --full (report): no render cache */
    int single_file;               /* --single-file (report): the one run as one file */
    int summary;                   /* --summary (run, report): the dashboard's summary */
    int out_given;                 /* --out was given (report --format without it
                                       writes the document alone) */
    int jobs;                      /* --jobs (report, all): 0 = one per CPU */
    int no_wait;                   /* --no-wait: exit 1 when another writes OUT */
    double threshold;              /* --threshold (compare): 0 = the default */
    double alpha;                  /* --alpha (compare): 0 = the default */
    int correct;                   /* --correct (compare): 0 the default, 1 none,
                                       2 reference, 3 load */
    int repeat;                    /* --repeat (run, all): runs in a row, ≥ 1 */
    int nside_a;                   /* compare: the runs of side A are args[0..nside_a) */
    char which_net[NET_SIZES_MAX]; /* which's --net: a name or sizes, as given */
    int which_batch;               /* which's --batch */
    int which_view;                /* which's --view, a fit_view (results.h): transfer
                                       by default */
    int nargs;                     /* the runs of `report` (any), `compare` (2), `refit` (1+),
                                       `decide` and `which` (1) */
    const char *const *args;       /* argv + 1: cli_parse moves them to its front, in order */
    char command_line[2048];
    /* ab: each side's --env-a/--env-b words (NAME=value, in argv) and
     * --binary-a/--binary-b ("" for this binary); and the options of the
     * sweep given, which both sides' runs get (CLI_MAX_PASS at most) */
    const char *ab_env[2][CLI_MAX_ENV];
    int ab_nenv[2];
    char ab_binary[2][2048];
    int npass;
    int pass_opt[CLI_MAX_PASS];         /* the option: cli_option_name */
    const char *pass_val[CLI_MAX_PASS]; /* its value, or NULL */
    /* run --paired SIDE,FD,PAIR (ab's children): the side ('A', 'B'; 0 when
     * not paired), the socket to ab and the pair's id */
    char paired_side;
    int paired_fd;
    char paired_id[128];
} cli;

/* "--hidden" and the like: the name of the option pass_opt[i] records. */
const char *cli_option_name(int opt);

/* Parses argv into c.  BE_EUSAGE with a message on any malformed input.
 * The command's arguments, as many as given, are moved to argv[1..nargs]
 * (as GNU getopt permutes argv), so that c->args needs no copy and no cap;
 * argv must outlive c. */
int cli_parse(int argc, char **argv, cli *c, err *e);
/* Decides c->threads and c->threads_from: --threads when given (c->threads
 * > 0), else env (the value of OPENBLAS_NUM_THREADS, or NULL), else cores.
 * BE_EUSAGE when env is set but not an integer in 1..1024.  cli_parse calls
 * it for the commands that measure. */
int cli_threads(cli *c, const char *env, int cores, err *e);
void cli_usage(FILE *out);
/* The usage of one command: what it does and only the options it takes. */
void cli_command_usage(FILE *out, cli_command cmd);

#endif
