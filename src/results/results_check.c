/*
 * results_check.c — the model of a document that the schema accepted,
 * checked for what the schema cannot say: unique points, passes, models
 * and crossovers, devices that <devices> lists, summaries that fit their
 * samples, telemetry from a source its device has.
 *
 * Part of the results loader (results_load_int.h): it reads each element
 * with the readers of results_read.c, in the order of their references
 * (points name devices, the fit both).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results_int.h"
#include "results_load_int.h"
#include "utf8.h"

static void load_prov(rs_loader *ld, xmlNodePtr pv, results *r)
{
    static const char *const parts[] = {"breakeven", "run", "host", "openblas"};
    rs_prov *p = &r->prov;
    xmlNodePtr n[4], ps, c;
    int i;
    for (i = 0; i < 4; i++)
        if (!(n[i] = rs_only_child(ld, pv, parts[i])) && !ld->failed)
            rs_bad(ld, pv, "<provenance> lacks <%s>", parts[i]);
    if (ld->failed)
        return;
    rs_read_breakeven(ld, n[0], p);
    rs_read_run(ld, n[1], p);
    rs_read_host(ld, n[2], p);
    rs_read_openblas(ld, n[3], p);
    if (ld->failed || !(ps = rs_only_child(ld, pv, "passes")) ||
        rs_count_children(ld, ps, "pass", RESULTS_MAX_PASSES) < 0)
        return;
    for (c = rs_first_elem(ps->children); c && !ld->failed; c = rs_next_elem(c)) {
        rs_pass pass;
        if (!rs_is(c, "pass"))
            continue;
        rs_read_pass(ld, c, &pass);
        for (i = 0; i < r->npasses && !ld->failed; i++)
            if (r->passes[i].index == pass.index)
                rs_bad(ld, c, "<pass> index %d is listed twice", pass.index);
        if (!ld->failed && results_add_pass(r, &pass, ld->e) < 0)
            rs_bad(ld, c, "out of memory adding a pass");
    }
}

static void load_devices(rs_loader *ld, xmlNodePtr devs, results *r)
{
    xmlNodePtr n, pr;
    device_info d;
    if (rs_count_children(ld, devs, "device", RESULTS_MAX_DEVICES) < 0)
        return;
    for (n = rs_first_elem(devs->children); n && !ld->failed; n = rs_next_elem(n)) {
        if (!rs_is(n, "device"))
            continue;
        rs_read_device(ld, n, &d);
        if (rs_count_children(ld, n, "prop", DEVICE_MAX_PROPS) < 0)
            return;
        for (pr = rs_first_elem(n->children); pr && !ld->failed; pr = rs_next_elem(pr))
            if (rs_is(pr, "prop"))
                rs_read_prop(ld, pr, &d.props[d.nprops++]);
        if (ld->failed)
            return;
        if (results_device(r, d.id))
            rs_bad(ld, n, "device \"%s\" is listed twice", d.id);
        else if (results_add_device(r, &d, ld->e) < 0)
            rs_bad(ld, n, "out of memory adding a device");
    }
}

/* A relative comparison that allows for the rounding of the statistics. */
static int le(double a, double b)
{
    return a <= b + 1e-12 * fabs(b);
}

/* p's samples, from the <samples> element c: counted, then read into an
 * array of that count. */
static void load_samples(rs_loader *ld, xmlNodePtr c, rs_point *p)
{
    xmlNodePtr s = rs_first_elem(c->children);
    long count = rs_count_children(ld, c, "s", RESULTS_MAX_SAMPLES);
    xmlChar *unit = rs_attr(ld, c, "unit", 0);
    int pass;

    if (unit && strcmp((const char *)unit, "s") != 0)
        rs_bad(ld, c, "<samples> unit is not \"s\"");
    xmlFree(unit);
    if (ld->failed)
        return;
    if (count < 1) {
        rs_bad(ld, c, "<samples> holds no <s>");
        return;
    }
    if (!(p->samples = calloc((size_t)count, sizeof *p->samples))) {
        rs_bad(ld, c, "out of memory for %ld samples", count);
        return;
    }
    p->has_transfer = 0;
    for (; s && !ld->failed; s = rs_next_elem(s)) {
        if (!rs_is(s, "s"))
            continue;
        if (p->nsamples == 0) {
            p->has_transfer = rs_has(s, "total");
            p->has_whost = rs_has(s, "whost");
        }
        if (p->nsamples >= count) { /* cannot happen: counted above */
            rs_bad(ld, s, "more <s> than counted");
            return;
        }
        rs_read_sample(ld, s, &p->samples[p->nsamples], &pass, p->has_transfer, p->has_whost);
        if (pass > 0 && !p->pass && !(p->pass = calloc((size_t)count, sizeof *p->pass))) {
            rs_bad(ld, c, "out of memory for %ld samples", count);
            return;
        }
        if (p->pass)
            p->pass[p->nsamples] = pass;
        p->nsamples++;
    }
}

