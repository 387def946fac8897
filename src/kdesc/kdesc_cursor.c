/*
 * Kernel descriptions, streaming (see kdesc.h, kd_stream): one thread's
 * accesses a batch at a time, in program order, with no kernel built. A
 * stream is a launch set up once (its values, as kd_run_launch sets them)
 * and then only read; a cursor is one thread's walk over its kernel's
 * statements with an explicit stack of frames instead of run_list's
 * recursion, so that it stops after any access and goes on from there:
 *
 *   a list frame: the next statement of a list, and how many references
 *                 of an access statement are done (its step counted);
 *   a for frame:  a loop's iterations so far and its variable before the
 *                 last step (the stuck check);
 *   a run by strides (kd_stmt.strided, at most one, innermost): its
 *                 accesses' next addresses, strides and the iteration.
 *
 * Every rule of run_list and run_strided is kept (kdesc_run.c): the same
 * accesses, the same errors with the same text and line, the same strided
 * runs (their header and references shared: kd_loop_header,
 * kd_stride_ref). What differs: the step limit is each cursor's own (one
 * thread's statements and loop iterations, not the description's), there
 * is no load or store limit (a thread's accesses are not kept), and
 * trace_stopped() is not asked (the caller stops pulling).
 */
#include "kdesc_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kd_stream {
	const kdesc *d;
	const kd_kernel *K;
	int64_t g[3], bd[3];
	uint64_t nblocks;
	uint32_t bs;
	uint64_t max_steps;  /* a cursor's steps (RDSCOPE_MAX_STEPS, read here once) */
	int depth;           /* frames the deepest statement needs */
	int nacc;            /* references of the largest strided loop's body */
	int64_t *vals;       /* the launch's values (no block or thread yet) */
};

enum { F_LIST, F_FOR };

typedef struct kd_frame {
	uint8_t kind;
	uint32_t sub;    /* list: references of its current access statement done
			    (its step counted when > 0); for: 1 once started */
	int32_t pos, end; /* list: its next position in d->lists, and its end */
	int32_t stmt;    /* for: the loop */
	uint64_t iters;  /* for: iterations so far */
	int64_t was;     /* for: the variable before the last step */
} kd_frame;

struct kd_cursor {
	const kd_stream *s;
	const kdesc *d;
	uint64_t steps;
	int sp;
	int failed;      /* 1: the error is said at the next call; 2: said */
	/* a run by strides under way: access q of iteration t of trips */
	int strided;
	int nacc, q;
	uint64_t t, trips;
	int64_t *vals;   /* [d->nslots] */
	kd_frame *fr;    /* [s->depth] */
	uint64_t *cur;   /* [s->nacc] each access's address at iteration t */
	uint64_t *step;  /* [s->nacc] ... its stride */
	uint16_t *bytes; /* [s->nacc] */
	uint8_t *store;  /* [s->nacc] */
	char *err;       /* the error's message (made when it happens), or NULL */
	uint64_t blk;    /* the block whose blockIdx bv holds (a warp's threads share it) */
	int64_t bv[3];
	int have_blk;
};

/* ---------------------------------------------------------------- the stream */

/* Frames list (start, n) needs, its own included; the largest strided
 * body's references in *nacc. */
static int list_depth(const kdesc *d, int start, int n, int *nacc)
{
	int most = 0;
	for (int i = 0; i < n; i++) {
		const kd_stmt *st = &d->stmts[d->lists[start + i]];
		int k = 0;
		if (st->kind == ST_IF) {
			int a = list_depth(d, st->l1, st->n1, nacc);
			int b = list_depth(d, st->l2, st->n2, nacc);
			k = a > b ? a : b;
		} else if (st->kind == ST_FOR) {
			k = 1 + list_depth(d, st->l1, st->n1, nacc);
			if (st->strided) {
				int q = 0;
				for (int j = 0; j < st->n1; j++)
					q += d->stmts[d->lists[st->l1 + j]].n1;
				if (q > *nacc)
					*nacc = q;
			}
		}
		if (k > most)
			most = k;
	}
	return 1 + most;
}

