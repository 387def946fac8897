/*
 * Exact miss counts of fully associative LRU caches on one access stream
 * (seed 004, HayStack's question; see rdscope.h, "counting"). Each level
 * is its own LRU list over dense line ids (every level sees the whole
 * stream: HayStack's inclusive global stack), so an access costs O(levels)
 * whatever the cache sizes; the line last accessed is a hit everywhere
 * and changes nothing (one comparison); and a loop iteration repeated on
 * the same lines is counted in O(n^2) of its n accesses, however often it
 * repeats (rd_count_repeat). Memory: a few words per distinct line and
 * level, never per access.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

/* Lines of skipped periods, kept as arithmetic instead of one by one (the
 * flat path's one loop down, rd_count_ghost): the lines x + e * step of
 * x in the runs and e = 1 .. times, x's last reference each. */
#define GHOST_MEET 64 /* periods' lines a ghost's line may be in at most (its runs' extent / |step|, less one) */

typedef struct ghost {
	uint64_t base;         /* the runs' first line */
	uint64_t lo, hi;       /* the lines covered lie in lo..hi */
	int64_t step;
	uint64_t times;
	rd_count_run *runs;    /* sorted, disjoint, within base .. base + |step| - 1 */
	size_t nruns;
	int dirty;             /* a line it covers touched since by another reference */
} ghost;

typedef struct level {
	uint64_t cap;      /* lines */
	uint64_t n;        /* lines held */
	uint32_t head, tail;
	uint32_t *prev, *next;
} level;

struct rd_count {
	uint32_t line_shift;   /* log2 of the line size, or 32 when not a power of two */
	uint32_t line;
	int nlevels;
	level lv[RD_COUNT_MAX_LEVELS];
	uint32_t nrefs;
	rd_count_ref *refs;
	uint8_t *reuse;        /* [nrefs * nrefs]: row r, column p: p's access last touched
				* the line before an access of r */
	/* lines: a hash map line -> dense id */
	uint64_t *keys;        /* line + 1 (0: empty) */
	uint32_t *vals;
	uint64_t hcap;         /* power of two */
	uint32_t nids, capids;
	uint16_t *in;          /* [id]: bit k set when level k holds the line */
	uint32_t *last_ref;    /* [id]: the reference that touched it last */
	uint64_t *id_line;     /* [id]: the line */
	uint32_t mru;          /* the line id accessed last, NIL before any */
	/* the ids of recent lines, direct-mapped by line (key line + 1, 0:
	 * empty): most accesses find their id without the hash map */
	uint64_t near_key[256];
	uint32_t near_id[256];
	int oom;
	uint64_t extra_lines;  /* distinct lines added by rd_count_extrapolate */
	/* ghosts, oldest first; gone[id]: the ghosts there were when the line
	 * last left the largest level (a ghost j >= it touched it later) */
	ghost *gh;
	size_t ngh, cgh;
	uint32_t *gone;
	/* which lines have ids, 64 to a page (line / 64 + 1 -> mask), kept
	 * once a ghost is made: a span's ids without a lookup per line */
	uint64_t *pkeys, *pmask;
	uint64_t pcap, pn;
};

rd_count *rd_count_new(uint32_t line, const uint64_t *lines, int nlevels, uint32_t nrefs)
{
	if (!line || nlevels < 1 || nlevels > RD_COUNT_MAX_LEVELS || !nrefs ||
	    nrefs > RD_COUNT_MAX_REFS)
		return NULL;
	for (int k = 0; k < nlevels; k++)
		if (!lines[k])
			return NULL;
	rd_count *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->line = line;
	c->line_shift = 32;
	if (!(line & (line - 1))) {
		c->line_shift = 0;
		while ((1u << c->line_shift) < line)
			c->line_shift++;
	}
	c->nlevels = nlevels;
	for (int k = 0; k < nlevels; k++) {
		c->lv[k].cap = lines[k];
		c->lv[k].head = c->lv[k].tail = NIL;
	}
	c->nrefs = nrefs;
	c->refs = calloc(nrefs, sizeof *c->refs);
	c->reuse = calloc((size_t)nrefs * nrefs, 1);
	c->hcap = 1024;
	c->keys = calloc(c->hcap, sizeof *c->keys);
	c->vals = malloc(c->hcap * sizeof *c->vals);
	c->mru = NIL;
	if (!c->refs || !c->reuse || !c->keys || !c->vals) {
		rd_count_free(c);
		return NULL;
	}
	return c;
}

