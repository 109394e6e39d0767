/*
 * outlock.c — the lock of OUT (outlock.h).
 */
#define _DEFAULT_SOURCE /* flock(2) */
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsx.h"
#include "utf8.h"

void outlock_init(outlock *l, const char *out, int no_wait, outlock_note_fn note, void *ctx)
{
    l->out = out;
    l->fd = -1;
    l->depth = 0;
    l->no_wait = no_wait;
    l->note = note;
    l->note_ctx = ctx;
}

/* OUT/.lock as shown in messages: escaped, one line. */
static void shown_of(const outlock *l, char *buf, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" OUTLOCK_FILE, l->out);
    utf8_escape(buf, size, path);
}

/* Opens OUT/.lock, OUT made when missing (a command that writes makes it
 * anyway): OUT followed as named, the file through no link, a regular
 * file with no other name. */
static int open_lock(const outlock *l, int *fd, err *e)
{
    char shown[1200];
    struct stat st;
    int dfd, rc, why;
    *fd = -1;
    shown_of(l, shown, sizeof shown);
    if ((rc = fsx_mkdirs(l->out, e)) < 0)
        return rc;
    if ((dfd = open(l->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return err_set(e, BE_EFAIL, "%s: cannot open the directory: %s", shown, strerror(errno));
    /* O_NONBLOCK: a FIFO planted there cannot block the open (it is
     * refused below); flock ignores it */
    *fd = openat(dfd, OUTLOCK_FILE,
                 O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    /* a lock file of another user's in a shared OUT: a descriptor opened
     * for reading locks as well (its pid is then not recorded) */
    if (*fd < 0 && errno == EACCES)
        *fd = openat(dfd, OUTLOCK_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    why = errno;
    close(dfd);
    if (*fd < 0 && why == ELOOP)
        return err_set(e, BE_EFAIL,
                       "%s: is a symbolic link (breakeven replaces no link where it writes)",
                       shown);
    if (*fd < 0)
        return err_set(e, BE_EFAIL, "%s: cannot open: %s", shown, strerror(why));
    memset(&st, 0, sizeof st);
    if (fstat(*fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1)
        return BE_OK;
    close(*fd);
    *fd = -1;
    if (S_ISREG(st.st_mode))
        /* the pid written into it would overwrite another file */
        return err_set(e, BE_EFAIL,
                       "%s: has other names (a hard link); breakeven writes its pid into no "
                       "file but its own",
                       shown);
    return err_set(e, BE_EFAIL, "%s: is not a regular file", shown);
}

/* The pid the holder wrote into the file, or 0 when none is there. */
static long holder_of(int fd)
{
    char buf[24];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    long pid = 0;
    int i;
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (i = 0; buf[i] >= '0' && buf[i] <= '9' && pid < 100000000L; i++)
        pid = pid * 10 + (buf[i] - '0');
    return buf[i] == ' ' || buf[i] == '\n' ? pid : 0;
}

/* "pid N" of the holder.  A holder writes its pid just after it got the
 * lock, so a file still empty (a lock file made a moment ago) is read
 * again a few times; a pid read in that moment may be the previous
 * holder's, which is as near as the file gets. */
static void holder_words(int fd, char *buf, size_t size)
{
    struct timespec ts = {0, 5000000};
    long pid = 0;
    int i;
    for (i = 0; i < 20 && (pid = holder_of(fd)) == 0; i++)
        nanosleep(&ts, NULL);
    if (pid > 0)
        snprintf(buf, size, "pid %ld", pid);
    else
        snprintf(buf, size, "pid unknown");
}

/* The lock is this process's now: its pid into the file, for the notes
 * of others.  Written in place, padded to one width so that it replaces
 * the last holder's whole without a truncation, and not through the
 * atomic path (fsx.h): a rename would put another file in its place, and
 * a lock belongs to the file, so the next writer would lock the new one
 * while this one holds the old. */
static void got(outlock *l, int fd)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%-10ld\n", (long)getpid());
    ssize_t w = n > 0 ? pwrite(fd, buf, (size_t)n, 0) : 0;
    (void)w; /* a read-only descriptor records nothing: the lock holds all the same */
    l->fd = fd;
    l->depth = 1;
    l->no_wait = 0;
}

static int lock_failed(const outlock *l, int fd, int why, err *e)
{
    char shown[1200];
    shown_of(l, shown, sizeof shown);
    close(fd);
    return err_set(e, BE_EFAIL, "%s: cannot lock: %s", shown, strerror(why));
}

/* Takes the lock if it is free: 1 held (or held already, one level
 * deeper), 0 another holds it (*fd left open on the lock file for the
 * caller to wait on or close), or an error. */
static int take_now(outlock *l, int *fd, err *e)
{
    int rc;
    if (l->depth > 0) {
        l->depth++;
        return 1;
    }
    if ((rc = open_lock(l, fd, e)) < 0)
        return rc;
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0) {
        got(l, *fd);
        return 1;
    }
    if (errno != EWOULDBLOCK)
        return lock_failed(l, *fd, errno, e);
    return 0;
}

int outlock_take(outlock *l, volatile sig_atomic_t *stop, err *e)
{
    char line[1400], who[32], esc[1100];
    int fd = -1, rc = take_now(l, &fd, e);
    if (rc != 0)
        return rc < 0 ? rc : BE_OK;
    holder_words(fd, who, sizeof who);
    utf8_escape(esc, sizeof esc, l->out);
    if (l->no_wait) {
        close(fd);
        return err_set(e, BE_EFAIL, "another breakeven is writing %s (%s); not waiting (--no-wait)",
                       esc, who);
    }
    if (l->note) {
        snprintf(line, sizeof line, "waiting for another breakeven writing %s (%s)", esc, who);
        l->note(l->note_ctx, line);
    }
    /* no SA_RESTART (stop.h): a signal ends the wait with EINTR, and the
     * flag says whether to give up */
    for (;;) {
        if (stop && *stop) {
            close(fd);
            return err_set(e, BE_EINTR,
                           "interrupted while waiting for another breakeven writing %s", esc);
        }
        if (flock(fd, LOCK_EX) == 0)
            break;
        if (errno != EINTR)
            return lock_failed(l, fd, errno, e);
    }
    got(l, fd);
    return BE_OK;
}

int outlock_try(outlock *l, int *held, err *e)
{
    int fd = -1, rc = take_now(l, &fd, e);
    *held = rc > 0;
    if (rc == 0)
        close(fd);
    return rc < 0 ? rc : BE_OK;
}

void outlock_give(outlock *l)
{
    if (l->depth == 0 || --l->depth > 0)
        return;
    /* close, never LOCK_UN: the description may be shared with processes
     * forked while it was held, and LOCK_UN would release it for all of
     * them (outlock.h) */
    close(l->fd);
    l->fd = -1;
}

void outlock_drop(outlock *l)
{
    if (l->depth > 0) {
        l->depth = 1;
        outlock_give(l);
    }
}
