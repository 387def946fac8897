/*
 * The step-through view: the requests of a run one at a time, drawn as
 * the columns of Nugteren et al.'s Tables 2-5 (HPCA 2014) (time, instruction, thread,
 * address, cache-line, cache effect, distance, MSHRs, hit/miss, latency,
 * effect at; columns after the current request stay hidden, as a
 * lecturer reveals them), then what happened to the current request: its
 * address bits and set, its set's LRU stack before the lookup and after
 * the step, the requests in flight and the MSHRs, and the warp queue as
 * the log shows it ahead. Data: the model thread's steplog (steplog.h),
 * asked for while the view is on screen. Its keys move through the
 * requests; in class mode (views/teach.c) a lesson's title heads it. May
 * include and call the state (explorer/state.h), addrbits, draw, lessons,
 * steplog, theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrbits.h"
#include "draw.h"
#include "lessons.h"
#include "explorer/state.h"
#include "steplog.h"
#include "view.h"

#define LABEL_W 13
#define CELL_MAX 14

enum row {
	ROW_TIME, ROW_INSTR, ROW_THREAD, ROW_ADDR, ROW_LINE, ROW_EFFECT, ROW_DIST,
	ROW_MSHR_BEFORE, ROW_OUTCOME, ROW_MSHR_AFTER, ROW_LAT, ROW_EFFECT_AT, NROWS
};

static const char *const row_label[NROWS] = {
	"time", "instruction", "thread", "address", "cache-line", "cache effect", "distance",
	"MSHRs before", "hit/miss", "MSHRs used", "latency", "effect at"};

/* A column: a request, or a time at which only effects land (the paper's
 * "- -" columns after the last issue). */
typedef struct slot {
	uint64_t time;
	size_t ev; /* STEP_NONE: effects only */
	int first; /* the first column of its time: the cache effects go here */
} slot;

typedef struct table {
	const steplog *l;
	slot *s;
	size_t n;
	size_t cur;      /* the current request's column */
	size_t revealed; /* columns shown: 0 .. revealed-1 */
	unsigned elem;   /* addresses as element indices (class mode), or 0 */
} table;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Columns: the requests in log order, and for one core the times at which
 * only effects land, in time order among them. */
static int table_build(table *t, const steplog *l, size_t cur)
{
	memset(t, 0, sizeof *t);
	t->l = l;
	int one_core = 1;
	for (size_t i = 0; i < l->n; i++)
		one_core &= l->e[i].ev.core == l->e[0].ev.core;
	uint64_t *eff = malloc((l->n + 1) * sizeof *eff);
	t->s = malloc((2 * l->n + 1) * sizeof *t->s);
	if (!eff || !t->s) {
		free(eff);
		free(t->s);
		t->s = NULL;
		return -1;
	}
	size_t ne = 0;
	for (size_t i = 0; one_core && !l->truncated && i < l->n; i++)
		if (l->e[i].ev.outcome != RD_OUT_CANCEL)
			eff[ne++] = l->e[i].ev.effect_at;
	qsort(eff, ne, sizeof *eff, cmp_u64);
	size_t k = 0;
	for (size_t i = 0; i <= l->n; i++) {
		uint64_t T = i < l->n ? l->e[i].ev.time : UINT64_MAX;
		for (; k < ne && eff[k] < T; k++) {
			uint64_t last = t->n ? t->s[t->n - 1].time : UINT64_MAX;
			if (eff[k] != last)
				t->s[t->n++] = (slot){eff[k], STEP_NONE, 1};
		}
		if (i == l->n)
			break;
		int first = !t->n || t->s[t->n - 1].time != T;
		if (i == cur)
			t->cur = t->n;
		t->s[t->n++] = (slot){T, i, first};
	}
	free(eff);
	t->revealed = cur + 1 == l->n ? t->n : t->cur + 1;
	return 0;
}

