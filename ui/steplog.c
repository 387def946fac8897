/* The step-through log and its replay (see steplog.h). */
#include "steplog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

steplog *steplog_new(const rd_config *c)
{
	steplog *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->cfg = *c;
	l->sets = rd_config_sets(c);
	return l;
}

void steplog_free(steplog *l)
{
	if (!l)
		return;
	free(l->e);
	free(l->lines);
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

int steplog_add(steplog *l, const rd_event *ev)
{
	if (l->n >= STEP_MAX) {
		l->truncated = 1;
		return 1;
	}
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 64;
		step_ev *p = realloc(l->e, nc * sizeof *p);
		if (!p) {
			l->oom = 1;
			return -1;
		}
		l->e = p;
		l->cap = nc;
	}
	step_ev *s = &l->e[l->n];
	memset(s, 0, sizeof *s);
	s->ev = *ev;
	s->ev.stack = NULL;
	s->nbefore = ev->stack && ev->stack_len ? ev->stack_len : 0;
	if (s->nbefore > STEP_KEEP)
		s->nbefore = STEP_KEEP;
	s->before = pool_put(l, ev->stack, s->nbefore);
	if (s->before == UINT32_MAX) {
		l->oom = 1;
		return -1;
	}
	if (ev->stack)
		l->stacks = 1;
	s->early_by = STEP_NONE;
	s->prev = STEP_NONE;
	l->n++;
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

/* ---------------------------------------------------------------- replay */

typedef struct vec {
	uint64_t *v;
	uint32_t n, cap;
} vec;

typedef struct effect {
	uint64_t at, line;
	uint32_t idx;  /* the request */
	int fill;      /* a miss fill (holds the line's MSHR entry), or a hit */
} effect;

typedef struct core_rp {
	vec *set;      /* per set: lines, most recent first */
	effect *pend;  /* in push (issue) order */
	size_t npend, cpend;
	int have_step;
	uint64_t step_t;
	size_t step_first; /* first request of the current step */
} core_rp;

typedef struct replay {
	steplog *l;
	core_rp *core;
	uint32_t ncores;
	int oom;
} replay;

static void lru_touch(replay *r, vec *s, uint64_t line)
{
	uint32_t i = 0;
	while (i < s->n && s->v[i] != line)
		i++;
	if (i == s->n) {
		if (s->n == s->cap) {
			uint32_t nc = s->cap ? s->cap * 2 : 8;
			uint64_t *p = realloc(s->v, nc * sizeof *p);
			if (!p) {
				r->oom = 1;
				return;
			}
			s->v = p;
			s->cap = nc;
		}
		s->n++;
	}
	memmove(s->v + 1, s->v, i * sizeof *s->v);
	s->v[0] = line;
}

static int64_t lru_find(const vec *s, uint64_t line)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->v[i] == line)
			return i;
	return -1;
}

static void land(replay *r, core_rp *c, size_t k)
{
	const effect *e = &c->pend[k];
	lru_touch(r, &c->set[r->l->e[e->idx].ev.set], e->line);
}

/* Land every effect due at or before t, by time then issue order. */
static void land_until(replay *r, core_rp *c, uint64_t t)
{
	for (;;) {
		uint64_t first = UINT64_MAX;
		for (size_t k = 0; k < c->npend; k++)
			if (c->pend[k].at <= t && c->pend[k].at < first)
				first = c->pend[k].at;
		if (first == UINT64_MAX)
			return;
		size_t o = 0;
		for (size_t k = 0; k < c->npend; k++) {
			if (c->pend[k].at == first)
				land(r, c, k);
			else
				c->pend[o++] = c->pend[k];
		}
		c->npend = o;
	}
}

/* Lines with a fill in flight: the MSHR entries in use. */
static uint32_t mshrs_used(const core_rp *c)
{
	uint32_t n = 0;
	for (size_t k = 0; k < c->npend; k++) {
		if (!c->pend[k].fill)
			continue;
		size_t j = 0;
		while (j < k && !(c->pend[j].fill && c->pend[j].line == c->pend[k].line))
			j++;
		n += j == k;
	}
	return n;
}

/* The step of c ends: land its effects and note each of its requests'
 * set as it is afterwards. */
static void step_end(replay *r, core_rp *c, size_t end)
{
	if (!c->have_step)
		return;
	steplog *l = r->l;
	land_until(r, c, c->step_t);
	for (size_t i = c->step_first; i < end; i++) {
		step_ev *s = &l->e[i];
		if (s->ev.core != l->e[c->step_first].ev.core)
			continue;
		const vec *v = &c->set[s->ev.set];
		s->nafter = v->n > STEP_KEEP ? STEP_KEEP : v->n;
		s->after = pool_put(l, v->v, s->nafter);
		if (s->after == UINT32_MAX) {
			r->oom = 1;
			s->after = 0;
			s->nafter = 0;
		}
	}
	c->have_step = 0;
}

