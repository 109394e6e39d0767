/*
 * results_int.h — what the parts of the results module share, and nothing
 * else includes: the model (results.c), its writer (results_write.c) and
 * its loader (results_load.c).
 *
 * The names of the file's enumerations are written by the writer and read
 * back by the loader, so they are spelled once, here; the writer asks the
 * loader whether a file about to be written would load.
 */
#ifndef BE_RESULTS_INT_H
#define BE_RESULTS_INT_H

#include <stddef.h>

#include "err.h"

/* Indexed by rs_status, fit_view, cross_kind; by before (0) and after
 * (1); by NVML (0) and RAPL (1). */
extern const char *const rs_status_names[5];
extern const char *const rs_view_names[3];
extern const char *const rs_cross_names[5];
extern const char *const rs_tel_when[2];
extern const char *const rs_tel_sources[2];

/* BE_OK when text[0..len) (NUL-terminated, uncompressed) passes every
 * check of results_load; else BE_EFAIL, e saying "not saved, as breakeven
 * would refuse to load it: " and why.  path names the file in messages. */
int results_loads_back(const char *path, const char *text, size_t len, err *e);

#endif
