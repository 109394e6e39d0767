/*
 * outlock.h — one writer at a time per OUT.
 *
 * Every command that writes in OUT holds an exclusive flock(2) on
 * OUT/.lock while it writes: `report` (and `all`'s report, with the
 * imports into OUT/runs it makes), `compare`'s page, `refit` and `decide`
 * of a run in OUT, `ab`'s comparison, and `run`'s writes.  A lock of the
 * kernel's, not a file made and removed: the kernel releases it when its
 * holder dies, however it dies (SIGKILL, a crash), so no stale lock
 * outlives its process and nothing has to judge whether a holder still
 * runs.  A writer that finds another holding it waits, with one note
 * naming that writer's pid (each holder writes its pid into the file),
 * or, asked not to (--no-wait), fails with one line naming it.
 *
 * What it buys: whatever a writer finds that another left half-done (the
 * publish list OUT/.publish.pending and the stage files it names, which
 * site.c recovers) belongs to a writer that is gone, since every live
 * writer holds the lock; recovering it under the lock never rolls back a
 * live report's staged files.  Two reports at once used to: each took any
 * pending list for an abandoned one.
 *
 * `run` measures without the lock (a sweep of hours must not hold off the
 * reports of others): it takes it only to write (its run directory, its
 * checkpoints, its final file and charts) and gives it back at once.  A
 * checkpoint never waits (outlock_try): when another holds the lock it is
 * skipped, and the next one saves the same points and more.
 *
 * The lock belongs to an open file description, which fork shares:
 * processes forked while it is held (report --jobs) hold it with their
 * parent.  They never take it again (the depth they inherit makes a take
 * a no-op, where a new open would wait for the parent forever) and never
 * give it with LOCK_UN, which would release it for the parent too:
 * outlock_give only closes its descriptor, and the lock ends when the
 * last process holding the description has closed it.
 */
#ifndef BE_OUTLOCK_H
#define BE_OUTLOCK_H

#include <signal.h>

#include "err.h"

#define OUTLOCK_FILE ".lock"

/* Where a note goes while a command waits (the command prints it). */
typedef void (*outlock_note_fn)(void *ctx, const char *line);

typedef struct outlock {
    const char *out;      /* OUT as named (borrowed)                         */
    int fd;               /* OUT/.lock while held, else -1                   */
    int depth;            /* takes not given back yet                        */
    int no_wait;          /* --no-wait: fail rather than wait, until the
                             command first held the lock (a run measured
                             then waits to save: its sweep is never lost)   */
    outlock_note_fn note; /* the waiting note; NULL: none                    */
    void *note_ctx;
} outlock;

/* A lock on out, not held.  note may be NULL. */
void outlock_init(outlock *l, const char *out, int no_wait, outlock_note_fn note, void *ctx);

/* Holds the lock: at once when this process holds it already (depth
 * counted), else OUT made when missing, OUT/.lock opened (created when
 * missing; a link, anything but a regular file, or a file with other
 * names is refused with one line naming it) and locked, waiting while
 * another process holds it, after one note "waiting for another
 * breakeven writing OUT (pid N)".  With no_wait set, BE_EFAIL instead:
 * "another breakeven is writing OUT (pid N); not waiting (--no-wait)".
 * stop (may be NULL) ends the wait: BE_EINTR.  Then this process's pid
 * goes into the file, for the notes of others. */
int outlock_take(outlock *l, volatile sig_atomic_t *stop, err *e);

/* outlock_take without waiting (and without a note, whatever no_wait
 * says): *held 1 when the lock is held now (give it back), 0 when
 * another process holds it. */
int outlock_try(outlock *l, int *held, err *e);

/* Gives back one take; the lock is released (the descriptor closed,
 * never LOCK_UN: see above) with the last.  Nothing when not held. */
void outlock_give(outlock *l);

/* Gives back every take: the lock is released. */
void outlock_drop(outlock *l);

#endif
