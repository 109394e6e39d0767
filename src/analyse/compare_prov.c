/*
 * compare_prov.c — what differs between two runs' provenance (compare.h,
 * compare_provenance): the host and its hardware, the OS, the libraries,
 * breakeven, the grid, the recorded environment variable by variable, and
 * per device its model, driver, library and kernel configurations (of
 * inference and, where it differs, of training) and the device it is
 * measured against.  The comparison leads with
 * it, the history labels its steps with it, and the archive's band takes
 * only runs for which it is empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_impl.h"
#include "devinfo.h"
#include "query.h"

/* The list provenance differences are collected into. */
typedef struct diff_list {
    compare_diff *d;
    int n, max;
} diff_list;

static void diff(diff_list *l, const char *what, const char *a, const char *b)
{
    compare_diff *d;
    if (strcmp(a, b) == 0 || l->n == l->max)
        return;
    d = &l->d[l->n++];
    snprintf(d->what, sizeof d->what, "%s", what);
    snprintf(d->a, sizeof d->a, "%s", a);
    snprintf(d->b, sizeof d->b, "%s", b);
}

static void diff_num(diff_list *l, const char *what, double a, double b, const char *unit)
{
    char x[64], y[64];
    snprintf(x, sizeof x, "%.4g%s", a, unit);
    snprintf(y, sizeof y, "%.4g%s", b, unit);
    diff(l, what, x, y);
}

static void device_set_text(const results *r, char *buf, size_t size)
{
    size_t used = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < r->ndevices && used + 1 < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", r->devices[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* One variable of a recorded environment (host_environment's shell words:
 * NAME=value or NAME='va'\''lue'), unquoted.  What is cut to the buffers
 * still compares: two values that differ within 200 bytes differ here. */
typedef struct env_var {
    char name[80], value[200];
} env_var;

#define ENV_MAX 64

/* The variables of env into v (ENV_MAX at most); how many. */
static int env_parse(const char *env, env_var *v)
{
    const char *p = env;
    int n = 0;
    while (*p && n < ENV_MAX) {
        size_t k = strcspn(p, "= "), m = 0;
        int quoted = 0;
        snprintf(v[n].name, sizeof v[n].name, "%.*s", (int)(k < 79 ? k : 79), p);
        p += k;
        p += *p == '=';
        for (; *p && (quoted || *p != ' '); p++) {
            if (*p == '\'') {
                quoted = !quoted;
                continue;
            }
            if (*p == '\\' && !quoted && p[1]) /* the \' between two quoted parts */
                p++;
            if (m + 1 < sizeof v[n].value)
                v[n].value[m++] = *p;
        }
        v[n].value[m] = '\0';
        n++;
        while (*p == ' ')
            p++;
    }
    return n;
}

/* The variables of the recorded environments that differ, one by one: an
 * interposed library (LD_PRELOAD, LD_LIBRARY_PATH) or another OpenCL
 * driver (OCL_ICD_VENDORS) is a change of software that no version
 * shows. */
static void diff_env(diff_list *l, const char *ea, const char *eb)
{
    env_var *va = calloc(2 * ENV_MAX, sizeof *va), *vb;
    char what[96];
    int na, nb, i, j;
    if (!va) {
        diff(l, "environment", ea, eb);
        return;
    }
    vb = va + ENV_MAX;
    na = env_parse(ea, va);
    nb = env_parse(eb, vb);
    for (i = 0; i < na; i++) {
        for (j = 0; j < nb && strcmp(va[i].name, vb[j].name) != 0; j++)
            ;
        snprintf(what, sizeof what, "environment %s", va[i].name);
        diff(l, what, va[i].value, j < nb ? vb[j].value : "(not set)");
    }
    for (j = 0; j < nb; j++) {
        for (i = 0; i < na && strcmp(va[i].name, vb[j].name) != 0; i++)
            ;
        snprintf(what, sizeof what, "environment %s", vb[j].name);
        if (i == na)
            diff(l, what, "(not set)", vb[j].value);
    }
    free(va);
}

/* The kernel configurations of x and y, devices of two runs: their
 * inference options ("kernel config"), then their training options
 * ("kernel config (training)"), which a device records only where they
 * differ from the inference ones: listed when either run recorded them and
 * what each device trained with differs. */
static void diff_kernels(diff_list *l, const device_info *x, const device_info *y)
{
    const char *ka = devinfo_prop(x, "kernel_options"), *kb = devinfo_prop(y, "kernel_options");
    const char *ta = devinfo_prop(x, "kernel_options_training"),
               *tb = devinfo_prop(y, "kernel_options_training");
    char what[96];
    snprintf(what, sizeof what, "%.31s kernel config", x->id);
    diff(l, what, ka ? ka : "", kb ? kb : "");
    if (!ta && !tb)
        return;
    snprintf(what, sizeof what, "%.31s kernel config (training)", x->id);
    diff(l, what, ta ? ta : ka ? ka : "", tb ? tb : kb ? kb : "");
}

/* The device dev is measured against in r, "itself" for the base. */
static const char *base_word(const results *r, const char *dev)
{
    const char *b = q_base_id_for(r, dev);
    return strcmp(b, dev) == 0 ? "itself" : b;
}

int compare_provenance(const results *a, const results *b, compare_diff *out, int max)
{
    char da[300], db[300], what[96];
    diff_list l = {out, 0, max};
    int i;
    const rs_prov *pa = &a->prov, *pb = &b->prov;
    diff(&l, "host", pa->host, pb->host);
    diff(&l, "CPU model", pa->cpu_model, pb->cpu_model);
    diff_num(&l, "CPU cores", pa->cores, pb->cores, "");
    diff_num(&l, "memory", pa->memory / 1073741824.0, pb->memory / 1073741824.0, " GiB");
    device_set_text(a, da, sizeof da);
    device_set_text(b, db, sizeof db);
    diff(&l, "devices", da, db);
    diff(&l, "OS", pa->os, pb->os);
    diff(&l, "kernel", pa->kernel, pb->kernel);
    diff(&l, "compiler", pa->compiler, pb->compiler);
    diff(&l, "OpenBLAS version", pa->blas_version, pb->blas_version);
    diff(&l, "OpenBLAS core", pa->blas_core, pb->blas_core);
    diff_num(&l, "OpenBLAS threads", pa->blas_threads, pb->blas_threads, "");
    diff(&l, "breakeven version", pa->version, pb->version);
    diff(&l, "breakeven commit", pa->commit, pb->commit);
    diff_num(&l, "layers", pa->layers, pb->layers, "");
    diff(&l, "hidden widths", pa->hidden, pb->hidden);
    diff(&l, "batch sizes", pa->batch, pb->batch);
    diff_env(&l, pa->env, pb->env);
    for (i = 0; i < a->ndevices; i++) {
        const device_info *x = &a->devices[i], *y = compare_match_device(a, i, b);
        if (!y)
            continue;
        snprintf(what, sizeof what, "%.31s model", x->id);
        diff(&l, what, x->name, y->name);
        snprintf(what, sizeof what, "%.31s driver", x->id);
        diff(&l, what, x->driver, y->driver);
        snprintf(what, sizeof what, "%.31s library", x->id);
        diff(&l, what, x->library, y->library);
        diff_kernels(&l, x, y);
        /* what its crossovers are against (--base, else its stack's CPU):
         * runs that differ here have none of them in common */
        snprintf(what, sizeof what, "%.31s base", x->id);
        diff(&l, what, base_word(a, x->id), base_word(b, y->id));
    }
    return l.n;
}
