/*
 * png.c — PNG files of opaque charts (png.h).
 */
#include "png.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* A growing output. */
typedef struct obuf {
    unsigned char *p;
    size_t n, cap;
} obuf;

static int grow(obuf *b, size_t more)
{
    unsigned char *np;
    size_t cap = b->cap ? b->cap : 65536;
    if (b->n + more <= b->cap)
        return BE_OK;
    while (cap < b->n + more)
        cap *= 2;
    if (!(np = realloc(b->p, cap)))
        return BE_EFAIL;
    b->p = np;
    b->cap = cap;
    return BE_OK;
}

static void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static int chunk(obuf *b, const char type[4], const unsigned char *data, size_t len)
{
    uLong crc;
    if (len > 0x7fffffffUL || grow(b, len + 12) < 0)
        return BE_EFAIL;
    be32(b->p + b->n, (uint32_t)len);
    memcpy(b->p + b->n + 4, type, 4);
    if (len)
        memcpy(b->p + b->n + 8, data, len);
    crc = crc32(0L, b->p + b->n + 4, (uInt)(len + 4));
    be32(b->p + b->n + 8 + len, (uint32_t)crc);
    b->n += len + 12;
    return BE_OK;
}

/* Whether every pixel is opaque. */
static int opaque(const unsigned char *data, int w, int h, int stride)
{
    int x, y;
    for (y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (x = 0; x < w; x++)
            if ((row[x] >> 24) != 0xff)
                return 0;
    }
    return 1;
}

/* The rows unfiltered (filter type 0) into raw: RGB, or RGBA (bpp 4) with
 * the colours no longer premultiplied, rounded as Cairo's writer rounds. */
static void rows_of(const unsigned char *data, int w, int h, int stride, int bpp,
                    unsigned char *raw)
{
    size_t o = 0;
    int x, y, c;
    for (y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        raw[o++] = 0;
        /* opaque: the bytes as they are, no division (a tenth of a
         * report's time went to this loop) */
        if (bpp == 3) {
            for (x = 0; x < w; x++, o += 3) {
                raw[o] = (unsigned char)(row[x] >> 16);
                raw[o + 1] = (unsigned char)(row[x] >> 8);
                raw[o + 2] = (unsigned char)row[x];
            }
            continue;
        }
        for (x = 0; x < w; x++) {
            uint32_t px = row[x], a = px >> 24;
            for (c = 2; c >= 0; c--) {
                uint32_t v = (px >> (8 * c)) & 0xff;
                if (bpp == 4)
                    v = a ? (v * 255 + a / 2) / a : 0;
                raw[o++] = (unsigned char)v;
            }
            if (bpp == 4)
                raw[o++] = (unsigned char)a;
        }
    }
}

/* raw deflated into out (cap *outlen bytes; *outlen the bytes written):
 * level 9 with its search cut from 4096 candidates a match to 32.  On a
 * run's eight charts, 32 against 512 took 0.30 s of CPU instead of 0.43 s
 * (their drawing and the fit included) for 1.7% more bytes; deflate was
 * half of a full report of 1,000 runs, which draws a comparison chart per
 * run (docs/archive.md). */
static int deflate_to(const unsigned char *raw, size_t rawlen, unsigned char *out, uLongf *outlen)
{
    z_stream z;
    int zr;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, 9) != Z_OK)
        return BE_EFAIL;
    if (deflateTune(&z, 32, 258, 258, 32) != Z_OK) {
        deflateEnd(&z);
        return BE_EFAIL;
    }
    z.next_in = (Bytef *)(uintptr_t)raw;
    z.avail_in = (uInt)rawlen;
    z.next_out = out;
    z.avail_out = (uInt)*outlen;
    zr = deflate(&z, Z_FINISH);
    *outlen = z.total_out;
    deflateEnd(&z);
    return zr == Z_STREAM_END ? BE_OK : BE_EFAIL;
}

int png_write(const unsigned char *data, int w, int h, int stride, char **out, size_t *len, err *e)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char ihdr[13], *raw = NULL;
    size_t rawlen;
    uLongf zlen;
    obuf b = {NULL, 0, 0};
    int rc = BE_EFAIL, bpp;

    *out = NULL;
    if (w <= 0 || h <= 0 || stride < 4 * w)
        return err_set(e, BE_EUSAGE, "png: bad image %dx%d", w, h);
    bpp = opaque(data, w, h, stride) ? 3 : 4;
    rawlen = (size_t)h * ((size_t)bpp * (size_t)w + 1);
    if (rawlen > UINT_MAX / 2)
        return err_set(e, BE_EUSAGE, "png: image %dx%d too large", w, h);
    if (!(raw = malloc(rawlen)))
        return err_set(e, BE_EFAIL, "png: out of memory");
    rows_of(data, w, h, stride, bpp, raw);
    be32(ihdr, (uint32_t)w);
    be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;                /* bits per sample */
    ihdr[9] = bpp == 3 ? 2 : 6; /* RGB, or RGBA */
    ihdr[10] = 0;               /* deflate */
    ihdr[11] = 0;               /* adaptive filtering, each row type 0 */
    ihdr[12] = 0;               /* not interlaced */
    zlen = compressBound((uLong)rawlen);
    if (grow(&b, sizeof sig) < 0)
        goto oom;
    memcpy(b.p, sig, sizeof sig);
    b.n = sizeof sig;
    if (chunk(&b, "IHDR", ihdr, sizeof ihdr) < 0 || grow(&b, zlen + 12) < 0)
        goto oom;
    /* the IDAT's data straight into place, its header and CRC around it */
    if (deflate_to(raw, rawlen, b.p + b.n + 8, &zlen) < 0) {
        rc = err_set(e, BE_EFAIL, "png: zlib cannot compress");
        goto fail;
    }
    be32(b.p + b.n, (uint32_t)zlen);
    memcpy(b.p + b.n + 4, "IDAT", 4);
    be32(b.p + b.n + 8 + zlen, (uint32_t)crc32(0L, b.p + b.n + 4, (uInt)(zlen + 4)));
    b.n += zlen + 12;
    if (chunk(&b, "IEND", NULL, 0) < 0)
        goto oom;
    free(raw);
    *out = (char *)b.p;
    *len = b.n;
    return BE_OK;
oom:
    rc = err_set(e, BE_EFAIL, "png: out of memory");
fail:
    free(raw);
    free(b.p);
    return rc;
}
