/*
 * machstate.h — the state of the machine while a pass of the sweep runs.
 *
 * A timing is only as good as the machine was quiet.  The sweep marks the
 * start of every pass (machstate_begin) and reads the machine at its end
 * (machstate_end): the load average, how much of the CPU other processes
 * and the hypervisor (steal) took compared with breakeven itself, the CPU
 * frequency and the hottest thermal zone.  The readings are stored with the
 * pass in the results (results.h, rs_pass) so that a reader can judge a run,
 * and `run` (cmd_run.c) warns when others used a noticeable share of the CPU.
 *
 * Everything comes from /proc and /sys.  A reading the system does not
 * expose (no cpufreq, no thermal zones, no /proc) is simply not recorded
 * (its has_ flag stays 0); it is never an error.
 */
#ifndef BE_MACHSTATE_H
#define BE_MACHSTATE_H

/* What others and the hypervisor (steal) took of the CPUs during a pass,
 * counted in CPUs, from which on the pass's timings are suspect: half of
 * one CPU, whatever the machine's size.  One process busy on one core is
 * a whole CPU (it stalls a BLAS that runs a thread on every core), while
 * the hypervisor's steal of a quiet 16-core VM (the committed H100 run:
 * 1.1% at most, 0.18 of a CPU) is not.  docs/statistics.md gives the
 * data behind it (query.h, q_pass_busy, applies it). */
#define MACHSTATE_BUSY_CPUS 0.5

/* CPU time counters, in clock ticks, at one instant. */
typedef struct machstate_ticks {
    int ok;                   /* 1 when /proc/stat and /proc/self/stat were read */
    unsigned long long total; /* all CPUs, every state (idle included)          */
    unsigned long long busy;  /* all CPUs, neither idle nor iowait (steal apart) */
    unsigned long long steal; /* taken by the hypervisor                          */
    unsigned long long self;  /* this process, every thread: utime + stime       */
} machstate_ticks;

#define MACHSTATE_MAX_PIDS 16

/* The start of an interval. */
typedef struct machstate_mark {
    machstate_ticks ticks;
    int npids;                    /* processes whose CPU time is breakeven's */
    int pids[MACHSTATE_MAX_PIDS]; /* own too: the other side of an `ab` pair,
                                      whose visits alternate with this one's */
} machstate_mark;

/* What the machine did over an interval (shares are of all CPUs' time). */
typedef struct machstate {
    int has_cpu;       /* self_cpu, others_cpu and steal are set      */
    double self_cpu;   /* used by breakeven                            */
    double others_cpu; /* used by everything else (kernel work too)   */
    double steal;      /* stolen by the hypervisor                     */
    int has_loadavg;
    double loadavg; /* 1-minute load average at the end (ours included) */
    int has_freq;
    double freq_mhz; /* mean current frequency of the online CPUs   */
    int has_temp;
    double temp_c; /* the hottest thermal zone                     */
} machstate;

/* Marks the start of an interval; pids[0..npids) as in machstate_mark
 * (those past MACHSTATE_MAX_PIDS, and any ≤ 0, are left out). */
void machstate_begin(machstate_mark *m, const int *pids, int npids);
/* Reads the machine at the end of the interval that m started. */
void machstate_end(const machstate_mark *m, machstate *out);
/* The same, with ours more clock ticks of other processes counted as
 * breakeven's own (a framework adapter's within its visits). */
void machstate_end_with(const machstate_mark *m, unsigned long long ours, machstate *out);

/* The pieces, exposed for the tests.  Each returns 1 when text could be
 * read, 0 otherwise. */
/* The aggregate "cpu " line of /proc/stat. */
int machstate_parse_stat(const char *text, machstate_ticks *t);
/* utime + stime of /proc/<pid>/stat (the command name may hold spaces and
 * parentheses). */
int machstate_parse_self(const char *text, unsigned long long *ticks);
/* The shares over the interval from a to b into out (has_cpu = 0 when
 * either reading failed or no time passed). */
void machstate_shares(const machstate_ticks *a, const machstate_ticks *b, machstate *out);

#endif
