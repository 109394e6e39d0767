/*
 * archpages.h — the archive of runs as pages that do not grow with it:
 * OUT/archive/page-<k>.html, fifty runs each by default, and the short
 * archive list of a run's page (its neighbours) and of the front page (the
 * newest runs).
 *
 * Pages are numbered from the oldest runs, so adding a run changes only
 * the newest page (and, when it starts a page, the one before it): page 1
 * always holds the first runs of the archive.  OUT/archive/index.html is
 * the newest page again, the address every other page links to.  A run's
 * page links to the page that holds it.  The entries are facts of the
 * model (prose_answer, its date and host); report.c places the list in a
 * run's annotation, and this module renders the pages with
 * templates/archive.xsl.  Lower layers only: archive.h, cache.h,
 * site.h.
 */
#ifndef BE_ARCHPAGES_H
#define BE_ARCHPAGES_H

#include "archive.h"
#include "cache.h"
#include "site.h"

#define ARCHPAGES_RUNS 50  /* runs per archive page, by default */
#define ARCHPAGES_FRONT 10 /* the newest runs listed on the front page */

/* The number of the page (1 = the oldest runs) that holds run i of n. */
int archpages_page_of(int i, int per_page);

/* The <archive> element of a page under parent: with front, the newest
 * ARCHPAGES_FRONT runs; else run current and the runs before and after it
 * in the archive (by start time, every host).  Each entry links to its
 * run, relative to the page (prefix: the way from the page to OUT/); the
 * element names the number of runs and the archive page of current. */
void archpages_list(xmlNodePtr parent, const archive *a, const cache_digest *dg, int current,
                    int front, int per_page, const char *prefix);

/* Stages OUT/archive/page-<k>.html for every page k (per_page runs each,
 * ARCHPAGES_RUNS when 0) and OUT/archive/index.html, the newest page. */
int archpages_render(const site *s, const archive *a, const cache_digest *dg, const char *out,
                     int per_page, site_outbox *box, err *e);

#endif
