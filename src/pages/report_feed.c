/*
 * report_feed.c — OUT/feed.xml (see report_impl.h): an item per run of
 * the newest ones, and one per change the history found at them.  The
 * feed is built as the pages are, from a <feed> document whose items
 * carry each run's article (its page's, serialized as HTML) as text:
 * libxml2 escapes it, so no CDATA section (and no "]]>" in one) is ever
 * involved.  An item is made while its run is loaded whole, and kept in
 * the cache with its pages' key (report_item_make).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLtree.h>

#include "fmt.h"
#include "prose.h"
#include "query.h"
#include "version.h"
#include "workload.h"

/* The first <article> element under n, depth first, or NULL. */
static xmlNodePtr find_article(xmlNodePtr n)
{
    while (n) {
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST "article"))
            return n;
        if (n->children) {
            n = n->children;
            continue;
        }
        while (n && !n->next)
            n = n->parent;
        if (n)
            n = n->next;
    }
    return NULL;
}

/* Drops the hover text of the table cells under n (each time's interval
 * in words, which the cell also shows as text): a feed reader shows no
 * hover, and it was a third of the feed's bytes. */
static void drop_cell_titles(xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrEqual(n->name, BAD_CAST "td"))
            xmlUnsetProp(n, BAD_CAST "title");
        drop_cell_titles(n->children);
    }
}

/* The <article> of run k's page, serialized as HTML, links made absolute
 * (or relative to OUT/ without a base URL); *out is the caller's. */
