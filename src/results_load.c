/*
 * results_load.c — a results file from anywhere (results.xml, compressed
 * or not) read into the model (results.h), or refused with one line that
 * says where and why.
 *
 * Everything breakeven reads of a run comes through here: the report, the
 * comparison of runs, the archive.  The writer (results_write.c) runs the
 * same checks on every file before it writes it (results_int.h).  The
 * schema src/results.rng is compiled in and is the reference for every
 * element and attribute read here.
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlversion.h>

#include "fmt.h"
#include "gz.h"
#include "infile.h"
#include "plan.h"
#include "results_int.h"
#include "utf8.h"

extern const char embed_results_rng[];

/* A results file is untrusted input (files are gathered from many
 * machines).  The loader reads it only if it is a regular file of bounded
 * size, parses it without a DTD (so without entities to expand) and with a
 * bound on elements and attributes, validates it against the schema, and
 * only then reads it into the model, checking again every count, size and
 * number it copies, and what the schema cannot say (unique points, known
 * devices, summaries that fit their samples). */

#define TIME_MIN 1e-12    /* a step timed below a picosecond is no measurement */
#define TIME_MAX 1e6      /* seconds: --budget's own limit                      */
#define FLOPS_MAX 1e30    /* FLOPs per layer, and their range in a fit          */
#define DERIVED_MAX 1e150 /* fitted quantities: a product of two stays finite   */
#define HUGE_MAX 1e300    /* crossovers, which may lie far outside the data     */
#define MAX_CORES (1 << 20)
#define MAX_MEMORY 1e18 /* bytes of host memory                               */
#define PRICE_MIN 1e-9  /* USD per hour                                       */
#define PRICE_MAX 1e9
#define TEL_MHZ_MAX 1e6       /* a clock                                            */
#define TEL_WATTS_MAX 1e6     /* a device's power, and its mean power over a span   */
#define TEL_JOULES_MAX 1e12   /* energy over a point's timed samples                */
#define FIT_MAX_ANALYSIS 1000 /* versions of the fit's method                    */

static const char *const root_status[] = {"complete", "partial"};
static const char *const device_kinds[] = {"openblas", "opencl"};
static const char *const threads_from[] = {"--threads", "OPENBLAS_NUM_THREADS", "cores"};
static const char *const pair_sides[] = {"A", "B"};
static const char *const mode_names[] = {"inference", "training"};
static const char *const yes_no[] = {"no", "yes"};
static const char *const measures[] = {"time", "cost"};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* The state of one results_load. */
typedef struct loader {
    const char *path;
    err *e;
    int failed;                   /* e holds the first error            */
    long nodes;                   /* elements and attributes parsed     */
    startElementNsSAX2Func start; /* libxml2's handler, which on_start wraps */
    xmlNodePtr schema_node;       /* the element the schema first complained of */
    results_memo *memo;           /* NULL: the schema compiled for this load alone */
    int schema_seen;              /* these bytes passed the schema in this memo */
} loader;

/* See results.h.  A seen file is its length and two 64-bit hashes of its
 * bytes. */
typedef struct memo_seen {
    size_t len;
    unsigned long long a, b;
} memo_seen;

struct results_memo {
    xmlRelaxNGPtr schema; /* compiled at the first load that needs it */
    memo_seen *seen;
    size_t n, cap;
};

/* Records the first error as "path:line: message" ("path: message" when
 * line is 0), on one line: what came from the file is escaped. */
static int fail_line(loader *ld, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_line(loader *ld, long line, const char *fmt, ...)
{
    char msg[768], full[1024];
    va_list ap;
    if (ld->failed)
        return BE_EFAIL;
    ld->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(full, sizeof full, "%s:%ld: %s", ld->path, line, msg);
    else
        snprintf(full, sizeof full, "%s: %s", ld->path, msg);
    if (ld->e)
        utf8_escape(ld->e->msg, sizeof ld->e->msg, full);
    return BE_EFAIL;
}

static long line_of(xmlNodePtr n)
{
    long line = n ? xmlGetLineNo(n) : 0;
    return line > 0 ? line : 0;
}

#define bad(ld, n, ...) fail_line((ld), line_of(n), __VA_ARGS__)

/* Up to 48 bytes of a value from the file, cut on a character boundary,
 * for a message (fail_line escapes it). */
static const char *clip(char buf[64], const xmlChar *v)
{
    const char *s = v ? (const char *)v : "";
    size_t used = 0, len;
    while (s[used]) {
        utf8_decode(s + used, strnlen(s + used, 4), &len);
        if (used + len > 48) {
            memcpy(buf, s, used);
            memcpy(buf + used, "...", 4);
            return buf;
        }
        used += len;
    }
    memcpy(buf, s, used + 1);
    return buf;
}

/* ---- the parser's hooks ---- */

static loader *loader_of(void *ctx)
{
    return ((xmlParserCtxtPtr)ctx)->_private;
}

static void on_parse_error(void *ctx, xmlErrorPtr xe)
{
    loader *ld = loader_of(ctx);
    char msg[512];
    size_t n;
    if (ld->failed || !xe || xe->level == XML_ERR_WARNING)
        return;
    snprintf(msg, sizeof msg, "%s", xe->message ? xe->message : "not well-formed XML");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    fail_line(ld, xe->line > 0 ? xe->line : 0, "%s", msg);
}

/* A DOCTYPE is where entities (and external DTDs) would come from: none of
 * breakeven's files has one, so the parse stops right there. */
static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *public_id,
                       const xmlChar *system_id)
{
    (void)name;
    (void)public_id;
    (void)system_id;
    fail_line(loader_of(ctx), xmlSAX2GetLineNumber(ctx),
              "a DOCTYPE is not allowed in a results file (no DTD, no entity declarations)");
    xmlStopParser(ctx);
}

/* Counts elements and attributes, and stops the parse past the bound. */
static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
                     int nb_defaulted, const xmlChar **attributes)
{
    loader *ld = loader_of(ctx);
    ld->nodes += 1L + nb_namespaces + nb_attributes;
    if (ld->nodes > RESULTS_MAX_NODES) {
        fail_line(ld, xmlSAX2GetLineNumber(ctx), "more than %ld elements and attributes",
                  RESULTS_MAX_NODES);
        xmlStopParser(ctx);
        return;
    }
    ld->start(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
              attributes);
}

/* The built-in schema's own diagnostics: it compiles, or the load says so. */
static void ignore_error(void *data, xmlErrorPtr xe)
{
    (void)data;
    (void)xe;
}

static void on_schema_error(void *data, xmlErrorPtr xe)
{
    loader *ld = data;
    char msg[512];
    size_t n;
    xmlNodePtr node;
    if (ld->failed || !xe || xe->level == XML_ERR_WARNING)
        return;
    node = xe->node;
    if (node && node->type == XML_ELEMENT_NODE)
        ld->schema_node = node;
    snprintf(msg, sizeof msg, "%s", xe->message ? xe->message : "invalid");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    fail_line(ld,
              ld->schema_node ? line_of(ld->schema_node)
              : xe->line > 0  ? xe->line
                              : 0,
              "does not match the results schema: %s", msg);
}

/* ---- the file ---- */

/* Refuses a tag with more than RESULTS_MAX_ATTRS attributes before libxml2
 * sees it: its duplicate-attribute check compares every pair, so one tag
 * with a million attributes would take hours.  Counted as "=" and a quote
 * since the last "<" (no attribute value holds "<"), which can only count
 * too many, never too few. */
static int prescan(loader *ld, const char *text, size_t len)
{
    long line = 1, tag_line = 1;
    int attrs = 0;
    size_t i, j;
    for (i = 0; i < len; i++) {
        if (text[i] == '\n') {
            line++;
        } else if (text[i] == '<') {
            attrs = 0;
            tag_line = line;
        } else if (text[i] == '=') {
            for (j = i + 1; j < len && strchr(" \t\r\n", text[j]) && text[j]; j++)
                ;
            if (j < len && (text[j] == '"' || text[j] == '\'') && ++attrs > RESULTS_MAX_ATTRS)
                return fail_line(ld, tag_line, "a tag with more than %d attributes",
                                 RESULTS_MAX_ATTRS);
        }
    }
    return BE_OK;
}

/* ---- attributes ---- */

static int is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !n->ns && xmlStrcmp(n->name, BAD_CAST name) == 0;
}

static xmlNodePtr first_elem(xmlNodePtr n)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE)
            return n;
    return NULL;
}

static xmlNodePtr next_elem(xmlNodePtr n)
{
    return first_elem(n->next);
}

static int has(xmlNodePtr n, const char *name)
{
    return xmlHasNsProp(n, BAD_CAST name, NULL) != NULL;
}

/* The value of n's attribute name (in no namespace), for the caller to
 * xmlFree; NULL when absent, an error unless optional. */
static xmlChar *attr(loader *ld, xmlNodePtr n, const char *name, int optional)
{
    xmlChar *v;
    if (ld->failed)
        return NULL;
    if (!has(n, name)) {
        if (!optional)
            bad(ld, n, "<%s> lacks attribute \"%s\"", (const char *)n->name, name);
        return NULL;
    }
    if (!(v = xmlGetNoNsProp(n, BAD_CAST name)))
        bad(ld, n, "out of memory reading <%s> attribute \"%s\"", (const char *)n->name, name);
    return v;
}

