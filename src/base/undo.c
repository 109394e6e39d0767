/*
 * undo.c — the charts and marks a report replaces, taken back when it
 * fails (undo.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "undo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsx.h"
#include "grow.h"

/* Whether name is one of the files breakeven writes in place: a chart, a
 * mark, a run's results file (refit), its decision files (decide). */
static int tracked(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' &&
           ((n > 4 && strcmp(name + n - 4, ".png") == 0) ||
            (n > 5 && strcmp(name + n - 5, ".mark") == 0) || strcmp(name, "results.xml.gz") == 0 ||
            strcmp(name, "results.xml") == 0 || strcmp(name, "decision.json") == 0 ||
            strcmp(name, "breakeven_decision.h") == 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const undo_file *)a)->name, ((const undo_file *)b)->name);
}

static void dir_free(undo_dir *d)
{
    int i;
    for (i = 0; i < d->n; i++)
        free(d->v[i].name);
    free(d->v);
    free(d->path);
}

/* A new entry for the directory path of OUT (its fields zero but path). */
static undo_dir *dir_add(undo *u, const char *path, err *e)
{
    undo_dir *v = grow_slot(u->v, u->n, &u->cap, sizeof *v, 16, e);
    if (!v)
        return NULL;
    u->v = v;
    if (!(v[u->n].path = strdup(path))) {
        err_set(e, BE_EFAIL, "out of memory");
        return NULL;
    }
    return &v[u->n++];
}

/* The directory of backups, made at the first file kept. */
static int keep_open(undo *u, int *kfd, err *e)
{
    int rc;
    if (*kfd >= 0)
        return BE_OK;
    if (!u->keep[0] && (rc = fsx_stage_in(u->out, u->out, "undo", u->keep, sizeof u->keep, e)) < 0)
        return rc;
    return fsx_dir_open(u->out, u->keep, 0, kfd, e);
}

/* Every chart or mark of the open directory fd (d) noted and kept by a
 * hard link in the directory of backups (*kfd, opened when needed). */
static int note_dir(undo *u, undo_dir *d, int fd, int *kfd, err *e)
{
    struct dirent *de;
    int cap = 0, rc = BE_OK, dup_fd = dup(fd);
    DIR *dir = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!dir) {
        if (dup_fd >= 0)
            close(dup_fd);
        return err_set(e, BE_EFAIL, "%s: cannot list: %s", d->path, strerror(errno));
    }
    rewinddir(dir);
    while (rc == BE_OK && (de = readdir(dir)) != NULL) {
        char kept[32];
        struct stat st;
        undo_file *f;
        if (!tracked(de->d_name) || fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (d->n == cap) {
            undo_file *v = realloc(d->v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *v);
            if (!v) {
                rc = err_set(e, BE_EFAIL, "out of memory");
                break;
            }
            d->v = v;
        }
        if ((rc = keep_open(u, kfd, e)) < 0)
            break;
        f = &d->v[d->n];
        f->ino = st.st_ino;
        f->kept = u->nkept;
        snprintf(kept, sizeof kept, "%ld", u->nkept);
        if (!(f->name = strdup(de->d_name)))
            rc = err_set(e, BE_EFAIL, "out of memory");
        else if (linkat(fd, de->d_name, *kfd, kept, 0) != 0)
            rc = err_set(e, fsx_errno_code(errno), "%s/%s: cannot keep a copy: %s", u->keep, kept,
                         strerror(errno));
        if (f->name)
            d->n++;
        u->nkept++;
    }
    closedir(dir);
    if (d->n > 1)
        qsort(d->v, (size_t)d->n, sizeof *d->v, by_name);
    return rc;
}

/* Notes the directory path of OUT (see note_dir); one not there yet is
 * noted as made by the command, should it be. */
static int note(undo *u, const char *path, int *kfd, err *e)
{
    undo_dir *d = dir_add(u, path, e);
    struct stat st;
    int fd, rc;
    if (!d)
        return BE_EFAIL;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return BE_OK;
    if ((rc = fsx_dir_open(u->out, path, 0, &fd, e)) < 0)
        return rc;
    d->existed = 1;
    rc = note_dir(u, d, fd, kfd, e);
    close(fd);
    return rc;
}

