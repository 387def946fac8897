/*
 * The stack's hot operations (stack.c has the structure and its invariants)
 * as inline functions: the paper engine inlines them into its event loop,
 * compiled once per CPU variant, instead of calling them three times per
 * request. stack.c keeps out-of-line copies for everything else.
 */
#ifndef RD_STACK_OPS_H
#define RD_STACK_OPS_H

#include "internal.h"

/* Words above a stamp worth popcounting directly instead of the tree. */
#define SCAN_WORDS 8

/*
 * Popcount is the inner operation. A portable x86-64 build has no popcount
 * instruction (the builtin calls a library routine), so on x86-64 with GCC
 * the functions that run these (stack.c's, and the paper engine's loop,
 * which inlines them) are compiled twice and the loader picks the POPCNT
 * clone on CPUs that have it (every x86-64 CPU since 2008).
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

/* Fenwick index of word w is w + 1; the tree has nw entries (1..nw-1). */
static inline void tree_add(uint32_t *t, uint64_t nw, uint64_t w, int32_t d)
{
	for (uint64_t i = w + 1; i < nw; i += i & (0 - i))
		t[i] += (uint32_t)d;
}

static inline __attribute__((always_inline)) int64_t stack_distance_inline(const rd_stack *st, uint32_t line)
{
	uint32_t p = st->ln[line].stamp, set = st->ln[line].set;
	if (!p)
		return -1;
	const rd_set *S = &st->set[set];
	const uint64_t *b = st->bits + S->off;
	uint64_t w = p >> 6, top = (uint64_t)(S->counter - 1) >> 6;
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
	const uint32_t *t = st->tree + S->off;
	uint32_t upto = 0;
	for (uint64_t i = w + 1; i; i &= i - 1)
		upto += t[i];
	return d + (int64_t)S->live - upto;
}

/*
 * Window mode (an N-way LRU set's contents, for cases that only ask hit or
 * miss): each set keeps `bound`, the oldest of its N most recent marks. A
 * line is resident iff its stamp is at or above it. An update adds a mark
 * at the top; the window then drops its oldest mark when it held N and the
 * line was not in it, or moves past the line's old mark if that was the
 * oldest. bound only moves up, so the scans for the next mark cost O(1)
 * amortized.
 */
static inline __attribute__((always_inline)) int stack_hit_inline(const rd_stack *st, uint32_t line)
{
	uint32_t p = st->ln[line].stamp;
	return p && p >= st->set[st->ln[line].set].bound;
}

/* Prefetch what stack_distance_inline will read of a line whose record is
 * (most likely) cached already: its stamp's bitmap word and the tree's
 * entry for it. A hint only: the stamp may change before the query. */
static inline __attribute__((always_inline)) void stack_prefetch_distance(const rd_stack *st,
									  uint32_t line)
{
	uint32_t p = st->ln[line].stamp;
	uint64_t off = st->set[st->ln[line].set].off + (p >> 6);
	__builtin_prefetch(st->bits + off);
	__builtin_prefetch(st->tree + off + 1);
}

/* The first mark at or after stamp `from` (one is known to exist). */
static inline uint32_t next_mark(const uint64_t *b, uint32_t from)
{
	uint64_t w = from >> 6, m = b[w] & (~0ULL << (from & 63));
	while (!m)
		m = b[++w];
	return (uint32_t)((w << 6) + (uint64_t)__builtin_ctzll(m));
}

/* exact, window, holes: st->exact, st->window != 0, st->holes != NULL, as
 * constants where the caller knows them (the paper engine compiles one
 * copy per case kind, so a run without stores tests nothing for holes) */
static inline __attribute__((always_inline)) void stack_update_as(rd_stack *st, uint32_t line,
								 const int exact, const int window,
								 const int holes)
{
	uint32_t set = st->ln[line].set;
	rd_set *S = &st->set[set];
	/* the stamps used up (the last word is the tree's spare): renumbered */
	if (__builtin_expect((uint64_t)S->counter + 64 >= S->nw << 6, 0))
		stack_compact(st, set);
	uint64_t *b = st->bits + S->off;
	uint32_t *t = exact ? st->tree + S->off : NULL; /* (no tree without exact) */
	uint64_t nw = S->nw;
	uint32_t p = st->ln[line].stamp;
	const int in_win = p && p >= S->bound; /* (before a hole moves the bound) */
	/* An insertion into a set with holes fills one (a hole's way is
	 * empty): nothing falls out of the window. */
	if (holes && !in_win && st->holes[set].n) {
		uint32_t h = st->holes[set].v[--st->holes[set].n];
		b[h >> 6] &= ~(1ULL << (h & 63));
		if (exact && (h >> 6) < S->built)
			tree_add(t, nw, h >> 6, -1);
		S->live--;
		if (window) {
			S->inwin--;
			if (!S->inwin)
				S->bound = 0;
			else if (h == S->bound)
				S->bound = next_mark(b, h + 1);
		}
	}
	if (!p) {
		S->live++;
	} else if (exact || in_win) {
		b[p >> 6] &= ~(1ULL << (p & 63));
		if ((p >> 6) < S->built)
			tree_add(t, nw, p >> 6, -1);
	}
	/* else: a window reads no mark below its bound, which only rises, so
	 * without a tree the old mark of a line from outside the window (most
	 * misses) stays: no write to a random word of a large bitmap */
	/* (stack_init sized each set for its updates or stack_compact made
	 * room: a stamp past the end would be a bug, never the input's) */
	uint32_t q = S->counter++;
	b[q >> 6] |= 1ULL << (q & 63);
	st->ln[line].stamp = q;
	if (st->who) { /* (write-backs only: predicted not taken) */
		st->who[S->off * 64 + q] = line;
		st->evicted = UINT32_MAX;
	}
	if (window) {
		if (in_win) { /* in the window: it stays as full */
			if (p == S->bound)
				S->bound = next_mark(b, p + 1);
		} else if (S->inwin < st->window) { /* a new line, room left */
			S->inwin++;
			if (!S->bound)
				S->bound = q;
		} else { /* the window's oldest line falls out */
			if (st->who)
				st->evicted = st->who[S->off * 64 + S->bound];
			S->bound = next_mark(b, S->bound + 1);
		}
	}
	if (!exact)
		return; /* built stays 0: no tree */
	/* keep every word more than SCAN_WORDS behind the top in the tree */
	while (S->built + SCAN_WORDS < (q >> 6)) {
		uint64_t w = S->built++;
		if (b[w])
			tree_add(t, nw, w, popcount64(b[w]));
	}
}

static inline __attribute__((always_inline)) void stack_update_inline(rd_stack *st, uint32_t line)
{
	stack_update_as(st, line, st->exact, st->window != 0, st->holes != NULL);
}

#endif
