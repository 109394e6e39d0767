/*
 * choice.h — the device to use at a batch, among every device measured.
 *
 * netfit.h sets each other device against the base (the CPU) one pair at
 * a time; a program with two accelerators needs them set against one
 * another too.  Here, per network, mode and view, at each batch measured,
 * every device with an ok point there is ranked by its median step time
 * (q_summary_in: the host device's resident time, another's in the view)
 * with its 95% interval, the one the report's tables show.  The answer is
 * the device with the lowest median, unless another device is tied with
 * it (CHOICE_CLOSE: medians within CHOICE_TIE_FACTOR, intervals that
 * overlap and inform): then the batch is too close to call, and the rule
 * (CHOICE_RULE) picks one of them.  An interval too wide to inform
 * (q_ci_uninformative) never makes a tie: a busy host's CPU interval of
 * "0.0332 µs to 513 s" overlaps every device's, and took the CPU by the
 * rule at every batch, against a device 10× faster.  At a batch that was not measured
 * the answer is a measured batch's (choice_at says which).
 *
 * A program runs in one stack (query.h's q_stack: OpenBLAS with
 * breakeven's OpenCL kernels, or PyTorch, or ONNX Runtime): an answer that
 * puts batch 16 in OpenBLAS and batch 64 in PyTorch on the GPU is not a
 * program anyone runs.  So a run whose devices belong to several stacks is
 * decided per stack: each stack's groups hold its own devices, its CPU
 * device the host (q_base_for's rule: the CPU device of the stack, else the
 * run's base).  A run of one stack has one set of groups among every
 * device, as before stacks; so has a run measured with `--base`
 * (prov.base), whose user chose one comparison across stacks.  Pure: a
 * loaded results model in, numbers out; decide.h writes them for programs.
 */
#ifndef BE_CHOICE_H
#define BE_CHOICE_H

#include "results.h"

/* The most one median of a tie may exceed the fastest one: the 10% of
 * Q_WIDE, the band within which an interval is not flagged wide.  Two default
 * runs on the quiet development machine had intervals of ±11% (median
 * half-width, docs/statistics.md): medians 10% apart are what a rerun
 * moves; further apart, overlapping intervals say the intervals are wide,
 * not that the devices are alike. */
#define CHOICE_TIE_FACTOR 1.10
#define CHOICE_STR_(x) #x
#define CHOICE_STR(x) CHOICE_STR_(x)

/* The rule for a batch too close to call, in the words decision.json,
 * `which` and the header give. */
#define CHOICE_CLOSE                                                                         \
    "too close to call: another device's median step time within " CHOICE_STR(               \
        CHOICE_TIE_FACTOR) "x the fastest one's and "                                        \
                           "its 95% interval overlapping the fastest one's, both intervals " \
                           "informative"
#define CHOICE_UNINFORMATIVE                                                                    \
    "an interval is uninformative when its upper end is more than 2x its lower, its lower end " \
    "is 0 or less, or an end is not finite: flagged, and never taken as a tie; an answer "      \
    "whose fastest device, or a device within " CHOICE_STR(                                     \
        CHOICE_TIE_FACTOR) "x of it, has one is flagged uninformative "                         \
                           "(it rests on the medians alone: measure again on a quieter machine)"
#define CHOICE_CONTENTION                                                                      \
    "the lower end of the interval of a device that computes on the host's CPUs (the CPU, an " \
    "OpenCL device of type CPU) is lowered by the largest share of the CPU other processes "   \
    "took while it was measured (its contention), as a quiet host could run it that much "     \
    "faster; a device with its own silicon (a GPU) is not"
#define CHOICE_RULE                                                                              \
    "take the host device (the CPU), which already holds the program's data, when it is within " \
    "reach, else the one with the lowest median"
#define CHOICE_RULE_STACKS                                                                       \
    "a run of several stacks (OpenBLAS with breakeven's OpenCL kernels, PyTorch, ONNX Runtime) " \
    "is decided per stack, among that stack's devices, its CPU device the host: a program runs " \
    "in one stack; a stack with one device has nothing to choose"
#define CHOICE_RULE_ACROSS                                                                     \
    "the run chose its base (--base): one choice among every device of every stack, the base " \
    "the host, as that comparison asked"
#define CHOICE_RULE_BETWEEN                                                                  \
    "between two measured batches: the answer of the nearer one in log(batch), the smaller " \
    "on a tie; marked between when the two name different devices"
#define CHOICE_RULE_OUTSIDE \
    "outside the measured batches: the answer of the nearest end, marked extrapolated"

/* One device's step time at a batch. */
typedef struct choice_time {
    int dev;               /* its index in results.devices       */
    double median, lo, hi; /* seconds: median and 95% interval   */
    int tied;              /* 1: tied with the fastest (CHOICE_CLOSE;
                              the fastest itself: 0)             */
    int uninformative;     /* its interval: q_ci_uninformative   */
} choice_time;

