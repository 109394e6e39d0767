/*
 * fsx.c — directory creation and atomic replacement of files (fsx.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "fsx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "infile.h"
#include "utf8.h"

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

/* ---- atomic replacement in a directory --------------------------------- */

/* A name for a temporary beside name: "name.tmp." and six characters that
 * differ from call to call (O_EXCL makes a clash a retry, never a
 * mistake). */
static int temp_name(char *buf, size_t size, const char *name, unsigned attempt)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec ts;
    unsigned long long x;
    char suffix[7];
    int i, n;
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (unsigned long long)ts.tv_nsec * 2654435761ULL ^ (unsigned long long)getpid() << 20 ^
        (unsigned long long)attempt * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)(uintptr_t)buf;
    for (i = 0; i < 6; i++) {
        suffix[i] = chars[x % (sizeof chars - 1)];
        x /= sizeof chars - 1;
    }
    suffix[6] = '\0';
    n = snprintf(buf, size, "%s.tmp.%s", name, suffix);
    return n > 0 && (size_t)n < size && (size_t)n <= 255;
}

/* Writes p[0..len) whole; BE_EFAIL, errno saying why, when it cannot. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return BE_EFAIL;
        }
        p += w;
        len -= (size_t)w;
    }
    return BE_OK;
}

/* BE_OK when name in dirfd is missing or a regular file of its own. */
static int replaceable(int dirfd, const char *name, const char *shown, err *e)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? BE_OK : err_set(e, BE_EFAIL, "%s: %s", shown, strerror(errno));
    if (S_ISLNK(st.st_mode))
        return err_set(e, BE_EFAIL,
                       "%s: is a symbolic link (breakeven replaces no link where it writes)",
                       shown);
    if (!S_ISREG(st.st_mode))
        return err_set(e, BE_EFAIL, "%s: is not a regular file", shown);
    return BE_OK;
}

int fsx_write_at(int dirfd, const char *name, const char *shown, const void *data, size_t len,
                 err *e)
{
    char tmp[512];
    unsigned attempt;
    int fd = -1, rc, why;

    if ((rc = replaceable(dirfd, name, shown, e)) < 0)
        return rc;
    for (attempt = 0; attempt < 100; attempt++) {
        if (!temp_name(tmp, sizeof tmp, name, attempt))
            return err_set(e, BE_EFAIL, "%s: name too long", shown);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0)
        return err_set(e, BE_EFAIL, "%s: cannot create: %s", shown, strerror(errno));
    if (write_all(fd, data, len) != 0 || fchmod(fd, 0644) != 0 || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (renameat(dirfd, tmp, dirfd, name) != 0)
        goto fail;
    (void)fsync(dirfd); /* the rename itself durable; the file is whole either way */
    return BE_OK;
fail:
    why = errno;
    if (fd >= 0)
        close(fd);
    unlinkat(dirfd, tmp, 0);
    return err_set(e, BE_EFAIL, "%s: cannot write: %s", shown, strerror(why));
}

int fsx_write_atomic(const char *path, const void *data, size_t len, err *e)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int dfd, rc;
    if (strlen(path) >= sizeof dir)
        return err_set(e, BE_EFAIL, "%s: path too long", path);
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (slash && !slash[1])
        return err_set(e, BE_EFAIL, "%s: not a file name", path);
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return err_set(e, BE_EFAIL, "%s: cannot create: %s", path, strerror(errno));
    rc = fsx_write_at(dfd, slash ? slash + 1 : path, path, data, len, e);
    close(dfd);
    return rc;
}

/* ---- under OUT --------------------------------------------------------- */

/* The part of path below root ("" for root itself), or NULL when path is
 * not inside root. */
static const char *below(const char *root, const char *path)
{
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (strncmp(path, root, n) != 0)
        return NULL;
    if (path[n] == '\0')
        return path + n;
    if (path[n] != '/' && !(n == 1 && root[0] == '/'))
        return NULL;
    while (path[n] == '/')
        n++;
    return path + n;
}

/* Walks the directories of rel (its first ndirs bytes) below the open
 * directory *fd, replacing *fd by each in turn: with create, making those
 * missing; without, stopping (BE_OK, *missing set) at the first missing.
 * shown is root's name as the user gave it. */
