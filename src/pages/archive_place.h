/*
 * archive_place.h — a run's files in OUT/runs/<id>: the charts of an
 * archived run that lacks them, and an imported run's results file and
 * charts in its staging directory.
 *
 * The archive (archive.h) loads, checks and files runs as results; what
 * is drawn of a run (runcharts.h) sits above it, here, so that the
 * archive's runs can be read (history.h) without the charts.
 */
#ifndef BE_ARCHIVE_PLACE_H
#define BE_ARCHIVE_PLACE_H

#include "archive.h"

/* Makes the run's files: an archived run's charts in OUT/runs/<id>/ when
 * missing; an imported run's results file and charts in a new staging
 * directory (saving checks that the file loads back, see results_save). */
int archive_place(archive_run *u, err *e);

#endif
