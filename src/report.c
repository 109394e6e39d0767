/*
 * report.c — the pages: each run's report, the index, the comparisons and
 * the feed (see report.h).
 *
 * This is the last stage of the one-way flow: results files in, static
 * files out.  The runs come from archive.h, already loaded and validated;
 * for each page an <annotation> of the facts derived from the model is
 * assembled here — which charts exist and what each shows in words
 * (prose.h), the tables of times, the warnings, the archive, the
 * comparison with the previous run — and site.h applies the page's XSLT
 * 1.0 stylesheet to it.  Strings only ever enter the tree as text or
 * attribute values, so a device called "<script>" comes out escaped.  The
 * feed is built the same way from a <feed> document whose items carry each
 * report's body, serialized to a string, as text: libxml2 escapes it, so no
 * CDATA section (and no "]]>" in one) is ever involved.
 *
 * The report is incremental (docs/archive.md): every run is kept small
 * (cache.h: the points the history reads, its answer, its CSV rows), and
 * a run is loaded whole only while its own pages render, which happens
 * when the key of what they are made of changed (page_key).  Writing
 * happens after everything is rendered in memory, as one set (site_flush):
 * a failure or a signal on the way leaves the previous site as it was.
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/HTMLtree.h>

#include "archive.h"
#include "archpages.h"
#include "cache.h"
#include "chart.h"
#include "csv.h"
#include "export.h"
#include "figure.h"
#include "findings.h"
#include "fmt.h"
#include "fsx.h"
#include "history.h"
#include "net.h"
#include "netfit.h"
#include "page_net.h"
#include "prose.h"
#include "query.h"
#include "reproduce.h"
#include "runcharts.h"
#include "site.h"
#include "systable.h"
#include "utf8.h"
#include "version.h"
#include "workload.h"

#define PATHMAX 4096
#define MAX_WARNINGS 8

/* The comparison of a run with the previous run of its host. */
typedef struct cmp_slot {
    int has;
    compare_set cmp;
    char note[400]; /* why there is none                         */
} cmp_slot;

/* One report being rendered: the site, the runs, their comparisons and the
 * files staged so far. */
struct run_side;
typedef struct report_ctx {
    const report_opts *o;
    site s;
    archive a;             /* every run, each as its small model (cache.h) but
                         while its pages render (with_run)              */
    cache_digest *dg;      /* a.n: each run's answer and CSV rows           */
    cache_key *key;        /* a.n: the key of each run's results file       */
    cache_key *page;       /* a.n: the key of each run's pages              */
    char *fresh;           /* a.n: 1 when the run's pages were rendered now */
    char **items;          /* a.n: the feed items (item_make) of the feed's runs */
    cmp_slot *cmp;         /* a.n: the comparison of the run being rendered  */
    findings *F;           /* a.n: the verdicts of the run being rendered    */
    history h;             /* the archive as series */
    cache_key site_key;    /* the settings and templates of every page */
    struct run_side *side; /* digests by run id, until the archive is in order */
    int front;             /* the run of the front page                      */
    int front_done;        /* its page rendered (while its run was loaded)   */
    results *hosts;        /* the newest run of each machine side by side    */
    int nhosts;
    char unlike[2048];   /* the runs not set beside them, and why          */
    cache_key hosts_key; /* the results of those newest runs               */
    int nside;
    site_outbox box;
} report_ctx;

/* BE_EINTR when a signal asked to stop (stop.h). */
static int stopped(const report_ctx *x, err *e)
{
    if (x->o->stop && *x->o->stop)
        return err_set(e, BE_EINTR,
                       "interrupted: the report was not written; the previous one "
                       "is intact");
    return BE_OK;
}

/* Run k's title, its page's and its feed item's (prose_title), as one
 * line (a host name from a results file may hold a line break). */
static void page_title(const report_ctx *x, int k, char *buf, size_t size)
{
    char raw[1024];
    prose_title(x->s.title, x->a.v[k].r, &x->F[k], raw, sizeof raw);
    utf8_line(buf, size, raw);
}

/* Applies xsl to doc (freed here) and stages the page at path in box. */
static int put_page(const site *s, site_outbox *box, xsltStylesheetPtr xsl, xmlDocPtr doc,
                    const char *path, err *e)
{
    xmlChar *html = NULL;
    int len, rc = site_transform(s, xsl, doc, path, &html, &len, NULL, e);
    xmlFreeDoc(doc);
    return rc < 0 ? rc : site_put_xml(box, path, html, len, e);
}

/* ---- charts and tables ------------------------------------------------- */

/* The link attributes of a chart element: href_base + ".png", shown and
 * linked (at FIGURE_SCALE, a closer look), with the chart's size in CSS pixels, and the same for its narrow
 * rendering when file_base (the chart's path, without extension) has one. */
static void chart_links(xmlNodePtr c, const char *file_base, const char *href_base)
{
    char p[PATHMAX];
    int w, h;
    err e;
    site_attrf(c, "png", "%s.png", href_base);
    snprintf(p, sizeof p, "%s.png", file_base);
    if (chart_png_size(p, &w, &h, &e) == BE_OK) {
        site_attrf(c, "width", "%.0f", w / FIGURE_SCALE);
        site_attrf(c, "height", "%.0f", h / FIGURE_SCALE);
    } else {
        site_attrf(c, "width", "%.0f", FIGURE_WIDTH);
        site_attrf(c, "height", "%.0f", FIGURE_HEIGHT);
    }
    snprintf(p, sizeof p, "%s" FIGURE_NARROW_SUFFIX ".png", file_base);
    if (chart_png_size(p, &w, &h, &e) == BE_OK) {
        site_attrf(c, "narrow-png", "%s" FIGURE_NARROW_SUFFIX ".png", href_base);
        site_attrf(c, "narrow-width", "%.0f", w / FIGURE_NARROW_SCALE);
        site_attrf(c, "narrow-height", "%.0f", h / FIGURE_NARROW_SCALE);
    }
}

/* One <chart> element, when its PNG exists in dir. */
static void add_chart(xmlNodePtr parent, const char *dir, const char *href_prefix, const char *kind,
                      wl_mode m, const char *alt, const char *text)
{
    char png[PATHMAX], name[128], href[PATHMAX];
    xmlNodePtr c;
    snprintf(name, sizeof name, "%s-%s", kind, workload_mode_name(m));
    snprintf(png, sizeof png, "%s/%s.png", dir, name);
    if (access(png, F_OK) != 0)
        return;
    c = site_add(parent, "chart", NULL);
    site_attr(c, "kind", kind);
    snprintf(href, sizeof href, "%s%s", href_prefix, name);
    png[strlen(png) - 4] = '\0';
    chart_links(c, png, href);
    site_attr(c, "alt", alt);
    site_add(c, "p", text);
}

/* One cell of the table of times: device p's median in the resident view
 * (transfer 0) or with transfers, or why there is none; "†" after a time
 * measured while the device was throttled (telemetry.h). */
static void add_cell(xmlNodePtr row, const rs_point *p, int transfer)
{
    xmlNodePtr c;
    char buf[64];
    if (!p) {
        c = site_add(row, "td", "");
        site_attr(c, "status", "missing");
    } else if (p->status == PT_OUT_OF_MEMORY) {
        c = site_add(row, "td", "—");
        site_attr(c, "status", "out-of-memory");
    } else if (!q_ok(p)) {
        c = site_add(row, "td", results_status_name(p->status));
        site_attr(c, "status", results_status_name(p->status));
    } else {
        const stats_summary *s = transfer && p->has_transfer ? &p->transfer : &p->resident;
        char lo_t[32], hi_t[32];
        double lo, hi;
        int wide = q_ci_rel(s, &lo, &hi);
        fmt_time(buf, sizeof buf, s->median);
        c = site_add(row, "td", buf);
        if (p->tel.throttled)
            site_attr(c, "throttled", "yes");
        site_attr(c, "status", s->drift ? "drift" : "ok");
        /* the precision on a second line, the interval itself on demand */
        site_attrf(c, "ci", "\xe2\x88\x92%.1f%% +%.1f%%", 100.0 * lo, 100.0 * hi);
        site_attrf(c, "n", "%d", s->n);
        if (wide)
            site_attr(c, "flag", "wide");
        fmt_time(lo_t, sizeof lo_t, s->ci_lo);
        fmt_time(hi_t, sizeof hi_t, s->ci_hi);
        site_attrf(c, "title",
                   "median %s, 95%% interval %s to %s (\xe2\x88\x92%.1f%%, "
                   "+%.1f%%), %d samples%s%s%s",
                   buf, lo_t, hi_t, 100.0 * lo, 100.0 * hi, s->n,
                   s->passes > 1 ? " in passes: the interval includes how they differ" : "",
                   wide ? "; wider than \xc2\xb1"
                          "10%"
                        : "",
                   p->tel.throttled ? "; measured while the device was throttled" : "");
    }
}

/* The energy cells of p: joules per step and per sample of the batch, or
 * empty ones where it has none. */
static void add_energy_cells(xmlNodePtr row, const rs_point *p)
{
    double j = q_energy(p);
    char buf[64];
    int k;
    for (k = 0; k < 2; k++) {
        xmlNodePtr c;
        if (j < 0.0) {
            c = site_add(row, "td", "");
            site_attr(c, "status", "missing");
            continue;
        }
        fmt_si(buf, sizeof buf, k == 0 ? j : j / p->batch, 3, "J");
        c = site_add(row, "td", buf);
        site_attr(c, "status", "ok");
    }
}

/* 1 when a point of mode m was measured while its device was throttled. */
static int any_throttled(const results *r, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m && r->points[i].tel.throttled && q_ok(&r->points[i]))
            return 1;
    return 0;
}

