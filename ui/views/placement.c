/*
 * The placement view (seed 002, data placement; issue 20 item 6): the
 * kernel's arrays (a description's, or a trace's found by gaps when it
 * was opened: explorer_switch), one row each, with the memory space the
 * configuration puts it in (mem.NAME, global when not named), the baseline's space
 * when one is pinned, and its loads and stores (counted once per kernel:
 * they do not depend on the configuration); Left/Right moves the selected
 * array to the previous or next space it is allowed in (each candidate
 * configuration goes through rd_spaces_check; refused ones are skipped
 * and, when none is left, the reason is said), an edit like any other
 * (explorer_apply_edit: undo, the memo, a model run). Below, from the
 * result on screen: per space with traffic its instructions, requests,
 * hits, misses, replays and addressing instructions; Eq. 3's change in
 * issued instructions against every array global; the L1 (global's
 * path), the L2 and the DRAM panel, or how to turn them on. With a pinned
 * baseline every number has its change against it on the row below.
 * Drawn on the whole body. May include and call the state
 * (explorer/state.h), draw, theme.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct place_priv {
	/* The selected array, and the accesses of each of place_k's arrays
	 * (counted once per kernel: they do not depend on the configuration;
	 * place_n arrays, or place_k NULL before the first count). */
	int place_sel;
	const rd_kernel *place_k;
	uint32_t place_n;
	rd_array_counts place_counts;
} place_priv;

static place_priv *P(const explorer *x)
{
	return x->priv[V_PLACE];
}

/* The kernel's arrays, or NULL when it names none. */
static const rd_arrays *arrays_of(const explorer *x)
{
	return x->k && x->k->arrays && x->k->arrays->n ? x->k->arrays : NULL;
}

/* Count each array's loads and stores once per kernel (kept until the
 * kernel goes: drop). */
static void ensure_counts(explorer *x)
{
	if (P(x)->place_k == x->k)
		return;
	rd_array_counts_free(&P(x)->place_counts);
	P(x)->place_k = x->k;
	P(x)->place_n = 0;
	const rd_arrays *as = arrays_of(x);
	if (as && rd_arrays_count(as, x->k, &P(x)->place_counts) == 0)
		P(x)->place_n = as->n;
}

/* A result's per-space numbers. A run without placements (every array
 * global) has none of its own: its global row is the L1's requests, hits
 * and misses, and its instructions, replays and addressing instructions
 * are those of the all-global pass behind the other result's Eq. 3 (when
 * that one has spaces; else *known 0 for them). */
static void space_rows(const rd_result *r, const rd_result *other, rd_space_stats *out,
		       int *known)
{
	*known = 1;
	if (r->has_spaces) {
		memcpy(out, r->spaces, sizeof r->spaces);
		return;
	}
	memset(out, 0, RD_NSPACES * sizeof *out);
	rd_space_stats *g = &out[RD_SPACE_GLOBAL];
	g->requests = r->requests;
	g->hits = r->hits;
	g->misses = r->misses;
	if (!other || !other->has_spaces) {
		*known = 0;
		return;
	}
	int64_t ins = 0, addr = 0, rep = 0;
	for (int sp = 0; sp < RD_NSPACES; sp++) {
		ins += (int64_t)other->spaces[sp].instructions;
		addr += (int64_t)other->spaces[sp].address_instructions;
		rep += (int64_t)other->spaces[sp].replays;
	}
	g->instructions = (uint64_t)ins;
	g->address_instructions = (uint64_t)(addr - other->delta_address);
	g->replays = (uint64_t)(rep - other->delta_replays);
}

/* Does c place an array in space sp? */
static int placed(const rd_config *c, int sp)
{
	for (uint32_t i = 0; i < c->mem_n; i++)
		if ((int)c->mem[i].space == sp)
			return 1;
	return 0;
}

static int has_traffic(const rd_space_stats *s)
{
	return s->instructions || s->requests;
}

