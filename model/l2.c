/*
 * The L2 stage: RDGC's L2 trace construction and L2 analysis (seed 001,
 * Algorithm 1; notes §A8), after every core's L1 has run.
 *
 *  1. merge: the cores' streams of requests leaving their L1 (step, core,
 *     L1 line, read or write) ordered by step, and within a step
 *     round-robin across the cores from core 0 (one request of each core
 *     with requests left at that step, in turn);
 *  2. to L2 lines: an L1 line larger than the L2's becomes one request per
 *     L2 line, in address order; a smaller one a request of its L2 line;
 *  3. placement: the byte address's stripe of l2.interleave bytes picks
 *     the partition (stripe mod partitions), then the bank within it
 *     ((stripe / partitions) mod banks); the line with the partition and
 *     bank digits taken out picks the set within the bank (l2.hash over
 *     the bank's sets); partition p uses MSHR set p * sets / partitions;
 *  4. the banks (pcache.c): each L2 step first admits the requests whose L1
 *     step is at most it, in the merged order; then each waiting request,
 *     oldest first, takes a free port of its bank and is tried; a
 *     reservation fail keeps waiting (with its port: it is older).
 *
 * Classes: compulsory, latency (merges), write_evict (l2.stores=evict),
 * and of the other misses those a fully associative cache of each bank's
 * lines, fed the same effects at the same times, would hit are
 * associativity misses, the rest capacity: Hill's three Cs per access, as
 * the L1's classes=per-access ([ours]: at the L1 the paper splits them by
 * the difference of two runs; here one run costs half). Calls nothing
 * above it.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The merged stream, as L2 requests: 9 to 10 bytes a request (18 with
 * 8-byte steps and 4-byte cores). */
typedef struct l2stream {
	uint64_t n;
	uint8_t *t;      /* steps, read in order: varints of the zigzagged
			  * differences (l2pack's), tlen bytes; a step's
			  * requests after the first take a byte */
	uint64_t tlen, tcap, tlast;
	uint32_t *line;  /* dense L2 line id */
	uint16_t *core;  /* (gpu.cores <= 4096) */
	uint8_t *store;
	uint8_t *sect;   /* l2.sector: the L2 line's sectors asked; else NULL */
	uint32_t nlines;
	uint64_t *line_addr; /* [nlines] L2 line address */
} l2stream;

static void stream_free(l2stream *s)
{
	free(s->t);
	free(s->line);
	free(s->core);
	free(s->store);
	free(s->sect);
	free(s->line_addr);
	memset(s, 0, sizeof *s);
}

/* A reader of the stream's steps, from its first: t_next gives the next. */
typedef struct tcur {
	const uint8_t *p;
	uint64_t t;
} tcur;

static inline uint64_t t_next(tcur *c)
{
	c->t += l2pack_unzig(l2pack_varint(&c->p));
	return c->t;
}

