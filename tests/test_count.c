/*
 * Counting misses of fully associative LRU caches (seed 004, HayStack's
 * question; model/count.c): the notes' exact examples (seeds-003-004
 * §D.3 item 10, the Figure 2 program; §D.4's toy kernel per reference),
 * and properties: every level equals a direct LRU simulation of its size
 * on random streams, and a repeated iteration counts as its explicit
 * expansion does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rdscope.h"

/* Figure 2: S0 M[i] = i for i in 0..3; S1 sum += M[3 - j] for j in 0..3;
 * an element a line, a cache of 2 lines: S0's four accesses compulsory,
 * S1's at j = 2 and 3 capacity misses (SD = j + 1). */
static void test_figure2(void **state)
{
	(void)state;
	uint64_t lines[] = {2};
	rd_count *c = rd_count_new(4, lines, 1, 2);
	assert_non_null(c);
	for (uint64_t i = 0; i < 4; i++)
		assert_int_equal(rd_count_access(c, i * 4, 0), 0);
	for (uint64_t j = 0; j < 4; j++)
		assert_int_equal(rd_count_access(c, (3 - j) * 4, 1), 0);
	const rd_count_ref *r = rd_count_refs(c);
	assert_int_equal(r[0].accesses, 4);
	assert_int_equal(r[0].compulsory, 4);
	assert_int_equal(r[0].capacity[0], 0);
	assert_int_equal(r[1].accesses, 4);
	assert_int_equal(r[1].compulsory, 0);
	assert_int_equal(r[1].capacity[0], 2);
	assert_true(rd_count_reused(c, 1, 0));
	assert_false(rd_count_reused(c, 0, 1));
	assert_int_equal(rd_count_lines(c), 4);
	rd_count_free(c);
}

/* §D.4 toy: one i-loop of S0 A[i]; S1 A[N-1-i]; S2 if (i < N/2) A[2i];
 * floats, 16-byte lines, a 256-byte cache (16 lines). */
static void toy(uint64_t n, const uint64_t want[3][3])
{
	uint64_t lines[] = {16};
	rd_count *c = rd_count_new(16, lines, 1, 3);
	assert_non_null(c);
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(rd_count_access(c, 4 * i, 0), 0);
		assert_int_equal(rd_count_access(c, 4 * (n - 1 - i), 1), 0);
		if (i < n / 2)
			assert_int_equal(rd_count_access(c, 4 * (2 * i), 2), 0);
	}
	const rd_count_ref *r = rd_count_refs(c);
	for (int s = 0; s < 3; s++) {
		assert_int_equal(r[s].accesses, want[s][0]);
		assert_int_equal(r[s].compulsory, want[s][1]);
		assert_int_equal(r[s].capacity[0], want[s][2]);
	}
	rd_count_free(c);
}

static void test_toy(void **state)
{
	(void)state;
	static const uint64_t n128[3][3] = {{128, 1, 19}, {128, 11, 14}, {64, 20, 7}};
	static const uint64_t n177[3][3] = {{177, 1, 32}, {177, 16, 22}, {88, 28, 11}};
	toy(128, n128);
	toy(177, n177);
}

/* A direct LRU simulation of one size: an array, most recent first. */
typedef struct lru {
	uint64_t *v;
	size_t n, cap;
} lru;

