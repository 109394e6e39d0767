/*
 * report.c — the report, the archive, the comparisons and the feed (see
 * report.h).
 *
 * This is the last stage of the one-way flow: results files in, static
 * files out.  For each page a document is assembled in memory —
 * <page> holding the site settings, the links of the page, a copy of the
 * run's <breakeven-results> as loaded from disk, and an <annotation> of the
 * facts derived here (which charts exist and what each shows in words, the
 * tables of times, the warnings, the archive, the comparison with the
 * previous run) — and an XSLT 1.0 stylesheet from templates/ turns it into
 * HTML.  Strings only ever enter the tree as text or attribute values, so
 * a device called "<script>" comes out escaped.  The feed is built the same
 * way from a <feed> document whose items carry each report's body,
 * serialized to a string, as text: libxml2 escapes it, so no CDATA section
 * (and no "]]>" in one) is ever involved.
 *
 * Writing happens after everything is rendered in memory, run pages first,
 * OUT/index.html and OUT/feed.xml last, each file atomically: a failure on
 * the way leaves the previous index and feed as they were.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxslt/transform.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "figure.h"
#include "fit.h"
#include "fsx.h"
#include "version.h"
#include "workload.h"

#include "datadir.h"

#define PATHMAX 4096
#define CHART_KINDS 5

static const char *const chart_kinds[CHART_KINDS] = {"throughput", "speed-ratio", "winner-map",
                                                     "relative-time", "cost"};

/* ---- small helpers ---------------------------------------------------- */

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Appends printf-style text to buf[0..size). */
static void cat(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* "96 M" → "96 MFLOP"-ready text: v with an SI prefix and a space. */
static void si(double v, const char *unit, char *buf, size_t size)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P"};
    int k = 0;
    while (fabs(v) >= 1000.0 && k < 5) {
        v /= 1000.0;
        k++;
    }
    snprintf(buf, size, "%.3g %s%s", v, pre[k], unit);
}

/* A step time with a readable unit. */
static void fmt_time(double s, char *buf, size_t size)
{
    if (s < 1e-3)
        snprintf(buf, size, "%.3g µs", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else
        snprintf(buf, size, "%.3g s", s);
}

/* "2026-11-22T03:18:31Z" → broken-down UTC; 0 when it does not parse. */
static int parse_iso(const char *iso, int *y, int *mo, int *d, int *h, int *mi, int *s)
{
    return sscanf(iso, "%d-%d-%dT%d:%d:%d", y, mo, d, h, mi, s) == 6 && *mo >= 1 && *mo <= 12;
}

static const char *const month_names[12] = {"January", "February", "March", "April", "May", "June",
                                            "July", "August", "September", "October",
                                            "November", "December"};

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static long days_from_civil(int y, int m, int d)
{
    long era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* RFC 822 date of an ISO time: "Sun, 22 Nov 2026 03:18:31 +0000". */
static void rfc822(const char *iso, char *buf, size_t size)
{
    static const char *const wd[7] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
    int y, mo, d, h, mi, s;
    long days;
    if (!parse_iso(iso, &y, &mo, &d, &h, &mi, &s)) {
        y = 1970, mo = 1, d = 1, h = mi = s = 0;
    }
    days = days_from_civil(y, mo, d);
    snprintf(buf, size, "%s, %02d %.3s %04d %02d:%02d:%02d +0000", wd[((days % 7) + 7) % 7], d,
             month_names[mo - 1], y, h, mi, s);
}

/* "22 November 2026, 03:18 UTC". */
static void human_date(const char *iso, char *buf, size_t size)
{
    int y, mo, d, h, mi, s;
    if (parse_iso(iso, &y, &mo, &d, &h, &mi, &s))
        snprintf(buf, size, "%d %s %d, %02d:%02d UTC", d, month_names[mo - 1], y, h, mi);
    else
        snprintf(buf, size, "%s", iso);
}

/* A run id is used as a directory and file name: no "/", no leading dot. */
static int safe_id(const char *id)
{
    const char *p;
    if (!id[0] || id[0] == '.')
        return 0;
    for (p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.' || *p == '+'))
            return 0;
    return 1;
}

/* ---- where the templates are ----------------------------------------- */

static int has_data(const char *dir)
{
    char p[PATHMAX];
    snprintf(p, sizeof p, "%s/templates/run.xsl", dir);
    return exists(p);
}

int report_data_dir(const char *data_dir, char *buf, size_t size, err *e)
{
    const char *env = getenv("BREAKEVEN_DATA");
    char exe[PATHMAX];
    ssize_t n;

    if (data_dir && *data_dir) {
        if (!has_data(data_dir))
            return err_set(e, BE_EFAIL, "%s: no templates/run.xsl there", data_dir);
        snprintf(buf, size, "%s", data_dir);
        return BE_OK;
    }
    if (env && *env) {
        if (!has_data(env))
            return err_set(e, BE_EFAIL, "BREAKEVEN_DATA=%s: no templates/run.xsl there", env);
        snprintf(buf, size, "%s", env);
        return BE_OK;
    }
    /* the build tree first, so that ./breakeven never picks up the
     * templates of an older installed copy */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (has_data(exe)) {
                snprintf(buf, size, "%s", exe);
                return BE_OK;
            }
        }
    }
    if (has_data(BE_DATADIR)) {
        snprintf(buf, size, "%s", BE_DATADIR);
        return BE_OK;
    }
    return err_set(e, BE_EFAIL, "templates not found: tried $BREAKEVEN_DATA, the executable's "
                   "directory and %s (set BREAKEVEN_DATA to the directory holding templates/ "
                   "and assets/)", BE_DATADIR);
}

/* ---- charts -------------------------------------------------------------- */

static int has_mode(const results *r, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m)
            return 1;
    return 0;
}

int report_charts(const results *r, const char *dir, int *count, err *e)
{
    int m, k, rc;
    *count = 0;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        if (!has_mode(r, (wl_mode)m))
            continue;
        for (k = 0; k < CHART_KINDS; k++) {
            char base[PATHMAX];
            snprintf(base, sizeof base, "%s/%s-%s", dir, chart_kinds[k],
                     workload_mode_name((wl_mode)m));
            switch (k) {
            case 0: rc = figure_throughput(r, &r->fit, (wl_mode)m, base, e); break;
            case 1: rc = figure_speed_ratio(r, &r->fit, (wl_mode)m, base, e); break;
            case 2: rc = figure_winner_map(r, &r->fit, (wl_mode)m, base, e); break;
            case 3: rc = figure_relative_time(r, (wl_mode)m, NULL, 0, base, e); break;
            default:
                if (r->prices.n == 0 || fit_price(&r->prices, r->devices[figure_base_device(r)].id) <= 0)
                    continue;
                rc = figure_cost(r, &r->prices, (wl_mode)m, NULL, 0, base, e);
                break;
            }
            if (rc < 0)
                return rc;
            ++*count;
        }
    }
    return BE_OK;
}

/* Draws the charts of a run whose directory lacks them (results copied
 * from another machine without its pictures). */
static int ensure_charts(const results *r, const char *dir, err *e)
{
    int m, n;
    char p[PATHMAX];
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        if (!has_mode(r, (wl_mode)m))
            continue;
        snprintf(p, sizeof p, "%s/relative-time-%s.png", dir, workload_mode_name((wl_mode)m));
        if (!exists(p))
            return report_charts(r, dir, &n, e);
    }
    return BE_OK;
}

