/*
 * cli.c — parsing of the command line (see cli.h): its tokens (long options,
 * unique abbreviations of them, --name=value, one-letter options that may
 * be grouped as in -qh, `--` before arguments that start with a dash), so
 * that every error names the token the user typed, and their meaning as a
 * whole: which commands take which options, the plan, compare's sides,
 * which's arguments.  What each option's value means is cli_values.c's;
 * the options and the help, cli_help.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_impl.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

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

/* tok for a message: at most 60 bytes, control characters as '?'. */
static const char *shown(const char *tok, char *buf, size_t size)
{
    size_t i;
    for (i = 0; tok[i] && i + 1 < size && i < 60; i++)
        buf[i] = (unsigned char)tok[i] < 0x20 || tok[i] == 0x7f ? '?' : tok[i];
    buf[i] = '\0';
    return buf;
}

/* The option that "--name" (len bytes of it) names: exactly, or as the
 * one option it abbreviates.  BE_EUSAGE naming tok otherwise. */
static int find_long(const char *tok, const char *name, size_t len, int *idx, err *e)
{
    char cands[256] = "", q[64];
    int i, n = 0;
    for (i = 0; i < CLI_NOPTIONS; i++) {
        if (strncmp(cli_options[i].name, name, len) != 0)
            continue;
        if (strlen(cli_options[i].name) == len) {
            *idx = i;
            return BE_OK;
        }
        *idx = i;
        n++;
        snprintf(cands + strlen(cands), sizeof cands - strlen(cands), "%s--%s", n > 1 ? ", " : "",
                 cli_options[i].name);
    }
    if (n == 1 && len > 0)
        return BE_OK;
    if (n > 1 && len > 0)
        return err_set(e, BE_EUSAGE, "option \"%s\" is ambiguous: %s", shown(tok, q, sizeof q),
                       cands);
    return err_set(e, BE_EUSAGE, "unknown option \"%s\"", shown(tok, q, sizeof q));
}

static int find_short(char ch)
{
    int i;
    for (i = 0; i < CLI_NOPTIONS; i++)
        if (cli_options[i].shrt && cli_options[i].shrt == ch)
            return i;
    return NO_OPTION;
}

/* A word that is not an option: the command when none is chosen yet, else
 * an argument of the commands that take some. */
static int positional(cli *c, char **argv, int *have_cmd, char *a, err *e)
{
    char q[64];
    int k;
    if (!*have_cmd) {
        for (k = 0; k < CLI_NCOMMANDS && strcmp(a, cli_command_names[k]) != 0; k++)
            ;
        if (k == CLI_NCOMMANDS)
            return err_set(e, BE_EUSAGE,
                           "unknown command \"%s\" (commands: all, run, report, "
                           "compare, refit, devices, tune, decide, which, ab)",
                           shown(a, q, sizeof q));
        c->cmd = (cli_command)k;
        *have_cmd = 1;
        return BE_OK;
    }
    if (c->cmd != CLI_REPORT && c->cmd != CLI_COMPARE && c->cmd != CLI_REFIT &&
        c->cmd != CLI_DECIDE && c->cmd != CLI_WHICH)
        return err_set(e, BE_EUSAGE, "unexpected argument \"%s\" (%s takes none)",
                       shown(a, q, sizeof q), cli_command_names[c->cmd]);
    /* argv[1 + nargs] was read already: the command word, an option or an
     * earlier argument stand before this one */
    argv[1 + c->nargs++] = a;
    return BE_OK;
}

/* Every option given applies to the command, or BE_EUSAGE naming it and
 * the commands that take it. */
