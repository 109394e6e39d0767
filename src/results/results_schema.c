/*
 * results_schema.c — the schema pass of a load (the embedded
 * src/results/results.rng, compiled once per memo) and the memo of the bytes that
 * passed it (results.h: results_memo).
 *
 * Part of the results loader (results_load_int.h).  Where the schema only
 * says that an element's attributes are wrong, the element's reader
 * (results_read.c) names the attribute.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/relaxng.h>

#include "results_load_int.h"

extern const char embed_results_rng[];

/* See results.h. */
struct results_memo {
    xmlRelaxNGPtr schema; /* compiled at the first load that needs it */
    memo_seen *seen;
    size_t n, cap;
};

/* The built-in schema's own diagnostics: it compiles, or the load says so. */
static void ignore_error(void *data, xmlErrorPtr xe)
{
    (void)data;
    (void)xe;
}

static void on_schema_error(void *data, xmlErrorPtr xe)
{
    rs_loader *ld = data;
    char msg[512];
    size_t n;
    xmlNodePtr node;
    if (ld->failed || !xe || xe->level == XML_ERR_WARNING)
        return;
    node = xe->node;
    if (node && node->type == XML_ELEMENT_NODE)
        ld->schema_node = node;
    snprintf(msg, sizeof msg, "%s", xe->message ? xe->message : "invalid");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    rs_fail_line(ld,
                 ld->schema_node ? rs_line_of(ld->schema_node)
                 : xe->line > 0  ? xe->line
                                 : 0,
                 "does not match the results schema: %s", msg);
}

/* rs_diagnose over every element in document order, for a schema error that
 * came without its node (libxml2 loses it on elements with optional
 * attributes): the first element whose reader objects, or BE_OK. */
static int diagnose_any(const char *path, xmlDocPtr doc, err *e)
{
    xmlNodePtr n = xmlDocGetRootElement(doc);
    while (n) {
        if (n->type == XML_ELEMENT_NODE && rs_diagnose(path, n, e) < 0)
            return BE_EFAIL;
        if (n->children)
            n = n->children;
        else {
            while (n && !n->next)
                n = n->parent && n->parent->type == XML_ELEMENT_NODE ? n->parent : NULL;
            n = n ? n->next : NULL;
        }
    }
    return BE_OK;
}

/* The built-in schema, compiled (NULL when it does not compile). */
static xmlRelaxNGPtr compile_schema(void)
{
    xmlRelaxNGParserCtxtPtr sctx;
    xmlRelaxNGPtr schema = NULL;
    sctx = xmlRelaxNGNewMemParserCtxt(embed_results_rng, (int)strlen(embed_results_rng));
    if (sctx) {
        xmlRelaxNGSetParserStructuredErrors(sctx, ignore_error, NULL);
        schema = xmlRelaxNGParse(sctx);
    }
    xmlRelaxNGFreeParserCtxt(sctx);
    return schema;
}

int rs_validate(rs_loader *ld, xmlDocPtr doc)
{
    xmlRelaxNGPtr schema = ld->memo ? ld->memo->schema : NULL;
    xmlRelaxNGValidCtxtPtr vctx = NULL;
    err why;
    int rc = BE_OK;

    if (ld->schema_seen)
        return BE_OK;
    if (!schema && (schema = compile_schema()) != NULL && ld->memo)
        ld->memo->schema = schema;
    if (!schema || !(vctx = xmlRelaxNGNewValidCtxt(schema))) {
        rc = rs_fail_line(ld, 0, "the built-in results schema does not compile");
        goto done;
    }
    xmlRelaxNGSetValidStructuredErrors(vctx, on_schema_error, ld);
    if (xmlRelaxNGValidateDoc(vctx, doc) != 0) {
        rc = rs_fail_line(ld, rs_line_of(xmlDocGetRootElement(doc)),
                          "does not match the results schema");
        /* name the attribute, where the schema only says "failed to validate attributes" */
        if (ld->schema_node && ld->e && rs_diagnose(ld->path, ld->schema_node, &why) < 0)
            memcpy(ld->e->msg, why.msg, sizeof why.msg);
        else if (!ld->schema_node && ld->e && diagnose_any(ld->path, doc, &why) < 0)
            memcpy(ld->e->msg, why.msg, sizeof why.msg);
    }
done:
    xmlRelaxNGFreeValidCtxt(vctx);
    if (!ld->memo || ld->memo->schema != schema)
        xmlRelaxNGFree(schema);
    return rc;
}

/* Two multiply-xor streams over eight bytes a step, the tail byte by
 * byte. */
memo_seen rs_memo_key(const char *bytes, size_t len)
{
    memo_seen s = {len, 0xcbf29ce484222325ULL, 0x9e3779b97f4a7c15ULL};
    unsigned long long w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, bytes + i, sizeof w);
        s.a = (s.a ^ w) * 0x100000001b3ULL;
        s.a ^= s.a >> 32;
        s.b = (s.b + w) * 0xff51afd7ed558ccdULL;
        s.b ^= s.b >> 29;
    }
    for (; i < len; i++) {
        s.a = (s.a ^ (unsigned char)bytes[i]) * 0x100000001b3ULL;
        s.b = (s.b ^ (unsigned char)bytes[i]) * 0xc4ceb9fe1a85ec53ULL;
        s.b ^= s.b >> 29;
    }
    return s;
}

int rs_memo_seen(const results_memo *m, const memo_seen *s)
{
    size_t i;
    for (i = 0; i < m->n; i++)
        if (m->seen[i].len == s->len && m->seen[i].a == s->a && m->seen[i].b == s->b)
            return 1;
    return 0;
}

results_memo *results_memo_new(void)
{
    return calloc(1, sizeof(results_memo));
}

void results_memo_free(results_memo *m)
{
    if (!m)
        return;
    xmlRelaxNGFree(m->schema);
    free(m->seen);
    free(m);
}

size_t results_memo_count(const results_memo *m)
{
    return m ? m->n : 0;
}

const void *results_memo_record(const results_memo *m, size_t from, size_t *len)
{
    from = m && from < m->n ? from : results_memo_count(m);
    *len = (results_memo_count(m) - from) * sizeof(memo_seen);
    return m && m->seen ? m->seen + from : NULL;
}

int results_memo_merge(results_memo *m, const void *record, size_t len)
{
    size_t k = len / sizeof(memo_seen);
    if (!m || !k)
        return BE_OK;
    if (m->n + k > m->cap) {
        memo_seen *v = realloc(m->seen, (m->n + k) * sizeof *v);
        if (!v)
            return BE_EFAIL;
        m->seen = v;
        m->cap = m->n + k;
    }
    memcpy(m->seen + m->n, record, k * sizeof(memo_seen));
    m->n += k;
    return BE_OK;
}

void rs_memo_remember(results_memo *m, const memo_seen *s)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        memo_seen *v = realloc(m->seen, cap * sizeof *v);
        if (!v)
            return;
        m->seen = v;
        m->cap = cap;
    }
    m->seen[m->n++] = *s;
}
