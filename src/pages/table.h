/*
 * table.h — the plain-text tables breakeven prints on stdout: the summary
 * of a run's points and the device list.  Output only; reads the results
 * model and device descriptions, computes nothing new.
 */
#ifndef BE_TABLE_H
#define BE_TABLE_H

#include <stdio.h>

#include "backend.h"
#include "results.h"

void table_points(FILE *out, const results *r);
void table_device(FILE *out, const device_info *d);

#endif
