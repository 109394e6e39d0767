/*
 * telemetry.h — what a device reported about itself while it was measured:
 * clocks, power, temperature, throttling and energy.
 *
 * A source is opened per measured device by the sweep (sweep.c): an NVIDIA
 * GPU through NVML, loaded at run time with dlopen (no build dependency; a
 * machine without libnvidia-ml.so.1 simply records nothing), the CPU through
 * the package domains of RAPL in /sys/class/powercap (readable by root only
 * on recent kernels).  The sweep reads the source just before the first
 * timed sample of a visit and just after its last (tel_read), and folds the
 * two readings into the point's record (tel_visit), which is stored with
 * the point in the results (results.h, rs_point.tel; <telemetry> in the
 * file).  Nothing here can fail a measurement: a field a device does not
 * report is not recorded (its has_ flag stays 0).
 *
 * Energy is a counter read twice around the timed samples.  A counter
 * moves in steps (NVML's every 0.1 s on an H100 with driver 580, RAPL's
 * about every millisecond), so each visit's energy may be off by up to one
 * step of the device's power at either end.  A point keeps an energy figure
 * only when the spans of its visits add up to TEL_MIN_ENERGY_SPAN seconds
 * and to TEL_SPAN_PER_STEP counter steps per visit: the steps are then at
 * most a tenth of the span, and the figure within 10% (TEL_ENERGY_SPAN_MIN).
 * The timed samples of a GPU rarely span that much (30 steps of a
 * millisecond): the sweep then measures the point's energy apart, over one
 * run of untimed steps of the same work (sweep.c, energy_run).
 */
#ifndef BE_TELEMETRY_H
#define BE_TELEMETRY_H

#include <stddef.h>

#include "devinfo.h"
#include "err.h"

typedef enum { TEL_NONE = 0, TEL_NVML = 1, TEL_RAPL = 2 } tel_kind;

/* The shortest span of timed samples (over a point's visits, in seconds)
 * whose energy is kept, and how many counter steps a visit must span on
 * average; the counters' steps in seconds (NVML's measured on an H100, as
 * NVML documents none; RAPL's as Intel documents it, rounded up). */
#define TEL_MIN_ENERGY_SPAN 1.0
#define TEL_SPAN_PER_STEP 10.0
#define TEL_NVML_STEP 0.1
#define TEL_RAPL_STEP 0.001
/* The most steps a point's energy figure may cover (energy_samples). */
#define TEL_MAX_ENERGY_STEPS 10000000

/* RAPL package domains summed at most. */
#define TEL_MAX_COUNTERS 8

/* NVML's clock event (throttle) reasons, as documented in nvml.h. */
#define TEL_THR_GPU_IDLE 0x1ull
#define TEL_THR_APP_CLOCKS 0x2ull
#define TEL_THR_SW_POWER_CAP 0x4ull
#define TEL_THR_HW_SLOWDOWN 0x8ull
#define TEL_THR_SYNC_BOOST 0x10ull
#define TEL_THR_SW_THERMAL 0x20ull
#define TEL_THR_HW_THERMAL 0x40ull
#define TEL_THR_HW_POWER_BRAKE 0x80ull
#define TEL_THR_DISPLAY_CLOCKS 0x100ull
/* The reasons that mean the clocks were held down by power, heat or the
 * hardware (not idle, application clocks, sync boost or display). */
#define TEL_THROTTLING_MASK                                                                 \
    (TEL_THR_SW_POWER_CAP | TEL_THR_HW_SLOWDOWN | TEL_THR_SW_THERMAL | TEL_THR_HW_THERMAL | \
     TEL_THR_HW_POWER_BRAKE)

/* One reading of a source.  An energy counter is counter[i] in units of
 * joule_per_count, wrapping past range[i] (0: it does not wrap). */
typedef struct tel_reading {
    tel_kind kind;
    double at; /* host_seconds() when read               */
    int has_sm, has_mem, has_power, has_temp, has_throttle, has_energy;
    double sm_mhz, mem_mhz;
    double power_w, temp_c;
    unsigned long long throttle; /* NVML reason bits (TEL_THR_*)           */
    int ncounters;
    unsigned long long counter[TEL_MAX_COUNTERS];
    unsigned long long range[TEL_MAX_COUNTERS];
    double joule_per_count;
} tel_reading;

/* The span (seconds) that visits visits of a source of kind k must add up
 * to for their energy to be kept. */
