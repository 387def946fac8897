/*
 * The readers' limits that the environment may lower (see trace.h).
 */
#include "trace.h"

#include <errno.h>
#include <stdlib.h>

uint64_t limit_from_env(const char *name, uint64_t def, uint64_t max)
{
	const char *s = getenv(name);
	char *end;
	errno = 0;
	unsigned long long v = s && *s >= '1' && *s <= '9' ? strtoull(s, &end, 10) : 0;
	return v && !errno && !*end && v <= max ? (uint64_t)v : def;
}

uint64_t trace_max_loads(void)
{
	return limit_from_env("RDSCOPE_MAX_LOADS", TRACE_MAX_ACCESSES, TRACE_MAX_ACCESSES);
}
