/*
 * prose.h — the report in words: what each chart shows, the conclusion,
 * the setup, the warnings, the answer of a run for the archive and the
 * feed.
 *
 * The report reads like the posts it imitates, and every sentence is
 * written from the data: the numbers come from the results model through
 * query.h, the same answers the charts are drawn from (a chart's paragraph
 * totals the shapes its bars total), formatted by fmt.h.  Whether another
 * device wins, where, and from which batch is the run's findings
 * (findings.h), computed once by the caller and passed in, so that the
 * lead, every caption, the conclusion and the feed say the same.  Each
 * function writes NUL-terminated text into buf[0..size), cut to fit.
 */
#ifndef BE_PROSE_H
#define BE_PROSE_H

#include <stddef.h>

#include "findings.h"
#include "results.h"

/* The throughput chart: each device's best measured speed, and what the
 * models that fit (q_model_sound) say of its throughput. */
void prose_throughput(const results *r, wl_mode m, char *buf, size_t size);

/* How well t = t0 + f/P fits each device of mode m in the resident view:
 * the RMS relative error per hidden width, and over all widths at once,
 * with the poor ones named ("" without a fit). */
void prose_models(const results *r, wl_mode m, char *buf, size_t size);

/* The speed-ratio chart: where each device beat the base (F, the run's
 * findings), and with transfers counted. */
void prose_ratio(const results *r, const findings *F, wl_mode m, char *buf, size_t size);

/* The winner map: at how many shapes each device wins, and from which
 * batch it takes over at each hidden width. */
void prose_winner(const results *r, const findings *F, wl_mode m, char *buf, size_t size);

/* The relative time (cost 0) or cost (1) chart: each device's total over
 * the shapes every compared device completed (q_compared, q_completed),
 * relative to the base, with the verdict of F (NULL: none, as for the
 * hosts side by side, which have no fit). */
void prose_relative(const results *r, const findings *F, wl_mode m, int cost, char *buf,
                    size_t size);

/* Energy per step in mode m, where the devices recorded it (telemetry.h):
 * each device's energy against the base's at the largest shape both have
 * figures for, and from which batch it uses less energy per step at each
 * hidden width (q_energy_cross).  "" when no point of m has energy. */
void prose_energy(const results *r, wl_mode m, char *buf, size_t size);

/* What the devices reported about themselves while they were timed: the
 * ranges of clocks, power and temperature, how many points have energy,
 * and the points measured while throttled.  "" when nothing was recorded. */
void prose_telemetry(const results *r, char *buf, size_t size);

/* The conclusions of mode m, one fact a reader can quote each, with its
 * number and interval, into b[0..max) (findings_bullet): where each device
 * overtakes the base, with transfers counted where that differs, by cost,
 * and each device's peak.  Returns how many. */
#define PROSE_BULLET 1024
int prose_conclusions(const results *r, const findings *F, wl_mode m, char (*b)[PROSE_BULLET],
                      int max);

/* The method, in one paragraph: what a point is, how it was verified and
 * timed, what the times and crossovers are (the machine and the devices
 * are systable.h's tables). */
void prose_setup(const results *r, char *buf, size_t size);

/* The first answer of a run (the first sentence of the lead of
 * prose_lead_finding, findings_lead), or what was measured when it has
 * none: the archive's and the feed's summary. */
void prose_answer(const results *r, const findings *F, char *buf, size_t size);

/* The finding a run's page leads with: its first resident time finding
 * with a verdict, inference first, else its first resident time finding,
 * or NULL. */
const finding *prose_lead_finding(const findings *F);

/* What a link preview says of a run's page (description, og:description):
 * its answer (prose_answer) where that is at most PROSE_SUMMARY_MAX
 * characters, else its headline. */
#define PROSE_SUMMARY_MAX 200
void prose_summary(const results *r, const findings *F, char *buf, size_t size);

/* The lead of a run that measured a single device: what was measured
 * ("Only cpu (CPU, AMD EPYC) was measured, so …") and its best speed; ""
 * unless r has exactly one device. */
void prose_alone(const results *r, char *buf, size_t size);

/* The lead of a run of networks alone: in the first mode, on its first
 * network, how many batches the other device is faster at (the medians'
 * count, and how many the intervals settle), and what would settle the
 * rest or where it takes over; "" when r has no network answer. */
void prose_net_lead(const results *r, char *buf, size_t size);

/* What a link preview shows of a title whole (issue 40): a title is at
 * most this many characters. */
#define PROSE_TITLE_MAX 70

