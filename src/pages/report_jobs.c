/*
 * report_jobs.c — the runs' pages rendered by several processes at once
 * (report_opts.jobs, `report --jobs N`).
 *
 * A full report of a big archive spends nearly all its time on work of one
 * run at a time: loading it whole, comparing it with the previous run of
 * its host, drawing the comparison's chart and rendering its pages; no
 * run's pages depend on the rendering of another's.  So before the first
 * of them the report forks helpers, and each process renders a share of
 * the runs: every J-th of those that may move (not imported, whose files
 * wait in the parent's memory until they enter OUT/runs/; not the front
 * page's run; not in the feed, whose items the parent keeps), the parent
 * the rest.  A helper stages its files as the parent would, into the one
 * set (site_outbox_share: the same list, each name appended by one write),
 * and tells the parent through a pipe, after each run, which files it
 * staged and whether the run failed; the parent adopts those files
 * (site_adopt), so that publishing or abandoning the set treats them as
 * its own, and a run that failed is dropped as the parent drops its own
 * (report.c).  Processes, not threads: cairo, libxml2, libxslt and the
 * report's own state need no locks, and a helper's memory is the
 * parent's, shared until written.
 *
 * The pipe carries records: a type byte, the lengths of a name and of
 * data (8 bytes each), the name, the data.  'S': a file staged (its
 * path); '=': a file that held these bytes already; 'M': a file kept in
 * memory (its directory was not there yet): its bytes, for the parent to
 * stage; 'F': the run failed (data: its index and the error's code, the
 * name its message); 'D': done.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsx.h"

#define JOBS_MAX 64
/* a record's type byte and two lengths */
#define RECORD_HEAD (1 + 2 * sizeof(uint64_t))
/* more than any file a report stages */
#define RECORD_DATA_MAX ((uint64_t)1 << 31)

typedef struct helper {
    pid_t pid;
    int fd;    /* the read end of its pipe, -1 once at its end */
    char *buf; /* bytes read and not yet parsed                */
    size_t len, cap;
    int done; /* its 'D' was read                             */
} helper;

/* The earliest run that failed, and how. */
typedef struct outcome {
    int failed; /* its index, -1: none */
    int code;   /* its error code        */
    err why;
} outcome;

/* A run that another process may render. */
static int movable(const report_ctx *x, int k)
{
    return x->fresh[k] && !x->a.v[k].imported && k != x->front && k < report_feed_oldest(x);
}

