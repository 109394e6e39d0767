/*
 * page_net.c — the page per network (see page_net.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "page_net.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "figure.h"
#include "figure_net.h"
#include "fmt.h"
#include "netfit.h"
#include "query.h"
#include "workload.h"

#define PAGE_NET_PATH 4096
#define PAGE_NET_MAX (NET_MAX_NETS * 4)
#define PAGE_NET_BATCHES 256

static const char *view_name(fit_view v)
{
    return v == FIT_WHOST ? "weights-on-host" : v == FIT_TRANSFER ? "transfer" : "resident";
}

/* The sizes of network name (its first point's). */
static const char *sizes_of(const results *r, const char *name)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (strcmp(r->points[i].net, name) == 0)
            return r->points[i].sizes;
    return "";
}

/* Whether c is the one answer the run's page gives for its network, mode
 * and device: the view with the weights on the host where measured, else
 * with transfers, else resident (as netfit_summary chooses). */
static int shown_view(const netfit_set *s, const netfit_cross *c)
{
    int v;
    for (v = FIT_WHOST; v > (int)c->view; v--)
        if (netfit_find(s, c->net, c->mode, (fit_view)v, c->other))
            return 0;
    return 1;
}

/* What stands for the answer of a network no other device measured. */
static void alone(const results *r, char *buf, size_t size)
{
    char name[256];
    q_device_name(r, q_base_id(r), name, sizeof name);
    snprintf(buf, size,
             "Only %s measured this network: there is no other device to set it against.", name);
}

void page_net_links(xmlNodePtr a, const results *r, const char *prefix)
{
    const char *names[PAGE_NET_MAX];
    netfit_set s;
    xmlNodePtr list;
    int n = netfit_networks(r, names, PAGE_NET_MAX), i, k;
    char buf[1024];
    if (n == 0)
        return;
    if (netfit_run(r, r->prov.seed, 0, &s, NULL) < 0) {
        /* out of memory: no page rather than one without its networks */
        site_tree_fail(a);
        return;
    }
    list = site_add(a, "networks", NULL);
    for (i = 0; i < n; i++) {
        xmlNodePtr nn = site_add(list, "network", NULL);
        site_attrf(nn, "href", "%snet-%s.html", prefix, names[i]);
        site_attr(nn, "name", names[i]);
        site_attr(nn, "sizes", sizes_of(r, names[i]));
        int said = 0;
        /* the answers are the conclusions' (netfit_summary): said once a
         * page, the list links to each network's page */
        for (k = 0; k < s.n && !said; k++)
            said = strcmp(s.c[k].net, names[i]) == 0 && shown_view(&s, &s.c[k]);
        if (!said) {
            alone(r, buf, sizeof buf);
            site_add(nn, "verdict", buf);
        }
    }
    netfit_free(&s);
}

/* A <chart> of the chart named name in files, linked beside the page, when
 * its PNG exists there. */
static void add_chart(xmlNodePtr parent, const char *files, const char *name, const char *alt,
                      const char *text)
{
    char p[PAGE_NET_PATH];
    int w, h;
    err e;
    xmlNodePtr c;
    snprintf(p, sizeof p, "%s/%s.png", files, name);
    if (chart_png_size(p, &w, &h, &e) < 0)
        return;
    c = site_add(parent, "chart", NULL);
    site_attrf(c, "png", "%s.png", name);
    site_attrf(c, "width", "%.0f", w / FIGURE_SCALE);
    site_attrf(c, "height", "%.0f", h / FIGURE_SCALE);
    snprintf(p, sizeof p, "%s/%s" FIGURE_NARROW_SUFFIX ".png", files, name);
    if (chart_png_size(p, &w, &h, &e) == BE_OK) {
        site_attrf(c, "narrow-png", "%s" FIGURE_NARROW_SUFFIX ".png", name);
        site_attrf(c, "narrow-width", "%.0f", w / FIGURE_SCALE);
        site_attrf(c, "narrow-height", "%.0f", h / FIGURE_SCALE);
    }
    site_attr(c, "alt", alt);
    site_add(c, "p", text);
}

/* The per-layer table of one mode: a row per batch where both devices
 * timed the layers, a cell per layer with both times and the faster
 * device, then the best placement and the three estimates. */
