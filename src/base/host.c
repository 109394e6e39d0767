/*
 * host.c — introspection of the machine (see host.h).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "utf8.h"

static void set(char *buf, size_t size, const char *s)
{
    snprintf(buf, size, "%s", s);
}

/* Copies the value of the first "key<ws>: value" line of a /proc-style file. */
static int read_key(const char *path, const char *key, char sep, char *buf, size_t size)
{
    char line[1024];
    size_t klen = strlen(key);
    FILE *f = fopen(path, "r");
    int found = 0;

    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *v, *end;
        if (strncmp(line, key, klen) != 0)
            continue;
        v = line + klen;
        while (*v == ' ' || *v == '\t')
            v++;
        if (*v != sep)
            continue;
        v++;
        while (*v == ' ' || *v == '"')
            v++;
        end = v + strlen(v);
        while (end > v && (end[-1] == '\n' || end[-1] == '"' || end[-1] == ' '))
            *--end = '\0';
        set(buf, size, v);
        found = 1;
    }
    fclose(f);
    return found;
}

void host_name(char *buf, size_t size, int short_form)
{
    char h[256];
    if (gethostname(h, sizeof h) != 0 || !h[0])
        set(h, sizeof h, "unknown");
    h[sizeof h - 1] = '\0';
    if (short_form) {
        char *dot = strchr(h, '.');
        if (dot)
            *dot = '\0';
    }
    set(buf, size, h);
}

int host_label(const char *value, char *buf, size_t size, err *e)
{
    char shown[96];
    size_t i, n = value ? strlen(value) : 0;
    set(buf, size, "");
    for (i = 0; i < n; i++)
        if (!((value[i] >= 'a' && value[i] <= 'z') || (value[i] >= 'A' && value[i] <= 'Z') ||
              (value[i] >= '0' && value[i] <= '9') || strchr("._-", value[i])))
            break;
    if (i < n || n >= HOST_LABEL_MAX || n >= size) {
        utf8_escape(shown, sizeof shown, value);
        return err_set(e, BE_EUSAGE,
                       "BREAKEVEN_MACHINE: \"%s\" is not a machine's label (1 to %d of "
                       "A-Z a-z 0-9 . _ -)",
                       shown, HOST_LABEL_MAX - 1);
    }
    if (n)
        set(buf, size, value);
    return BE_OK;
}

void host_os(char *buf, size_t size)
{
    if (!read_key("/etc/os-release", "PRETTY_NAME", '=', buf, size))
        set(buf, size, "unknown");
}

void host_kernel(char *buf, size_t size)
{
    struct utsname u;
    if (uname(&u) != 0)
        set(buf, size, "unknown");
    else
        snprintf(buf, size, "%s %s %s", u.sysname, u.release, u.machine);
}

void host_cpu_model(char *buf, size_t size)
{
    if (!read_key("/proc/cpuinfo", "model name", ':', buf, size))
        set(buf, size, "unknown");
}

void host_cpu_vendor(char *buf, size_t size)
{
    if (!read_key("/proc/cpuinfo", "vendor_id", ':', buf, size))
        set(buf, size, "unknown");
}

/* Whether the space-separated list holds word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while ((p = strstr(p, word))) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
            return 1;
        p += n;
    }
    return 0;
}

const char *host_isa_of(const char *flags)
{
    if (has_word(flags, "avx512f") && has_word(flags, "avx512bw") && has_word(flags, "avx512vl"))
        return "avx512";
    if (has_word(flags, "avx2") && has_word(flags, "fma"))
        return "avx2";
    if (has_word(flags, "avx"))
        return "avx";
    return has_word(flags, "sse2") ? "sse2" : "unknown";
}

void host_cpu_isa(char *buf, size_t size)
{
    /* the flags line is longer than read_key's lines */
    FILE *f = fopen("/proc/cpuinfo", "r");
    char *line = NULL;
    size_t cap = 0;
    const char *isa = "unknown";
    if (f) {
        while (getline(&line, &cap, f) > 0)
            if (strncmp(line, "flags", 5) == 0 && strchr(line, ':')) {
                isa = host_isa_of(strchr(line, ':') + 1);
                break;
            }
        free(line);
        fclose(f);
    }
    set(buf, size, isa);
}

