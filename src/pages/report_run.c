/*
 * report_run.c — the page of one run (see report_impl.h): its charts with
 * what each shows in words (prose.h), the tables of times, the warnings,
 * its neighbours in the archive and the comparison with the previous run
 * of its host, as an <annotation> that site.h's XSLT turns into its page,
 * the front page and its feed item's article; and the files beside it
 * (results.csv, results.json, summary.md, its networks' pages).
 *
 * Strings only ever enter the tree as text or attribute values, so a
 * device called "<script>" comes out escaped.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archpages.h"
#include "csv.h"
#include "export.h"
#include "figure.h"
#include "fmt.h"
#include "net.h"
#include "netfit.h"
#include "page_net.h"
#include "prose.h"
#include "query.h"
#include "reproduce.h"
#include "runcharts.h"
#include "systable.h"
#include "utf8.h"
#include "workload.h"

/* ---- charts and tables ------------------------------------------------- */

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
    report_chart_links(c, png, href);
    site_attr(c, "alt", alt);
    site_add(c, "p", text);
}

/* One time cell of the table: device p's median in the resident view
 * (transfer 0) or with transfers, or why there is none; "†" after a time
 * measured while the device was throttled (telemetry.h), "↗" after one
 * that drifted (status drift).  The interval itself is text of the cell
 * (attribute ci), not only its title: a phone has no hover. */
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
        /* why, on demand: the warnings above the table quote one reason */
        if (p->message[0])
            site_attr(c, "title", p->message);
    } else {
        const stats_summary *s = transfer && p->has_transfer ? &p->transfer : &p->resident;
        char lo_t[32], hi_t[32];
        double lo, hi;
        int wide = q_ci_rel(s, &lo, &hi), useless = q_summary_uninformative(s);
        fmt_time(buf, sizeof buf, s->median);
        c = site_add(row, "td", buf);
        if (p->tel.throttled)
            site_attr(c, "throttled", "yes");
        site_attr(c, "status", s->drift ? "drift" : "ok");
        fmt_time(lo_t, sizeof lo_t, s->ci_lo);
        fmt_time(hi_t, sizeof hi_t, s->ci_hi);
        site_attrf(c, "ci", "%s \xe2\x80\x93 %s", lo_t, hi_t);
        site_attrf(c, "n", "%d", s->n);
        if (wide || useless)
            site_attr(c, "flag", useless ? "uninformative" : "wide");
        site_attrf(c, "title",
                   "median %s, 95%% interval %s to %s (\xe2\x88\x92%.1f%%, "
                   "+%.1f%%), %d samples%s%s%s",
                   buf, lo_t, hi_t, 100.0 * lo, 100.0 * hi, s->n,
                   s->passes > 1 ? " in passes: the interval includes how they differ" : "",
                   useless ? "; uninformative: its upper end is over 2\xc3\x97 its lower"
                   : wide  ? "; wider than \xc2\xb1"
                             "10%"
                           : "",
                   p->tel.throttled ? "; measured while the device was throttled" : "");
    }
}

/* The energy cell of p: joules per step; under it, per sample of the
 * batch and the time of the steps the counter spanned with their mean
 * power, so that the energy sits beside the step it was measured over (an
 * energy run's untimed steps can take longer than the timed median beside
 * them); empty without one. */
static void add_energy_cell(xmlNodePtr row, const rs_point *p)
{
    double j = p ? q_energy(p) : Q_NO_ENERGY, step = p ? q_energy_step(p) : Q_NO_ENERGY;
    char buf[64];
    xmlNodePtr c;
    if (j < 0.0) {
        c = site_add(row, "td", "");
        site_attr(c, "status", "missing");
        return;
    }
    fmt_si(buf, sizeof buf, j, 3, "J");
    c = site_add(row, "td", buf);
    site_attr(c, "status", "ok");
    fmt_si(buf, sizeof buf, j / p->batch, 3, "J");
    site_attr(c, "sample", buf);
    if (step > 0.0) {
        fmt_time(buf, sizeof buf, step);
        site_attr(c, "steps", buf);
        fmt_si(buf, sizeof buf, j / step, 3, "W");
        site_attr(c, "power", buf);
    }
}

