/*
 * A trace's arrays from a CSV file (rdscope --arrays FILE; seed 002's unit
 * of placement): one array per line, `name,base,bytes,elem[,width]`.
 *
 *  - name: a letter or '_', then letters, digits, '_' or '.', at most 63
 *    characters; not "global" (the name of every address outside the
 *    arrays); each name once;
 *  - base, bytes: byte address and size, decimal or 0x hex; bytes >= 1,
 *    a whole number of elements, base + bytes below 2^64;
 *  - elem: element size in bytes, 1 to 65535;
 *  - width (optional): elements per row of a 2D layout, >= 1, bytes a
 *    whole number of rows; absent or empty: 1D;
 *  - no two arrays overlap.
 * Blank lines and lines starting with '#' are skipped, spaces around a
 * field ignored, CRLF line ends taken; a first line
 * `name,base,bytes,elem[,width]` is a header. At most ARRAYS_MAX arrays and
 * ARRAYS_MAX_BYTES bytes. Every refusal says "FILE:LINE: why".
 */
#ifndef READERS_ARRAYS_H
#define READERS_ARRAYS_H

#include <stddef.h>

#include "rdscope.h"

#define ARRAYS_MAX 65536
#define ARRAYS_MAX_BYTES (16u << 20)

/* Parse text[0..n) (shown names it in messages): 0 with *out; -1 with
 * "SHOWN:LINE: why" in err (bad input); -2 out of memory. */
int arrays_parse(const char *text, size_t n, const char *shown, rd_arrays **out, char *err,
		 size_t errlen);

/* The same from a file: 0; -1 bad (or unreadable) file, "PATH:LINE: why"
 * or "PATH: why"; -2 out of memory. */
int arrays_read(const char *path, rd_arrays **out, char *err, size_t errlen);

#endif