/* ---- CSV ------------------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->oom)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void sb_field(sbuf *b, const char *v)
{
    const char *p;
    if (!strpbrk(v, ",\"\r\n")) {
        sb_add(b, "%s,", v);
        return;
    }
    sb_add(b, "\"");
    for (p = v; *p; p++)
        sb_add(b, *p == '"' ? "\"\"" : "%c", *p);
    sb_add(b, "\",");
}

int report_csv(const results *r, char **csv, size_t *len, err *e)
{
    sbuf b = {0};
    int i;
    sb_add(&b, "run,host,device,device_type,device_name,mode,layers,hidden,batch,"
               "flops_per_layer,status,samples,median_s,ci_lo_s,ci_hi_s,p10_s,p90_s,"
               "gflops,transfer_median_s,transfer_gflops,drift\r\n");
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const device_info *d = results_device(r, p->device);
        sb_field(&b, r->prov.id);
        sb_field(&b, r->prov.host);
        sb_field(&b, p->device);
        sb_field(&b, d ? d->type : "");
        sb_field(&b, d ? d->name : "");
        sb_add(&b, "%s,%d,%d,%d,%.17g,%s,", workload_mode_name(p->mode), p->layers, p->hidden,
               p->batch, p->flops_per_layer, results_status_name(p->status));
        if (p->status == PT_OK && p->resident.n > 0) {
            const stats_summary *s = &p->resident;
            sb_add(&b, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,", s->n, s->median, s->ci_lo, s->ci_hi,
                   s->p10, s->p90, results_gflops(p, s->median));
            if (p->has_transfer && p->transfer.n > 0)
                sb_add(&b, "%.9g,%.6g,", p->transfer.median,
                       results_gflops(p, p->transfer.median));
            else
                sb_add(&b, ",,");
            sb_add(&b, "%s\r\n", s->drift ? "yes" : "no");
        } else {
            sb_add(&b, "0,,,,,,,,,\r\n");
        }
    }
    if (b.oom) {
        free(b.s);
        return err_set(e, BE_EFAIL, "CSV of %s: out of memory", r->prov.id);
    }
    *csv = b.s;
    *len = b.len;
    return BE_OK;
}

/* ---- the runs ------------------------------------------------------------- */

typedef struct run {
    results *r;
    char src[PATHMAX];      /* the results.xml loaded                      */
    char dir[PATHMAX];      /* OUT/runs/<id>                               */
    int imported;           /* loaded from outside OUT/runs/<id>/          */
    int prev;               /* the previous run on the same host, or −1    */
    int has_cmp;
    compare_set cmp;        /* with prev, when has_cmp                     */
    char cmp_note[400];     /* why there is no comparison                  */
} run;

typedef struct runset {
    int n;
    run *v;                 /* sorted by start time, oldest first          */
} runset;

static void runset_free(runset *s)
{
    int i;
    for (i = 0; i < s->n; i++) {
        results_free(s->v[i].r);
        compare_free(&s->v[i].cmp);
    }
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

/* The results.xml of a run given by id (under OUT/runs/), by directory or
 * by file. */
static int resolve(const char *out, const char *arg, char *path, size_t size, err *e)
{
    if (is_dir(arg)) {
        snprintf(path, size, "%s/results.xml", arg);
    } else if (exists(arg)) {
        snprintf(path, size, "%s", arg);
    } else {
        if (strchr(arg, '/') || !safe_id(arg))
            return err_set(e, BE_EFAIL, "%s: no such run (neither a run id nor a file)", arg);
        snprintf(path, size, "%s/runs/%s/results.xml", out, arg);
    }
    if (!exists(path))
        return err_set(e, BE_EFAIL, "run \"%s\": %s does not exist", arg, path);
    return BE_OK;
}

static int load_run(const char *out, const char *path, run *u, err *e)
{
    char real_src[PATHMAX], real_dir[PATHMAX], *slash;
    int rc;
    memset(u, 0, sizeof *u);
    u->prev = -1;
    snprintf(u->src, sizeof u->src, "%s", path);
    if ((rc = results_load(path, &u->r, e)) < 0)
        return rc;
    if (!safe_id(u->r->prov.id))
        return err_set(e, BE_EFAIL, "%s: run id \"%s\" cannot be a directory name", path,
                       u->r->prov.id);
    snprintf(u->dir, sizeof u->dir, "%s/runs/%s", out, u->r->prov.id);
    if (!realpath(path, real_src))
        return err_set(e, BE_EFAIL, "%s: %s", path, strerror(errno));
    slash = strrchr(real_src, '/');
    if (slash)
        *slash = '\0';
    u->imported = !realpath(u->dir, real_dir) || strcmp(real_dir, real_src) != 0;
    return BE_OK;
}

static int by_start(const void *x, const void *y)
{
    const run *a = x, *b = y;
    int c = strcmp(a->r->prov.started, b->r->prov.started);
    return c ? c : strcmp(a->r->prov.id, b->r->prov.id);
}

static int load_runs(const report_opts *o, runset *s, err *e)
{
    char runs[PATHMAX], path[PATHMAX];
    int i, cap = 16, rc;
    DIR *d = NULL;

    memset(s, 0, sizeof *s);
    if (o->nruns > 0)
        cap = o->nruns;
    s->v = calloc((size_t)cap, sizeof *s->v);
    if (!s->v)
        return err_set(e, BE_EFAIL, "out of memory");
    if (o->nruns > 0) {
        for (i = 0; i < o->nruns; i++) {
            if ((rc = resolve(o->out, o->runs[i], path, sizeof path, e)) < 0 ||
                (rc = load_run(o->out, path, &s->v[s->n++], e)) < 0)
                goto fail;
        }
    } else {
        struct dirent *de;
        snprintf(runs, sizeof runs, "%s/runs", o->out);
        d = opendir(runs);
        if (!d) {
            rc = err_set(e, BE_EUSAGE, "%s: no runs to report (%s); run `breakeven run` first",
                         runs, strerror(errno));
            goto fail;
        }
        while ((de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s/results.xml", runs, de->d_name);
            if (!exists(path))
                continue;
            if (s->n == cap) {
                run *v = realloc(s->v, (size_t)cap * 2 * sizeof *v);
                if (!v) {
                    rc = err_set(e, BE_EFAIL, "out of memory");
                    goto fail;
                }
                s->v = v;
                cap *= 2;
            }
            if ((rc = load_run(o->out, path, &s->v[s->n++], e)) < 0)
                goto fail;
        }
        closedir(d);
        d = NULL;
    }
    if (s->n == 0) {
        rc = err_set(e, BE_EUSAGE, "%s/runs: no results.xml to report; run `breakeven run` first",
                     o->out);
        goto fail;
    }
    for (i = 0; i < s->n; i++) {
        int j;
        for (j = i + 1; j < s->n; j++)
            if (strcmp(s->v[i].r->prov.id, s->v[j].r->prov.id) == 0) {
                rc = err_set(e, BE_EUSAGE, "%s and %s are the same run (%s)", s->v[i].src,
                             s->v[j].src, s->v[i].r->prov.id);
                goto fail;
            }
    }
    qsort(s->v, (size_t)s->n, sizeof *s->v, by_start);
    for (i = 0; i < s->n; i++) {
        int j;
        for (j = i - 1; j >= 0; j--)
            if (strcmp(s->v[j].r->prov.host, s->v[i].r->prov.host) == 0) {
                s->v[i].prev = j;
                break;
            }
    }
    return BE_OK;
fail:
    if (d)
        closedir(d);
    runset_free(s);
    return rc;
}

/* Makes OUT/runs/<id>/ hold the run: its results file (when it came from
 * elsewhere) and its charts. */
static int place_run(run *u, err *e)
{
    char p[PATHMAX];
    int rc;
    if ((rc = fsx_mkdirs(u->dir, e)) < 0)
        return rc;
    if (u->imported) {
        snprintf(p, sizeof p, "%s/results.xml", u->dir);
        if ((rc = results_save(u->r, p, e)) < 0)
            return rc;
        snprintf(u->src, sizeof u->src, "%s", p);
        u->imported = 0;
    }
    return ensure_charts(u->r, u->dir, e);
}

/* ---- the annotation: facts in words ----------------------------------- */

static xmlNodePtr add(xmlNodePtr parent, const char *name, const char *text)
{
    return xmlNewTextChild(parent, NULL, BAD_CAST name, text ? BAD_CAST text : NULL);
}

static void attr(xmlNodePtr n, const char *name, const char *value)
{
    xmlSetProp(n, BAD_CAST name, BAD_CAST value);
}

static void attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    attr(n, name, buf);
}

static const rs_point *find_point(const results *r, const char *dev, wl_mode mode, int hidden,
                                  int batch)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == mode && p->hidden == hidden && p->batch == batch &&
            strcmp(p->device, dev) == 0)
            return p;
    }
    return NULL;
}

static int ok(const rs_point *p)
{
    return p && p->status == PT_OK && p->resident.n > 0 && p->resident.median > 0;
}

static const fit_crossover *find_cross(const results *r, const char *other, wl_mode m,
                                       fit_view v, int cost)
{
    int i;
    if (!r->has_fit)
        return NULL;
    for (i = 0; i < r->fit.ncross; i++) {
        const fit_crossover *c = &r->fit.cross[i];
        if (c->mode == m && c->view == v && c->cost == cost && strcmp(c->other, other) == 0)
            return c;
    }
    return NULL;
}

