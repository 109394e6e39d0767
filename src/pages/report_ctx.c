/*
 * report_ctx.c — what the stages of a report share (see report_ctx.h):
 * whether a signal asked to stop, the window of the feed, the places a
 * report writes at in OUT and what it notes to undo there, a run's title,
 * a page staged, a chart's links.  It calls nothing of the report above
 * it.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_ctx.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "figure.h"
#include "fsx.h"
#include "prose.h"
#include "utf8.h"

/* BE_EINTR when a signal asked to stop (stop.h). */
int report_stopped(const report_ctx *x, err *e)
{
    if (x->o->stop && *x->o->stop)
        return err_set(e, BE_EINTR,
                       "interrupted: the report was not written; the previous one "
                       "is intact");
    return BE_OK;
}

/* The oldest run (archive index) of the feed. */
int report_feed_oldest(const report_ctx *x)
{
    int n = x->a.n - (x->o->feed_items > 0 ? x->o->feed_items : SITE_FEED_ITEMS);
    return n < 0 ? 0 : n;
}

/* ---- OUT, before anything is written --------------------------------- */

/* The places a report writes at in OUT, checked before anything is drawn
 * or rendered: a link planted at one of them, or at a directory on the
 * way, refuses the report with OUT as it was (site_flush checks every
 * staged file again before the first is written). */
int report_check_out(const char *out, err *e)
{
    static const char *const fixed[] = {
        "index.html",   "feed.xml",  "style.css",       "results.csv",       "fits.csv",
        "history.html", "site.conf", "runs/index.html", "history/style.css", "compare/style.css",
    };
    static const char *const chart_dirs[] = {"", "history", "compare", "runs"};
    char p[PATHMAX];
    size_t i;
    int rc;
    for (i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        snprintf(p, sizeof p, "%s/%s", out, fixed[i]);
        if ((rc = fsx_check_in(out, p, e)) < 0)
            return rc;
    }
    /* the charts' names depend on the data: every PNG where charts go,
     * each run's too (before the archive is read, which writes the cache) */
    for (i = 0; i < sizeof chart_dirs / sizeof *chart_dirs; i++) {
        snprintf(p, sizeof p, "%s%s%s", out, *chart_dirs[i] ? "/" : "", chart_dirs[i]);
        if ((rc = fsx_check_links_in(out, p, ".png", strcmp(chart_dirs[i], "runs") == 0, e)) < 0)
            return rc;
    }
    return BE_OK;
}

/* Once every check passed: what a killed report, run or import left in
 * the directories of OUT this report writes (runs: NULL for none), so
 * that a SIGKILL's temporaries do not stay forever (fsx_sweep_in). */
int report_sweep_out(const char *out, const archive *a, err *e)
{
    static const char *const dirs[] = {"", "runs", "history", "compare", "share", CACHE_DIR};
    char p[PATHMAX];
    size_t i;
    int k, rc;
    for (i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s%s%s", out, *dirs[i] ? "/" : "", dirs[i]);
        if ((rc = fsx_sweep_in(out, p, e)) < 0)
            return rc;
    }
    for (k = 0; a && k < a->n; k++)
        if (fsx_inside(out, a->v[k].dir) && (rc = fsx_sweep_in(out, a->v[k].dir, e)) < 0)
            return rc;
    return BE_OK;
}

int report_undo_begin(undo *u, const char *out, int runs, err *e)
{
    static const char *const dirs[] = {"", "history", "compare", CACHE_DIR};
    return undo_begin_in(u, out, dirs, sizeof dirs / sizeof *dirs, runs, e);
}

/* ---- pages and charts --------------------------------------------------- */

/* Run k's title, its page's and its feed item's (prose_title), as one
 * line (a host name from a results file may hold a line break). */
void report_page_title(const report_ctx *x, int k, char *buf, size_t size)
{
    char raw[1024];
    prose_title(x->s.title, x->a.v[k].r, &x->F[k], raw, sizeof raw);
    utf8_line(buf, size, raw);
}

/* Applies xsl to doc (freed here) and stages the page at path in box. */
int report_put_page(const site *s, site_outbox *box, xsltStylesheetPtr xsl, xmlDocPtr doc,
                    const char *path, err *e)
{
    xmlChar *html = NULL;
    int len, rc = site_transform(s, xsl, doc, path, &html, &len, NULL, e);
    xmlFreeDoc(doc);
    return rc < 0 ? rc : site_put_xml(box, path, html, len, e);
}

/* The link attributes of a chart element: href_base + ".png", shown and
 * linked (at FIGURE_SCALE, a closer look), with the chart's size in CSS pixels, and the same for its narrow
 * rendering when file_base (the chart's path, without extension) has one. */
void report_chart_links(xmlNodePtr c, const char *file_base, const char *href_base)
{
    char p[PATHMAX];
    int w, h;
    err e;
    site_attrf(c, "png", "%s.png", href_base);
    snprintf(p, sizeof p, "%s.png", file_base);
    if (chart_png_size(p, &w, &h, &e) == BE_OK) {
        site_attrf(c, "width", "%.0f", w / FIGURE_SCALE);
        site_attrf(c, "height", "%.0f", h / FIGURE_SCALE);
    } else {
        site_attrf(c, "width", "%.0f", FIGURE_WIDTH);
        site_attrf(c, "height", "%.0f", FIGURE_HEIGHT);
    }
    snprintf(p, sizeof p, "%s" FIGURE_NARROW_SUFFIX ".png", file_base);
    if (chart_png_size(p, &w, &h, &e) == BE_OK) {
        site_attrf(c, "narrow-png", "%s" FIGURE_NARROW_SUFFIX ".png", href_base);
        site_attrf(c, "narrow-width", "%.0f", w / FIGURE_NARROW_SCALE);
        site_attrf(c, "narrow-height", "%.0f", h / FIGURE_NARROW_SCALE);
    }
}

/* Whether the charts at each of the n bases (without extension) are all
 * there, wide and narrow. */
int report_charts_exist(const char *const *base, int n)
{
    char p[PATHMAX + 32];
    int i;
    for (i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s.png", base[i]);
        if (access(p, F_OK) != 0)
            return 0;
        snprintf(p, sizeof p, "%s" FIGURE_NARROW_SUFFIX ".png", base[i]);
        if (access(p, F_OK) != 0)
            return 0;
    }
    return 1;
}
