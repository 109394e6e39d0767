/*
 * cache.c — the render cache (cache.h).
 *
 * An entry is the bytes of plain structures of this build (results.h), so
 * writing and reading one is a copy; the build key (version, commit and the
 * sizes of those structures) makes an entry of any other build no entry.
 * A digest is kept in runs of zeros and the bytes between them (most of a
 * structure is the unused rest of its strings), so that reading one is
 * a copy, not an inflate.  What is read is then checked as input: the
 * checksum, each record of the runs, counts, enums, and every string cut
 * at its buffer's end.
 */
#define _POSIX_C_SOURCE 200809L
#include "cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "fsx.h"
#include "query.h"
#include "version.h"

#define PATHMAX 4096
#define MAX_ENTRY (64L * 1024 * 1024)

static const char digest_magic[8] = CACHE_MAGIC_DIGEST;
static const char page_magic[8] = CACHE_MAGIC_PAGE;

/* ---- hashing: two 64-bit multiply-xor streams, eight bytes a step (every
 * results file and every digest is hashed on every report), the tail byte
 * by byte, mixed at the end (a checksum and a content key, not a defence
 * against forgery); a function of the bytes and of where the calls split
 * them, which is always the same for the same input */

void cache_hash_init(cache_hasher *h)
{
    h->a = 0xcbf29ce484222325ULL;
    h->b = 0x84222325cbf29ce4ULL;
}

void cache_hash(cache_hasher *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    unsigned long long a = h->a, b = h->b, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, sizeof w);
        a = (a ^ w) * 0x100000001b3ULL;
        a ^= a >> 32;
        b = (b + w) * 0x9e3779b97f4a7c15ULL;
        b ^= b >> 29;
    }
    for (; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3ULL;
        b = (b ^ p[i]) * 0x100000001b3ULL;
        b ^= b >> 29;
    }
    h->a = a;
    h->b = b;
}

void cache_hash_str(cache_hasher *h, const char *s)
{
    cache_hash(h, s, strlen(s) + 1);
}

static unsigned long long mix(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

void cache_hash_end(const cache_hasher *h, cache_key *k)
{
    snprintf(k->hex, sizeof k->hex, "%016llx%016llx", mix(h->a ^ mix(h->b)), mix(h->b + h->a));
}

/* This build: an entry written by another is no entry. */
static void build_key(cache_hasher *h)
{
    size_t sizes[] = {sizeof(rs_prov),       sizeof(device_info), sizeof(rs_point),
                      sizeof(fit_crossover), sizeof(fit_prices),  sizeof(cache_key)};
    cache_hash_str(h, BE_VERSION);
    cache_hash_str(h, BE_COMMIT);
    cache_hash(h, sizes, sizeof sizes);
}

void cache_build_key(cache_key *k)
{
    cache_hasher h;
    cache_hash_init(&h);
    build_key(&h);
    cache_hash_end(&h, k);
}

int cache_key_file(const char *path, cache_key *k, err *e)
{
    char buf[65536];
    cache_hasher h;
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, BE_EFAIL, "%s: cannot open: %s", path, strerror(errno));
    cache_hash_init(&h);
    build_key(&h);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        cache_hash(&h, buf, n);
    if (ferror(f)) {
        fclose(f);
        return err_set(e, BE_EFAIL, "%s: read error", path);
    }
    fclose(f);
    cache_hash_end(&h, k);
    return BE_OK;
}

/* ---- the digest ------------------------------------------------------ */

