/*
 * site.c — templates, XSLT and staged files (see site.h).
 */
#define _XOPEN_SOURCE 700 /* readlink */
#include "site.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxslt/transform.h>
#include <libxslt/xsltutils.h>

#include "fmt.h"
#include "fsx.h"
#include "grow.h"
#include "infile.h"
#include "utf8.h"
#include "version.h"

#include "datadir.h"

/* ---- where the templates are ----------------------------------------- */

static int has_data(const char *dir)
{
    char p[SITE_PATH];
    snprintf(p, sizeof p, "%s/templates/run.xsl", dir);
    return access(p, F_OK) == 0;
}

int site_data_dir(const char *data_dir, char *buf, size_t size, err *e)
{
    const char *env = getenv("BREAKEVEN_DATA");
    char exe[SITE_PATH];
    ssize_t n;

    if (data_dir && *data_dir) {
        if (!has_data(data_dir))
            return err_set(e, BE_EFAIL, "%s: no templates/run.xsl there", data_dir);
        snprintf(buf, size, "%s", data_dir);
        return BE_OK;
    }
    if (env && *env) {
        if (!has_data(env))
            return err_set(e, BE_EFAIL, "BREAKEVEN_DATA=%s: no templates/run.xsl there", env);
        snprintf(buf, size, "%s", env);
        return BE_OK;
    }
    /* the build tree first, so that ./breakeven never picks up the
     * templates of an older installed copy */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (has_data(exe)) {
                snprintf(buf, size, "%s", exe);
                return BE_OK;
            }
            /* an installed copy, wherever its prefix was moved: PREFIX/bin
             * beside PREFIX/share/breakeven */
            fmt_append(exe, sizeof exe, "/../share/breakeven");
            if (has_data(exe)) {
                snprintf(buf, size, "%s", exe);
                return BE_OK;
            }
        }
    }
    if (has_data(BE_DATADIR)) {
        snprintf(buf, size, "%s", BE_DATADIR);
        return BE_OK;
    }
    return err_set(e, BE_EFAIL,
                   "templates not found: tried $BREAKEVEN_DATA, the executable's "
                   "directory, ../share/breakeven beside it and %s (set BREAKEVEN_DATA to the "
                   "directory holding templates/ and assets/)",
                   BE_DATADIR);
}

int site_check_base_url(const char *url, err *e)
{
    if (!url || !*url)
        return BE_OK;
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
        return err_set(e, BE_EUSAGE, "--base-url: \"%s\" is not an http:// or https:// URL", url);
    if (strlen(url) >= 900 || strpbrk(url, " \t\r\n\"<>"))
        return err_set(e, BE_EUSAGE, "--base-url: \"%s\" is not a usable URL", url);
    return BE_OK;
}

/* ---- the settings of a site ------------------------------------------- */

/* feed-items: a whole number of runs, 1 to SITE_FEED_ITEMS_MAX. */
static int feed_items(const char *value, const char *path, int line, int *n, err *e)
{
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < 1 || v > SITE_FEED_ITEMS_MAX || value[0] == ' ')
        return err_set(e, BE_EFAIL, "%s:%d: feed-items is a number of runs from 1 to %d", path,
                       line, SITE_FEED_ITEMS_MAX);
    *n = (int)v;
    return BE_OK;
}

int site_settings_load(const char *out, site_settings *st, err *e)
{
    char path[SITE_PATH], *text = NULL;
    int rc;

    memset(st, 0, sizeof *st);
    snprintf(path, sizeof path, "%s/%s", out, SITE_SETTINGS_FILE);
    /* OUT as named; the file itself never a link (nor a FIFO, a device) */
    if ((rc = infile_read(path, SITE_SETTINGS_MAX, INFILE_TEXT | INFILE_NOFOLLOW | INFILE_OPTIONAL,
                          &text, NULL, e)) < 0 ||
        !text)
        return rc;
    rc = site_settings_parse(path, text, st, e);
    free(text);
    return rc;
}

