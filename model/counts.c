/*
 * The engines' counters and progress, beneath both the rd_model object
 * (model.c) and the engines it dispatches to (sim_paper.c, sim_ref2013.c):
 * histogram growth, per-set counts, merging one case's counts into
 * another, and the progress and partial-result callbacks. Calls nothing
 * above it.
 */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hist_add_to(uint64_t **hist, uint32_t *len, uint32_t *cap, uint64_t *inf, int64_t d,
		       uint64_t n)
{
	if (d < 0) {
		*inf += n;
		return 0;
	}
	if ((uint64_t)d >= *cap) {
		uint64_t nc = *cap ? *cap : 64;
		while (nc <= (uint64_t)d)
			nc *= 2;
		uint64_t *h = realloc(*hist, nc * sizeof *h);
		if (!h)
			return -1;
		memset(h + *cap, 0, (nc - *cap) * sizeof *h);
		*hist = h;
		*cap = (uint32_t)nc;
	}
	(*hist)[d] += n;
	if ((uint32_t)d >= *len)
		*len = (uint32_t)d + 1;
	return 0;
}

int hist_add_slow(sim_counts *c, int64_t d)
{
	return hist_add_to(&c->hist, &c->hist_len, &c->hist_cap, &c->hist_inf, d, 1);
}

int hist_w_add(sim_counts *c, int64_t d)
{
	return hist_add_to(&c->hist_w, &c->hist_w_len, &c->hist_w_cap, &c->hist_w_inf, d, 1);
}

int sim_progress(const sim_input *in, uint64_t delta)
{
	sim_shared *sh = in->sh;
	uint64_t d = atomic_fetch_add(&sh->done, delta) + delta;
	if (in->caller && sh->cb && sh->cb->progress && sh->total) {
		double f = (double)d / (double)sh->total;
		if (sh->cb->progress(sh->cb->ctx, f > 1.0 ? 1.0 : f))
			atomic_store(&sh->cancel, 1);
	}
	return atomic_load(&sh->cancel);
}

int counts_sets(sim_counts *c, uint32_t nsets)
{
	c->set_requests = calloc(nsets ? nsets : 1, sizeof *c->set_requests);
	c->set_misses = calloc(nsets ? nsets : 1, sizeof *c->set_misses);
	c->nsets = nsets;
	return c->set_requests && c->set_misses ? 0 : -1;
}

int counts_sites(sim_counts *c, uint32_t nsites, int hist)
{
	c->site = calloc(nsites ? nsites : 1, sizeof *c->site);
	c->site_hist = hist ? calloc((size_t)(nsites ? nsites : 1) * (RD_SITE_BINS + 1),
				     sizeof *c->site_hist)
			    : NULL;
	c->nsites = nsites;
	return c->site && (!hist || c->site_hist) ? 0 : -1;
}

/* Free and clear: a freed counter is an empty one, ready to merge into. */
void counts_free(sim_counts *c)
{
	free(c->hist);
	free(c->hist_w);
	free(c->set_requests);
	free(c->set_misses);
	free(c->site);
	free(c->site_hist);
	free(c->l2s);
	l2pack_free(&c->pk);
	free(c->core_rm);
	memset(c, 0, sizeof *c);
}

int l2s_add(sim_counts *c, uint64_t t, uint64_t line, uint32_t core, int store)
{
	return l2s_add_sect(c, t, line, core, store, 0);
}

int l2s_add_sect(sim_counts *c, uint64_t t, uint64_t line, uint32_t core, int store,
		 uint32_t sect)
{
	if (c->nl2s == c->l2s_cap) {
		uint64_t nc = c->l2s_cap ? c->l2s_cap * 2 : 256;
		l2req *v = realloc(c->l2s, nc * sizeof *v);
		if (!v)
			return -1;
		c->l2s = v;
		c->l2s_cap = nc;
	}
	c->l2s[c->nl2s++] = (l2req){t, line, core, (uint16_t)(store != 0), (uint16_t)sect};
	if (c->pack_every && c->nl2s >= c->pack_every) {
		if (l2pack_add(&c->pk, c->l2s, c->nl2s) < 0)
			return -1;
		c->nl2s = 0;
	}
	return 0;
}