kd_stream *kd_stream_new(trace_reader *rr, size_t launch)
{
	if (!kdesc_is(rr)) {
		if (rr && rr->err && rr->errlen)
			snprintf(rr->err, rr->errlen, "not a kernel description: no stream");
		return NULL;
	}
	kdesc *d = (kdesc *)rr;
	if (launch >= d->nlaunches) {
		kd_fail(d, 0, "launch %zu of %zu: no such launch", launch, d->nlaunches);
		return NULL;
	}
	const kd_launch *L = &d->launches[launch];
	kd_stream *s = calloc(1, sizeof *s);
	int64_t *vals = malloc((size_t)(d->nslots ? d->nslots : 1) * sizeof *vals);
	if (!s || !vals) {
		free(s);
		free(vals);
		kd_oom(d);
		return NULL;
	}
	uint64_t grid_threads;
	if (kd_launch_setup(d, L, vals, s->g, s->bd, &s->nblocks, &grid_threads) < 0) {
		free(s);
		free(vals);
		return NULL;
	}
	s->d = d;
	s->K = &d->kernels[L->kernel];
	s->vals = vals;
	s->bs = (uint32_t)(s->bd[0] * s->bd[1] * s->bd[2]);
	s->max_steps = limit_from_env("RDSCOPE_MAX_STEPS", KD_MAX_STEPS, UINT64_MAX);
	s->depth = list_depth(d, s->K->body, s->K->nbody, &s->nacc);
	return s;
}

void kd_stream_free(kd_stream *s)
{
	if (!s)
		return;
	free(s->vals);
	free(s);
}

uint64_t kd_stream_blocks(const kd_stream *s)
{
	return s->nblocks;
}

uint32_t kd_stream_block_size(const kd_stream *s)
{
	return s->bs;
}

/* ---------------------------------------------------------------- cursors */

size_t kd_stream_cursor_bytes(const kd_stream *s)
{
	size_t nslots = (size_t)(s->d->nslots ? s->d->nslots : 1), nacc = (size_t)s->nacc;
	return sizeof(kd_cursor) + nslots * sizeof(int64_t) + (size_t)s->depth * sizeof(kd_frame) +
	       nacc * (2 * sizeof(uint64_t) + sizeof(uint16_t) + 1);
}

int kd_cursor_reset(kd_cursor *c, uint64_t block, uint32_t thread)
{
	const kd_stream *s = c->s;
	if (block >= s->nblocks || thread >= s->bs)
		return -1;
	free(c->err);
	c->err = NULL;
	c->steps = 0;
	c->failed = 0;
	c->strided = 0;
	int64_t *v = c->vals;
	memcpy(v, s->vals, (size_t)c->d->nslots * sizeof *v);
	if (!c->have_blk || c->blk != block) { /* (three divisions saved a thread) */
		kd_block_vals(s->K, s->g, block, v);
		c->blk = block;
		c->bv[0] = v[S_BX], c->bv[1] = v[S_BY], c->bv[2] = v[S_BZ];
		c->have_blk = 1;
	} else {
		v[S_BX] = c->bv[0], v[S_BY] = c->bv[1], v[S_BZ] = c->bv[2];
	}
	kd_tid_vals(s->K, s->bd, thread, v);
	c->fr[0] = (kd_frame){.kind = F_LIST, .pos = s->K->body, .end = s->K->body + s->K->nbody};
	c->sp = 1;
	return 0;
}

