/*
 * report_compare.c — the comparison pages (see report_impl.h):
 * OUT/compare/<a>..<b>.html with its change chart, for each run and the
 * previous run of its host in a report, and for `breakeven compare`
 * (report_compare), which loads the runs of each side and offers the
 * archive's runs as the run-to-run band.  The comparison itself is
 * compare.h's; this file only lays it out.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figure.h"
#include "fmt.h"
#include "fsx.h"
#include "undo.h"
#include "workload.h"

static void annotate_points(xmlNodePtr an, const compare_set *c)
{
    xmlNodePtr t = site_add(an, "points", NULL), n;
    char buf[600];
    int i;
    for (i = 0; i < c->npoints; i++) {
        const compare_point *p = &c->points[i];
        n = site_add(t, "point", NULL);
        site_attr(n, "model", p->model);
        if (strcmp(p->dev_a, p->dev_b) == 0)
            site_attr(n, "device", p->dev_a);
        else
            site_attrf(n, "device", "%s → %s", p->dev_a, p->dev_b);
        site_attr(n, "mode", workload_mode_name(p->mode));
        if (p->sizes[0]) /* a network's widest size would pass for a width */
            site_attrf(n, "hidden", "network %s", p->sizes);
        else
            site_attrf(n, "hidden", "%d", p->hidden);
        site_attrf(n, "batch", "%d", p->batch);
        site_attr(n, "verdict", compare_verdict_name(p->verdict));
        if (p->verdict == CMP_MISSING) {
            snprintf(buf, sizeof buf, "A %s, B %s", results_status_name(p->status_a),
                     results_status_name(p->status_b));
            site_attr(n, "note", buf);
            continue;
        }
        fmt_time(buf, sizeof buf, p->level_a);
        site_attr(n, "time-a", buf);
        fmt_time(buf, sizeof buf, p->level_b);
        site_attr(n, "time-b", buf);
        site_attrf(n, "ratio", "%.3f", p->ratio);
        site_attrf(n, "test", "%.3f\xe2\x80\x93%.3f", p->lo, p->hi);
        if (p->apart)
            site_attr(n, "note", p->apart > 0 ? "up from its run" : "down from its run");
    }
}

static xmlNodePtr annotate_compare(const compare_set *c, const results *a, const results *b,
                                   const char *chart, const char *chart_file)
{
    xmlNodePtr an = xmlNewNode(NULL, BAD_CAST "annotation"), n;
    char buf[4096], da[64], db[64];
    int i;
    site_attr(an, "a", c->id_a);
    site_attr(an, "b", c->id_b);
    fmt_date(da, sizeof da, a->prov.started);
    fmt_date(db, sizeof db, b->prov.started);
    site_attr(an, "date-a", da);
    site_attr(an, "date-b", db);
    site_attr(an, "host-a", a->prov.host);
    site_attr(an, "host-b", b->prov.host);
    /* the comparison lives in OUT/compare/, the runs in OUT/runs/<id>/ */
    site_attrf(an, "href-a", "../runs/%s/index.html", c->id_a);
    site_attrf(an, "href-b", "../runs/%s/index.html", c->id_b);
    snprintf(buf, sizeof buf, "What changed from %s to %s", c->id_a, c->id_b);
    site_add(an, "title", buf);
    for (i = 0; i < c->ngroups; i++) {
        n = site_add(an, "group", c->groups[i].text);
        site_attr(n, "verdict", compare_verdict_name(c->groups[i].verdict));
    }
    compare_lead(c, buf, sizeof buf);
    site_add(an, "summary", buf);
    n = site_add(an, "chart", NULL);
    report_chart_links(n, chart_file, chart);
    site_attr(n, "alt",
              "Chart: the ratio of step times B/A (10th percentiles) of every matched point "
              "against FLOPs per layer; filled markers are significant changes.");
    for (i = 0; i < c->ndiffs; i++) {
        n = site_add(an, "diff", NULL);
        site_attr(n, "what", c->diffs[i].what);
        site_attr(n, "a", c->diffs[i].a);
        site_attr(n, "b", c->diffs[i].b);
    }
    for (i = 0; i < c->ncross; i++)
        site_add(an, "move", c->cross[i].text);
    annotate_points(an, c);
    return an;
}

