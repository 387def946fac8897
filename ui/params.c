/* Parameter fields and their editing (see params.h). */
#include "params.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The groups of the pane, in the order their rows come: each its heading
 * (the L1's first group has none), the level whose pane shows it (0: both),
 * the profile it belongs to (-1: every one; the others' rows are left out
 * under another profile), and whether its rows count towards the pane's
 * height (the later ones are scrolled to).
 */
const param_group_info param_groups[PG_NGROUPS] = {
	[PG_L1] = {NULL, "", 1, -1, 1},
	[PG_L2] = {"L2, shared by all cores", "the L2 every core's L1 misses go to (l2.size 0: none)",
		   2, -1, 1},
	[PG_RDGC] = {"L1 banks and ports (rdgc)",
		     "RDGC's banked, ported L1 (model=rdgc; other profiles keep the defaults)", 1,
		     RD_PROFILE_RDGC, 1},
	[PG_MECH] = {"L1 mechanisms (paper)",
		     "what real L1s and schedulers do beyond the paper's model (model=paper)", 1,
		     RD_PROFILE_PAPER, 1},
	[PG_TODAY] = {"Today's L1s (Volta on)",
		      "today's L1s: 32-byte sectors, and one array shared with shared memory", 1,
		      RD_PROFILE_PAPER, 1},
	[PG_DRAM] = {"DRAM after the caches",
		     "DRAM after the L2 (or the L1s): dram.enable 1 models it; M shows it", 0, -1, 0},
	[PG_THREADS] = {"Threads and cores modelled",
			"which threads are modelled and how many run at once; sampled cores", 1,
			-1, 0},
	[PG_SPACES] = {"Memory spaces' caches (seed 002)",
		       "the texture, constant and shared memory of arrays placed there (M)", 1,
		       -1, 0},
};

/* A key's row (its label is the key -s takes: param_label), a group's
 * heading, a derived row. */
#define R(g, key, step) {key, NULL, step, g}
#define H(g) {NULL, NULL, STEP_HEADING, g}
#define D(g, label) {NULL, label, STEP_DERIVED, g}

const param_field param_fields[] = {
	R(PG_L1, "l1.size", STEP_POW2),
	R(PG_L1, "l1.ways", STEP_WAYS),
	R(PG_L1, "l1.line", STEP_POW2),
	D(PG_L1, "sets"),
	R(PG_L1, "l1.hash", STEP_CHOICE),
	R(PG_L1, "l1.mshrs", STEP_POW2_UNLIM),
	R(PG_L1, "l1.mshr_per_warp", STEP_POW2_UNLIM),
	R(PG_L1, "gpu.block_mapping", STEP_CHOICE),
	R(PG_L1, "latency.hit", STEP_125),
	R(PG_L1, "latency.miss", STEP_125),
	R(PG_L1, "latency.stddev", STEP_125),
	R(PG_L1, "gpu.warp_size", STEP_POW2),
	R(PG_L1, "gpu.cores", STEP_POW2),
	R(PG_L1, "model", STEP_CHOICE),
	R(PG_L1, "latency.clip", STEP_CHOICE),
	R(PG_L1, "gpu.divergence", STEP_CHOICE),
	R(PG_L1, "seed", STEP_ONE),
	R(PG_L1, "classes", STEP_CHOICE),
	R(PG_L1, "l1.replacement", STEP_CHOICE),
	R(PG_L1, "l1.stores", STEP_CHOICE),
	R(PG_L1, "l1.loads", STEP_CHOICE),
	/* The shared L2 (seed 001): every profile but reference-2013. */
	H(PG_L2),
	R(PG_L2, "l2.size", STEP_POW2_ZERO),
	R(PG_L2, "l2.ways", STEP_WAYS),
	R(PG_L2, "l2.line", STEP_POW2),
	D(PG_L2, "l2 sets/bank"),
	R(PG_L2, "l2.partitions", STEP_POW2),
	R(PG_L2, "l2.banks", STEP_POW2),
	R(PG_L2, "l2.ports", STEP_POW2_UNLIM),
	R(PG_L2, "l2.interleave", STEP_POW2_ZERO),
	R(PG_L2, "l2.hash", STEP_CHOICE),
	R(PG_L2, "l2.mshrs", STEP_POW2_UNLIM),
	R(PG_L2, "l2.mshr_sets", STEP_POW2),
	R(PG_L2, "l2.max_merges", STEP_POW2_UNLIM),
	R(PG_L2, "l2.replacement", STEP_CHOICE),
	R(PG_L2, "l2.stores", STEP_CHOICE),
	R(PG_L2, "l2.sector", STEP_POW2_ZERO),
	R(PG_L2, "l2.fetch", STEP_POW2_ZERO),
	R(PG_L2, "latency.l2", STEP_125),
	/* The L1's parallelism (model=rdgc, seed 001 section 4.4). */
	H(PG_RDGC),
	R(PG_RDGC, "l1.banks", STEP_POW2),
	R(PG_RDGC, "l1.ports", STEP_POW2_UNLIM),
	R(PG_RDGC, "l1.mshr_sets", STEP_POW2),
	R(PG_RDGC, "l1.max_merges", STEP_POW2_UNLIM),
	R(PG_RDGC, "gpu.schedulers", STEP_POW2),
	R(PG_RDGC, "gpu.max_active_blocks", STEP_ONE),
	R(PG_RDGC, "latency.model", STEP_CHOICE),
	R(PG_RDGC, "latency.k1", STEP_HALVES),
	R(PG_RDGC, "latency.k2", STEP_HALVES),
	/* The L1 mechanisms of issue 22 (model=paper). */
	H(PG_MECH),
	R(PG_MECH, "l1.allocate", STEP_CHOICE),
	R(PG_MECH, "l1.mshr_per_warp_counts", STEP_CHOICE),
	R(PG_MECH, "gpu.scheduler_policy", STEP_CHOICE),
	/* Today's GPUs (issue 37): sectors, and a unified L1's carve-out. */
	H(PG_TODAY),
	R(PG_TODAY, "l1.sector", STEP_POW2_ZERO),
	R(PG_TODAY, "l1.unified", STEP_POW2_ZERO),
	R(PG_TODAY, "l1.carveout", STEP_CARVEOUT),
	/* DRAM after the last cache level (seed 002; issue 40 item 3): in
	 * both levels' panes, under every profile (rows that do not apply
	 * are dimmed with why). */
	H(PG_DRAM),
	R(PG_DRAM, "dram.enable", STEP_CHOICE),
	R(PG_DRAM, "dram.row_hit", STEP_125),
	R(PG_DRAM, "dram.row_miss", STEP_125),
	R(PG_DRAM, "dram.row_conflict", STEP_125),
	R(PG_DRAM, "dram.ns_per_step", STEP_HALVES),
	R(PG_DRAM, "dram.row_timeout", STEP_125),
	R(PG_DRAM, "dram.cache_hit", STEP_125),
	R(PG_DRAM, "dram.channel_mask", STEP_MASK),
	R(PG_DRAM, "dram.bank_mask", STEP_MASK),
	R(PG_DRAM, "dram.row_mask", STEP_MASK),
	R(PG_DRAM, "dram.col_mask", STEP_MASK),
	/* Threads (issue 38): a description's max_threads lifted or lowered,
	 * the occupancy, and sampled cores for long kernels. */
	H(PG_THREADS),
	R(PG_THREADS, "gpu.max_threads", STEP_POW2_ZERO),
	R(PG_THREADS, "gpu.max_active_threads", STEP_POW2),
	R(PG_THREADS, "gpu.sample_cores", STEP_POW2_ZERO),
	/* The memory spaces' own caches (seed 002; arrays are placed with M). */
	H(PG_SPACES),
	R(PG_SPACES, "tex.size", STEP_POW2),
	R(PG_SPACES, "tex.line", STEP_POW2),
	R(PG_SPACES, "tex.ways", STEP_WAYS),
	R(PG_SPACES, "const.size", STEP_POW2),
	R(PG_SPACES, "const.line", STEP_POW2),
	R(PG_SPACES, "const.ways", STEP_WAYS),
	R(PG_SPACES, "smem.size", STEP_POW2),
	R(PG_SPACES, "smem.banks", STEP_POW2),
	R(PG_SPACES, "smem.bank_width", STEP_POW2),
	R(PG_SPACES, "smem.latency", STEP_125),
};
#undef R
#undef H
#undef D
const size_t param_nfields = sizeof param_fields / sizeof param_fields[0];
_Static_assert(sizeof param_fields / sizeof param_fields[0] <= PARAM_ROWS_MAX,
	       "every row fits the panes' lists");

int param_editable(size_t i)
{
	return i < param_nfields && param_fields[i].step != STEP_DERIVED &&
	       param_fields[i].step != STEP_HEADING;
}

int param_heading(size_t i)
{
	return i < param_nfields && param_fields[i].step == STEP_HEADING;
}

/* A row of the L2's pane (its heading, keys and sets per bank). */
static int l2_row(size_t i)
{
	return param_fields[i].group == PG_L2;
}

const char *param_label(size_t i)
{
	if (i >= param_nfields)
		return "";
	const param_field *f = &param_fields[i];
	return f->key ? f->key : f->step == STEP_HEADING ? param_groups[f->group].title : f->label;
}

/* Whether the row's key is modelled: its row in the model's key table
 * says (rd_key_applies); a derived row follows the key it is made from. */
int param_applies(const rd_config *cfg, size_t i, char *why, size_t len)
{
	why[0] = '\0';
	if (i >= param_nfields || param_heading(i))
		return 1;
	const char *key = param_fields[i].key;
	if (!key)
		key = l2_row(i) ? "l2.ways" : "l1.ways";
	const rd_key *k = rd_key_find(key);
	return !k || rd_key_applies(cfg, k, why, len);
}

size_t param_visible(const rd_config *cfg, int level, size_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < param_nfields && n < max; i++) {
		const param_group_info *g = &param_groups[param_fields[i].group];
		if (g->level && g->level != (level == 2 ? 2 : 1))
			continue;
		if (g->profile >= 0 && (int)cfg->model != g->profile)
			continue;
		out[n++] = i;
	}
	return n;
}

