/*
 * refmark.h — the machine's own speed, timed beside every pass.
 *
 * A change between two runs can come from what is compared (a driver, an
 * OpenBLAS release) or from the machine: a neighbour's build, a throttled
 * minute, a noisy VM host.  So every pass of the sweep (sweep.h) also times
 * a small fixed reference that depends on nothing being compared: a plain
 * C loop (a dependent chain of integer and floating-point operations: the
 * core's speed) and a memory stream (a triad over buffers larger than the
 * caches: the memory's bandwidth).  It is stored with the pass (results.h,
 * rs_pass) and compare.h shows its ratio between two runs ("the machine
 * itself ran 12% slower in B").
 *
 * The reference takes about a tenth of a second per pass, outside every
 * sample.  Out of memory for the stream leaves it unmeasured (has = 0): it
 * is never an error.
 */
#ifndef BE_REFMARK_H
#define BE_REFMARK_H

/* One pass's reference: seconds of the loop and of the stream (the median
 * of a few repetitions each). */
typedef struct refmark {
    int has;
    double loop, stream;
} refmark;

/* Times the reference now into out. */
void refmark_measure(refmark *out);

#endif
