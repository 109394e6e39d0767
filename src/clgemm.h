/*
 * clgemm.h — the OpenCL backend: every OpenCL device on the machine, and on
 * each the dense-layer kernels of kernels/dense.cl.
 *
 * This module owns: the OpenCL platforms/devices found by clgemm_discover
 * (one context, profiling in-order queue and built program per device, kept
 * in the device's handle until clgemm_free), the kernel build configuration
 * (clgemm_config: a default per device, replaceable by a tuner), the on-disk
 * program-binary cache, and per workload the device buffers of one run
 * (created by prepare, freed by release; see backend.h).
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
    /* CLGEMM_LOCAL */
    int tsm, tsn, tsk; /* work-group tile: rows × columns × reduction depth  */
    int wptm, wptn;    /* outputs per item; group = (tsn/wptn) × (tsm/wptm)  */
} clgemm_config;

/* Enumerates every OpenCL device of every platform.  On success *out is an
 * array of *n devices (NULL and 0 when there is no OpenCL platform, which is
 * not an error) that the caller frees with clgemm_free.  Each device is ready
 * to prepare: its program is built (or loaded from the binary cache) lazily
 * by the first prepare, so that listing devices costs no compilation. */
int clgemm_discover(device **out, int *n, err *e);

/* Frees what clgemm_discover returned (runs must have been released). */
void clgemm_free(device *devs, int n);

/* The default configuration for a device, by its type and vendor. */
int clgemm_config_default(const device_info *d, clgemm_config *cfg);

/* Renders cfg as the -D options passed to clBuildProgram, into buf of size
 * len.  Returns BE_EUSAGE (with e filled) for an inconsistent cfg or a
 * too-small buf. */
int clgemm_config_options(const clgemm_config *cfg, char *buf, size_t len, err *e);

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
