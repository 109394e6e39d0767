/*
 * base64.c — base64 (see base64.h).
 */
#include "base64.h"

size_t base64_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void base64_encode(const void *data, size_t n, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    size_t i;
    for (i = 0; i + 2 < n; i += 3, out += 4) {
        unsigned long v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 | p[i + 2];
        out[0] = abc[v >> 18];
        out[1] = abc[(v >> 12) & 63];
        out[2] = abc[(v >> 6) & 63];
        out[3] = abc[v & 63];
    }
    if (i < n) {
        /* one or two bytes left: two or three characters, then '=' */
        unsigned long v =
            (unsigned long)p[i] << 16 | (i + 1 < n ? (unsigned long)p[i + 1] << 8 : 0);
        out[0] = abc[v >> 18];
        out[1] = abc[(v >> 12) & 63];
        out[2] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
        out[3] = '=';
        out += 4;
    }
    *out = '\0';
}
