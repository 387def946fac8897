/*
 * The source sites of a trace's loads by instruction address: each
 * distinct PC (with its source line, when the tracer gave one) becomes
 * one site of the kernel being built (rd_kernel_builder_site).
 */
#ifndef READERS_SITEMAP_H
#define READERS_SITEMAP_H

#include <stdint.h>

#include "rdscope.h"

typedef struct sitemap {
	uint64_t *pc;   /* open addressing; slot empty when id is UINT32_MAX */
	uint32_t *id;
	uint32_t n, cap;
} sitemap;

/* The site of pc (line: its source line or 0) in builder b, made on first
 * sight; -1 when out of memory. */
int64_t sitemap_get(sitemap *m, rd_kernel_builder *b, uint64_t pc, uint32_t line);
void sitemap_free(sitemap *m);

#endif
