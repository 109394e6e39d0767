/*
 * report_history.c — OUT/history.html (see report_impl.h): per series of
 * history.h (a host, a mode and a pair of devices), its changes, its two
 * charts (drawn in place, and only when what they show changed: a mark in
 * the cache) and its table, one row per run, or per week when the series
 * is long.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "fmt.h"
#include "fsx.h"
#include "query.h"
#include "workload.h"

/* The devices of series s as people name them (q_device_name, in its
 * newest run): "PoCL (CPU)", never the id or the driver's string. */
static void series_names(const hist_series *s, char *base, char *other, size_t size)
{
    const results *r = s->runs[s->nruns - 1];
    q_device_name(r, s->base, base, size);
    q_device_name(r, s->other, other, size);
}

/* Series s's title: "NVIDIA H100 80GB HBM3 against OpenBLAS (16 threads),
 * inference". */
static void series_title(const hist_series *s, char *buf, size_t size)
{
    char base[256], other[256];
    series_names(s, base, other, sizeof base);
    snprintf(buf, size, "%s against %s, %s", other, base, workload_mode_name(s->mode));
}

/* "38 (95% CI 32–44)" as the findings write a width's crossover, or
 * "always", "never" or "—". */
static void cross_cell(const hist_value *v, char *buf, size_t size)
{
    fit_hidden_cross h;
    char ci[128];
    if (v->kind == CROSS_ALWAYS || v->kind == CROSS_NEVER) {
        snprintf(buf, size, "%s", v->kind == CROSS_ALWAYS ? "always" : "never");
        return;
    }
    if (v->kind != CROSS_IN_RANGE) {
        snprintf(buf, size, "\xe2\x80\x94");
        return;
    }
    memset(&h, 0, sizeof h);
    h.kind = v->kind;
    h.batch = v->v;
    h.batch_lo = v->has ? v->lo : 0.0;
    h.batch_hi = v->has ? v->hi : 0.0;
    h.lo_open = v->lo_open;
    h.hi_open = v->hi_open;
    findings_batch_ci(&h, ci, sizeof ci);
    snprintf(buf, size, "%.0f %s", ceil(v->v - 1e-9), ci);
}

static void peak_cell(const hist_value *v, char *buf, size_t size)
{
    char a[48], range[48];
    if (!v->has) {
        snprintf(buf, size, "\xe2\x80\x94");
        return;
    }
    fmt_si(a, sizeof a, v->v * 1e9, 3, "FLOP/s");
    fmt_si_range(range, sizeof range, v->lo * 1e9, v->hi * 1e9);
    snprintf(buf, size, "%s (%s) at %d\xc3\x97%d", a, range, v->hidden, v->batch);
}

/* A series longer than this gets one row per week in its table (see
 * history_row): a year of nightly runs stays a page one reads. */
#define HIST_TABLE_RUNS 120

/* What week_of returns for a time that is no date. */
#define NO_WEEK (-1L)

/* The week of an ISO 8601 time: days since 1970-01-01 (Monday 1969-12-29
 * starts week 0) over 7, or NO_WEEK. */
