/*
 * The readers' limits that the environment may lower, and the stop of a
 * read from another thread (see trace.h).
 */
#include "trace.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

uint64_t limit_from_env(const char *name, uint64_t def, uint64_t max)
{
	const char *s = getenv(name);
	char *end;
	errno = 0;
	unsigned long long v = s && *s >= '1' && *s <= '9' ? strtoull(s, &end, 10) : 0;
	return v && !errno && !*end && v <= max ? (uint64_t)v : def;
}

/* Read once: the text readers ask per store (a getenv each was 6 % of a
 * run in issue 38's profile); the environment is the process's. */
uint64_t trace_max_loads(void)
{
	static _Atomic uint64_t once; /* 0: not read yet (the limit is at least 1) */
	uint64_t v = atomic_load_explicit(&once, memory_order_relaxed);
	if (!v) {
		v = limit_from_env("RDSCOPE_MAX_LOADS", TRACE_MAX_ACCESSES, TRACE_MAX_ACCESSES);
		atomic_store_explicit(&once, v, memory_order_relaxed);
	}
	return v;
}

/* The calling thread's: each load of the explorer is read on a thread of
 * its own, which sets it. */
static _Thread_local int (*stop_fn)(void *ctx);
static _Thread_local void *stop_ctx;

void trace_stop_set(int (*stop)(void *ctx), void *ctx)
{
	stop_fn = stop;
	stop_ctx = ctx;
}

int trace_stopped(void)
{
	return stop_fn && stop_fn(stop_ctx);
}
