/*
 * results_load.c — a results file from anywhere (results.xml, compressed
 * or not) read into the model (results.h), or refused with one line that
 * says where and why.
 *
 * Everything breakeven reads of a run comes through here: the report, the
 * comparison of runs, the archive.  The writer (results_write.c) runs the
 * same checks on every file before it writes it (results_int.h).  The
 * schema src/results/results.rng is compiled in and is the reference for every
 * element and attribute read here.  The loader's parts: results_load_int.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlversion.h>

#include "gz.h"
#include "infile.h"
#include "results_int.h"
#include "results_load_int.h"

/* A results file is untrusted input (files are gathered from many
 * machines).  The loader reads it only if it is a regular file of bounded
 * size, parses it without a DTD (so without entities to expand) and with a
 * bound on elements and attributes, validates it against the schema, and
 * only then reads it into the model, checking again every count, size and
 * number it copies, and what the schema cannot say (unique points, known
 * devices, summaries that fit their samples). */

/* ---- the parser's hooks ---- */

static rs_loader *loader_of(void *ctx)
{
    return ((xmlParserCtxtPtr)ctx)->_private;
}

static void on_parse_error(void *ctx, xmlErrorPtr xe)
{
    rs_loader *ld = loader_of(ctx);
    char msg[512];
    size_t n;
    if (ld->failed || !xe || xe->level == XML_ERR_WARNING)
        return;
    snprintf(msg, sizeof msg, "%s", xe->message ? xe->message : "not well-formed XML");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    rs_fail_line(ld, xe->line > 0 ? xe->line : 0, "%s", msg);
}

/* A DOCTYPE is where entities (and external DTDs) would come from: none of
 * breakeven's files has one, so the parse stops right there. */
static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *public_id,
                       const xmlChar *system_id)
{
    (void)name;
    (void)public_id;
    (void)system_id;
    rs_fail_line(loader_of(ctx), xmlSAX2GetLineNumber(ctx),
                 "a DOCTYPE is not allowed in a results file (no DTD, no entity declarations)");
    xmlStopParser(ctx);
}

/* Counts elements and attributes, and stops the parse past the bound. */
static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
                     int nb_defaulted, const xmlChar **attributes)
{
    rs_loader *ld = loader_of(ctx);
    ld->nodes += 1L + nb_namespaces + nb_attributes;
    if (ld->nodes > RESULTS_MAX_NODES) {
        rs_fail_line(ld, xmlSAX2GetLineNumber(ctx), "more than %ld elements and attributes",
                     RESULTS_MAX_NODES);
        xmlStopParser(ctx);
        return;
    }
    ld->start(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
              attributes);
}

/* ---- the file ---- */

/* Refuses a tag with more than RESULTS_MAX_ATTRS attributes before libxml2
 * sees it: its duplicate-attribute check compares every pair, so one tag
 * with a million attributes would take hours.  Counted as "=" and a quote
 * since the last "<" (no attribute value holds "<"), which can only count
 * too many, never too few. */
static int prescan(rs_loader *ld, const char *text, size_t len)
{
    long line = 1, tag_line = 1;
    int attrs = 0;
    size_t i, j;
    for (i = 0; i < len; i++) {
        if (text[i] == '\n') {
            line++;
        } else if (text[i] == '<') {
            attrs = 0;
            tag_line = line;
        } else if (text[i] == '=') {
            for (j = i + 1; j < len && strchr(" \t\r\n", text[j]) && text[j]; j++)
                ;
            if (j < len && (text[j] == '"' || text[j] == '\'') && ++attrs > RESULTS_MAX_ATTRS)
                return rs_fail_line(ld, tag_line, "a tag with more than %d attributes",
                                    RESULTS_MAX_ATTRS);
        }
    }
    return BE_OK;
}

/* Whether root is a results file this breakeven reads, said before the
 * schema would say it less clearly. */
static int check_root(rs_loader *ld, xmlNodePtr root)
{
    xmlChar *v;
    long long format = 0;
    char q[64];
    if (!rs_is(root, "breakeven-results"))
        return rs_bad(ld, root, "not a breakeven results file (the root element is <%s>%s)",
                      root ? (const char *)root->name : "nothing",
                      root && root->ns ? ", in a namespace" : "");
    if (!(v = rs_attr(ld, root, "format", 0)))
        return BE_EFAIL;
    if (!rs_parse_int(v, &format) || format < 1 || format > RESULTS_FORMAT)
        rs_bad(ld, root,
               "results format \"%s\" is not supported (this breakeven reads formats 1 to %d)",
               rs_clip(q, v), RESULTS_FORMAT);
    xmlFree(v);
    return ld->failed ? BE_EFAIL : BE_OK;
}

