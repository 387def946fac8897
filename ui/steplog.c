/* The step-through log (see steplog.h). */
#include "steplog.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrbits.h"

/* ---------------------------------------------------------------- recording */

/* A request whose effect has not landed yet. idx: the request, an index
 * into the log's e[], or PRE | an index into pre[], or NO_REQ (before the
 * window: ev kept for pre[]). */
#define PRE 0x80000000u
#define NO_REQ 0xFFFFFFFFu

typedef struct pend {
	uint32_t idx;
	rd_event ev;   /* .stack and .after NULL */
} pend;

typedef struct core_rec {
	/* the latest entries the model reported of each set: its first
	 * `ways` (sets x ways, NULL until the core reports) */
	uint64_t *cur;
	uint32_t *curn;
	/* per set, its latest report kept in the pool (offset, count;
	 * UINT32_MAX: none) */
	uint32_t *last_off, *last_n;
	pend *p;       /* in issue order */
	size_t np, cp;
	int have_step;
	uint64_t step_t;
	size_t rec_first; /* first kept request of the current step, or STEP_NONE */
} core_rec;

typedef struct rec {
	core_rec *core;
	uint32_t ncores, sets, ways;
} rec;

/* A fill's effect (a miss's, or a merge's into it), else a hit's. */
static int is_fill(const rd_event *ev)
{
	return ev->outcome == RD_OUT_MISS || ev->outcome == RD_OUT_MERGE;
}

static steplog *log_new(const rd_config *c, uint64_t first)
{
	steplog *l = calloc(1, sizeof *l);
	rec *r = calloc(1, sizeof *r);
	if (r) {
		r->sets = rd_config_sets(c) ? rd_config_sets(c) : 1;
		r->ncores = c->cores ? c->cores : 1;
		r->ways = c->l1_ways;
		r->core = calloc(r->ncores, sizeof *r->core);
	}
	if (!l || !r || !r->core) {
		free(r ? r->core : NULL);
		free(r);
		free(l);
		return NULL;
	}
	for (uint32_t k = 0; k < r->ncores; k++)
		r->core[k].rec_first = STEP_NONE;
	l->cfg = *c;
	l->sets = rd_config_sets(c);
	l->first = first;
	l->ncores = r->ncores;
	l->cways = r->ways;
	l->keep = r->ways > STEP_KEEP ? (r->ways < RD_EVENT_STACK ? r->ways : RD_EVENT_STACK)
				      : STEP_KEEP;
	l->depth = first ? (r->ways ? r->ways : 1) : l->keep;
	l->rec = r;
	return l;
}

steplog *steplog_new(const rd_config *c)
{
	return log_new(c, 0);
}

steplog *steplog_new_at(const rd_config *c, uint64_t first)
{
	return log_new(c, first);
}

static void rec_drop(steplog *l)
{
	rec *r = l->rec;
	if (!r)
		return;
	for (uint32_t k = 0; k < r->ncores; k++) {
		core_rec *c = &r->core[k];
		free(c->cur);
		free(c->curn);
		free(c->last_off);
		free(c->last_n);
		free(c->p);
	}
	free(r->core);
	free(r);
	l->rec = NULL;
}

void steplog_free(steplog *l)
{
	if (!l)
		return;
	rec_drop(l);
	free(l->e);
	free(l->lines);
	free(l->pre);
	free(l->snap_core);
	free(l->snap_set);
	free(l->snap_n);
	free(l->snap_lines);
	free(l->chg);
	free(l);
}

/* Append n lines to the pool; their offset, or UINT32_MAX out of memory. */
static uint32_t pool_put(steplog *l, const uint64_t *v, uint32_t n)
{
	if (l->nlines + n > l->lcap) {
		size_t nc = l->lcap ? l->lcap * 2 : 1024;
		while (nc < l->nlines + n)
			nc *= 2;
		uint64_t *p = realloc(l->lines, nc * sizeof *p);
		if (!p)
			return UINT32_MAX;
		l->lines = p;
		l->lcap = nc;
	}
	if (n)
		memcpy(l->lines + l->nlines, v, n * sizeof *v);
	uint32_t off = (uint32_t)l->nlines;
	l->nlines += n;
	return off;
}

