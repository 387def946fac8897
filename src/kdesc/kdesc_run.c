/*
 * Kernel descriptions, running (see kdesc.c): a launch's body executed once
 * per thread, in the tracer's thread order, feeding the kernel builder as a
 * trace reader would, or a miss counter (kdesc_count.c: rdscope count),
 * whose affine loops run by lines (kd_count_loop). Errors name the kernel,
 * block and thread.
 */
#include "kdesc_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- running */


/* The site of load reference ref (of statement st): its line, its text
 * and its array, made once per kernel. -1: out of memory. A part of a
 * kernel (r->keep: rd_parts, which models no per-site results) has no
 * sites: 4 bytes a load fewer (65 MB of one core's share of 2mm). */
static int64_t ref_site(run *r, const kd_stmt *st, int ref)
{
	if (r->keep)
		return 0;
	if (r->site[ref] >= 0)
		return r->site[ref];
	const kd_ref *R = &r->d->refs[ref];
	char text[256];
	snprintf(text, sizeof text, "%.*s", (int)R->text_len, R->text);
	rd_site s = {.line = st->line, .ref = text, .array = r->d->arrays[R->array].name};
	return r->site[ref] = rd_kernel_builder_site(r->b, &s);
}

int kd_run_fail(run *r, unsigned line, const char *fmt, ...)
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
	if (r->keep)
		return kd_run_fail(r, line, "more than %llu steps (statements and loop iterations) "
					 "in the blocks of one core (the kernel is modelled core by "
					 "core); RDSCOPE_MAX_STEPS=N sets another limit per core",
				   (unsigned long long)r->step_limit);
	return kd_run_fail(r, line, "more than %llu steps (statements and loop iterations over all "
				 "threads and launches) in one description; RDSCOPE_MAX_STEPS=N sets "
				 "another limit",
			(unsigned long long)r->step_limit);
}

/* Running (not counting): one more step (a statement or a loop iteration)
 * of the description's work, within its limit; every 65,536 steps, whether
 * the read was abandoned (the explorer's Esc: trace_stopped, trace.h). 0
 * or -1 (the message set). */
static int one_step(run *r, unsigned line)
{
	if (++r->d->steps > r->max_steps)
		return too_much(r, line);
	if (r->d->steps >= r->stop_check) {
		r->stop_check = r->d->steps + 65536;
		if (trace_stopped()) {
			r->stopped = r->failed = 1;
			return kd_fail(r->d, 0, "stopped");
		}
	}
	return 0;
}

const char *kd_slot_name(const kdesc *d, int slot)
{
	const char *name = "its variable";
	for (int i = d->nsyms - 1; i >= 0; i--)
		if (d->syms[i].slot == slot)
			name = d->syms[i].name;
	return name;
}

/* Loop st's step left its variable at v and its body changed nothing the
 * loop reads (kd_stmt.still): it would run until a limit (seconds, and
 * memory when it loads), so it is an error at once. */
static int stuck(run *r, const kd_stmt *st, int64_t v)
{
	return kd_run_fail(r, st->line, KD_STUCK_FMT, kd_slot_name(r->d, st->slot), (long long)v);
}

/* Out of memory while running: the message set, r failed; -1. */
static int run_oom(run *r)
{
	r->d->oom = 1;
	kd_fail(r->d, 0, "out of memory");
	r->failed = 1;
	return -1;
}

int kd_ref_addr(run *r, const kd_stmt *st, const kd_ref *ref, uint64_t *addr)
{
	char why[512];
	if (kd_addr(r->d, ref, r->vals, addr, why, sizeof why) < 0)
		return kd_run_fail(r, st->line, "%s", why);
	return 0;
}

/* More loads (or stores) than trace_max_loads() in what is built at once:
 * the kernel, or a part of it (r->keep: one SM's blocks, rd_parts), whose
 * coalesced requests are in memory at once (up to 8 bytes a load: a part
 * is built a chunk of blocks at a time, so its thread-level accesses are
 * not). Says what makes it smaller; -1. */
static int too_many(run *r, const kd_stmt *st)
{
	const char *what = st->kind == ST_LOAD ? "loads" : "stores";
	unsigned long long lim = (unsigned long long)trace_max_loads();
	if (!r->keep)
		return kd_run_fail(r, st->line, "more than %llu %s in one kernel (lower max_threads "
						"or the sizes)", lim, what);
	if (r->npart <= 1)
		return kd_run_fail(r, st->line, "more than %llu %s in one block, which an SM models "
						"at once (its requests in memory together, up to 8 bytes "
						"a load): "
						"only smaller sizes make it smaller (-D, a variant); "
						"gpu.max_threads, gpu.sample_cores and gpu.cores do not",
				   lim, what);
	return kd_run_fail(r, st->line, "more than %llu %s in one SM's %u blocks (passed in its "
					"block %u), which it models at once (its requests in "
					"memory together, up to 8 bytes a load): more SMs (gpu.cores), fewer "
					"threads (gpu.max_threads) or smaller sizes (-D, a variant) "
					"make them fewer",
			   lim, what, r->part_all, r->npart);
}

