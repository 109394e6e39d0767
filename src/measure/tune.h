/*
 * tune.h — `breakeven tune`: choosing an OpenCL device's kernel build
 * options by measuring them.
 *
 * This module owns the bounded search: the candidate configurations tried
 * on a device (the table default of clgemm_config_default first, then at
 * most TUNE_MAX - 1 variations around it), their measurement on two
 * representative shapes (a forward pass and a training step, each checked
 * by verify.c before it is timed, so a configuration that computes wrong
 * results can never win), and the choice of the winner, which it hands to
 * clgemm_cache_store_tuned; clgemm_discover then starts the device with it in
 * every later run.  It prints nothing: the report says what was measured.
 */
#ifndef BE_TUNE_H
#define BE_TUNE_H

#include <signal.h>
#include <stdint.h>

#include "backend.h"
#include "clgemm.h"
#include "err.h"

#define TUNE_MAX 32

/* A candidate replaces the default only when its score is at least this
 * multiple of the default's: smaller leads are within run-to-run noise. */
#define TUNE_MARGIN 1.03

typedef enum {
    TUNE_OK = 0, /* measured and verified                                 */
    TUNE_WRONG,  /* ran, but failed verification: never chosen           */
    TUNE_FAILED, /* the device refused it (build, group size, memory)    */
    TUNE_SKIPPED /* not tried: the budget ran out first                  */
} tune_status;

typedef struct tune_candidate {
    clgemm_config cfg;
    char options[256]; /* cfg as -D options (clgemm_config_options)      */
    tune_status status;
    double fwd_gflops;   /* forward shape, from the median kernel time     */
    double train_gflops; /* training shape, likewise                       */
    double score;        /* geometric mean of the two rates; 0 unless OK   */
    double seconds;      /* spent on this candidate, build included        */
    char note[256];      /* why WRONG or FAILED, "" otherwise              */
} tune_candidate;

typedef struct tune_report {
    int n; /* candidates in c (tried or skipped)         */
    tune_candidate c[TUNE_MAX];
    int best;        /* index of the winner in c; c[0] is the default */
    double seconds;  /* the whole search                           */
    char path[4352]; /* the tuning file written                    */
} tune_report;

/* Called after each candidate (i indexes r->c), so a caller can show rows
 * as they come. */
typedef void (*tune_progress_fn)(void *ctx, const tune_report *r, int i);

typedef struct tune_options {
    double budget;                 /* seconds; candidates not started within
                                      it are skipped (the default is always
                                      measured)                              */
    int fwd_hidden, fwd_batch;     /* the forward shape (one layer)          */
    int train_hidden, train_batch; /* the training shape (one layer)         */
    int reps;                      /* timed steps per shape; the median counts */
    int max_candidates;            /* 0 = every candidate, else at most this many */
    uint64_t seed;                 /* workload data (workload_make)          */
    volatile sig_atomic_t *stop;   /* polled between steps; NULL = never     */
    tune_progress_fn progress;     /* may be NULL                            */
    void *ctx;
    int keep; /* 1: store the winner as the device's tuning file (the
                 default); 0: only report it (r->path "")            */
} tune_options;

/* Fills o with the defaults: budget 120 s, forward 2048 × batch 1024,
 * training 512 × batch 256, 5 repetitions, seed 1, every candidate, the
 * winner kept. */
void tune_options_default(tune_options *o);

/* Tunes d, an OpenCL device from clgemm_discover/device_discover on which
 * no run is prepared: tries the candidates in order while the budget lasts,
 * picks the verified candidate with the highest score (the default unless
 * that leads it by TUNE_MARGIN), stores it as the device's tuning file
 * (r->path) and leaves d configured with it.  Fills r (the caller's
 * storage) in every case.  Returns BE_EUSAGE for a device that is not
 * OpenCL or bad options, BE_EINTR when *o->stop became non-zero (nothing
 * stored, d back on the configuration it had), BE_EFAIL when no candidate
 * passed or the file could not be written. */
int tune_device(device *d, const tune_options *o, tune_report *r, err *e);

const char *tune_status_name(tune_status s);

#endif