/* The verdict of a run as a headline of at most PROSE_TITLE_MAX
 * characters, for its page, the feed's item titles and the archive: the
 * most of "NVIDIA H100 80GB HBM3 beats OpenBLAS (16 threads) from batch 38
 * at hidden 128 (inference, vm)" that fits, dropping the machine, the
 * mode, then the base device's name; prefixed by its weightiest caveat
 * (prose_caveat_title: "Partial: 12 of 35 points: ", "No GPU: "). */
void prose_headline(const results *r, const findings *F, char *buf, size_t size);

/* The title of a run: its page's <title> and heading, and its feed
 * item's title: the headline (prose_headline), after "<title>: " when the
 * site has a title (not NULL or "") and both fit in PROSE_TITLE_MAX. */
void prose_title(const char *title, const results *r, const findings *F, char *buf, size_t size);

/* The run's drift warning names a point only when all three hold: its own
 * test flagged it (stats.h: one-sided p < 0.01 and 2% slower, what its
 * row of the table marks), that test also passes at PROSE_DRIFT_ALPHA
 * over all the run's drift tests (Bonferroni: p ≤ α / tests, one test per
 * measured point and view), and it got PROSE_DRIFT_RATIO slower or more.
 * At 1% per test, a run of 26 to 207 tests would flag some point by
 * chance in a quarter to nine tenths of runs were the tests independent,
 * and they are not (a pass's samples follow the machine's state): 11 of
 * 24 quiet H200 runs warned, all of +2% to +7% (docs/statistics.md).  The
 * warning leads the page, so it has to mean more than that; the point's
 * own flag, and its row of the table, stay as they were. */
#define PROSE_DRIFT_ALPHA 0.05
#define PROSE_DRIFT_RATIO 1.10
/* A warning's list (drift, failed points) names at most this many
 * points, and counts the rest (a sentence of at most 35 words,
 * tests/prose_lint). */
#define PROSE_NAMED_POINTS 2

/* The warnings of a run, one per entry of w[0..max): partial run, a busy
 * machine (others' share of the CPU, machstate.h), a framework's threads
 * contending with its BLAS's (q_blas_contends), throttling, drift (as
 * PROSE_DRIFT_* say), out of memory, failed verification, skipped points.
 * Returns how many. */
#define PROSE_WARNING 2400
int prose_warnings(const results *r, char (*w)[PROSE_WARNING], int max);

/* What others and the hypervisor took during pass p of r: "others 31%,
 * steal 1.1%, 0.6 of 2 CPUs" (each share left out below 0.5% and 0.05%). */
void prose_busy_pass(const results *r, const rs_pass *p, char *buf, size_t size);

/* The warnings in a few words, for the archive's entries (after the
 * caveats, prose_caveat_short) and compare's: "partial: 12 of 35 points;
 * busy machine (2 passes); drift at 4 points; threads contend in PyTorch
 * (CPU)"; "" when
 * there is nothing to warn of.  Only what a digest keeps (cache.h: no
 * samples) may count here, so that an entry reads the same from either. */
void prose_flags(const results *r, char *buf, size_t size);

/* The caveats of a run (q_caveats) in words, each written here once for
 * every output.  prose_caveat_title: the weightiest alone, in the fewest
 * words, for the title's prefix ("partial: 12 of 35 points", "partly
 * synthetic", "no GPU", "OpenBLAS on old kernels"); "" when there is
 * none. */
void prose_caveat_title(const results *r, char *buf, size_t size);

/* Every caveat in a few words, for the descriptions a link preview or a
 * feed reader shows and the archive's entries: "Partly synthetic; no
 * GPU; OpenBLAS on old kernels." ("" when there is none); a partial run's
 * first where partial is 1 (the archive's entries give it with the
 * warnings, prose_flags). */
void prose_caveat_short(const results *r, int partial, char *buf, size_t size);

/* The caveats a reader must know before any figure, a sentence each in
 * w[0..max) (the page's lines above its lead, summary.md's, the feed
 * item's): made-up devices, no GPU measured, a library held to older
 * kernels.  A partial run is the warnings' (prose_warnings) and the
 * title's.  Returns how many. */
#define PROSE_CAVEAT 600
int prose_caveats(const results *r, char (*w)[PROSE_CAVEAT], int max);

/* "partial: 12 of 35 points" for a run that did not finish (counting
 * the points it reached, measured or not), "" for one that did. */
void prose_partial_text(const results *r, char *buf, size_t size);

#endif
