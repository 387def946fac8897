/*
 * Presets: every built-in one loads and validates, load -> save -> load is
 * the identity, each class of error is reported at its file and line, the
 * search path, GPGPU-Sim strings both ways, and sweep plans. Run from the
 * source tree (tests/run does), where presets/ and tests/bad/ are.
 */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "preset.h"
#include "preset_gpgpusim.h"
#include "preset_path.h"
#include "sweep.h"

static char err[16384];

/* Every key of a and b formatted the same? Fails naming the first that is not. */
static void assert_config_equal(const rd_config *a, const rd_config *b, const char *what)
{
	for (const rd_key *k = rd_keys; k->name; k++) {
		char va[128], vb[128];
		assert_int_equal(rd_config_get(a, k->name, va, sizeof va), 0);
		assert_int_equal(rd_config_get(b, k->name, vb, sizeof vb), 0);
		if (strcmp(va, vb) != 0)
			fail_msg("%s: %s differs: %s vs %s", what, k->name, va, vb);
	}
}

static void load_ok(const char *spec, rd_config *c)
{
	rd_config_default(c);
	if (preset_load(spec, c, err, sizeof err) != 0)
		fail_msg("%s: %s", spec, err);
}

/* The built-in presets' names, from presets/ (at most 64). */
static int builtin_names(char names[64][64])
{
	DIR *d = opendir("presets");
	assert_non_null(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0)
			snprintf(names[n++], 64, "%.*s", (int)(len - 4), e->d_name);
	}
	closedir(d);
	return n;
}

static void test_builtins_load_and_validate(void **state)
{
	(void)state;
	char names[64][64];
	int n = builtin_names(names);
	static const char *const required[] = {
		"fermi-16k",   "fermi-48k",     "kepler-16k", "kepler-32k", "kepler-48k",
		"maxwell-gtx970", "rdgc-baseline", "volta-v100", "ampere-a100", "hopper-h100",
		"toy-table2",  "toy-table3",    "toy-table4", "toy-table5"};
	for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= strcmp(names[i], required[r]) == 0;
		if (!found)
			fail_msg("built-in preset %s missing", required[r]);
	}
	for (int i = 0; i < n; i++) {
		rd_config c;
		load_ok(names[i], &c);
		assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
		/* Every preset file cites its source in a comment. */
		char path[PATH_MAX], line[512];
		snprintf(path, sizeof path, "presets/%.63s.cfg", names[i]);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		int cites = 0;
		while (fgets(line, sizeof line, f))
			cites |= line[0] == '#' && (strstr(line, "Source") || strstr(line, "eed 00"));
		fclose(f);
		if (!cites)
			fail_msg("%s names no source", path);
	}
}

static void test_builtin_values(void **state)
{
	(void)state;
	rd_config c, def;
	rd_config_default(&def);
	/* The paper's configuration is the model's default. */
	load_ok("fermi-16k", &c);
	assert_config_equal(&c, &def, "fermi-16k");
	load_ok("fermi-48k", &c);
	assert_int_equal(c.l1_size, 49152);
	assert_int_equal(c.l1_ways, 6);
	assert_int_equal(rd_config_sets(&c), 64);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	load_ok("maxwell-gtx970", &c);
	assert_int_equal(c.l1_size, 24576);
	assert_int_equal(c.l1_line, 32);
	assert_int_equal(c.l1_ways, 192);
	assert_int_equal(rd_config_sets(&c), 4);
	assert_int_equal(c.cores, 26);
	assert_int_equal(c.stores, RD_STORES_EVICT);
	load_ok("rdgc-baseline", &c);
	assert_int_equal(c.stores, RD_STORES_EVICT);
	assert_int_equal(rd_config_sets(&c), 64);
	assert_int_equal(c.l1_hash, RD_HASH_PRIME);
	assert_int_equal(c.cores, 8);
	/* Inherited through two levels: toy-table5 -> 4 -> 2. */
	load_ok("toy-table5", &c);
	assert_int_equal(c.l1_line, 16);
	assert_int_equal(c.l1_size, 32);
	assert_int_equal(c.l1_ways, 2);
	assert_int_equal(c.l1_hash, RD_HASH_MOD);
	assert_int_equal(c.l1_mshrs, 1);
	assert_int_equal(c.latency_hit, 0);
	assert_int_equal(c.latency_miss, 2);
	assert_int_equal(c.latency_clip, 0);
	assert_int_equal(c.divergence, 0);
	assert_int_equal(c.warp_size, 1);
	load_ok("toy-table3", &c);
	assert_int_equal(c.latency_hit, 2);
	assert_int_equal(c.latency_miss, 2);
	assert_int_equal(c.l1_mshrs, 0);
}

