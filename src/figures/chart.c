/*
 * chart.c — drawing primitives (chart.h).
 *
 * breakeven answers one question with numbers and then shows how it got
 * there with charts; this file is the plain drawing layer under those
 * charts (figure.c decides what each one shows).  Everything here works in
 * "user units": a chart is laid out once at 1× and cairo's transformation
 * scales it for the HiDPI PNG.  Font metrics are taken with hinting off, so
 * that a label measured at 1× (chart_measure) has the same width in the
 * PNG.  Only PNGs are written: the pages show them (the wide one at 2×
 * links to itself for a closer look), and cairo's SVGs were the larger
 * half of a run's disk and not reproducible byte for byte (their glyph
 * ids count per process).
 */
#define _POSIX_C_SOURCE 200809L
#include "chart.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "fsx.h"
#include "png.h"
#include "infile.h"
#include "utf8.h"

#define PI 3.14159265358979323846

/* ---- colours ----------------------------------------------------------- */

static const chart_rgb oi[] = {
    {0, 0, 0},
    {230 / 255.0, 159 / 255.0, 0},
    {86 / 255.0, 180 / 255.0, 233 / 255.0},
    {0, 158 / 255.0, 115 / 255.0},
    {240 / 255.0, 228 / 255.0, 66 / 255.0},
    {0, 114 / 255.0, 178 / 255.0},
    {213 / 255.0, 94 / 255.0, 0},
    {204 / 255.0, 121 / 255.0, 167 / 255.0},
};

chart_rgb chart_oi_rgb(chart_oi c)
{
    return (unsigned)c < sizeof oi / sizeof *oi ? oi[c] : oi[CHART_BLACK];
}

chart_rgb chart_series(int i)
{
    /* Darkest first: the first series, the ones always present, read best
     * on white; yellow is last because thin yellow lines barely show. */
    static const chart_oi order[CHART_NSERIES] = {CHART_BLUE,   CHART_VERMILLION, CHART_GREEN,
                                                  CHART_PURPLE, CHART_ORANGE,     CHART_SKY,
                                                  CHART_YELLOW};
    if (i < 0)
        i = 0;
    return oi[order[i % CHART_NSERIES]];
}

chart_rgb chart_mix(chart_rgb a, chart_rgb b, double t)
{
    chart_rgb c = {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
    return c;
}

static void set_rgb(cairo_t *cr, chart_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static const chart_rgb ink = {0.13, 0.13, 0.13};
static const chart_rgb grey = {0.38, 0.38, 0.38};

/* ---- ticks and labels -------------------------------------------------- */

static int bad_log_range(double lo, double hi)
{
    return !(lo > 0.0) || !(hi >= lo) || !isfinite(lo) || !isfinite(hi);
}

int chart_ticks_log(double lo, double hi, double *ticks, int max, int *n)
{
    int k, k0, k1;
    *n = 0;
    if (bad_log_range(lo, hi))
        return BE_EUSAGE;
    k0 = (int)ceil(log10(lo) - 1e-9);
    k1 = (int)floor(log10(hi) + 1e-9);
    for (k = k0; k <= k1; k++) {
        if (*n >= max)
            return BE_EUSAGE;
        ticks[(*n)++] = pow(10.0, k);
    }
    return BE_OK;
}

int chart_ticks_log_minor(double lo, double hi, double *ticks, int max, int *n)
{
    static const double mult[] = {2.0, 5.0};
    int k, j;
    *n = 0;
    if (bad_log_range(lo, hi))
        return BE_EUSAGE;
    for (k = (int)floor(log10(lo)) - 1; k <= (int)ceil(log10(hi)); k++)
        for (j = 0; j < 2; j++) {
            double v = mult[j] * pow(10.0, k);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
                continue;
            if (*n >= max)
                return BE_EUSAGE;
            ticks[(*n)++] = v;
        }
    return BE_OK;
}

double chart_step_125(double lo, double hi, int target)
{
    double raw, mag, f;
    if (target < 2)
        target = 2;
    raw = (hi - lo) / target;
    if (!(raw > 0.0) || !isfinite(raw))
        return 1.0;
    mag = pow(10.0, floor(log10(raw)));
    f = raw / mag;
    /* The 1-2-5 step nearest in log terms: cut points at √2, √10, √50. */
    return (f < 1.4142 ? 1.0 : f < 3.1623 ? 2.0 : f < 7.0711 ? 5.0 : 10.0) * mag;
}

int chart_ticks_linear(double lo, double hi, int target, double *ticks, int max, int *n,
                       double *step)
{
    double s;
    long k, k0, k1;
    *n = 0;
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi))
        return BE_EUSAGE;
    s = chart_step_125(lo, hi, target);
    if (step)
        *step = s;
    k0 = (long)ceil(lo / s - 1e-9);
    k1 = (long)floor(hi / s + 1e-9);
    for (k = k0; k <= k1; k++) {
        if (*n >= max)
            return BE_EUSAGE;
        /* k·s, with −0 and rounding noise cleaned (0.1·3 → 0.3). */
        ticks[(*n)++] = k == 0 ? 0.0 : (double)k * s;
    }
    return BE_OK;
}

