/* Helpers shared by the libconfig readers (presets, kernel descriptions). */
#ifndef CFGTYPE_H
#define CFGTYPE_H

#include <stddef.h>

/* "an integer", "a string", ... for a libconfig setting type, as messages
 * say what they expected and what they got. */
const char *cfgtype_name(int type);

/* A libconfig file's whole text, at most max bytes, read once (a pipe
 * too), so that /dev/zero or a binary file is refused instead of read
 * forever; what names the kind of file in the reasons ("preset"). NULL
 * with the reason in why (the caller adds the file's name). */
char *cfg_read_text(const char *path, size_t max, const char *what, char *why, size_t whylen);

/* The line of the text's first @include, or 0. */
unsigned cfg_include_line(const char *text);

/* Groups and lists of a libconfig file nest at most this deep. */
#define CFG_MAX_NEST 128

/* The line at which the text's groups, lists and arrays ({ ( [) first nest
 * deeper than max (strings and comments skipped), or 0. Checked before
 * libconfig parses: its parser and its teardown recurse per level, and at
 * 10,000 levels it only says "memory exhausted". */
unsigned cfg_nesting_line(const char *text, unsigned max);

/*
 * libconfig 1.5 reads an integer without an L suffix as 32 bits, silently:
 * N = 4294967396 is 100, 3000000000 is -1294967296, base = 0x7f0000001000
 * is 0x1000. Before libconfig parses a text, this gives such integers
 * their L (every integer of an array [...] that holds one, as an array's
 * elements share one type), so that they read as the 64-bit values
 * written; a hex number above 0x7FFFFFFF is taken as the positive value
 * it names, not as a negative int. Strings and comments are skipped, and
 * line numbers do not change. *text is replaced (realloc) when it grows.
 * 0; the line of an integer that does not fit 64 bits (decimal beyond
 * INT64_MIN..INT64_MAX, hex beyond 16 digits), which libconfig would
 * silently saturate: the caller refuses the file with that line; or -1
 * when out of memory.
 */
long cfg_widen_ints(char **text);

#endif
