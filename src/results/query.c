/*
 * query.c — one answer to each question asked of a results model (see
 * query.h).  Linear scans: a run has a few hundred points at most, and
 * every caller asks a handful of questions per chart or paragraph.
 */
#include "query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo.h"
#include "machstate.h"
#include "stats.h"
#include "workload.h"

int q_base(const results *r)
{
    int i;
    if (r->prov.base[0] && (i = q_device_index(r, r->prov.base)) != Q_NO_DEVICE)
        return i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].kind, "openblas") == 0)
            return i;
    /* a CPU, wherever the user listed it: `--devices torch:cuda:0,torch:cpu`
     * sets the GPU against the CPU as the other order does */
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].type, "CPU") == 0)
            return i;
    return 0;
}

const char *q_base_id(const results *r)
{
    return r->ndevices > 0 ? r->devices[q_base(r)].id : "";
}

const char *q_stack(const results *r, const char *dev, char *buf, size_t size)
{
    const device_info *d = results_device(r, dev);
    const char *fw;
    size_t n;
    if (!d || strcmp(d->kind, "framework") != 0) {
        snprintf(buf, size, "%s", "");
        return buf;
    }
    if ((fw = devinfo_prop(d, "framework")) && fw[0]) {
        snprintf(buf, size, "%s", fw);
        return buf;
    }
    n = strcspn(d->id, ":");
    snprintf(buf, size, "%.*s", (int)n, d->id);
    return buf;
}

int q_base_for(const results *r, int d)
{
    char mine[64], theirs[64];
    int b = q_base(r), i;
    if (r->prov.base[0] || d == b || d < 0 || d >= r->ndevices)
        return b;
    q_stack(r, r->devices[d].id, mine, sizeof mine);
    if (!mine[0])
        return b;
    for (i = 0; i < r->ndevices; i++)
        if (i != d && strcmp(r->devices[i].type, "CPU") == 0 &&
            strcmp(q_stack(r, r->devices[i].id, theirs, sizeof theirs), mine) == 0)
            return i;
    return b;
}

const char *q_base_id_for(const results *r, const char *dev)
{
    return r->ndevices > 0 ? r->devices[q_base_for(r, q_device_index(r, dev))].id : "";
}

int q_single_base(const results *r)
{
    int b = q_base(r), d;
    for (d = 0; d < r->ndevices; d++)
        if (q_base_for(r, d) != b)
            return 0;
    return 1;
}

/* The most threads a property may count: as many as a results file may
 * give the machine CPUs, so that two counts add without overflow. */
#define Q_THREADS_MAX (1L << 20)

/* Property name of info as a count of 1 to Q_THREADS_MAX, or 0 when it is
 * absent or not such a count (a results file is read as it is). */
static long prop_count(const device_info *info, const char *name)
{
    const char *v = devinfo_prop(info, name);
    char *end;
    long n;
    if (!v || !v[0])
        return 0;
    n = strtol(v, &end, 10);
    return *end == '\0' && n > 0 && n <= Q_THREADS_MAX ? n : 0;
}

int q_blas_contends(const results *r, int d, int *omp, int *blas)
{
    const device_info *info;
    const char *variant;
    long o, b;
    if (d < 0 || d >= r->ndevices)
        return 0;
    info = &r->devices[d];
    /* a GPU's steps do not run on the host's BLAS */
    if (strcmp(info->kind, "framework") != 0 || strcmp(info->type, "CPU") != 0)
        return 0;
    variant = devinfo_prop(info, "blas-variant");
    o = prop_count(info, "omp-threads");
    b = prop_count(info, "blas-threads");
    if (!variant || strcmp(variant, "pthread") != 0 || o < 2 || b < 2 ||
        o + b <= (r->prov.cores > 0 ? r->prov.cores : 1))
        return 0;
    if (omp)
        *omp = (int)o;
    if (blas)
        *blas = (int)b;
    return 1;
}

int q_device_index(const results *r, const char *id)
{
    int i;
    for (i = 0; i < r->ndevices; i++)
        if (strcmp(r->devices[i].id, id) == 0)
            return i;
    return Q_NO_DEVICE;
}

int q_has_mode(const results *r, const char *dev, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m && (!dev || strcmp(r->points[i].device, dev) == 0))
            return 1;
    return 0;
}