int l2pack_add(l2pack *pk, const l2req *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		/* a record takes at most 1 + 3 varints of 10 bytes and sect's 3 */
		if (pk->cap - pk->len < 34) {
			uint64_t nc = pk->cap ? pk->cap + pk->cap / 2 : 4096;
			uint8_t *b = realloc(pk->b, nc);
			if (!b)
				return -1;
			pk->b = b;
			pk->cap = nc;
		}
		const l2req *q = &v[i];
		uint8_t *p = pk->b + pk->len;
		int start = !pk->n || q->core != pk->core;
		*p++ = (uint8_t)((q->store ? 1 : 0) | start << 1 | (q->sect < 63 ? q->sect + 1 : 0) << 2);
		if (q->sect >= 63)
			p = l2pack_put(p, q->sect);
		if (start) {
			p = l2pack_put(p, q->core);
			p = l2pack_put(p, q->t);
			p = l2pack_put(p, q->line);
		} else {
			p = l2pack_put(p, l2pack_zig(q->t - pk->t));
			p = l2pack_put(p, l2pack_zig(q->line - pk->line));
		}
		pk->len = (uint64_t)(p - pk->b);
		pk->t = q->t;
		pk->line = q->line;
		pk->core = q->core;
		pk->n++;
		if (pk->spill_at && pk->len >= pk->spill_at && l2pack_flush(pk) < 0)
			return -1;
	}
	return 0;
}

/* A temporary file in $TMPDIR (else /tmp; glibc's tmpfile(3) ignores
 * TMPDIR, and /tmp is often memory), gone once closed; NULL: none. */
static FILE *spill_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t n = strlen(dir) + sizeof "/rdscope-spill-XXXXXX";
	char *path = malloc(n);
	if (!path)
		return NULL;
	snprintf(path, n, "%s/rdscope-spill-XXXXXX", dir);
	int fd = mkstemp(path);
	FILE *f = NULL;
	if (fd >= 0) {
		unlink(path);
		if (!(f = fdopen(fd, "w+b")))
			close(fd);
	}
	free(path);
	return f;
}

int l2pack_flush(l2pack *pk)
{
	if (!pk->len)
		return 0;
	if ((!pk->f && !(pk->f = spill_file())) || fseek(pk->f, 0, SEEK_END) != 0 ||
	    fwrite(pk->b, 1, pk->len, pk->f) != pk->len) {
		pk->ioerr = 1;
		return -1;
	}
	pk->flen += pk->len;
	pk->len = 0;
	return 0;
}

/* n bytes of from's file from its start to the end of to's (made if need
 * be): 0, -1 */
static int file_cat(l2pack *to, FILE *from, uint64_t n)
{
	enum { CHUNK = 1 << 16 };
	uint8_t *buf = malloc(CHUNK);
	int rc = buf && (to->f || (to->f = spill_file())) && fseek(from, 0, SEEK_SET) == 0 &&
			 fseek(to->f, 0, SEEK_END) == 0
		     ? 0
		     : -1;
	for (uint64_t done = 0; rc == 0 && done < n;) {
		size_t k = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
		if (fread(buf, 1, k, from) != k || fwrite(buf, 1, k, to->f) != k)
			rc = -1;
		done += k;
	}
	if (rc == 0)
		to->flen += n;
	else if (buf)
		to->ioerr = 1;
	free(buf);
	return rc;
}

