/*
 * netfit.h — the answer per network: from what batch another device beats
 * the base device (the CPU), with its interval, per network, mode and view.
 *
 * A network's points (results.h, format 2) are analysed here rather than in
 * fit.h, whose models and crossovers are per hidden width of the square
 * stack.  The estimator is the same (xover.h): the measured medians of the
 * two devices at the batches both measured, each with the standard error of
 * its logarithm read off its interval (which covers the variation between
 * passes), and a parametric bootstrap of the log speed ratio.  Pure: a
 * loaded results model in, numbers out; decide.h and the report read it.
 *
 * Also here, for a network whose layers disagree, the best placement of
 * its layers on two devices (netfit_place): a pure estimate from per-layer
 * times and the cost of moving activations between devices.
 */
#ifndef BE_NETFIT_H
#define BE_NETFIT_H

#include <stdint.h>

#include "results.h"
#include "xover.h"

/* One network × mode × view × device pair. */
typedef struct netfit_cross {
    char net[NET_NAME_MAX];
    char sizes[NET_SIZES_MAX];
    char base[32], other[32];
    wl_mode mode;
    fit_view view;      /* the other device's view (FIT_WHOST too); the base
                       (CPU) is resident */
    xover_est x;        /* kind CROSS_UNKNOWN when no batch has both devices ok */
    int ncells;         /* batches both devices measured                     */
    int nfaster;        /* … at which the other device's median was lower    */
    int nuninformative; /* … at which either interval is uninformative
                           (q_ci_uninformative): there the medians alone
                           say which is faster                         */
    int bmin, bmax;     /* the smallest and largest of them (0 when none)    */
} netfit_cross;

typedef struct netfit_set {
    int n;
    netfit_cross *c; /* owned */
} netfit_set;

/* Every crossover of r's networks, each device against its own base
 * (query.h's q_base_for) (none when r has no network points),
 * seed making the intervals reproducible, boot bootstrap replicates (0 =
 * 1000).  Free with netfit_free. */
int netfit_run(const results *r, uint64_t seed, int boot, netfit_set *out, err *e);
void netfit_free(netfit_set *s);

/* The answer of c (a crossover of r) in words, the one wording of `run`,
 * the report and the feed: "mnist-mlp (784-512-256-10), inference,
 * weights on the host: PoCL (CPU) is faster than OpenBLAS (2 threads) from
 * batch B on (95% CI LO to HI); batches 16..1024.", the devices by name
 * (q_device_name) and every batch whole; then, where some of its
 * intervals are uninformative, a sentence that says so. */
void netfit_sentence(const results *r, const netfit_cross *c, char *buf, size_t size);

/* Its first sentence alone, the answer without what its intervals leave
 * open: a link preview's. */
void netfit_answer(const results *r, const netfit_cross *c, char *buf, size_t size);

/* The answers of r's networks in mode m in words into buf (a sentence each,
 * space-separated): those with the weights on the host where measured,
 * else with transfers counted, else resident; "" when r has none, and a
 * sentence saying why when they could not be computed (out of memory). */
void netfit_summary(const results *r, wl_mode m, char *buf, size_t size);

/* The networks of r in the order first measured: names[i] (pointing into
 * r), up to max; returns their count. */
int netfit_networks(const results *r, const char **names, int max);

/* The first point of network name in mode, or NULL. */
const rs_point *netfit_first_point(const results *r, const char *name, wl_mode mode);

/* The crossover of net (a name, or sizes as in "784-512-10") in mode and
 * view against other (NULL: the first other device), or NULL. */
const netfit_cross *netfit_find(const netfit_set *s, const char *net, wl_mode mode, fit_view view,
                                const char *other);

/* The per-layer breakdown of one network × mode × batch on two devices
 * (base: 0, other: 1) and the best placement of its layers. */
typedef struct netfit_layers {
    int layers;
    double t[2][WL_MAX_LAYERS];     /* seconds of each layer: the point's mean
                                    layer times scaled so that they add up
                                    to its resident median (the OpenCL
                                    kernels' times then carry their share
                                    of the launches)                     */
    double move[WL_MAX_LAYERS + 1]; /* seconds to copy the activations
                                    entering layer l between the devices:
                                    their bytes at the other device's
                                    measured cost per byte (its input's
                                    upload and output's read-back)       */
    int on[WL_MAX_LAYERS];          /* the best placement (netfit_place)     */
    double best;                    /* its estimated step time              */
    double all_base;                /* every layer on the base device       */
    double all_other;               /* every layer on the other, with the
                                    input's and output's copies          */
} netfit_layers;

/* The breakdown of pb (the base device's point) and po (the other's, same
 * network, mode and batch) into out.  0 when either lacks layer times or
 * po lacks transfer times. */
int netfit_breakdown(const rs_point *pb, const rs_point *po, netfit_layers *out);

/* Every breakdown of r, in the order of r's points: for each point of a
 * network on the base device (q_base_id), each other device's point of
 * the same network, sizes, mode and batch with a breakdown, handed to fn
 * (pb the base's point, po the other's) with ctx. */
typedef void netfit_breakdown_fn(void *ctx, const rs_point *pb, const rs_point *po,
                                 const netfit_layers *b);
void netfit_each_breakdown(const results *r, netfit_breakdown_fn *fn, void *ctx);

/* Placement of L layers on device 0 or 1.  t[d][l]: the time of layer l
 * on device d; move[l]: the time to copy the activations entering layer l
 * (l = 0: the input, l = L: the output) from one device to the other.  The
 * input starts on device 0 and the output must end on device 0 (the host
 * program's memory).  Fills on[0..L) with the device of each layer and
 * returns the estimated total time (the layers' times plus every copy);
 * all-0 and all-1 placements are among those considered. */
double netfit_place(int L, const double *const t[2], const double *move, int *on);

/* The breakdown of network net (a name) in mode m at batch, between the
 * base device (q_base_id) and other: netfit_breakdown of their points.
 * 0 when either lacks the point or the breakdown. */
int netfit_layers_at(const results *r, const char *net, wl_mode m, const char *other, int batch,
                     netfit_layers *out);

/* The batches, ascending, at which netfit_layers_at answers for net, m and
 * other, up to max; returns their count. */
int netfit_layer_batches(const results *r, const char *net, wl_mode m, const char *other, int *b,
                         int max);

/* The batches the report shows by layer: of b[0..n) (ascending), the
 * smallest, the largest and the one in the middle (fewer when n < 3),
 * into pick; returns their count. */
int netfit_layer_picks(const int *b, int n, int pick[3]);

/* The other device of network net in mode m that the report sets against
 * the base: the first device, in r's order, with a point of net in m
 * that is not the base; NULL when none. */
const char *netfit_other(const results *r, const char *net, wl_mode m);

#endif