/* "+12", "-3", "0" */
static void fmt_delta(int64_t d, char *buf, size_t len)
{
	snprintf(buf, len, d ? "%+lld" : "0", (long long)d);
}

#define D(a, b) ((int64_t)(a) - (int64_t)(b))

/* The arrays, the selected one marked (kept in view), with their space,
 * the pinned baseline's (b), size and accesses: the next row. */
static int draw_arrays(explorer *x, const rd_arrays *as, const snap *b, int y, int yend, int x0,
		       int iw)
{
	char line[512];
	if (P(x)->place_sel >= (int)as->n)
		P(x)->place_sel = (int)as->n - 1;
	if (P(x)->place_sel < 0)
		P(x)->place_sel = 0;
	snprintf(line, sizeof line, "  %-12s %-10s %-10s %4s %9s %10s %10s", "array", "space",
		 b ? "pinned" : "", "elem", "bytes", "loads", "stores");
	draw_put(y++, x0, iw, E_LABEL, line);
	/* rows left for the arrays: keep at least 12 for the results */
	int room = yend - y - 12;
	if (room < 3)
		room = 3;
	int top = P(x)->place_sel >= room ? P(x)->place_sel - room + 1 : 0;
	for (int i = top; i < (int)as->n && i < top + room && y < yend; i++) {
		const rd_array *a = &as->a[i];
		enum rd_space sp = rd_config_space(&x->cfg, a->name);
		char ld[24] = "-", st[24] = "-";
		if (P(x)->place_n == as->n) {
			snprintf(ld, sizeof ld, "%llu", (unsigned long long)P(x)->place_counts.loads[i]);
			snprintf(st, sizeof st, "%llu", (unsigned long long)P(x)->place_counts.stores[i]);
		}
		snprintf(line, sizeof line, "%s %-12.12s %-10s %-10s %4u %9llu %10s %10s",
			 i == P(x)->place_sel ? ">" : " ", a->name, rd_space_name(sp),
			 b ? rd_space_name(rd_config_space(&b->cfg, a->name)) : "", a->elem,
			 (unsigned long long)a->bytes, ld, st);
		draw_put(y++, x0, iw, i == P(x)->place_sel ? E_SELECTED : E_VALUE, line);
	}
	if (P(x)->place_n == as->n && (P(x)->place_counts.loads[as->n] || P(x)->place_counts.stores[as->n]) &&
	    y < yend) {
		snprintf(line, sizeof line, "  (outside every array, global: %llu loads, %llu stores)",
			 (unsigned long long)P(x)->place_counts.loads[as->n],
			 (unsigned long long)P(x)->place_counts.stores[as->n]);
		draw_put(y++, x0, iw, E_DERIVED, line);
	}
	return y;
}

/* Per memory space its instructions, requests, hits, misses, replays and
 * addressing instructions, and the change against the baseline b: the
 * next row. */
