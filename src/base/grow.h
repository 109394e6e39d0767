/*
 * grow.h — arrays that grow one entry at a time, by doubling.
 *
 * Several lists are built entry by entry without knowing their length
 * (the files a report stages, site.h; the directories an undo notes,
 * undo.h): each keeps v, n entries used and cap allocated, and asks here
 * for room for one more, so that the doubling and its failure are written
 * once.  At the bottom of the layers: it calls nothing but err.h.
 */
#ifndef BE_GROW_H
#define BE_GROW_H

#include <stddef.h>

#include "err.h"

/* The array v (n entries of elem bytes used, *cap allocated) with room for
 * entry n, zeroed: v itself, or when full a new block of twice *cap
 * entries (first when *cap is 0) with *cap updated; NULL with e set when
 * out of memory (v is left as it was).  The caller stores the result and
 * counts the entry once it is filled. */
void *grow_slot(void *v, int n, int *cap, size_t elem, int first, err *e);

#endif