/* Whether s, n's statistics, could be those of p's wall times (of its
 * totals in view FIT_TRANSFER, its whost times in FIT_WHOST): the same
 * count and extremes, and in order. */
static void check_summary(rs_loader *ld, xmlNodePtr n, const rs_point *p, const stats_summary *s,
                          fit_view view)
{
    double lo = 0.0, hi = 0.0;
    int i, k = 0, near = 0, taken;
    if (ld->failed)
        return;
    /* every sample, or the near ones: the rule of results_summary_samples,
     * or of a breakeven before it, which left far samples out wherever 3
     * near ones remained; a file records the choice by the count */
    for (i = 0; i < p->nsamples; i++)
        near += p->samples[i].far == 0.0;
    taken = s->n == near && near >= 1 ? near : p->nsamples;
    for (i = 0; i < p->nsamples; i++) {
        double v = view == FIT_WHOST      ? p->samples[i].whost
                   : view == FIT_TRANSFER ? p->samples[i].total
                                          : p->samples[i].wall;
        if (taken < p->nsamples && p->samples[i].far != 0.0)
            continue;
        if (k++ == 0 || v < lo)
            lo = v;
        if (k == 1 || v > hi)
            hi = v;
    }
    if (s->n != taken && near < p->nsamples)
        rs_bad(ld, n, "<summary> n=%d but the point has %d samples, %d of them near", s->n,
               p->nsamples, near);
    else if (s->n != taken)
        rs_bad(ld, n, "<summary> n=%d but the point has %d samples", s->n, p->nsamples);
    else if (s->min != lo || s->max != hi)
        rs_bad(ld, n, "<summary> min and max are not those of the samples (%.17g and %.17g)", lo,
               hi);
    else if (!le(s->min, s->p10) || !le(s->p10, s->median) || !le(s->median, s->p90) ||
             !le(s->p90, s->max) || !le(s->ci_lo, s->median) || !le(s->median, s->ci_hi) ||
             !le(s->min, s->mean) || !le(s->mean, s->max))
        /* the interval may reach past the samples: it says where another
         * run's median would fall, and with few passes that is wider */
        rs_bad(ld, n,
               "<summary> statistics are not in order (min <= p10, ci-lo <= median <= "
               "ci-hi, p90 <= max, mean within min..max)");
}

/* The z of each summary's drift test, which the file does not store,
 * again from p's samples where its drift is flagged (stats.h: the only
 * summaries whose z anything reads). */
static void drift_again(rs_loader *ld, xmlNodePtr n, rs_point *p)
{
    stats_summary *s[3] = {&p->resident, p->has_transfer ? &p->transfer : NULL,
                           p->has_whost ? &p->whost : NULL};
    double ratio;
    int v;
    for (v = 0; v < 3 && !ld->failed; v++)
        if (s[v] && s[v]->drift && results_drift(p, (fit_view)v, &s[v]->drift_z, &ratio, NULL) < 0)
            rs_bad(ld, n, "out of memory testing a point for drift");
}

/* p's <telemetry> n, which only a measured point has, from the source
 * that its device's kind reads (NVML: OpenCL, RAPL: the CPU), with energy
 * over no more samples than it has. */