int site_settings_parse(const char *path, char *text, site_settings *st, err *e)
{
    static const char *const keys[] = {"base-url", "title", "author"};
    char *line, *next;
    char *const dst[] = {st->base_url, st->title, st->author};
    const size_t size[] = {sizeof st->base_url, sizeof st->title, sizeof st->author};
    int rc, n = 0;
    size_t k;

    memset(st, 0, sizeof *st);
    for (line = text; line && *line; line = next) {
        char *value;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        n++;
        if (!*line || *line == '#')
            continue;
        value = strchr(line, ' ');
        if (value)
            *value++ = '\0';
        if (value && strcmp(line, "feed-items") == 0) {
            if ((rc = feed_items(value, path, n, &st->feed_items, e)) < 0)
                goto done;
            continue;
        }
        for (k = 0; k < sizeof keys / sizeof *keys && strcmp(line, keys[k]) != 0; k++)
            ;
        if (k == sizeof keys / sizeof *keys || !value) {
            char q[4 * INFILE_FRAGMENT + 8];
            infile_fragment(q, sizeof q, line, strlen(line));
            rc = err_set(e, BE_EFAIL,
                         "%s:%d: \"%s\" is not a setting (base-url, title, "
                         "author or feed-items, then a space and its value)",
                         path, n, q);
            goto done;
        }
        if (strlen(value) >= size[k] || !utf8_clean(value) || strpbrk(value, "\t\r") ||
            (k == 0 && site_check_base_url(value, e) < 0)) {
            rc = err_set(e, BE_EFAIL,
                         "%s:%d: the %s is not one line of valid UTF-8 of at most "
                         "%zu bytes%s",
                         path, n, keys[k], size[k] - 1,
                         k == 0 ? " and an http:// or https:// URL" : "");
            goto done;
        }
        snprintf(dst[k], size[k], "%s", value);
    }
    rc = BE_OK;
done:
    if (rc < 0)
        memset(st, 0, sizeof *st);
    return rc;
}

int site_settings_save(const char *out, const site_settings *st, err *e)
{
    char path[SITE_PATH], text[2048], items[32] = "";
    int n;
    snprintf(path, sizeof path, "%s/%s", out, SITE_SETTINGS_FILE);
    if (st->feed_items > 0)
        snprintf(items, sizeof items, "feed-items %d\n", st->feed_items);
    n = snprintf(text, sizeof text,
                 "# breakeven's settings of this report (--base-url, --title, --author):\n"
                 "# given once, they hold for every later command on this directory\n"
                 "%s%s%s%s%s%s%s%s%s%s",
                 st->base_url[0] ? "base-url " : "", st->base_url, st->base_url[0] ? "\n" : "",
                 st->title[0] ? "title " : "", st->title, st->title[0] ? "\n" : "",
                 st->author[0] ? "author " : "", st->author, st->author[0] ? "\n" : "", items);
    if (n < 0 || (size_t)n >= sizeof text)
        return err_set(e, BE_EFAIL, "%s: the settings are too long", path);
    return fsx_write_in(out, path, text, (size_t)n, e);
}

/* ---- errors ------------------------------------------------------------ */

/* Counts the errors of an open site (ctx) and keeps the first line of the
 * first, cut at its newline. */
static void keep_first(site *s, const char *line)
{
    s->xml_errors++;
    if (s->xml_err[0])
        return;
    snprintf(s->xml_err, sizeof s->xml_err, "%s", line);
    s->xml_err[strcspn(s->xml_err, "\n")] = '\0';
}

static void on_generic(void *ctx, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    keep_first(ctx, line);
}

static void on_structured(void *ctx, xmlErrorPtr xe)
{
    char line[512];
    if (!xe || !xe->message)
        return;
    snprintf(line, sizeof line, "%s:%d: %s", xe->file ? xe->file : "", xe->line, xe->message);
    keep_first(ctx, line);
}

/* ---- opening and closing ----------------------------------------------- */