const char *param_help(size_t i)
{
	if (i >= param_nfields)
		return "";
	if (param_fields[i].key)
		return rd_key_find(param_fields[i].key)->help;
	if (param_heading(i))
		return param_groups[param_fields[i].group].help;
	return l2_row(i) ? "derived: l2.size / (l2.line x l2.ways x l2.partitions x l2.banks)"
			 : "derived: l1.size / (l1.line x l1.ways)";
}

unsigned param_index_bits(uint32_t sets)
{
	unsigned b = 0;
	while (b < 32 && (1ull << b) < sets)
		b++;
	return b;
}

unsigned param_offset_bits(uint32_t line)
{
	return param_index_bits(line);
}

/* Largest value a stepped field goes to before "unlimited". */
#define UNLIM_TOP 1024u

/* The next candidate after v in direction dir; -1 at the end of the range. */
static int next_uint(enum step_kind k, uint64_t v, int dir, uint64_t *out)
{
	switch (k) {
	case STEP_POW2:
		if (dir > 0) {
			uint64_t p = 1;
			while (p <= v)
				p <<= 1;
			if (p > (1ull << 31))
				return -1;
			*out = p;
		} else {
			if (v <= 1)
				return -1;
			uint64_t p = 1;
			while (p * 2 < v)
				p <<= 1;
			*out = p;
		}
		return 0;
	case STEP_POW2_UNLIM:
		if (v == 0) { /* unlimited: top of the range */
			if (dir > 0)
				return -1;
			*out = UNLIM_TOP;
			return 0;
		}
		if (dir > 0 && v >= UNLIM_TOP) {
			*out = 0;
			return 0;
		}
		return next_uint(STEP_POW2, v, dir, out);
	case STEP_WAYS: {
		/* 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: powers of two and 1.5x them. */
		uint64_t best = 0;
		int found = 0;
		for (uint64_t p = 1; p <= (1ull << 31); p <<= 1) {
			uint64_t c[2] = {p, p + p / 2};
			for (int j = 0; j < 2; j++) {
				if (j == 1 && p < 2) /* 1.5 is no count of ways */
					continue;
				if (dir > 0 && c[j] > v && (!found || c[j] < best))
					best = c[j], found = 1;
				if (dir < 0 && c[j] < v && c[j] >= 1 && (!found || c[j] > best))
					best = c[j], found = 1;
			}
		}
		if (!found)
			return -1;
		*out = best;
		return 0;
	}
	case STEP_125: {
		/* 0, 1, 2, 5, 10, 20, 50, ... */
		if (dir > 0) {
			uint64_t c = 1;
			for (uint64_t m = 1; c <= v; m *= 10) {
				if (m > 1000000000ull)
					return -1;
				if (m > v) { c = m; break; }
				if (2 * m > v) { c = 2 * m; break; }
				if (5 * m > v) { c = 5 * m; break; }
			}
			*out = c;
		} else {
			if (v == 0)
				return -1;
			uint64_t c = 0;
			for (uint64_t m = 1; m < v; m *= 10) {
				c = m;
				if (2 * m < v)
					c = 2 * m;
				if (5 * m < v)
					c = 5 * m;
			}
			*out = c;
		}
		return 0;
	}
	case STEP_POW2_ZERO:
		if (v == 0) { /* off: the smallest power of two above */
			if (dir < 0)
				return -1;
			*out = 1;
			return 0;
		}
		if (dir < 0 && v == 1) {
			*out = 0;
			return 0;
		}
		return next_uint(STEP_POW2, v, dir, out);
	case STEP_ONE:
		if (dir < 0 && v == 0)
			return -1;
		if (dir > 0 && v == UINT64_MAX)
			return -1;
		*out = dir > 0 ? v + 1 : v - 1;
		return 0;
	default:
		return -1;
	}
}