/* ---- text ---------------------------------------------------------------- */

void chart_font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Every string reaches cairo through these two functions, made valid UTF-8
 * here (names come from results files, and a cut may have split a
 * character): cairo refuses invalid UTF-8 by putting the whole drawing in
 * an error state. */
double chart_text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t te;
    char clean[2048];
    utf8_copy(clean, sizeof clean, s);
    cairo_text_extents(cr, clean, &te);
    return te.x_advance;
}

void chart_text(cairo_t *cr, double x, double y, chart_halign h, chart_valign v, chart_rgb c,
                const char *text)
{
    cairo_font_extents_t fe;
    char s[2048];
    double w;
    utf8_copy(s, sizeof s, text);
    w = chart_text_width(cr, s);
    cairo_font_extents(cr, &fe);
    if (h == CHART_CENTER)
        x -= w / 2;
    else if (h == CHART_RIGHT)
        x -= w;
    /* DejaVu's cap height is about 0.78 of its ascent; centring on it (not
     * on ascent + descent) puts digits level with their tick line. */
    if (v == CHART_MIDDLE)
        y += 0.39 * fe.ascent;
    else if (v == CHART_TOP)
        y += fe.ascent * 0.8;
    set_rgb(cr, c);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
    cairo_new_path(cr);
}

void chart_fit_text(cairo_t *cr, const char *s, double width, char *buf, size_t size)
{
    size_t len;
    utf8_copy(buf, size, s);
    if (chart_text_width(cr, buf) <= width)
        return;
    len = strlen(buf);
    while (len > 0) {
        char t[512];
        len--;
        /* Never cut inside a UTF-8 sequence. */
        while (len > 0 && ((unsigned char)buf[len] & 0xC0) == 0x80)
            len--;
        snprintf(t, sizeof t, "%.*s\xe2\x80\xa6", (int)len, buf);
        if (chart_text_width(cr, t) <= width || len == 0) {
            snprintf(buf, size, "%s", t);
            return;
        }
    }
}

int chart_wrap(cairo_t *cr, const char *s, double width, char lines[][CHART_LINE], int max)
{
    int n = 0;
    while (*s == ' ')
        s++;
    while (*s && n < max) {
        char t[CHART_LINE];
        size_t len = strlen(s), best = 0, i;
        if (n == max - 1 || chart_text_width(cr, s) <= width) {
            chart_fit_text(cr, s, width, lines[n++], CHART_LINE);
            break;
        }
        /* The longest prefix ending before a space that fits. */
        for (i = 1; i < len && i < CHART_LINE - 1; i++) {
            if (s[i] != ' ')
                continue;
            snprintf(t, sizeof t, "%.*s", (int)i, s);
            if (chart_text_width(cr, t) > width)
                break;
            best = i;
        }
        if (best == 0) {
            /* One word wider than the line: break it where it stops
             * fitting (never inside a UTF-8 sequence), the rest of it on
             * the next line, so that no letter of it is lost. */
            for (i = 1; i < len && i < CHART_LINE - 1 && s[i] != ' '; i++) {
                if (((unsigned char)s[i] & 0xC0) == 0x80)
                    continue;
                snprintf(t, sizeof t, "%.*s", (int)i, s);
                if (chart_text_width(cr, t) > width)
                    break;
                best = i;
            }
            if (best == 0) /* not even its first letter fits */
                for (best = 1; best < len && ((unsigned char)s[best] & 0xC0) == 0x80; best++)
                    ;
        }
        snprintf(t, sizeof t, "%.*s", (int)best, s);
        chart_fit_text(cr, t, width, lines[n++], CHART_LINE);
        s += best;
        while (*s == ' ')
            s++;
    }
    return n;
}