static xsltStylesheetPtr load_xsl(site *s, const char *name, err *e)
{
    char p[SITE_PATH];
    xsltStylesheetPtr x;
    long errors;
    snprintf(p, sizeof p, "%s/templates/%s", s->data, name);
    if (access(p, F_OK) != 0) {
        err_set(e, BE_EFAIL, "%s: template missing", p);
        return NULL;
    }
    errors = s->xml_errors;
    x = xsltParseStylesheetFile(BAD_CAST p);
    /* an error reported on the way (libxml2 drops a text it could not
     * allocate, and goes on) makes the stylesheet unusable too */
    if (x && s->xml_errors != errors) {
        xsltFreeStylesheet(x);
        x = NULL;
    }
    if (!x)
        err_set(e, BE_EFAIL, "%s: not a usable XSLT stylesheet%s%s", p, s->xml_err[0] ? ": " : "",
                s->xml_err);
    return x;
}

int site_open(site *s, const char *data_dir, const char *base_url, const char *title,
              const char *author, err *e)
{
    char p[SITE_PATH];
    int rc;

    memset(s, 0, sizeof *s);
    utf8_line(s->title, sizeof s->title, title ? title : "");
    utf8_line(s->author, sizeof s->author, author ? author : "");
    if ((rc = site_check_base_url(base_url, e)) < 0)
        return rc;
    if (base_url && *base_url)
        snprintf(s->base, sizeof s->base, "%s%s", base_url,
                 base_url[strlen(base_url) - 1] == '/' ? "" : "/");
    xmlSetGenericErrorFunc(s, on_generic);
    xmlSetStructuredErrorFunc(s, on_structured);
    xsltSetGenericErrorFunc(s, on_generic);
    if ((rc = site_data_dir(data_dir, s->data, sizeof s->data, e)) < 0)
        goto fail;
    snprintf(p, sizeof p, "%s/assets/style.css", s->data);
    if ((rc = fsx_read_all(p, &s->css, &s->css_len, e)) < 0)
        goto fail;
    rc = BE_EFAIL;
    if (!(s->run_xsl = load_xsl(s, "run.xsl", e)) ||
        !(s->compare_xsl = load_xsl(s, "compare.xsl", e)) ||
        !(s->history_xsl = load_xsl(s, "history.xsl", e)) ||
        !(s->feed_xsl = load_xsl(s, "feed.xsl", e)) ||
        !(s->archive_xsl = load_xsl(s, "archive.xsl", e)) ||
        !(s->net_xsl = load_xsl(s, "net.xsl", e)))
        goto fail;
    return BE_OK;
fail:
    site_close(s);
    return rc;
}

void site_close(site *s)
{
    xsltStylesheetPtr xsl[] = {s->run_xsl,  s->compare_xsl, s->history_xsl,
                               s->feed_xsl, s->archive_xsl, s->net_xsl};
    size_t i;
    xmlSetGenericErrorFunc(NULL, NULL);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xsltSetGenericErrorFunc(NULL, NULL);
    for (i = 0; i < sizeof xsl / sizeof *xsl; i++)
        if (xsl[i])
            xsltFreeStylesheet(xsl[i]);
    free(s->css);
    memset(s, 0, sizeof *s);
}

/* ---- page documents -------------------------------------------------- */

/* Its address marks a tree in which an allocation failed. */
static const char tree_failed = 1;

static xmlNodePtr root_of(xmlNodePtr n)
{
    while (n && n->parent && n->parent->type == XML_ELEMENT_NODE)
        n = n->parent;
    return n;
}

/* An allocation failed while the tree of n was built: its root is marked
 * (its _private pointer, so no allocation is needed), and site_page and
 * site_transform refuse the tree rather than render a page with a part
 * missing.  A NULL n is the child of a failure marked already. */
static void mark_failed(xmlNodePtr n)
{
    if ((n = root_of(n)))
        n->_private = (void *)&tree_failed;
}

void site_tree_fail(xmlNodePtr n)
{
    mark_failed(n);
}

int site_tree_failed(xmlNodePtr n)
{
    n = root_of(n);
    return !n || n->_private == &tree_failed;
}