static int run_access(run *r, const kd_stmt *st)
{
	if (r->count && st->kind == ST_STORE && r->skip_stores)
		return 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_ref *ref = &r->d->refs[st->l1 + i];
		uint64_t addr;
		if (kd_ref_addr(r, st, ref, &addr) < 0)
			return -1;
		if (r->count && r->dry)
			continue; /* the flat path's bounds check */
		if (r->count) {
			if (r->watch)
				r->see(r->watch, addr / r->line);
			if (rd_count_access(r->count, addr, (uint32_t)(st->l1 + i)) < 0)
				return run_oom(r);
			continue;
		}
		if ((st->kind == ST_LOAD && !r->loads_left--) ||
		    (st->kind == ST_STORE && !r->stores_left--))
			return too_many(r, st);
		int64_t site = st->kind == ST_LOAD ? ref_site(r, st, st->l1 + i) : 0;
		if (site < 0 ||
		    rd_kernel_builder_add_at(r->b, r->tid, st->kind == ST_STORE, addr, ref->bytes,
					     (uint32_t)site) < 0)
			return run_oom(r);
	}
	return 0;
}

/* ---------------------------------------------------------------- loops by strides */

/* The trip count of a loop v = v0; v OP E; v = v + c (op: KX_CMP_*, c
 * != 0, v0 and E within INT64_MAX / 4, |c| at most 2^20): 0 with *trips,
 * else 1 (a comparison that ends at once or never, or a != that the
 * steps jump over: the loop runs as usual). */
static int trip_count(int op, int64_t v0, int64_t E, int64_t c, uint64_t *trips)
{
	if (c > 0 && (op == KX_CMP_LT || op == KX_CMP_LE || op == KX_CMP_NE)) {
		int64_t end = op == KX_CMP_LE ? E + 1 : E;
		if (op == KX_CMP_NE && (E < v0 || (E - v0) % c))
			return 1; /* never equal: runs until the iteration limit */
		*trips = end > v0 ? (uint64_t)((end - v0 + c - 1) / c) : 0;
		return 0;
	}
	if (c < 0 && (op == KX_CMP_GT || op == KX_CMP_GE || op == KX_CMP_NE)) {
		int64_t end = op == KX_CMP_GE ? E - 1 : E;
		if (op == KX_CMP_NE && (E > v0 || (v0 - E) % -c))
			return 1;
		*trips = v0 > end ? (uint64_t)((v0 - end + (-c) - 1) / (-c)) : 0;
		return 0;
	}
	return 1;
}

/*
 * Plain loop st (kd_stmt.cmp: v = v0; v OP bound; v = v + c) at the current
 * values: 0 with *v0, *c (a constant, not 0) and *trips, else 1 (run it as
 * usual). v0 and the bound within INT64_MAX / 4 and c within 2^20 keep the
 * loop's values and trip count far from overflow. The step is evaluated at
 * the first and at the last iteration that runs (before the MAX_LOOP cap)
 * too: an affine expression that overflows at neither overflows at none in
 * between (each of its parts moves straight), and one that does is left to
 * the loop as usual, which says where. Leaves the loop variable as it found
 * it (the start may read it).
 */
int kd_loop_header(const kdesc *d, int64_t *vals, const kd_stmt *st, int64_t *v0p, int64_t *cp,
		   uint64_t *tripsp)
{
	if (!st->cmp)
		return 1;
	const kx_ins *code = d->prog.code;
	int slot = st->slot, e = 0;
	int64_t v0 = kx_run(code + st->c1, vals, &e);
	int64_t E = kx_run(code + st->cbound, vals, &e);
	if (e || E > INT64_MAX / 4 || E < INT64_MIN / 4 || v0 > INT64_MAX / 4 || v0 < INT64_MIN / 4)
		return 1;
	int64_t was = vals[slot];
	uint64_t trips = 0;
	vals[slot] = v0;
	int64_t c = (int64_t)((uint64_t)kx_run(code + st->c3, vals, &e) - (uint64_t)v0);
	vals[slot] = v0 + 1;
	int64_t c1 = (int64_t)((uint64_t)kx_run(code + st->c3, vals, &e) - (uint64_t)(v0 + 1));
	int plain = !e && c == c1 && c && c <= (1 << 20) && c >= -(1 << 20) &&
		    !trip_count(st->cmp, v0, E, c, &trips);
	if (plain && trips > 1) { /* the step at the last iteration that runs */
		int64_t last = v0 + (int64_t)((trips < MAX_LOOP ? trips : MAX_LOOP) - 1) * c;
		vals[slot] = last;
		plain = kx_run(code + st->c3, vals, &e) == last + c && !e;
	}
	vals[slot] = was;
	if (!plain)
		return 1;
	*v0p = v0;
	*cp = c;
	*tripsp = trips;
	return 0;
}

