/*
 * results_load_int.h — what the files of the results loader share, and
 * nothing else includes: results_load.c (the entry points and the parse of
 * the document), results_xml.c (an element's attributes and children, each
 * within bounds, and the load's one error), results_read.c (a reader per
 * element), results_schema.c (the schema pass and the memo) and
 * results_check.c (the model, checked for sense).  The public interface is
 * results.h.
 *
 * A load is one rs_loader: the first error sticks, and every getter and
 * reader does nothing once it is set, so that a reader reads on without
 * checking after each attribute.
 */
#ifndef BE_RESULTS_LOAD_INT_H
#define BE_RESULTS_LOAD_INT_H

#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "results.h"

/* The state of one results_load. */
typedef struct rs_loader {
    const char *path;
    err *e;
    int failed;                   /* e holds the first error            */
    long nodes;                   /* elements and attributes parsed     */
    startElementNsSAX2Func start; /* libxml2's handler, which on_start wraps */
    xmlNodePtr schema_node;       /* the element the schema first complained of */
    results_memo *memo;           /* NULL: the schema compiled for this load alone */
    int schema_seen;              /* these bytes passed the schema in this memo */
} rs_loader;

/* Indexed by wl_mode; by fit_crossover.cost. */
extern const char *const rs_mode_names[2];
extern const char *const rs_measures[2];

/* ---- results_xml.c ---- */

/* Records the first error as "path:line: message" ("path: message" when
 * line is 0), on one line: what came from the file is escaped.  BE_EFAIL. */
int rs_fail_line(rs_loader *ld, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* n's line in the file, or 0. */
long rs_line_of(xmlNodePtr n);
#define rs_bad(ld, n, ...) rs_fail_line((ld), rs_line_of(n), __VA_ARGS__)
/* Up to 48 bytes of a value from the file, for a message. */
const char *rs_clip(char buf[64], const xmlChar *v);

/* Whether n is the element name (in no namespace); n's first element
 * among n and its next siblings; the next element after n; whether n has
 * the attribute name. */
int rs_is(xmlNodePtr n, const char *name);
xmlNodePtr rs_first_elem(xmlNodePtr n);
xmlNodePtr rs_next_elem(xmlNodePtr n);
int rs_has(xmlNodePtr n, const char *name);

/* The getters of n's attribute name; after an error each returns what its
 * definition says and leaves the error in ld. */
xmlChar *rs_attr(rs_loader *ld, xmlNodePtr n, const char *name, int optional);
void rs_get_text(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size,
                 int optional);
void rs_get_exact(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size);
void rs_get_time(rs_loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size);
double rs_get_real(rs_loader *ld, xmlNodePtr n, const char *name, double lo, double hi);
long long rs_get_int(rs_loader *ld, xmlNodePtr n, const char *name, long long lo, long long hi);
unsigned long long rs_get_seed(rs_loader *ld, xmlNodePtr n, const char *name);
int rs_get_enum(rs_loader *ld, xmlNodePtr n, const char *name, const char *const *names, int count);
/* A decimal number (no INF, NaN or hexadecimal); a decimal integer. */
int rs_parse_real(const xmlChar *v, double *out);
int rs_parse_int(const xmlChar *v, long long *out);

/* The one child of parent called name, or NULL (an error when there are
 * more); the number of children called name (past max, BE_EFAIL). */
xmlNodePtr rs_only_child(rs_loader *ld, xmlNodePtr parent, const char *name);
long rs_count_children(rs_loader *ld, xmlNodePtr parent, const char *name, long max);

/* ---- results_read.c: each element's attributes, into the model ---- */

void rs_read_root(rs_loader *ld, xmlNodePtr n, int *partial);
void rs_read_breakeven(rs_loader *ld, xmlNodePtr n, rs_prov *p);
void rs_read_run(rs_loader *ld, xmlNodePtr n, rs_prov *p);
void rs_read_host(rs_loader *ld, xmlNodePtr n, rs_prov *p);
void rs_read_openblas(rs_loader *ld, xmlNodePtr n, rs_prov *p);
void rs_read_pass(rs_loader *ld, xmlNodePtr n, rs_pass *p);
void rs_read_device(rs_loader *ld, xmlNodePtr n, device_info *d);
void rs_read_prop(rs_loader *ld, xmlNodePtr n, device_prop *pr);
void rs_read_point(rs_loader *ld, xmlNodePtr n, rs_point *p);
void rs_read_verification(rs_loader *ld, xmlNodePtr n, rs_point *p);
void rs_read_sample(rs_loader *ld, xmlNodePtr n, step_times *t, int *pass, int transfer, int whost);
void rs_read_summary(rs_loader *ld, xmlNodePtr n, stats_summary *s, fit_view *view);
void rs_read_fit(rs_loader *ld, xmlNodePtr n, unsigned long long *seed, int *analysis);
void rs_read_price(rs_loader *ld, xmlNodePtr n, char id[32], double *usd);
void rs_read_model(rs_loader *ld, xmlNodePtr n, fit_model *m);
void rs_read_outlier(rs_loader *ld, xmlNodePtr n, int *k);
void rs_read_cross(rs_loader *ld, xmlNodePtr n, fit_crossover *c);
void rs_read_hidden(rs_loader *ld, xmlNodePtr n, fit_hidden_cross *x);
void rs_read_telemetry(rs_loader *ld, xmlNodePtr n, tel_point *t);
/* Which attribute of n is wrong: n's reader says it in e (BE_EFAIL), or
 * finds nothing (BE_OK). */
int rs_diagnose(const char *path, xmlNodePtr n, err *e);

/* ---- the passes of a load ---- */

/* A file a memo has seen pass the schema: its length and two 64-bit
 * hashes of its bytes (results_schema.c). */
typedef struct memo_seen {
    size_t len;
    unsigned long long a, b;
} memo_seen;
/* The entry of bytes[0..len). */
memo_seen rs_memo_key(const char *bytes, size_t len);
/* 1 when m holds s. */
int rs_memo_seen(const results_memo *m, const memo_seen *s);
/* s added to m; a memo that cannot grow only costs the schema again. */
void rs_memo_remember(results_memo *m, const memo_seen *s);

/* results_schema.c: doc against the built-in schema (skipped when
 * ld->schema_seen), with the memo's compiled schema when ld has one. */
int rs_validate(rs_loader *ld, xmlDocPtr doc);
/* results_check.c: the model of a document that the schema accepted.
 * *out is the caller's. */
int rs_load_doc(rs_loader *ld, xmlNodePtr root, results **out);

#endif
