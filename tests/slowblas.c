/*
 * slowblas.c — a real slower BLAS, for the power of `breakeven ab`
 * (tests/bench_ab) and its end-to-end tests: loaded with LD_PRELOAD, it
 * stands in front of OpenBLAS's cblas_sgemm, calls it, and then spins on
 * the calling thread for (F − 1) times the time the call took, so every
 * GEMM takes F times as long, as a slower library's would.  F comes from
 * BREAKEVEN_SLOWBLAS (a number ≥ 1, default 1.10); "crash" aborts in the
 * first call instead (a side that dies).  Not part of breakeven.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*sgemm_fn)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE,
                         const enum CBLAS_TRANSPOSE, const blasint, const blasint, const blasint,
                         const float, const float *, const blasint, const float *, const blasint,
                         const float, float *, const blasint);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cblas_sgemm(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE ta,
                 const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n, const blasint k,
                 const float alpha, const float *a, const blasint lda, const float *b,
                 const blasint ldb, const float beta, float *c, const blasint ldc)
{
    sgemm_fn real;
    void *sym = dlsym(RTLD_NEXT, "cblas_sgemm");
    const char *f = getenv("BREAKEVEN_SLOWBLAS");
    double factor = f && *f ? strtod(f, NULL) : 1.10, t0, took;
    if ((f && strcmp(f, "crash") == 0) || !sym)
        abort();
    /* POSIX's way from dlsym's object pointer to a function pointer */
    memcpy(&real, &sym, sizeof real);
    t0 = now();
    real(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    took = now() - t0;
    if (factor > 1.0)
        while (now() - t0 < factor * took)
            ;
}
