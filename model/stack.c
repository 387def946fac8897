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
 *
 * The tree is lazy: the newest SCAN_WORDS words, which queries popcount
 * anyway, are not in it; a word enters it once, when it falls behind that
 * window. New stamps and lines re-used soon therefore cost no tree update.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Words above a stamp worth popcounting directly instead of the tree. */
#define SCAN_WORDS 8

/*
 * Popcount is the inner operation. A portable x86-64 build has no popcount
 * instruction (the builtin calls a library routine), so on x86-64 with GCC
 * the two hot functions are compiled twice and the loader picks the
 * POPCNT clone on CPUs that have it (every x86-64 CPU since 2008).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define HOT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define HOT_CLONES
#endif

static inline int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

int stack_init(rd_stack *st, uint32_t nsets, const uint32_t *cap, uint32_t nlines,
	       const uint32_t *set_of, int exact)
{
	memset(st, 0, sizeof *st);
	st->exact = exact;
	st->nsets = nsets;
	st->nlines = nlines;
	st->off = malloc(((size_t)nsets + 1) * sizeof *st->off);
	st->counter = malloc((size_t)nsets * sizeof *st->counter);
	st->live = calloc(nsets, sizeof *st->live);
	st->built = calloc(nsets ? nsets : 1, sizeof *st->built);
	st->ln = calloc(nlines ? nlines : 1, sizeof *st->ln);
	if (!st->off || !st->counter || !st->live || !st->ln || !st->built) {
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
	for (uint32_t l = 0; l < nlines; l++)
		st->ln[l].set = set_of[l];
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
	free(st->built);
	free(st->ln);
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

HOT_CLONES int64_t stack_distance(const rd_stack *st, uint32_t line)
{
	uint32_t p = st->ln[line].stamp, set = st->ln[line].set;
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
	/* words after w: all marks minus those in words 0..w, which the lazy
	 * tree holds (w is behind the scan window, so below `built`) */
	const uint32_t *t = st->tree + st->off[set];
	uint32_t upto = 0;
	for (uint64_t i = w + 1; i; i &= i - 1)
		upto += t[i];
	return d + (int64_t)st->live[set] - upto;
}

/*
 * Without the tree: count marks from the newest stamp downwards and stop at
 * cap. The newest stamps are mostly live, so a miss is usually told after a
 * word or two and a hit after the words above it.
 */
HOT_CLONES int64_t stack_distance_capped(const rd_stack *st, uint32_t line, uint32_t cap)
{
	uint32_t p = st->ln[line].stamp, set = st->ln[line].set;
	if (!p)
		return -1;
	if (st->exact) {
		int64_t d = stack_distance(st, line);
		return d < cap ? d : cap;
	}
	const uint64_t *b = st->bits + st->off[set];
	uint64_t wp = p >> 6, w = (uint64_t)(st->counter[set] - 1) >> 6;
	int64_t d = 0;
	for (; w > wp; w--) {
		d += popcount64(b[w]);
		if (d >= cap)
			return cap;
	}
	uint64_t above = (p & 63) == 63 ? 0 : b[wp] & ~((2ULL << (p & 63)) - 1);
	d += popcount64(above);
	return d < cap ? d : cap;
}

uint32_t stack_lines(const rd_stack *st, uint32_t set, const uint64_t *line_addr, uint64_t *out,
		     uint32_t cap)
{
	/* (stamp, line) pairs of the set, newest first, by insertion */
	uint32_t n = 0;
	uint32_t *stamps = malloc((cap ? cap : 1) * sizeof *stamps);
	if (!stamps)
		return 0;
	for (uint32_t l = 0; l < st->nlines; l++) {
		uint32_t p = st->ln[l].stamp;
		if (!p || st->ln[l].set != set)
			continue;
		uint32_t i = n < cap ? n++ : cap;
		if (i == cap && (cap == 0 || p < stamps[cap - 1]))
			continue; /* older than all kept */
		if (i == cap)
			i = cap - 1;
		while (i && stamps[i - 1] < p) {
			stamps[i] = stamps[i - 1];
			out[i] = out[i - 1];
			i--;
		}
		stamps[i] = p;
		out[i] = line_addr[l];
	}
	free(stamps);
	return n;
}

HOT_CLONES void stack_update(rd_stack *st, uint32_t line)
{
	uint32_t set = st->ln[line].set;
	uint64_t *b = st->bits + st->off[set];
	uint32_t *t = st->tree + st->off[set];
	uint64_t nw = st->off[set + 1] - st->off[set];
	uint32_t p = st->ln[line].stamp;
	if (p) {
		b[p >> 6] &= ~(1ULL << (p & 63));
		if ((p >> 6) < st->built[set])
			tree_add(t, nw, p >> 6, -1);
	} else {
		st->live[set]++;
	}
	/* Callers size each set for its updates; a stamp past the end would be
	 * a bug in that count, never a property of the input. */
	uint32_t q = st->counter[set]++;
	b[q >> 6] |= 1ULL << (q & 63);
	st->ln[line].stamp = q;
	if (!st->exact)
		return; /* built stays 0: no tree */
	/* keep every word more than SCAN_WORDS behind the top in the tree */
	while (st->built[set] + SCAN_WORDS < (q >> 6)) {
		uint64_t w = st->built[set]++;
		if (b[w])
			tree_add(t, nw, w, popcount64(b[w]));
	}
}
