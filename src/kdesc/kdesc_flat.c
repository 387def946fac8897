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
#define SPAN 4096          /* lines a span query of the counter takes */

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

/* an empty set for n lines without growing: 0, or -1 out of memory */
static int lset_init(lset *s, size_t n)
{
	size_t c = 1024;
	while (c < 4 * n)
		c *= 2;
	memset(s, 0, sizeof *s);
	if (!(s->k = calloc(c, sizeof *s->k)))
		return -1;
	s->cap = c;
	return 0;
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
	size_t gmark; /* the counter's ghosts when period 0 began: later ones in win */
	/* one loop down (inner_see): the watch it passes each line on to */
	struct kd_watch *up;
	void (*upsee)(struct kd_watch *w, uint64_t line);
};

static void kd_watch_see(struct kd_watch *w, uint64_t x)
{
	int rc = 0;
	switch (w->phase) {
	case PH_P0:
		rc = lset_add(&w->win, x) < 0;
		break;
	case PH_P1:
		if (!lset_has(&w->win, x) && !rd_count_covered(w->cnt, w->gmark, x, x)) {
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
static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* check_period1's translates asked span by span: 1 every first touch moves
 * and no translate was touched, 0 not so or not known, -1 out of memory
 * (then line by line, which also finds the first one to report). */
static int first_spans(const kdesc *d, const shape *sh, const struct kd_watch *w, rd_count *cnt,
		       int64_t c, uint64_t g, uint64_t q, uint64_t line, uint64_t lo, uint64_t hi)
{
	uint64_t *x = malloc((w->first.n ? w->first.n : 1) * sizeof *x);
	if (!x)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < w->first.cap; i++)
		if (w->first.k[i])
			x[n++] = w->first.k[i] - 1;
	qsort(x, n, sizeof *x, u64_cmp);
	int ok = 1;
	for (size_t i = 0; i < n && ok;) {
		int a = array_of_line(d, x[i], (uint32_t)line);
		int64_t step = a < 0 ? 0 : (int64_t)((int64_t)g * sh->coef[a] * c) / (int64_t)line;
		size_t j = i + 1;
		while (j < n && x[j] == x[j - 1] + 1 && j - i < SPAN &&
		       array_of_line(d, x[j], (uint32_t)line) == a)
			j++;
		if (!step) {
			ok = 0;
			break;
		}
		for (uint64_t k = 1; k + 2 <= q && ok; k++) {
			/* the run moved k periods, within the arrays' lines */
			int64_t o = (int64_t)k * step;
			int64_t u = (int64_t)x[i] + o, v = (int64_t)x[j - 1] + o;
			if (v < 0 || (uint64_t)v < lo || u > (int64_t)hi ||
			    (u < 0 ? 0 : (uint64_t)u) > hi)
				break;
			uint64_t ul = u < 0 || (uint64_t)u < lo ? lo : (uint64_t)u;
			uint64_t vl = (uint64_t)v > hi ? hi : (uint64_t)v;
			int sp = rd_count_span(cnt, ul, vl, NULL);
			if (sp > 0)
				ok = 0;
			for (uint64_t y = ul; sp < 0 && y <= vl && ok; y++)
				if (rd_count_seen(cnt, y))
					ok = 0;
		}
		i = j;
	}
	free(x);
	return ok;
}

static void check_period1(const kdesc *d, const shape *sh, const struct kd_watch *w,
			  rd_count *cnt, const kd_stmt *st, int64_t c, uint64_t g, uint64_t q,
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
	if (first_spans(d, sh, w, cnt, c, g, q, line, lo, hi) > 0)
		return; /* else line by line (out of memory too) */
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

/* Loop st's shape at the current values (see the top): 0 with *out (free
 * with free_shape), *v0, *c, *N and the period *g; 1 not that shape (why
 * says why); -1 an error. */
static int analyse(run *r, const kd_kernel *K, const kd_stmt *st, shape **out, int64_t *v0,
		   int64_t *cc, uint64_t *NN, uint64_t *gg, char *why, size_t len)
{
	kdesc *d = r->d;
	int64_t c;
	uint64_t N;
	*out = NULL;
	int lt = kd_loop_trips(r, st, v0, &c, &N);
	if (lt < 0)
		return -1;
	if (lt) {
		snprintf(why, len,
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
		snprintf(why, len, "%s", sh->why);
		free_shape(sh);
		return 1;
	}
	/* strides the period's arithmetic takes without overflow */
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT; a++)
		if (sh->seen[a] &&
		    (sh->coef[a] > ((int64_t)1 << 40) / (c < 0 ? -c : c) ||
		     sh->coef[a] < -(((int64_t)1 << 40) / (c < 0 ? -c : c)))) {
			snprintf(why, len, "line %u: %s moves too far per iteration", st->line,
				 d->arrays[a].name);
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
				snprintf(why, len, "arrays %s and %s share a line and move differently",
					 A->name, B->name);
				free_shape(sh);
				return 1;
			}
		}
	*out = sh;
	*cc = c;
	*NN = N;
	*gg = g;
	return 0;
}

/* ---------------------------------------------------------------- one loop down */

/*
 * A loop inside the flat loop's body (gemm's k loop in an iteration of i),
 * run while the flat path counts its periods: its own later periods
 * skipped where an argument proves them, the counter left as if they had
 * run (the outer loop's next iterations read it).
 *
 * The loop has the flat shape in its own variable (body_ok), its period g,
 * the line map T (each array moved by its own s_a lines a period), q
 * periods after the remainder. It runs period after period; after period
 * m >= 1, with E = q - 1 - m periods left, they are skipped when
 *  (1) win, the lines touched since period 0 began, holds at least the
 *      largest level's lines L at the end of period m;
 *  (2) every access of period m whose line is not in win (touched before
 *      period 0 only: stale; or never: a first touch) has s_a != 0 and
 *      x + s_a beyond period 0's lines of its array (in the direction of
 *      s_a), so no translate T^e(x), e >= 1, is a line of period 0 and
 *      none of T^e(x) (1 <= e <= E) is touched in periods 0 .. m + e - 1;
 *  (3) a stale access's line is not held by the largest level (a miss
 *      at every level; so it is whenever win held L lines);
 *  (4) each translate T^e(x) (1 <= e <= E) of a stale x was touched
 *      before (the counter knows it; its last reference is noted as a
 *      reuse) and of a first touch never was;
 *  (5) the last iteration's indices are in bounds (run without counting).
 * Why period m + e counts as period m, access by access:
 *  - a line whose last touch t' is at or after period 0's start: as the
 *    outer loop's argument (the top), the same distance and reference;
 *  - a stale line x_m at t_m, its translate x at t_m + eP (P the period's
 *    accesses): by (2) x is not touched in periods 0 .. m + e - 1, nor
 *    earlier in period m + e (that would translate to a touch of x_m
 *    earlier in period m), so its last touch is before period 0: every
 *    line touched in [period 0's start, t_m + eP) lies in between, those
 *    of periods 0 .. m among them (e >= 1): at least L by (1), a miss at
 *    every level, as x_m was by (3); not a first touch by (4);
 *  - a first touch: its translates are first touches by (2) and (4).
 * The counter afterwards: the counts of period m times E added; each
 * line of period m moved by T^e (e = 1 .. E, in order: a later touch wins)
 * touched with the reference that touched it last in period m; and the
 * stacks: by (1) their L lines at the end of period m are lines of win,
 * the last L distinct lines of the stream, and the stream's last E
 * periods are T^E of the E periods ending with m, so the final stacks are
 * T^E of these lines, in the same order. The outer loop's watch is shown
 * every line touched.
 *
 * Ghosts (ghost_skip): the same skip without touching each line. The lines
 * T^e(x) of period m's lines x are given to the counter per array as
 * arithmetic (rd_count_ghost: x + e s_a, e = 1 .. E, x's reference; where
 * periods meet, the later's), which answers every later question as the
 * touches would have; (4) asks whole spans T^e(run) of period m's stale
 * lines and first touches at once (rd_count_span), line by line where it
 * cannot say. The outer watch holds the ghosts made since its period 0 in
 * its window; in its period 1 the skipped lines not in that window are
 * shown to it one by one (kd_watch_see: first touches or stale), found
 * span by span. Taken only directly inside the flat loop (a deeper loop's
 * watch holds no ghosts) and while the counter holds fewer than 64.
 *
 * Before win holds L lines (try_skip's early skip; gemm's k loop at D =
 * 1024 after 2 of its 64 periods instead of 9): (1) and the L of the
 * stale lines' argument are replaced by
 *  (1') the stacks afterwards are the last L distinct lines of periods m +
 *       E, m + E - 1, ..., 0 (period j's lines are period m's moved by j -
 *       m, in the same order; walk_stacks): taken only when these periods
 *       hold L lines, so no line from before the loop is among them;
 *  (3') the e-th translate x' of period m's i-th new line x, stale: by
 *       (2) each later period's new lines are the translates of period m's
 *       n new lines, so at its access x' finds at least W + (e - 1) n + i
 *       lines touched since period 0 (W: win's lines now), all after its
 *       last touch; and at least its stack distance now, which only
 *       grows until then. Where W + (e - 1) n + i < L, x' must lie below
 *       the largest level now (rd_count_held_any, a run of lines at once).
 * Only by ghosts (the line-by-line skip moves the stacks of (1)), and at
 * most EARLY_TRIES times a loop (each try costs about L).
 *
 * Kernels that stay on the slower path (their inner loop streams until
 * win holds L lines, or to its end): loops more than one loop down (their
 * watch holds no ghosts); periods whose new lines' translates are held by
 * the largest level when the skip is tried (lines reused from before the
 * loop at a short distance: the skip waits for win to hold L lines, as
 * before); loops whose periods 0 .. m + E hold fewer than L lines (gemm at
 * D <= 361 with 512 KiB: B fits; nothing to skip, the whole k loop
 * streams, which costs no more than its lines); and everything outside
 * the flat path's class (see the top and kdesc_flat_info's reasons).
 */
typedef struct inner {
	struct kd_watch w; /* first: r->watch */
	int period;        /* -1 in the remainder */
	uint64_t cap;      /* L: the largest level's lines */
	lset win;
	int bad, oom;
	/* period 0: each array's lowest and highest line */
	uint64_t lo0[MAX_ARRAYS_FLAT], hi0[MAX_ARRAYS_FLAT];
	uint8_t in0[MAX_ARRAYS_FLAT];
	/* the current period: its lines in order, and its stale lines and
	 * first touches with their references */
	uint64_t *seq;
	size_t nseq, cseq;
	uint64_t *odd;
	uint32_t *oref;
	uint8_t *ostale;
	size_t nodd, codd;
	int pending; /* odd's last entry still waits for its reference */
	int early;   /* skips tried before win holds L lines (try_skip's (1')) */
	const kdesc *d;
	uint32_t line;
} inner;

static int push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 256;
		uint64_t *p = realloc(*a, nc * sizeof *p);
		if (!p)
			return -1;
		*a = p;
		*cap = nc;
	}
	(*a)[(*n)++] = x;
	return 0;
}

