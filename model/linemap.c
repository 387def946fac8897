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
	m->slot = calloc(cap, sizeof *m->slot);
	m->mask = cap - 1;
	m->n = 0;
	return m->slot ? 0 : -1;
}

int linemap_grow(linemap *m)
{
	linemap g;
	if (linemap_init(&g, (m->mask + 1)) < 0) {
		linemap_free(&g);
		return -1;
	}
	for (uint64_t i = 0; i <= m->mask; i++)
		if (m->slot[i].key) {
			uint64_t h = mix64(m->slot[i].key) & g.mask;
			while (g.slot[h].key)
				h = (h + 1) & g.mask;
			g.slot[h] = m->slot[i];
		}
	g.n = m->n;
	linemap_free(m);
	*m = g;
	return 0;
}

void linemap_free(linemap *m)
{
	free(m->slot);
	m->slot = NULL;
}
