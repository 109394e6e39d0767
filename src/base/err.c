/*
 * err.c — formatting of the one-line error messages described in err.h.
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(err *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int err_prefix(err *e, int code, const char *fmt, ...)
{
    if (e) {
        char head[512], old[sizeof e->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(head, sizeof head, fmt, ap);
        va_end(ap);
        memcpy(old, e->msg, sizeof old);
        snprintf(e->msg, sizeof e->msg, "%s: %s", head, old);
    }
    return code;
}