static void load_telemetry(rs_loader *ld, xmlNodePtr n, const device_info *dev, rs_point *p)
{
    rs_read_telemetry(ld, n, &p->tel);
    if (ld->failed)
        return;
    if (p->nsamples == 0)
        rs_bad(ld, n, "<telemetry> of a point without samples");
    else if (strcmp(dev->kind, p->tel.kind == TEL_NVML ? "opencl" : "openblas") != 0)
        rs_bad(ld, n, "<telemetry> source \"%s\" cannot read device \"%s\" (%s)",
               rs_tel_sources[p->tel.kind == TEL_RAPL], dev->id, dev->kind);
}

static void load_point(rs_loader *ld, xmlNodePtr n, results *r)
{
    static const char *const parts[] = {"verification", "samples", "telemetry"};
    xmlNodePtr part[3], c, sum[3] = {NULL, NULL, NULL};
    const device_info *dev;
    rs_point p;
    int i;

    rs_read_point(ld, n, &p);
    for (i = 0; i < 3; i++)
        part[i] = rs_only_child(ld, n, parts[i]);
    if (ld->failed)
        return;
    if (!(dev = results_device(r, p.device))) {
        rs_bad(ld, n, "<point> refers to device \"%s\", which <devices> does not list", p.device);
        return;
    }
    if (part[0])
        rs_read_verification(ld, part[0], &p);
    if (p.verified && isnan(p.max_error) && p.status != PT_FAILED_VERIFICATION && !ld->failed)
        rs_bad(ld, part[0],
               "<verification> lacks \"max-error\", which only a failed "
               "verification may");
    if (part[1])
        load_samples(ld, part[1], &p);
    for (c = rs_first_elem(n->children); c && !ld->failed; c = rs_next_elem(c)) {
        stats_summary s;
        fit_view v;
        if (!rs_is(c, "summary"))
            continue;
        rs_read_summary(ld, c, &s, &v);
        if (sum[v]) {
            rs_bad(ld, c, "<point> has two \"%s\" summaries", rs_view_names[v]);
            break;
        }
        sum[v] = c;
        if (v == FIT_WHOST)
            p.whost = s;
        else if (v == FIT_TRANSFER)
            p.transfer = s;
        else
            p.resident = s;
    }
    if (!ld->failed && p.nsamples > 0 &&
        (!sum[FIT_RESIDENT] || !sum[FIT_TRANSFER] != !p.has_transfer ||
         !sum[FIT_WHOST] != !p.has_whost))
        rs_bad(ld, n, "<point> summaries do not match its samples (need \"resident\"%s%s)",
               p.has_transfer ? " and \"transfer\"" : "",
               p.has_whost      ? " and \"weights-on-host\""
               : p.has_transfer ? ""
                                : " only");
    if (!ld->failed && p.nsamples == 0 &&
        (sum[FIT_RESIDENT] || sum[FIT_TRANSFER] || sum[FIT_WHOST]))
        rs_bad(ld, n, "<point> has a summary but no samples");
    if (!ld->failed && p.status == PT_OK && p.nsamples == 0)
        rs_bad(ld, n, "<point> with status \"ok\" has no samples");
    if (p.nsamples > 0) {
        check_summary(ld, sum[FIT_RESIDENT], &p, &p.resident, FIT_RESIDENT);
        if (p.has_transfer)
            check_summary(ld, sum[FIT_TRANSFER], &p, &p.transfer, FIT_TRANSFER);
        if (p.has_whost)
            check_summary(ld, sum[FIT_WHOST], &p, &p.whost, FIT_WHOST);
    }
    if (p.nsamples > 0 && !ld->failed)
        drift_again(ld, n, &p);
    if (part[2] && !ld->failed)
        load_telemetry(ld, part[2], dev, &p);
    if (!ld->failed && results_add_point(r, &p, ld->e) < 0)
        rs_bad(ld, n, "out of memory adding a point");
    free(p.samples);
    free(p.pass);
}

/* Orders by device, then by the keys ka and kb (n of each) in turn: 0
 * when the two are the same point, or the same model. */
static int cmp_keys(const char *da, const int *ka, const char *db, const int *kb, int n)
{
    int c = strcmp(da, db), i;
    for (i = 0; c == 0 && i < n; i++)
        c = (ka[i] > kb[i]) - (ka[i] < kb[i]);
    return c;
}

