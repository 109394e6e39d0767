/*
 * fmt.c — numbers, units, durations and dates as text (see fmt.h).
 *
 * The SI forms share one rule: the prefix is the power of 1000 that leaves
 * the mantissa, once written with the digits asked for, between 1 and 999;
 * so 999.6e6 with three digits is "1G", never "1000M" or "1e+03M".  Dates
 * go through timegm and strftime rather than calendar arithmetic of our own.
 */
#define _DEFAULT_SOURCE /* timegm */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "utf8.h"

static const char *const prefixes[] = {"p", "n", "\xc2\xb5", "m", "", "k", "M", "G", "T", "P", "E"};
#define POWER_MIN (-4) /* p */
#define POWER_MAX 6    /* E */

void fmt_append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

void fmt_sig(char *buf, size_t size, double v, int digits)
{
    if (fabs(v) >= pow(10.0, digits) - 0.5)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.*g", digits, v);
}

/* The power of 1000 for a (≥ 0): the mantissa a / 1000^k written with
 * `digits` digits lies in [1, 1000) unless the prefixes run out. */
static int si_power(double a, int digits)
{
    char t[64];
    int k;
    if (!(a > 0.0) || !isfinite(a))
        return 0;
    k = (int)floor(log10(a) / 3.0);
    if (k < POWER_MIN)
        k = POWER_MIN;
    if (k > POWER_MAX)
        k = POWER_MAX;
    fmt_sig(t, sizeof t, a / pow(1000.0, k), digits);
    if (k < POWER_MAX && strtod(t, NULL) >= 1000.0)
        k++;
    return k;
}