static void add_table(xmlNodePtr parent, const results *r, wl_mode m)
{
    q_shape shapes[Q_MAX_SHAPES];
    int n = q_shapes(r, m, shapes, Q_MAX_SHAPES), i, d;
    int energy[RESULTS_MAX_DEVICES];
    xmlNodePtr t = site_add(parent, "table", NULL), head, row;
    char buf[64], cap[512];
    snprintf(cap, sizeof cap,
             "Median time of one step of %d layer%s (%s); below each, its "
             "95%% interval relative to it and the number of samples n (hover for the interval "
             "itself); \xe2\x80\x9cwide\xe2\x80\x9d marks an interval reaching more than "
             "10%% from the median; — means out of memory.",
             r->prov.layers, r->prov.layers == 1 ? "" : "s", workload_mode_name(m));
    for (d = 0; d < r->ndevices && d < RESULTS_MAX_DEVICES; d++)
        energy[d] = q_has_energy(r, r->devices[d].id, m);
    if (q_has_energy(r, NULL, m))
        fmt_append(cap, sizeof cap,
                   " Energy: per step, and per sample of the batch, where "
                   "the device's counter covered at least a second of samples.");
    if (any_throttled(r, m))
        fmt_append(cap, sizeof cap,
                   " † measured while the device was throttled (power "
                   "cap, thermal or hardware slowdown).");
    site_attr(t, "caption", cap);
    head = site_add(t, "head", NULL);
    site_add(head, "th", "Hidden");
    site_add(head, "th", "Batch");
    site_add(head, "th", "FLOP per layer");
    for (d = 0; d < r->ndevices && d < RESULTS_MAX_DEVICES; d++) {
        char l[400];
        figure_device_label(&r->devices[d], l, sizeof l);
        site_add(head, "th", l);
        if (strcmp(r->devices[d].kind, "opencl") == 0) {
            snprintf(l, sizeof l, "%s with transfers", r->devices[d].id);
            site_add(head, "th", l);
        }
        if (energy[d]) {
            snprintf(l, sizeof l, "%s energy per step", r->devices[d].id);
            site_add(head, "th", l);
            snprintf(l, sizeof l, "%s energy per sample", r->devices[d].id);
            site_add(head, "th", l);
        }
    }
    for (i = 0; i < n; i++) {
        row = site_add(t, "row", NULL);
        snprintf(buf, sizeof buf, "%d", shapes[i].hidden);
        site_add(row, "td", buf);
        snprintf(buf, sizeof buf, "%d", shapes[i].batch);
        site_add(row, "td", buf);
        fmt_si(buf, sizeof buf, workload_flops_per_layer(m, shapes[i].hidden, shapes[i].batch), 3,
               "");
        site_add(row, "td", buf);
        for (d = 0; d < r->ndevices && d < RESULTS_MAX_DEVICES; d++) {
            const rs_point *p = q_point(r, r->devices[d].id, m, shapes[i].hidden, shapes[i].batch);
            add_cell(row, p, 0);
            if (strcmp(r->devices[d].kind, "opencl") == 0)
                add_cell(row, p, 1);
            if (energy[d])
                add_energy_cells(row, p);
        }
    }
}

/* ---- the run's annotation ---------------------------------------------- */

/* The charts of hidden widths, their paragraphs and the table of one
 * mode: for the square stack only (a network's are on its own page,
 * page_net.c, where its sizes are not taken for a hidden width). */
static void add_square(xmlNodePtr mn, const results *r, const findings *F, wl_mode m,
                       const char *dir, const char *chart_prefix)
{
    const char *mode = workload_mode_name(m), *base = q_base_id(r);
    char buf[8192], alt[512];

    prose_throughput(r, m, buf, sizeof buf);
    snprintf(alt, sizeof alt,
             "Chart: throughput in FLOP/s against FLOPs per layer (%s), "
             "one series per device and hidden width.",
             mode);
    add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_THROUGHPUT), m, alt, buf);
    if (r->ndevices > 1) {
        prose_ratio(r, F, m, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: speed of each device relative to %s against "
                 "FLOPs per layer (%s), with the crossovers.",
                 base, mode);
        add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_SPEED_RATIO), m, alt, buf);
        prose_winner(r, F, m, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: winner map of hidden width against batch size "
                 "(%s), each cell coloured by the faster device.",
                 mode);
        add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_WINNER_MAP), m, alt, buf);
    }
    prose_relative(r, F, m, 0, buf, sizeof buf);
    snprintf(alt, sizeof alt,
             "Chart: bars of step time relative to %s (%s), lower is "
             "better.",
             base, mode);
    add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_RELATIVE_TIME), m, alt, buf);
    if (r->prices.n > 0) {
        prose_relative(r, F, m, 1, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: bars of the cost of a step relative to %s (%s), "
                 "lower is cheaper.",
                 base, mode);
        add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_COST), m, alt, buf);
    }
    add_table(mn, r, m);
}

/* A run of networks alone: each network's step time against batch (its
 * page, page_net.c, has the rest). */
static void add_net_charts(xmlNodePtr mn, const results *r, wl_mode m, const char *dir,
                           const char *chart_prefix)
{
    const char *names[NET_MAX_NETS];
    char kind[NET_NAME_MAX + 16], alt[NET_NAME_MAX + 200], text[NET_NAME_MAX + 300];
    int n = netfit_networks(r, names, NET_MAX_NETS), i;
    for (i = 0; i < n; i++) {
        snprintf(kind, sizeof kind, "net-%s-time", names[i]);
        snprintf(alt, sizeof alt,
                 "Chart: step time of network %s against batch size (%s), per device and view.",
                 names[i], workload_mode_name(m));
        snprintf(text, sizeof text,
                 "Median step time of the whole network %s against the batch size, with 95%% "
                 "intervals; its page gives the answer per view and the time of each layer.",
                 names[i]);
        add_chart(mn, dir, chart_prefix, kind, m, alt, text);
    }
}

/* The charts, their paragraphs, the table and the conclusion of one mode. */
static void add_mode(xmlNodePtr a, const results *r, const findings *F, wl_mode m, const char *dir,
                     const char *chart_prefix)
{
    xmlNodePtr mn = site_add(a, "mode", NULL);
    char buf[8192];

    site_attr(mn, "name", workload_mode_name(m));
    if (q_has_square(r, m))
        add_square(mn, r, F, m, dir, chart_prefix);
    else
        add_net_charts(mn, r, m, dir, chart_prefix);
    prose_energy(r, m, buf, sizeof buf);
    if (buf[0])
        site_add(mn, "energy", buf);
    prose_conclusion(r, F, m, buf, sizeof buf);
    site_add(mn, "conclusion", buf);
}

/* The changes the history found at run k (history.h), linked to their
 * series on the history page. */
static void add_run_changes(const report_ctx *x, xmlNodePtr a, int k, const char *prefix)
{
    xmlNodePtr list = NULL;
    int i, j;
    for (i = 0; i < x->h.n; i++) {
        const hist_series *s = &x->h.s[i];
        for (j = 0; j < s->nchanges; j++) {
            xmlNodePtr c;
            if (s->arch[s->changes[j].at] != k)
                continue;
            if (!list)
                list = site_add(a, "changes", NULL);
            c = site_add(list, "change", s->changes[j].text);
            site_attrf(c, "href", "%shistory.html#%s", prefix, s->anchor);
        }
    }
}

/* The annotation of run k.  prefix: from the page to OUT/; chart links
 * get chart_prefix (prefix + "runs/<id>/" unless the page is beside
 * them). */
static xmlNodePtr annotate_run(const report_ctx *x, int k, const char *prefix,
                               const char *chart_prefix, int front)
{
    const archive_run *u = &x->a.v[k];
    const results *r = u->r;
    const cmp_slot *cs = &x->cmp[k];
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), lead, cc;
    char buf[8192], date[64], warn[MAX_WARNINGS][PROSE_WARNING];
    int m, i, nw, dirty;

    page_title(x, k, buf, sizeof buf);
    fmt_date(date, sizeof date, r->prov.started);
    site_attr(a, "run", r->prov.id);
    site_attr(a, "date", date);
    site_attr(a, "datetime", r->prov.started);
    site_add(a, "title", buf);
    lead = site_add(a, "lead", NULL);
    for (i = 0; i < x->F[k].n; i++)
        if (x->F[k].f[i].c->view == FIT_RESIDENT) {
            findings_sentence(&x->F[k].f[i], r, buf, sizeof buf);
            site_add(lead, "p", buf);
        }
    prose_alone(r, buf, sizeof buf);
    if (buf[0])
        site_add(lead, "p", buf);
    else if (!r->has_fit)
        site_add(lead, "p",
                 "This results file has no fit, so no crossover can be given; the "
                 "tables below show the measured times.");
    else if (r->fit.ncross > 0 && r->prices.n == 0)
        site_add(lead, "p",
                 "No prices were given, so there are no cost figures (run with "
                 "--price DEVICE=USD_PER_HOUR for each device).");
    systable_add(a, r);
    prose_telemetry(r, buf, sizeof buf);
    if (buf[0])
        site_add(a, "telemetry", buf);
    nw = prose_warnings(r, warn, MAX_WARNINGS);
    for (i = 0; i < nw; i++)
        site_add(a, "warning", warn[i]);
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++)
        if (q_has_mode(r, NULL, (wl_mode)m))
            add_mode(a, r, &x->F[k], (wl_mode)m, archive_files(u), chart_prefix);
    page_net_links(a, r, chart_prefix);
    if (cs->has) {
        const results *p = x->a.v[u->prev].r;
        cc = site_add(a, "compare", NULL);
        site_attrf(cc, "href", "%scompare/%s..%s.html", prefix, p->prov.id, r->prov.id);
        site_attr(cc, "previous", p->prov.id);
        compare_summary(&cs->cmp, buf, sizeof buf);
        site_attr(cc, "summary", buf);
    } else if (cs->note[0]) {
        cc = site_add(a, "compare", NULL);
        site_attr(cc, "note", cs->note);
    }
    add_run_changes(x, a, k, prefix);
    reproduce_command(r, buf, sizeof buf);
    cc = site_add(a, "reproduce", buf);
    site_attr(cc, "version", r->prov.version);
    if (r->prov.env[0])
        site_attr(cc, "env", r->prov.env);
    reproduce_commit(r, buf, sizeof buf, &dirty);
    site_attr(cc, "commit", buf);
    if (dirty)
        site_attr(cc, "dirty", "yes");
    cc = site_add(a, "files", NULL);
    site_attrf(cc, "results", "%s%s", chart_prefix, archive_results_name(u));
    site_attrf(cc, "csv", "%sresults.csv", chart_prefix);
    archpages_list(a, &x->a, x->dg, k, front, x->o->archive_page, prefix);
    if (!x->s.base[0])
        site_add(a, "note",
                 "The feed of this report uses relative links: regenerate it with "
                 "--base-url URL for feed readers that need absolute ones.");
    return a;
}

