/*
 * base64.h — base64 (RFC 4648, with padding) of a buffer.
 *
 * What a page carries inside itself: the charts of the single-file page as
 * data: URIs, and the hash of its stylesheet in its Content-Security-Policy
 * (sha256.h).
 */
#ifndef BE_BASE64_H
#define BE_BASE64_H

#include <stddef.h>

/* The characters base64 makes of n bytes, without the terminating NUL. */
size_t base64_len(size_t n);
/* data[0..n) as base64 into out, which holds base64_len(n) + 1 bytes
 * (NUL-terminated). */
void base64_encode(const void *data, size_t n, char *out);

#endif