static int check_applies(const cli *c, const given *g, err *e)
{
    char q[64], which[128];
    int k, i;
    for (k = 0; k < CLI_NOPTIONS; k++) {
        if (!g->token[k] || (cli_options[k].cmds & CMD(c->cmd)))
            continue;
        which[0] = '\0';
        for (i = 0; i < CLI_NCOMMANDS; i++)
            if (cli_options[k].cmds & CMD(i))
                snprintf(which + strlen(which), sizeof which - strlen(which), "%s%s",
                         which[0] ? ", " : "", cli_command_names[i]);
        return err_set(e, BE_EUSAGE, "\"%s\" does not apply to %s (only to %s)",
                       shown(g->token[k], q, sizeof q), cli_command_names[c->cmd], which);
    }
    return BE_OK;
}

/* compare's runs: A B, or A1 A2 ... -- B1 B2 ... (c->nside_a set by
 * "--"). */
static int compare_sides(cli *c, err *e)
{
    if (c->nside_a == 0 && c->nargs == 2)
        c->nside_a = 1;
    if (c->nside_a == 0 && c->nargs != 2)
        return err_set(e, BE_EUSAGE,
                       "compare needs two runs (A B), or replicates as A1 A2 -- B1 B2 (ids or "
                       "paths); got %d run%s%s",
                       c->nargs, c->nargs == 1 ? "" : "s",
                       c->nargs > 2 ? " and no \"--\" between the sides" : "");
    if (c->nside_a < 1 || c->nargs - c->nside_a < 1)
        return err_set(e, BE_EUSAGE, "compare: side %s has no run (A1 A2 -- B1 B2)",
                       c->nside_a < 1 ? "A" : "B");
    if (c->nside_a > 32 || c->nargs - c->nside_a > 32)
        return err_set(e, BE_EUSAGE, "compare: at most 32 runs per side");
    return BE_OK;
}

/* The networks given become the plan's, each name once; the square
 * stack's options then have nothing to say. */
static int take_nets(cli *c, given *g, err *e)
{
    int i, j, rc;
    for (i = 0; i < g->nnet_texts; i++) {
        if (g->nnets == NET_MAX_NETS)
            return err_set(e, BE_EUSAGE, "--net: more than %d networks in one run", NET_MAX_NETS);
        if ((rc = net_parse(g->net_text[i], "--net", &g->nets[g->nnets], e)) < 0)
            return rc;
        g->nnets++;
    }
    if (g->nnets == 0)
        return BE_OK;
    if (g->hidden || g->layers)
        return err_set(e, BE_EUSAGE,
                       "%s: does not apply with --net or --net-file (a network gives its own "
                       "sizes and layers)",
                       g->hidden ? "--hidden" : "--layers");
    for (i = 0; i < g->nnets; i++)
        for (j = 0; j < i; j++)
            if (strcmp(g->nets[i].name, g->nets[j].name) == 0)
                return err_set(e, BE_EUSAGE, "--net: the network \"%s\" is given twice",
                               g->nets[i].name);
    c->plan.nnets = g->nnets;
    memcpy(c->plan.nets, g->nets, (size_t)g->nnets * sizeof *g->nets);
    return BE_OK;
}

/* decide: one run; which: one run, one --net, one --batch, a --mode of
 * one mode. */
static int which_args(cli *c, const given *g, err *e)
{
    size_list b;
    int rc;
    if (c->nargs != 1)
        return err_set(e, BE_EUSAGE,
                       "%s needs one run (an id under --out, a directory or a "
                       "results file), got %d",
                       cli_command_names[c->cmd], c->nargs);
    if (c->cmd == CLI_DECIDE)
        return BE_OK;
    if (g->nnet_texts != 1 || !g->batch)
        return err_set(e, BE_EUSAGE, "which needs one --net (a name or sizes) and one --batch");
    if (strlen(g->net_text[0]) >= sizeof c->which_net || !g->net_text[0][0])
        return err_set(e, BE_EUSAGE, "--net: not a network name or sizes");
    snprintf(c->which_net, sizeof c->which_net, "%s", g->net_text[0]);
    if ((rc = list_parse(g->batch, "--batch", PLAN_MAX_BATCH, &b, e)) < 0)
        return rc;
    if (b.n != 1)
        return err_set(e, BE_EUSAGE, "--batch: which takes one batch size, not \"%s\"", g->batch);
    c->which_batch = b.v[0];
    if (g->mode && strcmp(g->mode, "both") == 0)
        return err_set(e, BE_EUSAGE, "--mode: which answers for inference or training, not both");
    return BE_OK;
}