static int lru_access(lru *l, uint64_t line)
{
	size_t i = 0;
	while (i < l->n && l->v[i] != line)
		i++;
	int hit = i < l->n;
	if (!hit) {
		if (l->n < l->cap)
			l->n++;
		i = l->n - 1;
	}
	memmove(l->v + 1, l->v, i * sizeof *l->v);
	l->v[0] = line;
	return hit;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random streams of 4 references over up to 200 lines (64-byte lines,
 * unaligned addresses): each level's misses are a direct simulation's. */
static void test_levels_match_direct_lru(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (int trial = 0; trial < 40; trial++) {
		uint64_t lines[] = {1, 3, 8, 17, 64};
		rd_count *c = rd_count_new(64, lines, 5, 4);
		lru L[5];
		uint64_t miss[5][4] = {{0}}, seen[4000 / 64 * 4 + 256] = {0}, comp[4] = {0};
		for (int k = 0; k < 5; k++) {
			L[k].cap = lines[k];
			L[k].n = 0;
			L[k].v = calloc(lines[k], sizeof *L[k].v);
		}
		uint64_t span = 64 * (1 + rnd(&seed) % 200);
		for (int i = 0; i < 3000; i++) {
			uint64_t a = rnd(&seed) % span;
			if (i && rnd(&seed) % 3 == 0)
				a = a % 256; /* some locality */
			uint32_t r = (uint32_t)(rnd(&seed) % 4);
			assert_int_equal(rd_count_access(c, a, r), 0);
			uint64_t line = a / 64;
			int first = !seen[line];
			seen[line] = 1;
			comp[r] += (uint64_t)first;
			for (int k = 0; k < 5; k++)
				if (!lru_access(&L[k], line) && !first)
					miss[k][r]++;
		}
		const rd_count_ref *R = rd_count_refs(c);
		for (int r = 0; r < 4; r++) {
			assert_int_equal(R[r].compulsory, comp[r]);
			for (int k = 0; k < 5; k++)
				assert_int_equal(R[r].capacity[k], miss[k][r]);
		}
		for (int k = 0; k < 5; k++)
			free(L[k].v);
		rd_count_free(c);
	}
}

/* An iteration of n accesses (lines repeated within it) given once and
 * repeated t times counts as the iteration given t + 1 times, with the
 * same reuse sets; then the streams go on alike. */
static void test_repeat_is_expansion(void **state)
{
	(void)state;
	uint64_t seed = 99;
	for (int trial = 0; trial < 200; trial++) {
		uint64_t lines[] = {1, 2, 3, 5, 9};
		rd_count *a = rd_count_new(16, lines, 5, 6), *b = rd_count_new(16, lines, 5, 6);
		uint64_t addr[12];
		uint32_t ref[12];
		for (int pre = 0; pre < 30; pre++) {
			uint64_t x = 16 * (rnd(&seed) % 20);
			uint32_t r = (uint32_t)(rnd(&seed) % 6);
			rd_count_access(a, x, r);
			rd_count_access(b, x, r);
		}
		int n = 1 + (int)(rnd(&seed) % 12);
		for (int p = 0; p < n; p++) {
			addr[p] = 16 * (rnd(&seed) % 7) + rnd(&seed) % 16;
			ref[p] = (uint32_t)(rnd(&seed) % 6);
		}
		uint64_t t = rnd(&seed) % 5;
		for (int p = 0; p < n; p++) {
			rd_count_access(a, addr[p], ref[p]);
			rd_count_access(b, addr[p], ref[p]);
		}
		assert_int_equal(rd_count_repeat(a, addr, ref, n, t), 0);
		for (uint64_t i = 0; i < t; i++)
			for (int p = 0; p < n; p++)
				rd_count_access(b, addr[p], ref[p]);
		for (int post = 0; post < 30; post++) {
			uint64_t x = 16 * (rnd(&seed) % 20);
			uint32_t r = (uint32_t)(rnd(&seed) % 6);
			rd_count_access(a, x, r);
			rd_count_access(b, x, r);
		}
		const rd_count_ref *ra = rd_count_refs(a), *rb = rd_count_refs(b);
		for (int r = 0; r < 6; r++) {
			assert_int_equal(ra[r].accesses, rb[r].accesses);
			assert_int_equal(ra[r].compulsory, rb[r].compulsory);
			for (int k = 0; k < 5; k++)
				assert_int_equal(ra[r].capacity[k], rb[r].capacity[k]);
			for (uint32_t q = 0; q < 6; q++)
				assert_int_equal(rd_count_reused(a, (uint32_t)r, q),
						 rd_count_reused(b, (uint32_t)r, q));
		}
		rd_count_free(a);
		rd_count_free(b);
	}
}

static void test_bad_arguments(void **state)
{
	(void)state;
	uint64_t lines[] = {4, 0};
	assert_null(rd_count_new(0, lines, 1, 1));
	assert_null(rd_count_new(64, lines, 2, 1)); /* a level of 0 lines */
	assert_null(rd_count_new(64, lines, 0, 1));
	assert_null(rd_count_new(64, lines, 1, 0));
	rd_count *c = rd_count_new(64, lines, 1, 2);
	assert_non_null(c);
	assert_int_equal(rd_count_access(c, 0, 2), -1);
	uint64_t a = 0;
	uint32_t r = 0;
	assert_int_equal(rd_count_repeat(c, &a, &r, 0, 3), -1);
	assert_int_equal(rd_count_repeat(c, &a, &r, RD_COUNT_MAX_REPEAT + 1, 3), -1);
	rd_count_free(c);
}

/* rd_count_extrapolate adds times x delta per reference and to the
 * distinct lines, and refuses a sum past 2^64 leaving everything as it
 * was; rd_count_reset empties the counter. */
static void test_extrapolate_reset(void **state)
{
	(void)state;
	uint64_t lines[2] = {2, 4};
	rd_count *c = rd_count_new(64, lines, 2, 2);
	assert_non_null(c);
	for (uint64_t a = 0; a < 8; a++)
		assert_int_equal(rd_count_access(c, a * 64, (uint32_t)(a % 2)), 0);
	rd_count_ref before[2];
	memcpy(before, rd_count_refs(c), sizeof before);
	rd_count_ref d[2];
	memset(d, 0, sizeof d);
	d[0].accesses = 5, d[0].compulsory = 2, d[0].capacity[0] = 1, d[0].capacity[1] = 3;
	d[1].accesses = 7, d[1].compulsory = 1;
	assert_int_equal(rd_count_extrapolate(c, d, 10), 0);
	const rd_count_ref *R = rd_count_refs(c);
	assert_int_equal(R[0].accesses, before[0].accesses + 50);
	assert_int_equal(R[0].compulsory, before[0].compulsory + 20);
	assert_int_equal(R[0].capacity[0], before[0].capacity[0] + 10);
	assert_int_equal(R[0].capacity[1], before[0].capacity[1] + 30);
	assert_int_equal(R[1].accesses, before[1].accesses + 70);
	assert_int_equal(rd_count_lines(c), 8 + 30);
	d[1].accesses = UINT64_MAX / 3;
	assert_int_equal(rd_count_extrapolate(c, d, 4), -1);
	assert_int_equal(rd_count_refs(c)[0].accesses, before[0].accesses + 50); /* unchanged */
	assert_int_equal(rd_count_lines(c), 38);
	assert_int_equal(rd_count_reset(c), 0);
	assert_int_equal(rd_count_lines(c), 0);
	assert_int_equal(rd_count_refs(c)[0].accesses, 0);
	assert_int_equal(rd_count_access(c, 0, 0), 0);
	assert_int_equal(rd_count_refs(c)[0].compulsory, 1);
	rd_count_free(c);
}

/* Ghosts (the flat path's one loop down): a counter that streams the
 * first periods of a moving loop and keeps the rest as a ghost is the
 * counter that streams them all: counts, distinct lines, which lines were
 * touched and by which reference last, the reuse sets, and so on for
 * every access after, including ones of the ghost's lines by other
 * references; spans answered from the ghost (or -1 once a line of it was
 * touched again by another reference). Periods move up and down, over
 * new lines and over lines touched before, apart and meeting (a line of
 * two periods is the later one's). */
static uint64_t ghost_w; /* lines a period moves (8: its lines; 6: periods meet) */

static void ghost_line(uint64_t base, int dir, uint64_t p, uint64_t x, uint64_t *line)
{
	*line = dir > 0 ? base + ghost_w * p + x : base - ghost_w * p + x;
}

static void ghost_period(rd_count *c, uint64_t base, int dir, uint64_t p)
{
	for (uint64_t x = 0; x < 8; x++) {
		uint64_t l;
		ghost_line(base, dir, p, x, &l);
		assert_int_equal(rd_count_access(c, l * 64, x < 4 ? 0 : 1), 0);
	}
	assert_int_equal(rd_count_access(c, 1000 * 64, 2), 0); /* a line that does not move */
}

static void ghost_same(rd_count *a, rd_count *b)
{
	assert_memory_equal(rd_count_refs(a), rd_count_refs(b), 4 * sizeof(rd_count_ref));
	assert_int_equal(rd_count_lines(a), rd_count_lines(b));
	for (uint64_t y = 0; y < 2100; y++) {
		uint32_t ra = 99, rb = 99;
		assert_int_equal(rd_count_seen(a, y), rd_count_seen(b, y));
		assert_int_equal(rd_count_last(a, y, &ra), rd_count_last(b, y, &rb));
		assert_int_equal(ra, rb);
	}
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t q = 0; q < 4; q++)
			assert_int_equal(rd_count_reused(a, r, q), rd_count_reused(b, r, q));
	for (uint64_t y = 0; y < 2100; y++) { /* held: b's by pages once it has ghosts */
		assert_int_equal(rd_count_held(a, y), rd_count_held(b, y));
		int any = 0;
		for (uint64_t z = y; z < y + 70; z++)
			any |= rd_count_held(a, z);
		assert_int_equal(rd_count_held_any(b, y, y + 69), any);
	}
	uint64_t sa[16], sb[16];
	size_t na = rd_count_stack(a, sa, 16), nb = rd_count_stack(b, sb, 16);
	assert_int_equal(na, nb);
	assert_memory_equal(sa, sb, na * sizeof *sa);
}

