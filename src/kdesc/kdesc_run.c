/*
 * Kernel descriptions, running (see kdesc.c): a launch's body executed once
 * per thread, in the tracer's thread order, feeding the kernel builder as a
 * trace reader would. Errors name the kernel, block and thread.
 */
#include "kdesc_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- running */

typedef struct run {
	kdesc *d;
	const kd_kernel *k;
	int64_t *vals;
	rd_kernel_builder *b;
	uint32_t tid;
	uint64_t loads_left;     /* trace_max_loads(), counted down */
	/* The work a description may take: KD_MAX_STEPS statements and loop
	 * iterations over all its threads and launches (d->steps), or what
	 * RDSCOPE_MAX_STEPS says. Loads alone are bounded by loads_left,
	 * loops alone by MAX_LOOP, but two nested loops of MAX_LOOP
	 * iterations, or one in each of 2^26 threads, would run for days. */
	uint64_t max_steps;
	int failed;
	int64_t *site;           /* [d->nrefs] a load reference's site id, or -1 */
} run;

/* The site of load reference ref (of statement st): its line, its text
 * and its array, made once per kernel. -1: out of memory. */
static int64_t ref_site(run *r, const kd_stmt *st, int ref)
{
	if (r->site[ref] >= 0)
		return r->site[ref];
	const kd_ref *R = &r->d->refs[ref];
	char text[256];
	snprintf(text, sizeof text, "%.*s", (int)R->text_len, R->text);
	rd_site s = {.line = st->line, .ref = text, .array = r->d->arrays[R->array].name};
	return r->site[ref] = rd_kernel_builder_site(r->b, &s);
}

static int run_fail(run *r, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const int64_t *v = r->vals;
	kd_fail(r->d, line, "kernel %s, block (%lld,%lld,%lld) thread (%lld,%lld,%lld): %s",
		r->k->name, (long long)v[S_BX], (long long)v[S_BY], (long long)v[S_BZ],
		(long long)v[S_TX], (long long)v[S_TY], (long long)v[S_TZ], msg);
	r->failed = 1;
	return -1;
}

static int too_much(run *r, unsigned line)
{
	return run_fail(r, line, "more than %llu steps (statements and loop iterations over all "
				 "threads and launches) in one description; RDSCOPE_MAX_STEPS=N sets "
				 "another limit",
			(unsigned long long)r->max_steps);
}

static int run_access(run *r, const kd_stmt *st)
{
	const kx_node *n = r->d->prog.n;
	for (int i = 0; i < st->n1; i++) {
		const kd_ref *ref = &r->d->refs[st->l1 + i];
		const kd_array *A = &r->d->arrays[ref->array];
		int e = 0;
		int64_t flat;
		if (ref->nidx == 1) {
			flat = kx_eval(n, ref->idx[0], r->vals, &e);
			if (!e && A->ndims && (flat < 0 || flat >= A->total))
				return run_fail(r, st->line, "%s[%lld]: index outside 0..%lld", A->name,
						(long long)flat, (long long)A->total - 1);
		} else {
			flat = 0;
			for (int j = 0; j < ref->nidx && !e; j++) {
				int64_t x = kx_eval(n, ref->idx[j], r->vals, &e);
				if (!e && (x < 0 || x >= A->dim[j]))
					return run_fail(r, st->line, "%s: index %d is %lld, outside "
								     "0..%lld", A->name, j + 1,
							(long long)x, (long long)A->dim[j] - 1);
				flat = flat * A->dim[j] + x;
			}
		}
		if (e)
			return run_fail(r, st->line, "%s", kx_strerror(e));
		/* An array without dims takes any index: its byte offset must
		 * still be a 64-bit number (found by make fuzz). */
		if (flat > INT64_MAX / (int64_t)A->elem || flat < INT64_MIN / (int64_t)A->elem)
			return run_fail(r, st->line, "%s[%lld]: the address is beyond 64 bits", A->name,
					(long long)flat);
		int64_t off = flat * (int64_t)A->elem;
		if (off < 0 && (uint64_t)0 - (uint64_t)off > A->base)
			return run_fail(r, st->line, "%s[%lld] is below address 0", A->name,
					(long long)flat);
		uint64_t addr = A->base + (uint64_t)off;
		if (st->kind == ST_LOAD && !r->loads_left--)
			return run_fail(r, st->line, "more than %llu loads in one kernel (lower "
						     "max_threads or the sizes)",
					(unsigned long long)trace_max_loads());
		if (st->kind == ST_STORE && rd_kernel_builder_stores(r->b) >= trace_max_loads())
			return run_fail(r, st->line, "more than %llu stores in one kernel (lower "
						     "max_threads or the sizes)",
					(unsigned long long)trace_max_loads());
		int64_t site = st->kind == ST_LOAD ? ref_site(r, st, st->l1 + i) : 0;
		if (site < 0 ||
		    rd_kernel_builder_add_at(r->b, r->tid, st->kind == ST_STORE, addr, ref->bytes,
					     (uint32_t)site) < 0) {
			r->d->oom = 1;
			kd_fail(r->d, 0, "out of memory");
			r->failed = 1;
			return -1;
		}
	}
	return 0;
}