/* 1 when a cell of mode m's table is marked as drifting (its point's own
 * drift test, stats.h, in the view the cell shows). */
static int any_drift(const results *r, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == m && q_ok(p) && !p->net[0] &&
            (p->resident.drift || (p->has_transfer && p->transfer.drift)))
            return 1;
    }
    return 0;
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

/* The table of times of mode m: a group of rows per shape, a row per
 * device and view, so that a phone shows every device's median of a
 * shape without scrolling sideways, and a desktop every device at once. */
static void add_table(xmlNodePtr parent, const results *r, wl_mode m)
{
    q_shape shapes[Q_MAX_SHAPES];
    int n = q_shapes(r, m, shapes, Q_MAX_SHAPES), i, d, energy = q_has_energy(r, NULL, m);
    xmlNodePtr t = site_add(parent, "table", NULL), g, row;
    char buf[64], cap[1200];
    /* training's table after inference's: its marks were said there, and
     * a page says a thing once */
    const int again = m == WL_TRAINING && q_has_mode(r, NULL, WL_INFERENCE);
    if (energy)
        site_attr(t, "energy", "yes");
    for (i = 0; i < n; i++) {
        g = site_add(t, "shape", NULL);
        site_attrf(g, "hidden", "%d", shapes[i].hidden);
        site_attrf(g, "batch", "%d", shapes[i].batch);
        fmt_si(buf, sizeof buf, workload_flops_per_layer(m, shapes[i].hidden, shapes[i].batch), 3,
               "FLOP");
        site_attr(g, "flops", buf);
        for (d = 0; d < r->ndevices && d < RESULTS_MAX_DEVICES; d++) {
            const rs_point *p = q_point(r, r->devices[d].id, m, shapes[i].hidden, shapes[i].batch);
            char name[256], l[400];
            int transfers = strcmp(r->devices[d].kind, "opencl") == 0;
            figure_device_label(r, d, name, sizeof name);
            row = site_add(g, "row", NULL);
            site_attr(row, "device", name);
            add_cell(row, p, 0);
            if (energy)
                add_energy_cell(row, transfers ? NULL : p);
            if (!transfers)
                continue;
            /* an OpenCL device's energy is of its whole steps, transfers
             * included (sweep.c): its steps' time matches this row's */
            snprintf(l, sizeof l, "%s with transfers", name);
            row = site_add(g, "row", NULL);
            site_attr(row, "device", l);
            add_cell(row, p, 1);
            if (energy)
                add_energy_cell(row, p);
        }
    }
    snprintf(cap, sizeof cap,
             "Median time of one step of %d layer%s (%s) at each shape, a row per "
             "device%s.",
             r->prov.layers, r->prov.layers == 1 ? "" : "s", workload_mode_name(m),
             again ? ", marked as the inference table is" : "");
    if (!again)
        fmt_append(cap, sizeof cap,
                   " Under each: its 95%% interval and the number of samples n. "
                   "\xe2\x80\x9cWide\xe2\x80\x9d marks an interval reaching more than 10%% "
                   "from the median; \xe2\x80\x9cuninformative\xe2\x80\x9d one whose upper "
                   "end is over 2\xc3\x97 its lower (it says nothing). A dash (\xe2\x80\x94) "
                   "means out of memory.");
    if (any_drift(r, m) && !(again && any_drift(r, WL_INFERENCE)))
        fmt_append(cap, sizeof cap,
                   " An arrow \xe2\x86\x97 marks a time that got slower while it was measured "
                   "(its last third against its first, one-sided p < 0.01 and 2%% slower).");
    /* a step's energy is of the whole step (backend.h: upload, step,
     * read-back), so it sits on the row of the time with transfers */
    if (energy && !(again && q_has_energy(r, NULL, WL_INFERENCE)))
        fmt_append(cap, sizeof cap,
                   " Energy: per whole step (transfers included where the device has them), "
                   "where its counter covered at least a second of steps. Under it, the energy "
                   "per sample of the batch, and the time and mean power of the steps it was "
                   "measured over.");
    if (any_throttled(r, m) && !(again && any_throttled(r, WL_INFERENCE)))
        fmt_append(cap, sizeof cap,
                   " A dagger \xe2\x80\xa0 marks a time measured while the device was "
                   "throttled (power cap, thermal or hardware slowdown).");
    site_attr(t, "caption", cap);
}

