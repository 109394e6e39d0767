/*
 * fuzz_cache.c — the libFuzzer harness of the report's cache entries
 * (OUT/.cache/<id>.digest and .page, cache.h), which report reads as
 * untrusted input: files of OUT, like the pages.
 *
 * A checksum guards each entry against damage, not against someone who
 * writes it on purpose, so the harness seals what the fuzzer makes: the
 * first byte of an input picks what the rest becomes before the checksum
 * is appended —
 *   0  the whole entry, magic included (the checksum and the decoding of
 *      zero runs: a record reaching past either end);
 *   1  a digest's body after a valid magic, build key and results key
 *      (counts, structures, strings cut at their buffers, enums);
 *   2  the records of zero runs (zeros u32, bytes u32, the bytes) of such
 *      a body, after a first record holding the valid head: a digest's
 *      body is mostly zeros, so its seeds fit libFuzzer's length limit;
 *   3  a page entry's body after its magic.
 * What loads must be sane: every string of the digest's run ends inside
 * its buffer, so a report can print it; beyond ASan and UBSan, the harness
 * aborts when a refusal is not one printable line.  Built and run by `make
 * fuzz`; tests/fuzz/corpus-cache holds the seeds.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "fsx.h"
#include "fuzz.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the id of the run of the seeds (tests/fuzz/corpus-cache) */
#define ID "20261123T073413Z-vm"

/* The fuzzer's OUT, made once per process. */
static const char *out_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        char sub[96];
        snprintf(dir, sizeof dir, "/tmp/fuzz-cache-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(sub, sizeof sub, "%s/" CACHE_DIR, dir);
        if (mkdir(sub, 0700) != 0)
            abort();
    }
    return dir;
}

/* The results key every digest of the harness is made for. */
static void results_key(cache_key *k)
{
    cache_hasher h;
    cache_hash_init(&h);
    cache_hash_str(&h, "fuzz");
    cache_hash_end(&h, k);
}

/* What records of zero runs decode to, read as far as they are whole
 * (the decoder itself judges the rest). */
static uint32_t records_total(const uint8_t *d, size_t n)
{
    uint64_t total = 0;
    size_t at = 0;
    while (n - at >= 8) {
        uint32_t zeros, lit;
        memcpy(&zeros, d + at, 4);
        memcpy(&lit, d + at + 4, 4);
        at += 8;
        total += (uint64_t)zeros + lit;
        if (lit > n - at)
            break;
        at += lit;
    }
    return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

static void put(char **p, const void *d, size_t n)
{
    memcpy(*p, d, n);
    *p += n;
}

/* Every string of a loaded run ends inside its buffer: strlen stops
 * there, which ASan watches. */
static void check_digest(const cache_digest *d)
{
    const results *r = d->r;
    int i;
    (void)strlen(d->answer);
    (void)strlen(r->prov.env);
    (void)strlen(r->prov.command);
    for (i = 0; i < r->ndevices; i++)
        (void)strlen(r->devices[i].name);
    for (i = 0; i < r->npoints; i++) {
        const rs_point *p = &r->points[i];
        (void)strlen(p->net);
        (void)strlen(p->sizes);
        (void)strlen(p->message);
        if (!results_device(r, p->device))
            abort();
    }
    for (i = 0; i < r->fit.ncross; i++)
        (void)strlen(r->fit.cross[i].sentence);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *out = out_dir();
    char path[256], *entry, *w, *item = NULL;
    cache_key rk, bk, sum, got;
    cache_hasher h;
    cache_digest d;
    uint32_t total;
    err e;
    int which;

    if (size == 0 || size > (1u << 20))
        return 0;
    which = data[0] & 3;
    data++;
    size--;
    if (!(entry = malloc(size + 256)))
        return 0;
    w = entry;
    results_key(&rk);
    cache_build_key(&bk);
    if (which == 1 || which == 2) {
        char head[8 + 2 * sizeof rk.hex];
        char *hw = head;
        put(&hw, CACHE_MAGIC_DIGEST, 8);
        put(&hw, bk.hex, sizeof bk.hex);
        put(&hw, rk.hex, sizeof rk.hex);
        if (which == 2) {
            uint32_t zero = 0, nhead = (uint32_t)sizeof head;
            total = (uint32_t)sizeof head + records_total(data, size);
            put(&w, CACHE_MAGIC_ZRLE, 8);
            put(&w, &total, 4);
            put(&w, &zero, 4);
            put(&w, &nhead, 4);
        }
        put(&w, head, sizeof head);
    } else if (which == 3)
        put(&w, CACHE_MAGIC_PAGE, 8);
    put(&w, data, size);
    cache_hash_init(&h);
    cache_hash(&h, entry, (size_t)(w - entry));
    cache_hash_end(&h, &sum);
    put(&w, sum.hex, sizeof sum.hex);
    snprintf(path, sizeof path, "%s/" CACHE_DIR "/" ID ".%s", out, which == 3 ? "page" : "digest");
    if (fsx_write_atomic(path, entry, (size_t)(w - entry), &e) < 0)
        abort();
    free(entry);
    if (which == 3) {
        if (cache_page_load(out, ID, &got, &item, &e) == BE_OK) {
            if (strlen(got.hex) > 32)
                abort();
            free(item);
        } else
            fuzz_check_message(e.msg);
        return 0;
    }
    if (cache_digest_load(out, ID, &rk, &d, &e) == BE_OK) {
        check_digest(&d);
        cache_digest_free(&d);
    } else
        fuzz_check_message(e.msg);
    return 0;
}
