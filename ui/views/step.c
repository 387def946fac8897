/*
 * The step-through view: the requests of a run one at a time, drawn as
 * the columns of Nugteren et al.'s Tables 2-5 (HPCA 2014) (time, instruction, thread,
 * address, cache-line, cache effect, distance, MSHRs, hit/miss, latency,
 * effect at; columns after the current request stay hidden, as a
 * lecturer reveals them), then what happened to the current request: its
 * address bits and set, its set's LRU stack before the lookup and after
 * the step, the requests in flight and the MSHRs, and the warp queue as
 * the log shows it ahead. Or (v) the whole cache as the request's lookup
 * saw it: a grid of sets x ways with each way's tag in hex, most recent
 * first, lines in flight marked, the accessed set before and after the
 * step, as many sets as fit (scrolled with Up/Down). Data: the model
 * thread's steplog (steplog.h), a window of STEP_MAX requests around the
 * one shown, asked for while the view is on screen: any request of the
 * run can be reached (: jumps to a request number or a time). Its keys
 * move through the requests; in class mode (views/teach.c) a lesson's
 * title heads it. Text that does not fit is cut between items with an
 * ellipsis (fit.h), never inside a number. May include and call the state
 * (explorer/state.h), addrbits, draw, fit, lessons, steplog, theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrbits.h"
#include "draw.h"
#include "fit.h"
#include "lessons.h"
#include "explorer/state.h"
#include "steplog.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct step_priv {
	snap *steps;           /* JOB_STEPS result of cfg, or NULL */
	uint64_t step;         /* the request shown, numbered from 0 in issue order */
	char steps_want[32];   /* the window of requests asked for (jobs.h) */
	int step_goal_pending; /* a jump to time step_goal waits for its window */
	uint64_t step_goal;
	int step_grid;         /* the step-through shows the whole cache (else the table) */
	int grid_scroll;       /* sets scrolled from the accessed one's place */
	unsigned long asked;   /* the generation steps_want was asked for in */
} step_priv;

static step_priv *P(const explorer *x)
{
	return x->priv[V_STEP];
}

#define LABEL_W 13
#define CELL_MAX 14

enum row {
	ROW_TIME, ROW_INSTR, ROW_THREAD, ROW_ADDR, ROW_LINE, ROW_EFFECT, ROW_DIST,
	ROW_MSHR_BEFORE, ROW_OUTCOME, ROW_MSHR_AFTER, ROW_LAT, ROW_EFFECT_AT,
	ROW_LEVEL, ROW_BANK, ROW_PORT, ROW_MSHR_FREE, NROWS
};

static const char *const row_label[NROWS] = {
	"time", "instruction", "thread", "address", "cache-line", "cache effect", "distance",
	"MSHRs before", "hit/miss", "MSHRs used", "latency", "effect at",
	"level", "bank", "port", "MSHRs free"};

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
	uint64_t *eff = malloc((l->n + l->npre + 1) * sizeof *eff);
	t->s = malloc((2 * l->n + l->npre + 1) * sizeof *t->s);
	if (!eff || !t->s) {
		free(eff);
		free(t->s);
		t->s = NULL;
		return -1;
	}
	size_t ne = 0;
	for (size_t i = 0; one_core && !l->truncated && i < l->n; i++)
		if (rd_event_has_effect(&l->e[i].ev))
			eff[ne++] = l->e[i].ev.effect_at;
	for (size_t i = 0; one_core && !l->truncated && i < l->npre; i++)
		if (l->pre[i].ev.core == l->e[0].ev.core)
			eff[ne++] = l->pre[i].ev.effect_at;
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
		for (size_t jj = 0; jj < l->npre + l->n && jj <= l->npre + upto; jj++) {
			/* requests still in flight from before the window first */
			const step_ev *s = jj < l->npre ? &l->pre[jj] : &l->e[jj - l->npre];
			if (s->ev.core != core || !rd_event_has_effect(&s->ev) ||
			    s->ev.effect_at != at || (s->early_by != STEP_NONE) != (pass == 0))
				continue;
			if (o + 24 >= len)
				return;
			o += (size_t)snprintf(buf + o, len - o, "%s%llu", o ? " " : "",
					      (unsigned long long)s->ev.line);
		}
}

/*
 * What a request did, in a word or two, and its element: a store says so
 * ("store hit"; under write-evict "store evict" when it removed its line
 * or cancelled its insertion, "store past L1" when there was none), a
 * load past the L1 "bypass". cls_name: a miss's class instead of "miss".
 */
