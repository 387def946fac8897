/*
 * The error report of one preset_load and the key index, shared by the
 * reader (preset_read.c) and the whole-configuration checks
 * (preset_validate.c), beneath both: "file:line: message" appended to the
 * caller's buffer, every problem counted even when the buffer is full.
 */
#include "preset_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void preset_error(preset_ctx *x, const char *file, unsigned line, const char *fmt, ...)
{
	x->nerrors++;
	if (x->used + 1 >= x->errlen)
		return;
	char *p = x->err + x->used;
	size_t room = x->errlen - x->used;
	int n;
	if (line)
		n = snprintf(p, room, "%s%s:%u: ", x->used ? "\n" : "", file, line);
	else
		n = snprintf(p, room, "%s%s: ", x->used ? "\n" : "", file);
	if (n > 0 && (size_t)n < room) {
		va_list ap;
		va_start(ap, fmt);
		int m = vsnprintf(p + n, room - (size_t)n, fmt, ap);
		va_end(ap);
		n = m < 0 ? n : n + m;
	}
	/* A full buffer keeps what fitted; the count still says how many. */
	x->used = n < 0 || (size_t)n >= room ? x->errlen - 1 : x->used + (size_t)n;
}

int preset_key_index(const char *name)
{
	for (size_t i = 0; rd_keys[i].name; i++)
		if (strcmp(rd_keys[i].name, name) == 0)
			return (int)i;
	return -1;
}