static int draw_spaces(const explorer *x, const rd_result *res, const snap *b, int y, int yend,
		       int x0, int iw)
{
	char line[512];
	const rd_result *bres = b ? &b->res : NULL;
	rd_space_stats cur[RD_NSPACES], base[RD_NSPACES];
	int kc = 1, kb = 1;
	space_rows(res, bres, cur, &kc);
	if (b)
		space_rows(bres, res, base, &kb);
	snprintf(line, sizeof line, "  %-10s %10s %9s %9s %9s %8s %10s", "space", "instr.",
		 "requests", "hits", "misses", "replays", "addr.instr");
	draw_put(y++, x0, iw, E_LABEL, line);
	for (int sp = 0; sp < RD_NSPACES && y < yend; sp++) {
		if (sp != RD_SPACE_GLOBAL && !has_traffic(&cur[sp]) && !(b && has_traffic(&base[sp])) &&
		    !placed(&x->cfg, sp) && !(b && placed(&b->cfg, sp)))
			continue;
		const rd_space_stats *c = &cur[sp];
		if (kc)
			snprintf(line, sizeof line, "  %-10s %10llu %9llu %9llu %9llu %8llu %10llu",
				 rd_space_name((enum rd_space)sp), (unsigned long long)c->instructions,
				 (unsigned long long)c->requests, (unsigned long long)c->hits,
				 (unsigned long long)c->misses, (unsigned long long)c->replays,
				 (unsigned long long)c->address_instructions);
		else
			snprintf(line, sizeof line, "  %-10s %10s %9llu %9llu %9llu %8s %10s",
				 rd_space_name((enum rd_space)sp), "-", (unsigned long long)c->requests,
				 (unsigned long long)c->hits, (unsigned long long)c->misses, "-", "-");
		draw_put(y++, x0, iw, E_VALUE, line);
		if (!b || y >= yend)
			continue;
		const rd_space_stats *o = &base[sp];
		char d[6][24];
		fmt_delta(D(c->instructions, o->instructions), d[0], sizeof d[0]);
		fmt_delta(D(c->requests, o->requests), d[1], sizeof d[1]);
		fmt_delta(D(c->hits, o->hits), d[2], sizeof d[2]);
		fmt_delta(D(c->misses, o->misses), d[3], sizeof d[3]);
		fmt_delta(D(c->replays, o->replays), d[4], sizeof d[4]);
		fmt_delta(D(c->address_instructions, o->address_instructions), d[5], sizeof d[5]);
		if (!kc || !kb) { /* unknown without spaces on either side */
			snprintf(d[0], sizeof d[0], "-");
			snprintf(d[4], sizeof d[4], "-");
			snprintf(d[5], sizeof d[5], "-");
		}
		snprintf(line, sizeof line, "   %-9s %10s %9s %9s %9s %8s %10s", "vs pinned",
			 d[0], d[1], d[2], d[3], d[4], d[5]);
		int64_t cost = D(c->misses, o->misses) + (kc && kb ? D(c->replays, o->replays) : 0);
		draw_put(y++, x0, iw, cost < 0 ? E_BETTER : cost > 0 ? E_WORSE : E_DERIVED, line);
	}
	return y;
}

/* Eq. 3's change in issued instructions, the L1's and the L2's requests
 * and misses (against the baseline's, bres, when pinned): the next row. */
static int draw_levels(const rd_result *res, const rd_result *bres, int y, int yend, int x0, int iw)
{
	char line[512];
	/* Eq. 3 */
	if (y < yend) {
		if (res->has_spaces) {
			snprintf(line, sizeof line,
				 "  Eq. 3 against every array global: issued instructions %+lld,",
				 (long long)res->issued_delta);
			draw_put(y++, x0, iw, E_VALUE, line);
			snprintf(line, sizeof line, "    addressing %+lld, replays %+lld; %+.2f per warp "
				 "over %llu warps", (long long)res->delta_address,
				 (long long)res->delta_replays,
				 res->warps ? (double)res->issued_delta / (double)res->warps : 0.0,
				 (unsigned long long)res->warps);
		} else
			snprintf(line, sizeof line,
				 "  Eq. 3: every array global (the sample placement): no change");
		if (y < yend)
			draw_put(y++, x0, iw, E_VALUE, line);
	}
	if (bres && y < yend) {
		int64_t di = res->issued_delta - (bres->has_spaces ? bres->issued_delta : 0);
		uint64_t w = res->warps ? res->warps : bres->warps;
		snprintf(line, sizeof line, "    vs pinned: issued instructions %+lld, %+.2f per warp",
			 (long long)di, w ? (double)di / (double)w : 0.0);
		draw_put(y++, x0, iw, di < 0 ? E_BETTER : di > 0 ? E_WORSE : E_DERIVED, line);
	}
	/* the L1 and the L2 */
	if (y < yend) {
		snprintf(line, sizeof line, "  L1: %llu requests, %llu misses (%.2f%%)", (unsigned long long)res->requests, (unsigned long long)res->misses,
			 res->miss_rate_all * 100);
		if (bres) {
			size_t o = strlen(line);
			snprintf(line + o, sizeof line - o, "; vs pinned %+lld, %+lld",
				 (long long)D(res->requests, bres->requests),
				 (long long)D(res->misses, bres->misses));
		}
		draw_put(y++, x0, iw, E_VALUE, line);
	}
	if (y < yend) {
		if (res->has_l2) {
			snprintf(line, sizeof line, "  L2: %llu requests, %llu misses (%.2f%%)",
				 (unsigned long long)res->l2.requests, (unsigned long long)res->l2.misses,
				 res->l2.miss_rate * 100);
			if (bres && bres->has_l2) {
				size_t o = strlen(line);
				snprintf(line + o, sizeof line - o, "; vs pinned %+lld, %+lld",
					 (long long)D(res->l2.requests, bres->l2.requests),
					 (long long)D(res->l2.misses, bres->l2.misses));
			}
			draw_put(y++, x0, iw, E_VALUE, line);
		} else {
			draw_put(y++, x0, iw, E_DERIVED, "  L2: none (l2.size > 0 adds a shared L2)");
		}
	}
	return y;
}

