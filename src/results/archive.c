/*
 * archive.c — finding, loading and ordering runs (see archive.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "archive.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "fsx.h"
#include "query.h"
#include "utf8.h"

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

void archive_run_root(const archive_run *u, char *buf, size_t size)
{
    char *slash;
    int k;
    snprintf(buf, size, "%s", u->dir);
    for (k = 0; k < 2; k++)
        if ((slash = strrchr(buf, '/')))
            *slash = '\0';
}

void archive_run_free(archive_run *u)
{
    results_free(u->r);
    u->r = NULL;
    if (u->stage[0]) {
        char root[ARCHIVE_PATH];
        err ignore;
        archive_run_root(u, root, sizeof root);
        (void)fsx_unstage_in(root, u->stage, &ignore);
    }
    u->stage[0] = '\0';
}

void archive_free(archive *a)
{
    int i;
    for (i = 0; i < a->n; i++)
        archive_run_free(&a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = 0;
}

static void note(archive *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(archive *a, const char *fmt, ...)
{
    va_list ap;
    if (a->nnotes < ARCHIVE_NOTES) {
        va_start(ap, fmt);
        vsnprintf(a->notes[a->nnotes], sizeof a->notes[a->nnotes], fmt, ap);
        va_end(ap);
    }
    a->nnotes++;
}

void archive_results_in(const char *dir, char *path, size_t size)
{
    struct stat st;
    snprintf(path, size, "%s/" ARCHIVE_RESULTS, dir);
    if (lstat(path, &st) != 0 && errno == ENOENT)
        snprintf(path, size, "%s/" ARCHIVE_RESULTS_OLD, dir);
}

const char *archive_results_name(const archive_run *u)
{
    const char *slash = strrchr(u->src, '/');
    if (u->imported || strcmp(slash ? slash + 1 : u->src, ARCHIVE_RESULTS_OLD) != 0)
        return ARCHIVE_RESULTS;
    return ARCHIVE_RESULTS_OLD;
}

/* BE_OK when path is a regular file itself (lstat: not a symbolic link). */
static int regular_here(const char *path, err *e)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return err_set(e, BE_EFAIL, "%s: %s", path, strerror(errno));
    if (S_ISLNK(st.st_mode))
        return err_set(e, BE_EFAIL,
                       "%s: is a symbolic link; a run's results.xml in the "
                       "archive must be a file of its own",
                       path);
    if (!S_ISREG(st.st_mode))
        return err_set(e, BE_EFAIL, "%s: is not a regular file", path);
    return BE_OK;
}

/* The results.xml of a run given by id (under OUT/runs/), by directory or
 * by file. */
static int resolve(const char *out, const char *arg, char *path, size_t size, err *e)
{
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        archive_results_in(arg, path, size);
    } else if (access(arg, F_OK) == 0) {
        snprintf(path, size, "%s", arg);
    } else {
        if (strchr(arg, '/') || !safe_id(arg))
            return err_set(e, BE_EFAIL, "%s: no such run (neither a run id nor a file)", arg);
        char dir[ARCHIVE_PATH];
        snprintf(dir, sizeof dir, "%s/runs/%s", out, arg);
        archive_results_in(dir, path, size);
    }
    if (access(path, F_OK) != 0)
        return err_set(e, BE_EFAIL, "run \"%s\": %s does not exist", arg, path);
    return BE_OK;
}

