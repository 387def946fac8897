/*
 * The hash table from line addresses to dense ids that coalescing and the
 * L2's stream use (open addressing, linear probing; lookups inline in
 * internal.h). Calls nothing above it.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "internal.h"

#include <stdlib.h>
#include <sys/mman.h>

/* A table of this many bytes or more is mapped on its own, in huge pages
 * where the system gives them (transparent huge pages on "madvise"): its
 * random inserts touch every page, and 4 KiB pages made the 64 MiB random
 * stream fault 34,000 times, at about 8 us a fault while the other
 * coalescing thread faulted too (0.27 s of kernel time in a run of
 * 0.24 s, 2026-11-29). Fresh mapped pages are zero, as calloc's are. */
#define LINEMAP_HUGE (4u << 20)

static int slots_mapped(uint64_t cap)
{
	return cap * sizeof(linemap_slot) >= LINEMAP_HUGE;
}

int linemap_init(linemap *m, uint64_t hint)
{
	uint64_t cap = 1024;
	while (cap < hint * 2)
		cap <<= 1;
	m->mask = cap - 1;
	m->n = 0;
	if (!slots_mapped(cap)) {
		m->slot = calloc(cap, sizeof *m->slot);
		return m->slot ? 0 : -1;
	}
	size_t bytes = cap * sizeof *m->slot;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		m->slot = NULL;
		return -1;
	}
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE); /* (a hint: without it, small pages) */
#endif
	m->slot = p;
	return 0;
}

int linemap_grow(linemap *m)
{
	linemap g;
	if (linemap_init(&g, (m->mask + 1)) < 0) {
		linemap_free(&g);
		return -1;
	}
	pages_write(g.slot, (g.mask + 1) * sizeof *g.slot); /* (a quarter full at once) */
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
	if (m->slot && slots_mapped(m->mask + 1))
		munmap(m->slot, (m->mask + 1) * sizeof *m->slot);
	else
		free(m->slot);
	m->slot = NULL;
}