void rd_count_free(rd_count *c)
{
	if (!c)
		return;
	for (int k = 0; k < c->nlevels; k++) {
		free(c->lv[k].prev);
		free(c->lv[k].next);
	}
	free(c->refs);
	free(c->reuse);
	free(c->keys);
	free(c->vals);
	free(c->in);
	free(c->last_ref);
	free(c->id_line);
	for (size_t i = 0; i < c->ngh; i++)
		free(c->gh[i].runs);
	free(c->gh);
	free(c->gone);
	free(c->pkeys);
	free(c->pmask);
	free(c);
}

static uint64_t hash(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 29);
}

static int grow_map(rd_count *c)
{
	uint64_t ncap = c->hcap * 2;
	uint64_t *k = calloc(ncap, sizeof *k);
	uint32_t *v = malloc(ncap * sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	pages_write(k, ncap * sizeof *k); /* (gemm at D = 1024: 230 of its 650 faults in line_id) */
	for (uint64_t i = 0; i < c->hcap; i++) {
		if (!c->keys[i])
			continue;
		uint64_t h = hash(c->keys[i]) & (ncap - 1);
		while (k[h])
			h = (h + 1) & (ncap - 1);
		k[h] = c->keys[i];
		v[h] = c->vals[i];
	}
	free(c->keys);
	free(c->vals);
	c->keys = k;
	c->vals = v;
	c->hcap = ncap;
	return 0;
}

static int grow_ids(rd_count *c)
{
	uint32_t n = c->capids ? c->capids * 2 : 1024;
	if (n <= c->capids) /* 2^32 lines */
		return -1;
	uint16_t *in = realloc(c->in, (size_t)n * sizeof *in);
	if (in)
		c->in = in;
	uint32_t *lr = realloc(c->last_ref, (size_t)n * sizeof *lr);
	if (lr)
		c->last_ref = lr;
	uint64_t *lo = realloc(c->id_line, (size_t)n * sizeof *lo);
	if (lo)
		c->id_line = lo;
	uint32_t *go = realloc(c->gone, (size_t)n * sizeof *go);
	if (go)
		c->gone = go;
	if (!in || !lr || !lo || !go)
		return -1;
	for (int k = 0; k < c->nlevels; k++) {
		uint32_t *p = realloc(c->lv[k].prev, (size_t)n * sizeof *p);
		if (p)
			c->lv[k].prev = p;
		uint32_t *q = realloc(c->lv[k].next, (size_t)n * sizeof *q);
		if (q)
			c->lv[k].next = q;
		if (!p || !q)
			return -1;
	}
	c->capids = n;
	return 0;
}

static int ghost_newest(const rd_count *c, uint64_t y, size_t since, uint32_t *ref, size_t *j);
static int page_set(rd_count *c, uint64_t line);

/* The line's id; *fresh when it is new. NIL when out of memory. */
static uint32_t line_id(rd_count *c, uint64_t line, int *fresh)
{
	uint64_t key = line + 1, h;
	unsigned slot = (unsigned)(line & 255);
	*fresh = 0;
	if (c->near_key[slot] == key)
		return c->near_id[slot];
	h = hash(key) & (c->hcap - 1);
	while (c->keys[h]) {
		if (c->keys[h] == key) {
			c->near_key[slot] = key;
			return c->near_id[slot] = c->vals[h];
		}
		h = (h + 1) & (c->hcap - 1);
	}
	if (c->nids == c->capids && grow_ids(c) < 0)
		return NIL;
	if ((uint64_t)(c->nids + 1) * 2 > c->hcap) {
		if (grow_map(c) < 0)
			return NIL;
		h = hash(key) & (c->hcap - 1);
		while (c->keys[h])
			h = (h + 1) & (c->hcap - 1);
	}
	uint32_t id = c->nids++;
	c->keys[h] = key;
	c->vals[h] = id;
	c->in[id] = 0;
	c->id_line[id] = line;
	c->gone[id] = (uint32_t)c->ngh;
	uint32_t r;
	size_t j;
	if (c->ngh && ghost_newest(c, line, 0, &r, &j))
		c->extra_lines--; /* a ghost's line: counted there */
	if (c->pcap && page_set(c, line) < 0)
		return NIL;
	*fresh = 1;
	c->near_key[slot] = key;
	return c->near_id[slot] = id;
}

static void unlink_id(level *L, uint32_t id)
{
	uint32_t p = L->prev[id], n = L->next[id];
	if (p != NIL)
		L->next[p] = n;
	else
		L->head = n;
	if (n != NIL)
		L->prev[n] = p;
	else
		L->tail = p;
}

static void push_front(level *L, uint32_t id)
{
	L->prev[id] = NIL;
	L->next[id] = L->head;
	if (L->head != NIL)
		L->prev[L->head] = id;
	else
		L->tail = id;
	L->head = id;
}

static uint64_t line_of(const rd_count *c, uint64_t addr)
{
	return c->line_shift < 32 ? addr >> c->line_shift : addr / c->line;
}

int rd_count_access(rd_count *c, uint64_t addr, uint32_t ref)
{
	if (c->oom || ref >= c->nrefs)
		return -1;
	rd_count_ref *R = &c->refs[ref];
	int fresh;
	uint32_t id = line_id(c, line_of(c, addr), &fresh);
	if (id == NIL) {
		c->oom = 1;
		return -1;
	}
	R->accesses++;
	if (id == c->mru) { /* the top of every stack: a hit everywhere */
		c->reuse[(size_t)ref * c->nrefs + c->last_ref[id]] = 1;
		c->last_ref[id] = ref;
		return 0;
	}
	uint32_t prev = c->last_ref[id];
	if (c->ngh && !c->in[id]) { /* out of every stack: a ghost may have touched it since */
		uint32_t gr;
		size_t j;
		if (ghost_newest(c, c->id_line[id], fresh ? 0 : c->gone[id], &gr, &j)) {
			fresh = 0;
			prev = gr;
			if (gr != ref)
				c->gh[j].dirty = 1;
		}
	}
	if (fresh)
		R->compulsory++;
	else
		c->reuse[(size_t)ref * c->nrefs + prev] = 1;
	for (int k = 0; k < c->nlevels; k++) {
		level *L = &c->lv[k];
		if (c->in[id] & (1u << k)) {
			unlink_id(L, id);
		} else {
			if (!fresh)
				R->capacity[k]++;
			if (L->n == L->cap) { /* evict the least recently used */
				uint32_t v = L->tail;
				unlink_id(L, v);
				c->in[v] &= (uint16_t)~(1u << k);
				c->gone[v] = (uint32_t)c->ngh;
			} else {
				L->n++;
			}
			c->in[id] |= (uint16_t)(1u << k);
		}
		push_front(L, id);
	}
	c->last_ref[id] = ref;
	c->mru = id;
	return 0;
}

int rd_count_repeat(rd_count *c, const uint64_t *addr, const uint32_t *ref, int n, uint64_t times)
{
	if (c->oom || n < 1 || n > RD_COUNT_MAX_REPEAT)
		return -1;
	if (!times)
		return 0;
	uint64_t ln[RD_COUNT_MAX_REPEAT];
	for (int p = 0; p < n; p++) {
		if (ref[p] >= c->nrefs)
			return -1;
		ln[p] = line_of(c, addr[p]);
	}
	/* In every repetition after the first, access p's previous access to
	 * its line is the one before it in the same iteration, else the last
	 * one of the iteration before: its stack distance is the number of
	 * distinct lines accessed in between (cyclically), the same each time.
	 * The stacks after each repetition are the ones after the first. */
	/* first[p]: the first access of the iteration on p's line */
	int first[RD_COUNT_MAX_REPEAT];
	for (int p = 0; p < n; p++) {
		first[p] = p;
		for (int q = 0; q < p; q++)
			if (ln[q] == ln[p]) {
				first[p] = first[q];
				break;
			}
	}
	for (int p = 0; p < n; p++) {
		/* back from p, cyclically, to the previous access of its line,
		 * counting the distinct lines met (each by its first access) */
		uint64_t met[(RD_COUNT_MAX_REPEAT + 63) / 64] = {0};
		int q = p, nseen = 0;
		for (int s = 1; s <= n; s++) {
			q = (p - s + n) % n;
			if (first[q] == first[p])
				break;
			int f = first[q];
			if (!(met[f >> 6] >> (f & 63) & 1)) {
				met[f >> 6] |= 1ull << (f & 63);
				nseen++;
			}
		}
		rd_count_ref *R = &c->refs[ref[p]];
		R->accesses += times;
		for (int k = 0; k < c->nlevels; k++)
			if ((uint64_t)nseen >= c->lv[k].cap)
				R->capacity[k] += times;
		c->reuse[(size_t)ref[p] * c->nrefs + ref[q]] = 1;
	}
	return 0;
}

const rd_count_ref *rd_count_refs(const rd_count *c)
{
	return c->refs;
}

int rd_count_reused(const rd_count *c, uint32_t r, uint32_t prev)
{
	return r < c->nrefs && prev < c->nrefs && c->reuse[(size_t)r * c->nrefs + prev];
}

uint64_t rd_count_lines(const rd_count *c)
{
	return c->nids + c->extra_lines;
}

int rd_count_seen(const rd_count *c, uint64_t line)
{
	uint64_t key = line + 1;
	for (uint64_t h = hash(key) & (c->hcap - 1); c->keys[h]; h = (h + 1) & (c->hcap - 1))
		if (c->keys[h] == key)
			return 1;
	uint32_t r;
	size_t j;
	return c->ngh && ghost_newest(c, line, 0, &r, &j);
}

int rd_count_reset(rd_count *c)
{
	uint64_t lines[RD_COUNT_MAX_LEVELS];
	for (int k = 0; k < c->nlevels; k++)
		lines[k] = c->lv[k].cap;
	rd_count *n = rd_count_new(c->line, lines, c->nlevels, c->nrefs);
	if (!n)
		return -1;
	rd_count old = *c;
	*c = *n;
	*n = old;
	rd_count_free(n); /* the old contents */
	return 0;
}

/* a += t * d, or -1 past 2^64 */
static int add_times(uint64_t *a, uint64_t d, uint64_t t)
{
	if (d && t > (UINT64_MAX - *a) / d)
		return -1;
	*a += d * t;
	return 0;
}

static int add_counts(rd_count *c, const rd_count_ref *delta, uint64_t times, int lines)
{
	/* checked first: nothing changes on failure */
	for (uint32_t i = 0; i < c->nrefs; i++) {
		uint64_t x = c->refs[i].accesses, y = c->refs[i].compulsory;
		if (add_times(&x, delta[i].accesses, times) < 0 ||
		    add_times(&y, delta[i].compulsory, times) < 0)
			return -1;
		for (int k = 0; k < c->nlevels; k++) {
			uint64_t z = c->refs[i].capacity[k];
			if (add_times(&z, delta[i].capacity[k], times) < 0)
				return -1;
		}
	}
	for (uint32_t i = 0; i < c->nrefs; i++) {
		add_times(&c->refs[i].accesses, delta[i].accesses, times);
		add_times(&c->refs[i].compulsory, delta[i].compulsory, times);
		if (lines)
			add_times(&c->extra_lines, delta[i].compulsory, times);
		for (int k = 0; k < c->nlevels; k++)
			add_times(&c->refs[i].capacity[k], delta[i].capacity[k], times);
	}
	return 0;
}

int rd_count_extrapolate(rd_count *c, const rd_count_ref *delta, uint64_t times)
{
	return add_counts(c, delta, times, 1);
}

int rd_count_add(rd_count *c, const rd_count_ref *delta, uint64_t times)
{
	return add_counts(c, delta, times, 0);
}

/* ---------------------------------------------------------------- the flat path's */

/* The line's id, or NIL when it was never accessed. */
static uint32_t find_id(const rd_count *c, uint64_t line)
{
	uint64_t key = line + 1;
	for (uint64_t h = hash(key) & (c->hcap - 1); c->keys[h]; h = (h + 1) & (c->hcap - 1))
		if (c->keys[h] == key)
			return c->vals[h];
	return NIL;
}

int rd_count_last(const rd_count *c, uint64_t line, uint32_t *ref)
{
	uint32_t id = find_id(c, line);
	size_t j;
	if (id == NIL)
		return c->ngh && ghost_newest(c, line, 0, ref, &j);
	if (c->ngh && !c->in[id] && ghost_newest(c, line, c->gone[id], ref, &j))
		return 1;
	*ref = c->last_ref[id];
	return 1;
}

int rd_count_note_reuse(rd_count *c, uint32_t r, uint32_t prev)
{
	if (r >= c->nrefs || prev >= c->nrefs)
		return -1;
	c->reuse[(size_t)r * c->nrefs + prev] = 1;
	return 0;
}

int rd_count_touch(rd_count *c, uint64_t line, uint32_t ref)
{
	int fresh;
	if (c->oom || ref >= c->nrefs)
		return -1;
	uint32_t id = line_id(c, line, &fresh);
	if (id == NIL) {
		c->oom = 1;
		return -1;
	}
	uint32_t gr;
	size_t j;
	if (c->ngh && ghost_newest(c, line, c->in[id] ? c->ngh : c->gone[id], &gr, &j) && gr != ref)
		c->gh[j].dirty = 1;
	c->last_ref[id] = ref;
	if (!c->in[id])
		c->gone[id] = (uint32_t)c->ngh;
	return 0;
}

uint64_t rd_count_max_lines(const rd_count *c)
{
	uint64_t m = 0;
	for (int k = 0; k < c->nlevels; k++)
		if (c->lv[k].cap > m)
			m = c->lv[k].cap;
	return m;
}

/* The level holding the most lines (every level's list is a prefix of
 * its: one stream, LRU). */
static int largest(const rd_count *c)
{
	int b = 0;
	for (int k = 1; k < c->nlevels; k++)
		if (c->lv[k].cap > c->lv[b].cap)
			b = k;
	return b;
}

size_t rd_count_stack(const rd_count *c, uint64_t *out, size_t max)
{
	const level *L = &c->lv[largest(c)];
	size_t n = 0;
	for (uint32_t id = L->head; id != NIL && n < max; id = L->next[id])
		out[n++] = c->id_line[id];
	return n;
}

int rd_count_held(const rd_count *c, uint64_t line)
{
	uint32_t id = find_id(c, line);
	return id != NIL && (c->in[id] >> largest(c) & 1);
}

static uint64_t page_get(const rd_count *c, uint64_t page);

int rd_count_held_any(const rd_count *c, uint64_t lo, uint64_t hi)
{
	for (uint64_t y = lo; y <= hi && y >= lo;) {
		uint64_t p = y >> 6, m = ~0ull << (y & 63);
		if (c->pcap) /* the lines with ids only */
			m &= page_get(c, p);
		for (; m; m &= m - 1) {
			uint64_t x = p << 6 | (uint64_t)__builtin_ctzll(m);
			if (x > hi)
				return 0;
			if (rd_count_held(c, x))
				return 1;
		}
		y = (p + 1) << 6;
	}
	return 0;
}

/* The stacks become ids[0..n) (rd_count_restack's); ids freed. */
static int restack_ids(rd_count *c, uint32_t *ids, size_t n)
{
	for (int k = 0; k < c->nlevels; k++) {
		level *L = &c->lv[k];
		for (uint32_t id = L->head; id != NIL; id = L->next[id]) {
			c->in[id] &= (uint16_t)~(1u << k);
			c->gone[id] = (uint32_t)c->ngh;
		}
		L->head = L->tail = NIL;
		L->n = 0;
		for (size_t i = n < L->cap ? n : L->cap; i-- > 0;) { /* the oldest first: each pushed to the front */
			if (c->in[ids[i]] & (1u << k)) { /* a line twice: not a stack */
				c->oom = 1;
				free(ids);
				return -1;
			}
			c->in[ids[i]] |= (uint16_t)(1u << k);
			push_front(L, ids[i]);
			L->n++;
		}
	}
	c->mru = ids[0];
	free(ids);
	return 0;
}

int rd_count_restack(rd_count *c, const uint64_t *lines, size_t n)
{
	if (c->oom)
		return -1;
	const level *B = &c->lv[largest(c)];
	if (n < B->n || !n)
		return -1;
	uint32_t *ids = malloc(n * sizeof *ids);
	if (!ids)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((ids[i] = find_id(c, lines[i])) == NIL) {
			free(ids);
			return -1;
		}
	return restack_ids(c, ids, n);
}

/* ---------------------------------------------------------------- ghosts */

/* Is y a line of ghost g? Its reference into *ref, the run's index into
 * *ri, the period (1 .. times) into *pe. */
static int ghost_at(const ghost *g, uint64_t y, uint32_t *ref, size_t *ri, uint64_t *pe)
{
	if (y < g->lo || y > g->hi)
		return 0;
	uint64_t w = g->step > 0 ? (uint64_t)g->step : (uint64_t)-g->step;
	uint64_t smax = g->runs[g->nruns - 1].hi, elo, ehi;
	/* the periods e whose x = y - e * step lies within the runs' lines:
	 * the latest one holding x wins (periods may meet: a later touch) */
	if (g->step > 0) {
		if (y < g->base)
			return 0;
		ehi = (y - g->base) / w;
		elo = y > smax ? (y - smax + w - 1) / w : 0;
	} else {
		if (y > smax)
			return 0;
		ehi = (smax - y) / w;
		elo = y < g->base ? (g->base - y + w - 1) / w : 0;
	}
	if (ehi > g->times)
		ehi = g->times;
	if (elo < 1)
		elo = 1;
	for (uint64_t e = ehi; e >= elo && e >= 1; e--) {
		uint64_t x = g->step > 0 ? y - e * w : y + e * w;
		size_t a = 0, b = g->nruns; /* the run holding x */
		while (a < b) {
			size_t m = a + (b - a) / 2;
			if (g->runs[m].hi < x)
				a = m + 1;
			else
				b = m;
		}
		if (a < g->nruns && g->runs[a].lo <= x) {
			*ref = g->runs[a].ref;
			*ri = a;
			*pe = e;
			return 1;
		}
	}
	return 0;
}

static int ghost_eval(const ghost *g, uint64_t y, uint32_t *ref, size_t *ri)
{
	uint64_t e;
	return ghost_at(g, y, ref, ri, &e);
}

/* The newest ghost j >= since holding line y: 1 with its reference. */
static int ghost_newest(const rd_count *c, uint64_t y, size_t since, uint32_t *ref, size_t *j)
{
	size_t ri;
	for (size_t i = c->ngh; i-- > since;)
		if (ghost_eval(&c->gh[i], y, ref, &ri)) {
			*j = i;
			return 1;
		}
	return 0;
}

static int page_set(rd_count *c, uint64_t line)
{
	if (2 * (c->pn + 1) > c->pcap) {
		uint64_t nc = c->pcap ? 2 * c->pcap : 1024;
		uint64_t *k = calloc(nc, sizeof *k), *m = malloc(nc * sizeof *m);
		if (!k || !m) {
			free(k);
			free(m);
			return -1;
		}
		for (uint64_t i = 0; i < c->pcap; i++) {
			if (!c->pkeys[i])
				continue;
			uint64_t h = hash(c->pkeys[i]) & (nc - 1);
			while (k[h])
				h = (h + 1) & (nc - 1);
			k[h] = c->pkeys[i];
			m[h] = c->pmask[i];
		}
		free(c->pkeys);
		free(c->pmask);
		c->pkeys = k;
		c->pmask = m;
		c->pcap = nc;
	}
	uint64_t key = (line >> 6) + 1, h = hash(key) & (c->pcap - 1);
	while (c->pkeys[h] && c->pkeys[h] != key)
		h = (h + 1) & (c->pcap - 1);
	if (!c->pkeys[h]) {
		c->pkeys[h] = key;
		c->pmask[h] = 0;
		c->pn++;
	}
	c->pmask[h] |= 1ull << (line & 63);
	return 0;
}

static uint64_t page_get(const rd_count *c, uint64_t page)
{
	uint64_t key = page + 1;
	for (uint64_t h = hash(key) & (c->pcap - 1); c->pkeys[h]; h = (h + 1) & (c->pcap - 1))
		if (c->pkeys[h] == key)
			return c->pmask[h];
	return 0;
}

/* The pages, from every id, the first time they are needed. */
static int pages_on(rd_count *c)
{
	if (c->pcap)
		return 0;
	if (page_set(c, 0) < 0) /* the table; line 0's bit undone below */
		return -1;
	c->pmask[hash(1) & (c->pcap - 1)] = 0;
	for (uint32_t id = 0; id < c->nids; id++)
		if (page_set(c, c->id_line[id]) < 0)
			return -1;
	return 0;
}

/* One sweep's ghost, checked; its runs copied. 0, or -1. */
static int ghost_make(const rd_count *c, const rd_count_sweep *sw, ghost *g)
{
	int64_t step = sw->step;
	uint64_t times = sw->times;
	const rd_count_run *runs = sw->runs;
	size_t nruns = sw->nruns;
	if (!step || !times || !nruns || step == INT64_MIN)
		return -1;
	uint64_t w = step > 0 ? (uint64_t)step : (uint64_t)-step;
	for (size_t i = 0; i < nruns; i++)
		if (runs[i].lo > runs[i].hi || runs[i].ref >= c->nrefs ||
		    (i && runs[i].lo <= runs[i - 1].hi))
			return -1;
	uint64_t ext = runs[nruns - 1].hi - runs[0].lo;
	if (ext / w >= GHOST_MEET || times > (UINT64_MAX >> 2) / w || runs[nruns - 1].hi > (UINT64_MAX >> 2) ||
	    (step < 0 && runs[0].lo < times * w))
		return -1;
	memset(g, 0, sizeof *g);
	g->base = runs[0].lo;
	g->step = step;
	g->times = times;
	g->nruns = nruns;
	if (step > 0) {
		g->lo = runs[0].lo + w;
		g->hi = runs[nruns - 1].hi + times * w;
	} else {
		g->lo = runs[0].lo - times * w;
		g->hi = runs[nruns - 1].hi - w;
	}
	if (!(g->runs = malloc(nruns * sizeof *g->runs)))
		return -1;
	memcpy(g->runs, runs, nruns * sizeof *runs);
	return 0;
}

/* How many of the stacks' lines ahead rd_count_ghost asks for the map
 * slot of the line it will look up: the 8,192 lines of gemm's 512 KiB
 * level at D = 1024 missed the CPU's caches once each, 3 times a run. */
#define ID_AHEAD 8

int rd_count_ghost(rd_count *c, const rd_count_sweep *sw, size_t nsw, const uint64_t *top,
		   size_t ntop)
{
	if (c->oom || !nsw || nsw > 64 || c->ngh + nsw >= UINT32_MAX - 1)
		return -1;
	if (pages_on(c) < 0) {
		c->oom = 1;
		return -1;
	}
	if (c->ngh + nsw > c->cgh) {
		size_t n = c->cgh ? 2 * c->cgh : 8;
		while (n < c->ngh + nsw)
			n *= 2;
		ghost *p = realloc(c->gh, n * sizeof *p);
		if (!p) {
			c->oom = 1;
			return -1;
		}
		c->gh = p;
		c->cgh = n;
	}
	ghost g[64];
	size_t made = 0;
	uint32_t *ids = NULL;
	int rc = 0;
	for (; made < nsw; made++)
		if (ghost_make(c, &sw[made], &g[made]) < 0) {
			rc = -1;
			goto out;
		}
	/* the stacks' lines among theirs: ids with their references (a new
	 * one was a first touch in the skipped periods: counted there); the
	 * others' ids (rd_count_restack's) */
	if (ntop < c->lv[largest(c)].n || !ntop || !(ids = malloc(ntop * sizeof *ids))) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < ntop; i++) {
		uint32_t r;
		size_t ri, k = 0;
		if (i + ID_AHEAD < ntop) { /* (a hint: the map may grow first) */
			uint64_t h = hash(top[i + ID_AHEAD] + 1) & (c->hcap - 1);
			__builtin_prefetch(&c->keys[h]);
			__builtin_prefetch(&c->vals[h]);
		}
		while (k < nsw && !ghost_eval(&g[k], top[i], &r, &ri))
			k++;
		if (k == nsw) {
			if ((ids[i] = find_id(c, top[i])) == NIL) {
				rc = -1;
				goto out;
			}
			continue;
		}
		uint64_t before = c->extra_lines;
		int fresh;
		uint32_t id = line_id(c, top[i], &fresh);
		if (id == NIL) {
			c->oom = 1;
			rc = -1;
			goto out;
		}
		if (fresh && c->extra_lines == before)
			c->extra_lines--;
		c->last_ref[id] = r;
		ids[i] = id;
	}
	rc = restack_ids(c, ids, ntop);
	ids = NULL;
	if (rc < 0)
		goto out;
	for (size_t k = 0; k < nsw; k++)
		c->gh[c->ngh++] = g[k];
	return 0;
out:
	free(ids);
	for (size_t k = 0; k < made; k++)
		free(g[k].runs);
	return rc;
}

