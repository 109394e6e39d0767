/*
 * clgemm.h — the OpenCL backend: every OpenCL device on the machine, and on
 * each the dense-layer kernels of kernels/dense.cl.
 *
 * This module owns the OpenCL devices found by clgemm_discover (one
 * context, profiling in-order queue and built program per device, kept in
 * the device's handle until clgemm_free), the program build with a
 * device's kernel configuration, and per workload the device buffers of one
 * run (created by prepare, freed by release; see backend.h).  It leans on
 * three modules below it: clgemm_probe.h (what the platforms say about their
 * devices), clgemm_config.h (the kernel build options: a default per device
 * type/vendor, replaced by the winner of `breakeven tune` where a tuning
 * file exists, or set explicitly) and clgemm_cache.h (program binaries and
 * tuning files on disk).
 */
#ifndef BE_CLGEMM_H
#define BE_CLGEMM_H

#include "backend.h"
#include "clgemm_config.h"
#include "err.h"

/* Enumerates every OpenCL device of every platform.  Each device starts
 * with the configuration of its tuning file when one exists and is valid
 * (see clgemm_cache_load_tuned), with the table default otherwise; the
 * device's properties say which ("kernel_config": "tuned" or "default") and
 * the options ("kernel_options").  On success *out is an array of *n
 * devices (NULL and 0 when there is no OpenCL platform, which is not an
 * error) that the caller frees with clgemm_free.  Each device is ready to
 * prepare: its program is built (or loaded from the binary cache) lazily by
 * the first prepare, so that listing devices costs no compilation.  The
 * ops' build_info tells how the current program was obtained. */
int clgemm_discover(device **out, int *n, err *e);

/* Frees what clgemm_discover returned (runs must have been released). */
void clgemm_free(device *devs, int n);

/* Makes cfg the configuration of the device behind handle (a device's
 * handle from clgemm_discover) and builds its program now (from the cache
 * when possible).  No run may be prepared on the device at the time.
 * Returns BE_EUSAGE for an invalid cfg, BE_EFAIL when the build fails. */
int clgemm_set_config(void *handle, const clgemm_config *cfg, err *e);

/* The configuration the device behind handle builds with. */
void clgemm_get_config(void *handle, clgemm_config *cfg);

#endif