static void disagree(steplog *l, size_t i)
{
	if (l->replay_ok) {
		l->replay_ok = 0;
		l->replay_bad = i;
	}
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

int steplog_finish(steplog *l)
{
	if (l->oom || link_warps(l) < 0)
		return -1;
	replay r = {.l = l};
	uint32_t sets = l->sets ? l->sets : 1;
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].ev.core + 1 > r.ncores)
			r.ncores = l->e[i].ev.core + 1;
	r.core = calloc(r.ncores ? r.ncores : 1, sizeof *r.core);
	if (!r.core)
		return -1;
	for (uint32_t c = 0; c < r.ncores && !r.oom; c++)
		if (!(r.core[c].set = calloc(sets, sizeof *r.core[c].set)))
			r.oom = 1;
	l->replay_ok = l->stacks;
	for (size_t i = 0; i < l->n && !r.oom; i++) {
		step_ev *s = &l->e[i];
		const rd_event *ev = &s->ev;
		if (ev->set >= sets) {
			disagree(l, i);
			break;
		}
		core_rp *c = &r.core[ev->core];
		uint64_t T = ev->time;
		if (c->have_step && c->step_t != T)
			step_end(&r, c, i);
		if (!c->have_step) {
			c->have_step = 1;
			c->step_t = T;
			c->step_first = i;
		}
		if (T > 0) /* what was due before this step has landed */
			land_until(&r, c, T - 1);
		vec *set = &c->set[ev->set];
		int64_t d = lru_find(set, ev->line);
		/* The looked-up line's own fills due now land first on a miss. */
		if (d < 0 || d >= (int64_t)l->cfg.l1_ways) {
			size_t o = 0;
			for (size_t k = 0; k < c->npend; k++) {
				effect *e = &c->pend[k];
				if (e->fill && e->at == T && e->line == ev->line) {
					land(&r, c, k);
					l->e[e->idx].early_by = (uint32_t)i;
				} else {
					c->pend[o++] = *e;
				}
			}
			c->npend = o;
			d = lru_find(set, ev->line);
		}
		/* Check the replay against what the model reported. */
		if (l->stacks) {
			uint32_t model_len = ev->stack_len, have = set->n > 64 ? 64 : set->n;
			if (model_len != have || d != ev->distance ||
			    (s->nbefore &&
			     memcmp(l->lines + s->before, set->v, s->nbefore * sizeof *set->v) != 0))
				disagree(l, i);
		}
		s->mshr_before = mshrs_used(c);
		if (ev->outcome != RD_OUT_CANCEL) {
			if (c->npend == c->cpend) {
				size_t nc = c->cpend ? c->cpend * 2 : 16;
				effect *p = realloc(c->pend, nc * sizeof *p);
				if (!p) {
					r.oom = 1;
					break;
				}
				c->pend = p;
				c->cpend = nc;
			}
			c->pend[c->npend++] = (effect){ev->effect_at, ev->line, (uint32_t)i,
						       ev->outcome == RD_OUT_MISS};
		}
		if (l->stacks && mshrs_used(c) != ev->mshrs_used)
			disagree(l, i);
	}
	for (uint32_t c = 0; c < r.ncores; c++)
		step_end(&r, &r.core[c], l->n);
	for (uint32_t c = 0; c < r.ncores; c++) {
		if (r.core[c].set)
			for (uint32_t s = 0; s < sets; s++)
				free(r.core[c].set[s].v);
		free(r.core[c].set);
		free(r.core[c].pend);
	}
	free(r.core);
	return r.oom ? -1 : 0;
}

/* ---------------------------------------------------------------- queries */

size_t steplog_inflight(const steplog *l, size_t i, size_t *out, size_t max)
{
	const rd_event *ev = &l->e[i].ev;
	size_t n = 0;
	for (size_t j = 0; j < i; j++) {
		const step_ev *s = &l->e[j];
		if (s->ev.core != ev->core || s->ev.outcome == RD_OUT_CANCEL)
			continue;
		int pending = s->ev.effect_at > ev->time ||
			      (s->ev.effect_at == ev->time &&
			       (s->early_by == STEP_NONE || s->early_by > i));
		if (!pending)
			continue;
		if (n < max)
			out[n] = j;
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
 * into): the newest earlier fill of the line still in flight. */
static size_t inflight_fill(const steplog *l, size_t i)
{
	size_t found = STEP_NONE;
	size_t idx[256];
	size_t n = steplog_inflight(l, i, idx, 256);
	if (n > 256)
		n = 256;
	for (size_t k = 0; k < n; k++) {
		const rd_event *e = &l->e[idx[k]].ev;
		if (e->outcome == RD_OUT_MISS && e->line == l->e[i].ev.line && found == STEP_NONE)
			found = idx[k];
	}
	return found;
}

void steplog_explain(const steplog *l, size_t i, char *buf, size_t len)
{
	const rd_event *ev = &l->e[i].ev;
	unsigned long long line = (unsigned long long)ev->line;
	unsigned ways = l->cfg.l1_ways;
	char when[64] = "";
	if (ev->outcome != RD_OUT_CANCEL && ev->latency)
		snprintf(when, sizeof when, "; effect at t=%llu", (unsigned long long)ev->effect_at);
	switch (ev->outcome) {
	case RD_OUT_HIT:
		snprintf(buf, len, "hit: line %llu is at distance %lld < %u ways in set %u's stack%s",
			 line, (long long)ev->distance, ways, ev->set, when);
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
	case RD_OUT_MISS:
		break;
	}
	if (ev->cls == RD_CLASS_COMPULSORY) {
		snprintf(buf, len, "compulsory miss: the first request for line %llu%s", line, when);
		return;
	}
	if (ev->cls == RD_CLASS_LATENCY) {
		size_t f = inflight_fill(l, i);
		if (f != STEP_NONE)
			snprintf(buf, len, "latency miss: line %llu is in flight (asked at t=%llu, lands "
					   "t=%llu)%s",
				 line, (unsigned long long)l->e[f].ev.time,
				 (unsigned long long)l->e[f].ev.effect_at, when);
		else
			snprintf(buf, len, "latency miss: line %llu is still on its way%s", line, when);
		return;
	}
	if (ev->distance < 0)
		snprintf(buf, len, "miss: line %llu is not in set %u's stack%s", line, ev->set, when);
	else
		snprintf(buf, len, "miss: distance %lld >= %u ways: that many other lines of set %u "
				   "came since%s",
			 (long long)ev->distance, ways, ev->set, when);
}
