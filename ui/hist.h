/*
 * Binning the reuse-distance histogram for the screen (pure, unit-tested).
 * Bins are one distance each when they fit the width, otherwise powers of
 * two (0, 1, 2-3, 4-7, ...). The hit/miss cut-off is always a bin edge, so
 * no bin mixes hits and misses. Cold misses (infinite distance) are not a
 * bin: the pane draws them apart. hist_plan_make works out the whole
 * pane's numbers (bins, values, scale, which bins fit) for the breakdown
 * view to draw.
 */
#ifndef UI_HIST_H
#define UI_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

typedef struct hist_bin {
	uint64_t lo, hi; /* distances lo..hi, inclusive */
	uint64_t count;
	int miss;        /* 1: distances at or past the cut-off (misses) */
} hist_bin;

/*
 * Bin hist[0..len) into out (at most max bins). cut: the first distance
 * that misses (the associativity in the paper's model). The bins cover
 * 0 .. max(span, len, cut + 1) - 1, so the cut-off shows even when no
 * request reached it (span: to line up with another histogram). log_bins:
 * 0 linear, 1 powers of two. Returns the bins used (bins past max are
 * dropped).
 */
size_t hist_bin_make(const uint64_t *hist, uint32_t len, uint64_t span, uint64_t cut,
		     int log_bins, hist_bin *out, size_t max);

/* Count of distances lo..hi in hist (for a baseline binned the same way). */
uint64_t hist_range(const uint64_t *hist, uint32_t len, uint64_t lo, uint64_t hi);

/* "0", "12", "1k", "16k", "2M": at most 4 characters, for bin labels. */
void hist_label(uint64_t v, char *buf, size_t len);

/* First distance that misses: the ways in the paper; the reference code
 * counts a distance equal to the ways as a hit. */
uint64_t hist_cut(const rd_config *c);

#define HIST_PLAN_BINS 256

/* What the histogram pane draws, worked out apart from the drawing. */
typedef struct hist_plan {
	uint64_t cut;     /* hist_cut */
	int log_bins;     /* one distance per bin does not fit: powers of two */
	size_t nb;        /* bins */
	hist_bin bins[HIST_PLAN_BINS];
	double val[HIST_PLAN_BINS]; /* each bin's count, or its change against the baseline */
	int colw;         /* columns per bin: 2 .. 8 (4 for log2 bins) */
	/* The infinite distances apart (info_inf_split): cold, no use in the
	 * set (gone), in flight; the baseline's (0 without one); what their
	 * two bars show (cold + gone, in flight: counts or changes). */
	uint64_t rc, rg, rf, bc, bg, bf;
	double cold, fly;
	double vmax;      /* the largest magnitude of val, cold and fly: the scale */
	/* Hits and misses are LRU's (else the policy's: no cut-off drawn,
	 * bins uncoloured); the cut-off column goes before bins[cut_bin]
	 * (nb: none). */
	int lru;
	size_t cut_bin;
	size_t last_first; /* the last first bin that still fills the width */
} hist_plan;

/*
 * The plan of result r's histogram (b: a baseline to compare with, or
 * NULL) under configuration c on aw columns of bars (the cut-off takes
 * one more): pure, no drawing.
 */
void hist_plan_make(const rd_result *r, const rd_result *b, const rd_config *c, int aw,
		    hist_plan *p);

#endif
