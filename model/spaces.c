/*
 * Memory spaces per array (seed 002, notes §B3.2): the names, a
 * configuration's placements resolved against a kernel's arrays (with the
 * paper's refusals), and the spaces stage: each warp instruction's lanes
 * split by the space of their address's array, through the texture cache,
 * the constant cache (broadcast, serialised replays) and shared-memory
 * banks. Global lanes are left to the L1 (coal_build skips the others).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const space_names[RD_NSPACES] = {"global", "texture", "texture2d", "constant",
						     "shared"};

const uint32_t rd_space_addr_instr[RD_NSPACES] = {2, 0, 0, 1, 1};

const char *rd_space_name(enum rd_space s)
{
	return (unsigned)s < RD_NSPACES ? space_names[s] : NULL;
}

int rd_space_parse(const char *s)
{
	for (int i = 0; i < RD_NSPACES; i++)
		if (strcmp(s, space_names[i]) == 0)
			return i;
	return -1;
}

enum rd_space rd_config_space(const rd_config *c, const char *name)
{
	for (uint32_t i = 0; i < c->mem_n; i++)
		if (strcmp(c->mem[i].name, name) == 0)
			return c->mem[i].space;
	return RD_SPACE_GLOBAL;
}

int rd_config_has_spaces(const rd_config *c)
{
	return c->mem_n > 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int rd_spaces_resolve(const rd_config *c, const rd_kernel *k, uint8_t *space_of, char *err,
		      size_t errlen)
{
	const rd_arrays *as = k->arrays;
	uint32_t n = as ? as->n : 0;
	if (space_of)
		memset(space_of, RD_SPACE_GLOBAL, n);
	for (uint32_t i = 0; i < c->mem_n; i++) {
		const rd_placement *p = &c->mem[i];
		int64_t ai = as ? rd_arrays_named(as, p->name) : -1;
		if (ai < 0) {
			char list[160] = "";
			size_t len = 0;
			for (uint32_t j = 0; j < n && len + 8 < sizeof list; j++) {
				int w = snprintf(list + len, sizeof list - len, "%s%s", j ? ", " : "",
						 as->a[j].name);
				len = w < 0 ? len : len + (size_t)w;
			}
			if (len >= sizeof list)
				memcpy(list + sizeof list - 4, "...", 4);
			FAIL("mem.%s: kernel %s has no array %s (%s%s)", p->name,
			     k->name ? k->name : "?", p->name, n ? "its arrays: " : "it has no arrays",
			     list);
		}
		const rd_array *a = &as->a[ai];
		if (p->space == RD_SPACE_TEXTURE || p->space == RD_SPACE_TEXTURE2D ||
		    p->space == RD_SPACE_CONSTANT) {
			uint64_t stores = 0;
			/* (a version-2 .rdt's stores have no addresses: none known) */
			for (uint64_t s = 0; k->store_addr && s < k->nstores; s++)
				stores += rd_arrays_find(as, k->store_addr[s]) == ai;
			if (stores)
				FAIL("mem.%s: %s is stored to (%llu stores) and %s memory is read-only",
				     p->name, p->name, (unsigned long long)stores,
				     rd_space_name(p->space));
		}
		if (p->space == RD_SPACE_TEXTURE2D && !a->width)
			FAIL("mem.%s: texture2d needs a 2D layout and %s has no row width (give "
			     "--arrays a width, or use texture)", p->name, p->name);
		if (p->space == RD_SPACE_CONSTANT && a->bytes > RD_CONST_BYTES)
			FAIL("mem.%s: %s is %llu bytes, more than constant memory's %u", p->name,
			     p->name, (unsigned long long)a->bytes, RD_CONST_BYTES);
		if (p->space == RD_SPACE_SHARED && a->bytes > c->smem_size)
			FAIL("mem.%s: %s is %llu bytes, more than smem.size (%u) shared memory per "
			     "block", p->name, p->name, (unsigned long long)a->bytes, c->smem_size);
		if (space_of)
			space_of[ai] = (uint8_t)p->space;
	}
	return 0;
}

int rd_spaces_check(const rd_config *c, const rd_kernel *k, char *err, size_t errlen)
{
	return rd_spaces_resolve(c, k, NULL, err, errlen);
}

/* ---- the stage ---------------------------------------------------------- */

/* A per-core set-associative LRU cache of line addresses. */
typedef struct lru {
	uint32_t sets, ways, shift;
	uint64_t *tag;   /* [cores * sets * ways], UINT64_MAX = empty */
	uint64_t *stamp; /* the same: last use */
	uint64_t clock;
} lru;

static uint32_t log2u(uint64_t v)
{
	uint32_t r = 0;
	while (v > 1)
		v >>= 1, r++;
	return r;
}

