/*
 * sha256.h — SHA-256 (FIPS 180-4) of a buffer.
 *
 * For the one place a page names the exact bytes it holds: the
 * Content-Security-Policy of the single-file page (report --single-file)
 * allows its inlined stylesheet by the stylesheet's hash ('sha256-…')
 * rather than allowing every inline style.  Not used to protect anything
 * secret; no library breakeven links offers it.
 */
#ifndef BE_SHA256_H
#define BE_SHA256_H

#include <stddef.h>

#define SHA256_BYTES 32

/* The digest of data[0..len) into out. */
void sha256(const void *data, size_t len, unsigned char out[SHA256_BYTES]);

#endif
