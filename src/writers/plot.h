/*
 * --plot FILE.svg: a picture for slides, written as plain SVG (no plotting
 * dependency), on a canvas of --plot-size WxH (default 1920x1080, 16:9).
 * The bars: one horizontal stacked bar per run (input x point), hits and
 * the five miss classes as shares of requests, each bar labelled with its
 * kernel or the values its sweep point varies (one <g class="point"> per
 * bar, its label a <text class="bar-label">: left of the bar, or above it
 * in lines when it would not fit unsqueezed); with the L2's panel each
 * run's L2 bar below its L1's (<g class="level-l2">, tagged L1 and L2),
 * with the DRAM's panel its DRAM in lines (<g class="dram">: requests and
 * banks, the row buffer, the delays or saturation). The histograms: the
 * reuse distances of every run (one <g class="histogram"> each; the L2's
 * <g class="histogram l2">), bars split into hits and misses at the
 * cut-off (distance < ways hits), a dashed line at the associativity, the
 * tallest bins labelled with their counts. Up to 3 runs, the bars go
 * across the page above the histograms; more, left of them. When more
 * runs than fit legibly are plotted, the canvas grows downward; the width
 * and the text size stay. Every text is inside the canvas (none relies on
 * textLength, which some renderers ignore, but a histogram's title wider
 * than four lines).
 *
 * The colours are the Okabe-Ito palette, the same as the explorer's
 * (ui/theme.c; tests/test_palette.c checks that the two tables agree).
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdio.h>

#include "rdscope.h"

#define PLOT_DEFAULT_W 1920
#define PLOT_DEFAULT_H 1080
#define PLOT_MIN_SIDE 320
#define PLOT_MAX_SIDE 16384

typedef struct plot plot;

plot *plot_new(void);
void plot_free(plot *p);

/* "WxH" (each PLOT_MIN_SIDE to PLOT_MAX_SIDE) into *w, *h; 0, or -1. */
int plot_size_parse(const char *s, unsigned *w, unsigned *h);

/* The canvas size; 0 keeps the default. */
void plot_set_size(plot *p, unsigned w, unsigned h);

/*
 * Which runs have their histogram drawn (--plot-hist): "all" (the
 * default), "none", or run numbers separated by commas ("0,5"). spec is
 * kept, not copied. plot_hists_check: 0 if spec is one of those, else -1.
 */
int plot_hists_check(const char *spec);
void plot_set_hists(plot *p, const char *spec);
/* The runs --plot-hist names that the picture does not have (no such run,
 * or one skipped): how many, the first ones listed in buf ("5, 7").
 * plot_runs: the runs it has, in buf ("0 to 3", "1, 2", "none"). */
size_t plot_hists_missing(const plot *p, char *buf, size_t len);
void plot_runs(const plot *p, char *buf, size_t len);

/*
 * Add one run, in output order; copies what the picture needs. label
 * describes the point (may be NULL). Returns 0, or -1 when out of memory.
 */
int plot_add(plot *p, unsigned long run, const char *input, const char *kernel,
	     const char *label, const rd_config *cfg, const rd_result *r);

/* The panels drawn (PLOT_L1 always): PLOT_L2, the L2 of the runs that
 * have one; PLOT_DRAM, their DRAM. 0 (the default): every panel a run
 * has (run and sweep --plot); the explorer's w: what its screen shows. */
enum { PLOT_L1 = 1, PLOT_L2 = 2, PLOT_DRAM = 4 };
void plot_set_panels(plot *p, int panels);

/* Add a sweep point that was skipped (an invalid configuration): a row
 * with its label and "skipped: why" where its bar would be (class
 * "skipped"), no histogram. 0, or -1 when out of memory. */
int plot_add_skipped(plot *p, unsigned long run, const char *input, const char *label,
		     const char *why);

/* Write the SVG document; the caller checks ferror(f). */
void plot_write(const plot *p, FILE *f);

/*
 * validate --plot FILE.svg: the model's hit rate (y) against the measured
 * one (x), 0% to 100% on both axes, one marker per kernel and level (one
 * <g class="point l1"> or <g class="point l2"> each: L1 a circle, L2 a
 * square, labelled with the kernel, a <title> with both rates), the
 * diagonal model = measured dashed, axis labels and the title given
 * (the MAE). Canvas w x h (0: the default); the plot is square, the
 * legend beside it. The caller checks ferror(f).
 */
typedef struct plot_scatter_point {
	const char *label;      /* the kernel */
	double measured, model; /* hit rates in [0, 1] */
	int l2;                 /* 0: L1, 1: L2 */
} plot_scatter_point;

void plot_scatter_write(FILE *f, const plot_scatter_point *pts, size_t n, unsigned w, unsigned h,
			const char *title);

/* The palette: hits, each miss class (enum rd_class order), first touches
 * (the infinite-distance bin), as "#rrggbb". */
extern const char plot_hit_colour[];
extern const char *const plot_class_colour[RD_NCLASS];
extern const char plot_cold_colour[];

#endif
