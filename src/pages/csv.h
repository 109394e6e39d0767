/*
 * csv.h — a run's points as CSV, for spreadsheets, R and pandas.
 *
 * One row per point (RFC 4180: a header line, CRLF line ends, a field
 * quoted when it holds a comma, a quote or a line break), written beside
 * each run's report as results.csv.  A text field that a spreadsheet
 * would read as a formula (it starts with = + - @, TAB or CR) gets a
 * single quote in front and is quoted (OWASP's CSV injection advice).  The full data, every sample and its
 * provenance, stay in results.xml; this is the table of medians.
 */
#ifndef BE_CSV_H
#define BE_CSV_H

#include <stddef.h>

#include "results.h"

/* The points of r as CSV; *csv (NUL-terminated, *len bytes) is the
 * caller's to free.  BE_EFAIL when out of memory. */
int csv_results(const results *r, char **csv, size_t *len, err *e);
/* The points of every run of runs[0..n) in one tidy table (the columns of
 * csv_results: OUT/results.csv); as csv_results. */
int csv_runs(const results *const *runs, int n, char **csv, size_t *len, err *e);
/* One row per crossover per hidden width per run (OUT/fits.csv): the
 * devices, mode, view, time or cost, the width's verdict, its batch with
 * the 95% interval and the FLOPs per layer there; as csv_results. */
int csv_fits(const results *const *runs, int n, char **csv, size_t *len, err *e);

#endif
