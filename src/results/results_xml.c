/*
 * results_xml.c — the loader's reading of one element: its attributes,
 * each within bounds, its children counted, and the one error of a load.
 *
 * Part of the results loader (results_load.c; results_load_int.h): every
 * getter leaves a wrong value's line, attribute and (clipped, escaped)
 * text in the load's error, and reads nothing once the load has failed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "results_load_int.h"
#include "utf8.h"

int rs_fail_line(rs_loader *ld, long line, const char *fmt, ...)
{
    char msg[768], full[1024];
    va_list ap;
    if (ld->failed)
        return BE_EFAIL;
    ld->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(full, sizeof full, "%s:%ld: %s", ld->path, line, msg);
    else
        snprintf(full, sizeof full, "%s: %s", ld->path, msg);
    if (ld->e)
        utf8_escape(ld->e->msg, sizeof ld->e->msg, full);
    return BE_EFAIL;
}

long rs_line_of(xmlNodePtr n)
{
    long line = n ? xmlGetLineNo(n) : 0;
    return line > 0 ? line : 0;
}

/* Up to 48 bytes of a value from the file, cut on a character boundary,
 * for a message (rs_fail_line escapes it). */
const char *rs_clip(char buf[64], const xmlChar *v)
{
    const char *s = v ? (const char *)v : "";
    size_t used = 0, len;
    while (s[used]) {
        utf8_decode(s + used, strnlen(s + used, 4), &len);
        if (used + len > 48) {
            memcpy(buf, s, used);
            memcpy(buf + used, "...", 4);
            return buf;
        }
        used += len;
    }
    memcpy(buf, s, used + 1);
    return buf;
}

/* ---- attributes ---- */

int rs_is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !n->ns && xmlStrcmp(n->name, BAD_CAST name) == 0;
}

xmlNodePtr rs_first_elem(xmlNodePtr n)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE)
            return n;
    return NULL;
}

xmlNodePtr rs_next_elem(xmlNodePtr n)
{
    return rs_first_elem(n->next);
}

int rs_has(xmlNodePtr n, const char *name)
{
    return xmlHasNsProp(n, BAD_CAST name, NULL) != NULL;
}

/* The value of n's attribute name (in no namespace), for the caller to
 * xmlFree; NULL when absent, an error unless optional. */
xmlChar *rs_attr(rs_loader *ld, xmlNodePtr n, const char *name, int optional)
{
    xmlChar *v;
    if (ld->failed)
        return NULL;
    if (!rs_has(n, name)) {
        if (!optional)
            rs_bad(ld, n, "<%s> lacks attribute \"%s\"", (const char *)n->name, name);
        return NULL;
    }
    if (!(v = xmlGetNoNsProp(n, BAD_CAST name)))
        rs_bad(ld, n, "out of memory reading <%s> attribute \"%s\"", (const char *)n->name, name);
    return v;
}

/* Text, into a buffer: cut and cleaned by utf8_copy. */
void rs_get_text(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size,
                 int optional)
{
    xmlChar *v = rs_attr(ld, n, name, optional);
    utf8_copy(buf, size, v ? (const char *)v : "");
    xmlFree(v);
}

/* A name that must be kept exactly (an id, a time stamp): 1 to size - 1
 * bytes of UTF-8 without control characters or non-characters, or an
 * error, since a cut or cleaned id could name another device. */
void rs_get_exact(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    char q[64];
    const char *s = v ? (const char *)v : "";
    buf[0] = '\0';
    if (!v)
        return;
    if (!*s || strlen(s) >= size)
        rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not 1 to %zu bytes", (const char *)n->name,
               name, rs_clip(q, v), size - 1);
    else if (!utf8_clean(s) || strpbrk(s, "\t\r\n"))
        rs_bad(ld, n,
               "<%s> attribute \"%s\" is \"%s\", which holds control characters, "
               "non-characters or invalid UTF-8",
               (const char *)n->name, name, rs_clip(q, v));
    else
        memcpy(buf, s, strlen(s) + 1);
    xmlFree(v);
}

/* A time stamp: exact, and a UTC time that fmt_parse_time reads (a year
 * from 1970 to 9999), so that every page shows it as a date. */
void rs_get_time(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size)
{
    struct tm tm;
    char q[64];
    rs_get_exact(ld, n, name, buf, size);
    if (buf[0] && !fmt_parse_time(buf, &tm))
        rs_bad(ld, n,
               "<%s> attribute \"%s\" is \"%s\", not a UTC time YYYY-MM-DDTHH:MM:SSZ of a year "
               "from %d to %d",
               (const char *)n->name, name, rs_clip(q, BAD_CAST buf), FMT_YEAR_MIN, FMT_YEAR_MAX);
}

/* The value into buf, without the XML spaces around it (as the schema's
 * types read it); 0 when empty or longer than a number breakeven writes. */