/* Read a whole small file into buf; returns its length. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

static void round_trip(const rd_config *c, const char *name, const char *desc, const char *what)
{
	char dir[] = "/tmp/rdscope-test-XXXXXX", p1[64], p2[64];
	assert_non_null(mkdtemp(dir));
	snprintf(p1, sizeof p1, "%s/a.cfg", dir);
	snprintf(p2, sizeof p2, "%s/b.cfg", dir);
	if (preset_save(p1, c, name, desc, err, sizeof err) != 0)
		fail_msg("%s: save: %s", what, err);
	rd_config back;
	/* Start from a different configuration: every key must come from the file. */
	rd_config_default(&back);
	back.l1_ways = 3;
	back.seed = 99;
	back.latency_stddev = 0.25;
	if (preset_load(p1, &back, err, sizeof err) != 0)
		fail_msg("%s: reload: %s", what, err);
	assert_config_equal(c, &back, what);
	assert_int_equal(preset_save(p2, &back, name, desc, err, sizeof err), 0);
	static char a[65536], b[65536];
	size_t na = slurp(p1, a, sizeof a), nb = slurp(p2, b, sizeof b);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
}

static void test_round_trip_builtins(void **state)
{
	(void)state;
	char names[64][64];
	int n = builtin_names(names);
	for (int i = 0; i < n; i++) {
		rd_config c;
		load_ok(names[i], &c);
		round_trip(&c, names[i], "built-in", names[i]);
	}
}

static void test_round_trip_edges(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	c.l1_hash = RD_HASH_SMOD;
	c.l1_hash_shift = 5;
	c.latency_stddev = 0.1;           /* not exact in decimal */
	c.max_threads = 3000000000u;      /* above libconfig's 32-bit integers */
	c.seed = 18446744073709551615ull; /* above its 64-bit signed ones */
	c.model = RD_PROFILE_REF2013;
	c.block_mapping = RD_MAP_RANDOM;
	c.latency_clip = 0;
	round_trip(&c, "q\"uote\\d \tname", "line one\nline two \x01", "edge values");
	rd_config_default(&c);
	round_trip(&c, NULL, NULL, "no name");
}

