/*
 * clgemm_probe.h — what the OpenCL platforms say about their devices.
 *
 * The first half of the OpenCL backend's discovery: it walks every
 * platform of the ICD loader and every device of each, and asks each
 * device what it is (name, vendor, driver, type, memory, limits).  It
 * opens nothing (no context, no queue, no program); clgemm_discover turns
 * each probe into a device ready to build its kernels.  The description it
 * fills is the one `breakeven devices` shows and the results file stores,
 * up to the kernel configuration, which clgemm.c adds.
 */
#ifndef BE_CLGEMM_PROBE_H
#define BE_CLGEMM_PROBE_H

#include <stddef.h>

#include "clerr.h"
#include "devinfo.h"
#include "err.h"

/* One OpenCL device as its platform describes it. */
typedef struct clgemm_probe {
    device_info info; /* id "cl:P.D", kind "opencl", type, name,
                                vendor, driver, library and the hardware
                                properties                                  */
    cl_platform_id platform;
    cl_device_id id;
    cl_ulong max_alloc;  /* CL_DEVICE_MAX_MEM_ALLOC_SIZE                */
    cl_ulong global_mem; /* CL_DEVICE_GLOBAL_MEM_SIZE                   */
    size_t max_group;    /* CL_DEVICE_MAX_WORK_GROUP_SIZE               */
    char platver[256];   /* CL_PLATFORM_VERSION                         */
} clgemm_probe;

/* Probes every device of every platform into *out, an array of *n the
 * caller frees with free().  No OpenCL platform, or platforms without
 * devices, is not an error: *out is NULL and *n 0.  A failure names the
 * device ("cl:0.1: clGetDeviceInfo(...): CL_..."). */
int clgemm_probe_all(clgemm_probe **out, int *n, err *e);

#endif
