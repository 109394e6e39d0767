/*
 * cli_help.c — what the command line offers (see cli.h): the commands, the
 * options and the commands each applies to, and the help that lists them,
 * whole (--help) or cut to one command (COMMAND --help).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli_impl.h"

/* the commands of the sweep, and of the pages */
#define C_SWEEP (CMD(CLI_ALL) | CMD(CLI_RUN))
/* the options of the sweep that `ab` hands both sides' runs */
#define C_GRID (C_SWEEP | CMD(CLI_AB))
#define C_PAGES (CMD(CLI_ALL) | CMD(CLI_REPORT) | CMD(CLI_COMPARE))
#define C_ANY 0xffffu

const option_spec cli_options[] = {
    {"out", 'o', 1, OPT_OUT,
     C_GRID | CMD(CLI_REPORT) | CMD(CLI_COMPARE) | CMD(CLI_REFIT) | CMD(CLI_DECIDE) |
         CMD(CLI_WHICH)},
    {"hidden", 0, 1, OPT_HIDDEN, C_GRID},
    {"batch", 0, 1, OPT_BATCH, C_GRID | CMD(CLI_WHICH)},
    {"layers", 0, 1, OPT_LAYERS, C_GRID},
    {"mode", 0, 1, OPT_MODE, C_GRID | CMD(CLI_WHICH)},
    {"devices", 0, 1, OPT_DEVICES, C_GRID | CMD(CLI_TUNE)},
    {"threads", 0, 1, OPT_THREADS, C_GRID | CMD(CLI_DEVICES) | CMD(CLI_TUNE)},
    {"quick", 0, 0, OPT_QUICK, C_GRID | CMD(CLI_TUNE)},
    {"budget", 0, 1, OPT_BUDGET, C_GRID | CMD(CLI_TUNE)},
    {"passes", 0, 1, OPT_PASSES, C_GRID},
    {"seed", 0, 1, OPT_SEED, C_GRID},
    {"quiet", 'q', 0, OPT_QUIET, C_ANY & ~CMD(CLI_DEVICES)},
    {"help", 'h', 0, OPT_HELP, C_ANY},
    {"version", 'V', 0, OPT_VERSION, C_ANY},
    {"price", 0, 1, OPT_PRICE, C_SWEEP | CMD(CLI_COMPARE) | CMD(CLI_REFIT)},
    {"prices", 0, 1, OPT_PRICES, C_SWEEP | CMD(CLI_COMPARE) | CMD(CLI_REFIT)},
    {"no-refine", 0, 0, OPT_NO_REFINE, C_SWEEP},
    {"base-url", 0, 1, OPT_BASE_URL, C_PAGES | CMD(CLI_AB)},
    {"title", 0, 1, OPT_TITLE, C_PAGES | CMD(CLI_AB)},
    {"author", 0, 1, OPT_AUTHOR, C_PAGES | CMD(CLI_AB)},
    {"data", 0, 1, OPT_DATA, C_PAGES | CMD(CLI_AB)},
    {"format", 0, 1, OPT_FORMAT, CMD(CLI_RUN) | CMD(CLI_REPORT) | CMD(CLI_COMPARE) | CMD(CLI_AB)},
    {"fail-on-regression", 0, 0, OPT_FAIL_ON_REGRESSION, CMD(CLI_COMPARE)},
    {"save", 0, 0, OPT_SAVE, CMD(CLI_TUNE)},
    {"threshold", 0, 1, OPT_THRESHOLD, CMD(CLI_COMPARE) | CMD(CLI_AB)},
    {"alpha", 0, 1, OPT_ALPHA, CMD(CLI_COMPARE) | CMD(CLI_AB)},
    {"correct", 0, 1, OPT_CORRECT, CMD(CLI_COMPARE)},
    {"repeat", 0, 1, OPT_REPEAT, C_SWEEP},
    {"net", 0, 1, OPT_NET, C_GRID | CMD(CLI_WHICH)},
    {"net-file", 0, 1, OPT_NET_FILE, C_GRID},
    {"env-a", 0, 1, OPT_ENV_A, CMD(CLI_AB)},
    {"env-b", 0, 1, OPT_ENV_B, CMD(CLI_AB)},
    {"binary-a", 0, 1, OPT_BINARY_A, CMD(CLI_AB)},
    {"binary-b", 0, 1, OPT_BINARY_B, CMD(CLI_AB)},
    {"paired", 0, 1, OPT_PAIRED, CMD(CLI_RUN)},
    {"view", 0, 1, OPT_VIEW, CMD(CLI_WHICH)},
    {"full", 0, 0, OPT_FULL, CMD(CLI_REPORT)},
    {"single-file", 0, 0, OPT_SINGLE_FILE, CMD(CLI_REPORT)},
    {"jobs", 'j', 1, OPT_JOBS, CMD(CLI_ALL) | CMD(CLI_REPORT)},
    {"no-wait", 0, 0, OPT_NO_WAIT,
     C_SWEEP | CMD(CLI_REPORT) | CMD(CLI_COMPARE) | CMD(CLI_REFIT) | CMD(CLI_DECIDE) | CMD(CLI_AB)},
    {"summary", 0, 0, OPT_SUMMARY, CMD(CLI_RUN) | CMD(CLI_REPORT)},
    {"base", 0, 1, OPT_BASE, C_GRID | CMD(CLI_REFIT)},
};
/* one row per option id */
_Static_assert(sizeof cli_options / sizeof *cli_options == CLI_NOPTIONS, "cli_options");

