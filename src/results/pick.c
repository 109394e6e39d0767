/*
 * pick.c — runs of the archive chosen by what they were made with (see
 * pick.h).
 */
#include "pick.h"

#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "fmt.h"

static const char *const key_names[] = {"version", "commit", "blas", "driver", "host"};
#define NKEYS ((int)(sizeof key_names / sizeof *key_names))

int pick_is_selector(const char *arg)
{
    return arg && arg[0] == '@';
}

int pick_parse(const char *arg, pick_sel *s, err *e)
{
    const char *p = arg + 1;

    memset(s, 0, sizeof *s);
    if (!pick_is_selector(arg) || !*p)
        return err_set(e, BE_EUSAGE,
                       "compare: \"%.64s\" is not a selector (@KEY=VALUE, KEY one of version, "
                       "commit, blas, driver, host)",
                       arg ? arg : "");
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        size_t klen, vlen;
        int k, j;
        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end)
            return err_set(e, BE_EUSAGE, "compare: %.64s: \"%.*s\" is not KEY=VALUE", arg,
                           (int)(end - p > 64 ? 64 : end - p), p);
        klen = (size_t)(eq - p);
        vlen = (size_t)(end - eq - 1);
        for (k = 0; k < NKEYS && !(strlen(key_names[k]) == klen && !strncmp(p, key_names[k], klen));
             k++)
            ;
        if (k == NKEYS)
            return err_set(e, BE_EUSAGE,
                           "compare: %.64s: unknown key \"%.*s\" (version, commit, blas, driver "
                           "or host)",
                           arg, (int)(klen > 32 ? 32 : klen), p);
        if (vlen == 0 || vlen >= sizeof s->value[0])
            return err_set(e, BE_EUSAGE, "compare: %.64s: %s needs a value (at most %d bytes)", arg,
                           key_names[k], (int)sizeof s->value[0] - 1);
        for (j = 0; j < s->n; j++)
            if (s->key[j] == (pick_key)k)
                return err_set(e, BE_EUSAGE, "compare: %.64s: %s given twice", arg, key_names[k]);
        s->key[s->n] = (pick_key)k;
        memcpy(s->value[s->n], eq + 1, vlen);
        s->value[s->n][vlen] = '\0';
        s->n++;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return err_set(e, BE_EUSAGE, "compare: %.64s: ends with \",\"", arg);
    }
    return BE_OK;
}

/* The i-th value of key k in run r: its version, commit, OpenBLAS
 * version or host (i = 0 only), or device i's driver; NULL past the
 * last. */
static const char *key_value(pick_key k, const results *r, int i)
{
    switch (k) {
    case PICK_VERSION:
        return i == 0 ? r->prov.version : NULL;
    case PICK_COMMIT:
        return i == 0 ? r->prov.commit : NULL;
    case PICK_BLAS:
        return i == 0 ? r->prov.blas_version : NULL;
    case PICK_HOST:
        return i == 0 ? r->prov.host : NULL;
    case PICK_DRIVER:
        return i < r->ndevices ? r->devices[i].driver : NULL;
    }
    return NULL;
}

/* Whether any value of key k in r is v. */
static int matches(pick_key k, const char *v, const results *r)
{
    const char *x;
    int i;
    for (i = 0; (x = key_value(k, r, i)); i++)
        if (strcmp(x, v) == 0)
            return 1;
    return 0;
}

int pick_match(const pick_sel *s, const results *r)
{
    int i;
    for (i = 0; i < s->n; i++)
        if (!matches(s->key[i], s->value[i], r))
            return 0;
    return 1;
}

/* Adds v to vals[0..*n) unless it is there or empty (at most max). */
static void add_value(const char **vals, int *n, int max, const char *v)
{
    int i;
    for (i = 0; i < *n && strcmp(vals[i], v) != 0; i++)
        ;
    if (i == *n && v[0] && *n < max)
        vals[(*n)++] = v;
}

/* "0.2.0, 0.3.0": the distinct values of key k over the archive, in the
 * order first seen (a driver: every device's), cut to fit. */
static void values_text(const archive *a, pick_key k, char *buf, size_t size)
{
    const char *vals[16], *x;
    int i, j, n = 0;
    for (i = 0; i < a->n; i++)
        for (j = 0; (x = key_value(k, a->v[i].r, j)); j++)
            add_value(vals, &n, 16, x);
    buf[0] = '\0';
    for (i = 0; i < n; i++)
        fmt_append(buf, size, "%s%s", i ? ", " : "", vals[i]);
}

int pick_side_expand(const char *out, const char *side, const char *const *args, int n,
                     pick_side *ps, err *e)
{
    archive arch;
    int i, j, rc = BE_OK, any = 0;

    memset(ps, 0, sizeof *ps);
    for (i = 0; i < n; i++)
        any |= pick_is_selector(args[i]);
    if (!any) {
        if (n > PICK_MAX_RUNS)
            return err_set(e, BE_EUSAGE, "compare: at most %d runs per side", PICK_MAX_RUNS);
        for (i = 0; i < n; i++)
            ps->arg[ps->n++] = args[i];
        return BE_OK;
    }
    for (i = 0; i < n; i++) {
        pick_sel s;
        if (pick_is_selector(args[i]) && (rc = pick_parse(args[i], &s, e)) < 0)
            return rc;
    }
    if ((rc = archive_load(out, NULL, 0, NULL, &arch, e)) < 0)
        return err_prefix(e, rc, "compare: side %s selects from the archive", side);
    for (i = 0; i < n && rc == BE_OK; i++) {
        pick_sel s;
        int found = 0;
        if (!pick_is_selector(args[i])) {
            if (ps->n == PICK_MAX_RUNS)
                goto too_many;
            ps->arg[ps->n++] = args[i];
            continue;
        }
        pick_parse(args[i], &s, e);
        for (j = 0; j < arch.n; j++) {
            if (!pick_match(&s, arch.v[j].r))
                continue;
            if (ps->n == PICK_MAX_RUNS)
                goto too_many;
            snprintf(ps->id[ps->n], sizeof ps->id[0], "%s", arch.v[j].r->prov.id);
            ps->arg[ps->n] = ps->id[ps->n];
            ps->n++;
            found++;
        }
        if (!found) {
            char have[512];
            values_text(&arch, s.key[0], have, sizeof have);
            rc = err_set(
                e, BE_EUSAGE,
                "compare: side %s: %s matches none of the %d runs in %s/runs (%s there: %s)", side,
                args[i], arch.n, out, key_names[s.key[0]], have[0] ? have : "none");
        }
    }
    archive_free(&arch);
    return rc;
too_many:
    archive_free(&arch);
    return err_set(e, BE_EUSAGE, "compare: side %s holds more than %d runs (select fewer)", side,
                   PICK_MAX_RUNS);
}