/* What the throughput chart shows: each device's best measured speed and
 * its fitted peak. */
static void say_throughput(const results *r, wl_mode m, char *buf, size_t size)
{
    int d, i;
    buf[0] = '\0';
    cat(buf, size, "Throughput of the whole stack against the work per layer, log–log; "
        "higher is faster.");
    for (d = 0; d < r->ndevices; d++) {
        const rs_point *best = NULL;
        const fit_model *fm;
        char g[32], f[32];
        for (i = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (p->mode != m || strcmp(p->device, r->devices[d].id) != 0 || !ok(p))
                continue;
            if (!best || results_gflops(p, p->resident.median) >
                             results_gflops(best, best->resident.median))
                best = p;
        }
        if (!best)
            continue;
        cat(buf, size, " %s peaks at %.3g GFLOP/s (hidden %d, batch %d)", r->devices[d].id,
            results_gflops(best, best->resident.median), best->hidden, best->batch);
        fm = r->has_fit ? fit_find_model(&r->fit, r->devices[d].id, m, FIT_RESIDENT) : NULL;
        if (fm && fm->ok) {
            si(fm->P, "FLOP/s", g, sizeof g);
            si(fm->half_size, "FLOP", f, sizeof f);
            cat(buf, size, "; the fit puts its throughput at %s per layer-step and reaches "
                "half of it at %s per layer", g, f);
        }
        cat(buf, size, ".");
    }
}

/* The measured speed ratio of other against base at every shared shape. */
typedef struct ratio_scan {
    int n, nwin;
    double lo, hi;
    const rs_point *at_hi;
} ratio_scan;

static void scan_ratio(const results *r, const char *base, const char *other, wl_mode m,
                       ratio_scan *s)
{
    int i;
    memset(s, 0, sizeof *s);
    s->lo = INFINITY;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *po = &r->points[i], *pb;
        double q;
        if (po->mode != m || strcmp(po->device, other) != 0 || !ok(po))
            continue;
        pb = find_point(r, base, m, po->hidden, po->batch);
        if (!ok(pb))
            continue;
        q = pb->resident.median / po->resident.median;
        s->n++;
        s->nwin += q > 1.0;
        s->lo = fmin(s->lo, q);
        if (q > s->hi) {
            s->hi = q;
            s->at_hi = po;
        }
    }
}

static void say_ratio(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = figure_base_device(r), d;
    const char *base = r->ndevices ? r->devices[bd].id : "";
    buf[0] = '\0';
    cat(buf, size, "Speed of each device relative to %s (its time divided by theirs); "
        "above 1 the other device is faster.", base);
    for (d = 0; d < r->ndevices; d++) {
        const char *other = r->devices[d].id;
        const fit_crossover *cr = find_cross(r, other, m, FIT_RESIDENT, 0),
                            *ct = find_cross(r, other, m, FIT_TRANSFER, 0);
        ratio_scan s;
        char a[32], b[32];
        if (d == bd)
            continue;
        scan_ratio(r, base, other, m, &s);
        if (s.n == 0) {
            cat(buf, size, " %s has no shape measured on both it and %s.", other, base);
            continue;
        }
        if (s.nwin == 0)
            cat(buf, size, " %s never beat %s in the measured range (at best %.2f× its speed, "
                "at hidden %d, batch %d).", other, base, s.hi, s.at_hi->hidden, s.at_hi->batch);
        else if (s.nwin == s.n)
            cat(buf, size, " %s beat %s at every measured shape (%.2f× to %.2f×).", other, base,
                s.lo, s.hi);
        else
            cat(buf, size, " %s beat %s at %d of %d shapes, by up to %.2f× (hidden %d, batch %d).",
                other, base, s.nwin, s.n, s.hi, s.at_hi->hidden, s.at_hi->batch);
        if (cr && ct && cr->kind <= CROSS_EXTRAPOLATED && ct->kind <= CROSS_EXTRAPOLATED) {
            si(cr->flops, "FLOP", a, sizeof a);
            si(ct->flops, "FLOP", b, sizeof b);
            cat(buf, size, " With transfers counted the crossover moves from %s to %s per layer.",
                a, b);
        } else if (cr && ct && cr->kind <= CROSS_EXTRAPOLATED && ct->kind == CROSS_NEVER) {
            si(cr->flops, "FLOP", a, sizeof a);
            cat(buf, size, " Data resident it wins from about %s per layer; with transfers "
                "counted it never does.", a);
        }
    }
}

static void say_winner(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = figure_base_device(r), d, k;
    const char *base = r->ndevices ? r->devices[bd].id : "";
    buf[0] = '\0';
    cat(buf, size, "Which device wins at each hidden width and batch size: blue cells are "
        "faster than %s, vermillion ones slower, the number is the speed ratio.", base);
    for (d = 0; d < r->ndevices; d++) {
        const fit_crossover *c = find_cross(r, r->devices[d].id, m, FIT_RESIDENT, 0);
        ratio_scan s;
        if (d == bd)
            continue;
        scan_ratio(r, base, r->devices[d].id, m, &s);
        if (s.n)
            cat(buf, size, " %s is faster in %d of %d cells.", r->devices[d].id, s.nwin, s.n);
        if (!c)
            continue;
        for (k = 0; k < c->nhidden; k++)
            if (c->per_hidden[k].kind == CROSS_IN_RANGE)
                cat(buf, size, " At hidden %d it takes over from batch %.0f.",
                    c->per_hidden[k].hidden, c->per_hidden[k].batch);
    }
}

/* Sum of medians over the shapes every device completed, per device. */
static void totals(const results *r, wl_mode m, int transfer, double *tot, int *nshapes)
{
    int i, d;
    memset(tot, 0, sizeof(double) * (size_t)r->ndevices);
    *nshapes = 0;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int all = 1;
        if (p->mode != m || strcmp(p->device, r->devices[0].id) != 0)
            continue;
        for (d = 0; d < r->ndevices; d++)
            all &= ok(find_point(r, r->devices[d].id, m, p->hidden, p->batch));
        if (!all)
            continue;
        ++*nshapes;
        for (d = 0; d < r->ndevices; d++) {
            const rs_point *q = find_point(r, r->devices[d].id, m, p->hidden, p->batch);
            tot[d] += transfer && q->has_transfer ? q->transfer.median : q->resident.median;
        }
    }
}

static void say_relative(const results *r, wl_mode m, int cost, char *buf, size_t size)
{
    int bd = figure_base_device(r), d, n;
    double tot[64];
    buf[0] = '\0';
    if (r->ndevices > 64 || r->ndevices == 0)
        return;
    totals(r, m, 0, tot, &n);
    cat(buf, size, cost ? "Cost of a step relative to %s (time × price per hour); lower is "
                          "cheaper." : "Time of a step relative to %s; lower is better.",
        r->devices[bd].id);
    if (n == 0) {
        cat(buf, size, " No shape was completed by every device.");
        return;
    }
    cat(buf, size, " Over the %d shapes every device completed,", n);
    for (d = 0; d < r->ndevices; d++) {
        double rel = tot[d] / tot[bd];
        if (d == bd)
            continue;
        if (cost) {
            double pb = fit_price(&r->prices, r->devices[bd].id),
                   po = fit_price(&r->prices, r->devices[d].id);
            if (po <= 0 || pb <= 0) {
                cat(buf, size, " %s has no price;", r->devices[d].id);
                continue;
            }
            rel *= po / pb;
        }
        cat(buf, size, " %s %s %.2f× %s of %s;", r->devices[d].id, cost ? "costs" : "takes", rel,
            cost ? "the cost" : "the time", r->devices[bd].id);
    }
    buf[strlen(buf) - 1] = '.';
}

/* One <chart> element, when its PNG exists in dir. */
static void add_chart(xmlNodePtr parent, const char *dir, const char *href_prefix,
                      const char *kind, wl_mode m, const char *alt, const char *text)
{
    char png[PATHMAX], name[128];
    xmlNodePtr c;
    snprintf(name, sizeof name, "%s-%s", kind, workload_mode_name(m));
    snprintf(png, sizeof png, "%s/%s.png", dir, name);
    if (!exists(png))
        return;
    c = add(parent, "chart", NULL);
    attr(c, "kind", kind);
    attrf(c, "png", "%s%s.png", href_prefix, name);
    attrf(c, "svg", "%s%s.svg", href_prefix, name);
    attrf(c, "width", "%.0f", FIGURE_WIDTH);
    attrf(c, "height", "%.0f", FIGURE_HEIGHT);
    attr(c, "alt", alt);
    add(c, "p", text);
}

