/*
 * telemetry.c — device telemetry through NVML and RAPL (see telemetry.h).
 *
 * NVML is loaded with dlopen and declared here, not through nvml.h, so that
 * breakeven builds and runs where the NVIDIA driver is absent.  Each entry
 * point is looked up on its own: a driver that lacks one (an old one has no
 * energy counter, a new one renames the throttle reasons to "clock event"
 * reasons) loses that field only.
 */
#define _POSIX_C_SOURCE 200809L
#include "telemetry.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"

/* ---- NVML, as much of its C interface as is used ---- */

typedef void *nvml_device; /* nvmlDevice_t: an opaque pointer */
#define NVML_SUCCESS 0
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_by_index_fn)(unsigned int, nvml_device *);
typedef int (*nvml_by_bus_fn)(const char *, nvml_device *);
typedef int (*nvml_clock_fn)(nvml_device, int, unsigned int *);
typedef int (*nvml_uint_fn)(nvml_device, unsigned int *);
typedef int (*nvml_ull_fn)(nvml_device, unsigned long long *);

typedef struct nvml_api {
    nvml_void_fn init, shutdown;
    nvml_count_fn count;
    nvml_by_index_fn by_index;
    nvml_by_bus_fn by_bus;
    nvml_clock_fn clock;
    nvml_uint_fn power;
    nvml_clock_fn temperature;
    nvml_ull_fn reasons;
    nvml_ull_fn energy;
} nvml_api;

typedef struct rapl_domain {
    char energy[512];
    unsigned long long range;
} rapl_domain;

struct tel_source {
    tel_kind kind;
    void *lib; /* NVML: the dlopen handle                 */
    nvml_api api;
    nvml_device dev;
    int ndomains; /* RAPL: the package domains               */
    rapl_domain dom[TEL_MAX_COUNTERS];
};

/* The function called name in lib, into *fn (NULL when absent).  Through
 * memcpy because ISO C has no conversion from dlsym's object pointer to a
 * function pointer. */
static void symbol(void *lib, const char *name, void *fn, size_t size)
{
    void *p = dlsym(lib, name);
    memset(fn, 0, size);
    if (p && size == sizeof p)
        memcpy(fn, &p, size);
}

#define SYMBOL(lib, name, fn) symbol((lib), (name), &(fn), sizeof(fn))

static void load_api(void *lib, nvml_api *a)
{
    SYMBOL(lib, "nvmlInit_v2", a->init);
    SYMBOL(lib, "nvmlShutdown", a->shutdown);
    SYMBOL(lib, "nvmlDeviceGetCount_v2", a->count);
    SYMBOL(lib, "nvmlDeviceGetHandleByIndex_v2", a->by_index);
    SYMBOL(lib, "nvmlDeviceGetHandleByPciBusId_v2", a->by_bus);
    SYMBOL(lib, "nvmlDeviceGetClockInfo", a->clock);
    SYMBOL(lib, "nvmlDeviceGetPowerUsage", a->power);
    SYMBOL(lib, "nvmlDeviceGetTemperature", a->temperature);
    /* renamed in CUDA 12.2's NVML; the old name stays in older drivers */
    SYMBOL(lib, "nvmlDeviceGetCurrentClocksEventReasons", a->reasons);
    if (!a->reasons)
        SYMBOL(lib, "nvmlDeviceGetCurrentClocksThrottleReasons", a->reasons);
    SYMBOL(lib, "nvmlDeviceGetTotalEnergyConsumption", a->energy);
}

/* Whether text contains "nvidia", in any case. */
static int names_nvidia(const char *text)
{
    static const char word[] = "nvidia";
    size_t i, j, n = strlen(text), w = sizeof word - 1;
    for (i = 0; i + w <= n; i++) {
        for (j = 0; j < w && tolower((unsigned char)text[i + j]) == word[j]; j++)
            ;
        if (j == w)
            return 1;
    }
    return 0;
}

/* The NVML handle of d into *dev: by its PCI address in both of NVML's
 * spellings, or the only device.  0 when none is certain. */
