/*
 * clgemm_probe.c — asking the OpenCL platforms what devices they have
 * (clgemm_probe.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "clgemm_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clGetPlatformInfo when plat is set, clGetDeviceInfo of dev otherwise. */
static cl_int get_info(cl_platform_id plat, cl_device_id dev, cl_uint what, size_t n, void *v,
                       size_t *ret)
{
    return plat ? clGetPlatformInfo(plat, what, n, v, ret) : clGetDeviceInfo(dev, what, n, v, ret);
}

/* A string property (see get_info) as a malloc'ed string the caller frees. */
static int info_alloc(cl_platform_id plat, cl_device_id dev, cl_uint what, const char *name,
                      char **out, err *e)
{
    const char *call = plat ? "clGetPlatformInfo" : "clGetDeviceInfo";
    size_t n = 0;
    cl_int rc = get_info(plat, dev, what, 0, NULL, &n);
    char *tmp;
    *out = NULL;
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "%s(%s)", call, name);
    if (!(tmp = malloc(n + 1)))
        return err_set(e, BE_EFAIL, "%s(%s): out of host memory", call, name);
    if ((rc = get_info(plat, dev, what, n, tmp, NULL)) != CL_SUCCESS) {
        free(tmp);
        return clerr_set(e, rc, "%s(%s)", call, name);
    }
    tmp[n] = '\0';
    *out = tmp;
    return BE_OK;
}

/* A string property into buf (cut to len). */
static int info_str(cl_platform_id plat, cl_device_id dev, cl_uint what, const char *name,
                    char *buf, size_t len, err *e)
{
    char *s;
    int rc = info_alloc(plat, dev, what, name, &s, e);
    if (rc)
        return rc;
    snprintf(buf, len, "%s", s);
    free(s);
    return BE_OK;
}

/* A fixed-size property of a device into v. */
static int dev_num(cl_device_id id, cl_device_info what, void *v, size_t n, const char *name,
                   err *e)
{
    const cl_int rc = clGetDeviceInfo(id, what, n, v, NULL);
    if (rc != CL_SUCCESS)
        return clerr_set(e, rc, "clGetDeviceInfo(%s)", name);
    return BE_OK;
}

#define DEV_STR(what, buf, len) info_str(NULL, id, what, #what, buf, len, e)
#define PLAT_STR(what, buf, len) info_str(plat, NULL, what, #what, buf, len, e)
#define DEV_NUM(what, v) dev_num(id, what, &(v), sizeof(v), #what, e)

/* NVIDIA's PCI address of a device (cl_nv_device_attribute_query), as
 * property "pci_bus_id" ("0000:65:00.0"): telemetry.c finds the device's
 * NVML handle by it.  Nothing when the driver does not answer. */
static void pci_bus_id(cl_device_id id, device_info *in)
{
    const cl_device_info bus_nv = 0x4008, slot_nv = 0x4009, domain_nv = 0x400A;
    cl_uint bus, slot, domain;
    if (clGetDeviceInfo(id, bus_nv, sizeof bus, &bus, NULL) == CL_SUCCESS &&
        clGetDeviceInfo(id, slot_nv, sizeof slot, &slot, NULL) == CL_SUCCESS &&
        clGetDeviceInfo(id, domain_nv, sizeof domain, &domain, NULL) == CL_SUCCESS)
        devinfo_prop_add(in, "pci_bus_id", "%04x:%02x:%02x.0", (unsigned)domain, (unsigned)bus,
                         (unsigned)slot);
}