/* Text, into a buffer: cut and cleaned by utf8_copy. */
static void get_text(loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size,
                     int optional)
{
    xmlChar *v = attr(ld, n, name, optional);
    utf8_copy(buf, size, v ? (const char *)v : "");
    xmlFree(v);
}

/* A name that must be kept exactly (an id, a time stamp): 1 to size - 1
 * bytes of UTF-8 without control characters or non-characters, or an
 * error, since a cut or cleaned id could name another device. */
static void get_exact(loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size)
{
    xmlChar *v = attr(ld, n, name, 0);
    char q[64];
    const char *s = v ? (const char *)v : "";
    buf[0] = '\0';
    if (!v)
        return;
    if (!*s || strlen(s) >= size)
        bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not 1 to %zu bytes", (const char *)n->name,
            name, clip(q, v), size - 1);
    else if (!utf8_clean(s) || strpbrk(s, "\t\r\n"))
        bad(ld, n,
            "<%s> attribute \"%s\" is \"%s\", which holds control characters, "
            "non-characters or invalid UTF-8",
            (const char *)n->name, name, clip(q, v));
    else
        memcpy(buf, s, strlen(s) + 1);
    xmlFree(v);
}

/* A time stamp: exact, and a UTC time that fmt_parse_time reads (a year
 * from 1970 to 9999), so that every page shows it as a date. */
static void get_time(loader *ld, xmlNodePtr n, const char *name, char *buf, size_t size)
{
    struct tm tm;
    char q[64];
    get_exact(ld, n, name, buf, size);
    if (buf[0] && !fmt_parse_time(buf, &tm))
        bad(ld, n,
            "<%s> attribute \"%s\" is \"%s\", not a UTC time YYYY-MM-DDTHH:MM:SSZ of a year "
            "from %d to %d",
            (const char *)n->name, name, clip(q, BAD_CAST buf), FMT_YEAR_MIN, FMT_YEAR_MAX);
}

/* The value into buf, without the XML spaces around it (as the schema's
 * types read it); 0 when empty or longer than a number breakeven writes. */
static int number_text(const xmlChar *v, char buf[64])
{
    const char *s = (const char *)v, *end;
    while (*s && strchr(" \t\r\n", *s))
        s++;
    end = s + strlen(s);
    while (end > s && strchr(" \t\r\n", end[-1]))
        end--;
    if (end == s || end - s >= 64)
        return 0;
    memcpy(buf, s, (size_t)(end - s));
    buf[end - s] = '\0';
    return 1;
}

/* A decimal number (no INF, NaN or hexadecimal). */
static int parse_real(const xmlChar *v, double *out)
{
    char buf[64], *end;
    if (!number_text(v, buf) || buf[strspn(buf, "0123456789+-.eE")] != '\0')
        return 0;
    errno = 0;
    *out = strtod(buf, &end);
    return *end == '\0' && errno != ERANGE && isfinite(*out);
}

/* A decimal integer, optionally signed. */
static int parse_int(const xmlChar *v, long long *out)
{
    char buf[64], *end;
    if (!number_text(v, buf) || buf[strspn(buf, "0123456789+-")] != '\0' ||
        strspn(buf + (buf[0] == '+' || buf[0] == '-'), "0123456789") == 0)
        return 0;
    errno = 0;
    *out = strtoll(buf, &end, 10);
    return *end == '\0' && errno != ERANGE;
}

/* A finite number within [lo, hi]; 0 after an error. */
static double get_real(loader *ld, xmlNodePtr n, const char *name, double lo, double hi)
{
    xmlChar *v = attr(ld, n, name, 0);
    double d = 0.0;
    char q[64];
    if (v && (!parse_real(v, &d) || d < lo || d > hi)) {
        bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not a number from %g to %g",
            (const char *)n->name, name, clip(q, v), lo, hi);
        d = 0.0;
    }
    xmlFree(v);
    return d;
}

/* An integer within [lo, hi]; lo after an error. */
static long long get_int(loader *ld, xmlNodePtr n, const char *name, long long lo, long long hi)
{
    xmlChar *v = attr(ld, n, name, 0);
    long long k = lo;
    char q[64];
    if (v && (!parse_int(v, &k) || k < lo || k > hi)) {
        bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not an integer from %lld to %lld",
            (const char *)n->name, name, clip(q, v), lo, hi);
        k = lo;
    }
    xmlFree(v);
    return k;
}

/* A seed: a decimal integer from 0 to 2^64 - 1. */
static unsigned long long get_seed(loader *ld, xmlNodePtr n, const char *name)
{
    xmlChar *v = attr(ld, n, name, 0);
    unsigned long long k = 0;
    char buf[64], q[64], *end = buf;
    if (v) {
        int ok = number_text(v, buf) && buf[strspn(buf, "0123456789")] == '\0';
        errno = 0;
        if (ok)
            k = strtoull(buf, &end, 10);
        if (!ok || *end != '\0' || errno == ERANGE) {
            bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not an integer from 0 to 2^64-1",
                (const char *)n->name, name, clip(q, v));
            k = 0;
        }
    }
    xmlFree(v);
    return k;
}

/* The index of the value among names[0..count); 0 after an error. */
static int get_enum(loader *ld, xmlNodePtr n, const char *name, const char *const *names, int count)
{
    xmlChar *v = attr(ld, n, name, 0);
    char q[64];
    int i;
    if (!v)
        return 0;
    for (i = 0; i < count; i++)
        if (strcmp((const char *)v, names[i]) == 0)
            break;
    if (i == count) {
        bad(ld, n, "<%s> attribute \"%s\" is \"%s\", which is not known", (const char *)n->name,
            name, clip(q, v));
        i = 0;
    }
    xmlFree(v);
    return i;
}

/* ---- one element's attributes ----
 * Each reader takes only what its element holds, so that it can also tell
 * which attribute the schema found wrong (see diagnose). */

static void read_root(loader *ld, xmlNodePtr n, int *partial)
{
    *partial = get_enum(ld, n, "status", root_status, COUNT(root_status));
}

static void read_breakeven(loader *ld, xmlNodePtr n, rs_prov *p)
{
    get_text(ld, n, "version", p->version, sizeof p->version, 0);
    get_text(ld, n, "commit", p->commit, sizeof p->commit, 0);
}

static void read_run(loader *ld, xmlNodePtr n, rs_prov *p)
{
    get_exact(ld, n, "id", p->id, sizeof p->id);
    get_time(ld, n, "started", p->started, sizeof p->started);
    get_time(ld, n, "finished", p->finished, sizeof p->finished);
    get_text(ld, n, "command", p->command, sizeof p->command, 0);
    if (has(n, "environment"))
        get_text(ld, n, "environment", p->env, sizeof p->env, 0);
    if (has(n, "pair")) {
        get_text(ld, n, "pair", p->pair, sizeof p->pair, 0);
        p->pair_side = (char)("AB"[get_enum(ld, n, "pair-side", pair_sides, COUNT(pair_sides))]);
    }
    p->seed = get_seed(ld, n, "seed");
    p->budget = get_real(ld, n, "budget", DBL_MIN, TIME_MAX);
    p->layers = (int)get_int(ld, n, "layers", 1, PLAN_MAX_LAYERS);
    get_text(ld, n, "hidden", p->hidden, sizeof p->hidden, 0);
    get_text(ld, n, "batch", p->batch, sizeof p->batch, 0);
    get_text(ld, n, "modes", p->modes, sizeof p->modes, 0);
}

static void read_host(loader *ld, xmlNodePtr n, rs_prov *p)
{
    get_text(ld, n, "name", p->host, sizeof p->host, 0);
    get_text(ld, n, "os", p->os, sizeof p->os, 0);
    get_text(ld, n, "kernel", p->kernel, sizeof p->kernel, 0);
    get_text(ld, n, "cpu-model", p->cpu_model, sizeof p->cpu_model, 0);
    p->cores = (int)get_int(ld, n, "cores", 1, MAX_CORES);
    p->memory = get_real(ld, n, "memory-bytes", 0.0, MAX_MEMORY);
    get_text(ld, n, "compiler", p->compiler, sizeof p->compiler, 0);
    if (has(n, "label"))
        get_text(ld, n, "label", p->label, sizeof p->label, 0);
}

static void read_openblas(loader *ld, xmlNodePtr n, rs_prov *p)
{
    get_text(ld, n, "version", p->blas_version, sizeof p->blas_version, 0);
    get_text(ld, n, "config", p->blas_config, sizeof p->blas_config, 0);
    get_text(ld, n, "core", p->blas_core, sizeof p->blas_core, 0);
    p->blas_threads = (int)get_int(ld, n, "threads", 1, MAX_CORES);
    if (has(n, "threads-from"))
        snprintf(p->blas_threads_from, sizeof p->blas_threads_from, "%s",
                 threads_from[get_enum(ld, n, "threads-from", threads_from, COUNT(threads_from))]);
    else
        p->blas_threads_from[0] = '\0';
}

