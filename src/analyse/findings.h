/*
 * findings.h — the verdict of a run, computed once, and the words for it.
 *
 * A run's answer is said in many places: the lines `run` prints, the
 * sentence stored with each crossover, the report's lead, the captions of
 * its charts, its conclusion, the feed item and the comparison of runs.
 * When each worked its verdict out on its own (one from a fitted model,
 * one from the measured ratios, one from totals) they contradicted one
 * another.  Here, for each crossover of a fit (results.h), the verdict is
 * taken once from the measured speed (or cost) ratios at the shapes both
 * devices completed — at none, some or all of them — together with the
 * per-width crossovers the fit found (fit.h); every writer of words reads
 * it and uses the phrases below, so they can only say the same thing.
 * Read-only over a results model; above results.h and query.h, below the
 * fit's sentence (fit_sentence), the prose (prose.h), the commands and
 * compare.c.
 */
#ifndef BE_FINDINGS_H
#define BE_FINDINGS_H

#include <stddef.h>

#include "err.h"
#include "results.h"

typedef enum {
    FIND_UNKNOWN = 0, /* no shape completed by both devices            */
    FIND_NEVER,       /* the other device is ahead at no shape         */
    FIND_SOME,        /* … at some shapes and not at others            */
    FIND_ALWAYS       /* … at every shape                              */
} find_verdict;

/* "unknown", "never", "some", "always". */
const char *findings_verdict_name(find_verdict v);

/* One hidden width of a finding (aligned with its crossover's per_hidden). */
typedef struct find_width {
    int hidden;
    int nshapes, nwins;      /* batches both devices completed; where other is ahead */
    int nsure, nsure_behind; /* … where the ratio's interval lies wholly above 1,
                                wholly below 1 (settled, see finding)        */
    int behind_at_cross;     /* the crossover batch, rounded up, is a batch measured
                            where other is not ahead: "above batch N", not
                            "from batch N"                                   */
    double adv_min, adv_max; /* the smallest and largest advantage measured
                                (medians; 0 and 0 where nshapes is 0)       */
} find_width;

/* The verdict on one crossover. */
typedef struct finding {
    const fit_crossover *c; /* what it reads; not owned                        */
    find_verdict verdict;
    int nshapes, nwins; /* shapes both completed (in c's view); other ahead */
    /* the shapes whose direction is settled: the interval of the ratio
     * (q_ratio_ci, the one rule) lies wholly above 1 (other ahead) or
     * wholly below it (behind).  A direction word the pages use as a
     * verdict rests on these; the medians' count nwins is said as such */
    int nsure, nsure_behind;
    double best, worst;                          /* the advantage of other (base's time, or cost,
                           over other's) at the shapes where its median is
                           the largest and the smallest: the table's
                           extremes, which the winner map prints too     */
    double best_lo, best_hi, worst_lo, worst_hi; /* their 95% intervals   */
    int best_hidden, best_batch, worst_hidden, worst_batch;
    int nwidths;
    find_width width[LIST_MAX];
    int nsound;    /* widths with sound models (q_model_sound) of both */
    int npoor;     /* widths where a model was fitted but is poor      */
    char why[400]; /* FIND_UNKNOWN: why no shape could be compared     */
} finding;

/* Every finding of a run: one per crossover of r's fit, in its order. */
typedef struct findings {
    int n;
    finding *f; /* owned */
} findings;

/* One shape both devices of a crossover completed: the advantage of the
 * other device (base's time, or cost, over other's; medians) and its 95%
 * interval (q_ratio_ci, priced alike). */
typedef struct find_ratio {
    int hidden, batch;
    double adv, lo, hi;
} find_ratio;

/* The shapes of crossover c (prices: those of a cost crossover), at most
 * max, in q_shapes' order, into out: what findings_of counts and the
 * results.json's ratios list.  Returns how many. */
int findings_ratios(const results *r, const fit_prices *prices, const fit_crossover *c,
                    find_ratio *out, int max);

/* The finding of crossover c over r's points, with fs the fit c belongs to
 * (NULL: no models to consult) and prices those of c when it is a cost
 * crossover. */
void findings_of(const results *r, const fit_set *fs, const fit_prices *prices,
                 const fit_crossover *c, finding *f);

/* The findings of r's stored fit and prices (none without a fit).
 * BE_EFAIL when out of memory.  Free with findings_free. */
int findings_make(const results *r, findings *out, err *e);
void findings_free(findings *fs);

/* The finding of other against the base device in mode m, view v, time
 * (cost 0) or cost (1), or NULL. */
const finding *findings_get(const findings *fs, const char *other, wl_mode m, fit_view v, int cost);

/* 1 when every shape f compared has its direction settled (nsure and
 * nsure_behind cover them all): only then do the pages use a direction
 * word as a verdict over all of f's shapes. */
int findings_settled(const finding *f);

/* "at 5 of 15 shapes measured", "at none of the 15 shapes measured", "at
 * every one of the 15 shapes measured": the count every output gives; where
 * some of the shapes it counts are not settled, it says that the count is
 * the medians' and at how many the intervals settle it: "at 5 of 15 shapes
 * measured by the medians (settled at 2)". */
void findings_shapes_text(const finding *f, char *buf, size_t size);

/* The interval of a width's crossover batch: "(95% CI 38–52)", "(95% CI
 * 38 to over 1024)", "(95% CI under 16 to 52)"; "(no interval: ...)" for a
 * fit of analysis 1.  The ends are rounded outwards. */