/* Text as it may enter a page: valid UTF-8 without non-characters or
 * control characters but TAB, LF and CR (XML 1.0 has no room for the
 * others, and a name cut to a buffer may have lost half a character): s
 * itself, or a copy made so by utf8_copy in *copy (the caller frees it);
 * NULL when out of memory. */
static const char *clean_text(const char *s, char **copy)
{
    size_t size;
    *copy = NULL;
    if (utf8_clean(s))
        return s;
    size = 3 * strlen(s) + 1; /* each byte at worst becomes U+FFFD */
    if (!(*copy = malloc(size)))
        return NULL;
    utf8_copy(*copy, size, s);
    return *copy;
}

xmlNodePtr site_add(xmlNodePtr parent, const char *name, const char *text)
{
    char *copy = NULL;
    const char *t = text ? clean_text(text, &copy) : NULL;
    xmlNodePtr c = NULL;
    if (!text || t)
        c = xmlNewTextChild(parent, NULL, BAD_CAST name, BAD_CAST t);
    free(copy);
    if (!c)
        mark_failed(parent);
    return c;
}

xmlNodePtr site_head(xmlNodePtr table, const char *const *th, int n)
{
    xmlNodePtr head = site_add(table, "head", NULL);
    int i;
    for (i = 0; i < n; i++)
        site_add(head, "th", th[i]);
    return head;
}

void site_attr(xmlNodePtr n, const char *name, const char *value)
{
    char *copy = NULL;
    const char *v = clean_text(value, &copy);
    if (n && (!v || !xmlSetProp(n, BAD_CAST name, BAD_CAST v)))
        mark_failed(n);
    free(copy);
}

void site_attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
{
    xmlChar value[1024];
    va_list ap;
    va_start(ap, fmt);
    if (xmlStrVPrintf(value, (int)sizeof value, fmt, ap) < 0)
        value[0] = '\0';
    va_end(ap);
    site_attr(n, name, (const char *)value);
}

xmlDocPtr site_page(const site *s, const char *kind, xmlNodePtr annotation, const char *self,
                    const char *css, const char *home, const char *feed, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr page, n;
    if (!doc || !annotation || site_tree_failed(annotation) ||
        !(page = xmlNewNode(NULL, BAD_CAST "page"))) {
        xmlFreeDoc(doc);
        xmlFreeNode(annotation);
        err_set(e, BE_EFAIL, "out of memory building a page");
        return NULL;
    }
    xmlDocSetRootElement(doc, page);
    site_attr(page, "kind", kind);
    n = site_add(page, "site", NULL);
    site_attr(n, "title", s->title);
    site_attr(n, "author", s->author);
    site_attr(n, "base-url", s->base);
    site_attr(n, "absolute", s->base[0] ? "yes" : "no");
    site_attrf(n, "generator", "breakeven %s", BE_VERSION);
    n = site_add(page, "links", NULL);
    site_attr(n, "css", css);
    site_attr(n, "home", home);
    site_attr(n, "feed", feed);
    if (self && s->base[0]) {
        /* the base URL ends in "/"; self's directory keeps its own "/" */
        char url[sizeof s->base + SITE_PATH];
        const char *slash = strrchr(self, '/');
        snprintf(url, sizeof url, "%s%s", s->base, self);
        site_attr(n, "url", url);
        snprintf(url, sizeof url, "%s%.*s", s->base, slash ? (int)(slash - self + 1) : 0, self);
        site_attr(n, "dir-url", url);
    }
    xmlAddChild(page, annotation);
    return doc;
}

int site_page_below(const site *s, const char *kind, xmlNodePtr annotation, const char *out,
                    const char *self, const char *css, xmlDocPtr *doc, char *path, size_t size,
                    err *e)
{
    snprintf(path, size, "%s/%s", out, self);
    *doc = site_page(s, kind, annotation, self, css, "../index.html", "../feed.xml", e);
    return *doc ? BE_OK : BE_EFAIL;
}

/* libxml2's HTML serializer knows HTML 4's void elements, not HTML5's
 * <source>, and closes it with an end tag that HTML5 calls stray: drop
 * those (text and attribute values are escaped, so it is never content). */