double chart_margin(double width)
{
    return width < CHART_NARROW ? 10.0 : 20.0;
}

double chart_title(cairo_t *cr, double width, const char *title, const char *subtitle)
{
    char lines[6][CHART_LINE];
    int narrow = width < CHART_NARROW, i, n;
    double m = chart_margin(width), y = narrow ? 24 : 30;
    chart_font(cr, narrow ? 15 : 17, 1);
    n = chart_wrap(cr, title, width - 2 * m, lines, 2);
    for (i = 0; i < n; i++, y += narrow ? 19 : 21)
        chart_text(cr, m, y, CHART_LEFT, CHART_BASELINE, ink, lines[i]);
    y -= narrow ? 19 : 21;
    if (subtitle && *subtitle) {
        chart_font(cr, 12.5, 0);
        n = chart_wrap(cr, subtitle, width - 2 * m, lines, narrow ? 6 : 2);
        for (i = 0; i < n; i++) {
            y += i ? 16 : 20;
            chart_text(cr, m, y, CHART_LEFT, CHART_BASELINE, grey, lines[i]);
        }
    }
    return y + 14;
}

/* ---- axes ---------------------------------------------------------------- */

static double nice_125_down(double v)
{
    double mag = pow(10.0, floor(log10(v) + 1e-12));
    double m = v / mag;
    return (m >= 5.0 - 1e-9 ? 5.0 : m >= 2.0 - 1e-9 ? 2.0 : 1.0) * mag;
}

static double nice_125_up(double v)
{
    double mag = pow(10.0, floor(log10(v) - 1e-12));
    double m = v / mag;
    return (m <= 1.0 + 1e-9 ? 1.0 : m <= 2.0 + 1e-9 ? 2.0 : m <= 5.0 + 1e-9 ? 5.0 : 10.0) * mag;
}

void chart_axis_fit(chart_axis *a, double lo, double hi)
{
    if (a->scale == CHART_LOG) {
        if (!(lo > 0.0) || !isfinite(lo))
            lo = hi > 0.0 && isfinite(hi) ? hi / 10 : 1.0;
        if (!(hi >= lo) || !isfinite(hi))
            hi = lo * 10;
        if (hi < lo * 1.5) {
            double mid = sqrt(lo * hi);
            lo = mid / 2;
            hi = mid * 2;
        }
        a->lo = nice_125_down(lo / 1.0001);
        a->hi = nice_125_up(hi * 1.0001);
    } else {
        double s;
        if (!isfinite(lo) || !isfinite(hi) || hi < lo) {
            lo = 0.0;
            hi = 1.0;
        }
        if (hi - lo < 1e-12 * (fabs(hi) + 1.0)) {
            lo = lo > 0 ? 0.0 : lo - 1.0;
            hi = hi + 1.0;
        }
        s = chart_step_125(lo, hi, 5);
        a->lo = floor(lo / s + 1e-9) * s;
        a->hi = ceil(hi / s - 1e-9) * s;
    }
}

static double frac(const chart_axis *a, double v)
{
    if (a->scale == CHART_LOG) {
        if (!(v > 0.0))
            return -1e3;
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    }
    return (v - a->lo) / (a->hi - a->lo);
}

double chart_px(const chart_frame *f, double v)
{
    return f->x + frac(&f->xa, v) * f->w;
}

double chart_py(const chart_frame *f, double v)
{
    return f->y + f->h - frac(&f->ya, v) * f->h;
}

#define MAXTICKS 128

typedef struct tickset {
    int n;
    double v[MAXTICKS];
    int major[MAXTICKS];
    int label[MAXTICKS];
} tickset;

