/*
 * grow.c — arrays that grow one entry at a time (see grow.h).
 */
#include "grow.h"

#include <stdlib.h>
#include <string.h>

void *grow_slot(void *v, int n, int *cap, size_t elem, int first, err *e)
{
    if (n == *cap) {
        int c = *cap ? 2 * *cap : first;
        void *nv = realloc(v, (size_t)c * elem);
        if (!nv) {
            err_set(e, BE_EFAIL, "out of memory");
            return NULL;
        }
        v = nv;
        *cap = c;
    }
    memset((char *)v + (size_t)n * elem, 0, elem);
    return v;
}