static int lru_init(lru *l, uint32_t size, uint32_t line, uint32_t ways, uint32_t cores)
{
	memset(l, 0, sizeof *l);
	l->ways = ways;
	l->sets = size / line / ways;
	if (!l->sets)
		l->sets = 1;
	l->shift = log2u(line);
	size_t n = (size_t)cores * l->sets * ways;
	l->tag = malloc(n * sizeof *l->tag);
	l->stamp = calloc(n, sizeof *l->stamp);
	if (!l->tag || !l->stamp)
		return -1;
	memset(l->tag, 0xff, n * sizeof *l->tag);
	return 0;
}

static void lru_free(lru *l)
{
	free(l->tag);
	free(l->stamp);
}

/* Look addr's line up in core's cache: 1 hit, 0 miss (then filled). */
static int lru_access(lru *l, uint32_t core, uint64_t addr)
{
	uint64_t line = addr >> l->shift;
	size_t base = ((size_t)core * l->sets + line % l->sets) * l->ways;
	size_t victim = base;
	l->clock++;
	for (size_t w = base; w < base + l->ways; w++) {
		if (l->tag[w] == line) {
			l->stamp[w] = l->clock;
			return 1;
		}
		if (l->stamp[w] < l->stamp[victim])
			victim = w;
	}
	l->tag[victim] = line;
	l->stamp[victim] = l->clock;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort v[0..n) and drop repeats: the number of distinct values. */
static uint32_t distinct(uint64_t *v, uint32_t n)
{
	if (n < 2)
		return n;
	qsort(v, n, sizeof *v, cmp_u64);
	uint32_t d = 1;
	for (uint32_t i = 1; i < n; i++)
		if (v[i] != v[d - 1])
			v[d++] = v[i];
	return d;
}

void spaces_tile_shape(uint32_t line, uint32_t elem, uint32_t *tw, uint32_t *th)
{
	uint32_t n = elem && line >= elem ? line / elem : 1;
	uint32_t b = log2u(n);
	*th = 1u << (b / 2);
	*tw = n / *th ? n / *th : 1;
}

uint64_t spaces_tex2d_addr(const rd_array *a, uint32_t line, uint64_t addr)
{
	uint32_t tw, th;
	spaces_tile_shape(line, a->elem, &tw, &th);
	uint64_t off = addr - a->base, idx = off / a->elem, byte = off % a->elem;
	uint64_t r = idx / a->width, col = idx % a->width;
	uint64_t ntx = (a->width + tw - 1) / tw;
	uint64_t tile = (r / th) * ntx + col / tw;
	return a->base + ((tile * th + r % th) * tw + col % tw) * a->elem + byte;
}

uint32_t spaces_shared_replays(const uint64_t *addr, uint32_t n, uint32_t banks, uint32_t width,
			       uint64_t *scratch)
{
	/* distinct words, then the most of them in one bank */
	for (uint32_t i = 0; i < n; i++)
		scratch[i] = addr[i] / width;
	uint32_t d = distinct(scratch, n), most = 0;
	for (uint32_t i = 0; i < d; i++) {
		uint32_t same = 0;
		for (uint32_t j = 0; j < d; j++)
			same += scratch[j] % banks == scratch[i] % banks;
		if (same > most)
			most = same;
	}
	return most ? most - 1 : 0;
}

/* One warp instruction's lanes of one space (addr[0..n)). */
/* Where texture and constant misses go on to the L2 (or DRAM): one
 * request per miss at L1-line granularity, at the core's warp-instruction
 * ordinal (the caller rescales it to steps). NULL: nowhere. */
typedef struct offchip {
	sim_counts *out;
	uint32_t l1_shift;
	uint64_t ord;
	int failed;
} offchip;

static void offchip_miss(offchip *o, uint64_t addr, uint32_t core)
{
	if (o && o->out && l2s_add(o->out, o->ord, addr >> o->l1_shift, core, 0) < 0)
		o->failed = 1;
}

static void space_instr(rd_space_stats *st, int sp, const rd_config *c, uint32_t core,
			uint64_t *addr, uint32_t n, uint64_t *scratch, lru *tex, lru *cst,
			offchip *oc)
{
	st->instructions++;
	st->address_instructions += rd_space_addr_instr[sp];
	switch (sp) {
	case RD_SPACE_GLOBAL: { /* rule 1: a request per line, the others replays */
		uint32_t sh = log2u(c->l1_line);
		for (uint32_t i = 0; i < n; i++)
			scratch[i] = addr[i] >> sh;
		st->replays += distinct(scratch, n) - 1;
		return;
	}
	case RD_SPACE_TEXTURE:
	case RD_SPACE_TEXTURE2D: {
		for (uint32_t i = 0; i < n; i++)
			scratch[i] = addr[i] >> tex->shift;
		uint32_t d = distinct(scratch, n);
		for (uint32_t i = 0; i < d; i++) {
			int h = lru_access(tex, core, scratch[i] << tex->shift);
			st->hits += (uint64_t)h;
			st->misses += (uint64_t)!h;
			if (!h)
				offchip_miss(oc, scratch[i] << tex->shift, core);
		}
		st->requests += d;
		return;
	}
	case RD_SPACE_CONSTANT: { /* rules 2-3 */
		memcpy(scratch, addr, n * sizeof *addr);
		uint32_t d = distinct(scratch, n);
		st->requests += d;
		st->replays += d - 1;
		for (uint32_t i = 0; i < d; i++) {
			int h = lru_access(cst, core, scratch[i]);
			st->hits += (uint64_t)h;
			st->misses += (uint64_t)!h;
			st->replays += (uint64_t)!h;
			if (!h)
				offchip_miss(oc, scratch[i], core);
		}
		return;
	}
	default: /* shared: rule 4 */
		st->requests++;
		st->hits++;
		st->replays += spaces_shared_replays(addr, n, c->smem_banks, c->smem_bank_width,
						     scratch);
		return;
	}
}

int spaces_run(const rd_kernel *k, const rd_sched *s, const rd_config *c,
	       const uint8_t *space_of, rd_space_stats *out, struct sim_counts *miss_out,
	       uint64_t *core_instr, const rd_callbacks *cb)
{
	offchip oc = {.out = miss_out, .l1_shift = log2u(c->l1_line)};
	memset(out, 0, RD_NSPACES * sizeof *out);
	uint32_t ws = s->warp_size ? s->warp_size : 1, cores = s->ncores ? s->ncores : 1;
	uint32_t wave = s->active_blocks ? s->active_blocks : 1, wpb = s->warps_per_block;
	lru tex, cst;
	uint64_t *lane = malloc((size_t)ws * RD_NSPACES * sizeof *lane);
	uint64_t *scratch = malloc((size_t)ws * sizeof *scratch);
	uint32_t *warps = malloc((size_t)wave * (wpb ? wpb : 1) * sizeof *warps);
	int rc = RD_ENOMEM;
	int ti = lru_init(&tex, c->tex_size, c->tex_line, c->tex_ways, cores);
	int ci = lru_init(&cst, c->const_size, c->const_line, c->const_ways, cores);
	if (ti < 0 || ci < 0 || !lane || !scratch || !warps)
		goto out;
	const rd_arrays *as = k->arrays;
	uint64_t done = 0;
	/* Each core's blocks in dispatch order, a wave of active_blocks at a
	 * time; a wave's warps take turns instruction by instruction [ours]. */
	for (uint32_t core = 0; core < s->ncores; core++) {
		oc.ord = 0;
		for (uint32_t b0 = s->core_first[core]; b0 < s->core_first[core + 1]; b0 += wave) {
			uint32_t b1 = b0 + wave < s->core_first[core + 1] ? b0 + wave : s->core_first[core + 1];
			uint32_t nw = 0;
			uint64_t kmax = 0;
			for (uint32_t b = b0; b < b1; b++)
				for (uint32_t j = 0; j < wpb; j++) {
					uint32_t w = s->core_blocks[b] * wpb + j;
					if (!s->warp_nt[w])
						continue;
					warps[nw++] = w;
					for (uint32_t i = 0; i < s->warp_nt[w]; i++) {
						uint64_t l = kernel_loads(k, s->warp_t0[w] + i);
						kmax = l > kmax ? l : kmax;
					}
				}
			if (cb && cb->progress && (++done & 255) == 0 && cb->progress(cb->ctx, 0.0)) {
				rc = RD_ECANCELED;
				goto out;
			}
			for (uint64_t kk = 0; kk < kmax; kk++)
				for (uint32_t x = 0; x < nw; x++) {
					uint32_t w = warps[x], n[RD_NSPACES] = {0};
					for (uint32_t i = 0; i < s->warp_nt[w]; i++) {
						uint32_t t = s->warp_t0[w] + i;
						if (kk >= kernel_loads(k, t))
							continue;
						uint64_t a = k->addr[k->thread_first[t] + kk];
						int64_t ai = as ? rd_arrays_find(as, a) : -1;
						int sp = ai < 0 ? RD_SPACE_GLOBAL : space_of[ai];
						if (sp == RD_SPACE_TEXTURE2D)
							a = spaces_tex2d_addr(&as->a[ai], c->tex_line, a);
						lane[(size_t)sp * ws + n[sp]++] = a;
					}
					for (int sp = 0; sp < RD_NSPACES; sp++)
						if (n[sp])
							space_instr(&out[sp], sp, c, core,
								    &lane[(size_t)sp * ws], n[sp],
								    scratch, &tex, &cst, &oc);
					oc.ord++;
				}
		}
		if (core_instr)
			core_instr[core] = oc.ord;
		if (oc.failed)
			goto out;
	}
	rc = RD_OK;
out:
	lru_free(&tex); /* lru_init clears first: safe after a failure */
	lru_free(&cst);
	free(lane);
	free(scratch);
	free(warps);
	return rc;
}
