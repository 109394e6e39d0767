/*
 * report_share.c — one run's page as one file (see report_impl.h), for
 * `report --single-file RUN`: OUT/share/<id>.html, to attach to a mail or
 * a chat, opened where no other file of the report is.
 *
 * It is the run's page as the site shows it (report_annotate_run, run.xsl),
 * with what the page loads put inside it: each chart, wide and narrow, as
 * a data: URI of its PNG, and the stylesheet in a <style> that the page's
 * Content-Security-Policy allows by its SHA-256 alone (common.xsl), so
 * that the policy still allows nothing else.  With a base URL its links
 * lead to the published site; without one there is no site to lead to,
 * and the template leaves them as text.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base64.h"
#include "fsx.h"
#include "infile.h"
#include "sha256.h"

/* A chart's PNG is never near this; a file that is is no chart of ours. */
#define SHARE_PNG_MAX (32UL * 1024 * 1024)

int report_share_check(const report_opts *o, err *e)
{
    char dir[PATHMAX];
    err ignore;
    if (o->nruns != 1)
        return err_set(e, BE_EUSAGE,
                       "--single-file: name the one run to write as one file "
                       "(report --single-file RUN), not %d",
                       o->nruns);
    /* a file or a directory given is loaded as any run given is (a failure
     * to load it is the loader's); else it is an id of OUT's archive */
    if (access(o->runs[0], F_OK) == 0)
        return BE_OK;
    snprintf(dir, sizeof dir, "%s/runs/%s", o->out, o->runs[0]);
    if (strchr(o->runs[0], '/') || fsx_real_dir(dir, &ignore) < 0)
        return err_set(e, BE_EUSAGE,
                       "--single-file: \"%s\" is no run of %s/runs/ and no results file",
                       o->runs[0], o->out);
    return BE_OK;
}

/* The attribute from of chart c (a link: prefix + the chart's file name),
 * read from the run's directory files and set as the data: URI to. */
static int inline_png(xmlNodePtr c, const char *from, const char *to, const char *prefix,
                      const char *files, err *e)
{
    static const char sig[] = "\x89PNG\r\n\x1a\n", head[] = "data:image/png;base64,";
    xmlChar *href = xmlGetProp(c, BAD_CAST from);
    char path[PATHMAX], *png = NULL, *uri = NULL;
    size_t len, n = strlen(prefix);
    int rc = BE_OK;
    if (!href)
        return BE_OK;
    if (strncmp((const char *)href, prefix, n) != 0 || strchr((const char *)href + n, '/')) {
        rc = err_set(e, BE_EFAIL, "%s: a chart of the page outside the run's directory",
                     (const char *)href);
        goto done;
    }
    snprintf(path, sizeof path, "%s/%s", files, (const char *)href + n);
    if ((rc = infile_read(path, SHARE_PNG_MAX, INFILE_NOFOLLOW | INFILE_NONEMPTY, &png, &len, e)) <
        0)
        goto done;
    if (len < sizeof sig - 1 || memcmp(png, sig, sizeof sig - 1) != 0) {
        rc = err_set(e, BE_EFAIL, "%s: not a PNG file", path);
        goto done;
    }
    if (!(uri = malloc(sizeof head + base64_len(len)))) {
        rc = err_set(e, BE_EFAIL, "%s: out of memory inlining it", path);
        goto done;
    }
    memcpy(uri, head, sizeof head - 1);
    base64_encode(png, len, uri + sizeof head - 1);
    site_attr(c, to, uri);
done:
    xmlFree(href);
    free(png);
    free(uri);
    return rc;
}

/* Every chart under n, wide and narrow, inside the page. */
static int inline_charts(xmlNodePtr n, const char *prefix, const char *files, err *e)
{
    int rc;
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_CAST "chart") == 0 &&
            ((rc = inline_png(n, "png", "src", prefix, files, e)) < 0 ||
             (rc = inline_png(n, "narrow-png", "narrow-src", prefix, files, e)) < 0))
            return rc;
        if ((rc = inline_charts(n->children, prefix, files, e)) < 0)
            return rc;
    }
    return BE_OK;
}

/* The stylesheet as the page holds it, under /page/inline, with the hash
 * its policy allows it by.  Its line ends made LF, as an HTML parser makes
 * them before the browser hashes the text; a stylesheet that would end its
 * <style> early, or is no valid UTF-8, is refused (its hash would not be
 * that of the text the browser sees). */
static int inline_style(const site *s, xmlDocPtr doc, err *e)
{
    unsigned char digest[SHA256_BYTES];
    char *css = malloc(s->css_len + 1), hash[8 + 48];
    const char *p;
    size_t n = 0, i;
    xmlNodePtr in;
    if (!css)
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < s->css_len; i++)
        if (s->css[i] != '\r')
            css[n++] = s->css[i];
        else if (i + 1 == s->css_len || s->css[i + 1] != '\n')
            css[n++] = '\n';
    css[n] = '\0';
    for (p = css; (p = strstr(p, "</")) && strncasecmp(p + 2, "style", 5) != 0; p += 2)
        ;
    if (p || infile_text_ok("style.css", css, n, e) < 0) {
        free(css);
        return err_set(e, BE_EFAIL,
                       "%s/assets/style.css: cannot go inside the page (it holds a NUL byte, "
                       "invalid UTF-8 or \"</style\")",
                       s->data);
    }
    sha256(css, n, digest);
    memcpy(hash, "sha256-", 7);
    base64_encode(digest, sizeof digest, hash + 7);
    in = site_add(xmlDocGetRootElement(doc), "inline", NULL);
    site_attr(in, "style-hash", hash);
    site_add(in, "style", css);
    free(css);
    return site_tree_failed(in) ? err_set(e, BE_EFAIL, "out of memory") : BE_OK;
}

int report_render_share(report_ctx *x, int k, char *path, size_t size, err *e)
{
    const archive_run *u = &x->a.v[k];
    const char *id = u->r->prov.id, *base = x->s.base;
    char charts[1400], self[300], home[1100], feed[1100];
    xmlNodePtr a;
    xmlDocPtr doc;
    int rc;
    /* from the single file, the site is at the base URL, or nowhere */
    snprintf(charts, sizeof charts, "%s%s%s%s", base, base[0] ? "runs/" : "", base[0] ? id : "",
             base[0] ? "/" : "");
    snprintf(self, sizeof self, "runs/%s/index.html", id);
    snprintf(home, sizeof home, "%s%s", base, base[0] ? "index.html" : "");
    snprintf(feed, sizeof feed, "%s%s", base, base[0] ? "feed.xml" : "");
    a = report_annotate_run(x, k, base, charts, 0);
    if ((rc = inline_charts(a, charts, archive_files(u), e)) < 0) {
        xmlFreeNode(a);
        return rc;
    }
    if (!(doc = site_page(&x->s, "single", a, self, "", home, feed, e)))
        return BE_EFAIL;
    if ((rc = inline_style(&x->s, doc, e)) < 0) {
        xmlFreeDoc(doc);
        return rc;
    }
    snprintf(path, size, "%s/share/%s.html", x->o->out, id);
    return report_put_page(&x->s, &x->box, x->s.run_xsl, doc, path, e);
}
