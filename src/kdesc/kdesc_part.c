/*
 * A part of a description's launch streamed (trace_reader.load_stream):
 * the part's shape (its name, block, arrays and blocks, no accesses) and
 * a source the model reads each thread of it from, a batch at a time, by
 * the launch's cursors (kdesc_cursor.c), on any of its threads. Nothing of
 * the part is built: its memory is the model's (lines, resident warps).
 */
#include "kdesc_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct part_src {
	rd_access_src base;   /* first: the model's handle is this struct */
	kd_stream *s;
	uint32_t *blocks;     /* the part's blocks (launch ids), in order */
	uint32_t nblocks, bs;
	pthread_mutex_t mu;   /* err */
	int failed;
	uint32_t err_thread;  /* the failing thread that comes first */
	char err[1024];       /* ... its failure: what building it reports */
} part_src;

typedef struct part_cur {
	part_src *ps;
	kd_cursor *c;
	uint32_t t;
} part_cur;

static void *ps_open(void *ctx, uint32_t t)
{
	part_src *ps = ctx;
	if (t / ps->bs >= ps->nblocks)
		return NULL;
	part_cur *pc = malloc(sizeof *pc);
	if (!pc)
		return NULL;
	pc->ps = ps;
	pc->t = t;
	pc->c = kd_cursor_new(ps->s, ps->blocks[t / ps->bs], t % ps->bs);
	if (!pc->c) {
		free(pc);
		pthread_mutex_lock(&ps->mu);
		if (!ps->failed) {
			ps->failed = 1;
			snprintf(ps->err, sizeof ps->err, "out of memory");
		}
		pthread_mutex_unlock(&ps->mu);
		return NULL;
	}
	return pc;
}

static int64_t ps_next(void *cur, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max)
{
	part_cur *pc = cur;
	int64_t n = kd_cursor_next(pc->c, addr, bytes, store, max);
	if (n < 0) {
		/* (the builder runs the threads in order: the first failing
		 * one's message is the part's) */
		part_src *ps = pc->ps;
		pthread_mutex_lock(&ps->mu);
		if (!ps->failed || pc->t < ps->err_thread) {
			ps->failed = 1;
			ps->err_thread = pc->t;
			snprintf(ps->err, sizeof ps->err, "%s", kd_cursor_error(pc->c));
		}
		pthread_mutex_unlock(&ps->mu);
	}
	return n;
}

/* (no allocation: the model moves a warp's cursors to the next warp) */
static int ps_reopen(void *cur, uint32_t t)
{
	part_cur *pc = cur;
	part_src *ps = pc->ps;
	if (t / ps->bs >= ps->nblocks ||
	    kd_cursor_reset(pc->c, ps->blocks[t / ps->bs], t % ps->bs) < 0)
		return -1;
	pc->t = t;
	return 0;
}

static void ps_close(void *cur)
{
	part_cur *pc = cur;
	kd_cursor_free(pc->c);
	free(pc);
}

void kd_stream_part_free(rd_access_src *src)
{
	if (!src)
		return;
	part_src *ps = (part_src *)src;
	kd_stream_free(ps->s);
	free(ps->blocks);
	pthread_mutex_destroy(&ps->mu);
	free(ps);
}

const char *kd_stream_part_error(const rd_access_src *src)
{
	part_src *ps = (part_src *)src;
	pthread_mutex_lock(&ps->mu);
	const char *e = ps->failed ? ps->err : NULL;
	pthread_mutex_unlock(&ps->mu);
	return e;
}

int kd_load_stream(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   rd_kernel **shape, rd_access_src **src)
{
	kdesc *d = (kdesc *)rr;
	*shape = NULL;
	*src = NULL;
	if (!d->next || d->next > d->nlaunches) {
		kd_fail(d, 0, "no kernel announced");
		return TRACE_EINPUT;
	}
	size_t li = d->next - 1;
	const kd_launch *L = &d->launches[li];
	part_src *ps = calloc(1, sizeof *ps);
	int64_t *vals = malloc((size_t)(d->nslots ? d->nslots : 1) * sizeof *vals);
	if (!ps || !vals || pthread_mutex_init(&ps->mu, NULL) != 0) {
		free(ps);
		free(vals);
		kd_oom(d);
		return TRACE_ENOMEM;
	}
	int64_t g[3], bd[3];
	uint64_t nblocks = 0, grid_threads = 0;
	int rc = TRACE_OK;
	if (kd_launch_setup(d, L, vals, g, bd, &nblocks, &grid_threads) < 0 ||
	    !(ps->s = kd_stream_new(rr, li)))
		rc = d->oom ? TRACE_ENOMEM : TRACE_EINPUT;
	free(vals);
	uint64_t n = 0;
	for (uint64_t b = 0; rc == TRACE_OK && b < nblocks; b++)
		n += keep(ctx, b) != 0;
	if (rc == TRACE_OK && !(ps->blocks = malloc((n ? n : 1) * sizeof *ps->blocks)))
		rc = TRACE_ENOMEM;
	for (uint64_t b = 0; rc == TRACE_OK && b < nblocks; b++)
		if (keep(ctx, b))
			ps->blocks[ps->nblocks++] = (uint32_t)b;
	rd_kernel *k = NULL;
	if (rc == TRACE_OK) {
		rd_kernel_builder *b = rd_kernel_builder_new(L->name, (uint32_t)bd[0], (uint32_t)bd[1],
							     (uint32_t)bd[2]);
		k = b ? rd_kernel_builder_finish(b) : NULL;
		uint32_t *ids = k ? malloc((n ? n : 1) * sizeof *ids) : NULL;
		rd_arrays *as = ids ? kd_arrays_new(d) : NULL;
		if (!as) {
			free(ids);
			rc = TRACE_ENOMEM;
		} else {
			memcpy(ids, ps->blocks, n * sizeof *ids);
			rd_kernel_set_part_blocks(k, ids, (uint32_t)n);
			rd_kernel_set_arrays(k, as);
			if (grid_threads > nblocks * k->block_size)
				k->launch_threads = grid_threads;
		}
	}
	if (rc != TRACE_OK) {
		if (rc == TRACE_ENOMEM)
			kd_oom(d);
		rd_kernel_free(k);
		kd_stream_part_free(&ps->base);
		return rc;
	}
	ps->bs = k->block_size;
	ps->base = (rd_access_src){ps, ps_open, ps_next, ps_close, ps_reopen};
	*shape = k;
	*src = &ps->base;
	return TRACE_OK;
}
