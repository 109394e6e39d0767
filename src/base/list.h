/*
 * list.h — parsing of the size lists given to --hidden and --batch.
 *
 * A LIST is comma-separated items; an item is a positive integer ("384") or
 * a range "A..B" that expands to the powers of two from A to B (A and B must
 * be powers of two, A ≤ B).  The result is sorted and free of duplicates so
 * that "16..64,32" and "16,32,64" name the same sweep.
 */
#ifndef BE_LIST_H
#define BE_LIST_H

#include "err.h"

#define LIST_MAX 64

typedef struct size_list {
    int n;
    int v[LIST_MAX];
} size_list;

/* Parses text into out.  what names the option for messages ("--hidden");
 * max is the largest value accepted.  Returns BE_EUSAGE with a message such
 * as "--hidden: \"12a\" is not a positive integer". */
int list_parse(const char *text, const char *what, int max, size_list *out, err *e);

/* Writes the list back as "a,b,c" into buf (for messages and the results). */
void list_format(const size_list *l, char *buf, unsigned long size);

#endif
