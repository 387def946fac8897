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

/* Each set's lines (set_line[set_first[s] .. set_first[s + 1]]) and a
 * scratch word count for the largest set: stack_compact's. */
static int compact_init(rd_stack *st, uint64_t maxw)
{
	st->set_first = calloc((size_t)st->nsets + 1, sizeof *st->set_first);
	st->set_line = malloc((st->nlines ? st->nlines : 1) * sizeof *st->set_line);
	st->pre = malloc(maxw * sizeof *st->pre);
	if (!st->set_first || !st->set_line || !st->pre)
		return -1;
	for (uint32_t l = 0; l < st->nlines; l++)
		st->set_first[st->ln[l].set + 1]++;
	for (uint32_t s = 0; s < st->nsets; s++)
		st->set_first[s + 1] += st->set_first[s];
	for (uint32_t l = 0; l < st->nlines; l++) /* (set_first[s] moves to s + 1's start) */
		st->set_line[st->set_first[st->ln[l].set]++] = l;
	for (uint32_t s = st->nsets; s > 0; s--)
		st->set_first[s] = st->set_first[s - 1];
	st->set_first[0] = 0;
	return 0;
}

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
	/* each set's lines (in set's live, for now), for its room */
	for (uint32_t l = 0; l < nlines; l++) {
		st->ln[l].set = set_of[l];
		st->set[set_of[l]].live++;
	}
	uint64_t o = 0, maxw = 0;
	int capped = 0;
	for (uint32_t s = 0; s < nsets; s++) {
		st->set[s].off = o;
		/* stamps 1..cap[s] live in bits 0..cap[s]; one spare word keeps
		 * the Fenwick tree's index 0 unused. A set that would see many
		 * more updates than it has lines gets room for STACK_ROOM times
		 * its marks (its lines and holes, at most its lines and window)
		 * and renumbers them when its stamps run out (stack_compact): its
		 * memory follows its lines, not its updates. */
		uint64_t c = cap[s], room = STACK_ROOM * ((uint64_t)st->set[s].live + window) + STACK_SLACK;
		if (c > room) {
			c = room;
			capped = 1;
		}
		o += c / 64 + 2;
		st->set[s].nw = o - st->set[s].off;
		if (st->set[s].nw > maxw)
			maxw = st->set[s].nw;
		st->set[s].counter = 1;
		st->set[s].live = 0;
	}
	/* what stack_compact needs, made now so that it cannot fail */
	if (capped && compact_init(st, maxw) < 0) {
		stack_free(st);
		return RD_ENOMEM;
	}
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

/* The marks of set S at or above from (its words b), numbered in order
 * from first: the stamp p's new number. pre[w]: marks in words below w at
 * or above from. */
static inline uint32_t renumber(const uint64_t *b, const uint32_t *pre, uint32_t from,
				uint32_t first, uint32_t p)
{
	uint64_t w = p >> 6, below = b[w] & ((2ULL << (p & 63)) - 1);
	if (w == from >> 6)
		below &= ~0ULL << (from & 63);
	return first + pre[w] + (uint32_t)popcount64(below) - 1;
}

/*
 * Set `set` has used its stamps: its marks renumbered 1, 2, ... in their
 * order (a window without a tree: those at or above its bound from 2, and
 * its lines below the bound all 1, since only the window is ever read of
 * them), its lines, holes, bound and who with them, its tree rebuilt
 * lazily. Every distance and window answer is unchanged, since each
 * counts marks between two stamps. O(words + the set's lines). Compiled
 * per CPU as the loops are (HOT_CLONES): its popcounts through the
 * library routine took 2.7 % of the random 64 MiB stream's run.
 */
HOT_CLONES void stack_compact(rd_stack *st, uint32_t set)
{
	rd_set *S = &st->set[set];
	uint64_t *b = st->bits + S->off, nw = S->nw;
	uint32_t *pre = st->pre;
	/* a window without a tree reads no mark below its bound: those are
	 * dropped, its lines there all take stamp 1 and its marks start at 2 */
	uint32_t from = st->exact || !S->bound ? 0 : S->bound, first = st->exact ? 1 : 2;
	uint32_t n = 0;
	for (uint64_t w = 0; w < nw; w++) {
		pre[w] = n;
		uint64_t m = b[w];
		if (w < from >> 6)
			m = 0;
		else if (w == from >> 6)
			m &= ~0ULL << (from & 63);
		n += (uint32_t)popcount64(m);
	}
	if (st->who) { /* ascending: each moves down or stays */
		uint32_t *who = st->who + S->off * 64;
		for (uint64_t w = from >> 6; w < nw; w++)
			for (uint64_t m = w == from >> 6 ? b[w] & (~0ULL << (from & 63)) : b[w]; m;
			     m &= m - 1) {
				uint32_t p = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(m));
				who[renumber(b, pre, from, first, p)] = who[p];
			}
	}
	for (uint32_t i = st->set_first[set]; i < st->set_first[set + 1]; i++) {
		rd_line *ln = &st->ln[st->set_line[i]];
		if (ln->stamp)
			ln->stamp = ln->stamp >= from ? renumber(b, pre, from, first, ln->stamp) : 1;
	}
	if (st->holes)
		for (uint32_t i = 0; i < st->holes[set].n; i++)
			st->holes[set].v[i] = renumber(b, pre, from, first, st->holes[set].v[i]);
	if (S->bound)
		S->bound = renumber(b, pre, from, first, S->bound);
	memset(b, 0, nw * sizeof *b);
	for (uint32_t q = first; q < first + n; q++)
		b[q >> 6] |= 1ULL << (q & 63);
	if (st->tree) {
		memset(st->tree + S->off, 0, nw * sizeof *st->tree);
		S->built = 0; /* (the next update builds it up to its stamp) */
	}
	S->counter = first + n;
	st->compactions++;
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
	free(st->set_first);
	free(st->set_line);
	free(st->pre);
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
