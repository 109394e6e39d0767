/*
 * site.h — the machinery under the published pages: where the templates
 * are, the XSLT stylesheets and their errors, the page documents they are
 * applied to, and the files of a report staged in memory before any is
 * written.
 *
 * report.c decides what a page says; this module turns a <page> document
 * into HTML with the stylesheets of templates/ (libxslt) and holds the
 * outputs until every page has rendered, so that a failure half-way leaves
 * the published files as they were.  libxml2 and libxslt report errors
 * through callbacks: while a site is open they are captured into the site
 * (the handlers get it as their context), never printed, so that an error
 * comes back as one line in an err.
 */
#ifndef BE_SITE_H
#define BE_SITE_H

#include <signal.h>
#include <stddef.h>

#include <libxml/tree.h>
#include <libxslt/xsltInternals.h>

#include "err.h"

#define SITE_PATH 4096

/* Where templates/ and assets/ are: data_dir when given, else
 * $BREAKEVEN_DATA, else the directory of the running executable when it
 * holds templates/ (the in-tree ./breakeven), else ../share/breakeven
 * beside it (an installed copy, even after its prefix was moved), else
 * BE_DATADIR (the $(PREFIX)/share/breakeven it was built for).  BE_EFAIL
 * naming what was tried. */
int site_data_dir(const char *data_dir, char *buf, size_t size, err *e);

/* --base-url: NULL or "" (relative links), or an http(s) URL without
 * spaces, quotes or angle brackets, under 900 bytes; else BE_EUSAGE. */
int site_check_base_url(const char *url, err *e);

/* What a site is published as, kept in OUT/site.conf so that --base-url,
 * --title and --author, once given for an OUT, hold for every later
 * command on it until given again ("" where never given). */
typedef struct site_settings {
    char base_url[1024];
    char title[512];
    char author[256];
    int feed_items; /* the feed's newest runs (feed-items); 0: SITE_FEED_ITEMS */
} site_settings;

/* The feed carries the newest 20 runs in full unless site.conf says
 * "feed-items N" (1 to SITE_FEED_ITEMS_MAX); older runs stay on the archive
 * pages. */
#define SITE_FEED_ITEMS 20
#define SITE_FEED_ITEMS_MAX 1000

#define SITE_SETTINGS_FILE "site.conf"
/* The most site.conf may hold: its three settings fit in 2 KB. */
#define SITE_SETTINGS_MAX 65536

/* Reads OUT/site.conf into *st (all "" when there is none).  The file is
 * input like any other (infile.h): a regular file, not a link, of at most
 * SITE_SETTINGS_MAX bytes of UTF-8 text without NUL; "KEY VALUE" lines
 * (base-url, title, author; # comments), one line of valid UTF-8 each
 * value; BE_EFAIL with "OUT/site.conf:LINE: what is wrong" otherwise,
 * quoting at most a short escaped fragment of the file. */
int site_settings_load(const char *out, site_settings *st, err *e);
/* The lines of site.conf: text (NUL-terminated, valid UTF-8: checked
 * already, and cut into lines in place) into *st; path names it in
 * errors.  What site_settings_load does after reading, and what the fuzzer
 * (tests/fuzz/fuzz_siteconf.c) drives. */
int site_settings_parse(const char *path, char *text, site_settings *st, err *e);
/* Writes *st to OUT/site.conf atomically inside OUT (fsx_write_in). */
int site_settings_save(const char *out, const site_settings *st, err *e);

/* An open site: the settings of every page, the stylesheets and the CSS. */
typedef struct site {
    char base[1024];              /* base URL with a trailing "/", or ""  */
    char data[SITE_PATH];         /* the directory of templates/, assets/ */
    char title[512], author[256]; /* as one line (utf8_line); "" for none */
    xsltStylesheetPtr run_xsl, compare_xsl, history_xsl, feed_xsl, archive_xsl, net_xsl;
    char *css; /* assets/style.css, owned              */
    size_t css_len;
    char xml_err[512]; /* the first libxml2/libxslt error      */
    long xml_errors;   /* how many were reported               */
} site;

/* Opens the site: checks base_url, finds the data directory (see
 * site_data_dir), reads the CSS, compiles run.xsl, compare.xsl,
 * history.xsl, feed.xsl, archive.xsl and net.xsl, and captures libxml2's and libxslt's errors into s until
 * site_close.  title, author may be NULL; their control characters are
 * removed (the command line refuses them). */
int site_open(site *s, const char *data_dir, const char *base_url, const char *title,
              const char *author, err *e);
/* Frees what s holds and gives the error handlers back. */
void site_close(site *s);

/* ---- page documents -------------------------------------------------- */

/* A child element of parent holding text (NULL: empty); strings only ever
 * enter the tree as text or attribute values, escaped by construction, and
 * made valid UTF-8 without control characters (utf8_copy) on the way.
 * When an allocation fails, the tree's root is marked, and site_page and
 * site_transform refuse it (so the builders need not check every call). */
xmlNodePtr site_add(xmlNodePtr parent, const char *name, const char *text);
void site_attr(xmlNodePtr n, const char *name, const char *value);
/* The <head> of table, its first column headings th[0..n) (those that
 * depend on the data the caller adds to it). */
xmlNodePtr site_head(xmlNodePtr table, const char *const *th, int n);
void site_attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* 1 when building the tree of n (or n itself: NULL) failed for memory. */
int site_tree_failed(xmlNodePtr n);
/* Marks the tree of n as failed, as a failed allocation does: for a
 * builder whose facts could not be had (out of memory in a query), so
 * that the page is refused rather than rendered with a part missing. */