static int log2u64(uint64_t v)
{
	int n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

/* l2.sector: the sectors (of s2 bytes) of the L2 line a2 (of 1 << sh2
 * bytes) that an L1 request of the line at byte asks for: its sectors m1
 * of s1 bytes (m1 or s1 0: the whole L1 line of l1 bytes). */
static uint8_t sect_of(uint64_t byte, uint32_t l1, uint32_t s1, uint32_t m1, uint64_t a2,
		       int sh2, uint32_t s2)
{
	uint64_t base = a2 << sh2, end = base + ((uint64_t)1 << sh2);
	uint32_t n1 = s1 && m1 ? l1 / s1 : 1, len = s1 && m1 ? s1 : l1;
	uint8_t m = 0;
	for (uint32_t i = 0; i < n1; i++) {
		if (s1 && m1 && !(m1 >> i & 1))
			continue;
		uint64_t lo = byte + (uint64_t)i * len, hi = lo + len;
		if (lo < base)
			lo = base;
		if (hi > end)
			hi = end;
		for (uint64_t b = lo; b < hi; b = (b - base) / s2 * s2 + base + s2)
			m |= (uint8_t)(1u << ((b - base) / s2));
	}
	return m;
}

/* Step 2: an L1 request q's L2 lines (per of them, sh1/sh2 the L1's and
 * L2's line shifts) in a2[], with their sectors in m[] when s2 (l2.sector;
 * s1 is l1.sector): how many (an L2 line none of whose sectors the request
 * asks for, of an L1 line larger than the L2's, is not asked). */
static uint32_t split(const l2req *q, uint64_t per, int sh1, int sh2, uint32_t l1_line,
		      uint32_t s1, uint32_t s2, uint64_t *a2, uint8_t *m)
{
	uint64_t byte = q->line << sh1;
	uint32_t n = 0;
	for (uint64_t j = 0; j < per; j++) {
		a2[n] = (byte >> sh2) + j;
		m[n] = s2 ? sect_of(byte, l1_line, s1, q->sect, a2[n], sh2, s2) : 0;
		n += !s2 || m[n];
	}
	return n;
}

/* A line's dense id (a new one numbered next). -1: out of memory. */
static int64_t line_id(linemap *map, uint64_t a2)
{
	uint64_t slot;
	int64_t id = linemap_find(map, a2, &slot);
	if (id == -2) { /* a new line */
		id = (int64_t)map->n;
		linemap_put(map, slot, a2, (uint32_t)id);
	}
	return id;
}

/* Lines named a few records late, each one's slot asked for when it is
 * queued (a map of megabytes: a launch of fdtd-2d names 400 K lines, each
 * a cache miss), in the order queued: the same ids as at once. */
enum { NQ = 16 };
typedef struct nameq {
	uint64_t a[NQ], at[NQ]; /* the line, and where its id goes (the caller's) */
	uint32_t head, n;
} nameq;

/* The oldest queued line named: 1 with its id and at, 0 none queued, -1
 * out of memory. */
static int nq_pop(nameq *q, linemap *map, int64_t *id, uint64_t *at)
{
	if (!q->n)
		return 0;
	if ((*id = line_id(map, q->a[q->head])) < 0)
		return -1;
	*at = q->at[q->head];
	q->head = (q->head + 1) % NQ;
	q->n--;
	return 1;
}

/* a2 queued; the oldest named first when the queue is full (nq_pop's
 * answer, else 0). */
static int nq_push(nameq *q, linemap *map, uint64_t a2, uint64_t at, int64_t *id, uint64_t *at_out)
{
	int r = q->n == NQ ? nq_pop(q, map, id, at_out) : 0;
	if (r < 0)
		return r;
	uint32_t t = (q->head + q->n) % NQ;
	q->a[t] = a2;
	q->at[t] = at;
	q->n++;
	if (map->mask >= LINEMAP_PF_MIN)
		linemap_prefetch(map, a2);
	return r;
}

/* s's lines' addresses, by id, from the map that named them: 0, -1. */
static int stream_lines(l2stream *s, const linemap *map)
{
	s->nlines = (uint32_t)map->n;
	s->line_addr = malloc((map->n ? map->n : 1) * sizeof *s->line_addr);
	if (!s->line_addr)
		return -1;
	for (uint64_t i = 0; i <= map->mask; i++)
		if (map->slot[i].key)
			s->line_addr[map->slot[i].val] = map->slot[i].key - 1;
	return 0;
}

/* One merged request q's L2 requests appended to s (the scratch a2, m of
 * per each). 0, or -1: out of memory. */
static int stream_put(l2stream *s, linemap *map, nameq *nq, const l2req *q, uint64_t per, int sh1,
		      int sh2, uint32_t l1_line, uint32_t s1, uint32_t s2, uint64_t *a2, uint8_t *m)
{
	uint32_t k = split(q, per, sh1, sh2, l1_line, s1, s2, a2, m);
	for (uint32_t j = 0; j < k; j++) {
		if (s->tcap - s->tlen < 10) {
			uint64_t nc = s->tcap + s->tcap / 2 + 64;
			uint8_t *tb = realloc(s->t, nc);
			if (!tb)
				return -1;
			s->t = tb;
			s->tcap = nc;
		}
		s->tlen = (uint64_t)(l2pack_put(s->t + s->tlen, l2pack_zig(q->t - s->tlast)) - s->t);
		s->tlast = q->t;
		int64_t id;
		uint64_t at;
		int r = nq_push(nq, map, a2[j], s->n, &id, &at);
		if (r < 0)
			return -1;
		if (r)
			s->line[at] = (uint32_t)id;
		s->core[s->n] = (uint16_t)q->core;
		s->store[s->n] = (uint8_t)q->store;
		if (s2)
			s->sect[s->n] = m[j];
		s->n++;
	}
	return 0;
}

/* A reader of one core's run of a pack in a file (l2pack spill_at): the
 * run's next bytes in buf, cur.p among them, off the file's next byte. */
enum { FRD_BUF = 1 << 15, FRD_REC = 48 /* > a record's most bytes */ };
typedef struct frd {
	uint64_t off;
	uint8_t *buf;
	uint32_t have;
	l2pack_cur cur;
} frd;

/* At least a record's bytes at r->cur.p, or the file's last: 0, -1 (a
 * read failed). */
static int frd_fill(FILE *f, uint64_t flen, frd *r)
{
	uint32_t rem = (uint32_t)(r->buf + r->have - r->cur.p);
	if (rem >= FRD_REC || r->off >= flen)
		return 0;
	memmove(r->buf, r->cur.p, rem);
	uint64_t n = FRD_BUF - rem;
	if (n > flen - r->off)
		n = flen - r->off;
	if (fseek(f, (long)r->off, SEEK_SET) != 0 || fread(r->buf + rem, 1, n, f) != n)
		return -1;
	r->off += n;
	r->have = rem + (uint32_t)n;
	r->cur.p = r->buf;
	return 0;
}

/* Step 1, as a reader: each core's records in their order, the cores
 * merged round-robin by step (mrg_next gives the next). Where every
 * core's records lie together in c0 (a kernel in parts: a part's after
 * another's), they are read in place, from its records, its pack or its
 * pack's file (a buffer a core); else through an index of its records by
 * core (8 bytes a record; a pack is first unpacked, 24). */
typedef struct mrg {
	uint32_t ncores;
	uint64_t total;     /* the records */
	const l2req *v;     /* records in memory, and byc their index by core or NULL */
	uint64_t *byc;
	l2pack_cur *cur;    /* a pack in memory: each core's reader; or */
	frd *fr;            /* a pack in a file: each core's */
	FILE *f;
	uint64_t flen;
	uint64_t *first, *pos, *end;
	l2req *head;        /* each core's next */
	uint32_t *at, nat, i, k; /* the cores at step tmin, at[i] next; k kept */
	uint64_t tmin;
	wheap h;
	sim_counts un;      /* a pack not together, unpacked */
	int ioerr;          /* the file could not be read */
} mrg;

static void mrg_free(mrg *m)
{
	for (uint32_t c = 0; m->fr && c < m->ncores; c++)
		free(m->fr[c].buf);
	free(m->fr);
	free(m->cur);
	free(m->byc);
	free(m->first);
	free(m->pos);
	free(m->end);
	free(m->head);
	free(m->at);
	wheap_free(&m->h);
	counts_free(&m->un);
	memset(m, 0, sizeof *m);
}

/* head[c]: core c's next record, while pos[c] < end[c]. 0, -1 (a read). */
static int mrg_load(mrg *m, uint32_t c)
{
	if (m->pos[c] >= m->end[c])
		return 0;
	if (m->fr) {
		if (frd_fill(m->f, m->flen, &m->fr[c]) < 0) {
			m->ioerr = 1;
			return -1;
		}
		l2pack_next(&m->fr[c].cur, &m->head[c]);
	} else if (m->cur) {
		l2pack_next(&m->cur[c], &m->head[c]);
	} else {
		m->head[c] = m->v[m->byc ? m->byc[m->pos[c]] : m->pos[c]];
	}
	return 0;
}

/* The pack's runs found (each core's first byte, its records counted):
 * 0; 1: a core's records are not together; -1: memory or a read. */
static int mrg_find_runs(mrg *m, const l2pack *pk)
{
	frd r = {0};
	l2pack_cur sc = {.p = pk->b};
	if (m->f) {
		if (!(r.buf = malloc(FRD_BUF)))
			return -1;
		r.cur.p = r.buf;
	}
	int rc = 0;
	for (uint64_t i = 0; i < pk->n; i++) {
		if (m->f && frd_fill(m->f, m->flen, &r) < 0) {
			rc = -1;
			break;
		}
		l2pack_cur *c = m->f ? &r.cur : &sc;
		const uint8_t *at = c->p;
		uint64_t off = m->f ? r.off - r.have + (uint64_t)(at - r.buf) : 0; /* (in the file) */
		l2req q;
		int start = l2pack_next(c, &q);
		uint32_t core = q.core;
		if (core >= m->ncores)
			continue;
		if (start && m->first[core + 1]) {
			rc = 1;
			break;
		}
		if (start && m->f)
			m->fr[core].off = off;
		else if (start)
			m->cur[core].p = at;
		m->first[core + 1]++;
	}
	free(r.buf);
	return rc;
}

/* c0's records, ready for mrg_next. 0, -1 (memory, or the pack's file). */
static int mrg_open(mrg *m, const sim_counts *c0, uint32_t ncores)
{
	memset(m, 0, sizeof *m);
	m->ncores = ncores;
	const sim_counts *src = c0;
	m->first = calloc((size_t)ncores + 1, sizeof *m->first);
	m->pos = calloc((size_t)ncores + 1, sizeof *m->pos);
	m->end = calloc((size_t)ncores + 1, sizeof *m->end);
	m->head = malloc(((size_t)ncores + 1) * sizeof *m->head);
	if (!m->first || !m->pos || !m->end || !m->head)
		goto fail;
	/* together: each core's records one run (pos: its start, end: its
	 * end, while they are) */
	int together = 1;
	if (c0->pk.n) {
		if (c0->pk.f && c0->pk.len) /* (rd_parts_finish flushes it) */
			goto fail;
		if (c0->pk.f) {
			m->f = c0->pk.f;
			m->flen = c0->pk.flen;
			if (!(m->fr = calloc((size_t)ncores + 1, sizeof *m->fr)))
				goto fail;
		} else if (!(m->cur = calloc((size_t)ncores + 1, sizeof *m->cur))) {
			goto fail;
		}
		int r = mrg_find_runs(m, &c0->pk);
		if (r < 0)
			goto fail;
		if (r) {
			together = 0;
			if (l2pack_load(&m->un.pk, &c0->pk) < 0 || l2pack_unpack(&m->un) < 0)
				goto fail;
			src = &m->un;
			free(m->cur);
			free(m->fr);
			m->cur = NULL;
			m->fr = NULL;
			m->f = NULL;
			memset(m->first, 0, ((size_t)ncores + 1) * sizeof *m->first);
		}
	}
	uint64_t n = src->nl2s;
	const l2req *v = m->v = src->l2s;
	for (uint64_t i = 0; !m->cur && !m->fr && i < n; i++) {
		uint32_t c = v[i].core;
		if (c >= ncores)
			continue;
		if (!m->first[c + 1])
			m->pos[c] = i;
		else if (m->end[c] != i)
			together = 0;
		m->end[c] = i + 1;
		m->first[c + 1]++;
	}
	for (uint32_t c = 0; c < ncores; c++)
		m->first[c + 1] += m->first[c];
	m->total = m->first[ncores];
	if (m->cur || m->fr) {
		for (uint32_t c = 0; c < ncores; c++) {
			m->pos[c] = 0;
			m->end[c] = m->first[c + 1] - m->first[c];
			if (m->fr && m->end[c]) {
				if (!(m->fr[c].buf = malloc(FRD_BUF)))
					goto fail;
				m->fr[c].cur.p = m->fr[c].buf;
			}
		}
	} else if (!together) {
		/* the index: byc[first[c] ..] core c's records in their order */
		uint64_t *slot = malloc(((size_t)ncores + 1) * sizeof *slot);
		m->byc = malloc((n ? n : 1) * sizeof *m->byc);
		if (!slot || !m->byc) {
			free(slot);
			goto fail;
		}
		memcpy(slot, m->first, ((size_t)ncores + 1) * sizeof *slot);
		for (uint64_t i = 0; i < n; i++) /* stable: each core's issue order */
			if (v[i].core < ncores)
				m->byc[slot[v[i].core]++] = i;
		free(slot);
		for (uint32_t c = 0; c < ncores; c++) {
			m->pos[c] = m->first[c];
			m->end[c] = m->first[c + 1];
		}
	}
	for (uint32_t c = 0; c < ncores; c++)
		if (m->pos[c] > m->end[c]) /* (a core without records) */
			m->pos[c] = m->end[c];
	/* round-robin by step: the cores with records left in a heap by their
	 * next step (and core); a step's cores taken out in core order, and
	 * one record of each in turn while any is still at the step (a scan
	 * of every core a step cost 132 compares a record on a sampled SM) */
	if (!(m->at = malloc(((size_t)ncores + 1) * sizeof *m->at)))
		goto fail;
	for (uint32_t c = 0; c < ncores; c++)
		if (m->pos[c] < m->end[c] &&
		    (mrg_load(m, c) < 0 || wheap_push(&m->h, m->head[c].t, c, c) < 0))
			goto fail;
	return 0;
fail:
	mrg_free(m);
	return -1;
}

/* The merged stream's next record in *q: 1; 0 at its end; -1 (a read or
 * memory). */
static int mrg_next(mrg *m, l2req *q)
{
	for (;;) {
		if (m->i < m->nat) {
			uint32_t c = m->at[m->i++];
			*q = m->head[c];
			m->pos[c]++;
			if (mrg_load(m, c) < 0)
				return -1;
			if (m->pos[c] >= m->end[c])
				return 1;
			if (m->head[c].t <= m->tmin)
				m->at[m->k++] = c;
			else if (wheap_push(&m->h, m->head[c].t, c, c) < 0)
				return -1;
			return 1;
		}
		if (m->k) { /* the step's cores again, in turn */
			m->nat = m->k;
			m->i = m->k = 0;
			continue;
		}
		if (!m->h.n)
			return 0;
		m->tmin = m->h.v[0].at;
		m->nat = m->i = 0;
		while (m->h.n && m->h.v[0].at == m->tmin)
			m->at[m->nat++] = wheap_pop(&m->h).w;
	}
}

/* Steps 1 and 2 (and each request's L2 sectors when s2, l2.sector, is
 * set; s1 is l1.sector): the merged records put into s in their order. */
static int stream_build(l2stream *s, const sim_counts *c0, uint32_t ncores, uint32_t l1_line,
			uint32_t l2_line, uint32_t s1, uint32_t s2)
{
	memset(s, 0, sizeof *s);
	uint64_t per = l1_line > l2_line ? l1_line / l2_line : 1;
	int rc = -1;
	linemap map = {0};
	mrg m;
	uint64_t *a2 = malloc(per * sizeof *a2);
	uint8_t *sm = malloc(per);
	if (!a2 || !sm || mrg_open(&m, c0, ncores) < 0) {
		free(a2);
		free(sm);
		return -1;
	}
	uint64_t total = m.total * per;
	s->tcap = total + 64; /* (grown as the steps need) */
	s->t = malloc(s->tcap);
	s->line = malloc((total ? total : 1) * sizeof *s->line);
	s->core = malloc((total ? total : 1) * sizeof *s->core);
	s->store = malloc(total ? total : 1);
	if (s2 && !(s->sect = malloc(total ? total : 1)))
		goto out;
	if (!s->t || !s->line || !s->core || !s->store || linemap_init(&map, 4096) < 0)
		goto out;
	int sh1 = log2u64(l1_line), sh2 = log2u64(l2_line);
	l2req q;
	int r;
	nameq nq = {.n = 0};
	while ((r = mrg_next(&m, &q)) > 0)
		if (stream_put(s, &map, &nq, &q, per, sh1, sh2, l1_line, s1, s2, a2, sm) < 0)
			goto out;
	if (r < 0)
		goto out;
	int64_t id;
	uint64_t at;
	while ((r = nq_pop(&nq, &map, &id, &at)) > 0)
		s->line[at] = (uint32_t)id;
	if (r < 0)
		goto out;
	uint8_t *tb = realloc(s->t, s->tlen ? s->tlen : 1); /* (shrunk: harmless if not) */
	if (tb)
		s->t = tb;
	if (stream_lines(s, &map) < 0)
		goto out;
	rc = 0;
out:
	linemap_free(&map);
	mrg_free(&m);
	free(a2);
	free(sm);
	if (rc)
		stream_free(s);
	return rc;
}

/* Step 3: global bank (partition-major), set within the bank, stack set
 * and MSHR set of each line. Stack sets are bank * spb + set, or, when
 * the L2 has more sets than the stream has lines, the used ones numbered
 * densely (a 4 GiB L2 of 1-byte lines keeps as many stacks as lines). */
typedef struct l2place {
	uint32_t *bank, *setin, *set, *mset;
	uint32_t nbanks, spb, nsets;
} l2place;

/* Sort ord[0..n) by key[ord[i]] (a heap sort: no global context for
 * qsort's comparator, so the model stays reentrant). */
static void sift(uint32_t *ord, const uint64_t *key, uint32_t i, uint32_t n)
{
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && key[ord[c + 1]] > key[ord[c]])
			c++;
		if (key[ord[c]] <= key[ord[i]])
			return;
		uint32_t x = ord[i];
		ord[i] = ord[c];
		ord[c] = x;
		i = c;
	}
}