/* Renders OUT/compare/<a>..<b>.html (and draws its chart) into box; page,
 * when not NULL, receives its path. */
int report_render_compare(const site *s, const char *out, const compare_set *c, const results *a,
                          const results *b, int draw, site_outbox *box, char *page, size_t size,
                          err *e)
{
    char dir[PATHMAX], base[PATHMAX], name[300], self[320], p[PATHMAX];
    xmlDocPtr doc;
    int rc;
    snprintf(dir, sizeof dir, "%s/compare", out);
    if ((rc = fsx_mkdirs_in(out, dir, e)) < 0)
        return rc;
    snprintf(name, sizeof name, "%s..%s", c->id_a, c->id_b);
    snprintf(base, sizeof base, "%s/%s", dir, name);
    if (draw && (rc = figure_compare(c, out, base, e)) < 0)
        return rc;
    snprintf(self, sizeof self, "compare/%s.html", name);
    if ((rc = site_page_below(s, "compare", annotate_compare(c, a, b, name, base), out, self,
                              "style.css", &doc, p, sizeof p, e)) < 0 ||
        (rc = report_put_page(s, box, s->compare_xsl, doc, p, e)) < 0)
        return rc;
    snprintf(p, sizeof p, "%s/style.css", dir);
    if ((rc = site_put(box, p, s->css, s->css_len, 1, e)) < 0)
        return rc;
    if (page)
        snprintf(page, size, "%s.html", base);
    return BE_OK;
}

int report_compare(const report_opts *o, const char *const *a, int na, const char *const *b, int nb,
                   const compare_opts *co, compare_set *cmp, char *page, size_t size, err *e)
{
    site s;
    archive_run *u; /* na + nb of them: each holds paths, too big for the stack */
    const results *ra[COMPARE_MAX_RUNS], *rb[COMPARE_MAX_RUNS];
    const results **band = NULL;
    archive arch;
    compare_opts opts = *co;
    site_outbox box = {0};
    char mark[2 * 128 + 16];
    undo un;
    err ae;
    int rc = BE_OK, i, n = 0, have_arch, published;

    memset(cmp, 0, sizeof *cmp);
    if (na < 1 || nb < 1 || na > COMPARE_MAX_RUNS || nb > COMPARE_MAX_RUNS)
        return err_set(e, BE_EUSAGE, "compare: 1 to %d runs per side", COMPARE_MAX_RUNS);
    if ((rc = report_check_out(o->out, e)) < 0 || (rc = report_sweep_out(o->out, NULL, e)) < 0)
        return rc;
    /* the chart is drawn in place and the mark dropped: put back when the
     * page is not published (undo.h) */
    if ((rc = report_undo_begin(&un, o->out, 0, e)) < 0) {
        undo_rollback(&un);
        return rc;
    }
    if (!(u = calloc((size_t)(na + nb), sizeof *u)))
        return err_set(e, BE_EFAIL, "compare: out of memory");
    if ((rc = site_open(&s, o->data_dir, o->base_url, o->title, o->author, e)) < 0) {
        free(u);
        return rc;
    }
    for (n = 0; n < na + nb && rc == BE_OK; n++)
        rc = archive_load_run(o->out, n < na ? a[n] : b[n - na], &u[n], e);
    if (rc < 0)
        n--;
    for (i = 0; rc == BE_OK && i < na + nb; i++) {
        if (i < na)
            ra[i] = u[i].r;
        else
            rb[i - na] = u[i].r;
    }
    /* the archive's runs are the band's candidates: compare.c keeps those
     * of the same host and software; no archive, no band */
    have_arch = rc == BE_OK && archive_load(o->out, NULL, 0, NULL, &arch, &ae) == BE_OK;
    if (have_arch && arch.n > 0 && (band = malloc((size_t)arch.n * sizeof *band)) != NULL) {
        for (i = 0; i < arch.n; i++)
            band[i] = arch.v[i].r;
        opts.band = band;
        opts.nband = arch.n;
    }
    if (rc == BE_OK && (rc = compare_sets(ra, na, rb, nb, &opts, cmp, e)) == BE_OK) {
        /* the chart drawn here, with these options, is not the report's:
         * its mark goes first, so that the report draws its own again */
        snprintf(mark, sizeof mark, "compare-%s..%s", cmp->id_a, cmp->id_b);
        rc = cache_mark_drop(o->out, mark, e);
    }
    if (rc < 0 ||
        (rc = report_render_compare(&s, o->out, cmp, ra[0], rb[0], 1, &box, page, size, e)) < 0 ||
        (rc = site_flush(&box, o->out, o->stop, e)) < 0) {
        compare_free(cmp);
    }
    published = box.committed || rc == BE_OK;
    cmp->opts.band = NULL;
    cmp->opts.nband = 0;
    free(band);
    if (have_arch)
        archive_free(&arch);
    site_outbox_free(&box);
    for (i = 0; i < n; i++)
        archive_run_free(&u[i]);
    free(u);
    site_close(&s);
    if (published)
        undo_forget(&un);
    else
        undo_rollback(&un);
    return rc;
}