/* the reference of the access just counted (the line's last) */
static void settle(inner *in)
{
	if (in->pending) {
		uint32_t ref = 0;
		rd_count_last(in->w.cnt, in->odd[in->nodd - 1], &ref);
		in->oref[in->nodd - 1] = ref;
		in->pending = 0;
	}
}

static void inner_see(struct kd_watch *w, uint64_t x)
{
	inner *in = (inner *)w;
	if (w->up)
		w->upsee(w->up, x);
	settle(in);
	if (in->period < 0)
		return;
	int rc = 0;
	if (in->period == 0) {
		int a = array_of_line(in->d, x, in->line);
		if (a >= 0) {
			if (!in->in0[a] || x < in->lo0[a])
				in->lo0[a] = x;
			if (!in->in0[a] || x > in->hi0[a])
				in->hi0[a] = x;
			in->in0[a] = 1;
		}
	}
	if (!lset_has(&in->win, x)) {
		int stale = rd_count_seen(w->cnt, x);
		if (stale && rd_count_held(w->cnt, x))
			in->bad = 1; /* (3): not a miss at every level */
		if (in->nodd == in->codd) {
			size_t nc = in->codd ? 2 * in->codd : 256;
			uint64_t *o = realloc(in->odd, nc * sizeof *o);
			if (o)
				in->odd = o;
			uint32_t *f = realloc(in->oref, nc * sizeof *f);
			if (f)
				in->oref = f;
			uint8_t *t = realloc(in->ostale, nc);
			if (t)
				in->ostale = t;
			if (!o || !f || !t) {
				in->oom = 1;
				return;
			}
			in->codd = nc;
		}
		in->odd[in->nodd] = x;
		in->ostale[in->nodd++] = (uint8_t)stale;
		in->pending = 1;
		rc |= lset_add(&in->win, x) < 0;
	}
	rc |= push_u64(&in->seq, &in->nseq, &in->cseq, x) < 0;
	if (rc)
		in->oom = 1;
}