void findings_batch_ci(const fit_hidden_cross *h, char *buf, size_t size);

/* Where other takes over at width k of f (an in-range crossover): "from
 * batch 38", or "above batch 16" when the measured medians at batch 16
 * still favour the base. */
void findings_from_text(const finding *f, int k, char *buf, size_t size);

/* The per-width answer, widest first, e.g. "from batch 24 at hidden 2048
 * (95% CI 20–30), at every batch at hidden 4096 and at no batch at hidden
 * 128"; "" when no width has one. */
void findings_widths_text(const finding *f, char *buf, size_t size);

/* The same as sentences, one per width (or run of widths), each naming
 * its mode and device so that none comes back on a page: lead "In
 * inference", name "PoCL (CPU)": "In inference at hidden 2048, PoCL (CPU)
 * is faster from batch 24 (95% CI 20–30). In inference at hidden 4096,
 * PoCL (CPU) is faster at every batch." ("cheaper per step" by cost); ""
 * when no width has an answer. */
void findings_widths_sentences(const finding *f, const char *lead, const char *name, char *buf,
                               size_t size);

/* The same restricted to the widths where the other device is ahead from
 * some batch on ("where to use it"), e.g. "at every batch at hidden 4096
 * and from batch 24 at hidden 2048 (95% CI 20–30)". */
void findings_wins_text(const finding *f, char *buf, size_t size);

/* The summary across widths, e.g. "from about 44 MFLOP per layer at
 * hidden 1024 to 92 MFLOP at hidden 512 (95% CI 30–120 M)"; "" when no
 * width crosses in range. */
void findings_range_text(const finding *f, char *buf, size_t size);

/* The extreme advantage, with its interval and shape (fmt_ratio_ci):
 * "1.56× slower (95% CI 1.41–1.82× slower) at hidden 128, batch 16",
 * "32.16× (95% CI 27.84–37.15) at hidden 512, batch 1024", flagged
 * uninformative by q_ci_uninformative; best 1: the best, else the worst. */
void findings_extreme_text(const finding *f, int best, char *buf, size_t size);

/* The answer in one sentence (the <sentence> of a crossover, the results
 * file's and the terminal's), naming both devices as they describe
 * themselves. */
void findings_sentence(const finding *f, const results *r, char *buf, size_t size);

/* The pages' words name devices as people do (q_device_name) and are
 * short enough to read at a glance; each says one thing the others do not,
 * so that no sentence comes back on the same page. */

/* The lead of a run's page, of f: at most three sentences of at most 35
 * words (tests/prose_lint): the answer (where the other device is ahead,
 * as work per layer with its interval), where it is behind, and what to
 * do or what would settle it.  sentences 1: the answer alone, the
 * summary of link previews, the archive and the feed. */
void findings_lead(const finding *f, const results *r, int sentences, char *buf, size_t size);

/* The detail under the lead, one item per finding, its count and then
 * each width in a sentence (findings_widths_sentences): "Inference: PoCL
 * (CPU) is faster at 23 of 41 shapes measured. In inference at hidden
 * 256, PoCL (CPU) is faster from batch 600 (95% CI 81 to over 1024). In
 * inference at hidden 128 to 2048, PoCL (CPU) is faster at no batch.";
 * "… is faster than OpenBLAS (2 threads) at …" (named 1) where the run
 * compares more than two devices. */
void findings_item(const finding *f, const results *r, int named, char *buf, size_t size);

/* A run's lead where it holds more than one stack (q_stack) with an
 * answer: one sentence per stack from the first resident time finding of
 * the lead's mode whose two devices share a stack ("In inference with
 * PyTorch, PyTorch on NVIDIA H100 80GB HBM3 is faster than PyTorch (CPU)
 * from about 1.2 MFLOP per layer (95% CI 1.1–1.4 MFLOP)."; "With
 * breakeven's OpenCL kernels, …"), at most three, and where there is room
 * for a third sentence, that each is against its own stack's CPU.
 * sentences: at most that many.  Returns how many stacks it answers for;
 * 0 (and buf "") where fewer than two: findings_lead says it then. */
int findings_lead_stacks(const findings *F, const results *r, int sentences, char *buf,
                         size_t size);

/* What a framework costs over the bare library, where f sets one CPU
 * device against another CPU device of a different stack (torch:cpu
 * against OpenBLAS's cpu): where the framework is furthest behind, with
 * its interval and the time per step it adds; where it is ahead, if
 * anywhere, with its interval; and its time relative to the base's per
 * width.  0 (buf "") where f is not such a finding or has no verdict. */
int findings_overhead(const finding *f, const results *r, char *buf, size_t size);

/* A conclusion a reader can quote: one fact of f with its number and
 * interval, "In inference, NVIDIA H100 80GB HBM3 overtakes OpenBLAS (16
 * threads) at about 1.2 MFLOP per layer (95% CI 1.1–1.4 MFLOP)."; where
 * the intervals leave it open (or no crossing can be quoted), the count
 * and its extreme, a sentence each: "PoCL (CPU) is faster than OpenBLAS
 * (2 threads) at 5 of 21 shapes measured by the medians (settled at
 * none) in inference. At best it is 1.21× (…) at hidden 1024, batch
 * 256."  base,
 * the finding of the resident view that f (one with transfers counted) is
 * read against, or NULL: f is said only where it differs from base. 0
 * when there is nothing to say. */
int findings_bullet(const finding *f, const finding *base, const results *r,
                    const fit_prices *prices, char *buf, size_t size);

#endif
