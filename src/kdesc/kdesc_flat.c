/*
 * Counting's flat path (see kdesc.h, kdesc_flat_info): a loop whose later
 * periods are counted without running them.
 *
 * The program is one thread's body ending with a loop `for v` of N
 * iterations (the statements before it are counted access by access and
 * count, for the argument below, as touches before the loop).
 * Nothing inside assigns, no condition reads v, an inner loop's bounds
 * are free of v or both move with it by the same a v (a tile's loop: its
 * variable then moves by a v too, the trip count does not), and every
 * subscript is affine in the moving variables with coefficients fixed for
 * the run, adding up to one movement per
 * array: iteration i + 1 makes iteration i's accesses in the same order,
 * each array's addresses moved by its own D bytes. After g iterations (the
 * period) every array has moved by whole lines: the line map T (line + g D
 * / line, per array) takes each period's line sequence to the next one's.
 *
 * Why the later periods count as the second (period 1; period 0 and the N
 * mod g iterations before it are the prefix; P the period's length):
 *  - an access of line x at time t in period j >= 1 whose line was last
 *    touched at t' >= the start of period 0: T(x) at t + P was last
 *    touched at t' + P (a later touch would be the translate of a touch of
 *    x between t' and t), and the distinct lines in between are the
 *    translates of x's: the same stack distance, the same reference last
 *    touching it;
 *  - a first touch x in period 1: checked that no translate T^k(x)
 *    (1 <= k <= periods - 2) is a line of the prefix or of period 1, so
 *    each translate is a first touch too (a touch of it in periods 1..k
 *    would be a translate of one in period 1);
 *  - an access in period 1 of a line last touched before period 0 (before
 *    the loop or in the remainder) breaks the first point: checked, and
 *    the path not taken; the lines touched before are the counter's own
 *    (rd_count_seen).
 * By induction every period j >= 2 counts as period 1, reference by
 * reference and level by level. Period 2 is counted as well and compared
 * with period 1 (a check of this file, not of the argument), and the last
 * iteration is run without counting to check its indices (an affine index
 * in bounds at the first and the last iteration is in bounds between).
 */
#include "kdesc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARRAYS_FLAT 64 /* arrays the path follows (more: not taken) */

/* ---------------------------------------------------------------- line sets */

typedef struct lset {
	uint64_t *k; /* line + 1, 0 empty */
	size_t n, cap;
} lset;

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 29);
}

static int lset_has(const lset *s, uint64_t x)
{
	if (!s->cap)
		return 0;
	for (size_t i = mix(x) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (!s->k[i])
			return 0;
		if (s->k[i] == x + 1)
			return 1;
	}
}

/* 1 added, 0 there already, -1 out of memory */
static int lset_add(lset *s, uint64_t x)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 1024;
		uint64_t *nk = calloc(nc, sizeof *nk);
		if (!nk)
			return -1;
		for (size_t i = 0; i < s->cap; i++)
			if (s->k[i])
				for (size_t j = mix(s->k[i] - 1) & (nc - 1);; j = (j + 1) & (nc - 1))
					if (!nk[j]) {
						nk[j] = s->k[i];
						break;
					}
		free(s->k);
		s->k = nk;
		s->cap = nc;
	}
	for (size_t i = mix(x) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (s->k[i] == x + 1)
			return 0;
		if (!s->k[i]) {
			s->k[i] = x + 1;
			s->n++;
			return 1;
		}
	}
}