/* The lines whose effects land at time `at` on core, in landing order:
 * fills landed early (before a lookup) first, then issue order. Only
 * requests up to `upto` count (later ones are not revealed yet). */
static void effects_at(const steplog *l, uint64_t at, uint32_t core, size_t upto, char *buf,
		       size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < l->n && j <= upto; j++) {
			const step_ev *s = &l->e[j];
			if (s->ev.core != core || s->ev.outcome == RD_OUT_CANCEL ||
			    s->ev.effect_at != at || (s->early_by != STEP_NONE) != (pass == 0))
				continue;
			if (o + 24 >= len)
				return;
			o += (size_t)snprintf(buf + o, len - o, "%s%llu", o ? " " : "",
					      (unsigned long long)s->ev.line);
		}
}

static void fmt_addr(uint64_t a, unsigned elem, char *buf, size_t len)
{
	if (elem)
		snprintf(buf, len, "%llu", (unsigned long long)(a / elem));
	else if (a < 1000000)
		snprintf(buf, len, "%llu", (unsigned long long)a);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)a);
}

/* The text and element of one cell. */
static enum ui_elem cell(const table *t, size_t si, int row, char *buf, size_t len)
{
	const slot *s = &t->s[si];
	const steplog *l = t->l;
	buf[0] = '\0';
	if (row == ROW_TIME) {
		snprintf(buf, len, "%llu", (unsigned long long)s->time);
		return E_VALUE;
	}
	uint32_t core = s->ev != STEP_NONE ? l->e[s->ev].ev.core : l->e[0].ev.core;
	if (row == ROW_EFFECT) {
		if (s->first) {
			size_t upto = t->revealed == t->n ? l->n : l->e[t->s[t->cur].ev].ev.time == s->time
									   ? t->s[t->cur].ev
									   : l->n;
			effects_at(l, s->time, core, upto, buf, len);
		}
		if (!buf[0])
			snprintf(buf, len, "-");
		return E_VALUE;
	}
	if (s->ev == STEP_NONE) {
		snprintf(buf, len, "-");
		return E_DERIVED;
	}
	const step_ev *se = &l->e[s->ev];
	const rd_event *e = &se->ev;
	int cancel = e->outcome == RD_OUT_CANCEL;
	switch (row) {
	case ROW_INSTR:
		snprintf(buf, len, "%u", e->instr);
		break;
	case ROW_THREAD:
		snprintf(buf, len, "%u", e->thread);
		break;
	case ROW_ADDR:
		fmt_addr(e->addr, t->elem, buf, len);
		break;
	case ROW_LINE:
		snprintf(buf, len, "%llu", (unsigned long long)e->line);
		break;
	case ROW_DIST:
		if (e->distance < 0)
			snprintf(buf, len, "%s", theme_g()->inf);
		else
			snprintf(buf, len, "%lld", (long long)e->distance);
		break;
	case ROW_MSHR_BEFORE:
		snprintf(buf, len, "%u", se->mshr_before);
		break;
	case ROW_OUTCOME:
		snprintf(buf, len, "%s", e->outcome == RD_OUT_HIT ? "hit" : cancel ? "cancel" : "miss");
		return e->outcome == RD_OUT_HIT ? E_HIT : cancel ? E_MSHR
			: e->cls >= 0 ? E_CLASS(e->cls) : E_CAPACITY;
	case ROW_MSHR_AFTER:
	case ROW_LAT:
	case ROW_EFFECT_AT: /* none for a cancelled request */
		if (cancel)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%llu",
				 row == ROW_MSHR_AFTER ? (unsigned long long)e->mshrs_used
				 : row == ROW_LAT      ? (unsigned long long)e->latency
						       : (unsigned long long)e->effect_at);
		break;
	}
	return E_VALUE;
}