/* The core's per-set records, at its first report. */
static int core_ready(const rec *r, core_rec *c)
{
	if (c->cur)
		return 0;
	size_t cells = (size_t)r->sets * r->ways;
	c->cur = malloc((cells ? cells : 1) * sizeof *c->cur);
	c->curn = calloc(r->sets, sizeof *c->curn);
	c->last_off = malloc(r->sets * sizeof *c->last_off);
	c->last_n = calloc(r->sets, sizeof *c->last_n);
	if (!c->cur || !c->curn || !c->last_off || !c->last_n)
		return -1;
	memset(c->last_off, 0xff, r->sets * sizeof *c->last_off);
	return 0;
}

/*
 * The model reported set s of core c as v (n entries, most recent first):
 * it is the set now. Kept while the log records (the window and the rest
 * of its last step): in the pool, and for the grid as a change at pos (the
 * requests before it: the log's e[0 .. pos)). off: already in the pool
 * there (a request's stack before), else UINT32_MAX.
 */
static int report(steplog *l, core_rec *c, uint32_t s, const uint64_t *v, uint32_t n, size_t pos,
		  uint32_t off)
{
	rec *r = l->rec;
	if (core_ready(r, c) < 0)
		return -1;
	uint32_t w = n < r->ways ? n : r->ways;
	if (w)
		memcpy(c->cur + (size_t)s * r->ways, v, w * sizeof *v);
	c->curn[s] = w;
	if (!l->have_snap || l->tail_done)
		return 0;
	if (n > l->keep)
		n = l->keep;
	if (off == UINT32_MAX && (off = pool_put(l, v, n)) == UINT32_MAX)
		return -1;
	c->last_off[s] = off;
	c->last_n[s] = n;
	if (l->nchg == l->cchg) {
		size_t nc = l->cchg ? l->cchg * 2 : 256;
		step_chg *p = realloc(l->chg, nc * sizeof *p);
		if (!p)
			return -1;
		l->chg = p;
		l->cchg = nc;
	}
	l->chg[l->nchg++] = (step_chg){(uint32_t)pos, (uint32_t)(c - r->core), s, off, n};
	return 0;
}

/* The step of c ends: each of its kept requests' set as it is now. */
static void step_end(steplog *l, core_rec *c, size_t end)
{
	if (!c->have_step)
		return;
	uint32_t core = (uint32_t)(c - ((rec *)l->rec)->core);
	for (size_t i = c->rec_first; c->rec_first != STEP_NONE && i < end; i++) {
		step_ev *s = &l->e[i];
		if (s->ev.core != core || s->ev.level == 2 || s->ev.outcome == RD_OUT_FILL)
			continue;
		if (c->last_n && c->last_off[s->ev.set] != UINT32_MAX) {
			s->after = c->last_off[s->ev.set];
			s->nafter = c->last_n[s->ev.set];
		} else {
			s->after = s->before;
			s->nafter = s->nbefore;
		}
	}
	c->have_step = 0;
	c->rec_first = STEP_NONE;
}

/* A report of core c at time t: a later time ends its step. */
static void step_at(steplog *l, core_rec *c, uint64_t t)
{
	if (c->have_step && c->step_t != t)
		step_end(l, c, l->n);
}

/* The window starts: keep the cache (its sets that hold lines) and the
 * requests in flight. */