/* Choices of an enum or bool key, and which of them is current. */
static int choices(const rd_config *cfg, const char *key, char list[8][24], int *cur)
{
	char now[64];
	rd_config_get(cfg, key, now, sizeof now);
	const rd_key *k = rd_key_find(key);
	int n = 0;
	if (k->type == RD_KEY_BOOL) {
		strcpy(list[0], "0");
		strcpy(list[1], "1");
		n = 2;
	} else {
		const char *p = k->choices;
		while (p && *p && n < 8) {
			size_t l = strcspn(p, "|");
			snprintf(list[n], sizeof list[n], "%.*s", (int)l, p);
			/* "smod:N": the current shift, or 0. */
			if (strcmp(list[n], "smod:N") == 0) {
				int l2 = !strcmp(key, "l2.hash");
				enum rd_hash h = l2 ? cfg->l2_hash : cfg->l1_hash;
				uint32_t sh = l2 ? cfg->l2_hash_shift : cfg->l1_hash_shift;
				snprintf(list[n], sizeof list[n], "smod:%u", h == RD_HASH_SMOD ? sh : 0);
			}
			n++;
			p += l;
			if (*p == '|')
				p++;
		}
	}
	*cur = -1;
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], now) == 0)
			*cur = i;
	return n;
}

/* The hash rule while editing (param_hash_auto_begin), NULL: refuse. */
typedef struct hash_ctx {
	int *user_hash;   /* in/out: the hash to go back to, or -1 */
	char *note;       /* out: what was switched, "" if nothing */
	size_t notelen;
} hash_ctx;