/* Line x moved by e periods: its array's step s (lines a period) times e. */
static uint64_t shift_line(const kdesc *d, const int64_t *s, uint64_t x, uint64_t e, uint32_t line)
{
	int a = array_of_line(d, x, line);
	return a < 0 ? x : x + (uint64_t)s[a] * e;
}

#define MAX_GHOSTS 64 /* the counter's ghosts the path makes (then lines one by one) */

typedef struct gline {
	uint64_t x;
	int64_t step;
	int arr; /* its array (one sweep each) */
	uint32_t ref;
	uint8_t stale;
} gline;

static int gline_cmp(const void *pa, const void *pb)
{
	const gline *a = pa, *b = pb;
	if (a->arr != b->arr)
		return a->arr < b->arr ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->x < b->x ? -1 : a->x > b->x;
}

/* The skipped periods' counts added: E times each reference's counts of
 * one period (delta, from start to now; distinct: its first touches are
 * distinct lines, rd_count_extrapolate, else rd_count_add), and the
 * reuses pairs found. 0, or -1 (said; r->failed when the counts overflow). */
static int skipped_counts(run *r, const kd_stmt *st, rd_count_ref *delta,
			  const rd_count_ref *start, uint64_t E, const uint8_t *pairs, int distinct)
{
	rd_count *cnt = r->count;
	int nr = r->d->nrefs;
	diff(delta, rd_count_refs(cnt), start, nr);
	if ((distinct ? rd_count_extrapolate(cnt, delta, E) : rd_count_add(cnt, delta, E)) < 0) {
		r->failed = 1;
		return kd_fail(r->d, st->line, "the counts pass 2^64");
	}
	if (r->flat && r->flat->acc)
		for (int i = 0; i < nr; i++)
			r->flat->acc[i] += delta[i].accesses * E;
	for (int p = 0; p < nr; p++)
		for (int q = 0; q < nr; q++)
			if (pairs[(size_t)p * nr + q] && rd_count_note_reuse(cnt, (uint32_t)p, (uint32_t)q) < 0)
				return kd_oom(r->d);
	return 0;
}

