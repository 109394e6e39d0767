/*
 * tune.h — `breakeven tune`: choosing an OpenCL device's kernel build
 * options by measuring them.
 *
 * This module owns the bounded search: the candidate configurations tried
 * on a device (the table default of clgemm_config_default first, then at
 * most TUNE_MAX - 1 variations around it), their measurement on
 * representative shapes (a forward pass at a large and at a middling shape,
 * a training step at the middling one, each checked by verify.c before it
 * is timed, so a configuration that computes wrong results can never win),
 * and the choice of a winner per mode (tune_rate: the fastest forward over
 * both shapes for inference, the fastest training step for training), which it
 * hands to clgemm_cache_store_tuned; clgemm_discover then starts the device
 * with them in every later run.  It prints nothing: the report says what
 * was measured.
 */
#ifndef BE_TUNE_H
#define BE_TUNE_H

#include <signal.h>
#include <stdint.h>

#include "backend.h"
#include "clgemm.h"
#include "err.h"

#define TUNE_MAX 32

/* A candidate replaces the default in a mode only when its rate in that
 * mode is at least this multiple of the default's: smaller leads are
 * within run-to-run noise. */
#define TUNE_MARGIN 1.03

typedef enum {
    TUNE_OK = 0, /* measured and verified                                 */
    TUNE_WRONG,  /* ran, but failed verification: never chosen           */
    TUNE_FAILED, /* the device refused it (build, group size, memory)    */
    TUNE_SKIPPED /* not tried: the budget ran out first                  */
} tune_status;

typedef struct tune_candidate {
    clgemm_config cfg;
    char options[256];   /* cfg as -D options (clgemm_config_options)      */
    tune_status status;  /* OK only when both shapes verified              */
    double fwd_gflops;   /* forward shape, from the median kernel time     */
    double mid_gflops;   /* forward at the training shape's size, likewise */
    double train_gflops; /* training shape, likewise                       */
    double seconds;      /* spent on this candidate, build included        */
    char note[256];      /* why WRONG or FAILED, "" otherwise              */
} tune_candidate;

typedef struct tune_report {
    int n; /* candidates in c (tried or skipped)         */
    tune_candidate c[TUNE_MAX];
    int best_inf;    /* index in c of the inference winner (by
                        tune_rate); c[0] is the default            */
    int best_train;  /* of the training winner (likewise)          */
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
    int keep; /* 1: store the winners as the device's tuning file (the
                 default); 0: only report them (r->path "")          */
} tune_options;

/* Fills o with the defaults: budget 120 s, forward 2048 × batch 1024,
 * training 512 × batch 256, 5 repetitions, seed 1, every candidate, the
 * winner kept. */
void tune_options_default(tune_options *o);

/* Tunes d, an OpenCL device from clgemm_discover/device_discover on which
 * no run is prepared: tries the candidates in order while the budget lasts,
 * each as the whole configuration of every shape; picks for each mode the
 * verified candidate of the highest tune_rate (in each mode the default unless the
 * winner leads it there by TUNE_MARGIN), stores both as the device's
 * tuning file (r->path) and leaves d configured with them.  Fills r (the
 * caller's storage) in every case.  Returns BE_EUSAGE for a device that is
 * not OpenCL or bad options, BE_EINTR when *o->stop became non-zero
 * (nothing stored, d back on the configurations it had), BE_EFAIL when no
 * candidate passed or the file could not be written. */
int tune_device(device *d, const tune_options *o, tune_report *r, err *e);

/* A candidate's rate in mode m, by which its mode's winner is chosen: for
 * training its training step's; for inference the geometric mean of its
 * forward rates at the two shapes, because a winner at the large shape
 * alone could be slower at the middling sizes where crossovers lie (on
 * PoCL one was 1.25× slower at hidden 512 × batch 256).  0 unless c is
 * TUNE_OK. */
double tune_rate(const tune_candidate *c, wl_mode m);

/* Chooses r's winners among its r->n candidates as tune_device does, from
 * their status and rates: for each mode the verified (TUNE_OK) candidate of
 * the highest tune_rate, each the
 * default (c[0]) instead when the default passed and the winner does not
 * lead it by TUNE_MARGIN in that mode; -1 when none passed. */
void tune_choose(tune_report *r);

const char *tune_status_name(tune_status s);

#endif
