/*
 * cachehop.h — how far apart the host's CPUs are right now: the round trip
 * of one cache line between two of them.
 *
 * A hypervisor may move a VM's virtual CPUs between physical cores at any
 * time.  On the 2-core machine it sometimes put the two on cores that do
 * not share a cache (another core complex of the EPYC): a cache line's
 * round trip went from about 50 ns to about 320 ns for seconds at a time,
 * and with it a two-thread OpenBLAS GEMM took 20-35% longer, and PoCL's
 * kernels longer too, while nothing in /proc, the reference loop or a
 * probe of the cores' throughput moved (docs/compare.md, "What slows
 * OpenBLAS down").  It made whole runs slower than their neighbours, which
 * no correction of a run could see.
 *
 * So the sweep (sweep.c) times the round trip before and after every visit
 * of a device that computes on the host's CPUs, and marks the visit's
 * samples "far" when either took more than CACHEHOP_FAR times the run's
 * quickest; the summaries then leave far samples out where a point has
 * enough others (results.h, results_summarize).  One probe takes a tenth
 * of a millisecond (near) to a third of one (far).
 */
#ifndef BE_CACHEHOP_H
#define BE_CACHEHOP_H

/* A round trip this many times the run's quickest is "far": near ones
 * stayed within 1.4 times the quickest on the 2-core machine, far ones
 * came at 5 to 7 times. */
#define CACHEHOP_FAR 2.5

/* The check over one run: the caller's, set by cachehop_init. */
typedef struct cachehop {
    int cpu_a, cpu_b; /* the two CPUs (cpu_a < 0: the check is off)   */
    double best;      /* the quickest round trip so far, seconds        */
} cachehop;

/* Picks the first and the last CPU this process may run on and times a
 * few round trips for the run's first quickest; off with fewer than two
 * CPUs, where affinity cannot be set, or when a probe fails. */
void cachehop_init(cachehop *h);

/* One round trip now, in seconds, which may lower h->best; 0 when the
 * check is off or the probe failed (it gives up after 50 ms: a CPU the
 * system does not schedule must not hang the sweep). */
double cachehop_probe(cachehop *h);

/* 1 when round trip t is far from h's quickest (t = 0: not known, 0). */
int cachehop_far(const cachehop *h, double t);
/* The same rule for any two round trips: 1 when t is more than
 * CACHEHOP_FAR times quickest (either 0, not known: 0).  compare.h and
 * history.h judge whole runs by it. */
int cachehop_apart(double t, double quickest);

#endif
