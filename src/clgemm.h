/*
 * clgemm.h — the OpenCL backend: every OpenCL device on the machine, and on
 * each the dense-layer kernels of kernels/dense.cl.
 *
 * This module owns: the OpenCL platforms/devices found by clgemm_discover
 * (one context, profiling in-order queue and built program per device, kept
 * in the device's handle until clgemm_free), the kernel build configuration
 * (clgemm_config: a default per device type/vendor, replaced by the winner
 * of `breakeven tune` where a tuning file exists, or set explicitly), the
 * on-disk caches (program binaries, tuning files), and per workload the
 * device buffers of one run (created by prepare, freed by release; see
 * backend.h).
 */
#ifndef BE_CLGEMM_H
#define BE_CLGEMM_H

#include <stddef.h>

#include "backend.h"
#include "err.h"

/* Which GEMM implementation dense.cl compiles (GEMM_LOCAL). */
typedef enum {
    CLGEMM_REG = 0,   /* register-blocked, vectorised along columns: CPUs     */
    CLGEMM_LOCAL = 1  /* local-memory tiles, coalesced loads: GPUs           */
} clgemm_variant;

/* The kernel build options.  Fields of the variant not chosen are ignored. */
typedef struct clgemm_config {
    clgemm_variant variant;
    /* CLGEMM_REG */
    int vw;        /* vector width: 1, 2, 4, 8 or 16                        */
    int tm, tn;    /* forward/dW outputs per item: rows × columns (tn % vw == 0) */
    int dtm, dtn;  /* dx outputs per item (dot products of vw lanes)        */
    int lx, ly;    /* work-group size                                       */
    int kb;        /* forward: rows of W staged in local memory per pass,
                      0 = read W straight from global memory                 */
    /* CLGEMM_LOCAL */
    int tsm, tsn, tsk; /* work-group tile: rows × columns × reduction depth  */
    int wptm, wptn;    /* outputs per item; group = (tsn/wptn) × (tsm/wptm)  */
} clgemm_config;

/* Enumerates every OpenCL device of every platform.  Each device starts
 * with the configuration of its tuning file when one exists and is valid
 * (see clgemm_tuned_load), with the table default otherwise; the device's
 * properties say which ("kernel_config": "tuned" or "default") and the
 * options ("kernel_options").  On success *out is an
 * array of *n devices (NULL and 0 when there is no OpenCL platform, which is
 * not an error) that the caller frees with clgemm_free.  Each device is ready
 * to prepare: its program is built (or loaded from the binary cache) lazily
 * by the first prepare, so that listing devices costs no compilation. */
int clgemm_discover(device **out, int *n, err *e);

/* Frees what clgemm_discover returned (runs must have been released). */
void clgemm_free(device *devs, int n);

/* The table default for a device, by its type and vendor (ignores tuning). */
int clgemm_config_default(const device_info *d, clgemm_config *cfg);

/* Renders cfg as the -D options passed to clBuildProgram, into buf of size
 * len.  Returns BE_EUSAGE (with e filled) for an inconsistent cfg or a
 * too-small buf. */
int clgemm_config_options(const clgemm_config *cfg, char *buf, size_t len, err *e);

/* Parses options in the form clgemm_config_options writes ("-DGEMM_LOCAL=0
 * -DVW=8 ...", every option of the variant present) into cfg.  BE_EUSAGE
 * naming the offending token for anything else or an inconsistent cfg. */
int clgemm_config_parse(const char *opts, clgemm_config *cfg, err *e);

/* Tuning files: one per device + driver + kernel source, in the cache
 * directory of the program binaries ($BREAKEVEN_CACHE, else
 * $XDG_CACHE_HOME/breakeven, else ~/.cache/breakeven), named
 * tune-<16 hex digits>.txt after a hash of the device name, driver version,
 * platform version and dense.cl, so a new driver or kernel source falls back
 * to the default rather than to a stale winner.  Text, one "name value"
 * line each: key, device, driver, options.
 *
 * clgemm_tuned_load fills cfg from d's tuning file and returns 0, or returns
 * -1 leaving cfg alone when there is none or it is unreadable, foreign or
 * inconsistent (a damaged file is ignored, never fatal).  Writes the file's
 * path into path (when not NULL) either way, "" when there is no cache
 * directory. */
int clgemm_tuned_load(const device_info *d, clgemm_config *cfg, char *path, size_t len);

/* Stores cfg as d's tuning file (atomically: a reader sees the old file or
 * the new one) and writes its path into path (when not NULL).  BE_EFAIL
 * when there is no cache directory or the write fails. */
int clgemm_tuned_store(const device_info *d, const clgemm_config *cfg, char *path, size_t len,
                       err *e);

/* Makes cfg the configuration of the device behind handle (a device's
 * handle from clgemm_discover) and builds its program now (from the cache
 * when possible).  No run may be prepared on the device at the time.
 * Returns BE_EUSAGE for an invalid cfg, BE_EFAIL when the build fails. */
int clgemm_set_config(void *handle, const clgemm_config *cfg, err *e);

/* The configuration the device behind handle builds with. */
void clgemm_get_config(void *handle, clgemm_config *cfg);

/* How the device's current program was obtained: seconds spent in the
 * last program load/build (0 before any) and whether it came from the disk
 * cache.  Either pointer may be NULL. */
void clgemm_build_info(void *handle, double *seconds, int *cache_hit);

#endif