static int load_run(const char *out, const char *path, results_memo *m, archive_run *u, err *e)
{
    char real_src[ARCHIVE_PATH], real_dir[ARCHIVE_PATH], *slash;
    int rc;
    memset(u, 0, sizeof *u);
    u->prev = -1;
    snprintf(u->src, sizeof u->src, "%s", path);
    if ((rc = results_load_file(path, m, &u->r, e)) < 0)
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

/* Run id of the archive: OUT/runs/<id> a real directory, its results.xml
 * a regular file holding run <id>. */
int archive_check_run(const char *out, const char *id, archive_run *u, err *e)
{
    int rc;
    memset(u, 0, sizeof *u);
    u->prev = -1;
    snprintf(u->dir, sizeof u->dir, "%s/runs/%s", out, id);
    archive_results_in(u->dir, u->src, sizeof u->src);
    if ((rc = fsx_real_dir(u->dir, e)) < 0 || (rc = regular_here(u->src, e)) < 0)
        return rc;
    return BE_OK;
}

int archive_load_archived(const char *out, const char *id, results_memo *m, archive_run *u, err *e)
{
    char path[ARCHIVE_PATH];
    int rc;
    if ((rc = archive_check_run(out, id, u, e)) < 0)
        return rc;
    snprintf(path, sizeof path, "%s", u->src);
    if ((rc = load_run(out, path, m, u, e)) < 0)
        goto fail;
    if (u->imported || strcmp(u->r->prov.id, id) != 0) {
        rc = err_set(e, BE_EFAIL, "%s: holds run %s, not run %s", path, u->r->prov.id, id);
        goto fail;
    }
    return BE_OK;
fail:
    archive_run_free(u);
    return rc;
}

int archive_load_run(const char *out, const char *arg, archive_run *u, err *e)
{
    char path[ARCHIVE_PATH];
    struct stat st;
    int rc;
    memset(u, 0, sizeof *u);
    /* a bare id names a run of the archive, unless a file by that name is here */
    if (!strchr(arg, '/') && safe_id(arg) && stat(arg, &st) != 0) {
        snprintf(path, sizeof path, "%s/runs/%s", out, arg);
        if (lstat(path, &st) == 0)
            return archive_load_archived(out, arg, NULL, u, e);
    }
    if ((rc = resolve(out, arg, path, sizeof path, e)) < 0)
        return rc;
    if ((rc = load_run(out, path, NULL, u, e)) < 0)
        archive_run_free(u);
    return rc;
}

/* Whether two runs hold the same measurements: the same points, in the
 * same order, with bitwise the same samples (step_times holds doubles
 * only, so memcmp compares them all). */
static int same_samples(const results *a, const results *b)
{
    int i;
    if (a->npoints != b->npoints)
        return 0;
    for (i = 0; i < a->npoints; i++) {
        const rs_point *p = &a->points[i], *q = &b->points[i];
        if (strcmp(p->device, q->device) != 0 || p->mode != q->mode || p->layers != q->layers ||
            p->hidden != q->hidden || p->batch != q->batch || p->status != q->status ||
            p->nsamples != q->nsamples || p->has_transfer != q->has_transfer)
            return 0;
        if (p->nsamples > 0 &&
            memcmp(p->samples, q->samples, (size_t)p->nsamples * sizeof *p->samples) != 0)
            return 0;
    }
    return 1;
}

/* Whether OUT/runs/<id> exists in any form (a link or a file count). */
static int taken(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 || errno != ENOENT;
}

/* Whether id is the id of another run of a (not i). */
static int id_in_use(const archive *a, int i, const char *id)
{
    int j;
    for (j = 0; j < a->n; j++)
        if (j != i && a->v[j].r && strcmp(a->v[j].r->prov.id, id) == 0)
            return 1;
    return 0;
}

/* Imported run i whose id may be archived already: it becomes the archived
 * run when the samples are the same, or takes the first free id "<id>-k";
 * never the directory of another run. */
static int place_import(const char *out, archive *a, int i, err *e)
{
    archive_run *u = &a->v[i];
    char id[sizeof u->r->prov.id], cand[sizeof u->r->prov.id], dir[ARCHIVE_PATH];
    int k;

    snprintf(id, sizeof id, "%s", u->r->prov.id);
    for (k = 1; k < 1000; k++) {
        archive_run old;
        err ignore;
        if (k == 1)
            snprintf(cand, sizeof cand, "%s", id);
        else if (snprintf(cand, sizeof cand, "%s-%d", id, k) >= (int)sizeof cand)
            return err_set(e, BE_EFAIL,
                           "%s: run %s is archived already, and a new id for it "
                           "would be too long",
                           u->src, id);
        snprintf(dir, sizeof dir, "%s/runs/%s", out, cand);
        if (id_in_use(a, i, cand))
            continue;
        if (!taken(dir)) {
            if (k > 1) {
                snprintf(u->r->prov.id, sizeof u->r->prov.id, "%s", cand);
                snprintf(u->dir, sizeof u->dir, "%s", dir);
                note(a, "%s: run %s is archived with other samples; imported as run %s", u->src, id,
                     cand);
            }
            return BE_OK;
        }
        /* an archived run by that id: the same one, or another */
        if (archive_load_archived(out, cand, NULL, &old, &ignore) != BE_OK)
            continue;
        if (same_samples(old.r, u->r)) {
            archive_run_free(u);
            *u = old;
            return BE_OK;
        }
        archive_run_free(&old);
    }
    return err_set(e, BE_EFAIL, "%s: run %s: no free id for it among %s-2 to %s-999", u->src, id,
                   id, id);
}

/* Every run under OUT/runs/: a directory of its own holding a results.xml
 * of its own with that run id.  One that fails is skipped with a note;
 * *first receives the first failure, *nfailed counts them. */
/* Whether s holds run id already. */
static int loaded(const archive *s, const char *id)
{
    int i;
    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].r->prov.id, id) == 0)
            return 1;
    return 0;
}