/*
 * Reference R over a loop's trips iterations (its variable v0, v0 + c,
 * ...): its address at the first and its step, when every index stays in
 * bounds all the way; else 1 (run the loop as usual: it fails where it
 * does). An affine index is x0 + dx * t modulo 2^64 at iteration t; when
 * x0 + dx * (trips - 1) is the last iteration's index without wrapping,
 * it moves straight from the first's to the last's, so checking both
 * checks all (the flat index and the address move straight too).
 */
int kd_stride_ref(const kdesc *d, int64_t *vals, const kd_ref *R, int slot, int64_t v0, int64_t c,
		  uint64_t trips, uint64_t *a0, uint64_t *step)
{
	const kx_ins *code = d->prog.code;
	const kd_array *A = &d->arrays[R->array];
	int64_t last = v0 + (int64_t)(trips - 1) * c;
	int64_t f0 = 0, fl = 0, df = 0, was = vals[slot];
	int e = 0, bad = 0;
	for (int j = 0; j < R->nidx; j++) {
		vals[slot] = v0;
		int64_t x0 = kx_run(code + R->code[j], vals, &e);
		vals[slot] = last;
		int64_t xl = kx_run(code + R->code[j], vals, &e);
		int64_t dx = 0;
		if (trips > 1) {
			vals[slot] = v0 + c;
			dx = (int64_t)((uint64_t)kx_run(code + R->code[j], vals, &e) - (uint64_t)x0);
		}
		int64_t lim = R->nidx == 1 ? A->total : A->dim[j];
		if (e || x0 < 0 || x0 >= lim || xl < 0 || xl >= lim) {
			bad = 1;
			break;
		}
		int64_t span = xl - x0; /* both below 2^48 */
		if (dx ? span % dx || span / dx != (int64_t)(trips - 1) : span != 0) {
			bad = 1;
			break;
		}
		f0 = f0 * A->dim[j] + x0;
		fl = fl * A->dim[j] + xl;
		df = df * A->dim[j] + dx;
	}
	vals[slot] = was;
	if (bad || f0 > INT64_MAX / (int64_t)A->elem || fl > INT64_MAX / (int64_t)A->elem)
		return 1;
	*a0 = A->base + (uint64_t)(f0 * (int64_t)A->elem);
	*step = (uint64_t)df * A->elem;
	return 0;
}

/*
 * Running (not counting): a loop of loads and stores with affine
 * subscripts (kd_stmt.cmp) whose whole run stays in bounds and within the
 * step, load and store limits: its accesses stepped by their strides, no
 * expression evaluated per iteration. The same accesses, sites, counts
 * and final loop variable as running it statement by statement. 0 done,
 * 1 not such a run (run it as usual), -1 out of memory.
 */
static int run_strided(run *r, const kd_stmt *st)
{
	kdesc *d = r->d;
	int64_t v0, c;
	uint64_t trips;
	if (kd_loop_header(r->d, r->vals, st, &v0, &c, &trips))
		return 1;
	if (!trips) {
		r->vals[st->slot] = v0;
		return 0;
	}
	uint64_t per = 1 + (uint64_t)st->n1;
	if (trips > MAX_LOOP || d->steps > r->max_steps || trips * per > r->max_steps - d->steps ||
	    st->nload * trips > r->loads_left || st->nstore * trips > r->stores_left)
		return 1; /* a limit is reached on the way: as usual, to say where */
	uint64_t a[KD_STRIDE_ACC], s[KD_STRIDE_ACC];
	uint32_t site[KD_STRIDE_ACC], bytes[KD_STRIDE_ACC];
	uint8_t store[KD_STRIDE_ACC];
	int q = 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		for (int j = 0; j < b->n1; j++, q++) {
			const kd_ref *R = &d->refs[b->l1 + j];
			if (kd_stride_ref(d, r->vals, R, st->slot, v0, c, trips, &a[q], &s[q]))
				return 1;
			store[q] = b->kind == ST_STORE;
			bytes[q] = R->bytes;
		}
	}
	/* the loads' sites, made in the order the first iteration makes them */
	q = 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		for (int j = 0; j < b->n1; j++, q++) {
			int64_t id = store[q] ? 0 : ref_site(r, b, b->l1 + j);
			if (id < 0)
				return run_oom(r);
			site[q] = (uint32_t)id;
		}
	}
	if (rd_kernel_builder_add_strided(r->b, r->tid, q, store, a, s, bytes, site, trips) < 0)
		return run_oom(r);
	d->steps += trips * per;
	r->loads_left -= st->nload * trips;
	r->stores_left -= st->nstore * trips;
	r->vals[st->slot] = v0 + (int64_t)trips * c; /* as the loop leaves it */
	return 0;
}

