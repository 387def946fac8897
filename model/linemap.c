/*
 * The hash table from line addresses to dense ids that coalescing and the
 * L2's stream use (open addressing, linear probing; lookups inline in
 * internal.h). Calls nothing above it.
 */
#include "internal.h"

#include <stdlib.h>

int linemap_init(linemap *m, uint64_t hint)
{
	uint64_t cap = 1024;
	while (cap < hint * 2)
		cap <<= 1;
	m->key = calloc(cap, sizeof *m->key);
	m->val = malloc(cap * sizeof *m->val);
	m->mask = cap - 1;
	m->n = 0;
	return m->key && m->val ? 0 : -1;
}

int linemap_grow(linemap *m)
{
	linemap g;
	if (linemap_init(&g, (m->mask + 1)) < 0) {
		linemap_free(&g);
		return -1;
	}
	for (uint64_t i = 0; i <= m->mask; i++)
		if (m->key[i]) {
			uint64_t h = mix64(m->key[i]) & g.mask;
			while (g.key[h])
				h = (h + 1) & g.mask;
			g.key[h] = m->key[i];
			g.val[h] = m->val[i];
		}
	g.n = m->n;
	linemap_free(m);
	*m = g;
	return 0;
}

void linemap_free(linemap *m)
{
	free(m->key);
	free(m->val);
	m->key = NULL;
	m->val = NULL;
}