static int window_start(steplog *l)
{
	rec *r = l->rec;
	l->have_snap = 1;
	size_t ns = 0, np = 0;
	for (uint32_t k = 0; k < r->ncores; k++) {
		np += r->core[k].np;
		for (uint32_t s = 0; r->core[k].curn && s < r->sets; s++)
			ns += r->core[k].curn[s] > 0;
	}
	l->pre = calloc(np ? np : 1, sizeof *l->pre);
	l->snap_core = malloc((ns ? ns : 1) * sizeof *l->snap_core);
	l->snap_set = malloc((ns ? ns : 1) * sizeof *l->snap_set);
	l->snap_n = malloc((ns ? ns : 1) * sizeof *l->snap_n);
	l->snap_lines = malloc((ns * l->cways > 0 ? ns * l->cways : 1) * sizeof *l->snap_lines);
	if (!l->pre || !l->snap_core || !l->snap_set || !l->snap_n || !l->snap_lines)
		return -1;
	for (uint32_t k = 0; k < r->ncores; k++) {
		core_rec *c = &r->core[k];
		for (uint32_t s = 0; c->curn && s < r->sets; s++) {
			if (!c->curn[s])
				continue;
			l->snap_core[l->nsnap] = k;
			l->snap_set[l->nsnap] = s;
			l->snap_n[l->nsnap] = c->curn[s];
			memcpy(l->snap_lines + l->nsnap * l->cways, c->cur + (size_t)s * r->ways,
			       c->curn[s] * sizeof *c->cur);
			l->nsnap++;
		}
		for (size_t j = 0; j < c->np; j++) {
			step_ev *p = &l->pre[l->npre];
			memset(p, 0, sizeof *p);
			p->ev = c->p[j].ev;
			p->early_by = STEP_NONE;
			p->landed = STEP_NONE;
			p->prev = STEP_NONE;
			c->p[j].idx = PRE | (uint32_t)l->npre++;
		}
	}
	return 0;
}

/* Where request idx is kept: in the log, in pre[], or nowhere. */
static step_ev *kept(steplog *l, uint32_t idx)
{
	if (idx == NO_REQ)
		return NULL;
	if (idx & PRE)
		return (idx & ~PRE) < l->npre ? &l->pre[idx & ~PRE] : NULL;
	return idx < l->n ? &l->e[idx] : NULL;
}

static int pend_push(core_rec *c, const rd_event *ev, uint32_t idx)
{
	if (c->np == c->cp) {
		size_t nc = c->cp ? c->cp * 2 : 16;
		pend *p = realloc(c->p, nc * sizeof *p);
		if (!p)
			return -1;
		c->p = p;
		c->cp = nc;
	}
	pend *p = &c->p[c->np++];
	p->idx = idx;
	p->ev = *ev;
	p->ev.stack = p->ev.after = NULL;
	return 0;
}

/* A report starts the window once the requests before it have come. */
static int window_due(steplog *l)
{
	if (l->have_snap || l->seen != l->first)
		return 0;
	if (window_start(l) < 0) {
		l->oom = 1;
		return -1;
	}
	return 0;
}

int steplog_land(steplog *l, const rd_landing *ld)
{
	rec *r = l->rec;
	if (!r || l->oom || window_due(l) < 0)
		return -1;
	if (l->tail_done || ld->core >= r->ncores || ld->set >= r->sets)
		return l->tail_done;
	core_rec *c = &r->core[ld->core];
	step_at(l, c, ld->time);
	/* Its requests: landed, before the next one's lookup (early: that
	 * lookup needed it), the next one kept or not. */
	uint32_t next = l->have_snap && l->n < STEP_MAX ? (uint32_t)l->n : STEP_NONE;
	size_t o = 0;
	for (size_t k = 0; k < c->np; k++) {
		pend *p = &c->p[k];
		if (p->ev.line != ld->line || p->ev.effect_at != ld->time || is_fill(&p->ev) != ld->fill) {
			c->p[o++] = *p;
			continue;
		}
		step_ev *s = kept(l, p->idx);
		if (s) {
			s->landed = (uint32_t)l->n;
			if (ld->early)
				s->early_by = next;
		}
	}
	c->np = o;
	if (ld->stack && report(l, c, ld->set, ld->stack, ld->stack_len, l->n, UINT32_MAX) < 0) {
		l->oom = 1;
		return -1;
	}
	return 0;
}

