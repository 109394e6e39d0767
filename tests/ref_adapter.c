/*
 * ref_adapter.c — the reference adapter of the device protocol
 * (docs/devices.md), for the tests: the workload of backend.h in plain
 * loops, on the socket given as --fd N.  breakeven runs it as the device
 * ref:cpu when BREAKEVEN_REF_ADAPTER names it.
 *
 * BREAKEVEN_REF_FAULT makes it misbehave, for the fault tests:
 *   crash:N    dies of SIGSEGV at its Nth STEP
 *   hang:N     never answers its Nth STEP
 *   wrong      its state's output is off by one in every element
 *   size       its state is one value short
 *   nan        its state's output holds a NaN
 *   version    says it speaks protocol 2
 *   garbage    answers STEP with bytes that are not the protocol
 *   short      answers a STPN one step short
 *   moody:N    every second visit of a shape (its 2nd, 4th, ... PREP) takes
 *              N microseconds longer a step, slept inside the step: a
 *              device whose passes disagree (the precision passes' test)
 * and, as a hostile adapter would (issue 46; docs/devices.md, "Bounds"):
 *   fast       computes, and reports 1 ns a step
 *   slow       computes, sleeps 50 ms a step and reports 1 µs
 *   long       reports 1,000 s a step
 *   total      reports a total below the step's wall
 *   subnormal  reports a wall of 4.9e-324 s
 *   huge       reports a wall of 1.7e308 s
 *   field      reports a kernel time of 1e300 s
 *   skip       computes only the first step after a RSET (inference's
 *              state is the same whichever step it follows)
 *   stale      computes only the first step after a RSET and the steps
 *              of a STEP, never those of a STPN
 *   wrongstep  leaves every step's output off by one but the first after
 *              PREP or RSET's (the one step the checks once looked at)
 *   dup        sends its 10th TIME twice
 *   drip       answers HELO a byte every 0.2 s
 *   failhello  answers HELO with FAIL and a reason
 *   props      its hello's props name breakeven's own (adapter,
 *              steps-at-once, protocol) and one twice
 *   escape     starts a grandchild in its group that ignores SIGTERM,
 *              and one that leaves it (setsid), each writing its pid to
 *              BREAKEVEN_REF_PIDFILE.g1 and .g2
 *   spin       keeps a thread busy for as long as it lives (between its
 *              requests too)
 * BREAKEVEN_REF_PIDFILE, when set, is where it writes its process id (to
 * see that it does not outlive breakeven).  BREAKEVEN_REF_STEPS=N offers
 * STPN of up to N steps (its hello's `steps N`), and BREAKEVEN_REF_STPN,
 * when set, is a file where it counts the STPN it answered.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct net {
    int mode, L, B, linear_last, d[65];
    float lr;
    float *x0, **w0, **b0; /* as received */
    float **act, **w, **b, **dx;
} net;

static int fd = 3;

/* The visits (PREP) of each shape so far, for moody: N; a shape is its
 * mode, batch and first width. */
typedef struct visits {
    int mode, B, d0, n;
} visits;

/* 1 when this PREP of m's shape is its 2nd, 4th, ...: a slow visit. */
static int moody_visit(const net *m, visits *v, int nv)
{
    int i;
    for (i = 0; i < nv && v[i].n > 0; i++)
        if (v[i].mode == m->mode && v[i].B == m->B && v[i].d0 == m->d[0])
            return ++v[i].n % 2 == 0;
    if (i < nv)
        v[i] = (visits){m->mode, m->B, m->d[0], 1};
    return 0;
}

/* BREAKEVEN_REF_PIDFILE with suffix: where a grandchild writes its pid. */
static void write_pid(const char *suffix)
{
    char path[1024];
    FILE *f;
    if (!getenv("BREAKEVEN_REF_PIDFILE"))
        return;
    snprintf(path, sizeof path, "%s%s", getenv("BREAKEVEN_REF_PIDFILE"), suffix);
    if ((f = fopen(path, "w"))) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
}

