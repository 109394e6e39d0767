/*
 * main.c — breakeven's entry point: parses the command line (cli.h) and
 * hands it to its command (cmd.h), whose status it exits with (0 ok, 1
 * failure at run time, 2 usage error; compare and ab also 3 and 4).  The
 * commands print their own errors (cmd_fail); only main.c exits.
 */
#include <stdio.h>

#include "cli.h"
#include "cmd.h"
#include "outlock.h"
#include "stop.h"
#include "version.h"

int main(int argc, char **argv)
{
    cli c;
    err e;
    int rc = cli_parse(argc, argv, &c, &e);

    if (rc < 0)
        return cmd_fail(2, &e);
    /* every command that writes gets the one signal path (stop.h) before
     * it starts; the others keep the default (a signal ends them) */
    if (c.cmd != CLI_HELP && c.cmd != CLI_VERSION && c.cmd != CLI_DEVICES && c.cmd != CLI_WHICH)
        stop_catch();
    switch (c.cmd) {
    case CLI_HELP:
        if (c.help_cmd >= 0)
            cli_command_usage(stdout, (cli_command)c.help_cmd);
        else
            cli_usage(stdout);
        return 0;
    case CLI_VERSION:
        printf("breakeven %s (%s)\n", BE_VERSION, BE_COMMIT);
        return 0;
    case CLI_DEVICES:
        return cmd_devices(&c);
    case CLI_TUNE:
        return cmd_tune(&c);
    case CLI_RUN:
    case CLI_ALL:
        return cmd_run(&c);
    case CLI_REPORT: {
        outlock lk;
        cmd_lock(&c, &lk);
        return cmd_report(&c, &lk);
    }
    case CLI_COMPARE:
        return cmd_compare(&c);
    case CLI_REFIT:
        return cmd_refit(&c);
    case CLI_DECIDE:
        return cmd_decide(&c);
    case CLI_WHICH:
        return cmd_which(&c);
    case CLI_AB:
        return cmd_ab(&c);
    }
    return 1;
}