#define TEL_ENERGY_SPAN_MIN(k, visits)                                                      \
    (TEL_SPAN_PER_STEP * (visits) * ((k) == TEL_NVML ? TEL_NVML_STEP : TEL_RAPL_STEP) >     \
             TEL_MIN_ENERGY_SPAN                                                            \
         ? TEL_SPAN_PER_STEP * (visits) * ((k) == TEL_NVML ? TEL_NVML_STEP : TEL_RAPL_STEP) \
         : TEL_MIN_ENERGY_SPAN)

/* What a point's visits recorded.  [0] is the reading before the first
 * timed sample of the point's first visit, [1] the one after the last
 * sample of its latest visit; the throttle reasons are those seen before
 * (resp. after) any visit, OR-ed.  The energy_* fields accumulate over
 * every visit whose two readings had energy; has_energy is set while their
 * span reaches TEL_ENERGY_SPAN_MIN (the file holds the energy only then). */
typedef struct tel_point {
    tel_kind kind; /* TEL_NONE: nothing recorded             */
    int visits;
    int has_sm[2], has_mem[2], has_power[2], has_temp[2], has_throttle[2];
    double sm_mhz[2], mem_mhz[2], power_w[2], temp_c[2];
    unsigned long long throttle[2];
    int throttled; /* a throttling reason was seen (tel_throttling) */
    int has_energy;
    double energy_j; /* over energy_span_s seconds            */
    double energy_span_s;
    int energy_samples; /* the steps that span covers: timed
                                    samples, or an energy run's steps      */
    int energy_visits;  /* the visits it adds up                  */
} tel_point;

typedef struct tel_source tel_source;

/* Opens the NVML device of the OpenCL device d when there is one: by the
 * PCI address in d's "pci_bus_id" property, or, without it, index 0 when d's
 * vendor is NVIDIA and NVML counts exactly one device.  lib is the library
 * to load (tel_open_for passes "libnvidia-ml.so.1").  *out is NULL, and
 * BE_OK returned, when the library, its symbols or the device are absent or
 * d is not an NVIDIA device.  Close with tel_close. */
int tel_open_nvml(const char *lib, const device_info *d, tel_source **out, err *e);
/* Opens the RAPL package domains under root (tel_open_for passes
 * "/sys/class/powercap"): root/intel-rapl:N/{name,energy_uj,
 * max_energy_range_uj} with name "package-N".  *out is NULL, and BE_OK
 * returned, when none is readable. */
int tel_open_rapl(const char *root, tel_source **out, err *e);
/* Why root (as tel_open_rapl's) gave no RAPL source, as the word stored
 * with the CPU's results (its "rapl" property): "absent" when it holds no
 * package domain (a virtual machine, a CPU without RAPL), "root-only" when
 * a package's energy_uj exists but this process may not read it (Linux
 * made it root's after CVE-2020-8694), "unreadable" otherwise. */
const char *tel_rapl_why(const char *root);
/* The source for a measured device: NVML for an OpenCL device ("opencl"
 * kind), RAPL for the CPU ("openblas"); *out NULL when there is none. */
int tel_open_for(const device_info *d, tel_source **out, err *e);
void tel_close(tel_source *s);
tel_kind tel_source_kind(const tel_source *s);

/* Reads s now (fields it cannot read keep their has_ flag 0). */
void tel_read(tel_source *s, tel_reading *r);

/* The advance of a counter from before to after, wrapping past range (0:
 * no wrap).  BE_EFAIL when it cannot be one (after below before without a
 * range, or either past range). */
int tel_counter_delta(unsigned long long before, unsigned long long after, unsigned long long range,
                      unsigned long long *delta);
/* Joules between two readings of one source; BE_EFAIL when either lacks
 * energy or the counters do not match. */
int tel_energy_between(const tel_reading *before, const tel_reading *after, double *joules);

/* Folds one visit (readings b before its first timed sample and a after
 * its last, samples timed between them) into t. */
void tel_visit(tel_point *t, const tel_reading *b, const tel_reading *a, int samples);

/* Whether reason bits hold one of TEL_THROTTLING_MASK. */
int tel_throttling(unsigned long long reasons);
/* The reasons in words ("sw-power-cap,hw-thermal"; "none" for 0; unknown
 * bits as one "0x..." word), cut to size. */
void tel_throttle_words(unsigned long long reasons, char *buf, size_t size);
/* "nvml", "rapl", or "" for TEL_NONE. */
const char *tel_kind_name(tel_kind k);

#endif