/* The devices of every host side by side, on the index page. */
static void annotate_hosts(xmlNodePtr a, const results *m, int nhosts, const char *unlike,
                           const char *out)
{
    xmlNodePtr h = site_add(a, "hosts", NULL);
    char buf[4096], alt[300], kind[64];
    int k;
    if (m)
        snprintf(buf, sizeof buf,
                 "The newest run of each of the %d machines, side by side; devices "
                 "are named host/device (host~fingerprint/device where two machines share "
                 "a name).",
                 nhosts);
    else
        buf[0] = '\0';
    if (unlike[0])
        fmt_append(buf, sizeof buf, "%s as unlike runs are never compared: %s.",
                   m ? " Not set beside them," : "Not set beside this run,", unlike);
    site_add(h, "p", buf);
    if (!m)
        return;
    for (k = WL_INFERENCE; k <= WL_TRAINING; k++) {
        const char *mode = workload_mode_name((wl_mode)k);
        if (!q_has_mode(m, NULL, (wl_mode)k))
            continue;
        prose_throughput(m, (wl_mode)k, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: throughput of the devices of every host against FLOPs "
                 "per layer (%s).",
                 mode);
        snprintf(kind, sizeof kind, RUNCHARTS_HOSTS "%s", runcharts_name(RUNCHARTS_THROUGHPUT));
        add_chart(h, out, "", kind, (wl_mode)k, alt, buf);
        prose_relative(m, NULL, (wl_mode)k, 0, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: step time of the devices of every host relative to %s "
                 "(%s).",
                 q_base_id(m), mode);
        snprintf(kind, sizeof kind, RUNCHARTS_HOSTS "%s", runcharts_name(RUNCHARTS_RELATIVE_TIME));
        add_chart(h, out, "", kind, (wl_mode)k, alt, buf);
    }
}

/* ---- comparison pages -------------------------------------------------- */

static void annotate_points(xmlNodePtr an, const compare_set *c)
{
    xmlNodePtr t = site_add(an, "points", NULL), n;
    char buf[600];
    int i;
    for (i = 0; i < c->npoints; i++) {
        const compare_point *p = &c->points[i];
        n = site_add(t, "point", NULL);
        site_attr(n, "model", p->model);
        if (strcmp(p->dev_a, p->dev_b) == 0)
            site_attr(n, "device", p->dev_a);
        else
            site_attrf(n, "device", "%s → %s", p->dev_a, p->dev_b);
        site_attr(n, "mode", workload_mode_name(p->mode));
        if (p->sizes[0]) /* a network's widest size would pass for a width */
            site_attrf(n, "hidden", "network %s", p->sizes);
        else
            site_attrf(n, "hidden", "%d", p->hidden);
        site_attrf(n, "batch", "%d", p->batch);
        site_attr(n, "verdict", compare_verdict_name(p->verdict));
        if (p->verdict == CMP_MISSING) {
            snprintf(buf, sizeof buf, "A %s, B %s", results_status_name(p->status_a),
                     results_status_name(p->status_b));
            site_attr(n, "note", buf);
            continue;
        }
        fmt_time(buf, sizeof buf, p->median_a);
        site_attr(n, "time-a", buf);
        fmt_time(buf, sizeof buf, p->median_b);
        site_attr(n, "time-b", buf);
        site_attrf(n, "ratio", "%.3f", p->ratio);
        site_attrf(n, "test", "%.3f\xe2\x80\x93%.3f", p->lo, p->hi);
        if (p->apart)
            site_attr(n, "note", p->apart > 0 ? "up from its run" : "down from its run");
    }
}

static xmlNodePtr annotate_compare(const compare_set *c, const results *a, const results *b,
                                   const char *chart, const char *chart_file)
{
    xmlNodePtr an = xmlNewNode(NULL, BAD_CAST "annotation"), n;
    char buf[4096], da[64], db[64];
    int i;
    site_attr(an, "a", c->id_a);
    site_attr(an, "b", c->id_b);
    fmt_date(da, sizeof da, a->prov.started);
    fmt_date(db, sizeof db, b->prov.started);
    site_attr(an, "date-a", da);
    site_attr(an, "date-b", db);
    site_attr(an, "host-a", a->prov.host);
    site_attr(an, "host-b", b->prov.host);
    /* the comparison lives in OUT/compare/, the runs in OUT/runs/<id>/ */
    site_attrf(an, "href-a", "../runs/%s/index.html", c->id_a);
    site_attrf(an, "href-b", "../runs/%s/index.html", c->id_b);
    snprintf(buf, sizeof buf, "What changed from %s to %s", c->id_a, c->id_b);
    site_add(an, "title", buf);
    for (i = 0; i < c->ngroups; i++) {
        n = site_add(an, "group", c->groups[i].text);
        site_attr(n, "verdict", compare_verdict_name(c->groups[i].verdict));
    }
    compare_lead(c, buf, sizeof buf);
    site_add(an, "summary", buf);
    n = site_add(an, "chart", NULL);
    chart_links(n, chart_file, chart);
    site_attr(n, "alt",
              "Chart: the ratio of median step times B/A of every matched point "
              "against FLOPs per layer; filled markers are significant changes.");
    for (i = 0; i < c->ndiffs; i++) {
        n = site_add(an, "diff", NULL);
        site_attr(n, "what", c->diffs[i].what);
        site_attr(n, "a", c->diffs[i].a);
        site_attr(n, "b", c->diffs[i].b);
    }
    for (i = 0; i < c->ncross; i++)
        site_add(an, "move", c->cross[i].text);
    annotate_points(an, c);
    return an;
}

/* Renders OUT/compare/<a>..<b>.html (and draws its chart) into box; page,
 * when not NULL, receives its path. */
