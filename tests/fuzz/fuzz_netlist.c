/*
 * fuzz_netlist.c — the libFuzzer harness of the network parser (net.h):
 * a --net-file's text and a --net value.
 *
 * The first byte of an input picks the parser (even: a --net-file, through
 * infile_text_ok as infile_read would check it, then net_parse_text; odd: the
 * rest as one --net value, net_parse).  Beyond what ASan and UBSan catch, it
 * aborts when a refusal is not one printable line, or when a network it
 * accepted is not one that the sweep can take: 1 to NET_MAX_LAYERS layers,
 * every size 1..NET_MAX_SIZE, a clean name that fits, and sizes that
 * net_parse_sizes reads back to the same network.  Built and run by
 * `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "infile.h"
#include "net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_net(const net_spec *n)
{
    char sizes[NET_SIZES_MAX];
    net_spec back;
    err e;
    int i;
    if (n->layers < 1 || n->layers > NET_MAX_LAYERS || !n->name[0] ||
        strlen(n->name) >= NET_NAME_MAX) {
        fprintf(stderr, "accepted a network of %d layers named \"%s\"\n", n->layers, n->name);
        abort();
    }
    fuzz_check_line("name", n->name);
    for (i = 0; i <= n->layers; i++)
        if (n->dims[i] < 1 || n->dims[i] > NET_MAX_SIZE) {
            fprintf(stderr, "accepted size %d of %d\n", i, n->dims[i]);
            abort();
        }
    net_format(n, sizes, sizeof sizes);
    if (net_parse_sizes(sizes, "sizes", &back, &e) != BE_OK || !net_same_sizes(&back, n)) {
        fprintf(stderr, "sizes \"%s\" do not read back\n", sizes);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    net_spec nets[NET_MAX_NETS];
    char *text;
    err e;
    int n = 0, i;

    if (size == 0 || size > NET_FILE_MAX_BYTES)
        return 0;
    if (!(text = malloc(size)))
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] & 1) {
        if (net_parse(text, "--net", &nets[0], &e) == BE_OK)
            check_net(&nets[0]);
        else
            fuzz_check_message(e.msg);
    } else if (infile_text_ok("nets.txt", text, size - 1, &e) != BE_OK) {
        fuzz_check_message(e.msg);
    } else if (net_parse_text("nets.txt", text, nets, &n, &e) == BE_OK) {
        for (i = 0; i < n; i++)
            check_net(&nets[i]);
    } else {
        fuzz_check_message(e.msg);
    }
    free(text);
    return 0;
}
