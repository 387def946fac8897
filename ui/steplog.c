/* The step-through log and its replay (see steplog.h). */
#include "steplog.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrbits.h"

/* ---------------------------------------------------------------- replay */

typedef struct vec {
	uint64_t *v;
	uint32_t n, cap;
	int dropped; /* a line fell off the bottom (the set has more than v) */
} vec;

/* The effect of a request still to land. idx: the request, an index into
 * the log's e[], or PRE | an index into pre[], or NO_REQ (before the
 * window, not kept). */
#define PRE 0x80000000u
#define NO_REQ 0xFFFFFFFFu

typedef struct effect {
	uint64_t at, line;
	uint32_t set, idx;
	int fill;      /* a miss fill (holds the line's MSHR entry), or a hit */
	rd_event ev;   /* the request (kept for the window's pre[]) */
} effect;

/* A line a store removed (l1.stores=evict: the model's wev): its effects
 * land without touching it, a hit's always, a fill's while fills that
 * were in flight at the store (skip of them) remain; a later fill puts it
 * back. */
typedef struct wev {
	uint64_t line;
	uint32_t skip;
} wev;

/* An empty way (the model's hole): HOLE_BIT and the request number of the
 * store that made it, so that every replay names it alike and newer holes
 * have larger numbers (line addresses are byte addresses over the line
 * size: bit 63 is never set). */
#define HOLE_BIT (1ull << 63)

typedef struct core_rp {
	vec *set;      /* per set: lines, most recent first (at most depth) */
	vec *holes;    /* per set: its holes' numbers, the newest last (NULL: none yet) */
	wev *wev;      /* lines stores removed */
	size_t nwev, cwev;
	effect *pend;  /* in push (issue) order */
	size_t npend, cpend;
	int have_step;
	uint64_t step_t;
	size_t rec_first; /* first kept request of the current step, or STEP_NONE */
} core_rp;

typedef struct replay {
	steplog *l;    /* NULL: a replay for steplog_grid (nothing recorded) */
	core_rp *core;
	uint32_t ncores, sets, depth, ways;
	int oom;
} replay;

int steplog_is_hole(uint64_t v)
{
	return (v & HOLE_BIT) != 0;
}

int steplog_has_effect(const rd_event *ev)
{
	if (ev->outcome == RD_OUT_CANCEL || ev->outcome == RD_OUT_EVICT ||
	    ev->outcome == RD_OUT_BYPASS || ev->outcome == RD_OUT_RF || ev->outcome == RD_OUT_FILL)
		return 0;
	if (ev->level == 2) /* the L2's: not the replayed L1's */
		return 0;
	return !(ev->outcome == RD_OUT_MISS && ev->cls == RD_CLASS_BYPASS);
}

static int vec_push(replay *r, vec *s, uint64_t v)
{
	if (s->n == s->cap) {
		uint32_t nc = s->cap ? s->cap * 2 : 4;
		uint64_t *p = realloc(s->v, nc * sizeof *p);
		if (!p) {
			r->oom = 1;
			return -1;
		}
		s->v = p;
		s->cap = nc;
	}
	s->v[s->n++] = v;
	return 0;
}

static void vec_remove(vec *s, uint32_t i)
{
	memmove(s->v + i, s->v + i + 1, (s->n - i - 1) * sizeof *s->v);
	s->n--;
}

static int64_t lru_find(const vec *s, uint64_t line);
static void lru_touch(replay *r, vec *s, uint64_t line);

/*
 * A line lands in set si: to the top of its stack. As in the model
 * (stack_update_as), a line from outside the ways fills the newest hole
 * of the set, whose mark leaves the stack (nothing falls out of the ways
 * then).
 */
static void set_touch(replay *r, core_rp *c, uint32_t si, uint64_t line)
{
	vec *s = &c->set[si];
	int64_t at = lru_find(s, line);
	if (c->holes && c->holes[si].n && !(at >= 0 && at < (int64_t)r->ways)) {
		vec *h = &c->holes[si];
		int64_t k = lru_find(s, h->v[--h->n]);
		if (k >= 0) /* (else it fell below the lines kept) */
			vec_remove(s, (uint32_t)k);
	}
	lru_touch(r, s, line);
}