static int is_geometry(const char *key)
{
	return !strcmp(key, "l1.size") || !strcmp(key, "l1.ways") || !strcmp(key, "l1.line");
}

/*
 * A model the other keys refuse (model=paper with l1.banks 4, rdgc with a
 * per-warp MSHR limit, reference-2013 with an L2): each key refused goes
 * back to its default (or 0 when its default is refused too), said in
 * the note, so that the model's cycle never dead-ends. 0 when c is then
 * valid; -1 (c in an unknown state) when a key cannot be fixed so.
 */
static int model_fixup(rd_config *c, const rd_config *was, const hash_ctx *h)
{
	char err[512], now[64], lst[256] = "";
	size_t o = 0;
	for (int n = 0; n < 16 && rd_config_check(c, err, sizeof err) < 0; n++) {
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)strcspn(err, ":"), err);
		const rd_key *k = rd_key_find(key);
		if (!k || !strcmp(key, "model") || rd_config_get(c, key, now, sizeof now) < 0)
			return -1;
		const char *cand[2] = {k->def, "0"};
		int fixed = 0;
		for (int j = 0; j < 2 && !fixed; j++) {
			rd_config t = *c;
			char e2[512];
			if (rd_config_set(&t, key, cand[j], e2, sizeof e2) < 0)
				continue;
			char v[64];
			rd_config_get(&t, key, v, sizeof v);
			if (!strcmp(v, now))
				continue;
			/* the key is no longer the first problem */
			if (rd_config_check(&t, e2, sizeof e2) == 0 ||
			    strncmp(e2, key, strlen(key)) || e2[strlen(key)] != ':') {
				*c = t;
				fixed = 1;
				if (o < sizeof lst)
					o += (size_t)snprintf(lst + o, sizeof lst - o, "%s%s %s -> %s",
							      o ? ", " : "", key, now, v);
			}
		}
		if (!fixed)
			return -1;
	}
	if (rd_config_check(c, err, sizeof err) < 0)
		return -1;
	char from[32], to[32];
	rd_config_get(was, "model", from, sizeof from);
	rd_config_get(c, "model", to, sizeof to);
	snprintf(h->note, h->notelen, "model %s -> %s takes %s (u undoes all)", from, to, lst);
	return 0;
}

