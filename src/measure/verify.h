/*
 * verify.h — checking a device's arithmetic against the host.
 *
 * After one step from the initial parameters, a backend hands over the whole
 * network state (backend.h, net_state).  Each layer is checked on its own,
 * from the device's own input to that layer, recomputing in double
 * precision a diagonal of each output that meets every row and every column
 * (max(batch, hidden) entries; in training also every bias and a diagonal of
 * dx and of the updated weights) and 96 more entries drawn at random; so a
 * fault confined to one row or one column is always found, without
 * recomputing the whole network on the host.
 *
 * An entry's error is |device − reference| divided by the sum of the
 * absolute values of the terms it adds up (its "scale"), and the tolerance
 * is 2·(K + 2)·2⁻²⁴ for a reduction of length K: twice the classic bound on
 * the rounding error of an fp32 sum of K products, so any summation order a
 * correct kernel may choose passes, and a wrong index or a lost term, whose
 * error is of the order of the scale itself, fails.
 */
#ifndef BE_VERIFY_H
#define BE_VERIFY_H

#include "backend.h"

typedef struct verify_result {
    int ok;           /* 1 when every checked entry is within tolerance   */
    long checked;     /* entries checked                                  */
    double max_error; /* the error of the worst entry (largest error/tol) */
    double tolerance; /* the tolerance of that entry                       */
    char where[128];  /* names the worst entry, e.g. "layer 2 y[5][17]"    */
} verify_result;

/* Allocates a net_state for w's shapes (free with verify_state_free). */
int verify_state_alloc(const workload *w, net_state *s, err *e);
void verify_state_free(const workload *w, net_state *s);

/* Checks s, the state after one step from w's initial parameters.  Fills r;
 * returns BE_OK whether or not the check passed (r->ok says). */
int verify_check(const workload *w, const net_state *s, verify_result *r, err *e);

#endif