int q_has_square(const results *r, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m && !r->points[i].net[0])
            return 1;
    return 0;
}

/* A summary a figure may rest on: a positive, finite median and 10th
 * percentile (q_level), checked here too because a render cache entry
 * (cache.h) is read back without the loader's checks. */
static int summary_ok(const stats_summary *s)
{
    return s->n > 0 && s->median > 0.0 && isfinite(s->median) && s->p10 > 0.0 && isfinite(s->p10);
}

int q_ok(const rs_point *p)
{
    return p && p->status == PT_OK && summary_ok(&p->resident);
}

double q_pass_taken(const results *r, const rs_pass *p)
{
    const machstate *m = &p->state;
    if (!m->has_cpu)
        return 0.0;
    return (m->others_cpu + m->steal) * (r->prov.cores > 0 ? r->prov.cores : 1);
}

int q_pass_busy(const results *r, const rs_pass *p)
{
    return q_pass_taken(r, p) >= MACHSTATE_BUSY_CPUS;
}

double q_run_hop(const results *r)
{
    double v[RESULTS_MAX_PASSES];
    int i, n = 0;
    for (i = 0; i < r->npasses && n < RESULTS_MAX_PASSES; i++)
        if (r->passes[i].hop_checks > 0)
            v[n++] = r->passes[i].hop;
    return n ? stats_median(v, n) : 0.0;
}

double q_runs_hop_quickest(const results *const *r, int n)
{
    double h, best = 0.0;
    int i;
    for (i = 0; i < n; i++)
        if ((h = q_run_hop(r[i])) > 0.0 && (best == 0.0 || h < best))
            best = h;
    return best;
}

int q_run_far(const results *r, int *far, int *checked)
{
    int i, near = 0;
    *far = *checked = 0;
    for (i = 0; i < r->npasses; i++) {
        *far += r->passes[i].hop_far;
        *checked += r->passes[i].hop_checks;
    }
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        int n = results_summary_samples(p, NULL);
        near += n >= 0 && n < p->nsamples;
    }
    return near;
}

double q_peak(const results *r, const char *dev)
{
    const device_info *d = results_device(r, dev);
    double flops;
    char how[8];
    return d && devinfo_peak(d, &flops, how, sizeof how) ? flops : 0.0;
}

double q_gflops_shown(const device_info *d, const rs_point *p, double t)
{
    double g = results_gflops(p, t), peak;
    char how[8];
    return d && devinfo_peak(d, &peak, how, sizeof how) && g * 1e9 > peak ? NAN : g;
}

int q_beyond_peak(const results *r, const rs_point *p)
{
    double peak;
    if (!q_ok(p) || !((peak = q_peak(r, p->device)) > 0.0))
        return 0;
    return results_gflops(p, p->resident.median) * 1e9 > peak;
}

int q_ok_view(const rs_point *p, fit_view v)
{
    return q_ok(p) &&
           (v == FIT_RESIDENT || (v == FIT_WHOST && p->has_whost && summary_ok(&p->whost)) ||
            (v == FIT_TRANSFER && p->has_transfer && summary_ok(&p->transfer)));
}

double q_median(const rs_point *p, fit_view v)
{
    return v == FIT_WHOST      ? p->whost.median
           : v == FIT_TRANSFER ? p->transfer.median
                               : p->resident.median;
}

const stats_summary *q_summary_in(const results *r, const rs_point *p, fit_view v)
{
    const device_info *d = p ? results_device(r, p->device) : NULL;
    if (d && strcmp(d->kind, "openblas") == 0)
        v = FIT_RESIDENT;
    if (!q_ok_view(p, v))
        return NULL;
    return v == FIT_WHOST ? &p->whost : v == FIT_TRANSFER ? &p->transfer : &p->resident;
}

double q_level(const rs_point *p, fit_view v)
{
    return v == FIT_WHOST ? p->whost.p10 : v == FIT_TRANSFER ? p->transfer.p10 : p->resident.p10;
}

const rs_point *q_point_net(const results *r, const char *dev, wl_mode m, int layers, int hidden,
                            int batch, const char *sizes)
{
    const rs_point *any = NULL;
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != m || p->hidden != hidden || p->batch != batch ||
            (layers > 0 && p->layers != layers) || strcmp(p->device, dev) != 0 ||
            (sizes && strcmp(p->sizes, sizes) != 0))
            continue;
        if (q_ok(p))
            return p;
        if (!any)
            any = p;
    }
    return any;
}

