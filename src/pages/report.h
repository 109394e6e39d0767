/*
 * report.h — the published side of breakeven: the HTML report of each run,
 * the index page with the archive of runs, the comparison pages, the RSS
 * feed, with the CSV export beside each run.
 *
 * Owns everything under OUT/ but the results files themselves: it reads
 * the runs through archive.h (results_load, schema and all), never runs a
 * benchmark, and builds each page as a tree: an <annotation> of the facts
 * derived from the model (the run's provenance, chart files, the sentences
 * of prose.h, the tables, the archive links) goes through the XSLT 1.0
 * stylesheets in templates/ (site.h), so that escaping is correct by
 * construction and users restyle the report without recompiling.  The
 * files of a report are published as one set (site_flush), so a failure
 * leaves the previous site intact; only the pages a change touches are
 * rendered again (cache.h, docs/archive.md).  The pieces:
 * site.h (templates, XSLT, staged files), archive.h (the runs), prose.h
 * (the words), runcharts.h (the charts of a run), csv.h (the CSV).
 */
#ifndef BE_REPORT_H
#define BE_REPORT_H

#include <signal.h>
#include <stddef.h>

#include "compare.h"

/* A warning for the user, one line: a run skipped, or imported under a
 * new id (see archive.h). */
typedef void (*report_warn_fn)(void *ctx, const char *line);

typedef struct report_opts {
    const char *out;            /* OUT                                      */
    const char *const *runs;    /* run ids or paths (not owned)             */
    int nruns;                  /* 0: every run under OUT/runs/             */
    const char *base_url;       /* "" or NULL: relative links               */
    const char *title, *author; /* NULL or "": defaults                     */
    const char *data_dir;       /* templates/ and assets/; NULL: search     */
    int feed_items;             /* runs in the feed, newest; 0: SITE_FEED_ITEMS */
    int archive_page;           /* runs per archive page; 0: ARCHPAGES_RUNS */
    int full;                   /* 1: render every page (no render cache) */
    int jobs;                   /* processes rendering runs' pages; 0: one per CPU */
    int single_file;            /* 1: also the one run given as one file (share_path) */
    char *share_path;           /* the caller's: receives OUT/share/<id>.html      */
    size_t share_size;
    volatile sig_atomic_t *stop; /* raised by SIGINT/SIGTERM/SIGHUP (NULL: never):
                                     BE_EINTR before the next file is written */
    report_warn_fn warn;         /* NULL: warnings are dropped               */
    void *warn_ctx;
} report_opts;

/* Writes the report of o->runs (see report_opts): OUT/runs/<id>/index.html,
 * results.csv and style.css for each run, OUT/compare/<a>..<b>.html for
 * each run and the previous one on the same host, then OUT/index.html, the
 * archive's pages (archpages.h), OUT/history.html and OUT/feed.xml (the
 * newest o->feed_items runs), and with o->single_file OUT/share/<id>.html,
 * the page of the one run given as one self-contained file (its path in
 * o->share_path; BE_EUSAGE, before anything is written, unless exactly one
 * run is given and it is a file, a directory or a run of OUT).  Pages whose key in the render cache
 * (OUT/.cache/, cache.h) is unchanged are not rendered again unless
 * o->full; both ways write the same bytes.  index receives the path of
 * OUT/index.html.  A run of the archive that cannot be loaded or rendered
 * is skipped (o->warn says so); a run imported from elsewhere that cannot
 * is refused, and enters OUT/runs/ only once everything has rendered.
 * Interrupted (o->stop) before the files are published, BE_EINTR: the site
 * is the previous one (site_flush publishes them as one set).  The caller
 * holds OUT's lock (outlock.h; the command takes it): the report finishes or
 * undoes the publish a killed writer left, which only the lock makes
 * sure is not a live writer's. */
int report_write(const report_opts *o, char *index, size_t size, err *e);

/* `breakeven compare A... -- B...`: loads the runs of each side (ids
 * under OUT/runs/ or paths), compares them with the options co into *cmp
 * (the caller frees it with compare_free), the runs of OUT's archive
 * offered as the run-to-run band (compare.h), and writes
 * OUT/compare/<a>..<b>.html (the first run of each side) with its change
 * chart; page receives the page's path.  The caller holds OUT's lock, as
 * for report_write. */
int report_compare(const report_opts *o, const char *const *a, int na, const char *const *b, int nb,
                   const compare_opts *co, compare_set *cmp, char *page, size_t size, err *e);

#endif
