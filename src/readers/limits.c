/*
 * The readers' limits that the environment may lower (see trace.h).
 */
#include "trace.h"

#include <stdlib.h>

uint64_t trace_max_loads(void)
{
	const char *s = getenv("RDSCOPE_MAX_LOADS");
	char *end;
	unsigned long long v = s && *s >= '1' && *s <= '9' ? strtoull(s, &end, 10) : 0;
	return v && !*end && v < TRACE_MAX_ACCESSES ? (uint64_t)v : TRACE_MAX_ACCESSES;
}