/* ---- the run's annotation ---------------------------------------------- */

/* The bars of each device's step time (cost 0) or cost of a step (1)
 * relative to the base in mode m, with their paragraph. */
static void add_relative(xmlNodePtr mn, const results *r, const findings *F, wl_mode m, int cost,
                         const char *dir, const char *chart_prefix)
{
    char buf[8192], alt[512], base[256];
    prose_relative(r, F, m, cost, buf, sizeof buf);
    q_device_name(r, q_base_id(r), base, sizeof base);
    snprintf(alt, sizeof alt, "Chart: bars of %s relative to %s (%s), lower is %s.",
             cost ? "the cost of a step" : "step time", base, workload_mode_name(m),
             cost ? "cheaper" : "better");
    add_chart(mn, dir, chart_prefix,
              runcharts_name(cost ? RUNCHARTS_COST : RUNCHARTS_RELATIVE_TIME), m, alt, buf);
}

/* The charts of hidden widths, their paragraphs and the table of one
 * mode: for the square stack only (a network's are on its own page,
 * page_net.c, where its sizes are not taken for a hidden width). */
static void add_square(xmlNodePtr mn, const results *r, const findings *F, wl_mode m,
                       const char *dir, const char *chart_prefix)
{
    const char *mode = workload_mode_name(m);
    char buf[8192], alt[512], base[256];

    q_device_name(r, q_base_id(r), base, sizeof base);
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
                 q_single_base(r) ? base : "its stack's CPU", mode);
        add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_SPEED_RATIO), m, alt, buf);
        prose_winner(r, F, m, buf, sizeof buf);
        snprintf(alt, sizeof alt,
                 "Chart: winner map of hidden width against batch size "
                 "(%s), each cell coloured by the faster device.",
                 mode);
        add_chart(mn, dir, chart_prefix, runcharts_name(RUNCHARTS_WINNER_MAP), m, alt, buf);
    }
    add_relative(mn, r, F, m, 0, dir, chart_prefix);
    if (r->prices.n > 0)
        add_relative(mn, r, F, m, 1, dir, chart_prefix);
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

/* The conclusions of a mode: its devices' findings and peaks (a run of
 * more devices is cut to the first ones). */
#define MAX_BULLETS 24