int cache_digest_make(const results *full, const char *answer, const char *rows, size_t nrows,
                      cache_digest *d, err *e)
{
    results *r = results_new();
    int i;
    memset(d, 0, sizeof *d);
    if (!r || !(d->rows = malloc(nrows + 1))) {
        results_free(r);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    memcpy(d->rows, rows, nrows);
    d->rows[nrows] = '\0';
    d->nrows = nrows;
    r->partial = full->partial;
    r->prov = full->prov;
    r->prices = full->prices;
    r->fit_seed = full->fit_seed;
    r->has_fit = full->has_fit;
    r->fit.analysis = full->fit.analysis;
    if (full->fit.ncross > 0) {
        if (!(r->fit.cross = malloc((size_t)full->fit.ncross * sizeof *r->fit.cross)))
            goto oom;
        memcpy(r->fit.cross, full->fit.cross, (size_t)full->fit.ncross * sizeof *r->fit.cross);
        r->fit.ncross = full->fit.ncross;
    }
    for (i = 0; i < full->ndevices; i++)
        if (results_add_device(r, &full->devices[i], e) < 0)
            goto fail;
    for (i = 0; i < full->npasses; i++)
        if (results_add_pass(r, &full->passes[i], e) < 0)
            goto fail;
    /* as many points as there are: a thousand digests are held at once */
    if (full->npoints > 0 && !(r->points = malloc((size_t)full->npoints * sizeof *r->points)))
        goto oom;
    r->cap = full->npoints;
    for (i = 0; i < full->npoints; i++) {
        rs_point p;
        memcpy(&p, &full->points[i], sizeof p);
        p.nsamples = 0;
        p.samples = NULL;
        p.pass = NULL;
        if (results_add_point(r, &p, e) < 0)
            goto fail;
    }
    snprintf(d->answer, sizeof d->answer, "%s", answer);
    d->r = r;
    return BE_OK;
oom:
    err_set(e, BE_EFAIL, "out of memory");
fail:
    results_free(r);
    free(d->rows);
    memset(d, 0, sizeof *d);
    return BE_EFAIL;
}

void cache_digest_free(cache_digest *d)
{
    results_free(d->r);
    free(d->rows);
    memset(d, 0, sizeof *d);
}

/* A growing buffer of an entry. */
typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const void *data, size_t len)
{
    if (b->oom || len == 0)
        return;
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *np;
        while (cap < b->n + len)
            cap *= 2;
        if (!(np = realloc(b->p, cap))) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
}

static void put_u32(buf *b, size_t v)
{
    uint32_t u = (uint32_t)v;
    put(b, &u, sizeof u);
}

static void entry_path(const char *out, const char *id, const char *ext, char *p, size_t size)
{
    snprintf(p, size, "%s/" CACHE_DIR "/%s.%s", out, id, ext);
}

/* OUT/.cache made when it is not there (inside out, through no link), and
 * the path of its entry id.ext into p. */
static int entry_made(const char *out, const char *id, const char *ext, char *p, size_t size,
                      err *e)
{
    int rc;
    snprintf(p, size, "%s/" CACHE_DIR, out);
    if ((rc = fsx_mkdirs_in(out, p, e)) < 0)
        return rc;
    entry_path(out, id, ext, p, size);
    return BE_OK;
}

/* The checksum of an entry's bytes data[0..n), which ends the entry. */
static void checksum(const char *data, size_t n, cache_key *sum)
{
    cache_hasher h;
    cache_hash_init(&h);
    cache_hash(&h, data, n);
    cache_hash_end(&h, sum);
}

/* b sealed with the checksum of what it holds; BE_EFAIL (b freed) when
 * it ran out of memory on the way. */
static int seal(buf *b, err *e)
{
    cache_key sum;
    checksum(b->p, b->n, &sum);
    put(b, sum.hex, sizeof sum.hex);
    if (b->oom) {
        free(b->p);
        b->p = NULL;
        return err_set(e, BE_EFAIL, "out of memory");
    }
    return BE_OK;
}

/* ---- zero runs: a digest holds every point's summary as the structures
 * lay it out, and nine bytes in ten are zeros (the rest of each string's
 * buffer, the fields a point does not use).  An entry is kept as records
 * of a run of zeros and the bytes after it, so that reading a thousand
 * digests is a copy each, not an inflate of a thousand times 200 KB.
 * Encoded: zrle_magic, the length of the bytes (u32), then records
 * (zeros u32, bytes u32, the bytes); the checksum follows. */

static const char zrle_magic[8] = CACHE_MAGIC_ZRLE;

/* A run of zeros shorter than this stays among the bytes: a record costs
 * eight. */
#define ZRLE_MIN 16

