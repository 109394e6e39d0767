/*
 * clgemm_cache.c — program binaries and tuning files on disk
 * (clgemm_cache.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "clgemm_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsx.h"
#include "infile.h"

#define FNV_INIT 0xcbf29ce484222325ULL

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The hash of n strings, each with its NUL, so that the parts cannot run
 * into one another ("ab" + "c" differs from "a" + "bc"). */
static uint64_t key_of(const char *const *parts, size_t n)
{
    uint64_t key = FNV_INIT;
    size_t i;
    for (i = 0; i < n; i++)
        key = fnv1a(key, parts[i], strlen(parts[i]) + 1);
    return key;
}

int clgemm_cache_dir(char *buf, size_t len, int create, err *e)
{
    const char *env = getenv("BREAKEVEN_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int n;
    if (env && *env)
        n = snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        n = snprintf(buf, len, "%s/breakeven", xdg);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.cache/breakeven", home);
    else
        return err_set(e, BE_EFAIL, "no cache directory (set BREAKEVEN_CACHE)");
    if (n < 0 || (size_t)n >= len)
        return err_set(e, BE_EFAIL, "cache directory: path too long");
    return create ? fsx_mkdirs(buf, e) : BE_OK;
}

/* ---------------------------------------------------------------------- */
/* Program binaries                                                        */
/* ---------------------------------------------------------------------- */

static const char bin_magic[8] = {'B', 'E', 'C', 'L', 'B', 'I', 'N', '1'};

/* magic, key, length, checksum */
#define BIN_HEADER (sizeof bin_magic + 3 * sizeof(uint64_t))

int clgemm_cache_program(const char *device, const char *driver, const char *platform,
                         const char *opts, uint64_t *key, char *path, size_t len, err *e)
{
    const char *parts[5];
    char dir[CLGEMM_CACHE_PATH];
    int rc, n;
    parts[0] = device;
    parts[1] = driver;
    parts[2] = platform;
    parts[3] = embed_dense_cl;
    parts[4] = opts;
    *key = key_of(parts, sizeof parts / sizeof parts[0]);
    if ((rc = clgemm_cache_dir(dir, sizeof dir, 1, e)))
        return rc;
    n = snprintf(path, len, "%s/%016llx.clbin", dir, (unsigned long long)*key);
    if (n < 0 || (size_t)n >= len)
        return err_set(e, BE_EFAIL, "%s: cache path too long", dir);
    return BE_OK;
}

int clgemm_cache_load_program(const char *path, uint64_t key, unsigned char **bin, size_t *len,
                              err *e)
{
    char *text = NULL;
    size_t size = 0;
    uint64_t k, n, sum;
    int rc;
    *bin = NULL;
    *len = 0;
    if ((rc = fsx_read_all(path, &text, &size, e)))
        return rc;
    if (size < BIN_HEADER || memcmp(text, bin_magic, sizeof bin_magic) != 0)
        goto bad;
    memcpy(&k, text + sizeof bin_magic, sizeof k);
    memcpy(&n, text + sizeof bin_magic + sizeof k, sizeof n);
    memcpy(&sum, text + sizeof bin_magic + 2 * sizeof k, sizeof sum);
    /* the whole file is the entry: no more, no less */
    if (k != key || n == 0 || n != size - BIN_HEADER ||
        fnv1a(FNV_INIT, text + BIN_HEADER, (size_t)n) != sum)
        goto bad;
    memmove(text, text + BIN_HEADER, (size_t)n);
    *bin = (unsigned char *)text;
    *len = (size_t)n;
    return BE_OK;
bad:
    free(text);
    return err_set(e, BE_EFAIL, "%s: not an intact cache entry for this program", path);
}

int clgemm_cache_store_program(const char *path, uint64_t key, const unsigned char *bin, size_t len,
                               err *e)
{
    const uint64_t n = len, sum = fnv1a(FNV_INIT, bin, len);
    unsigned char *buf = malloc(BIN_HEADER + len);
    int rc;
    if (!buf)
        return err_set(e, BE_EFAIL, "%s: out of memory for a %zu-byte cache entry", path, len);
    memcpy(buf, bin_magic, sizeof bin_magic);
    memcpy(buf + sizeof bin_magic, &key, sizeof key);
    memcpy(buf + sizeof bin_magic + sizeof key, &n, sizeof n);
    memcpy(buf + sizeof bin_magic + 2 * sizeof key, &sum, sizeof sum);
    memcpy(buf + BIN_HEADER, bin, len);
    rc = fsx_write_atomic(path, buf, BIN_HEADER + len, e);
    free(buf);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Tuning files                                                            */
/* ---------------------------------------------------------------------- */

static const char tune_magic[] =
    "# breakeven kernel tuning (breakeven tune); delete to use the defaults";

/* The key of d's tuning file: what must match for its winner to apply. */
static uint64_t tuned_key(const device_info *d)
{
    const char *parts[4];
    parts[0] = d->name;
    parts[1] = d->driver;
    parts[2] = d->library;
    parts[3] = embed_dense_cl;
    return key_of(parts, sizeof parts / sizeof parts[0]);
}

/* d's tuning file path into path; BE_EFAIL when there is no cache
 * directory. */
static int tuned_path(const device_info *d, char *path, size_t len, int create, err *e)
{
    char dir[CLGEMM_CACHE_PATH];
    int rc, n;
    if ((rc = clgemm_cache_dir(dir, sizeof dir, create, e)))
        return rc;
    n = snprintf(path, len, "%s/tune-%016llx.txt", dir, (unsigned long long)tuned_key(d));
    if (n < 0 || (size_t)n >= len)
        return err_set(e, BE_EFAIL, "%s: cache path too long", dir);
    return BE_OK;
}

/* The value of the line "name value" in text, copied into buf: 1, or 0
 * when there is no such line, -1 when its value does not fit buf. */
static int tuned_field(const char *text, const char *name, char *buf, size_t len)
{
    const size_t n = strlen(name);
    const char *l, *v, *end;
    size_t vn;
    for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, name, n) != 0 || l[n] != ' ')
            continue;
        v = l + n + 1;
        end = strchr(v, '\n');
        vn = end ? (size_t)(end - v) : strlen(v);
        if (vn >= len)
            return -1;
        memcpy(buf, v, vn);
        buf[vn] = '\0';
        return 1;
    }
    return 0;
}