/* One <pass> of <passes>: shares are of all CPUs' time. */
static void read_pass(loader *ld, xmlNodePtr n, rs_pass *p)
{
    machstate *m = &p->state;
    memset(p, 0, sizeof *p);
    p->index = (int)get_int(ld, n, "index", 1, RESULTS_MAX_PASSES);
    get_time(ld, n, "started", p->started, sizeof p->started);
    p->seconds = get_real(ld, n, "seconds", 0.0, TIME_MAX);
    p->visits = (int)get_int(ld, n, "visits", 0, RESULTS_MAX_POINTS);
    if ((m->has_loadavg = has(n, "loadavg")))
        m->loadavg = get_real(ld, n, "loadavg", 0.0, MAX_CORES);
    if ((m->has_cpu = has(n, "others-cpu") || has(n, "self-cpu") || has(n, "steal"))) {
        m->self_cpu = get_real(ld, n, "self-cpu", 0.0, 1.0);
        m->others_cpu = get_real(ld, n, "others-cpu", 0.0, 1.0);
        m->steal = get_real(ld, n, "steal", 0.0, 1.0);
    }
    if ((m->has_freq = has(n, "freq-mhz")))
        m->freq_mhz = get_real(ld, n, "freq-mhz", 0.0, 1e6);
    if ((m->has_temp = has(n, "temp-c")))
        m->temp_c = get_real(ld, n, "temp-c", -273.15, 1000.0);
    if ((p->ref.has = has(n, "ref-loop") || has(n, "ref-stream"))) {
        p->ref.loop = get_real(ld, n, "ref-loop", 1e-9, TIME_MAX);
        p->ref.stream = get_real(ld, n, "ref-stream", 1e-9, TIME_MAX);
    }
    if (has(n, "hop-checks") || has(n, "hop-far") || has(n, "hop")) {
        p->hop_checks = (int)get_int(ld, n, "hop-checks", 1, p->visits);
        p->hop_far = (int)get_int(ld, n, "hop-far", 0, p->hop_checks);
        p->hop = get_real(ld, n, "hop", 1e-12, 1.0);
    }
}

static void read_device(loader *ld, xmlNodePtr n, device_info *d)
{
    memset(d, 0, sizeof *d);
    get_exact(ld, n, "id", d->id, sizeof d->id);
    snprintf(d->kind, sizeof d->kind, "%s",
             device_kinds[get_enum(ld, n, "kind", device_kinds, COUNT(device_kinds))]);
    get_text(ld, n, "type", d->type, sizeof d->type, 0);
    get_text(ld, n, "name", d->name, sizeof d->name, 0);
    get_text(ld, n, "vendor", d->vendor, sizeof d->vendor, 0);
    get_text(ld, n, "driver", d->driver, sizeof d->driver, 0);
    get_text(ld, n, "library", d->library, sizeof d->library, 0);
}

static void read_prop(loader *ld, xmlNodePtr n, device_prop *pr)
{
    get_text(ld, n, "name", pr->name, sizeof pr->name, 0);
    get_text(ld, n, "value", pr->value, sizeof pr->value, 0);
}

/* A network's name and sizes (format 2): both, a valid name, sizes that
 * parse and agree with the point's layers and hidden (its widest size). */
static void read_point_net(loader *ld, xmlNodePtr n, rs_point *p)
{
    net_spec spec;
    err e;
    size_t i;
    get_text(ld, n, "net", p->net, sizeof p->net, 0);
    get_text(ld, n, "sizes", p->sizes, sizeof p->sizes, 0);
    if (ld->failed)
        return;
    for (i = 0; p->net[i]; i++)
        if (!isalnum((unsigned char)p->net[i]) && !strchr("._-", p->net[i])) {
            bad(ld, n,
                "<point> has a network name with characters other than letters, "
                "digits, '.', '_' and '-'");
            return;
        }
    if (!p->net[0] || net_parse_sizes(p->sizes, "sizes", &spec, &e) < 0) {
        bad(ld, n, "<point> has %s", p->net[0] ? e.msg : "an empty network name");
        return;
    }
    if (spec.layers != p->layers || net_widest(&spec) != p->hidden)
        bad(ld, n,
            "<point> has sizes \"%s\" but layers=%d hidden=%d (its layers and widest "
            "size)",
            p->sizes, p->layers, p->hidden);
}

/* A network point's mean time per layer: one number of seconds a layer,
 * and the steps they average over. */
static void read_layer_times(loader *ld, xmlNodePtr n, rs_point *p)
{
    xmlChar *v = attr(ld, n, "layer-seconds", 0);
    const char *s = (const char *)v;
    int k = 0;
    while (v && s && *s && !ld->failed) {
        char word[64];
        size_t len = strcspn(s, " ");
        double d;
        if (len == 0 || len >= sizeof word || k == p->layers) {
            bad(ld, n, "<point> attribute \"layer-seconds\" is not %d times", p->layers);
            break;
        }
        memcpy(word, s, len);
        word[len] = '\0';
        if (!parse_real((const xmlChar *)word, &d) || d < 0.0 || d > TIME_MAX) {
            bad(ld, n, "<point> attribute \"layer-seconds\" holds \"%s\", not a time", word);
            break;
        }
        p->layer_s[k++] = d;
        s += len;
        s += *s == ' ';
    }
    xmlFree(v);
    if (ld->failed)
        return;
    if (k != p->layers)
        bad(ld, n, "<point> attribute \"layer-seconds\" has %d times for %d layers", k, p->layers);
    p->nlayer = k;
    p->layer_n = (long)get_int(ld, n, "layer-steps", 1, 1LL << 40);
}

static void read_point(loader *ld, xmlNodePtr n, rs_point *p)
{
    memset(p, 0, sizeof *p);
    get_exact(ld, n, "device", p->device, sizeof p->device);
    p->mode = (wl_mode)get_enum(ld, n, "mode", mode_names, COUNT(mode_names));
    p->layers = (int)get_int(ld, n, "layers", 1, PLAN_MAX_LAYERS);
    p->hidden = (int)get_int(ld, n, "hidden", 1, PLAN_MAX_HIDDEN);
    p->batch = (int)get_int(ld, n, "batch", 1, PLAN_MAX_BATCH);
    if (has(n, "net") || has(n, "sizes"))
        read_point_net(ld, n, p);
    p->flops_per_layer = get_real(ld, n, "flops-per-layer", 1.0, FLOPS_MAX);
    if (has(n, "layer-seconds"))
        read_layer_times(ld, n, p);
    p->status = (rs_status)get_enum(ld, n, "status", rs_status_names, COUNT(rs_status_names));
    get_text(ld, n, "message", p->message, sizeof p->message, 1);
    get_text(ld, n, "added", p->why, sizeof p->why, 1);
}

static void read_verification(loader *ld, xmlNodePtr n, rs_point *p)
{
    p->verified = 1;
    p->checked = (long)get_int(ld, n, "checked", 0, 1LL << 53);
    p->max_error = has(n, "max-error") ? get_real(ld, n, "max-error", 0.0, DBL_MAX) : NAN;
    p->tolerance = get_real(ld, n, "tolerance", DBL_MIN, 1.0);
    get_text(ld, n, "worst", p->worst, sizeof p->worst, 0);
}

/* One sample: the wall time, and with "total" the transfer times too. */
/* A sample's times, and *pass, the pass it was measured in (0: not said,
 * as in files of 0.1.0). */
static void read_sample(loader *ld, xmlNodePtr n, step_times *t, int *pass, int transfer, int whost)
{
    static const char *const parts[] = {"kernel", "h2d", "d2h"};
    int i;
    *pass = has(n, "pass") ? (int)get_int(ld, n, "pass", 1, RESULTS_MAX_PASSES) : 0;
    t->wall = get_real(ld, n, "wall", TIME_MIN, TIME_MAX);
    t->far = has(n, "far") ? (double)get_int(ld, n, "far", 1, 1) : 0.0;
    t->kernel = t->h2d = t->d2h = t->whost = -1.0;
    t->total = t->wall;
    if (whost)
        t->whost = get_real(ld, n, "whost", TIME_MIN, TIME_MAX);
    else if (has(n, "whost"))
        bad(ld, n, "<s> has \"whost\" unlike the first sample of its point");
    if (!transfer) {
        for (i = 0; i < COUNT(parts); i++)
            if (has(n, parts[i]))
                bad(ld, n, "<s> has \"%s\" but no \"total\"", parts[i]);
        if (has(n, "total"))
            bad(ld, n, "<s> has \"total\" unlike the first sample of its point");
        return;
    }
    t->kernel = get_real(ld, n, "kernel", 0.0, TIME_MAX);
    t->h2d = get_real(ld, n, "h2d", 0.0, TIME_MAX);
    t->d2h = get_real(ld, n, "d2h", 0.0, TIME_MAX);
    t->total = get_real(ld, n, "total", TIME_MIN, TIME_MAX);
}

static void read_summary(loader *ld, xmlNodePtr n, stats_summary *s, fit_view *view)
{
    memset(s, 0, sizeof *s);
    *view = (fit_view)get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    s->n = (int)get_int(ld, n, "n", 1, RESULTS_MAX_SAMPLES);
    s->median = get_real(ld, n, "median", TIME_MIN, TIME_MAX);
    s->min = get_real(ld, n, "min", TIME_MIN, TIME_MAX);
    s->max = get_real(ld, n, "max", TIME_MIN, TIME_MAX);
    s->p10 = get_real(ld, n, "p10", TIME_MIN, TIME_MAX);
    s->p90 = get_real(ld, n, "p90", TIME_MIN, TIME_MAX);
    s->mean = get_real(ld, n, "mean", TIME_MIN, TIME_MAX);
    s->stdev = get_real(ld, n, "stdev", 0.0, TIME_MAX);
    s->cv = get_real(ld, n, "cv", 0.0, TIME_MAX / TIME_MIN);
    s->ci_lo = get_real(ld, n, "ci-lo", 0.0, HUGE_MAX);
    s->ci_hi = get_real(ld, n, "ci-hi", 0.0, HUGE_MAX);
    s->ci_level = get_real(ld, n, "ci-level", 0.0, 1.0);
    s->drift = get_enum(ld, n, "drift", yes_no, COUNT(yes_no));
    s->drift_ratio = get_real(ld, n, "drift-ratio", 0.0, TIME_MAX / TIME_MIN);
    get_real(ld, n, "gflops", 0.0, DERIVED_MAX); /* recomputed on save */
    s->passes = has(n, "passes") ? (int)get_int(ld, n, "passes", 1, RESULTS_MAX_PASSES) : 0;
    s->contention = has(n, "contention") ? get_real(ld, n, "contention", 0.0, 1.0) : 0.0;
}