static int walk(int *fd, const char *root, const char *rel, size_t ndirs, int create, int *missing,
                err *e)
{
    char name[256], shown[4096 + 16], esc[1024];
    size_t i = 0, n;
    *missing = 0;
    while (i < ndirs) {
        int next;
        struct stat st;
        while (i < ndirs && rel[i] == '/')
            i++;
        for (n = 0; i + n < ndirs && rel[i + n] != '/'; n++)
            ;
        if (n == 0)
            break;
        snprintf(shown, sizeof shown, "%s/%.*s", root, (int)(i + n), rel);
        utf8_escape(esc, sizeof esc, shown);
        if (n >= sizeof name)
            return err_set(e, BE_EFAIL, "%s: name too long", esc);
        memcpy(name, rel + i, n);
        name[n] = '\0';
        i += n;
        if (strcmp(name, ".") == 0)
            continue;
        if (strcmp(name, "..") == 0)
            return err_set(e, BE_EFAIL, "%s: \"..\" leads out of %s", esc, root);
        if (create && mkdirat(*fd, name, 0777) == 0)
            (void)fsync(*fd); /* the new entry survives a crash with what goes in it */
        else if (create && errno != EEXIST)
            return err_set(e, BE_EFAIL, "%s: cannot create directory: %s", esc, strerror(errno));
        next = openat(*fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            int why = errno;
            if (fstatat(*fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno == ENOENT && !create) {
                    *missing = 1;
                    return BE_OK;
                }
                return err_set(e, BE_EFAIL, "%s: %s", esc, strerror(why));
            }
            if (S_ISLNK(st.st_mode))
                return err_set(e, BE_EFAIL,
                               "%s: is a symbolic link (breakeven follows no link inside %s)", esc,
                               root);
            if (!S_ISDIR(st.st_mode))
                return err_set(e, BE_EFAIL, "%s: is not a directory", esc);
            return err_set(e, BE_EFAIL, "%s: %s", esc, strerror(why));
        }
        close(*fd);
        *fd = next;
    }
    return BE_OK;
}

int fsx_inside(const char *root, const char *path)
{
    return below(root, path) != NULL;
}

static int open_root(const char *root, int create, int *fd, err *e)
{
    int rc;
    *fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd >= 0)
        return BE_OK;
    if (create && errno == ENOENT) {
        if ((rc = fsx_mkdirs(root, e)) < 0)
            return rc;
        if ((*fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
            return BE_OK;
    }
    return err_set(e, BE_EFAIL, "%s: cannot open the directory: %s", root, strerror(errno));
}

/* The directory part of path below root: rel and the length of its
 * directories; *file the last component (NULL for a directory). */
static int split(const char *root, const char *path, const char **rel, size_t *ndirs,
                 const char **file, err *e)
{
    const char *r = below(root, path), *slash;
    if (!r)
        return err_set(e, BE_EFAIL, "%s: not inside %s, where breakeven writes", path, root);
    *rel = r;
    slash = strrchr(r, '/');
    if (file) {
        *file = slash ? slash + 1 : r;
        *ndirs = slash ? (size_t)(slash - r) : 0;
        if (!**file || strcmp(*file, ".") == 0 || strcmp(*file, "..") == 0)
            return err_set(e, BE_EFAIL, "%s: not a file name", path);
    } else {
        *ndirs = strlen(r);
    }
    return BE_OK;
}

int fsx_dir_open(const char *root, const char *path, int create, int *fd, err *e)
{
    const char *rel = NULL;
    size_t ndirs = 0;
    int rc, missing;
    *fd = -1;
    if ((rc = split(root, path, &rel, &ndirs, NULL, e)) < 0 ||
        (rc = open_root(root, create, fd, e)) < 0)
        return rc;
    if ((rc = walk(fd, root, rel, ndirs, create, &missing, e)) == BE_OK && missing)
        rc = err_set(e, BE_EFAIL, "%s: no such directory", path);
    if (rc < 0) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

int fsx_mkdirs_in(const char *root, const char *path, err *e)
{
    int fd, rc = fsx_dir_open(root, path, 1, &fd, e);
    if (rc == BE_OK)
        close(fd);
    return rc;
}

int fsx_write_in(const char *root, const char *path, const void *data, size_t len, err *e)
{
    char esc[1024];
    const char *rel = NULL, *file = NULL;
    size_t ndirs = 0;
    int fd, rc, missing;
    if ((rc = split(root, path, &rel, &ndirs, &file, e)) < 0 ||
        (rc = open_root(root, 1, &fd, e)) < 0)
        return rc;
    if ((rc = walk(&fd, root, rel, ndirs, 1, &missing, e)) == BE_OK) {
        utf8_escape(esc, sizeof esc, path);
        rc = fsx_write_at(fd, file, esc, data, len, e);
    }
    close(fd);
    return rc;
}

int fsx_check_in(const char *root, const char *path, err *e)
{
    char esc[1024];
    const char *rel = NULL, *file = NULL;
    size_t ndirs = 0;
    int fd, rc, missing;
    if ((rc = split(root, path, &rel, &ndirs, &file, e)) < 0)
        return rc;
    if ((fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return errno == ENOENT ? BE_OK
                               : err_set(e, BE_EFAIL, "%s: cannot open the directory: %s", root,
                                         strerror(errno));
    if ((rc = walk(&fd, root, rel, ndirs, 0, &missing, e)) == BE_OK && !missing) {
        utf8_escape(esc, sizeof esc, path);
        rc = replaceable(fd, file, esc, e);
    }
    close(fd);
    return rc;
}

int fsx_read_all(const char *path, char **data, size_t *len, err *e)
{
    return infile_read(path, FSX_READ_MAX, 0, data, len, e);
}
