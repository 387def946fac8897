/*
 * Private to preset_read.c, preset_validate.c and preset_diag.c: the state of one
 * preset_load, which collects every problem instead of stopping at the
 * first, and remembers where each key was set so that whole-configuration
 * problems can be reported at a line of the file too.
 */
#ifndef PRESET_INTERNAL_H
#define PRESET_INTERNAL_H

#include <stddef.h>

#include "rdscope.h"

/* Presets may inherit this deep; deeper is surely a mistake. */
#define PRESET_MAX_DEPTH 16

typedef struct preset_ctx {
	char *err;
	size_t errlen, used;
	int nerrors;
	size_t nkeys;            /* rd_key_count() */
	char **origin_file;      /* [nkeys]: file that last set the key, or NULL */
	unsigned *origin_line;   /* [nkeys] */
	unsigned char *bad;      /* [nkeys]: a value of the key was rejected */
	const char *top_file;    /* the file preset_load was given (resolved) */
	char *chain[PRESET_MAX_DEPTH]; /* real paths being read, for cycles */
	const char *shown[PRESET_MAX_DEPTH]; /* the same as named, for messages */
	int depth;
} preset_ctx;

/* Report "file:line: message" (line 0: "file: message"). */
void preset_error(preset_ctx *x, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Index of a key in rd_keys, or -1. */
int preset_key_index(const char *name);

/*
 * The model's whole-configuration checks (rd_config_check) on cfg, each
 * problem reported at the line that set the key it names.
 */
void preset_validate(preset_ctx *x, const rd_config *cfg);

#endif
