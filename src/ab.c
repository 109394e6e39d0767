/*
 * ab.c — `breakeven ab`: two runs whose passes alternate, and their paired
 * comparison (ab.h).
 */
#define _GNU_SOURCE
#include "ab.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "host.h"
#include "stop.h"

/* A side that has not said its next line this long after its share of the
 * budget is hung. */
#define AB_GRACE_S 120.0
/* The longest a side's threads are waited for to stop spinning. */
#define AB_QUIET_S 0.5
/* The longest line of the protocol ("id RUN DEVICES"). */
#define AB_LINE 1024

/* ---- the protocol: lines on a socket --------------------------------- */

static int say(int fd, const char *line)
{
    size_t n = strlen(line), off = 0;
    while (off < n) {
        ssize_t w = send(fd, line + off, n - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        off += (size_t)w;
    }
    return 0;
}

/* One line (without its newline) into buf, waiting at most timeout
 * seconds (< 0: for ever); 1 read, 0 EOF or an error, −1 timed out, −2 a
 * signal asked this process to stop. */
static int hear(int fd, char *buf, size_t size, double timeout)
{
    size_t n = 0;
    double until = timeout >= 0.0 ? host_seconds() + timeout : 0.0;
    for (;;) {
        struct pollfd pf = {fd, POLLIN, 0};
        double left = timeout >= 0.0 ? until - host_seconds() : -1.0;
        char ch;
        ssize_t r;
        int pr;
        if (timeout >= 0.0 && left <= 0.0)
            return -1;
        pr = poll(&pf, 1, timeout >= 0.0 ? (int)(left * 1000.0) + 1 : -1);
        if (pr < 0 && errno == EINTR) {
            if (stop_requested())
                return -2;
            continue;
        }
        if (pr == 0)
            continue;
        r = recv(fd, &ch, 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        if (ch == '\n') {
            buf[n] = '\0';
            return 1;
        }
        if (n + 1 < size)
            buf[n++] = ch;
    }
}

/* ---- the child's side -------------------------------------------------- */

int ab_pace_hello(ab_pace *p, const char *run_id, int format, const char *devices, err *e)
{
    char line[AB_LINE];
    long pid;
    snprintf(line, sizeof line, "id %s %d %s\n", run_id, format, devices);
    if (say(p->fd, line) < 0 || hear(p->fd, line, sizeof line, -1.0) != 1)
        return err_set(e, BE_EINTR, "--paired: the ab that started this run is gone");
    if (sscanf(line, "sibling %ld", &pid) != 1 || pid <= 0)
        return err_set(e, BE_EFAIL, "--paired: ab said \"%.60s\", not the other side", line);
    p->sibling = (int)pid;
    return BE_OK;
}

/* Waits for "go"; else the run stops. */
static int wait_go(ab_pace *p)
{
    char line[64];
    if (p->lost || hear(p->fd, line, sizeof line, -1.0) != 1 || strcmp(line, "go") != 0) {
        p->lost = 1;
        *stop_flag() = 1;
        return -1;
    }
    return 0;
}

void ab_pace_event(void *ctx, const sweep_event *ev)
{
    ab_pace *p = ctx;
    if (ev->kind == SWEEP_START) {
        char line[64];
        snprintf(line, sizeof line, "ready %d %d\n", ev->index + 1, ev->total);
        if (p->lost || say(p->fd, line) < 0) {
            p->lost = 1;
            *stop_flag() = 1;
            return;
        }
        if (wait_go(p) < 0)
            return;
    }
    progress_event(p->pg, ev);
}

int ab_pace_end(ab_pace *p, err *e)
{
    if (p->lost || say(p->fd, "end\n") < 0 || wait_go(p) < 0)
        return err_set(e, BE_EINTR, "--paired: the ab that started this run is gone");
    return BE_OK;
}

/* ---- the parent ------------------------------------------------------ */

/* One child. */
typedef struct child {
    char name;  /* 'A' or 'B' */
    pid_t pid;  /* 0 once reaped */
    int fd;     /* the socket; −1 closed */
    FILE *log;  /* its stdout and stderr */
    int status; /* waitpid's */
    char run[128], devices[512];
    char said[AB_LINE]; /* its last line */
} child;

/* The binary of side s: its own, or this one. */
static const char *binary_of(const ab_side *s, char *self, size_t size)
{
    ssize_t n;
    if (s->binary[0])
        return s->binary;
    n = readlink("/proc/self/exe", self, size - 1);
    if (n <= 0)
        return "breakeven";
    self[n] = '\0';
    return self;
}

/* Runs `bin arg1 arg2`, its output into buf; its exit status, or −1. */
static int capture(const char *bin, const char *arg1, const char *arg2, char *buf, size_t size)
{
    int pfd[2], st = 0;
    size_t n = 0;
    pid_t pid;
    if (pipe(pfd) < 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    if (pid == 0) {
        char *argv[4] = {(char *)bin, (char *)arg1, (char *)arg2, NULL};
        dup2(pfd[1], 1);
        dup2(pfd[1], 2);
        close(pfd[0]);
        execv(bin, argv);
        _exit(127);
    }
    close(pfd[1]);
    for (;;) {
        ssize_t r = read(pfd[0], buf + n, n + 1 < size ? size - 1 - n : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n + 1 >= size) {
            char sink[512];
            while (read(pfd[0], sink, sizeof sink) > 0)
                ;
            break;
        }
    }
    buf[n] = '\0';
    close(pfd[0]);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A side's binary must be a breakeven that paces (`run --paired`). */
static int check_binary(char side, const char *bin, err *e)
{
    char out[16384];
    if (access(bin, X_OK) != 0)
        return err_set(e, BE_EUSAGE, "ab: side %c: %s: %s", side, bin, strerror(errno));
    if (capture(bin, "--version", NULL, out, sizeof out) != 0 ||
        strncmp(out, "breakeven ", 10) != 0)
        return err_set(e, BE_EUSAGE,
                       "ab: side %c: %s is not a breakeven (its --version says \"%.60s\")", side,
                       bin, strtok(out, "\n") ? out : "");
    if (capture(bin, "run", "-h", out, sizeof out) != 0 || !strstr(out, "--paired"))
        return err_set(e, BE_EUSAGE,
                       "ab: side %c: %s is a breakeven too old to take part in ab (its run has "
                       "no --paired)",
                       side, bin);
    return BE_OK;
}

/* The environment of side s: this one's, with its NAME=value words
 * replacing or adding; NULL-terminated, the strings not owned.  Free the
 * array. */
static char **env_of(const ab_side *s)
{
    extern char **environ;
    size_t n = 0, k = 0, i;
    char **env;
    int j;
    while (environ[n])
        n++;
    env = calloc(n + (size_t)s->nenv + 1, sizeof *env);
    if (!env)
        return NULL;
    for (i = 0; i < n; i++) {
        size_t len = strcspn(environ[i], "=");
        for (j = 0; j < s->nenv; j++)
            if (strncmp(s->env[j], environ[i], len) == 0 && s->env[j][len] == '=')
                break;
        if (j == s->nenv)
            env[k++] = environ[i];
    }
    for (j = 0; j < s->nenv; j++)
        env[k++] = (char *)s->env[j];
    env[k] = NULL;
    return env;
}

/* Starts side s as `bin run ARGS --paired S,FD,PAIR --quiet`. */
static int start(const ab_opts *o, int s, const char *bin, const char *pair, child *c, err *e)
{
    char paired[256], **env = env_of(&o->side[s]);
    const char *argv[AB_MAX_ARGS + 8];
    int sv[2], k = 0, i;
    c->name = (char)('A' + s);
    c->fd = -1;
    c->pid = 0;
    if (!env || !(c->log = tmpfile()) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        free(env);
        return err_set(e, BE_EFAIL, "ab: side %c: cannot start: %s", c->name, strerror(errno));
    }
    snprintf(paired, sizeof paired, "%c,%d,%s", c->name, sv[1], pair);
    argv[k++] = bin;
    argv[k++] = "run";
    for (i = 0; i < o->nargs; i++)
        argv[k++] = o->args[i];
    argv[k++] = "--paired";
    argv[k++] = paired;
    argv[k++] = "--quiet";
    argv[k] = NULL;
    fflush(NULL);
    c->pid = fork();
    if (c->pid == 0) {
        /* the child's end stays open across exec, the parent's does not */
        fcntl(sv[1], F_SETFD, 0);
        dup2(fileno(c->log), 1);
        dup2(fileno(c->log), 2);
        execve(bin, (char *const *)argv, env);
        _exit(127);
    }
    free(env);
    close(sv[1]);
    if (c->pid < 0) {
        close(sv[0]);
        c->pid = 0;
        return err_set(e, BE_EFAIL, "ab: side %c: cannot start: %s", c->name, strerror(errno));
    }
    c->fd = sv[0];
    return BE_OK;
}

/* The last line the side wrote (its error), into buf. */
static void last_words(child *c, char *buf, size_t size)
{
    char line[1024];
    buf[0] = '\0';
    if (!c->log)
        return;
    rewind(c->log);
    while (fgets(line, sizeof line, c->log))
        if (line[0] != '\n' && line[0] != '\r')
            snprintf(buf, size, "%s", line);
    buf[strcspn(buf, "\r\n")] = '\0';
}

static void reap(child *c, int sig)
{
    if (!c->pid)
        return;
    if (sig)
        kill(c->pid, sig);
    while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
        ;
    c->pid = 0;
}

static void hang_up(child *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* How side c ended, in words ("exited 1: <its last line>"). */
static void ended(child *c, char *buf, size_t size)
{
    char words[600];
    last_words(c, words, sizeof words);
    if (WIFSIGNALED(c->status))
        snprintf(buf, size, "was killed by signal %d", WTERMSIG(c->status));
    else
        snprintf(buf, size, "exited %d%s%s", WEXITSTATUS(c->status), words[0] ? ": " : "", words);
}

/* Side bad failed (or hung: hung set) while waiting for "what"; the other
 * side is stopped, keeping its passes as a partial run. */
static int side_failed(child *ch, int bad, int hung, const char *what, err *e)
{
    child *c = &ch[bad], *other = &ch[!bad];
    char how[800], kept[300] = "";
    reap(c, hung ? SIGKILL : 0);
    hang_up(c);
    if (hung)
        snprintf(how, sizeof how, "hung %s and was killed", what);
    else
        ended(c, how, sizeof how);
    hang_up(other);
    reap(other, 0);
    if (other->run[0])
        snprintf(kept, sizeof kept, "; side %c's passes are kept as a partial run %s", other->name,
                 other->run);
    return err_set(e, BE_EFAIL, "ab: side %c %s%s; the pair is partial", c->name, how, kept);
}

/* Waits for side c's next line into c->said; BE_OK, or the failure. */
static int next_line(const ab_opts *o, child *ch, int s, const char *what, double timeout, err *e)
{
    int r = hear(ch[s].fd, ch[s].said, sizeof ch[s].said, timeout);
    (void)o;
    if (r == 1)
        return BE_OK;
    if (r == -2) {
        hang_up(&ch[0]);
        hang_up(&ch[1]);
        reap(&ch[0], 0);
        reap(&ch[1], 0);
        return err_set(e, BE_EINTR,
                       "ab: interrupted; each side's passes so far are kept as a "
                       "partial run");
    }
    return side_failed(ch, s, r == -1, what, e);
}

/* 1 while some thread of process pid is running (state R in
 * /proc/PID/task/TID/stat); 0 when all wait, or when it cannot be read. */
static int running(pid_t pid)
{
    char path[96], line[512];
    struct dirent *de;
    DIR *d;
    int busy = 0;
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    if (!(d = opendir(path)))
        return 0;
    while (!busy && (de = readdir(d))) {
        FILE *f;
        char *p;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%ld/task/%.20s/stat", (long)pid, de->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        /* the state follows the command name, which may hold ") " */
        if (fgets(line, sizeof line, f) && (p = strrchr(line, ')')) && p[1] == ' ')
            busy = p[2] == 'R';
        fclose(f);
    }
    closedir(d);
    return busy;
}

/* Waits, AB_QUIET_S at most, until the side that just measured has no
 * thread running: a BLAS's or OpenCL runtime's worker threads spin for a
 * while after their last call (OpenBLAS's for about 2^28 cycles), and
 * would take a CPU from the other side's next visit, slowing a two-thread
 * GEMM up to twice. */
static void wait_quiet(pid_t pid)
{
    const double until = host_seconds() + AB_QUIET_S;
    const struct timespec ms = {0, 1000000};
    while (running(pid) && host_seconds() < until)
        nanosleep(&ms, NULL);
}

/* The line on stderr: "ab: visit 120 of 384, side B, 1:23 left". */
static void progress_line(const ab_opts *o, int done, int total, char side, double elapsed)
{
    double left = done > 0 ? elapsed / done * (total - done) : 2.0 * o->budget;
    if (o->quiet || !isatty(2))
        return;
    fprintf(stderr, "\rab: visit %d of %d, side %c, %d:%02d left   ", done + 1, total, side,
            (int)(left / 60.0), (int)left % 60);
    fflush(stderr);
}

/* The visits, A B B A A B …, each side's next as it comes ("ready K N":
 * its visit K of N); a side that has ended leaves its turns to the other.
 * Then both ends. */
static int pace(const ab_opts *o, child *ch, err *e)
{
    const double start = host_seconds();
    int turn, s, rc, done = 0, total[2] = {0, 0}, k;
    for (turn = 0;; turn++) {
        s = ((turn / 2) % 2 == 0) == (turn % 2 == 0) ? 0 : 1;
        if (strcmp(ch[s].said, "end") == 0)
            s = !s;
        if (strcmp(ch[s].said, "end") == 0)
            break;
        if (sscanf(ch[s].said, "ready %d %d", &k, &total[s]) != 2)
            return err_set(e, BE_EFAIL, "ab: side %c said \"%.60s\", not \"ready\"", ch[s].name,
                           ch[s].said);
        progress_line(o, done++, total[0] + total[1], ch[s].name, host_seconds() - start);
        if (say(ch[s].fd, "go\n") < 0)
            return side_failed(ch, s, 0, "", e);
        /* a visit takes its share of the budget and its setup (the first
         * builds kernels); a side silent far beyond the whole budget hangs */
        if ((rc = next_line(o, ch, s, "in a visit", o->budget + AB_GRACE_S, e)) < 0)
            return rc;
        wait_quiet(ch[s].pid);
    }
    if (!o->quiet && isatty(2))
        fputs("\r\033[K", stderr);
    for (s = 0; s < 2; s++)
        if (say(ch[s].fd, "go\n") < 0)
            return side_failed(ch, s, 0, "", e);
    for (s = 0; s < 2; s++) {
        reap(&ch[s], 0);
        if (!WIFEXITED(ch[s].status) || WEXITSTATUS(ch[s].status) != 0) {
            char how[800];
            ended(&ch[s], how, sizeof how);
            return err_set(e, BE_EFAIL, "ab: side %c %s", ch[s].name, how);
        }
    }
    return BE_OK;
}

/* Both sides' "id RUN DEVICES"; the devices must be the same. */
static int hellos(const ab_opts *o, child *ch, err *e)
{
    int s, rc;
    for (s = 0; s < 2; s++) {
        char *sp;
        /* the side loads its libraries and builds its kernels first */
        if ((rc = next_line(o, ch, s, "starting", AB_GRACE_S + 60.0, e)) < 0)
            return rc;
        int format, at = 0;
        if (strncmp(ch[s].said, "id ", 3) != 0 || !(sp = strchr(ch[s].said + 3, ' ')) ||
            sscanf(sp, " %d %n", &format, &at) != 1 || at == 0)
            return err_set(e, BE_EFAIL, "ab: side %c said \"%.60s\", not its run", ch[s].name,
                           ch[s].said);
        /* its results must be ours to compare, before any pass is spent */
        if (format < 1 || format > RESULTS_FORMAT)
            return err_set(e, BE_EUSAGE,
                           "ab: side %c writes results format %d; this breakeven reads formats 1 "
                           "to %d",
                           ch[s].name, format, RESULTS_FORMAT);
        snprintf(ch[s].run, sizeof ch[s].run, "%.*s", (int)(sp - ch[s].said - 3), ch[s].said + 3);
        snprintf(ch[s].devices, sizeof ch[s].devices, "%s", sp + at);
    }
    if (strcmp(ch[0].devices, ch[1].devices) != 0)
        return err_set(e, BE_EUSAGE,
                       "ab: the sides measure different devices: A %s, B %s (a pair compares "
                       "the same grid on the same devices)",
                       ch[0].devices, ch[1].devices);
    /* each side's CPU time is the other's own, not others' (machstate.h) */
    for (s = 0; s < 2; s++) {
        char line[64];
        snprintf(line, sizeof line, "sibling %ld\n", (long)ch[!s].pid);
        if (say(ch[s].fd, line) < 0)
            return side_failed(ch, s, 0, "", e);
    }
    /* both have built their kernels: the first visits from here on */
    for (s = 0; s < 2; s++)
        if ((rc = next_line(o, ch, s, "starting", AB_GRACE_S + 60.0, e)) < 0)
            return rc;
    return BE_OK;
}

/* The provenance differences, first: what the pair is about. */
static void print_differences(const compare_set *s)
{
    int i;
    if (s->ndiffs == 0)
        printf("what differs: nothing in the two runs' provenance\n");
    for (i = 0; i < s->ndiffs; i++)
        printf("what differs: %s: %s \xe2\x86\x92 %s\n", s->diffs[i].what, s->diffs[i].a,
               s->diffs[i].b);
}

void ab_opts_from(ab_opts *o, const cli *c)
{
    int i, s;
    memset(o, 0, sizeof *o);
    for (s = 0; s < 2; s++) {
        snprintf(o->side[s].binary, sizeof o->side[s].binary, "%s", c->ab_binary[s]);
        o->side[s].nenv = c->ab_nenv[s];
        for (i = 0; i < c->ab_nenv[s]; i++)
            o->side[s].env[i] = c->ab_env[s][i];
    }
    o->args[o->nargs++] = "--out";
    o->args[o->nargs++] = c->out;
    for (i = 0; i < c->npass && o->nargs + 8 < AB_MAX_ARGS; i++) {
        snprintf(o->names[i], sizeof o->names[i], "--%s", cli_option_name(c->pass_opt[i]));
        o->args[o->nargs++] = o->names[i];
        if (c->pass_val[i])
            o->args[o->nargs++] = c->pass_val[i];
    }
    snprintf(o->passes_word, sizeof o->passes_word, "%d", c->plan.passes);
    snprintf(o->budget_word, sizeof o->budget_word, "%.17g", c->plan.budget);
    o->args[o->nargs++] = "--passes";
    o->args[o->nargs++] = o->passes_word;
    o->args[o->nargs++] = "--budget";
    o->args[o->nargs++] = o->budget_word;
    /* both sides measure the same grid: no refinement of either's own */
    o->args[o->nargs++] = "--no-refine";
    o->passes = c->plan.passes;
    o->budget = c->plan.budget;
    o->quiet = c->quiet;
    compare_opts_default(&o->cmp);
    if (c->threshold > 0.0)
        o->cmp.threshold = c->threshold;
    if (c->alpha > 0.0)
        o->cmp.alpha = c->alpha;
}

int ab_run(const ab_opts *o, compare_format f, int *gate, err *e)
{
    child ch[2];
    char self[2][2048], pair[64], page[4200];
    const char *bin[2], *ra, *rb;
    compare_set cmp;
    int s, rc;
    memset(ch, 0, sizeof ch);
    ch[0].fd = ch[1].fd = -1;
    *gate = 4;
    for (s = 0; s < 2; s++) {
        bin[s] = binary_of(&o->side[s], self[s], sizeof self[s]);
        if ((rc = check_binary((char)('A' + s), bin[s], e)) < 0)
            return rc;
    }
    host_utc_now(pair, sizeof pair, 1);
    fmt_append(pair, sizeof pair, "-ab%ld", (long)getpid());
    for (s = 0; s < 2; s++)
        if ((rc = start(o, s, bin[s], pair, &ch[s], e)) < 0)
            goto out;
    if (!o->quiet)
        fprintf(stderr,
                "ab: pair %s: %d passes a side, alternating A B B A, budget %.0f s a side\n", pair,
                o->passes, o->budget);
    if ((rc = hellos(o, ch, e)) < 0 || (rc = pace(o, ch, e)) < 0)
        goto out;
    ra = ch[0].run;
    rb = ch[1].run;
    if (o->lock && (rc = outlock_take(o->lock, o->pages.stop, e)) < 0)
        goto out;
    rc = report_compare(&o->pages, &ra, 1, &rb, 1, &o->cmp, &cmp, page, sizeof page, e);
    if (o->lock)
        outlock_give(o->lock);
    if (rc < 0)
        goto out;
    /* JSON and CSV are for programs: the differences are in JSON's own
     * field, and the page's path on stderr */
    if (f == COMPARE_TEXT || f == COMPARE_MARKDOWN)
        print_differences(&cmp);
    compare_write(stdout, &cmp, f);
    *gate = compare_gate_status(&cmp);
    if (f == COMPARE_TEXT)
        printf("%s\n", page);
    else if (!o->quiet)
        fprintf(stderr, "%s\n", page);
    compare_free(&cmp);
out:
    for (s = 0; s < 2; s++) {
        hang_up(&ch[s]);
        reap(&ch[s], rc < 0 ? SIGTERM : 0);
        if (ch[s].log)
            fclose(ch[s].log);
    }
    return rc;
}
