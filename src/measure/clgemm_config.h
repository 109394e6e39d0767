/*
 * clgemm_config.h — the build configuration of the OpenCL kernels.
 *
 * kernels/dense.cl takes its GEMM variant, tile sizes, work per item and
 * vector width as -D options.  This module owns what those options may be:
 * the table default per device type and vendor, the consistency rules, and
 * the translation to and from the option string (which is also what a
 * tuning file stores, see clgemm_cache.h).  It calls no OpenCL function:
 * clgemm.c builds the program with the options, tune.c searches among
 * configurations.
 */
#ifndef BE_CLGEMM_CONFIG_H
#define BE_CLGEMM_CONFIG_H

#include <stddef.h>

#include "devinfo.h"
#include "err.h"

/* kernels/dense.cl, the source these options configure, as a NUL-terminated
 * string (compiled into the binary by the Makefile, build/embed.c). */
extern const char embed_dense_cl[];

/* Which GEMM implementation dense.cl compiles (GEMM_LOCAL). */
typedef enum {
    CLGEMM_REG = 0,  /* register-blocked, vectorised along columns: CPUs     */
    CLGEMM_LOCAL = 1 /* local-memory tiles, coalesced loads: GPUs           */
} clgemm_variant;

/* The kernel build options.  Fields of the variant not chosen are ignored. */
typedef struct clgemm_config {
    clgemm_variant variant;
    /* CLGEMM_REG */
    int vw;       /* vector width: 1, 2, 4, 8 or 16                        */
    int tm, tn;   /* forward/dW outputs per item: rows × columns (tn % vw == 0) */
    int dtm, dtn; /* dx outputs per item (dot products of vw lanes)        */
    int lx, ly;   /* work-group size                                       */
    int kb;       /* forward: rows of W staged in local memory per pass,
                      0 = read W straight from global memory                 */
    /* CLGEMM_LOCAL */
    int tsm, tsn, tsk; /* work-group tile: rows × columns × reduction depth  */
    int wptm, wptn;    /* outputs per item; group = (tsn/wptn) × (tsm/wptm)  */
    int lvw;           /* vector width of loads, local fragments and stores:
                          0 = scalar (the original kernel), 2 or 4; wptm,
                          wptn and tsk multiples of it                       */
    int dbuf;          /* 1 = double-buffered local tiles (needs lvw > 0)    */
} clgemm_config;

/* The table default for a device, by its type and vendor (ignores tuning). */
int clgemm_config_default(const device_info *d, clgemm_config *cfg);

/* BE_OK when cfg is consistent, else BE_EUSAGE naming what is not. */
int clgemm_config_check(const clgemm_config *cfg, err *e);

/* Renders cfg as the -D options passed to clBuildProgram, into buf of size
 * len.  Returns BE_EUSAGE (with e filled) for an inconsistent cfg or a
 * too-small buf.  CLGEMM_LOCAL's -DLVW and -DDBUF appear only when not 0, so
 * a configuration without them renders as it did before they existed (the
 * same tuning files, the same program cache keys). */
int clgemm_config_options(const clgemm_config *cfg, char *buf, size_t len, err *e);

/* Parses options in the form clgemm_config_options writes ("-DGEMM_LOCAL=0
 * -DVW=8 ...", every option of the variant present; CLGEMM_LOCAL's -DLVW and
 * -DDBUF optional, 0 when absent) into cfg.  BE_EUSAGE naming the offending
 * token for anything else or an inconsistent cfg. */
int clgemm_config_parse(const char *opts, clgemm_config *cfg, err *e);

/* 1 when a and b build the same program: the same options (the fields
 * their variant ignores may differ), else 0; 0 when either is
 * inconsistent. */
int clgemm_config_same(const clgemm_config *a, const clgemm_config *b);

#endif
