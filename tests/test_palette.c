/*
 * One palette for the explorer and the SVG plot (issue 16, item 7): the
 * two tables (ui/theme.c, src/writers/plot_svg.c: the layers keep them
 * apart) hold the same Okabe-Ito colours; the explorer's 8-colour scheme
 * keeps hits and capacity misses apart for red-green colour blindness;
 * the nearest xterm colour; and the SVG's canvas and text sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "theme.h"

/* Okabe & Ito's eight, and the grey the neutral classes take. */
static const char *const okabe_ito[] = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442",
					"#0072b2", "#d55e00", "#cc79a7", "#999999"};

static int in_okabe_ito(const char *c)
{
	for (size_t i = 0; i < sizeof okabe_ito / sizeof *okabe_ito; i++)
		if (!strcmp(okabe_ito[i], c))
			return 1;
	return 0;
}

static void test_palette_shared(void **state)
{
	(void)state;
	assert_non_null(theme_rgb(E_HIT));
	assert_string_equal(theme_rgb(E_HIT), plot_hit_colour);
	for (int c = 0; c < RD_NCLASS; c++) {
		assert_non_null(theme_rgb(E_CLASS(c)));
		assert_string_equal(theme_rgb(E_CLASS(c)), plot_class_colour[c]);
	}
	assert_string_equal(theme_rgb(E_COLD), plot_cold_colour);
	/* Every one from the palette; hits and the classes all different. */
	const char *all[RD_NCLASS + 1] = {plot_hit_colour};
	for (int c = 0; c < RD_NCLASS; c++)
		all[c + 1] = plot_class_colour[c];
	for (int i = 0; i <= RD_NCLASS; i++) {
		assert_true(in_okabe_ito(all[i]));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(all[i], all[j]);
	}
	assert_true(in_okabe_ito(plot_cold_colour));
	assert_null(theme_rgb(E_TITLE));
}

/* Red, green and yellow (and their mixes) are one axis to a person with
 * red-green colour blindness; blue, cyan, magenta and white stay apart
 * from them. */
static int red_green_axis(short c)
{
	return c == COLOR_RED || c == COLOR_GREEN || c == COLOR_YELLOW;
}

static void test_palette_eight_colours(void **state)
{
	(void)state;
	short hit = theme_fg8(E_HIT), cap = theme_fg8(E_CAPACITY);
	assert_false(red_green_axis(hit) && red_green_axis(cap));
	assert_int_equal(hit, COLOR_BLUE);
	assert_int_equal(cap, COLOR_RED);
	/* Hits and the seven classes: different colours (bypass: the
	 * terminal's own, bold; the eight are taken). */
	short fg[RD_NCLASS + 1] = {hit};
	for (int c = 0; c < RD_NCLASS; c++)
		fg[c + 1] = theme_fg8(E_CLASS(c));
	for (int i = 0; i <= RD_NCLASS; i++)
		for (int j = 0; j < i; j++)
			assert_int_not_equal(fg[i], fg[j]);
	assert_int_equal(theme_fg8(E_WRITE_EVICT), COLOR_GREEN);
	assert_int_equal(theme_fg8(E_BYPASS), -1);
	/* Without colour each class has a glyph of its own, the hits another. */
	for (int utf8 = 0; utf8 < 2; utf8++) {
		const glyphs *g = theme_glyphs(0, utf8);
		for (int i = 0; i < RD_NCLASS; i++) {
			assert_non_null(g->cls[i]);
			assert_string_not_equal(g->cls[i], g->hit);
			for (int j = 0; j < i; j++)
				assert_string_not_equal(g->cls[i], g->cls[j]);
		}
		assert_non_null(theme_glyphs(1, utf8)->cls[RD_NCLASS - 1]);
	}
	/* Better and worse deltas: not green against red. */
	assert_false(red_green_axis(theme_fg8(E_BETTER)) && red_green_axis(theme_fg8(E_WORSE)));
}

static void test_palette_xterm256(void **state)
{
	(void)state;
	assert_int_equal(theme_xterm256("#000000"), 16);
	assert_int_equal(theme_xterm256("#ffffff"), 231);
	assert_int_equal(theme_xterm256("#0072b2"), 25);  /* #005faf */
	assert_int_equal(theme_xterm256("#d55e00"), 166); /* #d75f00 */
	assert_int_equal(theme_xterm256("#e69f00"), 178); /* #d7af00 */
	assert_int_equal(theme_xterm256("#56b4e9"), 74);  /* #5fafd7 */
	assert_int_equal(theme_xterm256("#cc79a7"), 175); /* #d787af */
	assert_int_equal(theme_xterm256("#999999"), 247); /* grey 158 */
	assert_int_equal(theme_xterm256("#009e73"), 35);  /* #00af5f */
	assert_int_equal(theme_xterm256("#f0e442"), 221); /* #ffd75f */
	assert_int_equal(theme_xterm256("blue"), -1);
	assert_int_equal(theme_xterm256(NULL), -1);
}