static void test_save_failure(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	assert_int_equal(preset_save("/nonexistent-dir/x.cfg", &c, "x", NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent-dir/x.cfg"));
}

/* Each broken preset: reported at FILE:LINE with the key and the reason. */
static const struct bad_case {
	const char *file;
	const char *want; /* after "tests/bad/FILE:" */
	const char *at;   /* FILE if the error is in another file (the cycle's end) */
} bad_cases[] = {
	{"preset-syntax-line6.cfg", "6: syntax error", NULL},
	{"preset-unknown-key-line7.cfg", "7: l1.wayz: unknown key; did you mean 'l1.ways'?", NULL},
	{"preset-unknown-group-line5.cfg", "5: cache: unknown group", NULL},
	{"preset-wrong-type-line6.cfg", "6: l1.ways: expected an integer, got a string", NULL},
	{"preset-ways-zero-line7.cfg", "7: l1.ways: must be >= 1 (got 0)", NULL},
	{"preset-line-not-pow2-line6.cfg", "6: l1.line: must be a power of two (got 100)", NULL},
	{"preset-size-not-whole-sets-line7.cfg", "7: l1.size: 1000 bytes is not a whole number of sets", NULL},
	{"preset-fermi-16-sets-line9.cfg", "9: l1.hash: fermi needs 32 or 64 sets (this cache has 16)", NULL},
	{"preset-mshr-per-warp-above-total-line7.cfg", "7: l1.mshr_per_warp: 33 is more than l1.mshrs (32)", NULL},
	{"preset-version-line3.cfg", "3: version: 2 is not supported", NULL},
	{"preset-format-line2.cfg", "2: format: must be \"rdscope-preset\"", NULL},
	{"preset-inherits-cycle-line6.cfg",
	 "6: inherits: cycle: tests/bad/preset-inherits-cycle-line6.cfg -> "
	 "tests/bad/preset-inherits-cycle-b-line6.cfg -> tests/bad/preset-inherits-cycle-line6.cfg",
	 "preset-inherits-cycle-b-line6.cfg"},
	{"preset-inherits-cycle-b-line6.cfg", "6: inherits: cycle: ", "preset-inherits-cycle-line6.cfg"},
	{"preset-duplicate-line6.cfg", "6: duplicate setting name", NULL},
	{"preset-many-errors-line6.cfg", "6: l1.ways: must be >= 1 (got 0)", NULL},
	/* libconfig 1.5 would exit() on this include: refused before it */
	{"preset-include-line3.cfg", "3: @include is not supported in presets", NULL},
};

static void test_errors_at_their_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		char path[256], want[512];
		snprintf(path, sizeof path, "tests/bad/%s", bad_cases[i].file);
		snprintf(want, sizeof want, "tests/bad/%s:%s",
			 bad_cases[i].at ? bad_cases[i].at : bad_cases[i].file, bad_cases[i].want);
		rd_config c;
		rd_config_default(&c);
		rd_config before = c;
		assert_int_equal(preset_load(path, &c, err, sizeof err), -1);
		if (!strstr(err, want))
			fail_msg("%s: want '%s', got '%s'", path, want, err);
		/* The line in the file's name is where the error is. */
		const char *l = NULL;
		for (const char *s = bad_cases[i].file; (s = strstr(s, "-line")); s++)
			l = s;
		assert_non_null(l);
		assert_int_equal(atoi(l + 5), atoi(bad_cases[i].want));
		/* A failed load leaves the configuration as it was. */
		assert_memory_equal(&c, &before, sizeof c);
	}
	/* Every bad preset file is in the table. */
	DIR *d = opendir("tests/bad");
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "preset-", 7) != 0)
			continue;
		int found = 0;
		for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
			found |= strcmp(e->d_name, bad_cases[i].file) == 0;
		if (!found)
			fail_msg("tests/bad/%s is not checked", e->d_name);
	}
	closedir(d);
}

static void test_all_errors_collected(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	const char *p = "tests/bad/preset-many-errors-line6.cfg";
	assert_int_equal(preset_load(p, &c, err, sizeof err), -1);
	static const char *const want[] = {
		":6: l1.ways: must be >= 1 (got 0)",
		":7: l1.line: must be a power of two (got 100)",
		":8: l1.size: 1000 bytes is not a whole number of sets",
		":9: l1.mshr_per_warp: 6 is more than l1.mshrs (2)",
		":11: latency.stddev: expected a number, got a string",
		":11: latency.clip: must be 0 or 1 (got '3')",
		":12: colour: unknown key",
		":13: ways: unknown key; did you mean 'l1.ways'?",
	};
	int lines = 1;
	for (const char *s = err; *s; s++)
		lines += *s == '\n';
	assert_int_equal(lines, (int)(sizeof want / sizeof want[0]));
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(err, want[i]))
			fail_msg("missing '%s' in:\n%s", want[i], err);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_search_path(void **state)
{
	(void)state;
	char d1[] = "/tmp/rdscope-p1-XXXXXX", d2[] = "/tmp/rdscope-p2-XXXXXX", p[128], env[128];
	assert_non_null(mkdtemp(d1));
	assert_non_null(mkdtemp(d2));
	static const char head[] = "format = \"rdscope-preset\";\nversion = 1;\n";
	char text[256];
	snprintf(text, sizeof text, "%sinherits = \"toy-table2\";\nl1 = { ways = 1; };\n", head);
	snprintf(p, sizeof p, "%s/mine.cfg", d1);
	write_file(p, text);
	snprintf(text, sizeof text, "%sl1 = { ways = 8; hash = \"mod\"; };\n", head);
	snprintf(p, sizeof p, "%s/mine.cfg", d2);
	write_file(p, text);
	snprintf(env, sizeof env, "%s:%s", d1, d2);
	setenv("RDSCOPE_PRESET_PATH", env, 1);
	rd_config c;
	load_ok("mine", &c); /* the first directory wins, and inherits a built-in */
	assert_int_equal(c.l1_ways, 1);
	assert_int_equal(c.l1_line, 16);
	snprintf(env, sizeof env, "%s:%s", d2, d1);
	setenv("RDSCOPE_PRESET_PATH", env, 1);
	load_ok("mine", &c);
	assert_int_equal(c.l1_ways, 8);
	rd_config_default(&c);
	assert_int_equal(preset_load("fermi-16j", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "fermi-16j: no such preset"));
	assert_non_null(strstr(err, "did you mean 'fermi-16k'?"));
	preset_entry *e;
	int n = preset_path_entries(&e);
	int mine = 0;
	for (int i = 0; i < n; i++)
		mine += strcmp(e[i].name, "mine") == 0;
	assert_int_equal(mine, 1); /* listed once, though in two directories */
	preset_path_entries_free(e, n);
	unsetenv("RDSCOPE_PRESET_PATH");
	snprintf(p, sizeof p, "%s/mine.cfg", d1);
	unlink(p);
	snprintf(p, sizeof p, "%s/mine.cfg", d2);
	unlink(p);
	rmdir(d1);
	rmdir(d2);
}