size_t rd_count_ghosts(const rd_count *c)
{
	return c->ngh;
}

/* Does ghost g hold every line of lo..hi? 1 with their references in
 * refs, 0 none of them, -1 some. */
static int ghost_span(const ghost *g, uint64_t lo, uint64_t hi, uint8_t *refs)
{
	if (hi < g->lo || lo > g->hi)
		return 0;
	uint32_t r;
	size_t a, b;
	uint64_t ea, eb;
	if (g->runs[g->nruns - 1].hi - g->base >= (g->step > 0 ? (uint64_t)g->step : (uint64_t)-g->step)) {
		/* periods that meet: line by line */
		uint64_t n = 0;
		for (uint64_t y = lo; y <= hi; y++)
			if (ghost_at(g, y, &r, &a, &ea)) {
				n++;
				if (refs)
					refs[r] = 1;
			}
		return n == hi - lo + 1 ? 1 : n ? -1 : 0;
	}
	if (!ghost_at(g, lo, &r, &a, &ea) || !ghost_at(g, hi, &r, &b, &eb) || ea != eb || b < a)
		return -1;
	/* one period: the runs from lo's source to hi's joined */
	for (size_t i = a; i < b; i++)
		if (g->runs[i + 1].lo != g->runs[i].hi + 1)
			return -1;
	if (refs)
		for (size_t i = a; i <= b; i++)
			refs[g->runs[i].ref] = 1;
	return 1;
}