/* The checks of results_load on text[0..len) (NUL-terminated), read or
 * about to be written; ld names the file.  *out is the caller's. */
static int load_text(rs_loader *ld, const char *text, size_t len, results **out)
{
    xmlParserCtxtPtr pctx = NULL;
    xmlDocPtr doc = NULL;
    int rc = BE_EFAIL;
    /* no entity substitution (no XML_PARSE_NOENT), no DTD loading, no
     * network, no XInclude; big line numbers for big files */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC |
                  XML_PARSE_BIG_LINES;
#if LIBXML_VERSION >= 21300
    options |= XML_PARSE_NO_XXE;
#endif

    *out = NULL;
    if (prescan(ld, text, len) < 0)
        goto done;
    if (!(pctx = xmlNewParserCtxt())) {
        rs_fail_line(ld, 0, "out of memory");
        goto done;
    }
    pctx->_private = ld;
    pctx->sax->serror = on_parse_error;
    pctx->sax->internalSubset = on_doctype;
    ld->start = pctx->sax->startElementNs;
    pctx->sax->startElementNs = on_start;
    /* UTF-8 whatever the file declares: what breakeven writes, and what
     * prescan read */
    doc = xmlCtxtReadMemory(pctx, text, (int)len, ld->path, "UTF-8", options);
    if (!doc || ld->failed) {
        if (!ld->failed)
            rs_fail_line(ld, 0, "not well-formed XML");
        goto done;
    }
    if (doc->intSubset || doc->extSubset) {
        rs_fail_line(ld, 0, "a DOCTYPE is not allowed in a results file");
        goto done;
    }
    if (check_root(ld, xmlDocGetRootElement(doc)) < 0 || rs_validate(ld, doc) < 0)
        goto done;
    rc = rs_load_doc(ld, xmlDocGetRootElement(doc), out);
done:
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    return rc;
}

/* results_load_bytes on ld. */
static int rs_load_any(rs_loader *ld, const char *path, const char *bytes, size_t len,
                       results **out, err *e)
{
    if (len == 0)
        return rs_fail_line(ld, 0, "is empty");
    if (len > RESULTS_MAX_BYTES)
        return rs_fail_line(ld, 0, "is %zu bytes; at most %ld are read", len, RESULTS_MAX_BYTES);
    if (gz_is(bytes, len)) {
        /* results.xml.gz, or any results file compressed: the same checks
         * on what it inflates to, itself within the size cap */
        char *xml = NULL;
        int rc;
        if (gz_decompress(path, bytes, len, RESULTS_MAX_BYTES, &xml, &len, e) < 0)
            return BE_EFAIL;
        rc = load_text(ld, xml, len, out);
        free(xml);
        return rc;
    }
    return load_text(ld, bytes, len, out);
}

int results_load_bytes(const char *path, const char *bytes, size_t len, results **out, err *e)
{
    return results_load_memo(path, bytes, len, NULL, out, e);
}

int results_load_memo(const char *path, const char *bytes, size_t len, results_memo *m,
                      results **out, err *e)
{
    memo_seen s;
    rs_loader ld;
    int rc;
    *out = NULL;
    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = e;
    ld.memo = m;
    if (m) {
        s = rs_memo_key(bytes, len);
        ld.schema_seen = rs_memo_seen(m, &s);
    }
    rc = rs_load_any(&ld, path, bytes, len, out, e);
    /* remembered once every check passed */
    if (rc == BE_OK && m && !ld.schema_seen)
        rs_memo_remember(m, &s);
    return rc;
}

int results_load(const char *path, results **out, err *e)
{
    return results_load_file(path, NULL, out, e);
}

int results_load_file(const char *path, results_memo *m, results **out, err *e)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    /* the one way to read an input file: a regular file (a FIFO cannot
     * hang the load, the file checked is the file read), of bounded size */
    if ((rc = infile_read(path, RESULTS_MAX_BYTES, INFILE_NONEMPTY, &text, &len, e)) == BE_OK)
        rc = results_load_memo(path, text, len, m, out, e);
    free(text);
    return rc;
}

int results_loads_back(const char *path, const char *text, size_t len, err *e)
{
    rs_loader ld;
    results *back = NULL;
    err why;
    int rc;

    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = &why;
    rc = load_text(&ld, text, len, &back);
    results_free(back);
    if (rc < 0)
        return err_set(e, BE_EFAIL, "not saved, as breakeven would refuse to load it: %s", why.msg);
    return BE_OK;
}