static void add_table(xmlNodePtr parent, const results *r, wl_mode m)
{
    int hs[LIST_MAX * 4], bs[LIST_MAX * 4], n = 0, i, j, d;
    xmlNodePtr t = add(parent, "table", NULL), head, row;
    char buf[64], cap[256];
    snprintf(cap, sizeof cap, "Median time of one step of %d layers (%s), 95%% CI of the median "
             "within the stated precision; — means out of memory.", r->prov.layers,
             workload_mode_name(m));
    attr(t, "caption", cap);
    head = add(t, "head", NULL);
    add(head, "th", "Hidden");
    add(head, "th", "Batch");
    add(head, "th", "FLOP per layer");
    for (d = 0; d < r->ndevices; d++) {
        char l[400];
        figure_device_label(&r->devices[d], l, sizeof l);
        add(head, "th", l);
        if (strcmp(r->devices[d].kind, "opencl") == 0) {
            snprintf(l, sizeof l, "%s with transfers", r->devices[d].id);
            add(head, "th", l);
        }
    }
    for (i = 0; i < r->npoints && n < LIST_MAX * 4; i++) {
        const rs_point *p = &r->points[i];
        int seen = 0;
        if (p->mode != m)
            continue;
        for (j = 0; j < n; j++)
            seen |= hs[j] == p->hidden && bs[j] == p->batch;
        if (seen)
            continue;
        /* insertion, sorted by hidden then batch */
        for (j = n; j > 0 && (hs[j - 1] > p->hidden ||
                              (hs[j - 1] == p->hidden && bs[j - 1] > p->batch)); j--) {
            hs[j] = hs[j - 1];
            bs[j] = bs[j - 1];
        }
        hs[j] = p->hidden;
        bs[j] = p->batch;
        n++;
    }
    for (i = 0; i < n; i++) {
        row = add(t, "row", NULL);
        snprintf(buf, sizeof buf, "%d", hs[i]);
        add(row, "td", buf);
        snprintf(buf, sizeof buf, "%d", bs[i]);
        add(row, "td", buf);
        si(workload_flops_per_layer(m, hs[i], bs[i]), "", buf, sizeof buf);
        add(row, "td", buf);
        for (d = 0; d < r->ndevices; d++) {
            const rs_point *p = find_point(r, r->devices[d].id, m, hs[i], bs[i]);
            int v, nv = strcmp(r->devices[d].kind, "opencl") == 0 ? 2 : 1;
            for (v = 0; v < nv; v++) {
                xmlNodePtr c;
                if (!p) {
                    c = add(row, "td", "");
                    attr(c, "status", "missing");
                } else if (p->status == PT_OUT_OF_MEMORY) {
                    c = add(row, "td", "—");
                    attr(c, "status", "out-of-memory");
                } else if (!ok(p)) {
                    c = add(row, "td", results_status_name(p->status));
                    attr(c, "status", results_status_name(p->status));
                } else {
                    const stats_summary *s = v && p->has_transfer ? &p->transfer : &p->resident;
                    fmt_time(s->median, buf, sizeof buf);
                    c = add(row, "td", buf);
                    attr(c, "status", s->drift ? "drift" : "ok");
                }
            }
        }
    }
}

/* Warnings: drift, out of memory, failed verification, skipped points. */
static void add_warnings(xmlNodePtr a, const results *r)
{
    char buf[2048];
    int i, k;
    rs_status st;
    if (r->partial)
        add(a, "warning", "This run did not finish (it was interrupted or failed): the "
                          "results are partial.");
    buf[0] = '\0';
    for (i = 0, k = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->status == PT_OK && (p->resident.drift || (p->has_transfer && p->transfer.drift)))
            cat(buf, sizeof buf, "%s%s %s hidden %d batch %d (%+.0f%%)", k++ ? ", " : "",
                p->device, workload_mode_name(p->mode), p->hidden, p->batch,
                100.0 * (p->resident.drift_ratio - 1.0));
    }
    if (k) {
        char w[2300];
        snprintf(w, sizeof w, "Drift: %d point%s got slower while being measured (thermal "
                 "throttling or a busy neighbour), last third against first: %s.", k,
                 k == 1 ? "" : "s", buf);
        add(a, "warning", w);
    }
    for (st = PT_OUT_OF_MEMORY; st <= PT_SKIPPED; st++) {
        buf[0] = '\0';
        for (i = 0, k = 0; i < r->npoints; i++) {
            const rs_point *p = &r->points[i];
            if (p->status == st)
                cat(buf, sizeof buf, "%s%s %s hidden %d batch %d", k++ ? ", " : "", p->device,
                    workload_mode_name(p->mode), p->hidden, p->batch);
        }
        if (k) {
            char w[2300];
            snprintf(w, sizeof w, "%s: %d point%s (%s).",
                     st == PT_OUT_OF_MEMORY ? "Out of memory"
                     : st == PT_FAILED_VERIFICATION ? "Failed verification (never timed)"
                                                    : "Skipped after a device error",
                     k, k == 1 ? "" : "s", buf);
            add(a, "warning", w);
        }
    }
}

static void conclusion(const results *r, wl_mode m, char *buf, size_t size)
{
    int bd = figure_base_device(r), d;
    const char *base = r->ndevices ? r->devices[bd].id : "";
    buf[0] = '\0';
    for (d = 0; d < r->ndevices; d++) {
        const fit_crossover *c = find_cross(r, r->devices[d].id, m, FIT_RESIDENT, 0),
                            *t = find_cross(r, r->devices[d].id, m, FIT_TRANSFER, 0);
        char f[32];
        if (d == bd || !c)
            continue;
        si(c->flops, "FLOP", f, sizeof f);
        switch (c->kind) {
        case CROSS_IN_RANGE:
            cat(buf, size, "For %s on this machine, use %s below about %s per layer and %s "
                "above it%s. ", workload_mode_name(m), base, f, r->devices[d].id,
                t && t->kind != CROSS_IN_RANGE ? ", as long as the data stay on the device" : "");
            break;
        case CROSS_EXTRAPOLATED:
            cat(buf, size, "For %s, %s is the better choice throughout the measured range; the "
                "fit predicts %s would win from about %s per layer, beyond what was measured. ",
                workload_mode_name(m), base, r->devices[d].id, f);
            break;
        case CROSS_NEVER:
            cat(buf, size, "For %s, stay on %s: %s did not beat it and its fitted throughput "
                "is not higher. ", workload_mode_name(m), base, r->devices[d].id);
            break;
        case CROSS_ALWAYS:
            cat(buf, size, "For %s, %s is faster than %s at every size measured%s. ",
                workload_mode_name(m), r->devices[d].id, base,
                t && t->kind != CROSS_ALWAYS ? " with the data resident; count the transfers "
                                               "before moving small batches" : "");
            break;
        default:
            cat(buf, size, "For %s there is no verdict on %s against %s (see the charts). ",
                workload_mode_name(m), r->devices[d].id, base);
            break;
        }
    }
    if (!buf[0])
        cat(buf, size, "Only %s was measured for %s, so there is nothing to choose between.",
            base, workload_mode_name(m));
}

static void setup_text(const results *r, char *buf, size_t size)
{
    const rs_prov *p = &r->prov;
    int d, total = 0, i;
    buf[0] = '\0';
    cat(buf, size, "Measured on %s (%s, %d cores, %.1f GiB, %s, %s) with breakeven %s (%s), "
        "built by %s. The devices:", p->host, p->cpu_model, p->cores, p->memory / 1073741824.0,
        p->os, p->kernel, p->version, p->commit, p->compiler);
    for (d = 0; d < r->ndevices; d++) {
        const device_info *v = &r->devices[d];
        double price = fit_price(&r->prices, v->id);
        cat(buf, size, "%s %s (%s, %s; driver %s, %s)", d ? ";" : "", v->id, v->type, v->name,
            v->driver, v->library);
        if (price > 0)
            cat(buf, size, " at $%.4g per hour", price);
    }
    for (i = 0; i < r->npoints; i++)
        total += r->points[i].nsamples;
    cat(buf, size, ". OpenBLAS %s (core %s, %d threads). Each point is a stack of %d dense "
        "layers y = ReLU(x·W + b) in fp32, verified against a double-precision host reference "
        "before timing, warmed up, then timed step by step until the 95%% confidence interval "
        "of the median was within ±2%% or its share of the %.0f s budget was spent (at least 5 "
        "samples; %d samples in all). Times are medians; the crossovers come from a weighted "
        "fit of t = t0 + f/P per device with a 95%% bootstrap interval; drift is a one-sided "
        "Mann–Whitney test of the last third of the samples against the first.",
        p->blas_version, p->blas_core, p->blas_threads, p->layers, p->budget, total);
}