static void add_layers(xmlNodePtr mn, const results *r, const char *net, wl_mode m,
                       const char *other)
{
    int b[PAGE_NET_BATCHES], nb = netfit_layer_batches(r, net, m, other, b, PAGE_NET_BATCHES);
    int i, l;
    net_spec spec;
    err e;
    xmlNodePtr t, head;
    char t1[32], t2[32], on[600];
    if (nb == 0 || net_parse_sizes(sizes_of(r, net), "sizes", &spec, &e) < 0)
        return;
    t = site_add(mn, "layers", NULL);
    site_attr(t, "base", q_base_id(r));
    site_attr(t, "other", other);
    /* the caption and the heads name the devices as the prose does */
    q_device_name(r, q_base_id(r), on, sizeof on);
    site_attr(t, "base-name", on);
    q_device_name(r, other, on, sizeof on);
    site_attr(t, "other-name", on);
    head = site_add(t, "head", NULL);
    for (l = 0; l < spec.layers; l++) {
        xmlNodePtr h = site_add(head, "layer", NULL);
        site_attrf(h, "n", "%d", l + 1);
        site_attrf(h, "shape", "%d\xc3\x97%d", spec.dims[l], spec.dims[l + 1]);
    }
    for (i = 0; i < nb; i++) {
        netfit_layers nl;
        xmlNodePtr row;
        if (!netfit_layers_at(r, net, m, other, b[i], &nl))
            continue;
        row = site_add(t, "row", NULL);
        site_attrf(row, "batch", "%d", b[i]);
        on[0] = '\0';
        for (l = 0; l < nl.layers; l++) {
            xmlNodePtr c = site_add(row, "layer", NULL);
            fmt_time(t1, sizeof t1, nl.t[0][l]);
            fmt_time(t2, sizeof t2, nl.t[1][l]);
            site_attr(c, "base", t1);
            site_attr(c, "other", t2);
            site_attr(c, "faster", nl.t[1][l] < nl.t[0][l] ? other : q_base_id(r));
            site_attr(c, "winner", nl.t[1][l] < nl.t[0][l] ? "other" : "base");
            fmt_append(on, sizeof on, "%s%s", l ? ", " : "", nl.on[l] ? other : q_base_id(r));
        }
        site_attr(row, "placement", on);
        fmt_time(t1, sizeof t1, nl.best);
        site_attr(row, "best", t1);
        fmt_time(t1, sizeof t1, nl.all_base);
        site_attr(row, "all-base", t1);
        fmt_time(t1, sizeof t1, nl.all_other);
        site_attr(row, "all-other", t1);
    }
}

