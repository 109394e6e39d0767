/*
 * fsx.h — the file-system operations that must not leave a mess.
 *
 * Every file breakeven writes is written atomically: the bytes go to a
 * temporary file in the same directory, are fsync'ed, and the temporary is
 * renamed over the target, so a reader (or a crash) sees the old file or the
 * new one, never half of one.
 *
 * Under OUT (the directory `run`, `report`, `refit` and `compare` write in)
 * every file is written through fsx_write_in, which opens each directory
 * below OUT relative to the one above it, without following symbolic links
 * (openat with O_NOFOLLOW | O_DIRECTORY, mkdirat), and replaces the file
 * relative to that directory (renameat): whatever links someone plants
 * inside OUT, nothing is written outside it.  A link met on the way is
 * refused with one line naming it.  OUT itself is followed when it is a
 * link: its user named it.  Each write walks down from OUT again, so a
 * link swapped in during a command (between two writes) is refused as one
 * planted before it.  The writers above fsx take the same (root, path):
 * results_save, the charts (chart_render and every figure, runcharts),
 * decide_write; the import's staging directory is made, filled, moved
 * into place and removed the same way (fsx_stage_in, fsx_unstage_in).
 *
 * A root of NULL writes path by path, links followed: only for files the
 * user named outside OUT (`refit` or `decide` of a results file elsewhere,
 * written beside it) and for tests.  The clgemm tuning cache, in the
 * user's cache directory, is written by path too (fsx_write_atomic).
 */
#ifndef BE_FSX_H
#define BE_FSX_H

#include <stddef.h>

#include "err.h"

/* BE_EIO when errnum says the file system cannot be written (ENOSPC,
 * EROFS, EDQUOT, EIO, EFBIG, EACCES, EPERM: the disk or its permissions,
 * never the data), else BE_EFAIL: what every failed create, write,
 * rename or mkdir below returns, so that a command stops on a full or
 * read-only OUT instead of taking it for a defect of what it writes. */
int fsx_errno_code(int errnum);

/* Writes p[0..n) whole to fd (a pipe's: a short write is retried, EINTR
 * too); BE_EFAIL when a write fails.  Not for files: those go through the
 * atomic path below. */
int fsx_write_fd(int fd, const void *p, size_t n);

/* mkdir -p; BE_EFAIL naming the path and the reason. */
int fsx_mkdirs(const char *path, err *e);

/* BE_OK when path is a directory itself, not a symbolic link to one (nor
 * anything else): a directory breakeven writes in must not lead out of
 * where it was asked to write.  BE_EFAIL naming the path otherwise. */
int fsx_real_dir(const char *path, err *e);

/* Replaces path with data[0..len) atomically (see above): for files
 * outside OUT (a cache), whose directories may be links of their user's. */
int fsx_write_atomic(const char *path, const void *data, size_t len, err *e);

/* ---- under OUT ------------------------------------------------------- */

/* Opens the directory path inside root (path is root itself or begins
 * with root and "/"; "." components are skipped, ".." refused): root is
 * opened as named, each component below it with openat(O_NOFOLLOW |
 * O_DIRECTORY), created (mkdirat, 0777 & ~umask) when missing and create
 * is set.  *fd is the caller's to close.  BE_EFAIL naming the component:
 * "OUT/history: is a symbolic link (breakeven follows no link inside
 * OUT/)", "OUT/history: is not a directory". */
int fsx_dir_open(const char *root, const char *path, int create, int *fd, err *e);

/* fsx_dir_open with create, for a directory only (the fd closed). */
int fsx_mkdirs_in(const char *root, const char *path, err *e);

/* Replaces path (inside root, as fsx_dir_open) with data[0..len)
 * atomically, creating its directories; refused when the file itself is a
 * symbolic link or not a regular file.  root NULL: fsx_write_atomic (see
 * above). */
int fsx_write_in(const char *root, const char *path, const void *data, size_t len, err *e);

/* Renames from to to, both inside root and in the same directory (a
 * staged file into place), that directory opened as fsx_dir_open opens it:
 * no link below root followed.  BE_OK, and nothing done, when from (or a
 * directory on its way) does not exist: moved already. */
int fsx_rename_in(const char *root, const char *from, const char *to, err *e);

/* Removes the file path inside root the same way; BE_OK when it is not
 * there. */
int fsx_unlink_in(const char *root, const char *path, err *e);

/* What fsx_write_in would refuse, checked without writing anything: every
 * existing directory of path a directory of its own, the file (when it
 * exists) a regular file of its own.  A writer of many files checks them
 * all first, so that a planted link leaves OUT as it was. */
int fsx_check_in(const char *root, const char *path, err *e);

/* 1 when path names root or a file below it, as written (no link is
 * resolved): whether a write to path is a write inside root. */
int fsx_inside(const char *root, const char *path);

/* Replaces name in the directory dirfd atomically (temporary created with
 * O_EXCL | O_NOFOLLOW, fsync, renameat, fsync of the directory); shown
 * names the file in errors.  The file must not be a symbolic link. */
int fsx_write_at(int dirfd, const char *name, const char *shown, const void *data, size_t len,
                 err *e);

/* fsx_check_in for every file of the directory dir (inside root) whose
 * name ends in suffix, as far as links go: BE_EFAIL naming the first that
 * is a symbolic link; BE_OK when dir does not exist.  With depth 1, the
 * same in every directory of dir instead (OUT/runs/: each run's).  For a writer
 * whose file names are not all known before it starts (the charts:
 * ".png"), so that a planted link refuses it before it wrote anything. */
int fsx_check_links_in(const char *root, const char *dir, const char *suffix, int depth, err *e);

/* Removes from the directory dirfd (shown names it in errors) what a
 * killed writer of breakeven left there and nothing else: a regular file
 * named "NAME.tmp.PID.XXXXXX" (fsx_write_at's temporary) or a directory
 * ".import-PID-XXXXXX" (an import's staging, with the files in it) or
 * ".undo-PID-XXXXXX" (a report's backups, undo.h), each
 * only when no process PID runs on this machine.  A signal never leaves
 * these (stop.h); SIGKILL, a crash or a power cut does. */
int fsx_sweep_at(int dirfd, const char *shown, err *e);

/* fsx_sweep_at of the directory dir inside root, opened as fsx_dir_open
 * opens it (no link followed below root); BE_OK when it does not exist. */
int fsx_sweep_in(const char *root, const char *dir, err *e);

/* Creates a new directory "DIR/.KIND-PID-XXXXXX" (dir inside root,
 * opened as fsx_dir_open opens it, created when missing; kind "import" or
 * "undo"), mode 0755, and writes its path into path: where an import's
 * files wait until they are whole, or a report keeps what it replaces
 * (fsx_sweep_at removes one a killed command left). */
int fsx_stage_in(const char *root, const char *dir, const char *kind, char *path, size_t size,
                 err *e);

/* Removes the staging directory path (inside root, reached through no
 * link): its regular files and links, then itself.  BE_OK when it is not
 * there. */
int fsx_unstage_in(const char *root, const char *path, err *e);

/* Reads a whole file into a NUL-terminated buffer the caller frees: a
 * regular file of at most FSX_READ_MAX bytes (infile_read, which callers
 * of untrusted files use directly, with their own cap and checks). */
#define FSX_READ_MAX (256UL * 1024 * 1024)
int fsx_read_all(const char *path, char **data, size_t *len, err *e);

#endif
