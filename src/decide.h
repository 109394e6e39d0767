/*
 * decide.h — the decision, for programs: which device to run a network on
 * at a batch size, from a measured run.
 *
 * `breakeven decide RUN` turns a run's networks (netfit.h) into
 * decision.json (per network, mode and view: the device below and above
 * the crossover, the crossover batch and its 95% interval, the measured
 * batches, the machine's fingerprint and the run's id), a C header
 * (breakeven_decision.h: a static inline function that returns the device
 * for a network, mode, view and batch, C99, no other code) and one
 * environment line per network in the style of llama.cpp's
 * GGML_OP_OFFLOAD_MIN_BATCH.  `breakeven which` answers one question for
 * scripts.  Above netfit.h and results.h; writes through fsx.h.
 */
#ifndef BE_DECIDE_H
#define BE_DECIDE_H

#include <stdio.h>

#include "netfit.h"

/* The answer of `which`. */
typedef struct decide_answer {
    const char *device; /* the device to use (points into the results)    */
    int uncertain;      /* the batch lies inside the crossover's interval */
    char why[512];      /* one sentence saying why                         */
} decide_answer;

/* The device for network net (its name or sizes) in mode and view at
 * batch.  BE_EUSAGE, with a message saying plainly what is wrong, when the
 * run has no such network (the message lists those it has), when the
 * batch lies outside the measured batches, or when the view was not
 * measured; BE_EFAIL when the run has no answer (no batch with both
 * devices ok). */
int decide_which(const results *r, const netfit_set *s, const char *net, wl_mode mode,
                 fit_view view, int batch, decide_answer *a, err *e);

/* Writes decision.json and breakeven_decision.h into dir, atomically and
 * inside root through no link below it (fsx_write_in: root OUT for a run
 * there, NULL for a run the user named elsewhere), and the environment
 * lines to env (one comment line and one VAR=VALUE line per network with a
 * crossover: inference with the weights on the host, else with transfers
 * counted). */
int decide_write(const results *r, const netfit_set *s, const char *root, const char *dir,
                 FILE *env, err *e);

/* The header alone, into a malloc'ed text (*text, *len): for tests. */
int decide_header(const results *r, const netfit_set *s, char **text, size_t *len, err *e);

#endif