void fmt_si(char *buf, size_t size, double v, int digits, const char *unit)
{
    char n[64];
    int k;
    if (!isfinite(v)) {
        snprintf(n, sizeof n, "%s", isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf");
        k = 0;
    } else {
        k = si_power(fabs(v), digits);
        fmt_sig(n, sizeof n, v / pow(1000.0, k), digits);
    }
    if (unit)
        snprintf(buf, size, "%s %s%s", n, prefixes[k - POWER_MIN], unit);
    else
        snprintf(buf, size, "%s%s", n, prefixes[k - POWER_MIN]);
}

void fmt_si_range(char *buf, size_t size, double lo, double hi)
{
    int k = si_power(fabs(hi), 3), digits = 2;
    double div = pow(1000.0, k);
    char a[64], b[64];
    do {
        fmt_sig(a, sizeof a, lo / div, digits);
        fmt_sig(b, sizeof b, hi / div, digits);
    } while (strcmp(a, b) == 0 && ++digits <= 4);
    snprintf(buf, size, "%s\xe2\x80\x93%s %s", a, b, prefixes[k - POWER_MIN]);
}

/* a (≥ 0) rounded to three significant digits. */
static double round3(double a)
{
    double mag;
    if (a == 0.0)
        return 0.0;
    mag = pow(10.0, floor(log10(a)) - 2);
    return round(a / mag) * mag;
}

void fmt_usd(char *buf, size_t size, double usd, int digits)
{
    static const char *const sup[] = {
        "\xe2\x81\xb0", "\xc2\xb9",     "\xc2\xb2",     "\xc2\xb3",     "\xe2\x81\xb4",
        "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9"};
    char m[64], ex[64] = "", d[16];
    int k, j;
    if (!isfinite(usd) || usd < 0.0) {
        snprintf(buf, size, "%s", isnan(usd) ? "NaN" : usd > 0 ? "inf" : "-");
        return;
    }
    if (usd == 0.0 || usd >= 0.001) {
        fmt_sig(m, sizeof m, usd, digits);
        snprintf(buf, size, "$%s", m);
        return;
    }
    k = (int)floor(log10(usd));
    fmt_sig(m, sizeof m, usd / pow(10.0, k), digits);
    if (strtod(m, NULL) >= 10.0) { /* 9.996e-6 rounds up to 10 */
        k++;
        fmt_sig(m, sizeof m, usd / pow(10.0, k), digits);
    }
    /* k < 0 here: a superscript minus, then the digits of -k */
    snprintf(ex, sizeof ex, "\xe2\x81\xbb");
    snprintf(d, sizeof d, "%d", -k);
    for (j = 0; d[j]; j++)
        fmt_append(ex, sizeof ex, "%s", sup[d[j] - '0']);
    snprintf(buf, size,
             "$%s\xc3\x97"
             "10%s",
             m, ex);
}

/* x ≥ 100 whole, with a comma every three digits. */
static void grouped(char *buf, size_t size, double x)
{
    char d[64];
    size_t n, i, o = 0;
    snprintf(d, sizeof d, "%.0f", x);
    n = strlen(d);
    for (i = 0; i < n && o + 1 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
}

void fmt_times(char *buf, size_t size, double x)
{
    char n[64];
    if (!isfinite(x) || !(x > 0.0)) {
        snprintf(buf, size, "no factor");
        return;
    }
    if (x >= 99.95) {
        /* three significant digits, the rest zeros */
        double unit = pow(10.0, floor(log10(x)) - 2.0);
        grouped(n, sizeof n, round(x / unit) * unit);
    } else if (x >= 9.995) {
        snprintf(n, sizeof n, "%.1f", x);
    } else if (x >= 0.00995) {
        snprintf(n, sizeof n, "%.2f", x);
    } else {
        snprintf(n, sizeof n, "%.2g", x);
    }
    snprintf(buf, size, "%s\xc3\x97", n);
}

void fmt_ratio(char *buf, size_t size, double r)
{
    if (isfinite(r) && r > 0.0 && r < 1.0) {
        fmt_times(buf, size, 1.0 / r);
        fmt_append(buf, size, " slower");
    } else {
        fmt_times(buf, size, r);
    }
}

/* The factor x without its "×". */
static void bare(char *buf, size_t size, double x)
{
    size_t n;
    fmt_times(buf, size, x);
    n = strlen(buf);
    if (n >= 2 && strcmp(buf + n - 2, "\xc3\x97") == 0)
        buf[n - 2] = '\0';
}

void fmt_ratio_ci(char *buf, size_t size, double r, double lo, double hi, int uninformative)
{
    char m[64], a[64], b[64];
    fmt_ratio(m, sizeof m, r);
    if (!(lo > 0.0) || !isfinite(hi)) {
        snprintf(buf, size, "%s (95%% CI unbounded", m);
    } else if (hi < 1.0) {
        bare(a, sizeof a, 1.0 / hi);
        fmt_times(b, sizeof b, 1.0 / lo);
        snprintf(buf, size, "%s (95%% CI %s\xe2\x80\x93%s slower", m, a, b);
    } else if (lo < 1.0) {
        fmt_ratio(a, sizeof a, lo);
        fmt_times(b, sizeof b, hi);
        snprintf(buf, size, "%s (95%% CI %s to %s faster", m, a, b);
    } else {
        bare(a, sizeof a, lo);
        bare(b, sizeof b, hi);
        snprintf(buf, size, "%s (95%% CI %s\xe2\x80\x93%s", m, a, b);
    }
    fmt_append(buf, size, "%s)", uninformative ? ", uninformative" : "");
}

void fmt_pvalue(char *buf, size_t size, double p)
{
    char t[64];
    if (!(p >= 0.0) || p > 1.0) {
        snprintf(buf, size, "p = NaN");
        return;
    }
    if (p < 1e-4) {
        snprintf(buf, size, "p < 0.0001");
        return;
    }
    fmt_sig(t, sizeof t, p, 2);
    snprintf(buf, size, "p = %s", t);
}

void fmt_num(char *buf, size_t size, double v)
{
    double a = round3(fabs(v));
    char t[64], *dot, *end;
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf");
        return;
    }
    if (a != 0.0 && (a < 0.01 || a >= 1e6)) {
        snprintf(buf, size, "%.3g", v);
        return;
    }
    /* two decimals at most (three digits down to 0.01), trailing zeros cut */
    snprintf(t, sizeof t, "%.2f", v < 0 ? -a : a);
    dot = strchr(t, '.');
    if (dot) {
        end = t + strlen(t) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    snprintf(buf, size, "%s", t);
}

void fmt_time(char *buf, size_t size, double s)
{
    char n[64];
    /* each unit up to what rounds to 1000 of it at 3 digits (999.6 µs is
     * "1 ms", not "1e+03 µs"); below 1 ns and from 1000 s on, the ends of
     * an interval that says nothing, no exponents either */
    if (s < 999.5e-9)
        snprintf(buf, size, "%.3g ns", s * 1e9);
    else if (s >= 999.5) {
        grouped(n, sizeof n, s);
        snprintf(buf, size, "%s s", n);
    } else if (s < 999.5e-6)
        snprintf(buf, size, "%.3g \xc2\xb5s", s * 1e6);
    else if (s < 999.5e-3)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else
        snprintf(buf, size, "%.3g s", s);
}

void fmt_duration(char *buf, size_t size, double s)
{
    if (s < 0.0)
        s = 0.0;
    if (s < 1e-3)
        snprintf(buf, size, "%.1f \xc2\xb5s", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else if (s < 60.0)
        snprintf(buf, size, "%.1fs", s);
    else if (s < 3600.0)
        snprintf(buf, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, size, "%dh%02dm", (int)(s / 3600), ((int)s % 3600) / 60);
}

#define ZWSP "\xE2\x80\x8B" /* U+200B ZERO WIDTH SPACE */

/* The Markdown form of the byte at s[i] (i its offset in the whole text)
 * into out: the byte itself, escaped, or replaced. */
static void md_byte(const char *s, size_t i, char out[8])
{
    const char c = s[i];
    out[0] = c;
    out[1] = '\0';
    if (c == '<' || c == '>' || c == '&')
        snprintf(out, 8, "%s", c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;");
    else if (strchr("\\`*_[]!|~", c) || (i == 0 && strchr("#+-=", c)) ||
             ((c == '.' || c == ')') && i > 0 && strspn(s, "0123456789") == i))
        snprintf(out, 8, "\\%c", c);
    /* autolinks are found in the text after escapes are undone, by some
     * renderers: an invisible space breaks "x@y.z", "http://" and "www." */
    else if (c == '@')
        snprintf(out, 8, ZWSP "@");
    else if (c == ':' && s[i + 1] == '/' && s[i + 2] == '/')
        snprintf(out, 8, ":" ZWSP);
    else if (c == '.' && i >= 3 && (s[i - 3] | 0x20) == 'w' && (s[i - 2] | 0x20) == 'w' &&
             (s[i - 1] | 0x20) == 'w')
        snprintf(out, 8, ZWSP ".");
}

void fmt_markdown(char *buf, size_t size, const char *s)
{
    char line[2048], out[8];
    size_t i, n, used = 0;
    if (size == 0)
        return;
    utf8_line(line, sizeof line, s);
    for (i = 0; line[i]; i += n) {
        /* a character whole: a lead byte with its continuation bytes */
        for (n = 1; ((unsigned char)line[i + n] & 0xC0) == 0x80; n++)
            ;
        if (n == 1)
            md_byte(line, i, out);
        else
            snprintf(out, sizeof out, "%.*s", (int)n, line + i);
        if (used + strlen(out) >= size)
            break;
        memcpy(buf + used, out, strlen(out));
        used += strlen(out);
    }
    buf[used] = '\0';
}

/* What field returns for anything but a number in range (every range it
 * is asked for starts at 0 or above). */
#define FIELD_BAD (-1)

/* n decimal digits at s as a number in [lo, hi]; FIELD_BAD otherwise.
 * Digits counted, never accumulated past four, so nothing can overflow. */
static int field(const char *s, int n, int lo, int hi)
{
    int i, v = 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return FIELD_BAD;
        v = v * 10 + (s[i] - '0');
    }
    return v >= lo && v <= hi ? v : FIELD_BAD;
}

int fmt_parse_time(const char *iso, struct tm *tm)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, mo, d, h, mi, s, leap;
    const char *p = iso + 19;
    if (strlen(iso) < 20 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[13] != ':' ||
        iso[16] != ':')
        return 0;
    y = field(iso, 4, FMT_YEAR_MIN, FMT_YEAR_MAX);
    mo = field(iso + 5, 2, 1, 12);
    h = field(iso + 11, 2, 0, 23);
    mi = field(iso + 14, 2, 0, 59);
    s = field(iso + 17, 2, 0, 59); /* as xsd:dateTime: no leap second */
    if (y < 0 || mo < 0 || h < 0 || mi < 0 || s < 0)
        return 0;
    leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    d = field(iso + 8, 2, 1, mdays[mo - 1] + (mo == 2 && leap));
    if (d < 0)
        return 0;
    if (*p == '.') {
        int n = 0;
        for (p++; *p >= '0' && *p <= '9' && n < 9; p++)
            n++;
        if (n == 0)
            return 0;
    }
    if (strcmp(p, "Z") != 0)
        return 0;
    memset(tm, 0, sizeof *tm);
    tm->tm_year = y - 1900;
    tm->tm_mon = mo - 1;
    tm->tm_mday = d;
    tm->tm_hour = h;
    tm->tm_min = mi;
    tm->tm_sec = s;
    /* the weekday: every field is in range, a year of four digits, so
     * timegm cannot overflow */
    timegm(tm);
    return 1;
}

void fmt_date(char *buf, size_t size, const char *iso)
{
    struct tm tm;
    char rest[64];
    if (!fmt_parse_time(iso, &tm) || !strftime(rest, sizeof rest, "%B %Y, %H:%M UTC", &tm)) {
        snprintf(buf, size, "%s", iso);
        return;
    }
    /* the day unpadded ("2 November"), which strftime cannot write */
    snprintf(buf, size, "%d %s", tm.tm_mday, rest);
}

void fmt_date_rfc822(char *buf, size_t size, const char *iso)
{
    struct tm tm;
    if (!fmt_parse_time(iso, &tm))
        fmt_parse_time("1970-01-01T00:00:00Z", &tm);
    if (!strftime(buf, size, "%a, %d %b %Y %H:%M:%S +0000", &tm) && size)
        buf[0] = '\0';
}

int fmt_width(const char *s, int cols)
{
    int extra = 0;
    for (; *s; s++)
        extra += ((unsigned char)*s & 0xC0) == 0x80;
    return cols + extra;
}

void fmt_clip(char *s, int cols)
{
    int n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80 && n++ == cols) {
            *s = '\0';
            return;
        }
}