/* Counting: tell the progress callback, at an iteration of one of the two
 * outermost loops, how far the run is (its trip count known: kd_count_loop's
 * analysis, else the loop does not count). */
static int count_progress(run *r)
{
	double f = r->base;
	double w = r->span;
	for (int i = 0; i < r->depth && i < 2; i++) {
		f += w * r->loop_lo[i];
		w *= r->loop_w[i];
	}
	if (r->progress(r->pctx, f)) {
		r->stopped = 1;
		r->failed = 1;
		kd_fail(r->d, 0, "stopped");
		return -1;
	}
	return 0;
}

static int run_list(run *r, int start, int count);

int kd_run_list(run *r, int start, int count)
{
	return run_list(r, start, count);
}

static int run_list(run *r, int start, int count)
{
	const kx_node *n = r->d->prog.n;
	const kx_ins *code = r->d->prog.code;
	for (int i = 0; i < count; i++) {
		const kd_stmt *st = &r->d->stmts[r->d->lists[start + i]];
		int e = 0;
		if (!r->count && one_step(r, st->line) < 0)
			return -1;
		switch (st->kind) {
		case ST_LET:
			r->vals[st->slot] = kx_run(code + st->c1, r->vals, &e);
			break;
		case ST_LOAD:
		case ST_STORE:
			if (run_access(r, st) < 0)
				return -1;
			break;
		case ST_IF: {
			int64_t c = kx_run(code + st->c1, r->vals, &e);
			if (!e && (c ? run_list(r, st->l1, st->n1) : run_list(r, st->l2, st->n2)) < 0)
				return -1;
			break;
		}
		case ST_FOR: {
			if (r->count) {
				int rc = kd_count_loop(r, st);
				if (rc <= 0) {
					if (rc < 0)
						return -1;
					break;
				}
			} else if (st->strided) {
				int rc = run_strided(r, st);
				if (rc <= 0) {
					if (rc < 0)
						return -1;
					break;
				}
			}
			uint64_t iters = 0, trip = 0;
			int track = r->count && r->progress && r->depth < 2;
			if (track) {
				/* the trip count if the loop is a plain count (else no share) */
				int bound, op = kx_cmp_var(n, st->e2, st->slot, &bound);
				int64_t v0 = kx_eval(n, st->e1, r->vals, &e);
				int64_t E = op ? kx_eval(n, bound, r->vals, &e) : 0;
				if (!e && op == KX_CMP_LT && E > v0)
					trip = (uint64_t)E - (uint64_t)v0;
				else if (!e && op == KX_CMP_LE && E >= v0)
					trip = (uint64_t)E - (uint64_t)v0 + 1; /* (0: no share) */
				r->loop_lo[r->depth] = 0;
				r->loop_w[r->depth] = trip ? 1.0 / (double)trip : 0;
				r->depth++;
			}
			int64_t was = 0; /* the variable before the step */
			for (r->vals[st->slot] = kx_run(code + st->c1, r->vals, &e);
			     !e && kx_run(code + st->c2, r->vals, &e) && !e;
			     r->vals[st->slot] = kx_run(code + st->c3, r->vals, &e)) {
				if (iters && st->still && r->vals[st->slot] == was)
					return stuck(r, st, was);
				if (++iters > MAX_LOOP)
					return kd_run_fail(r, st->line, KD_LOOP_FMT,
							   (unsigned long long)MAX_LOOP);
				if (!r->count && one_step(r, st->line) < 0)
					return -1;
				if (track && trip) {
					r->loop_lo[r->depth - 1] =
						(double)(iters - 1 < trip ? iters - 1 : trip) / (double)trip;
					if (count_progress(r) < 0)
						return -1;
				}
				if (run_list(r, st->l1, st->n1) < 0)
					return -1;
				was = r->vals[st->slot];
			}
			if (track)
				r->depth--;
			break;
		}
		}
		if (e)
			return kd_run_fail(r, st->line, "%s", kx_strerror(e));
	}
	return 0;
}

/* ---------------------------------------------------------------- counting loops */

/*
 * A loop whose body is loads and stores only, with subscripts affine in
 * its variable, a constant step and a bound it is compared with, runs by
 * lines: each reference's address is a + s * t at iteration t, so the
 * iterations that stay on the same lines are found by division; the first
 * of them is counted access by access and the others at once
 * (rd_count_repeat).
 */
/* Iterations from t on whose address a + s * t stays on its line of
 * `line` bytes (at least 1). */
