/*
 * cli.c — parsing of the command line (see cli.h).  getopt_long does the
 * tokenizing; this file does the meaning: sizes, lists, ranges.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "host.h"
#include "utf8.h"

enum {
    OPT_OUT = 256, OPT_HIDDEN, OPT_BATCH, OPT_LAYERS, OPT_MODE, OPT_DEVICES, OPT_THREADS,
    OPT_QUICK, OPT_BUDGET, OPT_SEED, OPT_QUIET, OPT_HELP, OPT_VERSION, OPT_PRICE, OPT_PRICES,
    OPT_NO_REFINE, OPT_BASE_URL, OPT_TITLE, OPT_AUTHOR, OPT_DATA, OPT_PASSES
};

/* --title and --author end up in page titles and the feed: one line of
 * valid UTF-8, no control characters (BE_EUSAGE naming the option). */
static int check_text(const char *opt, const char *v, size_t size, err *e)
{
    char shown[160];
    if (strlen(v) >= size)
        return err_set(e, BE_EUSAGE, "%s: longer than %zu bytes", opt, size - 1);
    if (!utf8_clean(v) || strpbrk(v, "\t\r\n")) {
        utf8_escape(shown, sizeof shown, v);
        return err_set(e, BE_EUSAGE, "%s: \"%s\" holds control characters or invalid UTF-8",
                       opt, shown);
    }
    return BE_OK;
}

static const struct option options[] = {
    {"out", required_argument, NULL, OPT_OUT},
    {"hidden", required_argument, NULL, OPT_HIDDEN},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"layers", required_argument, NULL, OPT_LAYERS},
    {"mode", required_argument, NULL, OPT_MODE},
    {"devices", required_argument, NULL, OPT_DEVICES},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"budget", required_argument, NULL, OPT_BUDGET},
    {"passes", required_argument, NULL, OPT_PASSES},
    {"seed", required_argument, NULL, OPT_SEED},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"price", required_argument, NULL, OPT_PRICE},
    {"prices", required_argument, NULL, OPT_PRICES},
    {"no-refine", no_argument, NULL, OPT_NO_REFINE},
    {"base-url", required_argument, NULL, OPT_BASE_URL},
    {"title", required_argument, NULL, OPT_TITLE},
    {"author", required_argument, NULL, OPT_AUTHOR},
    {"data", required_argument, NULL, OPT_DATA},
    {NULL, 0, NULL, 0},
};

void cli_usage(FILE *out)
{
    fputs("usage: breakeven [COMMAND] [OPTIONS]\n"
          "\n"
          "Measures a stack of dense layers on the CPU (OpenBLAS) and on OpenCL devices\n"
          "and tells from what size on the GPU is worth it.\n"
          "\n"
          "commands:\n"
          "  all        run the sweep, then write the report (the default)\n"
          "  run        run the sweep and archive it as OUT/runs/<id>/results.xml\n"
          "  report [RUN...]  write OUT/index.html, the run pages, OUT/feed.xml and the\n"
          "             CSV files from the runs given (ids or paths; default: every run)\n"
          "  compare A B  what changed between two runs (ids or paths): a table, and\n"
          "             OUT/compare/A..B.html\n"
          "  devices    list the devices that can be measured\n"
          "  tune       try kernel configurations on the OpenCL devices (--devices,\n"
          "             --budget, --quick) and keep the fastest for later runs\n"
          "\n"
          "options:\n"
          "  --out DIR          where runs and reports go (default: out)\n"
          "  --hidden LIST      hidden widths (default: 128..2048)\n"
          "  --batch LIST       batch sizes (default: 16..1024)\n"
          "  --layers N         dense layers in the stack (default: 4)\n"
          "  --mode M           inference, training or both (default: inference)\n"
          "  --devices LIST     device ids, or all (default: all)\n"
          "  --threads N        OpenBLAS threads (default: $OPENBLAS_NUM_THREADS, else\n"
          "                     one per core)\n"
          "  --quick            a tiny sweep that takes a few seconds\n"
          "  --budget SECONDS   time the sweep may take; precision follows (default: 120)\n"
          "  --passes N         measure every point in N passes, 1..20 (default: 3)\n"
          "  --seed N           seed of the input data (default: 1)\n"
          "  --price DEV=USD    price of a device per hour, for the cost crossover\n"
          "                     (repeatable; e.g. --price cpu=0.24 --price cl:0.0=1.51)\n"
          "  --prices FILE      prices from a file: \"DEVICE USD_PER_HOUR\" per line, # comments\n"
          "  --no-refine        do not measure extra batch sizes around the crossover\n"
          "  --base-url URL     where OUT/ is published: makes the feed's links absolute\n"
          "  --title TEXT       title of the report and the feed\n"
          "  --author NAME      author shown on the report\n"
          "  --data DIR         templates/ and assets/ to use (default: $BREAKEVEN_DATA,\n"
          "                     else next to the executable, else the installed ones)\n"
          "  --quiet            no progress output\n"
          "  --help, --version\n"
          "\n"
          "LIST is comma-separated sizes and ranges: 128,384 or 16..1024 (powers of two).\n",
          out);
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out, err *e)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (!*s || *end || errno == ERANGE)
        return err_set(e, BE_EUSAGE, "%s: \"%s\" is not an integer", opt, s);
    if (v < lo || v > hi)
        return err_set(e, BE_EUSAGE, "%s: %ld is out of range (%ld..%ld)", opt, v, lo, hi);
    *out = v;
    return BE_OK;
}

