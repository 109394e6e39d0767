/*
 * json.c — JSON values (json.h).
 */
#include "json.h"

#include <math.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

void json_member_string(FILE *out, const char *key, const char *s)
{
    fprintf(out, ", \"%s\": ", key);
    json_string(out, s);
}

void json_member_number(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    json_number(out, v);
}
