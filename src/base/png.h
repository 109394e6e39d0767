/*
 * png.h — PNG files of opaque charts, written small (zlib).
 *
 * chart.c draws every chart on a Cairo image surface; Cairo's own PNG
 * writer filters each row (libpng's adaptive choice) and deflates at
 * zlib's default level.  Charts are mostly flat areas and thin lines,
 * which deflate finds as long repeats when the rows are not filtered at
 * all: written that way at level 9 a chart is a quarter to a third
 * smaller, which is most of a run's bytes on disk (docs/archive.md).
 * Lossless: the same pixels, and the same colours Cairo's writer gives a
 * partly transparent pixel (the last row of a chart whose height in pixels
 * is not whole).
 */
#ifndef BE_PNG_H
#define BE_PNG_H

#include <stddef.h>

#include "err.h"

/* The h rows of w pixels of a Cairo ARGB32 image (stride bytes apart,
 * native-endian 0xAARRGGBB, premultiplied) as an 8-bit PNG in *out
 * (malloc'd), *len bytes: RGB when every pixel is opaque, else RGBA. */
int png_write(const unsigned char *data, int w, int h, int stride, char **out, size_t *len, err *e);

#endif
