/*
 * framework.c — the framework devices' backend (see framework.h and the
 * protocol in docs/devices.md).
 *
 * One adapter process per device; one point prepared at a time (the sweep
 * prepares, steps and releases a point before the next), so the run handle
 * is the device's own.  Every read and write polls against the call's
 * deadline on a non-blocking socket, so that a hung adapter costs one
 * time limit, never the run.
 */
#define _GNU_SOURCE
#include "framework.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fw_bounds.h"
#include "fw_proc.h"
#include "host.h"
#include "rng.h"
#include "verify.h"

#define FW_PROTOCOL 1
#define FW_TEXT_MAX 65536
#define FW_LIMIT_S 60.0 /* until a sweep sets one from its budget (fw_set_limit) */
#define FW_HELLO_LIMIT_S 120.0
/* Steps asked for at once (STPN) when the adapter offers it: as many as
 * take about FW_BATCH_S, FW_BATCH_MAX at most.  A step that follows a
 * round trip on the socket runs slower than one that follows another
 * (docs/benchmarks.md: up to half again at hidden 128, batch 16), and
 * breakeven times its own devices' steps back to back. */
#define FW_BATCH_MAX 64
#define FW_BATCH_S 0.02
/* Unannounced checks: the first falls on one of the steps 2..FW_CHECK_FIRST
 * after PREP (a visit takes that many at the least: a warm-up step and
 * three samples, and the first visit's verified step before them), each
 * next one 1..FW_CHECK_GAP steps after the last. */
#define FW_CHECK_FIRST 4
#define FW_CHECK_GAP 256

typedef struct fw_dev {
    char id[32];
    pid_t pid;       /* 0 once reaped */
    int fd;          /* the socket; -1 once closed */
    FILE *log;       /* the adapter's stdout and stderr */
    double limit;    /* seconds a call may take */
    char fault[512]; /* why the device is out of service, "" while it works */
    workload w;      /* the point prepared (prepared != 0) */
    int prepared;
    int told;                     /* framework_fault_news said so */
    int fixed;                    /* BREAKEVEN_DEVICE_TIMEOUT set the limit */
    char more[256];               /* the framework's other devices here (framework_more) */
    int batch_max;                /* the hello's `steps`: the most steps one STPN may ask */
    int streak;                   /* the last call was a step (a STPN may follow)      */
    double last;                  /* that step's wall time                             */
    int npend, ipend;             /* steps of the last STPN, and how many given */
    double pend[FW_BATCH_MAX][6]; /* their times, as TIME's                     */
    pid_t pgid;                   /* the adapter's group, killed at the end however
                                     the adapter itself ended */
    pid_t keeper;                 /* its keeper (fw_keeper), 0 once reaped       */
    int life;                     /* our end of the keeper's life pipe, or -1    */
    int report;                   /* the adapter's pid and wait status, or -1    */
    uint64_t rng;                 /* the checked steps' draws (from --seed)     */
    double peak;                  /* a CPU device: the host's bound, FLOP/s; else 0 */
    double flops;                 /* the prepared point's matrix FLOP per step  */
    int calls, lows;              /* this visit's step calls, and the low ones  */
    long to_check;                /* steps until the next unannounced check      */
    long nstep;                   /* steps since PREP                            */
    net_state st;                 /* the state of a check (has_st)               */
    int has_st;
    unsigned long long own;     /* the adapter's CPU ticks inside visits       */
    unsigned long long started; /* its ticks once it had said hello            */
    unsigned long long tick0;   /* its ticks at this visit's PREP (own_ok)     */
    int own_ok;
    FILE *trace; /* BREAKEVEN_DEVICE_TRACE: each step call's times */
} fw_dev;

const char *const framework_probe[] = {"torch:cpu", NULL};

int framework_is(const char *id)
{
    const char *n;
    if (strcmp(id, "ref:cpu") == 0 || strcmp(id, "torch:cpu") == 0 ||
        strcmp(id, "torch:mps") == 0 || strcmp(id, "ort:cpu") == 0)
        return 1;
    if (strncmp(id, "torch:cuda:", 11) != 0 || !id[11])
        return 0;
    for (n = id + 11; *n; n++)
        if (*n < '0' || *n > '9')
            return 0;
    return strlen(id + 11) <= 3;
}

/* The last non-empty line the adapter wrote (a Python traceback ends with
 * the exception), into buf; "" when none. */
static void log_tail(fw_dev *d, char *buf, size_t size)
{
    char line[512];
    buf[0] = '\0';
    if (!d->log || fseek(d->log, 0, SEEK_SET) != 0)
        return;
    while (fgets(line, sizeof line, d->log)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (n > 0)
            snprintf(buf, size, "%s", line);
    }
    fseek(d->log, 0, SEEK_END);
}

/* Closes the socket, kills the adapter's process group and whatever its
 * keeper adopted, and reaps the keeper; how says how the adapter ended
 * when it had ended on its own ("" else). */