/* A long option at argv[*i] ("--name", "--name=value" or "--name
 * value", then *i moves past the value). */
static int long_option(cli *c, given *g, int argc, char **argv, int *i, err *e)
{
    const char *a = argv[*i], *val = NULL, *eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
    char q[64];
    int k = 0, rc;
    if ((rc = find_long(a, a + 2, len, &k, e)) < 0)
        return rc;
    if (!cli_options[k].value && eq)
        return err_set(e, BE_EUSAGE, "--%s takes no value (in \"%s\")", cli_options[k].name,
                       shown(a, q, sizeof q));
    if (cli_options[k].value && !(val = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL))
        return err_set(e, BE_EUSAGE, "--%s needs a value", cli_options[k].name);
    return cli_apply(c, g, k, a, val, e);
}

/* Short options at argv[*i], bundled ("-qh") or one taking a value
 * ("-o DIR", "-oDIR"). */
static int short_options(cli *c, given *g, int argc, char **argv, int *i, err *e)
{
    const char *a = argv[*i], *p, *val;
    char q[64], q2[64];
    int k, rc;
    for (p = a + 1; *p; p++) {
        char one[3] = {'-', *p, '\0'};
        if ((k = find_short(*p)) < 0)
            return err_set(e, BE_EUSAGE,
                           a[2] ? "unknown option \"%s\" (in \"%s\")" : "unknown option \"%s\"",
                           shown(one, q, sizeof q), shown(a, q2, sizeof q2));
        if (cli_options[k].value) {
            if (!(val = p[1] ? p + 1 : *i + 1 < argc ? argv[++*i] : NULL))
                return err_set(e, BE_EUSAGE, "-%c (--%s) needs a value", *p, cli_options[k].name);
            return cli_apply(c, g, k, a, val, e);
        }
        if ((rc = cli_apply(c, g, k, a, NULL, e)) < 0)
            return rc;
    }
    return BE_OK;
}

/* The plan from the defaults (--quick's when given) and what was given. */
static int make_plan(cli *c, given *g, err *e)
{
    int rc;
    plan_default(&c->plan);
    if (c->quick)
        plan_quick(&c->plan);
    if (c->cmd != CLI_DECIDE && c->cmd != CLI_WHICH && (rc = take_nets(c, g, e)) < 0)
        return rc;
    if (g->hidden &&
        (rc = list_parse(g->hidden, "--hidden", PLAN_MAX_HIDDEN, &c->plan.hidden, e)) < 0)
        return rc;
    if (g->batch && (rc = list_parse(g->batch, "--batch", PLAN_MAX_BATCH, &c->plan.batch, e)) < 0)
        return rc;
    if (g->layers)
        c->plan.layers = (int)g->layers;
    if (g->budget > 0.0)
        c->plan.budget = g->budget;
    if (g->passes)
        c->plan.passes = (int)g->passes;
    if (g->have_seed)
        c->plan.seed = g->seed;
    if (!g->mode)
        return BE_OK;
    if (strcmp(g->mode, "inference") == 0)
        c->plan.modes = 1 << WL_INFERENCE;
    else if (strcmp(g->mode, "training") == 0)
        c->plan.modes = 1 << WL_TRAINING;
    else if (strcmp(g->mode, "both") == 0)
        c->plan.modes = (1 << WL_INFERENCE) | (1 << WL_TRAINING);
    else
        return err_set(e, BE_EUSAGE, "--mode: \"%s\" is not inference, training or both", g->mode);
    return BE_OK;
}

