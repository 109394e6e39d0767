/*
 * archive.c — finding, loading and ordering runs (see archive.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "archive.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsx.h"
#include "runcharts.h"

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

void archive_run_free(archive_run *u)
{
    results_free(u->r);
    u->r = NULL;
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

/* The results.xml of a run given by id (under OUT/runs/), by directory or
 * by file. */
static int resolve(const char *out, const char *arg, char *path, size_t size, err *e)
{
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(path, size, "%s/results.xml", arg);
    } else if (access(arg, F_OK) == 0) {
        snprintf(path, size, "%s", arg);
    } else {
        if (strchr(arg, '/') || !safe_id(arg))
            return err_set(e, BE_EFAIL, "%s: no such run (neither a run id nor a file)", arg);
        snprintf(path, size, "%s/runs/%s/results.xml", out, arg);
    }
    if (access(path, F_OK) != 0)
        return err_set(e, BE_EFAIL, "run \"%s\": %s does not exist", arg, path);
    return BE_OK;
}

static int load_run(const char *out, const char *path, archive_run *u, err *e)
{
    char real_src[ARCHIVE_PATH], real_dir[ARCHIVE_PATH], *slash;
    int rc;
    memset(u, 0, sizeof *u);
    u->prev = -1;
    snprintf(u->src, sizeof u->src, "%s", path);
    if ((rc = results_load(path, &u->r, e)) < 0)
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

int archive_load_run(const char *out, const char *arg, archive_run *u, err *e)
{
    char path[ARCHIVE_PATH];
    int rc;
    memset(u, 0, sizeof *u);
    if ((rc = resolve(out, arg, path, sizeof path, e)) < 0)
        return rc;
    return load_run(out, path, u, e);
}

static int by_start(const void *x, const void *y)
{
    const archive_run *a = x, *b = y;
    int c = strcmp(a->r->prov.started, b->r->prov.started);
    return c ? c : strcmp(a->r->prov.id, b->r->prov.id);
}

int archive_load(const char *out, const char *const *args, int nruns, archive *s, err *e)
{
    char runs[ARCHIVE_PATH], path[ARCHIVE_PATH];
    int i, cap = 16, rc;
    DIR *d = NULL;

    memset(s, 0, sizeof *s);
    if (nruns > 0)
        cap = nruns;
    s->v = calloc((size_t)cap, sizeof *s->v);
    if (!s->v)
        return err_set(e, BE_EFAIL, "out of memory");
    if (nruns > 0) {
        for (i = 0; i < nruns; i++)
            if ((rc = archive_load_run(out, args[i], &s->v[s->n++], e)) < 0)
                goto fail;
    } else {
        struct dirent *de;
        snprintf(runs, sizeof runs, "%s/runs", out);
        d = opendir(runs);
        if (!d) {
            rc = err_set(e, BE_EFAIL, "%s: no runs to report (%s); run `breakeven run` first",
                         runs, strerror(errno));
            goto fail;
        }
        while ((de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s/results.xml", runs, de->d_name);
            if (access(path, F_OK) != 0)
                continue;
            if (s->n == cap) {
                archive_run *v = realloc(s->v, (size_t)cap * 2 * sizeof *v);
                if (!v) {
                    rc = err_set(e, BE_EFAIL, "out of memory");
                    goto fail;
                }
                s->v = v;
                cap *= 2;
            }
            if ((rc = load_run(out, path, &s->v[s->n++], e)) < 0)
                goto fail;
        }
        closedir(d);
        d = NULL;
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
    for (i = 0; i < s->n; i++) {
        int j;
        for (j = i - 1; j >= 0; j--)
            if (strcmp(s->v[j].r->prov.host, s->v[i].r->prov.host) == 0) {
                s->v[i].prev = j;
                break;
            }
    }
    return BE_OK;
fail:
    if (d)
        closedir(d);
    archive_free(s);
    return rc;
}

int archive_place(archive_run *u, err *e)
{
    char p[ARCHIVE_PATH];
    int rc;
    if ((rc = fsx_mkdirs(u->dir, e)) < 0)
        return rc;
    if (u->imported) {
        snprintf(p, sizeof p, "%s/results.xml", u->dir);
        if ((rc = results_save(u->r, p, e)) < 0)
            return rc;
        snprintf(u->src, sizeof u->src, "%s", p);
        u->imported = 0;
    }
    return runcharts_ensure(u->r, u->dir, e);
}

int archive_merge_hosts(const archive *rs, results **out, int *nhosts, err *e)
{
    results *m;
    int i, j, d, rc;
    *out = NULL;
    *nhosts = 0;
    for (i = rs->n - 1; i >= 0; i--) {
        int seen = 0;
        for (j = i + 1; j < rs->n; j++)
            seen |= strcmp(rs->v[j].r->prov.host, rs->v[i].r->prov.host) == 0;
        *nhosts += !seen;
    }
    if (*nhosts < 2)
        return BE_OK;
    if (!(m = results_new()))
        return err_set(e, BE_EFAIL, "out of memory");
    m->prov = rs->v[rs->n - 1].r->prov;
    for (i = rs->n - 1; i >= 0; i--) {
        const results *r = rs->v[i].r;
        int seen = 0;
        for (j = i + 1; j < rs->n; j++)
            seen |= strcmp(rs->v[j].r->prov.host, r->prov.host) == 0;
        if (seen)
            continue;
        for (d = 0; d < r->ndevices; d++) {
            device_info di = r->devices[d];
            snprintf(di.id, sizeof di.id, "%.14s/%.16s", r->prov.host, r->devices[d].id);
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
    *out = m;
    return BE_OK;
fail:
    results_free(m);
    return rc;
}