static void reap(fw_dev *d, char *how, size_t size)
{
    int ws;
    how[0] = '\0';
    /* whether it ended on its own is asked before the socket closes, which
     * would end it */
    if (d->pid > 0 && fw_ended(d->report, &ws, 0.0)) {
        if (WIFEXITED(ws))
            snprintf(how, size, "the adapter exited with status %d", WEXITSTATUS(ws));
        else if (WIFSIGNALED(ws))
            snprintf(how, size, "the adapter was killed by signal %d", WTERMSIG(ws));
        d->pid = 0;
    }
    if (d->fd >= 0) {
        close(d->fd);
        d->fd = -1;
    }
    if (d->pid > 0) {
        kill(d->pid, SIGKILL);
        d->pid = 0;
    }
    /* the keeper kills the adapter's group (after BYE! too) and every
     * process it adopted, then exits */
    if (d->life >= 0) {
        close(d->life);
        d->life = -1;
    }
    if (d->keeper > 0) {
        while (waitpid(d->keeper, &ws, 0) < 0 && errno == EINTR)
            ;
        d->keeper = 0;
    }
    if (d->report >= 0) {
        close(d->report);
        d->report = -1;
    }
    /* in case the keeper was itself killed */
    if (d->pgid > 0) {
        kill(-d->pgid, SIGKILL);
        d->pgid = 0;
    }
}

/* Puts d out of service: the adapter is killed, fault says why (with how
 * it ended and its last words), and the call fails with it. */
static int out_of_service(fw_dev *d, err *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int out_of_service(fw_dev *d, err *e, const char *fmt, ...)
{
    char why[256], how[96], tail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    /* an adapter that ended on its own says so first */
    {
        struct timespec tick = {0, 20000000};
        nanosleep(&tick, NULL);
    }
    reap(d, how, sizeof how);
    log_tail(d, tail, sizeof tail);
    snprintf(d->fault, sizeof d->fault, "%s%s%s%s%s", why, how[0] ? " (" : "", how,
             how[0] ? ")" : "", tail[0] ? "; its last words: " : "");
    if (tail[0])
        snprintf(d->fault + strlen(d->fault), sizeof d->fault - strlen(d->fault), "%s", tail);
    return err_set(e, BE_EFAIL, "%s: %s", d->id, d->fault);
}

/* Waits until fd is ready for ev or the deadline passes: 1 ready, 0 late. */
static int ready(int fd, short ev, double deadline)
{
    for (;;) {
        struct pollfd p = {fd, ev, 0};
        double left = deadline - host_seconds();
        int rc;
        if (left <= 0.0)
            return 0;
        rc = poll(&p, 1, (int)(left * 1000.0) + 1);
        if (rc > 0)
            return 1;
        if (rc < 0 && errno != EINTR)
            return 1; /* the read or write says what is wrong */
    }
}

/* Sends len bytes of buf; BE_EFAIL (out of service) when the adapter is
 * gone or late.  what names the message for the reason. */
/* Sends src[0..len) (dst NULL) or receives dst[0..len) (src NULL) whole,
 * before the deadline; a wait past it or a closed socket puts the adapter
 * out of service. */
static int move_all(fw_dev *d, const char *src, char *dst, size_t len, double deadline,
                    const char *what, err *e)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n;
        if (!ready(d->fd, src ? POLLOUT : POLLIN, deadline))
            return out_of_service(d, e, "no answer to %s within %.0f s; the adapter was killed",
                                  what, d->limit);
        n = src ? send(d->fd, src + done, len - done, MSG_NOSIGNAL)
                : recv(d->fd, dst + done, len - done, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            return out_of_service(d, e, "the adapter went away during %s", what);
        done += (size_t)n;
    }
    return BE_OK;
}

static int send_all(fw_dev *d, const void *buf, size_t len, double deadline, const char *what,
                    err *e)
{
    return move_all(d, buf, NULL, len, deadline, what, e);
}

static int recv_all(fw_dev *d, void *buf, size_t len, double deadline, const char *what, err *e)
{
    return move_all(d, NULL, buf, len, deadline, what, e);
}

static int send_header(fw_dev *d, const char *type, uint64_t len, double deadline, err *e)
{
    unsigned char h[16];
    int i;
    memcpy(h, "BEDP", 4);
    memcpy(h + 4, type, 4);
    for (i = 0; i < 8; i++)
        h[8 + i] = (unsigned char)(len >> (8 * i));
    return send_all(d, h, sizeof h, deadline, type, e);
}