static void add_tick(tickset *t, double v, int major, int label)
{
    if (t->n < MAXTICKS) {
        t->v[t->n] = v;
        t->major[t->n] = major;
        t->label[t->n] = label;
        t->n++;
    }
}

static void axis_ticks(const chart_axis *a, tickset *t)
{
    double v[MAXTICKS];
    int n = 0, i, every;
    t->n = 0;
    if (a->bare)
        return;
    if (a->scale == CHART_LOG) {
        if (chart_ticks_log(a->lo, a->hi, v, MAXTICKS, &n) != BE_OK)
            n = 0;
        every = n > 10 ? 2 : 1;
        for (i = 0; i < n; i++)
            add_tick(t, v[i], 1, (int)lround(log10(v[i])) % every == 0);
        if (chart_ticks_log_minor(a->lo, a->hi, v, MAXTICKS, &n) != BE_OK)
            n = 0;
        /* Three decades or fewer: label the 2s and 5s too, so the reader
         * has enough marks to read a value. */
        every = t->n < 4;
        for (i = 0; i < n; i++)
            add_tick(t, v[i], 0, every);
    } else {
        if (chart_ticks_linear(a->lo, a->hi, 5, v, MAXTICKS, &n, NULL) != BE_OK)
            n = 0;
        for (i = 0; i < n; i++)
            add_tick(t, v[i], 1, 1);
    }
}

static void tick_label(const chart_axis *a, double v, char *buf, size_t size)
{
    if (a->si)
        fmt_si(buf, size, v, 3, NULL);
    else
        fmt_num(buf, size, v);
}

double chart_ytick_width(cairo_t *cr, const chart_axis *ya)
{
    tickset t;
    char buf[64];
    double w = 0;
    int i;
    axis_ticks(ya, &t);
    chart_font(cr, 11.5, 0);
    for (i = 0; i < t.n; i++) {
        if (!t.label[i])
            continue;
        tick_label(ya, t.v[i], buf, sizeof buf);
        if (chart_text_width(cr, buf) > w)
            w = chart_text_width(cr, buf);
    }
    return w;
}

/* 1 (and [lo, hi] added to used) when [lo, hi] overlaps none of the
 * intervals in used[0..*n). */
static int label_room(double used[][2], int *n, double lo, double hi)
{
    int i;
    for (i = 0; i < *n; i++)
        if (lo < used[i][1] && hi > used[i][0])
            return 0;
    if (*n < MAXTICKS) {
        used[*n][0] = lo;
        used[*n][1] = hi;
        (*n)++;
    }
    return 1;
}