typedef struct notes {
	int n;
	char all[4096];
} notes;

static void collect(void *ctx, const char *msg)
{
	notes *ns = ctx;
	ns->n++;
	strncat(ns->all, msg, sizeof ns->all - strlen(ns->all) - 2);
	strcat(ns->all, "\n");
}

static void test_gpgpusim_strings(void **state)
{
	(void)state;
	/* Strings in the form rdscope writes come back unchanged. */
	static const struct {
		const char *s;
		enum gpgpusim_form form;
	} same[] = {
		{"32:128:4,L:L:m:N:H,A:64:8,8", GPGPUSIM_3X},
		{"64:128:6,L:L:m:N:H,A:64:8,8", GPGPUSIM_3X},
		{"4:32:192,L:L:m:N:X,A:32:8,8", GPGPUSIM_3X},
		{"N:32:128:4,L:L:m:N:H,A:64:8,8", GPGPUSIM_4X},
		{"N:16:64:2,L:L:m:N:L,A:8:8,8", GPGPUSIM_4X},
		{"N:32:128:4,F:E:f:N:H,A:64:8,8", GPGPUSIM_4X}, /* FIFO, write-evict */
		{"32:128:4,L:L:f:N:H,A:64:8,8", GPGPUSIM_3X},   /* allocate on fill */
		{"32:128:4,L:B:m:W:H,A:64:8,8", GPGPUSIM_3X},   /* write-back, write-allocate */
	};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		rd_config c;
		rd_config_default(&c);
		notes ns = {0};
		if (gpgpusim_import(same[i].s, &c, collect, &ns, err, sizeof err) != 0)
			fail_msg("%s: %s", same[i].s, err);
		char out[128];
		assert_int_equal(gpgpusim_export(&c, same[i].form, out, sizeof out, NULL, NULL), 0);
		assert_string_equal(out, same[i].s);
	}
	/* The paper's example string: 16 KB, 4 ways, Fermi hash, 32 MSHRs. */
	rd_config c;
	rd_config_default(&c);
	notes ns = {0};
	assert_int_equal(gpgpusim_import("32:128:4,L:L:m:N:H,A:32:8,8", &c, collect, &ns, err,
					 sizeof err), 0);
	assert_int_equal(c.l1_size, 16384);
	assert_int_equal(c.l1_ways, 4);
	assert_int_equal(c.l1_hash, RD_HASH_FERMI);
	assert_int_equal(c.l1_mshrs, 32);
	/* Unmodelled fields are noted, one by one. */
	assert_non_null(strstr(ns.all, "write policy L"));
	assert_non_null(strstr(ns.all, "without write-allocate"));
	assert_int_equal(c.stores, RD_STORES_IGNORE);
	assert_int_equal(c.l1_allocate, RD_ALLOC_MISS); /* m: allocate on miss */
	assert_null(strstr(ns.all, "allocation policy"));
	assert_non_null(strstr(ns.all, "MSHR merges (8 per entry)"));
	assert_non_null(strstr(ns.all, "miss queue (8 entries)"));
	/* Accel-Sim's V100 string: sector form, all fields noted. */
	rd_config_default(&c);
	memset(&ns, 0, sizeof ns);
	assert_int_equal(gpgpusim_import("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &c, collect, &ns, err,
					 sizeof err), 0);
	assert_int_equal(c.l1_size, 32768);
	assert_int_equal(c.l1_hash, RD_HASH_MOD);
	assert_int_equal(c.l1_mshrs, 512);
	assert_non_null(strstr(ns.all, "S (sector cache)"));
	assert_non_null(strstr(ns.all, "result FIFO (0 entries)"));
	assert_non_null(strstr(ns.all, "data port width (32 bytes)"));
	/* FIFO replacement carries over; IPOLY is noted as not modelled. */
	rd_config_default(&c);
	memset(&ns, 0, sizeof ns);
	assert_int_equal(gpgpusim_import("32:128:4,F:L:m:N:P,A:32:8,8", &c, collect, &ns, err,
					 sizeof err), 0);
	assert_int_equal(c.replacement, RD_REPL_FIFO);
	assert_null(strstr(ns.all, "replacement"));
	assert_non_null(strstr(ns.all, "set index P (IPOLY hash)"));
	/* Write-evict and write-allocate carry over; a read-only cache has no stores. */
	static const struct {
		const char *s;
		enum rd_stores st;
	} wr[] = {{"32:128:4,L:E:m:N:H,A:32:8,8", RD_STORES_EVICT},
		  {"32:128:4,L:B:m:W:H,A:32:8,8", RD_STORES_ALLOCATE},
		  {"32:128:4,L:T:m:F:H,A:32:8,8", RD_STORES_ALLOCATE},
		  {"32:128:4,L:R:m:N:H,A:32:8,8", RD_STORES_IGNORE}};
	for (size_t i = 0; i < sizeof wr / sizeof wr[0]; i++) {
		rd_config_default(&c);
		c.stores = RD_STORES_EVICT;
		assert_int_equal(gpgpusim_import(wr[i].s, &c, NULL, NULL, err, sizeof err), 0);
		assert_int_equal(c.stores, wr[i].st);
	}
	/* Policies without a GPGPU-Sim letter are noted on export. */
	rd_config_default(&c);
	c.replacement = RD_REPL_LFU;
	c.loads = RD_LOADS_BYPASS;
	memset(&ns, 0, sizeof ns);
	char o2[128];
	assert_int_equal(gpgpusim_export(&c, GPGPUSIM_3X, o2, sizeof o2, collect, &ns), 0);
	assert_non_null(strstr(ns.all, "l1.replacement=lfu has no GPGPU-Sim letter"));
	assert_non_null(strstr(ns.all, "-gpgpu_gmem_skip_L1D 1"));
	/* Every built-in with a GPGPU-Sim set index survives export and import. */
	char names[64][64];
	int n = builtin_names(names);
	for (int i = 0; i < n; i++) {
		rd_config p, back;
		load_ok(names[i], &p);
		if (p.l1_hash != RD_HASH_MOD && p.l1_hash != RD_HASH_XOR && p.l1_hash != RD_HASH_FERMI)
			continue;
		char s[128];
		memset(&ns, 0, sizeof ns);
		assert_int_equal(gpgpusim_export(&p, GPGPUSIM_4X, s, sizeof s, collect, &ns), 0);
		assert_non_null(strstr(ns.all, "not in the cache string: l1.mshr_per_warp"));
		back = p;
		rd_config_default(&back);
		back.l1_mshr_per_warp = p.l1_mshr_per_warp;
		assert_int_equal(gpgpusim_import(s, &back, NULL, NULL, err, sizeof err), 0);
		assert_int_equal(back.l1_size, p.l1_size);
		assert_int_equal(back.l1_line, p.l1_line);
		assert_int_equal(back.l1_ways, p.l1_ways);
		assert_int_equal(back.l1_hash, p.l1_hash);
		assert_int_equal(back.l1_mshrs, p.l1_mshrs);
	}
}