/* <fit>'s attributes: the seed, and the analysis version (1 when absent:
 * the files of 0.1.0). */
static void read_fit(loader *ld, xmlNodePtr n, unsigned long long *seed, int *analysis)
{
    *seed = get_seed(ld, n, "seed");
    *analysis = has(n, "analysis") ? (int)get_int(ld, n, "analysis", 1, FIT_MAX_ANALYSIS) : 1;
}

static void read_price(loader *ld, xmlNodePtr n, char id[32], double *usd)
{
    get_exact(ld, n, "device", id, 32);
    *usd = get_real(ld, n, "usd-per-hour", PRICE_MIN, PRICE_MAX);
}

static void read_model(loader *ld, xmlNodePtr n, fit_model *m)
{
    memset(m, 0, sizeof *m);
    get_exact(ld, n, "device", m->device, sizeof m->device);
    m->mode = (wl_mode)get_enum(ld, n, "mode", mode_names, COUNT(mode_names));
    m->view = (fit_view)get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    m->hidden = has(n, "hidden") ? (int)get_int(ld, n, "hidden", 1, PLAN_MAX_HIDDEN) : 0;
    m->ok = get_enum(ld, n, "ok", yes_no, COUNT(yes_no));
    if (!m->ok) {
        get_text(ld, n, "why", m->why, sizeof m->why, 0);
        return;
    }
    m->npoints = (int)get_int(ld, n, "points", 1, RESULTS_MAX_POINTS);
    m->t0 = get_real(ld, n, "t0", -DERIVED_MAX, DERIVED_MAX);
    m->t0_err = get_real(ld, n, "t0-err", 0.0, DERIVED_MAX);
    m->P = get_real(ld, n, "P", DBL_MIN, DERIVED_MAX);
    m->P_err = get_real(ld, n, "P-err", 0.0, DERIVED_MAX);
    m->half_size = get_real(ld, n, "half-size", -DERIVED_MAX, DERIVED_MAX);
    m->rms_rel = get_real(ld, n, "rms-rel", 0.0, DERIVED_MAX);
    m->poor = has(n, "poor") ? get_enum(ld, n, "poor", yes_no, COUNT(yes_no)) : 0;
    m->fmin = get_real(ld, n, "fmin", 1.0, FLOPS_MAX);
    m->fmax = get_real(ld, n, "fmax", 1.0, FLOPS_MAX);
}

static void read_outlier(loader *ld, xmlNodePtr n, int *k)
{
    *k = (int)get_int(ld, n, "point", 0, RESULTS_MAX_POINTS - 1);
}

static void read_cross(loader *ld, xmlNodePtr n, fit_crossover *c)
{
    memset(c, 0, sizeof *c);
    get_exact(ld, n, "base", c->base, sizeof c->base);
    get_exact(ld, n, "other", c->other, sizeof c->other);
    c->mode = (wl_mode)get_enum(ld, n, "mode", mode_names, COUNT(mode_names));
    c->view = (fit_view)get_enum(ld, n, "view", rs_view_names, COUNT(rs_view_names));
    c->cost = get_enum(ld, n, "measure", measures, COUNT(measures));
    c->kind = (cross_kind)get_enum(ld, n, "kind", rs_cross_names, COUNT(rs_cross_names));
    c->flops = get_real(ld, n, "flops", 0.0, HUGE_MAX);
    c->ci_lo = get_real(ld, n, "ci-lo", 0.0, HUGE_MAX);
    c->ci_hi = get_real(ld, n, "ci-hi", 0.0, HUGE_MAX);
    c->flops_min = has(n, "flops-min") ? get_real(ld, n, "flops-min", 0.0, HUGE_MAX) : 0.0;
    c->flops_max = has(n, "flops-max") ? get_real(ld, n, "flops-max", 0.0, HUGE_MAX) : 0.0;
}

static void read_hidden(loader *ld, xmlNodePtr n, fit_hidden_cross *x)
{
    x->hidden = (int)get_int(ld, n, "value", 1, PLAN_MAX_HIDDEN);
    x->kind = (cross_kind)get_enum(ld, n, "kind", rs_cross_names, COUNT(rs_cross_names));
    x->batch = get_real(ld, n, "batch", 0.0, PLAN_MAX_BATCH);
    x->flops = get_real(ld, n, "flops", 0.0, HUGE_MAX);
    x->batch_lo = has(n, "batch-lo") ? get_real(ld, n, "batch-lo", 0.0, PLAN_MAX_BATCH) : 0.0;
    x->batch_hi = has(n, "batch-hi") ? get_real(ld, n, "batch-hi", 0.0, PLAN_MAX_BATCH) : 0.0;
    x->lo_open = has(n, "lo-open") ? get_enum(ld, n, "lo-open", yes_no, COUNT(yes_no)) : 0;
    x->hi_open = has(n, "hi-open") ? get_enum(ld, n, "hi-open", yes_no, COUNT(yes_no)) : 0;
}

/* NVML's reason bits as written: "0x" and 1 to 16 lower-case hex digits. */
static unsigned long long get_reasons(loader *ld, xmlNodePtr n, const char *name)
{
    xmlChar *v = attr(ld, n, name, 0);
    const char *s = v ? (const char *)v : "";
    size_t digits = strspn(s + (strncmp(s, "0x", 2) == 0 ? 2 : 0), "0123456789abcdef");
    unsigned long long k = 0;
    char q[64];
    if (v && (strncmp(s, "0x", 2) != 0 || digits < 1 || digits > 16 || s[2 + digits] != '\0'))
        bad(ld, n, "<%s> attribute \"%s\" is \"%s\", not 0x and 1 to 16 hex digits",
            (const char *)n->name, name, clip(q, v));
    else if (v)
        k = strtoull(s + 2, NULL, 16);
    xmlFree(v);
    return k;
}

/* stem-before and stem-after, each when present, within [lo, hi]. */
static void get_pair(loader *ld, xmlNodePtr n, const char *stem, int has_[2], double v[2],
                     double lo, double hi)
{
    char name[32];
    int k;
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "%s-%s", stem, rs_tel_when[k]);
        if ((has_[k] = has(n, name)))
            v[k] = get_real(ld, n, name, lo, hi);
    }
}

/* <telemetry> of a point (telemetry.h: tel_point).  Its place among the
 * point's samples and device is checked by load_point. */
static void read_telemetry(loader *ld, xmlNodePtr n, tel_point *t)
{
    char name[32];
    int k;
    memset(t, 0, sizeof *t);
    t->kind = (tel_kind)(get_enum(ld, n, "source", rs_tel_sources, COUNT(rs_tel_sources)) + 1);
    get_pair(ld, n, "sm-mhz", t->has_sm, t->sm_mhz, 0.0, TEL_MHZ_MAX);
    get_pair(ld, n, "mem-mhz", t->has_mem, t->mem_mhz, 0.0, TEL_MHZ_MAX);
    get_pair(ld, n, "power-w", t->has_power, t->power_w, 0.0, TEL_WATTS_MAX);
    get_pair(ld, n, "temp-c", t->has_temp, t->temp_c, -273.15, 1000.0);
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "throttle-%s", rs_tel_when[k]);
        if ((t->has_throttle[k] = has(n, name)))
            t->throttle[k] = get_reasons(ld, n, name);
    }
    if (has(n, "throttled"))
        t->throttled = get_enum(ld, n, "throttled", yes_no, COUNT(yes_no));
    if (!ld->failed && has(n, "throttled") != (t->has_throttle[0] || t->has_throttle[1]))
        bad(ld, n, "<telemetry> has \"throttled\" %s throttle reasons",
            has(n, "throttled") ? "without" : "but not with its");
    else if (!ld->failed &&
             t->throttled != (((t->throttle[0] | t->throttle[1]) & TEL_THROTTLING_MASK) != 0))
        bad(ld, n, "<telemetry> throttled=\"%s\" does not match its throttle reasons",
            yes_no[t->throttled]);
    if ((t->has_energy = has(n, "energy-j") || has(n, "energy-span-s") ||
                         has(n, "energy-samples") || has(n, "energy-visits"))) {
        t->energy_j = get_real(ld, n, "energy-j", 0.0, TEL_JOULES_MAX);
        t->energy_span_s = get_real(ld, n, "energy-span-s", TEL_MIN_ENERGY_SPAN, TIME_MAX);
        t->energy_samples = (int)get_int(ld, n, "energy-samples", 1, TEL_MAX_ENERGY_STEPS);
        t->energy_visits = (int)get_int(ld, n, "energy-visits", 1, RESULTS_MAX_PASSES);
        if (!ld->failed && t->energy_j > TEL_WATTS_MAX * t->energy_span_s)
            bad(ld, n, "<telemetry> energy-j is more than %g W over energy-span-s", TEL_WATTS_MAX);
        else if (!ld->failed && t->energy_span_s < TEL_ENERGY_SPAN_MIN(t->kind, t->energy_visits))
            bad(ld, n,
                "<telemetry> energy-span-s=%g is too short for %d visits of %s (at "
                "least %g s)",
                t->energy_span_s, t->energy_visits, rs_tel_sources[t->kind == TEL_RAPL],
                TEL_ENERGY_SPAN_MIN(t->kind, t->energy_visits));
        else if (!ld->failed && t->energy_visits > t->energy_samples)
            bad(ld, n, "<telemetry> energy-visits=%d is more than its energy-samples=%d",
                t->energy_visits, t->energy_samples);
    }
}