/*
 * Try text as the value of key on a copy; commit only if all is valid.
 * With h, a geometry value the hash cannot take is taken with the hash
 * that can (rd_config_hash_fallback), and a hash switched so goes back
 * to the user's when the geometry allows it again.
 */
static int try_value_h(rd_config *cfg, const char *key, const char *text, char *msg, size_t len,
		       const hash_ctx *h)
{
	rd_config c = *cfg;
	if (rd_config_set(&c, key, text, msg, len) < 0)
		return -1;
	int geo = h && is_geometry(key);
	if (h && !strcmp(key, "l1.loads") && c.loads == RD_LOADS_BYPASS &&
	    c.stores == RD_STORES_ALLOCATE && c.model == RD_PROFILE_PAPER) {
		/* Bypassed loads with allocated stores is refused (it would cache
		 * stores but not loads); rather than a dead end, the stores turn
		 * write-evict, bypass's own partner (RDGC's RWON). */
		rd_config e = c;
		e.stores = RD_STORES_EVICT;
		if (rd_config_check(&e, msg, len) < 0)
			return -1;
		snprintf(h->note, h->notelen,
			 "l1.stores allocate -> evict: l1.loads=bypass takes stores evict or "
			 "ignore (u undoes both)");
		*cfg = e;
		return 0;
	}
	if (h && !strcmp(key, "model") && rd_config_check(&c, msg, len) < 0 &&
	    model_fixup(&c, cfg, h) == 0) {
		*cfg = c;
		return 0;
	}
	if (rd_config_check(&c, msg, len) < 0) {
		int fb = geo ? rd_config_hash_fallback(&c) : -1;
		if (fb < 0)
			return -1;
		enum rd_hash was = c.l1_hash;
		c.l1_hash = (enum rd_hash)fb;
		if (*h->user_hash < 0)
			*h->user_hash = (int)was;
		snprintf(h->note, h->notelen,
			 "l1.hash %s -> %s: %s takes %s, not %u (u undoes both)",
			 rd_hash_name(was), rd_hash_name(c.l1_hash), rd_hash_name(was),
			 was == RD_HASH_FERMI ? "32 or 64 sets" : "2^n sets",
			 rd_config_sets(&c));
	} else if (geo && *h->user_hash >= 0 && c.l1_hash != (enum rd_hash)*h->user_hash) {
		rd_config back = c;
		back.l1_hash = (enum rd_hash)*h->user_hash;
		char e[256];
		if (rd_config_check(&back, e, sizeof e) == 0) {
			snprintf(h->note, h->notelen, "l1.hash %s -> %s again: this cache has %u sets",
				 rd_hash_name(c.l1_hash), rd_hash_name(back.l1_hash),
				 rd_config_sets(&back));
			c = back;
			*h->user_hash = -1;
		}
	}
	*cfg = c;
	return 0;
}

static int try_value(rd_config *cfg, const char *key, const char *text, char *msg, size_t len)
{
	return try_value_h(cfg, key, text, msg, len, NULL);
}

/* The status line's note for a choice the cycle passed over: short (the
 * status line is one line), with the key that refuses it. */
static void skip_note(const rd_config *now, const char *key, const char *skipped,
		      const char *why, const hash_ctx *h)
{
	if (!strcmp(key, "l1.stores") && now->loads == RD_LOADS_BYPASS)
		snprintf(h->note, h->notelen,
			 "l1.stores: %s skipped, l1.loads=bypass refuses it (l1.loads=cache allows it)",
			 skipped);
	else
		snprintf(h->note, h->notelen, "%s: %s skipped (%.*s)", key, skipped,
			 (int)strcspn(why, ";"), why);
}