/* The skip (try_skip's) with the skipped lines kept as the counter's
 * ghosts (rd_count_ghost) instead of touched one by one, and (4) asked of
 * whole spans of lines (rd_count_span): the same conditions, the same
 * counter afterwards, in time that grows with period m's lines and E, not
 * with their product. Taken when the loop is directly in the flat loop's
 * body (its watch knows ghosts), each step's lines of period m lie within
 * one step (so no two translates meet), and, in the flat loop's period 1,
 * every skipped line is one its watch has seen since period 0 (else the
 * lines go one by one through the watch). 1 skipped, 0 not (a check
 * failed), 2 not taken (try_skip goes on line by line), -1 an error.
 * pairs: [nr * nr] zeroed, the reuses found. */
static int ghost_skip(run *r, inner *in, const kd_stmt *st, const int64_t *s, int64_t v0,
		      int64_t c, uint64_t N, uint64_t E, const rd_count_ref *start,
		      const uint64_t *last, size_t nlast, const uint64_t *top, size_t ntop,
		      uint8_t *pairs)
{
	kdesc *d = r->d;
	rd_count *cnt = r->count;
	uint32_t line = r->line;
	int nr = d->nrefs;
	struct kd_watch *up = in->w.up;
	if (in->w.upsee != kd_watch_see || !up || !nlast)
		return 2;
	gline *gl = malloc(nlast * sizeof *gl), *od = malloc((in->nodd ? in->nodd : 1) * sizeof *od);
	rd_count_run *runs = malloc(nlast * sizeof *runs);
	rd_count_sweep sw[MAX_GHOSTS];
	uint8_t *refs = calloc((size_t)nr, 1);
	rd_count_ref *delta = malloc((size_t)nr * sizeof *delta);
	size_t ng = 0, nruns = 0, nsw = 0;
	uint64_t *fresh = NULL;
	size_t nfresh = 0, cfresh = 0;
	int rc = 2;
	if (!gl || !od || !runs || !refs || !delta) {
		rc = kd_oom(d);
		goto out;
	}
	/* period m's moving lines by step, with their last references */
	for (size_t i = 0; i < nlast; i++) {
		int a = array_of_line(d, last[i], line);
		if (a < 0 || !s[a])
			continue;
		gl[ng].x = last[i];
		gl[ng].step = s[a];
		gl[ng].arr = a;
		if (!rd_count_last(cnt, last[i], &gl[ng].ref))
			goto out;
		ng++;
	}
	if (!ng)
		goto out;
	qsort(gl, ng, sizeof *gl, gline_cmp);
	for (size_t i = 0; i < ng;) {
		size_t j = i;
		while (j < ng && gl[j].arr == gl[i].arr)
			j++;
		uint64_t w = gl[i].step > 0 ? (uint64_t)gl[i].step : (uint64_t)-gl[i].step;
		if (nsw == MAX_GHOSTS || rd_count_ghosts(cnt) + nsw + 1 > MAX_GHOSTS ||
		    (gl[j - 1].x - gl[i].x) / w >= 64)
			goto out;
		sw[nsw].step = gl[i].step;
		sw[nsw].times = E;
		sw[nsw].runs = runs + nruns;
		size_t n0 = nruns;
		for (size_t k = i; k < j; k++) {
			if (nruns > n0 && runs[nruns - 1].hi + 1 == gl[k].x && runs[nruns - 1].ref == gl[k].ref)
				runs[nruns - 1].hi = gl[k].x;
			else
				runs[nruns++] = (rd_count_run){gl[k].x, gl[k].x, gl[k].ref};
		}
		sw[nsw++].nruns = nruns - n0;
		i = j;
	}
	/* the sweeps' lines apart (two arrays may share a line) */
	uint64_t hlo[MAX_GHOSTS], hhi[MAX_GHOSTS];
	for (size_t k = 0; k < nsw; k++) {
		uint64_t w = sw[k].step > 0 ? (uint64_t)sw[k].step : (uint64_t)-sw[k].step;
		uint64_t a = sw[k].runs[0].lo, b = sw[k].runs[sw[k].nruns - 1].hi;
		hlo[k] = sw[k].step > 0 ? a + w : a - E * w;
		hhi[k] = sw[k].step > 0 ? b + E * w : b - w;
		for (size_t l = 0; l < k; l++)
			if (hlo[k] <= hhi[l] && hlo[l] <= hhi[k])
				goto out;
	}
	/* in the flat loop's period 1 its watch is shown the skipped lines new
	 * to its window (kd_watch_see's: first touches or stale), found here */
	if (up->phase == PH_P1)
		for (size_t k = 0; k < nsw; k++)
			for (size_t i = 0; i < sw[k].nruns;) {
				uint64_t u = sw[k].runs[i].lo, v = sw[k].runs[i].hi;
				while (++i < sw[k].nruns && sw[k].runs[i].lo == v + 1 && v - u < SPAN - 1)
					v = sw[k].runs[i].hi;
				for (uint64_t e = 1; e <= E; e++) {
					uint64_t o = (uint64_t)sw[k].step * e;
					if (rd_count_covered(cnt, up->gmark, u + o, v + o))
						continue;
					for (uint64_t y = u + o; y <= v + o; y++)
						if (!lset_has(&up->win, y) &&
						    !rd_count_covered(cnt, up->gmark, y, y) &&
						    push_u64(&fresh, &nfresh, &cfresh, y) < 0) {
							rc = kd_oom(d);
							goto out;
						}
				}
			}
	/* (4), span by span: period m's stale lines and first touches in
	 * runs of one step, one kind and one reference */
	size_t no = 0;
	for (size_t i = 0; i < in->nodd; i++) {
		int a = array_of_line(d, in->odd[i], line);
		od[no++] = (gline){in->odd[i], s[a], 0, in->oref[i], in->ostale[i]};
	}
	qsort(od, no, sizeof *od, gline_cmp);
	rc = 0;
	for (size_t i = 0; i < no;) {
		size_t j = i + 1;
		while (j < no && od[j].step == od[i].step && od[j].x == od[j - 1].x + 1 &&
		       od[j].ref == od[i].ref && od[j].stale == od[i].stale && j - i < SPAN)
			j++;
		uint64_t u = od[i].x, v = od[j - 1].x;
		for (uint64_t e = 1; e <= E; e++) {
			uint64_t o = (uint64_t)od[i].step * e;
			int k = rd_count_span(cnt, u + o, v + o, refs);
			if (k < 0) { /* line by line (what the span marked before it
				      * gave up is not a reuse) */
				memset(refs, 0, (size_t)nr * sizeof *refs);
				for (uint64_t y = u + o; y <= v + o; y++) {
					uint32_t prev;
					int seen = rd_count_last(cnt, y, &prev);
					if (seen != od[i].stale)
						goto out;
					if (seen)
						pairs[(size_t)od[i].ref * nr + prev] = 1;
				}
				continue;
			}
			if (k != od[i].stale)
				goto out;
			for (int q = 0; q < nr; q++)
				if (refs[q]) {
					pairs[(size_t)od[i].ref * nr + q] = 1;
					refs[q] = 0;
				}
		}
		i = j;
	}
	/* skipped: the counts, their first touches distinct lines */
	if ((rc = skipped_counts(r, st, delta, start, E, pairs, 1)) < 0)
		goto out;
	/* the lines new to the flat loop's window, as they come (translates
	 * are distinct lines: seen now is seen before their touch) */
	for (size_t i = 0; i < nfresh; i++)
		kd_watch_see(up, fresh[i]);
	if (up->oom) {
		rc = kd_oom(d);
		goto out;
	}
	/* the lines and the stacks */
	if (rd_count_ghost(cnt, sw, nsw, top, ntop) < 0) {
		rc = kd_oom(d);
		goto out;
	}
	r->vals[st->slot] = v0 + (int64_t)N * c; /* as the loop leaves it */
	rc = 1;
out:
	free(fresh);
	free(gl);
	free(od);
	free(runs);
	free(refs);
	free(delta);
	return rc;
}

