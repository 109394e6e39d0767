/*
 * infile.c — reading an untrusted file (infile.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utf8.h"

size_t infile_check_text(const char *text, size_t len, long *line, int *nul)
{
    size_t i = 0, n;
    *line = 1;
    *nul = 0;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\0') {
            *nul = 1;
            return i + 1;
        }
        if (c < 0x80) {
            *line += c == '\n';
            i++;
            continue;
        }
        if (utf8_decode(text + i, len - i, &n) < 0)
            return i + 1;
        i += n;
    }
    return 0;
}

void infile_fragment(char *dst, size_t size, const char *s, size_t n)
{
    char raw[INFILE_FRAGMENT + 8];
    size_t used = 0, len;
    int cut = 0;
    while (used < n && s[used] && s[used] != '\n') {
        utf8_decode(s + used, n - used, &len);
        if (used + len > INFILE_FRAGMENT) {
            cut = 1;
            break;
        }
        used += len;
    }
    memcpy(raw, s, used);
    raw[used] = '\0';
    utf8_escape(dst, size, raw);
    if (cut || (used < n && s[used] == '\n' && used + 1 < n))
        snprintf(dst + strlen(dst), size - strlen(dst), "...");
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* Reads fd (a regular file said to hold size bytes) into a buffer of at
 * most max bytes: a file that grows past max while read is refused too,
 * and one that claims 0 bytes (/proc) is read to its end. */
static int read_capped(int fd, size_t size, size_t max, const char *shown, char **data, size_t *got,
                       err *e)
{
    size_t cap = (size < max ? size : max) + 1, used = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return err_set(e, BE_EFAIL, "%s: out of memory for %zu bytes", shown, cap);
    for (;;) {
        ssize_t r;
        if (used == cap) {
            char *nb;
            size_t ncap = cap < max / 2 ? cap * 2 : max + 1;
            if (used > max) {
                free(buf);
                return err_set(e, BE_EFAIL, "%s: more than %zu bytes; at most %zu are read", shown,
                               max, max);
            }
            if (!(nb = realloc(buf, ncap + 1))) {
                free(buf);
                return err_set(e, BE_EFAIL, "%s: out of memory for %zu bytes", shown, ncap);
            }
            buf = nb;
            cap = ncap;
        }
        r = read(fd, buf + used, cap - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int why = errno;
            free(buf);
            return err_set(e, BE_EFAIL, "%s: read error: %s", shown, strerror(why));
        }
        if (r == 0)
            break;
        used += (size_t)r;
    }
    if (used > max) {
        free(buf);
        return err_set(e, BE_EFAIL, "%s: more than %zu bytes; at most %zu are read", shown, max,
                       max);
    }
    buf[used] = '\0';
    *data = buf;
    *got = used;
    return BE_OK;
}

int infile_text_ok(const char *shown, const char *text, size_t len, err *e)
{
    char frag[4 * INFILE_FRAGMENT + 8];
    long line;
    int nul;
    size_t at = infile_check_text(text, len, &line, &nul), start;
    if (at == 0)
        return BE_OK;
    if (nul)
        return err_set(e, BE_EFAIL, "%s:%ld: a NUL byte (a text file holds none)", shown, line);
    /* what came before the bad byte on its line, at most a fragment */
    for (start = at - 1; start > 0 && text[start - 1] != '\n'; start--)
        ;
    if (at - 1 - start > INFILE_FRAGMENT)
        start = at - 1 - INFILE_FRAGMENT;
    while (start < at - 1 && ((unsigned char)text[start] & 0xC0) == 0x80)
        start++;
    infile_fragment(frag, sizeof frag, text + start, at - 1 - start);
    return err_set(e, BE_EFAIL, "%s:%ld: invalid UTF-8 (byte 0x%02X)%s%s%s", shown, line,
                   (unsigned)(unsigned char)text[at - 1], frag[0] ? " after \"" : "", frag,
                   frag[0] ? "\"" : "");
}

int infile_openat(int dirfd, const char *name, const char *shown, unsigned flags, int *fd,
                  long long *size, err *e)
{
    char esc[1024];
    struct stat st;
    int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, rc;

    *size = 0;
    utf8_escape(esc, sizeof esc, shown ? shown : name);
    if (flags & INFILE_NOFOLLOW)
        oflags |= O_NOFOLLOW;
    *fd = openat(dirfd, name, oflags);
    if (*fd < 0) {
        int why = errno;
        struct stat lst;
        if (why == ENOENT && (flags & INFILE_OPTIONAL))
            return BE_OK;
        /* O_NOFOLLOW on a link fails with ELOOP (Linux) or EMLINK (BSD) */
        if ((flags & INFILE_NOFOLLOW) && fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(lst.st_mode))
            return err_set(e, BE_EFAIL, "%s: is a symbolic link (not followed here)", esc);
        return err_set(e, BE_EFAIL, "%s: cannot open: %s", esc, strerror(why));
    }
    if (fstat(*fd, &st) != 0)
        rc = err_set(e, BE_EFAIL, "%s: cannot stat: %s", esc, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = err_set(e, BE_EFAIL, "%s: is %s, not a regular file", esc, kind_of(st.st_mode));
    else {
        *size = (long long)st.st_size;
        return BE_OK;
    }
    close(*fd);
    *fd = -1;
    return rc;
}

int infile_readat(int dirfd, const char *name, const char *shown, size_t max, unsigned flags,
                  char **data, size_t *len, err *e)
{
    char esc[1024];
    char *buf = NULL;
    size_t got = 0;
    long long size;
    int fd, rc;

    *data = NULL;
    if (len)
        *len = 0;
    if ((rc = infile_openat(dirfd, name, shown, flags, &fd, &size, e)) < 0 || fd < 0)
        return rc;
    utf8_escape(esc, sizeof esc, shown ? shown : name);
    if (size < 0 || (unsigned long long)size > (unsigned long long)max) {
        rc = err_set(e, BE_EFAIL, "%s: is %lld bytes; at most %zu are read", esc, size, max);
        goto done;
    }
    if ((rc = read_capped(fd, (size_t)size, max, esc, &buf, &got, e)) < 0)
        goto done;
    if (got == 0 && (flags & INFILE_NONEMPTY)) {
        rc = err_set(e, BE_EFAIL, "%s: is empty", esc);
        goto done;
    }
    if ((flags & INFILE_TEXT) && (rc = infile_text_ok(esc, buf, got, e)) < 0)
        goto done;
    *data = buf;
    buf = NULL;
    if (len)
        *len = got;
    rc = BE_OK;
done:
    free(buf);
    close(fd);
    return rc;
}

int infile_read(const char *path, size_t max, unsigned flags, char **data, size_t *len, err *e)
{
    return infile_readat(AT_FDCWD, path, NULL, max, flags, data, len, e);
}
