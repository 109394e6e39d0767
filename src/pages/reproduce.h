/*
 * reproduce.h — the command that reproduces a run, as its report shows it.
 *
 * A results file keeps the command line of its run as typed (argv joined
 * by spaces, provenance "command").  That line names the machine it ran on
 * (the executable's path, --out, --data, a --prices file) and how it
 * talked (--quiet), none of which another machine can use; the report
 * gives a clean one instead: "breakeven", the command, every option that
 * shapes the measurement, and the prices the run used as --price options.
 * The version to build comes with it (reproduce_commit).  Pure functions of
 * the loaded model.
 */
#ifndef BE_REPRODUCE_H
#define BE_REPRODUCE_H

#include <stddef.h>

#include "results.h"

/* The clean command line of run r into buf[0..size): the program as
 * "breakeven"; --out/-o, --data, --quiet/-q, --base-url, --title, --author,
 * --paired (with their values) and --price/--prices dropped; then "--price ID=USD"
 * for each price in r->prices; words with characters a shell would
 * interpret single-quoted.  "breakeven run" when r records no command. */
void reproduce_command(const results *r, char *buf, size_t size);

/* The commit to check out: r's commit without the "-dirty" mark, with
 * *dirty set to 1 when it had one (the run was built from uncommitted
 * changes); "" when r does not know it ("unknown" or empty). */
void reproduce_commit(const results *r, char *buf, size_t size, int *dirty);

#endif