#define EARLY_TRIES 4 /* skips a loop tries before win holds L lines */

/* (1') The stacks after the skipped periods when win holds fewer than L
 * lines: the last L distinct lines of periods m + E, m + E - 1, ..., 0
 * (period j's lines are period m's moved by j - m periods, in the same
 * order: last, most recent first). L of them, or 0 when periods 0 .. m +
 * E hold fewer (then older lines would be needed); -1 out of memory.
 * Without a set of the lines met where no two periods can share a line:
 * the arrays' lines apart, and each moving array's lines of period m
 * within one step (a line that does not move is met first in period m +
 * E). */
static int walk_stacks(const kdesc *d, const int64_t *s, const uint64_t *last, size_t nlast,
		       uint64_t m, uint64_t E, uint32_t line, uint64_t *top, size_t cap)
{
	int64_t *st = malloc((nlast ? nlast : 1) * sizeof *st);
	uint64_t lo[MAX_ARRAYS_FLAT], hi[MAX_ARRAYS_FLAT];
	uint8_t in[MAX_ARRAYS_FLAT] = {0};
	lset done = {0};
	size_t n = 0;
	int rc = 0, apart = 1;
	if (!st)
		return -1;
	for (size_t i = 0; i < nlast; i++) {
		int a = array_of_line(d, last[i], line);
		st[i] = a < 0 ? 0 : s[a];
		if (a < 0) {
			apart = 0;
			continue;
		}
		if (!in[a] || last[i] < lo[a])
			lo[a] = last[i];
		if (!in[a] || last[i] > hi[a])
			hi[a] = last[i];
		in[a] = 1;
	}
	for (int a = 0; a < d->narrays && a < MAX_ARRAYS_FLAT && apart; a++) {
		if (in[a] && s[a] && hi[a] - lo[a] >= (uint64_t)(s[a] < 0 ? -s[a] : s[a]))
			apart = 0;
		const kd_array *A = &d->arrays[a];
		uint64_t a0 = A->base / line, a1 = (A->base + (uint64_t)A->total * A->elem - 1) / line;
		for (int b = a + 1; b < d->narrays && b < MAX_ARRAYS_FLAT && apart; b++) {
			const kd_array *B = &d->arrays[b];
			uint64_t b0 = B->base / line, b1 = (B->base + (uint64_t)B->total * B->elem - 1) / line;
			if (A->total && B->total && a0 <= b1 && b0 <= a1)
				apart = 0;
		}
	}
	if (!apart && lset_init(&done, cap) < 0) {
		free(st);
		return -1;
	}
	for (int64_t k = (int64_t)E; k >= -(int64_t)m && n < cap; k--)
		for (size_t i = 0; i < nlast && n < cap; i++) {
			if (apart) {
				if (st[i] || k == (int64_t)E)
					top[n++] = last[i] + (uint64_t)(st[i] * k);
				continue;
			}
			uint64_t y = last[i] + (uint64_t)(st[i] * k);
			int add = lset_add(&done, y);
			if (add < 0) {
				rc = -1;
				goto out;
			}
			if (add)
				top[n++] = y;
		}
	rc = n == cap;
out:
	free(st);
	lset_free(&done);
	return rc;
}

