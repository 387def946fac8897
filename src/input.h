/*
 * Where kernels come from: an INPUT argument names a trace file (".trc",
 * optionally gzip-compressed; "-" is standard input) or a built-in sample,
 * "builtin:fig3" (the paper's Figure 3 kernel) or "builtin:colcopy:H[:W[:E]]".
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>

#include "rdscope.h"

enum input_status {
	INPUT_OK = 0,
	INPUT_EINPUT = 1, /* unreadable, malformed or unknown input */
	INPUT_ENOMEM = 2,
};

#define INPUT_BUILTIN_PREFIX "builtin:"

/* Load the kernel INPUT names. On failure err says why, starting "INPUT". */
int input_load(const char *spec, rd_kernel **out, char *err, size_t errlen);

#endif