/* Each run's directory under OUT/runs (not followed when a link). */
static int note_runs(undo *u, int *kfd, err *e)
{
    char runs[4200], p[4500];
    struct dirent *de;
    DIR *dir;
    int fd, rc = BE_OK;
    snprintf(runs, sizeof runs, "%s/runs", u->out);
    if (fsx_dir_open(u->out, runs, 0, &fd, e) < 0)
        return BE_OK; /* no runs: the report says so itself */
    if (!(dir = fdopendir(fd))) {
        close(fd);
        return err_set(e, BE_EFAIL, "%s: cannot list: %s", runs, strerror(errno));
    }
    while (rc == BE_OK && (de = readdir(dir)) != NULL) {
        struct stat st;
        if (de->d_name[0] == '.' ||
            fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
            continue;
        snprintf(p, sizeof p, "%s/%s", runs, de->d_name);
        rc = note(u, p, kfd, e);
    }
    closedir(dir);
    return rc;
}

/* u ready for either undo_rollback or undo_forget, once the noting
 * ended with rc: a list cut short would take files it missed for new
 * ones. */
static int begun(undo *u, int kfd, int rc)
{
    if (kfd >= 0)
        close(kfd);
    u->ready = rc == BE_OK;
    return rc;
}

int undo_begin(undo *u, const char *out, const char *dir, err *e)
{
    int kfd = -1;
    memset(u, 0, sizeof *u);
    snprintf(u->out, sizeof u->out, "%s", out);
    return begun(u, kfd, note(u, dir, &kfd, e));
}

int undo_begin_in(undo *u, const char *out, const char *const *dirs, size_t n, int runs, err *e)
{
    char p[4200];
    size_t i;
    int kfd = -1, rc = BE_OK;
    memset(u, 0, sizeof *u);
    snprintf(u->out, sizeof u->out, "%s", out);
    for (i = 0; rc == BE_OK && i < n; i++) {
        snprintf(p, sizeof p, "%s%s%s", out, dirs[i][0] ? "/" : "", dirs[i]);
        rc = note(u, p, &kfd, e);
    }
    if (rc == BE_OK && runs)
        rc = note_runs(u, &kfd, e);
    return begun(u, kfd, rc);
}

/* Directory d as it was: the charts and marks made since removed, those
 * replaced or removed put back from kfd (-1: none kept). */
static void restore_dir(const undo *u, const undo_dir *d, int kfd)
{
    struct dirent *de;
    DIR *dir;
    int fd, i;
    err ignore;
    if (fsx_dir_open(u->out, d->path, 0, &fd, &ignore) < 0)
        return;
    if ((dir = fdopendir(fd)) == NULL) {
        close(fd);
        return;
    }
    while ((de = readdir(dir)) != NULL) {
        undo_file key;
        struct stat st;
        key.name = de->d_name;
        if (tracked(de->d_name) && fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) &&
            (d->n == 0 || !bsearch(&key, d->v, (size_t)d->n, sizeof *d->v, by_name)))
            (void)unlinkat(dirfd(dir), de->d_name, 0);
    }
    for (i = 0; kfd >= 0 && i < d->n; i++) {
        char kept[32];
        struct stat st;
        if (fstatat(dirfd(dir), d->v[i].name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_ino == d->v[i].ino)
            continue;
        snprintf(kept, sizeof kept, "%ld", d->v[i].kept);
        (void)renameat(kfd, kept, dirfd(dir), d->v[i].name);
    }
    closedir(dir);
}

/* The directory d, made by the command, removed when empty again. */
static void remove_made(const undo *u, const undo_dir *d)
{
    char parent[4200], *slash;
    int fd;
    err ignore;
    snprintf(parent, sizeof parent, "%s", d->path);
    if (!(slash = strrchr(parent, '/')) || slash == parent)
        return;
    *slash = '\0';
    if (fsx_dir_open(u->out, parent, 0, &fd, &ignore) < 0)
        return;
    (void)unlinkat(fd, slash + 1, AT_REMOVEDIR);
    close(fd);
}

static void undo_free(undo *u)
{
    int i;
    err ignore;
    if (u->keep[0])
        (void)fsx_unstage_in(u->out, u->keep, &ignore);
    for (i = 0; i < u->n; i++)
        dir_free(&u->v[i]);
    free(u->v);
    memset(u, 0, sizeof *u);
}

void undo_rollback(undo *u)
{
    int i, kfd = -1;
    err ignore;
    if (u->keep[0] && fsx_dir_open(u->out, u->keep, 0, &kfd, &ignore) < 0)
        kfd = -1;
    for (i = 0; u->ready && i < u->n; i++) {
        restore_dir(u, &u->v[i], kfd);
        if (!u->v[i].existed)
            remove_made(u, &u->v[i]);
    }
    if (kfd >= 0)
        close(kfd);
    undo_free(u);
}

void undo_forget(undo *u)
{
    undo_free(u);
}