int host_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

double host_cpu_max_mhz(void)
{
    double most = 0.0, khz;
    char path[96];
    int i, n = host_cores();
    for (i = 0; i < n; i++) {
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", i);
        if (!(f = fopen(path, "r")))
            continue;
        if (fscanf(f, "%lf", &khz) == 1 && khz > most)
            most = khz;
        fclose(f);
    }
    return most / 1000.0;
}

static double meminfo(const char *key)
{
    char v[64];
    double kb;
    if (!read_key("/proc/meminfo", key, ':', v, sizeof v) || sscanf(v, "%lf", &kb) != 1)
        return 0.0;
    return kb * 1024.0;
}

double host_mem_total(void)
{
    double m = meminfo("MemTotal");
    if (m <= 0.0)
        m = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    return m;
}

double host_mem_available(void)
{
    double m = meminfo("MemAvailable");
    return m > 0.0 ? m : host_mem_total();
}

void host_compiler(char *buf, size_t size)
{
#if defined(__clang__)
    snprintf(buf, size, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(buf, size, "gcc %s", __VERSION__);
#else
    set(buf, size, "unknown");
#endif
}

void host_utc_now(char *buf, size_t size, int compact)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The prefixes (and whole names) of the variables that change results. */
static const char *const env_prefixes[] = {
    "OPENBLAS_", "GOTO_", "OMP_",     "GOMP_",   "KMP_",        "BLIS_",
    "MKL_",      "POCL_", "OCL_ICD_", "OPENCL_", "CUDA_",       "NVIDIA_",
    "GPU_",      "ROCR_", "HIP_",     "HSA_",    "LD_PRELOAD=", "LD_LIBRARY_PATH=",
};

static int env_wanted(const char *v)
{
    size_t i;
    if (!strchr(v, '='))
        return 0;
    for (i = 0; i < sizeof env_prefixes / sizeof *env_prefixes; i++)
        if (strncmp(v, env_prefixes[i], strlen(env_prefixes[i])) == 0)
            return 1;
    return 0;
}

static int env_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends NAME=value as one shell word: the value single-quoted unless it
 * holds only characters a shell leaves alone. */
static void env_word(char *buf, size_t size, const char *v)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-.,:/+@%";
    size_t n = strlen(buf), k = strcspn(v, "=");
    const char *p;
    if (n + strlen(v) + 4 >= size) /* a word is never cut */
        return;
    if (n)
        buf[n++] = ' ';
    memcpy(buf + n, v, k + 1);
    n += k + 1;
    if (v[k + 1] && strspn(v + k + 1, plain) == strlen(v + k + 1)) {
        snprintf(buf + n, size - n, "%s", v + k + 1);
        return;
    }
    buf[n++] = '\'';
    for (p = v + k + 1; *p && n + 6 < size; p++) {
        if (*p == '\'') {
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else if ((unsigned char)*p >= 0x20) {
            buf[n++] = *p;
        }
    }
    buf[n++] = '\'';
    buf[n] = '\0';
}

void host_env_of(char *const *env, char *buf, size_t size)
{
    const char *pick[256];
    size_t n = 0, i;
    if (!size)
        return;
    buf[0] = '\0';
    for (i = 0; env && env[i] && n < sizeof pick / sizeof *pick; i++)
        if (env_wanted(env[i]))
            pick[n++] = env[i];
    qsort(pick, n, sizeof *pick, env_cmp);
    for (i = 0; i < n; i++)
        env_word(buf, size, pick[i]);
}

void host_environment(char *buf, size_t size)
{
    extern char **environ;
    host_env_of(environ, buf, size);
}
