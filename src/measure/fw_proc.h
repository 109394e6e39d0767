/*
 * fw_proc.h — the framework adapters' processes (framework.c): the command
 * line of each, its start in a process group of its own under a keeper
 * process, its CPU time, and the processes that escape its group.  Apart
 * from the protocol, which framework.c speaks, so that each file says one
 * thing.
 */
#ifndef BE_FW_PROC_H
#define BE_FW_PROC_H

#include <stddef.h>
#include <sys/types.h>

#define FW_FD 3 /* the protocol's socket in the adapter */

/* The interpreters of the adapters: Debian's, whose packages (python3-torch)
 * make deps installs, unless BREAKEVEN_PYTHON or BREAKEVEN_NODE names
 * another (a GPU machine's PyTorch with CUDA lives in its own Python). */
#define FW_PYTHON "/usr/bin/python3"
#define FW_NODE "/usr/bin/node"

/* The adapter's command line for device id into argv (its strings in buf,
 * of size bytes; adapters the directory of the shipped ones); BE_EFAIL
 * with why when it cannot be run. */
int fw_command(const char *id, const char *adapters, char *buf, size_t size, char **argv, char *why,
               size_t wsize);

/* The adapter's keeper, the child breakeven forks for each adapter: a
 * subreaper (PR_SET_CHILD_SUBREAPER) between breakeven and the adapter, so
 * that whatever the adapter starts and leaves (a daemon's double fork
 * included) becomes the keeper's child, not init's.  It starts the adapter
 * (argv; the socket sock its fd 3, its output to logfd), writes its pid (a pid_t) to
 * report, then its wait status (an int) once it ends; when life reads end
 * of file (breakeven closed it, or died: SIGKILL too) it kills the
 * adapter's group and every child it has, round after round, and exits.
 * Ignores SIGINT, SIGTERM and SIGPIPE: breakeven decides when it ends.
 * Never returns. */
void fw_keeper(int sock, int logfd, int life, int report, char **argv);

/* The adapter's wait status from its keeper's report pipe (fw_keeper)
 * into *ws, waiting wait seconds at most: 1 when it has ended, 0 else
 * (report -1: none). */
int fw_ended(int report, int *ws, double wait);

/* Process pid's CPU ticks (utime + stime of /proc/PID/stat); *ok 0 and 0
 * when they cannot be read. */
unsigned long long fw_ticks(pid_t pid, int *ok);

#endif
