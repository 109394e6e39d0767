/*
 * list.c — the LIST grammar of the command line (see list.h).  Sizes are
 * validated here, at the edge, so that the planner and the backends can
 * trust every width and batch they receive.
 */
#include "list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_int(const char *s, size_t len, const char *what, int max, long *out, err *e)
{
    char buf[32];
    char *end;
    long v;

    if (len == 0)
        return err_set(e, BE_EUSAGE, "%s: empty item in list", what);
    if (len >= sizeof buf)
        return err_set(e, BE_EUSAGE, "%s: \"%.*s\" is too long to be a size", what,
                       (int)(len > 40 ? 40 : len), s);
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (buf[0] < '0' || buf[0] > '9')
        return err_set(e, BE_EUSAGE, "%s: \"%s\" is not a positive integer", what, buf);
    errno = 0;
    v = strtol(buf, &end, 10);
    if (*end != '\0')
        return err_set(e, BE_EUSAGE, "%s: \"%s\" is not a positive integer", what, buf);
    if (v <= 0)
        return err_set(e, BE_EUSAGE, "%s: %s must be at least 1", what, buf);
    if (errno == ERANGE || v > max)
        return err_set(e, BE_EUSAGE, "%s: %s is larger than the limit %d", what, buf, max);
    *out = v;
    return BE_OK;
}

static int is_pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static int add(size_list *l, long v, const char *what, err *e)
{
    int i, j;
    for (i = 0; i < l->n; i++)
        if (l->v[i] == v)
            return BE_OK;
    if (l->n == LIST_MAX)
        return err_set(e, BE_EUSAGE, "%s: more than %d sizes", what, LIST_MAX);
    for (i = 0; i < l->n && l->v[i] < v; i++)
        ;
    for (j = l->n; j > i; j--)
        l->v[j] = l->v[j - 1];
    l->v[i] = (int)v;
    l->n++;
    return BE_OK;
}

int list_parse(const char *text, const char *what, int max, size_list *out, err *e)
{
    const char *p = text;
    int rc;

    out->n = 0;
    if (!text || !*text)
        return err_set(e, BE_EUSAGE, "%s: empty list", what);
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *dots = NULL;
        size_t k;

        for (k = 0; k + 1 < len; k++)
            if (p[k] == '.' && p[k + 1] == '.') {
                dots = p + k;
                break;
            }
        if (dots) {
            long a, b, v;
            if ((rc = parse_int(p, (size_t)(dots - p), what, max, &a, e)) < 0 ||
                (rc = parse_int(dots + 2, len - (size_t)(dots - p) - 2, what, max, &b, e)) < 0)
                return rc;
            if (!is_pow2(a) || !is_pow2(b))
                return err_set(e, BE_EUSAGE, "%s: range \"%.*s\" must run between powers of two",
                               what, (int)len, p);
            if (a > b)
                return err_set(e, BE_EUSAGE, "%s: range \"%.*s\" runs backwards", what, (int)len,
                               p);
            for (v = a; v <= b; v *= 2)
                if ((rc = add(out, v, what, e)) < 0)
                    return rc;
        } else {
            long v;
            if ((rc = parse_int(p, len, what, max, &v, e)) < 0 || (rc = add(out, v, what, e)) < 0)
                return rc;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return BE_OK;
}

void list_format(const size_list *l, char *buf, unsigned long size)
{
    size_t used = 0;
    int i;

    if (size == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < l->n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%d", i ? "," : "", l->v[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