/* escape: one grandchild that ignores SIGTERM in the adapter's group, and
 * one that leaves it for a session of its own through a middle process
 * that exits (a daemon's double fork). */
static void escape(void)
{
    pid_t p;
    if (fork() == 0) {
        signal(SIGTERM, SIG_IGN);
        write_pid(".g1");
        for (;;)
            pause();
    }
    if ((p = fork()) == 0) {
        setsid();
        if (fork() == 0) {
            signal(SIGTERM, SIG_IGN);
            write_pid(".g2");
            for (;;)
                pause();
        }
        _exit(0);
    }
    if (p > 0)
        waitpid(p, NULL, 0);
}

/* spin: burns a CPU for as long as the adapter lives. */
static void *spin(void *arg)
{
    volatile unsigned long n = 0;
    (void)arg;
    for (;;)
        n++;
    return NULL;
}

static void put(const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k <= 0)
            exit(1);
        c += k;
        n -= (size_t)k;
    }
}

static void get(void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = read(fd, c, n);
        if (k <= 0)
            exit(1);
        c += k;
        n -= (size_t)k;
    }
}

static void reply(const char *type, const void *p, uint64_t n)
{
    unsigned char h[16];
    int i;
    memcpy(h, "BEDP", 4);
    memcpy(h + 4, type, 4);
    for (i = 0; i < 8; i++)
        h[8 + i] = (unsigned char)(n >> (8 * i));
    put(h, 16);
    if (n)
        put(p, (size_t)n);
}

static float *arr(size_t n)
{
    float *a = calloc(n ? n : 1, sizeof(float));
    if (!a)
        exit(1);
    return a;
}

static void reset(net *m)
{
    int l;
    memcpy(m->act[0], m->x0, (size_t)m->B * (size_t)m->d[0] * sizeof(float));
    for (l = 0; l < m->L; l++) {
        memcpy(m->w[l], m->w0[l], (size_t)m->d[l] * (size_t)m->d[l + 1] * sizeof(float));
        memcpy(m->b[l], m->b0[l], (size_t)m->d[l + 1] * sizeof(float));
    }
}

static void step(net *m)
{
    int l, i, j, r;
    for (l = 0; l < m->L; l++) {
        int K = m->d[l], N = m->d[l + 1], relu = !(m->linear_last && l == m->L - 1);
        for (r = 0; r < m->B; r++)
            for (j = 0; j < N; j++) {
                float s = 0.0f;
                for (i = 0; i < K; i++)
                    s += m->act[l][r * K + i] * m->w[l][i * N + j];
                s += m->b[l][j];
                m->act[l + 1][r * N + j] = relu && s < 0.0f ? 0.0f : s;
            }
    }
    if (m->mode != 1)
        return;
    {
        const float *dy = m->act[m->L];
        float *dz = NULL;
        for (l = m->L - 1; l >= 0; l--) {
            int K = m->d[l], N = m->d[l + 1], relu = !(m->linear_last && l == m->L - 1);
            const float *y = m->act[l + 1];
            free(dz);
            dz = arr((size_t)m->B * (size_t)N);
            for (i = 0; i < m->B * N; i++)
                dz[i] = !relu || y[i] > 0.0f ? dy[i] : 0.0f;
            for (r = 0; r < m->B; r++)
                for (i = 0; i < K; i++) {
                    float s = 0.0f;
                    for (j = 0; j < N; j++)
                        s += dz[r * N + j] * m->w[l][i * N + j];
                    m->dx[l][r * K + i] = s;
                }
            for (j = 0; j < N; j++) {
                float s = 0.0f;
                for (r = 0; r < m->B; r++)
                    s += dz[r * N + j];
                m->b[l][j] -= m->lr * s;
            }
            for (i = 0; i < K; i++)
                for (j = 0; j < N; j++) {
                    float s = 0.0f;
                    for (r = 0; r < m->B; r++)
                        s += m->act[l][r * K + i] * dz[r * N + j];
                    m->w[l][i * N + j] -= m->lr * s;
                }
            dy = m->dx[l];
        }
        free(dz);
    }
}