/* A point is its device, mode, layers, hidden and batch, and its network:
 * why it was added does not make it another one. */
static int point_cmp(const rs_point *a, const rs_point *b)
{
    int ka[4] = {(int)a->mode, a->layers, a->hidden, a->batch};
    int kb[4] = {(int)b->mode, b->layers, b->hidden, b->batch};
    int c = cmp_keys(a->device, ka, b->device, kb, 4);
    if (c == 0 && (c = strcmp(a->sizes, b->sizes)) == 0)
        c = strcmp(a->net, b->net);
    return c;
}

static int point_order(const void *x, const void *y)
{
    const rs_point *a = *(const rs_point *const *)x, *b = *(const rs_point *const *)y;
    int c = point_cmp(a, b);
    if (c)
        return c;
    return a < b ? -1 : a > b; /* stable: the first in the file comes first */
}

static void load_points(rs_loader *ld, xmlNodePtr pts, results *r)
{
    const rs_point **v = NULL;
    long *lines = NULL, count = rs_count_children(ld, pts, "point", RESULTS_MAX_POINTS);
    xmlNodePtr n;
    int i;
    if (count < 2) {
        for (n = rs_first_elem(pts->children); count > 0 && n && !ld->failed; n = rs_next_elem(n))
            if (rs_is(n, "point"))
                load_point(ld, n, r);
        return;
    }
    v = malloc((size_t)count * sizeof *v);
    lines = malloc((size_t)count * sizeof *lines);
    if (!v || !lines) {
        rs_bad(ld, pts, "out of memory for %ld points", count);
        goto done;
    }
    for (n = rs_first_elem(pts->children); n && !ld->failed && r->npoints < count;
         n = rs_next_elem(n))
        if (rs_is(n, "point")) {
            lines[r->npoints] = rs_line_of(n);
            load_point(ld, n, r);
        }
    if (ld->failed)
        goto done;
    for (i = 0; i < r->npoints; i++)
        v[i] = &r->points[i];
    qsort(v, (size_t)r->npoints, sizeof *v, point_order);
    for (i = 1; i < r->npoints; i++)
        if (point_cmp(v[i], v[i - 1]) == 0) {
            rs_fail_line(ld, lines[v[i] - r->points],
                         "<point> repeats the point of line %ld "
                         "(device \"%s\", %s, layers=%d hidden=%d batch=%d)",
                         lines[v[i - 1] - r->points], v[i]->device, rs_mode_names[v[i]->mode],
                         v[i]->layers, v[i]->hidden, v[i]->batch);
            break;
        }
done:
    free(v);
    free(lines);
}

static void load_model(rs_loader *ld, xmlNodePtr n, results *r, fit_model *m)
{
    xmlNodePtr o;
    int k;
    rs_read_model(ld, n, m);
    if (ld->failed)
        return;
    if (!results_device(r, m->device)) {
        rs_bad(ld, n, "<model> is of device \"%s\", which <devices> does not list", m->device);
        return;
    }
    if (m->ok && (m->npoints > r->npoints || m->fmin > m->fmax)) {
        rs_bad(ld, n, "<model> points=%d fmin=%g fmax=%g do not fit the %d points", m->npoints,
               m->fmin, m->fmax, r->npoints);
        return;
    }
    if (rs_count_children(ld, n, "outlier", m->ok ? FIT_MAX_OUTLIERS : 0) < 0)
        return;
    for (o = rs_first_elem(n->children); o && !ld->failed; o = rs_next_elem(o)) {
        if (!rs_is(o, "outlier"))
            continue;
        rs_read_outlier(ld, o, &k);
        if (ld->failed)
            return;
        if (k >= r->npoints || strcmp(r->points[k].device, m->device) != 0 ||
            r->points[k].mode != m->mode)
            rs_bad(ld, o,
                   "<outlier> point %d is not one of the %d points of this model's device "
                   "and mode",
                   k, r->npoints);
        else
            m->outliers[m->noutliers++] = k;
    }
}

