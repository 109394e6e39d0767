/*
 * fmt.h — how breakeven writes numbers, units, durations and dates as text.
 *
 * Every output speaks through this module: the stdout tables and the
 * progress lines (table.c, progress.c), the crossover sentences (fit), the
 * chart labels (chart.c, figure), the report's paragraphs and tables and
 * the feed's dates (report, prose).  One module, so that "96 MFLOP" on a
 * page, in a sentence and on a chart is the same number written the same
 * way.  Pure functions of their arguments: no locale is set anywhere in
 * breakeven, so month and day names are the C locale's English ones.
 * Every function writes a NUL-terminated string into buf[0..size), cut to
 * fit.
 */
#ifndef BE_FMT_H
#define BE_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Appends printf-style text to the string in buf[0..size). */
void fmt_append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* v with `digits` significant digits, but whole numbers from 10^digits on
 * (never an exponent there): with 2, 96 → "96", 1.25 → "1.2", 125 → "125". */
void fmt_sig(char *buf, size_t size, double v, int digits);

/* v with an SI prefix (p n µ m · k M G T P E) and `digits` significant
 * digits as fmt_sig writes them, then a space and the prefix glued to
 * unit: fmt_si(b, n, 9.6e7, 2, "FLOP") → "96 MFLOP", (5e-6, 3, "s") →
 * "5 µs", (2.105e6, 3, "") → "2.11 M".  With unit NULL, the compact form
 * of axis labels: "100M", "2.5G", "2m", "0".  NaN and infinities read
 * "NaN", "inf", "-inf". */
void fmt_si(char *buf, size_t size, double v, int digits, const char *unit);

/* A range in the prefix of its upper end, with as many digits (2 to 4) as
 * it takes for its ends to differ: (8e7, 1.2e8) → "80–120 M". */
void fmt_si_range(char *buf, size_t size, double lo, double hi);

/* A plain number with at most three significant digits ("0.25", "1", "40",
 * "1200"), for ratios and linear axes. */
void fmt_num(char *buf, size_t size, double v);

/* An amount of US dollars with `digits` significant digits: "$0.12",
 * "$1.5", "$0.0041"; below a thousandth of a dollar as a power of ten,
 * "$3.3×10⁻⁵" (the cost of one step is often a few nanodollars). */
void fmt_usd(char *buf, size_t size, double usd, int digits);

/* A factor for prose, "×" glued on, to three significant digits as
 * people quote them: two decimals below 10 ("1.25×"), one below 100
 * ("32.2×"), then whole and grouped by thousands ("1,000×", "16,300×"),
 * and below 0.01 two significant digits ("0.0010×"): never "0.00×",
 * which says nothing of a device a thousand times slower.  Not finite or
 * ≤ 0: "no factor". */
void fmt_times(char *buf, size_t size, double x);

/* A ratio of speeds r (how many times faster one thing is than another)
 * in words: r ≥ 1 as fmt_times writes it ("2.50×"), r < 1 as the factor
 * the other way and "slower" ("1,000× slower"). */
void fmt_ratio(char *buf, size_t size, double r);

/* fmt_ratio of r and its 95% interval [lo, hi]: "32.16× (95% CI
 * 27.84–37.15)", "1,000× slower (95% CI 900–1,100× slower)", "1.05×
 * (95% CI 1.25× slower to 1.10× faster)"; with uninformative set (the
 * caller asks q_ci_uninformative) ", uninformative" closes the bracket. */
void fmt_ratio_ci(char *buf, size_t size, double r, double lo, double hi, int uninformative);

/* A p-value for readers: "p = 0.42", "p = 0.0031", "p < 0.0001". */
void fmt_pvalue(char *buf, size_t size, double p);

/* A measured step time, three significant digits in a readable unit:
 * "1.72 µs", "350 ms", "1.2 s"; the ends of a wide interval without
 * exponents: "0.00063 ns", "1,960,000 s". */
void fmt_time(char *buf, size_t size, double seconds);
/* The printf field width that pads UTF-8 text s to cols columns: a
 * multi-byte character ("µs", "→") takes one column and more bytes. */
int fmt_width(const char *s, int cols);
/* Cuts UTF-8 text s in place to at most cols columns, never inside a
 * character. */
void fmt_clip(char *s, int cols);

/* A wall-clock duration for people watching a terminal: "2.5 µs" (one
 * decimal), "350 ms", "4.2s", "1m23s", "1h02m"; negative reads as 0. */
void fmt_duration(char *buf, size_t size, double seconds);

/* s as inline Markdown text that renders as s and as nothing else, for
 * summary.md and `compare --format markdown`: one line (utf8_line: control
 * characters removed, line breaks as spaces, invalid UTF-8 replaced);
 * "<", ">" and "&" as entities, so no raw HTML; the characters of links,
 * images, emphasis, code and tables backslash-escaped (\\ ` * _ [ ] ! |
 * ~), and a "#", "+", "-", "=", or digits and "." or ")", that would open
 * a heading or a list at the start; an invisible U+200B before "@", after
 * the ":" of "://" and before the "." of "www.", so that no renderer's
 * autolinking makes a live link of an address in the data.  Cut on a
 * character boundary when buf is too small (five bytes of room per byte of
 * s always suffice). */
void fmt_markdown(char *buf, size_t size, const char *s);

/* The years a time stamp may have: what a page can show as a date. */
#define FMT_YEAR_MIN 1970
#define FMT_YEAR_MAX 9999

/* 1 when iso is a UTC time as breakeven writes it, "YYYY-MM-DDTHH:MM:SSZ"
 * (a fraction of a second of 1 to 9 digits allowed before the Z), of a
 * year from FMT_YEAR_MIN to FMT_YEAR_MAX and every field in its range
 * (the day in its month; no leap second, as xsd:dateTime); *tm then holds it, weekday set.
 * Parsed digit by digit: no text can overflow it.  0 otherwise. */
struct tm;
int fmt_parse_time(const char *iso, struct tm *tm);

/* An ISO 8601 UTC time ("2026-11-22T03:18:31Z") for readers:
 * "22 November 2026, 03:18 UTC"; the text itself, as written, when
 * fmt_parse_time refuses it (results_load refuses such a file). */
void fmt_date(char *buf, size_t size, const char *iso);

/* The same time as RFC 822 wants it in a feed:
 * "Sun, 22 Nov 2026 03:18:31 +0000"; the epoch when it does not parse
 * (which a loaded run never does: results_load refuses it). */
void fmt_date_rfc822(char *buf, size_t size, const char *iso);

#endif