static void prepare(net *m, uint64_t len)
{
    int32_t head[6];
    int l;
    get(head, sizeof head);
    m->mode = head[0];
    m->L = head[1];
    m->B = head[2];
    m->linear_last = head[3];
    memcpy(&m->lr, &head[5], sizeof m->lr);
    if (m->L < 1 || m->L > 64)
        exit(1);
    get(m->d, (size_t)(m->L + 1) * sizeof(int32_t));
    m->x0 = arr((size_t)m->B * (size_t)m->d[0]);
    get(m->x0, (size_t)m->B * (size_t)m->d[0] * sizeof(float));
    m->w0 = calloc((size_t)m->L, sizeof *m->w0);
    m->b0 = calloc((size_t)m->L, sizeof *m->b0);
    m->w = calloc((size_t)m->L, sizeof *m->w);
    m->b = calloc((size_t)m->L, sizeof *m->b);
    m->dx = calloc((size_t)m->L, sizeof *m->dx);
    m->act = calloc((size_t)m->L + 1, sizeof *m->act);
    if (!m->w0 || !m->b0 || !m->w || !m->b || !m->dx || !m->act)
        exit(1);
    for (l = 0; l < m->L; l++) {
        size_t nw = (size_t)m->d[l] * (size_t)m->d[l + 1];
        m->w0[l] = arr(nw);
        m->b0[l] = arr((size_t)m->d[l + 1]);
        get(m->w0[l], nw * sizeof(float));
        get(m->b0[l], (size_t)m->d[l + 1] * sizeof(float));
        m->w[l] = arr(nw);
        m->b[l] = arr((size_t)m->d[l + 1]);
        m->dx[l] = arr((size_t)m->B * (size_t)m->d[l]);
    }
    for (l = 0; l <= m->L; l++)
        m->act[l] = arr((size_t)m->B * (size_t)m->d[l]);
    (void)len;
    reset(m);
}

static void release(net *m)
{
    int l;
    for (l = 0; l < m->L; l++) {
        free(m->w0[l]);
        free(m->b0[l]);
        free(m->w[l]);
        free(m->b[l]);
        free(m->dx[l]);
    }
    for (l = 0; l <= m->L; l++)
        free(m->act[l]);
    free(m->w0);
    free(m->b0);
    free(m->w);
    free(m->b);
    free(m->dx);
    free(m->act);
    free(m->x0);
    memset(m, 0, sizeof *m);
}

/* The state as one buffer, in the protocol's order. */
static void state(net *m, const char *fault)
{
    size_t n = 0, k = 0, len;
    float *s;
    int l;
    for (l = 0; l <= m->L; l++)
        n += (size_t)m->B * (size_t)m->d[l];
    for (l = 0; m->mode == 1 && l < m->L; l++)
        n += (size_t)m->B * (size_t)m->d[l] + (size_t)m->d[l] * (size_t)m->d[l + 1] +
             (size_t)m->d[l + 1];
    s = arr(n);
#define ADD(p, c)                              \
    do {                                       \
        memcpy(s + k, p, (c) * sizeof(float)); \
        k += (c);                              \
    } while (0)
    for (l = 0; l <= m->L; l++)
        ADD(m->act[l], (size_t)m->B * (size_t)m->d[l]);
    for (l = 0; m->mode == 1 && l < m->L; l++)
        ADD(m->dx[l], (size_t)m->B * (size_t)m->d[l]);
    for (l = 0; m->mode == 1 && l < m->L; l++) {
        ADD(m->w[l], (size_t)m->d[l] * (size_t)m->d[l + 1]);
        ADD(m->b[l], (size_t)m->d[l + 1]);
    }
#undef ADD
    {
        size_t out = 0, i;
        for (l = 0; l < m->L; l++)
            out += (size_t)m->B * (size_t)m->d[l];
        for (i = 0; strcmp(fault, "wrong") == 0 && i < (size_t)m->B * (size_t)m->d[m->L]; i++)
            s[out + i] += 1.0f;
        if (strcmp(fault, "nan") == 0)
            s[out] = NAN;
    }
    len = n * sizeof(float) - (strcmp(fault, "size") == 0 ? sizeof(float) : 0);
    reply("DATA", s, len);
    free(s);
}

