/*
 * fw_proc.c — the framework adapters' processes (fw_proc.h).
 */
#define _GNU_SOURCE
#include "fw_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "framework.h"
#include "fsx.h"
#include "host.h"

int fw_command(const char *id, const char *adapters, char *buf, size_t size, char **argv, char *why,
               size_t wsize)
{
    int n = 0;
    if (strncmp(id, "ref:", 4) == 0) {
        const char *ref = getenv("BREAKEVEN_REF_ADAPTER");
        if (!ref || !*ref) {
            snprintf(why, wsize,
                     "the reference adapter is a test device: set BREAKEVEN_REF_ADAPTER to "
                     "its program");
            return BE_EFAIL;
        }
        snprintf(buf, size, "%s", ref);
        argv[n++] = buf;
    } else {
        /* torch:DEV: Debian's python3 and torch_adapter.py DEV; ort:DEV:
         * node and ort_adapter.js DEV */
        const int torch = strncmp(id, "torch:", 6) == 0;
        const char *interp = getenv(torch ? "BREAKEVEN_PYTHON" : "BREAKEVEN_NODE");
        int k = snprintf(buf, size, "%s",
                         interp && *interp ? interp
                         : torch           ? FW_PYTHON
                                           : FW_NODE) +
                1;
        argv[n++] = buf;
        snprintf(buf + k, size - (size_t)k, "%s/%s", adapters,
                 torch ? "torch_adapter.py" : "ort_adapter.js");
        argv[n++] = buf + k;
        k += (int)strlen(buf + k) + 1;
        snprintf(buf + k, size - (size_t)k, "%s", strchr(id, ':') + 1);
        argv[n++] = buf + k;
        if (access(argv[1], R_OK) != 0) {
            snprintf(why, wsize, "no adapter %s", argv[1]);
            return BE_EFAIL;
        }
    }
    argv[n++] = "--fd";
    argv[n++] = "3";
    argv[n] = NULL;
    if (access(argv[0], X_OK) != 0) {
        snprintf(why, wsize, "%s: %s", argv[0], strerror(errno));
        return BE_EFAIL;
    }
    return BE_OK;
}

/* In the child: fd 3 the socket, 0 /dev/null, 1 and 2 the log; dies with
 * its parent, the keeper; its own process group.  Never returns. */
static void exec_adapter(int sock, int logfd, pid_t parent, char **argv)
{
    int nul;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    setpgid(0, 0);
    nul = open("/dev/null", O_RDONLY);
    if (nul < 0 || dup2(nul, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0)
        _exit(127);
    if (sock == FW_FD)
        fcntl(sock, F_SETFD, 0);
    else if (dup2(sock, FW_FD) < 0)
        _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    execv(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Closes every descriptor but 0, 1, 2 and keep[0..n): breakeven's other
 * adapters' sockets and keepers' pipes, which a keeper holding them would
 * keep open past breakeven's end. */
static void close_others(const int *keep, int n)
{
    int fds[1024], nfds = 0, i, j;
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *de;
    if (!dir)
        return;
    while ((de = readdir(dir)) && nfds < 1024) {
        int fd = atoi(de->d_name), kept = fd <= 2 || fd == dirfd(dir);
        for (j = 0; j < n && !kept; j++)
            kept = fd == keep[j];
        if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !kept)
            fds[nfds++] = fd;
    }
    closedir(dir);
    for (i = 0; i < nfds; i++)
        close(fds[i]);
}

/* The children of this process, into pids[0..max); how many. */
static int children(pid_t *pids, int max)
{
    DIR *dir = opendir("/proc");
    struct dirent *de;
    const pid_t self = getpid();
    int n = 0;
    if (!dir)
        return 0;
    while ((de = readdir(dir)) && n < max) {
        char path[64], line[512], *close_paren;
        long ppid;
        FILE *f;
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        /* "pid (comm) state ppid …": the name may hold spaces and parentheses */
        if (fgets(line, sizeof line, f) && (close_paren = strrchr(line, ')')) &&
            sscanf(close_paren + 1, " %*c %ld", &ppid) == 1 && ppid == (long)self)
            pids[n++] = (pid_t)atol(de->d_name);
        fclose(f);
    }
    closedir(dir);
    return n;
}

/* Kills every child of this process, round after round: each round kills
 * what the last one's deaths handed over (their own children, adopted by
 * this subreaper). */
static void end_children(void)
{
    pid_t pids[256];
    int round, n, i, ws;
    for (round = 0; round < 64 && (n = children(pids, 256)) > 0; round++)
        for (i = 0; i < n; i++) {
            kill(pids[i], SIGKILL);
            waitpid(pids[i], &ws, 0);
        }
}

void fw_keeper(int sock, int logfd, int life, int report, char **argv)
{
    const int keep[4] = {sock, logfd, life, report};
    const pid_t self = getpid();
    struct pollfd pf[2];
    sigset_t chld;
    pid_t pid, w;
    int ws, ended = 0, sfd;
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    close_others(keep, 4);
    /* SIGCHLD read from a descriptor, blocked from before the fork so that
     * none is lost */
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    sfd = signalfd(-1, &chld, SFD_CLOEXEC);
    if ((pid = fork()) == 0) {
        sigprocmask(SIG_UNBLOCK, &chld, NULL);
        close(life);
        close(report);
        exec_adapter(sock, logfd, self, argv);
    }
    if (pid < 0)
        _exit(127);
    setpgid(pid, pid); /* also here: whichever runs first */
    close(sock);
    close(logfd);
    (void)fsx_write_fd(report, &pid, sizeof pid);
    pf[0] = (struct pollfd){.fd = life, .events = POLLIN};
    pf[1] = (struct pollfd){.fd = sfd, .events = POLLIN};
    for (;;) {
        /* without a signalfd, a look at the children every 10 ms */
        int n = poll(pf, sfd >= 0 ? 2 : 1, sfd >= 0 ? -1 : 10);
        if (n < 0 && errno != EINTR)
            break;
        if (sfd >= 0 && n > 0 && pf[1].revents) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof si) < 0 && errno != EAGAIN)
                break;
        }
        while ((w = waitpid(-1, &ws, WNOHANG)) > 0)
            if (w == pid && !ended) {
                ended = 1;
                (void)fsx_write_fd(report, &ws, sizeof ws);
            }
        if (n > 0 && pf[0].revents)
            break;
    }
    kill(-pid, SIGKILL);
    if (!ended)
        kill(pid, SIGKILL);
    end_children();
    _exit(0);
}

int fw_ended(int report, int *ws, double wait)
{
    const double deadline = host_seconds() + wait;
    struct pollfd p = {report, POLLIN, 0};
    ssize_t n;
    if (report < 0)
        return 0;
    for (;;) {
        double left = deadline - host_seconds();
        int rc = poll(&p, 1, left > 0.0 ? (int)(left * 1000.0) : 0);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return 0;
        break;
    }
    while ((n = read(report, ws, sizeof *ws)) < 0 && errno == EINTR)
        ;
    return n == (ssize_t)sizeof *ws;
}

unsigned long long fw_ticks(pid_t pid, int *ok)
{
    char path[64], line[1024], *close_paren;
    unsigned long long ut, st;
    FILE *f;
    *ok = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (pid <= 0 || !(f = fopen(path, "r")))
        return 0;
    /* fields 14 and 15, after "pid (comm) state" and ten more */
    *ok = fgets(line, sizeof line, f) && (close_paren = strrchr(line, ')')) &&
          sscanf(close_paren + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
                 &st) == 2;
    fclose(f);
    return *ok ? ut + st : 0;
}

void framework_strays(void)
{
    end_children();
}