const rs_point *q_point_of(const results *r, const rs_point *p)
{
    const rs_point *any = NULL;
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *o = &r->points[i];
        if (o->mode != p->mode || o->hidden != p->hidden || o->batch != p->batch ||
            o->layers != p->layers || strcmp(o->device, p->device) != 0 ||
            strcmp(o->sizes, p->sizes) != 0 || strcmp(o->net, p->net) != 0)
            continue;
        if (q_ok(o))
            return o;
        if (!any)
            any = o;
    }
    return any;
}

const rs_point *q_point_layers(const results *r, const char *dev, wl_mode m, int layers, int hidden,
                               int batch)
{
    return q_point_net(r, dev, m, layers, hidden, batch, NULL);
}

const rs_point *q_point(const results *r, const char *dev, wl_mode m, int hidden, int batch)
{
    return q_point_layers(r, dev, m, 0, hidden, batch);
}

double q_flops_at(wl_mode m, int hidden, double batch)
{
    double f0 = workload_flops_per_layer(m, hidden, 0);
    return f0 + batch * (workload_flops_per_layer(m, hidden, 1) - f0);
}

/* Inserts x into the ascending v[0..*n) unless it is there or v is full. */
static void add_sorted(int *v, int *n, int x)
{
    int i, j;
    for (i = 0; i < *n && v[i] < x; i++)
        ;
    if ((i < *n && v[i] == x) || *n >= Q_MAX_GRID)
        return;
    for (j = *n; j > i; j--)
        v[j] = v[j - 1];
    v[i] = x;
    (*n)++;
}

void q_grid_make(const results *r, wl_mode m, q_grid *g)
{
    int i;
    g->nh = g->nb = 0;
    for (i = 0; i < r->npoints; i++)
        if (r->points[i].mode == m) {
            add_sorted(g->h, &g->nh, r->points[i].hidden);
            add_sorted(g->b, &g->nb, r->points[i].batch);
        }
}

int q_shapes(const results *r, wl_mode m, q_shape *out, int max)
{
    int i, j, n = 0;
    for (i = 0; i < r->npoints && n < max; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode != m || p->net[0]) /* a network is no shape of the square stack */
            continue;
        for (j = 0; j < n && !(out[j].hidden == p->hidden && out[j].batch == p->batch); j++)
            ;
        if (j < n)
            continue;
        /* insertion, by hidden then batch */
        for (j = n; j > 0 && (out[j - 1].hidden > p->hidden ||
                              (out[j - 1].hidden == p->hidden && out[j - 1].batch > p->batch));
             j--)
            out[j] = out[j - 1];
        out[j].hidden = p->hidden;
        out[j].batch = p->batch;
        n++;
    }
    return n;
}

int q_compared(const results *r, wl_mode m, const fit_prices *prices, int *use)
{
    int d, n = 0;
    for (d = 0; d < r->ndevices; d++) {
        const char *id = r->devices[d].id;
        use[d] = q_has_mode(r, id, m) && (!prices || q_price(prices, id) > 0.0);
        n += use[d];
    }
    return n;
}

int q_completed(const results *r, wl_mode m, const int *use, q_shape *out, int max)
{
    int i, d, n = q_shapes(r, m, out, max), k = 0;
    for (i = 0; i < n; i++) {
        int all = 1;
        for (d = 0; d < r->ndevices && all; d++) {
            const char *id = r->devices[d].id;
            if (use ? !use[d] : !q_has_mode(r, id, m))
                continue;
            all = q_ok(q_point(r, id, m, out[i].hidden, out[i].batch));
        }
        if (all)
            out[k++] = out[i];
    }
    return k;
}

double q_total(const results *r, const char *dev, wl_mode m, const q_shape *shapes, int n,
               fit_view v, int *partial)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        const rs_point *p = q_point(r, dev, m, shapes[i].hidden, shapes[i].batch);
        if (q_ok_view(p, v)) {
            sum += q_median(p, v);
        } else {
            sum += q_median(p, FIT_RESIDENT);
            if (partial)
                *partial = 1;
        }
    }
    return sum;
}