/* The rows shown: MSHRs before only when MSHRs are limited (Table 5). */
static int rows_shown(const rd_config *c, int *rows)
{
	int n = 0;
	for (int r = 0; r < NROWS; r++)
		if (r != ROW_MSHR_BEFORE || c->l1_mshrs || c->l1_mshr_per_warp)
			rows[n++] = r;
	return n;
}

static void draw_table(const table *t, const int *rows, int nrows, int y0, int x0, int w)
{
	char buf[128];
	int cw = 3;
	for (size_t si = 0; si < t->n; si++)
		for (int r = 0; r < nrows; r++) {
			cell(t, si, rows[r], buf, sizeof buf);
			int n = draw_width(buf) + 1;
			if (n > cw)
				cw = n;
		}
	if (cw > CELL_MAX)
		cw = CELL_MAX;
	int ncols = (w - LABEL_W) / cw;
	if (ncols < 1)
		ncols = 1;
	/* The newest revealed columns that fit, the current one among them. */
	size_t first = t->revealed > (size_t)ncols ? t->revealed - (size_t)ncols : 0;
	if (t->cur < first)
		first = t->cur;
	for (int r = 0; r < nrows; r++) {
		int y = y0 + r;
		draw_put(y, x0, LABEL_W, E_LABEL, row_label[rows[r]]);
		for (size_t si = first; si < t->revealed && si < first + (size_t)ncols; si++) {
			enum ui_elem e = cell(t, si, rows[r], buf, sizeof buf);
			int x = x0 + LABEL_W + (int)(si - first) * cw;
			if (si == t->cur) {
				draw_fill(y, x, cw - 1, E_SELECTED, " ");
				e = E_SELECTED;
			}
			draw_put(y, x, cw - 1, e, buf);
		}
	}
	if (first > 0)
		draw_put(y0, x0 + LABEL_W - 2, 1, E_FOCUS, theme_g()->more_l);
}

/* ---------------------------------------------------------------- details */

static enum ui_elem role_elem(enum bit_role r)
{
	static const enum ui_elem e[] = {E_BIT_OFFSET, E_BIT_INDEX, E_BIT_TAG, E_BIT_HASH,
					 E_BIT_INDEX};
	return e[r];
}

/* addr = bits, under them the role of each bit, then line -> set and how. */
static void draw_bits(const explorer *x, const step_ev *se, int y, int x0, int w, unsigned elem)
{
	const rd_event *e = &se->ev;
	addr_bits ab;
	addr_bits_explain(&x->steps->cfg, x->steps->steps->sets, e->addr, &ab);
	char head[96], a[40];
	fmt_addr(e->addr, 0, a, sizeof a);
	if (elem)
		snprintf(head, sizeof head, "addr %s (x[%llu]) = ", a,
			 (unsigned long long)(e->addr / elem));
	else
		snprintf(head, sizeof head, "%s = ", a);
	int c = draw_put(y, x0, w, E_LABEL, head);
	int group = ab.nbits > 24 ? 8 : 4; /* 32-bit addresses fit 80 columns */
	int seen[5] = {0};
	for (int b = ab.nbits - 1; b >= 0 && c < w; b--) {
		char bit[2] = {(char)('0' + ((e->addr >> b) & 1)), 0};
		char role[2] = {addr_bits_letter((enum bit_role)ab.role[b]), 0};
		enum ui_elem el = role_elem((enum bit_role)ab.role[b]);
		seen[ab.role[b]] = 1;
		draw_put(y, x0 + c, 1, el, bit);
		draw_put(y + 1, x0 + c, 1, el, role);
		c++;
		if (b % group == 0 && b)
			c++;
	}
	/* The legend of the roles shown, terse where the full one does not fit. */
	char leg[128];
	for (int terse = 0; terse < 2; terse++) {
		addr_bits_legend(seen, terse, leg, sizeof leg);
		if (c + draw_width(leg) <= w)
			break;
	}
	draw_put(y + 1, x0 + c, w - c, E_DERIVED, leg);
	char how[600];
	snprintf(how, sizeof how, "line %llu %s set %u%s%s", (unsigned long long)e->line,
		 theme_g()->arrow, e->set, x->steps->steps->sets > 1 ? " = " : ": ", ab.how);
	draw_put(y + 2, x0, w, E_DERIVED, how);
}