const char *const cli_command_names[] = {"all",     "run",  "report", "compare", "refit",
                                         "devices", "tune", "decide", "which",   "ab"};

/* The help's options from --format on: C11 compilers need only take 4095
 * bytes in one string. */
static void usage_more(FILE *out)
{
    fputs("  --format F         compare's output as text, markdown, csv or json (default: text);\n"
          "                     run, report, compare: bmf or github-action-benchmark, for CI\n"
          "                     (report without -o: the document alone, no site written)\n"
          "  --summary          run, report: the dashboard's summary, tens of benchmarks\n"
          "                     (per device, mode, view: crossover per width, peak, mean)\n"
          "  --fail-on-regression  compare asks: is B slower by the threshold or more?\n"
          "                     exit 0 no (every interval ends below it), 3 yes, 4 cannot\n"
          "                     tell (it says what would settle it)\n"
          "  --threshold R      the smallest slowdown that counts, as a ratio (default 1.05)\n"
          "  --alpha A          error rate of compare's intervals (default 0.05)\n"
          "  --correct C        compare corrects the CPU devices' times for the machine:\n"
          "                     none, reference (its C loop and memory stream) or load (the\n"
          "                     CPU share others took) (default: load)\n"
          "  --env-a NAME=VALUE  ab: side A's environment adds or replaces NAME\n"
          "                     (LD_LIBRARY_PATH, LD_PRELOAD, OCL_ICD_VENDORS, ...;\n"
          "                     repeatable); --env-b likewise for side B\n"
          "  --env-b NAME=VALUE  ab: side B's, as --env-a\n"
          "  --binary-a PATH    ab: side A runs another breakeven (default: this one);\n"
          "                     --binary-b likewise\n"
          "  --binary-b PATH    ab: side B's breakeven\n"
          "  --paired S,FD,ID   run: a side of ab's pair (ab starts it so)\n"
          "  --full             report renders every page again, whatever it rendered before\n"
          "  --single-file      report RUN: also OUT/share/<id>.html, its page in one file\n"
          "  -j, --jobs N       processes rendering the runs' pages at once (report, all;\n"
          "                     1..64, default: one per CPU)\n"
          "  --no-wait          when another breakeven is writing OUT, exit 1 naming it\n"
          "                     instead of waiting for it (run: only before it measures)\n"
          "  --save             tune --quick: keep its tuning (it is not kept without;\n"
          "                     tune without --quick always keeps it)\n"
          "  -q, --quiet        no progress output\n"
          "  -h, --help         this help;  -V, --version  the version\n"
          "  BREAKEVEN_MACHINE=NAME in the environment: run files its run under NAME\n"
          "                     (a fleet's machine type) rather than the host name\n"
          "\n"
          "LIST is comma-separated sizes and ranges: 128,384 or 16..1024 (powers of two).\n"
          "Long options may be abbreviated while unambiguous.  Exit status: 0 done, 1 a\n"
          "failure while running, 2 a command line error, 3 a regression found by\n"
          "compare --fail-on-regression, 4 a comparison that cannot decide.\n",
          out);
}