int q_ci_rel(const stats_summary *s, double *below, double *above)
{
    *below = *above = 0.0;
    if (!(s->median > 0.0))
        return 0;
    *below = fmax(0.0, (s->median - s->ci_lo) / s->median);
    *above = fmax(0.0, (s->ci_hi - s->median) / s->median);
    return *below > Q_WIDE || *above > Q_WIDE;
}

/* Copies src into buf without the marks that make a driver's string raw:
 * "(R)", "(TM)", "(tm)", a trailing " CPU" or " Processor" after a model,
 * and runs of spaces. */
static void clean_name(const char *src, char *buf, size_t size)
{
    static const char *const drop[] = {"(R)", "(TM)", "(tm)", "(r)"};
    size_t o = 0;
    int space = 1; /* no leading space */
    while (*src && o + 1 < size) {
        size_t k, n = 0;
        for (k = 0; k < sizeof drop / sizeof drop[0] && !n; k++)
            if (strncmp(src, drop[k], strlen(drop[k])) == 0)
                n = strlen(drop[k]);
        if (n) {
            src += n;
            continue;
        }
        if (*src == ' ') {
            if (!space)
                buf[o++] = ' ';
            space = 1;
        } else {
            buf[o++] = *src;
            space = 0;
        }
        src++;
    }
    while (o > 0 && buf[o - 1] == ' ')
        o--;
    buf[o] = '\0';
}

/* The first word of s into buf ("llvmpipe (LLVM 15.0.6, 256 bits)" gives
 * "llvmpipe"). */
static void first_word(const char *s, char *buf, size_t size)
{
    size_t n = strcspn(s, " (");
    if (n >= size)
        n = size - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* The display name of d alone, before it is made unique. */
static void device_name(const results *r, const device_info *d, char *buf, size_t size)
{
    char name[256], word[64];
    clean_name(d->name, name, sizeof name);
    if (strcmp(d->kind, "openblas") == 0) {
        int t = r->prov.blas_threads;
        if (t > 0)
            snprintf(buf, size, "OpenBLAS (%d thread%s)", t, t == 1 ? "" : "s");
        else
            snprintf(buf, size, "OpenBLAS");
    } else if (strcmp(d->kind, "framework") == 0) {
        /* the framework, then where it computes: "PyTorch (CPU)", "PyTorch
         * on NVIDIA H100 80GB HBM3" */
        const char *fw = devinfo_prop(d, "framework");
        fw = fw && fw[0] ? fw : d->id;
        if (strcmp(d->type, "GPU") == 0 && name[0])
            snprintf(buf, size, "%s on %s", fw, name);
        else
            snprintf(buf, size, "%s (%s)", fw, d->type[0] ? d->type : "CPU");
    } else if (strstr(d->library, "Portable Computing Language") || strstr(d->library, "PoCL") ||
               strncmp(d->name, "pthread-", 8) == 0) {
        /* PoCL's CPU device by its name alone where the library was not
         * recorded: "pthread-" and the host's CPU */
        snprintf(buf, size, "PoCL (%s)", d->type[0] ? d->type : "CPU");
    } else if (strstr(d->library, "rusticl") || strstr(d->vendor, "Mesa")) {
        first_word(name, word, sizeof word);
        snprintf(buf, size, "%s %s", strstr(d->library, "rusticl") ? "rusticl" : "Mesa", word);
    } else if (name[0]) {
        snprintf(buf, size, "%s", name);
    } else {
        snprintf(buf, size, "%s", d->id);
    }
}

void q_device_name(const results *r, const char *dev, char *buf, size_t size)
{
    char other[256];
    int i, me = q_device_index(r, dev), twin = 0;
    if (me == Q_NO_DEVICE) {
        snprintf(buf, size, "%s", dev);
        return;
    }
    device_name(r, &r->devices[me], buf, size);
    for (i = 0; i < r->ndevices && !twin; i++) {
        if (i == me)
            continue;
        device_name(r, &r->devices[i], other, sizeof other);
        twin = strcmp(other, buf) == 0;
    }
    if (twin) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, " [%s]", dev);
    }
    /* a made-up device never goes by a measured one's name alone: every
     * sentence, legend and title that quotes its figures says so */
    if (q_synthetic(r, me)) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, " (synthetic)");
    }
}