int rd_count_covered(const rd_count *c, size_t since, uint64_t lo, uint64_t hi)
{
	for (size_t i = c->ngh; i-- > since;)
		if (ghost_span(&c->gh[i], lo, hi, NULL) == 1)
			return 1;
	return 0;
}

int rd_count_span(rd_count *c, uint64_t lo, uint64_t hi, uint8_t *refs)
{
	if (c->oom || hi < lo || hi - lo > 4096)
		return -1;
	for (size_t i = c->ngh; i-- > 0;) {
		int k = ghost_span(&c->gh[i], lo, hi, refs);
		if (k < 0 || (k && c->gh[i].dirty))
			return -1;
		if (k)
			return 1;
	}
	if (pages_on(c) < 0) {
		c->oom = 1;
		return -1;
	}
	uint64_t n = 0;
	for (uint64_t p = lo >> 6; p <= hi >> 6; p++) {
		uint64_t m = page_get(c, p);
		uint64_t a = p == lo >> 6 ? lo & 63 : 0, b = p == hi >> 6 ? hi & 63 : 63;
		uint64_t want = (b == 63 ? ~0ull : (2ull << b) - 1) & ~((1ull << a) - 1);
		n += (uint64_t)__builtin_popcountll(m & want);
	}
	if (!n)
		return 0;
	if (n != hi - lo + 1)
		return -1;
	for (uint64_t y = lo; refs && y <= hi; y++) {
		uint32_t id = find_id(c, y);
		if (id == NIL)
			return -1;
		refs[c->last_ref[id]] = 1;
	}
	return 1;
}