/* Skip the periods after m (E of them; see above): 1 skipped, 0 not (the
 * loop runs on), -1 an error. start: the counts when period m began. */
static int try_skip(run *r, inner *in, const kd_stmt *st, const int64_t *s, int64_t v0, int64_t c,
		    uint64_t N, uint64_t m, uint64_t E, const rd_count_ref *start)
{
	kdesc *d = r->d;
	rd_count *cnt = r->count;
	int nr = d->nrefs;
	uint32_t line = r->line;
	settle(in);
	if (in->oom)
		return kd_oom(d);
	if (in->bad || !E)
		return 0;
	/* (1) or else (1'): only by ghosts, the walk long enough, a few times */
	int early = in->win.n < in->cap;
	if (early) {
		if (in->w.upsee != kd_watch_see || !in->w.up || !in->nodd ||
		    in->early >= EARLY_TRIES || (in->cap - in->win.n + in->nodd - 1) / in->nodd > E)
			return 0;
		in->early++;
	}
	/* (2) */
	for (size_t i = 0; i < in->nodd; i++) {
		uint64_t x = in->odd[i];
		int a = array_of_line(d, x, line);
		if (a < 0 || !s[a])
			return 0;
		if (in->in0[a] && (s[a] > 0 ? x + (uint64_t)s[a] <= in->hi0[a]
					    : x + (uint64_t)s[a] >= in->lo0[a]))
			return 0;
	}
	/* (3'): the e-th translate of period m's i-th new line, stale, finds
	 * at least W + (e - 1) n + i lines since period 0 (W = win's lines, n
	 * = period m's new lines: each later period's new lines are its
	 * translates); where that is less than L it must lie below the
	 * largest level now */
	for (size_t i = 0, j; early && i < in->nodd; i = j) { /* by runs of lines */
		int a = array_of_line(d, in->odd[i], line);
		for (j = i + 1; j < in->nodd && in->odd[j] == in->odd[j - 1] + 1 &&
				in->ostale[j] == in->ostale[i] && array_of_line(d, in->odd[j], line) == a;
		     j++)
			;
		if (!in->ostale[i])
			continue;
		for (uint64_t e = 1; e <= E && in->win.n + (e - 1) * in->nodd + i < in->cap; e++)
			if (rd_count_held_any(cnt, in->odd[i] + (uint64_t)s[a] * e,
					      in->odd[j - 1] + (uint64_t)s[a] * e))
				return 0;
	}
	/* (5), its error left to the loop's own run */
	int failed = r->failed;
	r->dry = 1;
	r->vals[st->slot] = v0 + (int64_t)(N - 1) * c;
	int e5 = kd_run_list(r, st->l1, st->n1);
	r->dry = 0;
	r->failed = failed;
	if (e5 < 0)
		return 0;
	/* (4) below, the reuses noted on the way */
	uint8_t *pairs = calloc((size_t)nr * (size_t)nr, 1);
	rd_count_ref *delta = malloc((size_t)nr * sizeof *delta);
	uint64_t *top = malloc((size_t)in->cap * sizeof *top);
	uint64_t *last = NULL;
	size_t nlast = 0, clast = 0, ntop = 0;
	lset done = {0};
	int rc = 0;
	if (!pairs || !delta || !top) {
		rc = kd_oom(d);
		goto out;
	}
	/* period m's lines, each once, in the order of their last touch */
	for (size_t i = in->nseq; i-- > 0;) {
		int k = lset_add(&done, in->seq[i]);
		if (k < 0 || (k && push_u64(&last, &nlast, &clast, in->seq[i]) < 0)) {
			rc = kd_oom(d);
			goto out;
		}
	}
	if (early) { /* (1') */
		int w = walk_stacks(d, s, last, nlast, m, E, line, top, in->cap);
		if (w <= 0) {
			rc = w < 0 ? kd_oom(d) : 0;
			goto out;
		}
		ntop = in->cap;
	} else { /* (1): the stacks' lines, checked to have arrays, moved */
		ntop = rd_count_stack(cnt, top, in->cap);
		for (size_t i = 0; i < ntop; i++)
			if (array_of_line(d, top[i], line) < 0 || !lset_has(&in->win, top[i]))
				goto out;
		for (size_t i = 0; i < ntop; i++)
			top[i] = shift_line(d, s, top[i], E, line);
	}
	/* the lines of the skipped periods as ghosts where they can be */
	int gk = ghost_skip(r, in, st, s, v0, c, N, E, start, last, nlast, top, ntop, pairs);
	if (gk != 2 || early) {
		rc = gk == 2 ? 0 : gk;
		goto out;
	}
	/* (4) line by line */
	for (size_t i = 0; i < in->nodd; i++) {
		uint64_t x = in->odd[i];
		int a = array_of_line(d, x, line);
		for (uint64_t e = 1; e <= E; e++) {
			uint32_t prev;
			int seen = rd_count_last(cnt, x + (uint64_t)s[a] * e, &prev);
			if (seen != in->ostale[i])
				goto out; /* rc 0: not skipped */
			if (seen)
				pairs[(size_t)in->oref[i] * nr + prev] = 1;
		}
	}
	/* skipped: the counts */
	if ((rc = skipped_counts(r, st, delta, start, E, pairs, 0)) < 0)
		goto out;
	/* the lines of the skipped periods: period m's moving lines, oldest
	 * touch first, with the references that touched them last */
	size_t nmov = 0;
	uint64_t *mov = malloc((nlast ? nlast : 1) * sizeof *mov);
	uint32_t *lref = malloc((nlast ? nlast : 1) * sizeof *lref);
	if (!mov || !lref) {
		free(mov);
		free(lref);
		rc = kd_oom(d);
		goto out;
	}
	for (size_t i = nlast; i-- > 0;) {
		int a = array_of_line(d, last[i], line);
		if (a < 0 || !s[a])
			continue;
		rd_count_last(cnt, last[i], &lref[nmov]);
		mov[nmov++] = last[i];
	}
	for (uint64_t e = 1; e <= E && rc == 0; e++)
		for (size_t i = 0; i < nmov; i++) {
			uint64_t z = shift_line(d, s, mov[i], e, line);
			if (in->w.up)
				in->w.upsee(in->w.up, z);
			if (rd_count_touch(cnt, z, lref[i]) < 0) {
				rc = kd_oom(d);
				break;
			}
		}
	free(mov);
	free(lref);
	if (rc)
		goto out;
	/* the stacks */
	if (rd_count_restack(cnt, top, ntop) < 0) {
		rc = kd_oom(d);
		goto out;
	}
	r->vals[st->slot] = v0 + (int64_t)N * c; /* as the loop leaves it */
	rc = 1;
out:
	free(pairs);
	free(delta);
	free(top);
	free(last);
	lset_free(&done);
	return rc;
}

