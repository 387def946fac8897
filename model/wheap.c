/*
 * A min-heap of waiting warps keyed by (time, tie): the reference engine
 * holds warps that are delayed until a time step and releases those due
 * at once by warp id. (The paper engine releases them in issue order,
 * which a timing wheel keeps without a heap: sim_paper.c.)
 */
#include "internal.h"

#include <stdlib.h>

static int wentry_less(const wentry *a, const wentry *b)
{
	return a->at < b->at || (a->at == b->at && a->tie < b->tie);
}

int wheap_push(wheap *h, uint64_t at, uint64_t tie, uint32_t w)
{
	if (h->n == h->cap) {
		uint64_t nc = h->cap ? h->cap * 2 : 64;
		wentry *v = realloc(h->v, nc * sizeof *v);
		if (!v)
			return -1;
		h->v = v;
		h->cap = nc;
	}
	wentry e = {at, tie, w};
	uint64_t i = h->n++;
	while (i && wentry_less(&e, &h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = e;
	return 0;
}

wentry wheap_pop(wheap *h)
{
	wentry top = h->v[0], last = h->v[--h->n];
	uint64_t i = 0;
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && wentry_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!wentry_less(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = last;
	return top;
}

void wheap_free(wheap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
