/*
 * utf8.h — text from untrusted sources, made safe to store and to show.
 *
 * breakeven reads names, messages and ids from results files gathered on
 * many machines (results_load.c) and copies them into fixed buffers that other
 * modules print, put in charts, CSV and HTML.  utf8_copy makes such a copy
 * valid UTF-8 whatever it was given, cut on a character boundary, with the
 * characters that have no business in a name replaced by U+FFFD;
 * utf8_escape turns text into one printable line for an error message.
 */
#ifndef BE_UTF8_H
#define BE_UTF8_H

#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, encoded. */
#define UTF8_REPLACEMENT "\xEF\xBF\xBD"

/* What utf8_decode returns for an invalid sequence: no code point. */
#define UTF8_INVALID (-1L)

/* Decodes the character at s[0..n) (n >= 1).  Returns its code point, or
 * UTF8_INVALID for an invalid sequence (a stray or truncated byte, an overlong form, a
 * surrogate, beyond U+10FFFF); *len is the number of bytes it takes (1 for
 * an invalid byte, so that decoding always moves on). */
long utf8_decode(const char *s, size_t n, size_t *len);

/* 1 when cp is a Unicode non-character: U+FDD0..U+FDEF, and the last two
 * code points of every plane (U+FFFE, U+FFFF, U+1FFFE, ..., U+10FFFF). */
int utf8_noncharacter(long cp);

/* 1 when cp is a control character other than TAB, LF and CR (C0, DEL and
 * C1): what a terminal or a single-line format may interpret. */
int utf8_control(long cp);

/* 1 when s needs no replacement: valid UTF-8 with neither non-characters
 * nor utf8_control characters. */
int utf8_clean(const char *s);

/* Copies s into dst[0..size) (size >= 1; dst is always NUL-terminated),
 * replacing every invalid sequence, non-character and utf8_control
 * character by U+FFFD, and cutting on a character boundary when dst is too
 * small.  Returns 1 when the copy differs from s (cut or replaced), else 0. */
int utf8_copy(char *dst, size_t size, const char *s);

/* Copies s into dst[0..size) (size >= 1) as one line of text, for a title:
 * as utf8_copy, but control characters are removed and TAB, LF and CR
 * become spaces.  Returns 1 when the copy differs from s. */
int utf8_line(char *dst, size_t size, const char *s);

/* Copies s into dst[0..size) (size >= 1) as one printable line: backslash,
 * TAB, LF and CR become \\ \t \n \r, other control characters and invalid
 * bytes \xNN, C1 controls and non-characters \uNNNN or \UNNNNNNNN.  Cut on
 * a character (or escape) boundary, with "..." at the end when cut.
 * Returns 1 when cut. */
int utf8_escape(char *dst, size_t size, const char *s);

#endif