static void load_cross(rs_loader *ld, xmlNodePtr n, results *r, fit_crossover *c)
{
    xmlNodePtr h, s;
    xmlChar *t;
    int i;
    rs_read_cross(ld, n, c);
    s = rs_only_child(ld, n, "sentence");
    if (ld->failed)
        return;
    if (!results_device(r, c->base) || !results_device(r, c->other) ||
        strcmp(c->base, c->other) == 0) {
        rs_bad(ld, n,
               "<crossover> of \"%s\" and \"%s\": two different devices that <devices> "
               "lists",
               c->base, c->other);
        return;
    }
    if (c->ci_lo > c->ci_hi) {
        rs_bad(ld, n, "<crossover> ci-lo is above ci-hi");
        return;
    }
    for (i = 0; i < r->fit.ncross; i++) {
        const fit_crossover *x = &r->fit.cross[i];
        if (strcmp(x->base, c->base) == 0 && strcmp(x->other, c->other) == 0 &&
            x->mode == c->mode && x->view == c->view && x->cost == c->cost) {
            rs_bad(ld, n, "a second <crossover> of \"%s\" and \"%s\", %s, %s, %s", c->base,
                   c->other, rs_mode_names[c->mode], rs_view_names[c->view], rs_measures[c->cost]);
            return;
        }
    }
    if (!s) {
        rs_bad(ld, n, "<crossover> lacks <sentence>");
        return;
    }
    if (rs_first_elem(s->children)) {
        rs_bad(ld, s, "<sentence> holds elements");
        return;
    }
    if (!(t = xmlNodeGetContent(s))) {
        rs_bad(ld, s, "out of memory reading <sentence>");
        return;
    }
    utf8_copy(c->sentence, sizeof c->sentence, (const char *)t);
    xmlFree(t);
    if (rs_count_children(ld, n, "hidden", LIST_MAX) < 0)
        return;
    for (h = rs_first_elem(n->children); h && !ld->failed; h = rs_next_elem(h))
        if (rs_is(h, "hidden"))
            rs_read_hidden(ld, h, &c->per_hidden[c->nhidden++]);
}

/* A loaded model and the line it came from, for the duplicate check. */
typedef struct model_line {
    const fit_model *m;
    long line;
} model_line;

/* A model is its device, mode, view and hidden width. */
static int model_cmp(const fit_model *a, const fit_model *b)
{
    int ka[3] = {(int)a->mode, (int)a->view, a->hidden};
    int kb[3] = {(int)b->mode, (int)b->view, b->hidden};
    return cmp_keys(a->device, ka, b->device, kb, 3);
}

static int cmp_model_line(const void *a, const void *b)
{
    const model_line *x = a, *y = b;
    int c = model_cmp(x->m, y->m);
    if (c)
        return c;
    return x->line < y->line ? -1 : 1;
}

/* No two models of one device, mode, view and hidden width: sorted, so
 * that a file with many models is checked in n·log n. */
