/*
 * archpages.c — the archive's pages and the short lists (archpages.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "archpages.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "prose.h"
#include "query.h"
#include "fsx.h"

#define PATHMAX 4096

int archpages_page_of(int i, int per_page)
{
    return i / (per_page > 0 ? per_page : ARCHPAGES_RUNS) + 1;
}

/* One <entry>: run i, linked relative to the page. */
static void entry(xmlNodePtr ar, const archive *a, const cache_digest *dg, int i, int current,
                  const char *prefix)
{
    const results *r = a->v[i].r;
    char date[64], flags[400], warn[700];
    xmlNodePtr n = site_add(ar, "entry", NULL);
    /* what changes the meaning of its figures (synthetic, no GPU, old
     * kernels), then what warns of its measurements */
    prose_caveat_short(r, 0, warn, sizeof warn);
    prose_flags(r, flags, sizeof flags);
    if (warn[0] && flags[0])
        fmt_append(warn, sizeof warn, " %c%s", toupper((unsigned char)flags[0]), flags + 1);
    else if (flags[0])
        snprintf(warn, sizeof warn, "%s", flags);
    if (warn[0])
        site_attr(n, "warn", warn);
    fmt_date(date, sizeof date, r->prov.started);
    site_attrf(n, "href", "%sruns/%s/index.html", prefix, r->prov.id);
    site_attr(n, "id", r->prov.id);
    site_attr(n, "host", q_machine_name(r));
    site_attr(n, "date", date);
    site_attr(n, "answer", dg[i].answer);
    if (i == current)
        site_attr(n, "current", "yes");
}

void archpages_list(xmlNodePtr parent, const archive *a, const cache_digest *dg, int current,
                    int front, int per_page, const char *prefix)
{
    xmlNodePtr ar = site_add(parent, "archive", NULL);
    int i, lo = front ? a->n - ARCHPAGES_FRONT : current - 1, hi = front ? a->n - 1 : current + 1;
    if (lo < 0)
        lo = 0;
    if (hi > a->n - 1)
        hi = a->n - 1;
    site_attrf(ar, "runs", "%d", a->n);
    site_attrf(ar, "href", "%sarchive/index.html", prefix);
    site_attrf(ar, "page", "%sarchive/page-%d.html", prefix, archpages_page_of(current, per_page));
    site_attr(ar, "kind", front ? "newest" : "neighbours");
    for (i = hi; i >= lo; i--)
        entry(ar, a, dg, i, current, prefix);
}

/* Page k of npages: its runs newest first, links to the pages around it. */
static xmlNodePtr annotate_page(const archive *a, const cache_digest *dg, int k, int npages,
                                int per_page)
{
    xmlNodePtr an = xmlNewNode(NULL, BAD_CAST "annotation"), ar;
    int first = (k - 1) * per_page, last = k * per_page - 1, i;
    char buf[200];
    if (last > a->n - 1)
        last = a->n - 1;
    snprintf(buf, sizeof buf, "Archive: runs %d to %d of %d", first + 1, last + 1, a->n);
    site_add(an, "title", buf);
    site_attrf(an, "page", "%d", k);
    site_attrf(an, "pages", "%d", npages);
    if (k < npages) {
        site_attrf(an, "newer", "page-%d.html", k + 1);
        site_attr(an, "newest", "index.html");
    }
    if (k > 1) {
        site_attrf(an, "older", "page-%d.html", k - 1);
        site_attr(an, "oldest", "page-1.html");
    }
    ar = site_add(an, "archive", NULL);
    for (i = last; i >= first; i--)
        entry(ar, a, dg, i, -1, "../");
    return an;
}

int archpages_render(const site *s, const archive *a, const cache_digest *dg, const char *out,
                     int per_page, site_outbox *box, err *e)
{
    char p[PATHMAX];
    int k, npages, rc;
    if (per_page <= 0)
        per_page = ARCHPAGES_RUNS;
    npages = archpages_page_of(a->n - 1, per_page);
    snprintf(p, sizeof p, "%s/archive", out);
    if ((rc = fsx_mkdirs_in(out, p, e)) < 0)
        return rc;
    for (k = 1; k <= npages; k++) {
        xmlChar *html = NULL;
        char self[64];
        int len, n;
        xmlDocPtr doc;
        /* its own address: archive/index.html is a copy of the newest page */
        snprintf(self, sizeof self, "archive/page-%d.html", k);
        if ((rc = site_page_below(s, "archive", annotate_page(a, dg, k, npages, per_page), out,
                                  self, "../style.css", &doc, p, sizeof p, e)) < 0)
            return rc;
        rc = site_transform(s, s->archive_xsl, doc, p, &html, &len, NULL, e);
        xmlFreeDoc(doc);
        if (rc < 0)
            return rc;
        /* the newest page twice: as itself and as the archive's address */
        for (n = k == npages ? 2 : 1; n > 0; n--) {
            xmlChar *copy = n == 2 ? xmlStrndup(html, len) : html;
            if (!copy) {
                xmlFree(html);
                return err_set(e, BE_EFAIL, "out of memory");
            }
            if (n == 2)
                snprintf(p, sizeof p, "%s/archive/index.html", out);
            else
                snprintf(p, sizeof p, "%s/archive/page-%d.html", out, k);
            if ((rc = site_put_xml(box, p, copy, len, e)) < 0) {
                if (n == 2)
                    xmlFree(html);
                return rc;
            }
        }
    }
    return BE_OK;
}