int q_ci_uninformative(double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi) || !(lo > 0.0))
        return 1;
    return hi > Q_UNINFORMATIVE * lo;
}

int q_summary_uninformative(const stats_summary *s)
{
    return q_ci_uninformative(s->ci_lo, s->ci_hi);
}

/* The quickest and slowest of p's pass medians (resident, over the
 * samples its summary takes) into *lo and *hi, and its passes into
 * *passes (0 when out of memory). */
static void pass_extremes(const rs_point *p, double *lo, double *hi, int *passes)
{
    int *idx = malloc((size_t)p->nsamples * sizeof *idx + 1), n, i, j, m;
    double *v = malloc((size_t)p->nsamples * sizeof *v + 1), med;
    *passes = 0;
    *lo = *hi = 0.0;
    if (!idx || !v || (n = results_summary_samples(p, idx)) < 0)
        goto done;
    for (i = 0; i < n; i++) {
        int pass = p->pass ? p->pass[idx[i]] : 0, seen = 0;
        for (j = 0; j < i && !seen; j++)
            seen = (p->pass ? p->pass[idx[j]] : 0) == pass;
        if (seen)
            continue;
        for (m = 0, j = i; j < n; j++)
            if ((p->pass ? p->pass[idx[j]] : 0) == pass)
                v[m++] = p->samples[idx[j]].wall;
        med = stats_median(v, m);
        if (++*passes == 1 || med < *lo)
            *lo = med;
        if (*passes == 1 || med > *hi)
            *hi = med;
    }
done:
    free(idx);
    free(v);
}

/* Why p's resident interval is uninformative (q_vague_why); its pass
 * medians' extremes and passes as pass_extremes's. */
static q_vague_why vague_why(const rs_point *p, double *lo, double *hi, int *passes)
{
    const stats_summary *s = &p->resident;
    double lost = s->contention > 0.9 ? 0.9 : s->contention;
    pass_extremes(p, lo, hi, passes);
    if (lost > 0.0 && !q_ci_uninformative(s->ci_lo / (1.0 - lost), s->ci_hi))
        return Q_VAGUE_LOAD;
    if (*passes < Q_PAIRED_PASSES)
        return Q_VAGUE_FEW;
    if (*lo > 0.0 && *hi > Q_UNINFORMATIVE * *lo)
        return Q_VAGUE_PASSES;
    return Q_VAGUE_SCATTER;
}

int q_run_vague(const results *r, q_vague *out, int max)
{
    int i, k, n = 0, passes;
    double lo, hi;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        q_vague *v = NULL;
        if (!q_ok(p) || p->nsamples == 0 || !q_summary_uninformative(&p->resident))
            continue;
        for (k = 0; k < n && !v; k++)
            if (strcmp(out[k].device, p->device) == 0)
                v = &out[k];
        if (!v) {
            if (n == max)
                continue;
            v = &out[n++];
            memset(v, 0, sizeof *v);
            snprintf(v->device, sizeof v->device, "%s", p->device);
        }
        v->n++;
        v->why[vague_why(p, &lo, &hi, &passes)]++;
        if (passes == 0)
            return BE_EFAIL;
        if (passes > v->passes)
            v->passes = passes;
        if (passes > 1 && (!v->apart || hi / lo > v->apart_hi / v->apart_lo)) {
            v->apart = p;
            v->apart_lo = lo;
            v->apart_hi = hi;
        }
    }
    /* in the order r lists its devices */
    for (i = 0, k = 0; i < r->ndevices && k < n; i++) {
        int j;
        for (j = k; j < n; j++)
            if (strcmp(out[j].device, r->devices[i].id) == 0) {
                q_vague t = out[k];
                out[k++] = out[j];
                out[j] = t;
                break;
            }
    }
    return n;
}

const fit_set *q_fit(const results *r)
{
    return r->has_fit ? &r->fit : NULL;
}

const fit_model *q_model_at(const fit_set *fs, const char *dev, wl_mode m, fit_view v, int hidden)
{
    int i;
    if (!fs)
        return NULL;
    for (i = 0; i < fs->nmodels; i++) {
        const fit_model *x = &fs->models[i];
        if (x->mode == m && x->view == v && x->hidden == hidden && strcmp(x->device, dev) == 0)
            return x;
    }
    return NULL;
}

