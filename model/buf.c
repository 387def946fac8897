/* A growing string (see rdscope.h, rd_buf): the library's text outputs
 * (weights files) and its users' (kernel descriptions written from C). */
#include "rdscope.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void rd_buf_printf(rd_buf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t nc = b->cap ? b->cap * 2 : 4096;
		while (nc < b->n + (size_t)k + 1)
			nc *= 2;
		char *t = realloc(b->s, nc);
		if (!t) {
			b->oom = 1;
			return;
		}
		b->s = t;
		b->cap = nc;
	}
}
