/*
 * gz.c — gzip in memory (gz.h).
 */
#include "gz.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

int gz_is(const void *data, size_t len)
{
    const unsigned char *p = data;
    return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int gz_compress(const void *data, size_t len, char **out, size_t *outlen, err *e)
{
    z_stream z;
    size_t cap;
    char *buf;
    int zr;

    *out = NULL;
    if (len > UINT_MAX / 2)
        return err_set(e, BE_EFAIL, "%zu bytes are too many to compress", len);
    memset(&z, 0, sizeof z);
    /* 15 + 16: a gzip header, deflateInit2's default one without a name or
     * a time, so the bytes depend on the data alone */
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return err_set(e, BE_EFAIL, "out of memory starting zlib");
    cap = deflateBound(&z, (uLong)len) + 32;
    if (!(buf = malloc(cap))) {
        deflateEnd(&z);
        return err_set(e, BE_EFAIL, "out of memory compressing %zu bytes", len);
    }
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)buf;
    z.avail_out = (uInt)cap;
    zr = deflate(&z, Z_FINISH);
    *outlen = cap - z.avail_out;
    deflateEnd(&z);
    if (zr != Z_STREAM_END) {
        free(buf);
        return err_set(e, BE_EFAIL, "zlib cannot compress (%d)", zr);
    }
    *out = buf;
    return BE_OK;
}

int gz_decompress(const char *what, const void *data, size_t len, size_t cap, char **out,
                  size_t *outlen, err *e)
{
    z_stream z;
    size_t size = len * 4 + 4096, used = 0;
    char *buf = NULL;
    int zr = Z_OK, rc;

    *out = NULL;
    if (len > UINT_MAX)
        return err_set(e, BE_EFAIL, "%s: too large to decompress", what);
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return err_set(e, BE_EFAIL, "out of memory starting zlib");
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    while (zr != Z_STREAM_END) {
        char *nb;
        if (size > cap + 1)
            size = cap + 1;
        if (!(nb = realloc(buf, size + 1))) {
            rc = err_set(e, BE_EFAIL, "%s: out of memory decompressing", what);
            goto fail;
        }
        buf = nb;
        z.next_out = (Bytef *)buf + used;
        z.avail_out = (uInt)(size - used);
        zr = inflate(&z, Z_NO_FLUSH);
        used = size - z.avail_out;
        if (zr != Z_OK && zr != Z_STREAM_END) {
            rc = err_set(e, BE_EFAIL, "%s: not a whole gzip stream: %s", what,
                         z.msg               ? z.msg
                         : zr == Z_BUF_ERROR ? "it ends early"
                                             : "zlib error");
            goto fail;
        }
        if (used > cap) {
            rc = err_set(e, BE_EFAIL, "%s: inflates to more than %zu bytes", what, cap);
            goto fail;
        }
        if (zr == Z_OK && z.avail_out == 0)
            size *= 2;
    }
    if (z.avail_in != 0) {
        rc = err_set(e, BE_EFAIL, "%s: data after the end of the gzip stream", what);
        goto fail;
    }
    inflateEnd(&z);
    buf[used] = '\0';
    *out = buf;
    *outlen = used;
    return BE_OK;
fail:
    inflateEnd(&z);
    free(buf);
    return rc;
}
