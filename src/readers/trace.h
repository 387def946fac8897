/*
 * What every trace reader shares: the status codes and the interface of a
 * reader of a multi-kernel input, which announces each kernel by name
 * before loading it, so that a kernel the user did not select is skipped
 * without being built.
 */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

enum trace_status {
	TRACE_OK = 0,
	TRACE_EINPUT = 1, /* unreadable or malformed input: a user error */
	TRACE_ENOMEM = 2, /* out of memory: a runtime error */
};

/* At most this many loads in one kernel of any input (1 GiB+ of model
 * arrays); readers report more as an input error instead of thrashing.
 * The limit in force is trace_max_loads(). */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define TRACE_MAX_ACCESSES (1ull << 12) /* make fuzz: cheap inputs, same checks */
#else
#define TRACE_MAX_ACCESSES (1ull << 27)
#endif

/* The per-kernel load limit: TRACE_MAX_ACCESSES, or lower when the
 * environment's RDSCOPE_MAX_LOADS says so (a whole number from 1 up to
 * TRACE_MAX_ACCESSES; anything else is ignored). It cannot be raised: the
 * model's memory estimates and tests stop there. */
uint64_t trace_max_loads(void);

/* A limit the environment sets: the whole number 1..max in variable name,
 * or def when it is unset or anything else. Read it once, not per item. */
uint64_t limit_from_env(const char *name, uint64_t def, uint64_t max);

/*
 * Stopping a read from another thread (the explorer's loads, which Esc
 * abandons: each one read on to its end, up to 4 at a time and gigabytes
 * between them). trace_stop_set(stop, ctx) on the reading thread, before
 * it reads; the readers then ask trace_stopped() between blocks of input
 * (textin: every MiB at most) and as they build built-in kernels, and
 * fail with "stopped" once stop(ctx) returns nonzero. stop NULL: never
 * (the default on every thread); set it back when the read is over.
 */
void trace_stop_set(int (*stop)(void *ctx), void *ctx);
int trace_stopped(void);

typedef struct trace_reader trace_reader;
struct trace_reader {
	/*
	 * Move to the next kernel, skipping the rest of the current one if it
	 * was not loaded. 1: *name is its name (valid until the next call);
	 * 0: no more kernels; -1: error in err, oom set if out of memory.
	 */
	int (*next)(trace_reader *r, const char **name);
	/* Build the kernel next() announced: TRACE_OK with *k, or a status. */
	int (*load)(trace_reader *r, rd_kernel **k);
	/* Optional (NULL: the reader builds whole kernels only): the kernel
	 * next() announced with only the blocks keep(ctx, block) accepts
	 * (block: its first thread id / the block size; thread ids are the
	 * whole kernel's), again as often as asked; *nblocks (if not NULL)
	 * the kernel's blocks. A part of a kernel at a time (rd_parts). */
	int (*load_blocks)(trace_reader *r, int (*keep)(void *ctx, uint64_t block), void *ctx,
			   uint64_t *nblocks, rd_kernel **k);
	/* Optional (NULL: none): load_blocks handing the part to sink(sctx,
	 * chunk) a few blocks at a time as it is built (rd_part_builder_add's
	 * chunks: their threads numbered from 0, part_block their launch
	 * ids); *k is then the part's shape: its name, block size, arrays and
	 * part_block, no accesses. sink takes the chunk; it returns 0, or -1:
	 * out of memory. */
	int (*load_chunks)(trace_reader *r, int (*keep)(void *ctx, uint64_t block), void *ctx,
			   int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, rd_kernel **k);
	/* Optional (NULL: none): the part load_chunks would build, streamed:
	 * *shape as load_chunks's, and *src the model reads its threads'
	 * accesses from (rd_parts_add_stream), valid until stream_free(*src)
	 * (before close). stream_error: a cursor's failure, or NULL. */
	int (*load_stream)(trace_reader *r, int (*keep)(void *ctx, uint64_t block), void *ctx,
			   rd_kernel **shape, rd_access_src **src);
	const char *(*stream_error)(const rd_access_src *src);
	void (*stream_free)(rd_access_src *src);
	void (*close)(trace_reader *r);
	/* 1: load_blocks gives a kernel's shape (nblocks) only when it is past
	 * the load limit, which load refuses before reading it; else the
	 * whole kernel */
	int shape_past_limit;
	char *err;    /* "path:line: message" of the last failure */
	size_t errlen;
	int oom;
};

#endif