/* Which attribute of n is wrong, when the schema said only that n's
 * attributes are: n's reader, on scratch storage, says it in e (BE_EFAIL),
 * or finds nothing (BE_OK).  It reads nothing but n's own attributes. */
static int diagnose(const char *path, xmlNodePtr n, err *e)
{
    loader ld;
    union {
        int i;
        struct {
            unsigned long long seed;
            int analysis;
        } fit;
        rs_prov prov;
        device_info dev;
        device_prop prop;
        rs_point pt;
        struct {
            step_times t;
            int pass;
        } s;
        rs_pass pass;
        struct {
            stats_summary s;
            fit_view v;
        } sum;
        struct {
            char device[32];
            double usd;
        } price;
        fit_model m;
        fit_crossover c;
        fit_hidden_cross h;
        tel_point tel;
    } u;
    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = e;
    if (is(n, "breakeven-results"))
        read_root(&ld, n, &u.i);
    else if (is(n, "breakeven"))
        read_breakeven(&ld, n, &u.prov);
    else if (is(n, "run"))
        read_run(&ld, n, &u.prov);
    else if (is(n, "host"))
        read_host(&ld, n, &u.prov);
    else if (is(n, "openblas"))
        read_openblas(&ld, n, &u.prov);
    else if (is(n, "device"))
        read_device(&ld, n, &u.dev);
    else if (is(n, "prop"))
        read_prop(&ld, n, &u.prop);
    else if (is(n, "point"))
        read_point(&ld, n, &u.pt);
    else if (is(n, "verification"))
        read_verification(&ld, n, &u.pt);
    else if (is(n, "s"))
        read_sample(&ld, n, &u.s.t, &u.s.pass, has(n, "total"), has(n, "whost"));
    else if (is(n, "pass"))
        read_pass(&ld, n, &u.pass);
    else if (is(n, "summary"))
        read_summary(&ld, n, &u.sum.s, &u.sum.v);
    else if (is(n, "fit"))
        read_fit(&ld, n, &u.fit.seed, &u.fit.analysis);
    else if (is(n, "price"))
        read_price(&ld, n, u.price.device, &u.price.usd);
    else if (is(n, "model"))
        read_model(&ld, n, &u.m);
    else if (is(n, "outlier"))
        read_outlier(&ld, n, &u.i);
    else if (is(n, "crossover"))
        read_cross(&ld, n, &u.c);
    else if (is(n, "hidden"))
        read_hidden(&ld, n, &u.h);
    else if (is(n, "telemetry"))
        read_telemetry(&ld, n, &u.tel);
    return ld.failed ? BE_EFAIL : BE_OK;
}

/* ---- the model, after the schema ---- */

/* The one child of parent called name, or NULL; an error when there are
 * more (the schema forbids it: this is the second line of defence). */
static xmlNodePtr only_child(loader *ld, xmlNodePtr parent, const char *name)
{
    xmlNodePtr n, found = NULL;
    for (n = first_elem(parent->children); n; n = next_elem(n))
        if (is(n, name)) {
            if (found) {
                bad(ld, n, "<%s> holds more than one <%s>", (const char *)parent->name, name);
                return NULL;
            }
            found = n;
        }
    return found;
}

/* The number of children of parent called name; past max, BE_EFAIL, and
 * the error in ld. */
static long count_children(loader *ld, xmlNodePtr parent, const char *name, long max)
{
    xmlNodePtr n;
    long k = 0;
    for (n = first_elem(parent->children); n; n = next_elem(n))
        if (is(n, name) && ++k > max) {
            return bad(ld, n, "<%s> holds more than %ld <%s>", (const char *)parent->name, max,
                       name);
        }
    return k;
}

static void load_prov(loader *ld, xmlNodePtr pv, results *r)
{
    static const char *const parts[] = {"breakeven", "run", "host", "openblas"};
    rs_prov *p = &r->prov;
    xmlNodePtr n[4], ps, c;
    int i;
    for (i = 0; i < 4; i++)
        if (!(n[i] = only_child(ld, pv, parts[i])) && !ld->failed)
            bad(ld, pv, "<provenance> lacks <%s>", parts[i]);
    if (ld->failed)
        return;
    read_breakeven(ld, n[0], p);
    read_run(ld, n[1], p);
    read_host(ld, n[2], p);
    read_openblas(ld, n[3], p);
    if (ld->failed || !(ps = only_child(ld, pv, "passes")) ||
        count_children(ld, ps, "pass", RESULTS_MAX_PASSES) < 0)
        return;
    for (c = first_elem(ps->children); c && !ld->failed; c = next_elem(c)) {
        rs_pass pass;
        if (!is(c, "pass"))
            continue;
        read_pass(ld, c, &pass);
        for (i = 0; i < r->npasses && !ld->failed; i++)
            if (r->passes[i].index == pass.index)
                bad(ld, c, "<pass> index %d is listed twice", pass.index);
        if (!ld->failed && results_add_pass(r, &pass, ld->e) < 0)
            bad(ld, c, "out of memory adding a pass");
    }
}

static void load_devices(loader *ld, xmlNodePtr devs, results *r)
{
    xmlNodePtr n, pr;
    device_info d;
    if (count_children(ld, devs, "device", RESULTS_MAX_DEVICES) < 0)
        return;
    for (n = first_elem(devs->children); n && !ld->failed; n = next_elem(n)) {
        if (!is(n, "device"))
            continue;
        read_device(ld, n, &d);
        if (count_children(ld, n, "prop", DEVICE_MAX_PROPS) < 0)
            return;
        for (pr = first_elem(n->children); pr && !ld->failed; pr = next_elem(pr))
            if (is(pr, "prop"))
                read_prop(ld, pr, &d.props[d.nprops++]);
        if (ld->failed)
            return;
        if (results_device(r, d.id))
            bad(ld, n, "device \"%s\" is listed twice", d.id);
        else if (results_add_device(r, &d, ld->e) < 0)
            bad(ld, n, "out of memory adding a device");
    }
}

/* A relative comparison that allows for the rounding of the statistics. */
static int le(double a, double b)
{
    return a <= b + 1e-12 * fabs(b);
}

/* p's samples, from the <samples> element c: counted, then read into an
 * array of that count. */
static void load_samples(loader *ld, xmlNodePtr c, rs_point *p)
{
    xmlNodePtr s = first_elem(c->children);
    long count = count_children(ld, c, "s", RESULTS_MAX_SAMPLES);
    xmlChar *unit = attr(ld, c, "unit", 0);
    int pass;

    if (unit && strcmp((const char *)unit, "s") != 0)
        bad(ld, c, "<samples> unit is not \"s\"");
    xmlFree(unit);
    if (ld->failed)
        return;
    if (count < 1) {
        bad(ld, c, "<samples> holds no <s>");
        return;
    }
    if (!(p->samples = calloc((size_t)count, sizeof *p->samples))) {
        bad(ld, c, "out of memory for %ld samples", count);
        return;
    }
    p->has_transfer = 0;
    for (; s && !ld->failed; s = next_elem(s)) {
        if (!is(s, "s"))
            continue;
        if (p->nsamples == 0) {
            p->has_transfer = has(s, "total");
            p->has_whost = has(s, "whost");
        }
        if (p->nsamples >= count) { /* cannot happen: counted above */
            bad(ld, s, "more <s> than counted");
            return;
        }
        read_sample(ld, s, &p->samples[p->nsamples], &pass, p->has_transfer, p->has_whost);
        if (pass > 0 && !p->pass && !(p->pass = calloc((size_t)count, sizeof *p->pass))) {
            bad(ld, c, "out of memory for %ld samples", count);
            return;
        }
        if (p->pass)
            p->pass[p->nsamples] = pass;
        p->nsamples++;
    }
}

/* Whether s, n's statistics, could be those of p's wall times (of its
 * totals in view FIT_TRANSFER, its whost times in FIT_WHOST): the same
 * count and extremes, and in order. */
