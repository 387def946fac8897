/*
 * Replacement policies other than LRU (RDGC, seed 001 §3; Dinero IV's
 * -l1-drepl): per-set policy simulators. LRU needs none: a line hits iff
 * its reuse distance is below the ways (the stacks of stack.c). Here hit
 * or miss is whether the line is in one of its set's ways; a hit's effect
 * is an access (LFU counts it, and its recency breaks LFU's ties); a fill
 * inserts the line into the lowest empty way, else over the policy's
 * victim: FIFO the line inserted first, LFU the one with the fewest
 * accesses since its insertion (ties: the least recently accessed),
 * random a way drawn from the policy's own generator stream (so a policy
 * change leaves the latencies' draws alone).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int policy_init(rd_policy *p, int kind, uint32_t nsets, uint32_t ways, uint32_t nlines,
		const uint32_t *set_of, uint64_t seed, uint64_t stream)
{
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->nsets = nsets ? nsets : 1;
	/* A set never holds more lines than the trace has: more ways than
	 * that are never filled (a huge fully associative cache costs what
	 * the trace touches). */
	p->ways = ways ? ways : 1;
	if (nlines && p->ways > nlines)
		p->ways = nlines;
	p->set_of = set_of;
	size_t slots = (size_t)p->nsets * p->ways;
	p->way = calloc(slots, sizeof *p->way);
	p->line_way = malloc((nlines ? nlines : 1) * sizeof *p->line_way);
	p->set_used = calloc(p->nsets, sizeof *p->set_used);
	p->set_next = calloc(p->nsets, sizeof *p->set_next);
	if (!p->way || !p->line_way || !p->set_used || !p->set_next) {
		policy_free(p);
		return -1;
	}
	for (size_t i = 0; i < slots; i++)
		p->way[i].line = UINT32_MAX;
	if (kind == RD_REPL_LFU) {
		p->lfu_prev = malloc(slots * sizeof *p->lfu_prev);
		p->lfu_next = malloc(slots * sizeof *p->lfu_next);
		p->lfu_node = malloc(slots * sizeof *p->lfu_node);
		/* a bucket per way, and one for a touch, which makes its new
		 * bucket before it frees the old */
		p->lfu_bucket = malloc((slots + 1) * sizeof *p->lfu_bucket);
		p->lfu_first = malloc(p->nsets * sizeof *p->lfu_first);
		if (!p->lfu_prev || !p->lfu_next || !p->lfu_node || !p->lfu_bucket ||
		    !p->lfu_first || slots >= UINT32_MAX) {
			policy_free(p);
			return -1;
		}
		memset(p->lfu_first, 0xff, p->nsets * sizeof *p->lfu_first);
		for (size_t i = 0; i <= slots; i++)
			p->lfu_bucket[i].next = i < slots ? (uint32_t)(i + 1) : UINT32_MAX;
		p->lfu_free = 0;
	}
	memset(p->line_way, 0xff, (nlines ? nlines : 1) * sizeof *p->line_way);
	rng_seed(&p->rng, seed, stream);
	return 0;
}

void policy_free(rd_policy *p)
{
	free(p->way);
	free(p->lfu_prev);
	free(p->lfu_next);
	free(p->lfu_node);
	free(p->lfu_bucket);
	free(p->lfu_first);
	free(p->line_way);
	free(p->set_used);
	free(p->set_next);
	free(p->set_free);
	free(p->set_mixed);
	free(p->set_resv);
	memset(p, 0, sizeof *p);
}

/* ---- LFU's buckets */

/* A new bucket of count c in set s after bucket `after` (UINT32_MAX: first). */
static uint32_t bucket_new(rd_policy *p, uint32_t s, uint32_t after, uint32_t c)
{
	uint32_t b = p->lfu_free; /* a bucket per way and one spare: never runs out */
	struct rd_lfu_bucket *B = p->lfu_bucket;
	p->lfu_free = B[b].next;
	uint32_t nx = after == UINT32_MAX ? p->lfu_first[s] : B[after].next;
	B[b] = (struct rd_lfu_bucket){c, UINT32_MAX, UINT32_MAX, after, nx};
	if (after == UINT32_MAX)
		p->lfu_first[s] = b;
	else
		B[after].next = b;
	if (nx != UINT32_MAX)
		B[nx].prev = b;
	return b;
}