/* b's bytes as records, into z (freed by the caller). */
static void zrle_encode(const buf *b, buf *z)
{
    size_t i = 0, j, n;
    put(z, zrle_magic, sizeof zrle_magic);
    put_u32(z, b->n);
    while (i < b->n) {
        size_t zeros = 0, lit = i;
        while (i < b->n && b->p[i] == 0)
            i++;
        zeros = i - lit;
        /* the bytes up to the next run of ZRLE_MIN zeros (or the end) */
        for (j = i; j < b->n; j++) {
            if (b->p[j] != 0)
                continue;
            for (n = j; n < b->n && n - j < ZRLE_MIN && b->p[n] == 0; n++)
                ;
            if (n - j == ZRLE_MIN || n == b->n)
                break;
            j = n - 1;
        }
        put_u32(z, zeros);
        put_u32(z, j - i);
        put(z, b->p + i, j - i);
        i = j;
    }
}

/* The bytes of records z[0..n) (after the magic): *out (malloc'd),
 * *len; BE_EFAIL when a record reaches past the end of either. */
static int zrle_decode(const char *z, size_t n, char **out, size_t *len)
{
    size_t at = 0, total, done = 0;
    uint32_t u;
    char *p;
    if (n < 4)
        return BE_EFAIL;
    memcpy(&u, z, 4);
    total = u;
    if (total > (size_t)MAX_ENTRY || !(p = calloc(total + 1, 1)))
        return BE_EFAIL;
    at = 4;
    while (at < n) {
        uint32_t zeros, lit;
        if (n - at < 8)
            goto bad;
        memcpy(&zeros, z + at, 4);
        memcpy(&lit, z + at + 4, 4);
        at += 8;
        if (zeros > total - done || lit > total - done - zeros || lit > n - at)
            goto bad;
        done += zeros; /* calloc'd: the zeros are there */
        memcpy(p + done, z + at, lit);
        done += lit;
        at += lit;
    }
    if (done != total)
        goto bad;
    *out = p;
    *len = total;
    return BE_OK;
bad:
    free(p);
    return BE_EFAIL;
}

/* Writes b (freed here) to OUT/.cache/<id>.<ext> in zero runs, with a
 * checksum over what is written. */
static int write_entry(const char *out, const char *id, const char *ext, buf *b, err *e)
{
    char p[PATHMAX];
    buf z = {NULL, 0, 0, 0};
    int rc;
    zrle_encode(b, &z);
    free(b->p);
    z.oom |= b->oom;
    if ((rc = seal(&z, e)) < 0)
        return rc;
    if ((rc = entry_made(out, id, ext, p, sizeof p, e)) == BE_OK)
        rc = fsx_write_in(out, p, z.p, z.n, e);
    free(z.p);
    return rc;
}

int cache_digest_save(const char *out, const char *id, const cache_key *k, const cache_digest *d,
                      err *e)
{
    const results *r = d->r;
    fit_prices prices;
    buf b = {NULL, 0, 0, 0};
    cache_key build;
    int i;
    cache_build_key(&build);
    /* the prices given, and zeros past them and past each name's end:
     * those bytes were never written */
    memset(&prices, 0, sizeof prices);
    for (i = 0; i < r->prices.n && i < FIT_MAX_PRICES; i++) {
        snprintf(prices.device[i], sizeof prices.device[i], "%s", r->prices.device[i]);
        prices.usd_per_hour[i] = r->prices.usd_per_hour[i];
    }
    prices.n = i;
    put(&b, digest_magic, sizeof digest_magic);
    put(&b, build.hex, sizeof build.hex);
    put(&b, k->hex, sizeof k->hex);
    put_u32(&b, (size_t)r->ndevices);
    put_u32(&b, (size_t)r->npoints);
    put_u32(&b, (size_t)r->fit.ncross);
    put_u32(&b, d->nrows);
    put_u32(&b, (size_t)r->npasses);
    put_u32(&b, (size_t)r->partial);
    put_u32(&b, (size_t)r->has_fit);
    put_u32(&b, (size_t)r->fit.analysis);
    put(&b, &r->fit_seed, sizeof r->fit_seed);
    put(&b, &r->prov, sizeof r->prov);
    put(&b, &prices, sizeof prices);
    put(&b, r->devices, (size_t)r->ndevices * sizeof *r->devices);
    put(&b, r->passes, (size_t)r->npasses * sizeof *r->passes);
    for (i = 0; i < r->npoints; i++) {
        /* its samples stay in the results file: no address of this
         * process goes to disk */
        rs_point p = r->points[i];
        p.nsamples = 0;
        p.samples = NULL;
        p.pass = NULL;
        put(&b, &p, sizeof p);
    }
    put(&b, r->fit.cross, (size_t)r->fit.ncross * sizeof *r->fit.cross);
    put(&b, d->answer, sizeof d->answer);
    put(&b, d->rows, d->nrows);
    return write_entry(out, id, "digest", &b, e);
}

