/*
 * export.h — a run for programs and for pasting: results.json (the
 * provenance, the devices, every point's statistics, the fit and the
 * answers in words; numbers as numbers, null where there is none) and
 * summary.md (the answers and the table of medians, in Markdown).
 *
 * Both are written beside results.xml by `run` and by `report`; they are
 * derived from the loaded model (results.h) and its findings, never from
 * the samples' file directly, so they say what the report says.
 */
#ifndef BE_EXPORT_H
#define BE_EXPORT_H

#include <stddef.h>

#include "results.h"

/* r as JSON; *out (NUL-terminated, *len bytes) is the caller's to free.
 * BE_EFAIL when out of memory. */
int export_json(const results *r, char **out, size_t *len, err *e);
/* r's answers and table of medians as Markdown; as export_json. */
int export_summary(const results *r, char **out, size_t *len, err *e);

#endif
