/*
 * systable.c — a run's setup as tables (see systable.h).
 */
#include "systable.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "prose.h"
#include "query.h"
#include "site.h"

/* One row of the machine's table, unless value is empty. */
static void row(xmlNodePtr sys, const char *name, const char *value)
{
    xmlNodePtr n;
    if (!value || !value[0])
        return;
    n = site_add(sys, "row", NULL);
    site_attr(n, "name", name);
    site_attr(n, "value", value);
}

/* A device property's value, or "". */
static const char *prop(const device_info *d, const char *name)
{
    const char *v = devinfo_prop(d, name);
    return v ? v : "";
}

/* What decided OpenBLAS's thread count, in words. */
static const char *threads_from(const char *from)
{
    if (strcmp(from, "cores") == 0)
        return " (one per core)";
    if (strcmp(from, "--threads") == 0)
        return " (--threads)";
    if (strcmp(from, "OPENBLAS_NUM_THREADS") == 0)
        return " (OPENBLAS_NUM_THREADS)";
    return "";
}

static void add_system(xmlNodePtr a, const results *r)
{
    const rs_prov *p = &r->prov;
    xmlNodePtr sys = site_add(a, "system", NULL);
    char buf[512];

    if (p->label[0])
        row(sys, "Machine", p->label); /* BREAKEVEN_MACHINE: the name it is filed under */
    row(sys, "Host", p->host);
    row(sys, "CPU", p->cpu_model);
    if (p->cores > 0) {
        snprintf(buf, sizeof buf, "%d", p->cores);
        row(sys, "Cores", buf);
    }
    if (p->memory > 0) {
        snprintf(buf, sizeof buf, "%.1f GiB", p->memory / 1073741824.0);
        row(sys, "Memory", buf);
    }
    row(sys, "OS", p->os);
    row(sys, "Kernel", p->kernel);
    row(sys, "Compiler", p->compiler);
    if (p->blas_version[0]) {
        snprintf(buf, sizeof buf, "%s", p->blas_version);
        if (p->blas_core[0])
            fmt_append(buf, sizeof buf, ", core %s", p->blas_core);
        if (p->blas_threads > 0)
            fmt_append(buf, sizeof buf, ", %d thread%s%s", p->blas_threads,
                       p->blas_threads == 1 ? "" : "s", threads_from(p->blas_threads_from));
        row(sys, "OpenBLAS", buf);
    }
    if (p->version[0]) {
        snprintf(buf, sizeof buf, "%s", p->version);
        if (p->commit[0])
            fmt_append(buf, sizeof buf, ", commit %s", p->commit);
        row(sys, "breakeven", buf);
    }
}

static void add_devices(xmlNodePtr a, const results *r)
{
    xmlNodePtr ds = site_add(a, "devices", NULL);
    char buf[256];
    int d, priced = 0, peaks = 0;

    for (d = 0; d < r->ndevices; d++) {
        const device_info *v = &r->devices[d];
        xmlNodePtr n = site_add(ds, "device", NULL);
        double usd = q_price(&r->prices, v->id);
        const char *cu = prop(v, "compute_units");
        site_attr(n, "id", v->id);
        site_attr(n, "type", v->type);
        site_attr(n, "name", v->name);
        site_attr(n, "driver", v->driver);
        site_attr(n, "library", v->library);
        buf[0] = '\0';
        if (strcmp(v->kind, "openblas") == 0 && r->prov.blas_threads > 0)
            snprintf(buf, sizeof buf, "%d thread%s", r->prov.blas_threads,
                     r->prov.blas_threads == 1 ? "" : "s");
        else if (cu[0])
            snprintf(buf, sizeof buf, "%s compute unit%s", cu, strcmp(cu, "1") == 0 ? "" : "s");
        site_attr(n, "threads", buf);
        buf[0] = '\0';
        if (usd > 0) {
            fmt_usd(buf, sizeof buf, usd, 4);
            fmt_append(buf, sizeof buf, "/h");
            priced = 1;
        }
        site_attr(n, "price", buf);
        buf[0] = '\0';
        if (q_peak(r, v->id) > 0.0) {
            fmt_si(buf, sizeof buf, q_peak(r, v->id), 3, "FLOP/s");
            peaks = 1;
        }
        site_attr(n, "peak", buf);
    }
    site_attr(ds, "priced", priced ? "yes" : "no");
    site_attr(ds, "peaks", peaks ? "yes" : "no");
}

void systable_add(xmlNodePtr a, const results *r)
{
    char buf[4096];
    add_system(a, r);
    add_devices(a, r);
    prose_setup(r, buf, sizeof buf);
    site_add(a, "method", buf);
}