static void ghost_case(int dir, int again)
{
	const uint64_t m = 3, E = 5, P = m + 1 + E, base = dir > 0 ? 100 : 500;
	uint64_t lines[] = {4, 12};
	rd_count *a = rd_count_new(64, lines, 2, 4), *b = rd_count_new(64, lines, 2, 4);
	assert_non_null(a);
	assert_non_null(b);
	/* again: a previous pass over every period (the ghost's lines have
	 * ids), else its lines are new */
	for (uint64_t p = 0; again && p < P; p++)
		for (uint64_t x = 0; x < 8; x++) {
			uint64_t l;
			ghost_line(base, dir, p, x, &l);
			assert_int_equal(rd_count_access(a, l * 64, 3), 0);
			assert_int_equal(rd_count_access(b, l * 64, 3), 0);
		}
	for (uint64_t p = 0; p < P; p++)
		ghost_period(a, base, dir, p);
	rd_count_ref s0[4], s1[4], delta[4];
	for (uint64_t p = 0; p <= m; p++) {
		if (p == m)
			memcpy(s0, rd_count_refs(b), sizeof s0);
		ghost_period(b, base, dir, p);
	}
	memcpy(s1, rd_count_refs(b), sizeof s1);
	for (int i = 0; i < 4; i++) {
		delta[i].accesses = s1[i].accesses - s0[i].accesses;
		delta[i].compulsory = s1[i].compulsory - s0[i].compulsory;
		for (int k = 0; k < RD_COUNT_MAX_LEVELS; k++)
			delta[i].capacity[k] = s1[i].capacity[k] - s0[i].capacity[k];
	}
	uint64_t l0;
	ghost_line(base, dir, m, 0, &l0);
	rd_count_run runs[] = {{l0, l0 + 3, 0}, {l0 + 4, l0 + 7, 1}};
	rd_count_sweep sw = {dir * (int64_t)ghost_w, E, runs, 2};
	uint64_t top[16];
	size_t ntop = rd_count_stack(a, top, 12);
	rd_count_sweep bad = {0, E, runs, 2}; /* lines that do not move */
	assert_int_equal(rd_count_ghost(b, &bad, 1, top, ntop), -1);
	assert_int_equal(rd_count_ghosts(b), 0);
	assert_int_equal(rd_count_extrapolate(b, delta, E), 0);
	assert_int_equal(rd_count_ghost(b, &sw, 1, top, ntop), 0);
	assert_int_equal(rd_count_ghosts(b), 1);
	ghost_same(a, b);
	/* a skipped period's lines: one span from the ghost, its references */
	uint64_t g0;
	ghost_line(base, dir, m + 2, 0, &g0);
	uint8_t refs[4] = {0};
	assert_int_equal(rd_count_span(b, g0, g0 + 7, refs), 1);
	assert_true(refs[0] && refs[1] && !refs[2] && !refs[3]);
	assert_int_equal(rd_count_covered(b, 0, g0 + 2, g0 + 6), 1);
	assert_int_equal(rd_count_covered(b, 1, g0 + 2, g0 + 6), 0);
	assert_int_equal(rd_count_span(b, 2000, 2010, NULL), 0);
	ghost_line(base, dir, 1, 0, &l0); /* streamed lines: from the ids */
	memset(refs, 0, sizeof refs);
	assert_int_equal(rd_count_span(b, l0, l0 + 7, refs), 1);
	assert_true(refs[0] && refs[1] && !refs[2] && !refs[3]);
	/* accesses after: a ghost's line by another reference and by its own,
	 * an early line, a new one, the line that does not move */
	uint64_t after[][2] = {{g0 + 5, 3}, {g0, 0}, {l0 + 1, 3}, {3000, 0}, {1000, 2}, {g0 + ghost_w * (uint64_t)dir, 1},
			       {g0 + 5, 0}, {g0 + 6, 3}};
	for (size_t i = 0; i < sizeof after / sizeof *after; i++) {
		assert_int_equal(rd_count_access(a, after[i][0] * 64, (uint32_t)after[i][1]), 0);
		assert_int_equal(rd_count_access(b, after[i][0] * 64, (uint32_t)after[i][1]), 0);
		ghost_same(a, b);
	}
	/* touched again by another reference: known only line by line now */
	assert_int_equal(rd_count_span(b, g0, g0 + 7, refs), -1);
	/* out of every level again: still the reference that touched it last */
	for (uint64_t y = 2000; y < 2020; y++) {
		assert_int_equal(rd_count_access(a, y * 64, 2), 0);
		assert_int_equal(rd_count_access(b, y * 64, 2), 0);
	}
	ghost_same(a, b);
	/* lines of the ghost pushed out again, then back */
	for (uint64_t p = 0; p < P; p++) {
		ghost_period(a, base, dir, p);
		ghost_period(b, base, dir, p);
	}
	ghost_same(a, b);
	rd_count_free(a);
	rd_count_free(b);
}