static int article_html(const report_ctx *x, int k, char **out, err *e)
{
    const results *r = x->a.v[k].r;
    char prefix[1400], chart_prefix[1600];
    xmlDocPtr doc, res = NULL;
    xmlChar *html = NULL;
    xmlNodePtr n;
    xmlBufferPtr buf;
    int len, rc;

    snprintf(prefix, sizeof prefix, "%s", x->s.base);
    snprintf(chart_prefix, sizeof chart_prefix, "%sruns/%s/", x->s.base, r->prov.id);
    doc = site_page(&x->s, "feed-item", report_annotate_run(x, k, prefix, chart_prefix, 0), NULL,
                    "style.css", "index.html", "feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    rc = site_transform(&x->s, x->s.run_xsl, doc, "feed item", &html, &len, &res, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    xmlFree(html);
    if (!(n = find_article(xmlDocGetRootElement(res)))) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "templates/run.xsl: the page has no <article> for the feed");
    }
    if (!(buf = xmlBufferCreate())) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    drop_cell_titles(n->children);
    htmlNodeDump(buf, res, n);
    *out = strdup((const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
    xmlFreeDoc(res);
    return *out ? BE_OK : err_set(e, BE_EFAIL, "out of memory");
}

/* Run k's feed item as the cache keeps it: its title (the verdict), its
 * description (the caveats and the warnings first, the answer, and what changed since the
 * previous run) and its article, apart by ITEM_SEP; run k's full model,
 * findings and comparison in place. */
#define ITEM_SEP '\x1e'
int report_item_make(const report_ctx *x, int k, char **item, err *e)
{
    const results *r = x->a.v[k].r;
    const cmp_slot *cs = x->cmp;
    char *body = NULL, title[1024], buf[8192], warn[MAX_WARNINGS][PROSE_WARNING];
    char caveat[MAX_WARNINGS][PROSE_CAVEAT];
    size_t n, nt;
    int rc, i, nw;
    if ((rc = article_html(x, k, &body, e)) < 0)
        return rc;
    /* the title says the verdict (and that a run is partial) */
    report_page_title(x, k, title, sizeof title);
    buf[0] = '\0';
    /* the caveats before anything, as on the page */
    nw = prose_caveats(r, caveat, MAX_WARNINGS);
    for (i = 0; i < nw; i++)
        fmt_append(buf, sizeof buf, "%s ", caveat[i]);
    nw = prose_warnings(r, warn, MAX_WARNINGS);
    for (i = 0; i < nw; i++)
        fmt_append(buf, sizeof buf, "Warning: %s ", warn[i]);
    n = strlen(buf);
    prose_answer(r, &x->F[k], buf + n, sizeof buf - n);
    if (cs->has && (cs->cmp.verdict == CMP_SLOWER || cs->cmp.verdict == CMP_FASTER)) {
        char sum[2048];
        compare_summary(&cs->cmp, sum, sizeof sum);
        fmt_append(buf, sizeof buf, " Since the previous run on %s: %s.", q_machine_name(r), sum);
    }
    nt = strlen(title);
    n = strlen(buf);
    if (!(*item = malloc(nt + n + strlen(body) + 3))) {
        free(body);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    memcpy(*item, title, nt);
    (*item)[nt] = ITEM_SEP;
    memcpy(*item + nt + 1, buf, n);
    (*item)[nt + 1 + n] = ITEM_SEP;
    strcpy(*item + nt + n + 2, body);
    free(body);
    return BE_OK;
}

/* One <item> of the feed: run k, from its item (report_item_make). */
static int add_item(const report_ctx *x, xmlNodePtr feed, int k, const char *item, err *e)
{
    const results *r = x->a.v[k].r;
    const char *base = x->s.base, *sep = strchr(item, ITEM_SEP), *sep2;
    xmlNodePtr it = site_add(feed, "item", NULL);
    char *html = NULL, buf[8192];
    int rc;
    if (!sep || !(sep2 = strchr(sep + 1, ITEM_SEP)))
        return err_set(e, BE_EFAIL, "run %s: its feed item is damaged", r->prov.id);
    /* feed readers render a title and a description as HTML: each is text
     * made HTML (escaped) by libxml2's serializer, then escaped again as
     * XML by the feed's own */
    snprintf(buf, sizeof buf, "%.*s", (int)(sep - item), item);
    if ((rc = site_html_text(buf, 0, &html, e)) < 0)
        return rc;
    site_attr(it, "title", html);
    free(html);
    site_attrf(it, "link", "%sruns/%s/index.html", base, r->prov.id);
    /* the run alone names its item, so that a feed reader never sees a
     * published item again as new when the base URL is given or changes */
    site_attrf(it, "guid", "breakeven:run:%s", r->prov.id);
    site_attr(it, "permalink", "false");
    fmt_date_rfc822(buf, sizeof buf, r->prov.finished);
    site_attr(it, "pubdate", buf);
    snprintf(buf, sizeof buf, "%.*s", (int)(sep2 - sep - 1), sep + 1);
    if ((rc = site_html_text(buf, 1, &html, e)) < 0)
        return rc;
    site_add(it, "description", html);
    free(html);
    site_add(it, "content", sep2 + 1);
    return BE_OK;
}

/* One <item> per change the history found at one of the runs from oldest
 * on (archive indices), dated by the run it starts at:
 * its guid names that run, the series and the sub-series, so it stays the
 * same item for as long as the change is found. */
static int add_change_items(const report_ctx *x, xmlNodePtr feed, int oldest, err *e)
{
    char buf[HIST_TEXT + 64], *html = NULL;
    int i, j, rc;
    for (i = 0; i < x->h.n; i++) {
        const hist_series *s = &x->h.s[i];
        for (j = 0; j < s->nchanges; j++) {
            const hist_change *c = &s->changes[j];
            const results *r = s->runs[c->at];
            xmlNodePtr it;
            if (s->arch[c->at] < oldest)
                continue;
            it = site_add(feed, "item", NULL);
            if ((rc = site_html_text(c->title, 0, &html, e)) < 0)
                return rc;
            site_attr(it, "title", html);
            free(html);
            site_attrf(it, "link", "%shistory.html#%s", x->s.base, s->anchor);
            site_attrf(it, "guid", "breakeven:change:%s:%s:%s:%s:%s", r->prov.id,
                       workload_mode_name(s->mode), s->base, s->other, c->key);
            site_attr(it, "permalink", "false");
            fmt_date_rfc822(buf, sizeof buf, r->prov.finished);
            site_attr(it, "pubdate", buf);
            snprintf(buf, sizeof buf, "Change detected: %s", c->text);
            if ((rc = site_html_text(buf, 1, &html, e)) < 0)
                return rc;
            site_add(it, "description", html);
            free(html);
        }
    }
    return BE_OK;
}

int report_render_feed(report_ctx *x, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr feed, ch;
    const results *newest = x->a.v[x->a.n - 1].r;
    char buf[2048], p[PATHMAX], *title = NULL;
    int i, rc, oldest = report_feed_oldest(x);

    if (!doc || !(feed = xmlNewNode(NULL, BAD_CAST "feed"))) {
        xmlFreeDoc(doc);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    xmlDocSetRootElement(doc, feed);
    ch = site_add(feed, "channel", NULL);
    if ((rc = site_html_text(x->s.title[0] ? x->s.title : "breakeven: CPU or GPU, measured", 0,
                             &title, e)) < 0) {
        xmlFreeDoc(doc);
        return rc;
    }
    site_attr(ch, "title", title);
    free(title);
    site_attrf(ch, "link", "%sindex.html", x->s.base);
    site_attrf(ch, "self", "%sfeed.xml", x->s.base);
    site_attr(ch, "description",
              "When the GPU beats the CPU for stacks of dense layers, "
              "measured by breakeven on real machines: one item per run, the newest ones; "
              "older runs are on the archive pages.");
    site_attrf(ch, "generator", "breakeven %s", BE_VERSION);
    fmt_date_rfc822(buf, sizeof buf, newest->prov.finished);
    site_attr(ch, "last-build", buf);
    site_attr(ch, "author", x->s.author);
    for (i = x->a.n - 1; i >= oldest; i--)
        if ((rc = add_item(x, feed, i, x->items[i], e)) < 0) {
            xmlFreeDoc(doc);
            return rc;
        }
    if ((rc = add_change_items(x, feed, oldest, e)) < 0) {
        xmlFreeDoc(doc);
        return rc;
    }
    snprintf(p, sizeof p, "%s/feed.xml", x->o->out);
    return report_put_page(&x->s, &x->box, x->s.feed_xsl, doc, p, e);
}