static enum ui_elem outcome_word(const rd_event *e, int cls_name, char *buf, size_t len)
{
	const char *st = e->store ? "store " : "";
	const char *miss = cls_name && e->cls >= 0 && e->cls < RD_NCLASS
				   ? rd_class_name((enum rd_class)e->cls) : "miss";
	switch (e->outcome) {
	case RD_OUT_HIT:
		if (e->cls == RD_CLASS_SECTOR) { /* the line hit, a sector missed */
			snprintf(buf, len, "%s", cls_name ? "sector" : "miss");
			return E_SECTOR;
		}
		snprintf(buf, len, "%shit", st);
		return E_HIT;
	case RD_OUT_CANCEL:
		snprintf(buf, len, "%s%s", st, cls_name ? "cancelled" : "cancel");
		return E_MSHR;
	case RD_OUT_EVICT:
		snprintf(buf, len, "store evict");
		return E_WRITE_EVICT;
	case RD_OUT_BYPASS:
		snprintf(buf, len, "store past L1");
		return E_DERIVED;
	case RD_OUT_RF:
		snprintf(buf, len, "%sres. fail", st);
		return E_MSHR;
	case RD_OUT_FILL:
		snprintf(buf, len, "fill");
		return E_DERIVED;
	case RD_OUT_MERGE:
	case RD_OUT_MISS:
		break;
	}
	if (e->cls == RD_CLASS_BYPASS)
		snprintf(buf, len, "bypass");
	else
		snprintf(buf, len, "%s%s", st, miss);
	return e->cls >= 0 ? E_CLASS(e->cls) : E_CAPACITY;
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
	int cancel = e->outcome == RD_OUT_CANCEL || e->outcome == RD_OUT_RF;
	int fill = e->outcome == RD_OUT_FILL;
	switch (row) {
	case ROW_LEVEL:
		snprintf(buf, len, "L%d", e->level == 2 ? 2 : 1);
		return e->level == 2 ? E_FOCUS : E_VALUE;
	case ROW_BANK:
		if (e->level == 2)
			snprintf(buf, len, "%u.%u", e->partition, e->bank);
		else
			snprintf(buf, len, "%u", e->bank);
		return E_VALUE;
	case ROW_PORT:
		snprintf(buf, len, "%s", fill || cancel ? "-" : "");
		if (!buf[0])
			snprintf(buf, len, "%u", e->port);
		return E_VALUE;
	case ROW_MSHR_FREE:
		snprintf(buf, len, "%u", e->mshrs_free);
		return E_VALUE;
	case ROW_INSTR:
	case ROW_THREAD:
	case ROW_ADDR:
	case ROW_DIST:
	case ROW_MSHR_BEFORE:
	case ROW_LAT:
	case ROW_EFFECT_AT:
		if (fill) { /* a line arriving: no request of a thread */
			snprintf(buf, len, "-");
			return E_DERIVED;
		}
		break;
	default:
		break;
	}
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
		return outcome_word(e, 0, buf, len);
	case ROW_MSHR_AFTER:
	case ROW_LAT:
	case ROW_EFFECT_AT: /* none for a cancelled request, nor a write-evict store's */
		if (cancel || (row != ROW_MSHR_AFTER && e->store &&
			       (e->outcome == RD_OUT_EVICT || e->outcome == RD_OUT_BYPASS)))
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
/* With an L2, which level (L1, L2) each request is of; under model=rdgc
 * or with an L2, the bank (p.b at the L2: partition and bank) and port
 * it took and the free entries of its MSHR set after it. */
static int rows_shown(const rd_config *c, int *rows)
{
	static const int order[NROWS] = {
		ROW_TIME, ROW_LEVEL, ROW_INSTR, ROW_THREAD, ROW_ADDR, ROW_LINE, ROW_BANK, ROW_PORT,
		ROW_EFFECT, ROW_DIST, ROW_MSHR_BEFORE, ROW_OUTCOME, ROW_MSHR_AFTER, ROW_MSHR_FREE,
		ROW_LAT, ROW_EFFECT_AT};
	int l2 = c->l2_size && c->model != RD_PROFILE_REF2013;
	int banked = l2 || c->model == RD_PROFILE_RDGC;
	int n = 0;
	for (int k = 0; k < NROWS; k++) {
		int r = order[k];
		if (r == ROW_MSHR_BEFORE && !(c->l1_mshrs || c->l1_mshr_per_warp))
			continue;
		if (r == ROW_LEVEL && !l2)
			continue;
		if ((r == ROW_BANK || r == ROW_PORT || r == ROW_MSHR_FREE) && !banked)
			continue;
		rows[n++] = r;
	}
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
	addr_bits_explain(&P(x)->steps->cfg, P(x)->steps->steps->sets, e->addr, &ab);
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
		 theme_g()->arrow, e->set, P(x)->steps->steps->sets > 1 ? " = " : ": ", ab.how);
	draw_put(y + 2, x0, w, E_DERIVED, how);
}

