/*
 * net.h — the user's network: layer sizes from input to output.
 *
 * `--net 784-512-256-10` names a chain of dense layers, as FANN's
 * fann_create_standard and scikit-learn's hidden_layer_sizes do: the first
 * size is the input width, the last the output width, and each neighbouring
 * pair is one fp32 layer y = act(x·W + b) with ReLU between layers and none
 * after the last (backend.h).  A network may also be a preset with a name
 * (`--net mnist-mlp`, see net_presets for where each comes from) or a line
 * of a --net-file ("mnist-mlp 784-512-256-10").  This module parses and
 * formats networks and counts their FLOPs; the plan (plan.h) holds the
 * networks of a run, the workload (workload.h) makes their data.
 */
#ifndef BE_NET_H
#define BE_NET_H

#include "backend.h"
#include "err.h"

#define NET_MAX_LAYERS 64  /* as RESULTS_MAX_LAYERS                  */
#define NET_MAX_SIZE 65536 /* as RESULTS_MAX_HIDDEN                  */
#define NET_NAME_MAX 48    /* a name: [A-Za-z0-9._-], up to 47 bytes  */
#define NET_SIZES_MAX 400  /* "784-512-256-10": 65 sizes of 6 bytes   */
#define NET_MAX_NETS 16    /* networks in one run                     */
#define NET_FILE_MAX_BYTES 65536

typedef struct net_spec {
    char name[NET_NAME_MAX];      /* the preset's or the file's name, else the sizes */
    int layers;                   /* 1..NET_MAX_LAYERS                        */
    int dims[NET_MAX_LAYERS + 1]; /* dims[0] inputs … dims[layers] outputs */
} net_spec;

/* A preset: its name, its sizes and where they come from. */
typedef struct net_preset {
    const char *name, *sizes, *source;
} net_preset;

/* The presets, *n of them. */
const net_preset *net_presets(int *n);

/* Parses "784-512-256-10" (sizes) into out, named by the sizes.  what
 * names the input in messages ("--net").  BE_EUSAGE on one size, an empty
 * or non-numeric size, a size out of 1..NET_MAX_SIZE, or more than
 * NET_MAX_LAYERS layers. */
int net_parse_sizes(const char *text, const char *what, net_spec *out, err *e);
/* A --net value: sizes (they start with a digit) or a preset's name. */
int net_parse(const char *text, const char *what, net_spec *out, err *e);
/* One line of a --net-file, comments (#) and surrounding blanks removed by
 * the caller: "SIZES" or "NAME SIZES" (or a preset's name alone). */
int net_parse_line(const char *line, const char *what, net_spec *out, err *e);
/* Appends the networks of the file at path to nets (*n of them, at most
 * NET_MAX_NETS): one a line, blank lines and # comments skipped.  Read
 * through infile.h: a regular text file of at most NET_FILE_MAX_BYTES.
 * BE_EUSAGE naming path (and the line) when it cannot be read or a line is
 * bad. */
int net_load_file(const char *path, net_spec *nets, int *n, err *e);
/* The same over text, the file's contents (checked text, NUL-terminated;
 * its lines are cut in place), errors naming path. */
int net_parse_text(const char *path, char *text, net_spec *nets, int *n, err *e);

/* Whether name is a valid network name (and not sizes). */
int net_name_ok(const char *name);
/* "784-512-256-10" */
void net_format(const net_spec *n, char *buf, size_t size);
/* Whether a and b have the same sizes. */
int net_same_sizes(const net_spec *a, const net_spec *b);
/* The widest layer: the largest size. */
int net_widest(const net_spec *n);

/* FLOPs of one layer (inputs k, outputs n) at batch b, counted as
 * workload.h counts a square layer: inference (2·k·n + n)·b; training adds
 * dReLU n·b, dW 2·k·n·b, dx 2·k·n·b, db n·b and SGD 2·k·n + 2·n. */
double net_layer_flops(wl_mode mode, int k, int n, int batch);
/* The whole network's FLOPs at batch b. */
double net_flops(const net_spec *n, wl_mode mode, int batch);

#endif