const fit_model *q_model(const fit_set *fs, const char *dev, wl_mode m, fit_view v)
{
    return q_model_at(fs, dev, m, v, 0);
}

int q_model_ok(const fit_model *m)
{
    return m && m->ok && m->P > 0.0 && isfinite(m->P) && isfinite(m->t0);
}

int q_model_sound(const fit_model *m)
{
    return q_model_ok(m) && !m->poor && m->rms_rel <= FIT_POOR_RMS;
}

const fit_model *q_base_model(const fit_set *fs, const char *dev, wl_mode m, fit_view v)
{
    return q_base_model_at(fs, dev, m, v, 0);
}

const fit_model *q_base_model_at(const fit_set *fs, const char *dev, wl_mode m, fit_view v,
                                 int hidden)
{
    const fit_model *x = q_model_at(fs, dev, m, v, hidden);
    return x ? x : q_model_at(fs, dev, m, FIT_RESIDENT, hidden);
}

const fit_crossover *q_cross(const fit_set *fs, const char *base, const char *other, wl_mode m,
                             fit_view v, int cost)
{
    int i;
    if (!fs)
        return NULL;
    for (i = 0; i < fs->ncross; i++) {
        const fit_crossover *c = &fs->cross[i];
        if (c->mode == m && c->view == v && c->cost == cost && strcmp(c->other, other) == 0 &&
            (!base || strcmp(c->base, base) == 0))
            return c;
    }
    return NULL;
}

double q_price(const fit_prices *p, const char *dev)
{
    int i;
    if (!p)
        return Q_NO_PRICE;
    for (i = 0; i < p->n && i < FIT_MAX_PRICES; i++)
        if (strcmp(p->device[i], dev) == 0)
            return p->usd_per_hour[i];
    return Q_NO_PRICE;
}

double q_energy(const rs_point *p)
{
    if (!q_ok(p) || !p->tel.has_energy || p->tel.energy_samples < 1 || !(p->tel.energy_j >= 0.0) ||
        !isfinite(p->tel.energy_j))
        return Q_NO_ENERGY;
    return p->tel.energy_j / p->tel.energy_samples;
}

double q_energy_step(const rs_point *p)
{
    if (q_energy(p) < 0.0 || !(p->tel.energy_span_s > 0.0) || !isfinite(p->tel.energy_span_s))
        return Q_NO_ENERGY;
    return p->tel.energy_span_s / p->tel.energy_samples;
}

int q_has_energy(const results *r, const char *dev, wl_mode m)
{
    int i;
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        if (p->mode == m && (!dev || strcmp(p->device, dev) == 0) && q_energy(p) >= 0.0)
            return 1;
    }
    return 0;
}

const char *q_energy_none(const results *r, const char *dev)
{
    static const char *const words[] = {"absent", "root-only", "unreadable"};
    const device_info *d = results_device(r, dev);
    const char *v = d ? devinfo_prop(d, "rapl") : NULL;
    size_t i;
    /* a word of this set only: the file may come from anywhere */
    for (i = 0; v && i < sizeof words / sizeof *words; i++)
        if (strcmp(v, words[i]) == 0)
            return words[i];
    return NULL;
}

