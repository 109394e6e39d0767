/*
 * cpu.h — the CPU backend: the dense-layer workload on OpenBLAS.
 *
 * This is the baseline every GPU is compared with, so it must be as fast as
 * the BLAS allows: each layer is one cblas_sgemm plus one pass for bias and
 * ReLU; training uses sgemm's transposed forms for xᵀ·dz and dz·Wᵀ and folds
 * the SGD update into the dW product (alpha = −lr, beta = 1).
 */
#ifndef BE_CPU_H
#define BE_CPU_H

#include "backend.h"

/* Fills dev with the CPU device (id "cpu") and sets OpenBLAS to threads
 * threads (0 = one per online core).  The handle is static: nothing to free. */
int cpu_discover(device *dev, int threads, err *e);

/* The OPENBLAS_CORETYPE that would use the CPU's vector instructions (isa
 * as host_isa_of names them) when OpenBLAS picked an older core's kernels,
 * as its DYNAMIC_ARCH does for a CPU it does not recognise; else NULL. */
const char *cpu_blas_better_core(const char *core, const char *isa, const char *vendor);

/* Ends OpenBLAS's threads, which would otherwise spin on a core for about
 * 0.1 s after its last call, beside the next device's visit; its next call
 * starts them again.  Done at the end of every visit of the CPU (release);
 * nothing where the build has no such threads. */
void cpu_park(void);

/* The OpenBLAS build in use, as reported by the library at run time. */
void cpu_blas_info(char *version, size_t vsize, char *config, size_t csize, char *core,
                   size_t coresize, int *threads);

#endif