/* Reads OUT/.cache/<id>.<ext> whole when its checksum holds, decoded
 * when it is in zero runs: *len bytes, from its magic on. */
static int read_entry(const char *out, const char *id, const char *ext, const char magic[8],
                      char **data, size_t *len, err *e)
{
    char p[PATHMAX], *z = NULL;
    cache_key sum;
    size_t n;
    entry_path(out, id, ext, p, sizeof p);
    *data = NULL;
    if (fsx_read_all(p, &z, &n, e) < 0)
        return BE_EFAIL;
    if (n < sizeof zrle_magic + sizeof sum.hex || (long)n > MAX_ENTRY)
        goto bad;
    n -= sizeof sum.hex;
    checksum(z, n, &sum);
    if (memcmp(sum.hex, z + n, sizeof sum.hex) != 0)
        goto bad;
    /* the digest is kept in zero runs, the page entry (published with its
     * pages by the report) as it is */
    if (memcmp(z, zrle_magic, sizeof zrle_magic) == 0) {
        if (zrle_decode(z + sizeof zrle_magic, n - sizeof zrle_magic, data, &n) < 0)
            goto bad;
        free(z);
    } else
        *data = z;
    z = NULL;
    if (n < sizeof digest_magic || memcmp(*data, magic, 8) != 0)
        goto bad;
    *len = n;
    return BE_OK;
bad:
    free(z);
    free(*data);
    *data = NULL;
    return err_set(e, BE_EFAIL, "%s: not a cache entry of this breakeven (ignored)", p);
}

/* A reader of an entry: each take fails once past its end. */
typedef struct reader {
    const char *p;
    size_t left;
    int bad;
} reader;

static void take(reader *rd, void *to, size_t len)
{
    if (len == 0)
        return;
    if (rd->bad || len > rd->left) {
        rd->bad = 1;
        memset(to, 0, len);
        return;
    }
    memcpy(to, rd->p, len);
    rd->p += len;
    rd->left -= len;
}

static size_t take_u32(reader *rd)
{
    uint32_t u;
    take(rd, &u, sizeof u);
    return u;
}

#define TERM(s) ((s)[sizeof(s) - 1] = '\0')

/* Every string of the structures read cut at its buffer's end, and their
 * enums in range: 0 when something is out of range. */