void chart_axes(cairo_t *cr, const chart_frame *f)
{
    static const chart_rgb grid_major = {0.85, 0.85, 0.85}, grid_minor = {0.94, 0.94, 0.94};
    tickset tx, ty;
    char buf[64];
    double ywidth = chart_ytick_width(cr, &f->ya), used[MAXTICKS][2];
    int i, pass, nused;

    axis_ticks(&f->xa, &tx);
    axis_ticks(&f->ya, &ty);
    cairo_save(cr);
    cairo_set_line_width(cr, 1.0);
    /* Minor grid first, so the major lines lie on top of it. */
    for (pass = 0; pass < 2; pass++) {
        set_rgb(cr, pass ? grid_major : grid_minor);
        for (i = 0; i < tx.n; i++)
            if (tx.major[i] == pass) {
                double x = chart_px(f, tx.v[i]);
                cairo_move_to(cr, x, f->y);
                cairo_line_to(cr, x, f->y + f->h);
            }
        for (i = 0; i < ty.n; i++)
            if (ty.major[i] == pass) {
                double y = chart_py(f, ty.v[i]);
                cairo_move_to(cr, f->x, y);
                cairo_line_to(cr, f->x + f->w, y);
            }
        cairo_stroke(cr);
    }
    set_rgb(cr, grey);
    cairo_rectangle(cr, f->x, f->y, f->w, f->h);
    cairo_stroke(cr);
    for (i = 0; i < tx.n; i++) {
        double x = chart_px(f, tx.v[i]), len = tx.major[i] ? 5 : 3;
        cairo_move_to(cr, x, f->y + f->h);
        cairo_line_to(cr, x, f->y + f->h + len);
    }
    for (i = 0; i < ty.n; i++) {
        double y = chart_py(f, ty.v[i]), len = ty.major[i] ? 5 : 3;
        cairo_move_to(cr, f->x, y);
        cairo_line_to(cr, f->x - len, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);

    chart_font(cr, 11.5, 0);
    /* The major ticks come first: a minor label that would touch one
     * already written (on a narrow chart) is left out. */
    for (i = 0, nused = 0; i < tx.n; i++)
        if (tx.label[i]) {
            double x = chart_px(f, tx.v[i]), w;
            tick_label(&f->xa, tx.v[i], buf, sizeof buf);
            w = chart_text_width(cr, buf);
            if (!label_room(used, &nused, x - w / 2 - 3, x + w / 2 + 3))
                continue;
            chart_text(cr, x, f->y + f->h + 19, CHART_CENTER, CHART_BASELINE, ink, buf);
        }
    for (i = 0, nused = 0; i < ty.n; i++)
        if (ty.label[i]) {
            double y = chart_py(f, ty.v[i]);
            if (!label_room(used, &nused, y - 8, y + 8))
                continue;
            tick_label(&f->ya, ty.v[i], buf, sizeof buf);
            chart_text(cr, f->x - 8, y, CHART_RIGHT, CHART_MIDDLE, ink, buf);
        }
    chart_font(cr, 13, 0);
    if (f->xa.label)
        chart_text(cr, f->x + f->w / 2, f->y + f->h + 40, CHART_CENTER, CHART_BASELINE, ink,
                   f->xa.label);
    if (f->ya.label) {
        cairo_save(cr);
        cairo_translate(cr, f->x - ywidth - 18, f->y + f->h / 2);
        cairo_rotate(cr, -PI / 2);
        chart_text(cr, 0, 0, CHART_CENTER, CHART_BASELINE, ink, f->ya.label);
        cairo_restore(cr);
    }
}

void chart_clip(cairo_t *cr, const chart_frame *f)
{
    cairo_save(cr);
    cairo_rectangle(cr, f->x, f->y, f->w, f->h);
    cairo_clip(cr);
}

/* ---- marks --------------------------------------------------------------- */

void chart_marker(cairo_t *cr, chart_shape s, double x, double y, double r, chart_rgb c, int hollow)
{
    chart_rgb edge = chart_mix(c, oi[CHART_BLACK], 0.35);
    cairo_save(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_new_path(cr);
    switch (s) {
    case CHART_SQUARE:
        cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
        break;
    case CHART_TRIANGLE:
        cairo_move_to(cr, x, y - r * 1.15);
        cairo_line_to(cr, x + r, y + r * 0.7);
        cairo_line_to(cr, x - r, y + r * 0.7);
        cairo_close_path(cr);
        break;
    case CHART_DOWN:
        cairo_move_to(cr, x, y + r * 1.15);
        cairo_line_to(cr, x + r, y - r * 0.7);
        cairo_line_to(cr, x - r, y - r * 0.7);
        cairo_close_path(cr);
        break;
    case CHART_DIAMOND:
        cairo_move_to(cr, x, y - r * 1.2);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r * 1.2);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        break;
    case CHART_CROSS: {
        /* A plus sign drawn as a filled outline, so it can be hollow too. */
        double a = r * 0.38;
        cairo_move_to(cr, x - a, y - r);
        cairo_line_to(cr, x + a, y - r);
        cairo_line_to(cr, x + a, y - a);
        cairo_line_to(cr, x + r, y - a);
        cairo_line_to(cr, x + r, y + a);
        cairo_line_to(cr, x + a, y + a);
        cairo_line_to(cr, x + a, y + r);
        cairo_line_to(cr, x - a, y + r);
        cairo_line_to(cr, x - a, y + a);
        cairo_line_to(cr, x - r, y + a);
        cairo_line_to(cr, x - r, y - a);
        cairo_line_to(cr, x - a, y - a);
        cairo_close_path(cr);
        break;
    }
    default:
        cairo_arc(cr, x, y, r, 0, 2 * PI);
        cairo_close_path(cr);
        break;
    }
    if (hollow) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        set_rgb(cr, c);
        cairo_set_line_width(cr, 1.6);
    } else {
        set_rgb(cr, c);
        cairo_fill_preserve(cr);
        set_rgb(cr, edge);
        cairo_set_line_width(cr, 0.8);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

void chart_set_dash(cairo_t *cr, chart_dash d, double width)
{
    double pat[4];
    int n = 0;
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    switch (d) {
    case CHART_DASHED:
        pat[0] = 6 * width;
        pat[1] = 3.5 * width;
        n = 2;
        break;
    case CHART_DOTTED:
        /* Round dots: zero-length dashes with round caps. */
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        pat[0] = 0;
        pat[1] = 2.6 * width;
        n = 2;
        break;
    case CHART_DASHDOT:
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        pat[0] = 7 * width;
        pat[1] = 2.5 * width;
        pat[2] = 0;
        pat[3] = 2.5 * width;
        n = 4;
        break;
    default:
        break;
    }
    cairo_set_dash(cr, pat, n, 0);
}

void chart_polyline(cairo_t *cr, const chart_frame *f, const double *xs, const double *ys, int n,
                    chart_rgb c, double width, chart_dash d)
{
    int i, open = 0;
    cairo_save(cr);
    cairo_new_path(cr);
    for (i = 0; i < n; i++) {
        if (isnan(xs[i]) || isnan(ys[i])) {
            open = 0;
            continue;
        }
        if (open)
            cairo_line_to(cr, chart_px(f, xs[i]), chart_py(f, ys[i]));
        else
            cairo_move_to(cr, chart_px(f, xs[i]), chart_py(f, ys[i]));
        open = 1;
    }
    set_rgb(cr, c);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    chart_set_dash(cr, d, width);
    cairo_stroke(cr);
    cairo_restore(cr);
}

void chart_band(cairo_t *cr, const chart_frame *f, const double *xs, const double *ylo,
                const double *yhi, int n, chart_rgb c, double a)
{
    int i;
    if (n < 2)
        return;
    cairo_save(cr);
    cairo_new_path(cr);
    cairo_move_to(cr, chart_px(f, xs[0]), chart_py(f, yhi[0]));
    for (i = 1; i < n; i++)
        cairo_line_to(cr, chart_px(f, xs[i]), chart_py(f, yhi[i]));
    for (i = n - 1; i >= 0; i--)
        cairo_line_to(cr, chart_px(f, xs[i]), chart_py(f, ylo[i]));
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
    cairo_fill(cr);
    cairo_restore(cr);
}

void chart_vband(cairo_t *cr, const chart_frame *f, double x0, double x1, chart_rgb c, double a)
{
    double p0 = chart_px(f, x0), p1 = chart_px(f, x1);
    cairo_save(cr);
    cairo_rectangle(cr, fmin(p0, p1), f->y, fabs(p1 - p0), f->h);
    cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
    cairo_fill(cr);
    cairo_restore(cr);
}

static void seg(cairo_t *cr, double x0, double y0, double x1, double y1, chart_rgb c, double width,
                chart_dash d)
{
    cairo_save(cr);
    cairo_new_path(cr);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    set_rgb(cr, c);
    cairo_set_line_width(cr, width);
    chart_set_dash(cr, d, width);
    cairo_stroke(cr);
    cairo_restore(cr);
}

void chart_vline(cairo_t *cr, const chart_frame *f, double x, chart_rgb c, double width,
                 chart_dash d)
{
    double p = chart_px(f, x);
    seg(cr, p, f->y, p, f->y + f->h, c, width, d);
}

void chart_hline(cairo_t *cr, const chart_frame *f, double y, chart_rgb c, double width,
                 chart_dash d)
{
    double p = chart_py(f, y);
    seg(cr, f->x, p, f->x + f->w, p, c, width, d);
}

/* ---- legends ------------------------------------------------------------- */

#define KEY_SYMBOL 30.0 /* room for the symbol left of a label */
#define KEY_ROW 18.0
#define KEY_HEADER_GAP 6.0
#define KEY_LINE2 14.0 /* each further line of a wrapped label */
/* A label wraps onto as many lines as it takes, never cut short with "…"
 * (no label of a chart comes near this many lines). */
#define KEY_LINES 8

void chart_legend_size(cairo_t *cr, const chart_key *keys, int n, double max_width, double *w,
                       double *h)
{
    char lines[KEY_LINES][CHART_LINE];
    int i, j, nl;
    *w = 0;
    *h = 0;
    for (i = 0; i < n; i++) {
        int header = keys[i].kind == CHART_KEY_HEADER;
        double room = max_width - (header ? 0 : KEY_SYMBOL);
        chart_font(cr, header ? 12 : 11.5, header);
        nl = chart_wrap(cr, keys[i].label, room, lines, KEY_LINES);
        for (j = 0; j < nl; j++)
            *w = fmax(*w, chart_text_width(cr, lines[j]) + (header ? 0 : KEY_SYMBOL) +
                              (j && !header ? 8 : 0));
        *h += KEY_ROW + (nl > 1 ? nl - 1 : 0) * KEY_LINE2 + (header && i > 0 ? KEY_HEADER_GAP : 0);
    }
}

void chart_legend(cairo_t *cr, double x, double y, const chart_key *keys, int n, double max_width)
{
    char lines[KEY_LINES][CHART_LINE];
    int i, j, nl;
    for (i = 0; i < n; i++) {
        const chart_key *k = &keys[i];
        double cy;
        if (k->kind == CHART_KEY_HEADER) {
            if (i > 0)
                y += KEY_HEADER_GAP;
            chart_font(cr, 12, 1);
            nl = chart_wrap(cr, k->label, max_width, lines, KEY_LINES);
            for (j = 0; j < nl; j++)
                chart_text(cr, x, y + KEY_ROW / 2 + j * KEY_LINE2, CHART_LEFT, CHART_MIDDLE, ink,
                           lines[j]);
            y += KEY_ROW + (nl > 1 ? nl - 1 : 0) * KEY_LINE2;
            continue;
        }
        cy = y + KEY_ROW / 2;
        cairo_save(cr);
        switch (k->kind) {
        case CHART_KEY_SWATCH:
            cairo_rectangle(cr, x + 6, cy - 6, 14, 12);
            set_rgb(cr, k->color);
            cairo_fill(cr);
            break;
        case CHART_KEY_BAND:
            cairo_rectangle(cr, x + 2, cy - 6, 22, 12);
            cairo_set_source_rgba(cr, k->color.r, k->color.g, k->color.b, 0.18);
            cairo_fill(cr);
            seg(cr, x + 2, cy, x + 24, cy, k->color, 1.6, k->dash);
            break;
        case CHART_KEY_LINE:
            seg(cr, x + 1, cy, x + 25, cy, k->color, 2.0, k->dash);
            if (k->shape >= 0)
                chart_marker(cr, (chart_shape)k->shape, x + 13, cy, 4.2, k->color, k->hollow);
            break;
        default:
            chart_marker(cr, (chart_shape)(k->shape >= 0 ? k->shape : 0), x + 13, cy, 4.6, k->color,
                         k->hollow);
            break;
        }
        cairo_restore(cr);
        chart_font(cr, 11.5, 0);
        nl = chart_wrap(cr, k->label, max_width - KEY_SYMBOL, lines, KEY_LINES);
        for (j = 0; j < nl; j++)
            chart_text(cr, x + KEY_SYMBOL + (j ? 8 : 0), cy + j * KEY_LINE2, CHART_LEFT,
                       CHART_MIDDLE, j ? grey : ink, lines[j]);
        y += KEY_ROW + (nl > 1 ? nl - 1 : 0) * KEY_LINE2;
    }
}

/* ---- output -------------------------------------------------------------- */

static int cairo_fail(err *e, const char *path, cairo_status_t st)
{
    return err_set(e, BE_EFAIL, "%s: cairo: %s", path, cairo_status_to_string(st));
}

/* Runs draw on surface s (user units scaled by scale) over a white ground. */
static int draw_on(cairo_surface_t *s, double width, double height, double scale,
                   chart_draw_fn draw, void *ctx, const char *path, err *e)
{
    cairo_font_options_t *fo;
    cairo_status_t st;
    cairo_t *cr = cairo_create(s);
    int rc;

    if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS) {
        cairo_destroy(cr);
        return cairo_fail(e, path, st);
    }
    fo = cairo_font_options_create();
    if ((st = cairo_font_options_status(fo)) == CAIRO_STATUS_SUCCESS) {
        cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
        cairo_set_font_options(cr, fo);
    }
    cairo_font_options_destroy(fo);
    if (st != CAIRO_STATUS_SUCCESS) {
        cairo_destroy(cr);
        return cairo_fail(e, path, st);
    }
    cairo_scale(cr, scale, scale);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_fill(cr);
    rc = draw(cr, width, height, ctx, e);
    if (rc == BE_OK && (st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
        rc = cairo_fail(e, path, st);
    if (rc != BE_OK && rc != BE_EFAIL && rc != BE_EUSAGE)
        rc = BE_EFAIL;
    cairo_destroy(cr);
    return rc;
}

/* Draws on a PNG image surface of (width·scale) × (height·scale) pixels
 * and writes the file to path inside root. */
static int render_to(const char *root, const char *path, double width, double height, double scale,
                     chart_draw_fn draw, void *ctx, err *e)
{
    cairo_status_t st;
    char *png = NULL;
    size_t pnglen = 0;
    int rc;
    cairo_surface_t *s = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, (int)ceil(width * scale - 1e-9), (int)ceil(height * scale - 1e-9));

    if ((st = cairo_surface_status(s)) != CAIRO_STATUS_SUCCESS) {
        rc = cairo_fail(e, path, st);
        goto done;
    }
    rc = draw_on(s, width, height, scale, draw, ctx, path, e);
    if (rc != BE_OK)
        goto done;
    cairo_surface_flush(s);
    /* as png.h writes it: a quarter to a third smaller than Cairo's */
    rc = png_write(cairo_image_surface_get_data(s), cairo_image_surface_get_width(s),
                   cairo_image_surface_get_height(s), cairo_image_surface_get_stride(s), &png,
                   &pnglen, e);
    if (rc == BE_OK)
        rc = fsx_write_in(root, path, png, pnglen, e);
done:
    cairo_surface_destroy(s);
    free(png);
    return rc;
}

int chart_render(const char *root, const char *base, double width, double height, double scale,
                 chart_draw_fn draw, void *ctx, err *e)
{
    char path[4096];

    if (!(width > 0) || !(height > 0) || !(scale > 0) || width * scale > 32767 ||
        height * scale > 32767)
        return err_set(e, BE_EUSAGE, "%s: bad chart size %gx%g at scale %g", base, width, height,
                       scale);
    if (snprintf(path, sizeof path, "%s.png", base) >= (int)sizeof path)
        return err_set(e, BE_EUSAGE, "%s: path too long", base);
    return render_to(root, path, width, height, scale, draw, ctx, e);
}

int chart_measure(double width, chart_draw_fn draw, void *ctx, err *e)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    int rc;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        rc = cairo_fail(e, "chart_measure", cairo_surface_status(s));
    else
        rc = draw_on(s, width, 0.0, 1.0, draw, ctx, "chart_measure", e);
    cairo_surface_destroy(s);
    return rc;
}

int chart_png_size(const char *path, int *width, int *height, err *e)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char h[24];
    long long size;
    size_t n = 0;
    int fd, rc;
    /* a chart in OUT is input too: a FIFO in its place must not hang the
     * report, nor a link lead the read elsewhere */
    if ((rc = infile_openat(AT_FDCWD, path, NULL, INFILE_NOFOLLOW, &fd, &size, e)) < 0)
        return rc;
    while (n < sizeof h) {
        ssize_t r = read(fd, h + n, sizeof h - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    /* The signature, then the IHDR chunk: length, "IHDR", width, height. */
    if (n != sizeof h || memcmp(h, sig, sizeof sig) != 0 || memcmp(h + 12, "IHDR", 4) != 0)
        return err_set(e, BE_EFAIL, "%s: not a PNG file", path);
    *width = (int)(((unsigned long)h[16] << 24 | (unsigned long)h[17] << 16 |
                    (unsigned long)h[18] << 8 | h[19]) &
                   0x7fffffffUL);
    *height = (int)(((unsigned long)h[20] << 24 | (unsigned long)h[21] << 16 |
                     (unsigned long)h[22] << 8 | h[23]) &
                    0x7fffffffUL);
    return BE_OK;
}
