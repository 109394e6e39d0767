/*
 * price.c — parsing prices (see price.h).
 */
#include "price.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "utf8.h"

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

int price_parse(fit_prices *p, const char *text, err *e)
{
    const char *eq = strchr(text, '='), *start, *end, *num;
    char *stop;
    double v;
    size_t len;
    int i;

    if (!eq)
        return err_set(e, BE_EUSAGE, "price \"%s\" is not DEVICE=USD_PER_HOUR", text);
    start = skip_space(text);
    end = eq;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    len = (size_t)(end - start);
    if (len == 0)
        return err_set(e, BE_EUSAGE, "price \"%s\" names no device", text);
    if (len >= sizeof p->device[0])
        return err_set(e, BE_EUSAGE, "price \"%s\": the device id is longer than %zu characters",
                       text, sizeof p->device[0] - 1);
    num = skip_space(eq + 1);
    if (!*num)
        return err_set(e, BE_EUSAGE, "price \"%s\" gives no USD per hour", text);
    errno = 0;
    v = strtod(num, &stop);
    if (stop == num || *skip_space(stop) || errno == ERANGE)
        return err_set(e, BE_EUSAGE, "price \"%s\": \"%s\" is not a number of USD per hour", text,
                       num);
    if (!isfinite(v) || v <= 0.0)
        return err_set(e, BE_EUSAGE, "price \"%s\": USD per hour must be a positive number", text);
    for (i = 0; i < p->n; i++)
        if (strlen(p->device[i]) == len && strncmp(p->device[i], start, len) == 0)
            break;
    if (i == p->n) {
        if (p->n == FIT_MAX_PRICES)
            return err_set(e, BE_EUSAGE, "price \"%s\": more than %d devices priced", text,
                           FIT_MAX_PRICES);
        memcpy(p->device[i], start, len);
        p->device[i][len] = '\0';
        p->n++;
    }
    p->usd_per_hour[i] = v;
    return BE_OK;
}

/* The message of a line that quotes the line: one printable line
 * (utf8_escape), whatever the line held. */
static void escape_message(err *e)
{
    char m[sizeof e->msg];
    if (!e)
        return;
    utf8_escape(m, sizeof m, e->msg);
    memcpy(e->msg, m, sizeof m);
}

/* Reads into a copy so that a file with a bad line leaves p untouched. */
int price_load(fit_prices *p, const char *path, err *e)
{
    char *text = NULL;
    int rc;
    /* an input file like any other: regular, bounded, text (infile.h) */
    if ((rc = infile_read(path, PRICE_FILE_MAX, INFILE_TEXT, &text, NULL, e)) < 0)
        return rc;
    rc = price_parse_text(p, path, text, e);
    free(text);
    return rc;
}

int price_parse_text(fit_prices *p, const char *path, const char *text, err *e)
{
    fit_prices tmp = *p;
    char line[512], item[512];
    const char *at, *end;
    int lineno = 0, rc = BE_OK;

    for (at = text; *at; at = *end ? end + 1 : end) {
        char *hash, *s, *last;
        size_t n;
        lineno++;
        end = strchr(at, '\n');
        if (!end)
            end = at + strlen(at);
        n = (size_t)(end - at);
        if (n >= sizeof line - 1) {
            rc = err_set(e, BE_EUSAGE, "%s:%d: line longer than %zu characters", path, lineno,
                         sizeof line - 2);
            goto fail;
        }
        memcpy(line, at, n);
        line[n] = '\0';
        if ((hash = strchr(line, '#')))
            *hash = '\0';
        s = (char *)skip_space(line);
        last = s + strlen(s);
        while (last > s && isspace((unsigned char)last[-1]))
            *--last = '\0';
        if (!*s)
            continue;
        if (strchr(s, '=')) {
            snprintf(item, sizeof item, "%s", s);
        } else {
            /* "DEVICE USD": exactly two words */
            char *dev = s, *val = s;
            while (*val && !isspace((unsigned char)*val))
                val++;
            if (*val)
                *val++ = '\0';
            val = (char *)skip_space(val);
            if (!*val || strpbrk(val, " \t")) {
                rc = err_set(e, BE_EUSAGE,
                             "%s:%d: expected \"DEVICE USD_PER_HOUR\" or "
                             "\"DEVICE=USD_PER_HOUR\"",
                             path, lineno);
                goto fail;
            }
            snprintf(item, sizeof item, "%s=%s", dev, val);
        }
        if ((rc = price_parse(&tmp, item, e)) < 0) {
            err_prefix(e, rc, "%s:%d", path, lineno);
            escape_message(e);
            goto fail;
        }
    }
    *p = tmp;
fail:
    return rc;
}