/* The charts, their paragraphs, the table and the conclusions of one mode. */
static void add_mode(xmlNodePtr a, const results *r, const findings *F, wl_mode m, const char *dir,
                     const char *chart_prefix)
{
    xmlNodePtr mn = site_add(a, "mode", NULL);
    char buf[8192];
    char bullets[MAX_BULLETS][PROSE_BULLET];
    int i, n;

    site_attr(mn, "name", workload_mode_name(m));
    if (q_has_square(r, m))
        add_square(mn, r, F, m, dir, chart_prefix);
    else
        add_net_charts(mn, r, m, dir, chart_prefix);
    prose_energy(r, m, buf, sizeof buf);
    if (buf[0])
        site_add(mn, "energy", buf);
    n = prose_conclusions(r, F, m, bullets, MAX_BULLETS);
    for (i = 0; i < n; i++)
        site_add(mn, "conclusion", bullets[i]);
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

/* The characters (not bytes) of UTF-8 text s. */
static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* What a link preview says of run r (description, og:description): its
 * caveats in a few words (prose_caveat_short), then its summary
 * (prose_summary), or its headline where both would not fit
 * PROSE_SUMMARY_MAX; a summary that is the headline loses the caveat its
 * title starts with, said just before. */
static void describe(const results *r, const findings *F, char *buf, size_t size)
{
    char sum[1024], cav[256], pre[80];
    size_t n, skip = 0;
    prose_summary(r, F, sum, sizeof sum);
    prose_caveat_short(r, 1, cav, sizeof cav);
    if (!cav[0]) {
        snprintf(buf, size, "%s", sum);
        return;
    }
    prose_caveat_title(r, pre, sizeof pre);
    n = strlen(pre);
    if (n && strlen(sum) > n + 2 && strncmp(sum + 1, pre + 1, n - 1) == 0 && sum[n] == ':')
        skip = n + 2;
    snprintf(buf, size, "%s %s", cav, sum + skip);
    if (text_chars(buf) <= PROSE_SUMMARY_MAX)
        return;
    prose_headline(r, F, sum, sizeof sum);
    skip = n && strncmp(sum + 1, pre + 1, n - 1) == 0 && sum[n] == ':' ? n + 2 : 0;
    snprintf(buf, size, "%s %s", cav, sum + skip);
}

/* The annotation of run k.  prefix: from the page to OUT/; chart links
 * get chart_prefix (prefix + "runs/<id>/" unless the page is beside
 * them). */
xmlNodePtr report_annotate_run(const report_ctx *x, int k, const char *prefix,
                               const char *chart_prefix, int front)
{
    const archive_run *u = &x->a.v[k];
    const results *r = u->r;
    const cmp_slot *cs = x->cmp;
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), lead, cc;
    const finding *hf;
    char buf[8192], date[64], warn[MAX_WARNINGS][PROSE_WARNING];
    char caveat[MAX_WARNINGS][PROSE_CAVEAT];
    int m, i, nw, dirty;

    report_page_title(x, k, buf, sizeof buf);
    fmt_date(date, sizeof date, r->prov.started);
    site_attr(a, "run", r->prov.id);
    site_attr(a, "date", date);
    site_attr(a, "datetime", r->prov.started);
    site_add(a, "title", buf);
    /* what changes the meaning of every figure, above them all: in a few
     * words (as the description starts), then a sentence each */
    prose_caveat_short(r, 1, buf, sizeof buf);
    if (buf[0]) {
        cc = site_add(a, "caveats", NULL);
        site_attr(cc, "short", buf);
        nw = prose_caveats(r, caveat, MAX_WARNINGS);
        for (i = 0; i < nw; i++)
            site_add(cc, "caveat", caveat[i]);
    }
    /* the answer in three sentences (the headline finding's), the detail
     * of every finding under it, and the summary link previews show */
    lead = site_add(a, "lead", NULL);
    hf = prose_lead_finding(&x->F[k]);
    if (hf) {
        /* a run of several stacks answers for each (PyTorch's GPU against
         * PyTorch's CPU, breakeven's kernels against OpenBLAS) */
        if (!findings_lead_stacks(&x->F[k], r, 3, buf, sizeof buf))
            findings_lead(hf, r, 3, buf, sizeof buf);
        site_add(lead, "p", buf);
        for (i = 0; i < x->F[k].n; i++)
            if (x->F[k].f[i].c->view == FIT_RESIDENT) {
                findings_item(&x->F[k].f[i], r, r->ndevices > 2, buf, sizeof buf);
                site_add(lead, "item", buf);
            }
    }
    prose_alone(r, buf, sizeof buf);
    if (!hf && !buf[0])
        prose_net_lead(r, buf, sizeof buf);
    if (buf[0])
        site_add(lead, "p", buf);
    else if (!r->has_fit)
        site_add(lead, "note",
                 "This results file has no fit, so no crossover can be given; the "
                 "tables below show the measured times.");
    else if (r->fit.ncross > 0 && r->prices.n == 0)
        site_add(lead, "note",
                 "No prices were given, so there are no cost figures (run with "
                 "--price DEVICE=USD_PER_HOUR for each device).");
    describe(r, &x->F[k], buf, sizeof buf);
    site_add(a, "summary", buf);
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
    char buf[4096], alt[600], kind[64], base[256];
    int k;
    if (m)
        snprintf(buf, sizeof buf,
                 "The newest run of each of the %d machines, side by side; devices "
                 "are named machine/device, a machine by its label or else its host name "
                 "(name~fingerprint/device where two machines share a name).",
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
        q_device_name(m, q_base_id(m), base, sizeof base);
        snprintf(alt, sizeof alt,
                 "Chart: step time of the devices of every host relative to %s "
                 "(%s).",
                 base, mode);
        snprintf(kind, sizeof kind, RUNCHARTS_HOSTS "%s", runcharts_name(RUNCHARTS_RELATIVE_TIME));
        add_chart(h, out, "", kind, (wl_mode)k, alt, buf);
    }
}

