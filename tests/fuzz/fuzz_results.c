/*
 * fuzz_results.c — the libFuzzer harness of the results loader.
 *
 * Each input becomes a regular file (a memfd, so nothing touches the disk)
 * that results_load reads through /proc/self/fd.  ASan and UBSan catch
 * memory errors and undefined behaviour; the harness adds two properties
 * of its own, and aborts when one fails:
 *   - a refusal is one line: no control character from the input in it;
 *   - what loads, saves (every number finite) and loads again.
 * Built and run by `make fuzz` (FUZZ_SECONDS, 600 by default), and for a
 * minute by `make check`; tests/fuzz/corpus holds the seeds and every input
 * that once crashed it.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "results.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const char *msg)
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

/* r was loaded: it must save, and what it saved must load. */
static void check_round_trip(const results *r)
{
    char path[64];
    results *back = NULL;
    err e;
    snprintf(path, sizeof path, "/tmp/fuzz-results-%ld.xml", (long)getpid());
    if (results_save(r, NULL, path, &e) != BE_OK) {
        fprintf(stderr, "loaded, but does not save: %s\n", e.msg);
        abort();
    }
    if (results_load(path, &back, &e) != BE_OK) {
        fprintf(stderr, "loaded and saved, but does not load again: %s\n", e.msg);
        abort();
    }
    if (back->npoints != r->npoints || back->ndevices != r->ndevices) {
        fprintf(stderr, "loaded again with %d points and %d devices, not %d and %d\n",
                back->npoints, back->ndevices, r->npoints, r->ndevices);
        abort();
    }
    results_free(back);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    results *r = NULL;
    err e;
    int fd = memfd_create("results.xml", MFD_CLOEXEC);

    if (fd < 0) {
        perror("memfd_create");
        abort();
    }
    if (size > 0 && write(fd, data, size) != (ssize_t)size) {
        perror("write");
        abort();
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (results_load(path, &r, &e) == BE_OK)
        check_round_trip(r);
    else
        check_message(e.msg);
    results_free(r);
    close(fd);
    return 0;
}