/* Reads a reply's header into type and *len; a bad magic is a fault. */
static int recv_header(fw_dev *d, const char *req, char type[5], uint64_t *len, double deadline,
                       err *e)
{
    unsigned char h[16];
    int rc, i;
    if ((rc = recv_all(d, h, sizeof h, deadline, req, e)) < 0)
        return rc;
    if (memcmp(h, "BEDP", 4) != 0)
        return out_of_service(d, e, "the reply to %s is not the protocol (no BEDP header)", req);
    memcpy(type, h + 4, 4);
    type[4] = '\0';
    for (i = 0, *len = 0; i < 8; i++)
        *len |= (uint64_t)h[8 + i] << (8 * i);
    for (i = 0; i < 4; i++)
        if (type[i] < 0x21 || type[i] > 0x7e)
            return out_of_service(d, e, "the reply to %s has no valid type", req);
    return BE_OK;
}

/* A text payload of len bytes into buf (NUL-terminated). */
static int recv_text(fw_dev *d, const char *req, uint64_t len, char *buf, double deadline, err *e)
{
    int rc;
    if (len >= FW_TEXT_MAX)
        return out_of_service(d, e, "the reply to %s holds %llu bytes of text (at most %d)", req,
                              (unsigned long long)len, FW_TEXT_MAX - 1);
    if ((rc = recv_all(d, buf, (size_t)len, deadline, req, e)) < 0)
        return rc;
    buf[len] = '\0';
    return BE_OK;
}

/* Sends the request req (payload parts[0..n), NULL for none) and reads the
 * header of its reply, all before deadline (the call's one limit: its
 * reply's payload is read against it too).  A FAIL reply is read and
 * returned as the call's failure (BE_EOOM for the class oom); the device
 * stays in service.  A reply of another type than want, or of another
 * length than want_len (when want_len is not (uint64_t)-1) is a fault; so
 * is a byte waiting before the request is sent: a frame that answers no
 * request (a duplicate would shift every later reply by one). */
static int call(fw_dev *d, const char *req, const void *const *parts, const size_t *sizes, int n,
                const char *want, uint64_t want_len, uint64_t *len, double deadline, err *e)
{
    uint64_t total = 0;
    char type[5], extra;
    int i, rc;
    if (d->fault[0])
        return err_set(e, BE_EFAIL, "%s: out of service: %s", d->id, d->fault);
    if (recv(d->fd, &extra, 1, MSG_PEEK | MSG_DONTWAIT) == 1)
        return out_of_service(d, e, "the adapter sent what no request asked for before %s", req);
    for (i = 0; i < n; i++)
        total += sizes[i];
    if ((rc = send_header(d, req, total, deadline, e)) < 0)
        return rc;
    for (i = 0; i < n; i++)
        if ((rc = send_all(d, parts[i], sizes[i], deadline, req, e)) < 0)
            return rc;
    if ((rc = recv_header(d, req, type, len, deadline, e)) < 0)
        return rc;
    if (strcmp(type, "FAIL") == 0) {
        char *msg = malloc(FW_TEXT_MAX);
        int oom;
        if (!msg)
            return err_set(e, BE_EFAIL, "%s: out of memory", d->id);
        if ((rc = recv_text(d, req, *len, msg, deadline, e)) < 0) {
            free(msg);
            return rc;
        }
        msg[strcspn(msg, "\r\n")] = '\0';
        oom = strncmp(msg, "oom ", 4) == 0;
        rc = err_set(e, oom ? BE_EOOM : BE_EFAIL, "%s: %s failed: %s", d->id, req,
                     strncmp(msg, "error ", 6) == 0 ? msg + 6
                     : oom                          ? msg + 4
                                                    : msg);
        free(msg);
        return rc;
    }
    if (strcmp(type, want) != 0)
        return out_of_service(d, e, "the reply to %s is %s, not %s", req, type, want);
    if (want_len != (uint64_t)-1 && *len != want_len)
        return out_of_service(d, e, "the reply to %s holds %llu bytes, not %llu", req,
                              (unsigned long long)*len, (unsigned long long)want_len);
    return BE_OK;
}

/* ---- the backend -------------------------------------------------------- */

static size_t act_len(const workload *w, int l)
{
    return (size_t)w->batch * (size_t)wl_dim(w, l);
}
static size_t w_len(const workload *w, int l)
{
    return (size_t)wl_dim(w, l) * (size_t)wl_dim(w, l + 1);
}

/* A visit's start (begin 1: at PREP) or end (at RELS): the adapter's CPU
 * time in between is its own work for breakeven (framework_own_ticks);
 * what it spends outside visits is another process's load. */
static void visit_ticks(fw_dev *d, int begin)
{
    int ok;
    unsigned long long now = fw_ticks(d->pid, &ok);
    if (begin) {
        d->tick0 = now;
        d->own_ok = ok;
    } else if (ok && d->own_ok && now >= d->tick0) {
        d->own += now - d->tick0;
        d->own_ok = 0;
    }
}