static void lset_free(lset *s)
{
	free(s->k);
	memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- the watch */

enum { PH_REM, PH_P0, PH_P1, PH_P2 };

struct kd_watch {
	int phase;
	const rd_count *cnt; /* the counter: the lines touched before, at each access */
	lset win;    /* lines touched since period 0 began */
	lset first;  /* first touches in period 1 */
	int oom;
	int stale;   /* a line touched before period 0 (only) touched again in period 1 */
};

static void kd_watch_see(struct kd_watch *w, uint64_t x)
{
	int rc = 0;
	switch (w->phase) {
	case PH_P0:
		rc = lset_add(&w->win, x) < 0;
		break;
	case PH_P1:
		if (!lset_has(&w->win, x)) {
			if (rd_count_seen(w->cnt, x)) /* seen (just before this access): */
				w->stale = 1;         /* before period 0, not since */
			else
				rc = lset_add(&w->first, x) < 0;
		}
		rc |= lset_add(&w->win, x) < 0;
		break;
	default:
		break;
	}
	if (rc)
		w->oom = 1;
}

/* ---------------------------------------------------------------- the check */

typedef struct shape {
	int slot;
	int lo, hi;            /* the kernel's locals */
	int skip_stores;
	int64_t coef[MAX_ARRAYS_FLAT]; /* bytes per unit of v, per array */
	uint8_t seen[MAX_ARRAYS_FLAT];
	/* [slot] how far a variable moves per unit of v: 1 for v, a for an
	 * inner loop `for (s = a v + b; s < a v + c; s += k)` (a tiled loop's),
	 * 0 for the others */
	int64_t *shift;
	int nslots;
	char why[256];
} shape;

static int not_flat(shape *sh, unsigned line, const char *fmt, const char *a)
{
	char w[200];
	snprintf(w, sizeof w, fmt, a);
	snprintf(sh->why, sizeof sh->why, "line %u: %s", line, w);
	return 0;
}

/* Does expression i read v or a variable that moves with it? */
static int moves(const kx_node *n, const shape *sh, int i)
{
	for (int t = 0; t < sh->nslots; t++)
		if (sh->shift[t] && kx_uses(n, i, t))
			return 1;
	return 0;
}

/* How far expression i moves per unit of v: 0 with *c, or -1 when it is
 * not affine with fixed coefficients in the variables that move. */
static int movement(const kx_node *n, const shape *sh, const int64_t *vals, int i, int64_t *c)
{
	*c = 0;
	for (int t = 0; t < sh->nslots; t++) {
		if (!sh->shift[t] || !kx_uses(n, i, t))
			continue;
		if (!kx_affine_fixed(n, i, t, sh->lo, sh->hi))
			return -1;
		int e = 0;
		int64_t k = kx_coef(n, i, t, vals, &e);
		if (e || k > INT32_MAX || k < -INT32_MAX || sh->shift[t] > INT32_MAX ||
		    sh->shift[t] < -INT32_MAX)
			return -1;
		*c += k * sh->shift[t];
		if (*c > INT32_MAX || *c < -INT32_MAX)
			return -1;
	}
	return 0;
}

/* Is list (start, count) of the body flat-shaped? 1 yes, 0 no (why set). */
static int body_ok(const kdesc *d, shape *sh, const int64_t *vals, int start, int count)
{
	const kx_node *n = d->prog.n;
	for (int i = 0; i < count; i++) {
		const kd_stmt *st = &d->stmts[d->lists[start + i]];
		switch (st->kind) {
		case ST_LET:
			return not_flat(sh, st->line, "an assignment in the loop%s", "");
		case ST_IF:
			if (moves(n, sh, st->e1))
				return not_flat(sh, st->line,
						"a condition reads the loop's variable (or one that "
						"moves with it)%s",
						"");
			if (!body_ok(d, sh, vals, st->l1, st->n1) ||
			    !body_ok(d, sh, vals, st->l2, st->n2))
				return 0;
			break;
		case ST_FOR: {
			int64_t a = 0;
			if (moves(n, sh, st->e1) || moves(n, sh, st->e2) || moves(n, sh, st->e3)) {
				/* a loop moving with v: same trips, its variable moved */
				int bound, op = kx_cmp_var(n, st->e2, st->slot, &bound);
				int64_t b;
				if (moves(n, sh, st->e3) || !op || movement(n, sh, vals, st->e1, &a) < 0 ||
				    movement(n, sh, vals, bound, &b) < 0 || a != b)
					return not_flat(sh, st->line,
							"an inner loop's bounds read the loop's "
							"variable other than as a shift of both%s",
							"");
			}
			sh->shift[st->slot] = a;
			int ok = body_ok(d, sh, vals, st->l1, st->n1);
			sh->shift[st->slot] = 0;
			if (!ok)
				return 0;
			break;
		}
		case ST_LOAD:
		case ST_STORE:
			if (st->kind == ST_STORE && sh->skip_stores)
				break;
			for (int j = 0; j < st->n1; j++) {
				const kd_ref *R = &d->refs[st->l1 + j];
				const kd_array *A = &d->arrays[R->array];
				if (R->array >= MAX_ARRAYS_FLAT)
					return not_flat(sh, st->line, "more arrays than the path "
								      "takes%s",
							"");
				if (!A->ndims || !A->total)
					return not_flat(sh, st->line,
							"%s has no dimensions (its lines are not known)",
							A->name);
				int64_t c = 0;
				for (int k = 0; k < R->nidx; k++) {
					int64_t m;
					if (movement(n, sh, vals, R->idx[k], &m) < 0)
						return not_flat(sh, st->line,
								"%s: a subscript not affine in the "
								"loop's variable with a fixed "
								"coefficient",
								A->name);
					int64_t stride = 1;
					if (R->nidx > 1)
						for (int l = k + 1; l < R->nidx; l++)
							stride *= A->dim[l];
					c += m * stride;
					if (c > INT32_MAX || c < -INT32_MAX)
						return not_flat(sh, st->line,
								"%s: a coefficient out of range",
								A->name);
				}
				c *= (int64_t)A->elem;
				if (sh->seen[R->array] && sh->coef[R->array] != c)
					return not_flat(sh, st->line,
							"%s moves by two different strides with the "
							"loop's variable",
							A->name);
				sh->seen[R->array] = 1;
				sh->coef[R->array] = c;
			}
			break;
		default:
			return not_flat(sh, st->line, "a statement the path does not know%s", "");
		}
	}
	return 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Snapshot of every reference's counts. */
static rd_count_ref *snap(const rd_count *c, int nrefs)
{
	rd_count_ref *s = malloc((size_t)nrefs * sizeof *s);
	if (s)
		memcpy(s, rd_count_refs(c), (size_t)nrefs * sizeof *s);
	return s;
}

static void diff(rd_count_ref *out, const rd_count_ref *a, const rd_count_ref *b, int nrefs)
{
	for (int i = 0; i < nrefs; i++) {
		out[i].accesses = a[i].accesses - b[i].accesses;
		out[i].compulsory = a[i].compulsory - b[i].compulsory;
		for (int k = 0; k < RD_COUNT_MAX_LEVELS; k++)
			out[i].capacity[k] = a[i].capacity[k] - b[i].capacity[k];
	}
}

static void free_shape(shape *sh)
{
	if (sh)
		free(sh->shift);
	free(sh);
}

/* The name of a loop variable's slot. */
static const char *slot_name(const kdesc *d, int slot)
{
	for (int i = 0; i < d->nsyms; i++)
		if (d->syms[i].kind == SYM_LOCAL && d->syms[i].slot == slot)
			return d->syms[i].name;
	return "?";
}

/* The array (index) whose bytes hold line x, or -1. */
static int array_of_line(const kdesc *d, uint64_t x, uint32_t line)
{
	uint64_t a0 = x * line, a1 = a0 + line - 1;
	for (int i = 0; i < d->narrays && i < MAX_ARRAYS_FLAT; i++) {
		const kd_array *A = &d->arrays[i];
		uint64_t e = A->base + (uint64_t)A->total * A->elem;
		if (a0 < e && a1 >= A->base)
			return i;
	}
	return -1;
}

/* After period 1: the conditions of the argument (see the top). "" when
 * they hold, else why not in why. */
static void check_period1(const kdesc *d, const shape *sh, const struct kd_watch *w,
			  const rd_count *cnt, const kd_stmt *st, int64_t c, uint64_t g, uint64_t q,
			  uint64_t line, char *why, size_t len)
{
	why[0] = '\0';
	if (w->stale) {
		snprintf(why, len,
			 "line %u: the second period touches a line last touched before the first",
			 st->line);
		return;
	}
	/* the lines any array holds: translates beyond them are no lines */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT; a++) {
		const kd_array *A = &d->arrays[a];
		uint64_t bytes = (uint64_t)A->total * A->elem;
		if (!bytes)
			continue;
		if (A->base / line < lo)
			lo = A->base / line;
		if ((A->base + bytes - 1) / line > hi)
			hi = (A->base + bytes - 1) / line;
	}
	for (size_t i = 0; i < w->first.cap; i++) {
		if (!w->first.k[i])
			continue;
		uint64_t x = w->first.k[i] - 1;
		int a = array_of_line(d, x, (uint32_t)line);
		int64_t step = a < 0 ? 0 : (int64_t)((int64_t)g * sh->coef[a] * c) / (int64_t)line;
		if (step == 0) {
			snprintf(why, len,
				 "line %u: %s does not move with %s but is first touched in the second "
				 "period",
				 st->line, a < 0 ? "an array" : d->arrays[a].name, slot_name(d, st->slot));
			return;
		}
		/* no translate may be a line touched already (before the loop,
		 * in its remainder or in periods 0 and 1) */
		for (uint64_t k = 1; k + 2 <= q; k++) {
			int64_t y = (int64_t)x + (int64_t)k * step;
			if (y < 0 || (uint64_t)y < lo || (uint64_t)y > hi)
				break;
			if (rd_count_seen(cnt, (uint64_t)y)) {
				snprintf(why, len,
					 "line %u: a line first touched in the second period is "
					 "touched again %llu periods on",
					 st->line, (unsigned long long)k);
				return;
			}
		}
	}
}

/* The body's last statement, loop st, by the flat path (the statements
 * before it counted already): as kd_flat_body. */
static int flat_loop(run *r, const kd_kernel *K, const kd_stmt *st)
{
	kdesc *d = r->d;
	kdesc_flat_info *fi = r->flat;
	int64_t v0, c;
	uint64_t N;
	int lt = kd_loop_trips(r, st, &v0, &c, &N);
	if (lt < 0)
		return -1;
	if (lt) {
		snprintf(fi->why, sizeof fi->why,
			 "line %u: the loop is not v = a; v < b (or <=, >, >=, !=); v += constant",
			 st->line);
		return 1;
	}
	shape *sh = calloc(1, sizeof *sh);
	if (!sh)
		return kd_oom(d);
	sh->slot = st->slot;
	sh->nslots = d->nslots;
	if (!(sh->shift = calloc((size_t)d->nslots, sizeof *sh->shift))) {
		free(sh);
		return kd_oom(d);
	}
	sh->shift[st->slot] = 1;
	sh->lo = K->nlocal0;
	sh->hi = K->nlocal1;
	sh->skip_stores = r->skip_stores;
	if (!body_ok(d, sh, r->vals, st->l1, st->n1)) {
		snprintf(fi->why, sizeof fi->why, "%s", sh->why);
		free_shape(sh);
		return 1;
	}
	/* strides the period's arithmetic takes without overflow */
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT; a++)
		if (sh->seen[a] &&
		    (sh->coef[a] > ((int64_t)1 << 40) / (c < 0 ? -c : c) ||
		     sh->coef[a] < -(((int64_t)1 << 40) / (c < 0 ? -c : c)))) {
			snprintf(fi->why, sizeof fi->why, "line %u: %s moves too far per iteration",
				 st->line, d->arrays[a].name);
			free_shape(sh);
			return 1;
		}
	/* the period: every array moved by whole lines */
	uint64_t line = r->line, g = 1;
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT; a++) {
		if (!sh->seen[a])
			continue;
		int64_t D = sh->coef[a] * c;
		uint64_t m = (uint64_t)(D < 0 ? -D : D) % line;
		uint64_t ga = m ? line / gcd(m, line) : 1;
		g = g / gcd(g, ga) * ga;
	}
	/* a line shared by two arrays that move differently has no translate */
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT; a++)
		for (int b = a + 1; b < d->narrays && b < MAX_ARRAYS_FLAT; b++) {
			if (!sh->seen[a] || !sh->seen[b] || sh->coef[a] == sh->coef[b])
				continue;
			const kd_array *A = &d->arrays[a], *B = &d->arrays[b];
			uint64_t a0 = A->base / line, a1 = (A->base + A->total * A->elem - 1) / line;
			uint64_t b0 = B->base / line, b1 = (B->base + B->total * B->elem - 1) / line;
			if (a0 <= b1 && b0 <= a1) {
				snprintf(fi->why, sizeof fi->why,
					 "arrays %s and %s share a line and move differently", A->name,
					 B->name);
				free_shape(sh);
				return 1;
			}
		}
	uint64_t rem = N % g, q = (N - rem) / g;
	if (q < 5) {
		snprintf(fi->why, sizeof fi->why,
			 "line %u: %llu iteration%s: fewer than 5 periods of %llu", st->line,
			 (unsigned long long)N, N == 1 ? "" : "s", (unsigned long long)g);
		free_shape(sh);
		return 1;
	}
	/* run: the remainder, periods 0, 1 and 2, the check, the rest added */
	struct kd_watch *w = calloc(1, sizeof *w);
	rd_count_ref *s0 = NULL, *s1 = NULL, *s2 = NULL, *d1 = NULL, *d2 = NULL;
	int nr = d->nrefs;
	int rc = 1;
	char check_why[256] = "";
	int (*progress)(void *, double) = r->progress;
	r->progress = NULL; /* a few iterations: no progress to show */
	if (!w || !(d1 = malloc((size_t)nr * sizeof *d1)) || !(d2 = malloc((size_t)nr * sizeof *d2))) {
		rc = kd_oom(d);
		goto out;
	}
	w->cnt = r->count;
	r->watch = w;
	r->see = kd_watch_see;
	uint64_t streamed = rem + 3 * g;
	for (uint64_t it = 0; it < streamed && rc == 1; it++) {
		if (it == rem)
			w->phase = PH_P0;
		if (it == rem + g) {
			w->phase = PH_P1;
			if (!(s0 = snap(r->count, nr)))
				rc = kd_oom(d);
		}
		if (it == rem + 2 * g) {
			w->phase = PH_P2;
			if (!(s1 = snap(r->count, nr)))
				rc = kd_oom(d);
			check_period1(d, sh, w, r->count, st, c, g, q, line, check_why,
				      sizeof check_why);
		}
		if (rc != 1)
			break;
		r->vals[st->slot] = v0 + (int64_t)it * c;
		if (kd_run_list(r, st->l1, st->n1) < 0)
			rc = -1;
		if (w->oom)
			rc = kd_oom(d);
	}
	r->watch = NULL;
	if (rc == 1 && !(s2 = snap(r->count, nr)))
		rc = kd_oom(d);
	if (rc != 1)
		goto out;
	int ok = !check_why[0];
	if (!ok)
		snprintf(fi->why, sizeof fi->why, "%s", check_why);
	if (ok) { /* this file's check: periods 1 and 2 count alike */
		diff(d1, s1, s0, nr);
		diff(d2, s2, s1, nr);
		if (memcmp(d1, d2, (size_t)nr * sizeof *d1)) {
			snprintf(fi->why, sizeof fi->why,
				 "line %u: the second and third periods count differently (a "
				 "fault of the path: please report it)",
				 st->line);
			ok = 0;
		}
	}
	if (ok) { /* the last iteration's indices, uncounted */
		r->dry = 1;
		r->vals[st->slot] = v0 + (int64_t)(N - 1) * c;
		int e = kd_run_list(r, st->l1, st->n1);
		r->dry = 0;
		if (e < 0) {
			rc = -1;
			goto out;
		}
	}
	if (!ok) { /* not taken: start again, counting every access */
		if (rd_count_reset(r->count) < 0) {
			rc = kd_oom(d);
			goto out;
		}
		memset(r->fast, 0, (size_t)(nr ? nr : 1) * sizeof *r->fast);
		rc = 1;
		goto out;
	}
	uint64_t times = q - 3;
	if (rd_count_extrapolate(r->count, d1, times) < 0) {
		rc = kd_fail(d, st->line, "the counts pass 2^64");
		r->failed = 1;
		goto out;
	}
	/* the repeats' share and the path's */
	for (int i = 0; i < nr; i++) {
		if (fi->acc)
			fi->acc[i] += d1[i].accesses * times;
	}
	r->vals[st->slot] = v0 + (int64_t)N * c; /* as the loop leaves it */
	fi->used = 1;
	fi->why[0] = '\0';
	snprintf(fi->var, sizeof fi->var, "%s", slot_name(d, st->slot));
	fi->line = st->line;
	fi->iterations = N;
	fi->streamed = streamed;
	fi->period = g;
	rc = 0;
out:
	r->progress = progress;
	r->watch = NULL;
	if (w) {
		lset_free(&w->win);
		lset_free(&w->first);
	}
	free(w);
	free(s0);
	free(s1);
	free(s2);
	free(d1);
	free(d2);
	free_shape(sh);
	if (rc < 0)
		r->failed = 1;
	return rc;
}

int kd_flat_body(run *r, const kd_kernel *K)
{
	kdesc *d = r->d;
	int nb = K->nbody;
	const kd_stmt *st = nb ? &d->stmts[d->lists[K->body + nb - 1]] : NULL;
	if (!st || st->kind != ST_FOR) {
		snprintf(r->flat->why, sizeof r->flat->why, "the body does not end with a loop");
		return 1;
	}
	/* what comes before the loop, counted access by access */
	if (nb > 1 && kd_run_list(r, K->body, nb - 1) < 0)
		return -1;
	int rc = flat_loop(r, K, st);
	if (rc == 1 && nb > 1) { /* not taken: the caller counts the body again */
		if (rd_count_reset(r->count) < 0)
			return kd_oom(d);
		memset(r->fast, 0, (size_t)(d->nrefs ? d->nrefs : 1) * sizeof *r->fast);
	}
	return rc;
}
