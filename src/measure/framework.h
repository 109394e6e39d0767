/*
 * framework.h — framework devices: an adapter process that computes the
 * workload with somebody else's stack (PyTorch, …) and speaks breakeven's
 * device protocol (docs/devices.md) over a socket pair.
 *
 * The adapter is started once per run and kept for the sweep; every call
 * has a time limit.  A fault of the adapter (a crash, a hang, garbage, a
 * wrong size, an unknown protocol version) never fails the run: the call
 * fails with the reason, the sweep records the point as failed, and the
 * device stays out of service for the rest of the run, failing each later
 * point at once with the same reason.
 */
#ifndef BE_FRAMEWORK_H
#define BE_FRAMEWORK_H

#include <stdint.h>

#include "backend.h"

/* Whether id names a framework device ("torch:cpu", "torch:cuda:0",
 * "torch:mps", "ort:cpu", "ref:cpu"). */
int framework_is(const char *id);

/* Starts the adapter of id and fills dev with it: its description from the
 * adapter's hello, its ops and its handle.  adapters is the directory of
 * the shipped adapters (DATA/devices); threads the CPU threads it is to use
 * (0: one per core).  An adapter that cannot start still fills dev (the
 * id, kind and type, and why in framework_fault) and returns BE_OK, so that
 * its points are recorded as failed; only BE_EFAIL for out of memory.
 * Free with framework_close. */
int framework_open(device *dev, const char *id, const char *adapters, int threads, uint64_t seed,
                   err *e);

/* The device each framework is started as first when `--devices all`
 * asks for every framework device that starts ("torch:cpu"); its hello
 * names the framework's other devices here (framework_more).
 * NULL-terminated. */
extern const char *const framework_probe[];

/* The other devices of dev's framework that its adapter said it can serve
 * on this machine, space-separated ids ("torch:cuda:0 torch:mps"); "" when
 * none. */
const char *framework_more(const device *dev);

/* Says bye to the adapter, waits a moment for it, then kills its process
 * group; frees the handle. */
void framework_close(device *dev);

/* Ends every process left that an adapter started and that escaped its
 * process group (setsid, a daemon's double fork): this process is their
 * subreaper (framework_open), so they are its children once their parents
 * are gone.  Call once every framework device is closed: any child left
 * then is such a stray. */
void framework_strays(void);

/* The CPU seconds dev's adapter has spent since its hello outside its
 * visits (framework's prepare to release): the load it put on the
 * machine while other devices were measured.  0 for none, or when it
 * cannot be read. */
double framework_idle_cpu(const device *dev);

/* Why dev is out of service ("" while it works). */
const char *framework_fault(const device *dev);

/* 1 the first time it is asked after dev went out of service, else 0. */
int framework_fault_news(device *dev);

#endif
