/*
 * report_ctx.h — the context every stage of a report shares, below them
 * all: report.c (the orchestrator) fills a report_ctx and calls the
 * stages (report_keys.c, report_run.c, report_jobs.c, report_compare.c,
 * report_history.c, report_feed.c, report_share.c, declared in
 * report_impl.h), and the stages read it and call the helpers here,
 * never report.c.  Like report_impl.h, nothing outside the report's files
 * includes it.
 */
#ifndef BE_REPORT_CTX_H
#define BE_REPORT_CTX_H

#include <stddef.h>

#include <libxml/tree.h>
#include <libxslt/xsltInternals.h>

#include "archive.h"
#include "cache.h"
#include "compare.h"
#include "findings.h"
#include "history.h"
#include "report.h"
#include "site.h"
#include "undo.h"

#define PATHMAX 4096
#define MAX_WARNINGS 8

/* The comparison of a run with the previous run of its host. */
typedef struct cmp_slot {
    int has;
    compare_set cmp;
    char note[400]; /* why there is none                         */
} cmp_slot;

/* What the report keeps of a run besides its small model, by run id until
 * the archive is in order (report_match_sides). */
typedef struct run_side {
    char id[128];
    cache_key key;   /* of its results file */
    cache_digest dg; /* answer and rows (dg.r is the archive's) */
} run_side;

/* One report being rendered: the site, the runs, their comparisons and the
 * files staged so far. */
typedef struct report_ctx {
    const report_opts *o;
    site s;
    archive a;          /* every run, each as its small model (cache.h) but
                         while its pages render (report.c's with_run)              */
    cache_digest *dg;   /* a.n: each run's answer and CSV rows           */
    cache_key *key;     /* a.n: the key of each run's results file       */
    cache_key *page;    /* a.n: the key of each run's pages              */
    char *fresh;        /* a.n: 1 when the run's pages were rendered now */
    char **items;       /* a.n: the feed items (report_item_make) of the feed's runs */
    cmp_slot *cmp;      /* one: the comparison of the run loaded whole    */
    findings *F;        /* a.n: the verdicts of the run being rendered    */
    history h;          /* the archive as series */
    cache_key site_key; /* the settings and templates of every page */
    run_side *side;     /* digests by run id, until the archive is in order */
    int front;          /* the run of the front page                      */
    int front_done;     /* its page rendered (while its run was loaded)   */
    results *hosts;     /* the newest run of each machine side by side    */
    int nhosts;
    char unlike[2048];   /* the runs not set beside them, and why          */
    cache_key hosts_key; /* the results of those newest runs               */
    int nside;
    site_outbox box;
    results_memo *memo; /* the loads of this report: each run checked against the schema once */
    char **warm;        /* nwarm: the runs whose digests report_warm makes */
    int nwarm;
    int warmed;       /* every share of them finished (--full may read them) */
    char single[128]; /* --single-file: the id of the run given, once loaded */
} report_ctx;

/* ---- the report as it goes ------------------------------------------- */

/* BE_EINTR when a signal asked to stop (stop.h). */
int report_stopped(const report_ctx *x, err *e);
/* The oldest run (archive index) of the feed. */
int report_feed_oldest(const report_ctx *x);
/* The places a report writes at in OUT, checked before anything is drawn
 * or rendered: a link planted at one of them, or at a directory on the
 * way, refuses the report with OUT as it was (site_flush checks every
 * staged file again before the first is written). */
int report_check_out(const char *out, err *e);
/* Once every check passed: what a killed report, run or import left in
 * the directories of OUT this report writes (runs: NULL for none), so
 * that a SIGKILL's temporaries do not stay forever (fsx_sweep_in). */
int report_sweep_out(const char *out, const archive *a, err *e);
/* undo_begin_in for the directories of OUT where a report (runs: each
 * run's too) or `compare` (runs 0) draws charts and marks in place: OUT,
 * OUT/history, OUT/compare and OUT/.cache. */
int report_undo_begin(undo *u, const char *out, int runs, err *e);

/* ---- pages and charts --------------------------------------------------- */

/* Run k's title, its page's and its feed item's (prose_title), as one
 * line (a host name from a results file may hold a line break). */
void report_page_title(const report_ctx *x, int k, char *buf, size_t size);
/* Applies xsl to doc (freed here) and stages the page at path in box. */
int report_put_page(const site *s, site_outbox *box, xsltStylesheetPtr xsl, xmlDocPtr doc,
                    const char *path, err *e);
/* The link attributes of a chart element: href_base + ".png", shown and
 * linked, with the chart's size in CSS pixels, and the same for its
 * narrow rendering when file_base (the chart's path, without extension)
 * has one. */
void report_chart_links(xmlNodePtr c, const char *file_base, const char *href_base);
/* Whether the charts at each of the n bases (without extension) are all
 * there, wide and narrow. */
int report_charts_exist(const char *const *base, int n);

#endif
