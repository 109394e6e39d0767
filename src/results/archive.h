/*
 * archive.h — the runs a report is made of: OUT/runs/<id>/results.xml,
 * found, loaded and put in order.
 *
 * A run is named by its id (a directory under OUT/runs/), by a directory or
 * by a results file anywhere; each is loaded through results_load (schema
 * and all), sorted by start time, linked to the previous run of the same
 * host, and placed under OUT/runs/<id>/ with its charts when it came from
 * elsewhere.  Runs from several hosts can be merged into one model whose
 * devices are "<host>/<id>", for the charts that put every host side by
 * side.  Drawing a run's charts is archive_place.h's business, the pages
 * made of the runs report.c's: this module loads and files runs, and
 * writes no more than an imported run's move into place.
 *
 * Results files come from other machines, so the archive defends itself:
 * OUT/runs/ and every run directory in it must be real directories (not
 * symbolic links that would take writes out of OUT), a run's results file
 * (results.xml.gz, or results.xml from before 0.3)
 * a regular file holding that very run id; a run of the archive that
 * cannot be loaded (or, says report.c, rendered) is skipped with a note,
 * and the rest is reported.  An imported run never replaces an archived
 * one: with the same id and the same samples it is the archived run; with
 * other samples it is stored under a new id ("<id>-2", ...), with a note.
 * An imported run's files are made in a staging directory
 * OUT/runs/.import-PID-XXXXXX and only moved to OUT/runs/<id> by
 * archive_commit, once everything rendered; an uncommitted staging
 * directory is removed by archive_run_free.  All three relative to OUT
 * through no link (fsx_stage_in, renameat, fsx_unstage_in), OUT being the
 * directory two above a run's dir.
 */
#ifndef BE_ARCHIVE_H
#define BE_ARCHIVE_H

#include "results.h"

#define ARCHIVE_PATH 4096

/* A run's results in OUT/runs/<id>/: gzip-compressed since 0.3 (gz.h),
 * plain XML as 0.1 and 0.2 wrote them (still loaded, never rewritten). */
#define ARCHIVE_RESULTS "results.xml.gz"
#define ARCHIVE_RESULTS_OLD "results.xml"
#define ARCHIVE_NOTE 640
#define ARCHIVE_NOTES 16

typedef struct archive_run {
    results *r;               /* owned                                     */
    char src[ARCHIVE_PATH];   /* the results.xml loaded                    */
    char dir[ARCHIVE_PATH];   /* OUT/runs/<id>                             */
    char stage[ARCHIVE_PATH]; /* where an imported run's files wait for
                                  archive_commit, or ""                     */
    int imported;             /* loaded from outside OUT/runs/<id>/        */
    int entered;              /* moved into OUT/runs/<id> by archive_commit */
    int prev;                 /* the previous run on the same host, or −1  */
} archive_run;

typedef struct archive {
    int n;
    archive_run *v;                          /* owned, sorted by start time, oldest first */
    int nnotes;                              /* runs skipped or imported under a new id   */
    char notes[ARCHIVE_NOTES][ARCHIVE_NOTE]; /* the first of them, one line each */
} archive;

/* Loads the runs given (ids under out/runs/, directories or files), then
 * every other run under out/runs/, into *a: a report of some runs is the
 * site of all of them, the given ones imported or refreshed.  Every run
 * under out/runs/ that was not given: one
 * that cannot be loaded is skipped with a note (when none can, the first
 * failure is the error).  Runs given: each must load; an imported one
 * whose id is archived already is that run (same samples) or gets a new
 * id, with a note.  BE_EUSAGE when there is no run or a run is given
 * twice; the loader's "file:line: ..." otherwise.  Free with
 * archive_free. */
/* What archive_load does with each run instead of keeping its whole model
 * (the report keeps a digest, cache.h): given(ctx, a, i) after run i of
 * the command line is loaded (and, imported, placed under its id: see
 * archive_place); archived(ctx, out, id, u) loads the archive's run id
 * into *u as archive_load_archived would (the checks of archive_check_run
 * first), or fails, and the run is skipped with the note "skipped run
 * <id>: why" (BE_EINTR: archive_load stops, with that error). */
