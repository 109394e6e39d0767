/*
 * figure_net.h — the charts of one network of a run (the report's page
 * per network, page_net.h): its step time against batch on each device,
 * and its layers' times on each device at a few batches.
 *
 * Like figure.h's charts, each writes "<base>.png" and its narrow
 * rendering "<base>-narrow.png" atomically, draws only what was measured
 * (medians with their 95% intervals; the crossovers of netfit.h with
 * theirs, inside the measured batches), and says so in place of the data
 * when there is nothing to draw.
 */
#ifndef BE_FIGURE_NET_H
#define BE_FIGURE_NET_H

#include "netfit.h"
#include "results.h"

/* Step time of network net (a name) in mode against batch, log–log: one
 * marker shape per device, one line per device and view (the base device
 * resident, every other resident, with transfers and with the weights on
 * the host where measured), each median with its 95% interval as a bar;
 * the crossovers of s in range as vertical lines with their 95% intervals
 * as bands.  s may be NULL (no crossovers drawn). */
int figure_net_time(const results *r, const netfit_set *s, const char *net, wl_mode mode,
                    const char *root, const char *base, err *e);

/* Time per sample of each layer of net in mode on the base device and the
 * other (netfit_other), at the batches netfit_layer_picks chooses, as
 * horizontal bars grouped by batch; the device the best placement puts each
 * layer on is marked. */
int figure_net_layers(const results *r, const char *net, wl_mode mode, const char *root,
                      const char *base, err *e);

/* The file name of a network chart, without extension: "net-<net>-time-
 * <mode>" (kind "time") or "net-<net>-layers-<mode>".  A network's name
 * holds only [A-Za-z0-9._-] (results_load checks it), so it is safe in a
 * file name. */
void figure_net_name(const char *net, const char *kind, wl_mode mode, char *buf, size_t size);

/* Draws the charts of every network of r in every mode it measured into
 * dir (the run's directory, inside root: chart_render), *count the number drawn; none when r has no
 * network: the time chart always, the layer chart where two devices timed
 * the layers (netfit_layer_batches).  The crossovers come from netfit_run
 * with the run's seed. */
int figure_net_all(const results *r, const char *root, const char *dir, int *count, err *e);

/* 1 when dir holds the narrow rendering of the time chart of every network
 * and mode of r: figure_net_all has been there. */
int figure_net_present(const results *r, const char *dir);

#endif
