/*
 * Exact per-set LRU stack distances in O(log n) (Bennett and Kruskal, as
 * in seed 000 section 4.6): each set numbers its updates 1, 2, ...; a line
 * keeps the stamp of its last update, and a Fenwick tree per set marks the
 * stamps that are still some line's latest. The distance of a line is the
 * number of marked stamps newer than its own: the distinct lines of its
 * set used since.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

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
		o += (uint64_t)cap[s] + 1; /* Fenwick index 0 unused */
		st->counter[s] = 1;
	}
	st->off[nsets] = o;
	st->tree = calloc(o ? o : 1, sizeof *st->tree);
	if (!st->tree) {
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
	free(st->tree);
	memset(st, 0, sizeof *st);
}

int64_t stack_distance(const rd_stack *st, uint32_t set, uint32_t line)
{
	uint32_t p = st->stamp[line];
	if (!p)
		return -1;
	const uint32_t *t = st->tree + st->off[set];
	uint32_t sum = 0;
	for (uint32_t i = p; i; i &= i - 1)
		sum += t[i];
	return (int64_t)st->live[set] - sum;
}

void stack_update(rd_stack *st, uint32_t set, uint32_t line)
{
	uint32_t *t = st->tree + st->off[set];
	uint32_t n = (uint32_t)(st->off[set + 1] - st->off[set] - 1);
	uint32_t p = st->stamp[line];
	if (p) {
		for (uint32_t i = p; i <= n; i += i & (0u - i))
			t[i]--;
	} else {
		st->live[set]++;
	}
	uint32_t q = st->counter[set]++;
	/* Callers size each set for its updates; a stamp past the end would be
	 * a bug in that count, never a property of the input. */
	for (uint32_t i = q; i <= n; i += i & (0u - i))
		t[i]++;
	st->stamp[line] = q;
}