static int render_compare(const site *s, const char *out, const compare_set *c, const results *a,
                          const results *b, site_outbox *box, char *page, size_t size, err *e)
{
    char dir[PATHMAX], base[PATHMAX], name[300], p[PATHMAX];
    xmlDocPtr doc;
    int rc;
    snprintf(dir, sizeof dir, "%s/compare", out);
    if ((rc = fsx_mkdirs_in(out, dir, e)) < 0)
        return rc;
    snprintf(name, sizeof name, "%s..%s", c->id_a, c->id_b);
    snprintf(base, sizeof base, "%s/%s", dir, name);
    if ((rc = compare_chart(c, out, base, e)) < 0)
        return rc;
    doc = site_page(s, "compare", annotate_compare(c, a, b, name, base), "style.css",
                    "../index.html", "../feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s.html", base);
    if ((rc = put_page(s, box, s->compare_xsl, doc, p, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/style.css", dir);
    if ((rc = site_put(box, p, s->css, s->css_len, 1, e)) < 0)
        return rc;
    if (page)
        snprintf(page, size, "%s.html", base);
    return BE_OK;
}

/* ---- the history page ---------------------------------------------- */

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
static void history_table(xmlNodePtr parent, const hist_series *s)
{
    xmlNodePtr t = site_add(parent, "table", NULL), head, row, c;
    char buf[256];
    int i, w;
    site_attr(t, "caption",
              "Each run of the pair, oldest first: the crossover batch of the resident time "
              "at each hidden width with its 95% interval (always: the other device won at every "
              "batch measured; never: at none), each device's peak throughput with the interval "
              "of that point's median, and what changed since the previous run.");
    if (s->nruns > HIST_TABLE_RUNS) {
        char cap[700];
        snprintf(cap, sizeof cap,
                 "Each run of the pair, oldest first, one row per week (the newest run of the "
                 "week: # counts every run), and a row of its own for each run where a change "
                 "starts or the setup changed: the crossover batch of the resident time at each "
                 "hidden width with its 95%% interval (always: the other device won at every "
                 "batch measured; never: at none), each device's peak throughput with the "
                 "interval of that point's median, and what changed since the previous run. "
                 "The charts above show every run; the archive lists them all.");
        site_attr(t, "caption", cap);
    }
    head = site_add(t, "head", NULL);
    site_add(head, "th", "#");
    site_add(head, "th", "Run");
    for (w = 0; w < s->nwidths; w++) {
        snprintf(buf, sizeof buf, "hidden %d", s->hidden[w]);
        site_add(head, "th", buf);
    }
    snprintf(buf, sizeof buf, "%s peak", s->base);
    site_add(head, "th", buf);
    snprintf(buf, sizeof buf, "%s peak", s->other);
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

/* Whether the charts at each of the n bases (without extension) are all
 * there, wide and narrow. */
static int charts_exist(const char *const *base, int n)
{
    char p[PATHMAX + 32];
    int i;
    for (i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s.png", base[i]);
        if (access(p, F_OK) != 0)
            return 0;
        snprintf(p, sizeof p, "%s" FIGURE_NARROW_SUFFIX ".png", base[i]);
        if (access(p, F_OK) != 0)
            return 0;
    }
    return 1;
}

/* Draws series s's two charts into OUT/history/ unless they show what
 * they showed (the mark of its runs' results, its title and this build),
 * and adds them. */
static int history_charts(const report_ctx *x, xmlNodePtr sn, const hist_series *s,
                          const char *title, err *e)
{
    char dir[PATHMAX], base[PATHMAX], peak[PATHMAX], href[300], alt[600], text[1200];
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
    if (x->o->full || !charts_exist(bases, 2) || !cache_mark_same(x->o->out, mark, &k)) {
        if ((rc = figure_history_cross(s, title, x->o->out, base, e)) < 0 ||
            (rc = figure_history_peak(s, title, x->o->out, peak, e)) < 0 ||
            (rc = cache_mark_save(x->o->out, mark, &k, e)) < 0)
            return rc;
    }
    c = site_add(sn, "chart", NULL);
    snprintf(href, sizeof href, "history/%s-crossover", s->anchor);
    chart_links(c, base, href);
    snprintf(alt, sizeof alt,
             "Chart: the crossover batch per hidden width over the runs of %s, with 95%% "
             "interval bands and the detected changes.",
             title);
    site_attr(c, "alt", alt);
    snprintf(text, sizeof text,
             "From what batch %s beats %s (%s, resident data), run by run, oldest first; a band "
             "is the 95%% interval, a dashed line a detected change.",
             s->other, s->base, workload_mode_name(s->mode));
    site_add(c, "p", text);
    c = site_add(sn, "chart", NULL);
    snprintf(href, sizeof href, "history/%s-peak", s->anchor);
    chart_links(c, peak, href);
    snprintf(alt, sizeof alt, "Chart: the peak throughput of both devices over the runs of %s.",
             title);
    site_attr(c, "alt", alt);
    snprintf(text, sizeof text,
             "The fastest point of each device, run by run (FLOP/s of the whole stack), with the "
             "95%% interval of its median step time.");
    site_add(c, "p", text);
    return BE_OK;
}

static int annotate_history(const report_ctx *x, xmlNodePtr *out, err *e)
{
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), hn = NULL, sn;
    const char *host = NULL;
    char title[1200], buf[800];
    int i, j, rc;
    *out = a;
    site_add(a, "title", "History: how each answer moved over the runs");
    snprintf(buf, sizeof buf,
             "%d run%s, %d series (one per host, mode and pair of devices). A change is a step "
             "in a series that at least %d runs on each side show: found by E-divisive means on "
             "the logarithms, kept when the step's 95%% interval excludes no change and its size "
             "exceeds %.0f%%, with each side's uncertainty never below what its runs' own "
             "intervals give, so that one noisy run is never a change.",
             x->a.n, x->a.n == 1 ? "" : "s", x->h.n, CHG_MIN_SIDE, 100.0 * CHG_NOISE);
    site_add(a, "intro", buf);
    for (i = 0; i < x->h.n; i++) {
        const hist_series *s = &x->h.s[i];
        if (!host || strcmp(host, s->host) != 0) {
            host = s->host;
            hn = site_add(a, "host", NULL);
            site_attr(hn, "name", host);
        }
        sn = site_add(hn, "series", NULL);
        history_series_title(s, title, sizeof title);
        site_attr(sn, "anchor", s->anchor);
        site_attr(sn, "title", title);
        site_attrf(sn, "runs", "%d", s->nruns);
        for (j = 0; j < s->nchanges; j++) {
            xmlNodePtr c = site_add(sn, "change", s->changes[j].text);
            site_attrf(c, "href", "runs/%s/index.html", s->runs[s->changes[j].at]->prov.id);
        }
        if ((rc = history_charts(x, sn, s, title, e)) < 0)
            return rc;
        history_table(sn, s);
    }
    return BE_OK;
}

/* OUT/history.html and its charts. */
static int render_history(report_ctx *x, err *e)
{
    char p[PATHMAX];
    xmlNodePtr a;
    xmlDocPtr doc;
    int rc;
    if ((rc = annotate_history(x, &a, e)) < 0) {
        xmlFreeNode(a);
        return rc;
    }
    doc = site_page(&x->s, "history", a, "style.css", "index.html", "feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s/history.html", x->o->out);
    return put_page(&x->s, &x->box, x->s.history_xsl, doc, p, e);
}

/* ---- the feed ---------------------------------------------------------- */

/* The first <article> element under n, depth first, or NULL. */
static xmlNodePtr find_article(xmlNodePtr n)
{
    while (n) {
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST "article"))
            return n;
        if (n->children) {
            n = n->children;
            continue;
        }
        while (n && !n->next)
            n = n->parent;
        if (n)
            n = n->next;
    }
    return NULL;
}

/* Drops the hover text of the table cells under n (each time's interval
 * in words, which the cell also shows as text): a feed reader shows no
 * hover, and it was a third of the feed's bytes. */
static void drop_cell_titles(xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrEqual(n->name, BAD_CAST "td"))
            xmlUnsetProp(n, BAD_CAST "title");
        drop_cell_titles(n->children);
    }
}

/* The <article> of run k's page, serialized as HTML, links made absolute
 * (or relative to OUT/ without a base URL); *out is the caller's. */