/* The answer at one measured batch. */
typedef struct choice_cell {
    int batch;
    int n;                           /* devices with an ok point in the view here */
    choice_time *t;                  /* t[0..n), ascending by median; owned       */
    int close;                       /* 1: some device is tied with t[0]          */
    int uninformative;               /* t[0]'s interval, or that of a device
                                        within CHOICE_TIE_FACTOR of it, is
                                        uninformative                            */
    int pick;                        /* the index in t of the answer (the rule)   */
    int other;                       /* close: the index in t of the other device
                         named (the fastest tied one that is not the
                         pick), else -1                           */
    int nfailed;                     /* devices whose point here is not ok        */
    int failed[RESULTS_MAX_DEVICES]; /* their indexes in results.points */
} choice_cell;

/* The devices one program could choose among: a stack's, or every
 * device of the run. */
typedef struct choice_stack {
    char name[64]; /* q_stack of its devices: "" breakeven's own, "PyTorch", …
                      (its base's when it holds every device)            */
    int host;      /* the device that holds the program's data (the tie
                      rule's CPU): the stack's CPU device, else the base  */
    int own_host;  /* 1: the host is of the stack; 0: the stack has no
                      CPU device, and is set against the run's base       */
    int ndevices;  /* how many devices it holds, the host included        */
    unsigned char member[RESULTS_MAX_DEVICES]; /* 1: results.devices[i] is one */
} choice_stack;

/* One network × mode × stack × view. */
typedef struct choice_group {
    char net[NET_NAME_MAX];
    char sizes[NET_SIZES_MAX];
    wl_mode mode;
    fit_view view;
    int stack; /* its devices: the set's stacks[stack]    */
    int ncells;
    choice_cell *cells; /* ascending by batch; owned */
    /* devices with points of the network in the mode, none of them ok:
       never named, listed as failed */
    int nfailed;
    int failed[RESULTS_MAX_DEVICES]; /* indexes in results.devices */
} choice_group;

typedef struct choice_set {
    int n;
    choice_group *g; /* owned */
    int per_stack;   /* 1: r's devices belong to several stacks and r has no
                        --base: a stack per entry below, groups per stack   */
    int across;      /* 1: several stacks, but r chose its base (--base): one
                        entry of every device, the base its host            */
    int nstacks;     /* stacks[0..nstacks): the base's stack first, then in
                        the order of r's devices; one entry of every device
                        unless per_stack                                   */
    choice_stack stacks[RESULTS_MAX_DEVICES];
} choice_set;

/* The groups of every network of r, in the order the networks were first
 * measured, then mode, then stack (per_stack: those with a device besides
 * their host that measured the network in that mode), then view
 * (resident, transfer, weights on the host, those some device of the stack
 * measured); a group has no cells when no device has an ok point in it.
 * Free with choice_free. */
int choice_run(const results *r, choice_set *out, err *e);
void choice_free(choice_set *s);
/* The stacks of r alone into out (no groups: nothing to free). */
void choice_stacks(const results *r, choice_set *out);
/* The name of stack st in words: "breakeven's OpenCL kernels and OpenBLAS"
 * for breakeven's own, else its framework ("PyTorch"), with its base when
 * it has no CPU device of its own ("PyTorch, against cpu: the run has no
 * CPU device of PyTorch"). */
void choice_stack_name(const results *r, const choice_stack *st, char *buf, size_t size);
/* The key programs match a stack by (decision.json's "stack", the header's
 * breakeven_device_in): "breakeven" for breakeven's own, else its
 * framework's name. */
const char *choice_stack_key(const choice_stack *st);

/* The group of net (a name or sizes) in mode and view of the set's stack
 * stacks[st] (-1: the first such group of any stack), or NULL. */
const choice_group *choice_find(const choice_set *s, const char *net, wl_mode mode, fit_view view,
                                int st);

/* The answer at any batch. */
typedef struct choice_answer {
    const choice_cell *cell; /* the measured batch whose answer it is  */
    int dev;                 /* the device named (results.devices)      */
    int other;               /* close: the other device, else -1        */
    int close;               /* the cell is too close to call           */
    int uninformative;       /* the cell's answer is (choice_cell)      */
    int extrapolated;        /* batch lies outside the measured batches */
    int between;             /* batch lies between two measured batches
                                whose answers name different devices    */
    int lo_batch, hi_batch;  /* batch lies strictly between these two
                                measured batches (else 0 and 0)         */
    int lo_dev, hi_dev;      /* … and their answers' devices            */
} choice_answer;

/* The answer of g (with cells) at batch, by the rules above. */
void choice_at(const choice_group *g, int batch, choice_answer *a);

#endif
