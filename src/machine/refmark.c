/*
 * refmark.c — the reference timed beside each pass (see refmark.h).
 *
 * Both parts are repeated REPS times and the median kept, so that one
 * preemption does not make the pass look slow; the inputs are fixed, so
 * two runs of any version time the same work.
 */
#include "refmark.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "host.h"
#include "stats.h"

#define REPS 5
/* The loop: about 10 ms on a 2.6 GHz core. */
#define LOOP_ITERS (1L << 22)
/* The stream: three buffers of 8 Mi doubles (192 MiB in all), far beyond
 * any cache. */
#define STREAM_N ((size_t)1 << 23)

/* A dependent chain: every iteration needs the previous one's result, so
 * the compiler can neither vectorize nor drop it (the result is returned
 * and kept). */
static double loop_once(double *sink)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    double x = 1.0, t0 = host_seconds();
    long i;
    for (i = 0; i < LOOP_ITERS; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x = x * 0.999999 + (double)(s & 0xff) * 1e-9;
    }
    *sink += x + (double)(s & 1);
    return host_seconds() - t0;
}

static double stream_once(double *a, const double *b, const double *c)
{
    double t0 = host_seconds();
    size_t i;
    for (i = 0; i < STREAM_N; i++)
        a[i] = b[i] + 3.0 * c[i];
    return host_seconds() - t0;
}

void refmark_measure(refmark *out)
{
    double lt[REPS], st[REPS], sink = 0.0;
    double *a = malloc(STREAM_N * sizeof *a), *b = malloc(STREAM_N * sizeof *b),
           *c = malloc(STREAM_N * sizeof *c);
    size_t i;
    int k;
    out->has = 0;
    out->loop = out->stream = 0.0;
    if (!a || !b || !c)
        goto done;
    for (i = 0; i < STREAM_N; i++) {
        a[i] = 0.0;
        b[i] = (double)(i & 1023);
        c[i] = 1.0;
    }
    for (k = 0; k < REPS; k++) {
        lt[k] = loop_once(&sink);
        st[k] = stream_once(a, b, c);
    }
    out->loop = stats_median(lt, REPS);
    out->stream = stats_median(st, REPS);
    /* the sums keep both parts' results alive */
    out->has = out->loop > 0.0 && out->stream > 0.0 && isfinite(sink + a[STREAM_N / 2]);
done:
    free(a);
    free(b);
    free(c);
}