static int step_h(rd_config *cfg, size_t i, int dir, char *msg, size_t len,
		  const hash_ctx *edit_hash)
{
	if (!param_editable(i)) {
		snprintf(msg, len, "%s is %s", param_label(i),
			 param_heading(i) ? "a heading" : param_help(i));
		return -1;
	}
	const param_field *f = &param_fields[i];
	char first_err[256] = "";
	char text[64];
	if (f->step == STEP_CHOICE) {
		char list[8][24];
		int cur, n = choices(cfg, f->key, list, &cur);
		if (n <= 1)
			return snprintf(msg, len, "%s: nothing to choose", f->key), -1;
		const char *skipped = NULL;
		for (int t = 1; t < n; t++) {
			int j = cur < 0 ? (dir > 0 ? t - 1 : n - t) : ((cur + (dir > 0 ? t : -t)) % n + n) % n;
			if (try_value_h(cfg, f->key, list[j], t == 1 ? first_err : msg,
					t == 1 ? sizeof first_err : len, edit_hash) == 0) {
				/* A choice passed over is said, with why: the
				 * cycle is not the key's list as written. */
				if (skipped && edit_hash && !*edit_hash->note)
					skip_note(cfg, f->key, skipped, first_err, edit_hash);
				return 0;
			}
			if (t == 1)
				skipped = list[j];
		}
		snprintf(msg, len, "%s", first_err);
		return -1;
	}
	if (f->step == STEP_HALVES) {
		/* A double: 0, 1/64, ..., 1/2, 1, 2, 4, ... (a value between
		 * two goes to the next one in the direction). */
		double v = 0, nv;
		rd_config_get(cfg, f->key, text, sizeof text);
		v = strtod(text, NULL);
		if (dir > 0) {
			nv = v <= 0 ? 1.0 / 64 : 1.0 / 64;
			while (nv <= v)
				nv *= 2;
			if (nv > 1048576)
				return snprintf(msg, len, "%s: no larger value", f->key), -1;
		} else {
			if (v <= 0)
				return snprintf(msg, len, "%s: no smaller value", f->key), -1;
			nv = 1.0 / 64;
			if (nv >= v)
				nv = 0;
			else
				while (nv * 2 < v)
					nv *= 2;
		}
		snprintf(text, sizeof text, "%.17g", nv);
		return try_value_h(cfg, f->key, text, msg, len, edit_hash);
	}
	if (f->step == STEP_125 && rd_key_find(f->key)->type == RD_KEY_DOUBLE) {
		/* A double on the 0 1 2 5 10 ... ladder (fractions round up/down):
		 * latency.stddev, the DRAM's times. */
		rd_config_get(cfg, f->key, text, sizeof text);
		double v = strtod(text, NULL);
		uint64_t base = dir > 0 ? (uint64_t)floor(v) : (uint64_t)ceil(v);
		uint64_t nv;
		if (next_uint(STEP_125, base, dir, &nv) < 0)
			return snprintf(msg, len, "%s: no smaller value", f->key), -1;
		snprintf(text, sizeof text, "%llu", (unsigned long long)nv);
		return try_value(cfg, f->key, text, msg, len);
	}
	if (f->step == STEP_MASK) {
		/* The mask's bits one place up (Right) or down (Left): another
		 * mapping of the same size; one that overlaps another mask is
		 * refused with the model's reason. */
		rd_config_get(cfg, f->key, text, sizeof text);
		uint64_t m = strtoull(text, NULL, 10);
		if (!m)
			return snprintf(msg, len, "%s: 0 (no bits): type a mask with Enter (0x hex "
					"taken)", f->key), -1;
		if (dir < 0 && (m & 1))
			return snprintf(msg, len, "%s: bit 0 is in it: no lower bits", f->key), -1;
		if (dir > 0 && (m >> 63))
			return snprintf(msg, len, "%s: bit 63 is in it: no higher bits", f->key), -1;
		snprintf(text, sizeof text, "%llu", (unsigned long long)(dir > 0 ? m << 1 : m >> 1));
		return try_value_h(cfg, f->key, text, msg, len, edit_hash);
	}
	if (f->step == STEP_CARVEOUT) {
		/* the next carve-out the unified L1's GPU offers */
		uint32_t list[16];
		int n = rd_l1_carveouts(cfg->l1_unified, list, 16), at = -1;
		for (int j = 0; j < n; j++)
			if (list[j] == cfg->l1_carveout)
				at = j;
		if (!cfg->l1_unified || !n)
			return snprintf(msg, len, "%s: set l1.unified to a GPU's (131072, 196608 or "
					"262144) first", f->key), -1;
		int to = at < 0 ? 0 : at + (dir > 0 ? 1 : -1);
		if (to < 0 || to >= n)
			return snprintf(msg, len, "%s: no %s carve-out", f->key,
					dir > 0 ? "larger" : "smaller"), -1;
		snprintf(text, sizeof text, "%u", list[to]);
		return try_value_h(cfg, f->key, text, msg, len, edit_hash);
	}
	char now[64];
	rd_config_get(cfg, f->key, now, sizeof now);
	uint64_t v = strtoull(now, NULL, 10);
	/* The reason shown: that of the first candidate with whole sets (the
	 * other reason, uneven sets, is seldom the one that matters). */
	char whole_err[256] = "";
	for (int t = 0; t < 24; t++) {
		uint64_t nv;
		if (next_uint(f->step, v, dir, &nv) < 0) {
			if (t == 0)
				return snprintf(msg, len, "%s: no %s value", f->key,
						dir > 0 ? "larger" : "smaller"), -1;
			break;
		}
		snprintf(text, sizeof text, "%llu", (unsigned long long)nv);
		char e[256];
		if (try_value_h(cfg, f->key, text, e, sizeof e, edit_hash) == 0)
			return 0;
		if (t == 0)
			snprintf(first_err, sizeof first_err, "%s", e);
		rd_config probe = *cfg;
		char tmp[8];
		if (!*whole_err && rd_config_set(&probe, f->key, text, tmp, sizeof tmp) == 0 &&
		    rd_config_sets(&probe) != 0)
			snprintf(whole_err, sizeof whole_err, "%s", e);
		/* A value the key itself refuses ends the search. */
		probe = *cfg;
		if (rd_config_set(&probe, f->key, text, tmp, sizeof tmp) < 0)
			break;
		v = nv;
		if (f->step == STEP_POW2_UNLIM && nv == 0)
			break;
	}
	snprintf(msg, len, "%s", *whole_err ? whole_err : first_err);
	return -1;
}

