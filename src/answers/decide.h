/*
 * decide.h — the decision, for programs: which device to run a network on
 * at a batch size, from a measured run.
 *
 * `breakeven decide RUN` writes decision.json (per network, mode and view,
 * at each measured batch: every device's step time with its 95% interval,
 * the device to use and whether it is too close to call, by the rules of
 * choice.h; the devices that failed everywhere; the run's warnings, the
 * machine's fingerprint, breakeven's version; each device's crossover
 * against the CPU; llama.cpp's threshold), a C header
 * (breakeven_decision.h: static inline functions that answer for a
 * network, mode, view and batch as choice_at does, C99, no other code) and
 * llama.cpp's GGML_OP_OFFLOAD_MIN_BATCH from the weights-on-host
 * crossover.  `breakeven which` gives the same answer for scripts.  A run
 * of several stacks (choice.h) gets an answer per stack, each saying which
 * stack it is for; a run of one, or one measured with --base, one answer
 * among every device as before stacks.  Above
 * choice.h, netfit.h and prose.h (the warnings); writes through fsx.h.
 * decide.c: `which`, decision.json and the files; decide_header.c: the
 * header; decide_llama.c: llama.cpp's threshold.
 */
#ifndef BE_DECIDE_H
#define BE_DECIDE_H

#include <stdio.h>

#include "choice.h"
#include "netfit.h"

/* The most stacks `which` answers for at once. */
#define DECIDE_MAX_STACKS 8

/* The answer of `which`, for one stack. */
typedef struct decide_answer {
    const char *device; /* the device to use (points into the results); NULL:
                           this stack has none here (why says why)           */
    const char *host;   /* per stack: the stack's host device, else NULL     */
    char stack[160];    /* per stack: "With PyTorch", …; "" when the run is
                           decided as one (choice_set.per_stack)             */
    int close;          /* too close to call (choice.h): another device named */
    int extrapolated;   /* the batch lies outside the measured batches        */
    int between;        /* … between two whose answers differ                 */
    int uninformative;  /* the answer rests on an uninformative interval
                           (choice_cell): the medians alone              */
    char why[2048];     /* what the answer rests on, in words                 */
} decide_answer;

/* The device for network net (its name, its sizes or a preset's name) in
 * mode and view at batch (choice_at): into a[0..*n), one answer, or per
 * stack one for each of the run's stacks (at most max), those without an
 * answer there with device NULL.  BE_EUSAGE, with a message saying
 * plainly what is wrong, when the run has no such network (the message
 * lists those it has), measured it on one device only, or no stack
 * measured that mode or view; BE_EFAIL when no device measured it ok
 * there. */
int decide_which(const results *r, const char *net, wl_mode mode, fit_view view, int batch,
                 decide_answer *a, int max, int *n, err *e);

/* Writes decision.json and breakeven_decision.h into dir, atomically and
 * inside root through no link below it (fsx_write_in: root OUT for a run
 * there, NULL for a run the user named elsewhere), and llama.cpp's lines
 * to env (decide_llama_lines); s holds r's crossovers (netfit_run). */
int decide_write(const results *r, const netfit_set *s, const char *root, const char *dir,
                 FILE *env, err *e);

/* The header alone, into a malloc'ed text (*text, *len): for tests. */
int decide_header(const results *r, char **text, size_t *len, err *e);
/* The header's text of r's choices cs on f (decide_header.c, for
 * decide.c). */
void decide_header_text(FILE *f, const results *r, const choice_set *cs);

/* How decide_devices lists r's devices: the text before the first
 * device and before each other, between its id and name, between name
 * and driver, after the driver; and how a string is written (escaped for
 * the file). */
typedef struct decide_list {
    const char *first, *next, *name, *driver, *end;
    void (*str)(FILE *f, const char *s);
} decide_list;
/* Every device of r (id, name, driver) on f as how says: decision.json's
 * list and the header's comment (decide_header.c, for decide.c). */
void decide_devices(FILE *f, const results *r, const decide_list *how);

/* llama.cpp's threshold for one network: GGML_OP_OFFLOAD_MIN_BATCH, the
 * batch from which it offloads an op whose weights sit in host memory,
 * from the crossover against the CPU, inference, weights on the host, of
 * the accelerator with the lowest median at the largest batch measured
 * (among the devices of one stack, in a run of several). */
typedef struct decide_llama {
    const netfit_cross *c; /* the crossover it rests on; NULL: none (no
                              accelerator measured the network ok)     */
    int value;             /* in range: the crossover rounded up; always
                              faster: the smallest batch measured; never
                              ahead: one above the largest (0: none)    */
} decide_llama;

/* The threshold of network net of r (s: r's crossovers) from the devices
 * of stack st (NULL: every device). */
void decide_llama_of(const results *r, const netfit_set *s, const char *net, const choice_stack *st,
                     decide_llama *out);

/* llama.cpp's lines to env: per network a comment saying which network,
 * device and interval the value rests on and what it means, then one
 * GGML_OP_OFFLOAD_MIN_BATCH=N line: the network's, or with several the
 * largest of theirs (each network's in a comment).  In a run of several
 * stacks, the comments per stack, each headed by its name, and the line
 * that of the first stack with a value (the base's first), said so. */
void decide_llama_lines(FILE *env, const results *r, const netfit_set *s);

#endif
