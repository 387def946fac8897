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
	p->way_line = malloc(slots * sizeof *p->way_line);
	p->way_key = calloc(slots, sizeof *p->way_key);
	p->way_last = calloc(slots, sizeof *p->way_last);
	p->line_way = malloc((nlines ? nlines : 1) * sizeof *p->line_way);
	p->set_used = calloc(p->nsets, sizeof *p->set_used);
	p->set_next = calloc(p->nsets, sizeof *p->set_next);
	if (!p->way_line || !p->way_key || !p->way_last || !p->line_way || !p->set_used ||
	    !p->set_next) {
		policy_free(p);
		return -1;
	}
	memset(p->way_line, 0xff, slots * sizeof *p->way_line);
	memset(p->line_way, 0xff, (nlines ? nlines : 1) * sizeof *p->line_way);
	rng_seed(&p->rng, seed, stream);
	return 0;
}

void policy_free(rd_policy *p)
{
	free(p->way_line);
	free(p->way_key);
	free(p->way_last);
	free(p->line_way);
	free(p->set_used);
	free(p->set_next);
	free(p->set_free);
	free(p->set_mixed);
	memset(p, 0, sizeof *p);
}

void policy_touch(rd_policy *p, uint32_t line)
{
	uint32_t w = p->line_way[line];
	if (w == UINT32_MAX)
		return; /* evicted between its hit and the hit's effect */
	p->way_last[w] = ++p->clock;
	if (p->kind == RD_REPL_LFU)
		p->way_key[w]++;
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
	p->way_line[w] = UINT32_MAX;
	p->line_way[line] = UINT32_MAX;
	p->set_free[p->set_of[line]]++;
}

/* The way a fill of set s replaces: the lowest empty one, else the
 * policy's victim. */
static size_t victim(rd_policy *p, uint32_t s)
{
	size_t base = (size_t)s * p->ways;
	if (p->set_free && p->set_free[s]) { /* a way a store emptied */
		size_t w = base;
		for (uint32_t i = 0; i < p->set_used[s]; i++, w++)
			if (p->way_line[w] == UINT32_MAX)
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
	if (p->kind == RD_REPL_FIFO && !(p->set_mixed && p->set_mixed[s])) {
		/* ways fill in order, and refill in it */
		size_t w = base + p->set_next[s];
		p->set_next[s] = p->set_next[s] + 1 == p->ways ? 0 : p->set_next[s] + 1;
		return w;
	}
	/* LFU; or FIFO once a refilled empty way broke the ring's order: the
	 * oldest insertion (way_key is FIFO's insertion order) */
	size_t best = base;
	for (uint32_t i = 1; i < p->ways; i++) {
		size_t w = base + i;
		if (p->way_key[w] < p->way_key[best] ||
		    (p->kind == RD_REPL_LFU && p->way_key[w] == p->way_key[best] &&
		     p->way_last[w] < p->way_last[best]))
			best = w;
	}
	return best;
}

void policy_fill(rd_policy *p, uint32_t line)
{
	if (p->line_way[line] != UINT32_MAX) {
		policy_touch(p, line); /* a merged miss's fill: an access */
		return;
	}
	size_t w = victim(p, p->set_of[line]);
	if (p->way_line[w] != UINT32_MAX)
		p->line_way[p->way_line[w]] = UINT32_MAX;
	p->way_line[w] = line;
	p->line_way[line] = (uint32_t)w;
	p->clock++;
	p->way_key[w] = p->kind == RD_REPL_FIFO ? p->clock : 1; /* FIFO: order; LFU: count */
	p->way_last[w] = p->clock;
}
