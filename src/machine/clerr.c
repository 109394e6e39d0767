/*
 * clerr.c — OpenCL status codes as breakeven errors (clerr.h).
 */
#include "clerr.h"

#include <stdarg.h>
#include <stdio.h>

const char *clerr_name(cl_int rc)
{
    /* clang-format off */
#define C(x) {x, #x}
    /* clang-format on */
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        C(CL_SUCCESS),
        C(CL_DEVICE_NOT_FOUND),
        C(CL_DEVICE_NOT_AVAILABLE),
        C(CL_COMPILER_NOT_AVAILABLE),
        C(CL_MEM_OBJECT_ALLOCATION_FAILURE),
        C(CL_OUT_OF_RESOURCES),
        C(CL_OUT_OF_HOST_MEMORY),
        C(CL_PROFILING_INFO_NOT_AVAILABLE),
        C(CL_MEM_COPY_OVERLAP),
        C(CL_BUILD_PROGRAM_FAILURE),
        C(CL_MAP_FAILURE),
        C(CL_MISALIGNED_SUB_BUFFER_OFFSET),
        C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
        C(CL_COMPILE_PROGRAM_FAILURE),
        C(CL_LINKER_NOT_AVAILABLE),
        C(CL_LINK_PROGRAM_FAILURE),
        C(CL_INVALID_VALUE),
        C(CL_INVALID_DEVICE_TYPE),
        C(CL_INVALID_PLATFORM),
        C(CL_INVALID_DEVICE),
        C(CL_INVALID_CONTEXT),
        C(CL_INVALID_QUEUE_PROPERTIES),
        C(CL_INVALID_COMMAND_QUEUE),
        C(CL_INVALID_HOST_PTR),
        C(CL_INVALID_MEM_OBJECT),
        C(CL_INVALID_BINARY),
        C(CL_INVALID_BUILD_OPTIONS),
        C(CL_INVALID_PROGRAM),
        C(CL_INVALID_PROGRAM_EXECUTABLE),
        C(CL_INVALID_KERNEL_NAME),
        C(CL_INVALID_KERNEL_DEFINITION),
        C(CL_INVALID_KERNEL),
        C(CL_INVALID_ARG_INDEX),
        C(CL_INVALID_ARG_VALUE),
        C(CL_INVALID_ARG_SIZE),
        C(CL_INVALID_KERNEL_ARGS),
        C(CL_INVALID_WORK_DIMENSION),
        C(CL_INVALID_WORK_GROUP_SIZE),
        C(CL_INVALID_WORK_ITEM_SIZE),
        C(CL_INVALID_GLOBAL_OFFSET),
        C(CL_INVALID_EVENT_WAIT_LIST),
        C(CL_INVALID_EVENT),
        C(CL_INVALID_OPERATION),
        C(CL_INVALID_BUFFER_SIZE),
        C(CL_INVALID_GLOBAL_WORK_SIZE),
        C(CL_INVALID_PROPERTY),
        C(CL_PLATFORM_NOT_FOUND_KHR),
    };
#undef C
    size_t i;
    for (i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].code == rc)
            return names[i].name;
    return "unknown OpenCL error";
}

int clerr_set(err *e, cl_int rc, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    const int oom = rc == CL_MEM_OBJECT_ALLOCATION_FAILURE || rc == CL_OUT_OF_RESOURCES ||
                    rc == CL_OUT_OF_HOST_MEMORY;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return err_set(e, oom ? BE_EOOM : BE_EFAIL, "%s: %s (%d)", what, clerr_name(rc), (int)rc);
}