/* Way w out of its bucket (the bucket freed when empty). */
static void lfu_unlink(rd_policy *p, uint32_t s, uint32_t w)
{
	struct rd_lfu_bucket *B = p->lfu_bucket;
	uint32_t b = p->lfu_node[w], pv = p->lfu_prev[w], nx = p->lfu_next[w];
	if (pv != UINT32_MAX)
		p->lfu_next[pv] = nx;
	else
		B[b].head = nx;
	if (nx != UINT32_MAX)
		p->lfu_prev[nx] = pv;
	else
		B[b].tail = pv;
	if (B[b].head != UINT32_MAX)
		return;
	if (B[b].prev != UINT32_MAX)
		B[B[b].prev].next = B[b].next;
	else
		p->lfu_first[s] = B[b].next;
	if (B[b].next != UINT32_MAX)
		B[B[b].next].prev = B[b].prev;
	B[b].next = p->lfu_free;
	p->lfu_free = b;
}

/* Way w at the end (the most recent) of bucket b. */
static void lfu_append(rd_policy *p, uint32_t b, uint32_t w)
{
	struct rd_lfu_bucket *B = p->lfu_bucket;
	p->lfu_node[w] = b;
	p->lfu_prev[w] = B[b].tail;
	p->lfu_next[w] = UINT32_MAX;
	if (B[b].tail != UINT32_MAX)
		p->lfu_next[B[b].tail] = w;
	else
		B[b].head = w;
	B[b].tail = w;
}

/* Way w of set s is accessed: into the bucket of one more access. */
static void lfu_touch(rd_policy *p, uint32_t s, uint32_t w)
{
	struct rd_lfu_bucket *B = p->lfu_bucket;
	uint32_t b = p->lfu_node[w], c = B[b].count;
	uint32_t to = b;
	if (c != UINT32_MAX) { /* (saturated: stays) */
		to = B[b].next;
		if (to == UINT32_MAX || B[to].count != c + 1)
			to = bucket_new(p, s, b, c + 1);
	}
	lfu_unlink(p, s, w);
	lfu_append(p, to, w);
}

/* Way w of set s takes a new line: one access. */
static void lfu_insert(rd_policy *p, uint32_t s, uint32_t w)
{
	uint32_t b = p->lfu_first[s];
	if (b == UINT32_MAX || p->lfu_bucket[b].count != 1)
		b = bucket_new(p, s, UINT32_MAX, 1);
	lfu_append(p, b, w);
}

void policy_touch(rd_policy *p, uint32_t line)
{
	uint32_t w = p->line_way[line];
	if (w == UINT32_MAX)
		return; /* evicted between its hit and the hit's effect */
	if (p->kind == RD_REPL_LFU) /* (FIFO's order is its insertions', random has none) */
		lfu_touch(p, p->set_of[line], w);
	else if (p->kind == POLICY_LRU)
		p->way[w].stamp = ++p->clock;
}

int policy_holes(rd_policy *p)
{
	p->set_free = calloc(p->nsets, sizeof *p->set_free);
	p->set_mixed = calloc(p->nsets, 1);
	return p->set_free && p->set_mixed ? 0 : -1;
}

void policy_evict(rd_policy *p, uint32_t line)
{
	uint32_t w = p->line_way[line];
	if (w == UINT32_MAX)
		return;
	p->way[w].line = UINT32_MAX;
	p->line_way[line] = UINT32_MAX;
	p->set_free[p->set_of[line]]++;
	if (p->kind == RD_REPL_LFU)
		lfu_unlink(p, p->set_of[line], w);
}

/* The way a fill of set s replaces: the lowest empty one, else the
 * policy's victim. */
