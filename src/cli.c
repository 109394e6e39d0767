/*
 * cli.c — parsing of the command line (see cli.h): its tokens (long options,
 * unique abbreviations of them, --name=value, one-letter options that may
 * be grouped as in -qh, `--` before arguments that start with a dash), so
 * that every error names the token the user typed, and their meaning:
 * sizes, lists, ranges, and which commands take which options.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "host.h"
#include "utf8.h"

/* --title and --author end up in page titles and the feed: one line of
 * valid UTF-8, no control characters (BE_EUSAGE naming the option). */
static int check_text(const char *opt, const char *v, size_t size, err *e)
{
    char shown[160];
    if (strlen(v) >= size)
        return err_set(e, BE_EUSAGE, "%s: longer than %zu bytes", opt, size - 1);
    if (!utf8_clean(v) || strpbrk(v, "\t\r\n")) {
        utf8_escape(shown, sizeof shown, v);
        return err_set(e, BE_EUSAGE, "%s: \"%s\" holds control characters or invalid UTF-8", opt,
                       shown);
    }
    return BE_OK;
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

/* What the options gave, before it is checked as a whole. */
typedef struct given {
    const char *hidden, *batch, *mode;
    long layers, passes;
    int nnets, nnet_texts;
    net_spec nets[NET_MAX_NETS];
    const char *net_text[NET_MAX_NETS]; /* --net as given, parsed once the command is known */
    double budget;
    unsigned long long seed;
    int have_seed;
    const char *token[CLI_NOPTIONS]; /* the first token that gave each option */
} given;

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

/* The options whose value is a number: --threads, --budget, --seed,
 * --threshold, --alpha, --repeat, --jobs. */
static int apply_number(cli *c, given *g, int opt, const char *val, err *e)
{
    char *end;
    long v;
    int rc;
    switch (opt) {
    case OPT_THREADS:
    case OPT_REPEAT:
        if ((rc = opt == OPT_THREADS ? parse_long("--threads", val, 1, 1024, &v, e)
                                     : parse_long("--repeat", val, 1, 100, &v, e)) < 0)
            return rc;
        *(opt == OPT_THREADS ? &c->threads : &c->repeat) = (int)v;
        break;
    case OPT_JOBS:
        if ((rc = parse_long("--jobs", val, 1, 64, &v, e)) < 0)
            return rc;
        c->jobs = (int)v;
        break;
    case OPT_BUDGET:
        g->budget = strtod(val, &end);
        if (!*val || *end || !isfinite(g->budget) || g->budget <= 0.0 || g->budget > 1e6)
            return err_set(e, BE_EUSAGE,
                           "--budget: \"%s\" is not a number of seconds "
                           "between 0 and 1000000",
                           val);
        break;
    case OPT_SEED:
        errno = 0;
        if (!*val || val[0] == '-')
            return err_set(e, BE_EUSAGE, "--seed: \"%s\" is not a non-negative integer", val);
        g->seed = strtoull(val, &end, 10);
        if (*end || errno == ERANGE)
            return err_set(e, BE_EUSAGE, "--seed: \"%s\" is not a non-negative integer", val);
        g->have_seed = 1;
        break;
    default: { /* OPT_THRESHOLD, OPT_ALPHA */
        double x = strtod(val, &end);
        int thr = opt == OPT_THRESHOLD;
        if (!*val || *end || !isfinite(x) || (thr ? x <= 1.0 || x > 10.0 : x <= 0.0 || x >= 0.5))
            return err_set(e, BE_EUSAGE, "%s: \"%s\" is not %s", thr ? "--threshold" : "--alpha",
                           val,
                           thr ? "a ratio above 1 and at most 10 (1.05: 5% slower)"
                               : "a number between 0 and 0.5");
        if (thr)
            c->threshold = x;
        else
            c->alpha = x;
        break;
    }
    }
    return BE_OK;
}

/* --format's words, in cli_format's order */
#define FORMAT_WORDS "text, markdown, json, csv, bmf or github-action-benchmark"
static const char *const formats[] = {"text", "markdown", "json",
                                      "csv",  "bmf",      "github-action-benchmark"};

/* The options that choose one of a few words: --view, --format, --correct. */
static int apply_choice(cli *c, int opt, const char *val, err *e)
{
    if (opt == OPT_VIEW) {
        if (strcmp(val, "resident") != 0 && strcmp(val, "transfer") != 0 &&
            strcmp(val, "weights-on-host") != 0)
            return err_set(e, BE_EUSAGE,
                           "--view: \"%s\" is not transfer, resident or weights-on-host", val);
        c->which_view = strcmp(val, "transfer") == 0 ? 1 : strcmp(val, "resident") == 0 ? 0 : 2;
    } else if (opt == OPT_FORMAT) {
        int k = 0;
        while (strcmp(val, formats[k]) != 0)
            if (k++ == CLI_GAB)
                return err_set(e, BE_EUSAGE, "--format: \"%s\" is not %s", val, FORMAT_WORDS);
        c->format = (cli_format)k;
    } else { /* OPT_CORRECT */
        if (strcmp(val, "none") == 0)
            c->correct = 1;
        else if (strcmp(val, "reference") == 0)
            c->correct = 2;
        else if (strcmp(val, "load") == 0)
            c->correct = 3;
        else
            return err_set(e, BE_EUSAGE, "--correct: \"%s\" is not none, reference or load", val);
    }
    return BE_OK;
}

/* The options of prices and of the site: --price, --prices, --base-url,
 * --title, --author. */
static int apply_site(cli *c, int opt, const char *val, err *e)
{
    int rc;
    switch (opt) {
    case OPT_PRICE:
        if (price_parse(&c->prices, val, e) < 0)
            return err_prefix(e, BE_EUSAGE, "--price");
        break;
    case OPT_PRICES:
        if (price_load(&c->prices, val, e) < 0)
            return err_prefix(e, BE_EUSAGE, "--prices");
        break;
    case OPT_BASE_URL:
        if (!*val)
            return err_set(e, BE_EUSAGE, "--base-url: \"\" is not an http:// or https:// URL");
        if ((rc = site_check_base_url(val, e)) < 0)
            return rc;
        snprintf(c->base_url, sizeof c->base_url, "%s", val);
        break;
    case OPT_TITLE:
        if ((rc = check_text("--title", val, sizeof c->title, e)) < 0)
            return rc;
        snprintf(c->title, sizeof c->title, "%s", val);
        break;
    default: /* OPT_AUTHOR */
        if ((rc = check_text("--author", val, sizeof c->author, e)) < 0)
            return rc;
        snprintf(c->author, sizeof c->author, "%s", val);
        break;
    }
    return BE_OK;
}

/* ab's --env-a, --env-b (NAME=value), --binary-a, --binary-b. */
static int apply_ab(cli *c, int opt, const char *val, err *e)
{
    const int side = opt == OPT_ENV_B || opt == OPT_BINARY_B;
    const char *name = cli_option_name(opt);
    size_t n = strcspn(val, "=");
    if (opt == OPT_BINARY_A || opt == OPT_BINARY_B) {
        if (!*val || strlen(val) >= sizeof c->ab_binary[side])
            return err_set(e, BE_EUSAGE, "--%s: \"%s\" is not a path", name, val);
        snprintf(c->ab_binary[side], sizeof c->ab_binary[side], "%s", val);
        return BE_OK;
    }
    if (n == 0 || !val[n] ||
        strspn(val, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                    "0123456789_") != n ||
        (val[0] >= '0' && val[0] <= '9'))
        return err_set(e, BE_EUSAGE, "--%s: \"%.60s\" is not NAME=value", name, val);
    if (c->ab_nenv[side] == CLI_MAX_ENV)
        return err_set(e, BE_EUSAGE, "--%s: more than %d variables", name, CLI_MAX_ENV);
    c->ab_env[side][c->ab_nenv[side]++] = val;
    return BE_OK;
}

/* run --paired SIDE,FD,PAIR. */
static int apply_paired(cli *c, const char *val, err *e)
{
    char *end;
    long fd;
    if ((val[0] != 'A' && val[0] != 'B') || val[1] != ',')
        goto bad;
    errno = 0;
    fd = strtol(val + 2, &end, 10);
    if (end == val + 2 || *end != ',' || errno || fd < 3 || fd > 65535 || !end[1] ||
        strlen(end + 1) >= sizeof c->paired_id ||
        strspn(end + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") !=
            strlen(end + 1))
        goto bad;
    c->paired_side = val[0];
    c->paired_fd = (int)fd;
    snprintf(c->paired_id, sizeof c->paired_id, "%s", end + 1);
    c->no_refine = 1;
    return BE_OK;
bad:
    return err_set(e, BE_EUSAGE, "--paired: \"%.60s\" is not SIDE,FD,PAIR (ab starts its runs so)",
                   val);
}

/* The flag of c that option opt sets, or NULL for an option that does
 * more than set one. */
static int *flag_of(cli *c, int opt)
{
    static const int ids[] = {OPT_QUICK, OPT_QUIET,       OPT_NO_REFINE, OPT_FAIL_ON_REGRESSION,
                              OPT_FULL,  OPT_SINGLE_FILE, OPT_NO_WAIT,   OPT_SAVE};
    int *const flags[] = {&c->quick, &c->quiet,       &c->no_refine, &c->fail_on_regression,
                          &c->full,  &c->single_file, &c->no_wait,   &c->save};
    size_t i;
    for (i = 0; i < sizeof ids / sizeof *ids; i++)
        if (ids[i] == opt)
            return flags[i];
    return NULL;
}

/* Option k with its value (NULL when it takes none), from token tok. */
static int apply(cli *c, given *g, int k, const char *tok, const char *val, err *e)
{
    const int opt = cli_options[k].id;
    int *flag;
    if (!g->token[k])
        g->token[k] = tok;
    /* what `ab` hands its sides' runs: the grid's options, as given (not
     * --no-wait: each side waits for the other's brief writes of OUT) */
    if ((cli_options[k].cmds & CMD(CLI_AB)) && (cli_options[k].cmds & CMD(CLI_RUN)) &&
        opt != OPT_OUT && opt != OPT_NO_WAIT) {
        if (c->npass == CLI_MAX_PASS)
            return err_set(e, BE_EUSAGE, "too many options (at most %d of the grid)", CLI_MAX_PASS);
        c->pass_opt[c->npass] = opt;
        c->pass_val[c->npass++] = val;
    }
    if ((flag = flag_of(c, opt))) {
        *flag = 1;
        return BE_OK;
    }
    switch (opt) {
    case OPT_ENV_A:
    case OPT_ENV_B:
    case OPT_BINARY_A:
    case OPT_BINARY_B:
        return apply_ab(c, opt, val, e);
    case OPT_PAIRED:
        return apply_paired(c, val, e);
    case OPT_OUT:
    case OPT_DEVICES:
    case OPT_DATA:
        return text_option(c, opt, val, e);
    case OPT_HIDDEN:
        g->hidden = val;
        break;
    case OPT_BATCH:
        g->batch = val;
        break;
    case OPT_MODE:
        g->mode = val;
        break;
    case OPT_LAYERS:
        return parse_long("--layers", val, 1, PLAN_MAX_LAYERS, &g->layers, e);
    case OPT_NET:
        if (g->nnet_texts == NET_MAX_NETS)
            return err_set(e, BE_EUSAGE, "--net: more than %d networks in one run", NET_MAX_NETS);
        g->net_text[g->nnet_texts++] = val;
        break;
    case OPT_NET_FILE:
        return net_load_file(val, g->nets, &g->nnets, e);
    case OPT_PASSES:
        return parse_long("--passes", val, 1, PLAN_MAX_PASSES, &g->passes, e);
    case OPT_THREADS:
    case OPT_BUDGET:
    case OPT_SEED:
    case OPT_THRESHOLD:
    case OPT_ALPHA:
    case OPT_REPEAT:
    case OPT_JOBS:
        return apply_number(c, g, opt, val, e);
    case OPT_VIEW:
    case OPT_FORMAT:
    case OPT_CORRECT:
        return apply_choice(c, opt, val, e);
    case OPT_PRICE:
    case OPT_PRICES:
    case OPT_BASE_URL:
    case OPT_TITLE:
    case OPT_AUTHOR:
        return apply_site(c, opt, val, e);
    case OPT_HELP:
        c->help_cmd = c->cmd;
        c->cmd = CLI_HELP;
        break;
    case OPT_VERSION:
        c->cmd = CLI_VERSION;
        break;
    default:
        break;
    }
    return BE_OK;
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
    return apply(c, g, k, a, val, e);
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
            return apply(c, g, k, a, val, e);
        }
        if ((rc = apply(c, g, k, a, NULL, e)) < 0)
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
        return err_set(e, BE_EUSAGE, "--format %s: %s", formats[c->format],
                       c->cmd == CLI_AB      ? "ab writes text, markdown, json or csv"
                       : c->format < CLI_BMF ? "run and report write bmf or github-action-benchmark"
                                             : "one run per document: drop --repeat");
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
        if (parse_long("OPENBLAS_NUM_THREADS", env, 1, 1024, &v, e) < 0)
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