/* The first answer of a run, for the archive and the feed. */
static void answer_of(const results *r, char *buf, size_t size)
{
    int i;
    buf[0] = '\0';
    for (i = 0; r->has_fit && i < r->fit.ncross; i++)
        if (r->fit.cross[i].view == FIT_RESIDENT && !r->fit.cross[i].cost) {
            snprintf(buf, size, "%s", r->fit.cross[i].sentence);
            return;
        }
    snprintf(buf, size, "%d points measured on %d device%s.", r->npoints, r->ndevices,
             r->ndevices == 1 ? "" : "s");
}

static void title_of(const report_opts *o, const results *r, char *buf, size_t size)
{
    if (o->title && *o->title)
        snprintf(buf, size, "%s", o->title);
    else
        snprintf(buf, size, "CPU or GPU? Dense layers on %s", r->prov.host);
}

/* ---- pages ----------------------------------------------------------- */

typedef struct site {
    const report_opts *o;
    char base[1024];          /* base URL with a trailing "/", or ""       */
    char data[PATHMAX];
    xsltStylesheetPtr run_xsl, compare_xsl, feed_xsl;
    char *css;
    size_t css_len;
} site;

static void add_site(xmlNodePtr page, const site *s)
{
    xmlNodePtr n = add(page, "site", NULL);
    attr(n, "title", s->o->title ? s->o->title : "");
    attr(n, "author", s->o->author ? s->o->author : "");
    attr(n, "base-url", s->base);
    attr(n, "absolute", s->base[0] ? "yes" : "no");
    attrf(n, "generator", "breakeven %s", BE_VERSION);
}

/* The archive of runs, newest first, with links relative to the page
 * (prefix: the way from the page to OUT/). */
static void add_archive(xmlNodePtr a, const runset *rs, int current, const char *prefix)
{
    xmlNodePtr ar = add(a, "archive", NULL);
    int i;
    for (i = rs->n - 1; i >= 0; i--) {
        const results *r = rs->v[i].r;
        char ans[600], date[64];
        xmlNodePtr n = add(ar, "entry", NULL);
        answer_of(r, ans, sizeof ans);
        human_date(r->prov.started, date, sizeof date);
        attrf(n, "href", "%sruns/%s/index.html", prefix, r->prov.id);
        attr(n, "id", r->prov.id);
        attr(n, "host", r->prov.host);
        attr(n, "date", date);
        attr(n, "answer", ans);
        if (i == current)
            attr(n, "current", "yes");
    }
}

/* The annotation of run k of rs.  prefix: from the page to OUT/; chart
 * links get prefix + "runs/<id>/" unless the page is beside them. */
static xmlNodePtr annotate_run(const site *s, const runset *rs, int k, const char *prefix,
                               const char *chart_prefix)
{
    const run *u = &rs->v[k];
    const results *r = u->r;
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), lead, mn, cc;
    char buf[8192], title[1024], date[64], alt[512];
    int m, i;

    title_of(s->o, r, title, sizeof title);
    human_date(r->prov.started, date, sizeof date);
    attr(a, "run", r->prov.id);
    attr(a, "date", date);
    attr(a, "datetime", r->prov.started);
    add(a, "title", title);
    lead = add(a, "lead", NULL);
    for (i = 0; r->has_fit && i < r->fit.ncross; i++)
        if (r->fit.cross[i].view == FIT_RESIDENT)
            add(lead, "p", r->fit.cross[i].sentence);
    if (!r->has_fit)
        add(lead, "p", "This results file has no fit, so no crossover can be given; the "
                       "tables below show the measured times.");
    else if (r->fit.ncross > 0 && r->prices.n == 0)
        add(lead, "p", "No prices were given, so there are no cost figures (run with "
                       "--price DEVICE=USD_PER_HOUR for each device).");
    setup_text(r, buf, sizeof buf);
    add(a, "setup", buf);
    add_warnings(a, r);
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        const char *mode = workload_mode_name((wl_mode)m);
        if (!has_mode(r, (wl_mode)m))
            continue;
        mn = add(a, "mode", NULL);
        attr(mn, "name", mode);
        say_throughput(r, (wl_mode)m, buf, sizeof buf);
        snprintf(alt, sizeof alt, "Chart: throughput in FLOP/s against FLOPs per layer (%s), "
                 "one series per device and hidden width.", mode);
        add_chart(mn, u->dir, chart_prefix, "throughput", (wl_mode)m, alt, buf);
        if (r->ndevices > 1) {
            say_ratio(r, (wl_mode)m, buf, sizeof buf);
            snprintf(alt, sizeof alt, "Chart: speed of each device relative to %s against "
                     "FLOPs per layer (%s), with the crossovers.",
                     r->devices[figure_base_device(r)].id, mode);
            add_chart(mn, u->dir, chart_prefix, "speed-ratio", (wl_mode)m, alt, buf);
            say_winner(r, (wl_mode)m, buf, sizeof buf);
            snprintf(alt, sizeof alt, "Chart: winner map of hidden width against batch size "
                     "(%s), each cell coloured by the faster device.", mode);
            add_chart(mn, u->dir, chart_prefix, "winner-map", (wl_mode)m, alt, buf);
        }
        say_relative(r, (wl_mode)m, 0, buf, sizeof buf);
        snprintf(alt, sizeof alt, "Chart: bars of step time relative to %s (%s), lower is "
                 "better.", r->devices[figure_base_device(r)].id, mode);
        add_chart(mn, u->dir, chart_prefix, "relative-time", (wl_mode)m, alt, buf);
        if (r->prices.n > 0) {
            say_relative(r, (wl_mode)m, 1, buf, sizeof buf);
            snprintf(alt, sizeof alt, "Chart: bars of the cost of a step relative to %s (%s), "
                     "lower is cheaper.", r->devices[figure_base_device(r)].id, mode);
            add_chart(mn, u->dir, chart_prefix, "cost", (wl_mode)m, alt, buf);
        }
        add_table(mn, r, (wl_mode)m);
        conclusion(r, (wl_mode)m, buf, sizeof buf);
        add(mn, "conclusion", buf);
    }
    if (u->has_cmp) {
        char sum[400];
        const results *p = rs->v[u->prev].r;
        cc = add(a, "compare", NULL);
        attrf(cc, "href", "%scompare/%s..%s.html", prefix, p->prov.id, r->prov.id);
        attr(cc, "previous", p->prov.id);
        compare_summary(&u->cmp, sum, sizeof sum);
        attr(cc, "summary", sum);
    } else if (u->cmp_note[0]) {
        cc = add(a, "compare", NULL);
        attr(cc, "note", u->cmp_note);
    }
    add(a, "reproduce", r->prov.command);
    cc = add(a, "files", NULL);
    attrf(cc, "results", "%sresults.xml", chart_prefix);
    attrf(cc, "csv", "%sresults.csv", chart_prefix);
    add_archive(a, rs, k, prefix);
    if (!s->base[0])
        add(a, "note", "The feed of this report uses relative links: regenerate it with "
                       "--base-url URL for feed readers that need absolute ones.");
    return a;
}

/* Applies xsl to doc and serializes the result; *out is the caller's. */
static int transform(xsltStylesheetPtr xsl, xmlDocPtr doc, const char *what, xmlChar **out,
                     int *len, xmlDocPtr *keep, err *e)
{
    xmlDocPtr res = xsltApplyStylesheet(xsl, doc, NULL);
    if (!res)
        return err_set(e, BE_EFAIL, "%s: the template failed", what);
    if (xsltSaveResultToString(out, len, res, xsl) < 0 || !*out) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "%s: cannot serialize the page", what);
    }
    if (keep)
        *keep = res;
    else
        xmlFreeDoc(res);
    return BE_OK;
}

/* A page document: <page kind=…> with site, links, the results and the
 * annotation (taken over). */
