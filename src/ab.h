/*
 * ab.h — the paired comparison in one command: `breakeven ab`.
 *
 * Two configurations of one grid (each an environment, and optionally
 * another breakeven binary: another OpenBLAS through LD_LIBRARY_PATH or
 * LD_PRELOAD, another OpenCL driver through OCL_ICD_VENDORS, another build)
 * are measured as two ordinary runs, each in its own child process so that
 * each loads its own libraries, and their passes alternate in one time
 * window, visit by visit, A B B A A B …: both sides shuffle the grid from
 * the same seed, so visit K of A and visit K of B measure the same point,
 * a few milliseconds apart, and what the machine does meanwhile (a
 * neighbour, the CPUs moved a cache apart, the clock) falls on both alike
 * (duet benchmarking, after Bulej et al., ICPE 2020).  The comparison then
 * judges the paired passes (compare_pair.c): pass k of A against pass k of
 * B, whose visits alternated.
 *
 * The parent paces the children over a socket each, one line a message:
 * a child says "id RUN FORMAT DEVICES" once its run exists (FORMAT: the
 * results format it writes, which must be one this breakeven reads; the
 * parent answers
 * "sibling PID", the other side, whose CPU time is then not counted as
 * others'), "ready K N" before its visit K of N and "end" after its last,
 * and waits for "go" after each; EOF on
 * the socket stops it (its passes so far are saved, marked partial).  The
 * child's side (ab_pace_*) runs inside `breakeven run --paired SIDE,FD,ID`;
 * the parent's (ab_run) is the `ab` command.  Both runs are archived under
 * OUT/runs as any other, each marking its pair and side in its provenance
 * (results.h), and `compare` on the two judges them as a pair.
 */
#ifndef BE_AB_H
#define BE_AB_H

#include "cli.h"
#include "compare.h"
#include "err.h"
#include "outlock.h"
#include "progress.h"
#include "report.h"
#include "sweep.h"

#define AB_MAX_ENV 32
#define AB_MAX_ARGS 96

/* One side: its binary ("" for this one) and what it adds to the
 * environment ("NAME=value", each as given). */
typedef struct ab_side {
    char binary[2048];
    const char *env[AB_MAX_ENV];
    int nenv;
} ab_side;

typedef struct ab_opts {
    ab_side side[2];
    /* the options of `run` both sides get (the grid, devices, budget,
     * passes, -o), as words */
    const char *args[AB_MAX_ARGS];
    int nargs;
    int passes;    /* per side: the pairs of passes                   */
    double budget; /* per side, seconds (for the progress line and the
                        time a pass may take before it is called hung) */
    int quiet;
    compare_opts cmp;  /* threshold, alpha, correction */
    report_opts pages; /* where the comparison page goes */
    outlock *lock;     /* OUT's, held while the page is written (never while
                          the sides run: they write OUT too); NULL: none */
    /* the words of args that ab_opts_from makes */
    char names[CLI_MAX_PASS][48], passes_word[16], budget_word[32];
} ab_opts;

/* o from the command line c (its pages' options are the caller's): each
 * side's binary and environment; the options of the grid as given, then
 * the passes, the budget and no refinement, for both sides; the
 * comparison's threshold and alpha.  o keeps pointers into c. */
void ab_opts_from(ab_opts *o, const cli *c);

/* Runs the pair and compares it: the provenance differences first, then
 * the comparison (format f) on stdout, its page under OUT/compare; *gate
 * the gate's exit status (0, 3 or 4).  BE_EUSAGE (exit 2) for a binary
 * that is not a breakeven able to pace, or sides that measure different
 * devices; BE_EFAIL when a side fails, hangs or is killed (the other
 * side's passes are kept as a partial run, and the message says where). */
int ab_run(const ab_opts *o, compare_format f, int *gate, err *e);

/* ---- the child's side, inside `run --paired` ---- */

typedef struct ab_pace {
    int fd;       /* the socket to the parent                          */
    progress *pg; /* the run's own progress, told every event          */
    int lost;     /* the parent is gone: the run stops                 */
    int sibling;  /* the other side's pid (ab_pace_hello)              */
} ab_pace;

/* "id RUN FORMAT DEVICES" (FORMAT: the run's results format,
 * results_format, so that an older ab reads a run it can compare; DEVICES:
 * the device ids, comma-separated), then the parent's "sibling PID": the
 * other side, into p->sibling. */
int ab_pace_hello(ab_pace *p, const char *run_id, int format, const char *devices, err *e);
/* A sweep_progress_fn with ctx an ab_pace: on SWEEP_START says "ready K N"
 * (visit K of N) and waits for "go" (else raises the stop flag); every
 * event goes on to progress_event. */
void ab_pace_event(void *ctx, const sweep_event *ev);
/* "end", then waits for "go": the run's own writing (fit, charts) waits
 * until the other side has measured its last pass. */
int ab_pace_end(ab_pace *p, err *e);

#endif