static int fw_prepare(void *dev, const workload *w, void **run, err *e)
{
    fw_dev *d = dev;
    int32_t head[5 + 1 + WL_MAX_LAYERS + 1];
    const void **parts = NULL;
    size_t *sizes = NULL;
    uint64_t len;
    int l, n = 0, rc;
    float lr = w->lr;

    *run = NULL;
    if (d->prepared)
        return err_set(e, BE_EFAIL, "%s: a point is already prepared", d->id);
    d->streak = d->npend = d->ipend = 0;
    d->calls = d->lows = 0;
    d->nstep = 0;
    d->to_check = 2 + rng_below(&d->rng, FW_CHECK_FIRST - 1);
    for (l = 0, d->flops = 0.0; l < w->layers; l++)
        d->flops += (w->mode == WL_TRAINING ? 6.0 : 2.0) * (double)w->batch * (double)wl_dim(w, l) *
                    (double)wl_dim(w, l + 1);
    visit_ticks(d, 1);
    head[0] = (int32_t)w->mode;
    head[1] = w->layers;
    head[2] = w->batch;
    head[3] = w->linear_last;
    head[4] = w->weights_on_host;
    memcpy(&head[5], &lr, sizeof lr);
    for (l = 0; l <= w->layers; l++)
        head[6 + l] = wl_dim(w, l);
    parts = malloc((size_t)(2 * w->layers + 2) * sizeof *parts);
    sizes = malloc((size_t)(2 * w->layers + 2) * sizeof *sizes);
    if (!parts || !sizes) {
        rc = err_set(e, BE_EFAIL, "%s: out of memory", d->id);
        goto done;
    }
    parts[n] = head;
    sizes[n++] = (size_t)(6 + w->layers + 1) * sizeof(int32_t);
    parts[n] = w->x0;
    sizes[n++] = act_len(w, 0) * sizeof(float);
    /* breakeven's own arrays, as they are: no copy on this side */
    for (l = 0; l < w->layers; l++) {
        parts[n] = w->w0[l];
        sizes[n++] = w_len(w, l) * sizeof(float);
        parts[n] = w->b0[l];
        sizes[n++] = (size_t)wl_dim(w, l + 1) * sizeof(float);
    }
    if ((rc = call(d, "PREP", parts, sizes, n, "OKAY", 0, &len, host_seconds() + d->limit, e)) < 0)
        goto done;
    d->w = *w;
    d->prepared = 1;
    *run = d;
done:
    free(parts);
    free(sizes);
    return rc;
}

static int fw_reset(void *run, err *e)
{
    fw_dev *d = run;
    uint64_t len;
    d->streak = d->npend = d->ipend = 0;
    return call(d, "RSET", NULL, NULL, 0, "OKAY", 0, &len, host_seconds() + d->limit, e);
}

/* The steps to ask for next: one after anything but a step (the state
 * verified is of exactly one step), else as many as fill FW_BATCH_S, but
 * never more than half the call's time limit, and never past the step of
 * the next unannounced check (which then ends a STPN in inference). */
static int steps_to_ask(const fw_dev *d)
{
    double k;
    if (!d->batch_max || !d->streak || !(d->last > 0.0))
        return 1;
    k = FW_BATCH_S / d->last;
    if (k * d->last > d->limit / 2.0)
        k = d->limit / 2.0 / d->last;
    if (k > d->batch_max)
        k = d->batch_max;
    /* training's checked step follows a RSET of its own, alone */
    if (d->to_check > 0 && k > (double)d->to_check - (d->w.mode == WL_TRAINING))
        k = (double)d->to_check - (d->w.mode == WL_TRAINING);
    return k < 1.0 ? 1 : (int)k;
}

/* Holds the k steps' times in t to the call's round trip rt (fw_bounded),
 * and the visit's calls to their overhead. */
static int bounded(fw_dev *d, double (*t)[6], int k, double rt, err *e)
{
    double sum = 0.0;
    int j, rc;
    if ((rc = fw_bounded(d->id, t, k, rt, d->peak, d->flops, e)) < 0)
        return rc;
    for (j = 0; j < k; j++)
        sum += t[j][0];
    /* a call's overhead is the socket and the adapter's own code around its
     * clock: bounded but for a preemption, which a visit's every call is not */
    d->calls++;
    d->lows += rt > 2.0 * sum + FW_OVERHEAD_S;
    if (d->calls >= FW_LOW_CALLS && d->lows == d->calls)
        return err_set(e, BE_EFAIL,
                       "%s: all %d of the visit's calls took over twice the steps they report "
                       "and %.0f ms more (the last: %d step%s reported %.3g s in a round trip "
                       "of %.3g s); the times are not the steps'",
                       d->id, d->calls, FW_OVERHEAD_S * 1e3, k, k == 1 ? "" : "s", sum, rt);
    return BE_OK;
}

/* Asks for the next steps (STEP, or STPN of several when steps_to_ask
 * says so) into d->pend, timing the round trip, and holds them to it. */
