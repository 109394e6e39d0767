/*
 * fw_bounds.h — what a framework device's reported times are held to
 * (docs/devices.md, "Bounds"): what a call's round trip, the host's CPUs
 * and the times' own meaning allow.  framework.c applies it to every call.
 */
#ifndef BE_FW_BOUNDS_H
#define BE_FW_BOUNDS_H

#include "err.h"

/* The bounds every reported time is held to (docs/devices.md, "Bounds").
 * FW_CLOCK_SLACK: the adapter's clock and breakeven's may be two clocks
 * of the host (CLOCK_MONOTONIC and _RAW differ by NTP's slew, at most
 * 500 ppm), read a microsecond apart.  A call is "low" when its round
 * trip exceeds twice the steps it reports and FW_OVERHEAD_S more, and a
 * visit of FW_LOW_CALLS calls or more that are all low reports times the
 * round trips cannot hold (torch:cpu: none of 1,738 calls low in three
 * runs on a loaded 2-core VM; its reference adapter, honest: 3 of 4 calls
 * of one visit 12 ms for a 0.13 ms step at load 6, hence all of them and
 * 10 ms; docs/devices.md).  FW_CPU_PER_CYCLE, FW_CPU_MHZ: a
 * framework's CPU device is held to host_cores() × the largest clock
 * (FW_CPU_MHZ where the host states none) × 64 FLOP per cycle (two FMA
 * units of sixteen fp32 lanes: AVX-512's most), counting the matrix
 * products alone. */
#define FW_CLOCK_SLACK 1e-3
#define FW_CLOCK_SLACK_S 1e-6
#define FW_OVERHEAD_S 10e-3
#define FW_LOW_CALLS 4
#define FW_CPU_PER_CYCLE 64.0
#define FW_CPU_MHZ 5000.0

/* Holds the k steps' times in t (six each, as the protocol's TIME) to what
 * a call of round trip rt allows: each number finite, a measured one
 * (≥ 0) normal, the wall positive; every part within the round trip, the
 * walls together too; kernel within the wall, total at least the wall,
 * the transfers within total and whost at least total; a device of peak
 * FLOP/s (0: none) no faster than that for a step of flops.  A time not
 * measured (negative) becomes -1.  BE_EFAIL naming device id and the bound
 * broken. */
int fw_bounded(const char *id, double (*t)[6], int k, double rt, double peak, double flops, err *e);

#endif
