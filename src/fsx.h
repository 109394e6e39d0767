/*
 * fsx.h — the file-system operations that must not leave a mess.
 *
 * Every file breakeven writes goes through fsx_write_atomic: the bytes go to
 * a temporary file in the same directory, are fsync'ed, and the temporary is
 * renamed over the target, so a reader (or a crash) sees the old file or the
 * new one, never half of one.
 */
#ifndef BE_FSX_H
#define BE_FSX_H

#include <stddef.h>

#include "err.h"

/* mkdir -p; BE_EFAIL naming the path and the reason. */
int fsx_mkdirs(const char *path, err *e);

/* BE_OK when path is a directory itself, not a symbolic link to one (nor
 * anything else): a directory breakeven writes in must not lead out of
 * where it was asked to write.  BE_EFAIL naming the path otherwise. */
int fsx_real_dir(const char *path, err *e);

/* Replaces path with data[0..len) atomically (see above). */
int fsx_write_atomic(const char *path, const void *data, size_t len, err *e);

/* Reads a whole file into a NUL-terminated buffer the caller frees. */
int fsx_read_all(const char *path, char **data, size_t *len, err *e);

#endif