static void test_plot_size_parse(void **state)
{
	(void)state;
	unsigned w = 0, h = 0;
	assert_int_equal(plot_size_parse("1920x1080", &w, &h), 0);
	assert_int_equal(w, 1920);
	assert_int_equal(h, 1080);
	assert_int_equal(plot_size_parse("1280x720", &w, &h), 0);
	assert_int_equal(w, 1280);
	assert_int_equal(h, 720);
	assert_int_equal(plot_size_parse("320x16384", &w, &h), 0);
	static const char *const bad[] = {"",         "1920",       "1920x",     "x1080",
					  "1920x1080x", "1920X1080", "+1920x1080", "1920x-1080",
					  "319x1080", "1920x16385", "99999999999999999999x1080",
					  "1920 x1080", "1920x1080 ", "1e3x1080"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (plot_size_parse(bad[i], &w, &h) == 0)
			fail_msg("'%s' accepted", bad[i]);
}

/* The SVG of n made-up runs at w x h (0: the default). */
static char *svg_of(int n, unsigned w, unsigned h, size_t *len)
{
	plot *p = plot_new();
	assert_non_null(p);
	plot_set_size(p, w, h);
	rd_config cfg;
	rd_config_default(&cfg);
	for (int i = 0; i < n; i++) {
		uint64_t hist[8] = {40, 30, 20, 10, 5, 4, 3, (uint64_t)i};
		rd_result r;
		memset(&r, 0, sizeof r);
		r.requests = 200 + (uint64_t)i;
		r.hits = 90;
		r.cls[RD_CLASS_COMPULSORY] = 88;
		r.cls[RD_CLASS_CAPACITY] = 22 + (uint64_t)i;
		r.hist = hist;
		r.hist_len = 8;
		r.hist_inf = 88;
		char label[64];
		snprintf(label, sizeof label, "l1.ways=%d latency.miss=%d", 1 << (i % 4), 100 * i);
		assert_int_equal(plot_add(p, (unsigned long)i, "in.trc", "k", label, &cfg, &r), 0);
	}
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	plot_write(p, f);
	assert_int_equal(fclose(f), 0);
	plot_free(p);
	return buf;
}

static double min_font(const char *svg)
{
	double min = 1e9;
	for (const char *s = svg; (s = strstr(s, "font-size=\"")); s++) {
		double v = strtod(s + 11, NULL);
		if (v < min)
			min = v;
	}
	return min;
}

static int count(const char *svg, const char *what)
{
	int n = 0;
	for (const char *s = svg; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void test_plot_canvas(void **state)
{
	(void)state;
	size_t len;
	char *svg = svg_of(1, 0, 0, &len);
	assert_non_null(strstr(svg, "width=\"1920\" height=\"1080\" viewBox=\"0 0 1920 1080\""));
	assert_true(min_font(svg) >= 16);
	free(svg);
	/* A sweep of 12: still the slide, every bar labelled, 12 histograms. */
	svg = svg_of(12, 0, 0, &len);
	assert_non_null(strstr(svg, "width=\"1920\" height=\"1080\""));
	assert_true(min_font(svg) >= 20);
	assert_int_equal(count(svg, "<g class=\"point\""), 12);
	assert_int_equal(count(svg, "class=\"bar-label\""), 12);
	assert_int_equal(count(svg, "<g class=\"histogram\""), 12);
	assert_non_null(strstr(svg, ">l1.ways=8 latency.miss=1100</text>"));
	free(svg);
	/* 1280x720: exactly that, text still 16 px. */
	svg = svg_of(4, 1280, 720, &len);
	assert_non_null(strstr(svg, "width=\"1280\" height=\"720\" viewBox=\"0 0 1280 720\""));
	assert_true(min_font(svg) >= 16);
	free(svg);
	/* More runs than fit: as wide, taller, the text as large. */
	svg = svg_of(200, 1280, 720, &len);
	assert_non_null(strstr(svg, "width=\"1280\" height=\""));
	assert_null(strstr(svg, "height=\"720\""));
	assert_true(min_font(svg) >= 16);
	free(svg);
}

/* The legend names write_evict and bypass only when a run has them, and
 * their segments take their colours. */
static void test_plot_store_classes(void **state)
{
	(void)state;
	size_t len;
	char *svg = svg_of(2, 0, 0, &len);
	assert_null(strstr(svg, plot_class_colour[RD_CLASS_WRITE_EVICT]));
	assert_null(strstr(svg, ">write_evict<"));
	free(svg);
	plot *p = plot_new();
	assert_non_null(p);
	rd_config cfg;
	rd_config_default(&cfg);
	cfg.stores = RD_STORES_EVICT;
	uint64_t hist[4] = {40, 30, 20, 10};
	rd_result r;
	memset(&r, 0, sizeof r);
	r.requests = 200;
	r.hits = 100;
	r.cls[RD_CLASS_COMPULSORY] = 60;
	r.cls[RD_CLASS_WRITE_EVICT] = 40;
	r.hist = hist;
	r.hist_len = 4;
	r.hist_inf = 100;
	assert_int_equal(plot_add(p, 0, "in.trc", "k", "l1.stores=evict", &cfg, &r), 0);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	plot_write(p, f);
	assert_int_equal(fclose(f), 0);
	plot_free(p);
	assert_non_null(strstr(buf, "class=\"write_evict\""));
	assert_non_null(strstr(buf, plot_class_colour[RD_CLASS_WRITE_EVICT]));
	assert_null(strstr(buf, plot_class_colour[RD_CLASS_BYPASS]));
	assert_null(strstr(buf, "(null)"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_palette_shared),
		cmocka_unit_test(test_palette_eight_colours),
		cmocka_unit_test(test_palette_xterm256),
		cmocka_unit_test(test_plot_size_parse),
		cmocka_unit_test(test_plot_canvas),
		cmocka_unit_test(test_plot_store_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