static xmlDocPtr page_doc(const site *s, const char *kind, const run *u, xmlNodePtr annotation,
                          const char *css, const char *home, const char *feed, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0"), src = NULL;
    xmlNodePtr page, links;
    if (!doc)
        goto oom;
    page = xmlNewNode(NULL, BAD_CAST "page");
    xmlDocSetRootElement(doc, page);
    attr(page, "kind", kind);
    add_site(page, s);
    links = add(page, "links", NULL);
    attr(links, "css", css);
    attr(links, "home", home);
    attr(links, "feed", feed);
    if (u) {
        xmlNodePtr copy;
        src = xmlReadFile(u->src, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        if (!src) {
            xmlFreeDoc(doc);
            xmlFreeNode(annotation);
            err_set(e, BE_EFAIL, "%s: cannot read it back", u->src);
            return NULL;
        }
        copy = xmlDocCopyNode(xmlDocGetRootElement(src), doc, 1);
        xmlFreeDoc(src);
        if (!copy)
            goto oom;
        xmlAddChild(page, copy);
    }
    if (annotation)
        xmlAddChild(page, annotation);
    return doc;
oom:
    xmlFreeDoc(doc);
    xmlFreeNode(annotation);
    err_set(e, BE_EFAIL, "out of memory");
    return NULL;
}

/* ---- files to write --------------------------------------------------- */

typedef struct pending {
    char path[PATHMAX];
    char *data;               /* owned unless borrowed                     */
    size_t len;
    int borrowed;
} pending;

typedef struct outbox {
    int n, cap;
    pending *v;
} outbox;

static int put(outbox *b, const char *path, char *data, size_t len, int borrowed, err *e)
{
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 32;
        pending *v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v) {
            if (!borrowed)
                free(data);
            return err_set(e, BE_EFAIL, "out of memory");
        }
        b->v = v;
        b->cap = cap;
    }
    snprintf(b->v[b->n].path, sizeof b->v[b->n].path, "%s", path);
    b->v[b->n].data = data;
    b->v[b->n].len = len;
    b->v[b->n].borrowed = borrowed;
    b->n++;
    return BE_OK;
}