/* The annotation of one network's page. */
static xmlNodePtr annotate(const results *r, const netfit_set *s, const char *net,
                           const char *files, const char *title)
{
    xmlNodePtr a = xmlNewNode(NULL, BAD_CAST "annotation"), v, mn;
    const char *sizes = sizes_of(r, net);
    char buf[1024], name[NET_NAME_MAX + 64], alt[512], date[64];
    int k, m, said = 0;
    const int named = strcmp(net, sizes) != 0;

    fmt_date(date, sizeof date, r->prov.started);
    site_attr(a, "run", r->prov.id);
    site_attr(a, "date", date);
    site_attr(a, "datetime", r->prov.started);
    site_attr(a, "name", net);
    site_attr(a, "sizes", sizes);
    snprintf(buf, sizeof buf, "Network %s%s%s%s: %s", net, named ? " (" : "", named ? sizes : "",
             named ? ")" : "", title);
    site_add(a, "title", buf);
    v = site_add(a, "verdicts", NULL);
    for (k = 0; k < s->n; k++) {
        const netfit_cross *c = &s->c[k];
        xmlNodePtr x;
        if (strcmp(c->net, net) != 0)
            continue;
        /* a link preview gives the first answer's first sentence */
        if (!said) {
            netfit_answer(r, c, buf, sizeof buf);
            site_add(a, "summary", buf);
        }
        netfit_sentence(r, c, buf, sizeof buf);
        x = site_add(v, "verdict", buf);
        site_attr(x, "mode", workload_mode_name(c->mode));
        site_attr(x, "view", view_name(c->view));
        site_attr(x, "kind", fit_cross_kind_name(c->x.kind));
        said = 1;
    }
    if (!said) {
        alone(r, buf, sizeof buf);
        site_add(a, "summary", buf);
        site_add(v, "verdict", buf);
    }
    for (m = WL_INFERENCE; m <= WL_TRAINING; m++) {
        const char *other = netfit_other(r, net, (wl_mode)m),
                   *mode = workload_mode_name((wl_mode)m);
        int i, has = 0, first;
        for (i = 0; i < r->npoints && !has; i++)
            has = r->points[i].mode == (wl_mode)m && strcmp(r->points[i].net, net) == 0;
        if (!has)
            continue;
        mn = site_add(a, "mode", NULL);
        site_attr(mn, "name", mode);
        figure_net_name(net, "time", (wl_mode)m, name, sizeof name);
        snprintf(alt, sizeof alt,
                 "Chart: step time of the network against batch size (%s), one line per device "
                 "and view, with 95%% intervals and the crossovers.",
                 mode);
        add_chart(mn, files, name, alt,
                  "The median time of one step of the whole network at each batch measured, on "
                  "each device and in each view, with the 95% interval of each median. A "
                  "vertical line marks where another device becomes faster than the base for "
                  "good, its band the crossover's 95% interval within the batches measured.");
        figure_net_name(net, "layers", (wl_mode)m, name, sizeof name);
        snprintf(alt, sizeof alt,
                 "Chart: time per sample of each layer on each device (%s) at a few batches.",
                 mode);
        add_chart(mn, files, name, alt,
                  "Each layer's time per sample on each device at the smallest, a middle and "
                  "the largest batch where both timed the layers; the arrow marks the device "
                  "the best placement puts the layer on.");
        if (other && netfit_layer_batches(r, net, (wl_mode)m, other, &first, 1) > 0)
            add_layers(mn, r, net, (wl_mode)m, other);
        else {
            if (other)
                snprintf(buf, sizeof buf,
                         "No batch where both %s and %s timed this network's layers: no "
                         "per-layer breakdown.",
                         q_base_id(r), other);
            else
                snprintf(buf, sizeof buf,
                         "Only %s measured this network in %s: no per-layer breakdown.",
                         q_base_id(r), mode);
            site_add(mn, "note", buf);
        }
    }
    site_add(a, "method",
             "Per-layer times are the mean over a point's timed steps of each layer's time "
             "(forward and, in training, backward; an OpenCL device's kernel event times, the "
             "CPU's host clock around the layer's calls), scaled so that a device's layers add "
             "up to its median step: they have no interval of their own, and a step preempted "
             "on a loaded machine inflates them. The copies between devices cost the "
             "activations' bytes at the other device's measured cost per byte (its upload of "
             "the input and read-back of the output), with no fixed latency per copy. The best "
             "placement is an estimate from these separately measured parts, not a measured "
             "run of that placement.");
    return a;
}

int page_net_render(const site *s, site_outbox *box, const results *r, const char *dir,
                    const char *files, const char *title, err *e)
{
    const char *names[PAGE_NET_MAX];
    netfit_set fs;
    int n = netfit_networks(r, names, PAGE_NET_MAX), i, rc = BE_OK;
    if (n == 0)
        return BE_OK;
    if ((rc = netfit_run(r, r->prov.seed, 0, &fs, e)) < 0)
        return rc;
    for (i = 0; i < n && rc == BE_OK; i++) {
        char p[PAGE_NET_PATH];
        xmlChar *html = NULL;
        int len;
        xmlDocPtr doc;
        snprintf(p, sizeof p, "runs/%s/net-%s.html", r->prov.id, names[i]);
        doc = site_page(s, "network", annotate(r, &fs, names[i], files, title), p, "style.css",
                        "../../index.html", "../../feed.xml", e);
        if (!doc) {
            rc = BE_EFAIL;
            break;
        }
        snprintf(p, sizeof p, "%s/net-%s.html", dir, names[i]);
        rc = site_transform(s, s->net_xsl, doc, p, &html, &len, NULL, e);
        xmlFreeDoc(doc);
        if (rc == BE_OK)
            rc = site_put_xml(box, p, html, len, e);
    }
    netfit_free(&fs);
    return rc;
}