static uint64_t same_line(uint64_t addr, int64_t s, uint32_t line)
{
	uint64_t off = addr % line;
	if (s > 0)
		return (line - off + (uint64_t)s - 1) / (uint64_t)s;
	return off / (uint64_t)(0 - (uint64_t)s) + 1;
}

int kd_loop_trips(run *r, const kd_stmt *st, int64_t *v0p, int64_t *cp, uint64_t *tripsp)
{
	int64_t v0, c;
	uint64_t trips;
	if (kd_loop_header(r->d, r->vals, st, &v0, &c, &trips))
		return 1;
	if (trips > MAX_LOOP)
		return kd_run_fail(r, st->line, KD_LOOP_FMT,
				   (unsigned long long)MAX_LOOP);
	*v0p = v0;
	*cp = c;
	*tripsp = trips;
	return 0;
}

int kd_count_loop(run *r, const kd_stmt *st)
{
	kdesc *d = r->d;
	const kx_node *n = d->prog.n;
	int slot = st->slot;
	/* the kind of loop: a body of accesses affine in the variable */
	int nacc = 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		if (b->kind != ST_LOAD && b->kind != ST_STORE)
			return 1;
		if (b->kind == ST_STORE && r->skip_stores)
			continue;
		for (int j = 0; j < b->n1; j++) {
			const kd_ref *R = &d->refs[b->l1 + j];
			for (int k = 0; k < R->nidx; k++)
				if (!kx_affine(n, R->idx[k], slot))
					return 1;
		}
		nacc += b->n1;
	}
	if (nacc > RD_COUNT_MAX_REPEAT)
		return 1;
	int64_t v0, c;
	uint64_t trips;
	int lt = kd_loop_trips(r, st, &v0, &c, &trips);
	if (lt)
		return lt;
	if (!trips)
		return 0;
	if (!nacc) { /* its stores skipped (--stores skip): nothing to count */
		r->vals[slot] = v0 + (int64_t)trips * c;
		return 0;
	}
	/* each access's address at the first iteration and its stride; every
	 * index checked at the first and the last iteration (an affine index
	 * is monotone in between) */
	uint64_t a[RD_COUNT_MAX_REPEAT], addr[RD_COUNT_MAX_REPEAT];
	int64_t s[RD_COUNT_MAX_REPEAT];
	uint32_t ref[RD_COUNT_MAX_REPEAT];
	int p = 0;
	int64_t last = v0 + (int64_t)(trips - 1) * c;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		if (b->kind == ST_STORE && r->skip_stores)
			continue;
		for (int j = 0; j < b->n1; j++, p++) {
			const kd_ref *R = &d->refs[b->l1 + j];
			uint64_t x1, xl;
			r->vals[slot] = v0 + c;
			int two = trips > 1;
			if (two && kd_ref_addr(r, b, R, &x1) < 0)
				return -1;
			r->vals[slot] = last;
			if (kd_ref_addr(r, b, R, &xl) < 0)
				return -1;
			r->vals[slot] = v0;
			if (kd_ref_addr(r, b, R, &a[p]) < 0)
				return -1;
			s[p] = two ? (int64_t)(x1 - a[p]) : 0;
			ref[p] = (uint32_t)(b->l1 + j);
		}
	}
	if (r->dry) { /* every index checked at the first and the last iteration */
		r->vals[slot] = v0 + (int64_t)trips * c;
		return 0;
	}
	for (uint64_t t = 0; t < trips;) {
		uint64_t m = trips - t;
		for (int q = 0; q < nacc; q++) {
			addr[q] = a[q] + (uint64_t)s[q] * t;
			if (s[q]) {
				uint64_t k = same_line(addr[q], s[q], r->line);
				if (k < m)
					m = k;
			}
		}
		for (int q = 0; q < nacc; q++) {
			if (r->watch)
				r->see(r->watch, addr[q] / r->line);
			if (rd_count_access(r->count, addr[q], ref[q]) < 0)
				return run_oom(r);
		}
		if (m > 1) {
			if (rd_count_repeat(r->count, addr, ref, nacc, m - 1) < 0)
				return run_oom(r);
			for (int q = 0; q < nacc; q++)
				r->fast[ref[q]] += m - 1;
		}
		t += m;
	}
	r->vals[slot] = v0 + (int64_t)trips * c; /* as the loop leaves it */
	return 0;
}

/* ---------------------------------------------------------------- launches */

