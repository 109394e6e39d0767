/*
 * fsx.c — directory creation and atomic replacement of files (fsx.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "fsx.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
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

int fsx_write_fd(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return BE_EFAIL;
        c += w;
        n -= (size_t)w;
    }
    return BE_OK;
}

int fsx_errno_code(int errnum)
{
    switch (errnum) {
    case ENOSPC:
    case EROFS:
    case EDQUOT:
    case EIO:
    case EFBIG:
    case EACCES:
    case EPERM:
        return BE_EIO;
    default:
        return BE_EFAIL;
    }
}

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
            return err_set(e, fsx_errno_code(errno), "%s: cannot create directory: %s", buf,
                           strerror(errno));
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

/* Six characters of [A-Za-z0-9] that differ from call to call (O_EXCL
 * makes a clash a retry, never a mistake). */
static void random6(char suffix[7], unsigned attempt, const void *salt)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec ts;
    unsigned long long x;
    int i;
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (unsigned long long)ts.tv_nsec * 2654435761ULL ^ (unsigned long long)getpid() << 20 ^
        (unsigned long long)attempt * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)(uintptr_t)salt;
    for (i = 0; i < 6; i++) {
        suffix[i] = chars[x % (sizeof chars - 1)];
        x /= sizeof chars - 1;
    }
    suffix[6] = '\0';
}

/* A name for a temporary beside name: "name.tmp.PID." and six random
 * characters.  The pid tells a later command whether the writer is gone
 * (fsx_sweep_at). */