/* A stack as "[a] b | c d": the request's line bracketed, the cache's
 * capacity (ways) marked with a bar. */
static void draw_stack(const explorer *x, size_t i, int after, const char *label, int y, int x0,
		       int w)
{
	const steplog *l = x->steps->steps;
	const rd_event *e = &l->e[i].ev;
	uint32_t n;
	const uint64_t *v = steplog_stack(l, i, after, &n);
	int c = draw_put(y, x0, w, E_LABEL, label);
	uint32_t ways = l->cfg.l1_ways;
	if (!n)
		c += draw_put(y, x0 + c, w - c, E_DERIVED, "(empty)");
	for (uint32_t k = 0; k < n && c < w; k++) {
		if (k == ways)
			c += draw_put(y, x0 + c, w - c, E_CUTOFF, theme_g()->vline) + 1;
		char item[40];
		int mine = v[k] == e->line;
		snprintf(item, sizeof item, mine ? "[%llu]" : "%llu", (unsigned long long)v[k]);
		if (c + draw_width(item) + 2 > w && k + 1 < n) {
			draw_put(y, x0 + c, w - c, E_DERIVED, "...");
			return;
		}
		c += draw_put(y, x0 + c, w - c, mine ? E_SELECTED : E_VALUE, item) + 1;
	}
	if (!after) {
		char d[128];
		if (e->distance < 0)
			snprintf(d, sizeof d, "  line %llu not in it: distance %s",
				 (unsigned long long)e->line, theme_g()->inf);
		else
			snprintf(d, sizeof d, "  distance %lld %s %u ways", (long long)e->distance,
				 e->distance < (int64_t)ways ? "<" : ">=", ways);
		draw_put(y, x0 + c, w - c, E_DERIVED, d);
	}
}

static void draw_inflight(const explorer *x, size_t i, int y, int x0, int w)
{
	const steplog *l = x->steps->steps;
	const step_ev *se = &l->e[i];
	size_t idx[64];
	size_t n = steplog_inflight(l, i, idx, 64);
	char buf[512];
	size_t o = 0;
	for (int pass = 0; pass < 2; pass++) {
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%s", pass ? "; hits " : "fills ");
		int any = 0;
		for (size_t k = 0; k < n && k < 64 && o + 32 < sizeof buf; k++) {
			const rd_event *e = &l->e[idx[k]].ev;
			if ((e->outcome == RD_OUT_MISS) != (pass == 0))
				continue;
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%llu%st%llu", any ? " " : "",
					      (unsigned long long)e->line, theme_g()->arrow,
					      (unsigned long long)e->effect_at);
			any = 1;
		}
		if (!any)
			o += (size_t)snprintf(buf + o, sizeof buf - o, "none");
	}
	char lim[32];
	if (l->cfg.l1_mshrs)
		snprintf(lim, sizeof lim, "of %u", l->cfg.l1_mshrs);
	else
		snprintf(lim, sizeof lim, "(unlimited)");
	char m[96];
	if (se->ev.outcome == RD_OUT_CANCEL)
		snprintf(m, sizeof m, "; MSHRs %u %s, none free", se->mshr_before, lim);
	else
		snprintf(m, sizeof m, "; MSHRs %u%s%u %s", se->mshr_before, theme_g()->arrow,
			 se->ev.mshrs_used, lim);
	int c = draw_put(y, x0, w, E_LABEL, "in flight: ");
	int mw = draw_width(m);
	c += draw_put(y, x0 + c, w - c - mw, E_VALUE, buf);
	draw_put(y, x0 + c, w - c, E_DERIVED, m);
}