static long week_of(const char *iso)
{
    int y, m, d;
    long era, yoe, doy, doe;
    if (sscanf(iso, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
        return NO_WEEK;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (era * 146097 + doe - 719468 + 3) / 7;
}

/* Whether run i of s has its own row: always in a short series; in a long
 * one, the first and newest runs, each run where a change starts or
 * whose setup differs from the run before, and the newest run of each
 * week. */
static int history_row(const hist_series *s, int i)
{
    int j;
    if (s->nruns <= HIST_TABLE_RUNS || i == 0 || i == s->nruns - 1)
        return 1;
    if (strcmp(s->label[i], "nothing") != 0)
        return 1;
    for (j = 0; j < s->nchanges; j++)
        if (s->changes[j].at == i)
            return 1;
    return week_of(s->runs[i]->prov.started) != week_of(s->runs[i + 1]->prov.started);
}

/* The table under a series' charts: one row per run, or per week (see
 * history_row). */
static void history_table(xmlNodePtr parent, const hist_series *s, int first_table)
{
    static const char *const first[] = {"#", "Run"};
    xmlNodePtr t = site_add(parent, "table", NULL), head, row, c;
    char buf[400], title[600], cap[1400], base[256], other[256];
    int i, w;
    /* the pair named in the caption: a page of several series never
     * repeats one */
    series_title(s, title, sizeof title);
    snprintf(cap, sizeof cap, "Each run of %s, oldest first%s%s.", title,
             s->nruns > HIST_TABLE_RUNS
                 ? ", one row per week (the newest run of the week: # counts every run) and a "
                   "row of its own for each run where a change starts or the setup changed"
                 : "",
             first_table ? "" : ", read as the first table");
    /* what the cells are, once a page */
    if (first_table)
        fmt_append(cap, sizeof cap,
                   " A cell gives the crossover batch of the resident time at a hidden width with "
                   "its 95%% interval (always: the other device won at every batch measured; "
                   "never: at none). Then each device's peak throughput, with the interval of "
                   "that point's median, and what changed since the previous run.");
    if (s->nruns > HIST_TABLE_RUNS)
        fmt_append(cap, sizeof cap,
                   " The charts above show every run; the archive lists them all.");
    site_attr(t, "caption", cap);
    head = site_head(t, first, 2);
    for (w = 0; w < s->nwidths; w++) {
        snprintf(buf, sizeof buf, "hidden %d", s->hidden[w]);
        site_add(head, "th", buf);
    }
    series_names(s, base, other, sizeof base);
    snprintf(buf, sizeof buf, "%s peak", base);
    site_add(head, "th", buf);
    snprintf(buf, sizeof buf, "%s peak", other);
    site_add(head, "th", buf);
    site_add(head, "th", "What changed");
    for (i = 0; i < s->nruns; i++) {
        const results *r = s->runs[i];
        if (!history_row(s, i))
            continue;
        row = site_add(t, "row", NULL);
        snprintf(buf, sizeof buf, "%d", i + 1);
        site_add(row, "td", buf);
        c = site_add(row, "td", r->prov.id);
        site_attrf(c, "href", "runs/%s/index.html", r->prov.id);
        fmt_date(buf, sizeof buf, r->prov.started);
        site_attr(c, "date", buf);
        for (w = 0; w < s->nwidths; w++) {
            cross_cell(&s->cross[(size_t)i * (size_t)s->nwidths + (size_t)w], buf, sizeof buf);
            site_add(row, "td", buf);
        }
        peak_cell(&s->peak[0][i], buf, sizeof buf);
        site_add(row, "td", buf);
        peak_cell(&s->peak[1][i], buf, sizeof buf);
        site_add(row, "td", buf);
        c = site_add(row, "td", i ? s->label[i] : "first run");
        site_attr(c, "class", "text");
    }
}

/* Draws series s's two charts into OUT/history/ unless they show what
 * they showed (the mark of its runs' results, its title and this build),
 * and adds them. */
static int history_charts(const report_ctx *x, xmlNodePtr sn, const hist_series *s,
                          const char *title, err *e)
{
    char dir[PATHMAX], base[PATHMAX], peak[PATHMAX], href[300], alt[600], text[1200];
    char bname[256], oname[256];
    char mark[sizeof s->anchor + 16];
    const char *bases[2] = {base, peak};
    cache_hasher h;
    cache_key k;
    int rc, i;
    xmlNodePtr c;
    snprintf(dir, sizeof dir, "%s/history", x->o->out);
    if ((rc = fsx_mkdirs_in(x->o->out, dir, e)) < 0)
        return rc;
    snprintf(base, sizeof base, "%s/%s-crossover", dir, s->anchor);
    snprintf(peak, sizeof peak, "%s/%s-peak", dir, s->anchor);
    snprintf(mark, sizeof mark, "history-%s", s->anchor);
    cache_hash_init(&h);
    cache_hash_str(&h, title);
    for (i = 0; i < s->nruns; i++)
        cache_hash_str(&h, x->key[s->arch[i]].hex);
    cache_hash_end(&h, &k);
    if (x->o->full || !report_charts_exist(bases, 2) || !cache_mark_same(x->o->out, mark, &k)) {
        if ((rc = figure_history_cross(s, title, x->o->out, base, e)) < 0 ||
            (rc = figure_history_peak(s, title, x->o->out, peak, e)) < 0 ||
            (rc = cache_mark_save(x->o->out, mark, &k, e)) < 0)
            return rc;
    }
    c = site_add(sn, "chart", NULL);
    snprintf(href, sizeof href, "history/%s-crossover", s->anchor);
    report_chart_links(c, base, href);
    snprintf(alt, sizeof alt,
             "Chart: the crossover batch per hidden width over the runs of %s, with 95%% "
             "interval bands and the detected changes.",
             title);
    site_attr(c, "alt", alt);
    series_names(s, bname, oname, sizeof bname);
    snprintf(text, sizeof text,
             "From what batch %s beats %s (%s, resident data), run by run, oldest first; a band "
             "is the 95%% interval, a dashed line a detected change.",
             oname, bname, workload_mode_name(s->mode));
    site_add(c, "p", text);
    c = site_add(sn, "chart", NULL);
    snprintf(href, sizeof href, "history/%s-peak", s->anchor);
    report_chart_links(c, peak, href);
    snprintf(alt, sizeof alt, "Chart: the peak throughput of both devices over the runs of %s.",
             title);
    site_attr(c, "alt", alt);
    snprintf(text, sizeof text,
             "The fastest point of %s and of %s in %s, run by run (FLOP/s of the whole stack), "
             "with the 95%% interval of its median step time.",
             oname, bname, workload_mode_name(s->mode));
    site_add(c, "p", text);
    return BE_OK;
}

/* The runs a device's level leaves out, named: those whose host's CPUs
 * were a cache apart (history.c: no level of a device on them). */
static void history_left_out(xmlNodePtr sn, const hist_series *s)
{
    char buf[1600], bname[256], oname[256];
    int d, k, n;
    for (d = 0; d < 2; d++) {
        if (!s->level[d] || s->nlevel[d] < 3)
            continue;
        series_names(s, bname, oname, sizeof bname);
        snprintf(buf, sizeof buf,
                 "Left out of %s's run-level step time, as the host's CPUs were a cache apart "
                 "while they ran (it can be up to \xc3\x97%.1f slower for that alone): ",
                 d ? oname : bname, COMPARE_APART_REACH);
        for (k = 0, n = 0; k < s->nruns; k++)
            if (!s->level[d][k].has)
                fmt_append(buf, sizeof buf, "%s#%d %s", n++ ? ", " : "", k + 1,
                           s->runs[k]->prov.id);
        fmt_append(buf, sizeof buf, ".");
        if (n)
            site_add(sn, "left-out", buf);
    }
}

static int annotate_history(const report_ctx *x, xmlNodePtr *out, err *e)
{
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), hn = NULL, sn;
    const char *host = NULL;
    char title[1200], buf[800];
    int i, j, rc;
    *out = a;
    site_add(a, "title", "History: how each answer moved over the runs");
    /* what a link preview says: the lead's first sentence, not a change's
     * whole story */
    snprintf(buf, sizeof buf,
             "%d run%s, %d series (one per host, mode and pair of devices): how each answer "
             "moved.",
             x->a.n, x->a.n == 1 ? "" : "s", x->h.n);
    site_add(a, "summary", buf);
    fmt_append(buf, sizeof buf,
               " A change is a step in a series that at least %d runs on each "
               "side show.",
               CHG_MIN_SIDE);
    site_add(a, "intro", buf);
    /* how, apart from the lead: the method's paragraph */
    snprintf(buf, sizeof buf,
             "A change is found by E-divisive means on the logarithms, and kept when the step's "
             "95%% interval excludes no change and its size exceeds %.0f%%. Each side's "
             "uncertainty is never below what its runs' own intervals give, so that one noisy "
             "run is never a change.",
             100.0 * CHG_NOISE);
    site_add(a, "method", buf);
    for (i = 0; i < x->h.n; i++) {
        const hist_series *s = &x->h.s[i];
        if (!host || strcmp(host, s->host) != 0) {
            host = s->host;
            hn = site_add(a, "host", NULL);
            site_attr(hn, "name", host);
        }
        sn = site_add(hn, "series", NULL);
        series_title(s, title, sizeof title);
        site_attr(sn, "anchor", s->anchor);
        site_attr(sn, "title", title);
        site_attrf(sn, "runs", "%d", s->nruns);
        for (j = 0; j < s->nchanges; j++) {
            xmlNodePtr c = site_add(sn, "change", s->changes[j].text);
            site_attrf(c, "href", "runs/%s/index.html", s->runs[s->changes[j].at]->prov.id);
        }
        history_left_out(sn, s);
        if ((rc = history_charts(x, sn, s, title, e)) < 0)
            return rc;
        history_table(sn, s, i == 0);
    }
    return BE_OK;
}

/* OUT/history.html and its charts. */
int report_render_history(report_ctx *x, err *e)
{
    char p[PATHMAX];
    xmlNodePtr a;
    xmlDocPtr doc;
    int rc;
    if ((rc = annotate_history(x, &a, e)) < 0) {
        xmlFreeNode(a);
        return rc;
    }
    doc = site_page(&x->s, "history", a, "history.html", "style.css", "index.html", "feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s/history.html", x->o->out);
    return report_put_page(&x->s, &x->box, x->s.history_xsl, doc, p, e);
}