static int sane(results *r)
{
    rs_prov *v = &r->prov;
    int i, j;
    TERM(v->version), TERM(v->commit), TERM(v->id), TERM(v->started), TERM(v->finished);
    TERM(v->command), TERM(v->env), TERM(v->hidden), TERM(v->batch), TERM(v->modes);
    TERM(v->host), TERM(v->label);
    TERM(v->os), TERM(v->kernel), TERM(v->cpu_model), TERM(v->compiler);
    TERM(v->blas_version), TERM(v->blas_config), TERM(v->blas_core), TERM(v->blas_threads_from);
    for (i = 0; i < r->prices.n && i < FIT_MAX_PRICES; i++)
        TERM(r->prices.device[i]);
    if (r->prices.n < 0 || r->prices.n > FIT_MAX_PRICES)
        return 0;
    for (i = 0; i < r->ndevices; i++) {
        device_info *d = &r->devices[i];
        TERM(d->id), TERM(d->kind), TERM(d->type), TERM(d->name), TERM(d->vendor);
        TERM(d->driver), TERM(d->library);
        if (d->nprops < 0 || d->nprops > DEVICE_MAX_PROPS || d->run_sd_runs < 0 ||
            d->run_sd_runs > 1000)
            return 0;
        for (j = 0; j < 3; j++)
            if (!(d->run_sd[j] <= 10.0)) /* NaN too */
                return 0;
        for (j = 0; j < d->nprops; j++)
            TERM(d->props[j].name), TERM(d->props[j].value);
    }
    for (i = 0; i < r->npoints; i++) {
        rs_point *p = &r->points[i];
        TERM(p->device), TERM(p->net), TERM(p->sizes), TERM(p->message), TERM(p->why);
        TERM(p->worst);
        p->samples = NULL;
        p->pass = NULL;
        p->nsamples = 0;
        if ((int)p->mode < WL_INFERENCE || (int)p->mode > WL_TRAINING || (int)p->status < PT_OK ||
            (int)p->status > PT_FAILED || !results_device(r, p->device))
            return 0;
    }
    for (i = 0; i < r->fit.ncross; i++) {
        fit_crossover *c = &r->fit.cross[i];
        TERM(c->base), TERM(c->other), TERM(c->sentence);
        if (c->nhidden < 0 || c->nhidden > LIST_MAX || (int)c->mode < WL_INFERENCE ||
            (int)c->mode > WL_TRAINING || (int)c->kind < CROSS_IN_RANGE ||
            (int)c->kind > CROSS_UNKNOWN)
            return 0;
        for (j = 0; j < c->nhidden; j++)
            if ((int)c->per_hidden[j].kind < CROSS_IN_RANGE ||
                (int)c->per_hidden[j].kind > CROSS_UNKNOWN)
                return 0;
    }
    return 1;
}

int cache_digest_load(const char *out, const char *id, const cache_key *k, cache_digest *d, err *e)
{
    char *data, magic[8], bk[33], rk[33];
    size_t len, ndev, npts, ncross, nrows, npass, i;
    cache_key build;
    reader rd;
    results *r;
    memset(d, 0, sizeof *d);
    if (read_entry(out, id, "digest", digest_magic, &data, &len, e) < 0)
        return BE_EFAIL;
    rd.p = data;
    rd.left = len;
    rd.bad = 0;
    cache_build_key(&build);
    take(&rd, magic, sizeof magic);
    take(&rd, bk, sizeof bk);
    take(&rd, rk, sizeof rk);
    if (rd.bad || memcmp(bk, build.hex, sizeof bk) != 0 || memcmp(rk, k->hex, sizeof rk) != 0) {
        free(data);
        return err_set(e, BE_EFAIL, "%s: cache entry of other results or another build", id);
    }
    ndev = take_u32(&rd);
    npts = take_u32(&rd);
    ncross = take_u32(&rd);
    nrows = take_u32(&rd);
    npass = take_u32(&rd);
    if (!(r = results_new()))
        goto bad;
    r->partial = take_u32(&rd) != 0;
    r->has_fit = take_u32(&rd) != 0;
    r->fit.analysis = (int)take_u32(&rd);
    take(&rd, &r->fit_seed, sizeof r->fit_seed);
    take(&rd, &r->prov, sizeof r->prov);
    take(&rd, &r->prices, sizeof r->prices);
    if (rd.bad || ndev > RESULTS_MAX_DEVICES || npts > RESULTS_MAX_POINTS || ncross > 4096 ||
        npass > RESULTS_MAX_PASSES || nrows > (size_t)MAX_ENTRY)
        goto bad;
    for (i = 0; i < ndev && !rd.bad; i++) {
        device_info di;
        take(&rd, &di, sizeof di);
        TERM(di.id);
        if (!rd.bad && results_add_device(r, &di, e) < 0)
            goto bad;
    }
    for (i = 0; i < npass && !rd.bad; i++) {
        rs_pass ps;
        take(&rd, &ps, sizeof ps);
        TERM(ps.started);
        if (!rd.bad && results_add_pass(r, &ps, e) < 0)
            goto bad;
    }
    /* as many points as the entry holds (a thousand digests are held at
     * once), and no more than its bytes can */
    if (npts > rd.left / sizeof(rs_point))
        goto bad;
    if (npts > 0 && !(r->points = malloc(npts * sizeof *r->points)))
        goto bad;
    r->cap = (int)npts;
    for (i = 0; i < npts && !rd.bad; i++) {
        rs_point p;
        take(&rd, &p, sizeof p);
        TERM(p.device);
        p.nsamples = 0;
        p.samples = NULL;
        p.pass = NULL;
        if (!rd.bad && results_add_point(r, &p, e) < 0)
            goto bad;
    }
    if (ncross > 0 && !(r->fit.cross = calloc(ncross, sizeof *r->fit.cross)))
        goto bad;
    r->fit.ncross = (int)ncross;
    take(&rd, r->fit.cross, ncross * sizeof *r->fit.cross);
    take(&rd, d->answer, sizeof d->answer);
    TERM(d->answer);
    if (rd.bad || rd.left != nrows || !(d->rows = malloc(nrows + 1)) || !sane(r))
        goto bad;
    take(&rd, d->rows, nrows);
    d->rows[nrows] = '\0';
    d->nrows = nrows;
    if (strcmp(r->prov.id, id) != 0)
        goto bad;
    d->r = r;
    free(data);
    return BE_OK;
bad:
    results_free(r);
    free(d->rows);
    memset(d, 0, sizeof *d);
    free(data);
    return err_set(e, BE_EFAIL, "%s: damaged cache entry (ignored)", id);
}

