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
 * feed and its items; report_share.c a run's page as one file.  What
 * they all read and call, the report_ctx and its helpers, lives below them
 * in report_ctx.h: report.c calls the stages, and no stage calls back
 * into report.c.  The public interface is report.h.
 */
#ifndef BE_REPORT_IMPL_H
#define BE_REPORT_IMPL_H

#include "archive_place.h"
#include "report_ctx.h"

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