static void qsort_keys(uint32_t *ord, uint32_t n, const uint64_t *key)
{
	for (uint32_t i = n / 2; i-- > 0;)
		sift(ord, key, i, n);
	for (uint32_t e = n; e > 1; e--) {
		uint32_t x = ord[0];
		ord[0] = ord[e - 1];
		ord[e - 1] = x;
		sift(ord, key, 0, e - 1);
	}
}

static int place(l2place *pl, const rd_config *c, const l2stream *s)
{
	uint32_t np = c->l2_partitions, nb = c->l2_banks, spb = rd_config_l2_sets(c);
	uint64_t il = rd_config_l2_interleave(c), per = il / c->l2_line;
	size_t n = s->nlines ? s->nlines : 1;
	pl->bank = malloc(n * sizeof *pl->bank);
	pl->set = malloc(n * sizeof *pl->set);
	pl->setin = malloc(n * sizeof *pl->setin);
	pl->mset = malloc(n * sizeof *pl->mset);
	pl->nbanks = np * nb;
	pl->spb = spb;
	if (!pl->bank || !pl->set || !pl->mset || !pl->setin)
		return -1;
	rd_config h = *c; /* the L1's hash function over the bank's sets */
	h.l1_hash = c->l2_hash;
	h.l1_hash_shift = c->l2_hash_shift;
	h.l1_line = c->l2_line;
	h.model = RD_PROFILE_PAPER;
	uint32_t prime = c->l2_hash == RD_HASH_PRIME ? rd_hash_prime(spb) : 1;
	for (uint32_t l = 0; l < s->nlines; l++) {
		uint64_t a2 = s->line_addr[l];
		uint64_t stripe = a2 / per;
		uint32_t part = (uint32_t)(stripe % np);
		uint32_t bank = (uint32_t)((stripe / np) % nb);
		uint64_t local = (stripe / ((uint64_t)np * nb)) * per + a2 % per;
		uint32_t g = part * nb + bank;
		pl->bank[l] = g;
		pl->setin[l] = set_index_p(&h, spb, prime, local);
		pl->mset[l] = (uint32_t)((uint64_t)part * c->l2_mshr_sets / np);
	}
	uint64_t total = (uint64_t)pl->nbanks * spb;
	if (total <= 65536 || total <= s->nlines) {
		pl->nsets = (uint32_t)total;
		for (uint32_t l = 0; l < s->nlines; l++)
			pl->set[l] = pl->bank[l] * spb + pl->setin[l];
		return 0;
	}
	/* the used sets, densely: sort the lines by their set */
	uint64_t *key = malloc(n * sizeof *key);
	uint32_t *ord = malloc(n * sizeof *ord);
	if (!key || !ord) {
		free(key);
		free(ord);
		return -1;
	}
	for (uint32_t l = 0; l < s->nlines; l++) {
		key[l] = (uint64_t)pl->bank[l] * spb + pl->setin[l];
		ord[l] = l;
	}
	qsort_keys(ord, s->nlines, key);
	uint32_t d = 0;
	for (uint32_t i = 0; i < s->nlines; i++) {
		if (i && key[ord[i]] != key[ord[i - 1]])
			d++;
		pl->set[ord[i]] = d;
	}
	pl->nsets = s->nlines ? d + 1 : 0;
	free(key);
	free(ord);
	return 0;
}

