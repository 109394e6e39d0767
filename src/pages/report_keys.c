/*
 * report_keys.c — each run in small, and the key of each page (see
 * report_impl.h).
 *
 * While the archive loads (archive_load's hooks), each run becomes its
 * digest (cache.h): taken from OUT/.cache/ when the cache holds one for
 * these very results bytes, else made from the run loaded whole and
 * saved, so that the next report reads it instead.  Once the archive is
 * in order and its history made, each run's pages get a key of everything
 * they are made of; report.c renders them again only when it changed.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archpages.h"
#include "csv.h"
#include "fsx.h"
#include "prose.h"
#include "query.h"

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
int report_on_given(void *ctx, archive *a, int i, err *e)
{
    report_ctx *x = ctx;
    archive_run *u = &a->v[i];
    char staged[ARCHIVE_PATH + 32];
    int rc;
    if ((rc = report_stopped(x, e)) < 0 || (u->imported && (rc = archive_place(u, e)) < 0))
        return rc;
    if (u->imported)
        snprintf(staged, sizeof staged, "%s/" ARCHIVE_RESULTS, u->stage);
    else
        snprintf(staged, sizeof staged, "%s", u->src);
    /* the run --single-file writes, by the id it has in the archive now */
    if (x->o->single_file)
        snprintf(x->single, sizeof x->single, "%s", u->r->prov.id);
    return keep_small(x, u, staged, e);
}

/* The digest of run id of the archive made and saved (report_warm chose
 * the runs); failures are left to the scan, which meets them again and
 * says so. */
static void warm_one(report_ctx *x, const char *id)
{
    archive_run u;
    cache_digest d;
    cache_key k;
    char p[PATHMAX];
    err ignore;
    /* --full: the entry made now or none (the scan then loads the run) */
    if (x->o->full) {
        snprintf(p, sizeof p, "%s/" CACHE_DIR "/%s.digest", x->o->out, id);
        (void)fsx_unlink_in(x->o->out, p, &ignore);
    }
    memset(&u, 0, sizeof u);
    if (archive_check_run(x->o->out, id, &u, &ignore) == BE_OK &&
        cache_key_file(u.src, &k, &ignore) == BE_OK &&
        archive_load_archived(x->o->out, id, x->memo, &u, &ignore) == BE_OK &&
        digest_of(u.r, &d, &ignore) == BE_OK) {
        (void)cache_digest_save(x->o->out, id, &k, &d, &ignore);
        cache_digest_free(&d);
    }
    archive_run_free(&u);
}

/* report_in_shares's work: share of n of the runs in x->warm. */
static int warm_share(report_ctx *x, int share, int n)
{
    int i;
    for (i = share; i < x->nwarm; i += n) {
        if (x->o->stop && *x->o->stop)
            return BE_EINTR;
        warm_one(x, x->warm[i]);
    }
    return BE_OK;
}

int report_warm(report_ctx *x, err *e)
{
    char runs[PATHMAX];
    struct dirent *de;
    DIR *d;
    int rc = BE_OK, cap = 0;
    snprintf(runs, sizeof runs, "%s/runs", x->o->out);
    if (report_jobs_wanted(x) < 2 || !(d = opendir(runs)))
        return BE_OK;
    while ((de = readdir(d))) {
        char p[PATHMAX + 300];
        snprintf(p, sizeof p, "%s/" CACHE_DIR "/%s.digest", x->o->out, de->d_name);
        if (de->d_name[0] == '.' || (!x->o->full && access(p, F_OK) == 0))
            continue;
        if (x->nwarm == cap) {
            char **v = realloc(x->warm, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
            if (!v) {
                rc = err_set(e, BE_EFAIL, "out of memory");
                break;
            }
            x->warm = v;
        }
        if (!(x->warm[x->nwarm] = strdup(de->d_name))) {
            rc = err_set(e, BE_EFAIL, "out of memory");
            break;
        }
        x->nwarm++;
    }
    closedir(d);
    if (rc == BE_OK && x->nwarm >= 2)
        rc = report_in_shares(x, warm_share, &x->warmed, e);
    return rc;
}

/* archive_load's hook for a run of the archive: its digest from the cache
 * when the cache has one for these very results (and --full was not
 * given, or report_warm made them all anew), else loaded whole and kept
 * small. */
int report_on_archived(void *ctx, const char *out, const char *id, archive_run *u, err *e)
{
    report_ctx *x = ctx;
    cache_digest d;
    cache_key k;
    err miss;
    int rc;
    memset(u, 0, sizeof *u);
    if ((rc = report_stopped(x, e)) < 0 || (rc = archive_check_run(out, id, u, e)) < 0 ||
        (rc = cache_key_file(u->src, &k, e)) < 0)
        return rc;
    if ((!x->o->full || x->warmed) && cache_digest_load(out, id, &k, &d, &miss) == BE_OK) {
        u->r = d.r;
        if ((rc = side_add(x, id, &k, &d, e)) < 0) {
            cache_digest_free(&d);
            u->r = NULL;
        }
        return rc;
    }
    if ((rc = archive_load_archived(out, id, x->memo, u, e)) < 0)
        return rc;
    if ((rc = keep_small(x, u, u->src, e)) < 0)
        archive_run_free(u);
    return rc;
}

/* The archive in order: x->dg and x->key follow x->a. */
int report_match_sides(report_ctx *x, err *e)
{
    int i, j;
    if (!(x->dg = calloc((size_t)x->a.n, sizeof *x->dg)) ||
        !(x->key = calloc((size_t)x->a.n, sizeof *x->key)) ||
        !(x->items = calloc((size_t)x->a.n, sizeof *x->items)) ||
        !(x->page = calloc((size_t)x->a.n, sizeof *x->page)) ||
        !(x->fresh = calloc((size_t)x->a.n, sizeof *x->fresh)) ||
        !(x->cmp = calloc(1, sizeof *x->cmp)) || !(x->F = calloc((size_t)x->a.n, sizeof *x->F)))
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
void report_page_key(const report_ctx *x, int k, cache_key *pk)
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
            cache_hash_str(&h, q_machine_name(x->a.v[j].r));
            cache_hash_str(&h, x->a.v[j].r->prov.started);
            cache_hash_str(&h, x->dg[j].answer);
        }
    snprintf(buf, sizeof buf, "%d %d %d", archpages_page_of(k, x->o->archive_page),
             k >= report_feed_oldest(x), u->imported);
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
int report_site_key(report_ctx *x, err *e)
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