static int run_list(run *r, int start, int count)
{
	const kx_node *n = r->d->prog.n;
	for (int i = 0; i < count; i++) {
		const kd_stmt *st = &r->d->stmts[r->d->lists[start + i]];
		int e = 0;
		if (++r->d->steps > r->max_steps)
			return too_much(r, st->line);
		switch (st->kind) {
		case ST_LET:
			r->vals[st->slot] = kx_eval(n, st->e1, r->vals, &e);
			break;
		case ST_LOAD:
		case ST_STORE:
			if (run_access(r, st) < 0)
				return -1;
			break;
		case ST_IF: {
			int64_t c = kx_eval(n, st->e1, r->vals, &e);
			if (!e && (c ? run_list(r, st->l1, st->n1) : run_list(r, st->l2, st->n2)) < 0)
				return -1;
			break;
		}
		case ST_FOR: {
			uint64_t iters = 0;
			for (r->vals[st->slot] = kx_eval(n, st->e1, r->vals, &e);
			     !e && kx_eval(n, st->e2, r->vals, &e) && !e;
			     r->vals[st->slot] = kx_eval(n, st->e3, r->vals, &e)) {
				if (++iters > MAX_LOOP)
					return run_fail(r, st->line, "loop runs more than %llu "
								     "iterations",
							(unsigned long long)MAX_LOOP);
				if (++r->d->steps > r->max_steps)
					return too_much(r, st->line);
				if (run_list(r, st->l1, st->n1) < 0)
					return -1;
			}
			break;
		}
		}
		if (e)
			return run_fail(r, st->line, "%s", kx_strerror(e));
	}
	return 0;
}