void cli_usage(FILE *out)
{
    fputs("usage: breakeven [COMMAND] [OPTIONS]\n"
          "\n"
          "Measures a stack of dense layers on the CPU (OpenBLAS) and on OpenCL devices\n"
          "and tells from what size on the GPU is worth it.\n"
          "\n"
          "commands:\n"
          "  all        run the sweep, then write the report (the default)\n"
          "  run        run the sweep and archive it as OUT/runs/<id>/results.xml.gz\n"
          "  report [RUN...]  write OUT/index.html, the run pages, OUT/feed.xml and the\n"
          "             CSV files from the runs given (ids or paths; default: every run)\n"
          "  compare A B  what changed between two runs (ids or paths): the run-level\n"
          "             verdict per device, mode and view, a table, and OUT/compare/A..B.html;\n"
          "             replicates as compare A1 A2 A3 -- B1 B2 B3, or every archived\n"
          "             run made with something: @version=0.2.0 (keys version, commit,\n"
          "             blas, driver, host; several as @blas=0.3.26,host=ci)\n"
          "  refit RUN...  analyse stored runs again (ids or paths) from their samples\n"
          "             with this version's method and the prices given (--price,\n"
          "             --prices; others as stored), rewriting each results file in\n"
          "             place and its charts; prints the answers as run does\n"
          "  devices    list the devices that can be measured\n"
          "  tune       try kernel configurations on the OpenCL devices (--devices,\n"
          "             --budget, --quick) and keep the fastest for inference and\n"
          "             the fastest for training for later runs\n"
          "             (with --quick, only when --save is given)\n"
          "  decide RUN  for programs: decision.json, breakeven_decision.h (beside the\n"
          "             run's results) and llama.cpp's GGML_OP_OFFLOAD_MIN_BATCH=N line\n"
          "  which --net NET --batch N RUN  the device to run NET on at batch N, among\n"
          "             every device measured (--mode inference or training; --view\n"
          "             transfer, resident or weights-on-host); stderr says why, and\n"
          "             when it is too close to call or extrapolated\n"
          "  ab         a paired comparison: the grid run twice, side A and side B\n"
          "             (--env-a, --env-b, --binary-a, --binary-b), each in its own\n"
          "             process, their passes alternating A B B A in one time window;\n"
          "             the verdict from the paired passes; exits 0, 3 or 4 as the gate\n"
          "\n",
          out);
    /* two strings: C11 compilers need only take 4095 bytes in one */
    fputs("options:\n"
          "  -o, --out DIR      where runs and reports go (default: out)\n"
          "  --hidden LIST      hidden widths (default: 128..2048)\n"
          "  --net SIZES        measure a network instead: layer sizes from input to\n"
          "                     output (784-512-256-10) or a preset (mnist-mlp, see\n"
          "                     docs/networks.md); repeatable\n"
          "  --net-file FILE    networks from a file: \"[NAME] SIZES\" per line, # comments\n"
          "  --batch LIST       batch sizes (default: 16..1024)\n"
          "  --layers N         dense layers in the stack (default: 4)\n"
          "  --mode M           inference, training or both (default: inference)\n"
          "  --devices LIST     device ids, or all (default: all)\n"
          "  --base DEV         what every device is measured against, refit too\n"
          "                     (default: each stack's CPU: cpu, torch:cpu for torch:*)\n"
          "  --threads N        OpenBLAS threads (default: $OPENBLAS_NUM_THREADS, else\n"
          "                     one per core)\n"
          "  --quick            a tiny sweep that takes a few seconds\n"
          "  --budget SECONDS   time the sweep may take; precision follows (default: 120)\n"
          "  --passes N         measure every point in N passes, 1..20 (default: 3; ab: 8)\n"
          "  --seed N           seed of the input data (default: 1)\n"
          "  --price DEV=USD    price of a device per hour, for the cost crossover\n"
          "                     (repeatable; e.g. --price cpu=0.24 --price cl:0.0=1.51)\n"
          "  --prices FILE      prices from a file: \"DEVICE USD_PER_HOUR\" per line, # comments\n"
          "  --no-refine        do not measure extra batch sizes around the crossover, nor\n"
          "                     uninformative points again\n"
          "  --base-url URL     where OUT/ is published: makes the feed's links absolute\n"
          "  --title TEXT       title of the report and the feed\n"
          "  --author NAME      author shown on the report\n"
          "  --data DIR         templates/ and assets/ to use (default: $BREAKEVEN_DATA,\n"
          "                     else next to the executable, else the installed ones)\n"
          "  --repeat N         run the sweep N times in a row, each its own run (1..100)\n",
          out);
    usage_more(out);
}