int q_energy_cross(const results *r, const char *base, const char *other, wl_mode m, int hidden,
                   fit_hidden_cross *h)
{
    int batch[Q_MAX_GRID], n = 0, i, last = -1;
    double ratio[Q_MAX_GRID], x;
    q_grid g;

    memset(h, 0, sizeof *h);
    h->hidden = hidden;
    h->kind = CROSS_UNKNOWN;
    q_grid_make(r, m, &g);
    for (i = 0; i < g.nb; i++) { /* ascending batches */
        double eb = q_energy(q_point(r, base, m, hidden, g.b[i]));
        double eo = q_energy(q_point(r, other, m, hidden, g.b[i]));
        if (!(eb > 0.0) || eo < 0.0)
            continue;
        batch[n] = g.b[i];
        ratio[n] = eo / eb;
        n++;
    }
    if (n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (ratio[i] >= 1.0)
            last = i;
    if (last < 0) {
        h->kind = CROSS_ALWAYS;
        return n;
    }
    if (last == n - 1 || !(ratio[last + 1] > 0.0)) {
        h->kind = last == n - 1 ? CROSS_NEVER : CROSS_IN_RANGE;
        if (h->kind == CROSS_IN_RANGE) { /* no energy at all at the next batch */
            h->batch = batch[last + 1];
            h->flops = q_flops_at(m, hidden, h->batch);
        }
        return n;
    }
    x = log(ratio[last]) / (log(ratio[last]) - log(ratio[last + 1]));
    h->kind = CROSS_IN_RANGE;
    h->batch = exp(log((double)batch[last]) +
                   x * (log((double)batch[last + 1]) - log((double)batch[last])));
    h->flops = q_flops_at(m, hidden, h->batch);
    return n;
}

/* FNV-1a, 32 bits, of text, continued from h. */
static unsigned long fnv1a(unsigned long h, const char *text)
{
    const char *p;
    for (p = text; *p; p++)
        h = ((h ^ (unsigned char)*p) * 16777619ul) & 0xfffffffful;
    return h;
}

/* The name of the first device of r beside the CPU (its type not "CPU")
 * whose name sorts after prev (NULL: any), the least of them; NULL when
 * none. */
static const char *next_model(const results *r, const char *prev)
{
    const char *best = NULL;
    int i;
    for (i = 0; i < r->ndevices; i++) {
        const char *m = r->devices[i].name;
        if (strcmp(r->devices[i].type, "CPU") != 0 && (!prev || strcmp(m, prev) > 0) &&
            (!best || strcmp(m, best) < 0))
            best = m;
    }
    return best;
}

void q_machine_print(const results *r, char *buf, size_t size)
{
    char text[600];
    const char *model = NULL;
    unsigned long h;
    snprintf(text, sizeof text, "%s|%d|%.0f", r->prov.cpu_model, r->prov.cores,
             floor(r->prov.memory / 1073741824.0 + 0.5));
    h = fnv1a(2166136261ul, text);
    /* the models of the devices beside the CPU, each once and in order of
     * name (not of discovery): a GPU swapped is another machine, while a
     * machine of CPUs alone keeps the fingerprint it had before devices
     * counted */
    while ((model = next_model(r, model)) != NULL)
        h = fnv1a(fnv1a(h, "|"), model);
    snprintf(buf, size, "%08lx", h);
}

const char *q_machine_name(const results *r)
{
    return r->prov.label[0] ? r->prov.label : r->prov.host;
}

int q_same_machine(const results *a, const results *b)
{
    char fa[16], fb[16];
    if (strcmp(q_machine_name(a), q_machine_name(b)) != 0)
        return 0;
    q_machine_print(a, fa, sizeof fa);
    q_machine_print(b, fb, sizeof fb);
    return strcmp(fa, fb) == 0;
}

/* ---- what a reader must know before any figure (issue 47) --------------- */

int q_synthetic(const results *r, int d)
{
    return d >= 0 && d < r->ndevices && devinfo_prop(&r->devices[d], "synthetic") != NULL;
}

const char *q_handicap(const results *r, int d)
{
    return d >= 0 && d < r->ndevices ? devinfo_prop(&r->devices[d], "openblas-underuses") : NULL;
}

int q_caveats(const results *r)
{
    int d, c = r->partial ? Q_CAVEAT_PARTIAL : 0, gpu = 0;
    for (d = 0; d < r->ndevices; d++) {
        if (q_synthetic(r, d))
            c |= Q_CAVEAT_SYNTHETIC;
        else if (strcmp(r->devices[d].type, "GPU") == 0)
            gpu = 1;
        if (q_handicap(r, d))
            c |= Q_CAVEAT_HANDICAPPED;
    }
    return gpu ? c : c | Q_CAVEAT_NO_GPU;
}

void q_machine_words(const results *r, char *buf, size_t size)
{
    char cpu[256];
    clean_name(r->prov.cpu_model, cpu, sizeof cpu);
    if (!cpu[0])
        snprintf(buf, size, "%s", q_machine_name(r));
    else if (r->prov.cores > 0)
        snprintf(buf, size, "%s (%d core%s)", cpu, r->prov.cores, r->prov.cores == 1 ? "" : "s");
    else
        snprintf(buf, size, "%s", cpu);
}
