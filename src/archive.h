/*
 * archive.h — the runs a report is made of: OUT/runs/<id>/results.xml,
 * found, loaded and put in order.
 *
 * A run is named by its id (a directory under OUT/runs/), by a directory or
 * by a results file anywhere; each is loaded through results_load (schema
 * and all), sorted by start time, linked to the previous run of the same
 * host, and placed under OUT/runs/<id>/ with its charts when it came from
 * elsewhere.  Runs from several hosts can be merged into one model whose
 * devices are "<host>/<id>", for the charts that put every host side by
 * side.  The pages made of the runs are report.c's business.
 */
#ifndef BE_ARCHIVE_H
#define BE_ARCHIVE_H

#include "results.h"

#define ARCHIVE_PATH 4096

typedef struct archive_run {
    results *r;                /* owned                                     */
    char src[ARCHIVE_PATH];    /* the results.xml loaded                    */
    char dir[ARCHIVE_PATH];    /* OUT/runs/<id>                             */
    int imported;              /* loaded from outside OUT/runs/<id>/        */
    int prev;                  /* the previous run on the same host, or −1  */
} archive_run;

typedef struct archive {
    int n;
    archive_run *v;            /* owned, sorted by start time, oldest first */
} archive;

/* Loads the runs given (ids under out/runs/, directories or files; nruns
 * 0: every run under out/runs/) into *a.  BE_EUSAGE when there is none or
 * a run is given twice; the loader's "file:line: ..." otherwise.  Free
 * with archive_free. */
int archive_load(const char *out, const char *const *runs, int nruns, archive *a, err *e);
void archive_free(archive *a);

/* Loads one run (as archive_load names it) into *u; free with
 * archive_run_free. */
int archive_load_run(const char *out, const char *arg, archive_run *u, err *e);
void archive_run_free(archive_run *u);

/* Makes OUT/runs/<id>/ hold the run: its results file (when it came from
 * elsewhere) and its charts (runcharts.h). */
int archive_place(archive_run *u, err *e);

/* The newest run of every host merged into one model (devices renamed
 * "<host>/<id>"); *out stays NULL when the runs come from one host only.
 * *nhosts receives the number of hosts; *out is the caller's to free. */
int archive_merge_hosts(const archive *a, results **out, int *nhosts, err *e);

#endif
