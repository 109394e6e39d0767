/*
 * report.c — the report as a whole (see report.h): which pages are
 * rendered again, and the publishing of the set.
 *
 * This is the last stage of the one-way flow: results files in, static
 * files out.  The runs come from archive.h, already loaded and validated,
 * each kept small (report_keys.c: the points the history reads, its
 * answer, its CSV rows); a run is loaded whole only while its own pages
 * render (with_run), which happens when the key of what they are made of
 * changed (report_page_key, docs/archive.md).  Here the history is made,
 * then each run whose key changed is rendered (report_run.c, its
 * comparison page in report_compare.c, its feed item in report_feed.c),
 * then the front page, the exports, the archive's pages (archpages.h),
 * the history page (report_history.c) and the feed.  Writing happens
 * as one set: each file is staged as it is rendered (site_outbox_spool)
 * and the set is published once everything rendered (site_flush), so a
 * failure or a signal on the way leaves the previous site as it was.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archpages.h"
#include "csv.h"
#include "fsx.h"
#include "query.h"
#include "runcharts.h"
#include "undo.h"
#include "workload.h"

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
    cmp_slot *cs = x->cmp;
    int rc;
    *small = NULL;
    if ((rc = results_load_file(u->src, x->memo, &full, e)) < 0)
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
    compare_free(&x->cmp->cmp);
    memset(x->cmp, 0, sizeof *x->cmp);
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
    if (!x->o->full && report_charts_exist(bases, n) &&
        cache_mark_same(x->o->out, "hosts", &x->hosts_key))
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
    if ((rc = report_run_page(x, x->front, 1, x->hosts, x->nhosts, x->unlike, &x->box, e)) < 0)
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

/* Whether the comparison chart of run k (loaded, x->cmp) shows what it
 * would be drawn from now: its files there and its mark (OUT/.cache/
 * mark.mark) the key of both runs' results and this build, k.  So a run
 * whose pages render again for a neighbour's link does not draw it
 * again; --full does. */
static int compare_current(const report_ctx *x, int k, char *mark, size_t size, cache_key *mk)
{
    const compare_set *c = &x->cmp->cmp;
    char base[PATHMAX + 300];
    const char *bases[1] = {base};
    cache_hasher h;
    snprintf(mark, size, "compare-%s..%s", c->id_a, c->id_b);
    snprintf(base, sizeof base, "%s/compare/%s..%s", x->o->out, c->id_a, c->id_b);
    cache_hash_init(&h);
    cache_hash_str(&h, "compare");
    cache_hash_str(&h, x->key[x->a.v[k].prev].hex);
    cache_hash_str(&h, x->key[k].hex);
    cache_hash_end(&h, mk);
    return !x->o->full && report_charts_exist(bases, 1) && cache_mark_same(x->o->out, mark, mk);
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
    if (rc == BE_OK && x->cmp->has) {
        cache_key mk;
        char mark[2 * 128 + 16];
        int current = compare_current(x, k, mark, sizeof mark, &mk);
        rc = report_render_compare(&x->s, x->o->out, &x->cmp->cmp, x->a.v[u->prev].r, u->r,
                                   !current, &x->box, NULL, 0, e);
        if (rc == BE_OK && !current)
            rc = cache_mark_save(x->o->out, mark, &mk, e);
    }
    if (rc == BE_OK)
        rc = report_render_run(x, k, e);
    /* the front page while the run is loaded */
    if (rc == BE_OK && k == x->front)
        rc = put_front(x, e);
    free(x->items[k]);
    x->items[k] = NULL;
    if (rc == BE_OK && k >= report_feed_oldest(x))
        rc = report_item_make(x, k, &x->items[k], e);
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
    if (strcmp(old.hex, x->page[k].hex) != 0 || (k >= report_feed_oldest(x) && !item)) {
        free(item);
        return 0;
    }
    /* a retry after a dropped run: the item made on the pass before */
    free(x->items[k]);
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

/* Every run's pages that changed (report_jobs.c shares them among
 * processes); a run of the archive whose pages do not render is dropped
 * and the pages are made again without it (its neighbours' links
 * change), an imported one is refused. */
static int render_runs(report_ctx *x, int *again, err *e)
{
    int k, rc, failed;
    err why;
    *again = 0;
    history_free(&x->h);
    if ((rc = history_make(&x->a, &x->h, e)) < 0 || (rc = prepare_front(x, e)) < 0)
        return rc;
    for (k = 0; k < x->a.n; k++) {
        report_page_key(x, k, &x->page[k]);
        x->fresh[k] = !unchanged(x, k);
    }
    if ((rc = report_render_fresh(x, render_whole, &failed, &why, e)) < 0 || failed < 0)
        return rc;
    if (x->a.v[failed].imported || x->a.n == 1) {
        *e = why;
        return BE_EFAIL;
    }
    drop_run(x, failed, why.msg);
    *again = 1;
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
    for (k = report_feed_oldest(x); k < x->a.n; k++) {
        results *small;
        if (x->items[k])
            continue;
        if ((rc = with_run(x, k, &small, e)) < 0)
            return rc;
        rc = report_item_make(x, k, &x->items[k], e);
        without_run(x, k, small);
        if (rc < 0)
            return rc;
    }
    return BE_OK;
}

/* The run --single-file names as one file (report_share.c), loaded whole
 * for it. */
static int render_share(report_ctx *x, err *e)
{
    results *small;
    int k, rc;
    for (k = 0; k < x->a.n && strcmp(x->a.v[k].r->prov.id, x->single) != 0; k++)
        ;
    if (k == x->a.n)
        return err_set(e, BE_EFAIL, "--single-file: run %s is not in the report", x->single);
    if ((rc = with_run(x, k, &small, e)) < 0)
        return rc;
    rc = report_render_share(x, k, x->o->share_path, x->o->share_size, e);
    without_run(x, k, small);
    return rc;
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
        (rc = report_render_history(x, e)) < 0 || (rc = report_render_feed(x, e)) < 0 ||
        (x->o->single_file && (rc = render_share(x, e)) < 0))
        return rc;
    /* the cache's word on each run's pages rendered now, published with
     * them (the others' entries say what they said) */
    for (i = 0; i < x->a.n; i++) {
        char *data;
        size_t len;
        if (!x->fresh[i])
            continue;
        if ((rc = cache_page_entry(x->o->out, x->a.v[i].r->prov.id, &x->page[i],
                                   i >= report_feed_oldest(x) ? x->items[i] : NULL, p, sizeof p,
                                   &data, &len, e)) < 0 ||
            (rc = site_put(&x->box, p, data, len, 0, e)) < 0)
            return rc;
    }
    if ((rc = report_stopped(x, e)) < 0)
        return rc;
    /* everything rendered: the imported runs enter OUT/runs/, then the
     * files are published as one set; a set not published takes them
     * out again */
    for (i = 0; i < x->a.n && rc == BE_OK; i++)
        rc = archive_commit(&x->a.v[i], e);
    if (rc == BE_OK)
        rc = site_flush(&x->box, x->o->out, x->o->stop, e);
    for (i = 0; rc < 0 && !x->box.committed && i < x->a.n; i++)
        archive_withdraw(&x->a.v[i]);
    if (rc < 0)
        return rc;
    report_prune_compare(x->o->out);
    snprintf(index, size, "%s/index.html", x->o->out);
    return BE_OK;
}