static void draw_queue(const explorer *x, size_t i, int y, int x0, int w)
{
	const steplog *l = x->steps->steps;
	size_t nx[32];
	uint32_t fin[32];
	size_t n = steplog_next_issues(l, i, nx, 32);
	size_t nf = steplog_finished(l, i, fin, 32);
	char buf[512];
	size_t o = 0;
	for (size_t k = 0; k < n && k < 32 && o + 40 < sizeof buf; k++)
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%sw%u t%llu", k ? ", " : "",
				      l->e[nx[k]].ev.warp, (unsigned long long)l->e[nx[k]].ev.time);
	if (!n)
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%s",
				      l->truncated ? "(past the log)" : "none: the last request");
	if (nf && !l->truncated) {
		o += (size_t)snprintf(buf + o, sizeof buf - o, "; done:");
		for (size_t k = 0; k < nf && k < 32 && o + 16 < sizeof buf; k++)
			o += (size_t)snprintf(buf + o, sizeof buf - o, " w%u", fin[k]);
	}
	int c = draw_put(y, x0, w, E_LABEL, "next issues (log ahead): ");
	draw_put(y, x0 + c, w - c, E_VALUE, buf);
}

/* ---------------------------------------------------------------- view */

static int steps_fit(const explorer *x)
{
	return x->steps && rd_config_equal(&x->steps->cfg, &x->cfg);
}

static void draw(explorer *x, const rect *r, int flags)
{
	(void)flags; /* the whole body, always */
	draw_blank(r);
	int x0 = r->x + 1, w = r->w - 2, y = r->y, yend = r->y + r->h;
	char line[512];
	const lesson *ls = x->teach >= 0 ? &lessons[x->teach] : NULL;
	if (ls)
		snprintf(line, sizeof line, "%s %s %s", ls->title, theme_g()->sep, ls->intro);
	else
		snprintf(line, sizeof line, "Step-through %s each request of the as-configured run, "
					    "in issue order",
			 theme_g()->sep);
	draw_put(y++, x0, w, E_FOCUS, line);
	const snap *s = x->steps;
	if (!steps_fit(x)) {
		draw_put(y + 1, x0, w, E_PENDING, "collecting the requests...");
		return;
	}
	if (s->status != RD_OK || !s->steps->n) {
		draw_put(y + 1, x0, w, s->status != RD_OK ? E_ERROR : E_DERIVED,
			 s->status != RD_OK ? rd_strerror(s->status) : "no requests: the trace has no loads");
		return;
	}
	const steplog *l = s->steps;
	size_t i = x->step < l->n ? x->step : l->n - 1;
	table t;
	if (table_build(&t, l, i) < 0) {
		draw_put(y + 1, x0, w, E_ERROR, "out of memory");
		return;
	}
	t.elem = ls ? ls->elem : 0;
	int rows[NROWS];
	int nrows = rows_shown(&l->cfg, rows);
	if (nrows > yend - y - 2)
		nrows = yend - y - 2;
	draw_table(&t, rows, nrows, y, x0, w);
	free(t.s);
	y += nrows;
	const step_ev *se = &l->e[i];
	steplog_explain(l, i, line, sizeof line);
	char ex[600];
	snprintf(ex, sizeof ex, "%s %s", theme_g()->sel, line);
	if (y < yend)
		draw_put(y++, x0, w, E_VALUE, ex);
	/* The details, most important first, as many as fit. */
	if (y < yend) {
		const rd_event *e = &se->ev;
		char nt[48] = "";
		if (e->nthreads > 1)
			snprintf(nt, sizeof nt, " (+%u threads coalesced)", e->nthreads - 1);
		snprintf(line, sizeof line, "t=%llu  warp %u  thread %u%s  instruction %u  block %u  core %u",
			 (unsigned long long)e->time, e->warp, e->thread, nt, e->instr, e->block,
			 e->core);
		draw_put(y++, x0, w, E_DERIVED, line);
	}
	if (y + 2 < yend) {
		draw_bits(x, se, y, x0, w, t.elem);
		y += 3;
	}
	if (y < yend) {
		if (l->stacks) {
			snprintf(line, sizeof line, "set %u before: ", se->ev.set);
			draw_stack(x, i, 0, line, y++, x0, w);
		} else {
			draw_put(y++, x0, w, E_DERIVED,
				 "stacks: the reference-2013 profile does not report them");
		}
	}
	if (y < yend && l->stacks) {
		if (l->replay_ok) {
			snprintf(line, sizeof line, "after t=%llu:  ", (unsigned long long)se->ev.time);
			while (draw_width(line) < 14)
				strcat(line, " ");
			draw_stack(x, i, 1, line, y++, x0, w);
		} else {
			snprintf(line, sizeof line, "after: not shown (the replay differs from the model "
						    "at request %zu)", l->replay_bad);
			draw_put(y++, x0, w, E_ERROR, line);
		}
	}
	if (y < yend && l->replay_ok)
		draw_inflight(x, i, y++, x0, w);
	if (y < yend)
		draw_queue(x, i, y++, x0, w);
}