int report_jobs_wanted(const report_ctx *x)
{
    long n = x->o->jobs > 0 ? x->o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

/* ---- the helper's side ---------------------------------------------- */

static int send_record(int fd, char type, const char *name, const void *data, uint64_t len)
{
    uint64_t head[2];
    head[0] = name ? strlen(name) : 0;
    head[1] = len;
    if (fsx_write_fd(fd, &type, 1) < 0 || fsx_write_fd(fd, head, sizeof head) < 0 ||
        fsx_write_fd(fd, name ? name : "", (size_t)head[0]) < 0)
        return BE_EFAIL;
    return len ? fsx_write_fd(fd, data, (size_t)len) : BE_OK;
}

/* The files of x->box from index from on, said to the parent; only those
 * staged when the run failed (the rest is dropped with it, as the parent
 * drops a run it fails to render). */
static int send_files(report_ctx *x, int fd, int from, int failed)
{
    int i;
    for (i = from; i < x->box.n; i++) {
        const site_file *f = &x->box.v[i];
        char type = !f->staged ? 'M' : f->same ? '=' : 'S';
        if (failed && type == 'M')
            continue;
        if (send_record(fd, type, f->path, f->data, type == 'M' ? f->len : 0) < 0)
            return BE_EFAIL;
    }
    return BE_OK;
}

static int send_failure(int fd, int k, int code, const err *why)
{
    int32_t d[2];
    d[0] = k;
    d[1] = code;
    return send_record(fd, 'F', why->msg, d, sizeof d);
}

/* What a helper runs: the render of report_render_fresh, or the work of
 * report_in_shares. */
typedef struct helper_job {
    report_render_fn render;
    int (*work)(report_ctx *x, int share, int n);
} helper_job;

/* Helper share of nshares: renders its runs and ends the process. */
static void helper_main(report_ctx *x, const helper_job *job, int share, int nshares, int fd)
{
    report_render_fn render = job->render;
    int i = 0, k, from, rc;
    err why;
    for (k = 0; k < x->a.n; k++) {
        if (!movable(x, k) || i++ % nshares != share)
            continue;
        from = x->box.n;
        if ((rc = report_stopped(x, &why)) < 0) {
            send_failure(fd, k, rc, &why);
            break;
        }
        if ((rc = render(x, k, &why)) < 0) {
            send_files(x, fd, from, 1);
            send_failure(fd, k, rc, &why);
            break;
        }
        if (send_files(x, fd, from, 0) < 0)
            _exit(1);
    }
    send_record(fd, 'D', NULL, NULL, 0);
    /* no cleanup: the memory is the parent's copy, the staged files
     * belong to the set now */
    _exit(0);
}

/* ---- the parent's side ---------------------------------------------- */

/* What a helper said, taken in: its files adopted (or staged here, when
 * it kept them in memory), its failure kept when it is the earliest. */
static int take(report_ctx *x, helper *h, outcome *o, err *e)
{
    size_t at = 0;
    int rc = BE_OK;
    while (rc == BE_OK && h->len - at >= RECORD_HEAD) {
        uint64_t head[2];
        char type = h->buf[at], *name, *data, path[SITE_PATH + sizeof o->why.msg];
        memcpy(head, h->buf + at + 1, sizeof head);
        if (head[0] >= sizeof path || head[1] > RECORD_DATA_MAX)
            return err_set(e, BE_EFAIL, "report: a helper process said nonsense");
        if (h->len - at - RECORD_HEAD < head[0] + head[1])
            break;
        name = h->buf + at + RECORD_HEAD;
        data = name + head[0];
        at += RECORD_HEAD + (size_t)(head[0] + head[1]);
        memcpy(path, name, (size_t)head[0]);
        path[head[0]] = '\0';
        if (type == 'S' || type == '=') {
            rc = site_adopt(&x->box, path, type == '=', e);
        } else if (type == 'M') {
            char *copy = malloc((size_t)head[1] + 1);
            if (!copy)
                return err_set(e, BE_EFAIL, "out of memory");
            memcpy(copy, data, (size_t)head[1]);
            rc = site_put(&x->box, path, copy, (size_t)head[1], 0, e);
        } else if (type == 'F' && head[1] == 2 * sizeof(int32_t)) {
            int32_t d[2];
            memcpy(d, data, sizeof d);
            if (o->failed < 0 || d[0] < o->failed) {
                o->failed = d[0];
                o->code = d[1];
                snprintf(o->why.msg, sizeof o->why.msg, "%s", path);
            }
        } else if (type == 'D') {
            h->done = 1;
        } else {
            return err_set(e, BE_EFAIL, "report: a helper process said nonsense");
        }
    }
    memmove(h->buf, h->buf + at, h->len - at);
    h->len -= at;
    return rc;
}

/* Reads what helper h has written (all of it until its end when wait),
 * and takes it in. */
static int drain(report_ctx *x, helper *h, int wait, outcome *o, err *e)
{
    int rc;
    for (;;) {
        ssize_t got;
        if (h->fd < 0)
            return BE_OK;
        if (h->cap - h->len < 65536) {
            char *b = realloc(h->buf, h->cap + 65536);
            if (!b)
                return err_set(e, BE_EFAIL, "out of memory");
            h->buf = b;
            h->cap += 65536;
        }
        got = read(h->fd, h->buf + h->len, h->cap - h->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !wait)
            return BE_OK;
        if (got < 0 && errno == EAGAIN) {
            /* blocking from now on */
            if (fcntl(h->fd, F_SETFL, 0) != 0)
                return err_set(e, BE_EFAIL, "report: %s", strerror(errno));
            continue;
        }
        if (got <= 0) {
            close(h->fd);
            h->fd = -1;
            return got < 0 ? err_set(e, BE_EFAIL, "report: %s", strerror(errno)) : BE_OK;
        }
        h->len += (size_t)got;
        if ((rc = take(x, h, o, e)) < 0)
            return rc;
    }
}

/* Helper h read to its end and waited for: BE_OK when it finished. */
static int finish(report_ctx *x, helper *h, outcome *o, err *e)
{
    int status = 0, rc = drain(x, h, 1, o, e);
    /* after a failure here, a helper blocked on a full pipe ends at once */
    if (h->fd >= 0) {
        close(h->fd);
        h->fd = -1;
    }
    while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
        ;
    free(h->buf);
    h->buf = NULL;
    if (rc == BE_OK && !h->done)
        rc = err_set(e, BE_EFAIL,
                     "report: a process rendering runs' pages ended before it finished (%s %d); "
                     "the previous report is intact",
                     WIFSIGNALED(status) ? "signal" : "exit status",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return rc;
}

/* Forks a helper for each share 1..n-1, with a pipe to this process (its
 * read end into fds), running body; stops at the first that cannot be
 * started (its share and those after it are then this process's).  The
 * number started. */
static int spawn(report_ctx *x, void (*body)(report_ctx *, const helper_job *, int, int, int),
                 const helper_job *job, int n, pid_t *pids, int *fds)
{
    int j, i, p[2], started = 0;
    fflush(NULL);
    for (j = 1; j < n; j++) {
        pid_t pid;
        if (pipe(p) != 0)
            break;
        if ((pid = fork()) < 0) {
            close(p[0]);
            close(p[1]);
            break;
        }
        if (pid == 0) {
            close(p[0]);
            for (i = 0; i < started; i++)
                close(fds[i]);
            body(x, job, j, n, p[1]);
        }
        close(p[1]);
        fcntl(p[0], F_SETFD, FD_CLOEXEC);
        pids[started] = pid;
        fds[started++] = p[0];
    }
    return started;
}

/* Starts the helpers of report_render_fresh; the number started. */
static int start(report_ctx *x, report_render_fn render, helper *hs, int n)
{
    pid_t pids[JOBS_MAX];
    int fds[JOBS_MAX], j, started;
    helper_job job;
    job.render = render;
    job.work = NULL;
    started = spawn(x, helper_main, &job, n, pids, fds);
    for (j = 0; j < started; j++) {
        fcntl(fds[j], F_SETFL, O_NONBLOCK);
        memset(&hs[j], 0, sizeof hs[j]);
        hs[j].pid = pids[j];
        hs[j].fd = fds[j];
    }
    return started;
}

int report_render_fresh(report_ctx *x, report_render_fn render, int *failed, err *why, err *e)
{
    helper hs[JOBS_MAX];
    int n = report_jobs_wanted(x), k, j, m = 0, started = 0, rc = BE_OK;
    outcome o;
    err one;
    memset(&o, 0, sizeof o);
    o.failed = -1;
    for (k = 0; k < x->a.n; k++)
        m += movable(x, k);
    if (n > m)
        n = m;
    if (n > 1 && site_outbox_share(&x->box, e) == BE_OK)
        started = start(x, render, hs, n);
    for (k = 0, m = 0; k < x->a.n && rc == BE_OK && o.failed < 0; k++) {
        /* the movable runs dealt round: share 0 and the shares of helpers
         * that could not be started are this process's */
        int share = movable(x, k) ? m++ % n : 0;
        if (!x->fresh[k] || (share > 0 && share <= started))
            continue;
        if ((rc = report_stopped(x, e)) < 0)
            break;
        if ((o.code = render(x, k, &one)) < 0) {
            o.failed = k;
            o.why = one;
        }
        for (j = 0; j < started && rc == BE_OK; j++)
            rc = drain(x, &hs[j], 0, &o, e);
    }
    /* a stop asks the helpers to stop too (they see it between runs) */
    for (j = 0; rc == BE_EINTR && j < started; j++)
        kill(hs[j].pid, SIGTERM);
    for (j = 0; j < started; j++) {
        int r = finish(x, &hs[j], &o, &one);
        if (r < 0 && rc == BE_OK) {
            rc = r;
            *e = one;
        }
    }
    *failed = rc == BE_OK ? o.failed : -1;
    *why = o.why;
    /* a helper stopped by a signal: the report is stopped; OUT that
     * cannot be written stops it too (no run is dropped for that) */
    if (rc == BE_OK && o.failed >= 0 && (o.code == BE_EINTR || o.code == BE_EIO)) {
        *failed = -1;
        *e = o.why;
        rc = o.code;
    }
    return rc;
}

/* Helper: share j of n done, then what its loads checked against the
 * schema handed back through fd (report_in_shares). */
static void share_main(report_ctx *x, const helper_job *job, int j, int n, int fd)
{
    size_t from = results_memo_count(x->memo), len;
    int rc = job->work(x, j, n);
    const void *rec = results_memo_record(x->memo, from, &len);
    _exit(fsx_write_fd(fd, rec, len) == BE_OK && rc == BE_OK ? 0 : 1);
}

/* Everything helper fd hands back, into the parent's memo. */
static void take_memo(report_ctx *x, int fd)
{
    char *buf = NULL, *b;
    size_t len = 0, cap = 0;
    for (;;) {
        ssize_t got;
        if (cap - len < 4096) {
            if (!(b = realloc(buf, cap + 65536)))
                break;
            buf = b;
            cap += 65536;
        }
        got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    (void)results_memo_merge(x->memo, buf, len);
    free(buf);
    close(fd);
}

int report_in_shares(report_ctx *x, int (*work)(report_ctx *x, int share, int n), int *all, err *e)
{
    pid_t pids[JOBS_MAX];
    int fds[JOBS_MAX];
    int n = report_jobs_wanted(x), j, started, rc;
    helper_job job;
    job.render = NULL;
    job.work = work;
    started = spawn(x, share_main, &job, n, pids, fds);
    /* shares whose helper could not be started are done here */
    *all = 1;
    for (j = 0; j < n; j++)
        if ((j == 0 || j > started) && work(x, j, n) != BE_OK)
            *all = 0;
    for (j = 0; j < started; j++) {
        int status = 0;
        take_memo(x, fds[j]);
        while (waitpid(pids[j], &status, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            *all = 0;
    }
    if ((rc = report_stopped(x, e)) < 0)
        *all = 0;
    return rc;
}
