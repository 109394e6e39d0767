/*
 * device.h — the devices breakeven can measure, and which of them a run uses.
 *
 * Discovery asks every backend (the CPU through OpenBLAS, then every OpenCL
 * platform) what it has.  Selection turns --devices into a list: "all" (the
 * default) is the CPU plus every OpenCL GPU, or, on a machine without one,
 * the first OpenCL device of any type, so that every run compares the CPU
 * with something, then every framework device (docs/devices.md) that
 * starts; an explicit list names devices by id ("cpu,cl:0.1",
 * "cpu,torch:cpu").
 */
#ifndef BE_DEVICE_H
#define BE_DEVICE_H

#include <stdint.h>

#include "backend.h"

typedef struct device_set {
    int n;
    device *devs; /* owned: copies of every backend's devices */
    device *cl;   /* owned by the OpenCL backend (freed through it) */
    int ncl;
    char note[256]; /* why a backend has no devices, "" otherwise */
    int nfw;        /* framework devices at the end of devs (framework.h),
                       closed through it                                 */
} device_set;

/* Discovers every device.  threads is OpenBLAS's thread count (0 = all
 * cores).  No OpenCL platform is not an error (note says so).  Free with
 * device_set_free. */
int device_discover(device_set *set, int threads, err *e);
void device_set_free(device_set *set);

/* Starts the framework devices (framework.h: "torch:cpu", …) that spec
 * names and appends them to set; adapters is the directory of the shipped
 * adapters, threads theirs (0: one per core).  A device named whose
 * adapter cannot start is appended all the same, out of service
 * (framework_fault says why), so that its points are recorded as failed.
 * "all": each framework's first device (framework_probe) and the others
 * its adapter names (framework_more), only those that start.  seed (the
 * run's --seed) draws the steps each adapter is checked on unannounced.
 * BE_EFAIL only for out of memory. */
int device_add_frameworks(device_set *set, const char *spec, const char *adapters, int threads,
                          uint64_t seed, err *e);

/* The CPU seconds d's adapter spent outside its visits (framework.h,
 * framework_idle_cpu); 0 for every other device. */
double device_idle_cpu(const device *d);

/* Why a device is out of service ("" when it works; only a framework device
 * can be). */
const char *device_fault(const device *d);

/* 1 the first time it is asked after d went out of service (so that the
 * command says so once), else 0. */
int device_fault_news(device *d);

/* Fills idx[0..*n) with the indexes into set->devs that spec names ("all"
 * or a comma-separated list of ids), in the order measured: the CPU first.
 * BE_EUSAGE naming an unknown id. */
int device_select(const device_set *set, const char *spec, int *idx, int *n, err *e);

/* Adds to info what preparing d cost outside the measurement: for a
 * backend that builds kernels (backend_ops.build_info, OpenCL) the build
 * time and whether the binary cache served it ("kernel-build-seconds",
 * "kernel-binary-cache"); nothing for the others. */
void device_note_build(const device *d, device_info *info);

#endif