typedef struct archive_hooks {
    void *ctx;
    int (*given)(void *ctx, archive *a, int i, err *e);
    int (*archived)(void *ctx, const char *out, const char *id, archive_run *u, err *e);
} archive_hooks;

int archive_load(const char *out, const char *const *runs, int nruns, const archive_hooks *hk,
                 archive *a, err *e);
void archive_free(archive *a);

/* The ids of the newest runs under out/runs/ (the directories whose names
 * sort last: an id begins with its UTC start) that sort before below,
 * at most max, newest first, into ids[0..max); returns how many (0 when
 * out/runs/ is missing or cannot be read: no earlier run).  Each is to be
 * loaded and checked as any run of the archive (archive_load_archived). */
#define ARCHIVE_ID 128
int archive_newest(const char *out, const char *below, char (*ids)[ARCHIVE_ID], int max);
/* Run id of the archive, checked without loading it: OUT/runs/<id> a real
 * directory, its results file a regular file; *u receives its dir and src
 * (u->r stays NULL). */
int archive_check_run(const char *out, const char *id, archive_run *u, err *e);
/* Run id of the archive, loaded (archive_check_run, then the results,
 * which must hold run id), through the memo m of the loads of this
 * process (results.h; NULL: none). */
int archive_load_archived(const char *out, const char *id, results_memo *m, archive_run *u, err *e);

/* Appends a copy of *u (a takes over what it owns). */
int archive_add(archive *a, const archive_run *u, err *e);

/* Loads one run (as archive_load names it) into *u; free with
 * archive_run_free (which also removes an uncommitted staging directory). */
int archive_load_run(const char *out, const char *arg, archive_run *u, err *e);
void archive_run_free(archive_run *u);

/* OUT of run u, whose dir is OUT/runs/<id> (archive_load_run,
 * archive_check_run and the import of a run whose id is taken make it so,
 * and an id holds no "/"): the root below which its files are written
 * through no link (fsx.h). */
void archive_run_root(const archive_run *u, char *buf, size_t size);

/* The results file of the run directory dir into path: results.xml.gz,
 * or results.xml when only that exists (when neither does, results.xml:
 * the name an error about a missing run gives). */
void archive_results_in(const char *dir, char *path, size_t size);

/* The name of u's results file in its directory, for a link. */
const char *archive_results_name(const archive_run *u);

/* Where the run's files are now: its staging directory or OUT/runs/<id>. */
const char *archive_files(const archive_run *u);

/* Moves an imported run's staging directory to OUT/runs/<id> (which must
 * not exist); nothing to do for an archived run. */
int archive_commit(archive_run *u, err *e);

/* Takes an imported run that archive_commit moved into OUT/runs/<id> out
 * again (its files and directory removed, through no link: fsx_unstage_in)
 * when the report it came with was not published: OUT is as it was, and
 * the file it was imported from is where it was.  Nothing for any other
 * run. */
void archive_withdraw(archive_run *u);

/* Drops run i from the archive (a run that cannot be rendered) with the
 * note "skipped run <id> (<results file>): why"; the links to previous
 * runs are made again. */
void archive_skip(archive *a, int i, const char *why);

/* The newest run of every machine (a host name and its hardware's
 * fingerprint, q_same_machine) merged into one model, devices renamed
 * "<host>/<id>" ("<host>~<fingerprint>/<id>" when two machines share the
 * name); *out stays NULL when fewer than two such runs are alike.  Runs
 * unlike the newest (another number of layers) are left out, and why
 * (why[0..whysize)) says which and why ("" when none).  *nhosts receives
 * the number of machines merged; *out is the caller's to free. */
int archive_merge_hosts(const archive *a, results **out, int *nhosts, char *why, size_t whysize,
                        err *e);

#endif