static int set_text_h(rd_config *cfg, size_t i, const char *text, char *msg, size_t len,
		      const hash_ctx *edit_hash)
{
	if (!param_editable(i)) {
		snprintf(msg, len, "%s is %s", param_label(i),
			 param_heading(i) ? "a heading" : param_help(i));
		return -1;
	}
	/* Leading and trailing blanks are not part of the value. */
	while (*text == ' ')
		text++;
	char v[128];
	snprintf(v, sizeof v, "%s", text);
	size_t n = strlen(v);
	while (n && v[n - 1] == ' ')
		v[--n] = '\0';
	return try_value_h(cfg, param_fields[i].key, v, msg, len, edit_hash);
}

int param_step(rd_config *cfg, size_t i, int dir, char *msg, size_t len)
{
	return step_h(cfg, i, dir, msg, len, NULL);
}

int param_set_text(rd_config *cfg, size_t i, const char *text, char *msg, size_t len)
{
	return set_text_h(cfg, i, text, msg, len, NULL);
}

int param_step_auto(rd_config *cfg, size_t i, int dir, int *user_hash, char *msg, size_t len,
		    char *note, size_t notelen)
{
	note[0] = '\0';
	int uh = *user_hash;
	hash_ctx h = {&uh, note, notelen};
	int rc = step_h(cfg, i, dir, msg, len, &h);
	if (rc == 0)
		*user_hash = uh;
	else
		note[0] = '\0';
	return rc;
}

int param_set_text_auto(rd_config *cfg, size_t i, const char *text, int *user_hash, char *msg,
			size_t len, char *note, size_t notelen)
{
	note[0] = '\0';
	int uh = *user_hash;
	hash_ctx h = {&uh, note, notelen};
	int rc = set_text_h(cfg, i, text, msg, len, &h);
	if (rc == 0)
		*user_hash = uh;
	else
		note[0] = '\0';
	return rc;
}

