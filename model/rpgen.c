/*
 * Synthetic traces from a reuse profile (seed 003, MLCRP, Algorithms 1
 * and 2, with the corrections of notes seeds-003-004 §A.1.2-A.1.3).
 *
 * Algorithm 1 (rd_rp_mixture): N Gaussian peaks of the given positions,
 * weights and widths sampled at the integer distances 0..MaxRD, the
 * Gaussian part renormalised to 1 - the cold share (the paper's claim
 * that the samples sum to 1 does not hold), the cold share at RD = -1.
 *
 * Algorithm 2 (rd_rpgen): each step draws a distance from the profile as
 * it stands (the paper's update recurrence: sampling without replacement
 * from the multiset of L distances, so the realised profile matches the
 * target almost exactly); -1 emits a fresh address; d emits the address
 * at depth d of the stack (d distinct addresses used since: its reuse
 * distance is d) and moves it to the top, after filling the stack with
 * fresh addresses while it holds d or fewer (the paper's "< rd" and
 * stack[-rd] are off by one: Table 3 needs "<= rd" and stack[-rd-1]);
 * each fill is a cold access, counted against the cold budget (beyond it,
 * forced and reported). Fresh addresses are a counter (never colliding),
 * unless given. Calls nothing above it.
 */
#include "rdscope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rd_rp_mixture(const double *pos, const double *ratio, const double *sigma, uint32_t n,
		   double cold, uint32_t maxrd, double *p)
{
	/* p[0]: RD -1; p[1 + d]: RD d */
	memset(p, 0, ((size_t)maxrd + 2) * sizeof *p);
	double g = 0;
	for (uint32_t d = 0; d <= maxrd; d++) {
		double v = 0;
		for (uint32_t i = 0; i < n; i++) {
			double s = sigma[i] > 0 ? sigma[i] : 1e-9;
			double z = ((double)d - pos[i]) / s;
			v += ratio[i] * exp(-0.5 * z * z) / (s * 2.5066282746310002); /* sqrt(2 pi) */
		}
		p[1 + d] = v;
		g += v;
	}
	double scale = g > 0 ? (1.0 - cold) / g : 0;
	for (uint32_t d = 0; d <= maxrd; d++)
		p[1 + d] *= scale;
	p[0] = g > 0 ? cold : 1.0; /* no Gaussian mass at all: every access cold */
}

struct rd_rpgen {
	uint32_t m;          /* bins: RD -1 .. maxrd */
	uint64_t len, l;     /* L, accesses emitted */
	double *target;      /* [m] L * freq_0 */
	uint64_t *n;         /* [m] realised so far */
	double *tree;        /* Fenwick tree over the bins' weights max(target - n, 0) */
	uint32_t top_bit;
	uint64_t *stack;     /* most recent last */
	uint64_t depth, cap;
	int64_t pending;     /* a drawn distance waiting for the stack to fill, or -2 */
	uint64_t next_fresh, forced;
	const uint64_t *fresh;
	size_t nfresh, ifresh;
	uint64_t rng;
};

static double weight(const rd_rpgen *g, uint32_t j)
{
	double w = g->target[j] - (double)g->n[j];
	return w > 0 ? w : 0;
}

static void tree_add(rd_rpgen *g, uint32_t j, double d)
{
	for (uint32_t i = j + 1; i <= g->m; i += i & (0u - i))
		g->tree[i] += d;
}

/* The bin whose cumulative weight interval holds u. */
static uint32_t tree_find(const rd_rpgen *g, double u)
{
	uint32_t pos = 0;
	for (uint32_t b = g->top_bit; b; b >>= 1)
		if (pos + b <= g->m && g->tree[pos + b] <= u) {
			pos += b;
			u -= g->tree[pos];
		}
	return pos < g->m ? pos : g->m - 1;
}

rd_rpgen *rd_rpgen_new(const double *p, uint32_t maxrd, uint64_t len, uint64_t seed)
{
	rd_rpgen *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->m = maxrd + 2;
	g->len = len;
	g->pending = -2;
	g->rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
	g->target = malloc(g->m * sizeof *g->target);
	g->n = calloc(g->m, sizeof *g->n);
	g->tree = calloc((size_t)g->m + 1, sizeof *g->tree);
	g->cap = 1024;
	g->stack = malloc(g->cap * sizeof *g->stack);
	if (!g->target || !g->n || !g->tree || !g->stack) {
		rd_rpgen_free(g);
		return NULL;
	}
	double sum = 0;
	for (uint32_t j = 0; j < g->m; j++)
		sum += p[j] > 0 ? p[j] : 0;
	for (uint32_t j = 0; j < g->m; j++) {
		g->target[j] = sum > 0 ? (double)len * (p[j] > 0 ? p[j] : 0) / sum : 0;
		tree_add(g, j, g->target[j]);
	}
	for (g->top_bit = 1; g->top_bit * 2 <= g->m; g->top_bit *= 2)
		;
	return g;
}

