/*
 * fsx.c — directory creation and atomic replacement of files (fsx.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "fsx.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fsx_mkdirs(const char *path, err *e)
{
    char buf[4096];
    size_t i, len = strlen(path);
    struct stat st;

    if (len == 0 || len >= sizeof buf)
        return err_set(e, BE_EFAIL, "%s: bad directory name", path);
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return err_set(e, BE_EFAIL, "%s: cannot create directory: %s", buf, strerror(errno));
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
            return err_set(e, BE_EFAIL, "%s: exists and is not a directory", buf);
        if (i < len)
            buf[i] = '/';
    }
    return BE_OK;
}

int fsx_real_dir(const char *path, err *e)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return err_set(e, BE_EFAIL, "%s: %s", path, strerror(errno));
    if (S_ISLNK(st.st_mode))
        return err_set(e, BE_EFAIL, "%s: is a symbolic link, not a directory of its own", path);
    if (!S_ISDIR(st.st_mode))
        return err_set(e, BE_EFAIL, "%s: is not a directory", path);
    return BE_OK;
}

/* fsync the directory holding path so the rename itself is durable. */
static void sync_dir(const char *path)
{
    char buf[4096];
    int fd;
    if (strlen(path) >= sizeof buf)
        return;
    strcpy(buf, path);
    fd = open(dirname(buf), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int fsx_write_atomic(const char *path, const void *data, size_t len, err *e)
{
    char tmp[4096];
    const char *p = data;
    int fd, n;

    n = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return err_set(e, BE_EFAIL, "%s: path too long", path);
    fd = mkstemp(tmp);
    if (fd < 0)
        return err_set(e, BE_EFAIL, "%s: cannot create: %s", path, strerror(errno));
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        p += w;
        len -= (size_t)w;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    sync_dir(path);
    return BE_OK;
fail:
    n = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    return err_set(e, BE_EFAIL, "%s: cannot write: %s", path, strerror(n));
}

int fsx_read_all(const char *path, char **data, size_t *len, err *e)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, used = 0;

    *data = NULL;
    if (!f)
        return err_set(e, BE_EFAIL, "%s: cannot open: %s", path, strerror(errno));
    for (;;) {
        size_t r;
        if (used + 4096 + 1 > cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, ncap);
            if (!nb)
                goto fail;
            buf = nb;
            cap = ncap;
        }
        r = fread(buf + used, 1, cap - used - 1, f);
        used += r;
        if (r == 0)
            break;
    }
    if (ferror(f))
        goto fail;
    fclose(f);
    buf[used] = '\0';
    *data = buf;
    if (len)
        *len = used;
    return BE_OK;
fail:
    fclose(f);
    free(buf);
    return err_set(e, BE_EFAIL, "%s: cannot read", path);
}