void site_tree_fail(xmlNodePtr n);

/* A new <page kind=…> document with <site> (the settings), <links> (the
 * stylesheet, the home page and the feed as seen from the page) and the
 * annotation (NULL, or marked failed: out of memory), which the document
 * takes over (also on failure).  self is where the page is published,
 * relative to OUT ("runs/<id>/index.html"; NULL for a part of a page, the
 * feed's article): with a base URL, <links> also carries the page's
 * absolute address (url) and that of its directory (dir-url), from which
 * the templates make the link previews' absolute URLs (common.xsl).  The
 * caller frees the document with xmlFreeDoc; NULL when out of memory. */
xmlDocPtr site_page(const site *s, const char *kind, xmlNodePtr annotation, const char *self,
                    const char *css, const char *home, const char *feed, err *e);
/* site_page for a page one directory below OUT at self (relative to OUT,
 * "compare/<a>..<b>.html"), whose home page and feed are one level up,
 * into *doc; the path it is written at (out/self) into path.  BE_EFAIL
 * when out of memory (*doc NULL). */
int site_page_below(const site *s, const char *kind, xmlNodePtr annotation, const char *out,
                    const char *self, const char *css, xmlDocPtr *doc, char *path, size_t size,
                    err *e);

/* text as HTML, for the feed's fields that readers render as HTML: a text
 * node (in a <p> with para) serialized by libxml2's HTML serializer, so
 * "<" becomes "&lt;"; the feed's XML serializer then escapes that once
 * more.  *out is the caller's to free. */
int site_html_text(const char *text, int para, char **out, err *e);

/* Applies xsl to doc and serializes the result into *out (xmlFree it),
 * *len bytes; with keep, the result document too (xmlFreeDoc it).  Errors
 * name what (a path, "feed item"). */
int site_transform(const site *s, xsltStylesheetPtr xsl, xmlDocPtr doc, const char *what,
                   xmlChar **out, int *len, xmlDocPtr *keep, err *e);

/* ---- staged files ---------------------------------------------------- */

typedef struct site_file {
    char *path; /* owned */
    char *data; /* owned unless borrowed; NULL once staged */
    size_t len;
    int borrowed;
    int staged; /* written to "<path>.stage" already, or the same */
    int same;   /* the file holds these bytes already: left as it is */
} site_file;

/* The files of a report, in the order they are to be written. */
typedef struct site_outbox {
    int n, cap;
    site_file *v;
    char spool[SITE_PATH]; /* "": files held in memory until site_flush */
    char out[SITE_PATH];   /* where the list below is */
    int listing;           /* OUT/.publish.pending is open as list */
    int list;
    int committed; /* site_flush renamed the list to OUT/.publish: the set is the site */
} site_outbox;

/* From now on, each file put whose directory exists already is staged at
 * once (listed, written to "<path>.stage", its bytes freed), so that a
 * report holds in memory only the files it has not staged (those of an
 * imported run, whose directory appears when it enters OUT/runs/):
 * memory bounded by one page, not by the archive.  out is OUT.  Kept
 * across site_outbox_free. */
void site_outbox_spool(site_outbox *b, const char *out);
/* Opens the set's list of staged files now (a spooling outbox opens it at
 * the first file staged), so that processes forked from here stage into
 * the same set: each appends its files' names to the one list (a name and
 * its line break in one write, in append mode) and writes their stages;
 * the parent then adopts them (site_adopt). */
int site_outbox_share(site_outbox *b, err *e);
/* Adds to b the file at path that a process forked after
 * site_outbox_share staged (same: it held these bytes already and was left
 * as it is): b publishes it, or removes its stage, with its own. */
int site_adopt(site_outbox *b, const char *path, int same, err *e);
/* Stages data (len bytes) for path: the outbox takes data over unless
 * borrowed (then it must outlive the outbox), and frees it on failure. */
int site_put(site_outbox *b, const char *path, char *data, size_t len, int borrowed, err *e);
/* Stages a serialized page (taken over and freed). */
int site_put_xml(site_outbox *b, const char *path, xmlChar *data, int len, err *e);
/* Publishes every staged file as one set, so that the site is the old set
 * or the new one, never a mix.  Each file is checked (fsx_check_in: a
 * link planted in OUT refuses the set before anything of it is written),
 * its path added to OUT/.publish.pending, and it is written to
 * "<path>.stage" (atomically inside out, fsx_write_in), unless it was
 * staged already (site_outbox_spool) or it holds these bytes already (read
 * and compared: it is the same in the old site and the new one, and is
 * left as it is).  Then the rename of the list to OUT/.publish commits the
 * set, and each staged file is renamed into place.  A failure or *stop
 * (stop may be NULL) before the commit removes the staged files (BE_EINTR
 * when stopped); after it, nothing stops the renames, and a crash among
 * them is finished by site_recover. */
int site_flush(site_outbox *b, const char *out, volatile sig_atomic_t *stop, err *e);
/* Finishes a set committed but not all in place (OUT/.publish), removes
 * the staged files of one never committed (OUT/.publish.pending).  Only
 * paths under out are touched.  report_write calls it first, and every
 * set before it opens its list.  The caller holds OUT's lock (outlock.h):
 * then the manifests it finds are a dead writer's, never a live one's
 * (two reports at once each took the other's list for abandoned and
 * rolled it back). */
int site_recover(const char *out, err *e);

#define SITE_PUBLISH ".publish"
#define SITE_PENDING_SUFFIX ".pending"
#define SITE_STAGE_SUFFIX ".stage"
/* Frees b; the files it staged but never published are removed. */
void site_outbox_free(site_outbox *b);

#endif