static int temp_name(char *buf, size_t size, const char *name, unsigned attempt)
{
    char suffix[7];
    int n;
    random6(suffix, attempt, buf);
    n = snprintf(buf, size, "%s.tmp.%ld.%s", name, (long)getpid(), suffix);
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
        return err_set(e, fsx_errno_code(errno), "%s: cannot create: %s", shown, strerror(errno));
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
    return err_set(e, fsx_errno_code(why), "%s: cannot write: %s", shown, strerror(why));
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
        return err_set(e, fsx_errno_code(errno), "%s: cannot create: %s", path, strerror(errno));
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
            return err_set(e, fsx_errno_code(errno), "%s: cannot create directory: %s", esc,
                           strerror(errno));
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
    return err_set(e, fsx_errno_code(errno), "%s: cannot open the directory: %s", root,
                   strerror(errno));
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
    if (!root)
        return fsx_write_atomic(path, data, len, e);
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

/* Opens the directory of path (inside root) without creating anything:
 * *fd -1 and BE_OK when a directory on the way is missing; *file its
 * last component (file NULL: path is a directory, opened whole). */
static int open_parent(const char *root, const char *path, int *fd, const char **file,
                       size_t *ndirs, const char **rel, err *e)
{
    int rc, missing;
    *fd = -1;
    if ((rc = split(root, path, rel, ndirs, file, e)) < 0)
        return rc;
    if ((*fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return errno == ENOENT ? BE_OK
                               : err_set(e, BE_EFAIL, "%s: cannot open the directory: %s", root,
                                         strerror(errno));
    if ((rc = walk(fd, root, *rel, *ndirs, 0, &missing, e)) < 0 || missing) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

int fsx_rename_in(const char *root, const char *from, const char *to, err *e)
{
    char esc[1024];
    const char *rel, *file, *rel2, *file2;
    size_t ndirs, ndirs2;
    int fd, rc;
    if ((rc = split(root, to, &rel2, &ndirs2, &file2, e)) < 0 ||
        (rc = open_parent(root, from, &fd, &file, &ndirs, &rel, e)) < 0)
        return rc;
    if (ndirs != ndirs2 || strncmp(rel, rel2, ndirs) != 0)
        rc = err_set(e, BE_EFAIL, "%s: not in the directory of %s", to, from);
    else if (fd >= 0 && renameat(fd, file, fd, file2) != 0 && errno != ENOENT) {
        utf8_escape(esc, sizeof esc, to);
        rc = err_set(e, fsx_errno_code(errno), "%s: cannot move into place: %s", esc,
                     strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    return rc;
}

static int remove_stage_at(int parent, const char *name);

static int unlink_at(int parent, const char *name)
{
    return unlinkat(parent, name, 0) == 0 ? BE_OK : BE_EFAIL;
}

/* Removes path inside root with rm, in its directory opened as
 * fsx_dir_open opens it; BE_OK when it is not there. */
static int remove_in(const char *root, const char *path, int (*rm)(int, const char *), err *e)
{
    char esc[1024];
    const char *rel, *file;
    size_t ndirs;
    int fd, rc;
    if ((rc = open_parent(root, path, &fd, &file, &ndirs, &rel, e)) < 0 || fd < 0)
        return rc;
    if (rm(fd, file) != BE_OK && errno != ENOENT) {
        utf8_escape(esc, sizeof esc, path);
        rc = err_set(e, fsx_errno_code(errno), "%s: cannot remove: %s", esc, strerror(errno));
    }
    close(fd);
    return rc;
}

int fsx_unlink_in(const char *root, const char *path, err *e)
{
    return remove_in(root, path, unlink_at, e);
}

int fsx_check_in(const char *root, const char *path, err *e)
{
    char esc[1024];
    const char *rel = NULL, *file = NULL;
    size_t ndirs = 0;
    int fd, rc;
    if ((rc = open_parent(root, path, &fd, &file, &ndirs, &rel, e)) < 0 || fd < 0)
        return rc;
    utf8_escape(esc, sizeof esc, path);
    rc = replaceable(fd, file, esc, e);
    close(fd);
    return rc;
}

/* ---- what a killed command left ------------------------------------- */

/* The pid in name when name is what a writer of OUT leaves behind: a
 * temporary file "NAME.tmp.PID.XXXXXX" (temp_name, and site.c's list) or,
 * with dir, an import's staging directory ".import-PID-XXXXXX" (archive.c)
 * or a report's backups ".undo-PID-XXXXXX" (undo.c);
 * else 0.  Six characters of [A-Za-z0-9] end both. */
static long leftover_pid(const char *name, int dir)
{
    const char *p, *tail;
    size_t n = strlen(name), i;
    long pid = 0;
    if (n < 6)
        return 0;
    tail = name + n - 6;
    for (i = 0; i < 6; i++)
        if (!((tail[i] >= 'a' && tail[i] <= 'z') || (tail[i] >= 'A' && tail[i] <= 'Z') ||
              (tail[i] >= '0' && tail[i] <= '9')))
            return 0;
    if (dir) {
        if (strncmp(name, ".import-", 8) == 0)
            p = name + 8;
        else if (strncmp(name, ".undo-", 6) == 0)
            p = name + 6;
        else
            return 0;
    } else {
        for (p = tail - 1; p > name && p[-1] >= '0' && p[-1] <= '9'; p--)
            ;
        if (p - name < 6 || strncmp(p - 5, ".tmp.", 5) != 0 || p - 5 == name)
            return 0;
    }
    for (; *p >= '0' && *p <= '9' && pid < 100000000L; p++)
        pid = pid * 10 + (*p - '0');
    if (p != tail - 1 || *p != (dir ? '-' : '.'))
        return 0;
    return pid;
}

/* 1 when no process of that pid runs here (kill answers ESRCH); a process
 * of another user (EPERM), or this one, counts as alive. */
static int gone(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the staging directory name in parent: its regular files (and any
 * link, removed as a link), then itself; what else it holds keeps it. */
static int remove_stage_at(int parent, const char *name)
{
    struct dirent *de;
    DIR *d;
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || !(d = fdopendir(fd))) {
        if (fd >= 0)
            close(fd);
        return BE_EFAIL;
    }
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
            (void)unlinkat(dirfd(d), de->d_name, 0);
    }
    closedir(d);
    return unlinkat(parent, name, AT_REMOVEDIR) == 0 ? BE_OK : BE_EFAIL;
}

int fsx_sweep_at(int dirfd, const char *shown, err *e)
{
    struct dirent *de;
    DIR *d;
    int fd = dup(dirfd);
    if (fd < 0 || !(d = fdopendir(fd))) {
        if (fd >= 0)
            close(fd);
        return err_set(e, BE_EFAIL, "%s: cannot list: %s", shown, strerror(errno));
    }
    /* fdopendir shares the offset of the duplicate: start from the top */
    rewinddir(d);
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        long pid = leftover_pid(de->d_name, 0), spid = leftover_pid(de->d_name, 1);
        if ((!pid && !spid) || fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (pid && S_ISREG(st.st_mode) && gone(pid))
            (void)unlinkat(dirfd, de->d_name, 0);
        else if (spid && S_ISDIR(st.st_mode) && gone(spid))
            (void)remove_stage_at(dirfd, de->d_name);
    }
    closedir(d);
    return BE_OK;
}

int fsx_sweep_in(const char *root, const char *dir, err *e)
{
    char esc[1024];
    int fd, rc;
    const char *rel = NULL;
    size_t ndirs = 0;
    if ((rc = open_parent(root, dir, &fd, NULL, &ndirs, &rel, e)) < 0 || fd < 0)
        return rc;
    utf8_escape(esc, sizeof esc, dir);
    rc = fsx_sweep_at(fd, esc, e);
    close(fd);
    return rc;
}

int fsx_stage_in(const char *root, const char *dir, const char *kind, char *path, size_t size,
                 err *e)
{
    char name[64], esc[1024];
    unsigned attempt;
    int fd, sfd = -1, rc, made = 0;
    path[0] = '\0';
    if ((rc = fsx_dir_open(root, dir, 1, &fd, e)) < 0)
        return rc;
    utf8_escape(esc, sizeof esc, dir);
    for (attempt = 0; attempt < 100; attempt++) {
        char suffix[7];
        random6(suffix, attempt, name);
        snprintf(name, sizeof name, ".%.8s-%ld-%s", kind, (long)getpid(), suffix);
        /* private until made whole, as mkdtemp(3) makes it */
        if ((made = mkdirat(fd, name, 0700) == 0) || errno != EEXIST)
            break;
    }
    if (!made) {
        rc = err_set(e, fsx_errno_code(errno), "%s: cannot create a staging directory: %s", esc,
                     strerror(errno));
        goto done;
    }
    if (snprintf(path, size, "%s/%s", dir, name) >= (int)size) {
        rc = err_set(e, BE_EFAIL, "%s: path too long", esc);
        goto fail;
    }
    /* published as the files in it are (fsx_write_at makes those 0644);
     * through the directory's own fd: its name is not followed */
    sfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd < 0 || fchmod(sfd, 0755) != 0) {
        rc = err_set(e, BE_EFAIL, "%s/%s: %s", esc, name, strerror(errno));
        goto fail;
    }
    rc = BE_OK;
    goto done;
fail:
    (void)remove_stage_at(fd, name);
    path[0] = '\0';
done:
    if (sfd >= 0)
        close(sfd);
    close(fd);
    return rc;
}

int fsx_unstage_in(const char *root, const char *path, err *e)
{
    return remove_in(root, path, remove_stage_at, e);
}

/* fsx_check_links_in of the open directory fd (closed here), shown as
 * dir: with depth > 0, of each directory in it instead (not followed when
 * a link: what reads a directory there refuses that link itself). */
static int check_links_at(int fd, const char *dir, const char *suffix, int depth, err *e)
{
    char shown[4400], esc[1024];
    struct dirent *de;
    size_t ns = strlen(suffix);
    int rc = BE_OK;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return err_set(e, BE_EFAIL, "%s: cannot list: %s", dir, strerror(errno));
    }
    while (rc == BE_OK && (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        struct stat st;
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        snprintf(shown, sizeof shown, "%s/%s", dir, de->d_name);
        if (depth > 0 && S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                rc = check_links_at(sub, shown, suffix, depth - 1, e);
        } else if (depth == 0 && S_ISLNK(st.st_mode) && n >= ns &&
                   strcmp(de->d_name + n - ns, suffix) == 0) {
            utf8_escape(esc, sizeof esc, shown);
            rc =
                err_set(e, BE_EFAIL,
                        "%s: is a symbolic link (breakeven replaces no link where it writes)", esc);
        }
    }
    closedir(d);
    return rc;
}

int fsx_check_links_in(const char *root, const char *dir, const char *suffix, int depth, err *e)
{
    const char *rel = NULL;
    size_t ndirs = 0;
    int fd, rc;
    if ((rc = open_parent(root, dir, &fd, NULL, &ndirs, &rel, e)) < 0 || fd < 0)
        return rc;
    return check_links_at(fd, dir, suffix, depth, e);
}

int fsx_read_all(const char *path, char **data, size_t *len, err *e)
{
    return infile_read(path, FSX_READ_MAX, 0, data, len, e);
}