/* --out, --devices and --data: a non-empty value that fits (--out with
 * room for the paths below it); else BE_EUSAGE naming the option. */
static int text_option(cli *c, int opt, const char *arg, err *e)
{
    char *dst = c->data_dir;
    size_t size = sizeof c->data_dir, room = 0;
    const char *name = "--data", *what = "a usable directory name";
    if (opt == OPT_OUT) {
        dst = c->out;
        size = sizeof c->out;
        room = 64;
        name = "--out";
    } else if (opt == OPT_DEVICES) {
        dst = c->devices;
        size = sizeof c->devices;
        name = "--devices";
        what = "a device list";
    }
    if (!*arg || strlen(arg) + room >= size)
        return err_set(e, BE_EUSAGE, "%s: \"%s\" is not %s", name, arg, what);
    snprintf(dst, size, "%s", arg);
    return BE_OK;
}

static void join_args(int argc, char **argv, char *buf, size_t size)
{
    size_t used = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < argc && used + 1 < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? " " : "", argv[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int cli_parse(int argc, char **argv, cli *c, err *e)
{
    const char *hidden = NULL, *batch = NULL, *mode = NULL;
    long layers = 0, passes = 0, v;
    double budget = 0.0;
    unsigned long long seed = 0;
    int have_seed = 0, opt, rc, first = 1;

    memset(c, 0, sizeof *c);
    c->cmd = CLI_ALL;
    snprintf(c->out, sizeof c->out, "out");
    snprintf(c->devices, sizeof c->devices, "all");
    join_args(argc, argv, c->command_line, sizeof c->command_line);

    if (argc > 1 && argv[1][0] != '-') {
        if (strcmp(argv[1], "all") == 0)
            c->cmd = CLI_ALL;
        else if (strcmp(argv[1], "run") == 0)
            c->cmd = CLI_RUN;
        else if (strcmp(argv[1], "report") == 0)
            c->cmd = CLI_REPORT;
        else if (strcmp(argv[1], "compare") == 0)
            c->cmd = CLI_COMPARE;
        else if (strcmp(argv[1], "devices") == 0)
            c->cmd = CLI_DEVICES;
        else if (strcmp(argv[1], "tune") == 0)
            c->cmd = CLI_TUNE;
        else
            return err_set(e, BE_EUSAGE, "unknown command \"%s\"", argv[1]);
        first = 2;
    }
    optind = first;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case OPT_OUT:
        case OPT_DEVICES:
        case OPT_DATA:
            if ((rc = text_option(c, opt, optarg, e)) < 0)
                return rc;
            break;
        case OPT_HIDDEN: hidden = optarg; break;
        case OPT_BATCH: batch = optarg; break;
        case OPT_MODE: mode = optarg; break;
        case OPT_LAYERS:
            if ((rc = parse_long("--layers", optarg, 1, PLAN_MAX_LAYERS, &layers, e)) < 0)
                return rc;
            break;
        case OPT_THREADS:
            if ((rc = parse_long("--threads", optarg, 1, 1024, &v, e)) < 0)
                return rc;
            c->threads = (int)v;
            break;
        case OPT_QUICK: c->quick = 1; break;
        case OPT_PASSES:
            if ((rc = parse_long("--passes", optarg, 1, PLAN_MAX_PASSES, &passes, e)) < 0)
                return rc;
            break;
        case OPT_BUDGET: {
            char *end;
            budget = strtod(optarg, &end);
            if (!*optarg || *end || !isfinite(budget) || budget <= 0.0 || budget > 1e6)
                return err_set(e, BE_EUSAGE, "--budget: \"%s\" is not a number of seconds "
                               "between 0 and 1000000", optarg);
            break;
        }
        case OPT_SEED: {
            char *end;
            errno = 0;
            if (!*optarg || optarg[0] == '-')
                return err_set(e, BE_EUSAGE, "--seed: \"%s\" is not a non-negative integer", optarg);
            seed = strtoull(optarg, &end, 10);
            if (*end || errno == ERANGE)
                return err_set(e, BE_EUSAGE, "--seed: \"%s\" is not a non-negative integer", optarg);
            have_seed = 1;
            break;
        }
        case OPT_QUIET: c->quiet = 1; break;
        case OPT_NO_REFINE: c->no_refine = 1; break;
        case OPT_PRICE:
            if ((rc = price_parse(&c->prices, optarg, e)) < 0)
                return err_prefix(e, BE_EUSAGE, "--price");
            break;
        case OPT_PRICES:
            if ((rc = price_load(&c->prices, optarg, e)) < 0)
                return err_prefix(e, BE_EUSAGE, "--prices");
            break;
        case OPT_BASE_URL:
            if (!*optarg)
                return err_set(e, BE_EUSAGE, "--base-url: \"\" is not an http:// or https:// "
                               "URL");
            if ((rc = site_check_base_url(optarg, e)) < 0)
                return rc;
            snprintf(c->base_url, sizeof c->base_url, "%s", optarg);
            break;
        case OPT_TITLE:
            if ((rc = check_text("--title", optarg, sizeof c->title, e)) < 0)
                return rc;
            snprintf(c->title, sizeof c->title, "%s", optarg);
            break;
        case OPT_AUTHOR:
            if ((rc = check_text("--author", optarg, sizeof c->author, e)) < 0)
                return rc;
            snprintf(c->author, sizeof c->author, "%s", optarg);
            break;
        case OPT_HELP: c->cmd = CLI_HELP; return BE_OK;
        case OPT_VERSION: c->cmd = CLI_VERSION; return BE_OK;
        case ':':
            return err_set(e, BE_EUSAGE, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt >= OPT_OUT)
                return err_set(e, BE_EUSAGE, "%s needs a value", argv[optind - 1]);
            return err_set(e, BE_EUSAGE, "unknown option \"%s\"", argv[optind - 1]);
        }
    }
    if (c->cmd == CLI_REPORT || c->cmd == CLI_COMPARE) {
        for (; optind < argc; optind++) {
            if (c->nargs == CLI_MAX_ARGS)
                return err_set(e, BE_EUSAGE, "more than %d runs", CLI_MAX_ARGS);
            c->args[c->nargs++] = argv[optind];
        }
        if (c->cmd == CLI_COMPARE && c->nargs != 2)
            return err_set(e, BE_EUSAGE, "compare needs two runs (ids or paths), got %d",
                           c->nargs);
    }
    if (optind < argc)
        return err_set(e, BE_EUSAGE, "unexpected argument \"%s\"", argv[optind]);

    plan_default(&c->plan);
    if (c->quick)
        plan_quick(&c->plan);
    if (hidden && (rc = list_parse(hidden, "--hidden", PLAN_MAX_HIDDEN, &c->plan.hidden, e)) < 0)
        return rc;
    if (batch && (rc = list_parse(batch, "--batch", PLAN_MAX_BATCH, &c->plan.batch, e)) < 0)
        return rc;
    if (layers)
        c->plan.layers = (int)layers;
    if (budget > 0.0)
        c->plan.budget = budget;
    if (passes)
        c->plan.passes = (int)passes;
    if (have_seed)
        c->plan.seed = seed;
    if (mode) {
        if (strcmp(mode, "inference") == 0)
            c->plan.modes = 1 << WL_INFERENCE;
        else if (strcmp(mode, "training") == 0)
            c->plan.modes = 1 << WL_TRAINING;
        else if (strcmp(mode, "both") == 0)
            c->plan.modes = (1 << WL_INFERENCE) | (1 << WL_TRAINING);
        else
            return err_set(e, BE_EUSAGE, "--mode: \"%s\" is not inference, training or both", mode);
    }
    if (c->cmd == CLI_RUN || c->cmd == CLI_ALL || c->cmd == CLI_DEVICES || c->cmd == CLI_TUNE)
        return cli_threads(c, getenv("OPENBLAS_NUM_THREADS"), host_cores(), e);
    return BE_OK;
}

int cli_threads(cli *c, const char *env, int cores, err *e)
{
    long v;
    if (c->threads > 0) {
        snprintf(c->threads_from, sizeof c->threads_from, "--threads");
        return BE_OK;
    }
    if (env && *env) {
        /* OpenBLAS would read it too; an explicit choice is kept, and a
         * malformed one is refused rather than silently replaced */
        if (parse_long("OPENBLAS_NUM_THREADS", env, 1, 1024, &v, e) < 0)
            return err_set(e, BE_EUSAGE, "OPENBLAS_NUM_THREADS=\"%s\" is not a thread count "
                           "(1..1024); unset it or give --threads N", env);
        c->threads = (int)v;
        snprintf(c->threads_from, sizeof c->threads_from, "OPENBLAS_NUM_THREADS");
        return BE_OK;
    }
    c->threads = cores > 0 ? cores : 1;
    snprintf(c->threads_from, sizeof c->threads_from, "cores");
    return BE_OK;
}