static void check_models_unique(rs_loader *ld, const results *r, model_line *v)
{
    int i;
    qsort(v, (size_t)r->fit.nmodels, sizeof *v, cmp_model_line);
    for (i = 1; i < r->fit.nmodels; i++) {
        const fit_model *a = v[i - 1].m, *b = v[i].m;
        if (model_cmp(a, b) == 0) {
            rs_fail_line(ld, v[i].line,
                         "a second <model> of device \"%s\", %s, %s, hidden %d "
                         "(the first is on line %ld)",
                         b->device, rs_mode_names[b->mode], rs_view_names[b->view], b->hidden,
                         v[i - 1].line);
            return;
        }
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The number of distinct hidden widths among r's points (0 when out of
 * memory, which the caller's allocation then reports). */
static long distinct_widths(const results *r)
{
    int *h, i;
    long n = 0;
    if (r->npoints == 0 || !(h = malloc((size_t)r->npoints * sizeof *h)))
        return 0;
    for (i = 0; i < r->npoints; i++)
        h[i] = r->points[i].hidden;
    qsort(h, (size_t)r->npoints, sizeof *h, cmp_int);
    for (i = 0; i < r->npoints; i++)
        n += i == 0 || h[i] != h[i - 1];
    free(h);
    return n;
}

static void load_fit(rs_loader *ld, xmlNodePtr fit, results *r)
{
    xmlNodePtr n;
    long nm, nc;
    int i;
    model_line *lines = NULL;

    rs_read_fit(ld, fit, &r->fit_seed, &r->fit.analysis);
    /* a model per device, mode and view over all widths and at each */
    if (ld->failed || rs_count_children(ld, fit, "price", FIT_MAX_PRICES) < 0 ||
        (nm = rs_count_children(ld, fit, "model", 4L * r->ndevices * (1L + distinct_widths(r)))) <
            0 ||
        (nc = rs_count_children(ld, fit, "crossover", 8L * r->ndevices)) < 0)
        return;
    r->fit.models = calloc((size_t)nm + 1, sizeof *r->fit.models);
    r->fit.cross = calloc((size_t)nc + 1, sizeof *r->fit.cross);
    lines = malloc(((size_t)nm + 1) * sizeof *lines);
    if (!r->fit.models || !r->fit.cross || !lines) {
        rs_bad(ld, fit, "out of memory loading the fit");
        goto done;
    }
    r->has_fit = 1;
    for (n = rs_first_elem(fit->children); n && !ld->failed; n = rs_next_elem(n)) {
        char id[32];
        double usd;
        if (!rs_is(n, "price"))
            continue;
        rs_read_price(ld, n, id, &usd);
        if (ld->failed)
            goto done;
        if (!results_device(r, id)) {
            rs_bad(ld, n, "<price> of device \"%s\", which <devices> does not list", id);
            goto done;
        }
        for (i = 0; i < r->prices.n; i++)
            if (strcmp(r->prices.device[i], id) == 0) {
                rs_bad(ld, n, "a second <price> of device \"%s\"", id);
                goto done;
            }
        memcpy(r->prices.device[r->prices.n], id, sizeof id);
        r->prices.usd_per_hour[r->prices.n++] = usd;
    }
    for (n = rs_first_elem(fit->children); n && !ld->failed; n = rs_next_elem(n)) {
        if (rs_is(n, "model") && r->fit.nmodels < nm) {
            load_model(ld, n, r, &r->fit.models[r->fit.nmodels]);
            lines[r->fit.nmodels].m = &r->fit.models[r->fit.nmodels];
            lines[r->fit.nmodels].line = rs_line_of(n);
            r->fit.nmodels += !ld->failed;
        } else if (rs_is(n, "crossover") && r->fit.ncross < nc) {
            load_cross(ld, n, r, &r->fit.cross[r->fit.ncross]);
            r->fit.ncross += !ld->failed;
        }
    }
    if (!ld->failed)
        check_models_unique(ld, r, lines);
done:
    free(lines);
}

/* The model of a document that the schema accepted.  *out is the caller's. */
int rs_load_doc(rs_loader *ld, xmlNodePtr root, results **out)
{
    static const char *const parts[] = {"provenance", "devices", "points", "fit"};
    xmlNodePtr n[4];
    results *r;
    int i;

    *out = NULL;
    if (!(r = results_new()))
        return rs_fail_line(ld, 0, "out of memory");
    rs_read_root(ld, root, &r->partial);
    for (i = 0; i < 4; i++)
        n[i] = rs_only_child(ld, root, parts[i]);
    for (i = 0; i < 3 && !ld->failed; i++)
        if (!n[i])
            rs_bad(ld, root, "<breakeven-results> lacks <%s>", parts[i]);
    /* in the order of their references: points name devices, the fit both */
    if (!ld->failed)
        load_prov(ld, n[0], r);
    if (!ld->failed)
        load_devices(ld, n[1], r);
    if (!ld->failed && r->prov.base[0] && !results_device(r, r->prov.base))
        rs_bad(ld, n[1], "<run> has base=\"%s\", which <devices> does not list", r->prov.base);
    if (!ld->failed)
        load_points(ld, n[2], r);
    if (!ld->failed && n[3])
        load_fit(ld, n[3], r);
    if (ld->failed) {
        results_free(r);
        return BE_EFAIL;
    }
    *out = r;
    return BE_OK;
}
