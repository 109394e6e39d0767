/*
 * clerr.h — OpenCL status codes as breakeven errors.
 *
 * Every module that calls the OpenCL API (clgemm_probe.c asking what the
 * devices are, clgemm.c building and running the kernels) turns a failed
 * call into one err line through here: the call, the status's name and
 * number.  Running out of any memory is BE_EOOM, which the sweep records as
 * an out-of-memory point rather than as a failure; anything else is
 * BE_EFAIL.
 */
#ifndef BE_CLERR_H
#define BE_CLERR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "err.h"

/* ICD loader's answer when no platform is installed (cl_khr_icd). */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* "CL_OUT_OF_RESOURCES" for rc, "unknown OpenCL error" for a code not
 * listed. */
const char *clerr_name(cl_int rc);

/* Fills e with "<what>: CL_... (<rc>)", what formatted from fmt, and returns
 * BE_EOOM when rc says some memory ran out, BE_EFAIL otherwise. */
int clerr_set(err *e, cl_int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