/* The DRAM panel: its requests and rows, its delays or saturation
 * (against the baseline's, bres, when pinned). */
static void draw_dram(const rd_result *res, const rd_result *bres, int y, int yend, int x0, int iw)
{
	char line[512];
	/* DRAM */
	if (y >= yend)
		return;
	if (!res->has_dram) {
		draw_put(y++, x0, iw, E_DERIVED,
			 "  DRAM: off; dram.enable = 1 (the parameters' DRAM rows) models it after "
			 "the last cache level");
		if (y < yend)
			draw_put(y++, x0, iw, E_DERIVED,
				 "  (or o, kepler-k80-dram: the K80's L2 and DRAM with the L1 on, lines "
				 "spread over 256 banks)");
		return;
	}
	const rd_dram *dr = &res->dram;
	const rd_dram *db = bres && bres->has_dram ? &bres->dram : NULL;
	snprintf(line, sizeof line, "  DRAM: %llu requests to %llu of %llu banks; row hits %llu, "
		 "misses %llu, conflicts %llu", (unsigned long long)dr->requests,
		 (unsigned long long)dr->banks_used, (unsigned long long)dr->banks,
		 (unsigned long long)dr->row_hits, (unsigned long long)dr->row_misses,
		 (unsigned long long)dr->row_conflicts);
	draw_put(y++, x0, iw, E_VALUE, line);
	if (db && y < yend) {
		snprintf(line, sizeof line, "    vs pinned: requests %+lld; row hits %+lld, misses %+lld, "
			 "conflicts %+lld", (long long)D(dr->requests, db->requests),
			 (long long)D(dr->row_hits, db->row_hits), (long long)D(dr->row_misses, db->row_misses),
			 (long long)D(dr->row_conflicts, db->row_conflicts));
		draw_put(y++, x0, iw, E_DERIVED, line);
	}
	if (y >= yend)
		return;
	if (dr->saturated) {
		snprintf(line, sizeof line, "  saturated: %llu banks at utilisation >= 1 (up to %.3f):", (unsigned long long)dr->saturated,
			 dr->max_utilisation);
		draw_put(y++, x0, iw, E_WORSE, line);
		if (y < yend)
			draw_put(y++, x0, iw, E_WORSE, "    no finite queueing delay, latency or AMAT");
		if (y < yend) {
			/* why, and what to change (issue 40: seed 002's masks send
			 * a sample's lines to 2 or 4 of the K80's 16384 banks) */
			int few = dr->banks_used * 8 <= dr->banks;
			snprintf(line, sizeof line, "    a bank takes %.0f ns a request, and they come "
				 "faster%s", dr->service_time,
				 few ? "; the masks use few banks:" : ":");
			draw_put(y++, x0, iw, E_DERIVED, line);
		}
		if (y < yend)
			draw_put(y++, x0, iw, E_DERIVED,
				 dr->banks_used * 8 <= dr->banks
					 ? "    spread them (bank bits just above the line: o, "
					   "kepler-k80-dram) or raise dram.ns_per_step"
					 : "    more banks (dram.bank_mask, dram.channel_mask) or a larger "
					   "dram.ns_per_step");
		return;
	}
	snprintf(line, sizeof line, "  queueing delay %.1f ns, latency %.1f ns, AMAT %.1f ns",
		 dr->queue_delay, dr->latency, dr->amat);
	draw_put(y++, x0, iw, E_VALUE, line);
	if (db && y < yend) {
		if (db->saturated)
			snprintf(line, sizeof line, "    vs pinned: the baseline's DRAM was saturated");
		else
			snprintf(line, sizeof line, "    vs pinned: queueing delay %+.1f ns, latency %+.1f "
				 "ns, AMAT %+.1f ns", dr->queue_delay - db->queue_delay,
				 dr->latency - db->latency, dr->amat - db->amat);
		double da = db->saturated ? 0 : dr->amat - db->amat;
		draw_put(y++, x0, iw, da < 0 ? E_BETTER : da > 0 ? E_WORSE : E_DERIVED, line);
	}
}