int kd_load(trace_reader *rr, rd_kernel **out)
{
	kdesc *d = (kdesc *)rr;
	*out = NULL;
	const kd_launch *L = &d->launches[d->next - 1];
	const kd_kernel *K = &d->kernels[L->kernel];
	int64_t *vals = malloc((size_t)d->nslots * sizeof *vals);
	if (!vals)
		return kd_oom(d), TRACE_ENOMEM;
	memcpy(vals, d->init, (size_t)d->nslots * sizeof *vals);
	for (int i = 0; i < d->nlv; i++)
		vals[d->lv_slot[i]] = L->lv[i];
	int64_t g[3], bd[3];
	int e = 0, bad = 0;
	for (int i = 0; i < 3; i++) {
		g[i] = kx_eval(d->prog.n, K->grid[i], vals, &e);
		bd[i] = kx_eval(d->prog.n, K->block[i], vals, &e);
		bad |= g[i] < 1 || g[i] > UINT32_MAX || bd[i] < 1 || bd[i] > 65535;
	}
	if (e || bad) {
		free(vals);
		kd_fail(d, K->line, "%s: grid (%lld,%lld,%lld) and block (%lld,%lld,%lld) must be "
				    "positive, block sizes at most 65535%s%s",
			L->name, (long long)g[0], (long long)g[1], (long long)g[2], (long long)bd[0],
			(long long)bd[1], (long long)bd[2], e ? ": " : "", e ? kx_strerror(e) : "");
		return TRACE_EINPUT;
	}
	uint64_t bs = (uint64_t)bd[0] * bd[1] * bd[2];
	if (bs > (1u << 20)) {
		free(vals);
		kd_fail(d, K->line, "kernel %s: a block of %llu threads is more than %u", L->name,
			(unsigned long long)bs, 1u << 20);
		return TRACE_EINPUT;
	}
	uint64_t nblocks = (uint64_t)g[0] * g[1] * g[2];
	if (K->max_threads) {
		uint64_t cap = (uint64_t)K->max_threads / bs;
		if (cap < 1)
			cap = 1;
		if (cap < nblocks)
			nblocks = cap;
	}
	if (nblocks * bs - 1 > RD_MAX_THREAD_ID) {
		free(vals);
		kd_fail(d, K->line, "kernel %s: %llu threads exceed the %u the model takes (set "
				    "max_threads)", L->name, (unsigned long long)(nblocks * bs),
			RD_MAX_THREAD_ID + 1);
		return TRACE_EINPUT;
	}
	vals[S_GX] = g[0], vals[S_GY] = g[1], vals[S_GZ] = g[2];
	vals[S_DX] = bd[0], vals[S_DY] = bd[1], vals[S_DZ] = bd[2];
	vals[S_WARP] = 32;
	run r = {.d = d,
		 .k = K,
		 .vals = vals,
		 .loads_left = trace_max_loads(),
		 .max_steps = limit_from_env("RDSCOPE_MAX_STEPS", KD_MAX_STEPS, UINT64_MAX)};
	r.b = rd_kernel_builder_new(L->name, (uint32_t)bd[0], (uint32_t)bd[1], (uint32_t)bd[2]);
	r.site = malloc((size_t)(d->nrefs ? d->nrefs : 1) * sizeof *r.site);
	if (!r.b || !r.site) {
		rd_kernel_builder_free(r.b);
		free(r.site);
		free(vals);
		kd_oom(d);
		return TRACE_ENOMEM;
	}
	for (int i = 0; i < d->nrefs; i++)
		r.site[i] = -1;
	for (uint64_t b = 0; b < nblocks && !r.failed; b++) {
		if (K->order == ORDER_CUDA) {
			vals[S_BX] = (int64_t)(b % (uint64_t)g[0]);
			vals[S_BY] = (int64_t)(b / (uint64_t)g[0] % (uint64_t)g[1]);
			vals[S_BZ] = (int64_t)(b / ((uint64_t)g[0] * (uint64_t)g[1]));
		} else {
			vals[S_BZ] = (int64_t)(b % (uint64_t)g[2]);
			vals[S_BY] = (int64_t)(b / (uint64_t)g[2] % (uint64_t)g[1]);
			vals[S_BX] = (int64_t)(b / ((uint64_t)g[2] * (uint64_t)g[1]));
		}
		for (uint64_t t = 0; t < bs && !r.failed; t++) {
			vals[S_TX] = (int64_t)(t % (uint64_t)bd[0]);
			vals[S_TY] = (int64_t)(t / (uint64_t)bd[0] % (uint64_t)bd[1]);
			vals[S_TZ] = (int64_t)(t / ((uint64_t)bd[0] * (uint64_t)bd[1]));
			for (int s = K->nlocal0; s < K->nlocal1; s++)
				vals[s] = 0;
			r.tid = (uint32_t)(b * bs + t);
			run_list(&r, K->body, K->nbody);
		}
	}
	free(vals);
	free(r.site);
	if (r.failed) {
		rd_kernel_builder_free(r.b);
		return d->oom ? TRACE_ENOMEM : TRACE_EINPUT;
	}
	*out = rd_kernel_builder_finish(r.b);
	if (!*out) {
		kd_oom(d);
		return TRACE_ENOMEM;
	}
	return TRACE_OK;
}

