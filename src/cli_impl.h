/*
 * cli_impl.h — what the parts of the command line share: cli_help.c (the
 * commands, the options and which commands take each, and the help that
 * lists them), cli_values.c (each option's value) and cli.c (the
 * parsing).  Not for other modules.
 */
#ifndef BE_CLI_IMPL_H
#define BE_CLI_IMPL_H

#include "cli.h"

/* The options' ids, above any one-letter option's character. */
enum {
    OPT_OUT = 256,
    OPT_HIDDEN,
    OPT_BATCH,
    OPT_LAYERS,
    OPT_MODE,
    OPT_DEVICES,
    OPT_THREADS,
    OPT_QUICK,
    OPT_BUDGET,
    OPT_SEED,
    OPT_QUIET,
    OPT_HELP,
    OPT_SAVE,
    OPT_VERSION,
    OPT_PRICE,
    OPT_PRICES,
    OPT_NO_REFINE,
    OPT_BASE_URL,
    OPT_TITLE,
    OPT_AUTHOR,
    OPT_DATA,
    OPT_PASSES,
    OPT_FORMAT,
    OPT_FAIL_ON_REGRESSION,
    OPT_THRESHOLD,
    OPT_ALPHA,
    OPT_CORRECT,
    OPT_REPEAT,
    OPT_NET,
    OPT_NET_FILE,
    OPT_VIEW,
    OPT_FULL,
    OPT_SINGLE_FILE,
    OPT_JOBS,
    OPT_ENV_A,
    OPT_ENV_B,
    OPT_BINARY_A,
    OPT_BINARY_B,
    OPT_PAIRED,
    OPT_NO_WAIT,
    OPT_SUMMARY,
    OPT_BASE
};

/* The commands an option applies to, as bits of cli_command. */
#define CMD(x) (1u << (x))

typedef struct option_spec {
    const char *name; /* without the leading "--" */
    char shrt;        /* its one-letter form, or 0 */
    int value;        /* 1: takes a value */
    int id;
    unsigned cmds; /* the commands it applies to */
} option_spec;

/* Every option (CLI_NOPTIONS of them), and the commands' names in
 * cli_command's order (CLI_NCOMMANDS, the help and the version aside). */
#define CLI_NOPTIONS 42
#define CLI_NCOMMANDS 10
extern const option_spec cli_options[CLI_NOPTIONS];
extern const char *const cli_command_names[CLI_NCOMMANDS];

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

/* ---- the options' values (cli_values.c) ---- */

/* Option k (cli_options) with its value (NULL when it takes none), from
 * token tok, into c, or into g for what is checked once the command is
 * known; BE_EUSAGE naming the option when the value is wrong. */
int cli_apply(cli *c, given *g, int k, const char *tok, const char *val, err *e);
/* s as an integer in lo..hi into *out, else BE_EUSAGE naming opt. */
int cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out, err *e);
/* --format's words, in cli_format's order. */
extern const char *const cli_formats[];

/* What the option lookups return for no option. */
#define NO_OPTION (-1)

#endif