static void draw(explorer *x, const rect *r, int flags)
{
	(void)flags; /* the whole body, always */
	ensure_counts(x);
	const rd_arrays *as = arrays_of(x);
	const snap *s = x->cur;
	const snap *b = x->base && x->base->status == RD_OK ? x->base : NULL;
	/* (no "seed 002" in the title: seed is also a key, issue 40 item 10) */
	draw_frame(r, b ? "Data placement, against the pinned baseline" : "Data placement", 1);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	if (!as) {
		int big = x->k && x->k->nloads + x->k->nstores > EXPLORER_ARRAYS_AUTO;
		draw_put(y + 1, x0 + 1, iw - 1, E_PENDING, "this kernel names no arrays");
		draw_put(y + 2, x0 + 1, iw - 1, E_DERIVED,
			 big ? "(a trace of more than 2 M accesses: the explorer does not look for its "
			       "arrays; rdscope arrays and run -s mem.NAME=SPACE do)"
			     : "(a kernel description names its own, arrays = {...}; rdscope arrays "
			       "INPUT lists them)");
		return;
	}
	y = draw_arrays(x, as, b, y, yend, x0, iw);
	y++;
	if (y >= yend)
		return;
	/* the result on screen */
	if (!s || s->partial) {
		draw_put(y, x0 + 1, iw - 1, E_PENDING, "the model is running...");
		return;
	}
	if (s->status != RD_OK) {
		draw_put(y, x0 + 1, iw - 1, E_ERROR, rd_strerror(s->status));
		return;
	}
	const rd_result *res = &s->res;
	const rd_result *bres = b ? &b->res : NULL;
	y = draw_spaces(x, res, b, y, yend, x0, iw);
	y = draw_levels(res, bres, y, yend, x0, iw);
	draw_dram(res, bres, y, yend, x0, iw);
}

/* Move the selected array dir (+1, -1) spaces on to the first one
 * allowed: an edit with undo, or the reason on the status line. */