/* report_check_out for the files of every run of the archive. */
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
    results_memo_free(x->memo);
    for (i = 0; i < x->nwarm; i++)
        free(x->warm[i]);
    free(x->warm);
}

int report_write(const report_opts *o, char *index, size_t size, err *e)
{
    report_ctx *x = calloc(1, sizeof *x);
    archive_hooks hk;
    undo u = {0};
    int rc, published = 0;

    if (!x || !(x->memo = results_memo_new())) {
        free(x);
        return err_set(e, BE_EFAIL, "out of memory");
    }
    x->o = o;
    hk.ctx = x;
    hk.given = report_on_given;
    hk.archived = report_on_archived;
    if ((o->single_file && (rc = report_share_check(o, e)) < 0) ||
        (rc = report_check_out(o->out, e)) < 0 ||
        (rc = site_open(&x->s, o->data_dir, o->base_url, o->title, o->author, e)) < 0) {
        results_memo_free(x->memo);
        free(x);
        return rc;
    }
    if ((rc = site_recover(o->out, e)) == BE_OK && (rc = report_site_key(x, e)) == BE_OK &&
        (rc = report_warm(x, e)) == BE_OK &&
        (rc = archive_load(o->out, o->runs, o->nruns, &hk, &x->a, e)) == BE_OK) {
        if ((rc = report_match_sides(x, e)) == BE_OK &&
            (rc = check_runs(o->out, &x->a, e)) == BE_OK &&
            (rc = report_sweep_out(o->out, &x->a, e)) == BE_OK &&
            (rc = report_undo_begin(&u, o->out, 1, e)) == BE_OK) {
            /* each file staged as it is rendered: memory bounded by a page */
            site_outbox_spool(&x->box, o->out);
            rc = render_all(x, index, size, e);
            published = x->box.committed;
        }
        /* OUT that cannot be written is the one thing said */
        if (rc != BE_EIO)
            warn_notes(o, &x->a);
    }
    ctx_free(x);
    free(x);
    /* a report not published leaves OUT as it was: its staged files went
     * with the set (ctx_free), the charts and marks it drew go here */
    if (rc < 0 && !published)
        undo_rollback(&u);
    else
        undo_forget(&u);
    return rc;
}