static int find_device(const nvml_api *a, const device_info *d, nvml_device *dev)
{
    const char *bus = devinfo_prop(d, "pci_bus_id");
    unsigned int domain, b, slot, fn, count = 0;
    char id[64];

    if (bus && a->by_bus && sscanf(bus, "%x:%x:%x.%x", &domain, &b, &slot, &fn) == 4) {
        snprintf(id, sizeof id, "%08x:%02x:%02x.%x", domain, b, slot, fn);
        if (a->by_bus(id, dev) == NVML_SUCCESS)
            return 1;
        snprintf(id, sizeof id, "%04x:%02x:%02x.%x", domain, b, slot, fn);
        if (a->by_bus(id, dev) == NVML_SUCCESS)
            return 1;
        return 0; /* an address that NVML does not know is not guessed at */
    }
    if (bus || !a->count || !a->by_index || a->count(&count) != NVML_SUCCESS || count != 1)
        return 0;
    return a->by_index(0, dev) == NVML_SUCCESS;
}

int tel_open_nvml(const char *lib, const device_info *d, tel_source **out, err *e)
{
    tel_source *s;
    *out = NULL;
    if (!names_nvidia(d->vendor))
        return BE_OK;
    if (!(s = calloc(1, sizeof *s)))
        return err_set(e, BE_EFAIL, "out of memory opening NVML for %s", d->id);
    s->kind = TEL_NVML;
    if (!(s->lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL)))
        goto none;
    load_api(s->lib, &s->api);
    if (!s->api.init || !s->api.shutdown || s->api.init() != NVML_SUCCESS) {
        s->api.shutdown = NULL; /* not initialized: nothing to shut down */
        goto none;
    }
    if (!find_device(&s->api, d, &s->dev))
        goto none;
    *out = s;
    return BE_OK;
none:
    tel_close(s);
    return BE_OK;
}

/* The first line of path as an unsigned number into *v; 0 when unreadable. */
static int read_ull(const char *path, unsigned long long *v)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (!f)
        return 0;
    ok = fscanf(f, "%llu", v) == 1;
    fclose(f);
    return ok;
}

/* Whether root/dir is a RAPL package domain ("intel-rapl:N" named
 * "package-N") whose counter can be read; fills d. */
static int rapl_package(const char *root, const char *dir, rapl_domain *d)
{
    char path[512], name[64];
    unsigned long long v;
    FILE *f;
    int n = 0, ok;

    if (sscanf(dir, "intel-rapl:%*u%n", &n) != 0 || n == 0 || dir[n] != '\0')
        return 0;
    snprintf(path, sizeof path, "%s/%s/name", root, dir);
    if (!(f = fopen(path, "r")))
        return 0;
    ok = fgets(name, sizeof name, f) != NULL && strncmp(name, "package-", 8) == 0;
    fclose(f);
    snprintf(d->energy, sizeof d->energy, "%s/%s/energy_uj", root, dir);
    snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", root, dir);
    return ok && read_ull(d->energy, &v) && read_ull(path, &d->range) && d->range > 0;
}

int tel_open_rapl(const char *root, tel_source **out, err *e)
{
    DIR *dir;
    struct dirent *de;
    tel_source *s;

    *out = NULL;
    if (!(dir = opendir(root)))
        return BE_OK;
    if (!(s = calloc(1, sizeof *s))) {
        closedir(dir);
        return err_set(e, BE_EFAIL, "out of memory opening RAPL at %s", root);
    }
    s->kind = TEL_RAPL;
    while ((de = readdir(dir)) && s->ndomains < TEL_MAX_COUNTERS)
        if (rapl_package(root, de->d_name, &s->dom[s->ndomains]))
            s->ndomains++;
    closedir(dir);
    if (s->ndomains == 0) {
        free(s);
        return BE_OK;
    }
    *out = s;
    return BE_OK;
}