static void drop_source_end_tags(xmlChar *html, int *len)
{
    static const char tag[] = "</source>";
    char *r = (char *)html, *w = (char *)html, *hit;
    size_t n = sizeof tag - 1;
    while ((hit = strstr(r, tag)) != NULL) {
        memmove(w, r, (size_t)(hit - r));
        w += hit - r;
        r = hit + n;
    }
    memmove(w, r, strlen(r) + 1);
    *len = (int)strlen((char *)html);
}

int site_html_text(const char *text, int para, char **out, err *e)
{
    xmlNodePtr p = NULL, t = xmlNewText(BAD_CAST text);
    xmlBufferPtr buf = NULL;
    int rc = BE_OK;

    *out = NULL;
    if (!t || (para && !(p = xmlNewNode(NULL, BAD_CAST "p"))) || !(buf = xmlBufferCreate())) {
        rc = err_set(e, BE_EFAIL, "out of memory");
        goto done;
    }
    if (p)
        xmlAddChild(p, t);
    if (htmlNodeDump(buf, NULL, p ? p : t) < 0 ||
        !(*out = strdup((const char *)xmlBufferContent(buf))))
        rc = err_set(e, BE_EFAIL, "out of memory serializing text as HTML");
done:
    if (p)
        xmlFreeNode(p);
    else
        xmlFreeNode(t);
    xmlBufferFree(buf);
    return rc;
}

int site_transform(const site *s, xsltStylesheetPtr xsl, xmlDocPtr doc, const char *what,
                   xmlChar **out, int *len, xmlDocPtr *keep, err *e)
{
    xmlDocPtr res = NULL;
    xsltTransformContextPtr t;
    long errors = s->xml_errors;
    if (site_tree_failed(xmlDocGetRootElement(doc)))
        return err_set(e, BE_EFAIL, "%s: out of memory building the page", what);
    if (!(t = xsltNewTransformContext(xsl, doc)))
        return err_set(e, BE_EFAIL, "%s: out of memory applying the template", what);
    res = xsltApplyStylesheetUser(xsl, doc, NULL, NULL, NULL, t);
    /* libxslt reports some failures (an allocation) and goes on without
     * the part it could not make, or stops with a partial result: any
     * error, or a stop, is a failure of the page */
    if (res && (s->xml_errors != errors || t->state != XSLT_STATE_OK)) {
        xmlFreeDoc(res);
        res = NULL;
    }
    xsltFreeTransformContext(t);
    if (!res)
        return err_set(e, BE_EFAIL, "%s: the template failed%s%s", what, s->xml_err[0] ? ": " : "",
                       s->xml_err);
    if (xsltSaveResultToString(out, len, res, xsl) < 0 || !*out) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "%s: cannot serialize the page", what);
    }
    drop_source_end_tags(*out, len);
    if (keep)
        *keep = res;
    else
        xmlFreeDoc(res);
    return BE_OK;
}

/* ---- staged files ---------------------------------------------------- */

/* path + ".stage": where a file waits for the set's commit. */
static void stage_of(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s" SITE_STAGE_SUFFIX, path);
}

/* The directory of path opened into *fd, inside out and reached through
 * no link (fsx_dir_open), and path's name in it; NULL when it cannot be
 * opened. */
static const char *open_dir_of(const char *out, const char *path, int *fd)
{
    char dir[SITE_PATH], *slash;
    err ignore;
    snprintf(dir, sizeof dir, "%s", path);
    if (!(slash = strrchr(dir, '/')))
        return NULL;
    *slash = '\0';
    if (fsx_dir_open(out, dir, 0, fd, &ignore) < 0)
        return NULL;
    return path + (slash - dir) + 1;
}

/* Whether the file at path, inside out and reached through no link, holds
 * data[0..len) already: read in blocks and compared, never trusted by its
 * size or time. */
