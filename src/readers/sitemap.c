/* Sites by PC (see sitemap.h). */
#include "sitemap.h"

#include <stdlib.h>

static uint32_t slot_of(uint64_t pc, uint32_t mask)
{
	pc ^= pc >> 29;
	pc *= 0xbf58476d1ce4e5b9ull;
	pc ^= pc >> 32;
	return (uint32_t)pc & mask;
}

static int grow(sitemap *m)
{
	uint32_t nc = m->cap ? m->cap * 2 : 64;
	uint64_t *pc = malloc(nc * sizeof *pc);
	uint32_t *id = malloc(nc * sizeof *id);
	if (!pc || !id) {
		free(pc);
		free(id);
		return -1;
	}
	for (uint32_t i = 0; i < nc; i++)
		id[i] = UINT32_MAX;
	for (uint32_t i = 0; i < m->cap; i++) {
		if (m->id[i] == UINT32_MAX)
			continue;
		uint32_t s = slot_of(m->pc[i], nc - 1);
		while (id[s] != UINT32_MAX)
			s = (s + 1) & (nc - 1);
		pc[s] = m->pc[i];
		id[s] = m->id[i];
	}
	free(m->pc);
	free(m->id);
	m->pc = pc;
	m->id = id;
	m->cap = nc;
	return 0;
}

int64_t sitemap_get(sitemap *m, rd_kernel_builder *b, uint64_t pc, uint32_t line)
{
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	uint32_t s = slot_of(pc, m->cap - 1);
	while (m->id[s] != UINT32_MAX) {
		if (m->pc[s] == pc)
			return m->id[s];
		s = (s + 1) & (m->cap - 1);
	}
	rd_site site = {.pc = pc, .line = line};
	int64_t id = rd_kernel_builder_site(b, &site);
	if (id < 0)
		return -1;
	m->pc[s] = pc;
	m->id[s] = (uint32_t)id;
	m->n++;
	return id;
}

void sitemap_free(sitemap *m)
{
	free(m->pc);
	free(m->id);
	m->pc = NULL;
	m->id = NULL;
	m->n = m->cap = 0;
}