/* A builder for launch L's kernel, a part's or a chunk's of it. */
static rd_kernel_builder *chunk_builder(run *r, const char *name, const int64_t *bd)
{
	rd_kernel_builder *b = rd_kernel_builder_new(name, (uint32_t)bd[0], (uint32_t)bd[1],
						     (uint32_t)bd[2]);
	/* a part: built in the arrays of the one before (a spare is only an
	 * economy: none, no memory, is no error) */
	if (b && r->keep) {
		if (!r->d->spare)
			r->d->spare = rd_kernel_spare_new();
		rd_kernel_builder_use_spare(b, r->d->spare);
		if (r->sink) /* (a chunk: the next one is built in its arrays) */
			rd_kernel_builder_keep_room(b);
	}
	return b;
}

/* A part in chunks: the blocks built since the last chunk (part_ids from
 * chunk_first) as a kernel to the sink, and a new builder (again: another
 * chunk follows). 0 or -1 (the message set). */
static int chunk_flush(run *r, int again)
{
	uint32_t n = r->npart - r->chunk_first;
	uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
	const char *name = r->lname;
	int64_t bd[3] = {r->vals[S_DX], r->vals[S_DY], r->vals[S_DZ]};
	rd_kernel *ck = ids ? rd_kernel_builder_finish(r->b) : NULL;
	if (!ids)
		rd_kernel_builder_free(r->b);
	r->b = NULL;
	if (!ck) {
		free(ids);
		return run_oom(r);
	}
	memcpy(ids, r->part_ids + r->chunk_first, (size_t)n * sizeof *ids);
	rd_kernel_set_part_blocks(ck, ids, n);
	r->chunk_first = r->npart;
	if (r->sink(r->sink_ctx, ck) < 0)
		return run_oom(r);
	if (again && !(r->b = chunk_builder(r, name, bd)))
		return run_oom(r);
	return 0;
}

int kd_launch_setup(kdesc *d, const kd_launch *L, int64_t *vals, int64_t *g, int64_t *bd,
		    uint64_t *nblocksp, uint64_t *grid_threads)
{
	const kd_kernel *K = &d->kernels[L->kernel];
	memcpy(vals, d->init, (size_t)d->nslots * sizeof *vals);
	for (int i = 0; i < d->nlv; i++)
		vals[d->lv_slot[i]] = L->lv[i];
	int e = 0, bad = 0;
	for (int i = 0; i < 3; i++) {
		g[i] = kx_eval(d->prog.n, K->grid[i], vals, &e);
		bd[i] = kx_eval(d->prog.n, K->block[i], vals, &e);
		bad |= g[i] < 1 || g[i] > UINT32_MAX || bd[i] < 1 || bd[i] > 65535;
	}
	if (e || bad)
		return kd_fail(d, K->line, "%s: grid (%lld,%lld,%lld) and block (%lld,%lld,%lld) must "
					   "be positive, block sizes at most 65535%s%s",
			       L->name, (long long)g[0], (long long)g[1], (long long)g[2],
			       (long long)bd[0], (long long)bd[1], (long long)bd[2], e ? ": " : "",
			       e ? kx_strerror(e) : "");
	uint64_t bs = (uint64_t)bd[0] * bd[1] * bd[2];
	if (bs > (1u << 20))
		return kd_fail(d, K->line, "kernel %s: a block of %llu threads is more than %u",
			       L->name, (unsigned long long)bs, 1u << 20);
	uint64_t nblocks = (uint64_t)g[0] * g[1] * g[2];
	int64_t max_threads = d->threads_set ? (int64_t)d->threads_cap : K->max_threads;
	*grid_threads = nblocks * bs;
	if (max_threads) {
		uint64_t cap = (uint64_t)max_threads / bs;
		if (cap < 1)
			cap = 1;
		if (cap < nblocks)
			nblocks = cap;
	}
	if (nblocks * bs - 1 > RD_MAX_THREAD_ID)
		return kd_fail(d, K->line, "kernel %s: %llu threads exceed the %u the model takes (set "
					   "max_threads)",
			       L->name, (unsigned long long)(nblocks * bs), RD_MAX_THREAD_ID + 1);
	vals[S_GX] = g[0], vals[S_GY] = g[1], vals[S_GZ] = g[2];
	vals[S_DX] = bd[0], vals[S_DY] = bd[1], vals[S_DZ] = bd[2];
	vals[S_WARP] = 32;
	*nblocksp = nblocks;
	return 0;
}

void kd_thread_vals(const kd_kernel *K, const int64_t *g, const int64_t *bd, uint64_t b, uint64_t t,
		    int64_t *vals)
{
	kd_block_vals(K, g, b, vals);
	kd_tid_vals(K, bd, t, vals);
}

