/*
 * cli_values.c — what each option's value means (see cli.h): one option
 * of the command line applied to the cli being parsed, its value checked
 * (numbers in range, words among their choices, prices, the site's texts,
 * ab's sides), each error naming the option.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_impl.h"
#include "site.h"
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

int cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out, err *e)
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

/* --out, --devices, --base and --data: a non-empty value that fits (--out
 * with room for the paths below it); else BE_EUSAGE naming the option. */
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
    } else if (opt == OPT_BASE) {
        dst = c->base;
        size = sizeof c->base;
        name = "--base";
        what = "a device id (breakeven devices lists them)";
    }
    if (!*arg || strlen(arg) + room >= size)
        return err_set(e, BE_EUSAGE, "%s: \"%s\" is not %s", name, arg, what);
    snprintf(dst, size, "%s", arg);
    return BE_OK;
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
        if ((rc = opt == OPT_THREADS ? cli_parse_long("--threads", val, 1, 1024, &v, e)
                                     : cli_parse_long("--repeat", val, 1, 100, &v, e)) < 0)
            return rc;
        *(opt == OPT_THREADS ? &c->threads : &c->repeat) = (int)v;
        break;
    case OPT_JOBS:
        if ((rc = cli_parse_long("--jobs", val, 1, 64, &v, e)) < 0)
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
const char *const cli_formats[] = {"text", "markdown", "json",
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
        while (strcmp(val, cli_formats[k]) != 0)
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
    static const int ids[] = {OPT_QUICK,  OPT_QUIET,       OPT_NO_REFINE, OPT_FAIL_ON_REGRESSION,
                              OPT_FULL,   OPT_SINGLE_FILE, OPT_NO_WAIT,   OPT_SAVE,
                              OPT_SUMMARY};
    int *const flags[] = {&c->quick,  &c->quiet,       &c->no_refine, &c->fail_on_regression,
                          &c->full,   &c->single_file, &c->no_wait,   &c->save,
                          &c->summary};
    size_t i;
    for (i = 0; i < sizeof ids / sizeof *ids; i++)
        if (ids[i] == opt)
            return flags[i];
    return NULL;
}

/* Option k with its value (NULL when it takes none), from token tok. */
int cli_apply(cli *c, given *g, int k, const char *tok, const char *val, err *e)
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
        c->out_given = 1;
        return text_option(c, opt, val, e);
    case OPT_DEVICES:
    case OPT_BASE:
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
        return cli_parse_long("--layers", val, 1, PLAN_MAX_LAYERS, &g->layers, e);
    case OPT_NET:
        if (g->nnet_texts == NET_MAX_NETS)
            return err_set(e, BE_EUSAGE, "--net: more than %d networks in one run", NET_MAX_NETS);
        g->net_text[g->nnet_texts++] = val;
        break;
    case OPT_NET_FILE:
        return net_load_file(val, g->nets, &g->nnets, e);
    case OPT_PASSES:
        return cli_parse_long("--passes", val, 1, PLAN_MAX_PASSES, &g->passes, e);
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
