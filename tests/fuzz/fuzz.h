/*
 * fuzz.h — what every libFuzzer harness of tests/fuzz/ checks of a refusal:
 * one printable line, with nothing of the input in it unescaped.
 */
#ifndef BE_FUZZ_H
#define BE_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "utf8.h"

/* Aborts (a finding) when msg holds a control character or is not clean
 * UTF-8. */
static inline void fuzz_check_message(const char *msg)
{
    const char *p;
    for (p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F) {
            fprintf(stderr, "control character in the message: %s\n", msg);
            abort();
        }
    if (!utf8_clean(msg)) {
        fprintf(stderr, "message is not clean UTF-8: %s\n", msg);
        abort();
    }
}

/* Aborts, naming what, when s is not one clean line. */
static inline void fuzz_check_line(const char *what, const char *s)
{
    const char *p;
    for (p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F) {
            fprintf(stderr, "%s: a control character in \"%s\"\n", what, s);
            abort();
        }
    if (!utf8_clean(s)) {
        fprintf(stderr, "%s: not clean UTF-8\n", what);
        abort();
    }
}

#endif
