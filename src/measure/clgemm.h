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
 * with the configurations of its tuning file when one exists and is valid
 * (see clgemm_cache_load_tuned), with the table default otherwise: one for
 * inference, one for training (equal unless tuning found each mode its
 * own).  The device's properties say which ("kernel_config": "tuned" or
 * "default") and the options ("kernel_options", the inference
 * configuration's; "kernel_options_training" too, only when the training
 * configuration differs).  On success *out is an array of *n devices (NULL
 * and 0 when there is no OpenCL platform, which is not an error) that the
 * caller frees with clgemm_free.  Each device is ready to prepare: a mode's
 * program is built (or loaded from the binary cache) lazily by the first
 * prepare of that mode, so that listing devices costs no compilation, and
 * two modes of the same configuration share one program.  The ops'
 * build_info tells how the programs built so far were obtained. */
int clgemm_discover(device **out, int *n, err *e);

/* Frees what clgemm_discover returned (runs must have been released). */
void clgemm_free(device *devs, int n);

/* Makes cfg the configuration of both modes of the device behind handle (a
 * device's handle from clgemm_discover) and builds its one program now
 * (from the cache when possible).  No run may be prepared on the device at
 * the time.  Returns BE_EUSAGE for an invalid cfg, BE_EFAIL when the build
 * fails. */
int clgemm_set_config(void *handle, const clgemm_config *cfg, err *e);

/* As clgemm_set_config for one mode: a run prepared in mode takes its
 * kernels from the program of cfg, built now unless the other mode's
 * configuration is the same (then the two share it).  BE_EUSAGE for a mode
 * that is neither WL_INFERENCE nor WL_TRAINING, else as clgemm_set_config. */
int clgemm_set_config_mode(void *handle, wl_mode mode, const clgemm_config *cfg, err *e);

/* The configuration the device behind handle builds mode's kernels with
 * (WL_TRAINING's for WL_TRAINING, the inference one for any other). */
void clgemm_get_config_mode(void *handle, wl_mode mode, clgemm_config *cfg);

#endif
