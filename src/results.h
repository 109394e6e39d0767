/*
 * results.h — the results model of one run, and its XML file.
 *
 * Everything after the measurement (the fit, the charts, the report, the
 * comparison of runs) reads this model, loaded from results.xml, never the
 * backends.  The file is written as a libxml2 tree (so escaping is correct
 * by construction), replaced atomically, and validated against the RELAX NG
 * schema src/results.rng (compiled in) whenever it is loaded.
 */
#ifndef BE_RESULTS_H
#define BE_RESULTS_H

#include "backend.h"
#include "stats.h"

#define RESULTS_FORMAT 1

typedef enum {
    PT_OK = 0,
    PT_OUT_OF_MEMORY,
    PT_FAILED_VERIFICATION,
    PT_SKIPPED
} rs_status;

const char *results_status_name(rs_status s);

/* Where and how a run was measured. */
typedef struct rs_prov {
    char version[32], commit[64];
    char id[128], started[32], finished[32];
    char command[2048];
    unsigned long long seed;
    double budget;
    int layers;
    char hidden[512], batch[512], modes[32];
    char host[256], os[256], kernel[256], cpu_model[256], compiler[256];
    int cores;
    double memory;
    char blas_version[64], blas_config[256], blas_core[64];
    int blas_threads;
} rs_prov;

typedef struct rs_point {
    char device[32];
    wl_mode mode;
    int layers, hidden, batch;
    double flops_per_layer;
    rs_status status;
    char message[512];
    char why[160];            /* why the point was added ("" for grid points) */
    int verified;             /* 1 when the verification fields are set   */
    long checked;
    double max_error, tolerance;
    char worst[128];
    int nsamples;             /* 0 unless the point was measured          */
    step_times *samples;      /* owned by the point                       */
    int has_transfer;         /* samples carry h2d/d2h/total (OpenCL)     */
    stats_summary resident;   /* of samples[].wall                        */
    stats_summary transfer;   /* of samples[].total, when has_transfer    */
} rs_point;

typedef struct results {
    int partial;              /* 1 until the run finished every point     */
    rs_prov prov;
    int ndevices;
    device_info *devices;     /* owned */
    int npoints, cap;
    rs_point *points;         /* owned, each owning its samples */
} results;

/* Allocates an empty model; NULL when out of memory.  Free with results_free. */
results *results_new(void);
void results_free(results *r);

int results_add_device(results *r, const device_info *d, err *e);
/* Appends a copy of p (its samples copied too). */
int results_add_point(results *r, const rs_point *p, err *e);
/* The device description of a point, or NULL. */
const device_info *results_device(const results *r, const char *id);

/* Computes p's summaries from its samples (resident, and transfer when the
 * samples have it). */
int results_summarize(rs_point *p, err *e);

/* GFLOP/s of a point from a step time (all layers). */
double results_gflops(const rs_point *p, double seconds);

/* Writes r to path atomically. */
int results_save(const results *r, const char *path, err *e);
/* Loads and validates path; *out is the caller's to free.  Errors read
 * "path:line: what is wrong". */
int results_load(const char *path, results **out, err *e);

#endif