void param_format(const rd_config *cfg, size_t i, char *val, size_t vlen, char *extra,
		  size_t elen)
{
	const param_field *f = &param_fields[i];
	extra[0] = '\0';
	if (f->step == STEP_HEADING) {
		val[0] = '\0';
		return;
	}
	if (!f->key && l2_row(i)) {
		uint32_t sets = rd_config_l2_sets(cfg);
		snprintf(val, vlen, "%u", sets);
		if (cfg->l2_size)
			snprintf(extra, elen, "x %u bank%s", cfg->l2_partitions * cfg->l2_banks,
				 cfg->l2_partitions * cfg->l2_banks == 1 ? "" : "s");
		return;
	}
	if (!f->key) {
		uint32_t sets = rd_config_sets(cfg);
		snprintf(val, vlen, "%u", sets);
		snprintf(extra, elen, "idx %ub, off %ub", param_index_bits(sets),
			 param_offset_bits(cfg->l1_line));
		return;
	}
	if (rd_config_get(cfg, f->key, val, vlen) < 0)
		snprintf(val, vlen, "?");
	if (f->step == STEP_MASK) {
		/* in hex, with its bits as ranges ("bits 0-6,15-18") */
		uint64_t m = strtoull(val, NULL, 10);
		snprintf(val, vlen, "0x%llx", (unsigned long long)m);
		size_t o = 0;
		for (int b = 0; b < 64; b++) {
			if (!((m >> b) & 1))
				continue;
			int e = b;
			while (e + 1 < 64 && ((m >> (e + 1)) & 1))
				e++;
			if (o < elen)
				o += (size_t)snprintf(extra + o, elen - o, "%s%d%s%.0d", o ? "," : "bits ",
						      b, e > b ? "-" : "", e > b ? e : 0);
			b = e;
		}
		if (!m)
			snprintf(extra, elen, "none");
		return;
	}
	if (strcmp(f->key, "latency.stddev") == 0)
		snprintf(val, vlen, "%g", cfg->latency_stddev);
	else if (!strcmp(f->key, "latency.k1") || !strcmp(f->key, "latency.k2"))
		snprintf(val, vlen, "%g", !strcmp(f->key, "latency.k1") ? cfg->latency_k1
									  : cfg->latency_k2);
	const rd_key *k = rd_key_find(f->key);
	int unlim = !strcmp(f->key, "l1.ports") || !strcmp(f->key, "l1.max_merges") ||
		    !strcmp(f->key, "l2.ports") || !strcmp(f->key, "l2.mshrs") ||
		    !strcmp(f->key, "l2.max_merges");
	if (!strcmp(f->key, "l2.size") && !cfg->l2_size) {
		snprintf(extra, elen, "no L2");
	} else if (!strcmp(f->key, "l2.interleave") && !cfg->l2_interleave) {
		snprintf(extra, elen, "= l2.line");
	} else if (unlim && !strcmp(val, "0")) {
		snprintf(extra, elen, "unlimited");
	} else if (strcmp(f->key, "l1.size") == 0 || strcmp(f->key, "l2.size") == 0) {
		uint32_t s = strcmp(f->key, "l1.size") == 0 ? cfg->l1_size : cfg->l2_size;
		if (s >= 1024 * 1024 && s % (1024 * 1024) == 0)
			snprintf(extra, elen, "B = %u MiB", s / (1024 * 1024));
		else if (s >= 1024 && s % 1024 == 0)
			snprintf(extra, elen, "B = %u KiB", s / 1024);
		else
			snprintf(extra, elen, "B");
	} else if (strcmp(f->key, "l1.line") == 0 || strcmp(f->key, "l2.line") == 0) {
		snprintf(extra, elen, "B");
	} else if ((strcmp(f->key, "l1.mshrs") == 0 && cfg->l1_mshrs == 0) ||
		   (strcmp(f->key, "l1.mshr_per_warp") == 0 && cfg->l1_mshr_per_warp == 0)) {
		snprintf(extra, elen, "unlimited");
	} else if (k->type == RD_KEY_BOOL) {
		snprintf(extra, elen, "%s", strcmp(val, "1") == 0 ? "on" : "off");
	} else if (k->unit && *k->unit) {
		snprintf(extra, elen, "%s", k->unit);
	}
}
