/*
 * json.h — JSON values written to a stream: the one escaping of strings
 * and the one rule for numbers, for every JSON breakeven writes (compare
 * --format json, each run's results.json; export.h).
 */
#ifndef BE_JSON_H
#define BE_JSON_H

#include <stdio.h>

/* s as a JSON string: quotes, backslashes and control characters escaped,
 * other UTF-8 as it is. */
void json_string(FILE *out, const char *s);
/* v as a JSON number (17 significant digits), or null when not finite. */
void json_number(FILE *out, double v);
/* ", \"key\": " and the value: a member after the first of an object. */
void json_member_string(FILE *out, const char *key, const char *s);
void json_member_number(FILE *out, const char *key, double v);

#endif