static int run_body(run *r, const kd_kernel *K, int start, int count);

/* Does the loop's body hold more than loads and stores (kd_count_loop's)? */
static int nested(const kdesc *d, const kd_stmt *st)
{
	for (int i = 0; i < st->n1; i++) {
		int k = d->stmts[d->lists[st->l1 + i]].kind;
		if (k != ST_LOAD && k != ST_STORE)
			return 1;
	}
	return 0;
}

/* Loop st (d->lists[at]) one loop down: 0, or -1 an error. */
static int inner_loop(run *r, const kd_kernel *K, const kd_stmt *st, int at)
{
	kdesc *d = r->d;
	shape *sh;
	int64_t v0, c;
	uint64_t N, g;
	char why[256];
	int a = analyse(r, K, st, &sh, &v0, &c, &N, &g, why, sizeof why);
	if (a)
		return a < 0 ? -1 : kd_run_list(r, at, 1);
	uint64_t rem = N % g, q = (N - rem) / g;
	uint64_t cap = rd_count_max_lines(r->count);
	int nr = d->nrefs;
	inner *in = calloc(1, sizeof *in);
	int64_t s[MAX_ARRAYS_FLAT] = {0};
	rd_count_ref *start = malloc((size_t)(nr ? nr : 1) * sizeof *start);
	int rc = 0;
	if (!in || !start) {
		free(in);
		free(start);
		free_shape(sh);
		return kd_oom(d);
	}
	for (int k = 0; k < d->narrays && k < MAX_ARRAYS_FLAT; k++)
		s[k] = sh->seen[k] ? (int64_t)g * sh->coef[k] * c / (int64_t)r->line : 0;
	in->w.cnt = r->count;
	in->w.up = r->watch;
	in->w.upsee = r->see;
	in->period = -1;
	in->cap = cap;
	in->d = d;
	in->line = r->line;
	r->watch = &in->w;
	r->see = inner_see;
	uint64_t it = 0;
	for (; it < N; it++) {
		if (it >= rem && (it - rem) % g == 0) { /* a period begins */
			uint64_t p = (it - rem) / g;
			if (p >= 2 && q >= 3) {
				int k = try_skip(r, in, st, s, v0, c, N, p - 1, q - p, start);
				if (k < 0) {
					rc = -1;
					break;
				}
				if (k)
					break;
			}
			settle(in);
			in->period = (int)(p < 2 ? p : 2);
			in->nseq = in->nodd = 0;
			in->bad = 0;
			memcpy(start, rd_count_refs(r->count), (size_t)nr * sizeof *start);
		}
		r->vals[st->slot] = v0 + (int64_t)it * c;
		if (run_body(r, K, st->l1, st->n1) < 0) {
			rc = -1;
			break;
		}
		if (in->oom) {
			rc = kd_oom(d);
			break;
		}
	}
	if (it == N)
		r->vals[st->slot] = v0 + (int64_t)N * c; /* as the loop leaves it */
	settle(in);
	r->watch = in->w.up;
	r->see = in->w.upsee;
	lset_free(&in->win);
	free(in->seq);
	free(in->odd);
	free(in->oref);
	free(in->ostale);
	free(in);
	free(start);
	free_shape(sh);
	return rc;
}

