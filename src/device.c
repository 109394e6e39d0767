/*
 * device.c — discovery and selection of devices (see device.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "device.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "cpu.h"

void device_prop_add(device_info *info, const char *name, const char *fmt, ...)
{
    device_prop *p;
    va_list ap;
    if (info->nprops >= DEVICE_MAX_PROPS)
        return;
    p = &info->props[info->nprops++];
    snprintf(p->name, sizeof p->name, "%s", name);
    va_start(ap, fmt);
    vsnprintf(p->value, sizeof p->value, fmt, ap);
    va_end(ap);
}

void device_set_free(device_set *set)
{
    free(set->devs);
    clgemm_free(set->cl, set->ncl);
    memset(set, 0, sizeof *set);
}

int device_discover(device_set *set, int threads, err *e)
{
    int rc, i;
    memset(set, 0, sizeof *set);
    if ((rc = clgemm_discover(&set->cl, &set->ncl, e)) < 0)
        return rc;
    /* the set's array holds copies; the handles stay owned by the backends */
    set->devs = calloc((size_t)set->ncl + 1, sizeof *set->devs);
    if (!set->devs) {
        device_set_free(set);
        return err_set(e, BE_EFAIL, "out of memory listing devices");
    }
    if ((rc = cpu_discover(&set->devs[0], threads, e)) < 0) {
        device_set_free(set);
        return rc;
    }
    for (i = 0; i < set->ncl; i++)
        set->devs[i + 1] = set->cl[i];
    set->n = set->ncl + 1;
    if (set->ncl == 0)
        snprintf(set->note, sizeof set->note,
                 "no OpenCL platform found: the run is CPU-only (install an OpenCL driver, "
                 "e.g. pocl-opencl-icd, to compare)");
    return BE_OK;
}

static int find(const device_set *set, const char *id)
{
    int i;
    for (i = 0; i < set->n; i++)
        if (strcmp(set->devs[i].info.id, id) == 0)
            return i;
    return -1;
}

int device_select(const device_set *set, const char *spec, int *idx, int *n, err *e)
{
    int i, gpus = 0;
    *n = 0;
    if (strcmp(spec, "all") == 0) {
        for (i = 0; i < set->n; i++) {
            const device_info *d = &set->devs[i].info;
            if (strcmp(d->kind, "opencl") != 0 || strcmp(d->type, "GPU") == 0) {
                idx[(*n)++] = i;
                gpus += strcmp(d->kind, "opencl") == 0;
            }
        }
        /* without a GPU, the first OpenCL device of any type, labelled
         * with its real type wherever it is shown */
        if (gpus == 0)
            for (i = 0; i < set->n; i++)
                if (strcmp(set->devs[i].info.kind, "opencl") == 0) {
                    idx[(*n)++] = i;
                    break;
                }
        return BE_OK;
    }
    {
        char buf[512], *tok, *save = NULL;
        if (!*spec || strlen(spec) >= sizeof buf)
            return err_set(e, BE_EUSAGE, "--devices: \"%s\" is not a device list", spec);
        strcpy(buf, spec);
        for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int k = find(set, tok), j, dup = 0;
            if (k < 0)
                return err_set(e, BE_EUSAGE,
                               "--devices: no device \"%s\" (see `breakeven devices`)", tok);
            for (j = 0; j < *n; j++)
                dup |= idx[j] == k;
            if (!dup)
                idx[(*n)++] = k;
        }
        if (*n == 0)
            return err_set(e, BE_EUSAGE, "--devices: empty list");
    }
    return BE_OK;
}

void device_note_build(const device *d, device_info *info)
{
    double seconds = 0.0;
    int hit = 0;
    if (strcmp(d->info.kind, "opencl") != 0)
        return;
    clgemm_build_info(d->handle, &seconds, &hit);
    device_prop_add(info, "kernel-build-seconds", "%.3f", seconds);
    device_prop_add(info, "kernel-binary-cache", "%s", hit ? "hit" : "miss");
}