static int fetch(fw_dev *d, err *e)
{
    const double t0 = host_seconds(), deadline = t0 + d->limit;
    const uint32_t k = (uint32_t)steps_to_ask(d);
    uint64_t len;
    int rc;
    d->npend = d->ipend = 0;
    if (k <= 1) {
        if ((rc = call(d, "STEP", NULL, NULL, 0, "TIME", sizeof d->pend[0], &len, deadline, e)) <
                0 ||
            (rc = recv_all(d, d->pend, sizeof d->pend[0], deadline, "STEP", e)) < 0)
            return rc;
    } else {
        unsigned char arg[4] = {(unsigned char)k, (unsigned char)(k >> 8), (unsigned char)(k >> 16),
                                (unsigned char)(k >> 24)};
        const void *parts[1] = {arg};
        const size_t sizes[1] = {sizeof arg};
        if ((rc = call(d, "STPN", parts, sizes, 1, "TIMS", k * sizeof d->pend[0], &len, deadline,
                       e)) < 0 ||
            (rc = recv_all(d, d->pend, k * sizeof d->pend[0], deadline, "STPN", e)) < 0)
            return rc;
    }
    if (d->trace) {
        double sum = 0.0;
        uint32_t j;
        for (j = 0; j < k; j++)
            sum += d->pend[j][0];
        fprintf(d->trace, "%d %d %d %u %.9f %.9f\n", (int)d->w.mode, d->w.hidden, d->w.batch, k,
                host_seconds() - t0, sum);
    }
    if ((rc = bounded(d, d->pend, (int)k, host_seconds() - t0, e)) < 0)
        return rc;
    d->npend = (int)k;
    return BE_OK;
}

static int fw_state(void *run, net_state *s, err *e);

/* The unannounced check: the state after the step just taken, verified as
 * the first visit's (training: the step followed a RSET, so that it is
 * one step from the initial parameters); then the next check's step. */
static int check(fw_dev *d, err *e)
{
    verify_result vr;
    int rc;
    d->to_check = 1 + rng_below(&d->rng, FW_CHECK_GAP);
    if (!d->has_st) {
        if ((rc = verify_state_alloc(&d->w, &d->st, e)) < 0)
            return rc;
        d->has_st = 1;
    }
    if ((rc = fw_state(d, &d->st, e)) < 0 || (rc = verify_check(&d->w, &d->st, &vr, e)) < 0)
        return rc;
    /* the steps go on as before the check: several at once again */
    d->streak = 1;
    if (!vr.ok)
        return err_set(e, BE_EVERIFY,
                       "%s: step %ld after PREP, checked unannounced: %s is off by %.3g of its "
                       "scale; the tolerance is %.3g",
                       d->id, d->nstep, vr.where, vr.max_error, vr.tolerance);
    return BE_OK;
}

static int fw_step(void *run, step_times *t, err *e)
{
    fw_dev *d = run;
    const double *v;
    int rc;
    if (d->ipend >= d->npend) {
        /* training's checked step is one from the initial parameters */
        if (d->to_check == 1 && d->w.mode == WL_TRAINING && (rc = fw_reset(d, e)) < 0)
            return rc;
        if ((rc = fetch(d, e)) < 0) {
            d->streak = d->npend = d->ipend = 0;
            return rc;
        }
    }
    v = d->pend[d->ipend++];
    d->nstep++;
    d->streak = 1;
    d->last = v[0];
    t->wall = v[0];
    t->kernel = v[1];
    t->h2d = v[2];
    t->d2h = v[3];
    t->total = v[4];
    t->whost = v[5];
    if (d->to_check > 0 && --d->to_check == 0)
        return check(d, e);
    return BE_OK;
}

/* The first value of a[0..n) that is not finite, or -1. */
static long not_finite(const float *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!isfinite(a[i]))
            return (long)i;
    return -1;
}