static int same_on_disk(const char *out, const char *path, const char *data, size_t len)
{
    char block[65536];
    const char *name;
    struct stat st;
    size_t at = 0;
    ssize_t got = 1;
    int dfd, fd, same = 0;
    if (!(name = open_dir_of(out, path, &dfd)))
        return 0;
    fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    close(dfd);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len) {
        while (at < len && (got = read(fd, block, sizeof block)) > 0 && (size_t)got <= len - at &&
               memcmp(block, data + at, (size_t)got) == 0)
            at += (size_t)got;
        same = at == len && read(fd, block, 1) == 0;
    }
    close(fd);
    return same;
}

/* Opens the list of the set's staged files, OUT/.publish.pending, after
 * what a writer killed on its way left (site_recover): its writer holds
 * OUT's lock (outlock.h), so a list there now is a dead writer's, and
 * truncating it would leave its staged files where no list names them.
 * (A report recovers first thing anyway; a comparison page, published as
 * a set of its own, does it here.) */
static int list_open(site_outbox *b, const char *out, err *e)
{
    char pending[SITE_PATH + 32];
    int rc;
    if ((rc = site_recover(out, e)) < 0)
        return rc;
    snprintf(pending, sizeof pending, "%s/" SITE_PUBLISH SITE_PENDING_SUFFIX, out);
    b->list = open(pending, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (b->list < 0)
        return err_set(e, fsx_errno_code(errno), "%s: cannot create: %s", pending, strerror(errno));
    b->listing = 1;
    snprintf(b->out, sizeof b->out, "%s", out);
    return BE_OK;
}

/* Appends path to the list of the set's staged files, OUT/.publish.pending
 * (created at the first), before the file is staged: so that the staged
 * files of a set never committed are found and removed (site_recover).
 * Nothing allocated (after the imported runs entered OUT/runs/, nothing
 * may fail for memory). */
static int list_add(site_outbox *b, const char *out, const char *path, err *e)
{
    char pending[SITE_PATH + 32], line[SITE_PATH + 1];
    const char *p = line;
    size_t left = strlen(path);
    int rc;
    snprintf(pending, sizeof pending, "%s/" SITE_PUBLISH SITE_PENDING_SUFFIX, out);
    if (strchr(path, '\n'))
        return err_set(e, BE_EFAIL, "%s: a file name holds a line break", path);
    if (left >= SITE_PATH)
        return err_set(e, BE_EFAIL, "%s: path too long", path);
    if (!b->listing && (rc = list_open(b, out, e)) < 0)
        return rc;
    /* the name and its line break in one write, appended: processes
     * forked from here (site_outbox_share) list into the same file */
    memcpy(line, path, left);
    line[left++] = '\n';
    while (left > 0) {
        ssize_t w = write(b->list, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return err_set(e, w < 0 ? fsx_errno_code(errno) : BE_EIO, "%s: cannot write: %s",
                           pending, w < 0 ? strerror(errno) : "nothing written");
        p += w;
        left -= (size_t)w;
    }
    return BE_OK;
}

/* Stages file f of b now, inside out (fsx_check_in first): listed, then
 * written to its stage, its bytes freed; or, when the file holds them
 * already, marked the same and nothing written. */
static int stage_now(site_outbox *b, site_file *f, const char *out, err *e)
{
    char st[SITE_PATH + 16];
    int rc;
    if ((rc = fsx_check_in(out, f->path, e)) < 0)
        return rc;
    if (same_on_disk(out, f->path, f->data, f->len))
        f->same = 1;
    else {
        stage_of(f->path, st, sizeof st);
        if ((rc = list_add(b, out, f->path, e)) < 0 ||
            (rc = fsx_write_in(out, st, f->data, f->len, e)) < 0)
            return rc;
    }
    if (!f->borrowed)
        free(f->data);
    f->data = NULL;
    f->staged = 1;
    return BE_OK;
}

/* Whether the directory of path is there already (its files can be
 * staged now: an imported run's directory appears only when it enters
 * OUT/runs/). */
static int dir_there(const char *out, const char *path)
{
    int fd;
    if (!open_dir_of(out, path, &fd))
        return 0;
    close(fd);
    return 1;
}

void site_outbox_spool(site_outbox *b, const char *out)
{
    snprintf(b->spool, sizeof b->spool, "%s", out);
}

/* A new entry for path at the end of b (its fields zero), or NULL with e
 * set. */
static site_file *add_entry(site_outbox *b, const char *path, err *e)
{
    site_file *v;
    if (strlen(path) >= SITE_PATH) {
        err_set(e, BE_EFAIL, "%s: path too long", path);
        return NULL;
    }
    if (!(v = grow_slot(b->v, b->n, &b->cap, sizeof *v, 32, e)))
        return NULL;
    b->v = v;
    if (!(v[b->n].path = strdup(path))) {
        err_set(e, BE_EFAIL, "%s: out of memory", path);
        return NULL;
    }
    return &v[b->n++];
}

int site_put(site_outbox *b, const char *path, char *data, size_t len, int borrowed, err *e)
{
    site_file *f = add_entry(b, path, e);
    if (!f) {
        if (!borrowed)
            free(data);
        return BE_EFAIL;
    }
    f->data = data;
    f->len = len;
    f->borrowed = borrowed;
    if (b->spool[0] && dir_there(b->spool, path))
        return stage_now(b, f, b->spool, e);
    return BE_OK;
}

int site_outbox_share(site_outbox *b, err *e)
{
    if (!b->spool[0])
        return err_set(e, BE_EUSAGE, "site_outbox_share: the outbox does not spool");
    return b->listing ? BE_OK : list_open(b, b->spool, e);
}

int site_adopt(site_outbox *b, const char *path, int same, err *e)
{
    site_file *f = add_entry(b, path, e);
    if (!f)
        return BE_EFAIL;
    f->borrowed = 1;
    f->staged = 1;
    f->same = same;
    return BE_OK;
}

int site_put_xml(site_outbox *b, const char *path, xmlChar *data, int len, err *e)
{
    /* xmlChar buffers are freed with xmlFree, which is free by default;
     * copy to stay independent of that */
    char *copy = malloc((size_t)len + 1);
    if (!copy) {
        xmlFree(data);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    memcpy(copy, data, (size_t)len);
    copy[len] = '\0';
    xmlFree(data);
    return site_put(b, path, copy, (size_t)len, 0, e);
}

/* ---- publishing a set of files at once ----------------------------- */

/* Moves every staged file of b into place (after the commit: nothing
 * allocated, every file tried), each relative to its directory opened
 * through no link (fsx_rename_in). */
static int move_all(const site_outbox *b, const char *out, err *e)
{
    char st[SITE_PATH + 16];
    int i, rc = BE_OK;
    err one;
    for (i = 0; i < b->n; i++) {
        if (b->v[i].same)
            continue;
        stage_of(b->v[i].path, st, sizeof st);
        /* a file staged twice (the CSS beside every comparison) is moved
         * already: fsx_rename_in finds nothing to move */
        if (fsx_rename_in(out, st, b->v[i].path, &one) < 0 && rc == BE_OK)
            rc = err_set(e, BE_EFAIL,
                         "%s; the report is published but not all in place: the next report "
                         "finishes it",
                         one.msg);
    }
    return rc;
}

/* Each line of the manifest at path that names a file under out: with
 * forward, its staged file moved into place; else the staged file
 * removed.  Then the manifest itself.  The manifest is a file of OUT (a
 * link there is not read), and every move and removal is made relative to
 * a directory of OUT opened through no link (fsx.h), so that a planted
 * manifest moves nothing outside OUT. */
static int replay(const char *out, const char *path, int forward, err *e)
{
    char *text = NULL, *line, *next, st[SITE_PATH + 16];
    size_t n = strlen(out);
    int rc;
    err one;
    if ((rc = infile_read(path, FSX_READ_MAX, INFILE_NOFOLLOW, &text, NULL, e)) < 0)
        return rc;
    for (line = text; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        /* only files under OUT are touched */
        if (strncmp(line, out, n) != 0 || line[n] != '/' || strstr(line, "/../") ||
            strlen(line) >= SITE_PATH)
            continue;
        stage_of(line, st, sizeof st);
        /* a file that cannot be moved is dropped (the next report makes
         * it again), so that one bad path never blocks every later one */
        if (forward && fsx_rename_in(out, st, line, &one) < 0 && rc == BE_OK)
            rc = err_set(e, BE_EFAIL, "%s", one.msg);
        (void)fsx_unlink_in(out, st, &one);
    }
    free(text);
    if (fsx_unlink_in(out, path, &one) < 0 && rc == BE_OK)
        rc = err_set(e, BE_EFAIL, "%s", one.msg);
    return rc;
}

int site_recover(const char *out, err *e)
{
    char p[SITE_PATH + 32];
    int rc;
    snprintf(p, sizeof p, "%s/" SITE_PUBLISH, out);
    if (access(p, F_OK) == 0 && (rc = replay(out, p, 1, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/" SITE_PUBLISH SITE_PENDING_SUFFIX, out);
    if (access(p, F_OK) == 0)
        return replay(out, p, 0, e);
    return BE_OK;
}

/* The staged files of b removed, and their list (a set not committed). */
static void unstage(site_outbox *b)
{
    char pending[SITE_PATH + 32];
    err ignore;
    if (!b->listing)
        return;
    if (b->list >= 0)
        close(b->list);
    b->listing = 0;
    snprintf(pending, sizeof pending, "%s/" SITE_PUBLISH SITE_PENDING_SUFFIX, b->out);
    (void)replay(b->out, pending, 0, &ignore);
}

int site_flush(site_outbox *b, const char *out, volatile sig_atomic_t *stop, err *e)
{
    char pending[SITE_PATH + 32], commit[SITE_PATH + 32];
    int i, rc, why = 0;
    snprintf(pending, sizeof pending, "%s/" SITE_PUBLISH SITE_PENDING_SUFFIX, out);
    snprintf(commit, sizeof commit, "%s/" SITE_PUBLISH, out);
    /* every target not staged yet checked first (fsx_check_in: no link
     * planted in OUT, nothing but a file where a file goes), so that the
     * renames after the commit can only fail for the disk */
    for (i = 0; i < b->n; i++)
        if (!b->v[i].staged && (rc = fsx_check_in(out, b->v[i].path, e)) < 0)
            goto undo;
    for (i = 0; i < b->n; i++) {
        if (stop && *stop) {
            rc = err_set(e, BE_EINTR,
                         "interrupted before the report was published; the previous one is "
                         "intact");
            goto undo;
        }
        if (!b->v[i].staged && (rc = stage_now(b, &b->v[i], out, e)) < 0)
            goto undo;
    }
    /* nothing staged: every file holds its bytes already */
    if (!b->listing)
        return BE_OK;
    /* the commit: from here on the new set is the site, and a crash is
     * finished by the next report (site_recover) */
    if (fsync(b->list) != 0)
        why = errno;
    if (close(b->list) != 0 && !why)
        why = errno;
    b->listing = 0;
    if (!why && rename(pending, commit) != 0)
        why = errno;
    if (why) {
        rc = err_set(e, fsx_errno_code(why), "%s: cannot publish: %s", commit, strerror(why));
        b->listing = 1; /* unstage: its list is still the pending one */
        b->list = -1;
        goto undo;
    }
    b->committed = 1;
    if ((rc = move_all(b, out, e)) < 0)
        return rc; /* the list stays: site_recover finishes */
    return fsx_unlink_in(out, commit, e);
undo:
    unstage(b);
    return rc;
}

void site_outbox_free(site_outbox *b)
{
    char spool[SITE_PATH];
    int i;
    /* a set never published: its staged files go */
    unstage(b);
    for (i = 0; i < b->n; i++) {
        if (!b->v[i].borrowed)
            free(b->v[i].data);
        free(b->v[i].path);
    }
    free(b->v);
    snprintf(spool, sizeof spool, "%s", b->spool);
    memset(b, 0, sizeof *b);
    /* spooling stays what it was for the next set */
    snprintf(b->spool, sizeof b->spool, "%s", spool);
}
