/*
 * net.c — parsing and counting of networks (see net.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "net.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "utf8.h"

/* Each preset's sizes as its source states them; softmax, dropout and
 * GELU are not modelled (their cost is an elementwise pass). */
static const net_preset presets[] = {
    {"mnist-mlp", "784-512-256-10",
     "the MNIST multilayer perceptron of breakeven's issue 22 (28×28 pixels in, 10 classes "
     "out)"},
    {"keras-mnist-mlp", "784-512-512-10",
     "Keras 2's examples/mnist_mlp.py: Dense(512), Dense(512), Dense(10)"},
    {"dlrm-kaggle-bottom", "13-512-256-64-16",
     "the bottom MLP of DLRM on Criteo Kaggle: facebookresearch/dlrm "
     "bench/dlrm_s_criteo_kaggle.sh, --arch-mlp-bot=13-512-256-64-16"},
    {"bert-base-ffn", "768-3072-768",
     "the feed-forward block of BERT-base (Devlin et al. 2019: hidden 768, intermediate 3072)"},
    {"gpt3-6.7b-ffn", "4096-16384-4096",
     "the feed-forward block of GPT-3 6.7B (Brown et al. 2020, table 2.1: d_model 4096, "
     "d_ff = 4·d_model)"},
};
#define NPRESETS ((int)(sizeof presets / sizeof *presets))

const net_preset *net_presets(int *n)
{
    *n = NPRESETS;
    return presets;
}

/* text for a message: one printable line (utf8_escape), cut to size. */
static const char *shown(const char *text, char *buf, size_t size)
{
    utf8_escape(buf, size, text);
    return buf;
}

int net_name_ok(const char *name)
{
    size_t i, n = strlen(name);
    int letter = 0;
    if (n == 0 || n >= NET_NAME_MAX)
        return 0;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && c != '-' && c != '_' && c != '.')
            return 0;
        letter |= isalpha(c) != 0;
    }
    /* a name starts with a letter: "784-10" is sizes */
    return letter && isalpha((unsigned char)name[0]);
}

