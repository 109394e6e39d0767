/*
 * stop.c — the signal handlers of the commands that write (stop.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "stop.h"

#include <string.h>

/* The one piece of file-scope mutable state in breakeven: a signal handler
 * can reach nothing else (it gets no context argument), and a
 * volatile sig_atomic_t is the only object it may write. */
static volatile sig_atomic_t stop_raised;

static void on_signal(int sig)
{
    (void)sig;
    stop_raised = 1;
}

void stop_catch(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    size_t i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

volatile sig_atomic_t *stop_flag(void)
{
    return &stop_raised;
}

int stop_requested(void)
{
    return stop_raised != 0;
}
