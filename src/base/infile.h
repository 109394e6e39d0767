/*
 * infile.h — the one way breakeven reads a file it did not just write.
 *
 * Every file breakeven reads is untrusted input: a results file from
 * another machine, OUT/site.conf and anything else inside an OUT that
 * others can write to, a price table, a network list, a tuning cache.  An
 * attacker may make such a file a FIFO (a read that never ends), a link to
 * /dev/zero (one that never ends either), to /etc/passwd (a secret the
 * error message would quote), or 200 MB of text.  So a file is read only
 * when it is a regular file (opened without blocking, checked on the
 * descriptor, so the file checked is the file read), of at most the size
 * its caller names, and, for text, when it holds no NUL byte and only valid
 * UTF-8; where a link inside OUT could lead out of it, the last component
 * is opened without following links (O_NOFOLLOW) and the directories above
 * it through fsx_dir_open (fsx.h).
 *
 * Errors are one line that names the file and, for text, the line
 * ("site.conf:3: invalid UTF-8"), and quote at most a short escaped
 * fragment of what was read (infile_fragment): an error message is no
 * channel to read a file through.
 */
#ifndef BE_INFILE_H
#define BE_INFILE_H

#include <stddef.h>

#include "err.h"

/* Flags of infile_read. */
enum {
    INFILE_TEXT = 1,     /* no NUL byte, valid UTF-8 throughout                */
    INFILE_NOFOLLOW = 2, /* refuse a symbolic link as the file itself          */
    INFILE_OPTIONAL = 4, /* a file that is not there: BE_OK, *data NULL, *len 0 */
    INFILE_NONEMPTY = 8  /* an empty file is an error                          */
};

/* The longest fragment of a file an error message quotes (bytes of the
 * file; escaped, it may take up to four times that). */
#define INFILE_FRAGMENT 40

/* Reads the file name (relative to the directory dirfd, or to the current
 * directory with AT_FDCWD; an absolute name ignores dirfd) into *data,
 * NUL-terminated, *len bytes (len may be NULL), for the caller to free:
 * only a regular file of at most max bytes, as the flags ask.  shown is how
 * errors name the file (NULL: name itself); it is escaped on the way.
 * BE_EFAIL with one line otherwise:
 *   "shown: is a FIFO, not a regular file"
 *   "shown: is a symbolic link (not followed here)"
 *   "shown: is 209715200 bytes; at most 65536 are read"
 *   "shown:3: a NUL byte (a text file holds none)"
 *   "shown:3: invalid UTF-8 after \"fragment\"" */
int infile_readat(int dirfd, const char *name, const char *shown, size_t max, unsigned flags,
                  char **data, size_t *len, err *e);

/* The checks of infile_readat but the reading: *fd open on a regular
 * file (INFILE_NOFOLLOW, INFILE_OPTIONAL as there: *fd is -1 for a
 * missing optional file), *size its size; the caller reads and closes.
 * For a reader of a part of a file (a PNG's header). */
int infile_openat(int dirfd, const char *name, const char *shown, unsigned flags, int *fd,
                  long long *size, err *e);

/* infile_readat relative to the current directory, errors naming path. */
int infile_read(const char *path, size_t max, unsigned flags, char **data, size_t *len, err *e);

/* 0 when text[0..len) holds no NUL byte and only valid UTF-8; else the
 * offset of the first offending byte plus 1, with *line its line number
 * (from 1) and *nul 1 for a NUL, 0 for invalid UTF-8. */
size_t infile_check_text(const char *text, size_t len, long *line, int *nul);

/* The check of INFILE_TEXT on text[0..len), for bytes that came another
 * way (a fuzzer, a decompressor): BE_OK, or BE_EFAIL with "shown:LINE:
 * a NUL byte ..." or "shown:LINE: invalid UTF-8 ..." as infile_readat
 * says it (shown is used as it is: escape it first). */
int infile_text_ok(const char *shown, const char *text, size_t len, err *e);

/* Up to INFILE_FRAGMENT bytes of s[0..n) (cut on a character boundary,
 * at most one line, "..." when cut) escaped into dst[0..size) as one
 * printable line (utf8_escape): what an error may quote of a file. */
void infile_fragment(char *dst, size_t size, const char *s, size_t n);

#endif