void net_format(const net_spec *n, char *buf, size_t size)
{
    size_t used = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i <= n->layers && used + 1 < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%d", i ? "-" : "", n->dims[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int net_parse_sizes(const char *text, const char *what, net_spec *out, err *e)
{
    char q[64];
    const char *s = text;
    int k = 0;
    net_spec n;
    memset(&n, 0, sizeof n);
    for (;;) {
        long v = 0;
        const char *start = s;
        while (*s >= '0' && *s <= '9') {
            if (v <= NET_MAX_SIZE)
                v = v * 10 + (*s - '0');
            s++;
        }
        if (s == start || (*s != '-' && *s)) {
            if (s == start && (*s == '-' || !*s) && k > 0)
                return err_set(e, BE_EUSAGE, "%s: \"%s\": size %d is empty", what,
                               shown(text, q, sizeof q), k + 1);
            return err_set(e, BE_EUSAGE,
                           "%s: \"%s\" is not layer sizes such as 784-512-10 (positive integers "
                           "joined by '-')",
                           what, shown(text, q, sizeof q));
        }
        if (v < 1 || v > NET_MAX_SIZE)
            return err_set(e, BE_EUSAGE, "%s: \"%s\": size %d is %s; sizes are 1..%d", what,
                           shown(text, q, sizeof q), k + 1, v < 1 ? "0" : "too large",
                           NET_MAX_SIZE);
        if (k > NET_MAX_LAYERS)
            return err_set(e, BE_EUSAGE, "%s: \"%s\" has more than %d layers", what,
                           shown(text, q, sizeof q), NET_MAX_LAYERS);
        n.dims[k++] = (int)v;
        if (!*s)
            break;
        s++;
    }
    if (k < 2)
        return err_set(e, BE_EUSAGE,
                       "%s: \"%s\" has one size; a network needs an input and an output size, "
                       "such as 784-10",
                       what, shown(text, q, sizeof q));
    n.layers = k - 1;
    net_format(&n, n.name, sizeof n.name);
    if (strlen(n.name) + 1 >= sizeof n.name) /* long networks are named by their shape */
        snprintf(n.name, sizeof n.name, "net-%d-layers-%d-to-%d", n.layers, n.dims[0],
                 n.dims[n.layers]);
    *out = n;
    return BE_OK;
}

int net_parse(const char *text, const char *what, net_spec *out, err *e)
{
    char q[64], names[256] = "";
    int i, rc;
    if (*text >= '0' && *text <= '9')
        return net_parse_sizes(text, what, out, e);
    for (i = 0; i < NPRESETS; i++) {
        if (strcmp(text, presets[i].name) == 0) {
            if ((rc = net_parse_sizes(presets[i].sizes, what, out, e)) < 0)
                return rc;
            snprintf(out->name, sizeof out->name, "%s", presets[i].name);
            return BE_OK;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 presets[i].name);
    }
    return err_set(e, BE_EUSAGE,
                   "%s: \"%s\" is neither layer sizes such as 784-512-10 nor a preset (%s)", what,
                   shown(text, q, sizeof q), names);
}

int net_parse_line(const char *line, const char *what, net_spec *out, err *e)
{
    char name[NET_NAME_MAX + 1], q[256];
    const char *sp = line;
    size_t len;
    int rc;
    while (*sp && !isspace((unsigned char)*sp))
        sp++;
    if (!*sp)
        return net_parse(line, what, out, e);
    len = (size_t)(sp - line);
    if (len >= sizeof name) {
        snprintf(name, sizeof name, "%s", line);
        return err_set(e, BE_EUSAGE, "%s: the name \"%s…\" is longer than %d bytes", what,
                       shown(name, q, sizeof q), NET_NAME_MAX - 1);
    }
    memcpy(name, line, len);
    name[len] = '\0';
    while (isspace((unsigned char)*sp))
        sp++;
    if (!net_name_ok(name))
        return err_set(e, BE_EUSAGE,
                       "%s: \"%s\" is not a network name (a letter, then letters, digits, "
                       "'.', '_' or '-')",
                       what, shown(name, q, sizeof q));
    if (strpbrk(sp, " \t"))
        return err_set(e, BE_EUSAGE, "%s: expected \"NAME SIZES\", got \"%s\"", what,
                       shown(line, q, sizeof q));
    if ((rc = net_parse_sizes(sp, what, out, e)) < 0)
        return rc;
    snprintf(out->name, sizeof out->name, "%s", name);
    return BE_OK;
}

int net_load_file(const char *path, net_spec *nets, int *n, err *e)
{
    char *text = NULL;
    int rc;
    if ((rc = infile_read(path, NET_FILE_MAX_BYTES, INFILE_TEXT, &text, NULL, e)) < 0)
        return err_prefix(e, BE_EUSAGE, "--net-file");
    rc = net_parse_text(path, text, nets, n, e);
    free(text);
    return rc;
}

int net_parse_text(const char *path, char *text, net_spec *nets, int *n, err *e)
{
    char what[300], *line, *next, shown_path[256];
    int lineno = 0, rc = BE_OK, had = *n;
    utf8_escape(shown_path, sizeof shown_path, path);
    for (line = text; line && rc == BE_OK; line = next) {
        char *hash, *s = line, *end;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        snprintf(what, sizeof what, "%s:%d", shown_path, lineno);
        if ((hash = strchr(s, '#')))
            *hash = '\0';
        while (isspace((unsigned char)*s))
            s++;
        end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1]))
            *--end = '\0';
        if (!*s)
            continue;
        if (*n == NET_MAX_NETS)
            rc = err_set(e, BE_EUSAGE, "%s: more than %d networks in one run", what, NET_MAX_NETS);
        else if ((rc = net_parse_line(s, what, &nets[*n], e)) == BE_OK)
            (*n)++;
    }
    if (rc == BE_OK && *n == had)
        rc = err_set(e, BE_EUSAGE, "--net-file: %s: no network in it", shown_path);
    if (rc < 0)
        *n = had;
    return rc;
}

int net_same_sizes(const net_spec *a, const net_spec *b)
{
    int i;
    if (a->layers != b->layers)
        return 0;
    for (i = 0; i <= a->layers; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

int net_widest(const net_spec *n)
{
    int i, w = 0;
    for (i = 0; i <= n->layers; i++)
        if (n->dims[i] > w)
            w = n->dims[i];
    return w;
}

double net_layer_flops(wl_mode mode, int k, int n, int batch)
{
    double kk = k, nn = n, b = batch;
    if (mode == WL_TRAINING)
        return (6.0 * kk * nn + 3.0 * nn) * b + 2.0 * kk * nn + 2.0 * nn;
    return (2.0 * kk * nn + nn) * b;
}

double net_flops(const net_spec *n, wl_mode mode, int batch)
{
    double f = 0.0;
    int l;
    for (l = 0; l < n->layers; l++)
        f += net_layer_flops(mode, n->dims[l], n->dims[l + 1], batch);
    return f;
}