/* Whether id was a run of the archive and is no more: OUT/runs/<id> is
 * gone, and the cache still holds the digest a report made of it (a run
 * compared from a path outside OUT never had one: its page stays). */
static int gone_run(int runs, int cache, const char *id, size_t n)
{
    char name[300];
    struct stat st;
    if (n == 0 || n >= 256 || memchr(id, '/', n))
        return 0;
    snprintf(name, sizeof name, "%.*s", (int)n, id);
    if (fstatat(runs, name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
        return 0;
    snprintf(name, sizeof name, "%.*s.digest", (int)n, id);
    return fstatat(cache, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/* The length of name without the suffix of a comparison's file ("A..B"
 * then ".html", "-narrow.png" or ".png"), 0 when it is none. */
static size_t compare_stem(const char *name)
{
    static const char *const ends[] = {".html", FIGURE_NARROW_SUFFIX ".png", ".png"};
    size_t n = strlen(name), i;
    for (i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t k = strlen(ends[i]);
        if (n > k && strcmp(name + n - k, ends[i]) == 0)
            return n - k;
    }
    return 0;
}

/* The comparison file name of dir (opened as cmp) and its mark, removed
 * when one of its two runs is gone from the archive. */
static void prune_one(int cmp, int runs, int cache, const char *name)
{
    char mark[600];
    struct stat st;
    size_t stem = compare_stem(name);
    const char *dots = strstr(name, "..");
    if (!stem || !dots || (size_t)(dots - name) + 2 >= stem ||
        fstatat(cmp, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return;
    if (!gone_run(runs, cache, name, (size_t)(dots - name)) &&
        !gone_run(runs, cache, dots + 2, stem - (size_t)(dots + 2 - name)))
        return;
    (void)unlinkat(cmp, name, 0);
    snprintf(mark, sizeof mark, "compare-%.*s.mark", (int)stem, name);
    if (fstatat(cache, mark, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
        (void)unlinkat(cache, mark, 0);
}

void report_prune_compare(const char *out)
{
    char p[PATHMAX];
    int fds[3] = {-1, -1, -1}, i;
    static const char *const dirs[] = {"compare", "runs", CACHE_DIR};
    struct dirent *de;
    DIR *d = NULL;
    err ignore;
    for (i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", out, dirs[i]);
        if (fsx_dir_open(out, p, 0, &fds[i], &ignore) < 0)
            goto done;
    }
    if (!(d = fdopendir(fds[0])))
        goto done;
    fds[0] = -1;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            prune_one(dirfd(d), fds[1], fds[2], de->d_name);
done:
    if (d)
        closedir(d);
    for (i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}
