/*
 * The arrays of a kernel (seed 002's unit of placement): named, disjoint
 * address ranges kept sorted by base, so that an access's array is a
 * binary search. Kernel descriptions name theirs (src/kdesc), a CSV names
 * a trace's (src/readers/arrays.c), and rd_arrays_detect finds them in the
 * accesses: touched byte ranges closer than a gap belong to one array.
 * Pure C11; calls nothing above it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rd_arrays *rd_arrays_new(void)
{
	return calloc(1, sizeof(rd_arrays));
}

void rd_arrays_free(rd_arrays *as)
{
	if (!as)
		return;
	for (uint32_t i = 0; i < as->n; i++)
		free(as->a[i].name);
	free(as->a);
	free(as);
}

/* The first array whose end is past addr (as->n: none). */
static uint32_t first_ending_after(const rd_arrays *as, uint64_t addr)
{
	uint32_t lo = 0, hi = as->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const rd_array *x = &as->a[mid];
		if (x->base + x->bytes <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t rd_arrays_find(const rd_arrays *as, uint64_t addr)
{
	if (!as)
		return -1;
	uint32_t i = first_ending_after(as, addr);
	return i < as->n && as->a[i].base <= addr ? (int64_t)i : -1;
}

int64_t rd_arrays_named(const rd_arrays *as, const char *name)
{
	for (uint32_t i = 0; as && i < as->n; i++)
		if (strcmp(as->a[i].name, name) == 0)
			return i;
	return -1;
}

int rd_arrays_add(rd_arrays *as, const char *name, uint64_t base, uint64_t bytes, uint32_t elem,
		  uint32_t width, uint32_t *other)
{
	if (bytes == 0 || base + bytes < base)
		return -2;
	int64_t same = rd_arrays_named(as, name);
	if (same >= 0) {
		if (other)
			*other = (uint32_t)same;
		return -4;
	}
	uint32_t at = first_ending_after(as, base);
	if (at < as->n && as->a[at].base < base + bytes) {
		if (other)
			*other = at;
		return -3;
	}
	if (as->n == as->cap) {
		uint32_t nc = as->cap ? as->cap * 2 : 8;
		rd_array *v = realloc(as->a, nc * sizeof *v);
		if (!v)
			return -1;
		as->a = v;
		as->cap = nc;
	}
	size_t len = strlen(name) + 1;
	char *copy = malloc(len);
	if (!copy)
		return -1;
	memcpy(copy, name, len);
	memmove(&as->a[at + 1], &as->a[at], (as->n - at) * sizeof *as->a);
	as->a[at] = (rd_array){.name = copy, .base = base, .bytes = bytes, .elem = elem, .width = width};
	as->n++;
	return 0;
}

/* One touched range: [a, a + bytes). */
typedef struct span {
	uint64_t a;
	uint64_t bytes;
} span;

static int span_cmp(const void *x, const void *y)
{
	const span *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->bytes > q->bytes) - (p->bytes < q->bytes);
}

rd_arrays *rd_arrays_detect(const rd_kernel *k, uint64_t gap)
{
	rd_arrays *as = rd_arrays_new();
	/* a version-2 .rdt counted its stores without their addresses */
	uint64_t ns = k->store_addr ? k->nstores : 0;
	uint64_t n = k->nloads + ns;
	span *v = malloc((n ? n : 1) * sizeof *v);
	uint64_t *count = calloc(65536, sizeof *count); /* per access size, reused */
	if (!as || !v || !count)
		goto fail;
	for (uint64_t i = 0; i < k->nloads; i++)
		v[i] = (span){k->addr[i], k->bytes[i] ? k->bytes[i] : 1};
	for (uint64_t i = 0; i < ns; i++)
		v[k->nloads + i] = (span){k->store_addr[i],
					  k->store_bytes && k->store_bytes[i] ? k->store_bytes[i] : 1};
	qsort(v, n, sizeof *v, span_cmp);
	for (uint64_t i = 0; i < n;) {
		uint64_t base = v[i].a, end = v[i].a + v[i].bytes, j = i;
		if (end < base)
			end = UINT64_MAX; /* (a range reaching past 2^64) */
		/* the region: ranges until one starts gap or more past the end */
		for (; j < n; j++) {
			if (v[j].a > end && v[j].a - end >= gap)
				break;
			uint64_t e = v[j].a + v[j].bytes;
			if (e < v[j].a)
				e = UINT64_MAX;
			if (e > end)
				end = e;
		}
		/* its element: the most common access size (the smallest on ties) */
		uint32_t best = 0;
		for (uint64_t x = i; x < j; x++)
			count[v[x].bytes]++;
		for (uint64_t x = i; x < j; x++) {
			uint32_t b = (uint32_t)v[x].bytes;
			if (!best || count[b] > count[best] || (count[b] == count[best] && b < best))
				best = b;
		}
		for (uint64_t x = i; x < j; x++)
			count[v[x].bytes] = 0;
		char name[32];
		snprintf(name, sizeof name, "a%u", as->n);
		if (end - base == 0 || rd_arrays_add(as, name, base, end - base, best, 0, NULL) < 0)
			goto fail;
		i = j;
	}
	free(v);
	free(count);
	return as;
fail:
	free(v);
	free(count);
	rd_arrays_free(as);
	return NULL;
}

int rd_arrays_count(const rd_arrays *as, const rd_kernel *k, rd_array_counts *out)
{
	uint32_t n = as ? as->n : 0;
	out->loads = calloc((size_t)n + 1, sizeof *out->loads);
	out->stores = calloc((size_t)n + 1, sizeof *out->stores);
	if (!out->loads || !out->stores) {
		rd_array_counts_free(out);
		return -1;
	}
	for (uint64_t i = 0; i < k->nloads; i++) {
		int64_t a = rd_arrays_find(as, k->addr[i]);
		out->loads[a < 0 ? n : (uint32_t)a]++;
	}
	if (!k->store_addr) /* stores without addresses (a version-2 .rdt): outside */
		out->stores[n] = k->nstores;
	for (uint64_t i = 0; k->store_addr && i < k->nstores; i++) {
		int64_t a = rd_arrays_find(as, k->store_addr[i]);
		out->stores[a < 0 ? n : (uint32_t)a]++;
	}
	return 0;
}

void rd_array_counts_free(rd_array_counts *c)
{
	free(c->loads);
	free(c->stores);
	c->loads = c->stores = NULL;
}