static int newer_first(const void *a, const void *b)
{
    return strcmp((const char *)b, (const char *)a);
}

int archive_newest(const char *out, const char *below, char (*ids)[ARCHIVE_ID], int max)
{
    char runs[ARCHIVE_PATH];
    struct dirent *de;
    DIR *d;
    int n = 0;
    snprintf(runs, sizeof runs, "%s/runs", out);
    if (max < 1 || !(d = opendir(runs)))
        return 0;
    /* the max greatest names seen so far, kept sorted newest first */
    while ((de = readdir(d))) {
        int i;
        if (de->d_name[0] == '.' || strlen(de->d_name) >= ARCHIVE_ID || !safe_id(de->d_name) ||
            strcmp(de->d_name, below) >= 0)
            continue;
        if (n == max && strcmp(de->d_name, ids[n - 1]) <= 0)
            continue;
        i = n < max ? n++ : n - 1;
        snprintf(ids[i], ARCHIVE_ID, "%s", de->d_name);
        qsort(ids, (size_t)n, sizeof *ids, newer_first);
    }
    closedir(d);
    return n;
}

static int scan(const char *out, archive *s, int *cap, const archive_hooks *hk, err *first,
                int *nfailed, err *e)
{
    char runs[ARCHIVE_PATH], dir[ARCHIVE_PATH + 300], path[ARCHIVE_PATH + 320];
    struct dirent *de;
    struct stat st;
    DIR *d;
    int rc = BE_OK;

    snprintf(runs, sizeof runs, "%s/runs", out);
    if (lstat(runs, &st) != 0)
        return err_set(e, BE_EFAIL, "%s: no runs to report (%s); run `breakeven run` first", runs,
                       strerror(errno));
    if ((rc = fsx_real_dir(runs, e)) < 0)
        return rc;
    if (!(d = opendir(runs)))
        return err_set(e, BE_EFAIL, "%s: cannot read: %s", runs, strerror(errno));
    while ((de = readdir(d))) {
        archive_run *u;
        err why;
        if (de->d_name[0] == '.')
            continue;
        snprintf(dir, sizeof dir, "%s/%s", runs, de->d_name);
        archive_results_in(dir, path, sizeof path);
        /* not a run: a stray file, a directory without results */
        if (lstat(dir, &st) != 0 || !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) ||
            (S_ISDIR(st.st_mode) && lstat(path, &st) != 0 && errno == ENOENT))
            continue;
        if (s->n == *cap) {
            archive_run *v = realloc(s->v, (size_t)*cap * 2 * sizeof *v);
            if (!v) {
                rc = err_set(e, BE_EFAIL, "out of memory");
                break;
            }
            s->v = v;
            *cap *= 2;
        }
        if (loaded(s, de->d_name))
            continue; /* given on the command line, loaded already */
        u = &s->v[s->n];
        rc = hk ? hk->archived(hk->ctx, out, de->d_name, u, &why)
                : archive_load_archived(out, de->d_name, NULL, u, &why);
        if (rc == BE_OK) {
            s->n++;
            continue;
        }
        /* asked to stop, or OUT cannot be written: no run is skipped for
         * that (a full disk is not a defect of the run) */
        if (rc == BE_EINTR || rc == BE_EIO) {
            *e = why;
            break;
        }
        rc = BE_OK;
        if ((*nfailed)++ == 0)
            *first = why;
        note(s, "skipped run %s: %s", de->d_name, why.msg);
    }
    closedir(d);
    return rc;
}