static int put_xml(outbox *b, const char *path, xmlChar *data, int len, err *e)
{
    /* xmlChar buffers are freed with xmlFree, which is free by default;
     * copy to stay independent of that */
    char *copy = malloc((size_t)len + 1);
    if (!copy) {
        xmlFree(data);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    memcpy(copy, data, (size_t)len);
    copy[len] = '\0';
    xmlFree(data);
    return put(b, path, copy, (size_t)len, 0, e);
}

static void outbox_free(outbox *b)
{
    int i;
    for (i = 0; i < b->n; i++)
        if (!b->v[i].borrowed)
            free(b->v[i].data);
    free(b->v);
    memset(b, 0, sizeof *b);
}

static int flush(const outbox *b, err *e)
{
    int i, rc;
    for (i = 0; i < b->n; i++)
        if ((rc = fsx_write_atomic(b->v[i].path, b->v[i].data, b->v[i].len, e)) < 0)
            return rc;
    return BE_OK;
}

/* ---- the site: templates and errors ---------------------------------- */

typedef struct capture {
    char msg[512];
} capture;

static capture cap_err;

static void on_generic(void *ctx, const char *fmt, ...)
{
    va_list ap;
    char line[512];
    size_t n;
    (void)ctx;
    if (cap_err.msg[0])
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    n = strcspn(line, "\n");
    line[n] = '\0';
    snprintf(cap_err.msg, sizeof cap_err.msg, "%s", line);
}

static void on_structured(void *ctx, xmlErrorPtr xe)
{
    (void)ctx;
    if (!cap_err.msg[0] && xe && xe->message) {
        size_t n;
        snprintf(cap_err.msg, sizeof cap_err.msg, "%s:%d: %s", xe->file ? xe->file : "",
                 xe->line, xe->message);
        n = strcspn(cap_err.msg, "\n");
        cap_err.msg[n] = '\0';
    }
}

static void quiet_errors(int on)
{
    if (on) {
        cap_err.msg[0] = '\0';
        xmlSetGenericErrorFunc(NULL, on_generic);
        xmlSetStructuredErrorFunc(NULL, on_structured);
        xsltSetGenericErrorFunc(NULL, on_generic);
    } else {
        xmlSetGenericErrorFunc(NULL, NULL);
        xmlSetStructuredErrorFunc(NULL, NULL);
        xsltSetGenericErrorFunc(NULL, NULL);
    }
}

static xsltStylesheetPtr load_xsl(const char *data, const char *name, err *e)
{
    char p[PATHMAX];
    xsltStylesheetPtr x;
    snprintf(p, sizeof p, "%s/templates/%s", data, name);
    if (!exists(p)) {
        err_set(e, BE_EFAIL, "%s: template missing", p);
        return NULL;
    }
    x = xsltParseStylesheetFile(BAD_CAST p);
    if (!x)
        err_set(e, BE_EFAIL, "%s: not a usable XSLT stylesheet%s%s", p,
                cap_err.msg[0] ? ": " : "", cap_err.msg);
    return x;
}

static void site_free(site *s)
{
    if (s->run_xsl)
        xsltFreeStylesheet(s->run_xsl);
    if (s->compare_xsl)
        xsltFreeStylesheet(s->compare_xsl);
    if (s->feed_xsl)
        xsltFreeStylesheet(s->feed_xsl);
    free(s->css);
    memset(s, 0, sizeof *s);
}

static int site_open(const report_opts *o, site *s, err *e)
{
    char p[PATHMAX];
    int rc;
    memset(s, 0, sizeof *s);
    s->o = o;
    if (o->base_url && *o->base_url) {
        size_t n = strlen(o->base_url);
        snprintf(s->base, sizeof s->base, "%s%s", o->base_url,
                 o->base_url[n - 1] == '/' ? "" : "/");
    }
    if ((rc = report_data_dir(o->data_dir, s->data, sizeof s->data, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/assets/style.css", s->data);
    if ((rc = fsx_read_all(p, &s->css, &s->css_len, e)) < 0)
        return rc;
    if (!(s->run_xsl = load_xsl(s->data, "run.xsl", e)) ||
        !(s->compare_xsl = load_xsl(s->data, "compare.xsl", e)) ||
        !(s->feed_xsl = load_xsl(s->data, "feed.xsl", e))) {
        site_free(s);
        return BE_EFAIL;
    }
    return BE_OK;
}

/* ---- comparison pages -------------------------------------------------- */

static xmlNodePtr annotate_compare(const compare_set *c, const results *a, const results *b,
                                   const char *chart)
{
    xmlNodePtr an = xmlNewNode(NULL, BAD_CAST "annotation"), t, n;
    char buf[600], da[64], db[64];
    int i;
    attr(an, "a", c->id_a);
    attr(an, "b", c->id_b);
    human_date(a->prov.started, da, sizeof da);
    human_date(b->prov.started, db, sizeof db);
    attr(an, "date-a", da);
    attr(an, "date-b", db);
    attr(an, "host-a", a->prov.host);
    attr(an, "host-b", b->prov.host);
    snprintf(buf, sizeof buf, "What changed from %s to %s", c->id_a, c->id_b);
    add(an, "title", buf);
    compare_summary(c, buf, sizeof buf);
    add(an, "summary", buf);
    if (c->geomean > 0) {
        snprintf(buf, sizeof buf, "Over the points measured in both, B takes %.3f× the time of "
                 "A (geometric mean of the ratios).", c->geomean);
        add(an, "overall", buf);
    }
    n = add(an, "chart", NULL);
    attrf(n, "png", "%s.png", chart);
    attrf(n, "svg", "%s.svg", chart);
    attrf(n, "width", "%.0f", FIGURE_WIDTH);
    attrf(n, "height", "%.0f", FIGURE_HEIGHT);
    attr(n, "alt", "Chart: the ratio of median step times B/A of every matched point against "
                   "FLOPs per layer; filled markers are significant changes.");
    for (i = 0; i < c->ndiffs; i++) {
        n = add(an, "diff", NULL);
        attr(n, "what", c->diffs[i].what);
        attr(n, "a", c->diffs[i].a);
        attr(n, "b", c->diffs[i].b);
    }
    for (i = 0; i < c->ncross; i++)
        add(an, "move", c->cross[i].text);
    t = add(an, "points", NULL);
    for (i = 0; i < c->npoints; i++) {
        const compare_point *p = &c->points[i];
        n = add(t, "point", NULL);
        attr(n, "model", p->model);
        attr(n, "mode", workload_mode_name(p->mode));
        attrf(n, "hidden", "%d", p->hidden);
        attrf(n, "batch", "%d", p->batch);
        attr(n, "verdict", compare_verdict_name(p->verdict));
        if (p->verdict == CMP_MISSING) {
            snprintf(buf, sizeof buf, "A %s, B %s", results_status_name(p->status_a),
                     results_status_name(p->status_b));
            attr(n, "note", buf);
            continue;
        }
        fmt_time(p->median_a, buf, sizeof buf);
        attr(n, "time-a", buf);
        fmt_time(p->median_b, buf, sizeof buf);
        attr(n, "time-b", buf);
        attrf(n, "ratio", "%.3f", p->ratio);
        if (p->by_overlap)
            attr(n, "test", "CI overlap");
        else
            attrf(n, "test", "z = %+.2f", p->z);
    }
    return an;
}

/* Renders OUT/compare/<a>..<b>.html (and draws its chart) into box. */
static int render_compare(const site *s, const compare_set *c, const results *a,
                          const results *b, outbox *box, char *page, size_t size, err *e)
{
    char dir[PATHMAX], base[PATHMAX], name[300], p[PATHMAX];
    xmlDocPtr doc;
    xmlChar *html = NULL;
    int len, rc;
    snprintf(dir, sizeof dir, "%s/compare", s->o->out);
    if ((rc = fsx_mkdirs(dir, e)) < 0)
        return rc;
    snprintf(name, sizeof name, "%s..%s", c->id_a, c->id_b);
    snprintf(base, sizeof base, "%s/%s", dir, name);
    if ((rc = compare_chart(c, base, e)) < 0)
        return rc;
    doc = page_doc(s, "compare", NULL, annotate_compare(c, a, b, name), "style.css",
                   "../index.html", "../feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s.html", base);
    rc = transform(s->compare_xsl, doc, p, &html, &len, NULL, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    if ((rc = put_xml(box, p, html, len, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/style.css", dir);
    if ((rc = put(box, p, s->css, s->css_len, 1, e)) < 0)
        return rc;
    if (page)
        snprintf(page, size, "%s.html", base);
    return BE_OK;
}

/* ---- the feed ---------------------------------------------------------- */

/* The <article> of a rendered page, serialized as HTML, links made
 * absolute (or relative to OUT/ without a base URL). */
static int article_html(const site *s, const runset *rs, int k, char **out, err *e)
{
    const results *r = rs->v[k].r;
    char prefix[1400], chart_prefix[1600];
    xmlDocPtr doc, res = NULL;
    xmlChar *html = NULL;
    xmlNodePtr n;
    xmlBufferPtr buf;
    int len, rc;

    snprintf(prefix, sizeof prefix, "%s", s->base);
    snprintf(chart_prefix, sizeof chart_prefix, "%sruns/%s/", s->base, r->prov.id);
    doc = page_doc(s, "feed-item", &rs->v[k], annotate_run(s, rs, k, prefix, chart_prefix),
                   "style.css", "index.html", "feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    rc = transform(s->run_xsl, doc, "feed item", &html, &len, &res, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    xmlFree(html);
    /* the body is the first <article> of the page */
    for (n = xmlDocGetRootElement(res); n;) {
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST "article"))
            break;
        if (n->children)
            n = n->children;
        else {
            while (n && !n->next)
                n = n->parent;
            if (n)
                n = n->next;
        }
    }
    if (!n) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "templates/run.xsl: the page has no <article> for the feed");
    }
    buf = xmlBufferCreate();
    if (!buf) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    htmlNodeDump(buf, res, n);
    *out = strdup((const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
    xmlFreeDoc(res);
    return *out ? BE_OK : err_set(e, BE_EFAIL, "out of memory");
}

static int render_feed(const site *s, const runset *rs, outbox *box, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr feed, ch;
    const results *newest = rs->v[rs->n - 1].r;
    char buf[2048], date[64], p[PATHMAX];
    xmlChar *xml = NULL;
    int i, len, rc;

    if (!doc)
        return err_set(e, BE_EFAIL, "out of memory");
    feed = xmlNewNode(NULL, BAD_CAST "feed");
    xmlDocSetRootElement(doc, feed);
    ch = add(feed, "channel", NULL);
    if (s->o->title && *s->o->title)
        snprintf(buf, sizeof buf, "%s", s->o->title);
    else
        snprintf(buf, sizeof buf, "breakeven: CPU or GPU, measured");
    attr(ch, "title", buf);
    attrf(ch, "link", "%sindex.html", s->base);
    attrf(ch, "self", "%sfeed.xml", s->base);
    attr(ch, "description", "When the GPU beats the CPU for stacks of dense layers, measured "
                            "by breakeven on real machines: one item per run.");
    attrf(ch, "generator", "breakeven %s", BE_VERSION);
    rfc822(newest->prov.finished, date, sizeof date);
    attr(ch, "last-build", date);
    attr(ch, "author", s->o->author ? s->o->author : "");
    for (i = rs->n - 1; i >= 0; i--) {
        const run *u = &rs->v[i];
        const results *r = u->r;
        xmlNodePtr it = add(feed, "item", NULL);
        char *body = NULL, title[1024], hd[64];
        if ((rc = article_html(s, rs, i, &body, e)) < 0) {
            xmlFreeDoc(doc);
            return rc;
        }
        title_of(s->o, r, title, sizeof title);
        human_date(r->prov.started, hd, sizeof hd);
        snprintf(buf, sizeof buf, "%s (%s)", title, hd);
        attr(it, "title", buf);
        attrf(it, "link", "%sruns/%s/index.html", s->base, r->prov.id);
        if (s->base[0]) {
            attrf(it, "guid", "%sruns/%s/index.html", s->base, r->prov.id);
            attr(it, "permalink", "true");
        } else {
            attrf(it, "guid", "breakeven:run:%s", r->prov.id);
            attr(it, "permalink", "false");
        }
        rfc822(r->prov.finished, date, sizeof date);
        attr(it, "pubdate", date);
        answer_of(r, buf, sizeof buf);
        if (u->has_cmp && (u->cmp.nfaster || u->cmp.nslower)) {
            char sum[400];
            compare_summary(&u->cmp, sum, sizeof sum);
            cat(buf, sizeof buf, " Since the previous run on %s: %s.", r->prov.host, sum);
        }
        add(it, "description", buf);
        add(it, "content", body);
        free(body);
    }
    snprintf(p, sizeof p, "%s/feed.xml", s->o->out);
    rc = transform(s->feed_xsl, doc, p, &xml, &len, NULL, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    return put_xml(box, p, xml, len, e);
}

/* ---- several hosts, one report ---------------------------------------- */

/* The newest run of every host merged into one model (devices renamed
 * "<host>/<id>"), so that the index page can show the devices of all hosts
 * in one chart.  *out stays NULL when the runs come from one host only. */
static int merge_hosts(const runset *rs, results **out, int *nhosts, err *e)
{
    results *m;
    int i, j, d, rc;
    *out = NULL;
    *nhosts = 0;
    for (i = rs->n - 1; i >= 0; i--) {
        int seen = 0;
        for (j = i + 1; j < rs->n; j++)
            seen |= strcmp(rs->v[j].r->prov.host, rs->v[i].r->prov.host) == 0;
        *nhosts += !seen;
    }
    if (*nhosts < 2)
        return BE_OK;
    if (!(m = results_new()))
        return err_set(e, BE_EFAIL, "out of memory");
    m->prov = rs->v[rs->n - 1].r->prov;
    for (i = rs->n - 1; i >= 0; i--) {
        const results *r = rs->v[i].r;
        int seen = 0;
        for (j = i + 1; j < rs->n; j++)
            seen |= strcmp(rs->v[j].r->prov.host, r->prov.host) == 0;
        if (seen)
            continue;
        for (d = 0; d < r->ndevices; d++) {
            device_info di = r->devices[d];
            snprintf(di.id, sizeof di.id, "%.14s/%.16s", r->prov.host, r->devices[d].id);
            if (results_device(m, di.id))
                continue;
            if ((rc = results_add_device(m, &di, e)) < 0)
                goto fail;
            for (j = 0; j < r->npoints; j++) {
                rs_point p = r->points[j];
                if (strcmp(p.device, r->devices[d].id) != 0)
                    continue;
                snprintf(p.device, sizeof p.device, "%s", di.id);
                if ((rc = results_add_point(m, &p, e)) < 0)
                    goto fail;
            }
        }
    }
    *out = m;
    return BE_OK;
fail:
    results_free(m);
    return rc;
}

/* Draws OUT/hosts-throughput-<mode> and OUT/hosts-relative-time-<mode>. */
static int draw_hosts(const results *m, const char *out, err *e)
{
    int k, rc;
    char base[PATHMAX];
    for (k = WL_INFERENCE; k <= WL_TRAINING; k++) {
        if (!has_mode(m, (wl_mode)k))
            continue;
        snprintf(base, sizeof base, "%s/hosts-throughput-%s", out, workload_mode_name((wl_mode)k));
        if ((rc = figure_throughput(m, NULL, (wl_mode)k, base, e)) < 0)
            return rc;
        snprintf(base, sizeof base, "%s/hosts-relative-time-%s", out,
                 workload_mode_name((wl_mode)k));
        if ((rc = figure_relative_time(m, (wl_mode)k, NULL, 0, base, e)) < 0)
            return rc;
    }
    return BE_OK;
}

static void annotate_hosts(xmlNodePtr a, const results *m, int nhosts, const char *out)
{
    xmlNodePtr h = add(a, "hosts", NULL);
    char buf[4096], alt[300];
    int k;
    snprintf(buf, sizeof buf, "The newest run of each of the %d hosts, side by side; devices "
             "are named host/device.", nhosts);
    add(h, "p", buf);
    for (k = WL_INFERENCE; k <= WL_TRAINING; k++) {
        if (!has_mode(m, (wl_mode)k))
            continue;
        say_throughput(m, (wl_mode)k, buf, sizeof buf);
        snprintf(alt, sizeof alt, "Chart: throughput of the devices of every host against FLOPs "
                 "per layer (%s).", workload_mode_name((wl_mode)k));
        add_chart(h, out, "", "hosts-throughput", (wl_mode)k, alt, buf);
        say_relative(m, (wl_mode)k, 0, buf, sizeof buf);
        snprintf(alt, sizeof alt, "Chart: step time of the devices of every host relative to %s "
                 "(%s).", m->devices[figure_base_device(m)].id, workload_mode_name((wl_mode)k));
        add_chart(h, out, "", "hosts-relative-time", (wl_mode)k, alt, buf);
    }
}

/* ---- orchestration -------------------------------------------------- */

static int render_run_page(const site *s, const runset *rs, int k, int index,
                           const results *hosts, int nhosts, outbox *box, err *e)
{
    const run *u = &rs->v[k];
    char p[PATHMAX], chart_prefix[300];
    xmlDocPtr doc;
    xmlNodePtr a;
    xmlChar *html = NULL;
    int len, rc;
    if (index)
        snprintf(chart_prefix, sizeof chart_prefix, "runs/%s/", u->r->prov.id);
    else
        chart_prefix[0] = '\0';
    a = annotate_run(s, rs, k, index ? "" : "../../", chart_prefix);
    if (index && hosts)
        annotate_hosts(a, hosts, nhosts, s->o->out);
    doc = page_doc(s, index ? "index" : "run", u, a, "style.css",
                   index ? "index.html" : "../../index.html", index ? "feed.xml" : "../../feed.xml",
                   e);
    if (!doc)
        return BE_EFAIL;
    if (index)
        snprintf(p, sizeof p, "%s/index.html", s->o->out);
    else
        snprintf(p, sizeof p, "%s/index.html", u->dir);
    rc = transform(s->run_xsl, doc, p, &html, &len, NULL, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    return put_xml(box, p, html, len, e);
}

static int report_runs(const site *s, runset *rs, outbox *box, char *index, size_t size, err *e)
{
    char p[PATHMAX];
    results *hosts = NULL;
    int i, rc, nhosts;
    for (i = 0; i < rs->n; i++)
        if ((rc = place_run(&rs->v[i], e)) < 0)
            return rc;
    for (i = 0; i < rs->n; i++) {
        run *u = &rs->v[i];
        char *csv;
        size_t len;
        if (u->prev >= 0) {
            err ce;
            if (compare_runs(rs->v[u->prev].r, u->r, &u->cmp, &ce) == BE_OK) {
                u->has_cmp = 1;
                if ((rc = render_compare(s, &u->cmp, rs->v[u->prev].r, u->r, box, NULL, 0, e)) < 0)
                    return rc;
            } else {
                snprintf(u->cmp_note, sizeof u->cmp_note, "No comparison with the previous run "
                         "on this host: %s.", ce.msg);
            }
        }
        if ((rc = report_csv(u->r, &csv, &len, e)) < 0)
            return rc;
        snprintf(p, sizeof p, "%s/results.csv", u->dir);
        if ((rc = put(box, p, csv, len, 0, e)) < 0)
            return rc;
        snprintf(p, sizeof p, "%s/style.css", u->dir);
        if ((rc = put(box, p, s->css, s->css_len, 1, e)) < 0)
            return rc;
        if ((rc = render_run_page(s, rs, i, 0, NULL, 0, box, e)) < 0)
            return rc;
    }
    snprintf(p, sizeof p, "%s/style.css", s->o->out);
    if ((rc = put(box, p, s->css, s->css_len, 1, e)) < 0)
        return rc;
    if ((rc = merge_hosts(rs, &hosts, &nhosts, e)) < 0)
        return rc;
    if (hosts && (rc = draw_hosts(hosts, s->o->out, e)) < 0) {
        results_free(hosts);
        return rc;
    }
    /* the index page and the feed last */
    rc = render_run_page(s, rs, rs->n - 1, 1, hosts, nhosts, box, e);
    results_free(hosts);
    if (rc < 0 || (rc = render_feed(s, rs, box, e)) < 0)
        return rc;
    snprintf(index, size, "%s/index.html", s->o->out);
    return BE_OK;
}

static int check_base_url(const report_opts *o, err *e)
{
    const char *u = o->base_url;
    if (!u || !*u)
        return BE_OK;
    if ((strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0) ||
        strpbrk(u, " \t\r\n\"<>") || strlen(u) > 900)
        return err_set(e, BE_EUSAGE, "--base-url: \"%s\" is not an http(s) URL", u);
    return BE_OK;
}

int report_write(const report_opts *o, char *index, size_t size, err *e)
{
    site s;
    runset rs;
    outbox box = {0};
    int rc;

    if ((rc = check_base_url(o, e)) < 0)
        return rc;
    quiet_errors(1);
    if ((rc = site_open(o, &s, e)) < 0) {
        quiet_errors(0);
        return rc;
    }
    if ((rc = load_runs(o, &rs, e)) < 0) {
        site_free(&s);
        quiet_errors(0);
        return rc;
    }
    rc = report_runs(&s, &rs, &box, index, size, e);
    if (rc == BE_OK)
        rc = flush(&box, e);
    outbox_free(&box);
    runset_free(&rs);
    site_free(&s);
    quiet_errors(0);
    return rc;
}

int report_compare(const report_opts *o, const char *a, const char *b, compare_set *cmp,
                   char *page, size_t size, err *e)
{
    site s;
    run ra, rb;
    outbox box = {0};
    char pa[PATHMAX], pb[PATHMAX];
    int rc;

    memset(cmp, 0, sizeof *cmp);
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    quiet_errors(1);
    if ((rc = site_open(o, &s, e)) < 0) {
        quiet_errors(0);
        return rc;
    }
    if ((rc = resolve(o->out, a, pa, sizeof pa, e)) < 0 ||
        (rc = resolve(o->out, b, pb, sizeof pb, e)) < 0 ||
        (rc = load_run(o->out, pa, &ra, e)) < 0 || (rc = load_run(o->out, pb, &rb, e)) < 0 ||
        (rc = compare_runs(ra.r, rb.r, cmp, e)) < 0 ||
        (rc = render_compare(&s, cmp, ra.r, rb.r, &box, page, size, e)) < 0 ||
        (rc = flush(&box, e)) < 0) {
        compare_free(cmp);
    }
    outbox_free(&box);
    results_free(ra.r);
    results_free(rb.r);
    site_free(&s);
    quiet_errors(0);
    return rc;
}
