/*
 * page_net.h — the report's page per network: for each network a run
 * measured, OUT/runs/<id>/net-<name>.html with its answer (the crossover
 * batch with its interval per mode, view and device, netfit.h), its charts
 * (figure_net.h: step time against batch, time per layer), the per-layer
 * breakdown (which layers the other device wins at which batch) and the
 * best placement of the layers with its estimated time including the
 * copies, beside all on one device and all on the other.
 *
 * Built like every page of the report (report.h): an <annotation> of facts
 * taken from the loaded model, turned into HTML by templates/net.xsl
 * (site.h).  The run's page links each network's page with its answer
 * (page_net_links).
 */
#ifndef BE_PAGE_NET_H
#define BE_PAGE_NET_H

#include "results.h"
#include "site.h"

/* Adds to the run's annotation a one <networks> element, when r has
 * networks: per network a <network href=… name=… sizes=…> holding its
 * answers (<verdict>, netfit_sentence) in the views the run's page shows;
 * href is prefix + "net-<name>.html" (prefix: from the page to the run's
 * directory).  When the answers cannot be had (out of memory), a's tree
 * is marked failed (site_tree_fail): the page is refused, not rendered
 * without them. */
void page_net_links(xmlNodePtr a, const results *r, const char *prefix);

/* Stages the page of every network of r in box: "<dir>/net-<name>.html",
 * its charts read from files (the run's directory, where figure_net_all
 * drew them; the page links them by their names, beside it), title the
 * site's title line for the run.  BE_OK with nothing staged when r has no
 * network. */
int page_net_render(const site *s, site_outbox *box, const results *r, const char *dir,
                    const char *files, const char *title, err *e);

#endif
