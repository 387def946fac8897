/*
 * Exact per-set LRU stack distances (Bennett and Kruskal, as in Nugteren
 * et al., HPCA 2014, §4.6): each set numbers its updates 1, 2, ...; a line keeps the
 * stamp of its last update, and a set's stamps that are still some line's
 * latest are marked. The distance of a line is the number of marked stamps
 * newer than its own: the distinct lines of its set used since.
 *
 * Marks are bits; a Fenwick tree per set counts them per 64-bit word, so a
 * query or update costs O(log(n/64)) instead of O(log n), and a recent line
 * (a hit, the common case) is answered by popcounting the few words above
 * it without touching the tree. Bennett-Kruskal's O(log n) bound holds.
 *
 * The tree is lazy: the newest SCAN_WORDS words, which queries popcount
 * anyway, are not in it; a word enters it once, when it falls behind that
 * window. New stamps and lines re-used soon therefore cost no tree update.
 *
 * Hit or miss is asked of a window: each set tracks the oldest of its N
 * newest marks (stack_ops.h). Cases that only ask that keep no tree.
 */
#include "internal.h"
#include "stack_ops.h"

#include <stdlib.h>
#include <string.h>

int stack_init(rd_stack *st, uint32_t nsets, const uint32_t *cap, uint32_t nlines,
	       const uint32_t *set_of, uint32_t window, int exact)
{
	memset(st, 0, sizeof *st);
	st->exact = exact;
	st->window = window;
	st->nsets = nsets;
	st->nlines = nlines;
	st->set = calloc(nsets ? nsets : 1, sizeof *st->set);
	st->ln = calloc(nlines ? nlines : 1, sizeof *st->ln);
	if (!st->set || !st->ln) {
		stack_free(st);
		return RD_ENOMEM;
	}
	uint64_t o = 0;
	for (uint32_t s = 0; s < nsets; s++) {
		st->set[s].off = o;
		/* stamps 1..cap[s] live in bits 0..cap[s]; one spare word keeps
		 * the Fenwick tree's index 0 unused */
		o += (uint64_t)cap[s] / 64 + 2;
		st->set[s].nw = o - st->set[s].off;
		st->set[s].counter = 1;
	}
	for (uint32_t l = 0; l < nlines; l++)
		st->ln[l].set = set_of[l];
	st->bits = calloc(o ? o : 1, sizeof *st->bits);
	st->tree = exact ? calloc(o ? o : 1, sizeof *st->tree) : NULL;
	if (!st->bits || (exact && !st->tree)) {
		stack_free(st);
		return RD_ENOMEM;
	}
	return RD_OK;
}

int stack_holes(rd_stack *st)
{
	st->holes = calloc(st->nsets ? st->nsets : 1, sizeof *st->holes);
	return st->holes ? 0 : -1;
}

int stack_who(rd_stack *st)
{
	uint64_t words = st->nsets ? st->set[st->nsets - 1].off + st->set[st->nsets - 1].nw : 1;
	st->who = malloc(words * 64 * sizeof *st->who);
	st->evicted = UINT32_MAX;
	return st->who ? 0 : -1;
}

int stack_evict(rd_stack *st, uint32_t line)
{
	rd_line *ln = &st->ln[line];
	rd_holes *h = &st->holes[ln->set];
	if (h->n == h->cap) {
		uint32_t *v = vec_grow(h->v, &h->cap, sizeof *v, 4);
		if (!v)
			return -1;
		h->v = v;
	}
	h->v[h->n++] = ln->stamp; /* the mark stays, counted by live */
	ln->stamp = 0;
	return 0;
}

void stack_free(rd_stack *st)
{
	for (uint32_t s = 0; st->holes && s < st->nsets; s++)
		free(st->holes[s].v);
	free(st->holes);
	free(st->who);
	free(st->set);
	free(st->ln);
	free(st->bits);
	free(st->tree);
	memset(st, 0, sizeof *st);
}

/* Out-of-line copies for the engines that do not inline them (the
 * reference profile, tests). */
HOT_CLONES int64_t stack_distance(const rd_stack *st, uint32_t line)
{
	return stack_distance_inline(st, line);
}

HOT_CLONES void stack_update(rd_stack *st, uint32_t line)
{
	stack_update_inline(st, line);
}

uint32_t stack_top(const rd_stack *st, uint32_t set, const uint64_t *line_addr, uint64_t *out,
		   uint32_t cap)
{
	/* every mark is a line's stamp or a hole's (exact: a line's older
	 * marks are cleared); live counts them */
	const rd_set *S = &st->set[set];
	const uint64_t *b = st->bits + S->off;
	const uint32_t *who = st->who + S->off * 64;
	uint32_t n = 0, left = S->live;
	if (S->counter <= 1)
		return 0;
	for (uint64_t w = (uint64_t)(S->counter - 1) >> 6; n < cap && left; w--) {
		for (uint64_t m = b[w]; m && n < cap; left--) {
			unsigned bit = 63u - (unsigned)__builtin_clzll(m);
			m &= ~(1ULL << bit);
			uint32_t q = (uint32_t)(w * 64 + bit), l = who[q];
			out[n++] = st->ln[l].stamp == q ? line_addr[l] : RD_HOLE | q;
		}
		if (!w)
			break;
	}
	return n;
}