int steplog_add(steplog *l, const rd_event *ev)
{
	rec *r = l->rec;
	if (!r || l->oom || window_due(l) < 0)
		return -1;
	uint64_t num = l->seen++;
	if (l->seen == l->first) /* (the window's reports come next) */
		l->depth = l->keep;
	/* The L2's requests and the fills' rows (model=rdgc, an L2) are
	 * kept and shown; the L1's sets are the rest's. The L2 runs after
	 * every L1: once its requests come, every L1 step has ended. */
	int foreign = ev->level == 2 || ev->outcome == RD_OUT_FILL;
	int mine = !foreign && ev->core < r->ncores && ev->set < r->sets;
	if (num >= l->first + STEP_MAX) {
		l->truncated = 1;
		if (!l->tail_done && mine) {
			core_rec *c = &r->core[ev->core];
			if (c->have_step && c->rec_first != STEP_NONE && c->step_t == ev->time) {
				/* the step of kept requests goes on: what it changes counts */
				if (ev->after && report(l, c, ev->set, ev->after, ev->after_len, l->n,
							UINT32_MAX) < 0) {
					l->oom = 1;
					return -1;
				}
				return 1;
			}
		}
		/* (the step has ended: the rest does not matter) */
		l->tail_done = 1;
		return 1;
	}
	int keep = num >= l->first;
	if (!keep && !mine)
		return 0;
	if (keep && l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 64;
		step_ev *p = realloc(l->e, nc * sizeof *p);
		if (!p) {
			l->oom = 1;
			return -1;
		}
		l->e = p;
		l->cap = nc;
	}
	size_t li = l->n;
	step_ev *s = keep ? &l->e[li] : NULL;
	if (s) {
		memset(s, 0, sizeof *s);
		s->ev = *ev;
		s->ev.stack = s->ev.after = NULL;
		s->mshr_before = ev->mshrs_before;
		s->early_by = STEP_NONE;
		s->landed = STEP_NONE;
		s->prev = STEP_NONE;
		l->n++;
		if (ev->stack && mine)
			l->stacks = 1;
	}
	if (!mine)
		return 0;
	core_rec *c = &r->core[ev->core];
	step_at(l, c, ev->time);
	if (!c->have_step) {
		c->have_step = 1;
		c->step_t = ev->time;
		c->rec_first = STEP_NONE;
	}
	if (s && c->rec_first == STEP_NONE)
		c->rec_first = li;
	int bad = 0;
	if (ev->stack) {
		/* the set as the lookup found it (kept: the request's before) */
		uint32_t off = UINT32_MAX;
		if (s) {
			s->nbefore = ev->stack_len > l->keep ? l->keep : ev->stack_len;
			bad |= (off = s->before = pool_put(l, ev->stack, s->nbefore)) == UINT32_MAX;
			s->after = s->before;
			s->nafter = s->nbefore;
		}
		bad |= !bad && report(l, c, ev->set, ev->stack, ev->stack_len, li, off) < 0;
		/* ... and after it, where it changed it */
		if (ev->after && ev->after != ev->stack)
			bad |= !bad && report(l, c, ev->set, ev->after, ev->after_len, li + 1,
					      UINT32_MAX) < 0;
	}
	/* (reference-2013 reports no landings: nothing would leave the list) */
	if (bad || (rd_event_has_effect(ev) && l->cfg.model != RD_PROFILE_REF2013 &&
		    pend_push(c, ev, s ? (uint32_t)li : NO_REQ) < 0)) {
		l->oom = 1;
		return -1;
	}
	return 0;
}

const uint64_t *steplog_stack(const steplog *l, size_t i, int after, uint32_t *len)
{
	const step_ev *s = &l->e[i];
	*len = after ? s->nafter : s->nbefore;
	if (!l->lines) /* no stack was ever kept */
		return NULL;
	return l->lines + (after ? s->after : s->before);
}

typedef struct wk {
	uint32_t warp, idx;
} wk;

