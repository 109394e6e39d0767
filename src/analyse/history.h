/*
 * history.h — the archive read as a history: series of one host's answers
 * over its runs, and the changes in them.
 *
 * A series is one host, one mode and one pair of devices (the base device
 * of the fit, q_base, and one other device), keyed by the devices' model
 * names so that a new GPU starts a new series rather than continuing the
 * old one.  Over the runs of that host that measured both devices in that
 * mode, oldest first, it holds the crossover batch of the resident time
 * crossover at every hidden width (from each run's stored fit, with its
 * 95% interval) and each device's peak throughput (the fastest point's
 * GFLOP/s, with the interval of its median step time).  Each run is
 * labelled with what changed in its provenance since the series' previous
 * run (compare_provenance), and each device's run-level step time (the
 * geometric mean of its points' times (q_level) relative to their means
 * over the runs: compare.h's statistic, so a step in it is a change of the whole
 * run, found by the same two-sample test).  Every numeric sub-series goes through
 * changes_find (changes.h); what it finds is worded here, once, for the
 * history page, the run's report and the feed.
 *
 * This layer reads loaded models (archive.h) and never a file; the page
 * and its charts are report.c's and figure.h's business.
 */
#ifndef BE_HISTORY_H
#define BE_HISTORY_H

#include "archive.h"
#include "changes.h"
#include "list.h"
#include "results.h"

#define HIST_LABEL 400
#define HIST_TEXT 800
/* A change's headline is at most this many characters, as a run's title
 * (prose.h's PROSE_TITLE_MAX): a feed item's title a link preview shows
 * whole. */
#define HIST_TITLE_MAX 70

/* One value of a run in a sub-series. */
typedef struct hist_value {
    int has;              /* 1: v, lo and hi are set                         */
    double v, lo, hi;     /* the value and its 95% interval (lo ≤ v ≤ hi)   */
    int lo_open, hi_open; /* crossovers: the interval reaches past the
                             smallest or largest batch measured            */
    cross_kind kind;      /* crossovers: in range, never, always, unknown   */
    int hidden, batch;    /* peaks: the shape of the fastest point          */
} hist_value;

/* What a sub-series measures. */
typedef enum {
    HIST_CROSS, /* the crossover batch at one hidden width  */
    HIST_PEAK,  /* a device's peak throughput, GFLOP/s      */
    HIST_LEVEL  /* a device's run-level step time: the geometric mean, over
                   the points every run of the series measured, of each
                   point's time relative to its mean over the runs (the
                   statistic of compare.h); 1 is the series' average */
} hist_what;

/* A change found in a sub-series. */
typedef struct hist_change {
    hist_what what;
    int hidden;           /* HIST_CROSS: the width                        */
    int device;           /* HIST_PEAK: 0 the base, 1 the other device     */
    int at;               /* the series' run where the new level starts    */
    chg_step step;        /* the step itself (changes.h)                   */
    char key[96];         /* names the sub-series within its series:
                      "crossover-512", "peak-cpu"                    */
    char title[300];      /* a headline: "host: NVIDIA H100 80GB HBM3
                             inference peak throughput +18%"              */
    int at_lo, at_hi;     /* the series' runs where the data alone may put
                             its start (changes.h): at_lo ≤ at ≤ at_hi    */
    int cause;            /* the run whose recorded setup changed nearest
                             `at` within at_lo..at_hi, its likely cause
                             (its label says what changed), or −1        */
    char text[HIST_TEXT]; /* the change in one sentence, its likely cause
                             named                                        */
} hist_change;

typedef struct hist_series {
    char host[256];   /* the machine's name (q_machine_name), with " [fingerprint]" when two
                          machines of the archive share it               */
    char machine[16]; /* the hardware's fingerprint (q_machine_print)   */
    wl_mode mode;
    char base[32], other[32];             /* device ids, in the newest run */
    char base_name[256], other_name[256]; /* their model names (the key)   */
    char anchor[32];                      /* "s1", "s2"… in page order     */
    int nruns;
    const results **runs;      /* owned array, oldest first; the
                                              models are the archive's     */
    int *arch;                 /* owned: each run's archive index */
    char (*label)[HIST_LABEL]; /* owned: what changed since the
                                              series' previous run ("" for
                                              the first, "nothing" when
                                              nothing did)                  */
    int nwidths;
    int hidden[LIST_MAX]; /* the widths of any run, ascending */
    hist_value *cross;    /* owned: [run * nwidths + width] */
    hist_value *peak[2];  /* owned: base, other; per run    */
    hist_value *level[2]; /* owned: base, other; per run    */
    int nlevel[2];        /* the points each level stands on */
    int nchanges;
    hist_change *changes; /* owned, by run then sub-series */
} hist_series;

typedef struct history {
    int n;
    hist_series *s; /* owned: by host, then mode, then pair */
} history;

/* Builds the series of every host of a (its runs sorted by start time, as
 * archive_load leaves them) and finds their changes.  BE_EFAIL only when
 * out of memory.  Free with history_free (also after a failure). */
int history_make(const archive *a, history *h, err *e);
void history_free(history *h);

#endif