/* The option a help line names ("  -o, --out DIR  ..." names "out"), or
 * NO_OPTION for a line that names none (a continuation). */
static int help_line_option(const char *line)
{
    const char *p = strstr(line, "--");
    size_t n;
    int k;
    if (strncmp(line, "  -", 3) != 0 || !p)
        return NO_OPTION;
    p += 2;
    n = strcspn(p, " =\n");
    for (k = 0; k < CLI_NOPTIONS; k++)
        if (strlen(cli_options[k].name) == n && strncmp(cli_options[k].name, p, n) == 0)
            return k;
    return NO_OPTION;
}

/* cli_usage's text cut to one command: its own lines under "commands:"
 * and the lines of the options it takes, so that the two never differ. */
void cli_command_usage(FILE *out, cli_command cmd)
{
    char *text = NULL, *line, *save = NULL;
    size_t len = 0;
    int section = 0, keep = 0, k;
    FILE *f = open_memstream(&text, &len);
    if (!f || (unsigned)cmd >= (unsigned)CLI_NCOMMANDS) {
        if (f)
            fclose(f);
        free(text);
        cli_usage(out);
        return;
    }
    cli_usage(f);
    fclose(f);
    fprintf(out, "usage: breakeven %s [OPTIONS]%s\n\n", cli_command_names[cmd],
            cmd == CLI_REPORT                       ? " [RUN...]"
            : cmd == CLI_COMPARE                    ? " A B"
            : cmd == CLI_REFIT                      ? " RUN..."
            : cmd == CLI_DECIDE || cmd == CLI_WHICH ? " RUN"
                                                    : "");
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strcmp(line, "commands:") == 0 || strcmp(line, "options:") == 0) {
            section = line[0] == 'c' ? 1 : 2;
            if (section == 2)
                fputs("\noptions:\n", out);
            continue;
        }
        if (section == 1) {
            /* "  run  ..." starts the command's lines; continuations follow */
            if (strncmp(line, "  ", 2) == 0 && line[2] != ' ')
                keep = strncmp(line + 2, cli_command_names[cmd], strlen(cli_command_names[cmd])) ==
                           0 &&
                       line[2 + strlen(cli_command_names[cmd])] == ' ';
        } else if (section == 2) {
            if (line[0] != ' ') {
                section = 3; /* the notes after the options */
                fputs("\n", out);
            } else if ((k = help_line_option(line)) >= 0) {
                keep = (cli_options[k].cmds & CMD(cmd)) != 0;
            }
        }
        if (section == 3 || (section && keep))
            fprintf(out, "%s\n", line);
    }
    fputs("\nAll commands and options: breakeven --help; the manual: man breakeven.\n", out);
    free(text);
}

const char *cli_option_name(int opt)
{
    int k;
    for (k = 0; k < CLI_NOPTIONS; k++)
        if (cli_options[k].id == opt)
            return cli_options[k].name;
    return "";
}