static void lru_touch(replay *r, vec *s, uint64_t line)
{
	uint32_t i = 0;
	while (i < s->n && s->v[i] != line)
		i++;
	if (i == s->n) {
		if (s->n < r->depth) {
			if (s->n == s->cap) {
				uint32_t nc = s->cap ? s->cap * 2 : 8;
				if (nc > r->depth)
					nc = r->depth;
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
		if (s->n == r->depth && i == s->n)
			s->dropped = 1;
		i = s->n - 1; /* the least recent line falls off a full set */
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

static int replay_init(replay *r, steplog *l, const rd_config *c, uint32_t depth)
{
	memset(r, 0, sizeof *r);
	r->l = l;
	r->sets = rd_config_sets(c);
	if (!r->sets)
		r->sets = 1;
	r->ncores = c->cores ? c->cores : 1;
	r->depth = depth;
	r->ways = c->l1_ways;
	r->core = calloc(r->ncores, sizeof *r->core);
	if (!r->core)
		return -1;
	for (uint32_t k = 0; k < r->ncores; k++) {
		r->core[k].rec_first = STEP_NONE;
		if (!(r->core[k].set = calloc(r->sets, sizeof *r->core[k].set)))
			return -1;
	}
	return 0;
}

static void replay_free(replay *r)
{
	if (!r->core)
		return;
	for (uint32_t c = 0; c < r->ncores; c++) {
		if (r->core[c].set)
			for (uint32_t s = 0; s < r->sets; s++)
				free(r->core[c].set[s].v);
		free(r->core[c].set);
		if (r->core[c].holes)
			for (uint32_t s = 0; s < r->sets; s++)
				free(r->core[c].holes[s].v);
		free(r->core[c].holes);
		free(r->core[c].wev);
		free(r->core[c].pend);
	}
	free(r->core);
	r->core = NULL;
}

static wev *wev_find(core_rp *c, uint64_t line)
{
	for (size_t k = 0; k < c->nwev; k++)
		if (c->wev[k].line == line)
			return &c->wev[k];
	return NULL;
}

static void land(replay *r, core_rp *c, size_t k)
{
	const effect *e = &c->pend[k];
	wev *w = c->nwev ? wev_find(c, e->line) : NULL;
	if (w) {
		/* a store removed the line: the effects of it then pending land
		 * without touching the stack (model/sim_paper.c, effect_apply) */
		if (w->skip) {
			w->skip--;
			return;
		}
		if (e->fill)
			*w = c->wev[--c->nwev]; /* filled again */
	}
	set_touch(r, c, e->set, e->line);
}

/*
 * A store under l1.stores=evict, after its lookup: a line in the ways
 * leaves them, its way empty (a hole where it was); the effects of the
 * line then pending (fills in flight, hits' effects) land without
 * touching the stack. ev->outcome says whether the
 * model found it so (RD_OUT_EVICT); the replay's own view must agree.
 */
static int rp_store(replay *r, core_rp *c, const rd_event *ev, uint64_t num)
{
	if (!ev->store || (ev->outcome != RD_OUT_EVICT && ev->outcome != RD_OUT_BYPASS))
		return 0;
	vec *s = &c->set[ev->set];
	int64_t d = lru_find(s, ev->line);
	int in_ways = d >= 0 && d < (int64_t)r->ways;
	uint32_t pending = 0; /* the line's effects still to land: fills and hits */
	for (size_t k = 0; k < c->npend; k++)
		pending += c->pend[k].line == ev->line;
	if ((in_ways || pending) != (ev->outcome == RD_OUT_EVICT))
		return -1;
	if (ev->outcome != RD_OUT_EVICT)
		return 0;
	if (in_ways) {
		if (!c->holes && !(c->holes = calloc(r->sets, sizeof *c->holes))) {
			r->oom = 1;
			return 0;
		}
		uint64_t h = HOLE_BIT | num;
		s->v[d] = h;
		vec_push(r, &c->holes[ev->set], h);
	}
	wev *w = wev_find(c, ev->line);
	if (!w) {
		if (c->nwev == c->cwev) {
			size_t nc = c->cwev ? c->cwev * 2 : 8;
			wev *p = realloc(c->wev, nc * sizeof *p);
			if (!p) {
				r->oom = 1;
				return 0;
			}
			c->wev = p;
			c->cwev = nc;
		}
		w = &c->wev[c->nwev++];
		w->line = ev->line;
	}
	w->skip = pending;
	return 0;
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

/* Where a request's early_by is: in the log or in pre[]. */
static uint32_t *early_slot(steplog *l, uint32_t idx)
{
	if (!l || idx == NO_REQ)
		return NULL;
	if (idx & PRE)
		return (idx & ~PRE) < l->npre ? &l->pre[idx & ~PRE].early_by : NULL;
	return idx < l->n ? &l->e[idx].early_by : NULL;
}

/* The lookup of ev at its time T: what was due before T lands, then, on a
 * miss, the looked-up line's own fills due at T. The distance the lookup
 * sees (-1: not among the lines kept). me: ev's index in the log (for
 * early_by), or NO_REQ. */
static int64_t rp_lookup(replay *r, core_rp *c, const rd_event *ev, uint32_t me)
{
	uint64_t T = ev->time;
	if (T > 0)
		land_until(r, c, T - 1);
	vec *set = &c->set[ev->set];
	int64_t d = lru_find(set, ev->line);
	/* (a store's line does not land first: it merges, as in the model) */
	if ((d < 0 || d >= (int64_t)r->ways) && !ev->store) {
		size_t o = 0;
		for (size_t k = 0; k < c->npend; k++) {
			effect *e = &c->pend[k];
			if (e->fill && e->at == T && e->line == ev->line) {
				land(r, c, k);
				uint32_t *eb = early_slot(r->l, e->idx);
				if (eb && me != NO_REQ)
					*eb = me;
			} else {
				c->pend[o++] = *e;
			}
		}
		c->npend = o;
		d = lru_find(set, ev->line);
	}
	return d;
}

static int rp_push(replay *r, core_rp *c, const rd_event *ev, uint32_t idx)
{
	if (!steplog_has_effect(ev))
		return 0;
	if (c->npend == c->cpend) {
		size_t nc = c->cpend ? c->cpend * 2 : 16;
		effect *p = realloc(c->pend, nc * sizeof *p);
		if (!p) {
			r->oom = 1;
			return -1;
		}
		c->pend = p;
		c->cpend = nc;
	}
	effect *e = &c->pend[c->npend++];
	e->at = ev->effect_at;
	e->line = ev->line;
	e->set = ev->set;
	e->idx = idx;
	e->fill = ev->outcome == RD_OUT_MISS;
	e->ev = *ev;
	e->ev.stack = NULL;
	return 0;
}

/* ---------------------------------------------------------------- the log */

static steplog *log_new(const rd_config *c, uint64_t first)
{
	steplog *l = calloc(1, sizeof *l);
	replay *r = calloc(1, sizeof *r);
	if (!l || !r) {
		free(l);
		free(r);
		return NULL;
	}
	l->cfg = *c;
	l->sets = rd_config_sets(c);
	l->first = first;
	l->replay_ok = 1;
	uint32_t depth = c->l1_ways > STEP_DEPTH ? c->l1_ways : STEP_DEPTH;
	if (replay_init(r, l, c, depth) < 0) {
		replay_free(r);
		free(r);
		free(l);
		return NULL;
	}
	l->rp = r;
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

static void rp_drop(steplog *l)
{
	replay *r = l->rp;
	if (r) {
		replay_free(r);
		free(r);
		l->rp = NULL;
	}
}

void steplog_free(steplog *l)
{
	if (!l)
		return;
	rp_drop(l);
	free(l->e);
	free(l->lines);
	free(l->pre);
	free(l->snap_core);
	free(l->snap_set);
	free(l->snap_n);
	free(l->snap_lines);
	free(l->snap_hole_core);
	free(l->snap_hole_set);
	free(l->snap_hole);
	free(l->snap_wev_core);
	free(l->snap_wev_skip);
	free(l->snap_wev_line);
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

static void disagree(steplog *l, size_t i)
{
	if (l->replay_ok) {
		l->replay_ok = 0;
		l->replay_bad = i;
	}
}

/* The step of c ends: land its effects and note each of its kept
 * requests' set as it is afterwards. */
static void step_end(replay *r, core_rp *c, size_t end)
{
	if (!c->have_step)
		return;
	steplog *l = r->l;
	land_until(r, c, c->step_t);
	uint32_t core = (uint32_t)(c - r->core);
	for (size_t i = c->rec_first; l && c->rec_first != STEP_NONE && i < end; i++) {
		step_ev *s = &l->e[i];
		if (s->ev.core != core)
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
	c->rec_first = STEP_NONE;
}

/* The window starts: keep the cache (its sets that hold lines) and the
 * requests in flight. */
static int window_start(steplog *l, replay *r)
{
	l->ncores = r->ncores;
	l->cways = r->ways;
	l->have_snap = 1;
	size_t ns = 0, np = 0;
	for (uint32_t k = 0; k < r->ncores; k++) {
		np += r->core[k].npend;
		for (uint32_t s = 0; s < r->sets; s++)
			ns += r->core[k].set[s].n > 0;
	}
	l->pre = calloc(np ? np : 1, sizeof *l->pre);
	l->snap_core = malloc((ns ? ns : 1) * sizeof *l->snap_core);
	l->snap_set = malloc((ns ? ns : 1) * sizeof *l->snap_set);
	l->snap_n = malloc((ns ? ns : 1) * sizeof *l->snap_n);
	l->snap_lines = malloc((ns * l->cways > 0 ? ns * l->cways : 1) * sizeof *l->snap_lines);
	if (!l->pre || !l->snap_core || !l->snap_set || !l->snap_n || !l->snap_lines)
		return -1;
	/* The stores' holes and removed lines (none unless l1.stores=evict). */
	size_t nh = 0, nw = 0;
	for (uint32_t k = 0; k < r->ncores; k++) {
		nw += r->core[k].nwev;
		for (uint32_t s = 0; r->core[k].holes && s < r->sets; s++)
			nh += r->core[k].holes[s].n;
	}
	l->snap_hole_core = malloc((nh ? nh : 1) * sizeof *l->snap_hole_core);
	l->snap_hole_set = malloc((nh ? nh : 1) * sizeof *l->snap_hole_set);
	l->snap_hole = malloc((nh ? nh : 1) * sizeof *l->snap_hole);
	l->snap_wev_core = malloc((nw ? nw : 1) * sizeof *l->snap_wev_core);
	l->snap_wev_skip = malloc((nw ? nw : 1) * sizeof *l->snap_wev_skip);
	l->snap_wev_line = malloc((nw ? nw : 1) * sizeof *l->snap_wev_line);
	if (!l->snap_hole_core || !l->snap_hole_set || !l->snap_hole || !l->snap_wev_core ||
	    !l->snap_wev_skip || !l->snap_wev_line)
		return -1;
	for (uint32_t k = 0; k < r->ncores; k++) {
		const core_rp *c = &r->core[k];
		for (uint32_t s = 0; c->holes && s < r->sets; s++)
			for (uint32_t j = 0; j < c->holes[s].n; j++) {
				l->snap_hole_core[l->nsnap_holes] = k;
				l->snap_hole_set[l->nsnap_holes] = s;
				l->snap_hole[l->nsnap_holes++] = c->holes[s].v[j];
			}
		for (size_t j = 0; j < c->nwev; j++) {
			l->snap_wev_core[l->nsnap_wev] = k;
			l->snap_wev_skip[l->nsnap_wev] = c->wev[j].skip;
			l->snap_wev_line[l->nsnap_wev++] = c->wev[j].line;
		}
	}
	for (uint32_t k = 0; k < r->ncores; k++) {
		core_rp *c = &r->core[k];
		for (uint32_t s = 0; s < r->sets; s++) {
			const vec *v = &c->set[s];
			if (!v->n)
				continue;
			uint32_t n = v->n < l->cways ? v->n : l->cways;
			l->snap_core[l->nsnap] = k;
			l->snap_set[l->nsnap] = s;
			l->snap_n[l->nsnap] = n;
			memcpy(l->snap_lines + l->nsnap * l->cways, v->v, n * sizeof *v->v);
			l->nsnap++;
		}
		for (size_t j = 0; j < c->npend; j++) {
			step_ev *p = &l->pre[l->npre];
			memset(p, 0, sizeof *p);
			p->ev = c->pend[j].ev;
			p->early_by = STEP_NONE;
			p->prev = STEP_NONE;
			c->pend[j].idx = PRE | (uint32_t)l->npre++;
		}
	}
	return 0;
}

int steplog_add(steplog *l, const rd_event *ev)
{
	replay *r = l->rp;
	if (!r || l->oom)
		return -1;
	uint64_t num = l->seen++;
	/* The L2's requests and the fills' rows (model=rdgc, an L2) are
	 * kept and shown, not replayed: the replay is the L1's, under the
	 * paper profile's rules. The L2 runs after every L1: once its
	 * requests come, every L1 step has ended. */
	int foreign = ev->level == 2 || ev->outcome == RD_OUT_FILL;
	if (foreign && num >= l->first + STEP_MAX) {
		l->truncated = 1;
		l->tail_done = 1;
		return 1;
	}
	if (num >= l->first + STEP_MAX) {
		l->truncated = 1;
		if (!l->tail_done && ev->core < r->ncores && ev->set < r->sets) {
			core_rp *c = &r->core[ev->core];
			if (c->have_step && c->rec_first != STEP_NONE && c->step_t == ev->time) {
				/* the step of kept requests goes on: its effects count */
				rp_lookup(r, c, ev, NO_REQ);
				rp_store(r, c, ev, num);
				if (rp_push(r, c, ev, NO_REQ) < 0)
					l->oom = 1;
				return 1;
			}
		}
		l->tail_done = 1;
		return 1;
	}
	int keep = num >= l->first;
	if (keep && num == l->first && window_start(l, r) < 0) {
		l->oom = 1;
		return -1;
	}
	if (foreign && !keep)
		return 0;
	if (!foreign && (ev->core >= r->ncores || ev->set >= r->sets)) {
		disagree(l, l->n); /* not the model the replay knows */
		if (!keep)
			return 0;
	}
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
		s->ev.stack = NULL;
		s->early_by = STEP_NONE;
		s->prev = STEP_NONE;
		l->n++;
		if (ev->stack && !foreign)
			l->stacks = 1;
	}
	if (foreign || ev->core >= r->ncores || ev->set >= r->sets)
		return 0;
	core_rp *c = &r->core[ev->core];
	if (c->have_step && c->step_t != ev->time)
		step_end(r, c, li);
	if (!c->have_step) {
		c->have_step = 1;
		c->step_t = ev->time;
		c->rec_first = STEP_NONE;
	}
	if (s && c->rec_first == STEP_NONE)
		c->rec_first = li;
	int64_t d = rp_lookup(r, c, ev, s ? (uint32_t)li : NO_REQ);
	if (s) {
		const vec *set = &c->set[ev->set];
		/* Check the replay against what the model reported: its lines,
		 * most recent first (the model's stack lists no holes). */
		uint64_t lines[STEP_DEPTH];
		/* A set that lost lines off its bottom, then entries above
		 * (a hole filled by a line from below), is known only as far
		 * as it goes: the model's may go on. */
		uint32_t have = 0, partial = set->dropped;
		for (uint32_t k = 0; k < set->n && have < STEP_DEPTH; k++)
			if (!steplog_is_hole(set->v[k]))
				lines[have++] = set->v[k];
		int same = !ev->stack ||
			   ((partial ? ev->stack_len >= have : ev->stack_len == have) &&
			    (!have || memcmp(ev->stack, lines, have * sizeof *lines) == 0));
		if (!same)
			disagree(l, li);
		/* Kept: the replay's set, its empty ways shown, while it agrees;
		 * else what the model reported. */
		const uint64_t *src = ev->stack && !same ? ev->stack : set->v;
		uint32_t n = ev->stack && !same ? ev->stack_len : set->n;
		if (n > STEP_KEEP)
			n = STEP_KEEP;
		s->nbefore = n;
		s->before = pool_put(l, src, n);
		if (s->before == UINT32_MAX) {
			l->oom = 1;
			return -1;
		}
		if (d >= 0 ? d != ev->distance
			   : ev->distance >= 0 && ev->distance < (int64_t)set->n)
			disagree(l, li);
		s->mshr_before = mshrs_used(c);
	}
	/* A store's removal comes after its stack: the event shows the set
	 * as the store found it (the line it removes still there). */
	if (rp_store(r, c, ev, num) < 0)
		disagree(l, s ? li : l->n);
	if (rp_push(r, c, ev, s ? (uint32_t)li : NO_REQ) < 0) {
		l->oom = 1;
		return -1;
	}
	if (s && mshrs_used(c) != ev->mshrs_used)
		disagree(l, li);
	if (r->oom) {
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
	replay *r = l->rp;
	int oom = l->oom;
	if (r) {
		for (uint32_t c = 0; c < r->ncores; c++)
			step_end(r, &r->core[c], l->n);
		oom |= r->oom;
		rp_drop(l);
	}
	l->complete = complete;
	/* The replay follows the paper profile's rules (the reference-2013
	 * code's differ, and it reports no stacks). */
	if (l->cfg.model != RD_PROFILE_PAPER || (!l->stacks && !l->n))
		l->replay_ok = l->replay_ok && l->stacks;
	if (oom || link_warps(l) < 0)
		return -1;
	return 0;
}

int steplog_finish(steplog *l)
{
	return steplog_end(l, 1);
}

/* ---------------------------------------------------------------- queries */

/* Is s (issued before request i, on its core) still to take effect at
 * i's lookup? */
static int pending_at(const steplog *l, const step_ev *s, size_t i)
{
	const rd_event *ev = &l->e[i].ev;
	if (s->ev.core != ev->core || !steplog_has_effect(&s->ev))
		return 0;
	return s->ev.effect_at > ev->time ||
	       (s->ev.effect_at == ev->time && (s->early_by == STEP_NONE || s->early_by > i));
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
			snprintf(buf, len, "sector miss: line %llu is at distance %lld < %u ways in "
					   "set %u's stack, but a sector this load needs was never "
					   "fetched (l1.sector fills only the sectors asked for)%s",
				 line, (long long)ev->distance, ways, ev->set, when);
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
	replay *r = g->rp;
	if (r) {
		replay_free(r);
		free(r);
	}
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
	const replay *r = g->rp;
	*n = 0;
	if (!r || s >= g->sets)
		return NULL;
	const vec *v = &r->core[g->core].set[s];
	*n = v->n < g->ways ? v->n : g->ways;
	return v->v;
}

int steplog_grid(const steplog *l, size_t i, step_grid *g)
{
	memset(g, 0, sizeof *g);
	if (i >= l->n || !l->have_snap || !l->cways)
		return -1;
	uint32_t core = l->e[i].ev.core;
	replay *r = calloc(1, sizeof *r);
	rd_config c = l->cfg;
	if (!r || core >= l->ncores || replay_init(r, NULL, &c, l->cways) < 0) {
		if (r && core < l->ncores)
			replay_free(r);
		free(r);
		return -1;
	}
	g->rp = r;
	core_rp *cr = &r->core[core];
	for (size_t k = 0; k < l->nsnap && !r->oom; k++) {
		if (l->snap_core[k] != core || l->snap_set[k] >= r->sets)
			continue;
		for (uint32_t j = l->snap_n[k]; j-- > 0;)
			lru_touch(r, &cr->set[l->snap_set[k]], l->snap_lines[k * l->cways + j]);
	}
	/* The stores' holes (oldest first: the newest is filled first) and
	 * removed lines at the window's start. */
	for (size_t k = 0; k < l->nsnap_holes && !r->oom; k++) {
		if (l->snap_hole_core[k] != core || l->snap_hole_set[k] >= r->sets)
			continue;
		if (!cr->holes && !(cr->holes = calloc(r->sets, sizeof *cr->holes)))
			r->oom = 1;
		else
			vec_push(r, &cr->holes[l->snap_hole_set[k]], l->snap_hole[k]);
	}
	for (size_t k = 0; k < l->nsnap_wev && !r->oom; k++) {
		if (l->snap_wev_core[k] != core)
			continue;
		wev *w = realloc(cr->wev, (cr->nwev + 1) * sizeof *w);
		if (!w) {
			r->oom = 1;
			break;
		}
		cr->wev = w;
		cr->cwev = cr->nwev + 1;
		cr->wev[cr->nwev++] = (wev){l->snap_wev_line[k], l->snap_wev_skip[k]};
	}
	for (size_t j = 0; j < l->npre && !r->oom; j++)
		if (l->pre[j].ev.core == core)
			rp_push(r, cr, &l->pre[j].ev, NO_REQ);
	for (size_t j = 0; j < i && !r->oom; j++) {
		const rd_event *ev = &l->e[j].ev;
		if (ev->core != core || ev->set >= r->sets)
			continue;
		rp_lookup(r, cr, ev, NO_REQ);
		rp_store(r, cr, ev, l->first + j);
		rp_push(r, cr, ev, NO_REQ);
	}
	/* the cache as request i finds it (a store's line still there: its
	 * after row shows the way emptied) */
	if (l->e[i].ev.set < r->sets)
		rp_lookup(r, cr, &l->e[i].ev, NO_REQ);
	g->core = core;
	g->sets = r->sets;
	g->ways = l->cways;
	g->fly_line = malloc((cr->npend ? cr->npend : 1) * sizeof *g->fly_line);
	g->fly_set = malloc((cr->npend ? cr->npend : 1) * sizeof *g->fly_set);
	if (r->oom || !g->fly_line || !g->fly_set) {
		step_grid_free(g);
		return -1;
	}
	for (size_t k = 0; k < cr->npend; k++)
		if (cr->pend[k].fill && !step_grid_flying(g, cr->pend[k].line)) {
			g->fly_line[g->nfly] = cr->pend[k].line;
			g->fly_set[g->nfly++] = cr->pend[k].set;
		}
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