/* l1.sector: the request's line's sectors, one cell each (had: there or
 * coming, filled; asked: marked), and what that made of the request:
 * "sectors  had ##.. asked ..#.  sector 2 not fetched: a sector miss". */
static void draw_sectors(const explorer *x, const rd_event *e, uint32_t n, int y, int x0,
			 int w)
{
	char had[64] = "", ask[64] = "";
	const char *on = x->utf8 ? "\u25a0" : "#", *off = x->utf8 ? "\u25a1" : ".";
	for (uint32_t s = 0; s < n && s < 8; s++) {
		strcat(had, (e->sect_had >> s) & 1 ? on : off);
		strcat(ask, (e->sect_ask >> s) & 1 ? on : off);
	}
	int c = draw_put(y, x0, w, E_LABEL, "sectors  had ");
	c += draw_put(y, x0 + c, w - c, E_VALUE, had);
	c += draw_put(y, x0 + c, w - c, E_LABEL, "  asked ");
	c += draw_put(y, x0 + c, w - c, E_VALUE, ask);
	char why[96];
	uint32_t lack = e->sect_ask & ~e->sect_had;
	if (e->outcome == RD_OUT_CANCEL)
		snprintf(why, sizeof why, "  (refused: looked up again later)");
	else if (!e->sect_had)
		snprintf(why, sizeof why, "  the line's miss brings only these");
	else if (lack && e->cls == RD_CLASS_SECTOR)
		snprintf(why, sizeof why, "  sector %d not fetched: a sector miss",
			 __builtin_ctz(lack));
	else if (lack)
		snprintf(why, sizeof why, "  sector %d comes with this request", __builtin_ctz(lack));
	else
		snprintf(why, sizeof why, "  all there or coming");
	draw_put(y, x0 + c, w - c, lack && e->cls == RD_CLASS_SECTOR ? E_SECTOR : E_DERIVED, why);
}

/* A stack as "[a] b | c d": the request's line bracketed, the cache's
 * capacity (ways) marked with a bar. */
static void draw_stack(const explorer *x, size_t i, int after, const char *label, int y, int x0,
		       int w)
{
	const steplog *l = P(x)->steps->steps;
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
		if (rd_is_hole(v[k])) /* a way a store emptied */
			snprintf(item, sizeof item, "%s", x->utf8 ? "\u00b7" : ".");
		else
			snprintf(item, sizeof item, mine ? "[%llu]" : "%llu", (unsigned long long)v[k]);
		if (c + draw_width(item) + 2 > w && k + 1 < n) {
			draw_put(y, x0 + c, w - c, E_DERIVED, "...");
			return;
		}
		c += draw_put(y, x0 + c, w - c, mine ? E_SELECTED : E_VALUE, item) + 1;
	}
	if (!after) {
		char d[128];
		if (e->outcome == RD_OUT_EVICT && e->distance >= 0)
			snprintf(d, sizeof d, "  line %llu was at distance %lld: its way is empty now",
				 (unsigned long long)e->line, (long long)e->distance);
		else if (e->distance < 0)
			snprintf(d, sizeof d, "  line %llu not in it: distance %s",
				 (unsigned long long)e->line, theme_g()->inf);
		else
			snprintf(d, sizeof d, "  distance %lld %s %u ways", (long long)e->distance,
				 e->distance < (int64_t)ways ? "<" : ">=", ways);
		draw_put(y, x0 + c, w - c, E_DERIVED, d);
	}
}


/* label, then text cut between its items to fit, then tail (kept whole). */
static void draw_items(int y, int x0, int w, const char *label,
		       const char *text, const char *tail, const char *brk)
{
	int c = draw_put(y, x0, w, E_LABEL, label);
	int tw = tail ? draw_width(tail) : 0;
	char fit[1024];
	fit_items(fit, sizeof fit, w - c - tw, text, theme_g()->ellipsis, brk);
	c += draw_put(y, x0 + c, w - c, E_VALUE, fit);
	if (tail)
		draw_put(y, x0 + c, w - c, E_DERIVED, tail);
}