/* The flat loop's body while it streams: loops in it one loop down. */
static int run_body(run *r, const kd_kernel *K, int start, int count)
{
	for (int i = 0; i < count; i++) {
		const kd_stmt *st = &r->d->stmts[r->d->lists[start + i]];
		int e = st->kind == ST_FOR && !r->dry && r->count && nested(r->d, st)
				? inner_loop(r, K, st, start + i)
				: kd_run_list(r, start + i, 1);
		if (e < 0)
			return -1;
	}
	return 0;
}

/* The body's last statement, loop st, by the flat path (the statements
 * before it counted already): as kd_flat_body. */
static int flat_loop(run *r, const kd_kernel *K, const kd_stmt *st)
{
	kdesc *d = r->d;
	kdesc_flat_info *fi = r->flat;
	int64_t v0, c;
	uint64_t N, g;
	shape *sh;
	int an = analyse(r, K, st, &sh, &v0, &c, &N, &g, fi->why, sizeof fi->why);
	if (an)
		return an;
	uint64_t line = r->line;
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
		if (it == rem) {
			w->phase = PH_P0;
			w->gmark = rd_count_ghosts(r->count);
		}
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
		if (run_body(r, K, st->l1, st->n1) < 0)
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
		if (fi->acc) /* what loops one loop down added */
			memset(fi->acc, 0, (size_t)(nr ? nr : 1) * sizeof *fi->acc);
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
