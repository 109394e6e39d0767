/*
 * gz.h — gzip in memory (zlib), for the results files of the archive.
 *
 * A run's results are stored as results.xml.gz: the XML compresses about
 * five to one, and an archive of a year of nightly runs is mostly those
 * files.  Compression is deterministic (no name, no time stamp in the
 * header), so the same results give the same bytes.  Decompression is of
 * untrusted input: it stops at a cap on the output (a small file must not
 * inflate into gigabytes), refuses trailing garbage and checks the CRC
 * (zlib does).  results_load.c and results_write.c call it on the way in
 * and out; nothing else needs to know a file was compressed.
 */
#ifndef BE_GZ_H
#define BE_GZ_H

#include <stddef.h>

#include "err.h"

/* 1 when data[0..len) starts like a gzip stream. */
int gz_is(const void *data, size_t len);

/* data[0..len) as a gzip stream (level 9) in *out (malloc'd), *outlen
 * bytes. */
int gz_compress(const void *data, size_t len, char **out, size_t *outlen, err *e);

/* The gzip stream data[0..len) inflated into *out (malloc'd,
 * NUL-terminated), *outlen bytes, at most cap; what names the input in
 * errors ("x.xml.gz: not a gzip stream: ..."). */
int gz_decompress(const char *what, const void *data, size_t len, size_t cap, char **out,
                  size_t *outlen, err *e);

#endif