kd_cursor *kd_cursor_new(const kd_stream *s, uint64_t block, uint32_t thread)
{
	if (block >= s->nblocks || thread >= s->bs)
		return NULL;
	size_t nslots = (size_t)(s->d->nslots ? s->d->nslots : 1), nacc = (size_t)s->nacc;
	/* one allocation: the cursor, its values, frames and strided run */
	kd_cursor *c = malloc(kd_stream_cursor_bytes(s));
	if (!c)
		return NULL;
	char *p = (char *)(c + 1);
	c->vals = (int64_t *)p;
	p += nslots * sizeof(int64_t);
	c->fr = (kd_frame *)p;
	p += (size_t)s->depth * sizeof(kd_frame);
	c->cur = (uint64_t *)p;
	p += nacc * sizeof(uint64_t);
	c->step = (uint64_t *)p;
	p += nacc * sizeof(uint64_t);
	c->bytes = (uint16_t *)p;
	p += nacc * sizeof(uint16_t);
	c->store = (uint8_t *)p;
	c->s = s;
	c->d = s->d;
	c->err = NULL;
	c->have_blk = 0;
	kd_cursor_reset(c, block, thread);
	return c;
}

void kd_cursor_free(kd_cursor *c)
{
	if (c)
		free(c->err);
	free(c);
}

const char *kd_cursor_error(const kd_cursor *c)
{
	return c->err ? c->err : c->failed ? "out of memory" : "";
}

/* A failure of the cursor's thread: kd_run_fail's text and line in
 * c->err (the description's name and line, the kernel, block and
 * thread); -1. */
__attribute__((format(printf, 3, 4))) static int cfail(kd_cursor *c, unsigned line,
						      const char *fmt, ...)
{
	char msg[512], full[768], text[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const int64_t *v = c->vals;
	snprintf(full, sizeof full, "kernel %s, block (%lld,%lld,%lld) thread (%lld,%lld,%lld): %s",
		 c->s->K->name, (long long)v[S_BX], (long long)v[S_BY], (long long)v[S_BZ],
		 (long long)v[S_TX], (long long)v[S_TY], (long long)v[S_TZ], msg);
	textin_locate(text, sizeof text, c->d->shown, line, full);
	c->err = strdup(text); /* (NULL: "out of memory" is said instead) */
	c->failed = 1;
	return -1;
}

/* One step (a statement or a loop iteration) within the cursor's own
 * limit: 0 or -1. */
static inline int cstep(kd_cursor *c, unsigned line)
{
	if (++c->steps > c->s->max_steps)
		return cfail(c, line, "more than %llu steps (statements and loop iterations) in one "
				      "thread; RDSCOPE_MAX_STEPS=N sets another limit",
			     (unsigned long long)c->s->max_steps);
	return 0;
}

/* run_strided's run of loop st (its step counted) as a cursor's: 0 the
 * loop is done or under way (c->strided), 1 run it as usual. */
static int strided_start(kd_cursor *c, const kd_stmt *st)
{
	const kdesc *d = c->d;
	int64_t v0, cc;
	uint64_t trips;
	if (kd_loop_header(d, c->vals, st, &v0, &cc, &trips))
		return 1;
	if (!trips) {
		c->vals[st->slot] = v0;
		return 0;
	}
	uint64_t per = 1 + (uint64_t)st->n1, lim = c->s->max_steps;
	if (trips > MAX_LOOP || c->steps > lim || trips * per > lim - c->steps)
		return 1; /* a limit is reached on the way: as usual, to say where */
	int q = 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		for (int j = 0; j < b->n1; j++, q++) {
			const kd_ref *R = &d->refs[b->l1 + j];
			if (kd_stride_ref(d, c->vals, R, st->slot, v0, cc, trips, &c->cur[q],
					  &c->step[q]))
				return 1;
			c->store[q] = b->kind == ST_STORE;
			c->bytes[q] = (uint16_t)R->bytes;
		}
	}
	c->steps += trips * per;
	/* as the loop leaves it: nothing reads it until the run is done */
	c->vals[st->slot] = v0 + (int64_t)trips * cc;
	if (!q)
		return 0;
	c->strided = 1;
	c->nacc = q;
	c->q = 0;
	c->t = 0;
	c->trips = trips;
	return 0;
}