/* Move the step-through by d requests (clamped to the log). */
static int step_by(explorer *x, long d)
{
	if (!steps_fit(x) || !x->steps->steps || !x->steps->steps->n)
		return R_NONE;
	long n = (long)x->steps->steps->n, i = (long)x->step + d;
	i = i < 0 ? 0 : i >= n ? n - 1 : i;
	if ((size_t)i == x->step)
		return R_NONE;
	x->step = (size_t)i;
	return R_ALL;
}

static int key(explorer *x, enum key_id id)
{
	switch (id) {
	case K_STEPS:
		return explorer_toggle_view(x, V_STEP);
	case K_STEP_NEXT:
		return step_by(x, 1);
	case K_STEP_PREV:
		return step_by(x, -1);
	case K_STEP_FWD10:
		return step_by(x, 10);
	case K_STEP_BACK10:
		return step_by(x, -10);
	case K_STEP_FIRST:
		return step_by(x, -(long)STEP_MAX);
	case K_STEP_LAST:
		return step_by(x, STEP_MAX);
	default:
		return -1;
	}
}

static void request(explorer *x)
{
	if (!steps_fit(x) && x->asked[JOB_STEPS] != x->gen) {
		x->asked[JOB_STEPS] = x->gen;
		worker_submit_job(x->w, JOB_STEPS, x->gen, &x->cfg, NULL);
	}
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_STEPS)
		return R_NONE;
	snap_unref(x->steps);
	x->steps = snap_ref(s);
	if (s->status != RD_OK)
		explorer_message(x, 1, "step-through: %s", rd_strerror(s->status));
	else if (x->step >= s->steps->n)
		x->step = s->steps->n ? s->steps->n - 1 : 0;
	return x->view == V_STEP ? R_ALL : R_NONE;
}

static void status(const explorer *x, char *buf, size_t len)
{
	const steplog *l = x->steps ? x->steps->steps : NULL;
	if (l && l->n)
		snprintf(buf, len, "%s step %zu of %zu%s", theme_g()->sep, x->step + 1, l->n,
			 l->truncated ? " (first of more)" : "");
}

static const char *hint(const explorer *x)
{
	return x->teach >= 0 ? " Left/Right step  n/p table " : " Left/Right step  Esc back ";
}

static void drop(explorer *x)
{
	snap_unref(x->steps);
	x->steps = NULL;
	x->step = 0;
}

const view_ops view_step = {
	.name = "step-through", .body = 1, .scope = KS_STEP,
	.draw = draw, .key = key, .request = request, .result = result, .ready = steps_fit,
	.status = status, .hint = hint, .drop = drop,
};