static void check_summary(loader *ld, xmlNodePtr n, const rs_point *p, const stats_summary *s,
                          fit_view view)
{
    double lo = 0.0, hi = 0.0;
    int i, k = 0, taken;
    if (ld->failed)
        return;
    taken = results_summary_samples(p, NULL);
    for (i = 0; i < p->nsamples; i++) {
        double v = view == FIT_WHOST      ? p->samples[i].whost
                   : view == FIT_TRANSFER ? p->samples[i].total
                                          : p->samples[i].wall;
        /* the summary's samples: the near ones, when it leaves far ones out */
        if (taken < p->nsamples && p->samples[i].far != 0.0)
            continue;
        if (k++ == 0 || v < lo)
            lo = v;
        if (k == 1 || v > hi)
            hi = v;
    }
    if (s->n != taken && taken < p->nsamples)
        bad(ld, n, "<summary> n=%d but the point has %d samples, %d of them near", s->n,
            p->nsamples, taken);
    else if (s->n != taken)
        bad(ld, n, "<summary> n=%d but the point has %d samples", s->n, p->nsamples);
    else if (s->min != lo || s->max != hi)
        bad(ld, n, "<summary> min and max are not those of the samples (%.17g and %.17g)", lo, hi);
    else if (!le(s->min, s->p10) || !le(s->p10, s->median) || !le(s->median, s->p90) ||
             !le(s->p90, s->max) || !le(s->ci_lo, s->median) || !le(s->median, s->ci_hi) ||
             !le(s->min, s->mean) || !le(s->mean, s->max))
        /* the interval may reach past the samples: it says where another
         * run's median would fall, and with few passes that is wider */
        bad(ld, n,
            "<summary> statistics are not in order (min <= p10, ci-lo <= median <= "
            "ci-hi, p90 <= max, mean within min..max)");
}

/* The z of each summary's drift test, which the file does not store,
 * again from p's samples where its drift is flagged (stats.h: the only
 * summaries whose z anything reads). */
static void drift_again(loader *ld, xmlNodePtr n, rs_point *p)
{
    stats_summary *s[3] = {&p->resident, p->has_transfer ? &p->transfer : NULL,
                           p->has_whost ? &p->whost : NULL};
    double ratio;
    int v;
    for (v = 0; v < 3 && !ld->failed; v++)
        if (s[v] && s[v]->drift && results_drift(p, (fit_view)v, &s[v]->drift_z, &ratio, NULL) < 0)
            bad(ld, n, "out of memory testing a point for drift");
}

/* p's <telemetry> n, which only a measured point has, from the source
 * that its device's kind reads (NVML: OpenCL, RAPL: the CPU), with energy
 * over no more samples than it has. */
static void load_telemetry(loader *ld, xmlNodePtr n, const device_info *dev, rs_point *p)
{
    read_telemetry(ld, n, &p->tel);
    if (ld->failed)
        return;
    if (p->nsamples == 0)
        bad(ld, n, "<telemetry> of a point without samples");
    else if (strcmp(dev->kind, p->tel.kind == TEL_NVML ? "opencl" : "openblas") != 0)
        bad(ld, n, "<telemetry> source \"%s\" cannot read device \"%s\" (%s)",
            rs_tel_sources[p->tel.kind == TEL_RAPL], dev->id, dev->kind);
}

static void load_point(loader *ld, xmlNodePtr n, results *r)
{
    static const char *const parts[] = {"verification", "samples", "telemetry"};
    xmlNodePtr part[3], c, sum[3] = {NULL, NULL, NULL};
    const device_info *dev;
    rs_point p;
    int i;

    read_point(ld, n, &p);
    for (i = 0; i < 3; i++)
        part[i] = only_child(ld, n, parts[i]);
    if (ld->failed)
        return;
    if (!(dev = results_device(r, p.device))) {
        bad(ld, n, "<point> refers to device \"%s\", which <devices> does not list", p.device);
        return;
    }
    if (part[0])
        read_verification(ld, part[0], &p);
    if (p.verified && isnan(p.max_error) && p.status != PT_FAILED_VERIFICATION && !ld->failed)
        bad(ld, part[0],
            "<verification> lacks \"max-error\", which only a failed "
            "verification may");
    if (part[1])
        load_samples(ld, part[1], &p);
    for (c = first_elem(n->children); c && !ld->failed; c = next_elem(c)) {
        stats_summary s;
        fit_view v;
        if (!is(c, "summary"))
            continue;
        read_summary(ld, c, &s, &v);
        if (sum[v]) {
            bad(ld, c, "<point> has two \"%s\" summaries", rs_view_names[v]);
            break;
        }
        sum[v] = c;
        if (v == FIT_WHOST)
            p.whost = s;
        else if (v == FIT_TRANSFER)
            p.transfer = s;
        else
            p.resident = s;
    }
    if (!ld->failed && p.nsamples > 0 &&
        (!sum[FIT_RESIDENT] || !sum[FIT_TRANSFER] != !p.has_transfer ||
         !sum[FIT_WHOST] != !p.has_whost))
        bad(ld, n, "<point> summaries do not match its samples (need \"resident\"%s%s)",
            p.has_transfer ? " and \"transfer\"" : "",
            p.has_whost      ? " and \"weights-on-host\""
            : p.has_transfer ? ""
                             : " only");
    if (!ld->failed && p.nsamples == 0 &&
        (sum[FIT_RESIDENT] || sum[FIT_TRANSFER] || sum[FIT_WHOST]))
        bad(ld, n, "<point> has a summary but no samples");
    if (!ld->failed && p.status == PT_OK && p.nsamples == 0)
        bad(ld, n, "<point> with status \"ok\" has no samples");
    if (p.nsamples > 0) {
        check_summary(ld, sum[FIT_RESIDENT], &p, &p.resident, FIT_RESIDENT);
        if (p.has_transfer)
            check_summary(ld, sum[FIT_TRANSFER], &p, &p.transfer, FIT_TRANSFER);
        if (p.has_whost)
            check_summary(ld, sum[FIT_WHOST], &p, &p.whost, FIT_WHOST);
    }
    if (p.nsamples > 0 && !ld->failed)
        drift_again(ld, n, &p);
    if (part[2] && !ld->failed)
        load_telemetry(ld, part[2], dev, &p);
    if (!ld->failed && results_add_point(r, &p, ld->e) < 0)
        bad(ld, n, "out of memory adding a point");
    free(p.samples);
    free(p.pass);
}

static int point_order(const void *x, const void *y)
{
    const rs_point *a = *(const rs_point *const *)x, *b = *(const rs_point *const *)y;
    int c = strcmp(a->device, b->device);
    if (c)
        return c;
    if (a->mode != b->mode)
        return a->mode < b->mode ? -1 : 1;
    if (a->layers != b->layers)
        return a->layers < b->layers ? -1 : 1;
    if (a->hidden != b->hidden)
        return a->hidden < b->hidden ? -1 : 1;
    if (a->batch != b->batch)
        return a->batch < b->batch ? -1 : 1;
    if ((c = strcmp(a->sizes, b->sizes)) != 0 || (c = strcmp(a->net, b->net)) != 0)
        return c;
    return a < b ? -1 : a > b; /* stable: the first in the file comes first */
}

static void load_points(loader *ld, xmlNodePtr pts, results *r)
{
    const rs_point **v = NULL;
    long *lines = NULL, count = count_children(ld, pts, "point", RESULTS_MAX_POINTS);
    xmlNodePtr n;
    int i;
    if (count < 2) {
        for (n = first_elem(pts->children); count > 0 && n && !ld->failed; n = next_elem(n))
            if (is(n, "point"))
                load_point(ld, n, r);
        return;
    }
    v = malloc((size_t)count * sizeof *v);
    lines = malloc((size_t)count * sizeof *lines);
    if (!v || !lines) {
        bad(ld, pts, "out of memory for %ld points", count);
        goto done;
    }
    for (n = first_elem(pts->children); n && !ld->failed && r->npoints < count; n = next_elem(n))
        if (is(n, "point")) {
            lines[r->npoints] = line_of(n);
            load_point(ld, n, r);
        }
    if (ld->failed)
        goto done;
    /* a point is its device, mode, layers, hidden and batch: why it was
     * added does not make it another one */
    for (i = 0; i < r->npoints; i++)
        v[i] = &r->points[i];
    qsort(v, (size_t)r->npoints, sizeof *v, point_order);
    for (i = 1; i < r->npoints; i++)
        if (strcmp(v[i]->device, v[i - 1]->device) == 0 && v[i]->mode == v[i - 1]->mode &&
            v[i]->layers == v[i - 1]->layers && v[i]->hidden == v[i - 1]->hidden &&
            v[i]->batch == v[i - 1]->batch && strcmp(v[i]->sizes, v[i - 1]->sizes) == 0 &&
            strcmp(v[i]->net, v[i - 1]->net) == 0) {
            fail_line(ld, lines[v[i] - r->points],
                      "<point> repeats the point of line %ld "
                      "(device \"%s\", %s, layers=%d hidden=%d batch=%d)",
                      lines[v[i - 1] - r->points], v[i]->device, mode_names[v[i]->mode],
                      v[i]->layers, v[i]->hidden, v[i]->batch);
            break;
        }
done:
    free(v);
    free(lines);
}

static void load_model(loader *ld, xmlNodePtr n, results *r, fit_model *m)
{
    xmlNodePtr o;
    int k;
    read_model(ld, n, m);
    if (ld->failed)
        return;
    if (!results_device(r, m->device)) {
        bad(ld, n, "<model> is of device \"%s\", which <devices> does not list", m->device);
        return;
    }
    if (m->ok && (m->npoints > r->npoints || m->fmin > m->fmax)) {
        bad(ld, n, "<model> points=%d fmin=%g fmax=%g do not fit the %d points", m->npoints,
            m->fmin, m->fmax, r->npoints);
        return;
    }
    if (count_children(ld, n, "outlier", m->ok ? FIT_MAX_OUTLIERS : 0) < 0)
        return;
    for (o = first_elem(n->children); o && !ld->failed; o = next_elem(o)) {
        if (!is(o, "outlier"))
            continue;
        read_outlier(ld, o, &k);
        if (ld->failed)
            return;
        if (k >= r->npoints || strcmp(r->points[k].device, m->device) != 0 ||
            r->points[k].mode != m->mode)
            bad(ld, o,
                "<outlier> point %d is not one of the %d points of this model's device "
                "and mode",
                k, r->npoints);
        else
            m->outliers[m->noutliers++] = k;
    }
}