const char *tel_rapl_why(const char *root)
{
    DIR *dir = opendir(root);
    struct dirent *de;
    const char *why = "absent";
    if (!dir)
        return why;
    while ((de = readdir(dir))) {
        char path[512], name[64] = "";
        FILE *f;
        int n = 0;
        if (sscanf(de->d_name, "intel-rapl:%*u%n", &n) != 0 || n == 0 || de->d_name[n] != '\0')
            continue;
        snprintf(path, sizeof path, "%s/%s/name", root, de->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        if (!fgets(name, sizeof name, f))
            name[0] = '\0';
        fclose(f);
        if (strncmp(name, "package-", 8) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s/energy_uj", root, de->d_name);
        if (access(path, F_OK) == 0 && access(path, R_OK) != 0 && errno == EACCES) {
            why = "root-only";
            break;
        }
        why = "unreadable";
    }
    closedir(dir);
    return why;
}

int tel_open_for(const device_info *d, tel_source **out, err *e)
{
    *out = NULL;
    if (strcmp(d->kind, "opencl") == 0)
        return tel_open_nvml("libnvidia-ml.so.1", d, out, e);
    if (strcmp(d->kind, "openblas") == 0)
        return tel_open_rapl("/sys/class/powercap", out, e);
    return BE_OK;
}

void tel_close(tel_source *s)
{
    if (!s)
        return;
    if (s->api.shutdown)
        s->api.shutdown();
    if (s->lib)
        dlclose(s->lib);
    free(s);
}

tel_kind tel_source_kind(const tel_source *s)
{
    return s ? s->kind : TEL_NONE;
}

static void read_nvml(tel_source *s, tel_reading *r)
{
    const nvml_api *a = &s->api;
    unsigned int v;
    unsigned long long u;

    if (a->clock && a->clock(s->dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS) {
        r->has_sm = 1;
        r->sm_mhz = v;
    }
    if (a->clock && a->clock(s->dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) {
        r->has_mem = 1;
        r->mem_mhz = v;
    }
    if (a->power && a->power(s->dev, &v) == NVML_SUCCESS) {
        r->has_power = 1;
        r->power_w = v / 1000.0;
    }
    if (a->temperature && a->temperature(s->dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS) {
        r->has_temp = 1;
        r->temp_c = v;
    }
    if (a->reasons && a->reasons(s->dev, &u) == NVML_SUCCESS) {
        r->has_throttle = 1;
        r->throttle = u;
    }
    if (a->energy && a->energy(s->dev, &u) == NVML_SUCCESS) {
        r->has_energy = 1;
        r->ncounters = 1;
        r->counter[0] = u;
        r->range[0] = 0;
        r->joule_per_count = 1e-3; /* millijoules since the driver loaded */
    }
}

static void read_rapl(const tel_source *s, tel_reading *r)
{
    int i;
    for (i = 0; i < s->ndomains; i++) {
        if (!read_ull(s->dom[i].energy, &r->counter[i]))
            return;
        r->range[i] = s->dom[i].range;
    }
    r->has_energy = 1;
    r->ncounters = s->ndomains;
    r->joule_per_count = 1e-6; /* microjoules */
}

void tel_read(tel_source *s, tel_reading *r)
{
    memset(r, 0, sizeof *r);
    if (!s)
        return;
    r->kind = s->kind;
    if (s->kind == TEL_NVML)
        read_nvml(s, r);
    else if (s->kind == TEL_RAPL)
        read_rapl(s, r);
    r->at = host_seconds();
}

int tel_counter_delta(unsigned long long before, unsigned long long after, unsigned long long range,
                      unsigned long long *delta)
{
    *delta = 0;
    if (range > 0 && (before > range || after > range))
        return BE_EFAIL;
    if (after >= before) {
        *delta = after - before;
        return BE_OK;
    }
    if (range == 0)
        return BE_EFAIL;
    /* wrapped: up to the top of the range, then from zero */
    *delta = range - before + after;
    return BE_OK;
}

int tel_energy_between(const tel_reading *before, const tel_reading *after, double *joules)
{
    unsigned long long d;
    double sum = 0.0;
    int i;
    *joules = 0.0;
    if (!before->has_energy || !after->has_energy || before->kind != after->kind ||
        before->ncounters != after->ncounters || before->ncounters < 1 ||
        before->joule_per_count != after->joule_per_count || !(after->at >= before->at))
        return BE_EFAIL;
    for (i = 0; i < before->ncounters; i++) {
        if (before->range[i] != after->range[i] ||
            tel_counter_delta(before->counter[i], after->counter[i], before->range[i], &d) < 0)
            return BE_EFAIL;
        sum += (double)d;
    }
    *joules = sum * before->joule_per_count;
    return BE_OK;
}

/* Stores r's values into slot k (0 before, 1 after) of t. */
static void keep(tel_point *t, int k, const tel_reading *r)
{
    if ((t->has_sm[k] = r->has_sm))
        t->sm_mhz[k] = r->sm_mhz;
    if ((t->has_mem[k] = r->has_mem))
        t->mem_mhz[k] = r->mem_mhz;
    if ((t->has_power[k] = r->has_power))
        t->power_w[k] = r->power_w;
    if ((t->has_temp[k] = r->has_temp))
        t->temp_c[k] = r->temp_c;
}

void tel_visit(tel_point *t, const tel_reading *b, const tel_reading *a, int samples)
{
    double j;
    const tel_reading *r[2];
    int k;

    if (b->kind == TEL_NONE || b->kind != a->kind || samples < 1)
        return;
    r[0] = b;
    r[1] = a;
    t->kind = b->kind;
    if (t->visits == 0)
        keep(t, 0, b);
    keep(t, 1, a);
    for (k = 0; k < 2; k++)
        if (r[k]->has_throttle) {
            t->throttle[k] = t->has_throttle[k] ? t->throttle[k] | r[k]->throttle : r[k]->throttle;
            t->has_throttle[k] = 1;
        }
    t->throttled = tel_throttling(t->throttle[0]) || tel_throttling(t->throttle[1]);
    if (tel_energy_between(b, a, &j) == BE_OK) {
        t->energy_j += j;
        t->energy_span_s += a->at - b->at;
        t->energy_samples += samples;
        t->energy_visits++;
        t->has_energy = t->energy_span_s >= TEL_ENERGY_SPAN_MIN(t->kind, t->energy_visits);
    }
    t->visits++;
}

int tel_throttling(unsigned long long reasons)
{
    return (reasons & TEL_THROTTLING_MASK) != 0;
}

void tel_throttle_words(unsigned long long reasons, char *buf, size_t size)
{
    static const struct {
        unsigned long long bit;
        const char *word;
    } words[] = {
        {TEL_THR_GPU_IDLE, "idle"},
        {TEL_THR_APP_CLOCKS, "applications-clocks"},
        {TEL_THR_SW_POWER_CAP, "sw-power-cap"},
        {TEL_THR_HW_SLOWDOWN, "hw-slowdown"},
        {TEL_THR_SYNC_BOOST, "sync-boost"},
        {TEL_THR_SW_THERMAL, "sw-thermal"},
        {TEL_THR_HW_THERMAL, "hw-thermal"},
        {TEL_THR_HW_POWER_BRAKE, "hw-power-brake"},
        {TEL_THR_DISPLAY_CLOCKS, "display-clocks"},
    };
    unsigned long long rest = reasons;
    size_t used = 0, i;
    int n;

    if (size == 0)
        return;
    buf[0] = '\0';
    if (reasons == 0) {
        snprintf(buf, size, "none");
        return;
    }
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (reasons & words[i].bit) {
            rest &= ~words[i].bit;
            n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", words[i].word);
            if (n < 0 || (size_t)n >= size - used)
                return;
            used += (size_t)n;
        }
    if (rest)
        snprintf(buf + used, size - used, "%s0x%llx", used ? "," : "", rest);
}

const char *tel_kind_name(tel_kind k)
{
    return k == TEL_NVML ? "nvml" : k == TEL_RAPL ? "rapl" : "";
}
