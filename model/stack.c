/*
 * Exact per-set LRU stack distances (Bennett and Kruskal, as in seed 000
 * section 4.6): each set numbers its updates 1, 2, ...; a line keeps the
 * stamp of its last update, and a set's stamps that are still some line's
 * latest are marked. The distance of a line is the number of marked stamps
 * newer than its own: the distinct lines of its set used since.
 *
 * Marks are bits; a Fenwick tree per set counts them per 64-bit word, so a
 * query or update costs O(log(n/64)) instead of O(log n), and a recent line
 * (a hit, the common case) is answered by popcounting the few words above
 * it without touching the tree. Bennett-Kruskal's O(log n) bound holds.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Words above a stamp worth popcounting directly instead of the tree. */
#define SCAN_WORDS 8

/* Portable builds have no popcount instruction, and the compiler's
 * builtin then calls a library routine; this inlines to a dozen ops. */
static inline int popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

int stack_init(rd_stack *st, uint32_t nsets, const uint32_t *cap, uint32_t nlines)
{
	memset(st, 0, sizeof *st);
	st->nsets = nsets;
	st->nlines = nlines;
	st->off = malloc(((size_t)nsets + 1) * sizeof *st->off);
	st->counter = malloc((size_t)nsets * sizeof *st->counter);
	st->live = calloc(nsets, sizeof *st->live);
	st->stamp = calloc(nlines ? nlines : 1, sizeof *st->stamp);
	if (!st->off || !st->counter || !st->live || !st->stamp) {
		stack_free(st);
		return RD_ENOMEM;
	}
	uint64_t o = 0;
	for (uint32_t s = 0; s < nsets; s++) {
		st->off[s] = o;
		/* stamps 1..cap[s] live in bits 0..cap[s]; one spare word keeps
		 * the Fenwick tree's index 0 unused */
		o += (uint64_t)cap[s] / 64 + 2;
		st->counter[s] = 1;
	}
	st->off[nsets] = o;
	st->bits = calloc(o ? o : 1, sizeof *st->bits);
	st->tree = calloc(o ? o : 1, sizeof *st->tree);
	if (!st->bits || !st->tree) {
		stack_free(st);
		return RD_ENOMEM;
	}
	return RD_OK;
}

void stack_free(rd_stack *st)
{
	free(st->off);
	free(st->counter);
	free(st->live);
	free(st->stamp);
	free(st->bits);
	free(st->tree);
	memset(st, 0, sizeof *st);
}

/* Fenwick index of word w is w + 1; the tree has nw entries (1..nw-1). */
static void tree_add(uint32_t *t, uint64_t nw, uint64_t w, int32_t d)
{
	for (uint64_t i = w + 1; i < nw; i += i & (0 - i))
		t[i] += (uint32_t)d;
}

int64_t stack_distance(const rd_stack *st, uint32_t set, uint32_t line)
{
	uint32_t p = st->stamp[line];
	if (!p)
		return -1;
	const uint64_t *b = st->bits + st->off[set];
	uint64_t w = p >> 6, top = (uint64_t)(st->counter[set] - 1) >> 6;
	/* marks above p in its own word */
	uint64_t above = (p & 63) == 63 ? 0 : b[w] & ~((2ULL << (p & 63)) - 1);
	int64_t d = popcount64(above);
	if (top - w <= SCAN_WORDS) {
		for (uint64_t i = w + 1; i <= top; i++)
			d += popcount64(b[i]);
		return d;
	}
	/* words after w: all marks minus those in words 0..w */
	const uint32_t *t = st->tree + st->off[set];
	uint32_t upto = 0;
	for (uint64_t i = w + 1; i; i &= i - 1)
		upto += t[i];
	return d + (int64_t)st->live[set] - upto;
}

void stack_update(rd_stack *st, uint32_t set, uint32_t line)
{
	uint64_t *b = st->bits + st->off[set];
	uint32_t *t = st->tree + st->off[set];
	uint64_t nw = st->off[set + 1] - st->off[set];
	uint32_t p = st->stamp[line];
	if (p) {
		b[p >> 6] &= ~(1ULL << (p & 63));
		tree_add(t, nw, p >> 6, -1);
	} else {
		st->live[set]++;
	}
	/* Callers size each set for its updates; a stamp past the end would be
	 * a bug in that count, never a property of the input. */
	uint32_t q = st->counter[set]++;
	b[q >> 6] |= 1ULL << (q & 63);
	tree_add(t, nw, q >> 6, 1);
	st->stamp[line] = q;
}