static void load_cross(loader *ld, xmlNodePtr n, results *r, fit_crossover *c)
{
    xmlNodePtr h, s;
    xmlChar *t;
    int i;
    read_cross(ld, n, c);
    s = only_child(ld, n, "sentence");
    if (ld->failed)
        return;
    if (!results_device(r, c->base) || !results_device(r, c->other) ||
        strcmp(c->base, c->other) == 0) {
        bad(ld, n,
            "<crossover> of \"%s\" and \"%s\": two different devices that <devices> "
            "lists",
            c->base, c->other);
        return;
    }
    if (c->ci_lo > c->ci_hi) {
        bad(ld, n, "<crossover> ci-lo is above ci-hi");
        return;
    }
    for (i = 0; i < r->fit.ncross; i++) {
        const fit_crossover *x = &r->fit.cross[i];
        if (strcmp(x->base, c->base) == 0 && strcmp(x->other, c->other) == 0 &&
            x->mode == c->mode && x->view == c->view && x->cost == c->cost) {
            bad(ld, n, "a second <crossover> of \"%s\" and \"%s\", %s, %s, %s", c->base, c->other,
                mode_names[c->mode], rs_view_names[c->view], measures[c->cost]);
            return;
        }
    }
    if (!s) {
        bad(ld, n, "<crossover> lacks <sentence>");
        return;
    }
    if (first_elem(s->children)) {
        bad(ld, s, "<sentence> holds elements");
        return;
    }
    if (!(t = xmlNodeGetContent(s))) {
        bad(ld, s, "out of memory reading <sentence>");
        return;
    }
    utf8_copy(c->sentence, sizeof c->sentence, (const char *)t);
    xmlFree(t);
    if (count_children(ld, n, "hidden", LIST_MAX) < 0)
        return;
    for (h = first_elem(n->children); h && !ld->failed; h = next_elem(h))
        if (is(h, "hidden"))
            read_hidden(ld, h, &c->per_hidden[c->nhidden++]);
}

/* A loaded model and the line it came from, for the duplicate check. */
typedef struct model_line {
    const fit_model *m;
    long line;
} model_line;

static int cmp_model_line(const void *a, const void *b)
{
    const fit_model *x = ((const model_line *)a)->m, *y = ((const model_line *)b)->m;
    int c = strcmp(x->device, y->device);
    if (c)
        return c;
    if (x->mode != y->mode)
        return x->mode < y->mode ? -1 : 1;
    if (x->view != y->view)
        return x->view < y->view ? -1 : 1;
    if (x->hidden != y->hidden)
        return x->hidden < y->hidden ? -1 : 1;
    return ((const model_line *)a)->line < ((const model_line *)b)->line ? -1 : 1;
}

/* No two models of one device, mode, view and hidden width: sorted, so
 * that a file with many models is checked in n·log n. */
static void check_models_unique(loader *ld, const results *r, model_line *v)
{
    int i;
    qsort(v, (size_t)r->fit.nmodels, sizeof *v, cmp_model_line);
    for (i = 1; i < r->fit.nmodels; i++) {
        const fit_model *a = v[i - 1].m, *b = v[i].m;
        if (strcmp(a->device, b->device) == 0 && a->mode == b->mode && a->view == b->view &&
            a->hidden == b->hidden) {
            fail_line(ld, v[i].line,
                      "a second <model> of device \"%s\", %s, %s, hidden %d "
                      "(the first is on line %ld)",
                      b->device, mode_names[b->mode], rs_view_names[b->view], b->hidden,
                      v[i - 1].line);
            return;
        }
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The number of distinct hidden widths among r's points (0 when out of
 * memory, which the caller's allocation then reports). */
static long distinct_widths(const results *r)
{
    int *h, i;
    long n = 0;
    if (r->npoints == 0 || !(h = malloc((size_t)r->npoints * sizeof *h)))
        return 0;
    for (i = 0; i < r->npoints; i++)
        h[i] = r->points[i].hidden;
    qsort(h, (size_t)r->npoints, sizeof *h, cmp_int);
    for (i = 0; i < r->npoints; i++)
        n += i == 0 || h[i] != h[i - 1];
    free(h);
    return n;
}

static void load_fit(loader *ld, xmlNodePtr fit, results *r)
{
    xmlNodePtr n;
    long nm, nc;
    int i;
    model_line *lines = NULL;

    read_fit(ld, fit, &r->fit_seed, &r->fit.analysis);
    /* a model per device, mode and view over all widths and at each */
    if (ld->failed || count_children(ld, fit, "price", FIT_MAX_PRICES) < 0 ||
        (nm = count_children(ld, fit, "model", 4L * r->ndevices * (1L + distinct_widths(r)))) < 0 ||
        (nc = count_children(ld, fit, "crossover", 8L * r->ndevices)) < 0)
        return;
    r->fit.models = calloc((size_t)nm + 1, sizeof *r->fit.models);
    r->fit.cross = calloc((size_t)nc + 1, sizeof *r->fit.cross);
    lines = malloc(((size_t)nm + 1) * sizeof *lines);
    if (!r->fit.models || !r->fit.cross || !lines) {
        bad(ld, fit, "out of memory loading the fit");
        goto done;
    }
    r->has_fit = 1;
    for (n = first_elem(fit->children); n && !ld->failed; n = next_elem(n)) {
        char id[32];
        double usd;
        if (!is(n, "price"))
            continue;
        read_price(ld, n, id, &usd);
        if (ld->failed)
            goto done;
        if (!results_device(r, id)) {
            bad(ld, n, "<price> of device \"%s\", which <devices> does not list", id);
            goto done;
        }
        for (i = 0; i < r->prices.n; i++)
            if (strcmp(r->prices.device[i], id) == 0) {
                bad(ld, n, "a second <price> of device \"%s\"", id);
                goto done;
            }
        memcpy(r->prices.device[r->prices.n], id, sizeof id);
        r->prices.usd_per_hour[r->prices.n++] = usd;
    }
    for (n = first_elem(fit->children); n && !ld->failed; n = next_elem(n)) {
        if (is(n, "model") && r->fit.nmodels < nm) {
            load_model(ld, n, r, &r->fit.models[r->fit.nmodels]);
            lines[r->fit.nmodels].m = &r->fit.models[r->fit.nmodels];
            lines[r->fit.nmodels].line = line_of(n);
            r->fit.nmodels += !ld->failed;
        } else if (is(n, "crossover") && r->fit.ncross < nc) {
            load_cross(ld, n, r, &r->fit.cross[r->fit.ncross]);
            r->fit.ncross += !ld->failed;
        }
    }
    if (!ld->failed)
        check_models_unique(ld, r, lines);
done:
    free(lines);
}

/* The model of a document that the schema accepted.  *out is the caller's. */
static int load_doc(loader *ld, xmlNodePtr root, results **out)
{
    static const char *const parts[] = {"provenance", "devices", "points", "fit"};
    xmlNodePtr n[4];
    results *r;
    int i;

    *out = NULL;
    if (!(r = results_new()))
        return fail_line(ld, 0, "out of memory");
    read_root(ld, root, &r->partial);
    for (i = 0; i < 4; i++)
        n[i] = only_child(ld, root, parts[i]);
    for (i = 0; i < 3 && !ld->failed; i++)
        if (!n[i])
            bad(ld, root, "<breakeven-results> lacks <%s>", parts[i]);
    /* in the order of their references: points name devices, the fit both */
    if (!ld->failed)
        load_prov(ld, n[0], r);
    if (!ld->failed)
        load_devices(ld, n[1], r);
    if (!ld->failed)
        load_points(ld, n[2], r);
    if (!ld->failed && n[3])
        load_fit(ld, n[3], r);
    if (ld->failed) {
        results_free(r);
        return BE_EFAIL;
    }
    *out = r;
    return BE_OK;
}

/* Whether root is a results file this breakeven reads, said before the
 * schema would say it less clearly. */
static int check_root(loader *ld, xmlNodePtr root)
{
    xmlChar *v;
    long long format = 0;
    char q[64];
    if (!is(root, "breakeven-results"))
        return bad(ld, root, "not a breakeven results file (the root element is <%s>%s)",
                   root ? (const char *)root->name : "nothing",
                   root && root->ns ? ", in a namespace" : "");
    if (!(v = attr(ld, root, "format", 0)))
        return BE_EFAIL;
    if (!parse_int(v, &format) || format < 1 || format > RESULTS_FORMAT)
        bad(ld, root,
            "results format \"%s\" is not supported (this breakeven reads formats 1 to %d)",
            clip(q, v), RESULTS_FORMAT);
    xmlFree(v);
    return ld->failed ? BE_EFAIL : BE_OK;
}

/* diagnose over every element in document order, for a schema error that
 * came without its node (libxml2 loses it on elements with optional
 * attributes): the first element whose reader objects, or BE_OK. */
static int diagnose_any(const char *path, xmlDocPtr doc, err *e)
{
    xmlNodePtr n = xmlDocGetRootElement(doc);
    while (n) {
        if (n->type == XML_ELEMENT_NODE && diagnose(path, n, e) < 0)
            return BE_EFAIL;
        if (n->children)
            n = n->children;
        else {
            while (n && !n->next)
                n = n->parent && n->parent->type == XML_ELEMENT_NODE ? n->parent : NULL;
            n = n ? n->next : NULL;
        }
    }
    return BE_OK;
}

/* The built-in schema, compiled (NULL when it does not compile). */
static xmlRelaxNGPtr compile_schema(void)
{
    xmlRelaxNGParserCtxtPtr sctx;
    xmlRelaxNGPtr schema = NULL;
    sctx = xmlRelaxNGNewMemParserCtxt(embed_results_rng, (int)strlen(embed_results_rng));
    if (sctx) {
        xmlRelaxNGSetParserStructuredErrors(sctx, ignore_error, NULL);
        schema = xmlRelaxNGParse(sctx);
    }
    xmlRelaxNGFreeParserCtxt(sctx);
    return schema;
}

static int validate(loader *ld, xmlDocPtr doc)
{
    xmlRelaxNGPtr schema = ld->memo ? ld->memo->schema : NULL;
    xmlRelaxNGValidCtxtPtr vctx = NULL;
    err why;
    int rc = BE_OK;

    if (ld->schema_seen)
        return BE_OK;
    if (!schema && (schema = compile_schema()) != NULL && ld->memo)
        ld->memo->schema = schema;
    if (!schema || !(vctx = xmlRelaxNGNewValidCtxt(schema))) {
        rc = fail_line(ld, 0, "the built-in results schema does not compile");
        goto done;
    }
    xmlRelaxNGSetValidStructuredErrors(vctx, on_schema_error, ld);
    if (xmlRelaxNGValidateDoc(vctx, doc) != 0) {
        rc = fail_line(ld, line_of(xmlDocGetRootElement(doc)), "does not match the results schema");
        /* name the attribute, where the schema only says "failed to validate attributes" */
        if (ld->schema_node && ld->e && diagnose(ld->path, ld->schema_node, &why) < 0)
            memcpy(ld->e->msg, why.msg, sizeof why.msg);
        else if (!ld->schema_node && ld->e && diagnose_any(ld->path, doc, &why) < 0)
            memcpy(ld->e->msg, why.msg, sizeof why.msg);
    }
done:
    xmlRelaxNGFreeValidCtxt(vctx);
    if (!ld->memo || ld->memo->schema != schema)
        xmlRelaxNGFree(schema);
    return rc;
}

/* The checks of results_load on text[0..len) (NUL-terminated), read or
 * about to be written; ld names the file.  *out is the caller's. */
static int load_text(loader *ld, const char *text, size_t len, results **out)
{
    xmlParserCtxtPtr pctx = NULL;
    xmlDocPtr doc = NULL;
    int rc = BE_EFAIL;
    /* no entity substitution (no XML_PARSE_NOENT), no DTD loading, no
     * network, no XInclude; big line numbers for big files */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC |
                  XML_PARSE_BIG_LINES;
#if LIBXML_VERSION >= 21300
    options |= XML_PARSE_NO_XXE;
#endif

    *out = NULL;
    if (prescan(ld, text, len) < 0)
        goto done;
    if (!(pctx = xmlNewParserCtxt())) {
        fail_line(ld, 0, "out of memory");
        goto done;
    }
    pctx->_private = ld;
    pctx->sax->serror = on_parse_error;
    pctx->sax->internalSubset = on_doctype;
    ld->start = pctx->sax->startElementNs;
    pctx->sax->startElementNs = on_start;
    /* UTF-8 whatever the file declares: what breakeven writes, and what
     * prescan read */
    doc = xmlCtxtReadMemory(pctx, text, (int)len, ld->path, "UTF-8", options);
    if (!doc || ld->failed) {
        if (!ld->failed)
            fail_line(ld, 0, "not well-formed XML");
        goto done;
    }
    if (doc->intSubset || doc->extSubset) {
        fail_line(ld, 0, "a DOCTYPE is not allowed in a results file");
        goto done;
    }
    if (check_root(ld, xmlDocGetRootElement(doc)) < 0 || validate(ld, doc) < 0)
        goto done;
    rc = load_doc(ld, xmlDocGetRootElement(doc), out);
done:
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    return rc;
}

/* results_load_bytes on ld. */
static int load_any(loader *ld, const char *path, const char *bytes, size_t len, results **out,
                    err *e)
{
    if (len == 0)
        return fail_line(ld, 0, "is empty");
    if (len > RESULTS_MAX_BYTES)
        return fail_line(ld, 0, "is %zu bytes; at most %ld are read", len, RESULTS_MAX_BYTES);
    if (gz_is(bytes, len)) {
        /* results.xml.gz, or any results file compressed: the same checks
         * on what it inflates to, itself within the size cap */
        char *xml = NULL;
        int rc;
        if (gz_decompress(path, bytes, len, RESULTS_MAX_BYTES, &xml, &len, e) < 0)
            return BE_EFAIL;
        rc = load_text(ld, xml, len, out);
        free(xml);
        return rc;
    }
    return load_text(ld, bytes, len, out);
}

/* The seen entry of bytes[0..len): its length and hashes (two
 * multiply-xor streams over eight bytes a step, the tail byte by byte). */
static memo_seen seen_of(const char *bytes, size_t len)
{
    memo_seen s = {len, 0xcbf29ce484222325ULL, 0x9e3779b97f4a7c15ULL};
    unsigned long long w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, bytes + i, sizeof w);
        s.a = (s.a ^ w) * 0x100000001b3ULL;
        s.a ^= s.a >> 32;
        s.b = (s.b + w) * 0xff51afd7ed558ccdULL;
        s.b ^= s.b >> 29;
    }
    for (; i < len; i++) {
        s.a = (s.a ^ (unsigned char)bytes[i]) * 0x100000001b3ULL;
        s.b = (s.b ^ (unsigned char)bytes[i]) * 0xc4ceb9fe1a85ec53ULL;
        s.b ^= s.b >> 29;
    }
    return s;
}

