/*
 * cache.h — the render cache of an incremental report: what the pages of
 * the archive need from each run, kept in OUT/.cache/ so that adding one
 * run to a year of runs reads one results file, not all of them.
 *
 * Per run, two entries.  The digest (OUT/.cache/<id>.digest): the run's
 * history in small — its provenance, devices, stored fit, prices, and per
 * point only its summary (no samples), and its passes (compare's load
 * correction of the history's run-level series reads them) —
 * with its one-line answer (the archive's entry) and its rows of the
 * archive's results.csv.  It is keyed by the content of the run's results
 * file (cache_key_file) and by this build of breakeven (version, commit and
 * the layout of the structures it holds), so that a run whose results
 * changed under the same id, or a new version, rebuilds it.  The page
 * entry (OUT/.cache/<id>.page): the key of everything the run's own pages
 * were last rendered from (report_keys.c's report_page_key),
 * and its feed item once rendered, published with those pages.
 *
 * Entries are files of OUT like the pages, but read as untrusted input: a
 * checksum over the whole entry, the build key, bounded counts, enums in
 * range and every string terminated; anything else (another version, a
 * torn or edited file) is no entry, and the caller rebuilds it from the
 * results file.  A run that cannot be loaded gets no entry, so a damaged
 * run never poisons the cache.  Entries are written atomically (fsx.h).
 */
#ifndef BE_CACHE_H
#define BE_CACHE_H

#include <stddef.h>

#include "results.h"

#define CACHE_DIR ".cache"
#define CACHE_ANSWER 600
/* the id of the front page's entry: no run id starts with a dot */
#define CACHE_FRONT ".front"

/* The first eight bytes of an entry: a digest, a page entry, and the zero
 * runs a digest is kept in (a string literal's ninth byte, its NUL, is
 * not written). */
#define CACHE_MAGIC_DIGEST "BEDIGES1"
#define CACHE_MAGIC_PAGE "BEPAGES1"
#define CACHE_MAGIC_ZRLE "BEZEROS1"

/* A hash of 128 bits, as 32 hex digits and a NUL. */
typedef struct cache_key {
    char hex[33];
} cache_key;

/* Streams bytes into a key. */
typedef struct cache_hasher {
    unsigned long long a, b;
} cache_hasher;

void cache_hash_init(cache_hasher *h);
void cache_hash(cache_hasher *h, const void *data, size_t len);
void cache_hash_str(cache_hasher *h, const char *s); /* s and its NUL */
void cache_hash_end(const cache_hasher *h, cache_key *k);

/* The key of this build (version, commit, the layout of the structures a
 * digest holds), which every digest carries: the fuzzer seals entries
 * with it. */
void cache_build_key(cache_key *k);
/* The key of the results file at path: its bytes and this build. */
int cache_key_file(const char *path, cache_key *k, err *e);

/* One run in small. */
typedef struct cache_digest {
    results *r;                /* owned: prov, devices, passes, fit,
                                   prices, every point's summary (no
                                   samples) */
    char answer[CACHE_ANSWER]; /* prose_answer of the full run */
    char *rows;                /* owned: its rows of OUT/results.csv */
    size_t nrows;              /* bytes of rows */
} cache_digest;

/* The digest of full (its findings' answer given): a new reduced model. */
int cache_digest_make(const results *full, const char *answer, const char *rows, size_t nrows,
                      cache_digest *d, err *e);
void cache_digest_free(cache_digest *d);

/* OUT/.cache/<id>.digest for the results of key k: BE_OK and *d filled, or
 * BE_EFAIL when there is no valid entry for k (the reason in e). */
int cache_digest_load(const char *out, const char *id, const cache_key *k, cache_digest *d, err *e);
int cache_digest_save(const char *out, const char *id, const cache_key *k, const cache_digest *d,
                      err *e);

/* OUT/.cache/<id>.page: the key its pages were rendered from and, when
 * item is not NULL, its feed item (*item, malloc'd, or NULL when none is
 * kept).  BE_EFAIL when there is no valid entry. */
int cache_page_load(const char *out, const char *id, cache_key *k, char **item, err *e);
/* The bytes of that entry (*data, malloc'd, *len) and its path, for the
 * report to publish with the pages it describes (site_flush), so that the
 * cache never says a page is written that is not. */
int cache_page_entry(const char *out, const char *id, const cache_key *k, const char *item,
                     char *path, size_t size, char **data, size_t *len, err *e);

/* OUT/.cache/<name>.mark: the key of charts drawn in place (not staged
 * with the pages), so that a report draws them again only when what they
 * show changed.  cache_mark_same: 1 when the mark holds k. */
int cache_mark_same(const char *out, const char *name, const cache_key *k);
int cache_mark_save(const char *out, const char *name, const cache_key *k, err *e);
/* Removes the mark (BE_OK when there is none): the charts are drawn from
 * something else now (`compare` draws a comparison chart with its own
 * options over the report's). */
int cache_mark_drop(const char *out, const char *name, err *e);

#endif
