/*
 * runcharts.h — the charts of a run, by file name: which charts a run has
 * and drawing them all beside its results.xml.
 *
 * `run` draws them as soon as the results are saved; `report` draws them
 * again for a run whose directory lacks them (results copied from another
 * machine), and the charts of the newest run of every host side by side.
 * What each chart shows is figure.h's business; the report's page refers
 * to them by the names given here.
 */
#ifndef BE_RUNCHARTS_H
#define BE_RUNCHARTS_H

#include "results.h"

/* The charts of each measured mode, in the order the report shows them;
 * a chart's files are "<dir>/<name>-<mode>.png" and ".svg", and its narrow
 * rendering for phones "<dir>/<name>-<mode>-narrow.png" and ".svg". */
typedef enum {
    RUNCHARTS_THROUGHPUT,
    RUNCHARTS_SPEED_RATIO,
    RUNCHARTS_WINNER_MAP,
    RUNCHARTS_RELATIVE_TIME,
    RUNCHARTS_COST, /* only with a price for the base device */
    RUNCHARTS_KINDS
} runcharts_kind;

/* "throughput", "speed-ratio", "winner-map", "relative-time", "cost". */
const char *runcharts_name(runcharts_kind k);

/* The prefix of the charts of several hosts ("hosts-throughput-…"). */
#define RUNCHARTS_HOSTS "hosts-"

/* Draws every chart of r into dir (PNG and SVG): per measured mode the
 * throughput, speed ratio, winner map, relative time and, with a price for
 * the base device, cost charts.  *count receives the number drawn.  dir is
 * inside root, OUT, and each chart is written through no link below it
 * (chart_render; root NULL: by path, for a run the user named outside
 * OUT). */
int runcharts_draw(const results *r, const char *root, const char *dir, int *count, err *e);

/* Draws them unless dir already holds them. */
int runcharts_ensure(const results *r, const char *root, const char *dir, err *e);

/* The charts of a model that merges the newest run of several hosts:
 * "<dir>/hosts-throughput-<mode>" and "<dir>/hosts-relative-time-<mode>". */
int runcharts_hosts(const results *merged, const char *root, const char *dir, err *e);

#endif
