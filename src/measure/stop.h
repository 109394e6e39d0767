/*
 * stop.h — the one signal path of every command that writes.
 *
 * main.c calls stop_catch once, before any command that writes (run, all,
 * report, compare, refit, decide, tune) begins; SIGINT, SIGTERM and SIGHUP
 * then only raise a flag, which the modules are handed as a `volatile
 * sig_atomic_t *stop` (stop_flag) and check between files.  So a signal
 * never cuts a write short: every file is the previous one or the new one,
 * whole, and every temporary file is removed by the writer that made it
 * (fsx.h) on its way out, so there is no list of temporaries for a handler
 * to clean.  What SIGKILL or a power cut leaves behind (NAME.tmp.PID.XXXXXX,
 * runs/.import-PID-XXXXXX) names the process that made it, and the next
 * command removes it once that process is gone (fsx_sweep_in).
 */
#ifndef BE_STOP_H
#define BE_STOP_H

#include <signal.h>

/* Installs the handlers of SIGINT, SIGTERM and SIGHUP (flag only, no
 * SA_RESTART: a blocking read or wait returns EINTR and its loop checks the
 * flag).  Idempotent. */
void stop_catch(void);

/* The flag the handlers raise: 1 once a signal came after stop_catch. */
volatile sig_atomic_t *stop_flag(void);

/* *stop_flag(), for a caller that only asks. */
int stop_requested(void);

#endif