static int article_html(const report_ctx *x, int k, char **out, err *e)
{
    const results *r = x->a.v[k].r;
    char prefix[1400], chart_prefix[1600];
    xmlDocPtr doc, res = NULL;
    xmlChar *html = NULL;
    xmlNodePtr n;
    xmlBufferPtr buf;
    int len, rc;

    snprintf(prefix, sizeof prefix, "%s", x->s.base);
    snprintf(chart_prefix, sizeof chart_prefix, "%sruns/%s/", x->s.base, r->prov.id);
    doc = site_page(&x->s, "feed-item", annotate_run(x, k, prefix, chart_prefix, 0), "style.css",
                    "index.html", "feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    rc = site_transform(&x->s, x->s.run_xsl, doc, "feed item", &html, &len, &res, e);
    xmlFreeDoc(doc);
    if (rc < 0)
        return rc;
    xmlFree(html);
    if (!(n = find_article(xmlDocGetRootElement(res)))) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "templates/run.xsl: the page has no <article> for the feed");
    }
    if (!(buf = xmlBufferCreate())) {
        xmlFreeDoc(res);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    drop_cell_titles(n->children);
    htmlNodeDump(buf, res, n);
    *out = strdup((const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
    xmlFreeDoc(res);
    return *out ? BE_OK : err_set(e, BE_EFAIL, "out of memory");
}

/* Run k's feed item as the cache keeps it: its title (the verdict), its
 * description (the warnings first, the answer, and what changed since the
 * previous run) and its article, apart by ITEM_SEP; run k's full model,
 * findings and comparison in place. */
#define ITEM_SEP '\x1e'
static int item_make(const report_ctx *x, int k, char **item, err *e)
{
    const results *r = x->a.v[k].r;
    const cmp_slot *cs = &x->cmp[k];
    char *body = NULL, title[1024], buf[8192], warn[MAX_WARNINGS][PROSE_WARNING];
    size_t n, nt;
    int rc, i, nw;
    if ((rc = article_html(x, k, &body, e)) < 0)
        return rc;
    /* the title says the verdict (and that a run is partial) */
    page_title(x, k, title, sizeof title);
    buf[0] = '\0';
    nw = prose_warnings(r, warn, MAX_WARNINGS);
    for (i = 0; i < nw; i++)
        fmt_append(buf, sizeof buf, "Warning: %s ", warn[i]);
    n = strlen(buf);
    prose_answer(r, &x->F[k], buf + n, sizeof buf - n);
    if (cs->has && (cs->cmp.verdict == CMP_SLOWER || cs->cmp.verdict == CMP_FASTER)) {
        char sum[400];
        compare_summary(&cs->cmp, sum, sizeof sum);
        fmt_append(buf, sizeof buf, " Since the previous run on %s: %s.", r->prov.host, sum);
    }
    nt = strlen(title);
    n = strlen(buf);
    if (!(*item = malloc(nt + n + strlen(body) + 3))) {
        free(body);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    memcpy(*item, title, nt);
    (*item)[nt] = ITEM_SEP;
    memcpy(*item + nt + 1, buf, n);
    (*item)[nt + 1 + n] = ITEM_SEP;
    strcpy(*item + nt + n + 2, body);
    free(body);
    return BE_OK;
}

/* One <item> of the feed: run k, from its item (item_make). */
static int add_item(const report_ctx *x, xmlNodePtr feed, int k, const char *item, err *e)
{
    const results *r = x->a.v[k].r;
    const char *base = x->s.base, *sep = strchr(item, ITEM_SEP), *sep2;
    xmlNodePtr it = site_add(feed, "item", NULL);
    char *html = NULL, buf[8192];
    int rc;
    if (!sep || !(sep2 = strchr(sep + 1, ITEM_SEP)))
        return err_set(e, BE_EFAIL, "run %s: its feed item is damaged", r->prov.id);
    /* feed readers render a title and a description as HTML: each is text
     * made HTML (escaped) by libxml2's serializer, then escaped again as
     * XML by the feed's own */
    snprintf(buf, sizeof buf, "%.*s", (int)(sep - item), item);
    if ((rc = site_html_text(buf, 0, &html, e)) < 0)
        return rc;
    site_attr(it, "title", html);
    free(html);
    site_attrf(it, "link", "%sruns/%s/index.html", base, r->prov.id);
    /* the run alone names its item, so that a feed reader never sees a
     * published item again as new when the base URL is given or changes */
    site_attrf(it, "guid", "breakeven:run:%s", r->prov.id);
    site_attr(it, "permalink", "false");
    fmt_date_rfc822(buf, sizeof buf, r->prov.finished);
    site_attr(it, "pubdate", buf);
    snprintf(buf, sizeof buf, "%.*s", (int)(sep2 - sep - 1), sep + 1);
    if ((rc = site_html_text(buf, 1, &html, e)) < 0)
        return rc;
    site_add(it, "description", html);
    free(html);
    site_add(it, "content", sep2 + 1);
    return BE_OK;
}

/* One <item> per change the history found at one of the runs from oldest
 * on (archive indices), dated by the run it starts at:
 * its guid names that run, the series and the sub-series, so it stays the
 * same item for as long as the change is found. */
static int add_change_items(const report_ctx *x, xmlNodePtr feed, int oldest, err *e)
{
    char buf[HIST_TEXT + 64], *html = NULL;
    int i, j, rc;
    for (i = 0; i < x->h.n; i++) {
        const hist_series *s = &x->h.s[i];
        for (j = 0; j < s->nchanges; j++) {
            const hist_change *c = &s->changes[j];
            const results *r = s->runs[c->at];
            xmlNodePtr it;
            if (s->arch[c->at] < oldest)
                continue;
            it = site_add(feed, "item", NULL);
            if ((rc = site_html_text(c->title, 0, &html, e)) < 0)
                return rc;
            site_attr(it, "title", html);
            free(html);
            site_attrf(it, "link", "%shistory.html#%s", x->s.base, s->anchor);
            site_attrf(it, "guid", "breakeven:change:%s:%s:%s:%s:%s", r->prov.id,
                       workload_mode_name(s->mode), s->base, s->other, c->key);
            site_attr(it, "permalink", "false");
            fmt_date_rfc822(buf, sizeof buf, r->prov.finished);
            site_attr(it, "pubdate", buf);
            snprintf(buf, sizeof buf, "Change detected: %s", c->text);
            if ((rc = site_html_text(buf, 1, &html, e)) < 0)
                return rc;
            site_add(it, "description", html);
            free(html);
        }
    }
    return BE_OK;
}

static int render_feed(report_ctx *x, err *e)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr feed, ch;
    const results *newest = x->a.v[x->a.n - 1].r;
    char buf[2048], p[PATHMAX], *title = NULL;
    int i, rc, oldest = x->a.n - (x->o->feed_items > 0 ? x->o->feed_items : SITE_FEED_ITEMS);

    if (!doc || !(feed = xmlNewNode(NULL, BAD_CAST "feed"))) {
        xmlFreeDoc(doc);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    xmlDocSetRootElement(doc, feed);
    ch = site_add(feed, "channel", NULL);
    if ((rc = site_html_text(x->s.title[0] ? x->s.title : "breakeven: CPU or GPU, measured", 0,
                             &title, e)) < 0) {
        xmlFreeDoc(doc);
        return rc;
    }
    site_attr(ch, "title", title);
    free(title);
    site_attrf(ch, "link", "%sindex.html", x->s.base);
    site_attrf(ch, "self", "%sfeed.xml", x->s.base);
    site_attr(ch, "description",
              "When the GPU beats the CPU for stacks of dense layers, "
              "measured by breakeven on real machines: one item per run, the newest ones; "
              "older runs are on the archive pages.");
    site_attrf(ch, "generator", "breakeven %s", BE_VERSION);
    fmt_date_rfc822(buf, sizeof buf, newest->prov.finished);
    site_attr(ch, "last-build", buf);
    site_attr(ch, "author", x->s.author);
    if (oldest < 0)
        oldest = 0;
    for (i = x->a.n - 1; i >= oldest; i--)
        if ((rc = add_item(x, feed, i, x->items[i], e)) < 0) {
            xmlFreeDoc(doc);
            return rc;
        }
    if ((rc = add_change_items(x, feed, oldest, e)) < 0) {
        xmlFreeDoc(doc);
        return rc;
    }
    snprintf(p, sizeof p, "%s/feed.xml", x->o->out);
    return put_page(&x->s, &x->box, x->s.feed_xsl, doc, p, e);
}

/* ---- orchestration -------------------------------------------------- */

/* Run k's page: OUT/runs/<id>/index.html, or OUT/index.html (index 1,
 * with the hosts' charts when hosts is not NULL). */
static int render_run_page(report_ctx *x, int k, int index, const results *hosts, int nhosts,
                           const char *unlike, site_outbox *box, err *e)
{
    const archive_run *u = &x->a.v[k];
    char p[PATHMAX], chart_prefix[300];
    xmlDocPtr doc;
    xmlNodePtr a;
    if (index)
        snprintf(chart_prefix, sizeof chart_prefix, "runs/%s/", u->r->prov.id);
    else
        chart_prefix[0] = '\0';
    a = annotate_run(x, k, index ? "" : "../../", chart_prefix, index);
    if (index && (hosts || (unlike && unlike[0])))
        annotate_hosts(a, hosts, nhosts, unlike ? unlike : "", x->o->out);
    doc = site_page(&x->s, index ? "index" : "run", a, "style.css",
                    index ? "index.html" : "../../index.html",
                    index ? "feed.xml" : "../../feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s/index.html", index ? x->o->out : u->dir);
    return put_page(&x->s, box, x->s.run_xsl, doc, p, e);
}

/* Run k's own files into the box: results.csv, results.json, summary.md,
 * style.css and its page (its full model, findings and comparison in
 * place, see with_run). */
static int render_run(report_ctx *x, int k, err *e)
{
    const archive_run *u = &x->a.v[k];
    char p[PATHMAX], *csv;
    size_t len;
    int rc;
    if ((rc = csv_results(u->r, &csv, &len, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/results.csv", u->dir);
    if ((rc = site_put(&x->box, p, csv, len, 0, e)) < 0)
        return rc;
    if ((rc = export_json(u->r, &csv, &len, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/results.json", u->dir);
    if ((rc = site_put(&x->box, p, csv, len, 0, e)) < 0)
        return rc;
    if ((rc = export_summary(u->r, &csv, &len, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/summary.md", u->dir);
    if ((rc = site_put(&x->box, p, csv, len, 0, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/style.css", u->dir);
    if ((rc = site_put(&x->box, p, x->s.css, x->s.css_len, 1, e)) < 0)
        return rc;
    /* a network's page names the site or the host, not the run's verdict
     * on its square shapes */
    {
        char raw[1024];
        if (x->s.title[0])
            snprintf(raw, sizeof raw, "%s", x->s.title);
        else
            snprintf(raw, sizeof raw, "CPU or GPU? Dense layers on %s", u->r->prov.host);
        utf8_line(p, sizeof p, raw);
    }
    if ((rc = page_net_render(&x->s, &x->box, u->r, u->dir, archive_files(u), p, e)) < 0)
        return rc;
    return render_run_page(x, k, 0, NULL, 0, NULL, &x->box, e);
}

/* The oldest run (archive index) of the feed. */
static int feed_oldest(const report_ctx *x)
{
    int n = x->a.n - (x->o->feed_items > 0 ? x->o->feed_items : SITE_FEED_ITEMS);
    return n < 0 ? 0 : n;
}

/* ---- the cache: each run in small, each page's key (cache.h) -------- */

/* The one-line answer and the rows of OUT/results.csv of full, into a
 * digest (which takes over nothing of full). */
static int digest_of(const results *full, cache_digest *d, err *e)
{
    findings F;
    char ans[CACHE_ANSWER], *csv = NULL, *rows;
    const results *one[1];
    size_t len;
    int rc;
    one[0] = full;
    if ((rc = findings_make(full, &F, e)) < 0)
        return rc;
    prose_answer(full, &F, ans, sizeof ans);
    findings_free(&F);
    if ((rc = csv_runs(one, 1, &csv, &len, e)) < 0)
        return rc;
    /* without the header line */
    rows = strstr(csv, "\r\n");
    rows = rows ? rows + 2 : csv + len;
    rc = cache_digest_make(full, ans, rows, len - (size_t)(rows - csv), d, e);
    free(csv);
    return rc;
}

/* What the report keeps of a run besides its small model, by run id until
 * the archive is in order. */
typedef struct run_side {
    char id[128];
    cache_key key;   /* of its results file */
    cache_digest dg; /* answer and rows (dg.r is the archive's) */
} run_side;

static int side_add(report_ctx *x, const char *id, const cache_key *k, cache_digest *d, err *e)
{
    run_side *v = realloc(x->side, (size_t)(x->nside + 1) * sizeof *v);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory");
    x->side = v;
    v = &x->side[x->nside++];
    snprintf(v->id, sizeof v->id, "%s", id);
    v->key = *k;
    v->dg = *d;
    v->dg.r = NULL;
    return BE_OK;
}

/* u, loaded whole from its file src, becomes its digest: kept in the
 * cache, its small model in u->r. */
static int keep_small(report_ctx *x, archive_run *u, const char *src, err *e)
{
    cache_digest d;
    cache_key k;
    int rc;
    if ((rc = cache_key_file(src, &k, e)) < 0 || (rc = digest_of(u->r, &d, e)) < 0)
        return rc;
    /* a cache that cannot be written is a disk that cannot be: said */
    if ((rc = cache_digest_save(x->o->out, u->r->prov.id, &k, &d, e)) < 0) {
        cache_digest_free(&d);
        return rc;
    }
    results_free(u->r);
    u->r = d.r; /* the archive's now */
    d.r = NULL;
    if ((rc = side_add(x, u->r->prov.id, &k, &d, e)) < 0)
        cache_digest_free(&d);
    return rc;
}

/* archive_load's hook for a run given on the command line: an import is
 * placed (its results file and charts staged), then kept small. */
static int on_given(void *ctx, archive *a, int i, err *e)
{
    report_ctx *x = ctx;
    archive_run *u = &a->v[i];
    char staged[ARCHIVE_PATH + 32];
    int rc;
    if ((rc = stopped(x, e)) < 0 || (u->imported && (rc = archive_place(u, e)) < 0))
        return rc;
    if (u->imported)
        snprintf(staged, sizeof staged, "%s/" ARCHIVE_RESULTS, u->stage);
    else
        snprintf(staged, sizeof staged, "%s", u->src);
    return keep_small(x, u, staged, e);
}

/* archive_load's hook for a run of the archive: its digest from the cache
 * when the cache has one for these very results (and --full was not
 * given), else loaded whole and kept small. */
static int on_archived(void *ctx, const char *out, const char *id, archive_run *u, err *e)
{
    report_ctx *x = ctx;
    cache_digest d;
    cache_key k;
    err miss;
    int rc;
    memset(u, 0, sizeof *u);
    if ((rc = stopped(x, e)) < 0 || (rc = archive_check_run(out, id, u, e)) < 0 ||
        (rc = cache_key_file(u->src, &k, e)) < 0)
        return rc;
    if (!x->o->full && cache_digest_load(out, id, &k, &d, &miss) == BE_OK) {
        u->r = d.r;
        if ((rc = side_add(x, id, &k, &d, e)) < 0) {
            cache_digest_free(&d);
            u->r = NULL;
        }
        return rc;
    }
    if ((rc = archive_load_archived(out, id, u, e)) < 0)
        return rc;
    if ((rc = keep_small(x, u, u->src, e)) < 0)
        archive_run_free(u);
    return rc;
}

/* The archive in order: x->dg and x->key follow x->a. */
static int match_sides(report_ctx *x, err *e)
{
    int i, j;
    if (!(x->dg = calloc((size_t)x->a.n, sizeof *x->dg)) ||
        !(x->key = calloc((size_t)x->a.n, sizeof *x->key)) ||
        !(x->items = calloc((size_t)x->a.n, sizeof *x->items)) ||
        !(x->page = calloc((size_t)x->a.n, sizeof *x->page)) ||
        !(x->fresh = calloc((size_t)x->a.n, sizeof *x->fresh)) ||
        !(x->cmp = calloc((size_t)x->a.n, sizeof *x->cmp)) ||
        !(x->F = calloc((size_t)x->a.n, sizeof *x->F)))
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < x->a.n; i++) {
        for (j = 0; j < x->nside && strcmp(x->side[j].id, x->a.v[i].r->prov.id) != 0; j++)
            ;
        if (j == x->nside)
            return err_set(e, BE_EFAIL, "run %s: no digest (internal error)", x->a.v[i].r->prov.id);
        x->dg[i] = x->side[j].dg;
        x->key[i] = x->side[j].key;
        memset(&x->side[j].dg, 0, sizeof x->side[j].dg);
    }
    return BE_OK;
}

/* The key of everything run k's pages are made of besides its own
 * results: the previous run of its host (the comparison), its neighbours
 * in the archive (their entries), its archive page, the changes found at
 * it, whether it is in the feed, the site's settings and templates. */
static void page_key(const report_ctx *x, int k, cache_key *pk)
{
    const archive_run *u = &x->a.v[k];
    cache_hasher h;
    char buf[64];
    int j, i;
    cache_hash_init(&h);
    cache_hash_str(&h, x->site_key.hex);
    cache_hash_str(&h, x->key[k].hex);
    cache_hash_str(&h, u->prev >= 0 ? x->key[u->prev].hex : "-");
    for (j = k - 1; j <= k + 1; j++)
        if (j >= 0 && j < x->a.n && j != k) {
            cache_hash_str(&h, x->a.v[j].r->prov.id);
            cache_hash_str(&h, x->a.v[j].r->prov.host);
            cache_hash_str(&h, x->a.v[j].r->prov.started);
            cache_hash_str(&h, x->dg[j].answer);
        }
    snprintf(buf, sizeof buf, "%d %d %d", archpages_page_of(k, x->o->archive_page),
             k >= feed_oldest(x), u->imported);
    cache_hash_str(&h, buf);
    cache_hash_str(&h, archive_results_name(u));
    for (i = 0; i < x->h.n; i++)
        for (j = 0; j < x->h.s[i].nchanges; j++)
            if (x->h.s[i].arch[x->h.s[i].changes[j].at] == k) {
                cache_hash_str(&h, x->h.s[i].anchor);
                cache_hash_str(&h, x->h.s[i].changes[j].text);
            }
    cache_hash_end(&h, pk);
}

/* The settings and the templates every page is made with. */
static int site_key(report_ctx *x, err *e)
{
    static const char *const files[] = {"templates/common.xsl", "templates/run.xsl",
                                        "templates/compare.xsl", "templates/feed.xsl",
                                        "templates/net.xsl"};
    cache_hasher h;
    char p[PATHMAX + 64], *text;
    size_t len, i;
    int rc;
    cache_hash_init(&h);
    cache_hash_str(&h, x->s.base);
    cache_hash_str(&h, x->s.title);
    cache_hash_str(&h, x->s.author);
    cache_hash(&h, x->s.css, x->s.css_len);
    for (i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(p, sizeof p, "%s/%s", x->s.data, files[i]);
        if ((rc = fsx_read_all(p, &text, &len, e)) < 0)
            return rc;
        cache_hash(&h, text, len);
        free(text);
    }
    cache_hash_end(&h, &x->site_key);
    return BE_OK;
}

/* ---- rendering, one run whole at a time ------------------------------ */

/* Run k loaded whole in place of its small model, with its findings and
 * its comparison with the previous run of its host; undone by
 * without_run.  The previous run stays small: the comparison reads the
 * points' summaries, the passes and the provenance, which its digest
 * keeps whole, never the samples (one run loaded, not two). */
static int with_run(report_ctx *x, int k, results **small, err *e)
{
    archive_run *u = &x->a.v[k];
    results *full = NULL;
    cmp_slot *cs = &x->cmp[k];
    int rc;
    *small = NULL;
    if ((rc = results_load(u->src, &full, e)) < 0)
        return rc;
    if ((rc = findings_make(full, &x->F[k], e)) < 0) {
        results_free(full);
        return rc;
    }
    memset(cs, 0, sizeof *cs);
    if (u->prev >= 0) {
        err ce;
        if (compare_runs(x->a.v[u->prev].r, full, &cs->cmp, &ce) == BE_OK)
            cs->has = 1;
        else
            snprintf(cs->note, sizeof cs->note,
                     "No comparison with the previous run on this host: %s.", ce.msg);
    }
    *small = u->r;
    u->r = full;
    return BE_OK;
}

static void without_run(report_ctx *x, int k, results *small)
{
    archive_run *u = &x->a.v[k];
    results_free(u->r);
    u->r = small;
    findings_free(&x->F[k]);
    compare_free(&x->cmp[k].cmp);
    memset(&x->cmp[k], 0, sizeof x->cmp[k]);
}

/* The run of the front page: the newest that finished (a partial one
 * does not take it over), else the newest. */
static int front_run(const archive *a)
{
    int k;
    for (k = a->n - 1; k > 0 && a->v[k].r->partial; k--)
        ;
    return a->v[k].r->partial ? a->n - 1 : k;
}

/* Draws the charts of the hosts side by side unless they show what they
 * showed (x->hosts_key). */
static int hosts_charts(report_ctx *x, err *e)
{
    char base[2 * WL_TRAINING + 2][PATHMAX];
    const char *bases[2 * WL_TRAINING + 2];
    int m, n = 0, rc;
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        const char *mode = workload_mode_name((wl_mode)m);
        if (!q_has_mode(x->hosts, NULL, (wl_mode)m))
            continue;
        snprintf(base[n], sizeof base[n], "%s/" RUNCHARTS_HOSTS "%s-%s", x->o->out,
                 runcharts_name(RUNCHARTS_THROUGHPUT), mode);
        bases[n] = base[n];
        n++;
        snprintf(base[n], sizeof base[n], "%s/" RUNCHARTS_HOSTS "%s-%s", x->o->out,
                 runcharts_name(RUNCHARTS_RELATIVE_TIME), mode);
        bases[n] = base[n];
        n++;
    }
    if (!x->o->full && charts_exist(bases, n) && cache_mark_same(x->o->out, "hosts", &x->hosts_key))
        return BE_OK;
    if ((rc = runcharts_hosts(x->hosts, x->o->out, x->o->out, e)) < 0)
        return rc;
    return cache_mark_save(x->o->out, "hosts", &x->hosts_key, e);
}

/* The front page's run (x->front), and the newest run of every machine
 * side by side (x->hosts) with their charts.  Each is the archive's small
 * model: the charts and their words read the points' summaries, which the
 * digest keeps whole; so the key of the newest runs' results is the key of
 * the charts. */
static int prepare_front(report_ctx *x, err *e)
{
    archive newest;
    cache_hasher h;
    int i, j, rc = BE_OK;
    results_free(x->hosts);
    x->hosts = NULL;
    x->nhosts = 0;
    x->unlike[0] = '\0';
    x->front_done = 0;
    x->front = front_run(&x->a);
    memset(&newest, 0, sizeof newest);
    cache_hash_init(&h);
    cache_hash_str(&h, "hosts");
    /* newest first, as the keys are hashed */
    for (i = x->a.n - 1; i >= 0; i--) {
        archive_run u = x->a.v[i];
        for (j = 0; j < newest.n && !q_same_machine(newest.v[j].r, u.r); j++)
            ;
        if (j < newest.n)
            continue;
        u.stage[0] = '\0';
        if ((rc = archive_add(&newest, &u, e)) < 0)
            goto done;
        cache_hash_str(&h, x->key[i].hex);
    }
    cache_hash_end(&h, &x->hosts_key);
    /* archive_merge_hosts reads the runs oldest first */
    for (i = 0; i < newest.n / 2; i++) {
        archive_run t = newest.v[i];
        newest.v[i] = newest.v[newest.n - 1 - i];
        newest.v[newest.n - 1 - i] = t;
    }
    if ((rc = archive_merge_hosts(&newest, &x->hosts, &x->nhosts, x->unlike, sizeof x->unlike,
                                  e)) == BE_OK &&
        x->hosts)
        rc = hosts_charts(x, e);
done:
    free(newest.v); /* its runs are the archive's */
    return rc;
}

/* The key of the front page: run k's pages, the hosts, the newest runs it
 * lists and how many runs there are. */
static void front_key(const report_ctx *x, cache_key *fk)
{
    cache_hasher h;
    char buf[32];
    int j;
    cache_hash_init(&h);
    cache_hash_str(&h, x->page[x->front].hex);
    cache_hash_str(&h, x->hosts_key.hex);
    snprintf(buf, sizeof buf, "%d %d", x->front, x->a.n);
    cache_hash_str(&h, buf);
    for (j = x->a.n - ARCHPAGES_FRONT; j < x->a.n; j++)
        if (j >= 0)
            cache_hash_str(&h, x->key[j].hex);
    cache_hash_end(&h, fk);
}

/* OUT/index.html from run x->front, loaded whole (see with_run), and the
 * hosts side by side; its cache entry published with it. */
static int put_front(report_ctx *x, err *e)
{
    char p[PATHMAX], *data;
    size_t len;
    cache_key fk;
    int rc;
    if ((rc = render_run_page(x, x->front, 1, x->hosts, x->nhosts, x->unlike, &x->box, e)) < 0)
        return rc;
    front_key(x, &fk);
    if ((rc = cache_page_entry(x->o->out, CACHE_FRONT, &fk, NULL, p, sizeof p, &data, &len, e)) <
            0 ||
        (rc = site_put(&x->box, p, data, len, 0, e)) < 0)
        return rc;
    x->front_done = 1;
    return BE_OK;
}

/* OUT/index.html, unless the pages rendered it already (render_whole) or
 * it is as the cache says it was rendered. */
static int render_index(report_ctx *x, err *e)
{
    char p[PATHMAX + 16];
    cache_key fk, old;
    results *small;
    err ignore;
    int rc;
    if (x->front_done)
        return BE_OK;
    front_key(x, &fk);
    snprintf(p, sizeof p, "%s/index.html", x->o->out);
    if (!x->o->full && access(p, F_OK) == 0 &&
        cache_page_load(x->o->out, CACHE_FRONT, &old, NULL, &ignore) == BE_OK &&
        strcmp(old.hex, fk.hex) == 0)
        return BE_OK;
    if ((rc = with_run(x, x->front, &small, e)) < 0)
        return rc;
    rc = put_front(x, e);
    without_run(x, x->front, small);
    return rc;
}

/* Run k's pages, its comparison page and, in the feed, its item. */
static int render_whole(report_ctx *x, int k, err *e)
{
    archive_run *u = &x->a.v[k];
    results *small;
    int rc = with_run(x, k, &small, e);
    if (rc < 0)
        return rc;
    /* an archived run's charts, drawn when its directory lacks them */
    if (!u->imported)
        rc = archive_place(u, e);
    if (rc == BE_OK && x->cmp[k].has)
        rc = render_compare(&x->s, x->o->out, &x->cmp[k].cmp, x->a.v[u->prev].r, u->r, &x->box,
                            NULL, 0, e);
    if (rc == BE_OK)
        rc = render_run(x, k, e);
    /* the front page while the run is loaded */
    if (rc == BE_OK && k == x->front)
        rc = put_front(x, e);
    free(x->items[k]);
    x->items[k] = NULL;
    if (rc == BE_OK && k >= feed_oldest(x))
        rc = item_make(x, k, &x->items[k], e);
    without_run(x, k, small);
    return rc;
}

/* Whether run k's pages are as the cache says they were rendered: the
 * same key, its page on disk, its feed item kept when it is in the feed. */
static int unchanged(report_ctx *x, int k)
{
    cache_key old;
    char p[PATHMAX + 16], *item = NULL;
    err ignore;
    snprintf(p, sizeof p, "%s/index.html", x->a.v[k].dir);
    if (x->o->full || x->a.v[k].imported || access(p, F_OK) != 0 ||
        cache_page_load(x->o->out, x->a.v[k].r->prov.id, &old, &item, &ignore) < 0)
        return 0;
    if (strcmp(old.hex, x->page[k].hex) != 0 || (k >= feed_oldest(x) && !item)) {
        free(item);
        return 0;
    }
    x->items[k] = item;
    return 1;
}

/* Drops run i (it cannot be rendered) with its side data. */
static void drop_run(report_ctx *x, int i, const char *why)
{
    int n = x->a.n - i - 1;
    cache_digest_free(&x->dg[i]);
    free(x->items[i]);
    memmove(&x->dg[i], &x->dg[i + 1], (size_t)n * sizeof *x->dg);
    memmove(&x->key[i], &x->key[i + 1], (size_t)n * sizeof *x->key);
    memmove(&x->items[i], &x->items[i + 1], (size_t)n * sizeof *x->items);
    memset(x->fresh, 0, (size_t)x->a.n);
    archive_skip(&x->a, i, why);
}

/* Every run's pages that changed; a run of the archive whose pages do not
 * render is dropped and the pages are made again without it (its
 * neighbours' links change), an imported one is refused. */
static int render_runs(report_ctx *x, int *again, err *e)
{
    int k, rc;
    err why;
    *again = 0;
    history_free(&x->h);
    if ((rc = history_make(&x->a, &x->h, e)) < 0 || (rc = prepare_front(x, e)) < 0)
        return rc;
    for (k = 0; k < x->a.n; k++) {
        if ((rc = stopped(x, e)) < 0)
            return rc;
        page_key(x, k, &x->page[k]);
        if (unchanged(x, k))
            continue;
        x->fresh[k] = 1;
        if (render_whole(x, k, &why) == BE_OK)
            continue;
        if (x->a.v[k].imported || x->a.n == 1) {
            *e = why;
            return BE_EFAIL;
        }
        drop_run(x, k, why.msg);
        *again = 1;
        return BE_OK;
    }
    return BE_OK;
}

/* OUT/results.csv, every point of every run (each run's rows as its digest
 * keeps them), and OUT/fits.csv, every crossover per hidden width per
 * run. */
static int put_tables(report_ctx *x, err *e)
{
    const results **runs = malloc((size_t)x->a.n * sizeof *runs);
    char p[PATHMAX], *csv = NULL, *all;
    size_t len, total;
    int i, rc;
    if (!runs)
        return err_set(e, BE_EFAIL, "out of memory");
    for (i = 0; i < x->a.n; i++)
        runs[i] = x->a.v[i].r;
    /* the header as csv_runs writes it, then the rows */
    rc = csv_runs(runs, 0, &csv, &len, e);
    for (i = 0, total = len; rc == BE_OK && i < x->a.n; i++)
        total += x->dg[i].nrows;
    if (rc == BE_OK && !(all = malloc(total + 1))) {
        rc = err_set(e, BE_EFAIL, "out of memory");
    } else if (rc == BE_OK) {
        memcpy(all, csv, len);
        for (i = 0, total = len; i < x->a.n; i++) {
            memcpy(all + total, x->dg[i].rows, x->dg[i].nrows);
            total += x->dg[i].nrows;
        }
        snprintf(p, sizeof p, "%s/results.csv", x->o->out);
        rc = site_put(&x->box, p, all, total, 0, e);
    }
    free(csv);
    if (rc == BE_OK && (rc = csv_fits(runs, x->a.n, &csv, &len, e)) == BE_OK) {
        snprintf(p, sizeof p, "%s/fits.csv", x->o->out);
        rc = site_put(&x->box, p, csv, len, 0, e);
    }
    free(runs);
    return rc;
}

/* Every feed item the pages did not render: loaded whole for it. */
static int fill_items(report_ctx *x, err *e)
{
    int k, rc;
    for (k = feed_oldest(x); k < x->a.n; k++) {
        results *small;
        if (x->items[k])
            continue;
        if ((rc = with_run(x, k, &small, e)) < 0)
            return rc;
        rc = item_make(x, k, &x->items[k], e);
        without_run(x, k, small);
        if (rc < 0)
            return rc;
    }
    return BE_OK;
}

static int render_all(report_ctx *x, char *index, size_t size, err *e)
{
    char p[PATHMAX];
    int i, rc, again = 1;
    while (again) {
        site_outbox_free(&x->box);
        if ((rc = render_runs(x, &again, e)) < 0)
            return rc;
    }
    snprintf(p, sizeof p, "%s/style.css", x->o->out);
    if ((rc = site_put(&x->box, p, x->s.css, x->s.css_len, 1, e)) < 0 ||
        (rc = put_tables(x, e)) < 0 || (rc = render_index(x, e)) < 0 ||
        (rc = fill_items(x, e)) < 0 ||
        (rc = archpages_render(&x->s, &x->a, x->dg, x->o->out, x->o->archive_page, &x->box, e)) <
            0 ||
        (rc = render_history(x, e)) < 0 || (rc = render_feed(x, e)) < 0)
        return rc;
    /* the cache's word on each run's pages rendered now, published with
     * them (the others' entries say what they said) */
    for (i = 0; i < x->a.n; i++) {
        char *data;
        size_t len;
        if (!x->fresh[i])
            continue;
        if ((rc = cache_page_entry(x->o->out, x->a.v[i].r->prov.id, &x->page[i],
                                   i >= feed_oldest(x) ? x->items[i] : NULL, p, sizeof p, &data,
                                   &len, e)) < 0 ||
            (rc = site_put(&x->box, p, data, len, 0, e)) < 0)
            return rc;
    }
    if ((rc = stopped(x, e)) < 0)
        return rc;
    /* everything rendered: the imported runs enter OUT/runs/, then the
     * files are published as one set */
    for (i = 0; i < x->a.n; i++)
        if ((rc = archive_commit(&x->a.v[i], e)) < 0)
            return rc;
    if ((rc = site_flush(&x->box, x->o->out, x->o->stop, e)) < 0)
        return rc;
    snprintf(index, size, "%s/index.html", x->o->out);
    return BE_OK;
}

/* The places a report writes at in OUT, checked before anything is drawn
 * or rendered: a link planted at one of them, or at a directory on the
 * way, refuses the report with OUT as it was (site_flush checks every
 * staged file again before the first is written). */
static int check_out(const char *out, err *e)
{
    static const char *const fixed[] = {
        "index.html",   "feed.xml",  "style.css",       "results.csv",       "fits.csv",
        "history.html", "site.conf", "runs/index.html", "history/style.css", "compare/style.css",
    };
    static const char *const chart_dirs[] = {"", "history", "compare", "runs"};
    char p[PATHMAX];
    size_t i;
    int rc;
    for (i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        snprintf(p, sizeof p, "%s/%s", out, fixed[i]);
        if ((rc = fsx_check_in(out, p, e)) < 0)
            return rc;
    }
    /* the charts' names depend on the data: every PNG where charts go,
     * each run's too (before the archive is read, which writes the cache) */
    for (i = 0; i < sizeof chart_dirs / sizeof *chart_dirs; i++) {
        snprintf(p, sizeof p, "%s%s%s", out, *chart_dirs[i] ? "/" : "", chart_dirs[i]);
        if ((rc = fsx_check_links_in(out, p, ".png", strcmp(chart_dirs[i], "runs") == 0, e)) < 0)
            return rc;
    }
    return BE_OK;
}

/* Once every check passed: what a killed report, run or import left in
 * the directories of OUT this report writes (runs: NULL for none), so
 * that a SIGKILL's temporaries do not stay forever (fsx_sweep_in). */
static int sweep_out(const char *out, const archive *a, err *e)
{
    static const char *const dirs[] = {"", "runs", "history", "compare", CACHE_DIR};
    char p[PATHMAX];
    size_t i;
    int k, rc;
    for (i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s%s%s", out, *dirs[i] ? "/" : "", dirs[i]);
        if ((rc = fsx_sweep_in(out, p, e)) < 0)
            return rc;
    }
    for (k = 0; a && k < a->n; k++)
        if (fsx_inside(out, a->v[k].dir) && (rc = fsx_sweep_in(out, a->v[k].dir, e)) < 0)
            return rc;
    return BE_OK;
}

/* check_out for the files of every run of the archive. */
static int check_runs(const char *out, const archive *a, err *e)
{
    static const char *const files[] = {"index.html", "results.csv", "results.json", "summary.md",
                                        "style.css"};
    char p[PATHMAX];
    size_t k;
    int i, rc;
    for (i = 0; i < a->n; i++)
        for (k = 0; k < sizeof files / sizeof *files; k++) {
            snprintf(p, sizeof p, "%s/%s", a->v[i].dir, files[k]);
            if (fsx_inside(out, p) && (rc = fsx_check_in(out, p, e)) < 0)
                return rc;
        }
    return BE_OK;
}

/* The archive's notes, through o->warn. */
static void warn_notes(const report_opts *o, const archive *a)
{
    char line[ARCHIVE_NOTE + 64];
    int i;
    if (!o->warn)
        return;
    for (i = 0; i < a->nnotes && i < ARCHIVE_NOTES; i++)
        o->warn(o->warn_ctx, a->notes[i]);
    if (a->nnotes > ARCHIVE_NOTES) {
        snprintf(line, sizeof line, "and %d more runs skipped or renamed",
                 a->nnotes - ARCHIVE_NOTES);
        o->warn(o->warn_ctx, line);
    }
}

static void ctx_free(report_ctx *x)
{
    int i;
    for (i = 0; i < x->nside; i++)
        cache_digest_free(&x->side[i].dg);
    for (i = 0; x->dg && i < x->a.n; i++)
        cache_digest_free(&x->dg[i]);
    for (i = 0; x->items && i < x->a.n; i++)
        free(x->items[i]);
    history_free(&x->h);
    results_free(x->hosts);
    free(x->side);
    free(x->dg);
    free(x->key);
    free(x->items);
    free(x->page);
    free(x->fresh);
    free(x->cmp);
    free(x->F);
    archive_free(&x->a);
    site_outbox_free(&x->box);
    site_close(&x->s);
}

int report_write(const report_opts *o, char *index, size_t size, err *e)
{
    report_ctx *x = calloc(1, sizeof *x);
    archive_hooks hk;
    int rc;

    if (!x)
        return err_set(e, BE_EFAIL, "out of memory");
    x->o = o;
    hk.ctx = x;
    hk.given = on_given;
    hk.archived = on_archived;
    if ((rc = check_out(o->out, e)) < 0 ||
        (rc = site_open(&x->s, o->data_dir, o->base_url, o->title, o->author, e)) < 0) {
        free(x);
        return rc;
    }
    if ((rc = site_recover(o->out, e)) == BE_OK && (rc = site_key(x, e)) == BE_OK &&
        (rc = archive_load(o->out, o->runs, o->nruns, &hk, &x->a, e)) == BE_OK) {
        if ((rc = match_sides(x, e)) == BE_OK && (rc = check_runs(o->out, &x->a, e)) == BE_OK &&
            (rc = sweep_out(o->out, &x->a, e)) == BE_OK)
            rc = render_all(x, index, size, e);
        warn_notes(o, &x->a);
    }
    ctx_free(x);
    free(x);
    return rc;
}

int report_compare(const report_opts *o, const char *const *a, int na, const char *const *b, int nb,
                   const compare_opts *co, compare_set *cmp, char *page, size_t size, err *e)
{
    site s;
    archive_run *u; /* na + nb of them: each holds paths, too big for the stack */
    const results *ra[COMPARE_MAX_RUNS], *rb[COMPARE_MAX_RUNS];
    const results **band = NULL;
    archive arch;
    compare_opts opts = *co;
    site_outbox box = {0};
    err ae;
    int rc = BE_OK, i, n = 0, have_arch;

    memset(cmp, 0, sizeof *cmp);
    if (na < 1 || nb < 1 || na > COMPARE_MAX_RUNS || nb > COMPARE_MAX_RUNS)
        return err_set(e, BE_EUSAGE, "compare: 1 to %d runs per side", COMPARE_MAX_RUNS);
    if ((rc = check_out(o->out, e)) < 0 || (rc = sweep_out(o->out, NULL, e)) < 0)
        return rc;
    if (!(u = calloc((size_t)(na + nb), sizeof *u)))
        return err_set(e, BE_EFAIL, "compare: out of memory");
    if ((rc = site_open(&s, o->data_dir, o->base_url, o->title, o->author, e)) < 0) {
        free(u);
        return rc;
    }
    for (n = 0; n < na + nb && rc == BE_OK; n++)
        rc = archive_load_run(o->out, n < na ? a[n] : b[n - na], &u[n], e);
    if (rc < 0)
        n--;
    for (i = 0; rc == BE_OK && i < na + nb; i++) {
        if (i < na)
            ra[i] = u[i].r;
        else
            rb[i - na] = u[i].r;
    }
    /* the archive's runs are the band's candidates: compare.c keeps those
     * of the same host and software; no archive, no band */
    have_arch = rc == BE_OK && archive_load(o->out, NULL, 0, NULL, &arch, &ae) == BE_OK;
    if (have_arch && arch.n > 0 && (band = malloc((size_t)arch.n * sizeof *band)) != NULL) {
        for (i = 0; i < arch.n; i++)
            band[i] = arch.v[i].r;
        opts.band = band;
        opts.nband = arch.n;
    }
    if (rc < 0 || (rc = compare_sets(ra, na, rb, nb, &opts, cmp, e)) < 0 ||
        (rc = render_compare(&s, o->out, cmp, ra[0], rb[0], &box, page, size, e)) < 0 ||
        (rc = site_flush(&box, o->out, o->stop, e)) < 0) {
        compare_free(cmp);
    }
    cmp->opts.band = NULL;
    cmp->opts.nband = 0;
    free(band);
    if (have_arch)
        archive_free(&arch);
    site_outbox_free(&box);
    for (i = 0; i < n; i++)
        archive_run_free(&u[i]);
    free(u);
    site_close(&s);
    return rc;
}
