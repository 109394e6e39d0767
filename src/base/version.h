/*
 * version.h — breakeven's version, and the git commit it was built from
 * (build/commit.h, written by the Makefile; "unknown" outside a checkout).
 */
#ifndef BE_VERSION_H
#define BE_VERSION_H

#include "commit.h"

#define BE_VERSION "0.3.0"

#endif