static void test_gpgpusim_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *s, *want;
	} bad[] = {
		{"none", "disables the L1"},
		{"32:128", "expected ':'"},
		{"32:128:4,Q:L:m:N:H,A:32:8,8", "replacement policy"},
		{"32:128:4,L:L:m:N:H,A:32:8,8,", "data port width"},
		{"32:128:4,L:L:m:N:Z,A:32:8,8", "set index"},
		{"32:100:4,L:L:m:N:L,A:32:8,8", "l1.line: must be a power of two"},
		{"32:128:4,L:L:m:N:H,A:32:8,8 junk", "end of the string"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		rd_config c, before;
		rd_config_default(&c);
		before = c;
		assert_int_equal(gpgpusim_import(bad[i].s, &c, NULL, NULL, err, sizeof err), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("%s: want '%s' in '%s'", bad[i].s, bad[i].want, err);
		assert_memory_equal(&c, &before, sizeof c);
	}
}

static void test_sweep_plan(void **state)
{
	(void)state;
	rd_config base;
	rd_config_default(&base);
	base.l1_hash = RD_HASH_MOD;
	const char *vary[] = {"l1.size=0.25x,0.5x,2x", "l1.ways=2,4"};
	sweep_plan p;
	if (sweep_plan_build(&p, &base, vary, 2, err, sizeof err) != 0)
		fail_msg("%s", err);
	assert_int_equal(p.npoints, 6);
	/* The first --vary varies slowest. */
	static const uint32_t size[] = {4096, 4096, 8192, 8192, 32768, 32768};
	static const uint32_t ways[] = {2, 4, 2, 4, 2, 4};
	for (int i = 0; i < 6; i++) {
		assert_int_equal(p.configs[i].l1_size, size[i]);
		assert_int_equal(p.configs[i].l1_ways, ways[i]);
	}
	assert_string_equal(p.labels[3], "l1.size=8192 l1.ways=4");
	sweep_plan_free(&p);

	static const struct {
		const char *vary, *want;
	} bad[] = {
		{"l1.wayz=1,2", "did you mean 'l1.ways'"},
		{"l1.ways=0.3x", "is not a whole number"},
		{"l1.hash=2x", "relative values are for numeric keys"},
		{"l1.ways=1,,2", "empty"},
		{"l1.ways", "KEY=V1,V2"},
		{"l1.ways=0", "l1.ways: must be >= 1"},
		{"l1.ways=3", "point 0 (l1.ways=3): l1.size"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *v[] = {bad[i].vary};
		assert_int_equal(sweep_plan_build(&p, &base, v, 1, err, sizeof err), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("%s: want '%s' in '%s'", bad[i].vary, bad[i].want, err);
	}
	const char *twice[] = {"l1.ways=1", "l1.ways=2"};
	assert_int_equal(sweep_plan_build(&p, &base, twice, 2, err, sizeof err), -1);
	assert_non_null(strstr(err, "given twice"));
	/* Relative double values multiply exactly. */
	const char *sd[] = {"latency.stddev=0.5x,2x"};
	assert_int_equal(sweep_plan_build(&p, &base, sd, 1, err, sizeof err), 0);
	assert_true(p.configs[0].latency_stddev == 2.5);
	assert_true(p.configs[1].latency_stddev == 10.0);
	sweep_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_load_and_validate),
		cmocka_unit_test(test_builtin_values),
		cmocka_unit_test(test_round_trip_builtins),
		cmocka_unit_test(test_round_trip_edges),
		cmocka_unit_test(test_save_failure),
		cmocka_unit_test(test_errors_at_their_lines),
		cmocka_unit_test(test_all_errors_collected),
		cmocka_unit_test(test_search_path),
		cmocka_unit_test(test_gpgpusim_strings),
		cmocka_unit_test(test_gpgpusim_malformed),
		cmocka_unit_test(test_sweep_plan),
	};
	return cmocka_run_group_tests_name("preset", tests, NULL, NULL);
}