int cli_parse(int argc, char **argv, cli *c, err *e)
{
    given g;
    int i, rc, have_cmd = 0, args_only = 0;

    memset(c, 0, sizeof *c);
    memset(&g, 0, sizeof g);
    c->cmd = CLI_ALL;
    c->help_cmd = -1;
    snprintf(c->out, sizeof c->out, "out");
    snprintf(c->devices, sizeof c->devices, "all");
    c->which_view = 1;
    join_args(argc, argv, c->command_line, sizeof c->command_line);
    c->args = (const char *const *)argv + 1;

    for (i = 1; i < argc; i++) {
        char *a = argv[i];
        if (args_only || a[0] != '-' || !a[1]) {
            if ((rc = positional(c, argv, &have_cmd, a, e)) < 0)
                return rc;
            continue;
        }
        if (strcmp(a, "--") == 0 && have_cmd && c->cmd == CLI_COMPARE) {
            /* compare's sides: the runs before it are A's; options may
             * follow */
            if (c->nside_a)
                return err_set(e, BE_EUSAGE, "compare: \"--\" given twice (A1 A2 -- B1 B2)");
            c->nside_a = c->nargs;
            if (c->nside_a == 0)
                return err_set(e, BE_EUSAGE, "compare: side A has no run (A1 A2 -- B1 B2)");
            continue;
        }
        if (strcmp(a, "--") == 0) {
            args_only = 1;
            continue;
        }
        if ((rc = a[1] == '-' ? long_option(c, &g, argc, argv, &i, e)
                              : short_options(c, &g, argc, argv, &i, e)) < 0)
            return rc;
        if (c->cmd == CLI_HELP || c->cmd == CLI_VERSION) {
            if (!have_cmd)
                c->help_cmd = -1; /* -h before any command: all of it */
            return BE_OK;
        }
    }
    if ((rc = check_applies(c, &g, e)) < 0)
        return rc;
    if (c->cmd == CLI_COMPARE && (rc = compare_sides(c, e)) < 0)
        return rc;
    if (c->repeat == 0)
        c->repeat = 1;
    /* run and report write a dashboard's one document; ab, compare's text */
    if (c->cmd == CLI_AB
            ? c->format >= CLI_BMF
            : c->cmd != CLI_COMPARE && c->format && (c->format < CLI_BMF || c->repeat > 1))
        return err_set(e, BE_EUSAGE, "--format %s: %s", cli_formats[c->format],
                       c->cmd == CLI_AB      ? "ab writes text, markdown, json or csv"
                       : c->format < CLI_BMF ? "run and report write bmf or github-action-benchmark"
                                             : "one run per document: drop --repeat");
    if (c->summary && c->format < CLI_BMF)
        return err_set(e, BE_EUSAGE,
                       "--summary: a form of --format bmf or github-action-benchmark");
    if (c->cmd == CLI_REFIT && c->nargs == 0)
        return err_set(e, BE_EUSAGE,
                       "refit needs a run (an id under --out, a directory or a "
                       "results file)");
    if ((rc = make_plan(c, &g, e)) < 0)
        return rc;
    /* a pair's verdict rests on its pairs of passes: 8 by default */
    if (c->cmd == CLI_AB && !g.passes)
        c->plan.passes = 8;
    if (c->cmd == CLI_AB && c->plan.passes < 2)
        return err_set(e, BE_EUSAGE, "--passes: ab needs at least 2 (pairs of passes)");
    if (c->cmd == CLI_DECIDE || c->cmd == CLI_WHICH)
        return which_args(c, &g, e);
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
        if (cli_parse_long("OPENBLAS_NUM_THREADS", env, 1, 1024, &v, e) < 0)
            return err_set(e, BE_EUSAGE,
                           "OPENBLAS_NUM_THREADS=\"%s\" is not a thread count "
                           "(1..1024); unset it or give --threads N",
                           env);
        c->threads = (int)v;
        snprintf(c->threads_from, sizeof c->threads_from, "OPENBLAS_NUM_THREADS");
        return BE_OK;
    }
    c->threads = cores > 0 ? cores : 1;
    snprintf(c->threads_from, sizeof c->threads_from, "cores");
    return BE_OK;
}
