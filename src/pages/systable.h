/*
 * systable.h — a run's setup as the report shows it: a table of the
 * machine (host, CPU, cores, memory, OS, kernel, compiler, OpenBLAS,
 * breakeven) and one of its devices (type, name, driver, library, threads
 * or compute units, price), as result viewers show a system, then the
 * method in a paragraph (prose_setup).
 *
 * Part of the report's annotation (report.c builds the rest): the facts
 * come from the results model only, enter the tree as attribute values
 * (escaped by construction, site.h) and templates/run.xsl lays them out.
 */
#ifndef BE_SYSTABLE_H
#define BE_SYSTABLE_H

#include <libxml/tree.h>

#include "results.h"

/* Adds to the annotation a of run r:
 *   <system><row name="Host" value="vm"/> …</system>
 *   <devices priced="yes|no" peaks="yes|no"><device id type name driver
 *            library threads price peak/> …</devices>   (peak: the fp32
 *            peak where devinfo_peak knows it)
 *   <method>the method, in words</method>
 * A value the results file does not record is left out (its row too). */
void systable_add(xmlNodePtr a, const results *r);

#endif
