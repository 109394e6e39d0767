/*
 * cachehop.c — the round trip of a cache line between two CPUs (see
 * cachehop.h).
 *
 * Two threads, each pinned to one of the CPUs, pass a counter back and
 * forth ROUNDS times through one atomic int: each waits until the other
 * has moved it on, so every step is one transfer of the line between
 * their caches.  The caller only starts and joins them, so its own
 * affinity never changes.  Linux only (pthread_setaffinity_np); elsewhere
 * the check is off.
 */
#define _GNU_SOURCE
#include "cachehop.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "host.h"

#define ROUNDS 1000
/* Round trips at the start of a run, for its first quickest. */
#define INIT_PROBES 5
/* A wait checks the clock every SPIN_CHECK spins and gives up after
 * GIVE_UP seconds. */
#define SPIN_CHECK 4096
#define GIVE_UP 0.05

typedef struct hop_run {
    _Alignas(64) atomic_int line; /* the cache line passed back and forth */
    atomic_int ready;             /* threads pinned and waiting            */
    atomic_int failed;            /* a thread gave up or could not pin     */
    double seconds;               /* ROUNDS round trips, measured by a      */
} hop_run;

typedef struct hop_arg {
    hop_run *run;
    int cpu, first; /* first: the thread that starts each round trip */
} hop_arg;

/* Waits until run->line is `want`; 0 when it gave up (or the other thread
 * did). */
static int wait_for(hop_run *run, int want)
{
    double t0 = 0.0;
    long spins = 0;
    while (atomic_load_explicit(&run->line, memory_order_acquire) != want) {
        if (++spins % SPIN_CHECK)
            continue;
        if (atomic_load_explicit(&run->failed, memory_order_relaxed))
            return 0;
        if (t0 == 0.0)
            t0 = host_seconds();
        else if (host_seconds() - t0 > GIVE_UP) {
            atomic_store(&run->failed, 1);
            return 0;
        }
    }
    return 1;
}

static int pin(int cpu)
{
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((size_t)cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
#else
    (void)cpu;
    return 0;
#endif
}

static void *hop_thread(void *p)
{
    hop_arg *a = p;
    hop_run *run = a->run;
    double t0;
    int i;
    if (!pin(a->cpu))
        atomic_store(&run->failed, 1);
    atomic_fetch_add(&run->ready, 1);
    while (atomic_load(&run->ready) < 2 && !atomic_load(&run->failed))
        ;
    if (atomic_load(&run->failed))
        return NULL;
    t0 = host_seconds();
    for (i = 0; i < ROUNDS; i++) {
        if (a->first) {
            atomic_store_explicit(&run->line, 2 * i + 1, memory_order_release);
            if (!wait_for(run, 2 * i + 2))
                return NULL;
        } else {
            if (!wait_for(run, 2 * i + 1))
                return NULL;
            atomic_store_explicit(&run->line, 2 * i + 2, memory_order_release);
        }
    }
    if (a->first)
        run->seconds = (host_seconds() - t0) / ROUNDS;
    return NULL;
}

double cachehop_probe(cachehop *h)
{
    hop_run run;
    hop_arg args[2];
    pthread_t tid[2];
    int i, started = 0;
    if (h->cpu_a < 0)
        return 0.0;
    atomic_init(&run.line, 0);
    atomic_init(&run.ready, 0);
    atomic_init(&run.failed, 0);
    run.seconds = 0.0;
    for (i = 0; i < 2; i++) {
        args[i] = (hop_arg){&run, i ? h->cpu_b : h->cpu_a, i == 0};
        if (pthread_create(&tid[i], NULL, hop_thread, &args[i]) != 0) {
            atomic_store(&run.failed, 1);
            break;
        }
        started++;
    }
    for (i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (atomic_load(&run.failed) || !(run.seconds > 0.0))
        return 0.0;
    if (h->best <= 0.0 || run.seconds < h->best)
        h->best = run.seconds;
    return run.seconds;
}

int cachehop_apart(double t, double quickest)
{
    return t > 0.0 && quickest > 0.0 && t > CACHEHOP_FAR * quickest;
}

int cachehop_far(const cachehop *h, double t)
{
    return cachehop_apart(t, h->best);
}

void cachehop_init(cachehop *h)
{
    int i, first = -1, last = -1;
    h->cpu_a = h->cpu_b = -1;
    h->best = 0.0;
#ifdef __linux__
    {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) == 0)
            for (i = 0; i < CPU_SETSIZE; i++)
                if (CPU_ISSET((size_t)i, &set)) {
                    if (first < 0)
                        first = i;
                    last = i;
                }
    }
#endif
    if (first < 0 || last == first)
        return;
    h->cpu_a = first;
    h->cpu_b = last;
    for (i = 0; i < INIT_PROBES; i++)
        if (cachehop_probe(h) <= 0.0) {
            h->cpu_a = h->cpu_b = -1;
            return;
        }
}