static int by_start(const void *x, const void *y)
{
    const archive_run *a = x, *b = y;
    int c = strcmp(a->r->prov.started, b->r->prov.started);
    return c ? c : strcmp(a->r->prov.id, b->r->prov.id);
}

/* Links every run to the previous run of its host. */
static void link_hosts(archive *s)
{
    int i, j;
    for (i = 0; i < s->n; i++) {
        s->v[i].prev = -1;
        for (j = i - 1; j >= 0; j--)
            if (q_same_machine(s->v[j].r, s->v[i].r)) {
                s->v[i].prev = j;
                break;
            }
    }
}

int archive_load(const char *out, const char *const *args, int nruns, const archive_hooks *hk,
                 archive *s, err *e)
{
    char runs[ARCHIVE_PATH];
    struct stat st;
    int i, cap = 16, rc, nfailed = 0;
    err first;

    memset(s, 0, sizeof *s);
    if (nruns > 0)
        cap = nruns;
    s->v = calloc((size_t)cap, sizeof *s->v);
    if (!s->v)
        return err_set(e, BE_EFAIL, "out of memory");
    /* one at a time, each placed and handed to the hook before the next
     * is read, so that the hook may keep less than the whole model */
    for (i = 0; i < nruns; i++) {
        if ((rc = archive_load_run(out, args[i], &s->v[s->n++], e)) < 0 ||
            (s->v[i].imported && (rc = place_import(out, s, i, e)) < 0) ||
            (hk && (rc = hk->given(hk->ctx, s, i, e)) < 0))
            goto fail;
    }
    /* the whole archive, always: a report of some runs is still the site
     * of every run, the given ones imported or refreshed */
    snprintf(runs, sizeof runs, "%s/runs", out);
    if ((nruns == 0 || lstat(runs, &st) == 0) &&
        (rc = scan(out, s, &cap, hk, &first, &nfailed, e)) < 0)
        goto fail;
    if (s->n == 0 && nfailed > 0) {
        *e = first;
        if (nfailed > 1)
            fmt_append(e->msg, sizeof e->msg, " (and %d more runs cannot be loaded)", nfailed - 1);
        rc = BE_EFAIL;
        goto fail;
    }
    if (s->n == 0) {
        rc = err_set(e, BE_EFAIL, "%s/runs: no results.xml to report; run `breakeven run` first",
                     out);
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
    link_hosts(s);
    return BE_OK;
fail:
    archive_free(s);
    return rc;
}

int archive_add(archive *a, const archive_run *u, err *e)
{
    archive_run *v = realloc(a->v, (size_t)(a->n + 1) * sizeof *v);
    if (!v)
        return err_set(e, BE_EFAIL, "out of memory");
    a->v = v;
    a->v[a->n++] = *u;
    return BE_OK;
}

void archive_skip(archive *a, int i, const char *why)
{
    note(a, "skipped run %s (%s): %s", a->v[i].r->prov.id, a->v[i].src, why);
    archive_run_free(&a->v[i]);
    memmove(&a->v[i], &a->v[i + 1], (size_t)(a->n - i - 1) * sizeof *a->v);
    a->n--;
    link_hosts(a);
}

const char *archive_files(const archive_run *u)
{
    return u->stage[0] ? u->stage : u->dir;
}

int archive_commit(archive_run *u, err *e)
{
    char root[ARCHIVE_PATH], runs[ARCHIVE_PATH], *slash;
    int fd, rc;
    if (!u->stage[0])
        return BE_OK;
    archive_run_root(u, root, sizeof root);
    snprintf(runs, sizeof runs, "%s", u->dir);
    if ((slash = strrchr(runs, '/')))
        *slash = '\0';
    /* both names relative to OUT/runs/ opened through no link; the stage's
     * own name is never followed by renameat, nor is the target's */
    if ((rc = fsx_dir_open(root, runs, 0, &fd, e)) < 0)
        return rc;
    rc = renameat(fd, strrchr(u->stage, '/') + 1, fd, strrchr(u->dir, '/') + 1);
    close(fd);
    if (rc != 0)
        return err_set(e, fsx_errno_code(errno), "%s: cannot move the imported run into place: %s",
                       u->dir, strerror(errno));
    u->stage[0] = '\0';
    u->imported = 0;
    u->entered = 1;
    snprintf(u->src, sizeof u->src, "%s/" ARCHIVE_RESULTS, u->dir);
    return BE_OK;
}

void archive_withdraw(archive_run *u)
{
    char root[ARCHIVE_PATH];
    err ignore;
    if (!u->entered)
        return;
    archive_run_root(u, root, sizeof root);
    (void)fsx_unstage_in(root, u->dir, &ignore);
    u->entered = 0;
}

/* Whether run i is the newest of its machine in rs. */
static int newest_of_machine(const archive *rs, int i)
{
    int j;
    for (j = i + 1; j < rs->n; j++)
        if (q_same_machine(rs->v[j].r, rs->v[i].r))
            return 0;
    return 1;
}

/* "alpha/cpu", or "alpha~3fa2/cpu" when another machine of rs's newest
 * runs shares r's host name: both parts cut on a character boundary. */
static void merged_id(const archive *rs, const results *r, const char *dev, char *buf, size_t size)
{
    char host[15], id[17], fp[16];
    int j, twin = 0;
    for (j = 0; j < rs->n; j++)
        twin |= newest_of_machine(rs, j) &&
                strcmp(q_machine_name(rs->v[j].r), q_machine_name(r)) == 0 &&
                !q_same_machine(rs->v[j].r, r);
    utf8_copy(id, sizeof id, dev);
    if (twin) {
        q_machine_print(r, fp, sizeof fp);
        utf8_copy(host, 10, q_machine_name(r));
        snprintf(buf, size, "%s~%.4s/%s", host, fp, id);
    } else {
        utf8_copy(host, sizeof host, q_machine_name(r));
        snprintf(buf, size, "%s/%s", host, id);
    }
}

int archive_merge_hosts(const archive *rs, results **out, int *nhosts, char *why, size_t whysize,
                        err *e)
{
    const results *newest = rs->n ? rs->v[rs->n - 1].r : NULL;
    results *m;
    int i, j, d, rc, nlike = 0;
    *out = NULL;
    *nhosts = 0;
    if (whysize)
        why[0] = '\0';
    for (i = rs->n - 1; i >= 0; i--) {
        if (!newest_of_machine(rs, i))
            continue;
        ++*nhosts;
        /* unlike runs are never set side by side: a 2-layer stack is not a
         * 4-layer one */
        if (rs->v[i].r->prov.layers == newest->prov.layers)
            nlike++;
        else
            fmt_append(why, whysize, "%s%s (run %s) measured %d-layer stacks, not %d",
                       why[0] ? "; " : "", q_machine_name(rs->v[i].r), rs->v[i].r->prov.id,
                       rs->v[i].r->prov.layers, newest->prov.layers);
    }
    if (nlike < 2)
        return BE_OK;
    if (!(m = results_new()))
        return err_set(e, BE_EFAIL, "out of memory");
    m->prov = newest->prov;
    for (i = rs->n - 1; i >= 0; i--) {
        const results *r = rs->v[i].r;
        if (!newest_of_machine(rs, i) || r->prov.layers != newest->prov.layers)
            continue;
        for (d = 0; d < r->ndevices; d++) {
            device_info di = r->devices[d];
            merged_id(rs, r, r->devices[d].id, di.id, sizeof di.id);
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
    *nhosts = nlike;
    *out = m;
    return BE_OK;
fail:
    results_free(m);
    return rc;
}
