/*
 * --plot FILE.svg: a picture for slides, written as plain SVG (no plotting
 * dependency). Top: one stacked bar per run (input x point) with the miss
 * breakdown as a share of requests, one <g class="point"> per bar. Below:
 * for each input, the reuse-distance histogram of its first run, bars
 * split into hits and misses at the cut-off (distance < ways hits) and a
 * dashed line at the associativity.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdio.h>

#include "rdscope.h"

typedef struct plot plot;

plot *plot_new(void);
void plot_free(plot *p);

/*
 * Add one run, in output order; copies what the picture needs. label
 * describes the point (may be NULL). Returns 0, or -1 when out of memory.
 */
int plot_add(plot *p, unsigned long run, const char *input, const char *kernel,
	     const char *label, const rd_config *cfg, const rd_result *r);

/* Write the SVG document; the caller checks ferror(f). */
void plot_write(const plot *p, FILE *f);

#endif