static void place_free(l2place *pl)
{
	free(pl->bank);
	free(pl->set);
	free(pl->setin);
	free(pl->mset);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* l2.fetch: the sectors m with, around each, its aligned block of g
 * sectors (g 0 or 1: m). */
static uint32_t fetch_grow(uint32_t m, uint32_t g)
{
	if (g < 2)
		return m;
	uint32_t out = 0, block = (1u << g) - 1;
	for (uint32_t i = 0; i < 8; i += g)
		if (m >> i & block)
			out |= block << i;
	return out & 0xff;
}

/* Step 4's state: the cache (pcache.c), each bank's queue of requests, and
 * what the run counts beyond the cache's own counts. */
typedef struct l2src l2src;
typedef struct banks {
	const rd_config *c;
	const l2stream *s;
	const l2place *pl;
	/* the requests: the stream's arrays (mask all ones), or, with src (a
	 * pack in a file), a window of them read as they are admitted
	 * (request q at q & mask; lo: none older is waiting), n of them */
	const uint32_t *rline;
	const uint16_t *rcore;
	const uint8_t *rstore, *rsect;
	uint64_t n, mask, lo;
	l2src *src;
	const uint64_t *lcnt; /* with src: each line's requests */
	tcur tc;
	const rd_callbacks *cb; /* with an event callback, else NULL */
	const rd_callbacks *prog; /* progress and cancel, or NULL */
	sim_counts *ds;         /* DRAM's stream, or NULL */
	pcache pc;
	int inited;
	/* Each bank's admitted and waiting requests in stream order, bank
	 * g's bq[g][head[g] .. adm[g]) (of cap[g]), the accepted squeezed out
	 * as they go: memory for the waiting, not the stream (a queue of
	 * the whole stream took 21 bytes a request). act[0 .. nact): the
	 * banks with requests waiting; cand[0 .. ncand_cap): one step's. */
	uint64_t **bq, *head, *adm, *qcap, *win, *cand, ncand_cap;
	uint32_t *act, *port_used, nact;
	uint64_t *done; /* accepted, a bit a request (of the window's) */
	/* l2.sector: per line, the sectors present or in flight while it is
	 * in the L2 or on its way (a miss starts it afresh), as the L1's; the
	 * sectors a read miss fills around each (l2.fetch), 0 or 1: itself */
	uint8_t *lsect;
	uint32_t fetch;
	uint64_t nwait, rf, merges;
	uint64_t *bank_req, *bank_miss; /* [banks]: accepted requests, misses */
} banks;

/* A pack in a file (l2pack spill_at), read as the banks admit: the
 * merge again (mrg), each record's L2 requests (a2, sm from ip to np) named
 * by the lines' ids of the first reading (map), into the window. */
struct l2src {
	mrg m;
	const linemap *map;
	uint64_t per;
	int sh1, sh2;
	uint32_t l1_line, s1, s2;
	uint64_t *a2;
	uint8_t *sm;
	uint32_t np, ip;
	l2req q;
	uint32_t *line; /* the window (the banks' r* arrays), cap requests */
	uint16_t *core;
	uint8_t *store, *sect;
	uint64_t cap;
};

static void src_free(l2src *x)
{
	mrg_free(&x->m);
	free(x->a2);
	free(x->sm);
	free(x->line);
	free(x->core);
	free(x->store);
	free(x->sect);
}

/* The window of cap requests (a power of two) for b, those from b->lo to
 * q (not q) moved from the old: 0, -1. (Their done bits are not: a bit is
 * read only in the step that sets it, and a window grows between steps.) */
static int win_resize(banks *b, uint64_t cap, uint64_t q)
{
	l2src *x = b->src;
	uint32_t *line = malloc(cap * sizeof *line);
	uint16_t *core = malloc(cap * sizeof *core);
	uint8_t *store = malloc(cap);
	uint8_t *sect = x->s2 ? malloc(cap) : NULL;
	uint64_t *done = calloc(cap / 64 + 1, sizeof *done);
	if (!line || !core || !store || (x->s2 && !sect) || !done) {
		free(line);
		free(core);
		free(store);
		free(sect);
		free(done);
		return -1;
	}
	uint64_t nm = cap - 1;
	for (uint64_t j = b->lo; x->cap && j < q; j++) {
		uint64_t o = j & b->mask, i = j & nm;
		line[i] = x->line[o];
		core[i] = x->core[o];
		store[i] = x->store[o];
		if (sect)
			sect[i] = x->sect[o];
	}
	free(x->line);
	free(x->core);
	free(x->store);
	free(x->sect);
	free(b->done);
	b->rline = x->line = line;
	b->rcore = x->core = core;
	b->rstore = x->store = store;
	b->rsect = x->sect = sect;
	b->done = done;
	x->cap = cap;
	b->mask = nm;
	return 0;
}

/* Request q read from the file into the window (room made: the oldest
 * waiting request is its first; else it grows), its step in *t: RD_OK,
 * RD_ENOMEM, RD_EIO. */
static int src_fetch(banks *b, uint64_t q, uint64_t *t)
{
	l2src *x = b->src;
	if (q - b->lo >= x->cap) {
		uint64_t lo = q;
		for (uint32_t a = 0; a < b->nact; a++) {
			uint32_t g = b->act[a];
			if (b->head[g] < b->adm[g] && b->bq[g][b->head[g]] < lo)
				lo = b->bq[g][b->head[g]];
		}
		b->lo = lo;
		uint64_t cap = x->cap;
		while (q - lo >= cap)
			cap *= 2;
		if (cap != x->cap && win_resize(b, cap, q) < 0)
			return RD_ENOMEM;
	}
	while (x->ip == x->np) {
		int r = mrg_next(&x->m, &x->q);
		if (r <= 0) /* (the first reading counted them: the file changed) */
			return r < 0 && !x->m.ioerr ? RD_ENOMEM : RD_EIO;
		x->np = split(&x->q, x->per, x->sh1, x->sh2, x->l1_line, x->s1, x->s2, x->a2, x->sm);
		x->ip = 0;
	}
	uint64_t slot, qi = q & b->mask;
	int64_t id = linemap_find((linemap *)x->map, x->a2[x->ip], &slot);
	if (id < 0)
		return RD_EIO;
	x->line[qi] = (uint32_t)id;
	x->core[qi] = (uint16_t)x->q.core;
	x->store[qi] = (uint8_t)x->q.store;
	if (x->sect)
		x->sect[qi] = x->sm[x->ip];
	b->done[qi / 64] &= ~((uint64_t)1 << (qi % 64));
	x->ip++;
	*t = x->q.t;
	return RD_OK;
}

/* Request q's step (from the stream, or the file into the window). */
static inline int banks_fetch(banks *b, uint64_t q, uint64_t *t)
{
	if (!b->src) {
		*t = t_next(&b->tc);
		return RD_OK;
	}
	return src_fetch(b, q, t);
}

static void banks_free(banks *b)
{
	if (b->inited)
		pc_free(&b->pc);
	for (uint32_t g = 0; b->bq && g < b->pl->nbanks; g++)
		free(b->bq[g]);
	free(b->bq);
	free(b->head);
	free(b->adm);
	free(b->qcap);
	free(b->win);
	free(b->cand);
	free(b->act);
	free(b->port_used);
	free(b->done);
	free(b->lsect);
}

/* Request q admitted to bank g's queue (its waiting moved to the front
 * when the queue is full). 0, or -1: out of memory. */
static int banks_admit(banks *b, uint32_t g, uint64_t q)
{
	if (b->adm[g] == b->qcap[g]) {
		uint64_t h = b->head[g], w = b->adm[g] - h;
		if (h && w <= b->qcap[g] / 2) {
			memmove(b->bq[g], b->bq[g] + h, w * sizeof *b->bq[g]);
		} else {
			uint64_t nc = b->qcap[g] ? b->qcap[g] * 2 : 64;
			uint64_t *v = realloc(b->bq[g], nc * sizeof *v);
			if (!v)
				return -1;
			if (h)
				memmove(v, v + h, w * sizeof *v);
			b->bq[g] = v;
			b->qcap[g] = nc;
		}
		b->head[g] = 0;
		b->adm[g] = w;
	}
	b->bq[g][b->adm[g]++] = q;
	if (b->nwait + 1 > b->ncand_cap) { /* a step tries at most the waiting */
		uint64_t nc = b->ncand_cap * 2;
		uint64_t *v = realloc(b->cand, nc * sizeof *v);
		if (!v)
			return -1;
		b->cand = v;
		b->ncand_cap = nc;
	}
	return 0;
}

/* The scratch, the cache (its sets' and banks' capacities from the
 * stream), its MSHR sets and shadow, and the queues. */
static int banks_init(banks *b, const rd_callbacks *cb, sim_counts *out)
{
	const rd_config *c = b->c;
	const l2stream *s = b->s;
	const l2place *pl = b->pl;
	size_t n1 = b->src ? 1 : s->n ? s->n : 1, nb = pl->nbanks; /* (a window: its own) */
	uint32_t *cap = calloc(pl->nsets ? pl->nsets : 1, sizeof *cap);
	uint32_t *bcap = calloc(nb, sizeof *bcap);
	int rc = RD_ENOMEM;
	b->bq = calloc(nb, sizeof *b->bq);
	b->head = calloc(nb, sizeof *b->head);
	b->adm = calloc(nb, sizeof *b->adm);
	b->qcap = calloc(nb, sizeof *b->qcap);
	b->win = malloc(nb * sizeof *b->win);
	b->ncand_cap = 64;
	b->cand = malloc(b->ncand_cap * sizeof *b->cand);
	b->act = malloc(nb * sizeof *b->act);
	b->port_used = calloc(nb, sizeof *b->port_used);
	b->done = calloc(n1 / 64 + 1, sizeof *b->done);
	int sect = b->src ? b->src->s2 != 0 : s->sect != NULL;
	b->lsect = sect ? calloc(s->nlines ? s->nlines : 1, 1) : NULL;
	b->fetch = c->l2_sector ? c->l2_fetch / c->l2_sector : 0;
	if (!cap || !bcap || !b->bq || !b->head || !b->adm || !b->qcap || !b->win || !b->cand ||
	    !b->act || !b->port_used || !b->done || (sect && !b->lsect))
		goto out;
	if (b->src && win_resize(b, 64, 0) < 0) /* (grown as waiting needs) */
		goto out;
	if (b->lcnt) { /* (a file's: each line's requests, counted once) */
		for (uint32_t l = 0; l < s->nlines; l++) {
			cap_add(&cap[pl->set[l]], b->lcnt[l]);
			cap_add(&bcap[pl->bank[l]], b->lcnt[l]);
		}
	}
	for (uint64_t i = 0; !b->lcnt && i < s->n; i++) {
		cap_add(&cap[pl->set[s->line[i]]], 1);
		cap_add(&bcap[pl->bank[s->line[i]]], 1);
	}
	if (pc_init(&b->pc, pl->nsets, cap, s->nlines, pl->set, c->l2_ways, c->l2_replacement,
		    c->seed, 6, c->l2_stores, 1) != RD_OK)
		goto out;
	b->inited = 1;
	if (pc_msets(&b->pc, c->l2_mshr_sets, c->l2_mshrs, c->l2_max_merges, pl->mset) < 0 ||
	    pc_shadow(&b->pc, pl->nbanks, bcap, pl->bank, pl->spb * c->l2_ways, c->l2_replacement,
		      c->seed, 6) < 0) /* (the same stream: see sim_rdgc.c) */
		goto out;
	/* DRAM's stream: write-backs of written lines under allocate (pcache
	 * records them, and the misses that fill at once) */
	if (b->ds && c->l2_stores == RD_STORES_ALLOCATE && pc_writebacks(&b->pc, b->ds, 0) < 0)
		goto out;
	pcache *pc = &b->pc;
	pc->lat = c->latency_l2;
	pc->out = out;
	b->cb = cb && cb->event ? cb : NULL;
	b->prog = cb;
	pc->cb = b->cb;
	pc->line_addr = s->line_addr;
	pc->line_bytes = c->l2_line;
	pc->bank_of = pl->bank;
	pc->banks_per_part = c->l2_banks;
	pc->set_show = pl->setin;
	if (b->cb && !(pc->fill_core = calloc(s->nlines ? s->nlines : 1, sizeof *pc->fill_core)))
		goto out;
	pc->level = 2;
	rc = RD_OK;
out:
	free(cap);
	free(bcap);
	return rc;
}

/* l2.sector: request q's outcome o on line l. A read's sectors are looked
 * up one by one (those missing come in blocks of l2.fetch); a write's
 * take their place (an evicting store takes the line's). */
static void banks_sectors(banks *b, uint64_t q, uint32_t l, int st, int o)
{
	uint32_t m = b->rsect[q & b->mask];
	uint32_t had = o == PC_HIT || o == PC_MERGE ? b->lsect[l] : 0;
	if (!st) {
		b->pc.out->sect_lookups += (uint64_t)__builtin_popcount(m);
		b->pc.out->sect_hits += (uint64_t)__builtin_popcount(m & had);
		m |= fetch_grow(m & ~had, b->fetch);
	}
	if (o == PC_EVICT)
		b->lsect[l] = 0;
	else if (o != PC_PAST)
		b->lsect[l] = (uint8_t)(had | m);
}

static void banks_event(const banks *b, uint64_t q, uint32_t l, int st, int o, uint32_t port,
			uint64_t t)
{
	static const int outc[] = {RD_OUT_HIT, RD_OUT_MISS, RD_OUT_MERGE,
				   RD_OUT_RF, RD_OUT_EVICT, RD_OUT_BYPASS};
	const rd_config *c = b->c;
	const l2stream *s = b->s;
	const pcache *pc = &b->pc;
	uint32_t g = b->pl->bank[l];
	rd_event ev = {
		.time = t, .core = b->rcore[q & b->mask], .store = st,
		.addr = s->line_addr[l] * c->l2_line, .line = s->line_addr[l],
		.set = b->pl->setin[l], .distance = pc->d, .outcome = outc[o],
		.cls = pc->cls, .latency = pc->last_lat,
		.effect_at = t + (pc->last_lat ? pc->last_lat - 1 : 0),
		.mshrs_used = pc->used, .level = 2, .partition = g / c->l2_banks,
		.bank = g % c->l2_banks, .port = port,
		.mshrs_free = pc_free_entries(pc, l),
	};
	b->cb->event(b->cb->ctx, &ev);
}

/* Request q tries its bank at step t. 0, or -1 (memory). */
static int banks_try(banks *b, uint64_t q, uint64_t t)
{
	const l2stream *s = b->s;
	uint64_t qi = q & b->mask;
	uint32_t l = b->rline[qi], g = b->pl->bank[l];
	uint32_t port = b->port_used[g]++;
	int st = b->rstore[qi];
	b->pc.req_core = b->rcore[qi];
	int o = pc_access(&b->pc, l, st, t);
	if (o < 0)
		return -1;
	b->merges += o == PC_MERGE;
	if (b->ds && ((o == PC_MISS && !b->pc.emitted) || o == PC_EVICT || o == PC_PAST) &&
	    l2s_add(b->ds, t, s->line_addr[l], b->rcore[qi], o != PC_MISS) < 0)
		return -1;
	if (b->lsect && o != PC_RF)
		banks_sectors(b, q, l, st, o);
	if (o == PC_RF) {
		b->rf++;
	} else {
		b->done[qi / 64] |= (uint64_t)1 << (qi % 64);
		b->nwait--;
		b->bank_req[g]++;
		b->bank_miss[g] += o != PC_HIT && o != PC_EVICT;
	}
	if (b->cb)
		banks_event(b, q, l, st, o, port, t);
	return 0;
}

/* One step's tries: the first `ports` waiting of each bank with requests
 * (all, without a limit), oldest first across the banks, then the
 * accepted squeezed out of each window (the refused keep their order at
 * its end). Returns the candidates tried, or -1 (memory). */
static int64_t banks_step(banks *b, uint64_t t)
{
	const uint32_t ports = b->c->l2_ports;
	uint64_t nc = 0, *cand = b->cand; /* (banks_admit keeps it the waiting's size) */
	for (uint32_t a = 0; a < b->nact; a++) {
		uint32_t g = b->act[a];
		uint64_t k = b->adm[g] - b->head[g];
		if (ports && k > ports)
			k = ports;
		b->win[g] = k;
		for (uint64_t j = 0; j < k; j++)
			cand[nc++] = b->bq[g][b->head[g] + j];
	}
	if (nc > 64) {
		qsort(cand, nc, sizeof *cand, cmp_u64);
	} else {
		for (uint64_t i = 1; i < nc; i++) {
			uint64_t x = cand[i], j = i;
			for (; j && cand[j - 1] > x; j--)
				cand[j] = cand[j - 1];
			cand[j] = x;
		}
	}
	for (uint32_t a = 0; a < b->nact; a++)
		b->port_used[b->act[a]] = 0;
	for (uint64_t i = 0; i < nc; i++)
		if (banks_try(b, cand[i], t) < 0)
			return -1;
	uint32_t still = 0;
	for (uint32_t a = 0; a < b->nact; a++) {
		uint32_t g = b->act[a];
		uint64_t h = b->head[g], k = b->win[g], w = h + k;
		uint64_t *bq = b->bq[g];
		for (uint64_t j = k; j-- > 0;) {
			uint64_t q = bq[h + j], qi = q & b->mask;
			if (!(b->done[qi / 64] >> (qi % 64) & 1))
				bq[--w] = q;
		}
		b->head[g] = w;
		if (w < b->adm[g])
			b->act[still++] = g;
	}
	b->nact = still;
	return (int64_t)nc;
}

/* Step 4: one run of the banks: each L2 step first admits the requests
 * whose L1 step is at most it, then tries the waiting (banks_step). The
 * steps with an access, through *steps. */
static int banks_run(banks *b, uint64_t *steps)
{
	const int skip_w = b->c->l2_stores == RD_STORES_IGNORE;
	const uint64_t n = b->n;
	uint64_t next = 0, t = 0, last = 0, since = 0;
	uint64_t tn = 0; /* request next's step */
	int any_step = 0, rc;
	if (n && (rc = banks_fetch(b, 0, &tn)) != RD_OK)
		return rc;
	while (next < n || b->nwait) {
		if (!b->nwait && tn > t)
			t = tn; /* idle until the next arrival */
		while (next < n && tn <= t) {
			uint64_t qi = next & b->mask;
			if (!skip_w || !b->rstore[qi]) { /* (stores that never enter the L2) */
				uint32_t g = b->pl->bank[b->rline[qi]];
				if (b->head[g] == b->adm[g])
					b->act[b->nact++] = g; /* a bank with something waiting */
				if (banks_admit(b, g, next) < 0)
					return RD_ENOMEM;
				b->nwait++;
			}
			if (++next < n && (rc = banks_fetch(b, next, &tn)) != RD_OK)
				return rc;
		}
		if (pc_fills(&b->pc, t, 0) < 0)
			return RD_ENOMEM;
		uint64_t rf0 = b->rf, wait0 = b->nwait;
		int64_t nc = banks_step(b, t);
		if (nc < 0)
			return RD_ENOMEM;
		if (nc) {
			last = t;
			any_step = 1;
		}
		/* nothing accepted: nothing changes before the next fill or
		 * arrival (the skipped steps' reservation fails repeat this one's) */
		uint64_t nx = pc_next_fill(&b->pc);
		if (next < n && tn < nx)
			nx = tn;
		if (b->nwait && b->nwait == wait0 && nx != UINT64_MAX && nx > t + 1) {
			b->rf += (b->rf - rf0) * (nx - t - 1);
			t = nx;
		} else {
			t++;
		}
		if (++since >= 4096) {
			since = 0;
			if (b->prog && b->prog->progress && b->prog->progress(b->prog->ctx, 1.0))
				return RD_ECANCELED;
		}
	}
	if (pc_fills(&b->pc, UINT64_MAX, 0) < 0)
		return RD_ENOMEM;
	*steps = any_step ? last + 1 : 0;
	return RD_OK;
}

struct l2_cache {
	uint64_t serial;
	uint32_t l1_line, l2_line, ncores, s1, s2;
	l2stream s;
};

uint64_t l2_cache_bytes(const l2_cache *k, uint64_t *n)
{
	const l2stream *s = &k->s;
	*n = s->n;
	return s->tlen + s->n * (sizeof *s->line + sizeof *s->core + 1 + (s->sect ? 1 : 0)) +
	       s->nlines * sizeof *s->line_addr;
}

void l2_cache_free(l2_cache *k)
{
	if (k) {
		stream_free(&k->s);
		free(k);
	}
}

/* The merged stream at l2_line granularity, with sectors of s2 bytes (0:
 * none): the cache's, or built (into the cache, else into *own). NULL:
 * out of memory. */
static const l2stream *stream_get(const rd_config *c, const sim_counts *c0, uint64_t serial,
				  uint32_t ncores, uint32_t l2_line, uint32_t s2, l2_cache **cache,
				  l2stream *own)
{
	l2_cache *k = cache ? *cache : NULL;
	uint32_t s1 = s2 ? c->l1_sector : 0;
	if (k && k->serial == serial && k->l1_line == c->l1_line && k->l2_line == l2_line &&
	    k->ncores == ncores && k->s1 == s1 && k->s2 == s2)
		return &k->s;
	if (stream_build(own, c0, ncores, c->l1_line, l2_line, s1, s2) < 0)
		return NULL;
	if (!cache)
		return own;
	/* kept for the next run */
	if (!k && !(k = *cache = calloc(1, sizeof *k))) {
		stream_free(own);
		return NULL;
	}
	stream_free(&k->s);
	k->s = *own;
	k->serial = serial;
	k->l1_line = c->l1_line;
	k->l2_line = l2_line;
	k->ncores = ncores;
	k->s1 = s1;
	k->s2 = s2;
	memset(own, 0, sizeof *own);
	return &k->s;
}

int l2_stream_take(const rd_config *c, sim_counts *c0, uint64_t serial, uint32_t ncores,
		   l2_cache **cache)
{
	if (!cache || !(c->l2_size || c->dram_enable) || c0->pk.f) /* (a file: read as it goes) */
		return RD_OK;
	l2stream own = {0};
	/* the stream l2_run or, without an L2, l1_stream asks for */
	const l2stream *sp = c->l2_size ? stream_get(c, c0, serial, ncores, c->l2_line, c->l2_sector,
						     cache, &own)
					: stream_get(c, c0, serial, ncores, c->l1_line, 0, cache, &own);
	stream_free(&own); /* (empty: the stream is the cache's) */
	if (!sp)
		return RD_ENOMEM;
	free(c0->l2s);
	c0->l2s = NULL;
	c0->nl2s = c0->l2s_cap = 0;
	l2pack_free(&c0->pk);
	return RD_OK;
}

int l1_stream(const rd_config *c, const sim_counts *c0, uint64_t serial, uint32_t ncores,
	      l2_cache **cache, sim_counts *out)
{
	if (c0->pk.f) { /* a pack in a file: merged as it is read */
		mrg m;
		if (mrg_open(&m, c0, ncores) < 0)
			return RD_EIO;
		l2req q;
		int r;
		while ((r = mrg_next(&m, &q)) > 0)
			if (l2s_add(out, q.t, q.line, q.core, q.store) < 0) {
				r = -1;
				break;
			}
		int rc = r == 0 ? RD_OK : m.ioerr ? RD_EIO : RD_ENOMEM;
		mrg_free(&m);
		return rc;
	}
	l2stream own = {0};
	const l2stream *sp = stream_get(c, c0, serial, ncores, c->l1_line, 0, cache, &own);
	int rc = sp ? RD_OK : RD_ENOMEM;
	tcur tc = {.p = sp ? sp->t : NULL};
	for (uint64_t i = 0; sp && i < sp->n; i++)
		if (l2s_add(out, t_next(&tc), sp->line_addr[sp->line[i]], sp->core[i], sp->store[i]) <
		    0) {
			rc = RD_ENOMEM;
			break;
		}
	stream_free(&own);
	return rc;
}

/* A pack in a file (c0's, l2pack spill_at): its merged stream read once
 * to name and count its L2 lines (s: n, nlines, line_addr; x->map, *lcnt
 * each line's requests) and x made ready to read it again as the banks
 * admit it; nothing a request kept. RD_OK, RD_ENOMEM, RD_EIO,
 * RD_ECANCELED. */
static int src_open(l2src *x, linemap *map, uint64_t **lcnt, l2stream *s, const rd_config *c,
		    const sim_counts *c0, uint32_t ncores, const rd_callbacks *cb)
{
	memset(x, 0, sizeof *x);
	memset(s, 0, sizeof *s);
	*lcnt = NULL;
	x->l1_line = c->l1_line;
	x->s2 = c->l2_sector;
	x->s1 = x->s2 ? c->l1_sector : 0;
	x->per = c->l1_line > c->l2_line ? c->l1_line / c->l2_line : 1;
	x->sh1 = log2u64(c->l1_line);
	x->sh2 = log2u64(c->l2_line);
	x->map = map;
	uint64_t ncap = 0, *cnt = NULL;
	int rc = RD_ENOMEM;
	if (!(x->a2 = malloc(x->per * sizeof *x->a2)) || !(x->sm = malloc(x->per)) ||
	    linemap_init(map, 4096) < 0)
		goto fail;
	if (mrg_open(&x->m, c0, ncores) < 0) {
		rc = c0->pk.f ? RD_EIO : RD_ENOMEM; /* (a read, likelier) */
		goto fail;
	}
	l2req q;
	int r;
	for (uint64_t nrec = 1; (r = mrg_next(&x->m, &q)) > 0; nrec++) {
		uint32_t k = split(&q, x->per, x->sh1, x->sh2, x->l1_line, x->s1, x->s2, x->a2, x->sm);
		for (uint32_t j = 0; j < k; j++) {
			int64_t id = line_id(map, x->a2[j]);
			if (id < 0)
				goto fail;
			if (vec_room_zero((void **)&cnt, &ncap, (uint64_t)id + 1, sizeof *cnt, 4096) < 0)
				goto fail;
			cnt[id]++;
			s->n++;
		}
		if (!(nrec & 0xfffff) && cb && cb->progress && cb->progress(cb->ctx, 1.0)) {
			rc = RD_ECANCELED;
			goto fail;
		}
	}
	if (r < 0) {
		rc = x->m.ioerr ? RD_EIO : RD_ENOMEM;
		goto fail;
	}
	mrg_free(&x->m);
	if (stream_lines(s, map) < 0)
		goto fail;
	if (mrg_open(&x->m, c0, ncores) < 0) {
		rc = RD_EIO;
		goto fail;
	}
	*lcnt = cnt;
	return RD_OK;
fail:
	free(cnt);
	src_free(x);
	stream_free(s);
	linemap_free(map);
	return rc;
}

int l2_run(const rd_config *c, const sim_counts *c0, uint64_t serial, uint32_t ncores,
	   const rd_callbacks *cb, l2_cache **cache, rd_level *out, sim_counts *dstream)
{
	memset(out, 0, sizeof *out);
	l2stream own = {0};
	l2place pl = {0};
	sim_counts cnt = {0};
	uint64_t steps = 0;
	banks b = {0};
	l2src src;
	linemap map = {0};
	uint64_t *lcnt = NULL;
	int rc = RD_ENOMEM;
	const l2stream *sp = &own;
	if (c0->pk.f) { /* a pack in a file: read as the banks go */
		if ((rc = src_open(&src, &map, &lcnt, &own, c, c0, ncores, cb)) != RD_OK)
			return rc;
		b.src = &src;
		b.lcnt = lcnt;
		rc = RD_ENOMEM;
	} else if (!(sp = stream_get(c, c0, serial, ncores, c->l2_line, c->l2_sector, cache,
				     &own))) {
		return RD_ENOMEM;
	}
	const l2stream s = *sp; /* (read only below) */
	b.n = s.n;
	if (!b.src) {
		b.rline = s.line;
		b.rcore = s.core;
		b.rstore = s.store;
		b.rsect = s.sect;
		b.mask = UINT64_MAX;
		b.tc.p = s.t;
	}
	uint32_t nb = c->l2_partitions * c->l2_banks;
	out->partitions = c->l2_partitions;
	out->banks = c->l2_banks;
	out->sets = rd_config_l2_sets(c);
	out->bank_requests = calloc(nb, sizeof *out->bank_requests);
	out->bank_misses = calloc(nb, sizeof *out->bank_misses);
	if (!out->bank_requests || !out->bank_misses)
		goto done;
	if (place(&pl, c, &s) < 0)
		goto done;
	b.c = c;
	b.s = &s;
	b.pl = &pl;
	b.ds = dstream;
	b.bank_req = out->bank_requests;
	b.bank_miss = out->bank_misses;
	if ((rc = banks_init(&b, cb, &cnt)) != RD_OK || (rc = banks_run(&b, &steps)) != RD_OK)
		goto done;
	out->requests = cnt.requests;
	out->hits = cnt.hits;
	out->misses = cnt.misses;
	out->cls[RD_CLASS_COMPULSORY] = cnt.compulsory;
	out->cls[RD_CLASS_LATENCY] = cnt.latency;
	out->cls[RD_CLASS_WRITE_EVICT] = cnt.write_evict;
	out->cls[RD_CLASS_ASSOCIATIVITY] = cnt.assoc_access;
	out->cls[RD_CLASS_CAPACITY] = cnt.misses - COUNTS_KNOWN(&cnt) - cnt.assoc_access;
	out->store_requests = cnt.store_requests;
	out->store_hits = cnt.store_hits;
	out->store_evictions = cnt.store_evictions;
	out->reservation_fails = b.rf;
	out->merges = b.merges; /* reads' (the latency class) and writes' */
	out->steps = steps;
	out->miss_rate = cnt.requests ? (double)cnt.misses / (double)cnt.requests : 0.0;
	out->sector_lookups = cnt.sect_lookups;
	out->sector_hits = cnt.sect_hits;
	out->sector_bytes = c->l2_sector;
	out->hist = cnt.hist;
	out->hist_len = cnt.hist_len;
	out->hist_inf = cnt.hist_inf;
	cnt.hist = NULL;
	out->hist_w = cnt.hist_w;
	out->hist_w_len = cnt.hist_w_len;
	out->hist_w_inf = cnt.hist_w_inf;
	cnt.hist_w = NULL;
	rc = RD_OK;
done:
	if (rc != RD_OK) {
		free(out->bank_requests);
		free(out->bank_misses);
		out->bank_requests = out->bank_misses = NULL;
	}
	banks_free(&b);
	if (b.src)
		src_free(&src);
	free(lcnt);
	linemap_free(&map);
	counts_free(&cnt);
	place_free(&pl);
	stream_free(&own);
	return rc;
}