static int fw_state(void *run, net_state *s, err *e)
{
    fw_dev *d = run;
    const workload *w = &d->w;
    const int L = w->layers, train = w->mode == WL_TRAINING;
    uint64_t want = 0, len;
    double deadline;
    long bad;
    int l, rc;

    d->streak = d->npend = d->ipend = 0;
    for (l = 0; l <= L; l++)
        want += act_len(w, l);
    if (train)
        for (l = 0; l < L; l++)
            want += act_len(w, l) + w_len(w, l) + (size_t)wl_dim(w, l + 1);
    deadline = host_seconds() + d->limit;
    if ((rc = call(d, "STAT", NULL, NULL, 0, "DATA", want * sizeof(float), &len, deadline, e)) < 0)
        return rc;
    /* straight into the caller's arrays */
    for (l = 0; l <= L; l++)
        if ((rc = recv_all(d, s->act[l], act_len(w, l) * sizeof(float), deadline, "STAT", e)) < 0)
            return rc;
    for (l = 0; train && l < L; l++)
        if ((rc = recv_all(d, s->dx[l], act_len(w, l) * sizeof(float), deadline, "STAT", e)) < 0)
            return rc;
    for (l = 0; train && l < L; l++)
        if ((rc = recv_all(d, s->w[l], w_len(w, l) * sizeof(float), deadline, "STAT", e)) < 0 ||
            (rc = recv_all(d, s->b[l], (size_t)wl_dim(w, l + 1) * sizeof(float), deadline, "STAT",
                           e)) < 0)
            return rc;
    for (l = 0; l <= L; l++)
        if ((bad = not_finite(s->act[l], act_len(w, l))) >= 0)
            return err_set(e, BE_EFAIL, "%s: the state's act[%d] holds %g at %ld", d->id, l,
                           (double)s->act[l][bad], bad);
    for (l = 0; train && l < L; l++) {
        if ((bad = not_finite(s->dx[l], act_len(w, l))) >= 0)
            return err_set(e, BE_EFAIL, "%s: the state's dx[%d] holds %g at %ld", d->id, l,
                           (double)s->dx[l][bad], bad);
        if ((bad = not_finite(s->w[l], w_len(w, l))) >= 0)
            return err_set(e, BE_EFAIL, "%s: the state's W[%d] holds %g at %ld", d->id, l,
                           (double)s->w[l][bad], bad);
        if ((bad = not_finite(s->b[l], (size_t)wl_dim(w, l + 1))) >= 0)
            return err_set(e, BE_EFAIL, "%s: the state's b[%d] holds %g at %ld", d->id, l,
                           (double)s->b[l][bad], bad);
    }
    return BE_OK;
}

static void fw_release(void *run)
{
    fw_dev *d = run;
    uint64_t len;
    err ignore;
    if (!d)
        return;
    d->prepared = 0;
    d->streak = d->npend = d->ipend = 0;
    if (d->has_st)
        verify_state_free(&d->w, &d->st);
    d->has_st = 0;
    /* a failure here puts the device out of service; the next point says so */
    (void)call(d, "RELS", NULL, NULL, 0, "OKAY", 0, &len, host_seconds() + d->limit, &ignore);
    visit_ticks(d, 0);
}

/* The sweep's limit (sweep_call_limit), unless BREAKEVEN_DEVICE_TIMEOUT
 * fixed it. */
static void fw_set_limit(void *dev, double seconds)
{
    fw_dev *d = dev;
    if (!d->fixed && seconds > 0.0)
        d->limit = seconds;
}

static unsigned long long fw_own_ticks(void *dev)
{
    const fw_dev *d = dev;
    return d->own;
}

static const backend_ops fw_ops = {
    .kind = BACKEND_FRAMEWORK,
    .prepare = fw_prepare,
    .reset = fw_reset,
    .step = fw_step,
    .state = fw_state,
    .release = fw_release,
    .set_limit = fw_set_limit,
    .own_ticks = fw_own_ticks,
};

/* ---- starting and describing -------------------------------------------- */

static int start(fw_dev *d, char **argv, err *e)
{
    int sv[2], life[2], report[2];
    pid_t pid, adapter = 0;
    if (!(d->log = tmpfile()))
        return out_of_service(d, e, "no temporary file for the adapter's output: %s",
                              strerror(errno));
    fcntl(fileno(d->log), F_SETFD, FD_CLOEXEC);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return out_of_service(d, e, "socketpair: %s", strerror(errno));
    if (pipe2(life, O_CLOEXEC) < 0) {
        close(sv[0]);
        close(sv[1]);
        return out_of_service(d, e, "pipe: %s", strerror(errno));
    }
    if (pipe2(report, O_CLOEXEC) < 0) {
        close(sv[0]);
        close(sv[1]);
        close(life[0]);
        close(life[1]);
        return out_of_service(d, e, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        fw_keeper(sv[1], fileno(d->log), life[0], report[1], argv);
    close(sv[1]);
    close(life[0]);
    close(report[1]);
    d->fd = sv[0];
    d->life = life[1];
    d->report = report[0];
    if (pid < 0)
        return out_of_service(d, e, "fork: %s", strerror(errno));
    d->keeper = pid;
    /* the keeper's first word: the adapter's pid */
    if (!ready(d->report, POLLIN, host_seconds() + FW_HELLO_LIMIT_S) ||
        read(d->report, &adapter, sizeof adapter) != (ssize_t)sizeof adapter || adapter <= 0)
        return out_of_service(d, e, "its keeper process could not start it");
    d->pid = d->pgid = adapter;
    fcntl(d->fd, F_SETFL, fcntl(d->fd, F_GETFL) | O_NONBLOCK);
    return BE_OK;
}

/* Copies the text value of key from the hello's lines into dst. */
static void hello_value(const char *text, const char *key, char *dst, size_t size)
{
    size_t k = strlen(key);
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, key, k) == 0 && p[k] == ' ') {
            size_t n = strcspn(p + k + 1, "\n");
            snprintf(dst, size, "%.*s", (int)n, p + k + 1);
            return;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
}

/* The hello's `devices` line (every device the adapter can serve here, in
 * its own names: "cpu cuda:0 mps") into d->more as breakeven's ids of the
 * others ("torch:cuda:0 torch:mps"): the id's framework prefix before
 * each name that framework_is accepts. */
static void more_devices(fw_dev *d, const char *text)
{
    char list[256], *tok, *save = NULL, id[64];
    size_t prefix = strcspn(d->id, ":") + 1;
    list[0] = d->more[0] = '\0';
    hello_value(text, "devices", list, sizeof list);
    for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        snprintf(id, sizeof id, "%.*s%s", (int)prefix, d->id, tok);
        if (strcmp(id, d->id) != 0 && framework_is(id) &&
            strlen(d->more) + strlen(id) + 2 < sizeof d->more)
            snprintf(d->more + strlen(d->more), sizeof d->more - strlen(d->more), "%s%s",
                     d->more[0] ? " " : "", id);
    }
}