/* ---- the page entry -------------------------------------------------- */

int cache_page_entry(const char *out, const char *id, const cache_key *k, const char *item,
                     char *path, size_t size, char **data, size_t *len, err *e)
{
    buf b = {NULL, 0, 0, 0};
    int rc;
    put(&b, page_magic, sizeof page_magic);
    put(&b, k->hex, sizeof k->hex);
    put_u32(&b, item ? strlen(item) + 1 : 0);
    if (item)
        put(&b, item, strlen(item) + 1);
    if ((rc = seal(&b, e)) < 0)
        return rc;
    if ((rc = entry_made(out, id, "page", path, size, e)) < 0) {
        free(b.p);
        return rc;
    }
    *data = b.p;
    *len = b.n;
    return BE_OK;
}

int cache_page_load(const char *out, const char *id, cache_key *k, char **item, err *e)
{
    char *data, magic[8];
    size_t len, n;
    reader rd;
    if (item)
        *item = NULL;
    if (read_entry(out, id, "page", page_magic, &data, &len, e) < 0)
        return BE_EFAIL;
    rd.p = data;
    rd.left = len;
    rd.bad = 0;
    take(&rd, magic, sizeof magic);
    take(&rd, k->hex, sizeof k->hex);
    TERM(k->hex);
    n = take_u32(&rd);
    if (rd.bad || rd.left != n || (n > 0 && data[len - 1] != '\0')) {
        free(data);
        return err_set(e, BE_EFAIL, "%s: damaged cache entry (ignored)", id);
    }
    if (item && n > 0 && !(*item = strdup(rd.p))) {
        free(data);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    free(data);
    return BE_OK;
}

/* ---- the marks of charts drawn in place ------------------------------ */

int cache_mark_same(const char *out, const char *name, const cache_key *k)
{
    char p[PATHMAX], *data = NULL;
    size_t n = 0;
    int same;
    err ignore;
    entry_path(out, name, "mark", p, sizeof p);
    if (fsx_read_all(p, &data, &n, &ignore) < 0)
        return 0;
    same = n == sizeof k->hex && memcmp(data, k->hex, sizeof k->hex) == 0;
    free(data);
    return same;
}

int cache_mark_drop(const char *out, const char *name, err *e)
{
    char p[PATHMAX];
    entry_path(out, name, "mark", p, sizeof p);
    return fsx_unlink_in(out, p, e);
}

int cache_mark_save(const char *out, const char *name, const cache_key *k, err *e)
{
    char p[PATHMAX];
    int rc;
    if ((rc = entry_made(out, name, "mark", p, sizeof p, e)) < 0)
        return rc;
    return fsx_write_in(out, p, k->hex, sizeof k->hex, e);
}