static int wk_cmp(const void *a, const void *b)
{
	const wk *x = a, *y = b;
	if (x->warp != y->warp)
		return x->warp < y->warp ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* prev and last of every request: by sorting (warp ids can be large). */
static int link_warps(steplog *l)
{
	wk *a = malloc((l->n ? l->n : 1) * sizeof *a);
	if (!a)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		a[i] = (wk){l->e[i].ev.warp, (uint32_t)i};
	qsort(a, l->n, sizeof *a, wk_cmp);
	for (size_t i = 0; i < l->n; i++) {
		step_ev *s = &l->e[a[i].idx];
		s->prev = i && a[i - 1].warp == a[i].warp ? a[i - 1].idx : STEP_NONE;
		s->last = i + 1 == l->n || a[i + 1].warp != a[i].warp;
	}
	free(a);
	return 0;
}

int steplog_end(steplog *l, int complete)
{
	rec *r = l->rec;
	if (r)
		for (uint32_t c = 0; c < r->ncores; c++)
			step_end(l, &r->core[c], l->n);
	rec_drop(l);
	l->complete = complete;
	if (l->oom || link_warps(l) < 0)
		return -1;
	return 0;
}

int steplog_finish(steplog *l)
{
	return steplog_end(l, 1);
}

/* ---------------------------------------------------------------- queries */

/* Is s (issued before request i, on its core) still to take effect at
 * i's lookup (the model reported it landed after)? */
static int pending_at(const steplog *l, const step_ev *s, size_t i)
{
	return s->ev.core == l->e[i].ev.core && rd_event_has_effect(&s->ev) && s->landed > i;
}

size_t steplog_inflight(const steplog *l, size_t i, const step_ev **out, size_t max)
{
	size_t n = 0;
	for (size_t j = 0; j < l->npre; j++)
		if (pending_at(l, &l->pre[j], i)) {
			if (n < max)
				out[n] = &l->pre[j];
			n++;
		}
	for (size_t j = 0; j < i; j++)
		if (pending_at(l, &l->e[j], i)) {
			if (n < max)
				out[n] = &l->e[j];
			n++;
		}
	return n;
}

size_t steplog_next_issues(const steplog *l, size_t i, size_t *out, size_t max)
{
	size_t n = 0;
	const rd_event *me = &l->e[i].ev;
	for (size_t k = i + 1; k < l->n; k++) {
		const step_ev *s = &l->e[k];
		if (s->ev.core != me->core)
			continue;
		/* The rest of i's own instruction is not a next issue. */
		if (s->ev.warp == me->warp && s->ev.time == me->time)
			continue;
		/* The first request of its warp after i (and after i's issue). */
		uint32_t p = s->prev;
		while (p != STEP_NONE && p > i && l->e[p].ev.warp == me->warp &&
		       l->e[p].ev.time == me->time)
			p = l->e[p].prev;
		if (p != STEP_NONE && p > i)
			continue;
		if (n < max)
			out[n] = k;
		n++;
	}
	return n;
}

size_t steplog_finished(const steplog *l, size_t i, uint32_t *out, size_t max)
{
	size_t n = 0;
	uint32_t core = l->e[i].ev.core;
	for (size_t j = 0; j <= i; j++) {
		const step_ev *s = &l->e[j];
		if (s->ev.core != core || !s->last)
			continue;
		if (n < max)
			out[n] = s->ev.warp;
		n++;
	}
	return n;
}

/* The miss fill in flight for request i's line (the entry it merges
 * into): the oldest earlier fill of the line still in flight. */
static const step_ev *inflight_fill(const steplog *l, size_t i)
{
	const step_ev *idx[256];
	size_t n = steplog_inflight(l, i, idx, 256);
	if (n > 256)
		n = 256;
	for (size_t k = 0; k < n; k++)
		if (idx[k]->ev.outcome == RD_OUT_MISS && idx[k]->ev.line == l->e[i].ev.line)
			return idx[k];
	return NULL;
}

static void explain(const steplog *l, size_t i, char *buf, size_t len);

void steplog_explain(const steplog *l, size_t i, char *buf, size_t len)
{
	const rd_event *ev = &l->e[i].ev;
	/* A store under l1.stores=allocate is looked up like a load: the
	 * same words, said of a store. */
	if (ev->store && (ev->outcome == RD_OUT_MISS || ev->outcome == RD_OUT_CANCEL)) {
		char t[512];
		explain(l, i, t, sizeof t);
		snprintf(buf, len, "store %s", t);
		return;
	}
	explain(l, i, buf, len);
}

/* Where a request went: "bank 1, port 0" (and its partition at the L2). */
static void bank_words(const rd_event *ev, char *buf, size_t len)
{
	if (ev->level == 2)
		snprintf(buf, len, "partition %u bank %u, port %u", ev->partition, ev->bank, ev->port);
	else
		snprintf(buf, len, "bank %u, port %u", ev->bank, ev->port);
}

/* A request of the L2 (the L1's misses, merged across cores by step). */
static void explain_l2(const steplog *l, size_t i, char *buf, size_t len)
{
	const rd_event *ev = &l->e[i].ev;
	unsigned long long line = (unsigned long long)ev->line;
	char at[96];
	bank_words(ev, at, sizeof at);
	const char *st = ev->store ? "store " : "";
	switch (ev->outcome) {
	case RD_OUT_HIT:
		snprintf(buf, len, "L2 %shit: line %llu (from core %u) at distance %lld < %u ways in its "
			 "bank's set %u (%s)", st, line, ev->core, (long long)ev->distance,
			 l->cfg.l2_ways, ev->set, at);
		return;
	case RD_OUT_RF:
		snprintf(buf, len, "L2 reservation fail: line %llu finds no MSHR entry (or merge "
			 "slot) in %s; retried in a later step", line, at);
		return;
	case RD_OUT_FILL:
		snprintf(buf, len, "L2 fill: line %llu arrives in %s, enters its set in MSHR order, "
			 "frees its entry (%u free)", line, at, ev->mshrs_free);
		return;
	case RD_OUT_MERGE:
		snprintf(buf, len, "L2 merge: line %llu is in flight; the request joins its MSHR "
			 "entry (%s)", line, at);
		return;
	default:
		break;
	}
	const char *cls = ev->cls >= 0 && ev->cls < RD_NCLASS ? rd_class_name((enum rd_class)ev->cls)
							      : "";
	if (ev->distance >= 0)
		snprintf(buf, len, "L2 %s%s miss: line %llu (from core %u) at distance %lld >= %u ways "
			 "(%s); %u MSHR entries free", st, cls, line, ev->core,
			 (long long)ev->distance, l->cfg.l2_ways, at, ev->mshrs_free);
	else
		snprintf(buf, len, "L2 %s%s miss: line %llu (from core %u) not in its bank's set %u (%s); "
			 "%u MSHR entries free", st, cls, line, ev->core, ev->set, at, ev->mshrs_free);
}

static void explain(const steplog *l, size_t i, char *buf, size_t len)
{
	const rd_event *ev = &l->e[i].ev;
	if (ev->level == 2) {
		explain_l2(l, i, buf, len);
		return;
	}
	unsigned long long line = (unsigned long long)ev->line;
	unsigned ways = l->cfg.l1_ways;
	char when[64] = "";
	if (ev->outcome != RD_OUT_CANCEL && ev->latency)
		snprintf(when, sizeof when, "; effect at t=%llu", (unsigned long long)ev->effect_at);
	switch (ev->outcome) {
	case RD_OUT_EVICT:
		/* In the ways (LRU: a distance below them), or else in flight. */
		if (ev->distance >= 0 && (ev->distance < (int64_t)ways ||
					  l->cfg.replacement != RD_REPL_LRU))
			snprintf(buf, len, "store evicts line %llu from set %u: its way stays empty "
				 "until a fill; the next load of it misses (write_evict)", line, ev->set);
		else
			snprintf(buf, len, "store: line %llu is in flight to set %u: write-evict "
				 "cancels its insertion (the fill lands, the line stays out)",
				 line, ev->set);
		return;
	case RD_OUT_BYPASS:
		snprintf(buf, len, "store: line %llu is not in set %u: it goes past the L1 "
			 "(write-evict: no lookup, no MSHR)", line, ev->set);
		return;
	case RD_OUT_HIT:
		if (ev->cls == RD_CLASS_SECTOR)
			snprintf(buf, len, "sector miss: line %llu is in set %u (distance %lld < %u "
					   "ways) but its sector %d was never fetched: l1.sector fills "
					   "only the sectors asked for%s",
				 line, ev->set, (long long)ev->distance, ways,
				 ev->sect_ask & ~ev->sect_had ? __builtin_ctz(ev->sect_ask & ~ev->sect_had)
							      : 0,
				 when);
		else
			snprintf(buf, len, "%shit: line %llu is at distance %lld < %u ways in set %u's "
					   "stack%s",
				 ev->store ? "store " : "", line, (long long)ev->distance, ways, ev->set,
				 when);
		return;
	case RD_OUT_CANCEL: {
		char why[64];
		if (l->cfg.l1_mshrs && l->e[i].mshr_before >= l->cfg.l1_mshrs)
			snprintf(why, sizeof why, "none is free");
		else
			snprintf(why, sizeof why, "warp %u holds all it may", ev->warp);
		size_t nx = STEP_NONE;
		for (size_t k = i + 1; k < l->n; k++)
			if (l->e[k].ev.warp == ev->warp) {
				nx = k;
				break;
			}
		char retry[48] = "later";
		if (nx != STEP_NONE)
			snprintf(retry, sizeof retry, "at t=%llu", (unsigned long long)l->e[nx].ev.time);
		snprintf(buf, len, "cancelled: line %llu needs an MSHR and %s; warp %u retries %s", line,
			 why, ev->warp, retry);
		return;
	}
	case RD_OUT_RF:
		snprintf(buf, len, "reservation fail: line %llu finds no free MSHR entry (or its "
			 "entry merges no more) in bank %u; the warp group waits and retries", line,
			 ev->bank);
		return;
	case RD_OUT_FILL:
		snprintf(buf, len, "fill: line %llu arrives in bank %u, enters its set's stack in "
			 "MSHR order and frees its entry", line, ev->bank);
		return;
	case RD_OUT_MERGE:
	case RD_OUT_MISS:
		break;
	}
	if (ev->cls == RD_CLASS_BYPASS) {
		snprintf(buf, len, "bypass: loads go past the L1 (l1.loads=bypass): no lookup, no "
			 "MSHR, line %llu not cached%s", line, when);
		return;
	}
	if (ev->cls == RD_CLASS_WRITE_EVICT) {
		snprintf(buf, len, "write_evict miss: a store removed line %llu from set %u (or "
			 "cancelled its insertion) since its last fill%s", line, ev->set, when);
		return;
	}
	if (ev->cls == RD_CLASS_COMPULSORY) {
		snprintf(buf, len, "compulsory miss: the first request for line %llu%s", line, when);
		return;
	}
	if (ev->cls == RD_CLASS_LATENCY) {
		const step_ev *f = inflight_fill(l, i);
		if (f)
			snprintf(buf, len, "latency miss: line %llu is in flight (asked at t=%llu, lands "
					   "t=%llu)%s",
				 line, (unsigned long long)f->ev.time,
				 (unsigned long long)f->ev.effect_at, when);
		else
			snprintf(buf, len, "latency miss: line %llu is still on its way%s", line, when);
		return;
	}
	char cls[32] = "miss";
	if (ev->cls >= 0 && ev->cls < RD_NCLASS)
		snprintf(cls, sizeof cls, "%s miss", rd_class_name((enum rd_class)ev->cls));
	if (ev->distance < 0)
		snprintf(buf, len, "%s: line %llu is not in set %u's stack%s", cls, line, ev->set,
			 when);
	else
		snprintf(buf, len, "%s: distance %lld >= %u ways: that many other lines of set %u "
				   "came since%s",
			 cls, (long long)ev->distance, ways, ev->set, when);
}

/* ---------------------------------------------------------------- grid */

void step_grid_free(step_grid *g)
{
	free(g->lines);
	free(g->n);
	free(g->fly_line);
	free(g->fly_set);
	memset(g, 0, sizeof *g);
}

int step_grid_flying(const step_grid *g, uint64_t line)
{
	for (size_t k = 0; k < g->nfly; k++)
		if (g->fly_line[k] == line)
			return 1;
	return 0;
}

const uint64_t *step_grid_set(const step_grid *g, uint32_t s, uint32_t *n)
{
	*n = 0;
	if (!g->lines || s >= g->sets)
		return NULL;
	*n = g->n[s];
	return g->lines + (size_t)s * g->ways;
}

/* Set s of g is v (n entries): its first ways. */
static void grid_put(step_grid *g, uint32_t s, const uint64_t *v, uint32_t n)
{
	if (s >= g->sets)
		return;
	g->n[s] = n < g->ways ? n : g->ways;
	memcpy(g->lines + (size_t)s * g->ways, v, g->n[s] * sizeof *v);
}

int steplog_grid(const steplog *l, size_t i, step_grid *g)
{
	memset(g, 0, sizeof *g);
	if (i >= l->n || !l->have_snap || !l->cways || l->e[i].ev.core >= l->ncores)
		return -1;
	uint32_t core = l->e[i].ev.core;
	g->core = core;
	g->sets = l->sets ? l->sets : 1;
	g->ways = l->cways;
	g->lines = malloc((size_t)g->sets * g->ways * sizeof *g->lines);
	g->n = calloc(g->sets, sizeof *g->n);
	/* the fills in flight at i's lookup: of its requests in flight */
	size_t nf = steplog_inflight(l, i, NULL, 0);
	const step_ev **fl = malloc((nf ? nf : 1) * sizeof *fl);
	g->fly_line = malloc((nf ? nf : 1) * sizeof *g->fly_line);
	g->fly_set = malloc((nf ? nf : 1) * sizeof *g->fly_set);
	if (!g->lines || !g->n || !fl || !g->fly_line || !g->fly_set) {
		free(fl);
		step_grid_free(g);
		return -1;
	}
	/* The cache at the window's start, then every change the model
	 * reported before i's lookup (i's set as it found it, last). */
	for (size_t k = 0; k < l->nsnap; k++)
		if (l->snap_core[k] == core)
			grid_put(g, l->snap_set[k], l->snap_lines + k * l->cways, l->snap_n[k]);
	for (size_t k = 0; k < l->nchg && l->chg[k].pos <= i; k++)
		if (l->chg[k].core == core)
			grid_put(g, l->chg[k].set, l->lines + l->chg[k].off, l->chg[k].n);
	steplog_inflight(l, i, fl, nf);
	for (size_t k = 0; k < nf; k++)
		if (fl[k]->ev.outcome == RD_OUT_MISS && !step_grid_flying(g, fl[k]->ev.line)) {
			g->fly_line[g->nfly] = fl[k]->ev.line;
			g->fly_set[g->nfly++] = fl[k]->ev.set;
		}
	free(fl);
	return 0;
}

static unsigned log2_floor(uint64_t v)
{
	unsigned r = 0;
	while (v > 1)
		v >>= 1, r++;
	return r;
}

uint64_t steplog_tag(const rd_config *c, uint32_t sets, uint64_t line)
{
	if (sets <= 1)
		return line;
	if (sets & (sets - 1) || c->l1_hash == RD_HASH_PRIME) {
		uint32_t m = c->l1_hash == RD_HASH_PRIME ? rd_hash_prime(sets) : sets;
		if (c->l1_hash == RD_HASH_SMOD && c->l1_hash_shift < 64) {
			unsigned sh = c->l1_hash_shift;
			uint64_t low = sh ? line & ((1ull << sh) - 1) : 0;
			return ((line >> sh) / m) << sh | low;
		}
		return line / (m ? m : 1);
	}
	/* A power of two of sets: the line's bits that do not index, packed. */
	unsigned ob = log2_floor(c->l1_line ? c->l1_line : 1);
	addr_bits ab;
	addr_bits_explain(c, sets, line << ob, &ab);
	uint64_t tag = 0;
	unsigned o = 0;
	for (unsigned b = ob; b < 64; b++) {
		int idx = b < ADDR_BITS_MAX && ab.role[b] == BIT_INDEX;
		if (idx)
			continue;
		if ((line >> (b - ob)) & 1)
			tag |= 1ull << o;
		o++;
		if (b - ob == 63)
			break;
	}
	return tag;
}

int steplog_parse_goal(const char *text, int *is_time, uint64_t *v, char *err, size_t len)
{
	const char *p = text;
	while (*p == ' ')
		p++;
	*is_time = 0;
	if (*p == 't' || *p == 'T') {
		*is_time = 1;
		p++;
		if (*p == '=')
			p++;
	} else if (*p == '#') {
		p++;
	}
	if (!isdigit((unsigned char)*p)) {
		snprintf(err, len, "go to: '%s' is not a request number (N) or a time (tN)", text);
		return -1;
	}
	errno = 0;
	char *end;
	unsigned long long n = strtoull(p, &end, 10);
	while (*end == ' ')
		end++;
	if (errno || *end) {
		snprintf(err, len, "go to: '%s' is not a request number (N) or a time (tN)", text);
		return -1;
	}
	if (!*is_time && n == 0) {
		snprintf(err, len, "go to: requests are numbered from 1");
		return -1;
	}
	*v = *is_time ? n : n - 1;
	return 0;
}