/* The properties breakeven sets on a framework device, now or later in
 * the run (the hello's, the sweep's and the CPU's own names), which an
 * adapter's `prop` lines cannot set. */
static int reserved(const char *name)
{
    static const char *const own[] = {"framework",
                                      "framework-version",
                                      "protocol",
                                      "adapter",
                                      "steps-at-once",
                                      "kernel-build-seconds",
                                      "kernel-binary-cache",
                                      "rapl",
                                      "openblas-underuses",
                                      "cores",
                                      "max_clock_mhz",
                                      "isa"};
    size_t i;
    for (i = 0; i < sizeof own / sizeof *own; i++)
        if (strcmp(name, own[i]) == 0)
            return 1;
    return 0;
}

static int hello(fw_dev *d, device_info *info, const char *adapter, int threads, err *e)
{
    char req[64], fw[64] = "", ver[96] = "", *text = NULL;
    const void *parts[1];
    size_t sizes[1];
    uint64_t len;
    const char *p;
    int rc, proto;

    const double deadline = host_seconds() + d->limit; /* the whole hello's */

    snprintf(req, sizeof req, "protocol %d\nthreads %d\n", FW_PROTOCOL,
             threads > 0 ? threads : host_cores());
    parts[0] = req;
    sizes[0] = strlen(req);
    if ((rc = call(d, "HELO", parts, sizes, 1, "HELO", (uint64_t)-1, &len, deadline, e)) < 0)
        return rc;
    if (!(text = malloc(FW_TEXT_MAX)))
        return err_set(e, BE_EFAIL, "%s: out of memory", d->id);
    if ((rc = recv_text(d, "HELO", len, text, deadline, e)) < 0)
        goto done;
    if (sscanf(text, "protocol %d", &proto) != 1) {
        rc = out_of_service(d, e, "the adapter's hello does not start with its protocol");
        goto done;
    }
    if (proto != FW_PROTOCOL) {
        rc = out_of_service(d, e,
                            "the adapter speaks protocol %d; this breakeven speaks %d "
                            "(docs/devices.md)",
                            proto, FW_PROTOCOL);
        goto done;
    }
    hello_value(text, "name", info->name, sizeof info->name);
    hello_value(text, "type", info->type, sizeof info->type);
    hello_value(text, "vendor", info->vendor, sizeof info->vendor);
    hello_value(text, "library", info->library, sizeof info->library);
    hello_value(text, "framework", fw, sizeof fw);
    hello_value(text, "framework-version", ver, sizeof ver);
    {
        char steps[16] = "";
        hello_value(text, "steps", steps, sizeof steps);
        d->batch_max = atoi(steps) > FW_BATCH_MAX ? FW_BATCH_MAX
                       : atoi(steps) > 1          ? atoi(steps)
                                                  : 0;
        /* how its samples were taken is part of the run's provenance */
        if (d->batch_max)
            devinfo_prop_add(info, "steps-at-once", "%d", d->batch_max);
    }
    more_devices(d, text);
    snprintf(info->driver, sizeof info->driver, "%s %s", fw, ver);
    devinfo_prop_add(info, "framework", "%s", fw);
    devinfo_prop_add(info, "framework-version", "%s", ver);
    devinfo_prop_add(info, "protocol", "%d", proto);
    devinfo_prop_add(info, "adapter", "%s", adapter);
    for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        char name[48], value[256];
        /* breakeven's own (framework, adapter, steps-at-once, …), and any
         * said twice, keep their first value: an adapter describes itself
         * in properties of its own names */
        if (sscanf(p, "prop %47s %255[^\n]", name, value) == 2 && !devinfo_prop(info, name) &&
            !reserved(name))
            devinfo_prop_add(info, name, "%s", value);
    }
    {
        int ok;
        d->started = fw_ticks(d->pid, &ok);
    }
    rc = BE_OK;
done:
    free(text);
    return rc;
}