static void draw_inflight(const explorer *x, size_t i, int y, int x0, int w)
{
	const steplog *l = P(x)->steps->steps;
	const step_ev *se = &l->e[i];
	const step_ev *idx[64];
	size_t n = steplog_inflight(l, i, idx, 64);
	char buf[1024];
	size_t o = 0;
	for (int pass = 0; pass < 2; pass++) {
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%s", pass ? "; hits " : "fills ");
		int any = 0;
		for (size_t k = 0; k < n && k < 64 && o + 48 < sizeof buf; k++) {
			const rd_event *e = &idx[k]->ev;
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
	draw_items(y, x0, w, "in flight: ", buf, m, NULL);
}

static void draw_queue(const explorer *x, size_t i, int y, int x0, int w)
{
	const steplog *l = P(x)->steps->steps;
	size_t nx[32];
	uint32_t fin[32];
	size_t n = steplog_next_issues(l, i, nx, 32);
	size_t nf = steplog_finished(l, i, fin, 32);
	char buf[1024];
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
	draw_items(y, x0, w, "next issues (log ahead): ", buf, NULL, ",;");
}

/* ---------------------------------------------------------------- grid */

/* The address as tag / index / offset, in the bits' colours. */
static void draw_split(const explorer *x, const rd_event *e, int y, int x0, int w)
{
	const steplog *l = P(x)->steps->steps;
	unsigned line = l->cfg.l1_line ? l->cfg.l1_line : 1;
	char t[40], ix[40], of[40];
	snprintf(t, sizeof t, "%llx", (unsigned long long)steplog_tag(&l->cfg, l->sets, e->line));
	snprintf(ix, sizeof ix, "%u", e->set);
	snprintf(of, sizeof of, "%llu", (unsigned long long)(e->addr % line));
	const char *part[6] = {"tag ", t, "  set ", ix, "  offset ", of};
	const enum ui_elem el[6] = {E_LABEL, E_BIT_TAG, E_LABEL, E_BIT_INDEX, E_LABEL, E_BIT_OFFSET};
	int c = 0;
	for (int k = 0; k < 6; k++) {
		if (c + draw_width(part[k]) > w)
			return; /* whole parts only */
		c += draw_put(y, x0 + c, w - c, el[k], part[k]);
	}
	const char *tail = "  (the grid's tags are in hex)";
	if (c + draw_width(tail) <= w)
		draw_put(y, x0 + c, w - c, E_DERIVED, tail);
}

/* One row of the grid: label, then the ways (tags in hex), then what is
 * in flight for the set and a note, as fits. */
static void grid_row(const explorer *x, const step_grid *g, const grid_fit *f, int tagw, int y,
		     int x0, int w, const char *label, enum ui_elem lel, const uint64_t *v,
		     uint32_t n, uint32_t set, uint64_t mine, const char *note)
{
	const steplog *l = P(x)->steps->steps;
	int c = draw_put(y, x0, w, lel, label);
	for (int k = 0; k < f->shown; k++) {
		char cellt[40];
		int cx = x0 + c + k * f->cellw;
		if ((uint32_t)k >= n || rd_is_hole(v[k])) { /* an empty way */
			snprintf(cellt, sizeof cellt, "%*s", tagw, x->utf8 ? "·" : ".");
			draw_put(y, cx, f->cellw, E_DERIVED, cellt);
			continue;
		}
		snprintf(cellt, sizeof cellt, "%*llx", tagw,
			 (unsigned long long)steplog_tag(&l->cfg, l->sets, v[k]));
		draw_put(y, cx, tagw, v[k] == mine ? E_SELECTED : E_BIT_TAG, cellt);
		if (step_grid_flying(g, v[k]))
			draw_put(y, cx + tagw, 1, E_PENDING, "~");
	}
	c += f->shown * f->cellw;
	if (f->more)
		c += draw_put(y, x0 + c, w - c, E_DERIVED, theme_g()->ellipsis);
	/* Fills in flight for the set that are not in its ways. */
	char fly[512];
	size_t o = 0;
	fly[0] = '\0';
	for (size_t k = 0; k < g->nfly && o + 24 < sizeof fly; k++) {
		int in = 0;
		for (uint32_t j = 0; j < n && !in; j++)
			in = v[j] == g->fly_line[k];
		if (g->fly_set[k] == set && !in)
			o += (size_t)snprintf(fly + o, sizeof fly - o, "%s~%llx", o ? " " : " ",
					      (unsigned long long)steplog_tag(&l->cfg, l->sets,
									      g->fly_line[k]));
	}
	char t[600];
	snprintf(t, sizeof t, "%s%s%s", fly, note && *note ? "  " : "", note ? note : "");
	if (*t) { /* whole items, or nothing */
		char ft[600];
		fit_items(ft, sizeof ft, w - c, t, theme_g()->ellipsis, NULL);
		if (strcmp(ft, theme_g()->ellipsis) != 0 && strcmp(ft, " ") != 0)
			draw_put(y, x0 + c, w - c, E_PENDING, ft);
	}
}

/* The whole cache of the request's core at its lookup, from y to yend. */
static void draw_grid(explorer *x, size_t i, int y, int yend, int x0, int w)
{
	const steplog *l = P(x)->steps->steps;
	const step_ev *se = &l->e[i];
	step_grid g;
	if (yend - y < 3)
		return;
	if (!l->stacks || steplog_grid(l, i, &g) < 0) {
		draw_put(y, x0, w, E_ERROR,
			 l->stacks ? "cache: out of memory"
				   : "cache: not shown (the reference-2013 profile does not report it)");
		return;
	}
	uint32_t S = g.sets;
	uint32_t me = se->ev.set < S ? se->ev.set : 0;
	/* Rows: the sets that fit around the accessed one, which takes two
	 * (before and after). */
	int rows = yend - y - 1;
	uint32_t nrows = (uint32_t)(rows - 1 > 0 ? rows - 1 : 1);
	if (nrows > S)
		nrows = S;
	long top = (long)me - (long)nrows / 2 + P(x)->grid_scroll;
	if (top > (long)S - (long)nrows)
		top = (long)S - (long)nrows;
	if (top < 0)
		top = 0;
	P(x)->grid_scroll = (int)(top - ((long)me - (long)nrows / 2));
	uint32_t na;
	const uint64_t *after = steplog_stack(l, i, 1, &na);
	/* Column widths: the widest tag of the rows shown. */
	int tagw = 1;
	for (uint32_t s = (uint32_t)top; s < (uint32_t)top + nrows; s++) {
		uint32_t gn;
		const uint64_t *gv = step_grid_set(&g, s, &gn);
		for (uint32_t k = 0; k < gn; k++) {
			if (rd_is_hole(gv[k]))
				continue;
			int d = fit_hex_digits(steplog_tag(&l->cfg, l->sets, gv[k]));
			if (d > tagw)
				tagw = d;
		}
	}
	for (uint32_t k = 0; after && k < na && k < g.ways; k++) {
		if (rd_is_hole(after[k]))
			continue;
		int d = fit_hex_digits(steplog_tag(&l->cfg, l->sets, after[k]));
		if (d > tagw)
			tagw = d;
	}
	char num[16];
	snprintf(num, sizeof num, "%u", S ? S - 1 : 0);
	int setw = (int)strlen(num) > 5 ? (int)strlen(num) : 5;
	int lead = setw + 3;
	grid_fit f;
	grid_layout(w, lead, g.ways, tagw, draw_width(theme_g()->ellipsis), &f);
	char head[256];
	snprintf(head, sizeof head, "%*s  %s", setw, "set",
		 f.shown ? "ways, most recent first (hex tags, ~ in flight)" : "ways");
	char hf[256];
	fit_items(hf, sizeof hf, w, head, theme_g()->ellipsis, NULL);
	int c = draw_put(y, x0, w, E_LABEL, hf);
	char range[96];
	char core[32] = "";
	if (l->cfg.cores > 1)
		snprintf(core, sizeof core, ", core %u", g.core);
	snprintf(range, sizeof range, "  sets %u-%u of %u%s", (unsigned)top,
		 (unsigned)top + nrows - 1, S, core);
	if (c + draw_width(range) <= w)
		draw_put(y, x0 + c, w - c, E_DERIVED, range);
	y++;
	for (uint32_t s = (uint32_t)top; s < (uint32_t)top + nrows && y < yend; s++) {
		char label[48];
		int acc = s == me;
		snprintf(label, sizeof label, "%s %*u  ", acc ? theme_g()->sel : " ", setw, s);
		char note[64] = "";
		if (acc)
			snprintf(note, sizeof note, "%s",
				 se->ev.outcome == RD_OUT_EVICT ? "the store emptied its way" : "before");
		uint32_t gn;
		const uint64_t *gv = step_grid_set(&g, s, &gn);
		grid_row(x, &g, &f, tagw, y++, x0, w, label, acc ? E_FOCUS : E_BIT_INDEX, gv, gn, s,
			 acc ? se->ev.line : UINT64_MAX - 1, note);
		if (acc && y < yend) {
			snprintf(label, sizeof label, "  %*s  ", setw, "after");
			snprintf(note, sizeof note, "end of t=%llu", (unsigned long long)se->ev.time);
			step_grid tmp = g;
			tmp.nfly = 0; /* what is in flight then is the next request's story */
			grid_row(x, &tmp, &f, tagw, y++, x0, w, label, E_LABEL, after,
				 after ? (na < g.ways ? na : g.ways) : 0, s, se->ev.line, note);
		}
	}
	step_grid_free(&g);
}

/* ---------------------------------------------------------------- view */

static int steps_fit(const explorer *x)
{
	return P(x)->steps && rd_config_equal(&P(x)->steps->cfg, &x->cfg);
}

/* The window of requests that shows request n: from 0, or in steps of
 * STEP_MAX / 4 so that stepping on asks for a new one rarely. */
static uint64_t window_first(uint64_t n)
{
	uint64_t half = STEP_MAX / 2, q = STEP_MAX / 4;
	return n < half ? 0 : (n - half) / q * q;
}

/* Requests in all: the run's when known (the log reached its end, or the
 * breakdown of the configuration is in), else 0. */
static uint64_t steps_total(const explorer *x)
{
	const steplog *l = steps_fit(x) ? P(x)->steps->steps : NULL;
	if (l && l->complete)
		return l->seen;
	if (x_settled(x) && x->cur->status == RD_OK && rd_config_equal(&x->cur->cfg, &x->cfg))
		return x->cur->res.requests + x->cur->res.cancels;
	return 0;
}

/* Does the log hold request n, with some requests either side (unless
 * the run starts or ends there)? */
#define STEP_MARGIN 100
static int steps_cover(const explorer *x, uint64_t n, int margin)
{
	if (!steps_fit(x) || !P(x)->steps->steps || P(x)->steps->status != RD_OK)
		return 0;
	const steplog *l = P(x)->steps->steps;
	if (n < l->first || n >= l->first + l->n)
		return 0;
	if (!margin)
		return 1;
	return (l->first == 0 || n - l->first >= STEP_MARGIN) &&
	       (!l->truncated || l->first + l->n - n > STEP_MARGIN);
}

static void draw(explorer *x, const rect *r, int flags)
{
	(void)flags; /* the whole body, always */
	draw_blank(r);
	int x0 = r->x + 1, w = r->w - 2, y = r->y, yend = r->y + r->h;
	char line[1024];
	const lesson *ls = x->teach >= 0 ? &lessons[x->teach] : NULL;
	if (ls)
		snprintf(line, sizeof line, "%s %s %s", ls->title, theme_g()->sep, ls->intro);
	else if (P(x)->step_grid)
		snprintf(line, sizeof line, "Step-through %s the whole cache as each request's "
					    "lookup sees it",
			 theme_g()->sep);
	else if (x->typed_timing &&
		 (x->cfg.latency_miss || x->cfg.latency_hit || x->cfg.latency_stddev > 0))
		/* typed addresses whose hits latency changes (prompt.c) */
		snprintf(line, sizeof line, "Step-through %s GPU timing, latency.miss %u: "
					    "latency 0 gives the textbook's stack distances",
			 theme_g()->sep, x->cfg.latency_miss);
	else
		snprintf(line, sizeof line, "Step-through %s each request of the as-configured run, "
					    "in issue order",
			 theme_g()->sep);
	draw_put(y++, x0, w, E_FOCUS, line);
	const snap *s = P(x)->steps;
	if (!steps_fit(x) || (s->status == RD_OK && !steps_cover(x, P(x)->step, 0))) {
		snprintf(line, sizeof line, "collecting the requests around request %llu...",
			 (unsigned long long)P(x)->step + 1);
		draw_put(y + 1, x0, w, E_PENDING, P(x)->step ? line : "collecting the requests...");
		return;
	}
	if (s->status != RD_OK || !s->steps->n) {
		draw_put(y + 1, x0, w, s->status != RD_OK ? E_ERROR : E_DERIVED,
			 s->status != RD_OK ? rd_strerror(s->status) : "no requests: the trace has no loads");
		return;
	}
	const steplog *l = s->steps;
	size_t i = (size_t)(P(x)->step - l->first);
	table t;
	if (!P(x)->step_grid) {
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
	}
	unsigned elem = ls ? ls->elem : 0;
	const step_ev *se = &l->e[i];
	steplog_explain(l, i, line, sizeof line);
	char ex[1100];
	snprintf(ex, sizeof ex, "%s %s", theme_g()->sel, line);
	if (y < yend) {
		char fx[1100];
		fit_items(fx, sizeof fx, w, ex, theme_g()->ellipsis, NULL);
		draw_put(y++, x0, w, E_VALUE, fx);
	}
	/* The details, most important first, as many as fit. */
	if (y < yend) {
		const rd_event *e = &se->ev;
		char nt[48] = "", cls[48] = "";
		if (e->nthreads > 1)
			snprintf(nt, sizeof nt, " (+%u threads coalesced)", e->nthreads - 1);
		if (P(x)->step_grid) {
			char w[40];
			outcome_word(e, 1, w, sizeof w);
			snprintf(cls, sizeof cls, "  %s", w);
		}
		snprintf(line, sizeof line,
			 "t=%llu%s  warp %u  thread %u%s  instruction %u  block %u  core %u",
			 (unsigned long long)e->time, cls, e->warp, e->thread, nt, e->instr, e->block,
			 e->core);
		char fl[1100];
		fit_items(fl, sizeof fl, w, line, theme_g()->ellipsis, NULL);
		draw_put(y++, x0, w, E_DERIVED, fl);
	}
	if (y + 2 < yend) {
		draw_bits(x, se, y, x0, w, elem);
		y += 3;
	}
	if (y < yend && l->cfg.l1_sector && l->cfg.l1_sector < l->cfg.l1_line &&
	    se->ev.level != 2 && !se->ev.store)
		draw_sectors(x, &se->ev, l->cfg.l1_line / l->cfg.l1_sector, y++, x0, w);
	if (P(x)->step_grid) {
		if (y < yend)
			draw_split(x, &se->ev, y++, x0, w);
		int bottom = yend - (yend - y >= 8 ? 2 : 0);
		draw_grid(x, i, y, bottom, x0, w);
		y = bottom;
		if (y < yend && l->stacks)
			draw_inflight(x, i, y++, x0, w);
		if (y < yend)
			draw_queue(x, i, y++, x0, w);
		return;
	}
	if (y < yend) {
		if (l->stacks) {
			/* Every request's stack is its set as it found it (a store's
			 * line still there; the after row shows its way emptied). */
			snprintf(line, sizeof line, "set %u before: ", se->ev.set);
			draw_stack(x, i, 0, line, y++, x0, w);
		} else {
			draw_put(y++, x0, w, E_DERIVED,
				 "stacks: the reference-2013 profile does not report them");
		}
	}
	if (y < yend && l->stacks) {
		snprintf(line, sizeof line, "after t=%llu:  ", (unsigned long long)se->ev.time);
		while (draw_width(line) < 14)
			strcat(line, " ");
		draw_stack(x, i, 1, line, y++, x0, w);
	}
	if (y < yend && l->stacks)
		draw_inflight(x, i, y++, x0, w);
	if (y < yend)
		draw_queue(x, i, y++, x0, w);
}

/* Show request n (clamped to the run, or to the log while the run's
 * length is not known). */
static int step_to(explorer *x, uint64_t n)
{
	uint64_t total = steps_total(x);
	const steplog *l = steps_fit(x) && P(x)->steps->steps ? P(x)->steps->steps : NULL;
	if (!total && l && !l->truncated)
		total = l->first + l->n;
	if (!total && l && n >= l->first + l->n)
		n = l->first + l->n ? l->first + l->n - 1 : 0;
	if (total && n >= total)
		n = total - 1;
	if (n == P(x)->step)
		return R_NONE;
	P(x)->step = n;
	P(x)->grid_scroll = 0;
	return R_ALL;
}

static int step_by(explorer *x, long d)
{
	if (!steps_fit(x))
		return R_NONE;
	if (d < 0 && (uint64_t)-d > P(x)->step)
		return step_to(x, 0);
	return step_to(x, P(x)->step + (uint64_t)d);
}

static int scroll(explorer *x, int d)
{
	if (!P(x)->step_grid)
		return R_NONE;
	P(x)->grid_scroll += d;
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
		return steps_fit(x) ? step_to(x, 0) : R_NONE;
	case K_STEP_LAST:
		return steps_fit(x) ? step_to(x, UINT64_MAX) : R_NONE;
	case K_STEP_GRID:
		P(x)->step_grid = !P(x)->step_grid;
		P(x)->grid_scroll = 0;
		return R_ALL;
	case K_GRID_UP:
		return scroll(x, -1);
	case K_GRID_DOWN:
		return scroll(x, 1);
	default:
		return -1;
	}
}

/* The window asked for: "tT" for a jump to time T, else "@F" (jobs.h). */
static void want(const explorer *x, char *buf, size_t len)
{
	if (P(x)->step_goal_pending)
		snprintf(buf, len, "t%llu", (unsigned long long)P(x)->step_goal);
	else
		snprintf(buf, len, "@%llu", (unsigned long long)window_first(P(x)->step));
}

static void request(explorer *x)
{
	char k[32];
	if (!P(x)->step_goal_pending && steps_cover(x, P(x)->step, 1))
		return;
	/* The log of the configuration is there, but not around the request:
	 * a failed run is not asked for again. */
	if (steps_fit(x) && P(x)->steps->status != RD_OK)
		return;
	want(x, k, sizeof k);
	if (P(x)->asked == x->gen && strcmp(P(x)->steps_want, k) == 0)
		return;
	P(x)->asked = x->gen;
	snprintf(P(x)->steps_want, sizeof P(x)->steps_want, "%s", k);
	worker_submit_job(x->w, JOB_STEPS, x->gen, &x->cfg, k);
}

static int ready(const explorer *x)
{
	return steps_fit(x) && !P(x)->step_goal_pending &&
	       (P(x)->steps->status != RD_OK || strcmp(P(x)->steps->key, P(x)->steps_want) == 0);
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_STEPS)
		return R_NONE;
	snap_unref(P(x)->steps);
	P(x)->steps = snap_ref(s);
	const steplog *l = s->steps;
	if (s->status != RD_OK) {
		explorer_message(x, 1, "step-through: %s", rd_strerror(s->status));
		P(x)->step_goal_pending = 0;
	} else {
		if (P(x)->step_goal_pending && strcmp(s->key, P(x)->steps_want) == 0) {
			P(x)->step_goal_pending = 0;
			P(x)->step = l->want;
			P(x)->grid_scroll = 0;
		}
		if (l->complete && P(x)->step >= l->seen)
			P(x)->step = l->seen ? l->seen - 1 : 0;
	}
	explorer_request(x); /* a window around the request, if this is not one */
	return x->view == V_STEP ? R_ALL : R_NONE;
}

