/*
 * host.h — what the machine running breakeven is: the facts that go into a
 * run's provenance and the CPU device's description.  Read from uname,
 * sysconf, /proc and /etc/os-release; a fact that cannot be read is
 * "unknown", never an error, because a missing /proc must not stop a run.
 */
#ifndef BE_HOST_H
#define BE_HOST_H

#include <stddef.h>

#include "err.h"

void host_name(char *buf, size_t size, int short_form);
/* The name the user gives this machine, from the value of BREAKEVEN_MACHINE
 * (NULL or "": none, buf ""): a fleet's machine type or partition, so that
 * runs on one host can be filed as several machines, or a host that
 * changes names as one.  1 to HOST_LABEL_MAX - 1 of [A-Za-z0-9._-], else
 * BE_EUSAGE naming the variable: the one thing here the user can get
 * wrong.  It names the machine; it is no fact about it. */
#define HOST_LABEL_MAX 64
int host_label(const char *value, char *buf, size_t size, err *e);
void host_os(char *buf, size_t size);     /* PRETTY_NAME of os-release */
void host_kernel(char *buf, size_t size); /* "Linux 6.1.0-18-amd64 x86_64" */
void host_cpu_model(char *buf, size_t size);
void host_cpu_vendor(char *buf, size_t size);

/* The widest vector instructions the CPU offers: "avx512" (F, BW and VL),
 * "avx2" (with FMA), "avx", "sse2" or "unknown"; host_isa_of reads them from
 * a /proc/cpuinfo flags list, host_cpu_isa from this machine's. */
const char *host_isa_of(const char *flags);
void host_cpu_isa(char *buf, size_t size);
int host_cores(void); /* online logical CPUs */
/* The largest maximum clock of the CPUs cpufreq exposes, in MHz; 0 where
 * it exposes none (many virtual machines). */
double host_cpu_max_mhz(void);
double host_mem_total(void);                /* bytes */
double host_mem_available(void);            /* bytes, MemAvailable */
void host_compiler(char *buf, size_t size); /* compiler of this binary */
/* The variables of the environment that change what the libraries do
 * (OpenBLAS, OpenMP, the OpenCL loader, PoCL, CUDA, the dynamic linker),
 * as shell words "NAME=value" separated by spaces, values quoted where
 * they need it, in alphabetical order; "" when none is set.  host_env_of
 * reads them from environ-like list env (NULL-terminated). */
void host_env_of(char *const *env, char *buf, size_t size);
void host_environment(char *buf, size_t size);

/* The current UTC time as ISO 8601 ("2026-11-22T02:45:50Z") and, when
 * compact is set, as "20261122T024550Z" (for run ids). */
void host_utc_now(char *buf, size_t size, int compact);
double host_seconds(void); /* monotonic clock */

#endif
