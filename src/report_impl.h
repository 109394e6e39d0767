/*
 * report_impl.h — what the files of the report share, and nothing outside
 * them includes.  report.c orchestrates a report: which runs' pages are
 * rendered again, each run loaded whole while they render, the front
 * page, the exports and the publishing of the set; report_keys.c keeps
 * each run small (its digest, cache.h) and says what each page is made
 * of (its key); report_run.c builds a run's page (charts, tables, words,
 * links), report_jobs.c shares that work among processes;
 * report_compare.c the comparison pages, and `compare`;
 * report_history.c the history page and its charts; report_feed.c the
 * feed and its items.  The public interface is report.h.
 */
#ifndef BE_REPORT_IMPL_H
#define BE_REPORT_IMPL_H

#include <stddef.h>

#include <libxml/tree.h>
#include <libxslt/xsltInternals.h>

#include "archive.h"
#include "archive_place.h"
#include "cache.h"
#include "compare.h"
#include "findings.h"
#include "history.h"
#include "report.h"
#include "site.h"

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

/* ---- report.c -------------------------------------------------------- */

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

/* ---- report_keys.c: each run in small, each page's key (cache.h) ----- */

/* Before the archive loads, with several processes (report_opts.jobs):
 * the digest of every run of the archive that has none in the cache (every
 * run, with --full) made and saved, so that the loading reads them. */
int report_warm(report_ctx *x, err *e);
/* archive_load's hooks (archive_hooks): a run given on the command line
 * (an import is placed, then kept small), and a run of the archive (its
 * digest from the cache when the cache has one for these very results,
 * else loaded whole and kept small). */
int report_on_given(void *ctx, archive *a, int i, err *e);
int report_on_archived(void *ctx, const char *out, const char *id, archive_run *u, err *e);
/* The archive in order: x->dg and x->key follow x->a (and the arrays of
 * x with a.n entries are allocated). */
int report_match_sides(report_ctx *x, err *e);
/* The key of everything run k's pages are made of besides its own
 * results: the previous run of its host (the comparison), its neighbours
 * in the archive (their entries), its archive page, the changes found at
 * it, whether it is in the feed, the site's settings and templates. */
void report_page_key(const report_ctx *x, int k, cache_key *pk);
/* x->site_key: the settings and the templates every page is made with. */
int report_site_key(report_ctx *x, err *e);

/* ---- report_run.c: a run's page ------------------------------------- */

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
/* The annotation of run k (its full model, findings and comparison in
 * place).  prefix: from the page to OUT/; chart links get chart_prefix
 * (prefix + "runs/<id>/" unless the page is beside them); front: the
 * page is the front page. */
xmlNodePtr report_annotate_run(const report_ctx *x, int k, const char *prefix,
                               const char *chart_prefix, int front);
/* Run k's page: OUT/runs/<id>/index.html, or OUT/index.html (index 1,
 * with the hosts' charts when hosts is not NULL), into box. */
int report_run_page(report_ctx *x, int k, int index, const results *hosts, int nhosts,
                    const char *unlike, site_outbox *box, err *e);
/* Run k's own files into x->box: results.csv, results.json, summary.md,
 * style.css, its networks' pages and its page. */
int report_render_run(report_ctx *x, int k, err *e);

/* ---- report_share.c: a run's page as one file ---------------------- */

/* BE_EUSAGE unless o names exactly one run, and it is a file, a
 * directory or a run of OUT's archive: checked before anything is
 * written. */
int report_share_check(const report_opts *o, err *e);
/* Run k (loaded whole, as for its page) as one file into x->box:
 * OUT/share/<id>.html, its path into path. */
int report_render_share(report_ctx *x, int k, char *path, size_t size, err *e);

/* ---- report_jobs.c: runs rendered by several processes ------------- */

/* The processes a report's runs are shared among (report_opts.jobs; 0:
 * one per CPU online), 1 to 64. */
int report_jobs_wanted(const report_ctx *x);
/* Runs work(x, share, n) for every share of n = report_jobs_wanted(x):
 * share 0 here, the others each in a process forked for it.  *all: every
 * share returned BE_OK.  Returns BE_EINTR when stopped, else BE_OK (a
 * helper that failed only clears *all). */
int report_in_shares(report_ctx *x, int (*work)(report_ctx *x, int share, int n), int *all, err *e);
/* Renders run k whole (its pages, its comparison, its feed item). */
typedef int (*report_render_fn)(report_ctx *x, int k, err *e);
/* Renders every run k with x->fresh[k] by render, with up to x->o->jobs
 * processes (0: one per CPU online), the runs an import, the front page
 * or the feed need here.  A run that cannot be rendered stops the
 * process that met it: *failed is the earliest such run (its index,
 * *why says why), -1 when none.  BE_EINTR when stopped; BE_EFAIL when a
 * helper ended before it finished; BE_EIO (with *failed -1) when OUT
 * could not be written, which is no run's defect. */
int report_render_fresh(report_ctx *x, report_render_fn render, int *failed, err *why, err *e);

/* ---- report_compare.c ----------------------------------------------- */

/* Renders OUT/compare/<a>..<b>.html into box, and draws its chart (in
 * place) when draw, else it is there and current; page, when not NULL,
 * receives its path. */
int report_render_compare(const site *s, const char *out, const compare_set *c, const results *a,
                          const results *b, int draw, site_outbox *box, char *page, size_t size,
                          err *e);

/* After a report is published: the comparison pages and charts in
 * OUT/compare (named "A..B.html", "A..B.png", "A..B-narrow.png") of a run
 * removed from the archive since (its directory gone from OUT/runs, its
 * digest still in OUT/.cache), with their marks.  Only those names, only
 * regular files, in directories opened through no link (fsx.h). */
void report_prune_compare(const char *out);

/* ---- report_history.c ----------------------------------------------- */

/* OUT/history.html into x->box, and its charts (drawn in place). */
int report_render_history(report_ctx *x, err *e);

/* ---- report_feed.c -------------------------------------------------- */

/* Run k's feed item as the cache keeps it (*item, malloc'd): run k's full
 * model, findings and comparison in place. */
int report_item_make(const report_ctx *x, int k, char **item, err *e);
/* OUT/feed.xml into x->box, from x->items. */
int report_render_feed(report_ctx *x, err *e);

#endif
