/*
 * A text file read whole, refused as early as it shows what it is not:
 * a directory, a NUL byte (binary data, /dev/zero), more than max bytes
 * (an endless source stops there).
 */
#ifndef READALL_H
#define READALL_H

#include <stddef.h>

/* 0 with *out (NUL-terminated, malloc'd) and *len; or -1 with "PATH: why"
 * in err and *oom set when memory ran out (exit 1) rather than the file
 * being bad (exit 2). nul_why (NULL: "a NUL byte: not a text file") says
 * why a NUL byte refuses it; check (or NULL), asked after each chunk
 * read with everything so far, returns why the start refuses it, or NULL. */
int read_text_file(const char *path, size_t max, char **out, size_t *len, char *err,
		   size_t errlen, int *oom, const char *nul_why,
		   const char *(*check)(const char *buf, size_t n));

#endif
