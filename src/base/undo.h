/*
 * undo.h — what a report replaces in place in OUT, taken back when it
 * fails.
 *
 * A report publishes its pages as one set (site.h), but it draws its
 * charts in place (chart_render) and saves the marks that say they are
 * current (cache_mark_save) as it goes: a report that fails half-way, a
 * full disk or a read-only OUT among other things, would leave new charts
 * beside old pages, and marks that call them current.  So before it draws,
 * the report notes every chart and mark of the directories it draws in
 * (OUT, OUT/history, OUT/compare, OUT/.cache and each OUT/runs/<id>), each
 * kept by a hard link in OUT/.undo-PID-XXXXXX (no byte copied: a link
 * needs no room for data); when it fails, every such file it made is
 * removed and every one it replaced is put back, so that OUT is as it was.
 * Only files named as breakeven names its charts and marks (".png",
 * ".mark") are touched, only regular files, in directories opened through
 * no link (fsx.h); the directory of backups of a command killed on its way
 * is removed by the next writer (fsx_sweep_at).  The caller holds OUT's
 * lock (outlock.h): nothing else writes there meanwhile.
 */
#ifndef BE_UNDO_H
#define BE_UNDO_H

#include <stddef.h>
#include <sys/types.h>

#include "err.h"

typedef struct undo_file {
    char *name; /* owned */
    ino_t ino;  /* the file as it was: its backup's inode */
    long kept;  /* its backup's name in the directory of backups */
} undo_file;

typedef struct undo_dir {
    char *path;  /* owned */
    int existed; /* 0: made by the command (removed when it is empty again) */
    int n;
    undo_file *v; /* sorted by name */
} undo_dir;

typedef struct undo {
    char out[4096];
    char keep[4096]; /* OUT/.undo-PID-XXXXXX; "" while none */
    int n, cap;
    undo_dir *v;
    long nkept;
    int ready; /* undo_begin noted everything: what is not noted is new */
} undo;

/* Notes the files breakeven writes in place (charts, marks, a run's
 * results and decision files) of the directory dir of OUT, each kept by a
 * hard link (`refit`, `decide` of a run).  BE_EIO when the backups cannot
 * be made (nothing was written then but the directory of backups, which
 * undo_forget or undo_rollback removes).  u is ready for either whatever
 * this returns. */
int undo_begin(undo *u, const char *out, const char *dir, err *e);
/* The same for the directories dirs[0..n) of OUT, relative to it ("" for
 * OUT itself), and with runs each run's directory OUT/runs/<id> too: the
 * places where a report or `compare` draws, which the caller names. */
int undo_begin_in(undo *u, const char *out, const char *const *dirs, size_t n, int runs, err *e);
/* The report failed: the charts and marks it made removed, those it
 * replaced put back, the backups removed; u freed.  What cannot be put
 * back stays as it is (a read-only OUT was not written either). */
void undo_rollback(undo *u);
/* The report is published: the backups removed; u freed. */
void undo_forget(undo *u);

#endif
