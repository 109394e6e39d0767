/*
 * dash.h — runs and comparisons for CI dashboards: the Bencher Metric
 * Format (BMF, `--format bmf`) and github-action-benchmark's
 * customSmallerIsBetter JSON (`--format github-action-benchmark`).
 *
 * Beside the exports (export.h, csv.h): derived from loaded models
 * (results.h, read through query.h) and from a comparison (compare.h),
 * never from a results file directly, and written through json.h.  One
 * benchmark per usable point, view and device, named
 * "<mode>/<view>/<workload>/b<batch>/<device>" (the workload "l4/h1024"
 * for the square stack, "<network>/<sizes>" for a network, "<sizes>" for
 * one named by its sizes; a report of several machines puts the machine
 * before the device).  BMF gives each the measures "latency" (the median
 * step time in nanoseconds, Bencher's built-in latency) and "throughput"
 * (samples per second, Bencher's operations per second), each with
 * lower_value and upper_value from the 95% interval of the median, omitted
 * where the point has none; github-action-benchmark, whose file holds one
 * direction, the step time only.  A comparison gives the run-level ratio
 * B/A of each group and the ratio of each shared point as the measure
 * "ratio", with its interval.
 *
 * The summary (summary 1) is a run in tens of benchmarks instead of
 * hundreds, for a dashboard's limits (an unclaimed Bencher project takes
 * 255 new benchmarks a day): per device, mode and view,
 * "summary/<mode>/<view>/step-geomean/<device>" (the geometric mean of the
 * step times, "latency"), ".../peak/<device>" (the most samples per second,
 * "throughput"; github-action-benchmark: the nanoseconds per sample there)
 * and, per hidden width where the device overtakes the base device inside
 * the batches measured, ".../crossover/h<hidden>/<device>" (that batch,
 * "batch", with its 95% interval).
 *
 * Every name is made once: a document where two entries would share one
 * is refused (BE_EUSAGE), never written with the key twice nor one
 * dropped.  An interval too wide to inform (q_ci_uninformative) is never
 * written as bounds: BMF gets the measure "uninformative-interval" (value
 * 1) beside the value, github-action-benchmark no range and a line in
 * extra.  docs/manual.md ("Dashboards") gives the commands for both
 * services.
 */
#ifndef BE_DASH_H
#define BE_DASH_H

#include <stdio.h>

#include "compare.h"
#include "results.h"

typedef enum { DASH_BMF = 0, DASH_GAB } dash_format;

/* "bmf", "github-action-benchmark" */
const char *dash_format_name(dash_format f);

/* The usable points of run r as format f (summary 1: its summary),
 * written to out only once the whole text is made (no half document on an
 * error).  BE_EUSAGE when r has no usable point ("nothing for a
 * dashboard") or two entries would share a name, BE_EFAIL when out of
 * memory or out cannot be written. */
int dash_write_run(FILE *out, const results *r, dash_format f, int summary, err *e);

/* The runs of OUT's archive (runs[0..n) as ids, directories or results
 * files; n = 0: every run under OUT/runs/), the newest run of each
 * machine (q_same_machine) taken, a partial one only where the machine
 * has no finished run: a dashboard keeps one value per benchmark, and
 * each older run was the newest once.  With several
 * machines, each benchmark's device is "<host>/<device>"
 * ("<host>~<fingerprint>/<device>" when two machines share a name; the
 * machine's label, q_machine_name, stands for the host where it has one).
 * As dash_write_run; the loader's errors otherwise. */
int dash_write_archive(FILE *out, const char *dir, const char *const *runs, int n, dash_format f,
                       int summary, err *e);

/* The comparison s: each group's ratio B/A ("compare/<mode>/<view>/<device>")
 * and each shared point's ("compare/<mode>/resident/<workload>/b<batch>/
 * <device>", the workload "h<hidden>" or "<sizes>", "<network>/<sizes>"
 * where two networks of A share the sizes), B's device ids, intervals at
 * s's level (1 − alpha).  BE_EUSAGE when no ratio is known (nothing
 * measured on both sides) or two entries would share a name. */
int dash_write_compare(FILE *out, const compare_set *s, dash_format f, err *e);

#endif
