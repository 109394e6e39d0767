/*
 * csv.c — a run's points as CSV (see csv.h).
 */
#include "csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "query.h"
#include "workload.h"

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

/* A text field (a name or an id from a results file), quoted when it
 * holds a comma, a quote or a line break.  One that starts with a
 * character a spreadsheet reads as the start of a formula (= + - @, TAB,
 * CR) is neutralized as OWASP recommends: a single quote before it, and
 * the field quoted.  Numbers never come here: they are written by the
 * formats of csv_results, so a negative number stays a number. */
static void sb_field(sbuf *b, const char *v)
{
    const char *p;
    int formula = v[0] && strchr("=+-@\t\r", v[0]) != NULL;
    if (!formula && !strpbrk(v, ",\"\r\n")) {
        sb_add(b, "%s,", v);
        return;
    }
    sb_add(b, formula ? "\"'" : "\"");
    for (p = v; *p; p++)
        sb_add(b, *p == '"' ? "\"\"" : "%c", *p);
    sb_add(b, "\",");
}

#define HEADER                                                                        \
    "run,host,device,device_type,device_name,mode,layers,hidden,batch,network,sizes," \
    "flops_per_layer,status,samples,median_s,ci_lo_s,ci_hi_s,p10_s,p90_s,"            \
    "gflops,transfer_median_s,transfer_gflops,drift,energy_j_per_step,energy_span_s," \
    "energy_samples,throttled,usd_per_step\r\n"

/* The rows of r's points. */
/* A throughput, empty where q_gflops_shown withholds it. */
static void gflops_field(sbuf *b, double g)
{
    if (isnan(g))
        sb_add(b, ",");
    else
        sb_add(b, "%.6g,", g);
}

static void rows(sbuf *b, const results *r)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        const device_info *d = results_device(r, p->device);
        sb_field(b, r->prov.id);
        sb_field(b, r->prov.host);
        sb_field(b, p->device);
        sb_field(b, d ? d->type : "");
        sb_field(b, d ? d->name : "");
        sb_add(b, "%s,%d,%d,%d,", workload_mode_name(p->mode), p->layers, p->hidden, p->batch);
        /* empty for the square stack, whose layers and hidden say it all */
        sb_field(b, p->net);
        sb_field(b, p->sizes);
        sb_add(b, "%.17g,%s,", p->flops_per_layer, results_status_name(p->status));
        if (p->status == PT_OK && p->resident.n > 0) {
            const stats_summary *s = &p->resident;
            sb_add(b, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,", s->n, s->median, s->ci_lo, s->ci_hi, s->p10,
                   s->p90);
            gflops_field(b, q_gflops_shown(d, p, s->median));
            if (p->has_transfer && p->transfer.n > 0) {
                sb_add(b, "%.9g,", p->transfer.median);
                gflops_field(b, q_gflops_shown(d, p, p->transfer.median));
            } else
                sb_add(b, ",,");
            sb_add(b, "%s,", s->drift ? "yes" : "no");
            if (q_energy(p) >= 0.0)
                sb_add(b, "%.6g,%.6g,%d,", q_energy(p), p->tel.energy_span_s,
                       p->tel.energy_samples);
            else
                sb_add(b, ",,,");
            /* empty where no throttle reasons were read */
            sb_add(b, "%s,",
                   p->tel.has_throttle[0] || p->tel.has_throttle[1]
                       ? (p->tel.throttled ? "yes" : "no")
                       : "");
            if (q_price(&r->prices, p->device) > 0)
                sb_add(b, "%.6g\r\n", s->median * q_price(&r->prices, p->device) / 3600.0);
            else
                sb_add(b, "\r\n");
        } else {
            sb_add(b, "0,,,,,,,,,,,,,,\r\n");
        }
    }
}

static int done(sbuf *b, const char *what, char **csv, size_t *len, err *e)
{
    if (b->oom) {
        free(b->s);
        return err_set(e, BE_EFAIL, "%s: out of memory", what);
    }
    *csv = b->s;
    *len = b->len;
    return BE_OK;
}

int csv_results(const results *r, char **csv, size_t *len, err *e)
{
    sbuf b = {0};
    sb_add(&b, HEADER);
    rows(&b, r);
    return done(&b, "results.csv", csv, len, e);
}

int csv_runs(const results *const *runs, int n, char **csv, size_t *len, err *e)
{
    sbuf b = {0};
    int i;
    sb_add(&b, HEADER);
    for (i = 0; i < n; i++)
        rows(&b, runs[i]);
    return done(&b, "results.csv", csv, len, e);
}

int csv_fits(const results *const *runs, int n, char **csv, size_t *len, err *e)
{
    sbuf b = {0};
    int i, k, h;
    sb_add(&b, "run,host,base,other,mode,view,measure,hidden,kind,batch,batch_lo,batch_hi,"
               "lo_open,hi_open,flops_per_layer\r\n");
    for (i = 0; i < n; i++) {
        const results *r = runs[i];
        for (k = 0; r->has_fit && k < r->fit.ncross; k++) {
            const fit_crossover *c = &r->fit.cross[k];
            for (h = 0; h < c->nhidden; h++) {
                const fit_hidden_cross *x = &c->per_hidden[h];
                const int known = x->batch_lo > 0 || x->batch_hi > 0;
                sb_field(&b, r->prov.id);
                sb_field(&b, r->prov.host);
                sb_field(&b, c->base);
                sb_field(&b, c->other);
                sb_add(&b, "%s,%s,%s,%d,%s,", workload_mode_name(c->mode), fit_view_name(c->view),
                       c->cost ? "cost" : "time", x->hidden, fit_cross_kind_name(x->kind));
                if (x->kind == CROSS_IN_RANGE)
                    sb_add(&b, "%.6g,", x->batch);
                else
                    sb_add(&b, ",");
                if (known)
                    sb_add(&b, "%.6g,%.6g,%s,%s,", x->batch_lo, x->batch_hi,
                           x->lo_open ? "yes" : "no", x->hi_open ? "yes" : "no");
                else
                    sb_add(&b, ",,,,");
                if (x->kind == CROSS_IN_RANGE)
                    sb_add(&b, "%.6g\r\n", x->flops);
                else
                    sb_add(&b, "\r\n");
            }
        }
    }
    return done(&b, "fits.csv", csv, len, e);
}
