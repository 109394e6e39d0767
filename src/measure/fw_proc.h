/*
 * fw_proc.h — the framework adapters' processes (framework.c): the command
 * line of each, its start in a process group of its own, its CPU time, and
 * the processes that escape its group.  Apart from the protocol, which
 * framework.c speaks, so that each file says one thing.
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

/* In the child: fd 3 the socket, 0 /dev/null, 1 and 2 the log; dies with
 * its parent; its own process group.  Never returns. */
void fw_child(int sock, int logfd, pid_t parent, char **argv);

/* Process pid's CPU ticks (utime + stime of /proc/PID/stat); *ok 0 and 0
 * when they cannot be read. */
unsigned long long fw_ticks(pid_t pid, int *ok);

#endif
