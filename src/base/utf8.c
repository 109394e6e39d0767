/*
 * utf8.c — validation, sanitizing copies and escaping of UTF-8 (utf8.h).
 *
 * The decoder follows the Unicode "well-formed UTF-8" table (Unicode 15,
 * table 3-7): the second byte's range depends on the first, which rules out
 * overlong forms, surrogates and code points beyond U+10FFFF in one place.
 */
#include "utf8.h"

#include <stdio.h>
#include <string.h>

long utf8_decode(const char *s, size_t n, size_t *len)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char lo = 0x80, hi = 0xBF;
    size_t need, i;
    long cp;

    *len = 1;
    if (u[0] < 0x80)
        return (long)u[0];
    if (u[0] >= 0xC2 && u[0] <= 0xDF) {
        need = 1;
        cp = (long)(u[0] & 0x1F);
    } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        need = 2;
        cp = (long)(u[0] & 0x0F);
        if (u[0] == 0xE0)
            lo = 0xA0; /* overlong below U+0800 */
        else if (u[0] == 0xED)
            hi = 0x9F; /* surrogates U+D800..U+DFFF */
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        need = 3;
        cp = (long)(u[0] & 0x07);
        if (u[0] == 0xF0)
            lo = 0x90; /* overlong below U+10000 */
        else if (u[0] == 0xF4)
            hi = 0x8F; /* beyond U+10FFFF */
    } else {
        return UTF8_INVALID; /* a continuation byte, C0, C1, F5..FF */
    }
    if (n < need + 1)
        return UTF8_INVALID;
    for (i = 1; i <= need; i++) {
        unsigned char c = u[i];
        if (c < lo || c > hi)
            return UTF8_INVALID;
        lo = 0x80;
        hi = 0xBF;
        cp = (cp << 6) | (long)(c & 0x3F);
    }
    *len = need + 1;
    return cp;
}

int utf8_noncharacter(long cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp >= 0 && (cp & 0xFFFE) == 0xFFFE);
}

int utf8_control(long cp)
{
    return (cp >= 0 && cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
           (cp >= 0x7F && cp <= 0x9F);
}

/* The character at s (NUL-terminated): its code point (UTF8_INVALID when
 * invalid) and length. */
static long next_char(const char *s, size_t *len)
{
    size_t n = 1;
    while (n < 4 && s[n])
        n++;
    return utf8_decode(s, n, len);
}

static int replaced(long cp)
{
    return cp < 0 || utf8_noncharacter(cp) || utf8_control(cp);
}

int utf8_clean(const char *s)
{
    size_t len;
    while (*s) {
        if (replaced(next_char(s, &len)))
            return 0;
        s += len;
    }
    return 1;
}

/* utf8_copy, and with line set utf8_line's handling of white space and
 * control characters. */
static int copy(char *dst, size_t size, const char *s, int line)
{
    size_t used = 0, len, out;
    int changed = 0;
    const char *bytes;

    while (*s) {
        long cp = next_char(s, &len);
        bytes = s;
        out = len;
        if (line && (cp == '\t' || cp == '\n' || cp == '\r')) {
            bytes = " ";
            out = 1;
            changed = 1;
        } else if (line && utf8_control(cp)) {
            out = 0;
            changed = 1;
        } else if (replaced(cp)) {
            bytes = UTF8_REPLACEMENT;
            out = sizeof UTF8_REPLACEMENT - 1;
            changed = 1;
        }
        if (used + out >= size) {
            changed = 1;
            break;
        }
        memcpy(dst + used, bytes, out);
        used += out;
        s += len;
    }
    dst[used] = '\0';
    return changed;
}

int utf8_copy(char *dst, size_t size, const char *s)
{
    return copy(dst, size, s, 0);
}

int utf8_line(char *dst, size_t size, const char *s)
{
    return copy(dst, size, s, 1);
}

/* The printable form of the character at s into buf; its length. */
static size_t escape_char(const char *s, size_t *len, char buf[16])
{
    long cp = next_char(s, len);
    if (cp < 0x20 || cp == 0x7F) {
        unsigned char c = (unsigned char)s[0];
        switch (c) {
        case '\t':
            return (size_t)snprintf(buf, 16, "\\t");
        case '\n':
            return (size_t)snprintf(buf, 16, "\\n");
        case '\r':
            return (size_t)snprintf(buf, 16, "\\r");
        default:
            return (size_t)snprintf(buf, 16, "\\x%02X", (unsigned)c);
        }
    }
    if (cp == '\\')
        return (size_t)snprintf(buf, 16, "\\\\");
    if (utf8_control(cp) || utf8_noncharacter(cp))
        return (size_t)(cp > 0xFFFF ? snprintf(buf, 16, "\\U%08lX", (unsigned long)cp)
                                    : snprintf(buf, 16, "\\u%04lX", (unsigned long)cp));
    memcpy(buf, s, *len);
    return *len;
}

int utf8_escape(char *dst, size_t size, const char *s)
{
    static const char dots[] = "...";
    size_t used = 0, total = 0, len, n, room;
    const char *p;
    char buf[16];

    for (p = s; *p; p += len)
        total += escape_char(p, &len, buf);
    /* all of it, or as much as leaves room for the dots */
    room = total < size ? size - 1 : size > sizeof dots ? size - sizeof dots : 0;
    for (p = s; *p; p += len) {
        n = escape_char(p, &len, buf);
        if (used + n > room)
            break;
        memcpy(dst + used, buf, n);
        used += n;
    }
    if (total >= size && used + sizeof dots - 1 < size) {
        memcpy(dst + used, dots, sizeof dots - 1);
        used += sizeof dots - 1;
    }
    dst[used] = '\0';
    return total >= size;
}