int64_t kd_cursor_next(kd_cursor *c, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max)
{
	if (c->failed) {
		c->failed = 2;
		return -1;
	}
	const kdesc *d = c->d;
	const kx_ins *code = d->prog.code;
	int64_t *vals = c->vals;
	uint32_t n = 0;
	while (n < max) {
		if (c->strided) {
			/* access q of iteration t, each at its next address */
			int q = c->q, nacc = c->nacc;
			uint64_t t = c->t, trips = c->trips;
			uint64_t *cur = c->cur;
			const uint64_t *stp = c->step;
			while (n < max) {
				addr[n] = cur[q];
				bytes[n] = c->bytes[q];
				store[n] = c->store[q];
				n++;
				cur[q] += stp[q];
				if (++q == nacc) {
					q = 0;
					if (++t == trips) {
						c->strided = 0;
						break;
					}
				}
			}
			c->q = q;
			c->t = t;
			continue;
		}
		if (!c->sp)
			break; /* the thread has ended */
		kd_frame *f = &c->fr[c->sp - 1];
		int e = 0;
		if (f->kind == F_FOR) {
			const kd_stmt *st = &d->stmts[f->stmt];
			if (!f->sub) {
				vals[st->slot] = kx_run(code + st->c1, vals, &e);
				f->sub = 1;
			} else {
				f->was = vals[st->slot];
				vals[st->slot] = kx_run(code + st->c3, vals, &e);
			}
			int64_t go = e ? 0 : kx_run(code + st->c2, vals, &e);
			if (e) {
				cfail(c, st->line, "%s", kx_strerror(e));
				break;
			}
			if (!go) {
				c->sp--;
				continue;
			}
			if (f->iters && st->still && vals[st->slot] == f->was) {
				cfail(c, st->line, KD_STUCK_FMT, kd_slot_name(d, st->slot),
				      (long long)f->was);
				break;
			}
			if (++f->iters > MAX_LOOP) {
				cfail(c, st->line, KD_LOOP_FMT, (unsigned long long)MAX_LOOP);
				break;
			}
			if (cstep(c, st->line) < 0)
				break;
			c->fr[c->sp++] =
				(kd_frame){.kind = F_LIST, .pos = st->l1, .end = st->l1 + st->n1};
			continue;
		}
		if (f->pos == f->end) {
			c->sp--;
			continue;
		}
		const kd_stmt *st = &d->stmts[d->lists[f->pos]];
		if (st->kind == ST_LOAD || st->kind == ST_STORE) {
			if (!f->sub && cstep(c, st->line) < 0)
				break;
			uint8_t is_store = st->kind == ST_STORE;
			int bad = 0;
			for (; f->sub < (uint32_t)st->n1 && n < max; f->sub++, n++) {
				const kd_ref *R = &d->refs[st->l1 + (int)f->sub];
				char why[512];
				if (kd_addr(d, R, vals, &addr[n], why, sizeof why) < 0) {
					cfail(c, st->line, "%s", why);
					bad = 1;
					break;
				}
				bytes[n] = (uint16_t)R->bytes;
				store[n] = is_store;
			}
			if (bad)
				break;
			if (f->sub >= (uint32_t)st->n1) { /* (else stopped mid-statement) */
				f->sub = 0;
				f->pos++;
			}
			continue;
		}
		if (cstep(c, st->line) < 0)
			break;
		f->pos++;
		switch (st->kind) {
		case ST_LET:
			vals[st->slot] = kx_run(code + st->c1, vals, &e);
			break;
		case ST_IF: {
			int64_t v = kx_run(code + st->c1, vals, &e);
			if (!e)
				c->fr[c->sp++] = v ? (kd_frame){.kind = F_LIST,
								.pos = st->l1,
								.end = st->l1 + st->n1}
						   : (kd_frame){.kind = F_LIST,
								.pos = st->l2,
								.end = st->l2 + st->n2};
			break;
		}
		case ST_FOR:
			if (st->strided && !strided_start(c, st))
				break;
			c->fr[c->sp++] =
				(kd_frame){.kind = F_FOR, .stmt = (int32_t)(st - d->stmts)};
			break;
		}
		if (e) {
			cfail(c, st->line, "%s", kx_strerror(e));
			break;
		}
	}
	if (c->failed && !n) {
		c->failed = 2;
		return -1;
	}
	return n;
}
