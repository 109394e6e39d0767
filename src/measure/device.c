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
    if (set->nfw > 0)
        framework_strays();
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

/* Appends the framework device id to set unless it is there already;
 * *added says whether it was. */
static int add_one(device_set *set, const char *id, const char *adapters, int threads,
                   uint64_t seed, int *added, err *e)
{
    device *grown;
    int i, rc;
    *added = 0;
    for (i = 0; i < set->n; i++)
        if (strcmp(set->devs[i].info.id, id) == 0)
            return BE_OK;
    if (!(grown = realloc(set->devs, (size_t)(set->n + 1) * sizeof *grown)))
        return err_set(e, BE_EFAIL, "out of memory listing devices");
    set->devs = grown;
    if ((rc = framework_open(&set->devs[set->n], id, adapters, threads, seed, e)) < 0)
        return rc;
    set->n++;
    set->nfw++;
    *added = 1;
    return BE_OK;
}

/* Drops the last device of set when its adapter could not start: `all`
 * means the framework devices that start (`breakeven devices` says why
 * one does not). */
static void drop_if_out(device_set *set)
{
    device *d = &set->devs[set->n - 1];
    if (!framework_fault(d)[0])
        return;
    framework_close(d);
    set->n--;
    set->nfw--;
}

/* `all`: each framework's first device, and the others its adapter names,
 * each kept only when it starts. */
static int add_all(device_set *set, const char *adapters, int threads, uint64_t seed, err *e)
{
    char more[256], *tok, *save = NULL;
    int f, rc, added;
    for (f = 0; framework_probe[f]; f++) {
        if ((rc = add_one(set, framework_probe[f], adapters, threads, seed, &added, e)) < 0)
            return rc;
        if (!added)
            continue;
        if (framework_fault(&set->devs[set->n - 1])[0]) {
            drop_if_out(set);
            continue;
        }
        snprintf(more, sizeof more, "%s", framework_more(&set->devs[set->n - 1]));
        for (tok = strtok_r(more, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            if ((rc = add_one(set, tok, adapters, threads, seed, &added, e)) < 0)
                return rc;
            if (added)
                drop_if_out(set);
        }
    }
    return BE_OK;
}

int device_add_frameworks(device_set *set, const char *spec, const char *adapters, int threads,
                          uint64_t seed, err *e)
{
    char buf[512], *tok, *save = NULL;
    int rc, added;
    if (strcmp(spec, "all") == 0)
        return add_all(set, adapters, threads, seed, e);
    if (strlen(spec) >= sizeof buf)
        return BE_OK;
    strcpy(buf, spec);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (framework_is(tok) && (rc = add_one(set, tok, adapters, threads, seed, &added, e)) < 0)
            return rc;
    return BE_OK;
}

double device_idle_cpu(const device *d)
{
    return d->ops->kind == BACKEND_FRAMEWORK ? framework_idle_cpu(d) : 0.0;
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
        /* the framework devices add_all kept (each one started) */
        for (i = 0; i < set->n; i++)
            if (set->devs[i].ops->kind == BACKEND_FRAMEWORK && !device_fault(&set->devs[i])[0])
                idx[(*n)++] = i;
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