void kd_block_vals(const kd_kernel *K, const int64_t *g, uint64_t b, int64_t *vals)
{
	if (K->order == ORDER_CUDA) {
		vals[S_BX] = (int64_t)(b % (uint64_t)g[0]);
		vals[S_BY] = (int64_t)(b / (uint64_t)g[0] % (uint64_t)g[1]);
		vals[S_BZ] = (int64_t)(b / ((uint64_t)g[0] * (uint64_t)g[1]));
	} else {
		vals[S_BZ] = (int64_t)(b % (uint64_t)g[2]);
		vals[S_BY] = (int64_t)(b / (uint64_t)g[2] % (uint64_t)g[1]);
		vals[S_BX] = (int64_t)(b / ((uint64_t)g[2] * (uint64_t)g[1]));
	}
}

void kd_tid_vals(const kd_kernel *K, const int64_t *bd, uint64_t t, int64_t *vals)
{
	vals[S_TX] = (int64_t)(t % (uint64_t)bd[0]);
	vals[S_TY] = (int64_t)(t / (uint64_t)bd[0] % (uint64_t)bd[1]);
	vals[S_TZ] = (int64_t)(t / ((uint64_t)bd[0] * (uint64_t)bd[1]));
	for (int s = K->nlocal0; s < K->nlocal1; s++)
		vals[s] = 0;
}

int kd_run_launch(run *r, const kd_launch *L)
{
	kdesc *d = r->d;
	const kd_kernel *K = &d->kernels[L->kernel];
	r->k = K;
	int64_t *vals = malloc((size_t)d->nslots * sizeof *vals);
	if (!vals)
		return kd_oom(d);
	int64_t g[3], bd[3];
	uint64_t nblocks;
	if (kd_launch_setup(d, L, vals, g, bd, &nblocks, &r->grid_threads) < 0) {
		free(vals);
		return -1;
	}
	uint64_t bs = (uint64_t)bd[0] * bd[1] * bd[2];
	r->vals = vals;
	r->site = malloc((size_t)(d->nrefs ? d->nrefs : 1) * sizeof *r->site);
	/* a part (keep): its blocks' threads numbered densely, kept block
	 * after kept block (rd_kernel.part_block), so that its index is its
	 * own threads' and not every id below its last */
	uint64_t kept = nblocks;
	int part_oom = 0;
	if (r->keep) {
		kept = 0;
		for (uint64_t b = 0; b < nblocks; b++)
			kept += r->keep(r->keep_ctx, b) != 0;
		r->part_ids = malloc((kept ? kept : 1) * sizeof *r->part_ids);
		part_oom = !r->part_ids;
		r->npart = 0;
		r->part_all = (uint32_t)kept;
	}
	if (!r->count) {
		r->lname = L->name;
		r->b = chunk_builder(r, L->name, bd);
		/* a part of the launch before: this one is likely its size
		 * (in chunks: the spare's arrays are a chunk's) */
		int again = d->hint_launch == (size_t)(L - d->launches) + 1;
		if (r->b && !r->sink)
			rd_kernel_builder_expect(r->b, again ? d->hint_loads : 0,
						 again ? d->hint_stores : 0, kept * bs);
	}
	if ((!r->count && !r->b) || !r->site || part_oom) {
		rd_kernel_builder_free(r->b);
		r->b = NULL;
		free(r->site);
		free(r->part_ids);
		r->part_ids = NULL;
		free(vals);
		return kd_oom(d);
	}
	for (int i = 0; i < d->nrefs; i++)
		r->site[i] = -1;
	double base = r->base, span = r->span;
	r->nblocks = nblocks;
	for (uint64_t b = 0; b < nblocks && !r->failed; b++) {
		if (r->keep && !r->keep(r->keep_ctx, b))
			continue;
		if (r->sink && rd_kernel_builder_loads(r->b) + rd_kernel_builder_stores(r->b) >=
				       r->chunk &&
		    chunk_flush(r, 1) < 0)
			break;
		uint64_t local = b; /* the block's number in the kernel built */
		if (r->keep) {
			local = r->npart - r->chunk_first; /* (in its chunk) */
			r->part_ids[r->npart++] = (uint32_t)b;
		}
		for (uint64_t t = 0; t < bs && !r->failed; t++) {
			kd_thread_vals(K, g, bd, b, t, vals);
			r->tid = (uint32_t)(local * bs + t);
			/* this thread's share of the launch's */
			r->span = span / (double)(nblocks * bs);
			r->base = base + r->span * (double)(b * bs + t);
			if (r->count && r->flat && r->flat_body && nblocks * bs == 1) {
				int f = r->flat_body(r, K);
				if (f <= 0)
					continue; /* counted, or failed (r->failed) */
			}
			run_list(r, K->body, K->nbody);
		}
	}
	r->base = base;
	r->span = span;
	if (r->sink && !r->failed) {
		/* the last chunk, and the builder of the shape: no accesses (the
		 * part's are the sink's), no spare (the next chunk's) */
		if (r->npart > r->chunk_first) {
			chunk_flush(r, 0);
		} else {
			rd_kernel_builder_free(r->b);
			r->b = NULL;
		}
		if (!r->failed && !(r->b = rd_kernel_builder_new(L->name, (uint32_t)bd[0],
								 (uint32_t)bd[1], (uint32_t)bd[2])))
			run_oom(r);
	}
	free(vals);
	r->vals = NULL;
	free(r->site);
	r->site = NULL;
	return r->failed ? -1 : 0;
}