/* Run k's page: OUT/runs/<id>/index.html, or OUT/index.html (index 1,
 * with the hosts' charts when hosts is not NULL). */
int report_run_page(report_ctx *x, int k, int index, const results *hosts, int nhosts,
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
    a = report_annotate_run(x, k, index ? "" : "../../", chart_prefix, index);
    if (index && (hosts || (unlike && unlike[0])))
        annotate_hosts(a, hosts, nhosts, unlike ? unlike : "", x->o->out);
    snprintf(p, sizeof p, "runs/%s/index.html", u->r->prov.id);
    doc = site_page(&x->s, index ? "index" : "run", a, index ? "index.html" : p, "style.css",
                    index ? "index.html" : "../../index.html",
                    index ? "feed.xml" : "../../feed.xml", e);
    if (!doc)
        return BE_EFAIL;
    snprintf(p, sizeof p, "%s/index.html", index ? x->o->out : u->dir);
    return report_put_page(&x->s, box, x->s.run_xsl, doc, p, e);
}

/* Run k's own files into the box: results.csv, results.json, summary.md,
 * style.css and its page (its full model, findings and comparison in
 * place, see report.c's with_run). */
int report_render_run(report_ctx *x, int k, err *e)
{
    /* the run's exports, each made whole in memory and staged */
    static const struct {
        const char *name;
        int (*make)(const results *r, char **out, size_t *len, err *e);
    } exports[] = {{"results.csv", csv_results},
                   {"results.json", export_json},
                   {"summary.md", export_summary}};
    const archive_run *u = &x->a.v[k];
    char p[PATHMAX], *data;
    size_t len, i;
    int rc;
    for (i = 0; i < sizeof exports / sizeof *exports; i++) {
        if ((rc = exports[i].make(u->r, &data, &len, e)) < 0)
            return rc;
        snprintf(p, sizeof p, "%s/%s", u->dir, exports[i].name);
        if ((rc = site_put(&x->box, p, data, len, 0, e)) < 0)
            return rc;
    }
    snprintf(p, sizeof p, "%s/style.css", u->dir);
    if ((rc = site_put(&x->box, p, x->s.css, x->s.css_len, 1, e)) < 0)
        return rc;
    /* a network's page names the site or the machine (by its CPU, not
     * its host name), not the run's verdict on its square shapes */
    {
        char raw[1024];
        if (x->s.title[0]) {
            snprintf(raw, sizeof raw, "%s", x->s.title);
        } else {
            char machine[300];
            q_machine_words(u->r, machine, sizeof machine);
            snprintf(raw, sizeof raw, "%s", machine);
        }
        utf8_line(p, sizeof p, raw);
    }
    if ((rc = page_net_render(&x->s, &x->box, u->r, u->dir, archive_files(u), p, e)) < 0)
        return rc;
    return report_run_page(x, k, 0, NULL, 0, NULL, &x->box, e);
}