static void test_ghost(void **state)
{
	(void)state;
	for (ghost_w = 6; ghost_w <= 8; ghost_w += 2)
		for (int again = 0; again < 2; again++) {
			ghost_case(1, again);
			ghost_case(-1, again);
		}
}

/* rd_count_held(_any): the largest level's lines, against an LRU list of
 * its size kept here, on a stream that revisits lines near and far */
static void test_held(void **state)
{
	(void)state;
	uint64_t lines[] = {3, 12};
	rd_count *c = rd_count_new(64, lines, 2, 1);
	assert_non_null(c);
	uint64_t lru[12];
	size_t n = 0;
	uint64_t x = 7;
	for (int t = 0; t < 3000; t++) {
		x = (x * 6364136223846793005ull + 1442695040888963407ull);
		uint64_t y = (x >> 33) % (t < 1500 ? 40 : 200);
		assert_int_equal(rd_count_access(c, y * 64, 0), 0);
		size_t i = 0;
		while (i < n && lru[i] != y)
			i++;
		if (i == n && n < 12)
			n++;
		for (size_t j = i < n ? i : n - 1; j > 0; j--)
			lru[j] = lru[j - 1];
		lru[0] = y;
		for (uint64_t z = 0; z < 200; z += 1 + (uint64_t)t % 3) {
			int want = 0, any = 0;
			for (size_t j = 0; j < n; j++) {
				want |= lru[j] == z;
				any |= lru[j] >= z && lru[j] <= z + 9;
			}
			assert_int_equal(rd_count_held(c, z), want);
			assert_int_equal(rd_count_held_any(c, z, z + 9), any);
		}
	}
	rd_count_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure2),
		cmocka_unit_test(test_toy),
		cmocka_unit_test(test_levels_match_direct_lru),
		cmocka_unit_test(test_repeat_is_expansion),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_extrapolate_reset),
		cmocka_unit_test(test_ghost),
		cmocka_unit_test(test_held),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