static void status(const explorer *x, char *buf, size_t len)
{
	const steplog *l = P(x)->steps ? P(x)->steps->steps : NULL;
	if (!l || !l->n)
		return;
	uint64_t total = steps_total(x);
	char of[48] = "more";
	if (total)
		snprintf(of, sizeof of, "%llu", (unsigned long long)total);
	snprintf(buf, len, "%s request %llu/%s", theme_g()->sep,
		 (unsigned long long)P(x)->step + 1, of);
}

static const char *hint(const explorer *x)
{
	if (x->teach >= 0)
		return " Left/Right step  n/p table ";
	return P(x)->step_grid ? " Left/Right step  Up/Down sets  : go to " : " Left/Right step  : go to  v cache ";
}

static void drop(explorer *x)
{
	snap_unref(P(x)->steps);
	P(x)->steps = NULL;
	P(x)->step = 0;
	P(x)->step_goal_pending = 0;
	P(x)->grid_scroll = 0;
	P(x)->steps_want[0] = '\0';
}

/* The explorer's P_GOTO prompt (:): a request number, or tN for a time. */
static int answer(explorer *x, int kind, const char *text)
{
	if (kind != P_GOTO)
		return -1;
	int is_time;
	uint64_t v;
	char err[256];
	if (steplog_parse_goal(text, &is_time, &v, err, sizeof err) < 0) {
		explorer_message(x, 1, "%s", err);
		return R_STATUS;
	}
	if (is_time) {
		P(x)->step_goal_pending = 1;
		P(x)->step_goal = v;
	} else {
		P(x)->step_goal_pending = 0;
		P(x)->step = v;
	}
	P(x)->grid_scroll = 0;
	explorer_request(x);
	return R_ALL;
}

const view_ops view_step = {
	.accesses = 1,
	.name = "step-through", .body = 1, .scope = KS_STEP,
	.desc = "the requests of a run one at a time, as the columns of the paper's Tables 2-5, "
		"with the address bits (and with l1.sector the line's sectors), the set's LRU "
		"stack before and after, the requests in flight, the MSHRs and the warp queue, or "
		"the whole cache",
	.priv_size = sizeof(step_priv),
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready,
	.status = status, .hint = hint, .drop = drop, .answer = answer,
};