/* Fills p with device D of platform P. */
static int describe(cl_platform_id plat, cl_device_id id, int P, int D, clgemm_probe *p, err *e)
{
    device_info *in = &p->info;
    char pname[256], ocl_c[128], *ext = NULL;
    cl_device_type type;
    cl_uint cus, mhz;
    cl_ulong lmem;
    cl_device_fp_config fp64;
    int rc, fp16, nv;

    memset(p, 0, sizeof *p);
    snprintf(in->id, sizeof in->id, "cl:%d.%d", P, D);
    snprintf(in->kind, sizeof in->kind, "opencl");
    if ((rc = DEV_STR(CL_DEVICE_NAME, in->name, sizeof in->name)) ||
        (rc = DEV_STR(CL_DEVICE_VENDOR, in->vendor, sizeof in->vendor)) ||
        (rc = DEV_STR(CL_DRIVER_VERSION, in->driver, sizeof in->driver)) ||
        (rc = DEV_STR(CL_DEVICE_OPENCL_C_VERSION, ocl_c, sizeof ocl_c)) ||
        (rc = PLAT_STR(CL_PLATFORM_NAME, pname, sizeof pname)) ||
        (rc = PLAT_STR(CL_PLATFORM_VERSION, p->platver, sizeof p->platver)) ||
        (rc = DEV_NUM(CL_DEVICE_TYPE, type)) || (rc = DEV_NUM(CL_DEVICE_MAX_COMPUTE_UNITS, cus)) ||
        (rc = DEV_NUM(CL_DEVICE_MAX_CLOCK_FREQUENCY, mhz)) ||
        (rc = DEV_NUM(CL_DEVICE_GLOBAL_MEM_SIZE, p->global_mem)) ||
        (rc = DEV_NUM(CL_DEVICE_LOCAL_MEM_SIZE, lmem)) ||
        (rc = DEV_NUM(CL_DEVICE_MAX_MEM_ALLOC_SIZE, p->max_alloc)) ||
        (rc = DEV_NUM(CL_DEVICE_MAX_WORK_GROUP_SIZE, p->max_group)) ||
        (rc = DEV_NUM(CL_DEVICE_DOUBLE_FP_CONFIG, fp64)) ||
        (rc = info_alloc(NULL, id, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", &ext, e)))
        return rc;
    fp16 = strstr(ext, "cl_khr_fp16") != NULL;
    nv = strstr(ext, "cl_nv_device_attribute_query") != NULL;
    free(ext);

    snprintf(in->type, sizeof in->type, "%s",
             type & CL_DEVICE_TYPE_GPU           ? "GPU"
             : type & CL_DEVICE_TYPE_CPU         ? "CPU"
             : type & CL_DEVICE_TYPE_ACCELERATOR ? "ACCELERATOR"
                                                 : "CUSTOM");
    snprintf(in->library, sizeof in->library, "%.100s %.150s", pname, p->platver);
    devinfo_prop_add(in, "opencl_c_version", "%s", ocl_c);
    devinfo_prop_add(in, "compute_units", "%u", (unsigned)cus);
    devinfo_prop_add(in, "max_clock_mhz", "%u", (unsigned)mhz);
    devinfo_prop_add(in, "global_mem_bytes", "%llu", (unsigned long long)p->global_mem);
    devinfo_prop_add(in, "local_mem_bytes", "%llu", (unsigned long long)lmem);
    devinfo_prop_add(in, "max_alloc_bytes", "%llu", (unsigned long long)p->max_alloc);
    devinfo_prop_add(in, "fp16", "%s", fp16 ? "yes" : "no");
    devinfo_prop_add(in, "fp64", "%s", fp64 ? "yes" : "no");
    devinfo_prop_add(in, "platform", "%s", pname);
    if (nv)
        pci_bus_id(id, in);
    p->platform = plat;
    p->id = id;
    return BE_OK;
}

int clgemm_probe_all(clgemm_probe **out, int *n, err *e)
{
    cl_platform_id *plats = NULL;
    cl_device_id *ids = NULL;
    clgemm_probe *probes = NULL, *grown;
    cl_uint np = 0, nd, p, i;
    int count = 0, rc;
    cl_int crc;

    *out = NULL;
    *n = 0;
    crc = clGetPlatformIDs(0, NULL, &np);
    if (crc == CL_PLATFORM_NOT_FOUND_KHR || (crc == CL_SUCCESS && np == 0))
        return BE_OK; /* no OpenCL here: nothing to measure, not a failure */
    if (crc != CL_SUCCESS)
        return clerr_set(e, crc, "clGetPlatformIDs");
    if (!(plats = calloc(np, sizeof *plats))) {
        rc = err_set(e, BE_EFAIL, "clGetPlatformIDs: out of host memory");
        goto fail;
    }
    if ((crc = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        rc = clerr_set(e, crc, "clGetPlatformIDs");
        goto fail;
    }
    for (p = 0; p < np; p++) {
        nd = 0;
        crc = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (crc == CL_DEVICE_NOT_FOUND || (crc == CL_SUCCESS && nd == 0))
            continue; /* a platform without devices (e.g. no GPU plugged in) */
        if (crc != CL_SUCCESS) {
            rc = clerr_set(e, crc, "clGetDeviceIDs");
            goto fail;
        }
        free(ids);
        ids = calloc(nd, sizeof *ids);
        grown = realloc(probes, ((size_t)count + nd) * sizeof *probes);
        if (grown)
            probes = grown;
        if (!ids || !grown) {
            rc = err_set(e, BE_EFAIL, "clGetDeviceIDs: out of host memory");
            goto fail;
        }
        if ((crc = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL)) != CL_SUCCESS) {
            rc = clerr_set(e, crc, "clGetDeviceIDs");
            goto fail;
        }
        for (i = 0; i < nd; i++) {
            if ((rc = describe(plats[p], ids[i], (int)p, (int)i, &probes[count], e))) {
                err_prefix(e, rc, "cl:%u.%u", p, i);
                goto fail;
            }
            count++;
        }
    }
    free(plats);
    free(ids);
    *out = probes;
    *n = count;
    return BE_OK;
fail:
    free(plats);
    free(ids);
    free(probes);
    return rc;
}