int kd_load(trace_reader *rr, rd_kernel **out)
{
	return kd_load_blocks(rr, NULL, NULL, NULL, out);
}

/* (here, beside kd_load: kdesc.c's readers and kdesc_cursor.c's streams
 * both ask, and kdesc.c calls the stream's part, kdesc_part.c) */
int kdesc_is(const trace_reader *r)
{
	return r && r->load == kd_load;
}

/* Accesses of a chunk of a part built in chunks (kd_load_chunks): once a
 * chunk has this many, the next block starts the next one. A chunk's
 * accesses are in memory with the part's requests (about 10 to 18 bytes
 * an access as built, 8 a request). RDSCOPE_PART_CHUNK=N sets another
 * (1: a chunk a block, for the tests). */
#define KD_PART_CHUNK ((uint64_t)1 << 20)

static int load_part(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		     int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, uint64_t *nblocks,
		     rd_kernel **out)
{
	kdesc *d = (kdesc *)rr;
	*out = NULL;
	uint64_t lim = limit_from_env("RDSCOPE_MAX_STEPS", KD_MAX_STEPS, UINT64_MAX);
	run r = {.d = d,
		 .loads_left = trace_max_loads(),
		 .stores_left = trace_max_loads(),
		 .max_steps = lim,
		 .step_limit = lim,
		 .keep = keep,
		 .keep_ctx = ctx,
		 .sink = keep ? sink : NULL,
		 .sink_ctx = sctx};
	if (r.sink)
		r.chunk = limit_from_env("RDSCOPE_PART_CHUNK", KD_PART_CHUNK, UINT64_MAX);
	/* a part: the limit counts from here (see run.max_steps) */
	if (keep && d->steps < UINT64_MAX - lim)
		r.max_steps = d->steps + lim;
	else if (keep)
		r.max_steps = UINT64_MAX;
	if (kd_run_launch(&r, &d->launches[d->next - 1]) < 0) {
		rd_kernel_builder_free(r.b);
		free(r.part_ids);
		return d->oom ? TRACE_ENOMEM : TRACE_EINPUT;
	}
	if (nblocks)
		*nblocks = r.nblocks;
	*out = rd_kernel_builder_finish(r.b);
	if (!*out) {
		free(r.part_ids);
		kd_oom(d);
		return TRACE_ENOMEM;
	}
	if (r.part_ids)
		rd_kernel_set_part_blocks(*out, r.part_ids, r.npart);
	if (r.sink) /* (the chunks' arrays: held until rd_parts_finish) */
		(*out)->spare = d->spare;
	if ((*out)->nloads || (*out)->nstores) {
		d->hint_launch = d->next;
		d->hint_loads = (*out)->nloads;
		d->hint_stores = (*out)->nstores;
	}
	if (r.grid_threads > r.nblocks * (*out)->block_size)
		(*out)->launch_threads = r.grid_threads;
	rd_arrays *as = kd_arrays_new(d);
	if (!as) {
		rd_kernel_free(*out);
		*out = NULL;
		kd_oom(d);
		return TRACE_ENOMEM;
	}
	rd_kernel_set_arrays(*out, as);
	return TRACE_OK;
}

/* The description's arrays, its map (seed 002's unit of placement): 2D
 * and deeper layouts keep their innermost dimension as the width; an
 * array overlapping one before it (explicit bases) is left out, its
 * accesses counted under the earlier one. */
rd_arrays *kd_arrays_new(const kdesc *d)
{
	rd_arrays *as = rd_arrays_new();
	for (int i = 0; as && i < d->narrays; i++) {
		const kd_array *A = &d->arrays[i];
		uint64_t bytes = (uint64_t)A->total * A->elem;
		uint32_t width = A->ndims >= 2 && A->dim[A->ndims - 1] <= UINT32_MAX
					 ? (uint32_t)A->dim[A->ndims - 1]
					 : 0;
		if (bytes && rd_arrays_add(as, A->name, A->base, bytes, A->elem, width, NULL) == -1) {
			rd_arrays_free(as);
			as = NULL;
		}
	}
	return as;
}

int kd_load_blocks(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   uint64_t *nblocks, rd_kernel **out)
{
	return load_part(rr, keep, ctx, NULL, NULL, nblocks, out);
}

int kd_load_chunks(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, rd_kernel **out)
{
	return load_part(rr, keep, ctx, sink, sctx, NULL, out);
}