void rd_rpgen_free(rd_rpgen *g)
{
	if (!g)
		return;
	free(g->target);
	free(g->n);
	free(g->tree);
	free(g->stack);
	free(g);
}

void rd_rpgen_fresh(rd_rpgen *g, const uint64_t *v, size_t n)
{
	g->fresh = v;
	g->nfresh = n;
	g->ifresh = 0;
}

double rd_rpgen_freq(const rd_rpgen *g, int64_t rd)
{
	if (rd < -1 || rd + 1 >= (int64_t)g->m || g->l >= g->len)
		return 0;
	return weight(g, (uint32_t)(rd + 1)) / (double)(g->len - g->l);
}

uint64_t rd_rpgen_forced(const rd_rpgen *g)
{
	return g->forced;
}

static uint64_t next_u64(rd_rpgen *g)
{
	uint64_t z = (g->rng += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Count one realised distance (bin j) against the profile. */
static void realise(rd_rpgen *g, uint32_t j)
{
	double before = weight(g, j);
	g->n[j]++;
	tree_add(g, j, weight(g, j) - before);
	g->l++;
}

static int push(rd_rpgen *g, uint64_t x)
{
	if (g->depth == g->cap) {
		uint64_t *s = realloc(g->stack, g->cap * 2 * sizeof *s);
		if (!s)
			return -1;
		g->stack = s;
		g->cap *= 2;
	}
	g->stack[g->depth++] = x;
	return 0;
}

int rd_rpgen_next(rd_rpgen *g, const int64_t *want, int *used, uint64_t *idx, int64_t *rd)
{
	*used = 0;
	if (g->pending == -2) { /* a new draw */
		int64_t d;
		if (want) {
			d = *want;
			*used = 1;
		} else {
			double total = 0; /* every bin's weight: the tree's prefix to m */
			for (uint32_t i = g->m; i; i &= i - 1)
				total += g->tree[i];
			double u = total > 0 ? (double)(next_u64(g) >> 11) * 0x1p-53 * total : 0;
			d = total > 0 ? (int64_t)tree_find(g, u) - 1 : -1;
		}
		if (d < -1 || d + 1 >= (int64_t)g->m)
			return -1;
		g->pending = d;
	}
	if (g->pending == -1 || (uint64_t)g->pending >= g->depth) {
		/* a cold access: the draw's own, or a fill the stack needs */
		uint64_t x = g->ifresh < g->nfresh ? g->fresh[g->ifresh++] : g->next_fresh++;
		if (push(g, x) < 0)
			return -1;
		if (weight(g, 0) < 1)
			g->forced += g->pending != -1;
		realise(g, 0);
		if (g->pending == -1)
			g->pending = -2;
		*idx = x;
		*rd = -1;
		return 0;
	}
	uint64_t d = (uint64_t)g->pending, at = g->depth - 1 - d;
	uint64_t x = g->stack[at];
	memmove(g->stack + at, g->stack + at + 1, d * sizeof *g->stack);
	g->stack[g->depth - 1] = x;
	realise(g, (uint32_t)(d + 1));
	g->pending = -2;
	*idx = x;
	*rd = (int64_t)d;
	return 0;
}

rd_kernel *rd_rp_kernel(const double *p, uint32_t maxrd, uint64_t length, uint64_t seed,
			uint64_t threads, uint32_t line, uint64_t *cold, uint64_t *forced)
{
	rd_rpgen *g = rd_rpgen_new(p, maxrd, length, seed);
	uint32_t bx = threads < 1024 ? (uint32_t)threads : 1024;
	rd_kernel_builder *b = rd_kernel_builder_new("rp", bx, 1, 1);
	*cold = *forced = 0;
	uint64_t i = 0;
	if (g && b) {
		rd_kernel_builder_reserve(b, length);
		for (; i < length; i++) {
			uint64_t idx;
			int64_t rd;
			int used;
			if (rd_rpgen_next(g, NULL, &used, &idx, &rd) < 0 ||
			    rd_kernel_builder_add(b, (uint32_t)(i % threads), 0, idx * line,
						  line < 4 ? line : 4) < 0)
				break;
			*cold += rd < 0;
		}
		*forced = rd_rpgen_forced(g);
	}
	rd_rpgen_free(g);
	if (i != length || !g || !b) {
		rd_kernel_builder_free(b);
		return NULL;
	}
	return rd_kernel_builder_finish(b);
}