/* The configurations of a tuning file's text into *inf and *train: BE_OK,
 * or BE_EFAIL leaving both alone when the text is not an intact tuning
 * file of key.  A file without "options-training" (written before there
 * was one) gives its "options" to both modes; one with a broken
 * "options-training" is damaged as a whole. */
static int tuned_parse(const char *text, const char *key, clgemm_config *inf, clgemm_config *train)
{
    char got[32], opts[512];
    clgemm_config ci, ct;
    err e;
    int has;
    if (strncmp(text, tune_magic, strlen(tune_magic)) != 0 ||
        tuned_field(text, "key", got, sizeof got) != 1 || strcmp(got, key) != 0 ||
        tuned_field(text, "options", opts, sizeof opts) != 1 ||
        clgemm_config_parse(opts, &ci, &e) != BE_OK)
        return BE_EFAIL;
    ct = ci;
    has = tuned_field(text, "options-training", opts, sizeof opts);
    if (has < 0 || (has && clgemm_config_parse(opts, &ct, &e) != BE_OK))
        return BE_EFAIL;
    *inf = ci;
    *train = ct;
    return BE_OK;
}

int clgemm_cache_load_tuned(const device_info *d, clgemm_config *inf, clgemm_config *train,
                            char *path, size_t len)
{
    char p[CLGEMM_CACHE_PATH + 64], key[32];
    char *text = NULL;
    size_t n = 0;
    err e;
    int rc = tuned_path(d, p, sizeof p, 0, &e);
    if (path)
        snprintf(path, len, "%s", rc ? "" : p);
    /* a tuning file is a few lines of text: anything else is not one */
    if (rc || infile_read(p, 65536, INFILE_TEXT, &text, &n, &e) != BE_OK)
        return BE_EFAIL;
    snprintf(key, sizeof key, "%016llx", (unsigned long long)tuned_key(d));
    rc = strlen(text) == n ? tuned_parse(text, key, inf, train) : BE_EFAIL;
    free(text);
    return rc;
}

int clgemm_cache_store_tuned(const device_info *d, const clgemm_config *inf,
                             const clgemm_config *train, char *path, size_t len, err *e)
{
    char p[CLGEMM_CACHE_PATH + 64], opts[512], topts[512], text[2048];
    int rc, n;
    if ((rc = clgemm_config_options(inf, opts, sizeof opts, e)) ||
        (rc = clgemm_config_options(train, topts, sizeof topts, e)))
        return rc;
    if ((rc = tuned_path(d, p, sizeof p, 1, e)))
        return err_prefix(e, rc, "%s: tuning file", d->name);
    if (path)
        snprintf(path, len, "%s", p);
    n = snprintf(text, sizeof text,
                 "%s\nkey %016llx\ndevice %s\ndriver %s\noptions %s\noptions-training %s\n",
                 tune_magic, (unsigned long long)tuned_key(d), d->name, d->driver, opts, topts);
    if (n < 0 || (size_t)n >= sizeof text)
        return err_set(e, BE_EFAIL, "%s: tuning file too long", p);
    return fsx_write_atomic(p, text, (size_t)n, e);
}