static int move(explorer *x, int dir)
{
	const rd_arrays *as = arrays_of(x);
	if (!as) {
		explorer_message(x, 1, "placement: this kernel names no arrays");
		return R_STATUS;
	}
	if (P(x)->place_sel < 0 || P(x)->place_sel >= (int)as->n)
		P(x)->place_sel = 0;
	const char *name = as->a[P(x)->place_sel].name;
	int from = (int)rd_config_space(&x->cfg, name);
	char key[RD_MEM_NAME_MAX + 8], err[512], first[512] = "", all[1024] = "";
	const char *refused[RD_NSPACES];
	int nref = 0;
	snprintf(key, sizeof key, "mem.%s", name);
	for (int sp = from + dir; sp >= 0 && sp < RD_NSPACES; sp += dir) {
		rd_config c = x->cfg;
		if (sp == RD_SPACE_GLOBAL)
			rd_config_unset_mem(&c, name);
		else if (rd_config_set(&c, key, rd_space_name((enum rd_space)sp), err, sizeof err) < 0) {
			explorer_message(x, 1, "%s", err);
			return R_STATUS;
		}
		if (x->k && rd_spaces_check(&c, x->k, err, sizeof err) < 0) {
			if (!*first)
				snprintf(first, sizeof first, "%s", err);
			else if (!(strstr(err, "read-only") && strstr(first, "read-only"))) {
				/* a reason of another kind (read-only is said once) */
				const char *why = strncmp(err, key, strlen(key)) == 0 && err[strlen(key)] == ':'
							  ? err + strlen(key) + 2 : err;
				size_t o = strlen(all);
				snprintf(all + o, sizeof all - o, "; %s", why);
			}
			refused[nref++] = rd_space_name((enum rd_space)sp);
			continue;
		}
		char note[768] = "";
		if (nref) {
			char list[96] = "";
			for (int i = 0; i < nref; i++) {
				size_t o = strlen(list);
				snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", refused[i]);
			}
			snprintf(note, sizeof note, "%s=%s (skipped %s: %s)", key,
				 rd_space_name((enum rd_space)sp), list, first);
		}
		return explorer_apply_edit(x, &c, x->hash_user, note);
	}
	if (*first)
		explorer_message(x, 1, "%s%s", first, all);
	else
		explorer_message(x, 1, "placement: %s is in %s, the %s space", name,
				 rd_space_name((enum rd_space)from), dir > 0 ? "last" : "first");
	return R_STATUS;
}

static int key(explorer *x, enum key_id id)
{
	if (id == K_PLACE)
		return explorer_toggle_view(x, V_PLACE);
	if (x->view != V_PLACE)
		return -1;
	const rd_arrays *as = arrays_of(x);
	switch (id) {
	case K_PLACE_UP:
		if (P(x)->place_sel > 0)
			P(x)->place_sel--;
		return R_BARS;
	case K_PLACE_DOWN:
		if (as && P(x)->place_sel + 1 < (int)as->n)
			P(x)->place_sel++;
		return R_BARS;
	case K_PLACE_PREV:
		return move(x, -1);
	case K_PLACE_NEXT:
		return move(x, 1);
	default:
		return -1;
	}
}

static void status(const explorer *x, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < x->cfg.mem_n && o + 1 < len; i++) {
		int n = snprintf(buf + o, len - o, "%s%s=%s", i ? " " : "", x->cfg.mem[i].name,
				 rd_space_name(x->cfg.mem[i].space));
		o = n < 0 ? o : o + (size_t)n;
	}
}

static const char *hint(const explorer *x)
{
	(void)x;
	return "Left/Right space  u undo  c pin  M or Esc: back ";
}

static void drop(explorer *x)
{
	rd_array_counts_free(&P(x)->place_counts);
	P(x)->place_k = NULL;
	P(x)->place_n = 0;
	P(x)->place_sel = 0;
}

const view_ops view_place = {
	.accesses = 1,
	.name = "placement", .body = 1, .scope = KS_PLACE,
	.desc = "the kernel's arrays with their memory space and accesses, each movable to "
		"another space it is allowed in; per space its requests, hits, misses, replays "
		"and addressing instructions, Eq. 3's change in issued instructions, the L2 and "
		"DRAM",
	.priv_size = sizeof(place_priv),
	.draw = draw, .key = key, .status = status, .hint = hint, .drop = drop,
};
