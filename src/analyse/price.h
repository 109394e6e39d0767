/*
 * price.h — what a device costs, as the user gives it: --price DEV=USD and
 * --prices FILE.
 *
 * The command line (cli.c) reads prices through here and nothing else; the
 * fit turns them into cost crossovers and the charts into cost bars,
 * looking them up with q_price (query.h).  The table itself, fit_prices,
 * is part of the results model (results.h), since a run stores the prices
 * its cost figures used.
 */
#ifndef BE_PRICE_H
#define BE_PRICE_H

#include "results.h"

/* "cpu=0.12" (spaces allowed around both parts) → added to p, replacing an
 * earlier price of the same device; BE_EUSAGE naming the text when
 * malformed, the price is not a positive number, or p is full. */
int price_parse(fit_prices *p, const char *text, err *e);

/* A prices file: one "DEVICE USD_PER_HOUR" or "DEVICE=USD_PER_HOUR" per
 * line, '#' comments, blank lines.  All or nothing: a bad line leaves p as
 * it was.  Errors read "file:line: ..." (BE_EUSAGE), or "file: ..."
 * (BE_EFAIL) when it cannot be read: read through infile.h, a regular
 * file of at most PRICE_FILE_MAX bytes of UTF-8 text without NUL. */
#define PRICE_FILE_MAX (1024 * 1024)
int price_load(fit_prices *p, const char *path, err *e);

/* The lines of a prices file (text NUL-terminated, checked as text
 * already), as price_load reads them; path names them in errors. */
int price_parse_text(fit_prices *p, const char *path, const char *text, err *e);

#endif
