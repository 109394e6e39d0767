/*
 * fuzz_siteconf.c — the libFuzzer harness of OUT/site.conf and of prices
 * files: the two line-oriented text files breakeven reads.
 *
 * The first byte of an input picks the parser (even: site.conf, odd: a
 * prices file), the rest is the file as read: through infile_text_ok (no
 * NUL, valid UTF-8), then site_settings_parse or price_parse_text.  Beyond
 * what ASan and UBSan catch, it aborts when a refusal is not one printable
 * line, or when settings it accepted are not each one clean line (a base
 * URL one that site_check_base_url accepts), or prices not each a finite
 * positive number for a named device.  Built and run by `make fuzz`.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "infile.h"
#include "price.h"
#include "site.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_settings(const site_settings *st)
{
    err e;
    fuzz_check_line("base-url", st->base_url);
    fuzz_check_line("title", st->title);
    fuzz_check_line("author", st->author);
    if (site_check_base_url(st->base_url, &e) != BE_OK) {
        fprintf(stderr, "accepted a base URL that --base-url refuses: %s\n", e.msg);
        abort();
    }
}

static void check_prices(const fit_prices *p)
{
    int i;
    for (i = 0; i < p->n; i++) {
        if (!p->device[i][0] || !(p->usd_per_hour[i] > 0) || !isfinite(p->usd_per_hour[i])) {
            fprintf(stderr, "accepted price %d: \"%s\" %g\n", i, p->device[i], p->usd_per_hour[i]);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    site_settings st;
    fit_prices prices;
    char *text;
    err e;
    int which;

    if (size == 0 || size > SITE_SETTINGS_MAX)
        return 0;
    which = data[0] & 1;
    if (!(text = malloc(size)))
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (infile_text_ok(which ? "prices" : "site.conf", text, size - 1, &e) != BE_OK) {
        fuzz_check_message(e.msg);
    } else if (which == 0) {
        if (site_settings_parse("site.conf", text, &st, &e) == BE_OK)
            check_settings(&st);
        else
            fuzz_check_message(e.msg);
    } else {
        memset(&prices, 0, sizeof prices);
        if (price_parse_text(&prices, "prices", text, &e) == BE_OK)
            check_prices(&prices);
        else
            fuzz_check_message(e.msg);
    }
    free(text);
    return 0;
}
