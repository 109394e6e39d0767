/*
 * devinfo.h — what breakeven says about a device: its identity and its
 * properties.
 *
 * A device_info is filled by the backend that found the device (cpu.c,
 * clgemm.c), shown by `breakeven devices`, stored in the results file
 * (<device> and its <prop name="..." value="..."/>) and read back by
 * results_load.c.  This module sits below every backend and below device.c, so
 * that a backend describing its devices calls nothing above itself.
 */
#ifndef BE_DEVINFO_H
#define BE_DEVINFO_H

#include <stddef.h>

/* A property of a device, shown by `breakeven devices` and stored in the
 * results file (<prop name="..." value="..."/>). */
typedef struct device_prop {
    char name[48];
    char value[256];
} device_prop;

#define DEVICE_MAX_PROPS 32

typedef struct device_info {
    char id[32];   /* "cpu", "cl:0.1" (platform.device)              */
    char kind[16]; /* "openblas" or "opencl"                          */
    char type[16]; /* "CPU", "GPU", "ACCELERATOR", ... (the real type) */
    char name[256];
    char vendor[128];
    char driver[256];  /* driver version, or the OpenBLAS version        */
    char library[256]; /* platform version, or the OpenBLAS config       */
    int nprops;
    device_prop props[DEVICE_MAX_PROPS];
    /* How far a whole run of the device lay from another on this host and
     * software, learned from earlier runs in the archive (results.h's
     * results_learn_bands): the standard deviation of a point's log time
     * from run to run per view (fit_view: resident, transfer, whost; < 0:
     * that view not learned), from run_sd_runs runs; 0 runs: none learned,
     * the run's intervals take results.h's defaults. */
    int run_sd_runs;
    double run_sd[3];
} device_info;

/* Appends a property to info (silently ignored past DEVICE_MAX_PROPS; the
 * value is cut to its buffer). */
void devinfo_prop_add(device_info *info, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The value of info's property name, or NULL when it has none. */
const char *devinfo_prop(const device_info *info, const char *name);

/* The device's fp32 peak: the most FLOP/s it can do, as the product of
 * what it reported (compute units and their largest clock, or cores) and
 * the FLOPs each unit can do per cycle, which its name (a table of known
 * GPUs) or its instruction set (a CPU of x86) tells.  A measured
 * throughput above it is impossible.  Returns 1 and sets *flops and how
 * ("NVIDIA Hopper: 132 compute units × 256 FLOP per cycle × 1980 MHz"),
 * or 0 when the peak cannot be known: an unknown device, or one that did
 * not report the numbers. */
int devinfo_peak(const device_info *info, double *flops, char *how, size_t size);

/* 1 when the device computes on the host's CPUs (OpenBLAS, or an OpenCL
 * device of type CPU): the machine's load, its reference and a shared
 * core (coreshare.h) apply to it. */
int devinfo_on_host(const device_info *info);

#endif
