/*
 * progress.h — what the user sees on stderr while a sweep runs.
 *
 * On a terminal, one line redrawn in place: a bar, the pass and the point
 * being measured and the time left.  Elsewhere (CI logs, pipes) one plain
 * line per pass (its time and how busy the machine was) and one per point
 * once its last pass has measured it.  Nothing with --quiet.  Receives the sweep's events (sweep.h) and
 * never influences the measurement.
 */
#ifndef BE_PROGRESS_H
#define BE_PROGRESS_H

#include <stdio.h>

#include "sweep.h"

typedef struct progress {
    FILE *out;
    int tty, quiet, drawn;
} progress;

void progress_init(progress *pg, FILE *out, int quiet);
/* A sweep_progress_fn; ctx is a progress*. */
void progress_event(void *ctx, const sweep_event *ev);
/* Ends the redrawn line, if any. */
void progress_finish(progress *pg);

#endif
