/*
 * clgemm_cache.h — what the OpenCL backend keeps on disk between runs:
 * compiled program binaries and tuning files.
 *
 * Both live in one cache directory ($BREAKEVEN_CACHE, else
 * $XDG_CACHE_HOME/breakeven, else ~/.cache/breakeven), created on first
 * write with fsx_mkdirs and written only through fsx_write_atomic, so a
 * reader (another breakeven at the same time, or the next run after a
 * crash) sees an old entry or a new one, never half of one.  Every entry is
 * named after a hash of what must match for it to apply (device, driver,
 * kernel source, options), so a new driver or kernel source simply misses.
 * A missing, damaged or foreign entry is never an error: the caller
 * compiles again or starts from the default.  clgemm.c loads and stores
 * binaries around its builds; tune.c stores the winners of `breakeven tune`
 * (one per mode), which clgemm_discover loads.
 */
#ifndef BE_CLGEMM_CACHE_H
#define BE_CLGEMM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "clgemm_config.h"
#include "devinfo.h"
#include "err.h"

/* Room for a path in the cache (POSIX does not promise a path limit). */
#define CLGEMM_CACHE_PATH 4096

/* The cache directory into buf; with create set, made (mkdir -p) when
 * missing.  BE_EFAIL when there is no usable place (no variable to find it,
 * too long, cannot be created), which callers take as "no cache". */
int clgemm_cache_dir(char *buf, size_t len, int create, err *e);

/* Program binaries: <dir>/<16 hex digits>.clbin.  A file holds a magic, the
 * 64-bit key, the binary's length, its FNV-1a checksum and the binary; key
 * and checksum are checked on load, so that a foreign, truncated or damaged
 * file is never handed to the driver (PoCL crashes on a damaged binary
 * rather than rejecting it).
 *
 * clgemm_cache_program finds the entry for a device (its name, driver
 * version and platform version) building the embedded dense.cl with opts:
 * its key into *key and its path into path, creating the cache directory.
 * BE_EFAIL when there is no cache directory. */
int clgemm_cache_program(const char *device, const char *driver, const char *platform,
                         const char *opts, uint64_t *key, char *path, size_t len, err *e);

/* Reads the entry at path if it is intact and carries key: *bin (malloc'ed,
 * the caller frees it) and *len.  BE_EFAIL (e filled) otherwise. */
int clgemm_cache_load_program(const char *path, uint64_t key, unsigned char **bin, size_t *len,
                              err *e);

/* Writes bin[0..len) as the entry at path under key (atomically). */
int clgemm_cache_store_program(const char *path, uint64_t key, const unsigned char *bin, size_t len,
                               err *e);

/* Tuning files: one per device + driver + kernel source, named
 * tune-<16 hex digits>.txt after a hash of the device name, driver version,
 * platform version (device_info.library) and dense.cl, so a new driver or
 * kernel source falls back to the default rather than to a stale winner.
 * Text: a first line saying what the file is, then one "name value" line
 * each: key, device, driver, options (the inference configuration) and
 * options-training (the training configuration, written always, equal to
 * options or not).  A file without options-training, as breakeven wrote
 * before the modes had configurations of their own, gives options to both
 * modes; an older breakeven reading a new file finds its options line and
 * takes it for both modes.
 *
 * clgemm_cache_load_tuned fills *inf and *train from d's tuning file and
 * returns BE_OK, or returns BE_EFAIL leaving both alone when there is none
 * or it is unreadable, foreign or inconsistent, options-training included
 * (a damaged file is ignored as a whole, never fatal).  Writes the file's
 * path into path (when not NULL) either way, "" when there is no cache
 * directory. */
int clgemm_cache_load_tuned(const device_info *d, clgemm_config *inf, clgemm_config *train,
                            char *path, size_t len);

/* Stores inf and train as d's tuning file (atomically) and writes its path
 * into path (when not NULL).  BE_EUSAGE for an inconsistent configuration,
 * BE_EFAIL when there is no cache directory or the write fails. */
int clgemm_cache_store_tuned(const device_info *d, const clgemm_config *inf,
                             const clgemm_config *train, char *path, size_t len, err *e);

#endif
