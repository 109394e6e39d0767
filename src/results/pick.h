/*
 * pick.h — runs of the archive chosen by what they were made with, for
 * compare's sides.
 *
 * `compare A B` takes ids or paths; a side may instead name what its runs
 * have in common, "@version=0.2.0" or "@blas=0.3.26,host=ci-7", and every
 * run under OUT/runs/ that matches becomes one of its replicates, oldest
 * first.  The keys are the provenance a comparison is usually about:
 * breakeven's version and commit, OpenBLAS's version, a device's driver
 * version, and the host.  Between the command line (cli.h) and the
 * comparison (report.h's report_compare): it reads the archive through
 * archive.h and hands back ids; whether the runs of a side may be compared
 * (the same grid, devices and version) is compare.c's to say.
 */
#ifndef BE_PICK_H
#define BE_PICK_H

#include "err.h"
#include "results.h"

/* The conditions of one selector. */
#define PICK_MAX_KEYS 5

typedef enum { PICK_VERSION = 0, PICK_COMMIT, PICK_BLAS, PICK_DRIVER, PICK_HOST } pick_key;

typedef struct pick_sel {
    int n;
    pick_key key[PICK_MAX_KEYS];
    char value[PICK_MAX_KEYS][256];
} pick_sel;

/* 1 when arg is a selector (it starts with '@'; a path that does should be
 * given as ./@...). */
int pick_is_selector(const char *arg);

/* Parses "@KEY=VALUE[,KEY=VALUE...]" (keys: version, commit, blas, driver,
 * host; each at most once; values non-empty, without ','); BE_EUSAGE with
 * one line naming what is wrong. */
int pick_parse(const char *arg, pick_sel *s, err *e);

/* 1 when run r matches every condition of s: its breakeven version or
 * commit, its OpenBLAS version, the driver of any of its devices, or its
 * host equals the value. */
int pick_match(const pick_sel *s, const results *r);

/* One side of a comparison with its selectors expanded: arg[0..n) are the
 * ids and paths given and, for each selector, the ids of the archived runs
 * it matches (oldest first).  arg points into the caller's strings and
 * into id[]: do not copy the struct. */
#define PICK_MAX_RUNS 32

typedef struct pick_side {
    int n;
    const char *arg[PICK_MAX_RUNS];
    char id[PICK_MAX_RUNS][128];
} pick_side;

/* Expands args[0..n) (side "A" or "B", for messages) against the archive
 * under out: BE_EUSAGE when a selector is malformed, matches no run (the
 * message lists the values the archive has for its first key) or the side
 * would hold more than PICK_MAX_RUNS runs; the archive's errors when it
 * cannot be read.  Without a selector, nothing is read. */
int pick_side_expand(const char *out, const char *side, const char *const *args, int n,
                     pick_side *ps, err *e);

#endif