static size_t victim(rd_policy *p, uint32_t s)
{
	size_t base = (size_t)s * p->ways;
	if (__builtin_expect(p->set_free != NULL, 0) && p->set_free[s]) { /* a way a store emptied */
		size_t w = base;
		for (uint32_t i = 0; i < p->set_used[s]; i++, w++)
			if (p->way[w].line == UINT32_MAX)
				break;
		if (w < base + p->set_used[s]) { /* (below the fresh ones: lowest) */
			p->set_free[s]--;
			p->set_mixed[s] = 1;
			return w;
		}
	}
	if (p->set_used[s] < p->ways) /* the lowest empty way */
		return base + p->set_used[s]++;
	if (p->kind == RD_REPL_RANDOM)
		return base + (size_t)(rng_next(&p->rng) % p->ways);
	if (p->kind == RD_REPL_FIFO && (__builtin_expect(p->set_mixed == NULL, 1) || !p->set_mixed[s])) {
		/* ways fill in order, and refill in it */
		size_t w = base + p->set_next[s];
		p->set_next[s] = p->set_next[s] + 1 == p->ways ? 0 : p->set_next[s] + 1;
		return w;
	}
	if (p->kind == RD_REPL_LFU) /* the fewest accesses, then the least recent */
		return p->lfu_bucket[p->lfu_first[s]].head;
	/* FIFO once a refilled empty way broke the ring's order: the oldest
	 * insertion */
	const struct rd_way *v = p->way + base;
	uint32_t best = 0;
	for (uint32_t i = 1; i < p->ways; i++)
		if (v[i].stamp < v[best].stamp)
			best = i;
	return base + best;
}

/* Way w of set s takes the line (its old line, if any, is evicted). */
static void way_take(rd_policy *p, uint32_t s, size_t w, uint32_t line, uint32_t reserved)
{
	if (p->way[w].line != UINT32_MAX) {
		p->evicted = p->way[w].line;
		p->line_way[p->way[w].line] = UINT32_MAX;
		if (p->kind == RD_REPL_LFU)
			lfu_unlink(p, s, (uint32_t)w);
	}
	p->clock++;
	p->way[w] = (struct rd_way){.line = line, .reserved = reserved, .stamp = p->clock};
	p->line_way[line] = (uint32_t)w;
	if (p->kind == RD_REPL_LFU)
		lfu_insert(p, s, (uint32_t)w);
}

void policy_fill(rd_policy *p, uint32_t line)
{
	p->evicted = UINT32_MAX;
	if (p->line_way[line] != UINT32_MAX) {
		policy_touch(p, line); /* a merged miss's fill: an access */
		return;
	}
	uint32_t s = p->set_of[line];
	way_take(p, s, victim(p, s), line, 0);
}

/* ---- allocation on miss (l1.allocate=miss) */

int policy_reservations(rd_policy *p)
{
	p->set_resv = calloc(p->nsets, sizeof *p->set_resv);
	return p->set_resv ? 0 : -1;
}

/* The way a miss of set s reserves: an empty one first (as victim()),
 * else the policy's victim among the unreserved ways. FIFO and LRU scan
 * for the oldest stamp (insertion, last access): reservations break
 * FIFO's ring. Random draws among the unreserved ways (with none reserved,
 * the draw victim() would make). */
static size_t victim_unreserved(rd_policy *p, uint32_t s)
{
	size_t base = (size_t)s * p->ways;
	if (p->set_used[s] < p->ways || (p->set_free && p->set_free[s]) ||
	    (!p->set_resv[s] && p->kind != POLICY_LRU && p->kind != RD_REPL_FIFO))
		return victim(p, s);
	const struct rd_way *v = p->way + base;
	if (p->kind == RD_REPL_RANDOM) {
		uint32_t k = (uint32_t)(rng_next(&p->rng) % (p->ways - p->set_resv[s]));
		for (uint32_t i = 0; i < p->ways; i++)
			if (!v[i].reserved && k-- == 0)
				return base + i;
	}
	if (p->kind == RD_REPL_LFU) {
		for (uint32_t b = p->lfu_first[s]; b != UINT32_MAX; b = p->lfu_bucket[b].next)
			for (uint32_t w = p->lfu_bucket[b].head; w != UINT32_MAX; w = p->lfu_next[w])
				if (!p->way[w].reserved)
					return w;
	}
	uint32_t best = UINT32_MAX;
	for (uint32_t i = 0; i < p->ways; i++)
		if (!v[i].reserved && (best == UINT32_MAX || v[i].stamp < v[best].stamp))
			best = i;
	return base + best; /* (policy_can_reserve held: one is unreserved) */
}

void policy_reserve(rd_policy *p, uint32_t line)
{
	p->evicted = UINT32_MAX;
	uint32_t s = p->set_of[line];
	way_take(p, s, victim_unreserved(p, s), line, 1);
	p->set_resv[s]++;
}

void policy_unreserve(rd_policy *p, uint32_t line)
{
	uint32_t w = p->line_way[line];
	if (w == UINT32_MAX || !p->way[w].reserved)
		return;
	p->way[w].reserved = 0;
	p->set_resv[p->set_of[line]]--;
}
