/*
 * report.h — the published side of breakeven: the HTML report of each run,
 * the index page with the archive of runs, the comparison pages, the RSS
 * feed and the CSV export.
 *
 * Owns everything under OUT/ but the results files themselves: it reads
 * results.xml files (through results_load, schema and all), never runs a
 * benchmark, and builds each page as a tree: the results XML plus an
 * <annotation> of derived facts (chart files, the generated sentences, the
 * tables, the archive links) go through the XSLT 1.0 stylesheets in
 * templates/, so that escaping is correct by construction and users restyle
 * the report without recompiling.  Every file goes through fsx_write_atomic,
 * and the index page and the feed are written last, so a failure leaves the
 * previous ones intact.
 */
#ifndef BE_REPORT_H
#define BE_REPORT_H

#include <stddef.h>

#include "compare.h"
#include "results.h"

typedef struct report_opts {
    const char *out;              /* OUT                                      */
    const char *const *runs;      /* run ids or paths (not owned)             */
    int nruns;                    /* 0: every run under OUT/runs/             */
    const char *base_url;         /* "" or NULL: relative links               */
    const char *title, *author;   /* NULL or "": defaults                     */
    const char *data_dir;         /* templates/ and assets/; NULL: search     */
} report_opts;

/* Where templates/ and assets/ are: data_dir when given, else
 * $BREAKEVEN_DATA, else the directory of the running executable when it
 * holds templates/ (the in-tree ./breakeven), else BE_DATADIR (the
 * installed $(PREFIX)/share/breakeven).  BE_EFAIL naming what was tried. */
int report_data_dir(const char *data_dir, char *buf, size_t size, err *e);

/* Draws every chart of r into dir (PNG and SVG): per measured mode the
 * throughput, speed ratio, winner map, relative time and, with prices, cost
 * charts.  *count receives the number of charts drawn. */
int report_charts(const results *r, const char *dir, int *count, err *e);

/* The points of r as CSV (RFC 4180, a header line); *csv is the caller's
 * to free. */
int report_csv(const results *r, char **csv, size_t *len, err *e);

/* Writes the report of o->runs (see report_opts): OUT/runs/<id>/index.html,
 * results.csv and style.css for each run, OUT/compare/<a>..<b>.html for
 * each run and the previous one on the same host, then OUT/index.html and
 * OUT/feed.xml.  index receives the path of OUT/index.html. */
int report_write(const report_opts *o, char *index, size_t size, err *e);

/* `breakeven compare A B`: loads both runs (ids under OUT/runs/ or paths),
 * compares them into *cmp (the caller frees it with compare_free) and
 * writes OUT/compare/<a>..<b>.html with its change chart; page receives
 * the page's path. */
int report_compare(const report_opts *o, const char *a, const char *b, compare_set *cmp,
                   char *page, size_t size, err *e);

#endif
