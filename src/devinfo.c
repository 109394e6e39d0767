/*
 * devinfo.c — building a device's description (devinfo.h).
 */
#include "devinfo.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void devinfo_prop_add(device_info *info, const char *name, const char *fmt, ...)
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

const char *devinfo_prop(const device_info *info, const char *name)
{
    int i;
    for (i = 0; i < info->nprops; i++)
        if (strcmp(info->props[i].name, name) == 0)
            return info->props[i].value;
    return NULL;
}