static int number_text(const xmlChar *v, char buf[64])
{
    const char *s = (const char *)v, *end;
    while (*s && strchr(" \t\r\n", *s))
        s++;
    end = s + strlen(s);
    while (end > s && strchr(" \t\r\n", end[-1]))
        end--;
    if (end == s || end - s >= 64)
        return 0;
    memcpy(buf, s, (size_t)(end - s));
    buf[end - s] = '\0';
    return 1;
}

/* A decimal number (no INF, NaN or hexadecimal). */
int rs_parse_real(const xmlChar *v, double *out)
{
    char buf[64], *end;
    if (!number_text(v, buf) || buf[strspn(buf, "0123456789+-.eE")] != '\0')
        return 0;
    errno = 0;
    *out = strtod(buf, &end);
    return *end == '\0' && errno != ERANGE && isfinite(*out);
}

/* A decimal integer, optionally signed. */
int rs_parse_int(const xmlChar *v, long long *out)
{
    char buf[64], *end;
    if (!number_text(v, buf) || buf[strspn(buf, "0123456789+-")] != '\0' ||
        strspn(buf + (buf[0] == '+' || buf[0] == '-'), "0123456789") == 0)
        return 0;
    errno = 0;
    *out = strtoll(buf, &end, 10);
    return *end == '\0' && errno != ERANGE;
}

/* A finite number within [lo, hi]; 0 after an error. */
double rs_get_real(rs_loader *ld, xmlNodePtr n, const char *name, double lo, double hi)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    double d = 0.0;
    char q[64];
    if (v && (!rs_parse_real(v, &d) || d < lo || d > hi)) {
        rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not a number from %g to %g",
               (const char *)n->name, name, rs_clip(q, v), lo, hi);
        d = 0.0;
    }
    xmlFree(v);
    return d;
}

/* An integer within [lo, hi]; lo after an error. */
long long rs_get_int(rs_loader *ld, xmlNodePtr n, const char *name, long long lo, long long hi)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    long long k = lo;
    char q[64];
    if (v && (!rs_parse_int(v, &k) || k < lo || k > hi)) {
        rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not an integer from %lld to %lld",
               (const char *)n->name, name, rs_clip(q, v), lo, hi);
        k = lo;
    }
    xmlFree(v);
    return k;
}

/* A seed: a decimal integer from 0 to 2^64 - 1. */
unsigned long long rs_get_seed(rs_loader *ld, xmlNodePtr n, const char *name)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    unsigned long long k = 0;
    char buf[64], q[64], *end = buf;
    if (v) {
        int ok = number_text(v, buf) && buf[strspn(buf, "0123456789")] == '\0';
        errno = 0;
        if (ok)
            k = strtoull(buf, &end, 10);
        if (!ok || *end != '\0' || errno == ERANGE) {
            rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not an integer from 0 to 2^64-1",
                   (const char *)n->name, name, rs_clip(q, v));
            k = 0;
        }
    }
    xmlFree(v);
    return k;
}

/* The index of the value among names[0..count); 0 after an error. */
int rs_get_enum(rs_loader *ld, xmlNodePtr n, const char *name, const char *const *names, int count)
{
    xmlChar *v = rs_attr(ld, n, name, 0);
    char q[64];
    int i;
    if (!v)
        return 0;
    for (i = 0; i < count; i++)
        if (strcmp((const char *)v, names[i]) == 0)
            break;
    if (i == count) {
        rs_bad(ld, n, "<%s> attribute \"%s\" is \"%s\", which is not known", (const char *)n->name,
               name, rs_clip(q, v));
        i = 0;
    }
    xmlFree(v);
    return i;
}

/* ---- the model, after the schema ---- */

/* The one child of parent called name, or NULL; an error when there are
 * more (the schema forbids it: this is the second line of defence). */
xmlNodePtr rs_only_child(rs_loader *ld, xmlNodePtr parent, const char *name)
{
    xmlNodePtr n, found = NULL;
    for (n = rs_first_elem(parent->children); n; n = rs_next_elem(n))
        if (rs_is(n, name)) {
            if (found) {
                rs_bad(ld, n, "<%s> holds more than one <%s>", (const char *)parent->name, name);
                return NULL;
            }
            found = n;
        }
    return found;
}

/* The number of children of parent called name; past max, BE_EFAIL, and
 * the error in ld. */
long rs_count_children(rs_loader *ld, xmlNodePtr parent, const char *name, long max)
{
    xmlNodePtr n;
    long k = 0;
    for (n = rs_first_elem(parent->children); n; n = rs_next_elem(n))
        if (rs_is(n, name) && ++k > max) {
            return rs_bad(ld, n, "<%s> holds more than %ld <%s>", (const char *)parent->name, max,
                          name);
        }
    return k;
}
