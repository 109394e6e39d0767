/*
 * err.h — how breakeven reports a failure.
 *
 * Every function that can fail returns an int status (0 = success, negative =
 * failure; see the BE_* codes below) and fills an `err` the caller passed in
 * with one line that says what went wrong and where ("results.xml:42: <point>
 * lacks attribute \"batch\"").  Only the commands (cmd.h) print such a line and
 * main.c turns it into an exit status; the library never prints on its own and never exits.
 */
#ifndef BE_ERR_H
#define BE_ERR_H

#include <stddef.h>

enum {
    BE_OK = 0,
    BE_EFAIL = -1,  /* a run-time failure: I/O, a library call, bad data   */
    BE_EUSAGE = -2, /* the user asked for something malformed              */
    BE_EOOM = -3,   /* a device could not allocate what a point needs      */
    BE_EINTR = -4,  /* interrupted by SIGINT, SIGTERM or SIGHUP (stop.h)  */
    BE_EIO = -5,    /* where breakeven writes cannot be written: a full or
                     * read-only file system, a quota, an I/O error, a
                     * permission (fsx_errno_code).  Never a run's defect:
                     * a command stops on it, whatever it was writing.    */
    BE_EVERIFY = -6 /* a device's result failed a check made while it was
                     * timed (a framework device's unannounced one,
                     * docs/devices.md): the point fails verification      */
};

typedef struct err {
    char msg[1024];
} err;

/* Formats the message into e (when e is not NULL) and returns code, so that
 * a failure reads `return err_set(e, BE_EFAIL, "%s: ...", path);`. */
int err_set(err *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prefixes e's message with "prefix: " (for adding context on the way up). */
int err_prefix(err *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