static int seen_before(const results_memo *m, const memo_seen *s)
{
    size_t i;
    for (i = 0; i < m->n; i++)
        if (m->seen[i].len == s->len && m->seen[i].a == s->a && m->seen[i].b == s->b)
            return 1;
    return 0;
}

results_memo *results_memo_new(void)
{
    return calloc(1, sizeof(results_memo));
}

void results_memo_free(results_memo *m)
{
    if (!m)
        return;
    xmlRelaxNGFree(m->schema);
    free(m->seen);
    free(m);
}

size_t results_memo_count(const results_memo *m)
{
    return m ? m->n : 0;
}

const void *results_memo_record(const results_memo *m, size_t from, size_t *len)
{
    from = m && from < m->n ? from : results_memo_count(m);
    *len = (results_memo_count(m) - from) * sizeof(memo_seen);
    return m && m->seen ? m->seen + from : NULL;
}

int results_memo_merge(results_memo *m, const void *record, size_t len)
{
    size_t k = len / sizeof(memo_seen);
    if (!m || !k)
        return BE_OK;
    if (m->n + k > m->cap) {
        memo_seen *v = realloc(m->seen, (m->n + k) * sizeof *v);
        if (!v)
            return BE_EFAIL;
        m->seen = v;
        m->cap = m->n + k;
    }
    memcpy(m->seen + m->n, record, k * sizeof(memo_seen));
    m->n += k;
    return BE_OK;
}

int results_load_bytes(const char *path, const char *bytes, size_t len, results **out, err *e)
{
    return results_load_memo(path, bytes, len, NULL, out, e);
}

int results_load_memo(const char *path, const char *bytes, size_t len, results_memo *m,
                      results **out, err *e)
{
    memo_seen s;
    loader ld;
    int rc;
    *out = NULL;
    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = e;
    ld.memo = m;
    if (m) {
        s = seen_of(bytes, len);
        ld.schema_seen = seen_before(m, &s);
    }
    rc = load_any(&ld, path, bytes, len, out, e);
    /* remembered once every check passed; a memo that cannot grow only
     * costs the schema again */
    if (rc == BE_OK && m && !ld.schema_seen) {
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 64;
            memo_seen *v = realloc(m->seen, cap * sizeof *v);
            if (!v)
                return rc;
            m->seen = v;
            m->cap = cap;
        }
        m->seen[m->n++] = s;
    }
    return rc;
}

int results_load(const char *path, results **out, err *e)
{
    return results_load_file(path, NULL, out, e);
}

int results_load_file(const char *path, results_memo *m, results **out, err *e)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    /* the one way to read an input file: a regular file (a FIFO cannot
     * hang the load, the file checked is the file read), of bounded size */
    if ((rc = infile_read(path, RESULTS_MAX_BYTES, INFILE_NONEMPTY, &text, &len, e)) == BE_OK)
        rc = results_load_memo(path, text, len, m, out, e);
    free(text);
    return rc;
}

int results_loads_back(const char *path, const char *text, size_t len, err *e)
{
    loader ld;
    results *back = NULL;
    err why;
    int rc;

    memset(&ld, 0, sizeof ld);
    ld.path = path;
    ld.e = &why;
    rc = load_text(&ld, text, len, &back);
    results_free(back);
    if (rc < 0)
        return err_set(e, BE_EFAIL, "not saved, as breakeven would refuse to load it: %s", why.msg);
    return BE_OK;
}