/* The times of a step t (as TIME's) as the hostile faults report them. */
static void lie(const char *fault, double *t)
{
    if (strcmp(fault, "fast") == 0)
        t[0] = t[4] = 1e-9;
    else if (strcmp(fault, "slow") == 0)
        t[0] = t[4] = 1e-6;
    else if (strcmp(fault, "long") == 0)
        t[0] = t[4] = 1000.0;
    else if (strcmp(fault, "total") == 0)
        t[4] = t[0] / 2.0;
    else if (strcmp(fault, "subnormal") == 0)
        t[0] = 4.9e-324;
    else if (strcmp(fault, "huge") == 0)
        t[0] = 1.7e308;
    else if (strcmp(fault, "field") == 0)
        t[1] = 1e300;
}

/* Writes n, the STPN answered so far, to BREAKEVEN_REF_STPN's file. */
static void count_stpn(int n)
{
    const char *path = getenv("BREAKEVEN_REF_STPN");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", n);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    const char *fault = getenv("BREAKEVEN_REF_FAULT"), *offer = getenv("BREAKEVEN_REF_STEPS");
    int at = 0, steps = 0, i, nstpn = 0, since = 0, ntime = 0, slow = 0;
    static visits seen[64];
    net m;
    memset(&m, 0, sizeof m);
    for (i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--fd") == 0)
            fd = atoi(argv[i + 1]);
    if (!fault)
        fault = "";
    if (getenv("BREAKEVEN_REF_PIDFILE")) {
        FILE *f = fopen(getenv("BREAKEVEN_REF_PIDFILE"), "w");
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
    }
    if (strchr(fault, ':'))
        at = atoi(strchr(fault, ':') + 1);
    if (strcmp(fault, "escape") == 0)
        escape();
    if (strcmp(fault, "spin") == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, spin, NULL) != 0)
            return 1;
    }
    for (;;) {
        unsigned char h[16];
        char type[5] = "";
        uint64_t len = 0;
        get(h, 16);
        memcpy(type, h + 4, 4);
        for (i = 0; i < 8; i++)
            len |= (uint64_t)h[8 + i] << (8 * i);
        if (memcmp(h, "BEDP", 4) != 0)
            return 1;
        if (strcmp(type, "HELO") == 0) {
            char req[256], txt[512];
            if (len >= sizeof req)
                return 1;
            get(req, (size_t)len);
            snprintf(txt, sizeof txt,
                     "protocol %d\nname breakeven's reference adapter\nframework reference\n"
                     "framework-version 1\ntype CPU\nvendor breakeven\nlibrary plain loops\n"
                     "prop reference-fault %s\nsteps %d\n%s",
                     strcmp(fault, "version") == 0 ? 2 : 1, fault[0] ? fault : "none",
                     offer ? atoi(offer) : 0,
                     strcmp(fault, "props") == 0
                         ? "prop adapter /elsewhere\nprop steps-at-once 64\nprop protocol 9\n"
                           "prop colour red\nprop colour blue\n"
                         : "");
            if (strcmp(fault, "failhello") == 0) {
                const char *why = "error no such device here";
                reply("FAIL", why, strlen(why));
            } else if (strcmp(fault, "drip") == 0) {
                unsigned char hd[16];
                size_t n = strlen(txt), j;
                struct timespec tick = {0, 200000000};
                memcpy(hd, "BEDP", 4);
                memcpy(hd + 4, "HELO", 4);
                for (j = 0; j < 8; j++)
                    hd[8 + j] = (unsigned char)((uint64_t)n >> (8 * j));
                put(hd, 16);
                for (j = 0; j < n; j++) {
                    nanosleep(&tick, NULL);
                    put(txt + j, 1);
                }
            } else
                reply("HELO", txt, strlen(txt));
        } else if (strcmp(type, "PREP") == 0) {
            prepare(&m, len);
            slow = strncmp(fault, "moody:", 6) == 0 && moody_visit(&m, seen, 64);
            since = 0;
            reply("OKAY", NULL, 0);
        } else if (strcmp(type, "RSET") == 0) {
            reset(&m);
            since = 0;
            reply("OKAY", NULL, 0);
        } else if (strcmp(type, "STEP") == 0 || strcmp(type, "STPN") == 0) {
            static double t[64][6];
            uint32_t k = 1;
            int j;
            if (type[3] == 'N') {
                unsigned char arg[4];
                if (len != 4)
                    return 1;
                get(arg, 4);
                k = (uint32_t)arg[0] | (uint32_t)arg[1] << 8 | (uint32_t)arg[2] << 16 |
                    (uint32_t)arg[3] << 24;
                if (k < 1 || k > 64 || !offer || (int)k > atoi(offer))
                    return 1;
                count_stpn(++nstpn);
            }
            if (strcmp(fault, "garbage") == 0) {
                put("HTTP/1.1 200 OK\r\n\r\n", 19);
                continue;
            }
            for (j = 0; j < (int)k; j++) {
                struct timespec a, b;
                int work = 1;
                steps++;
                since++;
                if (strncmp(fault, "crash:", 6) == 0 && steps == at)
                    raise(SIGSEGV);
                if (strncmp(fault, "hang:", 5) == 0 && steps == at)
                    for (;;)
                        pause();
                if (strcmp(fault, "skip") == 0)
                    work = since == 1;
                if (strcmp(fault, "stale") == 0)
                    work = since == 1 || type[3] != 'N';
                clock_gettime(CLOCK_MONOTONIC, &a);
                if (work)
                    step(&m);
                if (strcmp(fault, "wrongstep") == 0 && since > 1)
                    for (i = 0; i < m.B * m.d[m.L]; i++)
                        m.act[m.L][i] += 1.0f;
                if (strcmp(fault, "slow") == 0) {
                    struct timespec nap = {0, 50000000};
                    nanosleep(&nap, NULL);
                }
                if (slow) {
                    struct timespec nap = {at / 1000000, (long)(at % 1000000) * 1000};
                    nanosleep(&nap, NULL);
                }
                clock_gettime(CLOCK_MONOTONIC, &b);
                t[j][0] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
                if (t[j][0] <= 0.0)
                    t[j][0] = 1e-9;
                t[j][1] = t[j][2] = t[j][3] = t[j][5] = -1.0;
                t[j][4] = t[j][0];
                lie(fault, t[j]);
            }
            if (type[3] == 'N')
                reply("TIMS", t, (k - (strcmp(fault, "short") == 0)) * sizeof t[0]);
            else {
                reply("TIME", t[0], sizeof t[0]);
                if (strcmp(fault, "dup") == 0 && ++ntime == 10)
                    reply("TIME", t[0], sizeof t[0]);
            }
        } else if (strcmp(type, "STAT") == 0) {
            state(&m, fault);
        } else if (strcmp(type, "RELS") == 0) {
            release(&m);
            reply("OKAY", NULL, 0);
        } else if (strcmp(type, "BYE!") == 0) {
            return 0;
        } else {
            return 1;
        }
    }
}