int framework_open(device *dev, const char *id, const char *adapters, int threads, uint64_t seed,
                   err *e)
{
    fw_dev *d = calloc(1, sizeof *d);
    device_info *info = &dev->info;
    char buf[1536], *argv[8], why[400];
    const char *env = getenv("BREAKEVEN_DEVICE_TIMEOUT"), *trace = getenv("BREAKEVEN_DEVICE_TRACE");
    const char *c;
    err he;

    memset(dev, 0, sizeof *dev);
    if (!d)
        return err_set(e, BE_EFAIL, "out of memory starting %s", id);
    d->fd = d->life = d->report = -1;
    snprintf(d->id, sizeof d->id, "%s", id);
    /* each device's checks drawn apart, all from --seed */
    for (d->rng = seed, c = id; *c; c++)
        d->rng = d->rng * 31 + (unsigned char)*c;
    /* a framework's CPU computes on this host: no faster than it can */
    if (strcmp(strchr(id, ':') + 1, "cpu") == 0)
        d->peak = host_cores() * FW_CPU_PER_CYCLE * 1e6 *
                  (host_cpu_max_mhz() > 0.0 ? host_cpu_max_mhz() : FW_CPU_MHZ);
    /* the adapters' orphans become this process's children, not init's:
     * framework_strays ends them */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    d->limit = env && atof(env) > 0.0 ? atof(env) : FW_HELLO_LIMIT_S;
    /* what the device is before it says more */
    snprintf(info->id, sizeof info->id, "%s", id);
    snprintf(info->kind, sizeof info->kind, "framework");
    snprintf(info->type, sizeof info->type, "%s",
             strstr(id, ":cuda:") || strstr(id, ":mps") ? "GPU" : "CPU");
    snprintf(info->name, sizeof info->name, "%s", id);
    snprintf(info->vendor, sizeof info->vendor, "unknown");
    snprintf(info->driver, sizeof info->driver, "not started");
    snprintf(info->library, sizeof info->library, "unknown");
    dev->ops = &fw_ops;
    dev->handle = d;
    if (trace && *trace && !(d->trace = fopen(trace, "a"))) {
        err_set(e, BE_EFAIL, "BREAKEVEN_DEVICE_TRACE: %s: %s", trace, strerror(errno));
        framework_close(dev);
        return BE_EFAIL;
    }
    if (fw_command(id, adapters, buf, sizeof buf, argv, why, sizeof why) < 0) {
        snprintf(d->fault, sizeof d->fault, "cannot start: %s", why);
        return BE_OK;
    }
    if (start(d, argv, &he) == BE_OK &&
        hello(d, info, strncmp(id, "ref:", 4) == 0 ? argv[0] : argv[1], threads, &he) == BE_OK) {
        /* until the sweep derives one from the budget (fw_set_limit) */
        d->fixed = env && atof(env) > 0.0;
        d->limit = d->fixed ? atof(env) : FW_LIMIT_S;
        return BE_OK;
    }
    /* a FAIL answer leaves the adapter in service: its reason is the fault */
    if (!d->fault[0]) {
        char how[96];
        const size_t n = strlen(d->id) + 2;
        reap(d, how, sizeof how);
        snprintf(d->fault, sizeof d->fault, "%s",
                 strncmp(he.msg, d->id, n - 2) == 0 && strlen(he.msg) >= n ? he.msg + n : he.msg);
    }
    memmove(d->fault + 14, d->fault, sizeof d->fault - 15);
    memcpy(d->fault, "cannot start: ", 14);
    d->fault[sizeof d->fault - 1] = '\0';
    return BE_OK;
}

void framework_close(device *dev)
{
    fw_dev *d = dev->handle;
    char how[96];
    if (!d)
        return;
    if (d->fd >= 0 && !d->fault[0]) {
        int ws;
        err ignore;
        double limit = d->limit;
        d->limit = 1.0;
        if (send_header(d, "BYE!", 0, host_seconds() + 1.0, &ignore) == BE_OK) {
            if (fw_ended(d->report, &ws, 2.0))
                d->pid = 0;
        }
        d->limit = limit;
    }
    reap(d, how, sizeof how);
    if (d->log)
        fclose(d->log);
    if (d->trace)
        fclose(d->trace);
    free(d);
    dev->handle = NULL;
}

double framework_idle_cpu(const device *dev)
{
    const fw_dev *d = dev->handle;
    unsigned long long now;
    int ok;
    if (!d || d->pid <= 0)
        return 0.0;
    now = fw_ticks(d->pid, &ok);
    return ok && now >= d->started + d->own
               ? (double)(now - d->started - d->own) / (double)sysconf(_SC_CLK_TCK)
               : 0.0;
}

const char *framework_fault(const device *dev)
{
    const fw_dev *d = dev->handle;
    return d ? d->fault : "";
}

const char *framework_more(const device *dev)
{
    const fw_dev *d = dev->handle;
    return d ? d->more : "";
}

int framework_fault_news(device *dev)
{
    fw_dev *d = dev->handle;
    if (!d || !d->fault[0] || d->told)
        return 0;
    d->told = 1;
    return 1;
}