int l2pack_load(l2pack *to, const l2pack *from)
{
	memset(to, 0, sizeof *to);
	uint64_t n = from->flen + from->len;
	if (!(to->b = malloc(n ? n : 1)))
		return -1;
	if (from->flen && (fseek(from->f, 0, SEEK_SET) != 0 ||
			   fread(to->b, 1, from->flen, from->f) != from->flen)) {
		l2pack_free(to);
		return -1;
	}
	if (from->len)
		memcpy(to->b + from->flen, from->b, from->len);
	to->len = to->cap = n;
	to->n = from->n;
	to->t = from->t;
	to->line = from->line;
	to->core = from->core;
	return 0;
}

int l2pack_cat(l2pack *to, const l2pack *from)
{
	if (!from->n)
		return 0;
	if (!to->spill_at)
		to->spill_at = from->spill_at;
	/* from's file after to's bytes (to's go to its file first) */
	if (from->flen && (l2pack_flush(to) < 0 || file_cat(to, from->f, from->flen) < 0))
		return -1;
	if (to->cap - to->len < from->len) {
		uint64_t nc = to->cap ? to->cap + to->cap / 2 : 4096;
		if (nc < to->len + from->len)
			nc = to->len + from->len;
		uint8_t *b = realloc(to->b, nc);
		if (!b)
			return -1;
		to->b = b;
		to->cap = nc;
	}
	if (from->len)
		memcpy(to->b + to->len, from->b, from->len);
	to->len += from->len;
	to->n += from->n;
	to->t = from->t;
	to->line = from->line;
	to->core = from->core;
	if (to->spill_at && to->len >= to->spill_at && l2pack_flush(to) < 0)
		return -1;
	return 0;
}

void l2pack_free(l2pack *pk)
{
	free(pk->b);
	if (pk->f)
		fclose(pk->f);
	memset(pk, 0, sizeof *pk);
}

int l2pack_unpack(sim_counts *c)
{
	if (!c->pk.n)
		return 0;
	if (c->pk.f) { /* read back into memory first */
		l2pack in;
		if (l2pack_load(&in, &c->pk) < 0)
			return -1;
		l2pack_free(&c->pk);
		c->pk = in;
	}
	uint64_t n = c->nl2s + c->pk.n;
	l2req *v = realloc(c->l2s, n * sizeof *v);
	if (!v)
		return -1;
	l2pack_cur cur = {.p = c->pk.b};
	for (uint64_t i = c->nl2s; i < n; i++)
		l2pack_next(&cur, &v[i]);
	c->l2s = v;
	c->nl2s = c->l2s_cap = n;
	l2pack_free(&c->pk);
	return 0;
}

