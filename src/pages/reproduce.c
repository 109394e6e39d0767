/*
 * reproduce.c — a clean command that reproduces a run (see reproduce.h).
 */
#include "reproduce.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"

#define WORD 1024

/* Options that say where and how a run wrote, not what it measured: each
 * with whether it takes a value. */
static const struct {
    const char *name;
    int value;
} dropped[] = {
    {"--out", 1},   {"-o", 1},         {"--data", 1},   {"--quiet", 0},
    {"-q", 0},      {"--base-url", 1}, {"--title", 1},  {"--author", 1},
    {"--price", 1}, {"--prices", 1},   {"--paired", 1}, /* a side of `ab`: its socket is gone with it */
};

/* 1 when word is a dropped option; *skip_next set when its value is the
 * next word (not glued on with "=" or, for -o, directly).  A long option
 * may be abbreviated, as getopt_long allows: the run accepted the line, so
 * a prefix of a dropped option's name is that option. */
static int is_dropped(const char *word, int *skip_next)
{
    size_t i, n, k = strcspn(word, "=");
    *skip_next = 0;
    for (i = 0; i < sizeof dropped / sizeof *dropped; i++) {
        const char *name = dropped[i].name;
        n = strlen(name);
        if (name[1] == '-' && word[0] == '-' && word[1] == '-' && k > 2 && k <= n &&
            strncmp(word, name, k) == 0) {
            *skip_next = dropped[i].value && word[k] == '\0';
            return 1;
        }
        if (name[1] != '-' && strncmp(word, name, 2) == 0 &&
            (word[2] == '\0' || dropped[i].value)) {
            *skip_next = dropped[i].value && word[2] == '\0';
            return 1;
        }
    }
    return 0;
}

/* Appends word, single-quoted when it holds anything but the characters of
 * ids, lists, numbers and options. */
static void put_word(char *buf, size_t size, const char *word)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-.,:=/+@%";
    const char *p;
    if (buf[0])
        fmt_append(buf, size, " ");
    if (word[0] && strspn(word, plain) == strlen(word)) {
        fmt_append(buf, size, "%s", word);
        return;
    }
    fmt_append(buf, size, "'");
    for (p = word; *p; p++)
        if (*p == '\'')
            fmt_append(buf, size, "'\\''");
        else
            fmt_append(buf, size, "%c", *p);
    fmt_append(buf, size, "'");
}

void reproduce_command(const results *r, char *buf, size_t size)
{
    const char *s = r->prov.command;
    char word[WORD];
    int first = 1, skip = 0, i;

    buf[0] = '\0';
    put_word(buf, size, "breakeven");
    while (*s) {
        size_t n;
        int next;
        while (*s == ' ')
            s++;
        n = strcspn(s, " ");
        if (n == 0)
            break;
        snprintf(word, sizeof word, "%.*s", (int)(n < WORD ? n : WORD - 1), s);
        s += n;
        if (first) { /* the program, as it was called */
            first = 0;
            continue;
        }
        if (skip) {
            skip = 0;
            continue;
        }
        if (is_dropped(word, &next)) {
            skip = next;
            continue;
        }
        put_word(buf, size, word);
    }
    if (first)
        put_word(buf, size, "run");
    for (i = 0; i < r->prices.n; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s=%.10g", r->prices.device[i], r->prices.usd_per_hour[i]);
        put_word(buf, size, "--price");
        put_word(buf, size, p);
    }
}

void reproduce_commit(const results *r, char *buf, size_t size, int *dirty)
{
    const char *c = r->prov.commit;
    size_t n = strlen(c);
    static const char mark[] = "-dirty";
    *dirty = 0;
    buf[0] = '\0';
    if (n == 0 || strcmp(c, "unknown") == 0)
        return;
    if (n > sizeof mark - 1 && strcmp(c + n - (sizeof mark - 1), mark) == 0) {
        *dirty = 1;
        n -= sizeof mark - 1;
    }
    snprintf(buf, size, "%.*s", (int)n, c);
}
