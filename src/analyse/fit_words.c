/*
 * fit_words.c — the crossover in words (see fit.h).
 *
 * The sentence is the answer breakeven exists for, printed after a run,
 * stored in results.xml and leading every report.  It is written from the
 * crossover's finding (findings.h), the one verdict every other output
 * also reads, so that the stored sentence and the report cannot disagree.
 */
#include "findings.h"
#include "fit_impl.h"

void fit_sentence(const fit_set *fs, const fit_crossover *c, const results *r,
                  const fit_prices *prices, char *buf, size_t size)
{
    finding f;
    findings_of(r, fs, prices, c, &f);
    findings_sentence(&f, r, buf, size);
}