int counts_merge(sim_counts *to, const sim_counts *from)
{
	if (from->pk.n) { /* (to's records first: packed before from's) */
		if (to->nl2s && l2pack_add(&to->pk, to->l2s, to->nl2s) < 0)
			return -1;
		to->nl2s = 0;
		if (l2pack_cat(&to->pk, &from->pk) < 0)
			return -1;
	}
	if (from->nl2s) {
		if (to->nl2s + from->nl2s > to->l2s_cap) {
			uint64_t nc = to->nl2s + from->nl2s;
			l2req *v = realloc(to->l2s, nc * sizeof *v);
			if (!v)
				return -1;
			to->l2s = v;
			to->l2s_cap = nc;
		}
		memcpy(to->l2s + to->nl2s, from->l2s, from->nl2s * sizeof *from->l2s);
		to->nl2s += from->nl2s;
	}
	if (from->nsets) {
		if (!to->nsets) {
			to->set_requests = calloc(from->nsets, sizeof *to->set_requests);
			to->set_misses = calloc(from->nsets, sizeof *to->set_misses);
			if (!to->set_requests || !to->set_misses)
				return -1;
			to->nsets = from->nsets;
		}
		for (uint32_t s = 0; s < from->nsets; s++) {
			to->set_requests[s] += from->set_requests[s];
			to->set_misses[s] += from->set_misses[s];
		}
	}
	if (from->nsites) {
		if (!to->nsites && counts_sites(to, from->nsites, from->site_hist != NULL) < 0)
			return -1;
		for (uint32_t i = 0; i < from->nsites; i++) {
			site_counts *a = &to->site[i];
			const site_counts *b = &from->site[i];
			a->requests += b->requests;
			a->hits += b->hits;
			a->misses += b->misses;
			a->compulsory += b->compulsory;
			a->latency += b->latency;
			a->assoc_access += b->assoc_access;
			a->write_evict += b->write_evict;
			a->bypass += b->bypass;
			a->sector += b->sector;
		}
		if (from->site_hist && to->site_hist)
			for (size_t i = 0; i < (size_t)from->nsites * (RD_SITE_BINS + 1); i++)
				to->site_hist[i] += from->site_hist[i];
	}
	if (from->ncore_rm) {
		if (!to->ncore_rm) {
			if (!(to->core_rm = calloc((size_t)from->ncore_rm * 2, sizeof *to->core_rm)))
				return -1;
			to->ncore_rm = from->ncore_rm;
		}
		for (uint32_t i = 0; i < 2 * from->ncore_rm && i < 2 * to->ncore_rm; i++)
			to->core_rm[i] += from->core_rm[i];
	}
	to->requests += from->requests;
	to->hits += from->hits;
	to->misses += from->misses;
	to->compulsory += from->compulsory;
	to->latency += from->latency;
	to->assoc_access += from->assoc_access;
	to->write_evict += from->write_evict;
	to->bypass += from->bypass;
	to->sector += from->sector;
	to->store_requests += from->store_requests;
	to->store_hits += from->store_hits;
	to->store_evictions += from->store_evictions;
	to->sect_lookups += from->sect_lookups;
	to->sect_hits += from->sect_hits;
	to->cancels += from->cancels;
	if (from->time > to->time)
		to->time = from->time;
	to->hist_inf += from->hist_inf;
	to->hist_w_inf += from->hist_w_inf;
	for (uint32_t d = 0; d < from->hist_len; d++)
		if (from->hist[d] && hist_add_to(&to->hist, &to->hist_len, &to->hist_cap,
						 &to->hist_inf, d, from->hist[d]) < 0)
			return -1;
	for (uint32_t d = 0; d < from->hist_w_len; d++)
		if (from->hist_w[d] && hist_add_to(&to->hist_w, &to->hist_w_len, &to->hist_w_cap,
						   &to->hist_w_inf, d, from->hist_w[d]) < 0)
			return -1;
	return 0;
}

static uint64_t scaled(uint64_t v, uint64_t num, uint64_t den)
{
	return (uint64_t)((long double)v * num / den + 0.5L);
}

/* v[0 .. n) (summing to S) to integers summing to T, each the floor of
 * v[i] * T / S plus one for the largest remainders (ties: the first). */
