/*
 * device.c — discovery and selection of devices (see device.h).
 *
 * This module sits above the backends: it calls their discovery functions
 * and then deals with devices only through backend.h (the ops table says
 * which backend a device belongs to), never the other way round.
 */
#define _POSIX_C_SOURCE 200809L
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "cpu.h"
#include "framework.h"

void device_set_free(device_set *set)
{
    int i;
    for (i = set->n - set->nfw; i < set->n; i++)
        framework_close(&set->devs[i]);
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

static int is_opencl(const device *d)
{
    return d->ops->kind == BACKEND_OPENCL;
}

int device_add_frameworks(device_set *set, const char *spec, const char *adapters, int threads,
                          err *e)
{
    char buf[512], *tok, *save = NULL;
    int rc, i, dup;
    if (strcmp(spec, "all") == 0 || strlen(spec) >= sizeof buf)
        return BE_OK;
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        device *grown;
        if (!framework_is(tok))
            continue;
        for (i = dup = 0; i < set->n; i++)
            dup |= strcmp(set->devs[i].info.id, tok) == 0;
        if (dup)
            continue;
        if (!(grown = realloc(set->devs, (size_t)(set->n + 1) * sizeof *grown)))
            return err_set(e, BE_EFAIL, "out of memory listing devices");
        set->devs = grown;
        if ((rc = framework_open(&set->devs[set->n], tok, adapters, threads, e)) < 0)
            return rc;
        set->n++;
        set->nfw++;
    }
    return BE_OK;
}

const char *device_fault(const device *d)
{
    return d->ops->kind == BACKEND_FRAMEWORK ? framework_fault(d) : "";
}

int device_fault_news(device *d)
{
    return d->ops->kind == BACKEND_FRAMEWORK && framework_fault_news(d);
}

/* The index of the device called id into *k; BE_EUSAGE naming it when
 * there is none. */
static int find(const device_set *set, const char *id, int *k, err *e)
{
    int i;
    for (i = 0; i < set->n; i++)
        if (strcmp(set->devs[i].info.id, id) == 0) {
            *k = i;
            return BE_OK;
        }
    return err_set(e, BE_EUSAGE, "--devices: no device \"%s\" (see `breakeven devices`)", id);
}

int device_select(const device_set *set, const char *spec, int *idx, int *n, err *e)
{
    int i, gpus = 0;
    *n = 0;
    if (strcmp(spec, "all") == 0) {
        for (i = 0; i < set->n; i++) {
            const device *d = &set->devs[i];
            if (d->ops->kind == BACKEND_OPENBLAS ||
                (is_opencl(d) && strcmp(d->info.type, "GPU") == 0)) {
                idx[(*n)++] = i;
                gpus += is_opencl(d);
            }
        }
        /* without a GPU, the first OpenCL device of any type, labelled
         * with its real type wherever it is shown */
        if (gpus == 0)
            for (i = 0; i < set->n; i++)
                if (is_opencl(&set->devs[i])) {
                    idx[(*n)++] = i;
                    break;
                }
        return BE_OK;
    }
    {
        char buf[512], *tok, *save = NULL;
        int rc, k = 0, j, dup;
        if (!*spec || strlen(spec) >= sizeof buf)
            return err_set(e, BE_EUSAGE, "--devices: \"%s\" is not a device list", spec);
        strcpy(buf, spec);
        for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if ((rc = find(set, tok, &k, e)) < 0)
                return rc;
            dup = 0;
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
    if (!d->ops->build_info)
        return;
    d->ops->build_info(d->handle, &seconds, &hit);
    devinfo_prop_add(info, "kernel-build-seconds", "%.3f", seconds);
    devinfo_prop_add(info, "kernel-binary-cache", "%s", hit ? "hit" : "miss");
}
