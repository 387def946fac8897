/*
 * Unit tests of the explorer's curses-free parts: the layout over many
 * terminal sizes, the key table (no clashes; the man page's KEYS section
 * generated from it), parameter stepping and typed values, histogram
 * binning, colour choice and glyphs, and the model thread's hand-off
 * (latest result wins, stale runs stop).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bgcall.h"
#include "draw.h"
#include "fit.h"
#include "hist.h"
#include "info.h"
#include "input.h"
#include "keys.h"
#include "layout.h"
#include "msg.h"
#include "params.h"
#include "mix.h"
#include "rprof.h"
#include "level.h"
#include "theme.h"
#include "typed.h"
#include "views/view.h"
#include "worker.h"

/* ------------------------------------------------------------ layout */

static int inside(const rect *r, int rows, int cols)
{
	return r->y >= 1 && r->x >= 0 && r->h > 0 && r->w > 0 && r->y + r->h <= rows - 1 &&
	       r->x + r->w <= cols;
}

static int overlap(const rect *a, const rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/* Counts shortened for the screen: k, M, then G and T past 10^10 (gemm at
 * D = 4096 has 2.7 x 10^11 accesses: "275G", not "274911M"). */
static void test_fmt_count(void **state)
{
	(void)state;
	static const struct {
		uint64_t v;
		const char *want;
	} t[] = {{9999, "9999"}, {12345, "12.3k"}, {123456, "123k"}, {1234567, "1.2M"},
		 {123456789, "123M"}, {9999999999ull, "10000M"}, {274911461376ull, "275G"},
		 {12345678901234ull, "12T"}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char b[32];
		draw_fmt_count(t[i].v, b, sizeof b);
		assert_string_equal(b, t[i].want);
	}
}

static void test_layout_sizes(void **state)
{
	(void)state;
	int want = (int)param_nfields + 3;
	for (int rows = 0; rows <= 120; rows++) {
		for (int cols = 0; cols <= 300; cols++) {
			layout l;
			layout_compute(rows, cols, want, &l);
			int wide = cols >= LAYOUT_WIDE_COLS && rows >= LAYOUT_WIDE_ROWS;
			int stack = cols >= LAYOUT_STACK_COLS && rows >= LAYOUT_STACK_ROWS;
			assert_int_equal(l.too_small, !(wide || stack));
			if (l.too_small)
				continue;
			assert_int_equal(l.stacked, !wide);
			const rect *p[3] = {&l.params, &l.bars, &l.hist};
			long area = 0;
			for (int i = 0; i < 3; i++) {
				assert_true(inside(p[i], rows, cols));
				area += (long)p[i]->h * p[i]->w;
				for (int j = i + 1; j < 3; j++)
					assert_false(overlap(p[i], p[j]));
			}
			/* The panes tile the body between title and status. */
			assert_int_equal(area, (long)(rows - 2) * cols);
			/* The teaching views: the heat map and curves take the bars
			 * and histogram together, the step-through the whole body. */
			assert_int_equal(l.side.h, l.bars.h + l.hist.h);
			assert_int_equal(l.side.y, l.bars.y);
			assert_int_equal(l.side.x, l.bars.x);
			assert_int_equal(l.side.w, l.bars.w);
			assert_int_equal(l.hist.y + l.hist.h, l.side.y + l.side.h);
			assert_true(l.body.y == 1 && l.body.h == rows - 2 && l.body.w == cols);
			assert_int_equal(l.title.y, 0);
			assert_int_equal(l.title.w, cols);
			assert_int_equal(l.status.y, rows - 1);
			/* Minimum sizes the panes draw in. */
			assert_int_equal(l.bars.h, LAYOUT_BARS_H);
			assert_true(l.hist.h >= LAYOUT_HIST_MIN_H);
			assert_true(l.params.h >= LAYOUT_PARAMS_MIN_H);
			assert_true(l.params.w >= 40);
			assert_true(l.bars.w >= 36 && l.hist.w >= 36);
			if (l.stacked)
				assert_true(l.params.h <= want);
		}
	}
}

static void test_layout_monotonic(void **state)
{
	(void)state;
	/* A terminal that fits still fits when it grows. */
	for (int rows = 0; rows < 80; rows++)
		for (int cols = 0; cols < 200; cols++) {
			layout a, b, c;
			layout_compute(rows, cols, 20, &a);
			layout_compute(rows + 1, cols, 20, &b);
			layout_compute(rows, cols + 1, 20, &c);
			if (!a.too_small)
				assert_true(!b.too_small && !c.too_small);
		}
}

/* ------------------------------------------------------------ keys */

static void test_keys_no_clash(void **state)
{
	(void)state;
	for (int i = 0; i < K_NKEYS; i++) {
		const ui_key *a = &ui_keys[i];
		assert_int_equal(a->id, i);
		assert_true(a->names[0] && a->help[0]);
		assert_true(a->codes[0] != 0);
		for (int ci = 0; ci < 4 && a->codes[ci]; ci++) {
			/* The lookup finds this key for each of its codes... */
			assert_ptr_equal(keys_lookup(a->scope, a->codes[ci]), a);
			for (int j = 0; j < K_NKEYS; j++) {
				const ui_key *b = &ui_keys[j];
				if (j == i)
					continue;
				for (int cj = 0; cj < 4 && b->codes[cj]; cj++) {
					if (b->codes[cj] != a->codes[ci])
						continue;
					/* ...no other key of its scope has the code, and a
					 * pane key never hides a global one. */
					assert_int_not_equal(a->scope, b->scope);
					if (a->scope == KS_GLOBAL)
						assert_true(b->scope == KS_PROMPT || b->scope == KS_HELP);
				}
			}
		}
	}
	/* Every printable key code is documented among the key's names. */
	for (int i = 0; i < K_NKEYS; i++)
		for (int ci = 0; ci < 4 && ui_keys[i].codes[ci]; ci++) {
			int ch = ui_keys[i].codes[ci];
			if (ch <= ' ' || ch >= 127)
				continue;
			char tok[4] = {' ', (char)ch, ' ', 0}, names[80];
			snprintf(names, sizeof names, " %s ", ui_keys[i].names);
			if (!strstr(names, tok))
				fail_msg("key '%c' of '%s' is not among its names", ch, ui_keys[i].names);
		}
	/* Global keys work from either pane; prompts and help take their own. */
	assert_int_equal(keys_lookup(KS_PARAMS, 'q')->id, K_QUIT);
	assert_int_equal(keys_lookup(KS_HIST, '?')->id, K_HELP);
	assert_null(keys_lookup(KS_PROMPT, 'q'));
	assert_null(keys_lookup(KS_HELP, 'q'));
	assert_int_equal(keys_lookup(KS_PARAMS, '+')->id, K_INC);
	/* The step-through's keys, and the global ones from there. */
	assert_int_equal(keys_lookup(KS_STEP, ui_keys[K_INC].codes[0])->id, K_STEP_NEXT);
	assert_int_equal(keys_lookup(KS_STEP, 'n')->id, K_NEXT_TABLE);
	assert_int_equal(keys_lookup(KS_STEP, 's')->id, K_STEPS);
	assert_int_equal(keys_lookup(KS_PARAMS, ui_keys[K_STEP_NEXT].codes[0])->id, K_INC);
	assert_int_equal(keys_lookup(KS_HIST, '+')->id, K_SCROLL_R);
}

typedef struct help_seen {
	int keys, headings;
	char all[65536]; /* (the help with the views: about 30 KB) */
} help_seen;

static void help_line(void *ctx, const char *key, const char *text)
{
	help_seen *h = ctx;
	if (key)
		h->keys++;
	else if (*text)
		h->headings++;
	size_t n = strlen(h->all), t = strlen(text);
	assert_true(n + t + 2 <= sizeof h->all); /* all of it, or the test says so */
	memcpy(h->all + n, text, t);
	strcpy(h->all + n + t, "\n");
}

static void test_keys_help(void **state)
{
	(void)state;
	help_seen h = {0};
	keys_help(help_line, &h);
	assert_int_equal(h.keys, K_NKEYS);
	assert_int_equal(h.headings, KS_NSCOPE);
	for (int i = 0; i < K_NKEYS; i++)
		assert_non_null(strstr(h.all, ui_keys[i].help));
	char names[64];
	keys_names(&ui_keys[K_DEC], names, sizeof names);
	assert_string_equal(names, "Left, -, h");
}

/* The list of views (issue 35): one table, views/table.c, feeds the help
 * screen and the man page; every view has a name and a line on it. */
typedef struct view_lines {
	const char *key[64], *text[64];
	int n;       /* lines of the views' list seen */
	int in_list; /* 1 after VIEWS_HEADING until the next blank line, 2 after */
	int headings;
} view_lines;

static void view_line(void *ctx, const char *key, const char *text)
{
	view_lines *v = ctx;
	if (!key && *text)
		v->headings++;
	if (!key && strcmp(text, VIEWS_HEADING) == 0) {
		assert_int_equal(v->in_list, 0); /* one list */
		v->in_list = 1;
		return;
	}
	if (v->in_list == 1 && !key) {
		v->in_list = 2;
		return;
	}
	if (v->in_list == 1 && v->n < 64) {
		v->key[v->n] = key;
		v->text[v->n] = text;
	}
	v->n += v->in_list == 1;
}

/* The help screen's lines of views are the table's, in its order, and
 * nothing else; the keys are all there besides. */
static void assert_help_lists(const view_ops *const *table, int n)
{
	view_lines v = {0};
	views_help(table, view_line, &v);
	assert_int_equal(v.in_list, 2);
	assert_int_equal(v.headings, KS_NSCOPE + 1);
	assert_int_equal(v.n, n);
	for (int i = 0; i < n; i++) {
		assert_string_equal(v.key[i], table[i]->name);
		assert_string_equal(v.text[i], table[i]->desc);
	}
	help_seen h = {0};
	views_help(table, help_line, &h);
	assert_int_equal(h.keys, K_NKEYS + n);
}

static void test_views_table(void **state)
{
	(void)state;
	int n = 0;
	while (view_table[n])
		n++;
	assert_int_equal(n, V_NVIEWS + 1); /* V_PANES .. V_TEACH */
	for (int i = 0; i < n; i++) {
		const view_ops *v = view_table[i];
		if (!v->name || !*v->name || !v->desc || !*v->desc)
			fail_msg("view %d (%s) has no name or no description", i,
				 v->name ? v->name : "?");
		assert_null(strchr(v->desc, '\n'));
		assert_true(v->desc[strlen(v->desc) - 1] != '.'); /* the man page adds it */
		assert_true(strlen(v->name) < 22); /* the help's key column */
		for (int j = 0; j < i; j++)
			assert_string_not_equal(v->name, view_table[j]->name);
	}
	assert_help_lists(view_table, n);
	/* the list follows the table handed over, whatever it holds */
	const view_ops a = {.name = "alpha", .desc = "the first"}, b = {.name = "beta", .desc = "the second"};
	const view_ops *const two[] = {&b, &a, NULL};
	assert_help_lists(two, 2);
}

static void test_views_man(void **state)
{
	(void)state;
	char *sec = views_man_section();
	assert_non_null(sec);
	assert_memory_equal(sec, ".SH VIEWS\n", 10);
	int tp = 0;
	for (const char *p = sec; (p = strstr(p, ".TP\n")); p++)
		tp++;
	assert_int_equal(tp, V_NVIEWS + 1);
	assert_non_null(strstr(sec, "\\fBstep\\-through\\fR\n"));
	assert_non_null(strstr(sec, "\\fBheat map\\fR\nPer\\-set heat map"));
	/* a page without the section gets it before KEYS; again: the same */
	const char *page = ".TH X 1\n.SH NAME\nx\n.SH KEYS\nk\n.SH END\n";
	char *a = views_man_update(page);
	assert_non_null(a);
	assert_non_null(strstr(a, sec));
	assert_true(strstr(a, ".SH VIEWS") < strstr(a, ".SH KEYS\nk\n"));
	char *b = views_man_update(a);
	assert_string_equal(a, b);
	/* an old section is replaced, what follows kept */
	char *c = views_man_update(".SH VIEWS\nold\n.SH KEYS\nk\n");
	assert_non_null(c);
	assert_null(strstr(c, "old"));
	assert_non_null(strstr(c, ".SH KEYS\nk\n"));
	assert_null(views_man_update(".SH NAME\nx\n.SH KEYS OF THE MODEL\n"));
	free(sec);
	free(a);
	free(b);
	free(c);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

/* The man page documents exactly the key table: `make man-keys` fixes it. */
static void test_keys_man_page(void **state)
{
	(void)state;
	char *man = read_all("man/rdscope.1");
	assert_non_null(man);
	char *upd = keys_man_update(man);
	assert_non_null(upd);
	if (strcmp(man, upd) != 0)
		fail_msg("man/rdscope.1: the KEYS section differs from the key table in "
			 "ui/keys.h; run 'make man-keys'");
	/* Every key name and help text is in the section. */
	char *sec = keys_man_section();
	for (int i = 0; i < K_NKEYS; i++)
		assert_non_null(strstr(sec, ui_keys[i].help + 1));
	assert_non_null(strstr(sec, ".SH KEYS\n"));
	assert_non_null(strstr(sec, "\\fBLeft\\fR, \\fB\\-\\fR, \\fBh\\fR"));
	free(sec);
	free(upd);
	free(man);
}

/* The man page's VIEWS section is the view table's once the page has one
 * (man_gen writes it: views_man_update). */
static void test_views_man_page(void **state)
{
	(void)state;
	char *man = read_all("man/rdscope.1");
	assert_non_null(man);
	if (strstr(man, "\n.SH VIEWS\n")) {
		char *upd = views_man_update(man);
		assert_non_null(upd);
		if (strcmp(man, upd) != 0)
			fail_msg("man/rdscope.1: the VIEWS section differs from the view table in "
				 "ui/views/table.c; run 'make man-gen'");
		free(upd);
	}
	free(man);
}

static void test_keys_man_update(void **state)
{
	(void)state;
	const char *page = ".TH X 1\n.SH NAME\nx\n.SH KEYS\nold stuff\n.TP\nold\n.SH FILES\nf\n";
	char *a = keys_man_update(page);
	assert_non_null(a);
	assert_non_null(strstr(a, ".SH NAME\nx\n.SH KEYS\n"));
	assert_null(strstr(a, "old stuff"));
	assert_non_null(strstr(a, "\n.SH FILES\nf\n"));
	/* Idempotent, and a page without the section is refused. */
	char *b = keys_man_update(a);
	assert_string_equal(a, b);
	assert_null(keys_man_update(".SH NAME\nx\n.SH KEYS OF THE MODEL\n"));
	/* A section right after KEYS survives. */
	char *c = keys_man_update(".SH KEYS\n.SH KEYS OF THE MODEL\nk\n.SH END\n");
	assert_non_null(c);
	assert_non_null(strstr(c, "\n.SH KEYS OF THE MODEL\nk\n.SH END\n"));
	free(c);
	free(a);
	free(b);
}

/* ------------------------------------------------------------ params */

/* The DRAM's rows, in both levels' panes: its heading and 11 keys. */
#define DRAM_ROWS 12

static size_t field(const char *key)
{
	for (size_t i = 0; i < param_nfields; i++)
		if (param_fields[i].key && strcmp(param_fields[i].key, key) == 0)
			return i;
	fail_msg("no field %s", key);
	return 0;
}

static char *get(const rd_config *c, const char *key)
{
	static char buf[64];
	rd_config_get(c, key, buf, sizeof buf);
	return buf;
}

/* Step key n times in dir; the values visited, space-separated. */
static const char *steps(rd_config *c, const char *key, int dir, int n)
{
	static char out[512];
	out[0] = '\0';
	char msg[256];
	for (int i = 0; i < n; i++) {
		if (param_step(c, field(key), dir, msg, sizeof msg) < 0) {
			strcat(out, *out ? " !" : "!");
			break;
		}
		if (*out)
			strcat(out, " ");
		strcat(out, get(c, key));
	}
	return out;
}

/* l1.stores and l1.loads cycle with Left/Right; the one refused pair
 * (loads=bypass with stores=allocate) is no dead end: stepping stores
 * passes allocate over, stepping loads to bypass makes the stores
 * write-evict; each says so. */
static void test_params_stores_loads(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	char msg[256], note[256];
	int uh = -1;
	assert_string_equal(steps(&c, "l1.stores", 1, 3), "evict allocate ignore");
	assert_string_equal(steps(&c, "l1.loads", 1, 2), "bypass cache");
	/* stores=evict, loads=bypass: allocate is passed over. */
	c.stores = RD_STORES_EVICT;
	c.loads = RD_LOADS_BYPASS;
	assert_int_equal(param_step_auto(&c, field("l1.stores"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.stores, RD_STORES_IGNORE);
	assert_non_null(strstr(note, "l1.stores: allocate skipped, l1.loads=bypass refuses it"));
	assert_int_equal(param_step_auto(&c, field("l1.stores"), -1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.stores, RD_STORES_EVICT); /* ignore <- allocate skipped, backwards */
	assert_non_null(strstr(note, "allocate skipped"));
	assert_int_equal(param_step_auto(&c, field("l1.stores"), -1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.stores, RD_STORES_IGNORE);
	assert_string_equal(note, "");
	/* stores=allocate, loads cache -> bypass: the stores turn evict. */
	c.stores = RD_STORES_ALLOCATE;
	c.loads = RD_LOADS_CACHE;
	assert_int_equal(param_step_auto(&c, field("l1.loads"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.loads, RD_LOADS_BYPASS);
	assert_int_equal(c.stores, RD_STORES_EVICT);
	assert_non_null(strstr(note, "l1.stores allocate -> evict"));
	assert_int_equal(rd_config_check(&c, msg, sizeof msg), 0);
	/* Typed, the same. */
	c.stores = RD_STORES_ALLOCATE;
	c.loads = RD_LOADS_CACHE;
	assert_int_equal(param_set_text_auto(&c, field("l1.loads"), "bypass", &uh, msg, sizeof msg,
					     note, sizeof note), 0);
	assert_int_equal(c.stores, RD_STORES_EVICT);
	/* The plain step (no note to say it with) refuses instead. */
	c.stores = RD_STORES_ALLOCATE;
	c.loads = RD_LOADS_CACHE;
	assert_int_equal(param_step(&c, field("l1.loads"), 1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "l1.stores=allocate"));
	assert_int_equal(c.loads, RD_LOADS_CACHE);
	/* The reference-2013 profile ignores stores: nothing else to choose. */
	rd_config_default(&c);
	c.model = RD_PROFILE_REF2013;
	assert_int_equal(param_step_auto(&c, field("l1.stores"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), -1);
	assert_non_null(strstr(msg, "reference-2013 profile ignores stores"));
}

/* Issue 16: in the explorer a geometry step the hash cannot take is
 * applied and the hash switches (and back, only when switched so). */
static void test_params_never_dead_end(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c); /* fermi, 16 KB, 4 ways, 128-byte lines: 32 sets */
	char msg[256], note[256];
	int uh = -1;
	/* 4 -> 8 ways: 16 sets, fermi cannot: xor, said so. */
	assert_int_equal(param_step_auto(&c, field("l1.ways"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_ways, 8);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	assert_int_equal(uh, RD_HASH_FERMI);
	assert_non_null(strstr(note, "l1.hash fermi -> xor"));
	assert_string_equal(note, "l1.hash fermi -> xor: fermi takes 32 or 64 sets, not 16 (u undoes both)");
	/* 8 -> 4 ways (6 gives no whole sets): 32 sets, fermi again. */
	assert_int_equal(param_step_auto(&c, field("l1.ways"), -1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_ways, 4);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	assert_int_equal(uh, -1);
	assert_non_null(strstr(note, "fermi again"));
	/* Size and line size likewise. */
	assert_int_equal(param_step_auto(&c, field("l1.size"), -1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_size, 8192);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	assert_int_equal(param_step_auto(&c, field("l1.size"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_size, 16384);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	assert_int_equal(param_step_auto(&c, field("l1.line"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_line, 256);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	/* Nothing changes while the geometry stays impossible for fermi. */
	assert_int_equal(param_step_auto(&c, field("l1.line"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_line, 512);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	assert_string_equal(note, "");
	/* Only a hash switched automatically goes back: the user's own xor
	 * stays xor at 32 sets. */
	rd_config_default(&c);
	c.l1_hash = RD_HASH_XOR;
	uh = -1;
	assert_int_equal(param_step_auto(&c, field("l1.ways"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(param_step_auto(&c, field("l1.ways"), -1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_ways, 4);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	/* xor with a set count that is no power of two: mod; typed values too. */
	assert_int_equal(param_set_text_auto(&c, field("l1.size"), "12K", &uh, msg, sizeof msg, note,
					     sizeof note), 0);
	assert_int_equal(c.l1_hash, RD_HASH_MOD);
	assert_int_equal(uh, RD_HASH_XOR);
	assert_non_null(strstr(note, "xor -> mod"));
	assert_int_equal(param_set_text_auto(&c, field("l1.size"), "16K", &uh, msg, sizeof msg, note,
					     sizeof note), 0);
	assert_int_equal(c.l1_hash, RD_HASH_XOR);
	/* A geometry no hash can take is still refused, untouched. */
	rd_config_default(&c);
	uh = -1;
	assert_int_equal(param_set_text_auto(&c, field("l1.ways"), "5", &uh, msg, sizeof msg, note,
					     sizeof note), -1);
	assert_int_equal(c.l1_ways, 4);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	assert_string_equal(note, "");
	/* Other keys never switch the hash. */
	assert_int_equal(param_step_auto(&c, field("l1.mshrs"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	assert_string_equal(note, "");
}

static void test_params_fields(void **state)
{
	(void)state;
	/* The fields the issue lists are all there and known to the model. */
	static const char *const need[] = {"l1.size", "l1.ways", "l1.line", "l1.mshrs",
		"l1.mshr_per_warp", "l1.hash", "gpu.block_mapping", "latency.hit", "latency.miss",
		"latency.stddev", "gpu.warp_size", "gpu.cores"};
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		assert_true(param_editable(field(need[i])));
	int derived = 0, headings = 0;
	for (size_t i = 0; i < param_nfields; i++) {
		if (param_fields[i].key)
			assert_non_null(rd_key_find(param_fields[i].key));
		else if (param_heading(i))
			headings++, assert_false(param_editable(i));
		else
			derived++, assert_false(param_editable(i));
	}
	assert_int_equal(derived, 2); /* the L1's sets, the L2's sets per bank */
	/* the L2, RDGC's L1, the mechanisms, today's L1s, DRAM, threads, spaces */
	assert_int_equal(headings, 7);
	/* One row per key (issue 35): every key of the model's table has its
	 * row, with its own name as the label; a key added without one fails
	 * here. */
	for (size_t i = 0; i < rd_key_count(); i++) {
		size_t f = field(rd_keys[i].name);
		assert_string_equal(param_label(f), rd_keys[i].name);
		assert_string_equal(param_help(f), rd_keys[i].help);
	}
	/* the rows of the threads and the spaces step as the others */
	rd_config c;
	rd_config_default(&c);
	assert_string_equal(steps(&c, "gpu.sample_cores", 1, 3), "1 2 4");
	assert_string_equal(steps(&c, "gpu.max_threads", 1, 2), "1 2");
	assert_string_equal(steps(&c, "gpu.max_active_threads", 1, 1), "2048");
	assert_string_equal(steps(&c, "gpu.max_active_threads", -1, 2), "1024 512");
	assert_string_equal(steps(&c, "tex.size", 1, 2), "16384 32768");
	assert_string_equal(steps(&c, "smem.latency", 1, 3), "1 2 5");
	assert_string_equal(steps(&c, "tex.ways", 1, 2), "8 16");
	/* off (0) up to the smallest value the key takes, not 1 */
	rd_config_default(&c);
	assert_int_equal(rd_config_set(&c, "l2.size", "1048576", NULL, 0), 0);
	assert_int_equal(rd_config_set(&c, "l2.sector", "32", NULL, 0), 0);
	assert_string_equal(steps(&c, "l2.fetch", 1, 2), "32 64");
	assert_string_equal(steps(&c, "l2.fetch", -1, 2), "32 0");
	/* every group has rows, and its heading its title */
	for (size_t i = 0; i < param_nfields; i++)
		if (param_heading(i))
			assert_string_equal(param_label(i), param_groups[param_fields[i].group].title);
	/* Issue 18: every L2 key and the L1's parallelism keys have a row. */
	static const char *const l2[] = {"l2.size", "l2.line", "l2.ways", "l2.hash",
		"l2.replacement", "l2.stores", "l2.partitions", "l2.banks", "l2.ports",
		"l2.interleave", "l2.mshrs", "l2.mshr_sets", "l2.max_merges", "latency.l2",
		"l1.banks", "l1.ports", "l1.mshr_sets", "l1.max_merges", "gpu.schedulers",
		"latency.model", "latency.k1", "latency.k2"};
	for (size_t i = 0; i < sizeof l2 / sizeof l2[0]; i++)
		assert_true(param_editable(field(l2[i])));
	/* The paper's rows keep their places (the screens' first rows). */
	assert_int_equal(field("l1.size"), 0);
	assert_int_equal(field("l1.loads"), 20);
	assert_true(param_heading(21));
	assert_int_equal(field("l2.size"), 22);
}

/* Issue 18: the L2's and RDGC's rows step without dead ends: l2.size from
 * 0 (no L2) to the smallest whole L2 and back, the rows dimmed while they
 * do not apply, a model the other keys refuse taken with them reset. */
static void test_params_l2(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	char msg[512], note[256], why[64];
	int uh = -1;
	assert_int_equal(c.l2_size, 0);
	assert_false(param_applies(&c, field("l2.banks"), why, sizeof why));
	assert_string_equal(why, "(l2.size 0: off)");
	assert_true(param_applies(&c, field("l2.size"), why, sizeof why));
	assert_false(param_applies(&c, field("l1.banks"), why, sizeof why));
	assert_string_equal(why, "(model=rdgc)");
	/* 128-byte lines x 8 ways: 1 KiB is the smallest whole L2. */
	assert_string_equal(steps(&c, "l2.size", 1, 2), "1024 2048");
	assert_true(param_applies(&c, field("l2.banks"), why, sizeof why));
	assert_string_equal(steps(&c, "l2.size", -1, 3), "1024 0 !");
	/* Banks need whole sets per bank: 1 KiB has one set, so no split. */
	c.l2_size = 64 * 1024;
	assert_string_equal(steps(&c, "l2.banks", 1, 3), "2 4 8");
	assert_string_equal(steps(&c, "l2.banks", -1, 4), "4 2 1 !");
	char v[64], e[64];
	param_format(&c, field("l2.size") + 3, v, sizeof v, e, sizeof e);
	assert_string_equal(v, "64"); /* 64 KiB / (128 x 8 x 1 x 1) */
	assert_string_equal(e, "x 1 bank");
	param_format(&c, field("l2.size"), v, sizeof v, e, sizeof e);
	assert_string_equal(e, "B = 64 KiB");
	param_format(&c, field("l2.interleave"), v, sizeof v, e, sizeof e);
	assert_string_equal(e, "= l2.line");
	param_format(&c, field("l2.ports"), v, sizeof v, e, sizeof e);
	assert_string_equal(e, "unlimited");
	assert_string_equal(steps(&c, "l2.ports", -1, 2), "1024 512");
	assert_string_equal(steps(&c, "l2.interleave", 1, 1), "128");
	assert_string_equal(steps(&c, "l2.interleave", -1, 1), "0");
	/* The L1's parallelism under the paper profile: refused, saying why. */
	assert_int_equal(param_step(&c, field("l1.banks"), 1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "need model=rdgc"));
	/* Under rdgc they step; the adaptive latency's constants halve. */
	assert_int_equal(param_set_text(&c, field("model"), "rdgc", msg, sizeof msg), 0);
	assert_true(param_applies(&c, field("l1.banks"), why, sizeof why));
	assert_string_equal(steps(&c, "l1.banks", 1, 1), "2");
	assert_string_equal(steps(&c, "latency.k2", 1, 2), "0.5 1");
	assert_string_equal(steps(&c, "latency.k2", -1, 3), "0.5 0.25 0.125");
	/* rdgc -> paper with two banks: the paper takes one, reset and said. */
	assert_int_equal(param_step(&c, field("model"), 1, msg, sizeof msg), -1);
	assert_int_equal(param_step_auto(&c, field("model"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.model, RD_PROFILE_PAPER);
	assert_int_equal(c.l1_banks, 1);
	assert_non_null(strstr(note, "model rdgc -> paper takes l1.banks 2 -> 1"));
	assert_int_equal(rd_config_check(&c, msg, sizeof msg), 0);
	/* paper -> reference-2013 with an L2: the L2 goes. */
	assert_int_equal(param_step_auto(&c, field("model"), 1, &uh, msg, sizeof msg, note,
					 sizeof note), 0);
	assert_int_equal(c.model, RD_PROFILE_REF2013);
	assert_int_equal(c.l2_size, 0);
	assert_non_null(strstr(note, "l2.size 65536 -> 0"));
	assert_false(param_applies(&c, field("l2.size"), why, sizeof why));
	/* Typed the same way. */
	rd_config_default(&c);
	c.latency_stddev = 10;
	assert_int_equal(param_set_text_auto(&c, field("model"), "rdgc", &uh, msg, sizeof msg,
					     note, sizeof note), 0);
	assert_int_equal(c.model, RD_PROFILE_RDGC);
	assert_true(c.latency_stddev == 0);
	assert_non_null(strstr(note, "latency.stddev 10 -> 0"));
	/* The pane's rows per level: the paper's 21 for the L1 (the
	 * mechanisms after them under model=paper, RDGC's under model=rdgc),
	 * the L2's own for the L2, l2.size first. */
	size_t vis[PARAM_ROWS_MAX];
	rd_config_default(&c);
	size_t n = param_visible(&c, 1, vis, PARAM_ROWS_MAX);
	/* (after DRAM: the threads' 3 rows and the spaces' 10, each group
	 * with its heading) */
	assert_int_equal(n, 21 + 1 + 3 + 1 + 3 + DRAM_ROWS + 1 + 3 + 1 + 10);
	assert_int_equal(vis[n - 1], field("smem.latency"));
	assert_int_equal(vis[21 + 1 + 3 + 1 + 3 + DRAM_ROWS + 1], field("gpu.max_threads"));
	assert_int_equal(vis[20], field("l1.loads"));
	assert_true(param_heading(vis[21]));
	assert_int_equal(vis[22], field("l1.allocate"));
	assert_int_equal(vis[24], field("gpu.scheduler_policy"));
	assert_true(param_heading(vis[25])); /* today's L1s (model=paper) */
	assert_int_equal(vis[26], field("l1.sector"));
	assert_int_equal(vis[28], field("l1.carveout"));
	/* the carve-out steps through the GPU's list, and needs l1.unified */
	rd_config t;
	rd_config_default(&t);
	assert_int_equal(param_step(&t, field("l1.carveout"), 1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "set l1.unified"));
	t.l1_hash = RD_HASH_XOR;
	assert_int_equal(rd_config_set(&t, "l1.unified", "262144", msg, sizeof msg), 0);
	assert_int_equal(param_step(&t, field("l1.carveout"), 1, msg, sizeof msg), 0);
	assert_int_equal(t.l1_carveout, 8192);
	assert_int_equal(t.l1_size, 262144 - 8192);
	assert_int_equal(param_step(&t, field("l1.carveout"), -1, msg, sizeof msg), 0);
	assert_int_equal(param_step(&t, field("l1.carveout"), -1, msg, sizeof msg), -1);
	c.model = RD_PROFILE_RDGC;
	n = param_visible(&c, 1, vis, PARAM_ROWS_MAX);
	assert_int_equal(n, 21 + 1 + 9 + DRAM_ROWS + 1 + 3 + 1 + 10);
	assert_true(param_heading(vis[31]));
	assert_int_equal(vis[32], field("dram.enable"));
	assert_true(param_heading(vis[21]));
	assert_int_equal(vis[22], field("l1.banks"));
	n = param_visible(&c, 2, vis, PARAM_ROWS_MAX);
	assert_int_equal(n, 1 + 17 + DRAM_ROWS);
	assert_true(param_heading(vis[0]));
	assert_int_equal(vis[1], field("l2.size"));
	assert_int_equal(vis[15], field("l2.sector")); /* its sectors (Hopper's) */
	assert_int_equal(vis[16], field("l2.fetch"));
	assert_int_equal(vis[17], field("latency.l2"));
	assert_true(param_heading(vis[18])); /* DRAM, after the L2 (issue 40 item 3) */
	assert_int_equal(vis[19], field("dram.enable"));
	assert_int_equal(vis[n - 1], field("dram.col_mask"));
	for (size_t k = 0; k < n; k++)
		assert_true(param_heading(vis[k]) || !param_fields[vis[k]].key ||
			    !strncmp(param_fields[vis[k]].key, "l2.", 3) ||
			    !strncmp(param_fields[vis[k]].key, "dram.", 5) ||
			    !strcmp(param_fields[vis[k]].key, "latency.l2"));
	/* Headings are neither selectable values nor derived facts. */
	assert_int_equal(param_step(&c, field("l2.size") - 1, 1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "heading"));
}

/* Issue 40 item 3: the DRAM's rows step like the others (its times on the
 * 0 1 2 5 ladder as doubles, dram.ns_per_step by halves, a mask one bit
 * up or down), show their masks in hex with their bits, and the pane's
 * labels are the keys -s takes (item 10: not "mshr_per_warp_cnt"). */
static void test_params_dram(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	char msg[256], val[64], extra[64];
	assert_string_equal(steps(&c, "dram.enable", 1, 1), "1");
	assert_string_equal(steps(&c, "dram.row_hit", 1, 2), "500 1000");
	assert_string_equal(steps(&c, "dram.row_miss", -1, 2), "500 200");
	assert_string_equal(steps(&c, "dram.ns_per_step", 1, 2), "2 4");
	rd_config_default(&c);
	c.dram_enable = 1;
	param_format(&c, field("dram.bank_mask"), val, sizeof val, extra, sizeof extra);
	assert_string_equal(val, "0x1e000");
	assert_string_equal(extra, "bits 13-16");
	param_format(&c, field("dram.col_mask"), val, sizeof val, extra, sizeof extra);
	assert_string_equal(val, "0x7f8");
	assert_string_equal(extra, "bits 3-10");
	/* one bit up: into the row's bit 17, refused; down: into the channel's */
	assert_int_equal(param_step(&c, field("dram.bank_mask"), 1, msg, sizeof msg), -1);
	assert_int_equal(param_step(&c, field("dram.bank_mask"), -1, msg, sizeof msg), -1);
	assert_int_equal(c.dram_bank_mask, 0x1e000);
	c.dram_row_mask <<= 1; /* bit 17 free */
	assert_int_equal(param_step(&c, field("dram.bank_mask"), 1, msg, sizeof msg), 0);
	assert_int_equal(c.dram_bank_mask, 0x3c000);
	assert_int_equal(param_set_text(&c, field("dram.bank_mask"), "0x1e000", msg, sizeof msg),
			 0);
	assert_int_equal(c.dram_bank_mask, 0x1e000);
	c.dram_bank_mask = 0x10000 | 0x2000 | 0x4000;
	param_format(&c, field("dram.bank_mask"), val, sizeof val, extra, sizeof extra);
	assert_string_equal(extra, "bits 13-14,16");
	for (size_t i = 0; i < param_nfields; i++)
		if (param_fields[i].key)
			assert_string_equal(param_label(i), param_fields[i].key);
}

static void test_params_step(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	char msg[256];
	/* Sizes by powers of two; the Fermi hash allows 32 or 64 sets only. */
	assert_string_equal(steps(&c, "l1.size", 1, 3), "32768 !");
	rd_config_default(&c);
	assert_int_equal(param_step(&c, field("l1.size"), -1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "fermi"));
	assert_int_equal(c.l1_size, 16384); /* refused: untouched */
	/* With the mod hash: sizes and ways move freely; ways skip uneven sets. */
	c.l1_hash = RD_HASH_MOD;
	assert_string_equal(steps(&c, "l1.size", 1, 2), "32768 65536");
	assert_string_equal(steps(&c, "l1.size", -1, 3), "32768 16384 8192");
	c.l1_size = 16384;
	assert_string_equal(steps(&c, "l1.ways", 1, 2), "8 16");
	assert_string_equal(steps(&c, "l1.ways", -1, 5), "8 4 2 1 !");
	c.l1_size = 3 * 4096; /* 96 lines: 3-, 6- and 12-way work */
	c.l1_ways = 4;
	assert_string_equal(steps(&c, "l1.ways", 1, 3), "6 8 12");
	rd_config_default(&c);
	c.l1_hash = RD_HASH_MOD;
	assert_string_equal(steps(&c, "l1.line", 1, 2), "256 512");
	/* MSHRs: powers of two, then unlimited at the top. */
	rd_config_default(&c);
	assert_string_equal(steps(&c, "l1.mshrs", 1, 6), "128 256 512 1024 0 !");
	assert_string_equal(steps(&c, "l1.mshrs", -1, 2), "1024 512");
	/* Per warp: at most l1.mshrs, so 64 jumps to unlimited. */
	c.l1_mshrs = 64;
	c.l1_mshr_per_warp = 32;
	assert_string_equal(steps(&c, "l1.mshr_per_warp", 1, 2), "64 0");
	/* Latencies: 1-2-5. */
	assert_string_equal(steps(&c, "latency.miss", 1, 2), "200 500");
	assert_string_equal(steps(&c, "latency.miss", -1, 4), "200 100 50 20");
	assert_string_equal(steps(&c, "latency.hit", -1, 1), "!");
	assert_string_equal(steps(&c, "latency.stddev", 1, 2), "10 20");
	c.latency_stddev = 2.5;
	assert_string_equal(steps(&c, "latency.stddev", -1, 3), "2 1 0");
	assert_string_equal(steps(&c, "gpu.warp_size", 1, 6), "64 128 256 512 1024 !");
	assert_string_equal(steps(&c, "gpu.cores", 1, 2), "2 4");
	/* Choices wrap around; the hash skips what the cache cannot use. */
	rd_config_default(&c);
	assert_string_equal(steps(&c, "l1.hash", 1, 5), "smod:0 prime mod xor fermi");
	assert_string_equal(steps(&c, "gpu.block_mapping", 1, 4), "bpart4 bpart8 random rr");
	assert_string_equal(steps(&c, "latency.clip", 1, 2), "0 1");
	assert_string_equal(steps(&c, "model", -1, 3), "rdgc reference-2013 paper");
	assert_string_equal(steps(&c, "seed", 1, 2), "2 3");
	/* 16 sets: fermi is skipped (paper profile). */
	rd_config_default(&c);
	c.l1_hash = RD_HASH_MOD;
	c.l1_ways = 8;
	assert_string_equal(steps(&c, "l1.hash", 1, 2), "xor smod:0");
	/* The derived row is not editable. */
	assert_int_equal(param_step(&c, field("l1.size") + 3, 1, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "derived"));
}

/* Issue 18: the L2 read as a result by the panes, its rows, the metrics
 * line at every width, the busiest bank. */
static void test_level(void **state)
{
	(void)state;
	rd_result r;
	memset(&r, 0, sizeof r);
	rd_result o;
	level_as_result(&r, &o); /* no L2: nothing */
	assert_int_equal(o.requests, 0);
	assert_null(o.hist);
	uint64_t hist[3] = {5, 0, 2}, breq[6] = {10, 20, 30, 40, 50, 90}, bmiss[6] = {0};
	r.has_l2 = 1;
	r.l2 = (rd_level){.requests = 100, .hits = 40, .misses = 60, .hist = hist, .hist_len = 3,
			  .hist_inf = 53, .partitions = 2, .banks = 3, .bank_requests = breq,
			  .bank_misses = bmiss, .store_requests = 7, .store_hits = 3};
	r.l2.cls[RD_CLASS_COMPULSORY] = 50;
	r.l2.cls[RD_CLASS_LATENCY] = 10;
	level_as_result(&r, &o);
	assert_int_equal(o.requests, 100);
	assert_int_equal(o.hits, 40);
	assert_int_equal(o.cls[RD_CLASS_LATENCY], 10);
	assert_ptr_equal(o.hist, hist);
	assert_int_equal(o.hist_inf, 53);
	assert_int_equal(o.store_hits, 3);
	assert_int_equal(o.sector_lookups, 0);
	r.l2.sector_lookups = 12;
	r.l2.sector_hits = 3;
	level_as_result(&r, &o); /* l2.sector: its reads' sectors, as the L1's */
	assert_int_equal(o.sector_lookups, 12);
	assert_true(rd_result_l1_hit_rate(&o) == 0.25);
	/* as the L1's: without merged (latency) misses, and with */
	assert_true(o.miss_rate > 0.4999 && o.miss_rate < 0.5001);
	assert_true(o.miss_rate_all > 0.5999 && o.miss_rate_all < 0.6001);
	/* read with the L2's ways, policy and stores */
	rd_config c, lc;
	rd_config_default(&c);
	c.l2_size = 65536;
	c.l2_ways = 16;
	c.l2_replacement = RD_REPL_FIFO;
	c.l1_sector = 32; /* the L1's sectors are not the L2's */
	level_config(&c, &lc);
	assert_int_equal(lc.l1_sector, 0);
	c.l2_sector = 32;
	level_config(&c, &lc);
	assert_int_equal(lc.l1_sector, 32);
	c.l1_sector = c.l2_sector = 0;
	level_config(&c, &lc);
	assert_int_equal(lc.l1_ways, 16);
	assert_int_equal(lc.replacement, RD_REPL_FIFO);
	assert_int_equal(lc.stores, RD_STORES_IGNORE); /* no store leaves the L1 */
	c.stores = RD_STORES_EVICT;
	c.l2_stores = RD_STORES_EVICT;
	level_config(&c, &lc);
	assert_int_equal(lc.stores, RD_STORES_EVICT);
	/* the L2's rows: no mshr, no bypass; write_evict under l2.stores=evict */
	assert_true(level_class_shown(&c, 2, RD_CLASS_LATENCY));
	assert_false(level_class_shown(&c, 2, RD_CLASS_MSHR));
	assert_false(level_class_shown(&c, 2, RD_CLASS_BYPASS));
	assert_true(level_class_shown(&c, 2, RD_CLASS_WRITE_EVICT));
	c.l2_stores = RD_STORES_ALLOCATE;
	assert_false(level_class_shown(&c, 2, RD_CLASS_WRITE_EVICT));
	assert_true(level_class_shown(&c, 1, RD_CLASS_MSHR));
	/* the six metrics in one line, shorter as the width shrinks */
	rd_metrics m;
	r.requests = 1000;
	r.hits = 250;
	rd_metrics_of(&r, NULL, &m);
	char buf[256];
	level_metrics_line(&m, L1B_OFF, 200, buf, sizeof buf);
	assert_string_equal(buf, " L1_R_Hit 25.00%  L1_R_Trans 1000  L2_Hit 40.19% (reads 40.00%)  "
				 "L2_Trans 107  L1B: press B");
	level_metrics_line(&m, L1B_RUNNING, 80, buf, sizeof buf);
	assert_string_equal(buf, " L1_R_Hit 25.00% L1_R_Trans 1000 L2_Hit 40.19% L2_Trans 107 L1B ...");
	for (int w = 20; w <= 120; w++) {
		level_metrics_line(&m, L1B_OFF, w, buf, sizeof buf);
		assert_true((int)strlen(buf) <= w);
		assert_non_null(strstr(buf, "25.0"));
	}
	rd_result lb = r;
	lb.l2.hits = 0;
	lb.l2.store_hits = 0;
	rd_metrics_of(&r, &lb, &m);
	level_metrics_line(&m, L1B_DONE, 200, buf, sizeof buf);
	assert_non_null(strstr(buf, "L2_Hit_L1B 0.00%  L2_Trans_L1B 107"));
	/* the busiest bank: partition 1, bank 2 (90 of 240 over 6 banks) */
	uint32_t p, b;
	double im = level_bank_imbalance(&r.l2, &p, &b);
	assert_int_equal(p, 1);
	assert_int_equal(b, 2);
	assert_true(im > 2.2499 && im < 2.2501);
}

static void test_params_typed(void **state)
{
	(void)state;
	rd_config c, before;
	rd_config_default(&c);
	char msg[256];
	assert_int_equal(param_set_text(&c, field("l1.size"), " 32K ", msg, sizeof msg), 0);
	assert_int_equal(c.l1_size, 32768);
	before = c;
	/* Refused with the model's message, the configuration untouched. */
	static const struct { const char *key, *val, *msg; } bad[] = {
		{"l1.ways", "0", "l1.ways: must be >= 1 (got 0)"},
		{"l1.line", "100", "l1.line: must be a power of two (got 100)"},
		{"l1.ways", "5", "l1.size: 32768 bytes is not a whole number of sets of 5 ways x "
				 "128-byte lines"},
		{"l1.hash", "md5", "l1.hash: must be one of mod|xor|fermi|smod:N|prime (got 'md5')"},
		{"latency.stddev", "-1", "latency.stddev: must be >= 0 (got -1)"},
		{"l1.mshr_per_warp", "100", "l1.mshr_per_warp: 100 is more than l1.mshrs (64)"},
		{"gpu.warp_size", "abc",
		 "gpu.warp_size: not an unsigned integer below 2^32 (got 'abc')"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(param_set_text(&c, field(bad[i].key), bad[i].val, msg, sizeof msg),
				 -1);
		assert_string_equal(msg, bad[i].msg);
		assert_memory_equal(&c, &before, sizeof c);
	}
	assert_int_equal(param_set_text(&c, field("l1.hash"), "smod:3", msg, sizeof msg), 0);
	assert_int_equal(c.l1_hash, RD_HASH_SMOD);
	assert_int_equal(c.l1_hash_shift, 3);
}

static void test_params_format(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	char v[64], e[64];
	param_format(&c, field("l1.size"), v, sizeof v, e, sizeof e);
	assert_string_equal(v, "16384");
	assert_string_equal(e, "B = 16 KiB");
	param_format(&c, field("l1.size") + 3, v, sizeof v, e, sizeof e);
	assert_string_equal(v, "32");
	assert_string_equal(e, "idx 5b, off 7b");
	c.l1_mshrs = 0;
	param_format(&c, field("l1.mshrs"), v, sizeof v, e, sizeof e);
	assert_string_equal(e, "unlimited");
	param_format(&c, field("latency.stddev"), v, sizeof v, e, sizeof e);
	assert_string_equal(v, "5");
	assert_string_equal(e, "steps");
	assert_int_equal(param_index_bits(1), 0);
	assert_int_equal(param_index_bits(48), 6);
	assert_int_equal(param_offset_bits(128), 7);
}

/* ------------------------------------------------------------ histogram */

/* The histogram pane's numbers, worked out apart from its drawing
 * (issue 35: draw_hist held both). */
static void test_hist_plan(void **state)
{
	(void)state;
	static hist_plan p; /* (large) */
	rd_config c;
	rd_config_default(&c);
	c.model = RD_PROFILE_PAPER;
	c.l1_ways = 4;
	c.replacement = RD_REPL_LRU;
	c.loads = RD_LOADS_CACHE;
	uint64_t h[3] = {5, 0, 2}, hb[3] = {1, 1, 1};
	rd_result r = {0}, b = {0};
	r.hist = h;
	r.hist_len = 3;
	r.hist_inf = 9; /* 7 cold, 2 in flight */
	r.cls[RD_CLASS_COMPULSORY] = 7;
	/* Linear bins up to the cut-off's (4), 8 columns each on 60. */
	hist_plan_make(&r, NULL, &c, 60, &p);
	assert_int_equal(p.cut, 4);
	assert_int_equal(p.log_bins, 0);
	assert_int_equal(p.nb, 5);
	assert_int_equal(p.colw, 8);
	assert_true(p.val[0] == 5 && p.val[1] == 0 && p.val[2] == 2 && p.val[4] == 0);
	assert_int_equal(p.rc, 7);
	assert_int_equal(p.rf, 2);
	assert_true(p.cold == 7 && p.fly == 2);
	assert_true(p.vmax == 7); /* the cold bar sets the scale */
	assert_int_equal(p.lru, 1);
	assert_int_equal(p.cut_bin, 4);
	assert_int_equal(p.last_first, 0); /* 5 * 8 + 1 columns fit */
	/* Narrow: 2 columns a bin; the last first bin leaves the rest filled. */
	hist_plan_make(&r, NULL, &c, 7, &p);
	assert_int_equal(p.log_bins, 1); /* 5 * 2 + 1 > 7 */
	assert_int_equal(p.colw, 4);
	assert_int_equal(p.last_first, p.nb - 1);
	/* Against a baseline: changes, the scale their largest magnitude. */
	b.hist = hb;
	b.hist_len = 3;
	b.hist_inf = 10;
	b.cls[RD_CLASS_COMPULSORY] = 10;
	hist_plan_make(&r, &b, &c, 60, &p);
	assert_true(p.val[0] == 4 && p.val[1] == -1 && p.val[2] == 1);
	assert_true(p.cold == -3 && p.fly == 2);
	assert_true(p.vmax == 4);
	/* The reference code: a distance equal to the ways hits. */
	c.model = RD_PROFILE_REF2013;
	assert_int_equal(hist_cut(&c), 5);
	/* Another policy: no cut-off column, bins uncoloured. */
	c.model = RD_PROFILE_PAPER;
	c.replacement = RD_REPL_FIFO;
	hist_plan_make(&r, NULL, &c, 60, &p);
	assert_int_equal(p.lru, 0);
	assert_int_equal(p.cut_bin, p.nb);
	/* Long histograms: log2 bins, never more than HIST_PLAN_BINS. */
	c.replacement = RD_REPL_LRU;
	static uint64_t big[5000];
	for (int i = 0; i < 5000; i++)
		big[i] = 1;
	r.hist = big;
	r.hist_len = 5000;
	hist_plan_make(&r, NULL, &c, 40, &p);
	assert_int_equal(p.log_bins, 1);
	assert_true(p.nb <= HIST_PLAN_BINS);
	assert_int_equal(p.bins[3].lo, 4); /* 0, 1, 2-3, then the cut-off */
	assert_int_equal(p.cut_bin, 3);
	int w = 0;
	for (size_t i = p.last_first; i < p.nb; i++)
		w += p.colw + (i == p.cut_bin);
	assert_true(p.last_first > 0 && w <= 40 && w + p.colw > 40);
}

static void test_hist_bins(void **state)
{
	(void)state;
	uint64_t h[20];
	for (int i = 0; i < 20; i++)
		h[i] = (uint64_t)i + 1;
	hist_bin b[64];
	/* Linear: one bin per distance, cut-off 4. */
	size_t n = hist_bin_make(h, 10, 0, 4, 0, b, 64);
	assert_int_equal(n, 10);
	assert_int_equal(b[3].lo, 3);
	assert_int_equal(b[3].count, 4);
	assert_false(b[3].miss);
	assert_true(b[4].miss);
	/* Log bins: 0, 1, 2-3, 4-7, 8-15, 16-19. */
	n = hist_bin_make(h, 20, 0, 4, 1, b, 64);
	assert_int_equal(n, 6);
	assert_int_equal(b[2].lo, 2);
	assert_int_equal(b[2].hi, 3);
	assert_int_equal(b[2].count, 3 + 4);
	assert_int_equal(b[5].lo, 16);
	assert_int_equal(b[5].hi, 19);
	/* The cut-off is always a bin edge: ways 6 splits 4-7. */
	n = hist_bin_make(h, 20, 0, 6, 1, b, 64);
	assert_int_equal(b[3].lo, 4);
	assert_int_equal(b[3].hi, 5);
	assert_false(b[3].miss);
	assert_int_equal(b[4].lo, 6);
	assert_int_equal(b[4].hi, 7);
	assert_true(b[4].miss);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	assert_int_equal(total, 20 * 21 / 2);
	/* Bins reach the cut-off (and a span) past the histogram's end. */
	n = hist_bin_make(h, 2, 0, 8, 0, b, 64);
	assert_int_equal(n, 9);
	assert_int_equal(b[8].count, 0);
	assert_true(b[8].miss);
	n = hist_bin_make(h, 2, 30, 1, 1, b, 64);
	assert_int_equal(b[n - 1].hi, 29);
	assert_int_equal(hist_range(h, 20, 18, 100), 19 + 20);
	char l[8];
	hist_label(0, l, sizeof l);
	assert_string_equal(l, "0");
	hist_label(512, l, sizeof l);
	assert_string_equal(l, "512");
	hist_label(16384, l, sizeof l);
	assert_string_equal(l, "16k");
	hist_label(1u << 21, l, sizeof l);
	assert_string_equal(l, "2M");
}

/* ------------------------------------------------------------ theme */

static void test_theme(void **state)
{
	(void)state;
	enum color_mode m;
	assert_int_equal(theme_parse_mode("never", &m), 0);
	assert_int_equal(m, COLOR_NEVER);
	assert_int_equal(theme_parse_mode("sometimes", &m), -1);
	/* NO_COLOR (non-empty) turns auto off; always wins over it. */
	assert_true(theme_use_color(COLOR_AUTO, NULL, 1));
	assert_true(theme_use_color(COLOR_AUTO, "", 1));
	assert_false(theme_use_color(COLOR_AUTO, "1", 1));
	assert_true(theme_use_color(COLOR_ALWAYS, "1", 1));
	assert_false(theme_use_color(COLOR_ALWAYS, NULL, 0));
	assert_false(theme_use_color(COLOR_NEVER, NULL, 1));
	/* Monochrome: every class (and the hits) has a glyph of its own. */
	for (int utf8 = 0; utf8 < 2; utf8++) {
		const glyphs *g = theme_glyphs(0, utf8);
		for (int i = 0; i < RD_NCLASS; i++) {
			assert_string_not_equal(g->cls[i], g->hit);
			for (int j = i + 1; j < RD_NCLASS; j++)
				assert_string_not_equal(g->cls[i], g->cls[j]);
		}
	}
	/* ASCII sets are ASCII. */
	for (int color = 0; color < 2; color++) {
		const glyphs *g = theme_glyphs(color, 0);
		const char *all[] = {g->hit, g->vline, g->hline, g->tl, g->cut, g->sel, g->sep,
				     g->delta, g->inf, g->more_l, g->more_r, g->eighths[8]};
		for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
			for (const char *p = all[i]; *p; p++)
				assert_true((unsigned char)*p < 128);
	}
}

/* ------------------------------------------------------------ worker */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Wait (poll on the pipe) for a result of gen, of the given kind (< 0:
 * any), final or not; others are dropped. NULL after timeout. */
static snap *wait_kind_for(worker *w, int kind, unsigned long gen, int final, double timeout)
{
	double end = now_s() + timeout;
	while (now_s() < end) {
		struct pollfd pf = {worker_fd(w), POLLIN, 0};
		poll(&pf, 1, 50);
		snap *s = worker_take(w, NULL, NULL);
		if (s && (kind < 0 || s->kind == kind) && s->gen == gen && (!final || !s->partial))
			return s;
		snap_unref(s);
	}
	return NULL;
}

static snap *wait_for(worker *w, unsigned long gen, int final, double timeout)
{
	return wait_kind_for(w, -1, gen, final, timeout);
}

static void test_worker_latest_wins(void **state)
{
	(void)state;
	rd_kernel *k;
	char err[256];
	assert_int_equal(input_load("builtin:colcopy:64:256", &k, err, sizeof err), INPUT_OK);
	worker *w = worker_start(k, err, sizeof err);
	assert_non_null(w);
	/* A burst of edits: only the last one's result may come back final. */
	rd_config c;
	rd_config_default(&c);
	c.l1_hash = RD_HASH_MOD;
	unsigned long gen;
	for (gen = 1; gen <= 40; gen++) {
		c.l1_ways = gen % 2 ? 2 : 8;
		c.latency_miss = (uint32_t)(50 + gen);
		worker_submit(w, gen, &c, 1);
	}
	gen--;
	snap *s = wait_for(w, gen, 1, 30);
	assert_non_null(s);
	assert_int_equal(s->status, RD_OK);
	assert_int_equal(s->cfg.latency_miss, c.latency_miss);
	/* The same numbers as a run of its own. */
	rd_model *m = rd_model_new(k);
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
	assert_int_equal(s->res.misses, r.misses);
	assert_memory_equal(s->res.cls, r.cls, sizeof r.cls);
	assert_int_equal(s->res.hist_len, r.hist_len);
	assert_memory_equal(s->res.hist, r.hist, r.hist_len * sizeof *r.hist);
	/* Far fewer runs than edits: stale requests were replaced or stopped. */
	assert_true(worker_runs(w) < 2 * gen);
	rd_result_free(&r);
	rd_model_free(m);
	snap_unref(s);

	/* Quick mode: a partial result (as-configured case) first, then final. */
	c.l1_ways = 4;
	worker_submit(w, ++gen, &c, 1);
	snap *p = wait_for(w, gen, 0, 30);
	assert_non_null(p);
	if (p->partial) {
		assert_int_equal(p->res.cases_run, 1 << RD_CASE_FULL);
		snap *f = wait_for(w, gen, 1, 30);
		assert_non_null(f);
		assert_int_equal(f->res.requests, p->res.requests);
		assert_int_equal(f->res.misses, p->res.misses);
		assert_int_equal(f->res.cases_run, RD_ALL_CASES);
		snap_unref(f);
	}
	snap_unref(p);
	worker_stop(w);
	rd_kernel_free(k);
}

/* Speculation: when idle the worker runs the breakdowns it is told the
 * user may ask for next, after everything asked for, and publishes them
 * as JOB_SPEC results equal to runs of their own. */
static void test_worker_speculate(void **state)
{
	(void)state;
	rd_kernel *k;
	char err[256];
	assert_int_equal(input_load("builtin:colcopy:64:256", &k, err, sizeof err), INPUT_OK);
	worker *w = worker_start(k, err, sizeof err);
	assert_non_null(w);
	rd_config a, next[2];
	rd_config_default(&a);
	a.l1_hash = RD_HASH_MOD; /* any set count */
	next[0] = next[1] = a;
	next[0].latency_miss = 150;
	next[1].l1_ways = 8;
	/* asked for in the same breath: the real run's result comes first */
	worker_submit(w, 1, &a, 1);
	worker_speculate(w, 1, next, 2);
	snap *s = wait_for(w, 1, 1, 30);
	assert_non_null(s);
	assert_int_equal(s->kind, JOB_BREAKDOWN);
	snap_unref(s);
	rd_model *m = rd_model_new(k);
	for (int i = 0; i < 2; i++) {
		/* in the order asked for (speculative results queue), and
		 * nothing else in between */
		snap *p = wait_kind_for(w, -1, 1, 0, 30);
		assert_non_null(p);
		assert_int_equal(p->kind, JOB_SPEC);
		assert_int_equal(p->status, RD_OK);
		assert_true(memcmp(&p->cfg, &next[i], sizeof next[i]) == 0);
		rd_result r;
		assert_int_equal(rd_model_run(m, &next[i], RD_ALL_CASES, NULL, &r), RD_OK);
		assert_int_equal(p->res.misses, r.misses);
		assert_memory_equal(p->res.cls, r.cls, sizeof r.cls);
		assert_int_equal(p->res.hist_len, r.hist_len);
		assert_memory_equal(p->res.hist, r.hist, r.hist_len * sizeof *r.hist);
		rd_result_free(&r);
		snap_unref(p);
	}
	assert_int_equal(worker_runs(w), 1);
	assert_int_equal(worker_spec_runs(w), 2);
	/* speculation for a generation that is no longer the newest never runs */
	worker_submit(w, 2, &a, 1);
	worker_speculate(w, 1, next, 2);
	s = wait_kind_for(w, JOB_BREAKDOWN, 2, 1, 30);
	assert_non_null(s);
	snap_unref(s);
	assert_null(wait_kind_for(w, JOB_SPEC, 1, 1, 0.3));
	assert_int_equal(worker_spec_runs(w), 2);
	rd_model_free(m);
	worker_stop(w);
	rd_kernel_free(k);
}

static void test_worker_cancel(void **state)
{
	(void)state;
	rd_kernel *k;
	char err[256];
	/* Big enough that a full run takes many progress chunks. */
	assert_int_equal(input_load("builtin:colcopy:2048:1024", &k, err, sizeof err), INPUT_OK);
	worker *w = worker_start(k, err, sizeof err);
	assert_non_null(w);
	rd_config c;
	rd_config_default(&c);
	worker_submit(w, 1, &c, 0);
	/* Wait until the run is under way (past the stages, reporting). */
	unsigned long pg = 0;
	double prog = 0, end = now_s() + 60;
	while (now_s() < end) {
		struct pollfd pf = {worker_fd(w), POLLIN, 0};
		poll(&pf, 1, 20);
		snap *s = worker_take(w, &pg, &prog);
		assert_null(s);
		if (pg == 1 && prog > 0)
			break;
	}
	assert_true(pg == 1 && prog > 0);
	/* A newer generation (no run wanted) stops it within a few chunks. */
	double t0 = now_s();
	worker_submit(w, 2, NULL, 0);
	while (now_s() - t0 < 30) {
		snap *s = worker_take(w, &pg, &prog);
		assert_null(s); /* the stale run publishes nothing */
		if (pg == 0)
			break;
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	double took = now_s() - t0;
	assert_int_equal(pg, 0);
	/* Milliseconds here; generous for sanitizer builds. */
	if (took > 1.0)
		fail_msg("cancel took %.3f s", took);
	assert_null(worker_take(w, NULL, NULL));
	worker_stop(w);
	rd_kernel_free(k);
}

/* The explorer's safe text (draw_safe, draw_width) is src/util/msg.c's
 * rule: the same '?'s as fputs_safe over random bytes, edge values
 * (controls, C1, broken and overlong sequences, surrogates) weighted up. */
static void test_draw_safe_rule(void **state)
{
	(void)state;
	static const unsigned char edge[] = {0x01, 0x07, 0x1b, 0x1f, 0x20, 'a',  0x7e, 0x7f,
					     0x80, 0x9b, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
					     0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff};
	uint32_t seed = 12345;
	for (int round = 0; round < 20000; round++) {
		unsigned char in[16];
		int n = 1 + round % 15;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 16;
			in[i] = r & 1 ? edge[(r >> 1) % sizeof edge] : (unsigned char)(1 + (r >> 1) % 255);
		}
		in[n] = '\0';
		char want[64], got[64];
		FILE *f = fmemopen(want, sizeof want, "w");
		assert_non_null(f);
		fputs_safe((const char *)in, f);
		fputc('\0', f);
		fclose(f);
		draw_safe(got, sizeof got, (const char *)in);
		if (strcmp(want, got) != 0)
			fail_msg("round %d: fputs_safe '%s', draw_safe '%s'", round, want, got);
		int cps = 0;
		for (const char *p = got; *p; p++)
			cps += (*p & 0xC0) != 0x80;
		assert_int_equal(draw_width((const char *)in), cps);
		assert_int_equal(draw_prefix_bytes((const char *)in, cps), n);
	}
}

static void bg_block(void *arg)
{
	char c;
	ssize_t r = read(*(int *)arg, &c, 1); /* until the test writes */
	(void)r;
}

static void bg_set(void *arg)
{
	*(int *)arg = 42;
}

/* A call off the UI thread: its fd wakes poll when done; a dropped call
 * still blocked is counted until it returns, then frees itself. */
static void test_bgcall(void **state)
{
	(void)state;
	char err[128];
	int *v = calloc(1, sizeof *v);
	assert_non_null(v);
	bgcall *b = bgcall_start(bg_set, v, free, err, sizeof err);
	assert_non_null(b);
	struct pollfd pf = {bgcall_fd(b), POLLIN, 0};
	assert_int_equal(poll(&pf, 1, 10000), 1);
	assert_true(bgcall_done(b));
	assert_int_equal(*(int *)bgcall_arg(b), 42);
	bgcall_drop(b);

	int p[2];
	assert_int_equal(pipe(p), 0);
	b = bgcall_start(bg_block, &p[0], NULL, err, sizeof err);
	assert_non_null(b);
	assert_false(bgcall_done(b));
	bgcall_drop(b); /* the UI gives up on it */
	assert_int_equal(bgcall_running(), 1);
	assert_int_equal(write(p[1], "x", 1), 1);
	double t0 = now_s();
	while (bgcall_running() && now_s() - t0 < 10) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	assert_int_equal(bgcall_running(), 0);
	close(p[0]);
	close(p[1]);
}

/* The infinite distances split into cold (first requests: the compulsory
 * count), removed by a store or bypassed, and in flight (the rest); and
 * every class has its words. */
static void test_info_inf_split(void **state)
{
	(void)state;
	rd_result r = {0};
	uint64_t cold, gone, fly;
	r.hist_inf = 8193;
	r.cls[RD_CLASS_COMPULSORY] = 8192;
	info_inf_split(&r, &cold, &gone, &fly);
	assert_int_equal(cold, 8192);
	assert_int_equal(gone, 0);
	assert_int_equal(fly, 1);
	r.hist_inf = 5; /* never more cold than infinite */
	info_inf_split(&r, &cold, &gone, &fly);
	assert_int_equal(cold, 5);
	assert_int_equal(fly, 0);
	/* A load of a line a store removed, or past the L1, is neither cold
	 * nor a fill in flight: apart. */
	r.hist_inf = 300;
	r.cls[RD_CLASS_COMPULSORY] = 100;
	r.cls[RD_CLASS_WRITE_EVICT] = 50;
	r.cls[RD_CLASS_BYPASS] = 20;
	info_inf_split(&r, &cold, &gone, &fly);
	assert_int_equal(cold, 100);
	assert_int_equal(gone, 70);
	assert_int_equal(fly, 130);
	/* The paper's screens keep their five classes. */
	rd_config c;
	rd_config_default(&c);
	for (int k = 0; k < RD_NCLASS; k++)
		assert_int_equal(info_class_shown(&c, k), k < RD_CLASS_WRITE_EVICT);
	c.stores = RD_STORES_EVICT;
	assert_true(info_class_shown(&c, RD_CLASS_WRITE_EVICT));
	assert_false(info_class_shown(&c, RD_CLASS_BYPASS));
	c.stores = RD_STORES_ALLOCATE;
	assert_false(info_class_shown(&c, RD_CLASS_WRITE_EVICT));
	c.loads = RD_LOADS_BYPASS;
	assert_true(info_class_shown(&c, RD_CLASS_BYPASS));
	for (int i = 0; i <= RD_NCLASS; i++) {
		assert_non_null(class_glosses[i].name);
		assert_non_null(class_glosses[i].gloss);
		assert_non_null(class_glosses[i].text);
		if (i)
			assert_true(strncmp(class_glosses[i].name, rd_class_name((enum rd_class)(i - 1)),
					    strlen(class_glosses[i].name)) == 0);
	}
}


/* ------------------------------------------------------------ typed */

/* Typed address sequences: bare addresses are thread 0's 4-byte loads,
 * THREAD:ADDRESS names the thread, elem=N the load size; every mistake
 * is refused with a message naming the item, never a crash. */
static void test_typed_parse(void **state)
{
	(void)state;
	typed_seq *s = malloc(sizeof *s);
	assert_non_null(s);
	char err[256];
	assert_int_equal(typed_parse("0 4 16 20 0", s, err, sizeof err), 0);
	assert_int_equal(s->n, 5);
	assert_int_equal(s->elem, 4);
	static const uint64_t want[5] = {0, 4, 16, 20, 0};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(s->addr[i], want[i]);
		assert_int_equal(s->tid[i], 0);
	}
	assert_int_equal(typed_parse(" elem=8 0:0x10, 1:8,,2:0X1f 7 ", s, err, sizeof err), 0);
	assert_int_equal(s->n, 4);
	assert_int_equal(s->elem, 8);
	assert_int_equal(s->tid[0], 0);
	assert_int_equal(s->addr[0], 16);
	assert_int_equal(s->tid[1], 1);
	assert_int_equal(s->addr[1], 8);
	assert_int_equal(s->tid[2], 2);
	assert_int_equal(s->addr[2], 31);
	assert_int_equal(s->tid[3], 0);
	assert_int_equal(s->addr[3], 7);
	/* the kernel: the loads in order per thread, one block */
	rd_kernel *k = typed_kernel(s, "typed");
	assert_non_null(k);
	assert_int_equal(k->nloads, 4);
	assert_int_equal(k->nthreads, 3);
	assert_int_equal(k->block_size, 3);
	assert_int_equal(k->addr[k->thread_first[0]], 16);
	assert_int_equal(k->addr[k->thread_first[0] + 1], 7);
	assert_int_equal(k->bytes[0], 8);
	rd_kernel_free(k);
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"", "no addresses"},
		{"  , ", "no addresses"},
		{"elem=8", "no addresses"},
		{"0 4x 8", "item 2, '4x', is not an address"},
		{"0x", "item 1, '0x', is not an address"},
		{"-4", "item 1, '-4', is not an address"},
		{"1:", "item 1, '1:', is not THREAD:ADDRESS"},
		{":4", "item 1, ':4', is not THREAD:ADDRESS"},
		{"1:2:3", "is not THREAD:ADDRESS"},
		{"a:4", "is not THREAD:ADDRESS"},
		{"0 1024:0", "item 2: thread 1024; threads are 0 to 1023"},
		{"281474976710656", "above 2^48 - 1"},
		{"99999999999999999999999", "is not an address"},
		{"elem=3 0", "an element is 1, 2, 4, 8 or 16 bytes"},
		{"elem=x 0", "an element is 1, 2, 4, 8 or 16 bytes"},
		{"0 elem=8", "item 2, 'elem=8', is not an address"},
		{"0\x1b[31m", "is not an address"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		if (typed_parse(bad[i].text, s, err, sizeof err) != -1)
			fail_msg("'%s' was taken", bad[i].text);
		if (!strstr(err, bad[i].msg) || strncmp(err, "typed: ", 7) != 0)
			fail_msg("'%s': '%s' does not say '%s'", bad[i].text, err, bad[i].msg);
	}
	/* Too many loads, and a long token, are refused too. */
	char big[4096];
	size_t o = 0;
	for (int i = 0; i <= TYPED_MAX && o + 8 < sizeof big; i++)
		o += (size_t)snprintf(big + o, sizeof big - o, "%d ", i);
	assert_int_equal(typed_parse(big, s, err, sizeof err), -1);
	assert_non_null(strstr(err, "more than 512 loads"));
	memset(big, '7', 200);
	big[200] = '\0';
	assert_int_equal(typed_parse(big, s, err, sizeof err), -1);
	assert_true(strlen(err) < 200);
	free(s);
}

/* ------------------------------------------------------------ fit */

/* Text cut between items, with an ellipsis, never inside a number. */
static void test_fit_items(void **state)
{
	(void)state;
	char out[256];
	assert_int_equal(fit_items(out, sizeof out, 40, "fills 1→t5 2→t6", "…", NULL), 15);
	assert_string_equal(out, "fills 1→t5 2→t6");
	fit_items(out, sizeof out, 14, "fills 1→t5 2→t6", "…", NULL);
	assert_string_equal(out, "fills 1→t5 …");
	/* the old bug: "20971; MSHRs" */
	fit_items(out, sizeof out, 22, "fills 2097152→t103 2097184→t109; hits none", "...", NULL);
	assert_string_equal(out, "fills 2097152→t103 ...");
	/* items holding blanks: cut only after a comma (the old bug: "next
	 * issues" cut without an ellipsis) */
	fit_items(out, sizeof out, 30, "w1 t15715, w0 t15716, w2 t15800", "…", ",");
	assert_string_equal(out, "w1 t15715, w0 t15716 …");
	fit_items(out, sizeof out, 30, "w1 t15715, w0 t15716, w2 t15800", "…", NULL);
	assert_string_equal(out, "w1 t15715, w0 t15716, w2 …");
	fit_items(out, sizeof out, 3, "123456 7", "…", NULL);
	assert_string_equal(out, "…");
	fit_items(out, sizeof out, 0, "1 2", "…", NULL);
	assert_string_equal(out, "");
	/* Any width: the result fits, is a prefix of the text cut at a blank
	 * (numbers whole), and ends in the ellipsis when it is not all. */
	const char *text = "fills 2097544→t15725 2097576→t15720 2097608→t15731; hits 12→t3";
	for (int w = 0; w < 80; w++) {
		int c = fit_items(out, sizeof out, w, text, "…", NULL);
		assert_true(c <= w);
		assert_int_equal(c, draw_width(out));
		if (strcmp(out, text) == 0 || !*out)
			continue;
		size_t n = strlen(out);
		assert_string_equal(out + n - strlen("…"), "…");
		if (n > strlen("…")) {
			size_t p = n - strlen("…") - 1;
			assert_int_equal(out[p], ' ');
			assert_int_equal(strncmp(out, text, p), 0);
			assert_true(text[p] == ' ' || text[p] == ';' || text[p] == ',');
		}
	}
}

/* The cache grid: whole cells only, an ellipsis when ways are left out,
 * never wider than the line. */
static void test_grid_layout(void **state)
{
	(void)state;
	grid_fit f;
	grid_layout(80, 8, 4, 5, 1, &f);
	assert_int_equal(f.cellw, 7);
	assert_int_equal(f.shown, 4);
	assert_false(f.more);
	assert_int_equal(f.used, 8 + 28);
	grid_layout(30, 8, 8, 5, 1, &f);
	assert_true(f.more);
	assert_int_equal(f.shown, 3); /* 8 + 3 * 7 + 1 = 30 */
	assert_int_equal(f.used, 30);
	for (int w = 0; w < 200; w++)
		for (unsigned ways = 1; ways < 40; ways += 3)
			for (int tagw = 1; tagw <= 16; tagw++) {
				grid_layout(w, 8, ways, tagw, 3, &f);
				assert_true(f.shown >= 0 && (unsigned)f.shown <= ways);
				assert_int_equal(f.more, (unsigned)f.shown < ways);
				assert_int_equal(f.used, 8 + f.shown * f.cellw + (f.more ? 3 : 0));
				if (w >= 8 + 3)
					assert_true(f.used <= w);
				/* as many as fit */
				if (f.more)
					assert_true(8 + (f.shown + 1) * f.cellw + 3 > w);
			}
	assert_int_equal(fit_hex_digits(0), 1);
	assert_int_equal(fit_hex_digits(0xf), 1);
	assert_int_equal(fit_hex_digits(0x10), 2);
	assert_int_equal(fit_hex_digits(0xffffffffffffffffull), 16);
}

/* The explorer's reuse profile: buckets, intervals folded as the stream
 * grows, the key shared by geometry edits, and the estimates of seed 003's
 * Table 1 profile (notes §D.2: binomial 0.5 at 2 sets x 2 ways, fully
 * associative 0.6 of 4 lines). */
static void test_rprof(void **state)
{
	(void)state;
	assert_int_equal(rprof_bucket(-1), 0);
	assert_int_equal(rprof_bucket(0), 1);
	assert_int_equal(rprof_bucket(1), 2);
	assert_int_equal(rprof_bucket(2), 3);
	assert_int_equal(rprof_bucket(3), 3);
	assert_int_equal(rprof_bucket(4), 4);
	assert_int_equal(rprof_bucket(INT64_MAX), RPROF_BUCKETS - 1);

	rd_config c, d, k1, k2;
	rd_config_default(&c);
	c.l1_hash = RD_HASH_MOD;
	d = c;
	d.l1_size *= 4;
	d.l1_ways = 8;
	d.latency_miss = 7;
	d.l1_mshrs = 3;
	rprof_key(&c, &k1);
	rprof_key(&d, &k2);
	assert_true(rd_config_equal(&k1, &k2));
	d.l1_line = 64;
	rprof_key(&d, &k2);
	assert_false(rd_config_equal(&k1, &k2));

	/* a b c a a c b d a a */
	const int64_t t1[] = {-1, -1, -1, 2, 0, 1, 2, -1, 3, 0};
	rprof *p = rprof_new(&k1);
	assert_non_null(p);
	for (size_t i = 0; i < sizeof t1 / sizeof t1[0]; i++)
		assert_int_equal(rprof_add(p, 0, t1[i]), 0);
	assert_int_equal(p->requests, 10);
	assert_int_equal(p->cold, 4);
	assert_int_equal(rprof_max_rd(p), 3);
	assert_int_equal(rprof_bucket_count(p, 3), 3); /* 2, 2, 3 */
	assert_int_equal(rprof_nbuckets(p), 4);
	c.l1_line = 32;
	c.l1_size = 128;
	c.l1_ways = 2;
	double bin, fa;
	assert_int_equal(rprof_estimate(p, &c, &bin, &fa), 0);
	assert_true(fabs(bin - 0.5) < 1e-12);
	assert_true(fabs(fa - 0.6) < 1e-12);
	c.l1_size = 96; /* 1.5 sets */
	assert_int_equal(rprof_estimate(p, &c, &bin, &fa), -1);
	rprof_free(p);

	/* two cores of 1000 requests: folded to at most RPROF_COLS intervals
	 * of a power of two, the cores' i-th intervals together */
	p = rprof_new(&k1);
	for (uint32_t core = 0; core < 2; core++)
		for (int i = 0; i < 1000; i++)
			assert_int_equal(rprof_add(p, core, i % 7 ? i % 5 : -1), 0);
	assert_true(p->ncols <= RPROF_COLS && p->ncols > RPROF_COLS / 2);
	assert_int_equal(p->every & (p->every - 1), 0);
	assert_int_equal((uint64_t)p->ncols, (1000 + p->every - 1) / p->every);
	uint64_t all = 0;
	for (int col = 0; col < p->ncols; col++) {
		uint64_t n = 0;
		for (int b = 0; b < RPROF_BUCKETS; b++)
			n += p->col[col][b];
		if (col + 1 < p->ncols)
			assert_int_equal(n, 2 * p->every);
		all += n;
	}
	assert_int_equal(all, 2000);
	assert_int_equal(p->requests, 2000);
	rprof_free(p);
}

/* The profile generator's mixture: its rows' steps and limits, peaks
 * added and removed, its text as an rp: file, and its trace (seeded:
 * the same twice; index x at x * line; one thread). */
static void test_mix(void **state)
{
	(void)state;
	mix m;
	mix_default(&m);
	char t[256], lab[32], val[48];
	mix_text(&m, "; ", t, sizeof t);
	assert_string_equal(t, "maxrd 64; cold 0.05; peak 40 1 2");
	assert_int_equal(mix_rows(&m), MIX_FIXED_ROWS + 3);
	mix_row(&m, MIX_FIXED_ROWS, lab, sizeof lab, val, sizeof val);
	assert_string_equal(lab, "peak 1 at");
	assert_string_equal(val, "40 lines");
	/* a position: an eighth at 40 (5 lines), one line below 16, within maxrd */
	assert_int_equal(mix_step(&m, MIX_FIXED_ROWS, 1), 1);
	assert_true(m.pos[0] == 45);
	m.pos[0] = 10;
	assert_int_equal(mix_step(&m, MIX_FIXED_ROWS, -1), 1);
	assert_true(m.pos[0] == 9);
	m.pos[0] = 63;
	assert_int_equal(mix_step(&m, MIX_FIXED_ROWS, 1), 1);
	assert_true(m.pos[0] == 64);
	assert_int_equal(mix_step(&m, MIX_FIXED_ROWS, 1), 0); /* at maxrd */
	/* maxrd halves and clamps the positions; cold by 0.01 below 0.1 */
	assert_int_equal(mix_step(&m, MIX_ROW_MAXRD, -1), 1);
	assert_int_equal(m.maxrd, 32);
	assert_true(m.pos[0] == 32);
	assert_int_equal(mix_step(&m, MIX_ROW_COLD, 1), 1);
	assert_true(fabs(m.cold - 0.06) < 1e-12);
	for (int i = 0; i < 20; i++)
		mix_step(&m, MIX_ROW_COLD, -1);
	assert_true(m.cold == 0);
	assert_int_equal(mix_step(&m, MIX_ROW_COLD, -1), 0);
	for (int i = 0; i < 30; i++)
		mix_step(&m, MIX_ROW_LENGTH, 1);
	assert_int_equal(m.length, MIX_MAX_LENGTH);
	/* peaks: added after the selected one, up to MIX_PEAKS; the last stays */
	mix_default(&m);
	assert_int_equal(mix_add(&m, MIX_FIXED_ROWS), MIX_FIXED_ROWS + 3);
	assert_int_equal(m.n, 2);
	assert_true(m.pos[1] == 52); /* halfway from 40 to 64 */
	mix_text(&m, "; ", t, sizeof t);
	assert_string_equal(t, "maxrd 64; cold 0.05; peak 40 1 2; peak 52 1 2");
	while (m.n < MIX_PEAKS)
		assert_true(mix_add(&m, 0) > 0);
	assert_int_equal(mix_add(&m, 0), -1);
	assert_int_equal(mix_remove(&m, MIX_ROW_SEED), -1);
	while (m.n > 1)
		assert_true(mix_remove(&m, MIX_FIXED_ROWS + 3 * ((int)m.n - 1)) >= MIX_FIXED_ROWS);
	assert_int_equal(mix_remove(&m, MIX_FIXED_ROWS), -1);
	assert_true(m.pos[0] == 40);
	/* the trace: 10,000 loads of one thread, seeded, at x * line */
	mix_default(&m);
	uint64_t f1, f2;
	rd_kernel *a = mix_kernel(&m, 128, &f1), *b = mix_kernel(&m, 128, &f2);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->nloads, 10000);
	assert_int_equal(a->nthreads, 1);
	assert_int_equal(f1, f2);
	assert_memory_equal(a->addr, b->addr, 10000 * sizeof a->addr[0]);
	for (uint64_t i = 0; i < a->nloads; i++)
		assert_int_equal(a->addr[i] % 128, 0);
	rd_kernel_free(a);
	rd_kernel_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_count),
		cmocka_unit_test(test_layout_sizes),
		cmocka_unit_test(test_layout_monotonic),
		cmocka_unit_test(test_keys_no_clash),
		cmocka_unit_test(test_info_inf_split),
		cmocka_unit_test(test_keys_help),
		cmocka_unit_test(test_keys_man_page),
		cmocka_unit_test(test_keys_man_update),
		cmocka_unit_test(test_views_table),
		cmocka_unit_test(test_views_man),
		cmocka_unit_test(test_views_man_page),
		cmocka_unit_test(test_params_fields),
		cmocka_unit_test(test_params_step),
		cmocka_unit_test(test_params_dram),
		cmocka_unit_test(test_params_never_dead_end),
		cmocka_unit_test(test_params_l2),
		cmocka_unit_test(test_level),
		cmocka_unit_test(test_params_stores_loads),
		cmocka_unit_test(test_params_typed),
		cmocka_unit_test(test_params_format),
		cmocka_unit_test(test_hist_bins),
		cmocka_unit_test(test_hist_plan),
		cmocka_unit_test(test_theme),
		cmocka_unit_test(test_worker_latest_wins),
		cmocka_unit_test(test_worker_cancel),
		cmocka_unit_test(test_worker_speculate),
		cmocka_unit_test(test_draw_safe_rule),
		cmocka_unit_test(test_bgcall),
		cmocka_unit_test(test_typed_parse),
		cmocka_unit_test(test_fit_items),
		cmocka_unit_test(test_grid_layout),
		cmocka_unit_test(test_rprof),
		cmocka_unit_test(test_mix),
	};
	return cmocka_run_group_tests_name("ui", tests, NULL, NULL);
}