static void apportion(uint64_t *v, int n, uint64_t T)
{
	long double S = 0, rem[RD_SITE_BINS + 1];
	for (int i = 0; i < n; i++)
		S += (long double)v[i];
	if (S == 0)
		return;
	uint64_t given = 0;
	for (int i = 0; i < n; i++) {
		long double x = (long double)v[i] * (long double)T / S;
		v[i] = (uint64_t)x;
		rem[i] = x - (long double)v[i];
		given += v[i];
	}
	for (; given < T; given++) {
		int best = 0;
		for (int i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		v[best]++;
		rem[best] = -1;
	}
}

/* One site's counts (and its distance bins, or NULL) to all cores: its
 * requests and misses scaled as the kernel's are (so misses <= requests),
 * the misses shared out exactly among the known classes and the rest, its
 * bins scaled as a whole and shared out the same way. So a site stays whole; the sites' sums are the
 * kernel's within rounding (a unit or so a site). */
static void site_scale(site_counts *s, uint64_t *hist, uint64_t num, uint64_t den)
{
	uint64_t R = scaled(s->requests, num, den), M = scaled(s->misses, num, den);
	uint64_t rest = s->misses - COUNTS_KNOWN(s);
	uint64_t v[6] = {s->compulsory, s->latency, s->write_evict, s->bypass, s->sector, rest};
	apportion(v, 6, M);
	uint64_t a = scaled(s->assoc_access, num, den);
	s->assoc_access = a < v[5] ? a : v[5];
	s->compulsory = v[0];
	s->latency = v[1];
	s->write_evict = v[2];
	s->bypass = v[3];
	s->sector = v[4];
	s->requests = R;
	s->misses = M;
	s->hits = R - M;
	uint64_t H = 0;
	for (int b = 0; hist && b <= RD_SITE_BINS; b++)
		H += hist[b];
	if (hist)
		apportion(hist, RD_SITE_BINS + 1, scaled(H, num, den));
}

void counts_scale(sim_counts *c, uint64_t num, uint64_t den)
{
	uint64_t *f[] = {&c->requests, &c->misses, &c->compulsory, &c->latency,
			 &c->assoc_access, &c->write_evict, &c->bypass, &c->sector, &c->store_requests,
			 &c->store_hits, &c->store_evictions, &c->sect_lookups, &c->sect_hits,
			 &c->cancels, &c->hist_inf, &c->hist_w_inf};
	int whole = c->hits + c->misses == c->requests;
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		*f[i] = scaled(*f[i], num, den);
	/* requests stay hits + misses (rounding is monotone: misses <= requests) */
	c->hits = whole ? c->requests - c->misses : scaled(c->hits, num, den);
	for (uint32_t d = 0; d < c->hist_len; d++)
		c->hist[d] = scaled(c->hist[d], num, den);
	for (uint32_t d = 0; d < c->hist_w_len; d++)
		c->hist_w[d] = scaled(c->hist_w[d], num, den);
	for (uint32_t s = 0; s < c->nsets; s++) {
		c->set_requests[s] = scaled(c->set_requests[s], num, den);
		c->set_misses[s] = scaled(c->set_misses[s], num, den);
	}
	for (uint32_t i = 0; i < c->nsites; i++)
		site_scale(&c->site[i], c->site_hist ? c->site_hist + (size_t)i * (RD_SITE_BINS + 1) : NULL,
			   num, den);
}

int sim_partial(const sim_input *in, const sim_counts *now)
{
	const rd_callbacks *cb = in->cb;
	if (!in->caller || !cb || !cb->partial)
		return 0;
	sim_counts s = {0};
	if ((in->acc && counts_merge(&s, in->acc) < 0) || counts_merge(&s, now) < 0) {
		counts_free(&s);
		return -1;
	}
	rd_result r = {0};
	r.partial = 1;
	r.requests = s.requests;
	r.hits = s.hits;
	r.misses = s.misses;
	r.cls[RD_CLASS_COMPULSORY] = s.compulsory;
	r.cls[RD_CLASS_LATENCY] = s.latency;
	r.cls[RD_CLASS_WRITE_EVICT] = s.write_evict;
	r.cls[RD_CLASS_BYPASS] = s.bypass;
	r.cls[RD_CLASS_SECTOR] = s.sector;
	r.cls[RD_CLASS_CAPACITY] = s.misses - COUNTS_KNOWN(&s);
	r.stores = in->k->nstores;
	r.store_requests = s.store_requests;
	r.store_hits = s.store_hits;
	r.store_evictions = s.store_evictions;
	r.cancels = s.cancels;
	r.time_steps = s.time;
	r.cases_run = 1 << RD_CASE_FULL;
	r.case_misses[RD_CASE_FULL] = s.misses;
	if (s.requests) {
		r.miss_rate_all = (double)s.misses / (double)s.requests;
		r.miss_rate = (double)(s.misses - s.latency) / (double)s.requests;
	}
	r.hist = s.hist;
	r.hist_len = s.hist_len;
	r.hist_inf = s.hist_inf;
	r.hist_w = s.hist_w;
	r.hist_w_len = s.hist_w_len;
	r.hist_w_inf = s.hist_w_inf;
	cb->partial(cb->ctx, &r);
	counts_free(&s);
	return 0;
}
